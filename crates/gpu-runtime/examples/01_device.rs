//! Finds the GPU, prints what it is, and runs a small kernel on it: the
//! runtime alone, without the array.
//!
//! `cargo run --release -p gpu-runtime --example 01_device` (`cargo xtask
//! setup-nvrtc` fetches NVRTC; `cargo xtask demo` runs the `cuprum` crate's
//! 01_basics instead). Without a GPU or
//! driver it exits with status 1 and says what is missing.

use std::process::ExitCode;

use gpu_runtime::{Device, LaunchConfig, RawKernel, Result, Stream, alloc, kernel_args};

const SAXPY: &str = r#"
extern "C" __global__ void saxpy(float a, const float* x, float* y, unsigned int n) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        y[i] = a * x[i] + y[i];
    }
}
"#;

fn run() -> Result<()> {
    let count = Device::count()?;
    if count == 0 {
        return Err(gpu_runtime::Error::Unsupported(
            "the CUDA driver is installed but reports no GPU".into(),
        ));
    }
    let dev = Device::current()?;
    let p = dev.properties()?;
    let (free, total) = dev.mem_info()?;
    println!(
        "device {}: {} ({}), {} multiprocessors, {:.1} GiB ({:.1} GiB free), L2 {} MiB, driver CUDA {}",
        dev.ordinal(),
        p.name,
        p.arch(),
        p.multiprocessor_count,
        total as f64 / (1u64 << 30) as f64,
        free as f64 / (1u64 << 30) as f64,
        p.l2_cache_size >> 20,
        gpu_runtime::driver::driver_version()?
    );
    let (major, minor) = gpu_runtime::nvrtc::version()?;
    println!("NVRTC {major}.{minor}");

    // y = 2 x + y over a million floats, checked on the host.
    let n: usize = 1 << 20;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
    let stream = Stream::new()?;
    let dx = alloc(n * 4)?;
    let dy = alloc(n * 4)?;
    dx.copy_from_host(bytes_of(&x))?;
    dy.copy_from_host(bytes_of(&y))?;
    let kernel = RawKernel::new(SAXPY, "saxpy", &[])?;
    let (a, xp, yp, n32) = (2.0f32, dx.ptr(), dy.ptr(), n as u32);
    // SAFETY: the arguments match saxpy's parameters; both buffers hold n floats.
    unsafe {
        kernel.launch(
            &LaunchConfig::for_num_elements(n32),
            &stream,
            &kernel_args![a, xp, yp, n32],
        )?
    };
    stream.synchronize()?;
    let mut out = vec![0u8; n * 4];
    dy.copy_to_host(&mut out)?;
    let bad = out
        .chunks_exact(4)
        .enumerate()
        .filter(|(i, c)| {
            let v = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            v != 2.0 * x[*i] + y[*i]
        })
        .count();
    if bad != 0 {
        return Err(gpu_runtime::Error::InvalidArgument(format!(
            "saxpy gave {bad} wrong values out of {n}"
        )));
    }
    println!("saxpy on {n} floats: correct");
    Ok(())
}

fn bytes_of(v: &[f32]) -> &[u8] {
    // Plain little-endian f32s; bytemuck would do the same.
    // SAFETY: f32 has no padding and any byte pattern is a valid u8.
    unsafe { std::slice::from_raw_parts(v.as_ptr().cast(), std::mem::size_of_val(v)) }
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cuprum: cannot run on a GPU here: {e}");
            ExitCode::FAILURE
        }
    }
}
