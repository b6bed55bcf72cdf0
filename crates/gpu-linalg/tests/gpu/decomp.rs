//! Tier 3: the factorizations and solvers on the GPU, checked by
//! reconstruction identities in complex128 on the host (`L L^H = A`,
//! `Q R = A`, `U S V^H = A`, `A V = V W`, `A x = b`, `A inv(A) = I`),
//! unitarity, triangularity and orderings, and against host references
//! (determinants by Gaussian elimination, norms); for float32, float64,
//! complex64 and complex128, stacked and non-contiguous inputs; singular
//! and non-positive-definite input under both error settings; SciPy's
//! triangular and LU routines and special matrices; the batched QR
//! (`geqrfBatched` and the crate's `orgqr` kernel) and SciPy's LU over
//! stacks; NumPy 2's keywords (`upper`, `hermitian`, `rtol`), the
//! array-API functions' errors, `roots`, `polyfit` and `Poly1dExt`.

use gpu_array::{Array, DType};
use gpu_linalg::scipy::{self, Trans};
use gpu_linalg::{
    LinAlgErrors, Norm, NormAxis, QrMode, QrResult, SvdDriver, SvdParams, Uplo, cholesky, det, eig,
    eigh, eigvals, eigvalsh, errstate, inv, lstsq, matmul, matrix_rank, norm_with, pinv, qr,
    slogdet, solve, svd, tensorinv, tensorsolve,
};

use crate::common::{C, Rng, assert_close, dev, eps, host, host_ct, host_eye, host_matmul, random};

const DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// Tolerance for an `n`-sized factorization in `dt`.
fn tol(dt: DType, n: usize) -> f64 {
    eps(dt) * 64.0 * (n as f64 + 4.0)
}

/// `batch` well-conditioned `n x n` matrices: random plus `n` on the
/// diagonal.
fn well_conditioned(rng: &mut Rng, batch: &[usize], n: usize, dt: DType) -> Array {
    let mut shape = batch.to_vec();
    shape.extend([n, n]);
    let r = random(rng, &shape, dt);
    let eye = gpu_array::creation::eye(n, None, 0, dt).unwrap();
    let scaled = gpu_array::ufunc::multiply(&eye, n as f64).unwrap();
    gpu_array::ufunc::add(&r, &scaled).unwrap()
}

/// `batch` Hermitian positive-definite matrices `M M^H + n I`.
fn hpd(rng: &mut Rng, batch: usize, n: usize, dt: DType) -> (Array, Vec<C>) {
    let m = host(&random(rng, &[batch, n, n], dt));
    let mut a = host_matmul(&m, &host_ct(&m, batch, n, n), batch, n, n, n);
    for p in 0..batch {
        for i in 0..n {
            a[p * n * n + i * n + i] += C::new(n as f64, 0.0);
        }
    }
    let dev = Array::from_slice(&a, &[batch, n, n])
        .unwrap()
        .astype(dt)
        .unwrap();
    let a = host(&dev);
    (dev, a)
}

#[test]
fn cholesky_reconstructs_and_zeroes_the_upper_triangle() {
    if !dev() {
        return;
    }
    let mut rng = Rng(1);
    for dt in DTYPES {
        let (a, ha) = hpd(&mut rng, 3, 6, dt);
        let l = cholesky(&a, false).unwrap();
        assert_eq!(l.shape(), &[3, 6, 6]);
        assert_eq!(l.dtype(), dt);
        let hl = host(&l);
        for p in 0..3 {
            for i in 0..6 {
                for j in i + 1..6 {
                    assert_eq!(
                        hl[p * 36 + i * 6 + j],
                        C::new(0.0, 0.0),
                        "{dt}: upper not zero"
                    );
                }
            }
        }
        let llh = host_matmul(&hl, &host_ct(&hl, 3, 6, 6), 3, 6, 6, 6);
        assert_close(&llh, &ha, tol(dt, 6), &format!("{dt} L L^H"));
        // Only the lower triangle is read: garbage above changes nothing.
        let upper_junk = gpu_array::ufunc::add(
            &a,
            gpu_array::creation::triu(&random(&mut rng, &[3, 6, 6], dt), 1).unwrap(),
        )
        .unwrap();
        assert_close(
            &host(&cholesky(&upper_junk, false).unwrap()),
            &hl,
            0.0,
            "lower only",
        );
    }
    // Stacks above potrfBatched's size take one potrf call per matrix.
    for dt in [DType::Float64, DType::Complex64] {
        let (a, ha) = hpd(&mut rng, 2, 70, dt);
        let l = host(&cholesky(&a, false).unwrap());
        let llh = host_matmul(&l, &host_ct(&l, 2, 70, 70), 2, 70, 70, 70);
        assert_close(&llh, &ha, tol(dt, 70), &format!("{dt} stacked 70x70 L L^H"));
    }
    // A non-contiguous input (a transposed view of a Hermitian matrix is its
    // conjugate, also positive definite).
    let (a, _) = hpd(&mut rng, 1, 5, DType::Float64);
    let at = a.swapaxes(-1, -2).unwrap();
    let l = host(&cholesky(&at, false).unwrap());
    assert_close(
        &host_matmul(&l, &host_ct(&l, 1, 5, 5), 1, 5, 5, 5),
        &host(&at),
        tol(DType::Float64, 5),
        "transposed input",
    );
}

#[test]
fn not_positive_definite_raises_only_when_asked() {
    if !dev() {
        return;
    }
    let a = Array::from_slice(&[1.0f64, 2.0, 2.0, 1.0], &[2, 2]).unwrap();
    // CuPy's default: no check.
    assert!(cholesky(&a, false).is_ok());
    let err = errstate(LinAlgErrors::Raise, || cholesky(&a, false)).unwrap_err();
    assert_eq!(err.to_string(), "Matrix is not positive definite");
    // Typed: the leading minor of order 2 (det -3) is the first that fails.
    assert!(
        matches!(err, gpu_linalg::Error::NotPositiveDefinite { order: 2 }),
        "{err:?}"
    );
    assert!(err.is_linalg_error());
    let s = Array::from_slice(&[1.0f32, 2.0, 2.0, 4.0], &[2, 2]).unwrap();
    let b = Array::from_slice(&[1.0f32, 1.0], &[2]).unwrap();
    assert!(solve(&s, &b).is_ok());
    let _g = gpu_linalg::raise_on_error();
    let err = solve(&s, &b).unwrap_err();
    assert_eq!(err.to_string(), "Singular matrix");
    assert!(matches!(err, gpu_linalg::Error::Singular { .. }), "{err:?}");
    assert_eq!(inv(&s).unwrap_err().to_string(), "Singular matrix");
    // A singular matrix in a stack (the batched small-matrix path).
    let eye = gpu_array::creation::eye(2, None, 0, DType::Float32).unwrap();
    let stack = Array::empty([3, 2, 2], DType::Float32).unwrap();
    for (i, m) in [&eye, &s, &eye].iter().enumerate() {
        stack
            .slice(&[gpu_array::AxisIndex::Index(i as isize)])
            .unwrap()
            .copy_from(m)
            .unwrap();
    }
    assert_eq!(inv(&stack).unwrap_err().to_string(), "Singular matrix");
    // det never raises: a singular matrix has determinant 0.
    let (sign, logdet) = slogdet(&s).unwrap();
    assert_eq!(sign.to_vec::<f32>().unwrap(), vec![0.0]);
    assert_eq!(logdet.to_vec::<f32>().unwrap(), vec![f32::NEG_INFINITY]);
    assert_eq!(det(&s).unwrap().to_vec::<f32>().unwrap(), vec![0.0]);
}

