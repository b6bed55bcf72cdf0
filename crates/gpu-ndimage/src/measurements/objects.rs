//! Where the labelled objects are: SciPy's `find_objects` (bounding boxes)
//! and `value_indices` (every element of each value).

use std::collections::BTreeMap;
use std::ops::Range;

use gpu_array::indexing::unravel_index;
use gpu_array::layout::AxisIndex;
use gpu_array::sorting::{UniqueOptions, argsort, unique};
use gpu_array::stats::amax;
use gpu_array::{Array, Error, Order, Result};

use super::kernels::{self, MAXDIM};
use super::stats::labels_i64;

/// One label's bounding box from its smallest and largest coordinate on
/// each axis (`bbox`: `2 * ndim` values, `i64::MAX` first for a label that
/// is not there).
pub(crate) fn slices(bbox: &[i64]) -> Option<Vec<Range<usize>>> {
    if bbox.first().is_some_and(|&lo| lo == i64::MAX) {
        return None;
    }
    Some(
        bbox.chunks(2)
            .map(|c| c[0] as usize..c[1] as usize + 1)
            .collect(),
    )
}

/// The bounding box of each label `1..=max_label` in `labels` (SciPy's
/// `find_objects`): per label, one range a axis (SciPy's tuple of slices),
/// or `None` for a label that is not there. `max_label` of `None` (or 0,
/// as SciPy's default) means the largest label; labels below 1 or above
/// `max_label` are skipped. Computed on the GPU, one copy to the host.
///
/// ```no_run
/// use gpu_ndimage::find_objects;
/// # fn main() -> gpu_array::Result<()> {
/// let l = gpu_array::creation::array([[0, 2], [2, 0]])?;
/// let objs = find_objects(&l, None)?; // [None, Some([0..2, 0..2])]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Labels that are not integers or bool (not supported), or uint64 ones
/// past `i64::MAX`; an empty array without `max_label` (NumPy's
/// "zero-size array to reduction operation maximum which has no
/// identity"); more than 16 dimensions; allocation or a launch failed.
pub fn find_objects(
    labels: &Array,
    max_label: Option<usize>,
) -> Result<Vec<Option<Vec<Range<usize>>>>> {
    if labels.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    let flat = labels_i64(labels)?;
    let max_label = match max_label {
        Some(m) if m >= 1 => m,
        _ => {
            let m = amax(&flat, ())?.to_vec::<i64>()?[0];
            if m < 1 {
                return Ok(Vec::new());
            }
            m as usize
        }
    };
    let ndim = labels.ndim();
    if ndim > MAXDIM {
        return Err(Error::Unsupported(format!(
            "find_objects of arrays of {ndim} dimensions (at most {MAXDIM})"
        )));
    }
    // A 0-d array is one element: found with no axis to bound.
    let shape: Vec<usize> = if ndim == 0 {
        vec![1]
    } else {
        labels.shape().to_vec()
    };
    let bbox = kernels::find_objects(&flat, &shape, max_label)?.to_vec::<i64>()?;
    Ok(bbox
        .chunks(2 * shape.len())
        .map(|b| slices(b).map(|s| if ndim == 0 { Vec::new() } else { s }))
        .collect())
}

/// The positions of every element of each distinct value of `arr`
/// (SciPy's `value_indices`): per value, one int64 array of coordinates a
/// axis (SciPy's tuple of index arrays), the elements in C order; values
/// in ascending order, `ignore_value` left out. The coordinate arrays are
/// views of one array per axis on the device.
///
/// ```no_run
/// use gpu_ndimage::value_indices;
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_array::creation::array([[3, 1], [3, -2]])?;
/// let idx = value_indices(&a, None)?; // {-2: ([1], [1]), 1: ([0], [1]), 3: ([0, 1], [0, 0])}
/// let rows_of_3 = &idx[&3][0]; // [0, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A non-integer `arr` (SciPy's "Parameter 'arr' must be an integer
/// array"); uint64 values past `i64::MAX` (not supported); allocation or a
/// launch failed.
pub fn value_indices(arr: &Array, ignore_value: Option<i64>) -> Result<BTreeMap<i64, Vec<Array>>> {
    if !arr.dtype().is_integer() {
        return Err(Error::Value(
            "Parameter 'arr' must be an integer array".into(),
        ));
    }
    let flat = labels_i64(arr)?;
    let n = flat.size();
    let mut out = BTreeMap::new();
    if n == 0 {
        return Ok(out);
    }
    // Stable: each value's elements stay in C order.
    let perm = argsort(&flat, Some(0))?;
    let u = unique(&flat, UniqueOptions::default().counts(true))?;
    let values = u.values.to_vec::<i64>()?;
    let counts = u
        .counts
        .ok_or_else(|| Error::Value("unique gave no counts".into()))?
        .to_vec::<i64>()?;
    let coords = if arr.ndim() == 0 {
        Vec::new()
    } else {
        unravel_index(&perm, arr.shape(), Order::C)?
    };
    let mut start = 0isize;
    for (v, c) in values.into_iter().zip(counts) {
        let stop = start + c as isize;
        if ignore_value != Some(v) {
            let run = AxisIndex::Slice {
                start: Some(start),
                stop: Some(stop),
                step: 1,
            };
            let per_axis = coords
                .iter()
                .map(|a| a.slice(std::slice::from_ref(&run)))
                .collect::<Result<Vec<_>>>()?;
            out.insert(v, per_axis);
        }
        start = stop;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounding_boxes_become_ranges() {
        assert_eq!(slices(&[i64::MAX, -1, i64::MAX, -1]), None);
        assert_eq!(slices(&[2, 4, 0, 0]), Some(vec![2..5, 0..1]));
        assert_eq!(slices(&[]), Some(vec![]));
    }
}
