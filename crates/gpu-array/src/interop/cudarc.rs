//! Arrays shared with the `cudarc` crate, the CUDA layer of
//! candle and burn, without a copy (the `cudarc` feature).
//!
//! | cudarc                                   | Cuprum                                              |
//! |------------------------------------------|-----------------------------------------------------|
//! | `CudaContext::new(ordinal)`              | [`context`]`(device)?` (the same primary context)   |
//! | a `CudaSlice<T>` to an array             | [`Array::from_cudarc`]`(slice)?`, [`Array::from_cudarc_shaped`]`(slice, (2, 3))?` |
//! | an array to a `&CudaSlice<T>`, `CudaView`, `CudaViewMut` | [`Array::to_cudarc`]`::<T>(&stream)?` ([`CudarcSlice`]) |
//! | a `CudaStream` as a Cuprum [`Stream`]    | `unsafe` [`stream_from_cudarc`]                     |
//! | a Cuprum [`Stream`] as a `CudaStream`    | `unsafe` [`to_cudarc_stream`]                       |
//! | `stream.join(other)` across the two      | [`wait_for_cudarc`], [`cudarc_wait_for_cuprum`]     |
//!
//! Enable it with `cargo add cuprum --features cudarc` (or gpu-array's
//! feature of the same name). cudarc is built with the driver API loaded
//! at run time (`fallback-dynamic-loading`: no CUDA at link time, unless
//! another crate of the build asks cudarc for linking, as candle-core's
//! `cuda` feature does with `dynamic-linking`), CUDA 13.0's bindings
//! (`cuda-13000`, driver 580 or later; this also settles the version for
//! a crate that asks for `cuda-version-from-build-system`, as candle
//! does) and its `nvrtc` types (so `CudaContext::load_module` is there).
//! A crate that also uses cudarc must use the same release (0.19, as
//! candle-core 0.11 does) for the types to be one, and no other
//! `cuda-1xxx0` version feature.
//!
//! # The rules
//!
//! **One context.** Cuprum works in each device's primary context;
//! cudarc's `CudaContext::new(ordinal)` retains the same one
//! (`cuDevicePrimaryCtxRetain`), so memory and streams are valid in both.
//! A cudarc context made otherwise (`new_non_primary`, `new_cig`,
//! `from_raw_context`) is refused with [`Error::Buffer`], as is a context
//! of another device than the array's.
//!
//! **Element types.** `T` is Cuprum's [`Element`] of the array's dtype
//! (`f32` for float32, `half::f16`, `bool`, `Complex<f64>`, ...); another
//! `T` is [`Error::HostType`]. cudarc itself needs `T: DeviceRepr` only to
//! allocate or copy from the host, so complex arrays may be lent too.
//!
//! **Into Cuprum** ([`Array::from_cudarc`]): the slice moves into the
//! array's memory ([`gpu_runtime::Memory::from_raw_with_free`]), so it
//! lives until the last view of the array drops. The shape's product must
//! equal the slice's length (checked arithmetic). Ordering: the calling
//! thread's current Cuprum stream of the device waits (an event, never a
//! device synchronization) for the work queued on the slice's stream and,
//! when cudarc tracks events, for its reads and writes on other streams;
//! when the memory is released, the slice's stream waits for that Cuprum
//! stream (an event) before cudarc frees the slice in its stream's order.
//! Cuprum streams that used the array since are announced as for any
//! memory ([`gpu_runtime::Memory::record_stream`]), and the release waits
//! for them first.
//!
//! **Into cudarc** ([`Array::to_cudarc`]): a [`CudarcSlice`] is a
//! `CudaSlice<T>` aliasing the array's memory, lent on a cudarc stream: it
//! holds the array (so the memory lives), hands out `&CudaSlice<T>`,
//! `CudaView` and `CudaViewMut` (never the slice itself, which cudarc must
//! not free), and is never freed by cudarc. The array must be
//! C-contiguous, since a cudarc slice is a run of elements: a strided,
//! transposed, reversed or broadcast array is an [`Error::Buffer`] that
//! says to lend `a.copy()` (NumPy's `ascontiguousarray`) instead; a view
//! with an offset (`x[2..]`) is lent as it is. Ordering: cudarc's stream
//! waits for the Cuprum stream current at the loan; when the
//! `CudarcSlice` drops, that Cuprum stream waits for cudarc's stream (and,
//! through cudarc's events, for its other streams' work on the slice); if
//! another Cuprum stream is current by then, order it yourself with
//! [`wait_for_cudarc`].
//!
//! **Streams.** Arrays carry no stream in Cuprum (work goes to the calling
//! thread's current stream of the device), so the handshakes above are
//! with that stream. To queue both libraries' work on one stream, wrap
//! one's stream for the other ([`stream_from_cudarc`],
//! [`to_cudarc_stream`]: `unsafe`, because neither wrapper keeps the
//! other library's stream alive) or order two streams with
//! [`wait_for_cudarc`] and [`cudarc_wait_for_cuprum`].
//!
//! ```no_run
//! use gpu_array::interop::cudarc as bridge;
//! use gpu_array::{Array, creation::arange};
//! # fn main() -> gpu_array::Result<()> {
//! let ctx = bridge::context(gpu_runtime::Device::new(0)?)?;
//! let stream = ctx.default_stream();
//!
//! // cudarc -> Cuprum, no copy.
//! let slice = stream.clone_htod(&[1.0f32, 2.0, 3.0, 4.0]).unwrap();
//! let a = Array::from_cudarc_shaped(slice, (2, 2))?;
//! let total = a.sum(gpu_array::reduction::ReduceOptions::default())?.to_vec::<f32>()?[0];
//! assert_eq!(total, 10.0);
//!
//! // Cuprum -> cudarc, no copy.
//! let x = arange(5)?; // int64
//! let lent = x.to_cudarc::<i64>(&stream)?;
//! assert_eq!(stream.clone_dtoh(&*lent).unwrap(), [0, 1, 2, 3, 4]);
//! # Ok(()) }
//! ```

