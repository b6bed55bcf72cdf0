//! The DIA format and SciPy's builders against host dense references
//! computed here from the inputs' own dense forms (whose conversions the
//! `formats` tests check), SciPy's documented examples, and SciPy's
//! errors for bad input.

use gpu_array::{Array, DType};
use gpu_sparse::{CooMatrix, CsrMatrix, DiaMatrix, SpMatrix};

use crate::{Lcg, Triplets, assert_close, gpu, host_parts};

/// A dense matrix on the host, real and imaginary parts, row-major.
#[derive(Clone, Debug)]
struct Dense {
    m: usize,
    n: usize,
    re: Vec<f64>,
    im: Vec<f64>,
}

impl Dense {
    fn zeros(m: usize, n: usize) -> Dense {
        Dense {
            m,
            n,
            re: vec![0.0; m * n],
            im: vec![0.0; m * n],
        }
    }

    fn of(a: &dyn SpMatrix) -> Dense {
        let d = a.toarray().unwrap();
        let (m, n) = a.shape();
        assert_eq!(d.shape(), &[m, n], "toarray shape");
        let (re, im) = host_parts(&d);
        Dense { m, n, re, im }
    }

    fn identity(n: usize) -> Dense {
        let mut d = Dense::zeros(n, n);
        for i in 0..n {
            d.re[i * n + i] = 1.0;
        }
        d
    }

    /// `self` with `other` placed at `(r0, c0)`, added in.
    fn add_at(&mut self, other: &Dense, r0: usize, c0: usize) {
        for i in 0..other.m {
            for j in 0..other.n {
                let (s, o) = ((r0 + i) * self.n + c0 + j, i * other.n + j);
                self.re[s] += other.re[o];
                self.im[s] += other.im[o];
            }
        }
    }

    fn kron(&self, b: &Dense) -> Dense {
        let mut out = Dense::zeros(self.m * b.m, self.n * b.n);
        for i in 0..self.m {
            for j in 0..self.n {
                let (ar, ai) = (self.re[i * self.n + j], self.im[i * self.n + j]);
                for k in 0..b.m {
                    for l in 0..b.n {
                        let (br, bi) = (b.re[k * b.n + l], b.im[k * b.n + l]);
                        let s = (i * b.m + k) * out.n + j * b.n + l;
                        out.re[s] = ar * br - ai * bi;
                        out.im[s] = ar * bi + ai * br;
                    }
                }
            }
        }
        out
    }

    fn check(&self, what: &str, got: &dyn SpMatrix) {
        assert_eq!(got.shape(), (self.m, self.n), "{what}: shape");
        let g = Dense::of(got);
        assert_close(what, &g.re, &self.re, got.dtype());
        assert_close(&format!("{what} (imag)"), &g.im, &self.im, got.dtype());
    }
}

fn err<T: std::fmt::Debug>(r: gpu_array::Result<T>) -> String {
    r.expect_err("an error").to_string()
}

fn i64s(v: &[i64]) -> Array {
    Array::from_slice(v, &[v.len()]).unwrap()
}

fn f64s(v: &[f64], shape: &[usize]) -> Array {
    Array::from_slice(v, shape).unwrap()
}

/// The host reference of `dia_matrix((data, offsets), shape)`:
/// `A[j - k, j] = data[i, j]` for every slot inside the matrix.
fn host_dia(data: &[f64], width: usize, offsets: &[i64], m: usize, n: usize) -> Dense {
    let mut d = Dense::zeros(m, n);
    for (i, &k) in offsets.iter().enumerate() {
        for j in 0..width.min(n) {
            let r = j as i64 - k;
            if r >= 0 && (r as usize) < m {
                d.re[r as usize * n + j] = data[i * width + j];
            }
        }
    }
    d
}

