//! `clip` (NumPy 2's `_clip`: out-of-range Python integers dropped, one
//! side through `maximum`/`minimum`, both through the clip loop) and
//! `nan_to_num`.

use crate::array::Array;
use crate::dtype::{Casting, Operand, ScalarValue, check_cast, result_type};
use crate::elementwise::{Bind, Elementwise};
use crate::error::Result;
use crate::layout::{self, Order};
use crate::ufunc::{self, Input, UfuncOptions};

/// One bound of [`clip`]: absent (NumPy's `None`), an array (broadcast
/// with `a`) or a Rust scalar (a Python scalar in NumPy 2: only its kind
/// counts for the result dtype).
#[derive(Debug, Clone, Copy)]
pub enum Bound<'a> {
    /// No bound on this side.
    None,
    /// An array of bounds.
    Array(&'a Array),
    /// A scalar bound.
    Scalar(ScalarValue),
}

impl<'a> From<&'a Array> for Bound<'a> {
    fn from(a: &'a Array) -> Self {
        Bound::Array(a)
    }
}

crate::array::from_rust_scalars!(Bound<'_>, Bound::Scalar; bool, i32, i64, u32, u64, f32, f64, ScalarValue);

impl Bound<'_> {
    fn operand(&self) -> Option<Operand> {
        match self {
            Bound::None => None,
            Bound::Array(a) => Some(Operand::Array(a.dtype())),
            Bound::Scalar(v) => Some(Operand::Scalar(v.kind())),
        }
    }

    fn input(&self) -> Option<Input<'_>> {
        match self {
            Bound::None => None,
            Bound::Array(a) => Some(Input::Array(a)),
            Bound::Scalar(v) => Some(Input::Scalar(*v)),
        }
    }
}

/// NumPy's `clip(a, a_min, a_max)`: `min(max(a, a_min), a_max)`
/// elementwise, the bounds arrays (broadcast together with `a`) or
/// scalars, either side possibly [`Bound::None`]. The result dtype is
/// NumPy 2's promotion of `a` and the bounds (a Python float with an
/// integer array gives float64). NaN in `a` or in a bound propagates
/// (complex values compare lexicographically, as NumPy's complex loop).
/// For integer `a`, a scalar integer bound beyond the dtype's range on its
/// own side is dropped, as NumPy 2 does; with both bounds absent the
/// result is a copy (`positive(a)`).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = clip(&array([-1.0, 0.5, 2.0])?, 0.0.into(), 1.0.into())?; // [0, 0.5, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes that do not broadcast; a scalar integer out of the result
/// dtype's range otherwise ("Python integer 1000 out of bounds for
/// int8"); allocation or launch failed.
pub fn clip(a: &Array, a_min: Bound<'_>, a_max: Bound<'_>) -> Result<Array> {
    clip_out(a, a_min, a_max, None)
}

/// [`clip`] writing into `out` (NumPy's `out=`), which must have the
/// broadcast shape and a dtype the result casts to under `same_kind`;
/// the computation is done in `out`'s dtype. Returns `out`.
///
/// ```no_run
/// use gpu_array::{DType, creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let out = empty([3], DType::Float32)?;
/// // np.clip(a, 0, 1, out=out): out is [0, 0.5, 1]
/// clip_out(&array([-1.0, 0.5, 2.0])?, 0.0.into(), 1.0.into(), Some(&out))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`clip`]; an `out` of the wrong shape or dtype.
pub fn clip_out(
    a: &Array,
    a_min: Bound<'_>,
    a_max: Bound<'_>,
    out: Option<&Array>,
) -> Result<Array> {
    let (mut lo, mut hi) = (a_min, a_max);
    if a.dtype().is_integer() {
        let info = crate::dtype::iinfo(a.dtype())?;
        if let Bound::Scalar(ScalarValue::Int(v)) = lo
            && v <= info.min
        {
            lo = Bound::None;
        }
        if let Bound::Scalar(ScalarValue::Int(v)) = hi
            && v >= info.max
        {
            hi = Bound::None;
        }
    }
    let opts = UfuncOptions {
        out: out.map(|o| vec![Some(o)]).unwrap_or_default(),
        ..Default::default()
    };
    let one = |name: &str, b: &Bound<'_>| -> Result<Array> {
        let b = b.input().expect("a present bound");
        let r = ufunc::call(ufunc::get(name)?, &[Input::Array(a), b], &opts)?;
        Ok(r.into_iter().next().expect("one output"))
    };
    match (&lo, &hi) {
        (Bound::None, Bound::None) => {
            let r = ufunc::call(ufunc::get("positive")?, &[Input::Array(a)], &opts)?;
            return Ok(r.into_iter().next().expect("one output"));
        }
        (Bound::None, h) => return one("minimum", h),
        (l, Bound::None) => return one("maximum", l),
        _ => {}
    }
    let mut ops = vec![Operand::Array(a.dtype())];
    ops.extend(lo.operand());
    ops.extend(hi.operand());
    let natural = result_type(&ops)?;
    for b in [&lo, &hi] {
        if let Bound::Scalar(ScalarValue::Int(v)) = b {
            crate::dtype::check_weak_int(*v, natural)?;
        }
    }
    let mut shapes: Vec<&[usize]> = vec![a.shape()];
    for b in [&lo, &hi] {
        if let Bound::Array(x) = b {
            shapes.push(x.shape());
        }
    }
    let shape = layout::broadcast_shapes(&shapes)?;
    let out = match out {
        Some(o) => {
            check_cast(natural, o.dtype(), Casting::SameKind)?;
            crate::error::check_out_shape("clip", &shape, o.shape(), false)?;
            o.clone()
        }
        None => Array::empty_on(a.device(), &shape, natural, Order::C)?,
    };
    fn arg(b: Bound<'_>) -> BoundArg<'_> {
        match b {
            Bound::Array(x) => BoundArg::Array(x.into()),
            Bound::Scalar(v) => BoundArg::Scalar(v),
            Bound::None => unreachable!("both bounds are present here"),
        }
    }
    clip_kernel(a.into(), arg(lo), arg(hi), (&out).into()).launch(&shape)?;
    Ok(out)
}

