//! The Rust operators and methods of [`FVar`]: the same operators as
//! [`crate::Array`]'s (each the ufunc NumPy's operator calls), comparisons
//! and reductions as methods.

use std::ops;

use num_complex::Complex;

use super::fx;
use super::var::{FArg, FVar};
use crate::dtype::ScalarValue;
use crate::reduction::ReduceOptions;

macro_rules! binary_operators {
    ($($tr:ident $method:ident $f:ident;)*) => {$(
        impl<R: Into<FArg>> ops::$tr<R> for &FVar {
            type Output = FVar;
            fn $method(self, rhs: R) -> FVar {
                fx::$f(self, rhs)
            }
        }
        impl<R: Into<FArg>> ops::$tr<R> for FVar {
            type Output = FVar;
            fn $method(self, rhs: R) -> FVar {
                fx::$f(self, rhs)
            }
        }
        binary_operators!(@scalars $tr $method $f; bool, i8, i16, i32, i64, u8, u16, u32, u64,
                          isize, usize, f32, f64, Complex<f32>, Complex<f64>, ScalarValue);
    )*};
    (@scalars $tr:ident $method:ident $f:ident; $($t:ty),*) => {$(
        impl ops::$tr<&FVar> for $t {
            type Output = FVar;
            fn $method(self, rhs: &FVar) -> FVar {
                fx::$f(self, rhs)
            }
        }
        impl ops::$tr<FVar> for $t {
            type Output = FVar;
            fn $method(self, rhs: FVar) -> FVar {
                fx::$f(self, rhs)
            }
        }
    )*};
}

binary_operators! {
    Add add add;
    Sub sub subtract;
    Mul mul multiply;
    Div div true_divide;
    Rem rem remainder;
    BitAnd bitand bitwise_and;
    BitOr bitor bitwise_or;
    BitXor bitxor bitwise_xor;
    Shl shl left_shift;
    Shr shr right_shift;
}

macro_rules! assign_operators {
    ($($tr:ident $method:ident $f:ident;)*) => {$(
        impl<R: Into<FArg>> ops::$tr<R> for FVar {
            /// Rebinds `self` to the result (a new graph value).
            fn $method(&mut self, rhs: R) {
                *self = fx::$f(&*self, rhs);
            }
        }
    )*};
}

assign_operators! {
    AddAssign add_assign add;
    SubAssign sub_assign subtract;
    MulAssign mul_assign multiply;
    DivAssign div_assign true_divide;
    RemAssign rem_assign remainder;
    BitAndAssign bitand_assign bitwise_and;
    BitOrAssign bitor_assign bitwise_or;
    BitXorAssign bitxor_assign bitwise_xor;
    ShlAssign shl_assign left_shift;
    ShrAssign shr_assign right_shift;
}

impl ops::Neg for &FVar {
    type Output = FVar;
    fn neg(self) -> FVar {
        fx::negative(self)
    }
}

impl ops::Neg for FVar {
    type Output = FVar;
    fn neg(self) -> FVar {
        fx::negative(self)
    }
}

impl ops::Not for &FVar {
    type Output = FVar;
    /// NumPy's `~`: bitwise NOT, logical NOT for bool.
    fn not(self) -> FVar {
        fx::invert(self)
    }
}

impl ops::Not for FVar {
    type Output = FVar;
    /// NumPy's `~`: bitwise NOT, logical NOT for bool.
    fn not(self) -> FVar {
        fx::invert(self)
    }
}

/// Comparisons (Rust's `==` and `<` must return `bool`) and reductions, as
/// [`crate::Array`]'s methods.
impl FVar {
    /// `self == other` (NumPy's `equal`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("is_zero", |x: &FVar| x.equal(0));
    /// let t = f.trace(&[ArgSig::array(DType::Int32, 1)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn equal(&self, other: impl Into<FArg>) -> FVar {
        fx::equal(self, other)
    }

    /// `self != other`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("differs", |x: &FVar, y: &FVar| x.not_equal(y));
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 1), ArgSig::array(DType::Float64, 1)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn not_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::not_equal(self, other)
    }

    /// `self < other`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("below", |x: &FVar| x.less(1.5));
    /// assert_eq!(f.trace(&[ArgSig::array(DType::Float32, 2)])?.output_dtypes(), [DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn less(&self, other: impl Into<FArg>) -> FVar {
        fx::less(self, other)
    }

    /// `self <= other`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("at_most", |x: &FVar, y: &FVar| x.less_equal(y));
    /// let t = f.trace(&[ArgSig::array(DType::Int64, 2), ArgSig::array(DType::Int64, 1)])?;
    /// assert_eq!((t.output_dtypes(), t.output_ndims()), (vec![DType::Bool], vec![2]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn less_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::less_equal(self, other)
    }

    /// `self > other`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("positive_count", |x: &FVar| x.greater(0.0).sum(()));
    /// let t = f.trace(&[ArgSig::array(DType::Float64, 1)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Int64]); // the sum of bools
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn greater(&self, other: impl Into<FArg>) -> FVar {
        fx::greater(self, other)
    }

    /// `self >= other`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("at_least", |x: &FVar| x.greater_equal(10));
    /// assert_eq!(f.trace(&[ArgSig::array(DType::UInt8, 1)])?.output_dtypes(), [DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn greater_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::greater_equal(self, other)
    }

    /// `self.sum(axis=..., keepdims=..., dtype=...)`, the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("row_sums", |x: &FVar| x.sum(1));
    /// let t = f.trace(&[ArgSig::array(DType::Int32, 2)])?;
    /// assert_eq!((t.reduced_axes(), t.output_dtypes()), (Some(&[1][..]), vec![DType::Int64]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn sum<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::sum(self, opts)
    }

    /// `self.prod(...)`, the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("product", |x: &FVar| x.prod(()));
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 1)])?;
    /// assert!(t.is_reduction());
    /// assert_eq!(t.output_ndims(), [0]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn prod<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::prod(self, opts)
    }

    /// `self.max(...)` (NaN propagates), the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("peak", |x: &FVar| x.max(0));
    /// let t = f.trace(&[ArgSig::array(DType::Float16, 2)])?;
    /// assert_eq!((t.output_dtypes(), t.output_ndims()), (vec![DType::Float16], vec![1]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn max<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::amax(self, opts)
    }

    /// `self.min(...)` (NaN propagates), the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("low", |x: &FVar| x.min(()));
    /// assert_eq!(f.trace(&[ArgSig::array(DType::Int16, 3)])?.output_dtypes(), [DType::Int16]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn min<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::amin(self, opts)
    }

    /// `self.mean(...)`, the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("avg", |x: &FVar| x.mean(()));
    /// assert_eq!(f.trace(&[ArgSig::array(DType::Int32, 1)])?.output_dtypes(), [DType::Float64]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn mean<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::mean(self, opts)
    }

    /// `self.all(axis=..., keepdims=...)`, the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("all_positive", |x: &FVar| x.greater(0).all(()));
    /// assert_eq!(f.trace(&[ArgSig::array(DType::Int32, 1)])?.output_dtypes(), [DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn all<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::all(self, opts)
    }

    /// `self.any(...)`, the last step.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("has_negative", |x: &FVar| x.less(0).any(-1));
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 2)])?;
    /// assert_eq!(t.reduced_axes(), Some(&[1][..]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn any<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::any(self, opts)
    }
}
