//! The assertions: passing inputs, failing inputs and their reports.

use gpu_testing::*;
use half::{bf16, f16};
use ndarray::array;
use num_complex::Complex;

const NAN: f64 = f64::NAN;
const INF: f64 = f64::INFINITY;

// ---- assert_allclose ----

#[test]
fn allclose_passes_on_close_values() {
    assert_allclose(&[1.0, 2.0 + 1e-8, 1e9], &[1.0, 2.0, 1e9 + 50.0], 1e-7, 0.0);
    assert_allclose(&[1e-9], &[0.0], 0.0, 1e-8);
    // NaN at the same places, signed zeros and same-signed infinities.
    assert_allclose(&[NAN, -0.0, INF, -INF], &[NAN, 0.0, INF, -INF], 1e-7, 0.0);
    // Complex NaN: either part NaN counts as NaN.
    assert_allclose(
        &[Complex::new(NAN, 1.0), Complex::new(1.0, 1.0)],
        &[Complex::new(2.0, NAN), Complex::new(1.0, 1.0 + 1e-9)],
        1e-7,
        0.0,
    );
    // Mixed dtypes compare by value; empty arrays pass.
    assert_allclose(&[1i32, 2, 3], &[1.0f32, 2.0, 3.0], 0.0, 0.0);
    assert_allclose(&Vec::<f64>::new(), &Vec::<f32>::new(), 1e-7, 0.0);
}

#[test]
fn allclose_broadcasts_scalars() {
    assert_allclose(&array![[2.0, 2.0], [2.0, 2.0]], &2.0, 1e-7, 0.0);
    assert_allclose(&3.0f32, &[3.0f32, 3.0, 3.0], 1e-7, 0.0);
    assert_allclose(&NAN, &[NAN, NAN], 1e-7, 0.0);
    assert_allclose(&Vec::<f64>::new(), &1.0, 1e-7, 0.0);
}

#[test]
fn allclose_report_is_numpys() {
    let err = check_allclose(&[1.0, 2.0, 4.0], &[1.0, 2.0, 3.0], 1e-7, 0.0).unwrap_err();
    assert_eq!(
        err,
        "Not equal to tolerance rtol=1e-07, atol=0\n\
         \n\
         Mismatched elements: 1 / 3 (33.3%)\n\
         Mismatch at index:\n \
         [2]: 4.0 (ACTUAL), 3.0 (DESIRED)\n\
         Max absolute difference among violations: 1.0\n\
         Max relative difference among violations: 0.3333333333333333\n \
         ACTUAL: array([1.0, 2.0, 4.0])\n \
         DESIRED: array([1.0, 2.0, 3.0])"
    );
}

#[test]
fn allclose_report_counts_and_lists_first_five() {
    let actual: Vec<f32> = (0..10)
        .map(|i| if i % 3 == 0 { i as f32 + 0.5 } else { i as f32 })
        .collect();
    let desired: Vec<f32> = (0..10).map(|i| i as f32).collect();
    let err = check_allclose(&actual, &desired, 1e-5, 1e-6).unwrap_err();
    assert!(
        err.starts_with("Not equal to tolerance rtol=1e-05, atol=1e-06\n\n"),
        "{err}"
    );
    assert!(err.contains("Mismatched elements: 4 / 10 (40%)\nMismatch at indices:\n [0]: 0.5 (ACTUAL), 0.0 (DESIRED)\n [3]: 3.5 (ACTUAL), 3.0 (DESIRED)\n"), "{err}");
    assert!(
        err.contains("Max absolute difference among violations: 0.5\n"),
        "{err}"
    );
    // Relative differences skip zero desired values: 0.5 / 3.
    assert!(
        err.contains("Max relative difference among violations: 0.16666667\n"),
        "{err}"
    );
    assert!(
        err.contains(
            " ACTUAL: array([0.5, 1.0, 2.0, 3.5, 4.0, 5.0, 6.5, 7.0, 8.0, 9.5], dtype=float32)"
        ),
        "{err}"
    );

    let actual = array![[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]];
    let err = check_allclose(&actual, &-1.0, 0.0, 0.0).unwrap_err();
    assert!(err.contains("Mismatched elements: 6 / 6 (100%)\nFirst 5 mismatches are at indices:\n [0, 0]: 0.0 (ACTUAL), -1.0 (DESIRED)\n [0, 1]: 1.0 (ACTUAL), -1.0 (DESIRED)\n"), "{err}");
    assert!(!err.contains("[1, 2]:"), "{err}");
    assert!(err.contains(" DESIRED: array(-1.0)"), "{err}");
}

