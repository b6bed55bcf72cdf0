//! Small host numerics of filter design, in complex float64: a linear
//! solve (LU with partial pivoting), polynomial products, the
//! polynomial of given roots, a real matrix's characteristic polynomial,
//! and polynomial roots (Aberth-Ehrlich
//! iterations polished by Newton steps, where NumPy takes the eigenvalues
//! of the companion matrix: both are accurate to about the working
//! precision for simple roots, and to `eps^(1/m)` for a root of
//! multiplicity `m`, where the two scatter differently).

use gpu_array::{Error, Result};
use num_complex::Complex64;

const ZERO: Complex64 = Complex64::new(0.0, 0.0);
const ONE: Complex64 = Complex64::new(1.0, 0.0);

/// `x` with `m x = rhs` (`m` row-major, square), by LU with partial
/// pivoting (LAPACK's `gesv`, as `numpy.linalg.solve`).
pub(crate) fn solve(mut m: Vec<Complex64>, mut rhs: Vec<Complex64>) -> Result<Vec<Complex64>> {
    let n = rhs.len();
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| m[i * n + col].norm().total_cmp(&m[j * n + col].norm()))
            .unwrap_or(col);
        if m[piv * n + col] == ZERO {
            return Err(Error::Singular {
                info: (col + 1) as i32,
            });
        }
        if piv != col {
            for k in 0..n {
                m.swap(piv * n + k, col * n + k);
            }
            rhs.swap(piv, col);
        }
        let d = m[col * n + col];
        for i in col + 1..n {
            let f = m[i * n + col] / d;
            if f != ZERO {
                for k in col..n {
                    let v = m[col * n + k];
                    m[i * n + k] -= f * v;
                }
                let v = rhs[col];
                rhs[i] -= f * v;
            }
        }
    }
    for i in (0..n).rev() {
        let s: Complex64 = (i + 1..n).map(|k| m[i * n + k] * rhs[k]).sum();
        rhs[i] = (rhs[i] - s) / m[i * n + i];
    }
    Ok(rhs)
}

/// The product of polynomials `a` and `b` (highest power first).
pub(crate) fn polymul(a: &[Complex64], b: &[Complex64]) -> Vec<Complex64> {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut r = vec![ZERO; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            r[i + j] += x * y;
        }
    }
    r
}

/// NumPy's `poly`: the monic polynomial with `roots` (highest power
/// first), built by successive products as NumPy's.
pub(crate) fn poly(roots: &[Complex64]) -> Vec<Complex64> {
    let mut a = vec![ONE];
    for &z in roots {
        a = polymul(&a, &[ONE, -z]);
    }
    a
}

