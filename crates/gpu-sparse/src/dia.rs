//! [`DiaMatrix`]: SciPy's `dia_matrix`, a matrix stored by diagonals.
//!
//! `data` is 2-D, one row per diagonal; `data[i, j]` is the element in
//! column `j` of diagonal `offsets[i]`, that is `A[j - offsets[i], j]`
//! (offset 0 the main diagonal, above it positive). Slots whose position
//! falls outside the matrix are stored but never read, as SciPy's.

use gpu_array::indexing::{TakeMode, nonzero, put, take};
use gpu_array::sorting::{Side, UniqueOptions, searchsorted, unique};
use gpu_array::{Array, DType, Error, Result, creation, manipulation, math, ufunc};

use crate::base::{
    Format, SpMatrix, check_shape, check_value_dtype, contiguous_as, index_dtype, index_dtype_for,
};
use crate::{CooMatrix, CscMatrix, CsrMatrix};

/// A sparse matrix stored by diagonals (SciPy's `dia_matrix`).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_sparse::{DiaMatrix, SpMatrix};
/// # fn main() -> gpu_array::Result<()> {
/// // dia_matrix((data, [0, -1, 2]), shape=(4, 4)) with data one row a diagonal
/// let data = Array::from_slice(&[1.0f64, 2., 3., 4., 5., 6., 7., 8., 9., 10., 11., 12.], &[3, 4])?;
/// let offsets = Array::from_slice(&[0i32, -1, 2], &[3])?;
/// let a = DiaMatrix::new(&data, &offsets, (4, 4))?;
/// let dense = a.toarray()?; // [[1, 0, 11, 0], [5, 2, 0, 12], [0, 6, 3, 0], [0, 0, 7, 4]]
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct DiaMatrix {
    data: Array,
    offsets: Array,
    shape: (usize, usize),
    /// The slots of `data` that fall inside the matrix (SciPy's `nnz`,
    /// explicit zeros included), computed at construction.
    nnz: usize,
}

impl DiaMatrix {
    /// SciPy's `dia_matrix((data, offsets), shape=shape)`: `data` 2-D (a
    /// 1-D or 0-d array is one diagonal, as SciPy's `atleast_2d`), one row
    /// per entry of the integer `offsets` (a 0-d offset is one), offsets
    /// distinct. Offsets beyond the matrix are allowed and hold nothing.
    /// One device pass and one host read of four scalars (the extreme
    /// offsets, whether one repeats, the entry count).
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// # fn main() -> gpu_array::Result<()> {
    /// let data = Array::from_slice(&[1.0f32, 2.0, 3.0], &[1, 3])?;
    /// let offsets = Array::from_slice(&[1i64], &[1])?;
    /// let a = gpu_sparse::DiaMatrix::new(&data, &offsets, (3, 3))?; // (0,1)=2, (1,2)=3
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// SciPy's "offsets array must have rank 1", "data array must have
    /// rank 2", "number of diagonals (3) does not match the number of
    /// offsets (2)", "offset array contains duplicate values"; offsets
    /// that are not integers; an unsupported value dtype; a shape too
    /// large for 64-bit indices.
    pub fn new(data: &Array, offsets: &Array, shape: (usize, usize)) -> Result<DiaMatrix> {
        let offsets = match offsets.ndim() {
            0 => offsets.reshape([1isize])?,
            1 => offsets.clone(),
            _ => return Err(Error::Value("offsets array must have rank 1".into())),
        };
        let data = match data.ndim() {
            0 | 1 => data.reshape([1isize, -1])?,
            2 => data.clone(),
            _ => return Err(Error::Value("data array must have rank 2".into())),
        };
        if !offsets.dtype().is_integer() {
            return Err(Error::DType(format!(
                "offsets must be an integer array, not {}",
                offsets.dtype()
            )));
        }
        check_value_dtype(data.dtype())?;
        check_shape(shape)?;
        let (diagonals, width) = (data.shape()[0], data.shape()[1]);
        if diagonals != offsets.size() {
            return Err(Error::Value(format!(
                "number of diagonals ({diagonals}) does not match the number of offsets ({})",
                offsets.size()
            )));
        }
        let (mut lo, mut hi, mut nnz) = (0i64, 0i64, 0usize);
        if diagonals > 0 {
            let stats = offset_stats(&offsets, shape, width)?;
            if stats.duplicate {
                return Err(Error::Value(
                    "offset array contains duplicate values".into(),
                ));
            }
            (lo, hi, nnz) = (stats.lo, stats.hi, stats.nnz);
        }
        // SciPy keeps offsets in the index dtype of the shape; offsets far
        // outside the matrix are legal, so their own size counts too.
        let reach = shape
            .0
            .max(shape.1)
            .max(lo.unsigned_abs() as usize)
            .max(hi.unsigned_abs() as usize);
        Ok(DiaMatrix {
            data: contiguous_as(&data, data.dtype())?,
            offsets: contiguous_as(&offsets, index_dtype(reach))?,
            shape,
            nnz,
        })
    }

