//! Peak finding's device arrays; order_filter, medfilt, medfilt2d, wiener, sepfir2d and filtfilt's
//! Gustafsson method against SciPy: a cross
//! domain at three ranks, float64, float32 (3-D) and uint8 images, odd
//! window sizes, the Wiener filter with estimated and given noise.

use gpu_array::Array;
use gpu_signal::{medfilt_with, medfilt2d_with, order_filter, sepfir2d, wiener_with};

use crate::{cases, goldens, gpu, max_rel_diff, tol};

#[test]
fn order_and_wiener_filters_match_scipy() {
    if !gpu() {
        return;
    }
    let golden = goldens();
    let load =
        |name: &str, part: &str| Array::from_npy(&golden[&format!("{name}__{part}")]).unwrap();
    let mut n = 0;
    for f in [
        "order_filter",
        "medfilt",
        "medfilt2d",
        "wiener",
        "sepfir2d",
        "filtfilt_gust",
    ] {
        for name in cases(&golden, f) {
            let parts: Vec<&str> = name.split("__").collect();
            let opt = |p: char| {
                parts
                    .iter()
                    .find_map(|s| s.strip_prefix(p).and_then(|v| v.parse::<f64>().ok()))
            };
            let a = load(name, "a");
            let k = opt('k').map_or(3, |v| v as usize);
            let got = match f {
                "order_filter" => order_filter(&a, &load(name, "b"), opt('r').unwrap() as i64),
                "medfilt" => medfilt_with(&a, &[k]),
                "medfilt2d" => medfilt2d_with(&a, &[k]),
                "filtfilt_gust" => {
                    let h = load(name, "b").to_vec::<f64>().unwrap();
                    let nb = parts
                        .iter()
                        .find_map(|p| p.strip_prefix("nb").and_then(|v| v.parse::<usize>().ok()))
                        .unwrap();
                    let (bb, aa) = h.split_at(nb);
                    let bb = Array::from_slice(bb, &[bb.len()]).unwrap();
                    let aa = Array::from_slice(aa, &[aa.len()]).unwrap();
                    let irlen = opt('i').unwrap() as usize;
                    let o = gpu_signal::FiltfiltOptions::default()
                        .method(gpu_signal::FiltfiltMethod::Gust)
                        .irlen((irlen > 0).then_some(irlen));
                    gpu_signal::filtfilt_with(&bb, &aa, &a, &o)
                }
                "sepfir2d" => {
                    let h = load(name, "b").to_vec::<f64>().unwrap();
                    let lr = opt('r').unwrap() as usize;
                    sepfir2d(&a, &h[..lr], &h[lr..])
                }
                _ => wiener_with(&a, &[k], opt('n')),
            }
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            let want = load(name, "out");
            assert_eq!(got.dtype(), want.dtype(), "{name}");
            let d = max_rel_diff(&got, &want);
            assert!(d <= tol(want.dtype()), "{name}: relative difference {d:e}");
            n += 1;
        }
    }
    assert!(n >= 10, "{n} cases");
}

/// find_peaks, peak_prominences and peak_widths from device arrays (they
/// copy the signal to the host, search there, and return device arrays):
/// SciPy's answers on a small signal, from a float32 array, the int64
/// peaks and float64 properties, and their errors.
#[test]
fn peak_finding_takes_and_returns_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_array::DType;
    use gpu_signal::{FindPeaksOptions, Interval};
    // scipy.signal.find_peaks(x, height=1.5, prominence=(None, None), width=(None, None))
    let x = Array::from_slice(&[0.0f32, 2.0, 1.0, 3.0, 3.0, 0.0, 1.0, 0.0], &[8]).unwrap();
    assert_eq!(
        gpu_signal::find_peaks(&x).unwrap().to_vec::<i64>().unwrap(),
        [1, 3, 6]
    );
    let o = FindPeaksOptions::default()
        .height(1.5)
        .prominence(Interval::any())
        .width(Interval::any());
    let (peaks, props) = gpu_signal::find_peaks_with(&x, &o).unwrap();
    assert_eq!(peaks.dtype(), DType::Int64);
    assert_eq!(peaks.to_vec::<i64>().unwrap(), [1, 3]);
    let f = |a: Option<Array>| a.unwrap().to_vec::<f64>().unwrap();
    let i = |a: Option<Array>| a.unwrap().to_vec::<i64>().unwrap();
    assert_eq!(f(props.peak_heights), [2.0, 3.0]);
    assert_eq!(f(props.prominences), [1.0, 3.0]);
    assert_eq!(i(props.left_bases), [0, 0]);
    assert_eq!(i(props.right_bases), [2, 5]);
    assert_eq!(f(props.widths), [0.75, 2.25]);
    assert_eq!(f(props.left_ips), [0.75, 2.25]);
    assert!(props.left_thresholds.is_none() && props.plateau_sizes.is_none());
    let p = Array::from_slice(&[1i64, 3], &[2]).unwrap();
    let (prom, lb, rb) = gpu_signal::peak_prominences(&x, &p, None).unwrap();
    assert_eq!(prom.to_vec::<f64>().unwrap(), [1.0, 3.0]);
    assert_eq!(
        (lb.to_vec::<i64>().unwrap(), rb.to_vec::<i64>().unwrap()),
        (vec![0, 0], vec![2, 5])
    );
    let (w, h, _, _) = gpu_signal::peak_widths(&x, &p, 1.0, Some(3.0)).unwrap();
    assert_eq!(w.to_vec::<f64>().unwrap().len(), 2);
    assert_eq!(h.to_vec::<f64>().unwrap(), [1.0, 3.0]);
    // Errors: a 2-D signal, a peak outside, float peaks.
    let x2 = Array::from_slice(&[0.0f64; 4], &[2, 2]).unwrap();
    assert!(
        gpu_signal::find_peaks(&x2)
            .unwrap_err()
            .to_string()
            .contains("`x` must be a 1-D array")
    );
    let far = Array::from_slice(&[9i64], &[1]).unwrap();
    assert!(
        gpu_signal::peak_prominences(&x, &far, None)
            .unwrap_err()
            .to_string()
            .contains("peak 9")
    );
    let fp = Array::from_slice(&[1.0f64], &[1]).unwrap();
    assert!(
        gpu_signal::peak_widths(&x, &fp, 0.5, None)
            .unwrap_err()
            .to_string()
            .contains("intp")
    );
}

