//! What the modules of the GPU test binary share: the lock that lets the
//! tests holding a stream run alone, and a test's full name for a child
//! process of this binary.

use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

/// Tests that hold a stream (a host function that blocks it, in `memory`)
/// run alone: a driver call of another test that waits for the whole
/// device would wait for the held stream. Every device test of the binary
/// takes one side: [`shared`] for most, [`alone`] for those.
static EXCLUSIVE: RwLock<()> = RwLock::new(());

/// The shared side of [`EXCLUSIVE`]: runs beside every test but those that
/// hold a stream.
pub fn shared() -> RwLockReadGuard<'static, ()> {
    EXCLUSIVE.read().unwrap_or_else(|p| p.into_inner())
}

/// The exclusive side of [`EXCLUSIVE`]: no other device test runs meanwhile.
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    EXCLUSIVE.write().unwrap_or_else(|p| p.into_inner())
}

/// The name libtest gives the test `name` of the module whose
/// `module_path!()` is `module` (the path without the crate's name:
/// `core::name`), for running that test alone with `--exact` in a child
/// process.
pub fn test_name(module: &str, name: &str) -> String {
    match module.split_once("::") {
        Some((_crate, path)) => format!("{path}::{name}"),
        None => name.to_string(),
    }
}

/// Seeded, never-constant bytes.
pub fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// A non-blocking stream of `dev`.
pub fn stream(dev: gpu_runtime::Device) -> gpu_runtime::Stream {
    gpu_runtime::Stream::with_options(
        dev,
        gpu_runtime::StreamOptions::default().non_blocking(true),
    )
    .unwrap()
}
