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
