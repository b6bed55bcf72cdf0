//! Tier 3: fused functions on the GPU against the same computation done
//! with the unfused Cuprum operations (ufuncs, astype, copyto, reductions),
//! which the fused kernel must reproduce: the same dtypes and shapes, the
//! same values (integers, comparisons, casts and chains without a multiply
//! feeding an add exactly; where the compiler may contract a multiply and
//! an add into one FMA, as CuPy's fused kernels do too, within a few ulp).
//!
//! Inputs are seeded random values with NaN in float inputs, over several
//! dtypes, in contiguous (the 16-byte vector path), broadcast, transposed,
//! stepped, reversed, 0-d and empty layouts; reductions over every axis
//! form (None, int, negative int, tuple), keepdims, shapes that take each
//! strategy of the planner (block, warp, column, two passes), and several
//! reductions computed in one kernel.

use gpu_array::dtype::{Casting, ScalarValue};
use gpu_array::fusion::{FVar, FuseOptions, fuse, fx};
use gpu_array::reduction::ReduceOptions;
use gpu_array::ufunc::{self, Input};
use gpu_array::{Array, DType, Error, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::assert_array_equal;
use num_complex::Complex;

use crate::common::Rng;

/// Random values of `dtype` and `shape` in [lo, hi) (integers: rounded
/// down; bool: above the midpoint; complex: small imaginary parts), with a
/// NaN in every 17th element of a float input when `nan`.
fn random(dtype: DType, shape: &[usize], seed: u64, lo: f64, hi: f64, nan: bool) -> Array {
    let n: usize = shape.iter().product();
    let mut rng = Rng::new(seed);
    let vals: Vec<f64> = (0..n)
        .map(|k| {
            if nan && dtype.is_inexact() && k % 17 == 5 {
                f64::NAN
            } else {
                rng.uniform(lo, hi)
            }
        })
        .collect();
    let a = if dtype.is_complex() {
        // Imaginary parts a tenth of the real range: products keep their
        // size (a long complex product stays finite) and sums do not cancel.
        let w = 0.05 * (hi - lo);
        let z: Vec<Complex<f64>> = vals
            .iter()
            .map(|&re| Complex::new(re, rng.uniform(-w, w)))
            .collect();
        Array::from_slice(&z, shape).unwrap()
    } else if dtype.is_integer() {
        let v: Vec<i64> = vals.iter().map(|x| x.floor() as i64).collect();
        Array::from_slice(&v, shape).unwrap()
    } else if dtype == DType::Bool {
        let mid = (lo + hi) / 2.0;
        let v: Vec<bool> = vals.iter().map(|&x| x > mid).collect();
        Array::from_slice(&v, shape).unwrap()
    } else {
        Array::from_slice(&vals, shape).unwrap()
    };
    a.astype(dtype).unwrap()
}

/// The allclose tolerance (rtol, atol) of a result of `dtype` whose
/// operands are of magnitude about 1, for differences of FMA contraction.
fn fma_tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Float16 | DType::BFloat16 => (1e-2, 1e-2),
        DType::Float32 | DType::Complex64 => (1e-6, 4e-6),
        DType::Float64 | DType::Complex128 => (1e-14, 1e-14),
        _ => (0.0, 0.0),
    }
}

/// Exact for integer and bool results; within a few ulp for floats, whose
/// math functions may be compiled differently once inlined in a chain.
fn close_or_same(label: &str, got: &Array, want: &Array) {
    if got.dtype().is_inexact() {
        close(label, got, want, fma_tolerance(got.dtype()));
    } else {
        same(label, got, want);
    }
}

/// Exact, but within a few ulp for complex results (a complex product has
/// a multiply feeding an add, which the compiler may contract into an FMA
/// differently once the product is fused).
fn same_unless_complex(label: &str, got: &Array, want: &Array) {
    if got.dtype().is_complex() {
        close(label, got, want, fma_tolerance(got.dtype()));
    } else {
        same(label, got, want);
    }
}

fn same(label: &str, got: &Array, want: &Array) {
    assert_eq!(got.dtype(), want.dtype(), "{label}: dtype");
    assert_eq!(got.shape(), want.shape(), "{label}: shape");
    if let Err(e) = gpu_testing::check_array_equal(got, want) {
        panic!("{label}: {e}");
    }
}

fn close(label: &str, got: &Array, want: &Array, tol: (f64, f64)) {
    assert_eq!(got.dtype(), want.dtype(), "{label}: dtype");
    assert_eq!(got.shape(), want.shape(), "{label}: shape");
    if let Err(e) = gpu_testing::check_allclose(got, want, tol.0, tol.1) {
        panic!("{label}: {e}");
    }
}

/// Layouts of a 2-d operand of `shape` (made as `dtype` from `seed`): C
/// order, transposed (made with the transposed shape), every other column,
/// reversed rows.
fn views(dtype: DType, shape: [usize; 2], seed: u64, lo: f64, hi: f64) -> Vec<(String, Array)> {
    let [r, c] = shape;
    vec![
        ("c".into(), random(dtype, &[r, c], seed, lo, hi, true)),
        ("t".into(), random(dtype, &[c, r], seed, lo, hi, true).T()),
        (
            "step".into(),
            random(dtype, &[r, 2 * c], seed, lo, hi, true)
                .slice(&s![.., ..;2])
                .unwrap(),
        ),
        (
            "rev".into(),
            random(dtype, &[r, c], seed, lo, hi, true)
                .slice(&s![..;-1])
                .unwrap(),
        ),
    ]
}

#[test]
fn squared_diff_matches_unfused() {
    let Some(_d) = device_or_skip() else { return };
    let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
        let d = x - y;
        &d * &d
    });
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int32,
        DType::UInt8,
        DType::Int64,
        DType::Complex64,
    ] {
        for (vname, x) in views(dtype, [37, 129], 1, -4.0, 4.0) {
            // y broadcasts: a row, a column, a full operand.
            for (bname, y) in [
                ("full", random(dtype, &[37, 129], 2, -4.0, 4.0, true)),
                ("row", random(dtype, &[129], 3, -4.0, 4.0, true)),
                ("col", random(dtype, &[37, 1], 4, -4.0, 4.0, true)),
            ] {
                let got = f.call(&[&x, &y]).unwrap();
                let d = ufunc::subtract(&x, &y).unwrap();
                let want = ufunc::multiply(&d, &d).unwrap();
                same_unless_complex(&format!("{dtype} {vname} {bname}"), &got, &want);
            }
        }
        // A long contiguous run: the vector path and its tail.
        let x = random(dtype, &[100_003], 5, -4.0, 4.0, true);
        let y = random(dtype, &[100_003], 6, -4.0, 4.0, true);
        let d = ufunc::subtract(&x, &y).unwrap();
        same_unless_complex(
            &format!("{dtype} long"),
            &f.call(&[&x, &y]).unwrap(),
            &ufunc::multiply(&d, &d).unwrap(),
        );
        // An unaligned view takes the scalar contiguous loop.
        let xs = x.slice(&s![1..]).unwrap();
        let ys = y.slice(&s![1..]).unwrap();
        let d = ufunc::subtract(&xs, &ys).unwrap();
        same_unless_complex(
            &format!("{dtype} unaligned"),
            &f.call(&[&xs, &ys]).unwrap(),
            &ufunc::multiply(&d, &d).unwrap(),
        );
    }
    // 0-d and empty operands.
    let x = Array::scalar(3.0f32).unwrap();
    let y = Array::scalar(1.5f32).unwrap();
    let got = f.call(&[&x, &y]).unwrap();
    assert_eq!(got.shape(), &[] as &[usize]);
    assert_eq!(got.item::<f32>(&[]).unwrap(), 2.25);
    let e = Array::from_slice::<f32>(&[], &[0, 3]).unwrap();
    let got = f.call(&[&e, &e]).unwrap();
    assert_eq!(got.shape(), &[0, 3]);
    assert_eq!(got.dtype(), DType::Float32);
    // Mixed dtypes: int8 - uint8 is int16.
    let a = random(DType::Int8, &[50], 7, -100.0, 100.0, false);
    let b = random(DType::UInt8, &[50], 8, 0.0, 200.0, false);
    let d = ufunc::subtract(&a, &b).unwrap();
    same(
        "int8 uint8",
        &f.call(&[&a, &b]).unwrap(),
        &ufunc::multiply(&d, &d).unwrap(),
    );
}

