//! Host tests of the scope, the candidate loop and the records file (the
//! launches themselves are in tests/optimizing/, with a GPU).

use std::cell::RefCell;
use std::path::PathBuf;

use super::records::{HEADER, RecordKey};
use super::tune::{Site, choose};
use super::*;

/// A fresh folder under the system's temporary one, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!(
            "cuprum-optimize-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        TempDir(d)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const H: LaunchParams = LaunchParams {
    block: 256,
    blocks_per_sm: 8,
};
const FAST: LaunchParams = LaunchParams {
    block: 512,
    blocks_per_sm: 16,
};
const SLOW: LaunchParams = LaunchParams {
    block: 128,
    blocks_per_sm: 4,
};

fn site(kernel: &str) -> Site {
    Site {
        device: "Test GPU sm_90".into(),
        kernel: kernel.into(),
        shape: "n10".into(),
    }
}

/// Runs `choose` in the current scope with fake timings; returns the
/// choice and the candidates measured, in order.
fn pick(kernel: &str, valid: impl Fn(LaunchParams) -> bool) -> (LaunchParams, Vec<LaunchParams>) {
    let scope = current_scope().expect("inside a scope");
    let measured = RefCell::new(Vec::new());
    let p = choose(&scope, site(kernel), &[H, FAST, SLOW], valid, |c| {
        measured.borrow_mut().push(c);
        Ok(match c {
            FAST => 1.0,
            SLOW => 3.0,
            _ => 2.0,
        })
    })
    .unwrap();
    (p, measured.into_inner())
}

fn memory_only(key: &str) -> OptimizeConfig {
    OptimizeConfig::default().key(key).in_memory(true)
}

#[test]
fn the_config_builds_from_default_with_setters() {
    let c = OptimizeConfig::default()
        .key("k")
        .path("/x/p.txt")
        .in_memory(true)
        .readonly(true)
        .max_trials(3)
        .timeout(Duration::from_millis(5))
        .warmup(2)
        .repeats(7);
    assert_eq!(c.key.as_deref(), Some("k"));
    assert_eq!(c.path, Some(PathBuf::from("/x/p.txt")));
    assert!(c.readonly && c.in_memory);
    assert_eq!(
        (c.max_trials, c.timeout, c.warmup, c.repeats),
        (3, Duration::from_millis(5), 2, 7)
    );
    let d = OptimizeConfig::default();
    assert_eq!(
        (d.key, d.path, d.readonly, d.in_memory),
        (None, None, false, false)
    );
    assert_eq!((d.max_trials, d.warmup, d.repeats), (100, 1, 5));
}

#[test]
fn guards_nest_and_drop_out_of_order_per_thread() {
    assert!(!is_active());
    let a = optimize_scope(&memory_only("nest-a")).unwrap();
    let b = optimize_scope(&memory_only("nest-b")).unwrap();
    assert_eq!(current_config().unwrap().key.as_deref(), Some("nest-b"));
    // Another thread is not inside this thread's scopes.
    std::thread::spawn(|| {
        assert!(!is_active());
        assert_eq!(current_config(), None);
        let _c = optimize_scope(&memory_only("nest-c")).unwrap();
        assert_eq!(current_config().unwrap().key.as_deref(), Some("nest-c"));
    })
    .join()
    .unwrap();
    assert_eq!(current_config().unwrap().key.as_deref(), Some("nest-b"));
    // Dropping the outer scope first leaves the inner one in force.
    drop(a);
    assert_eq!(current_config().unwrap().key.as_deref(), Some("nest-b"));
    drop(b);
    assert!(!is_active());
    // The closure form ends its scope, on success and on error.
    let v = optimize(&memory_only("nest-d"), || {
        assert!(is_active());
        Ok::<_, crate::Error>(7)
    })
    .unwrap();
    assert_eq!(v, 7);
    assert!(!is_active());
    let e = optimize(&memory_only("nest-e"), || {
        Err::<(), _>(crate::Error::Value("inside".into()))
    })
    .unwrap_err();
    assert_eq!(e.to_string(), "inside");
    assert!(!is_active());
}

#[test]
fn choose_measures_once_then_reuses_the_fastest() {
    let _g = optimize_scope(&memory_only("choose-once")).unwrap();
    let (p, measured) = pick("k1", |_| true);
    assert_eq!(p, FAST);
    assert_eq!(measured, [H, FAST, SLOW], "the heuristic is measured first");
    assert!(current_scope().unwrap().tuned.get());
    // Later launches of that kernel and shape class read the record.
    let (p, measured) = pick("k1", |_| true);
    assert_eq!((p, measured.len()), (FAST, 0));
    // So does another scope with the key, after this one ends.
    drop(_g);
    let _g = optimize_scope(&memory_only("choose-once")).unwrap();
    assert_eq!(pick("k1", |_| true), (FAST, vec![]));
    // Not one with another key.
    let _h = optimize_scope(&memory_only("choose-other")).unwrap();
    assert_eq!(pick("k1", |_| true).1.len(), 3);
}

