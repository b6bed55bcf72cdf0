//! gpu-ndimage: Cuprum's `cupyx.scipy.ndimage`, multi-dimensional image
//! processing on the GPU with SciPy's names and semantics.
//!
//! What it holds so far:
//!
//! - [`Mode`] and [`map_index`]: SciPy's boundary modes, the same
//!   arithmetic on the host and on the device (`kernels/boundary.cuh`).
//! - Interpolation ([`mod@interp`]): [`spline_filter1d`], [`spline_filter`],
//!   [`map_coordinates`], [`affine_transform`], [`shift`], [`zoom`]
//!   (`grid_mode` too), [`rotate`] and [`geometric_transform`] (the mapping
//!   as CUDA device source), orders 0 to 5, every mode, SciPy's results.
#![deny(unsafe_code)]

pub mod interp;
mod mode;
mod raw;

pub use interp::{
    AffineMatrix, InterpParams, Output, affine_transform, geometric_transform, map_coordinates,
    rotate, shift, spline_filter, spline_filter1d, zoom,
};
pub use mode::{Mode, map_index};

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
}
