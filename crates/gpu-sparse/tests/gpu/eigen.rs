//! lsmr against the normal equations; eigsh on the 1-D Laplacian (known
//! eigenvalues), its eigenvectors by their residuals; svds by its
//! triplets' residuals and against gpu-linalg's eigh of the dense
//! `A^H A`; expm_multiply against a host scaling-and-squaring
//! exponential; SciPy's errors.

use gpu_array::{Array, DType};
use gpu_sparse::linalg::{EigshOptions, LsmrOptions, SvdsOptions, Which, eigsh, lsmr, svds};
use gpu_sparse::{CooMatrix, CsrMatrix, SpMatrix};
use num_complex::Complex64;

use crate::solvers::{host_solve, rhs};
use crate::{gpu, host_parts};

/// The elements of a device array as complex128 on the host.
fn host_c(a: &Array) -> Vec<Complex64> {
    let (re, im) = host_parts(a);
    re.iter()
        .zip(&im)
        .map(|(&r, &i)| Complex64::new(r, i))
        .collect()
}

/// `|x|` of a host vector.
fn vnorm(x: &[Complex64]) -> f64 {
    x.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt()
}

/// The dense `rows x cols` matrix (row-major) times `x`; `adjoint`: its
/// conjugate transpose times `x`.
fn host_mv(
    a: &[Complex64],
    rows: usize,
    cols: usize,
    x: &[Complex64],
    adjoint: bool,
) -> Vec<Complex64> {
    if adjoint {
        (0..cols)
            .map(|j| (0..rows).map(|i| a[i * cols + j].conj() * x[i]).sum())
            .collect()
    } else {
        (0..rows)
            .map(|i| (0..cols).map(|j| a[i * cols + j] * x[j]).sum())
            .collect()
    }
}

#[test]
fn lsmr_matches_the_normal_equations() {
    if !gpu() {
        return;
    }
    let (m, n) = (120, 40);
    for dtype in [DType::Float64, DType::Complex128] {
        for damp in [0.0, 0.7] {
            // A: a scaled identity block on top of random entries (full rank).
            let t = crate::Triplets::random(m, n, 600, 5);
            let mut dense = t.coo(dtype).tocsr().unwrap().toarray().unwrap();
            let eye = gpu_array::creation::eye(m, Some(n), 0, dtype).unwrap();
            dense = gpu_array::ufunc::add(&dense, gpu_array::ufunc::multiply(&eye, 20.0).unwrap())
                .unwrap();
            let a = CsrMatrix::from_dense(&dense).unwrap();
            let b = rhs(m, dtype);
            let opts = LsmrOptions {
                damp,
                atol: 1e-12,
                btol: 1e-12,
                maxiter: Some(200),
                check_every: 3,
                ..LsmrOptions::default()
            };
            let r = lsmr(&a, &b, &opts).unwrap();
            assert!(
                matches!(r.istop, 1 | 2 | 4 | 5),
                "{dtype} damp {damp}: istop {}",
                r.istop
            );
            // Host: (A^H A + damp^2 I) x = A^H b.
            let ad = host_c(&dense);
            let bd = host_c(&b);
            let mut ata = vec![Complex64::new(0.0, 0.0); n * n];
            for i in 0..n {
                for j in 0..n {
                    ata[i * n + j] = (0..m).map(|k| ad[k * n + i].conj() * ad[k * n + j]).sum();
                }
                ata[i * n + i] += damp * damp;
            }
            let atb = host_mv(&ad, m, n, &bd, true);
            let want = host_solve(ata, atb, n);
            let x = host_c(&r.x);
            let diff: Vec<Complex64> = x.iter().zip(&want).map(|(a, b)| a - b).collect();
            assert!(
                vnorm(&diff) <= 1e-8 * vnorm(&want),
                "{dtype} damp {damp}: |x - x_ls| = {} of {} (itn {})",
                vnorm(&diff),
                vnorm(&want),
                r.itn
            );
            // The estimates: |x| exact, |r| (with damping) and |A^H r -
            // damp^2 x| close to their definitions.
            assert!((r.normx - vnorm(&x)).abs() <= 1e-10 * vnorm(&x), "{r:?}");
            let ax = host_mv(&ad, m, n, &x, false);
            let res: Vec<Complex64> = bd.iter().zip(&ax).map(|(b, a)| b - a).collect();
            let normr = (vnorm(&res).powi(2) + damp * damp * vnorm(&x).powi(2)).sqrt();
            assert!((r.normr - normr).abs() <= 1e-6 * normr, "{r:?} vs {normr}");
            assert!(r.itn > 0 && r.norma > 0.0 && r.conda >= 1.0, "{r:?}");
        }
    }
    // A zero right-hand side: x = 0 at once (istop 0).
    let a = gpu_sparse::identity(4, DType::Float64).unwrap();
    let z = gpu_array::creation::zeros(4, DType::Float64).unwrap();
    let r = lsmr(&a, &z, &LsmrOptions::default()).unwrap();
    assert_eq!((r.istop, r.itn), (0, 0));
    // The iteration limit stops it with istop 7 after exactly that many.
    let a = crate::solvers::poisson(10, DType::Float64);
    let b = rhs(100, DType::Float64);
    let r = lsmr(
        &a,
        &b,
        &LsmrOptions {
            maxiter: Some(5),
            atol: 0.0,
            btol: 0.0,
            conlim: 0.0,
            ..LsmrOptions::default()
        },
    )
    .unwrap();
    assert_eq!((r.istop, r.itn), (7, 5));
    // SciPy's default maxiter is min(m, n) (unless a machine-precision
    // test stops it first).
    let r = lsmr(
        &a,
        &b,
        &LsmrOptions {
            atol: 0.0,
            btol: 0.0,
            conlim: 0.0,
            check_every: 7,
            ..LsmrOptions::default()
        },
    )
    .unwrap();
    assert!(r.itn <= 100 && (r.istop != 7 || r.itn == 100), "{r:?}");
}

