//! `diff`: the n-th discrete difference along an axis, as NumPy computes
//! it: `a[1:] - a[:-1]` (`!=` for bool) repeated `n` times, each step one
//! elementwise kernel on two views of the previous result.

use crate::array::Array;
use crate::dtype::{DType, promote_types};
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, Order, normalize_axis};
use crate::ufunc;

/// NumPy's `diff(a, n, axis, prepend, append)`: the `n`-th difference
/// along `axis`. `prepend` and `append` are joined to `a` along `axis`
/// first (a 0-d one is broadcast to a single slice). `n == 0` returns `a`
/// itself, as NumPy does. bool differences are `!=`; other dtypes
/// subtract, in the dtype the inputs promote to.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = diff(&array([1, 4, 9])?, 1, -1, None, None)?; // [3, 5]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d `a` ("diff requires input that is at least one dimensional"),
/// an axis out of bounds, `prepend`/`append` whose other dimensions differ
/// from `a`'s; allocation or launch failed.
pub fn diff(
    a: &Array,
    n: usize,
    axis: isize,
    prepend: Option<&Array>,
    append: Option<&Array>,
) -> Result<Array> {
    if n == 0 {
        return Ok(a.clone());
    }
    if a.ndim() == 0 {
        return Err(Error::Value(
            "diff requires input that is at least one dimensional".into(),
        ));
    }
    let axis = normalize_axis(axis, a.ndim())?;
    let mut cur = if prepend.is_some() || append.is_some() {
        let edge = |p: &Array| -> Result<Array> {
            if p.ndim() == 0 {
                let mut shape = a.shape().to_vec();
                shape[axis] = 1;
                p.broadcast_to(&shape)
            } else {
                Ok(p.clone())
            }
        };
        let mut parts = Vec::with_capacity(3);
        if let Some(p) = prepend {
            parts.push(edge(p)?);
        }
        parts.push(a.clone());
        if let Some(p) = append {
            parts.push(edge(p)?);
        }
        concatenate(&parts, axis)?
    } else {
        a.clone()
    };
    let full = |s: AxisIndex| -> Vec<AxisIndex> {
        let mut idx = vec![AxisIndex::FULL; a.ndim()];
        idx[axis] = s;
        idx
    };
    let hi = full(AxisIndex::Slice {
        start: Some(1),
        stop: None,
        step: 1,
    });
    let lo = full(AxisIndex::Slice {
        start: None,
        stop: Some(-1),
        step: 1,
    });
    for _ in 0..n {
        let (h, l) = (cur.slice(&hi)?, cur.slice(&lo)?);
        cur = if cur.dtype() == DType::Bool {
            ufunc::not_equal(&h, &l)?
        } else {
            ufunc::subtract(&h, &l)?
        };
    }
    Ok(cur)
}

/// Joins `parts` along `axis` into a new C-ordered array of their promoted
/// dtype (NumPy's `concatenate` for what `diff` needs).
fn concatenate(parts: &[Array], axis: usize) -> Result<Array> {
    let first = &parts[0];
    let mut dtype = first.dtype();
    let mut shape = first.shape().to_vec();
    for p in &parts[1..] {
        dtype = promote_types(dtype, p.dtype());
        let same = p.ndim() == shape.len()
            && p.shape()
                .iter()
                .zip(&shape)
                .enumerate()
                .all(|(i, (x, y))| i == axis || x == y);
        if !same {
            return Err(Error::Shape(format!(
                "all the input array dimensions except for the concatenation axis must match \
                 exactly, but along dimension {axis}, the arrays have shapes {:?} and {:?}",
                first.shape(),
                p.shape()
            )));
        }
        shape[axis] += p.shape()[axis];
    }
    let out = Array::empty_on(first.device(), &shape, dtype, Order::C)?;
    let mut at = 0isize;
    for p in parts {
        let len = p.shape()[axis] as isize;
        let mut idx = vec![AxisIndex::FULL; shape.len()];
        idx[axis] = AxisIndex::Slice {
            start: Some(at),
            stop: Some(at + len),
            step: 1,
        };
        let dst = out.slice(&idx)?;
        if p.dtype() == dtype {
            dst.copy_from(p)?;
        } else {
            dst.copy_from(&p.astype(dtype)?)?;
        }
        at += len;
    }
    Ok(out)
}
