//! NumPy's legacy polynomial routines that need linear algebra: `roots`
//! (eigenvalues of the companion matrix) and `polyfit` (least squares on
//! the scaled Vandermonde matrix), and `poly1d.roots` through
//! [`Poly1dExt`]. They live here because gpu-array, which holds the rest
//! of the polynomial family, sits below this crate; its own `roots` and
//! `polyfit` return `Unsupported` naming these.
//!
//! | NumPy                                           | Cuprum                                                  |
//! |-------------------------------------------------|---------------------------------------------------------|
//! | `np.roots(p)`                                   | [`roots`]`(&p)?` (complex, as CuPy's `eigvals`)         |
//! | `np.poly1d(c).roots`, `.r`                      | `Poly1d::new(&c)?.roots()?` ([`Poly1dExt`])             |
//! | `np.polyfit(x, y, 3)`                           | [`polyfit`]`(&x, &y, 3, &PolyfitOptions::default())?.p` |
//! | `np.polyfit(x, y, 3, full=True)`                | `PolyfitOptions::default().full(true)`: [`Polyfit::full`]  |
//! | `np.polyfit(x, y, 3, w=w, cov='unscaled')`      | `PolyfitOptions::default().w(&w).cov(PolyCov::Unscaled)` |

use gpu_array::math::sum;
use gpu_array::polynomial::Poly1d;
use gpu_array::polynomial::polynomial::polyvander;
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, AxisIndex, DType, Order, ufunc};
use num_complex::Complex;

use crate::decomp::{eigvals, inv, lstsq};
use crate::error::{Result, dtype as type_err, value};
use crate::products::{diagonal, dot, outer};
use crate::util::linalg_dtype;

fn range(start: usize, stop: usize) -> AxisIndex {
    AxisIndex::Slice {
        start: Some(start as isize),
        stop: Some(stop as isize),
        step: 1,
    }
}

/// A zero-filled `(len,)` array of `dtype` on `like`'s device.
fn zeros_like_device(like: &Array, shape: &[usize], dtype: DType) -> Result<Array> {
    let z = Array::empty_on(like.device(), shape, dtype, Order::C)?;
    z.fill(0i64)?;
    Ok(z)
}

/// NumPy's `roots(p)`: the roots of the polynomial with coefficients `p`
/// (highest power first). Leading zeros are dropped, trailing zeros are
/// roots at 0 appended at the end, and the rest are the eigenvalues of the
/// companion matrix (first row `-p[1:] / p[0]`, ones below the diagonal),
/// in `geev`'s order.
///
/// The result is always complex (complex64 for float32 and complex64
/// coefficients, else complex128), as CuPy's `eigvals` returns: NumPy
/// makes it real when every root is, which would need a look at the
/// values on the host. The coefficients are copied back once to find the
/// zeros (NumPy's `nonzero`); the companion matrix is built and solved on
/// the device.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let r = roots(&array([1.0, -3.0, 2.0])?)?; // np.roots([1, -3, 2]): [2, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `p` of more than one dimension ("Input must be a rank-1 array.");
/// float16 coefficients (as NumPy's `eigvals`); as [`eigvals`].
pub fn roots(p: &Array) -> Result<Array> {
    let p = if p.ndim() == 0 {
        p.reshape([1])?
    } else {
        p.clone()
    };
    if p.ndim() != 1 {
        return Err(value("Input must be a rank-1 array."));
    }
    let float = if p.dtype().is_inexact() {
        p.dtype()
    } else {
        DType::Float64
    };
    let cdt = linalg_dtype(float)?
        .complex_dtype()
        .expect("linalg dtypes are floating or complex");
    let host: Vec<Complex<f64>> = p.astype(DType::Complex128)?.to_vec()?;
    let nonzero = |z: &Complex<f64>| z.re != 0.0 || z.im != 0.0;
    let (Some(first), Some(last)) = (
        host.iter().position(nonzero),
        host.iter().rposition(nonzero),
    ) else {
        return zeros_like_device(&p, &[0], cdt);
    };
    let trailing = host.len() - last - 1;
    let q = p.slice(&[range(first, last + 1)])?.astype(float)?;
    let n = last - first;
    let out = zeros_like_device(&p, &[n + trailing], cdt)?;
    if n > 0 {
        let a = zeros_like_device(&p, &[n, n], float)?;
        if n > 1 {
            diagonal(&a, -1, 0, 1)?.fill(1i64)?;
        }
        let lead = q.slice(&[AxisIndex::Index(0)])?;
        let row = ufunc::negative(&ufunc::divide(&q.slice(&[range(1, n + 1)])?, &lead)?)?;
        a.slice(&[AxisIndex::Index(0), AxisIndex::FULL])?
            .copy_from(&row.astype(float)?)?;
        out.slice(&[range(0, n)])?.copy_from(&eigvals(&a)?)?;
    }
    Ok(out)
}

/// `poly1d.roots` (and its alias `.r`) for gpu-array's [`Poly1d`], which
/// cannot reach this crate's eigenvalue solver itself.
pub trait Poly1dExt {
    /// `p.roots`: [`roots`] of the coefficients.
    ///
    /// # Errors
    /// As [`roots`].
    fn roots(&self) -> Result<Array>;

