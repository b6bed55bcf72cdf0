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
use crate::dtype::ScalarValue;
use crate::elementwise::{Bind, Elementwise, ElementwiseSpec, IndexWidth, LayoutClass};
use crate::error::Result;

/// A scalar of [`Gen::Grid`]: int64 (an all-integer grid) or float64.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GridValue {
    /// Computed in wrapping int64 arithmetic.
    Int(i64),
    /// Computed in float64.
    Float(f64),
}

/// One creation kernel with its scalar operands (its input, if any, and
/// its output are given to [`Gen::kernel`]).
#[derive(Clone, Debug)]
pub(crate) enum Gen<'a> {
    /// `y[r, c] = (c - r == k)` (`tri`: `<= k`), `m` columns.
    Eye {
        /// Whether this is `tri`'s comparison.
        tri: bool,
        /// The diagonal.
        k: i64,
        /// Columns.
        m: i64,
    },
    /// `y = x` at and below (`lower`) or above diagonal `k` of the last two
    /// axes of `nrows x ncols`, else 0.
    Tril {
        /// `tril` (else `triu`).
        lower: bool,
        /// The input, broadcast to the output.
        x: Bind<'a>,
        /// The diagonal.
        k: i64,
        /// Rows of the last two axes.
        nrows: i64,
        /// Columns of the last two axes.
        ncols: i64,
    },
    /// `y[r, c] = v[min(r, c)]` on diagonal `k` of a `side x side` matrix,
    /// else 0; `v` raw (read in C order).
    Diag {
        /// The diagonal's values.
        v: Bind<'a>,
        /// The diagonal.
        k: i64,
        /// The matrix order.
        side: i64,
    },
    /// NumPy's `arange` fill: `a`, `b`, then `a + i * (b - a)` computed in
    /// the dtype's arithmetic; `a`, `b` as bytes of the output dtype.
    Arange {
        /// The first value.
        a: Vec<u8>,
        /// The second value.
        b: Vec<u8>,
    },
    /// NumPy's `linspace` formula in float64 (or complex128 with
    /// `complex`; the real parts otherwise).
    Linspace {
        /// Whether the computation is in complex128.
        complex: bool,
        /// `start`, `stop`, `step`, `delta`.
        points: [num_complex::Complex<f64>; 4],
        /// The divisor (`num - 1`, or `num`).
        div: f64,
        /// 0: `i * step`, 1: `i / div * delta`, 2: `i * delta`.
        mode: i64,
        /// The index that is `stop` exactly (-1 for none).
        last: i64,
    },
    /// `y = (i / inner) % dim` (NumPy's `indices` along one axis).
    AxisIndex {
        /// Elements per step along the axis.
        inner: i64,
        /// The axis length.
        dim: i64,
    },
    /// `y = ((i / inner) % dim) * step + start` in int64 or float64
    /// (mgrid/ogrid); `step` and `start` of the same kind.
    Grid {
        /// Elements per step along the axis.
        inner: i64,
        /// The axis length.
        dim: i64,
        /// The step.
        step: GridValue,
        /// The start.
        start: GridValue,
    },
}

/// The C-order row and column of element `i` in the last two axes.
const ROW_COL: &str = "long long j_ = (long long)i;\n\
                       long long c_ = j_ % ncols;\n\
                       long long r_ = (j_ / ncols) % nrows;\n";

