//! The numpy_cupy_* checks on the host: the host module against a second,
//! deliberately different host module ([`Reordered`]: other summation
//! orders, another formula for `exp`, optionally a skew), so that the
//! checks are seen to pass on results that differ in the last bits and to
//! fail, with NumPy's reports, on results that differ more.

use gpu_array::{Error, Result};
use gpu_testing::*;
use ndarray::{ArrayD, Axis, IxDyn, ShapeBuilder};

/// A host module that computes what [`Numpy`] computes by other means:
/// sums and matrix products accumulate from the last element down, `exp(x)`
/// is `exp(x / 2)^2`, times `1 + skew`. With `skew` 0 its results are
/// within a few ULP of `Numpy`'s; with a skew they are wrong on purpose.
#[derive(Clone, Copy, Debug, Default)]
struct Reordered {
    skew: f64,
}

/// `a` with every axis (or only `axis`) read backwards.
fn reversed<T: Clone>(a: &ArrayD<T>, axis: Option<usize>) -> ArrayD<T> {
    let mut r = a.clone();
    match axis {
        Some(axis) => r.invert_axis(Axis(axis)),
        None => (0..r.ndim()).for_each(|k| r.invert_axis(Axis(k))),
    }
    r
}

impl ArrayModule for Reordered {
    type Array<T: ModuleScalar> = ArrayD<T>;

    const NAME: &'static str = "reordered";

    fn asarray<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.asarray(a)
    }
    fn asnumpy<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.asnumpy(a)
    }
    fn arange<T: ModuleScalar>(&self, n: usize) -> Result<ArrayD<T>> {
        Numpy.arange(n)
    }
    fn zeros<T: ModuleScalar>(&self, shape: &[usize]) -> Result<ArrayD<T>> {
        Numpy.zeros(shape)
    }
    fn full<T: ModuleScalar>(&self, shape: &[usize], value: T) -> Result<ArrayD<T>> {
        Numpy.full(shape, value)
    }
    fn shape<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Vec<usize> {
        Numpy.shape(a)
    }
    fn is_c_contiguous<T: ModuleScalar>(&self, a: &ArrayD<T>) -> bool {
        Numpy.is_c_contiguous(a)
    }
    fn astype<T: ModuleScalar, U: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<U>> {
        Numpy.astype(a)
    }
    fn add<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.add(a, b)
    }
    fn subtract<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.subtract(a, b)
    }
    fn multiply<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.multiply(a, b)
    }
    fn divide<T: ModuleFloat>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.divide(a, b)
    }
    fn exp<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        let half = Numpy.exp(&Numpy.divide(a, &Numpy.full(&[], T::from_f64(2.0))?)?)?;
        let skew = Numpy.full(&[], T::from_f64(1.0 + self.skew))?;
        Numpy.multiply(&Numpy.multiply(&half, &half)?, &skew)
    }
    fn log<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.log(a)
    }
    fn sin<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.sin(a)
    }
    fn sqrt<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.sqrt(a)
    }
    fn tanh<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Numpy.tanh(a)
    }
    fn sum<T: ModuleScalar>(&self, a: &ArrayD<T>, axis: Option<isize>) -> Result<ArrayD<T::Sum>> {
        let along = match axis {
            Some(axis) => Some(gpu_array::layout::normalize_axis(axis, a.ndim())?),
            None => None,
        };
        Numpy.sum(&reversed(a, along), axis)
    }
    fn mean<T: ModuleScalar>(&self, a: &ArrayD<T>, axis: Option<isize>) -> Result<ArrayD<T::Mean>> {
        // The sum in the mean's dtype divided by the count, where Numpy
        // accumulates in float64.
        let n = match axis {
            Some(axis) => a.len_of(Axis(gpu_array::layout::normalize_axis(axis, a.ndim())?)),
            None => a.len(),
        };
        let sum = self.sum(&self.astype::<T, T::Mean>(a)?, axis)?;
        let sum = Numpy.astype::<<T::Mean as ModuleScalar>::Sum, T::Mean>(&sum)?;
        Numpy.divide(&sum, &Numpy.full(&[], T::Mean::from_f64(n as f64))?)
    }
    fn reshape<T: ModuleScalar>(&self, a: &ArrayD<T>, shape: &[isize]) -> Result<ArrayD<T>> {
        Numpy.reshape(a, shape)
    }
    fn transpose<T: ModuleScalar>(
        &self,
        a: &ArrayD<T>,
        axes: Option<&[isize]>,
    ) -> Result<ArrayD<T>> {
        Numpy.transpose(a, axes)
    }
    fn matmul<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        // The contracted axis read backwards on both sides: the same
        // products, summed in the other order.
        let a = reversed(a, Some(a.ndim().saturating_sub(1)));
        let b = reversed(b, Some(b.ndim().saturating_sub(2.min(b.ndim()))));
        Numpy.matmul(&a, &b)
    }
}

