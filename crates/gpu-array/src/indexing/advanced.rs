//! NumPy's advanced indexing on device arrays, get and set: integer index
//! arrays and boolean masks mixed with the basic items (integers, slices,
//! `newaxis`, `...`), written with the [`ix!`](crate::ix) macro.
//!
//! | NumPy / CuPy                          | Cuprum                                              |
//! |---------------------------------------|-----------------------------------------------------|
//! | `a[idx]` (integer array)              | `a.get_index(&ix![&idx])?`                          |
//! | `a[i, j]` (arrays broadcast together) | `a.get_index(&ix![&i, &j])?`                        |
//! | `a[:, idx, 1:]`                       | `a.get_index(&ix![.., &idx, 1..])?`                 |
//! | `a[mask]`, `a[mask, 0]`, `a[..., m]`  | `a.get_index(&ix![&mask])?`, `ix![&mask, 0]`, `ix![..., &m]` |
//! | `a[np.newaxis, idx, ::-1]`            | `a.get_index(&ix![NewAxis, &idx, ..;-1])?`          |
//! | `a[1:, ::2]` (basic only: a view)     | `a.get_index(&ix![1.., ..;2])?` (or `a.slice(&s![1.., ..;2])`) |
//! | `a[idx] = 0.5`                        | `a.set_index(&ix![&idx], 0.5)?`                     |
//! | `a[mask] = b`, `a[:, idx] = b`        | `a.set_index(&ix![&mask], &b)?`, `ix![.., &idx]`    |
//! | `a[True]`, `a[False]`                 | `ix![&Array::scalar(true)?]` (a 0-d mask)           |
//!
//! An index is a slice of [`IndexItem`]s: [`IndexItem::Basic`] (an
//! [`AxisIndex`], what [`s!`](crate::s) builds), [`IndexItem::Int`] (a device
//! array of any integer dtype) and [`IndexItem::Mask`] (a device bool array).
//! `From` converts Rust integers, ranges, [`AxisIndex`] and `&Array` (an
//! integer array or a mask, by its dtype, as NumPy decides), so the macro
//! takes any of them. An index with no array is basic: [`Array::get_index`]
//! then returns a view, as NumPy does; every other result is a new array.
//!
//! Placement of the indexed dimensions, as NumPy's: the index arrays (and
//! the integers, once any array is present) broadcast together to one
//! shape; when they are adjacent in the index, that shape replaces their
//! axes in place, and when a slice, `newaxis` or `...` separates them it
//! comes first (`a[0, :, [1, 2]]` of a `(3, 4, 5)` array is `(2, 4)`). A
//! boolean mask of `k` dimensions counts as the `k` integer arrays of its
//! `nonzero()`, covering `k` axes whose lengths must match its shape.
//!
//! Semantics that follow CuPy (its "Difference between CuPy and NumPy"):
//!
//! - **Out-of-bounds indices** in integer arrays wrap around (modulo the
//!   axis length) instead of raising, since checking would need a
//!   device-to-host copy per call. Integers among the basic items stay
//!   checked ("index 5 is out of bounds for axis 0 with size 3").
//! - **Duplicate values in indices**: when a set writes one element
//!   several times, which write wins is undefined.
//!
//! A single mask of the source's shape (`a[mask]`) takes the compaction
//! kernels of [`compact`](super::compact): a per-tile count, one wait for
//! the total, and one pass that writes the selected elements in C order.
//!
//! Other masks stay on the device: a cumulative sum of each mask gives every
//! true element its output slot, and the host waits once per call for the
//! true counts (all masks' counts come back in one copy), because NumPy's
//! result shape depends on them. Integer arrays need no wait at all.
//!
//! The kernels: a gather (`out[i] = *(src + offset(i))`) and scatters,
//! elementwise kernels with raw operands, where the source is a strided
//! view over the output shape (stride 0 along the indexed dimensions) and
//! the index array a broadcast view over it, so each output element reads
//! its index and adds `wrap(index) * stride` (`indexing.cuh`). With several index arrays
//! their byte offsets are first summed into one array over the broadcast
//! index shape, in int32 when the indexed view's byte extent allows and
//! int64 otherwise.

use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{self, AxisIndex, Layout, Order, index_layout};
use crate::ufunc::Input;

/// One entry of an index, as in `a[1, 2:, idx, mask, np.newaxis, ...]`.
#[derive(Clone, Copy, Debug)]
pub enum IndexItem<'a> {
    /// An integer, a slice, `newaxis` or `...` (see [`s!`](crate::s)).
    Basic(AxisIndex),
    /// An index array of any integer dtype over one axis; negative values
    /// count from the end, values outside `-n..n` wrap (CuPy). A bool array
    /// here acts as a mask, as NumPy decides by the dtype.
    Int(&'a Array),
    /// A boolean mask over as many axes as it has dimensions (a 0-d mask
    /// is NumPy's `a[True]`: a new axis of length 1 or 0).
    Mask(&'a Array),
}

impl<'a> From<&'a Array> for IndexItem<'a> {
    /// A mask for a bool array, else an index array (a float array gives
    /// NumPy's error when used).
    fn from(a: &'a Array) -> Self {
        if a.dtype() == DType::Bool {
            IndexItem::Mask(a)
        } else {
            IndexItem::Int(a)
        }
    }
}

impl From<AxisIndex> for IndexItem<'_> {
    fn from(i: AxisIndex) -> Self {
        IndexItem::Basic(i)
    }
}

/// `From` for each basic item type: whatever [`AxisIndex`] converts from
/// (an integer, a range of integers, `..`) is a basic item.
macro_rules! basic_items {
    ($($t:ty),*) => {$(
        basic_items!(@from $t, Range<$t>, RangeFrom<$t>, RangeTo<$t>, RangeInclusive<$t>,
                     RangeToInclusive<$t>);
    )*};
    (@from $($s:ty),*) => {$(
        impl From<$s> for IndexItem<'_> {
            fn from(r: $s) -> Self {
                IndexItem::Basic(r.into())
            }
        }
    )*};
}

basic_items!(@from RangeFull);
basic_items!(isize, i32, i64, usize);

