//! Elementwise operations that belong to the array itself: dtype casts,
//! copies between any layouts, fills, `copyto` with `where`, and the Rust
//! operators.

use std::ops;

use super::Array;
use crate::dtype::{Casting, DType, ScalarValue, check_cast};
use crate::elementwise::{Elementwise, astype_kernel, fill_kernel};
use crate::error::Result;
use crate::layout::{self, CopyOrder, Order};
use crate::ufunc::{self, Arg, scalar_to_bytes};

impl Array {
    /// A copy converted to `dtype` (NumPy's `astype`, whose casting is
    /// `unsafe`): floats to integers truncate as CuPy documents (values out
    /// of the target's range are undefined in NumPy and follow the GPU's
    /// conversion here), complex to real keeps the real part.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let f = x.astype(gpu_array::DType::Float32)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation or launch failed.
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        self.astype_with(dtype, Casting::Unsafe, Order::C)
    }

    /// [`Array::astype`] with NumPy's `casting` check and memory `order`
    /// (`Order::C`, `Order::F`, or [`CopyOrder::A`] and [`CopyOrder::K`],
    /// NumPy's default, which follow `self`'s layout).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = array([1.5, 2.0])?;
    /// // x.astype('int32', casting='unsafe', order='C'): [1, 2]
    /// let y = x.astype_with(DType::Int32, gpu_array::dtype::Casting::Unsafe, CopyOrder::C)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The cast is not allowed by `casting` (NumPy's message).
    pub fn astype_with(
        &self,
        dtype: DType,
        casting: Casting,
        order: impl Into<CopyOrder>,
    ) -> Result<Array> {
        check_cast(self.dtype(), dtype, casting)?;
        let out = self.empty_in(order.into(), dtype)?;
        cast_into(&out, self)?;
        Ok(out)
    }

    /// Sets every element to `value`, converted to the array's dtype as
    /// NumPy converts a Python scalar (NumPy's `fill`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let y = gpu_array::creation::empty(4, gpu_array::DType::Float32)?;
    /// y.fill(1.5)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An integer out of the dtype's range; launch failed.
    pub fn fill(&self, value: impl Into<ScalarValue>) -> Result<()> {
        let value = value.into();
        if let ScalarValue::Int(n) = value
            && self.dtype().is_integer()
        {
            crate::dtype::check_weak_int(n, self.dtype())?;
        }
        let bytes = scalar_to_bytes(value, self.dtype());
        fill_kernel(bytes, self.into()).launch(self.shape())
    }
}

/// Writes `src` converted to `dst`'s dtype into `dst` (same shape).
pub(crate) fn cast_into(dst: &Array, src: &Array) -> Result<()> {
    astype_kernel(src.into(), dst.into()).launch(dst.shape())
}

/// Copies `src` into `dst`, broadcasting, with NumPy's `casting` rule
/// (`same_kind` by default in NumPy) and an optional boolean `where` mask
/// (NumPy's `copyto`).
///
/// ```no_run
/// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let dst = zeros([2, 3], DType::Float64)?;
/// // np.copyto(dst, [1, 2, 3]): every row is [1, 2, 3]
/// gpu_array::array::copyto(&dst, &array([1.0, 2.0, 3.0])?, gpu_array::dtype::Casting::SameKind, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The cast is not allowed, shapes do not broadcast to `dst`'s, the mask
/// is not boolean, or devices differ.
pub fn copyto(dst: &Array, src: &Array, casting: Casting, mask: Option<&Array>) -> Result<()> {
    check_cast(src.dtype(), dst.dtype(), casting)?;
    layout::broadcast_strides(src.shape(), src.strides(), dst.shape())?;
    let Some(mask) = mask else {
        return cast_into(dst, src);
    };
    if mask.dtype() != DType::Bool {
        return check_cast(mask.dtype(), DType::Bool, Casting::Safe);
    }
    // The output is read: where the mask is false it keeps its value.
    Elementwise::new("copyto_where")
        .input("x", src)
        .input("m", mask)
        .output("y", dst)
        .op("if (m) y = cuprum::cast<y_type>(x);")
        .reads_outputs()
        .launch(dst.shape())
}

