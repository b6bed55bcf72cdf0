//! The kernel cache: in this process's memory, and on disk.
//!
//! A program's key is the hex SHA-256 of everything that decides NVRTC's
//! output: the source, the program name, the in-memory headers, the final
//! option list (with `-std`, debug flags and `-arch`), the architecture, the
//! name expressions, the NVRTC version, [`FORMAT_VERSION`], and the files on
//! disk the options point at: every regular file under each `-I` folder
//! (path and contents) and each `--pre-include` file. A tree of more than
//! [`INCLUDE_MAX_FILES`] files or [`INCLUDE_MAX_BYTES`] bytes is not read:
//! that program skips the disk cache. The memory cache maps keys to shared
//! [`Compiled`] values for the life of the process ([`clear_memory_cache`]
//! empties it). The disk cache, under
//! [`CompileConfig::cache_dir`], holds one file per key, `<key>.bin`: the
//! image, its kind and architecture, the log and the lowered names, with a
//! SHA-256 of the payload so that a truncated or corrupted file is noticed,
//! ignored and rewritten. Files are written under an unpredictable
//! temporary name in the same folder, created exclusively with mode 0600,
//! and renamed into place, so concurrent processes never see a half-written
//! file. With `CUPRUM_CACHE_SAVE_CUDA_SOURCE=1` the source is kept next to
//! it as `<key>.cu`; with `CUPRUM_CACHE_IN_MEMORY=1` the disk is not used
//! at all.
//!
//! A cache file is code this process will run, so the folder must be the
//! user's own: it is created with mode 0700, and a folder not owned by the
//! current user, writable by group or others, or inside a folder that
//! others could rename it from (owned by another user, or writable by
//! others without the sticky bit) is not used: a warning is logged and
//! compiles go on with the memory cache alone.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, OnceLock};

use sha2::{Digest, Sha256};

use super::{CompileConfig, CompileRequest, Compiled, ImageKind, Resolved};
use crate::Result;

/// Bumped whenever the key's recipe or the file layout changes, so that old
/// cache files are never misread.
pub const FORMAT_VERSION: u32 = 1;

const MAGIC: &[u8; 8] = b"CUPRUMK\0";

/// Where a compiled program came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CacheSource {
    /// This process had compiled it before.
    Memory,
    /// A file of the disk cache.
    Disk,
    /// NVRTC, just now.
    Compiled,
}

pub(crate) type MemoryCache = Mutex<HashMap<String, Arc<Compiled>>>;

/// The process-wide memory cache.
pub(crate) fn memory() -> &'static MemoryCache {
    static MEMORY: LazyLock<MemoryCache> = LazyLock::new(|| Mutex::new(HashMap::new()));
    &MEMORY
}

fn lock(m: &MemoryCache) -> MutexGuard<'_, HashMap<String, Arc<Compiled>>> {
    // A panic while holding the lock cannot leave the map inconsistent.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Forgets every program compiled by this process (the disk cache stays), so
/// the next request reads the disk or compiles again.
///
/// ```
/// use gpu_runtime::nvrtc;
/// nvrtc::clear_memory_cache();
/// assert_eq!(nvrtc::memory_cache_len(), 0);
/// ```
pub fn clear_memory_cache() {
    lock(memory()).clear();
}

/// How many programs the memory cache holds.
///
/// ```no_run
/// use gpu_runtime::nvrtc::{self, CompileRequest};
/// # fn main() -> gpu_runtime::Result<()> {
/// nvrtc::compile(&CompileRequest::new("extern \"C\" __global__ void k() {}").arch("sm_90"))?;
/// assert!(nvrtc::memory_cache_len() >= 1);
/// # Ok(()) }
/// ```
pub fn memory_cache_len() -> usize {
    lock(memory()).len()
}

/// `CUPRUM_CACHE_DIR` if set and not empty, else `~/.cache/cuprum/kernels`;
/// without a home, `cuprum-<uid>/kernels` in the system's temporary folder
/// (one per user: that folder is shared).
///
/// ```
/// use gpu_runtime::nvrtc::cache;
/// let dir = cache::default_cache_dir();
/// assert!(std::env::var_os("CUPRUM_CACHE_DIR").is_some() || dir.ends_with("kernels"));
/// ```
pub fn default_cache_dir() -> PathBuf {
    cache_dir_from(
        std::env::var_os("CUPRUM_CACHE_DIR"),
        std::env::var_os("HOME"),
    )
}