/// The characteristic polynomial `det(s I - a)` of the real square matrix
/// `a` (`n x n`, row-major; highest power first, monic), as NumPy's
/// `poly(a)` gives it from the eigenvalues: here by a Householder
/// reduction to upper Hessenberg form `h` (a similarity, so the same
/// polynomial) and La Budde's recurrence over its columns,
/// `p_k = (s - h_kk) p_(k-1) - sum_i h_ik (h_(i+1,i) ... h_(k,k-1)) p_(i-1)`.
/// Equal to NumPy's to rounding for well-conditioned matrices; no
/// eigenvalues are formed.
pub(crate) fn charpoly(a: &[f64], n: usize) -> Vec<f64> {
    let mut h = a.to_vec();
    // Householder: zero column k below the subdiagonal.
    for k in 0..n.saturating_sub(2) {
        let x: Vec<f64> = (k + 1..n).map(|i| h[i * n + k]).collect();
        let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        if norm == 0.0 {
            continue;
        }
        let alpha = if x[0] > 0.0 { -norm } else { norm };
        let mut v = x.clone();
        v[0] -= alpha;
        let vv = v.iter().map(|t| t * t).sum::<f64>();
        if vv == 0.0 {
            continue;
        }
        // h <- (I - 2 v v^T / vv) h (I - 2 v v^T / vv) on rows/columns k+1..
        for col in 0..n {
            let dot: f64 = (0..v.len()).map(|i| v[i] * h[(k + 1 + i) * n + col]).sum();
            let f = 2.0 * dot / vv;
            for i in 0..v.len() {
                h[(k + 1 + i) * n + col] -= f * v[i];
            }
        }
        for row in 0..n {
            let dot: f64 = (0..v.len()).map(|i| h[row * n + k + 1 + i] * v[i]).sum();
            let f = 2.0 * dot / vv;
            for i in 0..v.len() {
                h[row * n + k + 1 + i] -= f * v[i];
            }
        }
    }
    // p[k] holds p_k's coefficients, lowest power first.
    let mut p: Vec<Vec<f64>> = vec![vec![1.0]];
    for k in 0..n {
        // (s - h_kk) p_(k-1)
        let prev = &p[k];
        let mut next = vec![0.0; prev.len() + 1];
        for (i, &c) in prev.iter().enumerate() {
            next[i + 1] += c;
            next[i] -= h[k * n + k] * c;
        }
        // - sum_{i < k} h_ik (prod_{m=i+1..=k} h_(m,m-1)) p_(i-1)
        let mut sub = 1.0;
        for i in (0..k).rev() {
            sub *= h[(i + 1) * n + i];
            let f = h[i * n + k] * sub;
            if f != 0.0 {
                for (j, &c) in p[i].iter().enumerate() {
                    next[j] -= f * c;
                }
            }
        }
        p.push(next);
    }
    let mut out = p.pop().unwrap_or_else(|| vec![1.0]);
    out.reverse();
    out
}

/// Whether the non-real values of `roots` come in exact conjugate pairs
/// (NumPy's `poly` then returns the real part).
pub(crate) fn conjugate_closed(roots: &[Complex64]) -> bool {
    let mut im: Vec<f64> = roots.iter().map(|z| z.im).collect();
    let mut neg: Vec<f64> = roots.iter().map(|z| -z.im).collect();
    im.sort_by(f64::total_cmp);
    neg.sort_by(f64::total_cmp);
    im == neg
}

/// `p(z)` and `p'(z)` by Horner's rule.
fn horner(p: &[Complex64], z: Complex64) -> (Complex64, Complex64) {
    let mut v = ZERO;
    let mut d = ZERO;
    for &c in p {
        d = d * z + v;
        v = v * z + c;
    }
    (v, d)
}

/// NumPy's `roots`: the roots of `p` (highest power first); leading zeros
/// dropped, trailing zeros giving roots at 0.
pub(crate) fn roots(p: &[Complex64]) -> Vec<Complex64> {
    let first = p.iter().position(|&c| c != ZERO);
    let Some(first) = first else {
        return Vec::new();
    };
    let last = p.iter().rposition(|&c| c != ZERO).unwrap_or(first);
    let trailing = p.len() - 1 - last;
    let q: Vec<Complex64> = p[first..=last].iter().map(|&c| c / p[first]).collect();
    let mut r = aberth(&q);
    r.extend(std::iter::repeat_n(ZERO, trailing));
    r
}

