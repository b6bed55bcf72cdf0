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

/// The per-line argmax/argmin kernel over the value dtypes it takes
/// (the 16-bit floats arrive as float32) and both index widths, in one
/// program.
#[test]
fn arg_line_kernel_compiles() {
    use gpu_array::DType;
    use gpu_array::elementwise::{Bind, IndexWidth, LayoutClass, render_program};
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    let values = [
        DType::Bool,
        DType::Int8,
        DType::UInt16,
        DType::Int32,
        DType::UInt64,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ];
    for (k, dt) in values.into_iter().enumerate() {
        for (j, index) in [DType::Int32, DType::Int64].into_iter().enumerate() {
            let mut s = crate::kernels::arg_line_kernel(
                Bind::Dtype(dt, 1),
                Bind::Dtype(index, 1),
                Bind::Dtype(index, 1),
                Bind::Dtype(DType::Int64, 1),
                4,
                k % 2 == 0,
                false,
            )
            .spec(
                LayoutClass::Contiguous { vectorized: false },
                IndexWidth::I64,
            )
            .unwrap();
            s.name = format!("{}_{k}_{j}", s.name);
            specs.push(s);
        }
    }
    let src = render_program(&specs);
    compile_for_test_archs("sparse arg lines", &[gpu_array::kernels::request(src)]);
}

/// The direct product kernel of the dtypes cuSPARSE does not take, with
/// both index widths, in one program.
#[test]
fn direct_product_kernel_compiles() {
    use gpu_array::DType;
    use gpu_array::elementwise::{Bind, IndexWidth, LayoutClass, render_program};
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    let values = [
        DType::Bool,
        DType::Int8,
        DType::UInt32,
        DType::Int64,
        DType::Float16,
        DType::BFloat16,
    ];
    for (k, dt) in values.into_iter().enumerate() {
        for (j, index) in [DType::Int32, DType::Int64].into_iter().enumerate() {
            let parts = [
                Bind::Dtype(dt, 1),
                Bind::Dtype(index, 1),
                Bind::Dtype(index, 1),
                Bind::Dtype(dt, 1),
            ];
            let mut s = crate::products::direct_kernel(parts, Bind::Dtype(dt, 1), 3)
                .spec(
                    LayoutClass::Contiguous { vectorized: false },
                    IndexWidth::I64,
                )
                .unwrap();
            s.name = format!("{}_{k}_{j}", s.name);
            specs.push(s);
        }
    }
    let src = render_program(&specs);
    compile_for_test_archs(
        "sparse direct products",
        &[gpu_array::kernels::request(src)],
    );
}
