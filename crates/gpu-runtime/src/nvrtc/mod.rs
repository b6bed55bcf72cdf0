//! The NVRTC runtime compiler and its kernel cache.
//!
//! [`compile`] turns CUDA C++ source into a loadable image: a CUBIN when the
//! target is a real `sm_XY` that this NVRTC knows (no PTX JIT, no PTX-version
//! mismatch with the driver), else PTX for the newest virtual architecture it
//! supports. Headers are handed over in memory by name
//! ([`CompileRequest::headers`]), so no CUDA toolkit is needed on disk; name
//! expressions (`"my_kernel<float>"`) come back as lowered (mangled) names.
//!
//! Results are cached (DESIGN.md, "Kernels"): per process in memory, and on
//! disk under `CUPRUM_CACHE_DIR` (default `~/.cache/cuprum/kernels`), keyed by
//! a SHA-256 of the source, headers (in memory, and the files under `-I`
//! folders), options, architecture, name expressions and the NVRTC version; see [`cache`] and [`CompileConfig`] for the
//! environment variables, which have the meanings of CuPy's `CUPY_*`
//! namesakes.

pub mod cache;

use std::collections::HashMap;
use std::ffi::{CStr, CString, c_char, c_int};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use gpu_sys::LoadError;
use gpu_sys::nvrtc::{self, nvrtcProgram, nvrtcResult};

use crate::{Device, Error, Result};

pub use cache::{CacheSource, clear_memory_cache, memory_cache_len};

/// What to compile: source, options, in-memory headers, name expressions and
/// the target architecture.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompileRequest {
    /// The CUDA C++ source.
    pub source: String,
    /// The program's name, shown in NVRTC's messages (`"cuprum_kernel.cu"`
    /// unless set).
    pub name: String,
    /// NVRTC options, e.g. `-DN=4`, `--use_fast_math`. An `-arch=` /
    /// `--gpu-architecture=` option here overrides [`CompileRequest::arch`].
    pub options: Vec<String>,
    /// Headers by include name and contents: `#include "name"` finds them
    /// without touching the file system.
    pub headers: Vec<(String, String)>,
    /// Name expressions (`"kern<float, 4>"`, `"&my_global"`) whose lowered
    /// names [`Compiled::lowered_names`] will hold.
    pub name_expressions: Vec<String>,
    /// The target: `sm_XY` (a CUBIN when NVRTC supports it, else PTX),
    /// `compute_XY` (PTX), or `None` for the current device's architecture.
    pub arch: Option<String>,
}

impl Default for CompileRequest {
    fn default() -> Self {
        CompileRequest {
            source: String::new(),
            name: "cuprum_kernel.cu".to_string(),
            options: Vec::new(),
            headers: Vec::new(),
            name_expressions: Vec::new(),
            arch: None,
        }
    }
}

impl CompileRequest {
    /// A request for `source` with no options, for the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let req = CompileRequest::new("extern \"C\" __global__ void k() {}").option("-DN=4").arch("sm_90");
    /// # Ok(()) }
    /// ```
    pub fn new(source: impl Into<String>) -> Self {
        CompileRequest {
            source: source.into(),
            ..Default::default()
        }
    }

    /// Sets the program's name (shown in NVRTC's messages).
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// let req = CompileRequest::new("__global__ void k() {}").name("saxpy.cu");
    /// assert_eq!(req.name, "saxpy.cu");
    /// ```
    #[must_use]
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Adds one option.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// let req = CompileRequest::new("__global__ void k() {}").option("-DN=4").option("--use_fast_math");
    /// assert_eq!(req.options, ["-DN=4", "--use_fast_math"]);
    /// ```
    #[must_use]
    pub fn option(mut self, option: impl Into<String>) -> Self {
        self.options.push(option.into());
        self
    }

