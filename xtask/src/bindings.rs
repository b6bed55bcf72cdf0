//! `cargo xtask bindgen`: regenerates `crates/gpu-sys/src/generated/*.rs`.
//!
//! bindgen turns each header into Rust types and `extern "C"` declarations;
//! the declarations are then rewritten into one `dynamic_fns!` list per
//! library, so every function resolves lazily through gpu-sys's loader and a
//! missing symbol is an error rather than a link failure or a panic.

use std::path::PathBuf;
use std::process::Command;

use crate::nvrtc_setup::workspace_root;

/// The wheels that carry the CUDA 13 headers.
const HEADER_WHEELS: &[&str] = &[
    "nvidia-cuda-runtime==13.0.96",
    "nvidia-cuda-crt==13.0.88",
    "nvidia-cuda-nvrtc==13.0.88",
    "nvidia-cublas==13.0.2.14",
    "nvidia-cufft==12.0.0.61",
    "nvidia-cusparse==12.6.3.3",
    "nvidia-curand==10.4.0.35",
    "nvidia-cusolver==12.0.4.66",
    "nvidia-nccl-cu13==2.28.3",
    "nvidia-nvtx==13.0.85",
];

/// Keeps cuda_fp16.h and cuda_bf16.h out (they need CCCL's headers, which
/// the wheels lack) and declares their two storage types, which is all the
/// library headers use of them.
const PRELUDE: &str = "#define __CUDA_FP16_H__\n#define __CUDA_BF16_H__\n\
typedef struct __half { unsigned short x; } __half;\n\
typedef struct __half2 { unsigned short x, y; } __half2;\n\
typedef struct __nv_bfloat16 { unsigned short x; } __nv_bfloat16;\n\
typedef struct __nv_bfloat162 { unsigned short x, y; } __nv_bfloat162;\n";

struct Lib {
    /// Module (and file) name in gpu-sys.
    module: &'static str,
    /// Headers to include, relative to an include folder.
    headers: &'static [&'static str],
    /// Regex of the functions, types and constants that belong to this library.
    allow: &'static str,
    /// Extra preprocessor definitions.
    defines: &'static [&'static str],
    /// C declarations appended to the headers (for headers the wheels lack).
    extra: &'static str,
}

const LIBS: &[Lib] = &[
    Lib {
        module: "cuda",
        headers: &["cuda.h"],
        allow: "^(cu[A-Z].*|CU.*|cuuint.*)$",
        defines: &[],
        // cudaProfiler.h ships with the toolkit, not the wheels; these two
        // are all it declares for the driver API.
        extra: "CUresult cuProfilerStart(void);\nCUresult cuProfilerStop(void);\n",
    },
    Lib {
        module: "nvrtc",
        headers: &["nvrtc.h"],
        allow: "^nvrtc.*$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "cublas",
        headers: &["cublas_v2.h"],
        allow: "^(cublas[A-Z].*|CUBLAS.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "cublaslt",
        headers: &["cublasLt.h"],
        allow: "^(cublasLt.*|CUBLASLT.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "cufft",
        headers: &["cufft.h"],
        allow: "^(cufft.*|CUFFT.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "curand",
        headers: &["curand.h"],
        allow: "^(curand.*|CURAND.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "cusparse",
        headers: &["cusparse.h"],
        allow: "^(cusparse.*|CUSPARSE.*)$",
        defines: &["DISABLE_CUSPARSE_DEPRECATED"],
        extra: "",
    },
    Lib {
        module: "cusolver",
        headers: &["cusolverDn.h", "cusolverSp.h"],
        allow: "^(cusolver.*|CUSOLVER.*|csrqr.*|syevjInfo.*|gesvdjInfo.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "nccl",
        headers: &["nccl.h"],
        allow: "^(nccl.*|NCCL.*)$",
        defines: &[],
        extra: "",
    },
    Lib {
        module: "nvtx",
        headers: &["nvtx3/nvToolsExt.h"],
        allow: "^(nvtx[A-Z].*|NVTX.*)$",
        defines: &["NVTX_NO_IMPL"],
        extra: "",
    },
];

pub fn run(args: &[String]) -> Result<(), String> {
    let include_dirs = match args {
        [flag, dir] if flag == "--include" => {
            vec![PathBuf::from(dir)]
        }
        [] => fetch_headers()?,
        _ => return Err("usage: cargo xtask bindgen [--include DIR]".to_string()),
    };
    let out_dir = workspace_root().join("crates/gpu-sys/src/generated");
    std::fs::create_dir_all(&out_dir).map_err(|e| e.to_string())?;
    for lib in LIBS {
        let text = generate(lib, &include_dirs)?;
        let path = out_dir.join(format!("{}.rs", lib.module));
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("xtask: wrote {}", path.display());
    }
    Ok(())
}

