//! Arrays from existing data: `array`, `asarray`, `ascontiguousarray`,
//! `asfortranarray`, `copy`.

use super::basic::empty_like;
use crate::array::{Array, copyto};
use crate::dtype::{Casting, DType, Element, to_bytes};
use crate::error::Result;
use crate::layout::{Layout, Order};

/// What [`array()`] and [`asarray`] accept (NumPy's "array_like"): a device
/// array, or host data (a slice, a `Vec`, an `ndarray` array of any layout,
/// or one element as a 0-d array).
#[derive(Debug, Clone)]
pub enum ArrayLike<'a> {
    /// An array already on a device.
    Device(&'a Array),
    /// Host elements in C order.
    Host {
        /// Their dtype.
        dtype: DType,
        /// Their shape.
        shape: Vec<usize>,
        /// Their little-endian bytes in C order.
        bytes: Vec<u8>,
    },
}

impl<'a> From<&'a Array> for ArrayLike<'a> {
    fn from(a: &'a Array) -> Self {
        ArrayLike::Device(a)
    }
}

impl<T: Element> From<&[T]> for ArrayLike<'_> {
    /// A 1-D array of the elements.
    fn from(data: &[T]) -> Self {
        ArrayLike::Host {
            dtype: T::DTYPE,
            shape: vec![data.len()],
            bytes: to_bytes(data),
        }
    }
}

impl<T: Element> From<&Vec<T>> for ArrayLike<'_> {
    /// A 1-D array of the elements.
    fn from(data: &Vec<T>) -> Self {
        ArrayLike::from(data.as_slice())
    }
}

impl<T: Element> From<T> for ArrayLike<'_> {
    /// A 0-d array of one element.
    fn from(x: T) -> Self {
        ArrayLike::Host {
            dtype: T::DTYPE,
            shape: Vec::new(),
            bytes: to_bytes(&[x]),
        }
    }
}

impl<T, S, D> From<&ndarray::ArrayBase<S, D>> for ArrayLike<'_>
where
    T: Element,
    S: ndarray::Data<Elem = T>,
    D: ndarray::Dimension,
{
    /// The elements in logical (C) order, any strides.
    fn from(a: &ndarray::ArrayBase<S, D>) -> Self {
        let bytes = match a.as_slice() {
            Some(s) => to_bytes(s),
            None => to_bytes(&a.iter().copied().collect::<Vec<T>>()),
        };
        ArrayLike::Host {
            dtype: T::DTYPE,
            shape: a.shape().to_vec(),
            bytes,
        }
    }
}

/// A new array holding a copy of `obj` (NumPy's `array(obj, dtype,
/// copy=True, order)`), converted to `dtype` (`None`: keep) with NumPy's
/// `unsafe` casting. `order` `None` is NumPy's `'K'` (keep the source's
/// axis order; host data is C order). Host data goes to the current
/// device; a device array's copy stays on its device (CuPy moves it to the
/// current device).
///
/// # Errors
/// Allocation or the copy failed.
pub fn array<'a>(
    obj: impl Into<ArrayLike<'a>>,
    dtype: Option<DType>,
    order: Option<Order>,
) -> Result<Array> {
    match obj.into() {
        ArrayLike::Device(a) => {
            let dtype = dtype.unwrap_or(a.dtype());
            let out = match order {
                None => empty_like(a, Some(dtype))?,
                Some(o) => Array::empty_on(a.device(), a.shape(), dtype, o)?,
            };
            copyto(&out, a, Casting::Unsafe, None)?;
            Ok(out)
        }
        ArrayLike::Host {
            dtype: host,
            shape,
            bytes,
        } => {
            let a = Array::from_bytes(host, &shape, &bytes)?;
            let dtype = dtype.unwrap_or(host);
            match order {
                Some(Order::F) if !a.is_f_contiguous() || dtype != host => {
                    a.astype_with(dtype, Casting::Unsafe, Order::F)
                }
                _ if dtype != host => a.astype(dtype),
                _ => Ok(a),
            }
        }
    }
}

/// `obj` as an array (NumPy's `asarray(obj, dtype, order)`): a device
/// array that already has `dtype` (or `dtype` is `None`) and `order` (`None`
/// accepts any layout; C or F need that contiguity) comes back as itself,
/// sharing its memory, without a copy; anything else goes through
/// [`array()`].
///
/// # Errors
/// As [`array()`].
pub fn asarray<'a>(
    obj: impl Into<ArrayLike<'a>>,
    dtype: Option<DType>,
    order: Option<Order>,
) -> Result<Array> {
    let obj = obj.into();
    if let ArrayLike::Device(a) = obj {
        let dtype_ok = dtype.is_none_or(|d| d == a.dtype());
        let order_ok = match order {
            None => true,
            Some(Order::C) => a.is_c_contiguous(),
            Some(Order::F) => a.is_f_contiguous(),
        };
        if dtype_ok && order_ok {
            return Ok(a.clone());
        }
    }
    array(obj, dtype, order)
}

/// `a` with at least one dimension, as a view (NumPy's `ndmin=1`).
fn at_least_1d(a: &Array) -> Array {
    if a.ndim() > 0 {
        return a.clone();
    }
    let l = Layout::new(vec![1], vec![a.itemsize() as isize], a.layout().offset());
    a.with_layout(l, a.dtype())
}

/// A C-contiguous array with `a`'s values (NumPy's `ascontiguousarray(a,
/// dtype)`): `a` itself (shared memory) when it already is C-contiguous
/// and of `dtype`, else a converted copy. A 0-d input becomes shape `(1,)`
/// as in NumPy.
///
/// # Errors
/// Allocation or the copy failed.
pub fn ascontiguousarray(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let a = at_least_1d(a);
    asarray(&a, dtype, Some(Order::C))
}

/// An F-contiguous array with `a`'s values (NumPy's `asfortranarray(a,
/// dtype)`): `a` itself when it already is F-contiguous and of `dtype`,
/// else a converted copy. A 0-d input becomes shape `(1,)` as in NumPy.
///
/// # Errors
/// Allocation or the copy failed.
pub fn asfortranarray(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let a = at_least_1d(a);
    asarray(&a, dtype, Some(Order::F))
}

/// A copy of `a` keeping its axis order (NumPy's `copy(a)`, whose order is
/// `'K'`: an F-contiguous source gives an F-contiguous copy). For a C-order
/// copy use [`Array::copy`].
///
/// # Errors
/// Allocation or the copy failed.
pub fn copy(a: &Array) -> Result<Array> {
    let out = empty_like(a, None)?;
    out.copy_from(a)?;
    Ok(out)
}
