//! Reductions and the diagonal of compressed matrices, SciPy's semantics:
//! `sum`, `mean`, `max`/`min` (implicit zeros count), `argmax`/`argmin`
//! (flat indices), `diagonal`, `setdiag`, `trace`, `nonzero`,
//! `count_nonzero`.
//!
//! SciPy's `sum(axis=0)` of a matrix is a `1 x n` matrix; Cuprum has no
//! matrix class and returns the 1-D array of length `n` (as SciPy's sparse
//! arrays do). Full reductions return 0-d arrays, with no host round trip.
//!
//! Sums are deterministic: along the compressed axis one thread adds each
//! line in storage order ([`crate::kernels::line_reduce`]); along the
//! other the matrix is first recompressed that way (a stable sort, runs
//! summed in order); full sums use gpu-array's tree reduction, whose order
//! is fixed.

use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, Result, creation, manipulation, ufunc};

use crate::align::gather;
use crate::base::index_dtype_for;
use crate::canonical::{compress, sort_and_sum};
use crate::compressed::{CANONICAL, Compressed, CscMatrix, CsrMatrix};
use crate::kernels::{LineOp, line_reduce};

/// SciPy's keywords of `argmax` and `argmin` (`argmax_with`,
/// `argmin_with`): `axis` (default: the flat index) and `explicit`
/// (default false: implicit zeros count).
///
/// ```
/// use gpu_sparse::ArgOptions;
/// let o = ArgOptions::default().axis(-1).explicit(true);
/// assert_eq!((o.axis, o.explicit), (Some(-1), true));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ArgOptions {
    /// The axis (`-2..=1`), or `None` for the flat index.
    pub axis: Option<isize>,
    /// Stored entries only.
    pub explicit: bool,
}

impl ArgOptions {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_sparse::ArgOptions::default().axis(0).axis, Some(0));
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = Some(axis);
        self
    }

    /// Sets `explicit`.
    ///
    /// ```
    /// assert!(gpu_sparse::ArgOptions::default().explicit(true).explicit);
    /// ```
    #[must_use]
    pub fn explicit(mut self, explicit: bool) -> Self {
        self.explicit = explicit;
        self
    }
}

/// NumPy's accumulation dtype of `sum` (SciPy's `get_sum_dtype`): bool and
/// signed integers in int64, unsigned in uint64, the rest as they are.
fn sum_dtype(dt: DType) -> DType {
    match dt {
        DType::Bool | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => DType::Int64,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => DType::UInt64,
        other => other,
    }
}

/// SciPy's `validateaxis`: `None`, or an axis in `-2..=1` as 0 or 1.
fn check_axis(axis: Option<isize>) -> Result<Option<usize>> {
    match axis {
        None => Ok(None),
        Some(a @ -2..=1) => Ok(Some(a.rem_euclid(2) as usize)),
        Some(_) => Err(Error::Value("axis out of range".into())),
    }
}

fn zero_size() -> Error {
    Error::Value("zero-size array to reduction operation".into())
}

/// A 0-d zero of `dt`.
fn zero_0d(dt: DType) -> Result<Array> {
    creation::zeros([0usize; 0], dt)
}

/// `m * n`, checked (construction made it fit; this keeps it so).
fn size(m: usize, n: usize) -> Result<usize> {
    m.checked_mul(n)
        .ok_or_else(|| Error::Value(format!("shape ({m}, {n}) too large")))
}

/// The number of elements on diagonal `k` of an `m x n` matrix.
fn diagonal_len(m: usize, n: usize, k: isize) -> usize {
    let (m, n, k) = (m as i128, n as i128, k as i128);
    let len = if k >= 0 { m.min(n - k) } else { (m + k).min(n) };
    len.max(0) as usize
}

impl Compressed {
    /// Whether reducing `axis` leaves one value a major line (`axis` 1 of
    /// a CSR matrix, 0 of a CSC one).
    fn per_major(axis: usize, csc: bool) -> bool {
        (axis == 1) != csc
    }

