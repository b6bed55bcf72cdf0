//! convolve, correlate, fftconvolve, convolve2d and correlate2d against
//! SciPy: 1-D, 2-D and 3-D, every mode and method, float64, float32,
//! complex128 and int32 (exact), every boundary; then SciPy's errors.

use gpu_array::{Array, DType};
use gpu_signal::{
    Boundary, Conv2dOptions, ConvolveOptions, FftConvolveOptions, Method, Mode, convolve_with,
    convolve2d_with, correlate_with, correlate2d_with, fftconvolve_with,
};

use crate::{cases, goldens, gpu, max_rel_diff, tol};

fn check(name: &str, got: &Array, want: &Array) {
    assert_eq!(got.dtype(), want.dtype(), "{name}");
    assert_eq!(got.shape(), want.shape(), "{name}");
    if want.dtype().is_integer() {
        let (g, w) = (
            got.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap(),
            want.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap(),
        );
        assert_eq!(g, w, "{name}");
    } else {
        let d = max_rel_diff(got, want);
        assert!(d <= tol(want.dtype()), "{name}: relative difference {d:e}");
    }
}

#[test]
fn convolutions_match_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let load =
        |name: &str, part: &str| Array::from_npy(&golden[&format!("{name}__{part}")]).unwrap();
    let mut n = 0;
    for f in ["convolve", "correlate"] {
        for name in cases(&golden, f) {
            let parts: Vec<&str> = name.split("__").collect();
            let o = ConvolveOptions::default()
                .mode(parts[2].parse().unwrap())
                .method(parts[3].parse().unwrap());
            let (a, b) = (load(name, "a"), load(name, "b"));
            let got = if f == "convolve" {
                convolve_with(&a, &b, &o)
            } else {
                correlate_with(&a, &b, &o)
            }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &got, &load(name, "out"));
            n += 1;
        }
    }
    for name in cases(&golden, "fftconvolve") {
        let parts: Vec<&str> = name.split("__").collect();
        let o = FftConvolveOptions::default()
            .mode(parts[2].parse().unwrap())
            .axes(&[parts[3][2..].parse().unwrap()]);
        let got = fftconvolve_with(&load(name, "a"), &load(name, "b"), &o)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, &got, &load(name, "out"));
        n += 1;
    }
    for name in cases(&golden, "oaconvolve") {
        let parts: Vec<&str> = name.split("__").collect();
        let mut o = FftConvolveOptions::default().mode(parts[2].parse().unwrap());
        let ax: isize = parts[3][2..].parse().unwrap();
        if ax >= 0 {
            o = o.axes(&[ax]);
        }
        let got = gpu_signal::oaconvolve_with(&load(name, "a"), &load(name, "b"), &o)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, &got, &load(name, "out"));
        n += 1;
    }
    for f in ["convolve2d", "correlate2d"] {
        for name in cases(&golden, f) {
            let parts: Vec<&str> = name.split("__").collect();
            let o = Conv2dOptions::default()
                .mode(parts[2].parse().unwrap())
                .boundary(parts[3].parse().unwrap())
                .fillvalue(2.0);
            let (a, b) = (load(name, "a"), load(name, "b"));
            let got = if f == "convolve2d" {
                convolve2d_with(&a, &b, &o)
            } else {
                correlate2d_with(&a, &b, &o)
            }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            check(name, &got, &load(name, "out"));
            n += 1;
        }
    }
    assert!(n > 500, "{n} cases");
}

#[test]
fn convolution_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let a = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3]).unwrap();
    let b2 = Array::zeros([2, 2], DType::Float64).unwrap();
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    assert_eq!(
        err(gpu_signal::convolve(&a, &b2)),
        "volume and kernel should have the same dimensionality"
    );
    assert_eq!(
        err(gpu_signal::correlate(&a, &b2)),
        "in1 and in2 should have the same dimensionality"
    );
    let c = Array::zeros([2, 5], DType::Float64).unwrap();
    let d = Array::zeros([3, 2], DType::Float64).unwrap();
    let valid = ConvolveOptions::default().mode(Mode::Valid);
    assert!(err(convolve_with(&c, &d, &valid)).starts_with("For 'valid' mode"));
    assert_eq!(
        err(gpu_signal::convolve2d(&a, &b2)),
        "convolve2d inputs must both be 2-D arrays"
    );
    assert!("x".parse::<Boundary>().is_err());
    // Direct and FFT agree on a long signal; integer FFT results round.
    let x = gpu_array::creation::arange(4000)
        .unwrap()
        .astype(DType::Int64)
        .unwrap();
    let k = Array::from_slice(&[1i64, -2, 3], &[3]).unwrap();
    let direct = convolve_with(&x, &k, &ConvolveOptions::default().method(Method::Direct)).unwrap();
    let fft = convolve_with(&x, &k, &ConvolveOptions::default().method(Method::Fft)).unwrap();
    assert_eq!(fft.dtype(), DType::Int64);
    assert_eq!(
        direct.to_vec::<i64>().unwrap(),
        fft.to_vec::<i64>().unwrap()
    );
}

/// `rows x cols` values in [-4, 4) from a small LCG, as `dt`.
fn noise(rows: usize, cols: usize, seed: u64, dt: DType) -> Array {
    let mut s = seed;
    let v: Vec<f64> = (0..rows * cols)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 11) as f64 / (1u64 << 53) as f64) * 8.0 - 4.0
        })
        .collect();
    Array::from_slice(&v, &[rows, cols])
        .unwrap()
        .astype(dt)
        .unwrap()
}

