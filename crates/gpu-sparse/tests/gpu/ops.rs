//! Arithmetic, comparisons, elementwise functions, reductions and
//! indexing of CSR and CSC matrices against host dense references, over
//! float32, float64, complex128 and int64, from non-canonical inputs
//! (unsorted columns, duplicates), with empty rows, empty matrices and
//! int64 indices.

use gpu_array::{Array, DType};
use gpu_sparse::{CscMatrix, CsrMatrix, SpMatrix};

use crate::{Triplets, assert_close, gpu, host_parts};

const DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex128,
    DType::Int64,
];

/// (rows, columns, entries): a tall and a wide matrix with duplicates, a
/// row, an empty-patterned matrix and one with no rows.
const SHAPES: [(usize, usize, usize); 5] =
    [(13, 9, 60), (7, 11, 40), (1, 5, 7), (4, 4, 0), (0, 3, 0)];

/// The dense host reference of `t` in `dtype` (integers: each value
/// truncated before the duplicates add, as the cast does).
fn reference(t: &Triplets, dtype: DType) -> (Vec<f64>, Vec<f64>) {
    let mut re = vec![0.0; t.m * t.n];
    let mut im = vec![0.0; t.m * t.n];
    for k in 0..t.rows.len() {
        let at = t.rows[k] * t.n + t.cols[k];
        if dtype.is_integer() {
            re[at] += t.vals[k].trunc();
        } else {
            re[at] += t.vals[k];
            if dtype.is_complex() {
                im[at] += t.imag[k];
            }
        }
    }
    (re, im)
}

/// A CSR matrix straight from `t`'s entries grouped by row in their
/// order: columns unsorted and duplicates kept (not canonical).
fn raw_csr(t: &Triplets, dtype: DType) -> CsrMatrix {
    let mut order: Vec<usize> = (0..t.rows.len()).collect();
    order.sort_by_key(|&k| t.rows[k]);
    let mut indptr = vec![0i32; t.m + 1];
    for &r in &t.rows {
        indptr[r + 1] += 1;
    }
    for r in 0..t.m {
        indptr[r + 1] += indptr[r];
    }
    let sorted = Triplets {
        m: t.m,
        n: t.n,
        rows: order.iter().map(|&k| t.rows[k]).collect(),
        cols: order.iter().map(|&k| t.cols[k]).collect(),
        vals: order.iter().map(|&k| t.vals[k]).collect(),
        imag: order.iter().map(|&k| t.imag[k]).collect(),
    };
    let indices: Vec<i32> = sorted.cols.iter().map(|&c| c as i32).collect();
    CsrMatrix::new(
        &sorted.data(dtype),
        &Array::from_slice(&indices, &[indices.len()]).unwrap(),
        &Array::from_slice(&indptr, &[indptr.len()]).unwrap(),
        (t.m, t.n),
    )
    .unwrap()
}

/// The dense values of a matrix on the host.
fn dense(a: &impl SpMatrix) -> (Vec<f64>, Vec<f64>) {
    host_parts(&a.toarray().unwrap())
}

fn check(what: &str, a: &impl SpMatrix, want: &(Vec<f64>, Vec<f64>), dtype: DType) {
    let (re, im) = dense(a);
    let tol = if dtype.is_integer() || dtype == DType::Bool {
        DType::Float64
    } else {
        dtype
    };
    assert_close(&format!("{what} (real)"), &re, &want.0, tol);
    assert_close(&format!("{what} (imag)"), &im, &want.1, tol);
}

fn zip(a: &[f64], b: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect()
}

fn err<T: std::fmt::Debug>(r: gpu_array::Result<T>) -> String {
    r.expect_err("an error").to_string()
}

/// Every stored value is nonzero and the indices are canonical.
fn assert_tidy(what: &str, a: &CsrMatrix) {
    assert!(a.has_canonical_format().unwrap(), "{what}: canonical");
    let (re, im) = host_parts(a.data());
    assert!(
        re.iter().zip(&im).all(|(r, i)| *r != 0.0 || *i != 0.0),
        "{what}: no stored zeros"
    );
}

