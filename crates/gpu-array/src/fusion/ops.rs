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
    pub fn equal(&self, other: impl Into<FArg>) -> FVar {
        fx::equal(self, other)
    }

    /// `self != other`.
    pub fn not_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::not_equal(self, other)
    }

    /// `self < other`.
    pub fn less(&self, other: impl Into<FArg>) -> FVar {
        fx::less(self, other)
    }

    /// `self <= other`.
    pub fn less_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::less_equal(self, other)
    }

    /// `self > other`.
    pub fn greater(&self, other: impl Into<FArg>) -> FVar {
        fx::greater(self, other)
    }

    /// `self >= other`.
    pub fn greater_equal(&self, other: impl Into<FArg>) -> FVar {
        fx::greater_equal(self, other)
    }

    /// `self.sum(axis=..., keepdims=..., dtype=...)`, the last step.
    pub fn sum<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::sum(self, opts)
    }

    /// `self.prod(...)`, the last step.
    pub fn prod<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::prod(self, opts)
    }

    /// `self.max(...)` (NaN propagates), the last step.
    pub fn max<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::amax(self, opts)
    }

    /// `self.min(...)` (NaN propagates), the last step.
    pub fn min<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::amin(self, opts)
    }

    /// `self.mean(...)`, the last step.
    pub fn mean<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::mean(self, opts)
    }

    /// `self.all(axis=..., keepdims=...)`, the last step.
    pub fn all<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::all(self, opts)
    }

    /// `self.any(...)`, the last step.
    pub fn any<'o>(&self, opts: impl Into<ReduceOptions<'o>>) -> FVar {
        fx::any(self, opts)
    }
}
