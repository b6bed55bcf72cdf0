//! The peak searches on the host, step for step as SciPy's
//! `_peak_finding_utils` (sequential walks over the signal).

use gpu_array::{Error, Result};

/// Every local maximum of `x` (one or more equal samples with a smaller
/// sample on each side): the plateaus' midpoints (rounded down), left and
/// right edges. The first and last samples are never maxima.
pub(crate) fn local_maxima(x: &[f64]) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let (mut mid, mut left, mut right) = (Vec::new(), Vec::new(), Vec::new());
    if x.len() < 3 {
        return (mid, left, right);
    }
    let last = x.len() - 1;
    let mut i = 1;
    while i < last {
        if x[i - 1] < x[i] {
            // The next sample unequal to x[i].
            let mut ahead = i + 1;
            while ahead < last && x[ahead] == x[i] {
                ahead += 1;
            }
            if x[ahead] < x[i] {
                left.push(i);
                right.push(ahead - 1);
                mid.push((i + ahead - 1) / 2);
                // No sample up to `ahead` can be a maximum.
                i = ahead;
            }
        }
        i += 1;
    }
    (mid, left, right)
}

/// Which peaks to keep so that no two are closer than `distance` samples
/// (rounded up), the higher (by `priority`) kept first. Ties of priority
/// go to the later peak (a stable sort; SciPy's unstable one leaves them
/// to its sort).
pub(crate) fn select_by_distance(peaks: &[usize], priority: &[f64], distance: f64) -> Vec<bool> {
    let n = peaks.len();
    // distance >= 1, checked by the caller; a huge one keeps a single peak.
    let d = if distance.ceil() >= usize::MAX as f64 {
        usize::MAX
    } else {
        distance.ceil() as usize
    };
    let mut keep = vec![true; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| priority[a].total_cmp(&priority[b]));
    for &j in order.iter().rev() {
        if !keep[j] {
            continue;
        }
        let mut k = j;
        while k > 0 && peaks[j] - peaks[k - 1] < d {
            keep[k - 1] = false;
            k -= 1;
        }
        let mut k = j + 1;
        while k < n && peaks[k] - peaks[j] < d {
            keep[k] = false;
            k += 1;
        }
    }
    keep
}

/// SciPy's `wlen` argument: `None` is no window (-1 there); otherwise it
/// must exceed 1, and is rounded up.
pub(crate) fn window_length(wlen: Option<f64>) -> Result<Option<usize>> {
    match wlen {
        None => Ok(None),
        Some(w) if w > 1.0 => Ok(Some(if w.is_infinite() {
            usize::MAX
        } else {
            w.ceil() as usize
        })),
        Some(w) => Err(Error::Value(format!(
            "`wlen` must be larger than 1, was {w}"
        ))),
    }
}

/// Prominences of `peaks` and their bases: from each peak, the lowest
/// sample on each side before a higher one (within `wlen` samples centred
/// on the peak), the prominence the peak's height above the higher of
/// the two minima.
#[derive(Debug)]
pub(crate) struct Prominences {
    pub prominences: Vec<f64>,
    pub left_bases: Vec<usize>,
    pub right_bases: Vec<usize>,
}

pub(crate) fn prominences(x: &[f64], peaks: &[usize], wlen: Option<usize>) -> Result<Prominences> {
    let mut out = Prominences {
        prominences: Vec::with_capacity(peaks.len()),
        left_bases: Vec::with_capacity(peaks.len()),
        right_bases: Vec::with_capacity(peaks.len()),
    };
    for &peak in peaks {
        if peak >= x.len() {
            return Err(Error::Value(format!(
                "peak {peak} is not a valid index for `x`"
            )));
        }
        let (mut lo, mut hi) = (0, x.len() - 1);
        if let Some(w) = wlen.filter(|&w| w >= 2) {
            lo = lo.max(peak.saturating_sub(w / 2));
            hi = hi.min(peak.saturating_add(w / 2));
        }
        let top = x[peak];
        let (mut left_min, mut left_base) = (top, peak);
        let mut i = peak;
        loop {
            if x[i] > top {
                break;
            }
            if x[i] < left_min {
                left_min = x[i];
                left_base = i;
            }
            if i == lo {
                break;
            }
            i -= 1;
        }
        let (mut right_min, mut right_base) = (top, peak);
        let mut i = peak;
        while i <= hi && x[i] <= top {
            if x[i] < right_min {
                right_min = x[i];
                right_base = i;
            }
            i += 1;
        }
        out.prominences.push(top - left_min.max(right_min));
        out.left_bases.push(left_base);
        out.right_bases.push(right_base);
    }
    Ok(out)
}

/// Widths of `peaks` at `rel_height` of their prominences: the height
/// `x[peak] - prominence * rel_height`, and where the signal crosses it on
/// each side (within the bases), interpolated linearly.
#[derive(Debug)]
pub(crate) struct Widths {
    pub widths: Vec<f64>,
    pub width_heights: Vec<f64>,
    pub left_ips: Vec<f64>,
    pub right_ips: Vec<f64>,
}

pub(crate) fn widths(
    x: &[f64],
    peaks: &[usize],
    rel_height: f64,
    p: &Prominences,
) -> Result<Widths> {
    if rel_height.is_nan() || rel_height < 0.0 {
        return Err(Error::Value(
            "`rel_height` must be greater or equal to 0.0".into(),
        ));
    }
    let n = peaks.len();
    if p.prominences.len() != n || p.left_bases.len() != n || p.right_bases.len() != n {
        return Err(Error::Value(
            "arrays in `prominence_data` must have the same shape as `peaks`".into(),
        ));
    }
    let mut out = Widths {
        widths: Vec::with_capacity(n),
        width_heights: Vec::with_capacity(n),
        left_ips: Vec::with_capacity(n),
        right_ips: Vec::with_capacity(n),
    };
    for (k, &peak) in peaks.iter().enumerate() {
        let (lo, hi) = (p.left_bases[k], p.right_bases[k]);
        if !(lo <= peak && peak <= hi && hi < x.len()) {
            return Err(Error::Value(format!(
                "prominence data is invalid for peak {peak}"
            )));
        }
        let height = x[peak] - p.prominences[k] * rel_height;
        let mut i = peak;
        while lo < i && height < x[i] {
            i -= 1;
        }
        let mut left = i as f64;
        // (i + 1 exists unless prominence data the caller gave is negative.)
        if x[i] < height && i + 1 < x.len() && x[i + 1] != x[i] {
            left += (height - x[i]) / (x[i + 1] - x[i]);
        }
        let mut i = peak;
        while i < hi && height < x[i] {
            i += 1;
        }
        let mut right = i as f64;
        if x[i] < height && i > 0 && x[i - 1] != x[i] {
            right -= (height - x[i]) / (x[i - 1] - x[i]);
        }
        out.widths.push(right - left);
        out.width_heights.push(height);
        out.left_ips.push(left);
        out.right_ips.push(right);
    }
    Ok(out)
}
