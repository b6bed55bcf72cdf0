//! A small process-wide memo of the recursive filters' host arithmetic:
//! the carry's state maps and the growth replay depend only on the
//! filter's coefficients and the block plan, and cost 0.05-0.3 ms of
//! host time a call (measured on the CPU for order 8 over 2^24 samples),
//! which a filter applied again (a stream of chunks, a loop) need not
//! pay. Each entry is a pure function of its key, the exact bits of the
//! coefficients and the sizes, so a hit returns what the computation
//! would; the memo holds at most [`ENTRIES`] of a kind and forgets the
//! oldest first (unlike the kernel caches, its keys are the users'
//! filters, an unbounded set).

use std::sync::{Arc, Mutex};

use num_complex::Complex64;

/// The most entries a memo holds.
pub(crate) const ENTRIES: usize = 32;

/// A bounded map from a key (words) to a shared value.
pub(crate) struct Memo<V> {
    entries: Mutex<Vec<(Vec<u64>, Arc<V>)>>,
}

impl<V> Memo<V> {
    pub(crate) const fn new() -> Memo<V> {
        Memo {
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The value for `key`, made by `make` (without the lock held) when
    /// the memo lacks it.
    pub(crate) fn get_or(&self, key: Vec<u64>, make: impl FnOnce() -> V) -> Arc<V> {
        // A panic while the lock was held leaves whole entries only (each
        // push or remove completes or does not happen), so a poisoned
        // lock's contents are still good.
        let lock = || self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, v)) = lock().iter().find(|(k, _)| *k == key) {
            return Arc::clone(v);
        }
        let v = Arc::new(make());
        let mut entries = lock();
        if let Some((_, old)) = entries.iter().find(|(k, _)| *k == key) {
            return Arc::clone(old);
        }
        if entries.len() >= ENTRIES {
            entries.remove(0);
        }
        entries.push((key, Arc::clone(&v)));
        v
    }
}

/// Which computation a key is of (so that equal coefficients of two
/// computations never share an entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    /// `iir::growth` of a normalized denominator.
    Growth,
    /// `iir::tables` of a normalized denominator.
    Tables,
    /// `fixed_scan`'s state maps of a cascade.
    CascadeMaps,
    /// `fixed_scan`'s state maps of the direct form.
    DirectMaps,
}

/// A key of `tag`, the coefficients' exact bits and `sizes`.
pub(crate) fn key(tag: Tag, coef: &[Complex64], sizes: &[usize]) -> Vec<u64> {
    let mut k = Vec::with_capacity(2 + 2 * coef.len() + sizes.len());
    k.push(tag as u64);
    k.push(coef.len() as u64);
    for c in coef {
        k.push(c.re.to_bits());
        k.push(c.im.to_bits());
    }
    k.extend(sizes.iter().map(|&s| s as u64));
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_return_the_first_value_and_the_oldest_goes_first() {
        let memo: Memo<usize> = Memo::new();
        let c = |v: f64| [Complex64::new(v, 0.0)];
        let g = Tag::Growth;
        assert_eq!(*memo.get_or(key(g, &c(1.0), &[3]), || 7), 7);
        // A hit does not run `make`.
        assert_eq!(*memo.get_or(key(g, &c(1.0), &[3]), || unreachable!()), 7);
        // Any bit of the key makes another entry: -0.0 is not 0.0.
        assert_eq!(*memo.get_or(key(g, &c(0.0), &[3]), || 1), 1);
        assert_eq!(*memo.get_or(key(g, &c(-0.0), &[3]), || 2), 2);
        assert_eq!(*memo.get_or(key(Tag::Tables, &c(1.0), &[3]), || 3), 3);
        assert_eq!(*memo.get_or(key(g, &c(1.0), &[4]), || 4), 4);
        for i in 0..ENTRIES {
            memo.get_or(key(Tag::DirectMaps, &c(i as f64), &[]), || i);
        }
        assert_eq!(memo.entries.lock().unwrap().len(), ENTRIES);
        // The first entry was forgotten, the newest kept.
        assert_eq!(*memo.get_or(key(g, &c(1.0), &[3]), || 8), 8);
        let last = ENTRIES - 1;
        assert_eq!(
            *memo.get_or(key(Tag::DirectMaps, &c(last as f64), &[]), || {
                unreachable!()
            }),
            last
        );
    }
}
