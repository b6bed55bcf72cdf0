//! Host tests of fusion: tracing, type resolution against the unfused
//! ufuncs, the rendered kernels, and the trace-time errors.

use super::*;
use crate::dtype::{DType, Operand, ScalarKind};
use crate::elementwise::{IndexWidth, LayoutClass};
use crate::reduction::{ReduceOptions, Strategy, Variant};
use crate::ufunc::{self, UfuncParams};

const V: Variant = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
const CV: LayoutClass = LayoutClass::Contiguous { vectorized: true };

fn arr(d: DType, ndim: usize) -> ArgSig {
    ArgSig::array(d, ndim)
}

fn unfused(name: &str, ops: &[Operand]) -> std::result::Result<Vec<DType>, String> {
    ufunc::get(name)
        .unwrap()
        .resolve(ops, &UfuncParams::default())
        .map(|r| r.outputs.to_vec())
        .map_err(|e| e.to_string())
}

fn sig_of(op: Operand) -> ArgSig {
    match op {
        Operand::Array(d) => arr(d, 1),
        Operand::Scalar(k) => ArgSig::Scalar(k),
    }
}

#[test]
fn squared_diff_traces_to_one_elementwise_kernel() {
    let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
        let d = x - y;
        &d * &d
    });
    let t = f
        .trace(&[arr(DType::Float32, 2), arr(DType::Float32, 2)])
        .unwrap();
    assert!(!t.is_reduction());
    assert_eq!(t.output_dtypes(), vec![DType::Float32]);
    assert_eq!(t.output_ndims(), vec![2]);
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert_eq!(s.name, "squared_diff");
    assert_eq!(s.elements_per_thread(), 4);
    assert!(!s.read_outputs);
    let names: Vec<&str> = s.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["x0", "x1", "y0"]);
    // The whole loop body, as rendered (a snapshot).
    assert_eq!(
        s.operation,
        "float _fv2_0;\n\
         {  // subtract ff->f\n  typedef float in0_type;\n  typedef float in1_type;\n  \
         typedef float out0_type;\n  const in0_type in0 = cuprum::cast<in0_type>(x0);\n  \
         const in1_type in1 = cuprum::cast<in1_type>(x1);\n  out0_type out0;\n  \
         out0 = in0 - in1;\n  _fv2_0 = out0;\n}\n\
         float _fv3_0;\n\
         {  // multiply ff->f\n  typedef float in0_type;\n  typedef float in1_type;\n  \
         typedef float out0_type;\n  const in0_type in0 = cuprum::cast<in0_type>(_fv2_0);\n  \
         const in1_type in1 = cuprum::cast<in1_type>(_fv2_0);\n  out0_type out0;\n  \
         out0 = in0 * in1;\n  _fv3_0 = out0;\n}\n\
         y0 = cuprum::cast<y0_type>(_fv3_0);\n"
    );
    let src = s.render();
    assert!(
        src.contains("extern \"C\" __global__ void squared_diff("),
        "{src}"
    );
    assert!(src.contains("cuprum::vload<_E>(_v_x0"));
    assert!(
        !src.contains("cuprum::vload<_E>(_v_y0"),
        "outputs are not read"
    );
    // One trace per signature, cached.
    let again = f
        .trace(&[arr(DType::Float32, 2), arr(DType::Float32, 2)])
        .unwrap();
    assert!(Arc::ptr_eq(&t, &again));
    let other = f
        .trace(&[arr(DType::Float32, 1), arr(DType::Float32, 2)])
        .unwrap();
    assert!(!Arc::ptr_eq(&t, &other));
    assert_ne!(t.id, other.id);
    // Integers: NumPy's int8 - uint8 is int16.
    let t = f
        .trace(&[arr(DType::Int8, 1), arr(DType::UInt8, 1)])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Int16]);
}

#[test]
fn common_subexpressions_are_computed_once() {
    let f = fuse("sq", |x: &FVar, y: &FVar| (x - y) * (x - y));
    let t = f
        .trace(&[arr(DType::Float64, 1), arr(DType::Float64, 1)])
        .unwrap();
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert_eq!(
        s.operation.matches("subtract").count(),
        1,
        "{}",
        s.operation
    );
}

