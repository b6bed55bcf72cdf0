//! Tier 3: `gpu_array::{math, stats, polynomial}` on the GPU against
//! NumPy's own outputs (`testdata/math/math_golden.npz`, written by
//! `testdata/math/make_golden.py`: result dtypes, values, NaN and
//! infinities, empty inputs, edge placement) and against host references
//! (`rsqrt` over every dtype, strided and transposed inputs giving the
//! contiguous results, a histogram of 2^22 float32 values and a bincount
//! of 2^22 integers counted on the host with NumPy's algorithm, error
//! cases).

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::dtype::ScalarValue;
use gpu_array::math::{self, Bound, InterpOptions, Mode};
use gpu_array::npy::NpyArray;
use gpu_array::polynomial::{self, polyutils};
use gpu_array::stats::{self, Bins, CovOptions, HistogramOptions};
use gpu_array::{Array, DType, s};
use gpu_testing::npz_members;

use crate::common::{C, Rng, host, testdata};

fn golden() -> PathBuf {
    testdata("math/math_golden.npz")
}

/// One golden case: the function, its scalar arguments, inputs, outputs.
struct Case {
    name: String,
    func: String,
    params: HashMap<String, String>,
    ins: Vec<NpyArray>,
    outs: Vec<NpyArray>,
}

impl Case {
    fn p(&self, k: &str) -> &str {
        self.params
            .get(k)
            .unwrap_or_else(|| panic!("{}: no parameter {k}", self.name))
    }
    fn tag(&self) -> &str {
        self.name.rsplit("__").next().unwrap_or("")
    }
}

fn cases() -> Vec<Case> {
    let mut members = npz_members(golden());
    let mut names: Vec<String> = members
        .keys()
        .filter_map(|k| k.rsplit_once('.').map(|(n, _)| n.to_string()))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let mut parts = name.split("__");
            let func = parts.next().unwrap().to_string();
            let params = parts
                .filter_map(|p| p.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let take = |members: &mut HashMap<String, NpyArray>, kind: &str| {
                (0..)
                    .map_while(|k| members.remove(&format!("{name}.{kind}{k}")))
                    .collect::<Vec<_>>()
            };
            let ins = take(&mut members, "in");
            let outs = take(&mut members, "out");
            Case {
                name,
                func,
                params,
                ins,
                outs,
            }
        })
        .collect()
}

const FUNCS: [&str; 37] = [
    "around",
    "fix",
    "i0",
    "sinc",
    "angle",
    "clip",
    "nan_to_num",
    "unwrap",
    "interp",
    "bartlett",
    "blackman",
    "hamming",
    "hanning",
    "kaiser",
    "convolve",
    "correlate",
    "histogram",
    "histogram2d",
    "histogramdd",
    "bincount",
    "digitize",
    "average",
    "cov",
    "corrcoef",
    "polyval",
    "poly",
    "polyadd",
    "polysub",
    "polymul",
    "polyder",
    "polyint",
    "polyvander",
    "npolyval",
    "polycompanion",
    "trimcoef",
    "rsqrt",
    "none",
];

/// Host: the golden file parses, every case names a known function and
/// has outputs.
#[test]
fn golden_file_is_well_formed() {
    let cs = cases();
    assert!(cs.len() >= 200, "only {} cases", cs.len());
    for c in &cs {
        assert!(FUNCS.contains(&c.func.as_str()), "{}", c.name);
        assert!(!c.outs.is_empty(), "{}: no outputs", c.name);
    }
}

fn num(v: &str) -> ScalarValue {
    if v.contains('.') || v.contains('e') {
        ScalarValue::Float(v.parse().unwrap())
    } else {
        ScalarValue::Int(v.parse().unwrap())
    }
}

fn opt_f(v: &str) -> Option<f64> {
    (v != "none").then(|| v.parse().unwrap())
}

fn bound<'a>(v: &str, arr: Option<&'a Array>) -> Bound<'a> {
    match v {
        "none" => Bound::None,
        "array" => Bound::Array(arr.unwrap()),
        v => Bound::Scalar(num(v)),
    }
}