#[test]
fn solve_and_inv() {
    if !dev() {
        return;
    }
    let mut rng = Rng(2);
    for dt in DTYPES {
        let a = well_conditioned(&mut rng, &[2, 3], 7, dt);
        let ha = host(&a);
        // Matrix right-hand sides, batch broadcast from (3, 7, 4).
        let b = random(&mut rng, &[3, 7, 4], dt);
        let x = solve(&a, &b).unwrap();
        assert_eq!(x.shape(), &[2, 3, 7, 4]);
        let hb = host(&b.broadcast_to(&[2, 3, 7, 4]).unwrap());
        let ax = host_matmul(&ha, &host(&x), 6, 7, 7, 4);
        assert_close(&ax, &hb, tol(dt, 7), &format!("{dt} A X = B"));
        // A vector right-hand side.
        let v = random(&mut rng, &[7], dt);
        let xv = solve(&a, &v).unwrap();
        assert_eq!(xv.shape(), &[2, 3, 7]);
        let av = host_matmul(&ha, &host(&xv), 6, 7, 7, 1);
        let hv: Vec<C> = (0..6).flat_map(|_| host(&v)).collect();
        assert_close(&av, &hv, tol(dt, 7), &format!("{dt} A x = b"));
        // inv.
        let ia = inv(&a).unwrap();
        assert_close(
            &host_matmul(&ha, &host(&ia), 6, 7, 7, 7),
            &host_eye(6, 7),
            tol(dt, 7),
            &format!("{dt} A inv(A)"),
        );
    }
    // Stacks of larger matrices take one cuSOLVER call per matrix.
    for dt in [DType::Float32, DType::Complex128] {
        let a = well_conditioned(&mut rng, &[2], 40, dt);
        let b = random(&mut rng, &[2, 40, 3], dt);
        let x = solve(&a, &b).unwrap();
        let ax = host_matmul(&host(&a), &host(&x), 2, 40, 40, 3);
        assert_close(&ax, &host(&b), tol(dt, 40), &format!("{dt} stacked 40x40"));
        let ia = inv(&a).unwrap();
        assert_close(
            &host_matmul(&host(&a), &host(&ia), 2, 40, 40, 40),
            &host_eye(2, 40),
            tol(dt, 40),
            &format!("{dt} stacked inv 40x40"),
        );
    }
    // Row interchanges: reversing the rows of a well-conditioned matrix
    // puts its large entries on the anti-diagonal, so getrf pivots at
    // nearly every step and the solution's rows are gathered out of order.
    for dt in [DType::Float64, DType::Complex64] {
        let w = well_conditioned(&mut rng, &[3], 33, dt);
        let a = w.slice(&gpu_array::s![.., ..;-1, ..]).unwrap();
        let b = random(&mut rng, &[3, 33, 70], dt);
        let x = solve(&a, &b).unwrap();
        assert!(x.is_c_contiguous());
        let ax = host_matmul(&host(&a), &host(&x), 3, 33, 33, 70);
        assert_close(&ax, &host(&b), tol(dt, 33), &format!("{dt} pivoted solve"));
        let one = solve(
            &a.slice(&gpu_array::s![1]).unwrap(),
            &b.slice(&gpu_array::s![1, .., 0]).unwrap(),
        )
        .unwrap();
        let av = host_matmul(
            &host(&a.slice(&gpu_array::s![1]).unwrap()),
            &host(&one),
            1,
            33,
            33,
            1,
        );
        assert_close(
            &av,
            &host(&b.slice(&gpu_array::s![1, .., 0]).unwrap()),
            tol(dt, 33),
            &format!("{dt} pivoted vector"),
        );
        let ia = inv(&a).unwrap();
        assert_close(
            &host_matmul(&host(&a), &host(&ia), 3, 33, 33, 33),
            &host_eye(3, 33),
            tol(dt, 33),
            &format!("{dt} pivoted inv"),
        );
    }
    // Non-contiguous operands and integer input (computed in float64).
    let a = well_conditioned(&mut rng, &[], 5, DType::Float64);
    let at = a.T();
    let b = random(&mut rng, &[4, 5], DType::Float64).T();
    let x = solve(&at, &b).unwrap();
    assert_close(
        &host_matmul(&host(&at), &host(&x), 1, 5, 5, 4),
        &host(&b),
        tol(DType::Float64, 5),
        "transposed operands",
    );
    let ai = Array::from_slice(&[2i32, 1, 1, 3], &[2, 2]).unwrap();
    let xi = solve(&ai, &Array::from_slice(&[3i32, 5], &[2]).unwrap()).unwrap();
    assert_eq!(xi.dtype(), DType::Float64);
    assert_close(
        &host(&xi),
        &[C::new(0.8, 0.0), C::new(1.4, 0.0)],
        1e-15,
        "int solve",
    );
    assert!(solve(&a, &random(&mut rng, &[4], DType::Float64)).is_err());
    assert!(inv(&random(&mut rng, &[3, 4], DType::Float64)).is_err());
    assert!(inv(&random(&mut rng, &[3, 3], DType::Float16)).is_err());
}

/// Determinant by Gaussian elimination with partial pivoting.
fn host_det(a: &[C], n: usize) -> C {
    let mut m = a.to_vec();
    let mut d = C::new(1.0, 0.0);
    for c in 0..n {
        let p = (c..n)
            .max_by(|&x, &y| m[x * n + c].norm().total_cmp(&m[y * n + c].norm()))
            .unwrap();
        if m[p * n + c].norm() == 0.0 {
            return C::new(0.0, 0.0);
        }
        if p != c {
            for j in 0..n {
                m.swap(p * n + j, c * n + j);
            }
            d = -d;
        }
        d *= m[c * n + c];
        for r in c + 1..n {
            let f = m[r * n + c] / m[c * n + c];
            for j in c..n {
                let v = m[c * n + j];
                m[r * n + j] -= f * v;
            }
        }
    }
    d
}

#[test]
fn det_and_slogdet() {
    if !dev() {
        return;
    }
    let mut rng = Rng(3);
    for dt in DTYPES {
        for n in [1usize, 4, 9, 300] {
            let a = random(&mut rng, &[2, n, n], dt);
            let ha = host(&a);
            let want: Vec<C> = (0..2)
                .map(|p| host_det(&ha[p * n * n..(p + 1) * n * n], n))
                .collect();
            let (sign, logdet) = slogdet(&a).unwrap();
            let (hs, hl) = (host(&sign), host(&logdet));
            for p in 0..2 {
                let w = want[p];
                assert!(
                    (hs[p].norm() - 1.0).abs() < 1e-4,
                    "{dt} n={n}: |sign| = {}",
                    hs[p]
                );
                assert!(
                    (hl[p].re - w.norm().ln()).abs() < tol(dt, n) * 4.0,
                    "{dt} n={n}: logdet {} vs {}",
                    hl[p].re,
                    w.norm().ln()
                );
                let ws = w / w.norm();
                assert!(
                    (hs[p] - ws).norm() < 1e-3,
                    "{dt} n={n}: sign {} vs {ws}",
                    hs[p]
                );
            }
            if n <= 9 {
                let d = host(&det(&a).unwrap());
                assert_close(&d, &want, tol(dt, n) * 10.0, &format!("{dt} det n={n}"));
            }
        }
    }
    // Permutation matrices: det = sign of the permutation, exactly.
    let p = Array::from_slice(&[0.0f64, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0], &[3, 3]).unwrap();
    assert_eq!(det(&p).unwrap().to_vec::<f64>().unwrap(), vec![1.0]);
    let q = Array::from_slice(&[0.0f64, 1.0, 1.0, 0.0], &[2, 2]).unwrap();
    assert_eq!(det(&q).unwrap().to_vec::<f64>().unwrap(), vec![-1.0]);
    let e = Array::zeros([3, 0, 0], DType::Float64).unwrap();
    assert_eq!(det(&e).unwrap().to_vec::<f64>().unwrap(), vec![1.0; 3]);
}

