//! Every transform against the host reference: sizes that are powers of
//! two, primes, products of small primes and 2^24; every input dtype;
//! every norm; `n`/`s` cutting and padding.

use gpu_array::{AxisIndex, DType};
use gpu_fft::{FftOptions, FftnOptions, Norm};

use crate::common::{Host, Rng, assert_fft_close, dev};

const NORMS: [Norm; 3] = [Norm::Backward, Norm::Ortho, Norm::Forward];

#[test]
fn fft_and_ifft_of_every_size_kind() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(11);
    for &n in &[1usize, 2, 8, 1024, 1009, 360, 4096 * 3] {
        for dtype in [DType::Complex64, DType::Complex128] {
            let h = Host::random(&mut rng, &[n], dtype);
            let x = h.device(dtype);
            let y = gpu_fft::fft(&x).unwrap();
            assert_eq!(y.dtype(), dtype);
            assert_fft_close(
                &Host::of(&y),
                &h.fft(0, n, false),
                n,
                1.0,
                1.0,
                dtype,
                &format!("fft {n} {dtype}"),
            );
            let z = gpu_fft::ifft(&x).unwrap();
            let f = 1.0 / n as f64;
            assert_fft_close(
                &Host::of(&z),
                &h.fft(0, n, true).scale(f),
                n,
                1.0,
                f,
                dtype,
                &format!("ifft {n} {dtype}"),
            );
        }
    }
}

#[test]
fn a_large_power_of_two() {
    let Some(_device) = dev() else {
        return;
    };
    let n = 1 << 24;
    let mut rng = Rng(5);
    let h = Host::random(&mut rng, &[n], DType::Complex64);
    let y = gpu_fft::fft(&h.device(DType::Complex64)).unwrap();
    assert_fft_close(
        &Host::of(&y),
        &h.fft(0, n, false),
        n,
        1.0,
        1.0,
        DType::Complex64,
        "fft 2^24 complex64",
    );
    let r = Host::random(&mut rng, &[n], DType::Float32);
    let y = gpu_fft::rfft(&r.device(DType::Float32)).unwrap();
    assert_eq!(y.shape(), &[n / 2 + 1]);
    assert_fft_close(
        &Host::of(&y),
        &r.rfft(0, n),
        n,
        1.0,
        1.0,
        DType::Float32,
        "rfft 2^24 float32",
    );
}

#[test]
fn every_input_dtype_promotes_as_numpy_2() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(3);
    let cases = [
        (DType::Bool, DType::Complex128),
        (DType::Int8, DType::Complex128),
        (DType::UInt16, DType::Complex128),
        (DType::Int64, DType::Complex128),
        (DType::Float16, DType::Complex64),
        (DType::Float32, DType::Complex64),
        (DType::Float64, DType::Complex128),
        (DType::Complex64, DType::Complex64),
    ];
    for (dtype, want) in cases {
        let h = Host::random(&mut rng, &[6, 40], dtype);
        let x = h.device(dtype);
        let y = gpu_fft::fft(&x).unwrap();
        assert_eq!(y.dtype(), want, "fft of {dtype}");
        assert_fft_close(
            &Host::of(&y),
            &h.fft(1, 40, false),
            40,
            8.0,
            1.0,
            want,
            &format!("fft {dtype}"),
        );
        if !dtype.is_complex() {
            let y = gpu_fft::rfft(&x).unwrap();
            assert_eq!(y.dtype(), want, "rfft of {dtype}");
            assert_fft_close(
                &Host::of(&y),
                &h.rfft(1, 40),
                40,
                8.0,
                1.0,
                want,
                &format!("rfft {dtype}"),
            );
        }
        // irfft's real result: result_type(a.real.dtype, 1.0).
        let back = gpu_fft::irfft(&x).unwrap();
        let real = match dtype {
            DType::Float16 => DType::Float16,
            DType::Float32 | DType::Complex64 => DType::Float32,
            _ => DType::Float64,
        };
        assert_eq!(back.dtype(), real, "irfft of {dtype}");
    }
}