/// Builds an index, a `Vec<`[`IndexItem`]`>`, with [`s!`](crate::s)'s
/// syntax plus arrays: `&idx` (an integer array) and `&mask` (a bool
/// array) where NumPy takes them.
///
/// | NumPy                      | `ix!`                          |
/// |----------------------------|--------------------------------|
/// | `a[idx]`                   | `ix![&idx]`                    |
/// | `a[1:, idx, np.newaxis]`   | `ix![1.., &idx, NewAxis]`      |
/// | `a[mask, ::-1]`            | `ix![&mask, ..;-1]`            |
/// | `a[..., i, j]`             | `ix![..., &i, &j]`             |
/// | `a[-1, 2:5:2]`             | `ix![-1, 2..5;2]`              |
///
/// ```
/// use gpu_array::indexing::IndexItem;
/// use gpu_array::layout::AxisIndex;
/// use gpu_array::ix;
///
/// let idx = ix![1, 2..;2, NewAxis, ...];
/// assert!(matches!(idx[0], IndexItem::Basic(AxisIndex::Index(1))));
/// assert!(matches!(idx[3], IndexItem::Basic(AxisIndex::Ellipsis)));
/// ```
#[macro_export]
macro_rules! ix {
    // No `let` around the vector (nor around `&array` items): temporaries
    // such as `ix![&a.greater(0.0)?]` live to the end of the caller's
    // statement.
    (@acc []) => {
        ::std::vec::Vec::<$crate::indexing::IndexItem<'_>>::new()
    };
    (@acc [$($out:expr),+]) => {
        ::std::vec![$($out),+]
    };
    (@acc [$($out:expr),*] NewAxis $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* $crate::indexing::IndexItem::Basic(
            $crate::layout::AxisIndex::NewAxis)] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] ... $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* $crate::indexing::IndexItem::Basic(
            $crate::layout::AxisIndex::Ellipsis)] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] & $a:expr $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* $crate::indexing::IndexItem::from(&$a)] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] $r:expr ; $step:expr $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* {
            #[allow(clippy::reversed_empty_ranges)]
            let range = $r;
            $crate::indexing::IndexItem::Basic($crate::layout::AxisIndex::stepped(range, $step))
        }] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] $i:expr $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* {
            #[allow(clippy::reversed_empty_ranges)]
            let index = $i;
            $crate::indexing::IndexItem::from(index)
        }] $($($rest)*)?)
    };
    ($($t:tt)*) => {
        $crate::ix!(@acc [] $($t)*)
    };
}

// ---------------------------------------------------------------------------
// Host planning: where every dimension goes (no device needed).

/// What planning needs to know of one item: the basic item itself, or the
/// shape of an index array or a mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Basic(AxisIndex),
    Int(Vec<usize>),
    Mask(Vec<usize>),
}

/// The basic items of an index that holds no arrays (a plain view).
fn basic_only(kinds: &[ItemKind]) -> Vec<AxisIndex> {
    kinds
        .iter()
        .map(|k| match k {
            ItemKind::Basic(b) => *b,
            _ => unreachable!("no arrays"),
        })
        .collect()
}

/// One array item, resolved against the basic view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Comp {
    /// An integer array over one view axis of length `len` and byte `stride`.
    Int { len: usize, stride: isize },
    /// A mask over consecutive view axes of this shape and these byte
    /// strides (a 0-d mask: one new axis, shape `[1]`, stride 0).
    Mask {
        shape: Vec<usize>,
        strides: Vec<isize>,
    },
}

/// The basic view and where the advanced dimensions go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The view after the basic items, every array item standing as full
    /// slices (a 0-d mask as a new axis): shape, byte strides, offset.
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: isize,
    /// The array items in index order.
    pub comps: Vec<Comp>,
    /// The view axes that no array indexes, in order.
    pub rest: Vec<usize>,
    /// How many of `rest` come before the broadcast index dimensions (0
    /// when the advanced items are separated: they go first).
    pub insert_at: usize,
}

/// Plans `a[items]` for an array of `shape`/`strides` (bytes) at `offset`.
///
/// # Errors
/// As [`index_layout`] ("too many indices", a second ellipsis, an integer
/// out of bounds, a zero step), with masks counting one index per
/// dimension; a mask whose shape does not match its axes.
pub(crate) fn plan(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    items: &[ItemKind],
) -> Result<Plan> {
    let mut basic = Vec::with_capacity(items.len());
    for it in items {
        match it {
            ItemKind::Basic(b) => basic.push(*b),
            ItemKind::Int(_) => basic.push(AxisIndex::FULL),
            ItemKind::Mask(m) if m.is_empty() => basic.push(AxisIndex::NewAxis),
            ItemKind::Mask(m) => basic.extend(std::iter::repeat_n(AxisIndex::FULL, m.len())),
        }
    }
    let (vshape, vstrides, voffset) = index_layout(shape, strides, offset, &basic)?;
    let consumed = basic
        .iter()
        .filter(|b| matches!(b, AxisIndex::Index(_) | AxisIndex::Slice { .. }))
        .count();
    // index_layout checked consumed <= ndim.
    let ellipsis = shape.len() - consumed;
    let any_array = items
        .iter()
        .any(|it| matches!(it, ItemKind::Int(_) | ItemKind::Mask(_)));
    let (mut vax, mut sax) = (0usize, 0usize);
    let mut comps = Vec::new();
    let mut advanced_axis = vec![false; vshape.len()];
    let mut positions = Vec::new();
    let (mut rest_seen, mut rest_before) = (0usize, None);
    for (k, it) in items.iter().enumerate() {
        let advanced = match it {
            ItemKind::Int(_) | ItemKind::Mask(_) => true,
            ItemKind::Basic(AxisIndex::Index(_)) => any_array,
            ItemKind::Basic(_) => false,
        };
        if advanced {
            positions.push(k);
            rest_before.get_or_insert(rest_seen);
        }
        match it {
            ItemKind::Basic(AxisIndex::Index(_)) => sax += 1,
            ItemKind::Basic(AxisIndex::Slice { .. }) => {
                vax += 1;
                sax += 1;
                rest_seen += 1;
            }
            ItemKind::Basic(AxisIndex::NewAxis) => {
                vax += 1;
                rest_seen += 1;
            }
            ItemKind::Basic(AxisIndex::Ellipsis) => {
                vax += ellipsis;
                sax += ellipsis;
                rest_seen += ellipsis;
            }
            ItemKind::Int(_) => {
                comps.push(Comp::Int {
                    len: vshape[vax],
                    stride: vstrides[vax],
                });
                advanced_axis[vax] = true;
                vax += 1;
                sax += 1;
            }
            ItemKind::Mask(m) if m.is_empty() => {
                comps.push(Comp::Mask {
                    shape: vec![1],
                    strides: vec![0],
                });
                advanced_axis[vax] = true;
                vax += 1;
            }
            ItemKind::Mask(m) => {
                for (j, &len) in m.iter().enumerate() {
                    if len != vshape[vax + j] {
                        return Err(Error::Index(format!(
                            "boolean index did not match indexed array along axis {}; size of \
                             axis is {} but size of corresponding boolean axis is {len}",
                            sax + j,
                            vshape[vax + j]
                        )));
                    }
                    advanced_axis[vax + j] = true;
                }
                comps.push(Comp::Mask {
                    shape: m.clone(),
                    strides: vstrides[vax..vax + m.len()].to_vec(),
                });
                vax += m.len();
                sax += m.len();
            }
        }
    }
    let adjacent = match (positions.first(), positions.last()) {
        (Some(&f), Some(&l)) => l - f + 1 == positions.len(),
        _ => true,
    };
    let insert_at = if adjacent {
        rest_before.unwrap_or(0)
    } else {
        0
    };
    let rest = (0..vshape.len()).filter(|&a| !advanced_axis[a]).collect();
    Ok(Plan {
        shape: vshape,
        strides: vstrides,
        offset: voffset,
        comps,
        rest,
        insert_at,
    })
}

