//! Streams: the null stream, created and external streams, the per-thread
//! current stream, host callbacks.

use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};
use std::marker::PhantomData;
use std::sync::Arc;
use std::thread::ThreadId;

use gpu_sys::cuda::{self, CUstream};

use crate::driver::check;
use crate::event::Event;
use crate::scoped::{EntryId, Scoped};
use crate::sync::check_sync_allowed;
use crate::{Device, Error, Result};

/// Options for [`Stream::with_options`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct StreamOptions {
    /// Does not synchronize with the legacy null stream (`CU_STREAM_NON_BLOCKING`).
    pub non_blocking: bool,
    /// Lower numbers are higher priority; see [`Stream::priority_range`].
    pub priority: i32,
}

impl StreamOptions {
    /// Sets `non_blocking`.
    ///
    /// ```
    /// use gpu_runtime::StreamOptions;
    /// assert!(StreamOptions::default().non_blocking(true).non_blocking);
    /// ```
    #[must_use]
    pub fn non_blocking(mut self, non_blocking: bool) -> StreamOptions {
        self.non_blocking = non_blocking;
        self
    }

    /// Sets `priority`.
    ///
    /// ```
    /// use gpu_runtime::StreamOptions;
    /// assert_eq!(StreamOptions::default().priority(-1).priority, -1);
    /// ```
    #[must_use]
    pub fn priority(mut self, priority: i32) -> StreamOptions {
        self.priority = priority;
        self
    }
}

#[derive(Debug)]
enum Kind {
    /// The legacy default stream, handle 0.
    Null,
    /// The per-thread default stream (`CU_STREAM_PER_THREAD`).
    PerThread,
    /// Created by us; destroyed with the last clone.
    Owned,
    /// Someone else's handle; never destroyed by us.
    External,
    /// Was `Owned`, destroyed by [`Stream::destroy`]: nothing is left for
    /// the drop to do.
    Destroyed,
}

struct Inner {
    raw: CUstream,
    device: Device,
    kind: Kind,
    id: u64,
    /// For the per-thread stream: the thread whose stream handle 2 means.
    owner: Option<ThreadId>,
}

// SAFETY: CUDA stream handles may be used from any thread.
unsafe impl Send for Inner {}
// SAFETY: as above; Inner is immutable.
unsafe impl Sync for Inner {}

impl Drop for Inner {
    fn drop(&mut self) {
        if !matches!(self.kind, Kind::Null | Kind::Destroyed) {
            // No block of the pools can name this stream again: hand its
            // cached ones to the shared arenas once its work is done.
            crate::memory::retire_stream(
                self.device,
                self.id,
                self.raw,
                matches!(self.kind, Kind::PerThread),
            );
        }
        if matches!(self.kind, Kind::Owned) {
            // Work already queued completes; the driver frees the stream after it.
            let _ = self.device.bind();
            // SAFETY: we created this stream and this is its last handle.
            let _ = unsafe { cuda::cuStreamDestroy_v2(self.raw) };
        }
    }
}

/// A CUDA stream. Clones share the stream; an owned stream is destroyed with
/// its last clone.
#[derive(Clone)]
pub struct Stream {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "<Stream {:?} {:#x} (device {})>",
            self.inner.kind,
            self.inner.raw as usize,
            self.inner.device.ordinal()
        )
    }
}

impl PartialEq for Stream {
    fn eq(&self, other: &Self) -> bool {
        // Per-thread streams share handle 2 but are one per thread.
        let per_thread = |s: &Stream| matches!(s.inner.kind, Kind::PerThread);
        if per_thread(self) || per_thread(other) {
            return self.inner.id == other.inner.id;
        }
        self.inner.raw == other.inner.raw && self.inner.device == other.inner.device
    }
}
impl Eq for Stream {}

fn next_id() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1 << 20);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

