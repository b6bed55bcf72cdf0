//! cuBLAS and cuSOLVER handles: one of each per (device, thread), created
//! on first use, cached in a thread-local map and bound to the stream of
//! each call (CuPy keeps its handles the same way).
//!
//! A handle is re-bound only when the stream changes (`Stream::id`, which
//! stays unique even when the driver reuses a raw stream address). cuBLAS
//! resets its workspace on `cublasSetStream`, so each re-bind hands it a
//! workspace of the memory pool allocated on the new stream; the old one
//! goes back to the pool in the old stream's order, after every call
//! enqueued there that may use it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use gpu_runtime::memory::alloc_on;
use gpu_runtime::{Memory, Stream};
use gpu_sys::{cublas, cusolver};

use crate::error::{Error, Result, cublas_status, cusolver_status};

/// Bytes of the cuBLAS workspace NVIDIA recommends for Hopper and later
/// (4 MiB is enough before; the larger one costs little from the pool).
const CUBLAS_WORKSPACE: usize = 32 << 20;

/// Turns a cuBLAS status into a `Result`.
pub(crate) fn check_blas(
    call: &'static str,
    r: std::result::Result<cublas::cublasStatus_t, gpu_sys::LoadError>,
) -> Result<()> {
    match r {
        Err(source) => Err(Error::Library {
            library: "cuBLAS",
            operation: call,
            source,
        }),
        Ok(s) if s.0 == 0 => Ok(()),
        Ok(s) => {
            let (name, message) = cublas_status(s.0);
            Err(Error::Cublas {
                call,
                name,
                message,
            })
        }
    }
}

/// Turns a cuSOLVER status into a `Result`.
pub(crate) fn check_solver(
    call: &'static str,
    r: std::result::Result<cusolver::cusolverStatus_t, gpu_sys::LoadError>,
) -> Result<()> {
    match r {
        Err(source) => Err(Error::Library {
            library: "cuSOLVER",
            operation: call,
            source,
        }),
        Ok(s) if s.0 == 0 => Ok(()),
        Ok(s) => {
            let (name, message) = cusolver_status(s.0);
            Err(Error::Cusolver {
                call,
                name,
                message,
            })
        }
    }
}

struct Blas {
    raw: cublas::cublasHandle_t,
    ordinal: i32,
    stream: Option<u64>,
    /// The workspace handed to cuBLAS for the bound stream.
    workspace: Option<Memory>,
}

impl Drop for Blas {
    fn drop(&mut self) {
        // The handle's device must be current; a failure at thread exit has
        // nowhere to go.
        if let Ok(dev) = gpu_runtime::Device::new(self.ordinal)
            && dev.bind().is_ok()
        {
            // SAFETY: the handle was created by cublasCreate and is destroyed once.
            let _ = unsafe { cublas::cublasDestroy_v2(self.raw) };
        }
    }
}

struct Solver {
    raw: cusolver::cusolverDnHandle_t,
    params: cusolver::cusolverDnParams_t,
    ordinal: i32,
    stream: Option<u64>,
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Ok(dev) = gpu_runtime::Device::new(self.ordinal)
            && dev.bind().is_ok()
        {
            // SAFETY: both were created once by this module and are destroyed once.
            unsafe {
                let _ = cusolver::cusolverDnDestroyParams(self.params);
                let _ = cusolver::cusolverDnDestroy(self.raw);
            }
        }
    }
}

thread_local! {
    static BLAS: RefCell<HashMap<i32, Blas>> = RefCell::new(HashMap::new());
    static SOLVER: RefCell<HashMap<i32, Solver>> = RefCell::new(HashMap::new());
}

/// Runs `f` with this thread's cuBLAS handle of `stream`'s device, bound to
/// `stream` (with a pool workspace on it) and in host pointer mode.
pub(crate) fn with_cublas<T>(
    stream: &Stream,
    f: impl FnOnce(cublas::cublasHandle_t) -> Result<T>,
) -> Result<T> {
    let dev = stream.device();
    dev.bind()?;
    let ordinal = dev.ordinal();
    let raw = BLAS.with(|cell| -> Result<cublas::cublasHandle_t> {
        let mut map = cell.borrow_mut();
        if let Entry::Vacant(slot) = map.entry(ordinal) {
            let mut h: cublas::cublasHandle_t = std::ptr::null_mut();
            // SAFETY: `h` is a valid out-pointer; the device's context is current.
            check_blas("cublasCreate", unsafe { cublas::cublasCreate_v2(&mut h) })?;
            slot.insert(Blas {
                raw: h,
                ordinal,
                stream: None,
                workspace: None,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            let ws = alloc_on(CUBLAS_WORKSPACE, stream)?;
            // SAFETY: a live handle; the stream belongs to its device and
            // outlives the calls enqueued on it (the caller holds it).
            check_blas("cublasSetStream", unsafe {
                cublas::cublasSetStream_v2(h.raw, stream.raw() as cublas::cudaStream_t)
            })?;
            // SAFETY: the workspace is device memory of this device, kept
            // alive by the handle until the next re-bind; its pool frees it
            // in the order of `stream`, the only stream that uses it.
            check_blas("cublasSetWorkspace", unsafe {
                cublas::cublasSetWorkspace_v2(h.raw, ws.ptr().raw() as *mut _, ws.size())
            })?;
            h.workspace = Some(ws);
            h.stream = Some(stream.id());
        }
        Ok(h.raw)
    })?;
    f(raw)
}

/// Runs `f` with this thread's cuSOLVER handle (and its `cusolverDnParams`,
/// default options) of `stream`'s device, bound to `stream`.
pub(crate) fn with_cusolver<T>(
    stream: &Stream,
    f: impl FnOnce(cusolver::cusolverDnHandle_t, cusolver::cusolverDnParams_t) -> Result<T>,
) -> Result<T> {
    let dev = stream.device();
    dev.bind()?;
    let ordinal = dev.ordinal();
    let (raw, params) = SOLVER.with(|cell| -> Result<_> {
        let mut map = cell.borrow_mut();
        if let Entry::Vacant(slot) = map.entry(ordinal) {
            let mut h: cusolver::cusolverDnHandle_t = std::ptr::null_mut();
            // SAFETY: valid out-pointer; the device's context is current.
            check_solver("cusolverDnCreate", unsafe {
                cusolver::cusolverDnCreate(&mut h)
            })?;
            let mut p: cusolver::cusolverDnParams_t = std::ptr::null_mut();
            // SAFETY: valid out-pointer.
            if let Err(e) = check_solver("cusolverDnCreateParams", unsafe {
                cusolver::cusolverDnCreateParams(&mut p)
            }) {
                // SAFETY: created just above, destroyed once.
                let _ = unsafe { cusolver::cusolverDnDestroy(h) };
                return Err(e);
            }
            slot.insert(Solver {
                raw: h,
                params: p,
                ordinal,
                stream: None,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            // SAFETY: a live handle and a stream of its device.
            check_solver("cusolverDnSetStream", unsafe {
                cusolver::cusolverDnSetStream(h.raw, stream.raw() as cusolver::cudaStream_t)
            })?;
            h.stream = Some(stream.id());
        }
        Ok((h.raw, h.params))
    })?;
    f(raw, params)
}
