//! The peak searches against SciPy's (`testdata/peaks_golden.npz`), on
//! the host.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;

use super::host::{prominences, widths, window_length};
use super::{FindPeaksOptions, HostProperties, Interval, Limit, find_peaks_host};

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/peaks_golden.npz");
    gpu_testing::npz_members(p)
}

fn f64s(g: &HashMap<String, NpyArray>, key: &str) -> Vec<f64> {
    g[key].to_vec::<f64>().unwrap()
}

fn indices(g: &HashMap<String, NpyArray>, key: &str) -> Vec<usize> {
    let a = &g[key];
    let v = a.to_vec::<i64>().unwrap_or_else(|_| {
        a.to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|&f| f as i64)
            .collect()
    });
    v.into_iter().map(|i| i as usize).collect()
}

fn signal(g: &HashMap<String, NpyArray>, case: &str) -> Vec<f64> {
    let xi = f64s(g, &format!("{case}__xi"))[0];
    f64s(g, &format!("sig__{xi}"))
}

fn count(g: &HashMap<String, NpyArray>, prefix: &str) -> usize {
    (0..)
        .take_while(|i| g.contains_key(&format!("{prefix}__{i}__xi")))
        .count()
}

/// Equal, or within `tol` relative (NaN equal to NaN).
fn same(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?} vs {want:?}");
    for (a, b) in got.iter().zip(want) {
        let ok = (a.is_nan() && b.is_nan()) || (a - b).abs() <= tol * b.abs().max(1.0);
        assert!(ok, "{what}: {got:?} vs {want:?}");
    }
}

/// A condition from two golden borders (-inf: not given; NaN: open).
fn condition(lo: f64, hi: f64) -> Option<Interval> {
    if lo == f64::NEG_INFINITY {
        return None;
    }
    let b = |v: f64| (!v.is_nan()).then_some(Limit::Value(v));
    Some(Interval {
        min: b(lo),
        max: b(hi),
    })
}

fn check_props(what: &str, p: &HostProperties, g: &HashMap<String, NpyArray>, case: &str) {
    let want = |name: &str| g.get(&format!("{case}__prop_{name}"));
    let float = |name: &str, got: &Option<Vec<f64>>| match (got, want(name)) {
        (None, None) => {}
        (Some(v), Some(w)) => same(
            &format!("{what} {name}"),
            v,
            &w.to_vec::<f64>().unwrap(),
            1e-12,
        ),
        (got, w) => panic!("{what} {name}: {got:?} vs {}", w.is_some()),
    };
    let index = |name: &str, got: &Option<Vec<usize>>| match (got, want(name)) {
        (None, None) => {}
        (Some(v), Some(_)) => assert_eq!(
            v,
            &indices(g, &format!("{case}__prop_{name}")),
            "{what} {name}"
        ),
        (got, w) => panic!("{what} {name}: {got:?} vs {}", w.is_some()),
    };
    float("peak_heights", &p.peak_heights);
    float("left_thresholds", &p.left_thresholds);
    float("right_thresholds", &p.right_thresholds);
    float("prominences", &p.prominences);
    index("left_bases", &p.left_bases);
    index("right_bases", &p.right_bases);
    float("widths", &p.widths);
    float("width_heights", &p.width_heights);
    float("left_ips", &p.left_ips);
    float("right_ips", &p.right_ips);
    index("plateau_sizes", &p.plateau_sizes);
    index("left_edges", &p.left_edges);
    index("right_edges", &p.right_edges);
}

#[test]
fn find_peaks_is_scipys_for_every_condition() {
    let g = goldens();
    let n = count(&g, "find");
    assert!(n >= 90, "{n} cases");
    for i in 0..n {
        let case = format!("find__{i}");
        let x = signal(&g, &case);
        let o = f64s(&g, &format!("{case}__opts"));
        let mut opts = FindPeaksOptions {
            height: condition(o[0], o[1]),
            threshold: condition(o[2], o[3]),
            distance: (!o[4].is_nan()).then_some(o[4]),
            prominence: condition(o[5], o[6]),
            width: condition(o[7], o[8]),
            wlen: (!o[9].is_nan()).then_some(o[9]),
            rel_height: o[10],
            plateau_size: condition(o[11], o[12]),
        };
        if let Some(lo) = g.get(&format!("{case}__hmin_arr")) {
            opts.height = Some(Interval::between(
                Limit::PerSample(lo.to_vec::<f64>().unwrap()),
                Limit::PerSample(f64s(&g, &format!("{case}__hmax_arr"))),
            ));
        }
        let what = format!("{case} (n {}) {o:?}", x.len());
        let (peaks, props) = find_peaks_host(&x, &opts).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(peaks, indices(&g, &format!("{case}__peaks")), "{what}");
        check_props(&what, &props, &g, &case);
    }
}

