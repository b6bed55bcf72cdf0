//! CuPy's tutorial, "Raw kernels", in Rust: CUDA source compiled with
//! Cuprum's headers, launched with arrays and scalars that are checked
//! against the kernel's parameters.
//!
//! `cargo run -p cuprum --example 07_raw_kernels`.

use cuprum::{self as cp, DType, RawKernel};
use num_complex::Complex;

const ADD: &str = r#"
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}
"#;

const COMPLEX: &str = r#"
#include "cuprum/complex.cuh"
using cuprum::complex;
extern "C" __global__
void my_func(const complex<float>* x1, const complex<float>* x2,
             complex<float>* y, float a) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + a * x2[tid];
}
"#;

fn main() -> cp::Result<()> {
    // add_kernel((5,), (5,), (x1, x2, y))
    let add_kernel = RawKernel::new(ADD, "my_add")?;
    let x1 = cp::arange_with(0, 25, 1, Some(DType::Float32))?.reshape((5, 5))?;
    let x2 = cp::arange_with(0, 25, 1, Some(DType::Float32))?.reshape((5, 5))?;
    let y = cp::zeros((5, 5), DType::Float32)?;
    add_kernel.launch(5, 5, (&x1, &x2, &y))?;
    let want: Vec<f32> = (0..25).map(|i| 2.0 * i as f32).collect();
    assert_eq!(y.to_vec::<f32>()?, want);
    println!("y =\n{y}");

    // A float64 array where the kernel takes float*: an error, not garbage.
    let wrong = x1.astype(DType::Float64)?;
    let err = add_kernel.launch(5, 5, (&wrong, &x2, &y)).unwrap_err();
    println!("checked: {err}");

    // complex_kernel((5,), (5,), (x1, x2, y, cupy.float32(2.0)))
    let complex_kernel = RawKernel::new(COMPLEX, "my_func")?;
    let c1 = cp::arange_with(0, 25, 1, Some(DType::Complex64))?.reshape((5, 5))?;
    let c2 = (&c1 * Complex::new(0.0f32, 1.0)).reshape((5, 5))?;
    let cy = cp::zeros((5, 5), DType::Complex64)?;
    complex_kernel.launch(5, 5, (&c1, &c2, &cy, 2.0))?;
    let got = cy.to_vec::<Complex<f32>>()?;
    assert_eq!(got[1], Complex::new(1.0, 2.0));
    assert_eq!(got[24], Complex::new(24.0, 48.0));
    println!("complex y =\n{cy}");

    // Kernel attributes (add_kernel.attributes).
    let attrs = add_kernel.raw().attributes()?;
    println!(
        "max threads per block {}, registers {}",
        attrs.max_threads_per_block, attrs.num_regs
    );
    Ok(())
}
