//! The crate's one door to `unsafe`: every call into NCCL, and the one
//! write to the process environment ([`export_comm_id`]).
//!
//! The functions here are safe to call because of what their callers in
//! this crate check first (wgpu-hal's split: a broken precondition here is
//! a bug of the layer above, which validates everything):
//!
//! - a communicator handle ([`Comm`]) is live: it comes from a successful
//!   (or in-progress) init and is held in its communicator's mutex, which is
//!   emptied before the handle is destroyed or aborted (`comm.rs`);
//! - every device address handed to a collective is the first byte of
//!   `count` elements of the NCCL data type given, inside a live array on the
//!   communicator's device (`collectives.rs` checks device, contiguity, size
//!   and dtype, and forms chunk addresses with checked arithmetic), and the
//!   array outlives the work: pool memory is freed in stream order after the
//!   NCCL stream is recorded on it, and inside a group the arrays are held
//!   until the group's work is queued (`group.rs`);
//! - the stream is a stream of the communicator's device that the calling
//!   thread may use (`Stream::handle`).
#![allow(unsafe_code)]

use std::ffi::{CStr, c_char, c_int, c_void};

use gpu_sys::LoadError;
use gpu_sys::cuda::CUstream;
use gpu_sys::nccl as sys;

/// An NCCL status code (`ncclResult_t`), or the reason NCCL could not be
/// called.
pub(crate) type Status = Result<u32, LoadError>;

/// `ncclSuccess`.
pub(crate) const SUCCESS: u32 = 0;
/// `ncclInProgress`: a non-blocking communicator is still working.
pub(crate) const IN_PROGRESS: u32 = 7;

fn st(r: Result<sys::ncclResult_t, LoadError>) -> Status {
    r.map(|s| s.0)
}

/// A communicator handle (`ncclComm_t`), never null.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Comm(sys::ncclComm_t);

// SAFETY: NCCL lets a communicator be used from any thread provided calls
// on it do not overlap. The crate keeps each handle inside its
// communicator's mutex, holds that mutex across every call on the handle,
// and refuses calls from other threads while a thread's NCCL group holds
// the communicator (`comm::CommState::owner`).
unsafe impl Send for Comm {}

/// A reduction operator made by [`red_op_create_premul`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RedOp(pub(crate) u32);

/// The communicator options NCCL reads, `None` for NCCL's default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ConfigFields {
    pub(crate) blocking: Option<bool>,
    pub(crate) cga_cluster_size: Option<i32>,
    pub(crate) min_ctas: Option<i32>,
    pub(crate) max_ctas: Option<i32>,
    pub(crate) split_share: Option<bool>,
}

/// `NCCL_CONFIG_INITIALIZER` with `f`'s fields set. The struct's `size`
/// and `version` are the header's, which an older library reads as far as
/// it knows (`parseCommConfig` copies `min(size, its own)` bytes).
fn config(f: &ConfigFields) -> sys::ncclConfig_t {
    const UNDEF: c_int = c_int::MIN; // NCCL_CONFIG_UNDEF_INT
    sys::ncclConfig_t {
        size: std::mem::size_of::<sys::ncclConfig_t>(),
        magic: 0xcafe_beef,
        version: sys::NCCL_VERSION_CODE,
        blocking: f.blocking.map_or(UNDEF, c_int::from),
        cgaClusterSize: f.cga_cluster_size.unwrap_or(UNDEF),
        minCTAs: f.min_ctas.unwrap_or(UNDEF),
        maxCTAs: f.max_ctas.unwrap_or(UNDEF),
        netName: std::ptr::null(),
        splitShare: f.split_share.map_or(UNDEF, c_int::from),
        trafficClass: UNDEF,
        commName: std::ptr::null(),
        collnetEnable: UNDEF,
        CTAPolicy: UNDEF,
        shrinkShare: UNDEF,
        nvlsCTAs: UNDEF,
        nChannelsPerNetPeer: UNDEF,
        nvlinkCentricSched: UNDEF,
    }
}

fn sys_id(bytes: &[u8; 128]) -> sys::ncclUniqueId {
    sys::ncclUniqueId {
        internal: bytes.map(|b| b as c_char),
    }
}

/// `ncclGetVersion`.
pub(crate) fn get_version() -> (Status, i32) {
    let mut v: c_int = 0;
    // SAFETY: writes one int.
    (st(unsafe { sys::ncclGetVersion(&mut v) }), v)
}

/// `ncclGetUniqueId`: 128 bytes, an address of a bootstrap root (started
/// in this process unless `NCCL_COMM_ID` is set).
pub(crate) fn get_unique_id() -> (Status, [u8; 128]) {
    let mut id = sys_id(&[0; 128]);
    // SAFETY: writes one `ncclUniqueId`.
    let s = st(unsafe { sys::ncclGetUniqueId(&mut id) });
    (s, id.internal.map(|c| c as u8))
}

