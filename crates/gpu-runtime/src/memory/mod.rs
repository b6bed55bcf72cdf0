//! Device and pinned host memory: the RAII handle [`Memory`], the caching
//! pools, the allocator choice and memory hooks.
//!
//! | CuPy                                        | Cuprum                                   |
//! |---------------------------------------------|------------------------------------------|
//! | `cupy.cuda.alloc(n)`                        | [`alloc`], [`alloc_on`]                  |
//! | `cupy.cuda.Memory`, `MemoryPointer`         | [`Memory`], [`Memory::ptr`]              |
//! | `cupy.cuda.UnownedMemory(ptr, size, owner)` | [`UnownedMemory`], [`Memory::from_raw`]  |
//! | `cupy.cuda.MemoryPointer(mem, offset)`      | [`MemoryPointer`]                        |
//! | `runtime.free(ptr)`                         | [`Memory::free`] (or the drop)           |
//! | `runtime.mallocManaged`, `memPrefetchAsync`, `memAdvise` | [`malloc_managed`], [`Memory::prefetch_async`], [`Memory::advise`] |
//! | `runtime.hostRegister`, `hostUnregister`    | [`HostRegistration`]                     |
//! | `runtime.hostAlloc`, `freeHost`             | [`HostAllocation`]                       |
//! | `cupy.get_default_memory_pool()`            | [`MemoryPool::default_pool`]             |
//! | `pool.used_bytes()`, `total_bytes()`, `free_bytes()`, `n_free_blocks()`, `free_all_blocks()` | the same names on [`MemoryPool`] |
//! | `pool.set_limit(size=)`, `get_limit()`      | [`MemoryPool::set_limit`], [`MemoryPool::get_limit`] |
//! | `CUPY_GPU_MEMORY_LIMIT`                     | `CUPRUM_GPU_MEMORY_LIMIT` (bytes or `"50%"`) |
//! | `cupy.get_default_pinned_memory_pool()`     | [`PinnedMemoryPool::default_pool`]       |
//! | `cupy.cuda.alloc_pinned_memory(n)`          | [`alloc_pinned_memory`], [`PinnedMemoryPool::malloc`] |
//! | `cupy.cuda.set_pinned_memory_allocator`     | [`set_pinned_memory_allocator`]          |
//! | `cupy.cuda.PinnedMemoryPointer`             | [`PinnedMemoryPointer`]                  |
//! | `cupy.cuda.set_allocator`, `get_allocator`, `using_allocator` | [`set_allocator`], [`get_allocator`], [`using_allocator`] |
//! | `cupy.cuda.MemoryAsyncPool`                 | [`AsyncAllocator`]                       |
//! | `set_allocator(None)` (plain `cudaMalloc`)  | [`DirectAllocator`]                      |
//! | `cupy.cuda.MemoryHook`, `memory_hooks.DebugPrintHook` | [`MemoryHook`], [`DebugPrintHook`], [`with_hook`] |
//! | `torch.Tensor.record_stream`                | [`Memory::record_stream`]                |
//!
//! A pooled block returns to the arena of the stream it was allocated on, and
//! later allocations on that stream may reuse it at once: stream order makes
//! that safe. A block that another stream used must be announced with
//! [`Memory::record_stream`]; at its free the pool records an event on each
//! such stream and reuses the block only once those events have completed.

mod allocator;
mod hooks;
mod host;
mod managed;
mod memory_pool;
mod pinned;
mod pointer;
pub(crate) mod pool;
mod unowned;

use std::any::Any;
use std::sync::{Arc, Mutex};

use gpu_sys::cuda;

