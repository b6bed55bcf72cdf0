//! What every format shares: [`Format`], the [`SpMatrix`] trait (SciPy's
//! `spmatrix` base class), the choice of index dtype and the checks of
//! shapes, dtypes and index arrays that construction runs.

use gpu_array::{Array, DType, Error, Result};

use crate::{CooMatrix, CscMatrix, CsrMatrix};

/// A sparse format, as SciPy's `format` attribute names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// Coordinates (`coo`).
    Coo,
    /// Compressed sparse rows (`csr`).
    Csr,
    /// Compressed sparse columns (`csc`).
    Csc,
    /// Diagonals (`dia`).
    Dia,
    /// Block sparse rows (`bsr`).
    Bsr,
}

impl Format {
    /// SciPy's name of the format (and `name.parse::<Format>()` back).
    ///
    /// ```
    /// use gpu_sparse::Format;
    /// assert_eq!(Format::Csr.name(), "csr");
    /// assert_eq!("dia".parse::<Format>()?, Format::Dia);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Format::Coo => "coo",
            Format::Csr => "csr",
            Format::Csc => "csc",
            Format::Dia => "dia",
            Format::Bsr => "bsr",
        }
    }
}

// SciPy's format names parse (`"csr".parse::<Format>()`), with SciPy's
// error for others (`asformat`'s "Format xyz is unknown.").
gpu_array::from_numpy_str! {
    Format, Error,
    else: |s| Error::Value(format!("Format {s} is unknown.")),
    {
        "coo" => Format::Coo,
        "csr" => Format::Csr,
        "csc" => Format::Csc,
        "dia" => Format::Dia,
        "bsr" => Format::Bsr,
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// SciPy's `spmatrix`: what every sparse matrix answers, whatever its
/// format.
///
/// ```no_run
/// use gpu_sparse::{SpMatrix, eye};
/// # fn main() -> gpu_array::Result<()> {
/// let a = eye(3, 3, 0, gpu_array::DType::Float64)?;
/// assert_eq!((a.shape(), a.nnz(), a.format().name()), ((3, 3), 3, "csr"));
/// let dense = a.toarray()?; // the 3 x 3 identity as a dense array
/// # Ok(()) }
/// ```
pub trait SpMatrix {
    /// The format.
    fn format(&self) -> Format;
    /// `(rows, columns)`.
    fn shape(&self) -> (usize, usize);
    /// The number of stored entries (duplicates and explicit zeros
    /// included, as SciPy's `nnz`).
    fn nnz(&self) -> usize;
    /// The dtype of the values.
    fn dtype(&self) -> DType;
    /// The matrix in coordinate format.
    fn tocoo(&self) -> Result<CooMatrix>;
    /// The matrix in compressed sparse row format.
    fn tocsr(&self) -> Result<CsrMatrix>;
    /// The matrix in compressed sparse column format.
    fn tocsc(&self) -> Result<CscMatrix>;
    /// The dense 2-D array (duplicates summed, as SciPy's).
    fn toarray(&self) -> Result<Array>;
    /// SciPy's `todense`: the dense 2-D array (Cuprum has no matrix class).
    fn todense(&self) -> Result<Array> {
        self.toarray()
    }
    /// `ndim`, always 2.
    fn ndim(&self) -> usize {
        2
    }
}

/// SciPy's `issparse` and `isspmatrix`: always true for a Cuprum sparse
/// matrix. Rust's types already say what a value is; these exist so code
/// ported from SciPy reads the same.
///
/// ```
/// # use gpu_sparse::{issparse, Format};
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { issparse(m) }
/// ```
pub fn issparse<M: SpMatrix + ?Sized>(_m: &M) -> bool {
    true
}

/// SciPy's `isspmatrix`, as [`issparse`].
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix(m) }
/// ```
pub fn isspmatrix<M: SpMatrix + ?Sized>(m: &M) -> bool {
    issparse(m)
}

/// SciPy's `isspmatrix_csr`.
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix_csr(m) }
/// ```
pub fn isspmatrix_csr<M: SpMatrix + ?Sized>(m: &M) -> bool {
    m.format() == Format::Csr
}

/// SciPy's `isspmatrix_csc`.
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix_csc(m) }
/// ```
pub fn isspmatrix_csc<M: SpMatrix + ?Sized>(m: &M) -> bool {
    m.format() == Format::Csc
}

/// SciPy's `isspmatrix_coo`.
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix_coo(m) }
/// ```
pub fn isspmatrix_coo<M: SpMatrix + ?Sized>(m: &M) -> bool {
    m.format() == Format::Coo
}

/// SciPy's `isspmatrix_dia`.
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix_dia(m) }
/// ```
pub fn isspmatrix_dia<M: SpMatrix + ?Sized>(m: &M) -> bool {
    m.format() == Format::Dia
}

/// SciPy's `isspmatrix_bsr`.
///
/// ```
/// fn check<M: gpu_sparse::SpMatrix>(m: &M) -> bool { gpu_sparse::isspmatrix_bsr(m) }
/// ```
pub fn isspmatrix_bsr<M: SpMatrix + ?Sized>(m: &M) -> bool {
    m.format() == Format::Bsr
}

