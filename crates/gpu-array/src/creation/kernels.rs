//! The elementwise kernels of the creation routines: one spec builder per
//! kernel, so that the launchers and the NVRTC test render the same text.
//!
//! Every kernel writes a C-contiguous output (or a C-contiguous view of
//! one), so `i` is the element's C-order index over the output's shape.
//! Floating-point formulas use the `_rn` intrinsics: NumPy computes them
//! as separate multiplies and adds, and NVRTC would otherwise contract
//! them into fused multiply-adds, whose single rounding differs.

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{
    ElementwiseSpec, IndexWidth, LaunchArg, LayoutClass, SpecParam, dtype_tag, launch,
};
use crate::error::Result;

/// One creation kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gen {
    /// `y[r, c] = (c - r == k)`; scalars `k`, `m` (columns).
    Eye,
    /// `y[r, c] = (c - r <= k)`; scalars `k`, `m` (columns).
    Tri,
    /// `y = x` at and below diagonal `k` of the last two axes, else 0;
    /// input `x`, scalars `k`, `nrows`, `ncols`.
    Tril,
    /// As [`Gen::Tril`], at and above.
    Triu,
    /// `y[r, c] = v[min(r, c)]` on diagonal `k` of an `n x n` matrix, else
    /// 0; raw input `v` with `ndim` dimensions (read in C order), scalars
    /// `k`, `side` (`n`).
    Diag {
        /// Dimensions of the raw operand's coalesced layout.
        ndim: usize,
    },
    /// NumPy's `arange` fill: `a`, `b`, then `a + i * (b - a)` computed in
    /// the dtype's arithmetic; scalars `a`, `b` in the output dtype.
    Arange,
    /// NumPy's `linspace` formula in float64 (or complex128 with
    /// `complex`); scalars `start`, `stop`, `step`, `delta`, `div`,
    /// `mode`, `last`.
    Linspace {
        /// Whether the computation is in complex128.
        complex: bool,
    },
    /// `y = (i / inner) % dim` (NumPy's `indices` along one axis); scalars
    /// `inner`, `dim`.
    AxisIndex,
    /// `y = ((i / inner) % dim) * step + start` in int64 (`float`: false)
    /// or float64 (mgrid/ogrid); scalars `inner`, `dim`, `step`, `start`.
    Grid {
        /// Whether `step` and `start` are float64 (else int64).
        float: bool,
    },
}

/// The C-order row and column of element `i` in the last two axes.
const ROW_COL: &str = "long long j_ = (long long)i;\n\
                       long long c_ = j_ % ncols;\n\
                       long long r_ = (j_ / ncols) % nrows;\n";

impl Gen {
    fn tag(self) -> String {
        match self {
            Gen::Eye => "eye".into(),
            Gen::Tri => "tri".into(),
            Gen::Tril => "tril".into(),
            Gen::Triu => "triu".into(),
            Gen::Diag { ndim } => format!("diag_r{ndim}"),
            Gen::Arange => "arange".into(),
            Gen::Linspace { complex: false } => "linspace_f8".into(),
            Gen::Linspace { complex: true } => "linspace_c16".into(),
            Gen::AxisIndex => "indices".into(),
            Gen::Grid { float: false } => "grid_i8".into(),
            Gen::Grid { float: true } => "grid_f8".into(),
        }
    }

