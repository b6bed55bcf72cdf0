//! The device memory pool (CuPy's `MemoryPool`, one per device here).

use std::sync::{Arc, Mutex, OnceLock, Weak};

use gpu_sys::cuda;

use super::hooks::{self, HookEvent, HookInfo};
use super::pool::{PoolCore, RawAllocator, round_size};
use super::{DeviceFence, Memory, check_alloc, parse_limit};
use crate::{Device, DevicePtr, Error, Result, Stream, is_synchronize_allowed};

/// `cuMemAlloc` / `cuMemFree` on one device, with the `alloc` hooks.
struct CudaRaw {
    device: Device,
}

impl RawAllocator for CudaRaw {
    fn malloc(&self, size: usize) -> Result<u64> {
        let device_id = self.device.ordinal();
        hooks::call(HookEvent::AllocPre, || HookInfo {
            device_id,
            size,
            mem_size: size,
            mem_ptr: DevicePtr::NULL,
            pmem_id: 0,
        });
        self.device.bind()?;
        let mut p = 0;
        // SAFETY: writes one address; the device's context is current.
        crate::driver::check("cuMemAlloc", unsafe { cuda::cuMemAlloc_v2(&mut p, size) })?;
        hooks::call(HookEvent::AllocPost, || HookInfo {
            device_id,
            size,
            mem_size: size,
            mem_ptr: DevicePtr(p),
            pmem_id: 0,
        });
        Ok(p)
    }

    fn free(&self, addr: u64, _size: usize) -> Result<()> {
        self.device.bind()?;
        // SAFETY: cuMemAlloc gave this address and the pool frees it once.
        crate::driver::check("cuMemFree", unsafe { cuda::cuMemFree_v2(addr) })
    }
}

pub(crate) struct PoolShared {
    device: Device,
    core: PoolCore<CudaRaw, DeviceFence>,
}

/// Every live device pool, for [`retire_stream`].
static POOLS: Mutex<Vec<Weak<PoolShared>>> = Mutex::new(Vec::new());

/// Hands the blocks cached for stream `id` of `device` (a stream being
/// destroyed) to every pool's shared arena, once `fence` completes.
pub(crate) fn retire_stream(device: Device, id: u64, fence: &DeviceFence) {
    let pools: Vec<Arc<PoolShared>> = {
        let mut all = POOLS.lock().unwrap_or_else(|p| p.into_inner());
        all.retain(|w| w.strong_count() > 0);
        all.iter().filter_map(Weak::upgrade).collect()
    };
    for p in pools.iter().filter(|p| p.device == device) {
        p.core.retire_arena(id, fence.clone());
    }
}

impl PoolShared {
    fn lock(&self) -> &PoolCore<CudaRaw, DeviceFence> {
        &self.core
    }

    /// Returns a block, to be reused once `fences` (if any) have completed.
    pub(crate) fn release(&self, addr: u64, fences: Vec<DeviceFence>) {
        // A failure here means a double free, which Memory's ownership rules
        // out; there is nothing better to do in a drop than to ignore it.
        let _ = self.lock().free_pending(addr, fences);
    }
}

/// A caching allocator of device memory for one device (CuPy's
/// `MemoryPool`). Clones share the pool.
///
/// Requests are rounded up to 512 bytes and served best-fit from the free
/// blocks of the allocating stream's arena, splitting bigger blocks; frees
/// merge neighbours. On exhaustion (the driver's or [`set_limit`]'s) the pool
/// releases its cached blocks and retries, then returns
/// [`Error::OutOfMemory`].
///
/// [`set_limit`]: MemoryPool::set_limit
#[derive(Clone)]
pub struct MemoryPool {
    shared: Arc<PoolShared>,
}

impl std::fmt::Debug for MemoryPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let core = self.shared.lock();
        core.poll_pending();
        f.debug_struct("MemoryPool")
            .field("device", &self.shared.device.ordinal())
            .field("used_bytes", &core.used_bytes())
            .field("total_bytes", &core.total_bytes())
            .field("n_free_blocks", &core.n_free_blocks())
            .field("limit", &core.limit())
            .finish()
    }
}

impl MemoryPool {
    /// A new, empty pool for `device`, without a limit (the environment's
    /// `CUPRUM_GPU_MEMORY_LIMIT` applies to the default pools only).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::new(Device::current()?); // a pool of its own
    /// # Ok(()) }
    /// ```
    pub fn new(device: Device) -> MemoryPool {
        let shared = Arc::new(PoolShared {
            device,
            core: PoolCore::new(CudaRaw { device }),
        });
        POOLS
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(Arc::downgrade(&shared));
        MemoryPool { shared }
    }

