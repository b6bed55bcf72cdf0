//! The recursive filters on the GPU, parallel along the signal
//! (`kernels/lfilter.cu`): each of the M signals is cut into blocks that
//! are filtered from the zero state at once, the states carried across
//! the block boundaries by a two-level scan, and each block corrected by
//! the zero-input response of the state it really starts from. A single
//! long signal thus runs on tens of thousands of threads.
//!
//! The host plans the blocks ([`plan`]) and computes, in float64 (complex
//! for complex filters), the tables the kernels read ([`tables`]): the
//! zero-input responses of the N unit states over one block and the state
//! maps `Phi = A^L` of a block, of the last block, of a group of blocks and
//! of the last group. `raw.rs` vouches for the launches.
//!
//! Rounding: SciPy runs the recursion serially; here a block's output is
//! its zero-state response plus `sum_r h_r[j] z_r`, with the entering
//! state `z` carried through the products of `Phi`. Both are exact in
//! exact arithmetic; in floating point they differ by a few units of the
//! working precision times the filter's gain from the state to the output
//! (large for poles near the unit circle, as SciPy's own result's
//! sensitivity is), and unstable filters, whose outputs grow without
//! bound, overflow in a different place.

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};
use num_complex::{Complex, Complex64};
use std::sync::Arc;

use super::memo::{self, Memo};

const SOURCE: &str = include_str!("../kernels/lfilter.cu");
/// The carry's phases (`kernels/carry.cuh`), before this program's kernels
/// and `fixed_scan`'s.
pub(crate) const CARRY: &str = include_str!("../kernels/carry.cuh");

/// Threads per block of the launches.
const THREADS: u32 = 256;

/// The largest filter order the kernels hold (`CUPRUM_LFILTER_MAXORDER`).
pub(crate) const MAX_ORDER: usize = 64;

/// Threads that keep a GPU busy: the planner cuts signals into blocks
/// until about this many run at once.
const TARGET_THREADS: usize = 1 << 16;

/// The shortest block worth a thread (shorter ones spend more on the
/// carry than on the samples).
const MIN_BLOCK: usize = 32;

