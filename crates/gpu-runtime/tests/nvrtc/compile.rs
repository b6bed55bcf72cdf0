//! Tier 2 (DESIGN.md, "Testing"): the real NVRTC compiles real kernels for
//! sm_80 and sm_90. Needs only the NVRTC library; each test skips with a
//! reason without it (fails with `CUPRUM_TEST_REQUIRE_NVRTC=1`). Many kernels
//! share one program so that CI on two cores stays fast.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_runtime::Error;
use gpu_runtime::nvrtc::{
    self, CacheSource, CompileConfig, CompileRequest, Compiled, ImageKind, clear_memory_cache,
};
use gpu_runtime::testing::{no_cache, nvrtc_or_skip};

/// A header handed to NVRTC in memory, as Cuprum's own device headers are.
const HELPERS: &str = r#"
#pragma once
namespace cuprum_test {
template <typename T> __device__ __forceinline__ T twice(T x) { return x + x; }
__device__ __forceinline__ unsigned int global_index() {
    return blockIdx.x * blockDim.x + threadIdx.x;
}
}
"#;

/// Every kind of kernel the GPU tests launch, and a few more, in one program.
const BATCH: &str = r#"
#include "cuprum_test/helpers.cuh"

#ifndef SCALE
#error "SCALE must come from the options"
#endif

__device__ int counter;
__constant__ float coeffs[4];

extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, unsigned int n) {
    unsigned int i = cuprum_test::global_index();
    if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" __global__ void daxpy(double a, const double* x, double* y, long long n) {
    for (long long i = cuprum_test::global_index(); i < n; i += (long long)gridDim.x * blockDim.x)
        y[i] += a * x[i];
}

template <typename T, int N>
__global__ void scale(T* x, T a, unsigned int n) {
    unsigned int i = cuprum_test::global_index();
    if (i < n) x[i] = cuprum_test::twice(a) * x[i] * T(N) * T(SCALE);
}

extern "C" __global__ void block_sum(const float* x, float* out, unsigned int n) {
    extern __shared__ float buf[];
    unsigned int t = threadIdx.x;
    float acc = 0.0f;
    for (unsigned int i = t; i < n; i += blockDim.x) acc += x[i];
    buf[t] = acc;
    __syncthreads();
    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = buf[0];
}

extern "C" __global__ void bump(int* out) {
    out[0] = atomicAdd(&counter, 1);
    out[1] = (int)(coeffs[0] + coeffs[1] + coeffs[2] + coeffs[3]);
}

extern "C" __global__ void tex2d_sample(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float u = (x + 0.25f) / w, v = (y + 0.75f) / h;
        out[y * w + x] = tex2D<float>(tex, u, v);
    }
}

extern "C" __global__ void tex1d_fetch(cudaTextureObject_t tex, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<int>(tex, i);
}

extern "C" __global__ void surf2d_fill(cudaSurfaceObject_t surf, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) surf2Dwrite(float(y * 1000 + x), surf, x * (int)sizeof(float), y);
}

extern "C" __global__ void surf3d_negate(cudaSurfaceObject_t surf, int w, int h, int d) {
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    if (x < w && y < h && z < d) {
        float4 v = surf3Dread<float4>(surf, x * (int)sizeof(float4), y, z);
        surf3Dwrite(make_float4(-v.x, -v.y, -v.z, -v.w), surf, x * (int)sizeof(float4), y, z);
    }
}
"#;

const EXPRESSIONS: &[&str] = &[
    "scale<float, 1>",
    "scale<double, 2>",
    "scale<int, 3>",
    "&counter",
];

fn batch(arch: &str) -> CompileRequest {
    let mut r = CompileRequest::new(BATCH)
        .header("cuprum_test/helpers.cuh", HELPERS)
        .option("-DSCALE=2")
        .arch(arch);
    r.name = "batch.cu".to_string();
    for e in EXPRESSIONS {
        r = r.name_expression(*e);
    }
    r
}

