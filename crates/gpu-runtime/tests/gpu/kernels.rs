//! Tier 3 (DESIGN.md, "Testing"): NVRTC-compiled kernels launched on a GPU,
//! checked against host references: RawKernel and RawModule (from source,
//! PTX, CUBIN, files), name expressions, globals, attributes, launch checks,
//! the kernel cache, texture and surface objects over CUDA arrays.
//!
//! Each test starts with `device_or_skip()`; without a device it passes as a
//! skip (fails with `CUPRUM_TEST_REQUIRE_GPU=1`), then holds [`shared`] so
//! that the memory tests that hold a stream run alone. Device buffers come
//! from the raw driver through the small `DevBuf` helper below, so these
//! tests do not depend on the memory pool.

use std::ffi::c_void;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use gpu_runtime::nvrtc::{self, CacheSource, CompileConfig, CompileRequest, ImageKind};
use gpu_runtime::sys::cuda;
use gpu_runtime::testing::device_or_skip;
use gpu_runtime::texture::{
    AddressMode, ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray, FilterMode, ResourceDesc,
    SurfaceObject, TextureDesc, TextureObject,
};
use gpu_runtime::{
    Device, DevicePtr, Error, KernelAttribute, LaunchConfig, Module, RawKernel, Stream, kernel_args,
};

use crate::common::shared;

const SOURCE: &str = r#"
__device__ int counter;
__constant__ float coeffs[4];

extern "C" __global__ void saxpy(float a, const float* x, const float* y, float* out, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}

extern "C" __global__ void noop(int* p, int v) {
    if (v == 12345) *p = v;
}

extern "C" __global__ void fill(int* out, int value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value + i;
}

template <typename T, int N>
__global__ void scale(T* x, T a, unsigned int n) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] * T(N);
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
    if (i < n) out[i] = tex1Dfetch<int>(tex, i) * 2;
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

/// Device memory from the raw driver, freed on drop.
struct DevBuf {
    ptr: cuda::CUdeviceptr,
    bytes: usize,
}

impl DevBuf {
    fn from_slice<T: Copy>(data: &[T]) -> DevBuf {
        let bytes = std::mem::size_of_val(data).max(1);
        let mut ptr = 0;
        // SAFETY: writes one address; the test's device is bound.
        let r = unsafe { cuda::cuMemAlloc_v2(&mut ptr, bytes) }.unwrap();
        assert_eq!(r, cuda::CUresult::CUDA_SUCCESS, "cuMemAlloc");
        // SAFETY: `ptr` holds `bytes` bytes, the slice at least as many as it copies.
        let r = unsafe {
            cuda::cuMemcpyHtoD_v2(
                ptr,
                data.as_ptr().cast::<c_void>(),
                std::mem::size_of_val(data),
            )
        }
        .unwrap();
        assert_eq!(r, cuda::CUresult::CUDA_SUCCESS, "cuMemcpyHtoD");
        DevBuf { ptr, bytes }
    }

    fn zeroed<T: Copy + Default>(n: usize) -> DevBuf {
        DevBuf::from_slice(&vec![T::default(); n])
    }

    fn ptr(&self) -> DevicePtr {
        DevicePtr(self.ptr)
    }

    fn to_vec<T: Copy + Default>(&self) -> Vec<T> {
        let n = self.bytes / std::mem::size_of::<T>();
        let mut out = vec![T::default(); n];
        // Synchronous on the legacy stream; callers synchronize their stream first.
        // SAFETY: `out` holds n * size_of::<T>() <= self.bytes bytes.
        let r = unsafe {
            cuda::cuMemcpyDtoH_v2(
                out.as_mut_ptr().cast::<c_void>(),
                self.ptr,
                n * std::mem::size_of::<T>(),
            )
        }
        .unwrap();
        assert_eq!(r, cuda::CUresult::CUDA_SUCCESS, "cuMemcpyDtoH");
        out
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc and freed once; the tests
        // synchronize before dropping buffers a kernel uses.
        let _ = unsafe { cuda::cuMemFree_v2(self.ptr) };
    }
}

