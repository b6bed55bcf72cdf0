//! DLPack export and import of [`Array`]: the checks, the dtype and device
//! mappings and the stream handshake. The few lines that touch raw
//! pointers (reading a producer's tensor, the deleters) are in
//! `crate::raw::dlpack`.

use std::sync::Arc;

use gpu_runtime::{Device, Event, EventOptions, Stream};

use super::ffi::{
    DLDataType, DLDevice, DLPACK_FLAG_BITMASK_IS_COPIED, DLPACK_FLAG_BITMASK_READ_ONLY,
    DLPackVersion, device_type, type_code,
};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{self, Layout};
use crate::raw::dlpack::{
    self as raw, DlpackTensor, LegacyDlpackTensor, ManagedAbi, ManagedTensor,
};

/// The most dimensions an imported tensor may have: NumPy 2's
/// `NPY_MAXDIMS`. The array itself has no such limit; this one keeps a
/// hostile `ndim` from sizing an allocation.
pub const MAX_NDIM: usize = 64;

/// The consumer's stream in the DLPack handshake: the stream on which the
/// consumer will use the exported data (the `stream` argument of the
/// Python array API's `__dlpack__`).
///
/// The producer makes that stream wait for the work queued so far on the
/// array's stream (an event recorded there, `cuStreamWaitEvent` on the
/// consumer's stream: never a device-wide synchronization). The memory is
/// reused only after the consumer's work on it: Cuprum's default streams
/// are recorded on the memory ([`gpu_runtime::Memory::record_stream`]); a
/// consumer's own stream ([`ConsumerStream::Stream`]) is fenced when the
/// consumer releases the tensor (its deleter makes the array's stream
/// wait for an event recorded then on the consumer's stream), so the
/// consumer may destroy its stream once it has released the tensor.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub enum ConsumerStream {
    /// CUDA's legacy default stream (the array API's `stream=1`, and what
    /// `stream=None` means for CUDA).
    #[default]
    Legacy,
    /// The calling thread's per-thread default stream (`stream=2`).
    PerThread,
    /// A stream of the array's device, Cuprum's own or one made with
    /// [`Stream::from_raw`] from another library's handle (`stream=<handle>`).
    /// The stream is recorded on the array's memory, so the memory's
    /// release uses it: another library's handle must stay valid until the
    /// array's memory is released (which `Stream::from_raw`'s contract,
    /// "for as long as this value and its clones are used", covers).
    Stream(Stream),
    /// No handshake: the consumer orders its work itself (`stream=-1`).
    NoSync,
}

impl ConsumerStream {
    /// The calling thread's current stream of `device`: the stream to ask a
    /// producer for when importing ([`super::from_dlpack`] does).
    ///
    /// ```no_run
    /// use gpu_array::interop::ConsumerStream;
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = ConsumerStream::current_on(Device::current()?);
    /// assert_eq!(s.to_array_api()?, Some(1)); // no stream in use: the legacy default stream
    /// # Ok(()) }
    /// ```
    pub fn current_on(device: Device) -> ConsumerStream {
        ConsumerStream::Stream(Stream::current_on(device))
    }

    /// The value of the Python array API's `stream` argument: `None` is the
    /// legacy default stream on CUDA, `1` the legacy default stream, `2` the
    /// per-thread default stream, `-1` no synchronization. `0` is refused
    /// (the standard calls it ambiguous), and so is a raw stream handle:
    /// wrap it with the `unsafe` [`Stream::from_raw`] (which says what makes
    /// a handle valid) and pass [`ConsumerStream::Stream`].
    ///
    /// ```
    /// use gpu_array::interop::ConsumerStream;
    /// assert!(matches!(ConsumerStream::from_array_api(None)?, ConsumerStream::Legacy));
    /// assert!(matches!(ConsumerStream::from_array_api(Some(2))?, ConsumerStream::PerThread));
    /// assert!(matches!(ConsumerStream::from_array_api(Some(-1))?, ConsumerStream::NoSync));
    /// assert!(ConsumerStream::from_array_api(Some(0)).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Buffer`] for `0`, a raw handle, or a negative value other
    /// than `-1`.
    pub fn from_array_api(stream: Option<i64>) -> Result<ConsumerStream> {
        match stream {
            None | Some(1) => Ok(ConsumerStream::Legacy),
            Some(2) => Ok(ConsumerStream::PerThread),
            Some(-1) => Ok(ConsumerStream::NoSync),
            Some(0) => Err(Error::Buffer(
                "__dlpack__: stream=0 is ambiguous for CUDA (the array API standard disallows \
                 it); use 1 for the legacy default stream or 2 for the per-thread one"
                    .into(),
            )),
            Some(v) if v > 2 => Err(Error::Buffer(format!(
                "__dlpack__: stream={v:#x} is a raw stream handle; wrap it with the unsafe \
                 Stream::from_raw and pass ConsumerStream::Stream"
            ))),
            Some(v) => Err(Error::Buffer(format!(
                "__dlpack__: stream={v} is not a CUDA stream (expected None, -1, 1, 2 or a \
                 stream handle)"
            ))),
        }
    }

    /// The Python array API's `stream` value for this stream: `Some(1)` for
    /// the legacy default stream, `Some(2)` for the per-thread one, the raw
    /// handle for another stream, `Some(-1)` for [`ConsumerStream::NoSync`].
    ///
    /// ```
    /// use gpu_array::interop::ConsumerStream;
    /// assert_eq!(ConsumerStream::Legacy.to_array_api()?, Some(1));
    /// assert_eq!(ConsumerStream::NoSync.to_array_api()?, Some(-1));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// The stream is another thread's per-thread default stream (its
    /// handle would mean the caller's own).
    pub fn to_array_api(&self) -> Result<Option<i64>> {
        Ok(Some(match self {
            ConsumerStream::Legacy => 1,
            ConsumerStream::PerThread => 2,
            ConsumerStream::NoSync => -1,
            ConsumerStream::Stream(s) => match s.handle()? as usize {
                // The null handle is the legacy default stream, as 1 is
                // (CU_STREAM_LEGACY); 2 is CU_STREAM_PER_THREAD.
                0 | 1 => 1,
                h => h as i64,
            },
        }))
    }

