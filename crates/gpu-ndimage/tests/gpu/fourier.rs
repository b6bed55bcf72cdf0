//! The Fourier filters against SciPy's own outputs
//! (`testdata/golden_fourier.npz`, `make_golden_fourier.py`): 1-D, 2-D
//! and 3-D transforms of odd and even lengths, complex and real (`n`)
//! transforms along either end axis, real, integer and complex inputs,
//! strided (transposed) inputs, every output dtype; then an output array
//! view and SciPy's errors.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType, ufunc};
use gpu_ndimage::{
    FourierOptions, Output, fourier_ellipsoid_with, fourier_gaussian, fourier_gaussian_with,
    fourier_shift_with, fourier_uniform_with,
};

use crate::gpu;

pub(crate) fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/golden_fourier.npz");
    gpu_testing::npz_members(p)
}

/// The largest difference between `got` and `want` (any real or complex
/// dtypes), relative to `want`'s largest magnitude (at least 1).
pub(crate) fn max_rel_diff(got: &Array, want: &Array) -> f64 {
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

fn dtype(name: &str) -> DType {
    match name {
        "float32" => DType::Float32,
        "float64" => DType::Float64,
        "complex64" => DType::Complex64,
        "complex128" => DType::Complex128,
        d => panic!("output dtype {d}"),
    }
}

#[test]
fn fourier_filters_match_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let mut names: Vec<&str> = golden
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .filter(|k| {
            ["gauss", "unif", "ell", "shift"]
                .iter()
                .any(|f| k.starts_with(f))
        })
        .collect();
    names.sort_unstable();
    assert!(names.len() > 300, "{} cases", names.len());
    for name in names {
        let parts: Vec<&str> = name.split("__").collect();
        let [func, _shape, _dt, n, ax, t, o] = parts[..] else {
            panic!("case {name}");
        };
        let x = Array::from_npy(&golden[&format!("{name}__in")]).unwrap();
        let x = if t == "t1" { x.T() } else { x };
        let p = Array::from_npy(&golden[&format!("{name}__p")])
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        let want = Array::from_npy(&golden[&format!("{name}__out")]).unwrap();
        let mut opts = FourierOptions::default().axis(ax[2..].parse().unwrap());
        let n: i64 = n[1..].parse().unwrap();
        if n >= 0 {
            opts = opts.n(n as usize);
        }
        if o != "o-" {
            opts = opts.output(Output::DType(dtype(&o[1..])));
        }
        let got = match func {
            "gauss" => fourier_gaussian_with(&x, &p, &opts),
            "unif" => fourier_uniform_with(&x, &p, &opts),
            "ell" => fourier_ellipsoid_with(&x, &p, &opts),
            _ => fourier_shift_with(&x, &p, &opts),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), want.dtype(), "{name}");
        assert_eq!(got.shape(), want.shape(), "{name}");
        let single = matches!(want.dtype(), DType::Float32 | DType::Complex64);
        let tol = if single { 1e-6 } else { 1e-12 };
        let d = max_rel_diff(&got, &want);
        assert!(d <= tol, "{name}: relative difference {d:e}");
    }
}

#[test]
fn fourier_outputs_and_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2, 3]).unwrap();
    // Into every other element of a wider array.
    let wide = Array::zeros([2, 6], DType::Complex128).unwrap();
    let view = wide.slice(&gpu_array::s![.., ..;2]).unwrap();
    let o = FourierOptions::default().output(Output::Array(&view));
    let into = fourier_gaussian_with(&x, &[1.0], &o).unwrap();
    let direct = fourier_gaussian_with(
        &x,
        &[1.0],
        &FourierOptions::default().output(Output::DType(DType::Complex128)),
    )
    .unwrap();
    assert_eq!(max_rel_diff(&into, &direct), 0.0);
    let odd = wide.slice(&gpu_array::s![.., 1..;2]).unwrap();
    let zeros = ufunc::absolute(&odd).unwrap().to_vec::<f64>().unwrap();
    assert!(zeros.iter().all(|&v| v == 0.0));
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let int_out = FourierOptions::default().output(Output::DType(DType::Int32));
    assert_eq!(
        err(fourier_gaussian_with(&x, &[1.0], &int_out)),
        "output type not supported"
    );
    let real_out = FourierOptions::default().output(Output::DType(DType::Float64));
    assert_eq!(
        err(fourier_shift_with(&x, &[1.0], &real_out)),
        "output type not supported"
    );
    let c = x.astype(DType::Complex128).unwrap();
    assert_eq!(
        err(fourier_gaussian_with(&c, &[1.0], &real_out)),
        "data type not supported"
    );
    assert_eq!(
        err(fourier_gaussian_with(
            &x,
            &[1.0, 2.0, 3.0],
            &FourierOptions::default()
        )),
        "sequence argument must have length equal to input rank"
    );
    let bad = Array::zeros([3, 2], DType::Float64).unwrap();
    let o = FourierOptions::default().output(Output::Array(&bad));
    assert_eq!(
        err(fourier_gaussian_with(&x, &[1.0], &o)),
        "output shape not correct"
    );
    let four = Array::zeros([2, 2, 2, 2], DType::Float64).unwrap();
    assert_eq!(
        err(gpu_ndimage::fourier_ellipsoid(&four, 1.0)),
        "Only 1d, 2d and 3d inputs are supported"
    );
    let e = fourier_gaussian_with(&x, &[1.0], &FourierOptions::default().axis(2));
    assert!(e.is_err());
    assert_eq!(
        fourier_gaussian(&Array::zeros([0], DType::Float64).unwrap(), 1.0)
            .unwrap()
            .size(),
        0
    );
}
