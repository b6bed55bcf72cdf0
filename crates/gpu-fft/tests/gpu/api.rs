//! NumPy's errors in NumPy's words, the helper routines, and the plan
//! cache's bounds and reuse.

use gpu_array::{DType, Error};
use gpu_fft::{FftOptions, FftnOptions, config};

use crate::common::{dev, dev_alone};

fn message(e: Error) -> String {
    e.to_string()
}

#[test]
fn bad_input_gets_numpys_errors() {
    let Some(_device) = dev() else {
        return;
    };
    let x = gpu_array::creation::zeros((4, 6), DType::Complex64).unwrap();
    let e = gpu_fft::fft_with(&x, &FftOptions::new().n(0)).unwrap_err();
    assert!(matches!(e, Error::Value(_)));
    assert_eq!(
        message(e),
        "Invalid number of FFT data points (0) specified."
    );
    let empty = gpu_array::creation::zeros((4, 0), DType::Complex64).unwrap();
    assert_eq!(
        message(gpu_fft::fft(&empty).unwrap_err()),
        "Invalid number of FFT data points (0) specified."
    );
    let one = gpu_array::creation::zeros(1, DType::Complex64).unwrap();
    assert!(gpu_fft::irfft(&one).is_err()); // 2 * (1 - 1) points
    let e = gpu_fft::fft_with(&x, &FftOptions::new().axis(2)).unwrap_err();
    assert!(matches!(e, Error::AxisOutOfBounds { .. }), "{e}");
    let e = gpu_fft::fftn_with(&x, &FftnOptions::new().s(&[4]).axes(&[0, 1])).unwrap_err();
    assert_eq!(message(e), "Shape and axes have different lengths.");
    let wrong = gpu_array::creation::empty((4, 5), DType::Complex64).unwrap();
    let e = gpu_fft::fft_with(&x, &FftOptions::new().out(&wrong)).unwrap_err();
    assert_eq!(message(e), "output array has wrong shape.");
    let real = gpu_array::creation::empty((4, 6), DType::Float32).unwrap();
    let e = gpu_fft::fft_with(&x, &FftOptions::new().out(&real)).unwrap_err();
    assert!(matches!(e, Error::DType(_)), "{e}");
    assert!(
        message(e)
            .contains("Cannot cast ufunc 'fft' output from dtype('complex64') to dtype('float32')")
    );
    let e = gpu_fft::rfft(&x).unwrap_err();
    assert!(matches!(e, Error::DType(_)), "{e}");
    assert!("sideways".parse::<gpu_fft::Norm>().is_err());
    // SciPy's overwrite_x and workers are taken; workers=0 is SciPy's error.
    gpu_fft::fft_with(&x, &FftOptions::new().overwrite_x(true).workers(-1)).unwrap();
    let e = gpu_fft::fft_with(&x, &FftOptions::new().workers(0)).unwrap_err();
    assert_eq!(message(e), "workers must not be zero");
    let r = gpu_array::creation::ones(8, DType::Float64).unwrap();
    assert!(gpu_fft::dct_with(&r, &gpu_fft::DctOptions::new().workers(0)).is_err());
}

#[test]
fn frequencies_and_shifts() {
    let Some(_device) = dev() else {
        return;
    };
    let f = gpu_fft::fftfreq(8, 0.1).unwrap().to_vec::<f64>().unwrap();
    let want = [0.0, 1.25, 2.5, 3.75, -5.0, -3.75, -2.5, -1.25];
    for (g, w) in f.iter().zip(want) {
        assert!((g - w).abs() < 1e-12, "{f:?}");
    }
    let f = gpu_fft::fftfreq(5, 1.0).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(f, [0.0, 0.2, 0.4, -0.4, -0.2]);
    let r = gpu_fft::rfftfreq(8, 1.0).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(r, [0.0, 0.125, 0.25, 0.375, 0.5]);
    let x = gpu_array::creation::arange(6)
        .unwrap()
        .reshape((2, 3))
        .unwrap();
    let s = gpu_fft::fftshift(&x, None)
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    assert_eq!(s, [5, 3, 4, 2, 0, 1]); // np.fft.fftshift(np.arange(6).reshape(2, 3))
    let s = gpu_fft::fftshift(&x, Some(&[1]))
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    assert_eq!(s, [2, 0, 1, 5, 3, 4]);
    let back = gpu_fft::ifftshift(&gpu_fft::fftshift(&x, None).unwrap(), None).unwrap();
    assert_eq!(back.to_vec::<i64>().unwrap(), [0, 1, 2, 3, 4, 5]);
    assert!(gpu_fft::fftfreq(0, 1.0).is_err());
}

#[test]
fn the_plan_cache_reuses_bounds_and_clears() {
    let Some(_device) = dev_alone() else {
        return;
    };
    let cache = config::get_plan_cache().unwrap();
    cache.clear();
    cache.set_size(3).unwrap();
    let x = gpu_array::creation::ones(64, DType::Complex64).unwrap();
    gpu_fft::fft(&x).unwrap();
    gpu_fft::fft(&x).unwrap();
    assert_eq!(cache.get_curr_size(), 1, "{}", cache.show_info());
    for n in [32usize, 48, 80, 96] {
        let y = gpu_array::creation::ones(n, DType::Complex64).unwrap();
        gpu_fft::fft(&y).unwrap();
    }
    assert_eq!(cache.get_curr_size(), 3);
    assert!(cache.show_info().contains("current / max size   : 3 / 3"));
    cache.set_memsize(0).unwrap();
    assert!(cache.get_curr_memsize() == 0);
    cache.set_memsize(-1).unwrap();
    assert!(cache.set_memsize(-5).is_err());
    // A plan used after the cache was cleared still gives right values.
    cache.clear();
    assert_eq!(cache.get_curr_size(), 0);
    let y = gpu_fft::fft(&x)
        .unwrap()
        .to_vec_as::<num_complex::Complex<f64>>()
        .unwrap();
    assert!((y[0].re - 64.0).abs() < 1e-4 && y[1].norm() < 1e-4);
    cache.set_size(16).unwrap();
    assert!(config::show_plan_cache_info().contains("cuFFT plan cache"));
}

