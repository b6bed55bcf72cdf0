//! [`CsrMatrix`] and [`CscMatrix`]: SciPy's `csr_matrix` and
//! `csc_matrix`, one implementation ([`Compressed`]) for both.
//!
//! A compressed matrix stores, along its major axis (rows for CSR, columns
//! for CSC), an index pointer `indptr` of `major + 1` offsets; the entries
//! of major line `r` are `indices[indptr[r]..indptr[r + 1]]` (their minor
//! index) and the same slice of `data`. A CSC matrix of shape `(m, n)` is
//! exactly the CSR arrays of its `(n, m)` transpose, so the transposes
//! share the arrays and cost nothing.

use std::sync::atomic::{AtomicU8, Ordering};

use gpu_array::indexing::{TakeMode, nonzero, take};
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::CooMatrix;
use crate::base::{
    Format, SpMatrix, check_1d, check_shape, check_value_dtype, checked_indices, contiguous_as,
    index_dtype_for,
};
use crate::canonical::{compress, expand, sort_and_sum};
use crate::coo::conj_values;
use crate::cusparse::{CompressedView, PlanCache};

/// What is known of a matrix's index order, computed on first need.
pub(crate) const UNKNOWN: u8 = 0;
const UNSORTED: u8 = 1;
/// Sorted within each line, duplicates possible.
pub(crate) const SORTED: u8 = 2;
/// Sorted, no duplicates (SciPy's canonical format).
pub(crate) const CANONICAL: u8 = 3;

/// The arrays and caches of a compressed matrix along its major axis:
/// `major` lines of `minor` positions each.
#[derive(Debug)]
pub(crate) struct Compressed {
    pub data: Array,
    pub indices: Array,
    pub indptr: Array,
    pub major: usize,
    pub minor: usize,
    order: AtomicU8,
    pub(crate) plans: PlanCache,
}

impl Clone for Compressed {
    fn clone(&self) -> Self {
        Compressed::new_unchecked(
            self.data.clone(),
            self.indices.clone(),
            self.indptr.clone(),
            self.major,
            self.minor,
            self.order.load(Ordering::Relaxed),
        )
    }
}

/// The names of the axes in SciPy's messages.
fn axis_names(csc: bool) -> (&'static str, &'static str) {
    if csc {
        ("column", "row")
    } else {
        ("row", "column")
    }
}

impl Compressed {
    pub(crate) fn new_unchecked(
        data: Array,
        indices: Array,
        indptr: Array,
        major: usize,
        minor: usize,
        order: u8,
    ) -> Compressed {
        Compressed {
            data,
            indices,
            indptr,
            major,
            minor,
            order: AtomicU8::new(order),
            plans: PlanCache::default(),
        }
    }

    /// Checked construction from SciPy's `(data, indices, indptr)`
    /// (module docs), as `check_format` does it with the index checks
    /// always on: lengths, a non-decreasing index pointer from 0 to at
    /// most the entries given (SciPy keeps only `indptr[-1]` of them), and
    /// every minor index in range. Two host reads.
    pub(crate) fn checked(
        data: &Array,
        indices: &Array,
        indptr: &Array,
        major: usize,
        minor: usize,
        csc: bool,
    ) -> Result<Compressed> {
        check_1d(data, "data")?;
        check_1d(indices, "indices")?;
        check_1d(indptr, "indptr")?;
        check_value_dtype(data.dtype())?;
        if !indptr.dtype().is_integer() || !indices.dtype().is_integer() {
            return Err(Error::DType(format!(
                "indptr and indices must be integer arrays, not {} and {}",
                indptr.dtype(),
                indices.dtype()
            )));
        }
        if indptr.size() != major + 1 {
            return Err(Error::Value(format!(
                "index pointer size {} should be {}",
                indptr.size(),
                major + 1
            )));
        }
        if indices.size() != data.size() {
            return Err(Error::Value(
                "indices and data should have the same size".into(),
            ));
        }
        let ends = indptr.astype(DType::Int64)?;
        let steps = gpu_array::math::diff(&ends, 1, 0, None, None)?;
        let first = ends.get_index(&gpu_array::ix![0..1])?;
        let last = ends.get_index(&gpu_array::ix![-1..])?;
        let low = if steps.size() > 0 {
            gpu_array::stats::amin(&steps, ())?.reshape([1isize])?
        } else {
            gpu_array::creation::zeros(1, DType::Int64)?
        };
        let v = gpu_array::manipulation::concatenate(&[&first, &last, &low], Some(0))?
            .to_vec::<i64>()?;
        let (first, last, low) = (v[0], v[1], v[2]);
        if first != 0 {
            return Err(Error::Value("index pointer should start with 0".into()));
        }
        if last < 0 || last as u64 > indices.size() as u64 {
            return Err(Error::Value(
                "Last value of index pointer should be less than the size of index and data arrays"
                    .into(),
            ));
        }
        if low < 0 {
            return Err(Error::Value(
                "index pointer values must form a non-decreasing sequence".into(),
            ));
        }
        let nnz = last as usize;
        let (data, indices) = if nnz < data.size() {
            (
                data.get_index(&gpu_array::ix![..nnz as isize])?,
                indices.get_index(&gpu_array::ix![..nnz as isize])?,
            )
        } else {
            (data.clone(), indices.clone())
        };
        let shape = if csc { (minor, major) } else { (major, minor) };
        check_shape(shape)?;
        let index = index_dtype_for(shape, nnz);
        let (_, minor_name) = axis_names(csc);
        let msg = crate::base::IndexMessages::compressed(minor_name, minor);
        let indices = checked_indices(&indices, index, minor, "indices", &msg)?;
        let indptr = contiguous_as(indptr, index)?;
        Ok(Compressed::new_unchecked(
            contiguous_as(&data, data.dtype())?,
            indices,
            indptr,
            major,
            minor,
            UNKNOWN,
        ))
    }

