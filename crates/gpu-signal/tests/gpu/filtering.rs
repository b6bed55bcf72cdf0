//! lfilter, sosfilt, filtfilt, sosfiltfilt, detrend, savgol_filter,
//! hilbert, hilbert2 and decimate against SciPy
//! (`testdata/filtering_golden.npz`, `make_golden_filtering.py`):
//! float32, float64, complex and int32 inputs, odd and even lengths, 2-D
//! along both axes, initial and final states, every padtype and mode;
//! long single signals through the recursive filters against a float64
//! host recursion; then SciPy's errors.
//!
//! Tolerances: the recursive filters run in blocks whose boundary states
//! are carried through powers of the state map (`iir` module docs), so
//! their rounding differs from SciPy's serial loop by the working
//! precision times the filter's transient gain (max_k ||A^k||, about 10^2
//! for the filters here): 1e-10 relative in float64, 1e-4 in float32.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType};
use gpu_signal::{
    DecimateFtype, DecimateOptions, DetrendOptions, DetrendType, Filter, FiltfiltOptions,
    Hilbert2Options, HilbertOptions, LfilterOptions, SavgolOptions, SosfiltOptions,
    decimate_system, decimate_with, detrend_with, filtfilt_with, hilbert_with, hilbert2_with,
    lfilter_with, savgol_filter_with, sosfilt_with, sosfiltfilt_with,
};

use crate::{gpu, max_rel_diff};

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/filtering_golden.npz");
    gpu_testing::npz_members(p)
}

fn cases<'a>(g: &'a HashMap<String, NpyArray>, prefix: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = g
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .filter(|k| k.split("__").next() == Some(prefix))
        .collect();
    v.sort_unstable();
    v
}

fn load(g: &HashMap<String, NpyArray>, case: &str, part: &str) -> Option<Array> {
    g.get(&format!("{case}__{part}"))
        .map(|a| Array::from_npy(a).unwrap())
}

/// The value of the `<key><value>` tag of a case name.
fn tag<'a>(case: &'a str, key: &str) -> Option<&'a str> {
    case.split("__").find_map(|t| t.strip_prefix(key))
}

fn axis(case: &str) -> isize {
    tag(case, "ax").unwrap().parse().unwrap()
}

/// The tolerance of a recursive filter's result.
fn rtol(dt: DType) -> f64 {
    match dt {
        DType::Float32 | DType::Complex64 => 1e-4,
        _ => 1e-10,
    }
}

fn check(case: &str, got: &Array, want: &Array, tol: f64) {
    assert_eq!(got.dtype(), want.dtype(), "{case}: dtype");
    assert_eq!(got.shape(), want.shape(), "{case}: shape");
    let d = max_rel_diff(got, want);
    assert!(d <= tol, "{case}: relative difference {d:e}");
}

#[test]
fn lfilter_and_sosfilt_match_scipy() {
    if !gpu() {
        return;
    }
    let g = goldens();
    let mut n = 0;
    for case in cases(&g, "lfilter") {
        let (b, a, x) = (
            load(&g, case, "b").unwrap(),
            load(&g, case, "a").unwrap(),
            load(&g, case, "x").unwrap(),
        );
        let want = load(&g, case, "out").unwrap();
        let mut o = LfilterOptions::default().axis(axis(case));
        if let Some(zi) = load(&g, case, "zi") {
            o = o.zi(&zi);
        }
        let (y, zf) = lfilter_with(&b, &a, &x, &o).unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, rtol(want.dtype()));
        if let Some(zf_want) = load(&g, case, "zf") {
            check(case, &zf.expect("zf"), &zf_want, rtol(want.dtype()));
        }
        n += 1;
    }
    for case in cases(&g, "sosfilt") {
        let (sos, x) = (load(&g, case, "sos").unwrap(), load(&g, case, "x").unwrap());
        let want = load(&g, case, "out").unwrap();
        let mut o = SosfiltOptions::default().axis(axis(case));
        if let Some(zi) = load(&g, case, "zi") {
            o = o.zi(&zi);
        }
        let (y, zf) = sosfilt_with(&sos, &x, &o).unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, rtol(want.dtype()));
        if let Some(zf_want) = load(&g, case, "zf") {
            check(case, &zf.expect("zf"), &zf_want, rtol(want.dtype()));
        }
        n += 1;
    }
    // Every case of the goldens ran: 82 of lfilter, 12 of sosfilt.
    assert_eq!(n, 94, "{n} cases");
}

fn filtfilt_options(case: &str) -> FiltfiltOptions {
    let pad = match tag(case, "pad").unwrap() {
        "None" => None,
        p => Some(p.parse().unwrap()),
    };
    let len = match tag(case, "len").unwrap() {
        "None" => None,
        l => Some(l.parse().unwrap()),
    };
    FiltfiltOptions::default()
        .axis(axis(case))
        .padtype(pad)
        .padlen(len)
}

#[test]
fn filtfilt_and_sosfiltfilt_match_scipy_for_every_padtype() {
    if !gpu() {
        return;
    }
    let g = goldens();
    let mut n = 0;
    for case in cases(&g, "filtfilt") {
        let (b, a, x) = (
            load(&g, case, "b").unwrap(),
            load(&g, case, "a").unwrap(),
            load(&g, case, "x").unwrap(),
        );
        let y = filtfilt_with(&b, &a, &x, &filtfilt_options(case))
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        // float64 results: float32 inputs only change the extension.
        check(case, &y, &load(&g, case, "out").unwrap(), 1e-9);
        n += 1;
    }
    for case in cases(&g, "sosfiltfilt") {
        let (sos, x) = (load(&g, case, "sos").unwrap(), load(&g, case, "x").unwrap());
        let y = sosfiltfilt_with(&sos, &x, &filtfilt_options(case))
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &load(&g, case, "out").unwrap(), 1e-9);
        n += 1;
    }
    assert!(n >= 60, "{n} cases");
}