#[test]
fn add_sub_scalar_products_and_neg() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let (ta, tb) = (
            Triplets::random(m, n, nnz, 11 + m as u64),
            Triplets::random(m, n, nnz / 2 + 3, 5 + n as u64),
        );
        for dtype in DTYPES {
            let (a, b) = (raw_csr(&ta, dtype), raw_csr(&tb, dtype));
            let (ra, rb) = (reference(&ta, dtype), reference(&tb, dtype));
            let sum = (
                zip(&ra.0, &rb.0, |x, y| x + y),
                zip(&ra.1, &rb.1, |x, y| x + y),
            );
            let diff = (
                zip(&ra.0, &rb.0, |x, y| x - y),
                zip(&ra.1, &rb.1, |x, y| x - y),
            );
            let s = a.add(&b).unwrap();
            assert_eq!(s.dtype(), dtype);
            check("csr + csr", &s, &sum, dtype);
            assert_tidy("csr + csr", &s);
            check("csr - csr", &a.sub(&b).unwrap(), &diff, dtype);
            assert_eq!(a.sub(&a).unwrap().nnz(), 0, "A - A stores nothing");
            // CSC, a mixed pair, int64 indices.
            let (ac, bc) = (a.tocsc().unwrap(), b.tocsc().unwrap());
            let sc: CscMatrix = ac.add(&bc).unwrap();
            check("csc + csc", &sc, &sum, dtype);
            check("csr - csc", &a.sub(&bc).unwrap(), &diff, dtype);
            let wide = a.with_index_dtype(DType::Int64).unwrap();
            check("csr int64 + csr", &wide.add(&b).unwrap(), &sum, dtype);

            let neg = (
                ra.0.iter().map(|v| -v).collect(),
                ra.1.iter().map(|v| -v).collect(),
            );
            check("-csr", &a.neg().unwrap(), &neg, dtype);
            check("-csc", &ac.neg().unwrap(), &neg, dtype);

            let times = a.mul_scalar(3).unwrap();
            assert_eq!(times.dtype(), dtype, "a weak scalar keeps the dtype");
            let want = (
                ra.0.iter().map(|v| v * 3.0).collect(),
                ra.1.iter().map(|v| v * 3.0).collect(),
            );
            check("csr * 3", &times, &want, dtype);
            let q = ac.div_scalar(4).unwrap();
            let qdt = match dtype {
                DType::Complex128 => DType::Complex128,
                _ => DType::Float64,
            };
            assert_eq!(q.dtype(), qdt, "SciPy's true division dtype");
            let want = (
                ra.0.iter().map(|v| v / 4.0).collect(),
                ra.1.iter().map(|v| v / 4.0).collect(),
            );
            // float32 values divide exactly in float64: their own error.
            let tol = if dtype == DType::Float32 { dtype } else { qdt };
            check("csc / 4", &q, &want, tol);
        }
    }
    // float32 / 2 is float64, as SciPy's.
    let t = Triplets::random(3, 3, 4, 1);
    let q = raw_csr(&t, DType::Float32).div_scalar(2.0).unwrap();
    assert_eq!(q.dtype(), DType::Float64);
}

#[test]
fn elementwise_products_power_and_extremes() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let (ta, tb) = (
            Triplets::random(m, n, nnz, 21 + m as u64),
            Triplets::random(m, n, nnz, 3 + n as u64),
        );
        for dtype in DTYPES {
            let (a, b) = (raw_csr(&ta, dtype), raw_csr(&tb, dtype));
            let (ra, rb) = (reference(&ta, dtype), reference(&tb, dtype));
            // (x + iy)(u + iv) = xu - yv + i(xv + yu).
            let prod = (
                (0..m * n)
                    .map(|k| ra.0[k] * rb.0[k] - ra.1[k] * rb.1[k])
                    .collect::<Vec<_>>(),
                (0..m * n)
                    .map(|k| ra.0[k] * rb.1[k] + ra.1[k] * rb.0[k])
                    .collect::<Vec<_>>(),
            );
            let p = a.multiply(&b).unwrap();
            check("csr.multiply(csr)", &p, &prod, dtype);
            assert_tidy("csr.multiply(csr)", &p);
            check(
                "csc.multiply(csr)",
                &a.tocsc().unwrap().multiply(&b).unwrap(),
                &prod,
                dtype,
            );
            // With a dense array of the same shape: b's dense values.
            let bd = b.toarray().unwrap();
            check(
                "csr.multiply(dense)",
                &a.multiply_dense(&bd).unwrap(),
                &prod,
                dtype,
            );
            check(
                "csc.multiply(dense)",
                &a.tocsc().unwrap().multiply_dense(&bd).unwrap(),
                &prod,
                dtype,
            );
            if n > 0 && m > 0 && !dtype.is_complex() {
                // A row vector and a column vector broadcast.
                let row: Vec<f64> = (0..n).map(|j| j as f64 - 2.0).collect();
                let col: Vec<f64> = (0..m).map(|i| 1.0 + i as f64).collect();
                let rv = Array::from_slice(&row, &[1, n])
                    .unwrap()
                    .astype(dtype)
                    .unwrap();
                let cv = Array::from_slice(&col, &[m, 1])
                    .unwrap()
                    .astype(dtype)
                    .unwrap();
                let want_r = (
                    (0..m * n).map(|k| ra.0[k] * row[k % n]).collect(),
                    vec![0.0; m * n],
                );
                let want_c = (
                    (0..m * n).map(|k| ra.0[k] * col[k / n]).collect(),
                    vec![0.0; m * n],
                );
                check("csr * row", &a.multiply_dense(&rv).unwrap(), &want_r, dtype);
                check(
                    "csc * column",
                    &a.tocsc().unwrap().multiply_dense(&cv).unwrap(),
                    &want_c,
                    dtype,
                );
            }
            if !dtype.is_complex() {
                let sq = (ra.0.iter().map(|v| v * v).collect(), vec![0.0; m * n]);
                check("power(2)", &a.power(2).unwrap(), &sq, dtype);
                let mx = (zip(&ra.0, &rb.0, f64::max), vec![0.0; m * n]);
                let mn = (zip(&ra.0, &rb.0, f64::min), vec![0.0; m * n]);
                let got = a.maximum(&b).unwrap();
                check("maximum", &got, &mx, dtype);
                assert_tidy("maximum", &got);
                check(
                    "minimum",
                    &a.tocsc().unwrap().minimum(&b).unwrap(),
                    &mn,
                    dtype,
                );
            }
        }
    }
    let a = raw_csr(&Triplets::random(4, 4, 6, 2), DType::Float64);
    assert!(err(a.power(0)).contains("zero power is not supported"));
    let bad = raw_csr(&Triplets::random(4, 5, 6, 2), DType::Float64);
    assert!(err(a.add(&bad)).contains("inconsistent shapes"));
    assert!(err(a.multiply(&bad)).contains("inconsistent shapes"));
    assert!(err(a.maximum(&bad)).contains("inconsistent shapes"));
    let d = gpu_array::creation::zeros([3usize, 4], DType::Float64).unwrap();
    assert!(err(a.multiply_dense(&d)).contains("inconsistent shapes"));
}