use std::sync::Arc;

use ::cudarc::driver::{CudaContext, CudaSlice, CudaStream, DevicePtrMut};
use gpu_runtime::{Device, Stream};

use crate::array::Array;
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::layout::{self, IntoShape, Layout, Order};
use crate::raw::cudarc as raw;

pub use crate::raw::cudarc::{CudarcSlice, stream_from_cudarc, to_cudarc_stream};

/// cudarc's context of `device`: its primary context, the one Cuprum uses
/// (`CudaContext::new(ordinal)`, which retains it).
///
/// ```no_run
/// use gpu_array::interop::cudarc as bridge;
/// use gpu_runtime::Device;
/// # fn main() -> gpu_array::Result<()> {
/// let dev = Device::new(0)?;
/// let ctx = bridge::context(dev)?;
/// assert!(ctx.is_primary());
/// assert_eq!(ctx.cu_ctx() as usize, dev.context()? as usize);
/// # Ok(()) }
/// ```
///
/// # Errors
/// The device is not there (Cuprum's error), or cudarc could not retain
/// the context ([`Error::Cudarc`]) or load the driver ([`Error::Buffer`]:
/// cudarc panics there, and the panic is caught).
pub fn context(device: Device) -> Result<Arc<CudaContext>> {
    // Cuprum's own checks first: a missing driver or device is its error,
    // not cudarc's panic.
    device.bind()?;
    let ordinal = usize::try_from(device.ordinal())
        .map_err(|_| Error::Buffer(format!("context: device ordinal {}", device.ordinal())))?;
    let ctx = raw::new_context(ordinal)?;
    check_context(&ctx, Some(device), "context")?;
    Ok(ctx)
}