#[test]
fn detrend_savgol_hilbert_and_decimate_match_scipy() {
    if !gpu() {
        return;
    }
    let g = goldens();
    let tol = |dt: DType| match dt {
        DType::Float32 | DType::Complex64 => 1e-5,
        _ => 1e-11,
    };
    for case in cases(&g, "detrend") {
        let x = load(&g, case, "x").unwrap();
        let mut o = DetrendOptions::default().axis(axis(case));
        if case.contains("__constant") {
            o = o.type_(DetrendType::Constant);
        }
        if let Some(bp) = load(&g, case, "bp") {
            let bp: Vec<usize> = bp
                .to_vec_as::<i64>()
                .unwrap()
                .into_iter()
                .map(|v| v as usize)
                .collect();
            o = o.bp(&bp);
        }
        let want = load(&g, case, "out").unwrap();
        let y = detrend_with(&x, &o).unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, tol(want.dtype()) * 10.0);
    }
    for case in cases(&g, "savgol_filter") {
        let x = load(&g, case, "x").unwrap();
        let w = tag(case, "w").unwrap();
        let (wl, rest) = w.split_once('p').unwrap();
        let (po, d) = rest.split_once('d').unwrap();
        let o = SavgolOptions::default()
            .axis(axis(case))
            .mode(tag(case, "m").unwrap().parse().unwrap())
            .deriv(d.parse().unwrap())
            .delta(0.5)
            .cval(0.5);
        let want = load(&g, case, "out").unwrap();
        let y = savgol_filter_with(&x, wl.parse().unwrap(), po.parse().unwrap(), &o)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, tol(want.dtype()) * 10.0);
    }
    for case in cases(&g, "hilbert") {
        let x = load(&g, case, "x").unwrap();
        let n = match tag(case, "n").unwrap() {
            "None" => None,
            v => Some(v.parse().unwrap()),
        };
        let want = load(&g, case, "out").unwrap();
        let y = hilbert_with(&x, &HilbertOptions::default().axis(axis(case)).n(n))
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, tol(want.dtype()));
    }
    for case in cases(&g, "hilbert2") {
        let x = load(&g, case, "x").unwrap();
        let n = match tag(case, "n").unwrap() {
            "None" => None,
            v => Some([v.parse().unwrap(); 2]),
        };
        let want = load(&g, case, "out").unwrap();
        let y = hilbert2_with(&x, &Hilbert2Options::default().n(n))
            .unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, tol(want.dtype()));
    }
    for case in cases(&g, "decimate") {
        let x = load(&g, case, "x").unwrap();
        let ftype = if case.contains("__fir__") {
            DecimateFtype::Fir
        } else {
            DecimateFtype::Iir
        };
        let o = DecimateOptions::default()
            .axis(axis(case))
            .ftype(ftype)
            .zero_phase(tag(case, "zp").unwrap() == "1");
        let want = load(&g, case, "out").unwrap();
        let y = decimate_with(&x, 3, &o).unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, rtol(want.dtype()));
    }
    // A dlti system of one's own: FIR taps, complex poles (a transfer
    // function, as SciPy), real poles (sections).
    let dec_cases = cases(&g, "decsys");
    assert_eq!(dec_cases.len(), 12);
    for case in dec_cases {
        let x = load(&g, case, "x").unwrap();
        let system = match load(&g, case, "z") {
            Some(z) => Filter::Zpk(
                z,
                load(&g, case, "p").unwrap(),
                load(&g, case, "k").unwrap().to_vec::<f64>().unwrap()[0],
            ),
            None => Filter::Ba(load(&g, case, "b").unwrap(), load(&g, case, "a").unwrap()),
        };
        let o = DecimateOptions::default()
            .axis(axis(case))
            .zero_phase(tag(case, "zp").unwrap() == "1");
        let want = load(&g, case, "out").unwrap();
        let y = decimate_system(&x, 4, &system, &o).unwrap_or_else(|e| panic!("{case}: {e}"));
        check(case, &y, &want, rtol(want.dtype()));
    }
}

/// A seeded uniform sequence in [-0.5, 0.5).
fn noise(n: usize, mut seed: u64) -> Vec<f64> {
    (0..n)
        .map(|_| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        })
        .collect()
}

/// SciPy's serial transposed direct form II in float64 from zero state.
fn serial(b: &[f64], a: &[f64], x: &[f64]) -> Vec<f64> {
    let order = a.len() - 1;
    let mut z = vec![0.0; order];
    x.iter()
        .map(|&xn| {
            let yn = z[0] + b[0] * xn;
            for r in 0..order - 1 {
                z[r] = z[r + 1] + b[r + 1] * xn - a[r + 1] * yn;
            }
            z[order - 1] = b[order] * xn - a[order] * yn;
            yn
        })
        .collect()
}

/// A recursive filter of order 80, beyond the block kernels' 64: SciPy's
/// loop one thread a signal, over three signals (2-D, last axis), with
/// an initial state and the final one, against the host recursion.
#[test]
fn orders_above_the_block_kernels_run_serially() {
    if !gpu() {
        return;
    }
    // 40 conjugate pole pairs of radius 0.6: a stable order-80 filter.
    let mut ah = vec![1.0f64];
    for k in 0..40 {
        let t = std::f64::consts::PI * (k as f64 + 0.5) / 40.0;
        let quad = [1.0, -1.2 * t.cos(), 0.36];
        let mut next = vec![0.0; ah.len() + 2];
        for (i, &c) in ah.iter().enumerate() {
            for (j, &q) in quad.iter().enumerate() {
                next[i + j] += c * q;
            }
        }
        ah = next;
    }
    let bh: Vec<f64> = noise(81, 5);
    let (rows, n) = (3usize, 500usize);
    let xh = noise(rows * n, 9);
    let zh = noise(rows * 80, 13);
    let b = Array::from_slice(&bh, &[81]).unwrap();
    let a = Array::from_slice(&ah, &[81]).unwrap();
    let x = Array::from_slice(&xh, &[rows, n]).unwrap();
    let zi = Array::from_slice(&zh, &[rows, 80]).unwrap();
    let (y, zf) = lfilter_with(&b, &a, &x, &LfilterOptions::default().zi(&zi)).unwrap();
    let (y, zf) = (
        y.to_vec::<f64>().unwrap(),
        zf.unwrap().to_vec::<f64>().unwrap(),
    );
    for r in 0..rows {
        // The host recursion from zi: the same loop with its state.
        let mut z = zh[r * 80..(r + 1) * 80].to_vec();
        for k in 0..n {
            let xn = xh[r * n + k];
            let yn = z[0] + bh[0] * xn;
            for j in 0..79 {
                z[j] = z[j + 1] + bh[j + 1] * xn - ah[j + 1] * yn;
            }
            z[79] = bh[80] * xn - ah[80] * yn;
            let got = y[r * n + k];
            assert!(
                (got - yn).abs() <= 1e-12 * yn.abs().max(1.0),
                "row {r} sample {k}: {got} vs {yn}"
            );
        }
        for j in 0..80 {
            let got = zf[r * 80 + j];
            assert!(
                (got - z[j]).abs() <= 1e-12 * z[j].abs().max(1.0),
                "row {r} zf[{j}]"
            );
        }
    }
    // Without zi, from zero state: the serial host loop above.
    let y0 = gpu_signal::lfilter(&b, &a, &x.get_index(&gpu_array::ix![0]).unwrap())
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let want = serial(&bh, &ah, &xh[..n]);
    for (k, (g, w)) in y0.iter().zip(&want).enumerate() {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "sample {k}: {g} vs {w}"
        );
    }
}