#[test]
fn comparisons_are_sparse_bool_or_refused() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let (ta, tb) = (
            Triplets::random(m, n, nnz, 31 + m as u64),
            Triplets::random(m, n, nnz, 7 + n as u64),
        );
        for dtype in [DType::Float64, DType::Float32, DType::Int64] {
            let (a, b) = (raw_csr(&ta, dtype), raw_csr(&tb, dtype));
            let (ra, rb) = (reference(&ta, dtype), reference(&tb, dtype));
            let z = vec![0.0; m * n];
            let as_f = |c: bool| f64::from(u8::from(c));
            for (what, got, f) in [
                (
                    "!=",
                    a.ne(&b).unwrap(),
                    (|x: f64, y: f64| x != y) as fn(f64, f64) -> bool,
                ),
                ("<", a.lt(&b).unwrap(), |x, y| x < y),
                (">", a.gt(&b).unwrap(), |x, y| x > y),
            ] {
                assert_eq!(got.dtype(), DType::Bool, "{what}");
                let want = (zip(&ra.0, &rb.0, |x, y| as_f(f(x, y))), z.clone());
                check(what, &got, &want, DType::Float64);
            }
            let want = (ra.0.iter().map(|&x| as_f(x != 0.0)).collect(), z.clone());
            check("!= 0", &a.ne_scalar(0).unwrap(), &want, DType::Float64);
            let want = (ra.0.iter().map(|&x| as_f(x > 1.5)).collect(), z.clone());
            check(
                "> 1.5",
                &a.tocsc().unwrap().gt_scalar(1.5).unwrap(),
                &want,
                DType::Float64,
            );
            let want = (ra.0.iter().map(|&x| as_f(x < -2.0)).collect(), z.clone());
            check("< -2", &a.lt_scalar(-2.0).unwrap(), &want, DType::Float64);
        }
    }
    let a = raw_csr(&Triplets::random(3, 3, 5, 9), DType::Float64);
    for e in [
        err(a.eq(&a)),
        err(a.le(&a)),
        err(a.ge(&a)),
        err(a.eq_scalar(0)),
        err(a.ne_scalar(1)),
        err(a.lt_scalar(1)),
        err(a.ge_scalar(0.0)),
    ] {
        assert!(e.contains("dense result"), "{e}");
    }
}