#[test]
fn binary_ufuncs_type_as_unfused_for_all_dtype_pairs() {
    let mut checked = 0;
    for u in ufunc::all().iter().filter(|u| u.nin() == 2) {
        let name = u.name();
        let f = fuse("f", move |x: &FVar, y: &FVar| {
            fx::ufunc(name, &[x.into(), y.into()])
        });
        for a in DType::ALL {
            for b in DType::ALL {
                let want = unfused(name, &[Operand::Array(a), Operand::Array(b)]);
                let got = f.trace(&[arr(a, 1), arr(b, 2)]).map(|t| t.output_dtypes());
                match (want, got) {
                    (Ok(w), Ok(g)) => assert_eq!(w, g, "{name}({a}, {b})"),
                    (Err(w), Err(g)) => {
                        assert!(g.to_string().contains(&w), "{name}({a}, {b}): {g} vs {w}")
                    }
                    (w, g) => panic!("{name}({a}, {b}): unfused {w:?}, fused {g:?}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 38 * 225, "{checked}");
}

#[test]
fn weak_scalars_type_as_unfused() {
    let kinds = [
        ScalarKind::Bool,
        ScalarKind::Int,
        ScalarKind::Float,
        ScalarKind::Complex,
    ];
    for u in ufunc::all() {
        let name = u.name();
        if u.nin() == 1 {
            let f = fuse("f", move |x: &FVar| fx::ufunc(name, &[x.into()]));
            for op in DType::ALL
                .iter()
                .map(|&d| Operand::Array(d))
                .chain(kinds.iter().map(|&k| Operand::Scalar(k)))
            {
                let want = unfused(name, &[op]);
                let got = f.trace(&[sig_of(op)]).map(|t| t.output_dtypes());
                match (want, got) {
                    // A weak result materialises as its kind's default dtype.
                    (Ok(w), Ok(g)) => assert_eq!(
                        w.iter()
                            .map(|&d| match op {
                                Operand::Scalar(k) if k != ScalarKind::Bool && d != DType::Bool => {
                                    ScalarKind::of(d).default_dtype()
                                }
                                _ => d,
                            })
                            .collect::<Vec<_>>(),
                        g,
                        "{name}({op:?})"
                    ),
                    (Err(w), Err(g)) => assert!(g.to_string().contains(&w), "{name}: {g}"),
                    (w, g) => panic!("{name}({op:?}): unfused {w:?}, fused {g:?}"),
                }
            }
            continue;
        }
        if u.nin() != 2 {
            continue;
        }
        let f = fuse("f", move |x: &FVar, y: &FVar| {
            fx::ufunc(name, &[x.into(), y.into()])
        });
        for d in DType::ALL {
            for k in kinds {
                for (a, b) in [
                    (Operand::Array(d), Operand::Scalar(k)),
                    (Operand::Scalar(k), Operand::Array(d)),
                ] {
                    let want = unfused(name, &[a, b]);
                    let got = f.trace(&[sig_of(a), sig_of(b)]).map(|t| t.output_dtypes());
                    match (want, got) {
                        (Ok(w), Ok(g)) => assert_eq!(w, g, "{name}({a:?}, {b:?})"),
                        (Err(w), Err(g)) => assert!(g.to_string().contains(&w), "{name}: {g}"),
                        (w, g) => panic!("{name}({a:?}, {b:?}): unfused {w:?}, fused {g:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn constants_are_weak_and_checked() {
    let f = fuse("scale", |x: &FVar| x * 2.0 + 1);
    for d in [
        DType::Float16,
        DType::Float32,
        DType::BFloat16,
        DType::Complex64,
    ] {
        let t = f.trace(&[arr(d, 1)]).unwrap();
        assert_eq!(t.output_dtypes(), vec![d], "{d}");
    }
    // int8 * 2.0 is float64 (a weak float over an integer array).
    let t = f.trace(&[arr(DType::Int8, 1)]).unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float64]);
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert!(
        s.operation.contains("const double _fv1_0 = 2e0;"),
        "{}",
        s.operation
    );
    assert!(
        s.operation.contains("const long long _fv3_0 = 1LL;"),
        "{}",
        s.operation
    );
    // NumPy 2: uint8 + 300 is an error, uint8 < 300 is all true.
    let g = fuse("g", |x: &FVar| x + 300);
    let e = g.trace(&[arr(DType::UInt8, 1)]).unwrap_err().to_string();
    assert_eq!(
        e,
        "fuse 'g': add: Python integer 300 out of bounds for uint8"
    );
    assert!(g.trace(&[arr(DType::Int16, 1)]).is_ok());
    let h = fuse("h", |x: &FVar| {
        (x.less(300), fx::greater(300, x), x.equal(-1))
    });
    let t = h.trace(&[arr(DType::UInt8, 3)]).unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Bool; 3]);
    assert_eq!(t.output_ndims(), vec![3; 3]);
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert!(s.operation.contains("= true;"), "{}", s.operation);
    assert!(s.operation.contains("= false;"), "{}", s.operation);
    assert!(!s.operation.contains("less"), "{}", s.operation);
    // Scalars on the left, every Rust scalar type.
    let k = fuse("k", |x: &FVar| (2.0f32 - x, 3u8 * x, 1i64 + x, true & x));
    let t = k.trace(&[arr(DType::Int32, 1)]).unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Float64, DType::Int32, DType::Int32, DType::Int32]
    );
}

#[test]
fn scalar_arguments_are_weak_kernel_parameters() {
    let f = fuse("axpy", |a: &FVar, x: &FVar, y: &FVar| a * x + y);
    let t = f
        .trace(&[
            ArgSig::Scalar(ScalarKind::Float),
            arr(DType::Float32, 1),
            arr(DType::Float32, 1),
        ])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float32]);
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert_eq!(s.params[0].role, crate::elementwise::Role::Scalar);
    assert_eq!(s.params[0].dtype, DType::Float64);
    // The scalar's value is converted to the loop's type in the kernel.
    assert!(s.operation.contains("cuprum::cast<in0_type>(x0)"));
    // An integer argument feeding a uint8 loop is checked at call time.
    let g = fuse("g", |x: &FVar, n: &FVar| x + n);
    let t = g
        .trace(&[arr(DType::UInt8, 1), ArgSig::Scalar(ScalarKind::Int)])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::UInt8]);
    t.check_scalar_int(1, 255).unwrap();
    assert_eq!(
        t.check_scalar_int(1, 256).unwrap_err().to_string(),
        "fuse 'g': add: Python integer 256 out of bounds for uint8"
    );
    assert!(t.check_scalar_int(1, 1 << 70).is_err());
    // A bool argument is strongly typed.
    let t = g
        .trace(&[arr(DType::Int8, 1), ArgSig::Scalar(ScalarKind::Bool)])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Int8]);
    // Only scalars: a weak result materialises in its default dtype.
    let t = g
        .trace(&[
            ArgSig::Scalar(ScalarKind::Int),
            ArgSig::Scalar(ScalarKind::Float),
        ])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float64]);
    assert_eq!(t.output_ndims(), vec![0]);
}

