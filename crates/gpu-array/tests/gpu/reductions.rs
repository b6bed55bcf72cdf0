//! Tier-3 tests of reductions: the built-ins against NumPy's stored output
//! (`testdata/reduction/reduction_golden.npz`, written by `make_golden.py`
//! beside it) over dtypes, axes, keepdims, NaN-bearing, 0-d, strided,
//! reversed and transposed inputs; every strategy against a float64 or
//! exact integer host reference; empty reductions; `out=`, `dtype=`;
//! `ReductionKernel`; argmax/argmin (ties, NaN, every strategy), var/std
//! (ddof, long rows against a float64 reference) and their `nan` forms.

use gpu_array::npy::{NpyArray, NpzReader};
use gpu_array::reduction::{self, Builtin, ReduceOptions, ReductionCall, ReductionKernel};
use gpu_array::{Array, DType, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::{assert_allclose, assert_array_equal};
use ndarray::{ArrayD, Axis, IxDyn};

use crate::common::testdata;

fn golden() -> Vec<(String, NpyArray)> {
    let path = testdata("reduction/reduction_golden.npz");
    NpzReader::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .read_all()
        .unwrap()
}

fn parse_axis(t: &str) -> Option<Vec<isize>> {
    match t {
        "none" => None,
        "empty" => Some(vec![]),
        _ => Some(
            t.split('_')
                .map(|x| match x.strip_prefix('m') {
                    Some(n) => -n.parse::<isize>().unwrap(),
                    None => x.parse().unwrap(),
                })
                .collect(),
        ),
    }
}

fn tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Float16 => (2e-3, 2e-2),
        DType::Float32 | DType::Complex64 => (2e-5, 2e-5),
        DType::Float64 | DType::Complex128 => (1e-12, 1e-12),
        _ => (0.0, 0.0),
    }
}

#[test]
fn numpy_golden() {
    let Some(_d) = device_or_skip() else { return };
    let all = golden();
    let input = |tag: &str| {
        let (_, a) = all
            .iter()
            .find(|(n, _)| n.as_str() == format!("in__{tag}"))
            .unwrap_or_else(|| panic!("no input {tag}"));
        Array::from_npy(a).unwrap()
    };
    let mut count = 0;
    for (name, want) in all.iter().filter(|(n, _)| n.ends_with(".out")) {
        let f: Vec<&str> = name.trim_end_matches(".out").split("__").collect();
        let [op, axis, keepdims, dtype, view, tag] = f[..] else {
            panic!("bad case name {name}")
        };
        let (op, ddof) = match op.split_once("_ddof") {
            Some((o, d)) => (o, d.parse::<f64>().unwrap()),
            None => (op, 0.0),
        };
        let op = match op {
            "ptp" => None,
            "sum" => Some(Builtin::Sum),
            "prod" => Some(Builtin::Prod),
            "max" => Some(Builtin::Max),
            "min" => Some(Builtin::Min),
            "all" => Some(Builtin::All),
            "any" => Some(Builtin::Any),
            "count_nonzero" => Some(Builtin::CountNonzero),
            "mean" => Some(Builtin::Mean),
            "nansum" => Some(Builtin::NanSum),
            "nanprod" => Some(Builtin::NanProd),
            "nanmax" => Some(Builtin::NanMax),
            "nanmin" => Some(Builtin::NanMin),
            "argmax" => Some(Builtin::ArgMax),
            "argmin" => Some(Builtin::ArgMin),
            "nanargmax" => Some(Builtin::NanArgMax),
            "nanargmin" => Some(Builtin::NanArgMin),
            "var" => Some(Builtin::Var),
            "std" => Some(Builtin::Std),
            "nanmean" => Some(Builtin::NanMean),
            "nanvar" => Some(Builtin::NanVar),
            "nanstd" => Some(Builtin::NanStd),
            other => panic!("unknown op {other}"),
        };
        let a = input(tag);
        let a = match view {
            "c" => a,
            "t" => a.T(),
            "step" => a.slice(&s![..., ..;2]).unwrap(),
            "rev" => a.slice(&s![..;-1]).unwrap(),
            other => panic!("unknown view {other}"),
        };
        let opts = ReduceOptions::default()
            .with_axis(parse_axis(axis))
            .keepdims(keepdims == "1")
            .dtype((dtype != "default").then(|| dtype.parse().unwrap()))
            .ddof(ddof);
        let got = match op {
            Some(op) => reduction::reduce(op, &a, &opts),
            None => gpu_array::stats::ptp(&a, &opts),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), want.dtype, "{name}: dtype");
        assert_eq!(got.shape(), want.shape.as_slice(), "{name}: shape");
        // NumPy's nanvar/nanstd subtract the mean in the input's dtype
        // (`np.subtract(arr, avg, out=arr, casting='unsafe')`) even when
        // `dtype=` is wider, so its float32-input/float64 results carry
        // float32 rounding; Cuprum's stay at float64 accuracy. Compare such
        // cases at the input dtype's tolerance.
        let nan_moment = matches!(op, Some(Builtin::NanVar | Builtin::NanStd));
        let (rtol, atol) =
            if nan_moment && a.dtype().is_inexact() && a.dtype().itemsize() < want.dtype.itemsize()
            {
                tolerance(a.dtype())
            } else {
                tolerance(want.dtype)
            };
        if let Err(e) = gpu_testing::check_allclose(&got, want, rtol, atol) {
            panic!("{name}: {e}");
        }
        count += 1;
    }
    assert!(count >= 390, "{count} cases");
}

