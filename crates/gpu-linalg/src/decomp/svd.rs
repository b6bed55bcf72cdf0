//! `linalg.svd` on `gesvd` (QR iterations, LAPACK's algorithm, as CuPy),
//! `gesvdp` (polar decomposition, several times faster) or, for stacks of
//! small matrices, `gesvdjBatched` (Jacobi sweeps, one launch).
//!
//! cuSOLVER's SVDs want a tall column-major matrix. For a tall `A` that is
//! the C copy of `A^T` (column-major `A`): `U` and `V^H` come back
//! column-major and are read through transposed views. For a wide `A` the
//! plain C copy is column-major `A^T` (tall), whose SVD
//! `A^T = U' S V'^H` gives `A = conj(V') S U'^T`: `U = conj(V')` is the
//! C-order reading of `V'^H`'s buffer and `V^H = U'^T` the C-order reading
//! of `U'`'s, with no copy.

use gpu_array::indexing::take_along_axis;
use gpu_array::manipulation::flip;
use gpu_array::sorting::{argsort, sort};
use gpu_array::{Array, AxisIndex, Order, ufunc};

use super::eigh::{Uplo, eigh, eigvalsh};
use crate::error::{Error, Result};
use crate::errstate::DevInfo;
use crate::raw::solver::{SvdOut, gesvd, gesvdj_batched, gesvdp};

use crate::util::{assert_stacked_2d, batch_count, column_major, fresh, linalg_dtype, nth};

/// The largest size of the Jacobi path for stacks (gesvdjBatched's limit).
const JACOBI_MAX: usize = 32;

/// The smallest `min(M, N)` for which [`SvdDriver::Auto`] takes `gesvdp`.
/// Below it `gesvd`'s time is small anyway, and its accuracy is LAPACK's:
/// on the H200 gesvdp left the zero singular values of a rank-2 5 x 5
/// float32 matrix at 3.5e-4 (gesvd: ~1e-7 of the norm) and the largest of
/// a complex128 one 1.7e-13 off.
const GESVDP_MIN: usize = 512;

/// The cuSOLVER routine behind [`svd`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SvdDriver {
    /// `gesvdjBatched` for stacks of matrices of at most 32 x 32 (one
    /// launch); else, for matrices of `min(M, N) >= 512`, `gesvdp` where it
    /// applies (reduced vectors or square matrices: 4x faster than gesvd at
    /// 2048, with singular values accurate to about 1e-4 (float32) or
    /// 1e-13 (float64) of the largest rather than LAPACK's few ulps); else
    /// `gesvd` (always for values only).
    #[default]
    Auto,
    /// `gesvd`: the QR algorithm (CuPy's choice; slowest, most robust for
    /// rank-deficient input, whose vectors `gesvdp` may not make exactly
    /// unitary).
    Gesvd,
    /// `gesvdp` (falls back to `gesvd` for full `U`/`V` of a non-square
    /// matrix, which it does not compute, and for values only: without
    /// vectors `gesvdp` gave wrong singular values and wrote past
    /// placeholder `U`/`V` buffers on an H200).
    Gesvdp,
}

/// Options of [`svd`] (NumPy's keywords).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SvdParams {
    /// `U` is `M x M` and `V^H` is `N x N` (else `K = min(M, N)` columns
    /// or rows).
    pub full_matrices: bool,
    /// Compute `U` and `V^H` (else only the singular values).
    pub compute_uv: bool,
    /// The routine.
    pub driver: SvdDriver,
    /// NumPy's `hermitian=True`: `a` is taken as Hermitian (only its lower
    /// triangle is read) and decomposed through `eigh`: the singular
    /// values are the eigenvalues' magnitudes, sorted descending, `U` the
    /// eigenvectors in that order and `V^H` their conjugate transpose with
    /// each row scaled by its eigenvalue's sign (NumPy's algorithm);
    /// `full_matrices` and `driver` do not apply.
    pub hermitian: bool,
}

