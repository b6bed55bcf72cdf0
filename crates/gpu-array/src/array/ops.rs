//! Elementwise operations that belong to the array itself: dtype casts,
//! copies between any layouts, fills, `copyto` with `where`, and the Rust
//! operators.

use std::ops;

use super::Array;
use crate::dtype::{Casting, DType, ScalarValue, check_cast};
use crate::elementwise::{
    ElementwiseSpec, FastKey, LaunchArg, SpecParam, astype_spec, dtype_tag, fill_spec, launch,
    launch_keyed,
};
use crate::error::Result;
use crate::layout::{self, Order};
use crate::ufunc::{self, Input, scalar_to_bytes};

impl Array {
    /// A copy converted to `dtype` (NumPy's `astype`, whose casting is
    /// `unsafe`): floats to integers truncate as CuPy documents (values out
    /// of the target's range are undefined in NumPy and follow the GPU's
    /// conversion here), complex to real keeps the real part.
    ///
    /// # Errors
    /// Allocation or launch failed.
    pub fn astype(&self, dtype: DType) -> Result<Array> {
        self.astype_with(dtype, Casting::Unsafe, Order::C)
    }

    /// [`Array::astype`] with NumPy's `casting` check and memory `order`.
    ///
    /// # Errors
    /// The cast is not allowed by `casting` (NumPy's message).
    pub fn astype_with(&self, dtype: DType, casting: Casting, order: Order) -> Result<Array> {
        check_cast(self.dtype(), dtype, casting)?;
        let out = Array::empty_on(self.device(), self.shape(), dtype, order)?;
        cast_into(&out, self)?;
        Ok(out)
    }

    /// Sets every element to `value`, converted to the array's dtype as
    /// NumPy converts a Python scalar (NumPy's `fill`).
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
        let dt = self.dtype();
        let bytes = scalar_to_bytes(value, dt);
        launch_keyed(
            self.shape(),
            &[LaunchArg::Scalar(bytes), LaunchArg::Out(self)],
            Some(op_key(1, &[dt])),
            |l, i| Ok(fill_spec(dt, l, i)),
        )
    }
}

/// A fast-path key for the array's own kernels: `op` numbers them (they
/// share a family distinct from every ufunc's address).
fn op_key(op: u16, dtypes: &[DType]) -> FastKey {
    let mut tag: smallvec::SmallVec<[u16; 8]> = smallvec::SmallVec::new();
    tag.push(op);
    tag.extend(dtypes.iter().map(|d| d.index() as u16));
    FastKey { family: 1, tag }
}

/// Writes `src` converted to `dst`'s dtype into `dst` (same shape).
pub(crate) fn cast_into(dst: &Array, src: &Array) -> Result<()> {
    let (from, to) = (src.dtype(), dst.dtype());
    launch_keyed(
        dst.shape(),
        &[LaunchArg::Array(src), LaunchArg::Out(dst)],
        Some(op_key(2, &[from, to])),
        |l, i| Ok(astype_spec(from, to, l, i)),
    )
}

/// Copies `src` into `dst`, broadcasting, with NumPy's `casting` rule
/// (`same_kind` by default in NumPy) and an optional boolean `where` mask
/// (NumPy's `copyto`).
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
    let (from, to) = (src.dtype(), dst.dtype());
    launch(
        dst.shape(),
        &[
            LaunchArg::Array(src),
            LaunchArg::Array(mask),
            LaunchArg::Out(dst),
        ],
        |l, i| {
            let mut s = ElementwiseSpec::new(
                String::new(),
                vec![
                    SpecParam::input("x", from),
                    SpecParam::input("m", DType::Bool),
                    SpecParam::output("y", to),
                ],
                "if (m) y = cuprum::cast<y_type>(x);",
                l,
                i,
            );
            s.name = format!(
                "cuprum_copyto_where_{}_{}_{}",
                dtype_tag(from),
                dtype_tag(to),
                s.variant_tag()
            );
            Ok(s)
        },
    )
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
    /// # Errors
    /// As [`ufunc::equal`].
    pub fn equal<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
        ufunc::equal(self, other)
    }

    /// `self != other` elementwise.
    ///
    /// # Errors
    /// As [`ufunc::not_equal`].
    pub fn not_equal<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
        ufunc::not_equal(self, other)
    }

    /// `self < other` elementwise.
    ///
    /// # Errors
    /// As [`ufunc::less`].
    pub fn less<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
        ufunc::less(self, other)
    }

    /// `self <= other` elementwise.
    ///
    /// # Errors
    /// As [`ufunc::less_equal`].
    pub fn less_equal<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
        ufunc::less_equal(self, other)
    }

    /// `self > other` elementwise.
    ///
    /// # Errors
    /// As [`ufunc::greater`].
    pub fn greater<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
        ufunc::greater(self, other)
    }

    /// `self >= other` elementwise.
    ///
    /// # Errors
    /// As [`ufunc::greater_equal`].
    pub fn greater_equal<'a>(&'a self, other: impl Into<Input<'a>>) -> Result<Array> {
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
        impl<'a, R: Into<Input<'a>>> ops::$tr<R> for &'a Array {
            type Output = Array;
            /// Panics on error (shapes, dtypes, device); the named ufunc
            /// function returns a `Result` instead.
            #[track_caller]
            fn $method(self, rhs: R) -> Array {
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

impl ops::Not for &Array {
    type Output = Array;
    /// NumPy's `~`: bitwise NOT, logical NOT for bool. Panics on error; see
    /// [`ufunc::invert`].
    #[track_caller]
    fn not(self) -> Array {
        or_panic(ufunc::invert(self), "!")
    }
}
