//! Matrix creation: `diag`, `diagflat`, `tri`, `tril`, `triu`.

use super::kernels::Gen;
use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Layout;

/// The `n x n` matrix (`n = v.size() + |k|`) with `v`'s elements, read in C
/// order, on diagonal `k`.
fn diag_matrix(v: &Array, k: isize) -> Result<Array> {
    let n = v.size() + k.unsigned_abs();
    let out = Array::empty_on(v.device(), &[n, n], v.dtype(), crate::layout::Order::C)?;
    if n == 0 {
        return Ok(out);
    }
    if v.size() == 0 {
        // All zeros: nothing for the raw operand to read.
        out.fill(0)?;
        return Ok(out);
    }
    Gen::Diag {
        v: v.into(),
        k: k as i64,
        side: n as i64,
    }
    .run(&out)?;
    Ok(out)
}

/// A diagonal, or a matrix with one (NumPy's `diag(v, k)`): for 1-D `v`, a
/// new 2-D array with `v` on diagonal `k` (`k > 0` above the main
/// diagonal, `k < 0` below) and zeros elsewhere; for 2-D `v`, diagonal `k`
/// of `v` as a 1-D strided view sharing `v`'s memory (NumPy returns a
/// read-only view; Cuprum cannot mark it read-only, so do not write to
/// it). A `k` beyond the matrix gives an empty view.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = diag(&array([1, 2, 3])?, 0)?; // a 3x3 matrix
/// let v = diag(&d, 0)?; // back to [1, 2, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// "Input must be 1- or 2-d." for other dimensions.
pub fn diag(v: &Array, k: isize) -> Result<Array> {
    match v.ndim() {
        1 => diag_matrix(v, k),
        2 => diagonal_view(v, k),
        _ => Err(Error::Value("Input must be 1- or 2-d.".into())),
    }
}

/// Diagonal `k` of the 2-D array `v` as a view.
fn diagonal_view(v: &Array, k: isize) -> Result<Array> {
    let (rows, cols) = (v.shape()[0], v.shape()[1]);
    let (s0, s1) = (v.strides()[0], v.strides()[1]);
    // Unsigned, so that `k = isize::MIN` has a magnitude.
    let (skip_rows, skip_cols) = if k >= 0 {
        (0, k.unsigned_abs())
    } else {
        (k.unsigned_abs(), 0)
    };
    let len = rows
        .saturating_sub(skip_rows)
        .min(cols.saturating_sub(skip_cols));
    let overflow = || Error::Value("diag: byte offsets beyond isize".into());
    let (offset, stride) = if len == 0 {
        (0, isize::try_from(v.itemsize()).map_err(|_| overflow())?)
    } else {
        // The first element lies inside the array: its offset fits.
        let at = |n: usize, s: isize| isize::try_from(n).ok().and_then(|n| n.checked_mul(s));
        let offset = at(skip_rows, s0)
            .zip(at(skip_cols, s1))
            .and_then(|(x, y)| x.checked_add(y))
            .ok_or_else(overflow)?;
        (offset, s0.checked_add(s1).ok_or_else(overflow)?)
    };
    let start = v
        .layout()
        .offset()
        .checked_add(offset)
        .ok_or_else(overflow)?;
    Ok(v.with_layout(Layout::try_new(vec![len], vec![stride], start)?, v.dtype()))
}

/// A 2-D array with the flattened input on diagonal `k` (NumPy's
/// `diagflat(v, k)`): `v` is read in C order whatever its shape and
/// strides.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = diagflat(&array([[1, 2], [3, 4]])?, 1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the launch failed.
pub fn diagflat(v: &Array, k: isize) -> Result<Array> {
    diag_matrix(v, k)
}

/// An `n x m` array (`m` `None`: `n`) with ones at and below diagonal `k`
/// and zeros above (NumPy's `tri(N, M, k, dtype)`; NumPy's default dtype
/// is float64).
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = tri(3, None, 0, DType::Float64)?; // ones on and below the diagonal
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or the launch failed.
pub fn tri(n: usize, m: Option<usize>, k: isize, dtype: DType) -> Result<Array> {
    let m = m.unwrap_or(n);
    let out = Array::empty([n, m], dtype)?;
    Gen::Eye {
        tri: true,
        k: k as i64,
        m: m as i64,
    }
    .run(&out)?;
    Ok(out)
}

fn triangle(m: &Array, k: isize, lower: bool, op: &str) -> Result<Array> {
    let (rows, cols, src) = match m.ndim() {
        0 => {
            return Err(Error::Value(format!(
                "{op}: the input must have at least 1 dimension"
            )));
        }
        // NumPy's `where(tri(n), m, 0)` broadcasts a 1-D input over rows.
        1 => {
            let n = m.shape()[0];
            (n, n, m.broadcast_to(&[n, n])?)
        }
        d => (m.shape()[d - 2], m.shape()[d - 1], m.clone()),
    };
    let out = Array::empty_on(
        src.device(),
        src.shape(),
        src.dtype(),
        crate::layout::Order::C,
    )?;
    Gen::Tril {
        lower,
        x: (&src).into(),
        k: k as i64,
        nrows: rows as i64,
        ncols: cols as i64,
    }
    .run(&out)?;
    Ok(out)
}

/// The lower triangle of the last two axes (NumPy's `tril(m, k)`): a new
/// C-ordered array of `m`'s shape and dtype, with the elements above
/// diagonal `k` zeroed; leading axes are a batch. A 1-D `m` of length `n`
/// gives the `n x n` lower triangle of its rows repeated, as NumPy's.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = ones((3, 3), DType::Int64)?;
/// let l = tril(&m, -1)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d input (NumPy fails inside `tri`).
pub fn tril(m: &Array, k: isize) -> Result<Array> {
    triangle(m, k, true, "tril")
}

/// The upper triangle of the last two axes (NumPy's `triu(m, k)`): the
/// elements below diagonal `k` zeroed; as [`tril`] otherwise.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let m = ones((3, 3), DType::Int64)?;
/// let u = triu(&m, 0)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 0-d input.
pub fn triu(m: &Array, k: isize) -> Result<Array> {
    triangle(m, k, false, "triu")
}