/// Runs a golden case's call on the device.
fn run(c: &Case, ins: &[Array]) -> gpu_array::Result<Vec<Array>> {
    let one = |r: gpu_array::Result<Array>| r.map(|a| vec![a]);
    let pi = |k: &str| -> i64 { c.p(k).parse().unwrap() };
    match c.func.as_str() {
        "around" => one(math::around(&ins[0], pi("d") as i32)),
        "fix" => one(math::fix(&ins[0])),
        "i0" => one(math::i0(&ins[0])),
        "sinc" => one(math::sinc(&ins[0])),
        "angle" => one(math::angle(&ins[0], pi("deg") != 0)),
        "clip" => {
            let lo = bound(c.p("lo"), ins.get(1));
            let hi = bound(c.p("hi"), ins.get(2));
            one(math::clip(&ins[0], lo, hi))
        }
        "nan_to_num" => one(math::nan_to_num(
            &ins[0],
            c.p("nan").parse().unwrap(),
            opt_f(c.p("posinf")),
            opt_f(c.p("neginf")),
        )),
        "unwrap" => {
            let period = match c.p("period") {
                "tau" => ScalarValue::Float(std::f64::consts::TAU),
                p if p.starts_with("int") => ScalarValue::Int(p[3..].parse().unwrap()),
                p => ScalarValue::Float(p.parse().unwrap()),
            };
            one(math::unwrap_with(
                &ins[0],
                opt_f(c.p("discont")),
                pi("axis") as isize,
                period,
            ))
        }
        "interp" => {
            let mut opts = InterpOptions::default().period(opt_f(c.p("period")));
            opts.left = opt_f(c.p("left")).map(ScalarValue::Float);
            opts.right = opt_f(c.p("right")).map(ScalarValue::Float);
            one(math::interp(&ins[0], &ins[1], &ins[2], &opts))
        }
        "bartlett" => one(math::bartlett(pi("m"))),
        "blackman" => one(math::blackman(pi("m"))),
        "hamming" => one(math::hamming(pi("m"))),
        "hanning" => one(math::hanning(pi("m"))),
        "kaiser" => one(math::kaiser(pi("m"), c.p("beta").parse().unwrap())),
        "convolve" | "correlate" => {
            let mode = match c.p("mode") {
                "full" => Mode::Full,
                "same" => Mode::Same,
                _ => Mode::Valid,
            };
            if c.func == "convolve" {
                one(math::convolve(&ins[0], &ins[1], mode))
            } else {
                one(math::correlate(&ins[0], &ins[1], mode))
            }
        }
        "histogram" => {
            let array_bins = c.p("bins") == "array";
            let bins = if array_bins {
                Bins::Edges(&ins[1])
            } else {
                Bins::Count(c.p("bins").parse().unwrap())
            };
            let weights = ins.get(if array_bins { 2 } else { 1 });
            let range = match c.p("range") {
                "none" => None,
                r => {
                    let (a, b) = r.split_once(',').unwrap();
                    Some((a.parse().unwrap(), b.parse().unwrap()))
                }
            };
            let opts = HistogramOptions::default()
                .range(range)
                .density(pi("density") != 0)
                .weights(weights);
            stats::histogram(&ins[0], bins, &opts).map(|(h, e)| vec![h, e])
        }
        "histogram2d" | "histogramdd" => {
            let dd = c.func == "histogramdd";
            let nin = if dd { 1 } else { 2 };
            let mut extra = ins[nin..].iter();
            let bins: Vec<Bins<'_>> = c
                .p("bins")
                .split(';')
                .map(|b| match b {
                    "array" => Bins::Edges(extra.next().unwrap()),
                    b => Bins::Count(b.parse().unwrap()),
                })
                .collect();
            let weights = if c.tag() == "w" { extra.next() } else { None };
            let range: Option<Vec<Option<(f64, f64)>>> = match c.p("range") {
                "none" => None,
                r => Some(
                    r.split(';')
                        .map(|p| {
                            let (a, b) = p.split_once(',').unwrap();
                            Some((a.parse().unwrap(), b.parse().unwrap()))
                        })
                        .collect(),
                ),
            };
            let density = pi("density") != 0;
            if dd {
                stats::histogramdd(&ins[0], &bins, range.as_deref(), density, weights).map(
                    |(h, e)| {
                        let mut v = vec![h];
                        v.extend(e);
                        v
                    },
                )
            } else {
                stats::histogram2d(&ins[0], &ins[1], &bins, range.as_deref(), density, weights)
                    .map(|(h, x, y)| vec![h, x, y])
            }
        }
        "bincount" => one(stats::bincount(
            &ins[0],
            ins.get(1),
            pi("minlength") as usize,
        )),
        "digitize" => one(stats::digitize(&ins[0], &ins[1], pi("right") != 0)),
        "average" => {
            let axis = match c.p("axis") {
                "none" => None,
                a => Some(vec![a.parse::<isize>().unwrap()]),
            };
            stats::average(&ins[0], axis.as_deref(), ins.get(1), false).map(|(a, s)| vec![a, s])
        }
        "cov" => {
            let mut opts = CovOptions::default()
                .rowvar(pi("rowvar") != 0)
                .bias(pi("bias") != 0)
                .ddof((c.p("ddof") != "none").then(|| pi("ddof")));
            let mut y = None;
            match c.tag() {
                "fw" => opts.fweights = Some(&ins[1]),
                "aw" => opts.aweights = Some(&ins[1]),
                "fwaw" => {
                    opts.fweights = Some(&ins[1]);
                    opts.aweights = Some(&ins[2]);
                }
                "y" => y = Some(&ins[1]),
                _ => {}
            }
            one(stats::cov(&ins[0], y, &opts))
        }
        "corrcoef" => one(stats::corrcoef(&ins[0], None, pi("rowvar") != 0, None)),
        "polyval" => one(polynomial::polyval(&ins[0], &ins[1])),
        "poly" => one(polynomial::poly(&ins[0])),
        "polyadd" => one(polynomial::polyadd(&ins[0], &ins[1])),
        "polysub" => one(polynomial::polysub(&ins[0], &ins[1])),
        "polymul" => one(polynomial::polymul(&ins[0], &ins[1])),
        "polyder" => one(polynomial::polyder(&ins[0], pi("m"))),
        "polyint" => one(polynomial::polyint(
            &ins[0],
            pi("m"),
            &[c.p("k").parse().unwrap()],
        )),
        "polyvander" => one(polynomial::polynomial::polyvander(
            &ins[0],
            pi("deg") as usize,
        )),
        "npolyval" => one(polynomial::polynomial::polyval(&ins[0], &ins[1])),
        "polycompanion" => one(polynomial::polynomial::polycompanion(&ins[0])),
        "trimcoef" => one(polyutils::trimcoef(&ins[0], c.p("tol").parse().unwrap())),
        f => panic!("unknown function {f}"),
    }
}

/// `(rtol, atol)` for output `k` of a case with NumPy dtype `dt`.
fn tolerance(c: &Case, k: usize, dt: DType) -> (f64, f64) {
    let f = c.func.as_str();
    // Results that mirror NumPy's arithmetic step by step: exact.
    let exact = matches!(
        f,
        "around"
            | "fix"
            | "clip"
            | "nan_to_num"
            | "digitize"
            | "bartlett"
            | "polyadd"
            | "polysub"
            | "polyder"
            | "polyint"
            | "polyvander"
            | "trimcoef"
    ) || (f == "bincount" && c.ins.len() == 1)
        || (matches!(f, "histogram" | "histogram2d" | "histogramdd")
            && (k >= 1 || (c.p("density") == "0" && !c.tag().ends_with('w'))));
    if exact || !(dt.is_floating() || dt.is_complex()) {
        return (0.0, 0.0);
    }
    let base = match dt.real_dtype() {
        DType::Float16 => (2e-3, 1e-3),
        DType::Float32 => (4e-6, 1e-6),
        _ => (1e-12, 1e-13),
    };
    match (f, dt.real_dtype()) {
        // NumPy evaluates i0's series in float16 arithmetic.
        ("i0", DType::Float16) => (3e-2, 1e-2),
        // NumPy evaluates float32's in float32 (exp and a 30-term series).
        ("i0", DType::Float32) => (2e-5, 1e-6),
        ("convolve" | "correlate" | "average" | "polyval" | "npolyval", DType::Float32) => {
            (1e-5, 1e-5)
        }
        ("unwrap", DType::Float32) => (1e-5, 1e-4),
        (
            "unwrap" | "cov" | "corrcoef" | "histogram" | "histogram2d" | "histogramdd" | "average",
            _,
        ) => (1e-11, 1e-12),
        _ => base,
    }
}

