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

/// A 2-D image with a structure within 3 x 3 takes the sixteen-a-thread
/// bit kernel; the same image as `(1, h, w)` with the structure as
/// `(1, 3, 3)` takes the generic one. Every structure pattern (a sample of
/// the 512), origins, both border values, masks, dilation, iterations to
/// convergence, and widths that are and are not multiples of 16 (the
/// uint4 path and the byte path) must agree.
#[test]
fn the_2d_bit_kernel_matches_the_generic_step() {
    if !gpu() {
        return;
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (case, (h, w)) in [(37, 64), (29, 53), (1, 16), (64, 17), (5, 3), (130, 256)]
        .into_iter()
        .enumerate()
    {
        let n = h * w;
        let bits: Vec<bool> = (0..n).map(|_| next() % 100 < 70).collect();
        let x = Array::from_slice(&bits, &[h, w]).unwrap();
        let x3 = x.reshape([1, h as isize, w as isize]).unwrap();
        let m: Vec<bool> = (0..n).map(|_| next() % 100 < 80).collect();
        let m = Array::from_slice(&m, &[h, w]).unwrap();
        let m3 = m.reshape([1, h as isize, w as isize]).unwrap();
        for pattern in (0..512u32).step_by(37).chain([0, 16, 186, 495, 511]) {
            let sv: Vec<bool> = (0..9).map(|k| pattern >> k & 1 == 1).collect();
            let s = Array::from_slice(&sv, &[3, 3]).unwrap();
            let s3 = s.reshape([1, 3, 3]).unwrap();
            let r = next();
            let origin = [(r % 3) as i64 - 1, (r / 3 % 3) as i64 - 1];
            let border = r / 9 % 2 == 1;
            let iterations = [1, 2, 0][(r / 18 % 3) as usize];
            let masked = r / 54 % 2 == 1;
            let o2 = BinaryOptions::default()
                .structure(&s)
                .origins(&origin)
                .border_value(border)
                .iterations(iterations);
            let o3 = BinaryOptions::default()
                .structure(&s3)
                .origins(&[0, origin[0], origin[1]])
                .border_value(border)
                .iterations(iterations);
            let (o2, o3) = if masked {
                (o2.mask(&m), o3.mask(&m3))
            } else {
                (o2, o3)
            };
            let what = format!(
                "case {case} ({h}x{w}) pattern {pattern} {origin:?} border {border} it {iterations} mask {masked}"
            );
            for dilate in [false, true] {
                let f = if dilate {
                    binary_dilation_with
                } else {
                    binary_erosion_with
                };
                let got = f(&x, &o2).unwrap_or_else(|e| panic!("{what}: {e}"));
                let want = f(&x3, &o3).unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_eq!(
                    got.to_vec::<bool>().unwrap(),
                    want.to_vec::<bool>().unwrap(),
                    "{what} dilate {dilate}"
                );
            }
        }
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
