//! DLPack tensors in Python capsules, as the Python array API standard
//! says: `__dlpack__` returns a capsule named `"dltensor_versioned"` (or
//! `"dltensor"` for a consumer that asked for no `max_version`); the
//! consumer renames it `"used_dltensor(_versioned)"` when it takes the
//! tensor, and the capsule's destructor calls the deleter only if nobody
//! did. The tensors themselves are gpu-array's.

use std::ffi::{CStr, c_void};

use gpu_array::Array;
use gpu_array::interop::ffi::{DLManagedTensor, DLManagedTensorVersioned, device_type};
use gpu_array::interop::{
    ConsumerStream, DlpackTensor, FromDlpackOptions, LegacyDlpackTensor, ReadOnlyImport,
};
use gpu_runtime::Device;
use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::convert::OrPyErr;
use crate::proxy;

const VERSIONED: &CStr = c"dltensor_versioned";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_LEGACY: &CStr = c"used_dltensor";

/// The destructor of a `"dltensor_versioned"` capsule: deletes the tensor
/// unless a consumer took it (and renamed the capsule).
unsafe extern "C" fn destroy_versioned(capsule: *mut ffi::PyObject) {
    let delete = |p: *mut c_void| {
        // SAFETY: a capsule so named holds what `DlpackTensor::into_raw`
        // gave (`export`), owned by the capsule since no one took it.
        let t = unsafe { DlpackTensor::from_raw(p.cast::<DLManagedTensorVersioned>()) };
        drop(t);
    };
    // SAFETY: Python calls a capsule's destructor with the capsule.
    unsafe { destroy(capsule, VERSIONED, delete) }
}

/// The destructor of a `"dltensor"` capsule, likewise.
unsafe extern "C" fn destroy_legacy(capsule: *mut ffi::PyObject) {
    let delete = |p: *mut c_void| {
        // SAFETY: as in `destroy_versioned`, for the legacy struct.
        let t = unsafe { LegacyDlpackTensor::from_raw(p.cast::<DLManagedTensor>()) };
        drop(t);
    };
    // SAFETY: Python calls a capsule's destructor with the capsule.
    unsafe { destroy(capsule, LEGACY, delete) }
}

/// Runs `delete` on the capsule's pointer if the capsule still has its
/// unconsumed `name`, without disturbing an exception being raised.
///
/// # Safety
/// `capsule` is a live capsule object.
unsafe fn destroy(capsule: *mut ffi::PyObject, name: &CStr, delete: impl FnOnce(*mut c_void)) {
    // SAFETY: `capsule` is live; `PyCapsule_IsValid` sets no exception, and
    // `PyCapsule_GetPointer` with the name just checked sets none either.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, name.as_ptr()) == 1 {
            let p = ffi::PyCapsule_GetPointer(capsule, name.as_ptr());
            if !p.is_null() {
                delete(p);
            }
        }
    }
}

/// A new capsule named `name` holding `ptr`, destroyed by `destructor`;
/// if Python cannot make one, `reclaim` takes `ptr` back (and deletes it).
fn new_capsule<'py>(
    py: Python<'py>,
    ptr: *mut c_void,
    name: &'static CStr,
    destructor: unsafe extern "C" fn(*mut ffi::PyObject),
    reclaim: impl FnOnce(*mut c_void),
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `ptr` is not null (it came from `into_raw`), the name is a
    // static C string, and the destructor matches the pointer's kind.
    let raw = unsafe { ffi::PyCapsule_New(ptr, name.as_ptr(), Some(destructor)) };
    // SAFETY: `PyCapsule_New` returns a new reference, or null with an
    // exception set.
    let capsule = unsafe { Bound::from_owned_ptr_or_err(py, raw) };
    if capsule.is_err() {
        reclaim(ptr);
    }
    capsule
}

/// What `__dlpack__` was asked for.
#[derive(Debug)]
pub(crate) struct ExportRequest {
    /// The array API's `stream`.
    pub stream: Option<i64>,
    /// DLPack 1.x (a `max_version` of major 1 or more) or the legacy struct.
    pub versioned: bool,
    /// The array API's `dl_device`, a CUDA device.
    pub device: Option<Device>,
    /// The array API's `copy`.
    pub copy: Option<bool>,
}

