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

impl<'a> Gen<'a> {
    /// The kernel writing `y`, each operand listed once with its value.
    /// `y` must be C-contiguous for a launch.
    pub(crate) fn kernel(self, y: Bind<'a>) -> Elementwise<'a> {
        let dt = y.dtype();
        let i64_ = DType::Int64;
        let k = match self {
            Gen::Eye { tri, k, m } => Elementwise::new(if tri { "tri" } else { "eye" })
                .scalar("k", i64_, k)
                .scalar("m", i64_, m)
                .op(format!(
                    "y = cuprum::cast<y_type>(cuprum_np::eye_value<{tri}>((long long)i, m, k));"
                )),
            Gen::Tril {
                lower,
                x,
                k,
                nrows,
                ncols,
            } => Elementwise::new(if lower { "tril" } else { "triu" })
                .input("x", x)
                .scalar("k", i64_, k)
                .scalar("nrows", i64_, nrows)
                .scalar("ncols", i64_, ncols)
                .op(format!(
                    "y = cuprum_np::in_triangle<{lower}>((long long)i, nrows, ncols, k) ? x : \
                         cuprum::cast<y_type>(0);"
                )),
            Gen::Diag { v, k, side } => Elementwise::new("diag")
                .raw("v", v)
                .scalar("k", i64_, k)
                .scalar("side", i64_, side)
                .op("y = cuprum_np::diag_value<y_type>((long long)i, v, k, side);"),
            Gen::Arange { a, b } => Elementwise::new("arange")
                .scalar_bytes("a", dt, a)
                .scalar_bytes("b", dt, b)
                .op("y = cuprum_np::arange_value<y_type>((long long)i, a, b);"),
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
                    .op(if complex {
                        "y = cuprum::cast<y_type>(cuprum_np::linspace_complex((long long)i, start, \
                         stop, step, delta, div, mode, last));"
                            .to_owned()
                    } else {
                        format!(
                            "y = cuprum::cast<y_type>(cuprum_np::linspace_real<{}>((long long)i, \
                             start, stop, step, delta, div, mode, last));",
                            dt.is_integer()
                        )
                    })
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
                        .op("y = cuprum::cast<y_type>(cuprum_np::grid_int((long long)i, inner, dim, \
                             step, start));"),
                    (step, start) => {
                        let f = |v: GridValue| match v {
                            GridValue::Int(n) => n as f64,
                            GridValue::Float(f) => f,
                        };
                        k.scalar("step", DType::Float64, f(step))
                            .scalar("start", DType::Float64, f(start))
                            .op("y = cuprum::cast<y_type>(cuprum_np::grid_float((long long)i, inner, \
                                 dim, step, start));")
                    }
                }
            }
        };
        k.output("y", y).preamble(include_str!("kernels.cuh"))
    }

    /// Runs the kernel writing the C-contiguous `out`.
    pub(crate) fn run(self, out: &Array) -> Result<()> {
        debug_assert!(out.is_c_contiguous());
        self.kernel(out.into()).launch(out.shape())
    }
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
