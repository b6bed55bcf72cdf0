//! The tiled kernels (`kernels/tiled.cu`): the short windows users call
//! most, each compiled for its own size on first use (one small NVRTC
//! program per dtype pair, op and size, cached by the runtime and on
//! disk), so that the window's loops unroll and every input value is read
//! and converted once per tile instead of once per tap.
//!
//! - `tiled1d`: the 1-D filters of `window1d` (the same results to the
//!   bit: the same terms in the same order) for windows of at most
//!   [`TILED1D_MAX`] elements (17 for a correlation whose weights are
//!   neither symmetric nor antisymmetric), along any axis of at least 32
//!   lines and half a tile's length;
//! - `tiled2d`: two of those passes, along the last two axes in order,
//!   as one launch (the separable filters of an image:
//!   [`crate::separable::run`] offers each pair of neighbouring passes),
//!   the first pass's results rounded to the output's dtype in shared
//!   memory as SciPy rounds them into its output array;
//! - `median3x3`: `windownd`'s median of a 3 x 3 box on the last two axes
//!   (`median_filter(x, 3)` of an image), each row of three sorted once
//!   for three outputs.
//!
//! [`crate::kernels::window1d`] and [`crate::kernels::windownd`] hand
//! their launches here when they fit and keep the general kernels for the
//! rest.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::In;
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

use crate::kernels::{Op1d, multiprocessors};
use crate::separable::Pass1d;

const SOURCE: &str = include_str!("kernels/tiled.cu");

/// Threads per block (`CUPRUM_TILED_THREADS`).
const THREADS: u32 = 256;

/// Lines per tile (`CUPRUM_TILED_LINES`).
const LINES: usize = 32;

/// The longest window `tiled1d` is compiled for: 25 covers the Gaussians
/// of sigma up to 3 at SciPy's truncate of 4, and the box filters users
/// write by hand; longer ones keep the general kernel, where the window's
/// own arithmetic dominates anyway.
pub(crate) const TILED1D_MAX: usize = 25;

/// The longest window of the general (neither symmetric nor
/// antisymmetric) correlation in `tiled1d`.
const CORRELATE_MAX: usize = 17;