/// Seeded uniform floats in [0, 1).
fn random(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32) / (1u64 << 24) as f32
        })
        .collect()
}

fn module() -> Module {
    Module::from_source(SOURCE, &[]).expect("compile the test kernels")
}

fn arch_number(dev: Device) -> i32 {
    let (major, minor) = dev.compute_capability().unwrap();
    major * 10 + minor
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        static N: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let p = std::env::temp_dir().join(format!(
            "cuprum-gpu-test-{tag}-{}-{nanos}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn saxpy_raw_kernel_on_a_stream() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let n = 10_007u32;
    let x = random(n as usize, 1);
    let y = random(n as usize, 2);
    let a = 2.5f32;
    let (dx, dy, dout) = (
        DevBuf::from_slice(&x),
        DevBuf::from_slice(&y),
        DevBuf::zeroed::<f32>(n as usize),
    );
    let kernel = RawKernel::new(SOURCE, "saxpy", &[]).unwrap();
    let stream = Stream::new().unwrap();
    let (px, py, pout) = (dx.ptr(), dy.ptr(), dout.ptr());
    // SAFETY: the arguments match saxpy's parameters; each buffer holds n floats.
    unsafe {
        kernel
            .launch(
                &LaunchConfig::for_num_elements(n),
                &stream,
                &kernel_args![a, px, py, pout, n],
            )
            .unwrap();
    }
    stream.synchronize().unwrap();
    let out: Vec<f32> = dout.to_vec();
    for i in 0..n as usize {
        let want = a.mul_add(x[i], y[i]);
        assert!(
            (out[i] - want).abs() <= 1e-6 * want.abs().max(1.0),
            "out[{i}] = {} != {want}",
            out[i]
        );
    }
}

#[test]
fn launch_checks_the_configuration() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let m = module();
    let k = m.function("fill").unwrap();
    assert_eq!(k.num_params(), Some(3));
    assert!(k.max_threads_per_block() >= 256);
    let out = DevBuf::zeroed::<i32>(64);
    let stream = Stream::null(dev);
    let (p, v, n) = (out.ptr(), 7i32, 64i32);
    let args = kernel_args![p, v, n];
    let cases = [
        (LaunchConfig::new((1, 1, 1), (32, 32, 2)), "threads"),
        (LaunchConfig::new((1, 1, 1), (1, 1, 65)), "maximum block"),
        (LaunchConfig::linear(0, 64), "zero dimension"),
        (
            LaunchConfig::new((1, 1, 1 << 20), (64, 1, 1)),
            "maximum grid",
        ),
        (
            LaunchConfig::linear(1, 64).with_shared_mem(1 << 20),
            "dynamic shared memory",
        ),
    ];
    for (cfg, what) in cases {
        // SAFETY: rejected before launching.
        let err = unsafe { k.launch(&cfg, &stream, &args) }.unwrap_err();
        assert!(
            matches!(&err, Error::InvalidArgument(m) if m.contains(what) && m.contains("fill")),
            "{cfg:?}: {err}"
        );
    }
    // SAFETY: rejected before launching (too few arguments).
    let err = unsafe { k.launch(&LaunchConfig::linear(1, 64), &stream, &args[..2]) }.unwrap_err();
    assert!(err.to_string().contains("takes 3 arguments"), "{err}");
    assert!(matches!(m.function("nope"), Err(Error::InvalidArgument(_))));

    // SAFETY: the arguments match fill's parameters; the buffer holds 64 ints.
    unsafe { k.launch(&LaunchConfig::linear(1, 64), &stream, &args) }.unwrap();
    stream.synchronize().unwrap();
    let got: Vec<i32> = out.to_vec();
    assert_eq!(got, (0..64).map(|i| 7 + i).collect::<Vec<_>>());
}

#[test]
fn globals_read_and_write() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let m = module();
    let (counter, size) = m.get_global("counter").unwrap();
    assert_eq!(size, 4);
    let (coeffs, size) = m.get_global("coeffs").unwrap();
    assert_eq!(size, 16);
    assert!(matches!(
        m.get_global("missing"),
        Err(Error::InvalidArgument(_))
    ));
    let start = 41i32;
    let weights = [1.0f32, 2.0, 3.0, 4.5];
    // SAFETY: both globals are as large as what is copied into them.
    unsafe {
        assert_eq!(
            cuda::cuMemcpyHtoD_v2(counter.raw(), (&start as *const i32).cast(), 4).unwrap(),
            cuda::CUresult::CUDA_SUCCESS
        );
        assert_eq!(
            cuda::cuMemcpyHtoD_v2(coeffs.raw(), weights.as_ptr().cast(), 16).unwrap(),
            cuda::CUresult::CUDA_SUCCESS
        );
    }
    let out = DevBuf::zeroed::<i32>(2);
    let p = out.ptr();
    let stream = Stream::null(dev);
    // SAFETY: bump takes one pointer to two ints.
    unsafe {
        m.function("bump")
            .unwrap()
            .launch(&LaunchConfig::linear(1, 1), &stream, &kernel_args![p])
    }
    .unwrap();
    stream.synchronize().unwrap();
    assert_eq!(out.to_vec::<i32>(), [41, 10]);
    let mut after = 0i32;
    // SAFETY: reads the 4-byte global.
    let r = unsafe { cuda::cuMemcpyDtoH_v2((&mut after as *mut i32).cast(), counter.raw(), 4) };
    assert_eq!(r.unwrap(), cuda::CUresult::CUDA_SUCCESS);
    assert_eq!(after, 42);
}

