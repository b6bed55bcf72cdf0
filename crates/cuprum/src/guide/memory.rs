//! Memory management.
//!
//! | CuPy                                  | Cuprum                                                  |
//! |---------------------------------------|---------------------------------------------------------|
//! | `cp.get_default_memory_pool()`        | `MemoryPool::default_pool(Device::current()?)?`         |
//! | `mempool.used_bytes()`, `total_bytes()` | `pool.used_bytes()`, `pool.total_bytes()`             |
//! | `mempool.free_all_blocks()`           | `pool.free_all_blocks()?`                               |
//! | `mempool.set_limit(size=1024**3)`     | `pool.set_limit(1 << 30)`                               |
//! | `cp.cuda.set_allocator(None)`         | `cuda::memory::set_allocator(..)` ([`crate::cuda::memory`]) |
//!
//! Arrays allocate from a per-device pool in stream order: a freed block
//! is reused by later allocations on its stream at once, and by other
//! streams only after the work that used it is done. Dropping an array
//! returns its block to the pool, which keeps it (as CuPy's does); a
//! process sees its GPU memory go down only after `free_all_blocks`.
//!
//! ```no_run
//! use cuprum::{self as cp, DType, cuda::{Device, MemoryPool}};
//!
//! fn main() -> cp::Result<()> {
//!     let pool = MemoryPool::default_pool(Device::current()?)?;
//!     let a = cp::zeros(100, DType::Float32)?;
//!     println!("used {} of {}", pool.used_bytes(), pool.total_bytes());
//!     drop(a);
//!     pool.free_all_blocks()?;
//!     Ok(())
//! }
//! ```
//!
//! # The other memory kinds
//!
//! CuPy's `cupy.cuda.runtime` calls for the other kinds of memory are safe
//! types in [`crate::cuda`] (gpu-runtime), each freeing or unpinning what it
//! holds on drop; [`crate::cuda::runtime`] keeps CuPy's names as thin
//! functions over them.
//!
//! | CuPy                                          | Cuprum                                              |
//! |-----------------------------------------------|-----------------------------------------------------|
//! | `runtime.hostRegister(ptr, size, flags)`, `hostUnregister` | `HostRegistration::new(&mut buf, flags)?` (unpins on drop) |
//! | `runtime.hostAlloc(size, flags)`, `freeHost`  | `HostAllocation::new(size, HostAllocFlags::default().mapped(true))?`, `.device_ptr()?` |
//! | `runtime.mallocManaged(size)`                 | `memory::malloc_managed(size, ManagedAttach::Global)?` (refused beyond the device's free memory) |
//! | `runtime.memPrefetchAsync`, `memAdvise`       | `mem.prefetch_async(MemLocation::Host, &stream)?`, `mem.advise(MemAdvice::SetReadMostly)?` |
//! | `runtime.memcpy2D(Async)`, `memcpy3D(Async)`  | `memcpy_2d(CopyDst::Device(&m), PitchedLayout::new(pitch), CopySrc::Host(&v), ..)?` |
//! | `runtime.pointerGetAttributes(ptr)`           | `PointerAttributes::of(addr)?`                      |
//! | `runtime.ipcGetMemHandle`, `ipcOpenMemHandle` | `mem.ipc_handle()?.to_hex()`, `unsafe { Memory::from_ipc_handle(&h, dev)? }` |
//! | `runtime.ipcGetEventHandle`, `ipcOpenEventHandle` | `event.ipc_handle()?`, `Event::from_ipc_handle(&h, dev)?` |
//! | `runtime.deviceGetLimit`, `deviceSetLimit`    | `dev.limit(Limit::StackSize)?`, `dev.set_limit(..)?` |
//! | `runtime.deviceGetPCIBusId`, `deviceGetByPCIBusId` | `dev.pci_bus_id()?`, `Device::from_pci_bus_id(id)?` |
//! | `runtime.runtimeGetVersion()`                 | `driver::runtime_version()?`: NVRTC's version, as Cuprum has no `libcudart` |
//! | `cupy.cuda.ExternalStream(ptr)`               | `unsafe { ExternalStream::new(raw, dev) }` (derefs to `Stream`) |
//! | `cupy.cuda.UnownedMemory(ptr, size, owner)`   | `unsafe { UnownedMemory::new(ptr, size) }.owner(o).into_memory()?` |
//! | `cupy.cuda.MemoryPointer(mem, offset)`        | `MemoryPointer::new(Arc::new(mem), offset)?`        |
//! | `cupy.cuda.set_pinned_memory_allocator(None)` | `memory::set_pinned_memory_allocator(Arc::new(DirectPinnedAllocator))` |
//! | `cupy.cuda.alloc_pinned_memory(n)`, `PinnedMemoryPointer` | `memory::alloc_pinned_memory(n)?`, `PinnedMemoryPointer::from(block)` |
//! | `cupyx.DeviceSynchronized`                    | `Error::DeviceSynchronized(DeviceSynchronized { operation, .. })` |
//!
//! Not applicable: `cupy.cuda.profiler.initialize` wraps
//! `cudaProfilerInitialize`, the legacy command-line profiler's setup,
//! which CUDA 12.0 removed (the CUDA 13 headers Cuprum's bindings come from
//! no longer declare it); Nsight tools take their configuration on their
//! own command line, and `cuda::nvtx::profiler_start`/`profiler_stop` mark
//! the captured range.
