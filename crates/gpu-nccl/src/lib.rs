//! NCCL for Cuprum: communicators and collectives on device arrays
//! (CuPy's `cupy.cuda.nccl`), and [`distributed`], the start of a
//! multi-process job from the launcher's environment (CuPy's
//! `cupyx.distributed`), with NCCL's own rendezvous and no server.
//!
//! A leaf crate above gpu-array: NCCL's raw bindings are gpu-sys's
//! `nccl` module, loaded on first use; this crate's one `unsafe` module
//! (`raw.rs`) calls them after the checks here. The front door re-exports
//! it as `cuprum::cuda::nccl` and `cuprum::distributed`.
//!
//! | CuPy | Cuprum |
//! |---|---|
//! | `nccl.get_version()`, `get_build_version()` | [`get_version`], [`get_build_version`] ([`Version`]) |
//! | `nccl.get_unique_id()` | [`get_unique_id`] ([`UniqueId`]: bytes and hex both ways) |
//! | `nccl.NcclCommunicator(n, id, rank)` | [`NcclCommunicator::init_rank`], [`NcclCommunicator::init_rank_config`] ([`CommConfig`]) |
//! | `NcclCommunicator.initAll(devices)` | [`NcclCommunicator::init_all`] |
//! | `comm.rank_id()`, `size()`, `device_id()` | the same names |
//! | `comm.abort()`, `destroy()`, `check_async_error()` | the same names (and `Drop`) |
//! | `comm.allReduce(s, r, n, dtype, op, stream)` | [`NcclCommunicator::all_reduce`]`(&s, &r, ReduceOp::Sum, None)` |
//! | `reduce`, `broadcast`/`bcast`, `allGather`, `reduceScatter` | [`reduce`](NcclCommunicator::reduce), [`broadcast`](NcclCommunicator::broadcast), [`all_gather`](NcclCommunicator::all_gather), [`reduce_scatter`](NcclCommunicator::reduce_scatter), and `_in_place` forms |
//! | `send`, `recv` | [`send`](NcclCommunicator::send), [`recv`](NcclCommunicator::recv) |
//! | `NCCLBackend.all_to_all`, `gather`, `scatter`, `barrier` | [`all_to_all`](NcclCommunicator::all_to_all), [`gather`](NcclCommunicator::gather), [`scatter`](NcclCommunicator::scatter), [`barrier`](NcclCommunicator::barrier) |
//! | `nccl.NCCL_SUM`, ..., `'sum'` | [`ReduceOp::Sum`], ... (`"sum".parse()`), [`ReduceOp::Avg`], [`ReduceOp::PreMulSum`] |
//! | `nccl.groupStart()`, `groupEnd()` | [`group_start`] returning a [`GroupGuard`]; [`GroupGuard::end`] or [`group_end`] |
//! | `cupy.cuda.nccl.available` | [`available`] |
//! | `cupyx.distributed.init_process_group(n, rank)` | [`distributed::init`], [`distributed::init_with`] |
//!
//! Collectives take whole C-contiguous arrays on the communicator's
//! device; the counts and NCCL data types come from the arrays (reductions
//! in the dtype's own arithmetic, complex numbers part by part, bool as
//! any/all; copies as bytes, so every dtype moves). The last argument is
//! the stream: `None` for the current stream of the communicator's device.
//!
//! # Failures are errors, not hangs
//!
//! A non-blocking communicator ([`CommConfig::non_blocking`], what
//! [`distributed::init`] makes) is polled with `ncclCommGetAsyncError` up
//! to its timeout, then aborted; the [`Error`] names the operation and the
//! rank. [`NcclCommunicator::synchronize`] (and `barrier`) wait for a
//! stream the same way, so a dead peer ends the wait. Arguments are
//! checked before NCCL sees them: devices, contiguity, dtypes, sizes,
//! roots, peers, overlaps, and a send to oneself outside a group.
//!
//! # Finding NCCL
//!
//! `libnccl.so.2` is searched as every CUDA library is (gpu-sys's
//! loader): `CUPRUM_NCCL_PATH` (the file or its folder), the toolkit
//! folders, the loader's paths, then the `nvidia/*/lib` folders of Python
//! site-packages, which is where the `nvidia-nccl-cu12`/`-cu13` wheels put
//! it (`.../site-packages/nvidia/nccl/lib/libnccl.so.2`). When none is
//! found, every call returns [`Error::Library`] listing the places tried.
//! Keep `NCCL_NVLS_ENABLE=0` in the environment of the test machines
//! (NVLink multicast stays off).
//!
//! ```no_run
//! use gpu_nccl::{NcclCommunicator, ReduceOp, get_unique_id, group_start};
//! # fn main() -> gpu_nccl::Result<()> {
//! // One process, one device: a communicator of one rank.
//! let comm = NcclCommunicator::init_rank(1, &get_unique_id()?, 0)?;
//! let x = gpu_array::creation::arange(6)?.astype(gpu_array::DType::Float64)?;
//! comm.all_reduce_in_place(&x, ReduceOp::Sum, None)?;
//! let y = gpu_array::Array::empty(x.shape(), x.dtype())?;
//! let g = group_start()?; // a send to oneself needs its receive in the same group
//! comm.send(&x, 0, None)?;
//! comm.recv(&y, 0, None)?;
//! g.end()?;
//! comm.synchronize(None)?;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]
#![deny(unsafe_code)]

mod collectives;
mod comm;
pub mod distributed;
mod dtype;
pub mod error;
mod group;
mod raw;
mod unique_id;

pub use comm::{CommConfig, NcclCommunicator};
pub use dtype::ReduceOp;
pub use error::{Error, Result};
pub use group::{GroupGuard, group_end, group_start};
pub use unique_id::{
    UNIQUE_ID_BYTES, UniqueId, Version, available, get_build_version, get_unique_id, get_version,
};
