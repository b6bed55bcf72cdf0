//! SciPy's errors, in its words.

use gpu_array::{Array, DType};
use gpu_sparse::{CooMatrix, CsrMatrix};

use crate::gpu;

fn i32s(v: &[i32]) -> Array {
    Array::from_slice(v, &[v.len()]).unwrap()
}

fn err<T: std::fmt::Debug>(r: gpu_array::Result<T>) -> String {
    r.expect_err("an error").to_string()
}

#[test]
fn construction_errors() {
    if !gpu() {
        return;
    }
    let d = Array::from_slice(&[1.0f64, 2.0], &[2]).unwrap();
    let e = err(CsrMatrix::new(&d, &i32s(&[0, 1]), &i32s(&[0, 2]), (2, 2)));
    assert!(e.contains("index pointer size 2 should be 3"), "{e}");
    let e = err(CsrMatrix::new(&d, &i32s(&[0]), &i32s(&[0, 1, 2]), (2, 2)));
    assert!(
        e.contains("indices and data should have the same size"),
        "{e}"
    );
    let e = err(CsrMatrix::new(
        &d,
        &i32s(&[0, 1]),
        &i32s(&[0, 2, 1]),
        (2, 2),
    ));
    assert!(e.contains("non-decreasing"), "{e}");
    let e = err(CsrMatrix::new(
        &d,
        &i32s(&[0, 1]),
        &i32s(&[1, 1, 2]),
        (2, 2),
    ));
    assert!(e.contains("start with 0"), "{e}");
    let e = err(CsrMatrix::new(
        &d,
        &i32s(&[0, 1]),
        &i32s(&[0, 1, 3]),
        (2, 2),
    ));
    assert!(e.contains("Last value of index pointer"), "{e}");
    let e = err(CsrMatrix::new(
        &d,
        &i32s(&[0, 2]),
        &i32s(&[0, 1, 2]),
        (2, 2),
    ));
    assert!(e.contains("column index values must be < 2"), "{e}");
    let e = err(CsrMatrix::new(
        &d,
        &i32s(&[0, -1]),
        &i32s(&[0, 1, 2]),
        (2, 2),
    ));
    assert!(e.contains("column index values must be >= 0"), "{e}");
    let e = err(gpu_sparse::CscMatrix::new(
        &d,
        &i32s(&[0, 5]),
        &i32s(&[0, 1, 2]),
        (2, 2),
    ));
    assert!(e.contains("row index values must be < 2"), "{e}");
    let e = err(CooMatrix::new(&d, &i32s(&[0]), &i32s(&[0, 1]), None));
    assert!(e.contains("must all be the same length"), "{e}");
    let e = err(CooMatrix::new(
        &d,
        &i32s(&[0, 2]),
        &i32s(&[0, 1]),
        Some((3, 1)),
    ));
    assert!(e.contains("column index exceeds matrix dimensions"), "{e}");
    let e = err(CooMatrix::new(
        &d,
        &i32s(&[0, 3]),
        &i32s(&[0, 0]),
        Some((3, 1)),
    ));
    assert!(e.contains("row index exceeds matrix dimensions"), "{e}");
    let e = err(CooMatrix::new(
        &d,
        &i32s(&[-1, 0]),
        &i32s(&[0, 0]),
        Some((3, 1)),
    ));
    assert!(e.contains("negative row index found"), "{e}");
    let f = Array::from_slice(&[0.5f64, 1.0], &[2]).unwrap();
    let e = err(CooMatrix::new(&d, &f, &i32s(&[0, 1]), None));
    assert!(e.contains("integer"), "{e}");
    let h = Array::from_slice(&[1.0f64, 2.0], &[2])
        .unwrap()
        .astype(DType::Float16)
        .unwrap();
    let e = err(CooMatrix::new(&h, &i32s(&[0, 1]), &i32s(&[0, 1]), None));
    assert!(e.contains("does not support dtype float16"), "{e}");
    // Shapes inferred from the largest index, as SciPy's.
    let a = CooMatrix::new(&d, &i32s(&[0, 4]), &i32s(&[2, 1]), None).unwrap();
    assert_eq!(gpu_sparse::SpMatrix::shape(&a), (5, 3));
}

#[test]
fn product_errors() {
    if !gpu() {
        return;
    }
    let a = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3]).unwrap();
    let e = err(a.dot(&x));
    assert!(e.contains("dimension mismatch"), "{e}");
    // Bool products run outside cuSPARSE: NumPy's ORs of ANDs.
    let b = gpu_sparse::eye(3, 3, 0, DType::Bool).unwrap();
    let xb = Array::from_slice(&[true, false, true], &[3]).unwrap();
    assert_eq!(
        b.dot(&xb).unwrap().to_vec::<bool>().unwrap(),
        [true, false, true]
    );
    let e = err(a.with_index_dtype(DType::Int16));
    assert!(e.contains("cannot index"), "{e}");
}