#[test]
fn elementwise_ufuncs_keep_the_pattern() {
    if !gpu() {
        return;
    }
    let t = Triplets::random(9, 8, 40, 4);
    let a = raw_csr(&t, DType::Float64);
    let (re, _) = reference(&t, DType::Float64);
    let z = vec![0.0; re.len()];
    type F = fn(&CsrMatrix) -> gpu_array::Result<CsrMatrix>;
    type Case = (&'static str, F, fn(f64) -> f64);
    let cases: [Case; 8] = [
        ("abs", CsrMatrix::abs, f64::abs),
        ("sin", CsrMatrix::sin, f64::sin),
        ("expm1", CsrMatrix::expm1, f64::exp_m1),
        ("floor", CsrMatrix::floor, f64::floor),
        ("ceil", CsrMatrix::ceil, f64::ceil),
        ("trunc", CsrMatrix::trunc, f64::trunc),
        ("tanh", CsrMatrix::tanh, f64::tanh),
        ("deg2rad", CsrMatrix::deg2rad, f64::to_radians),
    ];
    for (what, f, host) in cases {
        let got = f(&a).unwrap();
        check(
            what,
            &got,
            &(re.iter().map(|&v| host(v)).collect(), z.clone()),
            DType::Float64,
        );
    }
    // sqrt of the summed values (duplicates added first, as SciPy).
    let sq = a.abs().unwrap().sqrt().unwrap();
    check(
        "sqrt(abs)",
        &sq,
        &(re.iter().map(|v| v.abs().sqrt()).collect(), z.clone()),
        DType::Float64,
    );
    let i = raw_csr(&t, DType::Int64).sqrt().unwrap();
    assert_eq!(i.dtype(), DType::Float64, "sqrt of integers is float64");
    let c = a.tocsc().unwrap().sign().unwrap();
    check(
        "csc sign",
        &c,
        &(
            re.iter()
                .map(|&v| if v == 0.0 { 0.0 } else { v.signum() })
                .collect(),
            z,
        ),
        DType::Float64,
    );
}

#[test]
fn sums_means_and_extremes_match_dense() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let t = Triplets::random(m, n, nnz, 41 + m as u64);
        for dtype in DTYPES {
            let a = raw_csr(&t, dtype);
            let (re, im) = reference(&t, dtype);
            let tol = if dtype.is_integer() {
                DType::Float64
            } else {
                dtype
            };
            let col_sum = |v: &[f64]| {
                (0..n)
                    .map(|j| (0..m).map(|i| v[i * n + j]).sum())
                    .collect::<Vec<f64>>()
            };
            let row_sum = |v: &[f64]| {
                (0..m)
                    .map(|i| (0..n).map(|j| v[i * n + j]).sum())
                    .collect::<Vec<f64>>()
            };
            for (what, csc) in [("csr", false), ("csc", true)] {
                let s = |axis| {
                    if csc {
                        a.tocsc().unwrap().sum(axis).unwrap()
                    } else {
                        a.with_index_dtype(DType::Int64).unwrap().sum(axis).unwrap()
                    }
                };
                let total = s(None);
                assert_eq!(total.ndim(), 0, "{what}: sum() is 0-d");
                let want_dt = if dtype.is_integer() {
                    DType::Int64
                } else {
                    dtype
                };
                assert_eq!(total.dtype(), want_dt);
                let (tr, ti) = host_parts(&total.reshape([1isize]).unwrap());
                assert_close(what, &tr, &[re.iter().sum()], tol);
                assert_close(what, &ti, &[im.iter().sum()], tol);
                for axis in [Some(0), Some(-2)] {
                    let (r, i) = host_parts(&s(axis));
                    assert_close(&format!("{what} sum(0)"), &r, &col_sum(&re), tol);
                    assert_close(&format!("{what} sum(0) imag"), &i, &col_sum(&im), tol);
                }
                let (r, i) = host_parts(&s(Some(1)));
                assert_close(&format!("{what} sum(1)"), &r, &row_sum(&re), tol);
                assert_close(&format!("{what} sum(1) imag"), &i, &row_sum(&im), tol);
            }
            let mean = a.mean(Some(1)).unwrap();
            let want_dt = if dtype.is_integer() {
                DType::Float64
            } else {
                dtype
            };
            assert_eq!(mean.dtype(), want_dt);
            if n > 0 {
                let (r, _) = host_parts(&mean);
                let want: Vec<f64> = row_sum(&re).iter().map(|v| v / n as f64).collect();
                assert_close("mean(1)", &r, &want, tol);
            }
            if dtype.is_complex() || m == 0 || n == 0 {
                continue;
            }
            let fold = |v: &[f64], max: bool| {
                v.iter()
                    .copied()
                    .fold(if max { f64::MIN } else { f64::MAX }, |acc, x| {
                        if max { acc.max(x) } else { acc.min(x) }
                    })
            };
            for max in [true, false] {
                let c = a.tocsc().unwrap();
                let (got, got_c) = if max {
                    (a.max(None).unwrap(), c.max(Some(0)).unwrap())
                } else {
                    (a.min(None).unwrap(), c.min(Some(0)).unwrap())
                };
                let (r, _) = host_parts(&got.reshape([1isize]).unwrap());
                assert_close("max/min()", &r, &[fold(&re, max)], tol);
                let cols: Vec<f64> = (0..n)
                    .map(|j| fold(&(0..m).map(|i| re[i * n + j]).collect::<Vec<_>>(), max))
                    .collect();
                assert_close("max/min(0) of csc", &host_parts(&got_c).0, &cols, tol);
                let rows: Vec<f64> = (0..m).map(|i| fold(&re[i * n..(i + 1) * n], max)).collect();
                let got_r = if max {
                    a.max(Some(1)).unwrap()
                } else {
                    a.min(Some(-1)).unwrap()
                };
                assert_close("max/min(1)", &host_parts(&got_r).0, &rows, tol);
                // argmax/argmin: the first extreme in row-major order
                // (float32 sums may tie differently from the float64
                // reference, so exact positions only for the others).
                if dtype == DType::Float32 {
                    continue;
                }
                let target = fold(&re, max);
                let want = re.iter().position(|&v| v == target).unwrap();
                let got = if max {
                    a.argmax().unwrap()
                } else {
                    c.argmin().unwrap()
                };
                assert_eq!(
                    got,
                    want,
                    "arg{} ({dtype})",
                    if max { "max" } else { "min" }
                );
            }
            if dtype == DType::Float32 {
                continue;
            }
            assert_eq!(
                a.count_nonzero().unwrap(),
                re.iter().filter(|v| **v != 0.0).count()
            );
        }
    }
    let a = raw_csr(&Triplets::random(3, 4, 5, 1), DType::Float64);
    assert!(err(a.sum(Some(2))).contains("axis out of range"));
    let e = raw_csr(&Triplets::random(0, 3, 0, 1), DType::Float64);
    assert!(err(e.max(None)).contains("zero-size array to reduction operation"));
    assert!(err(e.argmax()).contains("Cannot apply argmax to an empty matrix."));
    // Implicit zeros count: all negative entries, one missing element.
    let d = gpu_array::creation::array([[-1.0, -2.0], [0.0, -3.0]]).unwrap();
    let s = CsrMatrix::from_dense(&d).unwrap();
    assert_eq!(s.argmax().unwrap(), 2);
    assert_eq!(s.argmin().unwrap(), 3);
    assert_eq!(host_parts(&s.max(Some(0)).unwrap()).0, vec![0.0, -2.0]);
}

