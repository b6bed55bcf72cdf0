//! SciPy's `bmat`, `hstack`, `vstack` and `block_diag`: matrices from
//! blocks, their triplets moved into place and joined.

use gpu_array::{DType, Error, Result};

use super::{Piece, assemble, upcast};
use crate::{CooMatrix, SpMatrix};

/// The rows and columns of a grid of blocks, as SciPy's `bmat` finds them:
/// a block row (column) takes the height (width) of its first block with a
/// nonzero one, and every other block must agree. `None` entries leave
/// their place to the others; a row of only `None` (or of zero-height
/// blocks) is zero high. Pure host arithmetic over the blocks' shapes.
fn grid(shapes: &[Vec<Option<(usize, usize)>>]) -> Result<(Vec<usize>, Vec<usize>)> {
    let cols = shapes.first().map_or(0, Vec::len);
    if shapes.is_empty() || shapes.iter().any(|r| r.len() != cols) {
        return Err(Error::Value("blocks must be 2-D".into()));
    }
    let mut heights = vec![0usize; shapes.len()];
    let mut widths = vec![0usize; cols];
    for (i, row) in shapes.iter().enumerate() {
        for (j, shape) in row.iter().enumerate() {
            let Some((h, w)) = *shape else { continue };
            if heights[i] == 0 {
                heights[i] = h;
            } else if heights[i] != h {
                return Err(Error::Value(format!(
                    "blocks[{i},:] has incompatible row dimensions. \
                     Got blocks[{i},{j}].shape[0] == {h}, expected {}.",
                    heights[i]
                )));
            }
            if widths[j] == 0 {
                widths[j] = w;
            } else if widths[j] != w {
                return Err(Error::Value(format!(
                    "blocks[:,{j}] has incompatible column dimensions. \
                     Got blocks[{i},{j}].shape[1] == {w}, expected {}.",
                    widths[j]
                )));
            }
        }
    }
    Ok((heights, widths))
}

/// The running sums `[0, a0, a0 + a1, ...]` of `sizes` (one more than
/// given), checked.
fn starts(sizes: &[usize]) -> Result<Vec<usize>> {
    let mut out = Vec::with_capacity(sizes.len() + 1);
    let mut total = 0usize;
    out.push(0);
    for &s in sizes {
        total = total
            .checked_add(s)
            .ok_or_else(|| Error::Value("blocks too large: the shape overflows".into()))?;
        out.push(total);
    }
    Ok(out)
}

/// SciPy's `bmat(blocks, dtype=dtype)`: the matrix of a grid of sparse
/// blocks, `None` for an all-zero block, in COO (SciPy's default format).
/// Entries come in block order (row-major over the grid), duplicates
/// kept. `dtype` `None`: the promoted dtype of the blocks (float64 when
/// every block is `None`). A grid with rows but no column is `0 x 0`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, bmat, eye};
/// # fn main() -> gpu_array::Result<()> {
/// let a = eye(2, 2, 0, DType::Float64)?;
/// let b = eye(2, 3, 1, DType::Float64)?;
/// // bmat([[a, b], [None, b]]): 4 x 5
/// let m = bmat(&[[Some(&a as &dyn SpMatrix), Some(&b)], [None, Some(&b)]], None)?;
/// assert_eq!(m.shape(), (4, 5));
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "blocks must be 2-D" (no rows, or rows of different
/// lengths), `"blocks[1,:] has incompatible row dimensions. Got
/// blocks[1,2].shape[0] == 3, expected 2."`, `"blocks[:,0] has
/// incompatible column dimensions. ..."`; a shape too large; an
/// unsupported dtype.
pub fn bmat<'a, R: AsRef<[Option<&'a dyn SpMatrix>]>>(
    blocks: &[R],
    dtype: Option<DType>,
) -> Result<CooMatrix> {
    let rows: Vec<&[Option<&dyn SpMatrix>]> = blocks.iter().map(AsRef::as_ref).collect();
    let shapes: Vec<Vec<Option<(usize, usize)>>> = rows
        .iter()
        .map(|r| r.iter().map(|b| b.map(|b| b.shape())).collect())
        .collect();
    let (heights, widths) = grid(&shapes)?;
    let (row_starts, col_starts) = (starts(&heights)?, starts(&widths)?);
    let shape = (row_starts[heights.len()], col_starts[widths.len()]);
    let present = || rows.iter().flat_map(|r| r.iter().flatten());
    let dtype = match dtype {
        Some(d) => d,
        None => upcast(present().map(|b| b.dtype())).unwrap_or(DType::Float64),
    };
    crate::base::check_value_dtype(dtype)?;
    let mut pieces = vec![];
    for (i, row) in rows.iter().enumerate() {
        for (j, block) in row.iter().enumerate() {
            if let Some(b) = block {
                pieces.push(Piece {
                    coo: b.tocoo()?,
                    row_offset: row_starts[i],
                    col_offset: col_starts[j],
                });
            }
        }
    }
    assemble(&pieces, shape, dtype)
}