pub use allocator::{
    Allocator, AllocatorGuard, AsyncAllocator, DirectAllocator, PoolAllocator, alloc, alloc_on,
    get_allocator, set_allocator, using_allocator,
};
pub use hooks::{DebugPrintHook, HookGuard, HookInfo, MemoryHook, with_hook};
pub use host::{HostAllocFlags, HostAllocation, HostRegisterFlags, HostRegistration};
pub use managed::{ManagedAttach, MemAdvice, MemLocation, malloc_managed, malloc_managed_on};
pub use memory_pool::MemoryPool;
pub use pinned::{
    DirectPinnedAllocator, PinnedMemory, PinnedMemoryAllocator, PinnedMemoryPointer,
    PinnedMemoryPool, alloc_pinned_memory, get_pinned_memory_allocator,
    set_pinned_memory_allocator,
};
pub use pointer::MemoryPointer;
pub use pool::ROUND;
pub use unowned::UnownedMemory;

use crate::driver::check;
use crate::{Device, DevicePtr, Event, EventOptions, Result, Stream};
use hooks::HookEvent;
use pool::{Block, Fence};

/// How a [`Memory`] gives its memory back.
enum Owner {
    /// Size 0: nothing was allocated.
    Empty,
    /// A block of a [`MemoryPool`], returned to the arena of `stream`
    /// (held so that the stream, and its arena, outlive the block).
    Pool {
        pool: Arc<memory_pool::PoolShared>,
        block: Block,
        stream: Stream,
    },
    /// `cuMemAlloc`: `cuMemFree`.
    Direct,
    /// `cuMemAllocManaged`: `cuMemFree`.
    Managed,
    /// Another process's memory opened from an IPC handle: the mapping of
    /// its allocation at `base` is closed with `cuIpcCloseMemHandle`.
    Ipc { base: u64 },
    /// `cuMemAllocAsync` on `stream`: `cuMemFreeAsync` on the same stream.
    Async { stream: Stream },
    /// A user allocator's release function.
    Custom(Mutex<Option<FreeFn>>),
    /// Someone else's memory, kept alive by `owner` when given.
    Unowned(#[allow(dead_code)] Option<Arc<dyn Any + Send + Sync>>),
}

type FreeFn = Box<dyn FnOnce(DevicePtr, usize) + Send>;

/// Device memory, released (or returned to its pool) on drop. Users and
/// arrays hold it in an `Arc` and pass [`Memory::ptr`] to kernels.
///
/// Device memory is outside Rust's aliasing model: methods that write into
/// it take `&self`, and ordering is the stream's business.
pub struct Memory {
    ptr: DevicePtr,
    size: usize,
    device: Device,
    owner: Owner,
    /// Streams other than the allocating one that use the memory.
    streams: Mutex<Vec<Stream>>,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.owner {
            Owner::Empty => "empty",
            Owner::Pool { .. } => "pool",
            Owner::Direct => "direct",
            Owner::Managed => "managed",
            Owner::Ipc { .. } => "ipc",
            Owner::Async { .. } => "async",
            Owner::Custom(_) => "custom",
            Owner::Unowned(_) => "unowned",
        };
        f.debug_struct("Memory")
            .field("ptr", &format_args!("{:#x}", self.ptr.0))
            .field("size", &self.size)
            .field("device", &self.device.ordinal())
            .field("kind", &kind)
            .finish()
    }
}

impl Memory {
    fn new(ptr: DevicePtr, size: usize, device: Device, owner: Owner) -> Memory {
        Memory {
            ptr,
            size,
            device,
            owner,
            streams: Mutex::new(Vec::new()),
        }
    }

    /// Zero bytes at the null address.
    pub(crate) fn empty(device: Device) -> Memory {
        Memory::new(DevicePtr::NULL, 0, device, Owner::Empty)
    }

