//! Signal processing: `cupyx.scipy.signal` is [`crate::signal`]
//! (gpu-signal): convolution and correlation, the order and Wiener
//! filters, filtering (`lfilter` and its family, parallel along the
//! signal), resampling, spectral analysis with SciPy's windows, and
//! filter design.
//!
//! | CuPy / SciPy                                          | Cuprum                                                   |
//! |-------------------------------------------------------|----------------------------------------------------------|
//! | `signal.convolve(a, b)`, `signal.correlate(a, b)`     | `signal::convolve(&a, &b)?`, `signal::correlate(&a, &b)?` |
//! | `signal.convolve(a, b, mode='same', method='fft')`    | `signal::convolve_with(&a, &b, &ConvolveOptions::default().mode(Mode::Same).method(Method::Fft))?` |
//! | `signal.fftconvolve(a, b, axes=1)`                    | `signal::fftconvolve_with(&a, &b, &FftConvolveOptions::default().axes(&[1]))?` |
//! | `signal.convolve2d(img, k, 'same', 'symm')`           | `signal::convolve2d_with(&img, &k, &Conv2dOptions::default().mode(Mode::Same).boundary(Boundary::Symm))?` |
//! | `signal.medfilt2d(img, 5)`, `signal.wiener(img)`      | `signal::medfilt2d_with(&img, &[5])?`, `signal::wiener(&img)?` |
//! | `b, a = signal.butter(4, 0.2); signal.filtfilt(b, a, x)` | `let (b, a) = signal::butter(4, &[0.2])?; signal::filtfilt(&b, &a, &x)?` |
//! | `f, pxx = signal.welch(x, nperseg=1024)`              | `let w = signal::welch_with(&x, &WelchOptions::default().nperseg(1024))?; (w.f, w.pxx)` |
//! | `signal.resample_poly(x, 3, 2)`                       | `signal::resample_poly(&x, 3, 2)?`                       |
//! | `signal.upfirdn(h, x, 3, 2)`, `signal.resample(x, n)` | `signal::upfirdn_with(&h, &x, &UpfirdnOptions::default().up(3).down(2))?`, `signal::resample(&x, n)?` |
//!
//! Every function is SciPy's call with its defaults, and a `_with`
//! variant takes the keywords as an options struct whose defaults are
//! SciPy's; string options are enums that also parse from SciPy's names
//! (`"same".parse::<Mode>()?`), with SciPy's error messages. Results match
//! SciPy's goldens (`crates/gpu-signal/testdata`), and `Method::Auto`
//! chooses between the direct sum and the FFTs by SciPy's own rule, so a
//! result is computed the way SciPy would compute it.
//!
//! ```no_run
//! use cuprum::{self as cp, DType};
//! use cuprum::signal::{self, ConvolveOptions, Mode};
//!
//! fn main() -> cp::Result<()> {
//!     let x = cp::arange(1000)?.astype(DType::Float64)?;
//!     let k = cp::ones(31, DType::Float64)?;
//!     let smooth = signal::convolve_with(&x, &k, &ConvolveOptions::default().mode(Mode::Same))?;
//!     assert_eq!(smooth.shape(), &[1000]);
//!     let fine = signal::resample(&smooth, 3000)?;
//!     assert_eq!(fine.shape(), &[3000]);
//!     Ok(())
//! }
//! ```
