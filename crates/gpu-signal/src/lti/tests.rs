//! The LTI conversions against SciPy's (`testdata/lti_golden.npz`), on
//! the host.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;

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
        let s = abcd_normalize(
            matrix(part(&g, &case, "A")),
            matrix(part(&g, &case, "B")),
            matrix(part(&g, &case, "C")),
            matrix(part(&g, &case, "D")),
        )
        .unwrap();
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
