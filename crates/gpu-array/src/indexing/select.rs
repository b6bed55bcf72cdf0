//! Selections by condition: `where`, `nonzero`, `argwhere`, `flatnonzero`,
//! `compress`, `extract`. The three-argument `where` is one elementwise
//! kernel; `nonzero` and `argwhere` are a cumulative sum of the mask, one
//! host read of the count (NumPy's result sizes depend on the data) and one
//! scatter; `extract` and `compress` of the flattened array (or of a 1-D
//! array) take the compaction kernels of [`compact`](super::compact), which
//! also wait once for the count.

use super::{TakeMode, take};
use crate::array::Array;
use crate::dtype::{DType, Operand, ScalarValue, result_type};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{self, Order};
use crate::ufunc::Input;

/// An `x` or `y` operand of [`where_kernel`]: an array, or a scalar in
/// the result's dtype.
#[derive(Clone, Copy, Debug)]
pub(super) enum WhereArg<'a> {
    /// An array, broadcast with the condition.
    Array(Bind<'a>),
    /// One value.
    Scalar(ScalarValue),
}

/// The three-argument `where`: `z` takes `x` where `c` is nonzero, else
/// `y`, both converted to `z`'s dtype.
pub(super) fn where_kernel<'a>(
    c: Bind<'a>,
    x: WhereArg<'a>,
    y: WhereArg<'a>,
    z: Bind<'a>,
) -> Elementwise<'a> {
    let zt = z.dtype();
    let mut k = Elementwise::new("where").input("c", c);
    for (name, v) in [("x", x), ("y", y)] {
        k = match v {
            WhereArg::Array(a) => k.input(name, a),
            WhereArg::Scalar(v) => k.scalar(name, zt, v),
        };
    }
    k.output("z", z)
        .alias("Z", zt)
        .op("z = cuprum::cast<bool>(c) ? cuprum::cast<Z>(x) : cuprum::cast<Z>(y);")
}

fn operand(x: &Input<'_>) -> Operand {
    match x {
        Input::Array(a) => Operand::Array(a.dtype()),
        Input::Scalar(v) => Operand::Scalar(v.kind()),
    }
}

/// Elements of `x` where `condition` is true, else of `y` (NumPy's
/// three-argument `where`), all three broadcast together; the dtype is
/// NumPy's result type of `x` and `y` (scalars are weak, NEP 50). A
/// nonzero condition of any dtype counts as true.
///
/// Every call runs when it is made: `where_(&a.greater(0.0)?, &a, &b)` is
/// two kernels, the comparison writing a boolean array that the `where`
/// reads back. To make it one pass, write the whole expression as one fused
/// function, which compares inline and never materializes the condition:
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let a = gpu_array::creation::arange_with(-5, 5, 1, None)?;
/// # let b = gpu_array::creation::arange_with(0, 10, 1, None)?;
/// let f = fuse("where_positive", |a: &FVar, b: &FVar| {
///     fx::where_(a.greater(0.0), a, b)
/// });
/// let z = f.call(&[&a, &b])?; // one kernel, no boolean array
/// # Ok(()) }
/// ```
///
/// On the H200, for float32 arrays of 2^28 elements (`bench/cupy_bench.py`,
/// rows "where(a>0,a,b) two calls" and "fused where(a>0,a,b)"): the two
/// calls take about 1.25 ms, the fused form about 0.74 ms, CuPy's two calls
/// 2.61 ms.
///
/// # Errors
/// Shapes that do not broadcast; no array among the arguments; devices
/// differ.
pub fn where_<'a>(
    condition: &Array,
    x: impl Into<Input<'a>>,
    y: impl Into<Input<'a>>,
) -> Result<Array> {
    let (x, y) = (x.into(), y.into());
    let dt = result_type(&[operand(&x), operand(&y)])?;
    let mut shapes: Vec<&[usize]> = vec![condition.shape()];
    for i in [&x, &y] {
        if let Input::Array(a) = i {
            condition.check_same_device(a, "where")?;
            shapes.push(a.shape());
        }
    }
    let shape = layout::broadcast_shapes(&shapes)?;
    let out = Array::empty_on(condition.device(), &shape, dt, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let arg = |i: Input<'a>| match i {
        Input::Array(a) => WhereArg::Array(a.into()),
        Input::Scalar(v) => WhereArg::Scalar(v),
    };
    where_kernel(condition.into(), arg(x), arg(y), (&out).into()).launch(&shape)?;
    Ok(out)
}

/// `argwhere`'s scatter: each true element of the flat mask `m` writes
/// its coordinates over the `dims` (C order, `nd` of them, the rest 1)
/// into row `c - 1` of the raw int64 `out` (`c` the mask's inclusive
/// cumulative sum).
pub(super) fn argwhere_kernel<'a>(
    m: Bind<'a>,
    c: Bind<'a>,
    out: Bind<'a>,
    nd: usize,
    dims: [i64; MAX_NDIM],
) -> Elementwise<'a> {
    let mut k = Elementwise::new("argwhere")
        .input("m", m)
        .input("c", c)
        .scalar("nd", DType::Int64, nd);
    for (d, &n) in dims.iter().enumerate() {
        k = k.scalar(&format!("s{d}"), DType::Int64, n);
    }
    k.raw_output("out", out)
        .op("if (m) cuprum_np::argwhere_row(out, (long long)i, c, nd, \
             {s0, s1, s2, s3, s4, s5, s6, s7});")
        .preamble(super::PREAMBLE)
}

