//! The pool's bookkeeping, independent of CUDA (CuPy's `SingleDeviceMemoryPool`).
//!
//! A [`PoolCore`] hands out ranges of memory obtained from a [`RawAllocator`]
//! (`cuMemAlloc`, `cuMemHostAlloc`, or a host fake in tests):
//!
//! - every request is rounded up to [`ROUND`] (512) bytes; a raw allocation
//!   is exactly the rounded request that missed the cache;
//! - a raw allocation is a run of *chunks*, linked to their neighbours;
//!   allocating from a bigger free chunk splits it, freeing merges a chunk
//!   with free neighbours, so a raw allocation whose chunks are all free is
//!   one chunk again;
//! - free chunks live in one *arena* per stream (keyed by `Stream::id`), an
//!   ordered set of `(size, address)`: best fit is one `range` lookup;
//! - a chunk that another stream may still use is *pending*: it is parked with
//!   [`Fence`]s (CUDA events) and becomes free once they have all completed;
//!   a fence whose query fails keeps its chunk parked for good (a leak is
//!   better than handing out memory a kernel may still write);
//! - when a stream goes away its arena is *retired*: its raw allocations move
//!   to the [`SHARED_ARENA`], parked behind a fence at the stream's end, and
//!   any stream may then take them whole;
//! - when the limit or the raw allocator says no, cached blocks are released
//!   and the allocation retried before an [`Error::OutOfMemory`].
//!
//! The books sit behind one mutex, and nothing that may wait for the device
//! or call back into user code runs while it is held: raw allocations and
//! frees (and the memory hooks they call) and fence waits happen between two
//! short critical sections.
//!
//! Invariants (checked by `check_invariants` in the tests): the chunks of a
//! raw allocation tile it exactly, all in one arena, no two free neighbours
//! exist, and `used + free + pending == total`.

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Mutex, MutexGuard};

use crate::{Error, Result};

/// Every request is rounded up to a multiple of this many bytes (CuPy's 512).
pub const ROUND: usize = 512;

/// The arena of blocks whose stream is gone: any stream may take one of its
/// whole raw allocations (which then joins that stream's arena).
pub(crate) const SHARED_ARENA: u64 = u64::MAX;

/// `size` rounded up to [`ROUND`], or `None` on overflow.
#[inline]
pub(crate) fn round_size(size: usize) -> Option<usize> {
    size.checked_add(ROUND - 1).map(|s| s & !(ROUND - 1))
}

/// The allocator a pool draws raw memory from. Called without the pool's
/// lock held, possibly from several threads at once.
pub(crate) trait RawAllocator: Send + Sync {
    /// Allocates `size` bytes (a multiple of [`ROUND`]) and returns the address.
    /// Running out of memory is reported as an error for which [`is_oom`] holds.
    fn malloc(&self, size: usize) -> Result<u64>;
    /// Releases an allocation made by `malloc` with the same size.
    fn free(&self, addr: u64, size: usize) -> Result<()>;
}

/// A point in a stream's work: a pending chunk becomes free once every fence
/// recorded at its free has completed.
pub(crate) trait Fence: Send + Clone {
    /// Whether the work before the fence has finished (does not block).
    ///
    /// # Errors
    /// The fence cannot be queried (its work failed, the context is lost).
    fn is_complete(&self) -> Result<bool>;
    /// Blocks until the work before the fence has finished.
    ///
    /// # Errors
    /// As for `is_complete`.
    fn wait(&self) -> Result<()>;
}

/// Whether `e` says the memory ran out (as opposed to any other failure).
pub(crate) fn is_oom(e: &Error) -> bool {
    match e {
        Error::OutOfMemory { .. } => true,
        Error::Cuda { name, .. } => name == "CUDA_ERROR_OUT_OF_MEMORY",
        _ => false,
    }
}

/// A multiplicative hash for addresses and stream ids: both are already
/// well spread in their high bits, so SipHash's cost buys nothing here.
#[derive(Default, Clone, Copy)]
pub(crate) struct AddrHasher(u64);

impl Hasher for AddrHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        // Addresses are 512-aligned: drop the zero bits before mixing.
        self.0 = (x >> 9 ^ x)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(26);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<AddrHasher>>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Free,
    Used,
    Pending,
}

#[derive(Debug, Clone, Copy)]
struct Chunk {
    size: usize,
    /// The chunk just below, in the same raw allocation.
    prev: Option<u64>,
    /// The chunk just above, in the same raw allocation.
    next: Option<u64>,
    /// The stream id whose arena the chunk returns to.
    arena: u64,
    /// The address of the raw allocation holding the chunk.
    base: u64,
    state: State,
}

/// One successful allocation from the pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Block {
    /// Start address.
    pub addr: u64,
    /// The rounded size the block occupies.
    pub size: usize,
    /// The raw allocation the block was cut from (CuPy's `pmem_id`).
    pub base: u64,
}

struct Pending<F> {
    addr: u64,
    size: usize,
    fences: Vec<F>,
    /// A fence could not be queried: the chunk stays parked.
    failed: bool,
}

/// The bookkeeping of one pool, behind [`PoolCore`]'s mutex.
struct Books<F: Fence> {
    chunks: FastMap<u64, Chunk>,
    arenas: FastMap<u64, BTreeSet<(usize, u64)>>,
    pending: Vec<Pending<F>>,
    used: usize,
    total: usize,
    /// Bytes of raw allocations under way (counted against the limit).
    reserved: usize,
    pending_bytes: usize,
    n_free: usize,
    /// 0: no limit.
    limit: usize,
}

/// A pool: raw memory from `R`, books behind one mutex. Thread-safe.
pub(crate) struct PoolCore<R: RawAllocator, F: Fence> {
    raw: R,
    books: Mutex<Books<F>>,
}

