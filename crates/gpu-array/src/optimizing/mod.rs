//! Tuned launch parameters: CuPy's `cupyx.optimizing.optimize`.
//!
//! | CuPy                                                      | Cuprum                                                        |
//! |-----------------------------------------------------------|---------------------------------------------------------------|
//! | `with cupyx.optimizing.optimize():`                       | [`optimize`]`(&OptimizeConfig::default(), \|\| { .. })?` or `let _g = `[`optimize_scope`]`(&cfg)?;` |
//! | `optimize(key='k', path='p.pkl', readonly=True)`          | `OptimizeConfig::default().key("k").path("p.txt").readonly(true)` |
//! | `optimize(max_trials=20, timeout=0.5)`                    | `.max_trials(20).timeout(Duration::from_millis(500))`         |
//!
//! Inside a scope, the first launch of a reduction or elementwise kernel
//! for a new class of shapes tries a small set of launch geometries (the
//! block size and the grid's cap in blocks per multiprocessor; for a
//! reduction the block size is compiled into the kernel, so each is its own
//! kernel), times each on the current stream with CUDA events (`warmup`
//! untimed launches, then `repeats` timed ones), keeps the fastest and
//! uses it for every later launch of that kernel and shape class inside
//! any scope with the same `key`. Outside every scope the launchers use
//! their heuristic, launch for launch the same as without this module.
//!
//! What a user observes does not change:
//!
//! - Every candidate computes the same result; only the geometry differs.
//!   Elementwise results are identical bit for bit. A reduction with
//!   another block size combines its values in another order, so a float
//!   result may differ in its last bits (as in CuPy, whose tuning changes
//!   the block size too); integer and boolean results are identical.
//! - The timing launches write scratch buffers shaped like the outputs
//!   (reductions always; elementwise kernels that read their outputs,
//!   write `raw` outputs or whose outputs overlap an input), or the real
//!   outputs of a kernel that only writes them, which the final launch
//!   then writes again. The call's result is that of one full launch with
//!   the chosen parameters, queued after the timing on the same stream.
//! - Tuning waits for the device (it reads the events). Under
//!   `gpu_runtime::allow_synchronize(false)` nothing is tried: the launch
//!   uses a stored record or the heuristic.
//!
//! # Records
//!
//! The chosen parameters are kept per (`key`, device name and
//! architecture, kernel name and source hash, shape class). A scope loads
//! its file when it starts and, unless `readonly`, writes the file back
//! when it ends if it measured something new (atomically: a temporary file
//! renamed over the old one). The file is, unless `path` names another,
//! [`default_path`]: `launch_params.txt` in the kernel cache folder
//! (`CUPRUM_CACHE_DIR`, `~/.cache/cuprum/kernels`); there is none with
//! `in_memory` or `CUPRUM_CACHE_IN_MEMORY=1`, and the records then last as
//! long as the process. Files are written only into a folder the
//! kernel cache would use (the user's own, not writable by others). A file
//! named by `path` that cannot be read or does not parse is an error of
//! [`optimize_scope`]; the default file is then ignored with a warning in
//! the log and replaced at the scope's end. A readonly scope uses the
//! records and never measures or writes. Records are checked against what
//! the kernel accepts before use, so a file can make a launch slower, never
//! wrong.
//!
//! The scope is the calling thread's: other threads launch as before.
//! Records are shared by the process (like the kernel cache), read only by
//! launches inside a scope with their key.
//!
//! ```no_run
//! use gpu_array::optimizing::{OptimizeConfig, optimize};
//! use gpu_array::reduction::{ReduceOptions};
//! use gpu_array::math::{sum};
//! use gpu_array::{DType, creation};
//!
//! # fn main() -> gpu_array::Result<()> {
//! let x = creation::ones(&[1024, 1 << 16], DType::Float32)?;
//! let config = OptimizeConfig::default().key("my-app");
//! let s = optimize(&config, || sum(&x, &ReduceOptions::axis(1)))?;
//! assert_eq!(s.shape(), [1024]);
//! # Ok(())
//! # }
//! ```

