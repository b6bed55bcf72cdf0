//! The recursive filters with their state size compiled in
//! (`kernels/fixed_scan.cu`): `sosfilt`'s whole cascade of sections, and
//! `lfilter`'s transposed direct form II of order up to
//! [`MAX_DIRECT_ORDER`], with the state in registers and one pass over a
//! block of samples for the whole recursion, where `lfilter_rows` keeps a
//! state of any order in local memory (and ran a cascade a section at a
//! time). The blocks' final states are carried across block boundaries by
//! `iir::carry`'s phases (the recursion's block map computed on the host
//! from its zero-input step; for small maps a kernel of this program with
//! the map in registers), then each block runs again from the state it
//! really starts from.
//!
//! Rounding: inside a block, SciPy's arithmetic (each product and sum
//! rounded on its own); a signal of one block is SciPy's result to the
//! bit. The state entering a later block comes through the carry's
//! products of the block map. A cascade's map amplifies a unit state far
//! more than one section's (1.5e5 for butter(8, 0.1) as four sections,
//! 5e8 for cheby1(8, 1, 0.05), where a section's is about 10), but the
//! states it amplifies are the first sections', small by the filter's
//! gain, so the carried states stay within a few units of the working
//! precision of the output's scale (the float64 host replay in the tests:
//! 1e-13 of scale at most for those filters). lfilter keeps its own
//! routing of ill-conditioned filters to SciPy's loop (`lfilter.rs`).

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, TypedKernel};
use num_complex::Complex64;
use std::sync::Arc;

use super::memo::{self, Memo};

use super::iir::{CARRY, DTYPES, LfilterCarry, carry, config, plan, state_maps, upload};

const SOURCE: &str = include_str!("../kernels/fixed_scan.cu");

/// The most sections a cascade holds in registers (compiled per count):
/// more go through `lfilter_rows` a section at a time.
pub(crate) const MAX_SECTIONS: usize = 8;

/// The highest direct-form order held in registers: higher ones keep
/// `lfilter_rows` (state in local memory).
pub(crate) const MAX_DIRECT_ORDER: usize = 16;

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_scan_states_{T}_{tag}` (`..._{T}_from_{X}_{tag}`
    /// where the input's type differs): each block from the zero state
    /// (block 0 from `zi`), its final state.
    pub(crate) struct ScanStates[X, T] {
        x: In<X>,
        coef: In<T>,
        zi: In<T>,
        state: Out<T>,
        signals: i64,
        n: i64,
        block: i64,
        blocks: i64,
        packed: bool,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_scan_run_{T}_{tag}` (`..._{T}_from_{X}_{tag}`):
    /// each block from its entering state, the outputs and the last
    /// block's final state.
    pub(crate) struct ScanRun[X, T] {
        x: In<X>,
        y: Out<T>,
        coef: In<T>,
        zi: In<T>,
        init: In<T>,
        zf: Out<T>,
        signals: i64,
        n: i64,
        block: i64,
        blocks: i64,
        packed: bool,
    }
}

/// A recursion the kernels hold.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Recursion<'a> {
    /// sosfilt's sections, each `b0 b1 b2 1 a1 a2` (validated).
    Cascade(&'a [[Complex64; 6]]),
    /// lfilter's normalized `b` and `a`, `order + 1` values each.
    Direct {
        b: &'a [Complex64],
        a: &'a [Complex64],
    },
}

