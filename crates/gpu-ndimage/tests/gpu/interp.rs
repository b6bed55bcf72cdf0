//! The interpolation functions against SciPy's own outputs
//! (`testdata/golden_interp.npz`, `make_golden_interp.py`): every order and
//! mode, 1-D/2-D/3-D, zoom with and without grid_mode, rotate with and
//! without reshape, float32/float64/uint8/int16 outputs, prefilter off.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType};
use gpu_ndimage::{
    AffineMatrix, InterpOptions, Mode, Output, affine_transform, map_coordinates, rotate, shift,
    spline_filter, spline_filter1d, zoom,
};

use crate::gpu;

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/golden_interp.npz");
    gpu_testing::npz_members(p)
}

/// The case's options from its name: `o<order>`, the mode, `pf<0|1>`,
/// `c<cval>`, `g<0|1>`, `r<0|1>`, `ax<n>`, a dtype name.
struct Case {
    func: String,
    order: usize,
    mode: Mode,
    prefilter: bool,
    cval: f64,
    flag: bool,
    axis: isize,
    dtype: Option<DType>,
}

fn parse(name: &str) -> Case {
    let mut c = Case {
        func: String::new(),
        order: 3,
        mode: Mode::Constant,
        prefilter: true,
        cval: 0.0,
        flag: false,
        axis: 0,
        dtype: None,
    };
    for (i, part) in name.split("__").enumerate() {
        if i == 0 {
            c.func = part.to_string();
        } else if let Ok(m) = Mode::parse(part) {
            c.mode = m;
        } else if let Some(v) = part.strip_prefix("pf") {
            c.prefilter = v == "1";
        } else if let Some(v) = part.strip_prefix("ax") {
            c.axis = v.parse().unwrap();
        } else if let Some(v) = part.strip_prefix('o').and_then(|v| v.parse().ok()) {
            c.order = v;
        } else if let Some(v) = part.strip_prefix('c').and_then(|v| v.parse().ok()) {
            c.cval = v;
        } else if let Some(v) = part.strip_prefix('g').or(part.strip_prefix('r')) {
            c.flag = v == "1";
        } else {
            c.dtype = Some(match part {
                "f32" | "float32" => DType::Float32,
                "float64" => DType::Float64,
                "uint8" => DType::UInt8,
                "int16" => DType::Int16,
                p => panic!("unknown case part {p}"),
            });
        }
    }
    c
}

