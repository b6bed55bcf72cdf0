//! The crate's one door to `unsafe`: vouching for the launches of the
//! hand-written kernels in `kernels/fill.cu`.
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `fill::fill` and `fill::integers` launch these only on a freshly
// allocated, C-contiguous array of exactly `n` elements of the kernel's
// element type (the launcher allocates it), and each kernel writes only
// elements `0..n` (every store checks its index against `n`, and the
// 16-byte stores cover `first..first + L` only when `first + L <= n` and
// the address is 16-byte aligned); the arrays are freed in stream order
// by the memory pool, so they outlive the launch.
unsafe impl Vouched for crate::fill::Fill {}

// SAFETY: as for `Fill`.
unsafe impl Vouched for crate::fill::Ints {}

// SAFETY: `fill::permutation` launches it on a fresh C-contiguous int64
// array of exactly `n` elements; each thread writes only `out[i]`, `i < n`.
unsafe impl Vouched for crate::fill::Perm {}