/// Deterministic values in [0, 1).
fn unit(n: usize, seed: u64) -> Vec<f32> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect()
}

fn host_sum(h: &ArrayD<f64>, axes: &[usize]) -> ArrayD<f64> {
    let mut r = h.clone();
    for &a in axes.iter().rev() {
        r = r.sum_axis(Axis(a));
    }
    r
}

#[test]
fn every_strategy_against_float64() {
    let Some(_d) = device_or_skip() else { return };
    // (shape, axes): two passes (full, few long rows, few long strided
    // columns), columns, blocks and warps per row.
    let cases: [(&[usize], &[isize]); 7] = [
        (&[1 << 22], &[0]),
        (&[3, 1 << 20], &[1]),
        (&[1 << 19, 3], &[0]),
        (&[4096, 700], &[0]),
        (&[700, 4096], &[1]),
        (&[100_000, 5], &[1]),
        (&[64, 33, 65], &[0, 2]),
    ];
    for (shape, axes) in cases {
        let n: usize = shape.iter().product();
        let v = unit(n, n as u64);
        let a = Array::from_slice(&v, shape).unwrap();
        let h = ArrayD::from_shape_vec(IxDyn(shape), v.iter().map(|&x| f64::from(x)).collect())
            .unwrap();
        let ax: Vec<usize> = axes
            .iter()
            .map(|&x| {
                if x < 0 {
                    (x + shape.len() as isize) as usize
                } else {
                    x as usize
                }
            })
            .collect();
        let want = host_sum(&h, &ax);
        let got = a.sum(ReduceOptions::axes(axes)).unwrap();
        assert_eq!(got.dtype(), DType::Float32);
        assert_allclose(&got, &want.mapv(|x| x as f32), 1e-5, 0.0);
        let rows = (n / want.len().max(1)) as f64;
        let got = a.mean(ReduceOptions::axes(axes)).unwrap();
        assert_allclose(&got, &want.mapv(|x| (x / rows) as f32), 1e-5, 0.0);
        // max and min are exact.
        let mut hm = h.clone();
        let mut hn = h.clone();
        for &x in ax.iter().rev() {
            hm = hm.fold_axis(Axis(x), f64::NEG_INFINITY, |a, &b| a.max(b));
            hn = hn.fold_axis(Axis(x), f64::INFINITY, |a, &b| a.min(b));
        }
        assert_array_equal(
            &a.max(ReduceOptions::axes(axes)).unwrap(),
            &hm.mapv(|x| x as f32),
        );
        assert_array_equal(
            &a.min(ReduceOptions::axes(axes)).unwrap(),
            &hn.mapv(|x| x as f32),
        );
    }
    // NaN anywhere in a long row propagates through both passes.
    let mut v = unit(1 << 21, 7);
    v[1_234_567] = f32::NAN;
    let a = Array::from_slice(&v, &[1 << 21]).unwrap();
    for op in [Builtin::Sum, Builtin::Max, Builtin::Min, Builtin::Mean] {
        let r = reduction::reduce(op, &a, &ReduceOptions::default()).unwrap();
        assert!(r.item::<f32>(&[]).unwrap().is_nan(), "{op:?}");
    }
}

#[test]
fn integer_sums_over_every_axis_combination_and_layout() {
    let Some(_d) = device_or_skip() else { return };
    let shape = [6usize, 5, 4, 3];
    let n: usize = shape.iter().product();
    let v: Vec<i32> = (0..n as i32).map(|i| (i * 7919) % 1000 - 500).collect();
    let base = Array::from_slice(&v, &shape).unwrap();
    let hbase =
        ArrayD::from_shape_vec(IxDyn(&shape), v.iter().map(|&x| i64::from(x)).collect()).unwrap();
    let views: Vec<(Array, ArrayD<i64>)> = vec![
        (base.clone(), hbase.clone()),
        (
            base.transpose(Some(&[3, 1, 0, 2])).unwrap(),
            hbase.clone().permuted_axes(IxDyn(&[3, 1, 0, 2])),
        ),
        (
            base.slice(&s![..;-2, .., 1.., ..;2]).unwrap(),
            hbase
                .slice(ndarray::s![..;-2, .., 1.., ..;2])
                .to_owned()
                .into_dyn(),
        ),
    ];
    for (a, h) in &views {
        let nd = a.ndim();
        for mask in 0..(1u32 << nd) {
            let axes: Vec<usize> = (0..nd).filter(|k| mask & (1 << k) != 0).collect();
            let iaxes: Vec<isize> = axes.iter().map(|&x| x as isize - nd as isize).collect();
            for keepdims in [false, true] {
                let got = a
                    .sum(ReduceOptions::axes(&iaxes).keepdims(keepdims))
                    .unwrap();
                assert_eq!(got.dtype(), DType::Int64);
                let mut want = h.clone();
                for &x in axes.iter().rev() {
                    want = want.sum_axis(Axis(x));
                    if keepdims {
                        want.insert_axis_inplace(Axis(x));
                    }
                }
                assert_array_equal(&got, &want);
            }
        }
    }
}

