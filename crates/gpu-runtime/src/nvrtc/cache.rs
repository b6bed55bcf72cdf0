//! The kernel cache: in this process's memory, and on disk.
//!
//! A program's key is the hex SHA-256 of everything that decides NVRTC's
//! output: the source, the program name, the in-memory headers, the final
//! option list (with `-std`, debug flags and `-arch`), the architecture, the
//! name expressions, the NVRTC version and [`FORMAT_VERSION`]. The memory
//! cache maps keys to shared [`Compiled`] values for the life of the process
//! ([`clear_memory_cache`] empties it). The disk cache, under
//! [`CompileConfig::cache_dir`], holds one file per key, `<key>.bin`: the
//! image, its kind and architecture, the log and the lowered names, with a
//! SHA-256 of the payload so that a truncated or corrupted file is noticed,
//! ignored and rewritten. Files are written under a temporary name in the
//! same folder and renamed into place, so concurrent processes never see a
//! half-written file. With `CUPRUM_CACHE_SAVE_CUDA_SOURCE=1` the source is
//! kept next to it as `<key>.cu`; with `CUPRUM_CACHE_IN_MEMORY=1` the disk
//! is not used at all.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

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
pub fn clear_memory_cache() {
    lock(memory()).clear();
}

/// How many programs the memory cache holds.
pub fn memory_cache_len() -> usize {
    lock(memory()).len()
}

/// `CUPRUM_CACHE_DIR` if set and not empty, else `~/.cache/cuprum/kernels`
/// (the system's temporary folder stands in for a missing home).
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUPRUM_CACHE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => PathBuf::from(home).join(".cache/cuprum/kernels"),
        None => std::env::temp_dir().join("cuprum/kernels"),
    }
}

/// The cache key of a resolved request (see the module's documentation).
pub(crate) fn key(
    request: &CompileRequest,
    resolved: &Resolved,
    nvrtc_version: (i32, i32),
) -> String {
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
    let digest = h.finalize();
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
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
    let on_disk = !config.in_memory_only;
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

fn store(dir: &Path, key: &str, compiled: &Compiled, source: Option<&str>) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    if let Some(source) = source {
        write_atomic(&dir.join(format!("{key}.cu")), source.as_bytes())?;
    }
    write_atomic(&cache_file(dir, key), &encode(compiled))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path` (atomic within one file system).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "cache".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        drop(f);
        fs::rename(&tmp, path)
    })();
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
        let k = key(&req, &res, (13, 0));
        assert_eq!(k.len(), 64);
        assert!(k.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(k, key(&req.clone(), &res.clone(), (13, 0)));

        let mut variants = vec![key(&req, &res, (13, 1)), key(&req, &res, (12, 9))];
        let mut r = req.clone();
        r.source.push(' ');
        variants.push(key(&r, &res, (13, 0)));
        let mut r = req.clone();
        r.name = "other.cu".into();
        variants.push(key(&r, &res, (13, 0)));
        let r = req.clone().header("b.h", "");
        variants.push(key(&r, &res, (13, 0)));
        let mut r = req.clone();
        r.headers[0].1.push(' ');
        variants.push(key(&r, &res, (13, 0)));
        let r = req.clone().name_expression("k2");
        variants.push(key(&r, &res, (13, 0)));
        let mut s = res.clone();
        s.options.insert(0, "-DX".into());
        variants.push(key(&req, &s, (13, 0)));
        let mut s = res.clone();
        s.arch = "sm_80".into();
        variants.push(key(&req, &s, (13, 0)));
        let mut s = res.clone();
        s.kind = ImageKind::Ptx;
        variants.push(key(&req, &s, (13, 0)));
        // Moving bytes between adjacent fields changes the key too.
        let mut s = res.clone();
        s.options = vec!["-std=c++17-arch=sm_90".into()];
        variants.push(key(&req, &s, (13, 0)));
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
}