/// `ncclCommInitRank`, or `ncclCommInitRankConfig` when `fields` is given;
/// the calling thread's current context picks the device. The handle comes
/// back whenever NCCL wrote one (a non-blocking init returns it with
/// `ncclInProgress`).
pub(crate) fn comm_init_rank(
    nranks: i32,
    id: &[u8; 128],
    rank: i32,
    fields: Option<&ConfigFields>,
) -> (Status, Option<Comm>) {
    let mut comm: sys::ncclComm_t = std::ptr::null_mut();
    let r = match fields {
        // SAFETY: `comm` is an out-pointer; the id is passed by value; NCCL
        // checks the rank against nranks.
        None => unsafe { sys::ncclCommInitRank(&mut comm, nranks, sys_id(id), rank) },
        Some(f) => {
            let mut cfg = config(f);
            // SAFETY: as above; `cfg` is an initialised config that NCCL
            // copies during the call (parseCommConfig runs before the
            // call returns, even for a non-blocking init).
            unsafe { sys::ncclCommInitRankConfig(&mut comm, nranks, sys_id(id), rank, &mut cfg) }
        }
    };
    (st(r), (!comm.is_null()).then_some(Comm(comm)))
}

/// `ncclCommInitAll` over `devices` (one communicator each, in order).
pub(crate) fn comm_init_all(devices: &[i32]) -> (Status, Vec<Option<Comm>>) {
    let mut comms: Vec<sys::ncclComm_t> = vec![std::ptr::null_mut(); devices.len()];
    let Ok(n) = c_int::try_from(devices.len()) else {
        // The caller checked the count; keep NCCL out of it regardless.
        return (Ok(4), Vec::new());
    };
    // SAFETY: `comms` has room for `n` handles and `devices` holds `n`
    // ordinals.
    let r = unsafe { sys::ncclCommInitAll(comms.as_mut_ptr(), n, devices.as_ptr()) };
    (
        st(r),
        comms
            .into_iter()
            .map(|c| (!c.is_null()).then_some(Comm(c)))
            .collect(),
    )
}

/// Where a split's new handle lands: null until NCCL writes it. For a
/// non-blocking parent NCCL's own thread stores it (with release order)
/// after `ncclCommSplit` returned `ncclInProgress`, so the slot is an
/// atomic on the heap, read with acquire order.
pub(crate) type SplitSlot = std::sync::atomic::AtomicPtr<sys::ncclComm>;

/// A fresh, null split slot.
pub(crate) fn split_slot() -> Box<SplitSlot> {
    Box::new(SplitSlot::new(std::ptr::null_mut()))
}

/// The communicator NCCL wrote into `slot`, if any yet.
pub(crate) fn split_result(slot: &SplitSlot) -> Option<Comm> {
    let handle = slot.load(std::sync::atomic::Ordering::Acquire);
    (!handle.is_null()).then_some(Comm(handle))
}

/// `ncclCommSplit`, writing the new handle into `slot` (left null for no
/// communicator: `color < 0` is `NCCL_SPLIT_NOCOLOR`). NCCL may write it
/// after returning (a non-blocking parent): the caller keeps `slot` alive
/// until it holds the handle or the split failed, or leaks it.
pub(crate) fn comm_split(
    comm: Comm,
    color: i32,
    key: i32,
    fields: &ConfigFields,
    slot: &SplitSlot,
) -> Status {
    let mut cfg = config(fields);
    let out: *mut sys::ncclComm_t = slot.as_ptr();
    // SAFETY: a live communicator; `out` points into a heap slot that the
    // caller keeps (or leaks) until NCCL's split job has written it (an
    // AtomicPtr has the layout of the pointer NCCL stores atomically);
    // `cfg` is an initialised config NCCL copies during the call.
    st(unsafe { sys::ncclCommSplit(comm.0, color, key, out, &mut cfg) })
}

/// `ncclCommFinalize` (NCCL 2.14+).
pub(crate) fn comm_finalize(comm: Comm) -> Status {
    // SAFETY: a live communicator.
    st(unsafe { sys::ncclCommFinalize(comm.0) })
}

/// `ncclCommDestroy`: the handle is dead afterwards.
pub(crate) fn comm_destroy(comm: Comm) -> Status {
    // SAFETY: a live communicator, destroyed once (its owner dropped it from
    // the mutex first).
    st(unsafe { sys::ncclCommDestroy(comm.0) })
}

/// `ncclCommAbort`: the handle is dead afterwards.
pub(crate) fn comm_abort(comm: Comm) -> Status {
    // SAFETY: a live communicator, aborted once (as for `comm_destroy`).
    st(unsafe { sys::ncclCommAbort(comm.0) })
}

