//! cuSPARSE through its generic API: the handle of each (device, thread),
//! the matrix descriptors and SpMV/SpMM work buffers cached on a matrix
//! ([`PlanCache`]), and the product calls.
//!
//! Handles are kept as gpu-linalg keeps cuBLAS's: one per device and
//! thread, created on first use, re-bound only when the stream changes,
//! destroyed at thread exit in their device's context with the caller's
//! context given back.
//!
//! A matrix descriptor holds only the addresses and sizes of the matrix's
//! arrays (host memory; no device work), so it is made once per matrix and
//! kept until the matrix changes. The work buffer and the preprocessing of
//! `cusparseSpMV_preprocess`/`cusparseSpMM_preprocess` are kept per (call
//! kind, dtype, stream): the buffer is device memory that the product's
//! kernels read and write, so two streams never share one; a repeated
//! product on one stream pays only its kernels, where CuPy creates a
//! descriptor, queries the buffer size and allocates on every call.
#![allow(unsafe_code)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ffi::c_void;
use std::sync::Mutex;

use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::Stream;
use gpu_runtime::library_context::{keeping_context, make_current};
use gpu_runtime::sys::cusparse as cs;

/// cuSPARSE's status names and meanings.
fn status_text(code: u32) -> (&'static str, &'static str) {
    match code {
        1 => (
            "CUSPARSE_STATUS_NOT_INITIALIZED",
            "the library was not initialized",
        ),
        2 => (
            "CUSPARSE_STATUS_ALLOC_FAILED",
            "a resource allocation failed",
        ),
        3 => (
            "CUSPARSE_STATUS_INVALID_VALUE",
            "an invalid value was passed",
        ),
        4 => (
            "CUSPARSE_STATUS_ARCH_MISMATCH",
            "the device does not support the feature",
        ),
        6 => (
            "CUSPARSE_STATUS_EXECUTION_FAILED",
            "the GPU program failed to execute",
        ),
        7 => (
            "CUSPARSE_STATUS_INTERNAL_ERROR",
            "an internal operation failed",
        ),
        8 => (
            "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
            "the matrix type is not supported",
        ),
        9 => ("CUSPARSE_STATUS_ZERO_PIVOT", "a zero pivot was found"),
        10 => (
            "CUSPARSE_STATUS_NOT_SUPPORTED",
            "the operation or data type is not supported",
        ),
        11 => (
            "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES",
            "too few resources to complete the operation",
        ),
        _ => ("CUSPARSE_STATUS_UNKNOWN", "an unknown status"),
    }
}

/// Turns a cuSPARSE status into a `Result`, naming the call.
pub(crate) fn check(
    call: &'static str,
    r: std::result::Result<cs::cusparseStatus_t, gpu_runtime::sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuSPARSE", call, r.map(|s| s.0), status_text)
}

struct Handle {
    raw: cs::cusparseHandle_t,
    ordinal: i32,
    stream: Option<u64>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        // Destroyed in its device's context, the context found restored
        // (module docs); a failure at thread exit has nowhere to go.
        keeping_context(|| {
            if make_current(self.ordinal) {
                // SAFETY: created by cusparseCreate, destroyed once.
                let _ = unsafe { cs::cusparseDestroy(self.raw) };
            }
        });
    }
}

thread_local! {
    static HANDLES: RefCell<HashMap<i32, Handle>> = RefCell::new(HashMap::new());
}

