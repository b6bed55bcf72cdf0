//! gpu-signal on a real GPU, one test binary: every function against
//! SciPy's outputs (`testdata/signal_golden.npz`, `make_golden.py`): the
//! convolutions (`convolution`) and the order and Wiener filters
//! (`filters`), resampling (`resampling`), spectral analysis and windows
//! (`spectral`, `spectral_golden.npz` from `make_golden_spectral.py`).
//! Each test skips with a reason without a GPU.

mod convolution;
mod filtering;
mod filters;
mod resampling;
mod spectral;

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType, ufunc};

/// The device, or `None` (the test then returns early, having printed why).
fn gpu() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/signal_golden.npz");
    gpu_testing::npz_members(p)
}

/// The cases whose name starts with `prefix`, sorted.
fn cases<'a>(golden: &'a HashMap<String, NpyArray>, prefix: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = golden
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .filter(|k| k.split("__").next() == Some(prefix))
        .collect();
    v.sort_unstable();
    v
}

/// The largest difference between `got` and `want` relative to `want`'s
/// largest magnitude (at least 1).
fn max_rel_diff(got: &Array, want: &Array) -> f64 {
    let wide = |a: &Array| {
        let dt = if a.dtype().is_complex() {
            DType::Complex128
        } else {
            DType::Float64
        };
        a.astype(dt).unwrap()
    };
    let (g, w) = (wide(got), wide(want));
    let diff = ufunc::absolute(ufunc::subtract(&g, &w).unwrap()).unwrap();
    let diff = diff
        .astype(DType::Float64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let mag = ufunc::absolute(&w).unwrap().astype(DType::Float64).unwrap();
    let scale = mag
        .to_vec::<f64>()
        .unwrap()
        .into_iter()
        .fold(1.0f64, f64::max);
    diff.into_iter().fold(0.0f64, f64::max) / scale
}

/// The tolerance for a result of `dt` (single precision looser).
fn tol(dt: DType) -> f64 {
    match dt {
        DType::Float32 | DType::Complex64 => 1e-5,
        _ => 1e-11,
    }
}