/// The 1-D Laplacian `tridiag(-1, 2, -1)` of size `n`; complex: made
/// Hermitian with phases, `D L D^H` for `D = diag(e^{i k / 3})`, which has
/// the same eigenvalues.
fn laplacian(n: usize, dtype: DType) -> CsrMatrix {
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    let phase = |k: usize| Complex64::from_polar(1.0, k as f64 / 3.0);
    for k in 0..n {
        r.push(k);
        c.push(k);
        v.push(Complex64::new(2.0, 0.0));
        if k + 1 < n {
            let off = -phase(k) * phase(k + 1).conj();
            r.extend([k, k + 1]);
            c.extend([k + 1, k]);
            v.extend([off, off.conj()]);
        }
    }
    let coo = if dtype.is_complex() {
        CooMatrix::from_triplets(&r, &c, &v, (n, n)).unwrap()
    } else {
        let re: Vec<f64> = v
            .iter()
            .map(|z| if z.re > 0.0 { 2.0 } else { -1.0 })
            .collect();
        CooMatrix::from_triplets(&r, &c, &re, (n, n)).unwrap()
    };
    coo.astype(dtype).unwrap().tocsr().unwrap()
}

#[test]
fn eigsh_finds_the_laplacians_eigenpairs() {
    if !gpu() {
        return;
    }
    let n = 50;
    let exact: Vec<f64> = (1..=n)
        .map(|j| 2.0 - 2.0 * (std::f64::consts::PI * j as f64 / (n + 1) as f64).cos())
        .collect();
    let k = 4;
    for dtype in [DType::Float64, DType::Complex128] {
        let a = laplacian(n, dtype);
        let ad = host_c(&a.toarray().unwrap());
        for which in [Which::LM, Which::LA, Which::SA, Which::BE] {
            let want: Vec<f64> = match which {
                Which::SA => exact[..k].to_vec(),
                // k / 2 from each end, ascending.
                Which::BE => [&exact[..k / 2], &exact[n - (k - k / 2)..]].concat(),
                _ => exact[n - k..].to_vec(),
            };
            let (w, v) = eigsh(&a, k, which, &EigshOptions::default()).unwrap();
            assert_eq!(w.dtype(), DType::Float64);
            let w = w.to_vec::<f64>().unwrap();
            for (g, e) in w.iter().zip(&want) {
                assert!(
                    (g - e).abs() <= 1e-10,
                    "{dtype} {which:?}: got {w:?}, want {want:?}"
                );
            }
            let v = v.unwrap();
            assert_eq!(v.shape(), [n, k]);
            assert_eq!(v.dtype(), dtype);
            let vh = host_c(&v);
            for (j, &lambda) in w.iter().enumerate() {
                let col: Vec<Complex64> = (0..n).map(|i| vh[i * k + j]).collect();
                assert!(
                    (vnorm(&col) - 1.0).abs() <= 1e-10,
                    "{dtype} {which:?}: |v_{j}|"
                );
                let av = host_mv(&ad, n, n, &col, false);
                let r: Vec<Complex64> = av.iter().zip(&col).map(|(a, x)| a - x * lambda).collect();
                assert!(
                    vnorm(&r) <= 1e-8,
                    "{dtype} {which:?}: |A v - lambda v| = {} for lambda {lambda}",
                    vnorm(&r)
                );
            }
        }
    }
    // Eigenvalues only, a start vector and ncv given; float32 in float32.
    let a = laplacian(n, DType::Float32);
    let v0 = gpu_array::creation::ones(n, DType::Float32).unwrap();
    let opts = EigshOptions {
        v0: Some(&v0),
        ncv: Some(12),
        tol: 1e-5,
        return_eigenvectors: false,
        ..EigshOptions::default()
    };
    let (w, v) = eigsh(&a, 2, Which::LA, &opts).unwrap();
    assert!(v.is_none());
    assert_eq!(w.dtype(), DType::Float32);
    let w: Vec<f64> = host_parts(&w).0;
    // A start of ones is symmetric: only the symmetric eigenvectors (odd
    // j) lie in its Krylov space until rounding, so check the largest
    // Ritz value only, which is exact[n - 1] or exact[n - 2].
    assert!(
        (w[1] - exact[n - 1]).abs() <= 1e-4 || (w[1] - exact[n - 2]).abs() <= 1e-4,
        "{w:?}"
    );
}

