//! NumPy's keywords of issue 18 (point 6) on the GPU: `casting=`/`dtype=`
//! of the joins and their n-ary `result_type`, `equal_nan=` of `unique`,
//! `kind=` of `isin`, `weights=` of `quantile`, `order='A'|'K'` of the
//! copies and reshapes. The expected values are NumPy 2.4's answers for
//! the same inputs, written out here.

use gpu_array::dtype::Casting;
use gpu_array::manipulation::{self as m, JoinOptions};
use gpu_array::sorting::{
    self as so, IsinKind, IsinOptions, QuantileMethod, QuantileOptions, Quantiles, UniqueOptions,
};
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
