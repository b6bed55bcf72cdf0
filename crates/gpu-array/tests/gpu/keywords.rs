//! NumPy's keywords of issue 18 (point 6) on the GPU: `casting=`/`dtype=`
//! of the joins and their n-ary `result_type`, `equal_nan=` of `unique`,
//! `kind=` of `isin`, `weights=` of `quantile` and `nanquantile`,
//! `where=` of `var`, `std` and the nan-mean family, `order='A'|'K'` of
//! the copies and reshapes. The expected values are NumPy 2.4's answers
//! for the same inputs, written out here (worked by hand for the small
//! `where=` and `nanquantile` cases).

use gpu_array::dtype::Casting;
use gpu_array::manipulation::{self as m, JoinOptions};
use gpu_array::reduction::{Builtin, ReduceOptions as R, reduce};
use gpu_array::sorting::{
    self as so, IsinKind, IsinOptions, QuantileMethod, QuantileOptions, Quantiles, UniqueOptions,
};
use gpu_array::stats;
use gpu_array::{Array, CopyOrder, DType, Error, Order, s};
use gpu_runtime::testing::device_or_skip;
use num_complex::Complex;

fn f64s(a: &Array) -> Vec<f64> {
    a.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap()
}

fn i64s(a: &Array) -> Vec<i64> {
    a.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap()
}

fn bools(a: &Array) -> Vec<bool> {
    a.to_vec::<bool>().unwrap()
}

/// Equal, NaN equal to NaN.
fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g == w || (g.is_nan() && w.is_nan()))
}

#[test]
fn joins_promote_as_numpy_and_check_casting() {
    let Some(_d) = device_or_skip() else { return };
    let i1 = Array::from_slice(&[-1i8, 2], &[2]).unwrap();
    let u2 = Array::from_slice(&[3u16, 60000], &[2]).unwrap();
    let f2 = Array::from_slice(&[half::f16::from_f32(0.5)], &[1]).unwrap();
    // np.concatenate([int8, uint16, float16]).dtype: float32 (a pairwise
    // fold gives float64).
    let c = m::concatenate(&[&i1, &u2, &f2], Some(0)).unwrap();
    assert_eq!(c.dtype(), DType::Float32);
    assert_eq!(f64s(&c), [-1.0, 2.0, 3.0, 60000.0, 0.5]);
    let i4 = Array::from_slice(&[1i32, 2], &[2]).unwrap();
    let f8 = Array::from_slice(&[1.5f64, -2.5], &[2]).unwrap();
    let st = m::stack(&[&i1, &u2], 0).unwrap();
    assert_eq!((st.dtype(), st.shape()), (DType::Int32, &[2usize, 2][..]));
    let no = JoinOptions::default().casting(Casting::No);
    assert_eq!(
        m::concatenate_with(&[&i4, &f8], Some(0), &no)
            .unwrap_err()
            .to_string(),
        "Cannot cast array data from dtype('int32') to dtype('float64') according to the rule 'no'"
    );
    assert_eq!(
        m::concatenate_with(&[&i4, &i4], Some(0), &no)
            .unwrap()
            .dtype(),
        DType::Int32
    );
    assert!(matches!(
        m::stack_with(&[&i4, &f8], 0, &no),
        Err(Error::Cast { .. })
    ));
    let to_i4 = JoinOptions::default().dtype(DType::Int32);
    assert_eq!(
        m::concatenate_with(&[&i4, &f8], Some(0), &to_i4)
            .unwrap_err()
            .to_string(),
        "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'same_kind'"
    );
    let r = m::concatenate_with(&[&i4, &f8], Some(0), &to_i4.casting(Casting::Unsafe)).unwrap();
    assert_eq!((r.dtype(), i64s(&r)), (DType::Int32, vec![1, 2, 1, -2]));
    let safe_f4 = JoinOptions::default()
        .dtype(DType::Float32)
        .casting(Casting::Safe);
    assert_eq!(
        m::hstack_with(&[&i4, &f8], &safe_f4)
            .unwrap_err()
            .to_string(),
        "Cannot cast array data from dtype('int32') to dtype('float32') according to the rule 'safe'"
    );
    let v = m::vstack_with(&[&i4, &i4], &JoinOptions::default().dtype(DType::Int64)).unwrap();
    assert_eq!((v.dtype(), v.shape()), (DType::Int64, &[2usize, 2][..]));
    assert!(m::vstack_with(&[&i4, &f8], &JoinOptions::default().dtype(DType::Int64)).is_err());
}