impl<F: Fence> Books<F> {
    fn oom(&self, size: usize) -> Error {
        Error::OutOfMemory {
            size,
            used: self.used,
            total: self.total,
            limit: if self.limit == 0 {
                "none".to_string()
            } else {
                format!("{} bytes", self.limit)
            },
        }
    }

    /// Counts `rounded` bytes against the limit for a raw allocation about
    /// to be made; false when the limit forbids it.
    fn reserve(&mut self, rounded: usize) -> bool {
        let after = self
            .total
            .checked_add(self.reserved)
            .and_then(|t| t.checked_add(rounded));
        match after {
            Some(t) if self.limit == 0 || t <= self.limit => {
                self.reserved += rounded;
                true
            }
            _ => false,
        }
    }

    /// Records the raw allocation at `addr` made under a reservation.
    fn insert_raw(&mut self, addr: u64, rounded: usize, arena: u64) -> Block {
        self.reserved -= rounded;
        self.chunks.insert(
            addr,
            Chunk {
                size: rounded,
                prev: None,
                next: None,
                arena,
                base: addr,
                state: State::Used,
            },
        );
        self.total += rounded;
        self.used += rounded;
        Block {
            addr,
            size: rounded,
            base: addr,
        }
    }

    /// Best fit in `arena`'s own free chunks, else a whole raw allocation of
    /// the shared arena, which then joins `arena`.
    fn take_best_fit(&mut self, rounded: usize, arena: u64) -> Option<Block> {
        let own = self
            .arenas
            .get(&arena)
            .and_then(|set| set.range((rounded, 0)..).next().copied());
        if let Some((csize, addr)) = own {
            return Some(self.take_chunk(arena, csize, addr, rounded));
        }
        if arena == SHARED_ARENA {
            return None;
        }
        let chunks = &self.chunks;
        let (csize, addr) = self
            .arenas
            .get(&SHARED_ARENA)?
            .range((rounded, 0)..)
            .find(|&&(_, a)| chunks[&a].prev.is_none() && chunks[&a].next.is_none())
            .copied()?;
        if let Some(set) = self.arenas.get_mut(&SHARED_ARENA) {
            set.remove(&(csize, addr));
        }
        self.arenas.entry(arena).or_default().insert((csize, addr));
        if let Some(c) = self.chunks.get_mut(&addr) {
            c.arena = arena;
        }
        Some(self.take_chunk(arena, csize, addr, rounded))
    }

    /// Takes the free chunk `(csize, addr)` of `arena` for `rounded` bytes,
    /// splitting off the remainder.
    fn take_chunk(&mut self, arena: u64, csize: usize, addr: u64, rounded: usize) -> Block {
        let set = self.arenas.entry(arena).or_default();
        set.remove(&(csize, addr));
        let chunk = self
            .chunks
            .get_mut(&addr)
            .expect("a free-list entry names a chunk");
        debug_assert_eq!(chunk.state, State::Free);
        chunk.state = State::Used;
        let base = chunk.base;
        if csize > rounded {
            // Split: the remainder stays free in the same arena.
            let rest = addr + rounded as u64;
            let old_next = chunk.next;
            chunk.size = rounded;
            chunk.next = Some(rest);
            set.insert((csize - rounded, rest));
            self.chunks.insert(
                rest,
                Chunk {
                    size: csize - rounded,
                    prev: Some(addr),
                    next: old_next,
                    arena,
                    base,
                    state: State::Free,
                },
            );
            if let Some(n) = old_next {
                self.chunks.get_mut(&n).expect("linked chunk").prev = Some(rest);
            }
        } else {
            self.n_free -= 1;
        }
        self.used += rounded;
        Block {
            addr,
            size: rounded,
            base,
        }
    }

    fn free(&mut self, addr: u64) -> Result<usize> {
        let size = self.mark_unused(addr)?;
        self.make_free(addr);
        Ok(size)
    }

    fn free_pending(&mut self, addr: u64, fences: Vec<F>) -> Result<usize> {
        if fences.is_empty() {
            return self.free(addr);
        }
        let size = self.mark_unused(addr)?;
        self.park(addr, size, fences);
        Ok(size)
    }

    /// Marks the chunk at `addr` pending behind `fences`.
    fn park(&mut self, addr: u64, size: usize, fences: Vec<F>) {
        self.chunks
            .get_mut(&addr)
            .expect("parked chunk exists")
            .state = State::Pending;
        self.pending_bytes += size;
        self.pending.push(Pending {
            addr,
            size,
            fences,
            failed: false,
        });
    }

    fn mark_unused(&mut self, addr: u64) -> Result<usize> {
        match self.chunks.get(&addr) {
            Some(c) if c.state == State::Used => {
                self.used -= c.size;
                Ok(c.size)
            }
            _ => Err(Error::InvalidArgument(format!(
                "memory pool: {addr:#x} is not an allocated block (double free?)"
            ))),
        }
    }

    /// Makes the (used or pending) chunk at `addr` free, merging neighbours.
    fn make_free(&mut self, addr: u64) {
        let mut c = *self.chunks.get(&addr).expect("chunk exists");
        let set = self.arenas.entry(c.arena).or_default();
        let mut start = addr;
        if let Some(n) = c.next {
            let nc = self.chunks[&n];
            if nc.state == State::Free {
                set.remove(&(nc.size, n));
                self.chunks.remove(&n);
                self.n_free -= 1;
                c.size += nc.size;
                c.next = nc.next;
                if let Some(nn) = nc.next {
                    self.chunks.get_mut(&nn).expect("linked chunk").prev = Some(addr);
                }
            }
        }
        if let Some(p) = c.prev {
            let pc = self.chunks[&p];
            if pc.state == State::Free {
                set.remove(&(pc.size, p));
                self.chunks.remove(&addr);
                self.n_free -= 1;
                c.size += pc.size;
                c.prev = pc.prev;
                if let Some(n) = c.next {
                    self.chunks.get_mut(&n).expect("linked chunk").prev = Some(p);
                }
                start = p;
            }
        }
        c.state = State::Free;
        set.insert((c.size, start));
        self.n_free += 1;
        self.chunks.insert(start, c);
    }

