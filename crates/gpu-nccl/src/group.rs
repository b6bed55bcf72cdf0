//! NCCL's groups (CuPy's `groupStart()`/`groupEnd()`) as a scoped guard.
//!
//! Between `ncclGroupStart` and `ncclGroupEnd` NCCL only records the calls;
//! the outermost `ncclGroupEnd` queues them. Until then the arrays they
//! name must stay alive and the communicators must be neither used by
//! another thread nor destroyed, so this thread's record of the open group
//! holds both (and the PreMulSum operators to destroy after), and marks
//! each communicator as held by this thread. At the outermost end it waits
//! for non-blocking communicators (up to their timeouts) before letting go.

use std::cell::RefCell;
use std::marker::PhantomData;
use std::sync::Arc;

use gpu_array::Array;

use crate::comm::{CommInner, CommState};
use crate::error::{Result, check};
use crate::raw::{self, IN_PROGRESS, RedOp};

#[derive(Default)]
struct Record {
    depth: usize,
    comms: Vec<Arc<CommInner>>,
    arrays: Vec<Array>,
    ops: Vec<(Arc<CommInner>, RedOp)>,
    names: Vec<&'static str>,
    /// Communicators dropped while the group was open: closed after its
    /// end (inside a group, ncclCommFinalize is only recorded, so a
    /// destroy right after it would free what the group's end finalizes).
    closing: Vec<CommInner>,
}

thread_local! {
    static RECORD: RefCell<Record> = RefCell::default();
}

/// Whether this thread is inside an NCCL group.
pub(crate) fn in_group() -> bool {
    // Not during the thread's exit, when the record itself is dropped.
    RECORD
        .try_with(|r| r.try_borrow().is_ok_and(|r| r.depth > 0))
        .unwrap_or(false)
}

/// Records that `operation` on `comm` (whose state `st` the caller holds
/// locked) joins this thread's open group, with the arrays it reads and
/// writes.
pub(crate) fn adopt(
    comm: &Arc<CommInner>,
    st: &mut CommState,
    operation: &'static str,
    arrays: &[&Array],
) {
    st.owner = Some(std::thread::current().id());
    RECORD.with(|r| {
        let mut r = r.borrow_mut();
        if !r.comms.iter().any(|c| Arc::ptr_eq(c, comm)) {
            r.comms.push(comm.clone());
        }
        r.arrays.extend(arrays.iter().map(|a| (*a).clone()));
        if !r.names.contains(&operation) {
            r.names.push(operation);
        }
    });
}

/// Closes `comm` (finalize and destroy) once this thread's open group
/// has ended.
pub(crate) fn defer_close(comm: CommInner) {
    RECORD.with(|r| r.borrow_mut().closing.push(comm));
}

/// Destroys `op` when the open group ends (NCCL needs it until then).
pub(crate) fn defer_op(comm: &Arc<CommInner>, op: RedOp) {
    RECORD.with(|r| r.borrow_mut().ops.push((comm.clone(), op)));
}

/// A scope of grouped NCCL calls, from [`group_start`] to
/// [`GroupGuard::end`] (or its drop, which logs NCCL's error). Belongs to
/// its thread, as NCCL's groups do.
#[derive(Debug)]
#[must_use = "the group ends when the guard is dropped"]
pub struct GroupGuard {
    ended: bool,
    _thread: PhantomData<*const ()>,
}

/// Starts a group of NCCL calls (CuPy's `groupStart()`, NCCL's
/// `ncclGroupStart`): collectives and sends/receives made until the guard
/// ends are queued together at its end, which is how one thread drives
/// several devices ([`crate::NcclCommunicator::init_all`]) and how sends
/// and receives that depend on each other avoid a deadlock. Groups nest;
/// the outermost end queues the work.
///
/// ```no_run
/// use gpu_nccl::{NcclCommunicator, group_start};
/// # fn run(comm: &NcclCommunicator, x: &gpu_array::Array, y: &gpu_array::Array) -> gpu_nccl::Result<()> {
/// let peer = (comm.rank_id() + 1) % comm.size();
/// let from = (comm.rank_id() + comm.size() - 1) % comm.size();
/// let group = group_start()?;
/// comm.send(x, peer, None)?; // a ring shift: every rank sends and receives
/// comm.recv(y, from, None)?;
/// group.end()?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// NCCL cannot be loaded or fails.
pub fn group_start() -> Result<GroupGuard> {
    check(
        "group_start",
        "ncclGroupStart",
        None,
        raw::group_start(),
        None,
    )?;
    RECORD.with(|r| r.borrow_mut().depth += 1);
    Ok(GroupGuard {
        ended: false,
        _thread: PhantomData,
    })
}

impl GroupGuard {
    /// Ends the group (CuPy's `groupEnd()`, NCCL's `ncclGroupEnd`); the
    /// outermost end queues the group's work and, for non-blocking
    /// communicators, waits until it is queued (up to each one's timeout).
    ///
    /// ```no_run
    /// # fn main() -> gpu_nccl::Result<()> {
    /// let group = gpu_nccl::group_start()?;
    /// group.end()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// NCCL's error for the group's calls, naming the operations and the
    /// rank; [`crate::Error::Timeout`].
    pub fn end(mut self) -> Result<()> {
        self.ended = true;
        finish()
    }
}

/// Ends the group `group` started (CuPy's `groupEnd()`): the same as
/// [`GroupGuard::end`], under CuPy's name. The guard is consumed, so a
/// group cannot be ended twice nor left open by mistake.
///
/// ```no_run
/// use gpu_nccl::{group_end, group_start};
/// # fn main() -> gpu_nccl::Result<()> {
/// let group = group_start()?; // nccl.groupStart()
/// // ... collectives, sends and receives ...
/// group_end(group)?; // nccl.groupEnd()
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`GroupGuard::end`].
pub fn group_end(group: GroupGuard) -> Result<()> {
    group.end()
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if !self.ended
            && let Err(e) = finish()
        {
            tracing::warn!("ending an NCCL group on drop failed: {e}");
        }
    }
}

fn finish() -> Result<()> {
    let status = raw::group_end();
    let outer = RECORD.with(|r| {
        let mut r = r.borrow_mut();
        r.depth = r.depth.saturating_sub(1);
        (r.depth == 0).then(|| std::mem::take(&mut *r))
    });
    let Some(record) = outer else {
        return check("group_end", "ncclGroupEnd", None, status, None).map(drop);
    };
    let operation = if record.names.is_empty() {
        "group_end".to_string()
    } else {
        format!("group of {}", record.names.join(", "))
    };
    let first = record.comms.first();
    let in_progress = status == Ok(IN_PROGRESS);
    let mut result = check(
        &operation,
        "ncclGroupEnd",
        first.and_then(|c| c.rank_pair()),
        status,
        None,
    )
    .map(drop);
    for comm in &record.comms {
        let mut st = comm.lock_any();
        if in_progress && result.is_ok() {
            result = comm.wait_ready(&mut st, &operation, "ncclGroupEnd");
        }
        st.owner = None;
    }
    for (comm, op) in &record.ops {
        let st = comm.lock_any();
        if let Some(c) = raw_of(&st) {
            let _ = raw::red_op_destroy(*op, c);
        }
    }
    // The arrays and communicators are let go only now, after the work
    // that uses them is queued (or abandoned with its communicator); the
    // communicators dropped inside the group close now, outside it.
    drop(record);
    result
}

fn raw_of(st: &CommState) -> Option<raw::Comm> {
    st.raw_handle()
}
