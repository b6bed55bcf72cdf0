//! `linalg.eig` and `eigvals` of general matrices on `geev`
//! (`cusolverDnXgeev`, CUDA 12.6 and later).

use gpu_array::{Array, Order};

use crate::error::{Error, Result};
use crate::errstate::DevInfo;
use crate::raw::solver::geev;
use crate::util::{assert_stacked_square, batch_count, column_major, linalg_dtype, nth};

fn run(a: &Array, vectors: bool) -> Result<(Array, Option<Array>)> {
    assert_stacked_square(a)?;
    let real = linalg_dtype(a.dtype())?;
    let dt = real
        .complex_dtype()
        .expect("linalg dtypes are floating or complex");
    let n = a.shape()[a.ndim() - 1];
    let batch = batch_count(a.shape());
    let bshape = &a.shape()[..a.ndim() - 2];
    let mut wshape = bshape.to_vec();
    wshape.push(n);
    let w = Array::empty_on(a.device(), &wshape, dt, Order::C)?;
    // Column-major A (the C copy of its transpose): the transpose's
    // eigenvectors would be A's left ones.
    let buf = column_major(a, dt)?;
    let vr = if vectors {
        let mut s = bshape.to_vec();
        s.extend([n, n]);
        Array::empty_on(a.device(), &s, dt, Order::C)?
    } else {
        // Not referenced with jobvr = NOVECTOR (LAPACK's contract), but
        // one full n x n matrix, shared by the stack, keeps a library that
        // writes it anyway (as gesvdp's NOVECTOR mode was seen to) inside
        // the allocation.
        Array::empty_on(a.device(), &[n.max(1), n.max(1)], dt, Order::C)?
    };
    if batch > 0 && n > 0 {
        let info = DevInfo::new(a.device(), batch)?;
        let stream = buf.stream();
        let item = dt.itemsize();
        for i in 0..batch {
            let v_i = if vectors {
                nth(vr.data_ptr(), i, n * n, item)
            } else {
                vr.data_ptr()
            };
            geev(
                &stream,
                dt,
                vectors,
                n as i64,
                (nth(buf.data_ptr(), i, n * n, item), n as i64),
                nth(w.data_ptr(), i, n, item),
                (v_i, n as i64),
                info.ptr(i),
            )?;
        }
        info.check(|count| Error::NoConvergence {
            what: "Eigenvalues",
            count,
        })?;
    }
    // VR column-major, read in C order, is VR^T.
    let v = if vectors {
        Some(vr.swapaxes(-1, -2)?)
    } else {
        None
    };
    Ok((w, v))
}

/// NumPy's `linalg.eig`: eigenvalues and right eigenvectors (columns, unit
/// norm, largest component real) of each general square matrix. As CuPy's,
/// the results are complex for real input too (NumPy makes them real when
/// every eigenvalue is, which would need a host round trip).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let (w, v) = eig(&a)?; // complex in general
/// # Ok(()) }
/// ```
///
/// # Errors
/// Not square; float16; "Eigenvalues did not converge" under the raise
/// setting; a cuSOLVER without `cusolverDnXgeev` (before CUDA 12.6).
pub fn eig(a: &Array) -> Result<(Array, Array)> {
    let (w, v) = run(a, true)?;
    Ok((w, v.expect("vectors computed")))
}

/// NumPy's `linalg.eigvals`: the eigenvalues of [`eig`] only (complex).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let w = eigvals(&a)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`eig`].
pub fn eigvals(a: &Array) -> Result<Array> {
    Ok(run(a, false)?.0)
}
