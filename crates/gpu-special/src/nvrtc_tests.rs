//! NVRTC (no device needed, CI): every loop of every special ufunc in the
//! contiguous-vectorized layout, and each ufunc's first loop also strided
//! with 64-bit indexing (the layouts share the loop body, and compiling
//! every body twice doubled CI's longest test), a
//! fused kernel over several families, and a user's ElementwiseKernel
//! that includes a special header, compiled as one program per
//! architecture of the test set (unoptimized PTX in CI, see
//! `gpu_runtime::testing::compile_for_test_archs`).

use gpu_array::DType;
use gpu_array::dtype::Operand;
use gpu_array::elementwise::{
    ArgInfo, ElementwiseKernel, ElementwiseSpec, IndexWidth, LayoutClass, render_program,
};
use gpu_array::fusion::{ArgSig, FVar, fuse};
use gpu_array::ufunc::{UfuncInput, UfuncParams};
use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};

const LAYOUTS: [(LayoutClass, IndexWidth); 2] = [
    (
        LayoutClass::Contiguous { vectorized: true },
        IndexWidth::I32,
    ),
    (LayoutClass::Strided { ndim: 3 }, IndexWidth::I64),
];

fn loop_specs() -> Vec<ElementwiseSpec> {
    let mut specs = Vec::new();
    for u in crate::all() {
        for (k, lp) in u.loops().iter().enumerate() {
            let ops: Vec<Operand> = lp.inputs.iter().map(|&d| Operand::Array(d)).collect();
            let r = u.resolve(&ops, &UfuncParams::default()).unwrap();
            assert_eq!(r.signature(), lp.signature(), "{}", u.name());
            let arrays: Vec<UfuncInput> = lp.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
            let layouts = if k == 0 { &LAYOUTS[..] } else { &LAYOUTS[..1] };
            for &(layout, index) in layouts {
                let s = r.spec(&arrays, &[], layout, index).unwrap();
                assert!(
                    s.preamble.contains("#include \"cuprum/special/"),
                    "{}: {}",
                    u.name(),
                    s.preamble
                );
                specs.push(s);
            }
        }
    }
    specs
}

fn fused_spec() -> ElementwiseSpec {
    use crate::fused;
    let f = fuse("special_mix", |x: &FVar, y: &FVar| {
        fused::expit(x) * fused::erf(y) + fused::gammaln(x) - fused::j0(y) + fused::huber(1.0, x)
    });
    let t = f
        .trace(&[
            ArgSig::array(DType::Float32, 1),
            ArgSig::array(DType::Float32, 1),
        ])
        .unwrap();
    let s = t
        .elementwise_spec(
            LayoutClass::Contiguous { vectorized: true },
            IndexWidth::I32,
        )
        .unwrap();
    for h in ["erf", "gamma", "bessel", "convex"] {
        assert!(
            s.preamble.contains(&format!("cuprum/special/{h}.cuh")),
            "{}",
            s.preamble
        );
    }
    s
}

fn user_spec() -> ElementwiseSpec {
    let k = ElementwiseKernel::new(
        "T x",
        "T y",
        "y = cuprum::special::digamma(x) + cuprum::special::zeta(x, (T)2);",
        "user_special",
    )
    .unwrap()
    .with_preamble("#include \"cuprum/special/gamma.cuh\"");
    k.spec(
        &[ArgInfo::array(DType::Float64)],
        &[],
        LayoutClass::Contiguous { vectorized: false },
        IndexWidth::I32,
    )
    .unwrap()
}

#[test]
fn every_loop_fused_and_user_kernel_compiles() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = loop_specs();
    specs.push(fused_spec());
    specs.push(user_spec());
    // One program per core (NVRTC compiles separate programs on separate
    // threads): the loops of about a hundred ufuncs are CI's longest
    // compile, and its machine has two cores.
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(1, 4));
    // Dealt round-robin, so each program gets a share of every family
    // (the table lists a family's heavy loops together).
    let sources: Vec<String> = (0..threads)
        .map(|k| {
            let share: Vec<ElementwiseSpec> =
                specs.iter().skip(k).step_by(threads).cloned().collect();
            render_program(&share)
        })
        .collect();
    let requests: Vec<_> = sources
        .into_iter()
        .map(gpu_array::kernels::request)
        .collect();
    compile_for_test_archs("special kernels", &requests);
}
