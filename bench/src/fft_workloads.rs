//! Workloads of gpu-fft (issue 19): the transforms beside the bare
//! `cufftExec` of the same plan layout on the same buffers, so that the
//! cost of everything around cuFFT shows.

use gpu_array::{Array, AxisIndex, DType, creation, ufunc};
use gpu_fft::{FftOptions, Norm};
use gpu_runtime::{Device, Result, Stream};
use gpu_sys::cufft;

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::{gpu_ms, host_us_batched};

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

/// `sin(0, 1, 2, ...)` of `n` elements as `dtype`.
fn signal(n: usize, dtype: DType) -> Result<Array> {
    let r = creation::arange_with(0.0, n as f64, 1.0, Some(DType::Float32)).map_err(err)?;
    ufunc::sin(&r).map_err(err)?.astype(dtype).map_err(err)
}

/// `signal(2n)[::2]` in float32: a strided view of 2^24 elements.
fn every_other(len: usize) -> Result<Array> {
    signal(len, DType::Float32)?
        .slice(&[AxisIndex::Slice {
            start: None,
            stop: None,
            step: 2,
        }])
        .map_err(err)
}

fn time(dev: Device, mut f: impl FnMut() -> gpu_array::Result<()>) -> Result<f64> {
    gpu_ms(&Stream::current_on(dev), 3, 20, || f().map_err(err))
}

pub fn c2c_1d(dev: Device) -> Result<Record> {
    let x = signal(1 << 24, DType::Complex64)?;
    let ms = time(dev, || gpu_fft::fft(&x).map(drop))?;
    Ok(gpu_rec("fft c2c 2^24 complex64", ms, 2 * (1 << 24) * 8))
}

pub fn c2c_1d_ortho(dev: Device) -> Result<Record> {
    let x = signal(1 << 24, DType::Complex64)?;
    let o = FftOptions::new().norm(Norm::Ortho);
    let ms = time(dev, || gpu_fft::fft_with(&x, &o).map(drop))?;
    if let Some(why) = gpu_fft::config::callback_error() {
        println!("fft ortho: scaled in a pass, no store callback: {why}");
    }
    Ok(gpu_rec(
        "fft c2c 2^24 complex64 ortho",
        ms,
        2 * (1 << 24) * 8,
    ))
}

pub fn fft2_4096(dev: Device) -> Result<Record> {
    let x = signal(4096 * 4096, DType::Complex64)?
        .reshape((4096, 4096))
        .map_err(err)?;
    let ms = time(dev, || gpu_fft::fft2(&x).map(drop))?;
    Ok(gpu_rec("fft2 4096^2 complex64", ms, 2 * 4096 * 4096 * 8))
}

pub fn rfft_strided(dev: Device) -> Result<Record> {
    let x = every_other(1 << 25)?;
    let ms = time(dev, || gpu_fft::rfft(&x).map(drop))?;
    Ok(gpu_rec(
        "rfft f32 2^24 strided view",
        ms,
        (1 << 24) * 4 + (1 << 23) * 8,
    ))
}

pub fn rfft_contiguous(dev: Device) -> Result<Record> {
    let x = signal(1 << 24, DType::Float32)?;
    let ms = time(dev, || gpu_fft::rfft(&x).map(drop))?;
    Ok(gpu_rec(
        "rfft f32 2^24 contiguous",
        ms,
        (1 << 24) * 4 + (1 << 23) * 8,
    ))
}

pub fn rfft_strided_copied(dev: Device) -> Result<Record> {
    let x = every_other(1 << 25)?;
    let ms = time(dev, || gpu_fft::rfft(&x.copy()?).map(drop))?;
    Ok(gpu_rec(
        "rfft f32 2^24 strided view, copied first",
        ms,
        (1 << 24) * 4 + (1 << 23) * 8,
    ))
}

pub fn batched(dev: Device) -> Result<Record> {
    let x = signal(16384 * 1024, DType::Complex64)?
        .reshape((16384, 1024))
        .map_err(err)?;
    let ms = time(dev, || gpu_fft::fft(&x).map(drop))?;
    Ok(gpu_rec(
        "fft batched 16384x1024 complex64",
        ms,
        2 * 16384 * 1024 * 8,
    ))
}