thread_local! {
    /// The streams of the live [`StreamGuard`]s: a device's current stream
    /// is the newest of its device (none: the null stream).
    static CURRENT: Scoped<Stream> = const { Scoped::new() };
    static NULLS: RefCell<Vec<Option<Stream>>> = const { RefCell::new(Vec::new()) };
    /// Per device, this thread's per-thread default stream: one value (so
    /// one id and one pool arena) per thread, as the driver has one stream
    /// per thread. Handing a clone to another thread is allowed; using it
    /// there is refused by `Stream::handle`. Dropped at thread exit, when
    /// the stream's arena is retired (without touching other thread-locals).
    static PER_THREAD: RefCell<Vec<Option<Stream>>> = const { RefCell::new(Vec::new()) };
}

/// The thread-cached stream of `device` in `cache`, made by `make` once.
fn cached(
    cache: &'static std::thread::LocalKey<RefCell<Vec<Option<Stream>>>>,
    device: Device,
    make: impl FnOnce() -> Stream,
) -> Stream {
    cache.with(|n| {
        let mut n = n.borrow_mut();
        let i = device.ordinal() as usize;
        if n.len() <= i {
            n.resize(i + 1, None);
        }
        n[i].get_or_insert_with(make).clone()
    })
}

impl Stream {
    /// The legacy null stream of `device`, which synchronizes with every
    /// blocking stream of the device (CuPy's `Stream.null`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::null(Device::current()?); // cupy.cuda.Stream.null
    /// assert!(s.is_null());
    /// # Ok(()) }
    /// ```
    pub fn null(device: Device) -> Stream {
        cached(&NULLS, device, || Stream {
            inner: Arc::new(Inner {
                raw: std::ptr::null_mut(),
                device,
                kind: Kind::Null,
                // Ids below 2^20 are the null streams', one per device.
                id: device.ordinal() as u64,
                owner: None,
            }),
        })
    }

    /// The calling thread's per-thread default stream of `device` (CuPy's
    /// `Stream.ptds`): one value per thread and device, so one pool arena.
    ///
    /// Its handle (2) means "the calling thread's stream" to the driver, so
    /// the value belongs to this thread: work launched through it on
    /// another thread is refused ([`Stream::handle`] fails) rather than
    /// queued on that thread's stream, and memory freed on another thread
    /// is ordered through the legacy stream, which follows it.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::per_thread(Device::current()?); // cupy.cuda.Stream.ptds
    /// let _on = s.use_stream();
    /// # Ok(()) }
    /// ```
    pub fn per_thread(device: Device) -> Stream {
        cached(&PER_THREAD, device, || Stream {
            inner: Arc::new(Inner {
                raw: 2 as CUstream,
                device,
                kind: Kind::PerThread,
                id: next_id(),
                owner: Some(std::thread::current().id()),
            }),
        })
    }

    /// A new blocking stream of default priority on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::new()?; // cupy.cuda.Stream()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No device, or the driver failed.
    pub fn new() -> Result<Stream> {
        Stream::with_options(Device::current()?, StreamOptions::default())
    }

