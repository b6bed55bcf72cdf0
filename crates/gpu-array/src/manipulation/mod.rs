//! Array manipulation routines (NumPy's "Array manipulation routines"):
//! joining, splitting, tiling, repeating and rearranging arrays.
//!
//! | NumPy / CuPy                              | Cuprum                                                |
//! |-------------------------------------------|-------------------------------------------------------|
//! | `cp.concatenate((a, b), axis=0)`          | [`concatenate`]`(&[&a, &b], Some(0))?`                |
//! | `cp.concatenate((a, b), axis=None)`       | [`concatenate`]`(&[&a, &b], None)?`                   |
//! | `cp.stack`, `hstack`, `vstack`, `dstack`  | [`stack`], [`hstack`], [`vstack`], [`dstack`]         |
//! | `cp.column_stack((a, b))`                 | [`column_stack`]                                      |
//! | `cp.split(a, 3)`, `cp.split(a, [2, 5])`   | [`split`]`(&a, Sections::Count(3), 0)?`, `Sections::Indices(vec![2, 5])` |
//! | `cp.array_split`, `hsplit`, `vsplit`, `dsplit` | [`array_split`], [`hsplit`], [`vsplit`], [`dsplit`] |
//! | `cp.tile(a, (2, 3))`                      | [`tile`]`(&a, &[2, 3])?`                              |
//! | `cp.repeat(a, 3, axis=1)`                 | [`repeat`]`(&a, &[3], Some(1))?`                      |
//! | `cp.repeat(a, [1, 0, 2])`                 | [`repeat`]`(&a, &[1, 0, 2], None)?`                   |
//! | `cp.flip(a, axis)`, `fliplr`, `flipud`    | [`flip`], [`fliplr`], [`flipud`] (views)              |
//! | `cp.roll(a, 2, axis=(0, 1))`              | [`roll`]`(&a, &[2], Some(&[0, 1]))?`                  |
//! | `cp.rot90(a, k, axes)`                    | [`rot90`] (a view)                                    |
//! | `cp.trim_zeros(a, 'fb')`                  | [`trim_zeros`]`(&a, "fb")?`                           |
//! | `cp.require(a, requirements=['C'])`       | [`require`]                                           |
//! | `cp.pad(a, ((1, 2), (0, 3)), 'reflect')`  | [`pad`]`(&a, &[(1, 2), (0, 3)], PadMode::Reflect)?`   |
//! | `np.pad(a, 2, 'linear_ramp', end_values=5)` | [`pad`]`(&a, &[(2, 2)], PadMode::LinearRamp(5.into()))?` |
//! | `np.pad(a, 2, 'median', stat_length=3)`   | [`pad_with`]`(&a, &[(2, 2)], PadMode::Median, &PadOptions::default().stat_length(vec![(Some(3), Some(3))]))?` |
//! | `np.pad(a, 1, 'linear_ramp', end_values=((0, 9),))` | [`pad_with`] with `PadOptions::default().end_values(vec![(0.into(), 9.into())])` |
//! | `np.pad(a, ((1, 2), (0, 3)), constant_values=((5, 6), (7, 8)))` | [`pad_with`] with `PadOptions::default().constant_values(vec![(5.into(), 6.into()), (7.into(), 8.into())])` |
//! | `np.pad(a, 3, 'reflect', reflect_type='odd')` | [`pad_with`] with `PadOptions::default().reflect_type(ReflectType::Odd)` |
//!
//! How: results that NumPy returns as views (splits, flips, `rot90`) are
//! views here; the others are one allocation and one copy per input
//! through the array's copy path (`Array::copy_from`: a `cudaMemcpy` when
//! both sides are dense, the 16-byte vectorised elementwise copy when
//! contiguous, else the strided one). `tile` and scalar `repeat` are a
//! single strided copy of a broadcast view (a stride of zero repeats), and
//! per-element `repeat` counts are a cumulative sum, a `searchsorted` of
//! every output position and a gather along the axis
//! ([`crate::indexing::take`]).

mod join;
mod misc;
mod pad;
mod rearrange;
mod split;
mod tiling;

pub use join::{
    JoinOptions, column_stack, concatenate, concatenate_dtype, concatenate_with, dstack, hstack,
    hstack_with, stack, stack_with, vstack, vstack_with,
};
pub use misc::{Requirement, require, trim_zeros};
pub use pad::{
    ConstantForm, PadMode, PadOptions, ReflectType, constant_cast, pad, pad_indices, pad_with,
    stat_lengths,
};
pub use rearrange::{flip, fliplr, flipud, roll, roll_amounts, rot90};
pub use split::{Sections, array_split, dsplit, hsplit, split, split_bounds, vsplit};
pub use tiling::{repeat, repeat_array, repeat_indices, tile};

use crate::array::Array;
use crate::layout::Layout;

/// The view of `a` keeping positions `start, start + step, ...` (`len` of
/// them) along `axis`; the caller has checked the range.
pub(crate) fn axis_view(a: &Array, axis: usize, start: usize, len: usize, step: isize) -> Array {
    let mut shape = a.shape().to_vec();
    let mut strides = a.strides().to_vec();
    let offset = if len == 0 {
        a.layout().offset()
    } else {
        a.layout().offset() + start as isize * strides[axis]
    };
    shape[axis] = len;
    strides[axis] *= step;
    a.with_layout(Layout::new(shape, strides, offset), a.dtype())
}