    /// The spec writing an output of `dt`.
    pub(crate) fn spec(self, dt: DType, layout: LayoutClass, index: IndexWidth) -> ElementwiseSpec {
        let i64s = |names: &[&str]| -> Vec<SpecParam> {
            names
                .iter()
                .map(|n| SpecParam::scalar(*n, DType::Int64))
                .collect()
        };
        let (mut params, operation): (Vec<SpecParam>, String) = match self {
            Gen::Eye | Gen::Tri => {
                let cmp = if self == Gen::Eye { "==" } else { "<=" };
                (
                    i64s(&["k", "m"]),
                    format!(
                        "long long r_ = (long long)i / m;\n\
                         long long c_ = (long long)i - r_ * m;\n\
                         y = cuprum::cast<y_type>(c_ - r_ {cmp} k);"
                    ),
                )
            }
            Gen::Tril | Gen::Triu => {
                let cmp = if self == Gen::Tril { "<=" } else { ">=" };
                let mut p = vec![SpecParam::input("x", dt)];
                p.extend(i64s(&["k", "nrows", "ncols"]));
                (
                    p,
                    format!(
                        "{ROW_COL}if (c_ - r_ {cmp} k) y = x;\n\
                         else y = cuprum::cast<y_type>(0);"
                    ),
                )
            }
            Gen::Diag { ndim } => {
                let mut p = vec![SpecParam::raw("v", dt, ndim, false)];
                p.extend(i64s(&["k", "side"]));
                (
                    p,
                    "long long r_ = (long long)i / side;\n\
                     long long c_ = (long long)i - r_ * side;\n\
                     if (c_ - r_ == k) y = v[k >= 0 ? r_ : c_];\n\
                     else y = cuprum::cast<y_type>(0);"
                        .into(),
                )
            }
            Gen::Arange => (
                vec![SpecParam::scalar("a", dt), SpecParam::scalar("b", dt)],
                arange_operation(dt),
            ),
            Gen::Linspace { complex } => {
                let ct = if complex {
                    DType::Complex128
                } else {
                    DType::Float64
                };
                let mut p: Vec<SpecParam> = ["start", "stop", "step", "delta"]
                    .iter()
                    .map(|n| SpecParam::scalar(*n, ct))
                    .collect();
                p.push(SpecParam::scalar("div", DType::Float64));
                p.extend(i64s(&["mode", "last"]));
                (p, linspace_operation(complex, dt))
            }
            Gen::AxisIndex => (
                i64s(&["inner", "dim"]),
                "y = cuprum::cast<y_type>(((long long)i / inner) % dim);".into(),
            ),
            Gen::Grid { float } => {
                let mut p = i64s(&["inner", "dim"]);
                let st = if float { DType::Float64 } else { DType::Int64 };
                p.push(SpecParam::scalar("step", st));
                p.push(SpecParam::scalar("start", st));
                let op = if float {
                    "double t_ = (double)(((long long)i / inner) % dim);\n\
                     y = cuprum::cast<y_type>(__dadd_rn(__dmul_rn(t_, step), start));"
                } else {
                    // Wrapping int64 arithmetic, as NumPy's.
                    "unsigned long long t_ = (unsigned long long)(((long long)i / inner) % dim);\n\
                     y = cuprum::cast<y_type>((long long)(t_ * (unsigned long long)step + \
                     (unsigned long long)start));"
                };
                (p, op.into())
            }
        };
        params.push(SpecParam::output("y", dt));
        let mut s = ElementwiseSpec::new(String::new(), params, operation, layout, index);
        s.read_outputs = false;
        s.name = format!(
            "cuprum_{}_{}_{}",
            self.tag(),
            dtype_tag(dt),
            s.variant_tag()
        );
        s
    }

    /// Runs the kernel writing `out`, whose operands before the output are
    /// `inputs` in the spec's order. `out` must be C-contiguous.
    pub(crate) fn run(self, out: &Array, inputs: Vec<LaunchArg<'_>>) -> Result<()> {
        debug_assert!(out.is_c_contiguous());
        let mut args = inputs;
        args.push(LaunchArg::Out(out));
        let dt = out.dtype();
        launch(out.shape(), &args, |l, i| Ok(self.spec(dt, l, i)))
    }
}

