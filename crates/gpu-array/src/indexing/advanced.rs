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
//! | `a[1:, ::2]` (basic only: a view)     | `a.get_index(&ix![1.., ..;2])?` (or `a.slice(&s![..])`) |
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
//! Masks stay on the device: a cumulative sum of each mask gives every
//! true element its output slot, and the host waits once per call for the
//! true counts (all masks' counts come back in one copy), because NumPy's
//! result shape depends on them. Integer arrays need no wait at all.
//!
//! The kernels: a gather (`out[i] = *(src + offset(i))`) and scatters,
//! ElementwiseKernels with raw operands, where the source is a strided
//! view over the output shape (stride 0 along the indexed dimensions) and
//! the index array a broadcast view over it, so each output element reads
//! its index and adds `wrap(index) * stride`. With several index arrays
//! their byte offsets are first summed into one array over the broadcast
//! index shape, in int32 when the indexed view's byte extent allows and
//! int64 otherwise.

use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};
use std::sync::OnceLock;

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{ElementwiseKernel, KernelInput, Typed};
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

impl From<RangeFull> for IndexItem<'_> {
    fn from(r: RangeFull) -> Self {
        IndexItem::Basic(r.into())
    }
}

macro_rules! basic_items {
    ($($t:ty),*) => {$(
        impl From<$t> for IndexItem<'_> {
            fn from(i: $t) -> Self {
                IndexItem::Basic(i.into())
            }
        }
        impl From<Range<$t>> for IndexItem<'_> {
            fn from(r: Range<$t>) -> Self {
                IndexItem::Basic(r.into())
            }
        }
        impl From<RangeFrom<$t>> for IndexItem<'_> {
            fn from(r: RangeFrom<$t>) -> Self {
                IndexItem::Basic(r.into())
            }
        }
        impl From<RangeTo<$t>> for IndexItem<'_> {
            fn from(r: RangeTo<$t>) -> Self {
                IndexItem::Basic(r.into())
            }
        }
        impl From<RangeInclusive<$t>> for IndexItem<'_> {
            fn from(r: RangeInclusive<$t>) -> Self {
                IndexItem::Basic(r.into())
            }
        }
        impl From<RangeToInclusive<$t>> for IndexItem<'_> {
            fn from(r: RangeToInclusive<$t>) -> Self {
                IndexItem::Basic(r.into())
            }
        }
    )*};
}

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
    (@acc [$($out:expr),*]) => {{
        let index: ::std::vec::Vec<$crate::indexing::IndexItem<'_>> = ::std::vec![$($out),*];
        index
    }};
    (@acc [$($out:expr),*] NewAxis $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* $crate::indexing::IndexItem::Basic(
            $crate::layout::AxisIndex::NewAxis)] $($($rest)*)?)
    };
    (@acc [$($out:expr),*] ... $(, $($rest:tt)*)?) => {
        $crate::ix!(@acc [$($out,)* $crate::indexing::IndexItem::Basic(
            $crate::layout::AxisIndex::Ellipsis)] $($($rest)*)?)
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

/// One array item, resolved against the basic view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Comp {
    /// An integer array over one view axis of length `len` and byte `stride`.
    Int {
        len: usize,
        stride: isize,
    },
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
/// listed once per dimension, as its `nonzero()` arrays).
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
/// source seen over the output shape (stride 0 along the index
/// dimensions), `ind` an index array seen the same way. `len` 0 marks
/// `ind` as byte offsets already (masks, summed offsets): no wrap.
fn gather_kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "raw T src, raw I ind, int64 len, int64 stride",
            "T out",
            "long long k = (long long)ind[i]; \
             if (len > 0 && (k < 0 || k >= len)) { k %= len; if (k < 0) k += len; } \
             out = *(const T*)((const char*)&src[i] + k * stride);",
            "cuprum_adv_gather",
        )
        .expect("the gather kernel's parameters parse")
    })
}

/// The scatter of an array of values (broadcast over the indexing result).
fn scatter_kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "raw T val, raw I ind, int64 len, int64 stride",
            "raw T dst",
            "long long k = (long long)ind[i]; \
             if (len > 0 && (k < 0 || k >= len)) { k %= len; if (k < 0) k += len; } \
             *(T*)((char*)&dst[i] + k * stride) = val[i];",
            "cuprum_adv_scatter",
        )
        .expect("the scatter kernel's parameters parse")
    })
}

/// The scatter of one scalar (typed in the destination's dtype).
fn scatter_scalar_kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "T val, raw I ind, int64 len, int64 stride",
            "raw T dst",
            "long long k = (long long)ind[i]; \
             if (len > 0 && (k < 0 || k >= len)) { k %= len; if (k < 0) k += len; } \
             *(T*)((char*)&dst[i] + k * stride) = val;",
            "cuprum_adv_scatter_scalar",
        )
        .expect("the scatter kernel's parameters parse")
    })
}