    /// `p.r`: the same as [`Poly1dExt::roots`].
    ///
    /// # Errors
    /// As [`roots`].
    fn r(&self) -> Result<Array> {
        self.roots()
    }
}

impl Poly1dExt for Poly1d {
    fn roots(&self) -> Result<Array> {
        roots(self.coeffs())
    }
}

/// NumPy's `cov` argument of `polyfit`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PolyCov {
    /// `cov=False`: no covariance.
    #[default]
    Off,
    /// `cov=True`: scaled by `chi2 / (M - (deg + 1))`.
    Scaled,
    /// `cov='unscaled'`: the weights are taken as `1 / sigma`.
    Unscaled,
}

/// Options of [`polyfit`] (NumPy's keywords).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct PolyfitOptions<'a> {
    /// `rcond`: relative cutoff of small singular values (default
    /// `len(x) * eps` of `x`'s float dtype).
    pub rcond: Option<f64>,
    /// `full`: also return lstsq's diagnostics ([`Polyfit::full`]); the
    /// covariance is then not computed, as in NumPy.
    pub full: bool,
    /// `w`: weights of the unsquared residuals, `(M,)`.
    pub w: Option<&'a Array>,
    /// `cov`: also return the covariance of the coefficients.
    pub cov: PolyCov,
}

impl<'a> PolyfitOptions<'a> {
    /// Sets `rcond`.
    ///
    /// ```
    /// use gpu_linalg::PolyfitOptions;
    /// assert_eq!(PolyfitOptions::default().rcond(1e-12).rcond, Some(1e-12));
    /// ```
    #[must_use]
    pub fn rcond(mut self, rcond: impl Into<Option<f64>>) -> PolyfitOptions<'a> {
        self.rcond = rcond.into();
        self
    }

    /// Sets `full`.
    ///
    /// ```
    /// use gpu_linalg::PolyfitOptions;
    /// assert!(PolyfitOptions::default().full(true).full);
    /// ```
    #[must_use]
    pub fn full(mut self, full: bool) -> PolyfitOptions<'a> {
        self.full = full;
        self
    }

    /// Sets `w`.
    ///
    /// ```no_run
    /// use gpu_array::creation::array;
    /// use gpu_linalg::*;
    /// # fn main() -> gpu_linalg::Result<()> {
    /// let (x, y) = (array([0.0, 1.0, 2.0])?, array([1.0, 3.0, 5.0])?);
    /// let w = array([1.0, 1.0, 0.5])?;
    /// let fit = polyfit(&x, &y, 1, &PolyfitOptions::default().w(&w))?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn w(mut self, w: impl Into<Option<&'a Array>>) -> PolyfitOptions<'a> {
        self.w = w.into();
        self
    }

    /// Sets `cov`.
    ///
    /// ```
    /// use gpu_linalg::{PolyCov, PolyfitOptions};
    /// assert_eq!(PolyfitOptions::default().cov(PolyCov::Scaled).cov, PolyCov::Scaled);
    /// ```
    #[must_use]
    pub fn cov(mut self, cov: PolyCov) -> PolyfitOptions<'a> {
        self.cov = cov;
        self
    }
}

/// lstsq's diagnostics of a fit (`full=True`).
#[derive(Debug, Clone)]
pub struct PolyfitFull {
    /// Sums of squared residuals, `(1,)` or `(K,)`; empty when the scaled
    /// Vandermonde matrix is rank-deficient or `M <= deg + 1`.
    pub residuals: Array,
    /// The effective rank of the scaled Vandermonde matrix.
    pub rank: usize,
    /// Its singular values.
    pub singular_values: Array,
    /// The `rcond` used.
    pub rcond: f64,
}

/// The result of [`polyfit`].
#[derive(Debug, Clone)]
pub struct Polyfit {
    /// The coefficients, highest power first: `(deg + 1,)`, or `(deg + 1,
    /// K)` for a 2-D `y` (one column per data set).
    pub p: Array,
    /// With `full`: lstsq's diagnostics.
    pub full: Option<PolyfitFull>,
    /// With `cov` (and not `full`): the covariance, `(deg + 1, deg + 1)`
    /// or `(deg + 1, deg + 1, K)`.
    pub cov: Option<Array>,
}

/// `x + 0.0`: integers and bool become float64, floats stay.
fn inexact(x: &Array) -> Result<Array> {
    Ok(if x.dtype().is_inexact() {
        x.clone()
    } else {
        x.astype(DType::Float64)?
    })
}

/// NumPy's in-place `a *= b`: the product cast back to `a`'s dtype.
fn scale_in_place(a: &Array, b: &Array) -> Result<Array> {
    let r = ufunc::multiply(a, b)?;
    Ok(if r.dtype() == a.dtype() {
        r
    } else {
        r.astype(a.dtype())?
    })
}

