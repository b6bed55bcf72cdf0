//! Every ufunc over every type loop against NumPy's own outputs.
//!
//! The oracle is `testdata/ufunc/ufunc_golden.npz` and `nep50.tsv`, written
//! by `testdata/ufunc/make_golden.py` (`cargo xtask golden`, NumPy 2): for
//! each ufunc and each loop of its table, 64 random inputs of exactly the
//! loop's dtypes with NaN, +-inf, -0.0, huge, tiny and subnormal floats and
//! MIN/MAX/0/-1 integers, and NumPy's outputs. bfloat16 loops, which NumPy
//! lacks, are checked against float32 results rounded to bfloat16.
//!
//! - `loops::<ufunc>` (GPU): each loop on contiguous inputs (the result
//!   dtype must be NumPy's; floats within a per-dtype tolerance, NaN and
//!   infinities at the same places, zeros with the same sign; integers and
//!   bools exactly), then the first float32 loop and the first complex128
//!   (else int8) loop on a broadcast (stride 0), a reversed (negative
//!   stride), a transposed and an unaligned operand and into a strided
//!   `out=`. Every failure of a ufunc is collected and reported together.
//! - `golden_covers_every_loop`, `exact_dtypes_select_the_loop`,
//!   `nep50_result_dtypes` (host): the goldens match the table, inputs of a
//!   loop's dtypes select that loop, and NEP 50 weak scalars resolve to
//!   NumPy's dtype or error.
//! - `nep50_values` (GPU): the NEP 50 calls' values.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use gpu_array::dtype::{Operand, ScalarKind, ScalarValue};
use gpu_array::npy::NpyArray;
use gpu_array::ufunc::{self, Input, Ufunc, UfuncOptions, UfuncParams};
use gpu_array::{Array, DType, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::host::{HostArray, HostData, HostView};
use gpu_testing::{AllcloseParams, check_allclose_with, check_array_equal, npz_members};
use num_complex::Complex;

use crate::common::testdata;

/// Elements per golden input.
const N: usize = 64;

/// The golden arrays by name (`add/ff->f/x0`, `nep50/3/y`).
fn golden() -> &'static HashMap<String, NpyArray> {
    static G: OnceLock<HashMap<String, NpyArray>> = OnceLock::new();
    G.get_or_init(|| npz_members(testdata("ufunc/ufunc_golden.npz")))
}

fn arr(key: &str) -> &'static NpyArray {
    golden()
        .get(key)
        .unwrap_or_else(|| panic!("golden array {key} is missing"))
}

/// The golden loop signatures of `u`: the table's first, in its order, then
/// the others (true_divide of integers, which NumPy resolves to `dd->d`).
fn golden_sigs(u: &Ufunc) -> Vec<String> {
    let prefix = format!("{}/", u.name());
    let mut golden: BTreeSet<String> = golden()
        .keys()
        .filter_map(|k| k.strip_prefix(&prefix)?.strip_suffix("/y0"))
        .map(str::to_owned)
        .collect();
    let mut sigs = Vec::new();
    for t in u.types() {
        if golden.remove(&t) {
            sigs.push(t);
        }
    }
    sigs.extend(golden);
    sigs
}

/// A signature's input and output dtype characters.
fn split_sig(sig: &str) -> (Vec<char>, Vec<char>) {
    let (i, o) = sig.split_once("->").expect("signature has ->");
    (i.chars().collect(), o.chars().collect())
}

fn dt(c: char) -> DType {
    DType::from_char(c).unwrap_or_else(|| panic!("unknown dtype char '{c}'"))
}

/// The dtype a golden array of loop type `c` is stored as (bfloat16 as
/// float32).
fn stored(c: char) -> DType {
    if c == 'E' { DType::Float32 } else { dt(c) }
}

/// The device bytes of golden input `x` for loop type `c`: bfloat16 loops
/// get their (bfloat16-exact) float32 values narrowed.
fn device_bytes(x: &NpyArray, c: char) -> Vec<u8> {
    if c != 'E' {
        return x.data.clone();
    }
    x.to_vec::<f32>()
        .expect("bfloat16 goldens are stored as float32")
        .into_iter()
        .flat_map(|v| half::bf16::from_f32(v).to_bits().to_le_bytes())
        .collect()
}

