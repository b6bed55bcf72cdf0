//! cudarc's `unsafe` half: a cudarc stream seen as a Cuprum [`Stream`] for
//! the length of one call, a [`CudaSlice`] moved into a [`Memory`] whose
//! release drops it, and [`CudarcSlice`], the alias `CudaSlice` of an
//! array's memory that must never be freed by cudarc. The checks live in
//! `crate::interop::cudarc`; this file trusts only what they checked.

use std::mem::ManuallyDrop;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use ::cudarc::driver::{CudaContext, CudaSlice, CudaStream, CudaView, CudaViewMut, DevicePtrMut};
use gpu_runtime::{Device, DevicePtr, Event, EventOptions, Memory, Stream};

use crate::array::Array;
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::interop::cudarc::{check_context, plan_export};

/// Runs `f` with `stream` (of `device`'s primary context, checked by the
/// caller with `check_context`) seen as a Cuprum [`Stream`] that never
/// destroys it. The wrapper must not escape `f`: nothing here stores it.
pub(crate) fn with_stream<R>(
    stream: &CudaStream,
    device: Device,
    f: impl FnOnce(&Stream) -> Result<R>,
) -> Result<R> {
    // SAFETY: `stream` is a live stream of `device`'s primary context (the
    // caller checked its context), borrowed for this call; the wrapper is
    // used only inside `f`, and an external wrapper never destroys the
    // handle.
    let wrapped = unsafe { Stream::from_raw(stream.cu_stream().cast(), device) };
    f(&wrapped)
}

/// A fresh event (no timing) recorded at the end of `stream`, created on the
/// stream's device.
pub(crate) fn record(stream: &Stream) -> Result<Event> {
    let e = Event::new_on(
        stream.device(),
        EventOptions::default().timing(false).blocking(false),
    )?;
    e.record(stream)?;
    Ok(e)
}

/// The stream that orders work after `s` from the calling thread: `s`
/// itself, or the device's legacy stream (which follows every blocking
/// stream, per-thread ones included) for another thread's per-thread
/// stream.
pub(crate) fn ordering_stream(s: &Stream) -> Stream {
    if s.handle().is_ok() {
        s.clone()
    } else {
        Stream::null(s.device())
    }
}

/// The slice's memory (`bytes` bytes at `ptr`, from `slice` itself) as a
/// [`Memory`] of `device` that owns the slice: its release makes the
/// slice's stream wait for the work queued on `after` (an event, no host
/// wait), then drops the slice, which cudarc frees in its stream's order.
/// Where that ordering cannot be made the slice is leaked, and said so:
/// freeing memory that Cuprum's work may still read would be worse.
pub(crate) fn into_memory<T: Element>(
    slice: CudaSlice<T>,
    ptr: u64,
    bytes: usize,
    device: Device,
    after: Stream,
) -> Memory {
    let free = move |_: DevicePtr, _: usize| {
        let ordered = with_stream(slice.stream(), device, |theirs| {
            theirs.wait_event(&record(&ordering_stream(&after))?)?;
            Ok(())
        });
        match ordered {
            Ok(()) => drop(slice),
            Err(e) => {
                tracing::error!(
                    "from_cudarc: ordering cudarc's free of {:#x} ({} bytes) after Cuprum's work \
                     failed ({e}); the slice is leaked",
                    ptr,
                    bytes
                );
                std::mem::forget(slice);
            }
        }
    };
    // SAFETY: `ptr .. ptr + bytes` is the slice's own allocation (`ptr` is
    // its device pointer, `bytes` its length in `T`s times `T`'s size,
    // checked by the caller), on `device`, whose primary context is the
    // slice's (`check_context`); the slice lives in `free` and is dropped
    // (freed by cudarc) only when the `Memory` is released, once.
    unsafe { Memory::from_raw_with_free(DevicePtr(ptr), bytes, device, free) }
}