    /// Adds one in-memory header.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// let req = CompileRequest::new("#include \"n.h\"\n__global__ void k(int* p) { *p = N; }")
    ///     .header("n.h", "#define N 4");
    /// assert_eq!(req.headers, [("n.h".to_string(), "#define N 4".to_string())]);
    /// ```
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, contents: impl Into<String>) -> Self {
        self.headers.push((name.into(), contents.into()));
        self
    }

    /// Adds one name expression.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// let req = CompileRequest::new("template<int N> __global__ void k(int* p) { *p = N; }")
    ///     .name_expression("k<4>");
    /// assert_eq!(req.name_expressions, ["k<4>"]);
    /// ```
    #[must_use]
    pub fn name_expression(mut self, expression: impl Into<String>) -> Self {
        self.name_expressions.push(expression.into());
        self
    }

    /// Sets the target architecture (`"sm_90"`, `"compute_80"`).
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// let req = CompileRequest::new("__global__ void k() {}").arch("compute_80");
    /// assert_eq!(req.arch.as_deref(), Some("compute_80"));
    /// ```
    #[must_use]
    pub fn arch(mut self, arch: impl Into<String>) -> Self {
        self.arch = Some(arch.into());
        self
    }
}

/// What kind of image NVRTC produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImageKind {
    /// Machine code for one real architecture (ELF).
    Cubin,
    /// PTX text, compiled by the driver when loaded.
    Ptx,
    /// LTO IR (`-dlto`), for a link step such as nvJitLink or cuFFT's
    /// JIT callbacks; a module cannot load it.
    LtoIr,
}

/// A compiled program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compiled {
    /// The CUBIN, or the PTX text (without a trailing NUL).
    pub image: Vec<u8>,
    /// Which of the two `image` is.
    pub kind: ImageKind,
    /// The architecture it was compiled for, as passed to `-arch`
    /// (`sm_90`, `compute_90`).
    pub arch: String,
    /// NVRTC's log: warnings, or empty.
    pub log: String,
    /// Name expression to lowered (mangled) name.
    pub lowered_names: HashMap<String, String>,
}

impl Compiled {
    /// The lowered name of a name expression given at compile time.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::{self, CompileRequest};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let req = CompileRequest::new("template<int N> __global__ void k(int* p) { *p = N; }")
    ///     .name_expression("k<4>")
    ///     .arch("sm_90");
    /// let out = nvrtc::compile(&req)?;
    /// assert!(out.lowered_name("k<4>").is_some_and(|n| n.starts_with("_Z")));
    /// # Ok(()) }
    /// ```
    pub fn lowered_name(&self, expression: &str) -> Option<&str> {
        self.lowered_names.get(expression).map(String::as_str)
    }
}

/// Compiler settings that come from the environment (CuPy's `CUPY_*`
/// meanings); [`CompileConfig::from_env`] reads them, tests build their own.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CompileConfig {
    /// Where compiled kernels are stored: `CUPRUM_CACHE_DIR`, else
    /// `~/.cache/cuprum/kernels` ([`cache::default_cache_dir`]). Created
    /// with mode 0700; a folder other users could write to is not used
    /// (see [`cache`]).
    pub cache_dir: PathBuf,
    /// `CUPRUM_CACHE_IN_MEMORY=1`: cache only in this process's memory; the
    /// disk is neither read nor written.
    pub in_memory_only: bool,
    /// `CUPRUM_CACHE_SAVE_CUDA_SOURCE=1`: write `<key>.cu` next to each
    /// cached kernel.
    pub save_source: bool,
    /// `CUPRUM_CUDA_COMPILE_WITH_DEBUG=1`: compile with `--device-debug`
    /// and `--generate-line-info`.
    pub debug: bool,
    /// `CUPRUM_DUMP_CUDA_SOURCE_ON_ERROR=1`: on a compile error, write the
    /// numbered source to stderr and append it to the error's log.
    pub dump_source_on_error: bool,
}

impl CompileConfig {
    /// Sets `cache_dir`.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileConfig;
    /// let c = CompileConfig::from_env().cache_dir("/tmp/my-kernels");
    /// assert_eq!(c.cache_dir, std::path::Path::new("/tmp/my-kernels"));
    /// ```
    #[must_use]
    pub fn cache_dir(mut self, cache_dir: impl Into<PathBuf>) -> CompileConfig {
        self.cache_dir = cache_dir.into();
        self
    }

    /// Sets `in_memory_only`.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileConfig;
    /// assert!(CompileConfig::from_env().in_memory_only(true).in_memory_only);
    /// ```
    #[must_use]
    pub fn in_memory_only(mut self, in_memory_only: bool) -> CompileConfig {
        self.in_memory_only = in_memory_only;
        self
    }

