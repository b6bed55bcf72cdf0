//! Measurements on labelled images (SciPy's `scipy.ndimage` measurements,
//! `_measurements.py`).
//!
//! - [`label`] ([`label_with`], [`LabelOptions`]) finds connected
//!   features with union-find on the GPU (`kernels/label.cu`), numbered in
//!   the C order of their first element as SciPy's; [`generate_binary_structure`]
//!   and [`iterate_structure`] make the structuring elements;
//! - [`find_objects`] and [`value_indices`] say where each label or value
//!   is;
//! - the statistics over regions ([`sum_labels`], [`mean`], [`variance`],
//!   [`minimum`], [`median`], [`center_of_mass`], [`histogram`], ...) sort
//!   the labels once on the device and reduce each region in a fixed
//!   order (`kernels/measure.cu`): float results are the same from run to
//!   run; [`labeled_comprehension`] runs a Rust closure over each region on
//!   the host.
//!
//! SciPy's `labels=None` is `None`, and its `index=` an [`Index`]: which
//! regions to measure, and whether the result is one value (a 0-d array)
//! or one a label.

mod comprehension;
pub(crate) mod kernels;
mod label;
mod objects;
mod stats;
pub(crate) mod structure;

pub use comprehension::labeled_comprehension;
pub use label::{LabelOptions, label, label_with};
pub use objects::{find_objects, value_indices};
pub use stats::{
    Extrema, center_of_mass, extrema, histogram, maximum, maximum_position, mean, median, minimum,
    minimum_position, standard_deviation, sum, sum_labels, variance,
};
pub use structure::{generate_binary_structure, iterate_structure};

/// Which labelled regions a measurement covers (SciPy's `index=`).
///
/// ```no_run
/// use gpu_ndimage::{Index, mean};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;
/// let l = gpu_array::creation::array([0, 1, 1, 2])?;
/// let all = mean(&x, Some(&l), Index::All)?; // labels > 0 together: 3.0
/// let one = mean(&x, Some(&l), Index::One(1))?; // 2.5
/// let each = mean(&x, Some(&l), Index::Many(&[1, 2]))?; // [2.5, 4.0]
/// let same = mean(&x, Some(&l), [1i64, 2].as_slice().into())?;
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Index<'a> {
    /// SciPy's `index=None`: every element whose label is positive, as one
    /// region (the whole input when there are no labels); a 0-d result.
    #[default]
    All,
    /// A scalar `index=`: the elements of this label; a 0-d result.
    One(i64),
    /// A sequence `index=`: each of these labels (any order, repeats
    /// allowed); one result a label.
    Many(&'a [i64]),
}

impl From<i64> for Index<'_> {
    fn from(label: i64) -> Self {
        Index::One(label)
    }
}

impl<'a> From<&'a [i64]> for Index<'a> {
    fn from(labels: &'a [i64]) -> Self {
        Index::Many(labels)
    }
}

impl<'a> From<&'a Vec<i64>> for Index<'a> {
    fn from(labels: &'a Vec<i64>) -> Self {
        Index::Many(labels)
    }
}

impl<'a, const N: usize> From<&'a [i64; N]> for Index<'a> {
    fn from(labels: &'a [i64; N]) -> Self {
        Index::Many(labels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_converts_from_rust_values() {
        assert_eq!(Index::from(3), Index::One(3));
        let v = vec![1, 2];
        assert_eq!(Index::from(&v), Index::Many(&[1, 2]));
        assert_eq!(Index::from(&[4i64, 5]), Index::Many(&[4, 5]));
        assert_eq!(Index::default(), Index::All);
    }
}
