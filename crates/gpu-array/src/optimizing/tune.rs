//! What the launchers share when a scope is live: the record's identity,
//! the candidate loop and the event timing.

use std::time::Instant;

use gpu_runtime::{Device, Event, EventOptions, Stream};

use super::Scope;
use super::records::{self, LaunchParams, RecordKey};
use crate::array::Array;
use crate::error::Result;
use crate::layout::Order;

/// Where a tuned launch runs: the record it reads or writes, less the key.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    /// [`device_label`].
    pub(crate) device: String,
    /// [`kernel_key`].
    pub(crate) kernel: String,
    /// The launcher's shape class ([`log2_class`] of its sizes).
    pub(crate) shape: String,
}

/// `<name> <arch>` of `device`: records do not travel between GPUs.
///
/// # Errors
/// The driver failed.
pub(crate) fn device_label(device: Device) -> Result<String> {
    let p = device.properties()?;
    Ok(format!("{} {}", p.name, p.arch()))
}

/// `<name>-<hash>`: the kernel's name and a 64-bit FNV-1a hash of its
/// source and options. Stable across processes and Rust versions (std's
/// hashers are not), so a record finds its kernel again; two kernels named
/// alike (user kernels) differ by their hash.
pub(crate) fn kernel_key(name: &str, source: &str, options: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in std::iter::once(source).chain(options.iter().map(String::as_str)) {
        for b in part.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{name}-{h:016x}")
}

/// [`kernel_key`] of a spec, computed once per spec in `memo` (rendering
/// and hashing the source costs more than a launch): the one body behind
/// the elementwise and reduction launchers' memos, each a process-wide
/// map of its own spec type.
///
/// Safe to share between threads and streams: the key is a pure function
/// of the spec (its name, rendered source and options), so whichever
/// caller fills an entry, every reader gets the value it would have
/// computed itself; nothing else is stored, and entries only grow with the
/// set of distinct kernels tuned, as the kernel maps beside them do.
pub(crate) fn memoized_key<S: std::hash::Hash + Eq + Clone>(
    memo: &gpu_runtime::KernelCache<S, String>,
    spec: &S,
    make: impl FnOnce() -> String,
) -> String {
    // Looked up by reference first: a hit clones no spec.
    if let Some(k) = memo.get(spec) {
        return k;
    }
    let k = make();
    memo.insert(spec.clone(), k.clone());
    k
}

/// `ceil(log2(n))` (0 for 0 and 1): sizes within a factor of two share
/// their parameters.
pub(crate) fn log2_class(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// Every (block, blocks per SM) pair, the heuristic's first, then every
/// block size at the first cap, and so on: a search cut short by the
/// timeout has still tried each block size (whose first launch may
/// compile a kernel).
pub(crate) fn grid(heuristic: LaunchParams, blocks: &[u32], per_sm: &[u32]) -> Vec<LaunchParams> {
    let mut out = vec![heuristic];
    for &blocks_per_sm in per_sm {
        for &block in blocks {
            let c = LaunchParams {
                block,
                blocks_per_sm,
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The parameters for `site` in `scope`: a stored record that `valid`
/// accepts; else, unless the scope is readonly or synchronizing is
/// forbidden, the fastest of `candidates` by `measure` (milliseconds per
/// launch), stored; else `candidates[0]` (the heuristic).
///
/// # Errors
/// `measure` failed.
pub(crate) fn choose(
    scope: &Scope,
    site: Site,
    candidates: &[LaunchParams],
    valid: impl Fn(LaunchParams) -> bool,
    mut measure: impl FnMut(LaunchParams) -> Result<f32>,
) -> Result<LaunchParams> {
    let Some(&heuristic) = candidates.first() else {
        unreachable!("a launcher always offers its heuristic")
    };
    let key = RecordKey {
        key: scope.key.clone(),
        device: site.device,
        kernel: site.kernel,
        shape: site.shape,
    };
    if let Some(p) = records::lookup(&key) {
        if p.in_range() && valid(p) {
            return Ok(p);
        }
        tracing::debug!(kernel = %key.kernel, ?p, "a stored launch record does not fit its kernel");
    }
    if scope.config.readonly {
        return Ok(heuristic);
    }
    if !gpu_runtime::is_synchronize_allowed() {
        tracing::debug!(
            kernel = %key.kernel,
            "not tuning inside allow_synchronize(false): the heuristic's launch parameters"
        );
        return Ok(heuristic);
    }
    let started = Instant::now();
    let mut best: Option<(f32, LaunchParams)> = None;
    let mut first = None;
    for (i, &c) in candidates
        .iter()
        .take(scope.config.max_trials.max(1))
        .enumerate()
    {
        if i > 0 && started.elapsed() >= scope.config.timeout {
            break;
        }
        let ms = measure(c)?;
        first.get_or_insert(ms);
        if best.is_none_or(|(b, _)| ms < b) {
            best = Some((ms, c));
        }
    }
    let (ms, chosen) = best.unwrap_or((0.0, heuristic));
    tracing::debug!(
        kernel = %key.kernel,
        shape = %key.shape,
        block = chosen.block,
        blocks_per_sm = chosen.blocks_per_sm,
        ms,
        heuristic_ms = first.unwrap_or(0.0),
        "tuned launch parameters"
    );
    records::insert(key, chosen);
    scope.tuned.set(true);
    Ok(chosen)
}

/// Milliseconds per call of `launch` on `stream`: `warmup` untimed calls,
/// then the mean of `repeats` (at least 1) between two events.
///
/// # Errors
/// A launch or the driver failed.
pub(crate) fn time_ms(
    stream: &Stream,
    warmup: usize,
    repeats: usize,
    mut launch: impl FnMut() -> Result<()>,
) -> Result<f32> {
    for _ in 0..warmup {
        launch()?;
    }
    let options = EventOptions::default();
    let start = Event::new_on(stream.device(), options)?;
    let end = Event::new_on(stream.device(), options)?;
    let n = repeats.max(1);
    start.record(stream)?;
    for _ in 0..n {
        launch()?;
    }
    end.record(stream)?;
    end.synchronize()?;
    Ok(Event::elapsed_time(&start, &end)? / n as f32)
}

/// A scratch buffer standing in for an operand of `itemsize`-byte
/// elements at `ptr` whose kernel touches bytes `extent.0..extent.1`
/// around it: the address to pass instead (congruent to `ptr` modulo 16,
/// so the same vector paths apply) and the buffer that holds it.
///
/// # Errors
/// The allocation failed.
pub(crate) fn scratch_for(
    device: Device,
    ptr: u64,
    extent: (isize, isize),
) -> Result<(u64, Array)> {
    let (lo, hi) = extent;
    let len = usize::try_from(hi - lo).unwrap_or(0) + 16;
    let buf = Array::empty_on(device, &[len], crate::dtype::DType::UInt8, Order::C)?;
    let base = buf.data_ptr().raw();
    // Byte `lo` of the stand-in lies at `base + shift`, `shift` in 0..16.
    let start = base.wrapping_sub(lo as u64);
    let shift = ptr.wrapping_sub(start) & 15;
    Ok((start.wrapping_add(shift), buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_keys_are_stable() {
        assert_eq!(
            [0, 1, 2, 3, 4, 5, 1 << 20, (1 << 20) + 1].map(log2_class),
            [0, 0, 1, 2, 2, 3, 20, 21]
        );
        // Pinned values: the key must not change between builds.
        assert_eq!(kernel_key("k", "", &[]), "k-af63bd4c8601b7df");
        let a = kernel_key("k", "src", &[]);
        assert_ne!(a, kernel_key("k", "src ", &[]));
        assert_ne!(a, kernel_key("k", "src", &["-O3".into()]));
        assert_ne!(
            kernel_key("k", "ab", &["c".into()]),
            kernel_key("k", "a", &["bc".into()])
        );
    }

    #[test]
    fn the_grid_starts_with_the_heuristic_without_repeats() {
        let h = LaunchParams {
            block: 256,
            blocks_per_sm: 8,
        };
        let g = grid(h, &[128, 256, 512], &[8, 16]);
        assert_eq!(g[0], h);
        assert_eq!(g.len(), 6);
        // Each block size comes before any second cap.
        assert_eq!(g[1].block, 128);
        assert_eq!(g[2].block, 512);
        assert_eq!(g[3].blocks_per_sm, 16);
        assert!(g.contains(&LaunchParams {
            block: 128,
            blocks_per_sm: 16
        }));
    }
}
