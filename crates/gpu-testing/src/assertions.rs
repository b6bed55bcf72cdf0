//! The assertions of `numpy.testing` / `cupy.testing`, on anything that is
//! a [`HostView`].
//!
//! Each `assert_*` panics (at the caller, `#[track_caller]`) with NumPy's
//! report; each has a `check_*` twin that returns the report as
//! `Err(String)` instead, for callers that add context or collect failures.
//!
//! Common rules, as `numpy.testing.assert_array_compare`:
//!
//! - shapes must be equal, except that a 0-d operand (a scalar) is compared
//!   with every element of the other; `strict` variants also refuse that and
//!   require equal dtypes;
//! - NaN must sit at the same positions in both and there counts as equal
//!   (`equal_nan`, switchable only for [`assert_allclose_with`]);
//! - `+inf` and `-inf` must sit at the same positions in both (except in
//!   [`assert_array_less`], which compares them as values);
//! - `0.0 == -0.0`;
//! - integers compare exactly, also `int64` against `uint64` (NumPy goes
//!   through float64 there).

use std::cmp::Ordering;

use gpu_array::DType;
use gpu_array::dtype::{common_type, promote_types};

use crate::format::{fmt_array, fmt_element, fmt_float, fmt_g, fmt_index};
use crate::host::{HostArray, HostView};
use crate::tolerance::Tolerance;
use crate::ulp::{integer_repr, round_to, spacing, spacing_dtype};
use crate::value::{Mag, Val};

/// Options of [`assert_allclose_with`], defaulting to NumPy's
/// (`rtol=1e-7, atol=0, equal_nan=True, strict=False`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct AllcloseParams {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Whether NaN equals NaN (at the same positions).
    pub equal_nan: bool,
    /// Whether shapes must be equal without scalar broadcasting and dtypes
    /// must be equal.
    pub strict: bool,
}

impl AllcloseParams {
    /// Sets `rtol`.
    ///
    /// ```
    /// use gpu_testing::{AllcloseParams, assert_allclose_with};
    /// let p = AllcloseParams::default().rtol(1e-3);
    /// assert_allclose_with(&[100.05], &[100.0], &p); // 5e-4 relative
    /// ```
    #[must_use]
    pub fn rtol(mut self, rtol: f64) -> AllcloseParams {
        self.rtol = rtol;
        self
    }

    /// Sets `atol`.
    ///
    /// ```
    /// use gpu_testing::{AllcloseParams, check_allclose_with};
    /// let p = AllcloseParams::default().atol(1e-6);
    /// assert!(check_allclose_with(&[5e-7], &[0.0], &p).is_ok());
    /// assert!(check_allclose_with(&[5e-7], &[0.0], &AllcloseParams::default()).is_err());
    /// ```
    #[must_use]
    pub fn atol(mut self, atol: f64) -> AllcloseParams {
        self.atol = atol;
        self
    }

    /// Sets `equal_nan`.
    ///
    /// ```
    /// use gpu_testing::{AllcloseParams, check_allclose_with};
    /// let strict_nan = AllcloseParams::default().equal_nan(false);
    /// assert!(check_allclose_with(&[f64::NAN], &[f64::NAN], &strict_nan).is_err());
    /// ```
    #[must_use]
    pub fn equal_nan(mut self, equal_nan: bool) -> AllcloseParams {
        self.equal_nan = equal_nan;
        self
    }

    /// Sets `strict`.
    ///
    /// ```
    /// use gpu_testing::{AllcloseParams, check_allclose_with};
    /// let p = AllcloseParams::default().strict(true);
    /// assert!(check_allclose_with(&[1.0f32], &[1.0f64], &p).is_err()); // dtypes differ
    /// assert!(check_allclose_with(&[1.0f32, 1.0], &1.0f32, &p).is_err()); // scalar against array
    /// ```
    #[must_use]
    pub fn strict(mut self, strict: bool) -> AllcloseParams {
        self.strict = strict;
        self
    }
}