/// Checks that `ctx` is the primary context of a device Cuprum sees (of
/// `want`, when given) and returns that device.
pub(crate) fn check_context(
    ctx: &CudaContext,
    want: Option<Device>,
    operation: &str,
) -> Result<Device> {
    let ordinal = check_ordinal(ctx.ordinal(), want.map(Device::ordinal), operation)?;
    if !ctx.is_primary() {
        return Err(not_primary(operation, ordinal));
    }
    let device = Device::new(ordinal).map_err(|e| {
        Error::Buffer(format!(
            "{operation}: cudarc's context is on CUDA device {ordinal}: {e}"
        ))
    })?;
    if !std::ptr::eq(ctx.cu_ctx().cast::<()>(), device.context()?.cast::<()>()) {
        return Err(not_primary(operation, ordinal));
    }
    Ok(device)
}

fn not_primary(operation: &str, ordinal: i32) -> Error {
    Error::Buffer(format!(
        "{operation}: cudarc's context is not the primary context of device {ordinal} \
         (CudaContext::new_non_primary, new_cig or from_raw_context); Cuprum shares only \
         the primary context: use CudaContext::new({ordinal}) or interop::cudarc::context"
    ))
}

/// cudarc's device ordinal as Cuprum's, and the same as `want`'s.
pub(crate) fn check_ordinal(ordinal: usize, want: Option<i32>, operation: &str) -> Result<i32> {
    let ordinal = i32::try_from(ordinal).map_err(|_| {
        Error::Buffer(format!(
            "{operation}: cudarc's device ordinal {ordinal} is not a CUDA device"
        ))
    })?;
    match want {
        Some(w) if w != ordinal => Err(Error::Buffer(format!(
            "{operation}: the array is on CUDA device {w} but cudarc's context is on device \
             {ordinal}"
        ))),
        _ => Ok(ordinal),
    }
}

/// The layout of a `len`-element slice of `T` viewed with `shape` (C order),
/// and its size in bytes.
pub(crate) fn plan_import<T: Element>(len: usize, shape: &[usize]) -> Result<(Layout, usize)> {
    let itemsize = T::DTYPE.itemsize();
    if itemsize != std::mem::size_of::<T>() {
        // Never for Cuprum's element types (a test holds this).
        return Err(Error::Buffer(format!(
            "from_cudarc: {} is {} bytes but a {} element is {itemsize}",
            std::any::type_name::<T>(),
            std::mem::size_of::<T>(),
            T::DTYPE
        )));
    }
    let size = layout::checked_size(shape, itemsize)?;
    if size != len {
        return Err(Error::Shape(format!(
            "from_cudarc: cannot view a cudarc slice of {len} elements as shape {}",
            layout::fmt_shape(shape)
        )));
    }
    let bytes = len.checked_mul(itemsize).ok_or(Error::TooBig)?;
    Ok((Layout::contiguous(shape, itemsize, Order::C)?, bytes))
}

/// Checks that an array of `dtype` with `layout` can be lent to cudarc as
/// `T`s and returns how many.
pub(crate) fn plan_export<T: Element>(dtype: DType, layout: &Layout) -> Result<usize> {
    if dtype != T::DTYPE {
        return Err(Error::HostType {
            operation: "to_cudarc",
            array: dtype,
            host: T::DTYPE,
        });
    }
    if !layout.is_c_contiguous(dtype.itemsize()) {
        return Err(Error::Buffer(format!(
            "to_cudarc: the array (shape {}, strides {:?}) is not C-contiguous, and a cudarc \
             slice is a run of elements; lend a contiguous copy (`a.copy()`, NumPy's \
             ascontiguousarray)",
            layout::fmt_shape(layout.shape()),
            layout.strides()
        )));
    }
    Ok(layout.size())
}

