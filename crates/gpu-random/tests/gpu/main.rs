//! gpu-random on a real GPU, one test binary: the host twin against the
//! GPU bit for bit and on two grid sizes (`streams`), each distribution
//! against its CDF or pmf with fixed seeds (`stats`), NumPy's errors
//! (`errors`) and the legacy RandomState (`legacy`). Each test skips with
//! a reason without a GPU.

mod errors;
mod legacy;
mod stats;
mod streams;

/// The device, or `None` (the test then returns early, having printed why).
fn gpu() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}