#[test]
fn svds_triplets_match_the_dense_gram_matrix() {
    if !gpu() {
        return;
    }
    let k = 3;
    for dtype in [DType::Float64, DType::Complex128] {
        for (m, n) in [(40, 25), (25, 40)] {
            let t = crate::Triplets::random(m, n, 200, 11);
            let a = t.coo(dtype).tocsr().unwrap();
            let dense = a.toarray().unwrap();
            let r = svds(&a, k, &SvdsOptions::default()).unwrap();
            let s = host_parts(&r.s).0;
            assert_eq!(s.len(), k);
            assert!(s.windows(2).all(|p| p[0] <= p[1]), "{s:?} not ascending");
            // The oracle: sqrt of the largest eigenvalues of A^H A, from
            // gpu-linalg's dense eigh.
            let ah = gpu_array::ufunc::conj(dense.transpose(None).unwrap()).unwrap();
            let gram = gpu_linalg::matmul(&ah, &dense).unwrap();
            let (lam, _) = gpu_linalg::eigh(&gram, gpu_linalg::Uplo::L).unwrap();
            let lam = host_parts(&lam).0;
            let want: Vec<f64> = lam[n - k..].iter().map(|l| l.max(0.0).sqrt()).collect();
            let smax = want[k - 1];
            for (g, w) in s.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-9 * smax,
                    "{dtype} ({m}, {n}): s {s:?}, want {want:?}"
                );
            }
            let u = r.u.unwrap();
            let vt = r.vt.unwrap();
            assert_eq!(
                (u.shape(), vt.shape()),
                ([m, k].as_slice(), [k, n].as_slice())
            );
            let (ad, uh, vth) = (host_c(&dense), host_c(&u), host_c(&vt));
            for j in 0..k {
                let uj: Vec<Complex64> = (0..m).map(|i| uh[i * k + j]).collect();
                let vj: Vec<Complex64> = (0..n).map(|i| vth[j * n + i].conj()).collect();
                let av = host_mv(&ad, m, n, &vj, false);
                let ahu = host_mv(&ad, m, n, &uj, true);
                let r1: Vec<Complex64> = av.iter().zip(&uj).map(|(a, u)| a - u * s[j]).collect();
                let r2: Vec<Complex64> = ahu.iter().zip(&vj).map(|(a, v)| a - v * s[j]).collect();
                assert!(
                    vnorm(&r1) <= 1e-8 * smax && vnorm(&r2) <= 1e-8 * smax,
                    "{dtype} ({m}, {n}) triplet {j}: |A v - s u| = {}, |A^H u - s v| = {}",
                    vnorm(&r1),
                    vnorm(&r2)
                );
                assert!((vnorm(&uj) - 1.0).abs() <= 1e-8 && (vnorm(&vj) - 1.0).abs() <= 1e-8);
            }
        }
    }
}

