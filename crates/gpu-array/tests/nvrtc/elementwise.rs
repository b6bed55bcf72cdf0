//! Tier 2 (DESIGN.md, "Testing"): every elementwise kernel the library can
//! render compiles with the real NVRTC for sm_90 (and sm_80 with
//! `CUPRUM_TEST_ALL_ARCHS=1`): every type loop of every ufunc (contiguous,
//! vectorised, strided 1-d and 3-d; 32- and 64-bit indexing), `astype` for
//! every dtype pair, and user-defined `ElementwiseKernel`s. Kernels are batched
//! into a few large programs so that two cores get through in well under a
//! minute or two. Needs only the NVRTC library; skips with a reason without it.

// The expected values are NumPy's printed outputs, digit for digit; some
// happen to equal std's constants, which is the point, not a shortcut.
#![allow(clippy::approx_constant)]

use gpu_array::DType;
use gpu_array::dtype::{Operand, ScalarKind};
use gpu_array::elementwise::{
    ArgInfo, ElementwiseKernel, ElementwiseSpec, IndexWidth, LayoutClass, astype_spec,
    render_program,
};
use gpu_array::kernels::HEADERS;
use gpu_array::ufunc::{self, UfuncInput, UfuncParams};
use gpu_runtime::nvrtc::{self, CompileRequest};
use gpu_runtime::testing::{no_cache, nvrtc_or_skip};

/// Every layout variant, for user kernels.
const VARIANTS: [(LayoutClass, IndexWidth); 4] = crate::LAYOUTS;

/// The variants every ufunc loop is rendered with. The plain contiguous
/// loop is the vectorised kernel's tail loop, text for text, so it is
/// compiled there (and by the user kernels and casts, which take all four).
const UFUNC_VARIANTS: [(LayoutClass, IndexWidth); 3] = [VARIANTS[0], VARIANTS[2], VARIANTS[3]];

/// Compiles one program of `specs` for the test architectures and checks
/// that a sample of its kernels is in each image.
fn compile_batch(label: &str, specs: &[ElementwiseSpec]) {
    for s in specs {
        s.validate()
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", s.name));
    }
    let source = render_program(specs);
    assert_eq!(source, render_program(specs), "rendering is deterministic");
    let req = HEADERS
        .iter()
        .fold(CompileRequest::new(source), |r, (n, text)| {
            r.header(*n, *text)
        });
    let names = specs.iter().map(|s| s.name.clone()).collect();
    crate::compile_checked(
        label,
        &req,
        names,
        crate::NameCheck::Sample,
        gpu_runtime::testing::test_archs(),
    );
}

/// Specs for every loop of the named ufuncs, in every ufunc variant; plus, for
/// each ufunc's first loop, one kernel whose operands differ from the loop's
/// types (a bool array, a scalar, a float64 output) to cover the casts.
fn ufunc_specs(names: &[&str]) -> Vec<ElementwiseSpec> {
    let mut out = Vec::new();
    for name in names {
        let u = ufunc::get(name).unwrap();
        for lp in u.loops() {
            let inputs: Vec<Operand> = lp.inputs.iter().map(|&d| Operand::Array(d)).collect();
            let sig = lp.signature();
            let params = UfuncParams::default().signature(
                lp.inputs
                    .iter()
                    .chain(&lp.outputs)
                    .map(|&d| Some(d))
                    .collect(),
            );
            let r = u
                .resolve(&inputs, &params)
                .unwrap_or_else(|e| panic!("{name} {sig}: {e}"));
            assert_eq!(r.signature(), sig);
            let arrays: Vec<UfuncInput> = lp.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
            for (layout, index) in UFUNC_VARIANTS {
                out.push(r.spec(&arrays, &[], layout, index).unwrap());
            }
        }
        let first = &u.loops()[0];
        let inputs: Vec<Operand> = first.inputs.iter().map(|&d| Operand::Array(d)).collect();
        let r = u.resolve(&inputs, &UfuncParams::default()).unwrap();
        // The strided vector loop, its first input repeated along the rows
        // (stride 0) and the others in vectors.
        let arrays: Vec<UfuncInput> = first.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
        out.push(
            r.spec(
                &arrays,
                &[],
                LayoutClass::StridedVector {
                    ndim: 2,
                    zero_inner: 1,
                },
                IndexWidth::I32,
            )
            .unwrap(),
        );
        let mut mixed: Vec<UfuncInput> = vec![UfuncInput::Array(DType::Bool)];
        mixed.extend((1..u.nin()).map(|_| UfuncInput::Scalar));
        let outs = vec![DType::Complex128; u.nout()];
        out.push(
            r.spec(
                &mixed,
                &outs,
                LayoutClass::Contiguous { vectorized: true },
                IndexWidth::I64,
            )
            .unwrap(),
        );
    }
    out
}