/// The conversions of `a` all give `want`.
fn check_all_formats(what: &str, a: &dyn SpMatrix, want: &Dense) {
    want.check(what, a);
    want.check(&format!("{what} tocoo"), &a.tocoo().unwrap());
    want.check(&format!("{what} tocsr"), &a.tocsr().unwrap());
    want.check(&format!("{what} tocsc"), &a.tocsc().unwrap());
}

#[test]
fn dia_is_scipys_dia_matrix() {
    if !gpu() {
        return;
    }
    // SciPy's docstring example.
    let data: Vec<f64> = (1..=12).map(f64::from).collect();
    let a = DiaMatrix::new(&f64s(&data, &[3, 4]), &i64s(&[0, -1, 2]), (4, 4)).unwrap();
    assert_eq!(a.format().name(), "dia");
    assert!(gpu_sparse::isspmatrix_dia(&a));
    assert_eq!(a.nnz(), 9, "SciPy's nnz: the slots inside the matrix");
    let d = a.toarray().unwrap().to_vec::<f64>().unwrap();
    #[rustfmt::skip]
    let want = vec![
        1.0, 0.0, 11.0, 0.0,
        5.0, 2.0, 0.0, 12.0,
        0.0, 6.0, 3.0, 0.0,
        0.0, 0.0, 7.0, 4.0,
    ];
    assert_eq!(d, want);
    // spdiags is the same constructor.
    let s = gpu_sparse::spdiags(&f64s(&data, &[3, 4]), &[0, -1, 2], 4, 4).unwrap();
    assert_eq!(s.toarray().unwrap().to_vec::<f64>().unwrap(), want);
    // Stored zeros do not become COO entries (SciPy's `data != 0`).
    let z = DiaMatrix::new(&f64s(&[1.0, 0.0, 3.0], &[1, 3]), &i64s(&[0]), (3, 3)).unwrap();
    assert_eq!(z.nnz(), 3);
    assert_eq!(z.tocoo().unwrap().nnz(), 2);
    // A 1-D data array is one diagonal; a 0-d offset one offset.
    let one = DiaMatrix::new(
        &f64s(&[1.0, 2.0, 3.0], &[3]),
        &Array::from_slice(&[1i32], &[]).unwrap(),
        (3, 3),
    )
    .unwrap();
    host_dia(&[1.0, 2.0, 3.0], 3, &[1], 3, 3).check("1-D dia", &one);
}

#[test]
fn dia_random_shapes_widths_and_dtypes() {
    if !gpu() {
        return;
    }
    let mut g = Lcg(11);
    for (m, n, width, offsets) in [
        (5usize, 7usize, 7usize, vec![0i64, 2, -3, 6, -4]),
        (7, 4, 4, vec![-6, -1, 0, 3]),
        (6, 6, 3, vec![1, -2, 0]),  // narrower than the matrix
        (3, 3, 9, vec![-1, 1]),     // wider: the extra columns are ignored
        (4, 5, 5, vec![9, -20, 0]), // offsets beyond the matrix hold nothing
        (0, 3, 3, vec![0]),
        (3, 3, 0, vec![0, 1]),
    ] {
        let data: Vec<f64> = (0..offsets.len() * width)
            .map(|_| if g.below(4) == 0 { 0.0 } else { g.value() })
            .collect();
        let want = host_dia(&data, width, &offsets, m, n);
        for dtype in [
            DType::Float64,
            DType::Float32,
            DType::Complex128,
            DType::Int64,
            DType::Bool,
        ] {
            let arr = f64s(&data, &[offsets.len(), width]).astype(dtype).unwrap();
            let a = DiaMatrix::new(&arr, &i64s(&offsets), (m, n)).unwrap();
            let mut want = want.clone();
            if dtype.is_integer() {
                want.re.iter_mut().for_each(|v| *v = v.trunc());
            }
            if dtype == DType::Bool {
                want.re
                    .iter_mut()
                    .for_each(|v| *v = f64::from(u8::from(*v != 0.0)));
            }
            let what = format!("dia {m}x{n} width {width} {offsets:?} {dtype}");
            check_all_formats(&what, &a, &want);
            assert_eq!(a.dtype(), dtype);
            let slots: usize = offsets
                .iter()
                .map(|&k| {
                    (0..width.min(n))
                        .filter(|&j| {
                            let r = j as i64 - k;
                            r >= 0 && (r as usize) < m
                        })
                        .count()
                })
                .sum();
            assert_eq!(a.nnz(), slots, "{what}: nnz");
        }
    }
}