fn cache_dir_from(
    cache_dir: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> PathBuf {
    if let Some(dir) = cache_dir.filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    match home.filter(|h| !h.is_empty()) {
        Some(home) => PathBuf::from(home).join(".cache/cuprum/kernels"),
        None => std::env::temp_dir().join(temp_dir_name()).join("kernels"),
    }
}

#[cfg(unix)]
fn temp_dir_name() -> String {
    match current_uid() {
        Some(uid) => format!("cuprum-{uid}"),
        // check_private_dir refuses any folder then.
        None => "cuprum-unknown-user".to_string(),
    }
}

#[cfg(not(unix))]
fn temp_dir_name() -> String {
    // The temporary folder is the user's own on Windows.
    "cuprum".to_string()
}

/// The user id that owns the files this process creates: the owner of a
/// file it has just created in the temporary folder (std has no `geteuid`,
/// and this needs no new dependency), else the owner of `/proc/self`.
#[cfg(unix)]
fn current_uid() -> Option<u32> {
    use std::os::unix::fs::MetadataExt;
    // The process's effective user does not change under us (Cuprum never
    // calls setuid), so one probe answers for the process; a caller can only
    // observe it as the owner the cache folder is checked against.
    static UID: OnceLock<Option<u32>> = OnceLock::new();
    *UID.get_or_init(|| {
        let dir = std::env::temp_dir();
        for _ in 0..8 {
            let probe = dir.join(format!(
                ".cuprum-uid-{}-{:016x}",
                std::process::id(),
                random_u64()
            ));
            match new_private_file(&probe) {
                Ok(f) => {
                    let uid = f.metadata().ok().map(|m| m.uid());
                    drop(f);
                    let _ = fs::remove_file(&probe);
                    if uid.is_some() {
                        return uid;
                    }
                    break;
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(_) => break,
            }
        }
        fs::metadata("/proc/self").ok().map(|m| m.uid())
    })
}

/// 64 bits nobody else can guess: SipHash under the process's random keys
/// (std's `RandomState`) of a counter and the time.
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    // Only makes two calls in the same nanosecond differ; the secret part
    // is RandomState's keys. Nothing reads it but this function.
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut h = std::hash::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish()
}

/// Creates `path`, which must not exist (not even as a dangling link),
/// readable and writable by the owner only.
fn new_private_file(path: &Path) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Creates a kernel-cache folder as the cache does (mode 0700, missing
/// parents too) and checks that the cache will use it (see the module's
/// documentation): a folder it refuses is only logged during compiles, so
/// tools that fill a cache ask first.
///
/// ```
/// use gpu_runtime::nvrtc::cache;
/// let dir = std::env::temp_dir().join(format!("cuprum-doc-{}/kernels", std::process::id()));
/// cache::prepare_cache_dir(&dir)?;
/// assert!(dir.is_dir());
/// # std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
/// # Ok::<(), gpu_runtime::Error>(())
/// ```
///
/// # Errors
/// [`Error::Io`](crate::Error::Io) saying why the folder cannot be used.
pub fn prepare_cache_dir(dir: &Path) -> Result<()> {
    prepare_dir(dir).map_err(|message| crate::Error::Io {
        path: dir.display().to_string(),
        message: format!("not usable as a kernel cache: {message}"),
    })
}

/// Creates `dir` if missing (mode 0700, missing parents too) and checks
/// that it may hold code this process will load; the error says why not.
pub(crate) fn prepare_dir(dir: &Path) -> std::result::Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(|e| format!("it cannot be created: {e}"))?;
        check_private_dir(dir)
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir).map_err(|e| format!("it cannot be created: {e}"))
    }
}

/// `dir` (links resolved) must be a folder owned by the current user and
/// not writable by group or others; each folder above it must be owned by
/// the user or root, and writable by others only with the sticky bit (as
/// `/tmp`), so that nobody else can rename `dir` away and put theirs there.
#[cfg(unix)]
fn check_private_dir(dir: &Path) -> std::result::Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let uid = current_uid().ok_or("the current user's id is unknown")?;
    let real = fs::canonicalize(dir).map_err(|e| format!("it cannot be resolved: {e}"))?;
    let meta = fs::metadata(&real).map_err(|e| format!("it cannot be read: {e}"))?;
    if !meta.is_dir() {
        return Err("it is not a folder".to_string());
    }
    if meta.uid() != uid {
        return Err(format!(
            "it is owned by uid {}, not by the current user (uid {uid})",
            meta.uid()
        ));
    }
    if meta.mode() & 0o022 != 0 {
        return Err(format!(
            "it is writable by group or others (mode {:o}; `chmod 700` it to use it)",
            meta.mode() & 0o7777
        ));
    }
    for above in real.ancestors().skip(1) {
        let m =
            fs::metadata(above).map_err(|e| format!("{} cannot be read: {e}", above.display()))?;
        if m.uid() != uid && m.uid() != 0 {
            return Err(format!(
                "{} above it is owned by uid {}",
                above.display(),
                m.uid()
            ));
        }
        if m.mode() & 0o022 != 0 && m.mode() & 0o1000 == 0 {
            return Err(format!(
                "{} above it is writable by group or others without the sticky bit",
                above.display()
            ));
        }
    }
    Ok(())
}

/// Logs once per folder and process why the disk cache is not used.
fn warn_unusable_dir(dir: &Path, why: &str) {
    // Only decides whether a warning is logged again; every compile still
    // re-checks the folder, so a folder mended later is used again. Bounded
    // by the distinct folders a process names.
    static WARNED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(|p| p.into_inner());
    if !warned.iter().any(|d| d == dir) {
        warned.push(dir.to_path_buf());
        tracing::warn!(
            dir = %dir.display(),
            "not using the kernel disk cache folder (compiles go on, cached in memory only): {why}"
        );
    }
}

