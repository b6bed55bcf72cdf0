//! NumPy's stored outputs: the `.npz` golden files that each crate's
//! `testdata/*/make_golden.py` writes.
//!
//! Every GPU test file that checks against such a file read it the same
//! way (load, index by name, panic on a bad file); one loader keeps that
//! in one place and names the file and how to rebuild it when it is
//! missing or malformed.

use std::collections::HashMap;
use std::path::Path;

use gpu_array::npy::{NpyArray, load_npz};

/// The members of the golden file at `path` by name, without the `.npy`
/// suffix that `np.savez` gives each one (`"in.a"`, not `"in.a.npy"`:
/// [`load_npz`] names them as NumPy's `NpzFile` keys do).
///
/// Pass the file's full path, usually
/// `Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/…/…_golden.npz")`,
/// so that it resolves in the calling crate.
///
/// ```
/// use gpu_array::npy::{NpyArray, save_npz};
/// let path = std::env::temp_dir().join(format!("golden-{}.npz", std::process::id()));
/// save_npz(&path, &[("in.a", &NpyArray::from_slice(&[2], &[1.0f64, 2.0]).unwrap())], false).unwrap();
/// let members = gpu_testing::npz_members(&path);
/// assert_eq!(members["in.a"].to_vec::<f64>().unwrap(), [1.0, 2.0]);
/// # std::fs::remove_file(path).unwrap();
/// ```
///
/// # Panics
///
/// When the file cannot be read or is not a valid `.npz` archive; the
/// message names the file (a test's setup failing is a test failure).
#[track_caller]
pub fn npz_members(path: impl AsRef<Path>) -> HashMap<String, NpyArray> {
    let path = path.as_ref();
    load_npz(path)
        .unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e} (regenerate with `cargo xtask golden`)",
                path.display()
            )
        })
        .into_iter()
        .collect()
}
