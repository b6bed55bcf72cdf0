//! SciPy's `diags` and `spdiags`: matrices from their diagonals, in DIA.

use gpu_array::dtype::Casting;
use gpu_array::{Array, DType, Error, Result, creation};

use crate::DiaMatrix;
use crate::base::{check_shape, check_value_dtype};

/// Where each diagonal goes in `diags`' data array: its width and, per
/// diagonal, the first column and the number of elements (SciPy's `k`
/// and `length`). Pure host arithmetic, in `i128` so no offset overflows.
#[derive(Debug, PartialEq, Eq)]
struct Placement {
    width: usize,
    spans: Vec<(usize, usize)>,
}

/// SciPy's layout of `diags` for an `m x n` matrix: the data array is as
/// wide as the widest `min(m + k, n - k) + max(0, k)`, diagonal `k`
/// starts at column `max(0, k)` and holds `min(m + k, n - k, min(m, n))`
/// elements. `lens` are the given diagonals' lengths: each must hold at
/// least that many elements (the rest is ignored) or exactly one (it is
/// repeated).
fn place(m: usize, n: usize, offsets: &[isize], lens: &[usize]) -> Result<Placement> {
    let (mi, ni) = (m as i128, n as i128);
    let side = mi.min(ni);
    let width = offsets
        .iter()
        .map(|&k| {
            let k = k as i128;
            (mi + k).min(ni - k) + k.max(0)
        })
        .max()
        .unwrap_or(0)
        .max(0) as usize;
    let mut spans = Vec::with_capacity(offsets.len());
    for (j, (&k, &len)) in offsets.iter().zip(lens).enumerate() {
        let k128 = k as i128;
        let length = (mi + k128).min(ni - k128).min(side);
        if length < 0 {
            return Err(Error::Value(format!(
                "Offset {k} (index {j}) out of bounds"
            )));
        }
        let length = length as usize;
        if len < length && len != 1 {
            return Err(Error::Value(format!(
                "Diagonal length (index {j}: {len} at offset {k}) does not agree with \
                 matrix size ({m}, {n})."
            )));
        }
        spans.push((k.max(0) as usize, length));
    }
    Ok(Placement { width, spans })
}

/// SciPy's `diags(diagonals, offsets, shape, dtype)`: the matrix whose
/// diagonal `offsets[j]` holds `diagonals[j]` (`k > 0` above the main
/// diagonal, `k < 0` below), as a [`DiaMatrix`] (SciPy's default format).
/// A diagonal of one element is repeated along its whole length; a
/// longer one is cut to it. `shape` `None`: square, of side
/// `len(diagonals[0]) + |offsets[0]|`. `dtype` `None`: NumPy's
/// `common_type` of the diagonals (integers become float64, as SciPy's).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_sparse::SpMatrix;
/// # fn main() -> gpu_array::Result<()> {
/// // The 1-D Laplacian: diags([1, -2, 1], [-1, 0, 1], shape=(4, 4))
/// let one = Array::from_slice(&[1.0f64], &[1])?;
/// let two = Array::from_slice(&[-2.0f64], &[1])?;
/// let a = gpu_sparse::diags(&[&one, &two, &one], &[-1, 0, 1], Some((4, 4)), None)?;
/// assert_eq!(a.nnz(), 10);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "Different number of diagonals and offsets.", "Offset 5
/// (index 0) out of bounds", "Diagonal length (index 1: 2 at offset 0)
/// does not agree with matrix size (3, 3).", "offset array contains
/// duplicate values"; a diagonal of more than one dimension; no diagonal
/// and no shape; an unsupported dtype (bool diagonals without `dtype`:
/// NumPy's "can't get common type for non-numeric array").
pub fn diags(
    diagonals: &[&Array],
    offsets: &[isize],
    shape: Option<(usize, usize)>,
    dtype: Option<DType>,
) -> Result<DiaMatrix> {
    if diagonals.len() != offsets.len() {
        return Err(Error::Value(
            "Different number of diagonals and offsets.".into(),
        ));
    }
    for (j, d) in diagonals.iter().enumerate() {
        if d.ndim() > 1 {
            return Err(Error::Value(format!(
                "diagonal {j} must be 1-D, not {}-D",
                d.ndim()
            )));
        }
    }
    let (m, n) = match shape {
        Some(s) => s,
        None => {
            let (Some(d), Some(&k)) = (diagonals.first(), offsets.first()) else {
                return Err(Error::Value(
                    "diags needs a shape or at least one diagonal".into(),
                ));
            };
            let side = d
                .size()
                .checked_add(k.unsigned_abs())
                .ok_or_else(|| Error::Value(format!("diags: offset {k} too large for a shape")))?;
            (side, side)
        }
    };
    check_shape((m, n))?;
    let dtype = match dtype {
        Some(d) => d,
        None if diagonals.is_empty() => DType::Float64,
        None => {
            gpu_array::dtype::common_type(&diagonals.iter().map(|d| d.dtype()).collect::<Vec<_>>())?
        }
    };
    check_value_dtype(dtype)?;
    let lens: Vec<usize> = diagonals.iter().map(|d| d.size()).collect();
    let placement = place(m, n, offsets, &lens)?;
    let data = creation::zeros([offsets.len(), placement.width], dtype)?;
    for (j, (diagonal, &(start, length))) in diagonals.iter().zip(&placement.spans).enumerate() {
        if length == 0 {
            continue;
        }
        let dst = data.slice(&gpu_array::s![j, start..start + length])?;
        let flat = diagonal.reshape([-1isize])?;
        let src = if flat.size() > length {
            flat.get_index(&gpu_array::ix![..length as isize])?
        } else {
            flat
        };
        // NumPy's item assignment casts unsafely; a single element broadcasts.
        gpu_array::array::copyto(&dst, &src, Casting::Unsafe, None)?;
    }
    let offs: Vec<i64> = offsets.iter().map(|&k| k as i64).collect();
    let offs = Array::from_slice(&offs, &[offs.len()])?;
    DiaMatrix::new(&data, &offs, (m, n))
}