#[test]
fn empty_reductions() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice::<f32>(&[], &[3, 0]).unwrap();
    assert_array_equal(&a.sum(ReduceOptions::axis(1)).unwrap(), &[0.0f32; 3]);
    assert_array_equal(&a.prod(ReduceOptions::axis(-1)).unwrap(), &[1.0f32; 3]);
    assert_array_equal(&a.all(ReduceOptions::axis(1)).unwrap(), &[true; 3]);
    assert_array_equal(&a.any(ReduceOptions::axis(1)).unwrap(), &[false; 3]);
    assert_array_equal(
        &a.count_nonzero(ReduceOptions::axis(1)).unwrap(),
        &[0i64; 3],
    );
    let m = a.mean(ReduceOptions::axis(1)).unwrap();
    assert!(m.to_vec::<f32>().unwrap().iter().all(|x| x.is_nan()));
    assert_eq!(
        a.max(ReduceOptions::axis(1)).unwrap_err().to_string(),
        "zero-size array to reduction operation maximum which has no identity"
    );
    assert_eq!(
        a.min(ReduceOptions::default()).unwrap_err().to_string(),
        "zero-size array to reduction operation minimum which has no identity"
    );
    // Reducing the non-empty axis gives an empty result, even for max.
    let r = a.max(ReduceOptions::axis(0)).unwrap();
    assert_eq!(r.shape(), &[0]);
    let full = a.sum(ReduceOptions::default()).unwrap();
    assert_eq!(full.ndim(), 0);
    assert_eq!(full.item::<f32>(&[]).unwrap(), 0.0);
    let i = Array::from_slice::<i8>(&[], &[0]).unwrap();
    assert_eq!(
        i.sum(ReduceOptions::default())
            .unwrap()
            .item::<i64>(&[])
            .unwrap(),
        0
    );
}

#[test]
fn scalars_out_dtype_and_errors() {
    let Some(_d) = device_or_skip() else { return };
    let v: Vec<i16> = (0..24).map(|i| i * 1000).collect();
    let a = Array::from_slice(&v, &[2, 3, 4]).unwrap();
    // Full reductions are 0-d; item brings the value back.
    let s = a.sum(ReduceOptions::default()).unwrap();
    assert_eq!((s.ndim(), s.dtype()), (0, DType::Int64));
    assert_eq!(s.item::<i64>(&[]).unwrap(), 276_000);
    assert_eq!(
        a.mean(ReduceOptions::default())
            .unwrap()
            .item::<f64>(&[])
            .unwrap(),
        11_500.0
    );
    // dtype= accumulates in the requested type (int16 wraps as NumPy).
    let w = a.sum(ReduceOptions::axis(2).dtype(DType::Int16)).unwrap();
    let want: Vec<i16> = v
        .chunks(4)
        .map(|c| c.iter().fold(0i16, |s, &x| s.wrapping_add(x)))
        .collect();
    assert_array_equal(&w.reshape([-1]).unwrap(), &want);
    // out= is written and returned; sum accumulates in its dtype.
    let out = Array::zeros([2, 1, 4], DType::Float64).unwrap();
    let r = gpu_array::math::sum(&a, ReduceOptions::axis(1).keepdims(true).out(&out)).unwrap();
    assert!(r.shares_memory_with(&out));
    let want: Vec<f64> = (0..2)
        .flat_map(|i| {
            let v = &v;
            (0..4).map(move |k| (0..3).map(|j| f64::from(v[i * 12 + j * 4 + k])).sum())
        })
        .collect();
    assert_array_equal(&out.reshape([-1]).unwrap(), &want);
    // Wrong out shape, casting, axes.
    let bad = Array::zeros([2, 4], DType::Float64).unwrap();
    assert!(gpu_array::math::sum(&a, ReduceOptions::axis(1).keepdims(true).out(&bad)).is_err());
    let f = Array::from_slice(&[1.5f32, 2.5], &[2]).unwrap();
    let iout = Array::zeros([], DType::Int32).unwrap();
    assert!(gpu_array::math::sum(&f, ReduceOptions::default().out(&iout)).is_err());
    assert_eq!(
        a.sum(ReduceOptions::axis(3)).unwrap_err().to_string(),
        "axis 3 is out of bounds for array of dimension 3"
    );
    assert_eq!(
        a.sum(ReduceOptions::axes(&[0, -3]))
            .unwrap_err()
            .to_string(),
        "repeated axis"
    );
    assert!(
        a.max(ReduceOptions::default().dtype(DType::Float32))
            .is_err()
    );
    // A 0-d input.
    let z = Array::scalar(3.5f64).unwrap();
    assert_eq!(
        z.sum(ReduceOptions::default())
            .unwrap()
            .item::<f64>(&[])
            .unwrap(),
        3.5
    );
    assert_eq!(z.max(ReduceOptions::axes(&[])).unwrap().ndim(), 0);
}

