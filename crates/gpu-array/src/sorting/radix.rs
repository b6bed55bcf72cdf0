//! The GPU LSD radix sort (host side): the kernels' program, the plan of
//! passes, buffers and launches. The kernels and their design are in
//! `kernels.cu` (onesweep: one histogram pass for every digit, then one
//! rank-look-back-scatter kernel per 8-bit digit).

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{DevicePtr, KernelSignature, LaunchConfig, Stream, TypedKernel};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::input;
use crate::layout::Order;
use gpu_runtime::Vouched;

/// The CUDA C++ of the sort kernels and the radix selection built on their
/// keys (`select.cu`), without the per-dtype instantiations.
pub const SOURCE: &str = concat!(include_str!("kernels.cu"), include_str!("select.cu"));

/// Threads per block of every sort kernel (one per digit value).
const BLOCK: u32 = 256;

/// Flag bits of a pass (as `kernels.cu`).
pub mod flags {
    /// Reads the input dtype; values are the element indices.
    pub const FIRST: u32 = 1;
    /// Writes the results.
    pub const LAST: u32 = 2;
    /// The digit is the row's.
    pub const ROW: u32 = 4;
    /// Values travel with the keys.
    pub const VALS: u32 = 8;
    /// Writes keys.
    pub const KEYS_OUT: u32 = 16;
    /// Writes values.
    pub const VALS_OUT: u32 = 32;
}

/// The traits struct of `dtype` in `kernels.cu`.
const fn traits(dtype: DType) -> Option<&'static str> {
    Some(match dtype {
        DType::Bool => "TBool",
        DType::Int8 => "TI8",
        DType::UInt8 => "TU8",
        DType::Int16 => "TI16",
        DType::UInt16 => "TU16",
        DType::Int32 => "TI32",
        DType::UInt32 => "TU32",
        DType::Int64 => "TI64",
        DType::UInt64 => "TU64",
        DType::Float16 => "TF16",
        DType::BFloat16 => "TBF16",
        DType::Float32 => "TF32",
        DType::Float64 => "TF64",
        DType::Complex64 => "TC64",
        DType::Complex128 => "TC128",
    })
}

/// Bits of the sort key of `dtype` (8 per pass).
pub(crate) const fn key_bits(dtype: DType) -> u32 {
    match dtype {
        DType::Bool | DType::Int8 | DType::UInt8 => 8,
        DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 16,
        DType::Int32 | DType::UInt32 | DType::Float32 => 32,
        DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 64,
        DType::Complex128 => 128,
    }
}

/// Bytes of the key type (`u32`, `u64` or the 128-bit pair).
const fn key_bytes(dtype: DType) -> usize {
    match key_bits(dtype) {
        b if b <= 32 => 4,
        64 => 8,
        _ => 16,
    }
}

