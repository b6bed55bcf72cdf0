//! Inputs in every layout: batched, strided, reversed, transposed,
//! windows of larger arrays, a middle axis with few and with many outer
//! batches, and `out=` arrays; each against the host reference of its
//! values.

use gpu_array::{AxisIndex, DType};
use gpu_fft::{FftOptions, FftnOptions};

use crate::common::{Host, Rng, assert_fft_close, dev};

fn s(start: Option<isize>, stop: Option<isize>, step: isize) -> AxisIndex {
    AxisIndex::Slice { start, stop, step }
}

#[test]
fn batched_along_each_axis() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(1);
    // (4, 8, 16): the middle axis loops over 4 outer batches; (40, 8, 40)
    // has too many loops and is copied.
    for shape in [[64usize, 1024, 1], [4, 8, 16], [40, 8, 40]] {
        let h = Host::random(&mut rng, &shape, DType::Complex64);
        let x = h.device(DType::Complex64);
        for axis in 0..3 {
            let n = shape[axis];
            let y = gpu_fft::fft_with(&x, &FftOptions::new().axis(axis as isize)).unwrap();
            assert_fft_close(
                &Host::of(&y),
                &h.fft(axis, n, false),
                n,
                1.0,
                1.0,
                DType::Complex64,
                &format!("{shape:?} axis {axis}"),
            );
            let r = h.device(DType::Float32);
            let hr = Host::of(&r);
            let y = gpu_fft::rfft_with(&r, &FftOptions::new().axis(axis as isize)).unwrap();
            assert_fft_close(
                &Host::of(&y),
                &hr.rfft(axis, n),
                n,
                1.0,
                1.0,
                DType::Float32,
                &format!("rfft {shape:?} axis {axis}"),
            );
        }
    }
}

#[test]
fn strided_reversed_and_transposed_inputs() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(2);
    let h = Host::random(&mut rng, &[24, 36], DType::Complex128);
    let base = h.device(DType::Complex128);
    let views = [
        (
            "every other column",
            base.slice(&[AxisIndex::FULL, s(None, None, 2)]).unwrap(),
        ),
        (
            "reversed rows",
            base.slice(&[s(None, None, -1), AxisIndex::FULL]).unwrap(),
        ),
        (
            "reversed columns",
            base.slice(&[AxisIndex::FULL, s(None, None, -1)]).unwrap(),
        ),
        ("transposed", base.T()),
        (
            "a window",
            base.slice(&[s(Some(3), Some(20), 1), s(Some(5), Some(30), 1)])
                .unwrap(),
        ),
        (
            "a column",
            base.slice(&[AxisIndex::FULL, AxisIndex::Index(4)]).unwrap(),
        ),
    ];
    for (what, v) in views {
        let hv = Host::of(&v);
        for axis in 0..v.ndim() {
            let n = v.shape()[axis];
            let y = gpu_fft::fft_with(&v, &FftOptions::new().axis(axis as isize)).unwrap();
            assert_fft_close(
                &Host::of(&y),
                &hv.fft(axis, n, false),
                n,
                1.0,
                1.0,
                DType::Complex128,
                &format!("fft of {what}, axis {axis}"),
            );
            let re = v.real();
            let hre = Host::of(&re);
            let y = gpu_fft::rfft_with(&re, &FftOptions::new().axis(axis as isize)).unwrap();
            assert_fft_close(
                &Host::of(&y),
                &hre.rfft(axis, n),
                n,
                1.0,
                1.0,
                DType::Float64,
                &format!("rfft of {what}, axis {axis}"),
            );
        }
        if v.ndim() == 2 {
            let (m, n) = (v.shape()[0], v.shape()[1]);
            let y = gpu_fft::fft2(&v).unwrap();
            let want = hv.fft(0, m, false).fft(1, n, false);
            assert_fft_close(
                &Host::of(&y),
                &want,
                m * n,
                1.0,
                1.0,
                DType::Complex128,
                &format!("fft2 of {what}"),
            );
            let y = gpu_fft::irfft2(&v).unwrap();
            let last = 2 * (n - 1);
            let f = 1.0 / (m * last) as f64;
            let want = hv.fft(0, m, true).irfft(1, last).scale(f);
            assert_fft_close(
                &Host::of(&y),
                &want,
                m * last,
                1.0,
                f,
                DType::Complex128,
                &format!("irfft2 of {what}"),
            );
        }
    }
    // The input is left as it was (cuFFT's c2r overwrites its input;
    // the call works on its own copy).
    assert_eq!(
        Host::of(&base).data,
        h.device(DType::Complex128)
            .to_vec_as::<num_complex::Complex<f64>>()
            .unwrap()
    );
}

