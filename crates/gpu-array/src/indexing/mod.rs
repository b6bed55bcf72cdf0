//! Indexing routines (NumPy's "Indexing routines"): gathers, selections by
//! condition, the diagonal view, and NumPy's advanced indexing ([`advanced`]).
//!
//! | NumPy / CuPy                           | Cuprum                                             |
//! |----------------------------------------|----------------------------------------------------|
//! | `cp.take(a, idx)`, `take(a, idx, 1)`   | [`take`]`(&a, &idx, None, TakeMode::Wrap)?`        |
//! | `np.take(a, idx, mode='clip')`         | [`take`]`(.., TakeMode::Clip)`                     |
//! | `cp.take_along_axis(a, idx, 1)`        | [`take_along_axis`]`(&a, &idx, Some(1))?`          |
//! | `cp.where(c, x, y)`, `cp.where(c)`     | [`where_`]`(&c, &x, 0.0)?`, [`nonzero`]`(&c)?`     |
//! | `cp.argwhere`, `flatnonzero`           | [`argwhere`], [`flatnonzero`]                      |
//! | `cp.compress`, `cp.extract`            | [`compress`], [`extract`]                          |
//! | `cp.diagonal(a, 1, 0, 1)`              | [`diagonal`]`(&a, 1, 0, 1)?` (a view)              |
//! | `cp.put(a, idx, v)`                    | [`put`]`(&a, &idx, &v, TakeMode::Wrap)?`           |
//! | `a[idx, 1:]`, `a[mask]` (advanced)     | `a.get_index(&ix![&idx, 1..])?`, `ix![&mask]` ([`advanced`]) |
//! | `a[mask]` (`mask.shape == a.shape`)   | `a.get_index(&ix![&mask])?`: one count, one wait, one compaction ([`compact`]) |
//! | `a[idx] = v`, `a[mask] = 0`            | `a.set_index(&ix![&idx], &v)?` ([`advanced`])      |
//! | `cp.choose(a, [c0, c1], mode='clip')`  | [`choose`]`(&a, &[&c0, &c1], ClipMode::Clip)?`     |
//! | `cp.select([m0, m1], [x0, x1], 0)`     | [`select`]`(&[&m0, &m1], &[&x0, &x1], 0)?`         |
//! | `cp.place(a, mask, v)`                 | [`place`]`(&a, &mask, &v)?` (in place)             |
//! | `cp.putmask(a, mask, v)`               | [`putmask`]`(&a, &mask, &v)?` (in place)           |
//! | `cp.fill_diagonal(a, 5, wrap=True)`    | [`fill_diagonal`]`(&a, 5, true)?` (in place)       |
//! | `cp.diag_indices(n, 2)`, `.._from(a)`  | [`diag_indices`]`(n, 2)?`, [`diag_indices_from`]   |
//! | `cp.ix_(i, j)`                         | [`ix_`]`(&[&i, &j])?`                              |
//! | `cp.ravel_multi_index((i, j), (3, 4))` | [`ravel_multi_index`]`(&[&i, &j], &[3, 4], &[ClipMode::Raise], Order::C)?` |
//! | `cp.unravel_index(k, (3, 4))`          | [`unravel_index`]`(&k, &[3, 4], Order::C)?`; [`unravel_index_scalar`] on the host |
//! | `cp.r_[a, 0, 1:4]`, `cp.c_[a, b]`      | [`r_`]`(&[(&a).into(), 0.into(), (1..4).into()])?`, [`c_`] (see [`RItem`]) |
//! | `a.flat` (read), `list(a.flat)`        | [`Array::flat`]`::<f32>()?` (host values, C order) |
//! | `cupyx.scatter_add(a, idx, v)`         | [`scatter_add`]`(&a, &idx, &v, Some(0))?`          |
//! | `cupyx.scatter_max`, `scatter_min`     | [`scatter_max`], [`scatter_min`]                   |
//!
//! The scatters take their index as one integer array along an axis
//! (`Some(0)`: CuPy's `scatter_add(a, idx, v)`; `None`: the flattened
//! array); slices and masks as indices belong to advanced indexing.
//!
//! Out-of-bounds indices wrap around, as CuPy documents ("Out-of-bounds
//! indices" under "Difference between CuPy and NumPy"); NumPy's default
//! `mode='raise'` would need a device-to-host check per call.

pub mod advanced;
mod along;
mod choose;
pub mod compact;
mod concatenator;
mod diag;
mod flat;
mod mask;
mod multi_index;
mod put;
mod scatter;
mod select;