    /// SciPy's `dia_matrix(dense)`: the 2-D array through COO
    /// ([`CooMatrix::todia`]), one diagonal for each that holds a nonzero.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::eye(4, None, -1, gpu_array::DType::Float64)?;
    /// let a = gpu_sparse::DiaMatrix::from_dense(&d)?; // offsets [-1]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`CooMatrix::from_dense`].
    pub fn from_dense(a: &Array) -> Result<DiaMatrix> {
        CooMatrix::from_dense(a)?.todia()
    }

    /// The diagonals, one a row (SciPy's `data`).
    pub fn data(&self) -> &Array {
        &self.data
    }

    /// The offset of each row of `data` (SciPy's `offsets`).
    pub fn offsets(&self) -> &Array {
        &self.offsets
    }

    /// A deep copy (SciPy's `copy`).
    ///
    /// # Errors
    /// Allocation failures.
    pub fn copy(&self) -> Result<DiaMatrix> {
        Ok(DiaMatrix {
            data: self.data.copy()?,
            offsets: self.offsets.copy()?,
            ..self.clone()
        })
    }

    /// The values cast to `dtype` (SciPy's `astype`).
    ///
    /// # Errors
    /// An unsupported dtype.
    pub fn astype(&self, dtype: DType) -> Result<DiaMatrix> {
        check_value_dtype(dtype)?;
        Ok(DiaMatrix {
            data: self.data.astype(dtype)?,
            ..self.clone()
        })
    }

    /// The nonzero slots inside the matrix as (row, column, value), in
    /// storage order (diagonal by diagonal, columns ascending), int64
    /// indices. Distinct offsets put every slot at its own position.
    fn entries(&self) -> Result<(Array, Array, Array)> {
        let (diagonals, width) = (self.data.shape()[0], self.data.shape()[1]);
        let (m, n) = self.shape;
        if self.nnz == 0 {
            let empty = creation::zeros(0, DType::Int64)?;
            return Ok((empty.clone(), empty, creation::zeros(0, self.data.dtype())?));
        }
        let offsets = self
            .offsets
            .astype(DType::Int64)?
            .reshape([diagonals as isize, 1])?;
        let cols = creation::arange_with(0i64, width as i64, 1i64, Some(DType::Int64))?;
        // rows[i, j] = j - offsets[i], as SciPy's `offset_inds - offsets[:, None]`.
        let rows = ufunc::subtract(&cols, &offsets)?;
        let inside = ufunc::logical_and(
            &ufunc::logical_and(
                &ufunc::greater_equal(&rows, 0i64)?,
                &ufunc::less(&rows, m as i64)?,
            )?,
            &ufunc::less(&cols, n as i64)?,
        )?;
        // SciPy's `tocoo` leaves out the stored zeros (`data != 0`).
        let stored = if self.data.dtype() == DType::Bool {
            self.data.clone()
        } else {
            ufunc::not_equal(&self.data, 0i64)?
        };
        let keep = ufunc::logical_and(&inside, &stored)?;
        let flat = nonzero(&keep.ravel()?)?.remove(0);
        let row = take(&rows.ravel()?, &flat, Some(0), TakeMode::Wrap)?;
        let col = ufunc::remainder(&flat, width as i64)?;
        let data = take(&self.data.ravel()?, &flat, Some(0), TakeMode::Wrap)?;
        Ok((row, col, data))
    }
}