/// Equal, NaN matching NaN in each part.
fn same(a: &C, b: &C) -> bool {
    let part = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan());
    part(a.re, b.re) && part(a.im, b.im)
}

fn close(g: C, w: C, (rtol, atol): (f64, f64)) -> bool {
    let part = |g: f64, w: f64| {
        if w.is_nan() {
            g.is_nan()
        } else if w.is_infinite() {
            g == w
        } else {
            (g - w).abs() <= atol + rtol * w.abs()
        }
    };
    part(g.re, w.re) && part(g.im, w.im)
}

#[test]
fn numpy_golden() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut failures = Vec::new();
    for c in cases() {
        let ins: Vec<Array> = c.ins.iter().map(|a| Array::from_npy(a).unwrap()).collect();
        let got = match run(&c, &ins) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        assert_eq!(got.len(), c.outs.len(), "{}: output count", c.name);
        for (k, (g, w)) in got.iter().zip(&c.outs).enumerate() {
            let w = Array::from_npy(w).unwrap();
            if g.dtype() != w.dtype() {
                failures.push(format!(
                    "{} out{k}: dtype {} (NumPy {})",
                    c.name,
                    g.dtype(),
                    w.dtype()
                ));
                continue;
            }
            if g.shape() != w.shape() {
                failures.push(format!(
                    "{} out{k}: shape {:?} (NumPy {:?})",
                    c.name,
                    g.shape(),
                    w.shape()
                ));
                continue;
            }
            let tol = tolerance(&c, k, w.dtype());
            for (j, (gv, wv)) in host(g).into_iter().zip(host(&w)).enumerate() {
                if !close(gv, wv, tol) {
                    failures.push(format!("{} out{k}[{j}]: got {gv}, NumPy {wv}", c.name));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// rsqrt over every dtype against `1 / sqrt` on the host, with CuPy's
/// result dtypes; a transposed input gives the same values.
#[test]
fn rsqrt_every_dtype() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let vals: Vec<f64> = vec![0.25, 1.0, 2.0, 9.0, 100.0, 0.0, 7.0, 64.0];
    for dt in DType::ALL {
        let a = Array::from_slice(&vals, &[2, 4])
            .unwrap()
            .astype(dt)
            .unwrap();
        let want_dt = match dt {
            DType::Bool | DType::Int8 | DType::UInt8 | DType::Float16 => DType::Float16,
            DType::Int16 | DType::UInt16 | DType::Float32 => DType::Float32,
            DType::BFloat16 => DType::BFloat16,
            DType::Complex64 => DType::Complex64,
            DType::Complex128 => DType::Complex128,
            _ => DType::Float64,
        };
        let r = math::rsqrt(&a).unwrap();
        assert_eq!(r.dtype(), want_dt, "{dt}");
        let src = host(&a);
        let eps = match want_dt.real_dtype() {
            DType::Float16 => 2e-3,
            DType::BFloat16 => 1e-2,
            DType::Float32 => 1e-6,
            _ => 1e-15,
        };
        for (g, x) in host(&r).iter().zip(&src) {
            let w = C::new(1.0, 0.0) / x.sqrt();
            if x.re == 0.0 && x.im == 0.0 {
                assert!(g.re.is_infinite() || g.re.is_nan(), "{dt}: rsqrt(0) = {g}");
            } else {
                assert!((g - w).norm() <= 4.0 * eps * w.norm(), "{dt}: {g} vs {w}");
            }
        }
        let t = math::rsqrt(&a.T()).unwrap();
        let rt = host(&r.T().copy().unwrap());
        for (g, w) in host(&t).iter().zip(&rt) {
            assert!(same(g, w), "{dt}: transposed");
        }
    }
}

/// Strided, reversed and broadcast inputs give the values of their
/// contiguous copies (the elementwise kernels' strided loops).
#[test]
fn non_contiguous_inputs() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(7);
    let v: Vec<f64> = (0..6 * 8).map(|_| rng.unit() * 20.0 - 10.0).collect();
    let base = Array::from_slice(&v, &[6, 8]).unwrap();
    for dt in [
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex128,
    ] {
        let a = base.astype(dt).unwrap();
        let views = [
            a.T(),
            a.slice(&s![..;2, ..;-1]).unwrap(),
            a.slice(&s![1, ..]).unwrap().broadcast_to(&[3, 8]).unwrap(),
        ];
        for x in &views {
            let xc = x.copy().unwrap();
            let pairs: Vec<(Array, Array)> = vec![
                (math::around(x, 1).unwrap(), math::around(&xc, 1).unwrap()),
                (math::sinc(x).unwrap(), math::sinc(&xc).unwrap()),
                (
                    math::clip(x, Bound::from(-2.0), Bound::from(3.5)).unwrap(),
                    math::clip(&xc, Bound::from(-2.0), Bound::from(3.5)).unwrap(),
                ),
                (
                    math::nan_to_num(x, 0.0, None, None).unwrap(),
                    math::nan_to_num(&xc, 0.0, None, None).unwrap(),
                ),
            ];
            for (k, (g, w)) in pairs.iter().enumerate() {
                assert_eq!(g.shape(), w.shape());
                let (g, w) = (host(g), host(w));
                assert!(
                    g.iter().zip(&w).all(|(a, b)| same(a, b)),
                    "{dt} op {k} on a view of strides {:?}",
                    x.strides()
                );
            }
        }
        if !dt.is_complex() {
            let x = a.T();
            let g = stats::digitize(
                &x,
                &Array::from_slice(&[-5.0, 0.0, 5.0], &[3]).unwrap(),
                false,
            )
            .unwrap();
            let w = stats::digitize(
                &x.copy().unwrap(),
                &Array::from_slice(&[-5.0, 0.0, 5.0], &[3]).unwrap(),
                false,
            )
            .unwrap();
            assert_eq!(g.to_vec::<i64>().unwrap(), w.to_vec::<i64>().unwrap());
            let h1 = stats::histogram(&x, Bins::Count(7), &Default::default())
                .unwrap()
                .0;
            let h2 = stats::histogram(&x.copy().unwrap(), Bins::Count(7), &Default::default())
                .unwrap()
                .0;
            assert_eq!(h1.to_vec::<i64>().unwrap(), h2.to_vec::<i64>().unwrap());
        }
    }
}

/// NumPy's equal-width bin of `x` (float32 data): the fast path of
/// `_histogram`, the division in float32 (`range` from the data) or in
/// float64 (`range` given as Python floats).
fn numpy_bin_f32(
    x: f32,
    first: f32,
    last: f32,
    denom64: Option<f64>,
    edges: &[f32],
) -> Option<usize> {
    let nb = edges.len() - 1;
    if !(x >= first && x <= last) {
        return None;
    }
    let s = x - first;
    let mut i = match denom64 {
        None => ((s / (last - first)) * nb as f32) as i64,
        Some(d) => ((f64::from(s) / d) * nb as f64) as i64,
    };
    if i == nb as i64 {
        i -= 1;
    }
    if x < edges[i as usize] {
        i -= 1;
    }
    if i != nb as i64 - 1 && x >= edges[i as usize + 1] {
        i += 1;
    }
    Some(i as usize)
}

/// NumPy's `linspace(first, last, n + 1)` in float32 (`range` from the
/// data) or float64 then float32 (`range` given).
fn edges_f32(first: f64, last: f64, nb: usize, in_f32: bool) -> Vec<f32> {
    if in_f32 {
        let (a, b) = (first as f32, last as f32);
        let step = (b - a) / nb as f32;
        (0..=nb)
            .map(|i| if i == nb { b } else { i as f32 * step + a })
            .collect()
    } else {
        let step = (last - first) / nb as f64;
        (0..=nb)
            .map(|i| {
                if i == nb {
                    last as f32
                } else {
                    (i as f64 * step + first) as f32
                }
            })
            .collect()
    }
}

/// 2^22 float32 values (some exactly on the edges) into 256 bins: the
/// edges and every count equal the host's NumPy-algorithm ones, with the
/// range from the data and given; NaN data without a range is NumPy's
/// error; weighted sums agree; 2^22 int32 values through bincount, in
/// the privatised (1000 bins) and the global-memory (100000 bins) paths.
#[test]
fn large_histogram_and_bincount() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = 1 << 22;
    let nb = 256;
    let mut rng = Rng(99);
    let mut v: Vec<f32> = (0..n).map(|_| (rng.unit() * 8.0 - 3.0) as f32).collect();
    let lo = v.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let edges = edges_f32(f64::from(lo), f64::from(hi), nb, true);
    for k in 1..nb {
        v[100 + 3 * k] = edges[k];
        if edges[k] != 0.0 {
            // One step toward zero: just below a positive edge, just
            // above a negative one.
            v[101 + 3 * k] = f32::from_bits(edges[k].to_bits() - 1);
        }
    }
    let a = Array::from_slice(&v, &[n]).unwrap();
    let (h, e) = stats::histogram(&a, Bins::Count(nb), &Default::default()).unwrap();
    assert_eq!(e.dtype(), DType::Float32);
    assert_eq!(e.to_vec::<f32>().unwrap(), edges, "edges");
    let mut want = vec![0i64; nb];
    for &x in &v {
        if let Some(b) = numpy_bin_f32(x, lo, hi, None, &edges) {
            want[b] += 1;
        }
    }
    assert_eq!(
        h.to_vec::<i64>().unwrap(),
        want,
        "counts, range from the data"
    );

    // A given range, and NaN (skipped there, an error without a range).
    v[7] = f32::NAN;
    let a = Array::from_slice(&v, &[n]).unwrap();
    let err = stats::histogram(&a, Bins::Count(nb), &Default::default()).unwrap_err();
    assert!(
        err.to_string()
            .contains("autodetected range of [nan, nan] is not finite"),
        "{err}"
    );
    let (r0, r1) = (-1.3, 2.9);
    let opts = HistogramOptions::default().range((r0, r1));
    let (h, e) = stats::histogram(&a, Bins::Count(nb), &opts).unwrap();
    let edges = edges_f32(r0, r1, nb, false);
    assert_eq!(e.to_vec::<f32>().unwrap(), edges, "edges of a given range");
    let mut want = vec![0i64; nb];
    for &x in &v {
        if let Some(b) = numpy_bin_f32(x, r0 as f32, r1 as f32, Some(r1 - r0), &edges) {
            want[b] += 1;
        }
    }
    assert_eq!(h.to_vec::<i64>().unwrap(), want, "counts, given range");

    // Weighted (float64 weights): sums per bin.
    let w: Vec<f64> = (0..n).map(|_| rng.unit()).collect();
    let wa = Array::from_slice(&w, &[n]).unwrap();
    let opts = HistogramOptions::default().range((r0, r1)).weights(&wa);
    let (h, _) = stats::histogram(&a, Bins::Count(nb), &opts).unwrap();
    assert_eq!(h.dtype(), DType::Float64);
    let mut want = vec![0f64; nb];
    for (&x, &wt) in v.iter().zip(&w) {
        if let Some(b) = numpy_bin_f32(x, r0 as f32, r1 as f32, Some(r1 - r0), &edges) {
            want[b] += wt;
        }
    }
    for (g, w) in h.to_vec::<f64>().unwrap().iter().zip(&want) {
        assert!((g - w).abs() <= 1e-9 * w.abs().max(1.0), "{g} vs {w}");
    }

    for range in [1000u64, 100_000] {
        let x: Vec<i32> = (0..n).map(|_| (rng.next() % range) as i32).collect();
        let xa = Array::from_slice(&x, &[n]).unwrap();
        let got = stats::bincount(&xa, None, 0).unwrap();
        let len = *x.iter().max().unwrap() as usize + 1;
        let mut want = vec![0i64; len];
        for &k in &x {
            want[k as usize] += 1;
        }
        assert_eq!(got.to_vec::<i64>().unwrap(), want, "bincount over {range}");
        let got = stats::bincount(&xa, Some(&wa), len + 5).unwrap();
        let mut want = vec![0f64; len + 5];
        for (&k, &wt) in x.iter().zip(&w) {
            want[k as usize] += wt;
        }
        for (g, w) in got.to_vec::<f64>().unwrap().iter().zip(&want) {
            assert!(
                (g - w).abs() <= 1e-9 * w.abs().max(1.0),
                "weighted bincount {g} vs {w}"
            );
        }
    }
}

/// NumPy's errors for bad arguments.
#[test]
fn errors() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let f = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3]).unwrap();
    let i = Array::from_slice(&[1i32, -2, 3], &[3]).unwrap();
    let msg = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    assert!(msg(stats::bincount(&i, None, 0)).contains("no negative elements"));
    assert!(msg(stats::bincount(&f, None, 0)).contains("according to the rule 'safe'"));
    let bad_bins = Array::from_slice(&[0.0f64, 2.0, 1.0], &[3]).unwrap();
    assert!(
        stats::histogram(&f, Bins::Edges(&bad_bins), &Default::default())
            .unwrap_err()
            .to_string()
            .contains("must increase monotonically")
    );
    assert!(
        msg(stats::digitize(&f, &bad_bins, false))
            .contains("monotonically increasing or decreasing")
    );
    assert!(
        stats::histogram(
            &f,
            Bins::Count(3),
            &HistogramOptions::default().range((2.0, 1.0))
        )
        .unwrap_err()
        .to_string()
        .contains("max must be larger than min")
    );
    let e = Array::from_slice::<f64>(&[], &[0]).unwrap();
    assert!(msg(math::convolve(&e, &f, Mode::Full)).contains("cannot be empty"));
    assert!(msg(math::interp(&f, &e, &e, &Default::default())).contains("empty"));
    assert!(msg(math::i0(&f.astype(DType::Complex64).unwrap())).contains("complex"));
    assert!(msg(math::around(&Array::from_slice(&[true], &[1]).unwrap(), 1)).contains("bool"));
    let ones = Array::from_slice(&[0.0f64, 0.0], &[2]).unwrap();
    assert!(
        stats::average(&f.slice(&s![..2]).unwrap(), None, Some(&ones), false)
            .unwrap_err()
            .to_string()
            .contains("Weights sum to zero")
    );
    // Empty inputs are fine where NumPy allows them.
    assert_eq!(math::sinc(&e).unwrap().shape(), &[0]);
    assert_eq!(
        math::clip(&e, Bound::from(0.0), Bound::from(1.0))
            .unwrap()
            .shape(),
        &[0]
    );
    assert_eq!(
        stats::bincount(&e.astype(DType::Int64).unwrap(), None, 3)
            .unwrap()
            .to_vec::<i64>()
            .unwrap(),
        vec![0, 0, 0]
    );
}

