//! Tier 2 of gpu-array (DESIGN.md, "Testing"): every kernel the crate can
//! render compiles with the real NVRTC, one module per engine, all in one
//! test binary (one link instead of six, and libtest spreads the modules'
//! compiles over the cores). Needs only the NVRTC library; each test skips
//! with a reason without it (fails with `CUPRUM_TEST_REQUIRE_NVRTC=1`).
//! Kernels are built for `sm_90`, and for `sm_80` too with
//! `CUPRUM_TEST_ALL_ARCHS=1` (`gpu_runtime::testing::test_archs`).

mod elementwise;
mod fusion;
mod math;
mod reductions;
mod scans;
mod sort;
