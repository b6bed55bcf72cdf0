//! Tuned launch parameters: the in-process store and the file they are
//! kept in between processes.
//!
//! A record maps (optimize key, device, kernel, shape class) to the
//! parameters that ran fastest. The file is text, one record a line, so a
//! person can read it and a diff shows what changed:
//!
//! ```text
//! cuprum-launch-params 1
//! <key>\t<device>\t<kernel>\t<shape class>\t<block>\t<blocks per SM>
//! ```
//!
//! The four names are escaped (`%` as `%25`, tab `%09`, line feed `%0A`,
//! carriage return `%0D`); lines starting with `#` and empty lines are
//! skipped. A file is read whole or not at all: a wrong first line, a line
//! that does not parse or a file above [`MAX_FILE_BYTES`] is an error that
//! names the file and the line, never a panic. The values are checked
//! against what any launcher accepts (a block a multiple of 32 up to 1024,
//! at most [`MAX_BLOCKS_PER_SM`] blocks per multiprocessor); whether a
//! record fits a given kernel is the launcher's check, and a record that
//! does not is ignored, so a hostile file can at worst slow a launch down.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, Result};

/// The first line of a version-1 file.
pub(crate) const HEADER: &str = "cuprum-launch-params 1";
/// Files larger than this are refused unread.
pub(crate) const MAX_FILE_BYTES: u64 = 8 << 20;
/// Largest blocks-per-multiprocessor cap a record may hold.
pub(crate) const MAX_BLOCKS_PER_SM: u32 = 1024;

/// The launch geometry a tuned launcher chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct LaunchParams {
    /// Threads per block.
    pub(crate) block: u32,
    /// The grid's cap in blocks per multiprocessor; 0: no cap beyond the
    /// work's own block count.
    pub(crate) blocks_per_sm: u32,
}

impl LaunchParams {
    /// Whether any launcher could use these values.
    pub(crate) fn in_range(self) -> bool {
        (32..=1024).contains(&self.block)
            && self.block.is_multiple_of(32)
            && self.blocks_per_sm <= MAX_BLOCKS_PER_SM
    }
}

/// What a record is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct RecordKey {
    /// The scope's `key` (empty for none).
    pub(crate) key: String,
    /// The device's name and architecture (`NVIDIA H200 sm_90`).
    pub(crate) device: String,
    /// The kernel: its name and a hash of its source.
    pub(crate) kernel: String,
    /// The shape class the parameters were measured for.
    pub(crate) shape: String,
}

/// One record.
pub(crate) type Record = (RecordKey, LaunchParams);

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\t' => out.push_str("%09"),
            '\n' => out.push_str("%0A"),
            '\r' => out.push_str("%0D"),
            c => out.push(c),
        }
    }
}

fn unescape(s: &str) -> std::result::Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('%') {
        out.push_str(&rest[..i]);
        let code = rest
            .get(i + 1..i + 3)
            .ok_or("a '%' not followed by two hex digits")?;
        out.push(match code {
            "25" => '%',
            "09" => '\t',
            "0A" | "0a" => '\n',
            "0D" | "0d" => '\r',
            _ => return Err(format!("an unknown escape '%{code}'")),
        });
        rest = &rest[i + 3..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The text of a file holding `records`, sorted (the same records always
/// give the same bytes).
pub(crate) fn render(records: &[Record]) -> String {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort();
    let mut s = String::new();
    s.push_str(HEADER);
    s.push_str("\n# key\tdevice\tkernel\tshape class\tblock\tblocks per SM (0: uncapped)\n");
    for (k, p) in sorted {
        for field in [&k.key, &k.device, &k.kernel, &k.shape] {
            escape(field, &mut s);
            s.push('\t');
        }
        let _ = writeln!(s, "{}\t{}", p.block, p.blocks_per_sm);
    }
    s
}

/// The records of a file's text; the error says which line is wrong and
/// why. A key repeated later replaces the earlier record.
pub(crate) fn parse(text: &str) -> std::result::Result<Vec<Record>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == HEADER => {}
        Some((_, first)) => {
            let shown: String = first.chars().take(40).collect();
            return Err(format!(
                "line 1: expected '{HEADER}', found '{}'",
                shown.escape_debug()
            ));
        }
        None => return Err(format!("the file is empty (expected '{HEADER}')")),
    }
    let mut out: Vec<Record> = Vec::new();
    let mut seen: HashMap<RecordKey, usize> = HashMap::new();
    for (n, line) in lines {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| format!("line {}: {why}", n + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 6 {
            return Err(at(format!(
                "{} tab-separated fields where 6 are expected",
                fields.len()
            )));
        }
        let mut names = Vec::with_capacity(4);
        for f in &fields[..4] {
            names.push(unescape(f).map_err(at)?);
        }
        if names[1..].iter().any(String::is_empty) {
            return Err(at("an empty device, kernel or shape class".into()));
        }
        let number = |f: &str, what: &str| {
            f.parse::<u32>()
                .map_err(|_| at(format!("{what} '{}' is not a number", f.escape_debug())))
        };
        let params = LaunchParams {
            block: number(fields[4], "block")?,
            blocks_per_sm: number(fields[5], "blocks per SM")?,
        };
        if !params.in_range() {
            return Err(at(format!(
                "block {} / blocks per SM {} out of range (a block is a multiple of 32 from 32 \
                 to 1024, at most {MAX_BLOCKS_PER_SM} blocks per SM)",
                params.block, params.blocks_per_sm
            )));
        }
        let mut it = names.into_iter();
        let key = RecordKey {
            key: it.next().unwrap_or_default(),
            device: it.next().unwrap_or_default(),
            kernel: it.next().unwrap_or_default(),
            shape: it.next().unwrap_or_default(),
        };
        match seen.get(&key) {
            Some(&i) => out[i].1 = params,
            None => {
                seen.insert(key.clone(), out.len());
                out.push((key, params));
            }
        }
    }
    Ok(out)
}

/// The records of the file at `path`; `None` when there is no file.
///
/// # Errors
/// [`Error::Value`] naming the file for one that cannot be read, is too
/// large, is not UTF-8 or does not parse.
pub(crate) fn read_file(path: &Path) -> Result<Option<Vec<Record>>> {
    let bad =
        |why: String| Error::Value(format!("launch parameter file {}: {why}", path.display()));
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(bad(format!("cannot be opened: {e}"))),
    };
    let meta = file
        .metadata()
        .map_err(|e| bad(format!("cannot be read: {e}")))?;
    if !meta.is_file() {
        return Err(bad("is not a regular file".into()));
    }
    let mut bytes = Vec::new();
    // One byte past the limit tells a file that grew while being read.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| bad(format!("cannot be read: {e}")))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(bad(format!("is larger than {} MiB", MAX_FILE_BYTES >> 20)));
    }
    let text = String::from_utf8(bytes).map_err(|_| bad("is not UTF-8 text".into()))?;
    parse(&text).map(Some).map_err(bad)
}

