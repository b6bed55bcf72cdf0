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
use crate::elementwise::cached_kernel;
use crate::error::{Error, Result};
use crate::layout::{Order, normalize_axis};
use crate::ufunc::Input;

/// What an index outside `-n..n` means (NumPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TakeMode {
    /// Modulo the axis length (CuPy's behaviour for every index).
    #[default]
    Wrap,
    /// Clamped to `0..n` (negative indices become 0, as NumPy's `clip`).
    Clip,
}

cached_kernel! {
    /// Gathers along an axis of `[outer, cdim, rdim]` for an output of
    /// `[outer, isz, rdim]`.
    fn take_axis_kernel {
        inputs: "raw T a, raw I ind, int64 cdim, int64 rdim, int64 isz, int32 clip",
        outputs: "T out",
        body: "const long long li = (long long)i; \
               const long long r = li % rdim, t = li / rdim; \
               const long long j = t % isz, l = t / isz; \
               long long k = (long long)ind[j]; \
               if (clip) { k = k < 0 ? 0 : (k >= cdim ? cdim - 1 : k); } \
               else { if (k < 0 || k >= cdim) { k %= cdim; if (k < 0) k += cdim; } } \
               out = a[(l * cdim + k) * rdim + r];",
        name: "cuprum_take_axis",
    }

    /// Gathers from the flattened array: one index per output element.
    fn take_flat_kernel {
        inputs: "raw T a, I ind, int64 cdim, int32 clip",
        outputs: "T out",
        body: "long long k = (long long)ind; \
               if (clip) { k = k < 0 ? 0 : (k >= cdim ? cdim - 1 : k); } \
               else { if (k < 0 || k >= cdim) { k %= cdim; if (k < 0) k += cdim; } } \
               out = a[k];",
        name: "cuprum_take_flat",
    }
}

/// Elements of `a` at `indices` along `axis` (NumPy's and CuPy's `take`;
/// `None` takes from the flattened array). The result's shape is
/// `a.shape[:axis] + indices.shape + a.shape[axis+1:]`.
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
    let clip = crate::dtype::ScalarValue::Int(i128::from(mode == TakeMode::Clip));
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
    let int = |n: usize| Input::Scalar(crate::dtype::ScalarValue::Int(n as i128));
    if outer == 1 && rdim == 1 {
        // The output's other axes all have length 1 here: the indices,
        // seen in the output's shape, give one index per element.
        let shaped: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        let indices = &indices.reshape(&shaped)?;
        take_flat_kernel().call(
            &[
                Input::Array(a).into(),
                Input::Array(indices).into(),
                int(cdim).into(),
                Input::Scalar(clip).into(),
            ],
            &[&out],
            None,
        )?;
    } else {
        take_axis_kernel().call(
            &[
                Input::Array(a).into(),
                Input::Array(indices).into(),
                int(cdim).into(),
                int(rdim).into(),
                int(indices.size()).into(),
                Input::Scalar(clip).into(),
            ],
            &[&out],
            None,
        )?;
    }
    Ok(out)
}

/// The specs of this module's kernels (`take`, `take_along_axis`,
/// `where`, `argwhere`) for each data dtype, index dtype, layout and index
/// width, as calls would build them (compile tests and ahead-of-time compilation).
pub fn kernel_specs(
    data: &[crate::DType],
    index: &[crate::DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    use crate::dtype::{Operand, ScalarKind};
    use crate::elementwise::ArgInfo;
    let int = ArgInfo::Scalar(Operand::Scalar(ScalarKind::Int));
    let mut out = Vec::new();
    for &d in data {
        for &i in index {
            let raw = |dtype| ArgInfo::Array { dtype, ndim: 2 };
            for &l in layouts {
                for &w in widths {
                    let flat = take_flat_kernel().spec(
                        &[raw(d), ArgInfo::array(i), int, int],
                        &[ArgInfo::array(d)],
                        l,
                        w,
                    );
                    let axis = take_axis_kernel().spec(
                        &[raw(d), raw(i), int, int, int, int],
                        &[ArgInfo::array(d)],
                        l,
                        w,
                    );
                    let along = along::along_kernel().spec(
                        &[raw(d), ArgInfo::array(i), int, int, int],
                        &[ArgInfo::array(d)],
                        l,
                        w,
                    );
                    out.extend(flat.into_iter().chain(axis).chain(along));
                }
            }
        }
    }
    for &l in layouts {
        for &w in widths {
            for &d in data {
                let wh = select::where_kernel().spec(
                    &[
                        ArgInfo::array(crate::DType::Bool),
                        ArgInfo::array(d),
                        ArgInfo::Scalar(Operand::Array(d)),
                    ],
                    &[ArgInfo::array(d)],
                    l,
                    w,
                );
                out.extend(wh);
            }
            let mut args = vec![
                ArgInfo::array(crate::DType::Bool),
                ArgInfo::array(crate::DType::Int64),
            ];
            args.extend(std::iter::repeat_n(int, 9));
            for &d in data {
                for &i in index {
                    let p = put::put_kernel().spec(
                        &[
                            ArgInfo::array(i),
                            ArgInfo::Array { dtype: d, ndim: 1 },
                            int,
                            int,
                            int,
                        ],
                        &[ArgInfo::Array { dtype: d, ndim: 2 }],
                        l,
                        w,
                    );
                    out.extend(p);
                }
            }
            let aw = select::argwhere_kernel().spec(
                &args,
                &[ArgInfo::Array {
                    dtype: crate::DType::Int64,
                    ndim: 2,
                }],
                l,
                w,
            );
            out.extend(aw);
        }
    }
    out
}

/// The specs of the kernels of `choose`, `place`, `putmask`,
/// `fill_diagonal`, `ravel_multi_index`, `unravel_index` and the
/// `scatter_*` atomics for each data dtype, index dtype, layout and index
/// width, as calls build them (compile tests and ahead-of-time
/// compilation). Scatter specs cover the (op, dtype) pairs it supports.
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
