//! gpu-ndimage on a real GPU, one test binary: the boundary modes' device
//! arithmetic against the host's (`modes`), and every filter
//! (`filters`, `fourier`), interpolation (`interp`), morphology
//! (`morphology`, `binary`), measurement (`measurements`) and distance
//! transform (`distance`) against SciPy's outputs. Each test skips with a
//! reason without a GPU.

mod binary;
mod distance;
mod filters;
mod fourier;
mod interp;
mod measurements;
mod modes;
mod morphology;

/// The device, or `None` (the test then returns early, having printed why).
fn gpu() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}
