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
//! - `demo`: `setup-nvrtc`, then the device example (the main job).
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

fn demo(extra: &[String]) -> Result<(), String> {
    let dir = nvrtc_setup::ensure()?;
    let mut cmd = cargo();
    cmd.args([
        "run",
        "--release",
        "-p",
        "gpu-runtime",
        "--example",
        "01_device",
    ])
    .args(extra)
    .env("CUPRUM_NVRTC_PATH", &dir);
    run_status(cmd)
}