    /// The process's pool for `device` (CuPy's `get_default_memory_pool`),
    /// created on first use with the limit of `CUPRUM_GPU_MEMORY_LIMIT`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?; // cp.get_default_memory_pool()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The device does not exist, or the variable cannot be parsed.
    pub fn default_pool(device: Device) -> Result<MemoryPool> {
        default_pool_ref(device).cloned()
    }

    /// The device the pool allocates on.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let dev = Device::current()?;
    /// assert_eq!(MemoryPool::default_pool(dev)?.device(), dev);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.shared.device
    }

    /// Allocates `size` bytes on the thread's current stream of the pool's
    /// device. Size 0 gives a null pointer and takes nothing from the pool.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// let block = pool.malloc(1 << 20)?; // returns to the pool when dropped
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::OutOfMemory`], or a driver failure.
    pub fn malloc(&self, size: usize) -> Result<Memory> {
        self.malloc_on(size, &Stream::current_on(self.shared.device))
    }

    /// Allocates `size` bytes for use on `stream`: the block comes from, and
    /// returns to, `stream`'s arena.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// let s = Stream::new()?;
    /// let block = pool.malloc_on(1 << 20, &s)?; // returns to `s`'s arena when dropped
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`] when `stream` is on another device,
    /// [`Error::OutOfMemory`], or a driver failure.
    pub fn malloc_on(&self, size: usize, stream: &Stream) -> Result<Memory> {
        let device = self.shared.device;
        if stream.device() != device {
            return Err(Error::DeviceMismatch {
                operation: "MemoryPool::malloc",
                what: "the stream",
                found: stream.device().ordinal(),
                expected: device.ordinal(),
            });
        }
        if size == 0 {
            return Ok(Memory::empty(device));
        }
        hooks::call(HookEvent::MallocPre, || HookInfo {
            device_id: device.ordinal(),
            size,
            mem_size: round_size(size).unwrap_or(size),
            mem_ptr: DevicePtr::NULL,
            pmem_id: 0,
        });
        let arena = stream.id();
        let block = self
            .shared
            .lock()
            .malloc(size, arena, is_synchronize_allowed())?;
        hooks::call(HookEvent::MallocPost, || HookInfo {
            device_id: device.ordinal(),
            size,
            mem_size: block.size,
            mem_ptr: DevicePtr(block.addr),
            pmem_id: block.base,
        });
        Ok(Memory::from_pool(
            self.shared.clone(),
            block,
            size,
            stream.clone(),
        ))
    }

    /// Bytes in blocks handed out and not yet freed (rounded sizes).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let used = MemoryPool::default_pool(Device::current()?)?.used_bytes();
    /// # Ok(()) }
    /// ```
    pub fn used_bytes(&self) -> usize {
        self.shared.lock().used_bytes()
    }

    /// Bytes the pool holds from the driver.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let held = MemoryPool::default_pool(Device::current()?)?.total_bytes();
    /// # Ok(()) }
    /// ```
    pub fn total_bytes(&self) -> usize {
        self.shared.lock().total_bytes()
    }

    /// Bytes held but not in use: `total_bytes() - used_bytes()`, including
    /// blocks still waiting for another stream.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// drop(pool.malloc(1 << 20)?);
    /// assert_eq!(pool.free_bytes(), pool.total_bytes() - pool.used_bytes());
    /// # Ok(()) }
    /// ```
    pub fn free_bytes(&self) -> usize {
        self.shared.lock().free_bytes()
    }

    /// Free blocks ready for reuse, over all arenas (after promoting blocks
    /// whose streams have caught up).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// drop(pool.malloc(1 << 20)?);
    /// assert!(pool.n_free_blocks() >= 1); // kept for reuse (mempool.n_free_blocks())
    /// # Ok(()) }
    /// ```
    pub fn n_free_blocks(&self) -> usize {
        self.shared.lock().n_free_blocks()
    }

    /// Freed blocks still waiting for another stream (see
    /// [`Memory::record_stream`]).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// let other = Stream::new()?;
    /// let m = pool.malloc(1 << 20)?;
    /// m.record_stream(&other);
    /// drop(m); // waits for `other` before it can be reused
    /// let pending = pool.n_pending_blocks();
    /// # Ok(()) }
    /// ```
    pub fn n_pending_blocks(&self) -> usize {
        self.shared.lock().n_pending_blocks()
    }

    /// Returns every cached allocation whose blocks are all free to the
    /// driver (CuPy's `free_all_blocks`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// MemoryPool::default_pool(Device::current()?)?.free_all_blocks()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The first `cuMemFree` failure; the rest are still attempted.
    pub fn free_all_blocks(&self) -> Result<()> {
        self.shared.lock().free_all_blocks()
    }

    /// Limits `total_bytes()` to `bytes`; 0 removes the limit. Memory
    /// already held is not released.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// MemoryPool::default_pool(Device::current()?)?.set_limit(1 << 30); // mempool.set_limit(size=1024**3)
    /// # Ok(()) }
    /// ```
    pub fn set_limit(&self, bytes: usize) {
        self.shared.lock().set_limit(bytes);
    }

    /// Limits `total_bytes()` to `fraction` (0 to 1) of the device's memory
    /// (CuPy's `set_limit(fraction=)`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// pool.set_limit_fraction(0.5)?; // mempool.set_limit(fraction=0.5)
    /// assert!(pool.get_limit() > 0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `fraction` is outside 0..=1, or the device's size could not be read.
    pub fn set_limit_fraction(&self, fraction: f64) -> Result<()> {
        if !(0.0..=1.0).contains(&fraction) {
            return Err(Error::InvalidArgument(format!(
                "MemoryPool::set_limit_fraction: {fraction} is not between 0 and 1"
            )));
        }
        let total = self.shared.device.properties()?.total_memory;
        self.set_limit((total as f64 * fraction) as usize);
        Ok(())
    }

    /// The limit in bytes; 0 means none.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, MemoryPool};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let pool = MemoryPool::default_pool(Device::current()?)?;
    /// pool.set_limit(1 << 30);
    /// assert_eq!(pool.get_limit(), 1 << 30);
    /// pool.set_limit(0); // no limit
    /// # Ok(()) }
    /// ```
    pub fn get_limit(&self) -> usize {
        self.shared.lock().limit()
    }
}

