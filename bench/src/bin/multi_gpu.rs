//! multi_gpu: the multi-GPU run's two tables that are not NCCL's (issue
//! 27, points 3 and 4), each row one JSON object (what
//! `bench/multi_gpu_bench.py` reads to print CuPy beside it):
//!
//! - `peer`: a copy of `--peer-bytes` from every GPU to every other one
//!   (`Array::to_device`: the destination's stream waits on the source's,
//!   one device-to-device copy), GB/s of bytes copied; host wall time of
//!   `--iters` copies after 2, both devices synchronized before and after;
//! - `fft`: a 1-D complex64 transform of `2^--fft-log2` elements on one
//!   GPU and spread over every GPU (`config::use_multi_gpus`, cufftXt),
//!   wall time per transform of `--iters` after 1, and the largest
//!   difference between the two results relative to the largest magnitude.
//!
//! ```text
//! multi_gpu [--peer-bytes 256M] [--fft-log2 28] [--iters 10] [--skip-fft] [--skip-peer]
//! ```
//!
//! Needs two GPUs; with fewer it says so and exits 0.

use std::process::ExitCode;
use std::time::Instant;

use gpu_array::{Array, DType, ufunc};
use gpu_fft::config;
use gpu_runtime::Device;
use num_complex::Complex;

#[path = "../byte_count.rs"]
mod byte_count;
use byte_count::parse_bytes;

struct Options {
    peer_bytes: usize,
    fft_log2: u32,
    iters: usize,
    peer: bool,
    fft: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        peer_bytes: 256 << 20,
        fft_log2: 28,
        iters: 10,
        peer: true,
        fft: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{a} needs a value"));
        match a.as_str() {
            "--peer-bytes" => o.peer_bytes = parse_bytes(&value()?)?,
            "--fft-log2" => {
                let v = value()?;
                o.fft_log2 = v
                    .parse()
                    .ok()
                    .filter(|k| (1..=40).contains(k))
                    .ok_or_else(|| format!("--fft-log2 {v:?}: 1 to 40"))?;
            }
            "--iters" => {
                let v = value()?;
                o.iters = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--iters {v:?}: a positive count"))?;
            }
            "--skip-peer" => o.peer = false,
            "--skip-fft" => o.fft = false,
            _ => return Err(format!("unknown argument {a:?}")),
        }
    }
    if o.peer_bytes < 4 {
        return Err("--peer-bytes must be at least 4".into());
    }
    Ok(o)
}

fn sync(devices: &[Device]) -> gpu_array::Result<()> {
    for d in devices {
        d.synchronize()?;
    }
    Ok(())
}

fn peer_rows(n: usize, o: &Options) -> gpu_array::Result<()> {
    let count = o.peer_bytes / 4;
    let bytes = count * 4;
    for i in 0..n {
        let from = Device::new(i as i32)?;
        let src = {
            let _g = from.scoped()?;
            gpu_array::creation::full(count, 1i64, Some(DType::Float32))?
        };
        for j in (0..n).filter(|&j| j != i) {
            let to = Device::new(j as i32)?;
            for _ in 0..2 {
                drop(src.to_device(to)?);
            }
            sync(&[from, to])?;
            let t = Instant::now();
            for _ in 0..o.iters {
                drop(src.to_device(to)?);
            }
            sync(&[from, to])?;
            let s = t.elapsed().as_secs_f64() / o.iters as f64;
            println!(
                "{{\"table\": \"peer\", \"from\": {i}, \"to\": {j}, \"bytes\": {bytes}, \
                 \"time_us\": {:.3}, \"gbps\": {:.3}}}",
                s * 1e6,
                bytes as f64 / s / 1e9
            );
        }
    }
    Ok(())
}

/// A complex64 signal of `len` elements with every frequency present:
/// `cos(0.37 k) + i sin(0.011 k^2 mod 2 pi)`-like values from the index.
fn signal(len: usize) -> gpu_array::Result<Array> {
    let k = gpu_array::creation::arange_with(0.0, len as f64, 1.0, Some(DType::Float32))?;
    let re = ufunc::cos(&ufunc::multiply(&k, 0.37)?)?;
    let im = ufunc::sin(&ufunc::multiply(&ufunc::multiply(&k, &k)?, 0.011)?)?;
    ufunc::add(&re, &ufunc::multiply(&im, Complex::new(0.0f32, 1.0))?)?.astype(DType::Complex64)
}

fn time_fft(x: &Array, iters: usize, devices: &[Device]) -> gpu_array::Result<(f64, Array)> {
    let mut y = gpu_fft::fft(x)?;
    sync(devices)?;
    let t = Instant::now();
    for _ in 0..iters {
        y = gpu_fft::fft(x)?;
    }
    sync(devices)?;
    Ok((t.elapsed().as_secs_f64() * 1e3 / iters as f64, y))
}

fn fft_rows(n: usize, o: &Options) -> gpu_array::Result<()> {
    let len = 1usize << o.fft_log2;
    let devices: Vec<Device> = (0..n as i32)
        .map(Device::new)
        .collect::<gpu_runtime::Result<_>>()?;
    let x = signal(len)?;
    config::use_multi_gpus(false);
    let (one_ms, one) = time_fft(&x, o.iters, &devices)?;
    config::set_cufft_gpus(n)?;
    config::use_multi_gpus(true);
    let spread = time_fft(&x, o.iters, &devices);
    config::use_multi_gpus(false);
    let (all_ms, all) = spread?;
    let diff = ufunc::absolute(&ufunc::subtract(&all.to_device(one.device())?, &one)?)?
        .max(())?
        .to_scalar::<f64>()?;
    let scale = ufunc::absolute(&one)?.max(())?.to_scalar::<f64>()?;
    println!(
        "{{\"table\": \"fft\", \"n\": {len}, \"gpus\": {n}, \"one_gpu_ms\": {one_ms:.4}, \
         \"all_gpus_ms\": {all_ms:.4}, \"rel_diff\": {:.3e}}}",
        diff / scale
    );
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
            eprintln!("multi_gpu: {e}");
            return ExitCode::from(2);
        }
    };
    let run = || -> gpu_array::Result<()> {
        let n = Device::count()?;
        if n < 2 {
            println!("multi_gpu: SKIP: {n} GPU(s) visible, the tables need 2 or more");
            return Ok(());
        }
        if o.peer {
            peer_rows(n, &o)?;
        }
        if o.fft {
            fft_rows(n, &o)?;
        }
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("multi_gpu: {e}");
            ExitCode::FAILURE
        }
    }
}
