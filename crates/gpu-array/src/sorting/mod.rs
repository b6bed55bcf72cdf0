//! Sorting, searching and counting (NumPy's "Sorting, searching, and
//! counting" and `unique`), on Cuprum's own GPU radix sort.
//!
//! | NumPy / CuPy                               | Cuprum                                              |
//! |--------------------------------------------|-----------------------------------------------------|
//! | `cp.sort(a)`, `cp.sort(a, axis=0)`         | [`sort`]`(&a, Some(-1))?`, [`sort`]`(&a, Some(0))?` |
//! | `cp.sort(a, axis=None)`                    | [`sort`]`(&a, None)?`                               |
//! | `cp.argsort(a)`                            | [`argsort`]`(&a, Some(-1))?`                        |
//! | `cp.lexsort((b, a))`                       | [`lexsort`]`(&[&b, &a])?` (keys of any shape, along the last axis) |
//! | `np.lexsort((b, a), axis=0)`               | [`lexsort_axis`]`(&[&b, &a], 0)?`                   |
//! | `cp.msort(a)`, `cp.sort_complex(a)`        | [`msort`], [`sort_complex`]                         |
//! | `cp.partition(a, 3)`, `argpartition`       | [`partition`]`(&a, &[3], Some(-1))?`, [`argpartition`] |
//! | `cp.searchsorted(a, v, side='right')`      | [`searchsorted`]`(&a, &v, Side::Right, None)?`      |
//! | `cp.unique(a, return_counts=True)`         | [`unique`]`(&a, UniqueOptions::default().counts(true))?` |
//! | `np.unique(a, axis=0, return_inverse=True)` | [`unique`]`(&a, UniqueOptions::default().axis(0).inverse(true))?` |
//! | `cp.isin(a, b)`, `cp.in1d(a, b)`           | [`isin`]`(&a, &b, false)?`, [`in1d`]                |
//!
//! Semantics are NumPy's: sorts are stable, NaN sorts last (complex:
//! `R + Rj < R + nanj < nan + Rj < nan + nanj`), -0.0 and 0.0 are equal in
//! `argsort`, `searchsorted` and `unique`. `sort` places -0.0 just before
//! 0.0 (the values keep their sign; NumPy's default sort does not order
//! equal zeros either) and writes every NaN as the positive quiet NaN.
//! Results are C-ordered; indices are int64.
//!
//! How: an LSD radix sort with 8-bit digits over keys whose unsigned order
//! is NumPy's order ([`radix`], `kernels.cu`): one histogram kernel for
//! every digit, one scan, then one onesweep kernel per digit that ranks
//! keys by warp, finds its tile's global offsets by a decoupled look-back
//! per digit and scatters through shared memory. An axis sort moves the
//! axis last (one copy when it is not already) and sorts by (row, key):
//! after the key's digits, passes over the row number's digits. `partition`
//! and `argpartition` sort fully (the `kth` property holds); `unique` is
//! argsort, a gather, run-start flags, a cumulative sum, one host read of
//! the count and a scatter. `lexsort` is one stable argsort per key, the
//! least significant first, each key reordered by the permutation
//! so far. `unique` along an axis views the array as rows (the axis first,
//! the rest flattened), orders the rows lexicographically by a `lexsort`
//! of the columns, flags rows that differ from their predecessor in any
//! element (`!=`: -0.0 equals 0.0, NaN equals nothing, as NumPy's
//! structured comparison), then scatters as the flat `unique`.

mod counting;
pub mod keys;
mod order_stats;
pub mod radix;
pub(crate) mod select;

pub use counting::{argmax, argmin, count_nonzero, nanargmax, nanargmin};
pub use order_stats::{
    QuantileMethod, QuantileOptions, Quantiles, median, nanmedian, nanpercentile, nanquantile,
    percentile, quantile, quantile_kernel_of,
};

use gpu_runtime::signature::Out;

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take};
use crate::kernels::{input, output};
use crate::layout::{Order, normalize_axis};

/// `a` C-contiguous and aligned to its item size (at most 16 bytes), as
/// the sort kernels load it: `a` itself or a copy.
fn dense(a: &Array) -> Result<Array> {
    let align = a.itemsize().min(16) as u64;
    if a.is_c_contiguous() && a.data_ptr().raw().is_multiple_of(align) {
        Ok(a.clone())
    } else {
        a.copy()
    }
}

/// What a sort writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Values,
    Indices,
}