#[test]
fn norms_scale_as_numpy_says() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(8);
    let n = 256;
    let h = Host::random(&mut rng, &[4, n], DType::Complex128);
    let x = h.device(DType::Complex128);
    for norm in NORMS {
        let o = FftOptions::new().norm(norm);
        let (ff, fi) = (norm.factor(n, false), norm.factor(n, true));
        let y = gpu_fft::fft_with(&x, &o).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.fft(1, n, false).scale(ff),
            n,
            1.0,
            ff,
            DType::Complex128,
            &format!("fft {norm:?}"),
        );
        let y = gpu_fft::ifft_with(&x, &o).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.fft(1, n, true).scale(fi),
            n,
            1.0,
            fi,
            DType::Complex128,
            &format!("ifft {norm:?}"),
        );
        let r = h.clone();
        let xr = r.device(DType::Float64);
        let real = Host::of(&xr);
        let y = gpu_fft::rfft_with(&xr, &o).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &real.rfft(1, n).scale(ff),
            n,
            1.0,
            ff,
            DType::Float64,
            &format!("rfft {norm:?}"),
        );
        let y = gpu_fft::irfft_with(&x, &o.clone().n(n)).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.irfft(1, n).scale(fi),
            n,
            1.0,
            fi,
            DType::Complex128,
            &format!("irfft {norm:?}"),
        );
        // hfft(a) = irfft(conj(a)) with the norm's direction swapped.
        let fs = norm.swap().factor(n, true);
        let y = gpu_fft::hfft_with(&x, &o.clone().n(n)).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.clone().conj().irfft(1, n).scale(fs),
            n,
            1.0,
            fs,
            DType::Complex128,
            &format!("hfft {norm:?}"),
        );
        let fsi = norm.swap().factor(n, false);
        let y = gpu_fft::ihfft_with(&xr, &o).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &real.rfft(1, n).scale(fsi).conj(),
            n,
            1.0,
            fsi,
            DType::Float64,
            &format!("ihfft {norm:?}"),
        );
    }
}

#[test]
fn n_cuts_and_pads() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(9);
    let h = Host::random(&mut rng, &[3, 20], DType::Complex64);
    let x = h.device(DType::Complex64);
    for n in [7usize, 20, 33] {
        let y = gpu_fft::fft_with(&x, &FftOptions::new().n(n)).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.fft(1, n, false),
            n,
            1.0,
            1.0,
            DType::Complex64,
            &format!("fft n={n}"),
        );
        let y = gpu_fft::fft_with(&x, &FftOptions::new().n(n).axis(0)).unwrap();
        assert_fft_close(
            &Host::of(&y),
            &h.fft(0, n, false),
            n,
            1.0,
            1.0,
            DType::Complex64,
            &format!("fft axis 0 n={n}"),
        );
        for m in [n, n + 1] {
            let y = gpu_fft::irfft_with(&x, &FftOptions::new().n(m)).unwrap();
            let f = 1.0 / m as f64;
            assert_fft_close(
                &Host::of(&y),
                &h.irfft(1, m).scale(f),
                m,
                1.0,
                f,
                DType::Complex64,
                &format!("irfft n={m}"),
            );
        }
    }
}

#[test]
fn irfft_drops_the_imaginary_parts_numpy_drops() {
    let Some(_device) = dev() else {
        return;
    };
    // Random complex input: the zero and Nyquist frequencies have
    // imaginary parts, which pocketfft ignores.
    let mut rng = Rng(21);
    for n in [8usize, 9, 1009] {
        let h = Host::random(&mut rng, &[n / 2 + 1], DType::Complex128);
        let y = gpu_fft::irfft_with(&h.device(DType::Complex128), &FftOptions::new().n(n)).unwrap();
        let f = 1.0 / n as f64;
        assert_fft_close(
            &Host::of(&y),
            &h.irfft(0, n).scale(f),
            n,
            1.0,
            f,
            DType::Complex128,
            &format!("irfft {n}"),
        );
    }
}

