//! Cuprum's one error type, shared by every layer: [`Error`] is
//! `gpu_array::Error`, and gpu-linalg (and each later layer) returns it
//! too, so code mixing the layers uses `?` on every call and returns
//! [`Result<T>`] with no conversion and no `Ok(..?)`.
//!
//! ```no_run
//! use cuprum as cp;
//!
//! fn residual(a: &cp::Array, b: &cp::Array) -> cp::Result<f64> {
//!     let x = cp::linalg::solve(a, b)?; // a linear-algebra routine
//!     let r = cp::subtract(&cp::matmul(a, &x)?, b)?; // a ufunc
//!     cp::linalg::norm_with(&r, Default::default(), Default::default(), false)?.item::<f64>(&[])
//! }
//! ```
//!
//! The variants follow NumPy's exception classes (match on them to
//! branch): `Shape`/`Broadcast`/`OutShape` and `Value` (`ValueError`),
//! `AxisOutOfBounds` (`AxisError`), `IndexOutOfBounds` (`IndexError`),
//! `Cast`/`DType` (`TypeError`), `Overflow` (`OverflowError`),
//! `ZeroDivision` (`ZeroDivisionError`), `NumpyRuntime` (`RuntimeError`),
//! `Singular`, `NotPositiveDefinite`, `NoConvergence` and `LinAlg`
//! (`numpy.linalg.LinAlgError`, see [`Error::is_linalg_error`]);
//! `LibraryStatus` is CuPy's `CUBLASError`, `CUSOLVERError` and the like;
//! `Runtime` holds the CUDA runtime's errors (driver, memory, NVRTC).

pub use gpu_array::error::{Error, Result};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }

    fn shape_in_linalg() -> gpu_linalg::Result<()> {
        Err(gpu_array::Error::Shape(
            "operands could not be broadcast together with shapes (2,3) (4,)".into(),
        ))
    }

    fn singular() -> gpu_linalg::Result<()> {
        Err(Error::Singular { info: 2 })
    }

    fn dtype() -> gpu_array::Result<()> {
        Err(gpu_array::Error::DType(
            "array type float16 is unsupported in linalg".into(),
        ))
    }

    fn runtime() -> gpu_runtime::Result<()> {
        Err(gpu_runtime::Error::InvalidDevice {
            ordinal: 3,
            count: 1,
        })
    }

    /// `?` on every layer's result in one function.
    fn mixed(which: u8) -> Result<()> {
        match which {
            0 => shape_in_linalg()?,
            1 => singular()?,
            2 => runtime()?,
            _ => dtype()?,
        }
        Ok(())
    }

    /// The layers' results are the facade's: returned as they are.
    fn direct() -> Result<()> {
        shape_in_linalg()
    }

    #[test]
    fn every_layer_returns_the_one_error() {
        let e = mixed(0).unwrap_err();
        assert!(matches!(e, Error::Shape(_)));
        assert_eq!(
            e.to_string(),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
        let e = mixed(1).unwrap_err();
        assert!(e.is_linalg_error());
        assert_eq!(e.to_string(), "Singular matrix");
        assert!(matches!(mixed(2).unwrap_err(), Error::Runtime(_)));
        let e = mixed(3).unwrap_err();
        assert!(matches!(e, Error::DType(_)));
        assert!(!e.is_linalg_error());
        assert!(matches!(direct(), Err(Error::Shape(_))));
    }
}