/// The consumer's stream from the array API's `stream` value; a raw handle
/// (above 2) is wrapped as a Cuprum stream of `device`.
pub(crate) fn consumer_stream(stream: Option<i64>, device: Device) -> PyResult<ConsumerStream> {
    match stream {
        Some(h) if h > 2 => {
            // SAFETY: the array API standard has the consumer pass a stream
            // of the array's device that it keeps valid while it uses the
            // data; the export holds it until the tensor's deleter runs
            // (which fences it) and never hands it to the array's memory.
            let s = unsafe { gpu_runtime::Stream::from_raw(h as usize as _, device) };
            Ok(ConsumerStream::Stream(s))
        }
        other => ConsumerStream::from_array_api(other).py(),
    }
}

/// `x.__dlpack__(...)`: a capsule of a versioned or legacy tensor of `a`,
/// after the stream handshake.
pub(crate) fn export<'py>(
    py: Python<'py>,
    a: &Array,
    req: &ExportRequest,
) -> PyResult<Bound<'py, PyAny>> {
    let target = req.device.unwrap_or(a.device());
    let stream = consumer_stream(req.stream, target)?;
    if req.versioned {
        let mut options = gpu_array::interop::ToDlpackOptions::default()
            .stream(stream)
            .copy(req.copy);
        if let Some(d) = req.device {
            options = options.device(d);
        }
        let raw = a.to_dlpack_with(&options).py()?.into_raw();
        return new_capsule(py, raw.cast(), VERSIONED, destroy_versioned, |p| {
            // SAFETY: `p` is `raw`, which no capsule took.
            drop(unsafe { DlpackTensor::from_raw(p.cast::<DLManagedTensorVersioned>()) });
        });
    }
    // The legacy struct has no flags to say "copied": copy as asked, then
    // export the copy.
    let other_device = target != a.device();
    let src = match req.copy {
        Some(false) if other_device => {
            return Err(PyBufferError::new_err(format!(
                "__dlpack__: copy=False, but the consumer wants device {} and the array is on \
                 device {}",
                target.ordinal(),
                a.device().ordinal()
            )));
        }
        _ if other_device => a.to_device(target).py()?,
        Some(true) => a.copy().py()?,
        _ => a.clone(),
    };
    let raw = src.to_dlpack_legacy(&stream).py()?.into_raw();
    new_capsule(py, raw.cast(), LEGACY, destroy_legacy, |p| {
        // SAFETY: `p` is `raw`, which no capsule took.
        drop(unsafe { LegacyDlpackTensor::from_raw(p.cast::<DLManagedTensor>()) });
    })
}

/// A versioned capsule of `a` for a consumer on `stream`, read-only or not.
pub(crate) fn export_read_only<'py>(
    py: Python<'py>,
    a: &Array,
    stream: Option<i64>,
    read_only: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let options = gpu_array::interop::ToDlpackOptions::default()
        .stream(consumer_stream(stream, a.device())?)
        .read_only(read_only);
    let raw = a.to_dlpack_with(&options).py()?.into_raw();
    new_capsule(py, raw.cast(), VERSIONED, destroy_versioned, |p| {
        // SAFETY: `p` is `raw`, which no capsule took.
        drop(unsafe { DlpackTensor::from_raw(p.cast::<DLManagedTensorVersioned>()) });
    })
}

