//! Scaling inside cuFFT's own store: a JIT (LTO) store callback that
//! multiplies each output by the norm's factor, so `norm="ortho"`,
//! `"forward"` and the inverse's default `1/n` cost no pass of their own.
//!
//! Off unless `CUPRUM_FFT_STORE_CALLBACKS=1` (read once per process): on
//! the H200 with cuFFT 12.0 the callback plan of a 2^24-point complex64
//! transform measured 0.931 ms against 0.273 ms for the plain plan and
//! 0.339 ms for the plain plan plus the scaling pass (bench/cupy_bench.py,
//! one run), so the pass is the default.
//!
//! The callback is compiled by NVRTC to LTO IR (`-dlto`) for the device's
//! architecture and handed to cuFFT before planning
//! (`cufftXtSetJITCallback`); cuFFT links it into its kernels with
//! nvJitLink. That link costs time once per plan, so callbacks are used
//! only for transforms of at least [`MIN_ELEMENTS`] elements, where the
//! pass they save is worth it; smaller ones scale in a pass. Where the
//! machine cannot (no nvJitLink, an older cuFFT, NVRTC refusing `-dlto`),
//! the first failure turns callbacks off for the process and every
//! transform scales in a pass: the same values either way.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use gpu_array::Result;
use gpu_runtime::Device;
use gpu_runtime::nvrtc::{self, CompileRequest};
use gpu_sys::cufft_xt::cufftXtCallbackType;

use crate::plan::FftType;

/// The smallest output, in elements, that gets a scaling callback.
pub(crate) const MIN_ELEMENTS: usize = 1 << 22;

/// The callback's symbol.
pub(crate) const SYMBOL: &str = "cuprum_fft_scale_store";

/// Whether a callback plan has failed on this machine.
///
/// Process-wide on purpose: it records what the installed libraries can
/// do, which does not change while the process runs, and only chooses
/// between two ways of computing the same values.
static UNAVAILABLE: AtomicBool = AtomicBool::new(false);

/// Whether `CUPRUM_FFT_STORE_CALLBACKS=1` asked for callbacks.
static WANTED: OnceLock<bool> = OnceLock::new();

/// Whether callbacks are asked for and may be tried.
pub(crate) fn available() -> bool {
    *WANTED
        .get_or_init(|| std::env::var("CUPRUM_FFT_STORE_CALLBACKS").is_ok_and(|v| v.trim() == "1"))
        && !UNAVAILABLE.load(Ordering::Relaxed)
}

/// Why callbacks were turned off (the first failure).
static WHY: OnceLock<String> = OnceLock::new();

/// Records that callbacks do not work here, and why.
pub(crate) fn disable(why: String) {
    let _ = WHY.set(why);
    UNAVAILABLE.store(true, Ordering::Relaxed);
}

/// The failure that turned callbacks off, if one did.
pub(crate) fn why_disabled() -> Option<&'static str> {
    WHY.get().map(String::as_str)
}

/// The store callback type of a transform's output.
pub(crate) fn store_type(kind: FftType) -> cufftXtCallbackType {
    match kind {
        FftType::C2C | FftType::R2C => cufftXtCallbackType::CUFFT_CB_ST_COMPLEX,
        FftType::Z2Z | FftType::D2Z => cufftXtCallbackType::CUFFT_CB_ST_COMPLEX_DOUBLE,
        FftType::C2R => cufftXtCallbackType::CUFFT_CB_ST_REAL,
        FftType::Z2D => cufftXtCallbackType::CUFFT_CB_ST_REAL_DOUBLE,
    }
}

/// The CUDA source of the callback storing `scale` times each output of
/// a `kind` transform. Single precision multiplies by the factor rounded
/// to float, as NumPy computes the factor in the input's precision.
pub(crate) fn source(kind: FftType, scale: f64) -> String {
    let (ty, lit) = match kind {
        FftType::C2C | FftType::R2C => ("float2", format!("{:e}f", scale as f32)),
        FftType::Z2Z | FftType::D2Z => ("double2", format!("{scale:e}")),
        FftType::C2R => ("float", format!("{:e}f", scale as f32)),
        FftType::Z2D => ("double", format!("{scale:e}")),
    };
    let body = if ty.ends_with('2') {
        "v.x *= s; v.y *= s;"
    } else {
        "v *= s;"
    };
    let real = if ty.starts_with("float") {
        "float"
    } else {
        "double"
    };
    // A C++ declaration, not `extern "C"`: cuFFT declares the callback
    // with the signature of its type and links it by that (mangled) name.
    format!(
        "__device__ void {SYMBOL}(void* out, unsigned long long offset, {ty} v, \
         void* info, void* shared) {{ const {real} s = {lit}; {body} \
         static_cast<{ty}*>(out)[offset] = v; }}\n"
    )
}

/// The callback's LTO IR for `device` (compiled once per source and
/// architecture through NVRTC's cache).
pub(crate) fn lto_ir(kind: FftType, scale: f64, device: Device) -> Result<Vec<u8>> {
    // LTO IR for the virtual architecture, which nvJitLink finishes for
    // the device (as cuFFT's NVRTC samples compile their callbacks).
    let (major, minor) = device.compute_capability()?;
    let arch = format!("compute_{major}{minor}");
    let req = CompileRequest::new(source(kind, scale))
        .name("cuprum_fft_callback.cu")
        .option("-dlto")
        .option("-rdc=true")
        .option("-default-device")
        .arch(arch);
    let compiled = nvrtc::compile(&req)?;
    Ok(compiled.image.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_callback_source_scales_in_the_output_precision() {
        let s = source(FftType::C2C, 0.25);
        assert!(
            s.contains("float2 v") && s.contains("2.5e-1f") && s.contains(SYMBOL),
            "{s}"
        );
        let d = source(FftType::Z2D, 1.0 / 3.0);
        assert!(d.contains("double v") && d.contains("v *= s;"), "{d}");
        // The f64 factor round-trips through its printed form.
        let lit = d.split("s = ").nth(1).unwrap().split(';').next().unwrap();
        assert_eq!(lit.parse::<f64>().unwrap(), 1.0 / 3.0);
        assert_eq!(
            store_type(FftType::R2C),
            cufftXtCallbackType::CUFFT_CB_ST_COMPLEX
        );
    }

    /// NVRTC (no device needed): every callback compiles to LTO IR for
    /// each architecture the tests cover.
    #[test]
    fn every_callback_compiles_to_lto_ir() {
        if gpu_runtime::testing::nvrtc_or_skip().is_none() {
            return;
        }
        let kinds = [
            FftType::C2C,
            FftType::Z2Z,
            FftType::R2C,
            FftType::D2Z,
            FftType::C2R,
            FftType::Z2D,
        ];
        for arch in ["compute_80", "compute_90"] {
            for kind in kinds {
                let req = CompileRequest::new(source(kind, 0.125))
                    .option("-dlto")
                    .option("-rdc=true")
                    .option("-default-device")
                    .arch(arch);
                let out = nvrtc::compile_uncached(&req, &gpu_runtime::testing::no_cache())
                    .unwrap_or_else(|e| panic!("{kind:?} on {arch}: {e}"));
                assert_eq!(out.kind, nvrtc::ImageKind::LtoIr, "{kind:?} on {arch}");
                assert!(
                    out.image.len() > 64,
                    "{kind:?} on {arch}: {} bytes",
                    out.image.len()
                );
            }
        }
    }
}