fn ufunc_names(filter: impl Fn(&str) -> bool) -> Vec<&'static str> {
    ufunc::all()
        .iter()
        .map(|u| u.name())
        .filter(|n| filter(n))
        .collect()
}

/// The transcendental ufuncs: the heaviest to compile.
const TRANSCENDENTAL: &[&str] = &[
    "exp",
    "exp2",
    "log",
    "log2",
    "log10",
    "expm1",
    "log1p",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "power",
    "float_power",
];

#[test]
fn ufunc_transcendental_loops_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let names = ufunc_names(|n| TRANSCENDENTAL.contains(&n));
    assert_eq!(names.len(), TRANSCENDENTAL.len());
    compile_batch("ufunc_transcendental", &ufunc_specs(&names));
}

/// The other ufuncs, in two halves of the table (two tests, so that the
/// test threads share the work).
fn other_half(second: bool) -> Vec<&'static str> {
    let names = ufunc_names(|n| !TRANSCENDENTAL.contains(&n));
    let mid = names.len() / 2;
    if second {
        names[mid..].to_vec()
    } else {
        names[..mid].to_vec()
    }
}

#[test]
fn ufunc_arithmetic_loops_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    compile_batch("ufunc_arithmetic", &ufunc_specs(&other_half(false)));
}

#[test]
fn ufunc_comparison_and_floating_loops_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    compile_batch("ufunc_comparison", &ufunc_specs(&other_half(true)));
}

/// A loop with a register cap (`UfuncBuilder::max_registers`): NVRTC
/// takes the `__maxnreg__` its kernels carry, in each variant.
#[test]
fn register_capped_ufunc_loops_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let u = ufunc::UfuncBuilder::new("capped_lgamma", 1, 1, "lgamma, capped")
        .hom("f", "out0 = ::lgammaf(in0) + (float)::lgamma((double)in0);")
        .max_registers(&["f->f"], 32)
        .build()
        .unwrap();
    let u: &'static ufunc::Ufunc = Box::leak(Box::new(u));
    let lp = u
        .resolve(&[Operand::Array(DType::Float32)], &UfuncParams::default())
        .unwrap();
    let specs: Vec<ElementwiseSpec> = VARIANTS
        .iter()
        .map(|&(layout, index)| {
            let s = lp
                .spec(&[UfuncInput::Array(DType::Float32)], &[], layout, index)
                .unwrap();
            assert_eq!(s.max_registers, Some(32));
            s
        })
        .collect();
    compile_batch("capped", &specs);
}

#[test]
fn astype_every_pair_compiles() {
    let Some(()) = nvrtc_or_skip() else { return };
    let mut specs = Vec::new();
    for from in DType::ALL {
        for to in DType::ALL {
            for (layout, index) in [VARIANTS[0], VARIANTS[3]] {
                specs.push(astype_spec(from, to, layout, index));
            }
        }
    }
    assert_eq!(specs.len(), 15 * 15 * 2);
    compile_batch("astype", &specs);
}

