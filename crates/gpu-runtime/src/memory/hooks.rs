//! Memory hooks: callbacks around the pools' allocations and frees
//! (CuPy's `cupy.cuda.MemoryHook` and `memory_hooks.DebugPrintHook`).
//!
//! Hooks are per thread: [`with_hook`] pushes one on the calling thread's
//! stack until its guard drops, and the pools call every active hook of the
//! thread that allocates or frees. With no hook active the cost is one
//! thread-local read.
//!
//! | event    | when                                                   |
//! |----------|--------------------------------------------------------|
//! | `alloc`  | a pool takes fresh memory from the driver (`cuMemAlloc`) |
//! | `malloc` | a pool hands out a block (cached or fresh)              |
//! | `free`   | a block returns to its pool                             |
//!
//! The `alloc` hooks run while the pool's lock is held: a hook must not
//! allocate or free device memory from the pool it observes.

use std::io::Write;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

use crate::DevicePtr;
use crate::scoped::{EntryId, Scoped};

/// What a hook is told about one event. Fields that do not apply to an
/// event are 0 (or [`DevicePtr::NULL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HookInfo {
    /// The device's ordinal.
    pub device_id: i32,
    /// The size asked for (`malloc` only).
    pub size: usize,
    /// The size of the memory actually taken (rounded to 512 bytes).
    pub mem_size: usize,
    /// The address handed out or freed; null in the preprocess of
    /// `alloc` and `malloc`.
    pub mem_ptr: DevicePtr,
    /// The address of the raw allocation the block was cut from (CuPy's
    /// `pmem_id`); 0 for `alloc`.
    pub pmem_id: u64,
}

/// A set of callbacks around memory events; every method does nothing
/// unless overridden.
pub trait MemoryHook: Send + Sync {
    /// The hook's name, for messages.
    fn name(&self) -> &str {
        "MemoryHook"
    }
    /// Before a pool takes fresh memory from the driver.
    fn alloc_preprocess(&self, _info: &HookInfo) {}
    /// After a pool took fresh memory from the driver.
    fn alloc_postprocess(&self, _info: &HookInfo) {}
    /// Before a pool hands out a block.
    fn malloc_preprocess(&self, _info: &HookInfo) {}
    /// After a pool handed out a block.
    fn malloc_postprocess(&self, _info: &HookInfo) {}
    /// Before a block returns to its pool.
    fn free_preprocess(&self, _info: &HookInfo) {}
    /// After a block returned to its pool.
    fn free_postprocess(&self, _info: &HookInfo) {}
}

thread_local! {
    static HOOKS: Scoped<Arc<dyn MemoryHook>> = const { Scoped::new() };
}

/// Activates `hook` on the calling thread until the guard drops (CuPy's
/// `with hook:`). Hooks nest; all active ones are called, oldest first. A
/// guard's drop deactivates its own hook, even out of order.
///
/// ```no_run
/// use gpu_runtime::alloc;
/// use gpu_runtime::memory::{DebugPrintHook, with_hook};
/// use std::sync::Arc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let _hook = with_hook(Arc::new(DebugPrintHook::new())); // with DebugPrintHook():
/// let m = alloc(400)?; // prints a "malloc" line
/// # Ok(()) }
/// ```
#[must_use = "the hook is active only while the guard lives"]
pub fn with_hook(hook: Arc<dyn MemoryHook>) -> HookGuard {
    HookGuard {
        id: HOOKS.with(|h| h.push(hook)),
        _not_send: PhantomData,
    }
}

/// Deactivates the hook pushed by [`with_hook`] when dropped.
#[derive(Debug)]
pub struct HookGuard {
    id: EntryId,
    _not_send: PhantomData<*const ()>,
}

impl Drop for HookGuard {
    fn drop(&mut self) {
        // The hook is dropped after the stack is released; at thread exit
        // the stack may be gone already.
        let hook = HOOKS.try_with(|h| h.remove(self.id));
        drop(hook);
    }
}

