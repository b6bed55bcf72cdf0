//! upfirdn, resample_poly and resample against SciPy: every extension mode at four rate
//! pairs, float32 2-D along both axes, complex input; Fourier resampling
//! up and down from odd and even lengths, real, complex and spectral
//! inputs, with and without a window.

use gpu_array::Array;
use gpu_signal::{Domain, ResampleOptions, UpfirdnOptions, resample_with, upfirdn_with};

use crate::{cases, goldens, gpu, max_rel_diff, tol};

/// The number after `prefix` among the case's parts.
fn num(parts: &[&str], prefix: &str) -> usize {
    parts
        .iter()
        .find_map(|p| p.strip_prefix(prefix).and_then(|v| v.parse().ok()))
        .unwrap_or_else(|| panic!("no {prefix} in {parts:?}"))
}

#[test]
fn resampling_matches_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let load = |name: &str, part: &str| {
        golden
            .get(&format!("{name}__{part}"))
            .map(|a| Array::from_npy(a).unwrap())
    };
    let mut n = 0;
    for name in cases(&golden, "upfirdn") {
        let parts: Vec<&str> = name.split("__").collect();
        let o = UpfirdnOptions::default()
            .up(num(&parts, "u"))
            .down(num(&parts, "d"))
            .axis(num(&parts, "ax") as isize)
            .mode(parts[2].parse().unwrap())
            .cval(0.5);
        let got = upfirdn_with(&load(name, "a").unwrap(), &load(name, "b").unwrap(), &o)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = load(name, "out").unwrap();
        assert_eq!(
            (got.dtype(), got.shape()),
            (want.dtype(), want.shape()),
            "{name}"
        );
        let d = max_rel_diff(&got, &want);
        assert!(d <= tol(want.dtype()), "{name}: relative difference {d:e}");
        n += 1;
    }
    for name in cases(&golden, "resample") {
        let parts: Vec<&str> = name.split("__").collect();
        let w = load(name, "b");
        let mut o = ResampleOptions::default().axis(num(&parts, "ax") as isize);
        if let Some(w) = &w {
            o = o.window(w);
        }
        if parts.contains(&"freq") {
            o = o.domain(Domain::Freq);
        }
        if parts.contains(&"hann") {
            o = o.window_spec("hann".parse().unwrap());
        }
        let got = resample_with(&load(name, "a").unwrap(), num(&parts, "num"), &o)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .x;
        let want = load(name, "out").unwrap();
        assert_eq!(
            (got.dtype(), got.shape()),
            (want.dtype(), want.shape()),
            "{name}"
        );
        let d = max_rel_diff(&got, &want);
        assert!(d <= tol(want.dtype()), "{name}: relative difference {d:e}");
        n += 1;
    }
    for name in cases(&golden, "resample_poly") {
        let parts: Vec<&str> = name.split("__").collect();
        let pad = parts[4]
            .strip_prefix('p')
            .unwrap()
            .parse::<gpu_signal::PolyPad>()
            .unwrap();
        let mut o = gpu_signal::ResamplePolyOptions::default()
            .axis(num(&parts, "ax") as isize)
            .padtype(pad);
        let taps = load(name, "b");
        if let Some(t) = &taps {
            o = o.taps(t);
        }
        if parts[1] == "hamming" {
            o = o.window("hamming".parse().unwrap());
        }
        let got = gpu_signal::resample_poly_with(
            &load(name, "a").unwrap(),
            num(&parts, "u"),
            num(&parts, "d"),
            &o,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = load(name, "out").unwrap();
        assert_eq!(
            (got.dtype(), got.shape()),
            (want.dtype(), want.shape()),
            "{name}"
        );
        let d = max_rel_diff(&got, &want);
        assert!(d <= tol(want.dtype()), "{name}: relative difference {d:e}");
        n += 1;
    }
    assert!(n >= 90, "{n} cases");
}
