//! all_reduce_perf: NCCL's all-reduce through Cuprum's communicators, the
//! way nccl-tests' `all_reduce_perf -g N` measures it: one process drives
//! every GPU (`NcclCommunicator::init_all`), each iteration is one NCCL
//! group with an out-of-place `all_reduce` per device, and the time of a
//! size is the host's wall time of `--iters` iterations (after `--warmup`
//! more), every device synchronized before and after, divided by the
//! iterations.
//!
//! Bandwidths as nccl-tests defines them: `algbw = bytes / time`, and
//! `busbw = algbw * 2 (n - 1) / n`, the traffic each link carries in a ring
//! all-reduce, comparable across GPU counts. Every size is checked: rank
//! `r` sends `r + 1` everywhere, so every element of every result must be
//! `n (n + 1) / 2` (checked on the device; `#wrong` counts the devices
//! whose result is not).
//!
//! ```text
//! all_reduce_perf [--gpus N] [--min BYTES] [--max BYTES] [--factor F]
//!                 [--iters N] [--warmup N] [--dtype float32|float64|float16|bfloat16|int32|int64]
//!                 [--json]
//! ```
//!
//! Sizes accept K, M and G suffixes (powers of 1024); defaults: every
//! visible GPU, 8 B to 1 GiB by factors of 2, 20 iterations after 5. With
//! `--json` each size is one JSON object per line (what
//! `bench/nccl_bench.py` reads to print CuPy's NCCL beside it).

use std::process::ExitCode;
use std::time::Instant;

use gpu_array::{Array, DType, ufunc};
use gpu_nccl::{NcclCommunicator, ReduceOp, group_start};
use gpu_runtime::{Device, Stream};

#[path = "../byte_count.rs"]
mod byte_count;
use byte_count::parse_bytes;

struct Options {
    gpus: Option<usize>,
    min: usize,
    max: usize,
    factor: usize,
    iters: usize,
    warmup: usize,
    dtype: DType,
    json: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        gpus: None,
        min: 8,
        max: 1 << 30,
        factor: 2,
        iters: 20,
        warmup: 5,
        dtype: DType::Float32,
        json: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        let count = |v: String| {
            v.parse::<usize>()
                .map_err(|_| format!("not a count: {v:?}"))
        };
        match a.as_str() {
            "--gpus" => o.gpus = Some(count(value()?)?),
            "--min" => o.min = parse_bytes(&value()?)?,
            "--max" => o.max = parse_bytes(&value()?)?,
            "--factor" => o.factor = count(value()?)?,
            "--iters" => o.iters = count(value()?)?,
            "--warmup" => o.warmup = count(value()?)?,
            "--dtype" => {
                let v = value()?;
                o.dtype = match v.as_str() {
                    "float32" => DType::Float32,
                    "float64" => DType::Float64,
                    "float16" => DType::Float16,
                    "bfloat16" => DType::BFloat16,
                    "int32" => DType::Int32,
                    "int64" => DType::Int64,
                    _ => return Err(format!("dtype {v:?} is not one of the benchmark's")),
                }
            }
            "--json" => o.json = true,
            _ => return Err(format!("unknown argument {a:?}")),
        }
    }
    if o.factor < 2 || o.iters == 0 || o.min == 0 || o.min > o.max {
        return Err("need --factor >= 2, --iters >= 1 and 0 < --min <= --max".into());
    }
    Ok(o)
}

/// The sizes in bytes, whole elements of `item` bytes, `min` to `max` by
/// `factor`.
fn sizes(min: usize, max: usize, factor: usize, item: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut b = min.max(item);
    while b <= max {
        out.push(b / item * item);
        match b.checked_mul(factor) {
            Some(n) => b = n,
            None => break,
        }
    }
    out
}

/// One device's buffers: its send array (all `rank + 1`) and result.
struct Rank<'c> {
    comm: &'c NcclCommunicator,
    send: Array,
    recv: Array,
}

fn on_device<T>(dev: Device, f: impl FnOnce() -> gpu_array::Result<T>) -> gpu_array::Result<T> {
    let _g = dev.scoped()?;
    f()
}

