//! Tier 2 of gpu-runtime (DESIGN.md, "Testing"): the real NVRTC compiles
//! real kernels, in one test binary as in the other crates (`tests/nvrtc/`,
//! a module per subject). Needs only the NVRTC library; each test skips
//! with a reason without it (fails with `CUPRUM_TEST_REQUIRE_NVRTC=1`).

mod compile;