/// What construction reads back about the offsets.
struct OffsetStats {
    lo: i64,
    hi: i64,
    duplicate: bool,
    nnz: usize,
}

/// The extreme offsets, whether one repeats and the slots inside an
/// `shape` matrix (columns `max(0, k) .. min(n, width, m + k)` of
/// diagonal `k`), for non-empty `offsets`: one
/// host read.
fn offset_stats(offsets: &Array, shape: (usize, usize), width: usize) -> Result<OffsetStats> {
    let (m, n) = (shape.0 as i64, shape.1 as i64);
    let k = offsets.astype(DType::Int64)?;
    let lo = gpu_array::stats::amin(&k, ())?;
    let hi = gpu_array::stats::amax(&k, ())?;
    let duplicate = if k.size() > 1 {
        let sorted = gpu_array::sorting::sort(&k, Some(0))?;
        let same = ufunc::equal(
            &sorted.get_index(&gpu_array::ix![1..])?,
            &sorted.get_index(&gpu_array::ix![..-1])?,
        )?;
        gpu_array::logic::any(&same, ())?.astype(DType::Int64)?
    } else {
        creation::zeros(1, DType::Int64)?
    };
    // Offsets beyond the matrix hold nothing; clipped to [-m, n] first,
    // `m + k` cannot overflow.
    let k = math::clip(&k, (-m).into(), n.into())?;
    let end = ufunc::minimum(&ufunc::add(&k, m)?, n.min(width as i64))?;
    let slots = ufunc::maximum(&ufunc::subtract(&end, &ufunc::maximum(&k, 0i64)?)?, 0i64)?;
    let nnz = gpu_array::math::sum(&slots, ())?.astype(DType::Int64)?;
    let one = |a: &Array| a.reshape([1isize]);
    let v = manipulation::concatenate(
        &[&one(&lo)?, &one(&hi)?, &one(&duplicate)?, &one(&nnz)?],
        Some(0),
    )?
    .to_vec::<i64>()?;
    Ok(OffsetStats {
        lo: v[0],
        hi: v[1],
        duplicate: v[2] != 0,
        nnz: v[3] as usize,
    })
}

impl SpMatrix for DiaMatrix {
    fn format(&self) -> Format {
        Format::Dia
    }
    fn shape(&self) -> (usize, usize) {
        self.shape
    }
    fn nnz(&self) -> usize {
        self.nnz
    }
    fn dtype(&self) -> DType {
        self.data.dtype()
    }
    fn tocoo(&self) -> Result<CooMatrix> {
        let (row, col, data) = self.entries()?;
        let index = index_dtype_for(self.shape, data.size());
        // Diagonal by diagonal is not row order: not canonical.
        Ok(CooMatrix::from_parts(
            data,
            row.astype(index)?,
            col.astype(index)?,
            self.shape,
            false,
        ))
    }
    fn tocsr(&self) -> Result<CsrMatrix> {
        self.tocoo()?.tocsr()
    }
    fn tocsc(&self) -> Result<CscMatrix> {
        self.tocoo()?.tocsc()
    }
    fn toarray(&self) -> Result<Array> {
        let (m, n) = self.shape;
        let out = creation::zeros([m, n], self.data.dtype())?;
        let (row, col, data) = self.entries()?;
        if data.size() > 0 {
            // Positions are distinct (distinct offsets): no sort, no sum.
            let flat = ufunc::add(&ufunc::multiply(&row, n as i64)?, &col)?;
            put(&out, &flat, &data, TakeMode::Wrap)?;
        }
        Ok(out)
    }
}

