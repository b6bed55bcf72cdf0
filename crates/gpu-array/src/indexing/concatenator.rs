//! NumPy's `r_` and `c_` (its `AxisConcatenator`): arrays, scalars and
//! ranges joined along an axis.
//!
//! NumPy writes `np.r_[a, 0, 1:4, 0:1:5j]` with slice syntax; Rust has no
//! such indexing, so an item is an [`RItem`] (arrays, scalars and ranges
//! convert with `.into()`) and the string directive `'axis,ndmin,trans1d'`
//! is an [`AxisConcatenator`]:
//!
//! | NumPy                          | Cuprum                                                                 |
//! |--------------------------------|------------------------------------------------------------------------|
//! | `np.r_[a, 3, 0:3]`             | [`r_`]`(&[(&a).into(), 3.into(), (0..3).into()])?`                     |
//! | `np.r_[0:10:2]`                | [`r_`]`(&[RItem::arange(0, 10, 2)])?`                                   |
//! | `np.r_[0:1:5j]`                | [`r_`]`(&[RItem::linspace(0, 1, 5)])?`                                  |
//! | `np.c_[a, b]`                  | [`c_`]`(&[(&a).into(), (&b).into()])?`                                  |
//! | `np.r_['0,2,1', a, b]`         | `AxisConcatenator { axis: 0, ndmin: 2, trans1d: 1 }.concat(&[..])?`    |
//!
//! The matrix directives (`'r'`, `'c'`) have no counterpart (Cuprum has no
//! matrix class).

use std::ops::Range;

use crate::array::Array;
use crate::dtype::{DType, Operand, ScalarValue, result_type};
use crate::error::{Error, Result};
use crate::layout::Order;

/// One item of [`r_`]/[`c_`]: what NumPy's bracket holds between commas.
#[derive(Debug, Clone, Copy)]
pub enum RItem<'a> {
    /// An array (NumPy: any array-like).
    Array(&'a Array),
    /// A scalar; weak in the result type (NumPy 2: a Python scalar), so
    /// `r_[int8 array, 3]` stays int8.
    Scalar(ScalarValue),
    /// `start:stop:step`, NumPy's `arange(start, stop, step)`.
    Arange {
        /// First value.
        start: ScalarValue,
        /// End, excluded.
        stop: ScalarValue,
        /// Step.
        step: ScalarValue,
    },
    /// `start:stop:numj`, NumPy's `linspace(start, stop, num)` (stop included).
    Linspace {
        /// First value.
        start: ScalarValue,
        /// Last value.
        stop: ScalarValue,
        /// Number of samples.
        num: usize,
    },
}

impl RItem<'_> {
    /// `start:stop:step`.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::indexing::{RItem, r_};
    /// let r = r_(&[RItem::arange(0, 6, 2), 9.into()])?; // np.r_[0:6:2, 9]: [0, 2, 4, 9]
    /// # Ok(()) }
    /// ```
    pub fn arange(
        start: impl Into<ScalarValue>,
        stop: impl Into<ScalarValue>,
        step: impl Into<ScalarValue>,
    ) -> RItem<'static> {
        RItem::Arange {
            start: start.into(),
            stop: stop.into(),
            step: step.into(),
        }
    }

    /// `start:stop:numj`.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::indexing::{RItem, r_};
    /// let r = r_(&[RItem::linspace(0.0, 1.0, 3)])?; // np.r_[0:1:3j]: [0, 0.5, 1]
    /// # Ok(()) }
    /// ```
    pub fn linspace(
        start: impl Into<ScalarValue>,
        stop: impl Into<ScalarValue>,
        num: usize,
    ) -> RItem<'static> {
        RItem::Linspace {
            start: start.into(),
            stop: stop.into(),
            num,
        }
    }
}

impl<'a> From<&'a Array> for RItem<'a> {
    fn from(a: &'a Array) -> Self {
        RItem::Array(a)
    }
}

impl From<Range<i64>> for RItem<'_> {
    fn from(r: Range<i64>) -> Self {
        RItem::arange(r.start, r.end, 1)
    }
}

impl From<ScalarValue> for RItem<'_> {
    fn from(v: ScalarValue) -> Self {
        RItem::Scalar(v)
    }
}

crate::array::from_rust_scalars!(RItem<'_>, RItem::Scalar; bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// NumPy's `AxisConcatenator` settings, its string directive
/// `'axis,ndmin,trans1d'`: join along `axis`; give every item at least
/// `ndmin` dimensions; put a lower-dimensional item's own axes at
/// `trans1d` among the new ones (`-1`: last, as NumPy's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AxisConcatenator {
    /// The axis to join along.
    pub axis: isize,
    /// The minimum number of dimensions of each item.
    pub ndmin: usize,
    /// Where an upgraded item's axes go (`-1`: last).
    pub trans1d: isize,
}

impl Default for AxisConcatenator {
    /// `r_`'s: axis 0, ndmin 1, trans1d -1.
    fn default() -> Self {
        AxisConcatenator {
            axis: 0,
            ndmin: 1,
            trans1d: -1,
        }
    }
}

/// `a` with leading dimensions of length 1 up to `ndmin` (NumPy's
/// `array(a, ndmin=...)`, a view).
fn with_ndmin(a: &Array, ndmin: usize) -> Result<Array> {
    if a.ndim() >= ndmin {
        return Ok(a.clone());
    }
    let mut shape = vec![1isize; ndmin - a.ndim()];
    shape.extend(a.shape().iter().map(|&d| d as isize));
    a.reshape(&shape)
}

