//! CuPy's `cupy.fft.config`: the plan caches, one per device and shared
//! by every thread (see [`PlanCache`] for the bounds and what a key
//! holds), and the multi-GPU switch ([`set_cufft_gpus`], [`use_multi_gpus`]).

use gpu_array::Result;
use gpu_runtime::Device;

pub use crate::cache::PlanCache;
pub use crate::multi::{Gpus, set_cufft_gpus, use_multi_gpus};

/// The plan cache of the current device (CuPy's `get_plan_cache()`).
///
/// ```no_run
/// let cache = gpu_fft::config::get_plan_cache()?;
/// cache.set_size(4)?;
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// No device, or a malformed `CUPRUM_FFT_PLAN_CACHE_SIZE` or
/// `CUPRUM_FFT_PLAN_CACHE_MEMSIZE`.
pub fn get_plan_cache() -> Result<std::sync::Arc<PlanCache>> {
    crate::cache::cache_of(Device::current()?)
}

/// The plan cache of `device`.
///
/// ```no_run
/// let cache = gpu_fft::config::get_plan_cache_of(gpu_runtime::Device::new(0)?)?;
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// As [`get_plan_cache`].
pub fn get_plan_cache_of(device: Device) -> Result<std::sync::Arc<PlanCache>> {
    crate::cache::cache_of(device)
}

/// The description of every device's cache made so far (CuPy's
/// `show_plan_cache_info()`, returned instead of printed).
///
/// ```no_run
/// println!("{}", gpu_fft::config::show_plan_cache_info());
/// ```
pub fn show_plan_cache_info() -> String {
    crate::cache::all_caches()
        .iter()
        .map(|c| c.show_info())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why norm factors are applied in a pass of their own rather than in
/// cuFFT's store (a JIT callback), when a callback plan failed on this
/// machine: the first failure's message. `None` while callbacks work or
/// were never needed.
///
/// ```no_run
/// if let Some(why) = gpu_fft::config::callback_error() {
///     eprintln!("norm scaling takes a pass: {why}");
/// }
/// ```
pub fn callback_error() -> Option<&'static str> {
    crate::callback::why_disabled()
}
