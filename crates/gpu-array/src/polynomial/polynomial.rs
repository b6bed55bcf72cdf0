//! `numpy.polynomial.polynomial`: power series with coefficients lowest
//! power first.

use super::{horner, polyutils};
use super::{horner_tensor_kernel, vander_kernel};
use crate::array::Array;
use crate::creation::ascontiguousarray;
use crate::dtype::{DType, Operand, ScalarKind, promote_types, result_type};
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, Order};
use crate::ufunc::{self, Input, UfuncOptions};

/// `x + 0.0`'s dtype: integers and bool become float64.
fn inexact(d: DType) -> Result<DType> {
    result_type(&[Operand::Array(d), Operand::Scalar(ScalarKind::Float)])
}

/// `numpy.polynomial.polynomial.polyvander(x, deg)`: the Vandermonde
/// matrix `V[..., i] = x**i` for `i in 0..=deg` (by repeated
/// multiplication, as NumPy), of shape `x.shape + (deg + 1,)` and `x +
/// 0.0`'s dtype.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_array::polynomial::{polynomial::*, polyutils::*};
/// # fn main() -> gpu_array::Result<()> {
/// let v = polyvander(&array([2.0, 3.0])?, 2)?; // np.polynomial.polynomial.polyvander(x, 2): [[1, 2, 4], [1, 3, 9]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn polyvander(x: &Array, deg: usize) -> Result<Array> {
    let dt = inexact(x.dtype())?;
    let x1 = if x.ndim() == 0 {
        x.reshape([1])?
    } else {
        x.clone()
    };
    let flat = ascontiguousarray(&x1, Some(dt))?.reshape([x1.size() as isize])?;
    let mut shape = x1.shape().to_vec();
    shape.push(deg + 1);
    let out = Array::empty_on(x.device(), &shape, dt, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    vander_kernel((&flat).into(), (&out).into(), deg + 1).launch(&shape)?;
    Ok(out)
}

/// `numpy.polynomial.polynomial.polyval(x, c)` (`tensor=True`): `c[0] +
/// c[1] x + ...` by Horner's rule in NumPy's order (`c0 = c[-1] + x * 0`,
/// then `c0 = c[i] + c0 * x`, no fused multiply-add); integer and bool
/// coefficients become float64; the result dtype is the promotion of the
/// coefficients' and `x`'s. For `c` of shape `(n, m...)` every column is
/// evaluated at every point: the result has shape `m... + x.shape`.
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let y = gpu_array::polynomial::polynomial::polyval(&array([2.0])?, &array([-1.0, 0.0, 1.0])?)?; // c0 + c1 x + c2 x^2 at 2: [3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Empty `c` (NumPy's `IndexError`); allocation or launch failed.
pub fn polyval(x: &Array, c: &Array) -> Result<Array> {
    let c = if c.ndim() == 0 {
        c.reshape([1])?
    } else {
        c.clone()
    };
    if c.size() == 0 {
        return Err(Error::Index(
            "index -1 is out of bounds for axis 0 with size 0".into(),
        ));
    }
    let cdt = if c.dtype().is_integer() || c.dtype().is_bool() {
        DType::Float64
    } else {
        c.dtype()
    };
    let out = promote_types(cdt, x.dtype());
    if c.ndim() == 1 {
        let c = ascontiguousarray(&c, Some(cdt))?;
        return horner(&c, x, out, true);
    }
    let len = c.shape()[0];
    let cols: usize = c.shape()[1..].iter().product();
    let mut shape = c.shape()[1..].to_vec();
    shape.extend_from_slice(x.shape());
    let y = Array::empty_on(x.device(), &shape, out, Order::C)?;
    if y.size() == 0 {
        return Ok(y);
    }
    let cf = ascontiguousarray(&c, Some(cdt))?.reshape([(len * cols) as isize])?;
    let xf = ascontiguousarray(x, None)?.reshape([x.size() as isize])?;
    horner_tensor_kernel(
        (&xf).into(),
        (&cf).into(),
        (&y).into(),
        [len, cols, x.size()],
    )
    .launch(&shape)?;
    Ok(y)
}

/// `numpy.polynomial.polynomial.polycompanion(c)`: the companion matrix
/// of the (trimmed, float) series `c`, whose eigenvalues are its roots.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_array::polynomial::{polynomial::*, polyutils::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = polycompanion(&array([2.0, -3.0, 1.0])?)?; // polycompanion([2, -3, 1]): eigenvalues 1, 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// A series of degree below 1 ("Series must have maximum degree of at
/// least 1."); as [`polyutils::as_series`].
pub fn polycompanion(c: &Array) -> Result<Array> {
    let c = polyutils::as_series(&[c], true)?.remove(0);
    let len = c.shape()[0];
    if len < 2 {
        return Err(Error::Value(
            "Series must have maximum degree of at least 1.".into(),
        ));
    }
    let last = c.slice(&[AxisIndex::Index(len as isize - 1)])?;
    if len == 2 {
        let first = c.slice(&[AxisIndex::Index(0)])?;
        return ufunc::divide(&ufunc::negative(&first)?, &last)?.reshape([1, 1]);
    }
    let n = len - 1;
    let mat = Array::empty_on(c.device(), &[n, n], c.dtype(), Order::C)?;
    mat.fill(0i64)?;
    // The sub-diagonal, mat.reshape(-1)[n::n+1].
    let isz = c.itemsize() as isize;
    let flat = mat.reshape([(n * n) as isize])?;
    let sub = flat.slice(&[AxisIndex::Slice {
        start: Some(n as isize),
        stop: None,
        step: n as isize + 1,
    }])?;
    debug_assert_eq!(sub.strides(), &[(n as isize + 1) * isz]);
    sub.fill(1i64)?;
    let col = mat.slice(&[AxisIndex::FULL, AxisIndex::Index(-1)])?;
    let head = c.slice(&[AxisIndex::Slice {
        start: None,
        stop: Some(-1),
        step: 1,
    }])?;
    let q = ufunc::divide(&head, &last)?;
    ufunc::call(
        ufunc::get("subtract")?,
        &[Input::Array(&col), Input::Array(&q)],
        &UfuncOptions {
            out: vec![Some(&col)],
            ..Default::default()
        },
    )?;
    Ok(mat)
}
