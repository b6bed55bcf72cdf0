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

use gpu_array::dtype::ScalarValue;
use gpu_array::fusion::{FVar, fuse, fx};
use gpu_array::reduction::{self, ReduceOptions};
use gpu_array::ufunc::{self, Input};
use gpu_array::{Array, DType, Error, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::assert_array_equal;
use num_complex::Complex;

/// A seeded xorshift generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [lo, hi).
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

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
                &ufunc::exp(&ufunc::sin(&x).unwrap()).unwrap(),
                &ufunc::add(&ufunc::absolute(&y).unwrap(), 1).unwrap(),
            )
            .unwrap();
            close_or_same(&format!("{label} a"), &a, &wa);
            let wb = ufunc::maximum(&x, &y)
                .unwrap()
                .astype(DType::Int16)
                .unwrap();
            same(&format!("{label} b"), &b, &wb);
            let wc =
                ufunc::bitwise_and(&x.greater(&y).unwrap(), &y.less_equal(0.5).unwrap()).unwrap();
            same(&format!("{label} c"), &c, &wc);
            let wd =
                ufunc::subtract(&ufunc::sqrt(&ufunc::square(&x).unwrap()).unwrap(), 2.0).unwrap();
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
        let want = ufunc::add(&ufunc::multiply(2.5, &x).unwrap(), &y).unwrap();
        close(&format!("axpy {dtype}"), &got, &want, fma_tolerance(dtype));
        // Another value of the same signature reuses the kernel.
        let got = g
            .call(&[Input::from(-0.5), Input::from(&x), Input::from(&y)])
            .unwrap();
        let want = ufunc::add(&ufunc::multiply(-0.5, &x).unwrap(), &y).unwrap();
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
            &ufunc::multiply(&ufunc::add(&x, &y).unwrap(), 3).unwrap(),
            &ufunc::right_shift(&x, 1).unwrap(),
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
        "sum" => reduction::sum(x, opts),
        "prod" => reduction::prod(x, opts),
        "max" => reduction::amax(x, opts),
        "min" => reduction::amin(x, opts),
        "mean" => reduction::mean(x, opts),
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
            let opts = ReduceOptions {
                axis: axis.clone(),
                keepdims,
                ..Default::default()
            };
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
            (&d * &d).sum(&ReduceOptions {
                axis: axis.clone(),
                ..Default::default()
            })
        })
    };
    for (shape, axis) in cases {
        let fz = f(axis.clone());
        for dtype in [DType::Float32, DType::Float64, DType::Int32] {
            let x = random(dtype, &shape, 71, 0.0, 3.0, false);
            let y = random(dtype, &shape, 72, 0.0, 3.0, false);
            let got = fz.call(&[&x, &y]).unwrap();
            let d = ufunc::subtract(&x, &y).unwrap();
            let want = reduction::sum(
                &ufunc::multiply(&d, &d).unwrap(),
                &ReduceOptions {
                    axis: axis.clone(),
                    ..Default::default()
                },
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
        let opts = ReduceOptions {
            axis: axis.clone(),
            ..Default::default()
        };
        let o = opts.clone();
        let f = fuse("moments", move |x: &FVar| {
            let sq = x * x;
            (
                x.sum(&o),
                sq.sum(&o),
                x.max(&o),
                x.mean(&o),
                x.min(&o.clone().keepdims(true)),
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
                    &reduction::sum(&x, &opts).unwrap(),
                    tol,
                );
                let sq = ufunc::multiply(&x, &x).unwrap();
                close(
                    &format!("{label} sum sq"),
                    &s2,
                    &reduction::sum(&sq, &opts).unwrap(),
                    reduce_tolerance(s2.dtype()),
                );
                same(
                    &format!("{label} max"),
                    &mx,
                    &reduction::amax(&x, &opts).unwrap(),
                );
                close(
                    &format!("{label} mean"),
                    &mean,
                    &reduction::mean(&x, &opts).unwrap(),
                    reduce_tolerance(mean.dtype()),
                );
                same(
                    &format!("{label} min"),
                    &mn,
                    &reduction::amin(&x, &opts.clone().keepdims(true)).unwrap(),
                );
                same(
                    &format!("{label} count"),
                    &nz,
                    &reduction::count_nonzero(&x, &opts).unwrap(),
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
        (
            x.sum(&ReduceOptions::axis(1)),
            x.max(&ReduceOptions::axis(1)),
        )
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
