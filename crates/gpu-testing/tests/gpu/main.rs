//! Tier 3 of gpu-testing (DESIGN.md, "Testing"): the assertions over device
//! memory, in one test binary like the other crates' (`tests/gpu/`, a
//! module per subject); the host-only API tests are the `api` binary.
//! Each test skips with a reason without a device (fails instead with
//! `CUPRUM_TEST_REQUIRE_GPU=1`).

mod device_view;
mod numpy_cupy;