impl Default for AllcloseParams {
    fn default() -> AllcloseParams {
        AllcloseParams {
            rtol: 1e-7,
            atol: 0.0,
            equal_nan: true,
            strict: false,
        }
    }
}

impl From<Tolerance> for AllcloseParams {
    fn from(t: Tolerance) -> AllcloseParams {
        AllcloseParams {
            rtol: t.rtol,
            atol: t.atol,
            ..AllcloseParams::default()
        }
    }
}

/// How one assertion compares: `numpy.testing.assert_array_compare`'s knobs.
struct Spec<'a> {
    header: String,
    names: [&'static str; 2],
    equal_nan: bool,
    equal_inf: bool,
    strict: bool,
    test: &'a dyn Fn(Val, Val) -> bool,
}

fn read<A: HostView + ?Sized>(x: &A, name: &str) -> Result<HostArray, String> {
    x.to_host()
        .map_err(|e| format!("cannot read {name} on the host: {e}"))
}

/// A shape as a Python tuple: `(2, 3)`, `(4,)`, `()`.
fn py_shape(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(ToString::to_string).collect();
            format!("({})", parts.join(", "))
        }
    }
}

/// The full report: header, remarks, then both operands.
fn report(header: &str, body: &str, names: [&str; 2], x: &HostArray, y: &HostArray) -> String {
    format!(
        "{header}\n\n{body}\n {}: {}\n {}: {}",
        names[0],
        fmt_array(x, 3),
        names[1],
        fmt_array(y, 3)
    )
}

/// The shape both operands are compared in, or the reason they cannot be.
fn compared_shape(x: &HostArray, y: &HostArray, strict: bool) -> Result<Vec<usize>, String> {
    let shapes_ok = x.shape == y.shape || (!strict && (x.shape.is_empty() || y.shape.is_empty()));
    if !shapes_ok {
        return Err(format!(
            "(shapes {}, {} mismatch)",
            py_shape(&x.shape),
            py_shape(&y.shape)
        ));
    }
    if strict && x.dtype != y.dtype {
        return Err(format!("(dtypes {}, {} mismatch)", x.dtype, y.dtype));
    }
    Ok(if x.shape.is_empty() {
        y.shape.clone()
    } else {
        x.shape.clone()
    })
}

/// Element `i` of the compared shape (a 0-d operand repeats its element).
fn at(a: &HostArray, i: usize) -> Val {
    a.val(if a.shape.is_empty() { 0 } else { i })
}

fn fmt_at(a: &HostArray, i: usize) -> String {
    fmt_element(a, if a.shape.is_empty() { 0 } else { i })
}

/// A magnitude of a difference of `x` and `y`, printed in their common dtype.
fn fmt_mag(m: Mag, x: &HostArray, y: &HostArray) -> String {
    match m {
        Mag::I(i) => i.to_string(),
        Mag::F(v) => fmt_float(result_real_dtype(x, y), v),
    }
}

/// The real floating dtype NumPy computes differences of `x` and `y` in.
fn result_real_dtype(x: &HostArray, y: &HostArray) -> DType {
    let r = promote_types(x.dtype, y.dtype);
    if r.is_inexact() {
        r.real_dtype()
    } else {
        DType::Float64
    }
}

