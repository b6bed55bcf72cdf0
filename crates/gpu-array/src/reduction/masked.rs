//! NumPy's `initial=` and `where=` for the built-in reductions, composed
//! from the plain reduction and the elementwise `where`: masked-out
//! elements become the operation's identity (or `initial`), and `initial`
//! joins the result by the operation itself. One extra elementwise pass
//! over the input when a mask is given; none for `initial` alone. `mean`,
//! `var`, `std` and the `nan` forms of those three divide a masked sum by
//! the masked count, as NumPy composes them (several passes).

use super::builtin::{Builtin, ReduceOptions, reduce};
use crate::array::{Array, copyto};
use crate::dtype::{Casting, DType, ScalarValue};
use crate::error::{Error, Result};
use crate::indexing::where_;
use crate::ufunc::{self, Input};

/// The identity NumPy's ufunc reduction starts from, if the operation has
/// one.
fn identity(op: Builtin) -> Option<ScalarValue> {
    Some(match op {
        Builtin::Sum | Builtin::NanSum | Builtin::CountNonzero => ScalarValue::Int(0),
        Builtin::Prod | Builtin::NanProd => ScalarValue::Int(1),
        Builtin::All => ScalarValue::Bool(true),
        Builtin::Any => ScalarValue::Bool(false),
        _ => return None,
    })
}

/// Whether NumPy's form of `op` takes `initial=`.
const fn takes_initial(op: Builtin) -> bool {
    matches!(
        op,
        Builtin::Sum
            | Builtin::Prod
            | Builtin::Max
            | Builtin::Min
            | Builtin::NanSum
            | Builtin::NanProd
            | Builtin::NanMax
            | Builtin::NanMin
    )
}

/// Whether NumPy's form of `op` takes `where=` (the arg forms and
/// `count_nonzero` take none).
const fn takes_where(op: Builtin) -> bool {
    takes_initial(op)
        || matches!(
            op,
            Builtin::All
                | Builtin::Any
                | Builtin::Mean
                | Builtin::Var
                | Builtin::Std
                | Builtin::NanMean
                | Builtin::NanVar
                | Builtin::NanStd
        )
}

/// [`reduce`] with `opts.initial` or `opts.where_` set.
pub(crate) fn reduce_masked(op: Builtin, a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    if opts.initial.is_some() && !takes_initial(op) {
        return Err(Error::DType(format!(
            "{}() got an unexpected keyword argument 'initial'",
            op.name()
        )));
    }
    if opts.where_.is_some() && !takes_where(op) {
        // Every reduction of NumPy's with `where=` takes it here; the arg
        // forms and `count_nonzero` have none (NumPy's TypeError).
        return Err(Error::DType(format!(
            "{}() got an unexpected keyword argument 'where'",
            op.tag()
        )));
    }
    if let Some(mask) = opts.where_
        && !mask.dtype().is_bool()
    {
        return Err(Error::DType(format!(
            "Cannot cast array data from dtype('{}') to dtype('bool') according to the rule \
             'safe'",
            mask.dtype()
        )));
    }
    let plain = ReduceOptions {
        initial: None,
        where_: None,
        out: None,
        ..opts.clone()
    };
    let result = match (op, opts.where_) {
        (Builtin::Mean, Some(mask)) => masked_mean(a, mask, &plain)?,
        (
            Builtin::Var | Builtin::Std | Builtin::NanMean | Builtin::NanVar | Builtin::NanStd,
            Some(mask),
        ) => masked_moment(op, a, mask, &plain)?,
        (_, Some(mask)) => {
            let fill = match (identity(op), opts.initial) {
                (Some(id), _) => id,
                (None, Some(init)) => init,
                (None, None) => {
                    return Err(Error::Value(format!(
                        "reduction operation '{}' does not have an identity, so to use a where \
                         mask one has to specify 'initial'",
                        numpy_ufunc(op)
                    )));
                }
            };
            let filled = where_(mask, a, Input::Scalar(fill))?;
            // The fill must not change the dtype the reduction sees.
            let filled = if filled.dtype() == a.dtype() {
                filled
            } else {
                filled.astype(a.dtype())?
            };
            reduce_or_initial(op, &filled, &plain, opts.initial)?
        }
        (_, None) => reduce_or_initial(op, a, &plain, opts.initial)?,
    };
    match opts.out {
        Some(o) => {
            crate::error::check_out_shape(op.name(), result.shape(), o.shape(), true)?;
            copyto(o, &result, Casting::SameKind, None)?;
            Ok(o.clone())
        }
        None => Ok(result),
    }
}

