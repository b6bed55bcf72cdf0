//! Tier 2 (DESIGN.md, "Testing"): every sort kernel (histogram, bin scan, the
//! onesweep pass with 32- and 64-bit values, searchsorted, unique's flags and
//! scatter, the radix selection's three) for every dtype, each against its
//! declared prototype, all dtypes in one program per architecture, and
//! the elementwise kernels of the indexing and logic routines (take,
//! take_along_axis, put, where, argwhere, isclose) over a spread of dtypes,
//! layouts and index widths, compile with the real NVRTC for sm_90 (and sm_80
//! with `CUPRUM_TEST_ALL_ARCHS=1`). Needs only the NVRTC library; skips with a
//! reason without it. `CUPRUM_SORT_PTXAS_REPORT=1` prints ptxas' register,
//! spill and shared-memory report of the sort kernels.

use gpu_array::DType;
use gpu_array::elementwise::{IndexWidth, LayoutClass, render_program};
use gpu_array::kernels::HEADERS;
use gpu_array::sorting::radix::program_source;
use gpu_runtime::nvrtc::{CompileConfig, CompileRequest, compile_uncached};
use gpu_runtime::testing::{names_in, nvrtc_or_skip};

#[test]
fn sort_kernels_compile_for_every_dtype() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let source = program_source(&DType::ALL);
    for &arch in gpu_runtime::testing::test_archs() {
        let mut req = gpu_array::kernels::request(source.clone()).arch(arch);
        // ptxas' register, spill and shared-memory report, for the log.
        req.options.push("--ptxas-options=-v".into());
        let c = compile_uncached(&req, &CompileConfig::from_env())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        if std::env::var_os("CUPRUM_SORT_PTXAS_REPORT").is_some() {
            eprintln!("{arch}:\n{}", c.log);
        }
        let names = names_in(&c.image, b"cuprum_sort_");
        for dt in DType::ALL {
            for k in [
                "hist",
                "scan",
                "pass_k32",
                "pass_v32",
                "pass_v64",
                "search",
                "uflags",
                "uscatter",
                "selhist",
                "selpick",
                "selfinish",
            ] {
                let name = format!("cuprum_sort_{k}_{}", dt.name());
                assert!(
                    names.contains(name.as_bytes()),
                    "{arch}: {name} is not in the image"
                );
            }
        }
    }
}

#[test]
fn indexing_and_logic_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = gpu_array::indexing::kernel_specs(
        &[DType::Float32, DType::Complex128, DType::Bool],
        &[DType::Int64, DType::Int32],
        &[
            LayoutClass::Contiguous { vectorized: true },
            LayoutClass::Strided { ndim: 2 },
        ],
        &[IndexWidth::I32, IndexWidth::I64],
    );
    assert_eq!(specs.len(), 3 * 2 * 2 * 2 * 3 + 2 * 2 * (3 + 3 * 2 + 1));
    specs.extend(gpu_array::logic::kernel_specs(
        &[
            (DType::Float32, DType::Float32),
            (DType::Float16, DType::Int64),
            (DType::Complex64, DType::Float64),
            (DType::Bool, DType::UInt8),
        ],
        &[
            LayoutClass::Contiguous { vectorized: true },
            LayoutClass::Strided { ndim: 3 },
        ],
        &[IndexWidth::I32],
    ));
    let expected: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    let source = render_program(&specs);
    for &arch in gpu_runtime::testing::test_archs() {
        let req = HEADERS
            .iter()
            .fold(CompileRequest::new(source.clone()), |r, (n, h)| {
                r.header(*n, *h)
            })
            .arch(arch);
        let c = compile_uncached(&req, &CompileConfig::from_env())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        let names = names_in(&c.image, b"cuprum_");
        for n in &expected {
            assert!(
                names.contains(n.as_bytes()),
                "{arch}: {n} is not in the image"
            );
        }
    }
}