/// The remarks on mismatching elements `bad` (C-order indices of `shape`):
/// count and share, the first five positions with both values, and the
/// largest absolute and relative differences among them.
fn mismatch_remarks(
    x: &HostArray,
    y: &HostArray,
    shape: &[usize],
    bad: &[usize],
    names: [&str; 2],
) -> String {
    let total: usize = shape.iter().product();
    let mut lines = vec![format!(
        "Mismatched elements: {} / {} ({}%)",
        bad.len(),
        total,
        fmt_g(100.0 * bad.len() as f64 / total as f64, 3)
    )];
    if !shape.is_empty() {
        lines.push(
            match bad.len() {
                1 => "Mismatch at index:",
                2..=5 => "Mismatch at indices:",
                _ => "First 5 mismatches are at indices:",
            }
            .to_owned(),
        );
        for &i in bad.iter().take(5) {
            lines.push(format!(
                " {}: {} ({}), {} ({})",
                fmt_index(shape, i),
                fmt_at(x, i),
                names[0],
                fmt_at(y, i),
                names[1]
            ));
        }
    }
    // NumPy cannot subtract booleans and leaves the differences out.
    if !(x.dtype == DType::Bool && y.dtype == DType::Bool) {
        let mut max_abs: Option<Mag> = None;
        let mut max_rel: Option<f64> = None;
        for &i in bad {
            let (a, d) = (at(x, i), at(y, i));
            let err = Val::abs_diff(a, d);
            max_abs = Some(max_abs.map_or(err, |m| m.max(err)));
            if !d.is_zero() {
                let rel = err.as_f64() / d.abs().as_f64();
                max_rel = Some(match max_rel {
                    Some(m) if m.is_nan() || rel.is_nan() => f64::NAN,
                    Some(m) => m.max(rel),
                    None => rel,
                });
            }
        }
        if let Some(m) = max_abs {
            lines.push(format!(
                "Max absolute difference among violations: {}",
                fmt_mag(m, x, y)
            ));
            lines.push(format!(
                "Max relative difference among violations: {}",
                fmt_float(result_real_dtype(x, y), max_rel.unwrap_or(f64::INFINITY))
            ));
        }
    }
    lines.join("\n")
}

/// A test for NaN, `+inf` or `-inf`.
type SpecialValue = fn(Val) -> bool;

/// `numpy.testing.assert_array_compare`.
fn compare(x: &HostArray, y: &HostArray, spec: &Spec<'_>) -> Result<(), String> {
    let fail = |body: &str| Err(report(&spec.header, body, spec.names, x, y));
    let shape = match compared_shape(x, y, spec.strict) {
        Ok(s) => s,
        Err(reason) => return fail(&reason),
    };
    let n: usize = shape.iter().product();
    let mut flagged = vec![false; n];
    let special: [(bool, SpecialValue, &str); 3] = [
        (spec.equal_nan, Val::is_nan, "nan"),
        (spec.equal_inf, Val::is_pos_inf, "+inf"),
        (spec.equal_inf, Val::is_neg_inf, "-inf"),
    ];
    for (enabled, is_special, what) in special {
        if !enabled {
            continue;
        }
        for (i, flag) in flagged.iter_mut().enumerate() {
            let (fx, fy) = (is_special(at(x, i)), is_special(at(y, i)));
            if fx != fy {
                return fail(&format!("x and y {what} location mismatch:"));
            }
            *flag |= fx;
        }
    }
    let bad: Vec<usize> = (0..n)
        .filter(|&i| !flagged[i] && !(spec.test)(at(x, i), at(y, i)))
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        fail(&mismatch_remarks(x, y, &shape, &bad, spec.names))
    }
}

const ACTUAL_DESIRED: [&str; 2] = ["ACTUAL", "DESIRED"];

fn allclose_hosts(
    actual: &HostArray,
    desired: &HostArray,
    p: &AllcloseParams,
) -> Result<(), String> {
    let (rtol, atol) = (p.rtol, p.atol);
    compare(
        actual,
        desired,
        &Spec {
            header: format!(
                "Not equal to tolerance rtol={}, atol={}",
                fmt_g(rtol, 6),
                fmt_g(atol, 6)
            ),
            names: ACTUAL_DESIRED,
            equal_nan: p.equal_nan,
            equal_inf: true,
            strict: p.strict,
            test: &|a, d| Val::isclose(a, d, rtol, atol),
        },
    )
}

/// [`assert_allclose_with`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::{AllcloseParams, check_allclose_with};
/// let report = check_allclose_with(&[1.0, 2.5], &[1.0, 2.0], &AllcloseParams::default()).unwrap_err();
/// assert!(report.contains("Mismatched elements: 1 / 2"));
/// ```
///
/// # Errors
///
/// The report, when the arrays are not close or cannot be read.
pub fn check_allclose_with<A, D>(
    actual: &A,
    desired: &D,
    params: &AllcloseParams,
) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    allclose_hosts(&read(actual, "ACTUAL")?, &read(desired, "DESIRED")?, params)
}

