//! `resample_poly`: rational-rate resampling by a polyphase FIR filter,
//! SciPy's design (a `firwin` low-pass of `20 max(up, down) + 1` taps,
//! padded so that the output samples sit at the filter's centre) run
//! through [`upfirdn`](super::upfirdn_with).

use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::{Array, DType, Error, Result, ufunc};

use super::upfirdn::{UpfirdnMode, UpfirdnOptions, output_len, upfirdn_with};
use crate::design::fir::{FirwinOptions, firwin_host};
use crate::windows::WindowSpec;

/// How `resample_poly` extends the signal past its ends (SciPy's
/// `padtype=`): one of `upfirdn`'s modes, or a statistic of the signal
/// subtracted before the filter and added back after (zeros past the
/// ends).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolyPad {
    /// An extension mode of [`upfirdn`](super::upfirdn_with) (default
    /// `constant`).
    Mode(UpfirdnMode),
    /// The mean along the axis.
    Mean,
    /// The median along the axis.
    Median,
    /// The minimum along the axis.
    Minimum,
    /// The maximum along the axis.
    Maximum,
}

impl Default for PolyPad {
    fn default() -> Self {
        PolyPad::Mode(UpfirdnMode::Constant)
    }
}

impl std::str::FromStr for PolyPad {
    type Err = Error;

    fn from_str(s: &str) -> Result<PolyPad> {
        Ok(match s {
            "mean" => PolyPad::Mean,
            "median" => PolyPad::Median,
            "minimum" => PolyPad::Minimum,
            "maximum" => PolyPad::Maximum,
            other => PolyPad::Mode(other.parse().map_err(|_| {
                Error::Value(
                    "padtype must be one of: maximum, mean, median, minimum, constant, wrap, \
                     edge, smooth, symmetric, reflect, antisymmetric, antireflect, line"
                        .into(),
                )
            })?),
        })
    }
}

/// The filter of [`resample_poly_with`]: a window to design it with
/// (SciPy's default `('kaiser', 5.0)`), or the taps themselves.
#[derive(Debug, Clone)]
pub enum PolyWindow<'a> {
    /// `firwin(20 max(up, down) + 1, 1 / max(up, down), window=spec)`.
    Design(WindowSpec),
    /// These taps (1-D; the output centred on their middle).
    Taps(&'a Array),
}

/// SciPy's keywords of [`resample_poly_with`]: `axis` (default 0),
/// `window`, `padtype` (default constant) and `cval` (constant padding
/// only).
///
/// ```
/// use gpu_signal::{PolyPad, ResamplePolyOptions};
/// let o = ResamplePolyOptions::default().axis(-1).padtype(PolyPad::Mean);
/// assert_eq!((o.axis, o.padtype), (-1, PolyPad::Mean));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ResamplePolyOptions<'a> {
    /// The axis to resample.
    pub axis: isize,
    /// The filter or the window that designs it.
    pub window: PolyWindow<'a>,
    /// The extension past the ends.
    pub padtype: PolyPad,
    /// The value past the ends for the constant extension (default 0).
    pub cval: Option<f64>,
}

impl Default for ResamplePolyOptions<'_> {
    fn default() -> Self {
        ResamplePolyOptions {
            axis: 0,
            window: PolyWindow::Design(WindowSpec::with_params("kaiser", &[5.0]).expect("kaiser")),
            padtype: PolyPad::Mode(UpfirdnMode::Constant),
            cval: None,
        }
    }
}

impl<'a> ResamplePolyOptions<'a> {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::ResamplePolyOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets the window that designs the filter.
    ///
    /// ```
    /// use gpu_signal::{ResamplePolyOptions, WindowSpec};
    /// let o = ResamplePolyOptions::default().window("hamming".parse::<WindowSpec>().unwrap());
    /// ```
    #[must_use]
    pub fn window(mut self, window: WindowSpec) -> Self {
        self.window = PolyWindow::Design(window);
        self
    }

    /// Sets the filter's taps.
    ///
    /// ```no_run
    /// use gpu_array::DType;
    /// use gpu_signal::ResamplePolyOptions;
    /// # fn main() -> gpu_array::Result<()> {
    /// let h = gpu_array::creation::ones([31], DType::Float64)?;
    /// let o = ResamplePolyOptions::default().taps(&h);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn taps(mut self, taps: &'a Array) -> Self {
        self.window = PolyWindow::Taps(taps);
        self
    }

    /// Sets `padtype`.
    ///
    /// ```
    /// use gpu_signal::{PolyPad, ResamplePolyOptions};
    /// assert_eq!(ResamplePolyOptions::default().padtype(PolyPad::Median).padtype, PolyPad::Median);
    /// ```
    #[must_use]
    pub fn padtype(mut self, padtype: PolyPad) -> Self {
        self.padtype = padtype;
        self
    }

    /// Sets `cval`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::ResamplePolyOptions::default().cval(1.0).cval, Some(1.0));
    /// ```
    #[must_use]
    pub fn cval(mut self, cval: f64) -> Self {
        self.cval = Some(cval);
        self
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// SciPy's `resample_poly(x, up, down)` along axis 0 with its defaults.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::resample_poly;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([3000], DType::Float64)?;
/// let y = resample_poly(&x, 3, 2)?; // 4500 samples
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`resample_poly_with`].
pub fn resample_poly(x: &Array, up: usize, down: usize) -> Result<Array> {
    resample_poly_with(x, up, down, &ResamplePolyOptions::default())
}