/// SciPy's `spdiags(data, diags, m, n)`: the `m x n` [`DiaMatrix`] whose
/// diagonal `diags[i]` is row `i` of `data`, element `j` in column `j`
/// (so a diagonal below the main one starts at `data[i, 0]` in row
/// `-diags[i]`, the first elements of one above fall outside).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let data = Array::from_slice(&[1.0f64, 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.], &[3, 4])?;
/// let a = gpu_sparse::spdiags(&data, &[0, -1, 2], 4, 4)?;
/// // [[1, 0, 11, 0], [5, 2, 0, 12], [0, 6, 3, 0], [0, 0, 7, 4]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`DiaMatrix::new`].
pub fn spdiags(data: &Array, diags: &[isize], m: usize, n: usize) -> Result<DiaMatrix> {
    let offs: Vec<i64> = diags.iter().map(|&k| k as i64).collect();
    let offs = Array::from_slice(&offs, &[offs.len()])?;
    DiaMatrix::new(data, &offs, (m, n))
}

#[cfg(test)]
mod tests {
    use super::{Placement, place};

    #[test]
    fn placement_is_scipys() {
        // diags([a, b, c], [-1, 0, 1], shape=(4, 4)): width 4.
        assert_eq!(
            place(4, 4, &[-1, 0, 1], &[3, 4, 3]).unwrap(),
            Placement {
                width: 4,
                spans: vec![(0, 3), (0, 4), (1, 3)]
            }
        );
        // Rectangular: 2 x 5 with offset 3 holds 2 elements from column 3.
        assert_eq!(
            place(2, 5, &[3, -1], &[1, 1]).unwrap(),
            Placement {
                width: 5,
                spans: vec![(3, 2), (0, 1)]
            }
        );
        // A diagonal just outside holds nothing but is allowed.
        assert_eq!(place(3, 3, &[3], &[0]).unwrap().spans, vec![(3, 0)]);
        // Longer diagonals are cut.
        assert_eq!(place(3, 3, &[0], &[7]).unwrap().spans, vec![(0, 3)]);
    }

    #[test]
    fn placement_errors_are_scipys() {
        let e = place(3, 3, &[4], &[1]).unwrap_err().to_string();
        assert!(e.contains("Offset 4 (index 0) out of bounds"), "{e}");
        let e = place(3, 3, &[0, -5], &[3, 1]).unwrap_err().to_string();
        assert!(e.contains("Offset -5 (index 1) out of bounds"), "{e}");
        let e = place(3, 3, &[1, 0], &[2, 2]).unwrap_err().to_string();
        assert!(
            e.contains(
                "Diagonal length (index 1: 2 at offset 0) does not agree with matrix size (3, 3)."
            ),
            "{e}"
        );
        let e = place(3, 3, &[0], &[0]).unwrap_err().to_string();
        assert!(e.contains("Diagonal length (index 0: 0"), "{e}");
        // Extreme offsets do not overflow.
        assert!(place(3, 3, &[isize::MIN, isize::MAX], &[1, 1]).is_err());
    }
}