/// Blocks a multiprocessor is given (the kernel's `__launch_bounds__`
/// keeps two resident); each walks its tiles with a grid stride.
const BLOCKS_PER_SM: usize = 2;

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_tiled1d_{in}_{out}_op{op}_s{size}_{rows|cols}`: a
    /// 1-D filter of a fixed window size along one axis.
    pub(crate) struct Tiled1d[TI, TO] {
        input: In<TI>,
        w: In<f64>,
        outer: i64,
        n: i64,
        inner: i64,
        origin: i64,
        mode: i32,
        cval: f64,
        out: Out<TO>,
    }
}

/// Outputs a tile holds along the axis for window `size`: the kernel's
/// `CuprumTiledShape::TN` (8 threads a line, 8 outputs each up to 17
/// elements, 4 beyond).
fn tile_len(size: usize) -> usize {
    8 * if size <= 17 { 8 } else { 4 }
}

/// `blocks` blocks of `threads`, for kernels that walk their tiles with a
/// grid stride (the count is already capped at a few a multiprocessor).
pub(crate) fn grid(blocks: usize, threads: u32) -> LaunchConfig {
    let blocks = u32::try_from(blocks).unwrap_or(u32::MAX);
    LaunchConfig::new((blocks, 1, 1), (threads, 1, 1))
}

fn tiled1d_name(ti: DType, to: DType, op: Op1d, size: usize, rows: bool) -> String {
    format!(
        "cuprum_ndimage_tiled1d_{}_{}_op{}_s{size}_{}",
        ti.name(),
        to.name(),
        op.code(),
        if rows { "rows" } else { "cols" }
    )
}

/// The program of both layouts of `tiled1d` for one dtype pair, op and
/// window size.
pub(crate) fn tiled1d_request(ti: DType, to: DType, op: Op1d, size: usize) -> CompileRequest {
    let mut src = String::from(crate::BOUNDARY_CUH);
    src += crate::kernels::SOURCE;
    src += SOURCE;
    for rows in [false, true] {
        let name = tiled1d_name(ti, to, op, size, rows);
        src += &Tiled1d::prototype(&name, [ti.c_type(), to.c_type()]);
        src += &format!(
            "CUPRUM_NDIMAGE_TILED1D({name}, {}, {}, {}, {size}, {rows})\n",
            ti.c_type(),
            to.c_type(),
            op.code()
        );
    }
    gpu_array::kernels::request(src)
}

/// `window1d`'s filter through `tiled1d` when the window is short enough
/// (`Ok(false)`: not launched, the caller's general kernel is to run).
/// The caller has checked everything `window1d` checks: `input_` and
/// `out` C-contiguous of one shape and of the filters' dtypes, seen as
/// `(outer, n, inner)` along the filtered axis, `origin` within the
/// window, `weights` float64 of `size` for the weighted ops, the array
/// not empty.
#[allow(clippy::too_many_arguments)]
pub(crate) fn window1d(
    input_: &Array,
    out: &Array,
    (outer, n, inner): (usize, usize, usize),
    size: usize,
    weights: In,
    op: Op1d,
    origin: i64,
    mode: crate::Mode,
    cval: f64,
) -> Result<bool> {
    // The general correlation holds all its weights in registers: 17 at
    // most (the symmetric ones hold half).
    let longest = if op == Op1d::Correlate {
        CORRELATE_MAX
    } else {
        TILED1D_MAX
    };
    if size == 0 || size > longest {
        return Ok(false);
    }
    let (ti, to) = (input_.dtype(), out.dtype());
    let lines = outer * inner;
    // A tile's threads compute all of its 32 lines and positions: fewer
    // lines (a 1-D signal) or a much shorter axis would leave most of
    // that work unused, where the general kernel spends none.
    if lines < LINES || n < tile_len(size) / 2 {
        return Ok(false);
    }
    let rows = inner == 1;
    let tiles = lines.div_ceil(LINES) * n.div_ceil(tile_len(size));
    let name = tiled1d_name(ti, to, op, size, rows);
    let k = TypedKernel::<Tiled1d>::cached(&name, [ti.c_type(), to.c_type()], || {
        tiled1d_request(ti, to, op, size)
    })?;
    let blocks = tiles.min(multiprocessors(out)?.saturating_mul(BLOCKS_PER_SM));
    let args = Tiled1d {
        input: input(input_),
        w: weights,
        outer: outer as i64,
        n: n as i64,
        inner: inner as i64,
        origin,
        mode: mode.code(),
        cval,
        out: output(out),
    };
    k.launch(&grid(blocks, THREADS), &out.stream(), &args)?;
    Ok(true)
}

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_tiled2d_{in}_{out}_op{op0}s{size0}_op{op1}s{size1}`:
    /// two 1-D filters of fixed window sizes, along the last two axes of
    /// a (batch, n0, n1) array.
    pub(crate) struct Tiled2d[TI, TO] {
        input: In<TI>,
        w0: In<f64>,
        w1: In<f64>,
        batch: i64,
        n0: i64,
        n1: i64,
        origin0: i64,
        origin1: i64,
        mode0: i32,
        mode1: i32,
        cval: f64,
        out: Out<TO>,
    }
}

/// Output columns of a `tiled2d` tile for a second window of `size1`
/// (`CuprumTiled2dShape::TX`: a multiple of 8 with the tile's inputs at
/// most 64 columns wide).
fn tile2d_cols(size1: usize) -> usize {
    (65 - size1) / 8 * 8
}

fn tiled2d_name(ti: DType, to: DType, ops: [(Op1d, usize); 2]) -> String {
    let [(op0, s0), (op1, s1)] = ops;
    format!(
        "cuprum_ndimage_tiled2d_{}_{}_op{}s{s0}_op{}s{s1}",
        ti.name(),
        to.name(),
        op0.code(),
        op1.code()
    )
}

