//! Sparse matrices to and from the host: plain triplets and the `sprs`
//! crate's `CsMat` (Rust's well-kept host sparse matrices).

use gpu_array::{Array, Element, Error, Result};

use crate::{CooMatrix, CscMatrix, CsrMatrix};

fn indices_i64(v: &[usize], what: &str) -> Result<Vec<i64>> {
    v.iter()
        .map(|&i| i64::try_from(i).map_err(|_| Error::Value(format!("{what} index {i} too large"))))
        .collect()
}

impl CooMatrix {
    /// A matrix from host triplets: `values[k]` at `(rows[k], cols[k])`
    /// (SciPy's `coo_matrix((values, (rows, cols)), shape)` from NumPy
    /// arrays), checked as [`CooMatrix::new`].
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let a = gpu_sparse::CooMatrix::from_triplets(&[0, 1], &[1, 0], &[2.0f64, 3.0], (2, 2))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Lengths that differ, indices beyond `shape`.
    pub fn from_triplets<T: Element>(
        rows: &[usize],
        cols: &[usize],
        values: &[T],
        shape: (usize, usize),
    ) -> Result<CooMatrix> {
        let n = values.len();
        if rows.len() != n || cols.len() != n {
            return Err(Error::Value(
                "row, column, and data array must all be the same length".into(),
            ));
        }
        let r = Array::from_slice(&indices_i64(rows, "row")?, &[n])?;
        let c = Array::from_slice(&indices_i64(cols, "column")?, &[n])?;
        let v = Array::from_slice(values, &[n])?;
        CooMatrix::new(&v, &r, &c, Some(shape))
    }

    /// The entries on the host as `(rows, cols, values)`, in storage order.
    ///
    /// # Errors
    /// `T` not the matrix's dtype; transfer failures.
    pub fn to_triplets<T: Element>(&self) -> Result<(Vec<usize>, Vec<usize>, Vec<T>)> {
        let idx = |a: &Array| -> Result<Vec<usize>> {
            Ok(a.to_vec_as::<i64>()?
                .into_iter()
                .map(|v| v as usize)
                .collect())
        };
        Ok((
            idx(self.row())?,
            idx(self.col())?,
            self.data().to_vec::<T>()?,
        ))
    }
}

/// The `sprs` matrix of compressed arrays read back from the device.
fn to_sprs<T: Element + Clone>(
    shape: (usize, usize),
    indptr: &Array,
    indices: &Array,
    data: &Array,
    csc: bool,
) -> Result<sprs::CsMat<T>> {
    let idx = |a: &Array| -> Result<Vec<usize>> {
        Ok(a.to_vec_as::<i64>()?
            .into_iter()
            .map(|v| v as usize)
            .collect())
    };
    let (p, i, v) = (idx(indptr)?, idx(indices)?, data.to_vec::<T>()?);
    let built = if csc {
        sprs::CsMat::try_new_csc(shape, p, i, v)
    } else {
        sprs::CsMat::try_new(shape, p, i, v)
    };
    // sprs wants sorted indices without duplicates; the callers sum first.
    built.map_err(|(_, _, _, e)| Error::Value(format!("sprs rejected the matrix: {e}")))
}

/// The compressed arrays of an `sprs` matrix, on the device.
fn from_sprs_parts<T: Element + Clone>(m: &sprs::CsMat<T>) -> Result<(Array, Array, Array)> {
    let to_i64 = |v: &[usize], what: &str| indices_i64(v, what);
    let p = to_i64(m.indptr().raw_storage(), "indptr")?;
    let i = to_i64(m.indices(), "indices")?;
    Ok((
        Array::from_slice(m.data(), &[m.data().len()])?,
        Array::from_slice(&i, &[i.len()])?,
        Array::from_slice(&p, &[p.len()])?,
    ))
}

impl CsrMatrix {
    /// The matrix of an `sprs` matrix (CSR, or CSC converted on the host).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let h = sprs::CsMat::<f64>::eye(3);
    /// let a = gpu_sparse::CsrMatrix::from_sprs(&h)?;
    /// let back: sprs::CsMat<f64> = a.to_sprs()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Transfer failures.
    pub fn from_sprs<T: Element + Clone + Default>(m: &sprs::CsMat<T>) -> Result<CsrMatrix> {
        let csr;
        let m = if m.is_csr() {
            m
        } else {
            csr = m.to_csr();
            &csr
        };
        let (data, indices, indptr) = from_sprs_parts(m)?;
        CsrMatrix::new(&data, &indices, &indptr, m.shape())
    }

    /// The matrix as an `sprs` CSR matrix on the host (duplicates summed
    /// and indices sorted first, as `sprs` requires).
    ///
    /// # Errors
    /// `T` not the matrix's dtype; transfer failures.
    pub fn to_sprs<T: Element + Clone>(&self) -> Result<sprs::CsMat<T>> {
        let mut c = self.clone();
        c.sum_duplicates()?;
        to_sprs(c.shape(), c.indptr(), c.indices(), c.data(), false)
    }
}

impl CscMatrix {
    /// The matrix of an `sprs` matrix (CSC, or CSR converted on the host).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let a = gpu_sparse::CscMatrix::from_sprs(&sprs::CsMat::<f32>::eye(3))?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Transfer failures.
    pub fn from_sprs<T: Element + Clone + Default>(m: &sprs::CsMat<T>) -> Result<CscMatrix> {
        let csc;
        let m = if m.is_csc() {
            m
        } else {
            csc = m.to_csc();
            &csc
        };
        let (data, indices, indptr) = from_sprs_parts(m)?;
        CscMatrix::new(&data, &indices, &indptr, m.shape())
    }

    /// The matrix as an `sprs` CSC matrix on the host.
    ///
    /// # Errors
    /// `T` not the matrix's dtype; transfer failures.
    pub fn to_sprs<T: Element + Clone>(&self) -> Result<sprs::CsMat<T>> {
        let mut c = self.clone();
        c.sum_duplicates()?;
        to_sprs(c.shape(), c.indptr(), c.indices(), c.data(), true)
    }
}