    /// Wraps memory that Cuprum did not allocate (CuPy's `UnownedMemory`).
    /// Dropping the `Memory` frees nothing; it drops `owner`, which may be
    /// whatever keeps the memory alive (another library's buffer handle).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Memory, alloc};
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let owner = Arc::new(alloc(256)?); // memory of "another library"
    /// // SAFETY: `owner` keeps the 256 bytes alive as long as `view` holds it.
    /// let view = unsafe { Memory::from_raw(owner.ptr(), 256, Device::current()?, Some(owner.clone())) };
    /// assert_eq!(view.ptr(), owner.ptr());
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// `ptr .. ptr + size` must be device memory of `device` (or memory the
    /// device can access), valid while the returned value and any copy of
    /// its pointer are in use; when `owner` is `None` the caller keeps it
    /// alive by other means.
    pub unsafe fn from_raw(
        ptr: DevicePtr,
        size: usize,
        device: Device,
        owner: Option<Arc<dyn Any + Send + Sync>>,
    ) -> Memory {
        Memory::new(ptr, size, device, Owner::Unowned(owner))
    }

    /// Wraps memory allocated by a user [`Allocator`]; `free(ptr, size)` runs
    /// once, when the `Memory` drops (after the streams given to
    /// [`record_stream`](Self::record_stream) have finished).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Memory, alloc};
    /// use std::sync::Mutex;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let backing = alloc(512)?;
    /// let ptr = backing.ptr();
    /// let keep = Mutex::new(Some(backing));
    /// // SAFETY: `backing` stays alive in the closure until `free` runs.
    /// let m = unsafe {
    ///     Memory::from_raw_with_free(ptr, 512, Device::current()?, move |_, _| drop(keep.lock().unwrap().take()))
    /// };
    /// assert_eq!(m.size(), 512);
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// As for [`from_raw`](Self::from_raw): `ptr .. ptr + size` must be valid
    /// device memory of `device` until `free` is called, and `free` must be
    /// the right way to release it.
    pub unsafe fn from_raw_with_free(
        ptr: DevicePtr,
        size: usize,
        device: Device,
        free: impl FnOnce(DevicePtr, usize) + Send + 'static,
    ) -> Memory {
        Memory::new(
            ptr,
            size,
            device,
            Owner::Custom(Mutex::new(Some(Box::new(free)))),
        )
    }

    pub(crate) fn from_pool(
        pool: Arc<memory_pool::PoolShared>,
        block: Block,
        size: usize,
        stream: Stream,
    ) -> Memory {
        let device = stream.device();
        Memory::new(
            DevicePtr(block.addr),
            size,
            device,
            Owner::Pool {
                pool,
                block,
                stream,
            },
        )
    }

    pub(crate) fn from_direct(ptr: DevicePtr, size: usize, device: Device) -> Memory {
        Memory::new(ptr, size, device, Owner::Direct)
    }

    pub(crate) fn from_managed(ptr: DevicePtr, size: usize, device: Device) -> Memory {
        Memory::new(ptr, size, device, Owner::Managed)
    }

    /// `ptr` lies `ptr - base` bytes into the allocation that
    /// `cuIpcOpenMemHandle` mapped at `base` in `device`'s context.
    pub(crate) fn from_ipc(base: u64, ptr: DevicePtr, size: usize, device: Device) -> Memory {
        Memory::new(ptr, size, device, Owner::Ipc { base })
    }

    pub(crate) fn from_async(ptr: DevicePtr, size: usize, stream: Stream) -> Memory {
        let device = stream.device();
        Memory::new(ptr, size, device, Owner::Async { stream })
    }

    /// The device address (null for size 0).
    ///
    /// ```no_run
    /// use gpu_runtime::{DevicePtr, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_ne!(alloc(16)?.ptr(), DevicePtr::NULL);
    /// assert_eq!(alloc(0)?.ptr(), DevicePtr::NULL);
    /// # Ok(()) }
    /// ```
    #[inline]
    pub fn ptr(&self) -> DevicePtr {
        self.ptr
    }

    /// The size asked for, in bytes (a pooled block may be larger: see
    /// [`ROUND`]).
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(alloc(100)?.size(), 100); // the pool's block is 512 bytes
    /// # Ok(()) }
    /// ```
    #[inline]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The device the memory is on.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(alloc(16)?.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    #[inline]
    pub fn device(&self) -> Device {
        self.device
    }