    pub(crate) fn nnz(&self) -> usize {
        self.data.size()
    }

    pub(crate) fn index(&self) -> DType {
        self.indices.dtype()
    }

    /// The major index of every entry.
    pub(crate) fn major_indices(&self) -> Result<Array> {
        expand(&self.indptr, self.nnz(), self.index())
    }

    /// Computes (once) whether the indices are sorted within each line,
    /// and whether duplicates occur: one pass and one host read.
    pub(crate) fn order(&self) -> Result<u8> {
        let known = self.order.load(Ordering::Relaxed);
        if known != UNKNOWN {
            return Ok(known);
        }
        let state = if self.nnz() < 2 {
            CANONICAL
        } else {
            let lines = self.major_indices()?;
            let same = ufunc::equal(
                &lines.get_index(&gpu_array::ix![1..])?,
                &lines.get_index(&gpu_array::ix![..-1])?,
            )?;
            let (next, prev) = (
                self.indices.get_index(&gpu_array::ix![1..])?,
                self.indices.get_index(&gpu_array::ix![..-1])?,
            );
            // Within a line: a step down is unsorted, a repeat a duplicate.
            let down = ufunc::logical_and(&same, &ufunc::less(&next, &prev)?)?;
            let repeat = ufunc::logical_and(&same, &ufunc::equal(&next, &prev)?)?;
            let flags = gpu_array::manipulation::stack(
                &[
                    &gpu_array::logic::any(&down, ())?,
                    &gpu_array::logic::any(&repeat, ())?,
                ],
                0,
            )?
            .to_vec::<bool>()?;
            match (flags[0], flags[1]) {
                (true, _) => UNSORTED,
                (false, true) => SORTED,
                (false, false) => CANONICAL,
            }
        };
        self.order.store(state, Ordering::Relaxed);
        Ok(state)
    }

    /// Sorted by (major, minor) with duplicates summed.
    pub(crate) fn canonical(&self) -> Result<Compressed> {
        let state = self.order()?;
        if state == CANONICAL {
            return Ok(self.clone());
        }
        let s = sort_and_sum(
            &self.major_indices()?,
            &self.indices,
            &self.data,
            self.minor,
            self.index(),
            state == SORTED,
        )?;
        let indptr = compress(&s.major, self.major, self.index())?;
        Ok(Compressed::new_unchecked(
            s.data, s.minor, indptr, self.major, self.minor, CANONICAL,
        ))
    }

    /// Sorts the indices within each line, keeping duplicates (a stable
    /// sort, so duplicates keep their order).
    fn sorted_indices(&self) -> Result<Compressed> {
        let state = self.order()?;
        if state >= SORTED {
            return Ok(self.clone());
        }
        let lines = self.major_indices()?.astype(DType::Int64)?;
        let key = ufunc::add(
            &ufunc::multiply(&lines, self.minor as i64)?,
            &self.indices.astype(DType::Int64)?,
        )?;
        let perm = gpu_array::sorting::argsort(&key, Some(0))?;
        let indices = take(&self.indices, &perm, Some(0), TakeMode::Wrap)?;
        let data = take(&self.data, &perm, Some(0), TakeMode::Wrap)?;
        Ok(Compressed::new_unchecked(
            data,
            indices,
            self.indptr.clone(),
            self.major,
            self.minor,
            SORTED,
        ))
    }

