//! Makes sure an NVRTC library is at hand for the compile-tier tests.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

/// The wheel fetched when no NVRTC is found. 13.0 matches the CUDA 13.0
/// driver of the GPU machine; the compile tier only needs some NVRTC 13.
pub const NVRTC_WHEEL: &str = "nvidia-cuda-nvrtc==13.0.88";

fn local_root() -> PathBuf {
    workspace_root().join(".cuprum").join("nvrtc")
}

/// The workspace root (xtask lives one folder below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

fn lib_dir_in(root: &Path) -> Option<PathBuf> {
    ["nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"]
        .iter()
        .map(|s| root.join(s))
        .find(|d| d.join("libnvrtc.so.13").exists() || d.join("libnvrtc.so.12").exists())
}

/// Returns a folder holding NVRTC (and its builtins library), fetching the
/// pip wheel into `.cuprum/nvrtc` when neither that folder nor the usual
/// search (gpu-sys's loader) finds one.
pub fn ensure() -> Result<PathBuf, String> {
    if let Some(d) = lib_dir_in(&local_root()) {
        return Ok(d);
    }
    if let Ok(path) = gpu_sys::nvrtc::LIBRARY.path() {
        // A bare soname resolves through the loader's paths; ask it where.
        let p = Path::new(path);
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            eprintln!("xtask: using NVRTC at {}", p.display());
            return Ok(dir.to_path_buf());
        }
    }
    eprintln!(
        "xtask: no NVRTC found; fetching {NVRTC_WHEEL} (a 90 MB download, 218 MB installed) into {}",
        local_root().display()
    );
    pip_install_with_progress(&local_root())?;
    lib_dir_in(&local_root()).ok_or_else(|| {
        format!(
            "{NVRTC_WHEEL} installed into {} but holds no libnvrtc.so",
            local_root().display()
        )
    })
}

/// Installs [`NVRTC_WHEEL`] into `target` with pip, reporting the download
/// every tenth of the way on stderr.
///
/// pip draws its progress bar only on a terminal, and its machine-readable
/// form (`--progress-bar raw`) needs pip 24.1, newer than many
/// distributions ship. So pip runs with its own temporary folder, and the
/// wheel's size there, against the size pip announces in its
/// `Downloading ... (90.2 MB)` line, is the progress. pip's own lines go
/// to stderr too: stdout of `setup-nvrtc` is the folder alone.
fn pip_install_with_progress(target: &Path) -> Result<(), String> {
    let tmp = target.with_file_name("pip-tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut child = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-compile",
            "--progress-bar",
            "off",
            "--target",
        ])
        .arg(target)
        .arg(NVRTC_WHEEL)
        .env("TMPDIR", &tmp)
        // Else pip's lines, piped, would come at its exit.
        .env("PYTHONUNBUFFERED", "1")
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not run python3 -m pip to fetch NVRTC: {e}"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let total = AtomicU64::new(0); // 0: not announced (yet)
    let done = AtomicBool::new(false);
    let status = thread::scope(|s| {
        s.spawn(|| {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                eprintln!("{line}");
                if let Some(n) = announced_size(&line) {
                    total.store(n, Ordering::Relaxed);
                }
            }
        });
        s.spawn(|| {
            let mut progress = Progress::default();
            while !done.load(Ordering::Relaxed) {
                thread::sleep(Duration::from_millis(200));
                let Some(have) = largest_wheel(&tmp) else {
                    continue;
                };
                let total = Some(total.load(Ordering::Relaxed)).filter(|&t| t > 0);
                if let Some(line) = progress.update(have, total) {
                    eprintln!("xtask: {line}");
                }
            }
        });
        let status = child.wait();
        done.store(true, Ordering::Relaxed);
        status
    });
    let _ = std::fs::remove_dir_all(&tmp);
    let status = status.map_err(|e| format!("python3 -m pip: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("pip could not install {NVRTC_WHEEL} ({status})"))
    }
}

/// The size in bytes that pip's `Downloading NAME (90.2 MB)` line
/// announces (pip writes sizes in decimal units).
fn announced_size(line: &str) -> Option<u64> {
    let line = line.trim();
    if !line.starts_with("Downloading ") {
        return None;
    }
    let inner = line.strip_suffix(')')?.rsplit_once('(')?.1;
    let (number, unit) = inner.split_once(' ')?;
    let scale = match unit {
        "bytes" => 1.0,
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        _ => return None,
    };
    let n: f64 = number.parse().ok()?;
    Some((n * scale) as u64)
}

