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

/// A library handle (cuSPARSE's, cusolverSp's, ...) of one device, owned
/// by one thread's cache ([`HandleCache`]) and bound to the stream of its
/// last use. Dropping it (at thread exit, from the cache) destroys it in
/// its device's context with the caller's context given back.
#[derive(Debug)]
pub struct ThreadHandle<H: Copy> {
    raw: H,
    ordinal: i32,
    stream: Option<u64>,
    destroy: fn(H),
}

impl<H: Copy> Drop for ThreadHandle<H> {
    fn drop(&mut self) {
        // A failure at thread exit has nowhere to go.
        keeping_context(|| {
            if make_current(self.ordinal) {
                (self.destroy)(self.raw);
            }
        });
    }
}

/// One thread's handles of a library, by device ordinal; declare it in a
/// `thread_local!` and pass it to [`thread_handle`].
pub type HandleCache<H> = std::cell::RefCell<std::collections::HashMap<i32, ThreadHandle<H>>>;

/// The calls that make, destroy and bind a library's handle.
#[derive(Debug, Clone, Copy)]
pub struct HandleCalls<H, E> {
    /// Creates a handle (run with the device's context current, which is
    /// kept current after).
    pub create: fn() -> Result<H, E>,
    /// Destroys a handle made by `create` (run once, in its device's
    /// context).
    pub destroy: fn(H),
    /// Binds a handle to a stream.
    pub set_stream: fn(H, gpu_sys::cuda::CUstream) -> Result<(), E>,
}

/// This thread's handle of `stream`'s device from `cache`, created on
/// first use and re-bound only when the stream changes (by
/// [`crate::Stream::id`], which stays unique when the driver reuses an
/// address). CuPy keeps its library handles the same way.
///
/// ```no_run
/// use gpu_runtime::library_context::{HandleCache, HandleCalls, thread_handle};
/// thread_local! { static CACHE: HandleCache<usize> = Default::default(); }
/// let calls: HandleCalls<usize, gpu_runtime::Error> = HandleCalls {
///     create: || Ok(1),
///     destroy: |_| {},
///     set_stream: |_, _| Ok(()),
/// };
/// let h = thread_handle(&CACHE, &gpu_runtime::Stream::current()?, calls)?;
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// The device cannot be bound; `create` or `set_stream` fails.
pub fn thread_handle<H: Copy, E: From<crate::Error>>(
    cache: &'static std::thread::LocalKey<HandleCache<H>>,
    stream: &crate::Stream,
    calls: HandleCalls<H, E>,
) -> Result<H, E> {
    let dev = stream.device();
    dev.bind()?;
    let ordinal = dev.ordinal();
    cache.with(|cell| {
        let mut map = cell.borrow_mut();
        if let std::collections::hash_map::Entry::Vacant(slot) = map.entry(ordinal) {
            // The library may touch the context (its runtime's first use);
            // the device's context, bound above, stays current.
            let raw = keeping_context(calls.create)?;
            slot.insert(ThreadHandle {
                raw,
                ordinal,
                stream: None,
                destroy: calls.destroy,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            (calls.set_stream)(h.raw, stream.handle()?)?;
            h.stream = Some(stream.id());
        }
        Ok(h.raw)
    })
}
