//! NVRTC (no device needed, CI): the crate's kernel program compiles for
//! every value dtype on the test architectures.

use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};

#[test]
fn sparse_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    compile_for_test_archs("sparse program", &[crate::kernels::program_request()]);
}