fn run(name: &str, c: &Case, x: &Array, coords: Option<&Array>) -> Array {
    let p = InterpOptions::default()
        .order(c.order)
        .mode(c.mode)
        .cval(c.cval)
        .prefilter(c.prefilter)
        .output(c.dtype.map_or(Output::None, Output::DType));
    match c.func.as_str() {
        "sf1d" => spline_filter1d(x, c.order, c.axis, Output::None, c.mode),
        "sf" => spline_filter(x, c.order, p.output, c.mode),
        "mc1" | "mc2" => map_coordinates(x, coords.unwrap(), &p),
        "zoomdt" => zoom(x, &[1.7], false, &p),
        "zoom2" => zoom(x, &[1.5, 0.8], c.flag, &p),
        "zoom3" => zoom(x, &[1.3], false, &p),
        "shift2" => shift(x, &[1.25, -2.5], &p.clone().cval(0.5)),
        "aff2" => {
            let m = AffineMatrix {
                data: &[0.9, 0.2, -0.3, 1.1],
                shape: &[2, 2],
            };
            affine_transform(x, &m, &[0.5, -1.0], Some(&[12, 9]), &p)
        }
        "affh2" => {
            let m = AffineMatrix {
                data: &[0.9, 0.2, 0.5, -0.3, 1.1, -1.0, 0.0, 0.0, 1.0],
                shape: &[3, 3],
            };
            affine_transform(x, &m, &[0.0], None, &p)
        }
        "affd2" => {
            let m = AffineMatrix {
                data: &[0.7, 1.3],
                shape: &[2],
            };
            affine_transform(x, &m, &[0.25], None, &p)
        }
        "rot2" => rotate(x, 33.0, (1, 0), c.flag, &p),
        "rot3" => rotate(x, -20.0, (2, 0), true, &p),
        f => panic!("unknown function {f} in {name}"),
    }
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Golden cases Cuprum does not match yet, each with what the GPU showed
/// (the closing note of the session lists them as open work). Empty: the
/// one entry, `aff2__o0__mirror` (H100: -0.885 vs 0.585 at element 19),
/// came from summing the affine map's terms in another order than SciPy,
/// which puts a coordinate one ulp off -0.5; the kernels now sum as SciPy.
const KNOWN_DIFFERENCES: &[&str] = &[];

#[test]
fn interpolation_matches_scipy() {
    if !gpu() {
        return;
    }
    let g = goldens();
    let mut names: Vec<&String> = g.keys().filter(|k| k.ends_with("__out")).collect();
    names.sort();
    let mut failures = Vec::new();
    for key in names {
        let name = &key[..key.len() - "__out".len()];
        if KNOWN_DIFFERENCES.iter().any(|k| name.starts_with(k)) {
            continue;
        }
        let c = parse(name);
        let x = Array::from_npy(&g[&format!("{name}__in")]).unwrap();
        let coords = g
            .get(&format!("{name}__coords"))
            .map(|a| Array::from_npy(a).unwrap());
        let want_npy = &g[key.as_str()];
        let got = run(name, &c, &x, coords.as_ref());
        if got.shape() != want_npy.shape.as_slice() || got.dtype() != want_npy.dtype {
            failures.push(format!(
                "{name}: shape/dtype {:?} {} vs {:?} {}",
                got.shape(),
                got.dtype(),
                want_npy.shape,
                want_npy.dtype
            ));
            continue;
        }
        let got = got.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
        let want = Array::from_npy(want_npy)
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        // Integer outputs: SciPy's rounding exactly (1 allowed where the
        // float sum straddles a half); floats: float32's or float64's
        // accuracy (reflect prefilters carry SciPy's ~1e-9 departure).
        // Order 5 with the reflecting and nearest modes: the H100 showed
        // up to 1e-7 against SciPy 1.17, whose causal start for the second
        // pole departs from the exact half-sample-symmetric sum that
        // spline_filter1d computes (checked against an FFT reference).
        let order5_reflecting =
            c.order == 5 && matches!(c.mode, Mode::Reflect | Mode::GridMirror | Mode::Nearest);
        let tol = match want_npy.dtype {
            DType::Float64 if order5_reflecting => 1e-6,
            DType::Float64 => 1e-8,
            DType::Float32 => 1e-5,
            _ => 1.0,
        };
        for (i, (a, b)) in got.iter().zip(&want).enumerate() {
            let ok = (a - b).abs() <= tol * (1.0 + b.abs()) || (a.is_nan() && b.is_nan());
            if !ok {
                failures.push(format!("{name}[{i}]: {a} vs SciPy's {b}"));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_are_scipys() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let bad = Array::from_slice(&[0.0f64; 3], &[3, 1]).unwrap();
    let e = map_coordinates(&x, &bad, &InterpOptions::default()).unwrap_err();
    assert!(e.to_string().contains("invalid shape for coordinate array"));
    let p = InterpOptions::default().order(6);
    let e = zoom(&x, &[2.0], false, &p).unwrap_err();
    assert!(e.to_string().contains("spline order not supported"));
    let e = spline_filter(&x, 1, Output::None, Mode::Mirror).unwrap_err();
    assert!(e.to_string().contains("spline order not supported"));
    let e = rotate(&x, 10.0, (0, 5), true, &InterpOptions::default()).unwrap_err();
    assert!(e.to_string().contains("invalid rotation plane specified"));
}

#[test]
fn geometric_transform_runs_the_device_mapping() {
    if !gpu() {
        return;
    }
    // The mapping of shift(x, 0.5): o - 0.5 on every axis.
    let x = Array::from_slice(&(0..30).map(f64::from).collect::<Vec<_>>(), &[5, 6]).unwrap();
    let src = "__device__ void mapping(const long long* o, double* c, int on, int in) \
               { for (int d = 0; d < in; ++d) c[d] = (double)o[d] - 0.5; }";
    let p = InterpOptions::default().order(3).mode(Mode::Nearest);
    let got = gpu_ndimage::geometric_transform(&x, src, None, &p)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let want = shift(&x, &[0.5], &p).unwrap().to_vec::<f64>().unwrap();
    for (a, b) in got.iter().zip(&want) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
}

/// zoom and shift of images take the tiled 2-D kernel (`zoom.rs`);
/// map_coordinates at the same coordinates takes the general one. On
/// images of several tiles each way (32 rows by 256 columns a tile,
/// partial ones at the ends), every mode and the orders 0, 1 and 3 (with
/// its prefilter), the two agree to the bit (both round each operation on
/// its own, as SciPy's); then an output of more tiles than a launch has
/// blocks.
#[test]
fn tiled_zoom_and_shift_agree_with_map_coordinates() {
    if !gpu() {
        return;
    }
    let (n0, n1) = (70usize, 300usize);
    let xs: Vec<f32> = (0..n0 * n1)
        .map(|k| ((k * 7919 % 1013) as f32 / 50.0 - 10.0) * if k % 5 == 0 { -1.0 } else { 1.0 })
        .collect();
    let x = Array::from_slice(&xs, &[n0, n1]).unwrap();
    let coords_at = |m0: usize, m1: usize, c0: &dyn Fn(f64) -> f64, c1: &dyn Fn(f64) -> f64| {
        let mut c = Vec::with_capacity(2 * m0 * m1);
        for i in 0..m0 {
            c.extend(std::iter::repeat_n(c0(i as f64), m1));
        }
        for _ in 0..m0 {
            c.extend((0..m1).map(|j| c1(j as f64)));
        }
        Array::from_slice(&c, &[2, m0, m1]).unwrap()
    };
    for (mi, &mode) in gpu_ndimage::Mode::ALL.iter().enumerate() {
        for order in [0usize, 1, 3] {
            let p = InterpOptions::default().order(order).mode(mode).cval(-2.5);
            // zoom by 2 (corner pixels aligned): o * (n - 1) / (m - 1).
            let got = zoom(&x, &[2.0], false, &p).unwrap();
            let (m0, m1) = (2 * n0, 2 * n1);
            let (z0, z1) = (
                (n0 - 1) as f64 / (m0 - 1) as f64,
                (n1 - 1) as f64 / (m1 - 1) as f64,
            );
            let want =
                map_coordinates(&x, &coords_at(m0, m1, &|o| o * z0, &|o| o * z1), &p).unwrap();
            same(&got, &want, &format!("zoom {mode:?} order {order}"));
            // shift by a fraction, a different one per axis.
            let s = [1.25 + mi as f64, -3.5];
            let got = shift(&x, &s, &p).unwrap();
            let want =
                map_coordinates(&x, &coords_at(n0, n1, &|o| o - s[0], &|o| o - s[1]), &p).unwrap();
            same(&got, &want, &format!("shift {mode:?} order {order}"));
        }
    }
    // 1600 x 8192 out: 1600 tiles, where a launch has 8 blocks a
    // multiprocessor (1056 on an H100 or H200).
    let big: Vec<f32> = (0..800 * 4096)
        .map(|k| (k % 977) as f32 * 0.25 - 99.0)
        .collect();
    let xb = Array::from_slice(&big, &[800, 4096]).unwrap();
    let p = InterpOptions::default().order(1).mode(Mode::Nearest);
    let got = zoom(&xb, &[2.0], false, &p).unwrap();
    let (z0, z1) = (799.0 / 1599.0, 4095.0 / 8191.0);
    let want = map_coordinates(&xb, &coords_at(1600, 8192, &|o| o * z0, &|o| o * z1), &p).unwrap();
    same(&got, &want, "zoom 800 x 4096 by 2");
    // An integer output: SciPy's rounding, the same in both kernels.
    let p = InterpOptions::default()
        .order(1)
        .output(Output::DType(DType::Int16));
    let got = shift(&x, &[0.5, 0.25], &p).unwrap();
    let want = map_coordinates(&x, &coords_at(n0, n1, &|o| o - 0.5, &|o| o - 0.25), &p).unwrap();
    assert_eq!(
        got.to_vec::<i16>().unwrap(),
        want.to_vec::<i16>().unwrap(),
        "int16 shift"
    );
}

fn same(got: &Array, want: &Array, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    let g = got.to_vec::<f32>().unwrap();
    let w = want.to_vec::<f32>().unwrap();
    for (k, (a, b)) in g.iter().zip(&w).enumerate() {
        assert!(
            a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
            "{what}: element {k}: tiled {a}, general {b}"
        );
    }
}
