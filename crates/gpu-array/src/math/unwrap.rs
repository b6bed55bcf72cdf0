//! `unwrap`: NumPy's phase unwrapping from `diff`, one correction kernel,
//! `cumsum` and an add into a view of the result.

use crate::array::Array;
use crate::dtype::{DType, Operand, ScalarKind, ScalarValue, result_type};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, Order, normalize_axis};

use crate::ufunc::{self, Input, UfuncOptions};

/// NumPy's `unwrap(p, discont=None, axis=-1, period=2*pi)` with a float
/// period: [`unwrap_with`] with `ScalarValue::Float(period)`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let u = unwrap(&array([0.0, 6.0])?, None, -1, std::f64::consts::TAU)?; // [0, 6 - 2pi]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`unwrap_with`].
pub fn unwrap(p: &Array, discont: Option<f64>, axis: isize, period: f64) -> Result<Array> {
    unwrap_with(p, discont, axis, ScalarValue::Float(period))
}

/// NumPy's `unwrap(p, discont, axis, period=period)`: adds multiples of
/// `period` to `p` along `axis` wherever consecutive values jump by more
/// than `max(discont, period / 2)` (`discont` defaults to `period / 2`).
/// The result dtype is NumPy's `result_type(diff(p), period)`: a float
/// period with an integer array gives float64, an integer period keeps an
/// integer array integer (and then the interval's boundary is ambiguous
/// only for an even period, as NumPy's).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.unwrap([0, 7, 14], period=8): [0, -1, -2]
/// let u = unwrap_with(&array([0.0, 7.0, 14.0])?, None, -1, 8.0.into())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d or complex `p`, an axis out of bounds; allocation or launch
/// failed.
pub fn unwrap_with(
    p: &Array,
    discont: Option<f64>,
    axis: isize,
    period: ScalarValue,
) -> Result<Array> {
    if p.ndim() == 0 {
        return Err(Error::Value(
            "diff requires input that is at least one dimensional".into(),
        ));
    }
    if p.dtype().is_complex() {
        return Err(Error::DType(
            "ufunc 'remainder' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
                .into(),
        ));
    }
    let ax = normalize_axis(axis, p.ndim())?;
    let dd = crate::math::diff(p, 1, ax as isize, None, None)?;
    let kind = match period {
        ScalarValue::Bool(_) | ScalarValue::Int(_) => ScalarKind::Int,
        ScalarValue::Float(_) => ScalarKind::Float,
        ScalarValue::Complex(_) => {
            return Err(Error::DType(
                "unwrap: a complex period is not supported".into(),
            ));
        }
    };
    let dtype = result_type(&[Operand::Array(dd.dtype()), Operand::Scalar(kind)])?;
    if dtype.is_bool() {
        return Err(Error::DType(
            "numpy boolean subtract, the `-` operator, is not supported".into(),
        ));
    }
    // interval_high and whether the boundary is ambiguous, as NumPy.
    let (high, ambiguous, discont) = if dtype.is_integer() {
        let per = match period {
            ScalarValue::Int(v) => v,
            ScalarValue::Bool(b) => i128::from(b),
            _ => unreachable!("an integer result needs an integer period"),
        };
        let (q, r) = (per.div_euclid(2), per.rem_euclid(2));
        (
            ScalarValue::Int(q),
            r == 0,
            discont.unwrap_or(per as f64 / 2.0),
        )
    } else {
        let per = match period {
            ScalarValue::Float(f) => f,
            ScalarValue::Int(v) => v as f64,
            ScalarValue::Bool(b) => f64::from(u8::from(b)),
            ScalarValue::Complex(_) => unreachable!("rejected above"),
        };
        (
            ScalarValue::Float(per / 2.0),
            true,
            discont.unwrap_or(per / 2.0),
        )
    };
    let ph = Array::empty_on(p.device(), dd.shape(), dtype, Order::C)?;
    let s = UnwrapScalars {
        period,
        high,
        discont,
        ambiguous,
    };
    unwrap_kernel((&dd).into(), (&ph).into(), s).launch(ph.shape())?;
    let up = p.astype(dtype)?;
    if p.shape()[ax] > 1 {
        let cs = crate::math::cumsum(&ph, Some(ax as isize), None)?;
        let mut idx = vec![AxisIndex::FULL; p.ndim()];
        idx[ax] = AxisIndex::Slice {
            start: Some(1),
            stop: None,
            step: 1,
        };
        let dst = up.slice(&idx)?;
        let src = p.slice(&idx)?;
        let opts = UfuncOptions {
            out: vec![Some(&dst)],
            casting: crate::dtype::Casting::Unsafe,
            ..Default::default()
        };
        ufunc::call(
            ufunc::get("add")?,
            &[Input::Array(&src), Input::Array(&cs)],
            &opts,
        )?;
    }
    Ok(up)
}
/// The scalar operands of [`unwrap_kernel`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct UnwrapScalars {
    /// The period, in the result dtype.
    pub(crate) period: ScalarValue,
    /// Half of it, in the result dtype.
    pub(crate) high: ScalarValue,
    /// Differences below it in magnitude are not corrected.
    pub(crate) discont: f64,
    /// Whether a difference of exactly `-high` is ambiguous (NumPy's
    /// `boundary_ambiguous`).
    pub(crate) ambiguous: bool,
}

/// `unwrap`'s phase correction of each difference `x` in `y`'s dtype
/// (`unwrap.cuh`).
pub(crate) fn unwrap_kernel<'a>(x: Bind<'a>, y: Bind<'a>, s: UnwrapScalars) -> Elementwise<'a> {
    let (input, out) = (x.dtype(), y.dtype());
    let int_input = input.is_integer() || input.is_bool();
    Elementwise::new("unwrap")
        .input("x", x)
        .scalar("period", out, s.period)
        .scalar("high", out, s.high)
        .scalar("discont", DType::Float64, s.discont)
        .scalar("amb", DType::Int64, i64::from(s.ambiguous))
        .output("y", y)
        .op(format!(
            "y = cuprum_np::unwrap_correction<{int_input}>(cuprum::cast<y_type>(x), period, high, \
             discont, amb);"
        ))
        .preamble(include_str!("unwrap.cuh"))
}
