//! SVD-based routines: `lstsq`, `pinv`, `matrix_rank` (NumPy's cutoffs).

use std::sync::OnceLock;

use gpu_array::dtype::finfo;
use gpu_array::elementwise::ElementwiseKernel;
use gpu_array::logic::any;
use gpu_array::math::sum;
use gpu_array::reduction::ReduceOptions;
use gpu_array::sorting::count_nonzero;
use gpu_array::stats::amax;
use gpu_array::{Array, DType, ufunc};

use super::svd::{SvdDriver, SvdParams, svd};
use crate::error::{Error, Result, value};
use crate::products::matmul;
use crate::util::{assert_stacked_2d, linalg_common, linalg_dtype};

/// `1 / s` where `s > cutoff`, else 0 (the truncated inverse of singular
/// values).
fn inverse_above(s: &Array, cutoff: &Array) -> Result<Array> {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    let k = match K.get() {
        Some(k) => k,
        None => {
            let k = ElementwiseKernel::new(
                "T s, T cutoff",
                "T out",
                "out = s > cutoff ? T(1) / s : T(0)",
                "cuprum_linalg_inverse_above",
            )?;
            K.get_or_init(|| k)
        }
    };
    let out = k.call(&[s.into(), cutoff.into()], &[], None)?;
    Ok(out.into_iter().next().expect("one output"))
}

fn conj_t(x: &Array) -> Result<Array> {
    let t = x.swapaxes(-1, -2)?;
    Ok(if t.dtype().is_complex() {
        ufunc::conj(&t)?
    } else {
        t
    })
}

fn eps(dtype: DType) -> Result<f64> {
    Ok(finfo(dtype)?.eps)
}

/// Values-only SVD by `gesvd` (small singular values matter here), or
/// NumPy's Hermitian path (`eigvalsh`) with `hermitian`.
fn singular_values(a: &Array, hermitian: bool) -> Result<Array> {
    Ok(svd(
        a,
        SvdParams {
            full_matrices: false,
            compute_uv: false,
            driver: SvdDriver::Gesvd,
            hermitian,
        },
    )?
    .s)
}

/// Options of [`pinv`] (NumPy 2's keywords `rcond`, `hermitian`, `rtol`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct PinvParams {
    /// `rcond`: singular values at most `rcond` times the largest are
    /// dropped (NumPy's default `1e-15` when neither this nor `rtol` is
    /// given).
    pub rcond: Option<f64>,
    /// `rtol`, NumPy 2's array-API name for `rcond`, with its three
    /// states: `None` not given; `Some(None)` NumPy's `rtol=None`, the
    /// array API's default `max(M, N) * eps`; `Some(Some(r))` the value.
    pub rtol: Option<Option<f64>>,
    /// `hermitian`: `a` is Hermitian, decomposed by `eigh` (lower
    /// triangle), as [`SvdParams::hermitian`].
    pub hermitian: bool,
}

impl PinvParams {
    /// Sets `rcond`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_linalg::PinvParams;
    /// let p = PinvParams::default().rcond(1e-10);
    /// assert_eq!(p.cutoff(3, 3, DType::Float64)?, 1e-10);
    /// # Ok::<(), gpu_linalg::Error>(())
    /// ```
    #[must_use]
    pub fn rcond(mut self, rcond: impl Into<Option<f64>>) -> PinvParams {
        self.rcond = rcond.into();
        self
    }

    /// Sets `rtol` (`None`: NumPy's `rtol=None`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_linalg::PinvParams;
    /// // `rtol=None`: max(M, N) * eps of the dtype.
    /// let p = PinvParams::default().rtol(None);
    /// assert_eq!(p.cutoff(4, 2, DType::Float32)?, 4.0 * f64::from(f32::EPSILON));
    /// # Ok::<(), gpu_linalg::Error>(())
    /// ```
    #[must_use]
    pub fn rtol(mut self, rtol: Option<f64>) -> PinvParams {
        self.rtol = Some(rtol);
        self
    }

    /// Sets `hermitian`.
    ///
    /// ```
    /// use gpu_linalg::PinvParams;
    /// assert!(PinvParams::default().hermitian(true).hermitian);
    /// ```
    #[must_use]
    pub fn hermitian(mut self, hermitian: bool) -> PinvParams {
        self.hermitian = hermitian;
        self
    }
}

impl PinvParams {
    /// The relative cutoff NumPy 2 derives from `rcond` and `rtol`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_linalg::PinvParams;
    /// assert_eq!(PinvParams::default().cutoff(3, 3, DType::Float64)?, 1e-15); // NumPy's default
    /// let both = PinvParams::default().rcond(1e-3).rtol(Some(1e-3));
    /// assert!(both.cutoff(3, 3, DType::Float64).is_err());
    /// # Ok::<(), gpu_linalg::Error>(())
    /// ```
    ///
    /// # Errors
    /// Both given (NumPy's "`rtol` and `rcond` can't be both set.").
    pub fn cutoff(&self, m: usize, n: usize, dtype: DType) -> Result<f64> {
        Ok(match (self.rcond, self.rtol) {
            (Some(_), Some(_)) => return Err(value("`rtol` and `rcond` can't be both set.")),
            (Some(r), None) | (None, Some(Some(r))) => r,
            (None, None) => 1e-15,
            (None, Some(None)) => m.max(n) as f64 * eps(dtype.real_dtype())?,
        })
    }
}

