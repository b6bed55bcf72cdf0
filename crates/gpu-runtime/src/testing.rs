//! Helpers for tests that need a GPU or NVRTC (DESIGN.md, "Testing").
//!
//! A GPU test starts with `let Some(dev) = gpu_runtime::testing::device_or_skip() else { return };`.
//! Without a device it records the skip and returns `None`, so the test
//! passes as a skip; with `CUPRUM_TEST_REQUIRE_GPU=1` (set by the GPU pack's
//! run.sh) it panics instead, so a missing device fails the run. NVRTC tests
//! do the same with [`nvrtc_or_skip`] and `CUPRUM_TEST_REQUIRE_NVRTC=1` (set
//! by `cargo xtask test`, so CI fails when NVRTC could not be set up). A
//! test that can check only part of what it covers (one device where it
//! wants two) says so with [`skip_part`]; one skipped for another want, with
//! [`skip`].
//! NVRTC compile tests compile with [`no_cache`] and look for their
//! kernels in the image with [`names_in`].
//!
//! # Skips show in plain `cargo test` output
//!
//! libtest shows a passing test as `ok` and throws its captured output
//! away, so a skip that only printed would read as a pass. Each skip is
//! therefore recorded, and when the test binary exits (after libtest's
//! `test result:` line) one line per want goes to standard error, written
//! to the stream itself, which libtest does not capture (it captures the
//! `print!` family only):
//!
//! ```text
//! test result: ok. 48 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.00s
//!
//! skipped: 48 tests of this binary, for want of a GPU (CUPRUM_TEST_REQUIRE_GPU=1 makes such a skip a failure): the NVIDIA driver library (libcuda.so.1) was not found: ...
//! ```
//!
//! The test's own line (`skipped core::events, for want of a GPU: ...`)
//! still goes through `eprintln!`, so `--nocapture` names every skipped
//! test.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Mutex, Once, PoisonError};

use crate::Device;
use crate::nvrtc::{CompileConfig, CompileRequest};

fn required(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "1" || v.eq_ignore_ascii_case("true"))
}

