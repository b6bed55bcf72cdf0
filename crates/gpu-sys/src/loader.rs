//! Finding and opening the CUDA libraries at run time.
//!
//! Nothing here links against CUDA: every library is opened with `dlopen`
//! (through `libloading`) the first time a function of it is called, and every
//! symbol is looked up the first time it is called. A missing library or
//! symbol is a [`LoadError`] naming it and every place searched, never a
//! panic, so a program built with Cuprum starts on a machine without CUDA.
//!
//! Search order for a library (DESIGN.md, "Finding CUDA at run time"):
//! 1. `CUPRUM_<LIB>_PATH`: a file, or a folder holding one of the sonames;
//! 2. `CUDA_PATH` (its `lib64`, `lib`, `targets/x86_64-linux/lib`);
//! 3. the toolkit around `nvcc` found on `PATH`;
//! 4. `/usr/local/cuda`;
//! 5. the dynamic loader's own paths (a bare soname);
//! 6. the `nvidia/*/lib` folders of Python site-packages, where the pip wheels
//!    (`nvidia-cuda-nvrtc`, `nvidia-cublas`, ...) put them.
//!
//! Within each place the sonames are tried in order, CUDA 13's first.

use std::ffi::c_void;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Why a library or one of its symbols could not be had.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// No file of the library could be opened in any of the places searched.
    LibraryNotFound {
        /// The library's short name, e.g. `"nvrtc"`.
        library: &'static str,
        /// Each candidate tried, with the loader's reason.
        tried: Vec<String>,
    },
    /// The library opened but lacks the symbol (an older version, say).
    SymbolNotFound {
        /// The library's short name.
        library: &'static str,
        /// The file that was opened.
        path: String,
        /// The missing symbol.
        symbol: &'static str,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::LibraryNotFound { library, tried } if *library == "cuda" => {
                write!(
                    f,
                    "the NVIDIA driver library (libcuda.so.1) was not found: this machine has no \
                     NVIDIA GPU driver installed, or it is outside the loader's paths (set \
                     CUPRUM_CUDA_PATH to the file). Searched:"
                )?;
                for t in tried {
                    write!(f, "\n  {t}")?;
                }
                Ok(())
            }
            LoadError::LibraryNotFound { library, tried } => {
                write!(
                    f,
                    "the CUDA library `{library}` was not found; set CUPRUM_{}_PATH to its file or \
                     folder, or install it (a CUDA toolkit or the matching nvidia-* pip wheel). \
                     Searched:",
                    library.to_ascii_uppercase()
                )?;
                for t in tried {
                    write!(f, "\n  {t}")?;
                }
                Ok(())
            }
            LoadError::SymbolNotFound {
                library,
                path,
                symbol,
            } => write!(
                f,
                "the CUDA library `{library}` ({path}) has no symbol `{symbol}`; it may be too old"
            ),
        }
    }
}

impl std::error::Error for LoadError {}

/// How to find one CUDA library.
#[derive(Debug)]
pub struct LibrarySpec {
    /// Short name, used in errors and in the `CUPRUM_<NAME>_PATH` variable.
    pub name: &'static str,
    /// File names to try, newest CUDA first.
    pub sonames: &'static [&'static str],
}

/// A library spec with the process-wide handle it resolves to.
#[derive(Debug)]
pub struct DynamicLibrary {
    spec: LibrarySpec,
    handle: OnceLock<Result<Opened, LoadError>>,
}

#[derive(Debug)]
struct Opened {
    lib: libloading::Library,
    path: String,
}