/// Takes the tensor out of a DLPack capsule (renaming it used) and imports
/// it through a counting proxy.
pub(crate) fn import_capsule(
    capsule: &Bound<'_, PyAny>,
    read_only: ReadOnlyImport,
) -> PyResult<Array> {
    let obj = capsule.as_ptr();
    // SAFETY: `obj` is a live object; `PyCapsule_IsValid` accepts any object
    // and sets no exception.
    let versioned = unsafe { ffi::PyCapsule_IsValid(obj, VERSIONED.as_ptr()) } == 1;
    // SAFETY: as above.
    let legacy = !versioned && unsafe { ffi::PyCapsule_IsValid(obj, LEGACY.as_ptr()) } == 1;
    if !versioned && !legacy {
        return Err(PyTypeError::new_err(format!(
            "from_dlpack: expected an unused 'dltensor_versioned' or 'dltensor' capsule, got {}",
            describe(capsule)
        )));
    }
    let (name, used) = if versioned {
        (VERSIONED, USED_VERSIONED)
    } else {
        (LEGACY, USED_LEGACY)
    };
    // SAFETY: the capsule is valid under `name` (checked above).
    let ptr = unsafe { ffi::PyCapsule_GetPointer(obj, name.as_ptr()) };
    if ptr.is_null() {
        return Err(PyErr::fetch(capsule.py()));
    }
    // Consumed from here on: the capsule's destructor must not delete it.
    // SAFETY: a live capsule; the new name is a static C string.
    if unsafe { ffi::PyCapsule_SetName(obj, used.as_ptr()) } != 0 {
        return Err(PyErr::fetch(capsule.py()));
    }
    let tensor = if versioned {
        // SAFETY: the producer put a `DLManagedTensorVersioned*` in a
        // capsule so named (the standard's protocol); its ownership passed
        // to us with the rename.
        let t = unsafe { DlpackTensor::from_raw(ptr.cast::<DLManagedTensorVersioned>()) }.py()?;
        proxy::wrap_versioned(t)?
    } else {
        // SAFETY: as above, a `DLManagedTensor*` in a "dltensor" capsule.
        let t = unsafe { LegacyDlpackTensor::from_raw(ptr.cast::<DLManagedTensor>()) }.py()?;
        proxy::wrap_legacy(t)?
    };
    Array::from_dlpack_with(tensor, &FromDlpackOptions::default().read_only(read_only)).py()
}

/// A capsule's name for a message.
fn describe(obj: &Bound<'_, PyAny>) -> String {
    // SAFETY: `PyCapsule_CheckExact` reads the type only.
    if unsafe { ffi::PyCapsule_CheckExact(obj.as_ptr()) } == 0 {
        return format!(
            "a {}",
            obj.get_type().name().map_or("?".into(), |n| n.to_string())
        );
    }
    // SAFETY: a capsule; `PyCapsule_GetName` returns its name or null.
    let name = unsafe { ffi::PyCapsule_GetName(obj.as_ptr()) };
    if name.is_null() {
        // SAFETY: clears the exception a failed `PyCapsule_GetName` may set.
        unsafe { ffi::PyErr_Clear() };
        return "a capsule without a name".into();
    }
    // SAFETY: a capsule's name is a NUL-terminated string it keeps alive.
    let name = unsafe { CStr::from_ptr(name) };
    format!("a capsule named {:?}", name.to_string_lossy())
}

/// `from_dlpack(obj)`: asks `obj` where its data is and, for CUDA, for a
/// tensor ready on the calling thread's current Cuprum stream of that
/// device (its array API value), preferring DLPack 1.x
/// (`max_version=(1, 0)`) and falling back to a producer that does not
/// know `max_version`; then imports the capsule without a copy.
pub(crate) fn from_dlpack(obj: &Bound<'_, PyAny>, read_only: ReadOnlyImport) -> PyResult<Array> {
    let py = obj.py();
    if !obj.hasattr("__dlpack__")? || !obj.hasattr("__dlpack_device__")? {
        return Err(PyTypeError::new_err(format!(
            "from_dlpack: a {} has no __dlpack__ and __dlpack_device__",
            obj.get_type().name()?
        )));
    }
    let (kind, id): (i32, i32) = obj.call_method0("__dlpack_device__")?.extract()?;
    let kwargs = PyDict::new(py);
    let device = match kind {
        device_type::CUDA => Some(Device::new(id).py()?),
        device_type::CUDA_MANAGED => Some(Device::current().py()?),
        // Not CUDA: no stream to ask for; the import names the device.
        _ => None,
    };
    if let Some(device) = device {
        let stream = ConsumerStream::current_on(device).to_array_api().py()?;
        kwargs.set_item("stream", stream)?;
    }
    kwargs.set_item("max_version", (1, 0))?;
    let capsule = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            // A producer from before DLPack 1.0 takes no `max_version`.
            kwargs.del_item("max_version")?;
            obj.call_method("__dlpack__", (), Some(&kwargs))?
        }
        Err(e) => return Err(e),
    };
    import_capsule(&capsule, read_only)
}
