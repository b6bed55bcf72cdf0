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
//!   The separable filters describe their 1-D passes (`separable.rs`);
//!   short windows run compiled per size (`tiled.rs`), two passes over an
//!   image's last two axes as one launch. Strided inputs are copied to C
//!   order first. Complex data goes
//!   through the linear filters (correlations and convolutions, uniform,
//!   Gaussian, Sobel, Prewitt, Laplace) by its real and imaginary parts,
//!   as SciPy's; the others refuse it, as SciPy's do; complex weights and
//!   float16 are not taken;
//! - interpolation ([`mod@interp`]): [`spline_filter1d`], [`spline_filter`],
//!   [`map_coordinates`], [`affine_transform`], [`shift`], [`zoom`]
//!   (`grid_mode` too), [`rotate`] and [`geometric_transform`] (the mapping
//!   as CUDA device source), orders 0 to 5, every mode, SciPy's results;
//! - the Fourier filters ([`mod@fourier`]): [`fourier_gaussian`],
//!   [`fourier_uniform`], [`fourier_ellipsoid`], [`fourier_shift`] (on a
//!   transform from `gpu_fft`; `n` and `axis` as SciPy's for `rfft`s);
//! - grey-scale morphology with flat windows ([`mod@morphology`]):
//!   [`grey_erosion`], [`grey_dilation`], [`grey_opening`], [`grey_closing`],
//!   [`morphological_gradient`], [`morphological_laplace`],
//!   [`white_tophat`], [`black_tophat`]; binary morphology:
//!   [`binary_erosion`], [`binary_dilation`], [`binary_opening`],
//!   [`binary_closing`], [`binary_hit_or_miss`], [`binary_propagation`],
//!   [`binary_fill_holes`] ([`BinaryOptions`], [`HitOrMissOptions`]);
//! - measurements ([`mod@measurements`]): [`label`] (union-find on the
//!   GPU, 64-bit indices, SciPy's numbering), [`find_objects`],
//!   [`value_indices`] and the statistics over labelled regions, whose
//!   float sums are in a fixed order, the same from run to run;
//! - distance transforms ([`mod@distance`]): [`distance_transform_edt`]
//!   (exact Euclidean, any sampling) and [`distance_transform_cdt`]
//!   (chessboard, taxicab or a structure), with SciPy's distances and
//!   feature transforms, ties included.
//!
//! Every function comes as SciPy's call with its defaults and a `_with`
//! variant taking the keywords ([`FilterOptions`] for the filters and the
//! morphology, [`InterpOptions`] for the interpolation):
//!
//! | SciPy                                           | Cuprum                                                   |
//! |-------------------------------------------------|----------------------------------------------------------|
//! | `correlate1d(x, w, axis)`, `convolve1d`         | [`correlate1d`]`(&x, &w, axis)?`, [`convolve1d`]          |
//! | `correlate1d(x, w, mode='constant', cval=1, origin=-1)` | [`correlate1d_with`]`(&x, &w, -1, &FilterOptions::default().mode(Mode::Constant).cval(1.0).origin(-1))?` |
//! | `correlate(x, w)`, `convolve(x, w, axes=(1,))`  | [`correlate`], [`convolve_with`]`(&x, &w, &FilterOptions::default().axes(&[1]))?` |
//! | `gaussian_filter(x, 2)`                         | [`gaussian_filter`]`(&x, 2.0)?`                          |
//! | `gaussian_filter(x, (2, 1), order=1, truncate=3)` | [`gaussian_filter_with`]`(&x, &Gaussian::sigmas(&[2.0, 1.0]).order(1).truncate(3.0), &FilterOptions::default())?` |
//! | `gaussian_filter1d`, `uniform_filter(x, 5)`, `uniform_filter1d` | [`gaussian_filter1d`], [`uniform_filter`]`(&x, 5)?`, [`uniform_filter1d`] |
//! | `sobel(x, 0)`, `prewitt`, `laplace(x)`          | [`sobel`]`(&x, 0)?`, [`prewitt`], [`laplace`]`(&x)?`    |
//! | `gaussian_laplace`, `gaussian_gradient_magnitude` | [`gaussian_laplace`], [`gaussian_gradient_magnitude`] |
//! | `generic_laplace(x, f)`, `generic_gradient_magnitude(x, f)` | [`generic_laplace`], [`generic_gradient_magnitude`] (Rust closures) |
//! | `minimum_filter(x, size=3)`, `maximum_filter(x, footprint=f)` | [`minimum_filter`]`(&x, Window::Size(&[3]))?`, [`maximum_filter`]`(&x, Window::Footprint(&f))?` |
//! | `minimum_filter1d(x, 3)`, `maximum_filter1d`    | [`minimum_filter1d`]`(&x, 3, -1)?`, [`maximum_filter1d`] |
//! | `generic_filter(x, f, size=3)`, `generic_filter1d(x, f, 3)` | [`generic_filter`]`(&x, src, Window::Size(&[3]))?`, [`generic_filter1d`]`(&x, src, 3, -1)?` (the function as CUDA source) |
//! | `median_filter`, `rank_filter`, `percentile_filter` | [`median_filter`], [`rank_filter`], [`percentile_filter`] (footprints up to 640 elements) |
//! | `output=np.float32`, `output=arr`               | [`FilterOptions::dtype`], [`FilterOptions::out`]        |
//! | `map_coordinates(x, c, order=1)`, `zoom(x, 2)`  | [`map_coordinates`]`(&x, &c, &InterpOptions::default().order(1))?`, [`zoom`]`(&x, &[2.0], false, &InterpOptions::default())?` |
//! | `fourier_gaussian(f, 2)`, `fourier_shift(f, (1, 2), n=64)` | [`fourier_gaussian`]`(&f, 2.0)?`, [`fourier_shift_with`]`(&f, &[1.0, 2.0], &FourierOptions::default().n(64))?` |
//! | `binary_erosion(x, s, iterations=2)`, `binary_fill_holes(x)` | [`binary_erosion_with`]`(&x, &BinaryOptions::default().structure(&s).iterations(2))?`, [`binary_fill_holes`]`(&x)?` |
//! | `grey_erosion(x, size=3)`, `white_tophat`, ...  | [`grey_erosion`]`(&x, Window::Size(&[3]))?`, [`white_tophat`], ... |
//! | `label(x)`, `label(x, structure, output=np.int64)` | [`label`]`(&x)?` (array, count), [`label_with`]`(&x, &LabelOptions::default().structure(&s).output(DType::Int64))?` |
//! | `generate_binary_structure(2, 2)`, `iterate_structure(s, 3)` | [`generate_binary_structure`]`(2, 2)?`, [`iterate_structure`]`(&s, 3)?` |
//! | `find_objects(l)`, `value_indices(l)`           | [`find_objects`]`(&l, None)?` (`Vec<Option<Vec<Range<usize>>>>`), [`value_indices`]`(&l, None)?` (`BTreeMap`) |
//! | `sum_labels(x, l, index=[1, 2])`, `sum(...)`    | [`sum_labels`]`(&x, Some(&l), Index::Many(&[1, 2]))?` ([`sum`] too) |
//! | `mean(x, l)`, `mean(x, l, 3)`, `mean(x)`        | [`mean`]`(&x, Some(&l), Index::All)?`, `Index::One(3)`, `mean(&x, None, Index::All)?` (0-d results) |
//! | `variance`, `standard_deviation`, `median`      | [`variance`], [`standard_deviation`], [`median`] (same arguments) |
//! | `minimum`, `maximum`, `extrema`                 | [`minimum`], [`maximum`], [`extrema`] ([`Extrema`]) |
//! | `minimum_position`, `maximum_position`, `center_of_mass` | [`minimum_position`], [`maximum_position`], [`center_of_mass`] (host `Vec`s, one a region) |
//! | `histogram(x, 0, 10, 5, l, [1, 2])`             | [`histogram`]`(&x, 0.0, 10.0, 5, Some(&l), Index::Many(&[1, 2]))?` (int64 `(k, bins)`) |
//! | `distance_transform_edt(x)`, `distance_transform_edt(x, sampling=(2, 1), return_indices=True)` | [`distance_transform_edt`]`(&x)?`, [`distance_transform_edt_with`]`(&x, &EdtOptions::default().samplings(&[2.0, 1.0]).return_indices(true))?` ([`Edt`]) |
//! | `distance_transform_cdt(x)`, `distance_transform_cdt(x, metric='taxicab', return_indices=True)` | [`distance_transform_cdt`]`(&x)?`, [`distance_transform_cdt_with`]`(&x, &CdtOptions::default().metric(CdtMetric::Taxicab).return_indices(true))?` ([`Cdt`]) |
//! | `labeled_comprehension(x, l, idx, f, ...)`      | [`labeled_comprehension`]`(&x, Some(&l), idx, \|v: &[f64], pos\| ..., default)?` (host closure) |
#![deny(unsafe_code)]