#[test]
fn allclose_relative_difference_is_inf_when_desired_is_zero() {
    let err = check_allclose(&[1.0], &[0.0], 1e-7, 0.0).unwrap_err();
    assert!(
        err.contains("Max relative difference among violations: inf"),
        "{err}"
    );
}

#[test]
#[should_panic(
    expected = "Not equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 3 / 10 (30%)"
)]
fn allclose_panics_with_the_report() {
    let mut actual = [1.0; 10];
    actual[2] = 2.0;
    actual[5] = 2.0;
    actual[9] = 2.0;
    assert_allclose(&actual, &[1.0; 10], 1e-7, 0.0);
}

#[test]
#[should_panic(expected = "x and y nan location mismatch:\n ACTUAL: array([nan, 1.0])")]
fn allclose_nan_must_match_nan() {
    assert_allclose(&[NAN, 1.0], &[1.0, 1.0], 1e-7, 0.0);
}

#[test]
#[should_panic(expected = "x and y +inf location mismatch:")]
fn allclose_inf_must_match_inf() {
    assert_allclose(&[INF], &[1e308], 1.0, 1.0);
}

#[test]
#[should_panic(expected = "x and y +inf location mismatch:")]
fn allclose_inf_signs_must_match() {
    assert_allclose(&[1.0, -INF], &[1.0, INF], 1e-7, 0.0);
}

#[test]
#[should_panic(expected = "x and y -inf location mismatch:")]
fn allclose_negative_inf_must_match() {
    assert_allclose(&[-INF, 1.0], &[-1e308, 1.0], 1.0, 1.0);
}

#[test]
#[should_panic(
    expected = "Not equal to tolerance rtol=1e-07, atol=0\n\n(shapes (2,), (3,) mismatch)\n ACTUAL: array([1.0, 2.0])\n DESIRED: array([1.0, 2.0, 3.0])"
)]
fn allclose_shapes_must_match() {
    assert_allclose(&[1.0, 2.0], &[1.0, 2.0, 3.0], 1e-7, 0.0);
}

#[test]
#[should_panic(expected = "(shapes (1,), (2, 2) mismatch)")]
fn allclose_does_not_broadcast_beyond_scalars() {
    assert_allclose(&[1.0], &array![[1.0, 1.0], [1.0, 1.0]], 1e-7, 0.0);
}

#[test]
fn allclose_with_options() {
    let no_nan = AllcloseParams::default().equal_nan(false);
    let err = check_allclose_with(&[NAN], &[NAN], &no_nan).unwrap_err();
    assert!(err.contains("Mismatched elements: 1 / 1 (100%)"), "{err}");
    assert!(
        err.contains("Max absolute difference among violations: nan"),
        "{err}"
    );
    let strict = AllcloseParams::default().strict(true);
    assert_allclose_with(&[1.0f32], &[1.0f32], &strict);
    let err = check_allclose_with(&[1.0f32], &[1.0f64], &strict).unwrap_err();
    assert!(err.contains("(dtypes float32, float64 mismatch)"), "{err}");
    let err = check_allclose_with(&[1.0], &1.0, &strict).unwrap_err();
    assert!(err.contains("(shapes (1,), () mismatch)"), "{err}");
    assert_eq!(AllcloseParams::default().rtol, 1e-7);
}

#[test]
fn allclose_default_uses_the_dtype_table() {
    let x = 1.0f32 + 4.0 * f32::EPSILON;
    assert_allclose_default(&[x], &[1.0f32]);
    assert!(check_allclose_default(&[1.0001f32], &[1.0f32]).is_err());
    // A float16 result against a float64 reference takes float16's tolerance.
    assert_allclose_default(&[f16::from_f32(0.1)], &[0.1f64]);
    assert_allclose_default(&[bf16::from_f32(1.2345)], &[1.2345f64]);
    assert_allclose_default(&[1.0 + 1e-8], &[1.0]);
    let err = check_allclose_default(&[1.0 + 1e-6], &[1.0]).unwrap_err();
    assert!(
        err.starts_with("Not equal to tolerance rtol=1e-07, atol=0"),
        "{err}"
    );
    // Integers compare exactly.
    let err = check_allclose_default(&[10_000_001i64], &[10_000_000i64]).unwrap_err();
    assert!(
        err.starts_with("Not equal to tolerance rtol=0, atol=0"),
        "{err}"
    );
    assert!(
        err.contains("Max absolute difference among violations: 1\n"),
        "{err}"
    );
    assert_allclose_default(
        &[Complex::new(1.0f32, 1.0 + 1e-7)],
        &[Complex::new(1.0f32, 1.0)],
    );
}

