//! order_filter, medfilt, medfilt2d, wiener, sepfir2d and filtfilt's
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