    pub(crate) fn without_zeros(&self) -> Result<Compressed> {
        let keep = nonzero(&self.data)?.remove(0);
        if keep.size() == self.nnz() {
            return Ok(self.clone());
        }
        let lines = take(&self.major_indices()?, &keep, Some(0), TakeMode::Wrap)?;
        let indptr = compress(&lines, self.major, self.index())?;
        let state = match self.order.load(Ordering::Relaxed) {
            // Removing entries keeps an order; it can remove duplicates
            // too, which is left to be found.
            CANONICAL => CANONICAL,
            SORTED => UNKNOWN,
            s => s,
        };
        Ok(Compressed::new_unchecked(
            take(&self.data, &keep, Some(0), TakeMode::Wrap)?,
            take(&self.indices, &keep, Some(0), TakeMode::Wrap)?,
            indptr,
            self.major,
            self.minor,
            state,
        ))
    }

    /// The entries as (major, minor, data) triplets in storage order.
    pub(crate) fn triplets(&self) -> Result<(Array, Array, Array)> {
        Ok((
            self.major_indices()?,
            self.indices.clone(),
            self.data.clone(),
        ))
    }

    /// The same matrix compressed along the other axis.
    pub(crate) fn swapped(&self) -> Result<Compressed> {
        let (major, minor, data) = self.triplets()?;
        let s = sort_and_sum(&minor, &major, &data, self.major, self.index(), false)?;
        let indptr = compress(&s.major, self.minor, self.index())?;
        Ok(Compressed::new_unchecked(
            s.data, s.minor, indptr, self.minor, self.major, CANONICAL,
        ))
    }

    /// What is known of the index order, without computing it.
    pub(crate) fn known_order(&self) -> u8 {
        self.order.load(Ordering::Relaxed)
    }

    /// The shape of the matrix these arrays hold, CSC (`csc`) or CSR.
    pub(crate) fn shape(&self, csc: bool) -> (usize, usize) {
        if csc {
            (self.minor, self.major)
        } else {
            (self.major, self.minor)
        }
    }

    pub(crate) fn with_data(&self, data: Array) -> Compressed {
        Compressed::new_unchecked(
            data,
            self.indices.clone(),
            self.indptr.clone(),
            self.major,
            self.minor,
            self.order.load(Ordering::Relaxed),
        )
    }

    fn deep_copy(&self) -> Result<Compressed> {
        Ok(Compressed::new_unchecked(
            self.data.copy()?,
            self.indices.copy()?,
            self.indptr.copy()?,
            self.major,
            self.minor,
            self.order.load(Ordering::Relaxed),
        ))
    }

    fn view(&self, csc: bool) -> CompressedView<'_> {
        CompressedView {
            data: &self.data,
            indices: &self.indices,
            indptr: &self.indptr,
            shape: if csc {
                (self.minor, self.major)
            } else {
                (self.major, self.minor)
            },
            csc,
            block: None,
        }
    }
}

/// A matrix of any format brought to `Self`'s (SciPy's
/// `self.__class__(other)`), for the operations that pair two matrices:
/// free when it already is.
pub(crate) trait FromSparse: Sized {
    fn from_sparse<M: SpMatrix + ?Sized>(m: &M) -> Result<Self>;
}

impl FromSparse for CsrMatrix {
    fn from_sparse<M: SpMatrix + ?Sized>(m: &M) -> Result<CsrMatrix> {
        m.tocsr()
    }
}

impl FromSparse for CscMatrix {
    fn from_sparse<M: SpMatrix + ?Sized>(m: &M) -> Result<CscMatrix> {
        m.tocsc()
    }
}

