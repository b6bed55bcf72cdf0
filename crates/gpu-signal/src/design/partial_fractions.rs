//! Partial-fraction expansions (SciPy's `residue`, `residuez`, `invres`,
//! `invresz`, `unique_roots`): a rational function's residues at its
//! poles (repeated poles grouped within `tol`) and its direct polynomial,
//! and back. Host computations in complex float64, as SciPy's
//! ("deflation through subtraction", Mahoney and Sivazlian, J. Comput.
//! Appl. Math. 9, 1983); device arrays in and out.

use std::str::FromStr;

use gpu_array::{Array, Error, Result};
use num_complex::Complex64;

use super::linalg::{polymul, roots};
use crate::filtering::host_values;

type C = Complex64;
const ZERO: C = C::new(0.0, 0.0);
const ONE: C = C::new(1.0, 0.0);

/// How a group of equal roots is represented (SciPy's `rtype=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootType {
    /// The smallest (NumPy's complex order: real part, then imaginary).
    Min,
    /// The largest.
    Max,
    /// The mean (SciPy's default for the expansions).
    #[default]
    Avg,
}

impl FromStr for RootType {
    type Err = Error;

    /// ```
    /// assert_eq!("mean".parse::<gpu_signal::RootType>()?, gpu_signal::RootType::Avg);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "max" | "maximum" => RootType::Max,
            "min" | "minimum" => RootType::Min,
            "avg" | "mean" => RootType::Avg,
            _ => {
                return Err(Error::Value(
                    "`rtype` must be one of {'max', 'maximum', 'min', 'minimum', 'avg', 'mean'}"
                        .into(),
                ));
            }
        })
    }
}

/// NumPy's order of complex numbers.
fn lex(a: &C, b: &C) -> std::cmp::Ordering {
    a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im))
}

fn reduce(v: &[C], r: RootType) -> C {
    match r {
        RootType::Min => *v.iter().min_by(|a, b| lex(a, b)).unwrap_or(&ZERO),
        RootType::Max => *v.iter().max_by(|a, b| lex(a, b)).unwrap_or(&ZERO),
        RootType::Avg => v.iter().sum::<C>() / v.len().max(1) as f64,
    }
}

/// SciPy's `unique_roots` on the host: each root not yet grouped takes
/// every ungrouped root within `tol` of it (its ball).
pub(crate) fn unique_roots_host(p: &[C], tol: f64, r: RootType) -> (Vec<C>, Vec<usize>) {
    let mut used = vec![false; p.len()];
    let (mut unique, mut mult) = (Vec::new(), Vec::new());
    for i in 0..p.len() {
        if used[i] {
            continue;
        }
        let group: Vec<usize> = (0..p.len())
            .filter(|&j| !used[j] && (p[j] - p[i]).norm() <= tol)
            .collect();
        let vals: Vec<C> = group.iter().map(|&j| p[j]).collect();
        unique.push(reduce(&vals, r));
        mult.push(group.len());
        for j in group {
            used[j] = true;
        }
    }
    (unique, mult)
}

/// SciPy's `_cmplx_sort`: by magnitude, ties in their order.
fn cmplx_sort(p: &[C]) -> (Vec<C>, Vec<usize>) {
    let mut idx: Vec<usize> = (0..p.len()).collect();
    idx.sort_by(|&a, &b| p[a].norm().total_cmp(&p[b].norm()));
    (idx.iter().map(|&i| p[i]).collect(), idx)
}

/// NumPy's `polydiv`: quotient and remainder, the remainder's leading
/// entries within 1e-8 of zero dropped (NumPy's `allclose` there).
fn polydiv(u: &[C], v: &[C]) -> (Vec<C>, Vec<C>) {
    let (m, n) = (u.len() - 1, v.len() - 1);
    let scale = ONE / v[0];
    let mut q = vec![ZERO; (m + 1).saturating_sub(n).max(1)];
    let mut r = u.to_vec();
    if m >= n {
        for k in 0..=(m - n) {
            let d = scale * r[k];
            q[k] = d;
            for (j, &vj) in v.iter().enumerate() {
                r[k + j] -= d * vj;
            }
        }
    }
    let lead = r
        .iter()
        .take(r.len() - 1)
        .take_while(|v| v.norm() <= 1e-8)
        .count();
    (q, r[lead..].to_vec())
}