impl CooMatrix {
    /// The matrix by diagonals (SciPy's `todia`): duplicates summed, one
    /// row of `data` for each diagonal that holds an entry, offsets
    /// ascending, `data` as wide as the last column holding an entry. One
    /// host read (that column) beyond the sum and the construction.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let a = gpu_sparse::CooMatrix::from_triplets(&[0, 1, 2], &[1, 2, 0], &[1.0f64, 2.0, 3.0], (3, 3))?;
    /// let d = a.todia()?; // offsets [-2, 1]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn todia(&self) -> Result<DiaMatrix> {
        let mut c = self.clone();
        c.sum_duplicates()?;
        let none = Array::from_slice::<i64>(&[], &[0])?;
        if c.nnz() == 0 {
            return DiaMatrix::new(&creation::zeros([0, 0], c.dtype())?, &none, c.shape());
        }
        let row = c.row().astype(DType::Int64)?;
        let col = c.col().astype(DType::Int64)?;
        let ks = ufunc::subtract(&col, &row)?;
        let diags = unique(&ks, UniqueOptions::default())?.values;
        let which = searchsorted(&diags, &ks, Side::Left, None)?;
        let width = gpu_array::stats::amax(&col, ())?.item::<i64>(&[])? as usize + 1;
        let data = creation::zeros([diags.size(), width], c.dtype())?;
        let flat = ufunc::add(&ufunc::multiply(&which, width as i64)?, &col)?;
        put(&data, &flat, c.data(), TakeMode::Wrap)?;
        DiaMatrix::new(&data, &diags, c.shape())
    }
}

impl CsrMatrix {
    /// The matrix by diagonals (SciPy's `todia`), through COO.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_sparse::eye(3, 3, 1, gpu_array::DType::Float64)?.todia()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`CooMatrix::todia`].
    pub fn todia(&self) -> Result<DiaMatrix> {
        self.tocoo()?.todia()
    }
}

impl CscMatrix {
    /// The matrix by diagonals (SciPy's `todia`), through COO.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_sparse::SpMatrix;
    /// let d = gpu_sparse::eye(3, 3, 0, gpu_array::DType::Float64)?.tocsc()?.todia()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`CooMatrix::todia`].
    pub fn todia(&self) -> Result<DiaMatrix> {
        self.tocoo()?.todia()
    }
}

#[cfg(test)]
mod tests {
    /// How many slots a diagonal holds inside an `m x n` matrix when
    /// `data` has `width` columns: columns `max(0, k) .. min(n, width, m +
    /// k)`. The closed form `offset_stats` evaluates on the device, checked
    /// here against SciPy's own count.
    fn diagonal_slots(m: usize, n: usize, width: usize, k: i64) -> usize {
        let (m, n, width, k) = (m as i128, n as i128, width as i128, i128::from(k));
        let end = n.min(width).min(m + k);
        (end - k.max(0)).max(0) as usize
    }

    #[test]
    fn slots_match_scipys_count_for_full_width_data() {
        // SciPy's _getnnz: min(m, n - k) above, min(m + k, n) below.
        for (m, n) in [(4, 4), (3, 5), (5, 3), (1, 7), (0, 3)] {
            for k in -6i64..=6 {
                let scipy = if k > 0 {
                    (m as i64).min(n as i64 - k)
                } else {
                    (m as i64 + k).min(n as i64)
                }
                .max(0) as usize;
                assert_eq!(diagonal_slots(m, n, n, k), scipy, "{m}x{n} k={k}");
            }
        }
    }

    #[test]
    fn narrow_data_holds_fewer_slots() {
        // Columns beyond data's width are not stored.
        assert_eq!(diagonal_slots(4, 4, 2, 0), 2);
        assert_eq!(diagonal_slots(4, 4, 2, 1), 1);
        // Column 0 of diagonal -3 is row 3; diagonal -4 lies outside.
        assert_eq!(diagonal_slots(4, 4, 2, -3), 1);
        assert_eq!(diagonal_slots(4, 4, 2, -4), 0);
        assert_eq!(diagonal_slots(4, 4, 0, 0), 0);
        assert_eq!(diagonal_slots(4, 4, 9, 0), 4);
    }
}
