//! The analytic signal (`hilbert`, `hilbert2`): SciPy's construction
//! through gpu-fft, the negative frequencies zeroed and the positive ones
//! doubled by one multiplication with a mask along the axes.

use gpu_array::{Array, DType, Error, Result, ufunc};
use gpu_fft::{FftOptions, FftnOptions};

use super::check_axis;

/// The mask's dtype for spectra of `dt` (single precision kept).
fn mask_dtype(dt: DType) -> DType {
    if dt == DType::Complex64 {
        DType::Float32
    } else {
        DType::Float64
    }
}

/// SciPy's (1.17) mask of `hilbert2` along one axis of `n` bins (`n >=
/// 1`): 1 at the zero frequency, 2 below `k = (n + 1) / 2`, 0 from `k` on,
/// so an even length's Nyquist bin is zeroed (the single-orthant spectrum
/// of SciPy's docs; the GPU run of the goldens showed it).
fn orthant_mask(n: usize) -> Vec<f64> {
    let k = n.div_ceil(2);
    (0..n)
        .map(|i| match i {
            0 => 1.0,
            i if i < k => 2.0,
            _ => 0.0,
        })
        .collect()
}

/// SciPy's mask of `hilbert` (1-D): [`orthant_mask`], but an even
/// length's Nyquist bin `n / 2` kept (1).
fn analytic_mask(n: usize) -> Vec<f64> {
    let mut h = orthant_mask(n);
    if n.is_multiple_of(2) {
        h[n / 2] = 1.0;
    }
    h
}

/// `h` as an array of `ndim` dimensions, all 1 but `axis`.
fn along(h: &[f64], ndim: usize, axis: usize, dt: DType) -> Result<Array> {
    let mut shape = vec![1usize; ndim];
    shape[axis] = h.len();
    Array::from_slice(h, &[h.len()])?
        .astype(dt)?
        .reshape(&shape[..])
}

/// SciPy's keywords of [`hilbert_with`]: `N` (default the length along
/// `axis`) and `axis` (-1).
///
/// ```
/// let o = gpu_signal::HilbertOptions::default().n(Some(256)).axis(0);
/// assert_eq!((o.n, o.axis), (Some(256), 0));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct HilbertOptions {
    /// The transform length (`x` cut or zero-padded to it).
    pub n: Option<usize>,
    /// The axis of the signals.
    pub axis: isize,
}

impl Default for HilbertOptions {
    fn default() -> Self {
        HilbertOptions { n: None, axis: -1 }
    }
}

impl HilbertOptions {
    /// Sets `N`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::HilbertOptions::default().n(Some(8)).n, Some(8));
    /// ```
    #[must_use]
    pub fn n(mut self, n: Option<usize>) -> Self {
        self.n = n;
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::HilbertOptions::default().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }
}

/// SciPy's `hilbert(x)`: the analytic signal of real `x` along the last
/// axis, `ifft(fft(x) * h)` with `h` 1 at DC (and Nyquist), 2 on the
/// positive and 0 on the negative frequencies (complex64 for float32
/// input, complex128 otherwise).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::hilbert;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1000], DType::Float64)?;
/// let envelope = gpu_array::ufunc::absolute(&hilbert(&x)?)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`hilbert_with`].
pub fn hilbert(x: &Array) -> Result<Array> {
    hilbert_with(x, &HilbertOptions::default())
}

/// [`hilbert`] with SciPy's `N=` and `axis=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{HilbertOptions, hilbert_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([64, 8], DType::Float32)?;
/// let a = hilbert_with(&x, &HilbertOptions::default().axis(0).n(Some(128)))?; // (128, 8)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: complex `x` ("x must be real."), `N == 0` ("N must be
/// positive."); an axis out of range; failed transforms.
pub fn hilbert_with(x: &Array, opts: &HilbertOptions) -> Result<Array> {
    if x.dtype().is_complex() {
        return Err(Error::Value("x must be real.".into()));
    }
    let axis = check_axis(opts.axis, x.ndim())?;
    let n = opts.n.unwrap_or(x.shape()[axis]);
    if n == 0 {
        return Err(Error::Value("N must be positive.".into()));
    }
    let xf = gpu_fft::fft_with(x, &FftOptions::new().n(n).axis(axis as isize))?;
    let h = along(&analytic_mask(n), x.ndim(), axis, mask_dtype(xf.dtype()))?;
    let y = ufunc::multiply(&xf, &h)?;
    gpu_fft::ifft_with(&y, &FftOptions::new().axis(axis as isize))
}

