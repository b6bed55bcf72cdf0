//! Peak finding (SciPy's `find_peaks`, `peak_prominences`,
//! `peak_widths`): the local maxima of a 1-D signal, filtered by height,
//! threshold, distance, prominence, width and plateau size, with the
//! properties each condition measured; and the relative extrema of N-D
//! data along an axis ([`argrelmax`], [`argrelmin`], [`argrelextrema`]).
//!
//! Where it runs: on the host. Each of these is a sequential walk over
//! the signal (a plateau's end, a base found by walking down from a peak,
//! a distance rule applied in order of height), as in SciPy; the signal
//! is copied from the device once, as float64 (SciPy's dtype for them),
//! and the peaks and properties are returned as device arrays (indices
//! int64, values float64).

mod host;
mod relative;

use gpu_array::{Array, DType, Error, Result};

pub use relative::{
    Comparator, ExtremaMode, RelExtremaOptions, argrelextrema, argrelmax, argrelmax_with,
    argrelmin, argrelmin_with,
};

use host::{Prominences, local_maxima, prominences, select_by_distance, widths, window_length};

/// One border of an [`Interval`]: a value, or one value a sample of the
/// signal (SciPy's array borders; the value at each peak applies).
#[derive(Debug, Clone, PartialEq)]
pub enum Limit {
    /// The same border for every peak.
    Value(f64),
    /// A border for each sample of the signal (its length).
    PerSample(Vec<f64>),
}

impl From<f64> for Limit {
    fn from(v: f64) -> Self {
        Limit::Value(v)
    }
}

/// A condition on a peak property (SciPy's `height=`, `threshold=`, ...):
/// the property within `[min, max]`, either border open. An interval with
/// neither border keeps every peak but still measures the property
/// (SciPy's `(None, None)`).
///
/// ```
/// use gpu_signal::{Interval, Limit};
/// assert_eq!(Interval::from(0.5), Interval::at_least(0.5)); // height=0.5
/// let i = Interval::between(1.0, 3.0); // height=(1, 3)
/// assert_eq!((i.min, i.max), (Some(Limit::Value(1.0)), Some(Limit::Value(3.0))));
/// assert_eq!(Interval::any().min, None); // height=(None, None)
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct Interval {
    /// The lower border, if any.
    pub min: Option<Limit>,
    /// The upper border, if any.
    pub max: Option<Limit>,
}

impl Interval {
    /// No border: measure only.
    pub fn any() -> Self {
        Interval::default()
    }

    /// At least `min` (SciPy's scalar condition).
    pub fn at_least(min: impl Into<Limit>) -> Self {
        Interval {
            min: Some(min.into()),
            max: None,
        }
    }

    /// At most `max` (SciPy's `(None, max)`).
    ///
    /// ```
    /// assert_eq!(gpu_signal::Interval::at_most(2.0).min, None);
    /// ```
    pub fn at_most(max: impl Into<Limit>) -> Self {
        Interval {
            min: None,
            max: Some(max.into()),
        }
    }

    /// Between `min` and `max`, both included (SciPy's `(min, max)`).
    pub fn between(min: impl Into<Limit>, max: impl Into<Limit>) -> Self {
        Interval {
            min: Some(min.into()),
            max: Some(max.into()),
        }
    }
}

impl From<f64> for Interval {
    fn from(min: f64) -> Self {
        Interval::at_least(min)
    }
}

/// SciPy's keywords of [`find_peaks_with`]: the conditions (none by
/// default), `wlen` (none: the whole signal) and `rel_height` (0.5).
///
/// ```
/// use gpu_signal::{FindPeaksOptions, Interval};
/// let o = FindPeaksOptions::default().height(0.5).distance(5.0).prominence(Interval::between(1.0, 4.0));
/// assert_eq!((o.distance, o.rel_height), (Some(5.0), 0.5));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FindPeaksOptions {
    /// Peak heights.
    pub height: Option<Interval>,
    /// The vertical distance to both neighbouring samples.
    pub threshold: Option<Interval>,
    /// The least horizontal distance between peaks, in samples (>= 1).
    pub distance: Option<f64>,
    /// Prominences.
    pub prominence: Option<Interval>,
    /// Widths, in samples, at `rel_height` of the prominence.
    pub width: Option<Interval>,
    /// The window, in samples, the prominences look within.
    pub wlen: Option<f64>,
    /// Where the widths are measured, relative to the prominence.
    pub rel_height: f64,
    /// The plateaus' sizes, in samples.
    pub plateau_size: Option<Interval>,
}