#[test]
fn unique_keeps_nans_apart_without_equal_nan() {
    let Some(_d) = device_or_skip() else { return };
    let nan = f64::NAN;
    let a = Array::from_slice(&[nan, 1.0, nan, 2.0, 1.0, nan, -0.0, 0.0], &[8]).unwrap();
    let all = UniqueOptions::default()
        .index(true)
        .inverse(true)
        .counts(true);
    // np.unique(a, equal_nan=False, return_index=True, return_inverse=True,
    // return_counts=True)
    let u = so::unique(&a, all.equal_nan(false)).unwrap();
    assert!(same(&f64s(&u.values), &[0.0, 1.0, 2.0, nan, nan, nan]));
    assert_eq!(i64s(&u.index.unwrap()), [6, 1, 3, 0, 2, 5]);
    assert_eq!(i64s(&u.inverse.unwrap()), [3, 1, 4, 2, 1, 5, 0, 0]);
    assert_eq!(i64s(&u.counts.unwrap()), [2, 2, 1, 1, 1, 1]);
    let u = so::unique(&a, all).unwrap();
    assert!(same(&f64s(&u.values), &[0.0, 1.0, 2.0, nan]));
    assert_eq!(i64s(&u.index.unwrap()), [6, 1, 3, 0]);
    assert_eq!(i64s(&u.inverse.unwrap()), [3, 1, 3, 2, 1, 3, 0, 0]);
    assert_eq!(i64s(&u.counts.unwrap()), [2, 2, 1, 3]);
    // Complex: every value holding a NaN is its own (NumPy's order: R+nanj
    // before nan+Rj).
    let c = [
        Complex::new(nan, 0.0),
        Complex::new(1.0, 0.0),
        Complex::new(0.0, nan),
        Complex::new(1.0, 0.0),
        Complex::new(nan, 0.0),
    ];
    let ca = Array::from_slice(&c, &[5]).unwrap();
    let opts = UniqueOptions::default().index(true).counts(true);
    let u = so::unique(&ca, opts.equal_nan(false)).unwrap();
    assert_eq!(i64s(&u.index.unwrap()), [1, 2, 0, 4]);
    assert_eq!(i64s(&u.counts.unwrap()), [2, 1, 1, 1]);
    let u = so::unique(&ca, opts).unwrap();
    assert_eq!(i64s(&u.index.unwrap()), [1, 2]);
    assert_eq!(i64s(&u.counts.unwrap()), [2, 3]);
    // Integers have no NaN: the flag changes nothing.
    let ints = Array::from_slice(&[3i32, 1, 3], &[3]).unwrap();
    let u = so::unique(&ints, UniqueOptions::default().equal_nan(false)).unwrap();
    assert_eq!(i64s(&u.values), [1, 3]);
}

