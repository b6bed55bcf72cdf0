//! bicgstab, cgs, gmres and minres on the Poisson matrix (SPD), a
//! nonsymmetric convection-diffusion matrix and a symmetric indefinite
//! one, checked by their residuals; preconditioners, starts, limits and
//! SciPy's errors.

use gpu_array::{Array, DType};
use gpu_sparse::linalg::{FnOperator, SolveOptions, bicgstab, cgs, gmres, minres};
use gpu_sparse::{CsrMatrix, SpMatrix};

use crate::gpu;
use crate::solvers::{poisson, relative_residual, rhs};

/// Poisson plus a skew (first-order upwind-like) term: `A + c (S - S^T)`
/// with `S` the shift along grid rows, nonsymmetric and well conditioned.
fn convection(g: usize, c: f64, dtype: DType) -> CsrMatrix {
    let n = g * g;
    let (mut r, mut col, mut v) = (vec![], vec![], vec![]);
    for i in 0..g {
        for j in 0..g {
            let k = i * g + j;
            if j + 1 < g {
                r.extend([k, k + 1]);
                col.extend([k + 1, k]);
                v.extend([c, -c]);
            }
        }
    }
    let skew = gpu_sparse::CooMatrix::from_triplets(&r, &col, &v, (n, n))
        .unwrap()
        .astype(dtype)
        .unwrap()
        .tocsr()
        .unwrap();
    poisson(g, dtype).add(&skew).unwrap()
}

/// Poisson minus `shift` times the identity: symmetric indefinite.
fn indefinite(g: usize, shift: f64, dtype: DType) -> CsrMatrix {
    let n = g * g;
    let eye = gpu_sparse::identity(n, dtype).unwrap();
    let scaled = gpu_sparse::CsrMatrix::from_dense(
        &gpu_array::ufunc::multiply(eye.toarray().unwrap(), -shift).unwrap(),
    )
    .unwrap();
    poisson(g, dtype).add(&scaled).unwrap()
}