fn sort_impl(a: &Array, axis: Option<isize>, want: Want) -> Result<Array> {
    let (src, ax) = match axis {
        None => (a.reshape([-1])?, 0),
        Some(ax) => (a.clone(), normalize_axis(ax, a.ndim())?),
    };
    let last = src.ndim() - 1;
    let moved = if ax == last {
        src
    } else {
        src.moveaxis(&[ax as isize], &[-1])?
    };
    let contig = dense(&moved)?;
    let out_dt = match want {
        Want::Values => contig.dtype(),
        Want::Indices => DType::Int64,
    };
    let out = Array::empty_on(contig.device(), contig.shape(), out_dt, Order::C)?;
    let row_n = contig.shape()[last];
    if out.size() > 0 {
        if row_n == 1 {
            match want {
                Want::Values => out.copy_from(&contig)?,
                Want::Indices => out.zero_contiguous()?,
            }
        } else {
            match want {
                Want::Values => radix::radix_sort(&contig, row_n, Some(&out), None, false)?,
                Want::Indices => radix::radix_sort(&contig, row_n, None, Some(&out), true)?,
            }
        }
    }
    if ax == last {
        Ok(out)
    } else {
        out.moveaxis(&[-1], &[ax as isize])?.copy()
    }
}

/// A sorted copy of `a` along `axis` (NumPy's `sort`; `None` sorts the
/// flattened array), stable, NaN last.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = sort(&array([3, 1, 2])?, Some(-1))?; // [1, 2, 3]
/// let flat = sort(&array([[2, 1], [0, 3]])?, None)?; // axis=None: sorted 1-D
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of bounds (a 0-d array has none); allocation, compilation
/// or launch failed.
pub fn sort(a: &Array, axis: Option<isize>) -> Result<Array> {
    if a.dtype().is_complex() {
        // NumPy compares complex numbers by real part with -0.0 == 0.0,
        // then by imaginary part. The keys-only pass keeps the sign of zero
        // (so that the values written back keep it), which orders
        // (-0.0 + 5j) before (0.0 + 1j): wrong for complex. Gather by the
        // stable argsort instead (keys with -0.0 merged into 0.0), which
        // also keeps the values' own zeros and NaN payloads.
        let idx = argsort(a, axis)?;
        return match axis {
            None => crate::indexing::take_along_axis(&a.reshape([-1])?, &idx, Some(0)),
            Some(ax) => crate::indexing::take_along_axis(a, &idx, Some(ax)),
        };
    }
    sort_impl(a, axis, Want::Values)
}

/// The indices that sort `a` along `axis` (NumPy's `argsort` with a stable
/// kind), int64, positions within the axis.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let i = argsort(&array([3.0, 1.0, 2.0])?, Some(-1))?; // [1, 2, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sort`].
pub fn argsort(a: &Array, axis: Option<isize>) -> Result<Array> {
    sort_impl(a, axis, Want::Indices)
}

/// [`sort`] along the first axis (NumPy's `msort`).
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = msort(&array([[2, 1], [0, 3]])?)?; // sorted along axis 0
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sort`].
pub fn msort(a: &Array) -> Result<Array> {
    sort(a, Some(0))
}

/// `a` sorted along its last axis as complex numbers (NumPy's
/// `sort_complex`): int8/int16/uint8/uint16 give complex64, complex inputs
/// keep their dtype, others give complex128.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = sort_complex(&array([3, 1])?)?; // complex128 [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sort`].
pub fn sort_complex(a: &Array) -> Result<Array> {
    let s = sort(a, Some(-1))?;
    let dt = match a.dtype() {
        DType::Complex64 | DType::Complex128 => return Ok(s),
        DType::Int8 | DType::Int16 | DType::UInt8 | DType::UInt16 => DType::Complex64,
        _ => DType::Complex128,
    };
    s.astype(dt)
}

/// The indirect stable sort by several keys of one shape, the last key
/// primary, along the last axis (NumPy's `lexsort`): int64 indices of the
/// keys' shape, positions within the axis. 0-d keys give a 0-d 0, as
/// NumPy's.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (last, first) = (array([1, 2, 1])?, array([0, 0, 1])?);
/// let i = lexsort(&[&last, &first])?; // the last key sorts first
/// # Ok(()) }
/// ```
///
/// # Errors
/// No keys; keys of different shapes (NumPy's "all keys need to be the
/// same shape"); keys on different devices.
pub fn lexsort(keys: &[&Array]) -> Result<Array> {
    lexsort_axis(keys, -1)
}