#[test]
fn chains_of_ufuncs_constants_and_casts_match_unfused() {
    let Some(_d) = device_or_skip() else { return };
    // No multiply feeds an add here: integer and bool results exact.
    let f = fuse("chain", |x: &FVar, y: &FVar| {
        let a = fx::exp(fx::sin(x)) / (fx::abs(y) + 1);
        let b = fx::maximum(x, y).astype(DType::Int16);
        let c = x.greater(y) & y.less_equal(0.5);
        (a, b, c, fx::sqrt(fx::square(x)) - 2.0)
    });
    for dtype in [DType::Float32, DType::Float64, DType::Float16, DType::Int32] {
        for (vname, x) in views(dtype, [33, 65], 11, -3.0, 3.0) {
            let y = random(dtype, &[65], 12, -3.0, 3.0, true);
            let (a, b, c, d) = f.call(&[&x, &y]).unwrap();
            let label = format!("{dtype} {vname}");
            let wa = ufunc::true_divide(
                ufunc::exp(ufunc::sin(&x).unwrap()).unwrap(),
                ufunc::add(ufunc::absolute(&y).unwrap(), 1).unwrap(),
            )
            .unwrap();
            close_or_same(&format!("{label} a"), &a, &wa);
            let wb = ufunc::maximum(&x, &y)
                .unwrap()
                .astype(DType::Int16)
                .unwrap();
            same(&format!("{label} b"), &b, &wb);
            let wc =
                ufunc::bitwise_and(x.greater(&y).unwrap(), y.less_equal(0.5).unwrap()).unwrap();
            same(&format!("{label} c"), &c, &wc);
            let wd =
                ufunc::subtract(ufunc::sqrt(ufunc::square(&x).unwrap()).unwrap(), 2.0).unwrap();
            close_or_same(&format!("{label} d"), &d, &wd);
        }
    }
    // A multiply feeding an add (FMA contraction allowed), complex, and a
    // scalar argument (weak, as a Python float).
    let g = fuse("axpy", |a: &FVar, x: &FVar, y: &FVar| a * x + y);
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::Float16,
    ] {
        let x = random(dtype, &[3, 1000], 21, -1.0, 1.0, true);
        let y = random(dtype, &[1000], 22, -1.0, 1.0, true);
        let got = g
            .call(&[Input::from(2.5), Input::from(&x), Input::from(&y)])
            .unwrap();
        let want = ufunc::add(ufunc::multiply(2.5, &x).unwrap(), &y).unwrap();
        close(&format!("axpy {dtype}"), &got, &want, fma_tolerance(dtype));
        // Another value of the same signature reuses the kernel.
        let got = g
            .call(&[Input::from(-0.5), Input::from(&x), Input::from(&y)])
            .unwrap();
        let want = ufunc::add(ufunc::multiply(-0.5, &x).unwrap(), &y).unwrap();
        close(
            &format!("axpy -0.5 {dtype}"),
            &got,
            &want,
            fma_tolerance(dtype),
        );
    }
    // Integers, shifts, floor division and divmod's two results.
    let h = fuse("ints", |x: &FVar, y: &FVar| {
        let (q, r) = fx::divmod(x, y);
        ((x + y) * 3 - (x >> 1), q, r, !x)
    });
    for dtype in [DType::Int8, DType::Int32, DType::UInt16, DType::Int64] {
        let x = random(dtype, &[17, 40], 31, 1.0, 100.0, false).T();
        let y = random(dtype, &[17, 1], 32, 1.0, 9.0, false).T();
        let (a, q, r, n) = h.call(&[&x, &y]).unwrap();
        let wa = ufunc::subtract(
            ufunc::multiply(ufunc::add(&x, &y).unwrap(), 3).unwrap(),
            ufunc::right_shift(&x, 1).unwrap(),
        )
        .unwrap();
        same(&format!("ints {dtype} a"), &a, &wa);
        same(
            &format!("ints {dtype} q"),
            &q,
            &ufunc::floor_divide(&x, &y).unwrap(),
        );
        same(
            &format!("ints {dtype} r"),
            &r,
            &ufunc::remainder(&x, &y).unwrap(),
        );
        same(&format!("ints {dtype} n"), &n, &ufunc::invert(&x).unwrap());
    }
}

#[test]
fn where_and_weak_scalars_match_unfused() {
    let Some(_d) = device_or_skip() else { return };
    let f = fuse("clip_low", |x: &FVar, y: &FVar| {
        fx::where_(x.greater(y), x, y * 0.5)
    });
    for dtype in [DType::Float32, DType::Float64, DType::Int16, DType::UInt8] {
        for (vname, x) in views(dtype, [20, 31], 41, 0.0, 50.0) {
            let y = random(dtype, &[20, 31], 42, 0.0, 50.0, true);
            let got = f.call(&[&x, &y]).unwrap();
            // where(c, x, y * 0.5) is y * 0.5 overwritten by x where c.
            let want = ufunc::multiply(&y, 0.5).unwrap();
            let want = want.astype(got.dtype()).unwrap();
            let mask = x.greater(&y).unwrap();
            gpu_array::array::copyto(&want, &x, gpu_array::dtype::Casting::SameKind, Some(&mask))
                .unwrap();
            same(&format!("where {dtype} {vname}"), &got, &want);
        }
    }
    // NumPy 2: uint8 < 300 is all true, uint8 + 300 an error, a float
    // constant on an int8 array gives float64.
    let g = fuse("weak", |x: &FVar| (x.less(300), x * 1.5, x + 1));
    let x = random(DType::UInt8, &[5, 7], 51, 0.0, 255.0, false);
    let (a, b, c) = g.call(&[&x]).unwrap();
    assert_array_equal(&a, &true);
    assert_eq!(a.shape(), &[5, 7]);
    same("weak b", &b, &ufunc::multiply(&x, 1.5).unwrap());
    same("weak c", &c, &ufunc::add(&x, 1).unwrap());
    assert_eq!(c.dtype(), DType::UInt8);
    let h = fuse("add300", |x: &FVar| x + 300);
    assert_eq!(
        h.call(&[&x]).unwrap_err().to_string(),
        "fuse 'add300': add: Python integer 300 out of bounds for uint8"
    );
    // A scalar argument is checked against the loop at call time.
    let k = fuse("addn", |x: &FVar, n: &FVar| x + n);
    let ok = k.call(&[Input::from(&x), Input::from(5)]).unwrap();
    same("addn", &ok, &ufunc::add(&x, 5).unwrap());
    assert!(
        k.call(&[Input::from(&x), Input::from(256)])
            .unwrap_err()
            .to_string()
            .contains("Python integer 256 out of bounds for uint8")
    );
    // Only scalars: a 0-d result in the default dtype.
    let r = k.call(&[Input::from(2), Input::from(0.5)]).unwrap();
    assert_eq!(r.shape(), &[] as &[usize]);
    assert_eq!(r.dtype(), DType::Float64);
    assert_eq!(r.item::<f64>(&[]).unwrap(), 2.5);
    let z = k
        .call(&[
            Input::Scalar(ScalarValue::Complex(Complex::new(1.0, 2.0))),
            Input::from(&random(DType::Float32, &[4], 52, 0.0, 1.0, false)),
        ])
        .unwrap();
    assert_eq!(z.dtype(), DType::Complex64);
}