/// max_len_seq and unit_impulse as device arrays (SciPy's values).
#[test]
fn waveforms_are_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_array::DType;
    use gpu_signal::ImpulseAt;
    let (seq, state) = gpu_signal::max_len_seq(4).unwrap();
    assert_eq!(seq.dtype(), DType::Int8);
    assert_eq!(
        seq.to_vec::<i8>().unwrap(),
        [1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
    );
    assert_eq!(state.to_vec::<i8>().unwrap(), [1, 1, 1, 1]);
    let d = gpu_signal::unit_impulse(&[5], &ImpulseAt::Start, DType::Float64).unwrap();
    assert_eq!(d.to_vec::<f64>().unwrap(), [1.0, 0.0, 0.0, 0.0, 0.0]);
    let m = gpu_signal::unit_impulse(&[3, 4], &ImpulseAt::Mid, DType::Float32).unwrap();
    let mv = m.to_vec::<f32>().unwrap();
    assert_eq!((mv[6], mv.iter().sum::<f32>()), (1.0, 1.0)); // [1, 2]
    let c = gpu_signal::unit_impulse(&[4], &ImpulseAt::Index(-1), DType::Complex128).unwrap();
    assert_eq!(c.dtype(), DType::Complex128);
    assert!(gpu_signal::unit_impulse(&[4], &ImpulseAt::Index(4), DType::Float64).is_err());
}

/// deconvolve from device arrays: SciPy's docstring division.
#[test]
fn deconvolve_divides_device_arrays() {
    if !gpu() {
        return;
    }
    let s = Array::from_slice(&[0.0f64, 1.0, 0.5, 0.5, 0.25], &[5]).unwrap();
    let d = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let (q, r) = gpu_signal::deconvolve(&s, &d).unwrap();
    assert_eq!(q.to_vec::<f64>().unwrap(), [0.0, 1.0, -1.5, 3.5]);
    assert_eq!(r.to_vec::<f64>().unwrap(), [0.0, 0.0, 0.0, 0.0, -6.75]);
}

/// vectorstrength from device arrays: events every second lock fully to a
/// period of one second and not at all to one of two.
#[test]
fn vectorstrength_takes_and_returns_device_arrays() {
    if !gpu() {
        return;
    }
    let e = Array::from_slice(&[0.0f64, 1.0, 2.0, 3.0], &[4]).unwrap();
    let p = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let (s, _) = gpu_signal::vectorstrength(&e, &p).unwrap();
    let s = s.to_vec::<f64>().unwrap();
    assert!((s[0] - 1.0).abs() < 1e-15 && s[1].abs() < 1e-15, "{s:?}");
}

/// argrelmax, argrelmin and argrelextrema from device arrays (SciPy's
/// answers), an int64 array compared exactly, and a 2-D array along its
/// last axis.
#[test]
fn relative_extrema_take_and_return_device_arrays() {
    if !gpu() {
        return;
    }
    use gpu_signal::{Comparator, ExtremaMode, RelExtremaOptions};
    let x = Array::from_slice(&[2.0f64, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0], &[8]).unwrap();
    let v = |r: Vec<Array>| {
        r.iter()
            .map(|a| a.to_vec::<i64>().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(v(gpu_signal::argrelmax(&x).unwrap()), [vec![3, 6]]);
    assert_eq!(v(gpu_signal::argrelmin(&x).unwrap()), [vec![1, 5]]);
    let wrap = RelExtremaOptions::default().mode(ExtremaMode::Wrap);
    assert_eq!(
        v(gpu_signal::argrelmax_with(&x, &wrap).unwrap()),
        [vec![0, 3, 6]]
    );
    let big = Array::from_slice(&[1i64 << 60, (1 << 60) + 1, 1 << 60], &[3]).unwrap();
    assert_eq!(v(gpu_signal::argrelmax(&big).unwrap()), [vec![1]]);
    let a = Array::from_slice(&[1.0f32, 5.0, 2.0, 4.0, 1.0, 3.0, 0.0, 6.0, 1.0], &[3, 3]).unwrap();
    let o = RelExtremaOptions::default().axis(-1);
    assert_eq!(
        v(gpu_signal::argrelextrema(&a, Comparator::Greater, &o).unwrap()),
        [vec![0, 2], vec![1, 1]]
    );
}
