//! Conversions between representations of linear time-invariant systems
//! (SciPy's `_lti_conversion`): transfer function to state space
//! ([`tf2ss`], controller canonical form) and back ([`ss2tf`], one input
//! at a time), and their zeros-poles-gain forms ([`zpk2ss`], [`ss2zpk`]);
//! discretization of continuous-time systems (`cont2discrete`:
//! [`cont2discrete_ss`], [`cont2discrete_tf`], [`cont2discrete_zpk`]);
//! simulation of discrete-time systems ([`dlsim`], [`dimpulse`],
//! [`dstep`]) and continuous-time ones ([`lsim`], [`impulse`], [`step`]);
//! frequency responses ([`freqresp`], [`bode`], [`dfreqresp`], [`dbode`]).
//!
//! Small host computations in float64, as the filter designs': the
//! matrices are copied from the device and the results uploaded. The
//! characteristic polynomial `ss2tf` needs comes from a Hessenberg
//! reduction rather than NumPy's eigenvalues (equal to rounding for
//! well-conditioned systems).

use gpu_array::{Array, Error, Result};

mod continuous;
mod discrete;
mod matrix;
mod response;
mod simulate;

pub use continuous::{
    Lsim, LsimOptions, ResponseOptions, impulse, impulse_with, lsim, lsim_with, step, step_with,
};
pub use discrete::{Discretization, cont2discrete_ss, cont2discrete_tf, cont2discrete_zpk};
pub use response::{bode, dbode, dfreqresp, freqresp};
pub use simulate::{Dlsim, DlsimOptions, LtiSystem, dimpulse, dlsim, dlsim_with, dstep};

use crate::design::linalg::charpoly;
use crate::design::zpk::upload_real;
use crate::design::{tf2zpk, zpk2tf};
use crate::filtering::host_reals;

/// A state-space system on the host: `A (n x n)`, `B (n x p)`, `C (q x
/// n)`, `D (q x p)`, row-major.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct StateSpace {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    pub d: Vec<f64>,
    pub n: usize,
    pub p: usize,
    pub q: usize,
}

/// SciPy's `normalize` for one real numerator: `a`'s leading zeros
/// trimmed, both divided by `a[0]`, `b`'s leading near-zeros trimmed.
fn normalize(b: &[f64], a: &[f64]) -> Result<(Vec<f64>, Vec<f64>)> {
    crate::design::transforms::normalize_real(b, a)
}

/// SciPy's `tf2ss(num, den)` on the host (a single-output numerator).
pub(crate) fn tf2ss_host(num: &[f64], den: &[f64]) -> Result<StateSpace> {
    let (num, den) = normalize(num, den)?;
    let (m, k) = (num.len(), den.len());
    if m > k {
        return Err(Error::Value(
            "Improper transfer function. `num` is longer than `den`.".into(),
        ));
    }
    // The numerator padded to the denominator's length.
    let mut padded = vec![0.0; k - m];
    padded.extend_from_slice(&num);
    let d0 = padded[0];
    if k == 1 {
        return Ok(StateSpace {
            a: vec![0.0],
            b: vec![0.0],
            c: vec![0.0],
            d: vec![d0],
            n: 1,
            p: 1,
            q: 1,
        });
    }
    let n = k - 1;
    // Controller canonical form: the first row -den[1:], ones below the
    // diagonal.
    let mut a = vec![0.0; n * n];
    for j in 0..n {
        a[j] = -den[j + 1];
    }
    for i in 1..n {
        a[i * n + i - 1] = 1.0;
    }
    let mut b = vec![0.0; n];
    b[0] = 1.0;
    let c: Vec<f64> = (0..n)
        .map(|j| padded[j + 1] - padded[0] * den[j + 1])
        .collect();
    Ok(StateSpace {
        a,
        b,
        c,
        d: vec![d0],
        n,
        p: 1,
        q: 1,
    })
}