/// The most dimensions [`argwhere`] and [`nonzero`] handle.
const MAX_NDIM: usize = 8;

/// The indices of the nonzero elements, one row per element in C order
/// (NumPy's `argwhere`): int64 of shape `(count, ndim)`. Waits for the
/// device once (the count).
///
/// ```no_run
/// use gpu_array::{creation::array, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = argwhere(&array([[0, 1], [2, 0]])?)?; // [[0, 1], [1, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// More than 8 dimensions (`Unsupported`); allocation or launch failed.
pub fn argwhere(a: &Array) -> Result<Array> {
    let nd = a.ndim();
    if nd > MAX_NDIM {
        return Err(Error::Unsupported(format!(
            "argwhere: {nd} dimensions (at most {MAX_NDIM})"
        )));
    }
    let n = a.size();
    let dev = a.device();
    if n == 0 {
        return Array::empty_on(dev, &[0, nd], DType::Int64, Order::C);
    }
    let mask = if a.dtype() == DType::Bool {
        a.reshape([-1])?
    } else {
        a.not_equal(0)?.reshape([-1])?
    };
    let csum = crate::math::cumsum(&mask, None, Some(DType::Int64))?;
    let count = csum.item::<i64>(&[n as isize - 1])? as usize;
    let cols = nd.max(1);
    let out = Array::empty_on(dev, &[count, cols], DType::Int64, Order::C)?;
    if count > 0 {
        let mut dims = [1i64; MAX_NDIM];
        for (d, &s) in a.shape().iter().enumerate() {
            dims[d] = s as i64;
        }
        argwhere_kernel((&mask).into(), (&csum).into(), (&out).into(), cols, dims).launch(&[n])?;
    }
    if nd == 0 {
        // NumPy: a 0-d input gives shape (count, 0).
        return Array::empty_on(dev, &[count, 0], DType::Int64, Order::C);
    }
    Ok(out)
}

/// The indices of the nonzero elements, one int64 array per dimension
/// (NumPy's `nonzero`; a 0-d input is an error in NumPy 2).
///
/// ```no_run
/// use gpu_array::{creation::array, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let nz = nonzero(&array([[0, 1], [2, 0]])?)?; // ([0, 1], [1, 0])
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d input; as [`argwhere`].
pub fn nonzero(a: &Array) -> Result<Vec<Array>> {
    if a.ndim() == 0 {
        return Err(Error::Value(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() \
             instead."
                .into(),
        ));
    }
    let w = argwhere(a)?;
    (0..a.ndim())
        .map(|d| {
            w.slice(&[crate::AxisIndex::FULL, crate::AxisIndex::Index(d as isize)])?
                .copy()
        })
        .collect()
}

/// The indices of the nonzero elements of the flattened `a` (NumPy's
/// `flatnonzero`).
///
/// ```no_run
/// use gpu_array::{creation::array, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let f = flatnonzero(&array([0, 3, 0, 4])?)?; // [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`argwhere`].
pub fn flatnonzero(a: &Array) -> Result<Array> {
    let flat = a.reshape([-1])?;
    Ok(nonzero(&flat)?.remove(0))
}

/// The slices of `a` along `axis` (the flattened array for `None`) where
/// the 1-D `condition` is true (NumPy's `compress`); a condition shorter
/// than the axis selects among the first entries.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = compress(&array([true, false, true])?, &array([1, 2, 3])?, None)?; // [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A condition that is not 1-D or longer than the axis.
pub fn compress(condition: &Array, a: &Array, axis: Option<isize>) -> Result<Array> {
    if condition.ndim() != 1 {
        return Err(Error::Value("condition must be a 1-d array".into()));
    }
    let len = match axis {
        None => a.size(),
        Some(ax) => a.shape()[layout::normalize_axis(ax, a.ndim())?],
    };
    if condition.size() > len {
        return Err(Error::Index(format!(
            "index {} is out of bounds for axis {} with size {len}",
            condition.size() - 1,
            axis.unwrap_or(0)
        )));
    }
    // The flattened array (or a 1-D one along its axis): the compaction
    // kernels over its first `condition.size()` elements.
    if axis.is_none() || a.ndim() == 1 {
        let flat = a.reshape([-1])?;
        let head = flat.slice(&[layout::AxisIndex::from(0..condition.size())])?;
        return super::compact::mask_select(&head, &super::compact::as_bool(condition)?);
    }
    let idx = flatnonzero(condition)?;
    take(a, &idx, axis, TakeMode::Wrap)
}

/// The elements of `a` where `condition` is nonzero, both flattened
/// (NumPy's `extract`).
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let e = extract(&array([true, false])?, &array([5, 6])?)?; // [5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Different sizes.
pub fn extract(condition: &Array, a: &Array) -> Result<Array> {
    if condition.size() != a.size() {
        return Err(Error::Value(format!(
            "extract: condition of size {} for an array of size {}",
            condition.size(),
            a.size()
        )));
    }
    // Same sizes: the compaction kernels read both in C order.
    super::compact::mask_select(a, &super::compact::as_bool(condition)?)
}