/// Makes the calling thread's current Cuprum stream of `stream`'s device
/// wait for the work queued on cudarc's `stream` so far (an event; the host
/// does not wait): what Cuprum queues next sees cudarc's results.
///
/// ```no_run
/// use gpu_array::interop::cudarc as bridge;
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let ctx = bridge::context(gpu_runtime::Device::new(0)?)?;
/// let theirs = ctx.new_stream().unwrap();
/// let slice = theirs.clone_htod(&[1.0f64, 2.0]).unwrap();
/// // ... more cudarc work on `theirs` ...
/// bridge::wait_for_cudarc(&theirs)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Buffer`] for a context that is not a primary one; the driver's
/// failure to record or wait.
pub fn wait_for_cudarc(stream: &CudaStream) -> Result<()> {
    let device = check_context(stream.context(), None, "wait_for_cudarc")?;
    let ours = Stream::current_on(device);
    raw::with_stream(stream, device, |theirs| {
        ours.wait_event(&raw::record(theirs)?)?;
        Ok(())
    })
}

/// Makes cudarc's `stream` wait for the work queued so far on the calling
/// thread's current Cuprum stream of its device (an event; the host does
/// not wait): what cudarc queues next on `stream` sees Cuprum's results.
///
/// ```no_run
/// use gpu_array::interop::cudarc as bridge;
/// use gpu_array::creation::arange;
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(100)?;
/// let ctx = bridge::context(x.device())?;
/// let theirs = ctx.new_stream().unwrap();
/// bridge::cudarc_wait_for_cuprum(&theirs)?; // `theirs` now follows arange's kernel
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`wait_for_cudarc`].
pub fn cudarc_wait_for_cuprum(stream: &CudaStream) -> Result<()> {
    let device = check_context(stream.context(), None, "cudarc_wait_for_cuprum")?;
    let ours = raw::ordering_stream(&Stream::current_on(device));
    raw::with_stream(stream, device, |theirs| {
        theirs.wait_event(&raw::record(&ours)?)?;
        Ok(())
    })
}

impl Array {
    /// A cudarc slice as a 1-d array, without a copy: the array owns the
    /// slice (it is freed, by cudarc, when the last view drops), and
    /// Cuprum's current stream of the device waits for the work queued on
    /// the slice (see [the rules](crate::interop::cudarc#the-rules)).
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let stream = bridge::context(gpu_runtime::Device::new(0)?)?.default_stream();
    /// let slice = stream.clone_htod(&[1i32, 2, 3]).unwrap();
    /// let a = Array::from_cudarc(slice)?;
    /// assert_eq!(a.to_vec::<i32>()?, [1, 2, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_cudarc_shaped`].
    pub fn from_cudarc<T: Element>(slice: CudaSlice<T>) -> Result<Array> {
        let len = slice.len();
        Array::from_cudarc_shaped(slice, [len])
    }

    /// A cudarc slice as an array of `shape` (C order), without a copy.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let stream = bridge::context(gpu_runtime::Device::new(0)?)?.default_stream();
    /// let slice = stream.clone_htod(&[0.5f32; 6]).unwrap();
    /// let a = Array::from_cudarc_shaped(slice, (2, 3))?;
    /// assert_eq!(a.shape(), [2, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Shape`] when the shape's size is not the slice's length,
    /// [`Error::TooBig`] when it overflows; [`Error::Buffer`] when the
    /// slice's context is not a device's primary context or its address is
    /// null or not aligned to the element size; the driver's failure to order the streams. The
    /// slice is dropped (freed by cudarc) on error, as DLPack's importer
    /// runs the producer's deleter.
    pub fn from_cudarc_shaped<T: Element>(
        mut slice: CudaSlice<T>,
        shape: impl IntoShape,
    ) -> Result<Array> {
        let shape = shape.into_shape();
        let (layout, bytes) = plan_import::<T>(slice.len(), &shape)?;
        let device = check_context(slice.context(), None, "from_cudarc")?;
        let stream = slice.stream().clone();
        // The slice's stream waits for cudarc's tracked reads and writes on
        // other streams; the guard records a write there when it drops.
        let (ptr, written) = slice.device_ptr_mut(&stream);
        drop(written);
        if bytes > 0 && ptr == 0 {
            return Err(Error::Buffer(format!(
                "from_cudarc: the slice's address is null but it has {} elements",
                layout.size()
            )));
        }
        // As DLPack's import: aligned to the element size (Cuprum's kernels
        // may load a complex element as one vector).
        let itemsize = T::DTYPE.itemsize() as u64;
        if bytes > 0 && ptr % itemsize != 0 {
            return Err(Error::Buffer(format!(
                "from_cudarc: the slice's address {ptr:#x} is not aligned to its {itemsize}-byte \
                 {} elements",
                T::DTYPE
            )));
        }
        let ours = Stream::current_on(device);
        raw::with_stream(&stream, device, |theirs| {
            ours.wait_event(&raw::record(theirs)?)?;
            Ok(())
        })?;
        let mem = raw::into_memory(slice, ptr, bytes, device, ours);
        Ok(Array::from_parts(Arc::new(mem), layout, T::DTYPE, false))
    }