/// SciPy's keywords of [`hilbert2_with`]: `N` (default the lengths along
/// `axes`) and `axes` ((-2, -1)).
///
/// ```
/// let o = gpu_signal::Hilbert2Options::default().n(Some([16, 32]));
/// assert_eq!((o.n, o.axes), (Some([16, 32]), [-2, -1]));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Hilbert2Options {
    /// The transform lengths along the two axes.
    pub n: Option<[usize; 2]>,
    /// The two axes.
    pub axes: [isize; 2],
}

impl Default for Hilbert2Options {
    fn default() -> Self {
        Hilbert2Options {
            n: None,
            axes: [-2, -1],
        }
    }
}

impl Hilbert2Options {
    /// Sets `N` (one length for both axes: `[n, n]`).
    ///
    /// ```
    /// assert_eq!(gpu_signal::Hilbert2Options::default().n(Some([4, 4])).n, Some([4, 4]));
    /// ```
    #[must_use]
    pub fn n(mut self, n: Option<[usize; 2]>) -> Self {
        self.n = n;
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::Hilbert2Options::default().axes([0, 2]).axes, [0, 2]);
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: [isize; 2]) -> Self {
        self.axes = axes;
        self
    }
}

/// SciPy's `hilbert2(x)`: the 2-D analytic signal of real `x` over its
/// last two axes (at least 2-D; 1-D input taken as one row).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::hilbert2;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([64, 64], DType::Float64)?;
/// let a = hilbert2(&img)?; // complex128 (64, 64)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`hilbert2_with`].
pub fn hilbert2(x: &Array) -> Result<Array> {
    hilbert2_with(x, &Hilbert2Options::default())
}

/// [`hilbert2`] with SciPy's `N=` and `axes=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{Hilbert2Options, hilbert2_with};
/// # fn main() -> gpu_array::Result<()> {
/// let v = gpu_array::creation::ones([4, 30, 40], DType::Float64)?;
/// let a = hilbert2_with(&v, &Hilbert2Options::default().axes([1, 2]).n(Some([32, 48])))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: complex `x` ("x must be real."), equal axes ("axes must
/// contain 2 distinct axes"), a zero length ("When given as a tuple, N
/// must hold exactly two positive integers"); failed transforms.
pub fn hilbert2_with(x: &Array, opts: &Hilbert2Options) -> Result<Array> {
    let x = match x.ndim() {
        0 => x.reshape(&[1usize, 1][..])?,
        1 => x.reshape(&[1usize, x.size()][..])?,
        _ => x.clone(),
    };
    if x.dtype().is_complex() {
        return Err(Error::Value("x must be real.".into()));
    }
    let a0 = check_axis(opts.axes[0], x.ndim())?;
    let a1 = check_axis(opts.axes[1], x.ndim())?;
    if a0 == a1 {
        return Err(Error::Value("axes must contain 2 distinct axes".into()));
    }
    let n = opts.n.unwrap_or([x.shape()[a0], x.shape()[a1]]);
    if n[0] == 0 || n[1] == 0 {
        return Err(Error::Value(
            "When given as a tuple, N must hold exactly two positive integers".into(),
        ));
    }
    let axes = [a0 as isize, a1 as isize];
    let xf = gpu_fft::fftn_with(&x, &FftnOptions::new().s(&n).axes(&axes))?;
    let dt = mask_dtype(xf.dtype());
    let h0 = along(&orthant_mask(n[0]), x.ndim(), a0, dt)?;
    let h1 = along(&orthant_mask(n[1]), x.ndim(), a1, dt)?;
    let y = ufunc::multiply(&ufunc::multiply(&xf, &h0)?, &h1)?;
    gpu_fft::ifftn_with(&y, &FftnOptions::new().axes(&axes))
}

#[cfg(test)]
mod tests {
    use super::{analytic_mask, orthant_mask};

    #[test]
    fn masks_keep_or_zero_the_nyquist_bin_as_scipys() {
        assert_eq!(analytic_mask(1), [1.0]);
        assert_eq!(analytic_mask(2), [1.0, 1.0]);
        assert_eq!(analytic_mask(5), [1.0, 2.0, 2.0, 0.0, 0.0]);
        assert_eq!(analytic_mask(6), [1.0, 2.0, 2.0, 1.0, 0.0, 0.0]);
        assert_eq!(orthant_mask(1), [1.0]);
        assert_eq!(orthant_mask(2), [1.0, 0.0]);
        assert_eq!(orthant_mask(5), [1.0, 2.0, 2.0, 0.0, 0.0]);
        assert_eq!(orthant_mask(6), [1.0, 2.0, 2.0, 0.0, 0.0, 0.0]);
    }
}