/// NumPy's `polyfit(x, y, deg, rcond, full, w, cov)`: the least-squares
/// polynomial of degree `deg` through `(x[i], y[i])`, as NumPy computes
/// it: the Vandermonde matrix (highest power first) and `y` weighted by
/// `w`, the columns scaled to unit norm (`sqrt(sum(lhs * lhs))`, without
/// conjugation, as NumPy), [`lstsq`] with `rcond`, the scale divided back
/// out; the covariance is `inv(lhs^T lhs) / outer(scale, scale)` times
/// `resids / (M - deg - 1)` (`Scaled`) or 1 (`Unscaled`). NumPy's
/// `RankWarning` has no counterpart: [`PolyfitFull::rank`] tells.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (x, y) = (array([0.0, 1.0, 2.0])?, array([1.0, 3.0, 5.0])?);
/// let fit = polyfit(&x, &y, 1, &PolyfitOptions::default())?; // np.polyfit(x, y, 1)
/// let p = fit.p; // [2, 1]: y = 2x + 1
/// # Ok(()) }
/// ```
///
/// # Errors
/// NumPy's `TypeError`s as [`gpu_array::Error::DType`]: `x` not 1-D or
/// empty, `y` not 1-D or 2-D, lengths that differ, `w` not 1-D or of
/// another length; `Scaled` covariance with `M <= deg + 1` (NumPy's
/// `ValueError`); as [`lstsq`]. The fit is computed in float64 (complex128) for
/// every float input, as NumPy's `vander` promotes.
pub fn polyfit(x: &Array, y: &Array, deg: usize, opts: &PolyfitOptions<'_>) -> Result<Polyfit> {
    let order = deg + 1;
    let x = inexact(x)?;
    let y = inexact(y)?;
    if x.ndim() != 1 {
        return Err(type_err("expected 1D vector for x"));
    }
    if x.size() == 0 {
        return Err(type_err("expected non-empty vector for x"));
    }
    if y.ndim() < 1 || y.ndim() > 2 {
        return Err(type_err("expected 1D or 2D array for y"));
    }
    let m = x.shape()[0];
    if m != y.shape()[0] {
        return Err(type_err("expected x and y to have same length"));
    }
    let rcond = match opts.rcond {
        Some(r) => r,
        None => m as f64 * gpu_array::dtype::finfo(x.dtype().real_dtype())?.eps,
    };
    // np.vander builds its matrix in promote_types(x.dtype, int): float64
    // (complex128) whatever the float width, so the fit is in double as
    // NumPy's; y joins that dtype as lstsq's common type would.
    let vt = gpu_array::dtype::promote_types(x.dtype(), DType::Int64);
    linalg_dtype(vt)?;
    let x = x.astype(vt)?;
    let y = y.astype(gpu_array::dtype::promote_types(vt, y.dtype()))?;
    // np.vander(x, order): powers from deg down to 0.
    let mut lhs = gpu_array::manipulation::flip(&polyvander(&x, deg)?, Some(&[-1isize][..]))?;
    let mut rhs = y.clone();
    if let Some(w) = opts.w {
        let w = inexact(w)?;
        if w.ndim() != 1 {
            return Err(type_err("expected a 1-d array for weights"));
        }
        if w.shape()[0] != m {
            return Err(type_err("expected w and y to have the same length"));
        }
        let wcol = w.reshape([-1, 1])?;
        lhs = scale_in_place(&lhs, &wcol)?;
        rhs = if rhs.ndim() == 2 {
            scale_in_place(&rhs, &wcol)?
        } else {
            scale_in_place(&rhs, &w)?
        };
    }
    // Unit columns improve the condition number (NumPy's scaling).
    let scale = ufunc::sqrt(&sum(&ufunc::multiply(&lhs, &lhs)?, ReduceOptions::axis(0))?)?;
    let lhs = ufunc::divide(&lhs, &scale)?;
    let fit = lstsq(&lhs, &rhs, Some(rcond))?;
    let p = if fit.x.ndim() == 2 {
        ufunc::divide(&fit.x, &scale.reshape([-1, 1])?)?
    } else {
        ufunc::divide(&fit.x, &scale)?
    };
    if opts.full {
        return Ok(Polyfit {
            p,
            full: Some(PolyfitFull {
                residuals: fit.residuals,
                rank: fit.rank,
                singular_values: fit.s,
                rcond,
            }),
            cov: None,
        });
    }
    let cov = match opts.cov {
        PolyCov::Off => None,
        c => {
            let lt = lhs.swapaxes(0, 1)?;
            let vbase = ufunc::divide(&inv(&dot(&lt, &lhs)?)?, &outer(&scale, &scale)?)?;
            let vbase = if y.ndim() == 2 {
                vbase.expand_dims(&[-1])?
            } else {
                vbase
            };
            Some(if c == PolyCov::Unscaled {
                vbase
            } else {
                if m <= order {
                    return Err(value(
                        "the number of data points must exceed order to scale the covariance matrix",
                    ));
                }
                let fac = ufunc::divide(&fit.residuals, (m - order) as f64)?;
                ufunc::multiply(&vbase, &fac)?
            })
        }
    };
    Ok(Polyfit { p, full: None, cov })
}