/// Elements per tile for keys of `kb` bytes and values of `vb` bytes (as
/// `Items` in `kernels.cu`).
pub(crate) const fn tile_items(kb: usize, vb: usize) -> usize {
    let per_thread = if kb + vb <= 8 {
        16
    } else if kb + vb <= 16 {
        8
    } else {
        4
    };
    per_thread * BLOCK as usize
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_hist_{dtype}`: the digit counts of every pass into
    /// `hist` (256 per pass, zeroed): `key_passes` over the keys of the
    /// `n` elements of `src`, then `row_passes` over the row numbers of
    /// `rows` rows of `row_n`; `cz`: -0.0 counts as 0.0.
    pub(crate) struct Hist[T] {
        src: In<T>,
        hist: Out<u64>,
        n: i64,
        row_n: i64,
        rows: i64,
        key_passes: i32,
        row_passes: i32,
        cz: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_scan_{dtype}`: each of `passes` passes' digit counts
    /// turned into exclusive starts, in place (one block).
    pub(crate) struct ScanBins {
        hist: Out<u64>,
        passes: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_pass_{k32,v32,v64}_{dtype}`: one onesweep pass over the
    /// digit at `shift` of pass `pass` with [`flags`]: keys (the input
    /// dtype on the first pass, else keys), values of `V` (null on the
    /// first pass: the indices), the outputs (keys or the input dtype,
    /// values or int64 indices on the last pass), the pass's digit starts,
    /// the zeroed status words and the pass's tile counter.
    pub(crate) struct Onesweep[V] {
        keys_in: In<void>,
        vals_in: In<V>,
        keys_out: Out<void>,
        vals_out: Out<void>,
        n: i64,
        row_n: i64,
        shift: i32,
        flags: i32,
        pass: i32,
        cz: bool,
        bin_start: In<u64>,
        status: Out<u64>,
        counter: Out<u32>,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_search_{dtype}`: the insertion point of each of the `m`
    /// queries `v` in the `n` sorted `a` (`right`: after equal values).
    pub(crate) struct Search[T] {
        a: In<T>,
        n: i64,
        v: In<T>,
        m: i64,
        out: Out<i64>,
        right: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_uflags_{dtype}`: `flag[i]` where the `n` sorted values
    /// start a run of equal ones (NaNs equal with `equal_nan`, else none).
    pub(crate) struct UniqueFlags[T] {
        sorted: In<T>,
        n: i64,
        flag: Out<bool>,
        equal_nan: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_sort_uscatter_{dtype}`: each run start of the `n` sorted
    /// values to its slot (`csum - 1`): its value, its original index (from
    /// `perm`), the run's start; each element's slot into `inverse`. Null
    /// outputs are skipped.
    pub(crate) struct UniqueScatter[T] {
        sorted: In<T>,
        flag: In<bool>,
        csum: In<i64>,
        perm: In<i64>,
        n: i64,
        values: Out<T>,
        index: Out<i64>,
        inverse: Out<i64>,
        start: Out<i64>,
    }
}

/// The onesweep pass kernels and their value types: keys only, 32-bit
/// values (indices below 2^32), 64-bit values.
const PASSES: [(&str, DType); 3] = [
    ("pass_k32", DType::UInt32),
    ("pass_v32", DType::UInt32),
    ("pass_v64", DType::UInt64),
];

/// The name of the sort program's kernel `which` of `dtype`.
fn kernel_name(which: &str, dtype: DType) -> String {
    format!("cuprum_sort_{which}_{}", dtype.name())
}

/// The declared prototypes of every kernel of the sort program of `dtype`.
fn prototypes(dtype: DType) -> String {
    let name = |which: &str| kernel_name(which, dtype);
    let t = [dtype.c_type()];
    let mut s = Hist::prototype(&name("hist"), t);
    s.push_str(&ScanBins::prototype(&name("scan"), []));
    for (which, v) in PASSES {
        s.push_str(&Onesweep::prototype(&name(which), [v.c_type()]));
    }
    s.push_str(&Search::prototype(&name("search"), t));
    s.push_str(&UniqueFlags::prototype(&name("uflags"), t));
    s.push_str(&UniqueScatter::prototype(&name("uscatter"), t));
    s.push_str(&super::select::prototypes(dtype));
    s
}

/// The instantiation line of `dtype`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::sorting::radix::instantiation;
/// assert_eq!(instantiation(DType::Float32), "CUPRUM_SORT_DTYPE(float32, TF32, float)\n");
/// ```
pub fn instantiation(dtype: DType) -> String {
    format!(
        "CUPRUM_SORT_DTYPE({}, {}, {})\n",
        dtype.name(),
        traits(dtype).unwrap_or("TBool"),
        dtype.c_type()
    )
}

/// The program of every sort kernel for `dtypes`, with their declared
/// prototypes (compile tests and ahead-of-time compilation).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::sorting::radix::{instantiation, program_source};
/// let src = program_source(&[DType::Int32, DType::Float64]);
/// assert!(src.contains(&instantiation(DType::Int32)) && src.contains(&instantiation(DType::Float64)));
/// ```
pub fn program_source(dtypes: &[DType]) -> String {
    dtypes.iter().fold(SOURCE.to_string(), |mut s, &d| {
        s.push_str(&prototypes(d));
        s.push_str(&instantiation(d));
        s
    })
}

/// One pass of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// The digit's lowest bit (of the key, or of the row number).
    pub shift: u32,
    /// [`flags`] bits.
    pub flags: u32,
}

/// Bytes of the row numbers below `rows` (rows 0 .. rows - 1).
pub(crate) const fn row_digits(rows: usize) -> u32 {
    if rows <= 1 {
        0
    } else {
        (usize::BITS - (rows - 1).leading_zeros()).div_ceil(8)
    }
}

/// The passes of a sort of keys of `key_bits` in `rows` rows: the key's
/// digits from the lowest, then the row's (a stable sort by (row, key)).
/// `want_keys`: the sorted values are written; `want_vals`: the indices
/// within each row are.
///
/// ```
/// use gpu_array::sorting::radix::plan;
/// let one_row = plan(32, 1, true, false);
/// assert_eq!(one_row.iter().map(|p| p.shift).collect::<Vec<_>>(), [0, 8, 16, 24]); // one pass per byte
/// assert!(plan(32, 1000, true, false).len() > one_row.len()); // then the row digits
/// ```
pub fn plan(key_bits: u32, rows: usize, want_keys: bool, want_vals: bool) -> Vec<Pass> {
    let kp = key_bits.div_ceil(8);
    let rp = row_digits(rows);
    let total = kp + rp;
    let vals = want_vals || rp > 0;
    (0..total)
        .map(|p| {
            let row = p >= kp;
            let last = p + 1 == total;
            let mut f = 0;
            if p == 0 {
                f |= flags::FIRST;
            }
            if last {
                f |= flags::LAST;
            }
            if row {
                f |= flags::ROW;
            }
            if vals {
                f |= flags::VALS;
            }
            let keys_out = if last {
                want_keys
            } else {
                want_keys || p + 1 < kp
            };
            if keys_out {
                f |= flags::KEYS_OUT;
            }
            let vals_out = if last { want_vals } else { vals };
            if vals_out {
                f |= flags::VALS_OUT;
            }
            Pass {
                shift: if row { 8 * (p - kp) } else { 8 * p },
                flags: f,
            }
        })
        .collect()
}

/// The NVRTC request of the sort program of `dtype` (every sort kernel of
/// that key type), without an architecture: what [`kernel`] compiles and
/// what `cargo xtask precompile` compiles ahead of time.
pub(crate) fn program_request(dtype: DType) -> CompileRequest {
    crate::kernels::request(program_source(&[dtype]))
}

/// The kernel `which` of the program of `dtype` (its slots' C types
/// `types`: the dtype's, or a pass's value type), compiled once per
/// process.
pub(crate) fn kernel<A: KernelSignature>(
    dtype: DType,
    which: &str,
    types: A::Types,
) -> Result<TypedKernel<A>> {
    Ok(TypedKernel::cached(
        &kernel_name(which, dtype),
        types,
        || program_request(dtype),
    )?)
}

/// Launches `k` with `blocks` blocks of [`BLOCK`] threads.
pub(crate) fn launch<A: Vouched>(
    k: &TypedKernel<A>,
    blocks: usize,
    stream: &Stream,
    args: &A,
) -> Result<()> {
    launch_with(k, blocks, BLOCK, stream, args)
}

/// Launches `k` with `blocks` blocks of `threads` threads (the
/// selection's one-warp finish kernel takes fewer than [`BLOCK`]).
pub(crate) fn launch_with<A: Vouched>(
    k: &TypedKernel<A>,
    blocks: usize,
    threads: u32,
    stream: &Stream,
    args: &A,
) -> Result<()> {
    let blocks = u32::try_from(blocks)
        .ok()
        .filter(|&b| b < 1 << 31)
        .ok_or_else(|| Error::Value(format!("sort: too many blocks ({blocks}) for one launch")))?;
    let cfg = LaunchConfig::new((blocks.max(1), 1, 1), (threads, 1, 1));
    Ok(k.launch(&cfg, stream, args)?)
}

/// Sorts the C-contiguous `src` as `n / row_n` rows of `row_n` elements:
/// the sorted values into `keys_out` (same dtype, C-contiguous, `n`
/// elements) and/or each element's index within its row into `idx_out`
/// (int64, `n` elements). `canonical_zero`: -0.0 sorts equal to 0.0 (the
/// stable order of argsort); else just before it (sort keeps its sign).
pub(crate) fn radix_sort(
    src: &Array,
    row_n: usize,
    keys_out: Option<&Array>,
    idx_out: Option<&Array>,
    canonical_zero: bool,
) -> Result<()> {
    let n = src.size();
    if n == 0 {
        return Ok(());
    }
    debug_assert!(src.is_c_contiguous() && row_n > 0 && n.is_multiple_of(row_n));
    if n as u64 >= 1 << 56 {
        return Err(Error::Unsupported(format!(
            "sort: {n} elements are more than the radix sort counts (2^56)"
        )));
    }
    let dtype = src.dtype();
    let rows = n / row_n;
    let passes = plan(key_bits(dtype), rows, keys_out.is_some(), idx_out.is_some());
    let total = passes.len();
    let wide = u32::try_from(n).is_err();
    let (kb, vb) = (key_bytes(dtype), if wide { 8 } else { 4 });
    let tile = tile_items(kb, vb);
    let tiles = n.div_ceil(tile);
    let stream = src.stream();
    let device = src.device();

    // Scratch: histogram/starts (u64 per pass and digit), one tile counter
    // per pass, one status word per tile and digit; zeroed at once.
    let hist_bytes = total * 256 * 8;
    let counter_bytes = (total * 4).next_multiple_of(256);
    let status_bytes = tiles * 256 * 8;
    let scratch_len = hist_bytes + counter_bytes + status_bytes;
    let scratch = Array::empty_on(device, &[scratch_len], DType::UInt8, Order::C)?;
    scratch.memory().memset_at(0, scratch_len, 0, &stream)?;
    let (u64s, u32s) = (DType::UInt64.c_type(), DType::UInt32.c_type());
    let hist = scratch.data_ptr();
    let counters = hist.offset(hist_bytes as isize);
    let status = counters.offset(counter_bytes as isize);

    let kp = key_bits(dtype).div_ceil(8) as i32;
    let rp = row_digits(rows) as i32;
    let hist_blocks = n.div_ceil(BLOCK as usize * 16).clamp(1, 1024);
    let count = Hist {
        src: input(src),
        hist: Out::new(hist, u64s),
        n: n as i64,
        row_n: row_n as i64,
        rows: rows as i64,
        key_passes: kp,
        row_passes: rp,
        cz: canonical_zero,
    };
    let hist_k = kernel::<Hist>(dtype, "hist", [dtype.c_type()])?;
    launch(&hist_k, hist_blocks, &stream, &count)?;
    let starts = ScanBins {
        hist: Out::new(hist, u64s),
        passes: total as i32,
    };
    launch(&kernel::<ScanBins>(dtype, "scan", [])?, 1, &stream, &starts)?;

    // Ping-pong buffers for the passes between the first and the last.
    let vals = passes.iter().any(|p| p.flags & flags::VALS != 0);
    let mid = total > 1;
    let buf = |bytes: usize| -> Result<Option<Array>> {
        if mid {
            Ok(Some(Array::empty_on(
                device,
                &[n * bytes],
                DType::UInt8,
                Order::C,
            )?))
        } else {
            Ok(None)
        }
    };
    let keys_a = buf(kb)?;
    let keys_b = if total > 2 { buf(kb)? } else { None };
    let (vals_a, vals_b) = if vals {
        (buf(vb)?, if total > 2 { buf(vb)? } else { None })
    } else {
        (None, None)
    };
    let ptr = |a: Option<&Array>| a.map_or(DevicePtr::NULL, Array::data_ptr);
    let k_bufs = [ptr(keys_a.as_ref()), ptr(keys_b.as_ref())];
    let v_bufs = [ptr(vals_a.as_ref()), ptr(vals_b.as_ref())];
    // Keys-only sorts take the kernel without value registers.
    let (which, v_dtype) = PASSES[match (vals, wide) {
        (false, _) => 0,
        (true, false) => 1,
        (true, true) => 2,
    }];
    let vt = v_dtype.c_type();
    let pass_kernel = kernel::<Onesweep>(dtype, which, [vt])?;
    for (p, pass) in passes.iter().enumerate() {
        let first = p == 0;
        let last = p + 1 == total;
        let (keys_in, vals_in) = if first {
            (In::bytes(src.data_ptr()), In::NULL)
        } else {
            (
                In::bytes(k_bufs[(p - 1) % 2]),
                In::new(v_bufs[(p - 1) % 2], vt),
            )
        };
        let (keys_out, vals_out) = if last {
            (ptr(keys_out), ptr(idx_out))
        } else {
            (k_bufs[p % 2], v_bufs[p % 2])
        };
        let args = Onesweep {
            keys_in,
            vals_in,
            keys_out: Out::bytes(keys_out),
            vals_out: Out::bytes(vals_out),
            n: n as i64,
            row_n: row_n as i64,
            shift: pass.shift as i32,
            flags: pass.flags as i32,
            pass: p as i32,
            cz: canonical_zero,
            bin_start: In::new(hist.offset((p * 256 * 8) as isize), u64s),
            status: Out::new(status, u64s),
            counter: Out::new(counters.offset((p * 4) as isize), u32s),
        };
        launch(&pass_kernel, tiles, &stream, &args)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_sort_keys_then_rows() {
        // float32 sort: 4 key passes, keys only.
        let p = plan(32, 1, true, false);
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].flags, flags::FIRST | flags::KEYS_OUT);
        assert_eq!(p[3].flags, flags::LAST | flags::KEYS_OUT);
        assert_eq!(
            p.iter().map(|p| p.shift).collect::<Vec<_>>(),
            [0, 8, 16, 24]
        );
        // float32 argsort: the last pass writes only indices.
        let p = plan(32, 1, false, true);
        assert_eq!(p[3].flags, flags::LAST | flags::VALS | flags::VALS_OUT);
        assert_eq!(p[2].flags, flags::VALS | flags::KEYS_OUT | flags::VALS_OUT);
        // int8 in 300 rows: one key pass and two row passes.
        let p = plan(8, 300, true, false);
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].flags & flags::ROW, flags::ROW);
        assert_eq!(p[1].shift, 0);
        assert_eq!(p[2].shift, 8);
        assert_eq!(
            p[2].flags,
            flags::LAST | flags::ROW | flags::VALS | flags::KEYS_OUT
        );
        // argsort in rows: row passes move only indices.
        let p = plan(16, 256, false, true);
        assert_eq!(p.len(), 3);
        assert_eq!(p[1].flags & flags::KEYS_OUT, 0);
        assert_eq!(
            p[2].flags,
            flags::LAST | flags::ROW | flags::VALS | flags::VALS_OUT
        );
        // bool, one pass that reads and writes.
        assert_eq!(
            plan(8, 1, true, true)[0].flags,
            flags::FIRST | flags::LAST | flags::VALS | flags::KEYS_OUT | flags::VALS_OUT
        );
    }

    #[test]
    fn row_digits_count_bytes() {
        assert_eq!(row_digits(0), 0);
        assert_eq!(row_digits(1), 0);
        assert_eq!(row_digits(2), 1);
        assert_eq!(row_digits(256), 1);
        assert_eq!(row_digits(257), 2);
        assert_eq!(row_digits(1 << 16), 2);
        assert_eq!(row_digits((1 << 16) + 1), 3);
    }

    #[test]
    fn every_launch_finds_its_kernel_declared_in_its_program() {
        use super::super::select::{SelFinish, SelHist, SelPick};
        use gpu_runtime::signature::declares;
        for d in DType::ALL {
            let req = program_request(d);
            let t = [d.c_type()];
            let name = |which: &str| kernel_name(which, d);
            assert!(declares::<Hist>(&req, &name("hist"), t), "{d}");
            assert!(declares::<ScanBins>(&req, &name("scan"), []), "{d}");
            for (which, v) in PASSES {
                assert!(
                    declares::<Onesweep>(&req, &name(which), [v.c_type()]),
                    "{d}"
                );
            }
            assert!(declares::<Search>(&req, &name("search"), t), "{d}");
            assert!(declares::<UniqueFlags>(&req, &name("uflags"), t), "{d}");
            assert!(declares::<UniqueScatter>(&req, &name("uscatter"), t), "{d}");
            assert!(declares::<SelHist>(&req, &name("selhist"), t), "{d}");
            assert!(declares::<SelPick>(&req, &name("selpick"), []), "{d}");
            assert!(declares::<SelFinish>(&req, &name("selfinish"), t), "{d}");
        }
    }

    #[test]
    fn tiles_fit_the_kernels_shared_memory() {
        assert_eq!(tile_items(4, 4), 4096);
        assert_eq!(tile_items(8, 4), 2048);
        assert_eq!(tile_items(16, 8), 1024);
        assert!(24 >= key_bits(DType::Complex128) / 8 + 8);
    }
}

