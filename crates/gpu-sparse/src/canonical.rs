//! The index arithmetic every conversion rests on, as device array
//! operations: sorting entries into (major, minor) order with duplicates
//! summed, compressing sorted major indices into an index pointer, and
//! expanding an index pointer back into major indices.
//!
//! Entries are keyed by `major * minor_dim + minor` (int64: construction
//! checks that `rows * cols` fits), sorted by one stable radix argsort;
//! duplicates are summed by [`crate::kernels::segment_sum`], one thread
//! a run of equal keys adding in storage order, so the sums are the same
//! on every run (an atomic scatter-add would not be).

use gpu_array::indexing::{TakeMode, nonzero, take};
use gpu_array::sorting::{Side, argsort, searchsorted};
use gpu_array::{Array, DType, Result, creation, manipulation, ufunc};

/// Entries sorted into (major, minor) order, duplicates summed.
#[derive(Debug)]
pub(crate) struct Sorted {
    pub major: Array,
    pub minor: Array,
    pub data: Array,
}

/// `major * minor_dim + minor` as int64.
fn keys(major: &Array, minor: &Array, minor_dim: usize) -> Result<Array> {
    let m = major.astype(DType::Int64)?;
    let n = minor.astype(DType::Int64)?;
    ufunc::add(&ufunc::multiply(&m, minor_dim as i64)?, &n)
}

/// The entries `(major, minor, data)` sorted by (major, minor) with
/// duplicates summed; the index arrays come back as `index`. `sorted`:
/// the caller knows the keys are already in order (only duplicates are
/// summed then).
pub(crate) fn sort_and_sum(
    major: &Array,
    minor: &Array,
    data: &Array,
    minor_dim: usize,
    index: DType,
    sorted: bool,
) -> Result<Sorted> {
    let nnz = data.size();
    if nnz == 0 {
        return Ok(Sorted {
            major: major.astype(index)?,
            minor: minor.astype(index)?,
            data: data.clone(),
        });
    }
    let k = keys(major, minor, minor_dim)?;
    let (k, data) = if sorted {
        (k, data.clone())
    } else {
        let perm = argsort(&k, Some(0))?;
        (
            take(&k, &perm, Some(0), TakeMode::Wrap)?,
            take(data, &perm, Some(0), TakeMode::Wrap)?,
        )
    };
    let (k, data) = sum_runs(&k, &data)?;
    let md = minor_dim.max(1) as i64;
    Ok(Sorted {
        major: ufunc::floor_divide(&k, md)?.astype(index)?,
        minor: ufunc::remainder(&k, md)?.astype(index)?,
        data,
    })
}

/// Sums the values of each run of equal sorted `keys`: the distinct keys
/// and their sums (the inputs themselves when no key repeats). One host
/// read (the number of runs).
fn sum_runs(keys: &Array, data: &Array) -> Result<(Array, Array)> {
    let n = keys.size();
    if n < 2 {
        return Ok((keys.clone(), data.clone()));
    }
    let head = keys.get_index(&gpu_array::ix![..-1])?;
    let tail = keys.get_index(&gpu_array::ix![1..])?;
    let changes = ufunc::not_equal(&tail, &head)?;
    let first = creation::full(1, true, Some(DType::Bool))?;
    let starts_mask = manipulation::concatenate(&[&first, &changes], Some(0))?;
    let starts = nonzero(&starts_mask)?.remove(0);
    if starts.size() == n {
        return Ok((keys.clone(), data.clone()));
    }
    let sums = crate::kernels::segment_sum(data, &starts)?;
    Ok((take(keys, &starts, Some(0), TakeMode::Wrap)?, sums))
}

/// The index pointer of sorted `major` indices over `major_dim` rows:
/// `indptr[r]` is the first entry of row `r`, as `index`.
pub(crate) fn compress(major: &Array, major_dim: usize, index: DType) -> Result<Array> {
    let rows = creation::arange_with(0i64, major_dim as i64 + 1, 1i64, Some(major.dtype()))?;
    searchsorted(major, &rows, Side::Left, None)?.astype(index)
}

/// The major index of each of the `nnz` entries of `indptr`, as `index`:
/// entry `k` lies in row `r` where `indptr[r] <= k < indptr[r + 1]`.
pub(crate) fn expand(indptr: &Array, nnz: usize, index: DType) -> Result<Array> {
    if nnz == 0 {
        return creation::zeros(0, index);
    }
    let ends = indptr.get_index(&gpu_array::ix![1..])?;
    let k = creation::arange_with(0i64, nnz as i64, 1i64, Some(indptr.dtype()))?;
    searchsorted(&ends, &k, Side::Right, None)?.astype(index)
}
