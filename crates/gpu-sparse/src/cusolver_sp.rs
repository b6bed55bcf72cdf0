//! cuSOLVER's sparse solvers (`cusolverSp`): the handle of each (device,
//! thread), kept as [`crate::cusparse`] keeps cuSPARSE's (created on first
//! use, re-bound when the stream changes, destroyed at thread exit in its
//! device's context with the caller's context given back), and the sparse
//! QR solve `cusolverSp<t>csrlsvqr` on the device.
#![allow(unsafe_code)]

use std::ffi::c_void;

use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::Stream;
use gpu_runtime::library_context::{HandleCache, HandleCalls, thread_handle};
use gpu_runtime::sys::cusolver as so;

use crate::cusparse::{CompressedView, MatDescr};

/// cuSOLVER's status names and meanings.
fn status_text(code: u32) -> (&'static str, &'static str) {
    match code {
        1 => (
            "CUSOLVER_STATUS_NOT_INITIALIZED",
            "the library was not initialized",
        ),
        2 => (
            "CUSOLVER_STATUS_ALLOC_FAILED",
            "a resource allocation failed",
        ),
        3 => (
            "CUSOLVER_STATUS_INVALID_VALUE",
            "an invalid value was passed",
        ),
        4 => (
            "CUSOLVER_STATUS_ARCH_MISMATCH",
            "the device does not support the feature",
        ),
        6 => (
            "CUSOLVER_STATUS_EXECUTION_FAILED",
            "the GPU program failed to execute",
        ),
        7 => (
            "CUSOLVER_STATUS_INTERNAL_ERROR",
            "an internal operation failed",
        ),
        8 => (
            "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
            "the matrix type is not supported",
        ),
        9 => (
            "CUSOLVER_STATUS_NOT_SUPPORTED",
            "the operation is not supported",
        ),
        _ => ("CUSOLVER_STATUS_UNKNOWN", "an unknown status"),
    }
}

fn check(
    call: &'static str,
    r: std::result::Result<so::cusolverStatus_t, gpu_runtime::sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuSOLVER", call, r.map(|s| s.0), status_text)
}

thread_local! {
    static HANDLES: HandleCache<so::cusolverSpHandle_t> = HandleCache::default();
}

/// Runs `f` with this thread's cusolverSp handle of `stream`'s device,
/// bound to `stream`.
fn with_handle<T>(
    stream: &Stream,
    f: impl FnOnce(so::cusolverSpHandle_t) -> Result<T>,
) -> Result<T> {
    let calls = HandleCalls {
        create: || {
            let mut h: so::cusolverSpHandle_t = std::ptr::null_mut();
            // SAFETY: `h` is a valid out-pointer; the device's context is current.
            check("cusolverSpCreate", unsafe { so::cusolverSpCreate(&mut h) })?;
            Ok(h)
        },
        destroy: |h| {
            // SAFETY: created by cusolverSpCreate, destroyed once (by its cache).
            let _ = unsafe { so::cusolverSpDestroy(h) };
        },
        set_stream: |h, s| {
            // SAFETY: a live handle; the stream belongs to its device and the
            // caller holds it for the calls enqueued.
            check("cusolverSpSetStream", unsafe {
                so::cusolverSpSetStream(h, s as so::cudaStream_t)
            })
        },
    };
    f(thread_handle(&HANDLES, stream, calls)?)
}

/// Solves `A x = b` by cuSOLVER's sparse QR on the device
/// (`cusolverSp<t>csrlsvqr`, symmetric reverse Cuthill-McKee reordering)
/// for the square CSR `a` (canonical, int32 indices, at least one entry)
/// and the contiguous 1-D `b` and `x` of `a`'s dtype, `descr` a general
/// legacy descriptor. Returns cuSOLVER's `singularity`: -1 when `A` is
/// invertible, else the first `j` with `|R(j, j)| <= tol` (here `tol` 0:
/// exactly singular, as SuperLU's test). The call waits for the device
/// (the flag comes back to the host).
pub(crate) fn csrlsvqr(
    a: CompressedView<'_>,
    descr: &MatDescr,
    b: &Array,
    x: &Array,
) -> Result<i32> {
    let dtype = a.data.dtype();
    if a.indices.dtype() != DType::Int32 || a.indptr.dtype() != DType::Int32 {
        return Err(Error::Unsupported(
            "spsolve with int64 indices (cuSOLVER's csrlsvqr takes int32 indices only)".into(),
        ));
    }
    let n = i32::try_from(a.shape.0)
        .map_err(|_| Error::Unsupported("spsolve of more than 2^31 - 1 rows".into()))?;
    let nnz = i32::try_from(a.data.size())
        .map_err(|_| Error::Unsupported("spsolve of more than 2^31 - 1 entries".into()))?;
    let stream = x.stream();
    let (v, p, i) = (
        a.data.data_ptr().raw() as *const c_void,
        a.indptr.data_ptr().raw() as *const i32,
        a.indices.data_ptr().raw() as *const i32,
    );
    let (pb, px) = (
        b.data_ptr().raw() as *const c_void,
        x.data_ptr().raw() as *mut c_void,
    );
    let d = descr.0 as so::cusparseMatDescr_t;
    // Symmetric reverse Cuthill-McKee: less fill in R.
    let reorder = 1;
    let mut singularity: i32 = -1;
    with_handle(&stream, |h| {
        // SAFETY: a live handle and descriptor; `p`, `i` and `v` address the
        // matrix's `n + 1` offsets, `nnz` column indices and `nnz` values of
        // the dtype of the variant called, `b` and `x` `n` elements of it;
        // a valid host out-pointer for the flag.
        let r = unsafe {
            match dtype {
                DType::Float32 => so::cusolverSpScsrlsvqr(
                    h,
                    n,
                    nnz,
                    d,
                    v as _,
                    p,
                    i,
                    pb as _,
                    0.0,
                    reorder,
                    px as _,
                    &mut singularity,
                ),
                DType::Float64 => so::cusolverSpDcsrlsvqr(
                    h,
                    n,
                    nnz,
                    d,
                    v as _,
                    p,
                    i,
                    pb as _,
                    0.0,
                    reorder,
                    px as _,
                    &mut singularity,
                ),
                DType::Complex64 => so::cusolverSpCcsrlsvqr(
                    h,
                    n,
                    nnz,
                    d,
                    v as _,
                    p,
                    i,
                    pb as _,
                    0.0,
                    reorder,
                    px as _,
                    &mut singularity,
                ),
                DType::Complex128 => so::cusolverSpZcsrlsvqr(
                    h,
                    n,
                    nnz,
                    d,
                    v as _,
                    p,
                    i,
                    pb as _,
                    0.0,
                    reorder,
                    px as _,
                    &mut singularity,
                ),
                other => {
                    return Err(Error::Unsupported(format!(
                        "spsolve of dtype {other} (cuSOLVER takes float32, float64, complex64 \
                         and complex128)"
                    )));
                }
            }
        };
        check("cusolverSp<t>csrlsvqr", r)
    })?;
    Ok(singularity)
}