#[test]
fn attributes_get_and_set() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let props = dev.properties().unwrap();
    let k = RawKernel::new(SOURCE, "block_sum", &[]).unwrap();
    let a = k.attributes().unwrap();
    assert!(a.max_threads_per_block >= 256 && a.max_threads_per_block <= 1024);
    assert!(a.num_regs > 0);
    assert_eq!(a.binary_version, arch_number(dev));
    assert_eq!(a.shared_size_bytes, 0);
    assert_eq!(a.max_dynamic_shared_size_bytes, 48 * 1024);

    let n = 100_000u32;
    let x = random(n as usize, 3);
    let (dx, dout) = (DevBuf::from_slice(&x), DevBuf::zeroed::<f32>(1));
    let (px, pout) = (dx.ptr(), dout.ptr());
    let stream = Stream::null(dev);
    let big = props.shared_memory_per_block_optin as u32;
    assert!(big > 48 * 1024, "{props:?}");
    let cfg = LaunchConfig::linear(1, 256).with_shared_mem(big);
    // SAFETY: rejected before launching: the kernel has not opted in yet.
    let err = unsafe { k.launch(&cfg, &stream, &kernel_args![px, pout, n]) }.unwrap_err();
    assert!(err.to_string().contains("dynamic shared memory"), "{err}");

    k.set_attribute(KernelAttribute::MaxDynamicSharedMemorySize, big as i32)
        .unwrap();
    k.set_attribute(KernelAttribute::PreferredSharedMemoryCarveout, 50)
        .unwrap();
    let a = k.attributes().unwrap();
    assert_eq!(a.max_dynamic_shared_size_bytes, big as i32);
    assert_eq!(a.preferred_shared_memory_carveout, 50);
    // SAFETY: block_sum's parameters; x holds n floats, out one.
    unsafe { k.launch(&cfg, &stream, &kernel_args![px, pout, n]) }.unwrap();
    stream.synchronize().unwrap();
    let got = dout.to_vec::<f32>()[0] as f64;
    let want: f64 = x.iter().map(|&v| v as f64).sum();
    assert!((got - want).abs() <= 1e-4 * want, "{got} != {want}");
    // More than the device has is the driver's error.
    assert!(
        k.set_attribute(KernelAttribute::MaxDynamicSharedMemorySize, 1 << 30)
            .is_err()
    );
}

