//! The measurements against SciPy's own outputs
//! (`testdata/measure_golden.npz`, written by `make_golden_measure.py`
//! beside it): `label` in 1-D to 4-D with connectivity 1 and full, bool,
//! int16 and float32 inputs, transposed (strided) inputs and long chains;
//! every statistic over float, integer and bool data with absent, zero and
//! negative labels, for SciPy's `index=None`, a scalar and an array;
//! `find_objects` and `value_indices`. Then SciPy's errors and edge cases.

use std::collections::HashMap;

use gpu_array::{Array, DType, Error};
use gpu_ndimage::{self as nd, Index, LabelOptions};

use crate::{Golden, cases, gpu};

fn golden() -> Golden {
    crate::golden("measure_golden.npz")
}

fn member(g: &Golden, name: &str, m: &str) -> Array {
    let key = format!("{name}.{m}");
    Array::from_npy(g.get(&key).unwrap_or_else(|| panic!("no {key}"))).unwrap()
}

fn f64s(a: &Array) -> Vec<f64> {
    a.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap()
}

fn close(name: &str, got: &[f64], want: &[f64], rtol: f64) {
    assert_eq!(got.len(), want.len(), "{name}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= rtol * (1.0 + w.abs());
        assert!(ok, "{name}: element {i}: got {g}, SciPy {w}");
    }
}

#[test]
fn labels_match_scipy() {
    if !gpu() {
        return;
    }
    let g = golden();
    let cases = cases(&g, "label");
    assert!(cases.len() > 40, "{} cases", cases.len());
    for (name, params) in cases {
        let x = member(&g, name, "x");
        let x = if params["t"] == "1" { x.T() } else { x };
        let s = member(&g, name, "s");
        let want = member(&g, name, "y");
        let n = member(&g, name, "n").to_vec::<i64>().unwrap()[0];
        let (got, count) = nd::label_with(&x, &LabelOptions::default().structure(&s))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(count as i64, n, "{name}: count");
        assert_eq!(got.dtype(), DType::Int32, "{name}: dtype");
        assert_eq!(got.shape(), want.shape(), "{name}: shape");
        assert_eq!(
            got.to_vec::<i32>().unwrap(),
            want.to_vec::<i32>().unwrap(),
            "{name}: labels"
        );
    }
}

fn run_stat(
    f: &str,
    x: &Array,
    l: Option<&Array>,
    index: Index<'_>,
    params: &HashMap<&str, &str>,
) -> gpu_array::Result<Array> {
    let positions = |p: Vec<Vec<usize>>| {
        let ndim = x.ndim();
        let flat: Vec<i64> = p.iter().flatten().map(|&c| c as i64).collect();
        Array::from_slice(&flat, &[p.len(), ndim])
    };
    match f {
        "sum_labels" => nd::sum_labels(x, l, index),
        "mean" => nd::mean(x, l, index),
        "variance" => nd::variance(x, l, index),
        "standard_deviation" => nd::standard_deviation(x, l, index),
        "minimum" => nd::minimum(x, l, index),
        "maximum" => nd::maximum(x, l, index),
        "median" => nd::median(x, l, index),
        "minimum_position" => positions(nd::minimum_position(x, l, index)?),
        "maximum_position" => positions(nd::maximum_position(x, l, index)?),
        "center_of_mass" => {
            let c = nd::center_of_mass(x, l, index)?;
            let flat: Vec<f64> = c.iter().flatten().copied().collect();
            Array::from_slice(&flat, &[c.len(), x.ndim()])
        }
        "histogram" => nd::histogram(
            x,
            params["lo"].parse().unwrap(),
            params["hi"].parse().unwrap(),
            params["bins"].parse().unwrap(),
            l,
            index,
        ),
        f => panic!("no case for {f}"),
    }
}