#[test]
fn isin_kinds_agree_and_fail_as_numpy() {
    let Some(_d) = device_or_skip() else { return };
    // np.random.default_rng(5): e int8, t int16.
    let e: [i8; 50] = [
        43, 78, -123, 78, -8, 3, 33, -55, 122, -115, -57, -30, 18, -24, -95, -117, -128, -116, -90,
        127, -80, 39, 64, -68, -56, -17, -61, 121, -83, 101, 76, 88, -99, -28, 32, -2, 42, 45, 41,
        -113, 117, 14, 103, -59, -36, 97, -81, -112, -33, 45,
    ];
    let t: [i16; 20] = [
        -227, 222, -96, -164, 26, 237, 230, 223, -117, -289, 166, 124, 162, -300, -278, 2, -99,
        -38, 258, -179,
    ];
    let (ea, ta) = (
        Array::from_slice(&e, &[5, 10]).unwrap(),
        Array::from_slice(&t, &[20]).unwrap(),
    );
    let mut want = vec![false; 50];
    want[15] = true;
    want[32] = true;
    for kind in [None, Some(IsinKind::Sort), Some(IsinKind::Table)] {
        let opts = IsinOptions::default().kind(kind);
        let r = so::isin_with(&ea, &ta, &opts).unwrap();
        assert_eq!(r.shape(), &[5, 10]);
        assert_eq!(bools(&r), want, "{kind:?}");
        let inv = so::isin_with(&ea, &ta, &opts.invert(true)).unwrap();
        assert_eq!(
            bools(&inv),
            want.iter().map(|w| !w).collect::<Vec<_>>(),
            "{kind:?}"
        );
        let flat = so::in1d_with(&ea, &ta, &opts).unwrap();
        assert_eq!((flat.shape(), bools(&flat)), (&[50usize][..], want.clone()));
    }
    let table = IsinOptions::default().kind(IsinKind::Table);
    let b = Array::from_slice(&[true, false], &[2]).unwrap();
    let bt = Array::from_slice(&[true], &[1]).unwrap();
    assert_eq!(
        bools(&so::isin_with(&b, &bt, &table).unwrap()),
        [true, false]
    );
    // uint64 test elements near 2**64 against int64 and uint64 elements.
    let tt = Array::from_slice(&[u64::MAX, u64::MAX - 4], &[2]).unwrap();
    let ei = Array::from_slice(&[-1i64, 5, 1 << 62], &[3]).unwrap();
    assert_eq!(bools(&so::isin_with(&ei, &tt, &table).unwrap()), [false; 3]);
    let eu = Array::from_slice(&[u64::MAX, 3, u64::MAX - 4], &[3]).unwrap();
    assert_eq!(
        bools(&so::isin_with(&eu, &tt, &table).unwrap()),
        [true, false, true]
    );
    let empty = Array::from_slice::<i32>(&[], &[0]).unwrap();
    assert_eq!(
        bools(&so::isin_with(&ei, &empty, &table.invert(true)).unwrap()),
        [true; 3]
    );
    // NumPy's errors.
    let f = Array::from_slice(&[1.0f32], &[1]).unwrap();
    assert_eq!(
        so::isin_with(&f, &ta, &table).unwrap_err().to_string(),
        "The 'table' method is only supported for boolean or integer arrays. Please select \
         'sort' or None for kind."
    );
    let wide = Array::from_slice(&[-128i8, 127], &[2]).unwrap();
    let one = Array::from_slice(&[1i8], &[1]).unwrap();
    let e = so::isin_with(&one, &wide, &table).unwrap_err();
    // NumPy raises RuntimeError here.
    assert!(matches!(e, Error::NumpyRuntime(_)), "{e:?}");
    assert_eq!(
        e.to_string(),
        "You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the \
         maximum integer of the datatype. Please set `kind` to None or 'sort'."
    );
    assert_eq!(
        bools(&so::isin_with(&one, &wide, &IsinOptions::default()).unwrap()),
        [false]
    );
}