#[test]
fn diagonal_trace_setdiag_and_nonzero() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let t = Triplets::random(m, n, nnz, 51 + m as u64);
        for dtype in DTYPES {
            let a = raw_csr(&t, dtype);
            let c = a.tocsc().unwrap();
            let (re, im) = reference(&t, dtype);
            let tol = if dtype.is_integer() {
                DType::Float64
            } else {
                dtype
            };
            for k in -3isize..=3 {
                let cells: Vec<usize> = (0..m)
                    .filter_map(|i| {
                        let j = i as isize + k;
                        (j >= 0 && (j as usize) < n).then(|| i * n + j as usize)
                    })
                    .collect();
                let want_r: Vec<f64> = cells.iter().map(|&x| re[x]).collect();
                let want_i: Vec<f64> = cells.iter().map(|&x| im[x]).collect();
                for (what, d) in [
                    ("csr", a.diagonal(k).unwrap()),
                    ("csc", c.diagonal(k).unwrap()),
                ] {
                    let (r, i) = host_parts(&d);
                    assert_close(&format!("{what} diagonal({k})"), &r, &want_r, tol);
                    assert_close(&format!("{what} diagonal({k}) imag"), &i, &want_i, tol);
                }
                let (tr, _) = host_parts(&a.trace(k).unwrap().reshape([1isize]).unwrap());
                assert_close("trace", &tr, &[want_r.iter().sum()], tol);
                if cells.is_empty() {
                    continue;
                }
                // setdiag with a short 1-D array, then with a scalar.
                let vals: Vec<f64> = (0..cells.len().div_ceil(2))
                    .map(|x| 100.0 + x as f64)
                    .collect();
                let v = Array::from_slice(&vals, &[vals.len()]).unwrap();
                let mut want = (re.clone(), im.clone());
                for (x, &cell) in vals.iter().zip(&cells) {
                    want.0[cell] = *x;
                    want.1[cell] = 0.0;
                }
                let mut s = a.clone();
                s.setdiag(&v, k).unwrap();
                check("csr setdiag", &s, &want, tol);
                assert!(s.has_canonical_format().unwrap());
                let mut sc = c.clone();
                sc.setdiag(&v, k).unwrap();
                check("csc setdiag", &sc, &want, tol);
                let mut z = a.clone();
                z.setdiag(&Array::scalar(0.0f64).unwrap(), k).unwrap();
                let mut want = (re.clone(), im.clone());
                for &cell in &cells {
                    want.0[cell] = 0.0;
                    want.1[cell] = 0.0;
                }
                check("setdiag(0)", &z, &want, tol);
            }
            if dtype == DType::Float32 {
                // Which float32 sums cancel may differ from float64.
                continue;
            }
            // nonzero of the summed matrix: the dense nonzeros in
            // row-major order (canonical CSR storage order).
            let summed = a.tocoo().unwrap().tocsr().unwrap();
            let (rows, cols) = summed.nonzero().unwrap();
            let got: Vec<(i64, i64)> = rows
                .to_vec_as::<i64>()
                .unwrap()
                .into_iter()
                .zip(cols.to_vec_as::<i64>().unwrap())
                .collect();
            let want: Vec<(i64, i64)> = (0..m * n)
                .filter(|&x| re[x] != 0.0 || im[x] != 0.0)
                .map(|x| ((x / n) as i64, (x % n) as i64))
                .collect();
            assert_eq!(got, want, "nonzero ({dtype})");
            // Of the raw matrix: every stored nonzero entry, duplicates
            // included.
            let (rows, _) = a.nonzero().unwrap();
            let stored = host_parts(a.data());
            let count = (0..a.nnz())
                .filter(|&k| stored.0[k] != 0.0 || stored.1[k] != 0.0)
                .count();
            assert_eq!(rows.size(), count);
        }
    }
    let mut a = raw_csr(&Triplets::random(3, 4, 5, 1), DType::Float64);
    let one = Array::scalar(1.0f64).unwrap();
    assert!(err(a.setdiag(&one, 4)).contains("k exceeds array dimensions"));
    assert!(err(a.setdiag(&one, -3)).contains("k exceeds array dimensions"));
}

