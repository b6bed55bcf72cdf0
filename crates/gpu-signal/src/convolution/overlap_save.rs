//! `fftconvolve` of a long 1-D real signal with a short one by overlap-save
//! (Oppenheim and Schafer, "Discrete-Time Signal Processing", 8.7.3):
//! the full convolution in blocks of a power-of-two length `B` (all blocks
//! in one batched transform), not one transform of the whole padded
//! length.
//!
//! Why: SciPy's single transform has the length `next_fast_len(n + k - 1)`
//! (for 2^22 + 4095 that is 2^7 3^8 5, a mixed-radix cuFFT plan of
//! several passes), pads both inputs to it and transforms the short one at
//! that length too. Blocks of `B = 8 k` rounded up to a power of two are
//! one cuFFT kernel each; every element is read and written a few times
//! and the short signal is transformed at `B` only. The result is the same
//! convolution with a smaller rounding error (each output sums one
//! transform of `B` points, not of `n + k - 1`).
//!
//! Block `j` holds `x[j s - (k - 1) ..][..B]` (zeros outside `x`), `s = B -
//! k + 1`; its circular convolution with `h` at `t >= k - 1` is the full
//! convolution at `j s + t - (k - 1)`, so each block gives `s` outputs.

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::{Array, DType, Result, ufunc};
use gpu_fft::{FftOptions, Norm, irfft_with, rfft_with};

/// The shortest long signal, in blocks, worth the batched path (below it
/// the single transform is small anyway).
const MIN_BLOCKS: usize = 4;
/// The longest block: one cuFFT kernel for float32 and float64 alike.
const MAX_BLOCK: usize = 1 << 15;

/// The block length for a short signal of `k` points, if any: `8 k` up
/// to a power of two (the overlap wastes at most an eighth), at least
/// 1024.
fn block_len(k: usize) -> Option<usize> {
    let b = k.checked_mul(8)?.checked_next_power_of_two()?.max(1024);
    (b <= MAX_BLOCK).then_some(b)
}

/// `segs[j, t] = x[j step + t - (k - 1)]`, zero outside `x`.
pub(crate) fn gather<'a>(
    x: Bind<'a>,
    segs: Bind<'a>,
    block: i64,
    step: i64,
    k: i64,
    n: i64,
) -> Elementwise<'a> {
    Elementwise::new("cuprum_signal_os_gather")
        .raw("x", x)
        .scalar("block", DType::Int64, block)
        .scalar("step", DType::Int64, step)
        .scalar("k", DType::Int64, k)
        .scalar("len", DType::Int64, n)
        .output("segs", segs)
        .op("const long long j = (long long)i / block;\n\
             const long long src = j * step + ((long long)i - j * block) - (k - 1);\n\
             segs = (src >= 0 && src < len) ? cuprum::cast<segs_type>(x[src])\n\
                                         : cuprum::cast<segs_type>(0);")
}

/// `out[m] = y[m / step, m % step + k - 1]`: the valid part of each block.
pub(crate) fn extract<'a>(
    y: Bind<'a>,
    out: Bind<'a>,
    block: i64,
    step: i64,
    k: i64,
) -> Elementwise<'a> {
    Elementwise::new("cuprum_signal_os_extract")
        .raw("y", y)
        .scalar("block", DType::Int64, block)
        .scalar("step", DType::Int64, step)
        .scalar("k", DType::Int64, k)
        .output("out", out)
        .op("const long long j = (long long)i / step;\n\
             out = y[j * block + ((long long)i - j * step) + k - 1];")
}

/// The full convolution of the 1-D real arrays `a` and `b` (already in the
/// transform dtype `dt`, float32 or float64) by overlap-save, or `None`
/// where the single transform is the better plan (a short long signal, a
/// long short one).
pub(crate) fn full(a: &Array, b: &Array, dt: DType) -> Result<Option<Array>> {
    if a.ndim() != 1 || b.ndim() != 1 || !matches!(dt, DType::Float32 | DType::Float64) {
        return Ok(None);
    }
    let (x, h) = if a.size() >= b.size() { (a, b) } else { (b, a) };
    let (n, k) = (x.size(), h.size());
    let h = if h.dtype() == dt {
        h.clone()
    } else {
        h.astype(dt)?
    };
    let Some(block) = block_len(k) else {
        return Ok(None);
    };
    if k < 2 || n / block < MIN_BLOCKS {
        return Ok(None);
    }
    let step = block - (k - 1);
    let total = n + k - 1;
    let blocks = total.div_ceil(step);
    let segs = Array::empty([blocks, block], dt)?;
    // Sizes here are below total + block, itself below isize::MAX (both
    // inputs exist), so the i64 casts hold.
    gather(
        x.into(),
        (&segs).into(),
        block as i64,
        step as i64,
        k as i64,
        n as i64,
    )
    .launch(segs.shape())?;
    // Each intermediate is dropped once read: the peak is two arrays of
    // the blocks' size, not four. The inverse's 1/block rides on the short
    // signal's transform (norm "forward"; a power of two, which commutes
    // with every rounding barring underflow, so the same bits as scaling
    // the product), and the inverse overwrites the
    // product, which is ours, instead of copying it (cuFFT's
    // complex-to-real transform destroys its input): one pass over the
    // blocks fewer.
    let spec = rfft_with(&segs, &FftOptions::new().axis(1))?;
    drop(segs);
    let kernel = rfft_with(&h, &FftOptions::new().n(block).norm(Norm::Forward))?;
    let prod = ufunc::multiply(&spec, &kernel)?;
    drop(spec);
    let y = irfft_with(
        &prod,
        &FftOptions::new()
            .n(block)
            .axis(1)
            .norm(Norm::Forward)
            .overwrite_x(true),
    )?;
    drop(prod);
    let out = Array::empty([total], dt)?;
    extract(
        (&y).into(),
        (&out).into(),
        block as i64,
        step as i64,
        k as i64,
    )
    .launch(out.shape())?;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_powers_of_two_that_waste_at_most_an_eighth() {
        assert_eq!(block_len(2), Some(1024));
        assert_eq!(block_len(4096), Some(32768));
        assert_eq!(block_len(4097), None);
        assert_eq!(block_len(usize::MAX / 4), None);
        for k in [2usize, 100, 129, 1000, 4096] {
            let b = block_len(k).unwrap();
            assert!(b.is_power_of_two() && (b - (k - 1)) * 8 >= b * 7, "{k}");
        }
    }
}
