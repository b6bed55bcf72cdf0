//! periodogram, welch, csd, coherence, spectrogram, stft and istft against
//! SciPy 1.17 (`testdata/spectral_golden.npz`, `make_golden_spectral.py`):
//! float64, float32 and complex128 inputs, odd and even lengths, 2-D along
//! either axis, every scaling, detrend, average and mode, one- and
//! two-sided, and stft → istft round trips; then SciPy's errors, and the
//! windows uploaded by `get_window`.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType};
use gpu_signal::spectral::*;
use gpu_signal::windows::WindowSpec;

use crate::{gpu, max_rel_diff, tol};

fn goldens() -> HashMap<String, NpyArray> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/spectral_golden.npz");
    gpu_testing::npz_members(p)
}

/// The case names of `function`, sorted.
fn cases<'a>(golden: &'a HashMap<String, NpyArray>, function: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = golden
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .filter(|k| k.split("__").next() == Some(function))
        .collect();
    v.sort_unstable();
    v
}

/// The `key=value` options of a case.
fn options(name: &str) -> HashMap<&str, &str> {
    name.split("__")
        .skip(2)
        .filter_map(|kv| kv.split_once('='))
        .collect()
}

fn window(o: &HashMap<&str, &str>) -> WindowLike {
    let w = o["win"];
    match w.split_once(',') {
        Some((n, p)) => WindowSpec::with_params(n, &[p.parse().unwrap()])
            .unwrap()
            .into(),
        None => w.parse::<WindowSpec>().unwrap().into(),
    }
}

fn num(o: &HashMap<&str, &str>, k: &str) -> Option<usize> {
    o.get(k).and_then(|v| v.parse().ok())
}

fn detrend(o: &HashMap<&str, &str>) -> Option<Detrend> {
    match o.get("detrend") {
        None | Some(&"none") => None,
        Some(d) => Some(d.parse().unwrap()),
    }
}

fn check(name: &str, what: &str, got: &Array, want: &Array) {
    assert_eq!(got.shape(), want.shape(), "{name} {what}: shape");
    assert_eq!(got.dtype(), want.dtype(), "{name} {what}: dtype");
    let d = max_rel_diff(got, want);
    let t = tol(want.dtype()) * 10.0;
    assert!(d <= t, "{name} {what}: relative difference {d:e}");
}