/// NumPy's name of the ufunc a reduction reduces with.
fn numpy_ufunc(op: Builtin) -> &'static str {
    match op {
        Builtin::Max | Builtin::NanMax => "maximum",
        Builtin::Min | Builtin::NanMin => "minimum",
        _ => op.name(),
    }
}

/// The reduction of `a`, joined with `initial` by the operation (`sum` +
/// initial, `max(.., initial)`, ...); an empty reduction gives `initial`.
fn reduce_or_initial(
    op: Builtin,
    a: &Array,
    plain: &ReduceOptions<'_>,
    initial: Option<ScalarValue>,
) -> Result<Array> {
    let Some(init) = initial else {
        return reduce(op, a, plain);
    };
    let empty_max_min = matches!(
        op,
        Builtin::Max | Builtin::Min | Builtin::NanMax | Builtin::NanMin
    ) && reduced_is_empty(a, plain)?;
    if empty_max_min {
        // No element to reduce: the result is `initial` everywhere, in
        // the dtype the reduction would give (its dtype rule, not a
        // throwaway launch).
        let dtype = op.result_dtype(a.dtype(), plain.dtype)?;
        let shape = super::plan::result_shape(
            a.shape(),
            &super::plan::reduced_axes(plain.axis.as_deref(), a.ndim())?,
            plain.keepdims,
        );
        return crate::creation::full(shape, init, Some(dtype));
    }
    let r = reduce(op, a, plain)?;
    let joined = match op {
        Builtin::Sum | Builtin::NanSum => ufunc::add(&r, Input::Scalar(init))?,
        Builtin::Prod | Builtin::NanProd => ufunc::multiply(&r, Input::Scalar(init))?,
        Builtin::Max => ufunc::maximum(&r, Input::Scalar(init))?,
        Builtin::Min => ufunc::minimum(&r, Input::Scalar(init))?,
        Builtin::NanMax => ufunc::fmax(&r, Input::Scalar(init))?,
        Builtin::NanMin => ufunc::fmin(&r, Input::Scalar(init))?,
        _ => unreachable!("checked by reduce_masked"),
    };
    // A weak scalar keeps the result's dtype, but a bool sum's int64 is
    // what NumPy keeps too; only guard against a widened float.
    if joined.dtype() == r.dtype() {
        Ok(joined)
    } else {
        joined.astype(r.dtype())
    }
}

/// Whether the axes `plain` reduces hold no element.
fn reduced_is_empty(a: &Array, plain: &ReduceOptions<'_>) -> Result<bool> {
    let axes = super::plan::reduced_axes(plain.axis.as_deref(), a.ndim())?;
    Ok(axes.iter().any(|&k| a.shape()[k] == 0) || (a.ndim() == 0 && a.size() == 0))
}

/// NumPy's `mean(a, where=mask)`: the masked sum over the masked count.
fn masked_mean(a: &Array, mask: &Array, plain: &ReduceOptions<'_>) -> Result<Array> {
    let shape = crate::layout::broadcast_shapes(&[a.shape(), mask.shape()])?;
    let dt = match plain.dtype {
        Some(d) => d,
        None if a.dtype().is_inexact() => a.dtype(),
        None => DType::Float64,
    };
    let x = a.broadcast_to(&shape)?.astype(dt)?;
    let m = mask.broadcast_to(&shape)?;
    let sums = reduce(
        Builtin::Sum,
        &where_(&m, &x, Input::Scalar(ScalarValue::Int(0)))?,
        plain,
    )?;
    let counts = masked_count(&m, plain)?;
    let mean = ufunc::true_divide(&sums, &counts)?;
    if mean.dtype() == sums.dtype() {
        Ok(mean)
    } else {
        mean.astype(sums.dtype())
    }
}