impl Recursion<'_> {
    /// The state's size.
    fn states(&self) -> usize {
        match self {
            Recursion::Cascade(s) => 2 * s.len(),
            Recursion::Direct { a, .. } => a.len() - 1,
        }
    }

    /// Whether the kernels hold it.
    fn fits(&self) -> bool {
        match self {
            Recursion::Cascade(s) => (1..=MAX_SECTIONS).contains(&s.len()),
            Recursion::Direct { b, a } => {
                b.len() == a.len() && (1..=MAX_DIRECT_ORDER).contains(&(a.len() - 1))
            }
        }
    }

    /// The kernels' name tag and the policy's C type for `c` (the
    /// element type).
    fn policy(&self, c: &str) -> (String, String) {
        match self {
            Recursion::Cascade(s) => (
                format!("sos{}", s.len()),
                format!("CuprumSosCascade<{c}, {}>", s.len()),
            ),
            Recursion::Direct { a, .. } => (
                format!("tdf{}", a.len() - 1),
                format!("CuprumTdf2<{c}, {}>", a.len() - 1),
            ),
        }
    }

    /// The coefficients as the policy's `load` reads them.
    fn coef(&self) -> Vec<Complex64> {
        match self {
            Recursion::Cascade(s) => s
                .iter()
                .flat_map(|c| [c[0], c[1], c[2], c[4], c[5]])
                .collect(),
            Recursion::Direct { b, a } => b.iter().chain(a.iter()).copied().collect(),
        }
    }

    /// One step of the recursion from state `z` with input `x`, the
    /// kernel's step in float64 (complex): the output.
    fn step(&self, x: Complex64, z: &mut [Complex64]) -> Complex64 {
        match self {
            Recursion::Cascade(sections) => {
                let mut x = x;
                for (s, c) in sections.iter().enumerate() {
                    let y = c[0] * x + z[2 * s];
                    z[2 * s] = c[1] * x - c[4] * y + z[2 * s + 1];
                    z[2 * s + 1] = c[2] * x - c[5] * y;
                    x = y;
                }
                x
            }
            Recursion::Direct { b, a } => {
                let n = a.len() - 1;
                let y = z[0] + b[0] * x;
                for r in 0..n - 1 {
                    z[r] = z[r + 1] + b[r + 1] * x - a[r + 1] * y;
                }
                z[n - 1] = b[n] * x - a[n] * y;
                y
            }
        }
    }

    /// The carry's state maps for `plan` over `n` samples (the block map
    /// of the zero-input step, `iir::state_maps`), memoized.
    fn maps(&self, plan: &super::iir::Plan, n: usize) -> Arc<Vec<Complex64>> {
        static MEMO: Memo<Vec<Complex64>> = Memo::new();
        let tag = match self {
            Recursion::Cascade(_) => memo::Tag::CascadeMaps,
            Recursion::Direct { .. } => memo::Tag::DirectMaps,
        };
        let sizes = [plan.block, plan.blocks, plan.group, plan.groups, n];
        MEMO.get_or(memo::key(tag, &self.coef(), &sizes), || {
            let zero = Complex64::new(0.0, 0.0);
            state_maps(
                self.states(),
                |z| {
                    self.step(zero, z);
                },
                plan,
                n,
            )
        })
    }

    /// zi's and zf's shape for `signals` signals.
    fn state_shape(&self, signals: usize) -> Vec<usize> {
        match self {
            Recursion::Cascade(s) => vec![s.len(), signals, 2],
            Recursion::Direct { a, .. } => vec![signals, a.len() - 1],
        }
    }
}

/// The kernels' names for a recursion in `dt` over input of `xdt`.
fn names(dt: DType, xdt: DType, rec: &Recursion<'_>) -> [String; 3] {
    let t = dt.name();
    let (tag, _) = rec.policy(dt.c_type());
    let from = if xdt == dt {
        String::new()
    } else {
        format!("_from_{}", xdt.name())
    };
    [
        format!("cuprum_signal_scan_states_{t}{from}_{tag}"),
        format!("cuprum_signal_scan_run_{t}{from}_{tag}"),
        format!("cuprum_signal_scan_carry_{t}_{tag}"),
    ]
}

/// The input dtype the kernels read for a recursion in `dt` given input of
/// `xdt`: float32 as it is into a float64 recursion (widened in the
/// kernel, exactly as `astype` would, without the cast's pass over the
/// signal), else `dt` (the caller casts).
pub(crate) fn input_dtype(xdt: DType, dt: DType) -> DType {
    if xdt == DType::Float32 && dt == DType::Float64 {
        xdt
    } else {
        dt
    }
}

/// Whether the program carries the states itself (`iir::carry`'s phases
/// with the state size compiled in and the block maps in registers) rather
/// than through `iir::carry`'s kernel (vectors in local memory): up to the
/// largest state whose carry ptxas (CUDA 13, sm_90) holds without spills:
/// 11 for float32, 8 for float64 and complex64, 4 for complex128 (one more
/// spills, 16 to 300 bytes).
fn own_carry(dt: DType, rec: &Recursion<'_>) -> bool {
    let most = match dt {
        DType::Float32 => 11,
        DType::Float64 | DType::Complex64 => 8,
        _ => 4,
    };
    rec.states() <= most
}

