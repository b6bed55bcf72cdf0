//! NVRTC (no device needed, CI): the fill program and every sampler's
//! kernel, compiled for the test architectures (unoptimized PTX in CI, as
//! gpu-special's test explains; machine code with
//! `CUPRUM_TEST_ALL_ARCHS=1`).

use gpu_array::DType;
use gpu_array::elementwise::{IndexWidth, LayoutClass, render_program};
use gpu_runtime::nvrtc::{self, CompileRequest};
use gpu_runtime::testing::{no_cache, nvrtc_or_skip, test_archs};

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
    let machine_code = std::env::var_os("CUPRUM_TEST_ALL_ARCHS").is_some();
    for arch in test_archs() {
        let arch: &str = &if machine_code {
            (*arch).to_string()
        } else {
            arch.replace("sm_", "compute_")
        };
        std::thread::scope(|scope| {
            let jobs: Vec<_> = [crate::fill::program_request(), samplers_request()]
                .into_iter()
                .enumerate()
                .map(|(k, req)| {
                    scope.spawn(move || {
                        let mut req = req.arch(arch);
                        if !machine_code {
                            req = req.option("-G");
                        }
                        let out = nvrtc::compile_uncached(&req, &no_cache())
                            .unwrap_or_else(|e| panic!("random program {k} on {arch}: {e}"));
                        assert!(out.image.len() > 1024, "{arch}: {} bytes", out.image.len());
                    })
                })
                .collect();
            for job in jobs {
                job.join().expect("an NVRTC compile thread panicked");
            }
        });
    }
}
