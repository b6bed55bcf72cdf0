//! Direct solvers (SciPy's `scipy.sparse.linalg._dsolve`):
//! [`spsolve_triangular`] on cuSPARSE's SpSV/SpSM with the analysis cached
//! on the matrix, [`spsolve`] and [`factorized`] on cuSOLVER's sparse QR,
//! [`spilu`] on cuSPARSE's ILU(0); [`splu`] has no GPU route.

use gpu_array::{Array, DType, Error, Result, creation};

use super::LinearOperator;
use crate::base::contiguous_as;
use crate::cusolver_sp::csrlsvqr;
use crate::cusparse::{CompressedView, MatDescr, SolveArrays, csrilu0, value_type};
use crate::{CsrMatrix, SpMatrix};

/// A shape as Python prints a tuple: `(3,)`, `(3, 2)`.
fn py_shape(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        s => format!(
            "({})",
            s.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The dtype a direct solve computes in, as SciPy's
/// `promote_types(promote_types(A.dtype, float32), b.dtype)`: float32,
/// float64, complex64 or complex128 (integers solve in float64).
fn solve_dtype(a: DType, b: DType) -> Result<DType> {
    let d = gpu_array::dtype::promote_types(gpu_array::dtype::promote_types(a, DType::Float32), b);
    value_type(d).map_err(|_| {
        Error::DType(format!(
            "the sparse direct solvers do not take dtype {d} (operands {a} and {b})"
        ))
    })?;
    Ok(d)
}

/// The CSR arrays a triangular solve of `a` runs on, in `dtype`:
/// canonical (sorted, duplicates summed), with SciPy's check of the
/// diagonal unless it is taken as unit (one reduction, one host read).
fn triangular_arrays(a: &CsrMatrix, dtype: DType, unit_diagonal: bool) -> Result<SolveArrays> {
    if !unit_diagonal {
        let zero = a.diagonal(0)?.equal(0)?;
        if gpu_array::logic::any(&zero, ())?.item::<bool>(&[])? {
            return Err(Error::LinAlg(
                "A is singular: zero entry on diagonal.".into(),
            ));
        }
    }
    let c = a.c.canonical()?;
    Ok((contiguous_as(&c.data, dtype)?, c.indices, c.indptr))
}

/// SciPy's `spsolve_triangular(A, b, lower, unit_diagonal=False)`: the
/// solution `x` of `A x = b` for triangular `A`, `b` 1-D (cuSPARSE's SpSV)
/// or 2-D, one solve per column (SpSM). Only the triangle named is read
/// (`lower`: on and below the diagonal), as SciPy does; `unit_diagonal`
/// takes the diagonal as ones without reading it. The result's dtype is
/// SciPy's, `promote(promote(A, float32), b)`.
///
/// cuSPARSE's analysis of the matrix (its level sets) and the buffer it
/// fills are cached on `A` per (triangle, unit diagonal, dtype, stream,
/// number of columns): the first solve pays the analysis and SciPy's
/// check of the diagonal, every later one only `cusparseSpSV_solve` (CuPy
/// analyses on every call, cupy/cupy#7052). The check of the diagonal is
/// made with the analysis: values changed in place after it are not
/// checked again. [`CsrMatrix::cached_solves`] says how many analyses a
/// matrix keeps.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_sparse::{CsrMatrix, linalg::spsolve_triangular};
/// # fn main() -> gpu_array::Result<()> {
/// let l = CsrMatrix::from_dense(&gpu_array::creation::array([[2.0, 0.0], [1.0, 4.0]])?)?;
/// let b = Array::from_slice(&[2.0f64, 9.0], &[2])?;
/// let x = spsolve_triangular(&l, &b, true, false)?; // [1, 2]
/// let x2 = spsolve_triangular(&l, &b, true, false)?; // reuses the analysis
/// assert_eq!(l.cached_solves(), 1);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: "A must be a square matrix but its shape is (m, n).", "b must
/// have 1 or 2 dims but its shape is ...", "The size of the dimensions of
/// A must be equal to the size of the first dimension of b ...";
/// [`Error::LinAlg`] "A is singular: zero entry on diagonal." (SciPy's
/// `LinAlgError`) for a zero or missing diagonal entry unless
/// `unit_diagonal`; a dtype cuSPARSE does not take; arrays on another
/// device; cuSPARSE's failures.
pub fn spsolve_triangular(
    a: &CsrMatrix,
    b: &Array,
    lower: bool,
    unit_diagonal: bool,
) -> Result<Array> {
    let (m, n) = a.shape();
    if m != n {
        return Err(Error::Value(format!(
            "A must be a square matrix but its shape is ({m}, {n})."
        )));
    }
    if b.ndim() != 1 && b.ndim() != 2 {
        return Err(Error::Value(format!(
            "b must have 1 or 2 dims but its shape is {}.",
            py_shape(b.shape())
        )));
    }
    if b.shape()[0] != m {
        return Err(Error::Value(format!(
            "The size of the dimensions of A must be equal to the size of the first \
             dimension of b but the shape of A is ({m}, {n}) and the shape of b is {}.",
            py_shape(b.shape())
        )));
    }
    a.data().check_same_device(b, "spsolve_triangular")?;
    let dtype = solve_dtype(a.dtype(), b.dtype())?;
    if b.size() == 0 {
        return creation::zeros(b.shape().to_vec(), dtype);
    }
    let b = contiguous_as(b, dtype)?;
    if a.nnz() == 0 {
        if unit_diagonal {
            return b.copy();
        }
        return Err(Error::LinAlg(
            "A is singular: zero entry on diagonal.".into(),
        ));
    }
    let y = Array::empty(b.shape().to_vec(), dtype)?;
    a.c.plans.triangular_solve(
        lower,
        unit_diagonal,
        n,
        || triangular_arrays(a, dtype, unit_diagonal),
        &b,
        &y,
    )?;
    Ok(y)
}

impl CsrMatrix {
    /// How many triangular-solve analyses this matrix keeps (one per
    /// triangle, unit diagonal, dtype, stream and number of right-hand
    /// sides in use; see [`spsolve_triangular`]).
    ///
    /// ```no_run
    /// let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?;
    /// assert_eq!(a.cached_solves(), 0);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn cached_solves(&self) -> usize {
        self.c.plans.solve_plans()
    }
}

/// A square matrix ready for cuSOLVER's sparse QR: canonical CSR with
/// int32 indices in the solve's dtype, and its legacy descriptor.
struct Prepared {
    a: CsrMatrix,
    descr: MatDescr,
}

impl Prepared {
    fn new(a: &dyn SpMatrix, dtype: DType) -> Result<Prepared> {
        let mut csr = a.tocsr()?.astype(dtype)?;
        csr.sum_duplicates()?;
        if csr.indices().dtype() != DType::Int32 {
            csr = csr.with_index_dtype(DType::Int32).map_err(|_| {
                Error::Unsupported(
                    "spsolve of a matrix whose indices need int64 (cuSOLVER's sparse QR \
                     takes int32 indices only)"
                        .into(),
                )
            })?;
        }
        Ok(Prepared {
            a: csr,
            descr: MatDescr::general()?,
        })
    }

    /// `x` of `A x = b` for `b` 1-D or 2-D (column by column) of the
    /// prepared dtype; shapes checked by the caller.
    fn solve(&self, b: &Array) -> Result<Array> {
        let n = self.a.shape().0;
        let dtype = self.a.dtype();
        let b = contiguous_as(b, dtype)?;
        if b.size() == 0 {
            return creation::zeros(b.shape().to_vec(), dtype);
        }
        if self.a.nnz() == 0 {
            return Err(Error::Singular { info: 1 });
        }
        let view = self.a.compressed_view();
        let one = |rhs: &Array, x: &Array| -> Result<()> {
            let s = csrlsvqr(view, &self.descr, rhs, x)?;
            if s >= 0 {
                return Err(Error::Singular { info: s + 1 });
            }
            Ok(())
        };
        if b.ndim() == 1 {
            let x = Array::empty(n, dtype)?;
            one(&b, &x)?;
            return Ok(x);
        }
        // Columns as the rows of the transposes (contiguous).
        let k = b.shape()[1];
        let bt = b.transpose(None)?.copy()?;
        let xt = Array::empty([k, n], dtype)?;
        for j in 0..k {
            let j = j as isize;
            one(
                &bt.get_index(&gpu_array::ix![j])?,
                &xt.get_index(&gpu_array::ix![j])?,
            )?;
        }
        xt.transpose(None)?.copy()
    }
}

/// Checks `b` against the `n x n` system as SciPy's `spsolve` does.
fn check_rhs(shape: (usize, usize), b: &Array) -> Result<()> {
    let (m, n) = shape;
    if b.ndim() != 1 && b.ndim() != 2 {
        return Err(Error::Value(format!(
            "b must be 1-D or 2-D, not {}-D",
            b.ndim()
        )));
    }
    if b.shape()[0] != m {
        return Err(Error::Value(format!(
            "matrix - rhs dimension mismatch (({m}, {n}) - {})",
            b.shape()[0]
        )));
    }
    Ok(())
}

fn check_square(a: &dyn SpMatrix) -> Result<usize> {
    let (m, n) = a.shape();
    if m != n {
        return Err(Error::Value(format!(
            "matrix must be square (has shape ({m}, {n}))"
        )));
    }
    Ok(n)
}

/// SciPy's result shape: a 2-D `b` of one column gives a 1-D `x`.
fn ravel_vector(x: Array, b: &Array) -> Result<Array> {
    if b.ndim() == 2 && b.shape()[1] == 1 {
        x.reshape([b.shape()[0] as isize])
    } else {
        Ok(x)
    }
}

/// SciPy's `spsolve(A, b)` for a dense `b` (1-D, or 2-D solved column by
/// column): `x` of `A x = b` by cuSOLVER's sparse QR on the device
/// (`cusolverSp<t>csrlsvqr`, reverse Cuthill-McKee reordering), any
/// square `A`, symmetric or not. The matrix goes through canonical CSR
/// with int32 indices in SciPy's result dtype (`promote(promote(A,
/// float32), b)`); a `b` of shape `(n, 1)` gives a 1-D `x`, as SciPy's.
/// Each column waits for the device once (cuSOLVER returns its
/// singularity flag to the host).
///
/// SciPy warns "Matrix is exactly singular" and returns NaNs for a
/// singular `A`; Rust has no warnings, so this returns
/// [`Error::Singular`] (`info`: 1 + the first column where QR's `R` has an
/// exact zero on its diagonal).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_sparse::{CsrMatrix, linalg::spsolve};
/// # fn main() -> gpu_array::Result<()> {
/// let a = CsrMatrix::from_dense(&gpu_array::creation::array([[3.0, 1.0], [1.0, 2.0]])?)?;
/// let x = spsolve(&a, &Array::from_slice(&[9.0f64, 8.0], &[2])?)?; // [2, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "matrix must be square (has shape (m, n))", "matrix - rhs
/// dimension mismatch (...)"; [`Error::Singular`]; a matrix whose indices
/// need int64 (`Unsupported`); a dtype cuSOLVER does not take; cuSOLVER's
/// failures.
pub fn spsolve(a: &dyn SpMatrix, b: &Array) -> Result<Array> {
    check_square(a)?;
    check_rhs(a.shape(), b)?;
    let dtype = solve_dtype(a.dtype(), b.dtype())?;
    let x = Prepared::new(a, dtype)?.solve(b)?;
    ravel_vector(x, b)
}

/// SciPy's `factorized(A)`: a function solving `A x = b` for the square
/// `A`, reusing what can be reused between calls: the conversion to
/// canonical int32 CSR in `A`'s solve dtype and cuSOLVER's descriptor.
/// cuSOLVER's sparse QR keeps no factors between calls, so each call
/// factors again (SciPy keeps SuperLU's or UMFPACK's factors); a `b`
/// needing a wider dtype (complex `b` for a real `A`) converts the matrix
/// for that call.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_sparse::{CsrMatrix, linalg::factorized};
/// # fn main() -> gpu_array::Result<()> {
/// let a = CsrMatrix::from_dense(&gpu_array::creation::array([[3.0, 1.0], [1.0, 2.0]])?)?;
/// let solve = factorized(&a)?;
/// let x = solve(&Array::from_slice(&[9.0f64, 8.0], &[2])?)?; // [2, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`spsolve`], for the matrix now and for each right-hand side when
/// the function is called.
pub fn factorized(a: &dyn SpMatrix) -> Result<impl Fn(&Array) -> Result<Array> + use<>> {
    check_square(a)?;
    let dtype = solve_dtype(a.dtype(), DType::Float32)?;
    let prepared = Prepared::new(a, dtype)?;
    let shape = a.shape();
    Ok(move |b: &Array| -> Result<Array> {
        check_rhs(shape, b)?;
        let need = solve_dtype(dtype, b.dtype())?;
        let x = if need == dtype {
            prepared.solve(b)?
        } else {
            Prepared::new(&prepared.a, need)?.solve(b)?
        };
        ravel_vector(x, b)
    })
}

/// SciPy's `SuperLU` object, as [`spilu`] returns it: the factors of an
/// incomplete LU in one CSR matrix (`L` strictly below the diagonal with
/// its unit diagonal implied, `U` on and above), no permutations. A
/// [`LinearOperator`] whose `matvec` is [`SuperLu::solve`], so it serves
/// as a preconditioner (SciPy's `M = LinearOperator(A.shape, ilu.solve)`).
#[derive(Debug, Clone)]
pub struct SuperLu {
    lu: CsrMatrix,
}

impl SuperLu {
    /// SciPy's `solve(rhs)`: `x` of `L U x = rhs` for `rhs` 1-D or 2-D, by
    /// two triangular solves whose cuSPARSE analyses are cached on the
    /// factors (the first call pays them, later calls only the solves).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let a = gpu_sparse::eye(3, 3, 0, gpu_array::DType::Float64)?;
    /// let ilu = gpu_sparse::linalg::spilu(&a, None, None)?;
    /// let x = ilu.solve(&gpu_array::creation::ones(3, gpu_array::DType::Float64)?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`spsolve_triangular`].
    pub fn solve(&self, rhs: &Array) -> Result<Array> {
        let y = spsolve_triangular(&self.lu, rhs, true, true)?;
        spsolve_triangular(&self.lu, &y, false, false)
    }

    /// The shape `(n, n)`.
    pub fn shape(&self) -> (usize, usize) {
        self.lu.shape()
    }

    /// The entries stored in the factors (SciPy's `nnz`, counting the
    /// diagonal once: `L`'s unit diagonal is implied).
    pub fn nnz(&self) -> usize {
        self.lu.nnz()
    }

    /// The factors' values on the matrix's pattern (`L` below the
    /// diagonal, `U` on and above), as one CSR matrix.
    pub fn factors(&self) -> &CsrMatrix {
        &self.lu
    }

    /// SciPy's `L`: the unit lower triangular factor.
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn l(&self) -> Result<CsrMatrix> {
        let n = self.lu.shape().0;
        let strict = crate::tril(&self.lu, -1)?.tocsr()?;
        strict.add(&crate::eye(n, n, 0, self.lu.dtype())?)
    }

    /// SciPy's `U`: the upper triangular factor.
    ///
    /// # Errors
    /// Allocation or launch failures.
    pub fn u(&self) -> Result<CsrMatrix> {
        crate::triu(&self.lu, 0)?.tocsr()
    }
}

impl LinearOperator for SuperLu {
    fn shape(&self) -> (usize, usize) {
        self.lu.shape()
    }
    fn dtype(&self) -> DType {
        self.lu.dtype()
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        self.solve(x)
    }
}

/// SciPy's `spilu(A, drop_tol=None, fill_factor=None)`: an incomplete LU
/// of the square `A` for preconditioning, on cuSPARSE's `csrilu02`. That
/// is ILU(0), no fill beyond `A`'s pattern and no pivoting, where SciPy's
/// SuperLU drops by threshold (`drop_tol`, default 1e-4) and limits fill
/// (`fill_factor`, default 10); a threshold ILU has no cuSPARSE route, so
/// either given is `Unsupported`. The matrix goes through canonical CSR
/// with int32 indices in float32, float64, complex64 or complex128
/// (integers in float64, as SciPy's).
///
/// ```no_run
/// use gpu_sparse::linalg::{SolveOptions, cg, spilu};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(4, 4, 0, gpu_array::DType::Float64)?;
/// let m = spilu(&a, None, None)?;
/// let b = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let (x, info) = cg(&a, &b, &SolveOptions { m: Some(&m), ..SolveOptions::default() })?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `Unsupported` for `drop_tol` or `fill_factor`, and for a matrix whose
/// indices need int64; "matrix must be square (has shape (m, n))";
/// SciPy's `RuntimeError` "Factor is exactly singular" for a missing or
/// zero pivot; cuSPARSE's failures.
pub fn spilu(a: &dyn SpMatrix, drop_tol: Option<f64>, fill_factor: Option<f64>) -> Result<SuperLu> {
    if drop_tol.is_some() || fill_factor.is_some() {
        return Err(Error::Unsupported(
            "spilu's drop_tol and fill_factor: Cuprum's spilu is cuSPARSE's ILU(0) \
             (csrilu02: no fill, no threshold dropping); leave them None"
                .into(),
        ));
    }
    let n = check_square(a)?;
    let dtype = solve_dtype(a.dtype(), DType::Float32)?;
    let prepared = Prepared::new(a, dtype).map_err(|e| match e {
        Error::Unsupported(_) => Error::Unsupported(
            "spilu of a matrix whose indices need int64 (cuSPARSE's csrilu02 takes int32 \
             indices only)"
                .into(),
        ),
        e => e,
    })?;
    let csr = prepared.a;
    if n > 0 && csr.nnz() == 0 {
        return Err(Error::NumpyRuntime("Factor is exactly singular".into()));
    }
    if n == 0 {
        return Ok(SuperLu { lu: csr });
    }
    let view: CompressedView<'_> = csr.compressed_view();
    let values = csrilu0(view)?;
    let lu = CsrMatrix::from_parts(
        values,
        csr.indices().clone(),
        csr.indptr().clone(),
        (n, n),
        true,
    );
    Ok(SuperLu { lu })
}

/// SciPy's `splu(A)`: a complete sparse LU with reusable factors. Neither
/// cuSPARSE nor cuSOLVER has one on the device (cuSOLVER's
/// `csrlsvlu` runs on the host, and keeps no factors), so this always
/// returns `Unsupported`; [`spsolve`] (sparse QR on the device),
/// [`factorized`] and [`spilu`] are the GPU routes.
///
/// ```no_run
/// let a = gpu_sparse::eye(3, 3, 0, gpu_array::DType::Float64)?;
/// assert!(gpu_sparse::linalg::splu(&a).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// Always `Unsupported`, naming the alternatives.
pub fn splu(a: &dyn SpMatrix) -> Result<SuperLu> {
    let _ = a;
    Err(Error::Unsupported(
        "splu: no sparse LU with reusable factors runs on the GPU (cuSOLVER's csrlsvlu is \
         host-only); use spsolve or factorized (sparse QR on the device), or spilu (ILU(0))"
            .into(),
    ))
}
