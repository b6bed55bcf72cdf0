//! Functional programming (NumPy's "Functional programming" routines):
//! `piecewise`.
//!
//! | NumPy / CuPy                                        | Cuprum                                                       |
//! |-----------------------------------------------------|--------------------------------------------------------------|
//! | `cp.piecewise(x, [x < 0, x >= 0], [-1, 1])`         | [`piecewise`]`(&x, &[&x.less(0)?, &x.greater_equal(0)?], &[(-1).into(), 1.into()])?` |
//! | `np.piecewise(x, [x < 0], [lambda v: -v, lambda v: v ** 2])` | [`piecewise`]`(&x, &[&x.less(0)?], &[Piece::func(\|v\| ufunc::negative(v)), Piece::func(\|v\| ufunc::square(v))])?` |
//!
//! CuPy accepts constants only; Cuprum also takes functions
//! ([`Piece::Func`]), with one difference from NumPy: a function sees all
//! of `x`, not only the elements its condition selects, and its values
//! elsewhere are discarded. So a function must work elementwise (its
//! result broadcasts to `x`'s shape), and one that would fail or warn
//! outside its piece (a division by zero, a logarithm of a negative) only
//! produces values that are then dropped. This is what keeps `piecewise`
//! a handful of full-width kernels: no boolean gather of `x` and no host
//! wait for the size of each piece.

use crate::array::Array;
use crate::dtype::ScalarValue;
use crate::error::{Error, Result};
use crate::indexing::where_;
use crate::layout::Order;

/// A function of `x` in [`Piece::Func`].
pub type PieceFn<'f> = Box<dyn Fn(&Array) -> Result<Array> + 'f>;

/// The value of one piece of [`piecewise`]: a constant, or a function of
/// `x` (NumPy's callable in `funclist`).
pub enum Piece<'f> {
    /// A constant, cast to `x`'s dtype as NumPy's `y[cond] = value`
    /// (floats truncate into integer `x`).
    Const(ScalarValue),
    /// A function evaluated on the whole of `x` (see the [module
    /// docs](self)); its result must broadcast to `x`'s shape and is cast
    /// to `x`'s dtype as NumPy's `y[cond] = f(x[cond])`.
    Func(PieceFn<'f>),
}

impl<'f> Piece<'f> {
    /// A [`Piece::Func`] from a closure.
    ///
    /// ```no_run
    /// use gpu_array::creation::*;
    /// # fn main() -> gpu_array::Result<()> {
    /// use gpu_array::{functional::{Piece, piecewise}, ufunc};
    /// let x = array([-1.0, 3.0])?;
    /// let sq = Piece::func(|x| ufunc::multiply(x, x)); // lambda x: x * x
    /// let y = piecewise(&x, &[&x.greater(0.0)?], &[sq])?; // [0, 9]
    /// # Ok(()) }
    /// ```
    pub fn func(f: impl Fn(&Array) -> Result<Array> + 'f) -> Piece<'f> {
        Piece::Func(Box::new(f))
    }
}

impl std::fmt::Debug for Piece<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Piece::Const(v) => f.debug_tuple("Const").field(v).finish(),
            Piece::Func(_) => f.write_str("Func(..)"),
        }
    }
}

impl<T: Into<ScalarValue>> From<T> for Piece<'_> {
    fn from(v: T) -> Self {
        Piece::Const(v.into())
    }
}

/// How `condlist` and `funclist` pair up (NumPy's rule): as many functions
/// as conditions, or one more, the last being the "otherwise" value for
/// the elements no condition selects. Returns whether there is an
/// otherwise value.
///
/// ```
/// use gpu_array::functional::piecewise_arity;
/// assert_eq!(piecewise_arity(2, 3)?, true); // the last function is "otherwise"
/// assert_eq!(piecewise_arity(2, 2)?, false);
/// assert!(piecewise_arity(2, 4).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// NumPy's "with 2 condition(s), either 2 or 3 functions are expected".
pub fn piecewise_arity(conditions: usize, functions: usize) -> Result<bool> {
    if functions == conditions + 1 {
        Ok(true)
    } else if functions == conditions {
        Ok(false)
    } else {
        Err(Error::Value(format!(
            "with {conditions} condition(s), either {conditions} or {} functions are expected",
            conditions + 1
        )))
    }
}

/// The shape a condition of shape `cond` takes to select from `x`: its own
/// followed by ones, when it matches `x`'s leading axes (NumPy's boolean
/// index, which selects whole subarrays when it has fewer dimensions).
///
/// ```
/// use gpu_array::functional::condition_shape;
/// assert_eq!(condition_shape(&[2], &[2, 3])?, [2, 1]); // selects whole rows
/// assert!(condition_shape(&[3], &[2, 3]).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// NumPy's `IndexError`s: "too many indices for array: array is
/// 1-dimensional, but 2 were indexed", "boolean index did not match indexed
/// array along axis 0; size of axis is 6 but size of corresponding boolean
/// axis is 2".
pub fn condition_shape(cond: &[usize], x: &[usize]) -> Result<Vec<usize>> {
    if cond.len() > x.len() {
        return Err(Error::Index(format!(
            "too many indices for array: array is {}-dimensional, but {} were indexed",
            x.len(),
            cond.len()
        )));
    }
    if let Some(k) = (0..cond.len()).find(|&k| cond[k] != x[k]) {
        return Err(Error::Index(format!(
            "boolean index did not match indexed array along axis {k}; size of axis is {} but \
             size of corresponding boolean axis is {}",
            x[k], cond[k]
        )));
    }
    let mut shape = cond.to_vec();
    shape.resize(x.len(), 1);
    Ok(shape)
}

