//! The built-in kernels' common specialisations, for `cargo xtask
//! precompile`: the exact specs the launcher builds for ufunc loops, casts
//! and fills over the common dtypes and layouts, so a kernel cache filled
//! ahead of time is hit by the first call of a fresh process.

use super::{Bind, Elementwise, ElementwiseSpec, IndexWidth, LayoutClass};
use crate::dtype::{Casting, DType, Operand};
use crate::ufunc::{self, UfuncInput, UfuncParams};

/// Dtypes whose loops and casts are precompiled.
pub const COMMON_DTYPES: [DType; 7] = [
    DType::Bool,
    DType::Int32,
    DType::Int64,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// Layouts precompiled for array-only calls: vectorised contiguous (the
/// aligned fast path), plain contiguous (unaligned views) and 2-d strided
/// (broadcasts, transposes), all with 32-bit indexing.
const LAYOUTS: [LayoutClass; 3] = [
    LayoutClass::Contiguous { vectorized: true },
    LayoutClass::Contiguous { vectorized: false },
    LayoutClass::Strided { ndim: 2 },
];

/// Every common specialisation, deterministic in order.
///
/// ```
/// use gpu_array::elementwise::common_specs;
/// let specs = common_specs();
/// assert!(specs.iter().all(|s| s.validate().is_ok()));
/// assert!(specs.iter().any(|s| s.name.starts_with("cuprum_astype_")));
/// ```
pub fn common_specs() -> Vec<ElementwiseSpec> {
    let mut out = Vec::new();
    let common = |d: &DType| COMMON_DTYPES.contains(d);
    for u in ufunc::all() {
        for lp in u.loops() {
            if !lp.inputs.iter().chain(&lp.outputs).all(common) {
                continue;
            }
            let ops: Vec<Operand> = lp.inputs.iter().map(|&d| Operand::Array(d)).collect();
            let params = UfuncParams {
                signature: Some(
                    lp.inputs
                        .iter()
                        .chain(&lp.outputs)
                        .map(|&d| Some(d))
                        .collect(),
                ),
                casting: Casting::SameKind,
                ..Default::default()
            };
            let Ok(resolved) = u.resolve(&ops, &params) else {
                continue;
            };
            let arrays: Vec<UfuncInput> = lp.inputs.iter().map(|&d| UfuncInput::Array(d)).collect();
            for layout in LAYOUTS {
                if let Ok(s) = resolved.spec(&arrays, &lp.outputs, layout, IndexWidth::I32) {
                    out.push(s);
                }
            }
            // `array (op) scalar`, the other common call.
            if lp.inputs.len() == 2 {
                let mixed = [UfuncInput::Array(lp.inputs[0]), UfuncInput::Scalar];
                let l = LayoutClass::Contiguous { vectorized: true };
                if let Ok(s) = resolved.spec(&mixed, &lp.outputs, l, IndexWidth::I32) {
                    out.push(s);
                }
            }
        }
    }
    for from in COMMON_DTYPES {
        for to in COMMON_DTYPES {
            for layout in LAYOUTS {
                out.push(astype_spec(from, to, layout, IndexWidth::I32));
            }
        }
        out.push(fill_spec(
            from,
            LayoutClass::Contiguous { vectorized: true },
            IndexWidth::I32,
        ));
    }
    out
}

/// `Array::fill`'s kernel: `value` (bytes in `y`'s dtype) into every
/// element of `y`.
pub(crate) fn fill_kernel(value: Vec<u8>, y: Bind<'_>) -> Elementwise<'_> {
    Elementwise::new("fill")
        .scalar_bytes("v", y.dtype(), value)
        .output("y", y)
        .op("y = v;")
}

/// `astype`'s kernel from `x`'s dtype to `y`'s: `y = cuprum::cast<y_type>(x)`
/// with the conversion rules of `kernels/cuprum/types.cuh` (CuPy's float to
/// integer behaviour, complex to real takes the real part, nonzero to true).
pub(crate) fn astype_kernel<'a>(x: Bind<'a>, y: Bind<'a>) -> Elementwise<'a> {
    Elementwise::new("astype")
        .input("x", x)
        .output("y", y)
        .op("y = cuprum::cast<y_type>(x);")
}

/// The spec of `Array::fill` for `dtype` (named `cuprum_fill_s<t>_<t>_..`).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass, fill_spec};
/// let s = fill_spec(DType::Float32, LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
/// assert!(s.name.starts_with("cuprum_fill_"));
/// assert!(s.validate().is_ok());
/// ```
pub fn fill_spec(dtype: DType, layout: LayoutClass, index: IndexWidth) -> ElementwiseSpec {
    fill_kernel(vec![0; dtype.itemsize()], dtype.into())
        .spec(layout, index)
        .expect("fill's operation text is given outright")
}

/// The spec of `astype` from `from` to `to`, named
/// `cuprum_astype_<from>_<to>_<variant>` (`cuprum_astype_f8_i4_cv_i32`).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass, astype_spec};
/// let s = astype_spec(DType::Float64, DType::Int32, LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
/// assert_eq!(s.name, "cuprum_astype_f8_i4_cv_i32");
/// ```
pub fn astype_spec(
    from: DType,
    to: DType,
    layout: LayoutClass,
    index: IndexWidth,
) -> ElementwiseSpec {
    astype_kernel(from.into(), to.into())
        .spec(layout, index)
        .expect("astype's operation text is given outright")
}

#[cfg(test)]
mod tests {
    #[test]
    fn common_specs_are_valid_and_unique() {
        let specs = super::common_specs();
        assert!(specs.len() > 500, "{}", specs.len());
        let mut names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "kernel names repeat");
        for s in &specs {
            s.validate().unwrap();
        }
    }
}
