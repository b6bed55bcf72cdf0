//! Reshape: the unknown dimension, and views without copy.

use super::{Order, contiguous_strides, is_c_contiguous, is_f_contiguous, size};
use crate::error::{Error, Result};

/// Resolves a requested shape with at most one unknown (negative) entry
/// against an array of `size` elements, as `ndarray.reshape` does.
///
/// Any negative entry counts as unknown (NumPy accepts `-2` too).
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(infer_shape(12, &[3, -1])?, [3, 4]); // x.reshape(3, -1) for 12 elements
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] "can only specify one unknown dimension";
/// [`Error::Reshape`] "cannot reshape array of size 6 into shape (4,)".
pub fn infer_shape(size: usize, newshape: &[isize]) -> Result<Vec<usize>> {
    let mut unknown = None;
    let mut known: usize = 1;
    let err = || Error::Reshape {
        size,
        shape: newshape.to_vec(),
    };
    for (i, &d) in newshape.iter().enumerate() {
        if d < 0 {
            if unknown.is_some() {
                return Err(Error::Value(
                    "can only specify one unknown dimension".to_owned(),
                ));
            }
            unknown = Some(i);
        } else {
            // d >= 0 here.
            known = known.checked_mul(d.unsigned_abs()).ok_or_else(err)?;
        }
    }
    // Negative entries become 0 here, then the unknown one is filled in.
    let mut shape: Vec<usize> = newshape
        .iter()
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .collect();
    match unknown {
        Some(i) => {
            if known == 0 || !size.is_multiple_of(known) {
                return Err(err());
            }
            shape[i] = size / known;
        }
        None if known != size => return Err(err()),
        None => {}
    }
    Ok(shape)
}