/// An [`Array`] lent to cudarc: a [`CudaSlice<T>`] over the array's memory
/// (no copy), made by [`Array::to_cudarc`].
///
/// It holds a clone of the array, so the memory lives as long as the slice;
/// the slice is an alias that cudarc must never free, so it is reachable
/// only by reference (`&CudaSlice<T>` through `Deref`, [`as_view`],
/// [`as_view_mut`]), never by value or `&mut`. When it drops, Cuprum's
/// stream (the one current at the loan) waits for the work queued on the
/// slice's cudarc stream (an event; cudarc's own events order its other
/// streams before that one), so Cuprum's next reads see cudarc's writes.
///
/// ```no_run
/// use gpu_array::creation::arange;
/// use gpu_array::interop::cudarc as bridge;
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(8)?; // int64
/// let ctx = bridge::context(x.device())?;
/// let stream = ctx.default_stream();
/// let lent = x.to_cudarc::<i64>(&stream)?;
/// let back: Vec<i64> = stream.clone_dtoh(&*lent).unwrap(); // any cudarc call taking &CudaSlice
/// drop(lent); // Cuprum's stream now follows cudarc's work on x
/// # Ok(()) }
/// ```
///
/// [`as_view`]: CudarcSlice::as_view
/// [`as_view_mut`]: CudarcSlice::as_view_mut
pub struct CudarcSlice<T> {
    /// An alias of `array`'s memory: leaked, never dropped.
    slice: ManuallyDrop<CudaSlice<T>>,
    /// Keeps the memory alive.
    array: Array,
    /// Cuprum's stream at the loan, ordered after cudarc's work at the end.
    cuprum: Stream,
}

impl<T: Element> CudarcSlice<T> {
    /// Lends `array` (checked here: of dtype `T`, C-contiguous) to cudarc
    /// on `stream` (a stream of the array's device's primary context,
    /// checked by the caller), after `cuprum`'s queued work (which the
    /// caller ordered `stream` after).
    pub(crate) fn lend(
        array: Array,
        stream: &Arc<CudaStream>,
        cuprum: Stream,
    ) -> Result<CudarcSlice<T>> {
        let len = plan_export::<T>(array.dtype(), array.layout())?;
        let ptr = array.data_ptr().raw();
        // cudarc's `upgrade_device_ptr` unwraps the creation of its two
        // tracking events: a failure there is a panic, caught here before
        // any slice exists.
        let made = std::panic::catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: `ptr .. ptr + len * size_of::<T>()` is the array's
            // memory: `plan_export` checked that the array is C-contiguous
            // with `len` elements of `T`'s dtype (whose size is
            // `size_of::<T>()`, a test holds it), so its elements are
            // that run from element [0, ...]; it stays valid while `array`
            // (moved into the result) lives; the slice is never dropped
            // (only leaked, in `Drop`), so cudarc never frees it.
            unsafe { stream.upgrade_device_ptr::<T>(ptr, len) }
        }));
        let slice = made.map_err(|_| {
            Error::Buffer(
                "to_cudarc: cudarc could not create the slice's tracking events \
                 (CudaStream::upgrade_device_ptr panicked)"
                    .into(),
            )
        })?;
        let mut lent = CudarcSlice {
            slice: ManuallyDrop::new(slice),
            array,
            cuprum,
        };
        // Marks the slice as written on `stream` (when cudarc tracks
        // events): cudarc work on its other streams then waits for
        // `stream`, which waits for Cuprum.
        let (_, written) = lent.slice.device_ptr_mut(stream);
        drop(written);
        Ok(lent)
    }

    /// The array lent.
    ///
    /// ```no_run
    /// use gpu_array::creation::arange;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?;
    /// let stream = bridge::context(x.device())?.default_stream();
    /// let lent = x.to_cudarc::<i64>(&stream)?;
    /// assert!(lent.array().shares_memory_with(&x));
    /// # Ok(()) }
    /// ```
    pub fn array(&self) -> &Array {
        &self.array
    }

    /// An immutable cudarc view (`&[T]` on the device) of the whole array,
    /// for a kernel argument (`launch_builder(..).arg(&view)`) or a copy.
    ///
    /// ```no_run
    /// use gpu_array::creation::arange;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?;
    /// let stream = bridge::context(x.device())?.default_stream();
    /// let lent = x.to_cudarc::<i64>(&stream)?;
    /// let v = lent.as_view();
    /// assert_eq!(v.len(), 4);
    /// # Ok(()) }
    /// ```
    pub fn as_view(&self) -> CudaView<'_, T> {
        self.slice.as_view()
    }

    /// A mutable cudarc view (`&mut [T]` on the device) of the whole array:
    /// what a kernel that writes takes (`.arg(&mut view)`), or
    /// `memcpy_htod`'s destination.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([3], DType::Float32)?;
    /// let stream = bridge::context(x.device())?.default_stream();
    /// let mut lent = x.to_cudarc::<f32>(&stream)?;
    /// stream.memcpy_htod(&[1.0f32, 2.0, 3.0], &mut lent.as_view_mut()).unwrap();
    /// drop(lent);
    /// assert_eq!(x.to_vec::<f32>()?, [1.0, 2.0, 3.0]);
    /// # Ok(()) }
    /// ```
    pub fn as_view_mut(&mut self) -> CudaViewMut<'_, T> {
        self.slice.as_view_mut()
    }

    /// The cudarc stream the array was lent on.
    ///
    /// ```no_run
    /// use gpu_array::creation::arange;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?;
    /// let stream = bridge::context(x.device())?.default_stream();
    /// let lent = x.to_cudarc::<i64>(&stream)?;
    /// assert_eq!(lent.stream().cu_stream(), stream.cu_stream());
    /// # Ok(()) }
    /// ```
    pub fn stream(&self) -> &Arc<CudaStream> {
        self.slice.stream()
    }
}

