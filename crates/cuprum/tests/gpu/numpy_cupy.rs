//! NumPy-CuPy generic code through the front door: a test body written
//! once over `cp::testing::ArrayModule` (CuPy's `xp`), run on the host
//! module and on Cuprum by the `numpy_cupy_*` checks, as a user's test
//! would write it.

use cuprum::testing::{
    ArrayModule, ExceptionKind, ModuleFloat, numpy_cupy_allclose, numpy_cupy_array_equal,
    numpy_cupy_array_list_equal,
};
use cuprum::{self as cp, DType};

/// Standardised columns: `(x - mean) / sqrt(mean((x - mean)^2))`.
fn standardize<M: ArrayModule, T: ModuleFloat>(xp: &M) -> cp::Result<M::Array<T>> {
    let x = xp.sin(&xp.reshape(&xp.arange::<T>(40)?, &[8, 5])?)?;
    let centred = xp.subtract(&x, &xp.mean(&x, Some(0))?)?;
    let var = xp.mean(&xp.multiply(&centred, &centred)?, Some(0))?;
    xp.divide(&centred, &xp.sqrt(&var)?)
}

#[test]
fn a_body_written_once_runs_on_both() {
    numpy_cupy_allclose!(standardize::<_, f64>, rtol = 1e-10, atol = 1e-12);
    numpy_cupy_allclose!(
        standardize::<_, f32>,
        rtol = 1e-7,
        rtol_for = (DType::Float32, 1e-4),
        atol_for = (DType::Float32, 1e-5)
    );
}

#[test]
fn inline_bodies_lists_and_errors() {
    numpy_cupy_array_equal!(|xp| {
        let x = xp.reshape(&xp.arange::<i64>(6)?, &[2, 3])?;
        xp.matmul(&x, &xp.transpose(&x, None)?)
    });
    numpy_cupy_array_list_equal!(|xp| {
        let x = xp.reshape(&xp.arange::<i16>(12)?, &[3, 4])?;
        Ok(vec![xp.sum(&x, Some(0))?, xp.sum(&x, Some(1))?])
    });
    numpy_cupy_allclose!(
        |xp| xp.mean(&xp.zeros::<f64>(&[2, 3])?, Some(2)),
        accept_error = ExceptionKind::AxisError
    );
}