    /// Frees the pending blocks whose fences have all completed. A fence
    /// that cannot be queried keeps its block parked for good.
    fn poll_pending(&mut self) {
        let mut i = 0;
        while i < self.pending.len() {
            let p = &mut self.pending[i];
            let mut done = !p.failed;
            if done {
                for f in &p.fences {
                    match f.is_complete() {
                        Ok(true) => {}
                        Ok(false) => {
                            done = false;
                            break;
                        }
                        Err(e) => {
                            tracing::error!(
                                "memory pool: a fence of the block at {:#x} failed ({e}); \
                                 the block is never reused",
                                p.addr
                            );
                            p.failed = true;
                            done = false;
                            break;
                        }
                    }
                }
            }
            if done {
                let p = self.pending.swap_remove(i);
                self.pending_bytes -= p.size;
                self.make_free(p.addr);
            } else {
                i += 1;
            }
        }
    }

    /// The fences of the pending blocks that may still complete.
    fn pending_fences(&self) -> Vec<F> {
        self.pending
            .iter()
            .filter(|p| !p.failed)
            .flat_map(|p| p.fences.iter().cloned())
            .collect()
    }

    /// Removes every raw allocation whose chunks are all free from the books
    /// and returns them, for the caller to release without the lock.
    fn take_releasable(&mut self) -> Vec<(u64, usize)> {
        if !self.pending.is_empty() {
            self.poll_pending();
        }
        let mut out = Vec::new();
        for set in self.arenas.values_mut() {
            let start = out.len();
            out.extend(set.iter().copied().filter(|&(_, a)| {
                let c = &self.chunks[&a];
                c.prev.is_none() && c.next.is_none()
            }));
            for &(size, addr) in &out[start..] {
                set.remove(&(size, addr));
                self.chunks.remove(&addr);
                self.n_free -= 1;
                self.total -= size;
            }
        }
        self.arenas.retain(|_, s| !s.is_empty());
        out.into_iter().map(|(size, addr)| (addr, size)).collect()
    }

    /// Moves the raw allocations of `arena` (a stream that is gone) to the
    /// shared arena, each free or pending chunk parked behind `fence` (the
    /// end of the stream's work). A raw allocation with a chunk in use stays
    /// in `arena` (its owner keeps the stream alive, so this does not happen
    /// through [`Memory`](super::Memory)).
    fn retire_arena(&mut self, arena: u64, fence: F) {
        if arena == SHARED_ARENA {
            return;
        }
        let mut bases: FastMap<u64, bool> = FastMap::default();
        for c in self.chunks.values().filter(|c| c.arena == arena) {
            let movable = bases.entry(c.base).or_insert(true);
            *movable &= c.state != State::Used;
        }
        let moved: Vec<u64> = bases
            .into_iter()
            .filter(|&(_, m)| m)
            .map(|(b, _)| b)
            .collect();
        if moved.is_empty() {
            return;
        }
        let mut free_chunks = Vec::new();
        for c in self.chunks.values_mut() {
            if c.arena == arena && moved.contains(&c.base) {
                c.arena = SHARED_ARENA;
            }
        }
        for (&addr, c) in &self.chunks {
            if c.arena == SHARED_ARENA && moved.contains(&c.base) && c.state == State::Free {
                free_chunks.push((c.size, addr));
            }
        }
        if let Some(set) = self.arenas.get_mut(&arena) {
            for k in &free_chunks {
                set.remove(k);
            }
            if set.is_empty() {
                self.arenas.remove(&arena);
            }
        }
        for p in &mut self.pending {
            let c = &self.chunks[&p.addr];
            if moved.contains(&c.base) {
                p.fences.push(fence.clone());
            }
        }
        for (size, addr) in free_chunks {
            self.n_free -= 1;
            self.park(addr, size, vec![fence.clone()]);
        }
    }
}

impl<R: RawAllocator, F: Fence> PoolCore<R, F> {
    /// An empty pool drawing from `raw`.
    pub(crate) fn new(raw: R) -> Self {
        PoolCore {
            raw,
            books: Mutex::new(Books {
                chunks: FastMap::default(),
                arenas: FastMap::default(),
                pending: Vec::new(),
                used: 0,
                total: 0,
                reserved: 0,
                pending_bytes: 0,
                n_free: 0,
                limit: 0,
            }),
        }
    }

    fn books(&self) -> MutexGuard<'_, Books<F>> {
        // Every update of the books completes before it can panic (the
        // `expect`s name broken invariants), so a poisoned lock holds
        // consistent books.
        self.books.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Bytes in blocks handed out and not yet freed.
    pub(crate) fn used_bytes(&self) -> usize {
        self.books().used
    }

    /// Bytes held from the raw allocator (used, free and pending).
    pub(crate) fn total_bytes(&self) -> usize {
        self.books().total
    }

    /// Bytes held but not in use (free blocks and blocks still pending).
    pub(crate) fn free_bytes(&self) -> usize {
        let b = self.books();
        b.total - b.used
    }

    /// Free blocks, reusable now (after promoting completed pending ones).
    pub(crate) fn n_free_blocks(&self) -> usize {
        let mut b = self.books();
        b.poll_pending();
        b.n_free
    }

    /// Blocks waiting for other streams before they can be reused.
    pub(crate) fn n_pending_blocks(&self) -> usize {
        let mut b = self.books();
        b.poll_pending();
        b.pending.len()
    }