impl<T> std::ops::Deref for CudarcSlice<T> {
    type Target = CudaSlice<T>;

    /// The slice, by reference only: it must never be moved out, dropped
    /// or swapped (which `&mut` would allow).
    fn deref(&self) -> &CudaSlice<T> {
        &self.slice
    }
}

impl<T> Drop for CudarcSlice<T> {
    fn drop(&mut self) {
        // SAFETY: taken once, here; the field is not used afterwards.
        let slice = unsafe { ManuallyDrop::take(&mut self.slice) };
        let stream = slice.stream().clone();
        // `leak` frees nothing: it orders the slice's stream after its
        // tracked reads and writes (cudarc work on other streams), then
        // drops the events and the stream handle.
        let _ = slice.leak();
        let device = self.array.device();
        let ordered = with_stream(&stream, device, |theirs| {
            ordering_stream(&self.cuprum).wait_event(&record(theirs)?)?;
            Ok(())
        });
        if let Err(e) = ordered {
            // Without the event, wait for cudarc's stream on the host; if
            // even that fails, keep the memory forever rather than let
            // Cuprum reuse it under cudarc's work.
            if let Err(e2) = stream.synchronize() {
                tracing::error!(
                    "CudarcSlice: ordering Cuprum after cudarc's stream failed ({e}), and so did \
                     waiting for it ({e2:?}); the array's memory is leaked"
                );
                std::mem::forget(self.array.clone());
            }
        }
    }
}

impl<T> std::fmt::Debug for CudarcSlice<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CudarcSlice")
            .field("ptr", &format_args!("{:#x}", self.array.data_ptr().raw()))
            .field("len", &self.slice.len())
            .field("dtype", &self.array.dtype())
            .field("device", &self.array.device().ordinal())
            .finish()
    }
}