impl Default for FindPeaksOptions {
    fn default() -> Self {
        FindPeaksOptions {
            height: None,
            threshold: None,
            distance: None,
            prominence: None,
            width: None,
            wlen: None,
            rel_height: 0.5,
            plateau_size: None,
        }
    }
}

impl FindPeaksOptions {
    /// Sets `height`.
    #[must_use]
    pub fn height(mut self, height: impl Into<Interval>) -> Self {
        self.height = Some(height.into());
        self
    }

    /// Sets `threshold`.
    ///
    /// ```
    /// let o = gpu_signal::FindPeaksOptions::default().threshold(0.1);
    /// assert_eq!(o.threshold, Some(gpu_signal::Interval::at_least(0.1)));
    /// ```
    #[must_use]
    pub fn threshold(mut self, threshold: impl Into<Interval>) -> Self {
        self.threshold = Some(threshold.into());
        self
    }

    /// Sets `distance`.
    #[must_use]
    pub fn distance(mut self, distance: f64) -> Self {
        self.distance = Some(distance);
        self
    }

    /// Sets `prominence`.
    #[must_use]
    pub fn prominence(mut self, prominence: impl Into<Interval>) -> Self {
        self.prominence = Some(prominence.into());
        self
    }

    /// Sets `width`.
    ///
    /// ```
    /// let o = gpu_signal::FindPeaksOptions::default().width(3.0);
    /// assert!(o.width.is_some());
    /// ```
    #[must_use]
    pub fn width(mut self, width: impl Into<Interval>) -> Self {
        self.width = Some(width.into());
        self
    }

    /// Sets `wlen`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FindPeaksOptions::default().wlen(Some(20.0)).wlen, Some(20.0));
    /// ```
    #[must_use]
    pub fn wlen(mut self, wlen: Option<f64>) -> Self {
        self.wlen = wlen;
        self
    }

    /// Sets `rel_height`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::FindPeaksOptions::default().rel_height(1.0).rel_height, 1.0);
    /// ```
    #[must_use]
    pub fn rel_height(mut self, rel_height: f64) -> Self {
        self.rel_height = rel_height;
        self
    }

    /// Sets `plateau_size`.
    ///
    /// ```
    /// let o = gpu_signal::FindPeaksOptions::default().plateau_size(gpu_signal::Interval::between(2.0, 5.0));
    /// assert!(o.plateau_size.is_some());
    /// ```
    #[must_use]
    pub fn plateau_size(mut self, plateau_size: impl Into<Interval>) -> Self {
        self.plateau_size = Some(plateau_size.into());
        self
    }
}

/// The properties [`find_peaks_with`] measured (SciPy's `properties`
/// dict), one entry a kept peak: each is present when its condition was
/// given (`prominences` and the bases also for `width`).
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct PeakProperties {
    /// Heights (`height`).
    pub peak_heights: Option<Array>,
    /// Rise from the left neighbour (`threshold`).
    pub left_thresholds: Option<Array>,
    /// Rise from the right neighbour (`threshold`).
    pub right_thresholds: Option<Array>,
    /// Prominences (`prominence` or `width`).
    pub prominences: Option<Array>,
    /// The left bases' indices (`prominence` or `width`).
    pub left_bases: Option<Array>,
    /// The right bases' indices (`prominence` or `width`).
    pub right_bases: Option<Array>,
    /// Widths (`width`).
    pub widths: Option<Array>,
    /// The heights the widths were measured at (`width`).
    pub width_heights: Option<Array>,
    /// Where each width starts, interpolated (`width`).
    pub left_ips: Option<Array>,
    /// Where each width ends, interpolated (`width`).
    pub right_ips: Option<Array>,
    /// Plateau sizes (`plateau_size`).
    pub plateau_sizes: Option<Array>,
    /// The plateaus' first samples (`plateau_size`).
    pub left_edges: Option<Array>,
    /// The plateaus' last samples (`plateau_size`).
    pub right_edges: Option<Array>,
}

/// Host columns of the properties, filtered with the peaks.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct HostProperties {
    pub peak_heights: Option<Vec<f64>>,
    pub left_thresholds: Option<Vec<f64>>,
    pub right_thresholds: Option<Vec<f64>>,
    pub prominences: Option<Vec<f64>>,
    pub left_bases: Option<Vec<usize>>,
    pub right_bases: Option<Vec<usize>>,
    pub widths: Option<Vec<f64>>,
    pub width_heights: Option<Vec<f64>>,
    pub left_ips: Option<Vec<f64>>,
    pub right_ips: Option<Vec<f64>>,
    pub plateau_sizes: Option<Vec<usize>>,
    pub left_edges: Option<Vec<usize>>,
    pub right_edges: Option<Vec<usize>>,
}