/// The modified Bessel function I0 by its power series, in float64.
fn i0_host(x: f64) -> f64 {
    let (mut term, mut sum, q) = (1.0f64, 1.0f64, x * x / 4.0);
    for k in 1..200 {
        term *= q / (k * k) as f64;
        sum += term;
        if term < sum * 1e-17 {
            break;
        }
    }
    sum
}

/// Every dtype through `sinc`, `i0`, `clip`, `nan_to_num`, `around`,
/// `fix` (bfloat16 and the unsigned and bool dtypes included, which the
/// NumPy goldens cannot cover): NumPy's result dtypes and values within
/// the output dtype's precision of a float64 host reference.
#[test]
fn every_dtype_against_host() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let vals = [-3.5f64, -1.0, -0.25, 0.0, 0.5, 2.0, 3.0, 7.0];
    for dt in DType::ALL {
        let a = Array::from_slice(&vals, &[8]).unwrap().astype(dt).unwrap();
        let x = host(&a);
        let eps: f64 = match dt.real_dtype() {
            DType::Float16 => 4e-3,
            DType::BFloat16 => 3e-2,
            DType::Float32 => 1e-6,
            _ => 1e-14,
        };
        let float_out = if dt.is_floating() { dt } else { DType::Float64 };
        if !dt.is_complex() {
            let s = math::sinc(&a).unwrap();
            assert_eq!(s.dtype(), float_out, "sinc {dt}");
            for (g, v) in host(&s).iter().zip(&x) {
                let t = std::f64::consts::PI * v.re;
                let w = if t == 0.0 { 1.0 } else { t.sin() / t };
                assert!(
                    (g.re - w).abs() <= 4.0 * eps.max(1e-14),
                    "sinc {dt}({v}) = {g}, want {w}"
                );
            }
            let i = math::i0(&a).unwrap();
            assert_eq!(i.dtype(), float_out, "i0 {dt}");
            for (g, v) in host(&i).iter().zip(&x) {
                let w = i0_host(v.re);
                assert!(
                    (g.re - w).abs() <= 4.0 * eps.max(1e-14) * w,
                    "i0 {dt}({v}) = {g}, want {w}"
                );
            }
            let f = math::fix(&a).unwrap();
            assert_eq!(f.dtype(), dt, "fix {dt}");
            for (g, v) in host(&f).iter().zip(&x) {
                assert_eq!(g.re, v.re.trunc(), "fix {dt}({v})");
            }
        }
        if dt != DType::Bool {
            let c = math::clip(&a, Bound::from(0i64), Bound::from(2i64)).unwrap();
            assert_eq!(c.dtype(), dt, "clip {dt}");
            for (g, v) in host(&c).iter().zip(&x) {
                let w = if dt.is_complex() {
                    // Lexicographic order, as NumPy's complex clip.
                    if (v.re, v.im) < (0.0, 0.0) {
                        C::new(0.0, 0.0)
                    } else if (v.re, v.im) > (2.0, 0.0) {
                        C::new(2.0, 0.0)
                    } else {
                        *v
                    }
                } else {
                    C::new(v.re.clamp(0.0, 2.0), 0.0)
                };
                assert!(same(g, &w), "clip {dt}({v}) = {g}, want {w}");
            }
            let r = math::around(&a, -1).unwrap();
            assert_eq!(r.dtype(), dt, "around {dt}");
            for (g, v) in host(&r).iter().zip(&x) {
                let w = |p: f64| {
                    let q = p / 10.0;
                    let r = q.round();
                    let r = if (q - q.trunc()).abs() == 0.5 {
                        2.0 * (q / 2.0).round()
                    } else {
                        r
                    };
                    r * 10.0
                };
                assert!(
                    (g.re - w(v.re)).abs() <= 1e-9 && (g.im - w(v.im)).abs() <= 1e-9,
                    "around {dt}({v}, -1) = {g}"
                );
            }
        }
        let n = math::nan_to_num(&a, 0.0, None, None).unwrap();
        assert_eq!(n.dtype(), dt);
        assert!(
            host(&n).iter().zip(&x).all(|(g, v)| same(g, v)),
            "nan_to_num {dt}"
        );
    }
}

