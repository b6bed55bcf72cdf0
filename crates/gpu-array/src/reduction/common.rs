//! The built-in reductions' common specialisations, for `cargo xtask
//! precompile`: the specs [`super::reduce`] builds for the common dtypes
//! over the variants the planner picks for the common shapes of
//! C-contiguous, 16-byte aligned arrays.

use super::builtin::Builtin;
use super::plan::{DeviceShape, plan, vector_for_addresses};
use super::spec::{ReductionSpec, Strategy, Variant};
use crate::dtype::DType;
use crate::elementwise::COMMON_DTYPES;

/// The planner's device: an H200's multiprocessor count. Strategies depend
/// on it only at their thresholds, which the shapes below stay clear of.
const DEVICE: DeviceShape = DeviceShape { sms: 132 };

/// (shape, reduced axes) of the common calls: a whole array (any C array
/// with `axis=None` coalesces to one dimension), the rows and the columns
/// of a square matrix, many short rows, a few long rows.
const SHAPES: [(&[usize], &[usize]); 5] = [
    (&[1 << 20], &[0]),
    (&[1024, 1024], &[1]),
    (&[1024, 1024], &[0]),
    (&[1 << 14, 64], &[1]),
    (&[8, 1 << 17], &[1]),
];

/// The variants the planner picks for the common shapes of elements of `itemsize`
/// bytes, without repeats, in a fixed order.
///
/// ```
/// use gpu_array::reduction::common::common_variants;
/// let vs = common_variants(4);
/// assert!(!vs.is_empty());
/// assert!(vs.iter().enumerate().all(|(i, v)| !vs[..i].contains(v))); // no repeats
/// ```
pub fn common_variants(itemsize: usize) -> Vec<Variant> {
    let mut out: Vec<Variant> = Vec::new();
    for (shape, axes) in SHAPES {
        let mut strides = vec![itemsize as isize; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * shape[d + 1] as isize;
        }
        let kept: Vec<usize> = (0..shape.len()).filter(|d| !axes.contains(d)).collect();
        let mut out_strides = vec![itemsize as isize; kept.len()];
        for d in (0..kept.len().saturating_sub(1)).rev() {
            out_strides[d] = out_strides[d + 1] * shape[kept[d + 1]] as isize;
        }
        let Ok(p) = plan(
            shape,
            &[(&strides, itemsize)],
            &[(&out_strides, itemsize)],
            axes,
            DEVICE,
        ) else {
            continue;
        };
        let columns = matches!(p.strategy, Strategy::Column | Strategy::ColumnSplit);
        let vector = vector_for_addresses(p.vector, &[0], itemsize, columns);
        let v = Variant::new(p.strategy, p.out_shape.len(), p.red_shape.len(), p.index)
            .with_vector(vector);
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// The reductions precompiled, and over which dtypes: the numeric ones of
/// [`COMMON_DTYPES`] for all, bool also for those NumPy code often feeds
/// masks (`sum`, `all`, `any`, `count_nonzero`).
const OPS: [Builtin; 13] = [
    Builtin::Sum,
    Builtin::Prod,
    Builtin::Max,
    Builtin::Min,
    Builtin::Mean,
    Builtin::All,
    Builtin::Any,
    Builtin::CountNonzero,
    Builtin::ArgMax,
    Builtin::ArgMin,
    Builtin::Var,
    Builtin::Std,
    Builtin::NanSum,
];

/// Every common specialisation of the built-in reductions, deterministic
/// in order: each op over int32, int64, float32 and float64 (and bool for
/// the mask reductions) without `dtype=` or `out=`, in each common variant.
///
/// ```
/// use gpu_array::reduction::common::common_specs;
/// let specs = common_specs();
/// assert!(specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn common_specs() -> Vec<ReductionSpec> {
    let mut out = Vec::new();
    for op in OPS {
        for d in COMMON_DTYPES {
            let mask_op = matches!(
                op,
                Builtin::Sum | Builtin::All | Builtin::Any | Builtin::CountNonzero
            );
            let wanted = matches!(
                d,
                DType::Int32 | DType::Int64 | DType::Float32 | DType::Float64
            ) || (d == DType::Bool && mask_op);
            if !wanted {
                continue;
            }
            let Ok(result) = op.result_dtype(d, None) else {
                continue;
            };
            let acc = op.reduce_dtype(d, result);
            for v in common_variants(d.itemsize()) {
                out.push(op.spec(d, result, acc, v));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_reductions_are_valid_unique_and_cover_the_strategies() {
        let specs = common_specs();
        assert_eq!(specs, common_specs(), "deterministic");
        let mut names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "names repeat");
        for s in &specs {
            s.validate().unwrap();
        }
        let v = common_variants(4);
        for s in [
            Strategy::TwoPass,
            Strategy::BlockPerRow,
            Strategy::WarpPerRow,
        ] {
            assert!(v.iter().any(|x| x.strategy == s), "{s:?}: {v:?}");
        }
        assert!(
            v.iter()
                .any(|x| matches!(x.strategy, Strategy::Column | Strategy::ColumnSplit)),
            "{v:?}"
        );
        // Contiguous rows are read 16 bytes at a time.
        assert!(v.iter().any(|x| x.vector == 4), "{v:?}");
    }
}
