//! Keeping the current context while CUDA libraries create and destroy
//! their handles.
//!
//! cuBLAS, cuSOLVER, cuSPARSE and cuRAND may make a context current when a
//! handle is created (their runtime's first use) and need their device's
//! context current when it is destroyed, which for cached handles happens
//! in thread-local destructors at thread exit, after the runtime's own
//! thread-locals may be gone. These helpers therefore go through the
//! driver alone, and always give back the context they found: other
//! destructors and foreign code on the thread may rely on it.

use gpu_sys::cuda;

use crate::Device;

/// The context current on this thread (null when none, or when the driver
/// cannot say).
fn current() -> cuda::CUcontext {
    let mut ctx = std::ptr::null_mut();
    // SAFETY: writes one handle.
    match unsafe { cuda::cuCtxGetCurrent(&mut ctx) } {
        Ok(r) if r.0 == 0 => ctx,
        _ => std::ptr::null_mut(),
    }
}

fn set(ctx: cuda::CUcontext) -> bool {
    // SAFETY: a context that was current on this thread (so still alive),
    // a retained primary context, or null (no context).
    matches!(unsafe { cuda::cuCtxSetCurrent(ctx) }, Ok(r) if r.0 == 0)
}

/// Runs `f`, then makes current again the context that was current before
/// if `f` changed it.
///
/// ```no_run
/// // Creating a library handle must not change the caller's context.
/// let status = gpu_runtime::library_context::keeping_context(|| 0);
/// assert_eq!(status, 0);
/// ```
pub fn keeping_context<T>(f: impl FnOnce() -> T) -> T {
    let found = current();
    let out = f();
    if current() != found {
        set(found);
    }
    out
}

/// Makes the primary context of device `ordinal` current through the
/// driver alone (safe at thread exit); false when that fails. Callers wrap
/// it in [`keeping_context`] so the context found comes back after.
///
/// ```no_run
/// use gpu_runtime::library_context::{keeping_context, make_current};
/// keeping_context(|| {
///     if make_current(0) {
///         // destroy a handle of device 0 here
///     }
/// });
/// ```
pub fn make_current(ordinal: i32) -> bool {
    let Ok(ctx) = Device::new(ordinal).and_then(|d| d.context()) else {
        return false;
    };
    current() == ctx || set(ctx)
}