#[test]
fn statistics_match_scipy() {
    if !gpu() {
        return;
    }
    let g = golden();
    let cases = cases(&g, "stat");
    assert!(cases.len() > 400, "{} cases", cases.len());
    for (name, params) in cases {
        let src = format!("data__i={}", params["src"]);
        let x = member(&g, &src, "x");
        let l = member(&g, &src, "l");
        let idx = member(&g, name, "idx").to_vec::<i64>().unwrap();
        let (labels, index) = match params["idx"] {
            "all" => (Some(&l), Index::All),
            "one" => (Some(&l), Index::One(idx[0])),
            "many" => (Some(&l), Index::Many(&idx)),
            _ => (None, Index::All),
        };
        let want = member(&g, name, "y");
        let got = run_stat(params["f"], &x, labels, index, &params)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), want.dtype(), "{name}: dtype");
        assert_eq!(got.shape(), want.shape(), "{name}: shape");
        // float64 sums in another order than SciPy's; float32 data summed
        // in float32 by NumPy for one region.
        let rtol = if params["dt"] == "float32" {
            1e-5
        } else {
            1e-11
        };
        close(name, &f64s(&got), &f64s(&want), rtol);
    }
}

#[test]
fn objects_and_value_indices_match_scipy() {
    if !gpu() {
        return;
    }
    let g = golden();
    for (name, params) in cases(&g, "objects") {
        let lab = member(&g, name, "x");
        let m: usize = params["m"].parse().unwrap();
        let got = nd::find_objects(&lab, Some(m)).unwrap();
        let want = member(&g, name, "y").to_vec::<i64>().unwrap();
        let ndim = lab.ndim();
        assert_eq!(got.len() * ndim * 2, want.len(), "{name}: labels");
        for (k, obj) in got.iter().enumerate() {
            let w = &want[k * ndim * 2..(k + 1) * ndim * 2];
            match obj {
                None => assert_eq!(w[0], -1, "{name}: label {}", k + 1),
                Some(r) => {
                    let flat: Vec<i64> = r
                        .iter()
                        .flat_map(|r| [r.start as i64, r.end as i64])
                        .collect();
                    assert_eq!(flat, w, "{name}: label {}", k + 1);
                }
            }
        }
    }
    for (name, params) in cases(&g, "values") {
        let x = member(&g, name, "x");
        let ign = match params["ign"] {
            "-" => None,
            v => Some(v.parse().unwrap()),
        };
        let got = nd::value_indices(&x, ign).unwrap();
        let want = member(&g, name, "y");
        let rows = want.shape()[0];
        let want = want.to_vec::<i64>().unwrap();
        let n = want.len() / rows;
        let mut col = 0;
        for (v, coords) in &got {
            assert_eq!(coords.len(), x.ndim(), "{name}");
            let len = coords[0].size();
            assert!(
                want[col..col + len].iter().all(|w| w == v),
                "{name}: value {v}"
            );
            for (d, c) in coords.iter().enumerate() {
                let w = &want[(d + 1) * n + col..(d + 1) * n + col + len];
                assert_eq!(c.to_vec::<i64>().unwrap(), w, "{name}: value {v} axis {d}");
            }
            col += len;
        }
        assert_eq!(col, n, "{name}: elements");
    }
}

