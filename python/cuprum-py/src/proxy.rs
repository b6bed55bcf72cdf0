//! The proxy tensor every import goes through: a `DLManagedTensorVersioned`
//! of this module's own whose deleter counts its calls and then lets go of
//! what the data belongs to (the producer's own DLPack tensor, or the
//! Python object of a `__cuda_array_interface__`). gpu-array imports the
//! proxy (`Array::from_dlpack_with`), with all its checks; the tests read
//! the counts to see when Cuprum released another library's memory.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_array::interop::ffi::{
    DLManagedTensorVersioned, DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION, DLPackVersion, DLTensor,
};
use gpu_array::interop::{DlpackTensor, LegacyDlpackTensor};
use pyo3::prelude::*;

use crate::convert::OrPyErr;

/// Proxies made (imports begun).
static MADE: AtomicU64 = AtomicU64::new(0);
/// Proxy deleters run (imports whose memory Cuprum released).
static RELEASED: AtomicU64 = AtomicU64::new(0);

/// `(made, released)`: how many imports this process began, and how many
/// of them Cuprum has let go of (their deleter ran). The difference is the
/// number of other libraries' buffers Cuprum still holds.
#[pyfunction]
pub(crate) fn import_counts() -> (u64, u64) {
    (MADE.load(Ordering::SeqCst), RELEASED.load(Ordering::SeqCst))
}

/// What the proxied data belongs to; dropping it releases the data.
#[derive(Debug)]
#[expect(
    dead_code,
    reason = "the fields are held for their drop, which releases the data"
)]
pub(crate) enum Owner {
    /// A producer's versioned tensor: its drop calls the producer's deleter.
    Versioned(DlpackTensor),
    /// A producer's legacy tensor, likewise.
    Legacy(LegacyDlpackTensor),
    /// The object whose `__cuda_array_interface__` described the data: the
    /// interface's lifetime rule is "as long as the object lives".
    Python(PyOwner),
}

/// A Python reference that may be dropped on any thread (the deleter runs
/// where Cuprum releases the memory): it attaches to the interpreter for
/// the decref, and leaks the reference if the interpreter is shutting down.
#[derive(Debug)]
pub(crate) struct PyOwner(Option<Py<PyAny>>);

impl PyOwner {
    pub(crate) fn new(obj: Py<PyAny>) -> PyOwner {
        PyOwner(Some(obj))
    }
}

impl Drop for PyOwner {
    fn drop(&mut self) {
        let mut obj = self.0.take();
        if Python::try_attach(|_py| drop(obj.take())).is_none() {
            // No interpreter to decref with: leaking the reference is safe.
            std::mem::forget(obj);
        }
    }
}

/// The proxy: the managed struct first (`repr(C)`, so a pointer to it is a
/// pointer to the box), then the storage its `DLTensor` points into and
/// the owner of the data.
#[repr(C)]
struct Proxy {
    managed: DLManagedTensorVersioned,
    shape: Vec<i64>,
    strides: Vec<i64>,
    owner: Owner,
}

/// The proxy's deleter: counts, frees the box and so drops the owner.
unsafe extern "C" fn delete_proxy(p: *mut DLManagedTensorVersioned) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` came from `Box::into_raw` of a `Proxy` in `make` (its
    // first field, `repr(C)`), and DLPack calls a deleter once.
    let proxy = unsafe { Box::from_raw(p.cast::<Proxy>()) };
    drop(proxy);
    RELEASED.fetch_add(1, Ordering::SeqCst);
}

/// Where a proxy's `shape` and `strides` point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Where the producer's did (memory its owner keeps alive).
    Producer,
    /// Into the proxy's own vectors (`strides` empty: null, C order).
    Own,
}

/// A proxy of `tensor` with `flags`, owning the data through `owner`.
fn make(
    tensor: DLTensor,
    flags: u64,
    layout: (Layout, Vec<i64>, Vec<i64>),
    owner: Owner,
) -> PyResult<DlpackTensor> {
    let (layout, shape, strides) = layout;
    let proxy = Box::new(Proxy {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion {
                major: DLPACK_MAJOR_VERSION,
                minor: DLPACK_MINOR_VERSION,
            },
            manager_ctx: std::ptr::null_mut::<c_void>(),
            deleter: Some(delete_proxy),
            flags,
            dl_tensor: tensor,
        },
        shape,
        strides,
        owner,
    });
    let raw = Box::into_raw(proxy);
    if layout == Layout::Own {
        // Point the tensor into the box's own vectors (their heap buffers
        // do not move with the box).
        // SAFETY: `raw` is the live box just made, not yet shared.
        let p = unsafe { &mut *raw };
        p.managed.dl_tensor.shape = p.shape.as_mut_ptr();
        p.managed.dl_tensor.strides = if p.strides.is_empty() {
            std::ptr::null_mut()
        } else {
            p.strides.as_mut_ptr()
        };
    }
    MADE.fetch_add(1, Ordering::SeqCst);
    // SAFETY: `raw` is a live versioned struct of major version 1 whose
    // ownership passes to the handle here; its `shape` points to `ndim`
    // int64s (the box's or the producer's, alive until the deleter), its
    // `strides` is null or likewise; the data stays valid until the
    // deleter drops `owner` (the producer's own contract, or the Python
    // object the interface belongs to); `delete_proxy` may run on any
    // thread, once.
    unsafe { DlpackTensor::from_raw(raw.cast()) }.py()
}

/// A proxy of a producer's versioned tensor (DLPack 1.x); a tensor of
/// another major version is returned as it is, for gpu-array's import to
/// refuse with its message (its fields past `flags` cannot be read).
pub(crate) fn wrap_versioned(tensor: DlpackTensor) -> PyResult<DlpackTensor> {
    match tensor.version() {
        Some(v) if v.major == DLPACK_MAJOR_VERSION => {}
        _ => return Ok(tensor),
    }
    // SAFETY: the handle owns a live struct of major version 1
    // (`DlpackTensor::from_raw`'s contract), so its `dl_tensor` may be
    // read; the shape and strides it points to live until the producer's
    // deleter, which runs only when the proxy drops `owner`.
    let dl = unsafe { (*tensor.as_ptr()).dl_tensor };
    let flags = tensor.flags();
    make(
        dl,
        flags,
        (Layout::Producer, Vec::new(), Vec::new()),
        Owner::Versioned(tensor),
    )
}

/// A proxy of a producer's legacy tensor (no version, no flags).
pub(crate) fn wrap_legacy(tensor: LegacyDlpackTensor) -> PyResult<DlpackTensor> {
    // SAFETY: as in `wrap_versioned`, for the legacy struct.
    let dl = unsafe { (*tensor.as_ptr()).dl_tensor };
    make(
        dl,
        0,
        (Layout::Producer, Vec::new(), Vec::new()),
        Owner::Legacy(tensor),
    )
}

/// A proxy of memory described by a `__cuda_array_interface__`: `tensor`'s
/// shape and strides are taken from `shape` and `strides` (strides empty:
/// C order), and `owner` keeps the data alive.
pub(crate) fn from_parts(
    tensor: DLTensor,
    flags: u64,
    shape: Vec<i64>,
    strides: Option<Vec<i64>>,
    owner: PyOwner,
) -> PyResult<DlpackTensor> {
    let layout = (Layout::Own, shape, strides.unwrap_or_default());
    make(tensor, flags, layout, Owner::Python(owner))
}
