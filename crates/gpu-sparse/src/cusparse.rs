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

use std::ffi::c_void;
use std::sync::Mutex;

use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::Stream;
use gpu_runtime::library_context::{HandleCache, HandleCalls, thread_handle};
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

thread_local! {
    static HANDLES: HandleCache<cs::cusparseHandle_t> = HandleCache::default();
}

/// Runs `f` with this thread's cuSPARSE handle of `stream`'s device, bound
/// to `stream` (host pointer mode, cuSPARSE's default).
pub(crate) fn with_handle<T>(
    stream: &Stream,
    f: impl FnOnce(cs::cusparseHandle_t) -> Result<T>,
) -> Result<T> {
    let calls = HandleCalls {
        create: || {
            let mut h: cs::cusparseHandle_t = std::ptr::null_mut();
            // SAFETY: `h` is a valid out-pointer; the device's context is current.
            check("cusparseCreate", unsafe { cs::cusparseCreate(&mut h) })?;
            Ok(h)
        },
        destroy: |h| {
            // SAFETY: created by cusparseCreate, destroyed once (by its cache).
            let _ = unsafe { cs::cusparseDestroy(h) };
        },
        set_stream: |h, s| {
            // SAFETY: a live handle; the stream belongs to its device and the
            // caller holds it for the calls enqueued.
            check("cusparseSetStream", unsafe {
                cs::cusparseSetStream(h, s as cs::cudaStream_t)
            })
        },
    };
    f(thread_handle(&HANDLES, stream, calls)?)
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
    /// `Some((R, C))`: BSR arrays over block rows, `data` of shape
    /// `(nblocks, R, C)` (row-major blocks), `indices` block columns.
    pub block: Option<(usize, usize)>,
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
        if let Some((br, bc)) = m.block {
            let brows = m.indptr.size().saturating_sub(1) as i64;
            let bcols = (m.shape.1 / bc.max(1)) as i64;
            // SAFETY: `d` is a valid out-pointer; the addresses are those of
            // the matrix's contiguous arrays of `brows + 1` block offsets,
            // `nnzb` block columns and `nnzb * R * C` values in row-major
            // blocks, which the descriptor's owner never outlives.
            let r = unsafe {
                cs::cusparseCreateBsr(
                    &mut d,
                    brows,
                    bcols,
                    m.indices.size() as i64,
                    br as i64,
                    bc as i64,
                    p,
                    i,
                    v,
                    it,
                    it,
                    base,
                    vt,
                    cs::cusparseOrder_t::CUSPARSE_ORDER_ROW,
                )
            };
            check("cusparseCreateBsr", r)?;
            return Ok(SpMat(d));
        }
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
    solves: Vec<SolvePlan>,
}

/// The cuSPARSE state cached on one matrix: its descriptor, the work
/// buffers of its products and the analyses of its triangular solves
/// (module docs). Dropping it frees the buffers in the order of their
/// streams.
#[derive(Default)]
pub(crate) struct PlanCache {
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for PlanCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, k) = self
            .inner
            .lock()
            .map(|i| (i.plans.len(), i.solves.len()))
            .unwrap_or((0, 0));
        write!(f, "PlanCache {{ plans: {n}, solves: {k} }}")
    }
}

// SAFETY: the descriptors (matrix, SpSV and SpSM) are host memory that
// cuSPARSE reads only inside the calls below, which run with the cache's
// mutex held; nothing else holds their pointers.
unsafe impl Send for Inner {}

/// Most plans kept per matrix: one per (kind, stream) in use; beyond this
/// the oldest goes (a matrix used on ever new streams must not grow
/// without bound).
const MAX_PLANS: usize = 8;

/// The SpMV algorithm: CSR_ALG2 is cuSPARSE's deterministic one (the same
/// bits on every run); for CSC (a transposed traversal) and BSR cuSPARSE's
/// default.
fn spmv_alg(m: CompressedView<'_>) -> cs::cusparseSpMVAlg_t {
    if m.csc || m.block.is_some() {
        cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_ALG_DEFAULT
    } else {
        cs::cusparseSpMVAlg_t::CUSPARSE_SPMV_CSR_ALG2
    }
}