/// [`lexsort`] along `axis` (NumPy's `lexsort(keys, axis)`).
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (b, a) = (array([[1, 0], [0, 1]])?, array([[0, 1], [0, 1]])?);
/// let i = lexsort_axis(&[&b, &a], 0)?; // np.lexsort((b, a), axis=0): [[1, 0], [0, 1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lexsort`]; an axis out of bounds.
pub fn lexsort_axis(keys: &[&Array], axis: isize) -> Result<Array> {
    let Some(first) = keys.first() else {
        return Err(Error::Value(
            "need sequence of keys with len > 0 in lexsort".into(),
        ));
    };
    if keys.iter().any(|k| k.shape() != first.shape()) {
        return Err(Error::Value("all keys need to be the same shape".into()));
    }
    for k in &keys[1..] {
        first.check_same_device(k, "lexsort")?;
    }
    if first.ndim() == 0 {
        let z = Array::empty_on(first.device(), &[], DType::Int64, Order::C)?;
        z.fill(0i64)?;
        return Ok(z);
    }
    let ax = normalize_axis(axis, first.ndim())? as isize;
    let mut perm = argsort(first, Some(ax))?;
    for k in &keys[1..] {
        let reordered = crate::indexing::take_along_axis(k, &perm, Some(ax))?;
        let order = argsort(&reordered, Some(ax))?;
        perm = crate::indexing::take_along_axis(&perm, &order, Some(ax))?;
    }
    Ok(perm)
}

fn check_kth(a: &Array, kth: &[isize], axis: Option<isize>) -> Result<()> {
    let len = match axis {
        None => a.size(),
        Some(ax) => a.shape()[normalize_axis(ax, a.ndim())?],
    };
    for &k in kth {
        let kk = if k < 0 { k + len as isize } else { k };
        if kk < 0 || kk >= len as isize {
            return Err(Error::Value(format!("kth(={k}) out of bounds ({len})")));
        }
    }
    Ok(())
}

/// A copy of `a` in which each `kth` element along `axis` is where a sort
/// would put it, smaller-or-equal elements before and greater-or-equal
/// after (NumPy's `partition`). Cuprum sorts the axis fully, which has
/// the property.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.partition([3, 4, 2, 1], 2): [.., .., 3, ..], smaller before, larger after
/// let p = partition(&array([3, 4, 2, 1])?, &[2], Some(-1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A `kth` out of bounds (NumPy's message); as [`sort`].
pub fn partition(a: &Array, kth: &[isize], axis: Option<isize>) -> Result<Array> {
    check_kth(a, kth, axis)?;
    sort(a, axis)
}

/// The indices that partition `a` (NumPy's `argpartition`); a full stable
/// argsort.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// // np.argpartition([3, 4, 2, 1], 1): i[1] == 2, the index of the second smallest
/// let i = argpartition(&array([3, 4, 2, 1])?, &[1], Some(-1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`partition`].
pub fn argpartition(a: &Array, kth: &[isize], axis: Option<isize>) -> Result<Array> {
    check_kth(a, kth, axis)?;
    argsort(a, axis)
}

/// Which of equal elements `searchsorted` lands beside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Side {
    /// The first suitable index (`a[i-1] < v <= a[i]`).
    #[default]
    Left,
    /// The last (`a[i-1] <= v < a[i]`).
    Right,
}

crate::from_numpy_str! {
    Side, Error,
    else: |s| crate::names::keyword_error(
        s,
        &["left", "right"],
        "search side must be one of 'left' or 'right'",
        "search side must be 'left' or 'right'",
    ),
    { "left" => Side::Left, "right" => Side::Right }
}

