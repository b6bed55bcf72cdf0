//! Writes under a mask: `place` (the masked elements take the values in
//! turn) and `putmask` (element `n` takes value `n`). Both write in place,
//! into `a` of any layout, in C order; the values repeat cyclically.

use crate::array::Array;
use crate::dtype::{Casting, DType, check_cast};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};

/// `place`: where the flat mask `m` is true, element `i` of the raw `a`
/// (C order) takes `v[(c - 1) % nv]` of the raw `v`, `c` the mask's
/// inclusive cumulative sum.
pub(super) fn place_kernel<'a>(
    m: Bind<'a>,
    c: Bind<'a>,
    v: Bind<'a>,
    a: Bind<'a>,
    nv: usize,
) -> Elementwise<'a> {
    Elementwise::new("place")
        .input("m", m)
        .input("c", c)
        .raw("v", v)
        .scalar("nv", DType::Int64, nv)
        .raw_output("a", a)
        .op("if (m) a[i] = v[(c - 1) % nv];")
}

/// `putmask`: where the flat mask `m` is nonzero, element `i` of the raw
/// `a` (C order) takes `v[i % nv]` of the raw `v`.
pub(super) fn putmask_kernel<'a>(
    m: Bind<'a>,
    v: Bind<'a>,
    a: Bind<'a>,
    nv: usize,
) -> Elementwise<'a> {
    Elementwise::new("putmask")
        .input("m", m)
        .raw("v", v)
        .scalar("nv", DType::Int64, nv)
        .raw_output("a", a)
        .op("if (cuprum::cast<bool>(m)) a[i] = v[(long long)i % nv];")
}

/// `values` in `a`'s dtype (a safe cast, as NumPy's `place` and `putmask`).
fn cast_values(a: &Array, values: &Array) -> Result<Array> {
    if values.dtype() == a.dtype() {
        return Ok(values.clone());
    }
    check_cast(values.dtype(), a.dtype(), Casting::Safe)?;
    values.astype(a.dtype())
}

/// Writes `vals` into the elements of `a` where `mask` is nonzero, the
/// `k`-th such element (C order) taking `vals[k % vals.size]` (NumPy's and
/// CuPy's `place`). `mask` has `a`'s size (any shape: both are read in C
/// order); `vals` casts safely to `a`'s dtype and is read flattened.
///
/// A cumulative sum of the mask numbers the masked elements, so that one
/// kernel writes them all; only empty `vals` waits for the device (to ask
/// whether any element is masked).
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = arange(4)?;
/// place(&a, &array([true, false, true, false])?, &array([9])?)?; // a: [9, 1, 9, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Sizes differ ("place: mask and data must be the same size"); `vals`
/// empty where the mask has a true element ("Cannot insert from an empty
/// array!"); an unsafe cast; different devices.
pub fn place(a: &Array, mask: &Array, vals: &Array) -> Result<()> {
    if mask.size() != a.size() {
        return Err(Error::Value(
            "place: mask and data must be the same size".into(),
        ));
    }
    a.check_same_device(mask, "place")?;
    a.check_same_device(vals, "place")?;
    let v = cast_values(a, vals)?;
    let n = a.size();
    if n == 0 {
        return Ok(());
    }
    let m = if mask.dtype() == DType::Bool {
        mask.reshape([-1])?
    } else {
        mask.not_equal(0)?.reshape([-1])?
    };
    let csum = crate::math::cumsum(&m, None, Some(DType::Int64))?;
    if v.size() == 0 {
        if csum.item::<i64>(&[n as isize - 1])? > 0 {
            return Err(Error::Value("Cannot insert from an empty array!".into()));
        }
        return Ok(());
    }
    place_kernel((&m).into(), (&csum).into(), (&v).into(), a.into(), v.size()).launch(&[n])?;
    Ok(())
}

/// Sets `a.flat[n] = values.flat[n % values.size]` where `mask.flat[n]` is
/// nonzero (NumPy's and CuPy's `putmask`): `mask` has `a`'s shape;
/// `values` casts safely to `a`'s dtype; empty `values` change nothing, as
/// NumPy's. One kernel, no wait.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = arange(4)?;
/// putmask(&a, &array([false, true, false, true])?, &array([7, 8])?)?; // a: [0, 8, 0, 8]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes differ ("putmask: mask and data must be the same size"); an
/// unsafe cast; different devices.
pub fn putmask(a: &Array, mask: &Array, values: &Array) -> Result<()> {
    if mask.shape() != a.shape() {
        return Err(Error::Value(
            "putmask: mask and data must be the same size".into(),
        ));
    }
    a.check_same_device(mask, "putmask")?;
    a.check_same_device(values, "putmask")?;
    let v = cast_values(a, values)?;
    if a.size() == 0 || v.size() == 0 {
        return Ok(());
    }
    // Flat (a view when the mask is C-contiguous): the kernel's `i` must be
    // the C-order position, which a permuted iteration would not keep.
    let m = mask.ravel()?;
    putmask_kernel((&m).into(), (&v).into(), a.into(), v.size()).launch(m.shape())?;
    Ok(())
}

/// The place and putmask kernels' specs for each data and mask dtype.
pub(super) fn kernel_specs(
    data: &[DType],
    masks: &[DType],
    layout: crate::elementwise::LayoutClass,
    width: crate::elementwise::IndexWidth,
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let raw2 = |d| Bind::Dtype(d, 2);
    let mut out = Vec::new();
    for &d in data {
        let k = place_kernel(DType::Bool.into(), DType::Int64.into(), raw2(d), raw2(d), 0);
        out.extend(k.spec(layout, width));
        for &m in masks {
            out.extend(putmask_kernel(m.into(), raw2(d), raw2(d), 0).spec(layout, width));
        }
    }
    out
}
