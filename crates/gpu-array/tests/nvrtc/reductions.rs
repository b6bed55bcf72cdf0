//! Tier 2 (DESIGN.md, "Testing"): every reduction kernel the library can render
//! compiles with the real NVRTC for sm_90 (and sm_80 with
//! `CUPRUM_TEST_ALL_ARCHS=1`): each built-in reduction over every dtype, in
//! each strategy (block, warp, column, two-pass) with 32- and 64-bit indexing
//! and several coalesced ranks (argmax/argmin, var/std and nanmean with their
//! struct accumulators among them), the `dtype=` accumulator variants, and user
//! `ReductionKernel`s (scalars, several outputs, preambles, placeholders).
//! Batched into a few programs. Needs only the NVRTC library; skips with a
//! reason without it.

use gpu_array::DType;
use gpu_array::dtype::{Operand, ScalarKind};
use gpu_array::elementwise::{ArgInfo, IndexWidth};
use gpu_array::reduction::{
    Builtin, ReductionKernel, ReductionSpec, Strategy, Variant, program_request, render_program,
};
use gpu_runtime::testing::nvrtc_or_skip;

/// Each strategy with a shape of the planner's output.
const VARIANTS: [Variant; 4] = [
    Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32),
    Variant::new(Strategy::WarpPerRow, 2, 1, IndexWidth::I64),
    Variant::new(Strategy::Column, 1, 2, IndexWidth::I32),
    Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I64),
];

fn compile_batch(label: &str, specs: &[ReductionSpec]) {
    compile_batch_for(label, specs, gpu_runtime::testing::test_archs());
}

fn compile_batch_for(label: &str, specs: &[ReductionSpec], archs: &[&str]) {
    for s in specs {
        s.validate()
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", s.name));
    }
    let source = render_program(specs);
    assert_eq!(source, render_program(specs), "rendering is deterministic");
    let names = specs.iter().flat_map(|s| s.kernel_names()).collect();
    crate::compile_checked(
        label,
        &program_request(specs),
        names,
        crate::NameCheck::Sample,
        archs,
    );
}

fn builtin_specs(v: Variant) -> Vec<ReductionSpec> {
    let mut out = Vec::new();
    for op in Builtin::ALL {
        for dt in DType::ALL {
            let res = op.result_dtype(dt, None).unwrap();
            out.push(op.spec(dt, res, op.reduce_dtype(dt, res), v));
        }
    }
    out
}

#[test]
fn builtins_block_and_warp_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = builtin_specs(VARIANTS[0]);
    specs.extend(builtin_specs(VARIANTS[1]));
    compile_batch("reductions_block_warp", &specs);
}

#[test]
fn builtins_column_and_two_pass_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = builtin_specs(VARIANTS[2]);
    specs.extend(builtin_specs(VARIANTS[3]));
    compile_batch("reductions_column_two_pass", &specs);
}

/// The 16-byte vector path (block per row and two-pass) and the split
/// column strategy of every built-in over a dtype of each item size that
/// divides 16, and a two-input user kernel (sm_90 only: the paths have
/// nothing architecture-specific).
#[test]
fn vector_and_split_column_paths_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    for op in Builtin::ALL {
        // One dtype per item size (and complex64's pair of floats): the
        // vector path differs between dtypes only in the load width.
        for dt in [
            DType::Int8,
            DType::Float16,
            DType::Float32,
            DType::Float64,
            DType::Complex64,
        ] {
            let res = op.result_dtype(dt, None).unwrap();
            for st in [Strategy::BlockPerRow, Strategy::TwoPass] {
                let v = Variant::new(st, 1, 1, IndexWidth::I32).with_vector(16 / dt.itemsize());
                specs.push(op.spec(dt, res, op.reduce_dtype(dt, res), v));
            }
            let v = Variant::new(Strategy::ColumnSplit, 2, 1, IndexWidth::I64);
            specs.push(op.spec(dt, res, op.reduce_dtype(dt, res), v));
            if dt.itemsize() >= 2 {
                for st in [Strategy::Column, Strategy::ColumnSplit] {
                    let v = Variant::new(st, 1, 2, IndexWidth::I32).with_vector(16 / dt.itemsize());
                    specs.push(op.spec(dt, res, op.reduce_dtype(dt, res), v));
                }
            }
        }
    }
    let args = [
        ArgInfo::array(DType::Float16),
        ArgInfo::array(DType::Float16),
    ];
    for (st, name) in [
        (Strategy::BlockPerRow, "vdot_b"),
        (Strategy::TwoPass, "vdot_t"),
        (Strategy::Column, "vdot_c"),
        (Strategy::ColumnSplit, "vdot_s"),
    ] {
        let dot = ReductionKernel::new(
            "T x, T w",
            "T y",
            "x * w",
            "a + b",
            "y = a",
            Some("0"),
            name,
        )
        .unwrap();
        let out_ndim = if matches!(st, Strategy::Column | Strategy::ColumnSplit) {
            1
        } else {
            2
        };
        let v = Variant::new(st, out_ndim, 1, IndexWidth::I64).with_vector(8);
        specs.push(dot.spec(&args, &[], v).unwrap());
    }
    compile_batch_for("reductions_vector", &specs, &["sm_90"]);
}