/// Asserts that `got` (an output brought to float64) is finite and within
/// `tol` of `want`'s largest magnitude, elementwise; `what` names the check.
/// Finiteness first: a NaN would hide from the max fold.
fn assert_close_to(got: &Array, want: &[f64], tol: f64, what: &str) {
    let got = got.to_vec_as::<f64>().unwrap();
    assert!(got.iter().all(|v| v.is_finite()), "{what}: not finite");
    let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let err = got
        .iter()
        .zip(want)
        .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()));
    assert!(err <= tol * scale, "{what}: {err:e} of {scale:e}");
}

#[test]
fn long_single_signals_match_a_float64_host_recursion() {
    if !gpu() {
        return;
    }
    // One signal of 2^21 samples. A narrow lowpass whose state map is far
    // from normal (growth 3.7e6): in float64 it runs SciPy's loop (the
    // block scan would lose about six digits), which must match the host
    // recursion closely.
    let (b, a) = gpu_signal::butter(6, &[0.02]).unwrap();
    let (bh, ah) = (b.to_vec::<f64>().unwrap(), a.to_vec::<f64>().unwrap());
    let n = 1 << 21;
    let xh = noise(n, 11);
    let want = serial(&bh, &ah, &xh);
    let x = Array::from_slice(&xh, &[n]).unwrap();
    let y = gpu_signal::lfilter(&b, &a, &x).unwrap();
    assert_close_to(&y, &want, 1e-9, "float64");
    // A wider lowpass (growth 41) runs the block scan: 65 536 blocks of
    // 32 carried by the two-level scan, in float64 and float32. (The
    // narrow one has no float32 form: its float32 denominator sums to
    // exactly 0, a pole at z = 1, in SciPy's loop as here.)
    let (bw, aw) = gpu_signal::butter(4, &[0.1]).unwrap();
    let (bwh, awh) = (bw.to_vec::<f64>().unwrap(), aw.to_vec::<f64>().unwrap());
    let want_w = serial(&bwh, &awh, &xh);
    let yw = gpu_signal::lfilter(&bw, &aw, &x).unwrap();
    assert_close_to(&yw, &want_w, 1e-11, "float64 scan");
    // float32 coefficients and signal: float32 throughout, against the
    // float64 truth (SciPy's own float32 loop is as far from it).
    let b32 = bw.astype(DType::Float32).unwrap();
    let a32 = aw.astype(DType::Float32).unwrap();
    let y32 = gpu_signal::lfilter(&b32, &a32, &x.astype(DType::Float32).unwrap()).unwrap();
    assert_eq!(y32.dtype(), DType::Float32);
    assert_close_to(&y32, &want_w, 1e-2, "float32");
    // The narrow filter as sections, and the final state of a long signal.
    let sos = gpu_signal::butter_with(
        6,
        &[0.02],
        &gpu_signal::IirOptions::default().output(gpu_signal::Output::Sos),
    )
    .unwrap()
    .into_sos()
    .unwrap();
    // Against the host cascade of the same sections: the transfer
    // function's rounded coefficients alone put SciPy's lfilter 3.5e-8 of
    // scale from its sosfilt on this input.
    let ys = gpu_signal::sosfilt(&sos, &x).unwrap();
    let want_s = sos
        .to_vec::<f64>()
        .unwrap()
        .chunks(6)
        .fold(xh.clone(), |v, s| serial(&s[..3], &s[3..], &v));
    assert_close_to(&ys, &want_s, 1e-9, "sosfilt");
    // Two halves with the state carried equal the whole.
    let half = n / 2;
    let zi = Array::zeros([6], DType::Float64).unwrap();
    let o = LfilterOptions::default().zi(&zi);
    let x1 = Array::from_slice(&xh[..half], &[half]).unwrap();
    let x2 = Array::from_slice(&xh[half..], &[n - half]).unwrap();
    let (_, zf) = lfilter_with(&b, &a, &x1, &o).unwrap();
    let (y2, _) = lfilter_with(&b, &a, &x2, &LfilterOptions::default().zi(&zf.unwrap())).unwrap();
    // Scaled by the second half's own largest output.
    assert_close_to(&y2, &want[half..], 1e-9, "halves");
}

#[test]
fn filtering_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let err = |r: gpu_array::Result<(Array, Option<Array>)>| r.unwrap_err().to_string();
    let x = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0, 5.0], &[5]).unwrap();
    let b = Array::from_slice(&[1.0f64, 0.5], &[2]).unwrap();
    let a0 = Array::from_slice(&[0.0f64, 1.0], &[2]).unwrap();
    let empty = Array::zeros([0], DType::Float64).unwrap();
    let o = LfilterOptions::default();
    assert_eq!(
        err(lfilter_with(&b, &a0, &x, &o)),
        "BUG: filter coefficient a[0] == 0 not supported yet"
    );
    assert_eq!(
        err(lfilter_with(&empty, &b, &x, &o)),
        "Parameter b is not a non-empty 1d array, since b.shape=(0,)!"
    );
    let zi = Array::zeros([2], DType::Float64).unwrap();
    assert_eq!(
        err(lfilter_with(&b, &b, &x, &o.clone().zi(&zi))),
        "Unexpected shape for zi: expected (1,), found (2,)."
    );
    let xi = Array::from_slice(&[1i64, 2, 3], &[3]).unwrap();
    let bi = Array::from_slice(&[1i64, 2], &[2]).unwrap();
    assert_eq!(
        err(lfilter_with(&bi, &bi, &xi, &o)),
        "input type 'int64' not supported"
    );
    let e = filtfilt_with(&b, &b, &x, &FiltfiltOptions::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "The length of the input vector x must be greater than padlen, which is 6."
    );
    assert!("gust".parse::<gpu_signal::FiltfiltMethod>().is_ok());
    assert_eq!(
        "nope"
            .parse::<gpu_signal::PadType>()
            .unwrap_err()
            .to_string(),
        "Unknown value 'nope' given to padtype. padtype must be 'even', 'odd', 'constant', or None."
    );
    let e = gpu_signal::savgol_filter(&x, 7, 2).unwrap_err().to_string();
    assert_eq!(
        e,
        "If mode is 'interp', window_length must be less than or equal to the size of x."
    );
    let e = gpu_signal::savgol_filter(&x, 3, 3).unwrap_err().to_string();
    assert_eq!(e, "polyorder must be less than window_length.");
    let c = Array::zeros([4], DType::Complex128).unwrap();
    assert_eq!(
        gpu_signal::hilbert(&c).unwrap_err().to_string(),
        "x must be real."
    );
    assert_eq!(
        gpu_signal::butter(4, &[1.5]).unwrap_err().to_string(),
        "Digital filter critical frequencies must be 0 < Wn < 1"
    );
}

