//! Workloads of the array core (issue 7): elementwise ufuncs, casts,
//! broadcasts, transposes and the host cost of a tiny call.

use gpu_array::{Array, DType, ufunc};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::timing::{gpu_ms, host_us_batched};

const N: usize = 1 << 28;
const SIDE: usize = 16384;

pub(crate) fn err(e: gpu_array::Error) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

pub(crate) fn filled(shape: &[usize], dtype: DType, v: f64) -> Result<Array> {
    let a = Array::empty(shape, dtype).map_err(err)?;
    a.fill(v).map_err(err)?;
    Ok(a)
}

pub(crate) fn gpu_rec(name: &'static str, ms: f64, bytes: usize) -> Record {
    Record {
        name,
        unit: "ms",
        median: ms,
        rate: Some(bytes as f64 / ms / 1e6),
        rate_unit: Some("GB/s"),
        what: "gpu",
    }
}

/// Times `f` (which returns the result array, dropped at once: the pool
/// makes that free) on the device's current stream.
pub(crate) fn time(dev: Device, mut f: impl FnMut() -> gpu_array::Result<Array>) -> Result<f64> {
    let stream = Stream::current_on(dev);
    gpu_ms(&stream, 3, 20, || f().map(drop).map_err(err))
}

pub fn add_f32(dev: Device) -> Result<Record> {
    let (a, b) = (
        filled(&[N], DType::Float32, 1.0)?,
        filled(&[N], DType::Float32, 2.0)?,
    );
    let ms = time(dev, || ufunc::add(&a, &b))?;
    Ok(gpu_rec("add f32 2^28", ms, 3 * N * 4))
}

pub fn add_f64(dev: Device) -> Result<Record> {
    let (a, b) = (
        filled(&[N], DType::Float64, 1.0)?,
        filled(&[N], DType::Float64, 2.0)?,
    );
    let ms = time(dev, || ufunc::add(&a, &b))?;
    Ok(gpu_rec("add f64 2^28", ms, 3 * N * 8))
}

pub fn exp_f32(dev: Device) -> Result<Record> {
    let a = filled(&[N], DType::Float32, 0.5)?;
    let ms = time(dev, || ufunc::exp(&a))?;
    Ok(gpu_rec("exp f32 2^28", ms, 2 * N * 4))
}

pub fn astype_f32_i32(dev: Device) -> Result<Record> {
    let a = filled(&[N], DType::Float32, 3.5)?;
    let ms = time(dev, || a.astype(DType::Int32))?;
    Ok(gpu_rec("astype f32->i32 2^28", ms, 2 * N * 4))
}

pub fn broadcast_add(dev: Device) -> Result<Record> {
    let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
    let b = filled(&[SIDE], DType::Float32, 2.0)?;
    let ms = time(dev, || ufunc::add(&a, &b))?;
    Ok(gpu_rec("broadcast add 16384^2+16384", ms, 2 * N * 4))
}

pub fn transpose_copy(dev: Device) -> Result<Record> {
    let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
    let ms = time(dev, || a.T().copy())?;
    Ok(gpu_rec("transpose copy 16384^2 f32", ms, 2 * N * 4))
}

pub fn tiny_add_host(dev: Device) -> Result<Record> {
    let (a, b) = (
        filled(&[16], DType::Float32, 1.0)?,
        filled(&[16], DType::Float32, 2.0)?,
    );
    let stream = Stream::current_on(dev);
    let us = host_us_batched(
        256,
        51,
        || ufunc::add(&a, &b).map(drop).map_err(err),
        || stream.synchronize(),
    )?;
    Ok(Record {
        name: "add 16 elements (host per call)",
        unit: "us",
        median: us,
        rate: None,
        rate_unit: None,
        what: "host",
    })
}

/// Reductions and scans (issue 3).
pub mod reductions {
    use gpu_array::DType;
    use gpu_array::reduction::ReduceOptions;
    use gpu_runtime::{Device, Result};

    use super::{N, SIDE, filled, gpu_rec, time};

    pub fn sum_full(dev: Device) -> Result<Record> {
        let a = filled(&[N], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::math::sum(&a, ReduceOptions::default()))?;
        Ok(gpu_rec("sum full f32 2^28", ms, N * 4))
    }

    pub fn max_full(dev: Device) -> Result<Record> {
        let a = filled(&[N], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::stats::amax(&a, ReduceOptions::default()))?;
        Ok(gpu_rec("max full f32 2^28", ms, N * 4))
    }

    pub fn sum_axis1(dev: Device) -> Result<Record> {
        let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(1)))?;
        Ok(gpu_rec("sum axis=1 16384^2 f32", ms, N * 4))
    }

    pub fn sum_axis0(dev: Device) -> Result<Record> {
        let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(0)))?;
        Ok(gpu_rec("sum axis=0 16384^2 f32", ms, N * 4))
    }

    pub fn argmax_full(dev: Device) -> Result<Record> {
        let a = filled(&[N], DType::Float32, 1.0)?;
        let ms = time(dev, || {
            gpu_array::sorting::argmax(&a, ReduceOptions::default())
        })?;
        Ok(gpu_rec("argmax full f32 2^28", ms, N * 4))
    }

    pub fn std_axis1(dev: Device) -> Result<Record> {
        let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::stats::std(&a, ReduceOptions::axis(1)))?;
        Ok(gpu_rec("std axis=1 16384^2 f32", ms, N * 4))
    }

    pub fn cumsum(dev: Device) -> Result<Record> {
        let n = 1 << 26;
        let a = filled(&[n], DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::math::cumsum(&a, None, None))?;
        Ok(gpu_rec("cumsum f32 2^26", ms, 2 * n * 4))
    }

    use crate::Record;
}