fn spmm_alg(m: CompressedView<'_>) -> cs::cusparseSpMMAlg_t {
    if m.csc || m.block.is_some() {
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
                                spmv_alg(m),
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
                                spmm_alg(m),
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
                                spmv_alg(m),
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
                                spmm_alg(m),
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
                        cs::cusparseSpMV(h, op, alpha, a, *vx, beta, *vy, vt, spmv_alg(m), b)
                    }
                    (Dense::Mat(mx), Dense::Mat(my)) => {
                        cs::cusparseSpMM(h, op, op, alpha, a, *mx, beta, *my, vt, spmm_alg(m), b)
                    }
                    _ => unreachable!("checked above"),
                }
            };
            check("cusparseSpMV/SpMM", r)
        })
    }
}

/// What a cached triangular solve is for: the triangle, the diagonal, the
/// dtype it computes in, the stream, and the number of right-hand sides
/// (`None`: one vector, SpSV; `Some(k)`: a row-major `n x k` matrix, SpSM,
/// whose buffer depends on `k`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SolveKey {
    pub lower: bool,
    pub unit_diagonal: bool,
    pub dtype: DType,
    pub stream: u64,
    pub columns: Option<usize>,
}

/// An SpSV or SpSM descriptor (it holds the analysis), destroyed on drop.
enum SolveDescr {
    Sv(cs::cusparseSpSVDescr_t),
    Sm(cs::cusparseSpSMDescr_t),
}

impl Drop for SolveDescr {
    fn drop(&mut self) {
        // SAFETY: created once by `PlanCache::triangular_solve`, destroyed
        // once; host memory.
        unsafe {
            let _ = match self {
                SolveDescr::Sv(d) => cs::cusparseSpSV_destroyDescr(*d),
                SolveDescr::Sm(d) => cs::cusparseSpSM_destroyDescr(*d),
            };
        }
    }
}

/// One analysed triangular solve: the matrix descriptor with its fill
/// mode and diagonal type, the SpSV/SpSM descriptor holding cuSPARSE's
/// analysis, the buffer the analysis filled (read by every solve), and
/// the arrays the descriptor names (a canonical or cast copy of the
/// matrix's, kept alive here).
struct SolvePlan {
    key: SolveKey,
    descr: SolveDescr,
    mat: SpMat,
    buffer: Array,
    _arrays: (Array, Array, Array),
}

/// The arrays a triangular solve runs on: CSR `(data, indices, indptr)` of
/// an `n x n` matrix in the solve's dtype, made by the caller on the
/// first solve of a key only (the checks of the diagonal go there too).
pub(crate) type SolveArrays = (Array, Array, Array);

/// The 1 of `dtype` as host bytes (the solves' alpha).
fn one_of(dtype: DType) -> Vec<u8> {
    one_zero(dtype).0
}

