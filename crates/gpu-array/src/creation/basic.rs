//! Filled arrays and their `_like` forms, `eye` and `identity`.

use super::kernels::Gen;
use crate::array::Array;
use crate::dtype::{DType, ScalarValue, check_weak_int};
use crate::error::{Error, Result};
use crate::layout::{IntoShape, Layout, Order};

/// An uninitialised array (NumPy's `empty`) on the current device, C order.
///
/// # Errors
/// The size overflows, or the allocation fails.
pub fn empty(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    Array::empty(shape, dtype)
}

/// [`empty`] in memory order `order` (NumPy's `empty(shape, dtype, order)`).
///
/// # Errors
/// As [`empty`].
pub fn empty_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
    Array::empty_order(shape, dtype, order)
}

/// An array of zeros (NumPy's `zeros`), C order.
///
/// # Errors
/// As [`empty`].
pub fn zeros(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    Array::zeros(shape, dtype)
}

/// [`zeros`] in memory order `order`.
///
/// # Errors
/// As [`empty`].
pub fn zeros_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
    Array::zeros_order(shape, dtype, order)
}

/// An array of ones (NumPy's `ones`), C order.
///
/// # Errors
/// As [`empty`]; the launch failed.
pub fn ones(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    ones_order(shape, dtype, Order::C)
}

/// [`ones`] in memory order `order`.
///
/// # Errors
/// As [`ones`].
pub fn ones_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
    let a = Array::empty_order(shape, dtype, order)?;
    a.fill(1)?;
    Ok(a)
}

/// The dtype NumPy gives a lone Python scalar: bool, int64 (uint64 above
/// int64's range), float64, complex128.
///
/// # Errors
/// An integer outside `-2**63 ..= 2**64 - 1`.
pub(crate) fn scalar_dtype(value: ScalarValue) -> Result<DType> {
    Ok(match value {
        ScalarValue::Bool(_) => DType::Bool,
        ScalarValue::Int(n) => {
            if check_weak_int(n, DType::Int64).is_ok() {
                DType::Int64
            } else {
                check_weak_int(n, DType::UInt64)?;
                DType::UInt64
            }
        }
        ScalarValue::Float(_) => DType::Float64,
        ScalarValue::Complex(_) => DType::Complex128,
    })
}

/// An array with every element `value` (NumPy's `full`), C order. With
/// `dtype` `None`, the dtype is the value's as NumPy picks it for a Python
/// scalar: bool, int64, float64 or complex128. The value converts to the
/// dtype as NumPy's `copyto(casting='unsafe')` converts a Python scalar:
/// floats truncate into integers, complex values lose the imaginary part
/// in real dtypes.
///
/// # Errors
/// "Python integer 300 out of bounds for int8" for an integer the dtype
/// cannot hold (NumPy 2's `OverflowError`); as [`empty`].
pub fn full(
    shape: impl IntoShape,
    value: impl Into<ScalarValue>,
    dtype: Option<DType>,
) -> Result<Array> {
    full_order(shape, value, dtype, Order::C)
}

/// [`full`] in memory order `order`.
///
/// # Errors
/// As [`full`].
pub fn full_order(
    shape: impl IntoShape,
    value: impl Into<ScalarValue>,
    dtype: Option<DType>,
    order: Order,
) -> Result<Array> {
    let value = value.into();
    let dtype = match dtype {
        Some(d) => d,
        None => scalar_dtype(value)?,
    };
    let a = Array::empty_order(shape, dtype, order)?;
    a.fill(value)?;
    Ok(a)
}