/// `ncclCommGetAsyncError`: the call's status and the communicator's.
pub(crate) fn comm_get_async_error(comm: Comm) -> (Status, u32) {
    let mut e = sys::ncclResult_t(0);
    // SAFETY: a live communicator; writes one result.
    let s = st(unsafe { sys::ncclCommGetAsyncError(comm.0, &mut e) });
    (s, e.0)
}

/// What a communicator reports about itself.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Query {
    /// `ncclCommCount`.
    Count,
    /// `ncclCommCuDevice`.
    Device,
    /// `ncclCommUserRank`.
    Rank,
}

/// One of the [`Query`] calls.
pub(crate) fn comm_query(comm: Comm, q: Query) -> (Status, i32) {
    let mut v: c_int = -1;
    // SAFETY: a live communicator; each writes one int.
    let r = unsafe {
        match q {
            Query::Count => sys::ncclCommCount(comm.0, &mut v),
            Query::Device => sys::ncclCommCuDevice(comm.0, &mut v),
            Query::Rank => sys::ncclCommUserRank(comm.0, &mut v),
        }
    };
    (st(r), v)
}

fn c_text(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: NCCL returns NUL-terminated strings it keeps alive: static
    // tables, or ncclGetLastError's one process-wide 1024-byte buffer.
    // NCCL's threads may rewrite that buffer while it is read, so its text
    // is best-effort (it may belong to another communicator), but the
    // scan stays inside it: snprintf never writes a non-NUL last byte.
    let s = unsafe { CStr::from_ptr(p) }
        .to_string_lossy()
        .trim()
        .to_string();
    (!s.is_empty()).then_some(s)
}

/// `ncclGetLastError` (NCCL ignores `comm` and keeps one process-wide
/// message, so the text may be another communicator's); `None` when empty
/// or NCCL cannot be called.
pub(crate) fn last_error(comm: Option<Comm>) -> Option<String> {
    let c = comm.map_or(std::ptr::null_mut(), |c| c.0);
    // SAFETY: a live communicator or null (NCCL then reports the calling
    // thread's last error).
    unsafe { sys::ncclGetLastError(c) }.ok().and_then(c_text)
}

/// One NCCL call that queues work on a stream. Addresses are raw device
/// pointers (`CUdeviceptr`), counts are in elements of `dt`.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Coll {
    AllReduce {
        send: u64,
        recv: u64,
        count: usize,
        dt: u32,
        op: u32,
    },
    Reduce {
        send: u64,
        recv: u64,
        count: usize,
        dt: u32,
        op: u32,
        root: i32,
    },
    Broadcast {
        send: u64,
        recv: u64,
        count: usize,
        dt: u32,
        root: i32,
    },
    AllGather {
        send: u64,
        recv: u64,
        count: usize,
        dt: u32,
    },
    ReduceScatter {
        send: u64,
        recv: u64,
        count: usize,
        dt: u32,
        op: u32,
    },
    Send {
        buf: u64,
        count: usize,
        dt: u32,
        peer: i32,
    },
    Recv {
        buf: u64,
        count: usize,
        dt: u32,
        peer: i32,
    },
}

impl Coll {
    /// The NCCL function's name, for errors.
    pub(crate) fn call(&self) -> &'static str {
        match self {
            Coll::AllReduce { .. } => "ncclAllReduce",
            Coll::Reduce { .. } => "ncclReduce",
            Coll::Broadcast { .. } => "ncclBroadcast",
            Coll::AllGather { .. } => "ncclAllGather",
            Coll::ReduceScatter { .. } => "ncclReduceScatter",
            Coll::Send { .. } => "ncclSend",
            Coll::Recv { .. } => "ncclRecv",
        }
    }
}

fn cptr(p: u64) -> *const c_void {
    p as usize as *const c_void
}

fn mptr(p: u64) -> *mut c_void {
    p as usize as *mut c_void
}