/// The program of `tiled2d` for one dtype pair and pair of (op, window).
pub(crate) fn tiled2d_request(ti: DType, to: DType, ops: [(Op1d, usize); 2]) -> CompileRequest {
    let mut src = String::from(crate::BOUNDARY_CUH);
    src += crate::kernels::SOURCE;
    src += SOURCE;
    let name = tiled2d_name(ti, to, ops);
    let [(op0, s0), (op1, s1)] = ops;
    src += &Tiled2d::prototype(&name, [ti.c_type(), to.c_type()]);
    src += &format!(
        "CUPRUM_NDIMAGE_TILED2D({name}, {}, {}, {}, {s0}, {}, {s1})\n",
        ti.c_type(),
        to.c_type(),
        op0.code(),
        op1.code()
    );
    gpu_array::kernels::request(src)
}

/// Whether `tiled2d` takes a pass: its window at most [`TILED1D_MAX`]
/// (the general correlation's at most 17), its origin within it.
fn pair_takes(p: &Pass1d) -> bool {
    let longest = if p.op == Op1d::Correlate {
        CORRELATE_MAX
    } else {
        TILED1D_MAX
    };
    let half = (p.size / 2) as i64;
    (1..=longest).contains(&p.size) && (-half..=(p.size as i64 - 1) / 2).contains(&p.origin)
}

/// `first` then `second` of `src` (C-contiguous) into a new array of
/// `dt` as one `tiled2d` launch, when `first` runs along the
/// second-to-last axis, `second` along the last, both windows fit and the
/// image is at least a tile's half on each side (`Ok(None)`: not
/// launched; the caller runs the passes one by one).
pub(crate) fn pair(
    src: &Array,
    dt: DType,
    first: &Pass1d,
    second: &Pass1d,
    cval: f64,
) -> Result<Option<Array>> {
    let shape = src.shape();
    let ndim = shape.len();
    if ndim < 2
        || first.axis != ndim - 2
        || second.axis != ndim - 1
        || !pair_takes(first)
        || !pair_takes(second)
        || !src.is_c_contiguous()
        || crate::kernels::check_dtype(src.dtype()).is_err()
        || crate::kernels::check_dtype(dt).is_err()
    {
        return Ok(None);
    }
    let (n0, n1) = (shape[ndim - 2], shape[ndim - 1]);
    let cols = tile2d_cols(second.size);
    if n0 < LINES / 2 || n1 < cols / 2 {
        return Ok(None);
    }
    let (w0, w1) = (first.weights_array()?, second.weights_array()?);
    let arg = |w: &Option<Array>| w.as_ref().map_or(In::NULL, input);
    let out = Array::empty(shape, dt)?;
    let batch = src.size() / (n0 * n1);
    let ti = src.dtype();
    let ops = [(first.op, first.size), (second.op, second.size)];
    let name = tiled2d_name(ti, dt, ops);
    let k = TypedKernel::<Tiled2d>::cached(&name, [ti.c_type(), dt.c_type()], || {
        tiled2d_request(ti, dt, ops)
    })?;
    let tiles = batch * n0.div_ceil(LINES) * n1.div_ceil(cols);
    let blocks = tiles.min(multiprocessors(&out)?.saturating_mul(BLOCKS_PER_SM));
    let args = Tiled2d {
        input: input(src),
        w0: arg(&w0),
        w1: arg(&w1),
        batch: batch as i64,
        n0: n0 as i64,
        n1: n1 as i64,
        origin0: first.origin,
        origin1: second.origin,
        mode0: first.mode.code(),
        mode1: second.mode.code(),
        cval,
        out: output(&out),
    };
    k.launch(&grid(blocks, THREADS), &out.stream(), &args)?;
    Ok(Some(out))
}

gpu_runtime::kernel_signature! {
    /// `cuprum_ndimage_median3x3_{in}_{out}`: the median of a 3 x 3 box
    /// on the last two axes of a (batch, n0, n1) array.
    pub(crate) struct Median3x3[TI, TO] {
        input: In<TI>,
        batch: i64,
        n0: i64,
        n1: i64,
        a0: i64,
        b0: i64,
        mode: i32,
        cval: f64,
        out: Out<TO>,
    }
}

