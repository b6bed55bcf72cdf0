//! Tier 2 (DESIGN.md, "Testing"): the crate's own kernels (integer and boolean
//! matmul for every integer dtype, the LU slogdet reduction and the batched
//! `orgqr` for every factorization dtype, the pivot order of LU solves) compile
//! with the real NVRTC for sm_90 (and sm_80 with `CUPRUM_TEST_ALL_ARCHS=1`),
//! each against its declared prototype, all in one program per architecture,
//! and every kernel name is in the image. Needs only the NVRTC library; skips
//! with a reason without it.

use gpu_linalg::kernels::{
    IMATMUL_DTYPES, ORGQR_DTYPES, SLOGDET_DTYPES, imatmul_name, orgqr_name, program_source,
    slogdet_name,
};
use gpu_runtime::nvrtc::{CompileConfig, compile_uncached};
use gpu_runtime::testing::nvrtc_or_skip;

#[test]
fn linalg_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let source = program_source(&IMATMUL_DTYPES, &SLOGDET_DTYPES, &ORGQR_DTYPES);
    for &arch in gpu_runtime::testing::test_archs() {
        let req = gpu_array::kernels::request(source.clone()).arch(arch);
        let c = compile_uncached(&req, &CompileConfig::from_env())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert!(!c.image.is_empty(), "{arch}: empty image");
        let names: Vec<String> = IMATMUL_DTYPES
            .iter()
            .map(|&d| imatmul_name(d))
            .chain(SLOGDET_DTYPES.iter().map(|&d| slogdet_name(d)))
            .chain(ORGQR_DTYPES.iter().map(|&d| orgqr_name(d)))
            .chain(["cuprum_linalg_pivot_perm".to_string()])
            .collect();
        for name in names {
            assert!(
                c.image.windows(name.len()).any(|w| w == name.as_bytes()),
                "{arch}: {name} missing from the image"
            );
        }
    }
}