#[test]
fn eigh_both_triangles() {
    if !dev() {
        return;
    }
    let mut rng = Rng(4);
    // Stacks of 8x8 take syevjBatched; 40x40, syevd per matrix.
    for (dt, n) in DTYPES
        .iter()
        .map(|&d| (d, 8))
        .chain([(DType::Float32, 40), (DType::Complex128, 40)])
    {
        // A general matrix: the lower and upper triangles define different
        // Hermitian matrices.
        let a = random(&mut rng, &[2, n, n], dt);
        let ha = host(&a);
        for uplo in [Uplo::L, Uplo::U] {
            let mut h = vec![C::new(0.0, 0.0); 2 * n * n];
            for p in 0..2 {
                for i in 0..n {
                    for j in 0..n {
                        let lower = i >= j;
                        let take_self = (uplo == Uplo::L) == lower || i == j;
                        h[p * n * n + i * n + j] = if take_self {
                            let v = ha[p * n * n + i * n + j];
                            if i == j { C::new(v.re, 0.0) } else { v }
                        } else {
                            ha[p * n * n + j * n + i].conj()
                        };
                    }
                }
            }
            let (w, v) = eigh(&a, uplo).unwrap();
            assert_eq!(w.dtype(), dt.real_dtype());
            assert_eq!(w.shape(), &[2, n]);
            let (hw, hv) = (host(&w), host(&v));
            for p in 0..2 {
                for i in 1..n {
                    assert!(hw[p * n + i].re >= hw[p * n + i - 1].re, "{dt}: ascending");
                }
            }
            let av = host_matmul(&h, &hv, 2, n, n, n);
            let mut vw = hv.clone();
            for p in 0..2 {
                for i in 0..n {
                    for j in 0..n {
                        vw[p * n * n + i * n + j] *= hw[p * n + j].re;
                    }
                }
            }
            assert_close(&av, &vw, tol(dt, n), &format!("{dt} {uplo:?} A V = V W"));
            let vhv = host_matmul(&host_ct(&hv, 2, n, n), &hv, 2, n, n, n);
            assert_close(&vhv, &host_eye(2, n), tol(dt, n), &format!("{dt} V^H V"));
            let wv = host(&eigvalsh(&a, uplo).unwrap());
            assert_close(&wv, &hw, tol(dt, n), &format!("{dt} eigvalsh"));
        }
    }
}

fn check_svd(a: &Array, p: SvdParams, what: &str) {
    let dt = gpu_linalg::util::linalg_dtype(a.dtype()).unwrap();
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch: usize = a.shape()[..nd - 2].iter().product();
    let r = svd(a, p).unwrap_or_else(|e| panic!("{what}: {e}"));
    let hs = host(&r.s);
    assert_eq!(r.s.dtype(), dt.real_dtype(), "{what}");
    for b in 0..batch {
        for i in 1..k {
            assert!(
                hs[b * k + i].re <= hs[b * k + i - 1].re + 1e-6,
                "{what}: descending"
            );
        }
    }
    let t = tol(dt, m.max(n));
    if !p.compute_uv {
        assert!(r.u.is_none() && r.vh.is_none());
        // The values agree with those of gesvd with vectors.
        let with_uv = svd(
            a,
            SvdParams::default()
                .full_matrices(false)
                .compute_uv(true)
                .driver(SvdDriver::Gesvd)
                .hermitian(false),
        )
        .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_close(&hs, &host(&with_uv.s), t, &format!("{what}: values only"));
        return;
    }
    let (u, vh) = (r.u.unwrap(), r.vh.unwrap());
    let (uc, vr) = if p.full_matrices { (m, n) } else { (k, k) };
    let mut us = u.shape()[..nd - 2].to_vec();
    us.extend([m, uc]);
    assert_eq!(u.shape(), us.as_slice(), "{what}: U shape");
    assert_eq!(vh.shape()[nd - 2..], [vr, n], "{what}: Vh shape");
    let (hu, hvh) = (host(&u), host(&vh));
    // U[:, :k] diag(s) Vh[:k, :]
    let mut usv = vec![C::new(0.0, 0.0); batch * m * n];
    for b in 0..batch {
        for i in 0..m {
            for j in 0..n {
                let mut acc = C::new(0.0, 0.0);
                for l in 0..k {
                    acc += hu[b * m * uc + i * uc + l]
                        * hs[b * k + l].re
                        * hvh[b * vr * n + l * n + j];
                }
                usv[b * m * n + i * n + j] = acc;
            }
        }
    }
    assert_close(&usv, &host(a), t, &format!("{what}: U S Vh = A"));
    let uhu = host_matmul(&host_ct(&hu, batch, m, uc), &hu, batch, uc, m, uc);
    assert_close(&uhu, &host_eye(batch, uc), t, &format!("{what}: U^H U"));
    let vvh = host_matmul(&hvh, &host_ct(&hvh, batch, vr, n), batch, vr, n, vr);
    assert_close(&vvh, &host_eye(batch, vr), t, &format!("{what}: Vh Vh^H"));
}

#[test]
fn svd_shapes_drivers_and_modes() {
    if !dev() {
        return;
    }
    let mut rng = Rng(5);
    // Stacks of at most 32x32 take gesvdjBatched under Auto; the 40x35
    // stack and the single matrix one call per matrix.
    for dt in DTYPES {
        for shape in [[2usize, 6, 4], [2, 4, 6], [1, 5, 5], [2, 35, 40]] {
            let a = random(&mut rng, &shape, dt);
            for driver in [SvdDriver::Auto, SvdDriver::Gesvd, SvdDriver::Gesvdp] {
                for full in [false, true] {
                    for uv in [true, false] {
                        let p = SvdParams::default()
                            .full_matrices(full)
                            .compute_uv(uv)
                            .driver(driver)
                            .hermitian(false);
                        check_svd(
                            &a,
                            p,
                            &format!("{dt} {shape:?} {driver:?} full={full} uv={uv}"),
                        );
                    }
                }
            }
            // Values alone agree with the values of the full SVD.
            let s1 = svd(&a, SvdParams::default().compute_uv(false)).unwrap();
            let s2 = svd(&a, SvdParams::default()).unwrap();
            assert_close(&host(&s1.s), &host(&s2.s), tol(dt, 6), "values only");
        }
    }
    // Non-contiguous input and an empty matrix.
    let a = random(&mut rng, &[7, 5], DType::Float64).T();
    check_svd(&a, SvdParams::default(), "transposed");
    let e = svd(
        &Array::zeros([3, 0], DType::Float32).unwrap(),
        SvdParams::default(),
    )
    .unwrap();
    assert_eq!(e.s.shape(), &[0]);
    assert_eq!(e.u.unwrap().shape(), &[3, 3]);
}

/// The reduced and complete QR of the stack `a` (`(b, m, n)`): the
/// shapes, `Q R = A` and `Q^H Q = I` within `t`, and `R` exactly zero
/// below the diagonal.
fn check_qr_factors(a: &Array, t: f64) {
    let dt = a.dtype();
    let shape = a.shape();
    let (b, m, n) = (shape[0], shape[1], shape[2]);
    let k = m.min(n);
    for mode in [QrMode::Reduced, QrMode::Complete] {
        let QrResult::QR { q, r } = qr(a, mode).unwrap() else {
            panic!("QR expected")
        };
        let qc = if mode == QrMode::Complete { m } else { k };
        assert_eq!(q.shape(), &[b, m, qc]);
        assert_eq!(r.shape(), &[b, qc, n]);
        let (hq, hr) = (host(&q), host(&r));
        let what = format!("{dt} {shape:?} {mode:?}");
        assert_close(
            &host_matmul(&hq, &hr, b, m, qc, n),
            &host(a),
            t,
            &format!("{what} Q R"),
        );
        let qhq = host_matmul(&host_ct(&hq, b, m, qc), &hq, b, qc, m, qc);
        assert_close(&qhq, &host_eye(b, qc), t, &format!("{what} Q^H Q"));
        for p in 0..b {
            for i in 0..qc {
                for j in 0..i.min(n) {
                    assert_eq!(hr[p * qc * n + i * n + j], C::new(0.0, 0.0), "{what} R");
                }
            }
        }
    }
}

