//! Tier 2 of gpu-array (DESIGN.md, "Testing"): every kernel the crate can
//! render compiles with the real NVRTC, one module per engine, all in one
//! test binary (one link instead of six, and libtest spreads the modules'
//! compiles over the cores). Needs only the NVRTC library; each test skips
//! with a reason without it (fails with `CUPRUM_TEST_REQUIRE_NVRTC=1`).
//! Kernels are built for `sm_90`, and for `sm_80` too with
//! `CUPRUM_TEST_ALL_ARCHS=1` (`gpu_runtime::testing::test_archs`).

mod elementwise;
mod fusion;
mod headers;
mod math;
mod reductions;
mod scans;
mod sort;

use std::time::Instant;

use gpu_array::elementwise::{IndexWidth, LayoutClass};
use gpu_runtime::nvrtc::{self, CompileRequest, ImageKind};
use gpu_runtime::testing::no_cache;

/// Every layout variant of the elementwise engine: vectorised and plain
/// contiguous, strided 1-d and 3-d, with both index widths among them.
pub(crate) const LAYOUTS: [(LayoutClass, IndexWidth); 4] = [
    (
        LayoutClass::Contiguous { vectorized: true },
        IndexWidth::I32,
    ),
    (
        LayoutClass::Contiguous { vectorized: false },
        IndexWidth::I64,
    ),
    (LayoutClass::Strided { ndim: 1 }, IndexWidth::I32),
    (LayoutClass::Strided { ndim: 3 }, IndexWidth::I64),
];

/// Which kernel names [`compile_checked`] looks for in each image.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NameCheck {
    /// Every one.
    All,
    /// One in eight (large batches).
    Sample,
}

/// Compiles `req` (named `{label}.cu`) with NVRTC for each of `archs` and
/// asserts that each image is a cubin holding the kernels `names` (which
/// must not repeat), all of them or a sample.
pub(crate) fn compile_checked(
    label: &str,
    req: &CompileRequest,
    mut names: Vec<String>,
    check: NameCheck,
    archs: &[&str],
) {
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "{label}: duplicate kernel names");
    let step = match check {
        NameCheck::All => 1,
        NameCheck::Sample => (names.len() / 8).max(1),
    };
    for &arch in archs {
        let t = Instant::now();
        let mut req = req.clone().arch(arch);
        req.name = format!("{label}.cu");
        let c = nvrtc::compile_uncached(&req, &no_cache()).unwrap_or_else(|e| {
            let msg = e.to_string();
            panic!("{label} ({arch}): {}", &msg[..msg.len().min(8000)])
        });
        assert_eq!(c.kind, ImageKind::Cubin);
        for name in names.iter().step_by(step) {
            assert!(
                c.image.windows(name.len()).any(|w| w == name.as_bytes()),
                "{label} ({arch}): kernel {name} missing from the cubin"
            );
        }
        eprintln!(
            "{label} {arch}: {} kernels, {} KiB source, {:.1}s",
            names.len(),
            req.source.len() / 1024,
            t.elapsed().as_secs_f64()
        );
    }
}
