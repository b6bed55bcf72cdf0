//! Indexing of compressed matrices, SciPy's `A[i, j]`, `A[a:b:s]`,
//! `A[:, a:b:s]`, `A[idx]`, `A[:, idx]` and `A[mask]`, as device index
//! arithmetic with a host read of a few scalars at most.
//!
//! Along the compressed axis (rows of CSR, columns of CSC) lines are
//! gathered whole: the new index pointer is the cumulative sum of the
//! chosen lines' lengths, and each output entry finds its line by binary
//! search in it (`searchsorted`) and copies from the same offset in the
//! source line; one pass over the output, no loop over lines on the host.
//! Along the other axis entries are filtered by their minor index (slices)
//! or the matrix is recompressed the other way first (integer arrays).

use std::ops::Range;

use gpu_array::indexing::nonzero;
use gpu_array::{Array, DType, Error, Result, creation, manipulation, ufunc};

use crate::align::gather;
use crate::base::{check_1d, index_dtype_for, min_max_i64};
use crate::canonical::{compress, expand};
use crate::compressed::{CANONICAL, Compressed, CscMatrix, CsrMatrix, SORTED, UNKNOWN};

/// `range` clamped to `0..dim`, as a Python slice is.
fn clamp(range: &Range<usize>, dim: usize) -> (usize, usize) {
    let start = range.start.min(dim);
    (start, range.end.min(dim).max(start))
}

/// The order a selection of whole lines or of a monotone part of each
/// line keeps: sortedness survives, a fresh duplicate-free state must be
/// found again only where it was unsorted.
fn kept_order(order: u8) -> u8 {
    match order {
        CANONICAL => CANONICAL,
        SORTED => SORTED,
        _ => UNKNOWN,
    }
}

/// `idx` (1-D integers, negative counting from the end) as int64 in
/// `0..dim`, checked with SciPy's message ("index (5) out of range").
fn normalized(idx: &Array, dim: usize) -> Result<Array> {
    check_1d(idx, "index")?;
    if !idx.dtype().is_integer() {
        return Err(Error::Index(format!(
            "arrays used as indices must be of integer (or boolean) type, not {}",
            idx.dtype()
        )));
    }
    let idx = idx.astype(DType::Int64)?;
    if idx.size() == 0 {
        return Ok(idx);
    }
    let (lo, hi) = min_max_i64(&idx)?;
    if hi >= 0 && hi as u64 >= dim as u64 {
        return Err(Error::Index(format!("index ({hi}) out of range")));
    }
    if lo < 0 && lo.unsigned_abs() > dim as u64 {
        return Err(Error::Index(format!("index ({lo}) out of range")));
    }
    if lo >= 0 {
        return Ok(idx);
    }
    let wrapped = ufunc::add(&idx, dim as i64)?;
    gpu_array::indexing::where_(&ufunc::less(&idx, 0i64)?, &wrapped, &idx)
}

/// A single index (negative counting from the end) checked against `dim`
/// with SciPy's message naming the axis.
fn single(i: isize, dim: usize, axis: &str) -> Result<usize> {
    let n = dim as i128;
    let i128_ = i as i128;
    if i128_ < -n || i128_ >= n {
        return Err(Error::Index(format!("{axis} index ({i}) out of range")));
    }
    Ok(if i < 0 {
        (i128_ + n) as usize
    } else {
        i as usize
    })
}

impl Compressed {
    /// The major lines `idx` (int64 in `0..major`), in that order,
    /// repeats allowed.
    pub(crate) fn take_major(&self, idx: &Array) -> Result<Compressed> {
        let lines = idx.size();
        let ptr = self.indptr.astype(DType::Int64)?;
        let starts = gather(&ptr, idx)?;
        let ends = gather(&ptr, &ufunc::add(idx, 1i64)?)?;
        let lengths = ufunc::subtract(&ends, &starts)?;
        let zero = creation::zeros(1, DType::Int64)?;
        let indptr = manipulation::concatenate(
            &[
                &zero,
                &gpu_array::math::cumsum(&lengths, None, Some(DType::Int64))?,
            ],
            Some(0),
        )?;
        let nnz = usize::try_from(indptr.item::<i64>(&[-1])?)
            .map_err(|_| Error::Value("negative entry count".into()))?;
        let index = index_dtype_for((lines, self.minor), nnz);
        // Entry k of the output lies in line r (binary search in the new
        // index pointer) at offset k - indptr[r] of source line idx[r].
        let line = expand(&indptr, nnz, DType::Int64)?;
        let k = creation::arange_with(0i64, nnz as i64, 1i64, Some(DType::Int64))?;
        let src = ufunc::add(
            &ufunc::subtract(&k, &gather(&indptr, &line)?)?,
            &gather(&starts, &line)?,
        )?;
        Ok(Compressed::new_unchecked(
            gather(&self.data, &src)?,
            gather(&self.indices, &src)?.astype(index)?,
            indptr.astype(index)?,
            lines,
            self.minor,
            kept_order(self.known_order()),
        ))
    }

