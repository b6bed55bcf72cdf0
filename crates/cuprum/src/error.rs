//! The facade's error: one type that the errors of every layer convert
//! into, so that code mixing the array layer and the leaf crates can use
//! `?` on all of them and return `cuprum::Result<T>`.
//!
//! ```no_run
//! use cuprum as cp;
//!
//! fn residual(a: &cp::Array, b: &cp::Array) -> cp::Result<f64> {
//!     let x = cp::linalg::solve(a, b)?; // gpu_linalg::Error
//!     let r = cp::subtract(&cp::matmul(a, &x)?, b)?; // gpu_array::Error
//!     let n = cp::linalg::norm(&r, Default::default(), Default::default(), false)?;
//!     Ok(n.item::<f64>(&[])?)
//! }
//! ```
//!
//! Array-layer errors keep one home: a `gpu_linalg::Error::Array` (a
//! shape, dtype or launch error met inside a linear-algebra routine)
//! becomes [`Error::Array`], as a `gpu_runtime::Error` does (through the
//! array layer's `Runtime` variant). Matching on
//! `cuprum::Error::Array(gpu_array::Error::Shape(_))` therefore catches
//! shape errors wherever they were raised.

/// Result type of the facade.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every error of Cuprum's layers.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The array layer's errors (shapes, dtypes, axes, indices, kernel
    /// compilation and launches, and the CUDA runtime's), in NumPy's words.
    #[error(transparent)]
    Array(#[from] gpu_array::Error),
    /// gpu-linalg's own failures: NumPy's `LinAlgError`, a cuBLAS or
    /// cuSOLVER status, a library that could not be loaded.
    #[error(transparent)]
    Linalg(gpu_linalg::Error),
}

impl From<gpu_linalg::Error> for Error {
    fn from(e: gpu_linalg::Error) -> Self {
        match e {
            gpu_linalg::Error::Array(a) => Error::Array(a),
            other => Error::Linalg(other),
        }
    }
}

impl From<gpu_runtime::Error> for Error {
    fn from(e: gpu_runtime::Error) -> Self {
        Error::Array(gpu_array::Error::Runtime(e))
    }
}

impl Error {
    /// The array layer's error, if this is one.
    pub fn as_array(&self) -> Option<&gpu_array::Error> {
        match self {
            Error::Array(e) => Some(e),
            _ => None,
        }
    }

    /// Whether this is NumPy's `LinAlgError` ("Singular matrix", ...).
    pub fn is_linalg_error(&self) -> bool {
        matches!(self, Error::Linalg(e) if e.is_linalg_error())
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

    fn shape_in_linalg() -> gpu_linalg::Result<()> {
        Err(gpu_linalg::Error::Array(gpu_array::Error::Shape(
            "operands could not be broadcast together with shapes (2,3) (4,)".into(),
        )))
    }

    fn singular() -> gpu_linalg::Result<()> {
        Err(gpu_linalg::Error::Singular { info: 2 })
    }

    fn dtype() -> gpu_array::Result<()> {
        Err(gpu_array::Error::DType(
            "array type float16 is unsupported in linalg".into(),
        ))
    }

    /// `?` on every layer's error in one function.
    fn mixed(which: u8) -> Result<()> {
        match which {
            0 => shape_in_linalg()?,
            1 => singular()?,
            _ => dtype()?,
        }
        Ok(())
    }

    #[test]
    fn every_layer_converts_and_array_errors_keep_one_home() {
        let e = mixed(0).unwrap_err();
        assert!(matches!(e.as_array(), Some(gpu_array::Error::Shape(_))));
        assert_eq!(
            e.to_string(),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
        let e = mixed(1).unwrap_err();
        assert!(e.is_linalg_error());
        assert_eq!(e.to_string(), "Singular matrix");
        let e = mixed(2).unwrap_err();
        assert!(matches!(e, Error::Array(gpu_array::Error::DType(_))));
        assert!(!e.is_linalg_error());
    }
}