/// SciPy's `ss2tf(A, B, C, D, input)` on the host: one numerator a
/// output (row-major, `q x (n + 1)`) and the denominator.
pub(crate) fn ss2tf_host(s: &StateSpace, input: usize) -> Result<(Vec<f64>, Vec<f64>)> {
    if input >= s.p {
        return Err(Error::Value(
            "System does not have the input specified.".into(),
        ));
    }
    let (n, p, q) = (s.n, s.p, s.q);
    let den = charpoly(&s.a, n);
    let mut num = Vec::with_capacity(q * (n + 1));
    for k in 0..q {
        // poly(A - B[:, input] C[k, :]) + (D[k, input] - 1) den
        let mut m = s.a.clone();
        for i in 0..n {
            for j in 0..n {
                m[i * n + j] -= s.b[i * p + input] * s.c[k * n + j];
            }
        }
        let pk = charpoly(&m, n);
        let dk = s.d[k * p + input];
        num.extend(pk.iter().zip(&den).map(|(x, y)| x + (dk - 1.0) * y));
    }
    Ok((num, den))
}

/// A matrix from the device as row-major float64 with its shape; a size-0
/// array stands for a missing one (SciPy's `None`).
fn host_matrix(m: &Array, name: &str) -> Result<(Vec<f64>, usize, usize)> {
    let (r, c) = match m.shape() {
        [] => (1, 1),
        [c] => (1, *c),
        [r, c] => (*r, *c),
        s => {
            return Err(Error::Value(format!(
                "Parameter {name} has {} dimensions, not 2",
                s.len()
            )));
        }
    };
    if m.size() == 0 {
        return Ok((Vec::new(), 0, 0));
    }
    Ok((host_reals(m, &format!("state-space matrix {name}"))?, r, c))
}

/// SciPy's `abcd_normalize`: the four matrices with missing ones as zeros
/// of the shapes the others give, every shape checked.
pub(crate) fn abcd_normalize(
    a: (Vec<f64>, usize, usize),
    b: (Vec<f64>, usize, usize),
    c: (Vec<f64>, usize, usize),
    d: (Vec<f64>, usize, usize),
) -> Result<StateSpace> {
    let first = |v: [usize; 3]| v.into_iter().find(|&x| x != 0).unwrap_or(0);
    let n = first([a.1, b.1, c.2]);
    let p = first([b.2, d.2, 0]);
    let q = first([c.1, d.1, 0]);
    let fill =
        |m: (Vec<f64>, usize, usize), r: usize, cols: usize, name: &str| -> Result<Vec<f64>> {
            if m.0.is_empty() {
                return Ok(vec![0.0; r * cols]);
            }
            if (m.1, m.2) != (r, cols) {
                return Err(Error::Value(format!(
                    "Parameter {name} has shape ({}, {}) but should be ({r}, {cols})!",
                    m.1, m.2
                )));
            }
            Ok(m.0)
        };
    Ok(StateSpace {
        a: fill(a, n, n, "A")?,
        b: fill(b, n, p, "B")?,
        c: fill(c, q, n, "C")?,
        d: fill(d, q, p, "D")?,
        n,
        p,
        q,
    })
}

/// A state-space system from device matrices, [`abcd_normalize`]d.
pub(crate) fn host_system(a: &Array, b: &Array, c: &Array, d: &Array) -> Result<StateSpace> {
    abcd_normalize(
        host_matrix(a, "A")?,
        host_matrix(b, "B")?,
        host_matrix(c, "C")?,
        host_matrix(d, "D")?,
    )
}

fn upload_matrix(v: &[f64], r: usize, c: usize) -> Result<Array> {
    Array::from_slice(v, &[r, c])
}

fn one_d_real(v: &Array, what: &str) -> Result<Vec<f64>> {
    if v.ndim() > 1 {
        return Err(Error::Unsupported(format!(
            "{what} of more than one dimension (SciPy's several numerators)"
        )));
    }
    if v.size() == 0 {
        return Err(Error::Value(format!("{what}: no coefficients")));
    }
    host_reals(v, what)
}

/// SciPy's `tf2ss(num, den)`: the controller canonical state-space form
/// `(A, B, C, D)` of the transfer function `num / den` (highest power
/// first), float64 device matrices (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let num = Array::from_slice(&[1.0f64, 3.0, 3.0], &[3])?;
/// let den = Array::from_slice(&[1.0f64, 2.0, 1.0], &[3])?;
/// let (a, b, c, d) = gpu_signal::tf2ss(&num, &den)?; // [[-2, -1], [1, 0]], [[1], [0]], [[1, 2]], [[1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): a numerator longer than the denominator ("Improper
/// transfer function..."), an all-zero denominator; empty coefficients;
/// several numerators or complex coefficients (`Unsupported`).
pub fn tf2ss(num: &Array, den: &Array) -> Result<(Array, Array, Array, Array)> {
    let s = tf2ss_host(
        &one_d_real(num, "tf2ss num")?,
        &one_d_real(den, "tf2ss den")?,
    )?;
    Ok((
        upload_matrix(&s.a, s.n, s.n)?,
        upload_matrix(&s.b, s.n, s.p)?,
        upload_matrix(&s.c, s.q, s.n)?,
        upload_matrix(&s.d, s.q, s.p)?,
    ))
}

