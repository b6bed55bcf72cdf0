//! cuSOLVER calls, one matrix per call, through the 64-bit generic API
//! (`cusolverDnX*`) where it exists; `orgqr`/`ungqr` only has the typed
//! legacy form. Each call asks for its workspace sizes, takes the device
//! workspace from the memory pool on the call's stream (returned in that
//! stream's order) and, when the routine wants a host workspace, waits for
//! the stream before freeing it.
//!
//! Every function here shares one contract: the pointers address live
//! device memory of `stream`'s device holding the column-major matrices
//! the arguments describe (leading dimensions at least the row counts),
//! `info` one `int` and `ipiv` `n` `int64`s; the caller checked the dtypes.

use std::ffi::c_void;

use gpu_array::DType;
use gpu_runtime::memory::alloc_on;
use gpu_runtime::{DevicePtr, Memory, Stream};
use gpu_sys::cusolver as cs;

use super::handles::{check_solver, with_cusolver};
use crate::error::{Result, unsupported};

/// cuSOLVER's `cudaDataType` of a dtype.
fn ty(dtype: DType) -> Result<cs::cudaDataType_t> {
    Ok(cs::cudaDataType_t(match dtype {
        DType::Float32 => 0,
        DType::Float64 => 1,
        DType::Complex64 => 4,
        DType::Complex128 => 5,
        other => {
            return Err(unsupported(format!("cuSOLVER does not take dtype {other}")));
        }
    }))
}

fn fill(upper: bool) -> cs::cublasFillMode_t {
    if upper {
        cs::cublasFillMode_t::CUBLAS_FILL_MODE_UPPER
    } else {
        cs::cublasFillMode_t::CUBLAS_FILL_MODE_LOWER
    }
}

/// The eigenvector (or singular vector) mode: computed or not.
fn eig_mode(vectors: bool) -> cs::cusolverEigMode_t {
    if vectors {
        cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR
    } else {
        cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR
    }
}

fn p(ptr: DevicePtr) -> *mut c_void {
    ptr.raw() as *mut c_void
}

/// The two workspaces of one call.
struct Work {
    device: Memory,
    host: Vec<u8>,
}

impl Work {
    fn new(stream: &Stream, device: usize, host: usize) -> Result<Work> {
        Ok(Work {
            device: alloc_on(device.max(1), stream)?,
            host: vec![0u8; host],
        })
    }

    fn dptr(&self) -> *mut c_void {
        self.device.ptr().raw() as *mut c_void
    }

    fn dlen(&self) -> usize {
        self.device.size()
    }

    fn hptr(&mut self) -> *mut c_void {
        if self.host.is_empty() {
            std::ptr::null_mut()
        } else {
            self.host.as_mut_ptr().cast()
        }
    }

    /// Keeps the host workspace alive until the stream is done with it.
    fn finish(self, stream: &Stream) -> Result<()> {
        if !self.host.is_empty() {
            stream.synchronize()?;
        }
        drop(self.device);
        Ok(())
    }
}

/// Runs one generic-API routine `$f` whose size query `$bs` takes the
/// same arguments (after the handle and params) up to its two size
/// out-pointers: asks for the device and host workspace sizes, allocates
/// them and calls `$f` with the workspaces, the `info` word and any
/// trailing `$extra` arguments. Evaluates to the [`Work`], which the
/// caller [`Work::finish`]es.
macro_rules! x_call {
    (
        $stream:expr, $h:expr, $params:expr, $bs:ident, $f:ident,
        ($($arg:expr),* $(,)?), $info:expr $(, $extra:expr)*
    ) => {{
        let (mut dw, mut hw) = (0usize, 0usize);
        // SAFETY: the module's contract and the arguments the caller
        // documents; the size out-pointers are locals.
        check_solver(stringify!($bs), unsafe {
            cs::$bs($h, $params, $($arg,)* &mut dw, &mut hw)
        })?;
        let mut w = Work::new($stream, dw, hw)?;
        // SAFETY: as above; the workspaces are as large as asked.
        check_solver(stringify!($f), unsafe {
            cs::$f(
                $h,
                $params,
                $($arg,)*
                w.dptr(),
                w.dlen(),
                w.hptr(),
                w.host.len(),
                $info.raw() as *mut i32,
                $($extra,)*
            )
        })?;
        w
    }};
}

