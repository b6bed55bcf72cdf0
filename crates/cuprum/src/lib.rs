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
//! | `cp.around`, `cp.clip`, `cp.interp`, windows, `cp.convolve` | [`around`], [`clip`], ... ([`math`]) |
//! | `cp.histogram`, `cp.bincount`, `cp.cov`, ... | [`histogram`], [`bincount`], ... ([`stats`]) |
//! | `cp.polyval`, `cp.poly1d`, `cp.polynomial` | [`polyval`], [`Poly1d`], [`polynomial`] |
//! | `cupyx.rsqrt`                | [`math::rsqrt`]                          |
//! | `cp.cuda`                    | [`cuda`] (gpu-runtime)                   |
//! | `cp.ElementwiseKernel`       | [`ElementwiseKernel`]                    |
//! | `cp.testing`                 | [`testing`] (gpu-testing)                |
//! | `cp.asnumpy(x)`              | `x.to_ndarray::<T>()`                    |
//!
//! Later layers (linalg, fft, random, sparse, special, ndimage, signal)
//! join here as their crates land.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use gpu_array::array::{Broadcast, broadcast_arrays, copyto};
pub use gpu_array::creation::*;
pub use gpu_array::elementwise::{ElementwiseKernel, KernelInput, Typed};
pub use gpu_array::math::{
    angle, around, bartlett, blackman, clip, convolve, correlate, fix, hamming, hanning, i0, imag,
    interp, kaiser, nan_to_num, real, round_, sinc, unwrap,
};
pub use gpu_array::polynomial::{
    Poly1d, poly, polyadd, polyder, polyfit, polyint, polymul, polysub, polyval, roots,
};
pub use gpu_array::stats::{
    average, bincount, corrcoef, cov, digitize, histogram, histogram2d, histogramdd,
};
pub use gpu_array::ufunc::*;
pub use gpu_array::{
    Array, AxisIndex, DType, Element, Error, Flags, Layout, Order, Result, creation, display,
    dtype, elementwise, layout, math, npy, polynomial, s, stats, ufunc,
};
/// The CUDA runtime: devices, streams, events, memory, kernels (CuPy's
/// `cupy.cuda`).
pub use gpu_runtime as cuda;
/// CuPy's `cupy.testing`: assertions and dtype-parameterised test macros.
pub use gpu_testing as testing;
