//! Joining arrays: `concatenate` and the `stack` family.

use super::axis_view;
use crate::array::{Array, copyto};
use crate::dtype::{Casting, DType, Operand, result_type};
use crate::error::{Error, Result};
use crate::layout::{Order, normalize_axis};

/// NumPy's keywords `dtype=` and `casting=` of [`concatenate_with`],
/// [`stack_with`], [`hstack_with`] and [`vstack_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct JoinOptions {
    /// The result's dtype (default: `result_type` of the inputs).
    pub dtype: Option<DType>,
    /// The rule each input's cast to the result's dtype must pass
    /// (NumPy's default, `same_kind`).
    pub casting: Casting,
}

impl JoinOptions {
    /// Sets `dtype`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::manipulation::JoinOptions;
    /// assert_eq!(JoinOptions::default().dtype(DType::Float32).dtype, Some(DType::Float32));
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: impl Into<Option<DType>>) -> JoinOptions {
        self.dtype = dtype.into();
        self
    }

    /// Sets `casting`.
    ///
    /// ```
    /// use gpu_array::dtype::Casting;
    /// use gpu_array::manipulation::JoinOptions;
    /// let o = JoinOptions::default().casting(Casting::Unsafe);
    /// assert_eq!(o.casting, Casting::Unsafe);
    /// ```
    #[must_use]
    pub fn casting(mut self, casting: Casting) -> JoinOptions {
        self.casting = casting;
        self
    }
}

/// Joins `arrays` along `axis` (NumPy's `concatenate`); `axis=None`
/// flattens each input first. The result dtype is NumPy's `result_type`
/// of the inputs (for three or more, not a pairwise promotion: int8,
/// uint16 and float16 join as float32).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([[1, 2]])?, array([[3, 4]])?);
/// let c = concatenate(&[&a, &b], Some(0))?; // (2, 2)
/// let flat = concatenate(&[&a, &b], None)?; // axis=None: 1-D
/// # Ok(()) }
/// ```
///
/// # Errors
/// No arrays, 0-d arrays, different numbers of dimensions or sizes off the
/// axis (NumPy's messages), an axis out of bounds, or different devices.
pub fn concatenate(arrays: &[&Array], axis: Option<isize>) -> Result<Array> {
    concatenate_with(arrays, axis, &JoinOptions::default())
}

/// [`concatenate`] with NumPy's `dtype=` (the inputs cast with
/// `same_kind` casting, as NumPy's default).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3, 4])?);
/// let c = concatenate_dtype(&[&a, &b], Some(0), Some(DType::Float64))?;
/// assert_eq!(c.to_vec::<f64>()?, [1.0, 2.0, 3.0, 4.0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`]; a cast that `same_kind` forbids.
pub fn concatenate_dtype(
    arrays: &[&Array],
    axis: Option<isize>,
    dtype: Option<DType>,
) -> Result<Array> {
    concatenate_with(arrays, axis, &JoinOptions::default().dtype(dtype))
}