/// NumPy 2's `linalg.pinv(a, rcond, hermitian, rtol)`: the Moore-Penrose
/// pseudo-inverse `V diag(1/s) U^H` of each matrix, singular values at
/// most the cutoff of [`PinvParams::cutoff`] times the largest dropped.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let p = pinv(&a, Default::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two dimensions; both `rcond` and `rtol`; float16; a
/// non-square matrix with `hermitian`; as [`svd`].
pub fn pinv(a: &Array, p: PinvParams) -> Result<Array> {
    assert_stacked_2d(a)?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let dt = linalg_dtype(a.dtype())?;
    let rcond = p.cutoff(m, n, dt)?;
    if m.min(n) == 0 {
        let mut s = a.shape()[..nd - 2].to_vec();
        s.extend([n, m]);
        return gpu_array::creation::zeros(&s, dt);
    }
    let r = svd(
        a,
        SvdParams {
            full_matrices: false,
            compute_uv: true,
            driver: SvdDriver::Gesvd,
            hermitian: p.hermitian,
        },
    )?;
    let (u, vh) = (r.u.expect("computed"), r.vh.expect("computed"));
    let smax = amax(&r.s, ReduceOptions::axis(-1).keepdims(true))?;
    let cutoff = ufunc::multiply(&smax, rcond)?;
    let sinv = inverse_above(&r.s, &cutoff)?;
    // V diag(1/s) U^H.
    let scaled = ufunc::multiply(&sinv.expand_dims(&[-1])?, &conj_t(&u)?)?;
    matmul(&conj_t(&vh)?, &scaled)
}

/// Options of [`matrix_rank`] (NumPy 2's keywords `tol`, `hermitian`,
/// `rtol`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub struct RankParams {
    /// `tol`: the absolute threshold (default `S.max() * rtol`).
    pub tol: Option<f64>,
    /// `rtol`: the threshold relative to the largest singular value
    /// (default `max(M, N) * eps`).
    pub rtol: Option<f64>,
    /// `hermitian`: singular values from `eigvalsh` (lower triangle).
    pub hermitian: bool,
}

impl RankParams {
    /// Sets `tol`.
    ///
    /// ```
    /// use gpu_linalg::RankParams;
    /// assert_eq!(RankParams::default().tol(1e-8).tol, Some(1e-8));
    /// ```
    #[must_use]
    pub fn tol(mut self, tol: impl Into<Option<f64>>) -> RankParams {
        self.tol = tol.into();
        self
    }

    /// Sets `rtol`.
    ///
    /// ```
    /// use gpu_linalg::RankParams;
    /// assert_eq!(RankParams::default().rtol(1e-6).rtol, Some(1e-6));
    /// ```
    #[must_use]
    pub fn rtol(mut self, rtol: impl Into<Option<f64>>) -> RankParams {
        self.rtol = rtol.into();
        self
    }

    /// Sets `hermitian`.
    ///
    /// ```
    /// use gpu_linalg::RankParams;
    /// assert!(RankParams::default().hermitian(true).hermitian);
    /// ```
    #[must_use]
    pub fn hermitian(mut self, hermitian: bool) -> RankParams {
        self.hermitian = hermitian;
        self
    }
}

/// NumPy 2's `linalg.matrix_rank(A, tol, hermitian, rtol)`: the number of
/// singular values above the threshold, per matrix; for fewer than two
/// dimensions, 1 unless every element is zero. Returns an int64 array of
/// the batch's shape.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let r = matrix_rank(&a, Default::default())?; // 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// Both `tol` and `rtol` ("`tol` and `rtol` can't be both set."); float16;
/// as [`svd`].
pub fn matrix_rank(a: &Array, p: RankParams) -> Result<Array> {
    if p.tol.is_some() && p.rtol.is_some() {
        return Err(value("`tol` and `rtol` can't be both set."));
    }
    if a.ndim() < 2 {
        let nz = a.not_equal(0)?;
        return any(&nz, ReduceOptions::default())?.astype(DType::Int64);
    }
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let s = singular_values(a, p.hermitian)?;
    if m.min(n) == 0 {
        return gpu_array::creation::zeros(&a.shape()[..nd - 2], DType::Int64);
    }
    let above = match p.tol {
        Some(t) => s.greater(t)?,
        None => {
            let rtol = match p.rtol {
                Some(r) => r,
                None => m.max(n) as f64 * eps(s.dtype())?,
            };
            let smax = amax(&s, ReduceOptions::axis(-1).keepdims(true))?;
            s.greater(&ufunc::multiply(&smax, rtol)?)?
        }
    };
    count_nonzero(&above, ReduceOptions::axis(-1))?.astype(DType::Int64)
}