/// Cholesky factorization in place (`potrf`): the `upper` or lower triangle
/// of the `n x n` matrix at `a`.
pub(crate) fn potrf(
    stream: &Stream,
    dtype: DType,
    upper: bool,
    n: i64,
    a: DevicePtr,
    lda: i64,
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    with_cusolver(stream, |h, params| {
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXpotrf_bufferSize,
            cusolverDnXpotrf,
            (fill(upper), n, t, p(a), lda, t),
            info
        );
        w.finish(stream)
    })
}

/// LU factorization with partial pivoting in place (`getrf`); `ipiv`
/// receives `min(m, n)` 1-based `int64` pivots.
#[allow(clippy::too_many_arguments)]
pub(crate) fn getrf(
    stream: &Stream,
    dtype: DType,
    m: i64,
    n: i64,
    a: DevicePtr,
    lda: i64,
    ipiv: DevicePtr,
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    with_cusolver(stream, |h, params| {
        let (mut dw, mut hw) = (0usize, 0usize);
        // SAFETY: the module's contract.
        check_solver("cusolverDnXgetrf_bufferSize", unsafe {
            cs::cusolverDnXgetrf_bufferSize(h, params, m, n, t, p(a), lda, t, &mut dw, &mut hw)
        })?;
        let mut w = Work::new(stream, dw, hw)?;
        // SAFETY: the module's contract.
        check_solver("cusolverDnXgetrf", unsafe {
            cs::cusolverDnXgetrf(
                h,
                params,
                m,
                n,
                t,
                p(a),
                lda,
                ipiv.raw() as *mut i64,
                t,
                w.dptr(),
                w.dlen(),
                w.hptr(),
                w.host.len(),
                info.raw() as *mut i32,
            )
        })?;
        w.finish(stream)
    })
}

/// Solves `op(A) X = B` in place of `B` (`n x nrhs`) from `getrf`'s
/// factors; `trans` 0: `A`, 1: `A^T`, 2: `A^H`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn getrs(
    stream: &Stream,
    dtype: DType,
    trans: u32,
    (n, nrhs): (i64, i64),
    (a, lda): (DevicePtr, i64),
    ipiv: DevicePtr,
    (b, ldb): (DevicePtr, i64),
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    with_cusolver(stream, |h, params| {
        // SAFETY: the module's contract.
        check_solver("cusolverDnXgetrs", unsafe {
            cs::cusolverDnXgetrs(
                h,
                params,
                cs::cublasOperation_t(trans),
                n,
                nrhs,
                t,
                p(a),
                lda,
                ipiv.raw() as *const i64,
                t,
                p(b),
                ldb,
                info.raw() as *mut i32,
            )
        })
    })
}

/// QR factorization in place (`geqrf`): `R` in the upper triangle,
/// Householder vectors below, `min(m, n)` scalars in `tau`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn geqrf(
    stream: &Stream,
    dtype: DType,
    m: i64,
    n: i64,
    a: DevicePtr,
    lda: i64,
    tau: DevicePtr,
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    with_cusolver(stream, |h, params| {
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXgeqrf_bufferSize,
            cusolverDnXgeqrf,
            (m, n, t, p(a), lda, t, p(tau), t),
            info
        );
        w.finish(stream)
    })
}

/// Forms the `m x n` matrix `Q` with orthonormal columns from `k`
/// Householder reflectors (`orgqr`/`ungqr`) in place of `a`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn orgqr(
    stream: &Stream,
    dtype: DType,
    (m, n, k): (i64, i64, i64),
    a: DevicePtr,
    lda: i64,
    tau: DevicePtr,
    info: DevicePtr,
) -> Result<()> {
    let to32 = |v: i64| {
        i32::try_from(v).map_err(|_| {
            unsupported(format!(
                "qr: {v} exceeds the 32-bit range of cusolverDn*orgqr"
            ))
        })
    };
    let (m, n, k, lda) = (to32(m)?, to32(n)?, to32(k)?, to32(lda)?);
    let item = dtype.itemsize();
    macro_rules! run {
        ($bs:ident, $f:ident, $t:ty) => {{
            with_cusolver(stream, |h, _| {
                let mut lwork = 0i32;
                // SAFETY: the module's contract.
                check_solver(stringify!($bs), unsafe {
                    cs::$bs(
                        h,
                        m,
                        n,
                        k,
                        a.raw() as *const $t,
                        lda,
                        tau.raw() as *const $t,
                        &mut lwork,
                    )
                })?;
                let w = Work::new(stream, lwork.max(1) as usize * item, 0)?;
                // SAFETY: the module's contract; `lwork` elements of workspace.
                check_solver(stringify!($f), unsafe {
                    cs::$f(
                        h,
                        m,
                        n,
                        k,
                        a.raw() as *mut $t,
                        lda,
                        tau.raw() as *const $t,
                        w.dptr().cast(),
                        lwork,
                        info.raw() as *mut i32,
                    )
                })?;
                w.finish(stream)
            })
        }};
    }
    super::sdcz!(
        dtype,
        "qr",
        run,
        [cusolverDnSorgqr_bufferSize, cusolverDnSorgqr, f32],
        [cusolverDnDorgqr_bufferSize, cusolverDnDorgqr, f64],
        [cusolverDnCungqr_bufferSize, cusolverDnCungqr, cs::float2],
        [cusolverDnZungqr_bufferSize, cusolverDnZungqr, cs::double2],
    )
}

