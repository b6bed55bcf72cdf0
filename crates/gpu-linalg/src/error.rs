//! The crate's error type: gpu-array's errors, the libraries' status codes
//! and NumPy's `LinAlgError`.

/// Result type of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in gpu-linalg.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An error of the array layer (shapes, dtypes, axes, launches), in
    /// NumPy's words.
    #[error(transparent)]
    Array(#[from] gpu_array::Error),
    /// NumPy's `numpy.linalg.LinAlgError` for a singular matrix (`info`:
    /// the solver's 1-based index of the first zero pivot).
    #[error("Singular matrix")]
    Singular {
        /// cuSOLVER's `info`: the first zero pivot, counted from 1.
        info: i32,
    },
    /// NumPy's `LinAlgError` of a Cholesky factorization: the leading minor
    /// of order `order` is not positive definite.
    #[error("Matrix is not positive definite")]
    NotPositiveDefinite {
        /// The order of the first leading minor that is not positive definite.
        order: i32,
    },
    /// NumPy's `LinAlgError` of an iterative decomposition that did not
    /// converge ("SVD did not converge", "Eigenvalues did not converge").
    #[error("{what} did not converge")]
    NoConvergence {
        /// `"SVD"` or `"Eigenvalues"`, as NumPy's message says.
        what: &'static str,
        /// cuSOLVER's `info`: how many values (or superdiagonals) did not
        /// converge.
        count: i32,
    },
    /// Any other `numpy.linalg.LinAlgError`, in NumPy's words ("Last 2
    /// dimensions of the array must be square", ...).
    #[error("{0}")]
    LinAlg(String),
    /// A cuBLAS call returned a failure status.
    #[error("{call} failed: {name} ({message})")]
    Cublas {
        /// The function called.
        call: &'static str,
        /// The status's name (`CUBLAS_STATUS_INVALID_VALUE`).
        name: &'static str,
        /// What the status means.
        message: &'static str,
    },
    /// A cuSOLVER call returned a failure status.
    #[error("{call} failed: {name} ({message})")]
    Cusolver {
        /// The function called.
        call: &'static str,
        /// The status's name.
        name: &'static str,
        /// What the status means.
        message: &'static str,
    },
    /// cuBLAS or cuSOLVER (or one of their functions) could not be loaded.
    #[error("{library} is needed for {operation} but could not be loaded: {source}")]
    Library {
        /// `"cuBLAS"` or `"cuSOLVER"`.
        library: &'static str,
        /// The function that was needed.
        operation: &'static str,
        /// Where the loader looked.
        source: gpu_sys::LoadError,
    },
}

impl Error {
    /// Whether this is NumPy's `LinAlgError` (any of its typed forms).
    pub fn is_linalg_error(&self) -> bool {
        matches!(
            self,
            Error::Singular { .. }
                | Error::NotPositiveDefinite { .. }
                | Error::NoConvergence { .. }
                | Error::LinAlg(_)
        )
    }
}

impl From<gpu_runtime::Error> for Error {
    fn from(e: gpu_runtime::Error) -> Self {
        Error::Array(gpu_array::Error::Runtime(e))
    }
}

/// A shape error in NumPy's words.
pub(crate) fn shape(msg: impl Into<String>) -> Error {
    Error::Array(gpu_array::Error::Shape(msg.into()))
}

/// A value error in NumPy's words.
pub(crate) fn value(msg: impl Into<String>) -> Error {
    Error::Array(gpu_array::Error::Value(msg.into()))
}

/// A dtype error (NumPy's `TypeError`).
pub(crate) fn dtype(msg: impl Into<String>) -> Error {
    Error::Array(gpu_array::Error::DType(msg.into()))
}

/// A feature Cuprum does not support.
pub(crate) fn unsupported(msg: impl Into<String>) -> Error {
    Error::Array(gpu_array::Error::Unsupported(msg.into()))
}