#[test]
fn prominences_and_widths_are_scipys() {
    let g = goldens();
    let np = count(&g, "prom");
    let nw = count(&g, "widths");
    assert!(np >= 9 && nw >= 36, "{np} {nw}");
    for i in 0..np {
        let case = format!("prom__{i}");
        let x = signal(&g, &case);
        let peaks = indices(&g, &format!("{case}__peaks"));
        let w = f64s(&g, &format!("{case}__wlen"))[0];
        let p = prominences(
            &x,
            &peaks,
            window_length((!w.is_nan()).then_some(w)).unwrap(),
        )
        .unwrap();
        same(
            &case,
            &p.prominences,
            &f64s(&g, &format!("{case}__prominences")),
            0.0,
        );
        assert_eq!(
            p.left_bases,
            indices(&g, &format!("{case}__left_bases")),
            "{case}"
        );
        assert_eq!(
            p.right_bases,
            indices(&g, &format!("{case}__right_bases")),
            "{case}"
        );
    }
    for i in 0..nw {
        let case = format!("widths__{i}");
        let x = signal(&g, &case);
        let peaks = indices(&g, &format!("{case}__peaks"));
        let w = f64s(&g, &format!("{case}__wlen"))[0];
        let rh = f64s(&g, &format!("{case}__rel_height"))[0];
        let p = prominences(
            &x,
            &peaks,
            window_length((!w.is_nan()).then_some(w)).unwrap(),
        )
        .unwrap();
        let got = widths(&x, &peaks, rh, &p).unwrap();
        for (name, v) in [
            ("widths", &got.widths),
            ("width_heights", &got.width_heights),
            ("left_ips", &got.left_ips),
            ("right_ips", &got.right_ips),
        ] {
            same(
                &format!("{case} {name}"),
                v,
                &f64s(&g, &format!("{case}__{name}")),
                1e-12,
            );
        }
    }
}

#[test]
fn bad_arguments_get_scipys_errors() {
    let x = [0.0, 1.0, 0.0, 2.0, 0.0];
    let err = |o: FindPeaksOptions| find_peaks_host(&x, &o).unwrap_err().to_string();
    assert!(
        err(FindPeaksOptions::default().distance(0.5))
            .contains("`distance` must be greater or equal to 1")
    );
    assert!(err(FindPeaksOptions::default().distance(f64::NAN)).contains("`distance`"));
    assert!(
        err(FindPeaksOptions::default().prominence(1.0).wlen(Some(1.0)))
            .contains("`wlen` must be larger than 1, was 1")
    );
    assert!(
        err(FindPeaksOptions::default().width(1.0).rel_height(-0.5))
            .contains("`rel_height` must be greater or equal to 0.0")
    );
    let short = Interval::at_least(Limit::PerSample(vec![0.0; 3]));
    assert!(
        err(FindPeaksOptions::default().height(short))
            .contains("array size of lower interval border must match x")
    );
    assert!(
        prominences(&x, &[7], None)
            .unwrap_err()
            .to_string()
            .contains("peak 7 is not a valid index for `x`")
    );
    // Signals too short for any maximum, and an empty one.
    for x in [&[][..], &[1.0][..], &[1.0, 2.0][..]] {
        assert!(
            find_peaks_host(x, &FindPeaksOptions::default())
                .unwrap()
                .0
                .is_empty()
        );
    }
}

#[test]
fn equal_heights_within_the_distance_keep_the_later_peak() {
    // SciPy leaves this tie to its unstable sort; here it is defined.
    let x = [0.0, 1.0, 0.0, 1.0, 0.0];
    let (peaks, _) = find_peaks_host(&x, &FindPeaksOptions::default().distance(3.0)).unwrap();
    assert_eq!(peaks, [3]);
}

#[test]
fn the_device_tests_signal_gives_scipys_answers_on_the_host() {
    // tests/gpu/filters.rs's signal, the same expectations.
    let x = [0.0, 2.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0];
    assert_eq!(
        find_peaks_host(&x, &FindPeaksOptions::default()).unwrap().0,
        [1, 3, 6]
    );
    let o = FindPeaksOptions::default()
        .height(1.5)
        .prominence(Interval::any())
        .width(Interval::any());
    let (peaks, p) = find_peaks_host(&x, &o).unwrap();
    assert_eq!(peaks, [1, 3]);
    assert_eq!(p.peak_heights.unwrap(), [2.0, 3.0]);
    assert_eq!(p.prominences.unwrap(), [1.0, 3.0]);
    assert_eq!(
        (p.left_bases.unwrap(), p.right_bases.unwrap()),
        (vec![0, 0], vec![2, 5])
    );
    assert_eq!(p.widths.unwrap(), [0.75, 2.25]);
    assert_eq!(p.left_ips.unwrap(), [0.75, 2.25]);
    let pr = prominences(&x, &[1, 3], window_length(Some(3.0)).unwrap()).unwrap();
    assert_eq!(
        widths(&x, &[1, 3], 1.0, &pr).unwrap().width_heights,
        [1.0, 3.0]
    );
}