#[test]
fn weighted_quantiles_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    let x = Array::from_slice(&[3.0f64, 1., 4., 1., 5., 9., 2., 6., 5., 3.], &[2, 5]).unwrap();
    let w = Array::from_slice(&[1i64, 0, 2, 3, 1, 0, 0, 1, 4, 2], &[2, 5]).unwrap();
    let q = Quantiles::Many(vec![0.0, 0.1, 0.25, 0.5, 0.75, 1.0]);
    let icdf = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&w);
    let r = so::quantile(&x, &q, &icdf).unwrap();
    assert_eq!((r.dtype(), r.shape()), (DType::Float64, &[6usize][..]));
    assert_eq!(f64s(&r), [1.0, 1.0, 3.0, 4.0, 5.0, 6.0]);
    let r = so::quantile(&x, &q, &icdf.clone().with_axis(Some(vec![1]))).unwrap();
    assert_eq!(r.shape(), &[6, 2]);
    assert_eq!(f64s(&r), [1., 3., 1., 3., 1., 3., 3., 5., 4., 5., 5., 6.]);
    // 1-D weights along the axis.
    let w1 = Array::from_slice(&[1i64, 0, 2, 3, 1], &[5]).unwrap();
    let o1 = QuantileOptions::axis(1)
        .method(QuantileMethod::InvertedCdf)
        .weights(&w1);
    let r = so::quantile(&x, &q, &o1).unwrap();
    assert_eq!(f64s(&r), [1., 3., 1., 3., 1., 5., 3., 5., 4., 6., 5., 9.]);
    let w0 = Array::from_slice(&[1.0f32, 3.0], &[2]).unwrap();
    let o0 = QuantileOptions::axis(0)
        .keepdims(true)
        .method(QuantileMethod::InvertedCdf)
        .weights(&w0);
    let r = so::quantile(&x, &Quantiles::One(0.5), &o0).unwrap();
    assert_eq!(
        (r.shape(), f64s(&r)),
        (&[1usize, 5][..], vec![9., 2., 6., 5., 3.])
    );
    let p = so::percentile(
        &x,
        &Quantiles::One(50.0),
        &icdf.clone().with_axis(Some(vec![1])),
    )
    .unwrap();
    assert_eq!(f64s(&p), [3.0, 5.0]);
    // A row holding NaN gives NaN.
    let xn =
        Array::from_slice(&[3.0f64, 1., 4., 1., 5., 9., 2., f64::NAN, 5., 3.], &[2, 5]).unwrap();
    let r = so::quantile(
        &xn,
        &Quantiles::One(0.5),
        &icdf.clone().with_axis(Some(vec![1])),
    )
    .unwrap();
    assert!(same(&f64s(&r), &[3.0, f64::NAN]));
    // Integers keep their dtype.
    let xi = Array::from_slice(&[5i32, 3, 8, 1], &[4]).unwrap();
    let wi = Array::from_slice(&[1i64, 1, 1, 5], &[4]).unwrap();
    let oi = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&wi);
    let r = so::quantile(&xi, &Quantiles::Many(vec![0.3, 0.9]), &oi).unwrap();
    assert_eq!((r.dtype(), i64s(&r)), (DType::Int32, vec![1, 8]));
    // Two axes, weights of the reduced axes' shape in `axis`'s order.
    let y: Vec<f64> = (0..24).rev().map(f64::from).collect();
    let y = Array::from_slice(&y, &[2, 3, 4]).unwrap();
    let wy: Vec<i64> = (1..13).collect();
    let wy = Array::from_slice(&wy, &[4, 3]).unwrap();
    let oy = QuantileOptions::axes(&[2, 1])
        .method(QuantileMethod::InvertedCdf)
        .weights(&wy);
    assert_eq!(
        f64s(&so::quantile(&y, &Quantiles::One(0.4), &oy).unwrap()),
        [16.0, 4.0]
    );
    // NumPy's errors.
    let lin = icdf.clone().method(QuantileMethod::Linear);
    assert_eq!(
        so::quantile(&x, &Quantiles::One(0.5), &lin)
            .unwrap_err()
            .to_string(),
        "Only method 'inverted_cdf' supports weights. Got: linear."
    );
    let no_axis = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&w1);
    let e = so::quantile(&x, &Quantiles::One(0.5), &no_axis).unwrap_err();
    assert!(matches!(e, Error::DType(_)));
    assert_eq!(
        e.to_string(),
        "Axis must be specified when shapes of a and weights differ."
    );
    let bad = QuantileOptions::axis(0)
        .method(QuantileMethod::InvertedCdf)
        .weights(&w1);
    assert_eq!(
        so::quantile(&x, &Quantiles::One(0.5), &bad)
            .unwrap_err()
            .to_string(),
        "Shape of weights must be consistent with shape of a along specified axis."
    );
    let neg = Array::from_slice(&[-1.0f64; 10], &[2, 5]).unwrap();
    let zero = Array::from_slice(&[0.0f64; 10], &[2, 5]).unwrap();
    let with = |w: &Array| {
        so::quantile(
            &x,
            &Quantiles::One(0.5),
            &QuantileOptions::default()
                .method(QuantileMethod::InvertedCdf)
                .weights(w),
        )
        .unwrap_err()
        .to_string()
    };
    assert_eq!(with(&neg), "Weights must be non-negative.");
    assert_eq!(with(&zero), "Weights included NaN, inf or were all zero.");
}

/// Close to 1e-12 relative, NaN equal to NaN, inf to inf.
#[track_caller]
fn close(got: &Array, want: &[f64]) {
    let g = f64s(got);
    assert_eq!(g.len(), want.len(), "{g:?} {want:?}");
    for (a, b) in g.iter().zip(want) {
        let ok = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= 1e-12 * b.abs();
        assert!(ok, "{g:?} {want:?}");
    }
}