    /// The row and column index of every entry in storage order, int64.
    fn rows_cols(&self, csc: bool) -> Result<(Array, Array)> {
        let major = self.major_indices()?.astype(DType::Int64)?;
        let minor = self.indices.astype(DType::Int64)?;
        Ok(if csc { (minor, major) } else { (major, minor) })
    }

    /// SciPy's `sum(axis)` (see the module docs for the shapes).
    pub(crate) fn sum(&self, axis: Option<isize>, csc: bool) -> Result<Array> {
        let sd = sum_dtype(self.data.dtype());
        let Some(axis) = check_axis(axis)? else {
            let opts = ReduceOptions::default().dtype(sd);
            return gpu_array::math::sum(&self.data, opts);
        };
        let wide = self.with_data(self.data.astype(sd)?);
        let lines = if Self::per_major(axis, csc) {
            wide
        } else {
            wide.swapped()?
        };
        line_reduce(&lines.data, &lines.indptr, LineOp::Sum)
    }

    /// SciPy's `mean(axis)`: float64 for bool and integers, the dtype
    /// otherwise; the sum divided by the count.
    pub(crate) fn mean(&self, axis: Option<isize>, csc: bool) -> Result<Array> {
        let dt = self.data.dtype();
        let inter = if dt.is_integer() || dt == DType::Bool {
            DType::Float64
        } else {
            dt
        };
        let (m, n) = self.shape(csc);
        let count = match check_axis(axis)? {
            None => size(m, n)?,
            Some(0) => m,
            Some(_) => n,
        };
        let sum = self.with_data(self.data.astype(inter)?).sum(axis, csc)?;
        ufunc::true_divide(&sum, count as f64)
    }

    /// SciPy's `max(axis)` (`max`) or `min(axis)`: the extreme of the
    /// summed entries and, where a line is not full, of zero.
    pub(crate) fn extreme(&self, axis: Option<isize>, csc: bool, max: bool) -> Result<Array> {
        let (m, n) = self.shape(csc);
        let dt = self.data.dtype();
        let with_zero = |r: &Array| -> Result<Array> {
            let z = zero_0d(dt)?;
            if max {
                ufunc::maximum(r, &z)
            } else {
                ufunc::minimum(r, &z)
            }
        };
        let Some(axis) = check_axis(axis)? else {
            if m == 0 || n == 0 {
                return Err(zero_size());
            }
            let c = self.canonical()?;
            if c.nnz() == 0 {
                return zero_0d(dt);
            }
            let r = if max {
                gpu_array::stats::amax(&c.data, ())?
            } else {
                gpu_array::stats::amin(&c.data, ())?
            };
            return if c.nnz() < size(m, n)? {
                with_zero(&r)
            } else {
                Ok(r)
            };
        };
        let per_major = Self::per_major(axis, csc);
        let lines = if per_major {
            self.canonical()?
        } else {
            self.swapped()?
        };
        // The length of the reduced axis: the positions of each line.
        if lines.minor == 0 {
            return Err(zero_size());
        }
        let op = if max { LineOp::Max } else { LineOp::Min };
        let r = line_reduce(&lines.data, &lines.indptr, op)?;
        let lengths = gpu_array::math::diff(&lines.indptr.astype(DType::Int64)?, 1, 0, None, None)?;
        let partial = ufunc::less(&lengths, lines.minor as i64)?;
        gpu_array::indexing::where_(&partial, &with_zero(&r)?, &r)
    }