/// The result's layout once the index arrays' shapes are known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The result's shape.
    pub out_shape: Vec<usize>,
    /// Byte strides of the source over `out_shape`, 0 along the index
    /// dimensions (the view's offset is the plan's).
    pub src_strides: Vec<isize>,
    /// The broadcast shape of the index arrays.
    pub index_shape: Vec<usize>,
    /// Where `index_shape` starts in `out_shape`.
    pub index_start: usize,
}

impl Placement {
    /// Byte strides over `out_shape` of an index array of `shape` and
    /// `strides` broadcast to the index shape (0 along the other axes).
    ///
    /// # Errors
    /// The shape does not broadcast (cannot happen for the planned arrays).
    pub(crate) fn index_strides(&self, shape: &[usize], strides: &[isize]) -> Result<Vec<isize>> {
        let b = layout::broadcast_strides(shape, strides, &self.index_shape)?;
        let mut out = vec![0isize; self.out_shape.len()];
        out[self.index_start..self.index_start + b.len()].copy_from_slice(&b);
        Ok(out)
    }
}

/// Places the broadcast index dimensions; `comp_shapes` holds, per
/// component of `plan`, the index array's shape or a mask's `(count,)`.
///
/// # Errors
/// The index arrays do not broadcast together, in NumPy's words (a mask
/// listed once per dimension, as its `nonzero()` arrays); a non-empty
/// index array into an empty axis.
pub(crate) fn place(plan: &Plan, comp_shapes: &[Vec<usize>]) -> Result<Placement> {
    let refs: Vec<&[usize]> = comp_shapes.iter().map(Vec::as_slice).collect();
    let index_shape = layout::broadcast_shapes(&refs).map_err(|_| {
        let listed: Vec<String> = plan
            .comps
            .iter()
            .zip(comp_shapes)
            .flat_map(|(c, s)| {
                let times = match c {
                    Comp::Int { .. } => 1,
                    Comp::Mask { shape, .. } => shape.len(),
                };
                std::iter::repeat_n(layout::fmt_shape(s), times)
            })
            .collect();
        Error::Index(format!(
            "shape mismatch: indexing arrays could not be broadcast together with shapes {}",
            listed.join(" ")
        ))
    })?;
    // An index into an empty axis has nothing to wrap to (CuPy's take).
    if layout::size(&index_shape)? > 0
        && plan
            .comps
            .iter()
            .any(|c| matches!(c, Comp::Int { len: 0, .. }))
    {
        return Err(Error::Index(
            "cannot do a non-empty take from an empty axes.".into(),
        ));
    }
    let mut out_shape = Vec::with_capacity(plan.rest.len() + index_shape.len());
    let mut src_strides = Vec::with_capacity(out_shape.capacity());
    for &a in &plan.rest[..plan.insert_at] {
        out_shape.push(plan.shape[a]);
        src_strides.push(plan.strides[a]);
    }
    out_shape.extend_from_slice(&index_shape);
    src_strides.extend(std::iter::repeat_n(0, index_shape.len()));
    for &a in &plan.rest[plan.insert_at..] {
        out_shape.push(plan.shape[a]);
        src_strides.push(plan.strides[a]);
    }
    Ok(Placement {
        out_shape,
        src_strides,
        index_shape,
        index_start: plan.insert_at,
    })
}

/// The shape of `value` broadcast to an indexing result of `shape` as
/// NumPy's assignment does (leading length-1 axes beyond the result's
/// dimensions dropped), or NumPy's error.
pub(crate) fn value_shape(value: &[usize], shape: &[usize]) -> Result<Vec<usize>> {
    let extra = value.len().saturating_sub(shape.len());
    let fits = value[..extra].iter().all(|&d| d == 1)
        && value[extra..]
            .iter()
            .rev()
            .zip(shape.iter().rev())
            .all(|(&v, &s)| v == s || v == 1);
    if fits {
        Ok(value[extra..].to_vec())
    } else {
        Err(Error::Value(format!(
            "shape mismatch: value array of shape {} could not be broadcast to indexing result \
             of shape {}",
            layout::fmt_shape(value),
            layout::fmt_shape(shape)
        )))
    }
}

// ---------------------------------------------------------------------------
// Kernels.

/// `out[i] = src[i]` displaced by the index's byte offset: `src` is the
/// raw source seen over the output shape (stride 0 along the index
/// dimensions), `ind` a raw index array seen the same way, wrapped into
/// `0..len` and times `stride` bytes (`len` 0: `ind` holds byte offsets
/// already, from masks or summed offsets).
fn gather_kernel<'a>(
    src: Bind<'a>,
    ind: Bind<'a>,
    out: Bind<'a>,
    len: usize,
    stride: isize,
) -> Elementwise<'a> {
    Elementwise::new("adv_gather")
        .raw("src", src)
        .raw("ind", ind)
        .scalar("len", DType::Int64, len)
        .scalar("stride", DType::Int64, stride)
        .output("out", out)
        .alias("T", src.dtype())
        .op("out = *(const T*)((const char*)&src[i] + \
             cuprum_np::adv_index((long long)ind[i], len) * stride);")
        .preamble(super::PREAMBLE)
}

/// Runs the gather into the C-contiguous `out`.
fn gather(src: &Array, ind: &Array, len: usize, stride: isize, out: &Array) -> Result<()> {
    gather_kernel(src.into(), ind.into(), out.into(), len, stride).launch(out.shape())
}

/// The value of a scatter: an array broadcast over the indexing result
/// (raw, read at `i`), or one scalar in the destination's dtype.
#[derive(Clone, Copy, Debug)]
enum ScatterValue<'a> {
    Array(Bind<'a>),
    Scalar(ScalarValue),
}

