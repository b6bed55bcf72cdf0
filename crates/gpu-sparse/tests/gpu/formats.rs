//! Conversions between the formats, canonical form and host interop.

use gpu_array::{Array, DType};
use gpu_sparse::{CooMatrix, CscMatrix, CsrMatrix, SpMatrix};

use crate::{Triplets, assert_close, gpu, host_parts};

const DTYPES: [DType; 6] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
    DType::Int32,
    DType::Int64,
];

fn check_dense(what: &str, a: &impl SpMatrix, t: &Triplets, dtype: DType) {
    let d = a.toarray().unwrap();
    assert_eq!(d.shape(), &[t.m, t.n], "{what}: shape");
    assert_eq!(d.dtype(), dtype, "{what}: dtype");
    let (re, im) = host_parts(&d);
    let (want_re, want_im) = t.dense();
    if dtype.is_integer() {
        // Integer values: the host values truncated before adding.
        let mut w = vec![0.0; t.m * t.n];
        for k in 0..t.rows.len() {
            w[t.rows[k] * t.n + t.cols[k]] += t.vals[k].trunc();
        }
        assert_close(what, &re, &w, DType::Float64);
        return;
    }
    assert_close(what, &re, &want_re, dtype);
    if dtype.is_complex() {
        assert_close(what, &im, &want_im, dtype);
    }
}

#[test]
fn every_conversion_matches_the_dense_reference() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in [(37, 23, 200), (1, 5, 7), (6, 1, 9), (4, 4, 0), (0, 3, 0)] {
        let t = Triplets::random(m, n, nnz, 7 + m as u64);
        for dtype in DTYPES {
            let coo = t.coo(dtype);
            assert_eq!(coo.nnz(), t.rows.len());
            check_dense("coo", &coo, &t, dtype);
            let csr = coo.tocsr().unwrap();
            assert!(csr.has_canonical_format().unwrap());
            check_dense("coo->csr", &csr, &t, dtype);
            let csc = coo.tocsc().unwrap();
            assert!(csc.has_canonical_format().unwrap());
            check_dense("coo->csc", &csc, &t, dtype);
            check_dense("csr->csc", &csr.tocsc().unwrap(), &t, dtype);
            check_dense("csc->csr", &csc.tocsr().unwrap(), &t, dtype);
            check_dense("csr->coo", &csr.tocoo().unwrap(), &t, dtype);
            check_dense("csc->coo", &csc.tocoo().unwrap(), &t, dtype);
            let wide = csr.with_index_dtype(DType::Int64).unwrap();
            assert_eq!(wide.indices().dtype(), DType::Int64);
            check_dense("csr int64 -> csc", &wide.tocsc().unwrap(), &t, dtype);
            // The dense round trip keeps every nonzero.
            let back = CsrMatrix::from_dense(&csr.toarray().unwrap()).unwrap();
            check_dense("dense->csr", &back, &t, dtype);
        }
    }
}