fn sync_all(ranks: &[Rank<'_>]) -> gpu_array::Result<()> {
    for r in ranks {
        Stream::current_on(r.comm.device()).synchronize()?;
    }
    Ok(())
}

fn iteration(ranks: &[Rank<'_>]) -> gpu_array::Result<()> {
    let group = group_start()?;
    for r in ranks {
        r.comm.all_reduce(&r.send, &r.recv, ReduceOp::Sum, None)?;
    }
    group.end()
}

fn run(o: &Options) -> gpu_array::Result<()> {
    let visible = Device::count()?;
    let n = o.gpus.unwrap_or(visible);
    if n == 0 || n > visible {
        return Err(gpu_array::Error::Value(format!(
            "--gpus {n}: this machine shows {visible} GPU(s)"
        )));
    }
    let devices: Vec<i32> = (0..n as i32).collect();
    let comms = NcclCommunicator::init_all(&devices)?;
    let item = o.dtype.itemsize();
    let want = (n * (n + 1) / 2) as f64;
    if !o.json {
        println!(
            "# all_reduce_perf (Cuprum): {n} GPU(s), {} sum, out of place, {} iterations after {}",
            o.dtype.name(),
            o.iters,
            o.warmup
        );
        println!(
            "# {:>12} {:>12} {:>10} {:>10} {:>10} {:>7}",
            "size(B)", "count", "time(us)", "algbw", "busbw", "#wrong"
        );
    }
    for bytes in sizes(o.min, o.max, o.factor, item) {
        let count = bytes / item;
        let ranks: Vec<Rank<'_>> = comms
            .iter()
            .enumerate()
            .map(|(i, c)| {
                on_device(c.device(), || {
                    let send = gpu_array::creation::full(count, (i + 1) as i64, Some(o.dtype))?;
                    let recv = Array::zeros(count, o.dtype)?;
                    Ok(Rank {
                        comm: c,
                        send,
                        recv,
                    })
                })
            })
            .collect::<gpu_array::Result<_>>()?;
        for _ in 0..o.warmup {
            iteration(&ranks)?;
        }
        sync_all(&ranks)?;
        let t = Instant::now();
        for _ in 0..o.iters {
            iteration(&ranks)?;
        }
        sync_all(&ranks)?;
        let us = t.elapsed().as_secs_f64() * 1e6 / o.iters as f64;
        let mut wrong = 0;
        for r in &ranks {
            let ok = on_device(r.comm.device(), || {
                let eq = ufunc::equal(&r.recv, want)?;
                eq.all(())?.to_scalar::<bool>()
            })?;
            wrong += usize::from(!ok);
        }
        let algbw = bytes as f64 / us / 1e3; // GB/s
        let busbw = algbw * 2.0 * (n as f64 - 1.0) / n as f64;
        if o.json {
            println!(
                "{{\"bytes\": {bytes}, \"count\": {count}, \"dtype\": \"{}\", \"gpus\": {n}, \
                 \"time_us\": {us:.3}, \"algbw\": {algbw:.3}, \"busbw\": {busbw:.3}, \"wrong\": {wrong}}}",
                o.dtype.name()
            );
        } else {
            println!("  {bytes:>12} {count:>12} {us:>10.2} {algbw:>10.2} {busbw:>10.2} {wrong:>7}");
        }
        if wrong > 0 {
            return Err(gpu_array::Error::NumpyRuntime(format!(
                "all_reduce of {bytes} bytes gave a wrong sum on {wrong} device(s)"
            )));
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
        // NVLink multicast stays off on the shared machines (a program
        // that uses it can take the host's GPUs out of service).
        // SAFETY: the first statement of main, before any thread exists
        // to read the environment beside this write.
        unsafe { std::env::set_var("NCCL_NVLS_ENABLE", "0") };
    }
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("all_reduce_perf: {e}");
            return ExitCode::from(2);
        }
    };
    match run(&o) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("all_reduce_perf: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_step_by_the_factor_in_whole_elements() {
        assert_eq!(sizes(8, 64, 2, 4), [8, 16, 32, 64]);
        assert_eq!(sizes(1, 8, 2, 4), [4, 8]);
        assert_eq!(sizes(6, 100, 4, 4), [4, 24, 96]);
        assert_eq!(sizes(usize::MAX / 2, usize::MAX, 2, 1).len(), 2);
        assert_eq!(parse_bytes("1G").unwrap(), 1 << 30);
        assert_eq!(parse_bytes("8").unwrap(), 8);
        assert!(parse_bytes("x").is_err());
        assert!(parse_bytes("99999999999999999999G").is_err());
    }
}
