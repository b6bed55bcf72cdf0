//! The Fourier-domain filters of `scipy.ndimage._fourier`:
//! [`fourier_gaussian`], [`fourier_uniform`], [`fourier_ellipsoid`] and
//! [`fourier_shift`] multiply a discrete Fourier transform (as
//! `gpu_fft::fftn` or, with `n`, `rfftn` along one axis, returns it) by
//! the transform of a kernel, so that the inverse transform is the
//! filtered image.
//!
//! Each is one elementwise kernel (`kernels/fourier.cuh`, run through
//! gpu-array's `ElementwiseKernel`, so any strides and any output array
//! work): the host builds SciPy's per-axis tables (`ni_fourier.c`: the
//! frequency index `k` of each position, `0..n` along a real transform's
//! axis and `0, 1, .., -2, -1` along the others), and each element takes
//! the product (or sum) of its axes' entries, in float64 as SciPy.

use std::sync::OnceLock;

use gpu_array::elementwise::ElementwiseKernel;
use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result};

use crate::Output;
use crate::output::per_axis;

/// SciPy's keywords of the Fourier filters: `n` (the length of the real
/// transform along `axis`; `None` for a complex transform, SciPy's
/// `n=-1`), `axis` (default -1) and `output=`.
///
/// ```
/// use gpu_ndimage::FourierOptions;
/// let o = FourierOptions::default().n(64).axis(0);
/// assert_eq!((o.n, o.axis), (Some(64), 0));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct FourierOptions<'a> {
    /// The length of the signal whose real transform (`rfft`) the input
    /// holds along `axis` (`None`: every axis holds a complex transform).
    pub n: Option<usize>,
    /// The axis of the real transform (default -1).
    pub axis: isize,
    /// Where the result goes (default: float32 or the complex dtype of
    /// the input when it is one of those, float64 (complex128 for
    /// `fourier_shift`) otherwise, as SciPy).
    pub output: Output<'a>,
}

impl Default for FourierOptions<'_> {
    fn default() -> Self {
        FourierOptions {
            n: None,
            axis: -1,
            output: Output::None,
        }
    }
}

impl<'a> FourierOptions<'a> {
    /// Sets `n`, the real transform's signal length along `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::FourierOptions::default().n(10).n, Some(10));
    /// ```
    #[must_use]
    pub fn n(mut self, n: usize) -> Self {
        self.n = Some(n);
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::FourierOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{FourierOptions, Output};
    /// let o = FourierOptions::default().output(Output::DType(DType::Complex64));
    /// assert!(matches!(o.output, Output::DType(DType::Complex64)));
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output<'a>) -> Self {
        self.output = output;
        self
    }
}

/// What the kernel does with its tables (`kind` in `fourier.cuh`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The product of the tables (Gaussian, uniform).
    Product,
    /// The ellipsoid of this rank (1 to 3) from the sum of the tables.
    Ellipsoid(usize),
    /// The phase sum of a shift.
    Shift,
}

impl Kind {
    fn code(self) -> i32 {
        match self {
            Kind::Product => 0,
            Kind::Ellipsoid(r) => r as i32,
            Kind::Shift => 4,
        }
    }
}

/// SciPy's frequency indices along an axis of `len` positions: `0..len`
/// along the real transform's axis, `0, 1, .., -2, -1` (numpy's
/// `fftfreq` order) along the others.
pub(crate) fn frequency_indices(len: usize, real: bool) -> Vec<f64> {
    if real {
        return (0..len).map(|k| k as f64).collect();
    }
    let pos = len.div_ceil(2);
    let neg = len / 2;
    (0..pos)
        .map(|k| k as f64)
        .chain((1..=neg).rev().map(|k| -(k as f64)))
        .collect()
}

/// One axis of the transform: its frequency indices and the signal
/// length they divide (`n` along the real axis).
struct Axis {
    k: Vec<f64>,
    len: f64,
    /// The axis holds more than one position (SciPy skips the others).
    used: bool,
}

fn axes_of(shape: &[usize], opts: &FourierOptions<'_>) -> Result<Vec<Axis>> {
    let axis = normalize_axis(opts.axis, shape.len())?;
    Ok(shape
        .iter()
        .enumerate()
        .map(|(d, &len)| {
            let real = d == axis && opts.n.is_some();
            let scale = if real { opts.n.unwrap_or(len) } else { len };
            Axis {
                k: frequency_indices(len, real),
                len: scale as f64,
                used: len > 1,
            }
        })
        .collect())
}