/// NumPy's `<TYPE>_fill` (arraytypes.c.src) for the output dtype: the first
/// two elements are `a` and `b` as given; then `start + i*delta` with
/// `delta = b - a`, in the type's arithmetic (float for float16, the
/// components for complex, 64-bit wrapping for integers).
fn arange_operation(dt: DType) -> String {
    let head = "if (i == 0) y = a;\nelse if (i == 1) y = b;\nelse ";
    let body = match dt {
        DType::Float16 | DType::BFloat16 | DType::Float32 => {
            "{\n  float s_ = (float)a;\n  float d_ = __fsub_rn((float)b, s_);\n  \
             y = y_type(__fadd_rn(s_, __fmul_rn((float)i, d_)));\n}"
        }
        DType::Float64 => {
            "{\n  double d_ = __dsub_rn(b, a);\n  y = __dadd_rn(a, __dmul_rn((double)i, d_));\n}"
        }
        DType::Complex64 => {
            "{\n  float dr_ = __fsub_rn(b.real(), a.real());\n  \
             float di_ = __fsub_rn(b.imag(), a.imag());\n  \
             y = y_type(__fadd_rn(a.real(), __fmul_rn((float)i, dr_)), \
             __fadd_rn(a.imag(), __fmul_rn((float)i, di_)));\n}"
        }
        DType::Complex128 => {
            "{\n  double dr_ = __dsub_rn(b.real(), a.real());\n  \
             double di_ = __dsub_rn(b.imag(), a.imag());\n  \
             y = y_type(__dadd_rn(a.real(), __dmul_rn((double)i, dr_)), \
             __dadd_rn(a.imag(), __dmul_rn((double)i, di_)));\n}"
        }
        // Integers and bool (bool never gets past two elements).
        _ => {
            "{\n  y_type d_ = (y_type)(b - a);\n  \
             y = (y_type)((unsigned long long)a + (unsigned long long)(long long)i * \
             (unsigned long long)d_);\n}"
        }
    };
    format!("{head}{body}")
}

/// NumPy's `linspace` (function_base.py): `y = arange(num) * step + start`
/// (`mode` 0), `y = arange(num) / div * delta + start` when the step
/// underflows to zero (`mode` 1), `y = arange(num) * delta + start` when
/// `div <= 0` (`mode` 2); `y[last] = stop`; `floor` for integer outputs;
/// then the cast to the output dtype. Complex products and quotients are
/// NumPy's formulas for a complex array times a complex scalar.
fn linspace_operation(complex: bool, dt: DType) -> String {
    let floor = if dt.is_integer() {
        "v_ = floor(v_);\n"
    } else {
        ""
    };
    if !complex {
        return format!(
            "double t_ = (double)i;\n\
             double v_;\n\
             if (mode == 0) v_ = __dmul_rn(t_, step);\n\
             else if (mode == 1) v_ = __dmul_rn(__ddiv_rn(t_, div), delta);\n\
             else v_ = __dmul_rn(t_, delta);\n\
             v_ = __dadd_rn(v_, start);\n\
             if ((long long)i == last) v_ = stop;\n\
             {floor}y = cuprum::cast<y_type>(v_);"
        );
    }
    // (tr + ti j) * (b.re + b.im j), NumPy's complex multiply.
    "double tr_ = (double)i, ti_ = 0.0;\n\
     cuprum::complex<double> b_ = mode == 2 ? delta : step;\n\
     if (mode == 1) {\n\
       double scl_ = __drcp_rn(div);\n\
       double qr_ = __dmul_rn(__dadd_rn(tr_, __dmul_rn(ti_, 0.0)), scl_);\n\
       double qi_ = __dmul_rn(__dsub_rn(ti_, __dmul_rn(tr_, 0.0)), scl_);\n\
       tr_ = qr_; ti_ = qi_; b_ = delta;\n\
     }\n\
     double vr_ = __dsub_rn(__dmul_rn(tr_, b_.real()), __dmul_rn(ti_, b_.imag()));\n\
     double vi_ = __dadd_rn(__dmul_rn(tr_, b_.imag()), __dmul_rn(ti_, b_.real()));\n\
     cuprum::complex<double> v_(__dadd_rn(vr_, start.real()), __dadd_rn(vi_, start.imag()));\n\
     if ((long long)i == last) v_ = stop;\n\
     y = cuprum::cast<y_type>(v_);"
        .into()
}