/// Writes `records` to `path` atomically (a temporary file renamed over
/// it) in a folder the kernel cache's policy accepts (created with mode
/// 0700 if missing; refused when other users could write to it).
///
/// # Errors
/// The folder is refused, or writing failed.
pub(crate) fn write_file(path: &Path, records: &[Record]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let bad =
        |why: String| Error::Value(format!("launch parameter file {}: {why}", path.display()));
    gpu_runtime::nvrtc::cache::prepare_cache_dir(dir)
        .map_err(|e| bad(format!("its folder {e}")))?;
    gpu_runtime::nvrtc::cache::write_atomic(path, render(records).as_bytes())
        .map_err(|e| bad(format!("cannot be written: {e}")))
}

/// Every record measured or loaded by this process. Process-wide like the
/// kernel cache, because a record is a measurement, not a setting: it is
/// read only by launches inside an `optimize` scope with the record's key,
/// and whichever valid record such a launch finds, its result is the same
/// (only the launch geometry differs).
static STORE: Mutex<Option<HashMap<RecordKey, LaunchParams>>> = Mutex::new(None);

fn store() -> MutexGuard<'static, Option<HashMap<RecordKey, LaunchParams>>> {
    // A panic while holding the lock cannot leave the map inconsistent.
    STORE.lock().unwrap_or_else(|p| p.into_inner())
}

/// The record for `key`, if any.
pub(crate) fn lookup(key: &RecordKey) -> Option<LaunchParams> {
    store().as_ref()?.get(key).copied()
}

/// Stores a measured record (replacing any).
pub(crate) fn insert(key: RecordKey, params: LaunchParams) {
    store().get_or_insert_with(HashMap::new).insert(key, params);
}

/// Adds loaded records where this process has none: what it measured
/// itself stays.
pub(crate) fn merge_missing(records: Vec<Record>) {
    let mut s = store();
    let map = s.get_or_insert_with(HashMap::new);
    for (k, p) in records {
        map.entry(k).or_insert(p);
    }
}

/// The records of optimize key `key`.
pub(crate) fn of_key(key: &str) -> Vec<Record> {
    store().as_ref().map_or_else(Vec::new, |m| {
        m.iter()
            .filter(|(k, _)| k.key == key)
            .map(|(k, p)| (k.clone(), *p))
            .collect()
    })
}