#[test]
fn eigsh_and_svds_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let a = laplacian(10, DType::Float64);
    let err =
        |k: usize, opts: EigshOptions<'_>| eigsh(&a, k, Which::LM, &opts).unwrap_err().to_string();
    assert_eq!(err(0, EigshOptions::default()), "k must be greater than 0.");
    assert_eq!(
        err(10, EigshOptions::default()),
        "k must be less than ndim(A), k=10"
    );
    let bad_ncv = EigshOptions {
        ncv: Some(3),
        ..EigshOptions::default()
    };
    assert_eq!(err(3, bad_ncv), "ncv must be k<ncv<=n, ncv=3");
    assert_eq!("BE".parse::<Which>().unwrap(), Which::BE);
    assert_eq!(
        "XX".parse::<Which>().unwrap_err().to_string(),
        "which must be one of LM SM LA SA BE"
    );
    // One restart of a small basis cannot reach machine precision.
    let a = laplacian(200, DType::Float64);
    let e = eigsh(
        &a,
        3,
        Which::SA,
        &EigshOptions {
            ncv: Some(6),
            maxiter: Some(1),
            ..EigshOptions::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(e, gpu_array::Error::NoConvergence { what: "ARPACK", .. }),
        "{e}"
    );
    let b = laplacian(10, DType::Float64);
    for k in [0, 10] {
        assert_eq!(
            svds(&b, k, &SvdsOptions::default())
                .unwrap_err()
                .to_string(),
            "`k` must be an integer satisfying `0 < k < min(A.shape)`."
        );
    }
    let la = SvdsOptions {
        which: Which::LA,
        ..SvdsOptions::default()
    };
    assert_eq!(
        svds(&b, 2, &la).unwrap_err().to_string(),
        "which must be either 'LM' or 'SM'."
    );
}

/// `exp(A)` of a dense real `n x n` matrix on the host: scaling and
/// squaring around a 30-term Taylor series.
fn host_expm(a: &[f64], n: usize) -> Vec<f64> {
    let norm = (0..n)
        .map(|j| (0..n).map(|i| a[i * n + j].abs()).sum::<f64>())
        .fold(0.0f64, f64::max);
    let sq = (norm / 0.25).log2().ceil().max(0.0) as i32;
    let scaled: Vec<f64> = a.iter().map(|x| x / 2f64.powi(sq)).collect();
    let mul = |x: &[f64], y: &[f64]| -> Vec<f64> {
        let mut z = vec![0.0; n * n];
        for i in 0..n {
            for k in 0..n {
                for j in 0..n {
                    z[i * n + j] += x[i * n + k] * y[k * n + j];
                }
            }
        }
        z
    };
    let mut e = vec![0.0; n * n];
    let mut term = vec![0.0; n * n];
    for i in 0..n {
        e[i * n + i] = 1.0;
        term[i * n + i] = 1.0;
    }
    for k in 1..30 {
        term = mul(&term, &scaled).iter().map(|x| x / k as f64).collect();
        for (ei, ti) in e.iter_mut().zip(&term) {
            *ei += ti;
        }
    }
    for _ in 0..sq {
        e = mul(&e, &e);
    }
    e
}

#[test]
fn expm_multiply_matches_a_host_exponential() {
    use gpu_sparse::linalg::expm_multiply;
    if !gpu() {
        return;
    }
    let n = 12;
    // Nonsymmetric, a nonzero trace (the shift), norm about 20.
    let t = crate::Triplets::random(n, n, 40, 3);
    let a = t.coo(DType::Float64).tocsr().unwrap();
    let (ad, _) = host_parts(&a.toarray().unwrap());
    for time in [0.05, 0.3, -0.2] {
        let ta: Vec<f64> = ad.iter().map(|x| x * time).collect();
        let e = host_expm(&ta, n);
        // B: a vector and a 3-column matrix.
        let bv: Vec<f64> = (0..n).map(|i| (i as f64 * 0.7).sin()).collect();
        let bm: Vec<f64> = (0..n * 3).map(|i| (i as f64 * 0.3).cos()).collect();
        for (cols, bh) in [(1, &bv), (3, &bm)] {
            let shape: Vec<usize> = if cols == 1 { vec![n] } else { vec![n, cols] };
            let b = Array::from_slice(bh, &shape).unwrap();
            let got = expm_multiply(&a, &b, time).unwrap();
            assert_eq!(got.shape(), shape.as_slice());
            let got = host_parts(&got).0;
            let want: Vec<f64> = (0..n * cols)
                .map(|ij| {
                    let (i, j) = (ij / cols, ij % cols);
                    (0..n).map(|k| e[i * n + k] * bh[k * cols + j]).sum()
                })
                .collect();
            let scale = want.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for (g, w) in got.iter().zip(&want) {
                assert!(
                    (g - w).abs() <= 1e-10 * scale,
                    "t {time}, {cols} columns: got {got:?}, want {want:?}"
                );
            }
        }
    }
    // SciPy's errors.
    let rect = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let b = gpu_array::creation::ones(3, DType::Float64).unwrap();
    assert_eq!(
        expm_multiply(&rect, &b, 1.0).unwrap_err().to_string(),
        "expected A to be like a square matrix"
    );
    assert!(expm_multiply(&a, &b, 1.0).is_err());
}