#[test]
fn where_astype_and_comparisons() {
    let f = fuse("relu_ish", |c: &FVar, x: &FVar| {
        (
            fx::where_(c, x, 1.0),
            fx::where_(x.greater(0), x, 0),
            x.astype(DType::Int16),
            fx::where_(c, 1, 2.5),
        )
    });
    let t = f
        .trace(&[arr(DType::Bool, 1), arr(DType::Float32, 2)])
        .unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Float32, DType::Float32, DType::Int16, DType::Float64]
    );
    let t = f
        .trace(&[arr(DType::Int32, 1), arr(DType::Int8, 1)])
        .unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Float64, DType::Int8, DType::Int16, DType::Float64]
    );
    let s = t
        .elementwise_spec(LayoutClass::Strided { ndim: 2 }, IndexWidth::I64)
        .unwrap();
    assert!(
        s.operation
            .contains("cuprum::cast<bool>(x0) ? cuprum::cast<double>(x1) : cuprum::cast<double>("),
        "{}",
        s.operation
    );
    assert!(
        s.operation.contains("= cuprum::cast<short>(x1);"),
        "{}",
        s.operation
    );
}

#[test]
fn multi_output_ufuncs() {
    let f = fuse("dm", |x: &FVar, y: &FVar| {
        let (q, r) = fx::divmod(x, y);
        let (m, e) = fx::frexp(x.astype(DType::Float32));
        (q, r, m, e)
    });
    let t = f
        .trace(&[arr(DType::Int16, 1), arr(DType::Int32, 1)])
        .unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Int32, DType::Int32, DType::Float32, DType::Int32]
    );
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    // divmod's loop computes both results once.
    assert_eq!(s.operation.matches("// divmod").count(), 1);
    assert!(s.operation.contains("_fv2_1 = out1;"), "{}", s.operation);
}

