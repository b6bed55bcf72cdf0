//! Parts of `scipy.linalg` (CuPy's `cupyx.scipy.linalg`): triangular
//! solves on cuBLAS `trsm`, LU factorizations on cuSOLVER (stacks of small
//! square matrices on cuBLAS's batched LU, one launch), and the special
//! matrices ([`special`]).

pub mod special;

pub use special::{
    ConvMode, block_diag, circulant, companion, convolution_matrix, dft, fiedler,
    fiedler_companion, hadamard, hankel, helmert, hilbert, leslie, toeplitz,
};

/// `scipy.linalg.kron`, `tri`, `tril`, `triu`: the same functions as
/// NumPy's (gpu-linalg's and gpu-array's).
pub use crate::products::kron;
pub use gpu_array::creation::{tri, tril, triu};

use gpu_array::{Array, DType, Order, ufunc};

use crate::decomp::{getrf_small_stack, lu_solve_batched, small_lu_stack};
use crate::error::{Error, Result, value};
use crate::errstate::DevInfo;
use crate::raw::blas::{self, Trsm, trsm};
use crate::raw::solver::getrf;
use crate::util::{
    batch_count, column_major, fresh, linalg_common, linalg_dtype, nth, pointer_array,
};

/// SciPy's `trans` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Trans {
    /// `a x = b` (`0`, `'N'`).
    #[default]
    N,
    /// `a^T x = b` (`1`, `'T'`).
    T,
    /// `a^H x = b` (`2`, `'C'`).
    C,
}

// SciPy's spellings, in either case, and the numbers as strings.
gpu_array::from_numpy_str! {
    Trans, crate::Error,
    key: |s| s.to_ascii_uppercase(),
    else: |s| value(format!("trans must be 0, 1, 2, 'N', 'T' or 'C' (got '{s}')")),
    { "N" => Trans::N, "0" => Trans::N, "T" => Trans::T, "1" => Trans::T, "C" => Trans::C, "2" => Trans::C }
}

fn check_rhs(op: &str, n: usize, b: &Array) -> Result<()> {
    if (b.ndim() != 1 && b.ndim() != 2) || b.shape()[0] != n {
        return Err(value(format!(
            "{op}: shapes of a {} and b {} are incompatible",
            gpu_array::layout::fmt_shape(&[n, n]),
            gpu_array::layout::fmt_shape(b.shape())
        )));
    }
    Ok(())
}

/// Column-major right-hand sides `(K, M)` as a C array, and whether `b`
/// was a vector.
fn rhs_columns(b: &Array, dt: DType) -> Result<(Array, bool)> {
    let vector = b.ndim() == 1;
    let b2 = if vector {
        b.reshape([-1, 1])?
    } else {
        b.clone()
    };
    Ok((column_major(&b2, dt)?, vector))
}

fn finish(x_cols: Array, vector: bool) -> Result<Array> {
    let x = x_cols.swapaxes(-1, -2)?;
    Ok(if vector { x.reshape([-1])? } else { x })
}

/// SciPy's `solve_triangular(a, b, trans, lower, unit_diagonal)`: solves
/// `op(a) x = b` for a square triangular `a` (only its `lower` or upper
/// triangle is read) on cuBLAS `trsm`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[2.0, 0.0], [1.0, 1.0]])?;
/// // scipy.linalg.solve_triangular(a, b, lower=True): [1, 2]
/// let x = solve_triangular(&a, &array([2.0, 3.0])?, Trans::N, true, false)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not square 2-D, `b` of the wrong length; float16.
pub fn solve_triangular(
    a: &Array,
    b: &Array,
    trans: Trans,
    lower: bool,
    unit_diagonal: bool,
) -> Result<Array> {
    if a.ndim() != 2 || a.shape()[0] != a.shape()[1] {
        return Err(value("expected square matrix"));
    }
    let n = a.shape()[0];
    check_rhs("solve_triangular", n, b)?;
    let dt = linalg_common(&[a.dtype(), b.dtype()])?;
    let (x, vector) = rhs_columns(b, dt)?;
    if x.size() == 0 {
        return finish(x, vector);
    }
    // The C copy of a is a^T column-major (a^H for trans C, from conj(a)):
    // its triangle is the other one, and a's own op is its transpose.
    let (stored, op) = match trans {
        Trans::N => (fresh(a, dt)?, 1),
        Trans::T => (fresh(a, dt)?, 0),
        Trans::C => {
            let c = if dt.is_complex() {
                ufunc::conj(&a.astype(dt)?)?
            } else {
                fresh(a, dt)?
            };
            (c, 0)
        }
    };
    let k = x.shape()[0];
    trsm(
        &x.stream(),
        dt,
        Trsm {
            left: true,
            upper: lower,
            trans: op,
            unit_diagonal,
        },
        (n as i64, k as i64),
        stored.data_ptr(),
        n as i64,
        x.data_ptr(),
        n as i64,
    )?;
    finish(x, vector)
}

