//! `cuprum_py`: a test-only Python extension that exposes Cuprum arrays to
//! Python libraries and takes theirs, so that gpu-array's DLPack export and
//! import ([`gpu_array::interop`]) are proven against real consumers
//! (PyTorch, CuPy) on a GPU. It is not a Python binding of Cuprum: it has
//! just what the exchange tests need.
//!
//! | Python                                   | here                                  |
//! |------------------------------------------|---------------------------------------|
//! | `x.__dlpack__(stream=, max_version=, ...)` | [`array::PyArray`], [`capsule::export`] |
//! | `x.__dlpack_device__()`                  | [`gpu_array::Array::dlpack_device`]   |
//! | `x.__cuda_array_interface__` (v3)        | [`cai::export`]                       |
//! | `cuprum_py.from_dlpack(obj)`             | [`capsule::from_dlpack`]              |
//! | `cuprum_py.from_cuda_array_interface(obj)` | [`cai::import`]                     |
//! | `with cuprum_py.Stream():`               | [`stream::PyStream`]                  |
//!
//! Imports go through a small proxy tensor ([`proxy`]) whose deleter counts
//! its calls, so the tests can see when Cuprum lets go of another
//! library's memory; the checks and the import itself are gpu-array's.

mod array;
mod cai;
mod capsule;
mod convert;
mod proxy;
mod stream;

use pyo3::prelude::*;

/// Cuprum arrays for Python's exchange protocols (DLPack, `__cuda_array_interface__`); test-only.
#[pymodule]
fn cuprum_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<array::PyArray>()?;
    m.add_class::<array::MemoryWatch>()?;
    m.add_class::<stream::PyStream>()?;
    m.add_function(wrap_pyfunction!(array::arange, m)?)?;
    m.add_function(wrap_pyfunction!(array::zeros, m)?)?;
    m.add_function(wrap_pyfunction!(array::from_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(array::asarray, m)?)?;
    m.add_function(wrap_pyfunction!(array::from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(array::from_cuda_array_interface, m)?)?;
    m.add_function(wrap_pyfunction!(proxy::import_counts, m)?)?;
    m.add_function(wrap_pyfunction!(stream::current_stream, m)?)?;
    m.add_function(wrap_pyfunction!(stream::synchronize, m)?)?;
    m.add("DLPACK_MAX_VERSION", (1, 1))?;
    Ok(())
}