/// `overwrite_x` lets irfft give cuFFT its input instead of a copy: the
/// same bits as the copying call for every norm (the factor then takes a
/// pass over the result; at 64 points every norm's factor is a power of
/// two, exact before or after), along the last axis of a contiguous batch and
/// in irfftn; where the input is not already cuFFT's work array (another
/// axis, a cut, a padded length, a strided view) it is copied and left
/// intact.
#[test]
fn irfft_overwriting_its_input_gives_the_copying_results() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(29);
    for dtype in [DType::Complex64, DType::Complex128] {
        let h = Host::random(&mut rng, &[5, 33], dtype);
        for norm in NORMS {
            let keep = h.device(dtype);
            let want = gpu_fft::irfft_with(&keep, &FftOptions::new().n(64).norm(norm)).unwrap();
            let mine = h.device(dtype);
            let o = FftOptions::new().n(64).norm(norm).overwrite_x(true);
            let got = gpu_fft::irfft_with(&mine, &o).unwrap();
            assert_eq!(got.shape(), &[5, 64]);
            assert_eq!(
                Host::of(&got).data,
                Host::of(&want).data,
                "{dtype} {norm:?}"
            );
            // The copying call left its input alone.
            assert_eq!(
                Host::of(&keep).data,
                Host::of(&h.device(dtype)).data,
                "{dtype}"
            );
        }
        // irfftn over both axes, overwriting (4 x 64 points: a factor of
        // 1/256, exact on either side of the transform).
        let h2 = Host::random(&mut rng, &[4, 33], dtype);
        let want = gpu_fft::irfftn(&h2.device(dtype)).unwrap();
        let got =
            gpu_fft::irfftn_with(&h2.device(dtype), &FftnOptions::new().overwrite_x(true)).unwrap();
        assert_eq!(Host::of(&got).data, Host::of(&want).data, "irfftn {dtype}");
        // Not cuFFT's work array: copied, so the input is intact.
        for (axis, n) in [(0isize, 8usize), (1, 40), (1, 80)] {
            let x = h.device(dtype);
            let o = FftOptions::new().n(n).axis(axis).overwrite_x(true);
            let got = gpu_fft::irfft_with(&x, &o).unwrap();
            let want = gpu_fft::irfft_with(&x, &FftOptions::new().n(n).axis(axis)).unwrap();
            assert_eq!(
                Host::of(&got).data,
                Host::of(&want).data,
                "{dtype} {axis} {n}"
            );
            assert_eq!(
                Host::of(&x).data,
                Host::of(&h.device(dtype)).data,
                "{dtype} {axis}"
            );
        }
        // Every other row: a view cuFFT's layout cannot take whole.
        let x = h.device(dtype);
        let view = x
            .slice(&[AxisIndex::stepped(0..5, 2), AxisIndex::FULL])
            .unwrap();
        let o = FftOptions::new().n(64).overwrite_x(true);
        let got = gpu_fft::irfft_with(&view, &o).unwrap();
        let want = gpu_fft::irfft_with(&view, &FftOptions::new().n(64)).unwrap();
        assert_eq!(Host::of(&got).data, Host::of(&want).data, "{dtype} view");
        assert_eq!(
            Host::of(&x).data,
            Host::of(&h.device(dtype)).data,
            "{dtype} view"
        );
    }
}