impl DynamicLibrary {
    /// A library that is opened on first use.
    pub const fn new(name: &'static str, sonames: &'static [&'static str]) -> Self {
        DynamicLibrary {
            spec: LibrarySpec { name, sonames },
            handle: OnceLock::new(),
        }
    }

    /// The library's short name.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// Opens the library (once per process) and reports where it came from.
    ///
    /// # Errors
    /// [`LoadError::LibraryNotFound`] listing every place searched.
    pub fn path(&self) -> Result<&str, LoadError> {
        self.open().map(|o| o.path.as_str())
    }

    /// Whether the library can be opened.
    pub fn is_available(&self) -> bool {
        self.open().is_ok()
    }

    fn open(&self) -> Result<&Opened, LoadError> {
        self.handle
            .get_or_init(|| open_library(&self.spec))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Looks a symbol up; `name` ends with a NUL byte.
    fn symbol(&self, name: &'static str) -> Result<*const c_void, LoadError> {
        let opened = self.open()?;
        // SAFETY: we only read the symbol's address; its type is asserted by
        // the generated binding that calls it.
        let sym: Result<libloading::Symbol<'_, *const c_void>, _> =
            unsafe { opened.lib.get(name.as_bytes()) };
        match sym {
            Ok(s) if !s.is_null() => Ok(*s),
            _ => Err(LoadError::SymbolNotFound {
                library: self.spec.name,
                path: opened.path.clone(),
                symbol: name.trim_end_matches('\0'),
            }),
        }
    }
}

/// The address of one function, looked up on first call and then cached.
#[derive(Debug)]
pub struct Symbol {
    name: &'static str,
    addr: OnceLock<Result<usize, LoadError>>,
}

impl Symbol {
    /// A symbol of the given NUL-terminated name.
    pub const fn new(name: &'static str) -> Self {
        Symbol {
            name,
            addr: OnceLock::new(),
        }
    }

    /// The function's address in `lib`.
    ///
    /// # Errors
    /// The library or the symbol is missing.
    #[inline]
    pub fn resolve(&self, lib: &DynamicLibrary) -> Result<*const c_void, LoadError> {
        match self
            .addr
            .get_or_init(|| lib.symbol(self.name).map(|p| p as usize))
        {
            Ok(a) => Ok(*a as *const c_void),
            Err(e) => Err(e.clone()),
        }
    }
}

fn open_library(spec: &LibrarySpec) -> Result<Opened, LoadError> {
    let mut tried = Vec::new();
    for candidate in candidates(spec) {
        // SAFETY: opening a CUDA library runs its initialisers, which are
        // trusted the same way linking against it would trust them.
        match unsafe { libloading::Library::new(&candidate) } {
            Ok(lib) => {
                tracing::debug!(library = spec.name, path = %candidate.display(), "opened");
                return Ok(Opened {
                    lib,
                    path: candidate.display().to_string(),
                });
            }
            Err(e) => tried.push(format!("{}: {}", candidate.display(), short_reason(&e))),
        }
    }
    Err(LoadError::LibraryNotFound {
        library: spec.name,
        tried,
    })
}

fn short_reason(e: &libloading::Error) -> String {
    let s = e.to_string();
    if s.contains("No such file") || s.contains("cannot open shared object") {
        "not found".to_string()
    } else {
        s
    }
}

/// Every file to try for `spec`, in search order, without duplicates.
pub fn candidates(spec: &LibrarySpec) -> Vec<PathBuf> {
    let env = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    let mut out: Vec<PathBuf> = Vec::new();
    let push_dir = |out: &mut Vec<PathBuf>, dir: &Path| {
        for so in spec.sonames {
            let p = dir.join(so);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    };

    // 1. An explicit path: a file is taken as is, a folder is searched.
    let var = format!("CUPRUM_{}_PATH", spec.name.to_ascii_uppercase());
    if let Some(p) = env(&var) {
        let p = PathBuf::from(p);
        if p.is_dir() {
            push_dir(&mut out, &p);
        } else {
            out.push(p);
        }
    }
    // 2.-4. Toolkit folders.
    let mut toolkits: Vec<PathBuf> = Vec::new();
    if let Some(p) = env("CUDA_PATH") {
        toolkits.push(PathBuf::from(p));
    }
    if let Some(root) = find_on_path("nvcc")
        .as_deref()
        .and_then(Path::parent)
        .and_then(Path::parent)
    {
        toolkits.push(root.to_path_buf());
    }
    toolkits.push(PathBuf::from("/usr/local/cuda"));
    for root in &toolkits {
        for sub in ["lib64", "lib", "targets/x86_64-linux/lib"] {
            let d = root.join(sub);
            if d.is_dir() {
                push_dir(&mut out, &d);
            }
        }
    }
    // 5. The dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache).
    for so in spec.sonames {
        let p = PathBuf::from(so);
        if !out.contains(&p) {
            out.push(p);
        }
    }
    // 6. pip wheels in every site-packages we can find.
    for site in site_packages() {
        let nv = site.join("nvidia");
        let Ok(entries) = std::fs::read_dir(&nv) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path().join("lib"))
            .filter(|d| d.is_dir())
            .collect();
        // cu13 before cu12 before the per-library folders of CUDA 12 wheels.
        dirs.sort_by_key(|d| {
            let s = d.to_string_lossy();
            (!s.contains("cu13"), !s.contains("cu12"), s.to_string())
        });
        for d in dirs {
            push_dir(&mut out, &d);
        }
    }
    out
}

fn find_on_path(exe: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(exe))
        .find(|p| p.is_file())
}

/// Python site-packages folders, found without running Python: the virtual
/// environment in use, `PYTHONPATH`, the `lib/python3.*/site-packages` beside
/// every `python3` on `PATH`, the user's and the system's.
fn site_packages() -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut direct: Vec<PathBuf> = Vec::new();
    if let Some(v) = std::env::var_os("VIRTUAL_ENV") {
        roots.push(PathBuf::from(v));
    }
    if let Some(pp) = std::env::var_os("PYTHONPATH") {
        direct.extend(std::env::split_paths(&pp));
    }
    if let Some(path) = std::env::var_os("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("python3").exists() {
                if let Some(root) = d.parent() {
                    roots.push(root.to_path_buf());
                }
                // A symlinked interpreter (pyenv shims, venvs) lives elsewhere.
                if let Some(root) = std::fs::canonicalize(d.join("python3"))
                    .ok()
                    .as_deref()
                    .and_then(Path::parent)
                    .and_then(Path::parent)
                {
                    roots.push(root.to_path_buf());
                }
            }
        }
    }
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(PathBuf::from(home).join(".local"));
    }
    roots.push(PathBuf::from("/usr/local"));
    roots.push(PathBuf::from("/usr"));
    let mut out = direct;
    for root in roots {
        let lib = root.join("lib");
        let Ok(entries) = std::fs::read_dir(&lib) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            if name.to_string_lossy().starts_with("python3") {
                for leaf in ["site-packages", "dist-packages"] {
                    let d = e.path().join(leaf);
                    if d.is_dir() && !out.contains(&d) {
                        out.push(d);
                    }
                }
            }
        }
    }
    out
}