/// Where each element of `v` would go in the sorted 1-D `a` to keep it
/// sorted (NumPy's `searchsorted`), one binary search per element of `v`,
/// in NumPy's order (NaN last, -0.0 == 0.0). `sorter` holds the indices
/// that sort `a`. Both sides are compared in their promoted dtype. Int64
/// indices of `v`'s shape.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let at = searchsorted(&array([1.0, 2.0, 3.0])?, &array([2.5])?, Side::Left, None)?; // [2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not 1-D; a non-integer or wrong-length sorter; devices differ.
pub fn searchsorted(a: &Array, v: &Array, side: Side, sorter: Option<&Array>) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(Error::Value("object too deep for desired array".into()));
    }
    a.check_same_device(v, "searchsorted")?;
    let dt = crate::dtype::promote_types(a.dtype(), v.dtype());
    let sorted = match sorter {
        Some(s) => {
            if !s.dtype().is_integer() || s.ndim() != 1 || s.size() != a.size() {
                return Err(Error::Value("sorter.size must equal a.size".into()));
            }
            take(a, s, Some(0), TakeMode::Wrap)?
        }
        None => a.clone(),
    };
    let dense = |x: &Array| -> Result<Array> {
        if x.dtype() == dt {
            dense(x)
        } else {
            x.astype(dt)
        }
    };
    let (sa, sv) = (dense(&sorted)?, dense(v)?);
    let out = Array::empty_on(v.device(), v.shape(), DType::Int64, Order::C)?;
    let m = out.size();
    if m > 0 {
        let args = radix::Search {
            a: input(&sa),
            n: sa.size() as i64,
            v: input(&sv),
            m: m as i64,
            out: output(&out),
            right: side == Side::Right,
        };
        let k = radix::kernel::<radix::Search>(dt, "search", [dt.c_type()])?;
        radix::launch(&k, m.div_ceil(256), &out.stream(), &args)?;
    }
    Ok(out)
}

/// Which extra results [`unique`] returns (NumPy's `return_*` flags),
/// and along which axis it works.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct UniqueOptions {
    /// `None`: the unique elements of the flattened array. `Some(k)`: the
    /// unique slices along axis `k` (NumPy's `axis=k`), sorted
    /// lexicographically.
    pub axis: Option<isize>,
    /// The index of each unique value's first occurrence.
    pub index: bool,
    /// For each input element, the index of its unique value (input shape;
    /// with an axis, for each slice: 1-D, as NumPy 2's).
    pub inverse: bool,
    /// How often each unique value occurs.
    pub counts: bool,
    /// NumPy's `equal_nan` (default `true`): all NaNs are one unique
    /// value; `false` keeps every NaN apart (each its own value, count 1).
    /// Without effect along an axis, where a slice holding NaN equals no
    /// other either way (as in NumPy).
    pub equal_nan: bool,
}

impl Default for UniqueOptions {
    fn default() -> UniqueOptions {
        UniqueOptions {
            axis: None,
            index: false,
            inverse: false,
            counts: false,
            equal_nan: true,
        }
    }
}

impl UniqueOptions {
    /// Sets `equal_nan`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let u = unique(&array([f64::NAN, f64::NAN])?, UniqueOptions::default().equal_nan(false))?; // equal_nan=False: both NaN kept
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn equal_nan(mut self, equal_nan: bool) -> UniqueOptions {
        self.equal_nan = equal_nan;
        self
    }

    /// Sets `axis`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let u = unique(&array([[1, 2], [1, 2]])?, UniqueOptions::default().axis(0))?; // np.unique(a, axis=0): [[1, 2]]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: impl Into<Option<isize>>) -> UniqueOptions {
        self.axis = axis.into();
        self
    }

    /// Sets `index`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let u = unique(&array([3, 1, 3])?, UniqueOptions::default().index(true))?; // return_index=True: [1, 0]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn index(mut self, index: bool) -> UniqueOptions {
        self.index = index;
        self
    }

    /// Sets `inverse`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let u = unique(&array([3, 1, 3])?, UniqueOptions::default().inverse(true))?; // return_inverse=True: [1, 0, 1]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn inverse(mut self, inverse: bool) -> UniqueOptions {
        self.inverse = inverse;
        self
    }

    /// Sets `counts`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let u = unique(&array([3, 1, 3])?, UniqueOptions::default().counts(true))?; // return_counts=True: [1, 2]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn counts(mut self, counts: bool) -> UniqueOptions {
        self.counts = counts;
        self
    }
}

/// The results of [`unique`].
#[derive(Debug, Clone)]
pub struct Unique {
    /// The sorted unique values.
    pub values: Array,
    /// First occurrences (int64), when asked for.
    pub index: Option<Array>,
    /// Reconstruction indices (int64, the input's shape), when asked for.
    pub inverse: Option<Array>,
    /// Occurrence counts (int64), when asked for.
    pub counts: Option<Array>,
}

