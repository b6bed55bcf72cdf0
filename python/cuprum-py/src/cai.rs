//! `__cuda_array_interface__` (version 3) both ways. Export describes a
//! Cuprum array (the consumer keeps the Python object, and so the array,
//! alive); import makes a DLPack proxy of the described memory that holds
//! the Python object, and imports it with gpu-array's checks.

use std::str::FromStr;

use gpu_array::interop::ffi::{DLDevice, DLPACK_FLAG_BITMASK_READ_ONLY, DLTensor, device_type};
use gpu_array::interop::{ConsumerStream, FromDlpackOptions, ReadOnlyImport, dlpack_dtype};
use gpu_array::{Array, DType};
use gpu_runtime::{Device, Event, EventOptions, Stream};
use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::convert::OrPyErr;
use crate::proxy::{self, PyOwner};

/// The interface's version this module writes (and the newest it reads).
const VERSION: i64 = 3;

/// `x.__cuda_array_interface__` of a Cuprum array: shape, typestr, data
/// `(pointer, read-only)` (pointer 0 for an empty array, as the protocol
/// asks), strides in bytes (`None` when C-contiguous), version 3, and the
/// stream the array's work is queued on (the calling thread's current
/// stream of its device: 1 for the legacy default stream, 2 for the
/// per-thread one, else its handle), which the consumer synchronizes with.
pub(crate) fn export<'py>(py: Python<'py>, a: &Array) -> PyResult<Bound<'py, PyDict>> {
    if a.dtype() == DType::BFloat16 {
        return Err(PyTypeError::new_err(
            "__cuda_array_interface__: bfloat16 has no type string (NumPy has no such type); \
             use __dlpack__",
        ));
    }
    let typestr = a.dtype().str();
    let d = PyDict::new(py);
    d.set_item("shape", PyTuple::new(py, a.shape())?)?;
    d.set_item("typestr", &typestr)?;
    d.set_item("descr", vec![("", typestr.as_str())])?;
    let ptr = if a.size() == 0 { 0 } else { a.data_ptr().raw() };
    d.set_item("data", (ptr, false))?;
    if a.is_c_contiguous() {
        d.set_item("strides", py.None())?;
    } else {
        // Cuprum's strides are in bytes, as the interface's.
        d.set_item("strides", PyTuple::new(py, a.strides())?)?;
    }
    d.set_item("version", VERSION)?;
    let stream = ConsumerStream::Stream(a.stream()).to_array_api().py()?;
    d.set_item("stream", stream)?;
    Ok(d)
}

/// A required entry of the interface.
fn entry<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    d.get_item(key)?.ok_or_else(|| {
        PyValueError::new_err(format!("__cuda_array_interface__ has no {key:?} entry"))
    })
}

/// An optional entry; `None` when absent or `None`.
fn optional<'py>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(d.get_item(key)?.filter(|v| !v.is_none()))
}

/// Makes the current stream of `device` wait for the producer's `stream`
/// (the interface's value: 1, 2 or a handle) through an event, unless they
/// are the same stream. Never a device-wide synchronization.
fn wait_for_producer(stream: i64, device: Device) -> PyResult<()> {
    if stream == 0 {
        return Err(PyValueError::new_err(
            "__cuda_array_interface__: stream 0 is disallowed (ambiguous); the producer must \
             send 1 for the legacy default stream or 2 for the per-thread one",
        ));
    }
    if stream < 0 {
        return Err(PyValueError::new_err(format!(
            "__cuda_array_interface__: stream {stream} is not a CUDA stream"
        )));
    }
    let consumer = Stream::current_on(device);
    let ours = ConsumerStream::Stream(consumer.clone())
        .to_array_api()
        .py()?;
    if ours == Some(stream) {
        return Ok(());
    }
    // SAFETY: the interface's producer vouches that `stream` is a valid
    // stream of the data's device at the point of consumption; it is used
    // only here, to record one event, before this function returns.
    let producer = unsafe { Stream::from_raw(stream as usize as _, device) };
    let event = Event::new_on(device, EventOptions::default().timing(false)).py()?;
    event.record(&producer).py()?;
    consumer.wait_event(&event).py()?;
    Ok(())
}

/// `from_cuda_array_interface(obj)`: imports the memory `obj`'s interface
/// describes without a copy; the array holds `obj` until Cuprum releases
/// the memory. The data is taken to be on the current device (the
/// interface does not say which; CuPy and PyTorch put it on theirs).
pub(crate) fn import(obj: &Bound<'_, PyAny>, read_only: ReadOnlyImport) -> PyResult<Array> {
    let iface = obj.getattr("__cuda_array_interface__")?;
    let d = iface
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("__cuda_array_interface__ is not a dict"))?;
    let version: i64 = entry(d, "version")?.extract()?;
    if !(0..=VERSION).contains(&version) {
        return Err(PyValueError::new_err(format!(
            "__cuda_array_interface__ version {version} is not supported (0 to {VERSION})"
        )));
    }
    if optional(d, "mask")?.is_some() {
        return Err(PyBufferError::new_err(
            "__cuda_array_interface__: masked arrays are not supported",
        ));
    }
    let shape: Vec<i64> = entry(d, "shape")?.extract()?;
    let typestr: String = entry(d, "typestr")?.extract()?;
    let dtype = DType::from_str(&typestr).py()?;
    let (ptr, readonly): (u64, bool) = entry(d, "data")?.extract()?;
    let itemsize = dtype.itemsize() as i64;
    let strides = match optional(d, "strides")? {
        None => None,
        Some(s) => {
            let bytes: Vec<i64> = s.extract()?;
            if bytes.len() != shape.len() {
                return Err(PyValueError::new_err(format!(
                    "__cuda_array_interface__: {} strides for {} dimensions",
                    bytes.len(),
                    shape.len()
                )));
            }
            let mut elems = Vec::with_capacity(bytes.len());
            for b in bytes {
                if b % itemsize != 0 {
                    return Err(PyBufferError::new_err(format!(
                        "__cuda_array_interface__: the stride of {b} bytes is not a whole \
                         number of {itemsize}-byte elements"
                    )));
                }
                elems.push(b / itemsize);
            }
            Some(elems)
        }
    };
    let device = Device::current().py()?;
    if version >= 3
        && let Some(s) = optional(d, "stream")?
    {
        wait_for_producer(s.extract()?, device)?;
    }
    let ndim = i32::try_from(shape.len())
        .map_err(|_| PyValueError::new_err("__cuda_array_interface__: too many dimensions"))?;
    let tensor = DLTensor {
        data: ptr as usize as *mut std::ffi::c_void,
        device: DLDevice {
            device_type: device_type::CUDA,
            device_id: device.ordinal(),
        },
        ndim,
        dtype: dlpack_dtype(dtype),
        // Filled in by the proxy from `shape` and `strides`.
        shape: std::ptr::null_mut(),
        strides: std::ptr::null_mut(),
        byte_offset: 0,
    };
    let flags = if readonly {
        DLPACK_FLAG_BITMASK_READ_ONLY
    } else {
        0
    };
    let owner = PyOwner::new(obj.clone().unbind());
    let t = proxy::from_parts(tensor, flags, shape, strides, owner)?;
    Array::from_dlpack_with(t, &FromDlpackOptions::default().read_only(read_only)).py()
}
