//! The accuracy table: for every function and dtype, the largest and the
//! 99.9th-percentile error in ulps against the correctly rounded value
//! (mpmath), Cuprum's and SciPy's; and the edges (0, -0, denormals,
//! poles, huge arguments, NaN, inf) exactly as SciPy gives them.
//!
//! Set `CUPRUM_SPECIAL_TABLE=path` to append the table to that markdown
//! file (a test per family; see [`family`]).

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::sync::Mutex;

use gpu_array::npy::NpyArray;
use gpu_array::ufunc::{self, UfuncOptions};
use gpu_array::{Array, DType};
use num_complex::Complex;

/// Every family's goldens (`testdata/golden_<family>.npz`), by family.
fn goldens() -> Vec<(String, HashMap<String, NpyArray>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("golden_") && n.ends_with(".npz"))
        })
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let family = p.file_stem().unwrap().to_str().unwrap()["golden_".len()..].to_string();
            (family, gpu_testing::npz_members(p))
        })
        .collect()
}

/// A float's position on the number line in ulps (-0 and +0 both 0).
fn ordinal64(v: f64) -> i128 {
    let b = v.to_bits() as i64;
    if b < 0 {
        -((b & i64::MAX) as i128)
    } else {
        b as i128
    }
}

fn ordinal32(v: f32) -> i128 {
    let b = v.to_bits() as i32;
    if b < 0 {
        -((b & i32::MAX) as i128)
    } else {
        b as i128
    }
}

/// The distance in ulps of the dtype; NaN against NaN is 0, NaN against
/// a number infinite.
fn ulps(got: f64, want: f64, dtype: DType) -> f64 {
    match (got.is_nan(), want.is_nan()) {
        (true, true) => return 0.0,
        (true, false) | (false, true) => return f64::INFINITY,
        _ => {}
    }
    let d = if dtype == DType::Float32 {
        ordinal32(got as f32) - ordinal32(want as f32)
    } else {
        ordinal64(got) - ordinal64(want)
    };
    d.unsigned_abs() as f64
}

/// Largest and 99.9th-percentile of `errors`.
fn stats(mut errors: Vec<f64>) -> (f64, f64) {
    errors.sort_by(f64::total_cmp);
    let n = errors.len();
    let max = errors.last().copied().unwrap_or(0.0);
    let p = errors[((n as f64 * 0.999).ceil() as usize).clamp(1, n) - 1];
    (max, p)
}

fn values(g: &HashMap<String, NpyArray>, key: &str) -> Vec<f64> {
    let a = &g[key];
    if a.dtype == DType::Float32 {
        a.to_vec::<f32>()
            .unwrap()
            .into_iter()
            .map(f64::from)
            .collect()
    } else if a.dtype == DType::Int64 {
        a.to_vec::<i64>()
            .unwrap()
            .into_iter()
            .map(|v| v as f64)
            .collect()
    } else {
        a.to_vec::<f64>().unwrap()
    }
}

/// Runs the golden function `name` (`"sici.1"`: output 1 of `sici`;
/// `"sici.c1"` the same of its complex loop) on the set `key`'s inputs;
/// the result in `dtype`.
fn run(g: &HashMap<String, NpyArray>, name: &str, key: &str, dtype: DType) -> Array {
    let (base, k) = match name.split_once('.') {
        Some((b, k)) => (b, k.trim_start_matches('c').parse::<usize>().unwrap_or(0)),
        None => (name, 0),
    };
    let u = gpu_special::get(base).unwrap();
    let inputs: Vec<Array> = ["x", "y", "z", "w"]
        .iter()
        .filter_map(|c| g.get(&format!("{key}__{c}")))
        .map(|a| Array::from_npy(a).unwrap())
        .collect();
    let args: Vec<ufunc::Input<'_>> = inputs.iter().map(|a| a.into()).collect();
    let out = ufunc::call(u, &args, &UfuncOptions::default())
        .unwrap_or_else(|e| panic!("{key}: {e}"))
        .remove(k);
    assert_eq!(out.dtype(), dtype, "{key}: SciPy's loop keeps the dtype");
    out
}

