//! Cuprum's streams from Python: enough to make a non-default stream the
//! current one (`with cuprum_py.Stream():`), so that the tests run the
//! stream handshake with Cuprum on a stream of its own.

use gpu_array::interop::ConsumerStream;
use gpu_runtime::{Device, Stream, StreamGuard, StreamOptions};
use pyo3::prelude::*;

use crate::convert::OrPyErr;

/// A Cuprum stream of the current device (`cupy.cuda.Stream`). Used as a
/// context manager it is the calling thread's current stream inside the
/// block: arrays made there queue their work on it, and `from_dlpack` asks
/// producers for it.
#[pyclass(name = "Stream", module = "cuprum_py", unsendable)]
pub(crate) struct PyStream {
    stream: Stream,
    /// One guard per `__enter__` not yet exited (they nest).
    guards: Vec<StreamGuard>,
}

impl std::fmt::Debug for PyStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyStream")
            .field("stream", &self.stream)
            .field("entered", &self.guards.len())
            .finish()
    }
}

#[pymethods]
impl PyStream {
    /// A new stream; `non_blocking=True` makes it not wait for the legacy
    /// default stream (`cudaStreamNonBlocking`).
    #[new]
    #[pyo3(signature = (non_blocking = false))]
    fn new(non_blocking: bool) -> PyResult<PyStream> {
        let device = Device::current().py()?;
        let options = StreamOptions::default().non_blocking(non_blocking);
        Ok(PyStream {
            stream: Stream::with_options(device, options).py()?,
            guards: Vec::new(),
        })
    }

    /// The raw `CUstream` handle as an int (`cupy.cuda.Stream.ptr`,
    /// `torch.cuda.Stream.cuda_stream`).
    #[getter]
    fn handle(&self) -> usize {
        self.stream.raw() as usize
    }

    /// Waits for the work queued on the stream.
    fn synchronize(&self) -> PyResult<()> {
        self.stream.synchronize().py()
    }

    fn __enter__(mut slf: PyRefMut<'_, Self>) -> PyRefMut<'_, Self> {
        let guard = slf.stream.use_stream();
        slf.guards.push(guard);
        slf
    }

    #[pyo3(signature = (*_exc))]
    fn __exit__(&mut self, _exc: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        self.guards.pop();
        false
    }

    fn __repr__(&self) -> String {
        format!("cuprum_py.Stream(handle={:#x})", self.stream.raw() as usize)
    }
}

/// The calling thread's current Cuprum stream of the current device, as
/// the array API's `stream` value: 1 for the legacy default stream, 2 for
/// the per-thread one, else the raw handle. What `from_dlpack` passes.
#[pyfunction]
pub(crate) fn current_stream() -> PyResult<i64> {
    let device = Device::current().py()?;
    let value = ConsumerStream::current_on(device).to_array_api().py()?;
    Ok(value.unwrap_or(1))
}

/// Waits for the work queued on the calling thread's current stream.
#[pyfunction]
pub(crate) fn synchronize() -> PyResult<()> {
    Stream::current().py()?.synchronize().py()
}