#[test]
fn var_and_std_take_where() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice(&[1.0f64, 2., 3., 4., 5., 6., 7., 8.], &[2, 4]).unwrap();
    let mask = Array::from_slice(
        &[true, false, true, true, false, false, true, true],
        &[2, 4],
    )
    .unwrap();
    // np.var(a, axis=1, where=mask): row 0 takes 1, 3, 4 (mean 8/3, squares
    // 42/9), row 1 takes 7, 8 (mean 7.5, squares 0.5).
    let v = stats::var(&a, R::axis(1).where_(&mask)).unwrap();
    assert_eq!((v.dtype(), v.shape()), (DType::Float64, &[2usize][..]));
    close(&v, &[14.0 / 9.0, 0.25]);
    // ddof=1: [7/3, 0.5]; ddof=2: [14/3, 0.5 / 0 = inf] (NumPy divides by
    // max(n - ddof, 0)).
    close(
        &stats::var(&a, R::axis(1).where_(&mask).ddof(1.0)).unwrap(),
        &[7.0 / 3.0, 0.5],
    );
    close(
        &stats::var(&a, R::axis(1).where_(&mask).ddof(2.0)).unwrap(),
        &[14.0 / 3.0, f64::INFINITY],
    );
    // np.std(a, axis=1, where=mask, keepdims=True): shape (2, 1).
    let sd = a.std(R::axis(1).where_(&mask).keepdims(true)).unwrap();
    assert_eq!(sd.shape(), &[2, 1]);
    close(&sd, &[(14.0f64 / 9.0).sqrt(), 0.5]);
    // np.var(a, where=mask): 1, 3, 4, 7, 8 (mean 4.6, squares 33.2).
    let all = a.var(R::default().where_(&mask)).unwrap();
    assert_eq!(all.shape(), &[] as &[usize]);
    close(&all, &[6.64]);
    // A 1-D mask broadcast over the rows: np.var(a, axis=1, where=[T, F, T, T])
    // takes 1, 3, 4 and 5, 7, 8: 14/9 both.
    let row = Array::from_slice(&[true, false, true, true], &[4]).unwrap();
    close(
        &stats::var(&a, R::axis(1).where_(&row)).unwrap(),
        &[14.0 / 9.0, 14.0 / 9.0],
    );
    // Nothing selected: NaN.
    let none = Array::from_slice(&[false; 4], &[4]).unwrap();
    close(
        &stats::var(&a, R::axis(1).where_(&none)).unwrap(),
        &[f64::NAN, f64::NAN],
    );
    // Integers give float64, float32 stays float32.
    let ai = a.astype(DType::Int32).unwrap();
    let vi = stats::var(&ai, R::axis(1).where_(&mask)).unwrap();
    assert_eq!(vi.dtype(), DType::Float64);
    close(&vi, &[14.0 / 9.0, 0.25]);
    let af = a.astype(DType::Float32).unwrap();
    let vf = stats::std(&af, R::axis(1).where_(&mask)).unwrap();
    assert_eq!(vf.dtype(), DType::Float32);
    let want = [(14.0f64 / 9.0).sqrt(), 0.5];
    for (g, w) in f64s(&vf).iter().zip(want) {
        assert!((g - w).abs() <= 1e-6, "{g} {w}");
    }
    // Complex: np.var([1+1j, 2-1j, 3, 2j], where=[T, T, F, T]) is the mean
    // of |z - (1 + 2j/3)|**2 over the three: 20/9, real.
    let z = [
        Complex::new(1.0, 1.0),
        Complex::new(2.0, -1.0),
        Complex::new(3.0, 0.0),
        Complex::new(0.0, 2.0),
    ];
    let za = Array::from_slice(&z, &[4]).unwrap();
    let zm = Array::from_slice(&[true, true, false, true], &[4]).unwrap();
    let vz = stats::var(&za, R::default().where_(&zm)).unwrap();
    assert_eq!(vz.dtype(), DType::Float64);
    close(&vz, &[20.0 / 9.0]);
    let vz64 = stats::var(
        &za.astype(DType::Complex64).unwrap(),
        R::default().where_(&zm),
    )
    .unwrap();
    assert_eq!(vz64.dtype(), DType::Float32);
    assert!((f64s(&vz64)[0] - 20.0 / 9.0).abs() <= 1e-6);
    // out= takes the result.
    let out = Array::from_slice(&[0.0f64; 2], &[2]).unwrap();
    stats::var(&a, R::axis(1).where_(&mask).out(&out)).unwrap();
    close(&out, &[14.0 / 9.0, 0.25]);
    // NumPy's errors: a mask that is not bool (TypeError); where= of a
    // reduction that has none.
    let im = Array::from_slice(&[1i64, 0, 1, 1], &[4]).unwrap();
    let e = stats::var(&a, R::axis(1).where_(&im)).unwrap_err();
    assert!(matches!(e, Error::DType(_)));
    assert_eq!(
        e.to_string(),
        "Cannot cast array data from dtype('int64') to dtype('bool') according to the rule 'safe'"
    );
    let e = reduce(Builtin::CountNonzero, &a, &R::default().where_(&mask)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "count_nonzero() got an unexpected keyword argument 'where'"
    );
}

