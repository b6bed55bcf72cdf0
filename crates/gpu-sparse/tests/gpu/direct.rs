//! Direct solvers and BSR against host references: triangular solves
//! (lower, upper, unit diagonal; 1-D and 2-D right-hand sides; float32,
//! float64, complex128) with the analysis reused, spsolve on a
//! nonsymmetric system, SciPy's errors for singular and misshapen input,
//! spilu as a cg preconditioner, BSR conversions and products.

use gpu_array::{Array, DType, Error};
use gpu_sparse::linalg::{SolveOptions, cg, factorized, spilu, splu, spsolve, spsolve_triangular};
use gpu_sparse::{BsrMatrix, CooMatrix, CsrMatrix, SpMatrix};
use num_complex::Complex64;

use crate::solvers::{host_solve, poisson};
use crate::{Lcg, assert_close, gpu, host_parts};

/// A random `n x n` lower (or upper) triangular matrix with a dominant
/// diagonal, as dense host values and a device CSR matrix. Entries of the
/// other triangle are added too (the solves must ignore them).
fn triangular(n: usize, lower: bool, dtype: DType, seed: u64) -> (Vec<Complex64>, CsrMatrix) {
    let mut g = Lcg(seed);
    let (mut r, mut c, mut v) = (vec![], vec![], vec![]);
    let mut dense = vec![Complex64::new(0.0, 0.0); n * n];
    for i in 0..n {
        for j in 0..n {
            let inside = if lower { j <= i } else { j >= i };
            if i == j || g.below(3) == 0 {
                // Off the diagonal small enough that the unit-diagonal
                // solves stay well conditioned (entries up to 1/8).
                let re = if i == j {
                    8.0 + g.value().abs()
                } else {
                    g.value() / 80.0
                };
                let im = if dtype.is_complex() {
                    g.value() / 80.0
                } else {
                    0.0
                };
                r.push(i);
                c.push(j);
                v.push(Complex64::new(re, im));
                if inside {
                    dense[i * n + j] = Complex64::new(re, im);
                }
            }
        }
    }
    let a = CooMatrix::from_triplets(&r, &c, &v, (n, n))
        .unwrap()
        .astype(dtype)
        .unwrap()
        .tocsr()
        .unwrap();
    (dense, a)
}

fn to_device(v: &[Complex64], shape: &[usize], dtype: DType) -> Array {
    Array::from_slice(v, shape).unwrap().astype(dtype).unwrap()
}

fn parts(v: &[Complex64]) -> (Vec<f64>, Vec<f64>) {
    (
        v.iter().map(|c| c.re).collect(),
        v.iter().map(|c| c.im).collect(),
    )
}

fn check(what: &str, got: &Array, want: &[Complex64], dtype: DType) {
    let (re, im) = host_parts(got);
    let (wr, wi) = parts(want);
    assert_close(&format!("{what} (re)"), &re, &wr, dtype);
    assert_close(&format!("{what} (im)"), &im, &wi, dtype);
}

#[test]
fn triangular_solves_match_the_host() {
    if !gpu() {
        return;
    }
    let n = 40;
    for dtype in [DType::Float32, DType::Float64, DType::Complex128] {
        for lower in [true, false] {
            for unit in [false, true] {
                let (mut dense, a) = triangular(n, lower, dtype, 7 + lower as u64);
                if unit {
                    for i in 0..n {
                        dense[i * n + i] = Complex64::new(1.0, 0.0);
                    }
                }
                let mut g = Lcg(99);
                let b: Vec<Complex64> = (0..n)
                    .map(|_| {
                        Complex64::new(g.value(), if dtype.is_complex() { g.value() } else { 0.0 })
                    })
                    .collect();
                let x = spsolve_triangular(&a, &to_device(&b, &[n], dtype), lower, unit).unwrap();
                assert_eq!(x.dtype(), dtype);
                let want = host_solve(dense.clone(), b.clone(), n);
                check(
                    &format!("spsolve_triangular lower={lower} unit={unit}"),
                    &x,
                    &want,
                    dtype,
                );
                // 2-D: three columns through SpSM.
                let k = 3;
                let bm: Vec<Complex64> = (0..n * k)
                    .map(|i| b[i / k] * (1.0 + (i % k) as f64))
                    .collect();
                let xm =
                    spsolve_triangular(&a, &to_device(&bm, &[n, k], dtype), lower, unit).unwrap();
                assert_eq!(xm.shape(), &[n, k]);
                let wm: Vec<Complex64> = (0..n * k)
                    .map(|i| want[i / k] * (1.0 + (i % k) as f64))
                    .collect();
                check("spsolve_triangular 2-D", &xm, &wm, dtype);
            }
        }
    }
}

