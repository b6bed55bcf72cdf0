//! CuPy's "FFT Functions" in Rust: `cupy.fft` is `cuprum::fft`, with
//! NumPy's transforms, SciPy's DCT/DST and Hankel transforms, the plan
//! cache and explicit plans. The results are checked, not only printed.
//!
//! `cargo run -p cuprum --example 11_fft` on a machine with a GPU.

use cuprum::fft::{self, FftOptions, Norm};
use cuprum::{self as cp, DType};

fn main() -> cp::Result<()> {
    // A 5-cycle cosine over 64 samples: x = cp.cos(2 * cp.pi * 5 * cp.arange(64) / 64)
    let n = 64;
    let t = cp::arange(n as i64)?;
    let x = cp::cos(cp::multiply(
        &t,
        2.0 * std::f64::consts::PI * 5.0 / n as f64,
    )?)?;

    // X = cp.fft.fft(x): the energy sits at frequencies +5 and -5.
    let spectrum = fft::fft(&x)?;
    let mags = cp::absolute(&spectrum)?.to_vec::<f64>()?;
    let peak = (0..n)
        .max_by(|&a, &b| mags[a].total_cmp(&mags[b]))
        .unwrap_or(0);
    assert!(peak == 5 || peak == n - 5, "peak at {peak}");
    assert!((mags[5] - 32.0).abs() < 1e-9);

    // cp.fft.fftfreq(64, d=1/64)[5] is 5 Hz.
    let freqs = fft::fftfreq(n, 1.0 / n as f64)?.to_vec::<f64>()?;
    assert_eq!(freqs[5], 5.0);

    // The inverse gives x back; rfft keeps the n/2 + 1 non-negative bins.
    let back = fft::ifft(&spectrum)?.real().to_vec::<f64>()?;
    let xs = x.to_vec::<f64>()?;
    assert!(back.iter().zip(&xs).all(|(a, b)| (a - b).abs() < 1e-12));
    let half = fft::rfft(&x)?;
    assert_eq!(half.shape(), &[n / 2 + 1]);
    let again = fft::irfft(&half)?.to_vec::<f64>()?;
    assert!(again.iter().zip(&xs).all(|(a, b)| (a - b).abs() < 1e-12));

    // float32 stays single precision (NumPy 2); norm="ortho" keeps energy.
    let x32 = x.astype(DType::Float32)?;
    let y32 = fft::fft_with(&x32, &FftOptions::new().norm(Norm::Ortho))?;
    assert_eq!(y32.dtype(), DType::Complex64);
    let energy: f64 = cp::sum(&cp::square(&cp::absolute(&y32)?)?, ())?.to_scalar()?;
    assert!((energy - 32.0).abs() < 1e-3, "energy {energy}");

    // 2-D: cp.fft.fft2 over the last two axes; fftshift centres zero.
    let img = cp::ones((8, 8), DType::Complex64)?;
    let f2 = fft::fftshift(&fft::fft2(&img)?, None)?;
    let c: num_complex::Complex<f64> = f2.slice(&cp::s![4, 4])?.to_scalar()?;
    assert!((c.re - 64.0).abs() < 1e-4);

    // SciPy's DCT, all four types: idct inverts dct.
    let d = fft::dct_with(&x, &fft::DctOptions::new().kind(4).norm(Norm::Ortho))?;
    let x4 = fft::idct_with(&d, &fft::DctOptions::new().kind(4).norm(Norm::Ortho))?;
    assert!(
        x4.to_vec::<f64>()?
            .iter()
            .zip(&xs)
            .all(|(a, b)| (a - b).abs() < 1e-12)
    );

    // Plans are cached per device; an explicit plan can be reused. As
    // CuPy's get_fft_plan, no axes means every axis (an fftn plan): a
    // batch of 1-D transforms along the last axis names it.
    let cache = fft::config::get_plan_cache()?;
    assert!(cache.get_curr_size() > 0);
    let batch = cp::ones((16, 256), DType::Complex64)?;
    let plan = fft::get_fft_plan(
        &batch,
        fft::Transform::Fft,
        &fft::FftnOptions::new().axes(&[-1]),
    )?;
    let y = fft::fft_with(&batch, &FftOptions::new().plan(&plan))?;
    assert_eq!(y.shape(), &[16, 256]);
    println!("{}", cache.show_info());
    Ok(())
}
