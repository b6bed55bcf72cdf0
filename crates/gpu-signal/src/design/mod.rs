//! Filter design (`scipy.signal._filter_design`, `_fir_filter_design`):
//!
//! - IIR designs: [`iirfilter`], [`butter`], [`cheby1`], [`cheby2`],
//!   [`ellip`], [`bessel`]; their lowest orders for a specification
//!   ([`buttord`], [`cheb1ord`], [`cheb2ord`], [`ellipord`]) and both steps
//!   at once ([`iirdesign`]); their parts, the analog prototypes
//!   ([`buttap`], [`cheb1ap`], [`cheb2ap`], [`ellipap`], [`besselap`]) and
//!   frequency transformations ([`lp2lp`], [`lp2hp`], [`lp2bp`],
//!   [`lp2bs`], [`bilinear`] and their `_zpk` forms);
//! - notch, peak, comb and gammatone filters ([`iirnotch`], [`iirpeak`],
//!   [`iircomb`], [`gammatone`]);
//! - FIR design by windows ([`firwin`], with [`kaiserord`],
//!   [`kaiser_beta`], [`kaiser_atten`]), by frequency sampling
//!   ([`firwin2`]) and by least squares ([`firls`]);
//! - conversions between forms ([`zpk2tf`], [`tf2zpk`], [`zpk2sos`],
//!   [`tf2sos`], [`sos2tf`], [`sos2zpk`]) and partial fractions
//!   ([`residue`], [`residuez`], [`invres`], [`invresz`],
//!   [`unique_roots`]);
//! - responses: digital ([`freqz`], [`sosfreqz`], [`freqz_zpk`],
//!   [`group_delay`]) and analog ([`freqs`], [`freqs_zpk`], [`findfreqs`]).
//!
//! Designs are small: they are computed on the host in float64 (complex
//! float64 for zeros and poles), as SciPy computes them, and returned as
//! device arrays ready for [`lfilter`](crate::lfilter) and
//! [`sosfilt`](crate::sosfilt). Polynomial roots ([`tf2zpk`], the Bessel
//! poles) come from Aberth-Ehrlich iterations polished by Newton steps
//! rather than NumPy's companion-matrix eigenvalues: the same roots to
//! about the working precision when they are simple; multiple roots (a
//! Butterworth numerator's `(1 + z^-1)^N`) are found only to
//! `eps^(1/m)` by either method, scattered differently.

mod comb;
pub(crate) mod ellip;
pub(crate) mod fir;
mod fir2;
mod firls;
pub(crate) mod freqs;
pub(crate) mod freqz;
pub(crate) mod iir;
pub(crate) mod linalg;
mod min_order;
mod notch;
#[cfg(test)]
mod order_golden_tests;
mod partial_fractions;
pub(crate) mod transforms;
pub(crate) mod zpk;

pub use comb::{CombType, GammatoneOptions, GammatoneType, gammatone, gammatone_with, iircomb};
pub use fir::{FirwinOptions, PassZero, firwin, firwin_with, kaiser_atten, kaiser_beta, kaiserord};
pub use fir2::{Firwin2Options, firwin2, firwin2_with};
pub use firls::{FirlsOptions, firls, firls_with};
pub use freqs::{AnalogFreqs, findfreqs, freqs, freqs_zpk};
pub use freqz::{
    FreqzOptions, WorN, freqz, freqz_with, freqz_zpk, freqz_zpk_with, group_delay,
    group_delay_with, sosfreqz, sosfreqz_with,
};
pub use iir::{
    BandType, BesselNorm, Filter, FilterType, IirFilterOptions, IirOptions, Output, bessel,
    bessel_with, butter, butter_with, cheby1, cheby1_with, cheby2, cheby2_with, ellip, ellip_with,
    iirfilter, iirfilter_with,
};
pub use min_order::{
    IirDesignOptions, OrdOptions, buttord, buttord_with, cheb1ord, cheb1ord_with, cheb2ord,
    cheb2ord_with, ellipord, ellipord_with, iirdesign, iirdesign_with,
};
pub use notch::{iirnotch, iirpeak};
pub use partial_fractions::{RootType, invres, invresz, residue, residuez, unique_roots};
pub use transforms::{
    besselap, bilinear, bilinear_zpk, buttap, cheb1ap, cheb2ap, ellipap, lp2bp, lp2bp_zpk, lp2bs,
    lp2bs_zpk, lp2hp, lp2hp_zpk, lp2lp, lp2lp_zpk,
};
pub use zpk::{
    Pairing, Zpk2SosOptions, sos2tf, sos2zpk, tf2sos, tf2sos_with, tf2zpk, zpk2sos, zpk2sos_with,
    zpk2tf,
};