/// Softmax along rows of a 3x4 ramp: exp, a sum along an axis, a reshape
/// and a broadcast division.
fn softmax_rows<M: ArrayModule, T: ModuleFloat>(xp: &M) -> Result<M::Array<T>> {
    let x = xp.divide(
        &xp.reshape(&xp.arange::<T>(12)?, &[3, 4])?,
        &xp.full(&[], T::from_f64(7.0))?,
    )?;
    let e = xp.exp(&x)?;
    let total = xp.reshape(&xp.sum(&e, Some(-1))?, &[3, 1])?;
    xp.divide(&e, &total)
}

/// `exp` of `0, 0.5, ..., 9.5`.
fn exp_ramp<M: ArrayModule>(xp: &M) -> Result<M::Array<f64>> {
    let x = xp.divide(&xp.arange::<f64>(20)?, &xp.full(&[], 2.0)?)?;
    xp.exp(&x)
}

/// An integer pipeline: a product with a transpose, then column sums.
fn int_products<M: ArrayModule>(xp: &M) -> Result<M::Array<i64>> {
    let x = xp.reshape(&xp.arange::<i32>(12)?, &[3, 4])?;
    let g = xp.matmul(&xp.transpose(&x, None)?, &x)?; // 4x4, int32
    xp.sum(&g, Some(0)) // int64, as NumPy's sum of int32
}

#[test]
fn allclose_accepts_last_bit_differences() {
    let (numpy, other) = (Numpy, Reordered::default());
    numpy_cupy_allclose!((numpy, other), softmax_rows::<_, f64>, rtol = 1e-14);
    numpy_cupy_allclose!((numpy, other), softmax_rows::<_, f32>, rtol = 1e-6);
    numpy_cupy_allclose!(
        (numpy, other),
        |xp| xp.mean(&xp.arange::<f32>(1001)?, None),
        rtol = 1e-6
    );
    // The two differ: the tolerance is what lets them pass.
    let exact = check_numpy_cupy_array_equal(
        &Outcome::array(&numpy, softmax_rows::<_, f64>(&numpy)),
        &Outcome::array(&other, softmax_rows::<_, f64>(&other)),
        &NumpyCupyParams::default(),
    );
    assert!(
        exact.is_err(),
        "the reordered module should differ in the last bits"
    );
}

#[test]
fn tolerances_per_dtype() {
    // One set of options for a body run in float32 and float64, as CuPy's
    // `rtol={numpy.float32: 1e-6, 'default': 1e-14}`.
    fn check<T: ModuleFloat>(params: &NumpyCupyParams) -> std::result::Result<(), String> {
        let other = Reordered::default();
        check_numpy_cupy_allclose(
            &Outcome::array(&Numpy, softmax_rows::<_, T>(&Numpy)),
            &Outcome::array(&other, softmax_rows::<_, T>(&other)),
            params,
        )
    }
    let p = NumpyCupyParams::default()
        .rtol(1e-14)
        .rtol_for((DType::Float32, 1e-6));
    check::<f32>(&p).unwrap();
    check::<f64>(&p).unwrap();
    // Without the float32 entry, float32 gets the default, which is too tight.
    let report = check::<f32>(&NumpyCupyParams::default().rtol(1e-14)).unwrap_err();
    assert!(
        report.contains("Not equal to tolerance rtol=1e-14, atol=0"),
        "{report}"
    );
    // An absolute tolerance for float32 alone does the same.
    check::<f32>(
        &NumpyCupyParams::default()
            .rtol(0.0)
            .atol_for((DType::Float32, 1e-6)),
    )
    .unwrap();
    numpy_cupy_allclose!(
        (Numpy, Reordered::default()),
        softmax_rows::<_, f32>,
        rtol = 0.0,
        rtol_for = (DType::Float32, 1e-6)
    );
}