/// The sorted unique elements of the flattened `a` (NumPy's `unique` with
/// `axis=None`): with `opts.equal_nan` (NumPy's default) all NaNs are one
/// value, else each NaN is one (sorted last, in stable order); -0.0 and
/// 0.0 are one value, the first in stable order. Waits for the device once,
/// for the number of unique values.
///
/// With `opts.axis = Some(k)`, the unique slices along axis `k` (NumPy's
/// `unique(a, axis=k)`), in lexicographic order of their elements (C order
/// within a slice; each element in NumPy's sort order, NaN last); two
/// slices are equal when every element is `==` (-0.0 equals 0.0; a slice
/// holding NaN equals no other, as NumPy's). `index`, `counts` and
/// `inverse` are 1-D over the slices. NaN orders last for every dtype;
/// NumPy's structured comparison, which its `unique` uses here, puts a
/// float16 NaN first (unlike its own sort), so float16 slices holding NaN
/// may come back in another order than NumPy's.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let u = unique(&array([3, 1, 3, 2])?, UniqueOptions::default().counts(true))?;
/// // u.values: [1, 2, 3]; u.counts: Some([1, 1, 2])
/// # Ok(()) }
/// ```
///
/// # Errors
/// An axis out of bounds (a 0-d array has none); allocation, compilation
/// or launch failed.
pub fn unique(a: &Array, opts: UniqueOptions) -> Result<Unique> {
    if let Some(axis) = opts.axis {
        return unique_axis(a, axis, opts);
    }
    let flat = a.reshape([-1])?;
    let n = flat.size();
    let dev = a.device();
    let i64s = |len: usize| Array::empty_on(dev, &[len], DType::Int64, Order::C);
    if n == 0 {
        return Ok(Unique {
            values: Array::empty_on(dev, &[0], a.dtype(), Order::C)?,
            index: opts.index.then(|| i64s(0)).transpose()?,
            inverse: opts
                .inverse
                .then(|| Array::empty_on(dev, a.shape(), DType::Int64, Order::C))
                .transpose()?,
            counts: opts.counts.then(|| i64s(0)).transpose()?,
        });
    }
    let perm = argsort(&flat, Some(0))?;
    let sorted = take(&flat, &perm, Some(0), TakeMode::Wrap)?;
    let stream = sorted.stream();
    let flags = Array::empty_on(dev, &[n], DType::Bool, Order::C)?;
    let dt = a.dtype();
    let blocks = n.div_ceil(256);
    let t = [dt.c_type()];
    let mark = radix::UniqueFlags {
        sorted: input(&sorted),
        n: n as i64,
        flag: output(&flags),
        equal_nan: opts.equal_nan,
    };
    let k = radix::kernel::<radix::UniqueFlags>(dt, "uflags", t)?;
    radix::launch(&k, blocks, &stream, &mark)?;
    let csum = crate::math::cumsum(&flags, None, Some(DType::Int64))?;
    let count = csum.item::<i64>(&[n as isize - 1])? as usize;
    let values = Array::empty_on(dev, &[count], dt, Order::C)?;
    let index = opts.index.then(|| i64s(count)).transpose()?;
    let inverse = opts.inverse.then(|| i64s(n)).transpose()?;
    let starts = opts.counts.then(|| i64s(count)).transpose()?;
    let out = |x: &Option<Array>| x.as_ref().map_or(Out::NULL, output);
    let scatter = radix::UniqueScatter {
        sorted: input(&sorted),
        flag: input(&flags),
        csum: input(&csum),
        perm: input(&perm),
        n: n as i64,
        values: output(&values),
        index: out(&index),
        inverse: out(&inverse),
        start: out(&starts),
    };
    let k = radix::kernel::<radix::UniqueScatter>(dt, "uscatter", t)?;
    radix::launch(&k, blocks, &stream, &scatter)?;
    let counts = match starts {
        Some(s) => {
            let end = Array::from_slice_on(dev, &[n as i64], &[1])?;
            let tail = crate::manipulation::concatenate(
                &[&crate::manipulation::split(&s, vec![1], 0)?[1], &end],
                Some(0),
            )?;
            Some(crate::ufunc::subtract(&tail, &s)?)
        }
        None => None,
    };
    let inverse = match inverse {
        Some(inv) => {
            let shape: Vec<isize> = a.shape().iter().map(|&d| d as isize).collect();
            Some(inv.reshape(&shape)?)
        }
        None => None,
    };
    Ok(Unique {
        values,
        index,
        inverse,
        counts,
    })
}

