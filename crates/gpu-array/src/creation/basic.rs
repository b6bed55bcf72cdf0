//! Filled arrays and their `_like` forms, `eye` and `identity`.

use super::kernels::Gen;
use crate::array::Array;
use crate::dtype::{DType, ScalarValue, check_weak_int};
use crate::error::{Error, Result};
use crate::layout::{CopyOrder, IntoShape, Layout, Order};

/// An uninitialised array (NumPy's `empty`) on the current device, C order.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = empty((2, 3), DType::Float32)?; // np.empty((2, 3), np.float32)
/// # Ok(()) }
/// ```
///
/// # Errors
/// The size overflows, or the allocation fails.
pub fn empty(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    Array::empty(shape, dtype)
}

/// [`empty`] in memory order `order` (NumPy's `empty(shape, dtype, order)`).
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = empty_order((2, 3), DType::Float64, Order::F)?; // order='F'
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn empty_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
    Array::empty_order(shape, dtype, order)
}

/// An array of zeros (NumPy's `zeros`), C order.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((2, 3), DType::Float32)?;
/// assert_eq!(a.to_vec::<f32>()?, [0.0; 6]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn zeros(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    Array::zeros(shape, dtype)
}

/// [`zeros`] in memory order `order`.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros_order(4, DType::Int64, Order::C)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn zeros_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
    Array::zeros_order(shape, dtype, order)
}

/// An array of ones (NumPy's `ones`), C order.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = ones([2, 2], DType::Int32)?;
/// assert_eq!(a.to_vec::<i32>()?, [1; 4]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`]; the launch failed.
pub fn ones(shape: impl IntoShape, dtype: DType) -> Result<Array> {
    ones_order(shape, dtype, Order::C)
}

/// [`ones`] in memory order `order`.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = ones_order((3, 2), DType::Float64, Order::F)?;
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = full((2, 2), 7, None)?; // int64, as NumPy
/// let b = full(3, 0.5, Some(DType::Float32))?;
/// let c = full((2, 3), &array([1, 2, 3])?, None)?; // an array fill broadcasts
/// # Ok(()) }
/// ```
///
/// # Errors
/// "Python integer 300 out of bounds for int8" for an integer the dtype
/// cannot hold (NumPy 2's `OverflowError`); as [`empty`].
pub fn full<'a>(
    shape: impl IntoShape,
    value: impl Into<Fill<'a>>,
    dtype: Option<DType>,
) -> Result<Array> {
    full_order(shape, value, dtype, Order::C)
}

/// A fill value of [`full`] and [`full_like`]: a scalar, or an array
/// broadcast to the shape (NumPy's array-like `fill_value`).
#[derive(Clone, Copy, Debug)]
pub enum Fill<'a> {
    /// A (weak, Python-like) scalar.
    Scalar(ScalarValue),
    /// An array broadcast to the result's shape.
    Array(&'a Array),
}

impl<'a> From<&'a Array> for Fill<'a> {
    fn from(a: &'a Array) -> Self {
        Fill::Array(a)
    }
}

impl From<ScalarValue> for Fill<'_> {
    fn from(v: ScalarValue) -> Self {
        Fill::Scalar(v)
    }
}

crate::array::from_rust_scalars!(Fill<'_>, Fill::Scalar);

/// Writes `value` into every element of `out` (broadcasting an array
/// value, which must be on `out`'s device).
fn fill_with(out: &Array, value: Fill<'_>) -> Result<()> {
    match value {
        Fill::Scalar(v) => out.fill(v),
        Fill::Array(v) => {
            let b = v.broadcast_to(out.shape())?;
            crate::array::copyto(out, &b, crate::dtype::Casting::Unsafe, None)
        }
    }
}

/// [`full`] in memory order `order`.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = full_order((2, 2), 1.5, None, Order::F)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`full`].
pub fn full_order<'a>(
    shape: impl IntoShape,
    value: impl Into<Fill<'a>>,
    dtype: Option<DType>,
    order: Order,
) -> Result<Array> {
    let value = value.into();
    let dtype = match (dtype, value) {
        (Some(d), _) => d,
        (None, Fill::Scalar(v)) => scalar_dtype(v)?,
        (None, Fill::Array(v)) => v.dtype(),
    };
    let a = match value {
        Fill::Array(v) => {
            let shape = shape.into_shape();
            crate::layout::checked_size(&shape, dtype.itemsize())?;
            Array::empty_on(v.device(), &shape, dtype, order)?
        }
        Fill::Scalar(_) => Array::empty_order(shape, dtype, order)?,
    };
    fill_with(&a, value)?;
    Ok(a)
}

/// An uninitialised array shaped and laid out like `a` (NumPy's
/// `empty_like` with `order='K'`), on `a`'s device, with `dtype` or `a`'s
/// dtype. Order K: C when `a` is C-contiguous, F when it is F-contiguous
/// and not C, otherwise the axes in `a`'s order of decreasing absolute
/// stride (so a transposed or broadcast source gives the same permutation).
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((2, 3), DType::Float32)?;
/// let b = empty_like(&a, None)?; // same shape, dtype and layout
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = ones((2, 3), DType::Float32)?;
/// let z = zeros_like(&a, Some(DType::Int8))?;
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros(4, DType::Float64)?;
/// assert_eq!(ones_like(&a, None)?.to_vec::<f64>()?, [1.0; 4]);
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros(3, DType::Float64)?;
/// assert_eq!(full_like(&a, 2.5, None)?.to_vec::<f64>()?, [2.5; 3]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`full`].
pub fn full_like<'v>(a: &Array, value: impl Into<Fill<'v>>, dtype: Option<DType>) -> Result<Array> {
    let out = empty_like(a, dtype)?;
    fill_with(&out, value.into())?;
    Ok(out)
}

