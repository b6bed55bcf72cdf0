//! The iterative solvers on the 2-D Poisson matrix, checked by their
//! residuals.

use gpu_array::{Array, DType};
use gpu_sparse::linalg::{FnOperator, LinearOperator, SolveOptions, cg};
use gpu_sparse::{CooMatrix, CsrMatrix, SpMatrix};

use crate::{gpu, host_parts};

/// The 5-point Laplacian of a `g x g` grid (SPD), as CSR in `dtype`.
pub(crate) fn poisson(g: usize, dtype: DType) -> CsrMatrix {
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    for i in 0..g {
        for j in 0..g {
            let k = i * g + j;
            let mut put = |col: usize, val: f64| {
                r.push(k);
                c.push(col);
                v.push(val);
            };
            put(k, 4.0);
            if i > 0 {
                put(k - g, -1.0);
            }
            if i + 1 < g {
                put(k + g, -1.0);
            }
            if j > 0 {
                put(k - 1, -1.0);
            }
            if j + 1 < g {
                put(k + 1, -1.0);
            }
        }
    }
    let n = g * g;
    CooMatrix::from_triplets(&r, &c, &v, (n, n))
        .unwrap()
        .astype(dtype)
        .unwrap()
        .tocsr()
        .unwrap()
}

/// `||b - A x|| / ||b||`.
pub(crate) fn relative_residual(a: &CsrMatrix, x: &Array, b: &Array) -> f64 {
    let ax = a.dot(x).unwrap();
    let (r1, i1) = host_parts(&ax);
    let (r2, i2) = host_parts(b);
    let num: f64 = (0..r1.len())
        .map(|k| (r1[k] - r2[k]).powi(2) + (i1[k] - i2[k]).powi(2))
        .sum();
    let den: f64 = (0..r2.len()).map(|k| r2[k].powi(2) + i2[k].powi(2)).sum();
    (num / den).sqrt()
}

pub(crate) fn rhs(n: usize, dtype: DType) -> Array {
    let v: Vec<f64> = (0..n).map(|k| ((k * 37) % 11) as f64 - 5.0).collect();
    let b = Array::from_slice(&v, &[n]).unwrap().astype(dtype).unwrap();
    if dtype.is_complex() {
        // A complex right-hand side: b + i b/2.
        let half = gpu_array::ufunc::multiply(&b, 0.5).unwrap();
        let i = Array::from_slice(&[num_complex::Complex64::new(0.0, 1.0)], &[1])
            .unwrap()
            .astype(dtype)
            .unwrap();
        gpu_array::ufunc::add(&b, gpu_array::ufunc::multiply(&half, &i).unwrap()).unwrap()
    } else {
        b
    }
}

#[test]
fn cg_solves_poisson() {
    if !gpu() {
        return;
    }
    for dtype in [DType::Float32, DType::Float64, DType::Complex128] {
        let a = poisson(32, dtype);
        let b = rhs(1024, dtype);
        let rtol = if dtype == DType::Float32 { 1e-4 } else { 1e-8 };
        for check_every in [1, 10] {
            let opts = SolveOptions {
                rtol,
                check_every,
                ..SolveOptions::default()
            };
            let (x, info) = cg(&a, &b, &opts).unwrap();
            assert_eq!(info, 0, "{dtype} check_every {check_every}");
            assert_eq!(x.dtype(), dtype);
            let res = relative_residual(&a, &x, &b);
            assert!(
                res < rtol * 1.5,
                "{dtype} check_every {check_every}: residual {res}"
            );
        }
    }
}

