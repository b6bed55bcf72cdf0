//! [`SolveOptions`]: the keywords SciPy's iterative solvers share.

use gpu_array::{Array, Error, Result};

use super::LinearOperator;

/// The iterative solvers' options (SciPy's keywords `x0`, `rtol`, `atol`,
/// `maxiter`, `M`), and how often the residual is read back.
///
/// ```no_run
/// use gpu_sparse::linalg::SolveOptions;
/// let opts = SolveOptions { rtol: 1e-8, maxiter: Some(500), ..SolveOptions::default() };
/// ```
pub struct SolveOptions<'a> {
    /// The starting guess (zeros when `None`).
    pub x0: Option<&'a Array>,
    /// Relative tolerance: stop when `||r|| <= max(rtol * ||b||, atol)`.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Most iterations (SciPy's default `10 * n` when `None`).
    pub maxiter: Option<usize>,
    /// A preconditioner approximating `A^-1` (SciPy's `M`).
    pub m: Option<&'a dyn LinearOperator>,
    /// Iterations between host reads of the residual norm (at least 1;
    /// the module docs say what it trades).
    pub check_every: usize,
}

impl Default for SolveOptions<'_> {
    fn default() -> Self {
        SolveOptions {
            x0: None,
            rtol: 1e-5,
            atol: 0.0,
            maxiter: None,
            m: None,
            check_every: 10,
        }
    }
}

impl std::fmt::Debug for SolveOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolveOptions")
            .field("x0", &self.x0.map(|a| a.shape().to_vec()))
            .field("rtol", &self.rtol)
            .field("atol", &self.atol)
            .field("maxiter", &self.maxiter)
            .field("m", &self.m.map(|m| m.shape()))
            .field("check_every", &self.check_every)
            .finish()
    }
}

impl SolveOptions<'_> {
    /// Checks the options against an `n x n` system with right-hand side
    /// `b`, as SciPy's solvers do before iterating.
    pub(crate) fn check(&self, a: &dyn LinearOperator, b: &Array) -> Result<usize> {
        let (rows, cols) = a.shape();
        if rows != cols {
            return Err(Error::Value(format!(
                "expected square matrix, but got shape=({rows}, {cols})"
            )));
        }
        let n = rows;
        let flat = b.ndim() == 1 || (b.ndim() == 2 && b.shape()[1] == 1);
        if !flat || b.shape()[0] != n {
            return Err(Error::Value(format!(
                "shapes of A ({rows}, {cols}) and b {:?} are incompatible",
                b.shape()
            )));
        }
        if let Some(x0) = self.x0
            && x0.size() != n
        {
            return Err(Error::Value(format!(
                "shapes of A ({rows}, {cols}) and x0 {:?} are incompatible",
                x0.shape()
            )));
        }
        if let Some(m) = self.m
            && m.shape() != (n, n)
        {
            return Err(Error::Value(format!(
                "matrix and preconditioner have different shapes ({n}, {n}) and {:?}",
                m.shape()
            )));
        }
        if !(self.rtol >= 0.0 && self.atol >= 0.0) {
            return Err(Error::Value("rtol and atol must be non-negative".into()));
        }
        if self.check_every == 0 {
            return Err(Error::Value("check_every must be at least 1".into()));
        }
        Ok(n)
    }
}
