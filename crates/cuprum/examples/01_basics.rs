//! CuPy's tutorial, "Basics of cupy.ndarray", in Rust.
//!
//! `cargo run -p cuprum --example 01_basics` on a machine with a GPU. Each
//! step checks its result, so the example fails loudly if one is wrong.

use cuprum::{self as cp, DType, s};

fn main() -> cp::Result<()> {
    // x_gpu = cp.array([1, 2, 3])
    let x_gpu = cp::array([1, 2, 3])?;
    assert_eq!(x_gpu.dtype(), DType::Int64); // NumPy's default int
    println!("x_gpu = {x_gpu:?}");

    // l2_gpu = cp.linalg.norm(x_gpu)
    let l2_gpu = cp::linalg::norm(&x_gpu)?;
    let l2: f64 = l2_gpu.to_scalar()?;
    assert!((l2 - 14f64.sqrt()).abs() < 1e-12);
    println!("l2 norm = {l2_gpu}");

    // NumPy's creation routines, views, ufuncs and reductions.
    let a = cp::arange(12)?.reshape((3, 4))?;
    let rev = a.slice(&s![1.., ..;-1])?; // a[1:, ::-1]
    assert_eq!(rev.to_vec::<i64>()?, [7, 6, 5, 4, 11, 10, 9, 8]);
    println!("a =\n{a}\na[1:, ::-1] =\n{rev}");
    let e = cp::exp(cp::linspace(0.0, 1.0, 5)?)?;
    println!("exp(linspace(0, 1, 5)) = {e}");
    let col_sums = a.sum(0)?; // a.sum(axis=0)
    assert_eq!(col_sums.to_vec::<i64>()?, [12, 15, 18, 21]);
    let mean: f64 = a.mean(())?.to_scalar()?;
    assert_eq!(mean, 5.5);
    println!("a.sum(axis=0) = {col_sums}, a.mean() = {mean}");
    Ok(())
}
