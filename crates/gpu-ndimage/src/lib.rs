//! gpu-ndimage: Cuprum's `cupyx.scipy.ndimage`, multi-dimensional image
//! processing on the GPU with SciPy's names and semantics.
//!
//! What it holds so far:
//!
//! - [`Mode`] and [`map_index`]: SciPy's boundary modes, the same
//!   arithmetic on the host and on the device (`kernels/boundary.cuh`);
//! - the filters of `scipy.ndimage` (`filters.rs`: the correlation family
//!   and the separable filters; `footprint.rs`: n-D weights, minimum,
//!   maximum and rank filters), with SciPy's checks, messages and output
//!   dtypes ([`Output`]). Sums are in float64 in SciPy's order of terms;
//!   float results go into integer outputs truncated, as SciPy's C casts.
//!   Strided inputs are copied to C order first; complex data and float16
//!   are not taken (SciPy filters complex data by its real parts);
//! - interpolation ([`mod@interp`]): [`spline_filter1d`], [`spline_filter`],
//!   [`map_coordinates`], [`affine_transform`], [`shift`], [`zoom`]
//!   (`grid_mode` too), [`rotate`] and [`geometric_transform`] (the mapping
//!   as CUDA device source), orders 0 to 5, every mode, SciPy's results;
//! - grey-scale morphology with flat windows ([`mod@morphology`]):
//!   [`grey_erosion`], [`grey_dilation`], [`grey_opening`], [`grey_closing`];
//! - measurements ([`mod@measurements`]): [`label`] (union-find on the
//!   GPU, 64-bit indices, SciPy's numbering), [`find_objects`],
//!   [`value_indices`] and the statistics over labelled regions, whose
//!   float sums are in a fixed order, the same from run to run.
//!
//! | SciPy                                           | Cuprum                                                   |
//! |-------------------------------------------------|----------------------------------------------------------|
//! | `correlate1d(x, w, axis, output, mode, cval, origin)` | [`correlate1d`]`(&x, &w, axis, Output::None, Mode::Reflect, 0.0, 0)?` (also [`convolve1d`]) |
//! | `correlate(x, w)`, `convolve(x, w)`             | [`correlate`], [`convolve`] (`w` an n-D [`gpu_array::Array`]) |
//! | `gaussian_filter(x, 2.0)`                       | [`gaussian_filter`]`(&x, &[2.0], &[0], Output::None, &[Mode::Reflect], 0.0, 4.0, None, None)?` |
//! | `gaussian_filter1d`, `uniform_filter(1d)`       | [`gaussian_filter1d`], [`uniform_filter`], [`uniform_filter1d`] |
//! | `sobel`, `prewitt`, `laplace`                   | [`sobel`], [`prewitt`], [`laplace`]                      |
//! | `gaussian_laplace`, `gaussian_gradient_magnitude` | [`gaussian_laplace`], [`gaussian_gradient_magnitude`] |
//! | `generic_laplace(x, f)`, `generic_gradient_magnitude(x, f)` | [`generic_laplace`], [`generic_gradient_magnitude`] (Rust closures) |
//! | `minimum_filter(x, size=3)`, `maximum_filter1d` | [`minimum_filter`]`(&x, Some(&[3]), None, ...)`, [`maximum_filter1d`], ... |
//! | `median_filter`, `rank_filter`, `percentile_filter` | [`median_filter`], [`rank_filter`], [`percentile_filter`] (footprints up to 640 elements) |
//! | `output=np.float32`, `output=arr`               | [`Output::DType`], [`Output::Array`]                    |
//! | `label(x)`, `label(x, structure, output=np.int64)` | [`label`]`(&x)?` (array, count), [`label_with`]`(&x, &LabelOptions::default().structure(&s).output(DType::Int64))?` |
//! | `generate_binary_structure(2, 2)`, `iterate_structure(s, 3)` | [`generate_binary_structure`]`(2, 2)?`, [`iterate_structure`]`(&s, 3)?` |
//! | `find_objects(l)`, `value_indices(l)`           | [`find_objects`]`(&l, None)?` (`Vec<Option<Vec<Range<usize>>>>`), [`value_indices`]`(&l, None)?` (`BTreeMap`) |
//! | `sum_labels(x, l, index=[1, 2])`, `sum(...)`    | [`sum_labels`]`(&x, Some(&l), Index::Many(&[1, 2]))?` ([`sum`] too) |
//! | `mean(x, l)`, `mean(x, l, 3)`, `mean(x)`        | [`mean`]`(&x, Some(&l), Index::All)?`, `Index::One(3)`, `mean(&x, None, Index::All)?` (0-d results) |
//! | `variance`, `standard_deviation`, `median`      | [`variance`], [`standard_deviation`], [`median`] (same arguments) |
//! | `minimum`, `maximum`, `extrema`                 | [`minimum`], [`maximum`], [`extrema`] ([`Extrema`]) |
//! | `minimum_position`, `maximum_position`, `center_of_mass` | [`minimum_position`], [`maximum_position`], [`center_of_mass`] (host `Vec`s, one a region) |
//! | `histogram(x, 0, 10, 5, l, [1, 2])`             | [`histogram`]`(&x, 0.0, 10.0, 5, Some(&l), Index::Many(&[1, 2]))?` (int64 `(k, bins)`) |
//! | `labeled_comprehension(x, l, idx, f, ...)`      | [`labeled_comprehension`]`(&x, Some(&l), idx, \|v: &[f64], pos\| ..., default)?` (host closure) |
#![deny(unsafe_code)]