// ---- assert_array_equal ----

#[test]
fn array_equal_passes() {
    assert_array_equal(&array![[1i32, 2], [3, 4]], &array![[1.0, 2.0], [3.0, 4.0]]);
    assert_array_equal(&[7u8, 7, 7], &7u8);
    assert_array_equal(&[true, false], &[true, false]);
    assert_array_equal(&[NAN, -0.0], &[NAN, 0.0]);
    assert_array_equal(&[u64::MAX], &[u64::MAX]);
    assert_array_equal(&[Complex::new(1.0f32, -2.0)], &[Complex::new(1.0f64, -2.0)]);
    assert_array_equal(&[2.0], &[Complex::new(2.0, 0.0)]);
    assert_array_equal_strict(&[1i16, 2], &[1i16, 2]);
}

#[test]
#[should_panic(
    expected = "Arrays are not equal\n\nMismatched elements: 1 / 2 (50%)\nMismatch at index:\n [1]: 3 (ACTUAL), 2 (DESIRED)\nMax absolute difference among violations: 1\nMax relative difference among violations: 0.5\n ACTUAL: array([1, 3], dtype=int32)"
)]
fn array_equal_panics_with_the_report() {
    assert_array_equal(&[1i32, 3], &[1i32, 2]);
}

#[test]
fn array_equal_reports() {
    // Booleans cannot be subtracted: NumPy leaves the differences out.
    let err = check_array_equal(&[true, true], &[true, false]).unwrap_err();
    assert_eq!(
        err,
        "Arrays are not equal\n\nMismatched elements: 1 / 2 (50%)\nMismatch at index:\n \
         [1]: True (ACTUAL), False (DESIRED)\n ACTUAL: array([True, True])\n DESIRED: array([True, False])"
    );
    // Integer differences are exact, across signedness.
    let err = check_array_equal(&[u64::MAX], &[-1i64]).unwrap_err();
    assert!(
        err.contains("Max absolute difference among violations: 18446744073709551616\n"),
        "{err}"
    );
    let err =
        check_array_equal(&[Complex::new(1.0f32, 2.0)], &[Complex::new(1.0f32, -2.0)]).unwrap_err();
    assert!(
        err.contains(" [0]: 1.0+2.0j (ACTUAL), 1.0-2.0j (DESIRED)"),
        "{err}"
    );
    assert!(
        err.contains("Max absolute difference among violations: 4.0\n"),
        "{err}"
    );
    let err = check_array_equal(&[INF], &[-INF]).unwrap_err();
    assert!(err.contains("x and y +inf location mismatch:"), "{err}");
    let err = check_array_equal(&0.0, &1.0).unwrap_err();
    assert!(
        err.contains("Mismatched elements: 1 / 1 (100%)\nMax absolute"),
        "{err}"
    );
}

#[test]
#[should_panic(expected = "Arrays are not equal\n\n(dtypes int32, int64 mismatch)")]
fn array_equal_strict_checks_dtypes() {
    assert_array_equal_strict(&[1i32], &[1i64]);
}

#[test]
#[should_panic(expected = "(shapes (2,), () mismatch)")]
fn array_equal_strict_does_not_broadcast() {
    assert_array_equal_strict(&[1i32, 1], &1i32);
}

// ---- assert_array_almost_equal ----