    /// The stream on `device` this names (`None` for `NoSync`).
    fn resolve(&self, device: Device) -> Result<Option<Stream>> {
        Ok(match self {
            ConsumerStream::Legacy => Some(Stream::null(device)),
            ConsumerStream::PerThread => Some(Stream::per_thread(device)),
            ConsumerStream::NoSync => None,
            ConsumerStream::Stream(s) => {
                if s.device() != device {
                    return Err(Error::Buffer(format!(
                        "__dlpack__: the consumer's stream is on device {} but the array is on \
                         device {}",
                        s.device().ordinal(),
                        device.ordinal()
                    )));
                }
                Some(s.clone())
            }
        })
    }
}

/// Options of [`Array::to_dlpack_with`]: the Python array API's
/// `__dlpack__` arguments (the consumer's stream, `copy`, `dl_device`) and
/// the read-only flag.
///
/// ```
/// use gpu_array::interop::{ConsumerStream, ToDlpackOptions};
/// let o = ToDlpackOptions::default().stream(ConsumerStream::NoSync).read_only(true);
/// assert!(o.read_only);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct ToDlpackOptions {
    /// Where the consumer will use the data (see [`ConsumerStream`]);
    /// the legacy default stream by default, as the standard's `None`.
    pub stream: ConsumerStream,
    /// Sets `DLPACK_FLAG_BITMASK_READ_ONLY`: the consumer must not write.
    pub read_only: bool,
    /// The array API's `copy`: `None` copies only when needed (for another
    /// device), `Some(true)` always, `Some(false)` never (an export that
    /// needs a copy is then an error). A copy is flagged
    /// `DLPACK_FLAG_BITMASK_IS_COPIED`.
    pub copy: Option<bool>,
    /// The array API's `dl_device`: the CUDA device the consumer wants the
    /// data on (`None`: the array's own).
    pub device: Option<Device>,
}

impl ToDlpackOptions {
    /// With the consumer's stream.
    ///
    /// ```
    /// use gpu_array::interop::{ConsumerStream, ToDlpackOptions};
    /// let o = ToDlpackOptions::default().stream(ConsumerStream::PerThread);
    /// assert!(matches!(o.stream, ConsumerStream::PerThread));
    /// ```
    pub fn stream(mut self, stream: ConsumerStream) -> ToDlpackOptions {
        self.stream = stream;
        self
    }

    /// With the array API's `copy` (see [`ToDlpackOptions::copy`]).
    ///
    /// ```
    /// use gpu_array::interop::ToDlpackOptions;
    /// assert_eq!(ToDlpackOptions::default().copy(Some(true)).copy, Some(true));
    /// ```
    pub fn copy(mut self, copy: Option<bool>) -> ToDlpackOptions {
        self.copy = copy;
        self
    }

    /// With the device the consumer wants the data on (the array API's
    /// `dl_device`).
    ///
    /// ```no_run
    /// use gpu_array::interop::ToDlpackOptions;
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_array::Result<()> {
    /// let o = ToDlpackOptions::default().device(Device::new(0)?);
    /// # Ok(()) }
    /// ```
    pub fn device(mut self, device: Device) -> ToDlpackOptions {
        self.device = Some(device);
        self
    }

    /// With the read-only flag set or not.
    ///
    /// ```
    /// use gpu_array::interop::ToDlpackOptions;
    /// assert!(ToDlpackOptions::default().read_only(true).read_only);
    /// ```
    pub fn read_only(mut self, read_only: bool) -> ToDlpackOptions {
        self.read_only = read_only;
        self
    }
}

/// What [`Array::from_dlpack_with`] does with a tensor the producer marked
/// read-only (`DLPACK_FLAG_BITMASK_READ_ONLY`). Cuprum's arrays have no
/// read-only flag, so a zero-copy view could be written through.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadOnlyImport {
    /// Refuse it with [`Error::Buffer`] (the default): nothing is written
    /// that the producer said must not be.
    #[default]
    Refuse,
    /// Copy the data into a new array (on the current stream of the
    /// tensor's device); the producer's deleter runs once the copy is done
    /// (the drop of the view waits for that stream).
    Copy,
    /// A zero-copy view all the same: the caller promises not to write
    /// through it (nothing enforces that promise).
    View,
}

/// Options of [`Array::from_dlpack_with`].
///
/// ```
/// use gpu_array::interop::{FromDlpackOptions, ReadOnlyImport};
/// let o = FromDlpackOptions::default().read_only(ReadOnlyImport::Copy);
/// assert_eq!(o.read_only, ReadOnlyImport::Copy);
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FromDlpackOptions {
    /// What to do with a read-only tensor.
    pub read_only: ReadOnlyImport,
}

impl FromDlpackOptions {
    /// With a read-only policy.
    ///
    /// ```
    /// use gpu_array::interop::{FromDlpackOptions, ReadOnlyImport};
    /// let o = FromDlpackOptions::default().read_only(ReadOnlyImport::View);
    /// assert_eq!(o.read_only, ReadOnlyImport::View);
    /// ```
    pub fn read_only(mut self, read_only: ReadOnlyImport) -> FromDlpackOptions {
        self.read_only = read_only;
        self
    }
}