#[test]
fn cg_with_a_preconditioner_a_start_and_a_limit() {
    if !gpu() {
        return;
    }
    let a = poisson(24, DType::Float64);
    let b = rhs(576, DType::Float64);
    // Jacobi: the diagonal is 4.
    let m = FnOperator::new((576, 576), DType::Float64, |r| {
        gpu_array::ufunc::divide(r, 4.0)
    });
    let opts = SolveOptions {
        rtol: 1e-10,
        m: Some(&m),
        ..SolveOptions::default()
    };
    let (x, info) = cg(&a, &b, &opts).unwrap();
    assert_eq!(info, 0);
    assert!(relative_residual(&a, &x, &b) < 2e-10);
    // Starting from the solution: converged at once.
    let opts = SolveOptions {
        x0: Some(&x),
        rtol: 1e-6,
        ..SolveOptions::default()
    };
    let (_, info) = cg(&a, &b, &opts).unwrap();
    assert_eq!(info, 0);
    // Too few iterations: info is the iterations run.
    let opts = SolveOptions {
        rtol: 1e-12,
        maxiter: Some(3),
        ..SolveOptions::default()
    };
    assert_eq!(cg(&a, &b, &opts).unwrap().1, 3);
    // b = 0: x = 0 at once.
    let z = gpu_array::creation::zeros(576, DType::Float64).unwrap();
    let (x, info) = cg(&a, &z, &SolveOptions::default()).unwrap();
    assert_eq!(
        (info, x.to_vec::<f64>().unwrap().iter().all(|v| *v == 0.0)),
        (0, true)
    );
    // An operator of sparse type works through the trait too.
    assert_eq!(LinearOperator::shape(&a), SpMatrix::shape(&a));
}