/// A 64-bit integer scalar argument.
pub(crate) fn i64_arg(v: i64) -> LaunchArg<'static> {
    LaunchArg::Scalar(v.to_le_bytes().to_vec())
}

/// A float64 scalar argument.
pub(crate) fn f64_arg(v: f64) -> LaunchArg<'static> {
    LaunchArg::Scalar(v.to_le_bytes().to_vec())
}

/// Every generator kernel's variants.
fn gens() -> Vec<Gen> {
    vec![
        Gen::Eye,
        Gen::Tri,
        Gen::Tril,
        Gen::Triu,
        Gen::Diag { ndim: 1 },
        Gen::Diag { ndim: 3 },
        Gen::Arange,
        Gen::Linspace { complex: false },
        Gen::Linspace { complex: true },
        Gen::AxisIndex,
        Gen::Grid { float: false },
        Gen::Grid { float: true },
    ]
}

/// Every creation kernel over every dtype in the vectorised contiguous
/// loop, and the other loops for one dtype: what the NVRTC test and
/// `cargo xtask precompile` compile.
pub(crate) fn kernel_specs() -> Vec<ElementwiseSpec> {
    let variants = [
        (
            LayoutClass::Contiguous { vectorized: true },
            IndexWidth::I32,
        ),
        (
            LayoutClass::Contiguous { vectorized: false },
            IndexWidth::I64,
        ),
        (LayoutClass::Strided { ndim: 2 }, IndexWidth::I32),
    ];
    // Every dtype in the vectorised variant (the operation text is what
    // differs by dtype); the other loops for one dtype.
    let mut out = Vec::new();
    for g in gens() {
        for dt in DType::ALL {
            out.push(g.spec(dt, variants[0].0, variants[0].1));
        }
        for (l, i) in &variants[1..] {
            out.push(g.spec(DType::Float64, *l, *i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elementwise::render_program;
    use crate::kernels::HEADERS;
    use gpu_runtime::nvrtc::{self, CompileRequest};

    #[test]
    fn specs_are_valid_unique_and_deterministic() {
        let specs = kernel_specs();
        let mut names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(n, names.len(), "duplicate kernel names");
        for s in &specs {
            s.validate().unwrap_or_else(|e| panic!("{}: {e}", s.name));
            assert!(!s.read_outputs);
        }
        assert_eq!(render_program(&specs), render_program(&kernel_specs()));
        assert_eq!(
            Gen::Eye
                .spec(
                    DType::Float32,
                    LayoutClass::Strided { ndim: 1 },
                    IndexWidth::I64
                )
                .name,
            "cuprum_eye_f4_s1_i64"
        );
    }

    #[test]
    fn arange_uses_the_dtype_arithmetic() {
        assert!(arange_operation(DType::Float16).contains("__fmul_rn((float)i"));
        assert!(arange_operation(DType::Float64).contains("__dmul_rn((double)i"));
        assert!(arange_operation(DType::Int8).contains("unsigned long long"));
        assert!(linspace_operation(false, DType::Int32).contains("floor"));
        assert!(!linspace_operation(false, DType::Bool).contains("floor"));
    }

    /// Tier 2: every creation kernel compiles with the real NVRTC for
    /// sm_80 and sm_90, for every dtype (one program per architecture).
    #[test]
    fn every_creation_kernel_compiles_with_nvrtc() {
        if gpu_runtime::testing::nvrtc_or_skip().is_none() {
            return;
        }
        let config = gpu_runtime::testing::no_cache();
        let source = render_program(&kernel_specs());
        for arch in ["sm_80", "sm_90"] {
            let mut req = CompileRequest::new(source.clone()).arch(arch);
            req.name = "creation.cu".into();
            for (name, text) in HEADERS {
                req = req.header(name, text);
            }
            if let Err(e) = nvrtc::compile_uncached(&req, &config) {
                let msg = e.to_string();
                panic!("creation kernels ({arch}): {}", &msg[..msg.len().min(8000)]);
            }
        }
    }
}