/// DLPack's data type of a Cuprum dtype (every one has one): `bool` is
/// `kDLBool` of 8 bits, `bfloat16` `kDLBfloat`, the complex types
/// `kDLComplex` of 64 and 128 bits, always one lane.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::interop::{dlpack_dtype, ffi::type_code};
/// let t = dlpack_dtype(DType::Complex64);
/// assert_eq!((t.code, t.bits, t.lanes), (type_code::COMPLEX, 64, 1));
/// ```
pub fn dlpack_dtype(dtype: DType) -> DLDataType {
    let code = match dtype {
        DType::Bool => type_code::BOOL,
        DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => type_code::INT,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => type_code::UINT,
        DType::Float16 | DType::Float32 | DType::Float64 => type_code::FLOAT,
        DType::BFloat16 => type_code::BFLOAT,
        DType::Complex64 | DType::Complex128 => type_code::COMPLEX,
    };
    DLDataType {
        code,
        bits: (dtype.itemsize() * 8) as u8,
        lanes: 1,
    }
}

/// The Cuprum dtype of a DLPack data type.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::interop::{dtype_from_dlpack, ffi::{DLDataType, type_code}};
/// let t = DLDataType { code: type_code::BFLOAT, bits: 16, lanes: 1 };
/// assert_eq!(dtype_from_dlpack(t)?, DType::BFloat16);
/// assert!(dtype_from_dlpack(DLDataType { lanes: 4, ..t }).is_err()); // a vector type
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// [`Error::Buffer`] for vector types (`lanes != 1`), and for codes and
/// widths Cuprum has no dtype for (the float8/6/4 codes, `kDLOpaqueHandle`,
/// `kDLFloat` of 8 bits, ...), naming them.
pub fn dtype_from_dlpack(t: DLDataType) -> Result<DType> {
    let name = || match type_code::name(t.code) {
        Some(n) => format!("{n} of {} bits", t.bits),
        None => format!("type code {} of {} bits", t.code, t.bits),
    };
    if t.lanes != 1 {
        return Err(Error::Buffer(format!(
            "from_dlpack: {} with {} lanes is a vector type; Cuprum's dtypes have one lane",
            name(),
            t.lanes
        )));
    }
    let dtype = match (t.code, t.bits) {
        (type_code::BOOL, 8) => DType::Bool,
        (type_code::INT, 8) => DType::Int8,
        (type_code::INT, 16) => DType::Int16,
        (type_code::INT, 32) => DType::Int32,
        (type_code::INT, 64) => DType::Int64,
        (type_code::UINT, 8) => DType::UInt8,
        (type_code::UINT, 16) => DType::UInt16,
        (type_code::UINT, 32) => DType::UInt32,
        (type_code::UINT, 64) => DType::UInt64,
        (type_code::FLOAT, 16) => DType::Float16,
        (type_code::FLOAT, 32) => DType::Float32,
        (type_code::FLOAT, 64) => DType::Float64,
        (type_code::BFLOAT, 16) => DType::BFloat16,
        (type_code::COMPLEX, 64) => DType::Complex64,
        (type_code::COMPLEX, 128) => DType::Complex128,
        _ => {
            return Err(Error::Buffer(format!(
                "from_dlpack: {} has no Cuprum dtype",
                name()
            )));
        }
    };
    Ok(dtype)
}

/// The name of a device type for messages: the header's, or the number.
fn device_name(device_type: i32) -> String {
    match device_type::name(device_type) {
        Some(n) => n.to_string(),
        None => format!("device type {device_type}"),
    }
}

/// Where an imported tensor's array lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImportDevice {
    /// `kDLCUDA` memory of this device ordinal.
    Ordinal(i32),
    /// `kDLCUDAManaged` memory (its `device_id` is 0 by the header's rule;
    /// any device can reach it): the calling thread's current device.
    Current,
}

/// Checks a DLPack device for import: CUDA memory, or CUDA managed memory.
pub(crate) fn import_device(device: DLDevice) -> Result<ImportDevice> {
    match device.device_type {
        device_type::CUDA if device.device_id >= 0 => Ok(ImportDevice::Ordinal(device.device_id)),
        device_type::CUDA => Err(Error::Buffer(format!(
            "from_dlpack: the tensor's CUDA device id is {}",
            device.device_id
        ))),
        device_type::CUDA_MANAGED => Ok(ImportDevice::Current),
        other => Err(Error::Buffer(format!(
            "from_dlpack: the tensor is in {} memory (device {}); Cuprum imports CUDA device \
             memory (kDLCUDA) and CUDA managed memory (kDLCUDAManaged) only",
            device_name(other),
            device.device_id
        ))),
    }
}

/// Checks a tensor's `ndim` before its shape is read.
pub(crate) fn check_ndim(ndim: i32) -> Result<usize> {
    match usize::try_from(ndim) {
        Ok(n) if n <= MAX_NDIM => Ok(n),
        _ => Err(Error::Buffer(format!(
            "from_dlpack: the tensor has ndim = {ndim} (expected 0 to {MAX_NDIM})"
        ))),
    }
}

/// Checks a versioned tensor's version: major 1 (the header's rule: another
/// major version has another layout; its deleter is all that may be used).
pub(crate) fn check_version(version: DLPackVersion) -> Result<()> {
    if version.major != super::ffi::DLPACK_MAJOR_VERSION {
        return Err(Error::Buffer(format!(
            "from_dlpack: the tensor is DLPack {}.{}; Cuprum reads DLPack {}.x",
            version.major,
            version.minor,
            super::ffi::DLPACK_MAJOR_VERSION
        )));
    }
    Ok(())
}

/// What a DLPack tensor's `DLTensor` says, copied out of the producer's
/// memory ([`DlpackTensor::info`]): nothing here is checked yet.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TensorInfo {
    /// `data`, as an address.
    pub data: u64,
    /// The device.
    pub device: DLDevice,
    /// The data type.
    pub dtype: DLDataType,
    /// The extents.
    pub shape: Vec<i64>,
    /// The strides in elements; `None` for null strides (C order).
    pub strides: Option<Vec<i64>>,
    /// Bytes from `data` to element `[0, 0, ...]`.
    pub byte_offset: u64,
}