    /// Whether Cuprum allocated this memory as managed memory
    /// ([`malloc_managed`]); no driver call, so managed memory wrapped
    /// with [`Memory::from_raw`] answers `false` here (ask
    /// [`Memory::is_managed`] for the driver's word).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::malloc_managed;
    /// use gpu_runtime::{alloc, memory::ManagedAttach};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(!alloc(16)?.allocated_managed());
    /// assert!(malloc_managed(16, ManagedAttach::Global)?.allocated_managed());
    /// # Ok(()) }
    /// ```
    #[inline]
    pub fn allocated_managed(&self) -> bool {
        matches!(self.owner, Owner::Managed)
    }

    /// Whether this memory was opened from another process's IPC handle
    /// ([`Memory::from_ipc_handle`]).
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(!alloc(16)?.is_ipc());
    /// # Ok(()) }
    /// ```
    pub fn is_ipc(&self) -> bool {
        matches!(self.owner, Owner::Ipc { .. })
    }

    /// Whether this memory is a block of a [`MemoryPool`].
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(alloc(16)?.is_pooled()); // the default allocator is the pool
    /// # Ok(()) }
    /// ```
    pub fn is_pooled(&self) -> bool {
        matches!(self.owner, Owner::Pool { .. })
    }

    /// Declares that `stream` uses this memory (PyTorch's `record_stream`).
    /// When the memory is freed, work already queued on `stream` may still
    /// read or write it: a pool then reuses the block only after that work,
    /// the stream-ordered allocator frees it after that work, and other
    /// kinds wait for it in `drop`. Recording the allocating stream is a
    /// no-op in effect.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = alloc(1024)?;
    /// let other = Stream::new()?;
    /// m.memset(0, &other)?;
    /// m.record_stream(&other); // the pool reuses the block only after `other`'s work
    /// drop(m);
    /// # Ok(()) }
    /// ```
    pub fn record_stream(&self, stream: &Stream) {
        let mut s = self.streams.lock().unwrap_or_else(|p| p.into_inner());
        if !s.iter().any(|x| x.id() == stream.id()) {
            s.push(stream.clone());
        }
    }

    /// Whether the memory hooks see this memory's free (they saw its
    /// allocation): not for memory Cuprum did not allocate.
    fn is_hooked(&self) -> bool {
        !matches!(
            self.owner,
            Owner::Empty | Owner::Unowned(_) | Owner::Custom(_) | Owner::Ipc { .. }
        )
    }

    /// Frees the memory now and reports the driver's answer (CuPy's
    /// `runtime.free`); dropping it does the same but can only log a
    /// failure. Memory that the driver does not free directly (a pool
    /// block, a stream-ordered or user allocation, memory owned elsewhere)
    /// is released as its drop would.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{DirectAllocator, using_allocator};
    /// use gpu_runtime::alloc;
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let _direct = using_allocator(Arc::new(DirectAllocator));
    /// let m = alloc(1 << 20)?;
    /// m.free()?; // cuMemFree's answer, not a log line
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Waiting for the streams given to [`record_stream`](Self::record_stream)
    /// failed (the memory is then leaked rather than freed under them), or
    /// the driver failed.
    pub fn free(mut self) -> Result<()> {
        let call = match self.owner {
            Owner::Direct | Owner::Managed => "cuMemFree",
            Owner::Ipc { .. } => "cuIpcCloseMemHandle",
            _ => {
                drop(self);
                return Ok(());
            }
        };
        let streams = std::mem::take(self.streams.get_mut().unwrap_or_else(|p| p.into_inner()));
        let hooked = self.is_hooked();
        if hooked {
            hooks::call(HookEvent::FreePre, || self.hook_info());
        }
        // From here on the drop has nothing left to do, whatever happens.
        let owner = std::mem::replace(&mut self.owner, Owner::Empty);
        if let Err(e) = wait_streams(&streams) {
            return Err(crate::Error::InvalidArgument(format!(
                "{call}: waiting for the work on {:#x} ({} bytes) failed ({e}); the memory is \
                 not freed",
                self.ptr.0, self.size
            )));
        }
        self.device.bind()?;
        let r = match owner {
            // SAFETY: the driver allocated this address; the owner is now
            // Empty, so it is freed once.
            Owner::Ipc { base } => check(call, unsafe { cuda::cuIpcCloseMemHandle(base) }),
            // SAFETY: as above, for cuMemAlloc / cuMemAllocManaged.
            _ => check(call, unsafe { cuda::cuMemFree_v2(self.ptr.0) }),
        };
        if hooked {
            hooks::call(HookEvent::FreePost, || self.hook_info());
        }
        r
    }