#[test]
fn n_dimensional_transforms() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(13);
    let shape = [6, 10, 9];
    let h = Host::random(&mut rng, &shape, DType::Complex128);
    let x = h.device(DType::Complex128);
    let all = h.fft(0, 6, false).fft(1, 10, false).fft(2, 9, false);
    assert_fft_close(
        &Host::of(&gpu_fft::fftn(&x).unwrap()),
        &all,
        540,
        1.0,
        1.0,
        DType::Complex128,
        "fftn",
    );
    let inv = h
        .fft(0, 6, true)
        .fft(1, 10, true)
        .fft(2, 9, true)
        .scale(1.0 / 540.0);
    assert_fft_close(
        &Host::of(&gpu_fft::ifftn(&x).unwrap()),
        &inv,
        540,
        1.0,
        1.0 / 540.0,
        DType::Complex128,
        "ifftn",
    );
    let two = h.fft(1, 10, false).fft(2, 9, false);
    assert_fft_close(
        &Host::of(&gpu_fft::fft2(&x).unwrap()),
        &two,
        90,
        1.0,
        1.0,
        DType::Complex128,
        "fft2",
    );
    // axes in another order, s padding and cutting, and axes (0, 2).
    let o = FftnOptions::new().axes(&[2, 0]).s(&[12, 4]);
    let want = h.fft(2, 12, false).fft(0, 4, false);
    assert_fft_close(
        &Host::of(&gpu_fft::fftn_with(&x, &o).unwrap()),
        &want,
        48,
        1.0,
        1.0,
        DType::Complex128,
        "fftn axes (2, 0)",
    );
    // A repeated axis transforms twice, as NumPy does.
    let o = FftnOptions::new().axes(&[1, 1]);
    let want = h.fft(1, 10, false).fft(1, 10, false);
    assert_fft_close(
        &Host::of(&gpu_fft::fftn_with(&x, &o).unwrap()),
        &want,
        100,
        10.0,
        1.0,
        DType::Complex128,
        "fftn axes (1, 1)",
    );
    // Four axes: more than one cuFFT plan.
    let h4 = Host::random(&mut rng, &[3, 4, 5, 6], DType::Complex64);
    let want = h4
        .fft(0, 3, false)
        .fft(1, 4, false)
        .fft(2, 5, false)
        .fft(3, 6, false);
    let got = gpu_fft::fftn(&h4.device(DType::Complex64)).unwrap();
    assert_fft_close(
        &Host::of(&got),
        &want,
        360,
        1.0,
        1.0,
        DType::Complex64,
        "fftn 4-d",
    );
}

#[test]
fn real_n_dimensional_transforms() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(17);
    let shape = [6, 10, 9];
    let h = Host::random(&mut rng, &shape, DType::Float64);
    let x = h.device(DType::Float64);
    let want = h.rfft(2, 9).fft(1, 10, false).fft(0, 6, false);
    assert_fft_close(
        &Host::of(&gpu_fft::rfftn(&x).unwrap()),
        &want,
        540,
        1.0,
        1.0,
        DType::Float64,
        "rfftn",
    );
    let want = h.rfft(2, 9).fft(1, 10, false);
    assert_fft_close(
        &Host::of(&gpu_fft::rfft2(&x).unwrap()),
        &want,
        90,
        1.0,
        1.0,
        DType::Float64,
        "rfft2",
    );
    // rfftn over (2, 0): the real axis is 0, the last one given.
    let o = FftnOptions::new().axes(&[2, 0]);
    let want = h.rfft(0, 6).fft(2, 9, false);
    assert_fft_close(
        &Host::of(&gpu_fft::rfftn_with(&x, &o).unwrap()),
        &want,
        54,
        1.0,
        1.0,
        DType::Float64,
        "rfftn axes (2, 0)",
    );
    // irfftn of a spectrum, odd and even last lengths.
    let c = Host::random(&mut rng, &[6, 10, 5], DType::Complex128);
    let xc = c.device(DType::Complex128);
    for last in [8usize, 9] {
        let o = FftnOptions::new().s(&[6, 10, last]);
        let total = (6 * 10 * last) as f64;
        let want = c
            .fft(0, 6, true)
            .fft(1, 10, true)
            .irfft(2, last)
            .scale(1.0 / total);
        assert_fft_close(
            &Host::of(&gpu_fft::irfftn_with(&xc, &o).unwrap()),
            &want,
            total as usize,
            1.0,
            1.0 / total,
            DType::Complex128,
            &format!("irfftn last {last}"),
        );
    }
    let want = c.fft(1, 10, true).irfft(2, 8).scale(1.0 / 80.0);
    assert_fft_close(
        &Host::of(&gpu_fft::irfft2(&xc).unwrap()),
        &want,
        80,
        1.0,
        1.0 / 80.0,
        DType::Complex128,
        "irfft2",
    );
    // Four axes.
    let c4 = Host::random(&mut rng, &[3, 4, 5, 4], DType::Complex64);
    let want = c4
        .fft(0, 3, true)
        .fft(1, 4, true)
        .fft(2, 5, true)
        .irfft(3, 6)
        .scale(1.0 / 360.0);
    let got = gpu_fft::irfftn(&c4.device(DType::Complex64)).unwrap();
    assert_fft_close(
        &Host::of(&got),
        &want,
        360,
        1.0,
        1.0 / 360.0,
        DType::Complex64,
        "irfftn 4-d",
    );
}

