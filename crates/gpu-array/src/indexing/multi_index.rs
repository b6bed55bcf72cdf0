//! Multi-indices: `ix_` (an open mesh of index arrays),
//! `ravel_multi_index` (coordinates to flat indices) and `unravel_index`
//! (flat indices to coordinates), on the device and, for single indices,
//! on the host.

use super::choose::{ClipMode, flag_set, new_flag};
use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{self, Order};

/// An open mesh of the 1-D `args` (NumPy's and CuPy's `ix_`): the `k`-th
/// result is `args[k]` reshaped to `(1, ..., n_k, ..., 1)`, so that
/// together they index the cross product. A bool array becomes the
/// indices of its true elements (one wait for the count); other arrays are
/// views of the inputs, as NumPy's.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let grids = ix_(&[&array([0, 1])?, &array([2, 3, 4])?])?; // shapes (2, 1) and (1, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
/// An argument that is not 1-D ("Cross index must be 1 dimensional").
pub fn ix_(args: &[&Array]) -> Result<Vec<Array>> {
    let nd = args.len();
    args.iter()
        .enumerate()
        .map(|(k, a)| {
            if a.ndim() != 1 {
                return Err(Error::Value("Cross index must be 1 dimensional".into()));
            }
            let a = if a.dtype() == DType::Bool {
                super::flatnonzero(a)?
            } else {
                (*a).clone()
            };
            let mut shape = vec![1isize; nd];
            shape[k] = a.size() as isize;
            a.reshape(&shape)
        })
        .collect()
}

/// The flat-index multiplier of each dimension of `dims` in `order`
/// (C: the last dimension varies fastest).
///
/// ```
/// use gpu_array::Order;
/// use gpu_array::indexing::ravel_strides;
/// assert_eq!(ravel_strides(&[3, 4], Order::C)?, [4, 1]);
/// assert_eq!(ravel_strides(&[3, 4], Order::F)?, [1, 3]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// A total size beyond int64 ("invalid dims: ...").
pub fn ravel_strides(dims: &[usize], order: Order) -> Result<Vec<i64>> {
    let too_big = || {
        Error::Value(
            "invalid dims: array size defined by dims is larger than the maximum possible size."
                .into(),
        )
    };
    let mut strides = vec![0i64; dims.len()];
    let mut s: i64 = 1;
    let idx: Vec<usize> = match order {
        Order::F => (0..dims.len()).collect(),
        Order::C => (0..dims.len()).rev().collect(),
    };
    for d in idx {
        strides[d] = s;
        s = i64::try_from(dims[d])
            .ok()
            .and_then(|n| s.checked_mul(n))
            .ok_or_else(too_big)?;
    }
    Ok(strides)
}

/// The per-dimension modes: one for all, or one per dimension.
fn modes_for(modes: &[ClipMode], nd: usize) -> Result<Vec<ClipMode>> {
    match modes.len() {
        0 => Ok(vec![ClipMode::Raise; nd]),
        1 => Ok(vec![modes[0]; nd]),
        k if k == nd => Ok(modes.to_vec()),
        k => Err(Error::Value(format!(
            "ravel_multi_index: {k} modes for {nd} dimensions (give one, or one per dimension)"
        ))),
    }
}

/// The checks and derived arguments that the host and the device
/// `ravel_multi_index` share: `n` coordinates for `dims`, each
/// dimension's flat-index multiplier in `order`, and its mode.
fn ravel_args(
    n: usize,
    dims: &[usize],
    modes: &[ClipMode],
    order: Order,
) -> Result<(Vec<i64>, Vec<ClipMode>)> {
    if n != dims.len() {
        return Err(Error::Value(format!(
            "parameter multi_index must be a sequence of length {}",
            dims.len()
        )));
    }
    Ok((ravel_strides(dims, order)?, modes_for(modes, dims.len())?))
}

fn empty_dims_error() -> Error {
    Error::Value("cannot unravel if shape has zero entries (is empty).".into())
}