    /// The limit in bytes on `total_bytes`; 0 is none.
    pub(crate) fn limit(&self) -> usize {
        self.books().limit
    }

    /// Sets the limit; 0 removes it. Memory already held is not released.
    pub(crate) fn set_limit(&self, limit: usize) {
        self.books().limit = limit;
    }

    /// Allocates `size` bytes (rounded up to [`ROUND`]; `size` must be > 0)
    /// from the arena of stream `arena`. On exhaustion it releases cached
    /// blocks and retries; when `may_wait`, it also waits for pending blocks
    /// (without the lock) before giving up.
    ///
    /// # Errors
    /// [`Error::OutOfMemory`] with the pool's figures; the raw allocator's
    /// own error when that is not an out-of-memory; the error of a fence
    /// that failed while waiting for it.
    pub(crate) fn malloc(&self, size: usize, arena: u64, may_wait: bool) -> Result<Block> {
        let Some(rounded) = round_size(size.max(1)) else {
            return Err(self.books().oom(size));
        };
        if let Some(b) = self.take_cached(rounded, arena) {
            return Ok(b);
        }
        if let Some(b) = self.alloc_raw(rounded, arena)? {
            return Ok(b);
        }
        // Out of memory: release every cached raw allocation and retry.
        self.release_cached();
        if let Some(b) = self.alloc_raw(rounded, arena)? {
            return Ok(b);
        }
        if may_wait {
            let fences = self.books().pending_fences();
            if !fences.is_empty() {
                for f in &fences {
                    f.wait()?;
                }
                if let Some(b) = self.take_cached(rounded, arena) {
                    return Ok(b);
                }
                self.release_cached();
                if let Some(b) = self.alloc_raw(rounded, arena)? {
                    return Ok(b);
                }
            }
        }
        Err(self.books().oom(size))
    }

    fn take_cached(&self, rounded: usize, arena: u64) -> Option<Block> {
        let mut b = self.books();
        if !b.pending.is_empty() {
            b.poll_pending();
        }
        b.take_best_fit(rounded, arena)
    }

    /// A new raw allocation, or `None` when the limit or the raw allocator
    /// says the memory ran out.
    fn alloc_raw(&self, rounded: usize, arena: u64) -> Result<Option<Block>> {
        if !self.books().reserve(rounded) {
            return Ok(None);
        }
        let r = self.raw.malloc(rounded);
        let mut b = self.books();
        match r {
            Ok(addr) => Ok(Some(b.insert_raw(addr, rounded, arena))),
            Err(e) => {
                b.reserved -= rounded;
                if is_oom(&e) { Ok(None) } else { Err(e) }
            }
        }
    }

    /// [`free_all_blocks`](Self::free_all_blocks) as a step of an
    /// allocation: an error releasing one block only means less room.
    fn release_cached(&self) {
        if let Err(e) = self.free_all_blocks() {
            tracing::warn!("memory pool: releasing cached blocks failed: {e}");
        }
    }

    /// Returns the block at `addr` to its arena, merging it with free
    /// neighbours. Returns its size.
    ///
    /// # Errors
    /// `addr` is not a block in use (a double free).
    #[cfg(test)]
    pub(crate) fn free(&self, addr: u64) -> Result<usize> {
        self.books().free(addr)
    }

    /// Like [`free`](Self::free), but the block is reused only once every
    /// fence has completed. With no fences this is `free`.
    ///
    /// # Errors
    /// `addr` is not a block in use.
    pub(crate) fn free_pending(&self, addr: u64, fences: Vec<F>) -> Result<usize> {
        self.books().free_pending(addr, fences)
    }

    /// Frees the pending blocks whose fences have all completed.
    pub(crate) fn poll_pending(&self) {
        self.books().poll_pending();
    }

    /// Moves the blocks of `arena`, a stream that is gone, to the shared
    /// arena once `fence` (the end of that stream's work) completes.
    pub(crate) fn retire_arena(&self, arena: u64, fence: F) {
        self.books().retire_arena(arena, fence);
    }

    /// Releases to the raw allocator every raw allocation whose chunks are
    /// all free (after promoting completed pending blocks).
    ///
    /// # Errors
    /// The first error of the raw allocator's `free`; the others are still
    /// attempted.
    pub(crate) fn free_all_blocks(&self) -> Result<()> {
        let blocks = self.books().take_releasable();
        let mut first_err = None;
        for (addr, size) in blocks {
            if let Err(e) = self.raw.free(addr, size) {
                first_err.get_or_insert(e);
            }
        }
        first_err.map_or(Ok(()), Err)
    }

    /// Checks every invariant of the bookkeeping; panics with a description
    /// of the first that fails.
    #[cfg(test)]
    pub(crate) fn check_invariants(&self) {
        self.books().check_invariants();
    }
}

impl<R: RawAllocator, F: Fence> Drop for PoolCore<R, F> {
    fn drop(&mut self) {
        // Owners keep the pool alive, so nothing is in use; pending blocks may
        // still be read by a stream, so wait for them before releasing. A
        // fence that fails keeps its block (and its raw allocation) unreleased.
        let fences = self.books().pending_fences();
        for f in &fences {
            if let Err(e) = f.wait() {
                tracing::error!("memory pool: waiting for a block at drop failed: {e}");
            }
        }
        if let Err(e) = self.free_all_blocks() {
            tracing::warn!("memory pool: releasing blocks at drop failed: {e}");
        }
    }
}

