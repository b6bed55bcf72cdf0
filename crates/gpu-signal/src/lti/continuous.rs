//! Simulation of continuous-time systems (SciPy's `lsim`, `impulse`,
//! `step`): the state held (zero order) or linearly interpolated (first
//! order) between equally spaced times, each step the exponential of one
//! augmented matrix, on the host as SciPy computes it.

use gpu_array::{Array, DType, Error, Result};

use super::matrix::{Mat, expm};
use super::simulate::{LtiSystem, state_space};
use super::{StateSpace, upload_matrix};
use crate::design::freqz::linspace;
use crate::design::linalg::{charpoly, roots};
use crate::filtering::host_reals;

/// `x @ m` for a row vector `x`.
fn row_times(x: &[f64], m: &Mat) -> Vec<f64> {
    (0..m.c)
        .map(|j| (0..m.r).map(|i| x[i] * m.at(i, j)).sum())
        .collect()
}

/// The outputs and states of [`lsim_host`], `steps x q` and `steps x n`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContinuousSim {
    pub y: Vec<f64>,
    pub x: Vec<f64>,
}

/// SciPy's `lsim` on the host: `u` is `steps x p` (none: no input), `t`
/// the equally spaced times.
pub(crate) fn lsim_host(
    s: &StateSpace,
    u: Option<&[f64]>,
    t: &[f64],
    x0: Option<&[f64]>,
    interp: bool,
) -> Result<ContinuousSim> {
    let (n, p, q) = (s.n, s.p, s.q);
    let steps = t.len();
    if steps == 0 {
        return Err(Error::Value("T must have at least one time".into()));
    }
    let a = Mat {
        v: s.a.clone(),
        r: n,
        c: n,
    };
    let x0 = match x0 {
        None => vec![0.0; n],
        Some(x) if x.len() == n => x.to_vec(),
        Some(x) => {
            return Err(Error::Value(format!(
                "an initial state of {} values for {n} states",
                x.len()
            )));
        }
    };
    let mut x = vec![0.0; steps * n];
    if t[0] == 0.0 {
        x[..n].copy_from_slice(&x0);
    } else if t[0] > 0.0 {
        let e = expm(&a.transpose().scale(t[0]))?;
        x[..n].copy_from_slice(&row_times(&x0, &e));
    } else {
        return Err(Error::Value("Initial time must be nonnegative".into()));
    }
    let no_input = u.is_none_or(|u| u.iter().all(|&v| v == 0.0));
    if let Some(u) = u
        && u.len() != steps * p
    {
        return Err(Error::Value(if p > 0 && u.len().is_multiple_of(p) {
            "U must have the same number of rows as elements in T.".into()
        } else {
            "System does not define that many inputs.".into()
        }));
    }
    let output = |x: &[f64]| -> Vec<f64> {
        let mut y = vec![0.0; steps * q];
        for k in 0..steps {
            for i in 0..q {
                let mut v: f64 = (0..n).map(|j| x[k * n + j] * s.c[i * n + j]).sum();
                if let (false, Some(u)) = (no_input, u) {
                    v += (0..p).map(|j| u[k * p + j] * s.d[i * p + j]).sum::<f64>();
                }
                y[k * q + i] = v;
            }
        }
        y
    };
    if steps == 1 {
        return Ok(ContinuousSim { y: output(&x), x });
    }
    let dt = t[1] - t[0];
    // NumPy's allclose(diff(T), dt).
    if t.windows(2)
        .any(|w| ((w[1] - w[0]) - dt).abs() > 1e-8 + 1e-5 * dt.abs())
    {
        return Err(Error::Value("Time steps are not equally spaced.".into()));
    }
    if no_input {
        let e = expm(&a.transpose().scale(dt))?;
        for k in 1..steps {
            let next = row_times(&x[(k - 1) * n..k * n], &e);
            x[k * n..(k + 1) * n].copy_from_slice(&next);
        }
        return Ok(ContinuousSim { y: output(&x), x });
    }
    let u = u.unwrap_or(&[]);
    let b = Mat {
        v: s.b.clone(),
        r: n,
        c: p,
    };
    let urow = |k: usize| &u[k * p..(k + 1) * p];
    if !interp {
        // e^([[A dt, B dt], [0, 0]]^T): Ad and Bd from its first columns.
        let mut m = Mat::zeros(n + p, n + p);
        m.put(0, 0, &a.scale(dt));
        m.put(0, n, &b.scale(dt));
        let e = expm(&m.transpose())?;
        let (ad, bd) = (e.block(0, 0, n, n), e.block(n, 0, p, n));
        for k in 1..steps {
            let xa = row_times(&x[(k - 1) * n..k * n], &ad);
            let ub = row_times(urow(k - 1), &bd);
            for i in 0..n {
                x[k * n + i] = xa[i] + ub[i];
            }
        }
    } else {
        let mut m = Mat::zeros(n + 2 * p, n + 2 * p);
        m.put(0, 0, &a.scale(dt));
        m.put(0, n, &b.scale(dt));
        m.put(n, n + p, &Mat::eye(p));
        let e = expm(&m.transpose())?;
        let ad = e.block(0, 0, n, n);
        let bd1 = e.block(n + p, 0, p, n);
        let bd0 = e.block(n, 0, p, n).axpby(1.0, &bd1, -1.0);
        for k in 1..steps {
            let xa = row_times(&x[(k - 1) * n..k * n], &ad);
            let u0 = row_times(urow(k - 1), &bd0);
            let u1 = row_times(urow(k), &bd1);
            for i in 0..n {
                x[k * n + i] = xa[i] + u0[i] + u1[i];
            }
        }
    }
    Ok(ContinuousSim { y: output(&x), x })
}

