//! Workloads of gpu-random (issue 21) beside CuPy's cupy.random: the
//! rate is the bytes written.

use gpu_array::DType;
use gpu_random::{Generator, RandomState, default_rng};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

fn time(dev: Device, mut f: impl FnMut() -> gpu_array::Result<()>) -> Result<f64> {
    gpu_ms(&Stream::current_on(dev), 3, 20, || f().map_err(err))
}

fn rng() -> Result<Generator> {
    default_rng(0).map_err(err)
}

pub fn standard_normal_f32(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 28;
    let ms = time(dev, || g.standard_normal_with(n, DType::Float32).map(drop))?;
    Ok(gpu_rec("random standard_normal f32 2^28", ms, n * 4))
}

pub fn random_f32(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 28;
    let ms = time(dev, || g.random_with(n, DType::Float32).map(drop))?;
    Ok(gpu_rec("random random f32 2^28", ms, n * 4))
}

pub fn legacy_normal_f32(dev: Device) -> Result<Record> {
    let mut rs = RandomState::new(0).map_err(err)?;
    let n = 1usize << 28;
    let ms = time(dev, || {
        rs.normal_with(0.0, 1.0, n, DType::Float32).map(drop)
    })?;
    Ok(gpu_rec(
        "random legacy RandomState.normal f32 2^28",
        ms,
        n * 4,
    ))
}

pub fn uniform_f64(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 27;
    let ms = time(dev, || g.uniform(-1.0, 3.0, n).map(drop))?;
    Ok(gpu_rec("random uniform f64 2^27", ms, n * 8))
}

pub fn legacy_uniform_f64(dev: Device) -> Result<Record> {
    let mut rs = RandomState::new(0).map_err(err)?;
    let n = 1usize << 27;
    let ms = time(dev, || rs.uniform(-1.0, 3.0, n).map(drop))?;
    Ok(gpu_rec(
        "random legacy RandomState.uniform f64 2^27",
        ms,
        n * 8,
    ))
}

pub fn integers_i64(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 27;
    let ms = time(dev, || g.integers(0, 1000, n).map(drop))?;
    Ok(gpu_rec("random integers i64 2^27", ms, n * 8))
}

pub fn permutation(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 26;
    let ms = time(dev, || g.permutation(n).map(drop))?;
    Ok(gpu_rec("random permutation 2^26", ms, n * 8))
}

pub fn gamma_half(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 24;
    let ms = time(dev, || g.gamma(0.5, 1.0, n).map(drop))?;
    Ok(gpu_rec("random gamma(0.5) f64 2^24", ms, n * 8))
}

pub fn binomial(dev: Device) -> Result<Record> {
    let mut g = rng()?;
    let n = 1usize << 24;
    let ms = time(dev, || g.binomial(100i64, 0.3, n).map(drop))?;
    Ok(gpu_rec("random binomial(100, 0.3) 2^24", ms, n * 8))
}
