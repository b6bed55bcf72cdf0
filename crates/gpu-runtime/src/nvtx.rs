//! NVTX marks and ranges for Nsight timelines, and the profiler switch
//! (CuPy's `cupyx.profiler.time_range` and `cupy.cuda.profiler`).
//!
//! NVTX is optional: when no NVTX library is found the calls do nothing and
//! return `Ok`, as NVTX itself does without a tool attached.
//!
//! CuPy's `cupy.cuda.profiler.initialize(config_file, output_file,
//! output_mode)` has no counterpart, on purpose: it wraps
//! `cudaProfilerInitialize`/`cuProfilerInitialize`, which configured the
//! legacy command-line profiler. CUDA 12.0 removed both (the CUDA 13
//! headers Cuprum's bindings come from no longer declare them), so there
//! is nothing to call; Nsight Systems and Nsight Compute take their
//! configuration on their own command lines, and [`profiler_start`] /
//! [`profiler_stop`] mark the range they capture
//! (`nsys --capture-range=cudaProfilerApi`).

use std::ffi::CString;
use std::marker::PhantomData;

use gpu_sys::nvtx;

use crate::driver::check;
use crate::{Error, Result};

fn message(msg: &str) -> Result<CString> {
    CString::new(msg)
        .map_err(|_| Error::InvalidArgument(format!("NVTX message contains a NUL byte: {msg:?}")))
}

fn attributes(msg: &CString, argb: u32) -> nvtx::nvtxEventAttributes_t {
    let mut a = nvtx::nvtxEventAttributes_t {
        version: 2, // NVTX_VERSION
        size: std::mem::size_of::<nvtx::nvtxEventAttributes_t>() as u16,
        colorType: 1, // NVTX_COLOR_ARGB
        color: argb,
        messageType: 1, // NVTX_MESSAGE_TYPE_ASCII
        ..Default::default()
    };
    a.message.ascii = msg.as_ptr();
    a
}

/// Whether an NVTX library was found (marks are no-ops otherwise).
///
/// ```
/// use gpu_runtime::nvtx;
/// if !nvtx::nvtx_available() {
///     nvtx::mark("not recorded")?; // a no-op without an NVTX library
/// }
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
pub fn nvtx_available() -> bool {
    nvtx::LIBRARY.is_available()
}

/// Puts a point marker on the timeline.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::mark("checkpoint")?; // cupyx.profiler / nvtx.Mark
/// # Ok(()) }
/// ```
///
/// # Errors
/// The message contains a NUL byte.
pub fn mark(msg: &str) -> Result<()> {
    let m = message(msg)?;
    // SAFETY: `m` outlives the call; a missing library is ignored.
    let _ = unsafe { nvtx::nvtxMarkA(m.as_ptr()) };
    Ok(())
}

/// Puts a coloured point marker (`argb` as 0xAARRGGBB) on the timeline.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::mark_with_color("checkpoint", 0xff00_ff00)?; // a green marker
/// # Ok(()) }
/// ```
///
/// # Errors
/// The message contains a NUL byte.
pub fn mark_with_color(msg: &str, argb: u32) -> Result<()> {
    let m = message(msg)?;
    let a = attributes(&m, argb);
    // SAFETY: `a` and `m` outlive the call.
    let _ = unsafe { nvtx::nvtxMarkEx(&a) };
    Ok(())
}

/// Opens a nested range; close it with [`range_pop`]. Returns the nesting
/// depth NVTX reports (negative or 0 without a tool).
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::range_push("step")?;
/// // ... work ...
/// nvtx::range_pop();
/// # Ok(()) }
/// ```
///
/// # Errors
/// The message contains a NUL byte.
pub fn range_push(msg: &str) -> Result<i32> {
    let m = message(msg)?;
    // SAFETY: `m` outlives the call.
    Ok(unsafe { nvtx::nvtxRangePushA(m.as_ptr()) }.unwrap_or(-1))
}