#[test]
#[should_panic(
    expected = "numpy_cupy_allclose: reordered's result (ACTUAL) against numpy's (DESIRED)\n\
                           Not equal to tolerance rtol=1e-07, atol=0\n\n\
                           Mismatched elements: 20 / 20 (100%)"
)]
fn allclose_fails_beyond_the_tolerance() {
    numpy_cupy_allclose!((Numpy, Reordered { skew: 1e-6 }), exp_ramp);
}

#[test]
fn allclose_report_shows_the_mismatching_elements() {
    let numpy = Outcome::array(&Numpy, exp_ramp(&Numpy));
    let skewed = Reordered { skew: 1e-6 };
    let other = Outcome::array(&skewed, exp_ramp(&skewed));
    let report =
        check_numpy_cupy_allclose(&numpy, &other, &NumpyCupyParams::default()).unwrap_err();
    let expected_start = "numpy_cupy_allclose: reordered's result (ACTUAL) against numpy's (DESIRED)\n\
                          Not equal to tolerance rtol=1e-07, atol=0\n\n\
                          Mismatched elements: 20 / 20 (100%)\n\
                          First 5 mismatches are at indices:\n \
                          [0]: 1.000001 (ACTUAL), 1.0 (DESIRED)\n";
    assert!(report.starts_with(expected_start), "{report}");
    assert!(
        report.contains("\nMax relative difference among violations: 1.0000000001430903e-6\n"),
        "{report}"
    );
    assert!(
        report.contains("\n DESIRED: array([1.0, 1.6487212707001282, "),
        "{report}"
    );
    // Within the tolerance the skew asks for, the same results pass.
    let loose = NumpyCupyParams::default().rtol(2e-6);
    assert!(check_numpy_cupy_allclose(&numpy, &other, &loose).is_ok());
    let loose = NumpyCupyParams::default().atol(0.02); // the largest difference is 0.0134
    assert!(check_numpy_cupy_allclose(&numpy, &other, &loose).is_ok());
}

#[test]
fn array_equal_on_integer_pipelines() {
    numpy_cupy_array_equal!((Numpy, Reordered::default()), int_products);
    let numpy = Outcome::array(&Numpy, int_products(&Numpy));
    let expected = ndarray::arr1(&[392i64, 458, 524, 590]).into_dyn();
    assert_array_equal(
        &Numpy.asnumpy(&int_products(&Numpy).unwrap()).unwrap(),
        &expected,
    );
    // Another result is reported element by element.
    let other = Outcome::array(&Numpy, Numpy.asarray(&(&expected + 1)));
    let report = check_numpy_cupy_array_equal(&numpy, &other, &Default::default()).unwrap_err();
    assert!(
        report.starts_with(
            "numpy_cupy_array_equal: numpy's result (ACTUAL) against numpy's (DESIRED)\n\
             Arrays are not equal\n\nMismatched elements: 4 / 4 (100%)\n"
        ),
        "{report}"
    );
}