#[test]
fn solver_errors() {
    if !gpu() {
        return;
    }
    let a = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let b = gpu_array::creation::ones(3, DType::Float64).unwrap();
    let e = cg(&a, &b, &SolveOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected square matrix"), "{e}");
    let a = gpu_sparse::identity(3, DType::Float64).unwrap();
    let b4 = gpu_array::creation::ones(4, DType::Float64).unwrap();
    let e = cg(&a, &b4, &SolveOptions::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains("incompatible"), "{e}");
}

/// Solves the `n x n` complex system `m z = r` on the host (Gaussian
/// elimination with partial pivoting), row-major, as (re, im) pairs.
pub(crate) fn host_solve(
    mut m: Vec<num_complex::Complex64>,
    mut r: Vec<num_complex::Complex64>,
    n: usize,
) -> Vec<num_complex::Complex64> {
    for k in 0..n {
        let p = (k..n)
            .max_by(|&i, &j| m[i * n + k].norm().total_cmp(&m[j * n + k].norm()))
            .unwrap();
        for j in 0..n {
            m.swap(k * n + j, p * n + j);
        }
        r.swap(k, p);
        for i in k + 1..n {
            let f = m[i * n + k] / m[k * n + k];
            for j in k..n {
                let t = m[k * n + j];
                m[i * n + j] -= f * t;
            }
            let t = r[k];
            r[i] -= f * t;
        }
    }
    let mut z = vec![num_complex::Complex64::new(0.0, 0.0); n];
    for k in (0..n).rev() {
        let mut s = r[k];
        for j in k + 1..n {
            s -= m[k * n + j] * z[j];
        }
        z[k] = s / m[k * n + k];
    }
    z
}

#[test]
fn lsqr_matches_the_normal_equations() {
    use gpu_sparse::linalg::{LsqrOptions, lsqr};
    use num_complex::Complex64;
    if !gpu() {
        return;
    }
    let (m, n) = (120, 40);
    for dtype in [DType::Float64, DType::Complex128] {
        for damp in [0.0, 0.7] {
            // A: a scaled identity block on top of random entries (full rank).
            let t = crate::Triplets::random(m, n, 600, 5);
            let mut coo = t.coo(dtype).tocsr().unwrap().toarray().unwrap();
            let eye = gpu_array::creation::eye(m, Some(n), 0, dtype).unwrap();
            coo = gpu_array::ufunc::add(&coo, gpu_array::ufunc::multiply(&eye, 20.0).unwrap())
                .unwrap();
            let a = CsrMatrix::from_dense(&coo).unwrap();
            let b = rhs(m, dtype);
            let opts = LsqrOptions {
                damp,
                atol: 1e-12,
                btol: 1e-12,
                check_every: 3,
                ..LsqrOptions::default()
            };
            let r = lsqr(&a, &b, &opts).unwrap();
            assert!(
                matches!(r.istop, 1 | 2 | 4 | 5),
                "{dtype} damp {damp}: istop {}",
                r.istop
            );
            // Host: (A^H A + damp^2 I) x = A^H b.
            let (ar, ai) = host_parts(&coo);
            let ad: Vec<Complex64> = (0..m * n).map(|k| Complex64::new(ar[k], ai[k])).collect();
            let (br, bi) = host_parts(&b);
            let bd: Vec<Complex64> = (0..m).map(|k| Complex64::new(br[k], bi[k])).collect();
            let mut ata = vec![Complex64::new(0.0, 0.0); n * n];
            let mut atb = vec![Complex64::new(0.0, 0.0); n];
            for i in 0..n {
                for j in 0..n {
                    ata[i * n + j] = (0..m).map(|k| ad[k * n + i].conj() * ad[k * n + j]).sum();
                }
                ata[i * n + i] += damp * damp;
                atb[i] = (0..m).map(|k| ad[k * n + i].conj() * bd[k]).sum();
            }
            let want = host_solve(ata, atb, n);
            let (xr, xi) = host_parts(&r.x);
            let err: f64 = (0..n)
                .map(|k| (Complex64::new(xr[k], xi[k]) - want[k]).norm_sqr())
                .sum::<f64>()
                .sqrt();
            let size: f64 = want.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
            assert!(
                err <= 1e-8 * size,
                "{dtype} damp {damp}: |x - x_ls| = {err} of {size} (itn {})",
                r.itn
            );
            assert!(r.itn > 0 && r.anorm > 0.0 && r.xnorm > 0.0, "{r:?}");
        }
    }
    // A zero right-hand side: x = 0 at once (istop 0).
    let a = gpu_sparse::identity(4, DType::Float64).unwrap();
    let z = gpu_array::creation::zeros(4, DType::Float64).unwrap();
    let r = lsqr(&a, &z, &LsqrOptions::default()).unwrap();
    assert_eq!((r.istop, r.itn), (0, 0));
    // The iteration limit stops it with istop 7 after exactly that many.
    let a = poisson(10, DType::Float64);
    let b = rhs(100, DType::Float64);
    let r = lsqr(
        &a,
        &b,
        &LsqrOptions {
            iter_lim: Some(5),
            atol: 0.0,
            btol: 0.0,
            conlim: 0.0,
            ..LsqrOptions::default()
        },
    )
    .unwrap();
    assert_eq!((r.istop, r.itn), (7, 5));
}

#[test]
fn norms_match_the_dense_definitions() {
    use gpu_sparse::linalg::{NormOrd, norm};
    if !gpu() {
        return;
    }
    let t = crate::Triplets::random(13, 9, 80, 44);
    for dtype in [DType::Float64, DType::Complex128, DType::Float32] {
        let coo = t.coo(dtype);
        let (re, im) = t.dense();
        let mag: Vec<f64> = (0..re.len())
            .map(|k| re[k].hypot(if dtype.is_complex() { im[k] } else { 0.0 }))
            .collect();
        let at = |i: usize, j: usize| mag[i * 9 + j];
        let rows: Vec<f64> = (0..13).map(|i| (0..9).map(|j| at(i, j)).sum()).collect();
        let cols: Vec<f64> = (0..9).map(|j| (0..13).map(|i| at(i, j)).sum()).collect();
        let fro = mag.iter().map(|v| v * v).sum::<f64>().sqrt();
        let tol = if dtype == DType::Float32 { 1e-5 } else { 1e-12 };
        let scalar = |a: Array| a.astype(DType::Float64).unwrap().item::<f64>(&[]).unwrap();
        let close = |what: &str, got: f64, want: f64| {
            assert!(
                (got - want).abs() <= tol * want.abs().max(1.0),
                "{dtype} {what}: {got} vs {want}"
            )
        };
        close("fro", scalar(norm(&coo, None, None).unwrap()), fro);
        close(
            "fro'",
            scalar(norm(&coo, Some(NormOrd::Fro), None).unwrap()),
            fro,
        );
        close(
            "inf",
            scalar(norm(&coo, Some(NormOrd::Inf), None).unwrap()),
            rows.iter().cloned().fold(0.0, f64::max),
        );
        close(
            "-inf",
            scalar(norm(&coo, Some(NormOrd::NegInf), None).unwrap()),
            rows.iter().cloned().fold(f64::INFINITY, f64::min),
        );
        close(
            "1",
            scalar(norm(&coo, Some(NormOrd::P(1.0)), None).unwrap()),
            cols.iter().cloned().fold(0.0, f64::max),
        );
        close(
            "-1",
            scalar(norm(&coo, Some(NormOrd::P(-1.0)), None).unwrap()),
            cols.iter().cloned().fold(f64::INFINITY, f64::min),
        );
        let r2 = norm(&coo, None, Some(1))
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        for (i, &got) in r2.iter().enumerate() {
            close(
                "row 2-norm",
                got,
                (0..9).map(|j| at(i, j).powi(2)).sum::<f64>().sqrt(),
            );
        }
        let c3 = norm(&coo, Some(NormOrd::P(3.0)), Some(0))
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        for (j, &got) in c3.iter().enumerate() {
            close(
                "col 3-norm",
                got,
                (0..13).map(|i| at(i, j).powi(3)).sum::<f64>().cbrt(),
            );
        }
        let cmax = norm(&coo, Some(NormOrd::Inf), Some(0))
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        for (j, &got) in cmax.iter().enumerate() {
            close(
                "col max",
                got,
                (0..13).map(|i| at(i, j)).fold(0.0, f64::max),
            );
        }
    }
    // The 2-norm (svds, k = 1) against a host power iteration on A^H A,
    // real and complex.
    for dtype in [DType::Float64, DType::Complex128] {
        let coo = t.coo(dtype);
        let (re, im) = t.dense();
        let im: Vec<f64> = if dtype.is_complex() {
            im
        } else {
            vec![0.0; re.len()]
        };
        let (m, n) = (13, 9);
        // v <- A^H A v / |A^H A v|, complex as (re, im) pairs.
        let mut v: Vec<(f64, f64)> = (0..n).map(|j| (1.0 + j as f64 * 0.1, 0.0)).collect();
        let mut sigma2 = 0.0;
        for _ in 0..5000 {
            let av: Vec<(f64, f64)> = (0..m)
                .map(|i| {
                    (0..n).fold((0.0, 0.0), |(sr, si), j| {
                        let (ar, ai) = (re[i * n + j], im[i * n + j]);
                        (
                            sr + ar * v[j].0 - ai * v[j].1,
                            si + ar * v[j].1 + ai * v[j].0,
                        )
                    })
                })
                .collect();
            let w: Vec<(f64, f64)> = (0..n)
                .map(|j| {
                    (0..m).fold((0.0, 0.0), |(sr, si), i| {
                        let (ar, ai) = (re[i * n + j], -im[i * n + j]);
                        (
                            sr + ar * av[i].0 - ai * av[i].1,
                            si + ar * av[i].1 + ai * av[i].0,
                        )
                    })
                })
                .collect();
            let len = w.iter().map(|z| z.0 * z.0 + z.1 * z.1).sum::<f64>().sqrt();
            sigma2 = len;
            v = w.iter().map(|z| (z.0 / len, z.1 / len)).collect();
        }
        let got = norm(&coo, Some(NormOrd::P(2.0)), None)
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .item::<f64>(&[])
            .unwrap();
        let want = sigma2.sqrt();
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "{dtype} 2-norm: {got} vs {want}"
        );
    }
    let a = gpu_sparse::identity(3, DType::Float64).unwrap();
    let e = norm(&a, Some(NormOrd::P(-2.0)), None).unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
    let e = norm(&a, Some(NormOrd::P(3.0)), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("Invalid norm order for matrices"), "{e}");
    let e = norm(&a, Some(NormOrd::Fro), Some(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("'fro' for vectors"), "{e}");
}