/// Whether any hook is active on this thread.
#[inline]
pub(crate) fn any_active() -> bool {
    // At thread exit (a pool block freed by a thread-local's destructor)
    // the stack may be gone: no hook is active then.
    HOOKS.try_with(|h| !h.is_empty()).unwrap_or(false)
}

/// Which callback to invoke.
#[derive(Debug, Clone, Copy)]
pub(crate) enum HookEvent {
    AllocPre,
    AllocPost,
    MallocPre,
    MallocPost,
    FreePre,
    FreePost,
}

/// Calls `event` on every active hook of this thread.
#[inline]
pub(crate) fn call(event: HookEvent, info: impl FnOnce() -> HookInfo) {
    if any_active() {
        call_slow(event, &info());
    }
}

#[cold]
fn call_slow(event: HookEvent, info: &HookInfo) {
    // A snapshot, so that a hook may itself push or pop hooks.
    let hooks: Vec<Arc<dyn MemoryHook>> = HOOKS.with(Scoped::snapshot);
    for h in hooks {
        match event {
            HookEvent::AllocPre => h.alloc_preprocess(info),
            HookEvent::AllocPost => h.alloc_postprocess(info),
            HookEvent::MallocPre => h.malloc_preprocess(info),
            HookEvent::MallocPost => h.malloc_postprocess(info),
            HookEvent::FreePre => h.free_preprocess(info),
            HookEvent::FreePost => h.free_postprocess(info),
        }
    }
}

/// Prints one JSON line per event, as CuPy's `DebugPrintHook` does:
///
/// ```text
/// {"hook":"alloc","device_id":0,"mem_size":512,"mem_ptr":140046713602048}
/// {"hook":"malloc","device_id":0,"size":400,"mem_size":512,"mem_ptr":140046713602048,"pmem_id":"0x7f5f5a000000"}
/// {"hook":"free","device_id":0,"mem_size":512,"mem_ptr":140046713602048,"pmem_id":"0x7f5f5a000000"}
/// ```
pub struct DebugPrintHook {
    out: Mutex<Box<dyn Write + Send>>,
    flush: bool,
}

impl std::fmt::Debug for DebugPrintHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DebugPrintHook")
            .field("flush", &self.flush)
            .finish_non_exhaustive()
    }
}

impl Default for DebugPrintHook {
    fn default() -> Self {
        DebugPrintHook::new()
    }
}

impl DebugPrintHook {
    /// Prints to standard output, flushing after each line.
    ///
    /// ```no_run
    /// use gpu_runtime::memory::{DebugPrintHook, with_hook};
    /// use std::sync::Arc;
    /// let _hook = with_hook(Arc::new(DebugPrintHook::new())); // JSON lines on stdout
    /// ```
    pub fn new() -> DebugPrintHook {
        DebugPrintHook::with_writer(std::io::stdout(), true)
    }

    /// Prints to `out`, flushing after each line when `flush`.
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// use gpu_runtime::memory::{DebugPrintHook, with_hook};
    /// use std::sync::Arc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let log = std::fs::File::create("memory.jsonl").unwrap();
    /// let _hook = with_hook(Arc::new(DebugPrintHook::with_writer(log, false)));
    /// let m = alloc(400)?; // one JSON line per event in memory.jsonl
    /// # Ok(()) }
    /// ```
    pub fn with_writer(out: impl Write + Send + 'static, flush: bool) -> DebugPrintHook {
        DebugPrintHook {
            out: Mutex::new(Box::new(out)),
            flush,
        }
    }

    fn print(&self, line: std::fmt::Arguments<'_>) {
        let mut out = self.out.lock().unwrap_or_else(|p| p.into_inner());
        // A debugging aid: a failed write is not worth failing an allocation.
        let _ = writeln!(out, "{line}");
        if self.flush {
            let _ = out.flush();
        }
    }
}

impl MemoryHook for DebugPrintHook {
    fn name(&self) -> &str {
        "DebugPrintHook"
    }

    fn alloc_postprocess(&self, i: &HookInfo) {
        self.print(format_args!(
            r#"{{"hook":"alloc","device_id":{},"mem_size":{},"mem_ptr":{}}}"#,
            i.device_id, i.mem_size, i.mem_ptr.0
        ));
    }