#[test]
fn qr_every_mode() {
    if !dev() {
        return;
    }
    let mut rng = Rng(6);
    for dt in DTYPES {
        for shape in [[2usize, 6, 4], [2, 4, 6], [1, 5, 5]] {
            let a = random(&mut rng, &shape, dt);
            let (m, n) = (shape[1], shape[2]);
            let k = m.min(n);
            let t = tol(dt, m.max(n));
            check_qr_factors(&a, t);
            let QrResult::R(r) = qr(&a, QrMode::R).unwrap() else {
                panic!("R expected")
            };
            let QrResult::QR { r: r2, .. } = qr(&a, QrMode::Reduced).unwrap() else {
                panic!()
            };
            assert_close(&host(&r), &host(&r2), 0.0, "mode r");
            let QrResult::Raw { h, tau } = qr(&a, QrMode::Raw).unwrap() else {
                panic!("raw expected")
            };
            assert_eq!(h.shape(), &[shape[0], n, m]);
            assert_eq!(tau.shape(), &[shape[0], k]);
            // The upper triangle of h^T is R.
            let ht = gpu_array::creation::triu(&h.swapaxes(-1, -2).unwrap(), 0).unwrap();
            let rows = ht
                .slice(&[
                    gpu_array::AxisIndex::Ellipsis,
                    gpu_array::AxisIndex::Slice {
                        start: None,
                        stop: Some(k as isize),
                        step: 1,
                    },
                    gpu_array::AxisIndex::FULL,
                ])
                .unwrap();
            assert_close(&host(&rows), &host(&r2), 0.0, "raw h");
        }
    }
}

#[test]
fn lstsq_pinv_rank() {
    if !dev() {
        return;
    }
    let mut rng = Rng(7);
    for dt in DTYPES {
        let t = tol(dt, 8);
        // Overdetermined, consistent: the residual is ~0 and x exact.
        let a = random(&mut rng, &[8, 3], dt);
        let x0 = random(&mut rng, &[3, 2], dt);
        let b = matmul(&a, &x0).unwrap();
        let r = lstsq(&a, &b, None).unwrap();
        assert_eq!(r.rank, 3);
        assert_close(&host(&r.x), &host(&x0), t * 10.0, &format!("{dt} lstsq x"));
        assert_eq!(r.residuals.shape(), &[2]);
        assert!(
            host(&r.residuals).iter().all(|z| z.re < t * 100.0),
            "{dt} residuals"
        );
        // Inconsistent 1-D b: the residual is |b - A x|^2 and A^H (b - A x) = 0.
        let bv = random(&mut rng, &[8], dt);
        let r = lstsq(&a, &bv, None).unwrap();
        assert_eq!(r.x.shape(), &[3]);
        assert_eq!(r.residuals.shape(), &[1]);
        let ax = host_matmul(&host(&a), &host(&r.x), 1, 8, 3, 1);
        let resid: Vec<C> = host(&bv).iter().zip(&ax).map(|(p, q)| p - q).collect();
        let normal = host_matmul(&host_ct(&host(&a), 1, 8, 3), &resid, 1, 3, 8, 1);
        assert_close(
            &normal,
            &[C::new(0.0, 0.0); 3],
            t * 10.0,
            "normal equations",
        );
        let rr: f64 = resid.iter().map(|z| z.norm_sqr()).sum();
        assert!((host(&r.residuals)[0].re - rr).abs() < t * 100.0 * (1.0 + rr));
        // pinv: A pinv(A) A = A, batched, wide and tall.
        for shape in [[2usize, 5, 3], [2, 3, 5]] {
            let a = random(&mut rng, &shape, dt);
            let p = pinv(&a, Default::default()).unwrap();
            assert_eq!(p.shape(), &[2, shape[2], shape[1]]);
            let apa = matmul(&matmul(&a, &p).unwrap(), &a).unwrap();
            assert_close(&host(&apa), &host(&a), t * 10.0, &format!("{dt} A A+ A"));
        }
        // Rank of a product of 6x2 and 2x5 is 2.
        let l = random(&mut rng, &[3, 6, 2], dt);
        let rgt = random(&mut rng, &[3, 2, 5], dt);
        let low = matmul(&l, &rgt).unwrap();
        assert_eq!(
            matrix_rank(&low, Default::default())
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            vec![2; 3]
        );
        let full = random(&mut rng, &[4, 4], dt);
        assert_eq!(
            matrix_rank(&full, Default::default())
                .unwrap()
                .to_vec::<i64>()
                .unwrap(),
            vec![4]
        );
    }
    let z = Array::zeros([4], DType::Float32).unwrap();
    assert_eq!(
        matrix_rank(&z, Default::default())
            .unwrap()
            .to_vec::<i64>()
            .unwrap(),
        vec![0]
    );
}

