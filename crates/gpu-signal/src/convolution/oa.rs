//! `oaconvolve`: convolution by overlap-add, SciPy's block sizes
//! (`_calc_oa_lens`: the optimum of `N log(2N) / (N - K)` through Lambert's
//! W on the host), every block of both inputs transformed in one batched
//! FFT, the overlaps added back with slices.

use gpu_array::layout::AxisIndex;
use gpu_array::manipulation::{PadMode, pad};
use gpu_array::{Array, Result, ufunc};

use super::fft::{FftConvolveOptions, Prepared, apply_conv_mode, freq_domain_conv, init_freq_conv};

/// The lower branch `W_{-1}(y)` of Lambert's W for `y` in `(-1/e, 0)`,
/// by Halley's iteration from the asymptotic start (to the last bits:
/// `oaconvolve`'s block size depends on its ceiling).
pub(crate) fn lambertw_m1(y: f64) -> f64 {
    let l1 = (-y).ln();
    let l2 = (-l1).ln();
    let mut w = l1 - l2 + l2 / l1;
    for _ in 0..64 {
        let ew = w.exp();
        let f = w * ew - y;
        let step = f / (ew * (w + 1.0) - (w + 2.0) * f / (2.0 * w + 2.0));
        w -= step;
        if step.abs() <= 4.0 * f64::EPSILON * w.abs() {
            break;
        }
    }
    w
}

/// SciPy's `next_fast_len(n)` for complex transforms: the smallest
/// 11-smooth integer at least `n`.
pub(crate) fn next_fast_len_11(n: usize) -> usize {
    let smooth = |mut m: usize| {
        for p in [2, 3, 5, 7, 11] {
            while m.is_multiple_of(p) {
                m /= p;
            }
        }
        m == 1
    };
    (n.max(1)..)
        .find(|&m| smooth(m))
        .expect("an 11-smooth number")
}

/// One axis's plan (SciPy's `_calc_oa_lens`): the FFT block size, the
/// overlap (`None`: one block, no overlap-add), and the step of each
/// input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OaLens {
    pub(crate) block: usize,
    pub(crate) overlap: Option<usize>,
    pub(crate) step1: usize,
    pub(crate) step2: usize,
}

pub(crate) fn calc_oa_lens(s1: usize, s2: usize) -> OaLens {
    let fallback = OaLens {
        block: s1 + s2 - 1,
        overlap: None,
        step1: s1,
        step2: s2,
    };
    if s1 == s2 || s1 == 1 || s2 == 1 {
        return fallback;
    }
    let (big, small, swapped) = if s2 > s1 {
        (s2, s1, true)
    } else {
        (s1, s2, false)
    };
    if small as f64 >= big as f64 / 2.0 {
        return fallback;
    }
    let overlap = small - 1;
    let k = overlap as f64;
    let opt = -k * lambertw_m1(-1.0 / (2.0 * std::f64::consts::E * k));
    let block = next_fast_len_11(opt.ceil() as usize);
    if block >= big {
        return fallback;
    }
    let (step1, step2) = if swapped {
        (small, block - small + 1)
    } else {
        (block - small + 1, small)
    };
    OaLens {
        block,
        overlap: Some(overlap),
        step1,
        step2,
    }
}

/// The number of steps and the padding of an input of `n` along an axis
/// of `lens` (one of `lens.step1` / `lens.step2` as `step`).
fn steps(n: usize, step: usize, lens: &OaLens, full: usize) -> (usize, usize) {
    if n <= step {
        return (1, 0);
    }
    let mut k = (n + 1).div_ceil(step);
    let overlap = lens.overlap.unwrap_or(0);
    if (lens.block - overlap) * k < full {
        k += 1;
    }
    (k, k * step - n)
}

/// SciPy's `oaconvolve` with its defaults: [`super::fftconvolve`]'s
/// result by overlap-add, for a long signal and a short kernel.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::oaconvolve;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([1 << 20], DType::Float32)?;
/// let k = gpu_array::creation::ones([255], DType::Float32)?;
/// let y = oaconvolve(&x, &k)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`oaconvolve_with`].
pub fn oaconvolve(in1: &Array, in2: &Array) -> Result<Array> {
    oaconvolve_with(in1, in2, &FftConvolveOptions::default())
}