    /// Sets `save_source`.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileConfig;
    /// assert!(CompileConfig::from_env().save_source(true).save_source);
    /// ```
    #[must_use]
    pub fn save_source(mut self, save_source: bool) -> CompileConfig {
        self.save_source = save_source;
        self
    }

    /// Sets `debug`.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileConfig;
    /// assert!(!CompileConfig::from_env().debug(false).debug);
    /// ```
    #[must_use]
    pub fn debug(mut self, debug: bool) -> CompileConfig {
        self.debug = debug;
        self
    }

    /// Sets `dump_source_on_error`.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::CompileConfig;
    /// assert!(CompileConfig::from_env().dump_source_on_error(true).dump_source_on_error);
    /// ```
    #[must_use]
    pub fn dump_source_on_error(mut self, dump_source_on_error: bool) -> CompileConfig {
        self.dump_source_on_error = dump_source_on_error;
        self
    }
}

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| {
        let v = v.trim();
        v == "1" || v.eq_ignore_ascii_case("true") || v.eq_ignore_ascii_case("yes")
    })
}

impl CompileConfig {
    /// The settings of the environment variables now.
    ///
    /// ```
    /// use gpu_runtime::nvrtc::{CompileConfig, cache};
    /// let c = CompileConfig::from_env();
    /// assert_eq!(c.cache_dir, cache::default_cache_dir());
    /// ```
    pub fn from_env() -> CompileConfig {
        CompileConfig {
            cache_dir: cache::default_cache_dir(),
            in_memory_only: env_flag("CUPRUM_CACHE_IN_MEMORY"),
            save_source: env_flag("CUPRUM_CACHE_SAVE_CUDA_SOURCE"),
            debug: env_flag("CUPRUM_CUDA_COMPILE_WITH_DEBUG"),
            dump_source_on_error: env_flag("CUPRUM_DUMP_CUDA_SOURCE_ON_ERROR"),
        }
    }
}

fn nvrtc_error(call: &'static str, code: nvrtcResult) -> Error {
    // SAFETY: nvrtcGetErrorString returns a static NUL-terminated string for any code.
    let message = match unsafe { nvrtc::nvrtcGetErrorString(code) } {
        Ok(p) if !p.is_null() => {
            // SAFETY: as above.
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
        _ => format!("NVRTC error {}", code.0),
    };
    Error::Nvrtc {
        call,
        code: code.0,
        message,
    }
}

fn check(call: &'static str, r: Result<nvrtcResult, LoadError>) -> Result<()> {
    let code = r?;
    if code == nvrtcResult::NVRTC_SUCCESS {
        Ok(())
    } else {
        Err(nvrtc_error(call, code))
    }
}

/// NVRTC's `(major, minor)` version, e.g. `(13, 0)`.
///
/// ```no_run
/// use gpu_runtime::nvrtc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let (major, minor) = nvrtc::version()?; // NVRTC 13.0 here
/// # Ok(()) }
/// ```
///
/// # Errors
/// NVRTC is missing.
pub fn version() -> Result<(i32, i32)> {
    static VERSION: OnceLock<Result<(i32, i32)>> = OnceLock::new();
    VERSION
        .get_or_init(|| {
            let (mut major, mut minor) = (0, 0);
            // SAFETY: writes two ints.
            check("nvrtcVersion", unsafe {
                nvrtc::nvrtcVersion(&mut major, &mut minor)
            })?;
            Ok((major, minor))
        })
        .clone()
}

/// Opens NVRTC and reads its version and architectures on a background
/// thread, once per process. Called when a device's context is first
/// created, so that opening the (large) library overlaps the context's
/// creation instead of adding milliseconds to the first kernel call, even
/// one whose kernel comes from the disk cache (the cache key holds NVRTC's
/// version). Without NVRTC this does nothing visible; the first compile
/// reports the missing library.
///
/// Exit waits for that thread (at most ten seconds): a process that
/// exits while the thread is still inside NVRTC's loading could otherwise
/// be killed by a signal during exit, as CI once saw this very example.
///
/// ```
/// use gpu_runtime::nvrtc;
/// nvrtc::preload(); // returns at once; NVRTC opens on a background thread
/// nvrtc::preload(); // later calls do nothing
/// ```
pub fn preload() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        *PRELOAD.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
        let spawned = std::thread::Builder::new()
            .name("cuprum-nvrtc-preload".into())
            .spawn(|| {
                let _ = version();
                let _ = supported_archs();
                let _ = preload_builtins();
                *PRELOAD.0.lock().unwrap_or_else(|e| e.into_inner()) = false;
                PRELOAD.1.notify_all();
            });
        match spawned {
            Ok(handle) => {
                drop(handle);
                wait_at_exit();
            }
            // Without a thread, the first compile loads NVRTC itself.
            Err(_) => *PRELOAD.0.lock().unwrap_or_else(|e| e.into_inner()) = false,
        }
    });
}