#[test]
fn reduction_kernel() {
    let Some(_d) = device_or_skip() else { return };
    // CuPy's tutorial example.
    let l2norm = ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )
    .unwrap();
    let v: Vec<f32> = (0..10).map(|i| i as f32).collect();
    let x = Array::from_slice(&v, &[2, 5]).unwrap();
    let r = l2norm
        .call(&[(&x).into()], &ReductionCall::axis(1))
        .unwrap();
    assert_allclose(&r[0], &[5.477_226f32, 15.968_72], 1e-6, 0.0);
    let full = l2norm
        .call(&[(&x).into()], &ReductionCall::default())
        .unwrap();
    assert_eq!(full[0].ndim(), 0);
    assert_allclose(&full[0].reshape([1]).unwrap(), &[285f32.sqrt()], 1e-6, 0.0);
    let kd = l2norm
        .call(&[(&x).into()], &ReductionCall::axis(0).keepdims(true))
        .unwrap();
    assert_eq!(kd[0].shape(), &[1, 5]);
    // Broadcast inputs, a scalar, two outputs, a given output.
    let wsum = ReductionKernel::new(
        "T x, T w, T s",
        "T y, int64 cnt",
        "x * w * s",
        "a + b",
        "y = a; cnt = _in_ind.size() / _out_ind.size()",
        Some("0"),
        "wsum",
    )
    .unwrap();
    let w = Array::from_slice(&[1.0f32, 0.0, 2.0, 0.0, 1.0], &[5]).unwrap();
    let y = Array::zeros([2], DType::Float32).unwrap();
    let c = Array::zeros([2], DType::Int64).unwrap();
    wsum.call(
        &[(&x).into(), (&w).into(), 2.0.into()],
        &ReductionCall::axis(-1).keepdims(false).out(&[&y, &c]),
    )
    .unwrap();
    assert_array_equal(&y, &[2.0f32 * (0.0 + 4.0 + 4.0), 2.0 * (5.0 + 14.0 + 9.0)]);
    assert_array_equal(&c, &[5i64, 5]);
    // No identity: an empty reduction is NumPy's error.
    let maxk =
        ReductionKernel::new("T x", "T y", "x", "max(a, b)", "y = a", None, "mymax").unwrap();
    let e = Array::from_slice::<f32>(&[], &[0, 3]).unwrap();
    assert_eq!(
        maxk.call(&[(&e).into()], &ReductionCall::default())
            .unwrap_err()
            .to_string(),
        "zero-size array to reduction operation mymax which has no identity"
    );
    let m = maxk
        .call(&[(&x).into()], &ReductionCall::default())
        .unwrap();
    assert_eq!(m[0].item::<f32>(&[]).unwrap(), 9.0);
}

/// Host argmax/argmin of `v` (first occurrence; the first NaN wins unless
/// `skip_nan`, when NaN is skipped; None for no candidate).
fn host_arg(v: &[f32], max: bool, skip_nan: bool) -> Option<i64> {
    let mut best: Option<(usize, f32)> = None;
    for (i, &x) in v.iter().enumerate() {
        if x.is_nan() {
            if skip_nan {
                continue;
            }
            return Some(i as i64);
        }
        let better = match best {
            None => true,
            Some((_, b)) => {
                if max {
                    x > b
                } else {
                    x < b
                }
            }
        };
        if better {
            best = Some((i, x));
        }
    }
    best.map(|(i, _)| i as i64)
}

#[test]
fn arg_reductions_every_strategy() {
    let Some(_d) = device_or_skip() else { return };
    // Values on a coarse grid so that every row has ties; rows by shape
    // take two passes, blocks, warps and columns.
    let cases: [&[usize]; 5] = [
        &[1 << 22],
        &[3, 1 << 20],
        &[700, 4096],
        &[100_000, 5],
        &[4096, 700],
    ];
    for shape in cases {
        let n: usize = shape.iter().product();
        let v: Vec<f32> = unit(n, n as u64 + 1)
            .iter()
            .map(|x| (x * 64.0).floor())
            .collect();
        let a = Array::from_slice(&v, shape).unwrap();
        let (rows, len) = if shape.len() == 1 {
            (1, n)
        } else {
            (shape[0], shape[1])
        };
        for max in [true, false] {
            let op = if max {
                Builtin::ArgMax
            } else {
                Builtin::ArgMin
            };
            // Full (flat index) and along the last axis.
            let got = reduction::reduce(op, &a, &ReduceOptions::default()).unwrap();
            assert_eq!((got.ndim(), got.dtype()), (0, DType::Int64));
            assert_eq!(
                got.item::<i64>(&[]).unwrap(),
                host_arg(&v, max, false).unwrap(),
                "{op:?} {shape:?} full"
            );
            let got = reduction::reduce(op, &a, &ReduceOptions::axis(-1)).unwrap();
            let want: Vec<i64> = (0..rows)
                .map(|r| host_arg(&v[r * len..(r + 1) * len], max, false).unwrap())
                .collect();
            assert_eq!(
                got.to_vec::<i64>().unwrap(),
                want,
                "{op:?} {shape:?} axis -1"
            );
            if shape.len() == 2 {
                // Along axis 0 (strided: the column strategy).
                let got = reduction::reduce(op, &a, &ReduceOptions::axis(0)).unwrap();
                let want: Vec<i64> = (0..len)
                    .map(|c| {
                        let col: Vec<f32> = (0..rows).map(|r| v[r * len + c]).collect();
                        host_arg(&col, max, false).unwrap()
                    })
                    .collect();
                assert_eq!(
                    got.to_vec::<i64>().unwrap(),
                    want,
                    "{op:?} {shape:?} axis 0"
                );
            }
        }
    }
    // NaN in a long row: the first NaN wins argmax and argmin through both
    // passes; nanargmax skips them.
    let mut v = unit(1 << 21, 9);
    v[1_500_000] = f32::NAN;
    v[1_234_567] = f32::NAN;
    v[77] = 2.0;
    v[1_999_999] = 2.0;
    let a = Array::from_slice(&v, &[1 << 21]).unwrap();
    for op in [Builtin::ArgMax, Builtin::ArgMin] {
        let r = reduction::reduce(op, &a, &ReduceOptions::default()).unwrap();
        assert_eq!(r.item::<i64>(&[]).unwrap(), 1_234_567, "{op:?}");
    }
    let r = gpu_array::sorting::nanargmax(&a, ReduceOptions::default()).unwrap();
    assert_eq!(r.item::<i64>(&[]).unwrap(), 77);
    let r = gpu_array::sorting::nanargmin(&a, ReduceOptions::default()).unwrap();
    assert_eq!(
        r.item::<i64>(&[]).unwrap(),
        host_arg(&v, false, true).unwrap()
    );
}