macro_rules! compressed_matrix {
    ($(#[$doc:meta])* $name:ident, $other:ident, $csc:tt, $format:expr, $scipy:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        pub struct $name {
            pub(crate) c: Compressed,
        }

        impl $name {
            #[doc = concat!("SciPy's `", $scipy, "((data, indices, indptr), shape=shape)`, checked")]
            /// as SciPy's `check_format` with its full checks: 1-D arrays,
            /// `indptr` of one more than the lines of the compressed axis,
            /// starting at 0, non-decreasing, ending at most at the
            /// entries given (the entries beyond are dropped, as SciPy's
            /// `prune`), every index within the other axis. The index
            /// arrays become int32 while the shape and entry count allow
            /// (int64 beyond), copied only when their dtype changes or
            /// they are not contiguous.
            ///
            /// ```no_run
            /// use gpu_array::Array;
            /// # fn main() -> gpu_array::Result<()> {
            /// let data = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
            /// let indices = Array::from_slice(&[0i32, 2, 1], &[3])?;
            /// let indptr = Array::from_slice(&[0i32, 2, 3], &[3])?;
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::new(&data, &indices, &indptr, (2, 3))?;")]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// SciPy's messages for each failed check; an unsupported dtype.
            pub fn new(data: &Array, indices: &Array, indptr: &Array, shape: (usize, usize)) -> Result<$name> {
                let (major, minor) = if $csc { (shape.1, shape.0) } else { shape };
                Ok($name {
                    c: Compressed::checked(data, indices, indptr, major, minor, $csc)?,
                })
            }

            /// A matrix from checked parts, known canonical or not.
            pub(crate) fn from_parts(data: Array, indices: Array, indptr: Array, shape: (usize, usize), canonical: bool) -> $name {
                let (major, minor) = if $csc { (shape.1, shape.0) } else { shape };
                let order = if canonical { CANONICAL } else { UNKNOWN };
                $name {
                    c: Compressed::new_unchecked(data, indices, indptr, major, minor, order),
                }
            }

            #[doc = concat!("SciPy's `", $scipy, "(dense)`: the nonzero entries of a 2-D array.")]
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            /// let d = gpu_array::creation::eye(4, None, 1, gpu_array::DType::Float32)?;
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&d)?; // 3 entries")]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`CooMatrix::from_dense`].
            pub fn from_dense(a: &Array) -> Result<$name> {
                let coo = CooMatrix::from_dense(a)?;
                Ok($name {
                    c: if $csc { coo.tocsc()?.c } else { coo.tocsr()?.c },
                })
            }

            /// The values (SciPy's `data`).
            pub fn data(&self) -> &Array {
                &self.c.data
            }

            /// The minor indices of the entries (SciPy's `indices`).
            pub fn indices(&self) -> &Array {
                &self.c.indices
            }

            /// The index pointer (SciPy's `indptr`).
            pub fn indptr(&self) -> &Array {
                &self.c.indptr
            }

            /// The matrix with its index arrays in `dtype` (int32 or int64),
            /// sharing the values: int64 for products whose indices must be
            /// 64-bit, int32 to halve the index traffic where they fit.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(3, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let wide = a.with_index_dtype(gpu_array::DType::Int64)?;
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A dtype other than int32 and int64; int32 for a matrix whose
            /// shape or entry count needs int64.
            pub fn with_index_dtype(&self, dtype: DType) -> Result<$name> {
                let need = index_dtype_for(self.shape(), self.nnz());
                if !matches!(dtype, DType::Int32 | DType::Int64) || (dtype == DType::Int32 && need == DType::Int64) {
                    return Err(Error::Value(format!(
                        "index dtype {dtype} cannot index a matrix of shape {:?} with {} entries",
                        self.shape(),
                        self.nnz()
                    )));
                }
                let c = &self.c;
                Ok($name {
                    c: Compressed::new_unchecked(
                        c.data.clone(),
                        c.indices.astype(dtype)?,
                        c.indptr.astype(dtype)?,
                        c.major,
                        c.minor,
                        c.order.load(Ordering::Relaxed),
                    ),
                })
            }

            /// Whether the indices are sorted within each line (SciPy's
            /// `has_sorted_indices`; checked on the device the first time).
            ///
            /// # Errors
            /// Launch failures.
            pub fn has_sorted_indices(&self) -> Result<bool> {
                Ok(self.c.order()? >= SORTED)
            }

            /// Whether the indices are sorted within each line with no
            /// duplicates (SciPy's `has_canonical_format`).
            ///
            /// # Errors
            /// Launch failures.
            pub fn has_canonical_format(&self) -> Result<bool> {
                Ok(self.c.order()? == CANONICAL)
            }

            /// Sorts the indices within each line, in place (SciPy's
            /// `sort_indices`).
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn sort_indices(&mut self) -> Result<()> {
                self.c = self.c.sorted_indices()?;
                Ok(())
            }

            /// Sorts the indices and sums duplicates, in place (SciPy's
            /// `sum_duplicates`; deterministic sums, see the crate docs).
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn sum_duplicates(&mut self) -> Result<()> {
                self.c = self.c.canonical()?;
                Ok(())
            }

            /// Removes the entries whose value is zero, in place (SciPy's
            /// `eliminate_zeros`).
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn eliminate_zeros(&mut self) -> Result<()> {
                self.c = self.c.without_zeros()?;
                Ok(())
            }

            /// A deep copy (SciPy's `copy`).
            ///
            /// # Errors
            /// Allocation failures.
            pub fn copy(&self) -> Result<$name> {
                Ok($name { c: self.c.deep_copy()? })
            }

            /// The values cast to `dtype` (SciPy's `astype`).
            ///
            /// # Errors
            /// An unsupported dtype.
            pub fn astype(&self, dtype: DType) -> Result<$name> {
                check_value_dtype(dtype)?;
                Ok($name { c: self.c.with_data(self.c.data.astype(dtype)?) })
            }

            /// The complex conjugate (SciPy's `conj`).
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn conj(&self) -> Result<$name> {
                Ok($name { c: self.c.with_data(conj_values(&self.c.data)?) })
            }

            #[doc = concat!("The transpose (SciPy's `transpose`/`T`): a [`", stringify!($other), "`]")]
            /// sharing these arrays, no copy.
            pub fn transpose(&self) -> $other {
                $other { c: self.c.clone() }
            }

            /// The conjugate transpose (SciPy's `H`/`getH`).
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn h(&self) -> Result<$other> {
                Ok(self.conj()?.transpose())
            }

            /// `self @ x` for a dense vector (1-D, SpMV) or matrix (2-D,
            /// SpMM) through cuSPARSE, the result in the promoted dtype of
            /// both (float32, float64, complex64 or complex128). The
            /// descriptor, the work buffer and cuSPARSE's preprocessing are
            /// cached on the matrix per stream, so a repeated product pays
            /// only its kernels. Bool, integer and 16-bit float products
            /// (which cuSPARSE does not take) run one thread an output
            /// element over the CSR form, in storage order (NumPy's
            /// wrapping integers, bool ORs of ANDs).
            ///
            /// ```no_run
            /// use gpu_array::{Array, DType};
            /// use gpu_sparse::SpMatrix;
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(3, None, 0, DType::Float64)?)?;")]
            /// let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
            /// let y = a.dot(&x)?; // [1, 2, 3]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A shape mismatch (SciPy's "dimension mismatch"), arrays on
            /// another device.
            pub fn dot(&self, x: &Array) -> Result<Array> {
                let dtype = gpu_array::dtype::promote_types(self.c.data.dtype(), x.dtype());
                if crate::products::cusparse_takes(dtype) {
                    return crate::products::dense_product(self.c.view($csc), &self.c.plans, x);
                }
                let lines = if $csc { self.c.swapped()? } else { self.c.clone() };
                let (rows, cols) = self.c.shape($csc);
                crate::products::direct_product(
                    (&lines.data, &lines.indices, &lines.indptr),
                    (rows, cols),
                    x,
                )
            }

            /// `x @ self` for a dense `x` (SciPy's `x @ A`, `A.__rmatmul__`):
            /// `A^T x` for a 1-D `x`, `(A^T x^T)^T` for a 2-D one, through the
            /// transpose, which shares this matrix's arrays.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 2.0], [0.0, 3.0]])?)?;")]
            /// let y = a.rdot(&gpu_array::creation::array([1.0, 1.0])?)?; // [1, 5]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::dot`] ("dimension mismatch" when `x`'s last axis
            /// is not the matrix's row count).
            pub fn rdot(&self, x: &Array) -> Result<Array> {
                let t = self.transpose();
                match x.ndim() {
                    1 => t.dot(x),
                    2 => {
                        let xt = x.transpose(None)?.copy()?;
                        t.dot(&xt)?.transpose(None)?.copy()
                    }
                    _ => Err(Error::Value("dimension mismatch".into())),
                }
            }

            /// `self @ other` for any sparse `other` (SciPy's `A @ B`, `A.dot(B)`
            /// with a sparse `B`): a CSR matrix in the promoted dtype, from
            /// cuSPARSE's SpGEMM (deterministic). Both operands go through
            /// CSR with duplicates summed; the result's entry count is read
            /// back to size it (one synchronisation).
            ///
            /// ```no_run
            /// use gpu_sparse::SpMatrix;
            /// # fn main() -> gpu_array::Result<()> {
            /// let a = gpu_sparse::eye(3, 3, 1, gpu_array::DType::Float64)?;
            /// let a2 = a.matmul_sparse(&a)?; // ones on the second superdiagonal
            /// assert_eq!(a2.nnz(), 1);
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A shape mismatch ("dimension mismatch"), a dtype cuSPARSE does
            /// not take, a matrix whose indices need int64 (SpGEMM takes
            /// int32 only).
            pub fn matmul_sparse(&self, other: &dyn SpMatrix) -> Result<CsrMatrix> {
                crate::products::sparse_product(&self.tocsr()?, &other.tocsr()?)
            }
        }

        impl $name {
            /// `(rows, columns)` (as [`SpMatrix::shape`]; these four are
            /// inherent too, so they need no import and do not clash with
            /// [`crate::linalg::LinearOperator`]'s).
            pub fn shape(&self) -> (usize, usize) {
                if $csc { (self.c.minor, self.c.major) } else { (self.c.major, self.c.minor) }
            }
            /// The stored entries (SciPy's `nnz`).
            pub fn nnz(&self) -> usize {
                self.c.nnz()
            }
            /// The dtype of the values.
            pub fn dtype(&self) -> DType {
                self.c.data.dtype()
            }
            /// The format.
            pub fn format(&self) -> Format {
                $format
            }
        }

        impl SpMatrix for $name {
            fn format(&self) -> Format {
                $name::format(self)
            }
            fn shape(&self) -> (usize, usize) {
                $name::shape(self)
            }
            fn nnz(&self) -> usize {
                $name::nnz(self)
            }
            fn dtype(&self) -> DType {
                $name::dtype(self)
            }
            fn tocoo(&self) -> Result<CooMatrix> {
                let (major, minor, data) = self.c.triplets()?;
                let canonical = !$csc && self.c.order.load(Ordering::Relaxed) == CANONICAL;
                Ok(if $csc {
                    CooMatrix::from_parts(data, minor, major, self.shape(), false)
                } else {
                    CooMatrix::from_parts(data, major, minor, self.shape(), canonical)
                })
            }
            fn toarray(&self) -> Result<Array> {
                self.tocoo()?.toarray()
            }
            compressed_matrix!(@convert $csc);
        }
    };
    (@convert false) => {
        fn tocsr(&self) -> Result<CsrMatrix> {
            Ok(self.clone())
        }
        fn tocsc(&self) -> Result<CscMatrix> {
            Ok(CscMatrix { c: self.c.swapped()? })
        }
    };
    (@convert true) => {
        fn tocsr(&self) -> Result<CsrMatrix> {
            Ok(CsrMatrix { c: self.c.swapped()? })
        }
        fn tocsc(&self) -> Result<CscMatrix> {
            Ok(self.clone())
        }
    };
}

