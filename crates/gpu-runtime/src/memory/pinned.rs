//! Pinned (page-locked) host memory and its pool (CuPy's
//! `PinnedMemoryPool` and `PinnedMemory`).

use std::ffi::c_void;
use std::ptr::NonNull;
use std::sync::{Arc, OnceLock};

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
            return Ok(PinnedMemory {
                ptr: NonNull::dangling(),
                len: 0,
                block: None,
                fences: Vec::new(),
            });
        }
        let block = self
            .shared
            .lock()
            .malloc(size, 0, is_synchronize_allowed())?;
        Ok(PinnedMemory {
            ptr: NonNull::new(block.addr as *mut u8).expect("the driver returned a null pointer"),
            len: size,
            block: Some((self.shared.clone(), block)),
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

/// A block of pinned host memory from a [`PinnedMemoryPool`]; returned to
/// the pool on drop.
pub struct PinnedMemory {
    ptr: NonNull<u8>,
    len: usize,
    block: Option<(Arc<PinnedShared>, Block)>,
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
        if let Some((pool, block)) = self.block.take() {
            let fences = std::mem::take(&mut self.fences);
            // Only a double free fails, which ownership rules out.
            let _ = pool.lock().free_pending(block.addr, fences);
        }
    }
}