/// `unique` along `axis`: the slices as rows of an `(n, m)` matrix.
fn unique_axis(a: &Array, axis: isize, opts: UniqueOptions) -> Result<Unique> {
    let ax = normalize_axis(axis, a.ndim())?;
    let moved = a.moveaxis(&[ax as isize], &[0])?;
    let n = moved.shape()[0];
    let slice_shape = moved.shape()[1..].to_vec();
    let m: usize = slice_shape.iter().product();
    let dev = a.device();
    let i64s = |len: usize| Array::empty_on(dev, &[len], DType::Int64, Order::C);
    // The unique slices from the rows at `starts`, moved back.
    let values_from = |rows: &Array, starts: &Array, count: usize| -> Result<Array> {
        let picked = take(rows, starts, Some(0), TakeMode::Wrap)?;
        let mut shape = vec![count as isize];
        shape.extend(slice_shape.iter().map(|&d| d as isize));
        picked.reshape(&shape)?.moveaxis(&[0], &[ax as isize])
    };
    let rows = moved.reshape([n as isize, m as isize])?;
    if n == 0 || m == 0 {
        // No slices; or empty slices, all equal: one unique slice.
        let count = usize::from(n > 0);
        let starts = Array::from_slice_on(dev, &vec![0i64; count], &[count])?;
        let inverse = Array::empty_on(dev, &[n], DType::Int64, Order::C)?;
        if n > 0 {
            inverse.zero_contiguous()?;
        }
        let counts = Array::from_slice_on(dev, &vec![n as i64; count], &[count])?;
        return Ok(Unique {
            values: values_from(&rows, &starts, count)?,
            index: opts.index.then_some(starts),
            inverse: opts.inverse.then_some(inverse),
            counts: opts.counts.then_some(counts),
        });
    }
    // Lexicographic order: column 0 primary, so it is lexsort's last key.
    let t = rows.T();
    let cols: Vec<Array> = (0..m)
        .rev()
        .map(|j| crate::manipulation::axis_view(&t, 0, j, 1, 1).reshape([n as isize]))
        .collect::<Result<_>>()?;
    let col_refs: Vec<&Array> = cols.iter().collect();
    let perm = lexsort(&col_refs)?;
    let sorted = take(&rows, &perm, Some(0), TakeMode::Wrap)?;
    // A run starts at row 0 and at each row differing from the previous.
    let first = Array::from_slice_on(dev, &[true], &[1])?;
    let flags = if n > 1 {
        let prev = crate::manipulation::axis_view(&sorted, 0, 0, n - 1, 1);
        let next = crate::manipulation::axis_view(&sorted, 0, 1, n - 1, 1);
        let differs = crate::logic::any(
            &next.not_equal(&prev)?,
            crate::reduction::ReduceOptions::axis(1),
        )?;
        crate::manipulation::concatenate(&[&first, &differs], Some(0))?
    } else {
        first
    };
    let csum = crate::math::cumsum(&flags, None, Some(DType::Int64))?;
    let count = csum.item::<i64>(&[n as isize - 1])? as usize;
    // The flat unique's scatter over the permutation itself: `out` gets
    // perm at each run start (the first occurrence, as the sort is
    // stable), `start` the run starts, `inverse` each row's slot.
    let index = i64s(count)?;
    let starts = i64s(count)?;
    let inverse = opts.inverse.then(|| i64s(n)).transpose()?;
    let scatter = radix::UniqueScatter {
        sorted: input(&perm),
        flag: input(&flags),
        csum: input(&csum),
        perm: input(&perm),
        n: n as i64,
        values: output(&index),
        index: Out::NULL,
        inverse: inverse.as_ref().map_or(Out::NULL, output),
        start: output(&starts),
    };
    let i64s_t = [DType::Int64.c_type()];
    let k = radix::kernel::<radix::UniqueScatter>(DType::Int64, "uscatter", i64s_t)?;
    radix::launch(&k, n.div_ceil(256), &perm.stream(), &scatter)?;
    let counts = if opts.counts {
        let end = Array::from_slice_on(dev, &[n as i64], &[1])?;
        let next = crate::manipulation::axis_view(&starts, 0, 1, count - 1, 1);
        let tail = crate::manipulation::concatenate(&[&next, &end], Some(0))?;
        Some(crate::ufunc::subtract(&tail, &starts)?)
    } else {
        None
    };
    Ok(Unique {
        values: values_from(&sorted, &starts, count)?,
        index: opts.index.then_some(index),
        inverse,
        counts,
    })
}

/// NumPy's `kind=` of `isin` and `in1d`: how membership is found. Both
/// give the same answer; `None` in [`IsinOptions::kind`] picks, as NumPy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IsinKind {
    /// Sort the test elements, one binary search per element.
    Sort,
    /// A table of booleans over the test elements' range, one lookup per
    /// element: integer and bool inputs only, memory in proportion to the
    /// range (`max - min + 1` bytes).
    Table,
}

