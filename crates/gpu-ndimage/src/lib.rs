//! gpu-ndimage: Cuprum's `cupyx.scipy.ndimage`, multi-dimensional image
//! processing on the GPU with SciPy's names and semantics.
//!
//! What it holds so far:
//!
//! - [`Mode`] and [`map_index`]: SciPy's boundary modes, the same
//!   arithmetic on the host and on the device (`kernels/boundary.cuh`).
#![deny(unsafe_code)]

mod filters;
mod kernels;
mod mode;
mod output;
mod raw;
mod weights;

pub use filters::{
    convolve1d, correlate1d, gaussian_filter, gaussian_filter1d, gaussian_gradient_magnitude,
    gaussian_laplace, generic_gradient_magnitude, generic_laplace, laplace, prewitt, sobel,
    uniform_filter, uniform_filter1d,
};
pub use mode::{Mode, map_index};
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
}