/// The result of [`lstsq`].
#[derive(Debug, Clone)]
pub struct Lstsq {
    /// The least-squares solution, `(N,)` or `(N, K)`.
    pub x: Array,
    /// Sums of squared residuals, `(1,)` or `(K,)`, when `M > N` and the
    /// rank is `N`; else empty `(0,)`.
    pub residuals: Array,
    /// The effective rank of `a` (read back to the host, as NumPy returns it).
    pub rank: usize,
    /// The singular values of `a`, `(min(M, N),)`.
    pub s: Array,
}

/// NumPy's `linalg.lstsq(a, b, rcond)`: minimises `||b - a x||` through
/// the SVD, singular values at most `rcond` times the largest treated as
/// zero (`rcond` defaults to `eps * max(M, N)`, NumPy 2's default).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let fit = lstsq(&a, &array([1.0, 2.0])?, None)?; // fit.x, fit.residuals, fit.rank, fit.s
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not 2-D, `b` not 1-D or 2-D, or their first dimensions differ
/// (NumPy's "Incompatible dimensions"); float16.
pub fn lstsq(a: &Array, b: &Array, rcond: Option<f64>) -> Result<Lstsq> {
    if a.ndim() != 2 {
        return Err(Error::LinAlg(format!(
            "{}-dimensional array given. Array must be two-dimensional",
            a.ndim()
        )));
    }
    if b.ndim() != 1 && b.ndim() != 2 {
        return Err(Error::LinAlg(format!(
            "{}-dimensional array given. Array must be one or two-dimensional",
            b.ndim()
        )));
    }
    let (m, n) = (a.shape()[0], a.shape()[1]);
    if b.shape()[0] != m {
        return Err(Error::LinAlg("Incompatible dimensions".into()));
    }
    let dt = linalg_common(&[a.dtype(), b.dtype()])?;
    let a = if a.dtype() == dt {
        a.clone()
    } else {
        a.astype(dt)?
    };
    let vector = b.ndim() == 1;
    let b2 = if vector {
        b.reshape([-1, 1])?
    } else {
        b.clone()
    };
    let b2 = if b2.dtype() == dt { b2 } else { b2.astype(dt)? };
    let k = b2.shape()[1];
    let r = svd(
        &a,
        SvdParams {
            full_matrices: false,
            compute_uv: true,
            driver: SvdDriver::Gesvd,
            hermitian: false,
        },
    )?;
    let (u, vh, s) = (r.u.expect("computed"), r.vh.expect("computed"), r.s);
    let real = dt.real_dtype();
    let (x, rank) = if m.min(n) == 0 {
        (gpu_array::creation::zeros([n, k], dt)?, 0usize)
    } else {
        let rc = rcond.unwrap_or(eps(real)? * m.max(n) as f64);
        let smax = amax(&s, ReduceOptions::axis(-1).keepdims(true))?;
        let cutoff = ufunc::multiply(&smax, rc)?;
        let sinv = inverse_above(&s, &cutoff)?;
        let uhb = matmul(&conj_t(&u)?, &b2)?;
        let x = matmul(
            &conj_t(&vh)?,
            &ufunc::multiply(&sinv.expand_dims(&[-1])?, &uhb)?,
        )?;
        let rank = count_nonzero(&s.greater(&cutoff)?, ReduceOptions::default())?
            .astype(DType::Int64)?
            .item::<i64>(&[])? as usize;
        (x, rank)
    };
    let residuals = if rank == n && m > n {
        let diff = ufunc::subtract(&b2, &matmul(&a, &x)?)?;
        let sq = ufunc::square(&ufunc::absolute(&diff)?)?;
        sum(&sq, ReduceOptions::axis(0))?
    } else {
        gpu_array::creation::zeros([0], real)?
    };
    let x = if vector { x.reshape([n as isize])? } else { x };
    Ok(Lstsq {
        x,
        residuals,
        rank,
        s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinv_cutoff_follows_numpy_2() {
        let p = |rcond, rtol| PinvParams {
            rcond,
            rtol,
            hermitian: false,
        };
        assert_eq!(p(None, None).cutoff(3, 5, DType::Float64).unwrap(), 1e-15);
        assert_eq!(
            p(Some(0.1), None).cutoff(3, 5, DType::Float64).unwrap(),
            0.1
        );
        assert_eq!(
            p(None, Some(Some(0.2)))
                .cutoff(3, 5, DType::Float32)
                .unwrap(),
            0.2
        );
        // rtol=None: the array API's max(M, N) * eps of the real dtype.
        let c = p(None, Some(None)).cutoff(3, 5, DType::Complex64).unwrap();
        assert_eq!(c, 5.0 * f32::EPSILON as f64);
        assert_eq!(
            p(Some(0.1), Some(None))
                .cutoff(3, 5, DType::Float64)
                .unwrap_err()
                .to_string(),
            "`rtol` and `rcond` can't be both set."
        );
    }
}