/// The inputs of point `k` of the set `key`, for messages.
fn point(g: &HashMap<String, NpyArray>, key: &str, k: usize) -> String {
    ["x", "y", "z", "w"]
        .iter()
        .filter(|c| g.contains_key(&format!("{key}__{c}")))
        .map(|c| {
            let member = format!("{key}__{c}");
            if g[&member].dtype.is_complex() {
                format!("{:e}", complex::values(g, &member)[k])
            } else {
                format!("{:e}", values(g, &member)[k])
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One test per golden family (`testdata/golden_<family>.npz`), so the
/// harness runs the families side by side: each compiles its own
/// kernels, and one test over all of them spent minutes compiling one
/// kernel after another.
macro_rules! families {
    ($($family:ident),* $(,)?) => {
        $(
            #[test]
            fn $family() {
                family(stringify!($family));
            }
        )*
        const FAMILIES: &[&str] = &[$(stringify!($family)),*];
    };
}

families!(
    base,
    elementary,
    bessel,
    bessel_real,
    incgamma,
    incbeta,
    cdfinv,
    expint,
    gammafn,
    hyper,
    celementary,
    cerf,
    cgamma,
    cexpint,
    csph,
    cbessel,
    chyper,
);

/// Every golden file has its family's test above, and every function of
/// the table has goldens, except those of complex output, which the
/// goldens (real values) cannot hold: lambertw is checked against
/// SciPy's values in calls.rs (`lambertw_as_scipy`). Reads files only.
#[test]
fn every_function_has_goldens_and_every_golden_a_test() {
    let mut tested: Vec<String> = Vec::new();
    for (family, g) in goldens() {
        assert!(
            FAMILIES.contains(&family.as_str()),
            "golden_{family}.npz has no test: add it to `families!`"
        );
        tested.extend(
            g.keys()
                .filter_map(|k| k.strip_suffix("__goal"))
                .map(|n| n.split('.').next().unwrap().to_string()),
        );
    }
    const NO_GOLDENS: [&str; 1] = ["lambertw"];
    for u in gpu_special::all() {
        assert!(
            NO_GOLDENS.contains(&u.name()) || tested.iter().any(|t| t == u.name()),
            "{} has no goldens",
            u.name()
        );
    }
}

/// The goals are the golden's (`<name>__goal`: the float64 bound, NaN
/// for "SciPy's own error", and the float32 bound; see
/// testdata/golden_common.py): float64 at most 4 ulp for the
/// elementary-like functions, float32 at most 2. Functions whose error
/// near their zeros or from their arguments' conditioning no
/// implementation avoids (SciPy's neither) are held to SciPy's own error
/// instead: Cuprum's max at most twice SciPy's, or SciPy's + 4.
///
/// Edges must be SciPy's value exactly (NaN for NaN, the sign of 0 and
/// inf); a finite one may differ by rounding, and where SciPy is itself
/// inexact (an underflow to 0 where the true value is normal, a finite
/// value where the true one overflows) mpmath's value at finite inputs
/// is accepted instead.
///
/// With `CUPRUM_SPECIAL_TABLE=path` the family's rows are appended to
/// that markdown file (families in the order their tests finish).
fn family(family: &str) {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let g = gpu_testing::npz_members(dir.join(format!("golden_{family}.npz")));
    let mut table = format!("| **{family}** | | | | | | | | |\n");
    let mut failures: Vec<String> = Vec::new();
    let mut names: Vec<String> = g
        .keys()
        .filter_map(|k| k.strip_suffix("__goal").map(str::to_string))
        .collect();
    names.sort();
    for name in names {
        let goal = values(&g, &format!("{name}__goal"));
        let set = Set {
            g: &g,
            name: &name,
            goal: &goal,
        };
        for (tag, dtype) in [("f8", DType::Float64), ("f4", DType::Float32)] {
            if g.contains_key(&format!("{name}__{tag}__range__ref")) {
                set.check::<f64>(tag, dtype, &mut table, &mut failures);
            }
        }
        for (tag, dtype) in [("c16", DType::Complex128), ("c8", DType::Complex64)] {
            if g.contains_key(&format!("{name}__{tag}__range__ref")) {
                set.check::<Complex<f64>>(tag, dtype, &mut table, &mut failures);
            }
        }
    }
    println!("{table}");
    if let Ok(path) = std::env::var("CUPRUM_SPECIAL_TABLE") {
        // One family's block at a time: the tests run in parallel. Safe to
        // share: the lock guards only this append to the table file named
        // by CUPRUM_SPECIAL_TABLE (a test-run output, read by no test), it
        // holds no data, and no GPU work or stream is touched while it is
        // held; a panicking holder leaves nothing half-updated but the
        // file, so a poisoned lock is taken over.
        static FILE: Mutex<()> = Mutex::new(());
        let _guard = FILE.lock().unwrap_or_else(|p| p.into_inner());
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        std::io::Write::write_all(&mut f, table.as_bytes()).unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A golden value: `f64` in the real sets (errors in ulps of the dtype),
/// `Complex<f64>` in the complex ones (errors normwise, in epsilons).
trait Value: Copy + std::fmt::LowerExp {
    fn load(g: &HashMap<String, NpyArray>, key: &str) -> Vec<Self>;
    fn fetch(a: &Array) -> Vec<Self>;
    fn error(got: Self, want: Self, dtype: DType) -> f64;
    /// Equal as the edges demand: NaN with NaN, the sign of 0 and inf.
    fn same(a: Self, b: Self) -> bool;
    /// Within `tol` error units of `b`, finite where `b` is.
    fn close(a: Self, b: Self, tol: f64, dtype: DType) -> bool;
    /// mpmath's `m` is a value (not NaN) and `a` is within `tol` of it.
    fn is_true(a: Self, m: Self, tol: f64, dtype: DType) -> bool;
}

impl Value for f64 {
    fn load(g: &HashMap<String, NpyArray>, key: &str) -> Vec<Self> {
        values(g, key)
    }
    fn fetch(a: &Array) -> Vec<Self> {
        a.to_vec_as::<f64>().unwrap()
    }
    fn error(got: Self, want: Self, dtype: DType) -> f64 {
        ulps(got, want, dtype)
    }
    fn same(a: Self, b: Self) -> bool {
        (a.is_nan() && b.is_nan()) || (a == b && a.is_sign_negative() == b.is_sign_negative())
    }
    fn close(a: Self, b: Self, tol: f64, dtype: DType) -> bool {
        a.is_finite() && b.is_finite() && b != 0.0 && ulps(a, b, dtype) <= tol
    }
    fn is_true(a: Self, m: Self, tol: f64, dtype: DType) -> bool {
        !m.is_nan() && (a == m || (m != 0.0 && a.is_finite() && ulps(a, m, dtype) <= tol))
    }
}

/// A number for the table: whole numbers as they are, others to 0.1.
fn num(v: f64) -> String {
    if v.fract() == 0.0 || !v.is_finite() {
        format!("{v}")
    } else {
        format!("{v:.1}")
    }
}

/// One function (or one output of one) of a family's goldens.
struct Set<'a> {
    g: &'a HashMap<String, NpyArray>,
    name: &'a str,
    goal: &'a [f64],
}

impl Set<'_> {
    /// Runs [`run`] on the set `key` and reads the result as `T`s.
    fn evaluate<T: Value>(&self, key: &str, dtype: DType) -> Vec<T> {
        T::fetch(&run(self.g, self.name, key, dtype))
    }

    /// The set in one dtype: its table row, and its failures. The bound
    /// is the float32 goal in single precision (float32, complex64), else
    /// the float64 goal, or, where that is NaN, SciPy's own error: near
    /// its zeros (or where its arguments are ill-conditioned) a function's
    /// error is rounding noise times the condition number for any
    /// implementation, so SciPy's worst, doubled.
    fn check<T: Value>(
        &self,
        tag: &str,
        dtype: DType,
        table: &mut String,
        failures: &mut Vec<String>,
    ) {
        let (g, name) = (self.g, self.name);
        let key = format!("{name}__{tag}__range");
        let want = T::load(g, &format!("{key}__ref"));
        let scipy = T::load(g, &format!("{key}__scipy"));
        let got: Vec<T> = self.evaluate(&key, dtype);
        let ours: Vec<f64> = got
            .iter()
            .zip(&want)
            .map(|(&a, &b)| T::error(a, b, dtype))
            .collect();
        let theirs: Vec<f64> = scipy
            .iter()
            .zip(&want)
            .map(|(&a, &b)| T::error(a, b, dtype))
            .collect();
        let worst = ours
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(k, _)| k)
            .unwrap_or(0);
        let (max, p) = stats(ours);
        let (smax, sp) = stats(theirs);
        let bound = if matches!(dtype, DType::Float32 | DType::Complex64) {
            self.goal[1]
        } else if self.goal[0].is_nan() {
            (2.0 * smax).max(smax + 4.0)
        } else {
            self.goal[0]
        };
        let ekey = format!("{name}__{tag}__edge");
        let ewant = T::load(g, &format!("{ekey}__ref"));
        let emp = T::load(g, &format!("{ekey}__mp"));
        let egot: Vec<T> = self.evaluate(&ekey, dtype);
        let mut edge_misses = Vec::new();
        for (k, (&a, &b)) in egot.iter().zip(&ewant).enumerate() {
            // A finite edge result (e.g. gamma(0.5)) may differ by
            // rounding; where SciPy under- or overflows, mpmath has the
            // true value.
            let m = emp[k];
            if !(T::same(a, b)
                || T::close(a, b, 4.0f64.max(smax), dtype)
                || T::is_true(a, m, 4.0f64.max(bound), dtype))
            {
                edge_misses.push(format!(
                    "({}) -> {a:e}, SciPy {b:e}, mpmath {m:e}",
                    point(g, &ekey, k)
                ));
            }
        }
        let _ = writeln!(
            table,
            "| {name} | {dtype} | {} | {} | {} | {} | {} | {} | {} |",
            num(max),
            num(p),
            num(smax),
            num(sp),
            num(bound),
            want.len(),
            if edge_misses.is_empty() {
                "all".to_string()
            } else {
                format!("{} differ", edge_misses.len())
            }
        );
        if max > bound {
            failures.push(format!(
                "{name} {dtype}: max {} > {} (SciPy {}) at ({}): got {:e}, want {:e}",
                num(max),
                num(bound),
                num(smax),
                point(g, &key, worst),
                got[worst],
                want[worst]
            ));
        }
        if !edge_misses.is_empty() {
            edge_misses.truncate(12);
            failures.push(format!("{name} {dtype} edges: {}", edge_misses.join("; ")));
        }
    }
}

/// The complex loops' sets ("c16", "c8"; `<func>.c` in the goldens, see
/// testdata/golden_common.py). A part of a complex value near zero
/// carries no relative accuracy of its own, so the error is normwise:
/// `|got - want| / |want|` in units of the dtype's epsilon.
mod complex {
    use super::*;

    pub(super) fn values(g: &HashMap<String, NpyArray>, key: &str) -> Vec<Complex<f64>> {
        let a = &g[key];
        if a.dtype == DType::Complex64 {
            a.to_vec::<Complex<f32>>()
                .unwrap()
                .into_iter()
                .map(|z| Complex::new(f64::from(z.re), f64::from(z.im)))
                .collect()
        } else {
            a.to_vec::<Complex<f64>>().unwrap()
        }
    }

    fn epsilon(dtype: DType) -> f64 {
        if dtype == DType::Complex64 {
            f64::from(f32::EPSILON)
        } else {
            f64::EPSILON
        }
    }

    /// The normwise error in epsilons; NaN parts must be NaN together and
    /// infinite parts equal, or the error is infinite.
    fn error(got: Complex<f64>, want: Complex<f64>, dtype: DType) -> f64 {
        let nan = |z: Complex<f64>| (z.re.is_nan(), z.im.is_nan());
        if nan(got) != nan(want) {
            return f64::INFINITY;
        }
        if got.re.is_nan() || got.im.is_nan() {
            let other = |a: f64, b: f64| a.is_nan() || a == b;
            return if other(got.re, want.re) && other(got.im, want.im) {
                0.0
            } else {
                f64::INFINITY
            };
        }
        if !(got.is_finite() && want.is_finite()) {
            return if got == want { 0.0 } else { f64::INFINITY };
        }
        if want == Complex::new(0.0, 0.0) {
            return if got == want { 0.0 } else { f64::INFINITY };
        }
        (got - want).norm() / want.norm() / epsilon(dtype)
    }

    /// Equal as the edges demand: NaN with NaN, the sign of 0 and inf.
    fn same(a: Complex<f64>, b: Complex<f64>) -> bool {
        let part = |x: f64, y: f64| {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        };
        part(a.re, b.re) && part(a.im, b.im)
    }

    /// An edge's parts agree: each non-finite part exactly ([`same`]), each
    /// finite one within `tol` relative to the finite parts' norm of `b`
    /// (gamma(5e-324i) is about 0.577 - inf i: its real part is finite).
    fn parts_close(a: Complex<f64>, b: Complex<f64>, tol: f64) -> bool {
        // hypot, not the sum of squares: a part below 1e-154 squares to
        // 0 and would leave no tolerance at all.
        let finite = |v: f64| if v.is_finite() { v } else { 0.0 };
        let norm = finite(b.re).hypot(finite(b.im));
        let part = |x: f64, y: f64| {
            if x.is_finite() && y.is_finite() {
                (x - y).abs() <= tol * norm
            } else {
                (x.is_nan() && y.is_nan()) || (x == y)
            }
        };
        part(a.re, b.re) && part(a.im, b.im)
    }

    impl Value for Complex<f64> {
        fn load(g: &HashMap<String, NpyArray>, key: &str) -> Vec<Self> {
            values(g, key)
        }
        fn fetch(a: &Array) -> Vec<Self> {
            a.to_vec_as::<Complex<f64>>().unwrap()
        }
        fn error(got: Self, want: Self, dtype: DType) -> f64 {
            error(got, want, dtype)
        }
        fn same(a: Self, b: Self) -> bool {
            same(a, b)
        }
        fn close(a: Self, b: Self, tol: f64, dtype: DType) -> bool {
            parts_close(a, b, tol * epsilon(dtype))
        }
        fn is_true(a: Self, m: Self, tol: f64, dtype: DType) -> bool {
            !(m.re.is_nan() || m.im.is_nan()) && parts_close(a, m, tol * epsilon(dtype))
        }
    }
}