impl PlanCache {
    /// Solves `T y = b` into the fresh contiguous `y` for the triangle of
    /// the `n x n` CSR matrix that `prepare` gives (called only when no
    /// analysis is cached for this key): SpSV for a 1-D `b`, SpSM for a
    /// row-major 2-D `b`; `b` contiguous in the solve's dtype. The first
    /// solve of a (triangle, diagonal, dtype, stream, columns) runs
    /// cuSPARSE's analysis and keeps it; later ones run only
    /// `cusparseSpSV_solve`/`cusparseSpSM_solve`.
    pub(crate) fn triangular_solve(
        &self,
        lower: bool,
        unit_diagonal: bool,
        n: usize,
        prepare: impl FnOnce() -> Result<SolveArrays>,
        b: &Array,
        y: &Array,
    ) -> Result<()> {
        let dtype = b.dtype();
        let vt = value_type(dtype)?;
        let stream = y.stream();
        let key = SolveKey {
            lower,
            unit_diagonal,
            dtype,
            stream: stream.id(),
            columns: (b.ndim() == 2).then(|| b.shape()[1]),
        };
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| Error::Value("a sparse solve panicked earlier on this matrix".into()))?;
        let found = inner.solves.iter().position(|p| p.key == key);
        let arrays = match found {
            Some(_) => None,
            None => Some(prepare()?),
        };
        let (db, dy) = (Dense::of(b)?, Dense::of(y)?);
        let one = one_of(dtype);
        let alpha = one.as_ptr() as *const c_void;
        let op = cs::cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
        let sv_alg = cs::cusparseSpSVAlg_t::CUSPARSE_SPSV_ALG_DEFAULT;
        let sm_alg = cs::cusparseSpSMAlg_t::CUSPARSE_SPSM_ALG_DEFAULT;
        with_handle(&stream, |h| {
            let slot = match (found, arrays) {
                (Some(k), _) => k,
                (None, Some(arrays)) => {
                    let mat = SpMat::new(CompressedView {
                        data: &arrays.0,
                        indices: &arrays.1,
                        indptr: &arrays.2,
                        shape: (n, n),
                        csc: false,
                        block: None,
                    })?;
                    let mut fill = if lower {
                        cs::cusparseFillMode_t::CUSPARSE_FILL_MODE_LOWER
                    } else {
                        cs::cusparseFillMode_t::CUSPARSE_FILL_MODE_UPPER
                    };
                    let mut diag = if unit_diagonal {
                        cs::cusparseDiagType_t::CUSPARSE_DIAG_TYPE_UNIT
                    } else {
                        cs::cusparseDiagType_t::CUSPARSE_DIAG_TYPE_NON_UNIT
                    };
                    // SAFETY: a live descriptor; each attribute's value is
                    // read from a local of the size given.
                    check("cusparseSpMatSetAttribute", unsafe {
                        cs::cusparseSpMatSetAttribute(
                            mat.0,
                            cs::cusparseSpMatAttribute_t::CUSPARSE_SPMAT_FILL_MODE,
                            &mut fill as *mut _ as *mut c_void,
                            std::mem::size_of_val(&fill),
                        )
                    })?;
                    // SAFETY: as above.
                    check("cusparseSpMatSetAttribute", unsafe {
                        cs::cusparseSpMatSetAttribute(
                            mat.0,
                            cs::cusparseSpMatAttribute_t::CUSPARSE_SPMAT_DIAG_TYPE,
                            &mut diag as *mut _ as *mut c_void,
                            std::mem::size_of_val(&diag),
                        )
                    })?;
                    let a = mat.0 as cs::cusparseConstSpMatDescr_t;
                    let mut bytes = 0usize;
                    let (descr, buffer) = match (&db, &dy) {
                        (Dense::Vec(vb), Dense::Vec(vy)) => {
                            let mut d: cs::cusparseSpSVDescr_t = std::ptr::null_mut();
                            // SAFETY: a valid out-pointer.
                            check("cusparseSpSV_createDescr", unsafe {
                                cs::cusparseSpSV_createDescr(&mut d)
                            })?;
                            let d = SolveDescr::Sv(d);
                            let SolveDescr::Sv(raw) = d else {
                                unreachable!("made above")
                            };
                            // SAFETY: live descriptors of contiguous arrays of
                            // the sizes cuSPARSE is told; a host alpha of the
                            // compute type; a valid out-pointer.
                            check("cusparseSpSV_bufferSize", unsafe {
                                cs::cusparseSpSV_bufferSize(
                                    h, op, alpha, a, *vb as _, *vy, vt, sv_alg, raw, &mut bytes,
                                )
                            })?;
                            let buffer = Array::empty(bytes.max(16), DType::UInt8)?;
                            // SAFETY: as above, with a buffer of the size asked
                            // for, kept with the descriptor for every solve.
                            check("cusparseSpSV_analysis", unsafe {
                                cs::cusparseSpSV_analysis(
                                    h,
                                    op,
                                    alpha,
                                    a,
                                    *vb as _,
                                    *vy,
                                    vt,
                                    sv_alg,
                                    raw,
                                    buffer.data_ptr().raw() as *mut c_void,
                                )
                            })?;
                            (d, buffer)
                        }
                        (Dense::Mat(mb), Dense::Mat(my)) => {
                            let mut d: cs::cusparseSpSMDescr_t = std::ptr::null_mut();
                            // SAFETY: a valid out-pointer.
                            check("cusparseSpSM_createDescr", unsafe {
                                cs::cusparseSpSM_createDescr(&mut d)
                            })?;
                            let d = SolveDescr::Sm(d);
                            let SolveDescr::Sm(raw) = d else {
                                unreachable!("made above")
                            };
                            // SAFETY: as for SpSV (row-major dense matrices).
                            check("cusparseSpSM_bufferSize", unsafe {
                                cs::cusparseSpSM_bufferSize(
                                    h, op, op, alpha, a, *mb as _, *my, vt, sm_alg, raw, &mut bytes,
                                )
                            })?;
                            let buffer = Array::empty(bytes.max(16), DType::UInt8)?;
                            // SAFETY: as for SpSV.
                            check("cusparseSpSM_analysis", unsafe {
                                cs::cusparseSpSM_analysis(
                                    h,
                                    op,
                                    op,
                                    alpha,
                                    a,
                                    *mb as _,
                                    *my,
                                    vt,
                                    sm_alg,
                                    raw,
                                    buffer.data_ptr().raw() as *mut c_void,
                                )
                            })?;
                            (d, buffer)
                        }
                        _ => return Err(Error::Value("mismatched dense operands".into())),
                    };
                    if inner.solves.len() == MAX_PLANS {
                        inner.solves.remove(0);
                    }
                    inner.solves.push(SolvePlan {
                        key,
                        descr,
                        mat,
                        buffer,
                        _arrays: arrays,
                    });
                    inner.solves.len() - 1
                }
                (None, None) => unreachable!("prepared above"),
            };
            let plan = &inner.solves[slot];
            let a = plan.mat.0 as cs::cusparseConstSpMatDescr_t;
            let _ = &plan.buffer;
            match (&plan.descr, &db, &dy) {
                (SolveDescr::Sv(d), Dense::Vec(vb), Dense::Vec(vy)) => {
                    // SAFETY: the analysed descriptors of this key (same
                    // matrix arrays, dtype and sizes); the analysis buffer
                    // lives in the plan and is used on this stream only;
                    // `b` and `y` are contiguous of `n` elements.
                    check("cusparseSpSV_solve", unsafe {
                        cs::cusparseSpSV_solve(h, op, alpha, a, *vb as _, *vy, vt, sv_alg, *d)
                    })
                }
                (SolveDescr::Sm(d), Dense::Mat(mb), Dense::Mat(my)) => {
                    // SAFETY: as for SpSV, with row-major `n x k` matrices.
                    check("cusparseSpSM_solve", unsafe {
                        cs::cusparseSpSM_solve(h, op, op, alpha, a, *mb as _, *my, vt, sm_alg, *d)
                    })
                }
                _ => Err(Error::Value("mismatched dense operands".into())),
            }
        })
    }

    /// How many triangular-solve analyses this matrix keeps (one per
    /// (triangle, diagonal, dtype, stream, columns) in use).
    pub(crate) fn solve_plans(&self) -> usize {
        self.inner.lock().map(|i| i.solves.len()).unwrap_or(0)
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
        // SAFETY: (both phases) live descriptors of the matrices'
        // contiguous arrays, host scalars of the compute type, a null buffer
        // or one of at least the size cuSPARSE asked for, kept alive until
        // the function returns (freed in stream order after).
        let estimate = |size: &mut usize, buf: *mut c_void| unsafe {
            cs::cusparseSpGEMM_workEstimation(
                h, op, op, alpha, ca, cb, beta, dc.0, vt, alg, g.0, size, buf,
            )
        };
        // SAFETY: as for `estimate`.
        let compute = |size: &mut usize, buf: *mut c_void| unsafe {
            cs::cusparseSpGEMM_compute(
                h, op, op, alpha, ca, cb, beta, dc.0, vt, alg, g.0, size, buf,
            )
        };
        let mut size1 = 0usize;
        check(
            "cusparseSpGEMM_workEstimation",
            estimate(&mut size1, std::ptr::null_mut()),
        )?;
        let buf1 = Array::empty(size1.max(16), DType::UInt8)?;
        check(
            "cusparseSpGEMM_workEstimation",
            estimate(&mut size1, buf1.data_ptr().raw() as *mut c_void),
        )?;
        let mut size2 = 0usize;
        check(
            "cusparseSpGEMM_compute",
            compute(&mut size2, std::ptr::null_mut()),
        )?;
        let buf2 = Array::empty(size2.max(16), DType::UInt8)?;
        check(
            "cusparseSpGEMM_compute",
            compute(&mut size2, buf2.data_ptr().raw() as *mut c_void),
        )?;
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

/// A legacy matrix descriptor (general, zero-based indices), which
/// cuSPARSE's `csrilu02` and cuSOLVER's sparse solvers take in place of
/// the generic API's; host memory, destroyed on drop.
pub(crate) struct MatDescr(pub(crate) cs::cusparseMatDescr_t);

impl Drop for MatDescr {
    fn drop(&mut self) {
        // SAFETY: created once by `MatDescr::general`, destroyed once.
        let _ = unsafe { cs::cusparseDestroyMatDescr(self.0) };
    }
}

// SAFETY: host memory that the library reads only inside the calls made
// with it; the owner passes it to one call at a time.
unsafe impl Send for MatDescr {}

impl MatDescr {
    /// A general matrix with zero-based indices.
    pub(crate) fn general() -> Result<MatDescr> {
        let mut d: cs::cusparseMatDescr_t = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        check("cusparseCreateMatDescr", unsafe {
            cs::cusparseCreateMatDescr(&mut d)
        })?;
        let d = MatDescr(d);
        // SAFETY: a live descriptor (these are its defaults; set so the
        // code says what it relies on).
        check("cusparseSetMatType", unsafe {
            cs::cusparseSetMatType(d.0, cs::cusparseMatrixType_t::CUSPARSE_MATRIX_TYPE_GENERAL)
        })?;
        // SAFETY: as above.
        check("cusparseSetMatIndexBase", unsafe {
            cs::cusparseSetMatIndexBase(d.0, cs::cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO)
        })?;
        Ok(d)
    }
}

/// A `csrilu02` info object, destroyed on drop.
struct IluInfo(cs::csrilu02Info_t);

impl Drop for IluInfo {
    fn drop(&mut self) {
        // SAFETY: created once by cusparseCreateCsrilu02Info, destroyed once.
        let _ = unsafe { cs::cusparseDestroyCsrilu02Info(self.0) };
    }
}

/// Calls the `S`, `D`, `C` or `Z` variant of a legacy cuSPARSE function
/// by `dtype`, the value pointer `v` cast to the variant's type.
macro_rules! per_dtype {
    ($dtype:expr, [$s:path, $d:path, $c:path, $z:path], ($($a:expr),*), $v:expr, ($($b:expr),*)) => {
        match $dtype {
            DType::Float32 => $s($($a,)* $v as _, $($b),*),
            DType::Float64 => $d($($a,)* $v as _, $($b),*),
            DType::Complex64 => $c($($a,)* $v as _, $($b),*),
            _ => $z($($a,)* $v as _, $($b),*),
        }
    };
}

/// The first zero pivot `csrilu02` found (`None`: none). Reads it back to
/// the host (the call waits for the device).
fn ilu_zero_pivot(h: cs::cusparseHandle_t, info: &IluInfo) -> Result<Option<i32>> {
    let mut position: i32 = -1;
    // SAFETY: a live handle and info object; a valid out-pointer (host
    // pointer mode).
    let r = unsafe { cs::cusparseXcsrilu02_zeroPivot(h, info.0, &mut position) };
    match r {
        Ok(s) if s.0 == 9 => Ok(Some(position)),
        r => check("cusparseXcsrilu02_zeroPivot", r).map(|_| None),
    }
}

/// cuSPARSE's incomplete LU without fill (`csrilu02`, ILU(0)) of the
/// square CSR matrix `m` (canonical, int32 indices, a product dtype, at
/// least one entry): the factors' values on `m`'s pattern, in a fresh
/// array (`L` strictly below the diagonal, its unit diagonal implied, `U`
/// on and above). A structural zero (a missing diagonal entry) or a zero
/// pivot is SciPy's `RuntimeError("Factor is exactly singular")`; finding
/// one reads two ints back to the host.
pub(crate) fn csrilu0(m: CompressedView<'_>) -> Result<Array> {
    let dtype = m.data.dtype();
    value_type(dtype)?;
    if m.indices.dtype() != DType::Int32 || m.indptr.dtype() != DType::Int32 {
        return Err(Error::Unsupported(
            "spilu with int64 indices (cuSPARSE's csrilu02 takes int32 indices only)".into(),
        ));
    }
    let n = i32::try_from(m.shape.0)
        .map_err(|_| Error::Unsupported("spilu of more than 2^31 - 1 rows".into()))?;
    let nnz = i32::try_from(m.data.size())
        .map_err(|_| Error::Unsupported("spilu of more than 2^31 - 1 entries".into()))?;
    let values = m.data.copy()?;
    let stream = values.stream();
    let descr = MatDescr::general()?;
    let mut info: cs::csrilu02Info_t = std::ptr::null_mut();
    // SAFETY: a valid out-pointer.
    check("cusparseCreateCsrilu02Info", unsafe {
        cs::cusparseCreateCsrilu02Info(&mut info)
    })?;
    let info = IluInfo(info);
    let (v, p, i) = (
        values.data_ptr().raw() as *mut c_void,
        m.indptr.data_ptr().raw() as *const i32,
        m.indices.data_ptr().raw() as *const i32,
    );
    let policy = cs::cusparseSolvePolicy_t::CUSPARSE_SOLVE_POLICY_USE_LEVEL;
    let singular = || Error::NumpyRuntime("Factor is exactly singular".into());
    with_handle(&stream, |h| {
        let mut bytes: i32 = 0;
        // SAFETY: (this and the calls below) a live handle, descriptor and
        // info; `p`, `i` and `v` address the canonical matrix's `n + 1`
        // offsets, `nnz` column indices and `nnz` values (a fresh copy the
        // factorization overwrites) of the dtype of the variant called.
        check("cusparse<t>csrilu02_bufferSize", unsafe {
            per_dtype!(
                dtype,
                [
                    cs::cusparseScsrilu02_bufferSize,
                    cs::cusparseDcsrilu02_bufferSize,
                    cs::cusparseCcsrilu02_bufferSize,
                    cs::cusparseZcsrilu02_bufferSize
                ],
                (h, n, nnz, descr.0),
                v,
                (p, i, info.0, &mut bytes)
            )
        })?;
        let buffer = Array::empty((bytes.max(16)) as usize, DType::UInt8)?;
        let b = buffer.data_ptr().raw() as *mut c_void;
        // SAFETY: as above, with a buffer of the size asked for.
        check("cusparse<t>csrilu02_analysis", unsafe {
            per_dtype!(
                dtype,
                [
                    cs::cusparseScsrilu02_analysis,
                    cs::cusparseDcsrilu02_analysis,
                    cs::cusparseCcsrilu02_analysis,
                    cs::cusparseZcsrilu02_analysis
                ],
                (h, n, nnz, descr.0),
                v,
                (p, i, info.0, policy, b)
            )
        })?;
        if ilu_zero_pivot(h, &info)?.is_some() {
            return Err(singular());
        }
        // SAFETY: as above.
        check("cusparse<t>csrilu02", unsafe {
            per_dtype!(
                dtype,
                [
                    cs::cusparseScsrilu02,
                    cs::cusparseDcsrilu02,
                    cs::cusparseCcsrilu02,
                    cs::cusparseZcsrilu02
                ],
                (h, n, nnz, descr.0),
                v,
                (p, i, info.0, policy, b)
            )
        })?;
        if ilu_zero_pivot(h, &info)?.is_some() {
            return Err(singular());
        }
        // The buffer is freed in stream order, after the factorization.
        drop(buffer);
        Ok(())
    })?;
    Ok(values)
}
