//! The LTI conversions, discretizations and simulations against SciPy's (`testdata/lti_golden.npz`), on
//! the host.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use num_complex::Complex64;
use std::f64::consts::PI;

use crate::design::freqs::AnalogFreqs;
use crate::design::freqz::WorN;
use crate::design::zpk::tf2zpk_host;

use super::continuous::{lsim_host, response_host};
use super::discrete::{Discretization, c2d_host, c2d_tf_host};
use super::response::{Siso, bode_parts, dfreqresp_host, freqresp_host, unwrap};
use super::simulate::{dlsim_host, responses_host};
use super::{StateSpace, abcd_normalize, ss2tf_host, tf2ss_host};
use crate::design::linalg::charpoly;

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/lti_golden.npz");
    gpu_testing::npz_members(p)
}

/// `(values, shape)` of member `<case>__<part>`.
fn part(g: &HashMap<String, NpyArray>, case: &str, name: &str) -> (Vec<f64>, Vec<usize>) {
    let a = &g[&format!("{case}__{name}")];
    (a.to_vec::<f64>().unwrap(), a.shape.clone())
}

fn count(g: &HashMap<String, NpyArray>, f: &str) -> usize {
    (0..)
        .take_while(|i| g.keys().any(|k| k.starts_with(&format!("{f}__{i}__"))))
        .count()
}

/// Relative to the largest magnitude of `want` (at least 1).
fn close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    let s = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (x, y) in got.iter().zip(want) {
        assert!((x - y).abs() <= tol * s, "{what}: {got:?} vs {want:?}");
    }
}

fn matrix(v: (Vec<f64>, Vec<usize>)) -> (Vec<f64>, usize, usize) {
    let (r, c) = match v.1.as_slice() {
        [r, c] => (*r, *c),
        [c] => (1, *c),
        _ => (1, 1),
    };
    (v.0, r, c)
}

/// The case's `A` .. `D`, normalized.
fn system(g: &HashMap<String, NpyArray>, case: &str) -> StateSpace {
    abcd_normalize(
        matrix(part(g, case, "A")),
        matrix(part(g, case, "B")),
        matrix(part(g, case, "C")),
        matrix(part(g, case, "D")),
    )
    .unwrap()
}

#[test]
fn tf2ss_is_scipys_controller_form() {
    let g = goldens();
    let n = count(&g, "tf2ss");
    assert_eq!(n, 6);
    for i in 0..n {
        let case = format!("tf2ss__{i}");
        let s = tf2ss_host(&part(&g, &case, "num").0, &part(&g, &case, "den").0).unwrap();
        for (name, got, shape) in [
            ("A", &s.a, [s.n, s.n]),
            ("B", &s.b, [s.n, s.p]),
            ("C", &s.c, [s.q, s.n]),
            ("D", &s.d, [s.q, s.p]),
        ] {
            let (want, wshape) = part(&g, &case, name);
            assert_eq!(wshape, shape, "{case} {name}");
            close(&format!("{case} {name}"), got, &want, 1e-15);
        }
    }
}

#[test]
fn ss2tf_is_scipys_for_every_input() {
    let g = goldens();
    let n = count(&g, "ss2tf");
    assert!(n >= 9, "{n}");
    for i in 0..n {
        let case = format!("ss2tf__{i}");
        let s = system(&g, &case);
        let input = part(&g, &case, "input").0[0] as usize;
        let (num, den) = ss2tf_host(&s, input).unwrap();
        // NumPy forms the polynomials from eigenvalues, here from a
        // Hessenberg form: equal to rounding.
        close(
            &format!("{case} den"),
            &den,
            &part(&g, &case, "den").0,
            1e-12,
        );
        close(
            &format!("{case} num"),
            &num,
            &part(&g, &case, "num").0,
            1e-12,
        );
    }
}

#[test]
fn the_characteristic_polynomial_of_a_companion_matrix_is_its_polynomial() {
    // The companion matrix of x^4 - 2x^3 + 0.5x^2 + 3x - 1.
    let a = [
        2.0, -0.5, -3.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
    ];
    close(
        "companion",
        &charpoly(&a, 4),
        &[1.0, -2.0, 0.5, 3.0, -1.0],
        1e-14,
    );
    // A dense symmetric matrix: its trace and determinant.
    let m = [4.0, 1.0, 2.0, 1.0, 3.0, 0.5, 2.0, 0.5, 5.0];
    let p = charpoly(&m, 3);
    let det = 4.0 * (3.0 * 5.0 - 0.25) - 1.0 * (5.0 - 1.0) + 2.0 * (0.5 - 6.0);
    close("dense", &[p[0], p[1], p[3]], &[1.0, -12.0, -det], 1e-13);
    assert_eq!(charpoly(&[], 0), [1.0]);
}

