//! DLPack's `unsafe` half: the owning handle of a producer's managed
//! tensor (reading it, calling its deleter), the producer's memory as a
//! [`Memory`], and the boxes and deleters of Cuprum's own exports. The
//! checks live in `crate::interop::dlpack`; this file reads raw memory only
//! where a checked value says it may.

use std::panic::AssertUnwindSafe;
use std::ptr::NonNull;

use gpu_runtime::{Device, DevicePtr, Memory};

use crate::array::Array;
use crate::error::{Error, Result};
use crate::interop::dlpack::{ExportParts, TensorInfo, check_ndim, check_version};
use crate::interop::ffi::{
    DLManagedTensor, DLManagedTensorVersioned, DLPACK_FLAG_BITMASK_IS_COPIED,
    DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION, DLPackVersion,
    DLTensor,
};

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::interop::ffi::DLManagedTensorVersioned {}
    impl Sealed for crate::interop::ffi::DLManagedTensor {}
}

/// The two managed-tensor structs of DLPack: [`DLManagedTensorVersioned`]
/// (DLPack 1.x) and the legacy [`DLManagedTensor`]. Sealed.
pub trait ManagedAbi: sealed::Sealed + Sized + 'static {
    /// The C struct's name, for messages.
    const NAME: &'static str;

    /// The version (`None` for the legacy struct).
    ///
    /// # Safety
    /// `p` points to a live struct of this kind (for the versioned one, its
    /// fields up to `flags`, which keep their place in every major version).
    #[doc(hidden)]
    unsafe fn version_at(p: *const Self) -> Option<DLPackVersion>;

    /// The flags (0 for the legacy struct).
    ///
    /// # Safety
    /// As [`ManagedAbi::version_at`].
    #[doc(hidden)]
    unsafe fn flags_at(p: *const Self) -> u64;

    /// A copy of the `DLTensor`.
    ///
    /// # Safety
    /// `p` points to a live struct of this kind, of major version 1 if
    /// versioned.
    #[doc(hidden)]
    unsafe fn tensor_at(p: *const Self) -> DLTensor;

    /// Calls the deleter, if there is one.
    ///
    /// # Safety
    /// As [`ManagedAbi::version_at`]; `p` is not used afterwards.
    #[doc(hidden)]
    unsafe fn delete(p: *mut Self);
}

impl ManagedAbi for DLManagedTensorVersioned {
    const NAME: &'static str = "DLManagedTensorVersioned";

    unsafe fn version_at(p: *const Self) -> Option<DLPackVersion> {
        // SAFETY: the caller's contract; a field read, no reference to the
        // whole struct (whose tail may be another major version's).
        Some(unsafe { (*p).version })
    }

    unsafe fn flags_at(p: *const Self) -> u64 {
        // SAFETY: as in `version_at`.
        unsafe { (*p).flags }
    }

    unsafe fn tensor_at(p: *const Self) -> DLTensor {
        // SAFETY: the caller's contract (major version 1: the tensor is there).
        unsafe { (*p).dl_tensor }
    }

    unsafe fn delete(p: *mut Self) {
        // SAFETY: the caller's contract: the deleter's place is stable.
        if let Some(deleter) = unsafe { (*p).deleter } {
            // SAFETY: the producer's deleter, called once with its own struct.
            unsafe { deleter(p) }
        }
    }
}

impl ManagedAbi for DLManagedTensor {
    const NAME: &'static str = "DLManagedTensor";

    unsafe fn version_at(_: *const Self) -> Option<DLPackVersion> {
        None
    }

    unsafe fn flags_at(_: *const Self) -> u64 {
        0
    }

    unsafe fn tensor_at(p: *const Self) -> DLTensor {
        // SAFETY: the caller's contract.
        unsafe { (*p).dl_tensor }
    }

    unsafe fn delete(p: *mut Self) {
        // SAFETY: the caller's contract.
        if let Some(deleter) = unsafe { (*p).deleter } {
            // SAFETY: the producer's deleter, called once with its own struct.
            unsafe { deleter(p) }
        }
    }
}