/// An import, checked: the memory the elements span and the layout in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ImportPlan {
    pub(crate) device: ImportDevice,
    pub(crate) dtype: DType,
    /// The address of the lowest byte an element occupies (of element
    /// `[0, 0, ...]` for an empty tensor).
    pub(crate) base: u64,
    /// Bytes from `base` to the end of the highest element.
    pub(crate) size: usize,
    /// The elements' layout, its offset from `base`.
    pub(crate) layout: Layout,
}

/// Checks everything an import can check without a device: the device
/// kind, the dtype, every extent and stride (negative, zero, overflowing),
/// the span of the elements in the address space, null data, alignment.
pub(crate) fn plan_import(info: &TensorInfo) -> Result<ImportPlan> {
    let device = import_device(info.device)?;
    let dtype = dtype_from_dlpack(info.dtype)?;
    let itemsize = dtype.itemsize();
    let ndim = check_ndim(i32::try_from(info.shape.len()).unwrap_or(i32::MAX))?;
    let mut shape = Vec::with_capacity(ndim);
    for (axis, &d) in info.shape.iter().enumerate() {
        shape.push(usize::try_from(d).map_err(|_| {
            Error::Buffer(format!(
                "from_dlpack: the tensor's extent {d} in axis {axis} is negative"
            ))
        })?);
    }
    // Nonzero extents times the item size stay at most isize::MAX bytes
    // (NumPy's "array is too big"), as every array's: nbytes then cannot
    // overflow, whatever the strides (a zero stride spans little).
    let size = layout::checked_size(&shape, itemsize)?;
    let strides: Vec<isize> = match &info.strides {
        None => layout::c_strides(&shape, itemsize)?,
        Some(s) => {
            if s.len() != ndim {
                return Err(Error::Buffer(format!(
                    "from_dlpack: {} strides for {ndim} dimensions",
                    s.len()
                )));
            }
            let mut out = Vec::with_capacity(ndim);
            for (axis, (&st, &d)) in s.iter().zip(&shape).enumerate() {
                let bytes = st
                    .checked_mul(itemsize as i64)
                    .and_then(|b| isize::try_from(b).ok());
                out.push(match bytes {
                    Some(b) => b,
                    // A stride that is never stepped (extent 0 or 1, or an
                    // empty tensor) addresses nothing: any value will do.
                    None if d <= 1 || size == 0 => 0,
                    None => {
                        return Err(Error::Buffer(format!(
                            "from_dlpack: the tensor's stride {st} (elements of {itemsize} \
                             bytes) in axis {axis} overflows the address space"
                        )));
                    }
                });
            }
            out
        }
    };
    let first = info.data.checked_add(info.byte_offset).ok_or_else(|| {
        Error::Buffer(format!(
            "from_dlpack: data {:#x} + byte_offset {} overflows the address space",
            info.data, info.byte_offset
        ))
    })?;
    if size == 0 {
        return Ok(ImportPlan {
            device,
            dtype,
            base: first,
            size: 0,
            layout: Layout::try_new(shape, strides, 0)?,
        });
    }
    if info.data == 0 {
        return Err(Error::Buffer(format!(
            "from_dlpack: the tensor's data is null but it has {size} elements"
        )));
    }
    if first % itemsize as u64 != 0 {
        return Err(Error::Buffer(format!(
            "from_dlpack: element [0, ...] at {first:#x} is not aligned to its {itemsize}-byte \
             {dtype} elements"
        )));
    }
    let (low, high) = layout::byte_extent(&shape, &strides, itemsize).map_err(|_| {
        Error::Buffer(format!(
            "from_dlpack: the tensor's elements (shape {:?}, strides {:?}) span more than the \
             address space",
            info.shape, info.strides
        ))
    })?;
    let span_err = || {
        Error::Buffer(format!(
            "from_dlpack: the tensor's elements reach outside the address space (element [0, \
             ...] at {first:#x}, from {low} to {high} bytes around it)"
        ))
    };
    let base = first.checked_add_signed(low as i64).ok_or_else(span_err)?;
    let bytes = (high - low) as u64; // byte_extent: high - low fits isize
    base.checked_add(bytes).ok_or_else(span_err)?;
    Ok(ImportPlan {
        device,
        dtype,
        base,
        size: bytes as usize,
        layout: Layout::try_new(shape, strides, -low)?,
    })
}

/// The fields of an exported `DLTensor`, from an array.
pub(crate) struct ExportParts {
    /// Holds the memory until the consumer's deleter runs.
    pub(crate) array: Array,
    pub(crate) data: u64,
    pub(crate) device: DLDevice,
    pub(crate) dtype: DLDataType,
    pub(crate) shape: Vec<i64>,
    /// In elements.
    pub(crate) strides: Vec<i64>,
    /// A consumer's own stream (not one of Cuprum's defaults), fenced when
    /// the consumer's deleter runs rather than kept on the memory: the
    /// consumer may destroy it once it is done with the tensor.
    pub(crate) consumer: Option<Stream>,
}

/// The `DLTensor` fields of `a`: `data` is element `[0, ...]`'s address and
/// `byte_offset` 0 (what CuPy and PyTorch send; the header notes that
/// consumers do not rely on `data`'s alignment), strides in elements.
pub(crate) fn export_parts(a: &Array) -> Result<ExportParts> {
    let itemsize = a.itemsize() as isize;
    let shape: Vec<i64> = a
        .shape()
        .iter()
        .map(|&d| i64::try_from(d).map_err(|_| Error::TooBig))
        .collect::<Result<_>>()?;
    let c = layout::c_strides(a.shape(), a.itemsize())?;
    let mut strides = Vec::with_capacity(a.ndim());
    for (axis, ((&s, &d), &cs)) in a.strides().iter().zip(a.shape()).zip(&c).enumerate() {
        strides.push(if s % itemsize == 0 {
            (s / itemsize) as i64
        } else if d <= 1 || a.size() == 0 {
            // Never stepped: C order's stride says the same.
            (cs / itemsize) as i64
        } else {
            return Err(Error::Buffer(format!(
                "to_dlpack: the stride of axis {axis} is {s} bytes, not a whole number of \
                 {itemsize}-byte {} elements (DLPack counts strides in elements)",
                a.dtype()
            )));
        });
    }
    i32::try_from(a.ndim()).map_err(|_| {
        Error::Buffer(format!(
            "to_dlpack: {} dimensions do not fit DLPack's int32 ndim",
            a.ndim()
        ))
    })?;
    Ok(ExportParts {
        array: a.clone(),
        data: a.data_ptr().raw(),
        device: a.dlpack_device(),
        dtype: dlpack_dtype(a.dtype()),
        shape,
        strides,
        consumer: None,
    })
}