#[test]
fn streams_get_their_own_plans() {
    let Some(_device) = dev_alone() else {
        return;
    };
    let cache = config::get_plan_cache().unwrap();
    cache.clear();
    let x = gpu_array::creation::ones(128, DType::Complex128).unwrap();
    gpu_fft::fft(&x).unwrap();
    let s = gpu_runtime::Stream::new().unwrap();
    {
        let _g = s.use_stream();
        let y = gpu_fft::fft(&x).unwrap();
        let v = y.to_vec_as::<num_complex::Complex<f64>>().unwrap();
        assert!((v[0].re - 128.0).abs() < 1e-9);
    }
    assert_eq!(cache.get_curr_size(), 2, "{}", cache.show_info());
}

#[test]
fn explicit_plans_are_used_and_refused_on_other_layouts() {
    let Some(_device) = dev() else {
        return;
    };
    use gpu_fft::{Transform, get_fft_plan};
    let x = gpu_array::creation::ones((8, 64), DType::Complex64).unwrap();
    let plan = get_fft_plan(&x, Transform::Fft, &FftnOptions::new().axes(&[1])).unwrap();
    assert_eq!(plan.shape(), &[64]);
    assert_eq!(plan.fft_type(), gpu_fft::FftType::C2C);
    let y = gpu_fft::fft_with(&x, &FftOptions::new().plan(&plan)).unwrap();
    let v = y.to_vec_as::<num_complex::Complex<f64>>().unwrap();
    assert!((v[0].re - 64.0).abs() < 1e-4 && v[1].norm() < 1e-4);
    // The inverse shares the plan; as a scope too.
    {
        let _g = plan.scoped();
        let z = gpu_fft::ifft(&x)
            .unwrap()
            .to_vec_as::<num_complex::Complex<f64>>()
            .unwrap();
        assert!((z[0].re - 1.0).abs() < 1e-6);
        // Another shape inside the scope is refused, not silently planned.
        let other = gpu_array::creation::ones((8, 32), DType::Complex64).unwrap();
        let e = gpu_fft::fft(&other).unwrap_err();
        assert!(message(e).contains("The cuFFT plan and the transform do not match"));
    }
    // Out of the scope, any shape plans itself again.
    let other = gpu_array::creation::ones((8, 32), DType::Complex64).unwrap();
    gpu_fft::fft(&other).unwrap();
    // A real plan for rfft.
    let r = gpu_array::creation::ones(1000, DType::Float32).unwrap();
    let rp = get_fft_plan(&r, Transform::Rfft, &Default::default()).unwrap();
    assert_eq!(rp.fft_type(), gpu_fft::FftType::R2C);
    let y = gpu_fft::rfft_with(&r, &FftOptions::new().plan(&rp)).unwrap();
    assert_eq!(y.shape(), &[501]);
    // Four axes need two plans: refused with a reason.
    let four = gpu_array::creation::ones((2, 2, 2, 2), DType::Complex64).unwrap();
    assert!(matches!(
        get_fft_plan(&four, Transform::Fft, &Default::default()),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn multi_gpu_transforms_or_their_single_gpu_fallback() {
    let Some(_device) = dev() else {
        return;
    };
    let n = 1 << 16;
    let x = gpu_array::creation::arange_with(0.0, n as f64, 1.0, Some(DType::Float64))
        .unwrap()
        .astype(DType::Complex128)
        .unwrap();
    let single = gpu_fft::fft(&x)
        .unwrap()
        .to_vec_as::<num_complex::Complex<f64>>()
        .unwrap();
    // Switched on without a GPU set: the usual single-GPU transform.
    config::use_multi_gpus(true);
    let same = gpu_fft::fft(&x)
        .unwrap()
        .to_vec_as::<num_complex::Complex<f64>>()
        .unwrap();
    assert_eq!(single, same);
    let count = gpu_runtime::Device::count().unwrap();
    if count < 2 {
        let e = config::set_cufft_gpus(2).unwrap_err();
        assert!(message(e).contains("not present"));
        assert_eq!(
            message(config::set_cufft_gpus(1).unwrap_err()),
            "Must use at least 2 GPUs."
        );
        gpu_runtime::testing::skip_part("2 GPUs", "the multi-GPU transform itself");
    } else {
        config::set_cufft_gpus(2).unwrap();
        for inverse in [false, true] {
            let got = if inverse {
                gpu_fft::ifft(&x)
            } else {
                gpu_fft::fft(&x)
            }
            .unwrap()
            .to_vec_as::<num_complex::Complex<f64>>()
            .unwrap();
            let tol = 1e-9 * single.iter().map(|z| z.norm()).fold(0.0, f64::max);
            let reference = if inverse {
                config::use_multi_gpus(false);
                let r = gpu_fft::ifft(&x)
                    .unwrap()
                    .to_vec_as::<num_complex::Complex<f64>>()
                    .unwrap();
                config::use_multi_gpus(true);
                r
            } else {
                single.clone()
            };
            for (g, w) in got.iter().zip(&reference) {
                assert!((g - w).norm() <= tol.max(1e-9), "{g} vs {w}");
            }
        }
    }
    config::use_multi_gpus(false);
}