/// Downloads the header wheels into `.cuprum/headers` and returns their
/// include folders.
fn fetch_headers() -> Result<Vec<PathBuf>, String> {
    let root = workspace_root().join(".cuprum").join("headers");
    let wheels = root.join("wheels");
    std::fs::create_dir_all(&wheels).map_err(|e| e.to_string())?;
    let status = Command::new("python3")
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "-d"])
        .arg(&wheels)
        .args(HEADER_WHEELS)
        .status()
        .map_err(|e| format!("python3 -m pip: {e}"))?;
    if !status.success() {
        return Err(format!(
            "pip download of the header wheels failed ({status})"
        ));
    }
    for entry in std::fs::read_dir(&wheels).map_err(|e| e.to_string())? {
        let wheel = entry.map_err(|e| e.to_string())?.path();
        let status = Command::new("unzip")
            .args(["-q", "-o"])
            .arg(&wheel)
            .arg("*/include/*")
            .arg("-d")
            .arg(&root)
            .status()
            .map_err(|e| format!("unzip: {e}"))?;
        if !status.success() {
            return Err(format!("unzip {} failed", wheel.display()));
        }
    }
    Ok(vec![
        root.join("nvidia/cu13/include"),
        root.join("nvidia/nccl/include"),
    ])
}

fn generate(lib: &Lib, include_dirs: &[PathBuf]) -> Result<String, String> {
    let wrapper: String = String::from(PRELUDE)
        + &lib
            .headers
            .iter()
            .map(|h| format!("#include <{h}>\n"))
            .collect::<String>()
        + lib.extra;
    let mut builder = bindgen::Builder::default()
        .header_contents("cuprum_wrapper.h", &wrapper)
        .allowlist_function(lib.allow)
        .allowlist_type(lib.allow)
        .allowlist_var(lib.allow)
        .default_enum_style(bindgen::EnumVariation::NewType {
            is_bitfield: false,
            is_global: false,
        })
        .derive_default(true)
        .layout_tests(false)
        .generate_comments(false)
        .prepend_enum_name(false)
        .size_t_is_usize(true)
        .wrap_unsafe_ops(true)
        .rust_target(bindgen::RustTarget::stable(85, 0).expect("a known Rust target"))
        .rust_edition(bindgen::RustEdition::Edition2024)
        .formatter(bindgen::Formatter::None);
    for dir in include_dirs {
        builder = builder.clang_arg(format!("-I{}", dir.display()));
    }
    for d in lib.defines {
        builder = builder.clang_arg(format!("-D{d}"));
    }
    let bindings = builder
        .generate()
        .map_err(|e| format!("bindgen {}: {e}", lib.module))?;
    let raw = bindings.to_string();
    let file: syn::File =
        syn::parse_str(&raw).map_err(|e| format!("parse bindgen output of {}: {e}", lib.module))?;
    Ok(rewrite(lib, file))
}

/// Moves every `extern "C"` function into one `dynamic_fns!` list.
fn rewrite(lib: &Lib, file: syn::File) -> String {
    let mut items = Vec::new();
    let mut fns = Vec::new();
    let mut skipped = Vec::new();
    for item in file.items {
        match item {
            syn::Item::ForeignMod(fm) => {
                for fi in fm.items {
                    match fi {
                        syn::ForeignItem::Fn(f) if f.sig.variadic.is_none() => fns.push(f),
                        syn::ForeignItem::Fn(f) => skipped.push(f.sig.ident.to_string()),
                        other => items.push(syn::Item::Verbatim(
                            quote::quote!(unsafe extern "C" { #other }),
                        )),
                    }
                }
            }
            other => items.push(other),
        }
    }
    let types = prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: vec![],
        items,
    });
    let mut out = String::new();
    out.push_str(&format!(
        "// Generated by `cargo xtask bindgen` from the CUDA 13 headers ({}). Do not edit.\n\n",
        lib.headers.join(", ")
    ));
    out.push_str(&types);
    out.push_str("\ncrate::dynamic_fns! {\n    LIBRARY;\n");
    for f in &fns {
        let name = &f.sig.ident;
        let args: Vec<String> = f
            .sig
            .inputs
            .iter()
            .map(|a| match a {
                syn::FnArg::Typed(pt) => {
                    let pat = &pt.pat;
                    let ty = &pt.ty;
                    format!(
                        "{}: {}",
                        quote::quote!(#pat),
                        tidy(&quote::quote!(#ty).to_string())
                    )
                }
                syn::FnArg::Receiver(_) => unreachable!("C functions have no receiver"),
            })
            .collect();
        let ret = match &f.sig.output {
            syn::ReturnType::Default => String::new(),
            syn::ReturnType::Type(_, ty) => {
                format!(" -> {}", tidy(&quote::quote!(#ty).to_string()))
            }
        };
        out.push_str(&format!("    pub fn {name}({}){ret};\n", args.join(", ")));
    }
    out.push_str("}\n");
    if !skipped.is_empty() {
        out.push_str(&format!(
            "\n// Variadic, not bound: {}\n",
            skipped.join(", ")
        ));
    }
    out
}

/// Undoes the token spacing of `quote`'s `to_string` for readable types.
fn tidy(s: &str) -> String {
    s.replace(" :: ", "::")
        .replace(":: ", "::")
        .replace("* mut", "*mut")
        .replace("* const", "*const")
        .replace(" ,", ",")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace("[ ", "[")
        .replace(" ]", "]")
        .replace(" ; ", "; ")
}