/// The slice `lo..hi` (`step` 1) of `a` along `axis`.
fn along(a: &Array, axis: usize, lo: usize, hi: usize) -> Result<Array> {
    let idx: Vec<AxisIndex> = (0..a.ndim())
        .map(|d| AxisIndex::Slice {
            start: (d == axis).then_some(lo as isize),
            stop: (d == axis).then_some(hi as isize),
            step: 1,
        })
        .collect();
    a.slice(&idx)
}

/// SciPy's `oaconvolve(in1, in2, mode, axes)`: the convolution of
/// [`super::fftconvolve_with`], computed over blocks of SciPy's size,
/// in one batched transform of all the blocks.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{FftConvolveOptions, Mode, oaconvolve_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([4, 100_000], DType::Float64)?;
/// let k = gpu_array::creation::ones([1, 301], DType::Float64)?;
/// let y = oaconvolve_with(&x, &k, &FftConvolveOptions::default().axes(&[1]).mode(Mode::Same))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`super::fftconvolve_with`].
pub fn oaconvolve_with(in1: &Array, in2: &Array, opts: &FftConvolveOptions) -> Result<Array> {
    if in1.shape() == in2.shape() && in1.ndim() > 0 {
        return super::fftconvolve_with(in1, in2, opts);
    }
    let (a, b, axes) = match init_freq_conv(in1, in2, opts, true)? {
        Prepared::Done(r) => return Ok(r),
        Prepared::Inputs(a, b, axes) => (a, b, axes),
    };
    let (s1, s2) = (a.shape().to_vec(), b.shape().to_vec());
    let nd = s1.len();
    if axes.is_empty() {
        return apply_conv_mode(&ufunc::multiply(&a, &b)?, &s1, &s2, opts.mode, &axes);
    }
    let lens: Vec<OaLens> = (0..nd)
        .map(|i| {
            if axes.contains(&i) {
                calc_oa_lens(s1[i], s2[i])
            } else {
                OaLens {
                    block: 0,
                    overlap: None,
                    step1: s1[i],
                    step2: s2[i],
                }
            }
        })
        .collect();
    if (0..nd).all(|i| lens[i].step1 == s1[i] && lens[i].step2 == s2[i]) {
        return super::fftconvolve_with(&a, &b, opts);
    }
    // Steps and padding along each convolved axis.
    let mut pad1 = vec![(0usize, 0usize); nd];
    let mut pad2 = vec![(0usize, 0usize); nd];
    let mut nsteps1 = Vec::new();
    let mut nsteps2 = Vec::new();
    for &i in &axes {
        let full = s1[i] + s2[i] - 1;
        let (k1, p1) = steps(s1[i], lens[i].step1, &lens[i], full);
        let (k2, p2) = steps(s2[i], lens[i].step2, &lens[i], full);
        nsteps1.push(k1);
        nsteps2.push(k2);
        pad1[i].1 = p1;
        pad2[i].1 = p2;
    }
    let zero_pad = |x: &Array, p: &[(usize, usize)]| -> Result<Array> {
        if p.iter().all(|&w| w == (0, 0)) {
            if x.is_c_contiguous() {
                Ok(x.clone())
            } else {
                x.copy()
            }
        } else {
            pad(x, p, PadMode::Constant(0i64.into()))
        }
    };
    let (a, b) = (zero_pad(&a, &pad1)?, zero_pad(&b, &pad2)?);
    // Each convolved axis split into (steps, step): the blocks.
    let split_axes: Vec<usize> = axes.iter().enumerate().map(|(k, &ax)| ax + k).collect();
    let fft_axes: Vec<usize> = split_axes.iter().map(|&ax| ax + 1).collect();
    let mut shape1: Vec<isize> = lens.iter().map(|l| l.step1 as isize).collect();
    let mut shape2: Vec<isize> = lens.iter().map(|l| l.step2 as isize).collect();
    for (k, &ax) in split_axes.iter().enumerate() {
        shape1.insert(ax, nsteps1[k] as isize);
        shape2.insert(ax, nsteps2[k] as isize);
    }
    let (a, b) = (a.reshape(shape1)?, b.reshape(shape2)?);
    let mut fft_shape = vec![0usize; nd + axes.len()];
    for (k, &fax) in fft_axes.iter().enumerate() {
        fft_shape[fax] = lens[axes[k]].block;
    }
    // The other axes keep their (broadcast) lengths.
    for (d, len) in fft_shape.iter_mut().enumerate() {
        if !fft_axes.contains(&d) {
            *len = a.shape()[d].max(b.shape()[d]);
        }
    }
    let mut ret = freq_domain_conv(&a, &b, &fft_axes, &fft_shape, false)?;
    // Overlap-add: each block's tail onto the next block's head.
    for (k, &ax) in axes.iter().enumerate() {
        let Some(overlap) = lens[ax].overlap else {
            continue;
        };
        let (sa, fa) = (split_axes[k], fft_axes[k]);
        let block = ret.shape()[fa];
        let steps = ret.shape()[sa];
        let tails = along(&along(&ret, fa, block - overlap, block)?, sa, 0, steps - 1)?;
        let heads = along(&along(&ret, fa, 0, overlap)?, sa, 1, steps)?;
        heads.copy_from(&ufunc::add(&heads, &tails)?)?;
        ret = along(&ret, fa, 0, block - overlap)?.copy()?;
    }
    // Blocks back to axes, cut to the full convolution.
    let ret = if ret.is_c_contiguous() {
        ret
    } else {
        ret.copy()?
    };
    let merged: Vec<isize> = (0..ret.ndim())
        .filter(|i| !split_axes.contains(i))
        .map(|i| {
            if fft_axes.contains(&i) {
                (ret.shape()[i] * ret.shape()[i - 1]) as isize
            } else {
                ret.shape()[i] as isize
            }
        })
        .collect();
    let ret = ret.reshape(merged)?;
    let full: Vec<AxisIndex> = (0..nd)
        .map(|i| AxisIndex::Slice {
            start: None,
            stop: axes.contains(&i).then_some((s1[i] + s2[i] - 1) as isize),
            step: 1,
        })
        .collect();
    let ret = ret.slice(&full)?;
    apply_conv_mode(&ret, &s1, &s2, opts.mode, &axes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_sizes_are_scipys() {
        // scipy.signal._signaltools._calc_oa_lens
        let l = calc_oa_lens(10000, 100);
        assert_eq!(
            (l.block, l.overlap, l.step1, l.step2),
            (840, Some(99), 741, 100)
        );
        let l = calc_oa_lens(100, 10000);
        assert_eq!(
            (l.block, l.overlap, l.step1, l.step2),
            (840, Some(99), 100, 741)
        );
        let l = calc_oa_lens(1000, 3);
        assert_eq!((l.block, l.overlap, l.step1, l.step2), (8, Some(2), 6, 3));
        let l = calc_oa_lens(100_000, 1000);
        assert_eq!(
            (l.block, l.overlap, l.step1, l.step2),
            (11000, Some(999), 10001, 1000)
        );
        assert_eq!(calc_oa_lens(50, 20).overlap, None);
        assert_eq!(calc_oa_lens(4096, 4097).block, 8192);
    }

    #[test]
    fn lambert_w_lower_branch_is_scipys() {
        // -K W_{-1}(-1 / (2 e K)) from scipy.special.lambertw(k=-1).
        let opt = |k: f64| -k * lambertw_m1(-1.0 / (2.0 * std::f64::consts::E * k));
        for (k, want) in [
            (2.0, 7.385_269_057_779_391),
            (99.0, 833.453_822_443_654_1),
            (999.0, 10_986.579_351_587_505),
            (100_000.0, 1_597_723.771_184_276_6),
        ] {
            let got = opt(k);
            assert!((got - want).abs() <= 1e-12 * want, "{k}: {got} vs {want}");
        }
        assert_eq!(next_fast_len_11(834), 840);
        assert_eq!(next_fast_len_11(10987), 11000);
    }
}
