//! GPU (tier 3): the numpy_cupy_* checks with their default modules, the
//! host `Numpy` against the device `Cuprum`: each body below runs on both
//! and the results are compared. Each test skips without a device (fails
//! instead with `CUPRUM_TEST_REQUIRE_GPU=1`).

use gpu_array::Result;
use gpu_testing::*;

/// Softmax along the rows of a ramp: ufuncs, a sum along an axis, a
/// reshape and a broadcast division.
fn softmax_rows<M: ArrayModule, T: ModuleFloat>(xp: &M) -> Result<M::Array<T>> {
    let x = xp.divide(
        &xp.reshape(&xp.arange::<T>(60)?, &[5, 12])?,
        &xp.full(&[], T::from_f64(13.0))?,
    )?;
    let e = xp.exp(&x)?;
    let total = xp.reshape(&xp.sum(&e, Some(1))?, &[5, 1])?;
    xp.divide(&e, &total)
}

/// Column means of `sin(x) * sqrt(x) + tanh(x)` over a transposed ramp.
fn mixed_ufuncs<M: ArrayModule, T: ModuleFloat>(xp: &M) -> Result<M::Array<T>> {
    let x = xp.transpose(&xp.reshape(&xp.arange::<T>(24)?, &[4, 6])?, None)?;
    let y = xp.add(&xp.multiply(&xp.sin(&x)?, &xp.sqrt(&x)?)?, &xp.tanh(&x)?)?;
    xp.mean(&y, Some(0))
}

/// A batched matrix product of float ramps, shifted so no entry is zero.
fn batched_matmul<M: ArrayModule, T: ModuleFloat>(xp: &M) -> Result<M::Array<T>> {
    let one = xp.full(&[], T::from_f64(1.0))?;
    let a = xp.add(&xp.reshape(&xp.arange::<T>(24)?, &[2, 3, 4])?, &one)?;
    let b = xp.log(&xp.add(&xp.reshape(&xp.arange::<T>(20)?, &[4, 5])?, &one)?)?;
    xp.matmul(&a, &b)
}

/// Integers: a product with a transpose (int32, Cuprum's own kernel), its
/// sums along an axis (int64) and a cast back.
fn int_products<M: ArrayModule>(xp: &M) -> Result<M::Array<i64>> {
    let x = xp.reshape(&xp.arange::<i32>(12)?, &[3, 4])?;
    let g = xp.matmul(&xp.transpose(&x, None)?, &x)?;
    xp.sum(&xp.subtract(&g, &xp.full(&[], 100)?)?, Some(0))
}

#[test]
fn float_bodies_match_numpy() {
    numpy_cupy_allclose!(softmax_rows::<_, f64>, rtol = 1e-12);
    numpy_cupy_allclose!(softmax_rows::<_, f32>, rtol = 1e-5, atol = 1e-7);
    numpy_cupy_allclose!(mixed_ufuncs::<_, f64>, rtol = 1e-12);
    numpy_cupy_allclose!(mixed_ufuncs::<_, f32>, rtol = 1e-5, atol = 1e-6);
    numpy_cupy_allclose!(batched_matmul::<_, f64>, rtol = 1e-12);
    numpy_cupy_allclose!(batched_matmul::<_, f32>, rtol = 1e-5);
}

#[test]
fn integer_bodies_are_equal() {
    numpy_cupy_array_equal!(int_products);
    numpy_cupy_array_equal!(|xp| {
        // 300 * 300 = 90000 wraps in uint16 (to 24464) on both, and the
        // cast to int8 wraps again (to -112).
        let x = xp.multiply(&xp.full(&[3, 2], 300u16)?, &xp.full(&[], 300u16)?)?;
        xp.astype::<u16, i8>(&x)
    });
    numpy_cupy_array_list_equal!(|xp| {
        let x = xp.reshape(&xp.arange::<u8>(24)?, &[2, 3, 4])?;
        Ok(vec![
            xp.sum(&x, Some(0))?,
            xp.sum(&x, Some(-1))?,
            xp.sum(&x, None)?,
        ])
    });
}

#[test]
fn transcendental_functions_within_a_few_ulp() {
    numpy_cupy_array_max_ulp!(|xp| xp.sqrt(&xp.arange::<f64>(100)?), maxulp = 1);
    numpy_cupy_array_almost_equal_nulp!(
        |xp| xp.exp(&xp.divide(&xp.arange::<f64>(64)?, &xp.full(&[], 8.0)?)?),
        nulp = 4
    );
    numpy_cupy_array_almost_equal!(mixed_ufuncs::<_, f32>, decimal = 4);
}

#[test]
fn errors_are_numpys() {
    numpy_cupy_allclose!(
        |xp| xp.reshape(&xp.arange::<f32>(6)?, &[4, -1]),
        accept_error = ExceptionKind::ValueError
    );
    numpy_cupy_array_equal!(
        |xp| xp.sum(&xp.zeros::<i16>(&[2, 2])?, Some(-3)),
        accept_error = ExceptionKind::AxisError
    );
    numpy_cupy_array_equal!(
        |xp| xp.add(&xp.arange::<i64>(3)?, &xp.arange::<i64>(4)?),
        accept_error = ExceptionKind::ValueError
    );
    numpy_cupy_allclose!(
        |xp| xp.matmul(&xp.zeros::<f64>(&[2, 3])?, &xp.zeros::<f64>(&[2, 3])?),
        accept_error = ExceptionKind::ValueError
    );
    numpy_cupy_array_equal!(
        |xp| xp.transpose(&xp.zeros::<u32>(&[2, 3])?, Some(&[0, 0])),
        accept_error = ExceptionKind::ValueError
    );
}

#[test]
fn outcomes_compare_across_modules() {
    let Some(_device) = device_or_skip() else {
        return;
    };
    // The function forms take outcomes computed by any two modules:
    // Cuprum's ramp lies below NumPy's ramp plus one.
    let numpy = Outcome::array(
        &Numpy,
        Numpy.add(
            &Numpy.arange::<f32>(8).unwrap(),
            &Numpy.full(&[], 1.0).unwrap(),
        ),
    );
    let cuprum = Outcome::array(&Cuprum, Cuprum.arange::<f32>(8));
    numpy_cupy_array_less(&numpy, &cuprum, &NumpyCupyParams::default());
    let report =
        check_numpy_cupy_array_equal(&numpy, &cuprum, &NumpyCupyParams::default()).unwrap_err();
    assert!(
        report.starts_with(
            "numpy_cupy_array_equal: cuprum's result (ACTUAL) against numpy's (DESIRED)\n\
             Arrays are not equal\n\nMismatched elements: 8 / 8 (100%)\n"
        ),
        "{report}"
    );
    // A round trip through the device keeps values and layout.
    let host = ndarray::Array::from_shape_fn((3, 4), |(i, j)| (i * 10 + j) as f64).into_dyn();
    let back = Cuprum.asnumpy(&Cuprum.asarray(&host).unwrap()).unwrap();
    assert_array_equal_strict(&back, &host);
}