/// A sequential emulation of `kernels.cu` (histogram, bin scan, the
/// onesweep passes with their warp ranking, look-back and staged scatter),
/// driven by [`plan`] and the same ping-pong of buffers as [`radix_sort`]:
/// it checks the plan, the flags and the index arithmetic on the host.
#[cfg(test)]
mod emulate {
    use super::{Pass, flags, plan, row_digits, tile_items};

    const WARPS: usize = 8;

    fn digit(key: u64, val: u64, row_n: usize, p: &Pass) -> usize {
        if p.flags & flags::ROW != 0 {
            ((val / row_n as u64) >> p.shift) as usize & 255
        } else {
            (key >> p.shift) as usize & 255
        }
    }

    /// Sorts `keys` (`key_bits` wide) in rows of `row_n`: the sorted keys
    /// and/or the indices within rows, as the GPU would write them.
    pub fn sort(
        keys: &[u64],
        key_bits: u32,
        row_n: usize,
        want_keys: bool,
        want_vals: bool,
    ) -> (Vec<u64>, Vec<i64>) {
        let n = keys.len();
        let rows = n / row_n;
        let passes = plan(key_bits, rows, want_keys, want_vals);
        let kp = key_bits.div_ceil(8) as usize;
        let kb = if key_bits <= 32 { 4 } else { 8 };
        let tile = tile_items(kb, 4);
        let items = tile / 256;
        // Histogram and exclusive bin starts.
        let mut starts = vec![[0u64; 256]; passes.len()];
        for &k in keys {
            for (p, st) in starts.iter_mut().enumerate().take(kp) {
                st[(k >> (8 * p)) as usize & 255] += 1;
            }
        }
        for r in 0..rows {
            for q in 0..row_digits(rows) as usize {
                starts[kp + q][(r >> (8 * q)) & 255] += row_n as u64;
            }
        }
        for st in &mut starts {
            let mut acc = 0;
            for c in st.iter_mut() {
                let t = *c;
                *c = acc;
                acc += t;
            }
        }
        let (mut k_in, mut v_in) = (keys.to_vec(), (0..n as u64).collect::<Vec<_>>());
        let (mut k_fin, mut v_fin) = (Vec::new(), Vec::new());
        for (pi, p) in passes.iter().enumerate() {
            let last = p.flags & flags::LAST != 0;
            let mut k_out = vec![u64::MAX; n];
            let mut v_out = vec![u64::MAX; n];
            let tiles = n.div_ceil(tile);
            // prefix[d]: count of digit d in the tiles before (the look-back).
            let mut prefix = [0u64; 256];
            for t in 0..tiles {
                let mut wh = vec![[0u32; 256]; WARPS];
                // (warp, digit, key, value) in input order, and each one's rank.
                let mut staged: Vec<(usize, usize, u64, u64)> = Vec::new();
                let mut pos_of = Vec::new();
                for (w, whw) in wh.iter_mut().enumerate() {
                    for k in 0..items {
                        for lane in 0..32 {
                            let i = t * tile + w * 32 * items + k * 32 + lane;
                            if i >= n {
                                continue;
                            }
                            let (key, val) = (k_in[i], v_in[i]);
                            let d = digit(key, val, row_n, p);
                            pos_of.push(whw[d]);
                            whw[d] += 1;
                            staged.push((w, d, key, val));
                        }
                    }
                }
                let mut run = [0u32; 256];
                for d in 0..256 {
                    for whw in wh.iter_mut() {
                        let c = whw[d];
                        whw[d] = run[d];
                        run[d] += c;
                    }
                }
                let mut start = [0u32; 256];
                let mut acc = 0;
                for d in 0..256 {
                    start[d] = acc;
                    acc += run[d];
                }
                let global: Vec<u64> = (0..256).map(|d| starts[pi][d] + prefix[d]).collect();
                for d in 0..256 {
                    prefix[d] += u64::from(run[d]);
                }
                let mut s_key = vec![0u64; tile];
                let mut s_val = vec![0u64; tile];
                let mut s_dig = vec![0usize; tile];
                for ((w, d, key, val), rank) in staged.iter().zip(&pos_of) {
                    let pos = (start[*d] + wh[*w][*d] + rank) as usize;
                    s_key[pos] = *key;
                    s_val[pos] = *val;
                    s_dig[pos] = *d;
                }
                let cnt = staged.len();
                for i in 0..cnt {
                    let d = s_dig[i];
                    let g = (global[d] + (i as u64 - u64::from(start[d]))) as usize;
                    if p.flags & flags::KEYS_OUT != 0 {
                        k_out[g] = s_key[i];
                    }
                    if p.flags & flags::VALS != 0 && p.flags & flags::VALS_OUT != 0 {
                        v_out[g] = if last {
                            s_val[i] % row_n as u64
                        } else {
                            s_val[i]
                        };
                    }
                }
            }
            if last {
                k_fin = k_out;
                v_fin = v_out;
            } else {
                k_in = k_out;
                v_in = v_out;
            }
        }
        (k_fin, v_fin.into_iter().map(|v| v as i64).collect())
    }

