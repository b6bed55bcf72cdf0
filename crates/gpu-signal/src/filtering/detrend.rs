//! `detrend`: the mean, or a least-squares line per segment between
//! breakpoints, removed along an axis. The line's two coefficients are
//! linear in the data (`(A^T A)^-1 A^T x` with SciPy's design matrix
//! `A = [t / n, 1]`), so each segment costs two device sums and one
//! fused update; the 2 x 2 inverse is formed on the host.

use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, Result, ufunc};

use super::{check_axis, cols, from_rows, to_rows};

/// What [`detrend_with`] removes (SciPy's `type=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DetrendType {
    /// A least-squares line per segment.
    #[default]
    Linear,
    /// The mean.
    Constant,
}

gpu_array::from_numpy_str! {
    DetrendType, Error,
    else: |_s| Error::Value("Trend type must be 'linear' or 'constant'.".into()),
    { "linear" => DetrendType::Linear, "l" => DetrendType::Linear,
      "constant" => DetrendType::Constant, "c" => DetrendType::Constant }
}

/// SciPy's keywords of [`detrend_with`]: `axis` (-1), `type` (linear) and
/// the breakpoints `bp` (none: one segment).
///
/// ```
/// use gpu_signal::{DetrendOptions, DetrendType};
/// let o = DetrendOptions::default().bp(&[100, 250]).axis(0);
/// assert_eq!((o.axis, o.type_, o.bp), (0, DetrendType::Linear, vec![100, 250]));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DetrendOptions {
    /// The axis of the signals (default -1).
    pub axis: isize,
    /// The trend removed.
    pub type_: DetrendType,
    /// The breakpoints of the linear segments.
    pub bp: Vec<usize>,
}

impl Default for DetrendOptions {
    fn default() -> Self {
        DetrendOptions {
            axis: -1,
            type_: DetrendType::Linear,
            bp: Vec::new(),
        }
    }
}

impl DetrendOptions {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::DetrendOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `type`.
    ///
    /// ```
    /// use gpu_signal::{DetrendOptions, DetrendType};
    /// assert_eq!(DetrendOptions::default().type_(DetrendType::Constant).type_, DetrendType::Constant);
    /// ```
    #[must_use]
    pub fn type_(mut self, type_: DetrendType) -> Self {
        self.type_ = type_;
        self
    }

    /// Sets `bp`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::DetrendOptions::default().bp(&[5]).bp, vec![5]);
    /// ```
    #[must_use]
    pub fn bp(mut self, bp: &[usize]) -> Self {
        self.bp = bp.to_vec();
        self
    }
}

/// SciPy's `detrend(data)`: the least-squares line removed along the
/// last axis.
///
/// ```no_run
/// use gpu_signal::detrend;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(100)?.astype(gpu_array::DType::Float64)?;
/// let r = detrend(&x)?; // zeros, to rounding
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`detrend_with`].
pub fn detrend(data: &Array) -> Result<Array> {
    detrend_with(data, &DetrendOptions::default())
}

/// [`detrend`] with SciPy's `axis=`, `type=` and `bp=`. The linear
/// result is float64 for integer data (else the data's dtype); the
/// constant result is `data - mean(data)` with NumPy's promotion.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{DetrendOptions, detrend_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([500, 3], DType::Float32)?;
/// let r = detrend_with(&x, &DetrendOptions::default().axis(0).bp(&[200]))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a breakpoint past the data ("Breakpoints must be less than
/// length of data along given axis."); an axis out of range.
pub fn detrend_with(data: &Array, opts: &DetrendOptions) -> Result<Array> {
    let axis = check_axis(opts.axis, data.ndim())?;
    if opts.type_ == DetrendType::Constant {
        let mut o = ReduceOptions::axis(axis as isize);
        o.keepdims = true;
        let m = gpu_array::stats::mean(data, o)?;
        return ufunc::subtract(data, &m);
    }
    let n = data.shape()[axis];
    let mut bp: Vec<usize> = vec![0, n];
    bp.extend(&opts.bp);
    bp.sort_unstable();
    bp.dedup();
    if bp.iter().any(|&b| b > n) {
        return Err(Error::Value(
            "Breakpoints must be less than length of data along given axis.".into(),
        ));
    }
    let dt = match data.dtype() {
        d @ (DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128) => d,
        _ => DType::Float64,
    };
    let (rows, shape) = to_rows(data, axis, dt)?;
    let real = if dt == DType::Float32 || dt == DType::Complex64 {
        DType::Float32
    } else {
        DType::Float64
    };
    let mut pieces = Vec::new();
    for w in bp.windows(2) {
        let (lo, hi) = (w[0], w[1]);
        let seg = cols(&rows, Some(lo as isize), Some(hi as isize), 1)?;
        let npts = hi - lo;
        if npts == 1 {
            // SciPy's least-squares fit of one point is the point.
            pieces.push(ufunc::subtract(&seg, &seg)?);
            continue;
        }
        let np = npts as f64;
        let a: Vec<f64> = (1..=npts).map(|t| t as f64 / np).collect();
        let (saa, sa) = (a.iter().map(|v| v * v).sum::<f64>(), a.iter().sum::<f64>());
        let det = saa * np - sa * sa;
        let (m00, m01, m11) = (np / det, -sa / det, saa / det);
        let arow = Array::from_slice(&a, &[1, npts])?.astype(real)?;
        let mut o = ReduceOptions::axis(1);
        o.keepdims = true;
        let s_a = gpu_array::math::sum(&ufunc::multiply(&seg, &arow)?, o.clone())?;
        let s_1 = gpu_array::math::sum(&seg, o)?;
        let c0 = ufunc::add(&ufunc::multiply(&s_a, m00)?, &ufunc::multiply(&s_1, m01)?)?;
        let c1 = ufunc::add(&ufunc::multiply(&s_a, m01)?, &ufunc::multiply(&s_1, m11)?)?;
        let fit = ufunc::add(&ufunc::multiply(&c0, &arow)?, &c1)?;
        pieces.push(ufunc::subtract(&seg, &fit)?);
    }
    let refs: Vec<&Array> = pieces.iter().collect();
    let out = if refs.is_empty() {
        rows
    } else {
        gpu_array::manipulation::concatenate(&refs, Some(1))?
    };
    let out = if out.dtype() == dt {
        out
    } else {
        out.astype(dt)?
    };
    from_rows(&out, &shape, axis)
}
