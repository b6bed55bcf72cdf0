//! Interoperability: arrays shared with other libraries without a copy,
//! through DLPack (CuPy's "Interoperability" section) and, with the
//! `cudarc` feature, with the `cudarc` crate (candle's and burn's CUDA
//! layer): `interop::cudarc`, whose module docs say its rules
//! (`Array::from_cudarc`, `Array::to_cudarc`, the shared primary context
//! and the stream handshakes).
//!
//! | CuPy / the Python array API                 | Cuprum                                                |
//! |---------------------------------------------|-------------------------------------------------------|
//! | `cx.toDlpack()`                             | [`to_dlpack`]`(&x)?`, [`Array::to_dlpack`]            |
//! | `cupy.fromDlpack(capsule)`                  | [`Array::from_dlpack`]`(tensor)?`                     |
//! | `cupy.from_dlpack(x)`                       | [`from_dlpack`]`(&x)?` (any [`DlpackProducer`])       |
//! | `x.__dlpack__(stream=s, copy=c, dl_device=d)` | [`Array::to_dlpack_with`] ([`ToDlpackOptions`], [`ConsumerStream`]) |
//! | `x.__dlpack__(max_version=None)` (legacy)   | [`Array::to_dlpack_legacy`], [`Array::from_dlpack_legacy`] |
//! | `x.__dlpack_device__()`                     | [`Array::dlpack_device`]                              |
//! | a `"dltensor_versioned"` capsule's pointer  | [`DlpackTensor::from_raw`], [`DlpackTensor::into_raw`] |
//!
//! # The choices
//!
//! **The ABI is Cuprum's own `#[repr(C)]` structs** ([`ffi`]), mirroring
//! `dlpack.h` v1.1 field for field, with tests holding their sizes and
//! offsets to the header's. The `dlpark` crate was considered: it has the
//! versioned struct, but its API was reshaped in each of its last releases
//! (0.5, 0.6, then 0.8 and 0.9 alphas) around its own builder and owner
//! types and aimed at Python bindings, while what Cuprum needs is five
//! plain structs plus checks of its own (device, dtype, layout against the
//! array's rules), so a dependency would add churn and no checks.
//!
//! **Export** ([`Array::to_dlpack`], [`Array::to_dlpack_with`],
//! [`Array::to_dlpack_legacy`]) is zero-copy (unless the array API's `copy`
//! or `dl_device` asks for a copy, which is then flagged
//! `DLPACK_FLAG_BITMASK_IS_COPIED`): the tensor's context holds a
//! clone of the array, so its memory lives until the consumer calls the
//! deleter. Shape and strides are in elements (DLPack's unit; a stride
//! that is not a whole number of elements cannot be exported), `data` is
//! element `[0, ...]`'s address with `byte_offset` 0 (what CuPy and
//! PyTorch send; `dlpack.h` notes that consumers do not rely on `data`'s
//! 256-byte alignment), the device is `(kDLCUDA, ordinal)`. Negative and
//! zero strides are exported as they are (DLPack allows them; PyTorch's
//! importer refuses negative ones, so hand it `x.copy()` or ask for
//! `copy`). Every Cuprum
//! dtype has its DLPack type ([`dlpack_dtype`]): `bool` as `kDLBool` of 8
//! bits, `bfloat16` as `kDLBfloat`, complex as `kDLComplex`.
//!
//! **The stream handshake** is the Python array API's: the exporter is
//! given the consumer's stream ([`ConsumerStream`]); when it is not the
//! array's stream (the calling thread's current stream of the array's
//! device), an event recorded on the array's stream is waited for on the
//! consumer's (`cuStreamWaitEvent`): never a device-wide synchronization.
//! The memory is reused only once the consumer's queued work is done:
//! Cuprum's default streams are recorded on the array's memory
//! ([`gpu_runtime::Memory::record_stream`]); a consumer's own stream is
//! fenced by the deleter (the array's stream waits for an event recorded
//! on it then), so the consumer need keep its stream only until it
//! releases the tensor.
//!
//! **Import** ([`Array::from_dlpack`], [`from_dlpack`]) takes ownership of
//! the producer's struct ([`DlpackTensor`], made from a raw pointer by the
//! `unsafe` [`DlpackTensor::from_raw`], whose contract says what the
//! producer must guarantee) and checks everything before trusting it: the
//! version (major 1, as the header requires), the device (`kDLCUDA` of a
//! present device, or `kDLCUDAManaged`; other kinds are named in the
//! error), `ndim` (at most [`MAX_NDIM`]), the dtype (one lane, a code and
//! width Cuprum has), extents and strides (any sign, zero, null for C
//! order) with checked arithmetic, null data, alignment. Bad input is an
//! [`Error::Buffer`] (Python's `BufferError`, as the
//! standard says) or [`Error::TooBig`], never a
//! panic, and the producer's deleter runs either way. The array is a view
//! of the producer's memory ([`gpu_runtime::Memory::from_raw_with_free`]):
//! the deleter runs when its last view drops, after that drop has waited
//! for the work queued on the importing stream (a wait on that stream
//! only), since the producer may reuse the memory as soon as the deleter
//! returns.
//!
//! **Read-only tensors.** Cuprum's arrays have no read-only flag, so a
//! tensor marked `DLPACK_FLAG_BITMASK_READ_ONLY` is refused by default (a
//! clear error rather than a view that could be written through);
//! [`ReadOnlyImport::Copy`] copies it instead and [`ReadOnlyImport::View`]
//! takes the caller's promise not to write. Export sets the flag on request
//! ([`ToDlpackOptions::read_only`]).