/// [`assert_allclose`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_allclose;
/// assert!(check_allclose(&[1.0, 2.0 + 1e-9], &[1.0, 2.0], 1e-7, 0.0).is_ok());
/// let report = check_allclose(&[1.1], &[1.0], 1e-7, 0.0).unwrap_err();
/// assert!(report.contains("Not equal to tolerance rtol=1e-07, atol=0"));
/// ```
///
/// # Errors
///
/// The report, when the arrays are not close or cannot be read.
pub fn check_allclose<A, D>(actual: &A, desired: &D, rtol: f64, atol: f64) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    let params = AllcloseParams {
        rtol,
        atol,
        ..AllcloseParams::default()
    };
    check_allclose_with(actual, desired, &params)
}

/// [`assert_allclose_default`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_allclose_default;
/// // float32 against float64: float32's tolerance (rtol 1e-5) applies.
/// assert!(check_allclose_default(&[1.000_001f32], &[1.0f64]).is_ok());
/// assert!(check_allclose_default(&[1.000_001f64], &[1.0f64]).is_err());
/// ```
///
/// # Errors
///
/// The report, when the arrays are not close or cannot be read.
pub fn check_allclose_default<A, D>(actual: &A, desired: &D) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    let (a, d) = (read(actual, "ACTUAL")?, read(desired, "DESIRED")?);
    let params = AllcloseParams::from(Tolerance::for_pair(a.dtype, d.dtype));
    allclose_hosts(&a, &d, &params)
}

/// `assert_allclose(actual, desired, rtol, atol)`: every element satisfies
/// `|actual - desired| <= atol + rtol * |desired|`, NaN matching NaN.
///
/// ```
/// use gpu_testing::assert_allclose;
/// assert_allclose(&[1.0, 2.0 + 1e-9, f64::NAN], &[1.0, 2.0, f64::NAN], 1e-7, 0.0);
/// ```
///
/// # Panics
///
/// With NumPy's report ("Not equal to tolerance rtol=1e-07, atol=0",
/// "Mismatched elements: 1 / 3 (33.3%)", the mismatching indices and values,
/// "Max absolute difference among violations: ...", "Max relative
/// difference among violations: ...", both arrays) when an element is not
/// close, NaN or infinities sit at different positions, or the shapes differ.
#[track_caller]
pub fn assert_allclose<A, D>(actual: &A, desired: &D, rtol: f64, atol: f64)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_allclose(actual, desired, rtol, atol) {
        panic!("{e}");
    }
}

/// `assert_allclose` with every option of NumPy's
/// (`AllcloseParams::default().rtol(1e-5).equal_nan(false)`).
///
/// ```
/// use gpu_testing::{AllcloseParams, assert_allclose_with};
/// let p = AllcloseParams::default().rtol(1e-5).atol(1e-8);
/// assert_allclose_with(&ndarray::array![1.0, 2.0], &[1.000_001, 2.0], &p);
/// ```
///
/// # Panics
///
/// As [`assert_allclose`]; with `strict`, also on differing dtypes or a
/// scalar against an array; without `equal_nan`, on any NaN.
#[track_caller]
pub fn assert_allclose_with<A, D>(actual: &A, desired: &D, params: &AllcloseParams)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_allclose_with(actual, desired, params) {
        panic!("{e}");
    }
}

/// `assert_allclose` with the per-dtype default tolerance
/// ([`Tolerance::for_pair`]: the looser of the two dtypes' defaults, so a
/// float16 GPU result against a float64 reference gets float16's).
///
/// ```
/// use gpu_testing::assert_allclose_default;
/// // A float16-exact result checked against a float64 reference with float16's tolerance.
/// assert_allclose_default(&[half::f16::from_f64(0.1)], &[0.1f64]);
/// ```
///
/// # Panics
///
/// As [`assert_allclose`].
#[track_caller]
pub fn assert_allclose_default<A, D>(actual: &A, desired: &D)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_allclose_default(actual, desired) {
        panic!("{e}");
    }
}