/// NumPy's `polyadd`/`polysub` (`sign` 1 or -1): the shorter padded in front.
fn polyaddsub(a: &[C], b: &[C], sign: f64) -> Vec<C> {
    let n = a.len().max(b.len());
    let mut out = vec![ZERO; n];
    for (i, v) in a.iter().enumerate() {
        out[n - a.len() + i] += v;
    }
    for (i, v) in b.iter().enumerate() {
        out[n - b.len() + i] += sign * v;
    }
    out
}

fn polyval(p: &[C], x: C) -> C {
    p.iter().fold(ZERO, |acc, &c| acc * x + c)
}

/// SciPy's `_compute_factors`: for each pole's power the product of the
/// other factors (`include_powers`: every power, else the first), and the
/// whole denominator.
fn compute_factors(roots: &[C], mult: &[usize], include_powers: bool) -> (Vec<Vec<C>>, Vec<C>) {
    let mut current = vec![ONE];
    let mut suffixes = vec![current.clone()];
    for (pole, &m) in roots.iter().zip(mult).skip(1).rev() {
        let monomial = [ONE, -pole];
        for _ in 0..m {
            current = polymul(&current, &monomial);
        }
        suffixes.push(current.clone());
    }
    suffixes.reverse();
    let mut factors = Vec::new();
    let mut current = vec![ONE];
    for ((pole, &m), suffix) in roots.iter().zip(mult).zip(&suffixes) {
        let monomial = [ONE, -pole];
        let mut block = Vec::new();
        for i in 0..m {
            if i == 0 || include_powers {
                block.push(polymul(&current, suffix));
            }
            current = polymul(&current, &monomial);
        }
        factors.extend(block.into_iter().rev());
    }
    (factors, current)
}

/// SciPy's `_compute_residues`.
fn compute_residues(poles: &[C], mult: &[usize], numerator: &[C]) -> Vec<C> {
    let (factors, _) = compute_factors(poles, mult, false);
    let mut residues = Vec::new();
    for ((pole, &m), factor) in poles.iter().zip(mult).zip(&factors) {
        if m == 1 {
            residues.push(polyval(numerator, *pole) / polyval(factor, *pole));
        } else {
            let mut numer = numerator.to_vec();
            let monomial = [ONE, -pole];
            let (factor, d) = polydiv(factor, &monomial);
            let mut block = Vec::with_capacity(m);
            for _ in 0..m {
                let (q, n) = polydiv(&numer, &monomial);
                let r = n[0] / d[0];
                let scaled: Vec<C> = factor.iter().map(|v| r * v).collect();
                numer = polyaddsub(&q, &scaled, -1.0);
                block.push(r);
            }
            residues.extend(block.into_iter().rev());
        }
    }
    residues
}

fn trim_front(v: &[C]) -> Vec<C> {
    let s = v.iter().position(|&x| x != ZERO).unwrap_or(v.len());
    v[s..].to_vec()
}

fn trim_back(v: &[C]) -> Vec<C> {
    let e = v.iter().rposition(|&x| x != ZERO).map_or(0, |i| i + 1);
    v[..e].to_vec()
}

/// The derivative of a polynomial (highest power first).
fn derivative(p: &[C]) -> Vec<C> {
    let n = p.len().saturating_sub(1);
    p.iter()
        .take(n)
        .enumerate()
        .map(|(i, &c)| c * (n - i) as f64)
        .collect()
}

/// A pole of multiplicity `m > 1` of `a`, refined by Newton's method on
/// `a`'s `(m-1)`-th derivative (of which it is a simple root). The root
/// finder places a root of multiplicity `m` only to about `eps^(1/m)`,
/// scattered so that the group's mean can be off by as much (NumPy's
/// eigenvalues scatter symmetrically, their mean close); the refinement
/// gives the repeated pole to working precision. Kept only within `tol`
/// of the group's mean.
fn refine_multiple(a: &[C], p: C, m: usize, tol: f64) -> C {
    let mut d = a.to_vec();
    for _ in 1..m {
        d = derivative(&d);
    }
    let dd = derivative(&d);
    let mut x = p;
    for _ in 0..30 {
        let (f, df) = (polyval(&d, x), polyval(&dd, x));
        if df == ZERO || !f.is_finite() || !df.is_finite() {
            break;
        }
        let step = f / df;
        x -= step;
        if step.norm() <= 4.0 * f64::EPSILON * x.norm() {
            break;
        }
    }
    if x.is_finite() && (x - p).norm() <= tol {
        x
    } else {
        p
    }
}

