//! Tier 3: `cumsum`, `cumprod`, `nancumsum`, `nancumprod` and `diff` on
//! the GPU against a host reference, plus NumPy's own outputs for a set of
//! semantic cases (`testdata/scan/scan_golden.npz`, written by
//! `testdata/scan/make_golden.py`).
//!
//! The host reference reads the device's input back (so rounding of the
//! input to its dtype is the device's) and scans in float64/complex128
//! for float results (the result must lie within a tolerance of it that
//! grows with the running sum of magnitudes (long float sums are of
//! positive values, so that this is the value itself) and with the square
//! root of the row length; NaN at the same places) and in wrapping 64-bit integers for
//! integer results (exact). Shapes cover each kernel: the look-back over
//! one row of 2^22 + 37 elements and over several long rows, one warp per
//! short row, one thread per column, and the axis moved last by a copy;
//! inputs cover every dtype, NaN, 0-d, empty, transposed, reversed and
//! strided views.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::npy::NpyArray;
use gpu_array::scan::cumulative_dtype;
use gpu_array::{Array, DType, s};
use gpu_testing::npz_members;

use crate::common::{C, Rng, host, testdata};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Sum,
    Prod,
    NanSum,
    NanProd,
}

impl Op {
    const ALL: [Op; 4] = [Op::Sum, Op::Prod, Op::NanSum, Op::NanProd];

    fn is_prod(self) -> bool {
        matches!(self, Op::Prod | Op::NanProd)
    }

    fn skips_nan(self) -> bool {
        matches!(self, Op::NanSum | Op::NanProd)
    }

    fn call(self, a: &Array, axis: Option<isize>, dtype: Option<DType>) -> Array {
        let r = match self {
            Op::Sum => gpu_array::math::cumsum(a, axis, dtype),
            Op::Prod => gpu_array::math::cumprod(a, axis, dtype),
            Op::NanSum => gpu_array::math::nancumsum(a, axis, dtype),
            Op::NanProd => gpu_array::math::nancumprod(a, axis, dtype),
        };
        r.unwrap_or_else(|e| panic!("{self:?} {:?} axis {axis:?}: {e}", a.shape()))
    }
}

/// Random values of `dtype` suited to `op` over rows of length `n`
/// (products stay near 1 so long rows neither overflow nor vanish), with
/// NaN in float inputs when `nan`.
fn input(dtype: DType, shape: &[usize], seed: u64, prod: bool, n: usize, nan: bool) -> Array {
    let size: usize = shape.iter().product();
    let mut rng = Rng::new(seed);
    let spread = if n > 4096 { 1e-4 } else { 0.1 };
    let host: Vec<C> = (0..size)
        .map(|_| {
            let mut re;
            let mut im = 0.0;
            if dtype == DType::Bool {
                re = (rng.next() % 2) as f64;
            } else if dtype.is_floating() || dtype.is_complex() {
                if prod {
                    re = 1.0 + spread * (2.0 * rng.unit() - 1.0);
                    im = spread * (2.0 * rng.unit() - 1.0);
                } else if n > 4096 && dtype.itemsize() > 2 {
                    // Long float sums: positive, so that the tolerance
                    // (relative to the running sum of magnitudes) is
                    // relative to the value itself and a lost or doubled
                    // tile shows.
                    re = rng.unit();
                    im = rng.unit();
                } else {
                    re = 2.0 * rng.unit() - 1.0;
                    im = 2.0 * rng.unit() - 1.0;
                }
                if nan && rng.next().is_multiple_of(16) {
                    if rng.next().is_multiple_of(2) {
                        re = f64::NAN;
                    } else {
                        im = f64::NAN;
                    }
                }
            } else if prod {
                re = [1.0, 1.0, 1.0, 2.0, 3.0, 1.0, 5.0, 1.0][(rng.next() % 8) as usize];
                if !is_unsigned(dtype) && rng.next().is_multiple_of(4) {
                    re = -re;
                }
            } else if is_unsigned(dtype) {
                re = (rng.next() % 100) as f64;
            } else {
                re = (rng.next() % 101) as f64 - 50.0;
            }
            if !dtype.is_complex() {
                im = 0.0;
            }
            C::new(re, im)
        })
        .collect();
    Array::from_slice(&host, shape)
        .and_then(|a| a.astype(dtype))
        .unwrap()
}

