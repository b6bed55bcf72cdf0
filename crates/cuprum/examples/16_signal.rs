//! SciPy's `scipy.signal` on the GPU: `cupyx.scipy.signal` is
//! `cuprum::signal`. Convolve, filter forward and backward, resample and
//! estimate a spectrum; the results are checked, not only printed.
//!
//! `cargo run -p cuprum --example 16_signal` on a machine with a GPU.

use cuprum::signal::{self, ConvolveOptions, Method, Mode, WelchOptions};
use cuprum::{self as cp, DType};

fn main() -> cp::Result<()> {
    // convolve([1, 2, 3], [0, 1, 0.5]): the direct sum or the FFTs.
    let x = cp::array([1.0, 2.0, 3.0])?;
    let k = cp::array([0.0, 1.0, 0.5])?;
    let direct = signal::convolve_with(&x, &k, &ConvolveOptions::default().method(Method::Direct))?;
    assert_eq!(direct.to_vec::<f64>()?, vec![0.0, 1.0, 2.5, 4.0, 1.5]);
    let fft = signal::convolve_with(&x, &k, &ConvolveOptions::default().method(Method::Fft))?;
    for (a, b) in fft.to_vec::<f64>()?.iter().zip(direct.to_vec::<f64>()?) {
        assert!((a - b).abs() < 1e-12);
    }
    let same = signal::convolve_with(&x, &k, &ConvolveOptions::default().mode(Mode::Same))?;
    assert_eq!(same.shape(), &[3]);

    // A median filter zero-pads: [2, 80, 6, 3, 1] -> [2, 6, 6, 3, 1].
    let spiky = cp::array([2.0, 80.0, 6.0, 3.0, 1.0])?;
    assert_eq!(
        signal::medfilt(&spiky)?.to_vec::<f64>()?,
        vec![2.0, 6.0, 6.0, 3.0, 1.0]
    );

    // A Butterworth low-pass run forward and backward keeps a constant.
    let (b, a) = signal::butter(4, &[0.2])?;
    let level = cp::full(500, &cp::Array::scalar(3.0f64)?, Some(DType::Float64))?;
    let smooth = signal::filtfilt(&b, &a, &level)?;
    assert!(
        smooth
            .to_vec::<f64>()?
            .iter()
            .all(|v| (v - 3.0).abs() < 1e-9)
    );

    // upfirdn and resample_poly: up 3, down 2.
    let h = cp::array([1.0, 1.0, 1.0])?;
    let y = signal::upfirdn(&h, &x)?;
    assert_eq!(y.to_vec::<f64>()?, vec![1.0, 3.0, 6.0, 5.0, 3.0]);
    let long = cp::arange(1000)?.astype(DType::Float64)?;
    assert_eq!(signal::resample_poly(&long, 3, 2)?.shape(), &[1500]);

    // Welch's estimate: nperseg / 2 + 1 frequencies of a real signal.
    let w = signal::welch_with(&long, &WelchOptions::default().nperseg(128))?;
    assert_eq!(w.f.shape(), &[65]);
    assert_eq!(w.pxx.shape(), &[65]);
    println!(
        "signal: convolve, medfilt, filtfilt, upfirdn, resample_poly and welch as SciPy computes them"
    );
    Ok(())
}