#[test]
fn arg_reductions_errors_out_and_keepdims() {
    let Some(_d) = device_or_skip() else { return };
    let e = Array::from_slice::<f32>(&[], &[3, 0]).unwrap();
    for (r, name) in [
        (e.argmax(ReduceOptions::axis(1)), "argmax"),
        (e.argmin(ReduceOptions::default()), "argmin"),
        (
            gpu_array::sorting::nanargmax(&e, ReduceOptions::axis(1)),
            "argmax",
        ),
    ] {
        assert_eq!(
            r.unwrap_err().to_string(),
            format!("attempt to get {name} of an empty sequence")
        );
    }
    // Reducing the non-empty axis of an empty array: an empty result.
    let r = e.argmax(ReduceOptions::axis(0)).unwrap();
    assert_eq!((r.shape(), r.dtype()), (&[0usize][..], DType::Int64));
    // Several axes: NumPy takes one axis or None.
    let a = Array::from_slice(&[1.0f32, 5.0, 5.0, 2.0, f32::NAN, 3.0], &[2, 3]).unwrap();
    assert!(a.argmax(ReduceOptions::axes(&[0, 1])).is_err());
    assert!(a.argmax(ReduceOptions::axis(2)).is_err());
    // dtype= is not accepted.
    assert!(
        a.argmax(ReduceOptions::default().dtype(DType::Int32))
            .is_err()
    );
    // keepdims and out=.
    let r = a.argmax(ReduceOptions::axis(1).keepdims(true)).unwrap();
    assert_eq!(r.shape(), &[2, 1]);
    assert_eq!(r.to_vec::<i64>().unwrap(), vec![1, 1]);
    let r = a.argmin(ReduceOptions::default().keepdims(true)).unwrap();
    assert_eq!(r.shape(), &[1, 1]);
    assert_eq!(r.to_vec::<i64>().unwrap(), vec![4]);
    let out = Array::zeros([2], DType::Int64).unwrap();
    let r = a.argmin(ReduceOptions::axis(-1).out(&out)).unwrap();
    assert_eq!(r.to_vec::<i64>().unwrap(), vec![0, 1]);
    assert_eq!(out.to_vec::<i64>().unwrap(), vec![0, 1]);
    let out = Array::zeros([], DType::Int64).unwrap();
    gpu_array::sorting::nanargmax(&a, ReduceOptions::default().out(&out)).unwrap();
    assert_eq!(out.item::<i64>(&[]).unwrap(), 1);
    let bad = Array::zeros([2], DType::Int32).unwrap();
    assert!(a.argmax(ReduceOptions::axis(1).out(&bad)).is_err());
    let bad = Array::zeros([3], DType::Int64).unwrap();
    assert!(a.argmax(ReduceOptions::axis(1).out(&bad)).is_err());
    // All-NaN slices: nanarg* is an error, argmax the first NaN.
    let n = Array::from_slice(&[1.0f64, f64::NAN, f64::NAN, f64::NAN], &[2, 2]).unwrap();
    for r in [
        gpu_array::sorting::nanargmax(&n, ReduceOptions::axis(1)),
        gpu_array::sorting::nanargmin(&n, ReduceOptions::axis(0)),
    ] {
        assert_eq!(r.unwrap_err().to_string(), "All-NaN slice encountered");
    }
    let r = n.argmax(ReduceOptions::axis(1)).unwrap();
    assert_eq!(r.to_vec::<i64>().unwrap(), vec![1, 0]);
    let r = gpu_array::sorting::nanargmax(&n, ReduceOptions::default()).unwrap();
    assert_eq!(r.item::<i64>(&[]).unwrap(), 0);
}

/// Host float64 variance of `v` (two passes).
fn host_var(v: &[f64], ddof: f64) -> f64 {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - ddof).max(0.0)
}