/// One coordinate tuple to its flat index (NumPy's `ravel_multi_index`
/// on scalars), on the host. `modes` holds one mode for every dimension,
/// or one per dimension (empty: `Raise`).
///
/// ```
/// use gpu_array::Order;
/// use gpu_array::indexing::{ClipMode, ravel_multi_index_scalar};
/// assert_eq!(ravel_multi_index_scalar(&[1, 2], &[3, 4], &[], Order::C)?, 6);
/// assert_eq!(ravel_multi_index_scalar(&[5, -1], &[3, 4], &[ClipMode::Clip], Order::C)?, 8); // (2, 0)
/// assert!(ravel_multi_index_scalar(&[3, 0], &[3, 4], &[], Order::C).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// As [`ravel_multi_index`].
pub fn ravel_multi_index_scalar(
    multi_index: &[i64],
    dims: &[usize],
    modes: &[ClipMode],
    order: Order,
) -> Result<i64> {
    let (strides, modes) = ravel_args(multi_index.len(), dims, modes, order)?;
    if dims.contains(&0) {
        return Err(empty_dims_error());
    }
    let mut flat = 0i64;
    for (((&k, &d), &s), &m) in multi_index.iter().zip(dims).zip(&strides).zip(&modes) {
        let d = d as i64;
        let k = if (0..d).contains(&k) {
            k
        } else {
            match m {
                ClipMode::Raise => {
                    return Err(Error::Value("invalid entry in coordinates array".into()));
                }
                ClipMode::Wrap => k.rem_euclid(d),
                ClipMode::Clip => k.clamp(0, d - 1),
            }
        };
        flat += k * s;
    }
    Ok(flat)
}

/// One flat index to its coordinates in an array of shape `dims` (NumPy's
/// `unravel_index` on a scalar), on the host.
///
/// ```
/// use gpu_array::Order;
/// use gpu_array::indexing::unravel_index_scalar;
/// assert_eq!(unravel_index_scalar(6, &[3, 4], Order::C)?, [1, 2]);
/// assert_eq!(unravel_index_scalar(6, &[3, 4], Order::F)?, [0, 2]);
/// assert!(unravel_index_scalar(12, &[3, 4], Order::C).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// An index outside `0..prod(dims)` ("index 12 is out of bounds for array
/// with size 12"); dims whose size exceeds int64.
pub fn unravel_index_scalar(index: i64, dims: &[usize], order: Order) -> Result<Vec<i64>> {
    let strides = ravel_strides(dims, order)?;
    let size: i64 = dims.iter().map(|&d| d as i64).product();
    if !(0..size).contains(&index) {
        return Err(Error::Value(format!(
            "index {index} is out of bounds for array with size {size}"
        )));
    }
    Ok(dims
        .iter()
        .zip(&strides)
        .map(|(&d, &s)| (index / s) % d as i64)
        .collect())
}

/// `ravel_multi_index`: `out` (int64) from the raw `(nd, cnt)` int64
/// coordinates `idx` and the raw int64 `prm` (the dims, the flat-index
/// multipliers and the modes, `nd` each); `Raise` sets the raw int32
/// flag `bad`.
pub(super) fn ravel_kernel<'a>(
    idx: Bind<'a>,
    prm: Bind<'a>,
    out: Bind<'a>,
    bad: Bind<'a>,
    nd: usize,
    cnt: usize,
) -> Elementwise<'a> {
    Elementwise::new("ravel_multi_index")
        .raw("idx", idx)
        .raw("prm", prm)
        .scalar("nd", DType::Int64, nd)
        .scalar("cnt", DType::Int64, cnt)
        .output("out", out)
        .raw_output("bad", bad)
        .op("out = cuprum_np::ravel_multi_index(idx, prm, bad, (long long)i, nd, cnt);")
        .preamble(super::PREAMBLE)
}

/// `unravel_index`: the coordinates of the flat index `x` into the raw
/// `(nd, cnt)` int64 `out`, `prm` the dims and the flat-index multipliers
/// (raw int64, `nd` each); an index outside `0..total` lowers the raw
/// int64 `bad` to its position.
pub(super) fn unravel_kernel<'a>(
    x: Bind<'a>,
    prm: Bind<'a>,
    out: Bind<'a>,
    bad: Bind<'a>,
    nd: usize,
    cnt: usize,
    total: i64,
) -> Elementwise<'a> {
    Elementwise::new("unravel_index")
        .input("x", x)
        .raw("prm", prm)
        .scalar("nd", DType::Int64, nd)
        .scalar("cnt", DType::Int64, cnt)
        .scalar("total", DType::Int64, total)
        .raw_output("out", out)
        .raw_output("bad", bad)
        .op("cuprum_np::unravel_index(x, prm, out, bad, (long long)i, nd, cnt, total);")
        .preamble(super::PREAMBLE)
}

/// Indices that cast to int64 as NumPy's (`same_kind` to intp: bool and
/// integers).
fn check_int_indices(a: &Array) -> Result<()> {
    if a.dtype().is_integer() || a.dtype().is_bool() {
        Ok(())
    } else {
        Err(Error::DType("only int indices permitted".into()))
    }
}