/// The scatter of `val` into the raw `dst` (seen over the indexing
/// result) displaced as [`gather_kernel`] reads.
fn scatter_kernel<'a>(
    val: ScatterValue<'a>,
    ind: Bind<'a>,
    dst: Bind<'a>,
    len: usize,
    stride: isize,
) -> Elementwise<'a> {
    let dt = dst.dtype();
    let (k, op) = match val {
        ScatterValue::Array(v) => (
            Elementwise::new("adv_scatter").raw("val", v),
            "*(T*)((char*)&dst[i] + cuprum_np::adv_index((long long)ind[i], len) * stride) = \
             val[i];",
        ),
        ScatterValue::Scalar(v) => (
            Elementwise::new("adv_scatter_scalar").scalar("val", dt, v),
            "*(T*)((char*)&dst[i] + cuprum_np::adv_index((long long)ind[i], len) * stride) = val;",
        ),
    };
    k.raw("ind", ind)
        .scalar("len", DType::Int64, len)
        .scalar("stride", DType::Int64, stride)
        .raw_output("dst", dst)
        .alias("T", dt)
        .op(op)
        .preamble(super::PREAMBLE)
}

/// Adds one index array's byte offsets (`wrap(ind) * stride`, or `ind`
/// itself when `len` is 0) into `off`, over the broadcast index shape;
/// `first` starts the sum (else `off` is read).
fn offsets_kernel<'a>(
    ind: Bind<'a>,
    off: Bind<'a>,
    len: usize,
    stride: isize,
    first: bool,
) -> Elementwise<'a> {
    Elementwise::new("adv_offsets")
        .input("ind", ind)
        .scalar("len", DType::Int64, len)
        .scalar("stride", DType::Int64, stride)
        .scalar("first", DType::Int32, i32::from(first))
        .output("off", off)
        .alias("O", off.dtype())
        .op("off = (O)((first ? 0LL : (long long)off) + \
             cuprum_np::adv_index((long long)ind, len) * stride);")
        .reads_outputs()
        .preamble(super::PREAMBLE)
}

/// The byte offset of each true element of the C-order flattened mask
/// `m` over axes of lengths `dims` and byte strides `strides` (the first
/// `nd` of them), written at its slot `c - 1` of the raw int64 `out` (`c`
/// the inclusive cumulative sum).
fn mask_offsets_kernel<'a>(
    m: Bind<'a>,
    c: Bind<'a>,
    out: Bind<'a>,
    nd: usize,
    dims: [i64; MAX_MASK_NDIM],
    strides: [i64; MAX_MASK_NDIM],
) -> Elementwise<'a> {
    let mut k = Elementwise::new("adv_mask_offsets")
        .input("m", m)
        .input("c", c)
        .scalar("nd", DType::Int64, nd);
    for (d, &n) in dims.iter().enumerate() {
        k = k.scalar(&format!("s{d}"), DType::Int64, n);
    }
    for (d, &t) in strides.iter().enumerate() {
        k = k.scalar(&format!("t{d}"), DType::Int64, t);
    }
    k.raw_output("out", out)
        .op(
            "if (m) out[c - 1] = cuprum_np::mask_offset((long long)i, nd, \
             {s0, s1, s2, s3, s4, s5, s6, s7}, {t0, t1, t2, t3, t4, t5, t6, t7});",
        )
        .preamble(super::PREAMBLE)
}

/// Writes `value` through the resolved index into `dst` (the destination
/// seen over the indexing result): an array broadcast to `dst`'s shape
/// with [`scatter_kernel`], a scalar typed in `dst`'s dtype with
/// [`scatter_scalar_kernel`]. `len` is the index's axis length (0: byte
/// offsets), `stride` its byte stride. Every array operand is raw, so the
/// call is sized explicitly: one element of the indexing result per index.
fn scatter(value: Input<'_>, ind: &Array, len: usize, stride: isize, dst: &Array) -> Result<()> {
    let value = match value {
        Input::Scalar(v) => ScatterValue::Scalar(v),
        Input::Array(v) => ScatterValue::Array(v.into()),
    };
    scatter_kernel(value, ind.into(), dst.into(), len, stride).launch(&[dst.size()])
}

/// The most dimensions one mask may have.
const MAX_MASK_NDIM: usize = 8;