#[test]
fn almost_equal_nulp_and_max_ulp() {
    let other = Reordered::default();
    numpy_cupy_array_almost_equal!((Numpy, other), softmax_rows::<_, f64>, decimal = 12);
    numpy_cupy_array_almost_equal!((Numpy, Reordered { skew: 1e-6 }), exp_ramp, decimal = 2);
    let numpy = Outcome::array(&Numpy, exp_ramp(&Numpy));
    let reordered = Outcome::array(&other, exp_ramp(&other));
    // exp(x / 2)^2 rounds twice: within a few ULP of exp(x), not within 0.
    let strict = NumpyCupyParams::default().maxulp(0);
    let report = check_numpy_cupy_array_max_ulp(&numpy, &reordered, &strict).unwrap_err();
    assert!(
        report.contains("Arrays are not almost equal up to 0 ULP (max difference is"),
        "{report}"
    );
    numpy_cupy_array_max_ulp!((Numpy, other), exp_ramp, maxulp = 4);
    numpy_cupy_array_almost_equal_nulp!((Numpy, other), exp_ramp, nulp = 4);
    let report = check_numpy_cupy_array_almost_equal_nulp(
        &numpy,
        &reordered,
        &NumpyCupyParams::default().nulp(0),
    )
    .unwrap_err();
    assert!(
        report.contains("Arrays are not equal to 0 ULP (max is"),
        "{report}"
    );
}

#[test]
fn array_less_compares_the_device_result_below() {
    numpy_cupy_array_less!((Numpy, Reordered { skew: -1e-3 }), exp_ramp);
    let result = std::panic::catch_unwind(|| {
        numpy_cupy_array_less!((Numpy, Reordered { skew: 1e-3 }), exp_ramp);
    });
    let report = *result.unwrap_err().downcast::<String>().unwrap();
    assert!(
        report.starts_with(
            "numpy_cupy_array_less: reordered's result (x) against numpy's (y)\n\
             Arrays are not strictly ordered `x < y`\n"
        ),
        "{report}"
    );
}

#[test]
fn array_list_equal_on_list_bodies() {
    numpy_cupy_array_list_equal!((Numpy, Reordered::default()), |xp| {
        let x = xp.reshape(&xp.arange::<u16>(12)?, &[3, 4])?;
        Ok(vec![
            xp.sum(&x, Some(0))?,
            xp.sum(&x, Some(1))?,
            xp.sum(&x, None)?,
        ])
    });
    let one = Outcome::list(&Numpy, Numpy.arange::<u8>(3).map(|a| vec![a]));
    let two = Outcome::list(
        &Numpy,
        Ok(vec![
            Numpy.arange::<u8>(3).unwrap(),
            Numpy.zeros(&[1]).unwrap(),
        ]),
    );
    let report = check_numpy_cupy_array_list_equal(&one, &two, &Default::default()).unwrap_err();
    assert!(
        report.contains("List size is different: 2 and 1"),
        "{report}"
    );
    let report = check_numpy_cupy_array_list_equal(
        &one,
        &Outcome::array(&Numpy, Numpy.arange::<u8>(3)),
        &Default::default(),
    )
    .unwrap_err();
    assert!(report.contains("must return a list"), "{report}");
}

/// A body that raises in NumPy's words: 6 elements into 4 rows.
fn bad_reshape<M: ArrayModule>(xp: &M) -> Result<M::Array<f64>> {
    xp.reshape(&xp.arange::<f64>(6)?, &[4, -1])
}

#[test]
fn both_raising_an_accepted_error_passes() {
    let other = Reordered::default();
    numpy_cupy_allclose!(
        (Numpy, other),
        bad_reshape,
        accept_error = ExceptionKind::ValueError
    );
    numpy_cupy_array_equal!((Numpy, other), bad_reshape, accept_error = true);
    // An AxisError is a ValueError and an IndexError, as in NumPy.
    numpy_cupy_array_equal!(
        (Numpy, other),
        |xp| xp.sum(&xp.zeros::<i8>(&[2, 2])?, Some(2)),
        accept_error = [ExceptionKind::IndexError]
    );
}

#[test]
#[should_panic(
    expected = "numpy_cupy_allclose: both raised an error, and accept_error does not accept ValueError\n \
                           numpy: raised ValueError: cannot reshape array of size 6 into shape (4,newaxis)\n \
                           reordered: raised ValueError: cannot reshape array of size 6 into shape (4,newaxis)"
)]
fn an_error_not_accepted_fails() {
    numpy_cupy_allclose!((Numpy, Reordered::default()), bad_reshape);
}

