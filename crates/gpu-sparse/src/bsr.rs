//! [`BsrMatrix`]: SciPy's `bsr_matrix` (block sparse rows; CuPy has
//! none). A BSR matrix of shape `(M, N)` and block size `(R, C)` stores
//! dense `R x C` blocks over `M / R` block rows: the blocks of block row
//! `i` are `data[indptr[i]..indptr[i + 1]]` (each `R x C`, row-major) at
//! block columns `indices[indptr[i]..indptr[i + 1]]`. Products run on
//! cuSPARSE's generic SpMV with a BSR descriptor (cached on the matrix as
//! the CSR ones are).

use std::sync::OnceLock;

use gpu_array::indexing::{TakeMode, put};
use gpu_array::sorting::{UniqueOptions, unique};
use gpu_array::{Array, DType, Error, Result, creation, ufunc};

use crate::base::{Format, SpMatrix, check_value_dtype, contiguous_as, index_dtype_for};
use crate::canonical::{compress, expand};
use crate::compressed::Compressed;
use crate::cusparse::{CompressedView, PlanCache, value_type};
use crate::linalg::LinearOperator;
use crate::{CooMatrix, CscMatrix, CsrMatrix};

/// A sparse matrix in block sparse row format (SciPy's `bsr_matrix`; see
/// the module docs for the layout).
///
/// ```no_run
/// use gpu_sparse::{BsrMatrix, SpMatrix};
/// # fn main() -> gpu_array::Result<()> {
/// let d = gpu_array::creation::array([[1.0, 2.0, 0.0, 0.0], [3.0, 4.0, 0.0, 0.0]])?;
/// let a = BsrMatrix::from_dense(&d, (2, 2))?;
/// assert_eq!((a.shape(), a.nnz(), a.blocksize()), ((2, 4), 4, (2, 2)));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct BsrMatrix {
    data: Array,
    indices: Array,
    indptr: Array,
    shape: (usize, usize),
    blocksize: (usize, usize),
    plans: PlanCache,
    /// The CSR form, made on first need by the products cuSPARSE's BSR
    /// support does not cover.
    csr: OnceLock<CsrMatrix>,
}

impl Clone for BsrMatrix {
    fn clone(&self) -> Self {
        BsrMatrix {
            data: self.data.clone(),
            indices: self.indices.clone(),
            indptr: self.indptr.clone(),
            shape: self.shape,
            blocksize: self.blocksize,
            plans: PlanCache::default(),
            csr: self.csr.clone(),
        }
    }
}

/// SciPy's check of a block size against a shape.
fn check_blocksize(shape: (usize, usize), blocksize: (usize, usize)) -> Result<()> {
    let (r, c) = blocksize;
    if r == 0 || c == 0 {
        return Err(Error::Value(format!("invalid blocksize=({r}, {c})")));
    }
    if !shape.0.is_multiple_of(r) || !shape.1.is_multiple_of(c) {
        return Err(Error::Value("shape must be multiple of blocksize".into()));
    }
    Ok(())
}

