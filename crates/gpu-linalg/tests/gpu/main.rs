//! Tier 3 of gpu-linalg (DESIGN.md, "Testing"): products and
//! decompositions on a real GPU, one module each, in one test binary
//! (`cargo test -p gpu-linalg --test gpu decomp::`). Each device test
//! skips with a reason without a GPU (fails instead with
//! `CUPRUM_TEST_REQUIRE_GPU=1`); the host checks of the golden file run
//! everywhere.

mod common;

mod decomp;
mod products;