/// `impl From<T> for $target` as `$wrap(ScalarValue::from(x))`, for the
/// listed Rust scalars, or (without a list) for every Rust scalar of the
/// table below: the one body behind the operand types that take a weak
/// scalar (`Input`, fusion's `FArg`, `r_`'s `RItem`, clip's `Bound`).
macro_rules! from_rust_scalars {
    ($target:ty, $wrap:path) => {
        $crate::array::from_rust_scalars!(
            $target, $wrap; bool, i8, i16, i32, i64, u8, u16, u32, u64, isize, usize, f32, f64,
            num_complex::Complex<f32>, num_complex::Complex<f64>
        );
    };
    ($target:ty, $wrap:path; $($t:ty),* $(,)?) => {$(
        impl From<$t> for $target {
            fn from(x: $t) -> Self {
                $wrap($crate::dtype::ScalarValue::from(x))
            }
        }
    )*};
}
pub(crate) use from_rust_scalars;

macro_rules! scalar_value_from {
    ($($t:ty => $conv:expr),* $(,)?) => {$(
        impl From<$t> for ScalarValue {
            fn from(x: $t) -> Self {
                let f: fn($t) -> ScalarValue = $conv;
                f(x)
            }
        }
    )*};
}
// Every Rust scalar Cuprum takes as a weak (Python-like) scalar; `Input`
// and the fusion's `FArg` convert through these.
scalar_value_from!(
    bool => ScalarValue::Bool,
    i8 => |x| ScalarValue::Int(x.into()),
    i16 => |x| ScalarValue::Int(x.into()),
    i32 => |x| ScalarValue::Int(x.into()),
    i64 => |x| ScalarValue::Int(x.into()),
    u8 => |x| ScalarValue::Int(x.into()),
    u16 => |x| ScalarValue::Int(x.into()),
    u32 => |x| ScalarValue::Int(x.into()),
    u64 => |x| ScalarValue::Int(x.into()),
    isize => |x| ScalarValue::Int(x as i128),
    usize => |x| ScalarValue::Int(x as i128),
    f32 => |x| ScalarValue::Float(x.into()),
    f64 => ScalarValue::Float,
    num_complex::Complex<f32> => |x| {
        ScalarValue::Complex(num_complex::Complex::new(x.re.into(), x.im.into()))
    },
    num_complex::Complex<f64> => ScalarValue::Complex,
);

/// Comparisons as methods (Rust's `==` and `<` must return `bool`).
impl Array {
    /// `self == other` elementwise (NumPy's `equal`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let m = x.equal(2)?; // bool mask
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::equal`].
    pub fn equal<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::equal(self, other)
    }

    /// `self != other` elementwise.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(3)?;
    /// let m = x.not_equal(1)?; // x != 1: [True, False, True]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::not_equal`].
    pub fn not_equal<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::not_equal(self, other)
    }

    /// `self < other` elementwise.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let m = x.less(&x)?; // all false
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::less`].
    pub fn less<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::less(self, other)
    }

    /// `self <= other` elementwise.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(3)?;
    /// let m = x.less_equal(1)?; // x <= 1: [True, True, False]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::less_equal`].
    pub fn less_equal<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::less_equal(self, other)
    }

    /// `self > other` elementwise.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(3)?;
    /// let m = x.greater(1)?; // x > 1: [False, False, True]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::greater`].
    pub fn greater<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::greater(self, other)
    }

    /// `self >= other` elementwise.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(3)?;
    /// let m = x.greater_equal(1)?; // x >= 1: [False, True, True]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`ufunc::greater_equal`].
    pub fn greater_equal<'b>(&self, other: impl Into<Arg<'b>>) -> Result<Array> {
        ufunc::greater_equal(self, other)
    }
}

