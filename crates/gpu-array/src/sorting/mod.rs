//! Sorting, searching and counting (NumPy's "Sorting, searching, and
//! counting" and `unique`), on Cuprum's own GPU radix sort.
//!
//! | NumPy / CuPy                               | Cuprum                                              |
//! |--------------------------------------------|-----------------------------------------------------|
//! | `cp.sort(a)`, `cp.sort(a, axis=0)`         | [`sort`]`(&a, Some(-1))?`, [`sort`]`(&a, Some(0))?` |
//! | `cp.sort(a, axis=None)`                    | [`sort`]`(&a, None)?`                               |
//! | `cp.argsort(a)`                            | [`argsort`]`(&a, Some(-1))?`                        |
//! | `cp.lexsort((b, a))`                       | [`lexsort`]`(&[&b, &a])?`                           |
//! | `cp.msort(a)`, `cp.sort_complex(a)`        | [`msort`], [`sort_complex`]                         |
//! | `cp.partition(a, 3)`, `argpartition`       | [`partition`]`(&a, &[3], Some(-1))?`, [`argpartition`] |
//! | `cp.searchsorted(a, v, side='right')`      | [`searchsorted`]`(&a, &v, Side::Right, None)?`      |
//! | `cp.unique(a, return_counts=True)`         | [`unique`]`(&a, UniqueOptions { counts: true, ..Default::default() })?` |
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
//! the count and a scatter.

pub mod keys;
mod order_stats;
pub mod radix;

pub use order_stats::{
    QuantileMethod, QuantileOptions, Quantiles, median, nanmedian, nanpercentile, nanquantile,
    percentile, quantile, quantile_kernel,
};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take};
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
        None => (a.reshape(&[-1])?, 0),
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
            None => crate::indexing::take_along_axis(&a.reshape(&[-1])?, &idx, Some(0)),
            Some(ax) => crate::indexing::take_along_axis(a, &idx, Some(ax)),
        };
    }
    sort_impl(a, axis, Want::Values)
}

/// The indices that sort `a` along `axis` (NumPy's `argsort` with a stable
/// kind), int64, positions within the axis.
///
/// # Errors
/// As [`sort`].
pub fn argsort(a: &Array, axis: Option<isize>) -> Result<Array> {
    sort_impl(a, axis, Want::Indices)
}

/// [`sort`] along the first axis (NumPy's `msort`).
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

/// The indirect stable sort by several 1-D keys, the last key primary
/// (NumPy's `lexsort`): int64 indices.
///
/// # Errors
/// No keys, keys of other than 1 dimension (`Unsupported`), different
/// lengths.
pub fn lexsort(keys: &[&Array]) -> Result<Array> {
    let Some(first) = keys.first() else {
        return Err(Error::Value(
            "need sequence of keys with len > 0 in lexsort".into(),
        ));
    };
    if keys.iter().any(|k| k.ndim() != 1) {
        return Err(Error::Unsupported(
            "lexsort: only 1-D keys are supported".into(),
        ));
    }
    if keys.iter().any(|k| k.size() != first.size()) {
        return Err(Error::Value("all keys need to be the same shape".into()));
    }
    let mut perm = argsort(first, Some(0))?;
    for k in &keys[1..] {
        let reordered = take(k, &perm, Some(0), TakeMode::Wrap)?;
        let order = argsort(&reordered, Some(0))?;
        perm = take(&perm, &order, Some(0), TakeMode::Wrap)?;
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
/// # Errors
/// A `kth` out of bounds (NumPy's message); as [`sort`].
pub fn partition(a: &Array, kth: &[isize], axis: Option<isize>) -> Result<Array> {
    check_kth(a, kth, axis)?;
    sort(a, axis)
}

/// The indices that partition `a` (NumPy's `argpartition`); a full stable
/// argsort.
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

/// Where each element of `v` would go in the sorted 1-D `a` to keep it
/// sorted (NumPy's `searchsorted`), one binary search per element of `v`,
/// in NumPy's order (NaN last, -0.0 == 0.0). `sorter` holds the indices
/// that sort `a`. Both sides are compared in their promoted dtype. Int64
/// indices of `v`'s shape.
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
        radix::launch(
            radix::kernel(dt, "search")?,
            m.div_ceil(256),
            &out.stream(),
            [
                sa.data_ptr().raw(),
                sv.data_ptr().raw(),
                out.data_ptr().raw(),
                0,
                0,
                0,
                0,
                0,
            ],
            [
                sa.size() as i64,
                m as i64,
                i64::from(side == Side::Right),
                0,
                0,
                0,
                0,
                0,
            ],
        )?;
    }
    Ok(out)
}