fn is_unsigned(d: DType) -> bool {
    matches!(
        d,
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64
    )
}

fn is_int(d: DType) -> bool {
    !(d.is_floating() || d.is_complex() || d == DType::Bool)
}

/// The values of an integer or bool `a` in C order as int64 (uint64
/// reinterpreted).
fn host_i64(a: &Array) -> Vec<i64> {
    a.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap()
}

fn is_nan(z: C) -> bool {
    z.re.is_nan() || z.im.is_nan()
}

/// Truncates a wrapping 64-bit value to `out`'s width and signedness.
fn wrap(v: i64, out: DType) -> i64 {
    match out {
        DType::Int8 => v as i8 as i64,
        DType::Int16 => v as i16 as i64,
        DType::Int32 => v as i32 as i64,
        DType::UInt8 => v as u8 as i64,
        DType::UInt16 => v as u16 as i64,
        DType::UInt32 => v as u32 as i64,
        _ => v,
    }
}

/// Machine epsilon of the accumulation of `out`.
fn acc_eps(out: DType) -> f64 {
    match out {
        DType::Float64 | DType::Complex128 => f64::EPSILON,
        _ => f32::EPSILON as f64,
    }
}

/// Machine epsilon of the storage of `out`.
fn out_eps(out: DType) -> f64 {
    match out {
        DType::Float16 => 2f64.powi(-10),
        DType::BFloat16 => 2f64.powi(-7),
        d => acc_eps(d),
    }
}

/// The smallest positive (subnormal) value of `out`'s storage: a result
/// that small is only known to within about one of these.
fn out_tiny(out: DType) -> f64 {
    match out {
        DType::Float16 => 2f64.powi(-24),
        DType::BFloat16 => 2f64.powi(-133),
        DType::Float32 | DType::Complex64 => 2f64.powi(-149),
        _ => 2f64.powi(-1074),
    }
}

