//! The distance transforms against SciPy's own outputs
//! (`testdata/golden_distance.npz`, written by `make_golden_distance.py`
//! beside it): the EDT and the CDT in 1-D to 4-D, odd and even sizes,
//! sparse, dense, single-zero, no-zero and all-zero backgrounds, bool,
//! int16 and float32 (with NaN) inputs, transposed (strided) inputs,
//! unit, scalar and anisotropic sampling, the chessboard, taxicab and
//! random-structure metrics. Distances and indices must equal SciPy's,
//! ties included. Then SciPy's errors and edge cases.

use gpu_array::{Array, DType, Error};
use gpu_ndimage::{self as nd, CdtMetric, CdtOptions, EdtOptions};

use crate::{Golden, cases, gpu};

fn golden() -> Golden {
    crate::golden("golden_distance.npz")
}

fn member(g: &Golden, name: &str, m: &str) -> Option<Array> {
    g.get(&format!("{name}.{m}"))
        .map(|a| Array::from_npy(a).unwrap())
}

#[test]
fn edt_matches_scipy() {
    if !gpu() {
        return;
    }
    let g = golden();
    let cases = cases(&g, "edt");
    assert!(cases.len() > 150, "{} cases", cases.len());
    for (name, params) in cases {
        let x = member(&g, name, "x").unwrap();
        let x = if params["t"] == "1" { x.T() } else { x };
        let mut opts = EdtOptions::default().return_indices(true);
        if let Some(s) = member(&g, name, "s") {
            opts = opts.samplings(&s.to_vec::<f64>().unwrap());
        }
        let want_y = member(&g, name, "y").unwrap();
        let want_ft = member(&g, name, "ft").unwrap();
        let r =
            nd::distance_transform_edt_with(&x, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (y, ft) = (r.distances.unwrap(), r.indices.unwrap());
        assert_eq!(y.dtype(), DType::Float64, "{name}: dtype");
        assert_eq!(ft.dtype(), DType::Int32, "{name}: indices dtype");
        assert_eq!(y.shape(), want_y.shape(), "{name}: shape");
        assert_eq!(ft.shape(), want_ft.shape(), "{name}: indices shape");
        assert_eq!(
            ft.to_vec::<i32>().unwrap(),
            want_ft.to_vec::<i32>().unwrap(),
            "{name}: indices"
        );
        // Formed from the same features in the same order of operations:
        // the same bits.
        let (got, want) = (y.to_vec::<f64>().unwrap(), want_y.to_vec::<f64>().unwrap());
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{name}: element {i}: got {a}, SciPy {b}"
            );
        }
        // The short form gives the same distances.
        if params["samp"] == "no" {
            let d = nd::distance_transform_edt(&x).unwrap();
            assert_eq!(d.to_vec::<f64>().unwrap(), got, "{name}: short form");
        }
    }
}

/// Without sampling the EDT takes its exact path (`cuprum_edt_first`,
/// `cuprum_edt_exact`); a sampling of 1 runs SciPy's algorithm
/// (`cuprum_edt_pass`) on the same input. Both must give the same bits:
/// large random inputs, strided passes, a row longer than the exact
/// kernel takes (mixing the two), lone zeros, no zero, and with or
/// without the indices (the last pass then writes only distances).
#[test]
fn edt_exact_path_matches_scipys_algorithm() {
    if !gpu() {
        return;
    }
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut bits = |n: usize, zeros_per_1000: u64| -> Vec<u8> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                u8::from(state % 1000 >= zeros_per_1000)
            })
            .collect()
    };
    let shapes: [(&[usize], u64); 8] = [
        (&[300, 517], 500),
        (&[300, 517], 2),
        (&[3, 7000], 1),
        (&[20000], 1),
        (&[37, 41, 29], 20),
        (&[6, 5, 4, 9], 100),
        (&[64, 64], 0),
        (&[1, 4096], 1),
    ];
    for (shape, p) in shapes {
        let n: usize = shape.iter().product();
        let x = Array::from_slice(&bits(n, p), shape).unwrap();
        for indices in [true, false] {
            let opts = EdtOptions::default().return_indices(indices);
            let got = nd::distance_transform_edt_with(&x, &opts).unwrap();
            let want = nd::distance_transform_edt_with(&x, &opts.clone().sampling(1.0)).unwrap();
            let (g, w) = (got.distances.unwrap(), want.distances.unwrap());
            let (g, w) = (g.to_vec::<f64>().unwrap(), w.to_vec::<f64>().unwrap());
            let first = g
                .iter()
                .zip(&w)
                .position(|(a, b)| a.to_bits() != b.to_bits());
            assert!(
                first.is_none(),
                "{shape:?} p={p}: distances differ at {first:?}"
            );
            if indices {
                assert_eq!(
                    got.indices.unwrap().to_vec::<i32>().unwrap(),
                    want.indices.unwrap().to_vec::<i32>().unwrap(),
                    "{shape:?} p={p}: indices"
                );
            }
        }
    }
}