/// An uninitialised array shaped and laid out like `a` (NumPy's
/// `empty_like` with `order='K'`), on `a`'s device, with `dtype` or `a`'s
/// dtype. Order K: C when `a` is C-contiguous, F when it is F-contiguous
/// and not C, otherwise the axes in `a`'s order of decreasing absolute
/// stride (so a transposed or broadcast source gives the same permutation).
///
/// # Errors
/// As [`empty`].
pub fn empty_like(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let dtype = dtype.unwrap_or(a.dtype());
    let device = a.device();
    if a.is_c_contiguous() {
        return Array::empty_on(device, a.shape(), dtype, Order::C);
    }
    if a.is_f_contiguous() {
        return Array::empty_on(device, a.shape(), dtype, Order::F);
    }
    // NumPy's PyArray_CreateSortedStridePerm: a stable sort of the axes by
    // decreasing absolute stride.
    let strides = a.strides();
    let mut perm: Vec<usize> = (0..a.ndim()).collect();
    perm.sort_by(|&x, &y| strides[y].unsigned_abs().cmp(&strides[x].unsigned_abs()));
    let permuted: Vec<usize> = perm.iter().map(|&p| a.shape()[p]).collect();
    let base = Array::empty_on(device, &permuted, dtype, Order::C)?;
    let (mut shape, mut out_strides) = (vec![0; a.ndim()], vec![0; a.ndim()]);
    for (j, &p) in perm.iter().enumerate() {
        shape[p] = base.shape()[j];
        out_strides[p] = base.strides()[j];
    }
    let layout = Layout::new(shape, out_strides, base.layout().offset());
    Ok(Array::from_parts(
        base.memory().clone(),
        layout,
        dtype,
        true,
    ))
}

/// Zeros shaped and laid out like `a` (NumPy's `zeros_like`; see
/// [`empty_like`] for the layout).
///
/// # Errors
/// As [`empty`].
pub fn zeros_like(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let out = empty_like(a, dtype)?;
    if out.size() > 0 {
        out.zero_contiguous_any()?;
    }
    Ok(out)
}

/// Ones shaped and laid out like `a` (NumPy's `ones_like`).
///
/// # Errors
/// As [`ones`].
pub fn ones_like(a: &Array, dtype: Option<DType>) -> Result<Array> {
    let out = empty_like(a, dtype)?;
    out.fill(1)?;
    Ok(out)
}

/// `value` everywhere, shaped and laid out like `a` (NumPy's `full_like`),
/// of `dtype` or `a`'s dtype (not the value's).
///
/// # Errors
/// As [`full`].
pub fn full_like(a: &Array, value: impl Into<ScalarValue>, dtype: Option<DType>) -> Result<Array> {
    let out = empty_like(a, dtype)?;
    out.fill(value)?;
    Ok(out)
}

impl Array {
    /// Zeroes a dense array of any axis order (every Cuprum dtype's zero is
    /// all-zero bits, and a dense array covers its byte range exactly).
    fn zero_contiguous_any(&self) -> Result<()> {
        let (lo, _) = self.layout().byte_extent(self.itemsize())?;
        let start = usize::try_from(lo)
            .map_err(|_| Error::Value("a dense array starts before its memory".into()))?;
        self.memory()
            .memset_at(start, self.nbytes(), 0, &self.stream())?;
        Ok(())
    }
}

/// A 2-D array with ones on diagonal `k` and zeros elsewhere (NumPy's
/// `eye(N, M, k, dtype)`): `n` rows, `m` columns (`None`: `n`); `k > 0` is
/// above the main diagonal, `k < 0` below.
///
/// # Errors
/// As [`empty`]; the launch failed.
pub fn eye(n: usize, m: Option<usize>, k: isize, dtype: DType) -> Result<Array> {
    let m = m.unwrap_or(n);
    let out = Array::empty([n, m], dtype)?;
    Gen::Eye {
        tri: false,
        k: k as i64,
        m: m as i64,
    }
    .run(&out)?;
    Ok(out)
}

/// The `n x n` identity matrix (NumPy's `identity`).
///
/// # Errors
/// As [`eye`].
pub fn identity(n: usize, dtype: DType) -> Result<Array> {
    eye(n, None, 0, dtype)
}