/// Which extra results [`unique`] returns (NumPy's `return_*` flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UniqueOptions {
    /// The index of each unique value's first occurrence.
    pub index: bool,
    /// For each input element, the index of its unique value (input shape).
    pub inverse: bool,
    /// How often each unique value occurs.
    pub counts: bool,
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
/// `axis=None` and `equal_nan=True`: all NaNs are one value, -0.0 and 0.0
/// are one value, the first in stable order). Waits for the device once,
/// for the number of unique values.
///
/// # Errors
/// Allocation, compilation or launch failed.
pub fn unique(a: &Array, opts: UniqueOptions) -> Result<Unique> {
    let flat = a.reshape(&[-1])?;
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
    radix::launch(
        radix::kernel(dt, "uflags")?,
        blocks,
        &stream,
        [
            sorted.data_ptr().raw(),
            flags.data_ptr().raw(),
            0,
            0,
            0,
            0,
            0,
            0,
        ],
        [n as i64, 0, 0, 0, 0, 0, 0, 0],
    )?;
    let csum = crate::scan::cumsum(&flags, None, Some(DType::Int64))?;
    let count = csum.item::<i64>(&[n as isize - 1])? as usize;
    let values = Array::empty_on(dev, &[count], dt, Order::C)?;
    let index = opts.index.then(|| i64s(count)).transpose()?;
    let inverse = opts.inverse.then(|| i64s(n)).transpose()?;
    let starts = opts.counts.then(|| i64s(count)).transpose()?;
    let p = |x: &Option<Array>| x.as_ref().map_or(0, |a| a.data_ptr().raw());
    radix::launch(
        radix::kernel(dt, "uscatter")?,
        blocks,
        &stream,
        [
            sorted.data_ptr().raw(),
            flags.data_ptr().raw(),
            csum.data_ptr().raw(),
            perm.data_ptr().raw(),
            values.data_ptr().raw(),
            p(&index),
            p(&inverse),
            p(&starts),
        ],
        [n as i64, 0, 0, 0, 0, 0, 0, 0],
    )?;
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

/// Whether each element of `element` is in `test_elements` (NumPy's
/// `isin`; `invert` negates): the test elements sorted once, one binary
/// search and one comparison per element. Equality is `==`: NaN is in
/// nothing, -0.0 is in a set holding 0.0. A bool array of `element`'s
/// shape.
///
/// # Errors
/// Devices differ; allocation or launch failed.
pub fn isin(element: &Array, test_elements: &Array, invert: bool) -> Result<Array> {
    element.check_same_device(test_elements, "isin")?;
    let dt = crate::dtype::promote_types(element.dtype(), test_elements.dtype());
    let n = test_elements.size();
    if n == 0 || element.size() == 0 {
        let out = Array::empty_on(element.device(), element.shape(), DType::Bool, Order::C)?;
        if out.size() > 0 {
            out.fill(invert)?;
        }
        return Ok(out);
    }
    let t = test_elements.reshape(&[-1])?;
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

/// [`isin`] of the flattened `ar1` (NumPy's `in1d`): a 1-D bool array.
///
/// # Errors
/// As [`isin`].
pub fn in1d(ar1: &Array, ar2: &Array, invert: bool) -> Result<Array> {
    isin(&ar1.reshape(&[-1])?, ar2, invert)
}