/// Kernel fusion (issue 3, item 5): one kernel for a chain of ufuncs, and a
/// reduction whose map is the fused product.
pub mod fusion {
    use gpu_array::DType;
    use gpu_array::fusion::{FVar, fuse};
    use gpu_array::reduction::ReduceOptions;
    use gpu_runtime::{Device, Result};

    use super::{N, SIDE, err, filled, gpu_rec, time};
    use crate::Record;

    /// `(x - y)^2` in one pass: 2 reads and 1 write of 2^28 float32.
    pub fn squared_diff(dev: Device) -> Result<Record> {
        let (x, y) = (
            filled(&[N], DType::Float32, 1.0)?,
            filled(&[N], DType::Float32, 2.5)?,
        );
        let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
            let d = x - y;
            &d * &d
        });
        // The first call traces and compiles; time the cached kernel.
        f.call(&[&x, &y]).map_err(err)?;
        let ms = time(dev, || f.call(&[&x, &y]))?;
        Ok(gpu_rec("fused (x-y)^2 f32 2^28", ms, 3 * N * 4))
    }

    /// `sum(x * y, axis=-1)` of two 16384^2 float32: one pass over both.
    pub fn sum_of_products(dev: Device) -> Result<Record> {
        let (x, y) = (
            filled(&[SIDE, SIDE], DType::Float32, 1.0)?,
            filled(&[SIDE, SIDE], DType::Float32, 0.5)?,
        );
        let f = fuse("sum_of_products", |x: &FVar, y: &FVar| {
            (x * y).sum(ReduceOptions::axis(-1))
        });
        f.call(&[&x, &y]).map_err(err)?;
        let ms = time(dev, || f.call(&[&x, &y]))?;
        Ok(gpu_rec("fused sum(x*y,axis=-1) 16384^2 f32", ms, 2 * N * 4))
    }
}

/// Tuned launches (issue 17, point 5): each workload beside its untuned
/// row, inside `optimize` (CuPy's `with cupyx.optimizing.optimize():`).
/// The first warm-up call of each kernel measures the candidates (or reads
/// the records a previous run left in the kernel cache folder, key
/// `cuprum-bench`); the timed calls run the chosen launch.
pub mod optimize {
    use gpu_array::optimizing::{OptimizeConfig, optimize_scope};
    use gpu_array::reduction::ReduceOptions;
    use gpu_array::{Array, DType, ufunc};
    use gpu_runtime::{Device, Result};

    use super::{N, SIDE, err, filled, gpu_rec, time};
    use crate::Record;

    /// Rows of the wide sum: 1024 rows of 2^20 float32 (4 GiB).
    const WIDE: [usize; 2] = [1024, 1 << 20];

    /// `time` of `f` inside an optimize scope with the bench's key.
    fn tuned(dev: Device, f: impl FnMut() -> gpu_array::Result<Array>) -> Result<f64> {
        let scope = optimize_scope(&OptimizeConfig::default().key("cuprum-bench")).map_err(err)?;
        let ms = time(dev, f)?;
        scope.finish().map_err(err)?;
        Ok(ms)
    }

    pub fn sum_axis1_wide(dev: Device) -> Result<Record> {
        let a = filled(&WIDE, DType::Float32, 1.0)?;
        let ms = time(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(1)))?;
        Ok(gpu_rec(
            "sum axis=1 (1024,2^20) f32",
            ms,
            WIDE[0] * WIDE[1] * 4,
        ))
    }

    pub fn sum_axis1_wide_tuned(dev: Device) -> Result<Record> {
        let a = filled(&WIDE, DType::Float32, 1.0)?;
        let ms = tuned(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(1)))?;
        Ok(gpu_rec(
            "sum axis=1 (1024,2^20) f32 optimize",
            ms,
            WIDE[0] * WIDE[1] * 4,
        ))
    }

    pub fn sum_axis1_tuned(dev: Device) -> Result<Record> {
        let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
        let ms = tuned(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(1)))?;
        Ok(gpu_rec("sum axis=1 16384^2 f32 optimize", ms, N * 4))
    }

    pub fn sum_axis0_tuned(dev: Device) -> Result<Record> {
        let a = filled(&[SIDE, SIDE], DType::Float32, 1.0)?;
        let ms = tuned(dev, || gpu_array::math::sum(&a, ReduceOptions::axis(0)))?;
        Ok(gpu_rec("sum axis=0 16384^2 f32 optimize", ms, N * 4))
    }

    pub fn sum_full_tuned(dev: Device) -> Result<Record> {
        let a = filled(&[N], DType::Float32, 1.0)?;
        let ms = tuned(dev, || gpu_array::math::sum(&a, ReduceOptions::default()))?;
        Ok(gpu_rec("sum full f32 2^28 optimize", ms, N * 4))
    }

    pub fn add_f32_tuned(dev: Device) -> Result<Record> {
        let (a, b) = (
            filled(&[N], DType::Float32, 1.0)?,
            filled(&[N], DType::Float32, 2.0)?,
        );
        let ms = tuned(dev, || ufunc::add(&a, &b))?;
        Ok(gpu_rec("add f32 2^28 optimize", ms, 3 * N * 4))
    }

    pub fn broadcast_add_tuned(dev: Device) -> Result<Record> {
        let (a, b) = (
            filled(&[SIDE, SIDE], DType::Float32, 1.0)?,
            filled(&[SIDE], DType::Float32, 2.0)?,
        );
        let ms = tuned(dev, || ufunc::add(&a, &b))?;
        Ok(gpu_rec(
            "broadcast add 16384^2+16384 optimize",
            ms,
            2 * N * 4,
        ))
    }
}
