//! NVRTC (no device needed, CI): the fill program and every sampler's
//! kernel, compiled for the test architectures
//! (`gpu_runtime::testing::compile_for_test_archs`).

use gpu_array::DType;
use gpu_array::elementwise::{IndexWidth, LayoutClass, render_program};
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};

use crate::distributions::{ALL, DISCRETE};
use crate::sample::describe;

fn samplers_request() -> CompileRequest {
    let specs: Vec<_> = ALL
        .iter()
        .map(|s| {
            let out = if DISCRETE.contains(&s.name) {
                DType::Int64
            } else {
                DType::Float64
            };
            describe(s, out)
                .spec(
                    LayoutClass::Contiguous { vectorized: true },
                    IndexWidth::I32,
                )
                .unwrap()
        })
        .collect();
    gpu_array::kernels::request(render_program(&specs)).option("--fmad=false")
}

#[test]
fn fill_and_sampler_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    compile_for_test_archs(
        "random program",
        &[crate::fill::program_request(), samplers_request()],
    );
}