/// Runs `f` with this thread's cuSPARSE handle of `stream`'s device, bound
/// to `stream` (host pointer mode, cuSPARSE's default).
pub(crate) fn with_handle<T>(
    stream: &Stream,
    f: impl FnOnce(cs::cusparseHandle_t) -> Result<T>,
) -> Result<T> {
    let dev = stream.device();
    dev.bind()?;
    let ordinal = dev.ordinal();
    let raw = HANDLES.with(|cell| -> Result<cs::cusparseHandle_t> {
        let mut map = cell.borrow_mut();
        if let Entry::Vacant(slot) = map.entry(ordinal) {
            let mut h: cs::cusparseHandle_t = std::ptr::null_mut();
            check(
                "cusparseCreate",
                keeping_context(|| {
                    // SAFETY: `h` is a valid out-pointer; the device's context is current.
                    unsafe { cs::cusparseCreate(&mut h) }
                }),
            )?;
            slot.insert(Handle {
                raw: h,
                ordinal,
                stream: None,
            });
        }
        let h = map.get_mut(&ordinal).expect("inserted above");
        if h.stream != Some(stream.id()) {
            // SAFETY: a live handle; the stream belongs to its device and the
            // caller holds it for the calls enqueued.
            check("cusparseSetStream", unsafe {
                cs::cusparseSetStream(h.raw, stream.handle()? as cs::cudaStream_t)
            })?;
            h.stream = Some(stream.id());
        }
        Ok(h.raw)
    })?;
    f(raw)
}

/// cuSPARSE's data type of a value dtype its products take.
pub(crate) fn value_type(dtype: DType) -> Result<cs::cudaDataType> {
    Ok(cs::cudaDataType_t(match dtype {
        DType::Float32 => 0,
        DType::Float64 => 1,
        DType::Complex64 => 4,
        DType::Complex128 => 5,
        other => {
            return Err(Error::Unsupported(format!(
                "sparse products of dtype {other} (cuSPARSE takes float32, float64, \
                 complex64 and complex128)"
            )));
        }
    }))
}

fn index_type(dtype: DType) -> cs::cusparseIndexType_t {
    if dtype == DType::Int64 {
        cs::cusparseIndexType_t::CUSPARSE_INDEX_64I
    } else {
        cs::cusparseIndexType_t::CUSPARSE_INDEX_32I
    }
}

/// The bytes of the scalars 1 and 0 in `dtype` (the products' alpha and
/// beta, host pointer mode).
fn one_zero(dtype: DType) -> (Vec<u8>, Vec<u8>) {
    match dtype {
        DType::Float32 => (1f32.to_ne_bytes().to_vec(), 0f32.to_ne_bytes().to_vec()),
        DType::Complex64 => (
            [1f32.to_ne_bytes(), 0f32.to_ne_bytes()].concat(),
            [0f32.to_ne_bytes(), 0f32.to_ne_bytes()].concat(),
        ),
        DType::Complex128 => (
            [1f64.to_ne_bytes(), 0f64.to_ne_bytes()].concat(),
            [0f64.to_ne_bytes(), 0f64.to_ne_bytes()].concat(),
        ),
        _ => (1f64.to_ne_bytes().to_vec(), 0f64.to_ne_bytes().to_vec()),
    }
}

/// The compressed arrays a descriptor is made of: CSR (`csc` false) or
/// CSC (true) of logical shape `shape`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CompressedView<'a> {
    pub data: &'a Array,
    pub indices: &'a Array,
    pub indptr: &'a Array,
    pub shape: (usize, usize),
    pub csc: bool,
}

/// A cuSPARSE sparse-matrix descriptor (host memory naming the matrix's
/// device arrays).
struct SpMat(cs::cusparseSpMatDescr_t);

impl Drop for SpMat {
    fn drop(&mut self) {
        // SAFETY: created once by `SpMat::new`, destroyed once; host-only.
        let _ = unsafe { cs::cusparseDestroySpMat(self.0) };
    }
}