#[test]
fn cdt_matches_scipy() {
    if !gpu() {
        return;
    }
    let g = golden();
    let cases = cases(&g, "cdt");
    assert!(cases.len() > 150, "{} cases", cases.len());
    for (name, params) in cases {
        let x = member(&g, name, "x").unwrap();
        let x = if params["t"] == "1" { x.T() } else { x };
        let m = member(&g, name, "m").unwrap();
        let metric = match params["metric"] {
            "custom" => CdtMetric::Structure(&m),
            other => CdtMetric::named(other).unwrap(),
        };
        let opts = CdtOptions::default().metric(metric).return_indices(true);
        let r =
            nd::distance_transform_cdt_with(&x, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (y, ft) = (r.distances.unwrap(), r.indices.unwrap());
        let want_y = member(&g, name, "y").unwrap();
        let want_ft = member(&g, name, "ft").unwrap();
        assert_eq!(y.dtype(), DType::Int32, "{name}: dtype");
        assert_eq!(y.shape(), want_y.shape(), "{name}: shape");
        assert_eq!(ft.shape(), want_ft.shape(), "{name}: indices shape");
        assert_eq!(
            y.to_vec::<i32>().unwrap(),
            want_y.to_vec::<i32>().unwrap(),
            "{name}: distances"
        );
        assert_eq!(
            ft.to_vec::<i32>().unwrap(),
            want_ft.to_vec::<i32>().unwrap(),
            "{name}: indices"
        );
        // Distances alone: the same values without the feature arrays.
        let d = nd::distance_transform_cdt_with(&x, &CdtOptions::default().metric(metric))
            .unwrap()
            .distances
            .unwrap();
        assert_eq!(
            d.to_vec::<i32>().unwrap(),
            want_y.to_vec::<i32>().unwrap(),
            "{name}: distances alone"
        );
    }
}

#[test]
fn flags_and_edge_cases() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[1u8, 0, 1, 1], &[2, 2]).unwrap();
    // Indices alone.
    let r = nd::distance_transform_edt_with(
        &x,
        &EdtOptions::default()
            .return_distances(false)
            .return_indices(true),
    )
    .unwrap();
    assert!(r.distances.is_none());
    assert_eq!(
        r.indices.unwrap().to_vec::<i32>().unwrap(),
        [0, 0, 0, 0, 1, 1, 1, 1]
    );
    let r = nd::distance_transform_cdt_with(
        &x,
        &CdtOptions::default()
            .return_distances(false)
            .return_indices(true),
    )
    .unwrap();
    assert!(r.distances.is_none() && r.indices.is_some());
    // 0-d: SciPy's EDT makes it 1-D.
    let z = Array::from_slice(&[3.0f64], &[]).unwrap();
    let r =
        nd::distance_transform_edt_with(&z, &EdtOptions::default().return_indices(true)).unwrap();
    assert_eq!(r.distances.as_ref().unwrap().shape(), [1]);
    assert_eq!(r.distances.unwrap().to_vec::<f64>().unwrap(), [1.0]);
    assert_eq!(r.indices.unwrap().to_vec::<i32>().unwrap(), [-1]);
    let c =
        nd::distance_transform_cdt_with(&z, &CdtOptions::default().return_indices(true)).unwrap();
    assert_eq!(c.distances.as_ref().unwrap().shape(), [0usize; 0]);
    assert_eq!(c.distances.unwrap().to_vec::<i32>().unwrap(), [-1]);
    assert_eq!(c.indices.unwrap().shape(), [0]);
    // Empty inputs.
    let e = Array::zeros([0, 3], DType::Float32).unwrap();
    let r =
        nd::distance_transform_edt_with(&e, &EdtOptions::default().return_indices(true)).unwrap();
    assert_eq!(r.distances.unwrap().shape(), [0, 3]);
    assert_eq!(r.indices.unwrap().shape(), [2, 0, 3]);
    let c =
        nd::distance_transform_cdt_with(&e, &CdtOptions::default().return_indices(true)).unwrap();
    assert_eq!(c.distances.unwrap().shape(), [0, 3]);
    assert_eq!(c.indices.unwrap().shape(), [2, 0, 3]);
}

#[test]
fn errors_are_scipys() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[1u8, 0, 1, 1], &[2, 2]).unwrap();
    let e = nd::distance_transform_edt_with(&x, &EdtOptions::default().return_distances(false))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "at least one of return_distances/return_indices must be True"
    );
    let e = nd::distance_transform_edt_with(&x, &EdtOptions::default().samplings(&[1.0; 3]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sequence argument must have length equal to input rank"
    );
    let e = nd::distance_transform_cdt_with(&x, &CdtOptions::default().return_distances(false))
        .unwrap_err();
    assert!(matches!(e, Error::NumpyRuntime(_)), "{e}");
    let bad = Array::from_slice(&[true; 6], &[3, 2]).unwrap();
    let e = nd::distance_transform_cdt_with(
        &x,
        &CdtOptions::default().metric(CdtMetric::Structure(&bad)),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "metric sizes must be equal to 3");
    let three = Array::from_slice(&[true; 27], &[3, 3, 3]).unwrap();
    assert!(
        nd::distance_transform_cdt_with(
            &x,
            &CdtOptions::default().metric(CdtMetric::Structure(&three)),
        )
        .is_err()
    );
    let c = x.astype(DType::Complex64).unwrap();
    assert!(nd::distance_transform_edt(&c).is_err());
    assert!(nd::distance_transform_cdt(&c).is_err());
}