/// An owned DLPack managed tensor: the producer's struct, whose deleter
/// this handle calls when it drops (unless [`into_raw`](Self::into_raw)
/// handed it on). [`DlpackTensor`] for DLPack 1.x, [`LegacyDlpackTensor`]
/// for the legacy struct. Made by [`Array::to_dlpack`] or, from another
/// library's pointer, by the `unsafe` [`from_raw`](Self::from_raw);
/// consumed by [`Array::from_dlpack`].
pub struct ManagedTensor<M: ManagedAbi> {
    ptr: NonNull<M>,
}

/// A versioned DLPack tensor (`DLManagedTensorVersioned`, DLPack 1.x): the
/// Python array API's `"dltensor_versioned"` capsule's content.
pub type DlpackTensor = ManagedTensor<DLManagedTensorVersioned>;

/// A legacy DLPack tensor (`DLManagedTensor`): the `"dltensor"` capsule's
/// content.
pub type LegacyDlpackTensor = ManagedTensor<DLManagedTensor>;

// SAFETY: `from_raw`'s contract lets the deleter run on any thread and
// forbids the producer to change the struct while this handle owns it;
// Cuprum's own exports hold an `Array` (Send) and plain vectors.
unsafe impl<M: ManagedAbi> Send for ManagedTensor<M> {}

impl<M: ManagedAbi> ManagedTensor<M> {
    /// Takes ownership of a managed tensor that a producer handed over (a
    /// DLPack capsule's pointer): the handle's drop calls its deleter.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::interop::DlpackTensor;
    /// # fn main() -> gpu_array::Result<()> {
    /// let raw = Array::zeros([8], DType::Float32)?.to_dlpack()?.into_raw(); // to C and back
    /// // SAFETY: `raw` came from `into_raw` and is handed over once.
    /// let t = unsafe { DlpackTensor::from_raw(raw)? };
    /// let a = Array::from_dlpack(t)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Buffer`] when `ptr` is null (then nothing is owned).
    ///
    /// # Safety
    /// When `ptr` is not null:
    /// - it points to a live struct of this kind, whose ownership passes to
    ///   the handle: the caller neither uses it nor calls its deleter
    ///   afterwards; for a versioned struct of another major version only
    ///   the fields up to `flags` need be valid;
    /// - for major version 1 (and the legacy struct), the `DLTensor` is as
    ///   the header says: `shape` points to `ndim` aligned `int64_t`s
    ///   (any values) when `ndim > 0`, `strides` is null or points to
    ///   `ndim` more, and neither changes until the deleter runs (`ndim`
    ///   and null or misaligned pointers are checked before any read);
    /// - the data the tensor describes, on the device it names, stays
    ///   valid until the deleter runs, reachable from that device's
    ///   primary context (as PyTorch's and CuPy's are);
    /// - the deleter, when not null, may be called from any thread, once.
    pub unsafe fn from_raw(ptr: *mut M) -> Result<ManagedTensor<M>> {
        match NonNull::new(ptr) {
            Some(ptr) => Ok(ManagedTensor { ptr }),
            None => Err(Error::Buffer(format!(
                "from_dlpack: a null {} pointer",
                M::NAME
            ))),
        }
    }

    /// Hands the struct on (to C, to a Python capsule) without calling its
    /// deleter: whoever receives the pointer must call it once.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let t = Array::zeros([8], DType::Float32)?.to_dlpack()?;
    /// let raw: *mut gpu_array::interop::ffi::DLManagedTensorVersioned = t.into_raw();
    /// // ... `(*raw).deleter` releases the array's memory when the consumer is done.
    /// # let _ = raw;
    /// # Ok(()) }
    /// ```
    pub fn into_raw(self) -> *mut M {
        let p = self.ptr.as_ptr();
        std::mem::forget(self);
        p
    }

    /// The struct's address (still owned by the handle).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let t = Array::zeros([2], DType::Int8)?.to_dlpack()?;
    /// assert!(!t.as_ptr().is_null());
    /// # Ok(()) }
    /// ```
    pub fn as_ptr(&self) -> *const M {
        self.ptr.as_ptr()
    }