/// Runs `fill` from `m` and checks its output.
fn check_fill(m: &Module, value: i32) {
    let n = 1000i32;
    let out = DevBuf::zeroed::<i32>(n as usize);
    let p = out.ptr();
    let stream = Stream::null(m.device());
    // SAFETY: fill's parameters; the buffer holds n ints.
    unsafe {
        m.function("fill").unwrap().launch(
            &LaunchConfig::for_num_elements(n as u32),
            &stream,
            &kernel_args![p, value, n],
        )
    }
    .unwrap();
    stream.synchronize().unwrap();
    let got: Vec<i32> = out.to_vec();
    assert_eq!(got, (0..n).map(|i| value + i).collect::<Vec<_>>());
}

#[test]
fn modules_from_ptx_cubin_and_files() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let cc = arch_number(dev);
    let ptx = nvrtc::compile(&CompileRequest::new(SOURCE).arch(format!("compute_{cc}"))).unwrap();
    assert_eq!(ptx.kind, ImageKind::Ptx);
    let cubin = nvrtc::compile(&CompileRequest::new(SOURCE).arch(format!("sm_{cc}"))).unwrap();
    assert_eq!(cubin.kind, ImageKind::Cubin);

    check_fill(&Module::from_data(&ptx.image).unwrap(), 1);
    check_fill(&Module::from_data(&cubin.image).unwrap(), 2);
    check_fill(&Module::from_compiled(&cubin).unwrap(), 3);

    let dir = TempDir::new("files");
    let (ptx_path, cubin_path) = (dir.0.join("k.ptx"), dir.0.join("k.cubin"));
    std::fs::write(&ptx_path, &ptx.image).unwrap();
    std::fs::write(&cubin_path, &cubin.image).unwrap();
    check_fill(&Module::from_file(&ptx_path).unwrap(), 4);
    check_fill(&Module::from_file(&cubin_path).unwrap(), 5);

    assert!(matches!(
        Module::from_file(dir.0.join("missing.cubin")),
        Err(Error::Io { .. })
    ));
    assert!(Module::from_data(b"not a module").is_err());
    assert!(Module::from_data(b"").is_err());
}

#[test]
fn name_expressions_pick_template_instances() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let req = CompileRequest::new(SOURCE)
        .name_expression("scale<float, 2>")
        .name_expression("scale<double, 3>");
    let m = Module::from_request(&req).unwrap();
    let lowered = m.lowered_name("scale<float, 2>").unwrap();
    assert!(lowered.starts_with("_Z5scaleIfLi2EE"), "{lowered}");
    let stream = Stream::null(dev);
    let n = 300u32;

    let xf = random(n as usize, 4);
    let df = DevBuf::from_slice(&xf);
    let (p, a) = (df.ptr(), 1.5f32);
    // SAFETY: scale<float, 2>(float*, float, unsigned int) over n floats.
    unsafe {
        m.function("scale<float, 2>").unwrap().launch(
            &LaunchConfig::for_num_elements(n),
            &stream,
            &kernel_args![p, a, n],
        )
    }
    .unwrap();
    let xd: Vec<f64> = xf.iter().map(|&v| v as f64).collect();
    let dd = DevBuf::from_slice(&xd);
    let (p, a) = (dd.ptr(), -0.5f64);
    // SAFETY: scale<double, 3>(double*, double, unsigned int) over n doubles.
    unsafe {
        m.function("scale<double, 3>").unwrap().launch(
            &LaunchConfig::for_num_elements(n),
            &stream,
            &kernel_args![p, a, n],
        )
    }
    .unwrap();
    // RawKernel adds a templated name as a name expression itself.
    let ki = RawKernel::new(SOURCE, "scale<int, 4>", &[]).unwrap();
    let xi: Vec<i32> = (0..n as i32).map(|i| i - 100).collect();
    let di = DevBuf::from_slice(&xi);
    let (p, a) = (di.ptr(), 3i32);
    // SAFETY: scale<int, 4>(int*, int, unsigned int) over n ints.
    unsafe {
        ki.launch(
            &LaunchConfig::for_num_elements(n),
            &stream,
            &kernel_args![p, a, n],
        )
    }
    .unwrap();
    stream.synchronize().unwrap();
    let gf: Vec<f32> = df.to_vec();
    let gd: Vec<f64> = dd.to_vec();
    let gi: Vec<i32> = di.to_vec();
    for i in 0..n as usize {
        assert_eq!(gf[i], 1.5 * xf[i] * 2.0, "float {i}");
        assert_eq!(gd[i], -0.5 * xd[i] * 3.0, "double {i}");
        assert_eq!(gi[i], 3 * xi[i] * 4, "int {i}");
    }
}