#[test]
fn label_edges_and_errors_in_scipys_words() {
    if !gpu() {
        return;
    }
    // [[1, 0, 1], [0, 1, 0]]: three regions by the cross, one by the full
    // structure (the diagonals join them).
    let x = Array::from_slice(&[1u8, 0, 1, 0, 1, 0], &[2, 3]).unwrap();
    let (l, n) = nd::label(&x).unwrap();
    assert_eq!((l.to_vec::<i32>().unwrap(), n), (vec![1, 0, 2, 0, 3, 0], 3));
    let full = nd::generate_binary_structure(2, 2).unwrap();
    let opts = LabelOptions::default()
        .structure(&full)
        .output(DType::Int64);
    let (l, n) = nd::label_with(&x, &opts).unwrap();
    assert_eq!((l.dtype(), n), (DType::Int64, 1));
    assert_eq!(l.to_vec::<i64>().unwrap(), [1, 0, 1, 0, 1, 0]);
    // 0-d and empty inputs, as SciPy's.
    let (l, n) = nd::label(&Array::scalar(3.5f64).unwrap()).unwrap();
    assert_eq!(
        (l.shape(), l.to_vec::<i32>().unwrap(), n),
        (&[][..], vec![1], 1)
    );
    let (l, n) = nd::label(&Array::zeros([0, 3], DType::Bool).unwrap()).unwrap();
    assert_eq!((l.shape(), n), (&[0, 3][..], 0));
    let e = nd::label_with(
        &x,
        &LabelOptions::default().structure(&nd::generate_binary_structure(3, 1).unwrap()),
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "structure and input must have equal rank");
    let skew = Array::from_slice(
        &[true, true, false, false, true, false, false, false, false],
        &[3, 3],
    )
    .unwrap();
    let e = nd::label_with(&x, &LabelOptions::default().structure(&skew)).unwrap_err();
    assert_eq!(e.to_string(), "Structuring element is not symmetric");
    // 300 features do not fit int8.
    let many: Vec<u8> = (0..600).map(|i| (i % 2) as u8).collect();
    let many = Array::from_slice(&many, &[600]).unwrap();
    let e = nd::label_with(&many, &LabelOptions::default().output(DType::Int8)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "insufficient bit-depth in requested output type"
    );
    let (_, n) = nd::label_with(&many, &LabelOptions::default().output(DType::Int16)).unwrap();
    assert_eq!(n, 300);
    let e = nd::label_with(&many, &LabelOptions::default().output(DType::Float32)).unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)), "{e}");
    let c = Array::zeros([2], DType::Complex64).unwrap();
    assert_eq!(
        nd::label(&c).unwrap_err().to_string(),
        "Complex type not supported"
    );
}

#[test]
fn statistics_edges_and_errors() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[0.0f64, 1.0, 2.0, 3.0], &[4]).unwrap();
    let l = Array::from_slice(&[1i32, 1, 2, 2], &[4]).unwrap();
    let none = Array::zeros([4], DType::Int32).unwrap();
    let e = nd::minimum(&x, Some(&none), Index::One(1)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "zero-size array to reduction operation minimum which has no identity"
    );
    let e = nd::maximum_position(&x, Some(&none), Index::All).unwrap_err();
    assert!(e.to_string().contains("operation maximum"), "{e}");
    assert!(f64s(&nd::mean(&x, Some(&none), Index::All).unwrap())[0].is_nan());
    assert!(f64s(&nd::median(&x, Some(&none), Index::All).unwrap())[0].is_nan());
    assert_eq!(
        f64s(&nd::sum(&x, Some(&none), Index::One(1)).unwrap()),
        [0.0]
    );
    let e = nd::histogram(&x, 0.0, 1.0, 2, None, Index::One(1)).unwrap_err();
    assert_eq!(e.to_string(), "index without defined labels");
    let e = nd::histogram(&x, 1.0, 0.0, 2, Some(&l), Index::All).unwrap_err();
    assert_eq!(
        e.to_string(),
        "`bins` must increase monotonically, when an array"
    );
    let short = Array::zeros([3], DType::Int32).unwrap();
    assert!(nd::sum_labels(&x, Some(&short), Index::All).is_err());
    let fl = Array::zeros([4], DType::Float64).unwrap();
    assert!(matches!(
        nd::sum_labels(&x, Some(&fl), Index::All),
        Err(Error::Unsupported(_))
    ));
    // Labels broadcast against the input, as SciPy's.
    let x2 = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    let row = Array::from_slice(&[1i64, 0, 2], &[3]).unwrap();
    let s = nd::sum_labels(&x2, Some(&row), Index::Many(&[1, 2])).unwrap();
    assert_eq!(s.to_vec::<f64>().unwrap(), [5.0, 9.0]);
    // extrema is minimum, maximum and their positions at once.
    let e = nd::extrema(&x2, Some(&row), Index::Many(&[2, 1])).unwrap();
    assert_eq!(e.minimum.to_vec::<f64>().unwrap(), [3.0, 1.0]);
    assert_eq!(e.maximum.to_vec::<f64>().unwrap(), [6.0, 4.0]);
    assert_eq!(e.minimum_position, [vec![0, 2], vec![0, 0]]);
    assert_eq!(e.maximum_position, [vec![1, 2], vec![1, 0]]);
    // labeled_comprehension on the host agrees with the device's sums.
    let lc = nd::labeled_comprehension(
        &x2,
        Some(&row),
        Index::Many(&[1, 2, 9]),
        |v: &[f64], _| v.iter().sum::<f64>(),
        -1.0,
    )
    .unwrap();
    assert_eq!(lc, [5.0, 9.0, -1.0]);
    let pos = nd::labeled_comprehension(
        &x2,
        Some(&row),
        Index::One(2),
        |_: &[f64], p| p.to_vec(),
        vec![],
    )
    .unwrap();
    assert_eq!(pos, [vec![2, 5]]);
    let i8l = Array::from_slice(&[1i8, 0, 2], &[3]).unwrap();
    let e = nd::labeled_comprehension(&x2, Some(&i8l), Index::One(300), |v: &[f64], _| v.len(), 0)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cannot convert index values from <int64> to <int8> (labels' type) without loss of precision"
    );
}