/// Adds one index array's byte offsets (`wrap(ind) * stride`, or `ind`
/// itself when `len` is 0) into `off`, over the broadcast index shape;
/// `first` starts the sum.
fn offsets_kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "I ind, int64 len, int64 stride, int32 first",
            "O off",
            "long long k = (long long)ind; \
             if (len > 0 && (k < 0 || k >= len)) { k %= len; if (k < 0) k += len; } \
             off = (O)((first ? 0LL : (long long)off) + k * stride);",
            "cuprum_adv_offsets",
        )
        .expect("the offsets kernel's parameters parse")
    })
}

/// The byte offset of each true element of a C-order flattened mask over
/// axes of lengths `s0..s7` and byte strides `t0..t7`, written at its
/// slot `c - 1` (`c` the inclusive cumulative sum).
fn mask_offsets_kernel() -> &'static ElementwiseKernel {
    static K: OnceLock<ElementwiseKernel> = OnceLock::new();
    K.get_or_init(|| {
        ElementwiseKernel::new(
            "bool m, int64 c, int64 nd, int64 s0, int64 s1, int64 s2, int64 s3, int64 s4, \
             int64 s5, int64 s6, int64 s7, int64 t0, int64 t1, int64 t2, int64 t3, int64 t4, \
             int64 t5, int64 t6, int64 t7",
            "raw int64 out",
            "if (m) { \
               const long long s[8] = {s0, s1, s2, s3, s4, s5, s6, s7}; \
               const long long t[8] = {t0, t1, t2, t3, t4, t5, t6, t7}; \
               long long r = (long long)i, o = 0; \
               for (int d = (int)nd - 1; d >= 0; --d) { o += (r % s[d]) * t[d]; r /= s[d]; } \
               out[c - 1] = o; \
             }",
            "cuprum_adv_mask_offsets",
        )
        .expect("the mask kernel's parameters parse")
    })
}

/// The most dimensions one mask may have.
const MAX_MASK_NDIM: usize = 8;