impl BsrMatrix {
    /// SciPy's `bsr_matrix((data, indices, indptr), shape=shape,
    /// blocksize=blocksize)`, checked as SciPy's `check_format` with its
    /// full checks: `data` 3-D `(nblocks, R, C)` (its last two axes the
    /// block size, which `blocksize` must match when given), a shape that
    /// is a multiple of the block size, `indptr` of `M / R + 1` offsets
    /// from 0, non-decreasing, ending at most at the blocks given (those
    /// beyond are dropped, as SciPy's `prune`), every block column below
    /// `N / C`. Index arrays become int32 while they fit.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// # fn main() -> gpu_array::Result<()> {
    /// let data = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[1, 2, 2])?;
    /// let indices = Array::from_slice(&[1i32], &[1])?;
    /// let indptr = Array::from_slice(&[0i32, 1], &[2])?;
    /// let a = gpu_sparse::BsrMatrix::new(&data, &indices, &indptr, (2, 4), None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// SciPy's messages: "data should be 3-D", "mismatching blocksize=...
    /// vs ...", "invalid blocksize=...", "shape must be multiple of
    /// blocksize", and those of the index checks ("index pointer size 3
    /// should be 2", "column index values must be < 2", ...); an
    /// unsupported dtype.
    pub fn new(
        data: &Array,
        indices: &Array,
        indptr: &Array,
        shape: (usize, usize),
        blocksize: Option<(usize, usize)>,
    ) -> Result<BsrMatrix> {
        if data.ndim() != 3 {
            return Err(Error::Value("data should be 3-D".into()));
        }
        check_value_dtype(data.dtype())?;
        let found = (data.shape()[1], data.shape()[2]);
        if let Some(b) = blocksize
            && b != found
        {
            return Err(Error::Value(format!(
                "mismatching blocksize=({}, {}) vs ({}, {})",
                b.0, b.1, found.0, found.1
            )));
        }
        check_blocksize(shape, found)?;
        crate::base::check_shape(shape)?;
        let (r, c) = found;
        // The index checks are CSR's over the block pattern (SciPy's
        // messages are the same), with the block numbers standing in for
        // the values so the prune is visible.
        let ids = creation::arange_with(0i64, data.shape()[0] as i64, 1i64, Some(DType::Int64))?;
        let pattern = Compressed::checked(&ids, indices, indptr, shape.0 / r, shape.1 / c, false)?;
        let nnzb = pattern.nnz();
        let data = if nnzb < data.shape()[0] {
            data.get_index(&gpu_array::ix![..nnzb as isize])?
        } else {
            data.clone()
        };
        let index = index_dtype_for(shape, nnzb.saturating_mul(r * c));
        Ok(BsrMatrix::from_parts(
            contiguous_as(&data, data.dtype())?,
            pattern.indices.astype(index)?,
            pattern.indptr.astype(index)?,
            shape,
            found,
        ))
    }

    fn from_parts(
        data: Array,
        indices: Array,
        indptr: Array,
        shape: (usize, usize),
        blocksize: (usize, usize),
    ) -> BsrMatrix {
        BsrMatrix {
            data,
            indices,
            indptr,
            shape,
            blocksize,
            plans: PlanCache::default(),
            csr: OnceLock::new(),
        }
    }

