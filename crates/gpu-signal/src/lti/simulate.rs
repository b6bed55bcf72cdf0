//! Simulation of discrete-time systems (SciPy's `dlsim`, `dimpulse`,
//! `dstep`): the state recursion `x[k+1] = A x[k] + B u[k]`, `y[k] = C
//! x[k] + D u[k]` run on the host, as SciPy's loop runs it (one step
//! depends on the last), with the input copied from the device and the
//! responses uploaded.

use gpu_array::{Array, Error, Result};

use super::{StateSpace, host_system, tf2ss_host, upload_matrix};
use crate::design::freqz::linspace;
use crate::design::zpk::Zpk;
use crate::filtering::{host_reals, host_values, positive_finite};

/// A linear time-invariant system (SciPy's `lti` tuples, and its `dlti`
/// tuples without their `dt`): a transfer function, zeros, poles and
/// gain, or a state space.
#[derive(Debug, Clone, Copy)]
pub enum LtiSystem<'a> {
    /// A transfer function `num / den` (highest power first).
    Tf {
        /// Numerator.
        num: &'a Array,
        /// Denominator.
        den: &'a Array,
    },
    /// Zeros, poles and gain.
    Zpk {
        /// Zeros.
        z: &'a Array,
        /// Poles.
        p: &'a Array,
        /// Gain.
        k: f64,
    },
    /// A state-space system `(A, B, C, D)`.
    Ss {
        /// State matrix.
        a: &'a Array,
        /// Input matrix.
        b: &'a Array,
        /// Output matrix.
        c: &'a Array,
        /// Feedthrough matrix.
        d: &'a Array,
    },
}

/// The system's state space on the host (SciPy's `_as_ss`).
pub(crate) fn state_space(sys: &LtiSystem<'_>) -> Result<StateSpace> {
    match *sys {
        LtiSystem::Tf { num, den } => {
            tf2ss_host(&host_reals(num, "num")?, &host_reals(den, "den")?)
        }
        LtiSystem::Zpk { z, p, k } => {
            let (b, a) = Zpk {
                z: host_values(z)?,
                p: host_values(p)?,
                k,
            }
            .ba();
            tf2ss_host(&b, &a)
        }
        LtiSystem::Ss { a, b, c, d } => host_system(a, b, c, d),
    }
}

/// `x` linearly interpolated at `at` from samples `y` (`rows x width`) at
/// the increasing `t` (SciPy's `make_interp_spline(t, y, k=1)`, which
/// extrapolates the end pieces).
fn interpolate(t: &[f64], y: &[f64], width: usize, at: &[f64]) -> Vec<f64> {
    let n = t.len();
    let mut out = Vec::with_capacity(at.len() * width);
    for &x in at {
        if n == 1 {
            out.extend_from_slice(&y[..width]);
            continue;
        }
        // The piece [t[i], t[i+1]] holding x (the end pieces beyond).
        let i = match t.partition_point(|&v| v <= x) {
            0 => 0,
            p => (p - 1).min(n - 2),
        };
        let h = t[i + 1] - t[i];
        let (w0, w1) = ((t[i + 1] - x) / h, (x - t[i]) / h);
        for j in 0..width {
            out.push(y[i * width + j] * w0 + y[(i + 1) * width + j] * w1);
        }
    }
    out
}

/// The responses of [`dlsim_host`]: times, outputs (`samples x q`) and
/// states (`samples x n`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct HostSim {
    pub t: Vec<f64>,
    pub y: Vec<f64>,
    pub x: Vec<f64>,
    pub samples: usize,
}

/// `samples * width` zeros, or an error where they would not fit (`other`:
/// the other array's width, for the message).
fn zeros(samples: usize, width: usize, other: usize) -> Result<Vec<f64>> {
    let too_many = || {
        Error::Value(format!(
            "dlsim: {samples} steps of widths {width} and {other} do not fit in memory"
        ))
    };
    // At most 2 GiB an array: past that Linux's overcommit lets a
    // reservation succeed that the first touch then kills.
    let len = samples
        .checked_mul(width)
        .filter(|&l| l <= 1 << 28)
        .ok_or_else(too_many)?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| too_many())?;
    v.resize(len, 0.0);
    Ok(v)
}

