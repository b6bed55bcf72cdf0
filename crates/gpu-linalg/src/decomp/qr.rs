//! `linalg.qr` on `geqrf` and `orgqr`/`ungqr`; stacks of small matrices
//! on cuBLAS's `geqrfBatched` and the crate's batched `orgqr` kernel (one
//! launch each for the whole stack).

use gpu_array::creation::triu;
use gpu_array::{Array, AxisIndex, Order};

use crate::error::Result;
use crate::errstate::DevInfo;
use crate::kernels::launch_orgqr;
use crate::raw::blas;
use crate::raw::solver::{geqrf, orgqr};
use crate::util::{assert_stacked_2d, batch_count, column_major, linalg_dtype, nth, pointer_array};

/// Stacks of at least two matrices of at most this many rows form `Q` with
/// the crate's batched kernel (one block per matrix), and factor with
/// `geqrfBatched` when they are not wide; larger ones take one cuSOLVER
/// call per matrix.
const SMALL_BATCHED: usize = 32;

/// NumPy's `mode` of `qr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum QrMode {
    /// `Q` `(..., M, K)` and `R` `(..., K, N)`, `K = min(M, N)`.
    #[default]
    Reduced,
    /// `Q` `(..., M, M)` and `R` `(..., M, N)`.
    Complete,
    /// `R` `(..., K, N)` only.
    R,
    /// LAPACK's `(h, tau)`: `h` `(..., N, M)` holds `R` and the Householder
    /// vectors (transposed, as NumPy returns it), `tau` `(..., K)`.
    Raw,
}

// NumPy's names; its deprecated 'full' is 'reduced' (as in NumPy), its
// deprecated 'economic' is not offered.
gpu_array::from_numpy_str! {
    QrMode, crate::Error,
    else: |s| crate::error::value(format!("Unrecognized mode '{s}'")),
    {
        "reduced" => QrMode::Reduced,
        "complete" => QrMode::Complete,
        "r" => QrMode::R,
        "raw" => QrMode::Raw,
        "full" => QrMode::Reduced,
    }
}

/// The result of [`qr`], by mode.
#[derive(Debug, Clone)]
pub enum QrResult {
    /// `Reduced` and `Complete`.
    QR {
        /// The orthonormal factor.
        q: Array,
        /// The upper-triangular factor.
        r: Array,
    },
    /// `R`.
    R(Array),
    /// `Raw`.
    Raw {
        /// Factors in LAPACK's layout, transposed.
        h: Array,
        /// Householder scalars.
        tau: Array,
    },
}

fn rows(x: &Array, stop: usize) -> Result<Array> {
    x.slice(&[
        AxisIndex::Ellipsis,
        AxisIndex::Slice {
            start: None,
            stop: Some(stop as isize),
            step: 1,
        },
        AxisIndex::FULL,
    ])
}

/// NumPy's `linalg.qr(a, mode)`: `A = Q R` for each matrix of the stack.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let f = qr(&a, QrMode::Reduced)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two dimensions; float16.
pub fn qr(a: &Array, mode: QrMode) -> Result<QrResult> {
    assert_stacked_2d(a)?;
    let dt = linalg_dtype(a.dtype())?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let k = m.min(n);
    let batch = batch_count(a.shape());
    let bshape = &a.shape()[..nd - 2];
    // Column-major A: a C array (..., n, m).
    let buf = column_major(a, dt)?;
    let mut tshape = bshape.to_vec();
    tshape.push(k);
    let tau = Array::empty_on(a.device(), &tshape, dt, Order::C)?;
    let stream = buf.stream();
    let item = dt.itemsize();
    let info = DevInfo::new(a.device(), batch)?;
    let small = batch >= 2 && m <= SMALL_BATCHED;
    if buf.size() > 0 && k > 0 && small && m >= n {
        // One launch for the stack. geqrfBatched is used for tall and
        // square matrices only, the shapes its documentation and users
        // (PyTorch's batched geqrf) exercise.
        let ap = pointer_array(&buf, m * n, batch)?;
        let tp = pointer_array(&tau, k, batch)?;
        blas::geqrf_batched(
            &stream,
            dt,
            (m as i64, n as i64),
            (ap.data_ptr(), m as i64),
            tp.data_ptr(),
            batch as i64,
        )?;
    } else if buf.size() > 0 && k > 0 {
        for i in 0..batch {
            geqrf(
                &stream,
                dt,
                m as i64,
                n as i64,
                nth(buf.data_ptr(), i, m * n, item),
                m as i64,
                nth(tau.data_ptr(), i, k, item),
                info.ptr(i),
            )?;
        }
    }
    if mode == QrMode::Raw {
        return Ok(QrResult::Raw { h: buf, tau });
    }
    // R from the upper triangle (triu copies, before orgqr overwrites).
    let full_r = buf.swapaxes(-1, -2)?;
    let r = if mode == QrMode::Complete {
        triu(&full_r, 0)?
    } else {
        triu(&rows(&full_r, k)?, 0)?
    };
    if mode == QrMode::R {
        return Ok(QrResult::R(r));
    }
    let qcols = if mode == QrMode::Complete { m } else { k };
    // Column-major Q (m x qcols) as a C array (..., qcols, m), its first k
    // columns holding the reflectors.
    let qbuf = if qcols <= n {
        buf.clone()
    } else {
        let mut s = bshape.to_vec();
        s.extend([qcols, m]);
        let q = gpu_array::creation::zeros(&s, dt)?;
        rows(&q, n)?.copy_from(&buf)?;
        q
    };
    let per = qbuf.shape()[qbuf.ndim() - 2] * m;
    if qbuf.size() > 0 && qcols > 0 && small {
        launch_orgqr(
            &stream,
            (m as i64, qcols as i64, k as i64),
            (&qbuf, per as i64, m as i64),
            &tau,
            batch,
        )?;
    } else if qbuf.size() > 0 && qcols > 0 {
        for i in 0..batch {
            orgqr(
                &stream,
                dt,
                (m as i64, qcols as i64, k as i64),
                nth(qbuf.data_ptr(), i, per, item),
                m as i64,
                nth(tau.data_ptr(), i, k, item),
                info.ptr(i),
            )?;
        }
    }
    let q = rows(&qbuf, qcols)?.swapaxes(-1, -2)?;
    Ok(QrResult::QR { q, r })
}
