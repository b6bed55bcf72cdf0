//! Pinned (page-locked) host memory and its pool (CuPy's
//! `PinnedMemoryPool` and `PinnedMemory`), the pinned allocator choice
//! (`set_pinned_memory_allocator`, `alloc_pinned_memory`) and pointers into
//! pinned memory (`PinnedMemoryPointer`).

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, RwLock};

use gpu_sys::cuda;

use super::DeviceFence;
use super::pool::{Block, Fence, PoolCore, RawAllocator};
use crate::driver::check;
use crate::{Device, Result, Stream, is_synchronize_allowed};

/// `cuMemHostAlloc(PORTABLE)` / `cuMemFreeHost`, in the current device's
/// context (portable memory is pinned for every context).
struct PinnedRaw;

impl RawAllocator for PinnedRaw {
    fn malloc(&self, size: usize) -> Result<u64> {
        Device::current()?.bind()?;
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one pointer; a context is current.
        check("cuMemHostAlloc", unsafe {
            cuda::cuMemHostAlloc(&mut p, size, cuda::CU_MEMHOSTALLOC_PORTABLE)
        })?;
        // Zeroed once, when the driver hands the memory over, so that every
        // byte a `PinnedMemory::as_slice` shows has been written (a block the
        // pool reuses holds what its last user left, never uninitialised
        // memory). Pinning has made the pages resident already, so this is
        // one pass over memory the pool then keeps.
        // SAFETY: cuMemHostAlloc gave `size` writable bytes at `p`.
        unsafe { std::ptr::write_bytes(p.cast::<u8>(), 0, size) };
        Ok(p as u64)
    }

    fn free(&self, addr: u64, _size: usize) -> Result<()> {
        Device::current()?.bind()?;
        // SAFETY: cuMemHostAlloc gave this pointer and the pool frees it once.
        check("cuMemFreeHost", unsafe {
            cuda::cuMemFreeHost(addr as *mut c_void)
        })
    }
}

struct PinnedShared {
    core: PoolCore<PinnedRaw, DeviceFence>,
}

impl PinnedShared {
    fn lock(&self) -> &PoolCore<PinnedRaw, DeviceFence> {
        &self.core
    }
}

/// A caching allocator of pinned host memory (CuPy's `PinnedMemoryPool`).
/// Clones share the pool. Blocks are rounded to 512 bytes, split and merged
/// like the device pool's; a block freed while a copy may still read or
/// write it (see [`PinnedMemory::record`]) is reused only once the copy is
/// done.
#[derive(Clone)]
pub struct PinnedMemoryPool {
    shared: Arc<PinnedShared>,
}

impl std::fmt::Debug for PinnedMemoryPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let core = self.shared.lock();
        f.debug_struct("PinnedMemoryPool")
            .field("used_bytes", &core.used_bytes())
            .field("total_bytes", &core.total_bytes())
            .field("n_free_blocks", &core.n_free_blocks())
            .finish()
    }
}

impl Default for PinnedMemoryPool {
    fn default() -> Self {
        PinnedMemoryPool::new()
    }
}

impl PinnedMemoryPool {
    /// A new, empty pool.
    ///
    /// ```
    /// use gpu_runtime::PinnedMemoryPool;
    /// let pool = PinnedMemoryPool::new(); // cupy.cuda.PinnedMemoryPool()
    /// assert_eq!((pool.used_bytes(), pool.total_bytes()), (0, 0));
    /// ```
    pub fn new() -> PinnedMemoryPool {
        PinnedMemoryPool {
            shared: Arc::new(PinnedShared {
                core: PoolCore::new(PinnedRaw),
            }),
        }
    }