/// SciPy's `dlsim` on the host: `u` is `len x p` (row-major), `t` its
/// times (none: one sample a step).
pub(crate) fn dlsim_host(
    s: &StateSpace,
    dt: f64,
    u: &[f64],
    t: Option<&[f64]>,
    x0: Option<&[f64]>,
) -> Result<HostSim> {
    positive_finite(dt, "the sampling interval dt")?;
    let (n, p, q) = (s.n, s.p, s.q);
    if p == 0 || !u.len().is_multiple_of(p) {
        return Err(Error::Value(format!(
            "dlsim: the input has {} values, not a multiple of the system's {p} inputs",
            u.len()
        )));
    }
    let rows = u.len() / p;
    let (samples, stop, u_dt) = match t {
        None => (rows, rows.saturating_sub(1) as f64 * dt, u.to_vec()),
        Some(t) => {
            if t.len() != rows || rows == 0 {
                return Err(Error::Value(format!(
                    "dlsim: {} times for {rows} input samples",
                    t.len()
                )));
            }
            if t.windows(2).any(|w| w[1] <= w[0]) || t.iter().any(|v| !v.is_finite()) {
                return Err(Error::Value(
                    "dlsim: the times must be finite and increasing".into(),
                ));
            }
            let stop = t[rows - 1];
            let steps = (stop / dt).floor();
            // Every array of the simulation is at most 2^28 values (2 GiB):
            // past that Linux's overcommit lets an allocation succeed that
            // the first touch then kills.
            let width = n.max(p).max(q).max(1) as f64;
            if !(0.0..=(1u64 << 28) as f64 / width).contains(&steps) {
                return Err(Error::Value(format!(
                    "dlsim: {steps} steps from 0 to {stop} of {n} states, {p} inputs and {q} \
                     outputs do not fit in memory"
                )));
            }
            let samples = steps as usize + 1;
            let tout = linspace(stop, samples, true);
            (samples, stop, interpolate(t, u, p, &tout))
        }
    };
    if samples == 0 {
        return Err(Error::Value("dlsim: an empty input".into()));
    }
    let tout = linspace(stop, samples, true);
    // Reserved fallibly: a time grid of a tiny dt asks for more than
    // memory holds.
    let mut x = zeros(samples, n, q)?;
    if let Some(x0) = x0 {
        if x0.len() != n {
            return Err(Error::Value(format!(
                "dlsim: an initial state of {} values for {n} states",
                x0.len()
            )));
        }
        x[..n].copy_from_slice(x0);
    }
    let mut y = zeros(samples, q, n)?;
    let dot = |m: &[f64], cols: usize, row: usize, v: &[f64]| -> f64 {
        (0..cols).map(|j| m[row * cols + j] * v[j]).sum()
    };
    for k in 0..samples {
        let uk = &u_dt[k * p..(k + 1) * p];
        // This step's state and the next one's slots, without a copy.
        let (done, rest) = x.split_at_mut((k + 1) * n);
        let xk = &done[k * n..];
        if k + 1 < samples {
            for (i, next) in rest[..n].iter_mut().enumerate() {
                *next = dot(&s.a, n, i, xk) + dot(&s.b, p, i, uk);
            }
        }
        for i in 0..q {
            y[k * q + i] = dot(&s.c, n, i, xk) + dot(&s.d, p, i, uk);
        }
    }
    Ok(HostSim {
        t: tout,
        y,
        x,
        samples,
    })
}

/// SciPy's keywords of [`dlsim_with`]: the input's times `t` (none: one
/// sample a step) and the initial state `x0` (none: zeros).
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct DlsimOptions<'a> {
    /// The times of the input's samples (increasing).
    pub t: Option<&'a Array>,
    /// The initial state.
    pub x0: Option<&'a Array>,
}

impl<'a> DlsimOptions<'a> {
    /// Sets `t`.
    #[must_use]
    pub fn t(mut self, t: Option<&'a Array>) -> Self {
        self.t = t;
        self
    }

    /// Sets `x0`.
    #[must_use]
    pub fn x0(mut self, x0: Option<&'a Array>) -> Self {
        self.x0 = x0;
        self
    }
}

/// What [`dlsim`] returns: the times, the outputs (`samples x outputs`)
/// and, for a state-space system only (as SciPy), the states (`samples x
/// states`), float64 device arrays.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Dlsim {
    /// Times.
    pub t: Array,
    /// Outputs.
    pub y: Array,
    /// States (state-space systems).
    pub x: Option<Array>,
}

/// SciPy's `dlsim(system + (dt,), u)`: the response of the discrete-time
/// system of sampling interval `dt` to the input `u` (`(samples,)` or
/// `(samples, inputs)`), simulated on the host (see the module docs).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let u = Array::from_slice(&[1.0f64, 0.0, 0.0, 0.0], &[4])?;
/// let r = gpu_signal::dlsim(&LtiSystem::Tf { num: &num, den: &den }, 0.1, &u)?;
/// // r.y = [[0], [1], [0.5], [0.25]]: y[k] = 0.5 y[k-1] + u[k-1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`dlsim_with`].
pub fn dlsim(system: &LtiSystem<'_>, dt: f64, u: &Array) -> Result<Dlsim> {
    dlsim_with(system, dt, u, &DlsimOptions::default())
}

