//! `cargo xtask golden [OUTDIR]`: regenerate the NumPy oracles of the GPU
//! tests. Each generator is a Python script committed next to the files it
//! writes; it needs NumPy 2 (`python3 -m pip install 'numpy==2.*'`; SciPy and
//! mpmath for gpu-special's), the
//! tests that read its files do not. `PYTHON` picks the interpreter
//! (default `python3`); OUTDIR, when given, receives every generator's
//! files instead of its own folder (to compare before committing).

use std::process::Command;

use crate::nvrtc_setup::workspace_root;

/// The generator scripts, relative to the workspace root; each writes into
/// its own folder.
const GENERATORS: &[&str] = &[
    "crates/gpu-array/testdata/ufunc/make_golden.py",
    "crates/gpu-array/testdata/scan/make_golden.py",
    "crates/gpu-array/testdata/creation/make.py",
    "crates/gpu-array/testdata/reduction/make_golden.py",
    "crates/gpu-array/testdata/manip/make_golden.py",
    "crates/gpu-array/testdata/sort/make_golden.py",
    "crates/gpu-array/testdata/math/make_golden.py",
    "crates/gpu-array/testdata/quantile/make_golden.py",
    "crates/gpu-array/testdata/indexing/make_golden.py",
    "crates/gpu-linalg/testdata/linalg/make_golden.py",
    "crates/gpu-array/testdata/idxr/make_golden.py",
    "crates/gpu-array/testdata/dtype/make_golden.py",
    "crates/gpu-fft/testdata/fft/make_golden.py",
    "crates/gpu-special/testdata/make_golden.py",
    "crates/gpu-ndimage/testdata/make_golden.py",
    "crates/gpu-ndimage/testdata/make_golden_interp.py",
    "crates/gpu-ndimage/testdata/make_golden_fourier.py",
    "crates/gpu-ndimage/testdata/make_golden_binary.py",
    "crates/gpu-signal/testdata/make_golden.py",
    "crates/gpu-signal/testdata/make_golden_spectral.py",
    "crates/gpu-signal/testdata/make_golden_lombscargle.py",
    "crates/gpu-signal/testdata/make_golden_filtering.py",
    "crates/gpu-signal/testdata/make_golden_design_order.py",
    "crates/gpu-signal/testdata/make_golden_peaks.py",
    "crates/gpu-signal/testdata/make_golden_lti.py",
    "crates/gpu-ndimage/testdata/make_golden_measure.py",
    "crates/gpu-ndimage/testdata/make_golden_distance.py",
];

pub fn run(args: &[String]) -> Result<(), String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    for script in GENERATORS {
        let script = workspace_root().join(script);
        let out = match args.first() {
            Some(dir) => std::path::PathBuf::from(dir),
            None => script
                .parent()
                .expect("a generator lives in a folder")
                .to_path_buf(),
        };
        let mut cmd = Command::new(&python);
        cmd.arg(&script).arg(&out);
        crate::run_status(cmd)?;
    }
    Ok(())
}