/// The specs of this module's kernels for each data dtype, index dtype,
/// layout and index width, as calls build them (compile tests and
/// ahead-of-time compilation).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::indexing::advanced::kernel_specs;
/// let specs = kernel_specs(&[DType::UInt8], &[DType::Int32], &[LayoutClass::Contiguous { vectorized: false }], &[IndexWidth::I32]);
/// assert!(!specs.is_empty() && specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn kernel_specs(
    data: &[DType],
    index: &[DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let raw = Bind::Dtype;
    let zero = ScalarValue::Int(0);
    let mut out = Vec::new();
    for &l in layouts {
        for &w in widths {
            for &d in data {
                for &i in index {
                    let ks = [
                        gather_kernel(raw(d, 2), raw(i, 2), d.into(), 0, 0),
                        scatter_kernel(ScatterValue::Array(raw(d, 2)), raw(i, 3), raw(d, 2), 0, 0),
                        scatter_kernel(ScatterValue::Scalar(zero), raw(i, 1), raw(d, 1), 0, 0),
                    ];
                    out.extend(ks.iter().flat_map(|k| k.spec(l, w)));
                }
            }
            for &i in index {
                for o in [DType::Int32, DType::Int64] {
                    out.extend(offsets_kernel(i.into(), o.into(), 0, 0, false).spec(l, w));
                }
            }
            let k = mask_offsets_kernel(
                DType::Bool.into(),
                DType::Int64.into(),
                raw(DType::Int64, 1),
                0,
                [0; MAX_MASK_NDIM],
                [0; MAX_MASK_NDIM],
            );
            out.extend(k.spec(l, w));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Device side.

/// The kinds of `items` and their arrays, checked: integer or bool
/// dtypes, one device.
fn classify<'a>(a: &Array, items: &[IndexItem<'a>]) -> Result<(Vec<ItemKind>, Vec<&'a Array>)> {
    let mut kinds = Vec::with_capacity(items.len());
    let mut arrays = Vec::new();
    for it in items {
        match *it {
            IndexItem::Basic(b) => kinds.push(ItemKind::Basic(b)),
            IndexItem::Int(x) | IndexItem::Mask(x) => {
                let dt = x.dtype();
                if dt == DType::Bool {
                    kinds.push(ItemKind::Mask(x.shape().to_vec()));
                } else if dt.is_integer() && matches!(it, IndexItem::Int(_)) {
                    kinds.push(ItemKind::Int(x.shape().to_vec()));
                } else if dt.is_integer() {
                    return Err(Error::Index(format!(
                        "IndexItem::Mask needs a bool array, not {dt}"
                    )));
                } else {
                    return Err(Error::Index(
                        "arrays used as indices must be of integer (or boolean) type".into(),
                    ));
                }
                a.check_same_device(x, "advanced indexing")?;
                arrays.push(x);
            }
        }
    }
    Ok((kinds, arrays))
}

/// A resolved index: the source view over the result shape, and the one
/// offset array the kernels read (a user index array, a mask's offsets or
/// the sum of several).
struct Resolved {
    placement: Placement,
    /// The source (or destination) over `placement.out_shape`.
    src: Array,
    /// The index array over `placement.out_shape`, its axis length (0:
    /// byte offsets) and byte stride.
    ind: Option<(Array, usize, isize)>,
}

/// Masks' byte offsets (one int64 array of `(count,)` per mask), with one
/// wait for all the counts.
fn mask_offsets(masks: &[(&Array, &[usize], &[isize])]) -> Result<Vec<Array>> {
    if masks.is_empty() {
        return Ok(Vec::new());
    }
    let mut flats = Vec::with_capacity(masks.len());
    let mut sums = Vec::with_capacity(masks.len());
    for &(m, shape, _) in masks {
        if shape.len() > MAX_MASK_NDIM {
            return Err(Error::Unsupported(format!(
                "advanced indexing: a boolean mask of {} dimensions (at most {MAX_MASK_NDIM})",
                shape.len()
            )));
        }
        let flat = m.reshape([-1])?;
        let csum = if flat.size() > 0 {
            Some(crate::math::cumsum(&flat, None, Some(DType::Int64))?)
        } else {
            None
        };
        flats.push(flat);
        sums.push(csum);
    }
    // The counts: the last element of each cumulative sum, in one copy.
    let tails: Vec<Array> = sums
        .iter()
        .flatten()
        .map(|c| c.slice(&[AxisIndex::stepped((c.size() - 1) as isize.., 1)]))
        .collect::<Result<_>>()?;
    let mut got = match tails.len() {
        0 => Vec::new(),
        1 => vec![tails[0].item::<i64>(&[0])?],
        _ => {
            let refs: Vec<&Array> = tails.iter().collect();
            crate::manipulation::concatenate(&refs, Some(0))?.to_vec::<i64>()?
        }
    }
    .into_iter();
    let dev = masks[0].0.device();
    let mut out = Vec::with_capacity(masks.len());
    for ((&(_, shape, strides), flat), csum) in masks.iter().zip(&flats).zip(&sums) {
        let count = match csum {
            Some(_) => got.next().unwrap_or(0).max(0) as usize,
            None => 0,
        };
        let offs = Array::empty_on(dev, &[count], DType::Int64, Order::C)?;
        if let (Some(csum), true) = (csum, count > 0) {
            let (mut s, mut t) = ([1i64; MAX_MASK_NDIM], [0i64; MAX_MASK_NDIM]);
            for (d, (&len, &st)) in shape.iter().zip(strides).enumerate() {
                s[d] = len as i64;
                t[d] = st as i64;
            }
            let nd = shape.len();
            mask_offsets_kernel(flat.into(), csum.into(), (&offs).into(), nd, s, t)
                .launch(flat.shape())?;
        }
        out.push(offs);
    }
    Ok(out)
}

/// Resolves `a[items]` for an index with at least one array.
fn resolve(a: &Array, kinds: &[ItemKind], arrays: &[&Array]) -> Result<Resolved> {
    let p = plan(a.shape(), a.strides(), a.layout().offset(), kinds)?;
    let mut masks = Vec::new();
    for (c, x) in p.comps.iter().zip(arrays) {
        if let Comp::Mask { shape, strides, .. } = c {
            masks.push((*x, shape.as_slice(), strides.as_slice()));
        }
    }
    let mut offsets = mask_offsets(&masks)?.into_iter();
    // Per component: the array, its axis length (0: byte offsets), stride.
    // `comps` and `arrays` both follow the index's order.
    let mut parts: Vec<(Array, usize, isize)> = Vec::with_capacity(p.comps.len());
    for (c, x) in p.comps.iter().zip(arrays) {
        match c {
            Comp::Int { len, stride, .. } => parts.push(((*x).clone(), *len, *stride)),
            Comp::Mask { .. } => {
                let offs = offsets
                    .next()
                    .ok_or_else(|| Error::Value("advanced indexing: a mask went missing".into()))?;
                parts.push((offs, 0, 1));
            }
        }
    }
    let shapes: Vec<Vec<usize>> = parts.iter().map(|(x, _, _)| x.shape().to_vec()).collect();
    let placement = place(&p, &shapes)?;
    let src = a.with_layout(
        // The index arrays may broadcast to more elements than fit.
        Layout::try_new(
            placement.out_shape.clone(),
            placement.src_strides.clone(),
            p.offset,
        )?,
        a.dtype(),
    );
    if src.size() == 0 {
        return Ok(Resolved {
            placement,
            src,
            ind: None,
        });
    }
    let (ind, len, stride) = if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        // Sum the parts' byte offsets over the index shape, in int32 when
        // every offset inside the view fits.
        let (lo, hi) = layout::byte_extent(&p.shape, &p.strides, a.itemsize())?;
        let odt = if lo >= i32::MIN as isize && hi <= i32::MAX as isize {
            DType::Int32
        } else {
            DType::Int64
        };
        let off = Array::empty_on(a.device(), &placement.index_shape, odt, Order::C)?;
        for (j, (x, len, stride)) in parts.iter().enumerate() {
            offsets_kernel(x.into(), (&off).into(), *len, *stride, j == 0).launch(off.shape())?;
        }
        (off, 0, 1)
    };
    let strides = placement.index_strides(ind.shape(), ind.strides())?;
    let view = ind.with_layout(
        Layout::try_new(placement.out_shape.clone(), strides, ind.layout().offset())?,
        ind.dtype(),
    );
    Ok(Resolved {
        placement,
        src,
        ind: Some((view, len, stride)),
    })
}