/// Whether the preload thread is still loading, and its end's signal.
static PRELOAD: (std::sync::Mutex<bool>, std::sync::Condvar) =
    (std::sync::Mutex::new(false), std::sync::Condvar::new());

/// Registers [`wait_for_preload`] to run at process exit (C's `atexit`).
fn wait_at_exit() {
    unsafe extern "C" {
        fn atexit(callback: extern "C" fn()) -> c_int;
    }
    // SAFETY: `atexit` takes any `extern "C" fn()` and stores it; the
    // callback is a plain function that lives as long as the program. A
    // refusal (non-zero) only loses the wait.
    let _ = unsafe { atexit(wait_for_preload) };
}

/// At exit: waits, at most ten seconds, for the preload thread to leave
/// NVRTC's loading.
extern "C" fn wait_for_preload() {
    let (lock, done) = &PRELOAD;
    let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
    let _ = done.wait_timeout_while(guard, std::time::Duration::from_secs(10), |loading| {
        *loading
    });
}

/// The real architectures NVRTC can compile CUBINs for, as numbers
/// (`[75, 80, 86, ..., 120]`), ascending.
///
/// ```no_run
/// use gpu_runtime::nvrtc;
/// # fn main() -> gpu_runtime::Result<()> {
/// let archs = nvrtc::supported_archs()?;
/// assert!(archs.windows(2).all(|w| w[0] < w[1]));
/// # Ok(()) }
/// ```
///
/// # Errors
/// NVRTC is missing.
pub fn supported_archs() -> Result<&'static [i32]> {
    static ARCHS: OnceLock<Result<Vec<i32>>> = OnceLock::new();
    ARCHS
        .get_or_init(|| {
            let mut n: c_int = 0;
            // SAFETY: writes one int.
            check("nvrtcGetNumSupportedArchs", unsafe {
                nvrtc::nvrtcGetNumSupportedArchs(&mut n)
            })?;
            let mut archs = vec![0 as c_int; n.max(0) as usize];
            // SAFETY: the buffer holds the n ints NVRTC just announced.
            check("nvrtcGetSupportedArchs", unsafe {
                nvrtc::nvrtcGetSupportedArchs(archs.as_mut_ptr())
            })?;
            archs.sort_unstable();
            Ok(archs)
        })
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// Opens NVRTC's builtins library (`libnvrtc-builtins.so.M.m`) from NVRTC's
/// own folder, once. NVRTC opens it by soname when compiling, which fails for
/// a folder outside the loader's search path (a pip wheel, `CUPRUM_NVRTC_PATH`);
/// once loaded, the loader finds it by that soname. Returns why it could not
/// be loaded, for the error NVRTC then reports.
fn preload_builtins() -> Option<&'static str> {
    static RESULT: OnceLock<Option<String>> = OnceLock::new();
    RESULT
        .get_or_init(|| {
            let (major, minor) = version().ok()?;
            let soname = format!("libnvrtc-builtins.so.{major}.{minor}");
            let nvrtc_path = nvrtc::LIBRARY.path().ok()?;
            let dir = std::path::Path::new(nvrtc_path).parent()?;
            if dir.as_os_str().is_empty() {
                // Found by the dynamic loader, which will find the builtins too.
                return None;
            }
            let path = dir.join(&soname).display().to_string();
            // Leaked once per process: the library must stay loaded anyway.
            let names: &'static [&'static str] = Box::leak(Box::new([
                &*Box::leak(path.into_boxed_str()),
                &*Box::leak(soname.into_boxed_str()),
            ]));
            let lib: &'static gpu_sys::DynamicLibrary = Box::leak(Box::new(
                gpu_sys::DynamicLibrary::new("nvrtc-builtins", names),
            ));
            lib.path().err().map(|e| e.to_string())
        })
        .as_deref()
}