    /// The major lines `start..stop` by `step` (clamped as a slice).
    pub(crate) fn major_range(&self, range: Range<usize>, step: usize) -> Result<Compressed> {
        if step == 0 {
            return Err(Error::Value("slice step cannot be zero".into()));
        }
        let (start, stop) = clamp(&range, self.major);
        if step > 1 {
            let idx =
                creation::arange_with(start as i64, stop as i64, step as i64, Some(DType::Int64))?;
            return self.take_major(&idx);
        }
        // Contiguous lines: views of the arrays, the index pointer
        // shifted to start at 0 (one read of its two ends).
        let ends = self
            .indptr
            .get_index(&gpu_array::ix![start as isize..stop as isize + 1])?;
        let both = manipulation::concatenate(
            &[
                &ends.get_index(&gpu_array::ix![0..1])?,
                &ends.get_index(&gpu_array::ix![-1..])?,
            ],
            Some(0),
        )?
        .to_vec_as::<i64>()?;
        let (first, last) = (both[0] as isize, both[1] as isize);
        let indptr = ufunc::subtract(&ends, first as i64)?.astype(self.index())?;
        Ok(Compressed::new_unchecked(
            self.data.get_index(&gpu_array::ix![first..last])?.copy()?,
            self.indices
                .get_index(&gpu_array::ix![first..last])?
                .copy()?,
            indptr,
            stop - start,
            self.minor,
            kept_order(self.known_order()),
        ))
    }

    /// The minor positions `start..stop` by `step` of every line,
    /// renumbered from 0.
    pub(crate) fn minor_range(&self, range: Range<usize>, step: usize) -> Result<Compressed> {
        if step == 0 {
            return Err(Error::Value("slice step cannot be zero".into()));
        }
        let (start, stop) = clamp(&range, self.minor);
        let width = (stop - start).div_ceil(step);
        let minor = self.indices.astype(DType::Int64)?;
        let shifted = ufunc::subtract(&minor, start as i64)?;
        let inside = ufunc::logical_and(
            &ufunc::greater_equal(&minor, start as i64)?,
            &ufunc::less(&minor, stop as i64)?,
        )?;
        let on_step = ufunc::equal(&ufunc::remainder(&shifted, step as i64)?, 0i64)?;
        let keep = nonzero(&ufunc::logical_and(&inside, &on_step)?)?.remove(0);
        let lines = gather(&self.major_indices()?, &keep)?;
        let index = index_dtype_for((self.major, width), keep.size());
        let indptr = compress(&lines, self.major, index)?;
        let indices = ufunc::floor_divide(&gather(&shifted, &keep)?, step as i64)?.astype(index)?;
        Ok(Compressed::new_unchecked(
            gather(&self.data, &keep)?,
            indices,
            indptr,
            self.major,
            width,
            kept_order(self.known_order()),
        ))
    }

    /// The minor positions `idx` (int64 in `0..minor`), in that order:
    /// recompressed along the other axis, lines taken, and back.
    pub(crate) fn take_minor(&self, idx: &Array) -> Result<Compressed> {
        self.swapped()?.take_major(idx)?.swapped()
    }

    /// The value at major line `i`, minor position `j` (duplicates
    /// summed), a 0-d array; one read of the line's two ends.
    pub(crate) fn element(&self, i: usize, j: usize) -> Result<Array> {
        let dt = self.data.dtype();
        let ends = self
            .indptr
            .get_index(&gpu_array::ix![i as isize..i as isize + 2])?
            .to_vec_as::<i64>()?;
        let (b, e) = (ends[0] as isize, ends[1] as isize);
        if b == e {
            return creation::zeros([0usize; 0], dt);
        }
        let cols = self.indices.get_index(&gpu_array::ix![b..e])?;
        let vals = self.data.get_index(&gpu_array::ix![b..e])?;
        let hit = ufunc::equal(&cols, j as i64)?;
        let zeros = creation::zeros(vals.size(), dt)?;
        let picked = gpu_array::indexing::where_(&hit, &vals, &zeros)?;
        let opts = gpu_array::reduction::ReduceOptions::default().dtype(dt);
        gpu_array::math::sum(&picked, opts)
    }
}

/// The positions of the true elements of a 1-D bool `mask` over an axis
/// of `dim`, NumPy's message when the lengths differ.
fn mask_positions(mask: &Array, dim: usize, axis: usize) -> Result<Array> {
    if mask.dtype() != DType::Bool {
        return Err(Error::Index(format!(
            "a boolean mask must be of dtype bool, not {}",
            mask.dtype()
        )));
    }
    check_1d(mask, "boolean index")?;
    if mask.size() != dim {
        return Err(Error::Index(format!(
            "boolean index did not match indexed array along axis {axis}; size of axis is \
             {dim} but size of corresponding boolean axis is {}",
            mask.size()
        )));
    }
    nonzero(mask)?.remove(0).astype(DType::Int64)
}