/// The program of the kernels for one dtype, input dtype (`dt` or
/// [`input_dtype`]'s narrower one) and recursion shape: the block states
/// and the run, and where [`own_carry`], the carry (of `iir::carry`'s
/// signature; the same kernel under the same name in every input dtype's
/// program, so whichever program built it first serves).
pub(crate) fn program_request(dt: DType, xdt: DType, rec: &Recursion<'_>) -> CompileRequest {
    let mut src = format!("{CARRY}{SOURCE}");
    let (c, xc) = (dt.c_type(), xdt.c_type());
    let [st, run, ca] = names(dt, xdt, rec);
    let (_, policy) = rec.policy(c);
    src += &ScanStates::prototype(&st, [xc, c]);
    src += &ScanRun::prototype(&run, [xc, c]);
    src += &format!("CUPRUM_FIXED_SCAN({st}, {run}, {xc}, {c}, {policy})\n");
    if own_carry(dt, rec) {
        src += &LfilterCarry::prototype(&ca, [c]);
        src += &format!("CUPRUM_FIXED_SCAN_CARRY({ca}, {c}, {policy})\n");
    }
    // SciPy's loops round each product and sum on their own.
    gpu_array::kernels::request(src).option("--fmad=false")
}

/// Whether the kernels take `rec` in `dt`.
pub(crate) fn takes(rec: &Recursion<'_>, dt: DType) -> bool {
    rec.fits() && DTYPES.contains(&dt)
}

/// `rec` in `dt` (one of the recursion's dtypes) along the rows of `x`, a
/// C-contiguous `signals x n` array of `dt` or of [`input_dtype`]`(x, dt)`,
/// from the initial states `zi` (C-contiguous, of `dt`: `(sections,
/// signals, 2)` for a cascade, `(signals, order)` for the direct form) or
/// zero; the outputs (of `dt`) and, with `want_zf`, the final states
/// (zi's shape).
pub(crate) fn scan_rows(
    rec: &Recursion<'_>,
    x: &Array,
    dt: DType,
    zi: Option<&Array>,
    want_zf: bool,
) -> Result<(Array, Option<Array>)> {
    let xdt = x.dtype();
    let fits = takes(rec, dt)
        && input_dtype(xdt, dt) == xdt
        && x.ndim() == 2
        && x.is_c_contiguous()
        && zi.is_none_or(|z| {
            z.dtype() == dt
                && z.is_c_contiguous()
                && z.shape() == rec.state_shape(x.shape()[0]).as_slice()
        });
    if !fits {
        return Err(Error::Value(
            "recursive filter: operands do not fit the fixed-state kernels".into(),
        ));
    }
    let (signals, n) = (x.shape()[0], x.shape()[1]);
    let zshape = rec.state_shape(signals);
    let y = Array::empty([signals, n], dt)?;
    let zf = if want_zf {
        Some(Array::empty(&zshape[..], dt)?)
    } else {
        None
    };
    if signals == 0 || n == 0 {
        let zf = match (zf, zi) {
            (None, _) => None,
            (Some(_), Some(z)) => Some(z.copy()?),
            (Some(_), None) => Some(Array::zeros(&zshape[..], dt)?),
        };
        return Ok((y, zf));
    }
    let p = plan(signals, n);
    let coef = upload(&rec.coef(), dt)?;
    let order = rec.states();
    // 16-byte loads and stores where every block starts on a boundary of
    // both packs: x and y are fresh or contiguous arrays (aligned), so
    // the rows and blocks decide.
    let v = (16 / x.itemsize()).max(16 / dt.itemsize()).max(1);
    let packed = n.is_multiple_of(v)
        && p.block.is_multiple_of(v)
        && x.data_ptr().raw().is_multiple_of(16)
        && y.data_ptr().raw().is_multiple_of(16);
    let (c, xc) = (dt.c_type(), xdt.c_type());
    let [st, run, ca] = names(dt, xdt, rec);
    let stream = x.stream();
    let init = if p.blocks > 1 {
        let state = Array::empty([signals * p.blocks * order], dt)?;
        let ks = TypedKernel::<ScanStates>::cached(&st, [xc, c], || program_request(dt, xdt, rec))?;
        ks.launch(
            &config(x, signals * p.blocks)?,
            &stream,
            &ScanStates {
                x: input(x),
                coef: input(&coef),
                zi: zi.map_or(In::NULL, input),
                state: output(&state),
                signals: signals as i64,
                n: n as i64,
                block: p.block as i64,
                blocks: p.blocks as i64,
                packed,
            },
        )?;
        let own = if own_carry(dt, rec) {
            Some(TypedKernel::<LfilterCarry>::cached(&ca, [c], || {
                program_request(dt, xdt, rec)
            })?)
        } else {
            None
        };
        let mats = rec.maps(&p, n);
        Some(carry(
            own.as_ref(),
            &state,
            &mats,
            None,
            order,
            signals,
            &p,
        )?)
    } else {
        None
    };
    let kr = TypedKernel::<ScanRun>::cached(&run, [xc, c], || program_request(dt, xdt, rec))?;
    kr.launch(
        &config(x, signals * p.blocks)?,
        &stream,
        &ScanRun {
            x: input(x),
            y: output(&y),
            coef: input(&coef),
            zi: zi.map_or(In::NULL, input),
            init: init.as_ref().map_or(In::NULL, input),
            zf: zf.as_ref().map_or(Out::NULL, output),
            signals: signals as i64,
            n: n as i64,
            block: p.block as i64,
            blocks: p.blocks as i64,
            packed,
        },
    )?;
    Ok((y, zf))
}