/// The grouped poles of `a`, sorted by magnitude, with multiplicities:
/// SciPy's `unique_roots` then `_cmplx_sort`, a mean of a repeated pole
/// refined ([`refine_multiple`]).
fn grouped_poles(a: &[C], poles: &[C], tol: f64, rtype: RootType) -> (Vec<C>, Vec<usize>) {
    let (mut unique, mult) = unique_roots_host(poles, tol, rtype);
    if rtype == RootType::Avg {
        for (u, &m) in unique.iter_mut().zip(&mult) {
            if m > 1 {
                *u = refine_multiple(a, *u, m, tol);
            }
        }
    }
    let (unique, order) = cmplx_sort(&unique);
    let mult = order.iter().map(|&i| mult[i]).collect();
    (unique, mult)
}

/// An expansion: residues, poles (grouped poles repeated) and the direct
/// polynomial.
pub(crate) type Expansion = (Vec<C>, Vec<C>, Vec<C>);

/// SciPy's `residue` on the host.
pub(crate) fn residue_host(b: &[C], a: &[C], tol: f64, rtype: RootType) -> Result<Expansion> {
    let (b, a) = (trim_front(b), trim_front(a));
    if a.is_empty() {
        return Err(Error::Value("Denominator `a` is zero.".into()));
    }
    let poles = roots(&a);
    if b.is_empty() {
        return Ok((vec![ZERO; poles.len()], cmplx_sort(&poles).0, Vec::new()));
    }
    let (k, b) = if b.len() < a.len() {
        (Vec::new(), b)
    } else {
        polydiv(&b, &a)
    };
    let (unique, mult) = grouped_poles(&a, &poles, tol, rtype);
    let residues = compute_residues(&unique, &mult, &b);
    let poles: Vec<C> = unique
        .iter()
        .zip(&mult)
        .flat_map(|(&p, &m)| std::iter::repeat_n(p, m))
        .collect();
    Ok((residues.iter().map(|r| r / a[0]).collect(), poles, k))
}

/// SciPy's `residuez` on the host.
pub(crate) fn residuez_host(b: &[C], a: &[C], tol: f64, rtype: RootType) -> Result<Expansion> {
    let (b, a) = (trim_back(b), trim_back(a));
    if a.is_empty() {
        return Err(Error::Value("Denominator `a` is zero.".into()));
    }
    if a[0] == ZERO {
        return Err(Error::Value(
            "First coefficient of determinant `a` must be non-zero.".into(),
        ));
    }
    let poles = roots(&a);
    if b.is_empty() {
        return Ok((vec![ZERO; poles.len()], cmplx_sort(&poles).0, Vec::new()));
    }
    let b_rev: Vec<C> = b.iter().rev().copied().collect();
    let a_rev: Vec<C> = a.iter().rev().copied().collect();
    let (k_rev, b_rev) = if b_rev.len() < a_rev.len() {
        (Vec::new(), b_rev)
    } else {
        polydiv(&b_rev, &a_rev)
    };
    let (unique, mult) = grouped_poles(&a, &poles, tol, rtype);
    let inv: Vec<C> = unique.iter().map(|p| ONE / p).collect();
    let mut residues = compute_residues(&inv, &mult, &b_rev);
    let mut poles = Vec::with_capacity(residues.len());
    let mut powers = Vec::with_capacity(residues.len());
    for (&p, &m) in unique.iter().zip(&mult) {
        for i in 0..m {
            poles.push(p);
            powers.push(1 + i as i32);
        }
    }
    for ((r, p), &e) in residues.iter_mut().zip(&poles).zip(&powers) {
        *r = *r * (-p).powi(e) / a_rev[0];
    }
    Ok((residues, poles, k_rev.iter().rev().copied().collect()))
}

