//! Makes sure an NVRTC library is at hand for the compile-tier tests.

use std::path::{Path, PathBuf};
use std::process::Command;

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
        "xtask: no NVRTC found; fetching {NVRTC_WHEEL} into {}",
        local_root().display()
    );
    let status = Command::new("python3")
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-compile",
            "--target",
        ])
        .arg(local_root())
        .arg(NVRTC_WHEEL)
        .status()
        .map_err(|e| format!("could not run python3 -m pip to fetch NVRTC: {e}"))?;
    if !status.success() {
        return Err(format!("pip could not install {NVRTC_WHEEL} ({status})"));
    }
    lib_dir_in(&local_root()).ok_or_else(|| {
        format!(
            "{NVRTC_WHEEL} installed into {} but holds no libnvrtc.so",
            local_root().display()
        )
    })
}
