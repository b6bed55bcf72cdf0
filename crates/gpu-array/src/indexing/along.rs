//! `take_along_axis` (a gather by an index array that matches the array's
//! dimensions) and `diagonal` (a view).

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{self, Layout, Order, normalize_axis};

/// `take_along_axis`: `out` (`[outer, odim, rdim]` in C order) from the
/// raw `a` seen as `[outer, adim, rdim]` at the indices `ind` (of `out`'s
/// shape), wrapped into `0..adim`.
pub(super) fn along_kernel<'a>(
    a: Bind<'a>,
    ind: Bind<'a>,
    out: Bind<'a>,
    adim: usize,
    odim: usize,
    rdim: usize,
) -> Elementwise<'a> {
    Elementwise::new("take_along_axis")
        .raw("a", a)
        .input("ind", ind)
        .scalar("adim", DType::Int64, adim)
        .scalar("odim", DType::Int64, odim)
        .scalar("rdim", DType::Int64, rdim)
        .output("out", out)
        .op("out = a[cuprum_np::along_position(ind, (long long)i, adim, odim, rdim)];")
        .preamble(super::PREAMBLE)
}

/// `out[..., j, ...] = a[..., indices[..., j, ...], ...]` along `axis`
/// (NumPy's `take_along_axis`; `None` works on the flattened array):
/// `indices` has `a`'s number of dimensions and broadcasts with it off the
/// axis. Out-of-bounds indices wrap, as CuPy's indexing.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = array([[10, 30], [40, 20]])?;
/// let t = take_along_axis(&a, &array([[1], [0]])?, Some(1))?; // [[30], [40]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-integer indices, a different number of dimensions, shapes that do
/// not broadcast, an axis out of bounds.
pub fn take_along_axis(a: &Array, indices: &Array, axis: Option<isize>) -> Result<Array> {
    if !indices.dtype().is_integer() {
        return Err(Error::Index("`indices` must be an integer array".into()));
    }
    let Some(ax) = axis else {
        if indices.ndim() != 1 {
            return Err(Error::Value(
                "when axis=None, `indices` must have a single dimension.".into(),
            ));
        }
        return take_along_axis(&a.reshape([-1])?, indices, Some(0));
    };
    if indices.ndim() != a.ndim() {
        return Err(Error::Value(
            "`indices` and `arr` must have the same number of dimensions".into(),
        ));
    }
    let ax = normalize_axis(ax, a.ndim())?;
    a.check_same_device(indices, "take_along_axis")?;
    // The broadcast shape off the axis; the axis from `indices`.
    let mut ash = a.shape().to_vec();
    ash[ax] = 1;
    let mut ish = indices.shape().to_vec();
    ish[ax] = 1;
    let mut shape = layout::broadcast_shapes(&[&ash, &ish])?;
    shape[ax] = indices.shape()[ax];
    let adim = a.shape()[ax];
    let out = Array::empty_on(a.device(), &shape, a.dtype(), Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    if adim == 0 {
        return Err(Error::Index(
            "cannot do a non-empty take from an empty axes.".into(),
        ));
    }
    let mut a_shape = shape.clone();
    a_shape[ax] = adim;
    let a_b = a.broadcast_to(&a_shape)?;
    let idx_b = indices.broadcast_to(&shape)?;
    let rdim: usize = shape[ax + 1..].iter().product();
    along_kernel(
        (&a_b).into(),
        (&idx_b).into(),
        (&out).into(),
        adim,
        shape[ax],
        rdim,
    )
    .launch(&shape)?;
    Ok(out)
}

/// The diagonal of the 2-D sub-arrays in the plane of `axis1` and `axis2`,
/// `offset` above the main one (NumPy's `diagonal`): a view whose last
/// axis runs along the diagonal.
///
/// ```no_run
/// use gpu_array::creation::*;
/// # fn main() -> gpu_array::Result<()> {
/// let a = arange(8)?.reshape((2, 2, 2))?;
/// let d = gpu_array::indexing::diagonal(&a, 0, 0, 1)?; // np.diagonal(a, 0, 0, 1): [[0, 6], [1, 7]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 2 dimensions, equal or out-of-bounds axes.
pub fn diagonal(a: &Array, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(Error::Value(
            "diag requires an array of at least two dimensions".into(),
        ));
    }
    let (a1, a2) = (
        normalize_axis(axis1, a.ndim())?,
        normalize_axis(axis2, a.ndim())?,
    );
    if a1 == a2 {
        return Err(Error::Value("axis1 and axis2 cannot be the same".into()));
    }
    let (n1, n2) = (a.shape()[a1], a.shape()[a2]);
    let (s1, s2) = (a.strides()[a1], a.strides()[a2]);
    // Unsigned, so that `offset = isize::MIN` has a magnitude.
    let (start1, start2) = if offset >= 0 {
        (0, offset.unsigned_abs())
    } else {
        (offset.unsigned_abs(), 0)
    };
    let len = n1.saturating_sub(start1).min(n2.saturating_sub(start2));
    let overflow = || Error::Value("diagonal: byte offsets beyond isize".into());
    let mut off = a.layout().offset();
    if len > 0 {
        // start1 < n1 and start2 < n2: the first element lies in the array.
        let at =
            |start: usize, s: isize| isize::try_from(start).ok().and_then(|i| i.checked_mul(s));
        off = at(start1, s1)
            .zip(at(start2, s2))
            .and_then(|(x, y)| x.checked_add(y))
            .and_then(|d| off.checked_add(d))
            .ok_or_else(overflow)?;
    }
    let mut shape = Vec::with_capacity(a.ndim() - 1);
    let mut strides = Vec::with_capacity(a.ndim() - 1);
    for d in 0..a.ndim() {
        if d != a1 && d != a2 {
            shape.push(a.shape()[d]);
            strides.push(a.strides()[d]);
        }
    }
    shape.push(len);
    strides.push(s1.checked_add(s2).ok_or_else(overflow)?);
    Ok(a.with_layout(Layout::try_new(shape, strides, off)?, a.dtype()))
}
