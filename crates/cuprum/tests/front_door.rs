//! The front door holds everything NumPy-facing: every public item of the
//! layer crates' NumPy-facing modules is reachable as `cuprum::NAME`, as in
//! CuPy every function is `cp.NAME` (submodules such as `linalg` and
//! `testing` keep their own namespace there too, and here).
//!
//! The check reads the crates' sources with `syn` and resolves `pub use`
//! (lists, renames and globs) the way rustc does for these simple cases: a
//! module's public names are the `pub` items it defines and what its `pub
//! use` statements bring in. A new public function in, say,
//! `gpu_array::stats` that the facade does not export fails this test
//! with its name. Host-only: it needs no device.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// A crate's modules, parsed: module path (`["math"]`, `[]` for the root)
/// to its file's items and the file's path.
struct Crate {
    modules: HashMap<Vec<String>, Vec<syn::Item>>,
}

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

impl Crate {
    fn load(name: &str) -> Crate {
        let mut c = Crate {
            modules: HashMap::new(),
        };
        let root = crates_dir().join(name).join("src/lib.rs");
        c.load_module(Vec::new(), &root);
        c
    }

    fn load_module(&mut self, path: Vec<String>, file: &Path) {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let parsed = syn::parse_file(&text)
            .unwrap_or_else(|e| panic!("cannot parse {}: {e}", file.display()));
        // Child modules live beside a `lib.rs`/`mod.rs`, else in a folder
        // named after the file.
        let dir = match file.file_name().and_then(|n| n.to_str()) {
            Some("lib.rs" | "mod.rs") => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        for item in &parsed.items {
            if let syn::Item::Mod(m) = item
                && m.content.is_none()
                && !is_cfg_test(&m.attrs)
            {
                let name = m.ident.to_string();
                let mut child = path.clone();
                child.push(name.clone());
                let flat = dir.join(format!("{name}.rs"));
                let nested = dir.join(&name).join("mod.rs");
                let f = if flat.exists() { flat } else { nested };
                self.load_module(child, &f);
            }
        }
        self.modules.insert(path, parsed.items);
    }
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

fn is_pub(v: &syn::Visibility) -> bool {
    matches!(v, syn::Visibility::Public(_))
}

/// The workspace's layer crates by their Rust names.
struct World {
    crates: HashMap<String, Crate>,
}

/// Where a `use` path leads: a module (of some crate) or a name.
#[derive(Clone, Debug)]
enum Target {
    Module(String, Vec<String>),
    Name,
}

impl World {
    /// The public names of module `path` of crate `krate`.
    fn names(&self, krate: &str, path: &[String], depth: usize) -> BTreeSet<String> {
        assert!(
            depth < 32,
            "re-export cycle at {krate}::{}",
            path.join("::")
        );
        let items = &self.crates[krate].modules[path];
        let mut out = BTreeSet::new();
        for item in items {
            let (vis, ident) = match item {
                syn::Item::Fn(i) => (&i.vis, i.sig.ident.to_string()),
                syn::Item::Struct(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Enum(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Trait(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Type(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Const(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Static(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Mod(i) => (&i.vis, i.ident.to_string()),
                syn::Item::Use(u) if is_pub(&u.vis) => {
                    self.use_names(krate, path, &u.tree, Vec::new(), depth, &mut out);
                    continue;
                }
                _ => continue,
            };
            if is_pub(vis) {
                out.insert(ident);
            }
        }
        out
    }

    fn use_names(
        &self,
        krate: &str,
        at: &[String],
        tree: &syn::UseTree,
        mut prefix: Vec<String>,
        depth: usize,
        out: &mut BTreeSet<String>,
    ) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_names(krate, at, &p.tree, prefix, depth, out);
            }
            syn::UseTree::Name(n) => {
                let name = n.ident.to_string();
                out.insert(if name == "self" {
                    prefix.last().cloned().expect("`self` after a path")
                } else {
                    name
                });
            }
            syn::UseTree::Rename(r) => {
                out.insert(r.rename.to_string());
            }
            syn::UseTree::Glob(_) => {
                if let Target::Module(k, m) = self.resolve(krate, at, &prefix) {
                    out.extend(self.names(&k, &m, depth + 1));
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_names(krate, at, t, prefix.clone(), depth, out);
                }
            }
        }
    }

    /// The module a `use` path names, seen from module `at` of `krate`.
    fn resolve(&self, krate: &str, at: &[String], path: &[String]) -> Target {
        let (mut k, mut m): (String, Vec<String>) = match path.first().map(String::as_str) {
            Some("crate") => (krate.into(), Vec::new()),
            Some("self") => (krate.into(), at.to_vec()),
            Some("super") => (krate.into(), at[..at.len() - 1].to_vec()),
            Some(first) if self.crates.contains_key(first) => (first.into(), Vec::new()),
            Some(first) => {
                let mut child = at.to_vec();
                child.push(first.into());
                if self.crates[krate].modules.contains_key(&child) {
                    (krate.into(), child)
                } else {
                    match self.alias(krate, at, first) {
                        Some(km) => km,
                        None => return Target::Name,
                    }
                }
            }
            None => return Target::Name,
        };
        for seg in &path[1..] {
            let mut child = m.clone();
            child.push(seg.clone());
            if self.crates[&k].modules.contains_key(&child) {
                m = child;
                continue;
            }
            // A module re-exported under a name (`pub use gpu_linalg as
            // linalg`, `pub use gpu_array::creation`).
            match self.alias(&k, &m, seg) {
                Some((k2, m2)) => (k, m) = (k2, m2),
                None => return Target::Name,
            }
        }
        Target::Module(k, m)
    }

    /// The module that name `seg` of module `m` re-exports, if any.
    fn alias(&self, k: &str, m: &[String], seg: &str) -> Option<(String, Vec<String>)> {
        fn find(t: &syn::UseTree, prefix: &mut Vec<String>, seg: &str) -> Option<Vec<String>> {
            match t {
                syn::UseTree::Path(p) => {
                    prefix.push(p.ident.to_string());
                    let r = find(&p.tree, prefix, seg);
                    prefix.pop();
                    r
                }
                syn::UseTree::Name(n) if n.ident == seg => {
                    let mut p = prefix.clone();
                    p.push(seg.into());
                    Some(p)
                }
                syn::UseTree::Rename(r) if r.rename == seg => {
                    let mut p = prefix.clone();
                    p.push(r.ident.to_string());
                    Some(p)
                }
                syn::UseTree::Group(g) => g.items.iter().find_map(|t| find(t, prefix, seg)),
                _ => None,
            }
        }
        for item in &self.crates[k].modules[m] {
            if let syn::Item::Use(u) = item
                && let Some(path) = find(&u.tree, &mut Vec::new(), seg)
            {
                if path.len() == 1 && self.crates.contains_key(&path[0]) {
                    return Some((path[0].clone(), Vec::new()));
                }
                if let Target::Module(k2, m2) = self.resolve(k, m, &path) {
                    return Some((k2, m2));
                }
            }
        }
        None
    }
}

/// The facade and the layer crates whose sources the tests read: each
/// folder under `crates/` and its crate name.
const LAYER_CRATES: [(&str, &str); 7] = [
    ("cuprum", "cuprum"),
    ("gpu-array", "gpu_array"),
    ("gpu-fft", "gpu_fft"),
    ("gpu-linalg", "gpu_linalg"),
    ("gpu-runtime", "gpu_runtime"),
    ("gpu-special", "gpu_special"),
    ("gpu-testing", "gpu_testing"),
];

fn world() -> World {
    let mut crates = HashMap::new();
    for (dir, name) in LAYER_CRATES {
        crates.insert(name.to_string(), Crate::load(dir));
    }
    World { crates }
}

/// gpu-array's modules that hold NumPy's API (NumPy's reference sections);
/// the engines (`elementwise`, `reduction`, `scan`, `fusion`'s internals),
/// `layout`, `npy` and `optimizing` are reached as modules, and their
/// user-facing items are listed in [`ENGINE_ITEMS`].
const NUMPY_MODULES: &[&str] = &[
    "creation",
    "math",
    "stats",
    "sorting",
    "logic",
    "manipulation",
    "indexing",
    "ufunc",
    "polynomial",
    "functional",
    "array",
    "dtype",
];

/// The user-facing items of the engine modules.
const ENGINE_ITEMS: &[&str] = &[
    "ReduceOptions",
    "ReductionKernel",
    "ElementwiseKernel",
    "KernelInput",
    "Typed",
    "fuse",
    "FVar",
    "FuseOptions",
    "fx",
    "Array",
    "DType",
    "Element",
    "Order",
    "Layout",
    "AxisIndex",
    "IndexItem",
    "IntoShape",
    "IntoNewShape",
    "s",
    "ix",
];

/// Public items of the NumPy modules that stay in their module on purpose.
const KEPT_IN_MODULE: &[(&str, &str, &str)] = &[
    // Kernel-building vocabulary of the ufunc machinery, not NumPy's API.
    ("ufunc", "ResolvedLoop", "the ufunc loop machinery"),
    ("ufunc", "UfuncParams", "the ufunc loop machinery"),
    ("ufunc", "scalar_to_bytes", "the ufunc loop machinery"),
    ("ufunc", "apply", "the ufunc loop machinery"),
    ("dtype", "ctype", "C type names for kernel authors"),
    (
        "dtype",
        "from_bytes",
        "byte-level helpers for kernel authors",
    ),
    ("dtype", "to_bytes", "byte-level helpers for kernel authors"),
    ("dtype", "check_cast", "a helper for layer crates"),
    ("dtype", "check_weak_int", "a helper for layer crates"),
    // Each module's kernel lists and host-side index helpers, public for
    // the NVRTC tests and `cargo xtask precompile`.
    ("math", "kernel_specs", "kernel list for the NVRTC tests"),
    ("stats", "cov_dot_kernel", "kernel list for the NVRTC tests"),
    ("stats", "program_source", "kernel list for the NVRTC tests"),
    (
        "sorting",
        "quantile_kernel_of",
        "kernel list for the NVRTC tests",
    ),
    (
        "logic",
        "bit_kernel_specs",
        "kernel list for the NVRTC tests",
    ),
    ("logic", "kernel_specs", "kernel list for the NVRTC tests"),
    (
        "indexing",
        "kernel_specs",
        "kernel list for the NVRTC tests",
    ),
    (
        "indexing",
        "routine_kernel_specs",
        "kernel list for the NVRTC tests",
    ),
    (
        "manipulation",
        "pad_indices",
        "host index helper, tested against NumPy",
    ),
    (
        "manipulation",
        "repeat_indices",
        "host index helper, tested against NumPy",
    ),
    (
        "manipulation",
        "roll_amounts",
        "host index helper, tested against NumPy",
    ),
    (
        "manipulation",
        "split_bounds",
        "host index helper, tested against NumPy",
    ),
    (
        "manipulation",
        "stat_lengths",
        "host index helper, tested against NumPy",
    ),
    (
        "indexing",
        "ravel_multi_index_scalar",
        "host index helper, tested against NumPy",
    ),
    (
        "indexing",
        "ravel_strides",
        "host index helper, tested against NumPy",
    ),
    (
        "indexing",
        "unravel_index_scalar",
        "host index helper, tested against NumPy",
    ),
    ("functional", "condition_shape", "host helper of piecewise"),
    ("functional", "piecewise_arity", "host helper of piecewise"),
    ("functional", "PieceFn", "the closure type of piecewise"),
    (
        "math",
        "rsqrt",
        "cupyx.rsqrt: cuprum::math::rsqrt, as CuPy keeps it in cupyx",
    ),
    (
        "array",
        "PendingHost",
        "the handle of an asynchronous copy, reached as a method's result",
    ),
];

#[test]
fn every_numpy_facing_item_is_reachable_from_cuprum() {
    let w = world();
    let front = w.names("cuprum", &[], 0);
    let kept: BTreeSet<(&str, &str)> = KEPT_IN_MODULE.iter().map(|&(m, n, _)| (m, n)).collect();
    let mut missing = Vec::new();
    for module in NUMPY_MODULES {
        let names = w.names("gpu_array", &[module.to_string()], 0);
        assert!(
            !names.is_empty(),
            "gpu_array::{module} has no public items?"
        );
        for n in names {
            // Submodules of a section (`polynomial::polynomial`,
            // `math::special`) are reached through the section's module.
            let is_module = w.crates["gpu_array"]
                .modules
                .contains_key(&vec![module.to_string(), n.clone()]);
            if !is_module && !kept.contains(&(*module, n.as_str())) && !front.contains(&n) {
                missing.push(format!("gpu_array::{module}::{n}"));
            }
        }
    }
    for n in ENGINE_ITEMS {
        if !front.contains(*n) {
            missing.push(format!("{n} (an engine's user-facing item)"));
        }
    }
    // gpu-linalg's top-level NumPy functions that CuPy has at `cp.` (the
    // rest stays under `cp::linalg`, as `cp.linalg`).
    for n in [
        "matmul",
        "dot",
        "vdot",
        "inner",
        "outer",
        "tensordot",
        "einsum",
        "kron",
        "trace",
        "cross",
        "roots",
        "polyfit",
    ] {
        if !front.contains(n) {
            missing.push(format!("gpu_linalg::{n}"));
        }
    }
    assert!(
        missing.is_empty(),
        "not reachable as cuprum::NAME (export them in crates/cuprum/src/lib.rs, or list them \
         in KEPT_IN_MODULE with the reason):\n  {}",
        missing.join("\n  ")
    );
}

#[test]
fn the_resolver_sees_renames_globs_and_module_aliases() {
    let w = world();
    let front = w.names("cuprum", &[], 0);
    // `pub use gpu_linalg as linalg`, a glob (`gpu_array::ufunc::*`) and a
    // list.
    // (The ufuncs themselves are made by a macro, which the resolver does
    // not expand: the `ufunc::*` glob covers them, `call` stands for it.)
    for n in [
        "linalg",
        "cuda",
        "call",
        "UfuncOptions",
        "sum",
        "Error",
        "Result",
    ] {
        assert!(front.contains(n), "{n}");
    }
    assert!(matches!(
        w.resolve("cuprum", &[], &["linalg".into()]),
        Target::Module(k, m) if k == "gpu_linalg" && m.is_empty()
    ));
    assert!(matches!(
        w.resolve("cuprum", &[], &["gpu_array".into(), "nothing_here".into()]),
        Target::Name
    ));
}

/// Public functions that go without a doc example, with the reason. Kept
/// short: a new public function gets an example (`no_run` where it needs
/// a GPU, compiled by `cargo test --doc`), not an entry here.
const NO_EXAMPLE: &[(&str, &str)] = &[];

/// A crate's public surface as far as the doc-example check needs it: the
/// names its `pub use` statements bring in (a glob brings in its module)
/// and the public types it defines.
struct Surface {
    reexported: BTreeSet<String>,
    globbed: BTreeSet<String>,
    types: BTreeSet<String>,
}

fn has_doc_example(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc")
            && matches!(&a.meta, syn::Meta::NameValue(nv)
                if matches!(&nv.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. })
                    if s.value().contains("```")))
    })
}

fn is_doc_hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("doc") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "hidden")
    })
}