#[test]
fn a_record_the_kernel_refuses_is_measured_again() {
    let _g = optimize_scope(&memory_only("choose-refused")).unwrap();
    assert_eq!(pick("k2", |_| true).0, FAST);
    // A later kernel limit (or a planted file) makes FAST invalid.
    let (p, measured) = pick("k2", |c| c != FAST);
    assert_eq!(measured, [H, FAST, SLOW]);
    // `choose` measures what the launcher offers; the launcher's list
    // never holds an invalid candidate, this fake's does.
    assert_eq!(p, FAST);
}

#[test]
fn readonly_never_measures() {
    let _g = optimize_scope(&memory_only("ro").readonly(true)).unwrap();
    let (p, measured) = pick("k3", |_| true);
    assert_eq!((p, measured.len()), (H, 0), "the heuristic, unmeasured");
    assert!(!current_scope().unwrap().tuned.get());
    // A record measured by a writing scope of the key is used.
    {
        let _w = optimize_scope(&memory_only("ro")).unwrap();
        assert_eq!(pick("k3", |_| true).0, FAST);
    }
    assert_eq!(pick("k3", |_| true), (FAST, vec![]));
}

#[test]
fn max_trials_timeout_and_forbidden_synchronization_limit_the_search() {
    let _g = optimize_scope(&memory_only("trials").max_trials(2)).unwrap();
    assert_eq!(pick("k4", |_| true).1, [H, FAST]);
    let _g = optimize_scope(&memory_only("trials-0").max_trials(0)).unwrap();
    assert_eq!(pick("k4", |_| true).1, [H], "the heuristic always runs");
    let _g = optimize_scope(&memory_only("timeout").timeout(Duration::ZERO)).unwrap();
    assert_eq!(pick("k4", |_| true), (H, vec![H]));
    let _g = optimize_scope(&memory_only("nosync")).unwrap();
    let _s = gpu_runtime::allow_synchronize(false);
    assert_eq!(pick("k4", |_| true), (H, vec![]));
}

#[test]
fn a_scope_writes_its_records_and_readonly_does_not() {
    let dir = TempDir::new("write");
    let path = dir.0.join("cache/params.txt");
    let cfg = OptimizeConfig::default().key("file-w").path(&path);
    // Nothing measured: nothing written.
    optimize_scope(&cfg).unwrap().finish().unwrap();
    assert!(!path.exists());
    // A readonly scope that would measure does not write either.
    let g = optimize_scope(&cfg.clone().readonly(true)).unwrap();
    assert_eq!(pick("kw", |_| true).1.len(), 0);
    g.finish().unwrap();
    assert!(!path.exists());
    // Nor does an in-memory one.
    let g = optimize_scope(&cfg.clone().in_memory(true)).unwrap();
    assert_eq!(pick("kw-mem", |_| true).1.len(), 3);
    g.finish().unwrap();
    assert!(!path.exists());
    // A measuring scope writes on finish.
    let g = optimize_scope(&cfg).unwrap();
    assert_eq!(pick("kw", |_| true).0, FAST);
    g.finish().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(HEADER), "{text}");
    assert!(
        text.contains("file-w\tTest GPU sm_90\tkw\tn10\t512\t16"),
        "{text}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "private file: {mode:o}");
    }
    // The file holds every record of the key this process has, the
    // in-memory scope's too (records are shared by the scopes of a key).
    let key = |kernel: &str| RecordKey {
        key: "file-w".into(),
        device: "Test GPU sm_90".into(),
        kernel: kernel.into(),
        shape: "n10".into(),
    };
    let loaded = records::read_file(&path).unwrap().unwrap();
    assert_eq!(loaded, [(key("kw"), FAST), (key("kw-mem"), FAST)]);
    // Another key's scope keeps this record when it writes the file; a
    // dropped guard writes too.
    {
        let _g = optimize_scope(&OptimizeConfig::default().key("file-x").path(&path)).unwrap();
        pick("kx", |_| true);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("file-w\t") && text.contains("file-x\t"),
        "{text}"
    );
}

#[test]
fn a_named_corrupt_file_is_an_error() {
    let dir = TempDir::new("corrupt");
    std::fs::create_dir_all(&dir.0).unwrap();
    let path = dir.0.join("params.txt");
    for text in [
        "garbage".to_string(),
        format!("{HEADER}\nk\td\tk\ts\t100\t8\n"),
        format!("{HEADER}\nk\td\tk\n"),
    ] {
        std::fs::write(&path, &text).unwrap();
        let e = optimize_scope(&OptimizeConfig::default().path(&path)).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("params.txt") && msg.contains("line"), "{msg}");
        assert!(!is_active());
    }
    // Readonly reads too.
    let e = optimize_scope(&OptimizeConfig::default().path(&path).readonly(true));
    assert!(e.is_err());
    // Valid records of a named file are used by a readonly scope.
    std::fs::write(
        &path,
        format!("{HEADER}\nfile-r\tTest GPU sm_90\tkr\tn10\t128\t4\n"),
    )
    .unwrap();
    let cfg = OptimizeConfig::default()
        .key("file-r")
        .path(&path)
        .readonly(true);
    let _g = optimize_scope(&cfg).unwrap();
    assert_eq!(pick("kr", |_| true), (SLOW, vec![]));
    drop(_g);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{HEADER}\nfile-r\tTest GPU sm_90\tkr\tn10\t128\t4\n"),
        "readonly leaves the file as it was"
    );
}