/// [`concatenate`] with NumPy's `dtype=` and `casting=`: every input is
/// cast to the result's dtype under `opts.casting`, also when the dtype is
/// the inputs' own `result_type` (so `Casting::No` refuses inputs of
/// different dtypes).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3.5])?);
/// let opts = JoinOptions::default().dtype(DType::Float32);
/// let c = concatenate_with(&[&a, &b], Some(0), &opts)?; // np.concatenate((a, b), dtype='float32')
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`], after the shapes are checked: a cast that
/// `opts.casting` forbids (NumPy's message, "Cannot cast array data from
/// dtype('float64') to dtype('int32') according to the rule 'same_kind'").
pub fn concatenate_with(
    arrays: &[&Array],
    axis: Option<isize>,
    opts: &JoinOptions,
) -> Result<Array> {
    let Some(first) = arrays.first() else {
        return Err(Error::Value(
            "need at least one array to concatenate".into(),
        ));
    };
    // axis=None joins the flattened inputs: each is copied from its own
    // layout into a view of its slice of the output shaped like it.
    let (shape, axis) = match axis {
        None => (vec![arrays.iter().map(|a| a.size()).sum()], None),
        Some(ax) => {
            if first.ndim() == 0 {
                return Err(Error::Value(
                    "zero-dimensional arrays cannot be concatenated".into(),
                ));
            }
            let ax = normalize_axis(ax, first.ndim())?;
            let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape()).collect();
            (joined_shape(&shapes, ax)?, Some(ax))
        }
    };
    let out_dt = match opts.dtype {
        Some(d) => d,
        None => {
            let ops: Vec<Operand> = arrays.iter().map(|a| Operand::Array(a.dtype())).collect();
            result_type(&ops)?
        }
    };
    let casting = opts.casting;
    for a in arrays {
        first.check_same_device(a, "concatenate")?;
        crate::dtype::check_cast(a.dtype(), out_dt, casting)?;
    }
    let out = Array::empty_on(first.device(), &shape, out_dt, Order::C)?;
    let mut at = 0;
    for a in arrays {
        let len = match axis {
            Some(ax) => a.shape()[ax],
            None => a.size(),
        };
        if len > 0 {
            let dst = match axis {
                Some(ax) => axis_view(&out, ax, at, len, 1),
                None => {
                    let dims: Vec<isize> = a.shape().iter().map(|&d| d as isize).collect();
                    axis_view(&out, 0, at, len, 1).reshape(&dims)?
                }
            };
            if a.dtype() == out_dt {
                dst.copy_from(a)?;
            } else {
                copyto(&dst, a, casting, None)?;
            }
        }
        at += len;
    }
    Ok(out)
}

/// The shape of `shapes` joined along `axis` (NumPy's checks and words).
pub(crate) fn joined_shape(shapes: &[&[usize]], axis: usize) -> Result<Vec<usize>> {
    let first = shapes[0];
    let mut out = first.to_vec();
    for (k, s) in shapes.iter().enumerate().skip(1) {
        if s.len() != first.len() {
            return Err(Error::Value(format!(
                "all the input array dimensions except for the concatenation axis must match \
                 exactly, but the array at index 0 has {} dimension(s) and the array at index \
                 {k} has {} dimension(s)",
                first.len(),
                s.len()
            )));
        }
        for d in 0..first.len() {
            if d != axis && s[d] != first[d] {
                return Err(Error::Value(format!(
                    "all the input array dimensions except for the concatenation axis must \
                     match exactly, but along dimension {d}, the array at index 0 has size {} \
                     and the array at index {k} has size {}",
                    first[d], s[d]
                )));
            }
        }
        out[axis] += s[axis];
    }
    Ok(out)
}

/// Joins `arrays` along a new axis `axis` (NumPy's `stack`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3, 4])?);
/// let s = stack(&[&a, &b], 1)?; // [[1, 3], [2, 4]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No arrays ("need at least one array to stack"), different shapes ("all
/// input arrays must have the same shape"), an axis out of bounds.
pub fn stack(arrays: &[&Array], axis: isize) -> Result<Array> {
    stack_with(arrays, axis, &JoinOptions::default())
}

/// [`stack`] with NumPy's `dtype=` and `casting=` ([`concatenate_with`]).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3, 4])?);
/// let opts = JoinOptions::default().dtype(DType::Float64);
/// let s = stack_with(&[&a, &b], 0, &opts)?; // np.stack((a, b), dtype='float64'): (2, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`stack`] and [`concatenate_with`].
pub fn stack_with(arrays: &[&Array], axis: isize, opts: &JoinOptions) -> Result<Array> {
    let Some(first) = arrays.first() else {
        return Err(Error::Value("need at least one array to stack".into()));
    };
    if arrays.iter().any(|a| a.shape() != first.shape()) {
        return Err(Error::Value(
            "all input arrays must have the same shape".into(),
        ));
    }
    let ax = normalize_axis(axis, first.ndim() + 1)? as isize;
    let expanded: Vec<Array> = arrays
        .iter()
        .map(|a| a.expand_dims(&[ax]))
        .collect::<Result<_>>()?;
    concatenate_with(&expanded.iter().collect::<Vec<_>>(), Some(ax), opts)
}

/// Joins along the second axis, or the first for 1-D inputs (NumPy's
/// `hstack`; 0-d inputs become 1-D).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let h = hstack(&[&array([1])?, &array([2, 3])?])?; // [1, 2, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`].
pub fn hstack(arrays: &[&Array]) -> Result<Array> {
    hstack_with(arrays, &JoinOptions::default())
}