/// [`dlsim`] with SciPy's `t=` (the input linearly interpolated at the
/// steps up to `t`'s last time) and `x0=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{DlsimOptions, LtiSystem};
/// # fn main() -> gpu_array::Result<()> {
/// let m = |v: &[f64], r, c| Array::from_slice(v, &[r, c]);
/// let (a, b, c, d) = (m(&[0.9], 1, 1)?, m(&[1.0], 1, 1)?, m(&[1.0], 1, 1)?, m(&[0.0], 1, 1)?);
/// let u = Array::zeros([5], gpu_array::DType::Float64)?;
/// let x0 = Array::from_slice(&[1.0f64], &[1])?;
/// let sys = LtiSystem::Ss { a: &a, b: &b, c: &c, d: &d };
/// let r = gpu_signal::dlsim_with(&sys, 1.0, &u, &DlsimOptions::default().x0(Some(&x0)))?;
/// // y = 0.9^k
/// # Ok(()) }
/// ```
///
/// # Errors
/// The system's errors (as [`tf2ss`](crate::tf2ss), [`ss2tf`](crate::ss2tf));
/// an input of more than two dimensions or not one column an input,
/// times not as many as the input's samples or not increasing, an initial
/// state not one value a state, `dt` not positive (`Value`).
pub fn dlsim_with(
    system: &LtiSystem<'_>,
    dt: f64,
    u: &Array,
    opts: &DlsimOptions<'_>,
) -> Result<Dlsim> {
    let s = state_space(system)?;
    if u.ndim() > 2 {
        return Err(Error::Value(
            "dlsim: the input has more than two dimensions".into(),
        ));
    }
    // (samples,) is one input's column.
    let columns = if u.ndim() == 2 { u.shape()[1] } else { 1 };
    if columns != s.p {
        return Err(Error::Value(format!(
            "dlsim: an input of {columns} columns for a system of {} inputs",
            s.p
        )));
    }
    let uh = host_reals(u, "dlsim input")?;
    let t = opts.t.map(|t| host_reals(t, "dlsim times")).transpose()?;
    let x0 = opts.x0.map(|x| host_reals(x, "dlsim x0")).transpose()?;
    let r = dlsim_host(&s, dt, &uh, t.as_deref(), x0.as_deref())?;
    Ok(Dlsim {
        t: Array::from_slice(&r.t, &[r.samples])?,
        y: upload_matrix(&r.y, r.samples, s.q)?,
        x: match system {
            LtiSystem::Ss { .. } => Some(upload_matrix(&r.x, r.samples, s.n)?),
            _ => None,
        },
    })
}

/// SciPy's `dimpulse`/`dstep` on the host: for each input, the response
/// to a unit impulse (`step` false) or step at it, over `n` steps.
pub(crate) fn responses_host(
    s: &StateSpace,
    dt: f64,
    n: usize,
    step: bool,
    x0: Option<&[f64]>,
) -> Result<(Vec<f64>, Vec<Vec<f64>>)> {
    if n == 0 {
        return Err(Error::Value(
            "the number of time steps n must be positive".into(),
        ));
    }
    crate::design::freqz::check_count(n)?;
    let t = linspace(n as f64 * dt, n, false);
    let mut outs = Vec::with_capacity(s.p);
    let mut tout = Vec::new();
    for i in 0..s.p {
        let mut u = vec![0.0; n * s.p];
        for k in 0..n {
            if step || k == 0 {
                u[k * s.p + i] = 1.0;
            }
        }
        let r = dlsim_host(s, dt, &u, Some(&t), x0)?;
        tout = r.t;
        outs.push(r.y);
    }
    Ok((tout, outs))
}

fn responses(
    system: &LtiSystem<'_>,
    dt: f64,
    n: Option<usize>,
    step: bool,
) -> Result<(Array, Vec<Array>)> {
    let s = state_space(system)?;
    let (t, outs) = responses_host(&s, dt, n.unwrap_or(100), step, None)?;
    let samples = t.len();
    let ys = outs
        .iter()
        .map(|y| upload_matrix(y, samples, s.q))
        .collect::<Result<Vec<_>>>()?;
    Ok((Array::from_slice(&t, &[samples])?, ys))
}

/// SciPy's `dimpulse(system + (dt,), n=n)`: the response to a unit
/// impulse at each input in turn, over `n` steps (none: 100), as the
/// times and one `(samples, outputs)` array an input (simulated on the
/// host).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let (t, y) = gpu_signal::dimpulse(&LtiSystem::Tf { num: &num, den: &den }, 1.0, Some(5))?;
/// // y[0] = [[0], [1], [0.5], [0.25], [0.125]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`dlsim_with`]; `n` zero (`Value`).
pub fn dimpulse(system: &LtiSystem<'_>, dt: f64, n: Option<usize>) -> Result<(Array, Vec<Array>)> {
    responses(system, dt, n, false)
}

/// SciPy's `dstep(system + (dt,), n=n)`: as [`dimpulse`], for a unit step.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::LtiSystem;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64], &[1])?;
/// let den = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let (t, y) = gpu_signal::dstep(&LtiSystem::Tf { num: &num, den: &den }, 1.0, Some(4))?;
/// // y[0] = [[0], [1], [1.5], [1.75]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`dimpulse`].
pub fn dstep(system: &LtiSystem<'_>, dt: f64, n: Option<usize>) -> Result<(Array, Vec<Array>)> {
    responses(system, dt, n, true)
}