/// SciPy's `resample_poly(x, up, down, axis, window, padtype, cval)`:
/// `x` upsampled by `up / gcd`, filtered and downsampled by `down / gcd`
/// along `axis`, `ceil(n up / down)` samples out. The designed filter is
/// in `x`'s float dtype (float64 for other inputs), as SciPy casts it.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{PolyPad, ResamplePolyOptions, resample_poly_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([4, 1000], DType::Float32)?;
/// let o = ResamplePolyOptions::default().axis(1).padtype(PolyPad::Mean);
/// let y = resample_poly_with(&x, 2, 5, &o)?; // (4, 400), float32
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: factors below 1 ("up and down must be >= 1"), a `cval` with
/// another padtype, taps that are not 1-D ("window must be 1-D"), an axis
/// out of range; the filter design's and `upfirdn`'s errors.
pub fn resample_poly_with(
    x: &Array,
    up: usize,
    down: usize,
    opts: &ResamplePolyOptions<'_>,
) -> Result<Array> {
    if up < 1 || down < 1 {
        return Err(Error::Value("up and down must be >= 1".into()));
    }
    if opts.cval.is_some() && opts.padtype != PolyPad::Mode(UpfirdnMode::Constant) {
        return Err(Error::Value(format!(
            "cval has no effect when padtype is {:?}",
            opts.padtype
        )));
    }
    let g = gcd(up, down);
    let (up, down) = (up / g, down / g);
    if up == 1 && down == 1 {
        return x.copy();
    }
    let axis = normalize_axis(opts.axis, x.ndim())?;
    let n_in = x.shape()[axis];
    let n_out = (n_in * up).div_ceil(down);
    let xd = x.dtype();
    let filter_dt = if xd.is_floating() || xd.is_complex() {
        xd
    } else {
        DType::Float64
    };
    let (h, half_len) = match &opts.window {
        PolyWindow::Taps(t) => {
            if t.ndim() != 1 {
                return Err(Error::Value("window must be 1-D".into()));
            }
            (
                t.astype(DType::Float64)?.to_vec::<f64>()?,
                (t.size().saturating_sub(1)) / 2,
            )
        }
        PolyWindow::Design(spec) => {
            let max_rate = up.max(down);
            let half_len = 10 * max_rate;
            let fw = FirwinOptions::default().window(spec.clone());
            let taps = firwin_host(2 * half_len + 1, &[1.0 / max_rate as f64], &fw)?;
            (taps, half_len)
        }
    };
    // h *= up, in the filter's dtype (SciPy casts first for float input).
    let single = matches!(filter_dt, DType::Float32 | DType::Complex64);
    let designed = matches!(opts.window, PolyWindow::Design(_));
    let h: Vec<f64> = h
        .iter()
        .map(|&v| {
            if single && designed {
                f64::from((v as f32) * up as f32)
            } else {
                v * up as f64
            }
        })
        .collect();
    // Zero-pad the filter so that the output samples sit at its centre.
    let n_pre_pad = down - half_len % down;
    let mut n_post_pad = 0;
    let n_pre_remove = (half_len + n_pre_pad) / down;
    while output_len(h.len() + n_pre_pad + n_post_pad, n_in, up, down) < n_out + n_pre_remove {
        n_post_pad += 1;
    }
    let mut padded = vec![0.0; n_pre_pad];
    padded.extend(&h);
    padded.extend(std::iter::repeat_n(0.0, n_post_pad));
    let h = Array::from_slice(&padded, &[padded.len()])?;
    // Designed taps in the input's float dtype; given ones in their own.
    let h = match &opts.window {
        PolyWindow::Design(_) => h.astype(filter_dt)?,
        PolyWindow::Taps(t) => h.astype(t.dtype())?,
    };
    let ax = axis as isize;
    let (x_in, background, mode, cval) = match opts.padtype {
        PolyPad::Mode(m) => (x.clone(), None, m, opts.cval.unwrap_or(0.0)),
        stat => {
            let keep = gpu_array::reduction::ReduceOptions::axes(&[ax]).keepdims(true);
            let b = match stat {
                PolyPad::Mean => gpu_array::stats::mean(x, keep)?,
                PolyPad::Median => gpu_array::sorting::median(x, Some(&[ax]), true)?,
                PolyPad::Minimum => gpu_array::stats::amin(x, keep)?,
                _ => gpu_array::stats::amax(x, keep)?,
            };
            (ufunc::subtract(x, &b)?, Some(b), UpfirdnMode::Constant, 0.0)
        }
    };
    let o = UpfirdnOptions::default()
        .up(up)
        .down(down)
        .axis(ax)
        .mode(mode)
        .cval(cval);
    let y = upfirdn_with(&h, &x_in, &o)?;
    let idx: Vec<AxisIndex> = (0..y.ndim())
        .map(|d| AxisIndex::Slice {
            start: (d == axis).then_some(n_pre_remove as isize),
            stop: (d == axis).then_some((n_pre_remove + n_out) as isize),
            step: 1,
        })
        .collect();
    // A view of the filtered signal, as SciPy returns (no copy: one pass
    // over the output less).
    let kept = y.slice(&idx)?;
    match background {
        Some(b) => ufunc::add(&kept, &b),
        None => Ok(kept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padtypes_parse_with_scipys_message() {
        assert_eq!("median".parse::<PolyPad>().unwrap(), PolyPad::Median);
        assert_eq!(
            "line".parse::<PolyPad>().unwrap(),
            PolyPad::Mode(UpfirdnMode::Line)
        );
        let e = "x".parse::<PolyPad>().unwrap_err().to_string();
        assert!(
            e.starts_with("padtype must be one of: maximum, mean"),
            "{e}"
        );
        assert_eq!(gcd(12, 18), 6);
    }
}
