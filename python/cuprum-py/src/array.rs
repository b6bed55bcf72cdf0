//! `cuprum_py.Array`: a Cuprum array with the Python array API's exchange
//! methods, a few views to make strided arrays, and host copies to check
//! values; plus the module's constructors.

use std::sync::{Arc, Weak};

use gpu_array::interop::ffi::device_type;
use gpu_array::{Array, AxisIndex, DType};
use gpu_runtime::{Device, Memory};
use pyo3::exceptions::{PyBufferError, PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyEllipsis, PySlice, PyTuple};

use crate::capsule::{self, ExportRequest};
use crate::convert::{OrPyErr, parse_dtype, parse_read_only};

/// A Cuprum array (`cupy.ndarray`'s counterpart, for the exchange tests).
#[pyclass(name = "Array", module = "cuprum_py", frozen)]
#[derive(Debug)]
pub(crate) struct PyArray {
    pub(crate) a: Array,
}

/// A weak reference to an array's memory: says whether anything (an
/// array, a view, a DLPack tensor handed to a consumer) still holds it.
#[pyclass(name = "MemoryWatch", module = "cuprum_py", frozen)]
#[derive(Debug)]
pub(crate) struct MemoryWatch {
    mem: Weak<Memory>,
}

#[pymethods]
impl MemoryWatch {
    /// Whether the memory is still held (not yet released).
    #[getter]
    fn alive(&self) -> bool {
        self.mem.strong_count() > 0
    }

    /// How many holders it has (arrays, views, exported tensors).
    #[getter]
    fn holders(&self) -> usize {
        self.mem.strong_count()
    }
}

fn wrap(a: Array) -> PyArray {
    PyArray { a }
}

/// A Python index (int, slice, `None`, `...`, or a tuple of them) as
/// Cuprum's.
fn axis_index(obj: &Bound<'_, PyAny>) -> PyResult<AxisIndex> {
    if obj.is_none() {
        return Ok(AxisIndex::NewAxis);
    }
    if obj.is_instance_of::<PyEllipsis>() {
        return Ok(AxisIndex::Ellipsis);
    }
    if let Ok(s) = obj.cast::<PySlice>() {
        let part = |name: &str| -> PyResult<Option<isize>> { s.getattr(name)?.extract() };
        let step = part("step")?.unwrap_or(1);
        if step == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "slice step cannot be zero",
            ));
        }
        return Ok(AxisIndex::Slice {
            start: part("start")?,
            stop: part("stop")?,
            step,
        });
    }
    if let Ok(i) = obj.extract::<isize>() {
        return Ok(AxisIndex::Index(i));
    }
    Err(PyIndexError::new_err(format!(
        "only integers, slices, None and ... are valid indices, not {}",
        obj.get_type().name()?
    )))
}

