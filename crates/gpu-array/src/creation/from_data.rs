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

impl<T: Element> From<Vec<T>> for ArrayLike<'_> {
    /// A 1-D array of the elements.
    fn from(data: Vec<T>) -> Self {
        ArrayLike::from(data.as_slice())
    }
}

/// The element types of array literals (`[1, 2, 3]`, `[[1.0, 2.0], [3.0,
/// 4.0]]`): bool, `i64`, `f32`, `f64` and the complex types. `i64` is the
/// only integer type on purpose: with one, Rust infers an unsuffixed
/// integer literal as `i64`, so `array([1, 2, 3])` is int64 as NumPy's
/// `array([1, 2, 3])` (an unsuffixed float literal is `f64`, NumPy's
/// float64, by Rust's own rule). Other integer types go through a slice or
/// a `Vec`: `array(&[1u8, 2][..])`, `array(vec![1i32, 2])`.
pub trait LiteralElement: Element {}

impl LiteralElement for bool {}
impl LiteralElement for i64 {}
impl LiteralElement for f32 {}
impl LiteralElement for f64 {}
impl LiteralElement for num_complex::Complex<f32> {}
impl LiteralElement for num_complex::Complex<f64> {}

impl<T: LiteralElement, const N: usize> From<[T; N]> for ArrayLike<'_> {
    /// A 1-D array of the elements.
    fn from(data: [T; N]) -> Self {
        ArrayLike::from(&data[..])
    }
}

impl<T: LiteralElement, const N: usize, const M: usize> From<[[T; N]; M]> for ArrayLike<'_> {
    /// A 2-D array, `M` rows of `N`.
    fn from(data: [[T; N]; M]) -> Self {
        ArrayLike::Host {
            dtype: T::DTYPE,
            shape: vec![M, N],
            bytes: to_bytes(data.as_flattened()),
        }
    }
}

impl<T: LiteralElement, const N: usize, const M: usize, const K: usize> From<[[[T; N]; M]; K]>
    for ArrayLike<'_>
{
    /// A 3-D array of shape `(K, M, N)`.
    fn from(data: [[[T; N]; M]; K]) -> Self {
        ArrayLike::Host {
            dtype: T::DTYPE,
            shape: vec![K, M, N],
            bytes: to_bytes(data.as_flattened().as_flattened()),
        }
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

/// A new array holding a copy of `obj` (NumPy's `array(obj)`): host data
/// (an array literal, a slice, a `Vec`, an `ndarray` array, a scalar) goes
/// to the current device with its dtype; see [`array_with`] for `dtype`
/// and `order`.
///
/// ```no_run
/// use gpu_array::{DType, creation::array};
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(array([1, 2, 3])?.dtype(), DType::Int64);
/// assert_eq!(array([[1.0, 2.0], [3.0, 4.0]])?.shape(), &[2, 2]);
/// assert_eq!(array(vec![1u8, 2])?.dtype(), DType::UInt8);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`array_with`].
pub fn array<'a>(obj: impl Into<ArrayLike<'a>>) -> Result<Array> {
    array_with(obj, None, None)
}

/// `obj` as an array without a copy when it already is one (NumPy's
/// `asarray(obj)`); see [`asarray_with`] for `dtype` and `order`.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let host = vec![1.0f32, 2.0];
/// let x = asarray(&host)?; // to the GPU
/// let same = asarray(&x)?; // no copy
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`array_with`].
pub fn asarray<'a>(obj: impl Into<ArrayLike<'a>>) -> Result<Array> {
    asarray_with(obj, None, None)
}

/// A new array holding a copy of `obj` (NumPy's `array(obj, dtype,
/// copy=True, order)`), converted to `dtype` (`None`: keep) with NumPy's
/// `unsafe` casting. `order` `None` is NumPy's `'K'` (keep the source's
/// axis order; host data is C order). Host data goes to the current
/// device; a device array's copy stays on its device (CuPy moves it to the
/// current device).
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = array_with([[1, 2], [3, 4]], Some(DType::Float32), Some(Order::F))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the copy failed.
pub fn array_with<'a>(
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
/// [`array_with`].
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = array([1, 2, 3])?;
/// let f = asarray_with(&x, Some(DType::Float64), None)?; // a converted copy
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`array_with`].
pub fn asarray_with<'a>(
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
    array_with(obj, dtype, order)
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(6)?.reshape((2, 3))?.transpose(None)?;
/// let c = ascontiguousarray(&x, None)?;
/// assert!(c.is_c_contiguous());
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the copy failed.
pub fn ascontiguousarray(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let a = at_least_1d(a);
    asarray_with(&a, dtype, Some(Order::C))
}

/// An F-contiguous array with `a`'s values (NumPy's `asfortranarray(a,
/// dtype)`): `a` itself when it already is F-contiguous and of `dtype`,
/// else a converted copy. A 0-d input becomes shape `(1,)` as in NumPy.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(6)?.reshape((2, 3))?;
/// assert!(asfortranarray(&x, None)?.is_f_contiguous());
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the copy failed.
pub fn asfortranarray(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let a = at_least_1d(a);
    asarray_with(&a, dtype, Some(Order::F))
}

/// A copy of `a` keeping its axis order (NumPy's `copy(a)`, whose order is
/// `'K'`: an F-contiguous source gives an F-contiguous copy). For a C-order
/// copy use [`Array::copy`].
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(4)?;
/// let y = copy(&x)?; // its own memory
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the copy failed.
pub fn copy(a: &Array) -> Result<Array> {
    let out = empty_like(a, None)?;
    out.copy_from(a)?;
    Ok(out)
}
