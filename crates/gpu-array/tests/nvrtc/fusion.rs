//! Tier 2 (DESIGN.md, "Testing"): fused kernels compile with the real NVRTC for
//! sm_90 (and sm_80 with `CUPRUM_TEST_ALL_ARCHS=1`). Elementwise: every type
//! loop of every ufunc traced through `fx::ufunc` (so every loop statement
//! compiles inside a fused chain), chains with constants of every kind (inf,
//! NaN, -0.0, complex, int64's minimum, uint64's maximum), `where`, `astype`,
//! folded comparisons and scalar arguments, in every layout. Reductions: one
//! reduction (sum, prod, max, min, mean over several dtypes, `dtype=`) and
//! several reductions in one kernel (struct accumulators of mixed types), in
//! every strategy of the planner (`Strategy::ALL`). Batched into a few
//! programs; needs only the NVRTC library and skips with a reason without it.

use gpu_array::DType;
use gpu_array::dtype::ScalarKind;
use gpu_array::elementwise::{self, ElementwiseSpec, IndexWidth};
use gpu_array::fusion::{ArgSig, FVar, fuse, fx};
use gpu_array::reduction::{self, ReduceOptions, ReductionSpec, Strategy, Variant};
use gpu_array::ufunc;
use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::testing::nvrtc_or_skip;

use crate::LAYOUTS;

/// Every strategy of the planner, with kept and reduced ranks and index
/// widths varied across them.
fn variants() -> Vec<Variant> {
    Strategy::ALL
        .iter()
        .enumerate()
        .map(|(k, &s)| {
            let index = if k % 2 == 0 {
                IndexWidth::I32
            } else {
                IndexWidth::I64
            };
            Variant::new(s, 1 + k % 2, 1 + (k / 2) % 2, index)
        })
        .collect()
}

fn compile(label: &str, req: CompileRequest, names: Vec<String>) {
    crate::compile_checked(
        label,
        &req,
        names,
        crate::NameCheck::All,
        gpu_runtime::testing::test_archs(),
    );
}

fn compile_elementwise(label: &str, specs: &[ElementwiseSpec]) {
    for s in specs {
        s.validate()
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", s.name));
    }
    let names = specs.iter().map(|s| s.name.clone()).collect();
    compile(label, elementwise::program_request(specs), names);
}

fn compile_reductions(label: &str, specs: &[ReductionSpec]) {
    for s in specs {
        s.validate()
            .unwrap_or_else(|e| panic!("{label}: {}: {e}", s.name));
    }
    let names = specs.iter().flat_map(|s| s.kernel_names()).collect();
    compile(label, reduction::program_request(specs), names);
}

fn arrays(dtypes: &[DType], ndim: usize) -> Vec<ArgSig> {
    dtypes.iter().map(|&d| ArgSig::array(d, ndim)).collect()
}

#[test]
fn every_ufunc_loop_compiles_fused() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    for u in ufunc::all() {
        let name = u.name();
        let f = fuse(format!("fz_{name}"), move |xs: &[FVar]| -> Vec<FVar> {
            let args: Vec<_> = xs.iter().map(Into::into).collect();
            // The loop's results, then each fed to one more operation
            // so that a chain crosses the node boundary.
            let outs = fx::ufunc(name, &args);
            let mut all = outs.clone();
            all.extend(outs.iter().map(|o| fx::where_(o.not_equal(0), o, 1)));
            all
        });
        for (k, lp) in u.loops().iter().enumerate() {
            let t = f
                .trace(&arrays(&lp.inputs, 1))
                .unwrap_or_else(|e| panic!("{name} {}: {e}", lp.signature()));
            let (layout, index) = LAYOUTS[k % LAYOUTS.len()];
            let mut s = t.elementwise_spec(layout, index).unwrap();
            s.name = format!("fz_{name}_{k}");
            specs.push(s);
        }
    }
    assert!(specs.len() > 500, "{}", specs.len());
    compile_elementwise("fused_ufunc_loops", &specs);
}