/// The index dtype SciPy's `get_index_dtype` picks: int32 while every
/// index and count (`max_value`) fits, int64 beyond.
///
/// ```
/// use gpu_array::DType;
/// assert_eq!(gpu_sparse::index_dtype(1000), DType::Int32);
/// assert_eq!(gpu_sparse::index_dtype(1 << 31), DType::Int64);
/// ```
pub fn index_dtype(max_value: usize) -> DType {
    if max_value <= i32::MAX as usize {
        DType::Int32
    } else {
        DType::Int64
    }
}

/// The index dtype for a matrix of `shape` holding `nnz` entries.
pub(crate) fn index_dtype_for(shape: (usize, usize), nnz: usize) -> DType {
    index_dtype(shape.0.max(shape.1).max(nnz))
}

/// Checks a shape for what the index arithmetic needs: each side and the
/// number of elements fit `i64`.
pub(crate) fn check_shape(shape: (usize, usize)) -> Result<()> {
    let fits = |v: usize| i64::try_from(v).is_ok();
    match shape.0.checked_mul(shape.1) {
        Some(size) if fits(shape.0) && fits(shape.1) && fits(size) => Ok(()),
        _ => Err(Error::Value(format!(
            "invalid shape ({}, {}): too large for 64-bit indices",
            shape.0, shape.1
        ))),
    }
}

/// The value dtypes a sparse matrix holds: bool, the integers and the
/// inexact dtypes but float16/bfloat16 (SciPy's `supported_dtypes`).
pub(crate) fn check_value_dtype(dtype: DType) -> Result<()> {
    if matches!(dtype, DType::Float16 | DType::BFloat16) {
        return Err(Error::DType(format!(
            "scipy.sparse does not support dtype {dtype}. The only supported types are: \
             bool, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, \
             float64, complex64, complex128."
        )));
    }
    Ok(())
}

/// Checks that `a` is a 1-D array (`what` names it in the error).
pub(crate) fn check_1d(a: &Array, what: &str) -> Result<()> {
    if a.ndim() != 1 {
        return Err(Error::Value(format!(
            "{what} must be 1-D, not {}-D",
            a.ndim()
        )));
    }
    Ok(())
}

/// The messages of a failed index check, in the words of SciPy's
/// `check_format` for the format at hand.
pub(crate) struct IndexMessages {
    /// An index at or beyond the bound.
    pub too_large: String,
    /// A negative index.
    pub negative: String,
}

impl IndexMessages {
    /// COO's: "row index exceeds matrix dimensions", "negative row index
    /// found".
    pub(crate) fn coo(axis: &str) -> IndexMessages {
        IndexMessages {
            too_large: format!("{axis} index exceeds matrix dimensions"),
            negative: format!("negative {axis} index found"),
        }
    }

    /// CSR's and CSC's: "column index values must be < 5", "column index
    /// values must be >= 0".
    pub(crate) fn compressed(axis: &str, bound: usize) -> IndexMessages {
        IndexMessages {
            too_large: format!("{axis} index values must be < {bound}"),
            negative: format!("{axis} index values must be >= 0"),
        }
    }
}

/// `a` as a contiguous 1-D array of integer dtype `dtype`, checked: an
/// integer dtype on input (`what` names it), every value in `0..bound`.
/// One device reduction and a host read of its two results.
pub(crate) fn checked_indices(
    a: &Array,
    dtype: DType,
    bound: usize,
    what: &str,
    msg: &IndexMessages,
) -> Result<Array> {
    check_1d(a, what)?;
    if !a.dtype().is_integer() {
        return Err(Error::DType(format!(
            "{what} must be an integer array, not {}",
            a.dtype()
        )));
    }
    if a.size() > 0 {
        let (lo, hi) = min_max_i64(a)?;
        if hi >= 0 && hi as u64 >= bound as u64 {
            return Err(Error::Value(msg.too_large.clone()));
        }
        if lo < 0 {
            return Err(Error::Value(msg.negative.clone()));
        }
    }
    contiguous_as(a, dtype)
}

/// The smallest and the largest value of a non-empty integer array, on
/// the host.
pub(crate) fn min_max_i64(a: &Array) -> Result<(i64, i64)> {
    let wide = a.astype(DType::Int64)?;
    let lo = gpu_array::stats::amin(&wide, ())?;
    let hi = gpu_array::stats::amax(&wide, ())?;
    let both = gpu_array::manipulation::stack(&[&lo, &hi], 0)?;
    let v = both.to_vec::<i64>()?;
    Ok((v[0], v[1]))
}

/// `a` as a C-contiguous array of `dtype` (a copy only when needed).
pub(crate) fn contiguous_as(a: &Array, dtype: DType) -> Result<Array> {
    let out = if a.dtype() == dtype {
        a.clone()
    } else {
        a.astype(dtype)?
    };
    if out.is_c_contiguous() {
        Ok(out)
    } else {
        out.copy()
    }
}