/// SciPy's `_default_response_times(A, n)`: `n` times from 0 to seven
/// time constants of the slowest mode (its eigenvalue's real part; the
/// eigenvalues here are the characteristic polynomial's roots).
pub(crate) fn default_times(s: &StateSpace, n: usize) -> Result<Vec<f64>> {
    crate::design::freqz::check_count(n)?;
    if s.n == 0 {
        return Err(Error::Value(
            "default response times of a system with no states".into(),
        ));
    }
    let poly: Vec<num_complex::Complex64> = charpoly(&s.a, s.n)
        .into_iter()
        .map(|c| num_complex::Complex64::new(c, 0.0))
        .collect();
    let r = roots(&poly)
        .iter()
        .map(|v| v.re.abs())
        .fold(f64::INFINITY, f64::min);
    let r = if r == 0.0 { 1.0 } else { r };
    Ok(linspace(7.0 * (1.0 / r), n, true))
}

/// SciPy's keywords of [`lsim_with`]: `x0` (none: zeros) and `interp`
/// (true: first-order hold; false: zero-order).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct LsimOptions<'a> {
    /// The initial state.
    pub x0: Option<&'a Array>,
    /// Interpolate the input linearly between the times (else hold it).
    pub interp: bool,
}

impl Default for LsimOptions<'_> {
    fn default() -> Self {
        LsimOptions {
            x0: None,
            interp: true,
        }
    }
}

impl<'a> LsimOptions<'a> {
    /// Sets `x0`.
    #[must_use]
    pub fn x0(mut self, x0: Option<&'a Array>) -> Self {
        self.x0 = x0;
        self
    }

    /// Sets `interp`.
    ///
    /// ```
    /// assert!(!gpu_signal::LsimOptions::default().interp(false).interp);
    /// ```
    #[must_use]
    pub fn interp(mut self, interp: bool) -> Self {
        self.interp = interp;
        self
    }
}

/// What [`lsim`] returns: the times, outputs (`steps x outputs`) and
/// states (`steps x states`), float64 device arrays (SciPy squeezes the
/// single-output and single-state axes away; here they stay).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Lsim {
    /// Times.
    pub t: Array,
    /// Outputs.
    pub y: Array,
    /// States.
    pub x: Array,
}

/// SciPy's `lsim(system, U, T)`: the response of the continuous-time
/// system to the input `u` (`(steps,)` or `(steps, inputs)`; none: no
/// input) at the equally spaced times `t`, the input interpolated
/// linearly between them; simulated on the host.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let t = gpu_array::creation::linspace(0.0, 5.0, 51)?;
/// let u = gpu_array::creation::ones([51], gpu_array::DType::Float64)?;
/// let r = gpu_signal::lsim(&LtiSystem::Tf { num: &num, den: &den }, Some(&u), &t)?; // 1 - e^-t
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lsim_with`].
pub fn lsim(system: &LtiSystem<'_>, u: Option<&Array>, t: &Array) -> Result<Lsim> {
    lsim_with(system, u, t, &LsimOptions::default())
}

/// [`lsim`] with SciPy's `X0=` and `interp=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{LsimOptions, LtiSystem};
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 1.0], &[2])?;
/// let t = gpu_array::creation::linspace(0.0, 5.0, 51)?;
/// let x0 = Array::from_slice(&[1.0f64], &[1])?;
/// let o = LsimOptions::default().x0(Some(&x0)).interp(false);
/// let r = gpu_signal::lsim_with(&LtiSystem::Tf { num: &num, den: &den }, None, &t, &o)?; // e^-t
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): times not equally spaced or starting below 0, an
/// input not one row a time or not one column an input; `t` not 1-D; an
/// initial state not one value a state; the system's errors.
pub fn lsim_with(
    system: &LtiSystem<'_>,
    u: Option<&Array>,
    t: &Array,
    opts: &LsimOptions<'_>,
) -> Result<Lsim> {
    if t.ndim() != 1 {
        return Err(Error::Value("T must be a rank-1 array.".into()));
    }
    let s = state_space(system)?;
    let th = host_reals(t, "lsim T")?;
    let uh = u.map(|u| host_reals(u, "lsim U")).transpose()?;
    let x0 = opts.x0.map(|x| host_reals(x, "lsim X0")).transpose()?;
    let r = lsim_host(&s, uh.as_deref(), &th, x0.as_deref(), opts.interp)?;
    let steps = th.len();
    Ok(Lsim {
        t: t.astype(DType::Float64)?,
        y: upload_matrix(&r.y, steps, s.q)?,
        x: upload_matrix(&r.x, steps, s.n)?,
    })
}