/// The flat indices of the coordinates `multi_index` (one integer array
/// per dimension, broadcast together) in an array of shape `dims`
/// (NumPy's and CuPy's `ravel_multi_index`), int64. `modes` holds one
/// [`ClipMode`] for every dimension or one per dimension (NumPy's `mode`
/// or tuple of modes; empty means `Raise`, NumPy's default); `order` is
/// C or F. `Raise` costs one wait for the device (a flag).
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let flat = ravel_multi_index(&[&array([1])?, &array([2])?], &[3, 4], &[ClipMode::Raise], Order::C)?; // [6]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A different number of arrays and dims; non-integer indices; dims with
/// a zero or too large a size; an index out of range with `Raise`
/// ("invalid entry in coordinates array"); shapes that do not broadcast.
pub fn ravel_multi_index(
    multi_index: &[&Array],
    dims: &[usize],
    modes: &[ClipMode],
    order: Order,
) -> Result<Array> {
    let (strides, modes) = ravel_args(multi_index.len(), dims, modes, order)?;
    let Some(first) = multi_index.first() else {
        // NumPy: ravel_multi_index((), ()) is 0.
        return Array::from_vec(vec![0i64])?.reshape([]);
    };
    for a in multi_index {
        check_int_indices(a)?;
        first.check_same_device(a, "ravel_multi_index")?;
    }
    if dims.contains(&0) {
        return Err(empty_dims_error());
    }
    let shapes: Vec<&[usize]> = multi_index.iter().map(|a| a.shape()).collect();
    let shape = layout::broadcast_shapes(&shapes)?;
    let dev = first.device();
    let cnt = layout::size(&shape)?;
    let out = Array::empty_on(dev, &[cnt], DType::Int64, Order::C)?;
    let shape_i: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
    if cnt == 0 {
        return out.reshape(&shape_i);
    }
    // The coordinates as one C-contiguous (nd, cnt) int64 array.
    let nd = dims.len();
    let idx = Array::empty_on(dev, &[nd, cnt], DType::Int64, Order::C)?;
    for (d, a) in multi_index.iter().enumerate() {
        let row = idx
            .slice(&[crate::AxisIndex::Index(d as isize)])?
            .reshape(&shape_i)?;
        crate::array::copyto(&row, a, crate::dtype::Casting::Unsafe, None)?;
    }
    let mut prm: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    prm.extend_from_slice(&strides);
    prm.extend(modes.iter().map(|m| i64::from(m.code())));
    let prm = Array::from_slice_on(dev, &prm, &[3 * nd])?;
    let bad = new_flag(first)?;
    ravel_kernel(
        (&idx).into(),
        (&prm).into(),
        (&out).into(),
        (&bad).into(),
        nd,
        cnt,
    )
    .launch(out.shape())?;
    if modes.contains(&ClipMode::Raise) && flag_set(&bad)? {
        return Err(Error::Value("invalid entry in coordinates array".into()));
    }
    out.reshape(&shape_i)
}

