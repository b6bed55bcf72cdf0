//! Workloads of the statistics routines (issue 5): a histogram of 2^26
//! float32 values into 256 equal-width bins (the range from the data, as
//! `np.histogram(a, 256)`: one min/max pass and one copy back included)
//! and a bincount of 2^26 int32 values in [0, 1024) (max and min with one
//! copy back included). Inputs are uniform, generated on the host.

use gpu_array::stats::{self, Bins};
use gpu_array::{Array, DType};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

const N: usize = 1 << 26;

fn err(e: gpu_array::Error) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

/// A seeded xorshift stream.
fn uniform(n: usize, seed: u64) -> impl Iterator<Item = u64> {
    let mut s = seed | 1;
    (0..n).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    })
}

pub fn histogram_f32(dev: Device) -> Result<Record> {
    let host: Vec<f32> = uniform(N, 11)
        .map(|v| (v >> 40) as f32 / (1u64 << 24) as f32)
        .collect();
    let a = Array::from_slice(&host, &[N]).map_err(err)?;
    let stream = Stream::current_on(dev);
    let ms = gpu_ms(&stream, 3, 20, || {
        stats::histogram(&a, Bins::Count(256), &Default::default())
            .map(drop)
            .map_err(err)
    })?;
    Ok(gpu_rec("histogram 2^26 f32 256 bins", ms, N * 4))
}

pub fn bincount_i32(dev: Device) -> Result<Record> {
    let host: Vec<i32> = uniform(N, 12).map(|v| (v >> 54) as i32).collect();
    let a = Array::from_slice(&host, &[N]).map_err(err)?;
    debug_assert_eq!(a.dtype(), DType::Int32);
    let stream = Stream::current_on(dev);
    let ms = gpu_ms(&stream, 3, 20, || {
        stats::bincount(&a, None, 0).map(drop).map_err(err)
    })?;
    Ok(gpu_rec("bincount 2^26 i32", ms, N * 4))
}

/// The median of 2^26 uniform float32 values (a full sort, then the pick).
pub fn median_f32(dev: Device) -> Result<Record> {
    let host: Vec<f32> = uniform(N, 13)
        .map(|v| (v >> 40) as f32 / (1u64 << 24) as f32)
        .collect();
    let a = Array::from_slice(&host, &[N]).map_err(err)?;
    let stream = Stream::current_on(dev);
    let ms = gpu_ms(&stream, 3, 20, || {
        gpu_array::sorting::median(&a, None, false)
            .map(drop)
            .map_err(err)
    })?;
    Ok(gpu_rec("median 2^26 f32", ms, N * 4))
}

/// The 10th, 50th and 90th percentiles along axis 1 of a 4096 x 4096
/// float32 matrix (a segmented sort of the rows, then the picks).
pub fn percentile_axis1_f32(dev: Device) -> Result<Record> {
    const SIDE: usize = 4096;
    let host: Vec<f32> = uniform(SIDE * SIDE, 14)
        .map(|v| (v >> 40) as f32 / (1u64 << 24) as f32)
        .collect();
    let a = Array::from_slice(&host, &[SIDE, SIDE]).map_err(err)?;
    let q = gpu_array::sorting::Quantiles::Many(vec![10.0, 50.0, 90.0]);
    let opts = gpu_array::sorting::QuantileOptions::axis(1);
    let stream = Stream::current_on(dev);
    let ms = gpu_ms(&stream, 3, 20, || {
        gpu_array::sorting::percentile(&a, &q, &opts)
            .map(drop)
            .map_err(err)
    })?;
    Ok(gpu_rec("percentile axis=1 4096^2 f32", ms, SIDE * SIDE * 4))
}
