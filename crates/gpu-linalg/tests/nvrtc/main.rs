//! Tier 2 of gpu-linalg (DESIGN.md, "Testing"): the crate's own kernels
//! compile with the real NVRTC, in one test binary as in the other crates
//! (`tests/nvrtc/`, a module per group of kernels). Needs only the NVRTC
//! library; each test skips with a reason without it (fails with
//! `CUPRUM_TEST_REQUIRE_NVRTC=1`).

mod linalg;
