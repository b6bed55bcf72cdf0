//! Workloads of gpu-signal (issue 24) beside CuPy's cupyx.scipy.signal,
//! inputs both sides build the same way: `(arange(n) % 1000) * 0.001`
//! in the row's dtype (kernels: `(arange(m) % 7) * 0.125`).

use gpu_array::{Array, DType, creation, ufunc};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

fn ramp(n: usize, modulo: f64, scale: f64, dt: DType) -> gpu_array::Result<Array> {
    let k = creation::arange_with(0.0, n as f64, 1.0, Some(DType::Float64))?;
    ufunc::multiply(&ufunc::remainder(&k, modulo)?, scale)?.astype(dt)
}

fn timed(
    dev: Device,
    name: &'static str,
    bytes: usize,
    mut f: impl FnMut() -> gpu_array::Result<()>,
) -> Result<Record> {
    let ms = gpu_ms(&Stream::current_on(dev), 3, 20, || f().map_err(err))?;
    Ok(gpu_rec(name, ms, bytes))
}

pub fn fftconvolve(dev: Device) -> Result<Record> {
    let n = 1usize << 22;
    let x = ramp(n, 1000.0, 0.001, DType::Float32).map_err(err)?;
    let k = ramp(4096, 7.0, 0.125, DType::Float32).map_err(err)?;
    timed(
        dev,
        "signal fftconvolve 2^22 * 4096 f32",
        (2 * n + 4095) * 4,
        || gpu_signal::fftconvolve(&x, &k).map(drop),
    )
}

pub fn convolve2d(dev: Device) -> Result<Record> {
    let side = 2048usize;
    let x = ramp(side * side, 1000.0, 0.001, DType::Float32)
        .and_then(|a| a.reshape([side as isize, side as isize]))
        .map_err(err)?;
    let k = ramp(49, 7.0, 0.125, DType::Float32)
        .and_then(|a| a.reshape([7isize, 7]))
        .map_err(err)?;
    let o = gpu_signal::Conv2dOptions::default().mode(gpu_signal::Mode::Same);
    timed(
        dev,
        "signal convolve2d 2048^2 * 7x7 same f32",
        2 * side * side * 4,
        || gpu_signal::convolve2d_with(&x, &k, &o).map(drop),
    )
}

pub fn welch(dev: Device) -> Result<Record> {
    let n = 1usize << 24;
    let x = ramp(n, 1000.0, 0.001, DType::Float32).map_err(err)?;
    let o = gpu_signal::WelchOptions::default().nperseg(4096);
    timed(dev, "signal welch 2^24 nperseg 4096 f32", n * 4, || {
        gpu_signal::welch_with(&x, &o).map(drop)
    })
}

pub fn resample_poly(dev: Device) -> Result<Record> {
    let n = 1usize << 24;
    let x = ramp(n, 1000.0, 0.001, DType::Float32).map_err(err)?;
    timed(
        dev,
        "signal resample_poly 2^24 up 3 down 2 f32",
        (n + n * 3 / 2) * 4,
        || gpu_signal::resample_poly(&x, 3, 2).map(drop),
    )
}

pub fn lfilter(dev: Device) -> Result<Record> {
    let n = 1usize << 24;
    let x = ramp(n, 1000.0, 0.001, DType::Float32).map_err(err)?;
    // butter(8, 0.1) as (b, a), float64 coefficients as SciPy's.
    let (b, a) = gpu_signal::butter(8, &[0.1]).map_err(err)?;
    timed(
        dev,
        "signal lfilter order 8 one signal 2^24 f32",
        // float32 in, float64 out (the coefficients are float64).
        n * (4 + 8),
        || gpu_signal::lfilter(&b, &a, &x).map(drop),
    )
}

pub fn sosfilt(dev: Device) -> Result<Record> {
    let (rows, len) = (1024usize, 1usize << 14);
    let x = ramp(rows * len, 1000.0, 0.001, DType::Float32)
        .and_then(|a| a.reshape([rows as isize, len as isize]))
        .map_err(err)?;
    let o = gpu_signal::IirOptions::default().output(gpu_signal::Output::Sos);
    let sos = gpu_signal::butter_with(8, &[0.1], &o)
        .and_then(|f| f.into_sos())
        .map_err(err)?;
    timed(
        dev,
        "signal sosfilt 4 sections 1024 x 2^14 f32",
        // float32 in, float64 out (the sections are float64).
        rows * len * (4 + 8),
        || gpu_signal::sosfilt(&sos, &x).map(drop),
    )
}
