//! Every filter against SciPy's own outputs
//! (`testdata/filters_golden.npz`, written by `make_golden.py` beside
//! it): 1-D, 2-D and 3-D inputs of odd and even sizes, every mode,
//! nonzero origins, transposed (strided) inputs, float and integer dtypes.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::{Array, DType};
use gpu_ndimage::{self as nd, Mode, Output};
use gpu_testing::npz_members;

use crate::gpu;

fn p<'a>(params: &'a HashMap<&str, &str>, k: &str) -> &'a str {
    params.get(k).unwrap_or_else(|| panic!("case without {k}"))
}

fn num<T: std::str::FromStr>(params: &HashMap<&str, &str>, k: &str) -> T
where
    T::Err: std::fmt::Debug,
{
    p(params, k).parse().unwrap()
}

fn run(func: &str, params: &HashMap<&str, &str>, x: &Array, w: Option<&Array>) -> Array {
    let mode = Mode::parse(p(params, "mode")).unwrap();
    let cval: f64 = num(params, "cval");
    let out = match p(params, "out") {
        "-" => Output::None,
        "float32" => Output::DType(DType::Float32),
        "float64" => Output::DType(DType::Float64),
        "int16" => Output::DType(DType::Int16),
        o => panic!("output {o}"),
    };
    let origin = || num::<i64>(params, "origin");
    let axis = || num::<isize>(params, "axis");
    let size = || num::<usize>(params, "size");
    let sigma = || num::<f64>(params, "sigma");
    let wvec = || w.unwrap().to_vec::<f64>().unwrap();
    let m = &[mode];
    let r = match func {
        "correlate1d" => nd::correlate1d(x, &wvec(), axis(), out, mode, cval, origin()),
        "convolve1d" => nd::convolve1d(x, &wvec(), axis(), out, mode, cval, origin()),
        "uniform_filter1d" => nd::uniform_filter1d(x, size(), axis(), out, mode, cval, origin()),
        "minimum_filter1d" => nd::minimum_filter1d(x, size(), axis(), out, mode, cval, origin()),
        "maximum_filter1d" => nd::maximum_filter1d(x, size(), axis(), out, mode, cval, origin()),
        "gaussian_filter" => nd::gaussian_filter(
            x,
            &[sigma()],
            &[num(params, "order")],
            out,
            m,
            cval,
            4.0,
            None,
            None,
        ),
        "gaussian_filter1d" => nd::gaussian_filter1d(
            x,
            sigma(),
            axis(),
            num(params, "order"),
            out,
            mode,
            cval,
            4.0,
            None,
        ),
        "uniform_filter" => nd::uniform_filter(x, &[size()], out, m, cval, &[origin()], None),
        "minimum_filter" | "maximum_filter" | "median_filter" => {
            let (s, fp) = match w {
                Some(f) => (None, Some(f)),
                None => (Some(vec![size()]), None),
            };
            let f = match func {
                "minimum_filter" => nd::minimum_filter,
                "maximum_filter" => nd::maximum_filter,
                _ => nd::median_filter,
            };
            f(x, s.as_deref(), fp, out, m, cval, &[origin()], None)
        }
        "rank_filter" => nd::rank_filter(
            x,
            num(params, "rank"),
            None,
            w,
            out,
            m,
            cval,
            &[origin()],
            None,
        ),
        "percentile_filter" => nd::percentile_filter(
            x,
            num(params, "pct"),
            None,
            w,
            out,
            m,
            cval,
            &[origin()],
            None,
        ),
        "correlate" => nd::correlate(x, w.unwrap(), out, m, cval, &[origin()], None),
        "convolve" => nd::convolve(x, w.unwrap(), out, m, cval, &[origin()], None),
        "sobel" => nd::sobel(x, axis(), out, m, cval),
        "prewitt" => nd::prewitt(x, axis(), out, m, cval),
        "laplace" => nd::laplace(x, out, m, cval, None),
        "gaussian_laplace" => nd::gaussian_laplace(x, &[sigma()], out, m, cval, 4.0, None),
        "gaussian_gradient_magnitude" => {
            nd::gaussian_gradient_magnitude(x, &[sigma()], out, m, cval, 4.0, None)
        }
        f => panic!("no case for {f}"),
    };
    r.unwrap_or_else(|e| panic!("{func} {params:?}: {e}"))
}