    /// Lends the array to cudarc on `stream`, without a copy: a
    /// [`CudarcSlice`] gives `&CudaSlice<T>`, `CudaView` and `CudaViewMut`
    /// of its elements for cudarc's kernels and copies. `stream` waits for
    /// Cuprum's current stream of the device first; when the loan drops,
    /// that Cuprum stream waits for `stream` (see
    /// [the rules](crate::interop::cudarc#the-rules)).
    ///
    /// ```no_run
    /// use gpu_array::creation::arange;
    /// use gpu_array::interop::cudarc as bridge;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(4)?;
    /// let stream = bridge::context(x.device())?.default_stream();
    /// let lent = x.to_cudarc::<i64>(&stream)?;
    /// assert_eq!(lent.len(), 4);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::HostType`] when `T` is not the array's dtype;
    /// [`Error::Buffer`] when the array is not C-contiguous (lend
    /// `a.copy()`), or `stream`'s context is not the primary context of the
    /// array's device; the driver's failure to order the streams.
    pub fn to_cudarc<T: Element>(&self, stream: &Arc<CudaStream>) -> Result<CudarcSlice<T>> {
        plan_export::<T>(self.dtype(), self.layout())?;
        let device = check_context(stream.context(), Some(self.device()), "to_cudarc")?;
        let ours = self.stream();
        raw::with_stream(stream, device, |theirs| {
            theirs.wait_event(&raw::record(&ours)?)?;
            Ok(())
        })?;
        // The pool reuses the memory only after `ours`, which the loan's
        // end orders after cudarc's work.
        self.memory().record_stream(&ours);
        CudarcSlice::lend(self.clone(), stream, ours)
    }
}

#[cfg(test)]
mod tests {
    //! The checks that need no device: element sizes, shapes against
    //! lengths, dtypes and layouts of loans, ordinals.

    use half::{bf16, f16};
    use num_complex::Complex;

    use super::*;

    fn sizes_agree<T: Element>() {
        assert_eq!(
            std::mem::size_of::<T>(),
            T::DTYPE.itemsize(),
            "{}",
            T::DTYPE
        );
        assert!(plan_import::<T>(3, &[3]).is_ok());
    }

    #[test]
    fn every_element_type_has_its_dtype_size() {
        sizes_agree::<bool>();
        sizes_agree::<i8>();
        sizes_agree::<i16>();
        sizes_agree::<i32>();
        sizes_agree::<i64>();
        sizes_agree::<u8>();
        sizes_agree::<u16>();
        sizes_agree::<u32>();
        sizes_agree::<u64>();
        sizes_agree::<f16>();
        sizes_agree::<bf16>();
        sizes_agree::<f32>();
        sizes_agree::<f64>();
        sizes_agree::<Complex<f32>>();
        sizes_agree::<Complex<f64>>();
    }

