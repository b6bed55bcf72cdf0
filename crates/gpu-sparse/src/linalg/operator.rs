//! [`LinearOperator`]: SciPy's `LinearOperator`, what the iterative
//! solvers need of a matrix.

use gpu_array::{Array, DType, Error, Result};

use crate::{CooMatrix, CscMatrix, CsrMatrix, SpMatrix};

/// A linear map `A` by its products (SciPy's `LinearOperator`): `matvec`
/// is `A @ x` for a 1-D `x`, `rmatvec` is `A^H @ x`.
///
/// ```no_run
/// use gpu_sparse::linalg::LinearOperator;
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::identity(4, gpu_array::DType::Float64)?;
/// let x = gpu_array::creation::ones(4, gpu_array::DType::Float64)?;
/// let y = a.matvec(&x)?; // the same ones
/// # Ok(()) }
/// ```
pub trait LinearOperator {
    /// `(rows, columns)`.
    fn shape(&self) -> (usize, usize);
    /// The dtype of the results.
    fn dtype(&self) -> DType;
    /// `A @ x` for `x` of length `columns`.
    fn matvec(&self, x: &Array) -> Result<Array>;
    /// `A^H @ x` for `x` of length `rows` (SciPy's `rmatvec`). Operators
    /// without one return an `Unsupported` error naming it.
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        let _ = x;
        Err(Error::Unsupported(
            "rmatvec is not defined for this LinearOperator".into(),
        ))
    }
}

macro_rules! compressed_operator {
    ($t:ty) => {
        impl LinearOperator for $t {
            fn shape(&self) -> (usize, usize) {
                SpMatrix::shape(self)
            }
            fn dtype(&self) -> DType {
                result_dtype(SpMatrix::dtype(self))
            }
            fn matvec(&self, x: &Array) -> Result<Array> {
                self.dot(x)
            }
            fn rmatvec(&self, x: &Array) -> Result<Array> {
                // The conjugate transpose shares the index arrays; its
                // product caches nothing, so repeated calls pay the
                // descriptor (wrap it with `aslinearoperator` to keep one).
                self.h()?.dot(x)
            }
        }
    };
}

compressed_operator!(CsrMatrix);
compressed_operator!(CscMatrix);

/// The dtype of products of a matrix of `dtype`: cuSPARSE computes
/// integer and bool matrices as float64.
fn result_dtype(dtype: DType) -> DType {
    match dtype {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => dtype,
        _ => DType::Float64,
    }
}

/// A sparse matrix as a [`LinearOperator`] that keeps both the matrix and
/// its conjugate transpose in CSR, so `matvec` and `rmatvec` each reuse
/// their cuSPARSE plans (SciPy's `aslinearoperator` of a sparse matrix).
#[derive(Debug)]
pub struct SparseOperator {
    a: CsrMatrix,
    ah: CsrMatrix,
}

impl LinearOperator for SparseOperator {
    fn shape(&self) -> (usize, usize) {
        SpMatrix::shape(&self.a)
    }
    fn dtype(&self) -> DType {
        result_dtype(SpMatrix::dtype(&self.a))
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        self.a.dot(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        self.ah.dot(x)
    }
}

/// SciPy's `aslinearoperator` for a sparse matrix of any format: the
/// matrix and its conjugate transpose converted to CSR once.
///
/// ```no_run
/// use gpu_sparse::linalg::{LinearOperator, aslinearoperator};
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::eye(3, 5, 0, gpu_array::DType::Float32)?;
/// let op = aslinearoperator(&a)?;
/// assert_eq!(op.shape(), (3, 5));
/// # Ok(()) }
/// ```
///
/// # Errors
/// Conversion failures.
pub fn aslinearoperator(a: &dyn SpMatrix) -> Result<SparseOperator> {
    let a = a.tocsr()?;
    let ah = a.h()?.tocsr()?;
    Ok(SparseOperator { a, ah })
}

impl LinearOperator for CooMatrix {
    fn shape(&self) -> (usize, usize) {
        SpMatrix::shape(self)
    }
    fn dtype(&self) -> DType {
        result_dtype(SpMatrix::dtype(self))
    }
    /// Converts to CSR on every call: use [`aslinearoperator`] for
    /// repeated products.
    fn matvec(&self, x: &Array) -> Result<Array> {
        self.tocsr()?.dot(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        self.h()?.tocsr()?.dot(x)
    }
}

type MatVec<'a> = Box<dyn Fn(&Array) -> Result<Array> + Send + Sync + 'a>;

/// A [`LinearOperator`] of closures (SciPy's `LinearOperator(shape,
/// matvec, rmatvec=None, dtype=...)`).
///
/// ```no_run
/// use gpu_sparse::linalg::{FnOperator, LinearOperator};
/// # fn main() -> gpu_array::Result<()> {
/// // 2 x: a scaled identity without a matrix.
/// let op = FnOperator::new((3, 3), gpu_array::DType::Float64, |x| gpu_array::ufunc::multiply(x, 2.0));
/// let y = op.matvec(&gpu_array::creation::ones(3, gpu_array::DType::Float64)?)?;
/// # Ok(()) }
/// ```
pub struct FnOperator<'a> {
    shape: (usize, usize),
    dtype: DType,
    matvec: MatVec<'a>,
    rmatvec: Option<MatVec<'a>>,
}

impl std::fmt::Debug for FnOperator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "FnOperator {{ shape: {:?}, dtype: {}, rmatvec: {} }}",
            self.shape,
            self.dtype,
            self.rmatvec.is_some()
        )
    }
}

impl<'a> FnOperator<'a> {
    /// An operator of shape `shape` whose products are `matvec`.
    pub fn new(
        shape: (usize, usize),
        dtype: DType,
        matvec: impl Fn(&Array) -> Result<Array> + Send + Sync + 'a,
    ) -> FnOperator<'a> {
        FnOperator {
            shape,
            dtype,
            matvec: Box::new(matvec),
            rmatvec: None,
        }
    }

    /// The operator with its adjoint product `A^H @ x`.
    ///
    /// ```no_run
    /// use gpu_sparse::linalg::FnOperator;
    /// let op = FnOperator::new((2, 2), gpu_array::DType::Float64, |x| Ok(x.clone()))
    ///     .with_rmatvec(|x| Ok(x.clone()));
    /// ```
    pub fn with_rmatvec(
        mut self,
        rmatvec: impl Fn(&Array) -> Result<Array> + Send + Sync + 'a,
    ) -> FnOperator<'a> {
        self.rmatvec = Some(Box::new(rmatvec));
        self
    }
}

impl LinearOperator for FnOperator<'_> {
    fn shape(&self) -> (usize, usize) {
        self.shape
    }
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn matvec(&self, x: &Array) -> Result<Array> {
        (self.matvec)(x)
    }
    fn rmatvec(&self, x: &Array) -> Result<Array> {
        match &self.rmatvec {
            Some(f) => f(x),
            None => Err(Error::Unsupported(
                "rmatvec is not defined for this LinearOperator".into(),
            )),
        }
    }
}