#[test]
fn slices_fancy_rows_masks_and_elements() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in SHAPES {
        let t = Triplets::random(m, n, nnz, 61 + m as u64);
        for dtype in DTYPES {
            let a = raw_csr(&t, dtype);
            let (re, im) = reference(&t, dtype);
            let tol = if dtype.is_integer() {
                DType::Float64
            } else {
                dtype
            };
            let pick = |rows: &[usize], cols: &[usize]| {
                let mut r = vec![];
                let mut i = vec![];
                for &x in rows {
                    for &y in cols {
                        r.push(re[x * n + y]);
                        i.push(im[x * n + y]);
                    }
                }
                (r, i)
            };
            let all_r: Vec<usize> = (0..m).collect();
            let all_c: Vec<usize> = (0..n).collect();
            let c = a.tocsc().unwrap();
            let wide = a.with_index_dtype(DType::Int64).unwrap();
            for (what, start, stop, step) in
                [("1..", 1, m, 1), ("::2", 0, m + 5, 2), ("empty", 2, 2, 1)]
            {
                let rows: Vec<usize> = (start.min(m)..stop.min(m)).step_by(step).collect();
                let want = pick(&rows, &all_c);
                check(
                    &format!("csr rows {what}"),
                    &a.row_slice(start..stop, step).unwrap(),
                    &want,
                    tol,
                );
                check(
                    &format!("csr64 rows {what}"),
                    &wide.row_slice(start..stop, step).unwrap(),
                    &want,
                    tol,
                );
                check(
                    &format!("csc rows {what}"),
                    &c.row_slice(start..stop, step).unwrap(),
                    &want,
                    tol,
                );
                let cols: Vec<usize> = (start.min(n)..stop.min(n)).step_by(step).collect();
                let want = pick(&all_r, &cols);
                check(
                    &format!("csr cols {what}"),
                    &a.col_slice(start..stop, step).unwrap(),
                    &want,
                    tol,
                );
                check(
                    &format!("csc cols {what}"),
                    &c.col_slice(start..stop, step).unwrap(),
                    &want,
                    tol,
                );
            }
            check(
                "get_rows(..)",
                &a.get_rows(0..m).unwrap(),
                &(re.clone(), im.clone()),
                tol,
            );
            check(
                "get_cols(..)",
                &c.get_cols(0..n).unwrap(),
                &(re.clone(), im.clone()),
                tol,
            );
            if m > 0 && n > 0 {
                // Fancy rows: reordered, repeated, negative.
                let idx = [m as i64 - 1, 0, 0, -1, (m / 2) as i64];
                let rows: Vec<usize> = idx
                    .iter()
                    .map(|&i| {
                        if i < 0 {
                            (i + m as i64) as usize
                        } else {
                            i as usize
                        }
                    })
                    .collect();
                let ia = Array::from_slice(&idx, &[idx.len()]).unwrap();
                let want = pick(&rows, &all_c);
                let got = a.take_rows(&ia).unwrap();
                assert_eq!(got.shape(), (idx.len(), n));
                check("csr take_rows", &got, &want, tol);
                check(
                    "csr64 take_rows",
                    &wide.take_rows(&ia.astype(DType::Int32).unwrap()).unwrap(),
                    &want,
                    tol,
                );
                check("csc take_rows", &c.take_rows(&ia).unwrap(), &want, tol);
                let cidx = [n as i64 - 1, 0, -1];
                let cols: Vec<usize> = cidx
                    .iter()
                    .map(|&i| {
                        if i < 0 {
                            (i + n as i64) as usize
                        } else {
                            i as usize
                        }
                    })
                    .collect();
                let ca = Array::from_slice(&cidx, &[cidx.len()]).unwrap();
                let want = pick(&all_r, &cols);
                check("csr take_cols", &a.take_cols(&ca).unwrap(), &want, tol);
                check("csc take_cols", &c.take_cols(&ca).unwrap(), &want, tol);
                // Masks.
                let mask: Vec<bool> = (0..m).map(|i| i % 2 == 0).collect();
                let rows: Vec<usize> = (0..m).filter(|i| i % 2 == 0).collect();
                let ma = Array::from_slice(&mask, &[m]).unwrap();
                check(
                    "csr mask_rows",
                    &a.mask_rows(&ma).unwrap(),
                    &pick(&rows, &all_c),
                    tol,
                );
                check(
                    "csc mask_rows",
                    &c.mask_rows(&ma).unwrap(),
                    &pick(&rows, &all_c),
                    tol,
                );
                let cmask: Vec<bool> = (0..n).map(|j| j % 3 != 1).collect();
                let cols: Vec<usize> = (0..n).filter(|j| j % 3 != 1).collect();
                let cm = Array::from_slice(&cmask, &[n]).unwrap();
                check(
                    "csr mask_cols",
                    &a.mask_cols(&cm).unwrap(),
                    &pick(&all_r, &cols),
                    tol,
                );
                // Single elements, duplicates summed.
                for (i, j) in [
                    (0isize, 0isize),
                    (m as isize - 1, n as isize - 1),
                    (-1, -1),
                    (0, -(n as isize)),
                ] {
                    let (ii, jj) = (
                        i.rem_euclid(m as isize) as usize,
                        j.rem_euclid(n as isize) as usize,
                    );
                    for (what, got) in
                        [("csr", a.get(i, j).unwrap()), ("csc", c.get(i, j).unwrap())]
                    {
                        assert_eq!(got.ndim(), 0);
                        assert_eq!(got.dtype(), dtype);
                        let (r, im2) = host_parts(&got.reshape([1isize]).unwrap());
                        assert_close(
                            &format!("{what} get({i}, {j})"),
                            &r,
                            &[re[ii * n + jj]],
                            tol,
                        );
                        assert_close(&format!("{what} get imag"), &im2, &[im[ii * n + jj]], tol);
                    }
                }
            }
        }
    }
    let a = raw_csr(&Triplets::random(3, 4, 5, 1), DType::Float64);
    let idx = Array::from_slice(&[0i64, 5], &[2]).unwrap();
    assert!(err(a.take_rows(&idx)).contains("index (5) out of range"));
    let idx = Array::from_slice(&[-4i64], &[1]).unwrap();
    assert!(err(a.take_rows(&idx)).contains("index (-4) out of range"));
    let idx = Array::from_slice(&[4i64], &[1]).unwrap();
    assert!(err(a.tocsc().unwrap().take_cols(&idx)).contains("index (4) out of range"));
    assert!(err(a.get(5, 0)).contains("row index (5) out of range"));
    assert!(err(a.get(0, -7)).contains("column index (-7) out of range"));
    assert!(err(a.tocsc().unwrap().get(-4, 0)).contains("row index (-4) out of range"));
    let mask = Array::from_slice(&[true, false], &[2]).unwrap();
    assert!(err(a.mask_rows(&mask)).contains("boolean index did not match"));
    assert!(err(a.row_slice(0..3, 0)).contains("slice step cannot be zero"));
}