#[test]
fn dia_errors_are_scipys() {
    if !gpu() {
        return;
    }
    let data = f64s(&[1.0; 6], &[2, 3]);
    let e = err(DiaMatrix::new(
        &data,
        &Array::from_slice(&[0i64, 1], &[1, 2]).unwrap(),
        (3, 3),
    ));
    assert!(e.contains("offsets array must have rank 1"), "{e}");
    let e = err(DiaMatrix::new(
        &f64s(&[1.0; 8], &[2, 2, 2]),
        &i64s(&[0, 1]),
        (3, 3),
    ));
    assert!(e.contains("data array must have rank 2"), "{e}");
    let e = err(DiaMatrix::new(&data, &i64s(&[0, 1, 2]), (3, 3)));
    assert!(
        e.contains("number of diagonals (2) does not match the number of offsets (3)"),
        "{e}"
    );
    let e = err(DiaMatrix::new(&data, &i64s(&[1, 1]), (3, 3)));
    assert!(e.contains("offset array contains duplicate values"), "{e}");
    let e = err(DiaMatrix::new(&data, &f64s(&[0.0, 1.0], &[2]), (3, 3)));
    assert!(e.contains("integer"), "{e}");
}

#[test]
fn todia_round_trips() {
    if !gpu() {
        return;
    }
    for (m, n, nnz) in [(9, 7, 40), (4, 11, 12), (5, 5, 0)] {
        let t = Triplets::random(m, n, nnz, 5 + m as u64);
        let coo = t.coo(DType::Float64);
        let want = Dense::of(&coo);
        let dia = coo.todia().unwrap();
        check_all_formats(&format!("coo->dia {m}x{n}"), &dia, &want);
        let offs = dia.offsets().to_vec_as::<i64>().unwrap();
        assert!(offs.windows(2).all(|w| w[0] < w[1]), "offsets ascending");
        want.check("csr->dia", &coo.tocsr().unwrap().todia().unwrap());
        want.check("csc->dia", &coo.tocsc().unwrap().todia().unwrap());
        let from = DiaMatrix::from_dense(&coo.toarray().unwrap()).unwrap();
        want.check("dense->dia", &from);
    }
}