/// The unfused value of a fused reduction.
fn unfused_reduce(op: &str, x: &Array, opts: &ReduceOptions<'_>) -> Array {
    match op {
        "sum" => gpu_array::math::sum(x, opts),
        "prod" => gpu_array::math::prod(x, opts),
        "max" => gpu_array::stats::amax(x, opts),
        "min" => gpu_array::stats::amin(x, opts),
        "mean" => gpu_array::stats::mean(x, opts),
        other => panic!("{other}"),
    }
    .unwrap()
}

fn fused_reduce(op: &str, x: &FVar, opts: &ReduceOptions<'_>) -> FVar {
    match op {
        "sum" => x.sum(opts),
        "prod" => x.prod(opts),
        "max" => x.max(opts),
        "min" => x.min(opts),
        "mean" => x.mean(opts),
        other => panic!("{other}"),
    }
}

fn reduce_tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Float16 | DType::BFloat16 => (4e-3, 1e-3),
        DType::Float32 | DType::Complex64 => (2e-5, 1e-6),
        DType::Float64 | DType::Complex128 => (1e-12, 1e-13),
        _ => (0.0, 0.0),
    }
}

/// Checks fused `op(x * y, opts)` against the unfused value over three
/// layouts of a 3-d `x` (C order, transposed, a reversed axis) and a 2-d
/// `y` that broadcasts.
fn check_one_reduction(op: &'static str, dtype: DType, opts: &ReduceOptions<'static>) {
    // prod of values near 1 stays finite over long rows; integer prods of
    // 1s and 2s wrap the same way in any order.
    let (lo, hi) = match (op, dtype.is_integer()) {
        ("prod", false) => (0.97, 1.03),
        ("prod", true) => (1.0, 3.0),
        (_, true) => (-50.0, 50.0),
        _ => (0.5, 1.5),
    };
    let o = opts.clone();
    let f = fuse("dot", move |x: &FVar, y: &FVar| {
        fused_reduce(op, &(x * y), &o)
    });
    let x0 = random(dtype, &[6, 7, 300], 61, lo, hi, false);
    let y0 = random(dtype, &[7, 300], 62, lo, hi, false);
    for (vname, x) in [
        ("c", x0.clone()),
        ("t", random(dtype, &[300, 7, 6], 63, lo, hi, false).T()),
        ("rev", x0.slice(&s![.., ..;-1, ..]).unwrap()),
    ] {
        let label = format!(
            "{op} {dtype} axis={:?} keepdims={} {vname}",
            opts.axis, opts.keepdims
        );
        let got = f
            .call(&[&x, &y0])
            .unwrap_or_else(|e| panic!("{label}: {e}"));
        let want = unfused_reduce(op, &ufunc::multiply(&x, &y0).unwrap(), opts);
        close(&label, &got, &want, reduce_tolerance(want.dtype()));
    }
}

#[test]
fn one_reduction_matches_unfused() {
    let Some(_d) = device_or_skip() else { return };
    // Every operation over several dtypes, along the last axis.
    for op in ["sum", "prod", "max", "min", "mean"] {
        for dtype in [
            DType::Float32,
            DType::Float64,
            DType::Float16,
            DType::Int32,
            DType::Int8,
            DType::Complex64,
        ] {
            if dtype.is_complex() && matches!(op, "max" | "min") {
                continue;
            }
            check_one_reduction(op, dtype, &ReduceOptions::axis(-1));
        }
    }
    // Every axis form, with and without keepdims.
    let axes: [Option<Vec<isize>>; 6] = [
        None,
        Some(vec![-1]),
        Some(vec![0]),
        Some(vec![1]),
        Some(vec![0, 2]),
        Some(vec![]),
    ];
    for (k, axis) in axes.into_iter().enumerate() {
        for keepdims in [false, true] {
            let opts = ReduceOptions::default()
                .with_axis(axis.clone())
                .keepdims(keepdims);
            check_one_reduction("sum", DType::Float32, &opts);
            // Exact integer results over a few of the axis forms (each
            // case compiles its kernels: keep the first run short).
            if k % 2 == 0 && keepdims == (k == 2) {
                check_one_reduction("max", DType::Int16, &opts);
            }
        }
    }
    // dtype= steers the accumulator and the result.
    check_one_reduction(
        "sum",
        DType::Float16,
        &ReduceOptions::axis(1).dtype(DType::Float64),
    );
    check_one_reduction(
        "mean",
        DType::Int32,
        &ReduceOptions::axes(&[0, 1]).dtype(DType::Float32),
    );
}

#[test]
fn every_strategy_matches_unfused() {
    let Some(_d) = device_or_skip() else { return };
    // (shape, axis): block per row, warp per row, column, two passes.
    let cases: Vec<(Vec<usize>, Option<Vec<isize>>)> = vec![
        (vec![64, 4096], Some(vec![-1])),
        (vec![4096, 16], Some(vec![1])),
        (vec![4096, 96], Some(vec![0])),
        (vec![1 << 20], None),
        (vec![3, 1 << 18], Some(vec![1])),
        (vec![512, 512], None),
    ];
    let f = |axis: Option<Vec<isize>>| {
        fuse("sum_sq", move |x: &FVar, y: &FVar| {
            let d = x - y;
            (&d * &d).sum(ReduceOptions::default().with_axis(axis.clone()))
        })
    };
    for (shape, axis) in cases {
        let fz = f(axis.clone());
        for dtype in [DType::Float32, DType::Float64, DType::Int32] {
            let x = random(dtype, &shape, 71, 0.0, 3.0, false);
            let y = random(dtype, &shape, 72, 0.0, 3.0, false);
            let got = fz.call(&[&x, &y]).unwrap();
            let d = ufunc::subtract(&x, &y).unwrap();
            let want = gpu_array::math::sum(
                &ufunc::multiply(&d, &d).unwrap(),
                ReduceOptions::default().with_axis(axis.clone()),
            )
            .unwrap();
            // Sums of squares: no cancellation, so a relative tolerance.
            close(
                &format!("{shape:?} {axis:?} {dtype}"),
                &got,
                &want,
                reduce_tolerance(dtype),
            );
        }
    }
}