/// Eigenvalues (ascending, into `w` of the real dtype) and, with
/// `vectors`, eigenvectors in place of `a`, of the Hermitian `n x n`
/// matrix whose `upper` or lower triangle is read (`syevd`/`heevd`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn syevd(
    stream: &Stream,
    dtype: DType,
    vectors: bool,
    upper: bool,
    n: i64,
    a: DevicePtr,
    lda: i64,
    w_ptr: DevicePtr,
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    let tw = ty(dtype.real_dtype())?;
    let jobz = eig_mode(vectors);
    with_cusolver(stream, |h, params| {
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXsyevd_bufferSize,
            cusolverDnXsyevd,
            (jobz, fill(upper), n, t, p(a), lda, tw, p(w_ptr), t),
            info
        );
        w.finish(stream)
    })
}

/// The outputs of an SVD call: singular values, and `U`/`VT` (gesvd) or
/// `U`/`V` (gesvdp) with their leading dimensions (unused when not asked).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SvdOut {
    pub s: DevicePtr,
    pub u: DevicePtr,
    pub ldu: i64,
    pub v: DevicePtr,
    pub ldv: i64,
}

/// SVD by the QR algorithm (`gesvd`, `m >= n`): `jobu`/`jobvt` as LAPACK's
/// (`b'A'`, `b'S'`, `b'N'`); `a` is destroyed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gesvd(
    stream: &Stream,
    dtype: DType,
    (jobu, jobvt): (u8, u8),
    (m, n): (i64, i64),
    a: DevicePtr,
    lda: i64,
    out: SvdOut,
    info: DevicePtr,
) -> Result<()> {
    let t = ty(dtype)?;
    let tr = ty(dtype.real_dtype())?;
    with_cusolver(stream, |h, params| {
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXgesvd_bufferSize,
            cusolverDnXgesvd,
            (
                jobu as i8,
                jobvt as i8,
                m,
                n,
                t,
                p(a),
                lda,
                tr,
                p(out.s),
                t,
                p(out.u),
                out.ldu,
                t,
                p(out.v),
                out.ldv,
                t,
            ),
            info
        );
        w.finish(stream)
    })
}

/// SVD through a polar decomposition and `syevd` (`gesvdp`, much faster
/// than `gesvd`), always with vectors: `econ` gives the reduced `U`
/// (`m x min(m, n)`) and `V` (`n x min(m, n)`), else the full ones; `U`
/// and `V` must be that large. Returns `V`, not `V^H`. Blocks until done
/// (it reports its error estimate on the host).
///
/// The values-only mode (`NOVECTOR`) is deliberately not offered: on an
/// H200 (CUDA 13) it returned wrong singular values for a 40 x 35 matrix
/// and overwrote memory past 1-element `U`/`V` placeholders; values only
/// go through [`gesvd`] with `jobu = jobvt = 'N'`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gesvdp(
    stream: &Stream,
    dtype: DType,
    econ: bool,
    (m, n): (i64, i64),
    a: DevicePtr,
    lda: i64,
    out: SvdOut,
    info: DevicePtr,
) -> Result<f64> {
    let t = ty(dtype)?;
    let tr = ty(dtype.real_dtype())?;
    let jobz = cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_VECTOR;
    let econ = i32::from(econ);
    with_cusolver(stream, |h, params| {
        let mut err_sigma = 0f64;
        // `err_sigma` is a host out-value the call writes.
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXgesvdp_bufferSize,
            cusolverDnXgesvdp,
            (
                jobz,
                econ,
                m,
                n,
                t,
                p(a),
                lda,
                tr,
                p(out.s),
                t,
                p(out.u),
                out.ldu,
                t,
                p(out.v),
                out.ldv,
                t,
            ),
            info,
            &mut err_sigma
        );
        // The host error estimate is written by the call; make sure it is
        // final before reading it.
        stream.synchronize()?;
        w.finish(stream)?;
        Ok(err_sigma)
    })
}