#[test]
fn var_std_every_strategy_and_edges() {
    let Some(_d) = device_or_skip() else { return };
    // An offset mean makes a naive sum-of-squares lose digits; the
    // single pass must not.
    let cases: [&[usize]; 5] = [
        &[1 << 22],
        &[3, 1 << 20],
        &[700, 4096],
        &[100_000, 5],
        &[4096, 700],
    ];
    for shape in cases {
        let n: usize = shape.iter().product();
        let v: Vec<f64> = unit(n, n as u64 + 3)
            .iter()
            .map(|&x| 1000.0 + f64::from(x))
            .collect();
        let a = Array::from_slice(&v, shape).unwrap();
        let (rows, len) = if shape.len() == 1 {
            (1, n)
        } else {
            (shape[0], shape[1])
        };
        let full = a.var(ReduceOptions::default().ddof(1.0)).unwrap();
        assert_eq!((full.ndim(), full.dtype()), (0, DType::Float64));
        let want = host_var(&v, 1.0);
        let got = full.item::<f64>(&[]).unwrap();
        assert!(
            (got - want).abs() <= 1e-9 * want,
            "{shape:?}: {got} vs {want}"
        );
        let got = a.std(ReduceOptions::axis(-1)).unwrap();
        let want: Vec<f64> = (0..rows)
            .map(|r| host_var(&v[r * len..(r + 1) * len], 0.0).sqrt())
            .collect();
        assert_allclose(&got, &want, 1e-9, 0.0);
        if shape.len() == 2 {
            let got = a.var(ReduceOptions::axis(0)).unwrap();
            let want: Vec<f64> = (0..len)
                .map(|c| {
                    let col: Vec<f64> = (0..rows).map(|r| v[r * len + c]).collect();
                    host_var(&col, 0.0)
                })
                .collect();
            assert_allclose(&got, &want, 1e-9, 0.0);
        }
        // float32 input, float32 result.
        let vf: Vec<f32> = v.iter().map(|&x| (x - 1000.0) as f32).collect();
        let af = Array::from_slice(&vf, shape).unwrap();
        let got = af.var(ReduceOptions::default()).unwrap();
        assert_eq!(got.dtype(), DType::Float32);
        let vd: Vec<f64> = vf.iter().map(|&x| f64::from(x)).collect();
        let want = host_var(&vd, 0.0);
        let got = f64::from(got.item::<f32>(&[]).unwrap());
        assert!(
            (got - want).abs() <= 1e-4 * want,
            "{shape:?} f32: {got} vs {want}"
        );
    }
    // Empty rows and NaN.
    let e = Array::from_slice::<f32>(&[], &[3, 0]).unwrap();
    for op in [
        Builtin::Var,
        Builtin::Std,
        Builtin::NanMean,
        Builtin::NanVar,
        Builtin::NanStd,
    ] {
        let r = reduction::reduce(op, &e, &ReduceOptions::axis(1)).unwrap();
        assert_eq!((r.shape(), r.dtype()), (&[3usize][..], DType::Float32));
        assert!(
            r.to_vec::<f32>().unwrap().iter().all(|x| x.is_nan()),
            "{op:?}"
        );
        let r = reduction::reduce(op, &e, &ReduceOptions::default()).unwrap();
        assert!(r.item::<f32>(&[]).unwrap().is_nan(), "{op:?}");
    }
    let mut v = unit(1 << 21, 11);
    v[999_999] = f32::NAN;
    let a = Array::from_slice(&v, &[1 << 21]).unwrap();
    assert!(a.var(()).unwrap().item::<f32>(&[]).unwrap().is_nan());
    let got = gpu_array::stats::nanvar(&a, ReduceOptions::default().ddof(1.0)).unwrap();
    let vd: Vec<f64> = v
        .iter()
        .filter(|x| !x.is_nan())
        .map(|&x| f64::from(x))
        .collect();
    let want = host_var(&vd, 1.0);
    let got = f64::from(got.item::<f32>(&[]).unwrap());
    assert!((got - want).abs() <= 1e-4 * want, "nanvar: {got} vs {want}");
    let got = gpu_array::stats::nanmean(&a, ReduceOptions::default()).unwrap();
    let want = vd.iter().sum::<f64>() / vd.len() as f64;
    let got = f64::from(got.item::<f32>(&[]).unwrap());
    assert!(
        (got - want).abs() <= 1e-5 * want,
        "nanmean: {got} vs {want}"
    );
    // out= (same_kind) and keepdims.
    let m = Array::from_slice(&[1i32, 2, 3, 4, 5, 7], &[2, 3]).unwrap();
    let out = Array::zeros([2, 1], DType::Float32).unwrap();
    m.var(ReduceOptions::axis(1).keepdims(true).out(&out))
        .unwrap();
    assert_eq!(out.shape(), &[2, 1]);
    assert_allclose(
        &out.reshape([2]).unwrap(),
        &[2.0f32 / 3.0, 14.0 / 9.0],
        1e-6,
        0.0,
    );
    let iout = Array::zeros([2], DType::Int64).unwrap();
    assert!(m.var(ReduceOptions::axis(1).out(&iout)).is_err());
}