    /// The process's pinned pool (CuPy's `get_default_pinned_memory_pool`);
    /// the copies stage through it.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::default_pool(); // cupy.get_default_pinned_memory_pool()
    /// let block = pool.malloc(4096)?;
    /// assert!(pool.used_bytes() >= 4096);
    /// # Ok(()) }
    /// ```
    pub fn default_pool() -> &'static PinnedMemoryPool {
        static POOL: OnceLock<PinnedMemoryPool> = OnceLock::new();
        POOL.get_or_init(PinnedMemoryPool::new)
    }

    /// Allocates `size` bytes of pinned host memory (contents unspecified).
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::new();
    /// let mut block = pool.malloc(8)?;
    /// block.as_mut_slice().copy_from_slice(&[1; 8]);
    /// assert_eq!(block.len(), 8);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No device, or the driver could not pin more memory.
    pub fn malloc(&self, size: usize) -> Result<PinnedMemory> {
        if size == 0 {
            return Ok(PinnedMemory::empty());
        }
        let block = self
            .shared
            .lock()
            .malloc(size, 0, is_synchronize_allowed())?;
        Ok(PinnedMemory {
            ptr: NonNull::new(block.addr as *mut u8).expect("the driver returned a null pointer"),
            len: size,
            owner: PinnedOwner::Pool(self.shared.clone(), block),
            fences: Vec::new(),
        })
    }

    /// Free blocks ready for reuse (after promoting blocks whose copies have
    /// finished).
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::new();
    /// drop(pool.malloc(1024)?); // back to the pool, not to the driver
    /// assert_eq!(pool.n_free_blocks(), 1);
    /// # Ok(()) }
    /// ```
    pub fn n_free_blocks(&self) -> usize {
        self.shared.lock().n_free_blocks()
    }

    /// Bytes in blocks handed out and not yet freed.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::new();
    /// let block = pool.malloc(1024)?;
    /// assert!(pool.used_bytes() >= 1024);
    /// drop(block);
    /// assert_eq!(pool.used_bytes(), 0);
    /// # Ok(()) }
    /// ```
    pub fn used_bytes(&self) -> usize {
        self.shared.lock().used_bytes()
    }

    /// Bytes the pool holds from the driver.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::new();
    /// drop(pool.malloc(1024)?);
    /// assert!(pool.total_bytes() >= 1024); // still held for reuse
    /// # Ok(()) }
    /// ```
    pub fn total_bytes(&self) -> usize {
        self.shared.lock().total_bytes()
    }

    /// Unpins and frees every cached allocation whose blocks are all free.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = PinnedMemoryPool::new();
    /// drop(pool.malloc(1024)?);
    /// pool.free_all_blocks()?;
    /// assert_eq!(pool.total_bytes(), 0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The first `cuMemFreeHost` failure; the rest are still attempted.
    pub fn free_all_blocks(&self) -> Result<()> {
        self.shared.lock().free_all_blocks()
    }
}

/// How a [`PinnedMemory`] gives its memory back.
enum PinnedOwner {
    /// Size 0: nothing was allocated.
    Empty,
    /// A block of a [`PinnedMemoryPool`], returned to it behind the fences.
    Pool(Arc<PinnedShared>, Block),
    /// `cuMemHostAlloc` ([`DirectPinnedAllocator`]): `cuMemFreeHost` after
    /// the fences.
    Direct,
    /// A user allocator's release function, called after the fences.
    Custom(Box<dyn FnOnce(*mut u8, usize) + Send>),
}

/// A block of pinned host memory, from a [`PinnedMemoryPool`] (returned to
/// the pool on drop), a [`DirectPinnedAllocator`] (freed on drop) or a
/// user's [`PinnedMemoryAllocator`].
pub struct PinnedMemory {
    ptr: NonNull<u8>,
    len: usize,
    owner: PinnedOwner,
    /// Copies that may still use the memory.
    fences: Vec<DeviceFence>,
}

// SAFETY: the memory is owned like a Box<[u8]>; the pool is thread-safe.
unsafe impl Send for PinnedMemory {}
// SAFETY: &PinnedMemory only reads the memory.
unsafe impl Sync for PinnedMemory {}

impl std::fmt::Debug for PinnedMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PinnedMemory")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .field("in_flight", &self.fences.len())
            .finish()
    }
}

impl PinnedMemory {
    fn empty() -> PinnedMemory {
        PinnedMemory {
            ptr: NonNull::dangling(),
            len: 0,
            owner: PinnedOwner::Empty,
            fences: Vec::new(),
        }
    }

    /// Wraps page-locked host memory allocated by a user
    /// [`PinnedMemoryAllocator`]; `free(ptr, len)` runs once, when the
    /// block drops, after the copies recorded on it are done.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{HostAllocFlags, HostAllocation, PinnedMemory};
    /// use std::ptr::NonNull;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut backing = HostAllocation::new(4096, HostAllocFlags::default().portable(true))?;
    /// let ptr = NonNull::new(backing.as_mut_slice().as_mut_ptr()).unwrap();
    /// // SAFETY: `backing` owns the 4096 bytes and is dropped only in `free`.
    /// let block = unsafe { PinnedMemory::from_raw_with_free(ptr, 4096, move |_, _| drop(backing)) };
    /// assert_eq!(block.len(), 4096);
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// `len` bytes from `ptr` must be initialised, page-locked host memory
    /// owned by the caller, not used elsewhere until `free` is called, and
    /// `free` must release it correctly.
    pub unsafe fn from_raw_with_free(
        ptr: NonNull<u8>,
        len: usize,
        free: impl FnOnce(*mut u8, usize) + Send + 'static,
    ) -> PinnedMemory {
        PinnedMemory {
            ptr,
            len,
            owner: PinnedOwner::Custom(Box::new(free)),
            fences: Vec::new(),
        }
    }