#[test]
fn almost_equal_uses_decimals() {
    assert_array_almost_equal(&[1.0 + 1.4e-6, NAN, INF], &[1.0, NAN, INF], 6);
    assert_array_almost_equal(&[1.04], &[1.0], 1);
    assert_array_almost_equal(&[149.0], &[100.0], -2);
    assert_array_almost_equal(&[3i64], &[3i64], 6);
    let err = check_array_almost_equal(&[1.0 + 1.6e-6, 2.0], &[1.0, 2.0], 6).unwrap_err();
    assert!(
        err.starts_with(
            "Arrays are not almost equal to 6 decimals\n\nMismatched elements: 1 / 2 (50%)"
        ),
        "{err}"
    );
}

#[test]
#[should_panic(expected = "Arrays are not almost equal to 3 decimals")]
fn almost_equal_panics() {
    assert_array_almost_equal(&array![[1.0f32, 2.0]], &array![[1.0f32, 2.002]], 3);
}

// ---- assert_array_almost_equal_nulp ----

fn next_f32(x: f32, n: u32) -> f32 {
    f32::from_bits(x.to_bits() + n)
}

#[test]
fn nulp_counts_spacings_of_the_dtype() {
    assert_array_almost_equal_nulp(&[1.0f32, 2.0], &[next_f32(1.0, 1), 2.0], 1);
    assert_array_almost_equal_nulp(&[1.0f32], &[next_f32(1.0, 3)], 3);
    assert_array_almost_equal_nulp(&[1.0], &[1.0 + f64::EPSILON], 1);
    assert_array_almost_equal_nulp(&[f16::ONE], &[f16::from_bits(f16::ONE.to_bits() + 1)], 1);
    assert_array_almost_equal_nulp(&[0.0], &[-0.0], 1);
    assert_array_almost_equal_nulp(&[Complex::new(1.0, 1.0)], &[Complex::new(1.0, 1.0)], 1);
    let err =
        check_array_almost_equal_nulp(&[1.0f32, 2.0], &[next_f32(1.0, 2), 2.0], 1).unwrap_err();
    assert!(
        err.starts_with(
            "Arrays are not equal to 1 ULP (max is 2)\n\nMismatched elements: 1 / 2 (50%)"
        ),
        "{err}"
    );
    // float32 spacing, not float64's: 1 ULP of float64 is far below it.
    let err = check_array_almost_equal_nulp(&[1.0f32], &[1.0f64 + 1e-9], 1).unwrap_err();
    assert!(
        err.starts_with("Arrays are not equal to 1 ULP (max is 4.5036e+06)\n"),
        "{err}"
    );
    let err =
        check_array_almost_equal_nulp(&[Complex::new(1.0, 1.0)], &[Complex::new(1.0, 1.1)], 1)
            .unwrap_err();
    assert!(
        err.starts_with("Arrays are not equal to 1 ULP\n\n"),
        "{err}"
    );
    // NaN never passes.
    assert!(check_array_almost_equal_nulp(&[NAN], &[NAN], 1000).is_err());
}

#[test]
#[should_panic(expected = "Arrays are not equal to 1 ULP (max is 2)")]
fn nulp_panics() {
    assert_array_almost_equal_nulp(&[1.0f32], &[next_f32(1.0, 2)], 1);
}

// ---- assert_array_max_ulp ----

#[test]
fn max_ulp_returns_distances() {
    let d = assert_array_max_ulp(
        &[1.0f32, 2.0, -0.0, f32::NAN],
        &[next_f32(1.0, 1), 2.0, 0.0, f32::NAN],
        1,
        None,
    );
    assert_eq!(d, [1.0, 0.0, 0.0, 0.0]);
    // Across zero: the smallest subnormals of each sign are 2 ULP apart.
    let tiny = f64::from_bits(1);
    assert_eq!(assert_array_max_ulp(&[tiny], &[-tiny], 2, None), [2.0]);
    // Rounded to float32 first, a float64 reference is 0 ULP away.
    assert_eq!(
        assert_array_max_ulp(&[0.1f32], &[0.1f64], 0, Some(DType::Float32)),
        [0.0]
    );
    assert_eq!(
        assert_array_max_ulp(&[f16::ONE], &[f16::ONE], 0, None),
        [0.0]
    );
    assert_eq!(
        assert_array_max_ulp(&[1.0f32, 1.0], &next_f32(1.0, 1), 1, None),
        [1.0, 1.0]
    );
}

