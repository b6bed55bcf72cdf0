//! SpMV and SpMM on cuSPARSE against host products.

use gpu_array::{Array, DType};
use gpu_sparse::SpMatrix;
use num_complex::Complex64;

use crate::{Lcg, Triplets, assert_close, gpu, host_parts};

const DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// A dense `rows x cols` operand (`cols` 0: a vector) and its host copy
/// (real, imaginary), C order.
fn dense(rows: usize, cols: usize, dtype: DType, seed: u64) -> (Array, Vec<f64>, Vec<f64>) {
    let mut g = Lcg(seed);
    let n = rows * cols.max(1);
    let re: Vec<f64> = (0..n).map(|_| g.value()).collect();
    let im: Vec<f64> = if dtype.is_complex() {
        (0..n).map(|_| g.value()).collect()
    } else {
        vec![0.0; n]
    };
    let shape: Vec<usize> = if cols == 0 {
        vec![rows]
    } else {
        vec![rows, cols]
    };
    let c: Vec<Complex64> = (0..n).map(|k| Complex64::new(re[k], im[k])).collect();
    let a = Array::from_slice(&c, &shape).unwrap();
    let a = if dtype.is_complex() {
        a.astype(dtype).unwrap()
    } else {
        Array::from_slice(&re, &shape)
            .unwrap()
            .astype(dtype)
            .unwrap()
    };
    // Round-trip the host copy through the dtype (float32 inputs).
    let (re, im) = host_parts(&a);
    (a, re, im)
}

/// The host product of the triplets' matrix with a `n x k` operand.
fn host_product(
    t: &Triplets,
    xr: &[f64],
    xi: &[f64],
    k: usize,
    dtype: DType,
) -> (Vec<f64>, Vec<f64>) {
    let (ar, ai) = {
        // Values rounded through the dtype, as the device holds them.
        let (r, i) = host_parts(&t.data(dtype));
        (r, i)
    };
    let mut yr = vec![0.0; t.m * k];
    let mut yi = vec![0.0; t.m * k];
    for e in 0..t.rows.len() {
        let (r, c) = (t.rows[e], t.cols[e]);
        for j in 0..k {
            let (br, bi) = (xr[c * k + j], xi[c * k + j]);
            yr[r * k + j] += ar[e] * br - ai[e] * bi;
            yi[r * k + j] += ar[e] * bi + ai[e] * br;
        }
    }
    (yr, yi)
}

#[test]
fn spmv_and_spmm_match_the_host() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in [(300, 200, 3000), (5, 7, 0), (64, 1, 40)] {
        let t = Triplets::random(m, n, nnz, 11 + n as u64);
        for dtype in DTYPES {
            let csr = t.coo(dtype).tocsr().unwrap();
            let csc = t.coo(dtype).tocsc().unwrap();
            let wide = csr.with_index_dtype(DType::Int64).unwrap();
            for k in [0usize, 1, 16] {
                let (x, xr, xi) = dense(n, k, dtype, 5 + k as u64);
                let (wr, wi) = host_product(&t, &xr, &xi, k.max(1), dtype);
                for (label, y) in [
                    ("csr", csr.dot(&x).unwrap()),
                    ("csr again (cached plan)", csr.dot(&x).unwrap()),
                    ("csr int64", wide.dot(&x).unwrap()),
                    ("csc", csc.dot(&x).unwrap()),
                ] {
                    let what = format!("{label} {m}x{n} nnz {nnz} k {k}");
                    assert_eq!(y.dtype(), dtype, "{what}");
                    let want_shape: Vec<usize> = if k == 0 { vec![m] } else { vec![m, k] };
                    assert_eq!(y.shape(), want_shape.as_slice(), "{what}");
                    let (gr, gi) = host_parts(&y);
                    assert_close(&what, &gr, &wr, dtype);
                    assert_close(&what, &gi, &wi, dtype);
                }
            }
        }
    }
}

