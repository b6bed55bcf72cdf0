//! gpu-fft on a real GPU, one test binary (`cargo test -p gpu-fft --test
//! gpu transforms::`): every transform against `rustfft` on the host,
//! the layouts cuFFT reads in place and those it cannot, NumPy's errors
//! and the plan cache. Each test skips with a reason without a GPU
//! (fails instead with `CUPRUM_TEST_REQUIRE_GPU=1`).

mod common;

mod api;
mod layouts;
mod realtrig;
mod transforms;