#[test]
fn diags_are_scipys() {
    if !gpu() {
        return;
    }
    // The 1-D Laplacian from scalars broadcast along the diagonals.
    let one = f64s(&[1.0], &[1]);
    let two = f64s(&[-2.0], &[1]);
    let a = gpu_sparse::diags(&[&one, &two, &one], &[-1, 0, 1], Some((4, 4)), None).unwrap();
    assert_eq!(a.format().name(), "dia");
    assert_eq!(a.nnz(), 10);
    let mut want = Dense::zeros(4, 4);
    for i in 0..4 {
        want.re[i * 4 + i] = -2.0;
        if i > 0 {
            want.re[i * 4 + i - 1] = 1.0;
            want.re[(i - 1) * 4 + i] = 1.0;
        }
    }
    check_all_formats("laplacian", &a, &want);

    // Rectangular, given diagonals, the longer one cut.
    let d0 = f64s(&[1.0, 2.0, 3.0], &[3]);
    let d2 = f64s(&[7.0, 8.0, 9.0, 10.0], &[4]);
    let dm1 = f64s(&[4.0, 5.0], &[2]);
    let a = gpu_sparse::diags(&[&d0, &d2, &dm1], &[0, 2, -1], Some((3, 5)), None).unwrap();
    let mut want = Dense::zeros(3, 5);
    for (i, v) in [1.0, 2.0, 3.0].iter().enumerate() {
        want.re[i * 5 + i] = *v;
        want.re[i * 5 + i + 2] = [7.0, 8.0, 9.0][i];
    }
    want.re[5] = 4.0;
    want.re[2 * 5 + 1] = 5.0;
    check_all_formats("rectangular diags", &a, &want);

    // No shape: square, of side len(diagonals[0]) + |offsets[0]|; integer
    // diagonals become float64 (NumPy's common_type).
    let di = Array::from_slice(&[1i32, 2], &[2]).unwrap();
    let a = gpu_sparse::diags(&[&di], &[1], None, None).unwrap();
    assert_eq!((a.shape(), a.dtype()), ((3, 3), DType::Float64));
    let mut want = Dense::zeros(3, 3);
    want.re[1] = 1.0;
    want.re[5] = 2.0;
    want.check("diags without shape", &a);
    // dtype given: complex.
    let a = gpu_sparse::diags(&[&di], &[-1], Some((3, 2)), Some(DType::Complex64)).unwrap();
    assert_eq!(a.dtype(), DType::Complex64);
    let mut want = Dense::zeros(3, 2);
    want.re[2] = 1.0;
    want.re[2 * 2 + 1] = 2.0;
    want.check("complex diags", &a);

    let e = err(gpu_sparse::diags(&[&one, &two], &[0], Some((3, 3)), None));
    assert!(
        e.contains("Different number of diagonals and offsets."),
        "{e}"
    );
    let e = err(gpu_sparse::diags(&[&one], &[5], Some((3, 3)), None));
    assert!(e.contains("Offset 5 (index 0) out of bounds"), "{e}");
    let e = err(gpu_sparse::diags(
        &[&one, &dm1],
        &[1, 0],
        Some((3, 3)),
        None,
    ));
    assert!(
        e.contains(
            "Diagonal length (index 1: 2 at offset 0) does not agree with matrix size (3, 3)."
        ),
        "{e}"
    );
    let e = err(gpu_sparse::diags(
        &[&one, &two],
        &[1, 1],
        Some((3, 3)),
        None,
    ));
    assert!(e.contains("offset array contains duplicate values"), "{e}");
}

#[test]
fn kron_and_kronsum_match_the_host() {
    if !gpu() {
        return;
    }
    for (dta, dtb) in [
        (DType::Float64, DType::Float64),
        (DType::Float32, DType::Float64),
        (DType::Complex128, DType::Float64),
        (DType::Int32, DType::Int64),
    ] {
        let ta = Triplets::random(4, 3, 7, 21);
        let tb = Triplets::random(5, 2, 6, 22);
        let (a, b) = (ta.coo(dta), tb.coo(dtb).tocsr().unwrap());
        let k = gpu_sparse::kron(&a, &b).unwrap();
        assert_eq!(k.shape(), (20, 6));
        assert_eq!(k.nnz(), a.nnz() * b.nnz(), "SciPy keeps every product");
        assert_eq!(k.dtype(), gpu_array::dtype::promote_types(dta, dtb));
        let want = Dense::of(&a).kron(&Dense::of(&b));
        check_all_formats(&format!("kron {dta} {dtb}"), &k, &want);
    }
    // An empty factor: the zero matrix of the product's shape.
    let e = CooMatrix::from_triplets::<f64>(&[], &[], &[], (2, 3)).unwrap();
    let k = gpu_sparse::kron(&e, &gpu_sparse::eye(4, 4, 0, DType::Float64).unwrap()).unwrap();
    assert_eq!((k.shape(), k.nnz()), ((8, 12), 0));

    // kronsum(A, B) = kron(I_n, A) + kron(B, I_m).
    let ta = Triplets::random(3, 3, 6, 31);
    let tb = Triplets::random(4, 4, 9, 32);
    // B's duplicates summed first: kronsum adds them in float64 (SciPy's
    // upcast), while the dense reference of a float32 matrix adds them in
    // float32 (as SciPy's toarray does).
    let (a, mut b) = (ta.coo(DType::Float64), tb.coo(DType::Float32));
    b.sum_duplicates().unwrap();
    let s = gpu_sparse::kronsum(&a, &b).unwrap();
    assert_eq!((s.format().name(), s.dtype()), ("csr", DType::Float64));
    let mut want = Dense::identity(4).kron(&Dense::of(&a));
    want.add_at(&Dense::of(&b).kron(&Dense::identity(3)), 0, 0);
    want.check("kronsum", &s);
    assert!(s.has_canonical_format().unwrap());
    let ns = CooMatrix::from_triplets(&[0], &[1], &[1.0f64], (2, 3)).unwrap();
    let e = err(gpu_sparse::kronsum(&ns, &a));
    assert!(e.contains("A is not square"), "{e}");
    let e = err(gpu_sparse::kronsum(&a, &ns));
    assert!(e.contains("B is not square"), "{e}");
}

