//! SciPy's `labeled_comprehension`: a Rust closure over each region's
//! values, run on the host.

use std::collections::HashMap;

use gpu_array::dtype::iinfo;
use gpu_array::{Array, DType, Element, Error, Result};

use super::Index;
use super::stats::labels_i64;

/// Whether `v` converts to `dtype` and back unchanged (SciPy's check of
/// the index values against the labels' dtype).
pub(crate) fn index_fits(v: i64, dtype: DType) -> bool {
    if dtype.is_bool() {
        return v == 0 || v == 1;
    }
    match iinfo(dtype) {
        Ok(info) => (info.min..=info.max).contains(&i128::from(v)),
        Err(_) => true,
    }
}

/// Applies `func` to the values of each region of `input` (SciPy's
/// `labeled_comprehension` with `pass_positions=True`), on the host: the
/// input and labels are copied over once, and `func` gets each region's
/// values (as `T`, converted on the device first) and their linear
/// positions in the (broadcast) input, in C order. A label of
/// [`Index::One`] or [`Index::Many`] that is not there gives `default`;
/// [`Index::All`] runs `func` once over the elements with positive labels,
/// or over the whole input without labels. One result a region (one for
/// `All` and `One`).
///
/// ```no_run
/// use gpu_ndimage::{Index, labeled_comprehension};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 5.0, 2.0, 8.0])?;
/// let l = gpu_array::creation::array([1, 1, 2, 2])?;
/// // the spread of each region
/// let spread = labeled_comprehension(&x, Some(&l), Index::Many(&[1, 2, 3]), |v: &[f64], _pos| {
///     v.iter().cloned().fold(f64::MIN, f64::max) - v.iter().cloned().fold(f64::MAX, f64::min)
/// }, -1.0)?; // [4.0, 6.0, -1.0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An index without labels ("index without defined labels"); shapes that
/// do not broadcast ("input and labels must have the same shape
/// (excepting dimensions with width 1)"); an index value that the labels'
/// dtype cannot hold (`"Cannot convert index values from <int64> to
/// <int8> (labels' type) without loss of precision"`), in SciPy's words;
/// non-integer labels (not supported); the copies failed.
pub fn labeled_comprehension<T: Element + Copy, R: Clone>(
    input: &Array,
    labels: Option<&Array>,
    index: Index<'_>,
    mut func: impl FnMut(&[T], &[usize]) -> R,
    default: R,
) -> Result<Vec<R>> {
    let host = |a: &Array| -> Result<Vec<T>> {
        if a.is_c_contiguous() {
            a.to_vec_as::<T>()
        } else {
            a.copy()?.to_vec_as::<T>()
        }
    };
    let Some(labels) = labels else {
        if !matches!(index, Index::All) {
            return Err(Error::Value("index without defined labels".into()));
        }
        let values = host(input)?;
        let positions: Vec<usize> = (0..values.len()).collect();
        return Ok(vec![func(&values, &positions)]);
    };
    let b = gpu_array::array::broadcast_arrays(&[input, labels]).map_err(|_| {
        Error::Value(
            "input and labels must have the same shape (excepting dimensions with width 1)".into(),
        )
    })?;
    let queries: Vec<i64> = match index {
        Index::All => Vec::new(),
        Index::One(v) => vec![v],
        Index::Many(v) => v.to_vec(),
    };
    if queries.iter().any(|&v| !index_fits(v, labels.dtype())) {
        return Err(Error::Value(format!(
            "Cannot convert index values from <int64> to <{}> (labels' type) without loss \
             of precision",
            labels.dtype().name()
        )));
    }
    let lab = labels_i64(&b[1])?.to_vec::<i64>()?;
    let values = host(&b[0])?;
    if matches!(index, Index::All) {
        let (v, p): (Vec<T>, Vec<usize>) = lab
            .iter()
            .enumerate()
            .filter(|(_, l)| **l > 0)
            .map(|(i, _)| (values[i], i))
            .unzip();
        return Ok(vec![func(&v, &p)]);
    }
    let mut regions: HashMap<i64, (Vec<T>, Vec<usize>)> = queries
        .iter()
        .map(|&q| (q, (Vec::new(), Vec::new())))
        .collect();
    for (i, l) in lab.iter().enumerate() {
        if let Some((v, p)) = regions.get_mut(l) {
            v.push(values[i]);
            p.push(i);
        }
    }
    Ok(queries
        .iter()
        .map(|q| match &regions[q] {
            (v, _) if v.is_empty() => default.clone(),
            (v, p) => func(v, p),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_values_must_fit_the_labels_dtype() {
        assert!(index_fits(127, DType::Int8));
        assert!(!index_fits(128, DType::Int8));
        assert!(!index_fits(-1, DType::UInt16));
        assert!(index_fits(1, DType::Bool) && !index_fits(2, DType::Bool));
        assert!(index_fits(i64::MIN, DType::Int64));
        assert!(index_fits(i64::MAX, DType::UInt64));
    }
}