#[pymethods]
impl PyArray {
    /// The shape.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.a.shape())
    }

    /// The strides in bytes, as NumPy gives them (Cuprum's unit too).
    #[getter]
    fn strides<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.a.strides())
    }

    /// The dtype's name (`"float32"`, `"bfloat16"`, ...).
    #[getter]
    fn dtype(&self) -> &'static str {
        self.a.dtype().name()
    }

    #[getter]
    fn ndim(&self) -> usize {
        self.a.ndim()
    }

    #[getter]
    fn size(&self) -> usize {
        self.a.size()
    }

    #[getter]
    fn itemsize(&self) -> usize {
        self.a.itemsize()
    }

    #[getter]
    fn nbytes(&self) -> usize {
        self.a.nbytes()
    }

    /// The CUDA device's ordinal.
    #[getter]
    fn device(&self) -> i32 {
        self.a.device().ordinal()
    }

    /// Whether the array is C-contiguous.
    #[getter]
    fn c_contiguous(&self) -> bool {
        self.a.is_c_contiguous()
    }

    /// The device address of element `[0, ...]` (`x.data.ptr`,
    /// `tensor.data_ptr()`).
    fn data_ptr(&self) -> u64 {
        self.a.data_ptr().raw()
    }

    fn __len__(&self) -> PyResult<usize> {
        self.a
            .shape()
            .first()
            .copied()
            .ok_or_else(|| PyTypeError::new_err("len() of a 0-d array"))
    }

    /// A view: `x[1:, ::2]`, `x[..., None]`, `x[3]`.
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<PyArray> {
        let indices = match key.cast::<PyTuple>() {
            Ok(t) => t
                .iter()
                .map(|k| axis_index(&k))
                .collect::<PyResult<Vec<_>>>()?,
            Err(_) => vec![axis_index(key)?],
        };
        Ok(wrap(self.a.slice(&indices).py()?))
    }

    /// The axes permuted (reversed by default): a view.
    #[pyo3(signature = (axes = None))]
    fn transpose(&self, axes: Option<Vec<isize>>) -> PyResult<PyArray> {
        Ok(wrap(self.a.transpose(axes.as_deref()).py()?))
    }

    /// The transpose.
    #[getter(T)]
    fn t(&self) -> PyResult<PyArray> {
        self.transpose(None)
    }

    /// A view with these strides in bytes over the same memory (bounds
    /// checked by Cuprum): stride 0 and negative strides included.
    fn as_strided(&self, shape: Vec<usize>, strides: Vec<isize>) -> PyResult<PyArray> {
        Ok(wrap(self.a.as_strided(&shape, &strides).py()?))
    }

    /// A C-contiguous copy.
    fn copy(&self) -> PyResult<PyArray> {
        Ok(wrap(self.a.copy().py()?))
    }

    /// The values cast to `dtype` (a new array).
    fn astype(&self, dtype: &Bound<'_, PyAny>) -> PyResult<PyArray> {
        Ok(wrap(self.a.astype(parse_dtype(dtype)?).py()?))
    }

    /// Writes `value` into every element, in place (through a view of
    /// imported memory, the producer sees it).
    fn fill(&self, value: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
            return self.a.fill(b.is_true()).py();
        }
        if let Ok(i) = value.extract::<i64>() {
            return self.a.fill(i).py();
        }
        let f: f64 = value.extract()?;
        self.a.fill(f).py()
    }

    /// The elements in C order as bytes (`x.tobytes()`).
    fn tobytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self.a.to_bytes().py()?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A NumPy copy (`x.get()`); bfloat16, which NumPy lacks, comes back
    /// as float32 (exact).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = if self.a.dtype() == DType::BFloat16 {
            self.a.astype(DType::Float32).py()?
        } else {
            self.a.clone()
        };
        let np = py.import("numpy")?;
        let bytes = PyBytes::new(py, &a.to_bytes().py()?);
        let flat = np.call_method1("frombuffer", (bytes, a.dtype().name()))?;
        flat.call_method1("reshape", (PyTuple::new(py, a.shape())?,))?
            .call_method0("copy")
    }

    /// The values as nested Python lists (`x.tolist()`).
    fn tolist<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_numpy(py)?.call_method0("tolist")
    }

    /// A weak watch on the array's memory, for lifetime tests.
    fn memory_watch(&self) -> MemoryWatch {
        MemoryWatch {
            mem: Arc::downgrade(self.a.memory()),
        }
    }

    /// `__dlpack_device__()`: `(kDLCUDA, ordinal)`, or `(kDLCUDAManaged, 0)`
    /// for managed memory.
    fn __dlpack_device__(&self) -> (i32, i32) {
        let d = self.a.dlpack_device();
        (d.device_type, d.device_id)
    }

    /// `__dlpack__(*, stream=None, max_version=None, dl_device=None,
    /// copy=None)` of the Python array API standard: a
    /// `"dltensor_versioned"` capsule when `max_version` is 1.0 or newer,
    /// else a legacy `"dltensor"` one. `stream` is the consumer's (None or
    /// 1: the legacy default stream, 2: the per-thread one, -1: no
    /// synchronization, else a handle the consumer keeps valid until it
    /// releases the tensor).
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<i64>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let own = self.a.dlpack_device();
        let device = match dl_device {
            None => None,
            // What __dlpack_device__ said (managed memory's id is 0): no move.
            Some((kind, id)) if (kind, id) == (own.device_type, own.device_id) => None,
            Some((device_type::CUDA, id)) => Some(Device::new(id).py()?),
            Some((kind, id)) => {
                return Err(PyBufferError::new_err(format!(
                    "__dlpack__: cannot export to device ({kind}, {id}); only CUDA devices \
                     (kDLCUDA = {})",
                    device_type::CUDA
                )));
            }
        };
        let req = ExportRequest {
            stream,
            versioned: max_version.is_some_and(|(major, _)| major >= 1),
            device,
            copy,
        };
        capsule::export(py, &self.a, &req)
    }

    /// A `"dltensor_versioned"` capsule with Cuprum's own options, beyond
    /// the standard's `__dlpack__`: `read_only` sets
    /// `DLPACK_FLAG_BITMASK_READ_ONLY` (`ToDlpackOptions::read_only`), for
    /// testing what importers do with it. `stream` as in `__dlpack__`.
    #[pyo3(signature = (*, read_only = false, stream = None))]
    fn to_dlpack<'py>(
        &self,
        py: Python<'py>,
        read_only: bool,
        stream: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        capsule::export_read_only(py, &self.a, stream, read_only)
    }

    /// `__cuda_array_interface__`, version 3, with the array's stream.
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        crate::cai::export(py, &self.a)
    }

    fn __repr__(&self) -> String {
        format!(
            "cuprum_py.Array(shape={:?}, strides={:?}, dtype={}, data_ptr={:#x})",
            self.a.shape(),
            self.a.strides(),
            self.a.dtype(),
            self.a.data_ptr().raw()
        )
    }
}