/// Splits `sm_90a` into `("sm", 90, "a")`.
fn parse_arch(arch: &str) -> Option<(&str, i32, &str)> {
    let (prefix, rest) = arch.split_once('_')?;
    if prefix != "sm" && prefix != "compute" {
        return None;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let number = rest[..digits].parse().ok()?;
    let suffix = &rest[digits..];
    if !suffix.chars().all(|c| c.is_ascii_lowercase()) {
        return None;
    }
    Some((prefix, number, suffix))
}

/// Chooses what to pass to `-arch` and what comes out, given the archs NVRTC
/// supports: a CUBIN for a supported `sm_XY`, else PTX for the newest
/// virtual architecture not above the device's.
fn resolve_arch(arch: &str, supported: &[i32]) -> Result<(String, ImageKind)> {
    let (prefix, number, _) = parse_arch(arch).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "invalid CUDA architecture `{arch}`: expected sm_XY or compute_XY"
        ))
    })?;
    if prefix == "compute" {
        return Ok((arch.to_string(), ImageKind::Ptx));
    }
    if supported.contains(&number) {
        return Ok((arch.to_string(), ImageKind::Cubin));
    }
    match supported.iter().rev().find(|&&a| a <= number) {
        Some(&a) => Ok((format!("compute_{a}"), ImageKind::Ptx)),
        None => Err(Error::Unsupported(format!(
            "NVRTC {} cannot compile for {arch} (it supports sm_{})",
            version().map_or_else(|_| "?".to_string(), |(a, b)| format!("{a}.{b}")),
            supported
                .iter()
                .map(i32::to_string)
                .collect::<Vec<_>>()
                .join(", sm_")
        ))),
    }
}

fn is_std_option(o: &str) -> bool {
    o.starts_with("-std=") || o.starts_with("--std=") || o == "-std" || o == "--std"
}

fn arch_option(o: &str) -> Option<&str> {
    o.strip_prefix("-arch=")
        .or_else(|| o.strip_prefix("--gpu-architecture="))
}

/// A request with everything decided: the options NVRTC will get (in order,
/// `-arch` last) and the kind of image that comes out. This is what the
/// cache key hashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub options: Vec<String>,
    pub arch: String,
    pub kind: ImageKind,
}

pub(crate) fn resolve(
    request: &CompileRequest,
    config: &CompileConfig,
    supported: &[i32],
) -> Result<Resolved> {
    let mut arch = request.arch.clone();
    let mut options = Vec::with_capacity(request.options.len() + 4);
    for o in &request.options {
        match arch_option(o) {
            Some(a) => arch = Some(a.to_string()),
            None => options.push(o.clone()),
        }
    }
    let arch = match arch {
        Some(a) => a,
        None => Device::current()?.properties()?.arch(),
    };
    let (arch, mut kind) = resolve_arch(&arch, supported)?;
    if options.iter().any(|o| o == "-dlto" || o == "--dlto") {
        kind = ImageKind::LtoIr;
    }
    if !options.iter().any(|o| is_std_option(o)) {
        options.push("-std=c++17".to_string());
    }
    if config.debug {
        for o in ["--device-debug", "--generate-line-info"] {
            if !options.iter().any(|x| x == o) {
                options.push(o.to_string());
            }
        }
    }
    options.push(format!("-arch={arch}"));
    Ok(Resolved {
        options,
        arch,
        kind,
    })
}