/// Operand layouts the elementwise engine treats differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// 1-D contiguous: the vectorised path.
    Contiguous,
    /// The first input `(1, N)` broadcast to `(3, N)` (stride 0), the others
    /// `(3, N)` contiguous.
    Broadcast,
    /// Every input a `[::-1]` view (negative stride).
    Reversed,
    /// The first input the transpose of a C-contiguous `(8, 8)` array (F
    /// order), the others C-contiguous `(8, 8)`.
    Transposed,
    /// Every input starts one element into its buffer: the contiguous path
    /// without vector loads.
    Unaligned,
    /// Contiguous inputs, outputs written into `[::2]` views (`out=`).
    StridedOut,
}

const LAYOUTS: [Layout; 5] = [
    Layout::Broadcast,
    Layout::Reversed,
    Layout::Transposed,
    Layout::Unaligned,
    Layout::StridedOut,
];

fn elements(bytes: &[u8], itemsize: usize) -> Vec<&[u8]> {
    bytes.chunks_exact(itemsize).collect()
}

/// Input `k` of dtype `dtype` (bytes in logical order) laid out as `layout`.
fn input(dtype: DType, bytes: &[u8], layout: Layout, k: usize) -> gpu_array::Result<Array> {
    let size = dtype.itemsize();
    let n = bytes.len() / size;
    match layout {
        Layout::Contiguous | Layout::StridedOut => Array::from_bytes(dtype, &[n], bytes),
        Layout::Broadcast if k == 0 => {
            Array::from_bytes(dtype, &[1, n], bytes)?.broadcast_to(&[3, n])
        }
        Layout::Broadcast => Array::from_bytes(dtype, &[3, n], &bytes.repeat(3)),
        Layout::Reversed => {
            let rev: Vec<u8> = elements(bytes, size)
                .into_iter()
                .rev()
                .flatten()
                .copied()
                .collect();
            Array::from_bytes(dtype, &[n], &rev)?.slice(&s![..;-1])
        }
        Layout::Transposed if k == 0 => {
            assert_eq!(n, 64, "the transposed layout views 64 elements as (8, 8)");
            let e = elements(bytes, size);
            let t: Vec<u8> = (0..64)
                .flat_map(|p| e[(p % 8) * 8 + p / 8])
                .copied()
                .collect();
            Ok(Array::from_bytes(dtype, &[8, 8], &t)?.T())
        }
        Layout::Transposed => Array::from_bytes(dtype, &[8, 8], bytes),
        Layout::Unaligned => {
            let mut padded = bytes[..size].to_vec();
            padded.extend_from_slice(bytes);
            Array::from_bytes(dtype, &[n + 1], &padded)?.slice(&s![1..])
        }
    }
}

/// The expected output of golden `y` for `layout`, on the host.
fn expected(y: &NpyArray, layout: Layout) -> HostArray {
    let n = y.shape.iter().product::<usize>();
    let (shape, bytes) = match layout {
        Layout::Broadcast => (vec![3, n], y.data.repeat(3)),
        Layout::Transposed => (vec![8, 8], y.data.clone()),
        _ => (vec![n], y.data.clone()),
    };
    HostArray::from_le_bytes(y.dtype, shape, &bytes).expect("golden output")
}

/// Tolerance of a float result of `ufunc` in `dtype` against NumPy. GPU
/// transcendental functions are a few ulp from glibc's; complex ones go
/// through more steps, and complex `power` (exp(w log z)) magnifies the
/// error of its logarithm by |w log z|. `atol` is one ulp of the smallest
/// subnormal, so that a sign flip of a tiny result (`spacing(-0.0)`) shows.
fn tolerance(ufunc: &str, dtype: DType) -> AllcloseParams {
    let (rtol, atol) = match dtype {
        DType::Float16 => (1e-3, 5.97e-8),
        DType::BFloat16 => (1e-2, 9.19e-41),
        DType::Float32 => (1e-6, 1.41e-45),
        DType::Complex64 => (4e-6, 1.41e-45),
        _ => (1e-12, f64::from_bits(1)),
    };
    let factor = if dtype.is_complex() && matches!(ufunc, "power" | "float_power") {
        10.0
    } else {
        1.0
    };
    AllcloseParams::default()
        .rtol(rtol * factor)
        .atol(atol)
        .equal_nan(true)
        .strict(false)
}

