//! gpu-sparse on a real GPU, one test binary: conversions between every
//! pair of formats against a host dense reference, with duplicates,
//! unsorted entries, empty rows, empty matrices and both index dtypes
//! (`formats`); products on cuSPARSE over the four product dtypes
//! (`products`); SciPy's errors (`errors`); the DIA format and SciPy's
//! builders (`diags`, `kron`, stacks, `tril`, `find`, `random`, ...)
//! against host dense references, with their errors (`builders`); the
//! iterative solvers by their residuals (`solvers`, `krylov`); lsmr,
//! eigsh, svds and expm_multiply against host oracles (`eigen`). Each
//! test skips with a reason without a GPU.

mod builders;
mod direct;
mod eigen;
mod errors;
mod formats;
mod krylov;
mod ops;
mod products;
mod solvers;

use gpu_array::{Array, DType};
use num_complex::Complex64;

/// The device, or `None` (the test then returns early, having printed why).
fn gpu() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}

/// A small deterministic generator (tests need no randomness crate).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn value(&mut self) -> f64 {
        (self.next() % 2001) as f64 / 100.0 - 10.0
    }
}

/// Host triplets of an `m x n` matrix: `nnz` entries at random positions
/// (so duplicates and unsorted order occur), every third row left empty.
struct Triplets {
    m: usize,
    n: usize,
    rows: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f64>,
    imag: Vec<f64>,
}

impl Triplets {
    fn random(m: usize, n: usize, nnz: usize, seed: u64) -> Triplets {
        let mut g = Lcg(seed);
        let mut t = Triplets {
            m,
            n,
            rows: vec![],
            cols: vec![],
            vals: vec![],
            imag: vec![],
        };
        while t.rows.len() < nnz && m > 0 && n > 0 {
            let r = g.below(m);
            if r % 3 == 2 {
                continue;
            }
            t.rows.push(r);
            t.cols.push(g.below(n));
            t.vals.push(g.value());
            t.imag.push(g.value());
        }
        t
    }

    /// The dense matrix, duplicates added, real and imaginary parts.
    fn dense(&self) -> (Vec<f64>, Vec<f64>) {
        let mut re = vec![0.0; self.m * self.n];
        let mut im = vec![0.0; self.m * self.n];
        for k in 0..self.rows.len() {
            re[self.rows[k] * self.n + self.cols[k]] += self.vals[k];
            im[self.rows[k] * self.n + self.cols[k]] += self.imag[k];
        }
        (re, im)
    }

    /// The values as a device array of `dtype` (complex: with the
    /// imaginary parts).
    fn data(&self, dtype: DType) -> Array {
        let n = self.vals.len();
        if dtype.is_complex() {
            let v: Vec<Complex64> = (0..n)
                .map(|k| Complex64::new(self.vals[k], self.imag[k]))
                .collect();
            Array::from_slice(&v, &[n]).unwrap().astype(dtype).unwrap()
        } else {
            Array::from_slice(&self.vals, &[n])
                .unwrap()
                .astype(dtype)
                .unwrap()
        }
    }

    fn coo(&self, dtype: DType) -> gpu_sparse::CooMatrix {
        let idx = |v: &[usize]| {
            let v: Vec<i64> = v.iter().map(|&x| x as i64).collect();
            Array::from_slice(&v, &[v.len()]).unwrap()
        };
        gpu_sparse::CooMatrix::new(
            &self.data(dtype),
            &idx(&self.rows),
            &idx(&self.cols),
            Some((self.m, self.n)),
        )
        .unwrap()
    }
}

/// The real and imaginary parts of a device array, as float64 on the host.
fn host_parts(a: &Array) -> (Vec<f64>, Vec<f64>) {
    if a.dtype().is_complex() {
        let v = a
            .astype(DType::Complex128)
            .unwrap()
            .to_vec::<Complex64>()
            .unwrap();
        (
            v.iter().map(|c| c.re).collect(),
            v.iter().map(|c| c.im).collect(),
        )
    } else {
        let v = a.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
        let z = vec![0.0; v.len()];
        (v, z)
    }
}

/// Checks `got` against `want` to a relative tolerance of the dtype.
fn assert_close(what: &str, got: &[f64], want: &[f64], dtype: DType) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    let tol = if matches!(dtype, DType::Float32 | DType::Complex64) {
        2e-5
    } else {
        1e-12
    };
    let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * scale,
            "{what} ({dtype}): element {k}: got {g}, want {w}"
        );
    }
}