#[test]
fn scipys_hermitian_n_dimensional_transforms() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(23);
    let c = Host::random(&mut rng, &[6, 5], DType::Complex128);
    let x = c.device(DType::Complex128);
    // hfftn(x) = irfftn(conj(x)) with the norm swapped: no scaling.
    let want = c.clone().conj().fft(0, 6, true).irfft(1, 8);
    assert_fft_close(
        &Host::of(&gpu_fft::hfftn(&x).unwrap()),
        &want,
        48,
        1.0,
        1.0,
        DType::Complex128,
        "hfftn",
    );
    assert_fft_close(
        &Host::of(&gpu_fft::hfft2(&x).unwrap()),
        &want,
        48,
        1.0,
        1.0,
        DType::Complex128,
        "hfft2",
    );
    let r = Host::random(&mut rng, &[6, 8], DType::Float64);
    let xr = r.device(DType::Float64);
    // ihfftn(x) = conj(rfftn(x)) / n.
    let want = r.rfft(1, 8).fft(0, 6, false).scale(1.0 / 48.0).conj();
    assert_fft_close(
        &Host::of(&gpu_fft::ihfftn(&xr).unwrap()),
        &want,
        48,
        1.0,
        1.0 / 48.0,
        DType::Float64,
        "ihfftn",
    );
    assert_fft_close(
        &Host::of(&gpu_fft::ihfft2(&xr).unwrap()),
        &want,
        48,
        1.0,
        1.0 / 48.0,
        DType::Float64,
        "ihfft2",
    );
}

#[test]
fn fftpacks_packed_real_format() {
    let Some(_device) = dev() else {
        return;
    };
    let mut rng = Rng(29);
    for n in [1usize, 2, 7, 8, 33] {
        let h = Host::random(&mut rng, &[3, n], DType::Float64);
        let x = h.device(DType::Float64);
        let p = gpu_fft::fftpack::rfft(&x, None, -1).unwrap();
        assert_eq!((p.shape(), p.dtype()), (&[3, n][..], DType::Float64));
        // The packed layout from the full spectrum.
        let full = h.fft(1, n, false);
        let mut want = vec![0.0; 3 * n];
        for r in 0..3 {
            want[r * n] = full.data[r * n].re;
            for k in 1..n {
                let y = full.data[r * n + k.div_ceil(2)];
                want[r * n + k] = if k % 2 == 1 { y.re } else { y.im };
            }
        }
        let got = p.to_vec::<f64>().unwrap();
        let tol = 8.0 * f64::EPSILON * (n.max(2) as f64).log2() * (n as f64).sqrt();
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!((g - w).abs() <= tol, "rfft packed n={n} [{i}]: {g} vs {w}");
        }
        let back = gpu_fft::fftpack::irfft(&p, None, -1)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        for (i, (g, w)) in back.iter().zip(&h.data).enumerate() {
            assert!(
                (g - w.re).abs() <= tol,
                "irfft packed n={n} [{i}]: {g} vs {}",
                w.re
            );
        }
        // Along axis 0 too, in single precision.
        let p0 = gpu_fft::fftpack::rfft(&h.device(DType::Float32), None, 0).unwrap();
        assert_eq!((p0.shape(), p0.dtype()), (&[3, n][..], DType::Float32));
    }
    assert!(
        gpu_fft::fftpack::rfft(
            &gpu_array::creation::zeros(4, DType::Complex64).unwrap(),
            None,
            -1
        )
        .is_err()
    );
}