pub mod distance;
mod filters;
mod footprint;
pub mod fourier;
pub mod interp;
mod kernels;
pub mod measurements;
mod mode;
pub mod morphology;
mod options;
mod output;
mod raw;
mod separable;
mod tiled;
mod weights;
mod zoom;

pub use distance::{
    Cdt, CdtMetric, CdtOptions, Edt, EdtOptions, distance_transform_cdt,
    distance_transform_cdt_with, distance_transform_edt, distance_transform_edt_with,
};
pub use filters::{
    Derivative, convolve1d, convolve1d_with, correlate1d, correlate1d_with, gaussian_filter,
    gaussian_filter_with, gaussian_filter1d, gaussian_filter1d_with, gaussian_gradient_magnitude,
    gaussian_gradient_magnitude_with, gaussian_laplace, gaussian_laplace_with, generic_filter1d,
    generic_filter1d_with, generic_gradient_magnitude, generic_gradient_magnitude_with,
    generic_laplace, generic_laplace_with, laplace, laplace_with, prewitt, prewitt_with, sobel,
    sobel_with, uniform_filter, uniform_filter_with, uniform_filter1d, uniform_filter1d_with,
};
pub use footprint::{
    convolve, convolve_with, correlate, correlate_with, generic_filter, generic_filter_with,
    maximum_filter, maximum_filter_with, maximum_filter1d, maximum_filter1d_with, median_filter,
    median_filter_with, minimum_filter, minimum_filter_with, minimum_filter1d,
    minimum_filter1d_with, percentile_filter, percentile_filter_with, rank_filter,
    rank_filter_with,
};
pub use fourier::{
    FourierOptions, fourier_ellipsoid, fourier_ellipsoid_with, fourier_gaussian,
    fourier_gaussian_with, fourier_shift, fourier_shift_with, fourier_uniform,
    fourier_uniform_with,
};
pub use interp::{
    AffineMatrix, InterpOptions, affine_transform, geometric_transform, map_coordinates, rotate,
    shift, spline_filter, spline_filter1d, zoom,
};
pub use measurements::{
    Extrema, Index, LabelOptions, center_of_mass, extrema, find_objects, generate_binary_structure,
    histogram, iterate_structure, label, label_with, labeled_comprehension, maximum,
    maximum_position, mean, median, minimum, minimum_position, standard_deviation, sum, sum_labels,
    value_indices, variance,
};
pub use mode::{Mode, map_index};
pub use morphology::{
    BinaryOptions, HitOrMissOptions, binary_closing, binary_closing_with, binary_dilation,
    binary_dilation_with, binary_erosion, binary_erosion_with, binary_fill_holes,
    binary_fill_holes_with, binary_hit_or_miss, binary_hit_or_miss_with, binary_opening,
    binary_opening_with, binary_propagation, binary_propagation_with, black_tophat,
    black_tophat_with, grey_closing, grey_closing_with, grey_dilation, grey_dilation_with,
    grey_erosion, grey_erosion_with, grey_opening, grey_opening_with, morphological_gradient,
    morphological_gradient_with, morphological_laplace, morphological_laplace_with, white_tophat,
    white_tophat_with,
};
pub use options::{FilterOptions, Gaussian, Window};
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

    /// tiled1d's programs (every op, both layouts, the longest window and
    /// short ones, dtype pairs of every width), tiled2d's (pairs of ops,
    /// the longest windows), median3x3's and zoom2's
    /// (the lowest and highest orders), batched.
    #[test]
    fn tiled_kernels_compile() {
        use crate::kernels::Op1d;
        use gpu_array::DType;
        if nvrtc_or_skip().is_none() {
            return;
        }
        let ops = [
            (Op1d::Correlate, DType::Float32, DType::Float32, 4),
            (Op1d::Symmetric, DType::Float32, DType::Float32, 17),
            (Op1d::Antisymmetric, DType::Float64, DType::Float64, 3),
            (Op1d::Mean, DType::UInt8, DType::Float64, 5),
            (
                Op1d::Min,
                DType::Int64,
                DType::Int64,
                crate::tiled::TILED1D_MAX,
            ),
            (Op1d::Max, DType::Bool, DType::Bool, 2),
        ];
        let mut reqs: Vec<_> = ops
            .iter()
            .map(|&(op, ti, to, size)| crate::tiled::tiled1d_request(ti, to, op, size))
            .collect();
        let max = crate::tiled::TILED1D_MAX;
        for (ti, to, ops) in [
            (
                DType::Float32,
                DType::Float32,
                [(Op1d::Symmetric, 17), (Op1d::Symmetric, 17)],
            ),
            (
                DType::UInt8,
                DType::UInt8,
                [(Op1d::Mean, 5), (Op1d::Mean, 5)],
            ),
            (
                DType::Float64,
                DType::Float64,
                [(Op1d::Antisymmetric, 3), (Op1d::Symmetric, 3)],
            ),
            (
                DType::Int64,
                DType::Int64,
                [(Op1d::Min, max), (Op1d::Min, max)],
            ),
            (
                DType::Float32,
                DType::Float64,
                [(Op1d::Correlate, 17), (Op1d::Max, 2)],
            ),
        ] {
            reqs.push(crate::tiled::tiled2d_request(ti, to, ops));
        }
        for (ti, to) in [
            (DType::Float32, DType::Float32),
            (DType::UInt64, DType::Float64),
            (DType::Bool, DType::Bool),
        ] {
            reqs.push(crate::tiled::median3x3_request(ti, to));
        }
        for (ti, to, order) in [
            (DType::Float32, DType::Float32, 1),
            (DType::UInt8, DType::Int16, 0),
            (DType::Float64, DType::Float32, 5),
        ] {
            reqs.push(crate::zoom::zoom2_request(ti, to, order));
        }
        compile_for_test_archs("ndimage tiled", &reqs);
    }

    /// generic_filter's and generic_filter1d's programs around a user's
    /// function: small and large buffers, two input dtypes.
    #[test]
    fn generic_filter_programs_compile() {
        use gpu_array::DType;
        if nvrtc_or_skip().is_none() {
            return;
        }
        let f = "__device__ double function(const double* b, long long n) { return b[n - 1]; }";
        let (_, a) = crate::kernels::generic_nd_request(f, DType::Float32, 32);
        let (_, b) = crate::kernels::generic_nd_request(f, DType::UInt8, 1024);
        let g = "__device__ void function(const double* i, long long il, double* o, long long ol) \
                 { for (long long k = 0; k < ol; ++k) o[k] = i[k]; }";
        let (_, c) = crate::kernels::generic_1d_request(g);
        compile_for_test_archs("ndimage generic", &[a, b, c]);
    }

    /// The Fourier filters' two kernels over every input and output dtype
    /// pair they take, in one program.
    #[test]
    fn fourier_kernels_compile() {
        use gpu_array::DType;
        use gpu_array::elementwise::{ArgInfo, IndexWidth, LayoutClass, render_program};
        if nvrtc_or_skip().is_none() {
            return;
        }
        let raw = |dtype| ArgInfo::Array { dtype, ndim: 1 };
        let int = ArgInfo::Scalar(gpu_array::dtype::Operand::Scalar(
            gpu_array::dtype::ScalarKind::Int,
        ));
        let mut specs = Vec::new();
        for x in [
            DType::Bool,
            DType::UInt8,
            DType::Int64,
            DType::Float32,
            DType::Float64,
            DType::Complex64,
            DType::Complex128,
        ] {
            for y in [
                DType::Float32,
                DType::Float64,
                DType::Complex64,
                DType::Complex128,
            ] {
                if x.is_complex() && !y.is_complex() {
                    continue;
                }
                let k = crate::fourier::kernel(x.is_complex()).unwrap();
                let ins = [
                    ArgInfo::array(x),
                    raw(DType::Float64),
                    raw(DType::Int64),
                    int,
                    int,
                ];
                let layout = LayoutClass::Strided { ndim: 2 };
                let mut spec = k
                    .spec(&ins, &[ArgInfo::array(y)], layout, IndexWidth::I64)
                    .unwrap();
                // One program holds them all: each its own name.
                spec.name = format!("{}_{}_{}", spec.name, x.name(), y.name());
                specs.push(spec);
            }
        }
        let src = render_program(&specs);
        compile_for_test_archs("ndimage fourier", &[gpu_array::kernels::request(src)]);
    }

    #[test]
    fn binary_morphology_kernel_compiles() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        compile_for_test_archs(
            "ndimage binary morphology",
            &[crate::morphology::kernels::program_request()],
        );
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

    #[test]
    fn distance_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        compile_for_test_archs(
            "ndimage distance transforms",
            &[crate::distance::kernels::program_request()],
        );
    }
}