#[test]
fn norms() {
    if !dev() {
        return;
    }
    let mut rng = Rng(8);
    let dt = DType::Complex128;
    let x = random(&mut rng, &[3, 4], dt);
    let hx = host(&x);
    let abs: Vec<f64> = hx.iter().map(|z| z.norm()).collect();
    let one = |v: f64| vec![C::new(v, 0.0)];
    let fro = abs.iter().map(|a| a * a).sum::<f64>().sqrt();
    let r = |o, ax| host(&norm_with(&x, o, ax, false).unwrap());
    assert_close(
        &r(Norm::Default, NormAxis::All),
        &one(fro),
        1e-14,
        "fro default",
    );
    assert_close(&r(Norm::Fro, NormAxis::All), &one(fro), 1e-14, "fro");
    let colsum = |j: usize| (0..3).map(|i| abs[i * 4 + j]).sum::<f64>();
    let rowsum = |i: usize| (0..4).map(|j| abs[i * 4 + j]).sum::<f64>();
    let max = |v: Vec<f64>| v.into_iter().fold(f64::MIN, f64::max);
    let min = |v: Vec<f64>| v.into_iter().fold(f64::MAX, f64::min);
    assert_close(
        &r(Norm::P(1.0), NormAxis::All),
        &one(max((0..4).map(colsum).collect())),
        1e-14,
        "1",
    );
    assert_close(
        &r(Norm::P(-1.0), NormAxis::All),
        &one(min((0..4).map(colsum).collect())),
        1e-14,
        "-1",
    );
    assert_close(
        &r(Norm::Inf, NormAxis::All),
        &one(max((0..3).map(rowsum).collect())),
        1e-14,
        "inf",
    );
    assert_close(
        &r(Norm::NegInf, NormAxis::All),
        &one(min((0..3).map(rowsum).collect())),
        1e-14,
        "-inf",
    );
    let s = host(&svd(&x, SvdParams::default().compute_uv(false)).unwrap().s);
    assert_close(&r(Norm::P(2.0), NormAxis::All), &[s[0]], 1e-13, "2");
    assert_close(&r(Norm::P(-2.0), NormAxis::All), &[s[2]], 1e-13, "-2");
    let nuc: C = s.iter().sum();
    assert_close(&r(Norm::Nuc, NormAxis::All), &[nuc], 1e-13, "nuc");
    // Transposed axes give the transposed norms.
    assert_close(
        &r(Norm::P(1.0), NormAxis::Two(1, 0)),
        &one(max((0..3).map(rowsum).collect())),
        1e-14,
        "1 over (1, 0)",
    );
    // Vector norms along an axis.
    let p3: Vec<C> = (0..3)
        .map(|i| {
            C::new(
                (0..4).map(|j| abs[i * 4 + j].powi(3)).sum::<f64>().cbrt(),
                0.0,
            )
        })
        .collect();
    assert_close(&r(Norm::P(3.0), NormAxis::One(1)), &p3, 1e-14, "p=3");
    let l0: Vec<C> = (0..4).map(|_| C::new(3.0, 0.0)).collect();
    assert_close(&r(Norm::P(0.0), NormAxis::One(0)), &l0, 0.0, "p=0");
    let v = norm_with(&x, Norm::Default, NormAxis::One(0), true).unwrap();
    assert_eq!(v.shape(), &[1, 4]);
    assert_eq!(v.dtype(), DType::Float64);
    let k = norm_with(&x, Norm::Default, NormAxis::All, true).unwrap();
    assert_eq!(k.shape(), &[1, 1]);
    assert!(norm_with(&x, Norm::P(3.0), NormAxis::All, false).is_err());
    // NumPy 2's vector_norm over several axes, matrix_norm, svdvals, cond.
    let y = random(&mut rng, &[2, 3, 4], DType::Float32);
    let hy = host(&y);
    let got = gpu_linalg::vector_norm(&y, Norm::P(1.0), Some(&[0, 2]), true).unwrap();
    assert_eq!(got.shape(), &[1, 3, 1]);
    let want: Vec<C> = (0..3)
        .map(|j| {
            let s: f64 = (0..2)
                .flat_map(|p| (0..4).map(move |k| (p, k)))
                .map(|(p, k)| hy[p * 12 + j * 4 + k].norm())
                .sum();
            C::new(s, 0.0)
        })
        .collect();
    assert_close(&host(&got), &want, 1e-6, "vector_norm axes (0, 2)");
    let all = gpu_linalg::vector_norm(&y, Norm::Default, None, false).unwrap();
    let fro_y = hy.iter().map(|z| z.norm_sqr()).sum::<f64>().sqrt();
    assert_close(&host(&all), &one(fro_y), 1e-6, "vector_norm all");
    assert!(gpu_linalg::vector_norm(&y, Norm::Fro, None, false).is_err());
    let mn = gpu_linalg::matrix_norm(&y, Norm::Default, false).unwrap();
    assert_eq!(mn.shape(), &[2]);
    let sv = gpu_linalg::svdvals(&x).unwrap();
    assert_close(&host(&sv), &s, 1e-13, "svdvals");
    let c2 = host(&gpu_linalg::cond(&x, Norm::Default).unwrap());
    assert_close(&c2, &[s[0] / s[2]], 1e-12, "cond 2");
    let sq = random(&mut rng, &[4, 4], DType::Float64);
    let c1 = gpu_linalg::cond(&sq, Norm::P(1.0)).unwrap();
    let inv_sq = inv(&sq).unwrap();
    let want = host(&norm_with(&sq, Norm::P(1.0), NormAxis::All, false).unwrap())[0]
        * host(&norm_with(&inv_sq, Norm::P(1.0), NormAxis::All, false).unwrap())[0];
    assert_close(&host(&c1), &[want], 1e-12, "cond 1");
    let i = Array::from_slice(&[3i32, 4], &[2]).unwrap();
    assert_eq!(
        norm_with(&i, Norm::Default, NormAxis::All, false)
            .unwrap()
            .to_vec::<f64>()
            .unwrap(),
        vec![5.0]
    );
}

#[test]
fn tensorsolve_tensorinv() {
    if !dev() {
        return;
    }
    let mut rng = Rng(9);
    let dt = DType::Float64;
    let a = well_conditioned(&mut rng, &[], 6, dt)
        .reshape([6, 2, 3])
        .unwrap();
    let b = random(&mut rng, &[6], dt);
    let x = tensorsolve(&a, &b, None).unwrap();
    assert_eq!(x.shape(), &[2, 3]);
    let back = gpu_linalg::tensordot(&a, &x, gpu_linalg::Axes::N(2)).unwrap();
    assert_close(&host(&back), &host(&b), 1e-12, "tensorsolve");
    let t = well_conditioned(&mut rng, &[], 6, dt)
        .reshape([2, 3, 6])
        .unwrap();
    let ti = tensorinv(&t, 2).unwrap();
    assert_eq!(ti.shape(), &[6, 2, 3]);
    let id = gpu_linalg::tensordot(&ti, &t, gpu_linalg::Axes::N(2)).unwrap();
    assert_close(&host(&id), &host_eye(1, 6), 1e-12, "tensorinv");
}

