//! The main diagonal: `fill_diagonal` (writes it in place),
//! `diag_indices` and `diag_indices_from` (index arrays that reach it).

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::Order;
use crate::ufunc::Input;

/// `fill_diagonal`: element `i * step` of the raw `a` (C order) takes
/// `v[i % nv]` of the raw `v`.
pub(super) fn fill_diagonal_kernel<'a>(
    v: Bind<'a>,
    a: Bind<'a>,
    nv: usize,
    step: usize,
) -> Elementwise<'a> {
    Elementwise::new("fill_diagonal")
        .raw("v", v)
        .scalar("nv", DType::Int64, nv)
        .scalar("step", DType::Int64, step)
        .raw_output("a", a)
        .op("a[(long long)i * step] = v[(long long)i % nv];")
}

/// The flat step between diagonal elements and how many `a.flat[::step]`
/// reaches (NumPy's `fill_diagonal`: 2-D arrays stop after the first
/// `ncols` rows unless `wrap`; more dimensions need equal lengths).
///
/// # Errors
/// Fewer than 2 dimensions; unequal lengths beyond 2-D.
pub(super) fn diagonal_walk(shape: &[usize], wrap: bool) -> Result<(usize, usize)> {
    if shape.len() < 2 {
        return Err(Error::Value("array must be at least 2-d".into()));
    }
    let size = crate::layout::size(shape)?;
    let (step, end) = if shape.len() == 2 {
        // ncols**2 may overflow for a broadcast view; saturating is exact
        // under `min` with the size.
        let end = if wrap {
            size
        } else {
            size.min(shape[1].saturating_mul(shape[1]))
        };
        (shape[1] + 1, end)
    } else {
        if shape.iter().any(|&d| d != shape[0]) {
            return Err(Error::Value(
                "All dimensions of input must be of equal length".into(),
            ));
        }
        // 1 + sum(cumprod(shape[:-1])).
        let mut step = 1;
        let mut p = 1;
        // Equal lengths: p stays at most the size, the step at most
        // twice it; checked all the same.
        let overflow = || Error::TooBig;
        for &d in &shape[..shape.len() - 1] {
            p = d.checked_mul(p).ok_or_else(overflow)?;
            step = p.checked_add(step).ok_or_else(overflow)?;
        }
        (step, size)
    };
    Ok((step, end.div_ceil(step)))
}

/// Writes `val` on the main diagonal of `a` in place (NumPy's and CuPy's
/// `fill_diagonal`): `a.flat[:end:step] = val` with NumPy's step, so a
/// tall 2-D array gets a diagonal only in its first `ncols` rows unless
/// `wrap`, and arrays of more dimensions (all of one length) get
/// `a[i, i, ..., i]`. `val` is a scalar or an array whose flattened values
/// repeat along the diagonal; it is cast to `a`'s dtype (unsafe, as
/// NumPy's flat assignment); an empty array writes nothing.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((3, 3), gpu_array::DType::Int64)?;
/// fill_diagonal(&a, 5, false)?; // in place
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 2 dimensions, unequal lengths beyond 2-D, an integer scalar
/// that does not fit `a`'s dtype, different devices.
pub fn fill_diagonal<'a>(a: &Array, val: impl Into<Input<'a>>, wrap: bool) -> Result<()> {
    let (step, count) = diagonal_walk(a.shape(), wrap)?;
    let v = match val.into() {
        Input::Array(v) => {
            a.check_same_device(v, "fill_diagonal")?;
            if v.dtype() == a.dtype() {
                v.clone()
            } else {
                v.astype(a.dtype())?
            }
        }
        Input::Scalar(s) => {
            let one = Array::empty_on(a.device(), &[1], a.dtype(), Order::C)?;
            one.fill(s)?;
            one
        }
    };
    if count == 0 || v.size() == 0 {
        return Ok(());
    }
    fill_diagonal_kernel((&v).into(), a.into(), v.size(), step).launch(&[count])?;
    Ok(())
}

/// The index arrays of the main diagonal of an `ndim`-dimensional array
/// of side `n` (NumPy's `diag_indices`): `ndim` int64 arrays `arange(n)`
/// (one buffer, as NumPy returns one array `ndim` times).
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let ij = diag_indices(3, 2)?; // ([0, 1, 2], [0, 1, 2])
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation failed.
pub fn diag_indices(n: usize, ndim: usize) -> Result<Vec<Array>> {
    let idx = crate::creation::arange_with(0, n as i64, 1, Some(DType::Int64))?;
    Ok(vec![idx; ndim])
}

/// [`diag_indices`] for `arr`'s shape (NumPy's `diag_indices_from`).
///
/// ```no_run
/// use gpu_array::{creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros([3, 3], gpu_array::DType::Float64)?;
/// let idx = diag_indices_from(&a)?; // np.diag_indices_from(a): ([0, 1, 2], [0, 1, 2])
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than 2 dimensions ("input array must be at least 2-d"); unequal
/// lengths.
pub fn diag_indices_from(arr: &Array) -> Result<Vec<Array>> {
    if arr.ndim() < 2 {
        return Err(Error::Value("input array must be at least 2-d".into()));
    }
    let n = arr.shape()[0];
    if arr.shape().iter().any(|&d| d != n) {
        return Err(Error::Value(
            "All dimensions of input must be of equal length".into(),
        ));
    }
    diag_indices(n, arr.ndim())
}

/// The fill_diagonal kernel's specs for each dtype.
pub(super) fn kernel_specs(
    data: &[DType],
    layout: crate::elementwise::LayoutClass,
    width: crate::elementwise::IndexWidth,
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let mut out = Vec::new();
    for &d in data {
        let k = fill_diagonal_kernel(Bind::Dtype(d, 1), Bind::Dtype(d, 2), 0, 0);
        out.extend(k.spec(layout, width));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::diagonal_walk;

    /// NumPy's `a.flat[:end:step]` positions for `fill_diagonal`.
    #[test]
    fn walks_as_numpy() {
        assert_eq!(diagonal_walk(&[5, 3], false).unwrap(), (4, 3));
        assert_eq!(diagonal_walk(&[7, 3], false).unwrap(), (4, 3));
        assert_eq!(diagonal_walk(&[7, 3], true).unwrap(), (4, 6));
        assert_eq!(diagonal_walk(&[3, 7], true).unwrap(), (8, 3));
        assert_eq!(diagonal_walk(&[3, 3, 3], false).unwrap(), (13, 3));
        assert_eq!(diagonal_walk(&[0, 4], false).unwrap(), (5, 0));
        assert_eq!(diagonal_walk(&[2, 2, 2, 2], false).unwrap(), (15, 2));
        // A broadcast view (2, 2**40): ncols**2 overflowed before.
        assert_eq!(
            diagonal_walk(&[2, 1 << 40], false).unwrap(),
            ((1 << 40) + 1, 2)
        );
        assert!(diagonal_walk(&[1 << 32, 1 << 32], true).is_err());
        assert!(diagonal_walk(&[3, 3, 2], false).is_err());
        assert!(diagonal_walk(&[3], false).is_err());
    }
}