#[test]
fn spectral_functions_match_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let load = |k: String| Array::from_npy(&golden[&k]).unwrap();
    let signal = |name: &str| {
        let tag = name.split("__").nth(1).unwrap();
        load(format!("sig__{tag}"))
    };
    let mut n = 0;
    for name in cases(&golden, "periodogram") {
        let o = options(name);
        let mut p = PeriodogramOptions::default()
            .fs(o["fs"].parse().unwrap())
            .window(window(&o))
            .detrend(detrend(&o))
            .return_onesided(o["onesided"] == "1")
            .scaling(o["scaling"].parse().unwrap())
            .axis(o["axis"].parse().unwrap());
        if let Some(nfft) = num(&o, "nfft") {
            p = p.nfft(nfft);
        }
        let r = periodogram_with(&signal(name), &p).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "pxx", &r.pxx, &load(format!("{name}__out")));
        n += 1;
    }
    let welch_opts = |o: &HashMap<&str, &str>| {
        let mut w = WelchOptions::default()
            .fs(o["fs"].parse().unwrap())
            .window(window(o))
            .detrend(detrend(o))
            .return_onesided(o["onesided"] == "1")
            .scaling(o["scaling"].parse().unwrap())
            .average(o["average"].parse().unwrap());
        if let Some(a) = o.get("axis") {
            w = w.axis(a.parse().unwrap());
        }
        if let Some(v) = num(o, "nperseg") {
            w = w.nperseg(v);
        }
        if let Some(v) = num(o, "noverlap") {
            w = w.noverlap(v);
        }
        if let Some(v) = num(o, "nfft") {
            w = w.nfft(v);
        }
        w
    };
    for name in cases(&golden, "welch") {
        let o = options(name);
        let r =
            welch_with(&signal(name), &welch_opts(&o)).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "pxx", &r.pxx, &load(format!("{name}__out")));
        n += 1;
    }
    for name in cases(&golden, "csd") {
        let o = options(name);
        let (x, y) = (load(format!("{name}__x")), load(format!("{name}__y")));
        let r = csd_with(&x, &y, &welch_opts(&o)).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "pxy", &r.pxy, &load(format!("{name}__out")));
        n += 1;
    }
    for name in cases(&golden, "coherence") {
        let o = options(name);
        let c = CoherenceOptions::default()
            .fs(o["fs"].parse().unwrap())
            .window(window(&o))
            .nperseg(num(&o, "nperseg").unwrap())
            .detrend(detrend(&o));
        let (x, y) = (load(format!("{name}__x")), load(format!("{name}__y")));
        let r = coherence_with(&x, &y, &c).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "cxy", &r.cxy, &load(format!("{name}__out")));
        n += 1;
    }
    for name in cases(&golden, "spectrogram") {
        let o = options(name);
        let mut s = SpectrogramOptions::default()
            .fs(o["fs"].parse().unwrap())
            .window(window(&o))
            .nperseg(num(&o, "nperseg").unwrap())
            .detrend(detrend(&o))
            .return_onesided(o["onesided"] == "1")
            .scaling(o["scaling"].parse().unwrap())
            .axis(o["axis"].parse().unwrap())
            .mode(o["mode"].parse().unwrap());
        if let Some(v) = num(&o, "noverlap") {
            s = s.noverlap(v);
        }
        let r = spectrogram_with(&signal(name), &s).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "t", &r.t, &load(format!("{name}__t")));
        check(name, "sxx", &r.sxx, &load(format!("{name}__out")));
        n += 1;
    }
    let stft_opts = |o: &HashMap<&str, &str>| {
        let mut s = StftOptions::default()
            .fs(o["fs"].parse().unwrap())
            .window(window(o))
            .nperseg(num(o, "nperseg").unwrap())
            .detrend(detrend(o))
            .boundary(match o["boundary"] {
                "none" => None,
                b => Some(b.parse::<StftBoundary>().unwrap()),
            })
            .padded(o["padded"] == "1")
            .scaling(o["scaling"].parse().unwrap())
            .axis(o["axis"].parse().unwrap());
        if let Some(v) = num(o, "noverlap") {
            s = s.noverlap(v);
        }
        if let Some(v) = num(o, "nfft") {
            s = s.nfft(v);
        }
        s
    };
    for name in cases(&golden, "stft") {
        let o = options(name);
        let r = stft_with(&signal(name), &stft_opts(&o)).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "f", &r.f, &load(format!("{name}__f")));
        check(name, "t", &r.t, &load(format!("{name}__t")));
        check(name, "zxx", &r.zxx, &load(format!("{name}__out")));
        n += 1;
    }
    for name in cases(&golden, "istft") {
        let o = options(name);
        let s = stft_opts(&o);
        let z = load(format!("stft{}__out", &name["istft".len()..]));
        let axis: isize = o["axis"].parse().unwrap();
        let mut i = IstftOptions::default()
            .fs(s.fs)
            .window(s.window.clone())
            .nperseg(s.nperseg)
            .input_onesided(!signal(name).dtype().is_complex())
            .boundary(s.boundary.is_some())
            .time_axis(-1)
            .freq_axis(if axis < 0 { axis - 1 } else { 0 })
            .scaling(s.scaling);
        if let Some(v) = s.noverlap {
            i = i.noverlap(v);
        }
        if let Some(v) = s.nfft {
            i = i.nfft(v);
        }
        let r = istft_with(&z, &i).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(name, "t", &r.t, &load(format!("{name}__t")));
        check(name, "x", &r.x, &load(format!("{name}__out")));
        n += 1;
    }
    assert!(n > 250, "{n} cases");
}

#[test]
fn long_signals_round_trip() {
    if !gpu() {
        return;
    }
    // One million samples: one batched transform each way.
    let n = 1 << 20;
    let host: Vec<f64> = (0..n)
        .map(|i| ((i * 7919) % 1000) as f64 / 1000.0 - 0.5)
        .collect();
    let x = Array::from_slice(&host, &[n]).unwrap();
    let z = stft_with(&x, &StftOptions::default().nperseg(512))
        .unwrap()
        .zxx;
    assert_eq!(z.shape(), [257, n / 256 + 1]);
    let back = istft_with(&z, &IstftOptions::default().nperseg(512))
        .unwrap()
        .x;
    let back = back.to_vec::<f64>().unwrap();
    let worst = host
        .iter()
        .zip(&back)
        .fold(0.0f64, |a, (x, y)| a.max((x - y).abs()));
    assert!(worst < 1e-12, "round trip off by {worst:e}");
    let w = welch_with(&x, &WelchOptions::default().nperseg(4096)).unwrap();
    assert_eq!(w.pxx.shape(), [2049]);
    // No segments: SciPy's nperseg + (nseg - 1) * nstep is noverlap zeros.
    let none = Array::zeros([257, 0], DType::Complex128).unwrap();
    let o = IstftOptions::default().nperseg(512).boundary(false);
    let empty = istft_with(&none, &o).unwrap().x;
    assert_eq!(empty.to_vec::<f64>().unwrap(), vec![0.0; 256]);
}

