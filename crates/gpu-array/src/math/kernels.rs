//! The list of the elementwise kernels of [`crate::math`],
//! [`crate::polynomial`] and [`crate::stats`]' searches, over the dtypes
//! their launchers use, for the NVRTC test and `cargo xtask precompile`.
//! Each kernel is described once, beside the NumPy function it serves
//! (`around_kernel` in `rounding.rs`, `horner_kernel` in `polynomial/`,
//! ...), and its device code sits in the `.cuh` file next to it; this list
//! renders those very descriptions with dtypes in place of arrays.
//!
//! Formulas that NumPy evaluates as separate multiplies and adds use the
//! `_rn` intrinsics (or `--fmad=false` for the generic Horner loops), so
//! that NVRTC does not contract them into fused multiply-adds, whose single
//! rounding differs from NumPy's two.

use super::clip::{BoundArg, clip_kernel, nan_to_num_kernel};
use super::convolve::correlate_kernel;
use super::interp::{InterpScalars, interp_kernel};
use super::rounding::{RoundMode, around_kernel};
use super::special::{i0_kernel, rsqrt_kernel, sinc_kernel};
use super::unwrap::{UnwrapScalars, unwrap_kernel};
use super::window::{Window, window_kernel};
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{Bind, Elementwise, ElementwiseSpec, IndexWidth, LayoutClass};
use crate::polynomial::{horner_kernel, horner_tensor_kernel, vander_kernel};
use crate::stats::histogram::{Search, digitize_kernel};
use crate::stats::histogramdd::histdd_kernel;