    /// SciPy's `argmax()` (`max`) or `argmin()`: the row-major flat index
    /// of the first extreme element, implicit zeros counting. A NaN wins,
    /// as in NumPy's dense `argmax`.
    pub(crate) fn arg_extreme(&self, csc: bool, max: bool, explicit: bool) -> Result<usize> {
        let (m, n) = self.shape(csc);
        let what = if max { "argmax" } else { "argmin" };
        if m == 0 || n == 0 {
            return Err(Error::Value(format!(
                "Cannot apply {what} to an empty matrix."
            )));
        }
        // Entries in row-major order, summed: the flat index is the key.
        let c = if csc {
            self.swapped()?
        } else {
            self.canonical()?
        };
        let nnz = c.nnz();
        if nnz == 0 {
            if explicit {
                return Err(Error::Value(format!(
                    "Cannot apply {what} to zero matrix when explicit=True."
                )));
            }
            return Ok(0);
        }
        let at = if max {
            gpu_array::sorting::argmax(&c.data, ())?
        } else {
            gpu_array::sorting::argmin(&c.data, ())?
        };
        let at = at.reshape([1isize])?;
        let keys = c.keys()?;
        let flat = usize::try_from(gather(&keys, &at)?.to_vec::<i64>()?[0])
            .map_err(|_| Error::Value("negative flat index".into()))?;
        // The extreme's value as (real, imaginary) parts, compared with
        // zero in NumPy's (lexicographic) order of complex numbers.
        let v = gather(&c.data, &at)?;
        let (re, im) = if v.dtype().is_complex() {
            (
                v.real().to_vec_as::<f64>()?[0],
                v.imag()?.to_vec_as::<f64>()?[0],
            )
        } else {
            (v.to_vec_as::<f64>()?[0], 0.0)
        };
        let beats_zero = if max {
            re > 0.0 || (re == 0.0 && im > 0.0)
        } else {
            re < 0.0 || (re == 0.0 && im < 0.0)
        };
        let is_nan = re.is_nan() || im.is_nan();
        if explicit || beats_zero || is_nan || nnz == size(m, n)? {
            return Ok(flat);
        }
        // Keys are sorted and distinct, so keys[i] == i exactly on a
        // prefix: its length is the first flat index with no entry.
        let ar = creation::arange_with(0i64, nnz as i64, 1i64, Some(DType::Int64))?;
        let prefix = gpu_array::sorting::count_nonzero(&ufunc::equal(&keys, &ar)?, ())?;
        let first_zero = prefix.astype(DType::Int64)?.to_vec::<i64>()?[0] as usize;
        Ok(if re == 0.0 && im == 0.0 {
            first_zero.min(flat)
        } else {
            first_zero
        })
    }

    /// SciPy's `argmax(axis)` (`max`) or `argmin(axis)`: one index a line
    /// along `axis` (int64), implicit zeros counting unless `explicit`
    /// (kernels' `arg_lines`).
    pub(crate) fn arg_extreme_axis(
        &self,
        axis: isize,
        csc: bool,
        max: bool,
        explicit: bool,
    ) -> Result<Array> {
        let what = if max { "argmax" } else { "argmin" };
        let axis = check_axis(Some(axis))?.expect("an axis");
        let (m, n) = self.shape(csc);
        if (axis == 0 && m == 0) || (axis == 1 && n == 0) {
            return Err(Error::Value(format!(
                "Cannot apply {what} along a zero-sized dimension."
            )));
        }
        let lines = if Self::per_major(axis, csc) {
            self.canonical()?
        } else {
            self.swapped()?
        };
        crate::kernels::arg_lines(
            &lines.data,
            &lines.indices,
            &lines.indptr,
            lines.minor,
            max,
            explicit,
        )
    }

    /// SciPy's `diagonal(k)`: the `k`-th diagonal as a dense 1-D array,
    /// duplicates summed.
    pub(crate) fn diagonal(&self, k: isize, csc: bool) -> Result<Array> {
        let (m, n) = self.shape(csc);
        let out = creation::zeros(diagonal_len(m, n, k), self.data.dtype())?;
        if out.size() == 0 {
            return Ok(out);
        }
        let c = self.canonical()?;
        let (rows, cols) = c.rows_cols(csc)?;
        let on = ufunc::equal(&ufunc::subtract(&cols, &rows)?, k as i64)?;
        let idx = gpu_array::indexing::nonzero(&on)?.remove(0);
        if idx.size() > 0 {
            // Position along the diagonal: the row for k >= 0, else the
            // column; distinct after the sum, so the writes do not collide.
            let pos = gather(if k >= 0 { &rows } else { &cols }, &idx)?;
            gpu_array::indexing::put(
                &out,
                &pos,
                &gather(&c.data, &idx)?,
                gpu_array::indexing::TakeMode::Wrap,
            )?;
        }
        Ok(out)
    }