/// The options of the `_like` creators beyond `dtype`: NumPy's `order`
/// (`K`, the default, keeps `a`'s layout) and `shape` (a new shape; with
/// it, `K` and `A` give C order unless `a` is F-contiguous only).
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct LikeOptions {
    /// The result's dtype (`None`: `a`'s).
    pub dtype: Option<DType>,
    /// The memory order (`None`: `K`).
    pub order: Option<CopyOrder>,
    /// The result's shape (`None`: `a`'s).
    pub shape: Option<Vec<usize>>,
}

impl LikeOptions {
    /// Sets `dtype`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1, 2], [3, 4]])?;
    /// let z = zeros_like_with(&a, &LikeOptions::default().dtype(DType::Float32))?; // np.zeros_like(a, dtype='float32')
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: DType) -> LikeOptions {
        self.dtype = Some(dtype);
        self
    }

    /// Sets `order`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1, 2], [3, 4]])?;
    /// let z = zeros_like_with(&a, &LikeOptions::default().order(Order::F))?; // np.zeros_like(a, order='F')
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn order(mut self, order: impl Into<CopyOrder>) -> LikeOptions {
        self.order = Some(order.into());
        self
    }

    /// Sets `shape`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let a = array([[1, 2], [3, 4]])?;
    /// let z = ones_like_with(&a, &LikeOptions::default().shape([3]))?; // np.ones_like(a, shape=(3,)): [1, 1, 1]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn shape(mut self, shape: impl IntoShape) -> LikeOptions {
        self.shape = Some(shape.into_shape().to_vec());
        self
    }
}

/// NumPy's `empty_like(a, dtype, order, shape=)`.
///
/// ```no_run
/// use gpu_array::{DType, creation::{LikeOptions, empty_like_with, zeros}};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((2, 3), DType::Float32)?;
/// let b = empty_like_with(&a, &LikeOptions::default().shape((4, 5)).order(gpu_array::Order::F))?;
/// assert_eq!((b.shape(), b.is_f_contiguous()), (&[4usize, 5][..], true));
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn empty_like_with(a: &Array, opts: &LikeOptions) -> Result<Array> {
    let dtype = opts.dtype.unwrap_or(a.dtype());
    let order = opts.order.unwrap_or(CopyOrder::K);
    let same_shape = opts.shape.as_deref().is_none_or(|s| s == a.shape());
    if order == CopyOrder::K && same_shape {
        return empty_like(a, Some(dtype));
    }
    let shape = opts.shape.clone().unwrap_or_else(|| a.shape().to_vec());
    let f_only = a.is_f_contiguous() && !a.is_c_contiguous();
    let order = match order {
        CopyOrder::C => Order::C,
        CopyOrder::F => Order::F,
        CopyOrder::A | CopyOrder::K if f_only => Order::F,
        CopyOrder::A | CopyOrder::K => Order::C,
    };
    crate::layout::checked_size(&shape, dtype.itemsize())?;
    Array::empty_on(a.device(), &shape, dtype, order)
}

/// NumPy's `zeros_like(a, dtype, order, shape=)`; see [`empty_like_with`].
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = ones((2, 3), DType::Float32)?;
/// let z = zeros_like_with(&a, &LikeOptions::default().shape(5))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn zeros_like_with(a: &Array, opts: &LikeOptions) -> Result<Array> {
    let out = empty_like_with(a, opts)?;
    if out.size() > 0 {
        out.zero_contiguous_any()?;
    }
    Ok(out)
}

/// NumPy's `ones_like(a, dtype, order, shape=)`; see [`empty_like_with`].
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((2, 3), DType::Float32)?;
/// let o = ones_like_with(&a, &LikeOptions::default().order(Order::F))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`].
pub fn ones_like_with(a: &Array, opts: &LikeOptions) -> Result<Array> {
    let out = empty_like_with(a, opts)?;
    out.fill(1)?;
    Ok(out)
}

/// NumPy's `full_like(a, fill_value, dtype, order, shape=)`; see
/// [`empty_like_with`].
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros((2, 3), DType::Float32)?;
/// let f = full_like_with(&a, 9, &LikeOptions::default().dtype(DType::Int16))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`empty`]; an array fill that does not broadcast.
pub fn full_like_with<'v>(
    a: &Array,
    value: impl Into<Fill<'v>>,
    opts: &LikeOptions,
) -> Result<Array> {
    let out = empty_like_with(a, opts)?;
    fill_with(&out, value.into())?;
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let i = eye(3, None, 0, DType::Float64)?; // np.eye(3)
/// let k = eye(3, Some(4), 1, DType::Int32)?; // np.eye(3, 4, k=1, dtype=np.int32)
/// # Ok(()) }
/// ```
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
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let i = identity(4, DType::Float32)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`eye`].
pub fn identity(n: usize, dtype: DType) -> Result<Array> {
    eye(n, None, 0, dtype)
}