    fn malloc_postprocess(&self, i: &HookInfo) {
        self.print(format_args!(
            r#"{{"hook":"malloc","device_id":{},"size":{},"mem_size":{},"mem_ptr":{},"pmem_id":"{:#x}"}}"#,
            i.device_id, i.size, i.mem_size, i.mem_ptr.0, i.pmem_id
        ));
    }

    fn free_postprocess(&self, i: &HookInfo) {
        self.print(format_args!(
            r#"{{"hook":"free","device_id":{},"mem_size":{},"mem_ptr":{},"pmem_id":"{:#x}"}}"#,
            i.device_id, i.mem_size, i.mem_ptr.0, i.pmem_id
        ));
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    pub(crate) struct SharedBuf(pub Arc<Mutex<Vec<u8>>>);

    impl Write for SharedBuf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl SharedBuf {
        pub(crate) fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn debug_print_hook_writes_cupy_lines_and_nests() {
        let buf = SharedBuf::default();
        let info = HookInfo {
            device_id: 0,
            size: 400,
            mem_size: 512,
            mem_ptr: DevicePtr(4096),
            pmem_id: 4096,
        };
        call(HookEvent::MallocPost, || unreachable!("no hook active"));
        {
            let _g = with_hook(Arc::new(DebugPrintHook::with_writer(buf.clone(), false)));
            assert!(any_active());
            call(HookEvent::AllocPost, || info);
            call(HookEvent::MallocPre, || info);
            call(HookEvent::MallocPost, || info);
            {
                let _h = with_hook(Arc::new(DebugPrintHook::with_writer(buf.clone(), false)));
                call(HookEvent::FreePost, || info);
            }
        }
        assert!(!any_active());
        call(HookEvent::FreePost, || unreachable!("no hook active"));
        assert_eq!(
            buf.text(),
            concat!(
                r#"{"hook":"alloc","device_id":0,"mem_size":512,"mem_ptr":4096}"#,
                "\n",
                r#"{"hook":"malloc","device_id":0,"size":400,"mem_size":512,"mem_ptr":4096,"pmem_id":"0x1000"}"#,
                "\n",
                r#"{"hook":"free","device_id":0,"mem_size":512,"mem_ptr":4096,"pmem_id":"0x1000"}"#,
                "\n",
                r#"{"hook":"free","device_id":0,"mem_size":512,"mem_ptr":4096,"pmem_id":"0x1000"}"#,
                "\n",
            )
        );
    }

    /// Records its name for every `free` postprocess (test-only; the log is
    /// the test's own, shared with the hook by the `Arc`).
    struct Named(&'static str, Arc<Mutex<Vec<&'static str>>>);

    impl MemoryHook for Named {
        fn free_postprocess(&self, _: &HookInfo) {
            self.1.lock().unwrap().push(self.0);
        }
    }

    #[test]
    fn out_of_order_drops_deactivate_the_dropped_hook() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let info = HookInfo {
            device_id: 0,
            size: 0,
            mem_size: 512,
            mem_ptr: DevicePtr(4096),
            pmem_id: 4096,
        };
        let fire = || {
            call(HookEvent::FreePost, || info);
            std::mem::take(&mut *seen.lock().unwrap())
        };
        let a = with_hook(Arc::new(Named("a", seen.clone())));
        let b = with_hook(Arc::new(Named("b", seen.clone())));
        let c = with_hook(Arc::new(Named("c", seen.clone())));
        assert_eq!(fire(), ["a", "b", "c"]);
        // Popping the newest hook for a's guard would silence c instead.
        drop(a);
        assert_eq!(fire(), ["b", "c"]);
        drop(c);
        assert_eq!(fire(), ["b"]);
        let d = with_hook(Arc::new(Named("d", seen.clone())));
        assert_eq!(fire(), ["b", "d"]);
        drop(b);
        drop(d);
        assert!(!any_active());
        assert!(fire().is_empty());
    }
}