    /// The matrix with diagonal `k` set to `values` (SciPy's `setdiag`):
    /// a 0-d array sets the whole diagonal, a 1-D one its first
    /// `values.size()` elements (values beyond the diagonal ignored).
    /// Set elements are stored even when zero, as SciPy's.
    pub(crate) fn with_diagonal(&self, values: &Array, k: isize, csc: bool) -> Result<Compressed> {
        let (m, n) = self.shape(csc);
        if (k >= 0 && k.unsigned_abs() >= n) || (k < 0 && k.unsigned_abs() >= m) {
            return Err(Error::Value("k exceeds array dimensions".into()));
        }
        let dt = self.data.dtype();
        let len = diagonal_len(m, n, k);
        let vals = match values.ndim() {
            0 => creation::full(len, &values.astype(dt)?, Some(dt))?,
            1 => {
                let count = len.min(values.size());
                crate::base::contiguous_as(
                    &values.get_index(&gpu_array::ix![..count as isize])?,
                    dt,
                )?
            }
            d => {
                return Err(Error::Value(format!(
                    "setdiag values must be a scalar or 1-D, not {d}-D"
                )));
            }
        };
        let count = vals.size() as i64;
        let c = self.canonical()?;
        let (rows, cols) = c.rows_cols(csc)?;
        // Drop the entries the new values replace.
        let on = ufunc::equal(&ufunc::subtract(&cols, &rows)?, k as i64)?;
        let pos = if k >= 0 { &rows } else { &cols };
        let replaced = ufunc::logical_and(&on, &ufunc::less(pos, count)?)?;
        let keep = gpu_array::indexing::nonzero(&ufunc::logical_not(&replaced)?)?.remove(0);
        let i = creation::arange_with(0i64, count, 1i64, Some(DType::Int64))?;
        let new_rows = ufunc::add(&i, (-k).max(0) as i64)?;
        let new_cols = ufunc::add(&i, k.max(0) as i64)?;
        let (new_major, new_minor) = if csc {
            (new_cols, new_rows)
        } else {
            (new_rows, new_cols)
        };
        let (kept_rows, kept_cols) = (gather(&rows, &keep)?, gather(&cols, &keep)?);
        let (kept_major, kept_minor) = if csc {
            (kept_cols, kept_rows)
        } else {
            (kept_rows, kept_cols)
        };
        let major = manipulation::concatenate(&[&kept_major, &new_major], Some(0))?;
        let minor = manipulation::concatenate(&[&kept_minor, &new_minor], Some(0))?;
        let data = manipulation::concatenate(&[&gather(&c.data, &keep)?, &vals], Some(0))?;
        let index = index_dtype_for((m, n), data.size());
        // Keys are distinct: the sort only orders them.
        let s = sort_and_sum(&major, &minor, &data, self.minor, index, false)?;
        let indptr = compress(&s.major, self.major, index)?;
        Ok(Compressed::new_unchecked(
            s.data, s.minor, indptr, self.major, self.minor, CANONICAL,
        ))
    }

    /// SciPy's `nonzero()`: the row and column indices of the stored
    /// entries whose value is not zero, in storage order (duplicates not
    /// summed, as SciPy's).
    pub(crate) fn nonzero_positions(&self, csc: bool) -> Result<(Array, Array)> {
        let keep = gpu_array::indexing::nonzero(&self.data)?.remove(0);
        let major = gather(&self.major_indices()?, &keep)?;
        let minor = gather(&self.indices, &keep)?;
        Ok(if csc { (minor, major) } else { (major, minor) })
    }

