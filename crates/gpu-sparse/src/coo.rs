//! [`CooMatrix`]: SciPy's `coo_matrix`, entries as (row, column, value)
//! triplets in any order, duplicates allowed until summed.

use std::sync::atomic::{AtomicBool, Ordering};

use gpu_array::indexing::{TakeMode, nonzero, take};
use gpu_array::{Array, DType, Error, Result, creation, ufunc};

use crate::base::{
    Format, IndexMessages, SpMatrix, check_1d, check_shape, check_value_dtype, checked_indices,
    contiguous_as, index_dtype_for, min_max_i64,
};
use crate::canonical::{compress, sort_and_sum};
use crate::{CscMatrix, CsrMatrix};

/// A sparse matrix in coordinate format (SciPy's `coo_matrix`): `data[k]`
/// at `(row[k], col[k])`, in any order, duplicates adding up.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_sparse::{CooMatrix, SpMatrix};
/// # fn main() -> gpu_array::Result<()> {
/// let data = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
/// let row = Array::from_slice(&[0i32, 1, 1], &[3])?;
/// let col = Array::from_slice(&[2i32, 0, 0], &[3])?;
/// let a = CooMatrix::new(&data, &row, &col, Some((2, 3)))?; // coo_matrix((data, (row, col)), shape=(2, 3))
/// let dense = a.toarray()?; // [[0, 0, 1], [5, 0, 0]]: the duplicates add
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct CooMatrix {
    data: Array,
    row: Array,
    col: Array,
    shape: (usize, usize),
    /// Entries known sorted by (row, column) without duplicates.
    canonical: AtomicBool,
}

impl Clone for CooMatrix {
    fn clone(&self) -> Self {
        CooMatrix {
            data: self.data.clone(),
            row: self.row.clone(),
            col: self.col.clone(),
            shape: self.shape,
            canonical: AtomicBool::new(self.canonical.load(Ordering::Relaxed)),
        }
    }
}

impl CooMatrix {
    /// SciPy's `coo_matrix((data, (row, col)), shape=shape)`: checks that
    /// the three arrays are 1-D of one length, the indices integers within
    /// `shape` (`None`: one past the largest of each, as SciPy infers it).
    /// The arrays are used as given when already contiguous and of the
    /// chosen index dtype (int32 while the shape and entry count allow,
    /// int64 beyond), copied otherwise.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// # fn main() -> gpu_array::Result<()> {
    /// let v = Array::from_slice(&[1.0f32], &[1])?;
    /// let i = Array::from_slice(&[4i64], &[1])?;
    /// let a = gpu_sparse::CooMatrix::new(&v, &i, &i, None)?; // shape (5, 5)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Arrays not 1-D or of different lengths ("row, column, and data
    /// array must all be the same length"), non-integer or negative
    /// indices, an index beyond the shape, an unsupported value dtype.
    pub fn new(
        data: &Array,
        row: &Array,
        col: &Array,
        shape: Option<(usize, usize)>,
    ) -> Result<CooMatrix> {
        check_1d(data, "data")?;
        check_1d(row, "row")?;
        check_1d(col, "col")?;
        check_value_dtype(data.dtype())?;
        if row.size() != col.size() || row.size() != data.size() {
            return Err(Error::Value(
                "row, column, and data array must all be the same length".into(),
            ));
        }
        let shape = match shape {
            Some(s) => s,
            None if data.size() == 0 => {
                return Err(Error::Value(
                    "cannot infer dimensions from zero sized index arrays".into(),
                ));
            }
            None => {
                let (_, r) = min_max_i64(row)?;
                let (_, c) = min_max_i64(col)?;
                let side = |v: i64| usize::try_from(v).map(|v| v + 1).unwrap_or(0);
                (side(r), side(c))
            }
        };
        check_shape(shape)?;
        let index = index_dtype_for(shape, data.size());
        let row = checked_indices(row, index, shape.0, "row", &IndexMessages::coo("row"))?;
        let col = checked_indices(col, index, shape.1, "col", &IndexMessages::coo("column"))?;
        Ok(CooMatrix::from_parts(
            contiguous_as(data, data.dtype())?,
            row,
            col,
            shape,
            false,
        ))
    }

