//! Tests of the array creation routines (`gpu_array::creation`). Oracle:
//! NumPy's own outputs, stored in `testdata/creation/creation.npz` by
//! `testdata/creation/make.py` (each golden's name matches the call made
//! here; `in_*` members are inputs). Device tests skip without a GPU
//! unless CUPRUM_TEST_REQUIRE_GPU=1; the error tests that fail before any
//! device work run everywhere.

use std::collections::HashMap;
use std::sync::OnceLock;

use gpu_array::creation::{self as cr, GridRange, Indexing};
use gpu_array::dtype::ScalarValue;
use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType, Error, Order, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::{
    assert_allclose, assert_array_equal, check_allclose, check_array_equal_strict, npz_members,
};
use num_complex::Complex;

use crate::common::testdata;

fn golden() -> &'static HashMap<String, NpyArray> {
    static G: OnceLock<HashMap<String, NpyArray>> = OnceLock::new();
    G.get_or_init(|| npz_members(testdata("creation/creation.npz")))
}

#[track_caller]
fn g(name: &str) -> &'static NpyArray {
    golden()
        .get(name)
        .unwrap_or_else(|| panic!("golden {name} missing: rerun testdata/creation/make.py"))
}

/// An input stored by make.py, uploaded.
#[track_caller]
fn input(name: &str) -> Array {
    Array::from_npy(g(name)).unwrap()
}

/// Same dtype, shape and values (NaN equals NaN) as NumPy's golden `name`.
#[track_caller]
fn check(actual: &Array, name: &str) {
    if let Err(e) = check_array_equal_strict(actual, g(name)) {
        panic!("{name}:\n{e}");
    }
}

/// `check` of a `Result`.
#[track_caller]
fn check_ok(actual: gpu_array::Result<Array>, name: &str) {
    match actual {
        Ok(a) => check(&a, name),
        Err(e) => panic!("{name}: {e}"),
    }
}

#[track_caller]
fn check_close(actual: &Array, name: &str, rtol: f64) {
    assert_eq!(actual.dtype(), g(name).dtype, "{name}: dtype");
    if let Err(e) = check_allclose(actual, g(name), rtol, 0.0) {
        panic!("{name}:\n{e}");
    }
}

