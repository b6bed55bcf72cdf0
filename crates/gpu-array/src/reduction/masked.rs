//! NumPy's `initial=` and `where=` for the built-in reductions, composed
//! from the plain reduction and the elementwise `where`: masked-out
//! elements become the operation's identity (or `initial`), and `initial`
//! joins the result by the operation itself. One extra elementwise pass
//! over the input when a mask is given; none for `initial` alone.

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

/// [`reduce`] with `opts.initial` or `opts.where_` set.
pub(crate) fn reduce_masked(op: Builtin, a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    let takes_initial = matches!(
        op,
        Builtin::Sum
            | Builtin::Prod
            | Builtin::Max
            | Builtin::Min
            | Builtin::NanSum
            | Builtin::NanProd
            | Builtin::NanMax
            | Builtin::NanMin
    );
    if opts.initial.is_some() && !takes_initial {
        return Err(Error::DType(format!(
            "{}() got an unexpected keyword argument 'initial'",
            op.name()
        )));
    }
    let takes_where = takes_initial || matches!(op, Builtin::All | Builtin::Any | Builtin::Mean);
    if opts.where_.is_some() && !takes_where {
        return Err(Error::Unsupported(format!(
            "{}: where= is supported for sum, prod, max, min, all, any, mean and the nan \
             forms of the first four",
            op.name()
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
        (_, Some(mask)) => {
            if !mask.dtype().is_bool() {
                return Err(Error::DType(format!(
                    "Cannot cast array data from dtype('{}') to dtype('bool') according to the \
                     rule 'safe'",
                    mask.dtype()
                )));
            }
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
    let counts = reduce(
        Builtin::Sum,
        &m,
        &ReduceOptions {
            dtype: Some(DType::Int64),
            ..plain.clone()
        },
    )?;
    let mean = ufunc::true_divide(&sums, &counts)?;
    if mean.dtype() == sums.dtype() {
        Ok(mean)
    } else {
        mean.astype(sums.dtype())
    }
}