pub use advanced::IndexItem;
pub use along::{diagonal, take_along_axis};
pub use choose::{ClipMode, choose, select};
pub use concatenator::{AxisConcatenator, RItem, c_, r_};
pub use diag::{diag_indices, diag_indices_from, fill_diagonal};
pub use flat::Flat;
pub use mask::{place, putmask};
pub use multi_index::{
    ix_, ravel_multi_index, ravel_multi_index_scalar, ravel_strides, unravel_index,
    unravel_index_scalar,
};
pub use put::put;
pub use scatter::{scatter_add, scatter_max, scatter_min};
pub use select::{argwhere, compress, extract, flatnonzero, nonzero, where_};

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{Order, normalize_axis};

/// What an index outside `-n..n` means (NumPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TakeMode {
    /// Modulo the axis length (CuPy's behaviour for every index).
    #[default]
    Wrap,
    /// Clamped to `0..n` (negative indices become 0, as NumPy's `clip`).
    Clip,
}

crate::from_numpy_str! {
    TakeMode, Error,
    else: |s| if s == "raise" {
        Error::Unsupported("take: mode 'raise' is not supported (CuPy's take wraps or clips)".into())
    } else {
        choose::clip_mode_error(s)
    },
    { "wrap" => TakeMode::Wrap, "clip" => TakeMode::Clip }
}

/// The indexing routines' device functions (`indexing.cuh`), the
/// preamble of every indexing kernel.
const PREAMBLE: &str = include_str!("indexing.cuh");

/// `take` along an axis: `out` (`[outer, isz, rdim]` in C order) from the
/// raw `a` seen as `[outer, cdim, rdim]` at the raw indices `ind` (`isz`
/// of them), clipped or wrapped into `0..cdim`.
fn take_axis_kernel<'a>(
    a: Bind<'a>,
    ind: Bind<'a>,
    out: Bind<'a>,
    cdim: usize,
    rdim: usize,
    isz: usize,
    clip: bool,
) -> Elementwise<'a> {
    Elementwise::new("take_axis")
        .raw("a", a)
        .raw("ind", ind)
        .scalar("cdim", DType::Int64, cdim)
        .scalar("rdim", DType::Int64, rdim)
        .scalar("isz", DType::Int64, isz)
        .scalar("clip", DType::Int32, i32::from(clip))
        .output("out", out)
        .op("out = a[cuprum_np::axis_position(ind, (long long)i, cdim, rdim, isz, clip)];")
        .preamble(PREAMBLE)
}

/// `take` from the flattened raw `a` (`cdim` elements): one index of
/// `ind` per element of `out`, clipped or wrapped.
fn take_flat_kernel<'a>(
    a: Bind<'a>,
    ind: Bind<'a>,
    out: Bind<'a>,
    cdim: usize,
    clip: bool,
) -> Elementwise<'a> {
    Elementwise::new("take_flat")
        .raw("a", a)
        .input("ind", ind)
        .scalar("cdim", DType::Int64, cdim)
        .scalar("clip", DType::Int32, i32::from(clip))
        .output("out", out)
        .op("out = a[cuprum_np::take_index((long long)ind, cdim, clip)];")
        .preamble(PREAMBLE)
}