#[test]
fn every_table_ufunc_has_a_function() {
    type U = fn(FArg) -> FVar;
    type B = fn(FArg, FArg) -> FVar;
    type B2 = fn(FArg, FArg) -> (FVar, FVar);
    type U2 = fn(FArg) -> (FVar, FVar);
    let unary: &[(&str, U)] = &[
        ("negative", |a| fx::negative(a)),
        ("positive", |a| fx::positive(a)),
        ("absolute", |a| fx::absolute(a)),
        ("absolute", |a| fx::abs(a)),
        ("fabs", |a| fx::fabs(a)),
        ("rint", |a| fx::rint(a)),
        ("sign", |a| fx::sign(a)),
        ("conjugate", |a| fx::conjugate(a)),
        ("conjugate", |a| fx::conj(a)),
        ("exp", |a| fx::exp(a)),
        ("exp2", |a| fx::exp2(a)),
        ("log", |a| fx::log(a)),
        ("log2", |a| fx::log2(a)),
        ("log10", |a| fx::log10(a)),
        ("expm1", |a| fx::expm1(a)),
        ("log1p", |a| fx::log1p(a)),
        ("sqrt", |a| fx::sqrt(a)),
        ("square", |a| fx::square(a)),
        ("cbrt", |a| fx::cbrt(a)),
        ("reciprocal", |a| fx::reciprocal(a)),
        ("sin", |a| fx::sin(a)),
        ("cos", |a| fx::cos(a)),
        ("tan", |a| fx::tan(a)),
        ("arcsin", |a| fx::arcsin(a)),
        ("arcsin", |a| fx::asin(a)),
        ("arccos", |a| fx::arccos(a)),
        ("arccos", |a| fx::acos(a)),
        ("arctan", |a| fx::arctan(a)),
        ("arctan", |a| fx::atan(a)),
        ("sinh", |a| fx::sinh(a)),
        ("cosh", |a| fx::cosh(a)),
        ("tanh", |a| fx::tanh(a)),
        ("arcsinh", |a| fx::arcsinh(a)),
        ("arcsinh", |a| fx::asinh(a)),
        ("arccosh", |a| fx::arccosh(a)),
        ("arccosh", |a| fx::acosh(a)),
        ("arctanh", |a| fx::arctanh(a)),
        ("arctanh", |a| fx::atanh(a)),
        ("deg2rad", |a| fx::deg2rad(a)),
        ("deg2rad", |a| fx::radians(a)),
        ("rad2deg", |a| fx::rad2deg(a)),
        ("rad2deg", |a| fx::degrees(a)),
        ("invert", |a| fx::invert(a)),
        ("invert", |a| fx::bitwise_not(a)),
        ("logical_not", |a| fx::logical_not(a)),
        ("isfinite", |a| fx::isfinite(a)),
        ("isinf", |a| fx::isinf(a)),
        ("isnan", |a| fx::isnan(a)),
        ("signbit", |a| fx::signbit(a)),
        ("spacing", |a| fx::spacing(a)),
        ("floor", |a| fx::floor(a)),
        ("ceil", |a| fx::ceil(a)),
        ("trunc", |a| fx::trunc(a)),
    ];
    let binary: &[(&str, B)] = &[
        ("add", |a, b| fx::add(a, b)),
        ("subtract", |a, b| fx::subtract(a, b)),
        ("multiply", |a, b| fx::multiply(a, b)),
        ("true_divide", |a, b| fx::true_divide(a, b)),
        ("true_divide", |a, b| fx::divide(a, b)),
        ("logaddexp", |a, b| fx::logaddexp(a, b)),
        ("logaddexp2", |a, b| fx::logaddexp2(a, b)),
        ("floor_divide", |a, b| fx::floor_divide(a, b)),
        ("power", |a, b| fx::power(a, b)),
        ("power", |a, b| fx::pow(a, b)),
        ("float_power", |a, b| fx::float_power(a, b)),
        ("remainder", |a, b| fx::remainder(a, b)),
        ("remainder", |a, b| fx::r#mod(a, b)),
        ("fmod", |a, b| fx::fmod(a, b)),
        ("heaviside", |a, b| fx::heaviside(a, b)),
        ("gcd", |a, b| fx::gcd(a, b)),
        ("lcm", |a, b| fx::lcm(a, b)),
        ("arctan2", |a, b| fx::arctan2(a, b)),
        ("arctan2", |a, b| fx::atan2(a, b)),
        ("hypot", |a, b| fx::hypot(a, b)),
        ("bitwise_and", |a, b| fx::bitwise_and(a, b)),
        ("bitwise_or", |a, b| fx::bitwise_or(a, b)),
        ("bitwise_xor", |a, b| fx::bitwise_xor(a, b)),
        ("left_shift", |a, b| fx::left_shift(a, b)),
        ("left_shift", |a, b| fx::bitwise_left_shift(a, b)),
        ("right_shift", |a, b| fx::right_shift(a, b)),
        ("right_shift", |a, b| fx::bitwise_right_shift(a, b)),
        ("greater", |a, b| fx::greater(a, b)),
        ("greater_equal", |a, b| fx::greater_equal(a, b)),
        ("less", |a, b| fx::less(a, b)),
        ("less_equal", |a, b| fx::less_equal(a, b)),
        ("not_equal", |a, b| fx::not_equal(a, b)),
        ("equal", |a, b| fx::equal(a, b)),
        ("logical_and", |a, b| fx::logical_and(a, b)),
        ("logical_or", |a, b| fx::logical_or(a, b)),
        ("logical_xor", |a, b| fx::logical_xor(a, b)),
        ("maximum", |a, b| fx::maximum(a, b)),
        ("minimum", |a, b| fx::minimum(a, b)),
        ("fmax", |a, b| fx::fmax(a, b)),
        ("fmin", |a, b| fx::fmin(a, b)),
        ("copysign", |a, b| fx::copysign(a, b)),
        ("nextafter", |a, b| fx::nextafter(a, b)),
        ("ldexp", |a, b| fx::ldexp(a, b)),
    ];
    let pairs: &[(&str, B2)] = &[("divmod", |a, b| fx::divmod(a, b))];
    let unary_pairs: &[(&str, U2)] = &[("modf", |a| fx::modf(a)), ("frexp", |a| fx::frexp(a))];
    let mut covered: Vec<&str> = Vec::new();
    // Each function records its ufunc (seen in the source's comment).
    let check = |name: &str, t: Result<Arc<Trace>>| {
        let t = t.unwrap_or_else(|e| panic!("{name}: {e}"));
        let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
        assert!(
            s.operation.contains(&format!("// {name} ")),
            "{name}: {}",
            s.operation
        );
    };
    let sig = |u: &str| {
        // A dtype every loop of the ufunc takes.
        let lp = &ufunc::get(u).unwrap().loops()[0];
        lp.inputs.iter().map(|&d| arr(d, 1)).collect::<Vec<_>>()
    };
    for &(name, f) in unary {
        check(
            name,
            fuse("u", move |x: &FVar| f(x.into())).trace(&sig(name)),
        );
        covered.push(name);
    }
    for &(name, f) in binary {
        check(
            name,
            fuse("b", move |x: &FVar, y: &FVar| f(x.into(), y.into())).trace(&sig(name)),
        );
        covered.push(name);
    }
    for &(name, f) in pairs {
        check(
            name,
            fuse("p", move |x: &FVar, y: &FVar| {
                let (a, b) = f(x.into(), y.into());
                (a, b)
            })
            .trace(&sig(name)),
        );
        covered.push(name);
    }
    for &(name, f) in unary_pairs {
        check(
            name,
            fuse("q", move |x: &FVar| {
                let (a, b) = f(x.into());
                (a, b)
            })
            .trace(&sig(name)),
        );
        covered.push(name);
    }
    for u in ufunc::all() {
        assert!(
            covered.contains(&u.name()),
            "no fx function for {}",
            u.name()
        );
    }
}

#[test]
fn one_reduction_renders_a_reduction_kernel() {
    let f = fuse("sum_of_products", |x: &FVar, y: &FVar| {
        (x * y).sum(ReduceOptions::axis(-1))
    });
    let t = f
        .trace(&[arr(DType::Float32, 2), arr(DType::Float32, 2)])
        .unwrap();
    assert!(t.is_reduction());
    assert_eq!(t.reduced_axes(), Some(&[1usize][..]));
    assert_eq!(t.output_dtypes(), vec![DType::Float32]);
    assert_eq!(t.output_ndims(), vec![1]);
    assert_eq!(t.reduction_count(), 1);
    assert!(t.elementwise_spec(CV, IndexWidth::I32).is_err());
    let s = t.reduction_spec(V).unwrap();
    assert_eq!(t.reduction_spec_cached(V).unwrap(), s);
    assert_eq!(t.reduction_spec_cached(V).unwrap(), s);
    assert_eq!(s.name, "sum_of_products");
    let p = "sum_of_products_f4d2f4d2";
    assert_eq!(s.map_expr, format!("{p}_map(x0, x1)"));
    assert_eq!(s.reduce_expr, format!("{p}_combine(a, b)"));
    assert_eq!(s.identity.as_deref(), Some(&*format!("{p}_identity()")));
    assert_eq!(s.post_map_expr, "y0 = cuprum::cast<y0_type>(a.v0);\n");
    let st = s.reduce_struct.as_ref().unwrap();
    assert_eq!((st.size, st.align), (4, 4));
    assert!(
        s.preamble
            .contains(&format!("struct {p}_acc {{\n  float v0;\n}};"))
    );
    assert!(s.preamble.contains("out0 = in0 * in1;"));
    assert!(s.preamble.contains("_r.v0 = a.v0 + b.v0;"));
    assert!(s.preamble.contains("_r.v0 = cuprum::cast<float>(0);"));
    let src = s.render();
    assert!(src.contains("cuprum::cast<_type_reduce>(sum_of_products_f4d2f4d2_map(x0, x1))"));
    // float16 accumulates in float32; mean of integers is float64.
    let g = fuse("m", |x: &FVar| {
        (
            x.mean(ReduceOptions::default()),
            x.sum(ReduceOptions::default().keepdims(true)),
        )
    });
    let t = g.trace(&[arr(DType::Float16, 3)]).unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float16, DType::Float16]);
    assert_eq!(t.output_ndims(), vec![0, 3]);
    assert_eq!(t.reduced_axes(), Some(&[0usize, 1, 2][..]));
    // mean and sum of the same value share one field (one float).
    assert_eq!(t.reduction_count(), 1);
    let s = t.reduction_spec(V).unwrap();
    assert!(s.preamble.contains("float v0;\n};"), "{}", s.preamble);
    assert_eq!(
        s.post_map_expr,
        "y0 = cuprum::cast<y0_type>(a.v0 / cuprum::cast<float>(_nred));\n\
         y1 = cuprum::cast<y1_type>(a.v0);\n"
    );
    let t = g.trace(&[arr(DType::Int8, 2)]).unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float64, DType::Int64]);
    // dtype= and prod's identity.
    let h = fuse("h", |x: &FVar| {
        x.prod(ReduceOptions::axes(&[0]).dtype(DType::Float64))
    });
    let t = h.trace(&[arr(DType::Int32, 2)]).unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float64]);
    let s = t.reduction_spec(V).unwrap();
    assert!(s.preamble.contains("_r.v0 = a.v0 * b.v0;"));
    assert!(s.preamble.contains("_r.v0 = cuprum::cast<double>(1);"));
}