impl SpMat {
    fn new(m: CompressedView<'_>) -> Result<SpMat> {
        let vt = value_type(m.data.dtype())?;
        let it = index_type(m.indices.dtype());
        let mut d: cs::cusparseSpMatDescr_t = std::ptr::null_mut();
        let (rows, cols) = (m.shape.0 as i64, m.shape.1 as i64);
        let nnz = m.data.size() as i64;
        let (p, i, v) = (
            m.indptr.data_ptr().raw() as *mut c_void,
            m.indices.data_ptr().raw() as *mut c_void,
            m.data.data_ptr().raw() as *mut c_void,
        );
        let base = cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO;
        // SAFETY: `d` is a valid out-pointer; the addresses are those of the
        // matrix's contiguous arrays of `rows + 1` (or `cols + 1`) offsets
        // and `nnz` indices and values, which the descriptor's owner (the
        // matrix's cache) never outlives.
        let r = unsafe {
            if m.csc {
                cs::cusparseCreateCsc(&mut d, rows, cols, nnz, p, i, v, it, it, base, vt)
            } else {
                cs::cusparseCreateCsr(&mut d, rows, cols, nnz, p, i, v, it, it, base, vt)
            }
        };
        check(
            if m.csc {
                "cusparseCreateCsc"
            } else {
                "cusparseCreateCsr"
            },
            r,
        )?;
        Ok(SpMat(d))
    }
}

/// A dense vector or matrix descriptor, destroyed on drop.
enum Dense {
    Vec(cs::cusparseDnVecDescr_t),
    Mat(cs::cusparseDnMatDescr_t),
}

impl Drop for Dense {
    fn drop(&mut self) {
        // SAFETY: created once by `Dense::of`, destroyed once; host-only.
        unsafe {
            let _ = match self {
                Dense::Vec(d) => cs::cusparseDestroyDnVec(*d),
                Dense::Mat(d) => cs::cusparseDestroyDnMat(*d),
            };
        }
    }
}

impl Dense {
    /// A descriptor of `a`: a C-contiguous 1-D array (vector) or 2-D array
    /// (row-major matrix) of a product dtype.
    fn of(a: &Array) -> Result<Dense> {
        let vt = value_type(a.dtype())?;
        let p = a.data_ptr().raw() as *mut c_void;
        if a.ndim() == 1 {
            let mut d: cs::cusparseDnVecDescr_t = std::ptr::null_mut();
            // SAFETY: a valid out-pointer; `a` is contiguous with `size` elements.
            check("cusparseCreateDnVec", unsafe {
                cs::cusparseCreateDnVec(&mut d, a.size() as i64, p, vt)
            })?;
            return Ok(Dense::Vec(d));
        }
        let (r, c) = (a.shape()[0] as i64, a.shape()[1] as i64);
        let mut d: cs::cusparseDnMatDescr_t = std::ptr::null_mut();
        // SAFETY: a valid out-pointer; `a` is C-contiguous `r x c`, so
        // row-major with leading dimension `c` (at least 1, as cuSPARSE wants).
        check("cusparseCreateDnMat", unsafe {
            cs::cusparseCreateDnMat(
                &mut d,
                r,
                c,
                c.max(1),
                p,
                vt,
                cs::cusparseOrder_t::CUSPARSE_ORDER_ROW,
            )
        })?;
        Ok(Dense::Mat(d))
    }
}

/// Which product a plan is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Spmv,
    /// SpMM with this many dense columns (the buffer size depends on it).
    Spmm(usize),
}

/// A work buffer (and its preprocessing) for one kind of product on one
/// stream.
struct Plan {
    kind: Kind,
    stream: u64,
    buffer: Array,
}

#[derive(Default)]
struct Inner {
    descr: Option<SpMat>,
    plans: Vec<Plan>,
}

/// The cuSPARSE state cached on one matrix: its descriptor and the work
/// buffers of its products (module docs). Dropping it frees the buffers in
/// the order of their streams.
#[derive(Default)]
pub(crate) struct PlanCache {
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for PlanCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.inner.lock().map(|i| i.plans.len()).unwrap_or(0);
        write!(f, "PlanCache {{ plans: {n} }}")
    }
}

// SAFETY: the descriptor is host memory that cuSPARSE reads only inside
// the calls below, which run with the cache's mutex held; nothing else
// holds its pointer.
unsafe impl Send for Inner {}

