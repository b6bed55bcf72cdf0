//! User-defined kernels: elementwise, reduction and raw.
//!
//! | CuPy                                                  | Cuprum                                                |
//! |-------------------------------------------------------|-------------------------------------------------------|
//! | `k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x - y', 'sub')` | `let k = ElementwiseKernel::new("T x, T y", "T z", "z = x - y", "sub")?;` |
//! | `k(x, y)`, `k(x, 5)`                                  | `k.run((&x, &y))?`, `k.run((&x, 5))?`                 |
//! | `k(x, y, z)` (output given)                           | `k.call(&[(&x).into(), (&y).into()], &[&z], None)?`   |
//! | `r = cp.ReductionKernel(...)`; `r(x, axis=1)`         | `let r = ReductionKernel::new(..)?;` `r.run(&x, 1)?`  |
//! | `add = cp.RawKernel(src, 'my_add')`                   | `let add = RawKernel::new(src, "my_add")?;`           |
//! | `add((5,), (5,), (x1, x2, y))`                        | `add.launch(5, 5, (&x1, &x2, &y))?`                   |
//! | `#include <cupy/complex.cuh>`                         | `#include "cuprum/complex.cuh"` (on the path already) |
//!
//! A raw kernel's launch reads the kernel's parameters from its source and
//! checks each argument: an array for a pointer, of the pointee's dtype; a
//! scalar for a value, converted only within its kind. A mismatch is an
//! error naming the argument, where CuPy would pass the bytes. For raw
//! pointers and no checks, [`crate::RawKernel::raw`] gives the runtime's
//! kernel with its `unsafe` launch.
//!
//! ```no_run
//! use cuprum::{self as cp, DType, ElementwiseKernel, RawKernel, ReductionKernel};
//!
//! fn main() -> cp::Result<()> {
//!     let x = cp::arange_with(0, 10, 1, Some(DType::Float32))?.reshape((2, 5))?;
//!     let sq = ElementwiseKernel::new("T x, T y", "T z", "z = (x - y) * (x - y)", "sq_diff")?;
//!     let z = sq.run((&x, 2.0))?;
//!     let l2 = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2")?;
//!     let n = l2.run(&x, 1)?;
//!     let add = RawKernel::new(
//!         r#"extern "C" __global__ void my_add(const float* a, const float* b, float* c) {
//!                int i = blockDim.x * blockIdx.x + threadIdx.x; c[i] = a[i] + b[i]; }"#,
//!         "my_add",
//!     )?;
//!     let y = cp::zeros((2, 5), DType::Float32)?;
//!     add.launch(2, 5, (&x, &z, &y))?;
//!     println!("{z}\n{n}\n{y}");
//!     Ok(())
//! }
//! ```