#[test]
fn several_reductions_share_one_kernel() {
    let f = fuse("moments", |x: &FVar| {
        let o = ReduceOptions::axis(0);
        let s = x.sum(&o);
        (
            s.clone(),
            (x * x).sum(&o),
            x.max(&o),
            s,
            x.min(o.clone().keepdims(true)),
        )
    });
    let t = f.trace(&[arr(DType::Float64, 2)]).unwrap();
    assert_eq!(t.reduction_count(), 4, "the repeated sum is one field");
    assert_eq!(t.output_dtypes(), vec![DType::Float64; 5]);
    assert_eq!(t.output_ndims(), vec![1, 1, 1, 1, 2]);
    let s = t
        .reduction_spec(Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I64))
        .unwrap();
    let st = s.reduce_struct.as_ref().unwrap();
    assert_eq!((st.size, st.align), (32, 8));
    // The planner's variant carries over.
    assert_eq!(
        (s.strategy, s.out_ndim, s.red_ndim, s.index),
        (Strategy::TwoPass, 1, 1, IndexWidth::I64)
    );
    let w = t
        .reduction_spec(Variant::new(Strategy::Column, 3, 2, IndexWidth::I32))
        .unwrap();
    assert_eq!(
        (w.strategy, w.out_ndim, w.red_ndim, w.index),
        (Strategy::Column, 3, 2, IndexWidth::I32)
    );
    // max has no identity: an empty reduction is NumPy's error.
    assert_eq!(s.identity, None);
    assert_eq!(t.no_identity_op(), Some("maximum"));
    assert!(s.preamble.contains("_r.v2 = cuprum::maximum(a.v2, b.v2);"));
    assert!(s.preamble.contains("_r.v3 = cuprum::minimum(a.v3, b.v3);"));
    assert_eq!(
        s.post_map_expr,
        "y0 = cuprum::cast<y0_type>(a.v0);\ny1 = cuprum::cast<y1_type>(a.v1);\n\
         y2 = cuprum::cast<y2_type>(a.v2);\ny3 = cuprum::cast<y3_type>(a.v0);\n\
         y4 = cuprum::cast<y4_type>(a.v3);\n"
    );
    assert_eq!(s.kernel_names(), vec!["moments", "moments_2"]);
    // Mixed accumulator types lay out as C++ does.
    let g = fuse("mixed", |x: &FVar| {
        let o = ReduceOptions::default();
        (
            x.astype(DType::Bool).sum(&o),
            x.max(&o),
            x.astype(DType::Complex128).mean(&o),
        )
    });
    let t = g.trace(&[arr(DType::Int8, 1)]).unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Int64, DType::Int8, DType::Complex128]
    );
    let s = t.reduction_spec(V).unwrap();
    let st = s.reduce_struct.as_ref().unwrap();
    // int64 (8), int8 (1, padded to 16), complex128 (16 aligned 16).
    assert_eq!((st.size, st.align), (32, 16));
}

fn trace_err<A, F: FuseFn<A>>(f: &Fused<F, A>, sig: &[ArgSig]) -> Error {
    f.trace(sig).unwrap_err()
}

