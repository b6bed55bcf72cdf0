//! One deferred launch: work whose result may never be read.
//!
//! `where(a > 0, a, b)` written as two calls makes a boolean array that only
//! the `where` reads. Launched eagerly, the comparison writes it and the
//! `where` reads it back: two passes over memory where one would do. The
//! layers above may instead *defer* such a launch here, holding it until
//! something could observe it, and a consumer that knows what the deferred
//! work computes (its [`tag`](pending_tag)) may compute the same values
//! inline and leave the launch pending. If nothing ever reads the result,
//! dropping its [`Memory`] cancels the launch.
//!
//! At most one launch is pending in the process. It runs, in its own stream
//! order, before anything that could see its effect or its absence:
//!
//! - any device address taken ([`Memory::ptr`]: every kernel, copy and
//!   library call reads addresses that way, and writes through them too, so
//!   a later write into the deferred launch's inputs waits for it);
//! - an event recorded, a stream or device synchronized or queried;
//! - another deferral, or an explicit [`flush`].
//!
//! The pending launch runs on the stream current when it was deferred, as it
//! would have eagerly; only its position in time moves, never its position
//! relative to the work it could interact with. A thread that computes the
//! deferred values inline takes its operands' addresses under [`hold`], which
//! keeps that thread's own address reads from running the launch it is
//! replacing; other threads still run it on their first access, which is
//! always correct, just not fused.

use std::any::Any;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::memory::Memory;
use crate::{Error, Result};

/// The deferred launch and what it writes.
struct Deferred {
    /// The address of the [`Memory`] the launch writes (its identity while
    /// it lives; its drop cancels the launch).
    target: usize,
    /// What the launch computes, for consumers that can inline it.
    tag: Arc<dyn Any + Send + Sync>,
    run: Box<dyn FnOnce() -> Result<()> + Send>,
}

/// Whether [`SLOT`] may hold a launch: one load on every address read.
static PENDING: AtomicBool = AtomicBool::new(false);
static SLOT: Mutex<Option<Deferred>> = Mutex::new(None);
/// The error of a deferred launch that ran where nobody could be told (an
/// address read); the next [`flush`] returns it.
static FAILED: Mutex<Option<Error>> = Mutex::new(None);
/// Whether [`FAILED`] may hold an error.
static HAS_FAILED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// How many [`HoldGuard`]s this thread has open.
    static HELD: Cell<u32> = const { Cell::new(0) };
}

fn slot() -> MutexGuard<'static, Option<Deferred>> {
    SLOT.lock().unwrap_or_else(|p| p.into_inner())
}

fn identity(m: &Memory) -> usize {
    std::ptr::from_ref(m) as usize
}

/// Defers `run`, a launch that writes only into `target` (which must stay
/// where it is until dropped: the `Memory` behind an `Arc`). `tag` says what
/// it computes for [`pending_tag`]. Any launch deferred before runs first.
///
/// `run` must hold whatever its launch reads (the input buffers) alive and
/// must not take device addresses itself: it runs inside [`Memory::ptr`].
///
/// # Errors
/// The earlier deferred launch failed.
pub fn defer(
    target: &Memory,
    tag: Arc<dyn Any + Send + Sync>,
    run: impl FnOnce() -> Result<()> + Send + 'static,
) -> Result<()> {
    flush()?;
    let previous = slot().replace(Deferred {
        target: identity(target),
        tag,
        run: Box::new(run),
    });
    PENDING.store(true, Ordering::Release);
    // `flush` emptied the slot; another thread may have deferred since.
    match previous {
        Some(p) => (p.run)(),
        None => Ok(()),
    }
}

/// Runs the pending launch, if any.
///
/// # Errors
/// The launch failed, now or when an address read ran it.
pub fn flush() -> Result<()> {
    // Every synchronize and event record comes here: a plain load first.
    if HAS_FAILED.load(Ordering::Acquire)
        && HAS_FAILED.swap(false, Ordering::AcqRel)
        && let Some(e) = FAILED.lock().unwrap_or_else(|p| p.into_inner()).take()
    {
        return Err(e);
    }
    if !PENDING.load(Ordering::Acquire) {
        return Ok(());
    }
    let taken = {
        let mut s = slot();
        PENDING.store(false, Ordering::Release);
        s.take()
    };
    // Run (and drop what it held) outside the lock: dropping its inputs'
    // memory comes back here through `cancel`.
    match taken {
        Some(d) => (d.run)(),
        None => Ok(()),
    }
}

