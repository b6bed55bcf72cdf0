//! The plan cache: one per device, shared by all threads, bounded by a
//! count and by the bytes of the plans' work areas (CuPy's
//! `cupy.fft.config.get_plan_cache`). An entry is a pure function of its
//! key, which holds everything that makes two plans differ: the
//! transform type, the layout, the device and the stream (a plan's work
//! area is used in its stream's order, so two streams never share one).
//!
//! Least recently used entries go first when a bound is reached. A plan
//! is built without the cache's lock held (two threads asking for the
//! same new plan may both build it; one is kept), and a failed build
//! caches nothing. A plan taken from the cache is an `Arc`: evicting it
//! while another thread executes it only drops the cache's reference.
//!
//! The defaults, 16 plans and no byte bound (CuPy's), can be set for a
//! process with `CUPRUM_FFT_PLAN_CACHE_SIZE` and
//! `CUPRUM_FFT_PLAN_CACHE_MEMSIZE` (bytes, `-1` for no bound), read when
//! a device's cache is first used.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use gpu_array::{Error, Result};
use gpu_runtime::{Device, Stream};

use crate::layout::Geometry;
use crate::plan::{FftType, RawPlan};

/// Everything that makes two plans differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PlanKey {
    pub kind: FftType,
    pub geometry: Geometry,
    /// The bits of the factor a store callback scales by, if any.
    pub scale: Option<u64>,
    pub device: i32,
    pub stream: u64,
}

#[derive(Debug)]
struct Entry<P> {
    plan: P,
    bytes: usize,
    last_use: u64,
}

#[derive(Debug)]
struct State<P> {
    size: usize,
    memsize: Option<usize>,
    entries: HashMap<PlanKey, Entry<P>>,
    bytes: usize,
    clock: u64,
}

impl<P> State<P> {
    /// Drops least recently used entries until both bounds hold with
    /// `extra` more bytes and one more entry (`room`), or as they stand.
    fn shrink(&mut self, room: bool, extra: usize) {
        let count_limit = self.size.saturating_sub(usize::from(room));
        loop {
            let over_count = self.entries.len() > count_limit;
            let over_bytes = self
                .memsize
                .is_some_and(|m| self.bytes.saturating_add(extra) > m);
            if !(over_count || over_bytes) || self.entries.is_empty() {
                return;
            }
            let oldest = *self
                .entries
                .iter()
                .min_by_key(|(_, e)| e.last_use)
                .map(|(k, _)| k)
                .expect("not empty");
            if let Some(e) = self.entries.remove(&oldest) {
                self.bytes -= e.bytes;
            }
        }
    }
}

/// The plan cache of one device (CuPy's `PlanCache`).
///
/// ```no_run
/// let cache = gpu_fft::config::get_plan_cache()?;
/// cache.set_size(32)?; // keep up to 32 plans on the current device
/// cache.set_memsize(1 << 30)?; // and at most 1 GiB of work areas
/// println!("{}", cache.show_info());
/// # Ok::<(), gpu_fft::Error>(())
/// ```
#[derive(Debug)]
pub struct PlanCache {
    device: i32,
    state: Mutex<State<Arc<RawPlan>>>,
}

fn env_number(name: &str) -> Result<Option<i64>> {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse::<i64>()
            .map(Some)
            .map_err(|_| Error::Value(format!("{name} must be an integer, got '{v}'"))),
        Err(_) => Ok(None),
    }
}

fn memsize_bound(bytes: i64) -> Result<Option<usize>> {
    match bytes {
        -1 => Ok(None),
        b if b >= 0 => Ok(Some(b as usize)),
        b => Err(Error::Value(format!(
            "memsize must be a non-negative number of bytes or -1 (no bound), got {b}"
        ))),
    }
}