#[test]
fn several_reductions_in_one_kernel_match_unfused() {
    let Some(_d) = device_or_skip() else { return };
    for axis in [Some(vec![-1]), Some(vec![0]), None, Some(vec![0, 1])] {
        let opts = ReduceOptions::default().with_axis(axis.clone());
        let o = opts.clone();
        let f = fuse("moments", move |x: &FVar| {
            let sq = x * x;
            (
                x.sum(&o),
                sq.sum(&o),
                x.max(&o),
                x.mean(&o),
                x.min(o.clone().keepdims(true)),
                x.astype(DType::Bool).sum(&o),
            )
        });
        for dtype in [DType::Float32, DType::Float64, DType::Int16, DType::Float16] {
            // NaN-free sums (a NaN in every row would hide them), then a
            // NaN-bearing input for NaN propagation.
            for (shape, view) in [
                (vec![300, 257], "c"),
                (vec![3000, 40], "c"),
                (vec![257, 300], "t"),
                (vec![40, 3000], "t"),
                (vec![64, 33], "nan"),
            ] {
                let x = random(dtype, &shape, 81, -2.0, 2.0, view == "nan");
                let x = if view == "t" { x.T() } else { x };
                let (s, s2, mx, mean, mn, nz) = f.call(&[&x]).unwrap();
                let label = format!("moments {dtype} {axis:?} {shape:?} {view}");
                let tol = reduce_tolerance(s.dtype());
                close(
                    &format!("{label} sum"),
                    &s,
                    &gpu_array::math::sum(&x, &opts).unwrap(),
                    tol,
                );
                let sq = ufunc::multiply(&x, &x).unwrap();
                close(
                    &format!("{label} sum sq"),
                    &s2,
                    &gpu_array::math::sum(&sq, &opts).unwrap(),
                    reduce_tolerance(s2.dtype()),
                );
                same(
                    &format!("{label} max"),
                    &mx,
                    &gpu_array::stats::amax(&x, &opts).unwrap(),
                );
                close(
                    &format!("{label} mean"),
                    &mean,
                    &gpu_array::stats::mean(&x, &opts).unwrap(),
                    reduce_tolerance(mean.dtype()),
                );
                same(
                    &format!("{label} min"),
                    &mn,
                    &gpu_array::stats::amin(&x, opts.clone().keepdims(true)).unwrap(),
                );
                same(
                    &format!("{label} count"),
                    &nz,
                    &gpu_array::sorting::count_nonzero(&x, &opts).unwrap(),
                );
            }
        }
    }
}

#[test]
fn fused_reductions_of_empty_and_call_errors() {
    let Some(_d) = device_or_skip() else { return };
    let e = Array::from_slice::<f32>(&[], &[4, 0]).unwrap();
    let sums = fuse("sums", |x: &FVar| {
        let o = ReduceOptions::axis(1);
        (x.sum(&o), x.mean(&o), x.prod(&o))
    });
    let (s, m, p) = sums.call(&[&e]).unwrap();
    assert_array_equal(&s, &[0.0f32; 4]);
    assert_array_equal(&p, &[1.0f32; 4]);
    assert_array_equal(&m, &[f32::NAN; 4]);
    let mx = fuse("mx", |x: &FVar| {
        (x.sum(ReduceOptions::axis(1)), x.max(ReduceOptions::axis(1)))
    });
    assert_eq!(
        mx.call(&[&e]).unwrap_err().to_string(),
        "zero-size array to reduction operation maximum which has no identity"
    );
    // Empty outputs are fine.
    let e0 = Array::from_slice::<f32>(&[], &[0, 5]).unwrap();
    let (a, b) = mx.call(&[&e0]).unwrap();
    assert_eq!((a.shape(), b.shape()), (&[0usize][..], &[0usize][..]));
    // Shapes that do not broadcast.
    let f = fuse("add", |x: &FVar, y: &FVar| x + y);
    let x = random(DType::Float32, &[3, 4], 91, 0.0, 1.0, false);
    let y = random(DType::Float32, &[5], 92, 0.0, 1.0, false);
    assert!(matches!(f.call(&[&x, &y]), Err(Error::Broadcast { .. })));
    // Results that would need different shapes.
    let g = fuse("two", |x: &FVar, y: &FVar| (x * 2, x + y));
    let y = random(DType::Float32, &[2, 3, 4], 93, 0.0, 1.0, false);
    let err = g.call(&[&x, &y]).unwrap_err();
    assert!(matches!(err, Error::Unsupported(_)), "{err}");
    // The wrong number of arguments.
    assert!(
        f.call(&[&x])
            .unwrap_err()
            .to_string()
            .contains("takes 2 arguments")
    );
    // A kernel named as asked: it runs twice from the cache.
    let h = fuse("my_kernel_name", |x: &FVar| fx::exp(x));
    let a = h.call(&[&x]).unwrap();
    let b = h.call(&[&x]).unwrap();
    same("cached", &a, &b);
    same("exp", &a, &ufunc::exp(&x).unwrap());
    assert_eq!(h.kernel_name(), "my_kernel_name");
}

// ---------------------------------------------------------------------
// all, any, count_nonzero and the nan-reductions, against a host
// reference; out= and dtype= on a fused call.
// ---------------------------------------------------------------------

/// A value as (real, imaginary) parts: every dtype's element as the host
/// reference sees it.
type C = (f64, f64);

/// The elements of `a` in C order (integers and bool as their values,
/// complex with both parts).
fn host(a: &Array) -> Vec<C> {
    if a.dtype().is_complex() {
        a.astype(DType::Complex128)
            .unwrap()
            .to_vec::<Complex<f64>>()
            .unwrap()
            .into_iter()
            .map(|z| (z.re, z.im))
            .collect()
    } else {
        a.astype(DType::Float64)
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
            .into_iter()
            .map(|x| (x, 0.0))
            .collect()
    }
}

/// The inputs of the reduction tests.
#[derive(Clone, Copy, PartialEq)]
enum Fill {
    /// About a quarter zeros (and for complex, some purely imaginary
    /// values), NaN in every 17th element of float inputs: for all, any
    /// and count_nonzero.
    Zeros,
    /// Values near 1 (integers: 1, and 2 one time in eight), NaN in every
    /// 17th element of float inputs: sums have no cancellation and long
    /// products stay finite.
    NearOne,
}

/// Seeded values of `dtype` and `shape` as `fill` says.
fn filled(dtype: DType, shape: &[usize], seed: u64, fill: Fill) -> Array {
    let n: usize = shape.iter().product();
    let mut rng = Rng::new(seed);
    let vals: Vec<C> = (0..n)
        .map(|k| {
            let u = rng.uniform(0.0, 1.0);
            let v = rng.uniform(-1.0, 1.0);
            let nan = dtype.is_inexact() && k % 17 == 5;
            let re = match fill {
                _ if nan => f64::NAN,
                Fill::Zeros if k % 4 == 1 => 0.0,
                Fill::Zeros if dtype.is_signed_integer() => (u * 5.0).floor() - 2.0,
                Fill::Zeros if dtype.is_integer() => (u * 5.0).floor(),
                Fill::Zeros if dtype == DType::Bool => f64::from(u8::from(u > 0.5)),
                Fill::Zeros => v,
                Fill::NearOne if dtype.is_integer() => 1.0 + f64::from(u8::from(u < 0.125)),
                Fill::NearOne if dtype == DType::Bool => f64::from(u8::from(u > 0.3)),
                Fill::NearOne => 0.97 + 0.06 * u,
            };
            let im = match fill {
                _ if !dtype.is_complex() => 0.0,
                Fill::Zeros if k % 4 == 1 => 0.0,
                Fill::Zeros if k % 9 == 2 => 0.5,
                _ => 0.003 * v,
            };
            // Purely imaginary: nonzero although its real part is zero.
            let re = if dtype.is_complex() && fill == Fill::Zeros && k % 9 == 2 && !nan {
                0.0
            } else {
                re
            };
            (re, im)
        })
        .collect();
    let a = if dtype.is_complex() {
        let z: Vec<Complex<f64>> = vals.iter().map(|&(re, im)| Complex::new(re, im)).collect();
        Array::from_slice(&z, shape).unwrap()
    } else {
        let x: Vec<f64> = vals.iter().map(|v| v.0).collect();
        Array::from_slice(&x, shape).unwrap()
    };
    a.astype(dtype).unwrap()
}

