//! Workloads of gpu-sparse (issue 22) beside CuPy's cupyx.scipy.sparse, on
//! matrices both sides build the same way: `2^20` rows of 16 entries at
//! columns `(k * 2654435761) mod 2^20` (`k` the entry's number), values
//! `((k mod 7) + 1) / 8`, as COO, then CSR (duplicates summed on both
//! sides, so the CSR matrices are equal).

use gpu_array::{Array, DType, creation, ufunc};
use gpu_runtime::{Device, Result, Stream};
use gpu_sparse::{CooMatrix, CsrMatrix, SpMatrix};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

const ROWS: usize = 1 << 20;
const PER_ROW: usize = 16;

/// The COO matrix of the module docs (`entries` in all, `ROWS` square).
fn coo(entries: usize) -> gpu_array::Result<CooMatrix> {
    let k = creation::arange_with(0i64, entries as i64, 1i64, Some(DType::Int64))?;
    let row = ufunc::floor_divide(&k, PER_ROW as i64)?.astype(DType::Int32)?;
    let col = ufunc::remainder(&ufunc::multiply(&k, 2654435761i64)?, ROWS as i64)?
        .astype(DType::Int32)?;
    let v = ufunc::add(&ufunc::remainder(&k, 7i64)?, 1i64)?;
    let data = ufunc::divide(&v, 8.0)?.astype(DType::Float32)?;
    CooMatrix::new(&data, &row, &col, Some((ROWS, ROWS)))
}

fn matrix() -> gpu_array::Result<CsrMatrix> {
    coo(ROWS * PER_ROW)?.tocsr()
}

fn time(dev: Device, mut f: impl FnMut() -> gpu_array::Result<()>) -> Result<f64> {
    gpu_ms(&Stream::current_on(dev), 3, 20, || f().map_err(err))
}

/// The bytes an SpMV moves at least: the matrix once, x and y once.
fn spmv_bytes(a: &CsrMatrix, cols: usize) -> usize {
    a.nnz() * 8 + (ROWS + 1) * 4 + 2 * ROWS * 4 * cols
}

pub fn spmv_f32(dev: Device) -> Result<Record> {
    let a = matrix().map_err(err)?;
    let x = creation::ones(ROWS, DType::Float32).map_err(err)?;
    let ms = time(dev, || a.dot(&x).map(drop))?;
    Ok(gpu_rec(
        "sparse csr SpMV f32 2^20x16",
        ms,
        spmv_bytes(&a, 1),
    ))
}

pub fn spmm_f32(dev: Device) -> Result<Record> {
    let a = matrix().map_err(err)?;
    let b: Array = creation::ones([ROWS, 64], DType::Float32).map_err(err)?;
    let ms = time(dev, || a.dot(&b).map(drop))?;
    Ok(gpu_rec(
        "sparse csr SpMM f32 2^20x16 @ 64 cols",
        ms,
        spmv_bytes(&a, 64),
    ))
}

pub fn coo_to_csr(dev: Device) -> Result<Record> {
    let c = coo(1 << 24).map_err(err)?;
    let ms = time(dev, || c.tocsr().map(drop))?;
    // Read the triplets, write the CSR arrays.
    Ok(gpu_rec(
        "sparse coo->csr 2^24 entries f32",
        ms,
        (1 << 24) * 12 * 2,
    ))
}

pub fn spgemm_f32(dev: Device) -> Result<Record> {
    let a = matrix().map_err(err)?;
    let ms = time(dev, || a.matmul_sparse(&a).map(drop))?;
    // The operands read once each, the product (~256 entries a row) written.
    Ok(gpu_rec(
        "sparse csr SpGEMM A @ A f32 2^20x16",
        ms,
        2 * spmv_bytes(&a, 0) + ROWS * 256 * 8,
    ))
}

/// The 5-point Laplacian of a `g x g` grid in CSR float64: the Kronecker
/// sum of the 1-D second difference with itself (CuPy's row builds the
/// same matrix with its `kron`s).
fn poisson(g: usize) -> gpu_array::Result<CsrMatrix> {
    let main = creation::full([g], 2.0, None)?;
    let off = creation::full([g - 1], -1.0, None)?;
    let t = gpu_sparse::diags(&[&off, &main, &off], &[-1, 0, 1], Some((g, g)), None)?.tocsr()?;
    gpu_sparse::kronsum(&t, &t)
}

/// 100 iterations of cg on the 2048^2 Poisson matrix (rtol 0: no early
/// stop), reading the residual every `check_every` iterations; bytes: the
/// matrix and about ten vector passes an iteration.
fn cg_rows(dev: Device, name: &'static str, check_every: usize) -> Result<Record> {
    use gpu_sparse::linalg::{SolveOptions, cg};
    let g = 2048;
    let a = poisson(g).map_err(err)?;
    let b = creation::ones(g * g, DType::Float64).map_err(err)?;
    let opts = SolveOptions {
        rtol: 0.0,
        maxiter: Some(100),
        check_every,
        ..SolveOptions::default()
    };
    let ms = gpu_ms(&Stream::current_on(dev), 1, 5, || {
        cg(&a, &b, &opts).map(drop).map_err(err)
    })?;
    let per_it = a.nnz() * 12 + g * g * 8 * 12;
    Ok(gpu_rec(name, ms, 100 * per_it))
}

/// cg as a user runs it (a residual read every 10 iterations).
pub fn cg_poisson(dev: Device) -> Result<Record> {
    cg_rows(dev, "sparse cg 100 it Poisson 2048^2 f64", 10)
}

/// The same kernels with no residual read at all: the queue never waits
/// for the host, so this is the time of the kernels themselves (the
/// baseline of issue 22's "at most 1.2x the sum of its kernels' times").
pub fn cg_poisson_kernels(dev: Device) -> Result<Record> {
    cg_rows(
        dev,
        "sparse cg 100 it Poisson 2048^2 f64 (kernels only)",
        1000,
    )
}

/// `A[idx]` for 2^16 rows `(k * 40503) mod 2^20` of the CSR matrix;
/// bytes: the rows' entries read and written, and the index pointer.
pub fn take_rows(dev: Device) -> Result<Record> {
    let a = matrix().map_err(err)?;
    let k = creation::arange_with(0i64, 1i64 << 16, 1i64, Some(DType::Int64)).map_err(err)?;
    let idx =
        ufunc::remainder(&ufunc::multiply(&k, 40503i64).map_err(err)?, ROWS as i64).map_err(err)?;
    let ms = time(dev, || a.take_rows(&idx).map(drop))?;
    Ok(gpu_rec(
        "sparse csr fancy row indexing 2^16 rows",
        ms,
        2 * (1 << 16) * 16 * 8,
    ))
}
