//! gpu-runtime: Cuprum's safe CUDA runtime.
//!
//! The second layer of DESIGN.md, above the raw FFI of `gpu-sys`: devices and
//! their primary contexts, streams and events, the per-thread current device
//! and stream, a guard that forbids host-device synchronization, memory
//! pools, copies, the NVRTC compiler with its kernel cache, modules and
//! kernels, texture and surface objects, NVTX and the profiler. Every
//! `unsafe` block here carries a `// SAFETY:` line; the layers above use
//! these wrappers and stay free of `unsafe`.
//!
//! | CuPy                                   | Cuprum                                  |
//! |----------------------------------------|-----------------------------------------|
//! | `cupy.cuda.Device(1)`, `.use()`, `with dev:` | [`Device::new`], [`Device::use_device`], [`Device::scoped`] |
//! | `cupy.cuda.runtime.getDeviceCount()`   | [`Device::count`]                       |
//! | `dev.attributes`, `dev.mem_info`       | [`Device::properties`], [`Device::mem_info`] |
//! | `cupy.cuda.Stream(non_blocking=True)`  | [`Stream::with_options`]                |
//! | `cupy.cuda.ExternalStream(ptr)`        | [`ExternalStream::new`]                 |
//! | `with stream:` / `get_current_stream()`| [`Stream::use_stream`] / [`Stream::current`] |
//! | `cupy.cuda.Event()`, `get_elapsed_time`| [`Event::new`], [`Event::elapsed_time`] |
//! | `cupyx.allow_synchronize(False)`       | [`allow_synchronize`]                   |
//! | `cupyx.profiler.time_range`            | [`nvtx::time_range`]                    |
//! | `cupy.cuda.profiler.start()`           | [`nvtx::profiler_start`]                |
//! | `cupy.cuda.runtime.*`                  | [`runtime`] (thin names over the types below) |
//! | `runtime.hostRegister`, `hostAlloc`    | [`memory::HostRegistration`], [`memory::HostAllocation`] |
//! | `runtime.mallocManaged`, `memPrefetchAsync`, `memAdvise` | [`memory::malloc_managed`], [`Memory::prefetch_async`], [`Memory::advise`] |
//! | `runtime.memcpy2D(Async)`, `memcpy3D(Async)` | [`memcpy_2d`], [`memcpy_2d_async`], [`memcpy_3d`], [`memcpy_3d_async`] |
//! | `runtime.pointerGetAttributes`         | [`PointerAttributes::of`]               |
//! | `runtime.ipcGetMemHandle`, `ipcOpenMemHandle` | [`Memory::ipc_handle`], [`Memory::from_ipc_handle`] ([`ipc`]) |
//! | `runtime.deviceGetLimit`, `deviceSetLimit` | [`Device::limit`], [`Device::set_limit`] |
//! | `runtime.deviceGetPCIBusId`, `deviceGetByPCIBusId` | [`Device::pci_bus_id`], [`Device::from_pci_bus_id`] |
//! | `cupy.cuda.MemoryPointer`, `UnownedMemory` | [`memory::MemoryPointer`], [`memory::UnownedMemory`] |
//! | `cupy.cuda.set_pinned_memory_allocator`, `alloc_pinned_memory` | [`memory::set_pinned_memory_allocator`], [`memory::alloc_pinned_memory`] |
//! | `cupyx.DeviceSynchronized`             | [`DeviceSynchronized`] ([`Error::DeviceSynchronized`]) |
//! | `cupy.cuda.profiler.initialize`        | none: removed from CUDA in 12.0 (see [`nvtx`]) |
//!
//! # Execution model
//!
//! Every call queues its work on a stream before it returns, on the stream
//! the calling thread named (its current stream unless one is passed). No
//! work is held back in process-global state to be run or fused later: an
//! address read, a copy or a synchronize never runs someone else's pending
//! launch, because there is none. Fusion is explicit (gpu-array's `fuse`).
//!
//! The failure of asynchronous work is returned by the call that waits for
//! it: a device-to-host copy, a stream, event or device synchronize, a
//! fence query. Drops cannot return errors, so where a drop cannot order a
//! free after the work that uses the memory it leaks the memory (and logs
//! it) rather than letting a later allocation be written behind its back.
//! A per-thread default stream ([`Stream::per_thread`]) belongs to its
//! thread: its handle means "the calling thread's stream" to the driver, so
//! other threads are refused ([`Stream::handle`]).

#![warn(missing_docs)]

mod copy;
mod device;
pub mod driver;
mod error;
mod event;
pub mod ipc;
mod kernel_cache;
pub mod library_context;
mod limit;
pub mod memory;
pub mod module;
pub mod nvrtc;
pub mod nvtx;
mod pitched;
mod pointer;
mod ptr;
pub mod runtime;
pub mod scoped;
pub mod signature;
mod stream;
mod sync;
pub mod testing;
pub mod texture;

pub use copy::{
    HostTransfer, memcpy_dtod, memcpy_dtoh, memcpy_dtoh_async, memcpy_dtoh_async_unchecked,
    memcpy_dtoh_on, memcpy_htod, memcpy_htod_async, memcpy_htod_async_pinned,
    memcpy_htod_async_unchecked, memcpy_htod_on, memcpy_peer, memset_d8, memset_d16, memset_d32,
};
pub use device::{Device, DeviceGuard, DeviceProperties};
pub use error::{DeviceSynchronized, Error, Result};
pub use event::{Event, EventOptions};
pub use kernel_cache::KernelCache;
pub use limit::Limit;
pub use memory::{Memory, MemoryPool, PinnedMemory, PinnedMemoryPool, alloc};
pub use module::{
    Kernel, KernelAttribute, KernelAttributes, LaunchConfig, Module, RawKernel, RawModule,
};
pub use pitched::{
    CopyDst, CopySrc, Extent, PitchedLayout, memcpy_2d, memcpy_2d_async, memcpy_2d_to_host_async,
    memcpy_3d, memcpy_3d_async, memcpy_3d_to_host_async,
};
pub use pointer::{MemoryType, PointerAttributes};
pub use ptr::{DevicePtr, KernelArg};
pub use signature::{KernelSignature, TypedKernel, Vouched};
pub use stream::{ExternalStream, Stream, StreamGuard, StreamOptions};
pub use sync::{SyncGuard, allow_synchronize, check_sync_allowed, is_synchronize_allowed};

/// The raw FFI layer, re-exported for code that needs a handle's type.
pub use gpu_sys as sys;
