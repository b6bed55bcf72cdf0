//! SciPy's `scipy.sparse.linalg.norm`: matrix norms of a sparse matrix, and
//! vector norms of its rows or columns.

use gpu_array::{Array, DType, Error, Result, stats, ufunc};

use crate::{CsrMatrix, SpMatrix};

/// The `ord` of [`norm`] (SciPy's `ord` argument; `None` there is
/// `Option::None` here: Frobenius for the matrix, 2 for vectors).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NormOrd {
    /// `'fro'`: the Frobenius norm (matrices only).
    Fro,
    /// `inf`: the largest absolute row sum, or the largest `|a|` of each
    /// row or column.
    Inf,
    /// `-inf`: the smallest of those.
    NegInf,
    /// A number `p`: 1 and -1 (largest and smallest absolute column sum)
    /// for matrices; any `p` for vectors (0 counts the nonzero entries).
    P(f64),
}

/// SciPy's `norm(x, ord=None, axis=None)`: with `axis` `None`, the matrix
/// norm of `ord` (`None` and `Fro`: Frobenius; `Inf`, `NegInf`: largest,
/// smallest absolute row sum; `P(1.0)`, `P(-1.0)`: the same of columns;
/// `P(2.0)`: the largest singular value, by [`svds`](super::svds) with
/// `k = 1` as SciPy);
/// with an axis (0 or -2: each column, 1 or -1: each row), the vector
/// norm of `ord` of each (a 1-D array). Duplicates count summed; the
/// result is a device array (0-d for a matrix norm) of the real dtype.
///
/// ```no_run
/// use gpu_sparse::linalg::{NormOrd, norm};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::CsrMatrix::from_dense(&gpu_array::creation::array([[3.0, 0.0], [-4.0, 1.0]])?)?;
/// let fro = norm(&a, None, None)?; // sqrt(26)
/// let inf = norm(&a, Some(NormOrd::Inf), None)?; // 5
/// let cols = norm(&a, None, Some(0))?; // [5, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "Invalid norm order for matrices." (and for vectors), `Fro`
/// with an axis; the matrix -2-norm is `Unsupported` (SciPy's
/// `NotImplementedError`); the 2-norm's [`svds`](super::svds) errors (a
/// matrix with a side of 1 has no `k = 1 < min(A.shape)`, as in SciPy).
pub fn norm(x: &dyn SpMatrix, ord: Option<NormOrd>, axis: Option<isize>) -> Result<Array> {
    if axis.is_none() && ord == Some(NormOrd::P(2.0)) {
        return two_norm(x);
    }
    let a = x.tocsr()?.abs()?;
    match axis {
        None => matrix_norm(&a, ord),
        Some(ax) => {
            if !(-2..=1).contains(&ax) {
                return Err(Error::Value(format!("Invalid axis {ax} for a matrix")));
            }
            vector_norms(&a, ord, ax)
        }
    }
}

fn real(a: &Array) -> Result<Array> {
    let d = a.dtype();
    if d.is_floating() {
        Ok(a.clone())
    } else {
        a.astype(DType::Float64)
    }
}

/// A matrix norm of `a` (the absolute values, canonical).
fn matrix_norm(a: &CsrMatrix, ord: Option<NormOrd>) -> Result<Array> {
    match ord {
        None | Some(NormOrd::Fro) => {
            let v = real(a.data())?;
            let s = gpu_array::math::sum(&ufunc::multiply(&v, &v)?, ())?;
            ufunc::sqrt(&s)
        }
        Some(NormOrd::Inf) => extreme(&a.sum(Some(1))?, true),
        Some(NormOrd::NegInf) => extreme(&a.sum(Some(1))?, false),
        Some(NormOrd::P(1.0)) => extreme(&a.sum(Some(0))?, true),
        Some(NormOrd::P(-1.0)) => extreme(&a.sum(Some(0))?, false),
        Some(NormOrd::P(-2.0)) => Err(Error::Unsupported(
            "the sparse matrix -2-norm (the smallest singular value; SciPy raises \
             NotImplementedError too)"
                .into(),
        )),
        Some(_) => Err(Error::Value("Invalid norm order for matrices.".into())),
    }
}

/// The largest (`max`) or smallest entry of the 1-D `v`, 0-d.
fn extreme(v: &Array, max: bool) -> Result<Array> {
    let v = real(v)?;
    if v.size() == 0 {
        return Err(Error::Value(
            "zero-size array to reduction operation maximum which has no identity".into(),
        ));
    }
    if max {
        stats::amax(&v, ())
    } else {
        stats::amin(&v, ())
    }
}

/// The vector norms of the rows (`axis` 1, -1) or columns (0, -2) of `a`
/// (the absolute values, canonical).
fn vector_norms(a: &CsrMatrix, ord: Option<NormOrd>, axis: isize) -> Result<Array> {
    let ax = Some(axis);
    match ord {
        None => ufunc::sqrt(&real(&a.power(2)?.sum(ax)?)?),
        Some(NormOrd::Inf) => real(&a.max(ax)?),
        Some(NormOrd::NegInf) => real(&a.min(ax)?),
        Some(NormOrd::P(0.0)) => real(&a.ne_scalar(0)?.sum(ax)?),
        Some(NormOrd::P(1.0)) => real(&a.sum(ax)?),
        Some(NormOrd::P(2.0)) => ufunc::sqrt(&real(&a.power(2)?.sum(ax)?)?),
        Some(NormOrd::P(p)) if p.is_finite() && p != 0.0 => {
            let s = real(&a.power(p)?.sum(ax)?)?;
            ufunc::power(&s, 1.0 / p)
        }
        Some(NormOrd::Fro) => Err(Error::Value("Invalid norm order 'fro' for vectors".into())),
        Some(_) => Err(Error::Value("Invalid norm order for vectors.".into())),
    }
}

/// The matrix 2-norm: the largest singular value, SciPy's
/// `svds(x, k=1)[1][0]` (no singular vectors), as a 0-d array.
fn two_norm(x: &dyn SpMatrix) -> Result<Array> {
    let op = super::aslinearoperator(x)?;
    let o = super::SvdsOptions {
        return_singular_vectors: false,
        ..Default::default()
    };
    let s = super::svds(&op, 1, &o)?.s;
    s.reshape(())
}