/// SciPy's Gaussian tables: `exp(-2 (sigma pi / len)^2 k^2)`, 0 where
/// the exponent is below -50.
fn gaussian_tables(axes: &[Axis], sigma: &[f64]) -> Vec<Vec<f64>> {
    axes.iter()
        .zip(sigma)
        .map(|(a, &s)| {
            if !a.used {
                return vec![1.0; a.k.len()];
            }
            let p = s * std::f64::consts::PI / a.len;
            let p = -2.0 * p * p;
            a.k.iter()
                .map(|&k| {
                    let t = p * k * k;
                    if t.abs() > 50.0 { 0.0 } else { t.exp() }
                })
                .collect()
        })
        .collect()
}

/// SciPy's box tables: `sin(t k) / (t k)` with `t = pi size / len`, 1 at
/// `k = 0` and 0 elsewhere for a size that is not positive.
fn uniform_tables(axes: &[Axis], size: &[f64]) -> Vec<Vec<f64>> {
    axes.iter()
        .zip(size)
        .map(|(a, &s)| {
            if !a.used {
                return vec![1.0; a.k.len()];
            }
            let t = std::f64::consts::PI * s / a.len;
            a.k.iter()
                .map(|&k| match (k == 0.0, t > 0.0) {
                    (true, _) => 1.0,
                    (false, true) => (t * k).sin() / (t * k),
                    (false, false) => 0.0,
                })
                .collect()
        })
        .collect()
}

/// SciPy's ellipsoid tables: `k pi size / len`, squared for 2-D and 3-D
/// inputs (the kernel sums them into the squared radius).
fn ellipsoid_tables(axes: &[Axis], size: &[f64]) -> Vec<Vec<f64>> {
    let square = axes.len() > 1;
    axes.iter()
        .zip(size)
        .map(|(a, &s)| {
            let t = std::f64::consts::PI * s / a.len;
            a.k.iter()
                .map(|&k| {
                    let v = k * t;
                    if square { v * v } else { v }
                })
                .collect()
        })
        .collect()
}

/// SciPy's shift tables: the phases `-2 pi shift k / len`.
fn shift_tables(axes: &[Axis], shift: &[f64]) -> Vec<Vec<f64>> {
    axes.iter()
        .zip(shift)
        .map(|(a, &s)| {
            if !a.used {
                return vec![0.0; a.k.len()];
            }
            let p = -2.0 * std::f64::consts::PI * s / a.len;
            a.k.iter().map(|&k| p * k).collect()
        })
        .collect()
}

/// The tables in one array and the geometry the kernel reads: each axis'
/// length, C-order stride and table offset.
fn pack(shape: &[usize], tables: &[Vec<f64>]) -> Result<(Vec<f64>, Vec<i64>)> {
    let nd = shape.len();
    let mut geom = vec![0i64; 3 * nd];
    let mut stride = 1usize;
    for d in (0..nd).rev() {
        geom[d] = shape[d] as i64;
        geom[nd + d] = stride as i64;
        stride = stride
            .checked_mul(shape[d].max(1))
            .ok_or_else(|| Error::Overflow("array too large".into()))?;
    }
    let mut tab = Vec::new();
    for (d, t) in tables.iter().enumerate() {
        geom[2 * nd + d] = tab.len() as i64;
        tab.extend_from_slice(t);
    }
    if tab.is_empty() {
        tab.push(0.0); // a zero-size input: never read
    }
    Ok((tab, geom))
}