    /// A new stream on `device`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::with_options(Device::current()?, gpu_runtime::StreamOptions::default().non_blocking(true))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn with_options(device: Device, options: StreamOptions) -> Result<Stream> {
        device.bind()?;
        let flags: c_uint = if options.non_blocking { 1 } else { 0 };
        let mut raw: CUstream = std::ptr::null_mut();
        // SAFETY: writes one handle; the device's context is current.
        check("cuStreamCreateWithPriority", unsafe {
            cuda::cuStreamCreateWithPriority(&mut raw, flags, options.priority as c_int)
        })?;
        Ok(Stream {
            inner: Arc::new(Inner {
                raw,
                device,
                kind: Kind::Owned,
                id: next_id(),
                owner: None,
            }),
        })
    }

    /// Wraps a stream created elsewhere (another library, the CUDA runtime).
    /// Cuprum never destroys it (CuPy's `ExternalStream`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mine = Stream::new()?;
    /// // SAFETY: `mine` keeps the handle alive while `ext` is used.
    /// let ext = unsafe { Stream::from_raw(mine.raw(), Device::current()?) }; // cupy.cuda.ExternalStream
    /// ext.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// The special handle 2 (`CU_STREAM_PER_THREAD`) means the calling
    /// thread's own stream wherever it is used, so it gives
    /// [`Stream::per_thread`] of the calling thread (one value and one
    /// pool arena per thread, refused on other threads), not a stream any
    /// thread may share.
    ///
    /// # Safety
    /// `raw` must be a valid stream of `device`'s primary context (or one of
    /// the special handles 0, 1, 2) for as long as this value, its clones,
    /// and the memory allocated on them live: the last drop records an
    /// event on `raw`, and memory freed asynchronously queues its free
    /// there.
    pub unsafe fn from_raw(raw: CUstream, device: Device) -> Stream {
        if raw as usize == 2 {
            return Stream::per_thread(device);
        }
        Stream {
            inner: Arc::new(Inner {
                raw,
                device,
                kind: Kind::External,
                id: next_id(),
                owner: None,
            }),
        }
    }

    /// Destroys the stream now and reports the driver's answer (CuPy's
    /// `runtime.streamDestroy`); dropping the last handle does the same
    /// but cannot report. Work already queued still completes. The pools'
    /// blocks cached for the stream move to their shared arenas first, as
    /// at the drop.
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::new()?;
    /// s.destroy()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a stream Cuprum did not create (the
    /// null, per-thread or an external stream) or one with other live
    /// handles (clones, a [`use_stream`](Self::use_stream) guard, memory
    /// allocated on it): it is then left to the last of them. The driver
    /// failed.
    pub fn destroy(self) -> Result<()> {
        if !matches!(self.inner.kind, Kind::Owned) {
            return Err(Error::InvalidArgument(format!(
                "Stream::destroy: {self:?} was not created by Cuprum (Stream::new or \
                 with_options), so it is not Cuprum's to destroy"
            )));
        }
        let mut inner = Arc::try_unwrap(self.inner).map_err(|inner| {
            Error::InvalidArgument(format!(
                "Stream::destroy: {} other handles of the stream are alive (clones, a \
                 use_stream guard, memory allocated on it); it is destroyed with the last",
                Arc::strong_count(&inner) - 1
            ))
        })?;
        // The drop's work, done here with the driver's answer returned.
        crate::memory::retire_stream(inner.device, inner.id, inner.raw, false);
        inner.kind = Kind::Destroyed;
        inner.device.bind()?;
        // SAFETY: we created this stream, hold its last handle, and the
        // Destroyed kind keeps the drop from destroying it again.
        check("cuStreamDestroy", unsafe {
            cuda::cuStreamDestroy_v2(inner.raw)
        })
    }

    /// `(least, greatest)` priority: lower numbers are higher priority, so
    /// `greatest` is the numerically smallest.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream, StreamOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (least, greatest) = Stream::priority_range()?;
    /// assert!(greatest <= least);
    /// let urgent = Stream::with_options(Device::current()?, StreamOptions::default().priority(greatest))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn priority_range() -> Result<(i32, i32)> {
        Device::current()?.bind()?;
        let (mut least, mut greatest) = (0, 0);
        // SAFETY: writes two ints.
        check("cuCtxGetStreamPriorityRange", unsafe {
            cuda::cuCtxGetStreamPriorityRange(&mut least, &mut greatest)
        })?;
        Ok((least, greatest))
    }

    /// The calling thread's current stream on the current device (the null
    /// stream unless set with [`Stream::use_stream`]).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::current()?; // cupy.cuda.get_current_stream()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No device.
    pub fn current() -> Result<Stream> {
        let device = Device::current()?;
        Ok(Stream::current_on(device))
    }

    /// The calling thread's current stream on `device`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::current_on(Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn current_on(device: Device) -> Stream {
        CURRENT
            .with(|c| c.find_last(|s| (s.device() == device).then(|| s.clone())))
            .unwrap_or_else(|| Stream::null(device))
    }

    /// Makes this the current stream of its device on this thread until the
    /// guard drops (CuPy's `with stream:`). Guards nest per device; the
    /// innermost live one decides, even when an outer one is dropped first.
    #[must_use = "the stream is current only while the guard lives"]
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::new()?;
    /// {
    ///     let _on = s.use_stream(); // with s:
    ///     // work queued here goes to `s`
    /// }
    /// # Ok(()) }
    /// ```
    pub fn use_stream(&self) -> StreamGuard {
        StreamGuard {
            id: CURRENT.with(|c| c.push(self.clone())),
            _not_send: PhantomData,
        }
    }

    /// The raw handle. For a per-thread stream this is 2, which the
    /// driver resolves on the calling thread: prefer [`Stream::handle`],
    /// which checks that the calling thread is the stream's own.
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::new()?;
    /// let raw = s.raw(); // a `CUstream` for another library
    /// assert_eq!(raw, s.handle()?);
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> CUstream {
        self.inner.raw
    }

    /// The raw handle, for work queued by the calling thread.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::per_thread(Device::current()?);
    /// assert!(s.handle().is_ok()); // on its own thread
    /// std::thread::scope(|t| {
    ///     t.spawn(|| assert!(s.handle().is_err())); // another thread's stream
    /// });
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// This is another thread's per-thread stream: its handle would queue
    /// the work on the calling thread's own stream instead.
    #[inline]
    pub fn handle(&self) -> Result<CUstream> {
        if self.is_usable_here() {
            Ok(self.inner.raw)
        } else {
            Err(Error::InvalidArgument(format!(
                "the per-thread default stream of thread {:?} was used on thread {:?}: \
                 its handle means the calling thread's own stream there; use \
                 Stream::per_thread on the thread that queues the work",
                self.inner.owner.expect("a per-thread stream has an owner"),
                std::thread::current().id()
            )))
        }
    }

    /// Whether the calling thread may queue work on this stream.
    #[inline]
    fn is_usable_here(&self) -> bool {
        match self.inner.owner {
            None => true,
            Some(owner) => owner == std::thread::current().id(),
        }
    }

    /// This stream where the calling thread may use it, else the device's
    /// legacy stream, whose work follows every blocking stream's (a
    /// per-thread stream's too): what ordering a free or a fence after this
    /// stream's work from another thread takes.
    pub(crate) fn ordering_stream(&self) -> Stream {
        if self.is_usable_here() {
            self.clone()
        } else {
            Stream::null(self.inner.device)
        }
    }

    /// The device the stream belongs to.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(Stream::new()?.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// A process-unique id, stable for the stream's life (memory pools key
    /// their per-stream arenas by it).
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b) = (Stream::new()?, Stream::new()?);
    /// assert_ne!(a.id(), b.id());
    /// assert_eq!(a.id(), a.clone().id());
    /// # Ok(()) }
    /// ```
    pub fn id(&self) -> u64 {
        self.inner.id
    }

    /// Whether this is the legacy null stream.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(Stream::null(Device::current()?).is_null());
    /// assert!(!Stream::new()?.is_null());
    /// # Ok(()) }
    /// ```
    pub fn is_null(&self) -> bool {
        matches!(self.inner.kind, Kind::Null)
    }

    /// Waits until all work queued on the stream has finished.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// Stream::new()?.synchronize()?; // s.synchronize()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Forbidden by `allow_synchronize(false)`, or an error of queued work.
    pub fn synchronize(&self) -> Result<()> {
        check_sync_allowed("Stream::synchronize")?;
        let raw = self.handle()?;
        self.inner.device.bind()?;
        // SAFETY: a valid stream handle.
        check("cuStreamSynchronize", unsafe {
            cuda::cuStreamSynchronize(raw)
        })
    }

    /// Whether all queued work has finished (does not block).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let done = Stream::current()?.query()?; // s.done
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An error of queued work.
    pub fn query(&self) -> Result<bool> {
        let raw = self.handle()?;
        self.inner.device.bind()?;
        // SAFETY: a valid stream handle.
        let r = unsafe { cuda::cuStreamQuery(raw) }?;
        if r == cuda::CUresult::CUDA_ERROR_NOT_READY {
            return Ok(false);
        }
        check("cuStreamQuery", Ok(r)).map(|()| true)
    }

    /// Makes future work on this stream wait for `event` (no host wait).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (a, b) = (Stream::new()?, Stream::new()?);
    /// b.wait_event(&a.record()?)?; // b waits for the work queued on a so far
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn wait_event(&self, event: &Event) -> Result<()> {
        let raw = self.handle()?;
        self.inner.device.bind()?;
        // SAFETY: valid stream and event handles.
        check("cuStreamWaitEvent", unsafe {
            cuda::cuStreamWaitEvent(raw, event.raw(), 0)
        })
    }

    /// Records a new event on this stream and returns it.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::current()?;
    /// let e = s.record()?; // s.record()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn record(&self) -> Result<Event> {
        let e = Event::new(Default::default())?;
        e.record(self)?;
        Ok(e)
    }

    /// Queues `f` to run on a driver thread once the work queued before it is
    /// done (`cuLaunchHostFunc`). `f` must not call CUDA.
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// use std::sync::mpsc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (tx, rx) = mpsc::channel();
    /// let s = Stream::new()?;
    /// s.launch_host_func(move || tx.send("done").unwrap())?; // cupy Stream.launch_host_func
    /// assert_eq!(rx.recv().unwrap(), "done");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed (then `f` is dropped without running).
    pub fn launch_host_func<F: FnOnce() + Send + 'static>(&self, f: F) -> Result<()> {
        unsafe extern "C" fn trampoline(data: *mut c_void) {
            // SAFETY: `data` is the Box leaked below, consumed exactly once.
            let f = unsafe { Box::from_raw(data as *mut Box<dyn FnOnce() + Send>) };
            // A panic must not unwind into the driver.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
        }
        let raw = self.handle()?;
        self.inner.device.bind()?;
        let data: Box<Box<dyn FnOnce() + Send>> = Box::new(Box::new(f));
        let data = Box::into_raw(data) as *mut c_void;
        // SAFETY: the trampoline takes ownership of `data` when it runs.
        let r = check("cuLaunchHostFunc", unsafe {
            cuda::cuLaunchHostFunc(raw, Some(trampoline), data)
        });
        if r.is_err() {
            // SAFETY: the driver did not take the callback; reclaim it.
            drop(unsafe { Box::from_raw(data as *mut Box<dyn FnOnce() + Send>) });
        }
        r
    }
}

