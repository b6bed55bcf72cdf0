//! Tier 2 (DESIGN.md, "Testing"): every scan kernel (`cumsum`, `cumprod`,
//! `nancumsum`, `nancumprod`; look-back tiles, warp per row, column, the three
//! segmented-column passes) for each input dtype with its default result dtype
//! and for a set of explicit `dtype=` pairs compiles with the real NVRTC for
//! sm_90 (and sm_80 with `CUPRUM_TEST_ALL_ARCHS=1`), each against its declared
//! prototype, all pairs in one program per architecture. Needs only the NVRTC
//! library; skips with a reason without it.

use std::collections::HashSet;
use std::time::Instant;

use gpu_array::DType;
use gpu_array::scan::{cumulative_dtype, program_source};
use gpu_runtime::nvrtc::{CompileConfig, compile_uncached};
use gpu_runtime::testing::nvrtc_or_skip;

/// Explicit `dtype=` pairs beyond the defaults: widening, narrowing,
/// half results (accumulated in float), bool results, complex results.
const EXTRA: [(DType, DType); 8] = [
    (DType::Int32, DType::Float64),
    (DType::Float16, DType::Float32),
    (DType::Float32, DType::Float64),
    (DType::Int64, DType::Int32),
    (DType::Bool, DType::Bool),
    (DType::Float64, DType::Float16),
    (DType::Int8, DType::Complex128),
    (DType::UInt8, DType::BFloat16),
];

fn pairs() -> Vec<(DType, DType)> {
    DType::ALL
        .iter()
        .map(|&d| (d, cumulative_dtype(d)))
        .chain(EXTRA)
        .collect()
}

#[test]
fn scan_kernels_compile_for_every_dtype() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let pairs = pairs();
    let source = program_source(&pairs);
    for &arch in gpu_runtime::testing::test_archs() {
        let t = Instant::now();
        let req = gpu_array::kernels::request(source.clone()).arch(arch);
        let c = compile_uncached(&req, &CompileConfig::from_env())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(!c.image.is_empty(), "{arch}: empty image");
        // Every identifier-like run of the image that names a scan kernel.
        let names: HashSet<&[u8]> = c
            .image
            .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .filter(|w| w.starts_with(b"cuprum_scan_"))
            .collect();
        for (i, o) in &pairs {
            for shape in [
                "tiles",
                "rows",
                "cols",
                "segtotals",
                "segcarry",
                "segfinish",
            ] {
                let ops: &[&str] = if i.is_floating() || i.is_complex() {
                    &["sum", "prod", "nansum", "nanprod"]
                } else {
                    &["sum", "prod"]
                };
                for op in ops {
                    let name = format!("cuprum_scan_{shape}_{op}_{}_{}", i.name(), o.name());
                    assert!(
                        names.contains(name.as_bytes()),
                        "{arch}: {name} is not in the image"
                    );
                }
            }
        }
        eprintln!(
            "{arch}: {} pairs in {:.1} s",
            pairs.len(),
            t.elapsed().as_secs_f64()
        );
    }
}
