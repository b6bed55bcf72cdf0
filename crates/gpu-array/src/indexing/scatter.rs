//! cupyx's `scatter_add`, `scatter_max` and `scatter_min`: `a[idx] op= v`
//! where every value lands, duplicates included (NumPy's `add.at`,
//! `maximum.at`, `minimum.at`), by one atomic per value.
//!
//! The atomics, per dtype: native `atomicAdd`/`atomicMax`/`atomicMin` where
//! CUDA has them (int32, uint32, uint64; int64 through the unsigned add and
//! the signed 64-bit max/min; float32/float64 add); a compare-and-swap
//! loop elsewhere: float32/float64 max/min (NaN propagates, as NumPy's
//! `maximum`), float16, bfloat16, bool, int8, int16, uint8, uint16 (a CAS
//! on the aligned 32-bit word that holds the element: an aligned word never
//! straddles a page, so it is mapped whenever the element is, and the CAS
//! fails and retries if any of its other bytes change meanwhile), and
//! complex64 max/min (a 64-bit CAS, NumPy's lexicographic order). Complex
//! adds are two real atomic adds. complex128 max/min would need a 128-bit
//! CAS and return [`Error::Unsupported`]. That is wider than CuPy v8, whose
//! reference lists float32, int32, uint32 and uint64 for `scatter_add`.

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::normalize_axis;
use crate::ufunc::Input;

/// The device helpers: one overload per dtype of `add`, `max`, `min`, and
/// the kernels' body, `scatter_one`.
const PREAMBLE: &str = include_str!("scatter.cu");

/// The reduction a scatter applies at each target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScatterOp {
    Add,
    Max,
    Min,
}

impl ScatterOp {
    const ALL: [ScatterOp; 3] = [ScatterOp::Add, ScatterOp::Max, ScatterOp::Min];

    fn name(self) -> &'static str {
        match self {
            ScatterOp::Add => "scatter_add",
            ScatterOp::Max => "scatter_max",
            ScatterOp::Min => "scatter_min",
        }
    }

    /// Whether the device helpers cover `dt` for this op.
    fn supports(self, dt: DType) -> bool {
        !(dt == DType::Complex128 && self != ScatterOp::Add)
    }
}

/// The scatter over the raw values `v` broadcast to `a.shape[:axis] +
/// idx.shape + a.shape[axis+1:]` (`[outer, isz, rdim]` in C order): the
/// raw index `ind` wraps into `0..cdim`, the target is the raw `a`'s
/// C-order element.
pub(super) fn scatter_kernel<'a>(
    op: ScatterOp,
    ind: Bind<'a>,
    v: Bind<'a>,
    a: Bind<'a>,
    cdim: usize,
    rdim: usize,
    isz: usize,
) -> Elementwise<'a> {
    let body = match op {
        ScatterOp::Add => {
            "cuprum_scatter::scatter_one<cuprum_scatter::Add>((long long)i, ind, v, a, cdim, \
                           rdim, isz);"
        }
        ScatterOp::Max => {
            "cuprum_scatter::scatter_one<cuprum_scatter::Max>((long long)i, ind, v, a, cdim, \
                           rdim, isz);"
        }
        ScatterOp::Min => {
            "cuprum_scatter::scatter_one<cuprum_scatter::Min>((long long)i, ind, v, a, cdim, \
                           rdim, isz);"
        }
    };
    Elementwise::new(op.name())
        .raw("ind", ind)
        .raw("v", v)
        .scalar("cdim", DType::Int64, cdim)
        .scalar("rdim", DType::Int64, rdim)
        .scalar("isz", DType::Int64, isz)
        .raw_output("a", a)
        .op(body)
        .preamble(PREAMBLE)
}