/// The name and meaning of a cuBLAS status (`cublasGetStatusString`'s
/// texts, kept here so that a failure is explained even when the library
/// could not tell).
pub(crate) fn cublas_status(code: u32) -> (&'static str, &'static str) {
    match code {
        0 => ("CUBLAS_STATUS_SUCCESS", "success"),
        1 => (
            "CUBLAS_STATUS_NOT_INITIALIZED",
            "the library was not initialized",
        ),
        3 => (
            "CUBLAS_STATUS_ALLOC_FAILED",
            "the resource allocation failed",
        ),
        7 => (
            "CUBLAS_STATUS_INVALID_VALUE",
            "an invalid numeric value was used as an argument",
        ),
        8 => (
            "CUBLAS_STATUS_ARCH_MISMATCH",
            "the device does not support the feature",
        ),
        11 => (
            "CUBLAS_STATUS_MAPPING_ERROR",
            "an access to GPU memory space failed",
        ),
        13 => (
            "CUBLAS_STATUS_EXECUTION_FAILED",
            "the GPU program failed to execute",
        ),
        14 => (
            "CUBLAS_STATUS_INTERNAL_ERROR",
            "an internal operation failed",
        ),
        15 => (
            "CUBLAS_STATUS_NOT_SUPPORTED",
            "the functionality requested is not supported",
        ),
        16 => (
            "CUBLAS_STATUS_LICENSE_ERROR",
            "the functionality requested requires some license",
        ),
        _ => ("CUBLAS_STATUS_UNKNOWN", "unknown cuBLAS status"),
    }
}

/// The name and meaning of a cuSOLVER status.
pub(crate) fn cusolver_status(code: u32) -> (&'static str, &'static str) {
    match code {
        0 => ("CUSOLVER_STATUS_SUCCESS", "success"),
        1 => (
            "CUSOLVER_STATUS_NOT_INITIALIZED",
            "the library was not initialized",
        ),
        2 => (
            "CUSOLVER_STATUS_ALLOC_FAILED",
            "the resource allocation failed",
        ),
        3 => (
            "CUSOLVER_STATUS_INVALID_VALUE",
            "an invalid value was passed to the function",
        ),
        4 => (
            "CUSOLVER_STATUS_ARCH_MISMATCH",
            "the device does not support the feature",
        ),
        5 => (
            "CUSOLVER_STATUS_MAPPING_ERROR",
            "an access to GPU memory space failed",
        ),
        6 => (
            "CUSOLVER_STATUS_EXECUTION_FAILED",
            "the GPU program failed to execute",
        ),
        7 => (
            "CUSOLVER_STATUS_INTERNAL_ERROR",
            "an internal operation failed",
        ),
        8 => (
            "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
            "the matrix type is not supported",
        ),
        9 => (
            "CUSOLVER_STATUS_NOT_SUPPORTED",
            "the functionality requested is not supported",
        ),
        10 => ("CUSOLVER_STATUS_ZERO_PIVOT", "a zero pivot was met"),
        11 => ("CUSOLVER_STATUS_INVALID_LICENSE", "invalid license"),
        31 => (
            "CUSOLVER_STATUS_INVALID_WORKSPACE",
            "the workspace is invalid",
        ),
        _ => ("CUSOLVER_STATUS_UNKNOWN", "unknown cuSOLVER status"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }

    #[test]
    fn status_messages() {
        let (name, msg) = cublas_status(7);
        let e = Error::Cublas {
            call: "cublasGemmEx",
            name,
            message: msg,
        };
        assert_eq!(
            e.to_string(),
            "cublasGemmEx failed: CUBLAS_STATUS_INVALID_VALUE (an invalid numeric value was used as an argument)"
        );
        assert_eq!(cusolver_status(10).0, "CUSOLVER_STATUS_ZERO_PIVOT");
        assert_eq!(cusolver_status(999).0, "CUSOLVER_STATUS_UNKNOWN");
        assert_eq!(
            Error::LinAlg("Singular matrix".into()).to_string(),
            "Singular matrix"
        );
    }
}
