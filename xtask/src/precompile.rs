//! `cargo xtask precompile [--arch sm_80,sm_90] [--out DIR] [--only FAMILY,..]
//! [--list] [--dump DIR]`: compiles the built-in kernels' common specialisations
//! (gpu-array's `precompile::common_programs`: elementwise, reduction,
//! scan, sort, stats, math, quantile and indexing programs) into a kernel-cache
//! folder, so that a deployment shipping that folder as `CUPRUM_CACHE_DIR`
//! pays no compilation on a common built-in op's first call. Needs NVRTC
//! only (set up as for `cargo xtask test`), no GPU. `--only` keeps the
//! named families; `--list` prints the programs per family and compiles
//! nothing. The list is deterministic, so the folder is the same on every
//! run. `--dump DIR` compiles nothing either: it writes each program's
//! rendered source to `DIR/<family>/<label>.cu` (options and header names
//! in a leading comment), so that two trees' kernels can be compared with
//! `diff -r` after a refactor of the code that renders them.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use gpu_array::precompile::{FAMILIES, common_programs};
use gpu_runtime::nvrtc::{CompileConfig, compile_with_config};

pub fn run(args: &[String]) -> Result<(), String> {
    let mut archs = vec!["sm_80".to_string(), "sm_90".to_string()];
    let mut out = crate::nvrtc_setup::workspace_root().join("target/kernel-cache");
    let mut only: Option<Vec<String>> = None;
    let mut list = false;
    let mut dump: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--only" => {
                only = Some(
                    it.next()
                        .ok_or("--only needs a list like sort,scan")?
                        .split(',')
                        .map(str::to_string)
                        .collect(),
                );
            }
            "--list" => list = true,
            "--dump" => dump = Some(PathBuf::from(it.next().ok_or("--dump needs a folder")?)),
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
    let mut programs = common_programs();
    if let Some(only) = &only {
        if let Some(bad) = only.iter().find(|f| !FAMILIES.contains(&f.as_str())) {
            return Err(format!(
                "precompile: unknown family {bad} (families: {})",
                FAMILIES.join(", ")
            ));
        }
        programs.retain(|p| only.iter().any(|f| f == p.family));
    }
    if let Some(dir) = &dump {
        return dump_sources(&programs, dir);
    }
    if list {
        let mut families: Vec<(&str, usize)> = Vec::new();
        for p in &programs {
            match families.iter_mut().find(|(f, _)| *f == p.family) {
                Some((_, n)) => *n += 1,
                None => families.push((p.family, 1)),
            }
        }
        for (f, n) in &families {
            println!("{f}: {n} programs");
        }
        println!(
            "total: {} programs x {} architectures",
            programs.len(),
            archs.len()
        );
        return Ok(());
    }
    let nvrtc = crate::nvrtc_setup::ensure()?;
    if std::env::var_os("CUPRUM_NVRTC_PATH").is_none() {
        // SAFETY: still single-threaded here (the compile threads start
        // below), and nothing else reads the environment concurrently.
        unsafe { std::env::set_var("CUPRUM_NVRTC_PATH", &nvrtc) };
    }
    // The cache skips (with only a log line) a folder others could write
    // to; refuse it here rather than precompile into nothing.
    gpu_runtime::nvrtc::cache::prepare_cache_dir(&out).map_err(|e| e.to_string())?;
    let config = CompileConfig::from_env()
        .cache_dir(out.clone())
        .in_memory_only(false)
        .save_source(false)
        .debug(false)
        .dump_source_on_error(true);
    let jobs: Vec<(usize, String)> = archs
        .iter()
        .flat_map(|a| (0..programs.len()).map(move |k| (k, a.clone())))
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
                    let p = &programs[*k];
                    let req = p.request.clone().arch(arch.clone());
                    if let Err(e) = compile_with_config(&req, &config) {
                        failures
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push(format!("{} {} ({arch}): {e}", p.family, p.label));
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
        "xtask: precompiled {} programs ({} x {:?}) into {} in {:.0} s",
        jobs.len() - failures.len(),
        programs.len(),
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

/// Writes each program's source under `dir/<family>/<label>.cu`.
fn dump_sources(
    programs: &[gpu_array::precompile::Program],
    dir: &std::path::Path,
) -> Result<(), String> {
    for p in programs {
        let folder = dir.join(p.family);
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        let headers: Vec<&str> = p.request.headers.iter().map(|(n, _)| n.as_str()).collect();
        let text = format!(
            "// options: {}\n// headers: {}\n{}",
            p.request.options.join(" "),
            headers.join(" "),
            p.request.source
        );
        let file = folder.join(format!("{}.cu", p.label));
        std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    eprintln!(
        "xtask: wrote {} sources under {}",
        programs.len(),
        dir.display()
    );
    Ok(())
}