#[test]
fn user_elementwise_kernels_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let arr = ArgInfo::array;
    let weak = |k| ArgInfo::Scalar(Operand::Scalar(k));
    let mut specs = Vec::new();
    let mut add = |k: &ElementwiseKernel, inputs: &[ArgInfo], outputs: &[ArgInfo], tag: &str| {
        for (layout, index) in VARIANTS {
            let mut s = k.spec(inputs, outputs, layout, index).unwrap();
            s.name = format!("{}_{tag}_{}", s.name, s.variant_tag());
            specs.push(s);
        }
    };
    let squared_diff = ElementwiseKernel::new(
        "float32 x, float32 y",
        "float32 z",
        "z = (x - y) * (x - y)",
        "squared_diff",
    )
    .unwrap();
    add(
        &squared_diff,
        &[arr(DType::Float32), weak(ScalarKind::Int)],
        &[],
        "s",
    );
    let generic = ElementwiseKernel::new(
        "T x, T y",
        "T z",
        "T diff = x - y;\nz = diff * diff;",
        "squared_diff_generic",
    )
    .unwrap();
    for dt in [
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::Complex64,
        DType::Float64,
    ] {
        add(&generic, &[arr(dt), arr(dt)], &[], dt.name());
    }
    let reverse = ElementwiseKernel::new(
        "T x, raw T y",
        "T z",
        "z = x + y[_ind.size() - i - 1]",
        "add_reverse",
    )
    .unwrap();
    add(
        &reverse,
        &[
            arr(DType::Float64),
            ArgInfo::Array {
                dtype: DType::Float64,
                ndim: 2,
            },
        ],
        &[],
        "f8",
    );
    let super_generic = ElementwiseKernel::new(
        "X x, Y y",
        "Z z",
        "z = cuprum::cast<Z>(x) + cuprum::cast<Z>(y)",
        "squared_diff_super_generic",
    )
    .unwrap();
    add(
        &super_generic,
        &[arr(DType::UInt8), arr(DType::Float16)],
        &[arr(DType::Complex128)],
        "mixed",
    );
    let with_preamble = ElementwiseKernel::new(
        "T x, float64 a",
        "T y, raw int64 hits",
        "y = clamp_to(x, a);\nif (y != x) atomicAdd((unsigned long long*)&hits[0], 1ull);\ny += x;",
        "clamp_count",
    )
    .unwrap()
    .with_preamble(
        "template <typename T> __device__ T clamp_to(T x, double a) { return x > T(a) ? T(a) : x; }",
    );
    add(
        &with_preamble,
        &[arr(DType::Float32), weak(ScalarKind::Float)],
        &[],
        "f4",
    );
    // The order statistics' pick kernel (a built-in) over the dtypes it
    // meets, in the same program.
    for (input, output) in [
        (DType::Float16, DType::Float16),
        (DType::Float32, DType::Float64),
        (DType::Float64, DType::Float64),
        (DType::Int32, DType::Float64),
        (DType::UInt8, DType::UInt8),
        (DType::Bool, DType::Bool),
    ] {
        let k = gpu_array::sorting::quantile_kernel_of(input, output);
        for (layout, index) in VARIANTS {
            specs.push(k.spec(layout, index).unwrap());
        }
    }
    compile_batch("user_kernels", &specs);
}

/// Advanced indexing's gather, scatters, offset sums and mask offsets
/// (`indexing::advanced`): every data dtype with int64 indices on the
/// path a gather takes, and a few dtypes with narrow indices over the
/// other layouts and index widths.
#[test]
fn advanced_indexing_kernels_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let mut specs = gpu_array::indexing::advanced::kernel_specs(
        &DType::ALL,
        &[DType::Int64],
        &[LayoutClass::Contiguous { vectorized: true }],
        &[IndexWidth::I32],
    );
    assert_eq!(specs.len(), DType::ALL.len() * 3 + 2 + 1);
    specs.extend(gpu_array::indexing::advanced::kernel_specs(
        &[DType::Float16, DType::Complex128, DType::Bool],
        &[DType::Int32, DType::UInt8],
        &[
            LayoutClass::Contiguous { vectorized: false },
            LayoutClass::Strided { ndim: 2 },
        ],
        &[IndexWidth::I64],
    ));
    compile_batch("advanced_indexing", &specs);
}

/// The boolean-mask compaction kernels (`indexing::compact`: the per-tile
/// count and the select kernel of every item size), each compiled against
/// its declared prototype, one raw program per architecture, every kernel
/// found in the cubin.
#[test]
fn mask_compaction_kernels_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let names = gpu_array::indexing::compact::kernel_names();
    assert_eq!(names.len(), 6);
    let req = gpu_array::kernels::request(gpu_array::indexing::compact::program_source());
    crate::compile_checked(
        "mask_compaction",
        &req,
        names,
        crate::NameCheck::All,
        gpu_runtime::testing::test_archs(),
    );
}

gpu_runtime::kernel_signature! {
    /// `cuprum_mask_count` as a mistaken declaration would have it: a
    /// 32-bit count.
    struct MaskCountInt32 {
        mask: In<bool>,
        counts: Out<i64>,
        n: i32,
    }
}