#[cfg(test)]
impl<F: Fence> Books<F> {
    /// Checks every invariant of the bookkeeping; panics with a description
    /// of the first that fails.
    fn check_invariants(&self) {
        let mut sorted: Vec<(u64, Chunk)> = self.chunks.iter().map(|(&a, &c)| (a, c)).collect();
        sorted.sort_by_key(|&(a, _)| a);
        let (mut used, mut free, mut pending, mut n_free) = (0, 0, 0, 0);
        let mut end = 0u64;
        for (i, &(a, c)) in sorted.iter().enumerate() {
            assert!(a >= end, "chunk {a:#x} overlaps the chunk before it");
            assert!(c.size > 0 && c.size % ROUND == 0, "chunk size {}", c.size);
            end = a + c.size as u64;
            match c.prev {
                None => assert_eq!(c.base, a, "first chunk of a raw allocation"),
                Some(p) => {
                    assert_eq!(sorted[i - 1].0, p, "prev link of {a:#x}");
                    assert_eq!(p + sorted[i - 1].1.size as u64, a, "prev is adjacent");
                    assert_eq!(sorted[i - 1].1.next, Some(a), "links agree");
                    assert_eq!(sorted[i - 1].1.base, c.base, "same raw allocation");
                    assert_eq!(sorted[i - 1].1.arena, c.arena, "same arena");
                    assert!(
                        !(c.state == State::Free && sorted[i - 1].1.state == State::Free),
                        "two free neighbours at {p:#x} and {a:#x} were not merged"
                    );
                }
            }
            if let Some(n) = c.next {
                assert_eq!(n, end, "next of {a:#x} is adjacent");
            }
            let in_set = self
                .arenas
                .get(&c.arena)
                .is_some_and(|s| s.contains(&(c.size, a)));
            match c.state {
                State::Used => {
                    used += c.size;
                    assert!(!in_set);
                }
                State::Free => {
                    free += c.size;
                    n_free += 1;
                    assert!(in_set, "free chunk {a:#x} missing from its arena");
                }
                State::Pending => {
                    pending += c.size;
                    assert!(!in_set);
                    assert!(self.pending.iter().any(|p| p.addr == a));
                }
            }
        }
        let listed: usize = self.arenas.values().map(BTreeSet::len).sum();
        assert_eq!(listed, n_free, "free lists hold exactly the free chunks");
        assert_eq!(n_free, self.n_free, "n_free");
        assert_eq!(used, self.used, "used bytes");
        assert_eq!(pending, self.pending_bytes, "pending bytes");
        assert_eq!(
            used + free + pending,
            self.total,
            "every byte accounted for"
        );
    }
}

#[cfg(test)]
pub(crate) mod fake {
    //! A host fake of the raw allocator and of fences.

    use std::collections::HashMap;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    use super::{Fence, RawAllocator};
    use crate::{Error, Result};

    /// What the fake has handed out, shared with the test.
    #[derive(Debug, Default)]
    pub(crate) struct FakeState {
        pub live: HashMap<u64, usize>,
        pub live_bytes: usize,
        pub capacity: usize,
        pub next: u64,
        pub mallocs: usize,
        pub frees: usize,
    }

    /// Fake addresses from a bump pointer, with a gap between raw
    /// allocations so that a merge across two of them would show.
    #[derive(Debug, Clone)]
    pub(crate) struct FakeRaw(pub Arc<Mutex<FakeState>>);

    impl FakeRaw {
        pub(crate) fn new(capacity: usize) -> Self {
            FakeRaw(Arc::new(Mutex::new(FakeState {
                capacity,
                next: 0x7f00_0000_0000,
                ..Default::default()
            })))
        }
    }

    impl RawAllocator for FakeRaw {
        fn malloc(&self, size: usize) -> Result<u64> {
            let mut s = self.0.lock().unwrap();
            if s.live_bytes + size > s.capacity {
                return Err(Error::Cuda {
                    call: "cuMemAlloc",
                    code: 2,
                    name: "CUDA_ERROR_OUT_OF_MEMORY".into(),
                    description: "out of memory".into(),
                });
            }
            let addr = s.next;
            s.next += size as u64 + 4096;
            s.live.insert(addr, size);
            s.live_bytes += size;
            s.mallocs += 1;
            Ok(addr)
        }

        fn free(&self, addr: u64, size: usize) -> Result<()> {
            let mut s = self.0.lock().unwrap();
            assert_eq!(s.live.remove(&addr), Some(size), "fake free of {addr:#x}");
            s.live_bytes -= size;
            s.frees += 1;
            Ok(())
        }
    }

    /// A fence the test completes by hand (`.0`); `wait` completes it. With
    /// `.1` set, querying and waiting fail, as for a lost context.
    #[derive(Debug, Clone, Default)]
    pub(crate) struct FakeFence(pub Arc<AtomicBool>, pub Arc<AtomicBool>);

    impl FakeFence {
        fn check(&self) -> Result<()> {
            if self.1.load(Ordering::SeqCst) {
                return Err(Error::Cuda {
                    call: "cuEventQuery",
                    code: 719,
                    name: "CUDA_ERROR_LAUNCH_FAILED".into(),
                    description: "unspecified launch failure".into(),
                });
            }
            Ok(())
        }
    }