impl Array {
    /// The array's DLPack device, `(kDLCUDA, ordinal)`, or
    /// `(kDLCUDAManaged, 0)` for memory from
    /// [`malloc_managed`](gpu_runtime::memory::malloc_managed) (dlpack.h
    /// sets managed memory's id to 0; the Python array API's
    /// `__dlpack_device__`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ffi::device_type};
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = Array::zeros([3], DType::Float32)?.dlpack_device();
    /// assert_eq!(d.device_type, device_type::CUDA);
    /// # Ok(()) }
    /// ```
    pub fn dlpack_device(&self) -> DLDevice {
        // Managed memory Cuprum allocated says so (kDLCUDAManaged), as
        // CuPy's exports of managed memory do; consumers may then read it
        // from the host too.
        if self.memory().allocated_managed() {
            DLDevice {
                device_type: device_type::CUDA_MANAGED,
                device_id: 0,
            }
        } else {
            DLDevice {
                device_type: device_type::CUDA,
                device_id: self.device().ordinal(),
            }
        }
    }

    /// Exports the array as a versioned DLPack tensor (DLPack 1.x,
    /// `DLManagedTensorVersioned`) for a consumer on the legacy default
    /// stream, without the read-only flag: [`Array::to_dlpack_with`] with
    /// the default options. Zero-copy: the tensor holds the array's memory
    /// until its deleter runs.
    ///
    /// ```no_run
    /// use gpu_array::{Array, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?.reshape((2, 3))?;
    /// let t = x.to_dlpack()?;                 // cx.toDlpack()
    /// assert_eq!(t.info()?.shape, [2, 3]);
    /// let y = Array::from_dlpack(t)?;         // cupy.fromDlpack(t)
    /// assert_eq!(y.data_ptr(), x.data_ptr()); // no copy
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::to_dlpack_with`].
    pub fn to_dlpack(&self) -> Result<DlpackTensor> {
        self.to_dlpack_with(&ToDlpackOptions::default())
    }

    /// Exports the array as a versioned DLPack tensor for a consumer on
    /// `options.stream`, read-only if `options.read_only` (the Python array
    /// API's `__dlpack__`). The consumer's stream waits for the work queued
    /// so far on the array's stream (the calling thread's current stream of
    /// its device) through an event, and is recorded on the array's memory
    /// so that the memory outlives the consumer's queued work.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::interop::{ConsumerStream, ToDlpackOptions};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([1024], DType::Float32)?;
    /// let theirs = Stream::new()?;
    /// let opts = ToDlpackOptions::default().stream(ConsumerStream::Stream(theirs)).read_only(true);
    /// let t = x.to_dlpack_with(&opts)?;
    /// assert!(t.is_read_only());
    /// let raw = t.into_raw(); // a `DLManagedTensorVersioned*` for C or Python
    /// # let _ = raw;
    /// # Ok(()) }
    /// ```
    ///
    /// With `options.copy` or `options.device` the export may be a copy
    /// (for another device: [`Array::to_device`]), flagged
    /// `DLPACK_FLAG_BITMASK_IS_COPIED`; the handshake then orders the
    /// consumer after the copy.
    ///
    /// # Errors
    /// [`Error::Buffer`] when a stride is not a whole number of elements,
    /// the consumer's stream is not on the exported data's device, or
    /// `copy` is `Some(false)` for another device; a driver error of the
    /// handshake; the copy's allocation.
    pub fn to_dlpack_with(&self, options: &ToDlpackOptions) -> Result<DlpackTensor> {
        let target = options.device.unwrap_or(self.device());
        let other_device = target != self.device();
        let copy = match options.copy {
            Some(false) if other_device => {
                return Err(Error::Buffer(format!(
                    "__dlpack__: copy=False, but the consumer wants device {} and the array is \
                     on device {}",
                    target.ordinal(),
                    self.device().ordinal()
                )));
            }
            Some(c) => c || other_device,
            None => other_device,
        };
        let src = match (copy, other_device) {
            (false, _) => self.clone(),
            (true, true) => self.to_device(target)?,
            (true, false) => self.copy()?,
        };
        let mut parts = export_parts(&src)?;
        parts.consumer = src.handshake(&options.stream)?;
        let mut flags = 0;
        if options.read_only {
            flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
        }
        if copy {
            flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
        }
        Ok(raw::export_versioned(parts, flags))
    }

    /// Exports the array as a legacy `DLManagedTensor` (DLPack before 0.8,
    /// no version, no flags) for a consumer on `stream`, as
    /// [`Array::to_dlpack_with`] does.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ConsumerStream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 2], DType::Complex64)?;
    /// let t = x.to_dlpack_legacy(&ConsumerStream::Legacy)?;
    /// let y = Array::from_dlpack_legacy(t)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::to_dlpack_with`].
    pub fn to_dlpack_legacy(&self, stream: &ConsumerStream) -> Result<LegacyDlpackTensor> {
        let mut parts = export_parts(self)?;
        parts.consumer = self.handshake(stream)?;
        Ok(raw::export_legacy(parts))
    }

