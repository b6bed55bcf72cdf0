//! NumPy's ufuncs that map zero to zero, applied to the stored values of
//! a compressed matrix (SciPy's `A.sqrt()`, `A.sin()`, ...): the pattern
//! stays, so the result is sparse. Duplicates are summed first, as SciPy
//! does (`sqrt(a + b)` is not `sqrt(a) + sqrt(b)`). The dtype is the
//! ufunc's for the values' dtype (`sqrt` of integers is float64).

use gpu_array::{Result, ufunc};

use crate::compressed::{CscMatrix, CsrMatrix};

macro_rules! value_ufuncs {
    ($name:ident: $($f:ident),* $(,)?) => {
        impl $name {
            $(
                #[doc = concat!("SciPy's `A.", stringify!($f), "()`: NumPy's `", stringify!($f), "` of the stored values, duplicates")]
                /// summed first; the pattern is kept.
                ///
                /// ```no_run
                /// # fn main() -> gpu_array::Result<()> {
                #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[0.25, 0.0], [0.0, 1.0]])?)?;")]
                #[doc = concat!("let b = a.", stringify!($f), "()?;")]
                /// # Ok(()) }
                /// ```
                ///
                /// # Errors
                /// No loop of the ufunc for the dtype; allocation or launch
                /// failures.
                pub fn $f(&self) -> Result<$name> {
                    let c = self.c.canonical()?;
                    let v = ufunc::$f(&c.data)?;
                    Ok($name { c: c.with_data(v) })
                }
            )*
        }
    };
}

macro_rules! both {
    ($($f:ident),* $(,)?) => {
        value_ufuncs!(CsrMatrix: $($f),*);
        value_ufuncs!(CscMatrix: $($f),*);
    };
}

both!(
    abs, sign, sqrt, expm1, log1p, sin, tan, arcsin, arctan, sinh, tanh, arcsinh, arctanh, rint,
    floor, ceil, trunc, deg2rad, rad2deg,
);