crate::from_numpy_str! {
    IsinKind, Error,
    else: |s| Error::Value(format!("Invalid kind: '{s}'. Please use None, 'sort' or 'table'.")),
    { "sort" => IsinKind::Sort, "table" => IsinKind::Table }
}

/// NumPy's keywords of [`isin_with`] and [`in1d_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct IsinOptions {
    /// Negate the answer (`invert`).
    pub invert: bool,
    /// The method (`kind`); `None`: the table where NumPy would take it
    /// (integer or bool inputs whose test range is at most six times the
    /// two inputs' sizes), else sorting.
    pub kind: Option<IsinKind>,
}

impl IsinOptions {
    /// Sets `invert`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let opts = IsinOptions::default().invert(true);
    /// let m = isin_with(&array([1, 2])?, &array([2])?, &opts)?; // np.isin(a, b, invert=True): [True, False]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn invert(mut self, invert: bool) -> IsinOptions {
        self.invert = invert;
        self
    }

    /// Sets `kind`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, sorting::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let opts = IsinOptions::default().kind(IsinKind::Sort);
    /// let m = isin_with(&array([1, 2])?, &array([2])?, &opts)?; // np.isin(a, b, kind='sort'): [False, True]
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn kind(mut self, kind: impl Into<Option<IsinKind>>) -> IsinOptions {
        self.kind = kind.into();
        self
    }
}

/// Whether each element of `element` is in `test_elements` (NumPy's
/// `isin`; `invert` negates): the test elements sorted once, one binary
/// search and one comparison per element (`kind='sort'`, which waits for
/// nothing; [`isin_with`] takes NumPy's `kind`). Equality is `==`: NaN is in
/// nothing, -0.0 is in a set holding 0.0. A bool array of `element`'s
/// shape.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = isin(&array([1, 2, 3])?, &array([2, 3])?, false)?; // [false, true, true]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Devices differ; allocation or launch failed.
pub fn isin(element: &Array, test_elements: &Array, invert: bool) -> Result<Array> {
    isin_with(
        element,
        test_elements,
        &IsinOptions::default().invert(invert).kind(IsinKind::Sort),
    )
}

/// [`isin`] with NumPy's `kind=` ([`IsinOptions`]). The table method
/// reads the test elements' minimum and maximum back (one wait).
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let opts = IsinOptions::default().invert(true);
/// // np.isin([1, 2, 3], [2], invert=True): [True, False, True]
/// let m = isin_with(&array([1, 2, 3])?, &array([2])?, &opts)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isin`]; NumPy's errors for [`IsinKind::Table`]: "The 'table'
/// method is only supported for boolean or integer arrays. Please select
/// 'sort' or None for kind." for other dtypes, and NumPy's `RuntimeError`
/// ("You have specified kind='table', but the range of values in `ar2` or
/// `ar1` exceed the maximum integer of the datatype. ...",
/// [`Error::NumpyRuntime`]) when the test range overflows their dtype.
pub fn isin_with(element: &Array, test_elements: &Array, opts: &IsinOptions) -> Result<Array> {
    element.check_same_device(test_elements, "isin")?;
    let int_like = |d: DType| d == DType::Bool || d.is_integer();
    let ints = int_like(element.dtype()) && int_like(test_elements.dtype());
    if opts.kind == Some(IsinKind::Table) && !ints {
        return Err(Error::Value(
            "The 'table' method is only supported for boolean or integer arrays. \
             Please select 'sort' or None for kind."
                .into(),
        ));
    }
    let invert = opts.invert;
    if test_elements.size() == 0 || element.size() == 0 {
        let out = Array::empty_on(element.device(), element.shape(), DType::Bool, Order::C)?;
        if out.size() > 0 {
            out.fill(invert)?;
        }
        return Ok(out);
    }
    if ints && opts.kind != Some(IsinKind::Sort) {
        let forced = opts.kind == Some(IsinKind::Table);
        if let Some(r) = isin_table(element, test_elements, invert, forced)? {
            return Ok(r);
        }
    }
    isin_sort(element, test_elements, invert)
}

/// `isin` by sorting the test elements.
fn isin_sort(element: &Array, test_elements: &Array, invert: bool) -> Result<Array> {
    let dt = crate::dtype::promote_types(element.dtype(), test_elements.dtype());
    let t = test_elements.reshape([-1])?;
    let t = if t.dtype() == dt { t } else { t.astype(dt)? };
    let sorted = sort(&t, Some(0))?;
    let e = if element.dtype() == dt {
        element.clone()
    } else {
        element.astype(dt)?
    };
    let pos = searchsorted(&sorted, &e, Side::Left, None)?;
    let cand = take(&sorted, &pos, None, TakeMode::Clip)?;
    if invert {
        cand.not_equal(&e)
    } else {
        cand.equal(&e)
    }
}