    /// The DLPack version (`None` for a legacy tensor).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ConsumerStream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2], DType::Int8)?;
    /// assert_eq!(x.to_dlpack()?.version().map(|v| v.major), Some(1));
    /// assert!(x.to_dlpack_legacy(&ConsumerStream::Legacy)?.version().is_none());
    /// # Ok(()) }
    /// ```
    pub fn version(&self) -> Option<DLPackVersion> {
        // SAFETY: `from_raw`'s contract (or our own export).
        unsafe { M::version_at(self.ptr.as_ptr()) }
    }

    /// The `DLPACK_FLAG_BITMASK_*` flags (0 for a legacy tensor).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ffi::DLPACK_FLAG_BITMASK_IS_COPIED};
    /// # fn main() -> gpu_array::Result<()> {
    /// let t = Array::zeros([2], DType::Int8)?.to_dlpack()?;
    /// assert_eq!(t.flags() & DLPACK_FLAG_BITMASK_IS_COPIED, 0); // zero-copy
    /// # Ok(()) }
    /// ```
    pub fn flags(&self) -> u64 {
        // SAFETY: `from_raw`'s contract (or our own export).
        unsafe { M::flags_at(self.ptr.as_ptr()) }
    }

    /// Whether the producer forbids writes (`DLPACK_FLAG_BITMASK_READ_ONLY`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ToDlpackOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2], DType::Int8)?;
    /// assert!(x.to_dlpack_with(&ToDlpackOptions::default().read_only(true))?.is_read_only());
    /// # Ok(()) }
    /// ```
    pub fn is_read_only(&self) -> bool {
        self.flags() & DLPACK_FLAG_BITMASK_READ_ONLY != 0
    }

    /// Whether the producer made a copy for this exchange
    /// (`DLPACK_FLAG_BITMASK_IS_COPIED`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// assert!(!Array::zeros([2], DType::Int8)?.to_dlpack()?.is_copied()); // no copy unless asked for
    /// # Ok(()) }
    /// ```
    pub fn is_copied(&self) -> bool {
        self.flags() & DLPACK_FLAG_BITMASK_IS_COPIED != 0
    }

    /// The tensor's description, copied out: the version is checked first
    /// (major 1), then `ndim`, and the shape and strides are read only
    /// when their pointers are non-null and aligned.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float32)?;
    /// let info = x.T().to_dlpack()?.info()?;
    /// assert_eq!((info.shape, info.strides), (vec![3, 2], Some(vec![1, 3])));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Buffer`] for another major version, a bad `ndim`, or a null
    /// or misaligned shape or strides pointer.
    pub fn info(&self) -> Result<TensorInfo> {
        if let Some(v) = self.version() {
            check_version(v)?;
        }
        // SAFETY: `from_raw`'s contract, and major version 1 (checked).
        let t = unsafe { M::tensor_at(self.ptr.as_ptr()) };
        let ndim = check_ndim(t.ndim)?;
        let read = |p: *const i64, what: &str| -> Result<Vec<i64>> {
            if ndim == 0 {
                return Ok(Vec::new());
            }
            if p.is_null() || !p.is_aligned() {
                return Err(Error::Buffer(format!(
                    "from_dlpack: the tensor's {what} pointer {p:?} is null or misaligned \
                     (ndim = {ndim})"
                )));
            }
            // SAFETY: `from_raw`'s contract: `ndim` (checked to be at most
            // MAX_NDIM) int64s at this non-null, aligned address.
            Ok(unsafe { std::slice::from_raw_parts(p, ndim) }.to_vec())
        };
        let shape = read(t.shape, "shape")?;
        let strides = if t.strides.is_null() {
            None
        } else {
            Some(read(t.strides, "strides")?)
        };
        Ok(TensorInfo {
            data: t.data.addr() as u64,
            device: t.device,
            dtype: t.dtype,
            shape,
            strides,
            byte_offset: t.byte_offset,
        })
    }
}