/// The output dtype SciPy picks (`_get_output_fourier` and its complex
/// variant), checked in its words.
fn output_dtype(input: &Array, output: &Output<'_>, complex_only: bool) -> Result<DType> {
    let it = input.dtype();
    let allowed: &[DType] = if complex_only {
        &[DType::Complex64, DType::Complex128]
    } else {
        &[
            DType::Float32,
            DType::Float64,
            DType::Complex64,
            DType::Complex128,
        ]
    };
    let dt = match output {
        Output::None => {
            if allowed.contains(&it) {
                it
            } else if complex_only {
                DType::Complex128
            } else {
                DType::Float64
            }
        }
        Output::DType(d) => {
            if !allowed.contains(d) {
                return Err(Error::NumpyRuntime("output type not supported".into()));
            }
            *d
        }
        Output::Array(a) => {
            if a.shape() != input.shape() {
                return Err(Error::NumpyRuntime("output shape not correct".into()));
            }
            if !allowed.contains(&a.dtype()) {
                return Err(Error::NumpyRuntime("data type not supported".into()));
            }
            a.dtype()
        }
    };
    let input_ok = it == DType::Bool
        || it.is_integer()
        || matches!(it, DType::Float32 | DType::Float64)
        || it.is_complex();
    if !input_ok || (it.is_complex() && !dt.is_complex()) {
        return Err(Error::NumpyRuntime("data type not supported".into()));
    }
    Ok(dt)
}

const PARAMS_IN: &str = "X x, raw float64 tab, raw int64 geom, int32 nd, int32 kind";

/// The kernel for real (`false`) or complex input.
pub(crate) fn kernel(complex_input: bool) -> Result<&'static ElementwiseKernel> {
    static REAL: OnceLock<ElementwiseKernel> = OnceLock::new();
    static COMPLEX: OnceLock<ElementwiseKernel> = OnceLock::new();
    let (cell, body, name) = if complex_input {
        (
            &COMPLEX,
            "const double f = cuprum_ndimage_fourier_factor((long long)i, tab.data(), geom.data(), nd, kind);\n\
             const cuprum::complex<double> v = cuprum::cast<cuprum::complex<double>>(x);\n\
             if (kind == 4) {\n\
               const double s = sin(f), c = cos(f);\n\
               y = cuprum::cast<Y>(cuprum::complex<double>(v.real() * c - v.imag() * s, v.real() * s + v.imag() * c));\n\
             } else {\n\
               y = cuprum::cast<Y>(cuprum::complex<double>(v.real() * f, v.imag() * f));\n\
             }",
            "cuprum_ndimage_fourier_complex",
        )
    } else {
        (
            &REAL,
            "const double f = cuprum_ndimage_fourier_factor((long long)i, tab.data(), geom.data(), nd, kind);\n\
             const double v = cuprum::cast<double>(x);\n\
             if (kind == 4) {\n\
               y = cuprum::cast<Y>(cuprum::complex<double>(v * cos(f), v * sin(f)));\n\
             } else {\n\
               y = cuprum::cast<Y>(f * v);\n\
             }",
            "cuprum_ndimage_fourier_real",
        )
    };
    if let Some(k) = cell.get() {
        return Ok(k);
    }
    let k = ElementwiseKernel::new(PARAMS_IN, "Y y", body, name)?
        .with_preamble(include_str!("kernels/fourier.cuh"));
    Ok(cell.get_or_init(|| k))
}

/// Runs the kernel of `kind` with `tables` over `input` into the output.
fn apply(
    input: &Array,
    tables: &[Vec<f64>],
    kind: Kind,
    dt: DType,
    output: Output<'_>,
) -> Result<Array> {
    let (tab, geom) = pack(input.shape(), tables)?;
    let tab = Array::from_slice(&tab, &[tab.len()])?;
    let geom_a = Array::from_slice(&geom, &[geom.len()])?;
    let out = match output {
        Output::Array(a) => a.clone(),
        _ => Array::empty(input.shape(), dt)?,
    };
    if input.size() == 0 {
        return Ok(out);
    }
    let k = kernel(input.dtype().is_complex())?;
    k.call(
        &[
            input.into(),
            (&tab).into(),
            (&geom_a).into(),
            (input.ndim() as i32).into(),
            kind.code().into(),
        ],
        &[&out],
        None,
    )?;
    Ok(out)
}