#[test]
fn cache_hits_in_memory_then_on_disk() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let dir = TempDir::new("cache");
    let cfg = CompileConfig::from_env()
        .cache_dir(dir.0.clone())
        .in_memory_only(false)
        .save_source(false)
        .debug(false)
        .dump_source_on_error(false);
    // A unique program, so that no other test has it in memory.
    let src = format!("// {}\n{SOURCE}", dir.0.display());
    let req = CompileRequest::new(src);
    let (first, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Compiled);
    let (again, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Memory);
    assert!(std::sync::Arc::ptr_eq(&first, &again));
    nvrtc::clear_memory_cache();
    let (disk, from) = nvrtc::compile_with_config(&req, &cfg).unwrap();
    assert_eq!(from, CacheSource::Disk);
    assert_eq!(disk.image, first.image);
    check_fill(&Module::from_compiled(&disk).unwrap(), 6);
}

/// CUDA's linear filtering of a clamped 2-D texture at texel-space (xb, yb).
fn bilinear(t: &[f32], w: usize, h: usize, xb: f32, yb: f32) -> f32 {
    let (i, j) = (xb.floor(), yb.floor());
    let (a, b) = (xb - i, yb - j);
    let at = |x: f32, y: f32| {
        let x = (x as i64).clamp(0, w as i64 - 1) as usize;
        let y = (y as i64).clamp(0, h as i64 - 1) as usize;
        t[y * w + x]
    };
    (1.0 - a) * (1.0 - b) * at(i, j)
        + a * (1.0 - b) * at(i + 1.0, j)
        + (1.0 - a) * b * at(i, j + 1.0)
        + a * b * at(i + 1.0, j + 1.0)
}

#[test]
fn texture_2d_linear_filtering_with_normalized_coordinates() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let (w, h) = (16usize, 8usize);
    let data = random(w * h, 5);
    let desc = ChannelFormatDesc::new(32, 0, 0, 0, ChannelKind::Float);
    let array = CudaArray::new(desc, w, h, 0, ArrayFlags::NONE).unwrap();
    assert_eq!(array.ndim(), 2);
    let stream = Stream::null(dev);
    array.copy_from_host(&data, &stream).unwrap();
    let mut back = vec![0f32; w * h];
    array.copy_to_host(&mut back, &stream).unwrap();
    assert_eq!(back, data);

    let tex = TextureObject::new(
        &ResourceDesc::Array(array.clone()),
        &TextureDesc::default()
            .address_mode([AddressMode::Clamp; 3])
            .filter_mode(FilterMode::Linear)
            .normalized_coords(true),
    )
    .unwrap();
    drop(array); // The texture keeps it alive.
    let out = DevBuf::zeroed::<f32>(w * h);
    let kernel = RawKernel::new(SOURCE, "tex2d_sample", &[]).unwrap();
    let (p, wi, hi) = (out.ptr(), w as i32, h as i32);
    let cfg = LaunchConfig::new((1, 1, 1), (w as u32, h as u32, 1));
    // SAFETY: tex2d_sample(texture, float*, int, int); out holds w*h floats.
    unsafe { kernel.launch(&cfg, &stream, &kernel_args![tex, p, wi, hi]) }.unwrap();
    stream.synchronize().unwrap();
    let got: Vec<f32> = out.to_vec();
    for y in 0..h {
        for x in 0..w {
            // u * w - 0.5 with u = (x + 0.25) / w, likewise v.
            let want = bilinear(&data, w, h, x as f32 - 0.25, y as f32 + 0.25);
            let g = got[y * w + x];
            // The hardware's weights have 8 fractional bits; these are exact in it.
            assert!((g - want).abs() <= 1e-5, "({x}, {y}): {g} != {want}");
        }
    }
}