#[test]
fn filters_match_scipy() {
    if !gpu() {
        return;
    }
    let golden =
        npz_members(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/filters_golden.npz"));
    let mut names: Vec<&String> = golden.keys().filter(|k| k.ends_with(".x")).collect();
    names.sort();
    assert!(names.len() > 1000, "{} cases", names.len());
    for key in names {
        let name = key.trim_end_matches(".x");
        let mut parts = name.split("__");
        let func = parts.next().unwrap();
        let params: HashMap<&str, &str> = parts.filter_map(|kv| kv.split_once('=')).collect();
        let x = Array::from_npy(&golden[key]).unwrap();
        let x = if p(&params, "t") == "1" { x.T() } else { x };
        let w = golden
            .get(&format!("{name}.w"))
            .map(|w| Array::from_npy(w).unwrap());
        let want = &golden[&format!("{name}.y")];
        let got = run(func, &params, &x, w.as_ref());
        assert_eq!(got.dtype(), want.dtype, "{name}: dtype");
        assert_eq!(got.shape(), &want.shape[..], "{name}: shape");
        let got_v = got.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
        let want_v = Array::from_npy(want)
            .unwrap()
            .astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        // Sums in SciPy's order and in double: float64 to a few ulps;
        // float32 to its rounding; integers exact, but a truncated mean or
        // Gaussian may land one below or above a near-integer.
        let (rtol, atol) = match got.dtype() {
            DType::Float64 => (1e-12, 1e-12),
            DType::Float32 => (1e-5, 1e-5),
            _ if func.starts_with("uniform") || func.starts_with("gaussian") => (0.0, 1.0),
            _ => (0.0, 0.0),
        };
        for (i, (g, e)) in got_v.iter().zip(&want_v).enumerate() {
            assert!(
                (g - e).abs() <= atol + rtol * e.abs(),
                "{name}: element {i}: got {g}, SciPy {e}"
            );
        }
    }
}

#[test]
fn output_arrays_and_errors() {
    if !gpu() {
        return;
    }
    let x = Array::from_slice(&[2i64, 8, 0, 4, 1, 9, 9, 0], &[8]).unwrap();
    let y = nd::correlate1d(&x, &[1.0, 3.0], -1, Output::None, Mode::Reflect, 0.0, 0).unwrap();
    assert_eq!(y.to_vec::<i64>().unwrap(), [8, 26, 8, 12, 7, 28, 36, 9]);
    let z = Array::zeros([16], DType::Float64).unwrap();
    let view = z.slice(&gpu_array::s![..;2]).unwrap();
    let r = nd::convolve1d(
        &x,
        &[1.0, 3.0],
        -1,
        Output::Array(&view),
        Mode::Reflect,
        0.0,
        0,
    )
    .unwrap();
    assert_eq!(
        r.to_vec::<f64>().unwrap(),
        [14., 24., 4., 13., 12., 36., 27., 0.]
    );
    assert_eq!(z.to_vec::<f64>().unwrap()[2], 24.0);
    let bad = Array::zeros([7], DType::Float64).unwrap();
    let e = nd::correlate1d(&x, &[1.0], 0, Output::Array(&bad), Mode::Reflect, 0.0, 0).unwrap_err();
    assert_eq!(e.to_string(), "output shape not correct");
    let e = nd::correlate1d(&x, &[], 0, Output::None, Mode::Reflect, 0.0, 0).unwrap_err();
    assert_eq!(e.to_string(), "no filter weights given");
    let w = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let x2 = Array::zeros([3, 3], DType::Float32).unwrap();
    let e = nd::correlate(&x2, &w, Output::None, &[Mode::Reflect], 0.0, &[0], None).unwrap_err();
    assert_eq!(e.to_string(), "weights.ndim (1) must match len(axes) (2)");
    let e = nd::rank_filter(
        &x2,
        9,
        Some(&[3]),
        None,
        Output::None,
        &[Mode::Reflect],
        0.0,
        &[0],
        None,
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "rank not within filter footprint size");
    let big = Array::zeros([30, 30], DType::Float32).unwrap();
    let e = nd::median_filter(
        &big,
        Some(&[27]),
        None,
        Output::None,
        &[Mode::Reflect],
        0.0,
        &[0],
        None,
    )
    .unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
}