/// A cache key and whether the program may use the disk cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    /// The hex SHA-256.
    pub(crate) hex: String,
    /// False when the files under the `-I` folders could not all be
    /// hashed (too many, too large, unreadable): the disk could then hand
    /// back a program built from other headers.
    pub(crate) disk: bool,
}

/// At most this many files are hashed under a program's `-I` folders.
pub const INCLUDE_MAX_FILES: usize = 4096;
/// At most this many bytes are hashed under a program's `-I` folders.
pub const INCLUDE_MAX_BYTES: u64 = 64 << 20;
/// Folders deeper than this (a link cycle, say) stop the walk.
const INCLUDE_MAX_DEPTH: usize = 32;

/// What the options read from disk: the `-I` folders and the
/// `--pre-include` files, in the order given.
fn disk_inputs(options: &[String]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut dirs, mut files) = (Vec::new(), Vec::new());
    let mut it = options.iter();
    while let Some(o) = it.next() {
        let o = o.as_str();
        // NVRTC takes `-I<dir>` and `--include-path=<dir>`; a value given
        // as the next option is taken too, to be safe.
        let (value, is_dir) = if let Some(v) = o.strip_prefix("--include-path=") {
            (Some(v), true)
        } else if let Some(v) = o.strip_prefix("--pre-include=") {
            (Some(v), false)
        } else if o == "-I" || o == "--include-path" {
            (it.next().map(String::as_str), true)
        } else if o == "-include" || o == "--pre-include" {
            (it.next().map(String::as_str), false)
        } else if let Some(v) = o.strip_prefix("-I") {
            (Some(v), true)
        } else {
            (None, false)
        };
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            if is_dir {
                dirs.push(PathBuf::from(v));
            } else {
                files.push(PathBuf::from(v));
            }
        }
    }
    (dirs, files)
}

/// Every file that could be read under `dir`, depth first in name order,
/// as (path relative to the `-I` folder, path); links are followed, and
/// entries that are neither files nor folders (sockets, pipes, dangling
/// links) skipped.
fn collect_files(
    dir: &Path,
    rel: &Path,
    depth: usize,
    out: &mut Vec<(PathBuf, PathBuf)>,
) -> std::result::Result<(), String> {
    if depth > INCLUDE_MAX_DEPTH {
        return Err(format!("{} is nested too deep", dir.display()));
    }
    let listing = |e: std::io::Error| format!("{} cannot be listed: {e}", dir.display());
    let mut names: Vec<_> = fs::read_dir(dir)
        .map_err(listing)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<std::io::Result<_>>()
        .map_err(listing)?;
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let meta = match fs::metadata(&path) {
            Ok(m) => m,
            // A dangling link cannot be included.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{} cannot be read: {e}", path.display())),
        };
        if meta.is_dir() {
            collect_files(&path, &rel.join(&name), depth + 1, out)?;
        } else if meta.is_file() {
            if out.len() >= INCLUDE_MAX_FILES {
                return Err(format!("more than {INCLUDE_MAX_FILES} files"));
            }
            out.push((rel.join(&name), path));
        }
    }
    Ok(())
}

/// Feeds `field` the files the options read from disk (see the module's
/// documentation); the error says why they could not all be read.
fn hash_disk_inputs(
    options: &[String],
    field: &mut dyn FnMut(&[u8], &[u8]),
) -> std::result::Result<(), String> {
    let (dirs, pre_includes) = disk_inputs(options);
    let mut bytes = 0u64;
    let mut read = |path: &Path| -> std::result::Result<Vec<u8>, String> {
        let c = fs::read(path).map_err(|e| format!("{} cannot be read: {e}", path.display()))?;
        bytes += c.len() as u64;
        if bytes > INCLUDE_MAX_BYTES {
            return Err(format!("more than {INCLUDE_MAX_BYTES} bytes"));
        }
        Ok(c)
    };
    let mut files = Vec::new();
    for (i, dir) in dirs.iter().enumerate() {
        if !dir.is_dir() {
            // NVRTC skips a missing folder; if it appears, the key changes.
            field(b"include-dir-missing", dir.as_os_str().as_encoded_bytes());
            continue;
        }
        let mut found = Vec::new();
        collect_files(dir, Path::new(""), 0, &mut found)?;
        if files.len() + found.len() > INCLUDE_MAX_FILES {
            return Err(format!("more than {INCLUDE_MAX_FILES} files"));
        }
        files.extend(found.into_iter().map(|(rel, path)| (i, rel, path)));
    }
    // Sizes first, so that a huge tree is refused before it is read.
    let mut total = 0u64;
    for (_, _, path) in &files {
        total += fs::metadata(path).map_or(0, |m| m.len());
        if total > INCLUDE_MAX_BYTES {
            return Err(format!("more than {INCLUDE_MAX_BYTES} bytes"));
        }
    }
    for (i, rel, path) in files {
        field(b"include-dir", dirs[i].as_os_str().as_encoded_bytes());
        field(b"include-file", rel.as_os_str().as_encoded_bytes());
        field(b"include-content", &read(&path)?);
    }
    for f in &pre_includes {
        field(b"pre-include", f.as_os_str().as_encoded_bytes());
        // A relative name may be found in a `-I` folder instead, hashed above.
        if f.is_file() {
            field(b"pre-include-content", &read(f)?);
        }
    }
    Ok(())
}