impl<M: ManagedAbi> Drop for ManagedTensor<M> {
    fn drop(&mut self) {
        // SAFETY: `from_raw`'s contract: the handle owns the struct, and
        // this is its one release.
        unsafe { M::delete(self.ptr.as_ptr()) }
    }
}

impl<M: ManagedAbi> std::fmt::Debug for ManagedTensor<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(M::NAME)
            .field("ptr", &self.ptr)
            .field("version", &self.version())
            .field("flags", &self.flags())
            .finish()
    }
}

/// The producer's memory, `base .. base + size` (the span of the tensor's
/// elements, from `plan_import`), as a [`Memory`] whose release drops
/// `tensor`, which calls the producer's deleter.
pub(crate) fn into_memory<M: ManagedAbi>(
    tensor: ManagedTensor<M>,
    base: u64,
    size: usize,
    device: Device,
) -> Memory {
    // SAFETY: `plan_import` derived `base .. base + size` from the tensor's
    // own description with checked arithmetic, so it is the span of its
    // elements; the producer keeps that memory valid, on `device`, until
    // its deleter runs (`ManagedTensor::from_raw`'s contract, or Cuprum's
    // own export holding the array), and the deleter runs only when the
    // closure drops `tensor`: once, when the `Memory` is released.
    unsafe { Memory::from_raw_with_free(DevicePtr(base), size, device, move |_, _| drop(tensor)) }
}

/// Cuprum's export: the managed struct first (`repr(C)`, so a pointer to
/// it is a pointer to the box), then what it points to and the array
/// whose memory it describes.
#[repr(C)]
struct Exported<M> {
    managed: M,
    shape: Vec<i64>,
    strides: Vec<i64>,
    array: Array,
    consumer: Option<gpu_runtime::Stream>,
}

impl<M> Drop for Exported<M> {
    /// The consumer is done with the tensor, though the work it queued on
    /// its own stream may still run: the array's stream waits for that
    /// work (an event recorded now, while the consumer's stream is
    /// certainly alive), and the memory is freed or reused only after the
    /// array's stream. Where no event can be recorded (a per-thread
    /// stream released on another thread), the consumer's stream is
    /// synchronized instead.
    fn drop(&mut self) {
        let Some(consumer) = self.consumer.take() else {
            return;
        };
        let producer = self.array.stream();
        let fenced = consumer.record().and_then(|e| producer.wait_event(&e));
        if fenced.is_ok() {
            self.array.memory().record_stream(&producer);
        } else if let Err(e) = consumer.synchronize() {
            tracing::error!(
                "DLPack export released: the consumer's stream could not be fenced ({e}); \
                 its queued work may overlap the memory's next use"
            );
        }
    }
}