/// The reduced axes (sorted) of `axis` for `ndim` dimensions.
fn norm_axes(axis: &Option<Vec<isize>>, ndim: usize) -> Vec<usize> {
    let mut axes: Vec<usize> = match axis {
        None => (0..ndim).collect(),
        Some(list) => list
            .iter()
            .map(|&a| {
                if a < 0 {
                    (a + ndim as isize) as usize
                } else {
                    a as usize
                }
            })
            .collect(),
    };
    axes.sort_unstable();
    axes
}

/// The host reduction: `f` of each group of elements that reduce to one
/// result, in C order; and the result's shape.
fn host_reduce(
    shape: &[usize],
    vals: &[C],
    axes: &[usize],
    keepdims: bool,
    f: &dyn Fn(&[C]) -> C,
) -> (Vec<usize>, Vec<C>) {
    let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
    let out_shape: Vec<usize> = (0..shape.len())
        .filter_map(|d| {
            if !axes.contains(&d) {
                Some(shape[d])
            } else if keepdims {
                Some(1)
            } else {
                None
            }
        })
        .collect();
    let n_out: usize = kept.iter().map(|&d| shape[d]).product();
    let mut groups: Vec<Vec<C>> = vec![Vec::new(); n_out];
    for (flat, &v) in vals.iter().enumerate() {
        // Unravel in C order, then ravel the kept coordinates.
        let mut rem = flat;
        let mut coords = vec![0usize; shape.len()];
        for d in (0..shape.len()).rev() {
            coords[d] = rem % shape[d];
            rem /= shape[d];
        }
        let o = kept
            .iter()
            .fold(0usize, |acc, &d| acc * shape[d] + coords[d]);
        groups[o].push(v);
    }
    (out_shape, groups.iter().map(|g| f(g)).collect())
}

fn is_nan_c(v: C) -> bool {
    v.0.is_nan() || v.1.is_nan()
}

/// NumPy's value of reduction `op` over `g`.
fn host_op(op: &str, g: &[C]) -> C {
    let nonzero = |v: &&C| v.0 != 0.0 || v.1 != 0.0;
    let kept: Vec<C> = g.iter().copied().filter(|&v| !is_nan_c(v)).collect();
    let sum = kept.iter().fold((0.0, 0.0), |a, v| (a.0 + v.0, a.1 + v.1));
    let pick = |max: bool| {
        kept.iter()
            .map(|v| v.0)
            .reduce(|a, b| if (b > a) == max { b } else { a })
            .map_or((f64::NAN, 0.0), |m| (m, 0.0))
    };
    match op {
        "all" => (f64::from(u8::from(g.iter().all(|v| nonzero(&v)))), 0.0),
        "any" => (f64::from(u8::from(g.iter().any(|v| nonzero(&v)))), 0.0),
        "count_nonzero" => (g.iter().filter(nonzero).count() as f64, 0.0),
        "nansum" => sum,
        "nanprod" => kept.iter().fold((1.0, 0.0), |a, v| {
            (a.0 * v.0 - a.1 * v.1, a.0 * v.1 + a.1 * v.0)
        }),
        "nanmax" => pick(true),
        "nanmin" => pick(false),
        "nanmean" if kept.is_empty() => (f64::NAN, 0.0),
        "nanmean" => (sum.0 / kept.len() as f64, sum.1 / kept.len() as f64),
        other => panic!("{other}"),
    }
}

/// NumPy's result dtype of `op` for `input` (an oracle independent of the
/// library's own table).
fn numpy_dtype(op: &str, input: DType) -> DType {
    let small_int = input.is_integer() && input.itemsize() < 8;
    match op {
        "all" | "any" => DType::Bool,
        "count_nonzero" => DType::Int64,
        "nansum" | "nanprod" if input == DType::Bool => DType::Int64,
        "nansum" | "nanprod" if small_int && input.is_signed_integer() => DType::Int64,
        "nansum" | "nanprod" if small_int => DType::UInt64,
        "nanmean" if input == DType::Bool || input.is_integer() => DType::Float64,
        _ => input,
    }
}

/// (rtol, atol) of a reduced result of `dtype` against the host's float64
/// reference of the same (already rounded) inputs.
fn host_tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Float16 => (4e-3, 1e-3),
        DType::Float32 | DType::Complex64 => (5e-5, 1e-5),
        DType::Float64 | DType::Complex128 => (1e-12, 1e-12),
        _ => (0.0, 0.0),
    }
}

/// Compares a result with the host reference: same shape, elements equal
/// (NaN with NaN) or within `tol` per part.
fn check_host(label: &str, got: &Array, want_shape: &[usize], want: &[C], tol: (f64, f64)) {
    assert_eq!(got.shape(), want_shape, "{label}: shape");
    let g = host(got);
    assert_eq!(g.len(), want.len(), "{label}: size");
    for (k, (a, b)) in g.iter().zip(want).enumerate() {
        // NaN matches NaN part by part; else the complex distance (for
        // reals, the difference) within atol + rtol * |want|.
        let nan_ok = (a.0.is_nan() == b.0.is_nan()) && (a.1.is_nan() == b.1.is_nan());
        let ok = if is_nan_c(*a) || is_nan_c(*b) {
            nan_ok && (a.0 == b.0 || a.0.is_nan()) && (a.1 == b.1 || a.1.is_nan())
        } else {
            a == b || (a.0 - b.0).hypot(a.1 - b.1) <= tol.1 + tol.0 * b.0.hypot(b.1)
        };
        assert!(ok, "{label}: element {k}: got {a:?}, want {b:?}");
    }
}

#[test]
fn host_reference_reduces_as_numpy() {
    // No GPU: the oracle of the tests below, on hand-checked values.
    let vals: Vec<C> = [1.0, f64::NAN, 3.0, 0.0, 5.0, 6.0]
        .iter()
        .map(|&x| (x, 0.0))
        .collect();
    let (s, r) = host_reduce(&[2, 3], &vals, &[1], false, &|g| host_op("nansum", g));
    assert_eq!((s, r), (vec![2], vec![(4.0, 0.0), (11.0, 0.0)]));
    let (s, r) = host_reduce(&[2, 3], &vals, &[0], true, &|g| host_op("nanmax", g));
    assert_eq!(s, vec![1, 3]);
    assert_eq!(r, vec![(1.0, 0.0), (5.0, 0.0), (6.0, 0.0)]);
    let (_, r) = host_reduce(&[2, 3], &vals, &[0, 1], false, &|g| {
        host_op("count_nonzero", g)
    });
    assert_eq!(r, vec![(5.0, 0.0)]);
    let (_, r) = host_reduce(&[2, 3], &vals, &[1], false, &|g| host_op("all", g));
    assert_eq!(r, vec![(1.0, 0.0), (0.0, 0.0)]);
    let (_, r) = host_reduce(&[2, 3], &vals, &[], false, &|g| host_op("nanmean", g));
    assert!(r[1].0.is_nan() && r[2] == (3.0, 0.0));
    assert!(host_op("nanmin", &[(f64::NAN, 0.0)]).0.is_nan());
    assert_eq!(host_op("nanprod", &[(0.0, 1.0), (0.0, 1.0)]), (-1.0, 0.0));
    assert_eq!(norm_axes(&Some(vec![-1, 0]), 3), vec![0, 2]);
    assert_eq!(numpy_dtype("nansum", DType::UInt8), DType::UInt64);
    assert_eq!(numpy_dtype("nanmean", DType::Int64), DType::Float64);
}