/// SciPy's `_group_poles`: adjacent poles within `tol` of a group's first
/// are one pole (its first, whatever `rtype`: SciPy's groups repeat it).
fn group_poles(p: &[C], tol: f64) -> (Vec<C>, Vec<usize>) {
    let (mut unique, mut mult) = (Vec::new(), Vec::new());
    let Some(&first) = p.first() else {
        return (unique, mult);
    };
    let (mut pole, mut count) = (first, 1);
    for &v in &p[1..] {
        if (v - pole).norm() <= tol {
            count += 1;
        } else {
            unique.push(pole);
            mult.push(count);
            pole = v;
            count = 1;
        }
    }
    unique.push(pole);
    mult.push(count);
    (unique, mult)
}

/// SciPy's `invres` (`z` false) or `invresz` (`z` true) on the host.
pub(crate) fn invres_host(
    r: &[C],
    p: &[C],
    k: &[C],
    tol: f64,
    z: bool,
) -> Result<(Vec<C>, Vec<C>)> {
    if p.is_empty() {
        return Err(Error::Value("invres: no poles".into()));
    }
    let k = if z { trim_back(k) } else { trim_front(k) };
    let (unique, mult) = group_poles(p, tol);
    let (factors, den) = compute_factors(&unique, &mult, true);
    if r.len() > factors.len() {
        return Err(Error::Value(format!(
            "invres: {} residues for {} poles",
            r.len(),
            factors.len()
        )));
    }
    let rev = |v: &[C]| v.iter().rev().copied().collect::<Vec<C>>();
    let mut num = if k.is_empty() {
        vec![ZERO]
    } else if z {
        polymul(&rev(&k), &rev(&den))
    } else {
        polymul(&k, &den)
    };
    for (res, factor) in r.iter().zip(&factors) {
        let term: Vec<C> = if z { rev(factor) } else { factor.clone() }
            .iter()
            .map(|v| res * v)
            .collect();
        num = polyaddsub(&num, &term, 1.0);
    }
    Ok((if z { rev(&num) } else { num }, den))
}

fn upload_c(v: &[C]) -> Result<Array> {
    Array::from_slice(v, &[v.len()])
}

/// Complex values real when every imaginary part is zero (NumPy keeps a
/// float result for float inputs).
fn upload_maybe_real(v: &[C], real: bool) -> Result<Array> {
    if real {
        let r: Vec<f64> = v.iter().map(|c| c.re).collect();
        Array::from_slice(&r, &[r.len()])
    } else {
        upload_c(v)
    }
}

fn host_poly(v: &Array, what: &str) -> Result<(Vec<C>, bool)> {
    if v.ndim() > 1 {
        return Err(Error::Value(format!("{what} must be 1-D")));
    }
    Ok((host_values(v)?, !v.dtype().is_complex()))
}

fn check_tol(tol: f64) -> Result<()> {
    if tol.is_nan() || tol < 0.0 {
        return Err(Error::Value(format!("tol must be nonnegative, not {tol}")));
    }
    Ok(())
}

/// SciPy's `unique_roots(p, tol, rtype)`: the roots of `p` with those
/// within `tol` of one another grouped (SciPy's default `rtype` here is
/// [`RootType::Min`]), and each group's multiplicity, as complex128 and
/// int64 device arrays (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::RootType;
/// # fn main() -> gpu_array::Result<()> {
/// let p = Array::from_slice(&[1.0f64, 1.0005, 2.0, 1.9995], &[4])?;
/// let (u, m) = gpu_signal::unique_roots(&p, 1e-3, RootType::Min)?; // [1, 1.9995], [2, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `p` not 1-D, `tol` negative (`Value`).
pub fn unique_roots(p: &Array, tol: f64, rtype: RootType) -> Result<(Array, Array)> {
    check_tol(tol)?;
    let (ph, _) = host_poly(p, "p")?;
    let (u, m) = unique_roots_host(&ph, tol, rtype);
    let m: Vec<i64> = m.iter().map(|&v| v as i64).collect();
    Ok((upload_c(&u)?, Array::from_slice(&m, &[m.len()])?))
}