    /// The stream handshake: the consumer's stream waits for an event at
    /// the current end of the array's stream, when they differ. Work the
    /// consumer queues must end before the memory is reused: Cuprum's
    /// default streams are recorded on the memory; a consumer's own
    /// stream is returned, for the deleter to fence (the export's drop),
    /// since its owner may destroy it once the tensor is released.
    fn handshake(&self, consumer: &ConsumerStream) -> Result<Option<Stream>> {
        let device = self.device();
        let Some(stream) = consumer.resolve(device)? else {
            return Ok(None);
        };
        let producer = self.stream();
        if stream == producer {
            return Ok(None);
        }
        let event = Event::new_on(device, EventOptions::default().timing(false))?;
        event.record(&producer)?;
        stream.wait_event(&event)?;
        if matches!(consumer, ConsumerStream::Stream(_)) {
            Ok(Some(stream))
        } else {
            self.memory().record_stream(&stream);
            Ok(None)
        }
    }

    /// Imports a versioned DLPack tensor without a copy (CuPy's
    /// `cupy.fromDlpack`, the consuming half of `cupy.from_dlpack`): the
    /// array's memory is the producer's, and the producer's deleter runs
    /// when the last array (view) of it drops. A read-only tensor is
    /// refused ([`Array::from_dlpack_with`] chooses otherwise).
    ///
    /// The producer must have been asked for the calling thread's current
    /// stream of the tensor's device ([`ConsumerStream::current_on`];
    /// [`super::from_dlpack`] asks it so). When the array drops, the drop
    /// waits for the work queued on that stream before it calls the
    /// deleter (a wait on that stream, never the device), since the
    /// producer may reuse the memory as soon as its deleter returns.
    ///
    /// Everything is checked before the data is trusted: the version
    /// (major 1), the device kind (`kDLCUDA`, `kDLCUDAManaged`) and id,
    /// `ndim` (at most [`MAX_NDIM`]), the dtype (one lane, a code and
    /// width Cuprum has), extents, strides (in elements: any sign, zero
    /// allowed, null for C order) and their byte arithmetic, null data,
    /// the first element's alignment. On an error the tensor's deleter
    /// runs, as the standard asks.
    ///
    /// ```no_run
    /// use gpu_array::{Array, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(10)?;
    /// let y = Array::from_dlpack(x.to_dlpack()?)?;
    /// assert!(gpu_array::logic::array_equal(&x, &y, false)?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Buffer`] naming what the tensor has that Cuprum cannot
    /// take; [`Error::TooBig`] for a shape whose size overflows.
    pub fn from_dlpack(tensor: DlpackTensor) -> Result<Array> {
        Array::from_dlpack_with(tensor, &FromDlpackOptions::default())
    }

    /// [`Array::from_dlpack`] with a choice for read-only tensors.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::interop::{FromDlpackOptions, ReadOnlyImport, ToDlpackOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([4], DType::Int32)?;
    /// let t = x.to_dlpack_with(&ToDlpackOptions::default().read_only(true))?;
    /// let y = Array::from_dlpack_with(t, &FromDlpackOptions::default().read_only(ReadOnlyImport::Copy))?;
    /// assert_ne!(y.data_ptr(), x.data_ptr()); // a copy
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_dlpack`]; with [`ReadOnlyImport::Copy`], the
    /// copy's allocation.
    pub fn from_dlpack_with(tensor: DlpackTensor, options: &FromDlpackOptions) -> Result<Array> {
        import(tensor, options)
    }

    /// Imports a legacy `DLManagedTensor` (DLPack before 0.8) without a
    /// copy, as [`Array::from_dlpack`] does (a legacy tensor has no flags,
    /// so it is never read-only).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, interop::ConsumerStream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([3], DType::Bool)?;
    /// let y = Array::from_dlpack_legacy(x.to_dlpack_legacy(&ConsumerStream::Legacy)?)?;
    /// assert_eq!(y.data_ptr(), x.data_ptr());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_dlpack`].
    pub fn from_dlpack_legacy(tensor: LegacyDlpackTensor) -> Result<Array> {
        import(tensor, &FromDlpackOptions::default())
    }
}