/// Elements of `a` at `indices` along `axis` (NumPy's and CuPy's `take`;
/// `None` takes from the flattened array). The result's shape is
/// `a.shape[:axis] + indices.shape + a.shape[axis+1:]`.
///
/// ```no_run
/// use gpu_array::{creation::array, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = take(&array([10, 20, 30])?, &array([2, 0])?, None, TakeMode::Wrap)?; // [30, 10]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-integer indices, an axis out of bounds, taking from an empty axis
/// ("cannot do a non-empty take from an empty axes."), different devices.
pub fn take(a: &Array, indices: &Array, axis: Option<isize>, mode: TakeMode) -> Result<Array> {
    if !indices.dtype().is_integer() {
        return Err(Error::Index(format!(
            "take: indices must be integers, not {}",
            indices.dtype()
        )));
    }
    a.check_same_device(indices, "take")?;
    let clip = mode == TakeMode::Clip;
    let (shape, cdim, outer, rdim) = match axis {
        None => (indices.shape().to_vec(), a.size(), 1, 1),
        Some(ax) => {
            let ax = normalize_axis(ax, a.ndim().max(1))?;
            if a.ndim() == 0 {
                return take(a, indices, None, mode);
            }
            let mut shape = a.shape()[..ax].to_vec();
            shape.extend_from_slice(indices.shape());
            shape.extend_from_slice(&a.shape()[ax + 1..]);
            let outer: usize = a.shape()[..ax].iter().product();
            let rdim: usize = a.shape()[ax + 1..].iter().product();
            (shape, a.shape()[ax], outer, rdim)
        }
    };
    let out = Array::empty_on(a.device(), &shape, a.dtype(), Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    if cdim == 0 {
        return Err(Error::Index(
            "cannot do a non-empty take from an empty axes.".into(),
        ));
    }
    if outer == 1 && rdim == 1 {
        // The output's other axes all have length 1 here: the indices,
        // seen in the output's shape, give one index per element.
        let shaped: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        let indices = &indices.reshape(&shaped)?;
        take_flat_kernel(a.into(), indices.into(), (&out).into(), cdim, clip).launch(&shape)?;
    } else {
        let isz = indices.size();
        take_axis_kernel(
            a.into(),
            indices.into(),
            (&out).into(),
            cdim,
            rdim,
            isz,
            clip,
        )
        .launch(&shape)?;
    }
    Ok(out)
}

/// The specs of this module's kernels (`take`, `take_along_axis`, `put`,
/// `where`, `argwhere`) for each data dtype, index dtype, layout and index
/// width, as calls would build them (compile tests and ahead-of-time compilation).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::indexing::kernel_specs;
/// let specs = kernel_specs(&[DType::Float32], &[DType::Int64], &[LayoutClass::Contiguous { vectorized: false }], &[IndexWidth::I32]);
/// assert!(!specs.is_empty() && specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn kernel_specs(
    data: &[crate::DType],
    index: &[crate::DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let raw2 = |d| Bind::Dtype(d, 2);
    let dt = |d: DType| -> Bind<'static> { d.into() };
    let mut out = Vec::new();
    for &d in data {
        for &i in index {
            let ks = [
                take_flat_kernel(raw2(d), dt(i), dt(d), 0, false),
                take_axis_kernel(raw2(d), raw2(i), dt(d), 0, 0, 0, false),
                along::along_kernel(raw2(d), dt(i), dt(d), 0, 0, 0),
            ];
            for &l in layouts {
                for &w in widths {
                    out.extend(ks.iter().flat_map(|k| k.spec(l, w)));
                }
            }
        }
    }
    let wheres: Vec<_> = data
        .iter()
        .map(|&d| {
            let y = select::WhereArg::Scalar(ScalarValue::Int(0));
            select::where_kernel(dt(DType::Bool), select::WhereArg::Array(dt(d)), y, dt(d))
        })
        .collect();
    let puts: Vec<_> = data
        .iter()
        .flat_map(|&d| {
            index
                .iter()
                .map(move |&i| put::put_kernel(dt(i), Bind::Dtype(d, 1), raw2(d), 0, 0, false))
        })
        .collect();
    let argwhere = select::argwhere_kernel(
        dt(DType::Bool),
        dt(DType::Int64),
        raw2(DType::Int64),
        0,
        [0; 8],
    );
    for &l in layouts {
        for &w in widths {
            out.extend(wheres.iter().flat_map(|k| k.spec(l, w)));
            out.extend(puts.iter().flat_map(|k| k.spec(l, w)));
            out.extend(argwhere.spec(l, w));
        }
    }
    out
}

/// The specs of the kernels of `choose`, `place`, `putmask`,
/// `fill_diagonal`, `ravel_multi_index`, `unravel_index` and the
/// `scatter_*` atomics for each data dtype, index dtype, layout and index
/// width, as calls build them (compile tests and ahead-of-time
/// compilation). Scatter specs cover the (op, dtype) pairs it supports.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::indexing::routine_kernel_specs;
/// let specs = routine_kernel_specs(&[DType::Int32], &[DType::Int64], &[LayoutClass::Strided { ndim: 2 }], &[IndexWidth::I64]);
/// assert!(!specs.is_empty() && specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn routine_kernel_specs(
    data: &[crate::DType],
    index: &[crate::DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let mut out = Vec::new();
    for &l in layouts {
        for &w in widths {
            out.extend(choose::kernel_specs(data, index, l, w));
            out.extend(mask::kernel_specs(data, &[crate::DType::Bool], l, w));
            out.extend(diag::kernel_specs(data, l, w));
            out.extend(multi_index::kernel_specs(index, l, w));
            out.extend(scatter::kernel_specs(data, index, l, w));
        }
    }
    out
}