impl Array {
    /// NumPy's `a[index]` with basic and advanced items (see
    /// [`indexing::advanced`](crate::indexing::advanced) and [`ix!`](crate::ix)):
    /// a view when every item is basic, else a new C-contiguous array.
    /// Waits for the device once when the index holds masks (their counts
    /// size the result).
    ///
    /// ```no_run
    /// use gpu_array::{Array, creation::arange, ix};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(12)?.reshape((3, 4))?;
    /// let idx = Array::from_slice(&[2i64, 0], &[2])?;
    /// assert_eq!(x.get_index(&ix![&idx, 1])?.to_vec::<i64>()?, [9, 1]); // x[[2, 0], 1]
    /// assert_eq!(x.get_index(&ix![1, ..;2])?.to_vec::<i64>()?, [4, 6]); // a view: x[1, ::2]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Float index arrays ("arrays used as indices must be of integer (or
    /// boolean) type"), too many indices, a mask that does not match its
    /// axes, index arrays that do not broadcast together, an integer out
    /// of bounds, an index array into an empty axis, a mask of more than 8
    /// dimensions (`Unsupported`), devices that differ.
    pub fn get_index(&self, index: &[IndexItem<'_>]) -> Result<Array> {
        let (kinds, arrays) = classify(self, index)?;
        if arrays.is_empty() {
            return self.slice(&basic_only(&kinds));
        }
        // One mask over every axis (NumPy's commonest `a[mask]`): the
        // compaction kernels, which move about a third of the general
        // path's bytes (see `indexing::compact`).
        if let [ItemKind::Mask(m)] = kinds.as_slice()
            && !m.is_empty()
            && m.as_slice() == self.shape()
        {
            return super::compact::mask_select(self, arrays[0]);
        }
        let r = resolve(self, &kinds, &arrays)?;
        let out = Array::empty_on(
            self.device(),
            &r.placement.out_shape,
            self.dtype(),
            Order::C,
        )?;
        if let Some((ind, len, stride)) = &r.ind {
            gather(&r.src, ind, *len, *stride, &out)?;
        }
        Ok(out)
    }

    /// NumPy's `a[index] = value`, in place on this array's buffer (a view
    /// writes through to its base). `value` is an array broadcast to the
    /// indexing result (leading length-1 axes beyond it allowed) and cast
    /// to this dtype, or a Rust scalar converted as [`Array::fill`] does.
    /// When the index writes an element more than once, which value lands
    /// is undefined (CuPy's "Duplicate values in indices").
    ///
    /// ```no_run
    /// use gpu_array::{Array, creation::arange, ix};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(5)?;
    /// let mask = Array::from_slice(&[true, false, true, false, false], &[5])?;
    /// x.set_index(&ix![&mask], 0)?; // x[mask] = 0
    /// assert_eq!(x.to_vec::<i64>()?, [0, 1, 0, 3, 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::get_index`]; a value that does not broadcast ("shape
    /// mismatch: value array of shape (4,) could not be broadcast to
    /// indexing result of shape (2,3)"; for a mask over every axis and a
    /// 1-D value of another length, NumPy's "NumPy boolean array indexing
    /// assignment cannot assign 5 input values to the 3 output values
    /// where the mask is true"); an integer scalar out of the dtype's range.
    pub fn set_index<'v>(
        &self,
        index: &[IndexItem<'_>],
        value: impl Into<Input<'v>>,
    ) -> Result<()> {
        let value = value.into();
        let (kinds, arrays) = classify(self, index)?;
        if let Input::Array(v) = value {
            self.check_same_device(v, "advanced indexing")?;
        }
        if let Input::Scalar(ScalarValue::Int(n)) = value
            && self.dtype().is_integer()
        {
            crate::dtype::check_weak_int(n, self.dtype())?;
        }
        // Index arrays that alias the destination would be read while
        // written: copy them first.
        let owned: Vec<Array> = arrays
            .iter()
            .map(|x| {
                if x.shares_memory_with(self) {
                    x.copy()
                } else {
                    Ok((*x).clone())
                }
            })
            .collect::<Result<_>>()?;
        let arrays: Vec<&Array> = owned.iter().collect();
        let (dst, ind) = if arrays.is_empty() {
            (self.slice(&basic_only(&kinds))?, None)
        } else {
            let r = resolve(self, &kinds, &arrays)?;
            (r.src, r.ind)
        };
        let shape = dst.shape().to_vec();
        match value {
            Input::Scalar(v) => {
                let Some((ind, len, stride)) = ind else {
                    if arrays.is_empty() {
                        return dst.fill(v);
                    }
                    return Ok(());
                };
                scatter(value, &ind, len, stride, &dst)?;
            }
            Input::Array(v) => {
                // NumPy's own words for `a[mask] = values` with a mask over
                // every axis and too few or too many values.
                let full_mask = matches!(kinds.as_slice(), [ItemKind::Mask(m)]
                    if !m.is_empty() && m.len() == self.ndim());
                if full_mask && v.ndim() == 1 && v.size() != 1 && v.size() != shape[0] {
                    return Err(Error::Value(format!(
                        "NumPy boolean array indexing assignment cannot assign {} input values \
                         to the {} output values where the mask is true",
                        v.size(),
                        shape[0]
                    )));
                }
                let vshape = value_shape(v.shape(), &shape)?;
                // A value that aliases the destination is read before any write.
                let v = if v.shares_memory_with(self) || v.dtype() != self.dtype() {
                    v.astype(self.dtype())?
                } else {
                    v.clone()
                };
                let vshape: Vec<isize> = vshape.iter().map(|&d| d as isize).collect();
                let v = v.reshape(&vshape)?.broadcast_to(&shape)?;
                let Some((ind, len, stride)) = ind else {
                    if arrays.is_empty() {
                        return crate::array::copyto(&dst, &v, crate::dtype::Casting::Unsafe, None);
                    }
                    return Ok(());
                };
                scatter(Input::Array(&v), &ind, len, stride, &dst)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::c_strides;
    use AxisIndex::{Ellipsis, Index, NewAxis};

    const FULL: AxisIndex = AxisIndex::FULL;

    /// A host stand-in for an index item: basic, or an index array or a
    /// mask with its values.
    enum T {
        B(AxisIndex),
        I(Vec<usize>, Vec<i64>),
        M(Vec<usize>, Vec<u8>),
    }
    #[allow(non_snake_case)]
    fn B(a: AxisIndex) -> T {
        T::B(a)
    }
    #[allow(non_snake_case)]
    fn I(shape: &[usize], v: &[i64]) -> T {
        T::I(shape.to_vec(), v.to_vec())
    }
    #[allow(non_snake_case)]
    fn M(shape: &[usize], v: &[u8]) -> T {
        T::M(shape.to_vec(), v.to_vec())
    }
    fn st(start: Option<isize>, stop: Option<isize>, step: isize) -> AxisIndex {
        AxisIndex::Slice { start, stop, step }
    }

    fn kinds(items: &[T]) -> Vec<ItemKind> {
        items
            .iter()
            .map(|t| match t {
                T::B(b) => ItemKind::Basic(*b),
                T::I(s, _) => ItemKind::Int(s.clone()),
                T::M(s, _) => ItemKind::Mask(s.clone()),
            })
            .collect()
    }

    /// `np.arange(n).reshape(shape)[items]` the way the device computes it:
    /// the plan and placement, masks turned into byte offsets, and per
    /// output element the source view's offset plus each part's
    /// `wrap(index) * stride` read through its broadcast strides.
    fn simulate(shape: &[usize], items: &[T]) -> Result<(Vec<usize>, Vec<i64>)> {
        let isz = 8usize;
        let strides = c_strides(shape, isz)?;
        let p = plan(shape, &strides, 0, &kinds(items))?;
        let arrays: Vec<&T> = items.iter().filter(|t| !matches!(t, T::B(_))).collect();
        // (values, shape, len, stride) per part.
        let mut parts: Vec<(Vec<i64>, Vec<usize>, usize, isize)> = Vec::new();
        for (c, t) in p.comps.iter().zip(arrays) {
            match (c, t) {
                (Comp::Int { len, stride }, T::I(s, v)) => {
                    parts.push((v.clone(), s.clone(), *len, *stride))
                }
                (Comp::Mask { shape, strides }, T::M(_, v)) => {
                    let mut offs = Vec::new();
                    for (q, &m) in v.iter().enumerate() {
                        if m != 0 {
                            let (mut r, mut o) = (q, 0isize);
                            for d in (0..shape.len()).rev() {
                                o += (r % shape[d]) as isize * strides[d];
                                r /= shape[d];
                            }
                            offs.push(o as i64);
                        }
                    }
                    let n = offs.len();
                    parts.push((offs, vec![n], 0, 1));
                }
                _ => panic!("component and item disagree"),
            }
        }
        let shapes: Vec<Vec<usize>> = parts.iter().map(|p| p.1.clone()).collect();
        let pl = place(&p, &shapes)?;
        let views: Vec<Vec<isize>> = parts
            .iter()
            .map(|(_, s, _, _)| pl.index_strides(s, &c_strides(s, 1).unwrap()).unwrap())
            .collect();
        let n = layout::size(&pl.out_shape)?;
        let mut out = Vec::with_capacity(n);
        let mut o = vec![0usize; pl.out_shape.len()];
        for _ in 0..n {
            let dot =
                |st: &[isize]| -> isize { o.iter().zip(st).map(|(&i, &s)| i as isize * s).sum() };
            let mut off = p.offset + dot(&pl.src_strides);
            for ((v, _, len, stride), vs) in parts.iter().zip(&views) {
                let mut k = v[dot(vs) as usize];
                if *len > 0 {
                    k = k.rem_euclid(*len as i64);
                }
                off += k as isize * stride;
            }
            out.push(off as i64 / isz as i64);
            for ax in (0..o.len()).rev() {
                o[ax] += 1;
                if o[ax] < pl.out_shape[ax] {
                    break;
                }
                o[ax] = 0;
            }
        }
        Ok((pl.out_shape, out))
    }

    /// Shapes and values from NumPy 2.4 (`np.arange(n).reshape(shape)[idx]`,
    /// out-of-bounds indices wrapped beforehand as CuPy does).
    #[test]
    fn numpy_results() {
        #[allow(clippy::type_complexity)]
        let cases: Vec<(&str, &[usize], Vec<T>, &[usize], &[i64])> = vec![
            (
                "int_1d",
                &[5],
                vec![I(&[4], &[0, -1, 7, 2])],
                &[4],
                &[0, 4, 2, 2],
            ),
            (
                "int_axis1",
                &[3, 4],
                vec![B(FULL), I(&[3], &[3, -4, 1])],
                &[3, 3],
                &[3, 0, 1, 7, 4, 5, 11, 8, 9],
            ),
            (
                "int_2d_index",
                &[4, 3],
                vec![I(&[2, 2], &[0, 1, 3, -1])],
                &[2, 2, 3],
                &[0, 1, 2, 3, 4, 5, 9, 10, 11, 9, 10, 11],
            ),
            (
                "two_broadcast",
                &[3, 4, 5],
                vec![I(&[2, 1], &[0, 2]), I(&[3], &[1, 3, -1])],
                &[2, 3, 5],
                &[
                    5, 6, 7, 8, 9, 15, 16, 17, 18, 19, 15, 16, 17, 18, 19, 45, 46, 47, 48, 49, 55,
                    56, 57, 58, 59, 55, 56, 57, 58, 59,
                ],
            ),
            (
                "separated",
                &[3, 4, 5],
                vec![I(&[2], &[0, 2]), B(FULL), I(&[2], &[1, -1])],
                &[2, 4],
                &[1, 6, 11, 16, 44, 49, 54, 59],
            ),
            (
                "adjacent_mid",
                &[3, 4, 5],
                vec![B(FULL), I(&[2], &[0, 3]), I(&[2], &[1, 4])],
                &[3, 2],
                &[1, 19, 21, 39, 41, 59],
            ),
            (
                "int_scalar_sep",
                &[3, 4, 5],
                vec![B(Index(0)), B(FULL), I(&[2], &[1, 2])],
                &[2, 4],
                &[1, 6, 11, 16, 2, 7, 12, 17],
            ),
            (
                "int_scalar_adj",
                &[3, 4, 5],
                vec![B(FULL), B(Index(1)), I(&[2], &[1, 2])],
                &[3, 2],
                &[6, 7, 26, 27, 46, 47],
            ),
            (
                "ellipsis_zero_sep",
                &[5, 2, 3],
                vec![B(FULL), I(&[2], &[0, 1]), B(Ellipsis), I(&[2], &[0, 2])],
                &[2, 5],
                &[0, 6, 12, 18, 24, 5, 11, 17, 23, 29],
            ),
            (
                "newaxis_sep",
                &[2, 3, 4],
                vec![I(&[2], &[0, 1]), B(NewAxis), I(&[2], &[0, 2])],
                &[2, 1, 4],
                &[0, 1, 2, 3, 20, 21, 22, 23],
            ),
            (
                "slices_mix",
                &[6, 5, 4],
                vec![
                    B(st(Some(1), None, 2)),
                    I(&[2], &[4, 0]),
                    B(st(None, None, -1)),
                ],
                &[3, 2, 4],
                &[
                    39, 38, 37, 36, 23, 22, 21, 20, 79, 78, 77, 76, 63, 62, 61, 60, 119, 118, 117,
                    116, 103, 102, 101, 100,
                ],
            ),
            (
                "mask_full",
                &[2, 3],
                vec![M(&[2, 3], &[1, 0, 1, 0, 1, 1])],
                &[4],
                &[0, 2, 4, 5],
            ),
            (
                "mask_partial",
                &[3, 2, 2],
                vec![M(&[3], &[1, 0, 1])],
                &[2, 2, 2],
                &[0, 1, 2, 3, 8, 9, 10, 11],
            ),
            (
                "mask_mid",
                &[2, 3, 4],
                vec![B(FULL), M(&[3], &[0, 1, 1]), B(Index(1))],
                &[2, 2],
                &[5, 9, 17, 21],
            ),
            (
                "mask_and_int",
                &[2, 3, 4],
                vec![M(&[2, 3], &[1, 0, 1, 0, 0, 1]), I(&[3], &[0, 3, -1])],
                &[3],
                &[0, 11, 23],
            ),
            (
                "mask_ellipsis",
                &[2, 3, 4],
                vec![B(Ellipsis), M(&[4], &[1, 0, 0, 1])],
                &[2, 3, 2],
                &[0, 3, 4, 7, 8, 11, 12, 15, 16, 19, 20, 23],
            ),
            (
                "mask_empty_count",
                &[3, 4],
                vec![M(&[3], &[0, 0, 0]), B(st(Some(1), Some(3), 1))],
                &[0, 2],
                &[],
            ),
            (
                "mask_0d_true",
                &[2, 3],
                vec![M(&[], &[1]), I(&[2], &[1, 0])],
                &[2, 3],
                &[3, 4, 5, 0, 1, 2],
            ),
            (
                "mask_0d_false",
                &[2, 3],
                vec![M(&[], &[0])],
                &[0, 2, 3],
                &[],
            ),
            (
                "int_0d",
                &[3, 4],
                vec![I(&[], &[2]), B(st(None, None, 2))],
                &[2],
                &[8, 10],
            ),
            (
                "empty_index",
                &[3, 4],
                vec![B(FULL), I(&[0], &[])],
                &[3, 0],
                &[],
            ),
            (
                "wrap_neg",
                &[4, 3],
                vec![I(&[2], &[-9, 9]), B(Index(0))],
                &[2],
                &[9, 3],
            ),
            (
                "newaxis_first",
                &[3, 4],
                vec![B(NewAxis), I(&[2], &[1, 2]), B(FULL)],
                &[1, 2, 4],
                &[4, 5, 6, 7, 8, 9, 10, 11],
            ),
        ];
        for (name, shape, items, want_shape, want) in cases {
            let (got_shape, got) =
                simulate(shape, &items).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(got_shape, want_shape, "{name}: shape");
            assert_eq!(got, want, "{name}: values");
        }
    }

    #[test]
    fn negative_strides_and_offsets() {
        // a = np.arange(12).reshape(3, 4)[::-1, 1:]: offset 8 * 9, strides (-32, 8).
        let p = plan(
            &[3, 3],
            &[-32, 8],
            72,
            &[ItemKind::Int(vec![2]), ItemKind::Basic(FULL)],
        )
        .unwrap();
        assert_eq!(
            p.comps,
            vec![Comp::Int {
                len: 3,
                stride: -32
            }]
        );
        let pl = place(&p, &[vec![2]]).unwrap();
        assert_eq!(pl.out_shape, vec![2, 3]);
        assert_eq!(pl.src_strides, vec![0, 8]);
        assert_eq!(pl.index_strides(&[2], &[8]).unwrap(), vec![8, 0]);
    }

    #[test]
    fn numpy_errors() {
        let err = |shape: &[usize], items: Vec<T>| simulate(shape, &items).unwrap_err().to_string();
        assert_eq!(
            err(&[2, 3], vec![M(&[2, 3], &[0; 6]), B(Index(0))]),
            "too many indices for array: array is 2-dimensional, but 3 were indexed"
        );
        assert_eq!(
            err(&[2, 3], vec![M(&[4], &[0; 4])]),
            "boolean index did not match indexed array along axis 0; size of axis is 2 but size \
             of corresponding boolean axis is 4"
        );
        assert_eq!(
            err(&[2, 3, 4], vec![M(&[2, 4], &[0; 8])]),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size \
             of corresponding boolean axis is 4"
        );
        assert_eq!(
            err(&[2, 3], vec![B(FULL), M(&[4], &[0; 4])]),
            "boolean index did not match indexed array along axis 1; size of axis is 3 but size \
             of corresponding boolean axis is 4"
        );
        assert_eq!(
            err(&[2, 3], vec![I(&[2], &[0, 1]), I(&[3], &[0, 1, 2])]),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)"
        );
        assert_eq!(
            err(
                &[2, 3, 4],
                vec![I(&[2], &[0, 1]), I(&[2, 1], &[0, 1]), I(&[3], &[0, 1, 2])]
            ),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) \
             (2,1) (3,)"
        );
        assert_eq!(
            err(
                &[2, 3, 4],
                vec![M(&[2, 3], &[1, 0, 1, 0, 1, 1]), I(&[2], &[0, 1])]
            ),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (4,) \
             (4,) (2,)"
        );
        assert_eq!(
            err(&[0, 3], vec![I(&[1], &[0])]),
            "cannot do a non-empty take from an empty axes."
        );
        assert_eq!(
            err(&[3, 4], vec![I(&[1], &[0]), B(Index(4))]),
            "index 4 is out of bounds for axis 1 with size 4"
        );
        assert_eq!(
            err(&[3, 4], vec![B(Ellipsis), I(&[1], &[0]), B(Ellipsis)]),
            "an index can only have a single ellipsis ('...')"
        );
        // An empty index into an empty axis is fine: shape (0, 0).
        assert_eq!(
            simulate(&[0, 3], &[I(&[0], &[]), B(NewAxis)]).unwrap().0,
            vec![0, 1, 3]
        );
    }

    #[test]
    fn value_shapes() {
        assert_eq!(value_shape(&[1, 2, 3], &[2, 3]).unwrap(), vec![2, 3]);
        assert_eq!(value_shape(&[1, 1, 2, 3], &[2, 3]).unwrap(), vec![2, 3]);
        assert_eq!(value_shape(&[3], &[2, 3]).unwrap(), vec![3]);
        assert_eq!(value_shape(&[], &[2, 3]).unwrap(), Vec::<usize>::new());
        assert_eq!(
            value_shape(&[2, 1, 3], &[2, 3]).unwrap_err().to_string(),
            "shape mismatch: value array of shape (2,1,3) could not be broadcast to indexing \
             result of shape (2,3)"
        );
        assert_eq!(
            value_shape(&[4], &[2, 3]).unwrap_err().to_string(),
            "shape mismatch: value array of shape (4,) could not be broadcast to indexing result \
             of shape (2,3)"
        );
    }

    #[test]
    fn macro_items() {
        let n = 2usize;
        let idx = crate::ix![1, 2..;2, NewAxis, ..., n, ..;-1, -1];
        let basic: Vec<AxisIndex> = idx
            .iter()
            .map(|i| match i {
                IndexItem::Basic(b) => *b,
                _ => panic!("basic only"),
            })
            .collect();
        assert_eq!(basic, crate::s![1, 2..;2, NewAxis, ..., n, ..;-1, -1]);
        assert!(crate::ix![].is_empty());
    }
}
