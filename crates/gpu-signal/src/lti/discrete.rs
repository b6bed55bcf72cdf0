//! Discretization of continuous-time systems (SciPy's `cont2discrete`):
//! the generalized bilinear transform (with its bilinear/Tustin, Euler
//! and backward-difference cases), zero- and first-order holds and the
//! impulse-invariant map, on the host, as SciPy computes them.

use std::str::FromStr;

use gpu_array::{Array, Error, Result};

use super::matrix::{Mat, expm, solve};
use super::{StateSpace, host_system, ss2tf_host, tf2ss_host, upload_matrix};
use crate::design::zpk::upload_real;

/// The discretization (SciPy's `method=` and `alpha=`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Discretization {
    /// The generalized bilinear transform with weight `alpha` in `[0, 1]`.
    Gbt(f64),
    /// Bilinear (Tustin): `Gbt(0.5)`.
    Bilinear,
    /// Forward difference (Euler): `Gbt(0)`.
    Euler,
    /// Backward difference: `Gbt(1)`.
    BackwardDiff,
    /// Zero-order hold (SciPy's default).
    #[default]
    Zoh,
    /// First-order hold (triangle).
    Foh,
    /// Impulse invariance (strictly proper systems).
    Impulse,
}

impl FromStr for Discretization {
    type Err = Error;

    /// SciPy's names; `"gbt"` needs its `alpha`, so it is [`Discretization::Gbt`]
    /// built directly.
    ///
    /// ```
    /// use gpu_signal::Discretization;
    /// assert_eq!("tustin".parse::<Discretization>()?, Discretization::Bilinear);
    /// assert!("gbt".parse::<Discretization>().is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "bilinear" | "tustin" => Discretization::Bilinear,
            "euler" | "forward_diff" => Discretization::Euler,
            "backward_diff" => Discretization::BackwardDiff,
            "zoh" => Discretization::Zoh,
            "foh" => Discretization::Foh,
            "impulse" => Discretization::Impulse,
            "gbt" => {
                return Err(Error::Value(
                    "Alpha parameter must be specified for the generalized bilinear transform \
                     (gbt) method"
                        .into(),
                ));
            }
            _ => return Err(Error::Value(format!("Unknown transformation method '{s}'"))),
        })
    }
}

fn mat(s: &StateSpace) -> (Mat, Mat, Mat, Mat) {
    let m = |v: &Vec<f64>, r, c| Mat { v: v.clone(), r, c };
    (
        m(&s.a, s.n, s.n),
        m(&s.b, s.n, s.p),
        m(&s.c, s.q, s.n),
        m(&s.d, s.q, s.p),
    )
}

/// SciPy's `cont2discrete((A, B, C, D), dt, method)` on the host.
pub(crate) fn c2d_host(s: &StateSpace, dt: f64, method: Discretization) -> Result<StateSpace> {
    crate::filtering::positive_finite(dt, "the sampling interval dt")?;
    let (a, b, c, d) = mat(s);
    let (n, m) = (s.n, s.p);
    let (ad, bd, cd, dd) = match method {
        Discretization::Gbt(alpha) => {
            if alpha.is_nan() || !(0.0..=1.0).contains(&alpha) {
                return Err(Error::Value(
                    "Alpha parameter must be within the interval [0,1] for the gbt method".into(),
                ));
            }
            let eye = Mat::eye(n);
            let ima = eye.axpby(1.0, &a, -alpha * dt);
            let ad = solve(&ima, &eye.axpby(1.0, &a, (1.0 - alpha) * dt))?;
            let bd = solve(&ima, &b.scale(dt))?;
            let cd = solve(&ima.transpose(), &c.transpose())?.transpose();
            let dd = d.axpby(1.0, &c.mul(&bd), alpha);
            (ad, bd, cd, dd)
        }
        Discretization::Bilinear => return c2d_host(s, dt, Discretization::Gbt(0.5)),
        Discretization::Euler => return c2d_host(s, dt, Discretization::Gbt(0.0)),
        Discretization::BackwardDiff => return c2d_host(s, dt, Discretization::Gbt(1.0)),
        Discretization::Zoh => {
            // e^(dt [[A, B], [0, 0]]): its top rows are [Ad, Bd].
            let mut em = Mat::zeros(n + m, n + m);
            em.put(0, 0, &a);
            em.put(0, n, &b);
            let ms = expm(&em.scale(dt))?;
            (ms.block(0, 0, n, n), ms.block(0, n, n, m), c, d)
        }
        Discretization::Foh => {
            // e^[[A dt, B dt, 0], [0, 0, I], [0, 0, 0]].
            let mut em = Mat::zeros(n + 2 * m, n + 2 * m);
            em.put(0, 0, &a.scale(dt));
            em.put(0, n, &b.scale(dt));
            em.put(n, n + m, &Mat::eye(m));
            let ms = expm(&em)?;
            let (ms11, ms12, ms13) = (
                ms.block(0, 0, n, n),
                ms.block(0, n, n, m),
                ms.block(0, n + m, n, m),
            );
            let bd = ms12
                .axpby(1.0, &ms13, -1.0)
                .axpby(1.0, &ms11.mul(&ms13), 1.0);
            let dd = d.axpby(1.0, &c.mul(&ms13), 1.0);
            (ms11, bd, c, dd)
        }
        Discretization::Impulse => {
            // NumPy's allclose(d, 0): |d| <= 1e-8.
            if d.v.iter().any(|v| v.abs() > 1e-8) {
                return Err(Error::Value(
                    "Impulse method is only applicable to strictly proper systems".into(),
                ));
            }
            let ad = expm(&a.scale(dt))?;
            let bd = ad.mul(&b).scale(dt);
            let dd = c.mul(&b).scale(dt);
            (ad, bd, c, dd)
        }
    };
    Ok(StateSpace {
        a: ad.v,
        b: bd.v,
        c: cd.v,
        d: dd.v,
        n,
        p: s.p,
        q: s.q,
    })
}

