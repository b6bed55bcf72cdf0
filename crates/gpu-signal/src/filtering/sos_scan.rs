//! `sosfilt`'s cascade as one blocked recursion (`kernels/sosfilt.cu`):
//! the state of every section (two values each) in registers, the whole
//! cascade run over a block of samples at once, where a pass of
//! `lfilter_rows` per section read and wrote the signal four times a
//! section with the state in local memory. The blocks' final states are
//! carried across block boundaries by `iir::carry` (the cascade is one
//! linear recursion of order `2 * sections`, its block map computed on
//! the host from the cascade's zero-input step), then each block runs
//! again from the state it really starts from.
//!
//! Rounding: inside a block, SciPy's arithmetic (each product and sum
//! rounded on its own); a signal of one block is SciPy's result to the
//! bit. The state entering a later block comes through the carry's
//! products of the block map. The cascade's map amplifies a unit state
//! far more than one section's (1.5e5 for butter(8, 0.1) as four
//! sections, 5e8 for cheby1(8, 1, 0.05), where a section's is about 10),
//! but the states it amplifies are the first sections', small by the
//! filter's gain, so the carried states stay within a few units of the
//! working precision of the output's scale (the float64 host replay in
//! the tests: 1e-13 of scale at most for those filters).

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, TypedKernel};
use num_complex::Complex64;

use super::iir::{DTYPES, carry, config, plan, state_maps, upload};

const SOURCE: &str = include_str!("../kernels/sosfilt.cu");

/// The most sections the kernels hold in registers (compiled per count):
/// more go through `lfilter_rows` a section at a time.
pub(crate) const MAX_SECTIONS: usize = 8;

