//! Cuprum's errors as Python exceptions, and the small conversions every
//! entry point shares (dtypes, the read-only policy).

use std::str::FromStr;

use gpu_array::DType;
use gpu_array::interop::ReadOnlyImport;
use pyo3::exceptions::{PyBufferError, PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A Cuprum error as the Python exception NumPy or the array API standard
/// would raise: `BufferError` for DLPack's, `TypeError` for dtypes,
/// `IndexError`, `ValueError` for shapes, `RuntimeError` for the driver.
pub(crate) fn py_err(e: gpu_array::Error) -> PyErr {
    use gpu_array::Error as E;
    let msg = e.to_string();
    match e {
        E::Buffer(_) => PyBufferError::new_err(msg),
        E::DType(_) | E::Unsupported(_) | E::Cast { .. } | E::HostType { .. } => {
            PyTypeError::new_err(msg)
        }
        E::IndexOutOfBounds { .. } | E::Index(_) => PyIndexError::new_err(msg),
        E::Broadcast { .. }
        | E::BroadcastTo { .. }
        | E::Reshape { .. }
        | E::TooBig
        | E::Shape(_)
        | E::AxisOutOfBounds { .. }
        | E::Axis(_)
        | E::Value(_) => PyValueError::new_err(msg),
        _ => PyRuntimeError::new_err(msg),
    }
}

/// `?` for Cuprum's results inside Python entry points.
pub(crate) trait OrPyErr<T> {
    /// The value, or the error as a Python exception ([`py_err`]).
    fn py(self) -> PyResult<T>;
}

impl<T> OrPyErr<T> for gpu_array::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(py_err)
    }
}

impl<T> OrPyErr<T> for gpu_runtime::Result<T> {
    fn py(self) -> PyResult<T> {
        self.map_err(|e| py_err(e.into()))
    }
}

/// A dtype from what Python code names one: a string NumPy understands
/// (`"float32"`, `"<f4"`, `"?"`, plus `"bfloat16"`), a `numpy.dtype`, or a
/// `torch.dtype` (`torch.float32` prints as `"torch.float32"`).
pub(crate) fn parse_dtype(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    let s = obj.str()?.to_string();
    let name = s.strip_prefix("torch.").unwrap_or(&s);
    let name = match name {
        // torch's names that NumPy spells otherwise.
        "half" => "float16",
        "cfloat" => "complex64",
        "cdouble" => "complex128",
        n => n,
    };
    DType::from_str(name).py()
}

/// The read-only policy of an import, by name: `"refuse"` (the default),
/// `"copy"` or `"view"` ([`ReadOnlyImport`]).
pub(crate) fn parse_read_only(policy: &str) -> PyResult<ReadOnlyImport> {
    match policy {
        "refuse" => Ok(ReadOnlyImport::Refuse),
        "copy" => Ok(ReadOnlyImport::Copy),
        "view" => Ok(ReadOnlyImport::View),
        other => Err(PyValueError::new_err(format!(
            "read_only must be 'refuse', 'copy' or 'view', not {other:?}"
        ))),
    }
}