/// SciPy's `lu_factor(a)` for a matrix or a stack `(..., M, N)` (SciPy
/// 1.15's batching): `(lu, piv)` with `L` (unit diagonal, below) and `U`
/// in one matrix per input matrix and 0-based int32 pivots `(..., K)`
/// (row `i` was interchanged with row `piv[i]`).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[1.0, 2.0], [3.0, 4.0]])?;
/// let (lu, piv) = lu_factor(&a)?; // scipy.linalg.lu_factor(a): piv [1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` of fewer than two dimensions; float16; "Singular matrix" under the
/// raise setting (SciPy warns instead).
pub fn lu_factor(a: &Array) -> Result<(Array, Array)> {
    if a.ndim() < 2 {
        return Err(value("expected matrix"));
    }
    let dt = linalg_dtype(a.dtype())?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch = batch_count(a.shape());
    let mut pshape = a.shape()[..nd - 2].to_vec();
    pshape.push(k);
    // Column-major matrices: a C array (..., n, m).
    let buf = column_major(a, dt)?;
    let lu = buf.swapaxes(-1, -2)?;
    if buf.size() == 0 {
        let piv = Array::empty_on(a.device(), &pshape, DType::Int32, Order::C)?;
        return Ok((lu, piv));
    }
    if m == n && small_lu_stack(batch, n) {
        // Stacks of small square matrices: cuBLAS's batched LU in one
        // launch (1-based int32 pivots).
        let (_, ipiv, info) = getrf_small_stack(&buf, n, batch, &pshape)?;
        info.check(|info| Error::Singular { info })?;
        return Ok((lu, ufunc::subtract(&ipiv, 1i64)?.astype(DType::Int32)?));
    }
    let info = DevInfo::new(a.device(), batch)?;
    let stream = buf.stream();
    let ipiv = Array::empty_on(a.device(), &pshape, DType::Int64, Order::C)?;
    for i in 0..batch {
        getrf(
            &stream,
            dt,
            m as i64,
            n as i64,
            nth(buf.data_ptr(), i, m * n, dt.itemsize()),
            m as i64,
            nth(ipiv.data_ptr(), i, k, 8),
            info.ptr(i),
        )?;
    }
    info.check(|info| Error::Singular { info })?;
    let piv = ufunc::subtract(&ipiv, 1i64)?.astype(DType::Int32)?;
    Ok((lu, piv))
}