#[test]
fn max_ulp_reports() {
    let err = check_array_max_ulp(&[1.0f32], &[next_f32(1.0, 5)], 2, None).unwrap_err();
    assert!(
        err.starts_with("Arrays are not almost equal up to 2 ULP (max difference is 5 ULP)\n\n"),
        "{err}"
    );
    let err = check_array_max_ulp(&[0.1f32], &[0.1f64], 0, None).unwrap_err();
    assert!(err.contains("(max difference is 1.07374e+08 ULP)"), "{err}");
    assert_eq!(
        check_array_max_ulp(&[Complex::new(1.0, 0.0)], &[1.0], 1, None).unwrap_err(),
        "_nulp not implemented for complex array"
    );
    assert!(check_array_max_ulp(&[1.0], &[1.0], 1, Some(DType::Int32)).is_err());
    assert!(check_array_max_ulp(&[true], &[true], 1, None).is_err());
}

#[test]
#[should_panic(expected = "Arrays are not almost equal up to 1 ULP (max difference is 2 ULP)")]
fn max_ulp_panics() {
    assert_array_max_ulp(&[1.0f32], &[next_f32(1.0, 2)], 1, None);
}

// ---- assert_array_less ----

#[test]
fn less_is_strict() {
    assert_array_less(&[1, 2, 3], &[2, 3, 4]);
    assert_array_less(&[1.0, NAN, -INF], &[1.5, NAN, INF]);
    assert_array_less(&array![[1.0, 2.0]], &3.0);
    assert_array_less(&-1i64, &[0u64, 1]);
    assert_array_less(&[Complex::new(1.0, 5.0)], &[Complex::new(1.0, 6.0)]);
    let err = check_array_less(&[1.0, 2.0], &[2.0, 2.0]).unwrap_err();
    assert_eq!(
        err,
        "Arrays are not strictly ordered `x < y`\n\nMismatched elements: 1 / 2 (50%)\nMismatch at index:\n \
         [1]: 2.0 (x), 2.0 (y)\nMax absolute difference among violations: 0.0\n\
         Max relative difference among violations: 0.0\n x: array([1.0, 2.0])\n y: array([2.0, 2.0])"
    );
    // Infinities compare as values here.
    assert!(check_array_less(&[INF], &[INF]).is_err());
    assert!(
        check_array_less(&[NAN], &[1.0])
            .unwrap_err()
            .contains("x and y nan location mismatch:")
    );
}

#[test]
#[should_panic(expected = "Arrays are not strictly ordered `x < y`")]
fn less_panics() {
    assert_array_less(&[3u8], &[2u8]);
}

// ---- assert_array_list_equal ----

#[test]
fn list_equal() {
    let a = array![1.0, 2.0];
    let b = vec![3i32];
    assert_array_list_equal(&[a.clone(), a.clone()], &[a.clone(), a.clone()]);
    let mixed: [&dyn HostView; 2] = [&a, &b];
    assert_array_list_equal(&mixed, &[&[1.0, 2.0] as &dyn HostView, &[3.0]]);
    assert_eq!(
        check_array_list_equal(std::slice::from_ref(&a), &[a.clone(), a.clone()]).unwrap_err(),
        "List size is different: 1 and 2"
    );
    let err = check_array_list_equal(&[vec![1], vec![2]], &[vec![1], vec![5]]).unwrap_err();
    assert!(
        err.starts_with("Arrays at list index 1 differ:\nArrays are not equal\n"),
        "{err}"
    );
}

#[test]
#[should_panic(expected = "Arrays at list index 0 differ:")]
fn list_equal_panics() {
    assert_array_list_equal(&[[1.0]], &[[2.0]]);
}

// ---- unreadable operands ----

struct Unreadable;

impl HostView for Unreadable {
    fn to_host(&self) -> Result<HostArray, String> {
        Err("device lost".to_owned())
    }
}

#[test]
fn unreadable_operands_are_reported() {
    assert_eq!(
        check_array_equal(&Unreadable, &[1.0]).unwrap_err(),
        "cannot read ACTUAL on the host: device lost"
    );
    assert_eq!(
        check_allclose(&[1.0], &Unreadable, 0.0, 0.0).unwrap_err(),
        "cannot read DESIRED on the host: device lost"
    );
}

#[test]
#[should_panic(expected = "cannot read x on the host: device lost")]
fn unreadable_operands_panic() {
    assert_array_less(&Unreadable, &1.0);
}