/// [`flush`] from an address read, which cannot return an error: the error
/// is logged and kept for the next [`flush`] (every synchronize).
#[inline]
pub(crate) fn flush_for_access() {
    if PENDING.load(Ordering::Acquire) {
        flush_for_access_slow();
    }
}

#[cold]
fn flush_for_access_slow() {
    if HELD.with(Cell::get) > 0 {
        return;
    }
    if let Err(e) = flush() {
        tracing::error!("a deferred launch failed: {e}");
        *FAILED.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
        HAS_FAILED.store(true, Ordering::Release);
    }
}

/// Cancels the pending launch if it writes `target`, which is being
/// dropped: nobody can read what it would have written.
pub(crate) fn cancel(target: &Memory) {
    if !PENDING.load(Ordering::Acquire) {
        return;
    }
    let id = identity(target);
    let taken = {
        let mut s = slot();
        if s.as_ref().is_some_and(|d| d.target == id) {
            PENDING.store(false, Ordering::Release);
            s.take()
        } else {
            None
        }
    };
    drop(taken);
}

/// The tag of the pending launch if it writes `target` (and has not run).
pub fn pending_tag(target: &Memory) -> Option<Arc<dyn Any + Send + Sync>> {
    if !PENDING.load(Ordering::Acquire) {
        return None;
    }
    let id = identity(target);
    slot()
        .as_ref()
        .filter(|d| d.target == id)
        .map(|d| Arc::clone(&d.tag))
}

/// While the guard lives, this thread's address reads leave the pending
/// launch pending (see the module docs: for a consumer computing its values
/// inline). Explicit flushes, synchronizes and deferrals still run it.
pub fn hold() -> HoldGuard {
    HELD.with(|h| h.set(h.get() + 1));
    HoldGuard {
        _not_send: std::marker::PhantomData,
    }
}

/// Returned by [`hold`]; bound to its thread.
#[must_use = "the hold ends when the guard drops"]
pub struct HoldGuard {
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for HoldGuard {
    fn drop(&mut self) {
        HELD.with(|h| h.set(h.get() - 1));
    }
}

impl std::fmt::Debug for HoldGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HoldGuard")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    // One test owns the process-wide slot (tests run in parallel threads).
    #[test]
    fn runs_once_on_access_or_flush_and_cancels_on_drop() {
        let target = Arc::new(Memory::empty(crate::Device::for_tests(0)));
        let runs = Arc::new(AtomicUsize::new(0));
        let r = Arc::clone(&runs);
        defer(&target, Arc::new(7u32), move || {
            r.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
        let tag = pending_tag(&target).expect("pending");
        assert_eq!(tag.downcast_ref::<u32>(), Some(&7));
        {
            let _h = hold();
            flush_for_access();
            assert_eq!(runs.load(Ordering::SeqCst), 0, "held: no run");
        }
        flush_for_access();
        assert_eq!(runs.load(Ordering::SeqCst), 1);
        assert!(pending_tag(&target).is_none());
        flush().unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 1, "runs once");

        // Dropping the target cancels.
        let r = Arc::clone(&runs);
        defer(&target, Arc::new(()), move || {
            r.fetch_add(1, Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
        // Dropped in place, inside its `Arc`, as arrays drop their buffers.
        drop(target);
        flush().unwrap();
        assert_eq!(runs.load(Ordering::SeqCst), 1, "cancelled");

        // A failure seen by an address read comes back from the next flush.
        let other = Arc::new(Memory::empty(crate::Device::for_tests(0)));
        defer(&other, Arc::new(()), || {
            Err(Error::InvalidArgument("launch failed".into()))
        })
        .unwrap();
        flush_for_access();
        assert!(flush().is_err());
        assert!(flush().is_ok());
    }
}
