//! The fixed-cost draws of [`Philox`]: `random`, `standard_normal` (with
//! an optional affine map, so `uniform` and `normal` take one pass) and
//! `integers`, one Philox block per thread and iteration (`kernels/fill.cu`).

use gpu_array::kernels::output;
use gpu_array::{Array, DType, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{KernelSignature, LaunchConfig, RawKernel, TypedKernel};

use crate::Philox;
use crate::error::value_error;

const PHILOX: &str = include_str!("kernels/philox.cuh");
const SOURCE: &str = include_str!("kernels/fill.cu");

/// Threads per block of the fill kernels (`CUPRUM_FILL_THREADS`: the
/// float32 normals' per-warp queues are sized for it).
const THREADS: u32 = 256;

gpu_runtime::kernel_signature! {
    /// `cuprum_random_fill_{f32,f64}`: `n` uniforms (`kind` 0) or standard
    /// normals (1) from the blocks at `pos..`, then `fma(b, x, a)` when
    /// `kind & 4`; `k0..k19` the key's round keys
    /// ([`crate::philox::round_keys`]).
    pub(crate) struct Fill[T] {
        out: Out<T>,
        n: i64,
        k0: u32,
        k1: u32,
        k2: u32,
        k3: u32,
        k4: u32,
        k5: u32,
        k6: u32,
        k7: u32,
        k8: u32,
        k9: u32,
        k10: u32,
        k11: u32,
        k12: u32,
        k13: u32,
        k14: u32,
        k15: u32,
        k16: u32,
        k17: u32,
        k18: u32,
        k19: u32,
        pos: u64,
        word: u32,
        kind: i32,
        a: f64,
        b: f64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_random_ints_{dtype}`: `n` integers `low + [0, range)`
    /// (range 0: 2^64; `wide`: range above 2^32, two lanes an element).
    pub(crate) struct Ints[T] {
        out: Out<T>,
        n: i64,
        k0: u32,
        k1: u32,
        pos: u64,
        word: u32,
        low: u64,
        range: u64,
        wide: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_random_permutation`: `out[i]`, a Feistel permutation of
    /// `[0, n)` on `2 half` bits under the round keys `k0..k7`.
    pub(crate) struct Perm {
        out: Out<i64>,
        n: i64,
        half: u32,
        k0: u32,
        k1: u32,
        k2: u32,
        k3: u32,
        k4: u32,
        k5: u32,
        k6: u32,
        k7: u32,
        flip: u32,
    }
}

/// The integer dtypes `integers` draws.
pub(crate) const INT_DTYPES: [DType; 8] = [
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
];

fn fill_name(dt: DType) -> String {
    format!("cuprum_random_fill_{}", dt.name())
}

fn ints_name(dt: DType) -> String {
    format!("cuprum_random_ints_{}", dt.name())
}

/// The one NVRTC program of every fill kernel (so the first draw compiles
/// them all at once), with the declared prototypes.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = format!("{PHILOX}{}{SOURCE}", crate::ziggurat::cuda_tables());
    for (dt, mac) in [
        (DType::Float32, "CUPRUM_RANDOM_FILL_F32"),
        (DType::Float64, "CUPRUM_RANDOM_FILL_F64"),
    ] {
        let name = fill_name(dt);
        src += &Fill::prototype(&name, [dt.c_type()]);
        src += &format!("{mac}({name}, {})\n", dt.c_type());
    }
    for dt in INT_DTYPES {
        let name = ints_name(dt);
        src += &Ints::prototype(&name, [dt.c_type()]);
        src += &format!("CUPRUM_RANDOM_INTS({name}, {})\n", dt.c_type());
    }
    src += &Perm::prototype(PERM, []);
    gpu_array::kernels::request(src).option("--fmad=false")
}

const PERM: &str = "cuprum_random_permutation";

/// The grid: enough blocks for `work` items of one thread each, at most
/// four waves of the blocks the device holds at once (the kernel's
/// occupancy, at most 8 a multiprocessor: a fixed 8 a multiprocessor of a
/// kernel that fits 5 ran the last 3 as a part-empty wave; four whole
/// waves of the float32 normals took 0.53 ms where one took 0.57, the
/// uniforms the same either way); `cap`, for the tests, at most that
/// many. The numbers do not depend on the grid.
fn config(k: &RawKernel, out: &Array, work: u64, cap: Option<u32>) -> Result<LaunchConfig> {
    let device = out.stream().device();
    let sms = device.properties()?.multiprocessor_count.max(1) as u64;
    let resident = k
        .kernel_on(device)?
        .max_active_blocks_per_multiprocessor(THREADS, 0)?
        .clamp(1, 8);
    let blocks = work
        .div_ceil(u64::from(THREADS))
        .clamp(1, 4 * sms * u64::from(resident));
    let blocks = cap.map_or(blocks, |c| blocks.min(u64::from(c.max(1))));
    Ok(LaunchConfig::new((blocks as u32, 1, 1), (THREADS, 1, 1)))
}

/// What a fill draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Kind {
    /// `[0, 1)`.
    Uniform,
    /// Standard normal.
    Normal,
}