#[test]
fn bad_systems_get_scipys_errors() {
    let e = |r: gpu_array::Result<StateSpace>| r.unwrap_err().to_string();
    assert!(e(tf2ss_host(&[1.0, 2.0, 3.0], &[1.0, 2.0])).contains("Improper transfer function"));
    assert!(e(tf2ss_host(&[1.0], &[0.0, 0.0])).contains("at least one nonzero element"));
    let bad = abcd_normalize(
        (vec![0.0; 4], 2, 2),
        (vec![0.0; 3], 3, 1),
        (Vec::new(), 0, 0),
        (vec![0.0], 1, 1),
    );
    assert!(e(bad).contains("Parameter B has shape (3, 1) but should be (2, 1)!"));
    let s = tf2ss_host(&[1.0], &[1.0, 1.0]).unwrap();
    assert!(
        ss2tf_host(&s, 1)
            .unwrap_err()
            .to_string()
            .contains("does not have the input")
    );
    // Missing C and D: zeros of the shapes A and B give.
    let s = abcd_normalize(
        (vec![-1.0], 1, 1),
        (vec![1.0], 1, 1),
        (Vec::new(), 0, 0),
        (Vec::new(), 0, 0),
    )
    .unwrap();
    assert_eq!((s.q, s.c.clone(), s.d.clone()), (0, vec![], vec![]));
}

const METHODS: [Discretization; 7] = [
    Discretization::Zoh,
    Discretization::Foh,
    Discretization::Impulse,
    Discretization::Bilinear,
    Discretization::Euler,
    Discretization::BackwardDiff,
    Discretization::Gbt(0.3),
];

#[test]
fn cont2discrete_is_scipys_for_every_method() {
    let g = goldens();
    let n = count(&g, "c2d");
    assert_eq!(n, 28);
    for i in 0..n {
        let case = format!("c2d__{i}");
        let p = part(&g, &case, "params").0;
        let s = system(&g, &case);
        let r = c2d_host(&s, p[2], METHODS[p[0] as usize]).unwrap();
        let what = format!("{case} {:?}", METHODS[p[0] as usize]);
        // expm: Higham 2005 here, Al-Mohy and Higham 2009 in SciPy.
        close(&format!("{what} Ad"), &r.a, &part(&g, &case, "Ad").0, 1e-13);
        close(&format!("{what} Bd"), &r.b, &part(&g, &case, "Bd").0, 1e-13);
        close(&format!("{what} Cd"), &r.c, &part(&g, &case, "Cd").0, 1e-13);
        close(&format!("{what} Dd"), &r.d, &part(&g, &case, "Dd").0, 1e-13);
    }
    let n = count(&g, "c2d_tf");
    assert!(n >= 18, "{n}");
    for i in 0..n {
        let case = format!("c2d_tf__{i}");
        let p = part(&g, &case, "params").0;
        let (num, den) = c2d_tf_host(
            &part(&g, &case, "num").0,
            &part(&g, &case, "den").0,
            p[2],
            METHODS[p[0] as usize],
        )
        .unwrap();
        let what = format!("{case} {:?}", METHODS[p[0] as usize]);
        close(
            &format!("{what} num"),
            &num,
            &part(&g, &case, "numd").0,
            1e-12,
        );
        close(
            &format!("{what} den"),
            &den,
            &part(&g, &case, "dend").0,
            1e-12,
        );
    }
    // Errors: alpha outside [0, 1], feedthrough with impulse, gbt by name.
    let s = tf2ss_host(&[1.0, 1.0], &[1.0, 2.0]).unwrap();
    let e = |m| c2d_host(&s, 0.1, m).unwrap_err().to_string();
    assert!(e(Discretization::Gbt(1.5)).contains("within the interval [0,1]"));
    assert!(e(Discretization::Impulse).contains("strictly proper"));
    assert!(
        "gbt"
            .parse::<Discretization>()
            .unwrap_err()
            .to_string()
            .contains("Alpha parameter must be specified")
    );
    assert!(
        "lerp"
            .parse::<Discretization>()
            .unwrap_err()
            .to_string()
            .contains("Unknown transformation method 'lerp'")
    );
    assert!(c2d_host(&s, 0.0, Discretization::Zoh).is_err());
}