/// A declaration that differs from a real kernel's definition stops its
/// program from compiling: the compaction program with a prototype of
/// `cuprum_mask_count` whose `n` is an `int`.
#[test]
fn a_real_kernel_against_a_mismatched_declaration_does_not_compile() {
    use gpu_runtime::KernelSignature;
    let Some(()) = nvrtc_or_skip() else { return };
    let source = format!(
        "{}{}",
        gpu_array::indexing::compact::program_source(),
        MaskCountInt32::prototype("cuprum_mask_count", [])
    );
    let req = gpu_array::kernels::request(source).arch("sm_90");
    match nvrtc::compile_uncached(&req, &no_cache()) {
        Err(gpu_runtime::Error::Compile { log, .. }) => assert!(
            log.contains("cuprum_mask_count") && log.contains("\"C\" linkage"),
            "{log}"
        ),
        other => panic!("expected a conflicting declaration, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------
// Tier 3: a few generated kernels run on a GPU (skipped without one), with
// NumPy's (and, for float to integer casts, CuPy's) answers.

mod gpu {
    use super::*;
    use gpu_array::elementwise::OperandValue;
    use gpu_runtime::module::Module;
    use gpu_runtime::{KernelArg, LaunchConfig, Memory, Stream, alloc, memcpy_dtoh, memcpy_htod};

    fn upload(bytes: &[u8]) -> Memory {
        let m = alloc(bytes.len().max(16)).unwrap();
        // SAFETY: the test's own allocation, sized for the copy (or a bad
        // address the test expects the driver to reject).
        unsafe { memcpy_htod(m.ptr(), bytes) }.unwrap();
        m
    }

    fn download(m: &Memory, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        // SAFETY: the test's own allocation, sized for the copy (or a bad
        // address the test expects the driver to reject).
        unsafe { memcpy_dtoh(&mut v, m.ptr()) }.unwrap();
        v
    }

    fn launch(
        module: &Module,
        spec: &ElementwiseSpec,
        size: usize,
        shape: &[usize],
        ops: &[OperandValue<'_>],
    ) {
        let packed = spec.pack_args(size, shape, ops).unwrap();
        // cuLaunchKernel reads each parameter's size from its pointer.
        let bufs: Vec<[u8; 256]> = packed
            .params
            .iter()
            .map(|p| {
                let mut b = [0u8; 256];
                b[..p.len()].copy_from_slice(p);
                b
            })
            .collect();
        let args: Vec<&dyn KernelArg> = bufs.iter().map(|b| b as &dyn KernelArg).collect();
        let kernel = module.function(&spec.name).unwrap();
        let per_block = 64 * spec.elements_per_thread();
        let grid = size.div_ceil(per_block).clamp(1, 4) as u32;
        // SAFETY: the arguments are packed from the spec's own parameter
        // list; every pointer is a live allocation covering the offsets the
        // layout reaches.
        unsafe {
            kernel.launch(
                &LaunchConfig::linear(grid, 64),
                &Stream::current().unwrap(),
                &args,
            )
        }
        .unwrap();
    }

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn f64s(v: &[f64]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn i32s(v: &[i32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }
    fn to_f64(b: &[u8]) -> Vec<f64> {
        b.chunks(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
    fn to_f32(b: &[u8]) -> Vec<f32> {
        b.chunks(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
    fn to_i32(b: &[u8]) -> Vec<i32> {
        b.chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }

    fn close(a: f64, b: f64) -> bool {
        (a.is_nan() && b.is_nan()) || (a - b).abs() <= 1e-14 * b.abs().max(1.0) * 8.0
    }

    /// A unary ufunc loop with contiguous layout over `n` elements.
    fn unary(name: &str, sig: &str) -> ElementwiseSpec {
        let u = ufunc::get(name).unwrap();
        let lp = u.loops().iter().find(|l| l.signature() == sig).unwrap();
        let ins: Vec<Operand> = lp.inputs.iter().map(|&d| Operand::Array(d)).collect();
        let r = u.resolve(&ins, &UfuncParams::default()).unwrap();
        assert_eq!(r.signature(), sig);
        let arrays: Vec<UfuncInput> = lp.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
        r.spec(
            &arrays,
            &[],
            LayoutClass::Strided { ndim: 1 },
            IndexWidth::I64,
        )
        .unwrap()
    }

    fn binary(name: &str, sig: &str, layout: LayoutClass) -> ElementwiseSpec {
        let u = ufunc::get(name).unwrap();
        let lp = u.loops().iter().find(|l| l.signature() == sig).unwrap();
        let ins: Vec<Operand> = lp.inputs.iter().map(|&d| Operand::Array(d)).collect();
        let r = u
            .resolve(
                &ins,
                &UfuncParams::default().signature(
                    lp.inputs
                        .iter()
                        .chain(&lp.outputs)
                        .map(|&d| Some(d))
                        .collect(),
                ),
            )
            .unwrap();
        let arrays: Vec<UfuncInput> = lp.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
        r.spec(&arrays, &[], layout, IndexWidth::I32).unwrap()
    }

    #[test]
    fn generated_kernels_compute_numpy_answers() {
        let Some(_dev) = gpu_runtime::testing::device_or_skip() else {
            return;
        };
        let cv = LayoutClass::Contiguous { vectorized: true };
        let c = LayoutClass::Contiguous { vectorized: false };
        let casts: Vec<ElementwiseSpec> = [
            DType::Int8,
            DType::UInt8,
            DType::UInt32,
            DType::Int32,
            DType::Bool,
        ]
        .iter()
        .map(|&to| astype_spec(DType::Float32, to, c, IndexWidth::I64))
        .collect();
        let cplx = [
            "sqrt", "log", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "tan",
            "cos",
        ];
        let mut specs = casts.clone();
        specs.extend(cplx.iter().map(|n| unary(n, "D->D")));
        let fdiv = binary("floor_divide", "ii->i", cv);
        let rem = binary("remainder", "ii->i", cv);
        let add = binary("add", "ff->f", cv);
        let mul3 = binary("multiply", "dd->d", LayoutClass::Strided { ndim: 3 });
        let fmod = binary("fmod", "dd->d", c);
        let remf = binary("remainder", "dd->d", c);
        let maxf = binary("maximum", "ff->f", c);
        let fmaxf = binary("fmax", "ff->f", c);
        let reverse = ElementwiseKernel::new(
            "T x, raw T y",
            "T z",
            "z = x + y[_ind.size() - i - 1]",
            "add_reverse",
        )
        .unwrap()
        .spec(
            &[
                ArgInfo::array(DType::Float32),
                ArgInfo::array(DType::Float32),
            ],
            &[],
            cv,
            IndexWidth::I32,
        )
        .unwrap();
        specs.extend([
            fdiv.clone(),
            rem.clone(),
            add.clone(),
            mul3.clone(),
            fmod.clone(),
            remf.clone(),
            maxf.clone(),
            fmaxf.clone(),
            reverse.clone(),
        ]);
        let mut req = CompileRequest::new(render_program(&specs));
        for (name, text) in HEADERS {
            req = req.header(name, text);
        }
        let module = Module::from_request(&req).unwrap();

        // float32 -> integers and bool: CuPy's answers.
        let xs = [-1.0f32, 300.0, f32::INFINITY, f32::NAN, 2.7, -2.7];
        let x = upload(&f32s(&xs));
        let expected: [(DType, Vec<i64>); 5] = [
            (DType::Int8, vec![-1, 44, -1, 0, 2, -2]),
            (DType::UInt8, vec![0, 44, 255, 0, 2, 0]),
            (DType::UInt32, vec![0, 300, 4294967295, 0, 2, 0]),
            (DType::Int32, vec![-1, 300, 2147483647, 0, 2, -2]),
            (DType::Bool, vec![1, 1, 1, 1, 1, 1]),
        ];
        for (spec, (to, want)) in casts.iter().zip(expected) {
            let y = alloc(64).unwrap();
            launch(
                &module,
                spec,
                6,
                &[6],
                &[
                    OperandValue::Array {
                        ptr: x.ptr().raw(),
                        strides: &[4],
                    },
                    OperandValue::Array {
                        ptr: y.ptr().raw(),
                        strides: &[to.itemsize() as isize],
                    },
                ],
            );
            let b = download(&y, 6 * to.itemsize());
            let got: Vec<i64> = match to {
                DType::Int8 => b.iter().map(|&v| v as i8 as i64).collect(),
                DType::UInt8 | DType::Bool => b.iter().map(|&v| v as i64).collect(),
                DType::UInt32 => b
                    .chunks(4)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as i64)
                    .collect(),
                _ => to_i32(&b).into_iter().map(i64::from).collect(),
            };
            eprintln!("float32 {xs:?} -> {to}: {got:?}");
            assert_eq!(got, want, "float32 -> {to}");
        }

        // Complex functions on NumPy's branch cuts (complex128, stride 16).
        let zs = [
            (-4.0, 0.0),
            (-4.0, -0.0),
            (2.0, 0.0),
            (0.0, 2.0),
            (-2.0, 0.0),
            (1.0, 1.0),
            (1.0, 2.0),
        ];
        let zb: Vec<u8> = zs.iter().flat_map(|&(r, i)| f64s(&[r, i])).collect();
        let z = upload(&zb);
        // NumPy 2.5.2 on the inputs above.
        let numpy: &[(&str, [(f64, f64); 7])] = &[
            (
                "sqrt",
                [
                    (0.0, 2.0),
                    (0.0, -2.0),
                    (1.4142135623730951, 0.0),
                    (1.0, 1.0),
                    (0.0, 1.4142135623730951),
                    (1.09868411346781, 0.45508986056222733),
                    (1.272019649514069, 0.7861513777574233),
                ],
            ),
            (
                "log",
                [
                    (1.3862943611198906, 3.141592653589793),
                    (1.3862943611198906, -3.141592653589793),
                    (0.6931471805599453, 0.0),
                    (0.6931471805599453, 1.5707963267948966),
                    (0.6931471805599453, 3.141592653589793),
                    (0.34657359027997264, 0.7853981633974483),
                    (0.8047189562170503, 1.1071487177940904),
                ],
            ),
            (
                "arcsin",
                [
                    (-1.5707963267948966, 2.0634370688955608),
                    (-1.5707963267948966, -2.0634370688955608),
                    (1.5707963267948966, 1.3169578969248166),
                    (0.0, 1.4436354751788103),
                    (-1.5707963267948966, 1.3169578969248166),
                    (0.6662394324925153, 1.0612750619050357),
                    (0.42707858639247614, 1.528570919480998),
                ],
            ),
            (
                "arccos",
                [
                    (3.141592653589793, -2.0634370688955608),
                    (3.141592653589793, 2.0634370688955608),
                    (0.0, -1.3169578969248166),
                    (1.5707963267948966, -1.4436354751788103),
                    (3.141592653589793, -1.3169578969248166),
                    (0.9045568943023813, -1.0612750619050357),
                    (1.1437177404024206, -1.528570919480998),
                ],
            ),
            (
                "arctan",
                [
                    (-1.3258176636680326, 0.0),
                    (-1.3258176636680326, -0.0),
                    (1.1071487177940904, 0.0),
                    (1.5707963267948966, 0.5493061443340549),
                    (-1.1071487177940904, 0.0),
                    (1.0172219678978514, 0.40235947810852507),
                    (1.3389725222944935, 0.40235947810852507),
                ],
            ),
            (
                "arcsinh",
                [
                    (-2.0947125472611012, 0.0),
                    (-2.0947125472611012, -0.0),
                    (1.4436354751788103, 0.0),
                    (1.3169578969248166, 1.5707963267948966),
                    (-1.4436354751788103, 0.0),
                    (1.0612750619050357, 0.6662394324925153),
                    (1.4693517443681852, 1.0634400235777521),
                ],
            ),
            (
                "arccosh",
                [
                    (2.0634370688955608, 3.141592653589793),
                    (2.0634370688955608, -3.141592653589793),
                    (1.3169578969248166, 0.0),
                    (1.4436354751788103, 1.5707963267948966),
                    (1.3169578969248166, 3.141592653589793),
                    (1.0612750619050357, 0.9045568943023813),
                    (1.528570919480998, 1.1437177404024206),
                ],
            ),
            (
                "arctanh",
                [
                    (-0.25541281188299536, 1.5707963267948966),
                    (-0.25541281188299536, -1.5707963267948966),
                    (0.5493061443340549, 1.5707963267948966),
                    (0.0, 1.1071487177940904),
                    (-0.5493061443340549, 1.5707963267948966),
                    (0.40235947810852507, 1.0172219678978514),
                    (0.17328679513998632, 1.1780972450961724),
                ],
            ),
            (
                "tan",
                [
                    (-1.1578212823495775, 0.0),
                    (-1.1578212823495775, -0.0),
                    (-2.185039863261519, 0.0),
                    (0.0, 0.9640275800758168),
                    (2.185039863261519, 0.0),
                    (0.2717525853195118, 1.0839233273386946),
                    (0.03381282607989669, 1.0147936161466335),
                ],
            ),
            (
                "cos",
                [
                    (-0.6536436208636119, -0.0),
                    (-0.6536436208636119, 0.0),
                    (-0.4161468365471424, -0.0),
                    (3.7621956910836314, -0.0),
                    (-0.4161468365471424, 0.0),
                    (0.8337300251311491, -0.9888977057628651),
                    (2.0327230070196656, -3.0518977991518),
                ],
            ),
        ];
        for (name, want) in numpy {
            let spec = specs
                .iter()
                .find(|s| s.name.starts_with(&format!("cuprum_{name}_")))
                .unwrap();
            let y = alloc(16 * zs.len()).unwrap();
            launch(
                &module,
                spec,
                zs.len(),
                &[zs.len()],
                &[
                    OperandValue::Array {
                        ptr: z.ptr().raw(),
                        strides: &[16],
                    },
                    OperandValue::Array {
                        ptr: y.ptr().raw(),
                        strides: &[16],
                    },
                ],
            );
            let got = to_f64(&download(&y, 16 * zs.len()));
            for (k, &(re, im)) in want.iter().enumerate() {
                let (gr, gi) = (got[2 * k], got[2 * k + 1]);
                assert!(
                    close(gr, re) && close(gi, im),
                    "{name}{:?} = ({gr}, {gi}), NumPy ({re}, {im})",
                    zs[k]
                );
            }
        }

        // Python's integer floor division and remainder; vector path + tail.
        let a_i = [7, -7, 7, -7, 5, i32::MIN];
        let b_i = [2, 2, -2, -2, 0, -1];
        let (ga, gb) = (upload(&i32s(&a_i)), upload(&i32s(&b_i)));
        for (spec, want) in [
            (&fdiv, [3, -4, -4, 3, 0, i32::MIN]),
            (&rem, [1, 1, -1, -1, 0, 0]),
        ] {
            let y = alloc(64).unwrap();
            launch(
                &module,
                spec,
                6,
                &[],
                &[
                    OperandValue::Array {
                        ptr: ga.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: gb.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: y.ptr().raw(),
                        strides: &[],
                    },
                ],
            );
            assert_eq!(to_i32(&download(&y, 24)), want, "{}", spec.name);
        }

        // Float remainders and NaN rules.
        let fa = upload(&f64s(&[-7.5, 7.5, 1.0]));
        let fb = upload(&f64s(&[2.0, -2.0, 0.0]));
        for (spec, want) in [
            (&fmod, [-1.5, 1.5, f64::NAN]),
            (&remf, [0.5, -0.5, f64::NAN]),
        ] {
            let y = alloc(64).unwrap();
            launch(
                &module,
                spec,
                3,
                &[],
                &[
                    OperandValue::Array {
                        ptr: fa.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: fb.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: y.ptr().raw(),
                        strides: &[],
                    },
                ],
            );
            let got = to_f64(&download(&y, 24));
            assert!(
                got.iter().zip(want).all(|(&g, w)| close(g, w)),
                "{}: {got:?}",
                spec.name
            );
        }
        let na = upload(&f32s(&[f32::NAN, 1.0, f32::NAN]));
        let nb = upload(&f32s(&[1.0, f32::NAN, f32::NAN]));
        for (spec, want) in [
            (&maxf, [f64::NAN, f64::NAN, f64::NAN]),
            (&fmaxf, [1.0, 1.0, f64::NAN]),
        ] {
            let y = alloc(64).unwrap();
            launch(
                &module,
                spec,
                3,
                &[],
                &[
                    OperandValue::Array {
                        ptr: na.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: nb.ptr().raw(),
                        strides: &[],
                    },
                    OperandValue::Array {
                        ptr: y.ptr().raw(),
                        strides: &[],
                    },
                ],
            );
            let got = to_f32(&download(&y, 12));
            assert!(
                got.iter().zip(want).all(|(&g, w)| close(g as f64, w)),
                "{}: {got:?}",
                spec.name
            );
        }

        // Vectorised add with a tail, and a raw reversed operand.
        let n = 1003;
        let xv: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let yv: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
        let (gx, gy) = (upload(&f32s(&xv)), upload(&f32s(&yv)));
        let gz = alloc(4 * n).unwrap();
        assert!(add.is_vector_aligned(&[gx.ptr().raw(), gy.ptr().raw(), gz.ptr().raw()]));
        launch(
            &module,
            &add,
            n,
            &[],
            &[
                OperandValue::Array {
                    ptr: gx.ptr().raw(),
                    strides: &[],
                },
                OperandValue::Array {
                    ptr: gy.ptr().raw(),
                    strides: &[],
                },
                OperandValue::Array {
                    ptr: gz.ptr().raw(),
                    strides: &[],
                },
            ],
        );
        let got = to_f32(&download(&gz, 4 * n));
        assert!(
            got.iter().enumerate().all(|(i, &v)| v == 3.0 * i as f32),
            "vectorised add"
        );
        launch(
            &module,
            &reverse,
            n,
            &[],
            &[
                OperandValue::Array {
                    ptr: gx.ptr().raw(),
                    strides: &[],
                },
                OperandValue::Raw {
                    ptr: gy.ptr().raw(),
                    shape: &[n],
                    strides: &[4],
                },
                OperandValue::Array {
                    ptr: gz.ptr().raw(),
                    strides: &[],
                },
            ],
        );
        let got = to_f32(&download(&gz, 4 * n));
        assert!(
            got.iter()
                .enumerate()
                .all(|(i, &v)| v == i as f32 + 2.0 * (n - 1 - i) as f32),
            "raw reverse"
        );

        // Strided 3-d with a broadcast operand: (2,3,4) * (2,1,4).
        let xm: Vec<f64> = (0..24).map(f64::from).collect();
        let ym: Vec<f64> = (0..8).map(|v| f64::from(v) + 1.0).collect();
        let (gx, gy) = (upload(&f64s(&xm)), upload(&f64s(&ym)));
        let gz = alloc(8 * 24).unwrap();
        launch(
            &module,
            &mul3,
            24,
            &[2, 3, 4],
            &[
                OperandValue::Array {
                    ptr: gx.ptr().raw(),
                    strides: &[96, 32, 8],
                },
                OperandValue::Array {
                    ptr: gy.ptr().raw(),
                    strides: &[32, 0, 8],
                },
                OperandValue::Array {
                    ptr: gz.ptr().raw(),
                    strides: &[96, 32, 8],
                },
            ],
        );
        let got = to_f64(&download(&gz, 8 * 24));
        for i in 0..2 {
            for j in 0..3 {
                for k in 0..4 {
                    assert_eq!(
                        got[i * 12 + j * 4 + k],
                        xm[i * 12 + j * 4 + k] * ym[i * 4 + k]
                    );
                }
            }
        }
    }
}

/// The kernels of the indexing routines (choose, place, putmask,
/// fill_diagonal, ravel_multi_index, unravel_index), the scatter atomics
/// (every op over every dtype it supports: native atomics, the 32-bit word
/// CAS of 1- and 2-byte types, the float and complex64 CAS loops) and
/// packbits/unpackbits, over layouts and index widths.
#[test]
fn indexing_routine_and_bit_kernels_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let mut specs = gpu_array::indexing::routine_kernel_specs(
        &DType::ALL,
        &[DType::Int64],
        &[LayoutClass::Contiguous { vectorized: true }],
        &[IndexWidth::I32],
    );
    // 15 dtypes through choose, place, putmask and fill_diagonal; ravel and
    // unravel; scatter: 15 x 3 ops less complex128 max/min.
    assert_eq!(specs.len(), 15 * 4 + 2 + 15 * 3 - 2);
    // Other index dtypes, a strided layout and 64-bit indexing.
    specs.extend(gpu_array::indexing::routine_kernel_specs(
        &[DType::Float16, DType::Complex64, DType::Bool],
        &[DType::Int32, DType::UInt8],
        &[LayoutClass::Strided { ndim: 3 }],
        &[IndexWidth::I64],
    ));
    specs.extend(gpu_array::logic::bit_kernel_specs(
        &[DType::Bool, DType::Int8, DType::UInt64, DType::Int32],
        &[LayoutClass::Contiguous { vectorized: true }],
        &[IndexWidth::I32],
    ));
    specs.extend(gpu_array::logic::bit_kernel_specs(
        &[DType::Bool],
        &[LayoutClass::Strided { ndim: 2 }],
        &[IndexWidth::I64],
    ));
    compile_batch("indexing_routines", &specs);
}