/// SciPy's `_sosfilt` loop over one signal in float64, from `zi` (`2 *
/// sections` values, section `s`'s at `2 s`), with the final state.
fn serial_sos(sos: &[f64], x: &[f64], zi: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut z = zi.to_vec();
    let y = x
        .iter()
        .map(|&xn| {
            let mut v = xn;
            for (s, c) in sos.chunks(6).enumerate() {
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

/// sosfilt's cascade kernels on many signals: butter(8, 0.1) as four
/// sections over 300 signals of 4096 samples (16-byte loads) and of 4099
/// (element loads), float64, float32 and complex128, along the last axis
/// and along axis 0, from given initial states, outputs and final states
/// against the float64 host loop.
#[test]
fn sosfilt_cascade_matches_the_host_loop_on_many_signals() {
    if !gpu() {
        return;
    }
    let sos = gpu_signal::butter_with(
        8,
        &[0.1],
        &gpu_signal::IirOptions::default().output(gpu_signal::Output::Sos),
    )
    .unwrap()
    .into_sos()
    .unwrap();
    let sh = sos.to_vec::<f64>().unwrap();
    let sections = sh.len() / 6;
    let signals = 300;
    for n in [4096usize, 4099] {
        let xh = noise(signals * n, n as u64);
        let zih: Vec<f64> = noise(sections * signals * 2, 5)
            .iter()
            .map(|v| v * 0.1)
            .collect();
        // zi as SciPy lays it out for axis -1: (sections, signals, 2).
        let mut want = Vec::with_capacity(signals * n);
        let mut want_zf = vec![0.0; sections * signals * 2];
        for m in 0..signals {
            let zi: Vec<f64> = (0..sections)
                .flat_map(|s| [zih[(s * signals + m) * 2], zih[(s * signals + m) * 2 + 1]])
                .collect();
            let (y, zf) = serial_sos(&sh, &xh[m * n..(m + 1) * n], &zi);
            want.extend(y);
            for s in 0..sections {
                want_zf[(s * signals + m) * 2] = zf[2 * s];
                want_zf[(s * signals + m) * 2 + 1] = zf[2 * s + 1];
            }
        }
        let x = Array::from_slice(&xh, &[signals, n]).unwrap();
        let zi = Array::from_slice(&zih, &[sections, signals, 2]).unwrap();
        let what = format!("n {n}");
        let (y, zf) = sosfilt_with(&sos, &x, &SosfiltOptions::default().zi(&zi)).unwrap();
        assert_close_to(&y, &want, 1e-12, &format!("{what} float64"));
        assert_close_to(&zf.unwrap(), &want_zf, 1e-12, &format!("{what} float64 zf"));
        // float32 throughout (float32 sections too).
        let (y32, _) = sosfilt_with(
            &sos.astype(DType::Float32).unwrap(),
            &x.astype(DType::Float32).unwrap(),
            &SosfiltOptions::default().zi(&zi.astype(DType::Float32).unwrap()),
        )
        .unwrap();
        assert_eq!(y32.dtype(), DType::Float32);
        assert_close_to(&y32, &want, 1e-4, &format!("{what} float32"));
        // complex128: the real signal as the real part, the imaginary part
        // zero, gives the same real outputs.
        let xc = x.astype(DType::Complex128).unwrap();
        let (yc, _) = sosfilt_with(&sos, &xc, &SosfiltOptions::default().zi(&zi)).unwrap();
        assert_eq!(yc.dtype(), DType::Complex128);
        let re = yc.real();
        assert_close_to(&re, &want, 1e-12, &format!("{what} complex128"));
        // Along axis 0: the transposed layout, zi (sections, 2, signals).
        let xt = x.transpose(None).unwrap().copy().unwrap();
        let zit = zi.transpose(Some(&[0, 2, 1])).unwrap().copy().unwrap();
        let (yt, _) = sosfilt_with(&sos, &xt, &SosfiltOptions::default().axis(0).zi(&zit)).unwrap();
        let back = yt.transpose(None).unwrap().copy().unwrap();
        assert_close_to(&back, &want, 1e-12, &format!("{what} axis 0"));
    }
}

/// A float32 signal through float64 sections or a float64 direct form
/// (the result is float64, as SciPy's result_type) is read as it is by
/// the fixed-state kernels and widened there: the same bits as casting
/// the signal first, with and without zi, for lengths whose blocks take
/// the 16-byte packs (4096) and for ones that do not (4099), one signal
/// and many, along either axis.
#[test]
fn float32_signals_in_float64_recursions_equal_the_cast_signal() {
    if !gpu() {
        return;
    }
    let iir = |output| {
        gpu_signal::butter_with(8, &[0.1], &gpu_signal::IirOptions::default().output(output))
            .unwrap()
    };
    let sos = iir(gpu_signal::Output::Sos).into_sos().unwrap();
    let (b, a) = iir(gpu_signal::Output::Ba).into_ba().unwrap();
    let same = |got: &Array, want: &Array, what: &str| {
        assert_eq!(got.dtype(), DType::Float64, "{what}");
        assert_eq!(got.shape(), want.shape(), "{what}");
        let (g, w) = (got.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
        assert!(
            g.iter().zip(&w).all(|(p, q)| p.to_bits() == q.to_bits()),
            "{what}"
        );
    };
    for (signals, n) in [
        (1usize, 1 << 20),
        (1, (1 << 20) + 3),
        (64, 4096),
        (64, 4099),
    ] {
        let xh: Vec<f32> = noise(signals * n, 11).iter().map(|&v| v as f32).collect();
        let x32 = Array::from_slice(&xh, &[signals, n]).unwrap();
        let x64 = x32.astype(DType::Float64).unwrap();
        let what = format!("{signals} x {n}");
        let zi = Array::from_slice(&noise(4 * signals * 2, 3), &[4, signals, 2]).unwrap();
        for o in [SosfiltOptions::default(), SosfiltOptions::default().zi(&zi)] {
            let (y, zf) = sosfilt_with(&sos, &x32, &o).unwrap();
            let (w, wzf) = sosfilt_with(&sos, &x64, &o).unwrap();
            same(&y, &w, &format!("sosfilt {what}"));
            if let (Some(zf), Some(wzf)) = (zf, wzf) {
                same(&zf, &wzf, &format!("sosfilt zf {what}"));
            }
        }
        let zi = Array::from_slice(&noise(signals * 8, 4), &[signals, 8]).unwrap();
        for o in [LfilterOptions::default(), LfilterOptions::default().zi(&zi)] {
            let (y, zf) = lfilter_with(&b, &a, &x32, &o).unwrap();
            let (w, wzf) = lfilter_with(&b, &a, &x64, &o).unwrap();
            same(&y, &w, &format!("lfilter {what}"));
            if let (Some(zf), Some(wzf)) = (zf, wzf) {
                same(&zf, &wzf, &format!("lfilter zf {what}"));
            }
        }
        // Along axis 0 (a copy moves the axis last first).
        let xt = x32.transpose(None).unwrap();
        let o = SosfiltOptions::default().axis(0);
        let (y, _) = sosfilt_with(&sos, &xt, &o).unwrap();
        let (w, _) = sosfilt_with(&sos, &xt.astype(DType::Float64).unwrap(), &o).unwrap();
        same(&y, &w, &format!("sosfilt axis 0 {what}"));
    }
}

/// The designs from a specification on the device: iirnotch's and
/// iirpeak's coefficients as float64 arrays (SciPy's, from the host
/// tests' goldens), and a buttord order that meets its attenuation when
/// butter's filter runs through lfilter.
#[test]
fn notch_peak_and_order_selected_designs_filter_on_the_device() {
    if !gpu() {
        return;
    }
    let (b, a) = gpu_signal::iirnotch(60.0, 30.0, 1000.0).unwrap();
    assert_eq!(
        (b.dtype(), b.shape(), a.shape()),
        (DType::Float64, &[3][..], &[3][..])
    );
    let (bh, ah) = (b.to_vec::<f64>().unwrap(), a.to_vec::<f64>().unwrap());
    // scipy.signal.iirnotch(60, 30, 1000)
    let want_b = [
        0.993_755_964_953_657_1,
        -1.847_941_857_850_199_4,
        0.993_755_964_953_657_1,
    ];
    let want_a = [1.0, -1.847_941_857_850_199_4, 0.987_511_929_907_314_3];
    for (g, w) in bh.iter().chain(&ah).zip(want_b.iter().chain(&want_a)) {
        assert!((g - w).abs() < 1e-15, "{bh:?} {ah:?}");
    }
    // The 60 Hz tone at 1 kHz sampling, after the filter's transient.
    let n = 8192;
    let tone: Vec<f64> = (0..n)
        .map(|k| (2.0 * std::f64::consts::PI * 60.0 * k as f64 / 1000.0).sin())
        .collect();
    let x = Array::from_slice(&tone, &[n]).unwrap();
    let y = gpu_signal::lfilter(&b, &a, &x)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let tail = y[n - 1000..].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(tail < 1e-3, "the notch leaves {tail} of the tone");
    let (bp, ap) = gpu_signal::iirpeak(60.0, 30.0, 1000.0).unwrap();
    let yp = gpu_signal::lfilter(&bp, &ap, &x)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let peak = yp[n - 1000..].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(
        (peak - 1.0).abs() < 1e-2,
        "the peak filter passes {peak} of the tone"
    );
    // buttord for 40 dB above 0.3 (passband to 0.2): butter of that order
    // attenuates a tone at 0.35 of Nyquist by at least 40 dB.
    let (order, wn) = gpu_signal::buttord(&[0.2], &[0.3], 3.0, 40.0).unwrap();
    let (bb, ab) = gpu_signal::butter(order, &wn).unwrap();
    let stop: Vec<f64> = (0..n)
        .map(|k| (std::f64::consts::PI * 0.35 * k as f64).sin())
        .collect();
    let ys = gpu_signal::lfilter(&bb, &ab, &Array::from_slice(&stop, &[n]).unwrap())
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let left = ys[n - 1000..].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(
        left < 1e-2,
        "order {order}: {left} of the stopband tone left"
    );
    // iirdesign's elliptic sections (order 6): 60 dB down at 0.35.
    let o = gpu_signal::IirDesignOptions::default().output(gpu_signal::Output::Sos);
    let sos = gpu_signal::iirdesign_with(&[0.2], &[0.3], 1.0, 60.0, &o)
        .unwrap()
        .into_sos()
        .unwrap();
    assert_eq!(sos.shape(), &[3, 6]);
    let ye = gpu_signal::sosfilt(&sos, &Array::from_slice(&stop, &[n]).unwrap())
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let left = ye[n - 1000..].iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(left < 1e-3, "iirdesign: {left} of the stopband tone left");
}

/// The first-order lag 1 / (s + 1) (or 1 / (z + 1)) as (numerator,
/// denominator) device arrays, the system several tests below simulate.
fn lag() -> (Array, Array) {
    (
        Array::from_slice(&[1.0f64], &[1]).unwrap(),
        Array::from_slice(&[1.0f64, 1.0], &[2]).unwrap(),
    )
}

/// The analog prototypes and transformations from and to device arrays:
/// a Butterworth lowpass built by hand (buttap, lp2lp_zpk, bilinear_zpk)
/// is butter's, and the ba transforms give SciPy's coefficients.
#[test]
fn prototypes_and_transformations_build_butters_filter_on_the_device() {
    if !gpu() {
        return;
    }
    use num_complex::Complex64;
    // butter(4, 0.2) by hand, prewarped: wo = 2 fs tan(pi 0.2 / 2), fs = 2.
    let (z, p, k) = gpu_signal::buttap(4).unwrap();
    assert_eq!(
        (z.shape(), p.shape(), p.dtype()),
        (&[0][..], &[4][..], DType::Complex128)
    );
    let wo = 4.0 * (std::f64::consts::PI * 0.1).tan();
    let (z, p, k) = gpu_signal::lp2lp_zpk(&z, &p, k, wo).unwrap();
    let (z, p, k) = gpu_signal::bilinear_zpk(&z, &p, k, 2.0).unwrap();
    let (bz, az) = gpu_signal::zpk2tf(&z, &p, k).unwrap();
    let (b, a) = gpu_signal::butter(4, &[0.2]).unwrap();
    let close = |x: &Array, y: &Array| {
        let (x, y) = (x.to_vec::<f64>().unwrap(), y.to_vec::<f64>().unwrap());
        assert_eq!(x.len(), y.len());
        for (u, v) in x.iter().zip(&y) {
            assert!((u - v).abs() < 1e-12, "{x:?} vs {y:?}");
        }
    };
    close(&bz, &b);
    close(&az, &a);
    let zs = z.to_vec::<Complex64>().unwrap();
    assert!(
        zs.iter()
            .all(|v| (v - Complex64::new(-1.0, 0.0)).norm() < 1e-12)
    );
    // scipy.signal.bilinear([1], [1, 1], 1) and lp2bs([1], [1, 1], 1, 1)
    let (one, den) = lag();
    let (bb, ab) = gpu_signal::bilinear(&one, &den, 1.0).unwrap();
    let third = 1.0 / 3.0;
    close(&bb, &Array::from_slice(&[third, third], &[2]).unwrap());
    close(&ab, &Array::from_slice(&[1.0, -third], &[2]).unwrap());
    let (bs, as_) = gpu_signal::lp2bs(&one, &den, 1.0, 1.0).unwrap();
    close(&bs, &Array::from_slice(&[1.0, 0.0, 1.0], &[3]).unwrap());
    close(&as_, &Array::from_slice(&[1.0, 1.0, 1.0], &[3]).unwrap());
}

/// The responses from device arrays: freqs_zpk's gain of buttap(3) at its
/// cutoff, freqz_zpk and freqz agreeing, a symmetric FIR's constant group
/// delay, sos2zpk undoing zpk2sos, findfreqs' decades (SciPy's values).
#[test]
fn responses_and_group_delay_take_and_return_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{AnalogFreqs, FreqzOptions, IirOptions, Output, WorN};
    use num_complex::Complex64;
    let (z, p, k) = gpu_signal::buttap(3).unwrap();
    let (_, h) =
        gpu_signal::freqs_zpk(&z, &p, k, &AnalogFreqs::Freqs(vec![0.5, 1.0, 2.0])).unwrap();
    let mag: Vec<f64> = h
        .to_vec::<Complex64>()
        .unwrap()
        .iter()
        .map(|v| v.norm())
        .collect();
    for (m, want) in mag.iter().zip([
        0.992_277_876_713_667_6,
        std::f64::consts::FRAC_1_SQRT_2,
        0.124_034_734_589_208_45,
    ]) {
        assert!((m - want).abs() < 1e-12, "{mag:?}");
    }
    let (b, a) = lag();
    let w = gpu_signal::findfreqs(&b, &a, 5)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert!(
        (w[0] - 0.01).abs() < 1e-15 && (w[4] - 10.0).abs() < 1e-12,
        "{w:?}"
    );
    let zpk = gpu_signal::butter_with(4, &[0.2], &IirOptions::default().output(Output::Zpk))
        .unwrap()
        .into_zpk()
        .unwrap();
    let (bb, ab) = gpu_signal::butter(4, &[0.2]).unwrap();
    let o = FreqzOptions::default().worn(WorN::N(64));
    let (_, h1) = gpu_signal::freqz_zpk_with(&zpk.0, &zpk.1, zpk.2, &o).unwrap();
    let (_, h2) = gpu_signal::freqz_with(&bb, &ab, &o).unwrap();
    let (h1, h2) = (
        h1.to_vec::<Complex64>().unwrap(),
        h2.to_vec::<Complex64>().unwrap(),
    );
    for (x, y) in h1.iter().zip(&h2) {
        assert!((x - y).norm() < 1e-9, "{x} {y}");
    }
    let fir = Array::from_slice(&[1.0f64, 2.0, 3.0, 2.0, 1.0], &[5]).unwrap();
    let (_, gd) = gpu_signal::group_delay(&fir, &b).unwrap();
    // 2 everywhere, to the rounding of num / den next to the FIR's double
    // zero at 2 pi / 3: SciPy's own is 1.06e-9 off at w = 341 pi / 512.
    let gd = gd.to_vec::<f64>().unwrap();
    assert!(gd.iter().all(|v| (v - 2.0).abs() < 1e-8), "{gd:?}");
    let sos = gpu_signal::zpk2sos(&zpk.0, &zpk.1, zpk.2).unwrap();
    let (z2, _, k2) = gpu_signal::sos2zpk(&sos).unwrap();
    assert_eq!(z2.shape(), &[4]);
    assert!((k2 - zpk.2).abs() < 1e-15 * zpk.2.abs().max(1.0));
}

/// iircomb and gammatone as device arrays (SciPy's coefficients' sizes
/// and ends; their values are checked on the host against SciPy's).
#[test]
fn comb_and_gammatone_filters_are_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{CombType, GammatoneOptions, GammatoneType};
    let (b, a) = gpu_signal::iircomb(20.0, 30.0, CombType::Notch, 200.0, false).unwrap();
    let (b, a) = (b.to_vec::<f64>().unwrap(), a.to_vec::<f64>().unwrap());
    assert_eq!((b.len(), a.len(), a[0]), (11, 11, 1.0));
    assert!(b[1..10].iter().chain(&a[1..10]).all(|&v| v == 0.0));
    let (b, a) = gpu_signal::gammatone(0.5, GammatoneType::Iir).unwrap();
    assert_eq!((b.shape(), a.shape()), (&[5][..], &[9][..]));
    let o = GammatoneOptions::default().fs(16_000.0);
    let (b, a) = gpu_signal::gammatone_with(440.0, GammatoneType::Fir, &o).unwrap();
    assert_eq!(
        (b.shape(), a.to_vec::<f64>().unwrap()),
        (&[240][..], vec![1.0])
    );
}

/// tf2ss, ss2tf, zpk2ss and ss2zpk on device arrays: a round trip of
/// SciPy's docstring system, and a zpk system's canonical form.
#[test]
fn state_space_conversions_round_trip_on_the_device() {
    if !gpu() {
        return;
    }
    use num_complex::Complex64;
    let num = Array::from_slice(&[1.0f64, 3.0, 3.0], &[3]).unwrap();
    let den = Array::from_slice(&[1.0f64, 2.0, 1.0], &[3]).unwrap();
    let (a, b, c, d) = gpu_signal::tf2ss(&num, &den).unwrap();
    assert_eq!(a.to_vec::<f64>().unwrap(), [-2.0, -1.0, 1.0, 0.0]);
    assert_eq!(
        (
            b.shape(),
            c.to_vec::<f64>().unwrap(),
            d.to_vec::<f64>().unwrap()
        ),
        (&[2, 1][..], vec![1.0, 2.0], vec![1.0])
    );
    let (n2, d2) = gpu_signal::ss2tf(&a, &b, &c, &d, 0).unwrap();
    assert_eq!(n2.shape(), &[1, 3]);
    for (x, y) in n2
        .to_vec::<f64>()
        .unwrap()
        .iter()
        .chain(&d2.to_vec::<f64>().unwrap())
        .zip([1.0, 3.0, 3.0, 1.0, 2.0, 1.0])
    {
        assert!((x - y).abs() < 1e-12);
    }
    let z = Array::from_slice(&[Complex64::new(-1.0, 0.0)], &[1]).unwrap();
    let p = Array::from_slice(
        &[Complex64::new(-2.0, 0.0), Complex64::new(-3.0, 0.0)],
        &[2],
    )
    .unwrap();
    let (a, b, c, d) = gpu_signal::zpk2ss(&z, &p, 2.0).unwrap();
    assert_eq!(a.to_vec::<f64>().unwrap(), [-5.0, -6.0, 1.0, 0.0]);
    let (zz, pp, k) = gpu_signal::ss2zpk(&a, &b, &c, &d, 0).unwrap();
    assert!((k - 2.0).abs() < 1e-12);
    assert!((zz.to_vec::<Complex64>().unwrap()[0] - Complex64::new(-1.0, 0.0)).norm() < 1e-12);
    assert_eq!(pp.shape(), &[2]);
}

/// firls's taps as a device array: symmetric, of the asked length, a
/// lowpass passing DC.
#[test]
fn least_squares_fir_taps_are_a_device_array() {
    if !gpu() {
        return;
    }
    let taps = gpu_signal::firls(73, &[0.0, 0.2, 0.3, 1.0], &[1.0, 1.0, 0.0, 0.0]).unwrap();
    let t = taps.to_vec::<f64>().unwrap();
    assert_eq!(t.len(), 73);
    assert!(t.iter().zip(t.iter().rev()).all(|(a, b)| a == b));
    assert!((t.iter().sum::<f64>() - 1.0).abs() < 1e-3);
}

/// cont2discrete on device arrays: a first-order lag held at zero order
/// (ad = e^-dt, bd = 1 - e^-dt), and the transfer-function and zpk forms'
/// shapes.
#[test]
fn cont2discrete_takes_and_returns_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::Discretization;
    let m = |v: f64| Array::from_slice(&[v], &[1, 1]).unwrap();
    let (ad, bd, cd, dd) = gpu_signal::cont2discrete_ss(
        &m(-1.0),
        &m(1.0),
        &m(1.0),
        &m(0.0),
        0.1,
        Discretization::Zoh,
    )
    .unwrap();
    let e = (-0.1f64).exp();
    assert!((ad.to_vec::<f64>().unwrap()[0] - e).abs() < 1e-15);
    assert!((bd.to_vec::<f64>().unwrap()[0] - (1.0 - e)).abs() < 1e-15);
    assert_eq!(
        (cd.to_vec::<f64>().unwrap(), dd.to_vec::<f64>().unwrap()),
        (vec![1.0], vec![0.0])
    );
    let (num, den) = lag();
    let (nd, dd) = gpu_signal::cont2discrete_tf(&num, &den, 0.1, Discretization::Bilinear).unwrap();
    assert_eq!((nd.shape(), dd.shape()), (&[1, 2][..], &[2][..]));
    let (z, p, k) = gpu_signal::buttap(2).unwrap();
    let (_, pd, _) = gpu_signal::cont2discrete_zpk(&z, &p, k, 0.5, Discretization::Zoh).unwrap();
    assert_eq!(pd.shape(), &[2]);
}

/// dlsim, dimpulse and dstep from device arrays: a first-order system's
/// impulse and step responses (0.5^k sums), and the states of a
/// state-space input.
#[test]
fn discrete_simulations_take_and_return_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{DlsimOptions, LtiSystem};
    let num = Array::from_slice(&[1.0f64], &[1]).unwrap();
    let den = Array::from_slice(&[1.0f64, -0.5], &[2]).unwrap();
    let tf = LtiSystem::Tf {
        num: &num,
        den: &den,
    };
    let u = Array::from_slice(&[1.0f64, 0.0, 0.0, 0.0], &[4]).unwrap();
    let r = gpu_signal::dlsim(&tf, 0.1, &u).unwrap();
    assert_eq!(r.y.shape(), &[4, 1]);
    assert_eq!(r.y.to_vec::<f64>().unwrap(), [0.0, 1.0, 0.5, 0.25]);
    assert!(r.x.is_none());
    let (_, y) = gpu_signal::dimpulse(&tf, 1.0, Some(5)).unwrap();
    assert_eq!(y[0].to_vec::<f64>().unwrap(), [0.0, 1.0, 0.5, 0.25, 0.125]);
    let (_, y) = gpu_signal::dstep(&tf, 1.0, Some(4)).unwrap();
    assert_eq!(y[0].to_vec::<f64>().unwrap(), [0.0, 1.0, 1.5, 1.75]);
    let m = |v: f64| Array::from_slice(&[v], &[1, 1]).unwrap();
    let (a, b, c, d) = (m(0.9), m(1.0), m(1.0), m(0.0));
    let ss = LtiSystem::Ss {
        a: &a,
        b: &b,
        c: &c,
        d: &d,
    };
    let x0 = Array::from_slice(&[1.0f64], &[1]).unwrap();
    let zeros = Array::from_slice(&[0.0f64; 3], &[3]).unwrap();
    let r =
        gpu_signal::dlsim_with(&ss, 1.0, &zeros, &DlsimOptions::default().x0(Some(&x0))).unwrap();
    let x = r.x.unwrap().to_vec::<f64>().unwrap();
    assert!((x[2] - 0.81).abs() < 1e-15, "{x:?}");
}

/// lsim, impulse and step from device arrays: a first-order lag's step
/// response 1 - e^-t, its impulse response's default times (seven time
/// constants), and the free response from x0.
#[test]
fn continuous_simulations_take_and_return_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{LsimOptions, LtiSystem};
    let (num, den) = lag();
    let sys = LtiSystem::Tf {
        num: &num,
        den: &den,
    };
    let t = gpu_array::creation::linspace(0.0, 5.0, 51).unwrap();
    let u = gpu_array::creation::ones([51], DType::Float64).unwrap();
    let r = gpu_signal::lsim(&sys, Some(&u), &t).unwrap();
    let y = r.y.to_vec::<f64>().unwrap();
    assert!((y[50] - (1.0 - (-5.0f64).exp())).abs() < 1e-9, "{}", y[50]);
    let x0 = Array::from_slice(&[1.0f64], &[1]).unwrap();
    let o = LsimOptions::default().x0(Some(&x0)).interp(false);
    let free = gpu_signal::lsim_with(&sys, None, &t, &o)
        .unwrap()
        .y
        .to_vec::<f64>()
        .unwrap();
    assert!((free[10] - (-1.0f64).exp()).abs() < 1e-12);
    let (ti, yi) = gpu_signal::impulse(&sys).unwrap();
    let ti = ti.to_vec::<f64>().unwrap();
    assert_eq!((ti.len(), ti[99]), (100, 7.0));
    assert!((yi.to_vec::<f64>().unwrap()[0] - 1.0).abs() < 1e-12);
    let (_, ys) = gpu_signal::step(&sys).unwrap();
    assert_eq!(ys.shape(), &[100, 1]);
}