fn array_equal(x: &HostArray, y: &HostArray, strict: bool) -> Result<(), String> {
    compare(
        x,
        y,
        &Spec {
            header: "Arrays are not equal".to_owned(),
            names: ACTUAL_DESIRED,
            equal_nan: true,
            equal_inf: true,
            strict,
            test: &Val::eq,
        },
    )
}

/// [`assert_array_equal`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_equal;
/// assert!(check_array_equal(&[1, 2, 3], &[1.0, 2.0, 3.0]).is_ok());
/// let report = check_array_equal(&[1, 2, 3], &[1, 2, 4]).unwrap_err();
/// assert!(report.contains("Arrays are not equal"));
/// ```
///
/// # Errors
///
/// The report, when the arrays differ or cannot be read.
pub fn check_array_equal<A, D>(actual: &A, desired: &D) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    array_equal(&read(actual, "ACTUAL")?, &read(desired, "DESIRED")?, false)
}

/// `assert_array_equal(actual, desired)`: equal shapes (or one side a
/// scalar) and equal elements; NaN equals NaN, `0.0` equals `-0.0`, values
/// of different dtypes compare by value (`1i32` equals `1.0f64`).
///
/// ```
/// use gpu_testing::assert_array_equal;
/// let a = ndarray::array![[1i32, 2], [3, 4]];
/// assert_array_equal(&a, &ndarray::array![[1.0, 2.0], [3.0, 4.0]]);
/// assert_array_equal(&[7u8, 7, 7], &7u8);
/// ```
///
/// # Panics
///
/// With NumPy's report, headed "Arrays are not equal".
#[track_caller]
pub fn assert_array_equal<A, D>(actual: &A, desired: &D)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_array_equal(actual, desired) {
        panic!("{e}");
    }
}

/// [`assert_array_equal_strict`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_equal_strict;
/// assert!(check_array_equal_strict(&[1i32, 2], &[1i32, 2]).is_ok());
/// assert!(check_array_equal_strict(&[1i32, 2], &[1i64, 2]).is_err()); // dtypes differ
/// ```
///
/// # Errors
///
/// The report, when the arrays differ or cannot be read.
pub fn check_array_equal_strict<A, D>(actual: &A, desired: &D) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    array_equal(&read(actual, "ACTUAL")?, &read(desired, "DESIRED")?, true)
}

/// `assert_array_equal(actual, desired, strict=True)`: as
/// [`assert_array_equal`], and the shapes and dtypes must be equal (no
/// scalar broadcasting).
///
/// ```
/// use gpu_testing::assert_array_equal_strict;
/// assert_array_equal_strict(&ndarray::array![[1u8, 2]], &ndarray::array![[1u8, 2]]);
/// ```
///
/// # Panics
///
/// With NumPy's report; "(dtypes float32, float64 mismatch)" for dtypes.
#[track_caller]
pub fn assert_array_equal_strict<A, D>(actual: &A, desired: &D)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_array_equal_strict(actual, desired) {
        panic!("{e}");
    }
}

/// [`assert_array_almost_equal`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_almost_equal;
/// assert!(check_array_almost_equal(&[1.0001], &[1.0], 3).is_ok());
/// let report = check_array_almost_equal(&[1.01], &[1.0], 3).unwrap_err();
/// assert!(report.contains("Arrays are not almost equal to 3 decimals"));
/// ```
///
/// # Errors
///
/// The report, when the arrays differ or cannot be read.
pub fn check_array_almost_equal<A, D>(actual: &A, desired: &D, decimal: i32) -> Result<(), String>
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    let (x, y) = (read(actual, "ACTUAL")?, read(desired, "DESIRED")?);
    // `1.5 * 10.0**(-decimal)` as Python computes it: the double nearest
    // 10**-decimal, times 1.5.
    let limit = 1.5
        * format!("1e{}", -i64::from(decimal))
            .parse::<f64>()
            .expect("a power of ten parses");
    compare(
        &x,
        &y,
        &Spec {
            header: format!("Arrays are not almost equal to {decimal} decimals"),
            names: ACTUAL_DESIRED,
            equal_nan: true,
            equal_inf: true,
            strict: false,
            test: &|a, d| Val::abs_diff(a, d).as_f64() < limit,
        },
    )
}