type Solver = fn(&CsrMatrix, &Array, &SolveOptions<'_>) -> (Array, isize);

fn solvers() -> Vec<(&'static str, Solver)> {
    vec![
        ("bicgstab", |a, b, o| bicgstab(a, b, o).unwrap()),
        ("cgs", |a, b, o| cgs(a, b, o).unwrap()),
        ("gmres", |a, b, o| {
            let (x, i) = gmres(a, b, o, None).unwrap();
            (x, i as isize)
        }),
    ]
}

#[test]
fn nonsymmetric_solvers_converge() {
    if !gpu() {
        return;
    }
    for dtype in [DType::Float32, DType::Float64, DType::Complex128] {
        let g = 16;
        let rtol = if dtype == DType::Float32 { 1e-4 } else { 1e-8 };
        for (name, a) in [
            ("poisson", poisson(g, dtype)),
            ("convection", convection(g, 0.5, dtype)),
        ] {
            let b = rhs(g * g, dtype);
            for (solver, solve) in solvers() {
                // CGS squares the residual polynomial: in float32 its
                // recurrence loses what rtol 1e-4 asks on the convection
                // matrix (seen on the H100), so it is held to 5e-3 there.
                let rtol = if solver == "cgs" && dtype == DType::Float32 {
                    5e-3
                } else {
                    rtol
                };
                for check_every in [1, 10] {
                    let opts = SolveOptions {
                        rtol,
                        check_every,
                        maxiter: Some(2000),
                        ..SolveOptions::default()
                    };
                    let (x, info) = solve(&a, &b, &opts);
                    let what = format!("{solver} {name} {dtype} check_every {check_every}");
                    assert_eq!(info, 0, "{what}");
                    assert_eq!(x.dtype(), dtype, "{what}");
                    let res = relative_residual(&a, &x, &b);
                    assert!(res < rtol * 2.0, "{what}: residual {res}");
                }
            }
        }
    }
}

#[test]
fn nonsymmetric_solvers_with_options() {
    if !gpu() {
        return;
    }
    let g = 20;
    let n = g * g;
    let a = convection(g, 0.8, DType::Float64);
    let b = rhs(n, DType::Float64);
    // Jacobi: the diagonal is 4.
    let m = FnOperator::new((n, n), DType::Float64, |r| gpu_array::ufunc::divide(r, 4.0));
    for (solver, solve) in solvers() {
        let opts = SolveOptions {
            rtol: 1e-9,
            m: Some(&m),
            ..SolveOptions::default()
        };
        let (x, info) = solve(&a, &b, &opts);
        assert_eq!(info, 0, "{solver} with M");
        assert!(relative_residual(&a, &x, &b) < 2e-9, "{solver} with M");
        // From the solution: converged at once.
        let opts = SolveOptions {
            x0: Some(&x),
            rtol: 1e-6,
            ..SolveOptions::default()
        };
        assert_eq!(solve(&a, &b, &opts).1, 0, "{solver} from x");
        // Too few iterations: info is maxiter.
        for check_every in [1, 10] {
            let opts = SolveOptions {
                rtol: 1e-14,
                maxiter: Some(2),
                check_every,
                ..SolveOptions::default()
            };
            assert_eq!(solve(&a, &b, &opts).1, 2, "{solver} maxiter");
        }
        // b = 0: x = 0.
        let z = gpu_array::creation::zeros(n, DType::Float64).unwrap();
        let (x, info) = solve(&a, &z, &SolveOptions::default());
        assert_eq!(info, 0);
        assert!(x.to_vec::<f64>().unwrap().iter().all(|v| *v == 0.0));
    }
    // gmres with a short restart still converges, over several cycles.
    let opts = SolveOptions {
        rtol: 1e-8,
        check_every: 3,
        ..SolveOptions::default()
    };
    let (x, info) = gmres(&a, &b, &opts, Some(5)).unwrap();
    assert_eq!(info, 0);
    assert!(relative_residual(&a, &x, &b) < 2e-8);
}

#[test]
fn bicgstab_reports_a_breakdown() {
    if !gpu() {
        return;
    }
    // A rotation by 90 degrees: rtilde . A r = 0 at once (SciPy's -11).
    let a = CsrMatrix::from_dense(&Array::from_slice(&[0.0, -1.0, 1.0, 0.0], &[2, 2]).unwrap())
        .unwrap();
    let b = Array::from_slice(&[1.0, 0.0], &[2]).unwrap();
    for check_every in [1, 10] {
        let opts = SolveOptions {
            check_every,
            ..SolveOptions::default()
        };
        let (x, info) = bicgstab(&a, &b, &opts).unwrap();
        assert_eq!(info, -11, "check_every {check_every}");
        // Frozen at the start: no NaN.
        assert_eq!(x.to_vec::<f64>().unwrap(), [0.0, 0.0]);
        let (_, info) = cgs(&a, &b, &opts).unwrap();
        assert_eq!(info, -11, "cgs check_every {check_every}");
    }
}

#[test]
fn minres_solves_symmetric_systems() {
    if !gpu() {
        return;
    }
    let g = 16;
    let n = g * g;
    for dtype in [DType::Float32, DType::Float64, DType::Complex128] {
        let rtol = if dtype == DType::Float32 { 1e-5 } else { 1e-10 };
        for (name, a) in [
            ("poisson", poisson(g, dtype)),
            ("indefinite", indefinite(g, 1.3, dtype)),
        ] {
            let b = rhs(n, dtype);
            for check_every in [1, 10] {
                let opts = SolveOptions {
                    rtol,
                    check_every,
                    ..SolveOptions::default()
                };
                let (x, info) = minres(&a, &b, &opts, 0.0).unwrap();
                let what = format!("{name} {dtype} check_every {check_every}");
                assert_eq!(info, 0, "{what}");
                assert_eq!(x.dtype(), dtype);
                // minres's test1 is |r| / (|A| |x|): a few times rtol in |r| / |b|.
                let res = relative_residual(&a, &x, &b);
                // Float32 on the indefinite matrix reached 2e-3 (H100).
                let bound = if dtype == DType::Float32 { 1e-2 } else { 1e-7 };
                assert!(res < bound, "{what}: residual {res}");
            }
        }
    }
    // The shift: (P - 1.3 I) x = b through P and shift = 1.3.
    let p = poisson(g, DType::Float64);
    let ind = indefinite(g, 1.3, DType::Float64);
    let b = rhs(n, DType::Float64);
    let opts = SolveOptions {
        rtol: 1e-10,
        ..SolveOptions::default()
    };
    let (x, info) = minres(&p, &b, &opts, 1.3).unwrap();
    assert_eq!(info, 0);
    assert!(relative_residual(&ind, &x, &b) < 1e-7);
    // Jacobi preconditioner (SPD) on the Poisson matrix, a start, a limit.
    let m = FnOperator::new((n, n), DType::Float64, |r| gpu_array::ufunc::divide(r, 4.0));
    let opts = SolveOptions {
        rtol: 1e-10,
        m: Some(&m),
        ..SolveOptions::default()
    };
    let (x, info) = minres(&p, &b, &opts, 0.0).unwrap();
    assert_eq!(info, 0);
    assert!(relative_residual(&p, &x, &b) < 1e-7);
    let opts = SolveOptions {
        x0: Some(&x),
        rtol: 1e-6,
        ..SolveOptions::default()
    };
    assert_eq!(minres(&p, &b, &opts, 0.0).unwrap().1, 0);
    for check_every in [1, 10] {
        let opts = SolveOptions {
            rtol: 1e-14,
            maxiter: Some(3),
            check_every,
            ..SolveOptions::default()
        };
        assert_eq!(minres(&p, &b, &opts, 0.0).unwrap().1, 3);
    }
}

#[test]
fn krylov_errors() {
    if !gpu() {
        return;
    }
    let a = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let b = gpu_array::creation::ones(3, DType::Float64).unwrap();
    let o = SolveOptions::default();
    let square = [
        bicgstab(&a, &b, &o).map(|_| ()),
        cgs(&a, &b, &o).map(|_| ()),
        gmres(&a, &b, &o, None).map(|_| ()),
        minres(&a, &b, &o, 0.0).map(|_| ()),
    ];
    for e in square {
        let e = e.unwrap_err().to_string();
        assert!(e.contains("expected square matrix"), "{e}");
    }
    let a = gpu_sparse::identity(3, DType::Float64).unwrap();
    let b4 = gpu_array::creation::ones(4, DType::Float64).unwrap();
    let shapes = [
        bicgstab(&a, &b4, &o).map(|_| ()),
        cgs(&a, &b4, &o).map(|_| ()),
        gmres(&a, &b4, &o, None).map(|_| ()),
        minres(&a, &b4, &o, 0.0).map(|_| ()),
    ];
    for e in shapes {
        let e = e.unwrap_err().to_string();
        assert!(e.contains("incompatible"), "{e}");
    }
    let e = gmres(&a, &b, &o, Some(0)).unwrap_err().to_string();
    assert!(e.contains("restart"), "{e}");
    let with_atol = SolveOptions {
        atol: 1e-3,
        ..SolveOptions::default()
    };
    let e = minres(&a, &b, &with_atol, 0.0).unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
    // An indefinite preconditioner (r^H M r < 0): SciPy's error.
    let m = FnOperator::new((3, 3), DType::Float64, |r| {
        gpu_array::ufunc::multiply(r, -1.0)
    });
    let with_m = SolveOptions {
        m: Some(&m),
        ..SolveOptions::default()
    };
    let e = minres(&a, &b, &with_m, 0.0).unwrap_err().to_string();
    assert!(e.contains("indefinite preconditioner"), "{e}");
}