mod records;
pub(crate) mod tune;

use std::cell::Cell;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;

use gpu_runtime::scoped::{EntryId, Scoped};

use crate::error::Result;
pub(crate) use records::LaunchParams;
pub use records::clear_memory_records;

/// The default file's name in the kernel cache folder.
pub const DEFAULT_FILE_NAME: &str = "launch_params.txt";

/// The settings of an [`optimize`] scope (CuPy's `optimize(key=None,
/// path=None, readonly=False, **config)`). Build it from
/// [`Default::default`] with the setters; more settings may come.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct OptimizeConfig {
    /// Names a set of records (none by default): scopes with different
    /// keys measure and keep their own parameters.
    pub key: Option<String>,
    /// The records file; `None`: [`default_path`].
    pub path: Option<PathBuf>,
    /// Keep the records in this process only: no file is read or written
    /// (CuPy's default, `path=None`).
    pub in_memory: bool,
    /// Use the records, but never measure and never write the file.
    pub readonly: bool,
    /// Most candidates tried per kernel and shape class (100; the first,
    /// the heuristic's own parameters, is always tried).
    pub max_trials: usize,
    /// No further candidate is tried once measuring one kernel and shape
    /// class has taken this long (1 s, as CuPy's `timeout`).
    pub timeout: Duration,
    /// Untimed launches of a candidate before its timed ones (1).
    pub warmup: usize,
    /// Timed launches of a candidate; their mean is its time (5).
    pub repeats: usize,
}

impl Default for OptimizeConfig {
    fn default() -> OptimizeConfig {
        OptimizeConfig {
            key: None,
            path: None,
            in_memory: false,
            readonly: false,
            max_trials: 100,
            timeout: Duration::from_secs(1),
            warmup: 1,
            repeats: 5,
        }
    }
}

impl OptimizeConfig {
    /// Sets `key`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert_eq!(OptimizeConfig::default().key("training").key.as_deref(), Some("training"));
    /// ```
    #[must_use]
    pub fn key(mut self, key: impl Into<String>) -> OptimizeConfig {
        self.key = Some(key.into());
        self
    }

    /// Sets `path`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// let c = OptimizeConfig::default().path("/tmp/launch_params.txt");
    /// assert_eq!(c.path.as_deref(), Some(std::path::Path::new("/tmp/launch_params.txt")));
    /// ```
    #[must_use]
    pub fn path(mut self, path: impl Into<PathBuf>) -> OptimizeConfig {
        self.path = Some(path.into());
        self
    }

    /// Sets `in_memory`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert!(OptimizeConfig::default().in_memory(true).in_memory);
    /// ```
    #[must_use]
    pub fn in_memory(mut self, in_memory: bool) -> OptimizeConfig {
        self.in_memory = in_memory;
        self
    }

    /// Sets `readonly`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert!(OptimizeConfig::default().readonly(true).readonly);
    /// ```
    #[must_use]
    pub fn readonly(mut self, readonly: bool) -> OptimizeConfig {
        self.readonly = readonly;
        self
    }

    /// Sets `max_trials`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert_eq!(OptimizeConfig::default().max_trials(10).max_trials, 10);
    /// ```
    #[must_use]
    pub fn max_trials(mut self, max_trials: usize) -> OptimizeConfig {
        self.max_trials = max_trials;
        self
    }

    /// Sets `timeout`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// use std::time::Duration;
    /// assert_eq!(OptimizeConfig::default().timeout(Duration::from_millis(200)).timeout, Duration::from_millis(200));
    /// ```
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> OptimizeConfig {
        self.timeout = timeout;
        self
    }

    /// Sets `warmup`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert_eq!(OptimizeConfig::default().warmup(3).warmup, 3);
    /// ```
    #[must_use]
    pub fn warmup(mut self, warmup: usize) -> OptimizeConfig {
        self.warmup = warmup;
        self
    }

