//! `put`: writes values at flat indices (a scatter).

use super::TakeMode;
use crate::array::Array;
use crate::dtype::ScalarValue;
use crate::elementwise::cached_kernel;
use crate::error::{Error, Result};
use crate::ufunc::Input;

cached_kernel! {
    pub(super) fn put_kernel {
        inputs: "I ind, raw T v, int64 na, int64 vn, int32 clip",
        outputs: "raw T a",
        body: "long long k = (long long)ind; \
               if (clip) { k = k < 0 ? 0 : (k >= na ? na - 1 : k); } \
               else { if (k < 0 || k >= na) { k %= na; if (k < 0) k += na; } } \
               a[k] = v[(long long)i % vn];",
        name: "cuprum_put",
    }
}

/// Writes `values` into the flattened `a` at `indices` (NumPy's and CuPy's
/// `put`): `values` repeat cyclically when shorter than `indices` and are
/// cast to `a`'s dtype. Out-of-bounds indices wrap (or clip with
/// [`TakeMode::Clip`]); which of several writes to one element wins is
/// undefined, as CuPy documents.
///
/// # Errors
/// Non-integer indices; empty `values` with indices; an empty `a` with
/// indices; different devices.
pub fn put(a: &Array, indices: &Array, values: &Array, mode: TakeMode) -> Result<()> {
    if !indices.dtype().is_integer() {
        return Err(Error::Index(format!(
            "put: indices must be integers, not {}",
            indices.dtype()
        )));
    }
    a.check_same_device(indices, "put")?;
    a.check_same_device(values, "put")?;
    if indices.size() == 0 {
        return Ok(());
    }
    if values.size() == 0 {
        return Err(Error::Value(
            "put: cannot put an empty array of values".into(),
        ));
    }
    if a.size() == 0 {
        return Err(Error::Index(
            "cannot replace elements of an empty array".into(),
        ));
    }
    let v = if values.dtype() == a.dtype() {
        values.clone()
    } else {
        values.astype(a.dtype())?
    };
    let int = |n: usize| Input::Scalar(ScalarValue::Int(n as i128));
    put_kernel().call(
        &[
            Input::Array(indices).into(),
            Input::Array(&v).into(),
            int(a.size()).into(),
            int(v.size()).into(),
            Input::Scalar(ScalarValue::Int(i128::from(mode == TakeMode::Clip))).into(),
        ],
        &[a],
        None,
    )?;
    Ok(())
}