fn median3x3_name(ti: DType, to: DType) -> String {
    format!("cuprum_ndimage_median3x3_{}_{}", ti.name(), to.name())
}

/// The blocks a multiprocessor `median3x3` of `ti` asks for with
/// `__launch_bounds__` and launches: four at inputs of at most 4 bytes
/// (64 registers), each walking its tiles with the next tile's copies in
/// flight; none asked for at 8 bytes, whose grid keeps eight. On the H100
/// (34th session, bench/gpu/median_variants.py at a79b8d5), the cp.async
/// walk at four blocks took the 4096^2 float32 median from 0.124 ms
/// (tiles loaded into registers, then computed, at eight blocks of 80
/// registers) to 0.087.
fn median3x3_resident(ti: DType) -> Option<usize> {
    (ti.itemsize() <= 4).then_some(4)
}

/// The program of `median3x3` for one dtype pair.
pub(crate) fn median3x3_request(ti: DType, to: DType) -> CompileRequest {
    let mut src = String::from(crate::BOUNDARY_CUH);
    src += crate::kernels::SOURCE;
    src += SOURCE;
    let name = median3x3_name(ti, to);
    src += &Median3x3::prototype(&name, [ti.c_type(), to.c_type()]);
    let bounds = match median3x3_resident(ti) {
        Some(n) => format!("__launch_bounds__({THREADS}, {n})"),
        None => format!("__launch_bounds__({THREADS})"),
    };
    src += &format!(
        "CUPRUM_NDIMAGE_MEDIAN3X3({name}, {}, {}, {bounds})\n",
        ti.c_type(),
        to.c_type()
    );
    gpu_array::kernels::request(src)
}

/// The top-left offsets `(a0, b0)` of `taps` (`ndim` offsets each) when
/// they are exactly a 3 x 3 box on the last two axes (any order, any
/// origin) and zero on the others.
fn box3x3(taps: &[i64], ndim: usize) -> Option<(i64, i64)> {
    if ndim < 2 || taps.len() != 9 * ndim {
        return None;
    }
    let mut cells: Vec<(i64, i64)> = Vec::with_capacity(9);
    for tap in taps.chunks_exact(ndim) {
        if tap[..ndim - 2].iter().any(|&o| o != 0) {
            return None;
        }
        cells.push((tap[ndim - 2], tap[ndim - 1]));
    }
    cells.sort_unstable();
    cells.dedup();
    let (a0, b0) = *cells.first()?;
    let want = (0..3).flat_map(|a| (0..3).map(move |b| (a0.checked_add(a), b0.checked_add(b))));
    let is_box = cells.len() == 9
        && cells
            .iter()
            .zip(want)
            .all(|(&(a, b), w)| (Some(a), Some(b)) == w);
    is_box.then_some((a0, b0))
}

/// Whether the kernel, comparing values of `ti` in its own type (64-bit
/// integers as double, as `windownd`), sees `cval` as `windownd` does:
/// the constant exactly representable, so that ranks and the value
/// written are the same.
fn cval_exact(ti: DType, cval: f64) -> bool {
    let whole_in = |lo: f64, hi: f64| cval.fract() == 0.0 && (lo..=hi).contains(&cval);
    match ti {
        DType::Float64 | DType::Int64 | DType::UInt64 => true,
        DType::Float32 => cval.is_nan() || f64::from(cval as f32) == cval,
        DType::Bool => cval == 0.0 || cval == 1.0,
        DType::Int8 => whole_in(i8::MIN.into(), i8::MAX.into()),
        DType::UInt8 => whole_in(0.0, u8::MAX.into()),
        DType::Int16 => whole_in(i16::MIN.into(), i16::MAX.into()),
        DType::UInt16 => whole_in(0.0, u16::MAX.into()),
        DType::Int32 => whole_in(i32::MIN.into(), i32::MAX.into()),
        DType::UInt32 => whole_in(0.0, u32::MAX.into()),
        _ => false,
    }
}