impl PlanCache {
    fn new(device: i32) -> Result<PlanCache> {
        let size = match env_number("CUPRUM_FFT_PLAN_CACHE_SIZE")? {
            None => 16,
            Some(n) if n >= 0 => n as usize,
            Some(n) => {
                return Err(Error::Value(format!(
                    "CUPRUM_FFT_PLAN_CACHE_SIZE must not be negative, got {n}"
                )));
            }
        };
        let memsize = match env_number("CUPRUM_FFT_PLAN_CACHE_MEMSIZE")? {
            None => None,
            Some(b) => memsize_bound(b)?,
        };
        Ok(PlanCache {
            device,
            state: Mutex::new(State {
                size,
                memsize,
                entries: HashMap::new(),
                bytes: 0,
                clock: 0,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State<Arc<RawPlan>>> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The device this cache holds plans of.
    ///
    /// ```no_run
    /// let cache = gpu_fft::config::get_plan_cache()?;
    /// assert_eq!(cache.device().ordinal(), gpu_runtime::Device::current()?.ordinal());
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn device(&self) -> Device {
        Device::new(self.device).unwrap_or_else(|_| unreachable!("made for a valid device"))
    }

    /// The most plans kept (0 turns the cache off).
    ///
    /// ```no_run
    /// assert_eq!(gpu_fft::config::get_plan_cache()?.get_size(), 16); // the default
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn get_size(&self) -> usize {
        self.lock().size
    }

    /// Sets the most plans kept, dropping the least recently used ones
    /// past it.
    ///
    /// ```no_run
    /// gpu_fft::config::get_plan_cache()?.set_size(0)?; // no caching
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    ///
    /// # Errors
    /// None today; the `Result` matches the other setters.
    pub fn set_size(&self, size: usize) -> Result<()> {
        let mut s = self.lock();
        s.size = size;
        s.shrink(false, 0);
        Ok(())
    }

    /// The bound on the bytes of the cached plans' work areas (`-1`: none).
    ///
    /// ```no_run
    /// assert_eq!(gpu_fft::config::get_plan_cache()?.get_memsize(), -1);
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn get_memsize(&self) -> i64 {
        self.lock().memsize.map_or(-1, |m| m as i64)
    }

    /// Sets the bound on the work areas' bytes (`-1`: none).
    ///
    /// ```no_run
    /// gpu_fft::config::get_plan_cache()?.set_memsize(256 << 20)?;
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    ///
    /// # Errors
    /// A negative value other than -1.
    pub fn set_memsize(&self, bytes: i64) -> Result<()> {
        let bound = memsize_bound(bytes)?;
        let mut s = self.lock();
        s.memsize = bound;
        s.shrink(false, 0);
        Ok(())
    }

    /// The plans cached now.
    ///
    /// ```no_run
    /// let cache = gpu_fft::config::get_plan_cache()?;
    /// cache.clear();
    /// assert_eq!(cache.get_curr_size(), 0);
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn get_curr_size(&self) -> usize {
        self.lock().entries.len()
    }

    /// The bytes of the cached plans' work areas now.
    ///
    /// ```no_run
    /// println!("{} bytes", gpu_fft::config::get_plan_cache()?.get_curr_memsize());
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn get_curr_memsize(&self) -> usize {
        self.lock().bytes
    }

    /// Drops every cached plan (a plan still executing elsewhere lives
    /// until that call is done with it).
    ///
    /// ```no_run
    /// gpu_fft::config::get_plan_cache()?.clear();
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn clear(&self) {
        let mut s = self.lock();
        s.entries.clear();
        s.bytes = 0;
    }

    /// A description of the cache (CuPy's `show_info`, returned instead
    /// of printed).
    ///
    /// ```no_run
    /// let info = gpu_fft::config::get_plan_cache()?.show_info();
    /// assert!(info.starts_with("------------- cuFFT plan cache (device 0)"));
    /// # Ok::<(), gpu_fft::Error>(())
    /// ```
    pub fn show_info(&self) -> String {
        let s = self.lock();
        let mut out = format!(
            "------------- cuFFT plan cache (device {}) -------------\n\
             cache enabled? {}\n\
             current / max size   : {} / {} (counts)\n\
             current / max memsize: {} / {} (bytes)\n",
            self.device,
            s.size > 0,
            s.entries.len(),
            s.size,
            s.bytes,
            s.memsize
                .map_or("(unlimited)".to_owned(), |m| m.to_string()),
        );
        let mut entries: Vec<_> = s.entries.iter().collect();
        entries.sort_by_key(|(_, e)| std::cmp::Reverse(e.last_use));
        out.push_str("\ncached plans (most recently used first):\n");
        for (k, e) in entries {
            let g = &k.geometry;
            let _ = writeln!(
                out,
                "key: {}{} n={:?} istride={} idist={} ostride={} odist={} batch={} stream={}, \
                 work area: {} bytes",
                k.kind.name(),
                k.scale.map_or(String::new(), |b| format!(
                    " (scaled by {})",
                    f64::from_bits(b)
                )),
                &g.n[..g.rank],
                g.istride,
                g.idist,
                g.ostride,
                g.odist,
                g.batch,
                k.stream,
                e.bytes
            );
        }
        out
    }

    /// The plan of `kind` and `geometry` on `stream`, from the cache or
    /// made (and cached when the bounds allow).
    pub(crate) fn get(
        &self,
        kind: FftType,
        geometry: Geometry,
        scale: Option<f64>,
        stream: &Stream,
    ) -> Result<Arc<RawPlan>> {
        let key = PlanKey {
            kind,
            geometry,
            scale: scale.map(f64::to_bits),
            device: self.device,
            stream: stream.id(),
        };
        {
            let mut s = self.lock();
            s.clock += 1;
            let now = s.clock;
            if let Some(e) = s.entries.get_mut(&key) {
                e.last_use = now;
                return Ok(e.plan.clone());
            }
        }
        let plan = Arc::new(RawPlan::new(kind, geometry, scale, stream)?);
        let bytes = plan.work_size();
        let mut s = self.lock();
        if s.size == 0 || s.memsize.is_some_and(|m| bytes > m) {
            return Ok(plan);
        }
        if let Some(e) = s.entries.get(&key) {
            return Ok(e.plan.clone());
        }
        s.shrink(true, bytes);
        s.clock += 1;
        let last_use = s.clock;
        s.bytes += bytes;
        s.entries.insert(
            key,
            Entry {
                plan: plan.clone(),
                bytes,
                last_use,
            },
        );
        Ok(plan)
    }
}

/// The caches, one per device, made on first use.
///
/// SAFETY of the global state (not `unsafe`, but shared by every thread):
/// an entry is a pure function of its key, so what a caller gets does not
/// depend on who asked first; the only effect a user can see is memory
/// held by cached work areas, which the bounds and `clear` control.
static CACHES: LazyLock<Mutex<HashMap<i32, Arc<PlanCache>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The plan cache of `device`.
pub(crate) fn cache_of(device: Device) -> Result<Arc<PlanCache>> {
    let ordinal = device.ordinal();
    let mut map = CACHES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = map.get(&ordinal) {
        return Ok(c.clone());
    }
    let c = Arc::new(PlanCache::new(ordinal)?);
    map.insert(ordinal, c.clone());
    Ok(c)
}

/// The caches made so far, by device.
pub(crate) fn all_caches() -> Vec<Arc<PlanCache>> {
    let map = CACHES.lock().unwrap_or_else(|p| p.into_inner());
    let mut v: Vec<_> = map.values().cloned().collect();
    v.sort_by_key(|c| c.device);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i64) -> PlanKey {
        let mut geometry = crate::layout::describe(
            &[0],
            &[n as usize],
            crate::layout::Side {
                shape: &[n as usize],
                strides: &[1],
            },
            crate::layout::Side {
                shape: &[n as usize],
                strides: &[1],
            },
        )
        .unwrap()
        .geometry;
        geometry.batch = 1;
        PlanKey {
            kind: FftType::C2C,
            geometry,
            scale: None,
            device: 0,
            stream: 7,
        }
    }

    fn state(size: usize, memsize: Option<usize>) -> State<()> {
        State {
            size,
            memsize,
            entries: HashMap::new(),
            bytes: 0,
            clock: 0,
        }
    }

    fn put(s: &mut State<()>, n: i64, bytes: usize) {
        s.shrink(true, bytes);
        s.clock += 1;
        s.bytes += bytes;
        let last_use = s.clock;
        s.entries.insert(
            key(n),
            Entry {
                plan: (),
                bytes,
                last_use,
            },
        );
    }

    #[test]
    fn least_recently_used_plans_go_first() {
        let mut s = state(2, None);
        put(&mut s, 8, 0);
        put(&mut s, 16, 0);
        s.clock += 1;
        s.entries.get_mut(&key(8)).unwrap().last_use = s.clock; // 8 used again
        put(&mut s, 32, 0);
        assert!(s.entries.contains_key(&key(8)) && s.entries.contains_key(&key(32)));
        assert!(!s.entries.contains_key(&key(16)));
    }

    #[test]
    fn the_byte_bound_evicts_and_counts_work_areas() {
        let mut s = state(16, Some(100));
        put(&mut s, 8, 60);
        put(&mut s, 16, 30);
        assert_eq!(s.bytes, 90);
        put(&mut s, 32, 50); // 140 > 100: the oldest (60) goes
        assert_eq!(s.bytes, 80);
        assert!(!s.entries.contains_key(&key(8)));
        s.memsize = Some(0);
        s.shrink(false, 0);
        assert!(s.entries.is_empty() && s.bytes == 0);
    }

    #[test]
    fn keys_differ_by_stream_and_layout() {
        let (a, mut b) = (key(8), key(8));
        assert_eq!(a, b);
        b.stream = 8;
        assert_ne!(a, b);
        assert_ne!(key(8), key(9));
    }

    #[test]
    fn memsize_bounds_parse_as_cupy_takes_them() {
        assert_eq!(memsize_bound(-1).unwrap(), None);
        assert_eq!(memsize_bound(0).unwrap(), Some(0));
        assert!(memsize_bound(-2).is_err());
    }
}