#[test]
fn texture_over_linear_device_memory() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let n = 500usize;
    let data: Vec<i32> = (0..n as i32).map(|i| i * 7 - 1000).collect();
    let src = DevBuf::from_slice(&data);
    let tex = TextureObject::new(
        &ResourceDesc::Linear {
            ptr: src.ptr(),
            format: ChannelFormatDesc::new(32, 0, 0, 0, ChannelKind::Signed),
            size_bytes: n * 4,
        },
        &TextureDesc::default(),
    )
    .unwrap();
    let out = DevBuf::zeroed::<i32>(n);
    let (p, ni) = (out.ptr(), n as i32);
    let stream = Stream::null(dev);
    let m = module();
    // SAFETY: tex1d_fetch(texture, int*, int); out holds n ints; src outlives the launch.
    unsafe {
        m.function("tex1d_fetch").unwrap().launch(
            &LaunchConfig::for_num_elements(n as u32),
            &stream,
            &kernel_args![tex, p, ni],
        )
    }
    .unwrap();
    stream.synchronize().unwrap();
    let got: Vec<i32> = out.to_vec();
    assert_eq!(got, data.iter().map(|v| v * 2).collect::<Vec<_>>());
}

#[test]
fn surface_writes_then_copy_out() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let (w, h) = (33usize, 17usize);
    let desc = ChannelFormatDesc::new(32, 0, 0, 0, ChannelKind::Float);
    let plain = CudaArray::new(desc, w, h, 0, ArrayFlags::NONE).unwrap();
    assert!(matches!(
        SurfaceObject::new(&plain),
        Err(Error::InvalidArgument(_))
    ));
    let array = CudaArray::new(desc, w, h, 0, ArrayFlags::SURFACE_LOAD_STORE).unwrap();
    let surf = SurfaceObject::new(&array).unwrap();
    let kernel = RawKernel::new(SOURCE, "surf2d_fill", &[]).unwrap();
    let (wi, hi) = (w as i32, h as i32);
    let cfg = LaunchConfig::new((3, 2, 1), (16, 16, 1));
    let stream = Stream::new().unwrap();
    // SAFETY: surf2d_fill(surface, int, int) over a w x h float array.
    unsafe { kernel.launch(&cfg, &stream, &kernel_args![surf, wi, hi]) }.unwrap();
    let mut got = vec![0f32; w * h];
    array.copy_to_host(&mut got, &stream).unwrap();
    for y in 0..h {
        for x in 0..w {
            assert_eq!(got[y * w + x], (y * 1000 + x) as f32, "({x}, {y})");
        }
    }
    // Device copies out and in.
    let dbuf = DevBuf::zeroed::<f32>(w * h);
    // SAFETY: dbuf holds size_bytes() bytes and outlives the synchronized copy.
    unsafe { array.copy_to_device(dbuf.ptr(), &stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_eq!(dbuf.to_vec::<f32>(), got);
    let other = CudaArray::new(desc, w, h, 0, ArrayFlags::NONE).unwrap();
    // SAFETY: as above.
    unsafe { other.copy_from_device(dbuf.ptr(), &stream) }.unwrap();
    let mut again = vec![0f32; w * h];
    other.copy_to_host(&mut again, &stream).unwrap();
    assert_eq!(again, got);
    // A host buffer of the wrong size is refused.
    assert!(other.copy_to_host(&mut again[1..], &stream).is_err());
}

#[test]
fn surface_3d_read_modify_write_and_1d_arrays() {
    let Some(dev) = device_or_skip() else { return };
    let _shared = shared();
    let (w, h, d) = (5usize, 3usize, 2usize);
    let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 4);
    let array = CudaArray::new(desc, w, h, d, ArrayFlags::SURFACE_LOAD_STORE).unwrap();
    assert_eq!((array.ndim(), array.size_bytes()), (3, w * h * d * 16));
    let data = random(w * h * d * 4, 6);
    let stream = Stream::null(dev);
    array.copy_from_host(&data, &stream).unwrap();
    let surf = SurfaceObject::new(&array).unwrap();
    let m = module();
    let (wi, hi, di) = (w as i32, h as i32, d as i32);
    // SAFETY: surf3d_negate(surface, int, int, int) over a w x h x d float4 array.
    unsafe {
        m.function("surf3d_negate").unwrap().launch(
            &LaunchConfig::new((h as u32, d as u32, 1), (w as u32, 1, 1)),
            &stream,
            &kernel_args![surf, wi, hi, di],
        )
    }
    .unwrap();
    let mut got = vec![0f32; data.len()];
    array.copy_to_host(&mut got, &stream).unwrap();
    assert_eq!(got, data.iter().map(|v| -v).collect::<Vec<_>>());

    // 1-D: host -> array -> device -> host.
    let n = 1000usize;
    let one = CudaArray::new(
        ChannelFormatDesc::new(16, 0, 0, 0, ChannelKind::Unsigned),
        n,
        0,
        0,
        ArrayFlags::NONE,
    )
    .unwrap();
    assert_eq!(one.ndim(), 1);
    let v: Vec<u16> = (0..n as u16).map(|i| i.wrapping_mul(37)).collect();
    one.copy_from_host(&v, &stream).unwrap();
    let dbuf = DevBuf::zeroed::<u16>(n);
    // SAFETY: dbuf holds n u16 and outlives the synchronized copy.
    unsafe { one.copy_to_device(dbuf.ptr(), &stream) }.unwrap();
    stream.synchronize().unwrap();
    assert_eq!(dbuf.to_vec::<u16>(), v);
}