/// The deleter of Cuprum's exports: frees the box, dropping the array.
unsafe extern "C" fn delete_exported<M>(p: *mut M) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` is the `Box::into_raw` of an `Exported<M>` made by
    // `export` (the managed struct is its first field), and DLPack's
    // consumer calls the deleter once.
    let exported = unsafe { Box::from_raw(p.cast::<Exported<M>>()) };
    // Unwinding out of an `extern "C"` function aborts: a panic in a drop
    // (none is expected) is contained here.
    let _ = std::panic::catch_unwind(AssertUnwindSafe(move || drop(exported)));
}

/// The `DLTensor` of `parts`, pointing into its vectors (whose heap buffers
/// stay where they are when the vectors move into the box).
fn tensor_of(parts: &mut ExportParts) -> DLTensor {
    DLTensor {
        data: std::ptr::without_provenance_mut(parts.data as usize),
        device: parts.device,
        ndim: parts.shape.len() as i32, // checked by `export_parts`
        dtype: parts.dtype,
        shape: parts.shape.as_mut_ptr(),
        strides: parts.strides.as_mut_ptr(),
        byte_offset: 0,
    }
}

fn export<M: ManagedAbi>(managed: M, parts: ExportParts) -> ManagedTensor<M> {
    let boxed = Box::new(Exported {
        managed,
        shape: parts.shape,
        strides: parts.strides,
        array: parts.array,
        consumer: parts.consumer,
    });
    let p = Box::into_raw(boxed);
    ManagedTensor {
        ptr: NonNull::new(p.cast::<M>()).expect("Box::into_raw is never null"),
    }
}

/// A versioned tensor of `parts` with `flags`.
pub(crate) fn export_versioned(mut parts: ExportParts, flags: u64) -> DlpackTensor {
    let dl_tensor = tensor_of(&mut parts);
    let managed = DLManagedTensorVersioned {
        version: DLPackVersion {
            major: DLPACK_MAJOR_VERSION,
            minor: DLPACK_MINOR_VERSION,
        },
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(delete_exported::<DLManagedTensorVersioned>),
        flags,
        dl_tensor,
    };
    export(managed, parts)
}

/// A legacy tensor of `parts`.
pub(crate) fn export_legacy(mut parts: ExportParts) -> LegacyDlpackTensor {
    let dl_tensor = tensor_of(&mut parts);
    let managed = DLManagedTensor {
        dl_tensor,
        manager_ctx: std::ptr::null_mut(),
        deleter: Some(delete_exported::<DLManagedTensor>),
    };
    export(managed, parts)
}

#[cfg(test)]
mod tests {
    //! Hostile tensors built by hand, imported on the host: every check
    //! that needs no device refuses them before any device call, and the
    //! producer's deleter runs exactly once either way.

    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::DType;
    use crate::interop::dlpack_dtype;
    use crate::interop::ffi::{DLDevice, device_type, type_code};

    /// A test producer: the managed struct first, then what it points to
    /// and the deleter's counter.
    #[repr(C)]
    struct Hostile<M> {
        managed: M,
        shape: Vec<i64>,
        strides: Vec<i64>,
        deleted: Arc<AtomicUsize>,
    }

    unsafe extern "C" fn count_delete<M>(p: *mut M) {
        // SAFETY: `p` is the `Box::into_raw` of a `Hostile<M>` (`make`).
        let h = unsafe { Box::from_raw(p.cast::<Hostile<M>>()) };
        h.deleted.fetch_add(1, Ordering::SeqCst);
    }

    /// What a hostile tensor says.
    #[derive(Clone)]
    struct Spec {
        version: DLPackVersion,
        flags: u64,
        data: u64,
        device: DLDevice,
        ndim: i32,
        dtype: crate::interop::ffi::DLDataType,
        shape: Vec<i64>,
        strides: Option<Vec<i64>>,
        null_shape: bool,
        byte_offset: u64,
    }

    fn spec(shape: &[i64]) -> Spec {
        Spec {
            version: DLPackVersion { major: 1, minor: 1 },
            flags: 0,
            data: 0x7f00_0000_0000,
            device: DLDevice {
                device_type: device_type::CUDA,
                device_id: 0,
            },
            ndim: shape.len() as i32,
            dtype: dlpack_dtype(DType::Float32),
            shape: shape.to_vec(),
            strides: None,
            null_shape: false,
            byte_offset: 0,
        }
    }

    fn tensor_of_spec(s: &Spec, shape: &mut [i64], strides: &mut Option<Vec<i64>>) -> DLTensor {
        DLTensor {
            data: std::ptr::without_provenance_mut(s.data as usize),
            device: s.device,
            ndim: s.ndim,
            dtype: s.dtype,
            shape: if s.null_shape {
                std::ptr::null_mut()
            } else {
                shape.as_mut_ptr()
            },
            strides: strides
                .as_mut()
                .map_or(std::ptr::null_mut(), |v| v.as_mut_ptr()),
            byte_offset: s.byte_offset,
        }
    }

    fn make_versioned(s: &Spec) -> (DlpackTensor, Arc<AtomicUsize>) {
        let deleted = Arc::new(AtomicUsize::new(0));
        let (mut shape, mut strides) = (s.shape.clone(), s.strides.clone());
        let dl_tensor = tensor_of_spec(s, &mut shape, &mut strides);
        let h = Box::new(Hostile {
            managed: DLManagedTensorVersioned {
                version: s.version,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(count_delete::<DLManagedTensorVersioned>),
                flags: s.flags,
                dl_tensor,
            },
            shape,
            strides: strides.unwrap_or_default(),
            deleted: deleted.clone(),
        });
        let p = Box::into_raw(h).cast::<DLManagedTensorVersioned>();
        // SAFETY: a live struct whose arrays live in the box; handed over once.
        (unsafe { DlpackTensor::from_raw(p) }.unwrap(), deleted)
    }

    fn make_legacy(s: &Spec) -> (LegacyDlpackTensor, Arc<AtomicUsize>) {
        let deleted = Arc::new(AtomicUsize::new(0));
        let (mut shape, mut strides) = (s.shape.clone(), s.strides.clone());
        let dl_tensor = tensor_of_spec(s, &mut shape, &mut strides);
        let h = Box::new(Hostile {
            managed: DLManagedTensor {
                dl_tensor,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(count_delete::<DLManagedTensor>),
            },
            shape,
            strides: strides.unwrap_or_default(),
            deleted: deleted.clone(),
        });
        let p = Box::into_raw(h).cast::<DLManagedTensor>();
        // SAFETY: as in `make_versioned`.
        (unsafe { LegacyDlpackTensor::from_raw(p) }.unwrap(), deleted)
    }

    /// Imports `s` (versioned), expecting a BufferError whose message
    /// contains `want`, and the deleter run exactly once.
    fn refused(s: &Spec, want: &str) {
        let (t, deleted) = make_versioned(s);
        match Array::from_dlpack(t) {
            Err(Error::Buffer(m)) => assert!(m.contains(want), "{want:?} not in {m:?}"),
            Err(e) => panic!("expected a BufferError containing {want:?}, got {e:?}"),
            Ok(_) => panic!("imported a hostile tensor ({want})"),
        }
        assert_eq!(deleted.load(Ordering::SeqCst), 1, "{want}");
    }

    #[test]
    fn hostile_tensors_are_refused_and_deleted_once() {
        let mut s = spec(&[4]);
        s.data = 0;
        refused(&s, "null but it has 4 elements");

        let mut s = spec(&[4]);
        s.dtype.lanes = 2;
        refused(&s, "2 lanes");

        let mut s = spec(&[4]);
        s.dtype = crate::interop::ffi::DLDataType {
            code: 14,
            bits: 8,
            lanes: 1,
        };
        refused(&s, "kDLFloat8_e8m0fnu");

        let mut s = spec(&[4]);
        s.device.device_type = device_type::CPU;
        refused(&s, "kDLCPU");

        let mut s = spec(&[4]);
        s.device.device_type = device_type::CUDA_HOST;
        refused(&s, "kDLCUDAHost");

        let mut s = spec(&[1 << 62, 1 << 62]);
        s.strides = Some(vec![1, 1]);
        let (t, deleted) = make_versioned(&s);
        assert!(matches!(Array::from_dlpack(t), Err(Error::TooBig)));
        assert_eq!(deleted.load(Ordering::SeqCst), 1);

        let mut s = spec(&[3, 3]);
        s.strides = Some(vec![i64::MAX / 3, i64::MAX / 3]);
        s.dtype = dlpack_dtype(DType::Int8);
        refused(&s, "span");

        let mut s = spec(&[2]);
        s.strides = Some(vec![i64::MIN]);
        refused(&s, "overflows");

        let mut s = spec(&[]);
        s.ndim = 65;
        refused(&s, "ndim = 65");

        let mut s = spec(&[]);
        s.ndim = -3;
        refused(&s, "ndim = -3");

        let mut s = spec(&[2, 2]);
        s.null_shape = true;
        refused(&s, "shape pointer");

        let mut s = spec(&[4]);
        s.version = DLPackVersion { major: 2, minor: 0 };
        // A bad shape pointer too: nothing past the version is read.
        s.null_shape = true;
        refused(&s, "DLPack 2.0");

        let mut s = spec(&[4]);
        s.version = DLPackVersion { major: 0, minor: 8 };
        refused(&s, "DLPack 0.8");

        // A misaligned shape pointer is refused before it is read.
        let (t, deleted) = make_versioned(&spec(&[2, 2]));
        let p = t.into_raw();
        // SAFETY: `p` is ours (`make_versioned`); only the pointer value
        // changes (its own vector stays owned by the box).
        let t = unsafe {
            (*p).dl_tensor.shape = (*p).dl_tensor.shape.cast::<u8>().wrapping_add(1).cast();
            DlpackTensor::from_raw(p).unwrap()
        };
        let e = Array::from_dlpack(t).unwrap_err();
        assert!(e.to_string().contains("misaligned"), "{e}");
        assert_eq!(deleted.load(Ordering::SeqCst), 1);

        // Read-only is refused by default, before any device call.
        let mut s = spec(&[4]);
        s.flags = DLPACK_FLAG_BITMASK_READ_ONLY;
        refused(&s, "read-only");
    }

    #[test]
    fn a_null_pointer_is_an_error() {
        // SAFETY: null is allowed (and refused).
        let e = unsafe { DlpackTensor::from_raw(std::ptr::null_mut()) }.unwrap_err();
        assert!(
            e.to_string().contains("null DLManagedTensorVersioned"),
            "{e}"
        );
        // SAFETY: as above.
        let e = unsafe { LegacyDlpackTensor::from_raw(std::ptr::null_mut()) }.unwrap_err();
        assert!(e.to_string().contains("null DLManagedTensor "), "{e}");
    }

    #[test]
    fn legacy_tensors_are_checked_the_same_way() {
        let mut s = spec(&[4]);
        s.device.device_type = device_type::ROCM;
        let (t, deleted) = make_legacy(&s);
        assert!(t.version().is_none() && t.flags() == 0);
        let e = Array::from_dlpack_legacy(t).unwrap_err();
        assert!(e.to_string().contains("kDLROCM"), "{e}");
        assert_eq!(deleted.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn info_reads_what_the_producer_wrote() {
        let mut s = spec(&[2, 3]);
        s.strides = Some(vec![-3, 1]);
        s.byte_offset = 24;
        s.flags = DLPACK_FLAG_BITMASK_IS_COPIED;
        s.dtype = dlpack_dtype(DType::Complex128);
        let (t, deleted) = make_versioned(&s);
        assert!(t.is_copied() && !t.is_read_only());
        assert_eq!(t.version(), Some(DLPackVersion { major: 1, minor: 1 }));
        let i = t.info().unwrap();
        assert_eq!(i.shape, [2, 3]);
        assert_eq!(i.strides.as_deref(), Some(&[-3, 1][..]));
        assert_eq!((i.data, i.byte_offset), (0x7f00_0000_0000, 24));
        assert_eq!(i.dtype.code, type_code::COMPLEX);
        assert!(format!("{t:?}").contains("DLManagedTensorVersioned"));
        drop(t);
        assert_eq!(deleted.load(Ordering::SeqCst), 1);
        // into_raw hands the deleter on: nothing runs until it is called.
        let (t, deleted) = make_versioned(&spec(&[1]));
        let p = t.into_raw();
        assert_eq!(deleted.load(Ordering::SeqCst), 0);
        // SAFETY: `p` came from `into_raw`, handed back once.
        drop(unsafe { DlpackTensor::from_raw(p) }.unwrap());
        assert_eq!(deleted.load(Ordering::SeqCst), 1);
    }

    /// A well-formed CUDA tensor gets past every host check; without a GPU
    /// the device check refuses it (clearly), and the deleter runs once.
    #[test]
    fn well_formed_tensors_reach_the_device_check() {
        if gpu_runtime::Device::count().unwrap_or(0) > 0 {
            return; // the GPU tests import real tensors
        }
        let mut s = spec(&[2, 3]);
        s.strides = Some(vec![1, 2]);
        let (t, deleted) = make_versioned(&s);
        let e = Array::from_dlpack(t).unwrap_err();
        assert!(
            matches!(&e, Error::Buffer(m) if m.contains("CUDA device 0")),
            "{e:?}"
        );
        assert_eq!(deleted.load(Ordering::SeqCst), 1);
    }
}