/// `arange(n, dtype="int64")`: `0 .. n` cast to `dtype`.
#[pyfunction]
#[pyo3(signature = (n, dtype = None))]
pub(crate) fn arange(n: i64, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PyArray> {
    let dtype = dtype.map(parse_dtype).transpose()?;
    let a = gpu_array::creation::arange(n).py()?;
    Ok(wrap(match dtype {
        Some(d) => a.astype(d).py()?,
        None => a,
    }))
}

/// `zeros(shape, dtype="float64")`.
#[pyfunction]
#[pyo3(signature = (shape, dtype = None))]
pub(crate) fn zeros(shape: Vec<usize>, dtype: Option<&Bound<'_, PyAny>>) -> PyResult<PyArray> {
    let dtype = dtype
        .map(parse_dtype)
        .transpose()?
        .unwrap_or(DType::Float64);
    Ok(wrap(Array::zeros(shape, dtype).py()?))
}

/// `from_bytes(data, dtype, shape)`: a new array from C-order bytes.
#[pyfunction]
pub(crate) fn from_bytes(
    data: &[u8],
    dtype: &Bound<'_, PyAny>,
    shape: Vec<usize>,
) -> PyResult<PyArray> {
    Ok(wrap(
        Array::from_bytes(parse_dtype(dtype)?, &shape, data).py()?,
    ))
}

/// `asarray(a)`: a copy of a NumPy array on the device (`cupy.asarray`).
#[pyfunction]
pub(crate) fn asarray(a: &Bound<'_, PyAny>) -> PyResult<PyArray> {
    let py = a.py();
    // `tobytes` gives C order whatever the layout (`ascontiguousarray`
    // would turn a 0-d array into a 1-d one).
    let c = py.import("numpy")?.call_method1("asarray", (a,))?;
    let dtype = c.getattr("dtype")?.getattr("name")?;
    let shape: Vec<usize> = c.getattr("shape")?.extract()?;
    let bytes = c.call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?;
    Ok(wrap(
        Array::from_bytes(parse_dtype(&dtype)?, &shape, bytes.as_bytes()).py()?,
    ))
}

/// `from_dlpack(obj, *, read_only="refuse")`: imports `obj` (anything with
/// `__dlpack__` and `__dlpack_device__`) without a copy, asking it for the
/// calling thread's current Cuprum stream. `read_only` says what to do
/// with a read-only tensor: `"refuse"` (BufferError), `"copy"`, `"view"`.
#[pyfunction]
#[pyo3(signature = (obj, *, read_only = "refuse"))]
pub(crate) fn from_dlpack(obj: &Bound<'_, PyAny>, read_only: &str) -> PyResult<PyArray> {
    let policy = parse_read_only(read_only)?;
    Ok(wrap(capsule::from_dlpack(obj, policy)?))
}

/// `from_cuda_array_interface(obj, *, read_only="refuse")`: imports the
/// memory `obj.__cuda_array_interface__` describes without a copy, after
/// the current Cuprum stream waits for the interface's stream; the array
/// keeps `obj` alive.
#[pyfunction]
#[pyo3(signature = (obj, *, read_only = "refuse"))]
pub(crate) fn from_cuda_array_interface(
    obj: &Bound<'_, PyAny>,
    read_only: &str,
) -> PyResult<PyArray> {
    let policy = parse_read_only(read_only)?;
    Ok(wrap(crate::cai::import(obj, policy)?))
}