#[test]
fn nan_means_and_variances_take_where() {
    let Some(_d) = device_or_skip() else { return };
    let nan = f64::NAN;
    let x = Array::from_slice(&[1.0f64, nan, 3., 4., nan, nan, 7., 8.], &[2, 4]).unwrap();
    let mask = Array::from_slice(
        &[true, true, false, true, true, false, false, true],
        &[2, 4],
    )
    .unwrap();
    // Selected and not NaN: row 0 takes 1, 4; row 1 takes 8.
    // np.nanmean(x, axis=1, where=mask): [2.5, 8]
    let m = stats::nanmean(&x, R::axis(1).where_(&mask)).unwrap();
    assert_eq!(m.dtype(), DType::Float64);
    close(&m, &[2.5, 8.0]);
    // np.nanvar(x, axis=1, where=mask): [2.25, 0]; np.nanstd: [1.5, 0].
    close(
        &stats::nanvar(&x, R::axis(1).where_(&mask)).unwrap(),
        &[2.25, 0.0],
    );
    close(
        &stats::nanstd(&x, R::axis(1).where_(&mask)).unwrap(),
        &[1.5, 0.0],
    );
    // ddof=1: [4.5, nan]; ddof=2: [nan, nan] (NumPy's nanvar gives NaN
    // where the degrees of freedom are <= 0, where var gives inf).
    close(
        &stats::nanvar(&x, R::axis(1).where_(&mask).ddof(1.0)).unwrap(),
        &[4.5, nan],
    );
    close(
        &stats::nanvar(&x, R::axis(1).where_(&mask).ddof(2.0)).unwrap(),
        &[nan, nan],
    );
    // var of the same selection sees the NaN: np.var(x, axis=1, where=mask)
    // is [nan, nan].
    close(
        &stats::var(&x, R::axis(1).where_(&mask)).unwrap(),
        &[nan, nan],
    );
    // np.nanmean(x, where=mask): 1, 4, 8 -> 13/3.
    close(
        &stats::nanmean(&x, R::default().where_(&mask)).unwrap(),
        &[13.0 / 3.0],
    );
    // Nothing left: np.nanmean(x, axis=1, where=[[F]*4, [T, T, F, F]]).
    let left = Array::from_slice(
        &[false, false, false, false, true, true, false, false],
        &[2, 4],
    )
    .unwrap();
    close(
        &stats::nanmean(&x, R::axis(1).where_(&left)).unwrap(),
        &[nan, nan],
    );
    // float32 stays float32.
    let xf = x.astype(DType::Float32).unwrap();
    let mf = stats::nanmean(&xf, R::axis(1).where_(&mask).keepdims(true)).unwrap();
    assert_eq!((mf.dtype(), mf.shape()), (DType::Float32, &[2usize, 1][..]));
    close(&mf, &[2.5, 8.0]);
    // Integers have no NaN: nanvar is var there (np.nanvar([1, 2, 3, 4],
    // where=[T, F, T, T], ddof=3) divides 14/3 by 0: inf).
    let xi = Array::from_slice(&[1i64, 2, 3, 4], &[4]).unwrap();
    let row = Array::from_slice(&[true, false, true, true], &[4]).unwrap();
    let vi = stats::nanvar(&xi, R::default().where_(&row).ddof(3.0)).unwrap();
    assert_eq!(vi.dtype(), DType::Float64);
    close(&vi, &[f64::INFINITY]);
    close(
        &stats::nanmean(&xi, R::default().where_(&row)).unwrap(),
        &[8.0 / 3.0],
    );
    let e = stats::nanstd(&x, R::axis(1).where_(&xi)).unwrap_err();
    assert!(matches!(e, Error::DType(_)), "{e:?}");
}