/// The kernels' passes on the host in float64 for `plan`: block states
/// from zero (block 0 from `zi`, laid out as the kernel's state), the
/// carry one step at a time (the device's groups change only the order of
/// the same products), then each block again from its entering state. For
/// the unit tests, against the serial loops.
#[cfg(test)]
pub(crate) fn blocked_host(
    rec: &Recursion<'_>,
    x: &[f64],
    zi: &[f64],
    p: &super::iir::Plan,
) -> (Vec<f64>, Vec<f64>) {
    let c = |v: f64| Complex64::new(v, 0.0);
    let zero = c(0.0);
    let order = rec.states();
    let n = x.len();
    let run = |z: &mut [Complex64], k: usize, mut y: Option<&mut [f64]>| {
        for j in k * p.block..((k + 1) * p.block).min(n) {
            let v = rec.step(c(x[j]), z);
            if let Some(y) = y.as_deref_mut() {
                y[j] = v.re;
            }
        }
    };
    let zi: Vec<Complex64> = zi.iter().map(|&v| c(v)).collect();
    let states: Vec<Vec<Complex64>> = (0..p.blocks)
        .map(|k| {
            let mut z = if k == 0 {
                zi.clone()
            } else {
                vec![zero; order]
            };
            run(&mut z, k, None);
            z
        })
        .collect();
    let mats = rec.maps(p, n);
    let phi = &mats[..order * order];
    let mut y = vec![0.0; n];
    let mut entering = zi;
    let mut zf = Vec::new();
    for k in 0..p.blocks {
        let mut z = entering.clone();
        run(&mut z, k, Some(&mut y));
        zf = z;
        // z[1] = s[0]; z[k + 1] = Phi z[k] + s[k].
        entering = if k == 0 {
            states[0].clone()
        } else {
            (0..order)
                .map(|i| {
                    states[k][i]
                        + (0..order)
                            .map(|j| phi[i * order + j] * entering[j])
                            .sum::<Complex64>()
                })
                .collect()
        };
    }
    (y, zf.iter().map(|v| v.re).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's `_sosfilt` loop, serial.
    fn serial(sections: &[[f64; 6]], x: &[f64], zi: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut z = zi.to_vec();
        let y = x
            .iter()
            .map(|&xn| {
                let mut v = xn;
                for (s, c) in sections.iter().enumerate() {
                    let o = c[0] * v + z[2 * s];
                    z[2 * s] = c[1] * v - c[4] * o + z[2 * s + 1];
                    z[2 * s + 1] = c[2] * v - c[5] * o;
                    v = o;
                }
                v
            })
            .collect();
        (y, z)
    }

    /// Sections of a digital lowpass design: its conjugate pole pairs,
    /// nearest the unit circle last, each over the zeros at -1 (the gain on
    /// the first), as SciPy's zpk2sos pairs a Butterworth's or a Chebyshev's.
    fn lowpass_sections(order: usize, wn: f64, ftype: crate::FilterType) -> Vec<[f64; 6]> {
        use crate::design::iir::{IirSpec, iirfilter_host};
        let spec = IirSpec {
            ftype,
            ..IirSpec::cheby1(1.0)
        };
        let zpk = iirfilter_host(order, &[wn], &spec).unwrap();
        let mut p: Vec<Complex64> = zpk.p.iter().copied().filter(|v| v.im >= 0.0).collect();
        p.sort_by(|a, b| a.norm().total_cmp(&b.norm()));
        p.iter()
            .enumerate()
            .map(|(i, pp)| {
                let k = if i == 0 { zpk.k } else { 1.0 };
                [k, 2.0 * k, k, 1.0, -2.0 * pp.re, pp.norm_sqr()]
            })
            .collect()
    }

    /// SciPy's lfilter loop (transposed direct form II), serial.
    fn serial_direct(b: &[f64], a: &[f64], x: &[f64], zi: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let n = a.len() - 1;
        let mut z = zi.to_vec();
        let y = x
            .iter()
            .map(|&xn| {
                let yn = z[0] + b[0] * xn;
                for r in 0..n - 1 {
                    z[r] = z[r + 1] + b[r + 1] * xn - a[r + 1] * yn;
                }
                z[n - 1] = b[n] * xn - a[n] * yn;
                yn
            })
            .collect();
        (y, z)
    }

    /// The blocked passes on `x`'s prefixes of `lens` (one block, two,
    /// many, a short last one), from zero and from a given state, for one
    /// and for 64 signals' plans, against `serial`: within `tol` of the
    /// output's scale, and equal to it with one block.
    fn check_blocked(
        rec: &Recursion<'_>,
        serial: impl Fn(&[f64], &[f64]) -> (Vec<f64>, Vec<f64>),
        x: &[f64],
        tol: f64,
    ) {
        let order = rec.states();
        let to_c = |v: &[f64]| v.to_vec();
        for n in [20, 40, 4099, x.len()] {
            for zi in [
                vec![0.0; order],
                (0..order).map(|r| 0.1 * r as f64 - 0.2).collect(),
            ] {
                let (want, want_zf) = serial(&x[..n], &zi);
                for signals in [1, 64] {
                    let p = plan(signals, n);
                    let (got, got_zf) = blocked_host(rec, &x[..n], &to_c(&zi), &p);
                    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                    let what = format!("{rec:?}: n {n} blocks {}", p.blocks);
                    for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                        assert!((g - w).abs() <= tol * scale, "{what}: y[{j}] {g} vs {w}");
                    }
                    for (g, w) in got_zf.iter().zip(&want_zf) {
                        assert!((g - w).abs() <= tol * scale, "{what}: zf {g} vs {w}");
                    }
                    if p.blocks == 1 {
                        assert_eq!(got, want, "{what}: one block is the serial loop");
                    }
                }
            }
        }
    }

    fn signal() -> Vec<f64> {
        (0..50_000)
            .map(|i| ((i as f64) * 0.37).sin() + 0.25 * ((i * 7919 % 101) as f64 / 101.0 - 0.5))
            .collect()
    }

    /// The cascade's blocked passes (block states, the carry through the
    /// cascade's block map, the re-run) agree with SciPy's serial cascade
    /// to a few units of float64 even where the cascade's state map
    /// amplifies a unit state 1e5 to 5e8 times (the carried states are
    /// small where the map is large): Butterworth and Chebyshev lowpasses
    /// of two to four sections, narrow ones included.
    #[test]
    fn blocked_cascade_matches_the_serial_loop() {
        use crate::FilterType;
        let x = signal();
        for sections in [
            lowpass_sections(4, 0.2, FilterType::Butter),
            lowpass_sections(8, 0.1, FilterType::Butter),
            lowpass_sections(6, 0.02, FilterType::Butter),
            lowpass_sections(8, 0.05, FilterType::Cheby1),
        ] {
            let c: Vec<[Complex64; 6]> = sections
                .iter()
                .map(|s| s.map(|v| Complex64::new(v, 0.0)))
                .collect();
            let serial_c = |x: &[f64], zi: &[f64]| serial(&sections, x, zi);
            check_blocked(&Recursion::Cascade(&c), serial_c, &x, 1e-12);
        }
    }

    /// The direct form's blocked passes agree with SciPy's lfilter loop
    /// within the working precision times the square of the state map's
    /// growth (`iir::growth`), the filters lfilter routes here (it sends
    /// worse-conditioned float64 filters to the serial loop).
    #[test]
    fn blocked_direct_form_matches_the_serial_loop() {
        use crate::FilterType;
        let x = signal();
        for (order, wn) in [(2, 0.3), (4, 0.2), (8, 0.1)] {
            let flat: Vec<f64> = lowpass_sections(order, wn, FilterType::Butter).concat();
            let (b, a) = crate::design::zpk::sos2tf_host(&flat);
            let (bc, ac): (Vec<Complex64>, Vec<Complex64>) = (
                b.iter().map(|&v| Complex64::new(v, 0.0)).collect(),
                a.iter().map(|&v| Complex64::new(v, 0.0)).collect(),
            );
            let g = super::super::iir::growth(&ac);
            let tol = (16.0 * f64::EPSILON * g * g).max(1e-13);
            let rec = Recursion::Direct { b: &bc, a: &ac };
            check_blocked(&rec, |x, zi| serial_direct(&b, &a, x, zi), &x, tol);
        }
    }
}