const LOGICAL: [&str; 3] = ["all", "any", "count_nonzero"];
const NANS: [&str; 5] = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean"];

/// Checks fused `ops` (by name, all in one kernel over `opts`) of `x`
/// against the host reference.
fn check_reductions(label: &str, ops: &[&'static str], x: &Array, opts: &ReduceOptions<'static>) {
    let o = opts.clone();
    let names: Vec<&'static str> = ops.to_vec();
    let f = fuse("reds", move |x: &FVar| -> Vec<FVar> {
        names.iter().map(|&n| fx::reduction(n, x, &o)).collect()
    });
    let label = format!(
        "{label} {} axis={:?} keepdims={}",
        x.dtype(),
        opts.axis,
        opts.keepdims
    );
    let got = f.call(&[x]).unwrap_or_else(|e| panic!("{label}: {e}"));
    let vals = host(x);
    let axes = norm_axes(&opts.axis, x.ndim());
    for (op, g) in ops.iter().zip(&got) {
        let l = format!("{label} {op}");
        let want_dtype = numpy_dtype(op, x.dtype());
        assert_eq!(g.dtype(), want_dtype, "{l}: dtype");
        let (shape, want) =
            host_reduce(x.shape(), &vals, &axes, opts.keepdims, &|v| host_op(op, v));
        check_host(&l, g, &shape, &want, host_tolerance(want_dtype));
    }
}

#[test]
fn nan_and_logical_reductions_match_host() {
    let Some(_d) = device_or_skip() else { return };
    let axis_forms: [(Option<Vec<isize>>, bool); 5] = [
        (None, false),
        (Some(vec![-1]), false),
        (Some(vec![0]), true),
        (Some(vec![0, 2]), false),
        (Some(vec![]), false),
    ];
    for dtype in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::Int32,
        DType::Int8,
        DType::UInt8,
        DType::Bool,
        DType::Complex64,
    ] {
        // Integer products of 1s and 2s stay exact over rows of 33 only.
        let nans: Vec<&'static str> = NANS
            .iter()
            .copied()
            .filter(|&op| {
                let complex_order = dtype.is_complex() && matches!(op, "nanmax" | "nanmin");
                let int_prod = dtype.is_integer() && op == "nanprod";
                !complex_order && !int_prod
            })
            .collect();
        let zeros = filled(dtype, &[6, 7, 33], 101, Fill::Zeros);
        let near = filled(dtype, &[6, 7, 33], 102, Fill::NearOne);
        // Transposed and reversed layouts for two dtypes.
        let mut layouts = vec![("c", zeros.clone(), near.clone())];
        if matches!(dtype, DType::Float32 | DType::Int32) {
            layouts.push((
                "t",
                filled(dtype, &[33, 7, 6], 103, Fill::Zeros).T(),
                filled(dtype, &[33, 7, 6], 104, Fill::NearOne).T(),
            ));
            layouts.push((
                "rev",
                zeros.slice(&s![.., ..;-1, ..]).unwrap(),
                near.slice(&s![..;-1, .., ..]).unwrap(),
            ));
        }
        for (vname, z, n) in &layouts {
            for (axis, keepdims) in &axis_forms {
                let opts = ReduceOptions::default()
                    .with_axis(axis.clone())
                    .keepdims(*keepdims);
                check_reductions(&format!("zeros {vname}"), &LOGICAL, z, &opts);
                // Reducing no axis makes each NaN its own all-NaN row:
                // complex nanmean of one is 0j / 0, whose NaN parts are
                // the complex division's business; reals only.
                if dtype.is_complex() && axis.as_deref() == Some(&[]) {
                    continue;
                }
                check_reductions(&format!("near {vname}"), &nans, n, &opts);
            }
        }
        if dtype.is_integer() {
            // nanprod of integers (int64/uint64 results) along rows.
            for axis in [vec![-1], vec![1]] {
                check_reductions("near", &["nanprod"], &near, &ReduceOptions::axes(&axis));
            }
        }
    }
    // Each reduction alone (a one-field kernel), by name.
    let x = filled(DType::Float32, &[20, 50], 105, Fill::NearOne);
    for &op in LOGICAL.iter().chain(&NANS) {
        check_reductions("alone", &[op], &x, &ReduceOptions::axis(-1));
    }
    // Shapes that take the two-pass and the column strategies.
    for (shape, axis) in [
        (vec![1usize << 18], None),
        (vec![4096, 96], Some(vec![0])),
        (vec![3, 1 << 17], Some(vec![1])),
    ] {
        let opts = ReduceOptions::default().with_axis(axis);
        let n = filled(DType::Float32, &shape, 106, Fill::NearOne);
        let z = filled(DType::Float64, &shape, 107, Fill::Zeros);
        check_reductions("big", &["nansum", "nanmax", "nanmin", "nanmean"], &n, &opts);
        check_reductions("big", &LOGICAL, &z, &opts);
    }
}

