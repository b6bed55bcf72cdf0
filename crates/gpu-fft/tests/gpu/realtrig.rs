//! The DCT and DST families, every type, norm and `orthogonalize`, 1-D
//! and n-dimensional, against SciPy's own outputs
//! (`testdata/fft/realtrig_golden.npz`, written by `make_golden.py`
//! beside it), in double and in single precision.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType};
use gpu_fft::{DctOptions, DctnOptions, Norm};
use gpu_testing::npz_members;
use num_complex::Complex;

use crate::common::dev;

const TRIG: [&str; 8] = [
    "dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn",
];

fn golden() -> HashMap<String, NpyArray> {
    npz_members(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/fft/realtrig_golden.npz"))
}

struct Case {
    func: String,
    p: HashMap<String, String>,
}

fn parse(name: &str) -> Case {
    let mut parts = name.split("__");
    let func = parts.next().unwrap().to_string();
    let p = parts
        .filter_map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect();
    Case { func, p }
}

fn list<T: std::str::FromStr>(v: &str) -> Option<Vec<T>>
where
    T::Err: std::fmt::Debug,
{
    (v != "-").then(|| v.split(',').map(|e| e.parse().unwrap()).collect())
}

fn run(c: &Case, x: &Array) -> gpu_fft::Result<Array> {
    let kind: u8 = c.p["type"].parse().unwrap();
    let norm: Norm = c.p["norm"].parse().unwrap();
    let orth = match c.p["orth"].as_str() {
        "-" => None,
        v => Some(v == "1"),
    };
    if c.func.ends_with('n') {
        let mut o = DctnOptions::new().kind(kind).norm(norm);
        o.s = list(&c.p["s"]);
        o.axes = list(&c.p["axes"]);
        o.orthogonalize = orth;
        match c.func.as_str() {
            "dctn" => gpu_fft::dctn_with(x, &o),
            "idctn" => gpu_fft::idctn_with(x, &o),
            "dstn" => gpu_fft::dstn_with(x, &o),
            _ => gpu_fft::idstn_with(x, &o),
        }
    } else {
        let mut o = DctOptions::new()
            .kind(kind)
            .norm(norm)
            .axis(c.p["axis"].parse().unwrap());
        o.n = list::<usize>(&c.p["n"]).map(|v| v[0]);
        o.orthogonalize = orth;
        match c.func.as_str() {
            "dct" => gpu_fft::dct_with(x, &o),
            "idct" => gpu_fft::idct_with(x, &o),
            "dst" => gpu_fft::dst_with(x, &o),
            _ => gpu_fft::idst_with(x, &o),
        }
    }
}

/// Host: the golden file parses and names known functions.
#[test]
fn realtrig_golden_file_is_well_formed() {
    let g = golden();
    let names: Vec<&String> = g.keys().filter(|k| k.ends_with(".x")).collect();
    assert!(names.len() > 400, "{} cases", names.len());
    for n in names {
        let base = n.trim_end_matches(".x");
        assert!(g.contains_key(&format!("{base}.y")), "{base}: no output");
        let c = parse(base);
        if c.func.contains("fht") {
            assert!(c.p.contains_key("dln") && c.p.contains_key("mu"), "{base}");
            continue;
        }
        assert!(TRIG.contains(&c.func.as_str()), "{base}");
        assert!(
            c.p.contains_key("type") && c.p.contains_key("norm"),
            "{base}"
        );
    }
}

#[test]
fn dct_and_dst_match_scipy() {
    let Some(_device) = dev() else {
        return;
    };
    let g = golden();
    let mut names: Vec<&String> = g.keys().filter(|k| k.ends_with(".x")).collect();
    names.sort();
    let mut checked = 0;
    for n in names {
        let base = n.trim_end_matches(".x");
        let c = parse(base);
        if !TRIG.contains(&c.func.as_str()) {
            continue;
        }
        let x = Array::from_npy(&g[n]).unwrap();
        let want = Array::from_npy(&g[&format!("{base}.y")]).unwrap();
        let want_v = want.to_vec_as::<Complex<f64>>().unwrap();
        let scale = 1.0 + want_v.iter().map(|z| z.norm()).fold(0.0, f64::max);
        let complex = x.dtype().is_complex();
        let singles = if complex {
            DType::Complex64
        } else {
            DType::Float32
        };
        for (dtype, tol) in [(x.dtype(), 1e-13), (singles, 2e-6)] {
            let xi = x.astype(dtype).unwrap();
            let got = run(&c, &xi).unwrap_or_else(|e| panic!("{base} {dtype}: {e}"));
            assert_eq!(got.shape(), want.shape(), "{base} {dtype}: shape");
            let expect_dtype = match (dtype, complex) {
                (DType::Float32, _) => DType::Float32,
                (DType::Complex64, _) => DType::Complex64,
                (_, true) => DType::Complex128,
                _ => DType::Float64,
            };
            assert_eq!(got.dtype(), expect_dtype, "{base}: dtype");
            let got_v = got.to_vec_as::<Complex<f64>>().unwrap();
            for (i, (a, b)) in got_v.iter().zip(&want_v).enumerate() {
                let d = (a - b).norm();
                assert!(
                    d <= tol * scale,
                    "{base} {dtype} [{i}]: got {a}, want {b} (|diff| {d:e})"
                );
            }
        }
        checked += 1;
    }
    assert!(checked > 400);
}

#[test]
fn bad_types_and_lengths_are_refused() {
    let Some(_device) = dev() else {
        return;
    };
    let x = gpu_array::creation::ones(4, DType::Float64).unwrap();
    let e = gpu_fft::dct_with(&x, &DctOptions::new().kind(5)).unwrap_err();
    assert_eq!(e.to_string(), "invalid DCT type 5");
    let one = gpu_array::creation::ones(1, DType::Float64).unwrap();
    assert!(gpu_fft::dct_with(&one, &DctOptions::new().kind(1)).is_err());
    assert!(gpu_fft::dct_with(&x, &DctOptions::new().n(0)).is_err());
    let m = gpu_array::creation::ones((2, 2), DType::Float64).unwrap();
    assert!(gpu_fft::dctn_with(&m, &DctnOptions::new().axes(&[0, 0])).is_err());
}

#[test]
fn fast_hankel_transforms_match_scipy() {
    let Some(_device) = dev() else {
        return;
    };
    let g = golden();
    let mut names: Vec<&String> = g
        .keys()
        .filter(|k| k.ends_with(".x") && (k.starts_with("fht__") || k.starts_with("ifht__")))
        .collect();
    names.sort();
    assert_eq!(names.len(), 10);
    for n in names {
        let base = n.trim_end_matches(".x");
        let c = parse(base);
        let f = |k: &str| c.p[k].parse::<f64>().unwrap();
        let o = gpu_fft::FhtOptions::new()
            .offset(f("offset"))
            .bias(f("bias"));
        let x = Array::from_npy(&g[n]).unwrap();
        let want = Array::from_npy(&g[&format!("{base}.y")])
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let scale = 1.0 + want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (dtype, tol) in [(DType::Float64, 1e-11), (DType::Float32, 5e-5)] {
            let xi = x.astype(dtype).unwrap();
            let got = if c.func == "fht" {
                gpu_fft::fht_with(&xi, f("dln"), f("mu"), &o)
            } else {
                gpu_fft::ifht_with(&xi, f("dln"), f("mu"), &o)
            }
            .unwrap_or_else(|e| panic!("{base}: {e}"));
            assert_eq!(got.dtype(), dtype, "{base}");
            let got = got.to_vec_as::<f64>().unwrap();
            for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                assert!(
                    (a - b).abs() <= tol * scale,
                    "{base} {dtype} [{i}]: {a} vs {b}"
                );
            }
        }
    }
}