    fn hook_info(&self) -> HookInfo {
        let pmem_id = match &self.owner {
            Owner::Pool { block, .. } => block.base,
            _ => self.ptr.0,
        };
        HookInfo {
            device_id: self.device.ordinal(),
            size: self.size,
            mem_size: match &self.owner {
                Owner::Pool { block, .. } => block.size,
                _ => self.size,
            },
            mem_ptr: self.ptr,
            pmem_id,
        }
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        let streams = std::mem::take(self.streams.get_mut().unwrap_or_else(|p| p.into_inner()));
        let hooked = self.is_hooked();
        if hooked {
            hooks::call(HookEvent::FreePre, || self.hook_info());
        }
        // Freeing before the work that uses the memory is done would let a
        // later allocation be written behind its back: where waiting for
        // that work fails, the memory is leaked instead (and said so).
        let leak = |what: &str, e: &crate::Error| {
            tracing::error!(
                "{what}: waiting for the work on {:#x} ({} bytes) failed ({e}); \
                 the memory is not freed",
                self.ptr.0,
                self.size
            );
        };
        match &mut self.owner {
            Owner::Empty => {}
            Owner::Pool {
                pool,
                block,
                stream,
            } => {
                let fences: Vec<DeviceFence> = streams
                    .iter()
                    .filter(|s| s.id() != stream.id())
                    .map(DeviceFence::after)
                    .collect();
                pool.release(block.addr, fences);
            }
            Owner::Direct | Owner::Managed => match wait_streams(&streams) {
                Ok(()) => {
                    let _ = self.device.bind();
                    // SAFETY: cuMemAlloc gave this address; it is freed once, here.
                    let _ = unsafe { cuda::cuMemFree_v2(self.ptr.0) };
                }
                Err(e) => leak("cuMemFree", &e),
            },
            Owner::Ipc { base } => match wait_streams(&streams) {
                Ok(()) => {
                    let _ = self.device.bind();
                    // SAFETY: cuIpcOpenMemHandle mapped `base`; closed once, here.
                    let _ = unsafe { cuda::cuIpcCloseMemHandle(*base) };
                }
                Err(e) => leak("cuIpcCloseMemHandle", &e),
            },
            Owner::Async { stream } => {
                // The free is ordered after the work queued so far on the
                // allocating stream and, through events, on the others.
                let free_on = stream.ordering_stream();
                let mut ordered = Ok(());
                for s in streams.iter().filter(|s| s.id() != stream.id()) {
                    let waited = record_event(&s.ordering_stream())
                        .and_then(|e| free_on.wait_event(&e))
                        .or_else(|_| sync_stream(s));
                    if let Err(e) = waited {
                        ordered = Err(e);
                        break;
                    }
                }
                match ordered {
                    Ok(()) => {
                        let _ = stream.device().bind();
                        // SAFETY: cuMemAllocAsync gave the address; freed once,
                        // in the allocating stream's order (or after all
                        // blocking streams, from another thread).
                        let _ = unsafe { cuda::cuMemFreeAsync(self.ptr.0, free_on.raw()) };
                    }
                    Err(e) => leak("cuMemFreeAsync", &e),
                }
            }
            Owner::Custom(free) => {
                let free = free.get_mut().unwrap_or_else(|p| p.into_inner()).take();
                match wait_streams(&streams) {
                    Ok(()) => {
                        if let Some(f) = free {
                            f(self.ptr, self.size);
                        }
                    }
                    Err(e) => {
                        leak("a custom allocator's free", &e);
                        std::mem::forget(free);
                    }
                }
            }
            Owner::Unowned(owner) => {
                if let Err(e) = wait_streams(&streams) {
                    leak("unowned memory", &e);
                    std::mem::forget(owner.take());
                }
            }
        }
        if hooked {
            hooks::call(HookEvent::FreePost, || self.hook_info());
        }
    }
}