/// Checks `op(a, axis, dtype)` against the host reference.
fn check(op: Op, a: &Array, axis: Option<isize>, dtype: Option<DType>) {
    let what = format!(
        "{op:?} of {} {:?} (strides {:?}) axis {axis:?} dtype {dtype:?}",
        a.dtype(),
        a.shape(),
        a.strides()
    );
    let got = op.call(a, axis, dtype);
    let out = dtype.unwrap_or(cumulative_dtype(a.dtype()));
    assert_eq!(got.dtype(), out, "{what}: dtype");
    // The reference's layout: C order of `a` (flattened for axis None).
    let (shape, ax) = match axis {
        None => (vec![a.size()], 0),
        Some(_) if a.ndim() == 0 => (vec![1], 0),
        Some(x) => (a.shape().to_vec(), x.rem_euclid(a.ndim() as isize) as usize),
    };
    assert_eq!(got.shape(), &shape[..], "{what}: shape");
    let x = host(a);
    let outer: usize = shape[..ax].iter().product();
    let n = shape[ax];
    let inner: usize = shape[ax + 1..].iter().product();
    let idx = |o: usize, k: usize, i: usize| (o * n + k) * inner + i;
    if is_int(out) || out == DType::Bool {
        let g = host_i64(&got);
        for o in 0..outer {
            for i in 0..inner {
                let mut acc: i64 = i64::from(op.is_prod());
                for k in 0..n {
                    let j = idx(o, k, i);
                    let v = x[j].re as i64;
                    acc = if out == DType::Bool {
                        i64::from(if op.is_prod() {
                            acc != 0 && v != 0
                        } else {
                            acc != 0 || v != 0
                        })
                    } else if op.is_prod() {
                        wrap(acc.wrapping_mul(v), out)
                    } else {
                        wrap(acc.wrapping_add(v), out)
                    };
                    assert_eq!(g[j], acc, "{what}: at flat {j} (row {o}, k {k}, col {i})");
                }
            }
        }
        return;
    }
    let g = host(&got);
    let (ae, oe) = (acc_eps(out), out_eps(out));
    let depth = 32.0 + 0.5 * (n as f64).sqrt();
    let mut bad = Vec::new();
    for o in 0..outer {
        for i in 0..inner {
            let mut acc = C::new(f64::from(u8::from(op.is_prod())), 0.0);
            let mut scale = 0.0;
            for k in 0..n {
                let j = idx(o, k, i);
                let mut v = x[j];
                if op.skips_nan() && is_nan(v) {
                    v = C::new(f64::from(u8::from(op.is_prod())), 0.0);
                }
                if op.is_prod() {
                    acc *= v;
                    scale = acc.norm();
                } else {
                    acc += v;
                    scale += v.norm();
                }
                let gj = g[j];
                // Past float16's largest finite value the stored result is
                // infinite, as NumPy's.
                let overflow =
                    out == DType::Float16 && (acc.re.abs() > 65520.0 || acc.im.abs() > 65520.0);
                let ok = if is_nan(acc) {
                    is_nan(gj)
                } else if overflow {
                    !gj.re.is_finite() || !gj.im.is_finite()
                } else if !acc.re.is_finite() || !acc.im.is_finite() {
                    gj == acc
                } else {
                    // A running product's rounding error grows with the number
                    // of factors (first-order bound k * eps, whatever the
                    // grouping); a sum's with sqrt(n) as `depth` models.
                    // Subnormal results are stored to within a subnormal.
                    let growth = if op.is_prod() { (k + 1) as f64 } else { depth };
                    let tol = 4.0 * oe * acc.norm() + ae * growth * scale + 4.0 * out_tiny(out);
                    (gj - acc).norm() <= tol
                };
                if !ok && bad.len() < 5 {
                    bad.push(format!(
                        "flat {j} (row {o}, k {k}, col {i}): got {gj}, want {acc}"
                    ));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{what}:\n{}", bad.join("\n"));
}

/// Every dtype, every op, over short rows, columns and axis None; NaN
/// propagation through the plain scans.
#[test]
fn every_dtype_every_op() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for (s, dt) in DType::ALL.into_iter().enumerate() {
        for op in Op::ALL {
            let a = input(
                dt,
                &[3, 5, 7],
                s as u64 + 1,
                op.is_prod(),
                7,
                op.skips_nan(),
            );
            for axis in [None, Some(0), Some(1), Some(2), Some(-1)] {
                check(op, &a, axis, None);
            }
        }
        // NaN propagates through the plain scans.
        if dt.is_floating() || dt.is_complex() {
            let a = input(dt, &[6, 40], s as u64 + 50, true, 40, true);
            check(Op::Sum, &a, Some(-1), None);
            check(Op::Prod, &a, Some(0), None);
        }
    }
}

/// One long row through the look-back scan (2^22 + 37 elements), for the
/// dtypes whose accumulators differ in width and packing.
#[test]
fn long_rows_look_back() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = (1 << 22) + 37;
    for (s, dt) in [
        DType::Float32,
        DType::Float64,
        DType::Int32,
        DType::UInt8,
        DType::Complex64,
        DType::Complex128,
        DType::Float16,
    ]
    .into_iter()
    .enumerate()
    {
        for op in [Op::Sum, Op::NanProd] {
            let a = input(dt, &[n], 100 + s as u64, op.is_prod(), n, op.skips_nan());
            check(op, &a, None, None);
        }
    }
    // int32 sums accumulated in int32 wrap exactly as the host's.
    let a = input(DType::Int32, &[n], 7, false, n, false);
    check(Op::Sum, &a, Some(0), Some(DType::Int32));
    check(Op::Prod, &a, Some(0), Some(DType::Int64));
}

/// Several long rows in one launch (rows are look-back segments), tile
/// boundaries exactly and off by one.
#[test]
fn several_long_rows() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for (rows, n) in [(5, 10_000), (3, 2049), (4, 4096), (2, 2048), (33, 6145)] {
        for dt in [DType::Float32, DType::Int64, DType::Float64] {
            let a = input(dt, &[rows, n], (rows * n) as u64, false, n, false);
            check(Op::Sum, &a, Some(1), None);
            let a = input(dt, &[rows, n], (rows * n) as u64 + 1, false, n, true);
            check(Op::NanSum, &a, Some(-1), None);
        }
    }
    // Thousands of rows of a few tiles: one warp per row.
    let a = input(DType::Int32, &[8200, 2100], 77, false, 2100, false);
    check(Op::Sum, &a, Some(1), None);
}

/// Each plan: warp per row, thread per column, segmented columns, the
/// axis moved last (short and long rows).
#[test]
fn kernel_shapes() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    // Rows, cols, cols, move-last (rows), move-last (tiles), segmented,
    // segmented with a short last segment, segmented in the middle axis.
    let cases: [(&[usize], isize); 8] = [
        (&[3000, 37], 1),
        (&[64, 4, 512], 1),
        (&[3, 9000], 0),
        (&[700, 5], 0),
        (&[5000, 3], 0),
        (&[300, 200], 0),
        (&[1000, 300], 0),
        (&[2, 3000, 40], 1),
    ];
    for (shape, axis) in cases {
        for dt in [DType::Float32, DType::Int16, DType::Complex64] {
            let n = shape[axis.rem_euclid(shape.len() as isize) as usize];
            let a = input(dt, shape, 11, false, n, false);
            check(Op::Sum, &a, Some(axis), None);
            let a = input(dt, shape, 13, false, n, true);
            check(Op::NanSum, &a, Some(axis), None);
            let p = input(dt, shape, 12, true, n, false);
            check(Op::Prod, &p, Some(axis), None);
        }
    }
}