/// The import: checks, then the producer's memory as an array.
fn import<M: ManagedAbi>(tensor: ManagedTensor<M>, options: &FromDlpackOptions) -> Result<Array> {
    if let Some(v) = tensor.version() {
        check_version(v)?;
    }
    let plan = plan_import(&tensor.info()?)?;
    let read_only = tensor.is_read_only();
    if read_only && options.read_only == ReadOnlyImport::Refuse {
        return Err(Error::Buffer(
            "from_dlpack: the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and Cuprum's \
             arrays cannot refuse writes; pass ReadOnlyImport::Copy or ReadOnlyImport::View"
                .into(),
        ));
    }
    let device = match plan.device {
        ImportDevice::Ordinal(o) => Device::new(o).map_err(|e| {
            Error::Buffer(format!(
                "from_dlpack: the tensor is on CUDA device {o}: {e}"
            ))
        })?,
        ImportDevice::Current => Device::current()?,
    };
    let stream = Stream::current_on(device);
    let mem = raw::into_memory(tensor, plan.base, plan.size, device);
    // The drop of the memory waits for this stream's work, then runs the
    // producer's deleter.
    mem.record_stream(&stream);
    let view = Array::from_parts(Arc::new(mem), plan.layout, plan.dtype, false);
    if read_only && options.read_only == ReadOnlyImport::Copy {
        return view.copy();
    }
    Ok(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(shape: &[i64], strides: Option<&[i64]>, dtype: DType) -> TensorInfo {
        TensorInfo {
            data: 0x7f00_0000_0000,
            device: DLDevice {
                device_type: device_type::CUDA,
                device_id: 0,
            },
            dtype: dlpack_dtype(dtype),
            shape: shape.to_vec(),
            strides: strides.map(<[i64]>::to_vec),
            byte_offset: 0,
        }
    }

    fn buffer_error(r: Result<ImportPlan>) -> String {
        match r {
            Err(Error::Buffer(m)) => m,
            other => panic!("expected a BufferError, got {other:?}"),
        }
    }

    #[test]
    fn every_dtype_maps_both_ways() {
        for dt in DType::ALL {
            let t = dlpack_dtype(dt);
            assert_eq!(t.lanes, 1);
            assert_eq!(t.bits as usize, dt.itemsize() * 8, "{dt}");
            assert_eq!(dtype_from_dlpack(t).unwrap(), dt);
        }
        // The standard's own table.
        let pairs = [
            (DType::Bool, (type_code::BOOL, 8)),
            (DType::Int8, (type_code::INT, 8)),
            (DType::Int64, (type_code::INT, 64)),
            (DType::UInt16, (type_code::UINT, 16)),
            (DType::Float16, (type_code::FLOAT, 16)),
            (DType::BFloat16, (type_code::BFLOAT, 16)),
            (DType::Float64, (type_code::FLOAT, 64)),
            (DType::Complex64, (type_code::COMPLEX, 64)),
            (DType::Complex128, (type_code::COMPLEX, 128)),
        ];
        for (dt, (code, bits)) in pairs {
            let t = dlpack_dtype(dt);
            assert_eq!((t.code, t.bits), (code, bits), "{dt}");
        }
    }

    #[test]
    fn foreign_dtypes_are_refused_by_name() {
        let t = |code, bits, lanes| DLDataType { code, bits, lanes };
        let msg = |t| dtype_from_dlpack(t).unwrap_err().to_string();
        assert!(msg(t(type_code::FLOAT, 32, 2)).contains("2 lanes"));
        assert!(msg(t(type_code::FLOAT, 8, 1)).contains("kDLFloat of 8 bits"));
        assert!(msg(t(10, 8, 1)).contains("kDLFloat8_e4m3fn"));
        assert!(msg(t(type_code::OPAQUE_HANDLE, 64, 1)).contains("kDLOpaqueHandle"));
        assert!(msg(t(type_code::BOOL, 1, 1)).contains("kDLBool of 1 bits"));
        assert!(msg(t(type_code::COMPLEX, 32, 1)).contains("kDLComplex"));
        assert!(msg(t(99, 32, 1)).contains("type code 99"));
        assert!(matches!(
            dtype_from_dlpack(t(type_code::INT, 32, 0)),
            Err(Error::Buffer(_))
        ));
    }

    #[test]
    fn devices_other_than_cuda_are_refused_by_name() {
        let dev = |device_type, device_id| DLDevice {
            device_type,
            device_id,
        };
        assert_eq!(
            import_device(dev(device_type::CUDA, 1)).unwrap(),
            ImportDevice::Ordinal(1)
        );
        assert_eq!(
            import_device(dev(device_type::CUDA_MANAGED, 0)).unwrap(),
            ImportDevice::Current
        );
        for (ty, name) in [
            (device_type::CPU, "kDLCPU"),
            (device_type::CUDA_HOST, "kDLCUDAHost"),
            (device_type::ROCM, "kDLROCM"),
            (42, "device type 42"),
        ] {
            let e = import_device(dev(ty, 0)).unwrap_err().to_string();
            assert!(e.contains(name) && e.contains("kDLCUDA"), "{e}");
        }
        let e = import_device(dev(device_type::CUDA, -1)).unwrap_err();
        assert!(e.to_string().contains("device id is -1"), "{e}");
    }

    #[test]
    fn ndim_and_version_checks() {
        assert_eq!(check_ndim(0).unwrap(), 0);
        assert_eq!(check_ndim(64).unwrap(), 64);
        for bad in [-1, 65, i32::MAX, i32::MIN] {
            assert!(matches!(check_ndim(bad), Err(Error::Buffer(_))), "{bad}");
        }
        assert!(check_version(DLPackVersion { major: 1, minor: 0 }).is_ok());
        assert!(check_version(DLPackVersion { major: 1, minor: 9 }).is_ok());
        for major in [0, 2, u32::MAX] {
            let e = check_version(DLPackVersion { major, minor: 0 }).unwrap_err();
            assert!(e.to_string().contains(&format!("DLPack {major}.0")), "{e}");
        }
    }

    #[test]
    fn plans_contiguous_strided_and_reversed_tensors() {
        // Null strides: C order.
        let p = plan_import(&info(&[2, 3], None, DType::Float32)).unwrap();
        assert_eq!(p.layout.strides(), [12, 4]);
        assert_eq!(
            (p.base, p.size, p.layout.offset()),
            (0x7f00_0000_0000, 24, 0)
        );
        // Fortran order, in elements.
        let p = plan_import(&info(&[2, 3], Some(&[1, 2]), DType::Float64)).unwrap();
        assert_eq!(p.layout.strides(), [8, 16]);
        assert_eq!(p.size, 48);
        // A reversed axis: the memory starts before element [0].
        let p = plan_import(&info(&[4], Some(&[-1]), DType::Int16)).unwrap();
        assert_eq!(p.layout.strides(), [-2]);
        assert_eq!(p.base, 0x7f00_0000_0000 - 6);
        assert_eq!((p.size, p.layout.offset()), (8, 6));
        assert!(p.layout.fits(p.size, 2));
        // A broadcast axis (stride 0) and a byte offset.
        let mut i = info(&[3, 2], Some(&[0, 1]), DType::Complex128);
        i.byte_offset = 32;
        let p = plan_import(&i).unwrap();
        assert_eq!(p.layout.strides(), [0, 16]);
        assert_eq!((p.base, p.size), (0x7f00_0000_0020, 32));
        // 0-d.
        let p = plan_import(&info(&[], None, DType::Bool)).unwrap();
        assert_eq!((p.layout.ndim(), p.size), (0, 1));
    }

    #[test]
    fn plans_empty_tensors_with_any_data() {
        let mut i = info(&[0, 5], Some(&[i64::MAX, i64::MIN]), DType::Float64);
        i.data = 0;
        let p = plan_import(&i).unwrap();
        assert_eq!((p.size, p.layout.size(), p.base), (0, 0, 0));
        let p = plan_import(&info(&[3, 0], None, DType::Int8)).unwrap();
        assert_eq!(p.layout.shape(), [3, 0]);
    }

    #[test]
    fn refuses_hostile_tensors() {
        let mut i = info(&[4], None, DType::Float32);
        i.data = 0;
        assert!(buffer_error(plan_import(&i)).contains("null"));
        let mut i = info(&[4], None, DType::Float32);
        i.data = 0x1002;
        assert!(buffer_error(plan_import(&i)).contains("not aligned"));
        let mut i = info(&[4], None, DType::Float32);
        i.byte_offset = u64::MAX;
        assert!(buffer_error(plan_import(&i)).contains("overflows"));
        assert!(buffer_error(plan_import(&info(&[2, -3], None, DType::Int8))).contains("negative"));
        assert!(
            buffer_error(plan_import(&info(&[2, 3], Some(&[1]), DType::Int8)))
                .contains("1 strides for 2 dimensions")
        );
        // A stride whose bytes overflow.
        let e = buffer_error(plan_import(&info(
            &[2],
            Some(&[i64::MAX / 2]),
            DType::Int64,
        )));
        assert!(e.contains("overflows"), "{e}");
        // Strides whose span overflows isize.
        let e = buffer_error(plan_import(&info(
            &[3, 3],
            Some(&[i64::MAX / 3, i64::MAX / 3]),
            DType::Int8,
        )));
        assert!(e.contains("span"), "{e}");
        // Elements before address 0.
        let e = buffer_error(plan_import(&info(&[1 << 50], Some(&[-1]), DType::UInt8)));
        assert!(e.contains("outside the address space"), "{e}");
        // Elements past the top of the address space.
        let mut i = info(&[16], None, DType::UInt8);
        i.data = u64::MAX - 7;
        assert!(buffer_error(plan_import(&i)).contains("outside the address space"));
        // A shape whose size overflows: NumPy's words.
        let e = plan_import(&info(&[1 << 62, 1 << 62], None, DType::Int8)).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{e}");
        // Elements that fit isize::MAX but whose bytes do not, behind a
        // zero stride that spans one element.
        let e = plan_import(&info(&[1 << 61], Some(&[0]), DType::Float64)).unwrap_err();
        assert!(matches!(e, Error::TooBig), "{e}");
        // Too many dimensions.
        let e = buffer_error(plan_import(&info(&[1; 65], None, DType::Int8)));
        assert!(e.contains("ndim = 65"), "{e}");
        // Stride overflow on an axis of extent 1 addresses nothing.
        assert!(plan_import(&info(&[1, 4], Some(&[i64::MAX, 1]), DType::Float64)).is_ok());
        // Neither device nor dtype errors wait for the data.
        let mut i = info(&[4], None, DType::Float32);
        i.device.device_type = device_type::CPU;
        assert!(buffer_error(plan_import(&i)).contains("kDLCPU"));
    }

    #[test]
    fn default_options_are_the_standards() {
        let o = ToDlpackOptions::default();
        assert!(matches!(o.stream, ConsumerStream::Legacy)); // stream=None on CUDA
        assert!(!o.read_only);
        assert_eq!(o.copy, None);
        assert!(o.device.is_none());
        assert_eq!(
            FromDlpackOptions::default().read_only,
            ReadOnlyImport::Refuse
        );
    }

    #[test]
    fn array_api_stream_values() {
        for (v, want) in [
            (None, Some(1)),
            (Some(1), Some(1)),
            (Some(2), Some(2)),
            (Some(-1), Some(-1)),
        ] {
            let s = ConsumerStream::from_array_api(v).unwrap();
            assert_eq!(s.to_array_api().unwrap(), want, "{v:?}");
        }
        for bad in [0, -2, i64::MIN, 0x7f00_1234] {
            let e = ConsumerStream::from_array_api(Some(bad)).unwrap_err();
            assert!(matches!(e, Error::Buffer(_)), "{bad}: {e}");
        }
    }
    mod fuzz {
        use super::*;
        use proptest::prelude::*;

        /// Extents and strides from tame to extreme, any sign.
        fn dim() -> impl Strategy<Value = (i64, i64)> {
            let extent = prop_oneof![0i64..6, Just(1i64 << 40), Just(i64::MAX), Just(-1i64)];
            let stride = prop_oneof![-8i64..8, Just(1i64 << 60), Just(i64::MIN), Just(i64::MAX)];
            (extent, stride)
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(1024))]

            /// `Ok` or `Err`, never a panic; an `Ok` plan's layout lies in
            /// its memory, with element `[0, ...]` at `data + byte_offset`.
            #[test]
            fn plans_hold_their_elements(
                dims in proptest::collection::vec(dim(), 0..5),
                null_strides in any::<bool>(),
                dt in 0..DType::ALL.len(),
                data in prop_oneof![Just(0u64), Just(1u64 << 40), Just(u64::MAX - 64), any::<u64>()],
                byte_offset in prop_oneof![Just(0u64), 0u64..64, any::<u64>()],
            ) {
                let dtype = DType::ALL[dt];
                let i = TensorInfo {
                    data,
                    device: DLDevice { device_type: device_type::CUDA, device_id: 0 },
                    dtype: dlpack_dtype(dtype),
                    shape: dims.iter().map(|d| d.0).collect(),
                    strides: (!null_strides).then(|| dims.iter().map(|d| d.1).collect()),
                    byte_offset,
                };
                if let Ok(p) = plan_import(&i) {
                    prop_assert!(p.layout.fits(p.size, dtype.itemsize()));
                    if p.layout.size() > 0 {
                        let first = p.base.checked_add_signed(p.layout.offset() as i64);
                        prop_assert_eq!(first, Some(data + byte_offset));
                        prop_assert!(p.base.checked_add(p.size as u64).is_some());
                    }
                }
            }
        }
    }
}