enum Obj {
    Array(Array),
    Scalar(ScalarValue),
}

impl AxisConcatenator {
    /// `c_`'s: axis -1, ndmin 2, trans1d 0 (1-D items become columns).
    pub const C: AxisConcatenator = AxisConcatenator {
        axis: -1,
        ndmin: 2,
        trans1d: 0,
    };

    /// Joins `items` as NumPy's `AxisConcatenator.__getitem__`: ranges
    /// become `arange`/`linspace` arrays, every item gets `ndmin`
    /// dimensions (lower-dimensional arrays transposed by `trans1d`), and
    /// all are cast to the result type of the arrays with the scalars weak,
    /// then concatenated along `axis`.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::indexing::{AxisConcatenator, RItem};
    /// let (a, b) = (array([[1, 2]])?, array([[3, 4]])?);
    /// let ac = AxisConcatenator { axis: 1, ..AxisConcatenator::default() };
    /// let c = ac.concat(&[(&a).into(), (&b).into()])?; // np.r_['1', a, b]: [[1, 2, 3, 4]]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No items ("need at least one array to concatenate"); shapes that do
    /// not join; a scalar that does not fit the result dtype; errors of
    /// `arange`/`linspace`.
    pub fn concat(&self, items: &[RItem<'_>]) -> Result<Array> {
        if items.is_empty() {
            return Err(Error::Value(
                "need at least one array to concatenate".into(),
            ));
        }
        let ndmin = self.ndmin;
        let mut objs = Vec::with_capacity(items.len());
        let mut ops = Vec::with_capacity(items.len());
        let range_obj = |a: Array| -> Result<Array> {
            let a = with_ndmin(&a, ndmin)?;
            if ndmin > 1 && self.trans1d != -1 {
                a.swapaxes(-1, self.trans1d)
            } else {
                Ok(a)
            }
        };
        for item in items {
            let obj = match *item {
                RItem::Array(a) => {
                    let mut o = with_ndmin(a, ndmin)?;
                    if self.trans1d != -1 && a.ndim() < ndmin {
                        let k2 = (ndmin - a.ndim()) as isize;
                        let mut k1 = self.trans1d;
                        if k1 < 0 {
                            k1 += k2 + 1;
                        }
                        let def: Vec<isize> = (0..ndmin as isize).collect();
                        let cut = |x: isize| x.clamp(0, ndmin as isize) as usize;
                        let (k1u, k2u) = (cut(k1), cut(k2));
                        let mut axes: Vec<isize> = def[..k1u].to_vec();
                        axes.extend_from_slice(&def[k2u..]);
                        if k1u < k2u {
                            axes.extend_from_slice(&def[k1u..k2u]);
                        }
                        o = o.transpose(Some(&axes))?;
                    }
                    Obj::Array(o)
                }
                RItem::Arange { start, stop, step } => Obj::Array(range_obj(
                    crate::creation::arange_with(start, stop, step, None)?,
                )?),
                RItem::Linspace { start, stop, num } => Obj::Array(range_obj(
                    crate::creation::linspace_with(start, stop, num, true, None)?,
                )?),
                RItem::Scalar(v) => Obj::Scalar(v),
            };
            ops.push(match &obj {
                Obj::Array(a) => Operand::Array(a.dtype()),
                Obj::Scalar(v) => Operand::Scalar(v.kind()),
            });
            objs.push(obj);
        }
        let dt: DType = result_type(&ops)?;
        let device = objs
            .iter()
            .find_map(|o| match o {
                Obj::Array(a) => Some(a.device()),
                Obj::Scalar(_) => None,
            })
            .map_or_else(gpu_runtime::Device::current, Ok)?;
        let arrays = objs
            .into_iter()
            .map(|o| match o {
                Obj::Array(a) if a.dtype() == dt => Ok(a),
                Obj::Array(a) => a.astype(dt),
                Obj::Scalar(v) => {
                    let s = Array::empty_on(device, &vec![1; ndmin], dt, Order::C)?;
                    s.fill(v)?;
                    Ok(s)
                }
            })
            .collect::<Result<Vec<Array>>>()?;
        let refs: Vec<&Array> = arrays.iter().collect();
        crate::manipulation::concatenate(&refs, Some(self.axis))
    }
}

/// NumPy's `np.r_[...]`: the items joined along axis 0 (see
/// [`AxisConcatenator::concat`]).
///
/// ```no_run
/// use gpu_array::{creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = array([7, 8])?;
/// let r = r_(&[(&a).into(), (0..3).into()])?; // np.r_[a, 0:3]: [7, 8, 0, 1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`AxisConcatenator::concat`].
pub fn r_(items: &[RItem<'_>]) -> Result<Array> {
    AxisConcatenator::default().concat(items)
}

/// NumPy's `np.c_[...]`: `r_['-1,2,0', ...]`, so 1-D items become columns
/// joined side by side.
///
/// ```no_run
/// use gpu_array::{creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3, 4])?);
/// let c = c_(&[(&a).into(), (&b).into()])?; // np.c_[a, b]: [[1, 3], [2, 4]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`AxisConcatenator::concat`].
pub fn c_(items: &[RItem<'_>]) -> Result<Array> {
    AxisConcatenator::C.concat(items)
}