/// `windownd`'s median of nine taps through `median3x3` when the taps are
/// a 3 x 3 box on the last two axes (`Ok(None)`: not launched). `input_`
/// is C-contiguous and not empty, of a filter dtype; `to` is its dtype
/// or float64.
pub(crate) fn median3x3(
    input_: &Array,
    taps: &[i64],
    (mode, cval): (crate::Mode, f64),
    to: DType,
) -> Result<Option<Array>> {
    let ti = input_.dtype();
    let shape = input_.shape();
    let ndim = shape.len();
    let Some((a0, b0)) = box3x3(taps, ndim) else {
        return Ok(None);
    };
    let constant = matches!(mode, crate::Mode::Constant | crate::Mode::GridConstant);
    if constant && !cval_exact(ti, cval) {
        return Ok(None);
    }
    let (n0, n1) = (shape[ndim - 2], shape[ndim - 1]);
    let batch = input_.size() / (n0 * n1);
    let out = Array::empty(shape, to)?;
    let tiles = batch * n0.div_ceil(64) * n1.div_ceil(32);
    let name = median3x3_name(ti, to);
    let k = TypedKernel::<Median3x3>::cached(&name, [ti.c_type(), to.c_type()], || {
        median3x3_request(ti, to)
    })?;
    let per_sm = median3x3_resident(ti).unwrap_or(8);
    let blocks = tiles.min(multiprocessors(&out)?.saturating_mul(per_sm));
    let args = Median3x3 {
        input: input(input_),
        batch: batch as i64,
        n0: n0 as i64,
        n1: n1 as i64,
        a0,
        b0,
        mode: mode.code(),
        cval,
        out: output(&out),
    };
    k.launch(&grid(blocks, THREADS), &out.stream(), &args)?;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::{box3x3, cval_exact, tile_len};
    use gpu_array::DType;

    #[test]
    fn a_box_of_nine_is_found_in_any_order_and_origin() {
        let mut taps = Vec::new();
        for a in [1i64, 0, -1] {
            for b in -2..=0i64 {
                taps.extend([0, a, b]);
            }
        }
        assert_eq!(box3x3(&taps, 3), Some((-1, -2)));
        // A footprint with a hole, a repeated tap, a leading-axis offset,
        // a 1-D array: none is the box.
        let mut holed = taps.clone();
        holed[5] = 7;
        assert_eq!(box3x3(&holed, 3), None);
        let mut twice = taps.clone();
        twice[3..6].copy_from_slice(&[0, 1, -2]);
        assert_eq!(box3x3(&twice, 3), None);
        let mut deep = taps.clone();
        deep[0] = 1;
        assert_eq!(box3x3(&deep, 3), None);
        assert_eq!(box3x3(&[-1, 0, 1, 2, 3, 4, 5, 6, 7], 1), None);
        // Offsets at the edge of i64 do not overflow.
        let mut far = Vec::new();
        for a in 0..3 {
            for b in 0..3 {
                far.extend([i64::MAX - 2 + a, b]);
            }
        }
        assert_eq!(box3x3(&far, 2), Some((i64::MAX - 2, 0)));
    }

    /// median3x3's arithmetic: the median of nine values is med3 of the
    /// greatest of the rows' least, the rows' middles' median and the
    /// least of the rows' greatest (rows sorted), under the kernel's
    /// order (NaN after every number), for every 3 x 3 array over four
    /// values, ties and NaN included.
    #[test]
    fn median_of_sorted_rows_is_the_median_of_nine() {
        use std::cmp::Ordering;
        let cmp = |a: &f64, b: &f64| match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.partial_cmp(b).unwrap(),
        };
        let sorted3 = |mut v: [f64; 3]| {
            v.sort_by(cmp);
            v
        };
        let same = |a: f64, b: f64| a == b || (a.is_nan() && b.is_nan());
        let vals = [0.0, 1.0, 2.0, f64::NAN];
        for code in 0..4usize.pow(9) {
            let mut x = [0.0; 9];
            for (k, slot) in x.iter_mut().enumerate() {
                *slot = vals[code / 4usize.pow(k as u32) % 4];
            }
            let rows = [0, 3, 6].map(|r| sorted3([x[r], x[r + 1], x[r + 2]]));
            let lo = rows.iter().map(|r| r[0]).max_by(cmp).unwrap();
            let mid = sorted3([rows[0][1], rows[1][1], rows[2][1]])[1];
            let hi = rows.iter().map(|r| r[2]).min_by(cmp).unwrap();
            let got = sorted3([lo, mid, hi])[1];
            let mut all = x;
            all.sort_by(cmp);
            assert!(same(got, all[4]), "{x:?}: {got} vs {}", all[4]);
        }
    }

    #[test]
    fn cval_must_be_the_dtypes_own_value() {
        assert!(cval_exact(DType::Float32, 0.5));
        assert!(cval_exact(DType::Float32, f64::NAN));
        assert!(!cval_exact(DType::Float32, 0.1));
        assert!(cval_exact(DType::UInt8, 255.0));
        assert!(!cval_exact(DType::UInt8, -1.0));
        assert!(!cval_exact(DType::Int16, 0.5));
        assert!(!cval_exact(DType::Bool, 2.0));
        assert!(cval_exact(DType::Int64, 0.1));
    }

    #[test]
    fn tiled2d_tiles_are_the_kernels() {
        // CuprumTiled2dShape::TX: a multiple of 8, TX + S1 - 1 <= 64.
        for s in 1..=super::TILED1D_MAX {
            let tx = super::tile2d_cols(s);
            assert!(
                tx.is_multiple_of(8) && tx + s - 1 <= 64 && tx + 8 + s - 1 > 64,
                "{s}: {tx}"
            );
        }
        assert_eq!(super::tile2d_cols(17), 48);
    }

    /// tiled.cu's `cuprum_tiled_div<S>` (the product with 1/S and two
    /// fma corrections), step for step in f64, is the correctly rounded
    /// quotient for every window the kernels compile, over values of every
    /// exponent the fast path takes and the ends of its range: the same
    /// result as the division the host loop and window1d make.
    #[test]
    fn the_means_division_by_its_window_is_correctly_rounded() {
        fn div(x: f64, s: f64) -> f64 {
            let y = 1.0 / s;
            let ax = x.abs();
            if !((2f64.powi(-960)..=2f64.powi(1000)).contains(&ax)) {
                return x / s;
            }
            let mut q = x * y;
            let mut r = (-q).mul_add(s, x);
            q = r.mul_add(y, q);
            r = (-q).mul_add(s, x);
            r.mul_add(y, q)
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for s in 1..=super::TILED1D_MAX {
            let sf = s as f64;
            for i in 0..200_000u64 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Any sign and mantissa, exponents -970 ..= 1010.
                let e = 1023 - 970 + (seed >> 52) % 1981;
                let x = f64::from_bits((seed & 0x800f_ffff_ffff_ffff) | (e << 52));
                // Sums of a few integers: the quotients nearest a tie.
                let k = (i % 1000) as f64 + 0.5 * (i % 3) as f64;
                for v in [x, k, -k * sf, k * sf + 1.0] {
                    assert_eq!(div(v, sf).to_bits(), (v / sf).to_bits(), "{v:e} / {s}");
                }
            }
            for v in [
                0.0,
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                1e-320,
                f64::MAX,
            ] {
                assert_eq!(div(v, sf).to_bits(), (v / sf).to_bits(), "{v:e} / {s}");
            }
            assert!(div(f64::NAN, sf).is_nan());
        }
    }

    #[test]
    fn tiles_are_the_kernels() {
        // CuprumTiledShape: 8 threads a line, R = 8 outputs up to 17 taps.
        assert_eq!(tile_len(3), 64);
        assert_eq!(tile_len(17), 64);
        assert_eq!(tile_len(19), 32);
        assert_eq!(tile_len(super::TILED1D_MAX), 32);
    }
}