fn check_lowered(c: &Compiled) {
    for e in EXPRESSIONS {
        let lowered = c
            .lowered_name(e)
            .unwrap_or_else(|| panic!("no lowered name for {e}"));
        if e.starts_with('&') {
            assert_eq!(lowered, "counter");
        } else {
            assert!(lowered.starts_with("_Z5scaleI"), "{e} -> {lowered}");
        }
    }
}

#[test]
fn version_and_supported_archs() {
    let Some(()) = nvrtc_or_skip() else { return };
    let (major, minor) = nvrtc::version().unwrap();
    assert!(major >= 12, "NVRTC {major}.{minor}");
    let archs = nvrtc::supported_archs().unwrap();
    assert!(archs.contains(&80) && archs.contains(&90), "{archs:?}");
    assert!(archs.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn batch_compiles_to_cubin_for_sm80_and_sm90() {
    let Some(()) = nvrtc_or_skip() else { return };
    for arch in ["sm_80", "sm_90"] {
        let c = nvrtc::compile_uncached(&batch(arch), &no_cache())
            .unwrap_or_else(|e| panic!("{arch}: {e}"));
        assert_eq!(c.kind, ImageKind::Cubin, "{arch}");
        assert_eq!(c.arch, arch);
        assert!(c.image.starts_with(b"\x7fELF"), "{arch}: not an ELF image");
        check_lowered(&c);
    }
}

#[test]
fn virtual_arch_and_unknown_new_arch_give_ptx() {
    let Some(()) = nvrtc_or_skip() else { return };
    let c = nvrtc::compile_uncached(&batch("compute_90"), &no_cache()).unwrap();
    assert_eq!(c.kind, ImageKind::Ptx);
    let ptx = String::from_utf8(c.image.clone()).unwrap();
    assert!(
        ptx.contains(".target sm_90"),
        "{}",
        &ptx[..ptx.len().min(400)]
    );
    assert!(ptx.contains(".entry saxpy"));
    assert!(ptx.contains(".entry tex2d_sample"));
    assert!(!ptx.ends_with('\0'));
    check_lowered(&c);

    // A device newer than this NVRTC gets PTX for the newest arch it knows.
    let newest = *nvrtc::supported_archs().unwrap().last().unwrap();
    let small = CompileRequest::new("extern \"C\" __global__ void k(int* p) { *p = 1; }")
        .arch(format!("sm_{}", newest + 900));
    let c = nvrtc::compile_uncached(&small, &no_cache()).unwrap();
    assert_eq!(c.kind, ImageKind::Ptx);
    assert_eq!(c.arch, format!("compute_{newest}"));
}

#[test]
fn compile_errors_carry_the_log_and_optionally_the_source() {
    let Some(()) = nvrtc_or_skip() else { return };
    let src = "extern \"C\" __global__ void k(float* x) {\n    x[0] = undefined_name;\n}\n";
    let req = CompileRequest::new(src).arch("sm_90");
    match nvrtc::compile_uncached(&req, &no_cache()) {
        Err(Error::Compile { name, options, log }) => {
            assert_eq!(name, "cuprum_kernel.cu");
            assert!(options.contains("-arch=sm_90"), "{options}");
            assert!(log.contains("undefined_name"), "{log}");
            assert!(log.contains("cuprum_kernel.cu(2)"), "{log}");
            assert!(!log.contains("==== source"), "{log}");
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    let dump = no_cache().dump_source_on_error(true);
    let err = nvrtc::compile_uncached(&req, &dump).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("==== source of `cuprum_kernel.cu`"), "{text}");
    assert!(text.contains("2     x[0] = undefined_name;"), "{text}");

    // A missing header and a bad option are compile errors too.
    let missing = CompileRequest::new("#include \"nope.cuh\"\n").arch("sm_90");
    let err = nvrtc::compile_uncached(&missing, &no_cache()).unwrap_err();
    assert!(
        matches!(&err, Error::Compile { log, .. } if log.contains("nope.cuh")),
        "{err}"
    );
    let bad = CompileRequest::new("")
        .option("--no-such-option")
        .arch("sm_90");
    let err = nvrtc::compile_uncached(&bad, &no_cache()).unwrap_err();
    assert!(matches!(&err, Error::Compile { .. }), "{err}");
    // A name expression that names nothing.
    let expr = CompileRequest::new("template <int N> __global__ void k() {}")
        .name_expression("k<1, 2, 3>")
        .arch("sm_90");
    assert!(nvrtc::compile_uncached(&expr, &no_cache()).is_err());
}

#[test]
fn debug_builds_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let req =
        CompileRequest::new("extern \"C\" __global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }")
            .arch("sm_90");
    let cfg = no_cache().debug(true);
    let c = nvrtc::compile_uncached(&req, &cfg).unwrap();
    assert_eq!(c.kind, ImageKind::Cubin);
    // Debug code is larger than optimized code.
    let plain = nvrtc::compile_uncached(&req, &no_cache()).unwrap();
    assert!(c.image.len() > plain.image.len());
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        TempDir(std::env::temp_dir().join(format!(
            "cuprum-nvrtc-test-{tag}-{}-{nanos}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        )))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn cache_in_memory_then_on_disk() {
    let Some(()) = nvrtc_or_skip() else { return };
    let dir = TempDir::new("cache");
    let cfg = CompileConfig::from_env()
        .cache_dir(dir.0.clone())
        .in_memory_only(false)
        .save_source(true)
        .debug(false)
        .dump_source_on_error(false);
    // Unique source, so no other test or earlier run has it cached.
    let src = format!(
        "// {}\nextern \"C\" __global__ void k(int* p) {{ *p = 7; }}\n",
        dir.0.display()
    );
    let req = CompileRequest::new(src).arch("sm_80");
    let (a, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Compiled);
    let names = files(&dir.0);
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(
        names[0].ends_with(".bin") && names[1].ends_with(".cu"),
        "{names:?}"
    );
    assert_eq!(names[0].len(), 64 + 4);

    let (b, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Memory);
    assert!(std::sync::Arc::ptr_eq(&a, &b));

    clear_memory_cache();
    let (c, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Disk);
    assert_eq!(*c, *a);

    // Another architecture is another program.
    let (_, from) = nvrtc::compile_with_config(&req.clone().arch("sm_90"), &cfg).unwrap();
    assert_eq!(from, CacheSource::Compiled);
    assert_eq!(files(&dir.0).len(), 4);

    // A damaged file is recompiled and replaced.
    let bin = dir.0.join(&names[0]);
    let mut bytes = std::fs::read(&bin).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0xff;
    std::fs::write(&bin, &bytes).unwrap();
    clear_memory_cache();
    let (d, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Compiled);
    assert_eq!(d.image, a.image);
    clear_memory_cache();
    let (_, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Disk);

    // In-memory only: nothing new on disk.
    let mem = cfg.clone().in_memory_only(true);
    let (_, from) = nvrtc::compile_with_config(&req.clone().arch("compute_80"), &mem).unwrap();
    assert_eq!(from, CacheSource::Compiled);
    assert_eq!(files(&dir.0).len(), 4);
}

/// The programs both processes of [`two_processes_share_one_cache_directory`]
/// compile: unique to `dir`, so no earlier run has them cached.
fn shared_programs(dir: &Path) -> Vec<CompileRequest> {
    (0..6)
        .map(|k| {
            CompileRequest::new(format!(
                "// {} #{k}\nextern \"C\" __global__ void k{k}(float* p, int n) {{\n\
                 int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
                 if (i < n) p[i] = p[i] * {k}.5f + {k};\n}}\n",
                dir.display()
            ))
            .arch("sm_80")
        })
        .collect()
}

fn disk_config(dir: &Path) -> CompileConfig {
    CompileConfig::from_env()
        .cache_dir(dir.to_path_buf())
        .in_memory_only(false)
        .save_source(false)
        .debug(false)
        .dump_source_on_error(false)
}

/// Two processes compiling the same kernels into one cache directory at
/// once both succeed, and leave a valid cache: every program then comes
/// back from disk, and no temporary file is left behind.
#[test]
fn two_processes_share_one_cache_directory() {
    if let Some(dir) = std::env::var_os("CUPRUM_TEST_CACHE_CHILD") {
        let dir = PathBuf::from(dir);
        for req in shared_programs(&dir) {
            nvrtc::compile_with_config(&req, &disk_config(&dir)).unwrap();
        }
        println!("child compiled {} programs", shared_programs(&dir).len());
        return;
    }
    let Some(()) = nvrtc_or_skip() else { return };
    let dir = TempDir::new("two-processes");
    // This test's libtest name: the module path without the crate's name.
    let (_crate, module) = module_path!().split_once("::").unwrap();
    let name = format!("{module}::two_processes_share_one_cache_directory");
    let spawn = || {
        std::process::Command::new(std::env::current_exe().unwrap())
            .args([name.as_str(), "--exact", "--nocapture", "--test-threads=1"])
            .env("CUPRUM_TEST_CACHE_CHILD", &dir.0)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let children = [spawn(), spawn()];
    for c in children {
        let out = c.wait_with_output().unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "a child failed:\n{text}");
        assert!(text.contains("child compiled 6 programs"), "{text}");
    }
    let names = files(&dir.0);
    assert_eq!(
        names.len(),
        6,
        "one file per program, no leftovers: {names:?}"
    );
    assert!(names.iter().all(|n| n.ends_with(".bin")), "{names:?}");
    clear_memory_cache();
    for req in shared_programs(&dir.0) {
        let (c, from) = nvrtc::compile_with_config(&req, &disk_config(&dir.0)).unwrap();
        assert_eq!(from, CacheSource::Disk, "a cache file was invalid");
        assert!(!c.image.is_empty());
    }
}

gpu_runtime::kernel_signature! {
    /// A family instantiated per element type `T`, as Cuprum's are.
    struct Axpy[T] {
        x: In<T>,
        y: Out<T>,
        a: f64,
        n: i64,
    }
}

/// The definition of `axpy_float` a program holds beside its declared
/// prototype, with `params` as its parameter list.
fn axpy_program(params: &str) -> CompileRequest {
    use gpu_runtime::KernelSignature;
    let source = format!(
        "{}extern \"C\" __global__ void __launch_bounds__(256) axpy_float({params}) {{\n  \
         const long long i = blockIdx.x * 256ll + threadIdx.x;\n  \
         if (i < n) y[i] += (float)a * x[i];\n}}\n",
        Axpy::prototype("axpy_float", ["float"])
    );
    CompileRequest::new(source).arch("sm_90")
}

#[test]
fn a_definition_that_differs_from_its_declared_signature_does_not_compile() {
    let Some(()) = nvrtc_or_skip() else { return };
    let good = "const float* x, float* y, double a, long long n";
    let c = nvrtc::compile_uncached(&axpy_program(good), &no_cache())
        .unwrap_or_else(|e| panic!("the declared parameters: {e}"));
    assert!(c.image.windows(10).any(|w| w == b"axpy_float"));
    // Each a mistake the Rust side would not see: a writable input, a
    // 32-bit count, swapped scalars, another element type, one missing.
    for bad in [
        "float* x, float* y, double a, long long n",
        "const float* x, float* y, double a, int n",
        "const float* x, float* y, long long n, double a",
        "const double* x, double* y, double a, long long n",
        "const float* x, float* y, double a",
    ] {
        match nvrtc::compile_uncached(&axpy_program(bad), &no_cache()) {
            Err(Error::Compile { log, .. }) => assert!(
                log.contains("axpy_float") && log.contains("\"C\" linkage"),
                "{bad}: {log}"
            ),
            other => panic!("{bad}: expected a conflicting declaration, got {other:?}"),
        }
    }
}