/// Views: transposed, reversed, stepped, broadcast; results are C order.
#[test]
fn non_contiguous_inputs() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let base = input(DType::Float32, &[40, 60], 3, false, 60, true);
    let views = [
        base.T(),
        base.slice(&s![..;-1, ..]).unwrap(),
        base.slice(&s![1..;3, ..;-2]).unwrap(),
        base.slice(&s![.., 5]).unwrap(),
        base.slice(&s![..1, ..])
            .unwrap()
            .broadcast_to(&[3, 60])
            .unwrap(),
    ];
    for v in &views {
        for axis in [None, Some(0), Some(-1)] {
            check(Op::Sum, v, axis, None);
            check(Op::NanProd, v, axis, None);
        }
        let got = gpu_array::math::cumsum(v, Some(0), None).unwrap();
        assert!(got.is_c_contiguous());
    }
    let big = input(DType::Int32, &[3000, 7], 4, false, 3000, false);
    check(Op::Sum, &big.T(), Some(1), None);
    check(Op::Sum, &big.slice(&s![..;-1, ..]).unwrap(), Some(0), None);
}

/// Empty and 0-d inputs, `dtype=`, and the Array methods.
#[test]
fn edges_and_dtypes() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for shape in [&[0usize][..], &[0, 3], &[3, 0], &[2, 0, 4]] {
        let a = Array::zeros(shape, DType::Int8).unwrap();
        for axis in [None, Some(0), Some(-1)] {
            let r = gpu_array::math::cumsum(&a, axis, None).unwrap();
            assert_eq!(r.dtype(), DType::Int64);
            let want: Vec<usize> = match axis {
                None => vec![0],
                Some(_) => shape.to_vec(),
            };
            assert_eq!(r.shape(), &want[..]);
        }
    }
    let z = Array::scalar(2.5f64).unwrap();
    for axis in [None, Some(0), Some(-1)] {
        let r = gpu_array::math::cumprod(&z, axis, None).unwrap();
        assert_eq!(r.shape(), &[1]);
        assert_eq!(r.to_vec::<f64>().unwrap(), vec![2.5]);
    }
    assert!(gpu_array::math::cumsum(&z, Some(1), None).is_err());
    let a = input(DType::Int32, &[4, 9], 5, false, 9, false);
    assert!(gpu_array::math::cumsum(&a, Some(2), None).is_err());
    assert!(gpu_array::math::cumsum(&a, Some(-3), None).is_err());
    for dt in [
        DType::Float64,
        DType::Float16,
        DType::Int8,
        DType::Bool,
        DType::Complex64,
    ] {
        check(Op::Sum, &a, Some(1), Some(dt));
        check(Op::Prod, &a, Some(0), Some(dt));
    }
    let f = input(DType::Float32, &[4, 9], 6, false, 9, true);
    check(Op::NanSum, &f, Some(1), Some(DType::Float64));
    assert_eq!(
        host(&a.cumsum(Some(1)).unwrap()),
        host(&gpu_array::math::cumsum(&a, Some(1), None).unwrap())
    );
    assert_eq!(
        host(&a.cumprod(None).unwrap()),
        host(&gpu_array::math::cumprod(&a, None, None).unwrap())
    );
}