compressed_matrix!(
    /// A sparse matrix in compressed sparse row format (SciPy's
    /// `csr_matrix`): row `r`'s entries are `indices[indptr[r]..indptr[r +
    /// 1]]` (columns) and the same slice of `data`.
    ///
    /// ```no_run
    /// use gpu_sparse::{CsrMatrix, SpMatrix};
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::array([[1.0, 0.0], [0.0, 2.0]])?;
    /// let a = CsrMatrix::from_dense(&d)?;
    /// assert_eq!((a.shape(), a.nnz()), ((2, 2), 2));
    /// # Ok(()) }
    /// ```
    CsrMatrix, CscMatrix, false, Format::Csr, "csr_matrix"
);

compressed_matrix!(
    /// A sparse matrix in compressed sparse column format (SciPy's
    /// `csc_matrix`): the entries of column `c` are
    /// `indices[indptr[c]..indptr[c + 1]]` (rows) and the same slice of
    /// `data`; the CSR arrays of the transpose.
    ///
    /// ```no_run
    /// use gpu_sparse::{CscMatrix, SpMatrix};
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_array::creation::array([[1.0, 0.0], [3.0, 2.0]])?;
    /// let a = CscMatrix::from_dense(&d)?;
    /// assert_eq!(a.indptr().to_vec::<i32>()?, vec![0, 2, 3]);
    /// # Ok(()) }
    /// ```
    CscMatrix, CsrMatrix, true, Format::Csc, "csc_matrix"
);

impl CsrMatrix {
    /// The cuSPARSE view of the arrays (crate-internal).
    pub(crate) fn compressed_view(&self) -> CompressedView<'_> {
        self.c.view(false)
    }
}