#[cfg(feature = "cudarc")]
pub mod cudarc;
pub(crate) mod dlpack;
pub mod ffi;

pub use crate::raw::dlpack::{DlpackTensor, LegacyDlpackTensor, ManagedAbi, ManagedTensor};
pub use dlpack::{
    ConsumerStream, FromDlpackOptions, MAX_NDIM, ReadOnlyImport, TensorInfo, ToDlpackOptions,
    dlpack_dtype, dtype_from_dlpack,
};

use gpu_runtime::Device;

use crate::array::Array;
use crate::error::{Error, Result};
use ffi::{DLDevice, device_type};

/// Something that can hand out its data as a DLPack tensor: the Python
/// array API's `__dlpack__` and `__dlpack_device__`, for Rust types.
/// [`from_dlpack`] takes any of them.
///
/// ```no_run
/// use gpu_array::interop::{ConsumerStream, DlpackProducer};
/// use gpu_array::{Array, DType};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([4], DType::Float32)?;
/// let dev = x.dlpack_device();                  // x.__dlpack_device__()
/// let t = x.dlpack(&ConsumerStream::PerThread)?; // x.__dlpack__(stream=2)
/// # Ok(()) }
/// ```
pub trait DlpackProducer {
    /// Where the data lives (`__dlpack_device__`).
    fn dlpack_device(&self) -> DLDevice;

    /// A versioned tensor of the data, ready for work queued on `stream`
    /// (`__dlpack__(stream=...)`).
    ///
    /// # Errors
    /// Whatever keeps the producer from exporting.
    fn dlpack(&self, stream: &ConsumerStream) -> Result<DlpackTensor>;
}

impl DlpackProducer for Array {
    fn dlpack_device(&self) -> DLDevice {
        Array::dlpack_device(self)
    }

    fn dlpack(&self, stream: &ConsumerStream) -> Result<DlpackTensor> {
        self.to_dlpack_with(&ToDlpackOptions::default().stream(stream.clone()))
    }
}

/// The Python array API's `from_dlpack(x)` (CuPy's `cupy.from_dlpack`):
/// asks `x` where its data is, asks it for a tensor ready on the calling
/// thread's current stream of that device, and imports it without a copy
/// ([`Array::from_dlpack`]).
///
/// ```no_run
/// use gpu_array::{creation::arange, interop};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(5)?;
/// let y = interop::from_dlpack(&x)?; // cupy.from_dlpack(x)
/// assert_eq!(y.data_ptr(), x.data_ptr());
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Buffer`] when the producer's device is not CUDA memory (named),
/// or as the producer's export and [`Array::from_dlpack`].
pub fn from_dlpack(x: &impl DlpackProducer) -> Result<Array> {
    let dev = x.dlpack_device();
    let device = match dev.device_type {
        device_type::CUDA => Device::new(dev.device_id).map_err(|e| {
            Error::Buffer(format!(
                "from_dlpack: the producer is on CUDA device {}: {e}",
                dev.device_id
            ))
        })?,
        device_type::CUDA_MANAGED => Device::current()?,
        _ => {
            // The same message as the import's.
            return Err(dlpack::import_device(dev).expect_err("not a CUDA device"));
        }
    };
    let tensor = x.dlpack(&ConsumerStream::current_on(device))?;
    Array::from_dlpack(tensor)
}

/// CuPy's `cupy.ndarray.toDlpack()`: [`Array::to_dlpack`] for a consumer on
/// the array's own stream (the calling thread's current stream of its
/// device), so no handshake is needed (as the old protocol assumed).
///
/// ```no_run
/// use gpu_array::{Array, creation::arange, interop};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(4)?;
/// let t = interop::to_dlpack(&x)?;   // dx = cx.toDlpack()
/// let y = Array::from_dlpack(t)?;    // cupy.fromDlpack(dx)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`Array::to_dlpack_with`].
pub fn to_dlpack(a: &Array) -> Result<DlpackTensor> {
    a.to_dlpack_with(&ToDlpackOptions::default().stream(ConsumerStream::Stream(a.stream())))
}
