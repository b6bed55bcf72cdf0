//! CuPy's tutorial, "Kernel fusion", in Rust: `cupy.fuse` becomes
//! `cp::fuse` with a closure over `FVar`s, traced once per call signature
//! into one kernel.
//!
//! `cargo run -p cuprum --example 08_kernel_fusion` on a machine with a GPU.

use cuprum::ReduceOptions;
use cuprum::{self as cp, DType, FVar, fx, s};

fn main() -> cp::Result<()> {
    // @cp.fuse(kernel_name='squared_diff')
    // def squared_diff(x, y): return (x - y) * (x - y)
    let squared_diff = cp::fuse("squared_diff", |x: &FVar, y: &FVar| (x - y) * (x - y));

    // x_cp = cp.arange(10); y_cp = cp.arange(10)[::-1]
    let x = cp::arange(10)?;
    let y = x.slice(&s![..;-1])?;
    // array([81, 49, 25,  9,  1,  1,  9, 25, 49, 81])
    println!("{}", squared_diff.call(&[&x, &y])?);

    // The first call with float32 arguments traces and compiles another
    // kernel; later calls with the same dtypes and ndims reuse it.
    let xf = x.astype(DType::Float32)?;
    let yf = y.astype(DType::Float32)?;
    println!("{}", squared_diff.call(&[&xf, &yf])?);

    // Ufuncs, constants (weak, as Python scalars) and where inside.
    let softplus = cp::fuse("softplus", |x: &FVar| {
        fx::where_(x.greater(20.0), x, fx::log1p(fx::exp(x)))
    });
    println!("{}", softplus.call(&[&xf])?);

    // A reduction as the last step:
    // @cp.fuse() def sum_of_products(x, y): return cp.sum(x * y, axis=-1)
    let sum_of_products = cp::fuse("sum_of_products", |x: &FVar, y: &FVar| {
        (x * y).sum(ReduceOptions::axis(-1))
    });
    let a = xf.reshape([2, 5])?;
    let b = yf.reshape([2, 5])?;
    println!("{}", sum_of_products.call(&[&a, &b])?);

    // Beyond CuPy: several reductions over the same axes in one pass.
    let moments = cp::fuse("moments", |x: &FVar| {
        let o = ReduceOptions::axis(-1);
        (x.sum(&o), (x * x).sum(&o), x.max(&o))
    });
    let (s1, s2, mx) = moments.call(&[&a])?;
    println!("sum {s1}, sum of squares {s2}, max {mx}");
    Ok(())
}
