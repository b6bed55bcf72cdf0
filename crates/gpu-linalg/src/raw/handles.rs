//! cuBLAS and cuSOLVER handles: one of each per (device, thread), created
//! on first use, cached in a thread-local map and bound to the stream of
//! each call (CuPy keeps its handles the same way).
//!
//! A handle is re-bound only when the stream changes (`Stream::id`, which
//! stays unique even when the driver reuses a raw stream address).
//! cuBLAS keeps its own small workspace per handle (freed with the
//! handle); cuSOLVER's workspaces come from the memory pool per call
//! (`raw::solver`). Nothing of the pool is held in the thread-local maps:
//! their destructors run at thread exit, when the runtime's own
//! thread-locals may be gone, so a handle's drop touches only the driver
//! and the library. Creating or destroying a handle leaves current the
//! context it found (a drop binds the handle's device only for the
//! destroy): other destructors and foreign code on the thread may rely on
//! it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use gpu_runtime::Stream;
use gpu_runtime::library_context::{keeping_context, make_current};
use gpu_sys::{cublas, cusolver};

use crate::error::{Result, cublas_status, cusolver_status};

/// Turns a cuBLAS status into a `Result`.
pub(crate) fn check_blas(
    call: &'static str,
    r: std::result::Result<cublas::cublasStatus_t, gpu_sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuBLAS", call, r.map(|s| s.0), cublas_status)
}

/// Turns a cuSOLVER status into a `Result`.
pub(crate) fn check_solver(
    call: &'static str,
    r: std::result::Result<cusolver::cusolverStatus_t, gpu_sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuSOLVER", call, r.map(|s| s.0), cusolver_status)
}

struct Blas {
    raw: cublas::cublasHandle_t,
    ordinal: i32,
    stream: Option<u64>,
}

impl Drop for Blas {
    fn drop(&mut self) {
        // The handle must be destroyed in its device's context; the
        // context found is restored after, for the destructors that run
        // next. A failure at thread exit has nowhere to go.
        keeping_context(|| {
            if make_current(self.ordinal) {
                // SAFETY: the handle was created by cublasCreate and is destroyed once.
                let _ = unsafe { cublas::cublasDestroy_v2(self.raw) };
            }
        });
    }
}

struct Solver {
    raw: cusolver::cusolverDnHandle_t,
    params: cusolver::cusolverDnParams_t,
    /// The Jacobi solvers' options (default tolerance and sweeps, sorted
    /// values), created on first use; kept with the handle because a call
    /// may still use them after returning.
    syevj: cusolver::syevjInfo_t,
    gesvdj: cusolver::gesvdjInfo_t,
    ordinal: i32,
    stream: Option<u64>,
}

impl Drop for Solver {
    fn drop(&mut self) {
        // As for Blas.
        keeping_context(|| {
            if make_current(self.ordinal) {
                // SAFETY: each was created once by this module and is destroyed once.
                unsafe {
                    if !self.syevj.is_null() {
                        let _ = cusolver::cusolverDnDestroySyevjInfo(self.syevj);
                    }
                    if !self.gesvdj.is_null() {
                        let _ = cusolver::cusolverDnDestroyGesvdjInfo(self.gesvdj);
                    }
                    let _ = cusolver::cusolverDnDestroyParams(self.params);
                    let _ = cusolver::cusolverDnDestroy(self.raw);
                }
            }
        });
    }
}

thread_local! {
    static BLAS: RefCell<HashMap<i32, Blas>> = RefCell::new(HashMap::new());
    static SOLVER: RefCell<HashMap<i32, Solver>> = RefCell::new(HashMap::new());
}

/// Runs `f` with this thread's cuBLAS handle of `stream`'s device, bound to
/// `stream`, in host pointer mode.
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
            // The library may touch the context (its runtime's first use);
            // the device's context, bound above, stays current.
            check_blas(
                "cublasCreate",
                keeping_context(|| {
                    // SAFETY: `h` is a valid out-pointer; the device's context is current.
                    unsafe { cublas::cublasCreate_v2(&mut h) }
                }),
            )?;
            slot.insert(Blas {
                raw: h,
                ordinal,
                stream: None,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            // SAFETY: a live handle; the stream belongs to its device and
            // outlives the calls enqueued on it (the caller holds it).
            check_blas("cublasSetStream", unsafe {
                cublas::cublasSetStream_v2(h.raw, stream.handle()? as cublas::cudaStream_t)
            })?;
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
    with_solver(stream, false, |h, p, _| f(h, p))
}

/// The handle's Jacobi options.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Jacobi {
    pub syevj: cusolver::syevjInfo_t,
    pub gesvdj: cusolver::gesvdjInfo_t,
}

/// [`with_cusolver`], also passing the handle's Jacobi options (created on
/// first use).
pub(crate) fn with_cusolver_jacobi<T>(
    stream: &Stream,
    f: impl FnOnce(cusolver::cusolverDnHandle_t, Jacobi) -> Result<T>,
) -> Result<T> {
    with_solver(stream, true, |h, _, j| f(h, j))
}

fn with_solver<T>(
    stream: &Stream,
    jacobi: bool,
    f: impl FnOnce(cusolver::cusolverDnHandle_t, cusolver::cusolverDnParams_t, Jacobi) -> Result<T>,
) -> Result<T> {
    let dev = stream.device();
    dev.bind()?;
    let ordinal = dev.ordinal();
    let (raw, params, jinfo) = SOLVER.with(|cell| -> Result<_> {
        let mut map = cell.borrow_mut();
        if let Entry::Vacant(slot) = map.entry(ordinal) {
            let mut h: cusolver::cusolverDnHandle_t = std::ptr::null_mut();
            // As for cublasCreate.
            check_solver(
                "cusolverDnCreate",
                keeping_context(|| {
                    // SAFETY: valid out-pointer; the device's context is current.
                    unsafe { cusolver::cusolverDnCreate(&mut h) }
                }),
            )?;
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
                syevj: std::ptr::null_mut(),
                gesvdj: std::ptr::null_mut(),
                ordinal,
                stream: None,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            // SAFETY: a live handle and a stream of its device.
            check_solver("cusolverDnSetStream", unsafe {
                cusolver::cusolverDnSetStream(h.raw, stream.handle()? as cusolver::cudaStream_t)
            })?;
            h.stream = Some(stream.id());
        }
        if jacobi && h.syevj.is_null() {
            let mut j: cusolver::syevjInfo_t = std::ptr::null_mut();
            // SAFETY: valid out-pointer.
            check_solver("cusolverDnCreateSyevjInfo", unsafe {
                cusolver::cusolverDnCreateSyevjInfo(&mut j)
            })?;
            h.syevj = j;
        }
        if jacobi && h.gesvdj.is_null() {
            let mut j: cusolver::gesvdjInfo_t = std::ptr::null_mut();
            // SAFETY: valid out-pointer.
            check_solver("cusolverDnCreateGesvdjInfo", unsafe {
                cusolver::cusolverDnCreateGesvdjInfo(&mut j)
            })?;
            h.gesvdj = j;
        }
        Ok((
            h.raw,
            h.params,
            Jacobi {
                syevj: h.syevj,
                gesvdj: h.gesvdj,
            },
        ))
    })?;
    f(raw, params, jinfo)
}