#[test]
fn out_arrays_are_written() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(4);
    let h = Host::random(&mut rng, &[8, 16], DType::Complex64);
    let x = h.device(DType::Complex64);
    let out = gpu_array::creation::empty((8, 16), DType::Complex64).unwrap();
    let y = gpu_fft::fft_with(&x, &FftOptions::new().out(&out)).unwrap();
    assert!(y.shares_memory_with(&out));
    assert_fft_close(
        &Host::of(&out),
        &h.fft(1, 16, false),
        16,
        1.0,
        1.0,
        DType::Complex64,
        "fft out=",
    );
    // A transposed out, a wider out dtype (cast), and out = the input.
    let out_t = gpu_array::creation::empty((16, 8), DType::Complex128)
        .unwrap()
        .T();
    gpu_fft::fftn_with(&x, &FftnOptions::new().out(&out_t)).unwrap();
    let want = h.fft(0, 8, false).fft(1, 16, false);
    assert_fft_close(
        &Host::of(&out_t),
        &want,
        128,
        1.0,
        1.0,
        DType::Complex64,
        "fftn out= transposed complex128",
    );
    let inplace = h.device(DType::Complex64);
    gpu_fft::ifft_with(&inplace, &FftOptions::new().out(&inplace)).unwrap();
    assert_fft_close(
        &Host::of(&inplace),
        &h.fft(1, 16, true).scale(1.0 / 16.0),
        16,
        1.0,
        1.0 / 16.0,
        DType::Complex64,
        "ifft out=input",
    );
    let real_out = gpu_array::creation::empty((8, 30), DType::Float32).unwrap();
    gpu_fft::irfft_with(&x, &FftOptions::new().out(&real_out)).unwrap();
    assert_fft_close(
        &Host::of(&real_out),
        &h.irfft(1, 30).scale(1.0 / 30.0),
        30,
        1.0,
        1.0 / 30.0,
        DType::Complex64,
        "irfft out=",
    );
    let half_out = gpu_array::creation::empty((8, 9), DType::Complex64).unwrap();
    let r = h.device(DType::Float32);
    gpu_fft::rfft_with(&r, &FftOptions::new().out(&half_out)).unwrap();
    assert_fft_close(
        &Host::of(&half_out),
        &Host::of(&r).rfft(1, 16),
        16,
        1.0,
        1.0,
        DType::Float32,
        "rfft out=",
    );
}

/// Zero-padded real transforms (`n` beyond the axis) along each axis of
/// 3-D arrays and of axis-moved views of them: the padded copy keeps the
/// input's axis order, so the transform axis need not be the innermost
/// (the path the DCT takes for a moved axis).
#[test]
fn padded_real_transforms_along_each_axis() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(5);
    for dtype in [DType::Float64, DType::Float32] {
        for shape in [[4usize, 5, 6], [3, 1, 8], [7, 6, 2]] {
            let h = Host::random(&mut rng, &shape, dtype);
            let x = h.device(dtype);
            for moved in [false, true] {
                let (x, hx) = if moved {
                    let v = x.moveaxis(&[0], &[-1]).unwrap();
                    let hv = Host::of(&v);
                    (v, hv)
                } else {
                    (x.clone(), Host::of(&x))
                };
                for axis in 0..3 {
                    let n = 2 * x.shape()[axis] + 1;
                    let what = format!("{dtype} {shape:?} moved {moved} axis {axis} n {n}");
                    let y = gpu_fft::rfft_with(&x, &FftOptions::new().axis(axis as isize).n(n))
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_fft_close(&Host::of(&y), &hx.rfft(axis, n), n, 1.0, 1.0, dtype, &what);
                }
            }
            // A view starting one element in: its pointer is not aligned to
            // the complex type, which cuFFT refuses, so it is copied.
            let v = x
                .slice(&[AxisIndex::FULL, AxisIndex::FULL, s(Some(1), None, 1)])
                .unwrap();
            let hv = Host::of(&v);
            for axis in 0..3 {
                let n = v.shape()[axis];
                let what = format!("{dtype} {shape:?} offset view axis {axis}");
                let y = gpu_fft::rfft_with(&v, &FftOptions::new().axis(axis as isize))
                    .unwrap_or_else(|e| panic!("{what}: {e}"));
                assert_fft_close(&Host::of(&y), &hv.rfft(axis, n), n, 1.0, 1.0, dtype, &what);
            }
        }
    }
}