/// The size of the largest wheel file in `tmp` or one folder below it,
/// where pip downloads (`pip-unpack-*/NAME.whl`).
fn largest_wheel(tmp: &Path) -> Option<u64> {
    let mut best = None;
    let mut look = |dir: &Path| -> Vec<PathBuf> {
        let mut dirs = Vec::new();
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                dirs.push(entry.path());
            } else if entry.file_name().to_string_lossy().contains(".whl") {
                best = best.max(Some(meta.len()));
            }
        }
        dirs
    };
    for dir in look(tmp) {
        look(&dir);
    }
    best
}

/// When to report a download: each time it passes another tenth of the
/// announced size, or another 25 MB where none was announced.
#[derive(Debug, Default)]
struct Progress {
    /// The last step reported (tenths, or 25 MB steps).
    step: u64,
    /// Whether `step` counts tenths: a size announced after the first
    /// bytes were seen starts the count anew.
    sized: bool,
}

impl Progress {
    const UNSIZED_STEP: u64 = 25_000_000;

    /// The line to print now that `have` bytes are down, if any.
    fn update(&mut self, have: u64, total: Option<u64>) -> Option<String> {
        let mb = |b: u64| b as f64 / 1e6;
        if total.is_some() != self.sized {
            *self = Progress {
                step: 0,
                sized: total.is_some(),
            };
        }
        match total {
            Some(total) => {
                let have = have.min(total);
                let step = have * 10 / total;
                (step > self.step).then(|| {
                    self.step = step;
                    format!(
                        "downloaded {:.1} of {:.1} MB ({}%)",
                        mb(have),
                        mb(total),
                        step * 10
                    )
                })
            }
            None => {
                let step = have / Self::UNSIZED_STEP;
                (step > self.step).then(|| {
                    self.step = step;
                    format!("downloaded {:.1} MB", mb(have))
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pips_download_line_gives_the_size() {
        let line = "  Downloading nvidia_cuda_nvrtc-13.0.88-py3-none-manylinux2010_x86_64.\
                    manylinux_2_12_x86_64.whl (90.2 MB)";
        assert_eq!(announced_size(line), Some(90_200_000));
        assert_eq!(announced_size("Downloading x.whl (10 kB)"), Some(10_000));
        assert_eq!(announced_size("Downloading x.whl (512 bytes)"), Some(512));
        assert_eq!(
            announced_size("Collecting nvidia-cuda-nvrtc==13.0.88"),
            None
        );
        assert_eq!(announced_size("Downloading x.whl"), None);
        assert_eq!(announced_size("Downloading x.whl (lots)"), None);
    }

    #[test]
    fn progress_reports_each_tenth_once() {
        let mut p = Progress::default();
        let total = Some(200_000_000);
        assert_eq!(p.update(1_000_000, total), None);
        assert_eq!(
            p.update(20_000_000, total).as_deref(),
            Some("downloaded 20.0 of 200.0 MB (10%)")
        );
        assert_eq!(p.update(21_000_000, total), None);
        // A jump over several tenths is one line.
        assert_eq!(
            p.update(95_000_000, total).as_deref(),
            Some("downloaded 95.0 of 200.0 MB (40%)")
        );
        assert_eq!(
            p.update(200_000_000, total).as_deref(),
            Some("downloaded 200.0 of 200.0 MB (100%)")
        );
        // Past the announced size (rounded by pip) nothing more is said.
        assert_eq!(p.update(200_040_000, total), None);
    }

    #[test]
    fn progress_without_a_size_reports_every_25_mb() {
        let mut p = Progress::default();
        assert_eq!(p.update(24_000_000, None), None);
        assert_eq!(
            p.update(26_000_000, None).as_deref(),
            Some("downloaded 26.0 MB")
        );
        assert_eq!(p.update(49_000_000, None), None);
        assert!(p.update(50_000_000, None).is_some());
        // The size comes late: tenths from then on.
        assert_eq!(
            p.update(60_000_000, Some(200_000_000)).as_deref(),
            Some("downloaded 60.0 of 200.0 MB (30%)")
        );
    }

    #[test]
    fn the_largest_wheel_is_found_one_folder_down() {
        let tmp = std::env::temp_dir().join(format!("xtask-wheel-{}", std::process::id()));
        let unpack = tmp.join("pip-unpack-x");
        std::fs::create_dir_all(&unpack).unwrap();
        assert_eq!(largest_wheel(&tmp), None);
        std::fs::write(unpack.join("a.whl"), [0u8; 300]).unwrap();
        std::fs::write(unpack.join("notes.txt"), [0u8; 900]).unwrap();
        std::fs::write(tmp.join("b.whl"), [0u8; 100]).unwrap();
        assert_eq!(largest_wheel(&tmp), Some(300));
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