/// Compiles through the cache with the environment's settings; the result
/// is shared with every later request for the same program.
///
/// ```no_run
/// use gpu_runtime::nvrtc::{self, CompileRequest};
/// # fn main() -> gpu_runtime::Result<()> {
/// let out = nvrtc::compile(&CompileRequest::new("extern \"C\" __global__ void k() {}").arch("sm_90"))?; // cached by source, options and arch
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Compile`] with NVRTC's log when the source does not compile;
/// [`Error::Load`] when NVRTC is missing; [`Error::InvalidArgument`] for a
/// malformed architecture; without an `arch`, no current device.
pub fn compile(request: &CompileRequest) -> Result<Arc<Compiled>> {
    compile_with_config(request, &CompileConfig::from_env()).map(|(c, _)| c)
}

/// Compiles through the cache with explicit settings and says where the
/// result came from.
///
/// ```no_run
/// use gpu_runtime::nvrtc::{self, CacheSource, CompileConfig, CompileRequest};
/// # fn main() -> gpu_runtime::Result<()> {
/// let req = CompileRequest::new("extern \"C\" __global__ void k() {}").arch("sm_90");
/// let config = CompileConfig::from_env().in_memory_only(true);
/// let (_, first) = nvrtc::compile_with_config(&req, &config)?;
/// let (_, again) = nvrtc::compile_with_config(&req, &config)?;
/// assert_eq!(again, CacheSource::Memory);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`compile`].
pub fn compile_with_config(
    request: &CompileRequest,
    config: &CompileConfig,
) -> Result<(Arc<Compiled>, CacheSource)> {
    let resolved = resolve(request, config, supported_archs()?)?;
    let key = cache::key(request, &resolved, version()?);
    let memory_only;
    let config = if key.disk {
        config
    } else {
        memory_only = CompileConfig {
            in_memory_only: true,
            ..config.clone()
        };
        &memory_only
    };
    cache::get_or_compile(cache::memory(), &key.hex, config, &request.source, || {
        compile_resolved(request, &resolved, config)
    })
}

/// Compiles without looking at or filling the cache.
///
/// ```no_run
/// use gpu_runtime::nvrtc::{self, CompileConfig, ImageKind, CompileRequest};
/// # fn main() -> gpu_runtime::Result<()> {
/// let req = CompileRequest::new("extern \"C\" __global__ void k() {}").arch("compute_90");
/// let out = nvrtc::compile_uncached(&req, &CompileConfig::from_env())?;
/// assert_eq!(out.kind, ImageKind::Ptx);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`compile`].
pub fn compile_uncached(request: &CompileRequest, config: &CompileConfig) -> Result<Compiled> {
    let resolved = resolve(request, config, supported_archs()?)?;
    compile_resolved(request, &resolved, config)
}

fn cstring(what: &str, s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::InvalidArgument(format!("{what} contains a NUL byte")))
}

/// An NVRTC program, destroyed on drop.
struct Program(nvrtcProgram);

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: a program we created and destroy once.
        let _ = unsafe { nvrtc::nvrtcDestroyProgram(&mut self.0) };
    }
}

impl Program {
    fn log(&self) -> Result<String> {
        let mut size = 0usize;
        // SAFETY: a live program; writes one size.
        check("nvrtcGetProgramLogSize", unsafe {
            nvrtc::nvrtcGetProgramLogSize(self.0, &mut size)
        })?;
        let mut buf = vec![0u8; size.max(1)];
        // SAFETY: the buffer holds the announced size (including the NUL).
        check("nvrtcGetProgramLog", unsafe {
            nvrtc::nvrtcGetProgramLog(self.0, buf.as_mut_ptr().cast::<c_char>())
        })?;
        let text = String::from_utf8_lossy(&buf);
        Ok(text.trim_end_matches('\0').trim_end().to_string())
    }

    fn output(&self, kind: ImageKind) -> Result<Vec<u8>> {
        let mut size = 0usize;
        let mut image = match kind {
            ImageKind::Cubin => {
                // SAFETY: a compiled program; writes one size.
                check("nvrtcGetCUBINSize", unsafe {
                    nvrtc::nvrtcGetCUBINSize(self.0, &mut size)
                })?;
                let mut buf = vec![0u8; size];
                // SAFETY: the buffer holds the announced size.
                check("nvrtcGetCUBIN", unsafe {
                    nvrtc::nvrtcGetCUBIN(self.0, buf.as_mut_ptr().cast::<c_char>())
                })?;
                buf
            }
            ImageKind::LtoIr => {
                // SAFETY: a compiled program; writes one size.
                check("nvrtcGetLTOIRSize", unsafe {
                    nvrtc::nvrtcGetLTOIRSize(self.0, &mut size)
                })?;
                let mut buf = vec![0u8; size];
                // SAFETY: the buffer holds the announced size.
                check("nvrtcGetLTOIR", unsafe {
                    nvrtc::nvrtcGetLTOIR(self.0, buf.as_mut_ptr().cast::<c_char>())
                })?;
                buf
            }
            ImageKind::Ptx => {
                // SAFETY: a compiled program; writes one size.
                check("nvrtcGetPTXSize", unsafe {
                    nvrtc::nvrtcGetPTXSize(self.0, &mut size)
                })?;
                let mut buf = vec![0u8; size];
                // SAFETY: the buffer holds the announced size (including the NUL).
                check("nvrtcGetPTX", unsafe {
                    nvrtc::nvrtcGetPTX(self.0, buf.as_mut_ptr().cast::<c_char>())
                })?;
                buf
            }
        };
        if kind == ImageKind::Ptx {
            while image.last() == Some(&0) {
                image.pop();
            }
        }
        Ok(image)
    }
}