#[test]
fn spectral_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let x = gpu_array::creation::ones([100], DType::Float64).unwrap();
    let err = |r: gpu_array::Result<String>| r.unwrap_err().to_string();
    let w = |o: WelchOptions| welch_with(&x, &o).map(|_| String::new());
    assert_eq!(
        err(w(WelchOptions::default().nperseg(10).noverlap(10))),
        "noverlap=10 must be less than nperseg=10!"
    );
    assert_eq!(
        err(w(WelchOptions::default().nperseg(10).nfft(5))),
        "nfft=5 must be greater than or equal to nperseg=10!"
    );
    assert_eq!(
        err(w(WelchOptions::default().nperseg(0))),
        "Parameter nperseg=0 is not a positive integer!"
    );
    assert_eq!(
        err(w(WelchOptions::default().window(vec![1.0; 10]).nperseg(12))),
        "nperseg=12 does not equal len(win)=10"
    );
    let s = |o: SpectrogramOptions| spectrogram_with(&x, &o).map(|_| String::new());
    assert_eq!(
        err(s(SpectrogramOptions::default().nperseg(10).noverlap(10))),
        "noverlap must be less than nperseg."
    );
    assert_eq!(
        err(s(SpectrogramOptions::default()
            .window(vec![1.0; 10])
            .nperseg(12))),
        "value specified for nperseg is different from length of window"
    );
    assert_eq!(
        err(s(SpectrogramOptions::default().window(vec![1.0; 200]))),
        "window is longer than input signal"
    );
    assert_eq!(
        err(stft_with(&x, &StftOptions::default().nperseg(10).noverlap(10)).map(|_| String::new())),
        "noverlap must be less than nperseg."
    );
    assert_eq!(
        err(istft(&x).map(|_| String::new())),
        "Input stft must be at least 2d!"
    );
    let y = gpu_array::creation::ones([3, 100], DType::Float64).unwrap();
    let y2 = gpu_array::creation::ones([2, 100], DType::Float64).unwrap();
    assert_eq!(
        err(csd(&y, &y2).map(|_| String::new())),
        "x and y cannot be broadcast together."
    );
    // nperseg beyond the signal: SciPy warns and uses the signal's length.
    let r = welch_with(&x, &WelchOptions::default().nperseg(300)).unwrap();
    assert_eq!(r.pxx.shape(), [51]);
    // Empty input: empty outputs of the input's shape.
    let e = Array::zeros([0], DType::Float64).unwrap();
    assert_eq!(welch(&e).unwrap().pxx.shape(), [0]);
}

#[test]
fn windows_upload_scipys_values() {
    if !gpu() {
        return;
    }
    let w = gpu_signal::get_window(&"hann".parse().unwrap(), 4, true).unwrap();
    assert_eq!(w.dtype(), DType::Float64);
    assert_eq!(w.to_vec::<f64>().unwrap(), [0.0, 0.5, 1.0, 0.5]);
    let k = gpu_signal::windows::kaiser(51, 14.0, true).unwrap();
    assert_eq!(k.shape(), [51]);
    let d = gpu_signal::windows::dpss_with(
        64,
        2.5,
        &gpu_signal::windows::DpssOptions::default().kmax(3),
    )
    .unwrap();
    assert_eq!(d.shape(), [3, 64]);
    assert_eq!(gpu_signal::windows::boxcar(0, true).unwrap().shape(), [0]);
}

/// lombscargle against SciPy 1.17 (`testdata/lombscargle_golden.npz`,
/// `make_golden_lombscargle.py`): 4 to 2000 uneven samples, weighted or
/// not, with and without a floating mean and precentering, every
/// normalization; then SciPy's errors.
#[test]
fn lombscargle_matches_scipy() {
    if !gpu() {
        return;
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/lombscargle_golden.npz");
    let golden = gpu_testing::npz_members(p);
    let names = cases(&golden, "lomb");
    assert_eq!(names.len(), 96);
    let load = |k: String| Array::from_npy(&golden[&k]).unwrap();
    for name in names {
        let o: HashMap<&str, &str> = name
            .split("__")
            .filter_map(|kv| kv.split_once('='))
            .collect();
        let (x, y, f) = (
            load(format!("{name}__x")),
            load(format!("{name}__y")),
            load(format!("{name}__f")),
        );
        let w = golden
            .get(&format!("{name}__w"))
            .map(|w| Array::from_npy(w).unwrap());
        let mut opts = LombscargleOptions::default()
            .normalize(o["norm"].parse().unwrap())
            .floating_mean(o["floating"] == "1")
            .precenter(o["pre"] == "1");
        if let Some(w) = &w {
            opts = opts.weights(w);
        }
        let got = lombscargle_with(&x, &y, &f, &opts).unwrap();
        check(name, "out", &got, &load(format!("{name}__out")));
    }
    let v = |n: usize| gpu_array::creation::ones([n], DType::Float64).unwrap();
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    assert_eq!(
        err(lombscargle(&v(3), &v(4), &v(2))),
        "Parameters x, y, weights must be 1-D arrays of equal non-zero length!"
    );
    assert_eq!(
        err(lombscargle(&v(3), &v(3), &v(0))),
        "Parameter freqs must be a 1-D array of non-zero length!"
    );
    let neg = Array::from_slice(&[1.0f64, -1.0, 1.0], &[3]).unwrap();
    assert_eq!(
        err(lombscargle_with(
            &v(3),
            &v(3),
            &v(2),
            &LombscargleOptions::default().weights(&neg)
        )),
        "Parameter weights must have only non-negative entries which sum to a positive value!"
    );
    assert_eq!(
        "sideways".parse::<LombNormalize>().unwrap_err().to_string(),
        "Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'."
    );
}