#[test]
fn products_promote_and_repeat_bit_for_bit() {
    if !gpu() {
        return;
    }
    let t = Triplets::random(500, 400, 8000, 99);
    // float32 matrix times float64 vector: float64 result (NumPy's promotion).
    let a = t.coo(DType::Float32).tocsr().unwrap();
    let (x, _, _) = dense(400, 0, DType::Float64, 1);
    let y = a.dot(&x).unwrap();
    assert_eq!(y.dtype(), DType::Float64);
    // An integer matrix multiplies as float64.
    let ai = t.coo(DType::Int32).tocsr().unwrap();
    assert_eq!(ai.dot(&x).unwrap().dtype(), DType::Float64);
    // CSR products are deterministic: the same bits every call.
    let a = t.coo(DType::Float64).tocsr().unwrap();
    let first = a.dot(&x).unwrap().to_vec::<f64>().unwrap();
    for _ in 0..5 {
        assert_eq!(a.dot(&x).unwrap().to_vec::<f64>().unwrap(), first);
    }
    // Another stream gets its own plan and the same numbers.
    let s = gpu_runtime::Stream::new().unwrap();
    let other = {
        let _g = s.use_stream();
        a.dot(&x).unwrap().to_vec::<f64>().unwrap()
    };
    assert_eq!(other, first);
    assert_eq!(a.nnz(), t.coo(DType::Float64).tocsr().unwrap().nnz());
}

/// The dense host product of two row-major matrices (real, imaginary).
fn host_matmul(
    a: (&[f64], &[f64]),
    b: (&[f64], &[f64]),
    m: usize,
    k: usize,
    n: usize,
) -> (Vec<f64>, Vec<f64>) {
    let mut re = vec![0.0; m * n];
    let mut im = vec![0.0; m * n];
    for i in 0..m {
        for l in 0..k {
            let (ar, ai) = (a.0[i * k + l], a.1[i * k + l]);
            for j in 0..n {
                let (br, bi) = (b.0[l * n + j], b.1[l * n + j]);
                re[i * n + j] += ar * br - ai * bi;
                im[i * n + j] += ar * bi + ai * br;
            }
        }
    }
    (re, im)
}

#[test]
fn sparse_times_sparse_matches_the_host() {
    if !gpu() {
        return;
    }
    for (m, k, n, nnz) in [(60, 40, 50, 300), (8, 8, 8, 0), (1, 30, 1, 10)] {
        let ta = Triplets::random(m, k, nnz, 21);
        let tb = Triplets::random(k, n, nnz, 22);
        for dtype in DTYPES {
            let a = ta.coo(dtype).tocsr().unwrap();
            let (adr, adi) = host_parts(&a.toarray().unwrap());
            let (bdr, bdi) = host_parts(&tb.coo(dtype).toarray().unwrap());
            let (wr, wi) = host_matmul((&adr, &adi), (&bdr, &bdi), m, k, n);
            // B as COO with duplicates, as CSC, and with int64 indices.
            let b_coo = tb.coo(dtype);
            let b_csc = b_coo.tocsc().unwrap();
            let a_wide = a.with_index_dtype(DType::Int64).unwrap();
            for (label, c) in [
                ("csr @ coo", a.matmul_sparse(&b_coo).unwrap()),
                ("csr @ csc", a.matmul_sparse(&b_csc).unwrap()),
                ("csr int64 @ coo", a_wide.matmul_sparse(&b_coo).unwrap()),
                (
                    "csc @ csc",
                    a.tocsc().unwrap().matmul_sparse(&b_csc).unwrap(),
                ),
            ] {
                let what = format!("{label} {m}x{k}x{n} nnz {nnz}");
                assert_eq!((c.shape(), c.dtype()), ((m, n), dtype), "{what}");
                let (gr, gi) = host_parts(&c.toarray().unwrap());
                assert_close(&what, &gr, &wr, dtype);
                assert_close(&what, &gi, &wi, dtype);
            }
        }
    }
    let a = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let e = a.matmul_sparse(&a).expect_err("3x4 @ 3x4").to_string();
    assert!(e.contains("dimension mismatch"), "{e}");
}