#[test]
fn stacks_bmat_and_block_diag_match_the_host() {
    if !gpu() {
        return;
    }
    let a = Triplets::random(3, 4, 8, 41).coo(DType::Float64);
    let b = Triplets::random(3, 2, 5, 42)
        .coo(DType::Float32)
        .tocsc()
        .unwrap();
    let c = Triplets::random(2, 4, 6, 43)
        .coo(DType::Complex64)
        .tocsr()
        .unwrap();
    let (da, db, dc) = (Dense::of(&a), Dense::of(&b), Dense::of(&c));

    let h = gpu_sparse::hstack(&[&a, &b], None).unwrap();
    assert_eq!((h.format().name(), h.dtype()), ("coo", DType::Float64));
    let mut want = Dense::zeros(3, 6);
    want.add_at(&da, 0, 0);
    want.add_at(&db, 0, 4);
    check_all_formats("hstack", &h, &want);
    assert_eq!(h.nnz(), a.nnz() + b.nnz());

    let v = gpu_sparse::vstack(&[&a, &c], Some(DType::Complex128)).unwrap();
    assert_eq!(v.dtype(), DType::Complex128);
    let mut want = Dense::zeros(5, 4);
    want.add_at(&da, 0, 0);
    want.add_at(&dc, 3, 0);
    want.check("vstack", &v);

    // [[a, b], [c, None]]: c takes column 0's width, row 1's height.
    let m = gpu_sparse::bmat(
        &[[Some(&a as &dyn SpMatrix), Some(&b)], [Some(&c), None]],
        None,
    )
    .unwrap();
    assert_eq!(m.dtype(), DType::Complex128, "float64 with complex64");
    let mut want = Dense::zeros(5, 6);
    want.add_at(&da, 0, 0);
    want.add_at(&db, 0, 4);
    want.add_at(&dc, 3, 0);
    check_all_formats("bmat", &m, &want);
    // Only None: float64 and the shape the rows and columns give.
    let z = gpu_sparse::bmat(&[[None, Some(&b as &dyn SpMatrix)], [None, None]], None).unwrap();
    assert_eq!((z.shape(), z.dtype()), ((3, 2), DType::Float32));

    let bd = gpu_sparse::block_diag(&[&a, &b, &c], None).unwrap();
    let mut want = Dense::zeros(8, 10);
    want.add_at(&da, 0, 0);
    want.add_at(&db, 3, 4);
    want.add_at(&dc, 6, 6);
    check_all_formats("block_diag", &bd, &want);

    let e = err(gpu_sparse::hstack(&[&a, &c], None));
    assert!(
        e.contains(
            "blocks[0,:] has incompatible row dimensions. Got blocks[0,1].shape[0] == 2, expected 3."
        ),
        "{e}"
    );
    let e = err(gpu_sparse::vstack(&[&a, &b], None));
    assert!(
        e.contains(
            "blocks[:,0] has incompatible column dimensions. Got blocks[1,0].shape[1] == 2, expected 4."
        ),
        "{e}"
    );
    let ragged: Vec<Vec<Option<&dyn SpMatrix>>> = vec![vec![Some(&a), None], vec![Some(&c)]];
    let e = err(gpu_sparse::bmat(&ragged, None));
    assert!(e.contains("blocks must be 2-D"), "{e}");
    let e = err(gpu_sparse::vstack(&[], None));
    assert!(e.contains("blocks must be 2-D"), "{e}");
    let e = err(gpu_sparse::block_diag(&[], None));
    assert!(e.contains("need at least one array to concatenate"), "{e}");
}