/// Queues `coll` on `stream` through `comm`.
pub(crate) fn enqueue(coll: &Coll, comm: Comm, stream: CUstream) -> Status {
    let s = stream as sys::cudaStream_t;
    let (c, dty, rop) = (comm.0, sys::ncclDataType_t, sys::ncclRedOp_t);
    // SAFETY: see the module's docs: `comm` is live; each address is the
    // start of `count` elements of `dt` (for all-gather's `recv` and
    // reduce-scatter's `send`, of `count * nranks`) in a live C-contiguous
    // array on the communicator's device that outlives the work; `stream`
    // belongs to that device and to this thread; `op` is one of NCCL's
    // operators or a PreMulSum operator made for this communicator and not
    // yet destroyed; `root` and `peer` lie in `[0, nranks)`.
    let r = unsafe {
        match *coll {
            Coll::AllReduce {
                send,
                recv,
                count,
                dt,
                op,
            } => sys::ncclAllReduce(cptr(send), mptr(recv), count, dty(dt), rop(op), c, s),
            Coll::Reduce {
                send,
                recv,
                count,
                dt,
                op,
                root,
            } => sys::ncclReduce(cptr(send), mptr(recv), count, dty(dt), rop(op), root, c, s),
            Coll::Broadcast {
                send,
                recv,
                count,
                dt,
                root,
            } => sys::ncclBroadcast(cptr(send), mptr(recv), count, dty(dt), root, c, s),
            Coll::AllGather {
                send,
                recv,
                count,
                dt,
            } => sys::ncclAllGather(cptr(send), mptr(recv), count, dty(dt), c, s),
            Coll::ReduceScatter {
                send,
                recv,
                count,
                dt,
                op,
            } => sys::ncclReduceScatter(cptr(send), mptr(recv), count, dty(dt), rop(op), c, s),
            Coll::Send {
                buf,
                count,
                dt,
                peer,
            } => sys::ncclSend(cptr(buf), count, dty(dt), peer, c, s),
            Coll::Recv {
                buf,
                count,
                dt,
                peer,
            } => sys::ncclRecv(mptr(buf), count, dty(dt), peer, c, s),
        }
    };
    st(r)
}

/// `ncclRedOpCreatePreMulSum` with a host scalar (`scalar`: the value in
/// `dt`'s representation, at most 8 bytes).
pub(crate) fn red_op_create_premul(scalar: &[u8], dt: u32, comm: Comm) -> (Status, RedOp) {
    // An 8-byte aligned copy: NCCL reads the scalar as a `dt` during the
    // call (host-immediate residence).
    let mut word = [0u64; 1];
    let n = scalar.len().min(8);
    for (i, b) in scalar[..n].iter().enumerate() {
        let shift = if cfg!(target_endian = "little") {
            8 * i
        } else {
            8 * (7 - i)
        };
        word[0] |= u64::from(*b) << shift;
    }
    let mut op = sys::ncclRedOp_t(0);
    // SAFETY: a live communicator; `word` holds one value of `dt` (at most 8
    // bytes, aligned) that NCCL reads before returning; writes one operator.
    let r = unsafe {
        sys::ncclRedOpCreatePreMulSum(
            &mut op,
            word.as_mut_ptr().cast::<c_void>(),
            sys::ncclDataType_t(dt),
            sys::ncclScalarResidence_t::ncclScalarHostImmediate,
            comm.0,
        )
    };
    (st(r), RedOp(op.0))
}

/// `ncclRedOpDestroy` of an operator made for `comm`.
pub(crate) fn red_op_destroy(op: RedOp, comm: Comm) -> Status {
    // SAFETY: an operator made by `red_op_create_premul` for this live
    // communicator, destroyed once, after the last call given it returned
    // (or its group ended).
    st(unsafe { sys::ncclRedOpDestroy(sys::ncclRedOp_t(op.0), comm.0) })
}

/// `ncclGroupStart`.
pub(crate) fn group_start() -> Status {
    // SAFETY: no arguments; NCCL's group depth is per thread.
    st(unsafe { sys::ncclGroupStart() })
}

/// `ncclGroupEnd`.
pub(crate) fn group_end() -> Status {
    // SAFETY: the communicators used in the group are held alive by the
    // group's record (`group.rs`) and by no other thread meanwhile.
    st(unsafe { sys::ncclGroupEnd() })
}

/// Sets `NCCL_COMM_ID` in the process environment to the rendezvous
/// address `info` derives from the launcher's variables, so that NCCL's
/// own bootstrap finds every rank (see [`crate::distributed`]). Does nothing
/// when the variable is already set, or when `info` has no address.
/// Returns the address set.
///
/// ```no_run
/// use gpu_nccl::distributed::{self, LaunchInfo};
/// # fn main() -> gpu_nccl::Result<()> {
/// let info = LaunchInfo::from_env()?;
/// // SAFETY: first thing in `main`: no other thread exists yet.
/// unsafe { distributed::export_comm_id(&info) };
/// let comm = distributed::init()?;
/// # Ok(()) }
/// ```
///
/// # Safety
/// No other thread may read or write the process environment during the
/// call, in Rust or in C (`getenv` in the CUDA driver or in NCCL's threads
/// included): call it at the start of `main`, before any thread starts or
/// any CUDA or NCCL call is made. (Rust 2024's `std::env::set_var` has this
/// contract; exporting the variable in the launch command needs none.)
pub unsafe fn export_comm_id(info: &crate::distributed::LaunchInfo) -> Option<String> {
    let addr = info.comm_id.clone()?;
    if std::env::var_os("NCCL_COMM_ID").is_some() {
        return None;
    }
    // SAFETY: the caller guarantees that no other thread touches the
    // environment during the call.
    unsafe { std::env::set_var("NCCL_COMM_ID", &addr) };
    Some(addr)
}