/// Opens a nested, coloured range.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::range_push_with_color("load", 0xffff_0000)?; // a red range
/// // ... work ...
/// nvtx::range_pop();
/// # Ok(()) }
/// ```
///
/// # Errors
/// The message contains a NUL byte.
pub fn range_push_with_color(msg: &str, argb: u32) -> Result<i32> {
    let m = message(msg)?;
    let a = attributes(&m, argb);
    // SAFETY: `a` and `m` outlive the call.
    Ok(unsafe { nvtx::nvtxRangePushEx(&a) }.unwrap_or(-1))
}

/// Closes the innermost range opened by this thread.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// let depth = nvtx::range_push("outer")?;
/// nvtx::range_pop(); // closes "outer"
/// # Ok(()) }
/// ```
pub fn range_pop() -> i32 {
    // SAFETY: no arguments.
    unsafe { nvtx::nvtxRangePop() }.unwrap_or(-1)
}

/// A range open for the guard's lifetime (CuPy's `time_range`).
#[derive(Debug)]
#[must_use = "the range closes when the guard drops"]
pub struct RangeGuard {
    _not_send: PhantomData<*const ()>,
}

/// Opens a range that closes when the returned guard drops.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// let _r = nvtx::time_range("solve", None)?; // ends when dropped, as cupyx.profiler.time_range
/// # Ok(()) }
/// ```
///
/// # Errors
/// The message contains a NUL byte.
pub fn time_range(msg: &str, argb: Option<u32>) -> Result<RangeGuard> {
    match argb {
        Some(c) => range_push_with_color(msg, c)?,
        None => range_push(msg)?,
    };
    Ok(RangeGuard {
        _not_send: PhantomData,
    })
}

impl Drop for RangeGuard {
    fn drop(&mut self) {
        range_pop();
    }
}

/// Starts the CUDA profiler's collection (`cuProfilerStart`).
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::profiler_start()?; // run under `nsys --capture-range=cudaProfilerApi`
/// // ... the part to profile ...
/// nvtx::profiler_stop()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The driver failed.
pub fn profiler_start() -> Result<()> {
    crate::driver::init()?;
    crate::Device::current()?.bind()?;
    // SAFETY: no arguments.
    check("cuProfilerStart", unsafe {
        gpu_sys::cuda::cuProfilerStart()
    })
}

/// Stops the CUDA profiler's collection (`cuProfilerStop`).
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// nvtx::profiler_start()?;
/// // ... the part to profile ...
/// nvtx::profiler_stop()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The driver failed.
pub fn profiler_stop() -> Result<()> {
    crate::Device::current()?.bind()?;
    // SAFETY: no arguments.
    check("cuProfilerStop", unsafe { gpu_sys::cuda::cuProfilerStop() })
}

/// Profiles the guard's lifetime (CuPy's `cupyx.profiler.profile()`).
#[derive(Debug)]
#[must_use = "profiling stops when the guard drops"]
pub struct ProfileGuard(());

/// Starts profiling until the returned guard drops.
///
/// ```no_run
/// use gpu_runtime::nvtx;
/// # fn main() -> gpu_runtime::Result<()> {
/// {
///     let _p = nvtx::profile()?; // with cupyx.profiler.profile():
///     // ... the part to profile ...
/// }
/// # Ok(()) }
/// ```
///
/// # Errors
/// The driver failed.
pub fn profile() -> Result<ProfileGuard> {
    profiler_start()?;
    Ok(ProfileGuard(()))
}

impl Drop for ProfileGuard {
    fn drop(&mut self) {
        let _ = profiler_stop();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nul_in_message_is_an_error() {
        assert!(super::mark("a\0b").is_err());
        // Without a tool attached these are no-ops, library or not.
        super::mark("cuprum test").unwrap();
        let _g = super::time_range("cuprum range", Some(0xff00ff00)).unwrap();
    }
}