/// The cache key of a resolved request (see the module's documentation).
pub(crate) fn key(request: &CompileRequest, resolved: &Resolved, nvrtc_version: (i32, i32)) -> Key {
    let mut h = Sha256::new();
    let mut field = |tag: &[u8], bytes: &[u8]| {
        // Tag and length prefixes make the encoding unambiguous.
        h.update(tag);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(b"format", &FORMAT_VERSION.to_le_bytes());
    field(
        b"nvrtc",
        format!("{}.{}", nvrtc_version.0, nvrtc_version.1).as_bytes(),
    );
    field(b"arch", resolved.arch.as_bytes());
    field(
        b"kind",
        match resolved.kind {
            ImageKind::Cubin => b"cubin",
            ImageKind::Ptx => b"ptx",
            ImageKind::LtoIr => b"ltoir",
        },
    );
    field(b"name", request.name.as_bytes());
    field(b"source", request.source.as_bytes());
    for o in &resolved.options {
        field(b"option", o.as_bytes());
    }
    for (n, c) in &request.headers {
        field(b"header-name", n.as_bytes());
        field(b"header", c.as_bytes());
    }
    for e in &request.name_expressions {
        field(b"name-expression", e.as_bytes());
    }
    let disk = match hash_disk_inputs(&resolved.options, &mut field) {
        Ok(()) => true,
        Err(why) => {
            tracing::debug!(
                program = %request.name,
                "the include folders are not hashed, so the disk cache is skipped: {why}"
            );
            field(b"disk-inputs-unhashed", b"");
            false
        }
    };
    let digest = h.finalize();
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    Key { hex, disk }
}

/// The memory cache, then the disk cache, then `compile`; fills the caches
/// on the way back. Errors of the disk cache are logged and ignored: the
/// cache only ever saves time.
pub(crate) fn get_or_compile(
    memory: &MemoryCache,
    key: &str,
    config: &CompileConfig,
    source: &str,
    compile: impl FnOnce() -> Result<Compiled>,
) -> Result<(Arc<Compiled>, CacheSource)> {
    if let Some(c) = lock(memory).get(key) {
        return Ok((Arc::clone(c), CacheSource::Memory));
    }
    let on_disk = !config.in_memory_only
        && match prepare_dir(&config.cache_dir) {
            Ok(()) => true,
            Err(why) => {
                warn_unusable_dir(&config.cache_dir, &why);
                false
            }
        };
    if on_disk && let Some(c) = load(&config.cache_dir, key) {
        let c = Arc::clone(lock(memory).entry(key.to_string()).or_insert(Arc::new(c)));
        return Ok((c, CacheSource::Disk));
    }
    // Compiled without holding the lock: two threads asking for the same new
    // program both compile it, and the first to finish is kept.
    let compiled = compile()?;
    if on_disk
        && let Err(e) = store(
            &config.cache_dir,
            key,
            &compiled,
            config.save_source.then_some(source),
        )
    {
        tracing::warn!(dir = %config.cache_dir.display(), "could not write the kernel cache: {e}");
    }
    let c = Arc::clone(
        lock(memory)
            .entry(key.to_string())
            .or_insert(Arc::new(compiled)),
    );
    Ok((c, CacheSource::Compiled))
}

/// The path of a key's cache file.
///
/// ```
/// use gpu_runtime::nvrtc::cache;
/// let f = cache::cache_file(std::path::Path::new("/cache"), "0123abcd");
/// assert_eq!(f, std::path::Path::new("/cache/0123abcd.bin"));
/// ```
pub fn cache_file(dir: &Path, key: &str) -> PathBuf {
    dir.join(format!("{key}.bin"))
}

fn load(dir: &Path, key: &str) -> Option<Compiled> {
    let path = cache_file(dir, key);
    let bytes = fs::read(&path).ok()?;
    let decoded = decode(&bytes);
    if decoded.is_none() {
        tracing::warn!(path = %path.display(), "ignoring a corrupted kernel cache file");
    }
    decoded
}

/// Writes into `dir`, which [`prepare_dir`] made and checked.
fn store(dir: &Path, key: &str, compiled: &Compiled, source: Option<&str>) -> std::io::Result<()> {
    if let Some(source) = source {
        write_atomic(&dir.join(format!("{key}.cu")), source.as_bytes())?;
    }
    write_atomic(&cache_file(dir, key), &encode(compiled))
}

/// Writes `bytes` to a new temporary file beside `path` (a name nobody can
/// guess, created exclusively with mode 0600: never an existing file or
/// link), then renames it over `path` (atomic within one file system), so
/// that a concurrent reader sees the old file or the new one, never half of
/// one. The folder should be one [`prepare_cache_dir`] accepts. Public for
/// the other files kept beside the kernel cache (gpu-array's tuned launch
/// parameters).
///
/// ```
/// use gpu_runtime::nvrtc::cache;
/// let dir = std::env::temp_dir().join(format!("cuprum-doc-atomic-{}", std::process::id()));
/// cache::prepare_cache_dir(&dir).unwrap();
/// let path = dir.join("tuned.json");
/// cache::write_atomic(&path, b"{}")?;
/// assert_eq!(std::fs::read(&path)?, b"{}");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// Creating, writing or renaming the file failed (the temporary file is
/// removed).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "cache".into(), |n| n.to_string_lossy().into_owned());
    let mut attempts = 0;
    let (tmp, mut f) = loop {
        let tmp = dir.join(format!(
            ".{name}.{}.{:016x}.tmp",
            std::process::id(),
            random_u64()
        ));
        match new_private_file(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempts < 8 => {
                attempts += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let result = f.write_all(bytes).and_then(|()| fs::rename(&tmp, path));
    drop(f);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// `MAGIC, FORMAT_VERSION (u32 LE), sha256(payload), payload` where the
/// payload is the kind byte, then length-prefixed (u64 LE) arch, log, the
/// count of lowered names and each name pair, and last the image.
fn encode(c: &Compiled) -> Vec<u8> {
    let mut payload = Vec::with_capacity(c.image.len() + c.log.len() + 256);
    payload.push(match c.kind {
        ImageKind::Cubin => 0,
        ImageKind::Ptx => 1,
        ImageKind::LtoIr => 2,
    });
    put_bytes(&mut payload, c.arch.as_bytes());
    put_bytes(&mut payload, c.log.as_bytes());
    let mut names: Vec<_> = c.lowered_names.iter().collect();
    names.sort();
    payload.extend_from_slice(&(names.len() as u64).to_le_bytes());
    for (expr, lowered) in names {
        put_bytes(&mut payload, expr.as_bytes());
        put_bytes(&mut payload, lowered.as_bytes());
    }
    put_bytes(&mut payload, &c.image);
    let mut out = Vec::with_capacity(payload.len() + 44);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&Sha256::digest(&payload));
    out.extend_from_slice(&payload);
    out
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.0.len() {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n)
    }
    fn string(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
}

fn decode(bytes: &[u8]) -> Option<Compiled> {
    let mut r = Reader(bytes);
    if r.take(8)? != MAGIC || r.take(4)? != FORMAT_VERSION.to_le_bytes() {
        return None;
    }
    let digest = r.take(32)?;
    if Sha256::digest(r.0).as_slice() != digest {
        return None;
    }
    let kind = match r.take(1)?[0] {
        0 => ImageKind::Cubin,
        1 => ImageKind::Ptx,
        2 => ImageKind::LtoIr,
        _ => return None,
    };
    let arch = r.string()?;
    let log = r.string()?;
    let n = r.u64()?;
    let mut lowered_names = HashMap::new();
    for _ in 0..n {
        let expr = r.string()?;
        let lowered = r.string()?;
        lowered_names.insert(expr, lowered);
    }
    let image = r.bytes()?.to_vec();
    if !r.0.is_empty() {
        return None;
    }
    Some(Compiled {
        image,
        kind,
        arch,
        log,
        lowered_names,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use std::cell::Cell;

    struct TempDir(PathBuf);
    impl TempDir {
        fn new(tag: &str) -> TempDir {
            static N: AtomicU64 = AtomicU64::new(0);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos());
            let p = std::env::temp_dir().join(format!(
                "cuprum-cache-test-{tag}-{}-{nanos}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            TempDir(p)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn key_hex(req: &CompileRequest, res: &Resolved, v: (i32, i32)) -> String {
        let k = key(req, res, v);
        assert!(k.disk, "nothing on disk to hash here");
        k.hex
    }

    fn config(dir: &Path) -> CompileConfig {
        CompileConfig {
            cache_dir: dir.to_path_buf(),
            in_memory_only: false,
            save_source: false,
            debug: false,
            dump_source_on_error: false,
        }
    }

    fn resolved() -> Resolved {
        Resolved {
            options: vec!["-std=c++17".into(), "-arch=sm_90".into()],
            arch: "sm_90".into(),
            kind: ImageKind::Cubin,
        }
    }

    fn request() -> CompileRequest {
        CompileRequest::new("extern \"C\" __global__ void k() {}")
            .header("a.h", "#define A 1")
            .name_expression("k")
    }

    fn fake(image: &[u8]) -> Compiled {
        Compiled {
            image: image.to_vec(),
            kind: ImageKind::Cubin,
            arch: "sm_90".into(),
            log: "warning: something".into(),
            lowered_names: HashMap::from([("k<int>".into(), "_Z1kIiEvv".into())]),
        }
    }

    fn files(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    #[test]
    fn key_is_stable_hex_and_sensitive_to_every_input() {
        let (req, res) = (request(), resolved());
        let k = key_hex(&req, &res, (13, 0));
        assert_eq!(k.len(), 64);
        assert!(k.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(k, key_hex(&req.clone(), &res.clone(), (13, 0)));

        let mut variants = vec![key_hex(&req, &res, (13, 1)), key_hex(&req, &res, (12, 9))];
        let mut r = req.clone();
        r.source.push(' ');
        variants.push(key_hex(&r, &res, (13, 0)));
        let mut r = req.clone();
        r.name = "other.cu".into();
        variants.push(key_hex(&r, &res, (13, 0)));
        let r = req.clone().header("b.h", "");
        variants.push(key_hex(&r, &res, (13, 0)));
        let mut r = req.clone();
        r.headers[0].1.push(' ');
        variants.push(key_hex(&r, &res, (13, 0)));
        let r = req.clone().name_expression("k2");
        variants.push(key_hex(&r, &res, (13, 0)));
        let mut s = res.clone();
        s.options.insert(0, "-DX".into());
        variants.push(key_hex(&req, &s, (13, 0)));
        let mut s = res.clone();
        s.arch = "sm_80".into();
        variants.push(key_hex(&req, &s, (13, 0)));
        let mut s = res.clone();
        s.kind = ImageKind::Ptx;
        variants.push(key_hex(&req, &s, (13, 0)));
        // Moving bytes between adjacent fields changes the key too.
        let mut s = res.clone();
        s.options = vec!["-std=c++17-arch=sm_90".into()];
        variants.push(key_hex(&req, &s, (13, 0)));
        for (i, v) in variants.iter().enumerate() {
            assert_ne!(*v, k, "variant {i} kept the key");
        }
        let mut unique = variants.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), variants.len());
    }

    #[test]
    fn encode_decode_round_trip_and_reject_damage() {
        let c = fake(b"\x7fELF some image");
        let bytes = encode(&c);
        assert_eq!(decode(&bytes), Some(c.clone()));
        for cut in [0, 8, 20, bytes.len() - 1] {
            assert_eq!(decode(&bytes[..cut]), None, "truncated at {cut}");
        }
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        assert_eq!(decode(&flipped), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer), None);
    }

    #[test]
    fn memory_then_disk_then_compile() {
        let dir = TempDir::new("layers");
        let cfg = config(&dir.0);
        let memory = MemoryCache::default();
        let calls = Cell::new(0);
        let compile = || {
            calls.set(calls.get() + 1);
            Ok(fake(b"image-1"))
        };
        let (a, src) = get_or_compile(&memory, "k1", &cfg, "src", compile).unwrap();
        assert_eq!((src, calls.get()), (CacheSource::Compiled, 1));
        assert_eq!(files(&dir.0), ["k1.bin"]);

        let (b, src) = get_or_compile(&memory, "k1", &cfg, "src", compile).unwrap();
        assert_eq!((src, calls.get()), (CacheSource::Memory, 1));
        assert!(Arc::ptr_eq(&a, &b));

        // A fresh process (an empty memory cache) reads the disk.
        let fresh = MemoryCache::default();
        let (c, src) = get_or_compile(&fresh, "k1", &cfg, "src", compile).unwrap();
        assert_eq!((src, calls.get()), (CacheSource::Disk, 1));
        assert_eq!(*c, *a);
        let (_, src) = get_or_compile(&fresh, "k1", &cfg, "src", compile).unwrap();
        assert_eq!(src, CacheSource::Memory);
    }

    #[test]
    fn corrupted_files_are_recompiled_and_rewritten() {
        let dir = TempDir::new("corrupt");
        let cfg = config(&dir.0);
        fs::create_dir_all(&dir.0).unwrap();
        let path = cache_file(&dir.0, "k2");
        fs::write(&path, b"CUPRUMK\0 garbage").unwrap();
        let (c, src) = get_or_compile(&MemoryCache::default(), "k2", &cfg, "", || {
            Ok(fake(b"good"))
        })
        .unwrap();
        assert_eq!(src, CacheSource::Compiled);
        assert_eq!(c.image, b"good");
        assert_eq!(decode(&fs::read(&path).unwrap()).unwrap().image, b"good");
        let (_, src) = get_or_compile(&MemoryCache::default(), "k2", &cfg, "", || {
            panic!("must come from disk")
        })
        .unwrap();
        assert_eq!(src, CacheSource::Disk);
    }

    #[test]
    fn in_memory_only_never_touches_the_disk() {
        let dir = TempDir::new("memonly");
        let cfg = CompileConfig {
            in_memory_only: true,
            save_source: true,
            ..config(&dir.0)
        };
        let memory = MemoryCache::default();
        get_or_compile(&memory, "k3", &cfg, "src", || Ok(fake(b"x"))).unwrap();
        assert!(!dir.0.exists());
        let (_, src) = get_or_compile(&memory, "k3", &cfg, "src", || Ok(fake(b"x"))).unwrap();
        assert_eq!(src, CacheSource::Memory);
    }

    #[test]
    fn save_source_keeps_the_cu_file_and_no_temporaries_remain() {
        let dir = TempDir::new("source");
        let cfg = CompileConfig {
            save_source: true,
            ..config(&dir.0)
        };
        get_or_compile(&MemoryCache::default(), "k4", &cfg, "the source", || {
            Ok(fake(b"x"))
        })
        .unwrap();
        assert_eq!(files(&dir.0), ["k4.bin", "k4.cu"]);
        assert_eq!(
            fs::read_to_string(dir.0.join("k4.cu")).unwrap(),
            "the source"
        );
    }

    #[test]
    fn compile_errors_pass_through_and_cache_nothing() {
        let dir = TempDir::new("error");
        let cfg = config(&dir.0);
        let memory = MemoryCache::default();
        let err = get_or_compile(&memory, "k5", &cfg, "", || {
            Err(Error::InvalidArgument("boom".into()))
        })
        .unwrap_err();
        assert!(err.to_string().contains("boom"));
        assert!(lock(&memory).is_empty());
        assert!(files(&dir.0).is_empty());
    }

    #[test]
    fn an_unwritable_cache_dir_is_not_an_error() {
        let dir = TempDir::new("unwritable");
        fs::create_dir_all(&dir.0).unwrap();
        // A file where the cache folder should be.
        let blocker = dir.0.join("file");
        fs::write(&blocker, b"").unwrap();
        let cfg = config(&blocker.join("sub"));
        let (_, src) =
            get_or_compile(&MemoryCache::default(), "k6", &cfg, "", || Ok(fake(b"x"))).unwrap();
        assert_eq!(src, CacheSource::Compiled);
    }

    fn with_options(options: &[String]) -> Resolved {
        let mut r = resolved();
        r.options.splice(0..0, options.iter().cloned());
        r
    }

    #[test]
    fn key_hashes_every_file_under_the_include_folders() {
        let dir = TempDir::new("include");
        fs::create_dir_all(dir.0.join("sub")).unwrap();
        fs::write(dir.0.join("a.h"), "#define A 1").unwrap();
        fs::write(dir.0.join("sub/b.h"), "#define B 1").unwrap();
        let req = request();
        let d = dir.0.display();
        let forms = [
            vec![format!("-I{d}")],
            vec![format!("--include-path={d}")],
            vec!["-I".to_string(), d.to_string()],
        ];
        for form in forms {
            let res = with_options(&form);
            let k0 = key_hex(&req, &res, (13, 0));
            assert_eq!(k0, key_hex(&req, &res, (13, 0)), "stable");
            // Before, the key saw the option text only: none of these
            // changes reached it and the disk cache served a stale program.
            fs::write(dir.0.join("a.h"), "#define A 2").unwrap();
            let k1 = key_hex(&req, &res, (13, 0));
            fs::write(dir.0.join("sub/b.h"), "#define B 2").unwrap();
            let k2 = key_hex(&req, &res, (13, 0));
            fs::write(dir.0.join("sub/c.h"), "").unwrap();
            let k3 = key_hex(&req, &res, (13, 0));
            fs::rename(dir.0.join("sub/c.h"), dir.0.join("sub/d.h")).unwrap();
            let k4 = key_hex(&req, &res, (13, 0));
            let mut all = vec![k0, k1, k2, k3, k4];
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 5, "{form:?}: every change moves the key");
            fs::write(dir.0.join("a.h"), "#define A 1").unwrap();
            fs::write(dir.0.join("sub/b.h"), "#define B 1").unwrap();
            fs::remove_file(dir.0.join("sub/d.h")).unwrap();
        }
    }

    #[test]
    fn key_sees_an_include_folder_appear_and_a_pre_include_change() {
        let dir = TempDir::new("include-missing");
        let req = request();
        let res = with_options(&[format!("-I{}", dir.0.display())]);
        let missing = key_hex(&req, &res, (13, 0));
        fs::create_dir_all(&dir.0).unwrap();
        fs::write(dir.0.join("a.h"), "").unwrap();
        assert_ne!(key_hex(&req, &res, (13, 0)), missing);

        let pre = dir.0.join("pre.h");
        fs::write(&pre, "#define P 1").unwrap();
        let res = with_options(&[format!("--pre-include={}", pre.display())]);
        let k0 = key_hex(&req, &res, (13, 0));
        fs::write(&pre, "#define P 2").unwrap();
        assert_ne!(key_hex(&req, &res, (13, 0)), k0);
    }

    #[test]
    fn too_large_include_trees_skip_the_disk_cache() {
        let dir = TempDir::new("include-large");
        fs::create_dir_all(&dir.0).unwrap();
        let big = dir.0.join("big.h");
        // Sparse: the size is refused before anything is read.
        fs::File::create(&big)
            .unwrap()
            .set_len(INCLUDE_MAX_BYTES + 1)
            .unwrap();
        let res = with_options(&[format!("-I{}", dir.0.display())]);
        assert!(!key(&request(), &res, (13, 0)).disk);
        fs::remove_file(&big).unwrap();
        assert!(key(&request(), &res, (13, 0)).disk);

        for i in 0..=INCLUDE_MAX_FILES {
            fs::File::create(dir.0.join(format!("{i}.h"))).unwrap();
        }
        assert!(!key(&request(), &res, (13, 0)).disk);
    }

    #[cfg(unix)]
    fn mode(p: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        fs::metadata(p).unwrap().permissions().mode() & 0o7777
    }

    #[cfg(unix)]
    fn chmod(p: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn the_cache_dir_is_created_private() {
        let dir = TempDir::new("private");
        let cache = dir.0.join("a/b/kernels");
        prepare_dir(&cache).unwrap();
        assert_eq!(mode(&cache), 0o700);
        assert_eq!(mode(&dir.0.join("a")), 0o700, "missing parents too");
        // Files the cache writes are the user's alone.
        get_or_compile(&MemoryCache::default(), "k7", &config(&cache), "", || {
            Ok(fake(b"x"))
        })
        .unwrap();
        assert_eq!(mode(&cache_file(&cache, "k7")), 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn a_dir_writable_by_others_is_not_used() {
        let dir = TempDir::new("shared");
        fs::create_dir_all(&dir.0).unwrap();
        chmod(&dir.0, 0o777);
        let err = prepare_dir(&dir.0).unwrap_err();
        assert!(err.contains("writable by group or others"), "{err}");
        let err = prepare_cache_dir(&dir.0).unwrap_err().to_string();
        assert!(err.contains(&*dir.0.to_string_lossy()), "{err}");
        chmod(&dir.0, 0o770);
        assert!(prepare_dir(&dir.0).is_err(), "group-writable too");

        // Compiles go on; nothing is read from or written to the folder.
        chmod(&dir.0, 0o777);
        let cfg = config(&dir.0);
        let planted = encode(&fake(b"planted by someone else"));
        fs::write(cache_file(&dir.0, "k8"), &planted).unwrap();
        let (c, src) = get_or_compile(&MemoryCache::default(), "k8", &cfg, "", || {
            Ok(fake(b"ours"))
        })
        .unwrap();
        assert_eq!(
            (src, c.image.as_slice()),
            (CacheSource::Compiled, &b"ours"[..])
        );
        assert_eq!(fs::read(cache_file(&dir.0, "k8")).unwrap(), planted);
        assert_eq!(files(&dir.0), ["k8.bin"]);

        chmod(&dir.0, 0o700);
        assert_eq!(prepare_dir(&dir.0), Ok(()));
    }

    #[cfg(unix)]
    #[test]
    fn a_dir_others_could_rename_is_not_used() {
        let dir = TempDir::new("parent");
        let cache = dir.0.join("kernels");
        prepare_dir(&cache).unwrap();
        chmod(&dir.0, 0o777);
        let err = prepare_dir(&cache).unwrap_err();
        assert!(err.contains("without the sticky bit"), "{err}");
        // As /tmp: others may write, but not rename what is ours.
        chmod(&dir.0, 0o1777);
        assert_eq!(prepare_dir(&cache), Ok(()));
    }

    #[cfg(unix)]
    #[test]
    fn a_dir_of_another_user_is_not_used() {
        if current_uid() != Some(0) {
            crate::testing::skip("root", "only root can give a folder away");
            return;
        }
        let dir = TempDir::new("owner");
        let cache = dir.0.join("kernels");
        prepare_dir(&cache).unwrap();
        std::os::unix::fs::chown(&cache, Some(65534), None).unwrap();
        let err = prepare_dir(&cache).unwrap_err();
        assert!(err.contains("owned by uid 65534"), "{err}");
        std::os::unix::fs::chown(&cache, Some(0), None).unwrap();
        std::os::unix::fs::chown(&dir.0, Some(65534), None).unwrap();
        let err = prepare_dir(&cache).unwrap_err();
        assert!(err.contains("above it is owned by uid 65534"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_created_new_and_0600() {
        let dir = TempDir::new("create-new");
        fs::create_dir_all(&dir.0).unwrap();
        let p = dir.0.join("f");
        drop(new_private_file(&p).unwrap());
        assert_eq!(mode(&p), 0o600);
        fs::write(&p, b"keep").unwrap();
        let e = new_private_file(&p).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(fs::read(&p).unwrap(), b"keep");
        // A planted link is not followed, not even a dangling one.
        let link = dir.0.join("link");
        let target = dir.0.join("target");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = new_private_file(&link).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
        assert!(!target.exists());

        // write_atomic's temporaries have unguessable, distinct names.
        write_atomic(&dir.0.join("x.bin"), b"1").unwrap();
        write_atomic(&dir.0.join("x.bin"), b"2").unwrap();
        assert_eq!(fs::read(dir.0.join("x.bin")).unwrap(), b"2");
        assert_eq!(mode(&dir.0.join("x.bin")), 0o600);
        assert_ne!(random_u64(), random_u64());
    }

    #[cfg(unix)]
    #[test]
    fn the_fallback_dir_is_per_user() {
        let uid = current_uid().expect("the user id");
        let home = std::ffi::OsString::from("/home/someone");
        assert_eq!(
            cache_dir_from(None, Some(home.clone())),
            Path::new("/home/someone/.cache/cuprum/kernels")
        );
        assert_eq!(
            cache_dir_from(Some("/c".into()), Some(home)),
            Path::new("/c")
        );
        let fallback = cache_dir_from(Some("".into()), None);
        assert_eq!(
            fallback,
            std::env::temp_dir().join(format!("cuprum-{uid}/kernels"))
        );
        use std::os::unix::fs::MetadataExt;
        let probe = TempDir::new("uid");
        fs::create_dir_all(&probe.0).unwrap();
        assert_eq!(fs::metadata(&probe.0).unwrap().uid(), uid);
    }
}