    /// Sets `repeats`.
    ///
    /// ```
    /// use gpu_array::optimizing::OptimizeConfig;
    /// assert_eq!(OptimizeConfig::default().repeats(20).repeats, 20);
    /// ```
    #[must_use]
    pub fn repeats(mut self, repeats: usize) -> OptimizeConfig {
        self.repeats = repeats;
        self
    }
}

/// `launch_params.txt` in the kernel cache folder (see
/// [`gpu_runtime::nvrtc::CompileConfig::cache_dir`]); `None` when the cache
/// is kept in memory only (`CUPRUM_CACHE_IN_MEMORY=1`).
///
/// ```
/// use gpu_array::optimizing::default_path;
/// if let Some(p) = default_path() {
///     assert!(p.ends_with("launch_params.txt"));
/// }
/// ```
pub fn default_path() -> Option<PathBuf> {
    let c = gpu_runtime::nvrtc::CompileConfig::from_env();
    (!c.in_memory_only).then(|| c.cache_dir.join(DEFAULT_FILE_NAME))
}

/// A live scope: its settings and whether it measured anything.
#[derive(Debug)]
pub(crate) struct Scope {
    pub(crate) config: OptimizeConfig,
    /// `config.key`, or empty.
    pub(crate) key: String,
    /// Where the records are written back; `None`: memory only.
    file: Option<PathBuf>,
    /// A record was measured inside this scope.
    pub(crate) tuned: Cell<bool>,
}

thread_local! {
    /// This thread's scopes, innermost last. Per thread, so a scope never
    /// changes another thread's launches.
    static SCOPES: Scoped<Rc<Scope>> = const { Scoped::new() };
}

/// The innermost live scope of this thread.
pub(crate) fn current_scope() -> Option<Rc<Scope>> {
    SCOPES.try_with(Scoped::top).ok().flatten()
}

/// Whether this thread is inside an [`optimize`] scope.
///
/// ```
/// use gpu_array::optimizing::{OptimizeConfig, is_active, optimize};
/// assert!(!is_active());
/// optimize(&OptimizeConfig::default().in_memory(true), || {
///     assert!(is_active());
///     Ok::<_, gpu_array::Error>(())
/// })?;
/// assert!(!is_active());
/// # Ok::<(), gpu_array::Error>(())
/// ```
pub fn is_active() -> bool {
    SCOPES.try_with(|s| !s.is_empty()).unwrap_or(false)
}

/// The settings of this thread's innermost scope, if any.
///
/// ```
/// use gpu_array::optimizing::{OptimizeConfig, current_config, optimize_scope};
/// assert!(current_config().is_none());
/// let _scope = optimize_scope(&OptimizeConfig::default().in_memory(true).max_trials(7))?;
/// assert_eq!(current_config().map(|c| c.max_trials), Some(7));
/// # Ok::<(), gpu_array::Error>(())
/// ```
pub fn current_config() -> Option<OptimizeConfig> {
    current_scope().map(|s| s.config.clone())
}