    /// The size asked for, in bytes.
    ///
    /// ```
    /// use gpu_runtime::PinnedMemoryPool;
    /// // An empty block needs no driver.
    /// let block = PinnedMemoryPool::new().malloc(0)?;
    /// assert_eq!(block.len(), 0);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the size is 0.
    ///
    /// ```
    /// use gpu_runtime::PinnedMemoryPool;
    /// assert!(PinnedMemoryPool::new().malloc(0)?.is_empty());
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The start of the memory.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let block = PinnedMemoryPool::default_pool().malloc(64)?;
    /// assert_eq!(block.as_ptr(), block.as_slice().as_ptr());
    /// # Ok(()) }
    /// ```
    pub fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    /// The start of the memory, writable.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut block = PinnedMemoryPool::default_pool().malloc(4)?;
    /// // SAFETY: the block holds 4 bytes.
    /// unsafe { block.as_mut_ptr().write_bytes(7, 4) };
    /// assert_eq!(block.as_slice(), [7; 4]);
    /// # Ok(()) }
    /// ```
    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// The bytes.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut block = PinnedMemoryPool::default_pool().malloc(3)?;
    /// block.as_mut_slice().copy_from_slice(b"abc");
    /// assert_eq!(block.as_slice(), b"abc");
    /// # Ok(()) }
    /// ```
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `len` bytes from `ptr` belong to this block (or len is 0
        // with a dangling, aligned pointer); the safe copy functions take
        // the block by value while the device may write it.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// The bytes, writable.
    ///
    /// ```no_run
    /// use gpu_runtime::PinnedMemoryPool;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut block = PinnedMemoryPool::default_pool().malloc(4)?;
    /// block.as_mut_slice().fill(0);
    /// assert_eq!(block.as_slice(), [0; 4]);
    /// # Ok(()) }
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in as_slice, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// Notes that work queued so far on `stream` (an asynchronous copy) may
    /// use this memory: the pool does not reuse it before that work is done.
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream, alloc, memcpy_htod_async_unchecked};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (m, s) = (alloc(64)?, Stream::current()?);
    /// let mut host = PinnedMemoryPool::default_pool().malloc(64)?;
    /// // SAFETY: both hold 64 bytes; `host` is recorded and waited for below.
    /// unsafe { memcpy_htod_async_unchecked(m.ptr(), host.as_ptr(), 64, &s)? };
    /// host.record(&s)?; // the pool will not reuse it before the copy ends
    /// host.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The event could not be recorded (the driver failed).
    pub fn record(&mut self, stream: &Stream) -> Result<()> {
        let e = super::record_event(stream)?;
        self.fences.push(DeviceFence::Event(Arc::new(e)));
        Ok(())
    }