#[test]
fn weighted_nanquantiles_drop_nans_with_their_weights() {
    let Some(_d) = device_or_skip() else { return };
    let nan = f64::NAN;
    #[rustfmt::skip]
    let x = Array::from_slice(&[
        3.0f64, nan, 1., 4.,
        nan, nan, nan, nan,
        2., 5., nan, 1.,
        0.5, 9., 6., nan,
    ], &[4, 4]).unwrap();
    #[rustfmt::skip]
    let w = Array::from_slice(&[
        1i64, 5, 2, 1,
        1, 1, 1, 1,
        0, 2, 7, 3,
        0, 1, 3, 4,
    ], &[4, 4]).unwrap();
    let q = Quantiles::Many(vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    let icdf = QuantileOptions::axis(1)
        .method(QuantileMethod::InvertedCdf)
        .weights(&w);
    // np.nanquantile(x, [0, .25, .5, .75, 1], axis=1, method='inverted_cdf',
    // weights=w). Row 0 keeps 1 (2), 3 (1), 4 (1): cdf .5, .75, 1. Row 1 is
    // all NaN: nan. Row 2 keeps 1 (3), 2 (0), 5 (2): cdf .6, .6, 1 (the
    // zero weight is never picked). Row 3 keeps 0.5 (0), 6 (3), 9 (1): a
    // leading zero weight, so q = 0 gives 6.
    let r = so::nanquantile(&x, &q, &icdf).unwrap();
    assert_eq!((r.dtype(), r.shape()), (DType::Float64, &[5usize, 4][..]));
    #[rustfmt::skip]
    let want = [
        1., nan, 1., 6.,
        1., nan, 1., 6.,
        1., nan, 1., 6.,
        3., nan, 5., 6.,
        4., nan, 5., 9.,
    ];
    assert!(same(&f64s(&r), &want), "{:?}", f64s(&r));
    // np.nanpercentile(x, 50, axis=1, method='inverted_cdf', weights=w)
    let p = so::nanpercentile(&x, &Quantiles::One(50.0), &icdf).unwrap();
    assert!(same(&f64s(&p), &[1.0, nan, 1.0, 6.0]), "{:?}", f64s(&p));
    // The flattened array: the non-NaN values' total weight is 13, and 4
    // is the first whose cumulative weight (7) reaches 6.5.
    let flat = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&w);
    let r = so::nanquantile(&x, &Quantiles::One(0.5), &flat).unwrap();
    assert_eq!(r.shape(), &[] as &[usize]);
    assert_eq!(f64s(&r), [4.0]);
    // 1-D weights along the axis, keepdims: np.nanquantile(x[2:], .75,
    // axis=1, keepdims=True, method='inverted_cdf', weights=[0, 2, 7, 3]).
    let w1 = Array::from_slice(&[0.0f32, 2.0, 7.0, 3.0], &[4]).unwrap();
    let tail = x.slice(&s![2.., ..]).unwrap();
    let o1 = QuantileOptions::axis(1)
        .keepdims(true)
        .method(QuantileMethod::InvertedCdf)
        .weights(&w1);
    // Row 2 as above: 5. Row 3 keeps 0.5 (0), 9 (2), 6 (7): sorted 0.5, 6,
    // 9 with cdf 0 (read as -1), 7/9, 1, so .75 picks 6.
    let r = so::nanquantile(&tail, &Quantiles::One(0.75), &o1).unwrap();
    assert_eq!((r.shape(), f64s(&r)), (&[2usize, 1][..], vec![5.0, 6.0]));
    // A NaN value's weight goes with it, NaN weight included.
    let a = Array::from_slice(&[nan, 2.0f64, 1.0], &[3]).unwrap();
    let wn = Array::from_slice(&[nan, 1.0f64, 1.0], &[3]).unwrap();
    let on = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&wn);
    assert_eq!(
        f64s(&so::nanquantile(&a, &Quantiles::One(0.5), &on).unwrap()),
        [1.0]
    );
    // float32 keeps its dtype; integers are quantile's.
    let xf = x.astype(DType::Float32).unwrap();
    let r = so::nanquantile(&xf, &Quantiles::One(1.0), &icdf).unwrap();
    assert_eq!(r.dtype(), DType::Float32);
    assert!(same(&f64s(&r), &[4.0, nan, 5.0, 9.0]));
    let xi = Array::from_slice(&[5i32, 3, 8, 1], &[4]).unwrap();
    let wi = Array::from_slice(&[1i64, 1, 1, 5], &[4]).unwrap();
    let oi = QuantileOptions::default()
        .method(QuantileMethod::InvertedCdf)
        .weights(&wi);
    let r = so::nanquantile(&xi, &Quantiles::Many(vec![0.3, 0.9]), &oi).unwrap();
    assert_eq!((r.dtype(), i64s(&r)), (DType::Int32, vec![1, 8]));
    // NumPy's errors, the weights of NaN values checked too.
    assert_eq!(
        so::nanquantile(&x, &q, &icdf.clone().method(QuantileMethod::Linear))
            .unwrap_err()
            .to_string(),
        "Only method 'inverted_cdf' supports weights. Got: linear."
    );
    assert_eq!(
        so::nanpercentile(
            &x,
            &Quantiles::One(50.0),
            &icdf.clone().method(QuantileMethod::Nearest)
        )
        .unwrap_err()
        .to_string(),
        "Only method 'inverted_cdf' supports weights. Got: nearest."
    );
    let with = |a: &Array, w: &Array| {
        so::nanquantile(
            a,
            &Quantiles::One(0.5),
            &QuantileOptions::default()
                .method(QuantileMethod::InvertedCdf)
                .weights(w),
        )
        .unwrap_err()
        .to_string()
    };
    let a2 = Array::from_slice(&[nan, 1.0f64], &[2]).unwrap();
    let wneg = Array::from_slice(&[-1.0f64, 1.0], &[2]).unwrap();
    assert_eq!(with(&a2, &wneg), "Weights must be non-negative.");
    // Only the NaN's weight is positive: what is left weighs nothing.
    let a3 = Array::from_slice(&[nan, 1.0f64, 2.0], &[3]).unwrap();
    let w3 = Array::from_slice(&[1.0f64, 0.0, 0.0], &[3]).unwrap();
    assert_eq!(
        with(&a3, &w3),
        "Weights included NaN, inf or were all zero."
    );
    let w2 = Array::from_slice(&[1i64, 1, 1], &[3]).unwrap();
    assert_eq!(
        with(&x, &w2),
        "Axis must be specified when shapes of a and weights differ."
    );
}