/// Host reference of `diff` along axis `ax` of a C-ordered `[outer, n,
/// inner]` array, `n` times.
fn diff_ref(mut x: Vec<C>, shape: &[usize], ax: usize, times: usize, boolean: bool) -> Vec<C> {
    let outer: usize = shape[..ax].iter().product();
    let inner: usize = shape[ax + 1..].iter().product();
    let mut n = shape[ax];
    for _ in 0..times {
        let m = n.saturating_sub(1);
        let mut y = Vec::with_capacity(outer * m * inner);
        for o in 0..outer {
            for k in 0..m {
                for i in 0..inner {
                    let (hi, lo) = (x[(o * n + k + 1) * inner + i], x[(o * n + k) * inner + i]);
                    y.push(if boolean {
                        C::new(f64::from(u8::from(hi != lo)), 0.0)
                    } else {
                        hi - lo
                    });
                }
            }
        }
        x = y;
        n = m;
    }
    x
}

#[test]
fn diff_matches_host() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for dt in [
        DType::Float32,
        DType::Int16,
        DType::UInt8,
        DType::Bool,
        DType::Complex128,
        DType::Float16,
    ] {
        let a = input(dt, &[6, 7, 5], 9, false, 7, false);
        let x = host(&a);
        for (axis, ax) in [(0isize, 0usize), (1, 1), (-1, 2)] {
            for times in [1, 2, 3, 7, 9] {
                let got = gpu_array::math::diff(&a, times, axis, None, None).unwrap();
                let mut shape = a.shape().to_vec();
                shape[ax] = shape[ax].saturating_sub(times);
                assert_eq!(got.shape(), &shape[..], "{dt} axis {axis} n {times}");
                assert_eq!(got.dtype(), dt);
                let want = diff_ref(x.clone(), a.shape(), ax, times, dt == DType::Bool);
                let g = host(&got);
                // Each step rounds on the device; the reference does not,
                // and differencing doubles earlier errors.
                let base = if dt == DType::Float16 { 2e-3 } else { 1e-6 };
                for (j, (g, w)) in g.iter().zip(&want).enumerate() {
                    let ok = if is_int(dt) {
                        g.re as i64 == wrap(w.re as i64, dt)
                    } else {
                        (g - w).norm() <= base * 2f64.powi(times as i32) * (1.0 + w.norm())
                    };
                    assert!(ok, "{dt} axis {axis} n {times} at {j}: {g} vs {w}");
                }
            }
        }
        // Non-contiguous input.
        let t = a.T();
        let got = gpu_array::math::diff(&t, 1, 0, None, None).unwrap();
        let tx = host(&t.copy().unwrap());
        let want = diff_ref(tx, t.shape(), 0, 1, dt == DType::Bool);
        let g = host(&got);
        assert_eq!(g.len(), want.len());
        for (g, w) in g.iter().zip(&want) {
            let ok = if is_int(dt) {
                g.re as i64 == wrap(w.re as i64, dt)
            } else {
                (g - w).norm() <= 4e-3 * (1.0 + w.norm())
            };
            assert!(ok, "{dt} transposed: {g} vs {w}");
        }
    }
    assert!(gpu_array::math::diff(&Array::scalar(1.0f32).unwrap(), 1, 0, None, None).is_err());
    let a = input(DType::Int32, &[4], 1, false, 4, false);
    let same = gpu_array::math::diff(&a, 0, 0, None, None).unwrap();
    assert_eq!(host(&same), host(&a));
}

#[test]
fn diff_prepend_append() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::from_slice(&[1i32, 4, 9, 16, 25, 36], &[2, 3]).unwrap();
    let zero = Array::scalar(0i64).unwrap();
    let got = gpu_array::math::diff(&a, 1, 1, Some(&zero), None).unwrap();
    assert_eq!(got.dtype(), DType::Int64);
    assert_eq!(got.to_vec::<i64>().unwrap(), vec![1, 3, 5, 16, 9, 11]);
    let tail = Array::from_slice(&[0.5f64, 1.5], &[2, 1]).unwrap();
    let got = gpu_array::math::diff(&a, 1, -1, None, Some(&tail)).unwrap();
    assert_eq!(got.dtype(), DType::Float64);
    assert_eq!(
        got.to_vec::<f64>().unwrap(),
        vec![3.0, 5.0, -8.5, 9.0, 11.0, -34.5]
    );
    let row = Array::from_slice(&[10i32, 10, 10], &[1, 3]).unwrap();
    let got = gpu_array::math::diff(&a, 2, 0, Some(&row), Some(&row)).unwrap();
    assert_eq!(got.shape(), &[2, 3]);
    // rows: [10,10,10],[1,4,9],[16,25,36],[10,10,10]
    // first: [-9,-6,-1],[15,21,27],[-6,-15,-26]; second: [24,27,28],[-21,-36,-53]
    assert_eq!(
        got.to_vec::<i32>().unwrap(),
        vec![24, 27, 28, -21, -36, -53]
    );
    let bad = Array::from_slice(&[1i32, 2], &[1, 2]).unwrap();
    assert!(gpu_array::math::diff(&a, 1, 0, Some(&bad), None).is_err());
}