/// SciPy's `ss2tf(A, B, C, D, input)`: the transfer function from input
/// `input` of the state-space system, as `(num, den)`: `num` of shape
/// `(outputs, n + 1)`, `den` of `n + 1` (float64 device arrays, computed
/// on the host). A size-0 matrix stands for a missing one (zeros of the
/// shape the others give, as SciPy's `None`).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let a = Array::from_slice(&[-2.0f64, -1.0, 1.0, 0.0], &[2, 2])?;
/// let b = Array::from_slice(&[1.0f64, 0.0], &[2, 1])?;
/// let c = Array::from_slice(&[1.0f64, 2.0], &[1, 2])?;
/// let d = Array::from_slice(&[1.0f64], &[1, 1])?;
/// let (num, den) = gpu_signal::ss2tf(&a, &b, &c, &d, 0)?; // [[1, 3, 3]], [1, 2, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): shapes that do not agree ("Parameter B has shape ...
/// but should be ..."), an input the system does not have; complex
/// matrices (`Unsupported`).
pub fn ss2tf(a: &Array, b: &Array, c: &Array, d: &Array, input: usize) -> Result<(Array, Array)> {
    let s = host_system(a, b, c, d)?;
    let (num, den) = ss2tf_host(&s, input)?;
    Ok((upload_matrix(&num, s.q, s.n + 1)?, upload_real(&den)?))
}

/// SciPy's `zpk2ss(z, p, k)`: [`tf2ss`] of [`zpk2tf`]'s transfer function.
///
/// ```no_run
/// use gpu_array::Array;
/// use num_complex::Complex64;
/// # fn main() -> gpu_array::Result<()> {
/// let z = Array::from_slice(&[Complex64::new(-1.0, 0.0)], &[1])?;
/// let p = Array::from_slice(&[Complex64::new(-2.0, 0.0), Complex64::new(-3.0, 0.0)], &[2])?;
/// let (a, b, c, d) = gpu_signal::zpk2ss(&z, &p, 2.0)?; // [[-5, -6], [1, 0]], ...
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`zpk2tf`] and [`tf2ss`] (zeros or poles not closed under
/// conjugation give complex coefficients: `Unsupported`).
pub fn zpk2ss(z: &Array, p: &Array, k: f64) -> Result<(Array, Array, Array, Array)> {
    let (b, a) = zpk2tf(z, p, k)?;
    tf2ss(&b, &a)
}

/// SciPy's `ss2zpk(A, B, C, D, input)`: [`tf2zpk`] of [`ss2tf`]'s transfer
/// function from `input` (a single-output system).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let a = Array::from_slice(&[-5.0f64, -6.0, 1.0, 0.0], &[2, 2])?;
/// let b = Array::from_slice(&[1.0f64, 0.0], &[2, 1])?;
/// let c = Array::from_slice(&[2.0f64, 2.0], &[1, 2])?;
/// let d = Array::from_slice(&[0.0f64], &[1, 1])?;
/// let (z, p, k) = gpu_signal::ss2zpk(&a, &b, &c, &d, 0)?; // [-1], [-3, -2], 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`ss2tf`]; a system of several outputs (`Unsupported`).
pub fn ss2zpk(
    a: &Array,
    b: &Array,
    c: &Array,
    d: &Array,
    input: usize,
) -> Result<(Array, Array, f64)> {
    let s = host_system(a, b, c, d)?;
    if s.q != 1 {
        return Err(Error::Unsupported(
            "ss2zpk of a system of several outputs (SciPy's several numerators)".into(),
        ));
    }
    let (num, den) = ss2tf_host(&s, input)?;
    tf2zpk(&upload_real(&num)?, &upload_real(&den)?)
}

#[cfg(test)]
mod tests;