/// The designs against SciPy's (`testdata/filtering_golden.npz`, the
/// `design__*` members), on the host.
#[cfg(test)]
mod golden_tests {
    use std::collections::HashMap;
    use std::path::PathBuf;

    use gpu_array::npy::NpyArray;
    use num_complex::Complex64;

    use super::fir::{FirwinOptions, PassZero, firwin_host};
    use super::freqz::{FreqzOptions, WorN, frequencies, response};
    use super::iir::{BandType, FilterType, IirSpec, iirfilter_host};
    use super::zpk::{Pairing, Zpk, sos2tf_host, tf2zpk_host};
    use crate::windows::WindowSpec;

    fn goldens() -> HashMap<String, NpyArray> {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/filtering_golden.npz");
        gpu_testing::npz_members(p)
    }

    fn cases<'a>(g: &'a HashMap<String, NpyArray>, prefix: &str, part: &str) -> Vec<&'a str> {
        let mut v: Vec<&str> = g
            .keys()
            .filter_map(|k| k.strip_suffix(&format!("__{part}")))
            .filter(|k| k.starts_with(prefix))
            .collect();
        v.sort_unstable();
        v
    }

    fn f64s(g: &HashMap<String, NpyArray>, case: &str, part: &str) -> Vec<f64> {
        g[&format!("{case}__{part}")].to_vec::<f64>().unwrap()
    }

    fn c128s(g: &HashMap<String, NpyArray>, case: &str, part: &str) -> Vec<Complex64> {
        let a = &g[&format!("{case}__{part}")];
        a.to_vec::<Complex64>().unwrap_or_else(|_| {
            let r = a.to_vec::<f64>().unwrap();
            r.into_iter().map(|v| Complex64::new(v, 0.0)).collect()
        })
    }

    /// Elementwise, relative to the largest magnitude of `want` (at least 1).
    fn close(case: &str, what: &str, got: &[f64], want: &[f64], tol: f64) {
        assert_eq!(got.len(), want.len(), "{case} {what}: {got:?} vs {want:?}");
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= tol * scale,
                "{case} {what}: {got:?} vs {want:?}"
            );
        }
    }

    fn close_c(case: &str, what: &str, got: &[Complex64], want: &[Complex64], tol: f64) {
        assert_eq!(got.len(), want.len(), "{case} {what}");
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.norm()));
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).norm() <= tol * scale,
                "{case} {what}: {got:?} vs {want:?}"
            );
        }
    }

    /// Each wanted value matched by a distinct found one.
    pub(super) fn same_set(
        case: &str,
        what: &str,
        got: &[Complex64],
        want: &[Complex64],
        tol: f64,
    ) {
        assert_eq!(got.len(), want.len(), "{case} {what}: {got:?} vs {want:?}");
        let mut used = vec![false; got.len()];
        for w in want {
            let best = got
                .iter()
                .enumerate()
                .filter(|(i, _)| !used[*i])
                .min_by(|a, b| (a.1 - w).norm().total_cmp(&(b.1 - w).norm()))
                .unwrap();
            assert!(
                (best.1 - w).norm() <= tol * w.norm().max(1.0),
                "{case} {what}: {w} unmatched in {got:?}"
            );
            used[best.0] = true;
        }
    }

    #[test]
    fn iir_designs_are_scipys() {
        let g = goldens();
        let mut n = 0;
        for case in cases(&g, "design__iir__", "params") {
            let parts: Vec<&str> = case.split("__").collect();
            let ftype: FilterType = parts[2].parse().unwrap();
            let btype: BandType = parts[3].parse().unwrap();
            let p = f64s(&g, case, "params");
            let wn: Vec<f64> = if p[2].is_nan() {
                vec![p[1]]
            } else {
                vec![p[1], p[2]]
            };
            let opt = |v: f64| if v.is_nan() { None } else { Some(v) };
            let analog = p[3] == 1.0;
            let spec = IirSpec {
                rp: opt(p[4]),
                rs: opt(p[5]),
                btype,
                analog,
                ftype,
                fs: opt(p[6]),
            };
            let zpk =
                iirfilter_host(p[0] as usize, &wn, &spec).unwrap_or_else(|e| panic!("{case}: {e}"));
            same_set(case, "z", &zpk.z, &c128s(&g, case, "z"), 1e-9);
            same_set(case, "p", &zpk.p, &c128s(&g, case, "p"), 1e-10);
            close(case, "k", &[zpk.k], &f64s(&g, case, "k"), 1e-10);
            let (b, a) = zpk.ba();
            close(case, "b", &b, &f64s(&g, case, "b"), 1e-9);
            close(case, "a", &a, &f64s(&g, case, "a"), 1e-9);
            let sos = zpk.sos_with(None, analog).unwrap();
            close(case, "sos", &sos, &f64s(&g, case, "sos"), 1e-8);
            n += 1;
        }
        assert!(n > 150, "{n} cases");
    }

    #[test]
    fn firwin_and_responses_are_scipys() {
        let g = goldens();
        for case in cases(&g, "design__firwin__", "params") {
            let parts: Vec<&str> = case.split("__").collect();
            let p = f64s(&g, case, "params");
            let window = match parts[2] {
                w if w.starts_with("kaiser") => WindowSpec::from(w[6..].parse::<f64>().unwrap()),
                w => w.parse::<WindowSpec>().unwrap(),
            };
            let cut: Vec<f64> = if p[2].is_nan() {
                vec![p[1]]
            } else {
                vec![p[1], p[2]]
            };
            let opt = |v: f64| if v.is_nan() { None } else { Some(v) };
            let o = FirwinOptions::default()
                .window(window)
                .pass_zero(if parts[3] == "pz" {
                    PassZero::Yes
                } else {
                    PassZero::No
                })
                .width(opt(p[3]))
                .fs(opt(p[4]))
                .scale(p[5] == 1.0);
            let h = firwin_host(p[0] as usize, &cut, &o).unwrap();
            close(case, "h", &h, &f64s(&g, case, "h"), 1e-14);
        }
        for case in cases(&g, "design__freqz__", "h") {
            let tag = case.rsplit("__").next().unwrap();
            let o = match tag {
                "default" => FreqzOptions::default(),
                "n64whole" => FreqzOptions::default().worn(WorN::N(64)).whole(true),
                "fs" => FreqzOptions::default().worn(WorN::N(50)).fs(1000.0),
                "nyq" => FreqzOptions::default()
                    .worn(WorN::N(33))
                    .include_nyquist(true),
                _ => FreqzOptions::default()
                    .worn(WorN::Freqs(vec![0.0, 10.0, 123.0, 480.0]))
                    .fs(1000.0),
            };
            let (w, wout) = frequencies(&o).unwrap();
            close(case, "w", &wout, &f64s(&g, case, "w"), 1e-15);
            let h = response(&c128s(&g, case, "b"), &c128s(&g, case, "a"), &w);
            close_c(case, "h", &h, &c128s(&g, case, "h"), 1e-12);
        }
        for case in cases(&g, "design__sosfreqz__", "h") {
            let o = if case.ends_with("default") {
                FreqzOptions::default()
            } else {
                FreqzOptions::default().worn(WorN::N(100)).whole(true)
            };
            let (w, _) = frequencies(&o).unwrap();
            let sos = c128s(&g, case, "sos");
            let mut h = vec![Complex64::new(1.0, 0.0); w.len()];
            for s in sos.chunks(6) {
                for (hv, r) in h.iter_mut().zip(response(&s[..3], &s[3..], &w)) {
                    *hv *= r;
                }
            }
            close_c(case, "h", &h, &c128s(&g, case, "h"), 1e-11);
        }
    }

    #[test]
    fn conversions_are_scipys() {
        let g = goldens();
        for case in cases(&g, "design__tf2zpk__", "b") {
            let (z, p, k) = tf2zpk_host(&c128s(&g, case, "b"), &c128s(&g, case, "a")).unwrap();
            same_set(case, "z", &z, &c128s(&g, case, "z"), 1e-9);
            same_set(case, "p", &p, &c128s(&g, case, "p"), 1e-10);
            close(case, "k", &[k.re], &f64s(&g, case, "k"), 1e-12);
            let sos = Zpk { z, p, k: k.re }.sos().unwrap();
            close(case, "sos", &sos, &f64s(&g, case, "sos"), 1e-8);
        }
        let mut n = 0;
        for case in cases(&g, "design__zpk2sos__", "sos") {
            let pairing: Pairing = case.rsplit("__").next().unwrap().parse().unwrap();
            let zpk = Zpk {
                z: c128s(&g, case, "z"),
                p: c128s(&g, case, "p"),
                k: f64s(&g, case, "k")[0],
            };
            let sos = zpk.sos_with(Some(pairing), false).unwrap();
            close(case, "sos", &sos, &f64s(&g, case, "sos"), 1e-12);
            n += 1;
        }
        assert!(n >= 4);
        for case in cases(&g, "design__zpk2tf__", "b") {
            let zpk = Zpk {
                z: c128s(&g, case, "z"),
                p: c128s(&g, case, "p"),
                k: f64s(&g, case, "k")[0],
            };
            let (b, a) = zpk.ba();
            close(case, "b", &b, &f64s(&g, case, "b"), 1e-14);
            close(case, "a", &a, &f64s(&g, case, "a"), 1e-14);
        }
        let case = "design__sos2tf__0";
        let (b, a) = sos2tf_host(&f64s(&g, case, "sos"));
        close(case, "b", &b, &f64s(&g, case, "b"), 1e-14);
        close(case, "a", &a, &f64s(&g, case, "a"), 1e-14);
        let spec = IirSpec {
            rp: None,
            rs: None,
            btype: BandType::Lowpass,
            analog: true,
            ftype: FilterType::Butter,
            fs: None,
        };
        let sos = iirfilter_host(5, &[2.0], &spec)
            .unwrap()
            .sos_with(None, true)
            .unwrap();
        let case = "design__zpk2sosanalog__0";
        close(case, "sos", &sos, &f64s(&g, case, "sos"), 1e-12);
    }

    #[test]
    fn initial_states_and_savgol_coefficients_are_scipys() {
        use crate::filtering::lfilter::{lfilter_zi_host, lfiltic_host};
        use crate::filtering::savgol::{SavgolCoeffsOptions, savgol_coeffs_host};
        use crate::filtering::sos::sosfilt_zi_host;
        let g = goldens();
        let re = |v: Vec<Complex64>| v.iter().map(|c| c.re).collect::<Vec<f64>>();
        for case in cases(&g, "design__lfilter_zi__", "zi") {
            let zi = lfilter_zi_host(&c128s(&g, case, "b"), &c128s(&g, case, "a")).unwrap();
            close(case, "zi", &re(zi), &f64s(&g, case, "zi"), 1e-13);
        }
        let case = "design__sosfilt_zi__0";
        let sos = c128s(&g, case, "sos");
        let rows: Vec<[Complex64; 6]> = sos
            .chunks(6)
            .map(|c| std::array::from_fn(|k| c[k]))
            .collect();
        let zi = sosfilt_zi_host(&rows).unwrap();
        close(case, "zi", &re(zi), &f64s(&g, case, "zi"), 1e-13);
        let case = "design__lfiltic__0";
        let zi = lfiltic_host(
            &c128s(&g, case, "b"),
            &c128s(&g, case, "a"),
            &c128s(&g, case, "y"),
            &c128s(&g, case, "x"),
        )
        .unwrap();
        close(case, "zi", &re(zi), &f64s(&g, case, "zi"), 1e-14);
        for case in cases(&g, "design__savgol_coeffs__", "c") {
            let p = f64s(&g, case, "params");
            let o = SavgolCoeffsOptions::default()
                .deriv(p[2] as usize)
                .delta(0.5)
                .pos(if p[3].is_nan() { None } else { Some(p[3]) })
                .conv(p[4] == 1.0);
            let c = savgol_coeffs_host(p[0] as usize, p[1] as usize, &o).unwrap();
            // SciPy's lstsq on the Vandermonde matrix (entries to 10^6 for
            // a window of 21 and order 6) is off the exact rationals by
            // about 1e-11 there (c[0] = -0.02705314009537 for the exact
            // -56/2070); the QR here is within 1e-16 of them.
            close(case, "c", &c, &f64s(&g, case, "c"), 1e-10);
        }
    }
}