/// Forgets every record this process measured or loaded (files stay), so
/// that the next `optimize` scope loads its file again and measures what
/// it lacks.
///
/// ```
/// use gpu_array::optimizing::{OptimizeConfig, clear_memory_records, optimize_scope};
/// clear_memory_records(); // the next scope reads its file again
/// let scope = optimize_scope(&OptimizeConfig::default().in_memory(true))?;
/// scope.finish()?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
pub fn clear_memory_records() {
    *store() = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(key: &str, kernel: &str, block: u32, bps: u32) -> Record {
        (
            RecordKey {
                key: key.into(),
                device: "NVIDIA H200 sm_90".into(),
                kernel: kernel.into(),
                shape: "o10r20".into(),
            },
            LaunchParams {
                block,
                blocks_per_sm: bps,
            },
        )
    }

    #[test]
    fn round_trip_is_exact_and_sorted() {
        let records = vec![
            rec("", "cuprum_sum_f32-00ff", 512, 16),
            rec("odd\tkey\n%with\rall", "k%09", 128, 0),
            rec("a", "cuprum_add-1234", 1024, 4),
        ];
        let text = render(&records);
        assert!(text.starts_with("cuprum-launch-params 1\n"));
        let mut back = parse(&text).unwrap();
        let mut want = records.clone();
        back.sort();
        want.sort();
        assert_eq!(back, want);
        // Sorted output: the same records in any order give the same text.
        let mut reversed = records;
        reversed.reverse();
        assert_eq!(render(&reversed), text);
        // Every escaped name stays on its own line.
        assert_eq!(text.lines().count(), 2 + 3);
    }

    #[test]
    fn later_lines_replace_earlier_ones_and_comments_are_skipped() {
        let text =
            format!("{HEADER}\r\n# comment\n\nk\tdev\tker\ts\t256\t8\r\nk\tdev\tker\ts\t512\t4\n");
        let r = parse(&text).unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(
            r[0].1,
            LaunchParams {
                block: 512,
                blocks_per_sm: 4
            }
        );
        assert_eq!(parse(HEADER).unwrap(), Vec::new());
    }

    #[test]
    fn corrupt_files_are_errors_that_name_the_line() {
        let cases: [(&str, &str); 11] = [
            ("", "empty"),
            ("cuprum-launch-params 2\n", "line 1"),
            ("\u{0}\u{1}binary", "line 1"),
            ("k\td\tk\ts\t256\t8", "line 1"),
            (
                "HEADER\nk\td\tk\ts\t256\n",
                "line 2: 5 tab-separated fields",
            ),
            ("HEADER\n\nk\td\tk\ts\t256\t8\t9\n", "line 3: 7"),
            ("HEADER\nk\td\tk\ts\t257\t8\n", "line 2: block 257"),
            ("HEADER\nk\td\tk\ts\t2048\t8\n", "out of range"),
            (
                "HEADER\nk\td\tk\ts\t-256\t8\n",
                "block '-256' is not a number",
            ),
            ("HEADER\nk%zz\td\tk\ts\t256\t8\n", "unknown escape '%zz'"),
            ("HEADER\nk\t\tk\ts\t256\t8\n", "empty device"),
        ];
        for (text, want) in cases {
            let text = text.replace("HEADER", HEADER);
            let e = parse(&text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        let e = parse(&format!("{HEADER}\nk%2\td\tk\ts\t256\t8\n")).unwrap_err();
        assert!(e.contains("two hex digits"), "{e}");
        let e = parse(&format!("{HEADER}\nk\td\tk\ts\t256\t99999\n")).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
        let huge = format!("{HEADER}\nk\td\tk\ts\t256\t{}\n", u64::MAX);
        assert!(parse(&huge).unwrap_err().contains("not a number"));
    }

    #[test]
    fn files_round_trip_and_bad_files_are_named() {
        let dir = std::env::temp_dir().join(format!(
            "cuprum-optimize-records-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub/params.txt");
        assert_eq!(
            read_file(&path).unwrap(),
            None,
            "a missing file is no records"
        );
        let records = vec![rec("k", "a-1", 512, 8), rec("k", "b-2", 128, 0)];
        write_file(&path, &records).unwrap();
        let mut back = read_file(&path).unwrap().unwrap();
        back.sort();
        let mut want = records.clone();
        want.sort();
        assert_eq!(back, want);
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["params.txt"]);
        // Corrupt content: an error naming the file and the line.
        std::fs::write(&path, format!("{HEADER}\nnot a record\n")).unwrap();
        let e = read_file(&path).unwrap_err().to_string();
        assert!(e.contains("params.txt") && e.contains("line 2"), "{e}");
        std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        let e = read_file(&path).unwrap_err().to_string();
        assert!(e.contains("not UTF-8"), "{e}");
        // A folder where the file should be.
        let e = read_file(path.parent().unwrap()).unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        // Too large: refused unread.
        let big = std::fs::File::create(&path).unwrap();
        big.set_len(MAX_FILE_BYTES + 1).unwrap();
        drop(big);
        let e = read_file(&path).unwrap_err().to_string();
        assert!(e.contains("larger than 8 MiB"), "{e}");
        #[cfg(unix)]
        {
            // A folder others may write to is refused for writing.
            use std::os::unix::fs::PermissionsExt;
            let open = dir.join("open");
            std::fs::create_dir_all(&open).unwrap();
            std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
            let e = write_file(&open.join("p.txt"), &records)
                .unwrap_err()
                .to_string();
            assert!(e.contains("writable by group or others"), "{e}");
            assert!(!open.join("p.txt").exists());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
