//! `put`: writes values at flat indices (a scatter).

use super::TakeMode;
use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};

/// `put`: the raw `a` (`na` elements, C order) takes `v[i % vn]` at the
/// index `ind`, clipped or wrapped into `0..na`.
pub(super) fn put_kernel<'a>(
    ind: Bind<'a>,
    v: Bind<'a>,
    a: Bind<'a>,
    na: usize,
    vn: usize,
    clip: bool,
) -> Elementwise<'a> {
    Elementwise::new("put")
        .input("ind", ind)
        .raw("v", v)
        .scalar("na", DType::Int64, na)
        .scalar("vn", DType::Int64, vn)
        .scalar("clip", DType::Int32, i32::from(clip))
        .raw_output("a", a)
        .op("a[cuprum_np::take_index((long long)ind, na, clip)] = v[(long long)i % vn];")
        .preamble(super::PREAMBLE)
}

/// Writes `values` into the flattened `a` at `indices` (NumPy's and CuPy's
/// `put`): `values` repeat cyclically when shorter than `indices` and are
/// cast to `a`'s dtype. Out-of-bounds indices wrap (or clip with
/// [`TakeMode::Clip`]); which of several writes to one element wins is
/// undefined, as CuPy documents.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros(4, gpu_array::DType::Int64)?;
/// put(&a, &array([0, 2])?, &array([7, 9])?, TakeMode::Wrap)?; // a: [7, 0, 9, 0]
/// # Ok(()) }
/// ```
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
    let clip = mode == TakeMode::Clip;
    put_kernel(
        indices.into(),
        (&v).into(),
        a.into(),
        a.size(),
        v.size(),
        clip,
    )
    .launch(indices.shape())?;
    Ok(())
}