/// SciPy's keywords of [`impulse_with`] and [`step_with`]: `x0` (none:
/// zeros), `t` (none: `n` times from 0 to seven time constants of the
/// slowest mode) and `n` (100).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct ResponseOptions<'a> {
    /// The initial state.
    pub x0: Option<&'a Array>,
    /// The times.
    pub t: Option<&'a Array>,
    /// The number of default times.
    pub n: Option<usize>,
}

impl<'a> ResponseOptions<'a> {
    /// Sets `x0`.
    #[must_use]
    pub fn x0(mut self, x0: Option<&'a Array>) -> Self {
        self.x0 = x0;
        self
    }

    /// Sets `t`.
    #[must_use]
    pub fn t(mut self, t: Option<&'a Array>) -> Self {
        self.t = t;
        self
    }

    /// Sets `n`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::ResponseOptions::default().n(Some(20)).n, Some(20));
    /// ```
    #[must_use]
    pub fn n(mut self, n: Option<usize>) -> Self {
        self.n = n;
        self
    }
}

/// SciPy's `impulse` or `step` on the host: the times and `steps x q`
/// outputs.
pub(crate) fn response_host(
    s: &StateSpace,
    step: bool,
    x0: Option<&[f64]>,
    t: Option<Vec<f64>>,
    n: Option<usize>,
) -> Result<(Vec<f64>, Vec<f64>)> {
    let t = match t {
        Some(t) => t,
        None => default_times(s, n.unwrap_or(100))?,
    };
    if step {
        let u = vec![1.0; t.len() * s.p];
        if s.p != 1 {
            return Err(Error::Unsupported(
                "step of a system of several inputs (SciPy's takes one)".into(),
            ));
        }
        let r = lsim_host(s, Some(&u), &t, x0, false)?;
        Ok((t, r.y))
    } else {
        if s.p != 1 {
            return Err(Error::Unsupported(
                "impulse of a system of several inputs (SciPy's takes one)".into(),
            ));
        }
        // The impulse's response is the free response from B (+ x0).
        let mut start = s.b.clone();
        if let Some(x0) = x0 {
            if x0.len() != s.n {
                return Err(Error::Value(format!(
                    "an initial state of {} values for {} states",
                    x0.len(),
                    s.n
                )));
            }
            for (v, x) in start.iter_mut().zip(x0) {
                *v += x;
            }
        }
        let r = lsim_host(s, None, &t, Some(&start), false)?;
        Ok((t, r.y))
    }
}

fn response(system: &LtiSystem<'_>, step: bool, o: &ResponseOptions<'_>) -> Result<(Array, Array)> {
    let s = state_space(system)?;
    let x0 = o.x0.map(|x| host_reals(x, "X0")).transpose()?;
    let t = o.t.map(|t| host_reals(t, "T")).transpose()?;
    let (t, y) = response_host(&s, step, x0.as_deref(), t, o.n)?;
    Ok((
        Array::from_slice(&t, &[t.len()])?,
        upload_matrix(&y, t.len(), s.q)?,
    ))
}

/// SciPy's `impulse(system)`: the response of the single-input
/// continuous-time system to a unit impulse at 100 times spanning seven
/// time constants of its slowest mode, as `(t, y)` (`y` of `steps x
/// outputs`), simulated on the host.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let (t, y) = gpu_signal::impulse(&LtiSystem::Tf { num: &num, den: &den })?; // e^-2t to t = 3.5
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`impulse_with`].
pub fn impulse(system: &LtiSystem<'_>) -> Result<(Array, Array)> {
    impulse_with(system, &ResponseOptions::default())
}

/// [`impulse`] with SciPy's `X0=`, `T=` and `N=`: the free response from
/// `B + X0` (SciPy's own forms `B + X0` by broadcasting, which fails past
/// one state).
///
/// # Errors
/// A system of several inputs (`Unsupported`, as SciPy's takes one); as
/// [`lsim_with`].
pub fn impulse_with(system: &LtiSystem<'_>, opts: &ResponseOptions<'_>) -> Result<(Array, Array)> {
    response(system, false, opts)
}

/// SciPy's `step(system)`: as [`impulse`], for a unit step.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let (t, y) = gpu_signal::step(&LtiSystem::Tf { num: &num, den: &den })?; // (1 - e^-2t) / 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`impulse_with`].
pub fn step(system: &LtiSystem<'_>) -> Result<(Array, Array)> {
    step_with(system, &ResponseOptions::default())
}

/// [`step`] with SciPy's `X0=`, `T=` and `N=`.
///
/// # Errors
/// As [`impulse_with`].
pub fn step_with(system: &LtiSystem<'_>, opts: &ResponseOptions<'_>) -> Result<(Array, Array)> {
    response(system, true, opts)
}