mod filters;
mod footprint;
pub mod interp;
mod kernels;
pub mod measurements;
mod mode;
pub mod morphology;
mod output;
mod raw;
mod weights;

pub use filters::{
    convolve1d, correlate1d, gaussian_filter, gaussian_filter1d, gaussian_gradient_magnitude,
    gaussian_laplace, generic_gradient_magnitude, generic_laplace, laplace, prewitt, sobel,
    uniform_filter, uniform_filter1d,
};
pub use footprint::{
    convolve, correlate, maximum_filter, maximum_filter1d, median_filter, minimum_filter,
    minimum_filter1d, percentile_filter, rank_filter,
};
pub use interp::{
    AffineMatrix, InterpParams, affine_transform, geometric_transform, map_coordinates, rotate,
    shift, spline_filter, spline_filter1d, zoom,
};
pub use measurements::{
    Extrema, Index, LabelOptions, center_of_mass, extrema, find_objects, generate_binary_structure,
    histogram, iterate_structure, label, label_with, labeled_comprehension, maximum,
    maximum_position, mean, median, minimum, minimum_position, standard_deviation, sum, sum_labels,
    value_indices, variance,
};
pub use mode::{Mode, map_index};
pub use morphology::{grey_closing, grey_dilation, grey_erosion, grey_opening};
pub use output::Output;
pub use weights::{gaussian_kernel1d, gaussian_radius};

/// The device header of the boundary modes (`cuprum_ndimage_map`), for
/// this crate's kernels and users' own.
pub const BOUNDARY_CUH: &str = include_str!("kernels/boundary.cuh");

#[cfg(test)]
mod nvrtc_tests {
    use gpu_runtime::nvrtc::CompileRequest;
    use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};

    #[test]
    fn the_boundary_header_compiles() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        let src = format!(
            "{}\nextern \"C\" __global__ void probe(long long* out, long long n, int mode) {{ \
             out[threadIdx.x] = cuprum_ndimage_map((long long)threadIdx.x - 8, n, mode); }}\n",
            super::BOUNDARY_CUH
        );
        compile_for_test_archs("ndimage boundary", &[CompileRequest::new(src)]);
    }

    #[test]
    fn filter_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        compile_for_test_archs("ndimage filters", &[crate::kernels::program_request()]);
    }

    #[test]
    fn measurement_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        compile_for_test_archs(
            "ndimage measurements",
            &[crate::measurements::kernels::program_request()],
        );
    }
}