    /// Whether the work given to [`record`](Self::record) has finished.
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut host = PinnedMemoryPool::default_pool().malloc(64)?;
    /// assert!(host.is_idle()?); // nothing recorded yet
    /// host.record(&Stream::current()?)?;
    /// host.synchronize()?;
    /// assert!(host.is_idle()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// That work failed (the error it left on its stream).
    pub fn is_idle(&self) -> Result<bool> {
        for f in &self.fences {
            if !f.is_complete()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Waits for the work given to [`record`](Self::record).
    ///
    /// ```no_run
    /// use gpu_runtime::{PinnedMemoryPool, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut host = PinnedMemoryPool::default_pool().malloc(64)?;
    /// host.record(&Stream::current()?)?;
    /// host.synchronize()?; // the recorded work is done: `host` may be rewritten
    /// host.as_mut_slice().fill(0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Forbidden by `allow_synchronize(false)`, or an error of that work.
    pub fn synchronize(&mut self) -> Result<()> {
        for f in &self.fences {
            match f {
                DeviceFence::Event(e) => e.synchronize()?,
                DeviceFence::Stream(s) => s.synchronize()?,
            }
        }
        self.fences.clear();
        Ok(())
    }
}

impl Drop for PinnedMemory {
    fn drop(&mut self) {
        let fences = std::mem::take(&mut self.fences);
        match std::mem::replace(&mut self.owner, PinnedOwner::Empty) {
            PinnedOwner::Empty => {}
            PinnedOwner::Pool(pool, block) => {
                // Only a double free fails, which ownership rules out.
                let _ = pool.lock().free_pending(block.addr, fences);
            }
            owner => {
                // Freeing under a copy would let the next user of these
                // pages be written behind its back: leak instead.
                if let Err(e) = fences.iter().try_for_each(Fence::wait) {
                    tracing::error!(
                        "waiting for the copies on {} bytes of pinned memory at {:p} failed \
                         ({e}); the memory is not freed",
                        self.len,
                        self.ptr
                    );
                    std::mem::forget(owner);
                    return;
                }
                match owner {
                    PinnedOwner::Direct => {
                        if let Err(e) = PinnedRaw.free(self.ptr.as_ptr() as u64, self.len) {
                            tracing::error!("freeing pinned memory failed: {e}");
                        }
                    }
                    PinnedOwner::Custom(free) => free(self.ptr.as_ptr(), self.len),
                    PinnedOwner::Empty | PinnedOwner::Pool(..) => {}
                }
            }
        }
    }
}

/// Something that hands out pinned host memory: plug your own in with
/// [`set_pinned_memory_allocator`], wrapping what you allocate with
/// [`PinnedMemory::from_raw_with_free`]. The asynchronous host-to-device
/// copies stage through [`alloc_pinned_memory`], so through it.
pub trait PinnedMemoryAllocator: Send + Sync {
    /// Allocates `size` bytes of pinned host memory (size 0 may give an
    /// empty block).
    ///
    /// # Errors
    /// Whatever prevents the allocation.
    fn malloc(&self, size: usize) -> Result<PinnedMemory>;
}

impl PinnedMemoryAllocator for PinnedMemoryPool {
    fn malloc(&self, size: usize) -> Result<PinnedMemory> {
        PinnedMemoryPool::malloc(self, size)
    }
}

/// No caching: `cuMemHostAlloc(PORTABLE)` for each block and
/// `cuMemFreeHost` at its drop (CuPy's `set_pinned_memory_allocator(None)`).
/// Each call pins fresh pages, which is slow: meant for programs that
/// manage their own staging, or to take the pool out of a measurement.
#[derive(Debug, Clone, Copy, Default)]
pub struct DirectPinnedAllocator;

impl PinnedMemoryAllocator for DirectPinnedAllocator {
    fn malloc(&self, size: usize) -> Result<PinnedMemory> {
        if size == 0 {
            return Ok(PinnedMemory::empty());
        }
        let addr = PinnedRaw.malloc(size)?;
        let ptr = NonNull::new(addr as *mut u8).ok_or_else(|| {
            crate::Error::InvalidArgument("cuMemHostAlloc returned a null pointer".to_string())
        })?;
        Ok(PinnedMemory {
            ptr,
            len: size,
            owner: PinnedOwner::Direct,
            fences: Vec::new(),
        })
    }
}

/// `None`: the default pinned pool.
static PINNED_ALLOCATOR: RwLock<Option<Arc<dyn PinnedMemoryAllocator>>> = RwLock::new(None);
/// Whether `PINNED_ALLOCATOR` holds something, so the default path skips the lock.
static PINNED_CUSTOM: AtomicBool = AtomicBool::new(false);

/// Sets the process-wide allocator of pinned memory (CuPy's
/// `cupy.cuda.set_pinned_memory_allocator`), used by
/// [`alloc_pinned_memory`] and so by the copies that stage through pinned
/// memory. `DirectPinnedAllocator` is CuPy's `None` (no pool);
/// `PinnedMemoryPool::default_pool().clone()` puts the default back.
/// Blocks allocated before keep their own way of being freed.
///
/// ```no_run
/// use gpu_runtime::memory::{DirectPinnedAllocator, set_pinned_memory_allocator};
/// use std::sync::Arc;
/// set_pinned_memory_allocator(Arc::new(DirectPinnedAllocator)); // set_pinned_memory_allocator(None)
/// ```
pub fn set_pinned_memory_allocator(allocator: Arc<dyn PinnedMemoryAllocator>) {
    let mut g = PINNED_ALLOCATOR.write().unwrap_or_else(|p| p.into_inner());
    *g = Some(allocator);
    PINNED_CUSTOM.store(true, Ordering::Release);
}

/// The allocator [`alloc_pinned_memory`] uses: the one given to
/// [`set_pinned_memory_allocator`], else the default [`PinnedMemoryPool`].
///
/// ```no_run
/// use gpu_runtime::memory::get_pinned_memory_allocator;
/// # fn main() -> gpu_runtime::Result<()> {
/// let block = get_pinned_memory_allocator().malloc(64)?;
/// # Ok(()) }
/// ```
pub fn get_pinned_memory_allocator() -> Arc<dyn PinnedMemoryAllocator> {
    let g = PINNED_ALLOCATOR.read().unwrap_or_else(|p| p.into_inner());
    g.clone()
        .unwrap_or_else(|| Arc::new(PinnedMemoryPool::default_pool().clone()))
}

/// Allocates `size` bytes of pinned host memory with the current pinned
/// allocator (CuPy's `cupy.cuda.alloc_pinned_memory`; the default pool
/// unless [`set_pinned_memory_allocator`] changed it). Contents unspecified.
///
/// ```no_run
/// use gpu_runtime::memory::alloc_pinned_memory;
/// # fn main() -> gpu_runtime::Result<()> {
/// let mut block = alloc_pinned_memory(1 << 20)?;
/// block.as_mut_slice().fill(0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// The allocator's error (no device, the driver could not pin more).
pub fn alloc_pinned_memory(size: usize) -> Result<PinnedMemory> {
    if !PINNED_CUSTOM.load(Ordering::Acquire) {
        return PinnedMemoryPool::default_pool().malloc(size);
    }
    get_pinned_memory_allocator().malloc(size)
}

/// A pointer to byte `offset` of a [`PinnedMemory`] that holds the block
/// (CuPy's `PinnedMemoryPointer(mem, offset)`). The block is shared, so
/// the pointer reads it; writing goes through the block itself while it is
/// not shared ([`PinnedMemoryPointer::into_memory`]).
#[derive(Debug, Clone)]
pub struct PinnedMemoryPointer {
    mem: Arc<PinnedMemory>,
    offset: usize,
}

impl PinnedMemoryPointer {
    /// A pointer to byte `offset` of `mem` (`offset == mem.len()` is the end).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = PinnedMemoryPointer::new(Arc::new(alloc_pinned_memory(64)?), 16)?;
    /// assert_eq!(p.len(), 48);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] when `offset` is past the end.
    pub fn new(mem: Arc<PinnedMemory>, offset: usize) -> Result<PinnedMemoryPointer> {
        if offset > mem.len() {
            return Err(crate::Error::InvalidArgument(format!(
                "PinnedMemoryPointer: offset {offset} is past the end of the pinned memory of {} \
                 bytes",
                mem.len()
            )));
        }
        Ok(PinnedMemoryPointer { mem, offset })
    }

    /// The block pointed into (CuPy's `mem`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(PinnedMemoryPointer::from(alloc_pinned_memory(64)?).mem().len(), 64);
    /// # Ok(()) }
    /// ```
    pub fn mem(&self) -> &Arc<PinnedMemory> {
        &self.mem
    }

    /// Bytes from the start of the block.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(PinnedMemoryPointer::from(alloc_pinned_memory(64)?).add(4)?.offset(), 4);
    /// # Ok(()) }
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The host address (CuPy's `ptr`).
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = PinnedMemoryPointer::from(alloc_pinned_memory(64)?);
    /// assert_eq!(p.ptr(), p.mem().as_ptr());
    /// # Ok(()) }
    /// ```
    pub fn ptr(&self) -> *const u8 {
        self.as_slice().as_ptr()
    }

    /// Bytes from here to the end of the block.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(PinnedMemoryPointer::from(alloc_pinned_memory(64)?).len(), 64);
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.mem.len() - self.offset
    }

    /// Whether no bytes are left from here.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(PinnedMemoryPointer::from(alloc_pinned_memory(8)?).add(8)?.is_empty());
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes from here to the end.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mut block = alloc_pinned_memory(4)?;
    /// block.as_mut_slice().copy_from_slice(&[1, 2, 3, 4]);
    /// assert_eq!(PinnedMemoryPointer::from(block).add(2)?.as_slice(), [3, 4]);
    /// # Ok(()) }
    /// ```
    pub fn as_slice(&self) -> &[u8] {
        &self.mem.as_slice()[self.offset..]
    }

    /// This pointer moved `bytes` further.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = PinnedMemoryPointer::from(alloc_pinned_memory(8)?);
    /// assert!(p.add(9).is_err());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] past the end of the block.
    pub fn add(&self, bytes: usize) -> Result<PinnedMemoryPointer> {
        let offset = self.offset.checked_add(bytes).ok_or_else(|| {
            crate::Error::InvalidArgument(format!(
                "PinnedMemoryPointer::add({bytes}): the offset overflows"
            ))
        })?;
        PinnedMemoryPointer::new(self.mem.clone(), offset)
    }

    /// The block back, when this is its only pointer (so it may be written
    /// again); otherwise this pointer.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{PinnedMemoryPointer, alloc_pinned_memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = PinnedMemoryPointer::from(alloc_pinned_memory(8)?);
    /// let mut block = p.into_memory().expect("the only pointer");
    /// block.as_mut_slice().fill(1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Other pointers to the block are alive: this pointer is handed back.
    pub fn into_memory(self) -> std::result::Result<PinnedMemory, PinnedMemoryPointer> {
        let offset = self.offset;
        Arc::try_unwrap(self.mem).map_err(|mem| PinnedMemoryPointer { mem, offset })
    }
}

impl From<PinnedMemory> for PinnedMemoryPointer {
    fn from(mem: PinnedMemory) -> PinnedMemoryPointer {
        PinnedMemoryPointer {
            mem: Arc::new(mem),
            offset: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;
    use std::sync::atomic::AtomicUsize;

    /// A host-only "pinned" allocator (plain boxes; never given to the
    /// driver here) that counts its allocations and frees.
    struct Counting {
        allocs: AtomicUsize,
        frees: Arc<AtomicUsize>,
    }

    impl PinnedMemoryAllocator for Counting {
        fn malloc(&self, size: usize) -> Result<PinnedMemory> {
            self.allocs.fetch_add(1, Ordering::SeqCst);
            let b: Box<[u8]> = vec![0u8; size.max(1)].into_boxed_slice();
            let ptr = NonNull::new(Box::into_raw(b).cast::<u8>()).expect("a box is not null");
            let frees = self.frees.clone();
            let n = size.max(1);
            // SAFETY: `n` initialised bytes owned by us until `free`, which
            // rebuilds and drops the box.
            Ok(unsafe {
                PinnedMemory::from_raw_with_free(ptr, size, move |p, _| {
                    drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n)));
                    frees.fetch_add(1, Ordering::SeqCst);
                })
            })
        }
    }

    /// Serializes the tests that change the process-wide pinned allocator.
    static GLOBAL: Mutex<()> = Mutex::new(());

    #[test]
    fn the_pinned_allocator_is_swapped_and_its_blocks_freed_its_way() {
        let _g = GLOBAL.lock().unwrap_or_else(|p| p.into_inner());
        let frees = Arc::new(AtomicUsize::new(0));
        let counting = Arc::new(Counting {
            allocs: AtomicUsize::new(0),
            frees: frees.clone(),
        });
        set_pinned_memory_allocator(counting.clone());
        let mut block = alloc_pinned_memory(16).unwrap();
        block.as_mut_slice().copy_from_slice(&[3; 16]);
        assert_eq!(counting.allocs.load(Ordering::SeqCst), 1);
        let p = PinnedMemoryPointer::from(block);
        let q = p.add(10).unwrap();
        assert_eq!((q.offset(), q.len(), q.as_slice()), (10, 6, &[3u8; 6][..]));
        assert!(q.add(7).is_err());
        assert!(p.add(usize::MAX).is_err());
        assert!(p.add(16).unwrap().is_empty());
        // Shared: the block is not handed back while `q` lives.
        let p = p.into_memory().unwrap_err();
        drop(q);
        let block = p.into_memory().unwrap();
        assert_eq!(frees.load(Ordering::SeqCst), 0);
        drop(block);
        assert_eq!(frees.load(Ordering::SeqCst), 1, "freed by its allocator");
        set_pinned_memory_allocator(Arc::new(PinnedMemoryPool::default_pool().clone()));
        assert_eq!(get_pinned_memory_allocator().malloc(0).unwrap().len(), 0);
        let e = PinnedMemoryPointer::new(Arc::new(PinnedMemory::empty()), 1)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("past the end of the pinned memory of 0 bytes"),
            "{e}"
        );
    }
}