#[test]
fn dense_times_sparse_matches_the_host() {
    if !gpu() {
        return;
    }
    let (m, n) = (30, 20);
    let t = Triplets::random(m, n, 150, 77);
    for dtype in [DType::Float64, DType::Complex64] {
        let a = t.coo(dtype).tocsr().unwrap();
        let (ar, ai) = host_parts(&a.toarray().unwrap());
        for k in [0usize, 4] {
            // x is k x m (a vector of m when k is 0).
            let (x, xr, xi) = dense(k.max(1), m, dtype, 9);
            let x = if k == 0 {
                x.reshape([m as isize]).unwrap()
            } else {
                x
            };
            let rows = k.max(1);
            let mut wr = vec![0.0; rows * n];
            let mut wi = vec![0.0; rows * n];
            for r in 0..rows {
                for i in 0..m {
                    for j in 0..n {
                        let (p, q) = (xr[r * m + i], xi[r * m + i]);
                        wr[r * n + j] += p * ar[i * n + j] - q * ai[i * n + j];
                        wi[r * n + j] += p * ai[i * n + j] + q * ar[i * n + j];
                    }
                }
            }
            for (label, y) in [
                ("csr", a.rdot(&x).unwrap()),
                ("csc", a.tocsc().unwrap().rdot(&x).unwrap()),
            ] {
                let want: Vec<usize> = if k == 0 { vec![n] } else { vec![k, n] };
                assert_eq!(y.shape(), want.as_slice(), "{label}");
                let (gr, gi) = host_parts(&y);
                assert_close(label, &gr, &wr, dtype);
                assert_close(label, &gi, &wi, dtype);
            }
        }
    }
    let a = gpu_sparse::eye(3, 4, 0, DType::Float64).unwrap();
    let e = a
        .rdot(&gpu_array::creation::ones(4, DType::Float64).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("dimension mismatch"), "{e}");
}

/// Products in the dtypes cuSPARSE does not take (integers, bool,
/// float16) against a host product in the same arithmetic: CSR, CSC and
/// BSR, vectors and matrices, wrapping integers.
#[test]
fn integer_and_bool_products_match_numpy() {
    if !gpu() {
        return;
    }
    let t = Triplets::random(60, 45, 400, 7);
    // Integer values: the random values scaled and truncated, some large
    // enough that int8 products wrap.
    let ints: Vec<i64> = t.vals.iter().map(|v| (v * 100.0) as i64).collect();
    let x: Vec<i64> = (0..45).map(|k| (k as i64 * 37) % 19 - 9).collect();
    let mut want = vec![0i64; 60];
    for k in 0..ints.len() {
        want[t.rows[k]] = want[t.rows[k]].wrapping_add(ints[k].wrapping_mul(x[t.cols[k]]));
    }
    let coo = gpu_sparse::CooMatrix::from_triplets(&t.rows, &t.cols, &ints, (60, 45)).unwrap();
    let xa = Array::from_slice(&x, &[45]).unwrap();
    let csr = coo.tocsr().unwrap();
    assert_eq!(csr.dot(&xa).unwrap().to_vec::<i64>().unwrap(), want);
    assert_eq!(
        coo.tocsc()
            .unwrap()
            .dot(&xa)
            .unwrap()
            .to_vec::<i64>()
            .unwrap(),
        want
    );
    // A matrix operand: each column its own product.
    let x2 = gpu_array::manipulation::stack(&[&xa, &xa], 1).unwrap();
    let y2 = csr.dot(&x2).unwrap().to_vec::<i64>().unwrap();
    for r in 0..60 {
        assert_eq!((y2[2 * r], y2[2 * r + 1]), (want[r], want[r]));
    }
    // int8 wraps as NumPy's int8 matmul does.
    let small: Vec<i8> = ints.iter().map(|&v| v as i8).collect();
    let xs: Vec<i8> = x.iter().map(|&v| v as i8).collect();
    let mut want8 = vec![0i8; 60];
    for k in 0..small.len() {
        want8[t.rows[k]] = want8[t.rows[k]].wrapping_add(small[k].wrapping_mul(xs[t.cols[k]]));
    }
    let a8 = gpu_sparse::CooMatrix::from_triplets(&t.rows, &t.cols, &small, (60, 45))
        .unwrap()
        .tocsr()
        .unwrap();
    let y8 = a8.dot(&Array::from_slice(&xs, &[45]).unwrap()).unwrap();
    assert_eq!(y8.to_vec::<i8>().unwrap(), want8);
    // BSR of an integer matrix goes through its CSR form.
    let dense = csr.todense().unwrap();
    let bsr = gpu_sparse::BsrMatrix::from_dense(&dense, (3, 5)).unwrap();
    assert_eq!(bsr.dot(&xa).unwrap().to_vec::<i64>().unwrap(), want);
}
