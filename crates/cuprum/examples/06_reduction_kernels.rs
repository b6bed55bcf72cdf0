//! CuPy's tutorial, "Reduction kernels", in Rust.
//!
//! `cargo run -p cuprum --example 06_reduction_kernels`.

use cuprum::{self as cp, DType, ReductionKernel};

fn main() -> cp::Result<()> {
    // l2norm_kernel = cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b',
    //                                    'y = sqrt(a)', '0', 'l2norm')
    let l2norm_kernel = ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )?;
    // x = cp.arange(10, dtype=np.float32).reshape(2, 5); l2norm_kernel(x, axis=1)
    let x = cp::arange_with(0, 10, 1, Some(DType::Float32))?.reshape((2, 5))?;
    let y = l2norm_kernel.run(&x, 1)?;
    let want = [30f32.sqrt(), 255f32.sqrt()]; // array([ 5.477226 , 15.9687195])
    for (g, w) in y.to_vec::<f32>()?.iter().zip(want) {
        assert!((g - w).abs() <= 1e-6 * w);
    }
    println!("l2norm_kernel(x, axis=1) = {y}");
    // All axes, then keepdims.
    let all = l2norm_kernel.run(&x, ())?;
    assert!((all.to_scalar::<f64>()? - 285f64.sqrt()).abs() < 1e-5);
    let kept = l2norm_kernel.run(&x, cp::ReductionCall::axis(0).keepdims(true))?;
    assert_eq!(kept.shape(), &[1, 5]);
    Ok(())
}