/// NumPy's `var`, `std`, `nanmean`, `nanvar` and `nanstd` with
/// `where=mask` (a bool `mask`, checked by the caller), as NumPy composes
/// them: the mean over the selected elements (kept dims), the squared
/// deviations from it (`|x - mean|**2` for complex, a real result), their
/// sum over the selected elements divided by the selected count less
/// `ddof`. The `nan` forms of a float input select only the non-NaN
/// elements among the masked ones; there a count less `ddof` of zero or
/// below gives NaN (NumPy's `nanvar` replaces it), while `var` divides by
/// `max(count - ddof, 0)` as NumPy's does (inf, or NaN for a zero sum).
/// The result dtype is the unmasked reduction's; float16 is computed in
/// float32.
fn masked_moment(op: Builtin, a: &Array, mask: &Array, plain: &ReduceOptions<'_>) -> Result<Array> {
    let result_dtype = op.result_dtype(a.dtype(), plain.dtype)?;
    let shape = crate::layout::broadcast_shapes(&[a.shape(), mask.shape()])?;
    let work = match plain.dtype {
        Some(d) => d,
        None if a.dtype().is_inexact() => a.dtype(),
        None => DType::Float64,
    };
    let work = match work {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d => d,
    };
    let x = a.broadcast_to(&shape)?.astype(work)?;
    let m = mask.broadcast_to(&shape)?;
    let skip_nan = matches!(op, Builtin::NanMean | Builtin::NanVar | Builtin::NanStd)
        && a.dtype().is_inexact();
    let m = if skip_nan {
        ufunc::logical_and(&m, ufunc::logical_not(ufunc::isnan(&x)?)?)?
    } else {
        m
    };
    let cast = |r: Array| {
        if r.dtype() == result_dtype {
            Ok(r)
        } else {
            r.astype(result_dtype)
        }
    };
    let in_work = ReduceOptions {
        dtype: None,
        ..plain.clone()
    };
    if op == Builtin::NanMean {
        return cast(masked_mean(&x, &m, &in_work)?);
    }
    let mean = masked_mean(
        &x,
        &m,
        &ReduceOptions {
            keepdims: true,
            ..in_work.clone()
        },
    )?;
    let dev = ufunc::subtract(&x, &mean)?;
    let squares = if dev.dtype().is_complex() {
        let (re, im) = (dev.real(), dev.imag()?);
        ufunc::add(ufunc::multiply(&re, &re)?, ufunc::multiply(&im, &im)?)?
    } else {
        ufunc::multiply(&dev, &dev)?
    };
    // Deselected deviations may be NaN or inf (a NaN skipped, an empty
    // selection's NaN mean): zero, not multiplied by zero.
    let sums = reduce(
        Builtin::Sum,
        &where_(&m, &squares, Input::Scalar(ScalarValue::Int(0)))?,
        &in_work,
    )?;
    let counts = masked_count(&m, plain)?;
    let dof = ufunc::subtract(&counts, plain.ddof)?;
    let quotient = ufunc::true_divide(&sums, ufunc::maximum(&dof, 0.0)?)?;
    let quotient = if skip_nan {
        where_(&dof.less_equal(0.0)?, f64::NAN, &quotient)?
    } else {
        quotient
    };
    let var = cast(quotient)?;
    if matches!(op, Builtin::Std | Builtin::NanStd) {
        ufunc::sqrt(&var)
    } else {
        Ok(var)
    }
}

/// How many elements of the broadcast mask `m` are true along the
/// reduced axes (int64).
fn masked_count(m: &Array, plain: &ReduceOptions<'_>) -> Result<Array> {
    reduce(
        Builtin::Sum,
        m,
        &ReduceOptions {
            dtype: Some(DType::Int64),
            ..plain.clone()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NumPy's `where=` reaches every reduction but the arg forms and
    /// `count_nonzero`; `initial=` only the ones with a starting value.
    #[test]
    fn where_reaches_the_moments() {
        for op in Builtin::ALL {
            let arg_or_count = op.is_arg() || op == Builtin::CountNonzero;
            assert_eq!(takes_where(op), !arg_or_count, "{op:?}");
        }
        for op in [
            Builtin::Var,
            Builtin::Std,
            Builtin::NanMean,
            Builtin::NanVar,
            Builtin::NanStd,
        ] {
            assert!(takes_where(op) && !takes_initial(op), "{op:?}");
        }
        assert!(takes_initial(Builtin::NanMax) && !takes_initial(Builtin::Mean));
    }
}