impl SvdParams {
    /// Sets `full_matrices`.
    ///
    /// ```
    /// use gpu_linalg::SvdParams;
    /// assert!(!SvdParams::default().full_matrices(false).full_matrices);
    /// ```
    #[must_use]
    pub fn full_matrices(mut self, full_matrices: bool) -> SvdParams {
        self.full_matrices = full_matrices;
        self
    }

    /// Sets `compute_uv`.
    ///
    /// ```
    /// use gpu_linalg::SvdParams;
    /// assert!(!SvdParams::default().compute_uv(false).compute_uv); // singular values only
    /// ```
    #[must_use]
    pub fn compute_uv(mut self, compute_uv: bool) -> SvdParams {
        self.compute_uv = compute_uv;
        self
    }

    /// Sets `driver`.
    ///
    /// ```
    /// use gpu_linalg::{SvdDriver, SvdParams};
    /// assert_eq!(SvdParams::default().driver(SvdDriver::Gesvdp).driver, SvdDriver::Gesvdp);
    /// ```
    #[must_use]
    pub fn driver(mut self, driver: SvdDriver) -> SvdParams {
        self.driver = driver;
        self
    }

    /// Sets `hermitian`.
    ///
    /// ```
    /// use gpu_linalg::SvdParams;
    /// assert!(SvdParams::default().hermitian(true).hermitian);
    /// ```
    #[must_use]
    pub fn hermitian(mut self, hermitian: bool) -> SvdParams {
        self.hermitian = hermitian;
        self
    }
}

impl Default for SvdParams {
    fn default() -> Self {
        SvdParams {
            full_matrices: true,
            compute_uv: true,
            driver: SvdDriver::Auto,
            hermitian: false,
        }
    }
}

/// The result of [`svd`].
#[derive(Debug, Clone)]
pub struct Svd {
    /// Left singular vectors, `(..., M, M)` or `(..., M, K)`; `None` when
    /// not computed.
    pub u: Option<Array>,
    /// Singular values in descending order, `(..., K)`, real.
    pub s: Array,
    /// Conjugate-transposed right singular vectors, `(..., N, N)` or
    /// `(..., K, N)`; `None` when not computed.
    pub vh: Option<Array>,
}

fn empty_result(a: &Array, p: SvdParams, dt: gpu_array::DType) -> Result<Svd> {
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let b = &a.shape()[..nd - 2];
    let with = |x: usize, y: usize| {
        let mut v = b.to_vec();
        v.extend([x, y]);
        v
    };
    let mut sshape = b.to_vec();
    sshape.push(k);
    let s = Array::empty_on(a.device(), &sshape, dt.real_dtype(), Order::C)?;
    if !p.compute_uv {
        return Ok(Svd {
            u: None,
            s,
            vh: None,
        });
    }
    let eye_or_zeros = |r: usize, c: usize| -> Result<Array> {
        if r == c {
            let e = gpu_array::creation::eye(r, None, 0, dt)?;
            Ok(e.broadcast_to(&with(r, c))?.copy()?)
        } else {
            Ok(gpu_array::creation::zeros(with(r, c), dt)?)
        }
    };
    let (ur, uc, vr, vc) = if p.full_matrices {
        (m, m, n, n)
    } else {
        (m, k, k, n)
    };
    Ok(Svd {
        u: Some(eye_or_zeros(ur, uc)?),
        s,
        vh: Some(eye_or_zeros(vr, vc)?),
    })
}