/// `out` (fresh, C-contiguous, float32 or float64) filled with `kind`
/// draws, mapped by `fma(b, x, a)` when `affine` is given (float64 only).
pub(crate) fn fill(
    g: &mut Philox,
    out: &Array,
    kind: Kind,
    affine: Option<(f64, f64)>,
    grid_cap: Option<u32>,
) -> Result<()> {
    let dt = out.dtype();
    let lanes = match dt {
        DType::Float32 => 4,
        DType::Float64 => 2,
        _ => {
            return Err(value_error(format!(
                "Unsupported dtype {dt} for random floats"
            )));
        }
    };
    debug_assert!(out.is_c_contiguous() && (affine.is_none() || dt == DType::Float64));
    let n = out.size() as u64;
    if n == 0 {
        return Ok(());
    }
    let blocks = n.div_ceil(lanes);
    let pos = g.reserve(blocks)?;
    let rk = crate::philox::round_keys(g.key_words());
    let (a, b) = affine.unwrap_or((0.0, 1.0));
    let kind = match kind {
        Kind::Uniform => 0,
        Kind::Normal => 1,
    } | if affine.is_some() { 4 } else { 0 };
    let name = fill_name(dt);
    let k = TypedKernel::<Fill>::cached(&name, [dt.c_type()], program_request)?;
    let args = Fill {
        out: output(out),
        n: n as i64,
        k0: rk[0],
        k1: rk[1],
        k2: rk[2],
        k3: rk[3],
        k4: rk[4],
        k5: rk[5],
        k6: rk[6],
        k7: rk[7],
        k8: rk[8],
        k9: rk[9],
        k10: rk[10],
        k11: rk[11],
        k12: rk[12],
        k13: rk[13],
        k14: rk[14],
        k15: rk[15],
        k16: rk[16],
        k17: rk[17],
        k18: rk[18],
        k19: rk[19],
        pos,
        word: g.word(),
        kind,
        a,
        b,
    };
    k.launch(
        &config(k.raw(), out, blocks, grid_cap)?,
        &out.stream(),
        &args,
    )?;
    Ok(())
}

/// `out` (fresh, C-contiguous, an integer dtype) filled with integers in
/// `[low, low + range)`, `range` in `1..=2^64`.
pub(crate) fn integers(
    g: &mut Philox,
    out: &Array,
    low: i128,
    range: u128,
    grid_cap: Option<u32>,
) -> Result<()> {
    let dt = out.dtype();
    if !INT_DTYPES.contains(&dt) {
        return Err(gpu_array::Error::Unsupported(format!(
            "integers of dtype {dt} (only the integer dtypes)"
        )));
    }
    debug_assert!(out.is_c_contiguous() && (1..=1u128 << 64).contains(&range));
    let n = out.size() as u64;
    if n == 0 {
        return Ok(());
    }
    let wide = range > 1 << 32;
    let blocks = n.div_ceil(if wide { 2 } else { 4 });
    let pos = g.reserve(blocks)?;
    let [k0, k1] = g.key_words();
    let name = ints_name(dt);
    let k = TypedKernel::<Ints>::cached(&name, [dt.c_type()], program_request)?;
    let args = Ints {
        out: output(out),
        n: n as i64,
        k0,
        k1,
        pos,
        word: g.word(),
        low: low as i64 as u64,
        range: range as u64,
        wide: i32::from(wide),
    };
    k.launch(
        &config(k.raw(), out, blocks, grid_cap)?,
        &out.stream(),
        &args,
    )?;
    Ok(())
}

/// The Feistel network's half width, round keys and parity bit for a
/// permutation of `n`: the next three Philox blocks of the stream (so the
/// host can replay them, [`crate::HostPhilox::permutation`]).
pub(crate) fn permutation_keys(g: &mut Philox, n: u64) -> Result<(u32, [u32; 8], u32)> {
    let bits = 64 - n.saturating_sub(1).leading_zeros();
    let half = bits.div_ceil(2).max(1);
    let pos = g.reserve(3)?;
    let [a, b, c] = [0, 1, 2].map(|k| {
        crate::philox::philox4x32_10(
            [0, (pos + k) as u32, ((pos + k) >> 32) as u32, g.word()],
            g.key_words(),
        )
    });
    Ok((
        half,
        [a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]],
        c[0] & 1,
    ))
}

/// `0..n` in random order (int64), one Feistel walk per element.
pub(crate) fn permutation(g: &mut Philox, n: usize, grid_cap: Option<u32>) -> Result<Array> {
    let out = Array::empty(n, DType::Int64)?;
    if n == 0 {
        return Ok(out);
    }
    let (half, k, flip) = permutation_keys(g, n as u64)?;
    let kernel = TypedKernel::<Perm>::cached(PERM, [], program_request)?;
    let args = Perm {
        out: output(&out),
        n: n as i64,
        half,
        k0: k[0],
        k1: k[1],
        k2: k[2],
        k3: k[3],
        k4: k[4],
        k5: k[5],
        k6: k[6],
        k7: k[7],
        flip,
    };
    kernel.launch(
        &config(kernel.raw(), &out, n as u64, grid_cap)?,
        &out.stream(),
        &args,
    )?;
    Ok(out)
}