/// The 16-byte vector path: rows whose starts sit at every offset modulo 16
/// (peeled heads), lengths that leave tails, each item size (int8 x16,
/// float16 x8, float32 x4, float64 and complex64 x2), block-per-row and
/// two-pass rows; sums, max and argmax against the host; and a two-input
/// `ReductionKernel` (a dot product) on aligned and misaligned pairs.
#[test]
fn vector_path_heads_tails_and_item_sizes() {
    let Some(_d) = device_or_skip() else { return };
    let base = unit(5 * 70_021 + 64, 21);
    for dt in [
        DType::Int8,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
    ] {
        // Small integers: exact in every dtype, with ties for argmax.
        let vals: Vec<f32> = base.iter().map(|x| (x * 100.0).floor() - 50.0).collect();
        let all = Array::from_slice(&vals, &[vals.len()])
            .unwrap()
            .astype(dt)
            .unwrap();
        for (rows, len) in [
            (1usize, 64usize),
            (1, 67),
            (3, 1000),
            (1, 70_021),
            (5, 9_001),
        ] {
            for off in [0usize, 1, 3, 7] {
                let flat = all.slice(&s![off..off + rows * len]).unwrap();
                let a = flat.reshape([rows as isize, len as isize]).unwrap();
                let re = a.real().astype(DType::Float64).unwrap();
                let host = re.to_vec::<f64>().unwrap();
                let label = format!("{dt} rows {rows} len {len} off {off}");
                let sum = a.sum(ReduceOptions::axis(1)).unwrap();
                let sum_re = sum.real().astype(DType::Float64).unwrap();
                let want: Vec<f64> = host.chunks(len).map(|r| r.iter().sum()).collect();
                if dt == DType::Float16 {
                    // float16 sums accumulate in float32 but round to
                    // float16 (spacing 32 near 40000).
                    assert_allclose(&sum_re, &want, 2e-3, 1.0);
                } else {
                    assert_eq!(sum_re.to_vec::<f64>().unwrap(), want, "sum {label}");
                }
                if dt != DType::Complex64 {
                    let mx = a.max(ReduceOptions::axis(1)).unwrap();
                    let mx = mx.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
                    let want: Vec<f64> = host
                        .chunks(len)
                        .map(|r| r.iter().copied().fold(f64::NEG_INFINITY, f64::max))
                        .collect();
                    assert_eq!(mx, want, "max {label}");
                    let am = gpu_array::sorting::argmax(&a, ReduceOptions::axis(1)).unwrap();
                    let want: Vec<i64> = host
                        .chunks(len)
                        .map(|r| {
                            let f: Vec<f32> = r.iter().map(|&x| x as f32).collect();
                            host_arg(&f, true, false).unwrap()
                        })
                        .collect();
                    assert_eq!(am.to_vec::<i64>().unwrap(), want, "argmax {label}");
                    // Full reduction of the flat view (two passes when long).
                    let am = gpu_array::sorting::argmax(&flat, ReduceOptions::default()).unwrap();
                    let f: Vec<f32> = host.iter().map(|&x| x as f32).collect();
                    assert_eq!(
                        am.item::<i64>(&[]).unwrap(),
                        host_arg(&f, true, false).unwrap(),
                        "flat argmax {label}"
                    );
                }
            }
        }
    }
    // Two inputs: aligned together (vector path) and one element apart
    // (element by element); both against the host.
    let dot = ReductionKernel::new(
        "T x, T w",
        "T y",
        "x * w",
        "a + b",
        "y = a",
        Some("0"),
        "vdot",
    )
    .unwrap();
    let v: Vec<f64> = base.iter().map(|x| f64::from((x * 16.0).floor())).collect();
    let all = Array::from_slice(&v, &[v.len()]).unwrap();
    for (xo, wo, len) in [
        (0usize, 0usize, 100_000usize),
        (2, 4, 4096),
        (1, 2, 5000),
        (0, 1, 333),
    ] {
        let x = all.slice(&s![xo..xo + 2 * len]).unwrap();
        let w = all.slice(&s![wo..wo + 2 * len]).unwrap();
        let x2 = x.reshape([2, len as isize]).unwrap();
        let w2 = w.reshape([2, len as isize]).unwrap();
        let r = dot
            .call(&[(&x2).into(), (&w2).into()], &ReductionCall::axis(1))
            .unwrap();
        let want: Vec<f64> = (0..2)
            .map(|k| {
                (0..len)
                    .map(|i| v[xo + k * len + i] * v[wo + k * len + i])
                    .sum()
            })
            .collect();
        assert_eq!(r[0].to_vec::<f64>().unwrap(), want, "dot {xo} {wo} {len}");
    }
}

/// The column strategies' vector path: neighbouring outputs read with one
/// 16-byte load, over float16 (8), float32 (4), float64 and complex64 (2);
/// widths that leave a ragged last tile; whole columns and split
/// segments; a misaligned base (element by element); sum, max, argmax and
/// var along axis 0 against the host; and a two-input kernel.
#[test]
fn column_vector_path() {
    let Some(_d) = device_or_skip() else { return };
    let base = unit(3000 * 1030 + 8, 33);
    for dt in [
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
    ] {
        let vals: Vec<f32> = base.iter().map(|x| (x * 64.0).floor() - 32.0).collect();
        let all = Array::from_slice(&vals, &[vals.len()])
            .unwrap()
            .astype(dt)
            .unwrap();
        // (rows, cols, offset): whole columns (few rows), split segments,
        // a ragged tile, and an offset base (misaligned: element by element).
        // `keep` < `cols` takes the leading columns of each row: a last lane
        // with only some of its outputs.
        for (rows, cols, keep, off) in [
            (40usize, 1024usize, 1024usize, 0usize),
            (3000, 1024, 1024, 0),
            (700, 1000, 1000, 0),
            (700, 1024, 1022, 0),
            (300, 1030, 1030, 0),
            (500, 1024, 1024, 1),
        ] {
            let flat = all.slice(&s![off..off + rows * cols]).unwrap();
            let a = flat.reshape([rows as isize, cols as isize]).unwrap();
            let a = a.slice(&s![.., ..keep as isize]).unwrap();
            let cols = keep;
            let host = a
                .real()
                .astype(DType::Float64)
                .unwrap()
                .to_vec::<f64>()
                .unwrap();
            let col = |c: usize| -> Vec<f64> { (0..rows).map(|r| host[r * cols + c]).collect() };
            let label = format!("{dt} {rows}x{cols} off {off}");
            let sum = a.sum(ReduceOptions::axis(0)).unwrap();
            let got = sum.real().astype(DType::Float64).unwrap();
            let want: Vec<f64> = (0..cols).map(|c| col(c).iter().sum()).collect();
            if dt == DType::Float16 {
                assert_allclose(&got, &want, 2e-3, 1.0);
            } else {
                assert_eq!(got.to_vec::<f64>().unwrap(), want, "sum {label}");
            }
            if dt == DType::Complex64 {
                continue;
            }
            let mx = a.max(ReduceOptions::axis(0)).unwrap();
            let want: Vec<f64> = (0..cols)
                .map(|c| col(c).into_iter().fold(f64::NEG_INFINITY, f64::max))
                .collect();
            assert_eq!(
                mx.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap(),
                want,
                "max {label}"
            );
            let am = gpu_array::sorting::argmax(&a, ReduceOptions::axis(0)).unwrap();
            let want: Vec<i64> = (0..cols)
                .map(|c| {
                    let f: Vec<f32> = col(c).iter().map(|&x| x as f32).collect();
                    host_arg(&f, true, false).unwrap()
                })
                .collect();
            assert_eq!(am.to_vec::<i64>().unwrap(), want, "argmax {label}");
            let var = a.var(ReduceOptions::axis(0)).unwrap();
            let want: Vec<f64> = (0..cols).map(|c| host_var(&col(c), 0.0)).collect();
            let tol = if dt == DType::Float16 { 2e-3 } else { 1e-5 };
            assert_allclose(&var.astype(DType::Float64).unwrap(), &want, tol, 1e-6);
        }
    }
    let dot = ReductionKernel::new(
        "T x, T w",
        "T y",
        "x * w",
        "a + b",
        "y = a",
        Some("0"),
        "cdot",
    )
    .unwrap();
    let v: Vec<f32> = base.iter().map(|x| (x * 16.0).floor()).collect();
    let (rows, cols) = (2000usize, 1030usize);
    let x = Array::from_slice(&v[..rows * cols], &[rows, cols]).unwrap();
    let w = Array::from_slice(&v[8..8 + rows * cols], &[rows, cols]).unwrap();
    let r = dot
        .call(&[(&x).into(), (&w).into()], &ReductionCall::axis(0))
        .unwrap();
    let want: Vec<f32> = (0..cols)
        .map(|c| {
            (0..rows)
                .map(|k| f64::from(v[k * cols + c]) * f64::from(v[8 + k * cols + c]))
                .sum::<f64>() as f32
        })
        .collect();
    assert_eq!(r[0].to_vec::<f32>().unwrap(), want, "two-input columns");
}

