//! Tier 3 of gpu-runtime (DESIGN.md, "Testing"): devices, streams and events
//! (`core`), kernels, modules, textures and surfaces (`kernels`), pools,
//! allocators and copies (`memory`), the other memory kinds, pitched
//! copies, IPC between processes, limits and versions (`kinds`) on a real
//! GPU, in one test binary (`cargo test -p gpu-runtime --test gpu memory::`). Each test skips with
//! a reason without a device (fails instead with
//! `CUPRUM_TEST_REQUIRE_GPU=1`, which the GPU pack sets).

mod common;

mod core;
mod kernels;
mod kinds;
mod memory;
