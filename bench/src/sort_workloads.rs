//! Workloads of issue 4: sort and argsort (Cuprum's radix sort against
//! CuPy's CUB), concatenate, a random gather (`take`), `where` and a
//! boolean-mask select (`a[mask]`).

use gpu_array::indexing::{TakeMode, take};
use gpu_array::manipulation::concatenate;
use gpu_array::sorting::{argsort, sort};
use gpu_array::{Array, DType};
use gpu_runtime::{Device, Result};

use crate::Record;
use crate::array_workloads::{err, gpu_rec, time};

/// `n` uniform floats in [0, 1) from a seeded xorshift (CuPy's side draws
/// its own; only the distribution matters to a radix sort).
fn uniform_f32(n: usize, seed: u64) -> Result<Array> {
    let mut s = seed | 1;
    let host: Vec<f32> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32
        })
        .collect();
    Array::from_slice(&host, &[n]).map_err(err)
}

const SORT_N: usize = 1 << 26;

pub fn sort_f32(dev: Device) -> Result<Record> {
    let a = uniform_f32(SORT_N, 1)?;
    let ms = time(dev, || sort(&a, Some(0)))?;
    Ok(gpu_rec("sort f32 2^26", ms, 2 * SORT_N * 4))
}

pub fn argsort_f32(dev: Device) -> Result<Record> {
    let a = uniform_f32(SORT_N, 2)?;
    let ms = time(dev, || argsort(&a, Some(0)))?;
    Ok(gpu_rec("argsort f32 2^26", ms, SORT_N * (4 + 8)))
}

pub fn concatenate_f32(dev: Device) -> Result<Record> {
    let n = 1 << 27;
    let a = crate::array_workloads::filled(&[n], DType::Float32, 1.0)?;
    let b = crate::array_workloads::filled(&[n], DType::Float32, 2.0)?;
    let ms = time(dev, || concatenate(&[&a, &b], Some(0)))?;
    Ok(gpu_rec("concatenate 2x2^27 f32", ms, 2 * 2 * n * 4))
}

pub fn take_random(dev: Device) -> Result<Record> {
    let (n, m) = (1usize << 28, 1usize << 26);
    let a = crate::array_workloads::filled(&[n], DType::Float32, 1.0)?;
    let mut s = 7u64;
    let idx: Vec<i64> = (0..m)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % n as u64) as i64
        })
        .collect();
    let idx = Array::from_slice(&idx, &[m]).map_err(err)?;
    let ms = time(dev, || take(&a, &idx, None, TakeMode::Wrap))?;
    Ok(gpu_rec("take 2^26 from 2^28", ms, m * (8 + 4 + 4)))
}

pub fn where_f32(dev: Device) -> Result<Record> {
    let n = 1 << 28;
    let a = crate::array_workloads::filled(&[n], DType::Float32, 1.0)?;
    let b = crate::array_workloads::filled(&[n], DType::Float32, 2.0)?;
    // Two calls, as NumPy code writes it: the comparison writes a boolean
    // array that `where_` reads back. The bytes counted are the fused row's
    // (two reads and one write), so the two rows' bandwidths compare.
    let ms = time(dev, || {
        let c = a.greater(0.0)?;
        gpu_array::indexing::where_(&c, &a, &b)
    })?;
    Ok(gpu_rec("where(a>0,a,b) two calls f32 2^28", ms, 3 * n * 4))
}

/// The same `where` written with `fuse`: the comparison and the selection
/// in one pass (2 reads and 1 write); CuPy's row runs `cp.fuse` too.
pub fn where_fused_f32(dev: Device) -> Result<Record> {
    use gpu_array::fusion::{FVar, fuse, fx};
    let n = 1 << 28;
    let a = crate::array_workloads::filled(&[n], DType::Float32, 1.0)?;
    let b = crate::array_workloads::filled(&[n], DType::Float32, 2.0)?;
    let f = fuse("where_pos", |a: &FVar, b: &FVar| {
        fx::where_(a.greater(0.0), a, b)
    });
    // The first call traces and compiles; time the cached kernel.
    f.call(&[&a, &b]).map_err(err)?;
    let ms = time(dev, || f.call(&[&a, &b]))?;
    Ok(gpu_rec("fused where(a>0,a,b) f32 2^28", ms, 3 * n * 4))
}

/// `n` uniform floats in [0, 1) made on the device (SplitMix64 of the
/// element index and `seed`, top 24 bits): no 1 GiB upload for 2^28.
fn device_uniform_f32(n: usize, seed: i64) -> Result<Array> {
    use gpu_array::dtype::ScalarValue;
    use gpu_array::elementwise::{ElementwiseKernel, KernelInput};
    use gpu_array::ufunc::Input;
    let k = ElementwiseKernel::new(
        "int64 seed",
        "float32 out",
        "unsigned long long z = (unsigned long long)i * 0x9E3779B97F4A7C15ull \
           + (unsigned long long)seed; \
         z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; \
         z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; \
         z ^= z >> 31; \
         out = (float)(z >> 40) * (1.0f / 16777216.0f);",
        "bench_uniform_f32",
    )
    .map_err(err)?;
    let out = Array::empty([n], DType::Float32).map_err(err)?;
    k.call(
        &[KernelInput::Plain(Input::Scalar(ScalarValue::Int(
            seed.into(),
        )))],
        &[&out],
        None,
    )
    .map_err(err)?;
    Ok(out)
}

/// `a[mask]` of 2^28 uniform float32 with `mask = a > 0.5` made before
/// the timing (about half selected): bytes are the mask and the data read
/// once and the selected elements written.
pub fn mask_select_f32(dev: Device) -> Result<Record> {
    use gpu_array::ix;
    let n = 1usize << 28;
    let a = device_uniform_f32(n, 3)?;
    let mask = a.greater(0.5).map_err(err)?;
    let selected = a.get_index(&ix![&mask]).map_err(err)?.size();
    let ms = time(dev, || a.get_index(&ix![&mask]))?;
    Ok(gpu_rec(
        "mask select 2^28 f32",
        ms,
        n * (1 + 4) + selected * 4,
    ))
}