fn retain<T: Copy>(v: &mut Option<Vec<T>>, keep: &[bool]) {
    if let Some(v) = v {
        *v = v
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|(x, _)| *x)
            .collect();
    }
}

impl HostProperties {
    fn retain(&mut self, keep: &[bool]) {
        retain(&mut self.peak_heights, keep);
        retain(&mut self.left_thresholds, keep);
        retain(&mut self.right_thresholds, keep);
        retain(&mut self.prominences, keep);
        retain(&mut self.left_bases, keep);
        retain(&mut self.right_bases, keep);
        retain(&mut self.widths, keep);
        retain(&mut self.width_heights, keep);
        retain(&mut self.left_ips, keep);
        retain(&mut self.right_ips, keep);
        retain(&mut self.plateau_sizes, keep);
        retain(&mut self.left_edges, keep);
        retain(&mut self.right_edges, keep);
    }
}

/// An interval's lower and upper borders at each peak (none: open).
type Borders = (Option<Vec<f64>>, Option<Vec<f64>>);

/// The borders of `interval` at each of `peaks` (SciPy's
/// `_unpack_condition_args`).
fn borders(interval: &Interval, n: usize, peaks: &[usize]) -> Result<Borders> {
    let at = |l: &Option<Limit>, side: &str| -> Result<Option<Vec<f64>>> {
        Ok(match l {
            None => None,
            Some(Limit::Value(v)) => Some(vec![*v; peaks.len()]),
            Some(Limit::PerSample(v)) => {
                if v.len() != n {
                    return Err(Error::Value(format!(
                        "array size of {side} interval border must match x"
                    )));
                }
                Some(peaks.iter().map(|&p| v[p]).collect())
            }
        })
    };
    Ok((at(&interval.min, "lower")?, at(&interval.max, "upper")?))
}

/// Keep where `min <= value <= max` (SciPy's `_select_by_property`; NaN
/// fails every border).
fn select(values: &[f64], min: &Option<Vec<f64>>, max: &Option<Vec<f64>>) -> Vec<bool> {
    (0..values.len())
        .map(|k| {
            min.as_ref().is_none_or(|m| m[k] <= values[k])
                && max.as_ref().is_none_or(|m| values[k] <= m[k])
        })
        .collect()
}

fn filter(peaks: &mut Vec<usize>, props: &mut HostProperties, keep: &[bool]) {
    *peaks = peaks
        .iter()
        .zip(keep)
        .filter(|(_, k)| **k)
        .map(|(p, _)| *p)
        .collect();
    props.retain(keep);
}

