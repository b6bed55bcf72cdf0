//! Workloads of gpu-ndimage (issue 23) beside CuPy's cupyx.scipy.ndimage:
//! a 4096^2 float32 image `(arange(n) % 1000) * 0.001` both sides build
//! the same way; bytes: the image read and the result written once.

use gpu_array::{Array, DType, creation, ufunc};
use gpu_ndimage::{InterpOptions, Window};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

const SIDE: usize = 4096;

fn image() -> gpu_array::Result<Array> {
    let k = creation::arange_with(0.0, (SIDE * SIDE) as f64, 1.0, Some(DType::Float64))?;
    let v = ufunc::multiply(&ufunc::remainder(&k, 1000.0)?, 0.001)?;
    v.astype(DType::Float32)?
        .reshape([SIDE as isize, SIDE as isize])
}

fn row(
    dev: Device,
    name: &'static str,
    out_elems: usize,
    mut f: impl FnMut(&Array) -> gpu_array::Result<Array>,
) -> Result<Record> {
    let x = image().map_err(err)?;
    let ms = gpu_ms(&Stream::current_on(dev), 3, 20, || {
        f(&x).map(drop).map_err(err)
    })?;
    Ok(gpu_rec(name, ms, (SIDE * SIDE + out_elems) * 4))
}

pub fn gaussian(dev: Device) -> Result<Record> {
    row(
        dev,
        "ndimage gaussian_filter sigma 2 4096^2 f32",
        SIDE * SIDE,
        |x| gpu_ndimage::gaussian_filter(x, 2.0),
    )
}

pub fn uniform(dev: Device) -> Result<Record> {
    row(
        dev,
        "ndimage uniform_filter 5 4096^2 f32",
        SIDE * SIDE,
        |x| gpu_ndimage::uniform_filter(x, 5),
    )
}

pub fn median(dev: Device) -> Result<Record> {
    row(
        dev,
        "ndimage median_filter 3 4096^2 f32",
        SIDE * SIDE,
        |x| gpu_ndimage::median_filter(x, Window::Size(&[3])),
    )
}

pub fn zoom(dev: Device) -> Result<Record> {
    let p = InterpOptions::default().order(1);
    row(
        dev,
        "ndimage zoom 2x order 1 4096^2 f32",
        4 * SIDE * SIDE,
        |x| gpu_ndimage::zoom(x, &[2.0], false, &p),
    )
}

/// The "random" binary image both sides build: element `k` is set where
/// `(k * 2654435761) mod 2^32 < 2^31` (a multiplicative hash, half set).
fn binary_image() -> gpu_array::Result<Array> {
    let k = creation::arange_with(0i64, (SIDE * SIDE) as i64, 1i64, Some(DType::Int64))?;
    let h = ufunc::remainder(&ufunc::multiply(&k, 2_654_435_761i64)?, 1i64 << 32)?;
    ufunc::less(&h, 1i64 << 31)?.reshape([SIDE as isize, SIDE as isize])
}

/// A row over the binary image; bytes: the image (1 byte an element) read
/// and `out_bytes` written.
fn binary_row(
    dev: Device,
    name: &'static str,
    out_bytes: usize,
    mut f: impl FnMut(&Array) -> gpu_array::Result<()>,
) -> Result<Record> {
    let x = binary_image().map_err(err)?;
    let ms = gpu_ms(&Stream::current_on(dev), 3, 20, || f(&x).map_err(err))?;
    Ok(gpu_rec(name, ms, SIDE * SIDE + out_bytes))
}

pub fn binary_erosion(dev: Device) -> Result<Record> {
    let s = gpu_ndimage::generate_binary_structure(2, 2).map_err(err)?;
    let o = gpu_ndimage::BinaryOptions::default().structure(&s);
    binary_row(dev, "ndimage binary_erosion 3x3 4096^2", SIDE * SIDE, |x| {
        gpu_ndimage::binary_erosion_with(x, &o).map(drop)
    })
}

pub fn label(dev: Device) -> Result<Record> {
    binary_row(
        dev,
        "ndimage label 4096^2 random binary",
        4 * SIDE * SIDE,
        |x| gpu_ndimage::label(x).map(drop),
    )
}

pub fn distance_edt(dev: Device) -> Result<Record> {
    binary_row(
        dev,
        "ndimage distance_transform_edt 4096^2 random binary",
        8 * SIDE * SIDE,
        |x| gpu_ndimage::distance_transform_edt(x).map(drop),
    )
}

pub fn map_coordinates(dev: Device) -> Result<Record> {
    // Every pixel read at (r + 0.3, c + 0.7), order 3.
    let grid = creation::indices(&[SIDE, SIDE], DType::Float32).map_err(err)?;
    let shift = Array::from_slice(&[0.3f32, 0.7], &[2, 1, 1]).map_err(err)?;
    let coords = ufunc::add(&grid, &shift).map_err(err)?;
    let p = InterpOptions::default();
    row(
        dev,
        "ndimage map_coordinates order 3 4096^2 f32",
        3 * SIDE * SIDE,
        |x| gpu_ndimage::map_coordinates(x, &coords, &p),
    )
}

pub fn gaussian_3d(dev: Device) -> Result<Record> {
    const N: usize = 512;
    let k =
        creation::arange_with(0.0, (N * N * N) as f64, 1.0, Some(DType::Float64)).map_err(err)?;
    let v = ufunc::multiply(&ufunc::remainder(&k, 1000.0).map_err(err)?, 0.001).map_err(err)?;
    drop(k);
    let x = v
        .astype(DType::Float32)
        .and_then(|a| a.reshape([N as isize, N as isize, N as isize]))
        .map_err(err)?;
    drop(v);
    let ms = gpu_ms(&Stream::current_on(dev), 2, 10, || {
        gpu_ndimage::gaussian_filter(&x, 2.0).map(drop).map_err(err)
    })?;
    Ok(gpu_rec(
        "ndimage gaussian_filter sigma 2 512^3 f32",
        ms,
        2 * N * N * N * 4,
    ))
}