/// SciPy's `cont2discrete((A, B, C, D), dt, method)`: the discrete-time
/// state-space system of sampling interval `dt`, as float64 device
/// matrices (computed on the host; SciPy appends `dt` to the tuple). A
/// size-0 matrix stands for a missing one, as in [`ss2tf`](crate::ss2tf).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::Discretization;
/// # fn main() -> gpu_array::Result<()> {
/// let a = Array::from_slice(&[-1.0f64], &[1, 1])?;
/// let b = Array::from_slice(&[1.0f64], &[1, 1])?;
/// let c = Array::from_slice(&[1.0f64], &[1, 1])?;
/// let d = Array::from_slice(&[0.0f64], &[1, 1])?;
/// let (ad, bd, cd, dd) = gpu_signal::cont2discrete_ss(&a, &b, &c, &d, 0.1, Discretization::Zoh)?;
/// // ad = e^-0.1, bd = 1 - e^-0.1
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `alpha` outside `[0, 1]`, the impulse method on a
/// system with feedthrough; shapes that do not agree; `dt` not positive
/// and finite; a singular `I - alpha dt A` (`Singular`).
pub fn cont2discrete_ss(
    a: &Array,
    b: &Array,
    c: &Array,
    d: &Array,
    dt: f64,
    method: Discretization,
) -> Result<(Array, Array, Array, Array)> {
    let s = host_system(a, b, c, d)?;
    let r = c2d_host(&s, dt, method)?;
    Ok((
        upload_matrix(&r.a, r.n, r.n)?,
        upload_matrix(&r.b, r.n, r.p)?,
        upload_matrix(&r.c, r.q, r.n)?,
        upload_matrix(&r.d, r.q, r.p)?,
    ))
}

/// SciPy's `cont2discrete((num, den), dt, method)` on the host: through
/// the state space and back.
pub(crate) fn c2d_tf_host(
    num: &[f64],
    den: &[f64],
    dt: f64,
    method: Discretization,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let s = tf2ss_host(num, den)?;
    ss2tf_host(&c2d_host(&s, dt, method)?, 0)
}

/// SciPy's `cont2discrete((num, den), dt, method)`: the discrete-time
/// transfer function, as `(num, den)` (`num` of shape `(1, len)`, as
/// SciPy's) float64 device arrays computed on the host.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::Discretization;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let (nd, dd) = gpu_signal::cont2discrete_tf(&num, &den, 0.1, Discretization::Bilinear)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cont2discrete_ss`] and [`tf2ss`](crate::tf2ss).
pub fn cont2discrete_tf(
    num: &Array,
    den: &Array,
    dt: f64,
    method: Discretization,
) -> Result<(Array, Array)> {
    let (n, d) = c2d_tf_host(
        &super::one_d_real(num, "cont2discrete num")?,
        &super::one_d_real(den, "cont2discrete den")?,
        dt,
        method,
    )?;
    Ok((upload_matrix(&n, 1, n.len())?, upload_real(&d)?))
}

/// SciPy's `cont2discrete((z, p, k), dt, method)` on the host: through
/// the transfer function and the state space and back.
pub(crate) fn c2d_zpk_host(
    z: &[num_complex::Complex64],
    p: &[num_complex::Complex64],
    k: f64,
    dt: f64,
    method: Discretization,
) -> Result<crate::design::zpk::Zpk> {
    let f = crate::design::zpk::Zpk {
        z: z.to_vec(),
        p: p.to_vec(),
        k,
    };
    let (b, a) = f.ba();
    let (nd, dd) = c2d_tf_host(&b, &a, dt, method)?;
    let c = |v: &[f64]| -> Vec<num_complex::Complex64> {
        v.iter()
            .map(|&x| num_complex::Complex64::new(x, 0.0))
            .collect()
    };
    let (zd, pd, kd) = crate::design::zpk::tf2zpk_host(&c(&nd), &c(&dd))?;
    Ok(crate::design::zpk::Zpk {
        z: zd,
        p: pd,
        k: kd.re,
    })
}

/// SciPy's `cont2discrete((z, p, k), dt, method)`: the discrete-time
/// system's zeros, poles (complex128) and gain, computed on the host.
///
/// ```no_run
/// use gpu_signal::Discretization;
/// # fn main() -> gpu_array::Result<()> {
/// let (z, p, k) = gpu_signal::buttap(2)?;
/// let (zd, pd, kd) = gpu_signal::cont2discrete_zpk(&z, &p, k, 0.5, Discretization::Zoh)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cont2discrete_tf`]; zeros or poles not closed under conjugation
/// (complex coefficients, `Unsupported`).
pub fn cont2discrete_zpk(
    z: &Array,
    p: &Array,
    k: f64,
    dt: f64,
    method: Discretization,
) -> Result<(Array, Array, f64)> {
    let (zh, ph) = (
        crate::filtering::host_values(z)?,
        crate::filtering::host_values(p)?,
    );
    if !crate::design::linalg::conjugate_closed(&zh)
        || !crate::design::linalg::conjugate_closed(&ph)
    {
        return Err(Error::Unsupported(
            "cont2discrete of zeros or poles not closed under conjugation (complex coefficients)"
                .into(),
        ));
    }
    crate::design::zpk::upload_zpk(&c2d_zpk_host(&zh, &ph, k, dt, method)?)
}