/// `assert_array_almost_equal(actual, desired, decimal)` (NumPy's default
/// `decimal` is 6): every element satisfies
/// `abs(desired - actual) < 1.5 * 10**(-decimal)`.
///
/// ```
/// use gpu_testing::assert_array_almost_equal;
/// assert_array_almost_equal(&[0.333_333_4, 1.0], &[1.0 / 3.0, 1.0], 6);
/// ```
///
/// # Panics
///
/// With NumPy's report, headed "Arrays are not almost equal to 6 decimals".
#[track_caller]
pub fn assert_array_almost_equal<A, D>(actual: &A, desired: &D, decimal: i32)
where
    A: HostView + ?Sized,
    D: HostView + ?Sized,
{
    if let Err(e) = check_array_almost_equal(actual, desired, decimal) {
        panic!("{e}");
    }
}

/// [`assert_array_less`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_less;
/// assert!(check_array_less(&[1, 2], &[2, 3]).is_ok());
/// assert!(check_array_less(&[1, 3], &[2, 3]).is_err()); // 3 < 3 fails
/// ```
///
/// # Errors
///
/// The report, when an element is not less or the arrays cannot be read.
pub fn check_array_less<X, Y>(x: &X, y: &Y) -> Result<(), String>
where
    X: HostView + ?Sized,
    Y: HostView + ?Sized,
{
    let (x, y) = (read(x, "x")?, read(y, "y")?);
    compare(
        &x,
        &y,
        &Spec {
            header: "Arrays are not strictly ordered `x < y`".to_owned(),
            names: ["x", "y"],
            equal_nan: true,
            equal_inf: false,
            strict: false,
            test: &Val::lt,
        },
    )
}

/// `assert_array_less(x, y)`: every element of `x` is strictly less than
/// the element of `y` (NaN at the same positions in both is skipped;
/// infinities compare as values, so `inf < inf` fails). Complex values
/// order lexicographically.
///
/// ```
/// use gpu_testing::assert_array_less;
/// assert_array_less(&[0.5, 1.5], &2.0); // a scalar bound for every element
/// ```
///
/// # Panics
///
/// With NumPy's report, headed "Arrays are not strictly ordered `x < y`".
#[track_caller]
pub fn assert_array_less<X, Y>(x: &X, y: &Y)
where
    X: HostView + ?Sized,
    Y: HostView + ?Sized,
{
    if let Err(e) = check_array_less(x, y) {
        panic!("{e}");
    }
}

/// The ULP distances of `x` and `y` in the floating dtype `t`.
fn nulp_diff(x: &HostArray, y: &HostArray, t: DType, n: usize) -> Vec<f64> {
    let real = |a: &HostArray, i| match at(a, i) {
        Val::I(v) => round_to(t, v as f64),
        Val::F(v) => round_to(t, v),
        Val::C(z) => round_to(t, z.re),
    };
    (0..n)
        .map(|i| (integer_repr(t, real(x, i)) - integer_repr(t, real(y, i))).abs() as f64)
        .collect()
}