#[test]
fn scipy_triangular_lu_and_special() {
    if !dev() {
        return;
    }
    let mut rng = Rng(10);
    for dt in DTYPES {
        let n = 6;
        let t = tol(dt, n) * 10.0;
        let a = well_conditioned(&mut rng, &[], n, dt);
        let b = random(&mut rng, &[n, 3], dt);
        for lower in [true, false] {
            let tri = if lower {
                gpu_array::creation::tril(&a, 0).unwrap()
            } else {
                gpu_array::creation::triu(&a, 0).unwrap()
            };
            let ht = host(&tri);
            for trans in [Trans::N, Trans::T, Trans::C] {
                // The other triangle of `a` must be ignored.
                let x = scipy::solve_triangular(&a, &b, trans, lower, false).unwrap();
                let op = match trans {
                    Trans::N => ht.clone(),
                    Trans::T => host_ct(&ht, 1, n, n).iter().map(|z| z.conj()).collect(),
                    Trans::C => host_ct(&ht, 1, n, n),
                };
                let got = host_matmul(&op, &host(&x), 1, n, n, 3);
                assert_close(
                    &got,
                    &host(&b),
                    t,
                    &format!("{dt} trsm lower={lower} {trans:?}"),
                );
            }
        }
        let (lu, piv) = scipy::lu_factor(&a).unwrap();
        assert_eq!(piv.dtype(), DType::Int32);
        for trans in [Trans::N, Trans::T, Trans::C] {
            let x = scipy::lu_solve(&lu, &piv, &b, trans).unwrap();
            let ha = host(&a);
            let op = match trans {
                Trans::N => ha.clone(),
                Trans::T => host_ct(&ha, 1, n, n).iter().map(|z| z.conj()).collect(),
                Trans::C => host_ct(&ha, 1, n, n),
            };
            let got = host_matmul(&op, &host(&x), 1, n, n, 3);
            assert_close(&got, &host(&b), t, &format!("{dt} lu_solve {trans:?}"));
        }
        for shape in [[5usize, 3], [3, 5]] {
            let m = random(&mut rng, &shape, dt);
            let (p, l, u) = scipy::lu(&m).unwrap();
            let k = shape[0].min(shape[1]);
            let plu = host_matmul(
                &host(&p),
                &host_matmul(&host(&l), &host(&u), 1, shape[0], k, shape[1]),
                1,
                shape[0],
                shape[0],
                shape[1],
            );
            assert_close(&plu, &host(&m), t, &format!("{dt} P L U"));
        }
    }
    // Special matrices against their definitions.
    let c = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3]).unwrap();
    let r = Array::from_slice(&[9.0f64, 4.0, 5.0, 6.0], &[4]).unwrap();
    let want_t = [1.0, 4.0, 5.0, 6.0, 2.0, 1.0, 4.0, 5.0, 3.0, 2.0, 1.0, 4.0];
    assert_eq!(
        scipy::toeplitz(&c, Some(&r))
            .unwrap()
            .to_vec::<f64>()
            .unwrap(),
        want_t
    );
    let want_h = [1.0, 2.0, 3.0, 4.0, 2.0, 3.0, 4.0, 5.0, 3.0, 4.0, 5.0, 6.0];
    assert_eq!(
        scipy::hankel(&c, Some(&r))
            .unwrap()
            .to_vec::<f64>()
            .unwrap(),
        want_h
    );
    let want_c = [1.0, 3.0, 2.0, 2.0, 1.0, 3.0, 3.0, 2.0, 1.0];
    assert_eq!(
        scipy::circulant(&c).unwrap().to_vec::<f64>().unwrap(),
        want_c
    );
    let comp = scipy::companion(&Array::from_slice(&[2.0f64, -4.0, 6.0], &[3]).unwrap()).unwrap();
    assert_eq!(comp.to_vec::<f64>().unwrap(), vec![2.0, -3.0, 1.0, 0.0]);
    let bd = scipy::block_diag(&[
        &Array::from_slice(&[1i64, 2], &[1, 2]).unwrap(),
        &Array::from_slice(&[3i64], &[]).unwrap(),
    ])
    .unwrap();
    assert_eq!(bd.to_vec::<i64>().unwrap(), vec![1, 2, 0, 0, 0, 3]);
    let h = scipy::hadamard(4, None).unwrap();
    let hh = host(&h);
    assert_close(
        &host_matmul(&hh, &hh, 1, 4, 4, 4),
        &host_eye(1, 4).iter().map(|z| z * 4.0).collect::<Vec<_>>(),
        0.0,
        "hadamard",
    );
    let hm = scipy::helmert(5, false).unwrap();
    let hm_h = host(&hm);
    assert_close(
        &host_matmul(&hm_h, &host_ct(&hm_h, 1, 4, 5), 1, 4, 5, 4),
        &host_eye(1, 4),
        1e-14,
        "helmert",
    );
    let d = host(&scipy::dft(4, Some("sqrtn")).unwrap());
    assert_close(
        &host_matmul(&d, &host_ct(&d, 1, 4, 4), 1, 4, 4, 4),
        &host_eye(1, 4),
        1e-14,
        "dft",
    );
    assert_eq!(
        scipy::hilbert(2).unwrap().to_vec::<f64>().unwrap(),
        vec![1.0, 0.5, 0.5, 1.0 / 3.0]
    );
    let f = Array::from_slice(&[0.1f64, 2.0, 1.0, 0.1], &[4]).unwrap();
    let sv = Array::from_slice(&[0.2f64, 0.8, 0.7], &[3]).unwrap();
    assert_eq!(
        scipy::leslie(&f, &sv).unwrap().to_vec::<f64>().unwrap(),
        vec![
            0.1, 2.0, 1.0, 0.1, 0.2, 0.0, 0.0, 0.0, 0.0, 0.8, 0.0, 0.0, 0.0, 0.0, 0.7, 0.0
        ]
    );
    let fa = Array::from_slice(&[1.0f64, 4.0, 12.0], &[3]).unwrap();
    assert_eq!(
        scipy::fiedler(&fa).unwrap().to_vec::<f64>().unwrap(),
        vec![0.0, 3.0, 11.0, 3.0, 0.0, 8.0, 11.0, 8.0, 0.0]
    );
    // Both companion matrices of (x-1)(x-2)(x-3)(x-4)(x-5) have the roots
    // as eigenvalues.
    let poly = Array::from_slice(&[2.0f64, -30.0, 170.0, -450.0, 548.0, -240.0], &[6]).unwrap();
    for m in [
        scipy::companion(&poly).unwrap(),
        scipy::fiedler_companion(&poly).unwrap(),
    ] {
        assert_eq!(m.shape(), &[5, 5]);
        let mut w = host(&eigvals(&m).unwrap());
        w.sort_by(|x, y| x.re.total_cmp(&y.re));
        let roots: Vec<C> = (1..=5).map(|r| C::new(r as f64, 0.0)).collect();
        assert_close(&w, &roots, 1e-8, "companion roots");
    }
    let fc =
        scipy::fiedler_companion(&Array::from_slice(&[1.0f64, 2.0, 3.0], &[3]).unwrap()).unwrap();
    assert_eq!(fc.to_vec::<f64>().unwrap(), vec![-2.0, -3.0, 1.0, 0.0]);
    // convolution_matrix(a, n) @ v is numpy.convolve(a, v, mode):
    // full [0.5, 0, -1.5, 7, -3, -2, 12], same [0, -1.5, 7, -3, -2],
    // valid [-1.5, 7, -3].
    let full = [0.5f64, 0.0, -1.5, 7.0, -3.0, -2.0, 12.0];
    let ad = Array::from_slice(&[1.0f64, -2.0, 3.0], &[3]).unwrap();
    let vd = Array::from_slice(&[0.5f64, 1.0, -1.0, 2.0, 4.0], &[5]).unwrap();
    for (mode, lo, hi) in [
        (scipy::ConvMode::Full, 0, 7),
        (scipy::ConvMode::Same, 1, 6),
        (scipy::ConvMode::Valid, 2, 5),
    ] {
        let cm = scipy::convolution_matrix(&ad, 5, mode).unwrap();
        let got = matmul(&cm, &vd).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(got, full[lo..hi].to_vec(), "{mode:?}");
    }
}

#[test]
fn eig_general_matrices() {
    if !dev() {
        return;
    }
    let mut rng = Rng(11);
    let n = 7;
    for dt in DTYPES {
        let a = random(&mut rng, &[2, n, n], dt);
        let (w, v) = eig(&a).unwrap();
        let cdt = dt.complex_dtype().unwrap();
        assert_eq!(w.dtype(), cdt);
        assert_eq!(w.shape(), &[2, n]);
        assert_eq!(v.shape(), &[2, n, n]);
        let (hw, hv) = (host(&w), host(&v));
        let av = host_matmul(&host(&a), &hv, 2, n, n, n);
        let mut vw = hv.clone();
        for p in 0..2 {
            for i in 0..n {
                for j in 0..n {
                    vw[p * n * n + i * n + j] *= hw[p * n + j];
                }
            }
        }
        assert_close(&av, &vw, tol(dt, n) * 10.0, &format!("{dt} A V = V W"));
        // Unit-norm columns.
        for p in 0..2 {
            for j in 0..n {
                let s: f64 = (0..n).map(|i| hv[p * n * n + i * n + j].norm_sqr()).sum();
                assert!((s - 1.0).abs() < tol(dt, n) * 10.0, "{dt}: column norm {s}");
            }
        }
        assert_close(
            &host(&eigvals(&a).unwrap()),
            &hw,
            tol(dt, n) * 10.0,
            &format!("{dt} eigvals"),
        );
    }
    // A rotation has eigenvalues +-i.
    let r = Array::from_slice(&[0.0f64, -1.0, 1.0, 0.0], &[2, 2]).unwrap();
    let mut w = host(&eigvals(&r).unwrap());
    w.sort_by(|x, y| x.im.total_cmp(&y.im));
    assert_close(
        &w,
        &[C::new(0.0, -1.0), C::new(0.0, 1.0)],
        1e-14,
        "rotation",
    );
}