/// Records a new event (without timing) at the current end of `stream`,
/// created on the stream's device. No thread-local state is touched (drops
/// that call this may run while a thread exits).
pub(crate) fn record_event(stream: &Stream) -> Result<Event> {
    let e = Event::new_on(stream.device(), untimed())?;
    e.record(stream)?;
    Ok(e)
}

fn untimed() -> EventOptions {
    EventOptions {
        timing: false,
        ..EventOptions::default()
    }
}

/// Waits for `stream` without consulting `allow_synchronize`: used where
/// freeing memory too early would be worse than blocking (drops). A
/// per-thread stream of another thread is waited for through the legacy
/// stream, which follows every blocking stream.
fn sync_stream(stream: &Stream) -> Result<()> {
    let s = stream.ordering_stream();
    if s.id() != stream.id() {
        return DeviceFence::after(&s).wait();
    }
    s.device().bind()?;
    // SAFETY: a valid stream handle, usable on this thread.
    check("cuStreamSynchronize", unsafe {
        cuda::cuStreamSynchronize(s.raw())
    })
}

fn wait_streams(streams: &[Stream]) -> Result<()> {
    for s in streams {
        sync_stream(s)?;
    }
    Ok(())
}

/// A fence for the real pools: an event, or (when no event could be made)
/// the whole stream.
#[derive(Clone)]
pub(crate) enum DeviceFence {
    Event(Arc<Event>),
    Stream(Stream),
}

impl DeviceFence {
    /// A fence after the work queued so far on `stream` (on the legacy
    /// stream, which follows it, for a per-thread stream of another thread).
    pub(crate) fn after(stream: &Stream) -> DeviceFence {
        let stream = stream.ordering_stream();
        match record_event(&stream) {
            Ok(e) => DeviceFence::Event(Arc::new(e)),
            Err(_) => DeviceFence::Stream(stream),
        }
    }
}

impl Fence for DeviceFence {
    fn is_complete(&self) -> Result<bool> {
        match self {
            DeviceFence::Event(e) => e.query(),
            DeviceFence::Stream(s) => s.query(),
        }
    }

    fn wait(&self) -> Result<()> {
        match self {
            DeviceFence::Event(e) => {
                e.device().bind()?;
                // SAFETY: a valid event handle.
                check("cuEventSynchronize", unsafe {
                    cuda::cuEventSynchronize(e.raw())
                })
            }
            DeviceFence::Stream(s) => sync_stream(s),
        }
    }
}

/// Hands the pools' blocks cached for `stream` (whose last handle is being
/// dropped; `raw` still valid) to their shared arenas, behind an event at
/// the stream's end. A per-thread stream's end is taken on the legacy
/// stream (the dropping thread may not be its own). Without an event the
/// stream is waited for; if that fails too its blocks stay in its arena
/// (released only by `free_all_blocks`).
pub(crate) fn retire_stream(device: Device, id: u64, raw: cuda::CUstream, per_thread: bool) {
    let raw = if per_thread {
        std::ptr::null_mut()
    } else {
        raw
    };
    // Often runs while a thread exits (its per-thread stream dropped from
    // thread-local storage): nothing here may touch thread-local state.
    let fence = (|| -> Result<Event> {
        let e = Event::new_on(device, untimed())?;
        // SAFETY: valid handles; `raw` is the stream being dropped (still
        // alive) or the legacy stream.
        check("cuEventRecord", unsafe {
            cuda::cuEventRecord(e.raw(), raw)
        })?;
        Ok(e)
    })();
    match fence {
        Ok(e) => memory_pool::retire_stream(device, id, &DeviceFence::Event(Arc::new(e))),
        Err(e) => tracing::warn!("retiring stream {id}'s memory arena failed: {e}"),
    }
}

