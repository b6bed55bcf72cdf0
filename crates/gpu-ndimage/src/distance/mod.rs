//! Distance transforms (SciPy's `distance_transform_edt` and
//! `distance_transform_cdt`, `_morphology.py`): for every nonzero
//! (foreground) element, the distance to the nearest zero (background)
//! element, and optionally which zero that is (the feature transform).
//!
//! - [`distance_transform_edt`] ([`distance_transform_edt_with`],
//!   [`EdtOptions`], [`Edt`]): the exact Euclidean distance, with a
//!   spacing per axis (`sampling`). The indices are SciPy's, ties
//!   included, and the distances are formed from them as SciPy forms
//!   them. With a sampling, SciPy's own algorithm (Maurer et al.'s, one
//!   pass an axis) runs one line per GPU thread with SciPy's arithmetic;
//!   without one, where that arithmetic is exact, each pass's result is
//!   "the nearest site of the line, the lowest on ties", which the exact
//!   path computes in parallel (`kernels/distance.cu`; `model.rs` holds
//!   host models of both and the tests that they agree).
//! - [`distance_transform_cdt`] ([`distance_transform_cdt_with`],
//!   [`CdtOptions`], [`CdtMetric`], [`Cdt`]): the chamfer distance, the
//!   fewest steps to a zero through the neighbours of a structuring
//!   element (`chessboard`: every neighbour; `taxicab`: the axis
//!   neighbours; or your own). SciPy's two raster scans are each computed
//!   as the fixed point they reach, by relaxation sweeps on the device
//!   until one changes nothing: the distances and the indices are SciPy's,
//!   ties included. The sweeps' number grows with the largest distance
//!   (a few for dense backgrounds, about the image's extent for a lone
//!   zero).
//!
//! Out-of-image elements are never features. An input without any zero
//! gets SciPy's answers: for the EDT, features `(-1, 0, ...)` and the
//! distances to that point; for the CDT, -1 everywhere and each element
//! its own feature.
//!
//! Not here yet: SciPy's `distance_transform_bf`, and its `distances=` /
//! `indices=` output arrays (the results are new arrays).

mod cdt;
mod edt;
pub(crate) mod kernels;
#[cfg(test)]
mod model;

pub use cdt::{Cdt, CdtMetric, CdtOptions, distance_transform_cdt, distance_transform_cdt_with};
pub use edt::{Edt, EdtOptions, distance_transform_edt, distance_transform_edt_with};

use gpu_array::{Array, DType, Error, Result};

/// SciPy's check of the return flags, in its words.
fn check_returns(distances: bool, indices: bool) -> Result<()> {
    if distances || indices {
        Ok(())
    } else {
        Err(Error::NumpyRuntime(
            "at least one of return_distances/return_indices must be True".into(),
        ))
    }
}

/// The input as the kernels read it: bool (nonzero, NaN included, is
/// foreground), C-contiguous. Complex input is refused.
fn mask(input: &Array) -> Result<Array> {
    if input.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    let m = if input.dtype() == DType::Bool {
        input.clone()
    } else {
        input.astype(DType::Bool)?
    };
    if m.is_c_contiguous() { Ok(m) } else { m.copy() }
}

/// Refuses ranks past the kernels' and axes whose coordinates int32 (the
/// indices' dtype, SciPy's) cannot hold; checks that the indices' size,
/// `ndim` planes of the image, is addressable.
fn check_shape(func: &str, shape: &[usize]) -> Result<()> {
    if shape.len() > kernels::MAXDIM {
        return Err(Error::Unsupported(format!(
            "{func} of arrays of {} dimensions (at most {})",
            shape.len(),
            kernels::MAXDIM
        )));
    }
    if let Some(s) = shape.iter().find(|&&s| s > i32::MAX as usize) {
        return Err(Error::Unsupported(format!(
            "{func} along an axis of length {s} (int32 coordinates: at most {})",
            i32::MAX
        )));
    }
    let n = shape
        .iter()
        .try_fold(1usize, |acc, &s| acc.checked_mul(s))
        .and_then(|n| n.checked_mul(shape.len().max(1)))
        .filter(|&p| p <= i64::MAX as usize);
    if n.is_none() {
        return Err(Error::Value(format!("{func}: array is too big")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_flags_off_is_scipys_error() {
        check_returns(true, false).unwrap();
        check_returns(false, true).unwrap();
        let e = check_returns(false, false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "at least one of return_distances/return_indices must be True"
        );
    }

    #[test]
    fn shapes_are_checked() {
        check_shape("f", &[3, 4]).unwrap();
        check_shape("f", &[0, 7]).unwrap();
        check_shape("f", &[1; 16]).unwrap();
        assert!(check_shape("f", &[1; 17]).is_err());
        assert!(check_shape("f", &[i32::MAX as usize + 1]).is_err());
        check_shape("f", &[i32::MAX as usize]).unwrap();
        let big = 1usize << 31;
        assert!(check_shape("f", &[big - 1, big - 1, big - 1]).is_err());
    }
}