/// [`assert_array_almost_equal_nulp`], returning the report instead of
/// panicking.
///
/// ```
/// use gpu_testing::check_array_almost_equal_nulp;
/// let next = f64::from_bits(1.0f64.to_bits() + 1);
/// assert!(check_array_almost_equal_nulp(&[next], &[1.0], 1).is_ok());
/// assert!(check_array_almost_equal_nulp(&[1.0 + 1e-9], &[1.0], 1).is_err());
/// ```
///
/// # Errors
///
/// The report, when some element differs by more than `nulp` spacings or
/// the arrays cannot be read.
pub fn check_array_almost_equal_nulp<X, Y>(x: &X, y: &Y, nulp: u32) -> Result<(), String>
where
    X: HostView + ?Sized,
    Y: HostView + ?Sized,
{
    let (x, y) = (read(x, "x")?, read(y, "y")?);
    let header = format!("Arrays are not equal to {nulp} ULP");
    let names = ["x", "y"];
    let shape =
        compared_shape(&x, &y, false).map_err(|reason| report(&header, &reason, names, &x, &y))?;
    let n: usize = shape.iter().product();
    // NumPy computes in the operands' common dtype; spacing in its real
    // floating counterpart.
    let t = spacing_dtype(promote_types(x.dtype, y.dtype));
    let bad: Vec<usize> = (0..n)
        .filter(|&i| {
            let (a, b) = Val::promote(at(&x, i), at(&y, i));
            let (ax, ay) = (round_to(t, a.abs().as_f64()), round_to(t, b.abs().as_f64()));
            let larger = if ax > ay { ax } else { ay };
            let reference = round_to(t, f64::from(nulp) * spacing(t, larger));
            let diff = round_to(t, Val::abs_diff(a, b).as_f64());
            // NaN on either side fails, as in NumPy.
            !matches!(
                diff.partial_cmp(&reference),
                Some(Ordering::Less | Ordering::Equal)
            )
        })
        .collect();
    if bad.is_empty() {
        return Ok(());
    }
    let header = match common_type(&[x.dtype, y.dtype]) {
        Ok(c) if !c.is_complex() => {
            let max = nulp_diff(&x, &y, c, n).into_iter().fold(0.0, f64::max);
            format!("{header} (max is {})", fmt_g(max, 6))
        }
        _ => header,
    };
    Err(report(
        &header,
        &mismatch_remarks(&x, &y, &shape, &bad, names),
        names,
        &x,
        &y,
    ))
}

/// `assert_array_almost_equal_nulp(x, y, nulp)`: every element satisfies
/// `|x - y| <= nulp * spacing(max(|x|, |y|))`, spacing taken in the
/// operands' common dtype (float16, bfloat16, float32 or float64; complex
/// by its real type; integers by the float NumPy's `spacing` picks). NaN
/// fails.
///
/// ```
/// use gpu_testing::assert_array_almost_equal_nulp;
/// let two_up = f32::from_bits(1.0f32.to_bits() + 2);
/// assert_array_almost_equal_nulp(&[two_up, 2.0], &[1.0f32, 2.0], 2);
/// ```
///
/// # Panics
///
/// With "Arrays are not equal to 1 ULP (max is 3)" and the report.
#[track_caller]
pub fn assert_array_almost_equal_nulp<X, Y>(x: &X, y: &Y, nulp: u32)
where
    X: HostView + ?Sized,
    Y: HostView + ?Sized,
{
    if let Err(e) = check_array_almost_equal_nulp(x, y, nulp) {
        panic!("{e}");
    }
}

/// [`assert_array_max_ulp`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_max_ulp;
/// let next = f32::from_bits(1.0f32.to_bits() + 1);
/// assert_eq!(check_array_max_ulp(&[next], &[1.0f32], 1, None), Ok(vec![1.0]));
/// assert!(check_array_max_ulp(&[next], &[1.0f32], 0, None).is_err());
/// ```
///
/// # Errors
///
/// The report, when some element differs by more than `maxulp` ULP, the
/// dtypes have no ULP (complex, `bool`, a non-floating `dtype`) or the
/// arrays cannot be read.
pub fn check_array_max_ulp<A, B>(
    a: &A,
    b: &B,
    maxulp: u64,
    dtype: Option<DType>,
) -> Result<Vec<f64>, String>
where
    A: HostView + ?Sized,
    B: HostView + ?Sized,
{
    let (x, y) = (read(a, "a")?, read(b, "b")?);
    let names = ["a", "b"];
    let t = match dtype {
        Some(t) if t.is_floating() => t,
        Some(t) => {
            return Err(format!(
                "assert_array_max_ulp needs a floating dtype, not {t}"
            ));
        }
        None => common_type(&[x.dtype, y.dtype]).map_err(|e| e.to_string())?,
    };
    if t.is_complex() {
        return Err("_nulp not implemented for complex array".to_owned());
    }
    let header = format!(
        "Arrays are not almost equal up to {} ULP",
        fmt_g(maxulp as f64, 6)
    );
    let shape =
        compared_shape(&x, &y, false).map_err(|reason| report(&header, &reason, names, &x, &y))?;
    let n: usize = shape.iter().product();
    let ulps = nulp_diff(&x, &y, t, n);
    let bad: Vec<usize> = (0..n).filter(|&i| ulps[i] > maxulp as f64).collect();
    if bad.is_empty() {
        return Ok(ulps);
    }
    let max = ulps.iter().copied().fold(0.0, f64::max);
    Err(report(
        &format!("{header} (max difference is {} ULP)", fmt_g(max, 6)),
        &mismatch_remarks(&x, &y, &shape, &bad, names),
        names,
        &x,
        &y,
    ))
}