#[test]
fn launch_overhead_is_small() {
    let Some(_dev) = device_or_skip() else { return };
    let _shared = shared();
    let k = RawKernel::new(SOURCE, "noop", &[]).unwrap();
    let kernel = k.kernel().unwrap().clone();
    let buf = DevBuf::zeroed::<i32>(1);
    let (p, v) = (buf.ptr(), 0i32);
    let stream = Stream::new().unwrap();
    let cfg = LaunchConfig::linear(1, 32);
    let launch = || {
        // SAFETY: noop(int*, int) never writes for v != 12345.
        unsafe { kernel.launch(&cfg, &stream, &kernel_args![p, v]) }.unwrap();
    };
    let raw = || {
        let mut params = [
            (&p as *const DevicePtr).cast_mut().cast::<c_void>(),
            (&v as *const i32).cast_mut().cast::<c_void>(),
        ];
        // SAFETY: as above, straight through the driver for comparison.
        let r = unsafe {
            cuda::cuLaunchKernel(
                kernel.raw(),
                1,
                1,
                1,
                32,
                1,
                1,
                0,
                stream.raw(),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        };
        assert_eq!(r.unwrap(), cuda::CUresult::CUDA_SUCCESS);
    };
    // Batches shorter than the driver's launch queue, so the host never waits
    // for the GPU inside the timed loop.
    let batch = 256;
    let best = |f: &dyn Fn()| {
        let mut best = f64::INFINITY;
        for round in 0..20 {
            let t = std::time::Instant::now();
            for _ in 0..batch {
                f();
            }
            let per = t.elapsed().as_secs_f64() * 1e6 / batch as f64;
            stream.synchronize().unwrap();
            if round > 0 {
                best = best.min(per);
            }
        }
        best
    };
    let (ours, driver) = (best(&launch), best(&raw));
    eprintln!(
        "host time per launch: Kernel::launch {ours:.2} us, cuLaunchKernel alone {driver:.2} us \
         (best of 19 batches of {batch})"
    );
    // Loose enough for debug builds; the release target is 3 us.
    assert!(ours < 20.0, "{ours} us per launch");
}

/// `RawKernel::cached`: one kernel per key for the process, built once; a
/// failed build is not cached.
#[test]
fn raw_kernel_cache_builds_each_key_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let Some(_dev) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let _shared = shared();
    // Counts this test's own builds only: its keys are unique to it, and
    // only its closures touch the counter.
    static BUILDS: AtomicUsize = AtomicUsize::new(0);
    let build = || {
        BUILDS.fetch_add(1, Ordering::SeqCst);
        gpu_runtime::RawKernel::new(
            "extern \"C\" __global__ void cached_probe(int* p) { p[threadIdx.x] = 1; }",
            "cached_probe",
            &[],
        )
    };
    let a = gpu_runtime::RawKernel::cached("tests::cached_probe", build).unwrap();
    let b = gpu_runtime::RawKernel::cached("tests::cached_probe", build).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(BUILDS.load(Ordering::SeqCst), 1);
    let bad = || gpu_runtime::RawKernel::new("this is not CUDA", "nothing", &[]);
    assert!(gpu_runtime::RawKernel::cached("tests::bad", bad).is_err());
    // Not cached: the next lookup builds again (and fails again).
    assert!(gpu_runtime::RawKernel::cached("tests::bad", bad).is_err());
}