#[test]
fn dlsim_dimpulse_and_dstep_are_scipys() {
    let g = goldens();
    let n = count(&g, "dlsim");
    assert_eq!(n, 12);
    for i in 0..n {
        let case = format!("dlsim__{i}");
        let p = part(&g, &case, "params").0;
        let s = system(&g, &case);
        let t = part(&g, &case, "t").0;
        let x0 = part(&g, &case, "x0").0;
        let r = dlsim_host(
            &s,
            p[0],
            &part(&g, &case, "u").0,
            (p[1] != 0.0).then_some(t.as_slice()),
            (p[2] != 0.0).then_some(x0.as_slice()),
        )
        .unwrap();
        close(
            &format!("{case} t"),
            &r.t,
            &part(&g, &case, "tout").0,
            1e-14,
        );
        close(
            &format!("{case} y"),
            &r.y,
            &part(&g, &case, "yout").0,
            1e-12,
        );
        close(
            &format!("{case} x"),
            &r.x,
            &part(&g, &case, "xout").0,
            1e-12,
        );
    }
    let n = count(&g, "dresp");
    assert_eq!(n, 6);
    for i in 0..n {
        let case = format!("dresp__{i}");
        let p = part(&g, &case, "params").0;
        let s = system(&g, &case);
        for (step, tn, yn) in [(false, "ti", "yi"), (true, "ts", "ys")] {
            let (t, ys) = responses_host(&s, p[0], p[1] as usize, step, None).unwrap();
            close(&format!("{case} {tn}"), &t, &part(&g, &case, tn).0, 1e-14);
            let all: Vec<f64> = ys.concat();
            close(&format!("{case} {yn}"), &all, &part(&g, &case, yn).0, 1e-12);
        }
    }
    let s = tf2ss_host(&[1.0], &[1.0, -0.5]).unwrap();
    let e = |r: gpu_array::Result<super::simulate::HostSim>| r.unwrap_err().to_string();
    assert!(e(dlsim_host(&s, 0.0, &[1.0], None, None)).contains("dt must be positive"));
    assert!(e(dlsim_host(&s, 1.0, &[1.0, 2.0], Some(&[0.0]), None)).contains("1 times for 2"));
    assert!(e(dlsim_host(&s, 1.0, &[1.0, 2.0], Some(&[1.0, 0.0]), None)).contains("increasing"));
    assert!(e(dlsim_host(&s, 1.0, &[1.0], None, Some(&[1.0, 2.0]))).contains("initial state"));
    // A grid of a tiny step is an error, not an allocation that fails.
    assert!(e(dlsim_host(&s, 1e-12, &[1.0, 2.0], Some(&[0.0, 1.0]), None)).contains("do not fit"));
    // y[k] = 0.5 y[k-1] + u[k-1] from an impulse.
    let r = dlsim_host(&s, 1.0, &[1.0, 0.0, 0.0, 0.0], None, None).unwrap();
    close("impulse", &r.y, &[0.0, 1.0, 0.5, 0.25], 1e-15);
}

#[test]
fn lsim_impulse_and_step_are_scipys() {
    let g = goldens();
    let n = count(&g, "lsim");
    assert_eq!(n, 16);
    for i in 0..n {
        let case = format!("lsim__{i}");
        let p = part(&g, &case, "params").0;
        let s = system(&g, &case);
        let u = part(&g, &case, "u").0;
        let x0 = part(&g, &case, "x0").0;
        let r = lsim_host(
            &s,
            (p[1] != 0.0).then_some(u.as_slice()),
            &part(&g, &case, "t").0,
            (p[2] != 0.0).then_some(x0.as_slice()),
            p[0] != 0.0,
        )
        .unwrap();
        close(
            &format!("{case} {p:?} y"),
            &r.y,
            &part(&g, &case, "y").0,
            1e-12,
        );
        close(
            &format!("{case} {p:?} x"),
            &r.x,
            &part(&g, &case, "x").0,
            1e-12,
        );
    }
    let n = count(&g, "cresp");
    assert_eq!(n, 6);
    for i in 0..n {
        let case = format!("cresp__{i}");
        let p = part(&g, &case, "params").0;
        let s = system(&g, &case);
        let x0 = part(&g, &case, "x0").0;
        let x0 = (p[1] != 0.0).then_some(x0.as_slice());
        let (t, nn) = if p[0] == 0.0 {
            (
                Some((0..31).map(|k| 3.0 * k as f64 / 30.0).collect::<Vec<f64>>()),
                None,
            )
        } else {
            (None, Some(p[0] as usize))
        };
        for (step, tn, yn) in [(false, "ti", "yi"), (true, "ts", "ys")] {
            let x0 = if step || p[2] != 0.0 { x0 } else { None };
            let (tt, y) = response_host(&s, step, x0, t.clone(), nn).unwrap();
            // The default times come from the slowest mode's eigenvalue,
            // here a root of the characteristic polynomial.
            close(&format!("{case} {tn}"), &tt, &part(&g, &case, tn).0, 1e-12);
            close(&format!("{case} {yn}"), &y, &part(&g, &case, yn).0, 1e-11);
        }
    }
    let s = tf2ss_host(&[1.0], &[1.0, 1.0]).unwrap();
    let e = |r: gpu_array::Result<super::continuous::ContinuousSim>| r.unwrap_err().to_string();
    assert!(e(lsim_host(&s, None, &[0.0, 0.1, 0.3], None, true)).contains("not equally spaced"));
    assert!(
        e(lsim_host(&s, None, &[-1.0, 0.0], None, true))
            .contains("Initial time must be nonnegative")
    );
    assert!(
        e(lsim_host(
            &s,
            Some(&[1.0, 1.0]),
            &[0.0, 0.1, 0.2],
            None,
            true
        ))
        .contains("same number of rows")
    );
}

