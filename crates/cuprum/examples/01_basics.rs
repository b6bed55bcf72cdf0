//! CuPy's tutorial, "Basics of cupy.ndarray" and "Data Transfer", in Rust.
//!
//! `cargo run -p cuprum --example 01_basics` on a machine with a GPU.

use cuprum::{self as cp, DType, s};

fn main() -> cp::Result<()> {
    // x_gpu = cp.array([1, 2, 3])
    let x_gpu = cp::Array::from_slice(&[1i64, 2, 3], &[3])?;
    println!("x_gpu = {x_gpu:?}");

    // l2_gpu = cp.linalg.norm(x_gpu): elementwise on the GPU; the sum comes
    // to the host until reductions land.
    let sq = cp::square(&x_gpu.astype(DType::Float64)?)?;
    let l2: f64 = sq.to_vec::<f64>()?.iter().sum::<f64>().sqrt();
    println!("l2 norm = {l2}");

    // The current device, and a scope that changes it.
    let dev = cp::cuda::Device::current()?;
    {
        let _on = dev.scoped()?;
        let x_on_dev = cp::Array::from_slice(&[1i64, 2, 3, 4, 5], &[5])?;
        println!("allocated on {}", x_on_dev.device());
    }

    // Data transfer: host -> device -> host, ndarray in and out.
    let x_cpu = ndarray::array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]];
    let x_gpu = cp::Array::from_ndarray(&x_cpu)?;
    let y_gpu = &(&x_gpu * 2.0) + 1.0; // float32 stays float32 (NEP 50)
    let y_cpu = y_gpu.to_ndarray::<f32>()?;
    println!("y = {y_gpu}\nback on the host: {y_cpu}");

    // NumPy's creation routines, views and ufuncs.
    let a = cp::arange_with(0, 12, 1, None)?.reshape([3, 4])?;
    println!("a =\n{a}\na[1:, ::-1] =\n{}", a.slice(&s![1.., ..;-1])?);
    println!(
        "exp(linspace_with(0, 1, 5)) = {}",
        cp::exp(&cp::linspace_with(0.0, 1.0, 5, true, None)?)?
    );

    // A user-defined elementwise kernel, as CuPy's squared_diff.
    let squared_diff = cp::ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "z = (x - y) * (x - y)",
        "squared_diff",
    )?;
    let x = cp::arange_with(0.0, 10.0, 1.0, Some(DType::Float32))?.reshape([2, 5])?;
    let y = cp::arange_with(0.0, 5.0, 1.0, Some(DType::Float32))?;
    let z = squared_diff.call(&[(&x).into(), (&y).into()], &[], None)?;
    println!("squared_diff =\n{}", z[0]);
    Ok(())
}