    /// SciPy's `count_nonzero()`: nonzero elements after summing
    /// duplicates.
    pub(crate) fn count_nonzero(&self) -> Result<usize> {
        let c = self.canonical()?;
        let n = gpu_array::sorting::count_nonzero(&c.data, ())?;
        Ok(n.astype(DType::Int64)?.to_vec::<i64>()?[0] as usize)
    }
}

macro_rules! reduce_methods {
    ($name:ident, $csc:tt) => {
        impl $name {
            /// SciPy's `sum(axis)`: `None` sums every element (a 0-d
            /// array), axis 0 (or -2) each column (a 1-D array of length
            /// `n`, where SciPy's matrix gives `1 x n`), axis 1 (or -1)
            /// each row. Bool and integers sum in int64 (uint64 unsigned),
            /// as NumPy's; deterministic (module docs).
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [2.0, 3.0]])?)?;")]
            /// let total = a.sum(None)?; // 6, 0-d
            /// let cols = a.sum(Some(0))?; // [3, 3]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// An axis outside `-2..=1` ("axis out of range").
            pub fn sum(&self, axis: Option<isize>) -> Result<Array> {
                self.c.sum(axis, $csc)
            }

            /// SciPy's `mean(axis)`, shaped as [`Self::sum`]: float64 for
            /// bool and integer matrices, the matrix's dtype otherwise.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [2.0, 3.0]])?)?;")]
            /// let rows = a.mean(Some(1))?; // [0.5, 2.5]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::sum`].
            pub fn mean(&self, axis: Option<isize>) -> Result<Array> {
                self.c.mean(axis, $csc)
            }

            /// SciPy's `max(axis)`, shaped as [`Self::sum`]: implicit zeros
            /// count, NaN propagates.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[-1.0, 0.0], [-2.0, -3.0]])?)?;")]
            /// let m = a.max(None)?; // 0: an implicit zero
            /// let rows = a.max(Some(1))?; // [0, -2]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A reduced axis of length zero ("zero-size array to reduction
            /// operation"); complex values along an axis; a bad axis.
            pub fn max(&self, axis: Option<isize>) -> Result<Array> {
                self.c.extreme(axis, $csc, true)
            }

            /// SciPy's `min(axis)`, as [`Self::max`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [2.0, 3.0]])?)?;")]
            /// let cols = a.min(Some(0))?; // [1, 0]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::max`].
            pub fn min(&self, axis: Option<isize>) -> Result<Array> {
                self.c.extreme(axis, $csc, false)
            }

            /// SciPy's `argmax()`: the row-major flat index of the first
            /// largest element, implicit zeros counting (read back to the
            /// host, as SciPy returns a Python int). [`Self::argmax_with`]
            /// takes `axis` and `explicit`.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[-1.0, 0.0], [-2.0, -3.0]])?)?;")]
            /// assert_eq!(a.argmax()?, 1);
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// An empty matrix ("Cannot apply argmax to an empty
            /// matrix."); complex values.
            pub fn argmax(&self) -> Result<usize> {
                self.c.arg_extreme($csc, true, false)
            }

            /// SciPy's `argmax(axis, explicit=...)`: with an axis, the
            /// index of the first largest element of each column (axis 0)
            /// or row (axis 1), int64 (1-D, where SciPy's matrix is
            /// `1 x n` or `m x 1`); without one, a 0-d array of the flat
            /// index. `explicit` counts stored entries only (an empty line
            /// gives 0). Where SciPy 1.17 returns, for `axis=None` and
            /// `explicit`, the entry's position among the stored ones
            /// (contradicting its documentation), Cuprum returns the
            /// documented flat index.
            ///
            /// ```no_run
            /// use gpu_sparse::ArgOptions;
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[-1.0, 0.0], [-2.0, 3.0]])?)?;")]
            /// let per_row = a.argmax_with(&ArgOptions::default().axis(1))?; // [1, 1]
            /// let stored = a.argmax_with(&ArgOptions::default().axis(1).explicit(true))?; // [0, 1]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// SciPy's: an empty matrix, a zero-sized reduced axis
            /// ("Cannot apply argmax along a zero-sized dimension."), no
            /// stored entry with `explicit` and no axis; a bad axis;
            /// complex values.
            pub fn argmax_with(&self, opts: &crate::ArgOptions) -> Result<Array> {
                match opts.axis {
                    Some(axis) => self.c.arg_extreme_axis(axis, $csc, true, opts.explicit),
                    None => {
                        let i = self.c.arg_extreme($csc, true, opts.explicit)?;
                        Array::scalar(i as i64)
                    }
                }
            }

            /// SciPy's `argmin()`, as [`Self::argmax`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [2.0, 3.0]])?)?;")]
            /// assert_eq!(a.argmin()?, 1);
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::argmax`].
            pub fn argmin(&self) -> Result<usize> {
                self.c.arg_extreme($csc, false, false)
            }

            /// SciPy's `argmin(axis, explicit=...)`, as [`Self::argmax_with`].
            ///
            /// ```no_run
            /// use gpu_sparse::ArgOptions;
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [2.0, 3.0]])?)?;")]
            /// let per_col = a.argmin_with(&ArgOptions::default().axis(0))?; // [0, 0]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::argmax_with`].
            pub fn argmin_with(&self, opts: &crate::ArgOptions) -> Result<Array> {
                match opts.axis {
                    Some(axis) => self.c.arg_extreme_axis(axis, $csc, false, opts.explicit),
                    None => {
                        let i = self.c.arg_extreme($csc, false, opts.explicit)?;
                        Array::scalar(i as i64)
                    }
                }
            }

            /// SciPy's `diagonal(k)`: diagonal `k` (above the main one for
            /// `k > 0`) as a dense 1-D array, duplicates summed; empty when
            /// `k` lies outside the matrix.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 5.0], [2.0, 3.0]])?)?;")]
            /// let d = a.diagonal(0)?; // [1, 3]
            /// let up = a.diagonal(1)?; // [5]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn diagonal(&self, k: isize) -> Result<Array> {
                self.c.diagonal(k, $csc)
            }

            /// SciPy's `setdiag(values, k)`, in place: a 0-d `values` sets
            /// all of diagonal `k`, a 1-D one its first `values.size()`
            /// elements (the rest of a longer one ignored), cast to the
            /// matrix's dtype. Set elements are stored even when zero; the
            /// result is canonical.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let mut a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 5.0], [2.0, 3.0]])?)?;")]
            /// a.setdiag(&gpu_array::Array::scalar(7.0f64)?, 0)?; // [[7, 5], [2, 7]]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// `k` outside the matrix ("k exceeds array dimensions");
            /// `values` of more than one dimension.
            pub fn setdiag(&mut self, values: &Array, k: isize) -> Result<()> {
                self.c = self.c.with_diagonal(values, k, $csc)?;
                Ok(())
            }

            /// SciPy's `trace(offset)`: the sum of diagonal `offset`, a 0-d
            /// array (NumPy's sum dtype).
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 5.0], [2.0, 3.0]])?)?;")]
            /// let t = a.trace(0)?; // 4
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn trace(&self, offset: isize) -> Result<Array> {
                gpu_array::math::sum(&self.c.diagonal(offset, $csc)?, ())
            }

            /// SciPy's `nonzero()`: the row and column indices of the
            /// stored entries whose value is not zero, in storage order.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [0.0, 3.0]])?)?;")]
            /// let (rows, cols) = a.nonzero()?; // [0, 1], [0, 1]
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn nonzero(&self) -> Result<(Array, Array)> {
                self.c.nonzero_positions($csc)
            }

            /// SciPy's `count_nonzero()`: the nonzero elements once
            /// duplicates are summed (read back to the host).
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::array([[1.0, 0.0], [0.0, 3.0]])?)?;")]
            /// assert_eq!(a.count_nonzero()?, 2);
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn count_nonzero(&self) -> Result<usize> {
                self.c.count_nonzero()
            }
        }
    };
}

reduce_methods!(CsrMatrix, false);
reduce_methods!(CscMatrix, true);