/// The tiled kernel (C-contiguous real floating operands) and the
/// elementwise one (the same input as a Fortran-ordered view) compute the
/// same terms in the same order: equal to the bit, over several tiles
/// each way, every mode and boundary, and kernels of odd and even sides
/// (up to 7 x 7 the fixed-size kernels, beyond it the general one).
#[test]
fn convolve2d_tiled_equals_the_elementwise_kernel() {
    if !gpu() {
        return;
    }
    let pairs = [
        (DType::Float32, DType::Float32),
        (DType::Float64, DType::Float64),
        (DType::Float32, DType::Float64),
        (DType::Float64, DType::Float32),
    ];
    for (k, &(ta, tb)) in pairs.iter().enumerate() {
        let a = noise(150, 301, 7 + k as u64, ta);
        let a_f = a.T().copy().unwrap().T();
        assert!(!a_f.is_c_contiguous());
        for (bm, bn) in [(7, 7), (4, 6), (1, 3), (9, 8), (2, 11)] {
            let b = noise(bm, bn, 99, tb);
            for mode in [Mode::Full, Mode::Same, Mode::Valid] {
                for boundary in [Boundary::Fill, Boundary::Wrap, Boundary::Symm] {
                    let o = Conv2dOptions::default()
                        .mode(mode)
                        .boundary(boundary)
                        .fillvalue(1.5);
                    for corr in [false, true] {
                        let f = if corr {
                            correlate2d_with
                        } else {
                            convolve2d_with
                        };
                        let tiled = f(&a, &b, &o).unwrap();
                        let plain = f(&a_f, &b, &o).unwrap();
                        let bits = |x: &Array| -> Vec<u64> {
                            x.astype(DType::Float64)
                                .unwrap()
                                .to_vec::<f64>()
                                .unwrap()
                                .iter()
                                .map(|v| v.to_bits())
                                .collect()
                        };
                        assert_eq!(tiled.dtype(), plain.dtype());
                        assert_eq!(
                            bits(&tiled),
                            bits(&plain),
                            "{ta:?} {tb:?} {bm}x{bn} {mode:?} {boundary:?} corr {corr}"
                        );
                    }
                }
            }
        }
    }
}

/// fftconvolve's overlap-save path (a long 1-D real signal, a short one)
/// against the direct convolution: every mode, both argument orders,
/// float32 and float64, blocks of 1024, 2048 and 4096 points (k = 128,
/// 129 and 300), then the dtypes SciPy promotes (int16 with float32:
/// float64; float16: float32) and a strided signal.
#[test]
fn overlap_save_matches_the_direct_convolution() {
    if !gpu() {
        return;
    }
    let direct = |a: &Array, b: &Array, mode: Mode| {
        convolve_with(
            a,
            b,
            &ConvolveOptions::default().mode(mode).method(Method::Direct),
        )
        .unwrap()
    };
    let fft = |a: &Array, b: &Array, mode: Mode| {
        fftconvolve_with(a, b, &FftConvolveOptions::default().mode(mode)).unwrap()
    };
    let signal = |n: usize| -> Vec<f64> {
        (0..n)
            .map(|i| ((i * 7919) % 1013) as f64 / 1013.0 - 0.5)
            .collect()
    };
    let taps = |k: usize| -> Vec<f64> {
        (0..k)
            .map(|i| ((i * 31) % 17) as f64 / 17.0 - 0.3)
            .collect()
    };
    for (n, k) in [(40_000usize, 128usize), (40_000, 129), (70_001, 300)] {
        let (xs, hs) = (signal(n), taps(k));
        for dt in [DType::Float64, DType::Float32] {
            let x = Array::from_slice(&xs, &[n]).unwrap().astype(dt).unwrap();
            let h = Array::from_slice(&hs, &[k]).unwrap().astype(dt).unwrap();
            for mode in [Mode::Full, Mode::Same, Mode::Valid] {
                for (a, b) in [(&x, &h), (&h, &x)] {
                    let name = format!("{n} {k} {dt} {mode:?} {}", a.size());
                    check(&name, &fft(a, b, mode), &direct(a, b, mode));
                }
            }
        }
    }
    // SciPy's dtypes: int16 * float32 transforms (and returns) float64,
    // float16 float32; a strided signal is read through its strides.
    let (n, k) = (50_000usize, 200usize);
    let ints: Vec<i16> = (0..n).map(|i| ((i * 37) % 201) as i16 - 100).collect();
    let x16 = Array::from_slice(&ints, &[n]).unwrap();
    let h32 = Array::from_slice(&taps(k), &[k])
        .unwrap()
        .astype(DType::Float32)
        .unwrap();
    let got = fft(&x16, &h32, Mode::Same);
    assert_eq!(got.dtype(), DType::Float64);
    check(
        "int16 * float32",
        &got,
        &direct(
            &x16.astype(DType::Float64).unwrap(),
            &h32.astype(DType::Float64).unwrap(),
            Mode::Same,
        ),
    );
    let xh = Array::from_slice(&signal(n), &[n])
        .unwrap()
        .astype(DType::Float16)
        .unwrap();
    let hh = h32.astype(DType::Float16).unwrap();
    let got = fft(&xh, &hh, Mode::Full);
    assert_eq!(got.dtype(), DType::Float32);
    check(
        "float16",
        &got,
        &direct(
            &xh.astype(DType::Float32).unwrap(),
            &hh.astype(DType::Float32).unwrap(),
            Mode::Full,
        ),
    );
    let wide = Array::from_slice(&signal(2 * n), &[2 * n]).unwrap();
    let strided = wide
        .slice(&[gpu_array::layout::AxisIndex::Slice {
            start: Some(1),
            stop: None,
            step: 2,
        }])
        .unwrap();
    let h64 = h32.astype(DType::Float64).unwrap();
    check(
        "strided",
        &fft(&strided, &h64, Mode::Valid),
        &direct(&strided.copy().unwrap(), &h64, Mode::Valid),
    );
}
