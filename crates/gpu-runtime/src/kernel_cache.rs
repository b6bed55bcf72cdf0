//! The one kind of process-wide kernel cache.
//!
//! Every compiled-kernel map in the workspace is a [`KernelCache`]: the
//! named built-ins behind [`crate::RawKernel::cached`], and the
//! elementwise and reduction engines' spec-keyed maps in gpu-array. One
//! type means one set of rules, stated once here:
//!
//! - An entry is a pure function of its key (a kernel's whole description,
//!   or a name that stands for one fixed program), so a caller that finds
//!   another caller's entry gets exactly what it would have built itself.
//!   Nothing in an entry is per-call state: kernels are immutable and hold
//!   no buffers or launch state.
//! - A build runs without the lock held (compiling takes a while and may
//!   itself look up other kernels); when two threads build one key at once,
//!   the first to finish is kept and both get it.
//! - A build that fails caches nothing, so no caller sees another's error.
//! - Entries are never evicted: the keys are the programs a process
//!   actually launched, a bounded set in practice (shapes are not part of
//!   any key; dtypes, layouts and ops are).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, MutexGuard};

/// A process-wide map from a kernel's key to its compiled form (see the
/// module docs for the rules every cache follows).
///
/// ```
/// use gpu_runtime::KernelCache;
/// static LENGTHS: KernelCache<String, usize> = KernelCache::new();
/// let n = LENGTHS
///     .get_or_try_insert("saxpy".to_string(), || Ok::<_, ()>(5))
///     .unwrap();
/// assert_eq!(n, 5);
/// assert_eq!(LENGTHS.get("saxpy"), Some(5));
/// ```
pub struct KernelCache<K, V> {
    // `Option` so that `new` can be `const` (a `HashMap` cannot be made in
    // a const context) and the cache can sit in a plain `static`.
    map: Mutex<Option<HashMap<K, V>>>,
}

impl<K, V> Default for KernelCache<K, V> {
    fn default() -> Self {
        KernelCache::new()
    }
}

impl<K, V> std::fmt::Debug for KernelCache<K, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self.lock().as_ref().map_or(0, HashMap::len);
        write!(f, "<KernelCache of {len}>")
    }
}

impl<K, V> KernelCache<K, V> {
    /// An empty cache.
    ///
    /// ```
    /// use gpu_runtime::KernelCache;
    /// static CACHE: KernelCache<&str, u32> = KernelCache::new();
    /// assert_eq!(CACHE.get("k"), None);
    /// ```
    pub const fn new() -> KernelCache<K, V> {
        KernelCache {
            map: Mutex::new(None),
        }
    }

    /// The map, also after a panic elsewhere: every update is one insert,
    /// so a poisoned lock still guards a consistent map.
    fn lock(&self) -> MutexGuard<'_, Option<HashMap<K, V>>> {
        self.map.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl<K: Eq + Hash, V: Clone> KernelCache<K, V> {
    /// The entry under `key`, if one was built.
    ///
    /// ```
    /// use gpu_runtime::KernelCache;
    /// let c: KernelCache<String, u32> = KernelCache::new();
    /// c.insert("k".to_string(), 1);
    /// assert_eq!(c.get("k"), Some(1)); // looked up by `&str`
    /// ```
    pub fn get<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.lock().as_ref().and_then(|m| m.get(key)).cloned()
    }

    /// The entry under `key`, or the one `build` makes (then kept).
    ///
    /// ```
    /// use gpu_runtime::KernelCache;
    /// let c: KernelCache<u8, u32> = KernelCache::new();
    /// assert_eq!(c.get_or_try_insert(1, || Err("no")), Err("no")); // nothing kept
    /// assert_eq!(c.get_or_try_insert(1, || Ok::<_, &str>(7)), Ok(7));
    /// assert_eq!(c.get_or_try_insert(1, || Ok::<_, &str>(8)), Ok(7)); // built once
    /// ```
    ///
    /// # Errors
    /// `build`'s error; nothing is cached then.
    pub fn get_or_try_insert<E>(
        &self,
        key: K,
        build: impl FnOnce() -> Result<V, E>,
    ) -> Result<V, E> {
        if let Some(v) = self.get(&key) {
            return Ok(v);
        }
        let built = build()?;
        Ok(self
            .lock()
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert(built)
            .clone())
    }

    /// Puts `value` under `key`, replacing an entry there: for a cache whose
    /// caller found an entry and refused it (gpu-array's fast elementwise
    /// map, whose key is a shorthand checked against the full spec).
    ///
    /// ```
    /// use gpu_runtime::KernelCache;
    /// let c: KernelCache<u8, &str> = KernelCache::new();
    /// c.insert(0, "stale");
    /// c.insert(0, "fresh");
    /// assert_eq!(c.get(&0), Some("fresh"));
    /// ```
    pub fn insert(&self, key: K, value: V) {
        self.lock()
            .get_or_insert_with(HashMap::new)
            .insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::KernelCache;

    #[test]
    fn a_failed_build_caches_nothing_and_the_first_build_wins() {
        let cache: KernelCache<u32, &'static str> = KernelCache::new();
        assert_eq!(cache.get_or_try_insert(1, || Err("no")), Err("no"));
        assert_eq!(cache.get(&1), None);
        assert_eq!(cache.get_or_try_insert(1, || Ok::<_, ()>("a")), Ok("a"));
        // A second build of a present key is not run.
        assert_eq!(
            cache.get_or_try_insert(1, || -> Result<_, ()> { unreachable!() }),
            Ok("a")
        );
        cache.insert(1, "b");
        assert_eq!(cache.get(&1), Some("b"));
        assert_eq!(format!("{cache:?}"), "<KernelCache of 1>");
    }
}