/// Most plans kept per matrix: one per (kind, stream) in use; beyond this
/// the oldest goes (a matrix used on ever new streams must not grow
/// without bound).
const MAX_PLANS: usize = 8;

/// The SpMV algorithm: CSR_ALG2 is cuSPARSE's deterministic one (the same
/// bits on every run); for CSC (a transposed traversal) cuSPARSE's default.
fn spmv_alg(csc: bool) -> cs::cusparseSpMVAlg_t {
    if csc {
        cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT
    } else {
        cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_CSR_ALG2
    }
}

fn spmm_alg(csc: bool) -> cs::cusparseSpMMAlg_t {
    if csc {
        cs::cusparseSpMMAlg_t::CUSPARSE_SPMM_ALG_DEFAULT
    } else {
        // Row-major B and C with CSR: ALG2 is deterministic.
        cs::cusparseSpMMAlg_t::CUSPARSE_SPMM_CSR_ALG2
    }
}

impl PlanCache {
    /// `y = A @ x` into the fresh contiguous `y` (1-D: SpMV, 2-D row-major:
    /// SpMM), `x` contiguous of `A`'s dtype, shapes checked by the caller.
    pub(crate) fn product(&self, m: CompressedView<'_>, x: &Array, y: &Array) -> Result<()> {
        let dtype = m.data.dtype();
        let stream = y.stream();
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| Error::Value("a sparse product panicked earlier on this matrix".into()))?;
        if inner.descr.is_none() {
            inner.descr = Some(SpMat::new(m)?);
        }
        let a = inner.descr.as_ref().expect("made above").0 as cs::cusparseConstSpMatDescr_t;
        let (dx, dy) = (Dense::of(x)?, Dense::of(y)?);
        let (one, zero) = one_zero(dtype);
        let (alpha, beta) = (
            one.as_ptr() as *const c_void,
            zero.as_ptr() as *const c_void,
        );
        let vt = value_type(dtype)?;
        let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
        let kind = match (&dx, x.ndim()) {
            (Dense::Vec(_), _) => Kind::Spmv,
            (_, _) => Kind::Spmm(x.shape()[1]),
        };
        with_handle(&stream, |h| {
            let found = inner
                .plans
                .iter()
                .position(|p| p.kind == kind && p.stream == stream.id());
            let slot = match found {
                Some(k) => k,
                None => {
                    let mut bytes = 0usize;
                    // SAFETY: live descriptors of contiguous arrays of the
                    // shapes cuSPARSE is told; host scalars of the compute type.
                    let r = unsafe {
                        match (&dx, &dy) {
                            (Dense::Vec(vx), Dense::Vec(vy)) => cs::cusparseSpMV_bufferSize(
                                h,
                                op,
                                alpha,
                                a,
                                *vx,
                                beta,
                                *vy,
                                vt,
                                spmv_alg(m.csc),
                                &mut bytes,
                            ),
                            (Dense::Mat(mx), Dense::Mat(my)) => cs::cusparseSpMM_bufferSize(
                                h,
                                op,
                                op,
                                alpha,
                                a,
                                *mx,
                                beta,
                                *my,
                                vt,
                                spmm_alg(m.csc),
                                &mut bytes,
                            ),
                            _ => return Err(Error::Value("mismatched dense operands".into())),
                        }
                    };
                    check("cusparseSpMV/SpMM_bufferSize", r)?;
                    let buffer = Array::empty(bytes.max(16), DType::UInt8)?;
                    let b = buffer.data_ptr().raw() as *mut c_void;
                    // SAFETY: as above, with the buffer of the size asked for.
                    let r = unsafe {
                        match (&dx, &dy) {
                            (Dense::Vec(vx), Dense::Vec(vy)) => cs::cusparseSpMV_preprocess(
                                h,
                                op,
                                alpha,
                                a,
                                *vx,
                                beta,
                                *vy,
                                vt,
                                spmv_alg(m.csc),
                                b,
                            ),
                            (Dense::Mat(mx), Dense::Mat(my)) => cs::cusparseSpMM_preprocess(
                                h,
                                op,
                                op,
                                alpha,
                                a,
                                *mx,
                                beta,
                                *my,
                                vt,
                                spmm_alg(m.csc),
                                b,
                            ),
                            _ => unreachable!("checked above"),
                        }
                    };
                    check("cusparseSpMV/SpMM_preprocess", r)?;
                    if inner.plans.len() == MAX_PLANS {
                        inner.plans.remove(0);
                    }
                    inner.plans.push(Plan {
                        kind,
                        stream: stream.id(),
                        buffer,
                    });
                    inner.plans.len() - 1
                }
            };
            let b = inner.plans[slot].buffer.data_ptr().raw() as *mut c_void;
            // SAFETY: as above; the buffer was preprocessed for this matrix
            // and kind and is used only on this stream.
            let r = unsafe {
                match (&dx, &dy) {
                    (Dense::Vec(vx), Dense::Vec(vy)) => {
                        cs::cusparseSpMV(h, op, alpha, a, *vx, beta, *vy, vt, spmv_alg(m.csc), b)
                    }
                    (Dense::Mat(mx), Dense::Mat(my)) => cs::cusparseSpMM(
                        h,
                        op,
                        op,
                        alpha,
                        a,
                        *mx,
                        beta,
                        *my,
                        vt,
                        spmm_alg(m.csc),
                        b,
                    ),
                    _ => unreachable!("checked above"),
                }
            };
            check("cusparseSpMV/SpMM", r)
        })
    }
}