#[test]
fn a_repeated_triangular_solve_reuses_the_analysis() {
    if !gpu() {
        return;
    }
    let n = 30;
    let (dense, a) = triangular(n, true, DType::Float64, 3);
    assert_eq!(a.cached_solves(), 0);
    for round in 0..4 {
        let b: Vec<Complex64> = (0..n)
            .map(|i| Complex64::new((i + round) as f64, 0.0))
            .collect();
        let x = spsolve_triangular(&a, &to_device(&b, &[n], DType::Float64), true, false).unwrap();
        check(
            "repeated solve",
            &x,
            &host_solve(dense.clone(), b, n),
            DType::Float64,
        );
        assert_eq!(a.cached_solves(), 1, "one analysis for one key");
    }
    // Another key (the upper triangle) is a second analysis.
    let b = gpu_array::creation::ones(n, DType::Float64).unwrap();
    spsolve_triangular(&a, &b, false, true).unwrap();
    assert_eq!(a.cached_solves(), 2);
}

#[test]
fn triangular_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let rect = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let b = gpu_array::creation::ones(3, DType::Float64).unwrap();
    let e = spsolve_triangular(&rect, &b, true, false).unwrap_err();
    assert!(
        e.to_string().starts_with("A must be a square matrix"),
        "{e}"
    );
    let a = gpu_sparse::identity(3, DType::Float64).unwrap();
    let b4 = gpu_array::creation::ones(4, DType::Float64).unwrap();
    let e = spsolve_triangular(&a, &b4, true, false).unwrap_err();
    assert!(
        e.to_string().starts_with("The size of the dimensions of A"),
        "{e}"
    );
    // A zero on the diagonal (stored explicitly) and a missing one.
    let d = gpu_array::creation::array([[1.0, 0.0], [2.0, 0.0]]).unwrap();
    let z = CsrMatrix::from_dense(&d).unwrap();
    let b2 = gpu_array::creation::ones(2, DType::Float64).unwrap();
    let e = spsolve_triangular(&z, &b2, true, false).unwrap_err();
    assert!(
        matches!(&e, Error::LinAlg(m) if m == "A is singular: zero entry on diagonal."),
        "{e}"
    );
    // With a unit diagonal the zero is not read.
    let x = spsolve_triangular(&z, &b2, true, true).unwrap();
    assert_eq!(x.to_vec::<f64>().unwrap(), vec![1.0, -1.0]);
}

#[test]
fn spsolve_solves_a_nonsymmetric_system() {
    if !gpu() {
        return;
    }
    let n = 36;
    let t = crate::Triplets::random(n, n, 120, 5);
    let mut rows = t.rows.clone();
    let mut cols = t.cols.clone();
    let mut vals = t.vals.clone();
    for i in 0..n {
        rows.push(i);
        cols.push(i);
        vals.push(30.0);
    }
    let a = CooMatrix::from_triplets(&rows, &cols, &vals, (n, n)).unwrap();
    let dense = a.toarray().unwrap().to_vec::<f64>().unwrap();
    let dense_c: Vec<Complex64> = dense.iter().map(|&v| Complex64::new(v, 0.0)).collect();
    let b: Vec<Complex64> = (0..n)
        .map(|i| Complex64::new(i as f64 - 7.0, 0.0))
        .collect();
    let want = host_solve(dense_c.clone(), b.clone(), n);
    for dtype in [DType::Float32, DType::Float64] {
        let x = spsolve(&a.astype(dtype).unwrap(), &to_device(&b, &[n], dtype)).unwrap();
        check("spsolve", &x, &want, dtype);
    }
    // 2-D, column by column, and a reusable solve function.
    let bm: Vec<Complex64> = (0..n * 2).map(|i| b[i / 2] * (1 + i % 2) as f64).collect();
    let xm = spsolve(&a, &to_device(&bm, &[n, 2], DType::Float64)).unwrap();
    let wm: Vec<Complex64> = (0..n * 2)
        .map(|i| want[i / 2] * (1 + i % 2) as f64)
        .collect();
    check("spsolve 2-D", &xm, &wm, DType::Float64);
    let solve = factorized(&a).unwrap();
    for _ in 0..2 {
        check(
            "factorized",
            &solve(&to_device(&b, &[n], DType::Float64)).unwrap(),
            &want,
            DType::Float64,
        );
    }
    // A (n, 1) right-hand side gives a 1-D x, as SciPy's.
    let x1 = spsolve(&a, &to_device(&b, &[n, 1], DType::Float64)).unwrap();
    assert_eq!(x1.shape(), &[n]);
}