pub fn small_host(dev: Device) -> Result<Record> {
    let x = signal(1024, DType::Complex64)?;
    let stream = Stream::current_on(dev);
    let us = host_us_batched(
        256,
        51,
        || gpu_fft::fft(&x).map(drop).map_err(err),
        || stream.synchronize(),
    )?;
    Ok(Record {
        name: "fft 1024 complex64 (host per call)",
        unit: "us",
        median: us,
        rate: None,
        rate_unit: None,
        what: "host",
    })
}

/// The bare `cufftExecC2C` of a plan of `batch` transforms of `n`
/// contiguous points, out of place, on the current stream: the floor the
/// rows above are held to.
fn bare(dev: Device, name: &'static str, n: i32, batch: i32) -> Result<Record> {
    let total = n as usize * batch as usize;
    let x = signal(total, DType::Complex64)?;
    let y = Array::empty(total, DType::Complex64).map_err(err)?;
    let stream = Stream::current_on(dev);
    let mut plan: cufft::cufftHandle = 0;
    let fail = |what: &str| gpu_runtime::Error::InvalidArgument(format!("{what} failed"));
    // SAFETY: out-parameter; then the plan is bound to a live stream of
    // the current device and executed on buffers of `total` complex64s,
    // which outlive the synchronizing timing loop; destroyed once.
    unsafe {
        if cufft::cufftPlan1d(&mut plan, n, cufft::cufftType::CUFFT_C2C, batch)?.0 != 0 {
            return Err(fail("cufftPlan1d"));
        }
        if cufft::cufftSetStream(plan, stream.handle()? as cufft::cudaStream_t)?.0 != 0 {
            return Err(fail("cufftSetStream"));
        }
    }
    let (i, o) = (x.data_ptr().raw(), y.data_ptr().raw());
    let ms = gpu_ms(&stream, 3, 20, || {
        // SAFETY: as above.
        let r =
            unsafe { cufft::cufftExecC2C(plan, i as *mut _, o as *mut _, cufft::CUFFT_FORWARD)? };
        if r.0 == 0 {
            Ok(())
        } else {
            Err(fail("cufftExecC2C"))
        }
    });
    // SAFETY: the plan made above, after the timing loop synchronized.
    unsafe {
        let _ = cufft::cufftDestroy(plan);
    }
    Ok(gpu_rec(name, ms?, 2 * total * 8))
}

/// The host time of one bare `cufftExecC2C` of 1024 points: the floor of
/// the cached small-transform row.
pub fn bare_small_host(dev: Device) -> Result<Record> {
    let x = signal(1024, DType::Complex64)?;
    let y = Array::empty(1024, DType::Complex64).map_err(err)?;
    let stream = Stream::current_on(dev);
    let mut plan: cufft::cufftHandle = 0;
    let fail = |what: &str| gpu_runtime::Error::InvalidArgument(format!("{what} failed"));
    // SAFETY: as in `bare`.
    unsafe {
        if cufft::cufftPlan1d(&mut plan, 1024, cufft::cufftType::CUFFT_C2C, 1)?.0 != 0 {
            return Err(fail("cufftPlan1d"));
        }
        if cufft::cufftSetStream(plan, stream.handle()? as cufft::cudaStream_t)?.0 != 0 {
            return Err(fail("cufftSetStream"));
        }
    }
    let (i, o) = (x.data_ptr().raw(), y.data_ptr().raw());
    let us = host_us_batched(
        256,
        51,
        || {
            // SAFETY: as in `bare`.
            let r = unsafe {
                cufft::cufftExecC2C(plan, i as *mut _, o as *mut _, cufft::CUFFT_FORWARD)?
            };
            if r.0 == 0 {
                Ok(())
            } else {
                Err(fail("cufftExecC2C"))
            }
        },
        || stream.synchronize(),
    );
    stream.synchronize()?;
    // SAFETY: the plan made above; the stream is idle.
    unsafe {
        let _ = cufft::cufftDestroy(plan);
    }
    Ok(Record {
        name: "bare cufftExec 1024 complex64 (host per call)",
        unit: "us",
        median: us?,
        rate: None,
        rate_unit: None,
        what: "host",
    })
}

pub fn bare_1d(dev: Device) -> Result<Record> {
    bare(dev, "bare cufftExec c2c 2^24 complex64", 1 << 24, 1)
}

pub fn bare_batched(dev: Device) -> Result<Record> {
    bare(
        dev,
        "bare cufftExec batched 16384x1024 complex64",
        1024,
        16384,
    )
}