#[test]
fn errors_must_be_of_the_same_kind() {
    let p = NumpyCupyParams::default().accept_error(true);
    let value = || {
        Outcome::array(
            &Numpy,
            Err::<ArrayD<f32>, _>(Error::Value("bad value".into())),
        )
    };
    let dtype = Outcome::array(
        &Reordered::default(),
        Err::<ArrayD<f32>, _>(Error::DType("bad dtype".into())),
    );
    let report = check_numpy_cupy_allclose(&value(), &dtype, &p).unwrap_err();
    assert_eq!(
        report,
        "numpy_cupy_allclose: different types of errors occurred\n \
         numpy: raised ValueError: bad value\n \
         reordered: raised TypeError: bad dtype"
    );
    // The device's error may be a subclass of the host's, not the reverse.
    let axis = || {
        Outcome::array(
            &Reordered::default(),
            Err::<ArrayD<f32>, _>(Error::AxisOutOfBounds {
                arg: None,
                axis: 2,
                ndim: 1,
            }),
        )
    };
    assert!(check_numpy_cupy_allclose(&value(), &axis(), &p).is_ok());
    assert!(check_numpy_cupy_allclose(&axis(), &value(), &p).is_err());
    // accept_error names what is accepted, subclasses included.
    let only_index = NumpyCupyParams::default().accept_error(ExceptionKind::IndexError);
    assert!(check_numpy_cupy_allclose(&value(), &axis(), &only_index).is_ok());
    assert!(check_numpy_cupy_allclose(&axis(), &axis(), &only_index).is_ok());
    let report = check_numpy_cupy_allclose(&value(), &value(), &only_index).unwrap_err();
    assert!(
        report.contains("accept_error does not accept ValueError"),
        "{report}"
    );
    // One side raising is a failure, whatever is accepted.
    let ok = Outcome::array(&Numpy, Numpy.zeros::<f32>(&[2]));
    let report = check_numpy_cupy_allclose(&ok, &dtype, &p).unwrap_err();
    assert_eq!(
        report,
        "numpy_cupy_allclose: only reordered raised an error\n \
         numpy: returned a result\n \
         reordered: raised TypeError: bad dtype"
    );
    assert!(
        check_numpy_cupy_allclose(&value(), &ok, &p)
            .unwrap_err()
            .contains("only numpy raised")
    );
}

#[test]
fn type_and_contiguity_checks() {
    let f32s = Outcome::array(&Numpy, Numpy.arange::<f32>(4));
    let f64s = Outcome::array(&Numpy, Numpy.arange::<f64>(4));
    let report = check_numpy_cupy_allclose(&f64s, &f32s, &Default::default()).unwrap_err();
    assert_eq!(
        report,
        "numpy_cupy_allclose: the results' dtypes differ\n numpy: float32\n numpy: float64"
    );
    let lenient = NumpyCupyParams::default().type_check(false);
    assert!(check_numpy_cupy_allclose(&f64s, &f32s, &lenient).is_ok());

    // The same values, C-ordered on the host side and F-ordered on the other.
    let values: Vec<f64> = (0..6).map(f64::from).collect();
    let c = ArrayD::from_shape_vec(IxDyn(&[2, 3]), values.clone()).unwrap();
    let f = ArrayD::from_shape_fn(IxDyn(&[2, 3]).f(), |i| c[[i[0], i[1]]]);
    let (c, f) = (Outcome::array(&Numpy, Ok(c)), Outcome::array(&Numpy, Ok(f)));
    let report = check_numpy_cupy_allclose(&c, &f, &Default::default()).unwrap_err();
    assert_eq!(
        report,
        "numpy_cupy_allclose: numpy's result is C-contiguous and numpy's is not"
    );
    let unchecked = NumpyCupyParams::default().contiguous_check(false);
    assert!(check_numpy_cupy_allclose(&c, &f, &unchecked).is_ok());
    // Only a C-contiguous host result asks for one; array_equal does not ask.
    assert!(check_numpy_cupy_allclose(&f, &c, &Default::default()).is_ok());
    assert!(check_numpy_cupy_array_equal(&c, &f, &Default::default()).is_ok());
}