/// Cuprum's view of a cudarc stream (CuPy's `ExternalStream`): the same
/// handle, never destroyed by Cuprum. Work queued on it through Cuprum
/// (`let _on = s.use_stream();`) and through cudarc is one queue, so needs
/// no handshake.
///
/// ```no_run
/// use gpu_array::creation::arange;
/// use gpu_array::interop::cudarc as bridge;
/// # fn main() -> gpu_array::Result<()> {
/// let ctx = bridge::context(gpu_runtime::Device::new(0)?)?;
/// let theirs = ctx.new_stream().unwrap();
/// // SAFETY: `theirs` outlives `s` and everything that holds it (the
/// // arrays made while it is current keep a clone of it).
/// let s = unsafe { bridge::stream_from_cudarc(&theirs)? };
/// {
///     let _on = s.use_stream();
///     let x = arange(10)?.sum(gpu_array::reduction::ReduceOptions::default())?; // queued on cudarc's stream
///     # let _ = x;
/// }
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Buffer`] when the stream's context is not the primary context
/// of a device Cuprum sees (named).
///
/// # Safety
/// `stream` must stay alive (its last `Arc` not dropped, so that cudarc
/// does not destroy it) until the returned [`Stream`] and every clone of
/// it are dropped, since they use the handle, and the last one's drop
/// records an event on it for the memory pool. Arrays allocated while it
/// is the current stream hold a clone until their memory is released.
pub unsafe fn stream_from_cudarc(stream: &CudaStream) -> Result<Stream> {
    let device = check_context(stream.context(), None, "stream_from_cudarc")?;
    // SAFETY: a stream of `device`'s primary context (checked); the
    // caller's contract keeps it alive while the wrapper is used.
    Ok(unsafe { Stream::from_raw(stream.cu_stream().cast(), device) })
}

/// cudarc's view of a Cuprum stream: a borrowed `CudaStream` of `ctx` (the
/// primary context of the stream's device, checked) that cudarc never
/// destroys; work queued through it and through Cuprum on `stream` is one
/// queue.
///
/// ```no_run
/// use gpu_array::interop::cudarc as bridge;
/// use gpu_runtime::Stream;
/// # fn main() -> gpu_array::Result<()> {
/// let mine = Stream::new()?;
/// let ctx = bridge::context(mine.device())?;
/// // SAFETY: `mine` outlives `theirs` and its clones.
/// let theirs = unsafe { bridge::to_cudarc_stream(&mine, &ctx)? };
/// let buf = theirs.alloc_zeros::<f32>(16).unwrap(); // queued on `mine`
/// # let _ = buf;
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Buffer`] when `ctx` is not the primary context of the stream's
/// device; the runtime's error when `stream` is another thread's
/// per-thread stream (its handle would mean this thread's there).
///
/// # Safety
/// `stream` (a clone of it) must stay alive while the returned `CudaStream`
/// and its clones are used, slices allocated on it included (cudarc frees
/// a slice on its stream). The null and per-thread streams always are.
pub unsafe fn to_cudarc_stream(stream: &Stream, ctx: &Arc<CudaContext>) -> Result<Arc<CudaStream>> {
    check_context(ctx, Some(stream.device()), "to_cudarc_stream")?;
    let raw = stream.handle()?;
    // SAFETY: a stream of the device whose primary context `ctx` is
    // (checked); the caller's contract keeps it alive while the wrapper
    // is used, and cudarc never destroys a borrowed stream.
    Ok(unsafe { ctx.wrap_borrowed_stream(raw.cast()) })
}

/// [`CudaContext::new`] with cudarc's panic on a missing driver library
/// turned into an error.
pub(crate) fn new_context(ordinal: usize) -> Result<Arc<CudaContext>> {
    match std::panic::catch_unwind(|| CudaContext::new(ordinal)) {
        Ok(Ok(ctx)) => Ok(ctx),
        Ok(Err(source)) => Err(Error::Cudarc {
            call: "CudaContext::new",
            source,
        }),
        Err(_) => Err(Error::Buffer(format!(
            "context: cudarc could not load the CUDA driver for device {ordinal} (it panicked; \
             its message above names the libraries it looked for)"
        ))),
    }
}