#[test]
fn float_sums_are_the_same_run_to_run() {
    if !gpu() {
        return;
    }
    // A million values in 5 labels: a different order of terms would move
    // the last bits.
    let n = 1 << 20;
    let v: Vec<f64> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f64 * 1.1e-3 + 1e6)
        .collect();
    let l: Vec<i32> = (0..n).map(|i| ((i * 31) % 5) as i32).collect();
    let x = Array::from_slice(&v, &[n]).unwrap();
    let l = Array::from_slice(&l, &[n]).unwrap();
    let idx = [1, 2, 3, 4];
    let first = nd::variance(&x, Some(&l), Index::Many(&idx))
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let sum1 = nd::sum_labels(&x, Some(&l), Index::All)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    for _ in 0..5 {
        let again = nd::variance(&x, Some(&l), Index::Many(&idx))
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert_eq!(
            first.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
            again.iter().map(|f| f.to_bits()).collect::<Vec<_>>()
        );
        let sum2 = nd::sum_labels(&x, Some(&l), Index::All)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert_eq!(sum1[0].to_bits(), sum2[0].to_bits());
    }
}

/// `label` past 2^31 elements (CuPy's labelling once broke there): a
/// (2^15 + 1) x 2^16 image of vertical lines at every third column, each
/// line one feature numbered by its column, checked on the last row (its
/// linear indices are past 2^31). About 45 GB of device memory: runs only
/// with `CUPRUM_TEST_LARGE=1` (`bench/gpu/only.sh gpu-ndimage:label_past`).
#[test]
fn label_past_two_to_the_31_elements() {
    if !gpu() {
        return;
    }
    if std::env::var("CUPRUM_TEST_LARGE").as_deref() != Ok("1") {
        eprintln!("skipped: label_past_two_to_the_31_elements needs CUPRUM_TEST_LARGE=1 (45 GB)");
        return;
    }
    let (rows, cols) = ((1usize << 15) + 1, 1usize << 16);
    let c = gpu_array::creation::arange_with(0i64, cols as i64, 1i64, Some(DType::Int64)).unwrap();
    let line = gpu_array::ufunc::equal(gpu_array::ufunc::remainder(&c, 3i64).unwrap(), 0i64)
        .unwrap()
        .reshape([1isize, cols as isize])
        .unwrap();
    let img = line.broadcast_to(&[rows, cols]).unwrap().copy().unwrap();
    assert!(img.size() > 1usize << 31);
    let (labels, n) = nd::label_with(&img, &LabelOptions::default().output(DType::Int64)).unwrap();
    assert_eq!(n, cols.div_ceil(3));
    let last = labels
        .reshape([rows as isize, cols as isize])
        .unwrap()
        .get_index(&gpu_array::ix![rows as isize - 1])
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    for (c, &l) in last.iter().enumerate() {
        let want = if c % 3 == 0 { (c / 3 + 1) as i64 } else { 0 };
        assert_eq!(l, want, "column {c}");
    }
}