/// The source with line numbers, as `CUPRUM_DUMP_CUDA_SOURCE_ON_ERROR` shows it.
fn numbered_source(source: &str) -> String {
    let width = source.lines().count().max(1).to_string().len();
    let mut out = String::with_capacity(source.len() + source.len() / 8);
    for (i, line) in source.lines().enumerate() {
        out.push_str(&format!("{:>width$} {line}\n", i + 1));
    }
    out
}

fn compile_resolved(
    request: &CompileRequest,
    resolved: &Resolved,
    config: &CompileConfig,
) -> Result<Compiled> {
    let source = cstring("the CUDA source", &request.source)?;
    let name = cstring("the program name", &request.name)?;
    let mut header_contents = Vec::with_capacity(request.headers.len());
    let mut header_names = Vec::with_capacity(request.headers.len());
    for (n, c) in &request.headers {
        header_names.push(cstring("a header name", n)?);
        header_contents.push(cstring("a header", c)?);
    }
    let contents_ptrs: Vec<*const c_char> = header_contents.iter().map(|c| c.as_ptr()).collect();
    let names_ptrs: Vec<*const c_char> = header_names.iter().map(|c| c.as_ptr()).collect();
    let mut raw: nvrtcProgram = std::ptr::null_mut();
    // SAFETY: every pointer is a NUL-terminated string alive for the call; the
    // two header arrays have `numHeaders` entries (null pointers when none).
    check("nvrtcCreateProgram", unsafe {
        nvrtc::nvrtcCreateProgram(
            &mut raw,
            source.as_ptr(),
            name.as_ptr(),
            contents_ptrs.len() as c_int,
            if contents_ptrs.is_empty() {
                std::ptr::null()
            } else {
                contents_ptrs.as_ptr()
            },
            if names_ptrs.is_empty() {
                std::ptr::null()
            } else {
                names_ptrs.as_ptr()
            },
        )
    })?;
    let program = Program(raw);
    let expressions = request
        .name_expressions
        .iter()
        .map(|e| cstring("a name expression", e))
        .collect::<Result<Vec<_>>>()?;
    for e in &expressions {
        // SAFETY: a live program, before compilation; NVRTC copies the string.
        check("nvrtcAddNameExpression", unsafe {
            nvrtc::nvrtcAddNameExpression(program.0, e.as_ptr())
        })?;
    }
    let options = resolved
        .options
        .iter()
        .map(|o| cstring("an option", o))
        .collect::<Result<Vec<_>>>()?;
    let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let builtins_problem = preload_builtins();
    // SAFETY: a live program; `option_ptrs` holds `len` NUL-terminated strings.
    let code = unsafe {
        nvrtc::nvrtcCompileProgram(program.0, option_ptrs.len() as c_int, option_ptrs.as_ptr())
    }?;
    let log = program.log().unwrap_or_default();
    if code != nvrtcResult::NVRTC_SUCCESS {
        if code != nvrtcResult::NVRTC_ERROR_COMPILATION
            && code != nvrtcResult::NVRTC_ERROR_INVALID_OPTION
        {
            let mut err = nvrtc_error("nvrtcCompileProgram", code);
            if let (Error::Nvrtc { message, .. }, Some(why)) = (&mut err, builtins_problem)
                && code == nvrtcResult::NVRTC_ERROR_BUILTIN_OPERATION_FAILURE
            {
                message.push_str(&format!(" (NVRTC's builtins library: {why})"));
            }
            return Err(err);
        }
        let mut log = if log.is_empty() {
            nvrtc_error("nvrtcCompileProgram", code).to_string()
        } else {
            log
        };
        if config.dump_source_on_error {
            let dump = numbered_source(&request.source);
            eprintln!(
                "==== NVRTC could not compile `{}` ====\n{dump}==== log ====\n{log}\n",
                request.name
            );
            log = format!("{log}\n\n==== source of `{}` ====\n{dump}", request.name);
        }
        return Err(Error::Compile {
            name: request.name.clone(),
            options: resolved.options.join(" "),
            log,
        });
    }
    let mut lowered_names = HashMap::with_capacity(expressions.len());
    for (text, e) in request.name_expressions.iter().zip(&expressions) {
        let mut lowered: *const c_char = std::ptr::null();
        // SAFETY: a live, compiled program; the expression was added before
        // compiling; NVRTC writes a pointer it owns until the program is destroyed.
        check("nvrtcGetLoweredName", unsafe {
            nvrtc::nvrtcGetLoweredName(program.0, e.as_ptr(), &mut lowered)
        })?;
        if lowered.is_null() {
            return Err(Error::InvalidArgument(format!(
                "NVRTC gave no lowered name for the name expression `{text}`"
            )));
        }
        // SAFETY: a NUL-terminated string owned by the live program; copied now.
        let lowered = unsafe { CStr::from_ptr(lowered) }
            .to_string_lossy()
            .into_owned();
        lowered_names.insert(text.clone(), lowered);
    }
    let image = program.output(resolved.kind)?;
    tracing::debug!(
        name = %request.name,
        arch = %resolved.arch,
        bytes = image.len(),
        "NVRTC compiled a program"
    );
    Ok(Compiled {
        image,
        kind: resolved.kind,
        arch: resolved.arch.clone(),
        log,
        lowered_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARCHS: &[i32] = &[75, 80, 86, 87, 89, 90, 100, 120];

    fn config() -> CompileConfig {
        CompileConfig {
            cache_dir: PathBuf::from("/nonexistent"),
            in_memory_only: true,
            save_source: false,
            debug: false,
            dump_source_on_error: false,
        }
    }

    #[test]
    fn supported_sm_gives_cubin_and_others_ptx() {
        assert_eq!(
            resolve_arch("sm_90", ARCHS).unwrap(),
            ("sm_90".to_string(), ImageKind::Cubin)
        );
        assert_eq!(
            resolve_arch("sm_90a", ARCHS).unwrap(),
            ("sm_90a".to_string(), ImageKind::Cubin)
        );
        assert_eq!(
            resolve_arch("compute_80", ARCHS).unwrap(),
            ("compute_80".to_string(), ImageKind::Ptx)
        );
        // A device newer than NVRTC: PTX of the newest arch, JIT-compiled by the driver.
        assert_eq!(
            resolve_arch("sm_130", ARCHS).unwrap(),
            ("compute_120".to_string(), ImageKind::Ptx)
        );
        assert_eq!(
            resolve_arch("sm_88", ARCHS).unwrap(),
            ("compute_87".to_string(), ImageKind::Ptx)
        );
        assert!(matches!(
            resolve_arch("sm_50", ARCHS),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            resolve_arch("gfx90a", ARCHS),
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            resolve_arch("sm_9x0", ARCHS),
            Err(Error::InvalidArgument(_))
        ));
    }

    #[test]
    fn options_get_std_debug_and_arch_last() {
        let req = CompileRequest::new("")
            .option("-DN=3")
            .option("-arch=sm_80")
            .arch("sm_90");
        let r = resolve(&req, &config(), ARCHS).unwrap();
        assert_eq!(r.options, ["-DN=3", "-std=c++17", "-arch=sm_80"]);
        assert_eq!(r.kind, ImageKind::Cubin);

        let req = CompileRequest::new("")
            .option("-std=c++20")
            .arch("compute_90");
        let cfg = CompileConfig {
            debug: true,
            ..config()
        };
        let r = resolve(&req, &cfg, ARCHS).unwrap();
        assert_eq!(
            r.options,
            [
                "-std=c++20",
                "--device-debug",
                "--generate-line-info",
                "-arch=compute_90"
            ]
        );
        assert_eq!(r.kind, ImageKind::Ptx);
    }

    #[test]
    fn numbered_source_aligns_numbers() {
        let src = (1..=10)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let out = numbered_source(&src);
        assert!(out.starts_with(" 1 l1\n"));
        assert!(out.ends_with("10 l10\n"));
    }
}