/// Every kernel of this module over the dtypes its launchers use, in one
/// layout each (the operation text is what differs by dtype), plus the
/// strided and 64-bit-index variants of one dtype per kernel: what the
/// NVRTC test compiles.
///
/// ```
/// let specs = gpu_array::math::kernel_specs();
/// assert!(!specs.is_empty() && specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn kernel_specs() -> Vec<ElementwiseSpec> {
    let cv = LayoutClass::Contiguous { vectorized: true };
    let i32_ = IndexWidth::I32;
    let reals = [
        DType::Bool,
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];
    let floats = [
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];
    let cplx = [DType::Complex64, DType::Complex128];
    let d = |t: DType| Bind::Dtype(t, 1);
    let scalar = BoundArg::Scalar(ScalarValue::Float(0.0));
    let interp = |x, out| {
        let s = InterpScalars {
            left: ScalarValue::Float(0.0),
            right: ScalarValue::Float(0.0),
            period: 0.0,
            len: 2,
            given: 0,
        };
        interp_kernel(d(x), d(DType::Float64), d(out), d(out), s)
    };
    let unwrap = |x, out| {
        let s = UnwrapScalars {
            period: ScalarValue::Float(0.0),
            high: ScalarValue::Float(0.0),
            discont: 0.0,
            ambiguous: false,
        };
        unwrap_kernel(d(x), d(out), s)
    };
    let search = Search {
        len: 2,
        side_right: false,
        decreasing: false,
    };
    let mut ks: Vec<Elementwise<'static>> = Vec::new();
    for t in floats.iter().chain(&cplx) {
        for m in [RoundMode::Rint, RoundMode::Mul, RoundMode::Div] {
            ks.push(around_kernel(d(*t), d(*t), m, 1.0));
        }
    }
    for t in [DType::Int8, DType::Int32, DType::Int64, DType::UInt64] {
        ks.push(around_kernel(d(t), d(t), RoundMode::Div, 1.0));
    }
    ks.push(around_kernel(
        d(DType::Bool),
        d(DType::Float16),
        RoundMode::Rint,
        1.0,
    ));
    for t in reals {
        let f = crate::math::special::float_result(t);
        ks.push(i0_kernel(d(t), d(f)));
        ks.push(sinc_kernel(d(t), d(f)));
        ks.push(rsqrt_kernel(d(t), d(crate::math::special::rsqrt_dtype(t))));
        ks.push(interp(t, DType::Float64));
        ks.push(clip_kernel(d(t), scalar, scalar, d(t)));
        let cmp = crate::dtype::promote_types(t, DType::Float64);
        ks.push(digitize_kernel(
            d(t),
            d(DType::Float64),
            d(DType::Int64),
            cmp,
            search,
        ));
        ks.push(correlate_kernel(d(t), d(t), d(t), [2, 2, 0], false));
        ks.push(horner_kernel(d(t), d(DType::Float64), d(cmp), 2, false));
    }
    for t in cplx {
        ks.push(sinc_kernel(d(t), d(t)));
        ks.push(rsqrt_kernel(d(t), d(t)));
        ks.push(correlate_kernel(d(t), d(t), d(t), [2, 2, 0], false));
        ks.push(clip_kernel(d(t), scalar, BoundArg::Array(d(t)), d(t)));
        ks.push(horner_kernel(d(t), d(t), d(t), 2, false));
        ks.push(vander_kernel(d(t), d(t), 2));
    }
    ks.push(interp(DType::Float32, DType::Complex128));
    ks.push(clip_kernel(
        d(DType::Int8),
        BoundArg::Array(d(DType::Int16)),
        scalar,
        d(DType::Int16),
    ));
    for t in floats.iter().chain(&cplx) {
        ks.push(nan_to_num_kernel(d(*t), d(*t), [0.0; 3]));
    }
    for t in [DType::Float16, DType::Float32, DType::Float64] {
        ks.push(unwrap(t, t));
        ks.push(vander_kernel(d(t), d(t), 2));
    }
    for (a, b) in [
        (DType::Int64, DType::Float64),
        (DType::Int32, DType::Int32),
        (DType::Int64, DType::Int64),
        (DType::Bool, DType::Float64),
    ] {
        ks.push(unwrap(a, b));
    }
    for w in Window::ALL {
        ks.push(window_kernel(w, d(DType::Float64), 2.0, 0.0));
    }
    ks.push(digitize_kernel(
        d(DType::Int64),
        d(DType::UInt64),
        d(DType::Int64),
        DType::Float64,
        search,
    ));
    for (a, c, o) in [
        (DType::Float32, DType::Float64, DType::Float64),
        (DType::Int32, DType::Float32, DType::Float64),
        (DType::Complex64, DType::Float64, DType::Complex128),
        (DType::Float16, DType::Float16, DType::Float16),
    ] {
        ks.push(horner_tensor_kernel(d(a), d(c), d(o), [2, 1, 1]));
    }
    for (a, b) in [
        (DType::Float64, DType::Float64),
        (DType::Float32, DType::Float32),
        (DType::Float16, DType::Float16),
        (DType::Int32, DType::Float64),
        (DType::UInt8, DType::Float64),
        (DType::Int64, DType::Int64),
    ] {
        ks.push(histdd_kernel(
            d(a),
            d(b),
            d(DType::Int64),
            d(DType::Int64),
            2,
        ));
    }
    let render = |k: &Elementwise<'_>, l, i| {
        k.spec(l, i)
            .expect("a built-in kernel's operation text is given outright")
    };
    let mut out: Vec<ElementwiseSpec> = ks.iter().map(|k| render(k, cv, i32_)).collect();
    // Other loops for one dtype each.
    let f32_ = DType::Float32;
    let f64_ = DType::Float64;
    let others = [
        around_kernel(d(f32_), d(f32_), RoundMode::Mul, 1.0),
        clip_kernel(d(f64_), BoundArg::Array(d(f32_)), scalar, d(f64_)),
        interp(f64_, f64_),
        horner_kernel(d(f32_), d(f32_), d(f32_), 2, false),
        unwrap(f64_, f64_),
    ];
    for (l, ix) in [
        (
            LayoutClass::Contiguous { vectorized: false },
            IndexWidth::I64,
        ),
        (LayoutClass::Strided { ndim: 3 }, IndexWidth::I32),
    ] {
        out.extend(others.iter().map(|k| render(k, l, ix)));
    }
    out
}