/// The roots of the monic `q` by Aberth-Ehrlich iterations from points on
/// a circle, then two Newton steps each.
fn aberth(q: &[Complex64]) -> Vec<Complex64> {
    let n = q.len() - 1;
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![-q[1]];
    }
    // The geometric mean of the roots' magnitudes, |q_n|^(1/n), and the
    // Cauchy bound, to place the start points.
    let prod = q[n].norm();
    let bound = 1.0 + q[1..].iter().map(|c| c.norm()).fold(0.0, f64::max);
    let r0 = if prod > 0.0 {
        prod.powf(1.0 / n as f64).min(bound)
    } else {
        bound.min(1.0)
    };
    let mut z: Vec<Complex64> = (0..n)
        .map(|k| {
            let t = 2.0 * std::f64::consts::PI * k as f64 / n as f64 + 0.4;
            Complex64::from_polar(r0, t)
        })
        .collect();
    let mut done = vec![false; n];
    for _ in 0..800 {
        let mut moved = false;
        for k in 0..n {
            if done[k] {
                continue;
            }
            let (v, d) = horner(q, z[k]);
            if v == ZERO {
                done[k] = true;
                continue;
            }
            let w = v / d;
            let s: Complex64 = (0..n)
                .filter(|&j| j != k)
                .map(|j| {
                    let diff = z[k] - z[j];
                    if diff == ZERO { ZERO } else { ONE / diff }
                })
                .sum();
            let step = w / (ONE - w * s);
            if !step.is_finite() {
                done[k] = true;
                continue;
            }
            z[k] -= step;
            if step.norm() <= 1e-16 * z[k].norm().max(1e-300) {
                done[k] = true;
            } else {
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    for zk in &mut z {
        for _ in 0..2 {
            let (v, d) = horner(q, *zk);
            if d == ZERO {
                break;
            }
            let step = v / d;
            let next = *zk - step;
            if next.is_finite() && horner(q, next).0.norm() <= v.norm() {
                *zk = next;
            } else {
                break;
            }
        }
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[f64]) -> Vec<Complex64> {
        v.iter().map(|&r| Complex64::new(r, 0.0)).collect()
    }

    /// Each wanted root matched by a distinct found one within `tol`.
    fn same_roots(got: &[Complex64], want: &[Complex64], tol: f64) {
        assert_eq!(got.len(), want.len());
        let mut used = vec![false; got.len()];
        for w in want {
            let (i, d) = got
                .iter()
                .enumerate()
                .filter(|(i, _)| !used[*i])
                .map(|(i, g)| (i, (g - w).norm()))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap();
            assert!(d <= tol * w.norm().max(1.0), "{w}: {d:e} ({got:?})");
            used[i] = true;
        }
    }

    #[test]
    fn roots_of_polynomials_are_numpys() {
        // (x - 1)(x - 2)(x - 3) and x^2 + 1 and trailing zeros.
        same_roots(
            &roots(&c(&[1.0, -6.0, 11.0, -6.0])),
            &c(&[1.0, 2.0, 3.0]),
            1e-14,
        );
        same_roots(
            &roots(&c(&[0.0, 1.0, 0.0, 1.0, 0.0])),
            &[Complex64::new(0.0, 1.0), Complex64::new(0.0, -1.0), ZERO],
            1e-14,
        );
        // The roots of a degree-20 polynomial with roots on a circle
        // (z^20 - 0.9^20), and Wilkinson-like spread roots.
        let mut p = vec![ZERO; 21];
        p[0] = ONE;
        p[20] = Complex64::new(-0.9f64.powi(20), 0.0);
        let want: Vec<Complex64> = (0..20)
            .map(|k| Complex64::from_polar(0.9, 2.0 * std::f64::consts::PI * k as f64 / 20.0))
            .collect();
        same_roots(&roots(&p), &want, 1e-13);
        let want = c(&[0.5, 1.5, -2.0, 7.0, 1e-3, -40.0]);
        same_roots(&roots(&poly(&want)), &want, 1e-12);
        assert!(roots(&c(&[0.0, 0.0])).is_empty());
        assert!(roots(&c(&[5.0])).is_empty());
    }

    #[test]
    fn polynomials_and_solves() {
        let p = poly(&[Complex64::new(1.0, 1.0), Complex64::new(1.0, -1.0)]);
        assert_eq!(p, c(&[1.0, -2.0, 2.0]));
        assert!(conjugate_closed(&[
            Complex64::new(1.0, 1.0),
            Complex64::new(1.0, -1.0)
        ]));
        assert!(!conjugate_closed(&[Complex64::new(1.0, 1.0)]));
        let x = solve(c(&[0.0, 2.0, 1.0, 1.0]), c(&[4.0, 3.0])).unwrap();
        assert_eq!(x, c(&[1.0, 2.0]));
        assert!(matches!(
            solve(c(&[1.0, 2.0, 2.0, 4.0]), c(&[1.0, 1.0])),
            Err(Error::Singular { .. })
        ));
    }
}