/// `raw` arguments of a ReductionKernel (CuPy's rule: the reduced axes
/// lead): the raw array is passed whole, not broadcast, and indexed by
/// `_in_ind.get()`, the element's C-order index with the reduced axes
/// first, in every strategy; other axes are CuPy's "Invalid axis".
#[test]
fn reduction_kernel_raw_arguments() {
    let Some(_d) = device_or_skip() else { return };
    let k = ReductionKernel::new(
        "T x, raw T w",
        "T y",
        "x * w[_in_ind.get() / _out_ind.size()]",
        "a + b",
        "y = a",
        Some("0"),
        "rowweighted",
    )
    .unwrap();
    // (rows, cols): columns (split or not), few long rows (two passes and
    // warps), a transposed input.
    for (rows, cols) in [(5000usize, 300usize), (40, 1000), (100_000, 2), (3, 7)] {
        let xv: Vec<f64> = unit(rows * cols, 3).iter().map(|&v| f64::from(v)).collect();
        let wv: Vec<f64> = (0..rows).map(|r| (r % 7) as f64 - 3.0).collect();
        let x = Array::from_slice(&xv, &[rows, cols]).unwrap();
        // The weights as a strided view (raw operands keep their layout).
        let w2 = Array::from_slice(
            &wv.iter().flat_map(|&v| [v, 99.0]).collect::<Vec<_>>(),
            &[rows, 2],
        )
        .unwrap();
        let w = w2.slice(&s![.., 0]).unwrap();
        let r = k
            .call(&[(&x).into(), (&w).into()], &ReductionCall::axis(0))
            .unwrap();
        let want: Vec<f64> = (0..cols)
            .map(|c| (0..rows).map(|i| xv[i * cols + c] * wv[i]).sum())
            .collect();
        assert_allclose(&r[0], &want, 1e-12, 1e-9);
    }
    // Axes (0, 1) of a 3-d input: the raw index runs over both.
    let k2 = ReductionKernel::new(
        "T x, raw T w",
        "T y",
        "x * w[_in_ind.get() / _out_ind.size()]",
        "a + b",
        "y = a",
        Some("0"),
        "plane_weighted",
    )
    .unwrap();
    let xv: Vec<f64> = unit(6 * 5 * 4, 5).iter().map(|&v| f64::from(v)).collect();
    let wv: Vec<f64> = (0..30).map(|i| i as f64).collect();
    let x = Array::from_slice(&xv, &[6, 5, 4]).unwrap();
    let w = Array::from_slice(&wv, &[6, 5]).unwrap();
    let r = k2
        .call(&[(&x).into(), (&w).into()], &ReductionCall::axes(&[0, 1]))
        .unwrap();
    let want: Vec<f64> = (0..4)
        .map(|c| (0..30).map(|p| xv[p * 4 + c] * wv[p]).sum())
        .collect();
    assert_allclose(&r[0], &want, 1e-12, 1e-9);
    // CuPy's restriction.
    let x = Array::from_slice(&xv, &[6, 20]).unwrap();
    let e = k
        .call(&[(&x).into(), (&w).into()], &ReductionCall::axis(1))
        .unwrap_err();
    assert!(e.to_string().contains("Invalid axis"), "{e}");
}