/// The block sizes an `optimize` scope may compile a reduction for
/// (`ReductionSpec::with_block`): every strategy, the 16-byte vector paths,
/// and the largest accumulators (complex128 var and argmax, whose column
/// strategies hold 1024 of them in shared memory at the largest block).
#[test]
fn tuned_block_sizes_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    for block in [128, 512, 1024] {
        for (op, dt) in [
            (Builtin::Sum, DType::Float32),
            (Builtin::Var, DType::Complex128),
            (Builtin::ArgMax, DType::Complex128),
        ] {
            let res = op.result_dtype(dt, None).unwrap();
            let mut variants = VARIANTS.to_vec();
            variants.push(Variant::new(Strategy::ColumnSplit, 1, 1, IndexWidth::I32));
            if dt == DType::Float32 {
                for st in [Strategy::BlockPerRow, Strategy::TwoPass] {
                    variants.push(Variant::new(st, 1, 1, IndexWidth::I32).with_vector(4));
                }
                for st in [Strategy::Column, Strategy::ColumnSplit] {
                    variants.push(Variant::new(st, 1, 2, IndexWidth::I32).with_vector(4));
                }
            }
            for v in variants {
                let spec = op
                    .spec(dt, res, op.reduce_dtype(dt, res), v)
                    .with_block(block);
                assert!(spec.name.ends_with(&format!("_t{block}")), "{}", spec.name);
                specs.push(spec);
            }
        }
    }
    compile_batch_for("reductions_tuned_blocks", &specs, &["sm_90"]);
}

#[test]
fn dtype_overrides_and_user_kernels_compile() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    // dtype= and out= variants: accumulate in the requested type.
    for (op, input, output) in [
        (Builtin::Sum, DType::Int8, DType::Float32),
        (Builtin::Sum, DType::Float32, DType::Float64),
        (Builtin::Sum, DType::Bool, DType::Bool),
        (Builtin::Prod, DType::UInt8, DType::Int16),
        (Builtin::Mean, DType::Float16, DType::Float16),
        (Builtin::Mean, DType::Int32, DType::Float32),
        (Builtin::Mean, DType::Float32, DType::Complex128),
        (Builtin::Max, DType::Float32, DType::Float64),
        (Builtin::Any, DType::Complex64, DType::Int8),
        // Struct accumulators with dtype= / out= of another dtype.
        (Builtin::Var, DType::Int32, DType::Float32),
        (Builtin::Std, DType::Complex128, DType::Float32),
        (Builtin::NanVar, DType::Float16, DType::Float64),
        (Builtin::NanStd, DType::Complex64, DType::Float16),
        (Builtin::NanMean, DType::Int16, DType::Float32),
        (Builtin::NanMean, DType::Float32, DType::Complex128),
    ] {
        for v in VARIANTS {
            specs.push(op.spec(input, output, op.reduce_dtype(input, output), v));
        }
    }
    let k = |i: &str, o: &str, m: &str, r: &str, p: &str, id: Option<&str>, n: &str| {
        ReductionKernel::new(i, o, m, r, p, id, n).unwrap()
    };
    let user: Vec<(ReductionKernel, Vec<ArgInfo>)> = vec![
        (
            k(
                "T x",
                "T y",
                "x * x",
                "a + b",
                "y = sqrt(a)",
                Some("0"),
                "l2norm",
            ),
            vec![ArgInfo::array(DType::Float32)],
        ),
        (
            k(
                "T x, T w",
                "float64 y",
                "x * w",
                "a + b",
                "y = a / _in_ind.size() * _out_ind.size()",
                Some("0"),
                "wmean",
            )
            .with_reduce_type("float64")
            .unwrap(),
            vec![
                ArgInfo::array(DType::Float16),
                ArgInfo::array(DType::Float16),
            ],
        ),
        (
            k(
                "T x, T s",
                "T y, int64 cnt",
                "my_scale(x, s)",
                "a > b ? a : b",
                "y = a; cnt = _out_ind.size()",
                None,
                "scaled_max",
            )
            .with_preamble(
                "template <typename T> __device__ T my_scale(T x, T s) { return x * s; }",
            )
            .with_options(&["-DUNUSED_FLAG=1"]),
            vec![
                ArgInfo::array(DType::Int32),
                ArgInfo::Scalar(Operand::Scalar(ScalarKind::Int)),
            ],
        ),
        (
            k(
                "T x",
                "T y",
                "x",
                "a * b",
                "y = a",
                Some("T(1, 0)"),
                "cprod",
            ),
            vec![ArgInfo::array(DType::Complex128)],
        ),
        (
            k("T x", "T y", "x", "max(a, b)", "y = a", None, "mymax"),
            vec![ArgInfo::array(DType::Float32)],
        ),
        (
            k(
                "T x, raw W w",
                "T y",
                "x * w[_in_ind.get() / _out_ind.size()]",
                "a + b",
                "y = a",
                Some("0"),
                "rowweighted",
            ),
            vec![
                ArgInfo::array(DType::Float64),
                ArgInfo::Array {
                    dtype: DType::Float32,
                    ndim: 2,
                },
            ],
        ),
    ];
    for (kernel, args) in &user {
        for (n, v) in VARIANTS.iter().enumerate() {
            let mut s = kernel.spec(args, &[], *v).unwrap();
            s.name = format!("{}_{n}", s.name);
            specs.push(s);
        }
    }
    compile_batch("reductions_overrides_user", &specs);
}
