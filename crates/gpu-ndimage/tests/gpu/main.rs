//! gpu-ndimage on a real GPU, one test binary: the boundary modes' device
//! arithmetic against the host's (`modes`), and every filter
//! (`filters`, `fourier`), interpolation (`interp`), morphology
//! (`morphology`, `binary`), measurement (`measurements`) and distance
//! transform (`distance`) against SciPy's outputs, and the tiled kernels
//! on arrays of many tiles against host loops (`tiled`). Each test skips with a
//! reason without a GPU.

mod binary;
mod distance;
mod filters;
mod fourier;
mod interp;
mod measurements;
mod modes;
mod morphology;
mod tiled;

/// The device, or `None` (the test then returns early, having printed why).
fn gpu() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}

/// A golden archive of `testdata/`, member name to array.
type Golden = std::collections::HashMap<String, gpu_array::npy::NpyArray>;

/// The archive `file` of `testdata/`.
fn golden(file: &str) -> Golden {
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(file);
    gpu_testing::npz_members(p)
}

/// The cases of `kind` in an archive whose members are
/// `<kind>__<key>=<value>__...<.member>` (outputs `.y`): (name, params),
/// sorted by name.
fn cases<'g>(
    g: &'g Golden,
    kind: &str,
) -> Vec<(&'g str, std::collections::HashMap<&'g str, &'g str>)> {
    let mut names: Vec<&str> = g
        .keys()
        .filter(|k| k.starts_with(&format!("{kind}__")) && k.ends_with(".y"))
        .map(|k| k.trim_end_matches(".y"))
        .collect();
    names.sort_unstable();
    names
        .into_iter()
        .map(|n| {
            let params = n
                .split("__")
                .skip(1)
                .filter_map(|kv| kv.split_once('='))
                .collect();
            (n, params)
        })
        .collect()
}
