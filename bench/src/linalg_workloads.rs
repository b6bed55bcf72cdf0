//! Workloads of gpu-linalg (issue 6): cuBLAS GEMMs and cuSOLVER
//! factorizations, each timed with CUDA events after warm-up and shown in
//! TFLOP/s (products, with the nominal 2 m n k FLOPs) or ms.

use gpu_array::{Array, DType, creation, ufunc};
use gpu_linalg::{SvdParams, Uplo, cholesky, eigh, matmul, solve, svd};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

fn filled(shape: &[usize], dtype: DType, v: f64) -> Result<Array> {
    let a = Array::empty(shape, dtype).map_err(err)?;
    a.fill(v).map_err(err)?;
    Ok(a)
}

/// `sin(0, 1, 2, ...)` as an `n x n` matrix: deterministic, well mixed.
fn mixed(n: usize, dtype: DType) -> Result<Array> {
    let r = creation::arange_with(0.0, (n * n) as f64, 1.0, Some(dtype)).map_err(err)?;
    ufunc::sin(&r.reshape([n as isize, n as isize]).map_err(err)?).map_err(err)
}

/// `n I + ones`: symmetric positive definite and well conditioned.
fn spd(n: usize, dtype: DType) -> Result<Array> {
    let eye = creation::eye(n, None, 0, dtype).map_err(err)?;
    ufunc::add(&ufunc::multiply(&eye, n as f64).map_err(err)?, 1.0).map_err(err)
}

fn time_ms(dev: Device, mut f: impl FnMut() -> gpu_linalg::Result<()>) -> Result<f64> {
    let stream = Stream::current_on(dev);
    gpu_ms(&stream, 3, 10, || f().map_err(err))
}

fn flops_rec(name: &'static str, ms: f64, flops: f64) -> Record {
    Record {
        name,
        unit: "ms",
        median: ms,
        rate: Some(flops / ms / 1e9),
        rate_unit: Some("TFLOP/s"),
        what: "gpu",
    }
}

fn ms_rec(name: &'static str, ms: f64) -> Record {
    Record {
        name,
        unit: "ms",
        median: ms,
        rate: None,
        rate_unit: None,
        what: "gpu",
    }
}

fn gemm(dev: Device, name: &'static str, n: usize, dtype: DType) -> Result<Record> {
    let a = filled(&[n, n], dtype, 0.5)?;
    let b = filled(&[n, n], dtype, 0.25)?;
    let ms = time_ms(dev, || matmul(&a, &b).map(drop))?;
    Ok(flops_rec(name, ms, 2.0 * (n as f64).powi(3)))
}

pub fn matmul_f32(dev: Device) -> Result<Record> {
    gemm(dev, "matmul f32 8192^3", 8192, DType::Float32)
}

pub fn matmul_f16(dev: Device) -> Result<Record> {
    gemm(dev, "matmul f16 8192^3", 8192, DType::Float16)
}

pub fn matmul_f64(dev: Device) -> Result<Record> {
    gemm(dev, "matmul f64 4096^3", 4096, DType::Float64)
}

pub fn batched_matmul(dev: Device) -> Result<Record> {
    let a = filled(&[4096, 64, 64], DType::Float32, 0.5)?;
    let b = filled(&[4096, 64, 64], DType::Float32, 0.25)?;
    let ms = time_ms(dev, || matmul(&a, &b).map(drop))?;
    Ok(flops_rec(
        "batched matmul 4096x64x64 f32",
        ms,
        2.0 * 4096.0 * 64f64.powi(3),
    ))
}

pub fn cholesky_f32(dev: Device) -> Result<Record> {
    let a = spd(4096, DType::Float32)?;
    let ms = time_ms(dev, || cholesky(&a, false).map(drop))?;
    Ok(ms_rec("cholesky f32 4096", ms))
}

pub fn solve_f32(dev: Device) -> Result<Record> {
    let a = spd(4096, DType::Float32)?;
    let b = mixed(4096, DType::Float32)?;
    let ms = time_ms(dev, || solve(&a, &b).map(drop))?;
    Ok(ms_rec("solve f32 4096x4096 rhs 4096", ms))
}

pub fn svd_f32(dev: Device) -> Result<Record> {
    let a = mixed(2048, DType::Float32)?;
    let ms = time_ms(dev, || svd(&a, SvdParams::default()).map(drop))?;
    Ok(ms_rec("svd f32 2048", ms))
}

pub fn eigh_f32(dev: Device) -> Result<Record> {
    let m = mixed(2048, DType::Float32)?;
    let a = ufunc::add(&m, m.T()).map_err(err)?;
    let ms = time_ms(dev, || eigh(&a, Uplo::L).map(drop))?;
    Ok(ms_rec("eigh f32 2048", ms))
}