/// `P L U` of each matrix of a stack from SciPy's `(lu, piv)` (0-based
/// row interchanges), on the host.
fn host_plu(lu: &[C], piv: &[i32], batch: usize, m: usize, n: usize) -> Vec<C> {
    let k = m.min(n);
    let mut out = vec![C::new(0.0, 0.0); batch * m * n];
    for p in 0..batch {
        let f = &lu[p * m * n..(p + 1) * m * n];
        // L U, then the interchanges undone from the last to the first.
        let mut a = vec![C::new(0.0, 0.0); m * n];
        for i in 0..m {
            for j in 0..n {
                let mut s = C::new(0.0, 0.0);
                for l in 0..k.min(i + 1).min(j + 1) {
                    let lv = if l == i {
                        C::new(1.0, 0.0)
                    } else {
                        f[i * n + l]
                    };
                    s += lv * f[l * n + j];
                }
                a[i * n + j] = s;
            }
        }
        for i in (0..k).rev() {
            let r = piv[p * k + i] as usize;
            for j in 0..n {
                a.swap(i * n + j, r * n + j);
            }
        }
        out[p * m * n..(p + 1) * m * n].copy_from_slice(&a);
    }
    out
}

/// Stacks of small matrices take one launch: `geqrfBatched` plus the
/// crate's `orgqr` kernel for tall and square QR (wide ones the kernel
/// after per-matrix `geqrf`), `getrfBatched`/`getrsBatched` for SciPy's
/// `lu_factor`/`lu_solve`; checked by `Q R = A`, `Q^H Q = I`, triangular
/// `R`, `P L U = A`, `op(A) x = b`, and against the one-matrix paths.
#[test]
fn batched_qr_and_lu_small_stacks() {
    if !dev() {
        return;
    }
    let mut rng = Rng(11);
    for dt in DTYPES {
        for shape in [[5usize, 8, 6], [3, 6, 6], [4, 3, 7], [2, 32, 5], [3, 1, 1]] {
            let (b, m, n) = (shape[0], shape[1], shape[2]);
            let k = m.min(n);
            let a = random(&mut rng, &shape, dt);
            let t = tol(dt, m.max(n));
            check_qr_factors(&a, t);
            // R^H R = A^H A whatever the rows' phases: the stack agrees
            // with the one-matrix path.
            let QrResult::R(r) = qr(&a, QrMode::R).unwrap() else {
                panic!("R expected")
            };
            let hr = host(&r);
            let rhr = host_matmul(&host_ct(&hr, b, k, n), &hr, b, n, k, n);
            for p in 0..b {
                let one = a.slice(&[gpu_array::AxisIndex::Index(p as isize)]).unwrap();
                let QrResult::R(r1) = qr(&one, QrMode::R).unwrap() else {
                    panic!("R expected")
                };
                let h1 = host(&r1);
                let want = host_matmul(&host_ct(&h1, 1, k, n), &h1, 1, n, k, n);
                assert_close(
                    &rhr[p * n * n..(p + 1) * n * n],
                    &want,
                    t * 4.0,
                    &format!("{dt} {shape:?} R^H R of matrix {p}"),
                );
            }
        }
        // SciPy's LU over stacks: small square (batched), larger square and
        // rectangular (one call each).
        for shape in [[6usize, 5, 5], [2, 40, 40], [3, 4, 6], [2, 6, 4]] {
            let (b, m, n) = (shape[0], shape[1], shape[2]);
            let a = if m == n {
                well_conditioned(&mut rng, &[b], n, dt)
            } else {
                random(&mut rng, &shape, dt)
            };
            let (lu, piv) = scipy::lu_factor(&a).unwrap();
            assert_eq!(lu.shape(), &shape);
            assert_eq!(piv.shape(), &[b, m.min(n)]);
            assert_eq!(piv.dtype(), DType::Int32);
            let hp: Vec<i32> = piv.to_vec().unwrap();
            assert!(
                hp.iter().all(|&p| p >= 0 && (p as usize) < m),
                "{dt} pivots"
            );
            let plu = host_plu(&host(&lu), &hp, b, m, n);
            let t = tol(dt, m.max(n)) * 10.0;
            assert_close(&plu, &host(&a), t, &format!("{dt} {shape:?} P L U"));
            if m != n {
                continue;
            }
            let ha = host(&a);
            for trans in [Trans::N, Trans::T, Trans::C] {
                let op: Vec<C> = match trans {
                    Trans::N => ha.clone(),
                    Trans::T => host_ct(&ha, b, n, n).iter().map(|z| z.conj()).collect(),
                    Trans::C => host_ct(&ha, b, n, n),
                };
                // A stack of matrices and a stack of vectors.
                let rhs = random(&mut rng, &[b, n, 2], dt);
                let x = scipy::lu_solve(&lu, &piv, &rhs, trans).unwrap();
                assert_eq!(x.shape(), &[b, n, 2]);
                let got = host_matmul(&op, &host(&x), b, n, n, 2);
                assert_close(&got, &host(&rhs), t, &format!("{dt} {shape:?} {trans:?}"));
                let v = random(&mut rng, &[b, n], dt);
                let xv = scipy::lu_solve(&lu, &piv, &v, trans).unwrap();
                assert_eq!(xv.shape(), &[b, n]);
                let got = host_matmul(&op, &host(&xv), b, n, n, 1);
                assert_close(&got, &host(&v), t, &format!("{dt} {shape:?} {trans:?} vec"));
            }
            // One right-hand side broadcast over the stack.
            let one = random(&mut rng, &[1, n, 1], dt);
            let x = scipy::lu_solve(&lu, &piv, &one, Trans::N).unwrap();
            assert_eq!(x.shape(), &[b, n, 1]);
            let rep: Vec<C> = (0..b).flat_map(|_| host(&one)).collect();
            let got = host_matmul(&ha, &host(&x), b, n, n, 1);
            assert_close(&got, &rep, t, &format!("{dt} {shape:?} broadcast b"));
        }
    }
    // Bad shapes are errors, not panics.
    let a = random(&mut rng, &[2, 3, 3], DType::Float64);
    let (lu, piv) = scipy::lu_factor(&a).unwrap();
    let bad = random(&mut rng, &[2, 4], DType::Float64);
    assert!(scipy::lu_solve(&lu, &piv, &bad, Trans::N).is_err());
    assert!(
        scipy::lu_solve(
            &lu,
            &piv.slice(&[gpu_array::AxisIndex::Index(0)]).unwrap(),
            &bad,
            Trans::N
        )
        .is_err()
    );
    assert!(scipy::lu_factor(&random(&mut rng, &[3], DType::Float64)).is_err());
}