/// Parses `CUPRUM_GPU_MEMORY_LIMIT`: a byte count, or a percentage of
/// `total_memory` such as `"50%"`; empty or `"0"` is no limit (0).
pub(crate) fn parse_limit(value: &str, total_memory: usize) -> Result<usize> {
    let v = value.trim();
    let bad = || {
        crate::Error::InvalidArgument(format!(
            "CUPRUM_GPU_MEMORY_LIMIT={value:?}: expected a number of bytes (\"1073741824\") \
             or a percentage of the device's memory (\"50%\")"
        ))
    };
    if v.is_empty() {
        return Ok(0);
    }
    if let Some(p) = v.strip_suffix('%') {
        let p: f64 = p.trim().parse().map_err(|_| bad())?;
        if !(0.0..=100.0).contains(&p) {
            return Err(bad());
        }
        return Ok((total_memory as f64 * p / 100.0) as usize);
    }
    v.parse::<usize>().map_err(|_| bad())
}

/// `cuPointerGetAttribute(MEMORY_TYPE)` says host: page-locked (or, on
/// systems with HMM, host memory the driver tracks).
pub(crate) fn is_page_locked(p: *const u8) -> bool {
    let mut ty: u32 = 0;
    // SAFETY: writes one CUmemorytype (an unsigned int); an untracked
    // address is reported as an error, not dereferenced.
    let r = unsafe {
        cuda::cuPointerGetAttribute(
            (&mut ty as *mut u32).cast(),
            cuda::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            p as u64,
        )
    };
    matches!(r, Ok(cuda::CUresult::CUDA_SUCCESS))
        && ty == cuda::CUmemorytype_enum::CU_MEMORYTYPE_HOST.0
}

/// Checks a driver allocation's result; an out-of-memory becomes
/// [`Error::OutOfMemory`](crate::Error::OutOfMemory) with the device's figures.
pub(crate) fn check_alloc(
    call: &'static str,
    r: std::result::Result<cuda::CUresult, gpu_sys::LoadError>,
    size: usize,
    device: Device,
) -> Result<()> {
    check(call, r).map_err(|e| {
        if pool::is_oom(&e) {
            let (free, total) = device.mem_info().unwrap_or((0, 0));
            crate::Error::OutOfMemory {
                size,
                used: total - free,
                total,
                limit: "none".to_string(),
            }
        } else {
            e
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_parsing() {
        let total = 80 << 30;
        assert_eq!(parse_limit("", total).unwrap(), 0);
        assert_eq!(parse_limit("0", total).unwrap(), 0);
        assert_eq!(parse_limit("1073741824", total).unwrap(), 1 << 30);
        assert_eq!(parse_limit(" 50% ", total).unwrap(), 40 << 30);
        assert_eq!(parse_limit("12.5%", 1000).unwrap(), 125);
        for bad in ["1GB", "-1", "150%", "x%", "1.5"] {
            let e = parse_limit(bad, total).unwrap_err().to_string();
            assert!(e.contains("CUPRUM_GPU_MEMORY_LIMIT"), "{e}");
        }
    }

    #[test]
    fn memory_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Memory>();
        assert_send_sync::<PinnedMemory>();
        assert_send_sync::<MemoryPool>();
        assert_send_sync::<PinnedMemoryPool>();
    }
}