#[test]
fn spsolve_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let rect = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let b = gpu_array::creation::ones(3, DType::Float64).unwrap();
    let e = spsolve(&rect, &b).unwrap_err();
    assert_eq!(e.to_string(), "matrix must be square (has shape (3, 4))");
    let a = gpu_sparse::identity(3, DType::Float64).unwrap();
    let e = spsolve(&a, &gpu_array::creation::ones(4, DType::Float64).unwrap()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "matrix - rhs dimension mismatch ((3, 3) - 4)"
    );
    // A zero column: exactly singular.
    let d =
        gpu_array::creation::array([[1.0, 0.0, 2.0], [3.0, 0.0, 1.0], [0.0, 0.0, 1.0]]).unwrap();
    let s = CsrMatrix::from_dense(&d).unwrap();
    let e = spsolve(&s, &b).unwrap_err();
    assert!(matches!(e, Error::Singular { .. }), "{e}");
    assert!(matches!(splu(&a), Err(Error::Unsupported(_))));
    assert!(matches!(
        spilu(&a, Some(1e-4), None),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn spilu_preconditions_cg() {
    if !gpu() {
        return;
    }
    let a = poisson(12, DType::Float64);
    let n = 144;
    let b = gpu_array::creation::ones(n, DType::Float64).unwrap();
    let ilu = spilu(&a, None, None).unwrap();
    // ILU(0) keeps A's pattern.
    assert_eq!(ilu.nnz(), a.nnz());
    let plain = SolveOptions {
        rtol: 1e-8,
        check_every: 1,
        maxiter: Some(40),
        ..SolveOptions::default()
    };
    let with_m = SolveOptions {
        m: Some(&ilu),
        ..plain
    };
    // Iterations needed: the smallest maxiter that converges.
    let iterations = |opts: &SolveOptions<'_>| {
        (1..=400)
            .find(|&k| {
                cg(
                    &a,
                    &b,
                    &SolveOptions {
                        maxiter: Some(k),
                        ..*opts
                    },
                )
                .unwrap()
                .1 == 0
            })
            .unwrap()
    };
    let (k_plain, k_ilu) = (iterations(&plain), iterations(&with_m));
    assert!(
        k_ilu < k_plain,
        "ILU(0) took {k_ilu} iterations, plain cg {k_plain}"
    );
    let (x, info) = cg(
        &a,
        &b,
        &SolveOptions {
            maxiter: Some(400),
            ..with_m
        },
    )
    .unwrap();
    assert_eq!(info, 0);
    let r = a.dot(&x).unwrap().to_vec::<f64>().unwrap();
    assert!(r.iter().all(|v| (v - 1.0).abs() < 1e-6));
    // Two analyses (L and U) cached on the factors, reused by every application.
    assert_eq!(ilu.factors().cached_solves(), 2);
    // L U reproduces A on A's pattern for a tridiagonal matrix (no fill).
    let t = gpu_sparse::diags(
        &[
            &gpu_array::creation::full(5, -1.0, Some(DType::Float64)).unwrap(),
            &gpu_array::creation::full(6, 4.0, Some(DType::Float64)).unwrap(),
            &gpu_array::creation::full(5, -2.0, Some(DType::Float64)).unwrap(),
        ],
        &[-1, 0, 1],
        Some((6, 6)),
        None,
    )
    .unwrap()
    .tocsr()
    .unwrap();
    let f = spilu(&t, None, None).unwrap();
    let lu = f.l().unwrap().matmul_sparse(&f.u().unwrap()).unwrap();
    let (got, want) = (
        lu.toarray().unwrap().to_vec::<f64>().unwrap(),
        t.toarray().unwrap().to_vec::<f64>().unwrap(),
    );
    assert_close("L U", &got, &want, DType::Float64);
}

#[test]
fn bsr_conversions_and_products_match_dense() {
    if !gpu() {
        return;
    }
    for (m, n, blocks) in [
        (6, 8, (2, 2)),
        (6, 9, (3, 3)),
        (4, 6, (2, 3)),
        (5, 5, (1, 1)),
    ] {
        let t = crate::Triplets::random(m, n, 14, 11);
        for dtype in [DType::Float32, DType::Float64, DType::Complex128] {
            let coo = t.coo(dtype);
            let dense = coo.toarray().unwrap();
            let (want_re, want_im) = host_parts(&dense);
            let b = coo.tocsr().unwrap().tobsr(blocks).unwrap();
            assert_eq!(b.format().name(), "bsr");
            assert_eq!(b.blocksize(), blocks);
            assert_eq!(b.nnz(), b.nblocks() * blocks.0 * blocks.1);
            for (what, got) in [
                ("toarray", b.toarray().unwrap()),
                ("tocsr", b.tocsr().unwrap().toarray().unwrap()),
                ("tocoo", b.tocoo().unwrap().toarray().unwrap()),
                ("tocsc", b.tocsc().unwrap().toarray().unwrap()),
                (
                    "from_dense",
                    BsrMatrix::from_dense(&dense, blocks)
                        .unwrap()
                        .toarray()
                        .unwrap(),
                ),
            ] {
                let (re, im) = host_parts(&got);
                assert_close(what, &re, &want_re, dtype);
                assert_close(what, &im, &want_im, dtype);
            }
            // Rebuilt from its own arrays.
            let again =
                BsrMatrix::new(b.data(), b.indices(), b.indptr(), (m, n), Some(blocks)).unwrap();
            let (re, _) = host_parts(&again.toarray().unwrap());
            assert_close("new", &re, &want_re, dtype);
            // Products against the CSR ones (twice: the cached plan).
            let csr = coo.tocsr().unwrap();
            let x = crate::Triplets::random(n, 1, n, 3)
                .data(dtype)
                .reshape([n as isize])
                .unwrap();
            let want = host_parts(&csr.dot(&x).unwrap());
            for _ in 0..2 {
                let got = host_parts(&b.dot(&x).unwrap());
                assert_close("bsr @ x", &got.0, &want.0, dtype);
                assert_close("bsr @ x (im)", &got.1, &want.1, dtype);
            }
            let xm = gpu_array::creation::ones([n, 3], dtype).unwrap();
            let got = host_parts(&b.dot(&xm).unwrap());
            let want = host_parts(&csr.dot(&xm).unwrap());
            assert_close("bsr @ X", &got.0, &want.0, dtype);
        }
    }
}

#[test]
fn bsr_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let data = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[1, 2, 2]).unwrap();
    let indices = Array::from_slice(&[2i32], &[1]).unwrap();
    let indptr = Array::from_slice(&[0i32, 1], &[2]).unwrap();
    let e = BsrMatrix::new(&data, &indices, &indptr, (2, 4), None).unwrap_err();
    assert_eq!(e.to_string(), "column index values must be < 2");
    let e = BsrMatrix::new(&data, &indices, &indptr, (2, 4), Some((1, 2))).unwrap_err();
    assert_eq!(e.to_string(), "mismatching blocksize=(1, 2) vs (2, 2)");
    let e = BsrMatrix::new(&data, &indices, &indptr, (3, 4), None).unwrap_err();
    assert_eq!(e.to_string(), "shape must be multiple of blocksize");
    let a = gpu_sparse::identity(4, DType::Float64).unwrap();
    assert_eq!(
        a.tobsr((3, 3)).unwrap_err().to_string(),
        "shape must be multiple of blocksize"
    );
    assert_eq!(
        a.tobsr((0, 2)).unwrap_err().to_string(),
        "invalid blocksize=(0, 2)"
    );
}