#[test]
fn nan_reductions_of_all_nan_rows_empty_rows_and_masks() {
    let Some(_d) = device_or_skip() else { return };
    let nan = f32::NAN;
    // Row 0 all NaN, row 1 mixed, row 2 without NaN.
    let x = Array::from_slice(
        &[
            nan, nan, nan, nan, //
            1.0, nan, 3.0, -2.0, //
            4.0, 0.5, 2.0, 8.0f32,
        ],
        &[3, 4],
    )
    .unwrap();
    let f = fuse("nans", |x: &FVar| {
        let o = ReduceOptions::axis(1);
        (
            fx::nansum(x, &o),
            fx::nanprod(x, &o),
            fx::nanmax(x, &o),
            fx::nanmin(x, &o),
            fx::nanmean(x, &o),
            x.all(&o),
            x.any(&o),
            fx::count_nonzero(x, &o),
        )
    });
    let (s, p, mx, mn, mean, all, any, nz) = f.call(&[&x]).unwrap();
    assert_array_equal(&s, &[0.0f32, 2.0, 14.5]);
    assert_array_equal(&p, &[1.0f32, -6.0, 32.0]);
    assert_array_equal(&mx, &[nan, 3.0, 8.0]);
    assert_array_equal(&mn, &[nan, -2.0, 0.5]);
    check_host(
        "nanmean rows",
        &mean,
        &[3],
        &[(f64::NAN, 0.0), (2.0 / 3.0, 0.0), (3.625, 0.0)],
        (1e-6, 0.0),
    );
    // NaN is nonzero: true for all, any and count_nonzero.
    assert_array_equal(&all, &[true, true, true]);
    assert_array_equal(&any, &[true, true, true]);
    assert_array_equal(&nz, &[4i64, 4, 4]);
    // Empty rows: the identities, NaN for nanmean, and fmax's error.
    let e = Array::from_slice::<f32>(&[], &[4, 0]).unwrap();
    let g = fuse("empties", |x: &FVar| {
        let o = ReduceOptions::axis(1);
        (
            x.all(&o),
            x.any(&o),
            fx::count_nonzero(x, &o),
            fx::nansum(x, &o),
            fx::nanprod(x, &o),
            fx::nanmean(x, &o),
        )
    });
    let (all, any, nz, s, p, mean) = g.call(&[&e]).unwrap();
    assert_array_equal(&all, &[true; 4]);
    assert_array_equal(&any, &[false; 4]);
    assert_array_equal(&nz, &[0i64; 4]);
    assert_array_equal(&s, &[0.0f32; 4]);
    assert_array_equal(&p, &[1.0f32; 4]);
    assert_array_equal(&mean, &[nan; 4]);
    for (name, numpy) in [("nanmax", "fmax"), ("nanmin", "fmin")] {
        let h = fuse("h", move |x: &FVar| {
            fx::reduction(name, x, ReduceOptions::axis(1))
        });
        assert_eq!(
            h.call(&[&e]).unwrap_err().to_string(),
            format!("zero-size array to reduction operation {numpy} which has no identity")
        );
    }
    // A masked mean: masked-out values become NaN, and nanmean skips them
    // (a row masked out entirely gives NaN).
    let m = fuse("masked_mean", |x: &FVar, keep: &FVar| {
        fx::nanmean(fx::where_(keep, x, f64::NAN), ReduceOptions::axis(-1))
    });
    let x = filled(DType::Float32, &[40, 64], 111, Fill::NearOne);
    let keep = random(DType::Bool, &[40, 64], 112, 0.0, 1.0, false);
    // Row 3 masked out entirely.
    gpu_array::array::copyto(
        &keep.slice(&s![3, ..]).unwrap(),
        &Array::from_slice(&[false; 64], &[64]).unwrap(),
        Casting::No,
        None,
    )
    .unwrap();
    let got = m.call(&[&x, &keep]).unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    let xs = host(&x);
    let ks = host(&keep);
    let want: Vec<C> = (0..40)
        .map(|r| {
            let row: Vec<C> = (0..64)
                .map(|c| {
                    let k = r * 64 + c;
                    if ks[k].0 != 0.0 {
                        xs[k]
                    } else {
                        (f64::NAN, 0.0)
                    }
                })
                .collect();
            host_op("nanmean", &row)
        })
        .collect();
    check_host(
        "masked mean",
        &got,
        &[40],
        &want,
        host_tolerance(DType::Float32),
    );
}