/// SciPy's `find_peaks` on a host signal.
pub(crate) fn find_peaks_host(
    x: &[f64],
    o: &FindPeaksOptions,
) -> Result<(Vec<usize>, HostProperties)> {
    if let Some(d) = o.distance
        && (d.is_nan() || d < 1.0)
    {
        return Err(Error::Value(
            "`distance` must be greater or equal to 1".into(),
        ));
    }
    let n = x.len();
    let (mut peaks, left_edges, right_edges) = local_maxima(x);
    let mut props = HostProperties::default();
    if let Some(c) = &o.plateau_size {
        let sizes: Vec<usize> = left_edges
            .iter()
            .zip(&right_edges)
            .map(|(l, r)| r - l + 1)
            .collect();
        let (lo, hi) = borders(c, n, &peaks)?;
        let keep = select(
            &sizes.iter().map(|&s| s as f64).collect::<Vec<_>>(),
            &lo,
            &hi,
        );
        props.plateau_sizes = Some(sizes);
        props.left_edges = Some(left_edges);
        props.right_edges = Some(right_edges);
        filter(&mut peaks, &mut props, &keep);
    }
    if let Some(c) = &o.height {
        let heights: Vec<f64> = peaks.iter().map(|&p| x[p]).collect();
        let (lo, hi) = borders(c, n, &peaks)?;
        let keep = select(&heights, &lo, &hi);
        props.peak_heights = Some(heights);
        filter(&mut peaks, &mut props, &keep);
    }
    if let Some(c) = &o.threshold {
        let (lo, hi) = borders(c, n, &peaks)?;
        let left: Vec<f64> = peaks.iter().map(|&p| x[p] - x[p - 1]).collect();
        let right: Vec<f64> = peaks.iter().map(|&p| x[p] - x[p + 1]).collect();
        // NumPy's min and max over the pair propagate NaN.
        let nan_min = |a: f64, b: f64| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.min(b)
            }
        };
        let nan_max = |a: f64, b: f64| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        };
        let keep: Vec<bool> = (0..peaks.len())
            .map(|k| {
                lo.as_ref()
                    .is_none_or(|m| m[k] <= nan_min(left[k], right[k]))
                    && hi
                        .as_ref()
                        .is_none_or(|m| nan_max(left[k], right[k]) <= m[k])
            })
            .collect();
        props.left_thresholds = Some(left);
        props.right_thresholds = Some(right);
        filter(&mut peaks, &mut props, &keep);
    }
    if let Some(d) = o.distance {
        let heights: Vec<f64> = peaks.iter().map(|&p| x[p]).collect();
        let keep = select_by_distance(&peaks, &heights, d);
        filter(&mut peaks, &mut props, &keep);
    }
    if o.prominence.is_some() || o.width.is_some() {
        let p = prominences(x, &peaks, window_length(o.wlen)?)?;
        props.prominences = Some(p.prominences);
        props.left_bases = Some(p.left_bases);
        props.right_bases = Some(p.right_bases);
    }
    if let Some(c) = &o.prominence {
        let (lo, hi) = borders(c, n, &peaks)?;
        let keep = select(props.prominences.as_deref().unwrap_or(&[]), &lo, &hi);
        filter(&mut peaks, &mut props, &keep);
    }
    if let Some(c) = &o.width {
        let p = Prominences {
            prominences: props.prominences.clone().unwrap_or_default(),
            left_bases: props.left_bases.clone().unwrap_or_default(),
            right_bases: props.right_bases.clone().unwrap_or_default(),
        };
        let w = widths(x, &peaks, o.rel_height, &p)?;
        let (lo, hi) = borders(c, n, &peaks)?;
        let keep = select(&w.widths, &lo, &hi);
        props.widths = Some(w.widths);
        props.width_heights = Some(w.width_heights);
        props.left_ips = Some(w.left_ips);
        props.right_ips = Some(w.right_ips);
        filter(&mut peaks, &mut props, &keep);
    }
    Ok((peaks, props))
}

/// The signal as SciPy's `_arg_x_as_expected` takes it: 1-D, real, as
/// float64 on the host.
fn host_signal(x: &Array) -> Result<Vec<f64>> {
    if x.ndim() != 1 {
        return Err(Error::Value("`x` must be a 1-D array".into()));
    }
    if x.dtype().is_complex() {
        return Err(Error::DType(
            "`x` must be real: complex values have no peaks in SciPy's sense".into(),
        ));
    }
    x.to_vec_as::<f64>()
}

/// Peak indices from the caller's array (SciPy's `_arg_peaks_as_expected`:
/// 1-D, safely castable to intp), each within the signal.
fn host_peaks(peaks: &Array, n: usize) -> Result<Vec<usize>> {
    if peaks.ndim() != 1 {
        return Err(Error::Value("`peaks` must be a 1-D array".into()));
    }
    if peaks.size() > 0 && !(peaks.dtype().is_integer() || peaks.dtype() == DType::Bool) {
        return Err(Error::DType(
            "cannot safely cast `peaks` to dtype('intp')".into(),
        ));
    }
    let raw = peaks.to_vec_as::<i64>()?;
    raw.iter()
        .map(|&p| match usize::try_from(p) {
            Ok(u) if u < n => Ok(u),
            _ => Err(Error::Value(format!(
                "peak {p} is not a valid index for `x`"
            ))),
        })
        .collect()
}

fn index_array(v: &[usize]) -> Result<Array> {
    let v: Vec<i64> = v.iter().map(|&i| i as i64).collect();
    Array::from_slice(&v, &[v.len()])
}

fn value_array(v: &[f64]) -> Result<Array> {
    Array::from_slice(v, &[v.len()])
}

fn upload<T>(v: Option<Vec<T>>, f: impl Fn(&[T]) -> Result<Array>) -> Result<Option<Array>> {
    v.map(|v| f(&v)).transpose()
}

/// SciPy's `find_peaks(x)`: the indices of every local maximum of the 1-D
/// signal `x` (a sample, or a plateau of equal samples, with a lower
/// sample on each side; a plateau's middle, rounded down), as an int64
/// device array. Runs on the host (see the module docs).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0, 2.0, 1.0, 3.0, 3.0, 0.0], &[6])?;
/// let peaks = gpu_signal::find_peaks(&x)?; // [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`find_peaks_with`].
pub fn find_peaks(x: &Array) -> Result<Array> {
    Ok(find_peaks_with(x, &FindPeaksOptions::default())?.0)
}