/// An SpGEMM descriptor, destroyed on drop.
struct SpGemmDescr(cs::cusparseSpGEMMDescr_t);

impl Drop for SpGemmDescr {
    fn drop(&mut self) {
        // SAFETY: created once by cusparseSpGEMM_createDescr, destroyed once.
        let _ = unsafe { cs::cusparseSpGEMM_destroyDescr(self.0) };
    }
}

/// The CSR arrays `(data, indices, indptr)` of `A @ B` for CSR `a` and
/// `b` of one product dtype and int32 indices (cuSPARSE's SpGEMM takes no
/// others), canonical inputs; the shapes checked by the caller. cuSPARSE's
/// default algorithm, deterministic; it reads the product's entry count
/// back to the host (one synchronisation, inherent in sizing the result).
pub(crate) fn spgemm(
    a: CompressedView<'_>,
    b: CompressedView<'_>,
) -> Result<(Array, Array, Array)> {
    let dtype = a.data.dtype();
    let vt = value_type(dtype)?;
    if a.indices.dtype() != DType::Int32 || b.indices.dtype() != DType::Int32 {
        return Err(Error::Unsupported(
            "sparse @ sparse with int64 indices (cuSPARSE's SpGEMM takes int32 indices only)"
                .into(),
        ));
    }
    let (rows, cols) = (a.shape.0, b.shape.1);
    let stream = Stream::current_on(a.data.device());
    let (da, db) = (SpMat::new(a)?, SpMat::new(b)?);
    let indptr = Array::empty(rows + 1, DType::Int32)?;
    let mut c: cs::cusparseSpMatDescr_t = std::ptr::null_mut();
    let it = cs::cusparseIndexType_t::CUSPARSE_INDEX_32I;
    // SAFETY: a valid out-pointer; the offsets array has rows + 1 int32s,
    // the columns and values are set before the copy writes them.
    check("cusparseCreateCsr", unsafe {
        cs::cusparseCreateCsr(
            &mut c,
            rows as i64,
            cols as i64,
            0,
            indptr.data_ptr().raw() as *mut c_void,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            it,
            it,
            cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO,
            vt,
        )
    })?;
    let dc = SpMat(c);
    let mut g: cs::cusparseSpGEMMDescr_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check("cusparseSpGEMM_createDescr", unsafe {
        cs::cusparseSpGEMM_createDescr(&mut g)
    })?;
    let g = SpGemmDescr(g);
    let (one, zero) = one_zero(dtype);
    let (alpha, beta) = (
        one.as_ptr() as *const c_void,
        zero.as_ptr() as *const c_void,
    );
    let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
    let alg = cs::cusparseSpGEMMAlg_t::CUSPARSE_SPGEMM_DEFAULT;
    let (ca, cb) = (
        da.0 as cs::cusparseConstSpMatDescr_t,
        db.0 as cs::cusparseConstSpMatDescr_t,
    );
    with_handle(&stream, |h| {
        // Each phase is asked its buffer size first (null buffer), then run.
        let mut size1 = 0usize;
        // SAFETY: (this and the calls below) live descriptors of the
        // matrices' contiguous arrays, host scalars of the compute type,
        // buffers of at least the sizes cuSPARSE asked for, kept alive
        // until the function returns (freed in stream order after).
        check("cusparseSpGEMM_workEstimation", unsafe {
            cs::cusparseSpGEMM_workEstimation(
                h,
                op,
                op,
                alpha,
                ca,
                cb,
                beta,
                dc.0,
                vt,
                alg,
                g.0,
                &mut size1,
                std::ptr::null_mut(),
            )
        })?;
        let buf1 = Array::empty(size1.max(16), DType::UInt8)?;
        // SAFETY: as above.
        check("cusparseSpGEMM_workEstimation", unsafe {
            cs::cusparseSpGEMM_workEstimation(
                h,
                op,
                op,
                alpha,
                ca,
                cb,
                beta,
                dc.0,
                vt,
                alg,
                g.0,
                &mut size1,
                buf1.data_ptr().raw() as *mut c_void,
            )
        })?;
        let mut size2 = 0usize;
        // SAFETY: as above.
        check("cusparseSpGEMM_compute", unsafe {
            cs::cusparseSpGEMM_compute(
                h,
                op,
                op,
                alpha,
                ca,
                cb,
                beta,
                dc.0,
                vt,
                alg,
                g.0,
                &mut size2,
                std::ptr::null_mut(),
            )
        })?;
        let buf2 = Array::empty(size2.max(16), DType::UInt8)?;
        // SAFETY: as above.
        check("cusparseSpGEMM_compute", unsafe {
            cs::cusparseSpGEMM_compute(
                h,
                op,
                op,
                alpha,
                ca,
                cb,
                beta,
                dc.0,
                vt,
                alg,
                g.0,
                &mut size2,
                buf2.data_ptr().raw() as *mut c_void,
            )
        })?;
        let (mut r, mut k, mut nnz) = (0i64, 0i64, 0i64);
        // SAFETY: as above.
        check("cusparseSpMatGetSize", unsafe {
            cs::cusparseSpMatGetSize(dc.0, &mut r, &mut k, &mut nnz)
        })?;
        let nnz = usize::try_from(nnz)
            .map_err(|_| Error::Value(format!("cuSPARSE reported {nnz} entries")))?;
        let indices = Array::empty(nnz.max(1), DType::Int32)?;
        let data = Array::empty(nnz.max(1), dtype)?;
        // SAFETY: as above.
        check("cusparseCsrSetPointers", unsafe {
            cs::cusparseCsrSetPointers(
                dc.0,
                indptr.data_ptr().raw() as *mut c_void,
                indices.data_ptr().raw() as *mut c_void,
                data.data_ptr().raw() as *mut c_void,
            )
        })?;
        // SAFETY: as above.
        check("cusparseSpGEMM_copy", unsafe {
            cs::cusparseSpGEMM_copy(h, op, op, alpha, ca, cb, beta, dc.0, vt, alg, g.0)
        })?;
        drop((buf1, buf2));
        let cut = |x: Array| -> Result<Array> {
            if nnz == 0 {
                x.get_index(&gpu_array::ix![..0])
            } else {
                Ok(x)
            }
        };
        Ok((cut(data)?, cut(indices)?, indptr))
    })
}