#[test]
fn out_and_dtype_on_elementwise_calls() {
    let Some(_d) = device_or_skip() else { return };
    // Integer-valued floats: x * y + 1 is exact with or without an FMA.
    let xs: Vec<f32> = (0..7).map(|k| k as f32 - 3.0).collect();
    let ys: Vec<f32> = (0..7).map(|k| 2.0 * k as f32).collect();
    let x = Array::from_slice(&xs, &[7]).unwrap();
    let y = Array::from_slice(&ys, &[7]).unwrap();
    let f = fuse("two", |x: &FVar, y: &FVar| (x * y + 1, x.less(y)));
    // Results cast into out= arrays of other dtypes (same_kind), which are
    // what the call returns.
    let o0 = Array::zeros([7], DType::Float64).unwrap();
    let o1 = Array::zeros([7], DType::Int8).unwrap();
    let (a, b) = f
        .call_with(&[&x, &y], &FuseOptions::out(&[&o0, &o1]))
        .unwrap();
    assert!(a.shares_memory_with(&o0) && b.shares_memory_with(&o1));
    let want: Vec<f64> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| f64::from(x * y + 1.0))
        .collect();
    assert_array_equal(&o0, want.as_slice());
    let want: Vec<i8> = xs.iter().zip(&ys).map(|(x, y)| i8::from(x < y)).collect();
    assert_array_equal(&o1, want.as_slice());
    // One out= given, the other allocated.
    let o2 = Array::zeros([7], DType::Float32).unwrap();
    let (a, b) = f
        .call_with(
            &[&x, &y],
            &FuseOptions::default().out_optional(&[Some(&o2), None]),
        )
        .unwrap();
    assert!(a.shares_memory_with(&o2));
    same(
        "out f32",
        &a,
        &ufunc::add(ufunc::multiply(&x, &y).unwrap(), 1).unwrap(),
    );
    same("allocated", &b, &x.less(&y).unwrap());
    // An out= array broadcasts the iteration, as a ufunc's: (7,) into (3, 7).
    let g = fuse("xy1", |x: &FVar, y: &FVar| x * y + 1);
    let big = Array::zeros([3, 7], DType::Float32).unwrap();
    g.call_with(&[&x, &y], &FuseOptions::out(&[&big])).unwrap();
    let row: Vec<f32> = xs.iter().zip(&ys).map(|(&x, &y)| x * y + 1.0).collect();
    let rows: Vec<f32> = row.iter().cycle().take(21).copied().collect();
    assert_array_equal(&big.ravel().unwrap(), rows.as_slice());
    // A transposed (non-contiguous) out= array.
    let xt = random(DType::Float64, &[5, 9], 121, -2.0, 2.0, true);
    let yt = random(DType::Float64, &[9], 122, -2.0, 2.0, true);
    let ot = Array::zeros([9, 5], DType::Float64).unwrap().T();
    let h = fuse("sub", |x: &FVar, y: &FVar| x - y);
    h.call_with(&[&xt, &yt], &FuseOptions::out(&[&ot])).unwrap();
    same("transposed out", &ot, &ufunc::subtract(&xt, &yt).unwrap());
    // Errors: wrong shape, a dtype same_kind forbids, the wrong count,
    // dtype= without reductions.
    let bad = Array::zeros([7, 1], DType::Float32).unwrap();
    let e = g
        .call_with(&[&x, &y], &FuseOptions::out(&[&bad]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "fuse 'xy1': non-broadcastable output operand with shape (7,1) doesn't match the \
         broadcast shape (7,7)"
    );
    let int_out = Array::zeros([7], DType::Int32).unwrap();
    let e = g
        .call_with(&[&x, &y], &FuseOptions::out(&[&int_out]))
        .unwrap_err();
    assert!(matches!(e, Error::DType(_)), "{e}");
    assert!(
        e.to_string().contains("according to the rule 'same_kind'"),
        "{e}"
    );
    assert!(matches!(
        g.call_with(&[&x, &y], &FuseOptions::out(&[&o2, &o2])),
        Err(Error::Value(_))
    ));
    assert!(matches!(
        g.call_with(&[&x, &y], &FuseOptions::default().dtype(DType::Float64)),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn out_that_overlaps_the_arguments() {
    let Some(_d) = device_or_skip() else { return };
    let xs: Vec<f32> = (0..10).map(|k| k as f32).collect();
    let ys: Vec<f32> = (0..10).map(|k| 100.0 * k as f32).collect();
    let y = Array::from_slice(&ys, &[10]).unwrap();
    // In place: out= is the argument itself.
    let f = fuse("axpy2", |x: &FVar, y: &FVar| x * 2 + y);
    let x = Array::from_slice(&xs, &[10]).unwrap();
    f.call_with(&[&x, &y], &FuseOptions::out(&[&x])).unwrap();
    let want: Vec<f32> = xs.iter().zip(&ys).map(|(&x, &y)| 2.0 * x + y).collect();
    assert_array_equal(&x, want.as_slice());
    // out= is the argument reversed: the result is as if computed first.
    let g = fuse("inc", |x: &FVar| x + 1);
    let x = Array::from_slice(&xs, &[10]).unwrap();
    let rev = x.slice(&s![..;-1]).unwrap();
    g.call_with(&[&x], &FuseOptions::out(&[&rev])).unwrap();
    let want: Vec<f32> = (0..10).map(|j| 10.0 - j as f32).collect();
    assert_array_equal(&x, want.as_slice());
    // A reduction written into a column of its own input.
    let m = Array::from_slice(&(0..32).map(|k| k as f32).collect::<Vec<_>>(), &[4, 8]).unwrap();
    let col = m.slice(&s![.., 0]).unwrap();
    let r = fuse("rowsum", |x: &FVar| x.sum(ReduceOptions::axis(1)));
    r.call_with(&[&m], &FuseOptions::out(&[&col])).unwrap();
    assert_array_equal(&col, &[28.0f32, 92.0, 156.0, 220.0]);
}

#[test]
fn out_and_dtype_on_reduction_calls() {
    let Some(_d) = device_or_skip() else { return };
    // float32 summed into a float64 out= accumulates in float64 (no NaN
    // here: a NaN would make every row's sum NaN).
    let x = random(DType::Float32, &[30, 500], 131, 0.5, 1.5, false);
    let xv = host(&x);
    let f = fuse("stats", |x: &FVar| {
        let o = ReduceOptions::axis(-1);
        (
            x.sum(&o),
            fx::nanmean(x, &o),
            x.max(o.clone().keepdims(true)),
        )
    });
    let o_sum = Array::zeros([30], DType::Float64).unwrap();
    let o_mean = Array::zeros([30], DType::Float16).unwrap();
    let o_max = Array::zeros([30, 1], DType::Float64).unwrap();
    let (s, m, mx) = f
        .call_with(&[&x], &FuseOptions::out(&[&o_sum, &o_mean, &o_max]))
        .unwrap();
    assert!(s.shares_memory_with(&o_sum) && m.shares_memory_with(&o_mean));
    assert!(mx.shares_memory_with(&o_max));
    // sum of a row with a NaN is NaN; the host sums in float64 too.
    let (shape, want) = host_reduce(&[30, 500], &xv, &[1], false, &|g| {
        g.iter().fold((0.0, 0.0), |a, v| (a.0 + v.0, 0.0))
    });
    check_host("sum into f64", &o_sum, &shape, &want, (1e-12, 1e-12));
    let (shape, want) = host_reduce(&[30, 500], &xv, &[1], false, &|g| host_op("nanmean", g));
    check_host(
        "nanmean into f16",
        &o_mean,
        &shape,
        &want,
        host_tolerance(DType::Float16),
    );
    let (shape, want) = host_reduce(&[30, 500], &xv, &[1], true, &|g| {
        let m = g.iter().map(|v| v.0).fold(f64::NEG_INFINITY, |a, b| {
            if a.is_nan() || b.is_nan() {
                f64::NAN
            } else {
                a.max(b)
            }
        });
        (m, 0.0)
    });
    check_host("max keepdims", &o_max, &shape, &want, (0.0, 0.0));
    // int8 summed into an int8 out= wraps in int8, as NumPy's.
    let bytes: Vec<i8> = (0..64).map(|k| (k * 7 % 120) as i8).collect();
    let b = Array::from_slice(&bytes, &[64]).unwrap();
    let o8 = Array::zeros([], DType::Int8).unwrap();
    let g = fuse("total", |x: &FVar| x.sum(ReduceOptions::default()));
    g.call_with(&[&b], &FuseOptions::out(&[&o8])).unwrap();
    let wrapped = bytes.iter().fold(0i8, |a, &v| a.wrapping_add(v));
    assert_eq!(o8.item::<i8>(&[]).unwrap(), wrapped);
    // The same with an int64 accumulator: a sum that fits.
    let total = g.call(&[&b]).unwrap();
    assert_eq!(total.dtype(), DType::Int64);
    assert_eq!(
        total.item::<i64>(&[]).unwrap(),
        bytes.iter().map(|&v| i64::from(v)).sum::<i64>()
    );
    // dtype= on the call: float16 summed in float64, an integer mean in
    // float32, nanprod of int8 in float64; max ignores it.
    let h16 = filled(DType::Float16, &[8, 300], 132, Fill::NearOne);
    let hv = host(&h16);
    let k = fuse("kw", |x: &FVar| {
        let o = ReduceOptions::axis(1);
        (x.sum(&o), fx::nansum(x, &o), x.max(&o))
    });
    let (s, ns, mx) = k
        .call_with(&[&h16], &FuseOptions::default().dtype(DType::Float64))
        .unwrap();
    assert_eq!(
        (s.dtype(), ns.dtype(), mx.dtype()),
        (DType::Float64, DType::Float64, DType::Float16)
    );
    let (shape, want) = host_reduce(&[8, 300], &hv, &[1], false, &|g| host_op("nansum", g));
    check_host("nansum dtype=f64", &ns, &shape, &want, (1e-12, 1e-12));
    let ints = filled(DType::Int32, &[5, 40], 133, Fill::Zeros);
    let iv = host(&ints);
    let mean = fuse("imean", |x: &FVar| x.mean(ReduceOptions::axis(0)));
    let got = mean
        .call_with(&[&ints], &FuseOptions::default().dtype(DType::Float32))
        .unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    let (shape, want) = host_reduce(&[5, 40], &iv, &[0], false, &|g| host_op("nanmean", g));
    check_host("int mean dtype=f32", &got, &shape, &want, (1e-6, 1e-6));
    let small = filled(DType::Int8, &[4, 30], 134, Fill::NearOne);
    let sv = host(&small);
    let p = fuse("iprod", |x: &FVar| fx::nanprod(x, ReduceOptions::axis(1)));
    let got = p
        .call_with(&[&small], &FuseOptions::default().dtype(DType::Float64))
        .unwrap();
    assert_eq!(got.dtype(), DType::Float64);
    let (shape, want) = host_reduce(&[4, 30], &sv, &[1], false, &|g| host_op("nanprod", g));
    check_host("int8 nanprod dtype=f64", &got, &shape, &want, (0.0, 0.0));
    // Errors: an out= of the wrong shape names NumPy's operation; same_kind.
    let wrong = Array::zeros([30, 1], DType::Float64).unwrap();
    let e = fuse("s", |x: &FVar| x.sum(ReduceOptions::axis(-1)))
        .call_with(&[&x], &FuseOptions::out(&[&wrong]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "fuse 's': output parameter for reduction operation add has the wrong shape (30,1) \
         (expected (30,))"
    );
    let int_out = Array::zeros([30], DType::Int64).unwrap();
    let e = fuse("s", |x: &FVar| fx::nanmax(x, ReduceOptions::axis(-1)))
        .call_with(&[&x], &FuseOptions::out(&[&int_out]))
        .unwrap_err();
    assert!(matches!(e, Error::DType(_)), "{e}");
    // dtype= and a reduction's own dtype=: the reduction's wins.
    let own = fuse("own", |x: &FVar| {
        x.sum(ReduceOptions::axis(1).dtype(DType::Float32))
    });
    let got = own
        .call_with(&[&h16], &FuseOptions::default().dtype(DType::Float64))
        .unwrap();
    assert_eq!(got.dtype(), DType::Float32);
}