impl<'a> Gen<'a> {
    /// The kernel writing `y`, each operand listed once with its value.
    /// `y` must be C-contiguous for a launch.
    pub(crate) fn kernel(self, y: Bind<'a>) -> Elementwise<'a> {
        let dt = y.dtype();
        let i64_ = DType::Int64;
        let k = match self {
            Gen::Eye { tri, k, m } => {
                let cmp = if tri { "<=" } else { "==" };
                Elementwise::new(if tri { "tri" } else { "eye" })
                    .scalar("k", i64_, k)
                    .scalar("m", i64_, m)
                    .op(format!(
                        "long long r_ = (long long)i / m;\n\
                         long long c_ = (long long)i - r_ * m;\n\
                         y = cuprum::cast<y_type>(c_ - r_ {cmp} k);"
                    ))
            }
            Gen::Tril {
                lower,
                x,
                k,
                nrows,
                ncols,
            } => {
                let cmp = if lower { "<=" } else { ">=" };
                Elementwise::new(if lower { "tril" } else { "triu" })
                    .input("x", x)
                    .scalar("k", i64_, k)
                    .scalar("nrows", i64_, nrows)
                    .scalar("ncols", i64_, ncols)
                    .op(format!(
                        "{ROW_COL}if (c_ - r_ {cmp} k) y = x;\n\
                         else y = cuprum::cast<y_type>(0);"
                    ))
            }
            Gen::Diag { v, k, side } => Elementwise::new("diag")
                .raw("v", v)
                .scalar("k", i64_, k)
                .scalar("side", i64_, side)
                .op("long long r_ = (long long)i / side;\n\
                     long long c_ = (long long)i - r_ * side;\n\
                     if (c_ - r_ == k) y = v[k >= 0 ? r_ : c_];\n\
                     else y = cuprum::cast<y_type>(0);"),
            Gen::Arange { a, b } => Elementwise::new("arange")
                .scalar_bytes("a", dt, a)
                .scalar_bytes("b", dt, b)
                .op(arange_operation(dt)),
            Gen::Linspace {
                complex,
                points,
                div,
                mode,
                last,
            } => {
                let mut k = Elementwise::new(if complex {
                    "linspace_c16"
                } else {
                    "linspace_f8"
                });
                for (name, z) in ["start", "stop", "step", "delta"].iter().zip(points) {
                    k = if complex {
                        k.scalar(name, DType::Complex128, ScalarValue::Complex(z))
                    } else {
                        k.scalar(name, DType::Float64, z.re)
                    };
                }
                k.scalar("div", DType::Float64, div)
                    .scalar("mode", i64_, mode)
                    .scalar("last", i64_, last)
                    .op(linspace_operation(complex, dt))
            }
            Gen::AxisIndex { inner, dim } => Elementwise::new("indices")
                .scalar("inner", i64_, inner)
                .scalar("dim", i64_, dim)
                .op("y = cuprum::cast<y_type>(((long long)i / inner) % dim);"),
            Gen::Grid {
                inner,
                dim,
                step,
                start,
            } => {
                let k = Elementwise::new("grid")
                    .scalar("inner", i64_, inner)
                    .scalar("dim", i64_, dim);
                match (step, start) {
                    (GridValue::Int(step), GridValue::Int(start)) => k
                        .scalar("step", i64_, step)
                        .scalar("start", i64_, start)
                        // Wrapping int64 arithmetic, as NumPy's.
                        .op("unsigned long long t_ = (unsigned long long)(((long long)i / inner) % dim);\n\
                             y = cuprum::cast<y_type>((long long)(t_ * (unsigned long long)step + \
                             (unsigned long long)start));"),
                    (step, start) => {
                        let f = |v: GridValue| match v {
                            GridValue::Int(n) => n as f64,
                            GridValue::Float(f) => f,
                        };
                        k.scalar("step", DType::Float64, f(step))
                            .scalar("start", DType::Float64, f(start))
                            .op("double t_ = (double)(((long long)i / inner) % dim);\n\
                                 y = cuprum::cast<y_type>(__dadd_rn(__dmul_rn(t_, step), start));")
                    }
                }
            }
        };
        k.output("y", y)
    }

    /// Runs the kernel writing the C-contiguous `out`.
    pub(crate) fn run(self, out: &Array) -> Result<()> {
        debug_assert!(out.is_c_contiguous());
        self.kernel(out.into()).launch(out.shape())
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

/// Every creation kernel for an output of `dt`, operands described by
/// dtype (scalar values are placeholders: they do not enter the source).
fn gens(dt: DType) -> Vec<Gen<'static>> {
    let zero = num_complex::Complex::new(0.0, 0.0);
    let bytes = || vec![0u8; dt.itemsize()];
    let linspace = |complex| Gen::Linspace {
        complex,
        points: [zero; 4],
        div: 1.0,
        mode: 0,
        last: -1,
    };
    let grid = |v| Gen::Grid {
        inner: 1,
        dim: 1,
        step: v,
        start: v,
    };
    let tril = |lower| Gen::Tril {
        lower,
        x: dt.into(),
        k: 0,
        nrows: 1,
        ncols: 1,
    };
    vec![
        Gen::Eye {
            tri: false,
            k: 0,
            m: 1,
        },
        Gen::Eye {
            tri: true,
            k: 0,
            m: 1,
        },
        tril(true),
        tril(false),
        Gen::Diag {
            v: Bind::Dtype(dt, 1),
            k: 0,
            side: 1,
        },
        Gen::Diag {
            v: Bind::Dtype(dt, 3),
            k: 0,
            side: 1,
        },
        Gen::Arange {
            a: bytes(),
            b: bytes(),
        },
        linspace(false),
        linspace(true),
        Gen::AxisIndex { inner: 1, dim: 1 },
        grid(GridValue::Int(0)),
        grid(GridValue::Float(0.0)),
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
    let spec = |g: Gen<'static>, dt: DType, (l, i): (LayoutClass, IndexWidth)| {
        g.kernel(dt.into())
            .spec(l, i)
            .expect("a creation kernel's operation text is given outright")
    };
    // Every dtype in the vectorised variant (the operation text is what
    // differs by dtype); the other loops for one dtype.
    let mut out = Vec::new();
    let n = gens(DType::Float64).len();
    for g in 0..n {
        for dt in DType::ALL {
            out.push(spec(gens(dt).swap_remove(g), dt, variants[0]));
        }
        for v in &variants[1..] {
            out.push(spec(
                gens(DType::Float64).swap_remove(g),
                DType::Float64,
                *v,
            ));
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
        let eye = Gen::Eye {
            tri: false,
            k: 0,
            m: 1,
        };
        assert_eq!(
            eye.kernel(DType::Float32.into())
                .spec(LayoutClass::Strided { ndim: 1 }, IndexWidth::I64)
                .unwrap()
                .name,
            "cuprum_eye_si8si8_f4_s1_i64"
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