/// A stream owned elsewhere: another library, the CUDA runtime, a
/// framework's current stream (CuPy's `cupy.cuda.ExternalStream`). Cuprum
/// never destroys it. It dereferences to [`Stream`], so it goes wherever a
/// `&Stream` does; [`ExternalStream::into_stream`] gives the `Stream`
/// itself (still never destroyed by Cuprum).
///
/// ```no_run
/// use gpu_runtime::{Device, ExternalStream, Stream, alloc};
/// # fn main() -> gpu_runtime::Result<()> {
/// # let theirs = Stream::new()?; let raw = theirs.raw();
/// // `raw`: a `cudaStream_t` from PyTorch, cudarc, ...
/// // SAFETY: the other library keeps the stream alive while we use it.
/// let ext = unsafe { ExternalStream::new(raw, Device::current()?) };
/// let m = alloc(1024)?;
/// m.memset(0, &ext)?; // a &Stream
/// ext.synchronize()?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalStream {
    stream: Stream,
}

impl ExternalStream {
    /// Wraps the stream handle `raw` of `device`'s primary context.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, ExternalStream, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let mine = Stream::new()?;
    /// // SAFETY: `mine` outlives `ext`.
    /// let ext = unsafe { ExternalStream::new(mine.raw(), Device::current()?) };
    /// assert_eq!(ext.raw(), mine.raw());
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// As [`Stream::from_raw`]: `raw` must be a valid stream of `device`'s
    /// primary context (or one of the special handles 0, 1, 2) for as long
    /// as this value, its clones, the streams taken from it and the memory
    /// allocated on them live (the last drop records an event on `raw`;
    /// asynchronous frees queue there).
    pub unsafe fn new(raw: CUstream, device: Device) -> ExternalStream {
        ExternalStream {
            // SAFETY: the caller's contract is from_raw's.
            stream: unsafe { Stream::from_raw(raw, device) },
        }
    }

