//! Every filter against SciPy's own outputs
//! (`testdata/filters_golden.npz`, written by `make_golden.py` beside
//! it): 1-D, 2-D and 3-D inputs of odd and even sizes, every mode,
//! nonzero origins, transposed (strided) inputs, float and integer dtypes.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::{Array, DType};
use gpu_ndimage::{self as nd, FilterOptions, Gaussian, Mode, Output, Window};
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
        "complex128" => Output::DType(DType::Complex128),
        o => panic!("output {o}"),
    };
    // The filters without `origin=` in SciPy have none in their case names.
    let origin = || {
        params
            .get("origin")
            .map_or(0, |v| v.parse::<i64>().unwrap())
    };
    let axis = || num::<isize>(params, "axis");
    let size = || num::<usize>(params, "size");
    let sigma = || num::<f64>(params, "sigma");
    let wvec = || w.unwrap().to_vec::<f64>().unwrap();
    let o = FilterOptions::default()
        .output(out)
        .mode(mode)
        .cval(cval)
        .origin(origin());
    // The filters without `origin=` in SciPy.
    let plain = FilterOptions::default().output(out).mode(mode).cval(cval);
    let gauss = || Gaussian::new(sigma()).order(num(params, "order"));
    let sides: Vec<usize> = params.get("size").map(|_| vec![size()]).unwrap_or_default();
    let window = || match w {
        Some(f) => Window::Footprint(f),
        None => Window::Size(&sides),
    };
    let r = match func {
        "correlate1d" => nd::correlate1d_with(x, &wvec(), axis(), &o),
        "convolve1d" => nd::convolve1d_with(x, &wvec(), axis(), &o),
        "uniform_filter1d" => nd::uniform_filter1d_with(x, size(), axis(), &o),
        "minimum_filter1d" => nd::minimum_filter1d_with(x, size(), axis(), &o),
        "maximum_filter1d" => nd::maximum_filter1d_with(x, size(), axis(), &o),
        "gaussian_filter" => nd::gaussian_filter_with(x, &gauss(), &plain),
        "gaussian_filter1d" => nd::gaussian_filter1d_with(x, &gauss(), axis(), &plain),
        "uniform_filter" => nd::uniform_filter_with(x, &[size()], &o),
        "minimum_filter" => nd::minimum_filter_with(x, window(), &o),
        "maximum_filter" => nd::maximum_filter_with(x, window(), &o),
        "median_filter" => nd::median_filter_with(x, window(), &o),
        "rank_filter" => nd::rank_filter_with(x, num(params, "rank"), window(), &o),
        "percentile_filter" => nd::percentile_filter_with(x, num(params, "pct"), window(), &o),
        "correlate" => nd::correlate_with(x, w.unwrap(), &o),
        "convolve" => nd::convolve_with(x, w.unwrap(), &o),
        "sobel" => nd::sobel_with(x, axis(), &plain),
        "prewitt" => nd::prewitt_with(x, axis(), &plain),
        "laplace" => nd::laplace_with(x, &plain),
        "gaussian_laplace" => nd::gaussian_laplace_with(x, &Gaussian::new(sigma()), &plain),
        "gaussian_gradient_magnitude" => {
            nd::gaussian_gradient_magnitude_with(x, &Gaussian::new(sigma()), &plain)
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
        // Complex results compare as their real parts then their
        // imaginary parts.
        let values = |a: &Array| -> Vec<f64> {
            let f64s = |a: &Array| a.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
            if a.dtype().is_complex() {
                let mut v = f64s(&a.real());
                v.extend(f64s(&a.imag().unwrap()));
                v
            } else {
                f64s(a)
            }
        };
        let got_v = values(&got);
        let want_v = values(&Array::from_npy(want).unwrap());
        // Sums in SciPy's order and in double: float64 to a few ulps;
        // float32 to its rounding; integers exact, but a truncated mean or
        // Gaussian may land one below or above a near-integer.
        let (rtol, atol) = match got.dtype() {
            DType::Float64 | DType::Complex128 => (1e-12, 1e-12),
            DType::Float32 | DType::Complex64 => (1e-5, 1e-5),
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
    let y = nd::correlate1d(&x, &[1.0, 3.0], -1).unwrap();
    assert_eq!(y.to_vec::<i64>().unwrap(), [8, 26, 8, 12, 7, 28, 36, 9]);
    let z = Array::zeros([16], DType::Float64).unwrap();
    let view = z.slice(&gpu_array::s![..;2]).unwrap();
    let into_view = FilterOptions::default().out(&view);
    let r = nd::convolve1d_with(&x, &[1.0, 3.0], -1, &into_view).unwrap();
    assert_eq!(
        r.to_vec::<f64>().unwrap(),
        [14., 24., 4., 13., 12., 36., 27., 0.]
    );
    assert_eq!(z.to_vec::<f64>().unwrap()[2], 24.0);
    let bad = Array::zeros([7], DType::Float64).unwrap();
    let e = nd::correlate1d_with(&x, &[1.0], 0, &FilterOptions::default().out(&bad)).unwrap_err();
    assert_eq!(e.to_string(), "output shape not correct");
    let e = nd::correlate1d(&x, &[], 0).unwrap_err();
    assert_eq!(e.to_string(), "no filter weights given");
    let w = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let x2 = Array::zeros([3, 3], DType::Float32).unwrap();
    let e = nd::correlate(&x2, &w).unwrap_err();
    assert_eq!(e.to_string(), "weights.ndim (1) must match len(axes) (2)");
    let e = nd::rank_filter(&x2, 9, Window::Size(&[3])).unwrap_err();
    assert_eq!(e.to_string(), "rank not within filter footprint size");
    let big = Array::zeros([30, 30], DType::Float32).unwrap();
    let e = nd::median_filter(&big, Window::Size(&[27])).unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
    // Complex data: the linear filters take it through its parts into a
    // complex output (an output array must be one), and so do those built
    // on them (the gradient magnitude is SciPy's sqrt of the complex
    // squares' sum, not a modulus); the others refuse it as SciPy does;
    // complex weights are not taken.
    let c = x2.astype(DType::Complex64).unwrap();
    let e = nd::uniform_filter1d_with(&c, 3, 0, &FilterOptions::default().out(&x2)).unwrap_err();
    assert_eq!(e.to_string(), "output must have complex dtype");
    let into = Array::zeros([3, 3], DType::Complex128).unwrap();
    let r = nd::uniform_filter_with(&c, &[3], &FilterOptions::default().out(&into)).unwrap();
    assert_eq!(r.dtype(), DType::Complex128);
    let ggm = nd::gaussian_gradient_magnitude(&c, 1.0).unwrap();
    assert_eq!(ggm.dtype(), DType::Complex64);
    let deriv = |o: &[i64]| {
        let g = Gaussian::new(1.0).orders(o);
        nd::gaussian_filter_with(&c, &g, &FilterOptions::default()).unwrap()
    };
    let (g0, g1) = (deriv(&[1, 0]), deriv(&[0, 1]));
    let sq = |a: &Array| gpu_array::ufunc::multiply(a, a).unwrap();
    let want = gpu_array::ufunc::sqrt(gpu_array::ufunc::add(sq(&g0), sq(&g1)).unwrap()).unwrap();
    let (got, want) = (
        ggm.to_vec::<num_complex::Complex32>().unwrap(),
        want.to_vec::<num_complex::Complex32>().unwrap(),
    );
    assert!(
        got.iter()
            .zip(&want)
            .all(|(u, v)| (u - v).norm() <= 1e-5 * v.norm().max(1.0)),
        "complex gradient magnitude {got:?} vs {want:?}"
    );
    let e = nd::gaussian_laplace_with(&c, &Gaussian::new(1.0), &FilterOptions::default().out(&x2))
        .unwrap_err();
    assert_eq!(e.to_string(), "output must have complex dtype");
    let e = nd::median_filter(&c, Window::Size(&[3])).unwrap_err();
    assert_eq!(e.to_string(), "Complex type not supported");
    let wc = Array::zeros([2, 2], DType::Complex64).unwrap();
    let e = nd::correlate(&x2, &wc).unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
}

/// generic_filter and generic_filter1d against the built-in filters they
/// can express (each of which matches SciPy above): the maximum over a
/// cross footprint with an origin, and a 3-long running mean, with
/// every mode, strided input and an integer output.
#[test]
fn generic_filters_agree_with_the_built_in_ones() {
    if !gpu() {
        return;
    }
    let v: Vec<f64> = (0..7 * 9).map(|k| ((k * 37) % 23) as f64 - 11.5).collect();
    let x = Array::from_slice(&v, &[7, 9]).unwrap();
    let cross = Array::from_slice(
        &[false, true, false, true, true, true, false, true, false],
        &[3, 3],
    )
    .unwrap();
    let max = "__device__ double function(const double* b, long long n) { \
               double m = b[0]; for (long long k = 1; k < n; ++k) m = b[k] > m ? b[k] : m; \
               return m; }";
    let mean3 = "__device__ void function(const double* in, long long il, double* out, \
                 long long ol) { for (long long i = 0; i < ol; ++i) \
                 out[i] = ((in[i] + in[i + 1]) + in[i + 2]) / 3.0; }";
    for mode in ["reflect", "constant", "nearest", "mirror", "wrap"] {
        let o = FilterOptions::default()
            .mode(Mode::parse(mode).unwrap())
            .cval(2.5);
        let shifted = o.clone().origins(&[1, 0]);
        for input in [x.clone(), x.T()] {
            let want =
                nd::maximum_filter_with(&input, Window::Footprint(&cross), &shifted).unwrap();
            let got =
                nd::generic_filter_with(&input, max, Window::Footprint(&cross), &shifted).unwrap();
            assert_eq!(
                got.to_vec::<f64>().unwrap(),
                want.to_vec::<f64>().unwrap(),
                "{mode}"
            );
            for axis in [0, 1] {
                let want = nd::uniform_filter1d_with(&input, 3, axis, &o).unwrap();
                let got = nd::generic_filter1d_with(&input, mean3, 3, axis, &o).unwrap();
                let (g, w) = (got.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
                for (a, b) in g.iter().zip(&w) {
                    assert!((a - b).abs() < 1e-12, "{mode} axis {axis}: {a} vs {b}");
                }
            }
        }
    }
    let ints = FilterOptions::default().dtype(DType::Int16);
    let got = nd::generic_filter_with(&x, max, Window::Size(&[2, 3]), &ints).unwrap();
    let want = nd::maximum_filter_with(&x, Window::Size(&[2, 3]), &ints).unwrap();
    assert_eq!(got.to_vec::<i16>().unwrap(), want.to_vec::<i16>().unwrap());
    let e = nd::generic_filter(&x, "not cuda", Window::Size(&[3])).unwrap_err();
    assert!(!e.to_string().is_empty());
    let e = nd::generic_filter1d(&x, mean3, 0, 0).unwrap_err();
    assert_eq!(e.to_string(), "invalid filter size");
}