#[test]
fn trace_time_errors_name_the_operation() {
    let f1 = [arr(DType::Float32, 2)];
    // A reduction followed by more operations.
    let f = fuse("f", |x: &FVar| x.sum(ReduceOptions::axis(1)) * 2.0);
    let e = trace_err(&f, &f1);
    assert!(matches!(e, Error::Unsupported(_)));
    assert_eq!(
        e.to_string(),
        "fuse 'f': multiply: 'multiply' uses the result of the reduction 'sum'; a reduction \
         must be the last step of a fused function"
    );
    let f = fuse("f", |x: &FVar| {
        x.sum(ReduceOptions::axis(1)).max(ReduceOptions::default())
    });
    assert!(
        trace_err(&f, &f1)
            .to_string()
            .contains("'max' of the result of another reduction")
    );
    // Reductions over different axes.
    let f = fuse("f", |x: &FVar| {
        (x.sum(ReduceOptions::axis(1)), x.max(ReduceOptions::axis(0)))
    });
    let e = trace_err(&f, &f1).to_string();
    assert!(
        e.contains("'sum' over axes [1]") && e.contains("'max' over axes [0]"),
        "{e}"
    );
    // Reduced and elementwise results.
    let f = fuse("f", |x: &FVar| (x.sum(ReduceOptions::default()), x * 2));
    assert!(
        trace_err(&f, &f1)
            .to_string()
            .contains("both reduced and elementwise")
    );
    // An operation fuse does not know.
    let f = fuse("f", |x: &FVar, y: &FVar| {
        fx::ufunc("matmul", &[x.into(), y.into()])
    });
    let e = trace_err(&f, &[f1[0], f1[0]]);
    assert!(matches!(e, Error::Unsupported(_)));
    assert_eq!(
        e.to_string(),
        "fuse 'f': matmul: 'matmul' is not an operation fuse knows"
    );
    let f = fuse("f", |x: &FVar| fx::ufunc("add", &[x.into()]));
    assert!(trace_err(&f, &f1).to_string().contains("add() takes 2"));
    // Types no loop takes, and NumPy's bool errors.
    let f = fuse("f", |x: &FVar| x & 1.5);
    assert!(
        trace_err(&f, &f1)
            .to_string()
            .starts_with("fuse 'f': bitwise_and: ufunc 'bitwise_and' not supported")
    );
    let f = fuse("f", |x: &FVar, y: &FVar| x - y);
    assert!(
        trace_err(&f, &[arr(DType::Bool, 1), arr(DType::Bool, 1)])
            .to_string()
            .contains("numpy boolean subtract")
    );
    // Axes.
    let f = fuse("f", |x: &FVar| x.sum(ReduceOptions::axis(2)));
    assert_eq!(
        trace_err(&f, &f1).to_string(),
        "fuse 'f': sum: axis 2 is out of bounds for array of dimension 2"
    );
    let f = fuse("f", |x: &FVar| x.sum(ReduceOptions::axes(&[0, -2])));
    assert!(trace_err(&f, &f1).to_string().contains("repeated axis"));
    // max takes no dtype=; out= is not for fused reductions.
    let f = fuse("f", |x: &FVar| {
        x.max(ReduceOptions::default().dtype(DType::Float64))
    });
    assert!(matches!(trace_err(&f, &f1), Error::Unsupported(_)));
    // Arity, names, foreign values, the closure's own error.
    let f = fuse("f", |x: &FVar, y: &FVar| x + y);
    assert_eq!(
        trace_err(&f, &f1).to_string(),
        "fuse 'f' takes 2 arguments but 1 were given"
    );
    let f = fuse("not a name", |x: &FVar| -x);
    assert!(
        trace_err(&f, &f1)
            .to_string()
            .contains("invalid kernel name")
    );
    let stash: std::cell::RefCell<Option<FVar>> = std::cell::RefCell::new(None);
    let f = fuse("f", |x: &FVar| {
        let mut s = stash.borrow_mut();
        let r = match s.as_ref() {
            Some(old) => x + old,
            None => x.clone(),
        };
        *s = Some(x.clone());
        r
    });
    f.trace(&f1).unwrap();
    assert!(
        trace_err(&f, &[arr(DType::Float64, 1)])
            .to_string()
            .contains("an FVar of another trace")
    );
    // A kept FVar still answers after its trace.
    assert_eq!(stash.borrow().as_ref().unwrap().dtype(), DType::Float64);
    let f = fuse("f", |x: &FVar| -> Result<FVar> {
        if x.ndim() > 1 {
            return Err(Error::Value("only vectors".into()));
        }
        Ok(-x)
    });
    assert_eq!(
        trace_err(&f, &f1).to_string(),
        "fuse 'f': the function: only vectors"
    );
    // Reductions of constants only.
    let f = fuse("f", |_x: &FVar| {
        fx::sum(fx::exp(1.0), ReduceOptions::default())
    });
    assert!(
        trace_err(&f, &f1)
            .to_string()
            .contains("depends on no array")
    );
}

#[test]
fn variadic_closures_and_vec_results() {
    let f = fuse("total", |xs: &[FVar]| {
        let mut acc = xs[0].clone();
        for x in &xs[1..] {
            acc += x;
        }
        acc *= 1;
        vec![acc.clone(), fx::sqrt(&acc)]
    });
    let t = f
        .trace(&[
            arr(DType::Int8, 1),
            arr(DType::Int16, 2),
            arr(DType::Float32, 1),
        ])
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float32, DType::Float32]);
    assert_eq!(t.output_ndims(), vec![2, 2]);
    // Unused arguments are not kernel parameters.
    let g = fuse("first", |x: &FVar, _y: &FVar| x * 3);
    let t = g
        .trace(&[arr(DType::Int32, 1), arr(DType::Float64, 1)])
        .unwrap();
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert_eq!(s.params.len(), 2);
    assert_eq!(t.output_dtypes(), vec![DType::Int32]);
}

#[test]
#[should_panic(expected = "outside a fused function's trace")]
fn scalar_only_operation_outside_a_trace_panics() {
    let _ = fx::exp(1.0);
}

/// Every fusable reduction by its NumPy name, on `x`.
fn by_name(name: &'static str) -> impl Fn(&FVar) -> FVar {
    move |x: &FVar| fx::reduction(name, x, ReduceOptions::axis(-1))
}