/// NumPy 2's keywords and additions beyond the golden values: `upper`
/// is `L^H`, `hermitian` paths agree with the general ones, the errors
/// NumPy raises (both cutoffs set, non-vectors for `linalg.outer`, not
/// 3-vectors for `linalg.cross`, bad `polyfit` and `roots` input), the
/// facade's `Poly1dExt`, and gpu-array's stubs naming gpu-linalg.
#[test]
fn numpy2_keywords_roots_polyfit_errors() {
    if !dev() {
        return;
    }
    use gpu_linalg::{PinvParams, Poly1dExt, PolyfitOptions, RankParams, array_api};
    let mut rng = Rng(12);
    for dt in DTYPES {
        let (a, _) = hpd(&mut rng, 3, 5, dt);
        let l = host(&cholesky(&a, false).unwrap());
        let u = host(&cholesky(&a, true).unwrap());
        assert_close(
            &u,
            &host_ct(&l, 3, 5, 5),
            tol(dt, 5),
            &format!("{dt} U = L^H"),
        );
        // Hermitian SVD values equal the general ones, for an indefinite
        // Q diag(d) Q^H with eigenvalues well away from zero.
        let QrResult::QR { q, .. } = qr(&random(&mut rng, &[5, 5], dt), QrMode::Reduced).unwrap()
        else {
            panic!("QR expected")
        };
        let d = Array::from_slice(&[3.0f64, -2.0, 1.5, -4.0, 2.5], &[5])
            .unwrap()
            .astype(dt.real_dtype())
            .unwrap();
        let qd = gpu_array::ufunc::multiply(&q, &d).unwrap();
        let qh = gpu_array::ufunc::conj(q.swapaxes(-1, -2).unwrap()).unwrap();
        let h = matmul(&qd, &qh).unwrap();
        // Exactly Hermitian: the mean of h and h^H.
        let hh = gpu_array::ufunc::conj(h.swapaxes(-1, -2).unwrap()).unwrap();
        let h = gpu_array::ufunc::multiply(gpu_array::ufunc::add(&h, &hh).unwrap(), 0.5).unwrap();
        let s1 = svd(&h, SvdParams::default().compute_uv(false).hermitian(true))
            .unwrap()
            .s;
        let s2 = gpu_linalg::svdvals(&h).unwrap();
        assert_close(
            &host(&s1),
            &host(&s2),
            tol(dt, 5),
            &format!("{dt} hermitian s"),
        );
        let p1 = pinv(&h, PinvParams::default().hermitian(true)).unwrap();
        let p2 = pinv(&h, PinvParams::default()).unwrap();
        assert_close(
            &host(&p1),
            &host(&p2),
            tol(dt, 5) * 10.0,
            &format!("{dt} pinvh"),
        );
    }
    let a = random(&mut rng, &[4, 4], DType::Float64);
    let msg = |r: gpu_linalg::Result<Array>| r.unwrap_err().to_string();
    assert_eq!(
        msg(pinv(
            &a,
            PinvParams::default().rcond(0.1).rtol(None).hermitian(false)
        )),
        "`rtol` and `rcond` can't be both set."
    );
    assert_eq!(
        msg(matrix_rank(
            &a,
            RankParams::default().tol(0.1).rtol(0.1).hermitian(false)
        )),
        "`tol` and `rtol` can't be both set."
    );
    let rect = random(&mut rng, &[3, 4], DType::Float64);
    assert!(svd(&rect, SvdParams::default().hermitian(true)).is_err());
    let v3 = random(&mut rng, &[3], DType::Float64);
    assert_eq!(
        msg(array_api::outer(&a, &v3)),
        "Input arrays must be one-dimensional, but they are x1.ndim=2 and x2.ndim=1."
    );
    let v2 = random(&mut rng, &[2], DType::Float64);
    assert_eq!(
        msg(array_api::cross(&v2, &v2, -1)),
        "Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 2 dimensional instead."
    );
    assert_eq!(array_api::diagonal(&a, 1).unwrap().shape(), &[3]);
    // roots and polyfit: NumPy's errors, poly1d's roots.
    assert_eq!(msg(gpu_linalg::roots(&a)), "Input must be a rank-1 array.");
    let c = Array::from_slice(&[0.0f64, 1.0, -3.0, 2.0, 0.0], &[5]).unwrap();
    let p = gpu_array::polynomial::Poly1d::new(&c).unwrap();
    let r = host(&p.roots().unwrap());
    assert_eq!(r.len(), 3);
    let mut re: Vec<f64> = r.iter().map(|z| z.re).collect();
    re.sort_by(f64::total_cmp);
    for (g, w) in re.iter().zip([0.0, 1.0, 2.0]) {
        assert!((g - w).abs() < 1e-12, "poly1d roots {re:?}");
    }
    let x = random(&mut rng, &[6], DType::Float64);
    let opts = PolyfitOptions::default();
    let tmsg = |r: gpu_linalg::Result<gpu_linalg::Polyfit>| r.unwrap_err().to_string();
    assert_eq!(
        tmsg(gpu_linalg::polyfit(&a, &x, 1, &opts)),
        "expected 1D vector for x"
    );
    assert_eq!(
        tmsg(gpu_linalg::polyfit(&x, &v3, 1, &opts)),
        "expected x and y to have same length"
    );
    let e = Array::from_slice::<f64>(&[], &[0]).unwrap();
    assert_eq!(
        tmsg(gpu_linalg::polyfit(&e, &e, 1, &opts)),
        "expected non-empty vector for x"
    );
    let w = PolyfitOptions::default().w(&v3);
    assert_eq!(
        tmsg(gpu_linalg::polyfit(&x, &x, 1, &w)),
        "expected w and y to have the same length"
    );
    let cov = PolyfitOptions::default().cov(gpu_linalg::PolyCov::Scaled);
    assert!(tmsg(gpu_linalg::polyfit(&x, &x, 5, &cov)).contains("must exceed order"));
    // An exact fit: y = 2 x^2 - 1.
    let y = gpu_array::ufunc::subtract(
        gpu_array::ufunc::multiply(gpu_array::ufunc::square(&x).unwrap(), 2.0).unwrap(),
        1.0,
    )
    .unwrap();
    let fit = gpu_linalg::polyfit(&x, &y, 2, &opts).unwrap();
    assert_close(
        &host(&fit.p),
        &[C::new(2.0, 0.0), C::new(0.0, 0.0), C::new(-1.0, 0.0)],
        1e-10,
        "exact fit",
    );
}

/// The context current on this thread, as the driver sees it.
fn driver_current_context() -> usize {
    let mut ctx = std::ptr::null_mut();
    // SAFETY: writes one handle.
    let r = unsafe { gpu_sys::cuda::cuCtxGetCurrent(&mut ctx) }.unwrap();
    assert_eq!(r.0, 0, "cuCtxGetCurrent failed: {r:?}");
    ctx as usize
}

#[test]
fn handle_drops_at_thread_exit_restore_the_context_they_found() {
    if !dev() {
        return;
    }
    use std::cell::RefCell;
    use std::sync::{Arc, Mutex};

    /// Records the current context when the thread's destructors reach it.
    struct ContextAtExit(Arc<Mutex<Option<usize>>>);
    impl Drop for ContextAtExit {
        fn drop(&mut self) {
            *self.0.lock().unwrap() = Some(driver_current_context());
        }
    }
    thread_local! {
        // Test-only, in the spawned thread alone: its destructor runs at that
        // thread's exit and reports the context to the test through `seen`.
        static AT_EXIT: RefCell<Option<ContextAtExit>> = const { RefCell::new(None) };
    }

    let seen = Arc::new(Mutex::new(None));
    let seen_in_thread = seen.clone();
    std::thread::spawn(move || {
        // Everything but the handles first, so that the thread-locals of
        // the array and runtime crates are older than the checker and are
        // destroyed after it; the handles' maps, newer, are destroyed
        // before it (thread-local destructors run newest first).
        let mut rng = Rng(0x5eed_c0de);
        let a = random(&mut rng, &[8, 8], DType::Float64);
        let b = (&a + &a).astype(DType::Int64).unwrap();
        drop(matmul(&b, &b).unwrap());
        AT_EXIT.with(|c| *c.borrow_mut() = Some(ContextAtExit(seen_in_thread)));
        let p = matmul(&a, &a).unwrap(); // cuBLAS
        let i = inv(&eye_plus(&a)).unwrap(); // cuSOLVER
        host(&p);
        host(&i);
        drop((a, b, p, i));
        // Foreign code leaves no context current; the handles' drops
        // must bind their device to destroy them and then put this back.
        // SAFETY: null unbinds.
        let r = unsafe { gpu_sys::cuda::cuCtxSetCurrent(std::ptr::null_mut()) }.unwrap();
        assert_eq!(r.0, 0);
    })
    .join()
    .unwrap();
    assert_eq!(
        *seen.lock().unwrap(),
        Some(0),
        "a handle's drop left its context current"
    );
}

/// `a + 8 I`: well conditioned for `a` uniform in [-1, 1).
fn eye_plus(a: &Array) -> Array {
    let n = a.shape()[0];
    let mut v = vec![0.0; n * n];
    for k in 0..n {
        v[k * n + k] = 8.0;
    }
    let e = Array::from_slice(&v, &[n, n]).unwrap();
    &e + a
}
