//! User kernels with tuple arguments and one output; RawKernel's checked
//! launch.

use cuprum::{self as cp, DType, ElementwiseKernel, RawKernel, ReductionKernel};
use gpu_testing::device_or_skip;

#[test]
fn elementwise_reduction_and_fused_take_tuples() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let sq = ElementwiseKernel::new("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")?;
    let x = cp::arange((0.0, 4.0))?;
    let z = sq.run((&x, 1.0))?;
    assert_eq!(z.to_vec::<f64>()?, [1.0, 0.0, 1.0, 4.0]);
    let l2 = ReductionKernel::new(
        "T x",
        "T y",
        "x * x",
        "a + b",
        "y = sqrt(a)",
        Some("0"),
        "l2norm",
    )?;
    let m = cp::array([[3.0, 0.0], [4.0, 0.0]])?;
    assert_eq!(l2.run(&m, ())?.to_scalar::<f64>()?, 5.0);
    assert_eq!(l2.run(&m, 0)?.to_vec::<f64>()?, [5.0, 0.0]);
    let f = cp::fuse("axpy", |a: &cp::FVar, x: &cp::FVar| a * x + 1.0);
    let y = f.run((2.0, &x))?;
    assert_eq!(y.to_vec::<f64>()?, [1.0, 3.0, 5.0, 7.0]);
    Ok(())
}

const SCALE: &str = r#"
#include "cuprum/complex.cuh"
extern "C" __global__ void scale(const float* x, float* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i];
}
extern "C" __global__ void cabs2(const cuprum::complex<double>* z, double* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = cuprum::norm(z[i]);
}
"#;

#[test]
fn raw_kernels_launch_checked_with_the_headers() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let k = RawKernel::new(SCALE, "scale")?;
    let x = cp::array([1.0f32, 2.0, 3.0])?;
    let y = cp::empty(3, DType::Float32)?;
    k.launch(1, 32, (&x, &y, 2.0, 3))?;
    assert_eq!(y.to_vec::<f32>()?, [2.0, 4.0, 6.0]);
    // A float64 array for `const float*`, a float for `int n`, a wrong count.
    let x64 = cp::array([1.0, 2.0, 3.0])?;
    let e = k.launch(1, 32, (&x64, &y, 2.0, 3)).unwrap_err().to_string();
    assert!(
        e.contains("argument 0 (`x`) is a float64 array, but the parameter is `float*`"),
        "{e}"
    );
    let e = k.launch(1, 32, (&x, &y, 2.0, 3.5)).unwrap_err().to_string();
    assert!(e.contains("argument 3 (`n`)"), "{e}");
    assert!(k.launch(1, 32, (&x, &y)).is_err());
    // Cuprum's complex header is on the include path by default.
    let c = RawKernel::new(SCALE, "cabs2")?;
    let z = cp::array([num_complex::Complex::new(3.0, 4.0)])?;
    let out = cp::empty(1, DType::Float64)?;
    c.launch(1, 32, (&z, &out, 1))?;
    assert_eq!(out.to_vec::<f64>()?, [25.0]);
    Ok(())
}