macro_rules! index_methods {
    ($name:ident, $csc:tt) => {
        impl $name {
            /// SciPy's `A[start:stop]`: rows `start..stop` (clamped to the
            /// matrix, as a slice), the same format.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let b = a.get_rows(1..3)?; // 2 x 4
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn get_rows(&self, rows: Range<usize>) -> Result<$name> {
                self.row_slice(rows, 1)
            }

            /// SciPy's `A[start:stop:step]` for a positive step.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let even = a.row_slice(0..4, 2)?; // rows 0 and 2
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A zero step ("slice step cannot be zero").
            pub fn row_slice(&self, rows: Range<usize>, step: usize) -> Result<$name> {
                Ok($name {
                    c: if $csc { self.c.minor_range(rows, step)? } else { self.c.major_range(rows, step)? },
                })
            }

            /// SciPy's `A[:, start:stop]`: columns `start..stop` (clamped).
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let b = a.get_cols(2..4)?; // 4 x 2
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn get_cols(&self, cols: Range<usize>) -> Result<$name> {
                self.col_slice(cols, 1)
            }

            /// SciPy's `A[:, start:stop:step]` for a positive step.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let odd = a.col_slice(1..4, 2)?; // columns 1 and 3
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A zero step ("slice step cannot be zero").
            pub fn col_slice(&self, cols: Range<usize>, step: usize) -> Result<$name> {
                Ok($name {
                    c: if $csc { self.c.major_range(cols, step)? } else { self.c.minor_range(cols, step)? },
                })
            }

            /// SciPy's `A[idx]` for a 1-D integer array: those rows in that
            /// order, repeats allowed, negative indices counting from the
            /// end.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let idx = gpu_array::Array::from_slice(&[3i64, 0, 0, -1], &[4])?;
            /// let b = a.take_rows(&idx)?; // 4 x 4: rows 3, 0, 0, 3
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// An index out of range (SciPy's "index (5) out of range"),
            /// indices that are not 1-D integers.
            pub fn take_rows(&self, idx: &Array) -> Result<$name> {
                let (m, _) = self.c.shape($csc);
                let idx = normalized(idx, m)?;
                Ok($name {
                    c: if $csc { self.c.take_minor(&idx)? } else { self.c.take_major(&idx)? },
                })
            }

            /// SciPy's `A[:, idx]` for a 1-D integer array, as
            /// [`Self::take_rows`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(4, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let idx = gpu_array::Array::from_slice(&[1i32, 1], &[2])?;
            /// let b = a.take_cols(&idx)?; // 4 x 2
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::take_rows`].
            pub fn take_cols(&self, idx: &Array) -> Result<$name> {
                let (_, n) = self.c.shape($csc);
                let idx = normalized(idx, n)?;
                Ok($name {
                    c: if $csc { self.c.take_major(&idx)? } else { self.c.take_minor(&idx)? },
                })
            }

            /// SciPy's `A[mask]` for a 1-D bool array of one element a row:
            /// the rows where it is true.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(3, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let mask = gpu_array::Array::from_slice(&[true, false, true], &[3])?;
            /// let b = a.mask_rows(&mask)?; // rows 0 and 2
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A mask that is not 1-D bool of the row count.
            pub fn mask_rows(&self, mask: &Array) -> Result<$name> {
                let (m, _) = self.c.shape($csc);
                let idx = mask_positions(mask, m, 0)?;
                Ok($name {
                    c: if $csc { self.c.take_minor(&idx)? } else { self.c.take_major(&idx)? },
                })
            }

            /// SciPy's `A[:, mask]`, as [`Self::mask_rows`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(3, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let mask = gpu_array::Array::from_slice(&[false, true, true], &[3])?;
            /// let b = a.mask_cols(&mask)?; // columns 1 and 2
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A mask that is not 1-D bool of the column count.
            pub fn mask_cols(&self, mask: &Array) -> Result<$name> {
                let (_, n) = self.c.shape($csc);
                let idx = mask_positions(mask, n, 1)?;
                Ok($name {
                    c: if $csc { self.c.take_major(&idx)? } else { self.c.take_minor(&idx)? },
                })
            }

            /// SciPy's `A[i, j]`: the element (duplicates summed) as a 0-d
            /// array of the matrix's dtype; negative indices count from the
            /// end.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
            #[doc = concat!("let a = gpu_sparse::", stringify!($name), "::from_dense(&gpu_array::creation::eye(3, None, 0, gpu_array::DType::Float64)?)?;")]
            /// let v: f64 = a.get(1, -2)?.item(&[])?; // 1
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// An index out of range (SciPy's "row index (5) out of range",
            /// "column index (-7) out of range").
            pub fn get(&self, i: isize, j: isize) -> Result<Array> {
                let (m, n) = self.c.shape($csc);
                let (i, j) = (single(i, m, "row")?, single(j, n, "column")?);
                if $csc { self.c.element(j, i) } else { self.c.element(i, j) }
            }
        }
    };
}

index_methods!(CsrMatrix, false);
index_methods!(CscMatrix, true);