fn scatter(
    op: ScatterOp,
    a: &Array,
    indices: &Array,
    values: Input<'_>,
    axis: Option<isize>,
) -> Result<()> {
    let name = op.name();
    if !indices.dtype().is_integer() {
        return Err(Error::Index(format!(
            "{name}: indices must be integers, not {}",
            indices.dtype()
        )));
    }
    if !op.supports(a.dtype()) {
        return Err(Error::Unsupported(format!(
            "{name}: {} (a 128-bit compare-and-swap); cast to another dtype",
            a.dtype()
        )));
    }
    a.check_same_device(indices, name)?;
    if let Input::Array(v) = values {
        a.check_same_device(v, name)?;
    }
    // `a[(:,)*axis + (indices,)]`: its shape, and the sizes around the axis.
    let (shape, cdim, ax) = match axis {
        None => (indices.shape().to_vec(), a.size(), None),
        Some(ax) => {
            if a.ndim() == 0 {
                return Err(Error::AxisOutOfBounds {
                    arg: None,
                    axis: ax,
                    ndim: 0,
                });
            }
            let ax = normalize_axis(ax, a.ndim())?;
            let mut shape = a.shape()[..ax].to_vec();
            shape.extend_from_slice(indices.shape());
            shape.extend_from_slice(&a.shape()[ax + 1..]);
            (shape, a.shape()[ax], Some(ax))
        }
    };
    let rdim: usize = ax.map_or(1, |ax| a.shape()[ax + 1..].iter().product());
    // The index shape times a's other axes may exceed what fits.
    let n = crate::layout::size(&shape)?;
    if let Input::Array(v) = values {
        // NumPy's check that the values broadcast to `a[idx]`.
        crate::layout::broadcast_strides(v.shape(), v.strides(), &shape).map_err(|_| {
            Error::Value(format!(
                "{name}: shape mismatch: value array of shape {} could not be broadcast to \
                 indexing result of shape {}",
                crate::layout::fmt_shape(v.shape()),
                crate::layout::fmt_shape(&shape)
            ))
        })?;
    }
    if n == 0 {
        return Ok(());
    }
    if cdim == 0 {
        return Err(Error::Index(format!(
            "{name}: index out of bounds for axis {} with size 0",
            ax.unwrap_or(0)
        )));
    }
    // The values as a raw operand broadcast to the indexing result, so that
    // the kernel's `i` is their C-order position whatever their strides (an
    // elementwise operand's axes may be permuted for coalescing).
    let v = match values {
        Input::Array(v) if v.dtype() == a.dtype() => v.clone(),
        Input::Array(v) => v.astype(a.dtype())?,
        Input::Scalar(s) => {
            let one = Array::empty_on(a.device(), &[], a.dtype(), crate::layout::Order::C)?;
            one.fill(s)?;
            one
        }
    };
    let v = v.broadcast_to(&shape)?;
    let isz = indices.size();
    scatter_kernel(op, indices.into(), (&v).into(), a.into(), cdim, rdim, isz).launch(&[n])?;
    Ok(())
}

/// Adds `values` to `a` at `indices` along `axis`, every value counting
/// where indices repeat (cupyx's `scatter_add`, NumPy's `np.add.at`):
/// `a[(:,)*axis + (indices,)] += values` with duplicates accumulating.
/// `axis = Some(0)` is CuPy's `scatter_add(a, indices, values)` with an
/// integer index array; `None` indexes the flattened `a` (C order, any
/// layout). `values` (an array or a Rust scalar) is cast to `a`'s dtype and
/// broadcast to `a.shape[:axis] + indices.shape + a.shape[axis+1:]`.
/// Indices outside the axis wrap around, as CuPy's (NumPy's `add.at`
/// raises instead). Bool adds are logical ors, as NumPy's. Slices and
/// masks as the index: see the advanced-indexing routines.
///
/// The order of the additions is undefined, so float sums of duplicates
/// may round differently from run to run.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros(3, gpu_array::DType::Float64)?;
/// scatter_add(&a, &array([0, 0, 2])?, 1.0, None)?; // a: [2, 0, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-integer indices, an axis out of bounds, values that do not
/// broadcast, indices into an empty axis, different devices.
pub fn scatter_add<'a>(
    a: &Array,
    indices: &Array,
    values: impl Into<Input<'a>>,
    axis: Option<isize>,
) -> Result<()> {
    scatter(ScatterOp::Add, a, indices, values.into(), axis)
}

/// `a[(:,)*axis + (indices,)] = maximum(a[...], values)` with every value
/// counting where indices repeat (cupyx's `scatter_max`, NumPy's
/// `np.maximum.at`): NaN propagates as in NumPy's `maximum`; complex64
/// compares lexicographically. Arguments as [`scatter_add`].
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = zeros(3, gpu_array::DType::Float64)?;
/// scatter_max(&a, &array([1, 1])?, &array([4.0, 2.0])?, None)?; // a: [0, 4, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`scatter_add`]; [`Error::Unsupported`] for complex128.
pub fn scatter_max<'a>(
    a: &Array,
    indices: &Array,
    values: impl Into<Input<'a>>,
    axis: Option<isize>,
) -> Result<()> {
    scatter(ScatterOp::Max, a, indices, values.into(), axis)
}

/// `a[(:,)*axis + (indices,)] = minimum(a[...], values)` with every value
/// counting (cupyx's `scatter_min`, NumPy's `np.minimum.at`). Arguments as
/// [`scatter_add`].
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = full(3, 9.0, None)?;
/// scatter_min(&a, &array([1, 1])?, &array([4.0, 2.0])?, None)?; // a: [9, 2, 9]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`scatter_max`].
pub fn scatter_min<'a>(
    a: &Array,
    indices: &Array,
    values: impl Into<Input<'a>>,
    axis: Option<isize>,
) -> Result<()> {
    scatter(ScatterOp::Min, a, indices, values.into(), axis)
}

/// The scatter kernels' specs for each data and index dtype the ops
/// support, as calls build them (values as an array).
pub(super) fn kernel_specs(
    data: &[DType],
    index: &[DType],
    layout: crate::elementwise::LayoutClass,
    width: crate::elementwise::IndexWidth,
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let raw2 = |d| Bind::Dtype(d, 2);
    let mut out = Vec::new();
    for op in ScatterOp::ALL {
        for &d in data.iter().filter(|&&d| op.supports(d)) {
            for &i in index {
                let k = scatter_kernel(op, raw2(i), raw2(d), raw2(d), 0, 0, 0);
                out.extend(k.spec(layout, width));
            }
        }
    }
    out
}
