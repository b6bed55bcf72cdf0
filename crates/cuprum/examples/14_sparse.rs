//! CuPy's "Sparse matrices" in Rust: `cupyx.scipy.sparse` is
//! `cuprum::sparse`. Build matrices from triplets, diagonals and dense
//! arrays, convert between formats, multiply, reduce, index, and solve
//! with cg and lsqr. The results are checked, not only printed.
//!
//! `cargo run -p cuprum --example 14_sparse` on a machine with a GPU.

use cuprum::sparse::linalg::{LsqrOptions, SolveOptions, cg, lsqr, norm};
use cuprum::sparse::{self, CooMatrix, CsrMatrix, SpMatrix};
use cuprum::{self as cp, DType};

fn main() -> cp::Result<()> {
    // coo_matrix((data, (row, col)), shape=(3, 3)): duplicates add up.
    let a = CooMatrix::from_triplets(
        &[0, 1, 1, 2],
        &[0, 1, 1, 2],
        &[1.0f64, 2.0, 3.0, 4.0],
        (3, 3),
    )?;
    let csr = a.tocsr()?;
    assert_eq!(csr.nnz(), 3);
    assert_eq!(csr.data().to_vec::<f64>()?, vec![1.0, 5.0, 4.0]);
    assert_eq!(csr.indptr().to_vec::<i32>()?, vec![0, 1, 2, 3]);

    // A @ x on cuSPARSE; the second product reuses the cached plan.
    let x = cp::array([1.0, 1.0, 1.0])?;
    assert_eq!(csr.dot(&x)?.to_vec::<f64>()?, vec![1.0, 5.0, 4.0]);
    assert_eq!(csr.dot(&x)?.to_vec::<f64>()?, vec![1.0, 5.0, 4.0]);

    // From a dense array and back; the transpose shares the arrays.
    let d = cp::array([[0.0, 2.0, 0.0], [3.0, 0.0, 4.0]])?;
    let s = CsrMatrix::from_dense(&d)?;
    assert_eq!(
        s.transpose().toarray()?.to_vec::<f64>()?,
        vec![0.0, 3.0, 2.0, 0.0, 0.0, 4.0]
    );
    assert_eq!(s.sum(Some(1))?.to_vec::<f64>()?, vec![2.0, 7.0]);

    // Builders: the 1-D Laplacian from its diagonals, kron for 2-D.
    let n = 400;
    let main = cp::full([n], 2.0, None)?;
    let off = cp::full([n - 1], -1.0, None)?;
    let t = sparse::diags(&[&off, &main, &off], &[-1, 0, 1], Some((n, n)), None)?;
    let lap = t.tocsr()?;
    assert_eq!(lap.nnz(), 3 * n - 2);
    let i = sparse::identity(n, DType::Float64)?;
    let lap2 = sparse::kronsum(&lap, &i)?;
    assert_eq!(lap2.shape(), (n * n, n * n));

    // cg on the Laplacian: the residual check every 10 iterations.
    let b = cp::ones([n], DType::Float64)?;
    let opts = SolveOptions {
        rtol: 1e-10,
        ..SolveOptions::default()
    };
    let (sol, info) = cg(&lap, &b, &opts)?;
    assert_eq!(info, 0);
    let r = cp::subtract(&lap.dot(&sol)?, &b)?;
    let rn = cp::sqrt(&cp::sum(&cp::multiply(&r, &r)?, ())?)?.item::<f64>(&[])?;
    assert!(rn < 1e-8 * (n as f64).sqrt(), "residual {rn}");

    // lsqr on an overdetermined system: x = [1, 1, 1].
    let tall = sparse::eye(5, 3, 0, DType::Float64)?;
    let ls = lsqr(
        &tall,
        &cp::ones([5], DType::Float64)?,
        &LsqrOptions::default(),
    )?;
    assert!(matches!(ls.istop, 1 | 2));
    assert!(ls.x.to_vec::<f64>()?.iter().all(|v| (v - 1.0).abs() < 1e-6));
    let fro = norm(&s, None, None)?.item::<f64>(&[])?;
    assert!((fro - 29f64.sqrt()).abs() < 1e-12);

    // SciPy's errors in its words.
    match csr.dot(&cp::ones([4], DType::Float64)?) {
        Err(cp::Error::Value(m)) => assert_eq!(m, "dimension mismatch"),
        other => panic!("expected a ValueError, got {other:?}"),
    }
    println!("sparse: all checks passed");
    Ok(())
}