/// SciPy's `lu_solve((lu, piv), b, trans)` with the factors of
/// [`lu_factor`]. For a single `lu` `(N, N)`, `b` is `(N,)` or `(N, K)`;
/// for a stack `lu` `(..., N, N)` with `piv` `(..., N)`, `b` is a stack of
/// vectors `(..., N)` (as many dimensions as `piv`) or of matrices
/// `(..., N, K)`, its batch dimensions broadcast to `lu`'s.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[1.0, 2.0], [3.0, 4.0]])?;
/// let (lu, piv) = lu_factor(&a)?;
/// let x = lu_solve(&lu, &piv, &array([5.0, 11.0])?, Trans::N)?; // scipy.linalg.lu_solve((lu, piv), b): [1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes; float16.
pub fn lu_solve(lu: &Array, piv: &Array, b: &Array, trans: Trans) -> Result<Array> {
    let nd = lu.ndim();
    if nd < 2 || lu.shape()[nd - 1] != lu.shape()[nd - 2] {
        return Err(value("expected square matrix"));
    }
    let n = lu.shape()[nd - 1];
    let bshape = &lu.shape()[..nd - 2];
    if piv.ndim() != nd - 1 || piv.shape()[..nd - 2] != *bshape || piv.shape()[nd - 2] != n {
        return Err(value("lu_solve: piv must have the length of lu"));
    }
    if nd == 2 {
        check_rhs("lu_solve", n, b)?;
    }
    let dt = linalg_common(&[lu.dtype(), b.dtype()])?;
    // A stack of vectors has the dimensions of piv.
    let vector = b.ndim() == nd - 1;
    let b2 = if vector {
        b.expand_dims(&[-1])?
    } else {
        b.clone()
    };
    if b2.ndim() != nd || b2.shape()[nd - 2] != n {
        return Err(value(format!(
            "lu_solve: shapes of lu {} and b {} are incompatible",
            gpu_array::layout::fmt_shape(lu.shape()),
            gpu_array::layout::fmt_shape(b.shape())
        )));
    }
    let k = b2.shape()[nd - 1];
    let mut full = bshape.to_vec();
    full.extend([n, k]);
    let b2 = b2.broadcast_to(&full)?;
    // Column-major right-hand sides: a C array (..., k, n).
    let x = column_major(&b2, dt)?;
    let done = |x: Array| -> Result<Array> {
        let x = x.swapaxes(-1, -2)?;
        Ok(if vector {
            x.slice(&[
                gpu_array::AxisIndex::Ellipsis,
                gpu_array::AxisIndex::Index(0),
            ])?
        } else {
            x
        })
    };
    if x.size() == 0 || n == 0 {
        return done(x);
    }
    let batch = batch_count(lu.shape());
    let t = match trans {
        Trans::N => 0,
        Trans::T => 1,
        Trans::C => 2,
    };
    // Column-major factors: the C copy of lu's transpose.
    let factors = column_major(lu, dt)?;
    if small_lu_stack(batch, n) {
        let ap = pointer_array(&factors, n * n, batch)?;
        let bp = pointer_array(&x, n * k, batch)?;
        let ipiv = ufunc::add(&piv.astype(DType::Int32)?, 1i64)?.astype(DType::Int32)?;
        let nn = n as i64;
        blas::getrs_batched(
            &x.stream(),
            dt,
            t,
            (nn, k as i64),
            (ap.data_ptr(), nn),
            ipiv.data_ptr(),
            (bp.data_ptr(), nn),
            batch as i64,
        )?;
        return done(x);
    }
    let ipiv = ufunc::add(&piv.astype(DType::Int64)?, 1i64)?;
    lu_solve_batched(&factors, &ipiv, &x, n, k, t)?;
    done(x)
}

/// SciPy's `lu(a)`: `(p, l, u)` with `a = p @ l @ u`, `p` a permutation
/// matrix, `l` unit lower-trapezoidal `(M, K)`, `u` upper-trapezoidal
/// `(K, N)`. Reads the pivots back to build `p` (as SciPy returns it).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[1.0, 2.0], [3.0, 4.0]])?;
/// let (p, l, u) = lu(&a)?; // scipy.linalg.lu(a): a == p @ l @ u
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lu_factor`].
pub fn lu(a: &Array) -> Result<(Array, Array, Array)> {
    if a.ndim() != 2 {
        return Err(value("expected matrix"));
    }
    let (lu, piv) = lu_factor(a)?;
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let k = m.min(n);
    let dt = lu.dtype();
    let piv: Vec<i32> = piv.to_vec()?;
    let mut perm: Vec<usize> = (0..m).collect();
    for (i, &p) in piv.iter().enumerate() {
        let p = usize::try_from(p)
            .ok()
            .filter(|&p| p < m)
            .ok_or_else(|| Error::LinAlg(format!("lu: invalid pivot {p} at {i}")))?;
        perm.swap(i, p);
    }
    // Row i of P^T a is row perm[i] of a: P[perm[i], i] = 1.
    let mut host = vec![0f64; m * m];
    for (i, &r) in perm.iter().enumerate() {
        host[r * m + i] = 1.0;
    }
    let p = Array::from_slice(&host, &[m, m])?.astype(dt.real_dtype())?;
    let col = |x: &Array, stop: usize, rows: bool| -> Result<Array> {
        let full = gpu_array::AxisIndex::FULL;
        let cut = gpu_array::AxisIndex::Slice {
            start: None,
            stop: Some(stop as isize),
            step: 1,
        };
        Ok(if rows {
            x.slice(&[cut, full])?
        } else {
            x.slice(&[full, cut])?
        })
    };
    let l = gpu_array::creation::tril(&col(&lu, k, false)?, -1)?;
    let eye = gpu_array::creation::eye(m, Some(k), 0, dt)?;
    let l = ufunc::add(&l, &eye)?;
    let u = gpu_array::creation::triu(&col(&lu, k, true)?, 0)?;
    Ok((p, l, u))
}