/// NumPy's `linalg.svd(a, full_matrices, compute_uv)`: `A = U diag(S) V^H`
/// for each matrix of the stack.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let s = svd(&a, SvdParams::default())?; // s.u, s.s, s.vh
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two dimensions; float16; "SVD did not converge" under the
/// raise setting.
pub fn svd(a: &Array, p: SvdParams) -> Result<Svd> {
    assert_stacked_2d(a)?;
    if p.hermitian {
        return svd_hermitian(a, p.compute_uv);
    }
    let dt = linalg_dtype(a.dtype())?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch = batch_count(a.shape());
    if k == 0 || batch == 0 {
        return empty_result(a, p, dt);
    }
    // The tall column-major problem: rows r >= cols c.
    let tall = m >= n;
    let (r, c) = if tall { (m, n) } else { (n, m) };
    let buf = if tall {
        column_major(a, dt)?
    } else {
        fresh(a, dt)?
    };
    let bshape = &a.shape()[..nd - 2];
    let stack = |x: usize, y: usize| -> Result<Array> {
        let mut v = bshape.to_vec();
        v.extend([x, y]);
        Array::empty_on(a.device(), &v, dt, Order::C)
    };
    let mut sshape = bshape.to_vec();
    sshape.push(k);
    let s = Array::empty_on(a.device(), &sshape, dt.real_dtype(), Order::C)?;
    let full = p.full_matrices && p.compute_uv;
    let info = DevInfo::new(a.device(), batch)?;
    let stream = buf.stream();
    let item = dt.itemsize();
    // Stacks of small matrices: Jacobi sweeps over the whole stack in one
    // launch (gesvdjBatched, CuPy's choice), full U and V always.
    let jacobi = p.driver == SvdDriver::Auto && batch >= 2 && r <= JACOBI_MAX;
    // Values only: gesvd with jobu = jobvt = 'N' (LAPACK's contract: U and
    // VT are not referenced). gesvdp's NOVECTOR mode is not used: on the
    // first GPU run it returned wrong values for a 40x35 matrix and
    // corrupted neighbouring allocations (apparently writing U/V past the
    // 1-element placeholders all the same).
    let use_p = !jacobi
        && p.compute_uv
        && match p.driver {
            SvdDriver::Gesvd => false,
            SvdDriver::Auto => (!full || m == n) && r.min(c) >= GESVDP_MIN,
            SvdDriver::Gesvdp => !full || m == n,
        };
    // Whether the right factor's buffer holds V (gesvdp, gesvdj) rather
    // than V^H (gesvd).
    let holds_v = use_p || jacobi;
    // Column-major U' (r x ucols) and the right factor (c x c): as C arrays
    // of shapes (ucols, r) and (c, c).
    let ucols = if full || jacobi { r } else { c };
    let (ubuf, vbuf) = if p.compute_uv || jacobi {
        (stack(ucols, r)?, stack(c, c)?)
    } else {
        // gesvd with jobu = jobvt = 'N' does not reference U and VT;
        // small placeholders keep the pointers valid.
        (stack(1, 1)?, stack(1, 1)?)
    };
    if jacobi {
        gesvdj_batched(
            &stream,
            dt,
            p.compute_uv,
            (r as i64, c as i64),
            buf.data_ptr(),
            SvdOut {
                s: s.data_ptr(),
                u: ubuf.data_ptr(),
                ldu: r as i64,
                v: vbuf.data_ptr(),
                ldv: c as i64,
            },
            info.ptr(0),
            batch as i64,
        )?;
    }
    for i in (0..batch).filter(|_| !jacobi) {
        let (u_i, v_i) = if p.compute_uv {
            (
                nth(ubuf.data_ptr(), i, ucols * r, item),
                nth(vbuf.data_ptr(), i, c * c, item),
            )
        } else {
            (
                nth(ubuf.data_ptr(), i, 1, item),
                nth(vbuf.data_ptr(), i, 1, item),
            )
        };
        // LAPACK's minimum leading dimensions; never read without vectors.
        let (ldu, ldv) = (r as i64, c as i64);
        let out = SvdOut {
            s: nth(s.data_ptr(), i, k, dt.real_dtype().itemsize()),
            u: u_i,
            ldu,
            v: v_i,
            ldv,
        };
        let a_i = nth(buf.data_ptr(), i, m * n, item);
        if use_p {
            gesvdp(
                &stream,
                dt,
                true,
                (r as i64, c as i64),
                a_i,
                r as i64,
                out,
                info.ptr(i),
            )?;
        } else {
            let job = if !p.compute_uv {
                b'N'
            } else if full {
                b'A'
            } else {
                b'S'
            };
            gesvd(
                &stream,
                dt,
                (job, job),
                (r as i64, c as i64),
                a_i,
                r as i64,
                out,
                info.ptr(i),
            )?;
        }
    }
    info.check(|count| Error::NoConvergence { what: "SVD", count })?;
    if !p.compute_uv {
        return Ok(Svd {
            u: None,
            s,
            vh: None,
        });
    }
    // The Jacobi path made the full U'; the reduced one is its first c
    // columns (C rows).
    let ubuf = if jacobi && !full {
        ubuf.slice(&[
            AxisIndex::Ellipsis,
            AxisIndex::Slice {
                start: None,
                stop: Some(c as isize),
                step: 1,
            },
            AxisIndex::FULL,
        ])?
    } else {
        ubuf
    };
    // ubuf read in C order is U'^T (ucols x r); vbuf is V'^H (gesvd) or
    // V' (gesvdp, gesvdj) read in C order, i.e. (V'^H)^T or V'^T.
    let conj = |x: Array| -> Result<Array> {
        Ok(if x.dtype().is_complex() {
            ufunc::conj(&x)?
        } else {
            x
        })
    };
    let (u, vh) = if tall {
        // U = U', V^H = V'^H.
        let u = ubuf.swapaxes(-1, -2)?;
        let vh = if holds_v {
            // V'^T read; V'^H = conj(V'^T).
            conj(vbuf)?
        } else {
            vbuf.swapaxes(-1, -2)?
        };
        (u, vh)
    } else {
        // U = conj(V'), V^H = U'^T.
        let u = if holds_v {
            conj(vbuf.swapaxes(-1, -2)?)?
        } else {
            vbuf
        };
        (u, ubuf)
    };
    Ok(Svd {
        u: Some(u),
        s,
        vh: Some(vh),
    })
}