    /// SciPy's `bsr_matrix(dense, blocksize=blocksize)`: the blocks of a
    /// 2-D array holding a nonzero entry (SciPy's `estimate_blocksize`,
    /// used when no block size is given, is not reproduced: name one).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float32)?;
    /// let a = gpu_sparse::BsrMatrix::from_dense(&d, (2, 2))?; // 2 blocks
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`CsrMatrix::from_dense`] and [`CsrMatrix::tobsr`].
    pub fn from_dense(a: &Array, blocksize: (usize, usize)) -> Result<BsrMatrix> {
        CsrMatrix::from_dense(a)?.tobsr(blocksize)
    }

    /// The blocks, shape `(nblocks, R, C)` (SciPy's `data`).
    pub fn data(&self) -> &Array {
        &self.data
    }

    /// The block column of each block (SciPy's `indices`).
    pub fn indices(&self) -> &Array {
        &self.indices
    }

    /// The index pointer over block rows (SciPy's `indptr`).
    pub fn indptr(&self) -> &Array {
        &self.indptr
    }

    /// `(R, C)` (SciPy's `blocksize`).
    pub fn blocksize(&self) -> (usize, usize) {
        self.blocksize
    }

    /// The number of blocks.
    pub fn nblocks(&self) -> usize {
        self.data.shape()[0]
    }

    /// `(rows, columns)`.
    pub fn shape(&self) -> (usize, usize) {
        self.shape
    }

    /// The stored entries, `nblocks * R * C` (SciPy's `nnz`: every entry
    /// of a stored block counts, zero or not).
    pub fn nnz(&self) -> usize {
        self.data.size()
    }

    /// The dtype of the values.
    pub fn dtype(&self) -> DType {
        self.data.dtype()
    }

    /// The CSR form, made once.
    fn csr(&self) -> Result<&CsrMatrix> {
        if let Some(c) = self.csr.get() {
            return Ok(c);
        }
        let c = self.tocoo()?.tocsr()?;
        Ok(self.csr.get_or_init(|| c))
    }

    /// `self @ x` for a dense vector or matrix, in the promoted dtype of
    /// both (bool, integer and 16-bit float products as
    /// [`CsrMatrix::dot`]'s). A vector goes
    /// through cuSPARSE's generic SpMV on a BSR descriptor, cached with
    /// its work buffer on the matrix as [`CsrMatrix::dot`]'s; a matrix
    /// (SpMM), a cast of the values, and a cuSPARSE that answers "not
    /// supported" for the BSR descriptor go through the CSR form, made
    /// once and kept.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?;
    /// let a = gpu_sparse::BsrMatrix::from_dense(&d, (2, 2))?;
    /// let y = a.dot(&gpu_array::creation::ones(4, gpu_array::DType::Float64)?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// "dimension mismatch"; arrays on another device; cuSPARSE's
    /// failures.
    pub fn dot(&self, x: &Array) -> Result<Array> {
        self.data.check_same_device(x, "sparse dot")?;
        let (rows, cols) = self.shape;
        if x.ndim() == 0 || x.ndim() > 2 || x.shape()[0] != cols {
            return Err(Error::Value("dimension mismatch".into()));
        }
        let dtype = gpu_array::dtype::promote_types(self.dtype(), x.dtype());
        // cuSPARSE's generic BSR takes square blocks only: the others,
        // 2-D operands, cast values and the dtypes cuSPARSE does not take
        // multiply through the kept CSR copy.
        if x.ndim() == 2
            || self.dtype() != dtype
            || self.blocksize.0 != self.blocksize.1
            || value_type(dtype).is_err()
        {
            return self.csr()?.dot(x);
        }
        if self.nblocks() == 0 || rows == 0 || cols == 0 {
            return creation::zeros(rows, dtype);
        }
        let xc = contiguous_as(x, dtype)?;
        let y = Array::empty(rows, dtype)?;
        let view = CompressedView {
            data: &self.data,
            indices: &self.indices,
            indptr: &self.indptr,
            shape: self.shape,
            csc: false,
            block: Some(self.blocksize),
        };
        match self.plans.product(view, &xc, &y) {
            Ok(()) => Ok(y),
            Err(Error::LibraryStatus { name, .. })
                if name == "CUSPARSE_STATUS_NOT_SUPPORTED"
                    || name == "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED"
                    || name == "CUSPARSE_STATUS_INVALID_VALUE" =>
            {
                self.csr()?.dot(x)
            }
            Err(e) => Err(e),
        }
    }
}

impl CsrMatrix {
    /// SciPy's `tocsr().tobsr(blocksize)`: the blocks of size `(R, C)`
    /// holding an entry, in block row order with sorted block columns
    /// (duplicates summed first). SciPy picks a block size itself when
    /// none is given (`estimate_blocksize`); here it is named.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let a = gpu_sparse::identity(4, gpu_array::DType::Float64)?;
    /// let b = a.tobsr((2, 2))?;
    /// assert_eq!(b.nblocks(), 2);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// SciPy's "invalid blocksize=(0, 2)", "shape must be multiple of
    /// blocksize"; allocation or launch failures.
    pub fn tobsr(&self, blocksize: (usize, usize)) -> Result<BsrMatrix> {
        let shape = self.shape();
        check_blocksize(shape, blocksize)?;
        let (r, c) = blocksize;
        let (bm, bn) = (shape.0 / r, shape.1 / c);
        let area = r
            .checked_mul(c)
            .ok_or_else(|| Error::Overflow("blocksize too large".into()))?;
        let canonical = self.c.canonical()?;
        let dtype = self.dtype();
        if canonical.nnz() == 0 {
            let index = index_dtype_for(shape, 0);
            return Ok(BsrMatrix::from_parts(
                creation::zeros([0, r, c], dtype)?,
                creation::zeros(0, index)?,
                creation::zeros(bm + 1, index)?,
                shape,
                blocksize,
            ));
        }
        let rows = canonical.major_indices()?.astype(DType::Int64)?;
        let cols = canonical.indices.astype(DType::Int64)?;
        let (ri, ci) = (r as i64, c as i64);
        let key = ufunc::add(
            &ufunc::multiply(&ufunc::floor_divide(&rows, ri)?, bn as i64)?,
            &ufunc::floor_divide(&cols, ci)?,
        )?;
        let u = unique(&key, UniqueOptions::default().inverse(true))?;
        let block_of = u.inverse.expect("asked for");
        let nblocks = u.values.size();
        let total = nblocks
            .checked_mul(area)
            .ok_or_else(|| Error::Overflow("too many block entries".into()))?;
        let within = ufunc::add(
            &ufunc::multiply(&ufunc::remainder(&rows, ri)?, ci)?,
            &ufunc::remainder(&cols, ci)?,
        )?;
        let flat = ufunc::add(&ufunc::multiply(&block_of, area as i64)?, &within)?;
        let values = creation::zeros(total, dtype)?;
        // Canonical entries: distinct positions, one write each.
        put(&values, &flat, &canonical.data, TakeMode::Wrap)?;
        let index = index_dtype_for(shape, total);
        let brow = ufunc::floor_divide(&u.values, bn.max(1) as i64)?;
        let bcol = ufunc::remainder(&u.values, bn.max(1) as i64)?;
        Ok(BsrMatrix::from_parts(
            values.reshape([nblocks as isize, r as isize, c as isize])?,
            bcol.astype(index)?,
            compress(&brow, bm, index)?,
            shape,
            blocksize,
        ))
    }
}