gpu_runtime::kernel_signature! {
    /// `cuprum_signal_sos_states_{T}_s{S}`: each block through the
    /// cascade from the zero state (block 0 from `zi`), its final state.
    pub(crate) struct SosStates[T] {
        x: In<T>,
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
    /// `cuprum_signal_sos_run_{T}_s{S}`: each block from its entering
    /// state, the outputs and the last block's final state.
    pub(crate) struct SosRun[T] {
        x: In<T>,
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

fn names(dt: DType, sections: usize) -> [String; 2] {
    let t = dt.name();
    [
        format!("cuprum_signal_sos_states_{t}_s{sections}"),
        format!("cuprum_signal_sos_run_{t}_s{sections}"),
    ]
}

/// The program of both kernels for one dtype and section count.
pub(crate) fn program_request(dt: DType, sections: usize) -> CompileRequest {
    let mut src = String::from(SOURCE);
    let c = dt.c_type();
    let [st, run] = names(dt, sections);
    src += &SosStates::prototype(&st, [c]);
    src += &SosRun::prototype(&run, [c]);
    src += &format!("CUPRUM_SOSFILT({st}, {run}, {c}, {sections})\n");
    // SciPy's loop rounds each product and sum on its own.
    gpu_array::kernels::request(src).option("--fmad=false")
}

/// One zero-input step of the cascade (`z`: section `s`'s two state
/// values at `2 s` and `2 s + 1`), as the kernel's step with `x = 0`.
fn cascade_step(z: &mut [Complex64], sections: &[[Complex64; 6]]) {
    let mut x = Complex64::new(0.0, 0.0);
    for (s, c) in sections.iter().enumerate() {
        let y = c[0] * x + z[2 * s];
        z[2 * s] = c[1] * x - c[4] * y + z[2 * s + 1];
        z[2 * s + 1] = c[2] * x - c[5] * y;
        x = y;
    }
}

/// Whether `sos_rows` takes the cascade (else `lfilter_rows` runs it a
/// section at a time).
pub(crate) fn takes(sections: usize, dt: DType) -> bool {
    (1..=MAX_SECTIONS).contains(&sections) && DTYPES.contains(&dt)
}

/// `sections` (each `b0 b1 b2 1 a1 a2`, validated) along the rows of `x`,
/// a C-contiguous `signals x n` array of one of the recursion's dtypes,
/// from the initial states `zi` (C-contiguous `(sections, signals, 2)` of
/// `x`'s dtype) or zero; the outputs and, with `want_zf`, the final states
/// (`(sections, signals, 2)`).
pub(crate) fn sos_rows(
    sections: &[[Complex64; 6]],
    x: &Array,
    zi: Option<&Array>,
    want_zf: bool,
) -> Result<(Array, Option<Array>)> {
    let dt = x.dtype();
    let ns = sections.len();
    let fits = takes(ns, dt)
        && x.ndim() == 2
        && x.is_c_contiguous()
        && zi.is_none_or(|z| {
            z.dtype() == dt && z.is_c_contiguous() && z.shape() == [ns, x.shape()[0], 2]
        });
    if !fits {
        return Err(Error::Value(
            "sosfilt: operands do not fit the cascade kernels".into(),
        ));
    }
    let (signals, n) = (x.shape()[0], x.shape()[1]);
    let y = Array::empty([signals, n], dt)?;
    let zf = if want_zf {
        Some(Array::empty([ns, signals, 2], dt)?)
    } else {
        None
    };
    if signals == 0 || n == 0 {
        let zf = match (zf, zi) {
            (None, _) => None,
            (Some(_), Some(z)) => Some(z.copy()?),
            (Some(_), None) => Some(Array::zeros([ns, signals, 2], dt)?),
        };
        return Ok((y, zf));
    }
    let p = plan(signals, n);
    let coef: Vec<Complex64> = sections
        .iter()
        .flat_map(|c| [c[0], c[1], c[2], c[4], c[5]])
        .collect();
    let coef = upload(&coef, dt)?;
    let order = 2 * ns;
    // 16-byte loads where every block starts on a boundary: x and y are
    // fresh or contiguous arrays (aligned), so the rows and blocks decide.
    let v = (16 / x.itemsize()).max(1);
    let packed = n.is_multiple_of(v)
        && p.block.is_multiple_of(v)
        && x.data_ptr().raw().is_multiple_of(16)
        && y.data_ptr().raw().is_multiple_of(16);
    let c = dt.c_type();
    let [st, run] = names(dt, ns);
    let stream = x.stream();
    let init = if p.blocks > 1 {
        let state = Array::empty([signals * p.blocks * order], dt)?;
        let ks = TypedKernel::<SosStates>::cached(&st, [c], || program_request(dt, ns))?;
        ks.launch(
            &config(x, signals * p.blocks)?,
            &stream,
            &SosStates {
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
        let mats = state_maps(order, |z| cascade_step(z, sections), &p, n);
        Some(carry(&state, &mats, None, order, signals, &p)?)
    } else {
        None
    };
    let kr = TypedKernel::<SosRun>::cached(&run, [c], || program_request(dt, ns))?;
    kr.launch(
        &config(x, signals * p.blocks)?,
        &stream,
        &SosRun {
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
/// from zero (block 0 from `zi`), the carry as `iir::carry` runs it (one
/// step at a time here: the groups change only the order of the same
/// products), then each block again from its entering state. For the
/// unit tests, against the serial cascade.
#[cfg(test)]
pub(crate) fn sos_blocked_host(
    sections: &[[f64; 6]],
    x: &[f64],
    zi: &[f64],
    p: &super::iir::Plan,
) -> (Vec<f64>, Vec<f64>) {
    let c: Vec<[Complex64; 6]> = sections
        .iter()
        .map(|s| s.map(|v| Complex64::new(v, 0.0)))
        .collect();
    let order = 2 * sections.len();
    let n = x.len();
    let run = |z: &mut [f64], k: usize, y: Option<&mut [f64]>| {
        let mut y = y;
        for j in k * p.block..((k + 1) * p.block).min(n) {
            let mut v = x[j];
            for (s, sec) in sections.iter().enumerate() {
                let o = sec[0] * v + z[2 * s];
                z[2 * s] = sec[1] * v - sec[4] * o + z[2 * s + 1];
                z[2 * s + 1] = sec[2] * v - sec[5] * o;
                v = o;
            }
            if let Some(y) = y.as_deref_mut() {
                y[j] = v;
            }
        }
    };
    let states: Vec<Vec<f64>> = (0..p.blocks)
        .map(|k| {
            let mut z = if k == 0 {
                zi.to_vec()
            } else {
                vec![0.0; order]
            };
            run(&mut z, k, None);
            z
        })
        .collect();
    let mats = state_maps(order, |z| cascade_step(z, &c), p, n);
    let phi = &mats[..order * order];
    let mut y = vec![0.0; n];
    let mut entering = zi.to_vec();
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
                            .map(|j| phi[i * order + j].re * entering[j])
                            .sum::<f64>()
                })
                .collect()
        };
    }
    (y, zf)
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

    /// The blocked passes (block states, the carry through the cascade's
    /// block map, the re-run) agree with the serial cascade to a few units
    /// of float64 even where the cascade's state map amplifies a unit state
    /// 1e5 to 5e8 times (the carried states are small where the map is
    /// large): Butterworth and Chebyshev lowpasses of two and four
    /// sections, narrow ones included; signals of one block, of many, of a
    /// short last block, from zero and from a given state.
    #[test]
    fn blocked_cascade_matches_the_serial_loop() {
        use crate::FilterType;
        let designs = [
            lowpass_sections(4, 0.2, FilterType::Butter),
            lowpass_sections(8, 0.1, FilterType::Butter),
            lowpass_sections(6, 0.02, FilterType::Butter),
            lowpass_sections(8, 0.05, FilterType::Cheby1),
        ];
        let x: Vec<f64> = (0..50_000)
            .map(|i| ((i as f64) * 0.37).sin() + 0.25 * ((i * 7919 % 101) as f64 / 101.0 - 0.5))
            .collect();
        for sections in &designs {
            let order = 2 * sections.len();
            for n in [20, 40, 4099, 50_000] {
                for zi in [
                    vec![0.0; order],
                    (0..order).map(|r| 0.1 * r as f64 - 0.2).collect(),
                ] {
                    let (want, want_zf) = serial(sections, &x[..n], &zi);
                    for signals in [1, 64] {
                        let p = plan(signals, n);
                        let (got, got_zf) = sos_blocked_host(sections, &x[..n], &zi, &p);
                        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                        let what = format!("{order} states n {n} blocks {}", p.blocks);
                        for (j, (g, w)) in got.iter().zip(&want).enumerate() {
                            assert!((g - w).abs() <= 1e-12 * scale, "{what}: y[{j}] {g} vs {w}");
                        }
                        for (g, w) in got_zf.iter().zip(&want_zf) {
                            assert!((g - w).abs() <= 1e-12 * scale, "{what}: zf {g} vs {w}");
                        }
                        if p.blocks == 1 {
                            assert_eq!(got, want, "{what}: one block is the serial loop");
                        }
                    }
                }
            }
        }
    }
}