/// Order statistics (quantile, percentile, median and their nan forms,
/// the five classic methods, axis None/0/-1 and tuple axes (reduced
/// together; the empty tuple), keepdims, scalar, list and N-d `q` (a 0-d
/// array `q` gives float64)) against NumPy's outputs in `testdata/quantile/quantile_golden.npz`
/// (written by `make_golden.py` beside it): dtype and shape exactly; values
/// within a few ulps of the result dtype (NumPy interpolates in it, Cuprum
/// in float64 before rounding), NaN where NumPy has NaN.
#[test]
fn order_statistics_golden() {
    use gpu_array::sorting::{self as so, QuantileMethod, QuantileOptions, Quantiles};
    let members = npz_members(testdata("quantile/quantile_golden.npz"));
    let mut names: Vec<&str> = members
        .keys()
        .filter_map(|k| k.strip_suffix(".out"))
        .collect();
    names.sort_unstable();
    assert!(names.len() >= 470, "{} cases", names.len());
    assert!(names.iter().any(|n| n.contains("__0,1,2__")));
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut failures = Vec::new();
    for name in names {
        let f: Vec<&str> = name.split("__").collect();
        let [func, method, axis, keepdims, qkind, tag] = f[..] else {
            panic!("bad case name {name}")
        };
        let a = Array::from_npy(&members[&format!("input.{tag}")]).unwrap();
        let qa = Array::from_npy(&members[&format!("{name}.q")]).unwrap();
        let qv: Vec<f64> = qa.to_vec::<f64>().unwrap();
        let q = match qkind {
            "s" => Quantiles::One(qv[0]),
            "v" => Quantiles::Many(qv),
            _ => Quantiles::from_array(&qa).unwrap(),
        };
        let opts = QuantileOptions::default()
            .with_axis(match axis {
                "none" => None,
                "t" => Some(Vec::new()),
                list => Some(list.split(',').map(|x| x.parse().unwrap()).collect()),
            })
            .keepdims(keepdims == "1")
            .method(QuantileMethod::parse(method).unwrap());
        let got = match func {
            "median" => so::median(&a, opts.axis.as_deref(), opts.keepdims),
            "nanmedian" => so::nanmedian(&a, opts.axis.as_deref(), opts.keepdims),
            "quantile" => so::quantile(&a, &q, &opts),
            "nanquantile" => so::nanquantile(&a, &q, &opts),
            "percentile" => so::percentile(&a, &q, &opts),
            "nanpercentile" => so::nanpercentile(&a, &q, &opts),
            other => panic!("unknown function {other}"),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = Array::from_npy(&members[&format!("{name}.out")]).unwrap();
        if got.dtype() != want.dtype() || got.shape() != want.shape() {
            failures.push(format!(
                "{name}: {} {:?} (NumPy {} {:?})",
                got.dtype(),
                got.shape(),
                want.dtype(),
                want.shape()
            ));
            continue;
        }
        let eps = match want.dtype() {
            DType::Float16 => 1e-3,
            DType::Float32 => 1e-6,
            _ => 1e-14,
        };
        for (j, (g, w)) in host(&got).into_iter().zip(host(&want)).enumerate() {
            let ok = (g.re.is_nan() && w.re.is_nan())
                || (g.re - w.re).abs() <= 4.0 * eps * w.re.abs().max(1e-300) + eps;
            if !ok {
                failures.push(format!("{name}[{j}]: got {}, NumPy {}", g.re, w.re));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Range errors as NumPy's.
    let a = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    assert_eq!(
        so::quantile(&a, &Quantiles::One(1.5), &QuantileOptions::default())
            .unwrap_err()
            .to_string(),
        "Quantiles must be in the range [0, 1]"
    );
    assert_eq!(
        so::percentile(&a, &Quantiles::One(-1.0), &QuantileOptions::default())
            .unwrap_err()
            .to_string(),
        "Percentiles must be in the range [0, 100]"
    );
    // Tuple axes: repeated or out of range as NumPy's; a shaped q whose
    // values do not fill its shape.
    let a3 = Array::from_slice(&[1.0f32; 24], &[2, 3, 4]).unwrap();
    let half = Quantiles::One(0.5);
    assert_eq!(
        so::quantile(&a3, &half, &QuantileOptions::axes(&[0, -3]))
            .unwrap_err()
            .to_string(),
        "repeated axis"
    );
    assert_eq!(
        so::median(&a3, Some(&[0, 3]), false)
            .unwrap_err()
            .to_string(),
        "axis 3 is out of bounds for array of dimension 3"
    );
    let bad = Quantiles::Shaped {
        values: vec![0.5; 3],
        shape: vec![2, 2],
    };
    assert!(so::quantile(&a3, &bad, &QuantileOptions::default()).is_err());
    // Empty q of shape (0, 2): an empty result of shape (0, 2, 3).
    let empty = Quantiles::Shaped {
        values: Vec::new(),
        shape: vec![0, 2],
    };
    let r = so::quantile(&a3, &empty, &QuantileOptions::axis(-1)).unwrap();
    assert_eq!(r.shape(), &[0, 2, 2, 3]);
}

/// One quantile of a whole large array takes the radix selection (no
/// sort); a list `q` of the same value takes the sort. Both must agree: the
/// values exactly for lower/higher/nearest, within half an ulp of the
/// selection's dtype when interpolated (the list form computes in float64).
/// Over every selectable dtype, NaN (propagated; skipped by the nan forms;
/// all NaN), heavy duplicates with both zeros, an unaligned start, a
/// strided view, a tuple axis over every axis with keepdims, and a host
/// reference for the float32 median.
#[test]
fn order_statistics_by_selection() {
    use gpu_array::sorting::{self as so, QuantileMethod, QuantileOptions, Quantiles};
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let methods = [
        QuantileMethod::Linear,
        QuantileMethod::Lower,
        QuantileMethod::Higher,
        QuantileMethod::Nearest,
        QuantileMethod::Midpoint,
    ];
    let mut failures = Vec::new();
    let mut check = |label: &str, a: &Array, qs: &[f64]| {
        let rel = |dt: DType| match dt {
            DType::Float16 => 1e-3,
            DType::BFloat16 => 8e-3,
            DType::Float32 => 1e-6,
            _ => 1e-15,
        };
        let val = |x: &Array| x.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
        for skip in [false, true] {
            for &q in qs {
                for m in methods {
                    let opts = QuantileOptions::default().method(m);
                    let (sel, srt) = if skip {
                        (
                            so::nanquantile(a, &Quantiles::One(q), &opts),
                            so::nanquantile(a, &Quantiles::Many(vec![q]), &opts),
                        )
                    } else {
                        (
                            so::quantile(a, &Quantiles::One(q), &opts),
                            so::quantile(a, &Quantiles::Many(vec![q]), &opts),
                        )
                    };
                    let (sel, srt) = (sel.unwrap(), srt.unwrap());
                    assert_eq!(sel.shape(), &[] as &[usize]);
                    let (g, w) = (val(&sel)[0], val(&srt)[0]);
                    let tol = rel(sel.dtype()) * w.abs();
                    let ok = (g.is_nan() && w.is_nan()) || (g - w).abs() <= tol;
                    if !ok {
                        failures.push(format!(
                            "{label} skip={skip} q={q} {m:?}: selection {g}, sort {w}"
                        ));
                    }
                }
            }
            let (sel, srt) = if skip {
                (
                    so::nanmedian(a, None, false),
                    so::nanquantile(a, &Quantiles::Many(vec![0.5]), &QuantileOptions::default()),
                )
            } else {
                (
                    so::median(a, None, false),
                    so::quantile(a, &Quantiles::Many(vec![0.5]), &QuantileOptions::default()),
                )
            };
            let (g, w) = (val(&sel.unwrap())[0], val(&srt.unwrap())[0]);
            if !((g.is_nan() && w.is_nan()) || (g - w).abs() <= 1e-6 * w.abs()) {
                failures.push(format!(
                    "{label} skip={skip} median: selection {g}, sort {w}"
                ));
            }
        }
    };
    let qs = [0.0, 0.25, 0.5, 0.7, 0.999, 1.0];
    let mut rng = Rng(0x5e1ec7);
    let n = 100_003;
    let f: Vec<f32> = (0..n).map(|_| (rng.unit() * 2.0 - 0.5) as f32).collect();
    let a = Array::from_slice(&f, &[n]).unwrap();
    check("f32", &a, &qs);
    // A host reference for the median (odd length: the middle value).
    let mut sorted = f.clone();
    sorted.sort_by(f32::total_cmp);
    let med = so::median(&a, None, false).unwrap();
    assert_eq!(med.dtype(), DType::Float32);
    assert_eq!(med.to_vec::<f32>().unwrap()[0], sorted[n / 2]);
    // Unaligned start and a strided view.
    check("f32[1:]", &a.slice(&s![1..]).unwrap(), &qs);
    check("f32[::3]", &a.slice(&s![..;3]).unwrap(), &[0.5]);
    // NaN: propagated, skipped, all NaN.
    let mut g = f.clone();
    for i in (0..n).step_by(97) {
        g[i] = f32::NAN;
    }
    let an = Array::from_slice(&g, &[n]).unwrap();
    check("f32 nan", &an, &[0.0, 0.5, 1.0]);
    assert!(
        so::median(&an, None, false)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()[0]
            .is_nan()
    );
    let all_nan = Array::from_slice(&vec![f64::NAN; 5000], &[5000]).unwrap();
    check("all nan", &all_nan, &[0.5]);
    // Duplicates with both zeros, float64; every axis as a tuple, keepdims.
    let d: Vec<f64> = (0..6000)
        .map(|_| [-1.0, 0.0, -0.0, 2.0, 2.0][(rng.next() % 5) as usize])
        .collect();
    let a3 = Array::from_slice(&d, &[10, 20, 30]).unwrap();
    check("f64 dups", &a3, &qs);
    let k = so::median(&a3, Some(&[0, 1, 2]), true).unwrap();
    assert_eq!(k.shape(), &[1, 1, 1]);
    let all = so::median(&a3, None, false).unwrap();
    assert_eq!(
        k.to_vec::<f64>().unwrap(),
        all.to_vec::<f64>().unwrap(),
        "tuple axis over every axis"
    );
    // Every other selectable dtype.
    let bits: Vec<u64> = (0..7000).map(|_| rng.next()).collect();
    let ints = Array::from_slice(&bits, &[7000]).unwrap();
    for dt in [
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::UInt16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
    ] {
        check(&format!("{dt}"), &ints.astype(dt).unwrap(), &qs);
    }
    let mixed = Array::from_slice(&f, &[n]).unwrap();
    for dt in [DType::Float16, DType::BFloat16, DType::Float64] {
        let x = mixed.astype(dt).unwrap();
        check(&format!("{dt}"), &x, &qs);
        check(&format!("{dt}[1:]"), &x.slice(&s![1..]).unwrap(), &[0.5]);
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `piecewise` against a host reference: constants and functions (which
/// see all of `x`), overlapping conditions (the later wins), the
/// otherwise value, elements no condition selects (0), casts into an
/// integer `x` (truncation, as NumPy's `y[cond] = value`), non-bool and
/// leading-axes conditions, a 0-d `x`, and NumPy's errors.
#[test]
fn piecewise_against_host() {
    use gpu_array::functional::{Piece, piecewise};
    use gpu_array::ufunc;
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = 1001usize;
    let xs: Vec<f64> = (0..n)
        .map(|i| {
            if i % 97 == 5 {
                f64::NAN
            } else {
                (i as f64 - 500.0) / 137.0
            }
        })
        .collect();
    let x = Array::from_vec(xs.clone()).unwrap();
    let c0 = x.less(0.0).unwrap();
    let c1 = x.greater(-1.0).unwrap();
    let y = piecewise(
        &x,
        &[&c0, &c1],
        &[
            Piece::func(|v| ufunc::negative(v)),
            Piece::func(|v| ufunc::multiply(v, 10.0)),
            7.5.into(),
        ],
    )
    .unwrap();
    assert_eq!((y.dtype(), y.shape()), (DType::Float64, &[n][..]));
    let want: Vec<f64> = xs
        .iter()
        .map(|&v| {
            if v > -1.0 {
                v * 10.0
            } else if v < 0.0 {
                -v
            } else {
                7.5 // NaN: no condition holds
            }
        })
        .collect();
    let got = y.to_vec::<f64>().unwrap();
    assert_eq!(got, want, "float pieces");

    // Integer x: a float function and a float constant truncate; without
    // an otherwise piece, unselected elements are 0. The condition is an
    // int8 array (nonzero is true).
    let xi: Vec<i32> = (-6..7).collect();
    let x = Array::from_vec(xi.clone()).unwrap();
    let mask: Vec<i8> = xi.iter().map(|&v| i8::from(v % 3 == 0) * 5).collect();
    let cm = Array::from_vec(mask).unwrap();
    let neg = x.less(0).unwrap();
    let y = piecewise(
        &x,
        &[&neg, &cm],
        &[Piece::func(|v| ufunc::multiply(v, 1.7)), 2.9.into()],
    )
    .unwrap();
    assert_eq!(y.dtype(), DType::Int32);
    let want: Vec<i32> = xi
        .iter()
        .map(|&v| {
            if v % 3 == 0 {
                2
            } else if v < 0 {
                (f64::from(v) * 1.7) as i32
            } else {
                0
            }
        })
        .collect();
    assert_eq!(y.to_vec::<i32>().unwrap(), want, "int pieces");

    // A condition over the leading axis selects whole rows; a function may
    // return a 0-d array (it broadcasts).
    let x2 = Array::from_vec((0..12u8).map(f32::from).collect::<Vec<f32>>())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let rows = Array::from_vec(vec![true, false, true]).unwrap();
    let y = piecewise(
        &x2,
        &[&rows],
        &[
            Piece::func(|_| Array::from_slice(&[-2.0f64], &[])),
            Piece::func(|v| Ok(v.clone())),
        ],
    )
    .unwrap();
    assert_eq!(y.shape(), &[3, 4]);
    let want: Vec<f32> = (0..12)
        .map(|i| if i / 4 == 1 { i as f32 } else { -2.0 })
        .collect();
    assert_eq!(y.to_vec::<f32>().unwrap(), want, "row conditions");
    // Only an otherwise value: everywhere, in x's shape.
    let y = piecewise(&x2, &[], &[3.into()]).unwrap();
    assert_eq!(y.to_vec::<f32>().unwrap(), vec![3.0; 12]);
    // 0-d x.
    let x0 = Array::from_slice(&[3.0f64], &[]).unwrap();
    let t0 = Array::from_slice(&[true], &[]).unwrap();
    let y = piecewise(&x0, &[&t0], &[Piece::func(|v| ufunc::add(v, 1.0))]).unwrap();
    assert_eq!(y.shape(), &[] as &[usize]);
    assert_eq!(y.item::<f64>(&[]).unwrap(), 4.0);

    // NumPy's errors.
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let x = Array::from_vec(xs).unwrap();
    assert_eq!(
        err(piecewise(&x, &[&c0], &[1.into(), 2.into(), 3.into()])),
        "with 1 condition(s), either 1 or 2 functions are expected"
    );
    let short = Array::from_vec(vec![true, false]).unwrap();
    assert_eq!(
        err(piecewise(&x, &[&short], &[1.into()])),
        "boolean index did not match indexed array along axis 0; size of axis is 1001 but size \
         of corresponding boolean axis is 2"
    );
    let wrong = Piece::func(|_| Array::from_slice(&[1.0f64, 2.0], &[2]));
    assert!(
        err(piecewise(&x, &[&c0], &[wrong]))
            .starts_with("piecewise: function 0 returned shape [2]")
    );
    let failing = Piece::func(|_| Err(gpu_array::Error::Value("boom".into())));
    assert_eq!(err(piecewise(&x, &[&c0], &[failing])), "boom");
}
