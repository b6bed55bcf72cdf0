//! Mathematical morphology (`scipy.ndimage._morphology`):
//!
//! - grey-scale morphology with flat windows (`grey.rs`): the minimum and
//!   maximum filters, reflected for dilation as SciPy, and the compound
//!   operations (gradient, Laplacian, top-hats);
//! - binary morphology (`binary.rs`): erosion and dilation steps of one
//!   kernel (`kernels.rs`, `kernels/binary.cu`), iterated, and opening,
//!   closing, hit-or-miss, propagation and hole filling built on them.
//!
//! The structuring elements come from
//! [`generate_binary_structure`](crate::generate_binary_structure) and
//! [`iterate_structure`](crate::iterate_structure).

mod binary;
mod grey;
pub(crate) mod kernels;

pub use binary::{
    BinaryOptions, HitOrMissOptions, binary_closing, binary_closing_with, binary_dilation,
    binary_dilation_with, binary_erosion, binary_erosion_with, binary_fill_holes,
    binary_fill_holes_with, binary_hit_or_miss, binary_hit_or_miss_with, binary_opening,
    binary_opening_with, binary_propagation, binary_propagation_with,
};
pub use grey::{
    black_tophat, black_tophat_with, grey_closing, grey_closing_with, grey_dilation,
    grey_dilation_with, grey_erosion, grey_erosion_with, grey_opening, grey_opening_with,
    morphological_gradient, morphological_gradient_with, morphological_laplace,
    morphological_laplace_with, white_tophat, white_tophat_with,
};