/// NumPy's `svd(a, hermitian=True)`: from `eigh` (lower triangle), the
/// magnitudes of the eigenvalues sorted descending (`argsort` then a
/// reversed view, as NumPy's `argsort(s)[..., ::-1]`), `U` the eigenvectors
/// in that order, `V^H = (U * sign(w))^H`.
fn svd_hermitian(a: &Array, compute_uv: bool) -> Result<Svd> {
    let last = [-1isize];
    if !compute_uv {
        let s = ufunc::absolute(&eigvalsh(a, Uplo::L)?)?;
        let s = flip(&sort(&s, Some(-1))?, Some(&last[..]))?;
        return Ok(Svd {
            u: None,
            s,
            vh: None,
        });
    }
    let (w, v) = eigh(a, Uplo::L)?;
    if w.size() == 0 {
        let vh = conj_of(&v.swapaxes(-1, -2)?)?;
        return Ok(Svd {
            u: Some(v),
            s: w,
            vh: Some(vh),
        });
    }
    let sgn = ufunc::sign(&w)?;
    let s = ufunc::absolute(&w)?;
    let idx = flip(&argsort(&s, Some(-1))?, Some(&last[..]))?;
    let sgn = take_along_axis(&sgn, &idx, Some(-1))?;
    let s = take_along_axis(&s, &idx, Some(-1))?;
    let u = take_along_axis(&v, &idx.expand_dims(&[-2])?, Some(-1))?;
    // The singular values are unsigned: the signs move into V.
    let scaled = ufunc::multiply(&u, &sgn.expand_dims(&[-2])?)?;
    let vh = conj_of(&scaled.swapaxes(-1, -2)?)?;
    Ok(Svd {
        u: Some(u),
        s,
        vh: Some(vh),
    })
}

fn conj_of(x: &Array) -> Result<Array> {
    Ok(if x.dtype().is_complex() {
        ufunc::conj(x)?
    } else {
        x.clone()
    })
}