/// The dtypes the recursion runs in.
pub(crate) const DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_lfilter_blocks_{T}`: pass 1, each block from the
    /// zero state (block 0 from `zi`).
    pub(crate) struct LfilterBlocks[T] {
        x: In<T>,
        y: Out<T>,
        coef: In<T>,
        zi: In<T>,
        state: Out<T>,
        order: i32,
        signals: i64,
        n: i64,
        block: i64,
        blocks: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_lfilter_carry_{T}`: pass 2, the states entering the
    /// blocks (phase 0: group sums; 1: across groups; 2: within groups).
    pub(crate) struct LfilterCarry[T] {
        state: In<T>,
        mats: In<T>,
        sums: Out<T>,
        init: Out<T>,
        zf: Out<T>,
        order: i32,
        signals: i64,
        blocks: i64,
        group: i64,
        groups: i64,
        phase: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_lfilter_fixup_{T}`: pass 3, each block's output plus
    /// the zero-input response of its entering state.
    pub(crate) struct LfilterFixup[T] {
        y: Out<T>,
        init: In<T>,
        h: In<T>,
        order: i32,
        signals: i64,
        n: i64,
        block: i64,
        blocks: i64,
    }
}

pub(crate) fn names(dt: DType) -> [String; 3] {
    let t = dt.name();
    [
        format!("cuprum_signal_lfilter_blocks_{t}"),
        format!("cuprum_signal_lfilter_carry_{t}"),
        format!("cuprum_signal_lfilter_fixup_{t}"),
    ]
}

/// The one NVRTC program of the recursive filters, every dtype.
pub(crate) fn program_request() -> CompileRequest {
    let mut src = format!("{CARRY}{SOURCE}");
    for dt in DTYPES {
        let c = dt.c_type();
        let [b, k, f] = names(dt);
        src += &LfilterBlocks::prototype(&b, [c]);
        src += &LfilterCarry::prototype(&k, [c]);
        src += &LfilterFixup::prototype(&f, [c]);
        src += &format!("CUPRUM_LFILTER({b}, {k}, {f}, {c})\n");
    }
    gpu_array::kernels::request(src)
}

/// How the signals are cut: `blocks` blocks of `block` samples (the last
/// shorter), and the `blocks - 2` carry steps in `groups` groups of
/// `group`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    pub block: usize,
    pub blocks: usize,
    pub group: usize,
    pub groups: usize,
}

impl Plan {
    /// The last block's length.
    pub fn last_block(&self, n: usize) -> usize {
        n - (self.blocks - 1) * self.block
    }

    /// The carry steps of the last group.
    pub fn last_group(&self) -> usize {
        let steps = self.blocks.saturating_sub(2);
        if self.groups == 0 {
            0
        } else {
            steps - (self.groups - 1) * self.group
        }
    }
}

/// The blocks for `signals` signals of `n >= 1` samples: enough threads
/// ([`TARGET_THREADS`]) with blocks of at least [`MIN_BLOCK`] samples, and
/// about `sqrt(steps)` carry steps a group, so that the serial depth of
/// the scan is about `2 sqrt(blocks)` steps.
pub(crate) fn plan(signals: usize, n: usize) -> Plan {
    let want = TARGET_THREADS.div_ceil(signals.max(1));
    let most = n.div_ceil(MIN_BLOCK).max(1);
    let blocks = want.clamp(1, most);
    let block = n.div_ceil(blocks).max(1);
    let blocks = n.div_ceil(block).max(1);
    let steps = blocks.saturating_sub(2);
    let group = (steps as f64).sqrt().ceil().max(1.0) as usize;
    Plan {
        block,
        blocks,
        group,
        groups: steps.div_ceil(group),
    }
}

/// One step of the zero-input recursion: `y = z[0]`, then the state
/// shifts (`a` normalized, of `order + 1` values).
pub(crate) fn zero_input_step(z: &mut [Complex64], a: &[Complex64]) -> Complex64 {
    let n = z.len();
    let y = z[0];
    for i in 0..n.saturating_sub(1) {
        z[i] = z[i + 1] - a[i + 1] * y;
    }
    if n > 0 {
        z[n - 1] = -a[n] * y;
    }
    y
}

/// `p * q` of `n x n` row-major matrices.
fn matmul(p: &[Complex64], q: &[Complex64], n: usize) -> Vec<Complex64> {
    let mut r = vec![Complex64::new(0.0, 0.0); n * n];
    for i in 0..n {
        for k in 0..n {
            let pik = p[i * n + k];
            for j in 0..n {
                r[i * n + j] += pik * q[k * n + j];
            }
        }
    }
    r
}

/// `m^e` and `m^f` (`e >= f >= 0`) by repeated multiplication. Not by
/// squaring: a narrow lowpass's block map is far from normal (entries near
/// 1e6 whose powers cancel down to 1e-50), and squaring multiplies each
/// level's rounding by those entries (Phi^256 of butter(6, 0.02) came out
/// near 1e159), where one factor at a time stays within the recursion's own
/// rounding. `e` is a carry group, about the square root of the blocks, so
/// the `e` products of `n^3` cost little beside the launch.
fn matpows(m: &[Complex64], n: usize, e: usize, f: usize) -> (Vec<Complex64>, Vec<Complex64>) {
    let mut r = vec![Complex64::new(0.0, 0.0); n * n];
    for i in 0..n {
        r[i * n + i] = Complex64::new(1.0, 0.0);
    }
    let mut at_f = (f == 0).then(|| r.clone());
    for k in 1..=e {
        r = matmul(&r, m, n);
        if k == f {
            at_f = Some(r.clone());
        }
    }
    (r, at_f.unwrap_or_default())
}

/// [`growth`], memoized on `a`'s bits (`memo`).
pub(crate) fn growth_memo(a: &[Complex64]) -> f64 {
    static MEMO: Memo<f64> = Memo::new();
    *MEMO.get_or(memo::key(memo::Tag::Growth, a, &[]), || growth(a))
}

/// [`tables`], memoized on `a`'s bits, the plan and `n` (`memo`).
fn tables_memo(a: &[Complex64], plan: &Plan, n: usize) -> Arc<(Vec<Complex64>, Vec<Complex64>)> {
    static MEMO: Memo<(Vec<Complex64>, Vec<Complex64>)> = Memo::new();
    let sizes = [plan.block, plan.blocks, plan.group, plan.groups, n];
    MEMO.get_or(memo::key(memo::Tag::Tables, a, &sizes), || {
        tables(a, plan, n)
    })
}

/// How far the zero-input recursion of the normalized denominator `a`
/// grows from a unit state: the largest state component over its decay
/// (at most 2^14 samples, fewer for high orders so that the replay stays
/// near 2^24 operations; the peak comes within the first few hundred
/// samples even for butter(8, 0.01)). The block scan carries states
/// through maps of that size, so its rounding is about `eps * growth^2`
/// of the output's scale (measured by a host replay: 0.1 to 0.5 of it for
/// butter(4, 0.1), growth 41, and butter(6, 0.02), growth 3.7e6), where
/// SciPy's loop adds its rounding one sample at a time.
pub(crate) fn growth(a: &[Complex64]) -> f64 {
    let order = a.len() - 1;
    let max_steps = ((1usize << 24) / (order * order).max(1)).clamp(64, 1 << 14);
    let zero = Complex64::new(0.0, 0.0);
    let mut peak = 1.0f64;
    for r in 0..order {
        let mut z = vec![zero; order];
        z[r] = Complex64::new(1.0, 0.0);
        for _ in 0..max_steps {
            zero_input_step(&mut z, a);
            let m = z.iter().fold(0.0f64, |m, v| m.max(v.norm()));
            if !m.is_finite() {
                return f64::INFINITY;
            }
            peak = peak.max(m);
            // Decayed far below where it started: the rest adds nothing.
            if m < 1e-6 {
                break;
            }
        }
    }
    peak
}

/// The kernels' tables for the normalized denominator `a` (`order + 1`
/// values) and `plan` over `n` samples: `h` (`order x block`, row `r` the
/// outputs of the zero-input recursion from the unit state `e_r`) and the
/// four state maps (`order x order` each, row-major: `Phi` of a block, of
/// the last block, of a group of carry steps and of the last group).
pub(crate) fn tables(a: &[Complex64], plan: &Plan, n: usize) -> (Vec<Complex64>, Vec<Complex64>) {
    let order = a.len() - 1;
    let block = plan.block;
    let zero = Complex64::new(0.0, 0.0);
    let mut h = vec![zero; order * block];
    for r in 0..order {
        let mut z = vec![zero; order];
        z[r] = Complex64::new(1.0, 0.0);
        for j in 0..block {
            h[r * block + j] = zero_input_step(&mut z, a);
        }
    }
    let mats = state_maps(
        order,
        |z| {
            zero_input_step(z, a);
        },
        plan,
        n,
    );
    (h, mats)
}

/// The carry's four state maps (`order x order` each, row-major) of a
/// linear recursion whose zero-input step is `step`, for `plan` over `n`
/// samples: `Phi` of a block, of the last block, of a group of carry
/// steps and of the last group.
pub(crate) fn state_maps(
    order: usize,
    step: impl Fn(&mut [Complex64]),
    plan: &Plan,
    n: usize,
) -> Vec<Complex64> {
    let (block, last) = (plan.block, plan.last_block(n));
    let zero = Complex64::new(0.0, 0.0);
    let mut phi = vec![zero; order * order];
    let mut phi_last = vec![zero; order * order];
    for r in 0..order {
        let mut z = vec![zero; order];
        z[r] = Complex64::new(1.0, 0.0);
        for j in 0..block {
            step(&mut z);
            if j + 1 == last {
                for i in 0..order {
                    phi_last[i * order + r] = z[i];
                }
            }
        }
        for i in 0..order {
            phi[i * order + r] = z[i];
        }
    }
    let mut mats = phi.clone();
    mats.extend(phi_last);
    let (group, last_group) = matpows(&phi, order, plan.group, plan.last_group());
    mats.extend(group);
    mats.extend(last_group);
    mats
}

/// `vals` as a device array of `dt` (one of [`DTYPES`]; real dtypes keep
/// the real parts).
pub(crate) fn upload(vals: &[Complex64], dt: DType) -> Result<Array> {
    let n = vals.len();
    match dt {
        DType::Float64 => Array::from_slice(&vals.iter().map(|v| v.re).collect::<Vec<_>>(), &[n]),
        DType::Float32 => {
            Array::from_slice(&vals.iter().map(|v| v.re as f32).collect::<Vec<_>>(), &[n])
        }
        DType::Complex64 => Array::from_slice(
            &vals
                .iter()
                .map(|v| Complex::new(v.re as f32, v.im as f32))
                .collect::<Vec<_>>(),
            &[n],
        ),
        _ => Array::from_slice(vals, &[n]),
    }
}

/// Blocks of [`THREADS`] for `work` threads.
pub(crate) fn config(a: &Array, work: usize) -> Result<LaunchConfig> {
    grid(a, work, THREADS)
}

/// The carry's grid: blocks of one warp, so that its few serial walks
/// (for one long signal, a few hundred threads of hundreds of steps each)
/// spread over the multiprocessors instead of sharing one (ncu, H100,
/// order 8 over 2^24 samples: 256 walks in one block of 256 took 0.34 ms
/// for phase 0, bound by one multiprocessor's FP64 issue).
fn carry_config(a: &Array, work: usize) -> Result<LaunchConfig> {
    grid(a, work, 32)
}

/// Blocks of `threads` for `work` threads, at most 32 a multiprocessor
/// (the kernels stride over the rest).
fn grid(a: &Array, work: usize, threads: u32) -> Result<LaunchConfig> {
    let sms = a
        .stream()
        .device()
        .properties()?
        .multiprocessor_count
        .max(1) as u64;
    let need = (work as u64).div_ceil(u64::from(threads)).max(1);
    Ok(LaunchConfig::new(
        (need.min(sms * 32) as u32, 1, 1),
        (threads, 1, 1),
    ))
}

/// The filter `b`, `a` (normalized, `order + 1` values each, `a[0] == 1`,
/// `order <= MAX_ORDER`) along the rows of `x`, a C-contiguous
/// `signals x n` array of one of [`DTYPES`], from the initial state `zi`
/// (a C-contiguous `signals x order` array of `x`'s dtype) or zero; the
/// outputs and, with `want_zf`, the final states (`signals x order`).
pub(crate) fn lfilter_rows(
    b: &[Complex64],
    a: &[Complex64],
    x: &Array,
    zi: Option<&Array>,
    want_zf: bool,
) -> Result<(Array, Option<Array>)> {
    let dt = x.dtype();
    let order = a.len() - 1;
    let fits = DTYPES.contains(&dt)
        && x.ndim() == 2
        && x.is_c_contiguous()
        && b.len() == a.len()
        && order <= MAX_ORDER
        && zi.is_none_or(|z| {
            z.dtype() == dt && z.is_c_contiguous() && z.shape() == [x.shape()[0], order]
        });
    if !fits {
        return Err(Error::Value(
            "lfilter: operands do not fit the kernels".into(),
        ));
    }
    let (signals, n) = (x.shape()[0], x.shape()[1]);
    let y = Array::empty([signals, n], dt)?;
    if signals == 0 || n == 0 {
        let zf = match (want_zf, zi) {
            (false, _) => None,
            (true, Some(z)) => Some(z.copy()?),
            (true, None) => Some(Array::zeros([signals, order], dt)?),
        };
        return Ok((y, zf));
    }
    let p = plan(signals, n);
    let mut coef = b.to_vec();
    coef.extend_from_slice(a);
    let coef = upload(&coef, dt)?;
    let c = dt.c_type();
    let [nb, _, nf] = names(dt);
    let stream = x.stream();
    let state = Array::empty([signals * p.blocks * order.max(1)], dt)?;
    let kb = TypedKernel::<LfilterBlocks>::cached(&nb, [c], program_request)?;
    kb.launch(
        &config(x, signals * p.blocks)?,
        &stream,
        &LfilterBlocks {
            x: input(x),
            y: output(&y),
            coef: input(&coef),
            zi: zi.map_or(In::NULL, input),
            state: output(&state),
            order: order as i32,
            signals: signals as i64,
            n: n as i64,
            block: p.block as i64,
            blocks: p.blocks as i64,
        },
    )?;
    if order == 0 {
        let zf = if want_zf {
            Some(Array::zeros([signals, 0], dt)?)
        } else {
            None
        };
        return Ok((y, zf));
    }
    if p.blocks == 1 {
        // One block a signal, run from zi: its final state is zf, and the
        // tables (O(order^2 n) host work for a block of the whole signal)
        // would go unread.
        let zf = if want_zf {
            Some(state.reshape(&[signals, order][..])?)
        } else {
            None
        };
        return Ok((y, zf));
    }
    let tables = tables_memo(a, &p, n);
    let (h, mats) = (&tables.0, &tables.1);
    let zf = if want_zf {
        Some(Array::empty([signals, order], dt)?)
    } else {
        None
    };
    let init = carry(None, &state, mats, zf.as_ref(), order, signals, &p)?;
    if p.blocks > 1 {
        let h = upload(h, dt)?;
        let kf = TypedKernel::<LfilterFixup>::cached(&nf, [c], program_request)?;
        kf.launch(
            &config(x, signals * n)?,
            &stream,
            &LfilterFixup {
                y: output(&y),
                init: input(&init),
                h: input(&h),
                order: order as i32,
                signals: signals as i64,
                n: n as i64,
                block: p.block as i64,
                blocks: p.blocks as i64,
            },
        )?;
    }
    Ok((y, zf))
}

/// Pass 2: the states entering the blocks (`signals * blocks * order`
/// values; block 0's row is not written) from the blocks' final states
/// `state` (of `signals * blocks * order` values, block 0's from zi, the
/// others' from zero) and the four state maps `mats` ([`state_maps`]);
/// the final states into `zf` (`signals * order` values) when given.
/// `kernel`: one of this program's carry signature and phases compiled
/// for `order` states (`fixed_scan`'s), or `None` for this program's.
pub(crate) fn carry(
    kernel: Option<&TypedKernel<LfilterCarry>>,
    state: &Array,
    mats: &[Complex64],
    zf: Option<&Array>,
    order: usize,
    signals: usize,
    p: &Plan,
) -> Result<Array> {
    let dt = state.dtype();
    let fits = DTYPES.contains(&dt)
        && (1..=MAX_ORDER).contains(&order)
        && state.is_c_contiguous()
        && state.size() == signals * p.blocks * order
        && mats.len() == 4 * order * order
        && p.blocks >= 1
        && p.groups.saturating_mul(p.group) >= p.blocks.saturating_sub(2)
        && zf.is_none_or(|z| z.dtype() == dt && z.is_c_contiguous() && z.size() == signals * order);
    if !fits {
        return Err(Error::Value(
            "lfilter: the carry's operands do not fit".into(),
        ));
    }
    let mats = upload(mats, dt)?;
    let sums = Array::empty([(signals * p.groups * order).max(1)], dt)?;
    let init = Array::empty([signals * p.blocks * order], dt)?;
    let own;
    let kc = match kernel {
        Some(k) => k,
        None => {
            let [_, nk, _] = names(dt);
            own = TypedKernel::<LfilterCarry>::cached(&nk, [dt.c_type()], program_request)?;
            &own
        }
    };
    let stream = state.stream();
    let launch = |phase: i32, work: usize| -> Result<()> {
        kc.launch(
            &carry_config(state, work)?,
            &stream,
            &LfilterCarry {
                state: input(state),
                mats: input(&mats),
                sums: output(&sums),
                init: output(&init),
                zf: zf.map_or(Out::NULL, output),
                order: order as i32,
                signals: signals as i64,
                blocks: p.blocks as i64,
                group: p.group as i64,
                groups: p.groups as i64,
                phase,
            },
        )
        .map_err(Error::from)
    };
    if p.groups > 0 {
        launch(0, signals * p.groups)?;
    }
    launch(1, signals)?;
    if p.groups > 0 {
        launch(2, signals * p.groups)?;
    }
    Ok(init)
}

/// The three passes on the host, in float64, as the kernels run them: the
/// unit tests hold them against the serial recursion.
#[cfg(test)]
pub(crate) fn lfilter_blocked_host(
    b: &[f64],
    a: &[f64],
    x: &[f64],
    zi: &[f64],
    p: &Plan,
) -> (Vec<f64>, Vec<f64>) {
    let c = |v: &[f64]| {
        v.iter()
            .map(|&r| Complex64::new(r, 0.0))
            .collect::<Vec<_>>()
    };
    let (bc, ac) = (c(b), c(a));
    let order = a.len() - 1;
    let n = x.len();
    let mut y = vec![0.0; n];
    let mut state = vec![Complex64::new(0.0, 0.0); p.blocks * order];
    for k in 0..p.blocks {
        let mut z: Vec<Complex64> = if k == 0 {
            c(zi)
        } else {
            vec![Complex64::new(0.0, 0.0); order]
        };
        for j in k * p.block..((k + 1) * p.block).min(n) {
            let xn = Complex64::new(x[j], 0.0);
            let yn = z[0] + bc[0] * xn;
            for r in 0..order - 1 {
                z[r] = z[r + 1] + bc[r + 1] * xn - ac[r + 1] * yn;
            }
            z[order - 1] = bc[order] * xn - ac[order] * yn;
            y[j] = yn.re;
        }
        state[k * order..(k + 1) * order].copy_from_slice(&z);
    }
    let (h, mats) = tables(&ac, p, n);
    let nn = order * order;
    let affine = |m: &[Complex64], v: &[Complex64], u: &[Complex64]| -> Vec<Complex64> {
        (0..order)
            .map(|i| {
                u[i] + (0..order)
                    .map(|j| m[i * order + j] * v[j])
                    .sum::<Complex64>()
            })
            .collect()
    };
    let s = |k: usize| &state[k * order..(k + 1) * order];
    let steps = p.blocks.saturating_sub(2);
    // Phase 0: group sums from zero.
    let mut sums: Vec<Vec<Complex64>> = (0..p.groups)
        .map(|g| {
            let mut v = vec![Complex64::new(0.0, 0.0); order];
            for k in 1 + g * p.group..(1 + (g + 1) * p.group).min(1 + steps) {
                v = affine(&mats[..nn], &v, s(k));
            }
            v
        })
        .collect();
    // Phase 1: across groups.
    let mut init = vec![vec![Complex64::new(0.0, 0.0); order]; p.blocks];
    let mut v = s(0).to_vec();
    for (g, u) in sums.iter_mut().enumerate() {
        let pm = if g + 1 == p.groups {
            &mats[3 * nn..]
        } else {
            &mats[2 * nn..3 * nn]
        };
        let sum = std::mem::replace(u, v.clone());
        v = affine(pm, &v, &sum);
    }
    let zf = if p.blocks >= 2 {
        init[p.blocks - 1] = v.clone();
        affine(&mats[nn..2 * nn], &v, s(p.blocks - 1))
    } else {
        v
    };
    // Phase 2: within groups.
    #[allow(clippy::needless_range_loop)]
    for (g, u) in sums.iter().enumerate() {
        let mut v = u.clone();
        for k in 1 + g * p.group..(1 + (g + 1) * p.group).min(1 + steps) {
            init[k] = v.clone();
            v = affine(&mats[..nn], &v, s(k));
        }
    }
    // Pass 3.
    for (i, yi) in y.iter_mut().enumerate() {
        let (k, j) = (i / p.block, i % p.block);
        if k > 0 {
            *yi += (0..order)
                .map(|r| (h[r * p.block + j] * init[k][r]).re)
                .sum::<f64>();
        }
    }
    (y, zf.iter().map(|v| v.re).collect())
}

/// The serial recursion's kernel: thread `i` filters row `i` of `x` into
/// `y`, its state in row `i` of `z` (`[signals, order]`, zi in, zf out);
/// `coef` is `b` then `a`, both `order + 1` long, `a[0] == 1`.
pub(crate) fn serial_kernel<'a>(
    coef: gpu_array::elementwise::Bind<'a>,
    x: gpu_array::elementwise::Bind<'a>,
    y: gpu_array::elementwise::Bind<'a>,
    z: gpu_array::elementwise::Bind<'a>,
    order: i64,
    n: i64,
) -> gpu_array::elementwise::Elementwise<'a> {
    gpu_array::elementwise::Elementwise::new("cuprum_signal_lfilter_serial")
        .raw("coef", coef)
        .raw("x", x)
        .raw_output("y", y)
        .raw_output("z", z)
        .scalar("order", DType::Int64, order)
        // `n` is the generated code's element count (a reserved name).
        .scalar("nsamp", DType::Int64, n)
        .op("const long long r = i;\n\
             cuprum_sig::lfilter_serial(&coef[0], &coef[order + 1], &x[r * nsamp], \
             &y[r * nsamp], &z[r * order], order, nsamp);")
        .preamble(include_str!("../kernels/lfilter_serial.cuh"))
        // SciPy's loop rounds each product and sum on its own: a fused
        // multiply-add, amplified by an ill-conditioned filter's growth
        // (3.7e6 for butter(6, 0.02)), moved outputs by 1e-8 of scale.
        .option("--fmad=false")
}

/// A recursive filter of any order (`b`, `a` normalized, one length
/// `order + 1`, `order >= 1`) along the rows of the C-contiguous 2-D `x`,
/// one thread a row: for orders above [`MAX_ORDER`], which the block
/// kernels do not hold. Slower (one sample after another), as exact as
/// SciPy's loop. Returns `y` and, when asked, `zf` (`[rows, order]`).
pub(crate) fn lfilter_rows_serial(
    b: &[Complex64],
    a: &[Complex64],
    x: &Array,
    zi: Option<&Array>,
    want_zf: bool,
) -> Result<(Array, Option<Array>)> {
    let dt = x.dtype();
    let order = a.len() - 1;
    if !DTYPES.contains(&dt)
        || x.ndim() != 2
        || !x.is_c_contiguous()
        || b.len() != a.len()
        || order == 0
    {
        return Err(Error::Value(
            "lfilter: operands do not fit the serial kernel".into(),
        ));
    }
    let (signals, n) = (x.shape()[0], x.shape()[1]);
    let y = Array::empty([signals, n], dt)?;
    let z = match zi {
        Some(z) if z.shape() == [signals, order] => z.astype(dt)?.copy()?,
        Some(_) => {
            return Err(Error::Value(
                "lfilter: zi does not fit the serial kernel".into(),
            ));
        }
        None => Array::zeros([signals, order], dt)?,
    };
    if signals > 0 && n > 0 {
        let mut coef = b.to_vec();
        coef.extend_from_slice(a);
        let coef = upload(&coef, dt)?;
        let (o, len) = (
            i64::try_from(order).map_err(|_| Error::TooBig)?,
            i64::try_from(n).map_err(|_| Error::TooBig)?,
        );
        serial_kernel((&coef).into(), x.into(), (&y).into(), (&z).into(), o, len)
            .launch(&[signals])?;
    }
    Ok((y, want_zf.then_some(z)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's serial recursion.
    fn serial(b: &[f64], a: &[f64], x: &[f64], zi: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let order = a.len() - 1;
        let mut z = zi.to_vec();
        let y = x
            .iter()
            .map(|&xn| {
                let yn = z[0] + b[0] * xn;
                for r in 0..order - 1 {
                    z[r] = z[r + 1] + b[r + 1] * xn - a[r + 1] * yn;
                }
                z[order - 1] = b[order] * xn - a[order] * yn;
                yn
            })
            .collect();
        (y, z)
    }

    #[test]
    fn plans_fill_the_gpu_and_cover_the_signal() {
        for (m, n) in [
            (1, 1),
            (1, 31),
            (1, 1000),
            (1, 1 << 20),
            (3, 1_000_003),
            (1 << 17, 100),
            (64, 4096),
        ] {
            let p = plan(m, n);
            assert!(p.block >= 1 && p.blocks >= 1, "{m} {n}: {p:?}");
            assert!((p.blocks - 1) * p.block < n && p.blocks * p.block >= n);
            let last = p.last_block(n);
            assert!(last >= 1 && last <= p.block);
            let steps = p.blocks.saturating_sub(2);
            assert_eq!(p.groups.saturating_sub(1) * p.group + p.last_group(), steps);
            assert!(p.groups == 0 || (1..=p.group).contains(&p.last_group()));
            if n >= MIN_BLOCK * TARGET_THREADS {
                assert!(m * p.blocks >= TARGET_THREADS / 2, "{m} {n}: {p:?}");
            }
        }
        // One long signal: about 2^16 threads; the scan's depth ~ 2 sqrt(K).
        let p = plan(1, 1 << 20);
        assert_eq!((p.block, p.blocks), (32, 32768));
        assert!(p.group <= 182 && p.groups <= 182, "{p:?}");
        // Many short signals: one block each.
        assert_eq!(plan(1 << 17, 100).blocks, 1);
    }

    #[test]
    fn blocked_passes_match_the_serial_recursion() {
        // A 4th-order Butterworth lowpass (scipy.signal.butter(4, 0.1)),
        // and a filter with len(b) > len(a) padded.
        let b = [
            0.000_416_599_204_406_579_5,
            0.001_666_396_817_626_318,
            0.002_499_595_226_439_477,
            0.001_666_396_817_626_318,
            0.000_416_599_204_406_579_5,
        ];
        let a = [
            1.0,
            -3.180_638_548_874_720_6,
            3.861_194_348_994_216_6,
            -2.112_155_355_110_970_6,
            0.438_265_142_261_980_6,
        ];
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) - 0.5
        };
        for n in [1usize, 5, 31, 32, 33, 64, 65, 100, 1000, 5000, 70_001] {
            let x: Vec<f64> = (0..n).map(|_| rnd()).collect();
            let zi: Vec<f64> = (0..4).map(|_| rnd()).collect();
            let (ys, zs) = serial(&b, &a, &x, &zi);
            for p in [plan(1, n), plan(7, n)] {
                let (yb, zb) = lfilter_blocked_host(&b, &a, &x, &zi, &p);
                let scale = ys.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                let err = ys
                    .iter()
                    .zip(&yb)
                    .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
                assert!(err <= 1e-12 * scale, "n={n} {p:?}: {err:e}");
                let err = zs
                    .iter()
                    .zip(&zb)
                    .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
                assert!(err <= 1e-12 * scale, "n={n} {p:?}: zf {err:e}");
            }
        }
        // Blocks shorter than the order (tiny plans by hand): every block
        // boundary is a carried step through Phi, and this filter's state
        // map is far from normal (max_k ||A^k||_inf = 158), so rounding
        // grows by up to that factor: the blocked form's one numerical
        // cost, which plans of 32 samples and more keep near 1e-12.
        let x: Vec<f64> = (0..50).map(|_| rnd()).collect();
        let zi = [0.1, -0.2, 0.3, 0.0];
        let (ys, zs) = serial(&b, &a, &x, &zi);
        for (block, group) in [(1, 1), (2, 3), (3, 7), (49, 1), (50, 1)] {
            let blocks = 50usize.div_ceil(block);
            let steps = blocks.saturating_sub(2);
            let p = Plan {
                block,
                blocks,
                group,
                groups: steps.div_ceil(group),
            };
            let (yb, zb) = lfilter_blocked_host(&b, &a, &x, &zi, &p);
            for (u, v) in ys.iter().zip(&yb).chain(zs.iter().zip(&zb)) {
                assert!((u - v).abs() <= 1e-10, "{p:?}: {u} {v}");
            }
        }
    }

    #[test]
    fn state_maps_are_powers_of_the_companion_matrix() {
        let a: Vec<Complex64> = [1.0, -0.5, 0.25]
            .iter()
            .map(|&v| Complex64::new(v, 0.0))
            .collect();
        let p = Plan {
            block: 4,
            blocks: 10,
            group: 3,
            groups: 3,
        };
        let (h, mats) = tables(&a, &p, 38);
        // One step's map A, from e_0 and e_1: z = (-a1, -a2) and (1, 0).
        let one = Plan {
            block: 1,
            blocks: 1,
            group: 1,
            groups: 0,
        };
        let (_, m1) = tables(&a, &one, 1);
        let am = &m1[..4];
        let (a4, a2) = matpows(am, 2, 4, 2);
        for (u, v) in a4.iter().zip(&mats[..4]) {
            assert!((u - v).norm() < 1e-15);
        }
        // Last block of 38 - 9 * 4 = 2 samples; groups of 3 and 8 - 6 = 2.
        for (u, v) in a2.iter().zip(&mats[4..8]) {
            assert!((u - v).norm() < 1e-15);
        }
        let (a12, a8) = matpows(&a4, 2, 3, 2);
        for (u, v) in a12.iter().zip(&mats[8..12]) {
            assert!((u - v).norm() < 1e-13);
        }
        for (u, v) in a8.iter().zip(&mats[12..16]) {
            assert!((u - v).norm() < 1e-13);
        }
        // h[0] is the impulse response of 1 / A(z) shifted: 1, 0.5, 0, ...
        assert_eq!(h[0], Complex64::new(1.0, 0.0));
        assert_eq!(h[1], Complex64::new(0.5, 0.0));
        assert_eq!(h[2], Complex64::new(0.0, 0.0));
    }

    /// butter(6, 0.02)'s denominator (SciPy 1.17): a block map far from
    /// normal.
    fn narrow() -> Vec<Complex64> {
        [
            1.0,
            -5.757244186246572,
            13.815510806058006,
            -17.68737617989399,
            12.741617329229193,
            -4.896924891433727,
            0.7844171768892996,
        ]
        .iter()
        .map(|&v| Complex64::new(v, 0.0))
        .collect()
    }

    #[test]
    fn group_maps_of_a_narrow_lowpass_stay_near_the_recursion() {
        // Phi^G of blocks of 32 with G = 256 against the state after
        // 32 * 256 zero-input steps from each unit state. Squaring gave
        // entries near 1e159 here; the true ones are below 1e-40.
        let a = narrow();
        let order = a.len() - 1;
        let p = Plan {
            block: 32,
            blocks: 256 * 256 + 2,
            group: 256,
            groups: 256,
        };
        let n = p.blocks * p.block;
        let (_, mats) = tables(&a, &p, n);
        let g = &mats[2 * order * order..3 * order * order];
        for r in 0..order {
            let mut z = vec![Complex64::new(0.0, 0.0); order];
            z[r] = Complex64::new(1.0, 0.0);
            for _ in 0..p.block * p.group {
                zero_input_step(&mut z, &a);
            }
            for i in 0..order {
                let (got, want) = (g[i * order + r], z[i]);
                assert!((got - want).norm() < 1e-30, "({i}, {r}): {got} vs {want}");
            }
        }
    }

    #[test]
    fn growth_of_well_and_badly_conditioned_denominators() {
        let wide: Vec<Complex64> = [
            1.0,
            -3.180638548874719,
            3.8611943489942133,
            -2.112155355110969,
            0.43826514226197977,
        ]
        .iter()
        .map(|&v| Complex64::new(v, 0.0))
        .collect();
        // SciPy-side replay: 40.8 and 3.71e6.
        let g = growth(&wide);
        assert!((40.0..42.0).contains(&g), "{g}");
        let g = growth(&narrow());
        assert!((3.6e6..3.8e6).contains(&g), "{g}");
        // A pole outside the unit circle grows without bound.
        let unstable = [Complex64::new(1.0, 0.0), Complex64::new(-1.5, 0.0)];
        assert!(growth(&unstable) > 1e100);
    }
}