#[test]
fn tril_triu_and_find_match_the_host() {
    if !gpu() {
        return;
    }
    let t = Triplets::random(7, 9, 50, 51);
    let coo = t.coo(DType::Float64);
    let csr = coo.tocsr().unwrap();
    let full = Dense::of(&coo);
    for k in -3isize..=3 {
        let mut lower = full.clone();
        let mut upper = full.clone();
        for i in 0..7 {
            for j in 0..9 {
                let d = i as isize + k - j as isize;
                if d < 0 {
                    lower.re[i * 9 + j] = 0.0;
                }
                if d > 0 {
                    upper.re[i * 9 + j] = 0.0;
                }
            }
        }
        lower.check(&format!("tril k={k}"), &gpu_sparse::tril(&coo, k).unwrap());
        upper.check(&format!("triu k={k}"), &gpu_sparse::triu(&csr, k).unwrap());
    }
    // Duplicates and order kept: tril with k large keeps every entry.
    assert_eq!(gpu_sparse::tril(&coo, 100).unwrap().nnz(), coo.nnz());

    // find: the nonzeros of the summed matrix, row-major.
    let z = CooMatrix::from_triplets(
        &[1, 0, 1, 2, 2],
        &[0, 2, 0, 1, 1],
        &[1.0f64, 0.0, 2.0, 5.0, -5.0],
        (3, 3),
    )
    .unwrap();
    let (i, j, v) = gpu_sparse::find(&z).unwrap();
    assert_eq!(i.to_vec_as::<i64>().unwrap(), vec![1]);
    assert_eq!(j.to_vec_as::<i64>().unwrap(), vec![0]);
    assert_eq!(v.to_vec::<f64>().unwrap(), vec![3.0]);
    let (i, j, v) = gpu_sparse::find(&csr).unwrap();
    let (i, j, v) = (
        i.to_vec_as::<i64>().unwrap(),
        j.to_vec_as::<i64>().unwrap(),
        v.to_vec::<f64>().unwrap(),
    );
    let mut want = vec![];
    for r in 0..7 {
        for c in 0..9 {
            let x = full.re[r * 9 + c];
            if x != 0.0 {
                want.push((r as i64, c as i64, x));
            }
        }
    }
    let got: Vec<(i64, i64, f64)> = (0..i.len()).map(|k| (i[k], j[k], v[k])).collect();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.0, g.1), (w.0, w.1));
        assert!((g.2 - w.2).abs() < 1e-12);
    }
}

/// The positions of a float64 COO matrix as sorted linear indices, and
/// its values in storage order.
fn positions(a: &CooMatrix) -> (Vec<u64>, Vec<f64>) {
    let (r, c, v) = a.to_triplets::<f64>().unwrap();
    let (_, n) = a.shape();
    let mut p: Vec<u64> = r
        .iter()
        .zip(&c)
        .map(|(&i, &j)| (i * n + j) as u64)
        .collect();
    p.sort_unstable();
    (p, v)
}