    /// A matrix from checked parts (crate-internal).
    pub(crate) fn from_parts(
        data: Array,
        row: Array,
        col: Array,
        shape: (usize, usize),
        canonical: bool,
    ) -> CooMatrix {
        CooMatrix {
            data,
            row,
            col,
            shape,
            canonical: AtomicBool::new(canonical),
        }
    }

    /// SciPy's `coo_matrix(dense)`: the nonzero entries of a 2-D array, in
    /// row-major order.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::eye(3, None, 0, gpu_array::DType::Float64)?;
    /// let a = gpu_sparse::CooMatrix::from_dense(&d)?; // 3 entries
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An array that is not 2-D ("expected dimension <= 2 array or
    /// matrix"), an unsupported dtype.
    pub fn from_dense(a: &Array) -> Result<CooMatrix> {
        let a = match a.ndim() {
            2 => a.clone(),
            0 | 1 => a.reshape([1isize, -1])?,
            _ => {
                return Err(Error::Value(
                    "expected dimension <= 2 array or matrix".into(),
                ));
            }
        };
        check_value_dtype(a.dtype())?;
        let shape = (a.shape()[0], a.shape()[1]);
        check_shape(shape)?;
        let mut idx = nonzero(&a)?;
        let (r, c) = (idx.remove(0), idx.remove(0));
        let nnz = r.size();
        let flat = ufunc::add(&ufunc::multiply(&r, shape.1 as i64)?, &c)?;
        let data = take(&a.ravel()?, &flat, Some(0), TakeMode::Wrap)?;
        let index = index_dtype_for(shape, nnz);
        Ok(CooMatrix::from_parts(
            data,
            r.astype(index)?,
            c.astype(index)?,
            shape,
            true,
        ))
    }

    /// The values (SciPy's `data`).
    pub fn data(&self) -> &Array {
        &self.data
    }

    /// The row indices (SciPy's `row`).
    pub fn row(&self) -> &Array {
        &self.row
    }

    /// The column indices (SciPy's `col`).
    pub fn col(&self) -> &Array {
        &self.col
    }

    /// Whether the entries are known sorted by (row, column) with no
    /// duplicates (SciPy's `has_canonical_format`: true after
    /// [`CooMatrix::sum_duplicates`] or a conversion that sorts).
    pub fn has_canonical_format(&self) -> bool {
        self.canonical.load(Ordering::Relaxed)
    }

    /// Sorts the entries by (row, column) and sums duplicates, in place
    /// (SciPy's `sum_duplicates`). A stable sort: the sums add in the
    /// order the entries were stored, the same on every run.
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn sum_duplicates(&mut self) -> Result<()> {
        if self.has_canonical_format() {
            return Ok(());
        }
        let s = sort_and_sum(
            &self.row,
            &self.col,
            &self.data,
            self.shape.1,
            self.row.dtype(),
            false,
        )?;
        self.row = s.major;
        self.col = s.minor;
        self.data = s.data;
        self.canonical.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Removes the entries whose value is zero, in place (SciPy's
    /// `eliminate_zeros`).
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn eliminate_zeros(&mut self) -> Result<()> {
        let keep = nonzero(&self.data)?.remove(0);
        if keep.size() == self.data.size() {
            return Ok(());
        }
        self.data = take(&self.data, &keep, Some(0), TakeMode::Wrap)?;
        self.row = take(&self.row, &keep, Some(0), TakeMode::Wrap)?;
        self.col = take(&self.col, &keep, Some(0), TakeMode::Wrap)?;
        Ok(())
    }

    /// A deep copy (SciPy's `copy`).
    ///
    /// # Errors
    /// Allocation failures.
    pub fn copy(&self) -> Result<CooMatrix> {
        Ok(CooMatrix::from_parts(
            self.data.copy()?,
            self.row.copy()?,
            self.col.copy()?,
            self.shape,
            self.has_canonical_format(),
        ))
    }

    /// The values cast to `dtype` (SciPy's `astype`).
    ///
    /// # Errors
    /// An unsupported dtype.
    pub fn astype(&self, dtype: DType) -> Result<CooMatrix> {
        check_value_dtype(dtype)?;
        Ok(CooMatrix::from_parts(
            self.data.astype(dtype)?,
            self.row.clone(),
            self.col.clone(),
            self.shape,
            self.has_canonical_format(),
        ))
    }

    /// The transpose (SciPy's `transpose`/`T`): rows and columns swap,
    /// sharing the arrays.
    pub fn transpose(&self) -> CooMatrix {
        CooMatrix::from_parts(
            self.data.clone(),
            self.col.clone(),
            self.row.clone(),
            (self.shape.1, self.shape.0),
            false,
        )
    }

    /// The complex conjugate (SciPy's `conj`; the same values for real
    /// dtypes).
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn conj(&self) -> Result<CooMatrix> {
        Ok(CooMatrix::from_parts(
            conj_values(&self.data)?,
            self.row.clone(),
            self.col.clone(),
            self.shape,
            self.has_canonical_format(),
        ))
    }

    /// The conjugate transpose (SciPy's `H`/`getH`).
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn h(&self) -> Result<CooMatrix> {
        self.transpose().conj()
    }

    /// The entries sorted by (major, minor) with duplicates summed, major
    /// being the rows (`by_row`) or the columns.
    fn sorted(&self, by_row: bool) -> Result<crate::canonical::Sorted> {
        let (major, minor, minor_dim) = if by_row {
            (&self.row, &self.col, self.shape.1)
        } else {
            (&self.col, &self.row, self.shape.0)
        };
        let known = by_row && self.has_canonical_format();
        sort_and_sum(major, minor, &self.data, minor_dim, self.row.dtype(), known)
    }
}

/// `conj` of values: a copy through the ufunc for complex dtypes, the
/// array itself (shared) otherwise.
pub(crate) fn conj_values(data: &Array) -> Result<Array> {
    if data.dtype().is_complex() {
        ufunc::conjugate(data)
    } else {
        Ok(data.clone())
    }
}

impl CooMatrix {
    /// `(rows, columns)` (inherent as well as [`SpMatrix::shape`], as for
    /// the compressed formats).
    pub fn shape(&self) -> (usize, usize) {
        self.shape
    }
    /// The stored entries, duplicates included (SciPy's `nnz`).
    pub fn nnz(&self) -> usize {
        self.data.size()
    }
    /// The dtype of the values.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }
    /// The format.
    pub fn format(&self) -> Format {
        Format::Coo
    }
}

impl SpMatrix for CooMatrix {
    fn format(&self) -> Format {
        CooMatrix::format(self)
    }
    fn shape(&self) -> (usize, usize) {
        CooMatrix::shape(self)
    }
    fn nnz(&self) -> usize {
        CooMatrix::nnz(self)
    }
    fn dtype(&self) -> DType {
        CooMatrix::dtype(self)
    }
    fn tocoo(&self) -> Result<CooMatrix> {
        Ok(self.clone())
    }
    fn tocsr(&self) -> Result<CsrMatrix> {
        let s = self.sorted(true)?;
        let indptr = compress(&s.major, self.shape.0, s.minor.dtype())?;
        Ok(CsrMatrix::from_parts(
            s.data, s.minor, indptr, self.shape, true,
        ))
    }
    fn tocsc(&self) -> Result<CscMatrix> {
        let s = self.sorted(false)?;
        let indptr = compress(&s.major, self.shape.1, s.minor.dtype())?;
        Ok(CscMatrix::from_parts(
            s.data, s.minor, indptr, self.shape, true,
        ))
    }
    fn toarray(&self) -> Result<Array> {
        let out = creation::zeros([self.shape.0, self.shape.1], self.data.dtype())?;
        if self.nnz() == 0 {
            return Ok(out);
        }
        let s = self.sorted(true)?;
        let flat = ufunc::add(
            &ufunc::multiply(&s.major.astype(DType::Int64)?, self.shape.1 as i64)?,
            &s.minor.astype(DType::Int64)?,
        )?;
        // Keys are distinct after the sum, so the writes do not collide.
        gpu_array::indexing::put(&out, &flat, &s.data, TakeMode::Wrap)?;
        Ok(out)
    }
}
