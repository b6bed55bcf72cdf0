//! Radix selection (host side): one quantile of a whole array without
//! sorting it. The kernels are in `select.cu` (part of the sort program:
//! same keys): a histogram pass per 11-bit digit, from the top, narrows
//! two prefixes to the keys at ranks `floor(q * (n - 1))` and the one
//! above; a one-block pick after each pass chooses the digits; a finish
//! kernel writes the two values as a two-element "sorted row" that
//! `quantile_kernel` interpolates as it does a sorted row. Every step runs
//! in stream order: no wait for the host.
//!
//! A float32 median is three passes that only read the data (keys are
//! computed from the values as they load) where a sort makes four passes
//! that read and write it.

use gpu_runtime::KernelSignature;
use gpu_runtime::signature::{In, Out};

use super::radix::{kernel, key_bits, launch_with as launch};
use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{input, output};
use crate::layout::Order;

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_selhist_{dtype}`: the histogram of the current digit
    /// (`width` bits at `shift`) of the keys of the `n` elements of `x`
    /// that match a prefix of `state`, into `hist` (two of [`BINS`]);
    /// `count_nan`: NaN keys are counted into `state[4]`.
    pub(crate) struct SelHist[T] {
        x: In<T>,
        n: i64,
        state: Out<u64>,
        hist: Out<u64>,
        shift: i32,
        width: i32,
        count_nan: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_selpick_{dtype}`: each slot's digit from `hist`, into
    /// `state`, and the histograms zeroed (one block); the `first` pick
    /// computes the ranks of quantile `q` among the `n` values (without
    /// NaN when `skip_nan`).
    pub(crate) struct SelPick {
        hist: Out<u64>,
        state: Out<u64>,
        shift: i32,
        first: bool,
        q: f64,
        n: i64,
        skip_nan: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_selfinish_{dtype}`: the two values of `state` as a
    /// sorted row of two, its count and the fraction of quantile `q`
    /// between them (`method`: the pick's code; `prop`: a NaN seen makes
    /// the upper value NaN).
    pub(crate) struct SelFinish[T] {
        state: In<u64>,
        q: f64,
        method: i32,
        prop: bool,
        pair: Out<T>,
        cnt: Out<i64>,
        qs: Out<f64>,
    }
}

/// The declared prototypes of the selection kernels of `dtype` (part of
/// the sort program).
pub(super) fn prototypes(dtype: DType) -> String {
    let name = |which: &str| format!("cuprum_sort_{which}_{}", dtype.name());
    let t = [dtype.c_type()];
    let mut s = SelHist::prototype(&name("selhist"), t);
    s.push_str(&SelPick::prototype(&name("selpick"), []));
    s.push_str(&SelFinish::prototype(&name("selfinish"), t));
    s
}

/// Bits per selection digit (2048 bins: a 16 KiB pair of block histograms).
const DIGIT_BITS: u32 = 11;

/// Bins of one histogram (as `CUPRUM_SEL_BINS`).
const BINS: usize = 1 << DIGIT_BITS;

/// Fewest elements for which the selection replaces the sort (below it a
/// sort is as quick and the selection's fixed launches dominate).
pub(crate) const MIN_ELEMENTS: usize = 1 << 12;

/// The digits of a selection over `bits`-bit keys, from the most
/// significant: `(shift, width)` pairs covering every bit once.
pub(crate) fn digits(bits: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut top = bits;
    while top > 0 {
        let w = top.min(DIGIT_BITS);
        out.push((top - w, w));
        top -= w;
    }
    out
}

/// Whether the selection handles `dtype`: real numbers with keys of at
/// most 64 bits (bool and complex take the sort).
pub(crate) fn selectable(dtype: DType) -> bool {
    !dtype.is_complex() && dtype != DType::Bool && key_bits(dtype) <= 64
}

/// The two neighbours of quantile `q` in the flat, dense `src` (at least
/// one element) as `quantile_kernel`'s inputs for one row of length 2:
/// the values (`src`'s dtype), the row's count (2, or 0 when no valid
/// value is left) and the fraction between them. `method` is the pick's
/// code; `prop`: a NaN anywhere makes the result NaN; `skip_nan`: ranks
/// count only non-NaN values.
pub(crate) fn select_pair(
    src: &Array,
    q: f64,
    method: i32,
    prop: bool,
    skip_nan: bool,
) -> Result<(Array, Array, Array)> {
    let dt = src.dtype();
    let n = src.size();
    debug_assert!(n > 0 && src.is_c_contiguous() && selectable(dt));
    let stream = src.stream();
    let device = src.device();
    // State (six u64 words, padded to eight) and the two histograms,
    // zeroed once: each pick re-zeroes the histograms for the next pass.
    let state_bytes = 64;
    let scratch_len = state_bytes + 2 * BINS * 8;
    let scratch = Array::empty_on(device, &[scratch_len], DType::UInt8, Order::C)?;
    scratch.memory().memset_at(0, scratch_len, 0, &stream)?;
    let u64s = DType::UInt64.c_type();
    let state = Out::new(scratch.data_ptr(), u64s);
    let hist = Out::new(scratch.data_ptr().offset(state_bytes as isize), u64s);

    let sms = stream.device().properties()?.multiprocessor_count.max(1) as usize;
    // 16 KiB per block and sweep (256 threads, four 16-byte loads each);
    // four blocks per SM keep enough loads in flight.
    let blocks = (n * src.itemsize()).div_ceil(16 * 1024).clamp(1, sms * 4);
    let t = [dt.c_type()];
    let hist_k = kernel::<SelHist>(dt, "selhist", t)?;
    let pick_k = kernel::<SelPick>(dt, "selpick", [])?;
    for (p, (shift, width)) in digits(key_bits(dt)).into_iter().enumerate() {
        let count = SelHist {
            x: input(src),
            n: n as i64,
            state,
            hist,
            shift: shift as i32,
            width: width as i32,
            count_nan: dt.is_inexact(),
        };
        launch(&hist_k, blocks, 256, &stream, &count)?;
        let pick = SelPick {
            hist,
            state,
            shift: shift as i32,
            first: p == 0,
            q,
            n: n as i64,
            skip_nan,
        };
        launch(&pick_k, 1, 256, &stream, &pick)?;
    }
    let pair = Array::empty_on(device, &[2], dt, Order::C)?;
    let cnt = Array::empty_on(device, &[1], DType::Int64, Order::C)?;
    let qs = Array::empty_on(device, &[1], DType::Float64, Order::C)?;
    let finish = SelFinish {
        state: In::new(state.ptr(), u64s),
        q,
        method,
        prop,
        pair: output(&pair),
        cnt: output(&cnt),
        qs: output(&qs),
    };
    launch(
        &kernel::<SelFinish>(dt, "selfinish", t)?,
        1,
        32,
        &stream,
        &finish,
    )?;
    Ok((pair, cnt, qs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_cover_every_key_bit_from_the_top() {
        assert_eq!(digits(32), vec![(21, 11), (10, 11), (0, 10)]);
        assert_eq!(digits(16), vec![(5, 11), (0, 5)]);
        assert_eq!(digits(8), vec![(0, 8)]);
        let d = digits(64);
        assert_eq!(d.len(), 6);
        assert_eq!(d[0], (53, 11));
        assert_eq!(d.iter().map(|&(_, w)| w).sum::<u32>(), 64);
        assert!(d.windows(2).all(|w| w[1].0 + w[1].1 == w[0].0));
    }

    #[test]
    fn selection_takes_real_dtypes_only() {
        assert!(selectable(DType::Float32));
        assert!(selectable(DType::Int64));
        assert!(selectable(DType::Float16));
        assert!(!selectable(DType::Bool));
        assert!(!selectable(DType::Complex64));
        assert!(!selectable(DType::Complex128));
    }
}