#[test]
fn large_scaled_transforms_scale_in_cuffts_store() {
    let Some(_device) = dev() else {
        return;
    };
    // 2^22 elements: large enough for the store callback (when the
    // machine can link one); the values are the same either way.
    let n = 1 << 22;
    let mut rng = Rng(31);
    let h = Host::random(&mut rng, &[n], DType::Complex64);
    let x = h.device(DType::Complex64);
    let f = 1.0 / n as f64;
    let y = gpu_fft::ifft(&x).unwrap();
    assert_fft_close(
        &Host::of(&y),
        &h.fft(0, n, true).scale(f),
        n,
        1.0,
        f,
        DType::Complex64,
        "ifft 2^22",
    );
    let o = FftOptions::new().norm(Norm::Ortho);
    let g = 1.0 / (n as f64).sqrt();
    let y = gpu_fft::fft_with(&x, &o).unwrap();
    assert_fft_close(
        &Host::of(&y),
        &h.fft(0, n, false).scale(g),
        n,
        1.0,
        g,
        DType::Complex64,
        "fft 2^22 ortho",
    );
    let r = Host::random(&mut rng, &[4, n / 4], DType::Float64);
    let y = gpu_fft::rfft_with(&r.device(DType::Float64), &o).unwrap();
    let g = 1.0 / ((n / 4) as f64).sqrt();
    assert_fft_close(
        &Host::of(&y),
        &r.rfft(1, n / 4).scale(g),
        n / 4,
        1.0,
        g,
        DType::Float64,
        "rfft 4 x 2^20 ortho",
    );
    let info = gpu_fft::config::get_plan_cache().unwrap().show_info();
    println!(
        "callbacks used: {} ({:?})",
        info.contains("scaled by"),
        gpu_fft::config::callback_error()
    );
}

#[test]
fn every_transform_over_every_size_kind_and_layout() {
    let Some(_device) = dev() else {
        return;
    };
    // Powers of two, a prime, products of small primes; batched (3 rows),
    // every other column of a wider array, and reversed rows; float32 and
    // float64 precision.
    let mut rng = Rng(37);
    for &n in &[16usize, 1009, 360, 4096] {
        for (real, complex) in [
            (DType::Float32, DType::Complex64),
            (DType::Float64, DType::Complex128),
        ] {
            let wide = Host::random(&mut rng, &[3, 2 * n], complex);
            let base = wide.device(complex);
            let views = [
                (
                    "contiguous",
                    base.slice(&[AxisIndex::FULL, AxisIndex::from(..n as isize)])
                        .unwrap()
                        .copy()
                        .unwrap(),
                ),
                (
                    "every other",
                    base.slice(&[AxisIndex::FULL, AxisIndex::stepped(.., 2)])
                        .unwrap(),
                ),
                (
                    "reversed",
                    base.slice(&[AxisIndex::FULL, AxisIndex::stepped(.., -2)])
                        .unwrap(),
                ),
            ];
            for (what, v) in views {
                let h = Host::of(&v);
                let r = v.real();
                let hr = Host::of(&r);
                let f = 1.0 / n as f64;
                let tag = |t: &str| format!("{t} n={n} {complex} {what}");
                let y = gpu_fft::fft(&v).unwrap();
                assert_fft_close(
                    &Host::of(&y),
                    &h.fft(1, n, false),
                    n,
                    1.0,
                    1.0,
                    complex,
                    &tag("fft"),
                );
                let y = gpu_fft::ifft(&v).unwrap();
                assert_fft_close(
                    &Host::of(&y),
                    &h.fft(1, n, true).scale(f),
                    n,
                    1.0,
                    f,
                    complex,
                    &tag("ifft"),
                );
                let y = gpu_fft::rfft(&r).unwrap();
                assert_eq!(y.dtype(), complex);
                assert_fft_close(
                    &Host::of(&y),
                    &hr.rfft(1, n),
                    n,
                    1.0,
                    1.0,
                    real,
                    &tag("rfft"),
                );
                let y = gpu_fft::irfft_with(&v, &FftOptions::new().n(n)).unwrap();
                assert_eq!(y.dtype(), real);
                assert_fft_close(
                    &Host::of(&y),
                    &h.irfft(1, n).scale(f),
                    n,
                    1.0,
                    f,
                    complex,
                    &tag("irfft"),
                );
                let y = gpu_fft::hfft_with(&v, &FftOptions::new().n(n)).unwrap();
                assert_fft_close(
                    &Host::of(&y),
                    &h.clone().conj().irfft(1, n),
                    n,
                    1.0,
                    1.0,
                    complex,
                    &tag("hfft"),
                );
                let y = gpu_fft::ihfft(&r).unwrap();
                assert_fft_close(
                    &Host::of(&y),
                    &hr.rfft(1, n).scale(f).conj(),
                    n,
                    1.0,
                    f,
                    real,
                    &tag("ihfft"),
                );
            }
        }
    }
}