/// A bound operand of [`clip_kernel`]: an array (broadcast with `x`) or
/// a scalar, converted to the result dtype.
#[derive(Clone, Copy, Debug)]
pub(crate) enum BoundArg<'a> {
    /// An array of bounds.
    Array(Bind<'a>),
    /// One bound.
    Scalar(ScalarValue),
}

/// `clip(x, lo, hi)` in `y`'s dtype: NumPy's clip loops (`clip.cuh`).
pub(crate) fn clip_kernel<'a>(
    x: Bind<'a>,
    lo: BoundArg<'a>,
    hi: BoundArg<'a>,
    y: Bind<'a>,
) -> Elementwise<'a> {
    let out = y.dtype();
    let mut k = Elementwise::new("clip").input("x", x);
    for (name, b) in [("lo", lo), ("hi", hi)] {
        k = match b {
            BoundArg::Array(a) => k.input(name, a),
            BoundArg::Scalar(v) => k.scalar(name, out, v),
        };
    }
    let f = if out.is_complex() {
        "clip_complex"
    } else {
        "clip_real"
    };
    k.output("y", y)
        .op(format!(
            "y = cuprum_np::{f}(cuprum::cast<y_type>(x), cuprum::cast<y_type>(lo), \
             cuprum::cast<y_type>(hi));"
        ))
        .preamble(include_str!("clip.cuh"))
}

/// NumPy's `nan_to_num(x, copy=True, nan, posinf, neginf)`: NaN becomes
/// `nan`, +inf `posinf` (default the dtype's largest finite value), -inf
/// `neginf` (default its most negative finite value), in each part of a
/// complex number; the values are converted to the dtype as Python floats
/// are. Integer and bool arrays are returned as copies.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let n = nan_to_num(&array([f64::NAN, f64::INFINITY])?, 0.0, None, None)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn nan_to_num(x: &Array, nan: f64, posinf: Option<f64>, neginf: Option<f64>) -> Result<Array> {
    let dt = x.dtype();
    if !dt.is_inexact() {
        return x.copy();
    }
    let r = dt.real_dtype();
    let info = crate::dtype::finfo(r)?;
    let out = Array::empty_on(x.device(), x.shape(), dt, Order::C)?;
    let values = [nan, posinf.unwrap_or(info.max), neginf.unwrap_or(info.min)];
    nan_to_num_kernel(x.into(), (&out).into(), values).launch(x.shape())?;
    Ok(out)
}

/// `nan_to_num` for a float or complex dtype: NaN, +inf and -inf of each
/// component replaced by `values` (nan, posinf, neginf), converted to the
/// component dtype (`clip.cuh`).
pub(crate) fn nan_to_num_kernel<'a>(x: Bind<'a>, y: Bind<'a>, values: [f64; 3]) -> Elementwise<'a> {
    let dt = x.dtype();
    let r = dt.real_dtype();
    let f = |v: &str| format!("cuprum_np::nan_to_num<nan_v_type>({v}, nan_v, pinf_v, ninf_v)");
    let op = if dt.is_complex() {
        format!("y = y_type({}, {});", f("x.real()"), f("x.imag()"))
    } else {
        format!("y = {};", f("x"))
    };
    Elementwise::new("nan_to_num")
        .input("x", x)
        .scalar("nan_v", r, values[0])
        .scalar("pinf_v", r, values[1])
        .scalar("ninf_v", r, values[2])
        .output("y", y)
        .op(op)
        .preamble(include_str!("clip.cuh"))
}
