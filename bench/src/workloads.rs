//! The workloads. Names match bench/cupy_bench.py.

use gpu_runtime::memory::PinnedMemoryPool;
use gpu_runtime::{
    Device, LaunchConfig, MemoryPool, RawKernel, Result, Stream, StreamOptions, alloc,
    memcpy_dtoh_async_unchecked, memcpy_htod_async_unchecked,
};

use crate::Record;
use crate::timing::{gpu_ms, host_us, host_us_batched};

/// A workload: its name and how to run it.
pub type Workload = (&'static str, fn(Device) -> Result<Record>);

/// Every workload, in print order.
pub fn all() -> Vec<Workload> {
    vec![
        ("pool alloc+free 16 B", |d| {
            pool_alloc_free(d, "pool alloc+free 16 B", 16)
        }),
        ("pool alloc+free 1 MiB", |d| {
            pool_alloc_free(d, "pool alloc+free 1 MiB", 1 << 20)
        }),
        ("launch empty kernel", |d| {
            launch_empty(d, "launch empty kernel", Stream::current_on(d), false)
        }),
        ("launch empty kernel, non-blocking stream", |d| {
            let s =
                Stream::with_options(d, StreamOptions::default().non_blocking(true).priority(0))?;
            launch_empty(d, "launch empty kernel, non-blocking stream", s, false)
        }),
        ("cuLaunchKernel floor, non-blocking stream", |d| {
            let s =
                Stream::with_options(d, StreamOptions::default().non_blocking(true).priority(0))?;
            launch_empty(d, "cuLaunchKernel floor, non-blocking stream", s, true)
        }),
        ("pinned H2D 256 MiB", |d| pinned(d, true)),
        ("pinned D2H 256 MiB", |d| pinned(d, false)),
        ("D2D memcpy 1 GiB", d2d),
        ("add f32 2^28", crate::array_workloads::add_f32),
        (
            "add f32 2^28 optimize",
            crate::array_workloads::optimize::add_f32_tuned,
        ),
        ("add f64 2^28", crate::array_workloads::add_f64),
        ("exp f32 2^28", crate::array_workloads::exp_f32),
        (
            "astype f32->i32 2^28",
            crate::array_workloads::astype_f32_i32,
        ),
        (
            "broadcast add 16384^2+16384",
            crate::array_workloads::broadcast_add,
        ),
        (
            "broadcast add 16384^2+16384 optimize",
            crate::array_workloads::optimize::broadcast_add_tuned,
        ),
        (
            "transpose copy 16384^2 f32",
            crate::array_workloads::transpose_copy,
        ),
        (
            "fused (x-y)^2 f32 2^28",
            crate::array_workloads::fusion::squared_diff,
        ),
        (
            "fused sum(x*y,axis=-1) 16384^2 f32",
            crate::array_workloads::fusion::sum_of_products,
        ),
        (
            "add 16 elements (host per call)",
            crate::array_workloads::tiny_add_host,
        ),
        (
            "sum full f32 2^28",
            crate::array_workloads::reductions::sum_full,
        ),
        (
            "sum full f32 2^28 optimize",
            crate::array_workloads::optimize::sum_full_tuned,
        ),
        (
            "max full f32 2^28",
            crate::array_workloads::reductions::max_full,
        ),
        (
            "sum axis=1 16384^2 f32",
            crate::array_workloads::reductions::sum_axis1,
        ),
        (
            "sum axis=1 16384^2 f32 optimize",
            crate::array_workloads::optimize::sum_axis1_tuned,
        ),
        (
            "sum axis=1 (1024,2^20) f32",
            crate::array_workloads::optimize::sum_axis1_wide,
        ),
        (
            "sum axis=1 (1024,2^20) f32 optimize",
            crate::array_workloads::optimize::sum_axis1_wide_tuned,
        ),
        (
            "sum axis=0 16384^2 f32",
            crate::array_workloads::reductions::sum_axis0,
        ),
        (
            "sum axis=0 16384^2 f32 optimize",
            crate::array_workloads::optimize::sum_axis0_tuned,
        ),
        (
            "argmax full f32 2^28",
            crate::array_workloads::reductions::argmax_full,
        ),
        (
            "std axis=1 16384^2 f32",
            crate::array_workloads::reductions::std_axis1,
        ),
        (
            "cumsum f32 2^26",
            crate::array_workloads::reductions::cumsum,
        ),
        ("fft c2c 2^24 complex64", crate::fft_workloads::c2c_1d),
        (
            "bare cufftExec c2c 2^24 complex64",
            crate::fft_workloads::bare_1d,
        ),
        (
            "fft c2c 2^24 complex64 ortho",
            crate::fft_workloads::c2c_1d_ortho,
        ),
        ("fft2 4096^2 complex64", crate::fft_workloads::fft2_4096),
        (
            "rfft f32 2^24 strided view",
            crate::fft_workloads::rfft_strided,
        ),
        (
            "rfft f32 2^24 contiguous",
            crate::fft_workloads::rfft_contiguous,
        ),
        (
            "rfft f32 2^24 strided view, copied first",
            crate::fft_workloads::rfft_strided_copied,
        ),
        (
            "fft batched 16384x1024 complex64",
            crate::fft_workloads::batched,
        ),
        (
            "bare cufftExec batched 16384x1024 complex64",
            crate::fft_workloads::bare_batched,
        ),
        (
            "bare cufftExec 1024 complex64 (host per call)",
            crate::fft_workloads::bare_small_host,
        ),
        (
            "fft 1024 complex64 (host per call)",
            crate::fft_workloads::small_host,
        ),
        (
            "ndimage gaussian_filter sigma 2 4096^2 f32",
            crate::ndimage_workloads::gaussian,
        ),
        (
            "ndimage uniform_filter 5 4096^2 f32",
            crate::ndimage_workloads::uniform,
        ),
        (
            "ndimage median_filter 3 4096^2 f32",
            crate::ndimage_workloads::median,
        ),
        (
            "ndimage zoom 2x order 1 4096^2 f32",
            crate::ndimage_workloads::zoom,
        ),
        (
            "ndimage map_coordinates order 3 4096^2 f32",
            crate::ndimage_workloads::map_coordinates,
        ),
        (
            "ndimage gaussian_filter sigma 2 512^3 f32",
            crate::ndimage_workloads::gaussian_3d,
        ),
        (
            "ndimage binary_erosion 3x3 4096^2",
            crate::ndimage_workloads::binary_erosion,
        ),
        (
            "ndimage label 4096^2 random binary",
            crate::ndimage_workloads::label,
        ),
        (
            "ndimage distance_transform_edt 4096^2 random binary",
            crate::ndimage_workloads::distance_edt,
        ),
        (
            "signal fftconvolve 2^22 * 4096 f32",
            crate::signal_workloads::fftconvolve,
        ),
        (
            "signal convolve2d 2048^2 * 7x7 same f32",
            crate::signal_workloads::convolve2d,
        ),
        (
            "signal welch 2^24 nperseg 4096 f32",
            crate::signal_workloads::welch,
        ),
        (
            "signal resample_poly 2^24 up 3 down 2 f32",
            crate::signal_workloads::resample_poly,
        ),
        (
            "signal lfilter order 8 one signal 2^24 f32",
            crate::signal_workloads::lfilter,
        ),
        (
            "signal sosfilt 4 sections 1024 x 2^14 f32",
            crate::signal_workloads::sosfilt,
        ),
        (
            "sparse csr SpMV f32 2^20x16",
            crate::sparse_workloads::spmv_f32,
        ),
        (
            "sparse csr SpMM f32 2^20x16 @ 64 cols",
            crate::sparse_workloads::spmm_f32,
        ),
        (
            "sparse csr SpGEMM A @ A f32 2^20x16",
            crate::sparse_workloads::spgemm_f32,
        ),
        (
            "sparse cg 100 it Poisson 2048^2 f64",
            crate::sparse_workloads::cg_poisson,
        ),
        (
            "sparse cg 100 it Poisson 2048^2 f64 (kernels only)",
            crate::sparse_workloads::cg_poisson_kernels,
        ),
        (
            "sparse csr fancy row indexing 2^16 rows",
            crate::sparse_workloads::take_rows,
        ),
        (
            "sparse coo->csr 2^24 entries f32",
            crate::sparse_workloads::coo_to_csr,
        ),
        ("special erf f32 2^28", crate::special_workloads::erf_f32),
        (
            "special gammaln f32 2^28",
            crate::special_workloads::gammaln_f32,
        ),
        ("special j0 f64 2^27", crate::special_workloads::j0_f64),
        ("special i0e f64 2^27", crate::special_workloads::i0e_f64),
        (
            "special digamma f64 2^27",
            crate::special_workloads::digamma_f64,
        ),
        (
            "special fused expit(x)*erf(y) f32 2^28",
            crate::special_workloads::fused_expit_erf,
        ),
        (
            "random standard_normal f32 2^28",
            crate::random_workloads::standard_normal_f32,
        ),
        (
            "random random f32 2^28",
            crate::random_workloads::random_f32,
        ),
        (
            "random legacy RandomState.normal f32 2^28",
            crate::random_workloads::legacy_normal_f32,
        ),
        (
            "random uniform f64 2^27",
            crate::random_workloads::uniform_f64,
        ),
        (
            "random legacy RandomState.uniform f64 2^27",
            crate::random_workloads::legacy_uniform_f64,
        ),
        (
            "random integers i64 2^27",
            crate::random_workloads::integers_i64,
        ),
        (
            "random permutation 2^26",
            crate::random_workloads::permutation,
        ),
        (
            "random gamma(0.5) f64 2^24",
            crate::random_workloads::gamma_half,
        ),
        (
            "random binomial(100, 0.3) 2^24",
            crate::random_workloads::binomial,
        ),
        ("matmul f32 8192^3", crate::linalg_workloads::matmul_f32),
        ("matmul f16 8192^3", crate::linalg_workloads::matmul_f16),
        ("matmul f64 4096^3", crate::linalg_workloads::matmul_f64),
        (
            "batched matmul 4096x64x64 f32",
            crate::linalg_workloads::batched_matmul,
        ),
        ("cholesky f32 4096", crate::linalg_workloads::cholesky_f32),
        (
            "solve f32 4096x4096 rhs 4096",
            crate::linalg_workloads::solve_f32,
        ),
        ("svd f32 2048", crate::linalg_workloads::svd_f32),
        ("eigh f32 2048", crate::linalg_workloads::eigh_f32),
        ("sort f32 2^26", crate::sort_workloads::sort_f32),
        ("argsort f32 2^26", crate::sort_workloads::argsort_f32),
        (
            "concatenate 2x2^27 f32",
            crate::sort_workloads::concatenate_f32,
        ),
        ("take 2^26 from 2^28", crate::sort_workloads::take_random),
        (
            "where(a>0,a,b) two calls f32 2^28",
            crate::sort_workloads::where_f32,
        ),
        (
            "fused where(a>0,a,b) f32 2^28",
            crate::sort_workloads::where_fused_f32,
        ),
        (
            "mask select 2^28 f32",
            crate::sort_workloads::mask_select_f32,
        ),
        (
            "histogram 2^26 f32 256 bins",
            crate::stats_workloads::histogram_f32,
        ),
        ("bincount 2^26 i32", crate::stats_workloads::bincount_i32),
        ("median 2^26 f32", crate::stats_workloads::median_f32),
        (
            "percentile axis=1 4096^2 f32",
            crate::stats_workloads::percentile_axis1_f32,
        ),
    ]
}

fn host_record(name: &'static str, us: f64) -> Record {
    Record {
        name,
        unit: "us",
        median: us,
        rate: None,
        rate_unit: None,
        what: "host",
    }
}

fn gpu_record(name: &'static str, ms: f64, bytes: f64) -> Record {
    Record {
        name,
        unit: "ms",
        median: ms,
        rate: Some(bytes / ms / 1e6),
        rate_unit: Some("GB/s"),
        what: "gpu",
    }
}

fn pool_alloc_free(dev: Device, name: &'static str, size: usize) -> Result<Record> {
    let pool = MemoryPool::default_pool(dev)?;
    let us = host_us(200_000, 7, || {
        let m = pool.malloc(size)?;
        drop(m);
        Ok(())
    })?;
    Ok(host_record(name, us))
}

/// Host time per launch of an empty kernel; `raw` calls `cuLaunchKernel`
/// directly, the floor that any wrapper adds to.
fn launch_empty(dev: Device, name: &'static str, stream: Stream, raw: bool) -> Result<Record> {
    let k = RawKernel::new(r#"extern "C" __global__ void empty() {}"#, "empty", &[])?;
    let k = k.kernel()?;
    dev.bind()?;
    let cfg = LaunchConfig::linear(1, 1);
    if raw {
        let f = k.raw();
        let us = host_us_batched(
            256,
            101,
            || {
                // SAFETY: a live kernel without parameters on a live stream of its device.
                let r = unsafe {
                    gpu_runtime::sys::cuda::cuLaunchKernel(
                        f,
                        1,
                        1,
                        1,
                        1,
                        1,
                        1,
                        0,
                        stream.raw(),
                        std::ptr::null_mut(),
                        std::ptr::null_mut(),
                    )
                }?;
                assert_eq!(r, gpu_runtime::sys::cuda::CUresult::CUDA_SUCCESS);
                Ok(())
            },
            || stream.synchronize(),
        )?;
        return Ok(host_record(name, us));
    }
    // Batches of 256 stay well inside the driver's launch queue.
    let us = host_us_batched(
        256,
        101,
        || {
            // SAFETY: the kernel takes no arguments.
            unsafe { k.launch(&cfg, &stream, &[]) }
        },
        || stream.synchronize(),
    )?;
    Ok(host_record(name, us))
}

fn pinned(dev: Device, h2d: bool) -> Result<Record> {
    const N: usize = 256 << 20;
    let stream = Stream::current_on(dev);
    let mut host = PinnedMemoryPool::default_pool().malloc(N)?;
    host.as_mut_slice().fill(1);
    let device = alloc(N)?;
    let ms = if h2d {
        gpu_ms(&stream, 3, 20, || {
            // SAFETY: `host` is pinned, lives past the timed copies (gpu_ms
            // synchronizes after each), and is not touched meanwhile.
            unsafe { memcpy_htod_async_unchecked(device.ptr(), host.as_ptr(), N, &stream) }
        })?
    } else {
        let dst = host.as_mut_ptr();
        gpu_ms(&stream, 3, 20, || {
            // SAFETY: as above, for writes into `host`.
            unsafe { memcpy_dtoh_async_unchecked(dst, device.ptr(), N, &stream) }
        })?
    };
    let name = if h2d {
        "pinned H2D 256 MiB"
    } else {
        "pinned D2H 256 MiB"
    };
    Ok(gpu_record(name, ms, N as f64))
}

fn d2d(dev: Device) -> Result<Record> {
    const N: usize = 1 << 30;
    let stream = Stream::current_on(dev);
    let a = alloc(N)?;
    let b = alloc(N)?;
    a.memset(1, &stream)?;
    let ms = gpu_ms(&stream, 3, 20, || b.copy_from_device(&a, &stream))?;
    // Read plus write, as CuPy's and the design's bandwidth figures count it.
    Ok(gpu_record("D2D memcpy 1 GiB", ms, 2.0 * N as f64))
}