fn use_names(tree: &syn::UseTree, s: &mut Surface, last: Option<String>) {
    match tree {
        syn::UseTree::Path(p) => use_names(&p.tree, s, Some(p.ident.to_string())),
        syn::UseTree::Name(n) if n.ident == "self" => s.reexported.extend(last),
        syn::UseTree::Name(n) => {
            s.reexported.insert(n.ident.to_string());
        }
        syn::UseTree::Rename(r) => {
            s.reexported.insert(r.ident.to_string());
        }
        // `pub use module::*`: the module's public items are public.
        syn::UseTree::Glob(_) => s.globbed.extend(last),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_names(t, s, last.clone());
            }
        }
    }
}

/// Every file module of crate directory `dir`, with whether the module is
/// public all the way up (`pub mod` in `pub mod`s).
fn crate_modules(dir: &str) -> Vec<(Vec<String>, bool, Vec<syn::Item>)> {
    let c = Crate::load(dir);
    let mut out: Vec<_> = c
        .modules
        .iter()
        .map(|(path, items)| {
            let public = (1..=path.len()).all(|n| {
                let (parent, name) = (&path[..n - 1], &path[n - 1]);
                c.modules[parent]
                    .iter()
                    .any(|i| matches!(i, syn::Item::Mod(m) if m.ident == name && is_pub(&m.vis)))
            });
            (path.clone(), public, items.clone())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn surface(modules: &[(Vec<String>, bool, Vec<syn::Item>)]) -> Surface {
    let mut s = Surface {
        reexported: BTreeSet::new(),
        globbed: BTreeSet::new(),
        types: BTreeSet::new(),
    };
    // Every `pub use` counts, wherever it sits: a private module's
    // re-export may be re-exported again above it.
    fn walk(items: &[syn::Item], s: &mut Surface) {
        for item in items {
            match item {
                syn::Item::Use(u) if is_pub(&u.vis) => use_names(&u.tree, s, None),
                syn::Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                    if let Some((_, inner)) = &m.content {
                        walk(inner, s);
                    }
                }
                _ => {}
            }
        }
    }
    for (_, _, items) in modules {
        walk(items, &mut s);
    }
    // A type is public when its module is, or when a `pub use` names it
    // or globs its module.
    for (path, public, items) in modules {
        let module_exported = path.last().is_some_and(|m| s.globbed.contains(m));
        for item in items {
            let (vis, ident) = match item {
                syn::Item::Struct(i) => (&i.vis, &i.ident),
                syn::Item::Enum(i) => (&i.vis, &i.ident),
                syn::Item::Union(i) => (&i.vis, &i.ident),
                _ => continue,
            };
            let name = ident.to_string();
            if is_pub(vis) && (*public || module_exported || s.reexported.contains(&name)) {
                s.types.insert(name);
            }
        }
    }
    s
}

/// The public functions of `items` (free functions and inherent methods)
/// that have no doc example, as `crate::module::[Type::]name`.
fn undocumented(
    krate: &str,
    path: &[String],
    public: bool,
    items: &[syn::Item],
    s: &Surface,
    out: &mut Vec<String>,
) {
    let module_exported = path.last().is_some_and(|m| s.globbed.contains(m));
    let here = |name: &str| {
        let mut p = vec![krate.to_string()];
        p.extend(path.iter().cloned());
        p.push(name.to_string());
        p.join("::")
    };
    for item in items {
        match item {
            syn::Item::Fn(f) => {
                let name = f.sig.ident.to_string();
                if is_pub(&f.vis)
                    && (public || module_exported || s.reexported.contains(&name))
                    && !is_cfg_test(&f.attrs)
                    && !is_doc_hidden(&f.attrs)
                    && !has_doc_example(&f.attrs)
                {
                    out.push(here(&name));
                }
            }
            syn::Item::Impl(imp) if imp.trait_.is_none() && !is_cfg_test(&imp.attrs) => {
                let syn::Type::Path(ty) = &*imp.self_ty else {
                    continue;
                };
                let ty = ty.path.segments.last().unwrap().ident.to_string();
                if !s.types.contains(&ty) {
                    continue;
                }
                for i in &imp.items {
                    if let syn::ImplItem::Fn(f) = i
                        && is_pub(&f.vis)
                        && !is_cfg_test(&f.attrs)
                        && !is_doc_hidden(&f.attrs)
                        && !has_doc_example(&f.attrs)
                    {
                        out.push(here(&format!("{ty}::{}", f.sig.ident)));
                    }
                }
            }
            syn::Item::Mod(m) if !is_cfg_test(&m.attrs) => {
                if let Some((_, inner)) = &m.content {
                    let mut p = path.to_vec();
                    p.push(m.ident.to_string());
                    undocumented(krate, &p, public && is_pub(&m.vis), inner, s, out);
                }
            }
            _ => {}
        }
    }
}

/// Every public function of the facade and the layer crates it re-exports
/// shows itself at work in its docs: a code block that `cargo test --doc`
/// compiles (and runs, where it needs no GPU).
#[test]
fn every_public_function_has_a_doc_example() {
    let mut missing = Vec::new();
    for (dir, name) in LAYER_CRATES {
        let modules = crate_modules(dir);
        let s = surface(&modules);
        for (path, public, items) in &modules {
            undocumented(name, path, *public, items, &s, &mut missing);
        }
    }
    let excused: BTreeSet<&str> = NO_EXAMPLE.iter().map(|&(n, _)| n).collect();
    let stale: Vec<_> = excused
        .iter()
        .filter(|n| !missing.iter().any(|m| m == *n))
        .collect();
    missing.retain(|m| !excused.contains(m.as_str()));
    assert!(
        missing.is_empty(),
        "{} public functions have no doc example (add one, `no_run` where it needs a GPU):\n{}",
        missing.len(),
        missing.join("\n")
    );
    assert!(
        stale.is_empty(),
        "NO_EXAMPLE lists functions that now have an example or are gone: {stale:?}"
    );
}