/// Starts a scope on this thread (CuPy's `with optimize(...)`) that ends
/// when the guard drops or [`OptimizeGuard::finish`] is called. Scopes
/// nest: the innermost live one decides.
///
/// ```
/// use gpu_array::optimizing::{OptimizeConfig, is_active, optimize_scope};
/// {
///     let _scope = optimize_scope(&OptimizeConfig::default().in_memory(true))?; // with optimize():
///     assert!(is_active());
/// }
/// assert!(!is_active());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// A file named by `config.path` exists but cannot be read or does not
/// parse.
pub fn optimize_scope(config: &OptimizeConfig) -> Result<OptimizeGuard> {
    let (file, named) = match &config.path {
        _ if config.in_memory => (None, false),
        Some(p) => (Some(p.clone()), true),
        None => (default_path(), false),
    };
    // Read from any folder: a record only picks among geometries the
    // kernel accepts (each launcher checks), so a planted file can slow a
    // launch down but not change a result. Writes are held to the cache
    // folder's policy (records::write_file).
    if let Some(f) = &file {
        match records::read_file(f) {
            Ok(Some(r)) => records::merge_missing(r),
            Ok(None) => {}
            Err(e) if named => return Err(e),
            Err(e) => tracing::warn!("ignoring {e} (the file is replaced when a scope writes it)"),
        }
    }
    let scope = Rc::new(Scope {
        config: config.clone(),
        key: config.key.clone().unwrap_or_default(),
        file,
        tuned: Cell::new(false),
    });
    let id = SCOPES.with(|s| s.push(Rc::clone(&scope)));
    Ok(OptimizeGuard {
        id,
        scope,
        ended: false,
        _thread: PhantomData,
    })
}

/// Runs `f` inside an [`optimize_scope`] and ends the scope, writing the
/// records file (CuPy's `with cupyx.optimizing.optimize(...):`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_array::optimizing::{OptimizeConfig, optimize};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([1 << 20], DType::Float32)?;
/// let total = optimize(&OptimizeConfig::default().key("bench"), || x.sum(()))?; // tunes, then records
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`optimize_scope`]; `f`'s error (the scope still ends and writes
/// what it measured, logging a failure); writing the records file failed.
pub fn optimize<T, E: From<crate::Error>>(
    config: &OptimizeConfig,
    f: impl FnOnce() -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let guard = optimize_scope(config)?;
    let out = f()?;
    guard.finish()?;
    Ok(out)
}

/// Ends its [`optimize_scope`] when dropped, writing the records file if
/// the scope measured something (a failure is logged; [`finish`] returns
/// it instead).
///
/// [`finish`]: OptimizeGuard::finish
#[derive(Debug)]
#[must_use = "the scope ends when the guard drops"]
pub struct OptimizeGuard {
    id: EntryId,
    scope: Rc<Scope>,
    ended: bool,
    /// The scope is the thread's own: the guard stays on its thread.
    _thread: PhantomData<*const ()>,
}

impl OptimizeGuard {
    /// Ends the scope and writes the records file.
    ///
    /// ```
    /// use gpu_array::optimizing::{OptimizeConfig, is_active, optimize_scope};
    /// let scope = optimize_scope(&OptimizeConfig::default().in_memory(true))?;
    /// scope.finish()?; // ends the scope; an error writing the records comes back here
    /// assert!(!is_active());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// The folder is refused by the cache's policy, or writing failed.
    pub fn finish(mut self) -> Result<()> {
        self.end();
        save(&self.scope)
    }

    fn end(&mut self) {
        self.ended = true;
        // At thread exit the stack may be gone already.
        let removed = SCOPES.try_with(|s| s.remove(self.id));
        drop(removed);
    }
}

impl Drop for OptimizeGuard {
    fn drop(&mut self) {
        if !self.ended {
            self.end();
            if let Err(e) = save(&self.scope) {
                tracing::warn!(
                    "optimize scope: the measured launch parameters were not saved: {e}"
                );
            }
        }
    }
}

/// Writes the scope's records over its file's (others' keys kept), if it
/// measured any and may write.
fn save(scope: &Scope) -> Result<()> {
    if scope.config.readonly || !scope.tuned.get() {
        return Ok(());
    }
    let Some(path) = &scope.file else {
        return Ok(());
    };
    let mut merged: std::collections::HashMap<_, _> = match records::read_file(path) {
        Ok(r) => r.unwrap_or_default().into_iter().collect(),
        Err(e) => {
            tracing::warn!("replacing {e}");
            std::collections::HashMap::new()
        }
    };
    merged.extend(records::of_key(&scope.key));
    let all: Vec<_> = merged.into_iter().collect();
    records::write_file(path, &all)
}

#[cfg(test)]
mod tests;