#[test]
fn elementwise_chains_compile_in_every_layout() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let squared_diff = fuse("squared_diff", |x: &FVar, y: &FVar| {
        let d = x - y;
        &d * &d
    });
    let consts = fuse("consts", |x: &FVar| {
        (
            x * f64::INFINITY + f64::NAN,
            fx::maximum(x, -0.0) - num_complex::Complex::new(1.5, -2.0),
            fx::where_(x.greater(0.5), i64::MIN, u64::MAX),
            fx::copysign(x.astype(DType::Float32), -1e-300),
        )
    });
    let mixed = fuse("mixed", |c: &FVar, x: &FVar, s: &FVar, n: &FVar| {
        let y = fx::where_(c, fx::exp(x) * s, fx::log1p(fx::abs(x)));
        (
            y.astype(DType::Float16),
            (x * n).less(300),
            !c.astype(DType::Bool),
            fx::divmod(x, n).1,
        )
    });
    let mut specs = Vec::new();
    let mut add = |t: std::sync::Arc<gpu_array::fusion::Trace>, tag: &str| {
        for (k, (l, i)) in LAYOUTS.into_iter().enumerate() {
            let mut s = t.elementwise_spec(l, i).unwrap();
            s.name = format!("{}_{tag}_{k}", s.name);
            specs.push(s);
        }
    };
    for d in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::UInt64,
        DType::Complex64,
    ] {
        let name = d.name();
        add(squared_diff.trace(&arrays(&[d, d], 2)).unwrap(), name);
        add(
            squared_diff
                .trace(&[ArgSig::array(d, 2), ArgSig::Scalar(ScalarKind::Float)])
                .unwrap(),
            &format!("{name}_s"),
        );
        add(consts.trace(&arrays(&[d], 1)).unwrap(), name);
    }
    for (c, x) in [
        (DType::Bool, DType::Float32),
        (DType::Int32, DType::UInt8),
        (DType::Float64, DType::Int16),
    ] {
        let t = mixed
            .trace(&[
                ArgSig::array(c, 2),
                ArgSig::array(x, 1),
                ArgSig::Scalar(ScalarKind::Float),
                ArgSig::Scalar(ScalarKind::Int),
            ])
            .unwrap();
        add(t, &format!("{}_{}", c.name(), x.name()));
    }
    compile_elementwise("fused_chains", &specs);
}

#[test]
fn one_reduction_compiles_in_every_strategy() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    let dot = |name: &str| {
        let name = name.to_owned();
        fuse(name, |x: &FVar, y: &FVar| {
            (x * y).sum(ReduceOptions::axis(-1))
        })
    };
    type Body = fn(&FVar) -> FVar;
    let ops: Vec<(&str, Body)> = vec![
        ("fr_prod", |x| fx::square(x).prod(ReduceOptions::default())),
        ("fr_max", |x| (x + 1).max(ReduceOptions::axis(0))),
        ("fr_min", |x| {
            fx::negative(x).min(ReduceOptions::axis(0).keepdims(true))
        }),
        ("fr_mean", |x| fx::sqrt(x).mean(ReduceOptions::default())),
        ("fr_sum_f8", |x| {
            x.sum(ReduceOptions::default().dtype(DType::Float64))
        }),
    ];
    for d in [
        DType::Float32,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::UInt32,
        DType::Float64,
        DType::Complex64,
        DType::Bool,
    ] {
        let f = dot(&format!("fr_dot_{}", d.name()));
        if let Ok(t) = f.trace(&arrays(&[d, d], 2)) {
            for (n, v) in variants().iter().enumerate() {
                let mut s = t.reduction_spec(*v).unwrap();
                s.name = format!("{}_{n}", s.name);
                specs.push(s);
            }
        }
        for &(name, op) in &ops {
            let f = fuse(format!("{name}_{}", d.name()), move |x: &FVar| op(x));
            let Ok(t) = f.trace(&arrays(&[d], 2)) else {
                continue; // e.g. sqrt of bool is float16: fine; errors are skipped
            };
            for (n, v) in variants().iter().enumerate() {
                let mut s = t.reduction_spec(*v).unwrap();
                s.name = format!("{}_{n}", s.name);
                specs.push(s);
            }
        }
    }
    assert!(specs.len() > 150, "{}", specs.len());
    compile_reductions("fused_one_reduction", &specs);
}

#[test]
fn several_reductions_compile_in_every_strategy() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    let mut specs = Vec::new();
    let moments = |name: String| {
        fuse(name, |x: &FVar| {
            let o = ReduceOptions::axis(-1);
            (x.sum(&o), (x * x).sum(&o))
        })
    };
    let stats = |name: String| {
        fuse(name, |x: &FVar, w: &FVar, s: &FVar| {
            let o = ReduceOptions::axes(&[0, 1]);
            let y = x * w + s;
            (
                y.sum(&o),
                y.max(o.clone().keepdims(true)),
                y.mean(&o),
                x.astype(DType::Bool).sum(&o),
                fx::abs(y).min(&o),
                x.astype(DType::Complex128).prod(&o),
            )
        })
    };
    for d in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::Int8,
        DType::Int64,
        DType::Complex64,
    ] {
        let t = moments(format!("fm_{}", d.name()))
            .trace(&arrays(&[d], 2))
            .unwrap();
        assert_eq!(t.reduction_count(), 2);
        for (n, v) in variants().iter().enumerate() {
            let mut s = t.reduction_spec(*v).unwrap();
            s.name = format!("{}_{n}", s.name);
            specs.push(s);
        }
        let t = stats(format!("fs_{}", d.name()))
            .trace(&[
                ArgSig::array(d, 3),
                ArgSig::array(DType::Float32, 1),
                ArgSig::Scalar(ScalarKind::Int),
            ])
            .unwrap();
        // y.sum and y.mean share one field.
        assert_eq!(t.reduction_count(), 5);
        for (n, v) in variants().iter().enumerate() {
            let mut s = t.reduction_spec(*v).unwrap();
            s.name = format!("{}_{n}", s.name);
            specs.push(s);
        }
    }
    compile_reductions("fused_several_reductions", &specs);
}

