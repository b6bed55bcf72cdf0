//! Default tolerances per dtype, for comparing a GPU result with a host or
//! NumPy oracle.
//!
//! CuPy's `numpy_cupy_allclose` defaults to `rtol=1e-7, atol=0` for every
//! dtype and lets a test pass a per-dtype table
//! (`rtol={numpy.float16: 1e-3, 'default': 1e-7}`); CuPy's own tests loosen
//! float16 and float32 that way again and again. Cuprum makes that table the
//! default:
//!
//! | dtype                          | rtol   | atol   |
//! |--------------------------------|--------|--------|
//! | `bool`, integers               | 0      | 0      |
//! | `float16`                      | 1e-3   | 1e-3   |
//! | `bfloat16`                     | 1e-2   | 1e-2   |
//! | `float32`, `complex64`         | 1e-5   | 1e-6   |
//! | `float64`, `complex128`        | 1e-7   | 0      |
//!
//! Integers and `bool` compare exactly (CuPy's `rtol=1e-7` would let
//! `10_000_001` pass for `10_000_000`). `float64` keeps CuPy's default.

use gpu_array::DType;

/// A relative and an absolute tolerance: `|actual - desired| <= atol +
/// rtol * |desired|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
}

impl Tolerance {
    /// The default tolerance of `dtype` (see the [module docs](self)).
    ///
    /// ```
    /// use gpu_testing::{DType, Tolerance};
    /// assert_eq!(Tolerance::for_dtype(DType::Float32), Tolerance { rtol: 1e-5, atol: 1e-6 });
    /// assert_eq!(Tolerance::for_dtype(DType::Complex128), Tolerance::for_dtype(DType::Float64));
    /// assert_eq!(Tolerance::for_dtype(DType::Int32), Tolerance { rtol: 0.0, atol: 0.0 });
    /// ```
    pub const fn for_dtype(dtype: DType) -> Tolerance {
        let (rtol, atol) = match dtype.real_dtype() {
            DType::Float16 => (1e-3, 1e-3),
            DType::BFloat16 => (1e-2, 1e-2),
            DType::Float32 => (1e-5, 1e-6),
            DType::Float64 => (1e-7, 0.0),
            _ => (0.0, 0.0),
        };
        Tolerance { rtol, atol }
    }

    /// The looser of two tolerances, component by component: comparing a
    /// float16 result with a float64 reference takes float16's tolerance.
    ///
    /// ```
    /// use gpu_testing::Tolerance;
    /// let a = Tolerance { rtol: 1e-3, atol: 0.0 };
    /// let b = Tolerance { rtol: 1e-5, atol: 1e-6 };
    /// assert_eq!(a.loosest(b), Tolerance { rtol: 1e-3, atol: 1e-6 });
    /// ```
    pub const fn loosest(self, other: Tolerance) -> Tolerance {
        Tolerance {
            rtol: self.rtol.max(other.rtol),
            atol: self.atol.max(other.atol),
        }
    }

    /// The tolerance for comparing arrays of these two dtypes: the looser of
    /// their defaults.
    ///
    /// ```
    /// use gpu_testing::{DType, Tolerance};
    /// let t = Tolerance::for_pair(DType::Float16, DType::Float64);
    /// assert_eq!(t, Tolerance::for_dtype(DType::Float16));
    /// ```
    pub const fn for_pair(actual: DType, desired: DType) -> Tolerance {
        Tolerance::for_dtype(actual).loosest(Tolerance::for_dtype(desired))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table() {
        let t = |rtol, atol| Tolerance { rtol, atol };
        assert_eq!(Tolerance::for_dtype(DType::Float16), t(1e-3, 1e-3));
        assert_eq!(Tolerance::for_dtype(DType::BFloat16), t(1e-2, 1e-2));
        assert_eq!(Tolerance::for_dtype(DType::Float32), t(1e-5, 1e-6));
        assert_eq!(Tolerance::for_dtype(DType::Complex64), t(1e-5, 1e-6));
        assert_eq!(Tolerance::for_dtype(DType::Float64), t(1e-7, 0.0));
        assert_eq!(Tolerance::for_dtype(DType::Complex128), t(1e-7, 0.0));
        for dt in [DType::Bool, DType::Int8, DType::UInt64] {
            assert_eq!(Tolerance::for_dtype(dt), t(0.0, 0.0));
        }
        assert_eq!(
            Tolerance::for_pair(DType::Float64, DType::Float16),
            t(1e-3, 1e-3)
        );
        assert_eq!(
            Tolerance::for_pair(DType::Int32, DType::Float32),
            t(1e-5, 1e-6)
        );
    }
}