/// argmax and argmin along an axis, with and without `explicit`, of CSR
/// and CSC matrices: SciPy 1.17's values (an explicit zero, a NaN, an
/// empty row, a full row, negative and positive extremes).
#[test]
fn arg_extremes_along_axes_match_scipy() {
    if !gpu() {
        return;
    }
    use gpu_sparse::ArgOptions;
    let dense = gpu_array::creation::array([
        [-1.0, 0.0, 0.0, -2.0],
        [0.0, 0.0, 0.0, 0.0],
        [3.0, 1.0, 2.0, 4.0],
        [0.0, -5.0, 0.0, 0.0],
        [0.0, 0.0, 7.0, 0.0],
    ])
    .unwrap();
    let a = CsrMatrix::from_dense(&dense).unwrap();
    let b = gpu_sparse::CooMatrix::from_triplets(
        &[0, 0, 1, 3, 3, 4],
        &[1, 3, 2, 0, 2, 1],
        &[0.0, -1.0, f64::NAN, 2.0, 2.0, -3.0],
        (5, 4),
    )
    .unwrap()
    .tocsr()
    .unwrap();
    // (matrix, argmax?, axis, explicit, SciPy's result)
    #[rustfmt::skip]
    let cases: [(&CsrMatrix, bool, isize, bool, &[i64]); 16] = [
        (&a, true, 0, false, &[2, 2, 4, 2]), (&a, true, 0, true, &[2, 2, 4, 2]),
        (&a, true, 1, false, &[1, 0, 3, 0, 2]), (&a, true, 1, true, &[0, 0, 3, 1, 2]),
        (&a, false, 0, false, &[0, 3, 0, 0]), (&a, false, 0, true, &[0, 3, 2, 0]),
        (&a, false, 1, false, &[3, 0, 1, 1, 0]), (&a, false, 1, true, &[3, 0, 1, 1, 2]),
        (&b, true, 0, false, &[3, 0, 0, 1]), (&b, true, 0, true, &[3, 0, 1, 0]),
        (&b, true, 1, false, &[0, 0, 0, 0, 0]), (&b, true, 1, true, &[1, 2, 0, 0, 1]),
        (&b, false, 0, false, &[0, 4, 0, 0]), (&b, false, 0, true, &[3, 4, 1, 0]),
        (&b, false, 1, false, &[3, 0, 0, 1, 1]), (&b, false, 1, true, &[3, 2, 0, 0, 1]),
    ];
    for (k, (m, max, axis, explicit, want)) in cases.into_iter().enumerate() {
        let o = ArgOptions::default().axis(axis).explicit(explicit);
        let csc = m.tocsc().unwrap();
        let (got, got_csc) = if max {
            (m.argmax_with(&o).unwrap(), csc.argmax_with(&o).unwrap())
        } else {
            (m.argmin_with(&o).unwrap(), csc.argmin_with(&o).unwrap())
        };
        assert_eq!(got.to_vec::<i64>().unwrap(), want, "case {k}");
        assert_eq!(got_csc.to_vec::<i64>().unwrap(), want, "case {k} (CSC)");
    }
    // Complex values in NumPy's order (real parts, then imaginary parts),
    // implicit zeros counting as 0+0j: SciPy 1.17's results.
    let z = |re: f64, im: f64| num_complex::Complex64::new(re, im);
    let o = z(0.0, 0.0);
    #[rustfmt::skip]
    let cd = [
        z(1.0, 2.0), o, z(3.0, -1.0), o,
        o, z(0.0, -1.0), o, o,
        o, o, o, o,
        z(0.0, 2.0), z(2.0, 0.0), z(0.0, -2.0), z(0.0, 1.0),
        o, z(1.0, 1.0), z(1.0, -1.0), o,
    ];
    #[rustfmt::skip]
    let ccases: [(bool, isize, bool, &[i64]); 8] = [
        (true, 0, false, &[0, 3, 0, 3]), (true, 0, true, &[0, 3, 0, 3]),
        (true, 1, false, &[2, 0, 0, 1, 1]), (true, 1, true, &[2, 1, 0, 1, 1]),
        (false, 0, false, &[1, 1, 3, 0]), (false, 0, true, &[3, 1, 3, 3]),
        (false, 1, false, &[1, 1, 0, 2, 0]), (false, 1, true, &[0, 1, 0, 2, 2]),
    ];
    for dtype in [DType::Complex128, DType::Complex64] {
        let dense = Array::from_slice(&cd, &[5, 4])
            .unwrap()
            .astype(dtype)
            .unwrap();
        let c = CsrMatrix::from_dense(&dense).unwrap();
        let csc = c.tocsc().unwrap();
        for (k, (max, axis, explicit, want)) in ccases.into_iter().enumerate() {
            let o = ArgOptions::default().axis(axis).explicit(explicit);
            let (got, got_csc) = if max {
                (c.argmax_with(&o).unwrap(), csc.argmax_with(&o).unwrap())
            } else {
                (c.argmin_with(&o).unwrap(), csc.argmin_with(&o).unwrap())
            };
            assert_eq!(got.to_vec::<i64>().unwrap(), want, "{dtype} case {k}");
            assert_eq!(
                got_csc.to_vec::<i64>().unwrap(),
                want,
                "{dtype} case {k} (CSC)"
            );
        }
        assert_eq!(c.argmax().unwrap(), 2, "{dtype} flat argmax");
        assert_eq!(c.argmin().unwrap(), 14, "{dtype} flat argmin");
    }
    let flat = a
        .argmax_with(&ArgOptions::default().explicit(true))
        .unwrap();
    assert_eq!(flat.to_vec::<i64>().unwrap(), [18]); // (4, 2): the documented flat index
    let empty = CsrMatrix::from_dense(&gpu_array::creation::zeros([0, 3], DType::Float64).unwrap())
        .unwrap();
    let e = empty
        .argmax_with(&ArgOptions::default().axis(0))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cannot apply argmax along a zero-sized dimension."
    );
    let zero = CsrMatrix::from_dense(&gpu_array::creation::zeros([2, 3], DType::Float64).unwrap())
        .unwrap();
    let e = zero
        .argmin_with(&ArgOptions::default().explicit(true))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "Cannot apply argmin to zero matrix when explicit=True."
    );
}
