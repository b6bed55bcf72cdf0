//! Events: markers in a stream, for ordering and timing.

use std::ffi::c_uint;

use gpu_sys::cuda::{self, CUevent};

use crate::driver::check;
use crate::stream::Stream;
use crate::sync::check_sync_allowed;
use crate::{Device, Result};

/// `CU_EVENT_DISABLE_TIMING`.
pub(crate) const CU_EVENT_DISABLE_TIMING: c_uint = 0x2;
/// `CU_EVENT_INTERPROCESS`.
pub(crate) const CU_EVENT_INTERPROCESS: c_uint = 0x4;

/// Options for [`Event::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct EventOptions {
    /// Record timestamps (needed by [`Event::elapsed_time`]); off makes
    /// recording cheaper.
    pub timing: bool,
    /// [`Event::synchronize`] blocks the thread instead of spinning.
    pub blocking: bool,
    /// Usable from another process (implies `timing: false`).
    pub interprocess: bool,
}

impl EventOptions {
    /// Sets `timing`.
    ///
    /// ```
    /// use gpu_runtime::EventOptions;
    /// assert!(!EventOptions::default().timing(false).timing);
    /// ```
    #[must_use]
    pub fn timing(mut self, timing: bool) -> EventOptions {
        self.timing = timing;
        self
    }

    /// Sets `blocking`.
    ///
    /// ```
    /// use gpu_runtime::EventOptions;
    /// assert!(EventOptions::default().blocking(true).blocking);
    /// ```
    #[must_use]
    pub fn blocking(mut self, blocking: bool) -> EventOptions {
        self.blocking = blocking;
        self
    }

    /// Sets `interprocess`.
    ///
    /// ```
    /// use gpu_runtime::EventOptions;
    /// assert!(EventOptions::default().interprocess(true).interprocess);
    /// ```
    #[must_use]
    pub fn interprocess(mut self, interprocess: bool) -> EventOptions {
        self.interprocess = interprocess;
        self
    }
}

impl Default for EventOptions {
    fn default() -> Self {
        EventOptions {
            timing: true,
            blocking: false,
            interprocess: false,
        }
    }
}

/// A CUDA event, owned; destroyed on drop.
#[derive(Debug)]
pub struct Event {
    raw: CUevent,
    device: Device,
    /// The `cuEventCreate` flags (interprocess events can be exported).
    flags: c_uint,
}

// SAFETY: event handles may be used from any thread.
unsafe impl Send for Event {}
// SAFETY: all methods go through the thread-safe driver.
unsafe impl Sync for Event {}

impl Event {
    /// A new event on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let e = Event::new(EventOptions::default())?; // cupy.cuda.Event()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn new(options: EventOptions) -> Result<Event> {
        Event::new_on(Device::current()?, options)
    }

    /// A new event on `device`. Touches no thread-local state (the current
    /// device is not consulted), so drops that run during a thread's exit
    /// may use it.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let dev = Device::new(0)?;
    /// let e = Event::new_on(dev, EventOptions::default().timing(false))?;
    /// assert_eq!(e.device(), dev);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn new_on(device: Device, options: EventOptions) -> Result<Event> {
        device.bind()?;
        let mut flags: c_uint = 0;
        if options.blocking {
            flags |= 0x1; // CU_EVENT_BLOCKING_SYNC
        }
        if !options.timing || options.interprocess {
            flags |= CU_EVENT_DISABLE_TIMING;
        }
        if options.interprocess {
            flags |= CU_EVENT_INTERPROCESS;
        }
        let mut raw: CUevent = std::ptr::null_mut();
        // SAFETY: writes one handle.
        check("cuEventCreate", unsafe {
            cuda::cuEventCreate(&mut raw, flags)
        })?;
        Ok(Event { raw, device, flags })
    }

    /// Wraps an event handle the driver gave (an IPC event opened in this
    /// process), owned from now on.
    pub(crate) fn from_owned_raw(raw: CUevent, device: Device, flags: c_uint) -> Event {
        Event { raw, device, flags }
    }

    /// Whether the event was created with `interprocess`, so that
    /// [`Event::ipc_handle`] can export it.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert!(!Event::new(EventOptions::default())?.is_interprocess());
    /// # Ok(()) }
    /// ```
    pub fn is_interprocess(&self) -> bool {
        self.flags & CU_EVENT_INTERPROCESS != 0
    }

    /// Destroys the event now and reports the driver's answer (CuPy's
    /// `runtime.eventDestroy`); dropping it does the same but cannot
    /// report. Work that will record it is unaffected: the driver frees it
    /// once that is done.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// Event::new(EventOptions::default())?.destroy()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn destroy(self) -> Result<()> {
        let this = std::mem::ManuallyDrop::new(self);
        this.device.bind()?;
        // SAFETY: we own the handle, and ManuallyDrop keeps the drop from
        // destroying it a second time.
        check("cuEventDestroy", unsafe {
            cuda::cuEventDestroy_v2(this.raw)
        })
    }

    /// The raw handle.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let e = Event::new(EventOptions::default())?;
    /// assert!(!e.raw().is_null()); // a `CUevent` for driver calls of your own
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> CUevent {
        self.raw
    }

    /// The device the event was created on.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(Event::new(EventOptions::default())?.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.device
    }

    /// Records the event at the current end of `stream`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let e = Event::new(EventOptions::default())?;
    /// e.record(&Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn record(&self, stream: &Stream) -> Result<()> {
        stream.device().bind()?;
        // SAFETY: valid handles.
        check("cuEventRecord", unsafe {
            cuda::cuEventRecord(self.raw, stream.handle()?)
        })
    }

    /// Waits until the work before the recorded point is done.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let e = Stream::current()?.record()?;
    /// e.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Forbidden by `allow_synchronize(false)`, or an error of that work.
    pub fn synchronize(&self) -> Result<()> {
        check_sync_allowed("Event::synchronize")?;
        self.device.bind()?;
        // SAFETY: a valid handle.
        check("cuEventSynchronize", unsafe {
            cuda::cuEventSynchronize(self.raw)
        })
    }

    /// Whether the work before the recorded point is done (an event never
    /// recorded counts as done).
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let done = Stream::current()?.record()?.query()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An error of that work.
    pub fn query(&self) -> Result<bool> {
        self.device.bind()?;
        // SAFETY: a valid handle.
        let r = unsafe { cuda::cuEventQuery(self.raw) }?;
        if r == cuda::CUresult::CUDA_ERROR_NOT_READY {
            return Ok(false);
        }
        check("cuEventQuery", Ok(r)).map(|()| true)
    }

    /// Milliseconds between two recorded, completed events
    /// (CuPy's `cupy.cuda.get_elapsed_time`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let s = Stream::current()?;
    /// let (a, b) = (s.record()?, s.record()?);
    /// b.synchronize()?;
    /// let ms = Event::elapsed_time(&a, &b)?; // cupy.cuda.get_elapsed_time
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An event was not recorded, has not completed, or lacks timing.
    pub fn elapsed_time(start: &Event, end: &Event) -> Result<f32> {
        end.device.bind()?;
        let mut ms = 0f32;
        // SAFETY: valid handles; writes one float.
        check("cuEventElapsedTime", unsafe {
            cuda::cuEventElapsedTime_v2(&mut ms, start.raw, end.raw)
        })?;
        Ok(ms)
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        let _ = self.device.bind();
        // SAFETY: we own the handle; the driver defers the free past pending work.
        let _ = unsafe { cuda::cuEventDestroy_v2(self.raw) };
    }
}