/// Strides that give `(shape, strides)` the shape `newshape` without moving
/// data, reading elements in `order`, or `None` when a copy is needed
/// (NumPy's `_attempt_nocopy_reshape`).
///
/// An array contiguous in `order` (or empty) always reshapes, to the
/// contiguous strides of the new shape. `None` also answers parts that
/// cannot be viewed safely: `newshape` with another number of elements
/// than `shape` (resolve it with [`infer_shape`] first), shapes too big for
/// [`size`], lengths that differ, or strides whose products leave `isize`;
/// a copy is always correct.
///
/// ```
/// use gpu_array::Order;
/// use gpu_array::layout::reshape_strides;
/// assert_eq!(reshape_strides(&[2, 6], &[24, 4], 4, &[2, 3, 2], Order::C), Some(vec![24, 8, 4]));
/// // A transposed array cannot be flattened in C order without a copy.
/// assert_eq!(reshape_strides(&[6, 2], &[4, 24], 4, &[12], Order::C), None);
/// ```
pub fn reshape_strides(
    shape: &[usize],
    strides: &[isize],
    itemsize: usize,
    newshape: &[usize],
    order: Order,
) -> Option<Vec<isize>> {
    if shape.len() != strides.len() || size(shape).ok()? != size(newshape).ok()? {
        return None;
    }
    let contiguous = match order {
        Order::C => is_c_contiguous(shape, strides, itemsize),
        Order::F => is_f_contiguous(shape, strides, itemsize),
    };
    if contiguous {
        return contiguous_strides(newshape, itemsize, order).ok();
    }
    // Not contiguous, so not empty: every dimension is at least 1 and any
    // product of dimensions is at most the size, which fits `isize`.
    let is_f = order == Order::F;
    // Length-1 axes have no effect; their strides do not matter.
    let (olddims, oldstrides): (Vec<usize>, Vec<isize>) = shape
        .iter()
        .zip(strides)
        .filter(|(d, _)| **d != 1)
        .map(|(&d, &s)| (d, s))
        .unzip();
    let (oldnd, newnd) = (olddims.len(), newshape.len());
    let mul = |s: isize, d: usize| isize::try_from(d).ok().and_then(|d| s.checked_mul(d));
    let mut newstrides = vec![0isize; newnd];
    // [oi, oj) and [ni, nj) are the old and new axis ranges worked with.
    let (mut oi, mut oj, mut ni, mut nj) = (0, 1, 0, 1);
    while ni < newnd && oi < oldnd {
        let mut np = newshape[ni];
        let mut op = olddims[oi];
        while np != op {
            // Equal sizes make the products meet before either side runs
            // out; `get` and `checked_mul` only guard that.
            if np < op {
                // Trailing 1s of the new shape are handled after the loop.
                np = np.checked_mul(*newshape.get(nj)?)?;
                nj += 1;
            } else {
                op = op.checked_mul(*olddims.get(oj)?)?;
                oj += 1;
            }
        }
        // The old axes [oi, oj) must be contiguous with each other.
        for ok in oi..oj - 1 {
            let joint = if is_f {
                Some(oldstrides[ok + 1]) == mul(oldstrides[ok], olddims[ok])
            } else {
                Some(oldstrides[ok]) == mul(oldstrides[ok + 1], olddims[ok + 1])
            };
            if !joint {
                return None;
            }
        }
        if is_f {
            newstrides[ni] = oldstrides[oi];
            for nk in ni + 1..nj {
                newstrides[nk] = mul(newstrides[nk - 1], newshape[nk - 1])?;
            }
        } else {
            newstrides[nj - 1] = oldstrides[oj - 1];
            for nk in (ni + 1..nj).rev() {
                newstrides[nk - 1] = mul(newstrides[nk], newshape[nk])?;
            }
        }
        ni = nj;
        nj += 1;
        oi = oj;
        oj += 1;
    }
    // Strides of the trailing 1s of the new shape.
    let mut last_stride = match ni.checked_sub(1) {
        Some(prev) => newstrides[prev],
        None => isize::try_from(itemsize).ok()?,
    };
    if is_f && ni >= 1 {
        last_stride = mul(last_stride, newshape[ni - 1])?;
    }
    for s in &mut newstrides[ni..] {
        *s = last_stride;
    }
    Some(newstrides)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{AxisIndex, c_strides, index_layout};
    use proptest::prelude::*;

    #[test]
    fn infer() {
        assert_eq!(infer_shape(6, &[-1, 3]).unwrap(), [2, 3]);
        assert_eq!(infer_shape(6, &[2, -3]).unwrap(), [2, 3]);
        assert_eq!(infer_shape(6, &[6]).unwrap(), [6]);
        assert_eq!(infer_shape(1, &[]).unwrap(), Vec::<usize>::new());
        assert_eq!(infer_shape(0, &[0, 5]).unwrap(), [0, 5]);
        assert_eq!(
            infer_shape(6, &[-1, -1]).unwrap_err().to_string(),
            "can only specify one unknown dimension"
        );
        assert_eq!(
            infer_shape(6, &[4]).unwrap_err().to_string(),
            "cannot reshape array of size 6 into shape (4,)"
        );
        assert_eq!(
            infer_shape(6, &[-1, 4]).unwrap_err().to_string(),
            "cannot reshape array of size 6 into shape (4)"
        );
        assert_eq!(
            infer_shape(0, &[-1, 0]).unwrap_err().to_string(),
            "cannot reshape array of size 0 into shape (0)"
        );
    }

    #[test]
    fn views_like_numpy() {
        // a = np.zeros((4, 6))[:, ::2]  -> shape (4, 3), strides (48, 16)
        assert_eq!(
            reshape_strides(&[4, 3], &[48, 16], 8, &[2, 2, 3], Order::C),
            Some(vec![96, 48, 16])
        );
        assert_eq!(
            reshape_strides(&[4, 3], &[48, 16], 8, &[12], Order::C),
            Some(vec![16])
        );
        // a = np.zeros((4, 6))[:, :3] -> strides (48, 8): flattening needs a copy.
        assert_eq!(reshape_strides(&[4, 3], &[48, 8], 8, &[12], Order::C), None);
        assert_eq!(
            reshape_strides(&[4, 3], &[48, 8], 8, &[2, 2, 3], Order::C),
            Some(vec![96, 48, 8])
        );
        // Transposed C array is F-contiguous: C-order flatten needs a copy, F doesn't.
        assert_eq!(reshape_strides(&[3, 2], &[8, 24], 8, &[6], Order::C), None);
        assert_eq!(
            reshape_strides(&[3, 2], &[8, 24], 8, &[6], Order::F),
            Some(vec![8])
        );
        // Trailing ones.
        assert_eq!(
            reshape_strides(&[4, 3], &[48, 16], 8, &[4, 3, 1], Order::C),
            Some(vec![48, 16, 16])
        );
        // Broadcast (stride 0) axes split freely.
        assert_eq!(
            reshape_strides(&[6, 2], &[0, 8], 8, &[2, 3, 2], Order::C),
            Some(vec![0, 0, 8])
        );
    }

    /// Element offsets in `order` traversal.
    fn offsets(shape: &[usize], strides: &[isize], order: Order) -> Vec<isize> {
        let n: usize = shape.iter().product();
        let nd = shape.len();
        let mut idx = vec![0usize; nd];
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(idx.iter().zip(strides).map(|(&i, &s)| i as isize * s).sum());
            let axes: Vec<usize> = match order {
                Order::C => (0..nd).rev().collect(),
                Order::F => (0..nd).collect(),
            };
            for ax in axes {
                idx[ax] += 1;
                if idx[ax] < shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
        out
    }

    proptest! {
        #[test]
        fn view_reads_same_elements(
            base in proptest::collection::vec(1usize..5, 1..4),
            steps in proptest::collection::vec(prop_oneof![Just(1isize), Just(2), Just(-1)], 4),
            perm_seed in any::<u64>(),
            split in proptest::collection::vec(1usize..4, 0..4),
            f in any::<bool>(),
        ) {
            let order = if f { Order::F } else { Order::C };
            // A strided view: slices with steps, then a permutation.
            let strides = c_strides(&base, 4).unwrap();
            let idx: Vec<AxisIndex> = steps[..base.len()].iter()
                .map(|&s| AxisIndex::Slice { start: None, stop: None, step: s }).collect();
            let (shape, strides, _) = index_layout(&base, &strides, 0, &idx).unwrap();
            let mut perm: Vec<usize> = (0..shape.len()).collect();
            perm.rotate_left((perm_seed as usize) % shape.len().max(1));
            let shape: Vec<usize> = perm.iter().map(|&p| shape[p]).collect();
            let strides: Vec<isize> = perm.iter().map(|&p| strides[p]).collect();
            // A new shape: factors of the size, then the remainder.
            let n: usize = shape.iter().product();
            let mut newshape = Vec::new();
            let mut rest = n;
            for &d in &split {
                if rest.is_multiple_of(d) { newshape.push(d); rest /= d; }
            }
            newshape.push(rest);
            if let Some(ns) = reshape_strides(&shape, &strides, 4, &newshape, order) {
                prop_assert_eq!(offsets(&newshape, &ns, order), offsets(&shape, &strides, order));
            } else {
                // No view: then the data is not one "order"-contiguous run per merged group;
                // at least the input must not be contiguous.
                prop_assert!(!is_c_contiguous(&shape, &strides, 4) || order == Order::F);
            }
        }
    }
}