/// [`hstack`] with NumPy's `dtype=` and `casting=` ([`concatenate_with`]).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3])?);
/// let opts = JoinOptions::default().dtype(DType::Int8);
/// let h = hstack_with(&[&a, &b], &opts)?; // np.hstack((a, b), dtype='int8'): [1, 2, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate_with`].
pub fn hstack_with(arrays: &[&Array], opts: &JoinOptions) -> Result<Array> {
    let arrs: Vec<Array> = arrays.iter().map(|a| a.atleast_1d()).collect();
    let axis = if arrs.first().is_some_and(|a| a.ndim() == 1) {
        0
    } else {
        1
    };
    concatenate_with(&arrs.iter().collect::<Vec<_>>(), Some(axis), opts)
}

/// Joins along the first axis after making inputs at least 2-D (NumPy's
/// `vstack`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let v = vstack(&[&array([1, 2])?, &array([3, 4])?])?; // (2, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`].
pub fn vstack(arrays: &[&Array]) -> Result<Array> {
    vstack_with(arrays, &JoinOptions::default())
}

/// [`vstack`] with NumPy's `dtype=` and `casting=` ([`concatenate_with`]).
/// (NumPy's `dstack` and `column_stack` take neither.)
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3, 4])?);
/// let opts = JoinOptions::default().dtype(DType::Float32);
/// let v = vstack_with(&[&a, &b], &opts)?; // np.vstack((a, b), dtype='float32'): (2, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate_with`].
pub fn vstack_with(arrays: &[&Array], opts: &JoinOptions) -> Result<Array> {
    let arrs: Vec<Array> = arrays.iter().map(|a| a.atleast_2d()).collect();
    concatenate_with(&arrs.iter().collect::<Vec<_>>(), Some(0), opts)
}

/// Joins along the third axis after making inputs at least 3-D (NumPy's
/// `dstack`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = dstack(&[&array([1, 2])?, &array([3, 4])?])?; // (1, 2, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`].
pub fn dstack(arrays: &[&Array]) -> Result<Array> {
    let arrs: Vec<Array> = arrays.iter().map(|a| a.atleast_3d()).collect();
    concatenate(&arrs.iter().collect::<Vec<_>>(), Some(2))
}

/// Stacks 1-D inputs as columns of a 2-D array, and joins 2-D inputs
/// along the second axis (NumPy's `column_stack`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = column_stack(&[&array([1, 2])?, &array([3, 4])?])?; // [[1, 3], [2, 4]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`concatenate`].
pub fn column_stack(arrays: &[&Array]) -> Result<Array> {
    let arrs: Vec<Array> = arrays
        .iter()
        .map(|a| {
            if a.ndim() < 2 {
                let n = a.size() as isize;
                a.reshape([n, 1])
            } else {
                Ok((*a).clone())
            }
        })
        .collect::<Result<_>>()?;
    concatenate(&arrs.iter().collect::<Vec<_>>(), Some(1))
}

#[cfg(test)]
mod tests {
    use super::joined_shape;

    #[test]
    fn joined_shapes_follow_numpy() {
        assert_eq!(joined_shape(&[&[2, 3], &[4, 3]], 0).unwrap(), vec![6, 3]);
        assert_eq!(joined_shape(&[&[2, 3], &[2, 0]], 1).unwrap(), vec![2, 3]);
        let e = joined_shape(&[&[2, 3], &[2, 2]], 0)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("along dimension 1, the array at index 0 has size 3"),
            "{e}"
        );
        let e = joined_shape(&[&[2, 3], &[2]], 0).unwrap_err().to_string();
        assert!(e.contains("index 1 has 1 dimension(s)"), "{e}");
    }
}