    #[test]
    fn import_shapes_must_hold_the_slice() {
        let (l, bytes) = plan_import::<f32>(6, &[2, 3]).unwrap();
        assert_eq!(
            (l.shape(), l.strides(), l.offset()),
            (&[2, 3][..], &[12, 4][..], 0)
        );
        assert_eq!(bytes, 24);
        let (l, bytes) = plan_import::<i64>(0, &[0, 5]).unwrap();
        assert_eq!((l.size(), bytes), (0, 0));
        let (l, bytes) = plan_import::<u8>(1, &[]).unwrap();
        assert_eq!((l.ndim(), bytes), (0, 1));

        let e = plan_import::<f32>(6, &[4, 2]).unwrap_err();
        assert!(
            matches!(&e, Error::Shape(m) if m.contains("6 elements as shape (4,2)")),
            "{e:?}"
        );
        let e = plan_import::<f32>(6, &[]).unwrap_err();
        assert!(
            matches!(&e, Error::Shape(m) if m.contains("shape ()")),
            "{e:?}"
        );
        // Products that overflow are "array is too big", not a wrap.
        let e = plan_import::<f64>(4, &[1 << 32, 1 << 32]).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{e:?}");
        let e = plan_import::<f64>(usize::MAX, &[usize::MAX]).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{e:?}");
        let e = plan_import::<u8>(0, &[0, usize::MAX, usize::MAX]).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{e:?}");
    }

    #[test]
    fn loans_need_the_dtype_and_c_order() {
        let c = Layout::contiguous(&[2, 3], 4, Order::C).unwrap();
        assert_eq!(plan_export::<f32>(DType::Float32, &c).unwrap(), 6);
        let e = plan_export::<i32>(DType::Float32, &c).unwrap_err();
        assert!(
            matches!(
                e,
                Error::HostType {
                    operation: "to_cudarc",
                    array: DType::Float32,
                    host: DType::Int32
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("float32"), "{e}");

        let not_c = |layout: Layout| {
            let e = plan_export::<f32>(DType::Float32, &layout).unwrap_err();
            assert!(
                matches!(&e, Error::Buffer(m) if m.contains("not C-contiguous") && m.contains("a.copy()")),
                "{e:?}"
            );
        };
        // Transposed, strided, reversed, broadcast.
        not_c(c.transpose(None).unwrap());
        not_c(Layout::new(vec![3], vec![8], 0));
        not_c(Layout::new(vec![3], vec![-4], 8));
        not_c(Layout::new(vec![2, 3], vec![0, 4], 0));
        // An offset view, a scalar, an empty array and unit axes are fine.
        assert_eq!(
            plan_export::<f32>(DType::Float32, &Layout::new(vec![4], vec![4], 8)).unwrap(),
            4
        );
        assert_eq!(
            plan_export::<f32>(DType::Float32, &Layout::new(vec![], vec![], 0)).unwrap(),
            1
        );
        assert_eq!(
            plan_export::<f32>(DType::Float32, &Layout::new(vec![0, 3], vec![4, 4], 0)).unwrap(),
            0
        );
        assert_eq!(
            plan_export::<f32>(DType::Float32, &Layout::new(vec![3, 1], vec![4, 99], 0)).unwrap(),
            3
        );
    }

    #[test]
    fn loans_and_errors_cross_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<CudarcSlice<f32>>();
        send_sync::<CudarcSlice<Complex<f64>>>();
        send_sync::<Error>();
    }

    #[test]
    fn ordinals_must_match() {
        assert_eq!(check_ordinal(1, Some(1), "to_cudarc").unwrap(), 1);
        assert_eq!(check_ordinal(3, None, "from_cudarc").unwrap(), 3);
        let e = check_ordinal(1, Some(0), "to_cudarc").unwrap_err();
        assert!(
            matches!(&e, Error::Buffer(m) if m == "to_cudarc: the array is on CUDA device 0 but \
                cudarc's context is on device 1"),
            "{e:?}"
        );
        let e = check_ordinal(usize::MAX, None, "from_cudarc").unwrap_err();
        assert!(
            matches!(&e, Error::Buffer(m) if m.contains("not a CUDA device")),
            "{e:?}"
        );
    }
}