/// Defines lazily-resolved wrappers for a list of C functions.
///
/// Each wrapper has the C signature, is `unsafe` (the CUDA documentation of
/// the function states its contract), and returns `Err(LoadError)` instead of
/// calling when the library or the symbol is missing.
#[macro_export]
macro_rules! dynamic_fns {
    ($lib:path; $( $(#[$attr:meta])* pub fn $name:ident ( $($arg:ident : $ty:ty),* $(,)? ) $(-> $ret:ty)? ; )* ) => {
        $(
            $(#[$attr])*
            #[allow(non_snake_case, unused_parens, clippy::too_many_arguments, clippy::missing_safety_doc)]
            #[inline]
            pub unsafe fn $name( $($arg: $ty),* ) -> ::core::result::Result<( $($ret)? ), $crate::loader::LoadError> {
                static SYM: $crate::loader::Symbol = $crate::loader::Symbol::new(concat!(stringify!($name), "\0"));
                let addr = SYM.resolve(&$lib)?;
                // SAFETY: the symbol was declared by the library's header with this signature.
                let f: unsafe extern "C" fn($($ty),*) $(-> $ret)? = unsafe { ::core::mem::transmute::<*const ::core::ffi::c_void, _>(addr) };
                // SAFETY: the caller upholds the function's documented contract.
                Ok(unsafe { f($($arg),*) })
            }
        )*
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    static MISSING: DynamicLibrary =
        DynamicLibrary::new("cuprumtestmissing", &["libcuprum-test-missing.so.13"]);

    #[test]
    fn missing_library_is_an_error_listing_places() {
        let err = MISSING.path().unwrap_err();
        let text = err.to_string();
        assert!(text.contains("cuprumtestmissing"), "{text}");
        assert!(text.contains("libcuprum-test-missing.so.13"), "{text}");
        assert!(text.contains("CUPRUM_CUPRUMTESTMISSING_PATH"), "{text}");
    }

    #[test]
    fn missing_symbol_is_an_error_naming_it() {
        // libc is always there; ask it for a symbol it lacks.
        static LIBC: DynamicLibrary = DynamicLibrary::new("c", &["libc.so.6"]);
        static SYM: Symbol = Symbol::new("cuprumNoSuchFunction\0");
        let err = SYM.resolve(&LIBC).unwrap_err();
        assert!(matches!(
            err,
            LoadError::SymbolNotFound {
                symbol: "cuprumNoSuchFunction",
                ..
            }
        ));
        static OK: Symbol = Symbol::new("strlen\0");
        assert!(OK.resolve(&LIBC).is_ok());
    }

    #[test]
    fn explicit_path_comes_first_and_sonames_keep_order() {
        let spec = LibrarySpec {
            name: "nvrtc",
            sonames: &["libnvrtc.so.13", "libnvrtc.so.12"],
        };
        let c = candidates(&spec);
        let bare: Vec<_> = c
            .iter()
            .filter(|p| p.components().count() == 1)
            .map(|p| p.to_string_lossy().to_string())
            .collect();
        assert_eq!(bare, ["libnvrtc.so.13", "libnvrtc.so.12"]);
    }
}