#[track_caller]
fn or_panic(r: Result<Array>, op: &str) -> Array {
    match r {
        Ok(a) => a,
        Err(e) => panic!("operator {op} failed: {e} (use the named function for a Result)"),
    }
}

macro_rules! binary_operators {
    ($($tr:ident $method:ident $f:ident $sym:literal;)*) => {$(
        impl<'a, 'b, R: Into<Arg<'b>>> ops::$tr<R> for &'a Array {
            type Output = Array;
            /// Panics on error (shapes, dtypes, device); the named ufunc
            /// function returns a `Result` instead.
            #[track_caller]
            fn $method(self, rhs: R) -> Array {
                or_panic(ufunc::$f(self, rhs), $sym)
            }
        }
        impl<'b, R: Into<Arg<'b>>> ops::$tr<R> for Array {
            type Output = Array;
            /// Panics on error (shapes, dtypes, device); the named ufunc
            /// function returns a `Result` instead.
            #[track_caller]
            fn $method(self, rhs: R) -> Array {
                or_panic(ufunc::$f(self, rhs), $sym)
            }
        }
        scalar_left_operators!($tr $method $f $sym; bool, i64, f64, num_complex::Complex<f64>);
    )*};
}

/// `2.0 * &x`, `1 - x`: a Rust scalar on the left of an array. One type per
/// kind (bool, `i64`, `f64`, complex128) so that an unsuffixed literal
/// needs no annotation (`cp::exp(2.0 * &x)`); a scalar on the left is a
/// weak (Python) scalar either way, so its width does not matter. A typed
/// `f32` goes on the right (`&x * 2.0f32`).
macro_rules! scalar_left_operators {
    ($tr:ident $method:ident $f:ident $sym:literal; $($t:ty),*) => {$(
        impl ops::$tr<&Array> for $t {
            type Output = Array;
            /// Panics on error; the named ufunc function returns a `Result`.
            #[track_caller]
            fn $method(self, rhs: &Array) -> Array {
                or_panic(ufunc::$f(self, rhs), $sym)
            }
        }
        impl ops::$tr<Array> for $t {
            type Output = Array;
            /// Panics on error; the named ufunc function returns a `Result`.
            #[track_caller]
            fn $method(self, rhs: Array) -> Array {
                or_panic(ufunc::$f(self, rhs), $sym)
            }
        }
    )*};
}

binary_operators! {
    Add add add "+";
    Sub sub subtract "-";
    Mul mul multiply "*";
    Div div true_divide "/";
    Rem rem remainder "%";
    BitAnd bitand bitwise_and "&";
    BitOr bitor bitwise_or "|";
    BitXor bitxor bitwise_xor "^";
    Shl shl left_shift "<<";
    Shr shr right_shift ">>";
}

impl ops::Neg for &Array {
    type Output = Array;
    /// Panics on error; see [`ufunc::negative`].
    #[track_caller]
    fn neg(self) -> Array {
        or_panic(ufunc::negative(self), "-")
    }
}

impl ops::Neg for Array {
    type Output = Array;
    /// Panics on error; see [`ufunc::negative`].
    #[track_caller]
    fn neg(self) -> Array {
        or_panic(ufunc::negative(self), "-")
    }
}

impl ops::Not for &Array {
    type Output = Array;
    /// NumPy's `~`: bitwise NOT, logical NOT for bool. Panics on error; see
    /// [`ufunc::invert`].
    #[track_caller]
    fn not(self) -> Array {
        or_panic(ufunc::invert(self), "!")
    }
}

impl ops::Not for Array {
    type Output = Array;
    /// As `!&a`.
    #[track_caller]
    fn not(self) -> Array {
        or_panic(ufunc::invert(self), "!")
    }
}