/// NumPy's `piecewise(x, condlist, funclist)`: where `condlist[i]` is true
/// (nonzero), the value of `funclist[i]`; later conditions win where
/// several hold; with one more piece than conditions, the last is the
/// value where none holds, else those elements are 0. The result has
/// `x`'s shape and dtype.
///
/// Each piece is one `where` over the whole array (a function is evaluated
/// on all of `x` first: see the [module docs](self)).
///
/// ```no_run
/// use gpu_array::creation::*;
/// # fn main() -> gpu_array::Result<()> {
/// use gpu_array::{functional::{Piece, piecewise}, ufunc};
/// let x = array([-2.0, -1.0, 1.0, 2.0])?;
/// let neg = x.less(0.0)?;
/// // np.piecewise(x, [x < 0], [np.negative, 1.5]): [2, 1, 1.5, 1.5]
/// let y = piecewise(&x, &[&neg], &[Piece::func(|x| ufunc::negative(x)), 1.5.into()])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// The arity rule of [`piecewise_arity`]; a condition whose shape is not
/// `x`'s or a leading part of it ([`condition_shape`]); a function's
/// error, or a result that does not broadcast to `x`'s shape; a constant
/// out of range for `x`'s integer dtype; devices differ.
pub fn piecewise(x: &Array, condlist: &[&Array], funclist: &[Piece<'_>]) -> Result<Array> {
    let otherwise = piecewise_arity(condlist.len(), funclist.len())?;
    let conds: Vec<Array> = condlist
        .iter()
        .map(|c| {
            x.check_same_device(c, "piecewise")?;
            let shape = condition_shape(c.shape(), x.shape())?;
            let shape: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
            c.reshape(&shape)
        })
        .collect::<Result<_>>()?;
    let dt = x.dtype();
    let value = |k: usize| -> Result<Array> {
        match &funclist[k] {
            Piece::Const(v) => {
                let c = Array::empty_on(x.device(), &[], dt, Order::C)?;
                c.fill(*v)?;
                Ok(c)
            }
            Piece::Func(f) => {
                let v = f(x)?;
                x.check_same_device(&v, "piecewise")?;
                if let Err(e) = v.broadcast_to(x.shape()) {
                    return Err(Error::Value(format!(
                        "piecewise: function {k} returned shape {:?}, which does not broadcast \
                         to x's shape {:?} ({e})",
                        v.shape(),
                        x.shape()
                    )));
                }
                if v.dtype() == dt { Ok(v) } else { v.astype(dt) }
            }
        }
    };
    // The otherwise value first: the conditions then overwrite it where
    // any holds, which is NumPy's `~any(condlist)` without computing it.
    let start = if otherwise {
        value(condlist.len())?
    } else {
        let z = Array::empty_on(x.device(), &[], dt, Order::C)?;
        z.fill(ScalarValue::Int(0))?;
        z
    };
    let mut y: Option<Array> = None;
    for (k, cond) in conds.iter().enumerate() {
        let v = value(k)?;
        let prev = y.as_ref().unwrap_or(&start);
        y = Some(where_(cond, &v, prev)?);
    }
    let y = match y {
        Some(y) => y,
        None => start,
    };
    // A broadcast `where` can leave a smaller shape (a 0-d constant and no
    // condition); materialise x's shape. A lone function may return `x`
    // itself: the result is always a new array, as NumPy's.
    if y.shape() == x.shape() {
        return if y.shares_memory_with(x) {
            y.copy()
        } else {
            Ok(y)
        };
    }
    let out = Array::empty_on(x.device(), x.shape(), dt, Order::C)?;
    if out.size() > 0 {
        out.copy_from(&y.broadcast_to(x.shape())?)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arity_follows_numpy() {
        assert!(!piecewise_arity(2, 2).unwrap());
        assert!(piecewise_arity(2, 3).unwrap());
        assert!(piecewise_arity(0, 1).unwrap());
        assert_eq!(
            piecewise_arity(1, 3).unwrap_err().to_string(),
            "with 1 condition(s), either 1 or 2 functions are expected"
        );
    }

    #[test]
    fn conditions_match_leading_axes() {
        assert_eq!(condition_shape(&[3, 4], &[3, 4]).unwrap(), vec![3, 4]);
        assert_eq!(condition_shape(&[3], &[3, 4]).unwrap(), vec![3, 1]);
        assert_eq!(condition_shape(&[], &[]).unwrap(), Vec::<usize>::new());
        assert_eq!(
            condition_shape(&[2], &[6]).unwrap_err().to_string(),
            "boolean index did not match indexed array along axis 0; size of axis is 6 but size \
             of corresponding boolean axis is 2"
        );
        assert_eq!(
            condition_shape(&[6, 1], &[6]).unwrap_err().to_string(),
            "too many indices for array: array is 1-dimensional, but 2 were indexed"
        );
    }

    #[test]
    fn pieces_convert_from_scalars() {
        assert!(matches!(
            Piece::from(2.5),
            Piece::Const(ScalarValue::Float(v)) if v == 2.5
        ));
        assert!(matches!(
            Piece::from(-1),
            Piece::Const(ScalarValue::Int(-1))
        ));
        let p = Piece::func(|v: &Array| Ok(v.clone()));
        assert_eq!(format!("{p:?}"), "Func(..)");
    }
}