/// `assert_array_max_ulp(a, b, maxulp, dtype)`: every element pair is at
/// most `maxulp` units in the last place apart, counted in `dtype` (both
/// sides rounded to it first) or else in the operands' `common_type`
/// (integers count as float64). NaN is 0 ULP from NaN; `0.0` and `-0.0`
/// are 0 ULP apart. Returns the distances in C order, as NumPy does.
///
/// ```
/// use gpu_testing::assert_array_max_ulp;
/// let next = f32::from_bits(1.0f32.to_bits() + 1);
/// assert_eq!(assert_array_max_ulp(&[1.0f32, 2.0], &[next, 2.0], 1, None), [1.0, 0.0]);
/// ```
///
/// # Panics
///
/// With "Arrays are not almost equal up to 1 ULP (max difference is 3 ULP)"
/// and the report; for complex operands ("_nulp not implemented for complex
/// array"), `bool`, or a non-floating `dtype`.
#[track_caller]
pub fn assert_array_max_ulp<A, B>(a: &A, b: &B, maxulp: u64, dtype: Option<DType>) -> Vec<f64>
where
    A: HostView + ?Sized,
    B: HostView + ?Sized,
{
    check_array_max_ulp(a, b, maxulp, dtype).unwrap_or_else(|e| panic!("{e}"))
}

/// [`assert_array_list_equal`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::check_array_list_equal;
/// assert!(check_array_list_equal(&[[1, 2], [3, 4]], &[[1, 2], [3, 4]]).is_ok());
/// let report = check_array_list_equal(&[[1, 2]], &[[1, 2], [3, 4]]).unwrap_err();
/// assert!(report.contains("List size is different: 1 and 2"));
/// ```
///
/// # Errors
///
/// The report, when the lists differ in length or in an array.
pub fn check_array_list_equal<A, D>(actual: &[A], desired: &[D]) -> Result<(), String>
where
    A: HostView,
    D: HostView,
{
    if actual.len() != desired.len() {
        return Err(format!(
            "List size is different: {} and {}",
            actual.len(),
            desired.len()
        ));
    }
    for (i, (x, y)) in actual.iter().zip(desired).enumerate() {
        check_array_equal(x, y).map_err(|e| format!("Arrays at list index {i} differ:\n{e}"))?;
    }
    Ok(())
}

/// `cupy.testing.assert_array_list_equal(xlist, ylist)`: the lists have the
/// same length and their arrays are pairwise equal ([`assert_array_equal`]).
/// Lists of mixed kinds work through references:
/// `assert_array_list_equal(&[&a as &dyn HostView, &b], ...)`.
///
/// ```
/// use gpu_testing::assert_array_list_equal;
/// assert_array_list_equal(&[vec![1.0, 2.0], vec![3.0]], &[vec![1.0, 2.0], vec![3.0]]);
/// ```
///
/// # Panics
///
/// "List size is different: 2 and 3", or "Arrays at list index 1 differ:"
/// followed by [`assert_array_equal`]'s report.
#[track_caller]
pub fn assert_array_list_equal<A, D>(actual: &[A], desired: &[D])
where
    A: HostView,
    D: HostView,
{
    if let Err(e) = check_array_list_equal(actual, desired) {
        panic!("{e}");
    }
}
