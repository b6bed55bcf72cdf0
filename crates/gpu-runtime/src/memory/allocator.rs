//! The allocator choice: the process-wide allocator, a thread-local scope
//! over it, and the built-in allocators (CuPy's `set_allocator`,
//! `get_allocator`, `using_allocator`).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use gpu_sys::cuda;

use super::Memory;
use super::memory_pool::{default_pool_ref, direct_malloc, hooked_alloc};
use crate::scoped::{EntryId, Scoped};
use crate::{Device, Error, Result, Stream};

/// Something that hands out device memory. Implement it to plug your own
/// allocator in with [`set_allocator`] or [`using_allocator`]; wrap what you
/// allocate with [`Memory::from_raw_with_free`].
pub trait Allocator: Send + Sync {
    /// Allocates `size` bytes on `device` for use on `stream` (a stream of
    /// `device`). Size 0 should give a null pointer.
    ///
    /// # Errors
    /// Whatever prevents the allocation; [`Error::OutOfMemory`] when memory
    /// ran out.
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory>;
}

fn check_stream(operation: &'static str, device: Device, stream: &Stream) -> Result<()> {
    if stream.device() == device {
        Ok(())
    } else {
        Err(Error::DeviceMismatch {
            operation,
            what: "the stream",
            found: stream.device().ordinal(),
            expected: device.ordinal(),
        })
    }
}

/// The default: each device's default [`MemoryPool`](super::MemoryPool).
#[derive(Debug, Clone, Copy, Default)]
pub struct PoolAllocator;

impl Allocator for PoolAllocator {
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory> {
        default_pool_ref(device)?.malloc_on(size, stream)
    }
}

/// No caching: `cuMemAlloc` for each allocation and `cuMemFree` at each drop
/// (CuPy's `set_allocator(None)`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DirectAllocator;

impl Allocator for DirectAllocator {
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory> {
        check_stream("DirectAllocator::malloc", device, stream)?;
        direct_malloc(size, device)
    }
}

/// The driver's stream-ordered allocator: `cuMemAllocAsync` on the stream,
/// and `cuMemFreeAsync` on the same stream at drop (CuPy's
/// `MemoryAsyncPool`). Needs a device with memory pools
/// ([`DeviceProperties::memory_pools_supported`](crate::DeviceProperties)).
#[derive(Debug, Clone, Copy, Default)]
pub struct AsyncAllocator;

impl Allocator for AsyncAllocator {
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory> {
        check_stream("AsyncAllocator::malloc", device, stream)?;
        let props = device.properties()?;
        if !props.memory_pools_supported {
            return Err(Error::Unsupported(format!(
                "device {} ({}) does not support stream-ordered allocation (cuMemAllocAsync)",
                device.ordinal(),
                props.name
            )));
        }
        if size == 0 {
            return Ok(Memory::empty(device));
        }
        let raw = stream.handle()?;
        let p = hooked_alloc(size, device, "cuMemAllocAsync", |p| {
            // SAFETY: writes one address; the stream belongs to the current context.
            unsafe { cuda::cuMemAllocAsync(p, size, raw) }
        })?;
        Ok(Memory::from_async(p, size, stream.clone()))
    }
}

/// `None`: the default [`PoolAllocator`].
static GLOBAL: RwLock<Option<Arc<dyn Allocator>>> = RwLock::new(None);
/// Whether `GLOBAL` holds something, so the default path skips the lock.
static CUSTOM: AtomicBool = AtomicBool::new(false);

thread_local! {
    static SCOPED: Scoped<Arc<dyn Allocator>> = const { Scoped::new() };
}

/// Sets the process-wide allocator (CuPy's `set_allocator`). Threads inside
/// a [`using_allocator`] scope keep their scope's allocator. Memory
/// allocated before keeps its own way of being freed.
///
/// ```no_run
/// use gpu_runtime::memory::{DirectAllocator, set_allocator};
/// use std::sync::Arc;
/// set_allocator(Arc::new(DirectAllocator)); // cupy.cuda.set_allocator(None)
/// ```
pub fn set_allocator(allocator: Arc<dyn Allocator>) {
    let mut g = GLOBAL.write().unwrap_or_else(|p| p.into_inner());
    *g = Some(allocator);
    CUSTOM.store(true, Ordering::Release);
}

/// The allocator [`alloc`] uses on this thread: the innermost
/// [`using_allocator`] scope's, else the process-wide one (a
/// [`PoolAllocator`] unless [`set_allocator`] changed it).
///
/// ```no_run
/// use gpu_runtime::memory::{DirectAllocator, get_allocator, using_allocator};
/// use gpu_runtime::{Device, Stream};
/// use std::sync::Arc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let _scope = using_allocator(Arc::new(DirectAllocator));
/// let a = get_allocator(); // the scope's
/// let m = a.malloc(64, Device::current()?, &Stream::current()?)?;
/// assert!(!m.is_pooled());
/// # Ok(()) }
/// ```
pub fn get_allocator() -> Arc<dyn Allocator> {
    if let Some(a) = SCOPED.with(Scoped::top) {
        return a;
    }
    let g = GLOBAL.read().unwrap_or_else(|p| p.into_inner());
    g.clone().unwrap_or_else(|| Arc::new(PoolAllocator))
}