fn golden() -> PathBuf {
    testdata("scan/scan_golden.npz")
}

/// A golden case's call, parsed from its name `op__axis__dtype__tag`.
fn parse_case(name: &str) -> (String, Option<isize>, Option<DType>) {
    let parts: Vec<&str> = name.split("__").collect();
    assert_eq!(parts.len(), 4, "golden case name {name}");
    let axis = match parts[1] {
        "none" => None,
        x => Some(x.parse::<isize>().unwrap()),
    };
    let dtype = match parts[2] {
        "default" => None,
        x => Some(x.parse::<DType>().unwrap()),
    };
    (parts[0].to_string(), axis, dtype)
}

/// The golden members by name (without `.npy`).
fn golden_members() -> HashMap<String, NpyArray> {
    npz_members(golden())
}

/// Each case's name, input and NumPy's output, on the device.
fn golden_cases() -> Vec<(String, Array, Array)> {
    let z = golden_members();
    let mut names: Vec<&str> = z.keys().filter_map(|n| n.strip_suffix(".out")).collect();
    names.sort_unstable();
    names
        .into_iter()
        .map(|name| {
            let a = Array::from_npy(&z[&format!("{name}.in")]).unwrap();
            let w = Array::from_npy(&z[&format!("{name}.out")]).unwrap();
            (name.to_string(), a, w)
        })
        .collect()
}

/// Host: the golden file parses and every case names a known call.
#[test]
fn golden_file_is_well_formed() {
    let z = golden_members();
    assert!(z.len() >= 40, "{} members", z.len());
    for n in z.keys() {
        let case = n
            .strip_suffix(".in")
            .or_else(|| n.strip_suffix(".out"))
            .unwrap_or_else(|| panic!("member {n}"));
        let (op, _, _) = parse_case(case);
        assert!(
            [
                "cumsum",
                "cumprod",
                "nancumsum",
                "nancumprod",
                "diff1",
                "diff2"
            ]
            .contains(&op.as_str()),
            "{n}"
        );
        assert!(z.contains_key(&format!("{case}.in")) && z.contains_key(&format!("{case}.out")));
    }
}

/// NumPy's own outputs: each case `NAME.in` (input), `NAME.out` (NumPy's
/// result); the name says the call.
#[test]
fn numpy_golden() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let cases = golden_cases();
    assert!(cases.len() >= 20, "only {} golden cases", cases.len());
    for (name, a, want) in cases {
        let (op, axis, dtype) = parse_case(&name);
        let got = match op.as_str() {
            "cumsum" => gpu_array::math::cumsum(&a, axis, dtype),
            "cumprod" => gpu_array::math::cumprod(&a, axis, dtype),
            "nancumsum" => gpu_array::math::nancumsum(&a, axis, dtype),
            "nancumprod" => gpu_array::math::nancumprod(&a, axis, dtype),
            "diff1" => gpu_array::math::diff(&a, 1, axis.unwrap_or(-1), None, None),
            "diff2" => gpu_array::math::diff(&a, 2, axis.unwrap_or(-1), None, None),
            op => panic!("unknown golden op {op}"),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), want.dtype(), "{name}: dtype");
        assert_eq!(got.shape(), want.shape(), "{name}: shape");
        let (g, w) = (host(&got), host(&want));
        let rtol = match want.dtype() {
            // NumPy accumulates float16 in float16, Cuprum in float32.
            DType::Float16 => 1e-2,
            DType::Float32 | DType::Complex64 => 1e-4,
            DType::Float64 | DType::Complex128 => 1e-12,
            _ => 0.0,
        };
        for (j, (g, w)) in g.iter().zip(&w).enumerate() {
            let ok = if is_nan(*w) {
                is_nan(*g)
            } else {
                (g - w).norm() <= rtol * (1.0 + w.norm())
            };
            assert!(ok, "{name} at {j}: got {g}, NumPy {w}");
        }
    }
}