/// The coordinates of the flat `indices` in an array of shape `dims`
/// (NumPy's and CuPy's `unravel_index`): one int64 array per dimension,
/// each of `indices`' shape; `order` C or F. Out-of-range indices
/// (negative ones too) are an error, as NumPy's, found by the kernel and
/// reported after one wait, naming the first offending index.
///
/// Empty `dims` (a 0-d array) give no arrays, after checking that every
/// index is 0.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let ij = unravel_index(&array([6])?, &[3, 4], Order::C)?; // ([1], [2])
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-integer indices ("only int indices permitted"); dims of too large a
/// size; an index out of range ("index 12 is out of bounds for array with
/// size 12").
pub fn unravel_index(indices: &Array, dims: &[usize], order: Order) -> Result<Vec<Array>> {
    check_int_indices(indices)?;
    let strides = ravel_strides(dims, order)?;
    let total: i64 = dims.iter().map(|&d| d as i64).product();
    let nd = dims.len();
    let dev = indices.device();
    let cnt = indices.size();
    let out = Array::empty_on(dev, &[nd, cnt], DType::Int64, Order::C)?;
    if cnt > 0 {
        // Flat: the kernel's `i` is the C-order position.
        let x = indices.ravel()?;
        let mut prm: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
        prm.extend_from_slice(&strides);
        prm.push(0);
        let prm = Array::from_slice_on(dev, &prm, &[prm.len()])?;
        let bad = Array::from_slice_on(dev, &[i64::MAX], &[1])?;
        unravel_kernel(
            (&x).into(),
            (&prm).into(),
            (&out).into(),
            (&bad).into(),
            nd,
            cnt,
            total,
        )
        .launch(x.shape())?;
        let first_bad = bad.item::<i64>(&[0])?;
        if first_bad != i64::MAX {
            // NumPy names the index as intp (uint64 wraps).
            let v = x
                .slice(&[crate::AxisIndex::Index(first_bad as isize)])?
                .astype(DType::Int64)?
                .item::<i64>(&[])?;
            return Err(Error::Value(format!(
                "index {v} is out of bounds for array with size {total}"
            )));
        }
    }
    (0..nd)
        .map(|d| {
            out.slice(&[crate::AxisIndex::Index(d as isize)])?.reshape(
                indices
                    .shape()
                    .iter()
                    .map(|&s| s as isize)
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

/// The ravel and unravel kernels' specs for each index dtype.
pub(super) fn kernel_specs(
    index: &[DType],
    layout: crate::elementwise::LayoutClass,
    width: crate::elementwise::IndexWidth,
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let raw1 = |d| Bind::Dtype(d, 1);
    let i64_ = DType::Int64;
    let mut out = Vec::new();
    let k = ravel_kernel(
        raw1(i64_),
        raw1(i64_),
        i64_.into(),
        raw1(DType::Int32),
        0,
        0,
    );
    out.extend(k.spec(layout, width));
    for &i in index {
        let k = unravel_kernel(i.into(), raw1(i64_), raw1(i64_), raw1(i64_), 0, 0, 0);
        out.extend(k.spec(layout, width));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_c_and_f() {
        assert_eq!(ravel_strides(&[3, 4, 5], Order::C).unwrap(), vec![20, 5, 1]);
        assert_eq!(ravel_strides(&[3, 4, 5], Order::F).unwrap(), vec![1, 3, 12]);
        assert_eq!(ravel_strides(&[], Order::C).unwrap(), Vec::<i64>::new());
        let e = ravel_strides(&[1 << 40, 1 << 40], Order::C).unwrap_err();
        assert!(e.to_string().starts_with("invalid dims"), "{e}");
    }

    /// NumPy's answers (`np.ravel_multi_index`, `np.unravel_index`).
    #[test]
    fn ravel_and_unravel_as_numpy() {
        let r = |m: &[i64], modes: &[ClipMode], o| ravel_multi_index_scalar(m, &[3, 4], modes, o);
        assert_eq!(r(&[1, 0], &[], Order::C).unwrap(), 4);
        assert_eq!(r(&[2, 3], &[], Order::F).unwrap(), 11);
        // np.ravel_multi_index(([1, 5], [0, -1]), (3, 4), mode=('clip', 'wrap'), order='F')
        let m = [ClipMode::Clip, ClipMode::Wrap];
        assert_eq!(r(&[1, 0], &m, Order::F).unwrap(), 1);
        assert_eq!(r(&[5, -1], &m, Order::F).unwrap(), 11);
        assert_eq!(r(&[-7, 9], &[ClipMode::Wrap], Order::C).unwrap(), 2 * 4 + 1);
        let e = r(&[3, 0], &[], Order::C).unwrap_err().to_string();
        assert_eq!(e, "invalid entry in coordinates array");
        let e = r(&[0], &[], Order::C).unwrap_err().to_string();
        assert_eq!(e, "parameter multi_index must be a sequence of length 2");
        assert!(r(&[0, 0], &[ClipMode::Wrap; 3], Order::C).is_err());
        let e = ravel_multi_index_scalar(&[1, 0], &[0, 4], &[ClipMode::Clip], Order::C)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "cannot unravel if shape has zero entries (is empty).");
        assert_eq!(
            ravel_multi_index_scalar(&[], &[], &[], Order::C).unwrap(),
            0
        );

        assert_eq!(
            unravel_index_scalar(3, &[3, 4], Order::C).unwrap(),
            vec![0, 3]
        );
        assert_eq!(
            unravel_index_scalar(5, &[3, 4], Order::F).unwrap(),
            vec![2, 1]
        );
        assert_eq!(
            unravel_index_scalar(59, &[3, 4, 5], Order::C).unwrap(),
            vec![2, 3, 4]
        );
        assert_eq!(
            unravel_index_scalar(0, &[], Order::C).unwrap(),
            Vec::<i64>::new()
        );
        let e = unravel_index_scalar(12, &[3, 4], Order::C)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "index 12 is out of bounds for array with size 12");
        let e = unravel_index_scalar(-1, &[3, 4], Order::C)
            .unwrap_err()
            .to_string();
        assert_eq!(e, "index -1 is out of bounds for array with size 12");
        assert!(unravel_index_scalar(0, &[0, 4], Order::C).is_err());
        // Round trips over every index of a 3-D shape, both orders.
        for order in [Order::C, Order::F] {
            for k in 0..60 {
                let c = unravel_index_scalar(k, &[3, 4, 5], order).unwrap();
                assert_eq!(
                    ravel_multi_index_scalar(&c, &[3, 4, 5], &[], order).unwrap(),
                    k
                );
            }
        }
    }
}