/// SciPy's `fourier_gaussian`: multiplies a Fourier transform by the
/// transform of the Gaussian of standard deviation `sigma` along every
/// axis.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::fourier_gaussian;
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([64, 64], DType::Complex128)?;
/// let smoothed = fourier_gaussian(&spectrum, 2.0)?; // ifftn it for the image
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_gaussian_with`].
pub fn fourier_gaussian(input: &Array, sigma: f64) -> Result<Array> {
    fourier_gaussian_with(input, &[sigma], &FourierOptions::default())
}

/// [`fourier_gaussian`] with one sigma or one per axis, and SciPy's `n=`,
/// `axis=` and `output=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FourierOptions, fourier_gaussian_with};
/// # fn main() -> gpu_array::Result<()> {
/// // The rfft of a 64 x 64 image along its last axis: 64 x 33.
/// let half = gpu_array::creation::ones([64, 33], DType::Complex64)?;
/// let y = fourier_gaussian_with(&half, &[2.0, 1.0], &FourierOptions::default().n(64))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a sigma sequence of the wrong length ("sequence argument must
/// have length equal to input rank"), an axis out of range, an output
/// dtype other than float32, float64, complex64 and complex128 ("output
/// type not supported"), an output array of another shape ("output shape
/// not correct"), complex input into a real output or a float16 input
/// ("data type not supported").
pub fn fourier_gaussian_with(
    input: &Array,
    sigma: &[f64],
    opts: &FourierOptions<'_>,
) -> Result<Array> {
    let dt = output_dtype(input, &opts.output, false)?;
    let axes = axes_of(input.shape(), opts)?;
    let sigma = per_axis(sigma, input.ndim())?;
    apply(
        input,
        &gaussian_tables(&axes, &sigma),
        Kind::Product,
        dt,
        opts.output,
    )
}

/// SciPy's `fourier_uniform`: multiplies a Fourier transform by the
/// transform of a box of side `size` along every axis.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::fourier_uniform;
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([32, 32], DType::Complex128)?;
/// let y = fourier_uniform(&spectrum, 5.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_gaussian_with`].
pub fn fourier_uniform(input: &Array, size: f64) -> Result<Array> {
    fourier_uniform_with(input, &[size], &FourierOptions::default())
}

/// [`fourier_uniform`] with one size or one per axis, and SciPy's
/// keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FourierOptions, fourier_uniform_with};
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([32, 32], DType::Complex128)?;
/// let y = fourier_uniform_with(&spectrum, &[5.0, 3.0], &FourierOptions::default())?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_gaussian_with`].
pub fn fourier_uniform_with(
    input: &Array,
    size: &[f64],
    opts: &FourierOptions<'_>,
) -> Result<Array> {
    let dt = output_dtype(input, &opts.output, false)?;
    let axes = axes_of(input.shape(), opts)?;
    let size = per_axis(size, input.ndim())?;
    apply(
        input,
        &uniform_tables(&axes, &size),
        Kind::Product,
        dt,
        opts.output,
    )
}

/// SciPy's `fourier_ellipsoid`: multiplies a Fourier transform of one to
/// three dimensions by the transform of an ellipsoid of axis lengths
/// `size` (a box's sinc in 1-D, a disc's `2 J1(r) / r` in 2-D, a ball's
/// `3 (sin r - r cos r) / r^3` in 3-D).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::fourier_ellipsoid;
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([32, 32], DType::Complex128)?;
/// let y = fourier_ellipsoid(&spectrum, 6.0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_ellipsoid_with`].
pub fn fourier_ellipsoid(input: &Array, size: f64) -> Result<Array> {
    fourier_ellipsoid_with(input, &[size], &FourierOptions::default())
}

/// [`fourier_ellipsoid`] with one size or one per axis, and SciPy's
/// keywords.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FourierOptions, fourier_ellipsoid_with};
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([16, 16, 9], DType::Complex128)?;
/// let y = fourier_ellipsoid_with(&spectrum, &[4.0, 4.0, 2.0], &FourierOptions::default().n(16))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_gaussian_with`]; more than three dimensions (SciPy's
/// "Only 1d, 2d and 3d inputs are supported", `Unsupported`).
pub fn fourier_ellipsoid_with(
    input: &Array,
    size: &[f64],
    opts: &FourierOptions<'_>,
) -> Result<Array> {
    if input.ndim() > 3 {
        return Err(Error::Unsupported(
            "Only 1d, 2d and 3d inputs are supported".into(),
        ));
    }
    let dt = output_dtype(input, &opts.output, false)?;
    let axes = axes_of(input.shape(), opts)?;
    let size = per_axis(size, input.ndim())?;
    let kind = Kind::Ellipsoid(input.ndim());
    apply(
        input,
        &ellipsoid_tables(&axes, &size),
        kind,
        dt,
        opts.output,
    )
}