/// Uses `allocator` for allocations on this thread until the guard drops
/// (CuPy's `with using_allocator(a):`). Scopes nest; the innermost live
/// one is used, even when an outer one is dropped first.
///
/// ```no_run
/// use gpu_runtime::alloc;
/// use gpu_runtime::memory::{DirectAllocator, using_allocator};
/// use std::sync::Arc;
/// # fn main() -> gpu_runtime::Result<()> {
/// {
///     let _scope = using_allocator(Arc::new(DirectAllocator)); // with using_allocator(...):
///     assert!(!alloc(64)?.is_pooled());
/// }
/// assert!(alloc(64)?.is_pooled());
/// # Ok(()) }
/// ```
#[must_use = "the allocator is used only while the guard lives"]
pub fn using_allocator(allocator: Arc<dyn Allocator>) -> AllocatorGuard {
    AllocatorGuard {
        id: SCOPED.with(|s| s.push(allocator)),
        _not_send: PhantomData,
    }
}

/// Ends its [`using_allocator`] scope when dropped.
#[derive(Debug)]
pub struct AllocatorGuard {
    id: EntryId,
    _not_send: PhantomData<*const ()>,
}

impl Drop for AllocatorGuard {
    fn drop(&mut self) {
        // The allocator is dropped after the stack is released: its drop
        // may allocate. At thread exit the stack may be gone already.
        let allocator = SCOPED.try_with(|s| s.remove(self.id));
        drop(allocator);
    }
}

/// Allocates `size` bytes on the current device for its current stream,
/// with the thread's allocator (CuPy's `cupy.cuda.alloc`). Size 0 gives a
/// null pointer.
///
/// ```no_run
/// use gpu_runtime::memory::alloc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let m = alloc(1024)?; // 1 KiB on the current device, from its pool
/// # Ok(()) }
/// ```
///
/// # Errors
/// No device, [`Error::OutOfMemory`], or the allocator's error.
pub fn alloc(size: usize) -> Result<Memory> {
    let device = Device::current()?;
    alloc_on(size, &Stream::current_on(device))
}

/// Allocates `size` bytes on `stream`'s device for use on `stream`, with
/// the thread's allocator.
///
/// ```no_run
/// use gpu_runtime::Stream;
/// use gpu_runtime::memory::alloc_on;
/// # fn main() -> gpu_runtime::Result<()> {
/// let s = Stream::new()?;
/// let m = alloc_on(4096, &s)?; // from `s`'s arena of the pool
/// m.memset(0, &s)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::OutOfMemory`], or the allocator's error.
pub fn alloc_on(size: usize, stream: &Stream) -> Result<Memory> {
    let device = stream.device();
    if SCOPED.with(Scoped::is_empty) && !CUSTOM.load(Ordering::Acquire) {
        return PoolAllocator.malloc(size, device, stream);
    }
    get_allocator().malloc(size, device, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An allocator told apart by identity; never asked to allocate here.
    struct Tag;

    impl Allocator for Tag {
        fn malloc(&self, _: usize, _: Device, _: &Stream) -> Result<Memory> {
            unreachable!("host-only test")
        }
    }

    fn is(a: &Arc<dyn Allocator>) -> bool {
        Arc::ptr_eq(&get_allocator(), a)
    }

    #[test]
    fn scopes_nest_and_survive_out_of_order_drops() {
        let (x, y, z): (Arc<dyn Allocator>, Arc<dyn Allocator>, Arc<dyn Allocator>) =
            (Arc::new(Tag), Arc::new(Tag), Arc::new(Tag));
        let gx = using_allocator(x.clone());
        let gy = using_allocator(y.clone());
        assert!(is(&y));
        // Popping the top entry for the outer guard would leave x here.
        drop(gx);
        assert!(is(&y));
        let gz = using_allocator(z.clone());
        assert!(is(&z));
        drop(gy);
        assert!(is(&z));
        drop(gz);
        assert!(!is(&x) && !is(&y) && !is(&z), "no scope is left");
    }

    #[test]
    fn a_dropped_scope_releases_its_allocator() {
        let x: Arc<dyn Allocator> = Arc::new(Tag);
        let g = using_allocator(x.clone());
        assert_eq!(Arc::strong_count(&x), 2);
        drop(g);
        assert_eq!(Arc::strong_count(&x), 1);
    }
}