/// SciPy's `residue(b, a, tol, rtype)`: the partial-fraction expansion of
/// `b(s) / a(s)` (highest power first): residues `r`, poles `p` (by
/// magnitude; a pole repeated within `tol` listed with its powers) and
/// the direct polynomial `k`, as device arrays (`r`, `p` complex128; `k`
/// float64 for real inputs), computed on the host. SciPy's defaults are
/// `tol` 1e-3 and [`RootType::Avg`].
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::RootType;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64, 3.0], &[2])?;
/// let a = Array::from_slice(&[1.0f64, 3.0, 2.0], &[3])?; // (s + 3) / ((s + 1)(s + 2))
/// let (r, p, k) = gpu_signal::residue(&b, &a, 1e-3, RootType::Avg)?; // [2, -1], [-1, -2], []
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): an all-zero denominator ("Denominator `a` is
/// zero."); `b` or `a` not 1-D, `tol` negative.
pub fn residue(b: &Array, a: &Array, tol: f64, rtype: RootType) -> Result<(Array, Array, Array)> {
    check_tol(tol)?;
    let ((bh, br), (ah, ar)) = (host_poly(b, "b")?, host_poly(a, "a")?);
    let (r, p, k) = residue_host(&bh, &ah, tol, rtype)?;
    Ok((
        upload_c(&r)?,
        upload_c(&p)?,
        upload_maybe_real(&k, br && ar)?,
    ))
}

/// SciPy's `residuez(b, a, tol, rtype)`: [`residue`] for `b(z) / a(z)` in
/// powers of `1/z` (the digital filter's coefficients): residues of
/// `1 / (1 - p z^-1)` terms, poles and the direct terms in `z^-1`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::RootType;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64], &[1])?;
/// let a = Array::from_slice(&[1.0f64, -0.75, 0.125], &[3])?; // poles 0.25 and 0.5
/// let (r, p, k) = gpu_signal::residuez(&b, &a, 1e-3, RootType::Avg)?; // [-1, 2], [0.25, 0.5], []
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`residue`]; a first coefficient of `a` of zero (SciPy's message).
pub fn residuez(b: &Array, a: &Array, tol: f64, rtype: RootType) -> Result<(Array, Array, Array)> {
    check_tol(tol)?;
    let ((bh, br), (ah, ar)) = (host_poly(b, "b")?, host_poly(a, "a")?);
    let (r, p, k) = residuez_host(&bh, &ah, tol, rtype)?;
    Ok((
        upload_c(&r)?,
        upload_c(&p)?,
        upload_maybe_real(&k, br && ar)?,
    ))
}

/// SciPy's `invres(r, p, k, tol)`: `b(s) / a(s)` from its partial-fraction
/// expansion (poles within `tol` of their group's first one are that
/// pole, with the powers in order), as device arrays, float64 where `r`,
/// `p` and `k` are real, else complex128 (computed on the host).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let r = Array::from_slice(&[2.0f64, -1.0], &[2])?;
/// let p = Array::from_slice(&[-1.0f64, -2.0], &[2])?;
/// let k = Array::from_slice::<f64>(&[], &[0])?;
/// let (b, a) = gpu_signal::invres(&r, &p, &k, 1e-3)?; // [1, 3], [1, 3, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// More residues than poles, no poles, `tol` negative, arrays not 1-D
/// (`Value`).
pub fn invres(r: &Array, p: &Array, k: &Array, tol: f64) -> Result<(Array, Array)> {
    inverse(r, p, k, tol, false)
}

/// SciPy's `invresz(r, p, k, tol)`: [`invres`] for an expansion in powers
/// of `1/z` ([`residuez`]'s form).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let r = Array::from_slice(&[-1.0f64, 2.0], &[2])?;
/// let p = Array::from_slice(&[0.25f64, 0.5], &[2])?;
/// let k = Array::from_slice::<f64>(&[], &[0])?;
/// let (b, a) = gpu_signal::invresz(&r, &p, &k, 1e-3)?; // [1, 0], [1, -0.75, 0.125]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`invres`].
pub fn invresz(r: &Array, p: &Array, k: &Array, tol: f64) -> Result<(Array, Array)> {
    inverse(r, p, k, tol, true)
}

fn inverse(r: &Array, p: &Array, k: &Array, tol: f64, z: bool) -> Result<(Array, Array)> {
    check_tol(tol)?;
    let ((rh, rr), (ph, pr), (kh, kr)) =
        (host_poly(r, "r")?, host_poly(p, "p")?, host_poly(k, "k")?);
    let (b, a) = invres_host(&rh, &ph, &kh, tol, z)?;
    let real = rr && pr && kr;
    Ok((upload_maybe_real(&b, real)?, upload_maybe_real(&a, real)?))
}