#[test]
fn csr_indptr_and_indices_are_scipys() {
    if !gpu() {
        return;
    }
    // [[1, 0, 2], [0, 0, 0], [3, 4, 0]] from unsorted triplets with a duplicate.
    let coo = CooMatrix::from_triplets(
        &[2, 0, 2, 0, 0],
        &[1, 2, 0, 0, 2],
        &[4.0f64, 1.5, 3.0, 1.0, 0.5],
        (3, 3),
    )
    .unwrap();
    let csr = coo.tocsr().unwrap();
    assert_eq!(csr.indptr().to_vec::<i32>().unwrap(), vec![0, 2, 2, 4]);
    assert_eq!(csr.indices().to_vec::<i32>().unwrap(), vec![0, 2, 0, 1]);
    assert_eq!(
        csr.data().to_vec::<f64>().unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
    let csc = csr.tocsc().unwrap();
    assert_eq!(csc.indptr().to_vec::<i32>().unwrap(), vec![0, 2, 3, 4]);
    assert_eq!(csc.indices().to_vec::<i32>().unwrap(), vec![0, 2, 2, 0]);
    assert_eq!(
        csc.data().to_vec::<f64>().unwrap(),
        vec![1.0, 3.0, 4.0, 2.0]
    );
    // The transpose shares the arrays and swaps the shape.
    let t = csr.transpose();
    assert_eq!((t.shape(), t.format().name()), ((3, 3), "csc"));
    assert_eq!(t.indptr().data_ptr(), csr.indptr().data_ptr());
    let td = t.toarray().unwrap().to_vec::<f64>().unwrap();
    assert_eq!(td, vec![1.0, 0.0, 3.0, 0.0, 0.0, 4.0, 2.0, 0.0, 0.0]);
}

#[test]
fn canonical_form_sorting_and_zeros() {
    if !gpu() {
        return;
    }
    let data = Array::from_slice(&[5.0f64, 1.0, 0.0, 2.0, 3.0], &[5]).unwrap();
    let indices = Array::from_slice(&[2i32, 0, 1, 2, 0], &[5]).unwrap();
    let indptr = Array::from_slice(&[0i32, 4, 4, 5], &[4]).unwrap();
    let mut a = CsrMatrix::new(&data, &indices, &indptr, (3, 3)).unwrap();
    assert!(!a.has_sorted_indices().unwrap());
    assert!(!a.has_canonical_format().unwrap());
    a.sort_indices().unwrap();
    assert!(a.has_sorted_indices().unwrap());
    assert!(!a.has_canonical_format().unwrap(), "the duplicate remains");
    assert_eq!(a.indices().to_vec::<i32>().unwrap(), vec![0, 1, 2, 2, 0]);
    assert_eq!(
        a.data().to_vec::<f64>().unwrap(),
        vec![1.0, 0.0, 5.0, 2.0, 3.0]
    );
    a.sum_duplicates().unwrap();
    assert!(a.has_canonical_format().unwrap());
    assert_eq!(a.indptr().to_vec::<i32>().unwrap(), vec![0, 3, 3, 4]);
    assert_eq!(a.data().to_vec::<f64>().unwrap(), vec![1.0, 0.0, 7.0, 3.0]);
    a.eliminate_zeros().unwrap();
    assert_eq!(a.nnz(), 3);
    assert_eq!(a.indptr().to_vec::<i32>().unwrap(), vec![0, 2, 2, 3]);
    assert_eq!(a.indices().to_vec::<i32>().unwrap(), vec![0, 2, 0]);
    // SciPy keeps only indptr[-1] entries of longer arrays.
    let short = Array::from_slice(&[0i32, 1, 1, 2], &[4]).unwrap();
    let p = CsrMatrix::new(&data, &indices, &short, (3, 3)).unwrap();
    assert_eq!(p.nnz(), 2);
}

#[test]
fn coo_sum_duplicates_conj_and_h() {
    if !gpu() {
        return;
    }
    let t = Triplets::random(9, 7, 60, 3);
    let mut coo = t.coo(DType::Complex128);
    coo.sum_duplicates().unwrap();
    assert!(coo.has_canonical_format());
    let (rows, cols, _) = coo.to_triplets::<num_complex::Complex64>().unwrap();
    let keys: Vec<usize> = rows.iter().zip(&cols).map(|(r, c)| r * 7 + c).collect();
    assert!(
        keys.windows(2).all(|w| w[0] < w[1]),
        "sorted without repeats"
    );
    let h = coo.h().unwrap();
    let d = h.toarray().unwrap();
    let (re, im) = host_parts(&d);
    let (wre, wim) = t.dense();
    // h[j, i] = conj(a[i, j]).
    for i in 0..9 {
        for j in 0..7 {
            assert!((re[j * 9 + i] - wre[i * 7 + j]).abs() < 1e-12);
            assert!((im[j * 9 + i] + wim[i * 7 + j]).abs() < 1e-12);
        }
    }
    let csc: CscMatrix = coo.tocsc().unwrap().h().unwrap().transpose();
    check_dense(
        "csc h transposed back is conj",
        &csc.conj().unwrap(),
        &t,
        DType::Complex128,
    );
}

#[test]
fn sprs_round_trip_and_builders() {
    if !gpu() {
        return;
    }
    let mut tri = sprs::TriMat::<f64>::new((4, 5));
    tri.add_triplet(0, 4, 1.5);
    tri.add_triplet(3, 0, -2.0);
    tri.add_triplet(1, 1, 3.0);
    let host: sprs::CsMat<f64> = tri.to_csr();
    let a = CsrMatrix::from_sprs(&host).unwrap();
    assert_eq!((a.shape(), a.nnz()), ((4, 5), 3));
    let back: sprs::CsMat<f64> = a.to_sprs().unwrap();
    assert_eq!(back, host);
    let c = CscMatrix::from_sprs(&host).unwrap();
    assert_eq!(c.to_sprs::<f64>().unwrap(), host.to_csc());

    let e = gpu_sparse::eye(3, 5, 2, DType::Float32).unwrap();
    assert_eq!(e.indptr().to_vec::<i32>().unwrap(), vec![0, 1, 2, 3]);
    assert_eq!(e.indices().to_vec::<i32>().unwrap(), vec![2, 3, 4]);
    let e = gpu_sparse::eye(4, 3, -2, DType::Float64).unwrap();
    assert_eq!(e.indptr().to_vec::<i32>().unwrap(), vec![0, 0, 0, 1, 2]);
    assert_eq!(e.indices().to_vec::<i32>().unwrap(), vec![0, 1]);
    let e = gpu_sparse::eye(2, 2, 5, DType::Float64).unwrap();
    assert_eq!(e.nnz(), 0);
    let i = gpu_sparse::identity(3, DType::Complex64).unwrap();
    assert_eq!(i.toarray().unwrap().shape(), &[3, 3]);
}