/// One element of an integer (or bool) array as an `i128`.
fn item_i128(a: &Array) -> Result<i128> {
    Ok(if a.dtype().kind() == 'u' {
        i128::from(a.astype(DType::UInt64)?.item::<u64>(&[])?)
    } else {
        i128::from(a.astype(DType::Int64)?.item::<i64>(&[])?)
    })
}

/// `isin` by NumPy's table over the test elements' range (non-empty
/// integer or bool inputs), or `None` where NumPy would not take it:
/// the range overflows the test elements' dtype, or (unless `forced`) it
/// is more than six times the inputs' sizes.
fn isin_table(
    element: &Array,
    test_elements: &Array,
    invert: bool,
    forced: bool,
) -> Result<Option<Array>> {
    let t = test_elements.reshape([-1])?;
    let t = if t.dtype() == DType::Bool {
        t.astype(DType::UInt8)?
    } else {
        t
    };
    let all = crate::reduction::ReduceOptions::default();
    let lo = item_i128(&crate::stats::amin(&t, &all)?)?;
    let hi = item_i128(&crate::stats::amax(&t, &all)?)?;
    let range = hi - lo;
    if range > crate::dtype::iinfo(t.dtype())?.max {
        if forced {
            return Err(Error::NumpyRuntime(
                "You have specified kind='table', but the range of values in `ar2` or `ar1` \
                 exceed the maximum integer of the datatype. Please set `kind` to None or 'sort'."
                    .into(),
            ));
        }
        return Ok(None);
    }
    if !forced && range > 6 * (element.size() + t.size()) as i128 {
        return Ok(None);
    }
    let dev = element.device();
    let e = if element.dtype() == DType::Bool {
        element.astype(DType::UInt8)?
    } else {
        element.clone()
    };
    let info = crate::dtype::iinfo(e.dtype())?;
    // Only elements within both the range and their own dtype can hit.
    let (elo, ehi) = (lo.max(info.min), hi.min(info.max));
    if elo > ehi {
        let out = Array::empty_on(dev, element.shape(), DType::Bool, Order::C)?;
        out.fill(invert)?;
        return Ok(Some(out));
    }
    let len = usize::try_from(range + 1)
        .map_err(|_| Error::Value(format!("isin: a table of {} entries", range + 1)))?;
    let table = Array::empty_on(dev, &[len], DType::Bool, Order::C)?;
    table.fill(invert)?;
    // Offsets from the minimum in wrapping int64: exact, as the range fits.
    let base = lo as i64;
    let slot = |x: &Array| crate::ufunc::subtract(&x.astype(DType::Int64)?, base);
    let hit = Array::from_slice_on(dev, &[!invert], &[1])?;
    crate::indexing::put(&table, &slot(&t)?, &hit, TakeMode::Wrap)?;
    let inside = crate::ufunc::logical_and(
        &e.greater_equal(crate::ufunc::Input::Scalar(ScalarValue::Int(elo)))?,
        &e.less_equal(crate::ufunc::Input::Scalar(ScalarValue::Int(ehi)))?,
    )?;
    let looked = take(&table, &slot(&e)?, None, TakeMode::Clip)?;
    crate::indexing::where_(&inside, &looked, invert).map(Some)
}

/// [`isin`] of the flattened `ar1` (NumPy's `in1d`): a 1-D bool array.
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = in1d(&array([1, 2])?, &array([2])?, false)?; // [false, true]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isin`].
pub fn in1d(ar1: &Array, ar2: &Array, invert: bool) -> Result<Array> {
    isin(&ar1.reshape([-1])?, ar2, invert)
}

/// [`in1d`] with NumPy's `kind=` ([`isin_with`]).
///
/// ```no_run
/// use gpu_array::{creation::array, sorting::*};
/// # fn main() -> gpu_array::Result<()> {
/// let opts = IsinOptions::default().kind(IsinKind::Sort);
/// // np.in1d([1, 2, 3], [2, 3], kind='sort'): [False, True, True]
/// let m = in1d_with(&array([1, 2, 3])?, &array([2, 3])?, &opts)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isin_with`].
pub fn in1d_with(ar1: &Array, ar2: &Array, opts: &IsinOptions) -> Result<Array> {
    isin_with(&ar1.reshape([-1])?, ar2, opts)
}