/// The default pool of `device`, created on first use.
pub(crate) fn default_pool_ref(device: Device) -> Result<&'static MemoryPool> {
    static POOLS: OnceLock<Vec<OnceLock<MemoryPool>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        let n = Device::count().unwrap_or(0);
        (0..n).map(|_| OnceLock::new()).collect()
    });
    let slot = pools
        .get(device.ordinal() as usize)
        .ok_or(Error::InvalidDevice {
            ordinal: device.ordinal(),
            count: pools.len(),
        })?;
    if let Some(p) = slot.get() {
        return Ok(p);
    }
    let limit = match std::env::var("CUPRUM_GPU_MEMORY_LIMIT") {
        Ok(v) => {
            let total = if v.trim_end().ends_with('%') {
                device.properties()?.total_memory
            } else {
                0
            };
            parse_limit(&v, total)?
        }
        Err(_) => 0,
    };
    Ok(slot.get_or_init(|| {
        let pool = MemoryPool::new(device);
        pool.set_limit(limit);
        pool
    }))
}

impl super::Allocator for MemoryPool {
    fn malloc(&self, size: usize, device: Device, stream: &Stream) -> Result<Memory> {
        if device != self.shared.device {
            return Err(Error::DeviceMismatch {
                operation: "MemoryPool::malloc",
                what: "the requested device",
                found: device.ordinal(),
                expected: self.shared.device.ordinal(),
            });
        }
        self.malloc_on(size, stream)
    }
}

/// Allocates with `cuMemAlloc` (no pool), with the `alloc` hooks.
pub(crate) fn direct_malloc(size: usize, device: Device) -> Result<Memory> {
    if size == 0 {
        return Ok(Memory::empty(device));
    }
    let p = hooked_alloc(size, device, "cuMemAlloc", |p| {
        // SAFETY: writes one address; the device's context is current.
        unsafe { cuda::cuMemAlloc_v2(p, size) }
    })?;
    Ok(Memory::from_direct(p, size, device))
}

/// Runs a raw driver allocation of `size` bytes on `device` between the
/// `alloc` pre and post hooks, binding the device first and turning a
/// failure into [`check_alloc`]'s error for `call`.
pub(crate) fn hooked_alloc(
    size: usize,
    device: Device,
    call: &'static str,
    alloc: impl FnOnce(&mut u64) -> std::result::Result<cuda::CUresult, gpu_sys::LoadError>,
) -> Result<DevicePtr> {
    let info = |p| HookInfo {
        device_id: device.ordinal(),
        size,
        mem_size: size,
        mem_ptr: DevicePtr(p),
        pmem_id: 0,
    };
    hooks::call(HookEvent::AllocPre, || info(0));
    device.bind()?;
    let mut p = 0;
    let r = alloc(&mut p);
    check_alloc(call, r, size, device)?;
    hooks::call(HookEvent::AllocPost, || info(p));
    Ok(DevicePtr(p))
}