    #[test]
    fn emulated_sorts_are_stable_sorts_by_row_then_key() {
        let mut s = 12345u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let cases: [(u32, usize, usize); 9] = [
            (32, 1, 1),
            (32, 5000, 5000),
            (32, 4096, 4096),
            (32, 12_289, 12_289),
            (8, 9000, 3),
            (16, 3000, 300),
            (64, 5000, 1000),
            (32, 70_002, 2),
            (8, 257 * 256, 256),
        ];
        for (bits, n, row_n) in cases {
            let mask = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            let keys: Vec<u64> = (0..n)
                .map(|_| {
                    let r = next();
                    // Many duplicates: a small pool half of the time.
                    (if r % 2 == 0 { (r >> 8) % 17 } else { r >> 3 }) & mask
                })
                .collect();
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (i / row_n, keys[i]));
            for (want_keys, want_vals) in [(true, false), (false, true), (true, true)] {
                let (k, v) = sort(&keys, bits, row_n, want_keys, want_vals);
                if want_keys {
                    let wk: Vec<u64> = order.iter().map(|&i| keys[i]).collect();
                    assert_eq!(k, wk, "keys: bits {bits} n {n} row {row_n}");
                }
                if want_vals {
                    let wv: Vec<i64> = order.iter().map(|&i| (i % row_n) as i64).collect();
                    assert_eq!(v, wv, "indices: bits {bits} n {n} row {row_n}");
                }
            }
        }
    }
}