#[test]
fn copies_and_reshapes_take_orders_a_and_k() {
    let Some(_d) = device_or_skip() else { return };
    let base: Vec<i64> = (0..24).collect();
    // np.arange(6).reshape(2,3)[:, ::-1]: ravel K is [2,1,0,5,4,3], a copy.
    let a = Array::from_slice(&base[..6], &[2, 3]).unwrap();
    let r = a.slice(&s![.., ..;-1]).unwrap();
    let k = r.ravel_order(CopyOrder::K).unwrap();
    assert_eq!(i64s(&k), [2, 1, 0, 5, 4, 3]);
    assert!(!k.shares_memory_with(&a));
    // np.arange(6).reshape(2,3)[::-1]: [3,4,5,0,1,2]; its K copy is C.
    let e = a.slice(&s![..;-1]).unwrap();
    assert_eq!(
        i64s(&e.ravel_order(CopyOrder::K).unwrap()),
        [3, 4, 5, 0, 1, 2]
    );
    assert!(e.copy_order(CopyOrder::K).unwrap().is_c_contiguous());
    // A transpose of a dense array: ravel K is a view in memory order.
    let b = Array::from_slice(&base, &[2, 3, 4]).unwrap();
    let bt = b.transpose(Some(&[2, 0, 1])).unwrap();
    let k = bt.ravel_order(CopyOrder::K).unwrap();
    assert!(k.shares_memory_with(&b));
    assert_eq!(i64s(&k), base);
    assert_eq!(i64s(&bt.flatten_order(CopyOrder::K).unwrap()), base);
    assert!(
        !bt.flatten_order(CopyOrder::K)
            .unwrap()
            .shares_memory_with(&b)
    );
    // np.arange(24).reshape(2,3,4)[:, :, ::2].transpose(1,0,2)
    let c = b
        .slice(&s![.., .., ..;2])
        .unwrap()
        .transpose(Some(&[1, 0, 2]))
        .unwrap();
    let evens: Vec<i64> = (0..12).map(|i| 2 * i).collect();
    assert_eq!(i64s(&c.ravel_order(CopyOrder::K).unwrap()), evens);
    assert_eq!(
        i64s(&c.ravel_order(CopyOrder::A).unwrap()),
        [0, 2, 12, 14, 4, 6, 16, 18, 8, 10, 20, 22]
    );
    // An F-ordered array: A reads and writes in F order, copies stay F.
    let d = gpu_array::creation::asfortranarray(&a, None).unwrap();
    let rd = d.reshape_order([3, 2], CopyOrder::A).unwrap();
    assert!(rd.shares_memory_with(&d));
    assert_eq!(i64s(&rd), [0, 4, 3, 2, 1, 5]);
    assert!(d.copy_order(CopyOrder::A).unwrap().is_f_contiguous());
    assert!(d.copy_order(CopyOrder::K).unwrap().is_f_contiguous());
    let f4 = d
        .astype_with(DType::Float32, Casting::Unsafe, CopyOrder::A)
        .unwrap();
    assert!(f4.is_f_contiguous());
    assert_eq!(f64s(&f4), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    // The old Order arguments still work.
    assert!(a.copy_order(Order::F).unwrap().is_f_contiguous());
    assert_eq!(
        a.reshape_order([6], CopyOrder::K).unwrap_err().to_string(),
        "order 'K' is not permitted for reshaping"
    );
}