/// SciPy's `hstack(blocks, dtype=dtype)`: the blocks side by side (one
/// block row of [`bmat`]), in COO. No block gives the `0 x 0` matrix.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, eye, hstack};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (eye(3, 2, 0, DType::Float64)?, eye(3, 4, 1, DType::Float32)?);
/// let m = hstack(&[&a, &b], None)?; // 3 x 6, float64
/// assert_eq!(m.shape(), (3, 6));
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`bmat`]: blocks of different heights (`"blocks[0,:] has
/// incompatible row dimensions. ..."`).
pub fn hstack(blocks: &[&dyn SpMatrix], dtype: Option<DType>) -> Result<CooMatrix> {
    let row: Vec<Option<&dyn SpMatrix>> = blocks.iter().map(|b| Some(*b)).collect();
    bmat(&[row], dtype)
}

/// SciPy's `vstack(blocks, dtype=dtype)`: the blocks one above the other
/// (one block column of [`bmat`]), in COO.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, eye, vstack};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (eye(2, 3, 0, DType::Float64)?, eye(1, 3, 2, DType::Float64)?);
/// assert_eq!(vstack(&[&a, &b], None)?.shape(), (3, 3));
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`bmat`]: blocks of different widths (`"blocks[:,0] has
/// incompatible column dimensions. ..."`), no block ("blocks must be
/// 2-D", as SciPy's).
pub fn vstack(blocks: &[&dyn SpMatrix], dtype: Option<DType>) -> Result<CooMatrix> {
    let rows: Vec<[Option<&dyn SpMatrix>; 1]> = blocks.iter().map(|b| [Some(*b)]).collect();
    bmat(&rows, dtype)
}

/// SciPy's `block_diag(mats, dtype=dtype)`: the matrices along the
/// diagonal of a block matrix, zeros elsewhere, in COO. `dtype` `None`:
/// the promoted dtype of the matrices.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::{SpMatrix, block_diag, eye};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (eye(2, 3, 0, DType::Float64)?, eye(1, 1, 0, DType::Float64)?);
/// assert_eq!(block_diag(&[&a, &b], None)?.shape(), (3, 4));
/// # Ok(()) }
/// ```
///
/// # Errors
/// No matrix (NumPy's "need at least one array to concatenate", as
/// SciPy's); a shape too large; an unsupported dtype.
pub fn block_diag(mats: &[&dyn SpMatrix], dtype: Option<DType>) -> Result<CooMatrix> {
    if mats.is_empty() {
        return Err(Error::Value(
            "need at least one array to concatenate".into(),
        ));
    }
    let shapes: Vec<(usize, usize)> = mats.iter().map(|a| a.shape()).collect();
    let row_starts = starts(&shapes.iter().map(|s| s.0).collect::<Vec<_>>())?;
    let col_starts = starts(&shapes.iter().map(|s| s.1).collect::<Vec<_>>())?;
    let shape = (row_starts[mats.len()], col_starts[mats.len()]);
    let dtype = match dtype {
        Some(d) => d,
        None => upcast(mats.iter().map(|a| a.dtype())).unwrap_or(DType::Float64),
    };
    crate::base::check_value_dtype(dtype)?;
    let pieces = mats
        .iter()
        .enumerate()
        .map(|(i, a)| {
            Ok(Piece {
                coo: a.tocoo()?,
                row_offset: row_starts[i],
                col_offset: col_starts[i],
            })
        })
        .collect::<Result<Vec<_>>>()?;
    assemble(&pieces, shape, dtype)
}

#[cfg(test)]
mod tests {
    use super::{grid, starts};

    #[test]
    fn grid_takes_each_row_and_column_from_its_blocks() {
        let g = vec![
            vec![Some((2, 3)), None, Some((2, 1))],
            vec![None, Some((4, 5)), None],
        ];
        assert_eq!(grid(&g).unwrap(), (vec![2, 4], vec![3, 5, 1]));
        // A row of only None is zero high.
        let g = vec![vec![None, Some((1, 1))], vec![None, None]];
        assert_eq!(grid(&g).unwrap(), (vec![1, 0], vec![0, 1]));
    }

    #[test]
    fn grid_errors_are_scipys() {
        let e = grid(&[]).unwrap_err().to_string();
        assert!(e.contains("blocks must be 2-D"), "{e}");
        let e = grid(&[vec![Some((1, 1))], vec![]]).unwrap_err().to_string();
        assert!(e.contains("blocks must be 2-D"), "{e}");
        let g = vec![vec![Some((2, 3)), Some((3, 1))]];
        let e = grid(&g).unwrap_err().to_string();
        assert!(
            e.contains(
                "blocks[0,:] has incompatible row dimensions. \
                 Got blocks[0,1].shape[0] == 3, expected 2."
            ),
            "{e}"
        );
        let g = vec![vec![Some((2, 3))], vec![Some((1, 4))]];
        let e = grid(&g).unwrap_err().to_string();
        assert!(
            e.contains(
                "blocks[:,0] has incompatible column dimensions. \
                 Got blocks[1,0].shape[1] == 4, expected 3."
            ),
            "{e}"
        );
    }

    #[test]
    fn starts_are_checked_running_sums() {
        assert_eq!(starts(&[2, 0, 3]).unwrap(), vec![0, 2, 2, 5]);
        assert!(starts(&[usize::MAX, 1]).is_err());
    }
}