/// freqresp, bode, dfreqresp and dbode from device arrays: a first-order
/// lag's response 1 / (1 + j) at 1 rad/s (-3.01 dB, -45 degrees).
#[test]
fn system_frequency_responses_are_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{AnalogFreqs, LtiSystem, WorN};
    use num_complex::Complex64;
    let (num, den) = lag();
    let sys = LtiSystem::Tf {
        num: &num,
        den: &den,
    };
    let (_, h) = gpu_signal::freqresp(&sys, &AnalogFreqs::Freqs(vec![1.0])).unwrap();
    assert!((h.to_vec::<Complex64>().unwrap()[0] - Complex64::new(0.5, -0.5)).norm() < 1e-15);
    let (_, mag, phase) = gpu_signal::bode(&sys, &AnalogFreqs::Freqs(vec![1.0])).unwrap();
    assert!((mag.to_vec::<f64>().unwrap()[0] + 3.010_299_956_639_812).abs() < 1e-12);
    assert!((phase.to_vec::<f64>().unwrap()[0] + 45.0).abs() < 1e-12);
    let dden = Array::from_slice(&[1.0f64, -0.5], &[2]).unwrap();
    let dsys = LtiSystem::Tf {
        num: &num,
        den: &dden,
    };
    let (w, h) = gpu_signal::dfreqresp(&dsys, &WorN::N(8), false).unwrap();
    assert_eq!((w.shape(), h.shape()), (&[8][..], &[8][..]));
    let (w, _, _) = gpu_signal::dbode(&dsys, 0.5, &WorN::N(4)).unwrap();
    assert!((w.to_vec::<f64>().unwrap()[1] - std::f64::consts::PI / 4.0 / 0.5).abs() < 1e-15);
}