impl SpMatrix for BsrMatrix {
    fn format(&self) -> Format {
        Format::Bsr
    }
    fn shape(&self) -> (usize, usize) {
        self.shape
    }
    fn nnz(&self) -> usize {
        self.data.size()
    }
    fn dtype(&self) -> DType {
        self.data.dtype()
    }
    /// Every entry of every block, zeros included (as SciPy's), block by
    /// block: not canonical.
    fn tocoo(&self) -> Result<CooMatrix> {
        let nb = self.nblocks();
        let (r, c) = self.blocksize;
        let index = index_dtype_for(self.shape, self.data.size());
        if nb == 0 {
            return Ok(CooMatrix::from_parts(
                creation::zeros(0, self.dtype())?,
                creation::zeros(0, index)?,
                creation::zeros(0, index)?,
                self.shape,
                true,
            ));
        }
        let brow = expand(&self.indptr, nb, DType::Int64)?.reshape([nb as isize, 1, 1])?;
        let bcol = self
            .indices
            .astype(DType::Int64)?
            .reshape([nb as isize, 1, 1])?;
        let ii = creation::arange_with(0i64, r as i64, 1i64, Some(DType::Int64))?
            .reshape([1, r as isize, 1])?;
        let jj = creation::arange_with(0i64, c as i64, 1i64, Some(DType::Int64))?
            .reshape([1, 1, c as isize])?;
        // `0 * other` broadcasts each index over the whole block.
        let rows = ufunc::add(
            &ufunc::add(&ufunc::multiply(&brow, r as i64)?, &ii)?,
            &ufunc::multiply(&jj, 0i64)?,
        )?;
        let cols = ufunc::add(
            &ufunc::add(&ufunc::multiply(&bcol, c as i64)?, &jj)?,
            &ufunc::multiply(&ii, 0i64)?,
        )?;
        Ok(CooMatrix::from_parts(
            self.data.reshape([-1isize])?,
            rows.reshape([-1isize])?.astype(index)?,
            cols.reshape([-1isize])?.astype(index)?,
            self.shape,
            false,
        ))
    }
    fn tocsr(&self) -> Result<CsrMatrix> {
        Ok(self.csr()?.clone())
    }
    fn tocsc(&self) -> Result<CscMatrix> {
        self.tocoo()?.tocsc()
    }
    fn toarray(&self) -> Result<Array> {
        self.tocoo()?.toarray()
    }
}

impl LinearOperator for BsrMatrix {
    fn shape(&self) -> (usize, usize) {
        self.shape
    }
    fn dtype(&self) -> DType {
        match self.dtype() {
            d @ (DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128) => d,
            _ => DType::Float64,
        }
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        self.dot(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        self.csr()?.h()?.dot(x)
    }
}
