//! Tier 3 of gpu-array (DESIGN.md, "Testing"): the device array on a real
//! GPU, one module per area, all in one test binary (one link instead of
//! twelve; a module's tests are named `module::test`, so
//! `cargo test -p gpu-array --test gpu scans::` runs one area). Each test
//! that needs a device skips with a reason without one (fails instead with
//! `CUPRUM_TEST_REQUIRE_GPU=1`); the host-only checks (golden files well
//! formed, host references, errors raised before any device work) run
//! everywhere. Oracles are NumPy's own outputs under `testdata/`
//! ([`common::testdata`]) or host references.

mod common;

mod creation;
#[cfg(feature = "cudarc")]
mod cudarc_bridge;
mod display_io;
mod dlpack;
mod elementwise;
mod fusion;
mod indexing;
mod keywords;
mod manip;
mod math;
mod optimizing;
mod reductions;
mod scans;
mod sort;
mod ufuncs;
mod views;