#[track_caller]
fn err_text(r: gpu_array::Result<impl std::fmt::Debug>) -> String {
    match r {
        Ok(v) => panic!("expected an error, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

const DTYPES: [DType; 15] = DType::ALL;

// ---------------------------------------------------------------------------
// empty, zeros, ones, full

#[test]
fn zeros_ones_empty_every_dtype() {
    let Some(_d) = device_or_skip() else { return };
    for dt in DTYPES {
        let z = cr::zeros([3, 5], dt).unwrap();
        assert_eq!((z.dtype(), z.shape()), (dt, &[3usize, 5][..]));
        assert_array_equal(&z, &0.0f64);
        let o = cr::ones([2, 7], dt).unwrap();
        assert_eq!(o.dtype(), dt);
        assert_array_equal(&o, &1.0f64);
        let e = cr::empty([4, 0, 2], dt).unwrap();
        assert_eq!((e.shape(), e.size()), (&[4usize, 0, 2][..], 0));
        let of = cr::ones_order([2, 3], dt, Order::F).unwrap();
        assert!(of.is_f_contiguous() && !of.is_c_contiguous(), "{dt}");
        assert_array_equal(&of, &1.0f64);
        let zf = cr::zeros_order([3, 2], dt, Order::F).unwrap();
        assert!(zf.is_f_contiguous(), "{dt}");
        assert_array_equal(&zf, &0.0f64);
        let ef = cr::empty_order([3, 2], dt, Order::F).unwrap();
        assert!(ef.is_f_contiguous(), "{dt}");
    }
    // Zero-size and 0-d shapes.
    check_ok(cr::ones([0, 3], DType::Int32), "ones_0x3");
    let z0 = cr::zeros([], DType::Float64).unwrap();
    assert_eq!((z0.ndim(), z0.size()), (0, 1));
    assert_array_equal(&z0, &0.0f64);
    check_ok(cr::ones([2, 3], DType::Complex64), "ones_c8");
    check_ok(cr::ones([4], DType::Float16), "ones_f2");
    check_ok(cr::ones([2, 2], DType::Bool), "ones_b1");
}

#[test]
fn full_matches_numpy() {
    let Some(_d) = device_or_skip() else { return };
    // dtype None: from the value's kind.
    check_ok(cr::full([2, 3], 7, None), "full_int");
    check_ok(cr::full([2, 2], 2.5, None), "full_float");
    check_ok(cr::full([3], true, None), "full_bool");
    check_ok(cr::full([2], Complex::new(1.0, 2.0), None), "full_complex");
    check_ok(cr::full([2, 2], -5, Some(DType::Int8)), "full_i1_neg");
    check_ok(
        cr::full([3], 1.0 / 3.0, Some(DType::Float16)),
        "full_f2_third",
    );
    check_ok(cr::full([2], 1.7, Some(DType::UInt8)), "full_u1_trunc");
    check_ok(
        cr::full([2], Complex::new(1.0, 2.0), Some(DType::Float64)),
        "full_c_to_f8",
    );
    check_ok(cr::full([], 3.5, Some(DType::Float32)), "full_0d");
    let f = cr::full_order([2, 3], 4u32, Some(DType::Int16), Order::F).unwrap();
    assert!(f.is_f_contiguous() && !f.is_c_contiguous());
    assert_array_equal(&f, &4i16);
    // Beyond int64: uint64, as NumPy's `np.full(2, 2**63)`.
    let big = cr::full([2], u64::MAX, None).unwrap();
    assert_eq!(big.dtype(), DType::UInt64);
    assert_array_equal(&big, &u64::MAX);
}

#[test]
fn full_errors_in_numpys_words() {
    let Some(_d) = device_or_skip() else { return };
    assert_eq!(
        err_text(cr::full([3], 300, Some(DType::Int8))),
        "Python integer 300 out of bounds for int8"
    );
    assert_eq!(
        err_text(cr::full([3], -1, Some(DType::UInt8))),
        "Python integer -1 out of bounds for uint8"
    );
    let a = cr::zeros([3], DType::Int8).unwrap();
    assert_eq!(
        err_text(cr::full_like(&a, 300, None)),
        "Python integer 300 out of bounds for int8"
    );
}

// ---------------------------------------------------------------------------
// _like forms: order K

#[test]
fn like_forms_keep_shape_and_order() {
    let Some(_d) = device_or_skip() else { return };
    let m = input("in_m_f4"); // (4, 5) float32, C
    let mf = m.T(); // (5, 4), F-contiguous
    assert!(mf.is_f_contiguous() && !mf.is_c_contiguous());

    let e = cr::empty_like(&mf, None).unwrap();
    assert_eq!((e.shape(), e.dtype()), (&[5usize, 4][..], DType::Float32));
    assert_eq!(e.strides(), &[4, 20]);
    assert!(e.flags().owndata);
    assert!(!e.shares_memory_with(&mf));

    let z = cr::zeros_like(&mf, Some(DType::Int16)).unwrap();
    assert_eq!((z.dtype(), z.strides()), (DType::Int16, &[2isize, 10][..]));
    assert_array_equal(&z, &0i16);

    let o = cr::ones_like(&m, Some(DType::Complex64)).unwrap();
    assert!(o.is_c_contiguous());
    assert_eq!(o.dtype(), DType::Complex64);
    assert_array_equal(&o, &Complex::new(1.0f32, 0.0));

    let f = cr::full_like(&mf, 2.9, Some(DType::Int8)).unwrap();
    assert!(f.is_f_contiguous() && !f.is_c_contiguous());
    assert_array_equal(&f, &2i8);
    let f = cr::full_like(&m, -0.5, None).unwrap();
    assert_eq!(f.dtype(), DType::Float32);
    assert_array_equal(&f, &-0.5f32);

    // A permuted 4-D source: NumPy's strides, (24, 288, 8, 96) for int64.
    let b = input("in_b_i8"); // (2, 3, 4, 3)
    let t = b.transpose(Some(&[2, 0, 3, 1])).unwrap();
    let e = cr::empty_like(&t, None).unwrap();
    assert_eq!(e.shape(), &[4, 2, 3, 3]);
    assert_eq!(e.strides(), &[24, 288, 8, 96]);
    let z = cr::zeros_like(&t, Some(DType::Int16)).unwrap();
    assert_eq!(z.strides(), &[6, 72, 2, 24]);
    assert_array_equal(&z, &0i16);
    let o = cr::ones_like(&t, None).unwrap();
    assert_array_equal(&o, &1i64);
    // A broadcast source: NumPy's (8, 16).
    let v = input("in_v_f8").slice(&s![..3]).unwrap();
    let bc = v.broadcast_to(&[2, 3]).unwrap();
    let e = cr::empty_like(&bc, None).unwrap();
    assert_eq!(e.strides(), &[8, 16]);
    // Negative strides: C order.
    let r = b.slice(&s![.., ..;-1]).unwrap();
    assert_eq!(
        cr::empty_like(&r, None).unwrap().strides(),
        &[288, 96, 24, 8]
    );
    // Empty source.
    let e0 = cr::zeros_like(&cr::empty([0, 3], DType::Bool).unwrap(), None).unwrap();
    assert_eq!((e0.shape(), e0.dtype()), (&[0usize, 3][..], DType::Bool));
}

// ---------------------------------------------------------------------------
// eye, identity, tri

#[test]
fn eye_identity_tri_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    check_ok(cr::eye(3, None, 0, DType::Float64), "eye_3");
    check_ok(cr::eye(3, Some(4), 1, DType::Float32), "eye_3_4_k1_f4");
    check_ok(cr::eye(4, Some(3), -1, DType::Int32), "eye_4_3_km1_i4");
    check_ok(cr::eye(3, None, 5, DType::Float64), "eye_3_k5");
    check_ok(cr::eye(2, None, 0, DType::Bool), "eye_2_b1");
    check_ok(cr::eye(3, Some(4), -2, DType::Complex64), "eye_3_4_km2_c8");
    check_ok(cr::eye(0, None, 0, DType::Float64), "eye_0");
    check_ok(cr::eye(3, Some(0), 0, DType::Float64), "eye_3_0");
    check_ok(cr::identity(4, DType::Int8), "identity_4_i1");
    check_ok(cr::identity(3, DType::Float16), "identity_3_f2");
    // bfloat16 (not in NumPy): the float32 identity's values.
    let b = cr::identity(3, DType::BFloat16).unwrap();
    assert_array_equal(&b, &cr::identity(3, DType::Float32).unwrap());

    check_ok(cr::tri(3, None, 0, DType::Float64), "tri_3");
    check_ok(cr::tri(3, Some(5), 2, DType::Int32), "tri_3_5_2_i4");
    check_ok(cr::tri(4, Some(2), -1, DType::Bool), "tri_4_2_m1_b1");
    check_ok(cr::tri(0, None, 0, DType::Float64), "tri_0");
    check_ok(cr::tri(2, Some(3), -5, DType::Complex64), "tri_2_3_m5_c8");
}

// ---------------------------------------------------------------------------
// arange

#[test]
fn arange_matches_numpy_values() {
    let Some(_d) = device_or_skip() else { return };
    check_ok(cr::arange_with(0, 10, 1, None), "arange_10");
    check_ok(cr::arange_with(0, 1, 0.1, None), "arange_0_1_01");
    check_ok(cr::arange_with(0.1, 1.3, 0.2, None), "arange_01_13_02");
    check_ok(
        cr::arange_with(0, 5, 1.5, Some(DType::Int64)),
        "arange_0_5_15_i8",
    );
    check_ok(
        cr::arange_with(0, 1, 0.1, Some(DType::Float32)),
        "arange_0_1_01_f4",
    );
    check_ok(
        cr::arange_with(0, 1, 0.1, Some(DType::Float16)),
        "arange_0_1_01_f2",
    );
    check_ok(cr::arange_with(10, 0, -3, None), "arange_10_0_m3");
    check_ok(cr::arange_with(-5.5, 5, 0.7, None), "arange_m55_5_07");
    check_ok(cr::arange_with(5, 0, 1, None), "arange_5_0");
    check_ok(cr::arange_with(0, 2, 1, Some(DType::Bool)), "arange_0_2_b1");
    check_ok(
        cr::arange_with(250, 260, 1, Some(DType::UInt8)),
        "arange_250_260_u1",
    );
    check_ok(
        cr::arange_with(0, 5, 1, Some(DType::Complex128)),
        "arange_0_5_c16",
    );
    check_ok(
        cr::arange_with(Complex::new(0.0, 1.0), Complex::new(4.0, 10.0), 1, None),
        "arange_1j_4_10j",
    );
    check_ok(
        cr::arange_with(0.25, 3, 0.5, Some(DType::Complex64)),
        "arange_0_5_c8_step",
    );
    check_ok(
        cr::arange_with(0.3, 1000.5, 0.37, None),
        "arange_03_1000_037",
    );
    check_ok(
        cr::arange_with(-3, 3, 0.25, Some(DType::Float16)),
        "arange_m3_3_025_f2",
    );
    check_ok(
        cr::arange_with(-100, 100, 7, Some(DType::Int8)),
        "arange_m100_100_7_i1",
    );
    check_ok(
        cr::arange_with(0, 20, 3, Some(DType::UInt64)),
        "arange_0_20_3_u8",
    );
    check_ok(
        cr::arange_with(0.5, 5, 1, Some(DType::Int64)),
        "arange_05_5_1_i8",
    );
    check_ok(
        cr::arange_with(1, 2, 0.1, Some(DType::Float32)),
        "arange_1_2_01_f4",
    );
    check_ok(cr::arange_with(1e-300, 2e-300, 1e300, None), "arange_tiny");
    // One element: NumPy never stores (so never checks) start + step.
    let one = cr::arange_with(255, 256, 1, Some(DType::UInt8)).unwrap();
    assert_eq!(one.dtype(), DType::UInt8);
    assert_array_equal(&one, &[255u8]);
    // Equal ends: empty, of the arguments' dtype.
    let e = cr::arange_with(5, 5, 1, None).unwrap();
    assert_eq!((e.shape(), e.dtype()), (&[0usize][..], DType::Int64));
    // A long float range against the formula NumPy documents.
    let a = cr::arange_with(0.0, 100_000.0, 0.5, Some(DType::Float64)).unwrap();
    let want: Vec<f64> = (0..200_000).map(|i| 0.0 + i as f64 * 0.5).collect();
    assert_array_equal(&a, &want);
}

#[test]
fn arange_errors_in_numpys_words() {
    // No device needed: these fail before anything is allocated.
    assert!(err_text(cr::arange_with(0, 10, 0, None)).contains("division by zero"));
    assert!(matches!(
        cr::arange((0, 10, 0)),
        Err(gpu_array::Error::ZeroDivision(_))
    ));
    assert!(err_text(cr::arange_with(5, 5, 0.0, None)).contains("division by zero"));
    assert_eq!(
        err_text(cr::arange_with(0.0, f64::NAN, 1, None)),
        "arange: cannot compute length"
    );
    assert_eq!(
        err_text(cr::arange_with(0.0, f64::INFINITY, 1, None)),
        "Maximum allowed size exceeded"
    );
    assert_eq!(
        err_text(cr::arange_with(0.0, f64::NEG_INFINITY, 1, None)),
        "Maximum allowed size exceeded"
    );
    assert_eq!(
        err_text(cr::arange_with(0, 3, 1, Some(DType::Bool))),
        "arange() is only supported for booleans when the result has at most length 2."
    );
    assert_eq!(
        err_text(cr::arange_with(-3, 3, 1, Some(DType::UInt8))),
        "Python integer -3 out of bounds for uint8"
    );
    // Two or more elements: start + step is stored, and checked.
    assert_eq!(
        err_text(cr::arange_with(254, 257, 2, Some(DType::UInt8))),
        "Python integer 256 out of bounds for uint8"
    );
    let e = cr::arange_with(0, 10, 0, None).unwrap_err();
    assert!(matches!(e, Error::ZeroDivision(_)), "{e:?}");
}

// ---------------------------------------------------------------------------
// linspace, logspace

#[test]
fn linspace_matches_numpy() {
    let Some(_d) = device_or_skip() else { return };
    check_ok(cr::linspace_with(0, 1, 5, true, None), "linspace_0_1_5");
    check_ok(
        cr::linspace_with(0, 1, 5, false, None),
        "linspace_0_1_5_noend",
    );
    let (y, step) = cr::linspace_retstep(2, 3, 7, true, None).unwrap();
    check(&y, "linspace_2_3_7");
    let want = g("linspace_2_3_7_step").to_vec::<f64>().unwrap()[0];
    assert_eq!(step, ScalarValue::Float(want));
    check_ok(
        cr::linspace_with(-1, 1, 5, true, Some(DType::Int8)),
        "linspace_m1_1_5_i1",
    );
    check_ok(
        cr::linspace_with(0, 10, 5, true, Some(DType::Int64)),
        "linspace_0_10_5_i8",
    );
    check_ok(cr::linspace_with(0, 1, 1, true, None), "linspace_0_1_1");
    check_ok(cr::linspace_with(0, 1, 0, true, None), "linspace_0_1_0");
    check_ok(
        cr::linspace_with(0, 1, 11, true, Some(DType::Float32)),
        "linspace_0_1_11_f4",
    );
    check_ok(
        cr::linspace_with(0.0, 5e-324, 3, true, None),
        "linspace_denormal",
    );
    check_ok(
        cr::linspace_with(
            Complex::new(1.0, 1.0),
            Complex::new(2.0, -3.0),
            5,
            true,
            None,
        ),
        "linspace_c16",
    );
    check_ok(
        cr::linspace_with(0, Complex::new(1.0, 2.0), 4, false, Some(DType::Complex64)),
        "linspace_c8_noend",
    );
    check_ok(
        cr::linspace_with(0, 1, 5, true, Some(DType::Bool)),
        "linspace_b1",
    );
    check_ok(cr::linspace_with(5, 5, 3, true, None), "linspace_5_5_3");
    check_ok(
        cr::linspace_with(-2.5, 7.25, 13, false, Some(DType::Float16)),
        "linspace_f2_noend",
    );
    check_ok(
        cr::linspace_with(0.1, 0.7, 97, true, None),
        "linspace_0p1_0p7_97",
    );
}

#[test]
fn linspace_errors() {
    // No device needed: NumPy's floor of complex values.
    assert!(
        err_text(cr::linspace_with(
            0,
            Complex::new(1.0, 1.0),
            3,
            true,
            Some(DType::Int64)
        ))
        .contains("ufunc 'floor' not supported")
    );
}

#[test]
fn linspace_retstep_values() {
    let Some(_d) = device_or_skip() else { return };
    let nan = |s: ScalarValue| matches!(s, ScalarValue::Float(f) if f.is_nan());
    assert!(nan(cr::linspace_retstep(0, 1, 1, true, None).unwrap().1));
    assert!(nan(cr::linspace_retstep(0, 1, 0, true, None).unwrap().1));
    assert_eq!(
        cr::linspace_retstep(0, 1, 1, false, None).unwrap().1,
        ScalarValue::Float(1.0)
    );
    assert_eq!(
        cr::linspace_retstep(0, 1, 5, false, None).unwrap().1,
        ScalarValue::Float(0.2)
    );
    let (_, s) = cr::linspace_retstep(0, Complex::new(2.0, 4.0), 3, true, None).unwrap();
    assert_eq!(s, ScalarValue::Complex(Complex::new(1.0, 2.0)));
}

#[test]
fn logspace_matches_numpy() {
    let Some(_d) = device_or_skip() else { return };
    // The GPU's pow is within 2 ulp of glibc's (CUDA's documented bound).
    check_close(
        &cr::logspace_with(0, 3, 4, true, 10.0, None).unwrap(),
        "logspace_0_3_4",
        1e-15,
    );
    check_close(
        &cr::logspace_with(0, 2, 3, true, 2.0, None).unwrap(),
        "logspace_0_2_3_b2",
        1e-15,
    );
    check_ok(
        cr::logspace_with(0, 3, 4, true, 10.0, Some(DType::Int64)),
        "logspace_0_3_4_i8",
    );
    check_close(
        &cr::logspace_with(-1, 1, 7, false, 3.0, Some(DType::Float32)).unwrap(),
        "logspace_f4",
        1e-7,
    );
    check_ok(
        cr::logspace_with(0, 1, 0, true, 10.0, None),
        "logspace_0_1_0",
    );
}

/// `logspace_arrays` with an array `base`: NumPy broadcasts it with the
/// ends and expands it at `axis` (`np.expand_dims(base, axis)`). Expected
/// values are NumPy 2's answers, worked by hand (powers of small bases;
/// the GPU's pow is within 2 ulp).
#[test]
fn logspace_arrays_take_an_array_base() {
    let Some(_d) = device_or_skip() else { return };
    let close = |got: &Array, want: &[f64]| {
        let got = got.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(got.len(), want.len(), "{got:?} {want:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() <= 1e-15 * w.abs().max(1.0),
                "{got:?} {want:?}"
            );
        }
    };
    let (start, stop) = (
        Array::from_slice(&[0.0f64, 1.0], &[2]).unwrap(),
        Array::from_slice(&[2.0f64, 3.0], &[2]).unwrap(),
    );
    let base = Array::from_slice(&[2.0f64, 10.0], &[2]).unwrap();
    // np.logspace([0, 1], [2, 3], 3, base=[2, 10]): [[1, 10], [2, 100], [4, 1000]]
    let y = cr::logspace_arrays(&start, &stop, 3, true, &base, None, 0).unwrap();
    assert_eq!((y.shape(), y.dtype()), (&[3usize, 2][..], DType::Float64));
    close(&y, &[1.0, 10.0, 2.0, 100.0, 4.0, 1000.0]);
    // axis=1: [[1, 2, 4], [10, 100, 1000]]; axis=-1 the same.
    for axis in [1, -1] {
        let y = cr::logspace_arrays(&start, &stop, 3, true, &base, None, axis).unwrap();
        assert_eq!(y.shape(), &[2, 3]);
        close(&y, &[1.0, 2.0, 4.0, 10.0, 100.0, 1000.0]);
    }
    // Broadcast: np.logspace(0, [1, 2], 3, base=[[2], [3]]) has shape
    // (3, 2, 2): base**(i * stop / 2) for i = 0, 1, 2.
    let zero = Array::from_slice(&[0.0f64], &[]).unwrap();
    let stop12 = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let col = Array::from_slice(&[2.0f64, 3.0], &[2, 1]).unwrap();
    let y = cr::logspace_arrays(&zero, &stop12, 3, true, &col, None, 0).unwrap();
    assert_eq!(y.shape(), &[3, 2, 2]);
    let (r2, r3) = (2f64.sqrt(), 3f64.sqrt());
    close(
        &y,
        &[1.0, 1.0, 1.0, 1.0, r2, 2.0, r3, 3.0, 2.0, 4.0, 3.0, 9.0],
    );
    // An int base promotes to float64 with the float64 exponents; a
    // float32 one too (np.logspace([0, 1], [2, 3], 3, base=np.array([2, 4],
    // dtype=np.float32)).dtype is float64); dtype= casts after.
    let bi = Array::from_slice(&[2i32, 4], &[2]).unwrap();
    let y = cr::logspace_arrays(&start, &stop, 3, true, &bi, None, 0).unwrap();
    assert_eq!(y.dtype(), DType::Float64);
    close(&y, &[1.0, 4.0, 2.0, 16.0, 4.0, 64.0]);
    let bf = Array::from_slice(&[2.0f32, 4.0], &[2]).unwrap();
    let y = cr::logspace_arrays(&start, &stop, 3, true, &bf, None, 0).unwrap();
    assert_eq!(y.dtype(), DType::Float64);
    let y = cr::logspace_arrays(&start, &stop, 3, true, &bf, Some(DType::Float32), 0).unwrap();
    assert_eq!(y.dtype(), DType::Float32);
    close(&y, &[1.0, 4.0, 2.0, 16.0, 4.0, 64.0]);
    // A 0-d base is a plain operand: np.logspace([0, 1], [2, 3], 3,
    // base=np.array(2.0)) == 2 ** linspace.
    let b0 = Array::from_slice(&[2.0f64], &[]).unwrap();
    let y = cr::logspace_arrays(&start, &stop, 3, true, &b0, None, 0).unwrap();
    close(&y, &[1.0, 2.0, 2.0, 4.0, 4.0, 8.0]);
    // The scalar forms are unchanged (a weak int base too).
    let y = cr::logspace_arrays(&start, &stop, 3, true, 2, None, 0).unwrap();
    close(&y, &[1.0, 2.0, 2.0, 4.0, 4.0, 8.0]);
    // NumPy's errors: a base that does not broadcast; an axis past the
    // result's dimensions (np.expand_dims's AxisError).
    let b3 = Array::from_slice(&[2.0f64, 3.0, 4.0], &[3]).unwrap();
    assert!(matches!(
        cr::logspace_arrays(&start, &stop, 3, true, &b3, None, 0),
        Err(Error::Broadcast { .. })
    ));
    let e = cr::logspace_arrays(&start, &stop, 3, true, &base, None, 2).unwrap_err();
    assert!(matches!(e, Error::AxisOutOfBounds { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "axis 2 is out of bounds for array of dimension 2"
    );
}

// ---------------------------------------------------------------------------
// meshgrid, mgrid, ogrid, indices

#[test]
fn meshgrid_matches_numpy() {
    let Some(_d) = device_or_skip() else { return };
    let (x, y, z) = (input("in_mesh_x"), input("in_mesh_y"), input("in_mesh_z"));
    for (indexing, itag) in [(Indexing::Xy, "xy"), (Indexing::Ij, "ij")] {
        for (sparse, stag) in [(false, "dense"), (true, "sparse")] {
            for copy in [false, true] {
                let two = cr::meshgrid(&[&x, &y], indexing, sparse, copy).unwrap();
                assert_eq!(two.len(), 2);
                for (k, a) in two.iter().enumerate() {
                    check(a, &format!("mesh2_{itag}_{stag}_{k}"));
                }
                let three = cr::meshgrid(&[&x, &y, &z], indexing, sparse, copy).unwrap();
                for (k, a) in three.iter().enumerate() {
                    check(a, &format!("mesh3_{itag}_{stag}_{k}"));
                    let src = [&x, &y, &z][k];
                    if copy {
                        assert!(a.is_c_contiguous() && !a.shares_memory_with(src));
                    } else {
                        // Views of the (contiguous) inputs, as NumPy's.
                        assert!(a.shares_memory_with(src));
                    }
                }
            }
        }
    }
    check(
        &cr::meshgrid(&[&x], Indexing::Xy, false, true).unwrap()[0],
        "mesh1_0",
    );
    assert!(
        cr::meshgrid(&[], Indexing::Xy, false, true)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn mgrid_ogrid_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    check_ok(
        cr::mgrid(&[GridRange::step(0, 5, 1), GridRange::step(0, 3, 1)]),
        "mgrid_i",
    );
    check_ok(
        cr::mgrid(&[GridRange::num(0, 1, 3), GridRange::num(0, 2, 5)]),
        "mgrid_num",
    );
    check_ok(
        cr::mgrid(&[GridRange::step(0.1, 1, 0.2), GridRange::step(0, 2, 1)]),
        "mgrid_f",
    );
    check_ok(
        cr::mgrid(&[GridRange::step(0, 1, 0.3)]),
        "mgrid_single_step",
    );
    check_ok(cr::mgrid(&[GridRange::num(0, 1, 5)]), "mgrid_single_num");
    check_ok(
        cr::mgrid(&[GridRange::num(-1, 1, 4), GridRange::step(0, 3, 2)]),
        "mgrid_mixed",
    );
    check_ok(
        cr::mgrid(&[GridRange::num(2, 7, 1), GridRange::step(0, 2, 1)]),
        "mgrid_num1",
    );
    check_ok(
        cr::mgrid(&[GridRange::step(0, 3, 1), GridRange::step(0, 0, 1)]),
        "mgrid_empty",
    );
    for (ranges, tag) in [
        (
            vec![GridRange::step(0, 5, 1), GridRange::step(0, 3, 1)],
            "i",
        ),
        (
            vec![GridRange::num(0, 1, 3), GridRange::step(0, 3, 1)],
            "num",
        ),
        (
            vec![GridRange::step(5, 0, 1), GridRange::step(0, 3, 1)],
            "back",
        ),
    ] {
        let o = cr::ogrid(&ranges).unwrap();
        assert_eq!(o.len(), 2);
        for (k, a) in o.iter().enumerate() {
            check(a, &format!("ogrid_{tag}_{k}"));
        }
    }
    let one = cr::ogrid(&[GridRange::step(0, 1, 0.3)]).unwrap();
    assert_eq!(one.len(), 1);
    check(&one[0], "mgrid_single_step");
}

#[test]
fn grid_errors() {
    // No device needed.
    assert_eq!(
        err_text(cr::mgrid(&[
            GridRange::step(5, 0, 1),
            GridRange::step(0, 3, 1)
        ])),
        "negative dimensions are not allowed"
    );
    assert!(
        err_text(cr::mgrid(&[
            GridRange::step(0, 1, 0.0),
            GridRange::step(0, 2, 1)
        ]))
        .contains("division by zero")
    );
    assert!(err_text(cr::mgrid(&[GridRange::step(0, 1, 0.0)])).contains("division by zero"));
    assert!(err_text(cr::mgrid(&[])).contains("at least one range"));
    assert!(err_text(cr::ogrid(&[])).contains("at least one range"));
    assert_eq!(
        err_text(cr::indices(&[3], DType::Bool)),
        "arange() is only supported for booleans when the result has at most length 2."
    );
    assert!(err_text(cr::indices_sparse(&[2, 5], DType::Bool)).contains("booleans"));
}

#[test]
fn indices_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    check_ok(cr::indices(&[2, 3], DType::Int64), "indices_2_3");
    check_ok(cr::indices(&[2, 3], DType::Float32), "indices_2_3_f4");
    check_ok(cr::indices(&[3, 1, 2], DType::Int8), "indices_3_1_2_i1");
    check_ok(cr::indices(&[0, 3], DType::Int64), "indices_0_3");
    check_ok(cr::indices(&[], DType::Int64), "indices_empty");
    check_ok(cr::indices(&[2, 2], DType::Bool), "indices_2_2_b1");
    let sp = cr::indices_sparse(&[2, 3, 4], DType::Int64).unwrap();
    assert_eq!(sp.len(), 3);
    for (k, a) in sp.iter().enumerate() {
        check(a, &format!("indices_sparse_{k}"));
    }
}

// ---------------------------------------------------------------------------
// diag, diagflat, tril, triu

#[test]
fn diag_matches_numpy() {
    let Some(_d) = device_or_skip() else { return };
    let (vf, vi, vc) = (input("in_v_f8"), input("in_v_i4"), input("in_v_c8"));
    for k in [0isize, 1, -2] {
        check_ok(cr::diag(&vf, k), &format!("diag_v_f8_{k}"));
        check_ok(cr::diag(&vi, k), &format!("diag_v_i4_{k}"));
    }
    check_ok(cr::diag(&vc, 1), "diag_v_c8_1");
    // A reversed (negative-stride) 1-D input.
    let rev = vi.slice(&s![..;-1]).unwrap();
    let d = cr::diag(&rev, 0).unwrap();
    assert_array_equal(&d.slice(&s![0, 0]).unwrap(), &7i32);
    assert_array_equal(&d.slice(&s![2, 2]).unwrap(), &3i32);
    check_ok(
        cr::diag(&cr::zeros([0], DType::Float32).unwrap(), 2),
        "diag_empty_2",
    );
    // 2-D: views, as NumPy's diagonal.
    let m = input("in_m_f4");
    let mt = m.T();
    for k in [0isize, 1, -1, -3, 4, 5, -4] {
        let d = cr::diag(&m, k).unwrap();
        check(&d, &format!("diag_m_f4_{k}"));
        if d.size() > 0 {
            assert!(d.shares_memory_with(&m) && !d.flags().owndata);
        }
        check_ok(cr::diag(&mt, k), &format!("diag_m_f4T_{k}"));
    }
    check_ok(cr::diag(&input("in_m_c16"), -1), "diag_m_c16_m1");
    // diagflat reads any layout in C order.
    let sub = m.slice(&s![..2, ..3]).unwrap();
    check_ok(cr::diagflat(&sub, 0), "diagflat_m_f4_0");
    check_ok(cr::diagflat(&sub.T(), -1), "diagflat_m_f4T_m1");
    check_ok(cr::diagflat(&vi, 2), "diagflat_v_i4_2");
    // Errors.
    let b = input("in_b_i8");
    assert_eq!(err_text(cr::diag(&b, 0)), "Input must be 1- or 2-d.");
    let s0 = Array::scalar(1.0f64).unwrap();
    assert_eq!(err_text(cr::diag(&s0, 0)), "Input must be 1- or 2-d.");
}

#[test]
fn tril_triu_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    let m = input("in_m_f4");
    let mt = m.T();
    let b = input("in_b_i8");
    for k in [0isize, 1, -1, 3, -5] {
        check_ok(cr::tril(&m, k), &format!("tril_m_f4_{k}"));
        check_ok(cr::triu(&m, k), &format!("triu_m_f4_{k}"));
        let t = cr::tril(&mt, k).unwrap();
        // NumPy's `where` gives C order here even for an F input.
        assert!(t.is_c_contiguous());
        check(&t, &format!("tril_m_f4T_{k}"));
        check_ok(cr::triu(&b, k), &format!("triu_b_i8_{k}"));
        check_ok(cr::tril(&b, k), &format!("tril_b_i8_{k}"));
    }
    let strided = b.slice(&s![.., ..;-1, ..;2, ..]).unwrap();
    check_ok(cr::tril(&strided, 1), "tril_b_i8_strided_1");
    check_ok(cr::tril(&input("in_m_c16"), 0), "tril_m_c16_0");
    check_ok(cr::triu(&input("in_m_b1"), 1), "triu_m_b1_1");
    check_ok(cr::tril(&input("in_m_f2"), -1), "tril_m_f2_m1");
    let v = input("in_v_i4");
    check_ok(cr::tril(&v, 0), "tril_v_i4_0");
    check_ok(cr::triu(&v, 1), "triu_v_i4_1");
    // Empty batch and empty matrices.
    let e = cr::tril(&cr::ones([0, 3, 3], DType::Float32).unwrap(), 0).unwrap();
    assert_eq!(e.shape(), &[0, 3, 3]);
    let e = cr::triu(&cr::ones([2, 0], DType::Float32).unwrap(), 0).unwrap();
    assert_eq!(e.shape(), &[2, 0]);
    // A 0-d input.
    let s0 = Array::scalar(1.0f64).unwrap();
    assert!(err_text(cr::tril(&s0, 0)).contains("at least 1 dimension"));
    assert!(err_text(cr::triu(&s0, 0)).contains("at least 1 dimension"));
}

// ---------------------------------------------------------------------------
// array, asarray, ascontiguousarray, asfortranarray, copy

#[test]
fn copies_and_conversions() {
    let Some(_d) = device_or_skip() else { return };
    let m = input("in_m_f4"); // (4, 5) C
    let mf = m.T(); // F

    // copy keeps the order (NumPy's order K).
    let c = cr::copy(&mf).unwrap();
    assert!(c.is_f_contiguous() && !c.is_c_contiguous() && c.flags().owndata);
    assert!(!c.shares_memory_with(&mf));
    assert_array_equal(&c, &mf);
    let c = cr::copy(&m.slice(&s![.., ..;2]).unwrap()).unwrap();
    assert!(c.is_c_contiguous());
    assert_array_equal(&c, &m.slice(&s![.., ..;2]).unwrap());

    // ascontiguousarray: no copy when already C and of the dtype.
    let a = cr::ascontiguousarray(&m, None).unwrap();
    assert!(a.shares_memory_with(&m));
    let a = cr::ascontiguousarray(&m, Some(DType::Float32)).unwrap();
    assert!(a.shares_memory_with(&m));
    let a = cr::ascontiguousarray(&mf, None).unwrap();
    assert!(a.is_c_contiguous() && !a.shares_memory_with(&m));
    assert_array_equal(&a, &mf);
    let a = cr::ascontiguousarray(&m, Some(DType::Float64)).unwrap();
    assert_eq!(a.dtype(), DType::Float64);
    assert_array_equal(&a, &m);
    let s0 = Array::scalar(2.5f32).unwrap();
    let a = cr::ascontiguousarray(&s0, None).unwrap();
    assert_eq!(a.shape(), &[1]);
    assert!(a.shares_memory_with(&s0));
    assert_array_equal(&a, &[2.5f32]);

    // asfortranarray.
    let f = cr::asfortranarray(&mf, None).unwrap();
    assert!(f.shares_memory_with(&mf));
    let f = cr::asfortranarray(&m, None).unwrap();
    assert!(f.is_f_contiguous() && !f.is_c_contiguous() && !f.shares_memory_with(&m));
    assert_array_equal(&f, &m);
    let f = cr::asfortranarray(&m, Some(DType::Int32)).unwrap();
    assert!(f.is_f_contiguous() && f.dtype() == DType::Int32);
    assert_eq!(cr::asfortranarray(&s0, None).unwrap().shape(), &[1]);

    // asarray: the same array when nothing changes.
    assert!(
        cr::asarray_with(&m, None, None)
            .unwrap()
            .shares_memory_with(&m)
    );
    assert!(
        cr::asarray_with(&mf, None, None)
            .unwrap()
            .shares_memory_with(&mf)
    );
    assert!(
        cr::asarray_with(&m, Some(DType::Float32), Some(Order::C))
            .unwrap()
            .shares_memory_with(&m)
    );
    let a = cr::asarray_with(&mf, None, Some(Order::C)).unwrap();
    assert!(a.is_c_contiguous() && !a.shares_memory_with(&mf));
    assert_array_equal(&a, &mf);
    let a = cr::asarray_with(&m, Some(DType::Float16), None).unwrap();
    assert_eq!(a.dtype(), DType::Float16);
    assert!(!a.shares_memory_with(&m));

    // array: always a copy; order K by default.
    let a = cr::array_with(&m, None, None).unwrap();
    assert!(a.is_c_contiguous() && !a.shares_memory_with(&m));
    assert_array_equal(&a, &m);
    let a = cr::array_with(&mf, None, None).unwrap();
    assert!(a.is_f_contiguous() && !a.is_c_contiguous());
    let a = cr::array_with(&mf, Some(DType::Complex128), Some(Order::C)).unwrap();
    assert!(a.is_c_contiguous() && a.dtype() == DType::Complex128);
    assert_array_equal(&a, &mf);

    // Host data.
    let a = cr::array_with(&[1i32, -2, 3][..], Some(DType::Float32), None).unwrap();
    assert_eq!(a.dtype(), DType::Float32);
    assert_array_equal(&a, &[1.0f32, -2.0, 3.0]);
    let v = vec![true, false];
    let a = cr::asarray_with(&v, None, None).unwrap();
    assert_eq!(a.dtype(), DType::Bool);
    assert_array_equal(&a, &[true, false]);
    let nd = ndarray::Array2::from_shape_fn((2, 3), |(i, j)| (i * 10 + j) as u16);
    let ndt = nd.t();
    let a = cr::array_with(&ndt, None, Some(Order::F)).unwrap();
    assert!(a.is_f_contiguous() && a.shape() == [3, 2]);
    assert_array_equal(&a, &ndt);
    let a = cr::array_with(&nd, Some(DType::Int64), Some(Order::F)).unwrap();
    assert!(a.is_f_contiguous() && a.dtype() == DType::Int64);
    assert_array_equal(&a, &nd);
    let a = cr::array_with(2.5f64, None, None).unwrap();
    assert_eq!((a.ndim(), a.dtype()), (0, DType::Float64));
    assert_array_equal(&a, &2.5f64);
    let e = cr::array_with(Vec::<f32>::new(), None, None).unwrap();
    assert_eq!(e.shape(), &[0]);
}

#[test]
fn bfloat16_routines_follow_float32() {
    let Some(_d) = device_or_skip() else { return };
    // NumPy has no bfloat16: compare with the float32 results, rounded.
    let a = cr::arange_with(0, 8, 1, Some(DType::BFloat16)).unwrap();
    assert_array_equal(&a, &[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let l = cr::linspace_with(0, 2, 5, true, Some(DType::BFloat16)).unwrap();
    assert_array_equal(&l, &[0.0f32, 0.5, 1.0, 1.5, 2.0]);
    let m = cr::tril(&cr::ones([3, 3], DType::BFloat16).unwrap(), 0).unwrap();
    assert_array_equal(&m, &cr::tri(3, None, 0, DType::Float32).unwrap());
    assert_allclose(
        &cr::indices(&[2, 2], DType::BFloat16).unwrap(),
        &cr::indices(&[2, 2], DType::Float32).unwrap(),
        0.0,
        0.0,
    );
}