    impl Fence for FakeFence {
        fn is_complete(&self) -> Result<bool> {
            self.check()?;
            Ok(self.0.load(Ordering::SeqCst))
        }
        fn wait(&self) -> Result<()> {
            self.check()?;
            self.0.store(true, Ordering::SeqCst);
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    use proptest::prelude::*;

    use super::fake::{FakeFence, FakeRaw};
    use super::*;

    type Core = PoolCore<FakeRaw, FakeFence>;

    fn core(capacity: usize) -> (Core, FakeRaw) {
        let raw = FakeRaw::new(capacity);
        (PoolCore::new(raw.clone()), raw)
    }

    #[test]
    fn rounding() {
        assert_eq!(round_size(1), Some(512));
        assert_eq!(round_size(512), Some(512));
        assert_eq!(round_size(513), Some(1024));
        assert_eq!(round_size(usize::MAX), None);
    }

    #[test]
    fn cupy_tutorial_figures() {
        let (p, raw) = core(1 << 30);
        let b = p.malloc(400, 0, true).unwrap();
        assert_eq!((b.size, p.used_bytes(), p.total_bytes()), (512, 512, 512));
        p.free(b.addr).unwrap();
        assert_eq!(
            (p.used_bytes(), p.total_bytes(), p.n_free_blocks()),
            (0, 512, 1)
        );
        let again = p.malloc(16, 0, true).unwrap();
        assert_eq!(again.addr, b.addr, "a cached block is reused");
        p.free(again.addr).unwrap();
        p.free_all_blocks().unwrap();
        assert_eq!(
            (p.used_bytes(), p.total_bytes(), p.n_free_blocks()),
            (0, 0, 0)
        );
        assert!(raw.0.lock().unwrap().live.is_empty());
        p.check_invariants();
    }

    #[test]
    fn split_then_merge_restores_one_chunk() {
        let (p, raw) = core(1 << 30);
        let big = p.malloc(4096, 0, true).unwrap();
        p.free(big.addr).unwrap();
        let a = p.malloc(512, 0, true).unwrap();
        let b = p.malloc(1024, 0, true).unwrap();
        let c = p.malloc(512, 0, true).unwrap();
        assert_eq!(a.addr, big.addr);
        assert_eq!(b.addr, big.addr + 512);
        assert_eq!(c.addr, big.addr + 1536);
        assert_eq!(a.base, big.addr);
        assert_eq!(p.n_free_blocks(), 1);
        assert_eq!(p.used_bytes(), 2048);
        p.check_invariants();
        // Free the middle, then the sides: merges with prev and next.
        p.free(b.addr).unwrap();
        assert_eq!(p.n_free_blocks(), 2);
        // c joins b below it and the remainder above it.
        p.free(c.addr).unwrap();
        assert_eq!(p.n_free_blocks(), 1);
        p.check_invariants();
        p.free(a.addr).unwrap();
        assert_eq!(p.n_free_blocks(), 1);
        p.check_invariants();
        assert_eq!(raw.0.lock().unwrap().mallocs, 1);
        p.free_all_blocks().unwrap();
        assert_eq!(p.total_bytes(), 0);
    }

    #[test]
    fn best_fit_takes_the_smallest_block_that_fits() {
        let (p, _) = core(1 << 30);
        let a = p.malloc(4096, 0, true).unwrap();
        let b = p.malloc(1024, 0, true).unwrap();
        let c = p.malloc(2048, 0, true).unwrap();
        for x in [a, b, c] {
            p.free(x.addr).unwrap();
        }
        assert_eq!(p.malloc(1000, 0, true).unwrap().addr, b.addr);
        assert_eq!(p.malloc(1500, 0, true).unwrap().addr, c.addr);
        p.check_invariants();
    }

    #[test]
    fn arenas_are_per_stream() {
        let (p, raw) = core(1 << 30);
        let a = p.malloc(1024, 1, true).unwrap();
        p.free(a.addr).unwrap();
        let b = p.malloc(1024, 2, true).unwrap();
        assert_ne!(a.addr, b.addr, "stream 2 does not reuse stream 1's block");
        p.free(b.addr).unwrap();
        let c = p.malloc(1024, 1, true).unwrap();
        assert_eq!(c.addr, a.addr);
        assert_eq!(raw.0.lock().unwrap().mallocs, 2);
        p.check_invariants();
    }

    #[test]
    fn double_free_is_an_error() {
        let (p, _) = core(1 << 30);
        let a = p.malloc(1, 0, true).unwrap();
        p.free(a.addr).unwrap();
        assert!(p.free(a.addr).is_err());
        assert!(p.free(12345).is_err());
        p.check_invariants();
    }

    #[test]
    fn limit_frees_cached_blocks_then_reports_out_of_memory() {
        let (p, _) = core(1 << 30);
        p.set_limit(1024);
        let a = p.malloc(512, 0, true).unwrap();
        let e = p.malloc(1024, 0, true).unwrap_err();
        let text = e.to_string();
        assert!(matches!(
            e,
            Error::OutOfMemory {
                size: 1024,
                used: 512,
                total: 512,
                ..
            }
        ));
        assert!(text.contains("1024 bytes"), "{text}");
        assert!(text.contains("limit: 1024 bytes"), "{text}");
        // Cached but unused: released to make room.
        p.free(a.addr).unwrap();
        let b = p.malloc(1024, 0, true).unwrap();
        assert_eq!(p.total_bytes(), 1024);
        p.free(b.addr).unwrap();
        p.check_invariants();
    }

    #[test]
    fn raw_out_of_memory_frees_other_arenas_and_retries() {
        let (p, raw) = core(2048);
        let a = p.malloc(2048, 0, true).unwrap();
        p.free(a.addr).unwrap();
        let b = p.malloc(1024, 7, true).unwrap();
        assert_eq!(p.total_bytes(), 1024);
        assert_eq!(raw.0.lock().unwrap().frees, 1);
        let e = p.malloc(2048, 7, true).unwrap_err();
        assert!(
            matches!(e, Error::OutOfMemory { size: 2048, used: 1024, total: 1024, ref limit } if limit == "none")
        );
        p.free(b.addr).unwrap();
        p.check_invariants();
    }

    #[test]
    fn pending_blocks_wait_for_their_fences() {
        let (p, _) = core(1 << 30);
        let a = p.malloc(1024, 0, true).unwrap();
        let fence = FakeFence::default();
        p.free_pending(a.addr, vec![fence.clone()]).unwrap();
        assert_eq!(p.n_pending_blocks(), 1);
        assert_eq!((p.used_bytes(), p.free_bytes()), (0, 1024));
        p.check_invariants();
        let b = p.malloc(1024, 0, true).unwrap();
        assert_ne!(
            b.addr, a.addr,
            "not reused before the other stream catches up"
        );
        p.free(b.addr).unwrap();
        // Not freed by free_all_blocks either while pending.
        p.free_all_blocks().unwrap();
        assert_eq!(p.total_bytes(), 1024);
        fence.0.store(true, Ordering::SeqCst);
        let c = p.malloc(1024, 0, true).unwrap();
        assert_eq!(c.addr, a.addr);
        assert_eq!(p.n_pending_blocks(), 0);
        p.check_invariants();
    }

    #[test]
    fn out_of_memory_waits_for_pending_blocks_when_allowed() {
        let (p, _) = core(1024);
        let a = p.malloc(1024, 0, true).unwrap();
        p.free_pending(a.addr, vec![FakeFence::default()]).unwrap();
        assert!(p.malloc(1024, 0, false).is_err());
        assert_eq!(p.malloc(1024, 0, true).unwrap().addr, a.addr);
        p.check_invariants();
    }

    #[test]
    fn drop_releases_everything() {
        let raw = FakeRaw::new(1 << 30);
        {
            let p: Core = PoolCore::new(raw.clone());
            let a = p.malloc(100, 0, true).unwrap();
            let b = p.malloc(5000, 3, true).unwrap();
            p.free(a.addr).unwrap();
            p.free_pending(b.addr, vec![FakeFence::default()]).unwrap();
        }
        assert!(raw.0.lock().unwrap().live.is_empty());
    }

    #[test]
    fn a_failed_fence_keeps_its_block_parked() {
        let (p, _) = core(1 << 30);
        let a = p.malloc(1024, 0, true).unwrap();
        let fence = FakeFence::default();
        p.free_pending(a.addr, vec![fence.clone()]).unwrap();
        // The fenced work failed: its block must not be handed out again,
        // even once the fence would read as complete.
        fence.1.store(true, Ordering::SeqCst);
        let b = p.malloc(1024, 0, true).unwrap();
        assert_ne!(b.addr, a.addr, "a block behind a failed fence was reused");
        fence.1.store(false, Ordering::SeqCst);
        fence.0.store(true, Ordering::SeqCst);
        let c = p.malloc(1024, 0, true).unwrap();
        assert_ne!(c.addr, a.addr, "a block behind a failed fence was reused");
        assert_eq!(p.n_pending_blocks(), 1);
        p.check_invariants();
    }

    #[test]
    fn waiting_on_a_failed_fence_is_an_error() {
        let (p, _) = core(1024);
        let a = p.malloc(1024, 0, true).unwrap();
        let fence = FakeFence::default();
        fence.1.store(true, Ordering::SeqCst);
        p.free_pending(a.addr, vec![fence]).unwrap();
        // poll_pending marks the block failed; the out-of-memory path then
        // has no fence left to wait for and reports the pool's figures.
        let e = p.malloc(1024, 0, true).unwrap_err();
        assert!(matches!(e, Error::OutOfMemory { size: 1024, .. }), "{e}");
        // A fence that fails only when waited on reaches the caller.
        #[derive(Clone)]
        struct WaitFails;
        impl Fence for WaitFails {
            fn is_complete(&self) -> Result<bool> {
                Ok(false)
            }
            fn wait(&self) -> Result<()> {
                Err(Error::InvalidArgument("the fenced work failed".into()))
            }
        }
        let q = PoolCore::<FakeRaw, WaitFails>::new(FakeRaw::new(1024));
        let b = q.malloc(1024, 0, true).unwrap();
        q.free_pending(b.addr, vec![WaitFails]).unwrap();
        let e = q.malloc(1024, 0, true).unwrap_err();
        assert!(e.to_string().contains("the fenced work failed"), "{e}");
        assert!(q.malloc(1024, 0, false).is_err());
    }

    /// A fence whose `wait` reads the pool: it would deadlock if the pool
    /// waited with its lock held.
    type ProbePool = PoolCore<FakeRaw, ProbeFence>;

    #[derive(Clone)]
    struct ProbeFence {
        pool: Arc<Mutex<Option<Arc<ProbePool>>>>,
        done: Arc<AtomicBool>,
        waited_unlocked: Arc<AtomicBool>,
    }

    impl Fence for ProbeFence {
        fn is_complete(&self) -> Result<bool> {
            Ok(self.done.load(Ordering::SeqCst))
        }
        fn wait(&self) -> Result<()> {
            if let Some(p) = self.pool.lock().unwrap().as_ref() {
                // `books` is not reentrant: this returns only if it is free.
                let _ = p.used_bytes();
                self.waited_unlocked.store(true, Ordering::SeqCst);
            }
            self.done.store(true, Ordering::SeqCst);
            Ok(())
        }
    }

    #[test]
    fn out_of_memory_waits_without_the_lock() {
        let raw = FakeRaw::new(1024);
        let pool = Arc::new(ProbePool::new(raw));
        let slot = Arc::new(Mutex::new(Some(pool.clone())));
        let fence = ProbeFence {
            pool: slot.clone(),
            done: Arc::default(),
            waited_unlocked: Arc::default(),
        };
        let a = pool.malloc(1024, 0, true).unwrap();
        pool.free_pending(a.addr, vec![fence.clone()]).unwrap();
        let b = pool.malloc(1024, 0, true).unwrap();
        assert_eq!(b.addr, a.addr);
        assert!(fence.waited_unlocked.load(Ordering::SeqCst));
        pool.free(b.addr).unwrap();
        slot.lock().unwrap().take();
    }

    #[test]
    fn a_retired_arena_goes_to_the_shared_arena_after_its_fence() {
        let (p, raw) = core(1 << 30);
        // Stream 5 frees a block into its arena, holds a second one pending
        // behind another stream, then goes away.
        let a = p.malloc(4096, 5, true).unwrap();
        let b = p.malloc(2048, 5, true).unwrap();
        p.free(a.addr).unwrap();
        let other = FakeFence::default();
        p.free_pending(b.addr, vec![other.clone()]).unwrap();
        let end = FakeFence::default();
        p.retire_arena(5, end.clone());
        p.check_invariants();
        // Before the stream's end, nobody takes its blocks.
        let c = p.malloc(4096, 6, true).unwrap();
        assert_ne!(c.addr, a.addr);
        end.0.store(true, Ordering::SeqCst);
        // Stream 6 takes the retired block once the fence completed.
        let d = p.malloc(4096, 6, true).unwrap();
        assert_eq!(d.addr, a.addr, "the retired block is shared");
        p.check_invariants();
        // The pending one still waits for the other stream too.
        let e = p.malloc(2048, 7, true).unwrap();
        assert_ne!(e.addr, b.addr);
        other.0.store(true, Ordering::SeqCst);
        let f = p.malloc(2048, 7, true).unwrap();
        assert_eq!(f.addr, b.addr);
        p.check_invariants();
        for x in [c, d, e, f] {
            p.free(x.addr).unwrap();
        }
        p.free_all_blocks().unwrap();
        assert!(raw.0.lock().unwrap().live.is_empty());
    }

    /// Host cost of one alloc+free pair on a warm pool (the device pool's hit
    /// path is this plus one lock). Run with `--ignored --nocapture`.
    #[test]
    #[ignore = "timing; prints ns per pair"]
    fn hit_path_timing() {
        let (p, _) = core(1 << 40);
        for size in [16usize, 1 << 20] {
            let b = p.malloc(size, 0, true).unwrap();
            p.free(b.addr).unwrap();
            let n = 1_000_000;
            let t = std::time::Instant::now();
            for _ in 0..n {
                let b = p.malloc(std::hint::black_box(size), 0, true).unwrap();
                p.free(b.addr).unwrap();
            }
            let ns = t.elapsed().as_nanos() as f64 / n as f64;
            println!("alloc+free of {size} bytes: {ns:.1} ns");
        }
    }

    #[derive(Debug, Clone)]
    enum Op {
        Alloc { size: usize, arena: u64 },
        Free(usize),
        FreePending(usize),
        Complete(usize),
        FreeAll,
        Limit(usize),
        Retire(u64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            5 => (1usize..6000, 0u64..3).prop_map(|(size, arena)| Op::Alloc { size, arena }),
            3 => any::<usize>().prop_map(Op::Free),
            1 => any::<usize>().prop_map(Op::FreePending),
            1 => any::<usize>().prop_map(Op::Complete),
            1 => Just(Op::FreeAll),
            1 => prop_oneof![Just(0usize), 4096usize..40_000].prop_map(Op::Limit),
            1 => (0u64..3).prop_map(Op::Retire),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Random alloc/free sequences: live blocks never overlap, every byte
        /// is accounted for, and releasing everything leaves one chunk per
        /// raw allocation, all returned to the raw allocator.
        #[test]
        fn random_sequences_keep_the_books(
            ops in proptest::collection::vec(op(), 1..200),
            capacity in 8192usize..65536,
        ) {
            let (p, raw) = core(capacity);
            let mut live: Vec<(u64, usize, usize)> = Vec::new();
            let mut fences: Vec<FakeFence> = Vec::new();
            for op in ops {
                match op {
                    Op::Alloc { size, arena } => match p.malloc(size, arena, true) {
                        Ok(b) => {
                            prop_assert!(b.size >= size && b.size % ROUND == 0);
                            live.push((b.addr, b.size, size));
                        }
                        Err(e) => prop_assert!(matches!(e, Error::OutOfMemory { .. }), "{e}"),
                    },
                    Op::Free(i) if !live.is_empty() => {
                        let (a, s, _) = live.swap_remove(i % live.len());
                        prop_assert_eq!(p.free(a).unwrap(), s);
                    }
                    Op::FreePending(i) if !live.is_empty() => {
                        let (a, s, _) = live.swap_remove(i % live.len());
                        let f = FakeFence::default();
                        fences.push(f.clone());
                        prop_assert_eq!(p.free_pending(a, vec![f]).unwrap(), s);
                    }
                    Op::Complete(i) if !fences.is_empty() => {
                        let f = fences.swap_remove(i % fences.len());
                        f.0.store(true, Ordering::SeqCst);
                    }
                    Op::FreeAll => p.free_all_blocks().unwrap(),
                    Op::Limit(l) => p.set_limit(l),
                    Op::Retire(arena) => {
                        let f = FakeFence::default();
                        fences.push(f.clone());
                        p.retire_arena(arena, f);
                    }
                    _ => {}
                }
                p.check_invariants();
                let mut sorted = live.clone();
                sorted.sort();
                for w in sorted.windows(2) {
                    prop_assert!(w[0].0 + w[0].1 as u64 <= w[1].0, "live blocks overlap");
                }
                let live_bytes: usize = live.iter().map(|l| l.1).sum();
                prop_assert_eq!(live_bytes, p.used_bytes());
                prop_assert_eq!(p.used_bytes() + p.free_bytes(), p.total_bytes());
                prop_assert_eq!(raw.0.lock().unwrap().live_bytes, p.total_bytes());
            }
            for (a, _, _) in live.drain(..) {
                p.free(a).unwrap();
            }
            for f in &fences {
                f.0.store(true, Ordering::SeqCst);
            }
            p.poll_pending();
            p.check_invariants();
            // Everything merged back: one free chunk per raw allocation.
            prop_assert_eq!(p.n_free_blocks(), raw.0.lock().unwrap().live.len());
            p.free_all_blocks().unwrap();
            prop_assert_eq!(p.total_bytes(), 0);
            prop_assert!(raw.0.lock().unwrap().live.is_empty());
        }
    }
}