/// The reductions added to fuse (all, any, count_nonzero and the nan
/// forms), together in one kernel and each alone, over float, integer,
/// bool and complex inputs, in every strategy; and the kernels that a
/// call's `dtype=` and `out=` dtypes trace.
#[test]
fn nan_and_logical_reductions_compile_in_every_strategy() {
    if nvrtc_or_skip().is_none() {
        return;
    }
    use gpu_array::fusion::CallSig;
    let mut specs = Vec::new();
    let add = |specs: &mut Vec<ReductionSpec>,
               t: std::sync::Arc<gpu_array::fusion::Trace>,
               tag: String| {
        for (n, v) in variants().iter().enumerate() {
            let mut s = t.reduction_spec(*v).unwrap();
            s.name = format!("{tag}_{n}");
            specs.push(s);
        }
    };
    let all_new = fuse("fn_all", |x: &FVar, y: &FVar| {
        let o = ReduceOptions::axis(-1);
        let v = x * y;
        (
            v.all(&o),
            v.any(o.clone().keepdims(true)),
            fx::count_nonzero(&v, &o),
            fx::nansum(&v, &o),
            fx::nanprod(&v, &o),
            fx::nanmax(&v, &o),
            fx::nanmin(&v, &o),
            fx::nanmean(&v, &o),
        )
    });
    let names = [
        "all",
        "any",
        "count_nonzero",
        "nansum",
        "nanprod",
        "nanmax",
        "nanmin",
        "nanmean",
    ];
    for d in [
        DType::Float32,
        DType::Float64,
        DType::Float16,
        DType::BFloat16,
        DType::Int8,
        DType::UInt64,
        DType::Bool,
        DType::Complex64,
        DType::Complex128,
    ] {
        let sig = arrays(&[d, d], 2);
        // bool * bool is logical_and: fine; every dtype traces.
        add(
            &mut specs,
            all_new.trace(&sig).unwrap(),
            format!("fn_all_{}", d.name()),
        );
        for name in names {
            let f = fuse(format!("fn_{name}"), move |x: &FVar| {
                fx::reduction(name, x, ReduceOptions::default())
            });
            let t = f.trace(&arrays(&[d], 3)).unwrap();
            // One strategy each: the map and combine are what differ.
            let v = variants()[names.iter().position(|n| *n == name).unwrap() % 4];
            let mut s = t.reduction_spec(v).unwrap();
            s.name = format!("fn_{name}_{}", d.name());
            specs.push(s);
        }
    }
    // dtype= on the call, out= dtypes (sum accumulating in its out= dtype).
    let mixed = fuse("fn_kw", |x: &FVar| {
        let o = ReduceOptions::axes(&[0, 1]);
        (x.sum(&o), fx::nanmean(x, &o), x.max(&o), fx::nanprod(x, &o))
    });
    for (d, call) in [
        (
            DType::Float16,
            CallSig {
                dtype: Some(DType::Float64),
                out: Vec::new(),
            },
        ),
        (
            DType::Int32,
            CallSig {
                dtype: None,
                out: vec![
                    Some(DType::Int16),
                    Some(DType::Float32),
                    None,
                    Some(DType::Int8),
                ],
            },
        ),
        (
            DType::Float32,
            CallSig {
                dtype: Some(DType::Complex128),
                out: vec![None, Some(DType::Complex128), Some(DType::Float64), None],
            },
        ),
    ] {
        let t = mixed.trace_with(&arrays(&[d], 3), &call).unwrap();
        add(
            &mut specs,
            t,
            format!("fn_kw_{}_{}", d.name(), call.out.len()),
        );
    }
    compile_reductions("fused_nan_logical_reductions", &specs);
    // Elementwise results written into out= arrays of other dtypes.
    let ew = fuse("fn_ew", |x: &FVar, y: &FVar| (x * y + 1, x.less(y)));
    let mut specs = Vec::new();
    for (d, out) in [
        (DType::Int16, [Some(DType::Float32), Some(DType::Int8)]),
        (DType::Float32, [Some(DType::Complex64), None]),
        (DType::UInt8, [None, Some(DType::Float16)]),
    ] {
        let call = CallSig {
            dtype: None,
            out: out.to_vec(),
        };
        let t = ew.trace_with(&arrays(&[d, d], 2), &call).unwrap();
        for (k, (l, i)) in LAYOUTS.into_iter().enumerate() {
            let mut s = t.elementwise_spec(l, i).unwrap();
            s.name = format!("fn_ew_{}_{k}", d.name());
            specs.push(s);
        }
    }
    compile_elementwise("fused_out_dtypes", &specs);
}
