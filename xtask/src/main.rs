//! Cuprum's developer tasks, run as `cargo xtask <task>`.
//!
//! - `bindgen [--include DIR]`: regenerate gpu-sys's checked-in bindings from
//!   the CUDA 13 headers (fetched from the nvidia-* pip wheels when no folder
//!   is given).
//! - `setup-nvrtc`: make sure an NVRTC library can be found, fetching the
//!   `nvidia-cuda-nvrtc` wheel into `.cuprum/nvrtc` when none is; prints the
//!   folder.
//! - `test [ARGS]`: `setup-nvrtc`, then `cargo test --workspace ARGS` with
//!   NVRTC required, so compile-tier tests fail instead of skipping.
//! - `demo [CARGO ARGS]`: checks for an NVIDIA driver and a GPU (and stops,
//!   with the reason, before anything is fetched or built when there is
//!   none), `setup-nvrtc`, then runs the `cuprum` crate's first example,
//!   `crates/cuprum/examples/01_basics.rs` (the main job).
//! - `precompile [--arch sm_80,sm_90] [--out DIR] [--only FAMILY,..] [--list]`:
//!   fill a kernel-cache folder with the built-in kernels' common
//!   specialisations (elementwise, reduction, scan, sort, stats, math,
//!   quantile, indexing).
//! - `golden [OUTDIR]`: regenerate the NumPy oracles of the GPU tests (needs
//!   Python with NumPy 2).

mod bindings;
mod golden;
mod nvrtc_setup;
mod precompile;

use std::process::{Command, ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bindgen") => bindings::run(&args[1..]),
        Some("setup-nvrtc") => nvrtc_setup::ensure().map(|dir| println!("{}", dir.display())),
        Some("test") => test(&args[1..]),
        Some("precompile") => precompile::run(&args[1..]),
        Some("demo") => demo(&args[1..]),
        Some("golden") => golden::run(&args[1..]),
        _ => Err(
            "usage: cargo xtask <bindgen [--include DIR] | setup-nvrtc | test [ARGS] | demo | precompile [--arch A,B] [--out DIR] [--only F,..] [--list]>"
                .to_string(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string()))
}

fn run_status(mut cmd: Command) -> Result<(), String> {
    let status = cmd
        .status()
        .map_err(|e| format!("could not start {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed: {status}"))
    }
}

fn test(extra: &[String]) -> Result<(), String> {
    let dir = nvrtc_setup::ensure()?;
    let mut cmd = cargo();
    cmd.args(["test", "--workspace"])
        .args(extra)
        .env("CUPRUM_NVRTC_PATH", &dir)
        .env("CUPRUM_TEST_REQUIRE_NVRTC", "1");
    run_status(cmd)
}

/// The example `demo` runs: the `cuprum` crate's first, what a new user
/// writes first.
const DEMO_EXAMPLE: &str = "01_basics";

fn demo(extra: &[String]) -> Result<(), String> {
    // Before the NVRTC download (90 MB, 218 MB installed) and the build, which are
    // wasted on a machine that cannot run the result.
    let device = gpu_here()
        .map_err(|why| format!("cannot run the demo: {why}\n(nothing was downloaded or built)"))?;
    eprintln!("xtask: {device}");
    let dir = nvrtc_setup::ensure()?;
    eprintln!(
        "xtask: building and running crates/cuprum/examples/{DEMO_EXAMPLE}.rs \
         (the first build takes a few minutes)"
    );
    let mut cmd = cargo();
    cmd.args(["run", "-p", "cuprum", "--example", DEMO_EXAMPLE])
        .args(extra)
        .env("CUPRUM_NVRTC_PATH", &dir);
    run_status(cmd)
}

/// One line on the GPU the demo will use, or why there is none: no driver
/// library, a driver that does not start, or no device.
fn gpu_here() -> Result<String, String> {
    use gpu_runtime::Device;
    let lib = gpu_sys::cuda::LIBRARY.path().map_err(|e| e.to_string())?;
    let count = Device::count()
        .map_err(|e| format!("the NVIDIA driver ({lib}) is installed but does not start: {e}"))?;
    if count == 0 {
        return Err(format!(
            "the NVIDIA driver ({lib}) is installed but reports no GPU"
        ));
    }
    let describe = || -> gpu_runtime::Result<String> {
        let dev = Device::current()?;
        let p = dev.properties()?;
        let v = gpu_runtime::driver::driver_version()?;
        Ok(format!(
            "GPU {}: {} ({}), driver for CUDA {}.{} ({count} GPU{} visible)",
            dev.ordinal(),
            p.name,
            p.arch(),
            v / 1000,
            v % 1000 / 10,
            if count == 1 { "" } else { "s" }
        ))
    };
    describe().map_err(|e| format!("the GPU could not be queried: {e}"))
}
