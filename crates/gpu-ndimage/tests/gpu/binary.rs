//! Binary morphology against SciPy's own outputs
//! (`testdata/golden_binary.npz`, `make_golden_binary.py`): erosion,
//! dilation, opening and closing with default, full, asymmetric and 3-D
//! structures, origins, 1, 2 and unbounded iterations, both border
//! values, masks, integer input and `axes`; hit-or-miss, propagation and
//! hole filling; then SciPy's errors.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType};
use gpu_ndimage::{
    BinaryOptions, HitOrMissOptions, Output, binary_closing_with, binary_dilation_with,
    binary_erosion, binary_erosion_with, binary_fill_holes_with, binary_hit_or_miss_with,
    binary_opening_with, binary_propagation_with,
};

use crate::gpu;

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/golden_binary.npz");
    gpu_testing::npz_members(p)
}

fn origins(v: &str) -> Vec<i64> {
    v.split('_').map(|o| o.parse().unwrap()).collect()
}

#[test]
fn binary_morphology_matches_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let arr = |name: &str, part: &str| {
        golden
            .get(&format!("{name}__{part}"))
            .map(|a| Array::from_npy(a).unwrap())
    };
    let mut names: Vec<&str> = golden
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .collect();
    names.sort_unstable();
    assert!(names.len() >= 80, "{} cases", names.len());
    for name in names {
        let x = arr(name, "in").unwrap();
        let want = arr(name, "out").unwrap();
        let (s, s2, mask) = (arr(name, "s"), arr(name, "s2"), arr(name, "mask"));
        let mut o = BinaryOptions::default();
        let mut h = HitOrMissOptions::default();
        if let Some(s) = &s {
            o = o.structure(s);
            h = h.structure1(s);
        }
        if let Some(s2) = &s2 {
            h = h.structure2(s2);
        }
        if let Some(m) = &mask {
            o = o.mask(m);
        }
        for part in name.split("__").skip(2) {
            if let Some(v) = part.strip_prefix("it") {
                o = o.iterations(v.parse().unwrap());
            } else if let Some(v) = part.strip_prefix("bv") {
                o = o.border_value(v == "1");
            } else if let Some(v) = part.strip_prefix("ax") {
                o = o.axes(&[v.parse().unwrap()]);
            } else if let Some(v) = part.strip_prefix("o2") {
                h = h.origin2(&origins(v));
            } else if let Some(v) = part.strip_prefix('o') {
                o = o.origins(&origins(v));
                h = h.origin1(&origins(v));
            }
        }
        let got = match name.split("__").next().unwrap() {
            "erosion" => binary_erosion_with(&x, &o),
            "dilation" => binary_dilation_with(&x, &o),
            "opening" => binary_opening_with(&x, &o),
            "closing" => binary_closing_with(&x, &o),
            "hitmiss" => binary_hit_or_miss_with(&x, &h),
            "propagation" => binary_propagation_with(&x, &o),
            _ => binary_fill_holes_with(&x, &o),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), DType::Bool, "{name}");
        assert_eq!(
            got.to_vec::<bool>().unwrap(),
            want.to_vec::<bool>().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn binary_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let x = Array::zeros([4, 5], DType::Bool).unwrap();
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let line = Array::from_slice(&[true, true, true], &[3]).unwrap();
    assert_eq!(
        err(binary_erosion_with(
            &x,
            &BinaryOptions::default().structure(&line)
        )),
        "structure and input must have same dimensionality"
    );
    let empty = Array::zeros([0, 0], DType::Bool).unwrap();
    assert_eq!(
        err(binary_erosion_with(
            &x,
            &BinaryOptions::default().structure(&empty)
        )),
        "structure must not be empty"
    );
    let small = Array::zeros([3], DType::Bool).unwrap();
    assert_eq!(
        err(binary_erosion_with(
            &x,
            &BinaryOptions::default().mask(&small)
        )),
        "mask and input must have equal sizes"
    );
    assert_eq!(
        err(binary_erosion_with(&x, &BinaryOptions::default().origin(2))),
        "invalid origin"
    );
    let c = x.astype(DType::Complex64).unwrap();
    assert_eq!(err(binary_erosion(&c)), "Complex type not supported");
    let o = BinaryOptions::default().output(Output::DType(DType::Complex64));
    assert_eq!(
        err(binary_erosion_with(&x, &o)),
        "Complex output type not supported"
    );
    let o = BinaryOptions::default().iterations(3);
    assert_eq!(
        err(binary_propagation_with(&x, &o)),
        "binary_propagation() got an unexpected keyword argument 'iterations'"
    );
    // An output dtype is honoured (SciPy writes bool whatever it is given).
    let o = BinaryOptions::default().output(Output::DType(DType::UInt8));
    assert_eq!(binary_erosion_with(&x, &o).unwrap().dtype(), DType::UInt8);
}
