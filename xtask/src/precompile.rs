//! `cargo xtask precompile [--arch sm_80,sm_90] [--out DIR]`: compiles the
//! built-in kernels' common specialisations (gpu-array's `common_specs`)
//! into a kernel-cache folder, so that a deployment shipping that folder as
//! `CUPRUM_CACHE_DIR` pays no compilation on a built-in op's first call.
//! Needs NVRTC only (set up as for `cargo xtask test`), no GPU.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use gpu_array::elementwise::{common_specs, program_request};
use gpu_runtime::nvrtc::{CompileConfig, compile_with_config};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut archs = vec!["sm_80".to_string(), "sm_90".to_string()];
    let mut out = crate::nvrtc_setup::workspace_root().join("target/kernel-cache");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--arch" => {
                archs = it
                    .next()
                    .ok_or("--arch needs a list like sm_80,sm_90")?
                    .split(',')
                    .map(str::to_string)
                    .collect();
            }
            "--out" => out = PathBuf::from(it.next().ok_or("--out needs a folder")?),
            other => return Err(format!("precompile: unknown argument {other}")),
        }
    }
    let nvrtc = crate::nvrtc_setup::ensure()?;
    if std::env::var_os("CUPRUM_NVRTC_PATH").is_none() {
        // SAFETY: still single-threaded here (the compile threads start
        // below), and nothing else reads the environment concurrently.
        unsafe { std::env::set_var("CUPRUM_NVRTC_PATH", &nvrtc) };
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let config = CompileConfig {
        cache_dir: out.clone(),
        in_memory_only: false,
        save_source: false,
        debug: false,
        dump_source_on_error: true,
    };
    let specs = common_specs();
    let jobs: Vec<(usize, String)> = archs
        .iter()
        .flat_map(|a| (0..specs.len()).map(move |k| (k, a.clone())))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let start = Instant::now();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    let Some((k, arch)) = jobs.get(j) else { break };
                    let req = program_request(std::slice::from_ref(&specs[*k])).arch(arch.clone());
                    if let Err(e) = compile_with_config(&req, &config) {
                        failures
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(format!("{} ({arch}): {e}", specs[*k].name));
                    }
                    if j.is_multiple_of(500) {
                        eprintln!("xtask: precompile {j}/{}", jobs.len());
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|p| p.into_inner());
    eprintln!(
        "xtask: precompiled {} kernels ({} specs x {:?}) into {} in {:.0} s",
        jobs.len() - failures.len(),
        specs.len(),
        archs,
        out.display(),
        start.elapsed().as_secs_f64()
    );
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} kernels failed:\n{}",
            failures.len(),
            failures.join("\n")
        ))
    }
}
