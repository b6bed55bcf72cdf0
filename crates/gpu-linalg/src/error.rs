//! The crate's errors are Cuprum's one error type, [`gpu_array::Error`]:
//! its linear-algebra variants (`Singular`, `NotPositiveDefinite`,
//! `NoConvergence`, `LinAlg`: NumPy's `LinAlgError`), a cuBLAS or cuSOLVER
//! status (`LibraryStatus`) and a library that could not be loaded
//! (`Library`). One type, so `?` needs no conversion between the layers.
//! This module keeps the constructors and the status tables.

pub use gpu_array::{Error, Result};

/// A shape error in NumPy's words.
pub(crate) fn shape(msg: impl Into<String>) -> Error {
    Error::Shape(msg.into())
}

/// A value error in NumPy's words.
pub(crate) fn value(msg: impl Into<String>) -> Error {
    Error::Value(msg.into())
}

/// A dtype error (NumPy's `TypeError`).
pub(crate) fn dtype(msg: impl Into<String>) -> Error {
    Error::DType(msg.into())
}

/// A feature Cuprum does not support.
pub(crate) fn unsupported(msg: impl Into<String>) -> Error {
    Error::Unsupported(msg.into())
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
        let e = Error::LibraryStatus {
            library: "cuBLAS",
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
