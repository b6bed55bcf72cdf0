//! `numpy.polynomial.polyutils`: `as_series`, `trimseq`, `trimcoef`.
//! Trimming needs the coefficients' values: each trim copies one small
//! series back to the host.

use super::last_where;
use crate::array::Array;
use crate::dtype::common_type;
use crate::error::{Error, Result};
use crate::layout::AxisIndex;

fn head(a: &Array, len: usize) -> Result<Array> {
    a.slice(&[AxisIndex::Slice {
        start: None,
        stop: Some(len as isize),
        step: 1,
    }])
}

/// `polyutils.trimseq(seq)`: `seq` without its trailing zeros, keeping at
/// least one element (a view of `seq`).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_array::polynomial::{polynomial::*, polyutils::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = trimseq(&array([1.0, 2.0, 0.0, 0.0])?)?; // np.polynomial.polyutils.trimseq: [1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `seq` not 1-D; the copy back failed.
pub fn trimseq(seq: &Array) -> Result<Array> {
    if seq.ndim() != 1 {
        return Err(Error::Value("Coefficient array is not 1-d".into()));
    }
    if seq.shape()[0] == 0 {
        return Ok(seq.clone());
    }
    let last = last_where(seq, |z| z.re != 0.0 || z.im != 0.0)?;
    head(seq, last.map_or(1, |i| i + 1))
}

/// `polyutils.as_series(alist, trim)`: each array 1-D (0-d become 1-D),
/// trailing zeros trimmed with `trim`, all converted (copied) to their
/// `common_type` (float64 for integers).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_array::polynomial::{polynomial::*, polyutils::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([3.0])?);
/// let s = as_series(&[&a, &b], true)?; // polyutils.as_series([a, b]): float64 1-D arrays
/// # Ok(()) }
/// ```
///
/// # Errors
/// An empty array ("Coefficient array is empty"), one of more than one
/// dimension ("Coefficient array is not 1-d"), bool arrays (no common
/// type).
pub fn as_series(alist: &[&Array], trim: bool) -> Result<Vec<Array>> {
    let mut arrays = Vec::with_capacity(alist.len());
    for a in alist {
        let a = if a.ndim() == 0 {
            a.reshape([1])?
        } else {
            (*a).clone()
        };
        if a.size() == 0 {
            return Err(Error::Value("Coefficient array is empty".into()));
        }
        if a.ndim() != 1 {
            return Err(Error::Value("Coefficient array is not 1-d".into()));
        }
        arrays.push(if trim { trimseq(&a)? } else { a });
    }
    let dts: Vec<_> = arrays.iter().map(Array::dtype).collect();
    let dt = common_type(&dts)?;
    arrays.iter().map(|a| a.astype(dt)).collect()
}

/// `polyutils.trimcoef(c, tol)`: the series without its trailing
/// coefficients of magnitude at most `tol` (`[0]` when none is larger).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_array::polynomial::{polynomial::*, polyutils::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = trimcoef(&array([1.0, 1e-12, 0.0])?, 1e-9)?; // polyutils.trimcoef(c, 1e-9): [1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A negative `tol` ("tol must be non-negative"); as [`as_series`].
pub fn trimcoef(c: &Array, tol: f64) -> Result<Array> {
    if tol < 0.0 {
        return Err(Error::Value("tol must be non-negative".into()));
    }
    let c = as_series(&[c], true)?.remove(0);
    match last_where(&c, |z| z.norm() > tol)? {
        None => {
            let z = head(&c, 1)?.copy()?;
            z.fill(0i64)?;
            Ok(z)
        }
        Some(i) => head(&c, i + 1)?.copy(),
    }
}