/// Eigenvalues (into `w`, of `a`'s complex dtype) and, with `vectors`,
/// right eigenvectors (into `vr`, `n x n`, leading dimension `ldvr`) of
/// the general complex `n x n` matrix at `a` (`geev`, which destroys
/// `a`). Left eigenvectors are not computed. `vr` must hold `n x n`
/// elements even without vectors (the caller's margin: LAPACK does not
/// reference it then). Waits for the stream (the routine works
/// partly on the host).
#[allow(clippy::too_many_arguments)]
pub(crate) fn geev(
    stream: &Stream,
    dtype: DType,
    vectors: bool,
    n: i64,
    (a, lda): (DevicePtr, i64),
    w_ptr: DevicePtr,
    (vr, ldvr): (DevicePtr, i64),
    info: DevicePtr,
) -> Result<()> {
    if !dtype.is_complex() {
        return Err(unsupported(format!(
            "geev is called with complex data, not {dtype}"
        )));
    }
    let t = ty(dtype)?;
    let novec = cs::cusolverEigMode_t::CUSOLVER_EIG_MODE_NOVECTOR;
    let jobvr = eig_mode(vectors);
    with_cusolver(stream, |h, params| {
        // No left vectors are asked for, so VL is not read (its leading
        // dimension is LAPACK's minimum).
        let w = x_call!(
            stream,
            h,
            params,
            cusolverDnXgeev_bufferSize,
            cusolverDnXgeev,
            (
                novec,
                jobvr,
                n,
                t,
                p(a),
                lda,
                t,
                p(w_ptr),
                t,
                std::ptr::null_mut(),
                1,
                t,
                p(vr),
                ldvr,
                t,
            ),
            info
        );
        w.finish(stream)
    })
}

/// Cholesky factorizations of `batch` small `n x n` matrices whose
/// addresses are the device array `a_ptrs` (`potrfBatched`): the `upper`
/// or lower triangle, one `int` per matrix into `info`.
pub(crate) fn potrf_batched(
    stream: &Stream,
    dtype: DType,
    upper: bool,
    n: i64,
    (a_ptrs, lda): (DevicePtr, i64),
    info: DevicePtr,
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("potrfBatched", v);
    let (n, lda, batch) = (to32(n)?, to32(lda)?, to32(batch)?);
    let inf = info.raw() as *mut i32;
    macro_rules! call {
        ($f:ident, $t:ty) => {
            with_cusolver(stream, |h, _| {
                // SAFETY: the module's contract; `a_ptrs` holds `batch`
                // addresses of such matrices.
                check_solver(stringify!($f), unsafe {
                    cs::$f(
                        h,
                        fill(upper),
                        n,
                        a_ptrs.raw() as *mut *mut $t,
                        lda,
                        inf,
                        batch,
                    )
                })
            })
        };
    }
    super::sdcz!(
        dtype,
        "cholesky",
        call,
        [cusolverDnSpotrfBatched, f32],
        [cusolverDnDpotrfBatched, f64],
        [cusolverDnCpotrfBatched, cs::float2],
        [cusolverDnZpotrfBatched, cs::double2],
    )
}

/// Eigenvalues (ascending) and, with `vectors`, eigenvectors in place of
/// `batch` Hermitian `n x n` matrices stored one after another (`n * n`
/// elements apart, leading dimension `n`) by Jacobi sweeps
/// (`syevjBatched`, for `n <= 32`): `w` gets `n` values per matrix,
/// `info` one `int` per matrix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn syevj_batched(
    stream: &Stream,
    dtype: DType,
    vectors: bool,
    upper: bool,
    n: i64,
    a: DevicePtr,
    w_ptr: DevicePtr,
    info: DevicePtr,
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("syevjBatched", v);
    let (n, batch) = (to32(n)?, to32(batch)?);
    let jobz = eig_mode(vectors);
    let item = dtype.itemsize();
    macro_rules! call {
        ($bs:ident, $f:ident, $t:ty, $r:ty) => {
            super::handles::with_cusolver_jacobi(stream, |h, jacobi| {
                let params = jacobi.syevj;
                let mut lwork = 0i32;
                // SAFETY: the module's contract; `params` is the handle's
                // live syevjInfo.
                check_solver(stringify!($bs), unsafe {
                    cs::$bs(
                        h,
                        jobz,
                        fill(upper),
                        n,
                        a.raw() as *const $t,
                        n,
                        w_ptr.raw() as *const $r,
                        &mut lwork,
                        params,
                        batch,
                    )
                })?;
                let w = Work::new(stream, lwork.max(1) as usize * item, 0)?;
                // SAFETY: as above, with `lwork` elements of workspace.
                check_solver(stringify!($f), unsafe {
                    cs::$f(
                        h,
                        jobz,
                        fill(upper),
                        n,
                        a.raw() as *mut $t,
                        n,
                        w_ptr.raw() as *mut $r,
                        w.dptr().cast(),
                        lwork,
                        info.raw() as *mut i32,
                        params,
                        batch,
                    )
                })?;
                w.finish(stream)
            })
        };
    }
    super::sdcz!(
        dtype,
        "eigh",
        call,
        [
            cusolverDnSsyevjBatched_bufferSize,
            cusolverDnSsyevjBatched,
            f32,
            f32
        ],
        [
            cusolverDnDsyevjBatched_bufferSize,
            cusolverDnDsyevjBatched,
            f64,
            f64
        ],
        [
            cusolverDnCheevjBatched_bufferSize,
            cusolverDnCheevjBatched,
            cs::float2,
            f32
        ],
        [
            cusolverDnZheevjBatched_bufferSize,
            cusolverDnZheevjBatched,
            cs::double2,
            f64
        ],
    )
}

