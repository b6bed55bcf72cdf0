//! Tier 2 (DESIGN.md, "Testing"): every kernel of `gpu_array::math`,
//! `gpu_array::stats` and `gpu_array::polynomial` compiles with the real
//! NVRTC for sm_90 (and sm_80 with `CUPRUM_TEST_ALL_ARCHS=1`): the elementwise kernels of
//! [`gpu_array::math::kernel_specs`] (rounding, i0, sinc, rsqrt, clip,
//! nan_to_num, windows, interp, unwrap, Horner, polyvander, correlate,
//! digitize over their dtypes and loops) in one program, and the
//! histogram/bincount program of [`gpu_array::stats::program_source`].
//! Needs only the NVRTC library; skips with a reason without it.

use gpu_array::elementwise::program_request;
use gpu_runtime::nvrtc::{CompileConfig, compile_uncached};

use gpu_runtime::testing::{names_in, nvrtc_or_skip};

#[test]
fn math_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let specs = gpu_array::math::kernel_specs();
    let mut names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(n, names.len(), "duplicate kernel names");
    for s in &specs {
        s.validate().unwrap_or_else(|e| panic!("{}: {e}", s.name));
    }
    // Kernels compiled with their own options (Horner's --fmad=false)
    // go in a program of their own, as the launcher compiles them.
    let (plain, fmad): (Vec<_>, Vec<_>) = specs.into_iter().partition(|s| s.options.is_empty());
    for &arch in gpu_runtime::testing::test_archs() {
        for group in [&plain, &fmad] {
            let req = program_request(group).arch(arch);
            let c = compile_uncached(&req, &CompileConfig::from_env()).unwrap_or_else(|e| {
                let m = e.to_string();
                panic!("{arch}: {}", &m[..m.len().min(12000)])
            });
            let found = names_in(&c.image, b"cuprum_");
            for s in group {
                assert!(
                    found.contains(s.name.as_bytes()),
                    "{arch}: {} missing",
                    s.name
                );
            }
        }
    }
}

#[test]
fn counting_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let source = gpu_array::stats::program_source();
    let wanted: Vec<String> = source
        .lines()
        .filter_map(|l| {
            l.strip_prefix("CUPRUM_COUNT(")
                .or_else(|| l.strip_prefix("CUPRUM_MINMAX("))
        })
        .map(|l| l.split(',').next().unwrap_or("").to_owned())
        .collect();
    assert!(wanted.len() > 80, "{} instantiations", wanted.len());
    let mut unique = wanted.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), wanted.len(), "duplicate instantiations");
    for &arch in gpu_runtime::testing::test_archs() {
        let req = gpu_array::kernels::request(source.clone()).arch(arch);
        let c = compile_uncached(&req, &CompileConfig::from_env()).unwrap_or_else(|e| {
            let m = e.to_string();
            panic!("{arch}: {}", &m[..m.len().min(12000)])
        });
        let found = names_in(&c.image, b"cuprum_");
        for w in &wanted {
            assert!(found.contains(w.as_bytes()), "{arch}: {w} missing");
        }
    }
}

/// `cov`'s product kernel (a user `ReductionKernel`) for the float and
/// complex dtypes, in the block, warp, column and two-pass strategies.
#[test]
fn cov_product_kernels_compile() {
    use gpu_array::DType;
    use gpu_array::elementwise::{ArgInfo, IndexWidth};
    use gpu_array::reduction::{Strategy, Variant};
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    for dt in [
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ] {
        let k = gpu_array::stats::cov_dot_kernel(dt.is_complex());
        for v in [
            Variant::new(Strategy::BlockPerRow, 2, 1, IndexWidth::I32),
            Variant::new(Strategy::WarpPerRow, 2, 1, IndexWidth::I64),
            Variant::new(Strategy::Column, 2, 1, IndexWidth::I32),
            Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I64),
        ] {
            let mut s = k
                .spec(&[ArgInfo::array(dt), ArgInfo::array(dt)], &[], v)
                .unwrap();
            s.name = format!("{}_{}_{}", s.name, dt.name(), s.variant_tag());
            specs.push(s);
        }
    }
    for &arch in gpu_runtime::testing::test_archs() {
        let req = gpu_array::reduction::program_request(&specs).arch(arch);
        compile_uncached(&req, &CompileConfig::from_env()).unwrap_or_else(|e| {
            let m = e.to_string();
            panic!("{arch}: {}", &m[..m.len().min(8000)])
        });
    }
}
