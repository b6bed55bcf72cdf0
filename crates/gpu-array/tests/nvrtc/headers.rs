//! Tier 2 (DESIGN.md, "Testing"): the shared device headers instantiate for
//! every dtype: `cuprum/warp.cuh`'s shuffles (1-, 2-, 8- and 16-byte types
//! as well as 4-byte ones), warp reductions, scans, the (value, index)
//! extreme and the block prefix sum, one probe kernel per dtype
//! (`warp_probe.cu`), all in one program.

use gpu_array::DType;

use super::{NameCheck, compile_checked};

#[test]
fn warp_vocabulary_instantiates_for_every_dtype() {
    if gpu_runtime::testing::nvrtc_or_skip().is_none() {
        return;
    }
    let mut source = include_str!("warp_probe.cu").to_owned();
    let mut names = Vec::new();
    for dt in DType::ALL {
        let name = format!("warp_probe_{}", dt.name());
        source.push_str(&format!("CUPRUM_WARP_PROBE({name}, {})\n", dt.c_type()));
        names.push(name);
    }
    compile_checked(
        "warp_probe",
        &gpu_array::kernels::request(source),
        names,
        NameCheck::All,
        gpu_runtime::testing::test_archs(),
    );
}