    /// The stream.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, ExternalStream, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// # let mine = Stream::new()?;
    /// // SAFETY: `mine` outlives `ext`.
    /// let ext = unsafe { ExternalStream::new(mine.raw(), Device::current()?) };
    /// let s: &Stream = ext.stream();
    /// # Ok(()) }
    /// ```
    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// The stream, by value (never destroyed by Cuprum).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, ExternalStream, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// # let mine = Stream::new()?;
    /// // SAFETY: `mine` outlives `s`.
    /// let s: Stream = unsafe { ExternalStream::new(mine.raw(), Device::current()?) }.into_stream();
    /// let _on = s.use_stream(); // make it the current stream
    /// # Ok(()) }
    /// ```
    pub fn into_stream(self) -> Stream {
        self.stream
    }
}

impl std::ops::Deref for ExternalStream {
    type Target = Stream;

    fn deref(&self) -> &Stream {
        &self.stream
    }
}

impl AsRef<Stream> for ExternalStream {
    fn as_ref(&self) -> &Stream {
        &self.stream
    }
}

impl From<ExternalStream> for Stream {
    fn from(e: ExternalStream) -> Stream {
        e.stream
    }
}

/// Ends its [`Stream::use_stream`] scope when dropped.
#[derive(Debug)]
pub struct StreamGuard {
    id: EntryId,
    _not_send: PhantomData<*const ()>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        // The stream (perhaps its last handle) is dropped after the stack
        // is released; at thread exit the stack may be gone already.
        let stream = CURRENT.try_with(|c| c.remove(self.id));
        drop(stream);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cuprums_own_streams_can_be_destroyed() {
        // No driver is needed to refuse these.
        let dev = Device::from_ordinal_unchecked(0);
        let e = Stream::null(dev).destroy().unwrap_err().to_string();
        assert!(e.contains("not created by Cuprum"), "{e}");
        let e = Stream::per_thread(dev).destroy().unwrap_err().to_string();
        assert!(e.contains("not created by Cuprum"), "{e}");
    }

    #[test]
    fn an_external_stream_is_a_stream_that_is_never_destroyed() {
        let dev = Device::from_ordinal_unchecked(0);
        // SAFETY: the legacy stream's special handle is always valid; no
        // work is queued on it here.
        let ext = unsafe { ExternalStream::new(1 as CUstream, dev) };
        let as_ref: &Stream = &ext;
        assert_eq!(as_ref.raw(), 1 as CUstream);
        assert_eq!(ext.stream().device(), dev);
        assert!(
            !ext.is_null(),
            "a wrapped handle is not Cuprum's null stream"
        );
        let s: Stream = ext.clone().into();
        assert_eq!(s, *ext.stream());
        let e = s.destroy().unwrap_err().to_string();
        assert!(e.contains("not created by Cuprum"), "{e}");
    }
}
