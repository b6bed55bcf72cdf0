//! FFT: `cupy.fft` is [`crate::fft`] (gpu-fft, on cuFFT).
//!
//! | CuPy                                         | Cuprum                                                       |
//! |----------------------------------------------|--------------------------------------------------------------|
//! | `cp.fft.fft(x)`, `cp.fft.ifft(X)`            | `fft::fft(&x)?`, `fft::ifft(&big_x)?`                         |
//! | `cp.fft.fft(x, n=128, axis=0, norm="ortho")` | `fft::fft_with(&x, &FftOptions::new().n(128).axis(0).norm(Norm::Ortho))?` |
//! | `cp.fft.rfft2(img)`, `cp.fft.irfftn(F, s)`    | `fft::rfft2(&img)?`, `fft::irfftn_with(&f, &FftnOptions::new().s(&s))?` |
//! | `cp.fft.fftfreq(n, d)`, `cp.fft.fftshift(F)` | `fft::fftfreq(n, d)?`, `fft::fftshift(&f, None)?`              |
//! | `cupyx.scipy.fft.dct(x, type=4)`             | `fft::dct_with(&x, &DctOptions::new().kind(4))?`              |
//! | `cupyx.scipy.fftpack.rfft(x)`                | `fft::fftpack::rfft(&x, None, -1)?`                           |
//! | `cp.fft.config.get_plan_cache()`             | `fft::config::get_plan_cache()?`                              |
//! | `plan = get_fft_plan(x)`; `with plan:`       | `let plan = fft::get_fft_plan(&x, Transform::Fft, &opts)?; let _g = plan.scoped();` |
//!
//! Dtypes are NumPy 2's: float32 and float16 stay single precision,
//! integers and float64 go to double. Inputs are read where they lie
//! (strided and transposed views included) whenever cuFFT can address
//! them, so a result may be a transposed view, as CuPy's are. Plans are
//! cached per device and stream, and their work areas come from the
//! memory pool. `crates/cuprum/examples/11_fft.rs` runs these steps and
//! checks them.
//!
//! ```no_run
//! use cuprum::{self as cp, fft};
//!
//! fn main() -> cp::Result<()> {
//!     let t = cp::arange(64)?;
//!     let x = cp::cos(cp::multiply(&t, 2.0 * std::f64::consts::PI * 5.0 / 64.0)?)?;
//!     let spectrum = cp::absolute(&fft::rfft(&x)?)?; // peaks at bin 5
//!     println!("{spectrum}");
//!     Ok(())
//! }
//! ```