/// SVDs of `batch` small `m x n` matrices (`m, n <= 32`) stored one after
/// another (`lda = m`, `m * n` elements apart) by Jacobi sweeps
/// (`gesvdjBatched`): singular values (descending) into `s`
/// (`min(m, n)` per matrix), and the full `U` (`m x m`, `ldu = m`) and
/// `V` (not `V^H`; `n x n`, `ldv = n`) per matrix, one `int` per matrix
/// into `info`. `u` and `v` must be allocated even without vectors.
#[allow(clippy::too_many_arguments)]
pub(crate) fn gesvdj_batched(
    stream: &Stream,
    dtype: DType,
    vectors: bool,
    (m, n): (i64, i64),
    a: DevicePtr,
    out: SvdOut,
    info: DevicePtr,
    batch: i64,
) -> Result<()> {
    let to32 = |v: i64| super::int32("gesvdjBatched", v);
    let (m, n, ldu, ldv, batch) = (
        to32(m)?,
        to32(n)?,
        to32(out.ldu)?,
        to32(out.ldv)?,
        to32(batch)?,
    );
    let jobz = eig_mode(vectors);
    let item = dtype.itemsize();
    macro_rules! call {
        ($bs:ident, $f:ident, $t:ty, $r:ty) => {
            super::handles::with_cusolver_jacobi(stream, |h, jacobi| {
                let params = jacobi.gesvdj;
                let mut lwork = 0i32;
                // SAFETY: the module's contract; `params` is the handle's
                // live gesvdjInfo.
                check_solver(stringify!($bs), unsafe {
                    cs::$bs(
                        h,
                        jobz,
                        m,
                        n,
                        a.raw() as *const $t,
                        m,
                        out.s.raw() as *const $r,
                        out.u.raw() as *const $t,
                        ldu,
                        out.v.raw() as *const $t,
                        ldv,
                        &mut lwork,
                        params,
                        batch,
                    )
                })?;
                let w = Work::new(stream, lwork.max(1) as usize * item, 0)?;
                // SAFETY: as above, with `lwork` elements of workspace.
                check_solver(stringify!($f), unsafe {
                    cs::$f(
                        h,
                        jobz,
                        m,
                        n,
                        a.raw() as *mut $t,
                        m,
                        out.s.raw() as *mut $r,
                        out.u.raw() as *mut $t,
                        ldu,
                        out.v.raw() as *mut $t,
                        ldv,
                        w.dptr().cast(),
                        lwork,
                        info.raw() as *mut i32,
                        params,
                        batch,
                    )
                })?;
                w.finish(stream)
            })
        };
    }
    super::sdcz!(
        dtype,
        "svd",
        call,
        [
            cusolverDnSgesvdjBatched_bufferSize,
            cusolverDnSgesvdjBatched,
            f32,
            f32
        ],
        [
            cusolverDnDgesvdjBatched_bufferSize,
            cusolverDnDgesvdjBatched,
            f64,
            f64
        ],
        [
            cusolverDnCgesvdjBatched_bufferSize,
            cusolverDnCgesvdjBatched,
            cs::float2,
            f32
        ],
        [
            cusolverDnZgesvdjBatched_bufferSize,
            cusolverDnZgesvdjBatched,
            cs::double2,
            f64
        ],
    )
}
