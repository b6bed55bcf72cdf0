//! The guide: CuPy's tutorial, section by section, in Rust (as ndarray's
//! `doc::ndarray_for_numpy_users`). Each section shows the Python a CuPy
//! user knows beside the Rust that does the same; the numbered examples in
//! `crates/cuprum/examples/` are the same steps as programs that check
//! their results (`cargo run -p cuprum --example 01_basics`).
//!
//! 1. [`basics`], arrays, creation, views, ufuncs, reductions, errors.
//! 2. [`current_device`], the current device and the one rule for arrays
//!    on other devices.
//! 3. [`data_transfer`], host to device, device to host, device to device.
//! 4. [`agnostic_code`], code generic over host and device arrays.
//! 5. [`user_kernels`], `ElementwiseKernel`, `ReductionKernel`, `RawKernel`.
//! 6. [`fusion`], `cp::fuse`.
//! 7. [`memory`], memory pools.
//! 8. [`interop`], ndarray, `.npy`, raw pointers, streams.
//! 9. [`fft`], Fourier transforms and their plans.
//! 10. [`random`], random sampling: `Generator`, `RandomState`, streams
//!     that reproduce anywhere.
//! 11. [`sparse`], sparse matrices, their products and solvers.
//! 12. [`ndimage`], image processing: filters, interpolation,
//!     measurements, morphology.
//! 13. [`signal`], signal processing: convolution, order filters,
//!     resampling.
//! 14. [`differences`], where Cuprum differs from NumPy and CuPy, and why.

pub mod agnostic_code;
pub mod basics;
pub mod current_device;
pub mod data_transfer;
pub mod differences;
pub mod fft;
pub mod fusion;
pub mod interop;
pub mod memory;
pub mod ndimage;
pub mod random;
pub mod signal;
pub mod sparse;
pub mod user_kernels;