gpu_runtime::kernel_signature! {
    /// `typed_axpy_float(x, y, a, n)`: `y += a * x`.
    struct TypedAxpy[T] {
        x: In<T>,
        y: Out<T>,
        a: f64,
        n: i64,
    }
}

// SAFETY: the one launcher (`typed_kernel_launches_its_declared_arguments`)
// passes `x` and `y` of `n` floats each, alive until it synchronizes, and a
// grid that the kernel checks against `n`.
unsafe impl gpu_runtime::Vouched for TypedAxpy {}

#[test]
fn typed_kernel_launches_its_declared_arguments() {
    use gpu_runtime::signature::{In, Out};
    use gpu_runtime::{KernelSignature, TypedKernel};
    let Some(_dev) = device_or_skip() else { return };
    let name = "typed_axpy_float";
    let definition = "extern \"C\" __global__ void typed_axpy_float(const float* x, float* y, \
                      double a, long long n) {\n  const long long i = blockIdx.x * 256ll + threadIdx.x;\n  \
                      if (i < n) y[i] += (float)a * x[i];\n}\n";
    let source = format!("{}{definition}", TypedAxpy::prototype(name, ["float"]));
    let k =
        TypedKernel::<TypedAxpy>::cached(name, ["float"], || CompileRequest::new(source)).unwrap();
    let n = 1000usize;
    let x = random(n, 3);
    let y = random(n, 4);
    let (dx, dy) = (DevBuf::from_slice(&x), DevBuf::from_slice(&y));
    let stream = Stream::new().unwrap();
    let cfg = LaunchConfig::linear(n.div_ceil(256) as u32, 256);
    let args = TypedAxpy {
        x: In::new(dx.ptr(), "float"),
        y: Out::new(dy.ptr(), "float"),
        a: 0.5,
        n: n as i64,
    };
    k.launch(&cfg, &stream, &args).unwrap();
    stream.synchronize().unwrap();
    let out: Vec<f32> = dy.to_vec();
    for i in 0..n {
        let want = 0.5f32.mul_add(x[i], y[i]);
        assert!(
            (out[i] - want).abs() <= 1e-6 * want.abs().max(1.0),
            "y[{i}]"
        );
    }
    // A pointer to other elements than the kernel's is refused, before the
    // launch.
    let wrong = TypedAxpy {
        x: In::new(dx.ptr(), "double"),
        ..args
    };
    let e = k.launch(&cfg, &stream, &wrong).unwrap_err().to_string();
    assert!(e.contains("`x` points to float, not double"), "{e}");
    // A program without the kernel's prototype is refused.
    let e = TypedKernel::<TypedAxpy>::cached("typed_axpy_undeclared", ["float"], || {
        CompileRequest::new(definition.replace("typed_axpy_float", "typed_axpy_undeclared"))
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("does not declare"), "{e}");
}