/// [`find_peaks`] with SciPy's conditions, and the properties they
/// measured. Conditions apply in SciPy's order: plateau size, height,
/// threshold, distance (higher peaks first; equal heights keep the later
/// peak), prominence, width.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{FindPeaksOptions, Interval};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0, 2.0, 1.0, 3.0, 0.0, 1.0, 0.0], &[7])?;
/// let o = FindPeaksOptions::default().height(1.5).prominence(Interval::any());
/// let (peaks, props) = gpu_signal::find_peaks_with(&x, &o)?; // [1, 3]
/// let prominences = props.prominences.unwrap(); // [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `x` not 1-D, `distance` below 1, `wlen` not above 1,
/// `rel_height` below 0, a per-sample border not as long as `x`; complex
/// `x` (`DType`, NumPy's TypeError); the device copy or upload failed.
pub fn find_peaks_with(x: &Array, opts: &FindPeaksOptions) -> Result<(Array, PeakProperties)> {
    let xh = host_signal(x)?;
    let (peaks, p) = find_peaks_host(&xh, opts)?;
    let props = PeakProperties {
        peak_heights: upload(p.peak_heights, value_array)?,
        left_thresholds: upload(p.left_thresholds, value_array)?,
        right_thresholds: upload(p.right_thresholds, value_array)?,
        prominences: upload(p.prominences, value_array)?,
        left_bases: upload(p.left_bases, index_array)?,
        right_bases: upload(p.right_bases, index_array)?,
        widths: upload(p.widths, value_array)?,
        width_heights: upload(p.width_heights, value_array)?,
        left_ips: upload(p.left_ips, value_array)?,
        right_ips: upload(p.right_ips, value_array)?,
        plateau_sizes: upload(p.plateau_sizes, index_array)?,
        left_edges: upload(p.left_edges, index_array)?,
        right_edges: upload(p.right_edges, index_array)?,
    };
    Ok((index_array(&peaks)?, props))
}

/// SciPy's `peak_prominences(x, peaks, wlen)`: for each of `peaks`
/// (indices into the 1-D `x`), how far it rises above the higher of the
/// lowest samples on its two sides before a higher sample (within `wlen`
/// samples centred on it, if given), and those bases: `(prominences,
/// left_bases, right_bases)`, float64 and int64 device arrays. Runs on
/// the host (see the module docs).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0, 2.0, 1.0, 3.0, 0.0], &[5])?;
/// let peaks = Array::from_slice(&[1i64, 3], &[2])?;
/// let (prom, left, right) = gpu_signal::peak_prominences(&x, &peaks, None)?; // [1, 3], [0, 0], [2, 4]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `x` or `peaks` not 1-D, a peak outside `x`, `wlen`
/// not above 1; `peaks` not of an integer dtype (`DType`).
pub fn peak_prominences(
    x: &Array,
    peaks: &Array,
    wlen: Option<f64>,
) -> Result<(Array, Array, Array)> {
    let xh = host_signal(x)?;
    let ph = host_peaks(peaks, xh.len())?;
    let p = prominences(&xh, &ph, window_length(wlen)?)?;
    Ok((
        value_array(&p.prominences)?,
        index_array(&p.left_bases)?,
        index_array(&p.right_bases)?,
    ))
}

/// SciPy's `peak_widths(x, peaks, rel_height, wlen=wlen)`: each peak's
/// width where the signal crosses `x[peak] - prominence * rel_height`
/// (the prominences as [`peak_prominences`] finds them with `wlen`),
/// interpolated linearly: `(widths, width_heights, left_ips, right_ips)`,
/// float64 device arrays. Runs on the host (see the module docs).
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0, 1.0, 2.0, 1.0, 0.0], &[5])?;
/// let peaks = Array::from_slice(&[2i64], &[1])?;
/// let (w, h, l, r) = gpu_signal::peak_widths(&x, &peaks, 0.5, None)?; // [2], [1], [1], [3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`peak_prominences`]; `rel_height` below 0 (`Value`).
pub fn peak_widths(
    x: &Array,
    peaks: &Array,
    rel_height: f64,
    wlen: Option<f64>,
) -> Result<(Array, Array, Array, Array)> {
    let xh = host_signal(x)?;
    let ph = host_peaks(peaks, xh.len())?;
    let p = prominences(&xh, &ph, window_length(wlen)?)?;
    let w = widths(&xh, &ph, rel_height, &p)?;
    Ok((
        value_array(&w.widths)?,
        value_array(&w.width_heights)?,
        value_array(&w.left_ips)?,
        value_array(&w.right_ips)?,
    ))
}

#[cfg(test)]
mod tests;
