//! CuPy's tutorial, "Basics of elementwise kernels", in Rust.
//!
//! `cargo run -p cuprum --example 05_elementwise_kernels`.

use cuprum::{self as cp, DType, ElementwiseKernel};

fn main() -> cp::Result<()> {
    // squared_diff = cp.ElementwiseKernel('float32 x, float32 y', 'float32 z',
    //                                     'z = (x - y) * (x - y)', 'squared_diff')
    let squared_diff = ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "z = (x - y) * (x - y)",
        "squared_diff",
    )?;
    // x = cp.arange(10, dtype=np.float32).reshape(2, 5); y = cp.arange(5, dtype=np.float32)
    let x = cp::arange_with(0, 10, 1, Some(DType::Float32))?.reshape((2, 5))?;
    let y = cp::arange_with(0, 5, 1, Some(DType::Float32))?;
    // squared_diff(x, y): broadcast, one output allocated.
    let z = squared_diff.run((&x, &y))?;
    assert_eq!(
        z.to_vec::<f32>()?,
        [0.0, 0.0, 0.0, 0.0, 0.0, 25.0, 25.0, 25.0, 25.0, 25.0]
    );
    // squared_diff(x, 5): a scalar argument.
    let z5 = squared_diff.run((&x, 5.0))?;
    assert_eq!(z5.to_vec::<f32>()?[..2], [25.0, 16.0]);
    println!("squared_diff(x, y) =\n{z}\nsquared_diff(x, 5) =\n{z5}");

    // Generic: 'T x, T y', 'T z' binds T from the arguments.
    let generic = ElementwiseKernel::new(
        "T x, T y",
        "T z",
        "z = (x - y) * (x - y)",
        "squared_diff_generic",
    )?;
    let zi = generic.run((&cp::array([1, 5])?, &cp::array([4, 1])?))?;
    assert_eq!(
        (zi.dtype(), zi.to_vec::<i64>()?),
        (DType::Int64, vec![9, 16])
    );

    // An output given by the caller: squared_diff(x, y, z)
    let out = cp::empty((2, 5), DType::Float32)?;
    squared_diff.call(&[(&x).into(), (&y).into()], &[&out], None)?;
    assert_eq!(out.to_vec::<f32>()?, z.to_vec::<f32>()?);
    Ok(())
}