/// SciPy's `fourier_shift`: multiplies a Fourier transform by the phase
/// ramp that shifts the image by `shift` along every axis (a complex
/// result).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::fourier_shift;
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([32, 32], DType::Complex128)?;
/// let moved = fourier_shift(&spectrum, 2.5)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_shift_with`].
pub fn fourier_shift(input: &Array, shift: f64) -> Result<Array> {
    fourier_shift_with(input, &[shift], &FourierOptions::default())
}

/// [`fourier_shift`] with one shift or one per axis, and SciPy's
/// keywords (complex outputs only).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{FourierOptions, Output, fourier_shift_with};
/// # fn main() -> gpu_array::Result<()> {
/// let spectrum = gpu_array::creation::ones([32, 17], DType::Complex64)?;
/// let o = FourierOptions::default().n(32).output(Output::DType(DType::Complex64));
/// let moved = fourier_shift_with(&spectrum, &[1.0, -3.0], &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`fourier_gaussian_with`]; a real output ("output type not
/// supported" for a dtype, "data type not supported" for an array).
pub fn fourier_shift_with(
    input: &Array,
    shift: &[f64],
    opts: &FourierOptions<'_>,
) -> Result<Array> {
    let dt = output_dtype(input, &opts.output, true)?;
    let axes = axes_of(input.shape(), opts)?;
    let shift = per_axis(shift, input.ndim())?;
    apply(
        input,
        &shift_tables(&axes, &shift),
        Kind::Shift,
        dt,
        opts.output,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(len: usize, real: bool, n: usize) -> Axis {
        Axis {
            k: frequency_indices(len, real),
            len: n as f64,
            used: len > 1,
        }
    }

    #[test]
    fn frequency_indices_are_fftfreq_order() {
        assert_eq!(frequency_indices(5, false), [0., 1., 2., -2., -1.]);
        assert_eq!(frequency_indices(4, false), [0., 1., -2., -1.]);
        assert_eq!(frequency_indices(1, false), [0.]);
        assert!(frequency_indices(0, false).is_empty());
        assert_eq!(frequency_indices(3, true), [0., 1., 2.]);
    }

    #[test]
    fn tables_are_scipys() {
        // fourier_gaussian(ones(4), 1)[1] = exp(-2 (pi / 4)^2).
        let g = gaussian_tables(&[axis(4, false, 4)], &[1.0]);
        let e = (-2.0 * (std::f64::consts::PI / 4.0).powi(2)).exp();
        assert_eq!(g[0][0], 1.0);
        assert!((g[0][1] - e).abs() < 1e-16 && (g[0][3] - e).abs() < 1e-16);
        // Beyond exp(-50): 0.
        let g = gaussian_tables(&[axis(8, false, 8)], &[20.0]);
        assert_eq!(g[0][4], 0.0);
        // A length-1 axis takes no part.
        assert_eq!(gaussian_tables(&[axis(1, false, 1)], &[3.0]), [vec![1.0]]);
        let u = uniform_tables(&[axis(4, false, 4)], &[2.0]);
        let t = std::f64::consts::PI * 2.0 / 4.0;
        assert_eq!(
            u[0],
            [
                1.0,
                t.sin() / t,
                (2.0 * t).sin() / (2.0 * t),
                (-t).sin() / -t
            ]
        );
        assert_eq!(
            uniform_tables(&[axis(3, false, 3)], &[-1.0])[0],
            [1.0, 0.0, 0.0]
        );
        let el = ellipsoid_tables(&[axis(3, true, 5), axis(2, false, 2)], &[1.0, 1.0]);
        let t = std::f64::consts::PI / 5.0;
        assert_eq!(el[0], [0.0, t * t, (2.0 * t) * (2.0 * t)]);
        let s = shift_tables(&[axis(4, false, 4)], &[1.0]);
        let p = -2.0 * std::f64::consts::PI / 4.0;
        assert_eq!(s[0], [0.0, p, -2.0 * p, -p]);
    }

    #[test]
    fn packing_lays_out_lengths_strides_offsets() {
        let (tab, geom) = pack(&[2, 3], &[vec![1.0, 2.0], vec![3.0, 4.0, 5.0]]).unwrap();
        assert_eq!(tab, [1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(geom, [2, 3, 3, 1, 0, 2]);
    }
}
