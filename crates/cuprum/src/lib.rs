//! Cuprum: NumPy and SciPy for CUDA GPUs, in Rust (the counterpart of CuPy).
//!
//! The front door (DESIGN.md): the layers re-exported under the names a
//! CuPy user reaches for. `use cuprum as cp;` then `cp::zeros(...)`,
//! `cp::exp(&x)`, `cp::cuda::Device::new(1)`.
//!
//! | CuPy                         | Cuprum                                   |
//! |------------------------------|------------------------------------------|
//! | `cp.ndarray`, `cp.float32`   | [`Array`], [`DType::Float32`]            |
//! | `cp.array`, `cp.zeros`, ...  | [`array`], [`zeros`], ... ([`creation`]) |
//! | `cp.exp`, `cp.add`, ...      | [`exp`], [`add`], ... ([`ufunc`])        |
//! | `cp.cuda`                    | [`cuda`] (gpu-runtime)                   |
//! | `cp.linalg`, `cp.matmul`, `a @ b` | [`linalg`] (gpu-linalg), [`matmul`], `a.matmul(&b)` ([`MatmulExt`]) |
//! | `cp.ElementwiseKernel`       | [`ElementwiseKernel`]                    |
//! | `@cp.fuse()`, `cp.exp` inside | [`fuse`]`("f", \|x: &FVar\| ..)`, [`fx::exp`] |
//! | `cp.testing`                 | [`testing`] (gpu-testing)                |
//! | `cp.asnumpy(x)`              | `x.to_ndarray::<T>()`                    |
//!
//! Later layers (fft, random, sparse, special, ndimage, signal)
//! join here as their crates land.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use gpu_array::array::{Broadcast, broadcast_arrays, copyto};
pub use gpu_array::creation::*;
pub use gpu_array::elementwise::{ElementwiseKernel, KernelInput, Typed};
pub use gpu_array::fusion::{self, FVar, fuse, fx};
pub use gpu_array::ufunc::*;
pub use gpu_array::{
    Array, AxisIndex, DType, Element, Error, Flags, Layout, Order, Result, creation, display,
    dtype, elementwise, layout, npy, s, ufunc,
};
/// CuPy's `cupy.linalg` (and `cupyx.scipy.linalg` as `linalg::scipy`).
pub use gpu_linalg as linalg;
pub use gpu_linalg::{
    MatmulExt, cross, dot, einsum, inner, kron, matmul, outer, tensordot, trace, vdot,
};
/// The CUDA runtime: devices, streams, events, memory, kernels (CuPy's
/// `cupy.cuda`).
pub use gpu_runtime as cuda;
/// CuPy's `cupy.testing`: assertions and dtype-parameterised test macros.
pub use gpu_testing as testing;