/// The specs of this module's kernels for each data dtype, index dtype,
/// layout and index width, as calls build them (compile tests and
/// ahead-of-time compilation).
pub fn kernel_specs(
    data: &[DType],
    index: &[DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    use crate::dtype::{Operand, ScalarKind};
    use crate::elementwise::ArgInfo;
    let int = ArgInfo::Scalar(Operand::Scalar(ScalarKind::Int));
    let raw = |dtype, ndim| ArgInfo::Array { dtype, ndim };
    let mut out = Vec::new();
    for &l in layouts {
        for &w in widths {
            for &d in data {
                for &i in index {
                    out.extend(gather_kernel().spec(
                        &[raw(d, 2), raw(i, 2), int, int],
                        &[ArgInfo::array(d)],
                        l,
                        w,
                    ));
                    out.extend(scatter_kernel().spec(
                        &[raw(d, 2), raw(i, 3), int, int],
                        &[raw(d, 2)],
                        l,
                        w,
                    ));
                    out.extend(scatter_scalar_kernel().spec(
                        &[ArgInfo::Scalar(Operand::Array(d)), raw(i, 1), int, int],
                        &[raw(d, 1)],
                        l,
                        w,
                    ));
                }
            }
            for &i in index {
                for o in [DType::Int32, DType::Int64] {
                    out.extend(offsets_kernel().spec(
                        &[ArgInfo::array(i), int, int, int],
                        &[ArgInfo::array(o)],
                        l,
                        w,
                    ));
                }
            }
            let mut args = vec![ArgInfo::array(DType::Bool), ArgInfo::array(DType::Int64)];
            args.extend(std::iter::repeat_n(int, 17));
            out.extend(mask_offsets_kernel().spec(&args, &[raw(DType::Int64, 1)], l, w));
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Device side.

fn int(v: i128) -> KernelInput<'static> {
    KernelInput::Plain(Input::Scalar(ScalarValue::Int(v)))
}

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
        let flat = m.reshape(&[-1])?;
        let csum = if flat.size() > 0 {
            Some(crate::scan::cumsum(&flat, None, Some(DType::Int64))?)
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
            let mut args = vec![
                KernelInput::Plain(Input::Array(flat)),
                KernelInput::Plain(Input::Array(csum)),
                int(shape.len() as i128),
            ];
            let (mut s, mut t) = ([1i128; MAX_MASK_NDIM], [0i128; MAX_MASK_NDIM]);
            for (d, (&len, &st)) in shape.iter().zip(strides).enumerate() {
                s[d] = len as i128;
                t[d] = st as i128;
            }
            args.extend(s.iter().map(|&v| int(v)));
            args.extend(t.iter().map(|&v| int(v)));
            mask_offsets_kernel().call(&args, &[&offs], None)?;
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
        Layout::new(
            placement.out_shape.clone(),
            placement.src_strides.clone(),
            p.offset,
        ),
        a.dtype(),
    );
    let index_size = layout::size(&placement.index_shape);
    // An index into an empty axis has nothing to wrap to.
    for c in &p.comps {
        if let Comp::Int { len: 0, .. } = c
            && index_size > 0
        {
            return Err(Error::Index(
                "cannot do a non-empty take from an empty axes.".into(),
            ));
        }
    }
    if layout::size(&placement.out_shape) == 0 {
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
        let (lo, hi) = layout::byte_extent(&p.shape, &p.strides, a.itemsize());
        let odt = if lo >= i32::MIN as isize && hi <= i32::MAX as isize {
            DType::Int32
        } else {
            DType::Int64
        };
        let off = Array::empty_on(a.device(), &placement.index_shape, odt, Order::C)?;
        for (j, (x, len, stride)) in parts.iter().enumerate() {
            offsets_kernel().call(
                &[
                    KernelInput::Plain(Input::Array(x)),
                    int(*len as i128),
                    int(*stride as i128),
                    int(i128::from(j == 0)),
                ],
                &[&off],
                None,
            )?;
        }
        (off, 0, 1)
    };
    let strides = placement.index_strides(ind.shape(), ind.strides())?;
    let view = ind.with_layout(
        Layout::new(
            placement.out_shape.clone(),
            strides,
            ind.layout().offset(),
        ),
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
    /// # Errors
    /// Float index arrays ("arrays used as indices must be of integer (or
    /// boolean) type"), too many indices, a mask that does not match its
    /// axes, index arrays that do not broadcast together, an integer out
    /// of bounds, an index array into an empty axis, a mask of more than 8
    /// dimensions (`Unsupported`), devices that differ.
    pub fn get_index(&self, index: &[IndexItem<'_>]) -> Result<Array> {
        let (kinds, arrays) = classify(self, index)?;
        if arrays.is_empty() {
            let basic: Vec<AxisIndex> = kinds
                .iter()
                .map(|k| match k {
                    ItemKind::Basic(b) => *b,
                    _ => unreachable!("no arrays"),
                })
                .collect();
            return self.slice(&basic);
        }
        let r = resolve(self, &kinds, &arrays)?;
        let out = Array::empty_on(
            self.device(),
            &r.placement.out_shape,
            self.dtype(),
            Order::C,
        )?;
        if let Some((ind, len, stride)) = &r.ind {
            gather_kernel().call(
                &[
                    KernelInput::Plain(Input::Array(&r.src)),
                    KernelInput::Plain(Input::Array(ind)),
                    int(*len as i128),
                    int(*stride as i128),
                ],
                &[&out],
                None,
            )?;
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
    /// # Errors
    /// As [`Array::get_index`]; a value that does not broadcast ("shape
    /// mismatch: value array of shape (4,) could not be broadcast to
    /// indexing result of shape (2,3)"); an integer scalar out of the
    /// dtype's range.
    pub fn set_index<'v>(&self, index: &[IndexItem<'_>], value: impl Into<Input<'v>>) -> Result<()> {
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
            let basic: Vec<AxisIndex> = kinds
                .iter()
                .map(|k| match k {
                    ItemKind::Basic(b) => *b,
                    _ => unreachable!("no arrays"),
                })
                .collect();
            (self.slice(&basic)?, None)
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
                scatter_scalar_kernel().call(
                    &[
                        KernelInput::Typed(Typed(self.dtype(), v)),
                        KernelInput::Plain(Input::Array(&ind)),
                        int(len as i128),
                        int(stride as i128),
                    ],
                    &[&dst],
                    Some(layout::size(&shape)),
                )?;
            }
            Input::Array(v) => {
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
                        return crate::array::copyto(
                            &dst,
                            &v,
                            crate::dtype::Casting::Unsafe,
                            None,
                        );
                    }
                    return Ok(());
                };
                scatter_kernel().call(
                    &[
                        KernelInput::Plain(Input::Array(&v)),
                        KernelInput::Plain(Input::Array(&ind)),
                        int(len as i128),
                        int(stride as i128),
                    ],
                    &[&dst],
                    Some(layout::size(&shape)),
                )?;
            }
        }
        Ok(())
    }
}