/// residue, invres, residuez, invresz and unique_roots on device arrays
/// (SciPy's docstring answers).
#[test]
fn partial_fractions_take_and_return_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::RootType;
    use num_complex::Complex64;
    let v = |x: &[f64]| Array::from_slice(x, &[x.len()]).unwrap();
    let (r, p, k) =
        gpu_signal::residue(&v(&[1.0, 3.0]), &v(&[1.0, 3.0, 2.0]), 1e-3, RootType::Avg).unwrap();
    let (r, p) = (
        r.to_vec::<Complex64>().unwrap(),
        p.to_vec::<Complex64>().unwrap(),
    );
    assert!(
        (r[0] - Complex64::new(2.0, 0.0)).norm() < 1e-12
            && (p[1] - Complex64::new(-2.0, 0.0)).norm() < 1e-12
    );
    assert_eq!(k.size(), 0);
    let (b, a) = gpu_signal::invres(&v(&[2.0, -1.0]), &v(&[-1.0, -2.0]), &v(&[]), 1e-3).unwrap();
    assert_eq!(
        (b.to_vec::<f64>().unwrap(), a.to_vec::<f64>().unwrap()),
        (vec![1.0, 3.0], vec![1.0, 3.0, 2.0])
    );
    let (rz, _, _) =
        gpu_signal::residuez(&v(&[1.0]), &v(&[1.0, -0.75, 0.125]), 1e-3, RootType::Avg).unwrap();
    assert!((rz.to_vec::<Complex64>().unwrap()[1] - Complex64::new(2.0, 0.0)).norm() < 1e-12);
    let (bz, _) = gpu_signal::invresz(&v(&[-1.0, 2.0]), &v(&[0.25, 0.5]), &v(&[]), 1e-3).unwrap();
    assert_eq!(bz.to_vec::<f64>().unwrap(), [1.0, 0.0]);
    let (u, m) =
        gpu_signal::unique_roots(&v(&[1.0, 1.0005, 2.0, 1.9995]), 1e-3, RootType::Min).unwrap();
    assert_eq!((u.size(), m.to_vec::<i64>().unwrap()), (2, vec![2, 2]));
}