/// The response golden's system, in the form it was given.
fn siso_of(g: &HashMap<String, NpyArray>, case: &str, form: f64) -> Siso {
    let c = |v: Vec<f64>| {
        v.into_iter()
            .map(|x| Complex64::new(x, 0.0))
            .collect::<Vec<_>>()
    };
    match form as usize {
        0 => Siso::Tf(c(part(g, case, "num").0), c(part(g, case, "den").0)),
        1 => {
            let cx = |re: &str, im: &str| -> Vec<Complex64> {
                let (r, i) = (part(g, case, re).0, part(g, case, im).0);
                r.iter()
                    .zip(&i)
                    .map(|(&a, &b)| Complex64::new(a, b))
                    .collect()
            };
            Siso::Zpk(cx("zr", "zi"), cx("pr", "pi"), part(g, case, "k").0[0])
        }
        _ => {
            let s = system(g, case);
            let (num, den) = ss2tf_host(&s, 0).unwrap();
            let (z, p, k) = tf2zpk_host(&c(num), &c(den)).unwrap();
            Siso::Zpk(z, p, k.re)
        }
    }
}

#[test]
fn frequency_responses_and_bode_plots_are_scipys() {
    let g = goldens();
    for (name, discrete) in [("resp", false), ("dresp2", true)] {
        let n = count(&g, name);
        assert_eq!(n, 6, "{name}");
        for i in 0..n {
            let case = format!("{name}__{i}");
            let p = part(&g, &case, "params").0;
            let sys = siso_of(&g, &case, p[0]);
            let want_w = part(&g, &case, "w").0;
            let (w, h) = if discrete {
                let worn = if p[1] == 0.0 {
                    WorN::Freqs(want_w.clone())
                } else {
                    WorN::N(p[1] as usize)
                };
                dfreqresp_host(&sys, &worn, false).unwrap()
            } else {
                let worn = if p[1] == 0.0 {
                    AnalogFreqs::Freqs(want_w.clone())
                } else {
                    AnalogFreqs::N(p[1] as usize)
                };
                freqresp_host(&sys, &worn).unwrap()
            };
            close(&format!("{case} w"), &w, &want_w, 1e-13);
            let (hr, hi) = (part(&g, &case, "hr").0, part(&g, &case, "hi").0);
            for (k, v) in h.iter().enumerate() {
                let want = Complex64::new(hr[k], hi[k]);
                assert!(
                    (v - want).norm() <= 1e-9 * want.norm().max(1e-300),
                    "{case} h[{k}]: {v} vs {want}"
                );
            }
            // Bode from the same frequencies (its own n for the counts).
            let want_wb = part(&g, &case, "wb").0;
            let (wb, hb) = if discrete {
                let worn = if p[1] == 0.0 {
                    WorN::Freqs(want_w.clone())
                } else {
                    WorN::N(p[1] as usize)
                };
                let (w, h) = dfreqresp_host(&sys, &worn, false).unwrap();
                (w.iter().map(|v| v / p[2]).collect::<Vec<_>>(), h)
            } else {
                let worn = if p[1] == 0.0 {
                    AnalogFreqs::Freqs(want_w.clone())
                } else {
                    AnalogFreqs::N(50)
                };
                freqresp_host(&sys, &worn).unwrap()
            };
            close(&format!("{case} wb"), &wb, &want_wb, 1e-12);
            let (mag, phase) = bode_parts(&hb);
            close(
                &format!("{case} mag"),
                &mag,
                &part(&g, &case, "mag").0,
                1e-9,
            );
            close(
                &format!("{case} phase"),
                &phase,
                &part(&g, &case, "phase").0,
                1e-9,
            );
        }
    }
    // NumPy's unwrap across the branch cut, both ways.
    let u = unwrap(&[3.0, -3.0, 3.0, 2.9, -3.1]);
    let want = [3.0, -3.0 + 2.0 * PI, 3.0, 2.9, -3.1 + 2.0 * PI];
    close("unwrap", &u, &want, 1e-15);
}