#[test]
fn new_reductions_type_as_numpy() {
    use crate::reduction::Builtin;
    for (name, op) in [
        ("all", Builtin::All),
        ("any", Builtin::Any),
        ("count_nonzero", Builtin::CountNonzero),
        ("nansum", Builtin::NanSum),
        ("nanprod", Builtin::NanProd),
        ("nanmax", Builtin::NanMax),
        ("nanmin", Builtin::NanMin),
        ("nanmean", Builtin::NanMean),
        ("sum", Builtin::Sum),
        ("amax", Builtin::Max),
    ] {
        assert!(FUSABLE_REDUCTIONS.contains(&op));
        let f = fuse("r", by_name(name));
        for d in DType::ALL {
            let t = f
                .trace(&[arr(d, 2)])
                .unwrap_or_else(|e| panic!("{name} {d}: {e}"));
            assert_eq!(
                t.output_dtypes(),
                vec![op.result_dtype(d, None).unwrap()],
                "{name} {d}"
            );
            assert_eq!(t.output_ndims(), vec![1]);
            // Every variant renders a valid spec.
            for s in [Strategy::BlockPerRow, Strategy::TwoPass, Strategy::Column] {
                t.reduction_spec(Variant::new(s, 1, 1, IndexWidth::I32))
                    .unwrap();
            }
        }
    }
}

#[test]
fn new_reductions_render_their_maps_and_combines() {
    let f = fuse("nans", |x: &FVar| {
        let o = ReduceOptions::axis(0);
        (
            x.all(&o),
            x.any(&o),
            fx::count_nonzero(x, &o),
            fx::nansum(x, &o),
            fx::nanprod(x, &o),
            fx::nanmax(x, &o),
            fx::nanmin(x, &o),
            fx::nanmean(x, &o),
        )
    });
    let t = f.trace(&[arr(DType::Float16, 2)]).unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![
            DType::Bool,
            DType::Bool,
            DType::Int64,
            DType::Float16,
            DType::Float16,
            DType::Float16,
            DType::Float16,
            DType::Float16
        ]
    );
    // nanmean shares nansum's field and adds a count of non-NaN values.
    assert_eq!(t.reduction_count(), 8);
    assert_eq!(t.no_identity_op(), Some("fmax"));
    let s = t.reduction_spec(V).unwrap();
    assert_eq!(s.identity, None);
    let p = &s.preamble;
    for line in [
        "bool v0;",
        "bool v1;",
        "long long v2;",
        "float v3;",
        "_r.v0 = cuprum::cast<bool>(x0);",
        "_r.v2 = cuprum::cast<bool>(x0) ? 1LL : 0LL;",
        "_r.v3 = cuprum::isnan(x0) ? cuprum::cast<float>(0) : cuprum::cast<float>(x0);",
        "_r.v4 = cuprum::isnan(x0) ? cuprum::cast<float>(1) : cuprum::cast<float>(x0);",
        "_r.v7 = cuprum::isnan(x0) ? 0LL : 1LL;",
        "_r.v0 = a.v0 && b.v0;",
        "_r.v1 = a.v1 || b.v1;",
        "_r.v2 = a.v2 + b.v2;",
        "_r.v4 = a.v4 * b.v4;",
        "_r.v5 = cuprum::fmax(a.v5, b.v5);",
        "_r.v6 = cuprum::fmin(a.v6, b.v6);",
        "_r.v7 = a.v7 + b.v7;",
    ] {
        assert!(p.contains(line), "{line}\n{p}");
    }
    assert!(
        s.post_map_expr
            .contains("y7 = cuprum::cast<y7_type>(a.v3 / cuprum::cast<float>((double)a.v7));"),
        "{}",
        s.post_map_expr
    );
    // Without a no-identity reduction: identities true, false, 0, 1.
    let g = fuse("bools", |x: &FVar| {
        let o = ReduceOptions::default();
        (x.all(&o), x.any(&o), fx::nanprod(x, &o), fx::nanmean(x, &o))
    });
    let t = g.trace(&[arr(DType::Float64, 1)]).unwrap();
    let s = t.reduction_spec(V).unwrap();
    assert!(s.identity.is_some());
    for line in [
        "_r.v0 = cuprum::cast<bool>(1);",
        "_r.v1 = cuprum::cast<bool>(0);",
        "_r.v2 = cuprum::cast<double>(1);",
        "_r.v3 = cuprum::cast<double>(0);",
        "_r.v4 = cuprum::cast<long long>(0);",
    ] {
        assert!(s.preamble.contains(line), "{line}\n{}", s.preamble);
    }
    let h = fuse("mn", |x: &FVar| fx::nanmin(x, ReduceOptions::default()));
    let t = h.trace(&[arr(DType::Int32, 1)]).unwrap();
    assert_eq!(t.no_identity_op(), Some("fmin"));
    assert_eq!(t.output_dtypes(), vec![DType::Int32]);
}

