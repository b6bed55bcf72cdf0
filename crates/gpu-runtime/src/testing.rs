//! Helpers for tests that need a GPU or NVRTC (DESIGN.md, "Testing").
//!
//! A GPU test starts with `let Some(dev) = gpu_runtime::testing::device_or_skip() else { return };`.
//! Without a device it prints why and returns `None`, so the test passes as
//! a skip; with `CUPRUM_TEST_REQUIRE_GPU=1` (set by the GPU pack's run.sh) it
//! panics instead, so a missing device fails the run. NVRTC tests do the same
//! with [`nvrtc_or_skip`] and `CUPRUM_TEST_REQUIRE_NVRTC=1` (set by
//! `cargo xtask test`, so CI fails when NVRTC could not be set up).
//! NVRTC compile tests compile with [`no_cache`] and look for their
//! kernels in the image with [`names_in`].

use std::collections::HashSet;
use std::path::PathBuf;

use crate::Device;
use crate::nvrtc::CompileConfig;

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// The current device, or `None` after printing why there is none.
///
/// # Panics
/// When no device is usable and `CUPRUM_TEST_REQUIRE_GPU=1`.
#[track_caller]
pub fn device_or_skip() -> Option<Device> {
    let why = match Device::count() {
        Ok(0) => "no CUDA device is visible".to_string(),
        Ok(_) => match Device::current().and_then(|d| d.bind().map(|()| d)) {
            Ok(d) => return Some(d),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    if required("CUPRUM_TEST_REQUIRE_GPU") {
        panic!("CUPRUM_TEST_REQUIRE_GPU=1 but no GPU: {why}");
    }
    eprintln!("skipped (no GPU): {why}");
    None
}

/// `Some(())` when the NVRTC library loads, else `None` after printing why.
///
/// # Panics
/// When NVRTC is missing and `CUPRUM_TEST_REQUIRE_NVRTC=1`.
#[track_caller]
pub fn nvrtc_or_skip() -> Option<()> {
    match gpu_sys::nvrtc::LIBRARY.path() {
        Ok(_) => Some(()),
        Err(e) => {
            if required("CUPRUM_TEST_REQUIRE_NVRTC") {
                panic!("CUPRUM_TEST_REQUIRE_NVRTC=1 but NVRTC is missing: {e}");
            }
            eprintln!("skipped (no NVRTC): {e}");
            None
        }
    }
}

/// The architectures the kernel-compilation tests build for: `sm_90` (the
/// H200's, where every GPU test runs), and `sm_80` too with
/// `CUPRUM_TEST_ALL_ARCHS=1`. One architecture halves the CI time of the
/// full kernel matrix (the front end is the same for both; only ptxas's
/// target differs), so CI compiles every kernel once for `sm_90` and the
/// full two-architecture matrix runs where the variable is set (the GPU
/// machine: `CUPRUM_TEST_ALL_ARCHS=1 bash bench/gpu/only.sh nvrtc ...`).
pub fn test_archs() -> &'static [&'static str] {
    if required("CUPRUM_TEST_ALL_ARCHS") {
        &["sm_80", "sm_90"]
    } else {
        &["sm_90"]
    }
}

/// A compile configuration that neither reads nor writes a kernel cache
/// (and keeps sources and debug info off), whatever the environment says:
/// a compile test must run NVRTC, not find an earlier result.
pub fn no_cache() -> CompileConfig {
    CompileConfig {
        cache_dir: PathBuf::from("/nonexistent/cuprum"),
        in_memory_only: true,
        save_source: false,
        debug: false,
        dump_source_on_error: false,
    }
}

/// The identifiers starting with `prefix` in a compiled image (PTX or
/// cubin): how a compile test checks that every kernel it asked for is
/// there under its name.
pub fn names_in(image: &[u8], prefix: &[u8]) -> HashSet<Vec<u8>> {
    image
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| w.starts_with(prefix))
        .map(<[u8]>::to_vec)
        .collect()
}