#[test]
fn random_matches_scipys_contract() {
    if !gpu() {
        return;
    }
    // (m, n, density): small (a permutation), large (rejection), dense.
    for (m, n, density) in [(30usize, 20usize, 0.1), (3000, 2000, 0.002), (40, 30, 0.9)] {
        let a = gpu_sparse::rand(m, n, density, 7).unwrap();
        let k = (density * m as f64 * n as f64).round() as usize;
        assert_eq!((a.shape(), a.nnz(), a.dtype()), ((m, n), k, DType::Float64));
        let (p, v) = positions(&a);
        assert!(
            p.windows(2).all(|w| w[0] < w[1]),
            "{m}x{n}: distinct positions"
        );
        assert!(p.iter().all(|&x| x < (m * n) as u64));
        assert!(
            v.iter().all(|&x| (0.0..1.0).contains(&x)),
            "values in [0, 1)"
        );
        // The same seed gives the same matrix, another seed another.
        let b = gpu_sparse::rand(m, n, density, 7).unwrap();
        assert_eq!(positions(&b), (p.clone(), v.clone()));
        let c = gpu_sparse::rand(m, n, density, 8).unwrap();
        assert_ne!(positions(&c).0, p);
        // toarray agrees with the triplets.
        let d = Dense::of(&a);
        assert_eq!(
            d.re.iter().filter(|&&x| x != 0.0).count(),
            v.iter().filter(|&&x| x != 0.0).count()
        );
    }
    // Positions spread over the whole matrix: every row of a dense draw is hit.
    let a = gpu_sparse::rand(50, 40, 0.5, 3).unwrap();
    let (r, _, _) = a.to_triplets::<f64>().unwrap();
    let mut hit = [false; 50];
    r.iter().for_each(|&i| hit[i] = true);
    assert!(hit.iter().all(|&h| h));

    for dtype in [
        DType::Float32,
        DType::Complex128,
        DType::Int16,
        DType::UInt8,
    ] {
        let a = gpu_sparse::random(20, 10, 0.3, dtype, 5).unwrap();
        assert_eq!((a.nnz(), a.dtype()), (60, dtype));
        let (re, im) = host_parts(a.data());
        if dtype.is_integer() {
            let info = gpu_array::dtype::iinfo(dtype).unwrap();
            assert!(
                re.iter()
                    .all(|&x| x >= info.min as f64 && x < info.max as f64)
            );
        } else {
            assert!(re.iter().all(|&x| (0.0..1.0).contains(&x)));
            assert!(im.iter().all(|&x| (0.0..1.0).contains(&x)));
            if dtype.is_complex() {
                assert!(
                    im.iter().any(|&x| x != 0.0),
                    "complex values draw both parts"
                );
            }
        }
    }
    let e = gpu_sparse::rand(5, 5, 0.0, 1).unwrap();
    assert_eq!(
        (e.nnz(), e.toarray().unwrap().shape()),
        (0, &[5usize, 5][..])
    );
    for bad in [-0.5, 1.01] {
        let e = err(gpu_sparse::rand(3, 3, bad, 1));
        assert!(
            e.contains("density expected to be 0 <= density <= 1"),
            "{e}"
        );
    }
}

#[test]
fn builders_take_any_format() {
    if !gpu() {
        return;
    }
    // Every format behind &dyn SpMatrix: the same result.
    let t = Triplets::random(4, 4, 10, 61);
    let coo = t.coo(DType::Float64);
    let csr: CsrMatrix = coo.tocsr().unwrap();
    let csc = coo.tocsc().unwrap();
    let dia = coo.todia().unwrap();
    let want = Dense::of(&coo).kron(&Dense::identity(2));
    let eye2 = gpu_sparse::identity(2, DType::Float64).unwrap();
    for (name, m) in [
        ("coo", &coo as &dyn SpMatrix),
        ("csr", &csr),
        ("csc", &csc),
        ("dia", &dia),
    ] {
        want.check(
            &format!("kron of {name}"),
            &gpu_sparse::kron(m, &eye2).unwrap(),
        );
    }
}