#[test]
fn call_dtype_and_out_dtypes_steer_the_trace() {
    let f = fuse("stats", |x: &FVar| {
        let o = ReduceOptions::axis(-1);
        (
            x.sum(&o),
            x.max(&o),
            fx::nanmean(x, &o),
            x.prod(o.clone().dtype(DType::Int64)),
        )
    });
    let sig = [arr(DType::Float32, 2)];
    // dtype= on the call: sum and nanmean take it, max does not, prod's own
    // dtype= wins.
    let call = CallSig {
        dtype: Some(DType::Float64),
        out: Vec::new(),
    };
    let t = f.trace_with(&sig, &call).unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Float64, DType::Float32, DType::Float64, DType::Int64]
    );
    let plain = f.trace(&sig).unwrap();
    assert_eq!(
        plain.output_dtypes(),
        vec![DType::Float32, DType::Float32, DType::Float32, DType::Int64]
    );
    assert!(!Arc::ptr_eq(&t, &plain));
    assert!(Arc::ptr_eq(&t, &f.trace_with(&sig, &call).unwrap()));
    // out= dtypes: results are cast to them (same_kind); sum accumulates in
    // its out= dtype as NumPy's does.
    let call = CallSig {
        dtype: None,
        out: vec![Some(DType::Float64), None, Some(DType::Float16), None],
    };
    let t = f.trace_with(&sig, &call).unwrap();
    assert_eq!(
        t.output_dtypes(),
        vec![DType::Float64, DType::Float32, DType::Float16, DType::Int64]
    );
    let s = t.reduction_spec(V).unwrap();
    assert!(s.preamble.contains("double v0;"), "{}", s.preamble);
    let names: Vec<(&str, DType)> = s
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.dtype))
        .collect();
    assert_eq!(names[1], ("y0", DType::Float64));
    assert_eq!(names[3], ("y2", DType::Float16));
    // int8 sum into an int8 out= wraps in int8, as NumPy's.
    let g = fuse("s", |x: &FVar| x.sum(ReduceOptions::default()));
    let t = g
        .trace_with(
            &[arr(DType::Int8, 1)],
            &CallSig {
                dtype: None,
                out: vec![Some(DType::Int8)],
            },
        )
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Int8]);
    assert!(
        t.reduction_spec(V)
            .unwrap()
            .preamble
            .contains(&format!("{} v0;", DType::Int8.c_type()))
    );
    // Elementwise results take their out= dtype.
    let h = fuse("h", |x: &FVar, y: &FVar| (x + y, x.less(y)));
    let t = h
        .trace_with(
            &[arr(DType::Int16, 1), arr(DType::Int16, 1)],
            &CallSig {
                dtype: None,
                out: vec![Some(DType::Float32), Some(DType::Int8)],
            },
        )
        .unwrap();
    assert_eq!(t.output_dtypes(), vec![DType::Float32, DType::Int8]);
    let s = t.elementwise_spec(CV, IndexWidth::I32).unwrap();
    assert_eq!(s.params[2].dtype, DType::Float32);
    assert_eq!(s.params[3].dtype, DType::Int8);
}

#[test]
fn call_keyword_errors() {
    let sig = [arr(DType::Float32, 2)];
    let f = fuse("f", |x: &FVar| x.sum(ReduceOptions::axis(0)));
    let with = |call: CallSig| f.trace_with(&sig, &call).unwrap_err();
    // same_kind: float32 does not go into int32.
    let e = with(CallSig {
        dtype: None,
        out: vec![Some(DType::Int32)],
    });
    assert!(matches!(e, Error::DType(_)), "{e}");
    assert_eq!(
        e.to_string(),
        "fuse 'f': out= array of result 0: Cannot cast array data from dtype('float32') to \
         dtype('int32') according to the rule 'same_kind'"
    );
    // One out= entry per result.
    let e = with(CallSig {
        dtype: None,
        out: vec![None, None],
    });
    assert!(matches!(e, Error::Value(_)), "{e}");
    assert!(
        e.to_string()
            .contains("out= has 2 entries but the function returns 1")
    );
    // dtype= needs a reduction that takes it.
    let g = fuse("g", |x: &FVar| {
        (
            x.max(ReduceOptions::default()),
            x.all(ReduceOptions::default()),
        )
    });
    let e = g
        .trace_with(
            &sig,
            &CallSig {
                dtype: Some(DType::Float64),
                out: Vec::new(),
            },
        )
        .unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)), "{e}");
    assert!(
        e.to_string()
            .starts_with("fuse 'g': dtype=float64 on the call"),
        "{e}"
    );
    let h = fuse("h", |x: &FVar| x * 2);
    assert!(matches!(
        h.trace_with(
            &sig,
            &CallSig {
                dtype: Some(DType::Float64),
                out: Vec::new()
            }
        ),
        Err(Error::Unsupported(_))
    ));
    // all, any and count_nonzero take no dtype=.
    let a = fuse("a", |x: &FVar| {
        x.all(ReduceOptions::default().dtype(DType::Int8))
    });
    let e = a.trace(&sig).unwrap_err();
    assert!(matches!(e, Error::Unsupported(_)));
    assert!(
        e.to_string().starts_with("fuse 'a': all: dtype= for all"),
        "{e}"
    );
}

#[test]
fn unfusable_reductions_are_named_at_trace_time() {
    let sig = [arr(DType::Float32, 2)];
    for (name, why) in [
        ("argmax", "index result"),
        ("nanargmin", "index result"),
        ("var", "(count, mean, M2)"),
        ("nanstd", "(count, mean, M2)"),
        ("median", "sorts or selects"),
        ("cumsum", "a scan"),
        ("ptp", "max - min"),
        ("frobnicate", "not a reduction fuse knows"),
    ] {
        let f = fuse("f", by_name(name));
        let e = f.trace(&sig).unwrap_err();
        assert!(matches!(e, Error::Unsupported(_)), "{name}: {e}");
        let m = e.to_string();
        assert!(
            m.starts_with(&format!("fuse 'f': {name}: '{name}' cannot be fused: ")),
            "{m}"
        );
        assert!(m.contains(why), "{m}");
        assert!(
            m.contains("fusable reductions: sum, prod, max, min, mean, all"),
            "{m}"
        );
    }
    // The by-name aliases reach the same reductions.
    for (alias, name) in [("amax", "max"), ("product", "prod"), ("alltrue", "all")] {
        let a = fuse("a", by_name(alias)).trace(&sig).unwrap();
        let b = fuse("b", by_name(name)).trace(&sig).unwrap();
        assert_eq!(a.output_dtypes(), b.output_dtypes());
    }
    // A new reduction followed by more work is the usual error.
    let f = fuse("f", |x: &FVar| fx::nanmax(x, ReduceOptions::default()) + 1);
    assert!(
        f.trace(&sig)
            .unwrap_err()
            .to_string()
            .contains("uses the result of the reduction 'nanmax'")
    );
}