/// The current device, or `None` after recording why there is none.
///
/// ```no_run
/// use gpu_runtime::testing::device_or_skip;
/// let Some(dev) = device_or_skip() else { return }; // no GPU: the test is counted as skipped
/// assert!(dev.ordinal() >= 0);
/// ```
///
/// # Panics
/// When no device is usable and `CUPRUM_TEST_REQUIRE_GPU=1`.
#[track_caller]
pub fn device_or_skip() -> Option<Device> {
    let why = match Device::count() {
        Ok(0) => "no CUDA device is visible".to_string(),
        Ok(_) => match Device::current().and_then(|d| d.bind().map(|()| d)) {
            Ok(d) => return Some(d),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    };
    if required("CUPRUM_TEST_REQUIRE_GPU") {
        panic!("CUPRUM_TEST_REQUIRE_GPU=1 but no GPU: {why}");
    }
    record(Kind::Whole, "a GPU", Some("CUPRUM_TEST_REQUIRE_GPU"), &why);
    None
}

/// `Some(())` when the NVRTC library loads, else `None` after recording why.
///
/// ```no_run
/// use gpu_runtime::testing::nvrtc_or_skip;
/// if nvrtc_or_skip().is_none() {
///     return; // no NVRTC: counted as skipped
/// }
/// ```
///
/// # Panics
/// When NVRTC is missing and `CUPRUM_TEST_REQUIRE_NVRTC=1`.
#[track_caller]
pub fn nvrtc_or_skip() -> Option<()> {
    match gpu_sys::nvrtc::LIBRARY.path() {
        Ok(_) => Some(()),
        Err(e) => {
            if required("CUPRUM_TEST_REQUIRE_NVRTC") {
                panic!("CUPRUM_TEST_REQUIRE_NVRTC=1 but NVRTC is missing: {e}");
            }
            record(
                Kind::Whole,
                "NVRTC",
                Some("CUPRUM_TEST_REQUIRE_NVRTC"),
                &e.to_string(),
            );
            None
        }
    }
}

/// Records that the calling test is skipped for want of `lacking` (named
/// as in "for want of root", "for want of a second device"), `why` giving
/// the detail, so the exit summary counts it. The caller then returns.
/// For the wants with a `CUPRUM_TEST_REQUIRE_*` switch, use
/// [`device_or_skip`] or [`nvrtc_or_skip`].
///
/// ```no_run
/// use gpu_runtime::testing::skip;
/// if std::env::var_os("SUDO_USER").is_none() {
///     skip("root", "the test changes the cache folder's owner");
///     return;
/// }
/// ```
pub fn skip(lacking: &str, why: &str) {
    record(Kind::Whole, lacking, None, why);
}

/// Records that the calling test checked only part of what it covers, the
/// part `what` left out for want of `lacking` ("a second device"), so the
/// exit summary names it.
///
/// ```no_run
/// use gpu_runtime::Device;
/// use gpu_runtime::testing::skip_part;
/// # fn main() -> gpu_runtime::Result<()> {
/// if Device::count()? < 2 {
///     skip_part("a second device", "the cross-device copy");
/// }
/// # Ok(()) }
/// ```
pub fn skip_part(lacking: &str, what: &str) {
    record(Kind::Part, lacking, None, what);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The test returned before checking anything.
    Whole,
    /// The test left one part out.
    Part,
}

/// The skips of one kind for one want.
#[derive(Debug)]
struct Group {
    kind: Kind,
    lacking: String,
    /// The variable that turns these skips into failures.
    require: Option<&'static str>,
    /// The first skip's reason: those of one want are one reason in
    /// practice (one driver, one loader search).
    why: String,
    tests: Vec<String>,
}

/// Every skip of this process, grouped in the order first seen.
static SKIPS: Mutex<Vec<Group>> = Mutex::new(Vec::new());
static AT_EXIT: Once = Once::new();

fn record(kind: Kind, lacking: &str, require: Option<&'static str>, why: &str) {
    // libtest runs each test on a thread named after it.
    let test = std::thread::current()
        .name()
        .unwrap_or("<unnamed>")
        .to_string();
    match kind {
        Kind::Whole => eprintln!("skipped {test}, for want of {lacking}: {why}"),
        Kind::Part => eprintln!("skipped part of {test}, for want of {lacking}: {why}"),
    }
    let mut skips = SKIPS.lock().unwrap_or_else(PoisonError::into_inner);
    add(&mut skips, kind, lacking, require, why, test);
    drop(skips);
    AT_EXIT.call_once(|| {
        // SAFETY: `print_summary` is a plain `extern "C"` function that
        // lives as long as the process and does not unwind (a panic in an
        // `extern "C"` function aborts). A failed registration costs only
        // the summary.
        unsafe { atexit(print_summary) };
    });
}

/// Adds `test`'s skip to its group (a test counts once in a group).
fn add(
    skips: &mut Vec<Group>,
    kind: Kind,
    lacking: &str,
    require: Option<&'static str>,
    why: &str,
    test: String,
) {
    match skips
        .iter_mut()
        .find(|g| g.kind == kind && g.lacking == lacking)
    {
        Some(g) if g.tests.contains(&test) => {}
        Some(g) => g.tests.push(test),
        None => skips.push(Group {
            kind,
            lacking: lacking.to_string(),
            require,
            why: why.to_string(),
            tests: vec![test],
        }),
    }
}

unsafe extern "C" {
    /// C's `atexit`: libtest returns from `main` (or calls
    /// `std::process::exit`) after its last line, so a handler run by
    /// `exit` prints after it, once stdout is flushed.
    fn atexit(callback: extern "C" fn()) -> std::ffi::c_int;
}

extern "C" fn print_summary() {
    // try_lock: a test thread that libtest left running must not hang the
    // exit.
    let Ok(skips) = SKIPS.try_lock() else { return };
    let text: String = summary(&skips).iter().map(|l| format!("{l}\n")).collect();
    // Written to the stream, not through eprint!: that is what libtest
    // captures. Nothing is left to report a failed write to.
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// The exit summary, one line per group.
fn summary(skips: &[Group]) -> Vec<String> {
    skips
        .iter()
        .map(|g| {
            let n = g.tests.len();
            let tests = if n == 1 { "test" } else { "tests" };
            // A few names help; a long list would be the flood the summary
            // replaces (--nocapture gives every name).
            let names = if n <= 3 {
                format!(" ({})", g.tests.join(", "))
            } else {
                String::new()
            };
            let switch = g
                .require
                .map(|var| format!(" ({var}=1 makes such a skip a failure)"))
                .unwrap_or_default();
            match g.kind {
                Kind::Whole => format!(
                    "skipped: {n} {tests} of this binary{names}, for want of {}{switch}: {}",
                    g.lacking, g.why
                ),
                Kind::Part => format!(
                    "skipped: part of {n} {tests} of this binary{names}, for want of {}: {}",
                    g.lacking, g.why
                ),
            }
        })
        .collect()
}

/// The architectures the kernel-compilation tests build for: `sm_90` (the
/// H200's, where every GPU test runs), and `sm_80` too with
/// `CUPRUM_TEST_ALL_ARCHS=1`. One architecture halves the CI time of the
/// full kernel matrix (the front end is the same for both; only ptxas's
/// target differs), so CI compiles every kernel once for `sm_90` and the
/// full two-architecture matrix runs where the variable is set (the GPU
/// machine: `CUPRUM_TEST_ALL_ARCHS=1 bash bench/gpu/only.sh nvrtc ...`).
///
/// ```
/// use gpu_runtime::testing::test_archs;
/// assert!(test_archs().contains(&"sm_90"));
/// ```
pub fn test_archs() -> &'static [&'static str] {
    if required("CUPRUM_TEST_ALL_ARCHS") {
        &["sm_80", "sm_90"]
    } else {
        &["sm_90"]
    }
}

/// A compile configuration that neither reads nor writes a kernel cache
/// (and keeps sources and debug info off), whatever the environment says:
/// a compile test must run NVRTC, not find an earlier result.
///
/// ```
/// use gpu_runtime::testing::no_cache;
/// let c = no_cache();
/// assert!(c.in_memory_only && !c.save_source && !c.debug);
/// ```
pub fn no_cache() -> CompileConfig {
    CompileConfig {
        cache_dir: PathBuf::from("/nonexistent/cuprum"),
        in_memory_only: true,
        save_source: false,
        debug: false,
        dump_source_on_error: false,
    }
}

/// Compiles every request for each architecture of [`test_archs`], the
/// requests of one architecture on threads of their own (NVRTC compiles
/// separate programs in parallel), and panics naming `label`, the
/// request's index and the architecture on a failure or an image under
/// 1 KiB. Unoptimized PTX (`-G`, `compute_XY`) unless
/// `CUPRUM_TEST_ALL_ARCHS` is set: NVRTC's front end catches what a header
/// change breaks (syntax, types, overloads, templates), while optimizing
/// double-heavy bodies is what takes CI's time (gpu-special's betaincinv
/// took 70 s to machine code, 1.3 s to `-G` PTX on two cores); the GPU
/// machine's all-architectures run makes machine code, as the GPU tests
/// do when the kernels load.
///
/// ```no_run
/// use gpu_runtime::nvrtc::CompileRequest;
/// use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};
/// if nvrtc_or_skip().is_some() {
///     let k = CompileRequest::new("extern \"C\" __global__ void k(float* x) { x[0] = 1.0f; }");
///     compile_for_test_archs("example kernel", &[k]);
/// }
/// ```
pub fn compile_for_test_archs(label: &str, requests: &[CompileRequest]) {
    let machine_code = std::env::var_os("CUPRUM_TEST_ALL_ARCHS").is_some();
    for arch in test_archs() {
        let arch: &str = &if machine_code {
            (*arch).to_string()
        } else {
            arch.replace("sm_", "compute_")
        };
        std::thread::scope(|scope| {
            let jobs: Vec<_> = requests
                .iter()
                .enumerate()
                .map(|(k, req)| {
                    scope.spawn(move || {
                        let mut req = req.clone().arch(arch);
                        if !machine_code {
                            req = req.option("-G");
                        }
                        let out = crate::nvrtc::compile_uncached(&req, &no_cache())
                            .unwrap_or_else(|e| panic!("{label} {k} on {arch}: {e}"));
                        assert!(
                            out.image.len() > 1024,
                            "{label} {k} on {arch}: {} bytes",
                            out.image.len()
                        );
                    })
                })
                .collect();
            for job in jobs {
                job.join().expect("an NVRTC compile thread panicked");
            }
        });
    }
}

/// The identifiers starting with `prefix` in a compiled image (PTX or
/// cubin): how a compile test checks that every kernel it asked for is
/// there under its name.
///
/// ```
/// use gpu_runtime::testing::names_in;
/// let ptx = b".visible .entry cuprum_add_f32(\n.visible .entry cuprum_mul_f32(";
/// let names = names_in(ptx, b"cuprum_");
/// assert!(names.contains(&b"cuprum_add_f32".to_vec()));
/// assert_eq!(names.len(), 2);
/// ```
pub fn names_in(image: &[u8], prefix: &[u8]) -> HashSet<Vec<u8>> {
    image
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| w.starts_with(prefix))
        .map(<[u8]>::to_vec)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(kind: Kind, lacking: &str, require: Option<&'static str>, why: &str) -> Group {
        Group {
            kind,
            lacking: lacking.to_string(),
            require,
            why: why.to_string(),
            tests: Vec::new(),
        }
    }

    #[test]
    fn the_summary_has_a_line_per_want_and_names_few_tests() {
        let gpu = Group {
            tests: (0..57).map(|i| format!("core::t{i}")).collect(),
            ..group(
                Kind::Whole,
                "a GPU",
                Some("CUPRUM_TEST_REQUIRE_GPU"),
                "no CUDA device is visible",
            )
        };
        let part = Group {
            tests: vec!["core::guards".to_string()],
            ..group(Kind::Part, "a second device", None, "the two-device half")
        };
        let root = Group {
            tests: vec!["a".to_string(), "b".to_string()],
            ..group(Kind::Whole, "root", None, "only root can chown")
        };
        assert_eq!(
            summary(&[gpu, part, root]),
            [
                "skipped: 57 tests of this binary, for want of a GPU \
                 (CUPRUM_TEST_REQUIRE_GPU=1 makes such a skip a failure): \
                 no CUDA device is visible",
                "skipped: part of 1 test of this binary (core::guards), for want of a second \
                 device: the two-device half",
                "skipped: 2 tests of this binary (a, b), for want of root: only root can chown",
            ]
        );
    }

    #[test]
    fn skips_are_grouped_by_kind_and_want_and_count_a_test_once() {
        let mut skips = Vec::new();
        for (kind, why, test) in [
            (Kind::Whole, "first", "a"),
            (Kind::Whole, "second", "b"),
            (Kind::Part, "a part", "a"),
            (Kind::Part, "another part", "a"),
        ] {
            add(&mut skips, kind, "root", None, why, test.to_string());
        }
        add(
            &mut skips,
            Kind::Whole,
            "a GPU",
            None,
            "none",
            "c".to_string(),
        );
        let seen: Vec<_> = skips
            .iter()
            .map(|g| {
                (
                    g.kind,
                    g.lacking.as_str(),
                    g.why.as_str(),
                    g.tests.join(","),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (Kind::Whole, "root", "first", "a,b".to_string()),
                (Kind::Part, "root", "a part", "a".to_string()),
                (Kind::Whole, "a GPU", "none", "c".to_string()),
            ]
        );
    }
}