/// Whether the sign of a zero result is NumPy's contract. Not for
/// `maximum(-0.0, 0.0)` and its kin: IEEE 754 leaves it open, and NumPy's
/// own answer changes with the dtype and with the length (SIMD or not).
fn zero_sign_defined(ufunc: &str) -> bool {
    !matches!(ufunc, "maximum" | "minimum" | "fmax" | "fmin")
}

/// The first lines of an assertion's report.
fn short(report: &str) -> String {
    let lines: Vec<&str> = report.lines().filter(|l| !l.is_empty()).take(9).collect();
    lines.join("\n    ")
}

/// Compares output `actual` (loop type `c`) with NumPy's.
fn compare(ufunc: &str, c: char, actual: &Array, desired: &HostArray) -> Result<(), String> {
    let want = dt(c);
    if actual.dtype() != want {
        return Err(format!("result dtype {} (NumPy: {want})", actual.dtype()));
    }
    let a = actual.to_host()?;
    if !want.is_inexact() {
        return check_array_equal(&a, desired).map_err(|r| short(&r));
    }
    check_allclose_with(&a, desired, &tolerance(ufunc, want)).map_err(|r| short(&r))?;
    if let (HostData::Float(x), HostData::Float(y)) = (&a.data, &desired.data)
        && zero_sign_defined(ufunc)
    {
        let bad: Vec<String> = x
            .iter()
            .zip(y)
            .enumerate()
            .filter(|(_, (p, q))| {
                **p == 0.0 && **q == 0.0 && p.is_sign_negative() != q.is_sign_negative()
            })
            .map(|(i, (p, q))| format!("[{i}] {p:?} (NumPy {q:?})"))
            .collect();
        if !bad.is_empty() {
            return Err(format!(
                "sign of zero differs at {} of {} elements: {}",
                bad.len(),
                x.len(),
                bad.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    Ok(())
}

/// Runs loop `sig` of `u` on its golden inputs laid out as `layout` and
/// compares every output with NumPy's.
fn check_loop(u: &'static Ufunc, sig: &str, layout: Layout) -> Result<(), String> {
    let (ins, outs) = split_sig(sig);
    let base = format!("{}/{sig}", u.name());
    let mut inputs = Vec::with_capacity(ins.len());
    for (k, &c) in ins.iter().enumerate() {
        let x = arr(&format!("{base}/x{k}"));
        let a = input(dt(c), &device_bytes(x, c), layout, k)
            .map_err(|e| format!("cannot lay out input {k}: {e}"))?;
        inputs.push(a);
    }
    let mut out_views = Vec::new();
    if layout == Layout::StridedOut {
        for &c in &outs {
            let o = Array::zeros([2 * N], dt(c))
                .and_then(|o| o.slice(&s![..;2]))
                .map_err(|e| format!("cannot make out=: {e}"))?;
            out_views.push(o);
        }
    }
    let options = UfuncOptions::default().out(&out_views.iter().collect::<Vec<_>>());
    let args: Vec<Input<'_>> = inputs.iter().map(Input::Array).collect();
    let results = ufunc::call(u, &args, &options).map_err(|e| format!("call failed: {e}"))?;
    let mut errs = Vec::new();
    for (k, (&c, r)) in outs.iter().zip(&results).enumerate() {
        let y = arr(&format!("{base}/y{k}"));
        if let Err(e) = compare(u.name(), c, r, &expected(y, layout)) {
            errs.push(if outs.len() > 1 {
                format!("output {k}: {e}")
            } else {
                e
            });
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("\n  "))
    }
}

/// The loops run over every layout: the first float32 loop (else the first
/// loop), and the first complex128 loop (else the first int8 loop).
fn layout_sigs(u: &Ufunc) -> Vec<String> {
    let types = u.types();
    let first = |c: char| types.iter().find(|t| t.starts_with(c)).cloned();
    let mut sigs = vec![first('f').unwrap_or_else(|| types[0].clone())];
    if let Some(t) = first('D').or_else(|| first('b'))
        && !sigs.contains(&t)
    {
        sigs.push(t);
    }
    sigs
}

fn run_ufunc(name: &str) {
    let Some(_device) = device_or_skip() else {
        return;
    };
    let u = ufunc::get(name).expect("a Cuprum ufunc");
    let mut failures = Vec::new();
    let mut loops = 0;
    for sig in golden_sigs(u) {
        loops += 1;
        if let Err(e) = check_loop(u, &sig, Layout::Contiguous) {
            failures.push(format!("{name} {sig}: {e}"));
        }
    }
    let mut layouts = 0;
    for sig in layout_sigs(u) {
        for layout in LAYOUTS {
            layouts += 1;
            if let Err(e) = check_loop(u, &sig, layout) {
                failures.push(format!("{name} {sig} {layout:?}: {e}"));
            }
        }
    }
    eprintln!(
        "{name}: {loops} loops and {layouts} layout cases checked, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases of {name} differ from NumPy:\n{}",
        failures.len(),
        loops + layouts,
        failures.join("\n")
    );
}

macro_rules! ufunc_tests {
    ($($name:ident),* $(,)?) => {
        /// The ufuncs with a test here, to check against the table.
        const TESTED: &[&str] = &[$(stringify!($name)),*];
        /// One test per ufunc, so that they run in parallel and one ufunc's
        /// failures do not hide another's.
        mod loops {
            $(
                #[test]
                fn $name() {
                    super::run_ufunc(stringify!($name));
                }
            )*
        }
    };
}

ufunc_tests!(
    add,
    subtract,
    multiply,
    true_divide,
    logaddexp,
    logaddexp2,
    floor_divide,
    negative,
    positive,
    power,
    float_power,
    remainder,
    fmod,
    divmod,
    absolute,
    fabs,
    rint,
    sign,
    heaviside,
    conjugate,
    exp,
    exp2,
    log,
    log2,
    log10,
    expm1,
    log1p,
    sqrt,
    square,
    cbrt,
    reciprocal,
    gcd,
    lcm,
    sin,
    cos,
    tan,
    arcsin,
    arccos,
    arctan,
    arctan2,
    hypot,
    sinh,
    cosh,
    tanh,
    arcsinh,
    arccosh,
    arctanh,
    deg2rad,
    rad2deg,
    bitwise_and,
    bitwise_or,
    bitwise_xor,
    invert,
    left_shift,
    right_shift,
    greater,
    greater_equal,
    less,
    less_equal,
    not_equal,
    equal,
    logical_and,
    logical_or,
    logical_xor,
    logical_not,
    maximum,
    minimum,
    fmax,
    fmin,
    isfinite,
    isinf,
    isnan,
    signbit,
    copysign,
    nextafter,
    spacing,
    modf,
    ldexp,
    frexp,
    floor,
    ceil,
    trunc,
);

/// Host: every loop of every ufunc has a golden, every golden belongs to a
/// loop (or, for true_divide of integers, resolves to NumPy's output
/// dtype), and golden dtypes match their signatures.
#[test]
fn golden_covers_every_loop() {
    let mut problems = Vec::new();
    let mut count = 0;
    let names: Vec<&str> = ufunc::all().iter().map(Ufunc::name).collect();
    for name in &names {
        if !TESTED.contains(name) {
            problems.push(format!("ufunc {name} has no test in tests/gpu/ufuncs.rs"));
        }
    }
    for key in golden().keys() {
        let u = key.split('/').next().unwrap_or_default();
        if u != "nep50" && !names.contains(&u) {
            problems.push(format!("golden {key} names no Cuprum ufunc"));
        }
    }
    for u in ufunc::all() {
        let sigs = golden_sigs(u);
        for t in u.types() {
            if !sigs.contains(&t) {
                problems.push(format!("{} {t}: no golden", u.name()));
            }
        }
        for sig in &sigs {
            count += 1;
            let (ins, outs) = split_sig(sig);
            let base = format!("{}/{sig}", u.name());
            for (k, &c) in ins.iter().enumerate() {
                let x = arr(&format!("{base}/x{k}"));
                if x.dtype != stored(c) || x.shape != [N] {
                    problems.push(format!("{base}/x{k} is {} {:?}", x.dtype, x.shape));
                }
            }
            for (k, &c) in outs.iter().enumerate() {
                let y = arr(&format!("{base}/y{k}"));
                if y.dtype != stored(c) || y.shape != [N] {
                    problems.push(format!("{base}/y{k} is {} {:?}", y.dtype, y.shape));
                }
            }
        }
    }
    eprintln!(
        "{count} golden loops over {} ufuncs ({} table loops)",
        names.len(),
        ufunc::all().iter().map(|u| u.loops().len()).sum::<usize>()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Host: arrays of a golden loop's input dtypes select that loop (NumPy's
/// choice for them), or loops with NumPy's output dtypes.
#[test]
fn exact_dtypes_select_the_loop() {
    let mut problems = Vec::new();
    for u in ufunc::all() {
        for sig in golden_sigs(u) {
            let (ins, outs) = split_sig(&sig);
            let operands: Vec<Operand> = ins.iter().map(|&c| Operand::Array(dt(c))).collect();
            match u.resolve(&operands, &UfuncParams::default()) {
                Ok(r) if u.types().contains(&sig) && r.signature() != sig => {
                    problems.push(format!("{} {sig}: selects {}", u.name(), r.signature()));
                }
                Ok(r) if r.outputs[..] != outs.iter().map(|&c| dt(c)).collect::<Vec<_>>()[..] => {
                    problems.push(format!(
                        "{} {sig}: selects {} with outputs {:?}",
                        u.name(),
                        r.signature(),
                        r.outputs
                    ));
                }
                Ok(_) => {}
                Err(e) => problems.push(format!("{} {sig}: {e}", u.name())),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// One line of nep50.tsv.
struct Nep50 {
    k: usize,
    ufunc: String,
    operands: [String; 2],
    result: String,
}

fn nep50_cases() -> Vec<Nep50> {
    let text = std::fs::read_to_string(testdata("ufunc/nep50.tsv")).expect("nep50.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 5, "bad nep50.tsv line: {l}");
            Nep50 {
                k: f[0].parse().expect("case number"),
                ufunc: f[1].to_owned(),
                operands: [f[2].to_owned(), f[3].to_owned()],
                result: f[4].to_owned(),
            }
        })
        .collect()
}

/// A weak scalar of nep50.tsv (`int:300`, `float:1.5`, `complex:0,1`,
/// `bool:1`), or `None` for `array:<dtype>`.
fn nep50_scalar(spec: &str) -> Option<ScalarValue> {
    let (kind, v) = spec.split_once(':').expect("kind:value");
    Some(match kind {
        "array" => return None,
        "int" => ScalarValue::Int(v.parse().expect("int")),
        "float" => ScalarValue::Float(v.parse().expect("float")),
        "bool" => ScalarValue::Bool(v == "1"),
        "complex" => {
            let (re, im) = v.split_once(',').expect("re,im");
            ScalarValue::Complex(Complex::new(re.parse().unwrap(), im.parse().unwrap()))
        }
        other => panic!("unknown operand kind {other}"),
    })
}

/// A NEP 50 call's outcome as NumPy spells it: a dtype name or `error:...`.
fn nep50_outcome(result: Result<DType, &gpu_array::Error>) -> String {
    match result {
        Ok(d) => d.name().to_owned(),
        Err(e) if e.to_string().contains("out of bounds") => "error:OverflowError".to_owned(),
        Err(e) => format!("error:{e}"),
    }
}

/// Known differences from NumPy, `(ufunc, operand)` of nep50.tsv: reported,
/// not failed, until fixed (a fixed one fails the test, to be taken off).
///
/// NumPy 2 compares an integer array with an out-of-range Python integer by
/// value (`uint8 array < 300` is all True, `== -1` all False); Cuprum raises
/// "Python integer 300 out of bounds for uint8", as for arithmetic.
const NEP50_KNOWN: &[(&str, &str)] = &[];

fn nep50_known(c: &Nep50) -> bool {
    NEP50_KNOWN.contains(&(c.ufunc.as_str(), c.operands[1].as_str()))
}

/// Sorts NEP 50 outcomes into failures: differences not known, and known
/// ones that now match.
fn nep50_verdict(c: &Nep50, got: &str, problems: &mut Vec<String>) -> bool {
    let what = format!("{}({}, {})", c.ufunc, c.operands[0], c.operands[1]);
    match (got == c.result, nep50_known(c)) {
        (true, false) => true,
        (false, false) => {
            problems.push(format!("{what}: {got} (NumPy: {})", c.result));
            false
        }
        (false, true) => {
            eprintln!("known difference: {what}: {got} (NumPy: {})", c.result);
            false
        }
        (true, true) => {
            problems.push(format!("{what} now matches NumPy: take it off NEP50_KNOWN"));
            false
        }
    }
}

/// Host: the loop NEP 50 scalars select, and the out-of-range check of weak
/// integers, give NumPy's result dtype or error.
#[test]
fn nep50_result_dtypes() {
    let mut problems = Vec::new();
    for c in nep50_cases() {
        let u = ufunc::get(&c.ufunc).expect("ufunc");
        let x = arr(&format!("nep50/{}/x", c.k));
        let scalars: Vec<Option<ScalarValue>> =
            c.operands.iter().map(|o| nep50_scalar(o)).collect();
        let operands: Vec<Operand> = scalars
            .iter()
            .map(|s| match s {
                None => Operand::Array(x.dtype),
                Some(ScalarValue::Bool(_)) => Operand::Scalar(ScalarKind::Bool),
                Some(ScalarValue::Int(_)) => Operand::Scalar(ScalarKind::Int),
                Some(ScalarValue::Float(_)) => Operand::Scalar(ScalarKind::Float),
                Some(ScalarValue::Complex(_)) => Operand::Scalar(ScalarKind::Complex),
            })
            .collect();
        let got = u.resolve(&operands, &UfuncParams::default()).and_then(|r| {
            for (k, s) in scalars.iter().enumerate() {
                if let Some(ScalarValue::Int(n)) = s
                    && r.inputs[k].is_integer()
                {
                    r.check_weak_int(k, *n)?;
                }
            }
            Ok(r.outputs[0])
        });
        let got = nep50_outcome(got.as_ref().map(|d| *d));
        nep50_verdict(&c, &got, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "NEP 50 differences:\n{}",
        problems.join("\n")
    );
}

/// GPU: the NEP 50 calls through `ufunc::call`, dtypes and values.
#[test]
fn nep50_values() {
    let Some(_device) = device_or_skip() else {
        return;
    };
    let mut problems = Vec::new();
    let cases = nep50_cases();
    for c in &cases {
        let u = ufunc::get(&c.ufunc).expect("ufunc");
        let x = Array::from_npy(arr(&format!("nep50/{}/x", c.k))).expect("upload");
        let inputs: Vec<Input<'_>> = c
            .operands
            .iter()
            .map(|o| match nep50_scalar(o) {
                None => Input::Array(&x),
                Some(s) => Input::Scalar(s),
            })
            .collect();
        let what = format!("{}({}, {})", c.ufunc, c.operands[0], c.operands[1]);
        let result = ufunc::call(u, &inputs, &UfuncOptions::default());
        let got = nep50_outcome(result.as_ref().map(|r| r[0].dtype()));
        if !nep50_verdict(c, &got, &mut problems) {
            continue;
        }
        if let Ok(r) = result {
            let y = arr(&format!("nep50/{}/y", c.k));
            let check = if y.dtype.is_inexact() {
                check_allclose_with(&r[0], y, &tolerance(&c.ufunc, y.dtype))
            } else {
                check_array_equal(&r[0], y)
            };
            if let Err(e) = check {
                problems.push(format!("{what}: {}", short(&e)));
            }
        }
    }
    eprintln!(
        "{} NEP 50 cases checked, {} failed",
        cases.len(),
        problems.len()
    );
    assert!(
        problems.is_empty(),
        "NEP 50 differences:\n{}",
        problems.join("\n")
    );
}
