//! cuFFT plans: creation through the 64-bit advanced-layout API with the
//! work area taken from Cuprum's memory pool, execution on the caller's
//! stream, and destruction. The crate's only `unsafe` is here.
//!
//! A plan's work area is a pool block (`cufftSetAutoAllocation(0)`,
//! `cufftSetWorkArea`): an allocation failure frees the pool's cached
//! blocks and retries as every other allocation does, and a dropped plan
//! gives the block back to the pool in its stream's order. cuFFT's own
//! small allocations (twiddle tables) at plan creation are retried once
//! after freeing the pool's cached blocks when they fail.

#![allow(unsafe_code)]

use std::sync::Mutex;

use gpu_array::{Error, Result};
use gpu_runtime::memory::alloc_on;
use gpu_runtime::{Device, DevicePtr, Memory, MemoryPool, Stream};
use gpu_sys::cufft;

use crate::layout::Geometry;

/// The six cuFFT transform types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FftType {
    /// complex64 to complex64.
    C2C,
    /// complex128 to complex128.
    Z2Z,
    /// float32 to complex64.
    R2C,
    /// float64 to complex128.
    D2Z,
    /// complex64 to float32.
    C2R,
    /// complex128 to float64.
    Z2D,
}

impl FftType {
    fn raw(self) -> cufft::cufftType {
        match self {
            FftType::C2C => cufft::cufftType::CUFFT_C2C,
            FftType::Z2Z => cufft::cufftType::CUFFT_Z2Z,
            FftType::R2C => cufft::cufftType::CUFFT_R2C,
            FftType::D2Z => cufft::cufftType::CUFFT_D2Z,
            FftType::C2R => cufft::cufftType::CUFFT_C2R,
            FftType::Z2D => cufft::cufftType::CUFFT_Z2D,
        }
    }

    /// cuFFT's name of the type (`"C2C"`, ...).
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftType::R2C.name(), "R2C");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            FftType::C2C => "C2C",
            FftType::Z2Z => "Z2Z",
            FftType::R2C => "R2C",
            FftType::D2Z => "D2Z",
            FftType::C2R => "C2R",
            FftType::Z2D => "Z2D",
        }
    }
}

/// The name and meaning of a cuFFT status.
pub(crate) fn cufft_status(code: u32) -> (&'static str, &'static str) {
    match code {
        1 => ("CUFFT_INVALID_PLAN", "the plan handle is invalid"),
        2 => ("CUFFT_ALLOC_FAILED", "cuFFT failed to allocate GPU memory"),
        3 => ("CUFFT_INVALID_TYPE", "the transform type is not supported"),
        4 => ("CUFFT_INVALID_VALUE", "a pointer or parameter is invalid"),
        5 => ("CUFFT_INTERNAL_ERROR", "a driver or internal cuFFT error"),
        6 => (
            "CUFFT_EXEC_FAILED",
            "the transform failed to execute on the GPU",
        ),
        7 => (
            "CUFFT_SETUP_FAILED",
            "the cuFFT library failed to initialize",
        ),
        8 => ("CUFFT_INVALID_SIZE", "the transform size is not supported"),
        9 => ("CUFFT_UNALIGNED_DATA", "the data is not aligned"),
        11 => ("CUFFT_INVALID_DEVICE", "the plan is used on another device"),
        13 => ("CUFFT_NO_WORKSPACE", "no work area was provided"),
        14 => ("CUFFT_NOT_IMPLEMENTED", "the feature is not implemented"),
        16 => (
            "CUFFT_NOT_SUPPORTED",
            "the operation is not supported for these parameters",
        ),
        17 => (
            "CUFFT_MISSING_DEPENDENCY",
            "a library cuFFT needs is missing",
        ),
        18 => ("CUFFT_NVRTC_FAILURE", "NVRTC failed inside cuFFT"),
        19 => ("CUFFT_NVJITLINK_FAILURE", "nvJitLink failed inside cuFFT"),
        20 => ("CUFFT_NVSHMEM_FAILURE", "NVSHMEM failed inside cuFFT"),
        _ => ("CUFFT_UNKNOWN", "an unknown cuFFT status"),
    }
}

fn check(
    call: &'static str,
    r: std::result::Result<cufft::cufftResult, gpu_sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuFFT", call, r.map(|s| s.0), cufft_status)
}

/// The stream a plan was last bound to, with the lock that keeps two
/// threads from binding and enqueueing on one plan at once (cuFFT plans
/// are not safe to execute concurrently: they share the work area).
#[derive(Debug, Default)]
struct Bound {
    stream: Option<Stream>,
}

/// What cuFFT keeps pointers to after `cufftXtSetJITCallback`: the
/// symbol name, the LTO IR and the caller-info array, alive as long as
/// the plan.
#[derive(Debug)]
struct Callback {
    _symbol: std::ffi::CString,
    _ir: Vec<u8>,
    _info: Box<*mut std::ffi::c_void>,
}

/// One cuFFT plan and its work area.
#[derive(Debug)]
pub(crate) struct RawPlan {
    handle: cufft::cufftHandle,
    kind: FftType,
    device: Device,
    work: Option<Memory>,
    /// The plan's store callback, if it has one.
    callback: Option<Callback>,
    bound: Mutex<Bound>,
}

// SAFETY: the handle is an integer naming cuFFT state that cuFFT allows
// any thread to use; every use that binds or enqueues holds `bound`.
unsafe impl Send for RawPlan {}
// SAFETY: as above.
unsafe impl Sync for RawPlan {}

impl RawPlan {
    /// Makes the plan of `kind` and `geometry` on `stream`'s device, its
    /// work area allocated on `stream`.
    pub(crate) fn new(
        kind: FftType,
        geometry: Geometry,
        scale: Option<f64>,
        stream: &Stream,
    ) -> Result<RawPlan> {
        let device = stream.device();
        device.bind()?;
        match RawPlan::make(kind, geometry, scale, stream) {
            Err(Error::LibraryStatus {
                name: "CUFFT_ALLOC_FAILED",
                ..
            }) => {
                // cuFFT's own allocations failed: give the pool's cached
                // blocks back to the driver and try once more.
                MemoryPool::default_pool(device)?.free_all_blocks()?;
                RawPlan::make(kind, geometry, scale, stream)
            }
            other => other,
        }
    }

    fn make(kind: FftType, g: Geometry, scale: Option<f64>, stream: &Stream) -> Result<RawPlan> {
        let mut handle: cufft::cufftHandle = 0;
        // SAFETY: one out-parameter.
        check("cufftCreate", unsafe { cufft::cufftCreate(&mut handle) })?;
        let mut plan = RawPlan {
            handle,
            kind,
            device: stream.device(),
            work: None,
            callback: None,
            bound: Mutex::new(Bound::default()),
        };
        // SAFETY: a live handle.
        check("cufftSetAutoAllocation", unsafe {
            cufft::cufftSetAutoAllocation(handle, 0)
        })?;
        if let Some(f) = scale {
            let ir = crate::callback::lto_ir(kind, f, stream.device())?;
            let symbol = std::ffi::CString::new(crate::callback::SYMBOL).expect("no NUL");
            // One caller-info pointer per GPU (the callback takes none).
            let mut info: Box<*mut std::ffi::c_void> = Box::new(std::ptr::null_mut());
            // SAFETY: a live plan not yet made; the name and the IR are
            // alive for the call and are kept with the plan after.
            check("cufftXtSetJITCallback", unsafe {
                gpu_sys::cufft_xt::cufftXtSetJITCallback(
                    handle,
                    symbol.as_ptr(),
                    ir.as_ptr().cast(),
                    ir.len(),
                    crate::callback::store_type(kind),
                    info.as_mut() as *mut *mut std::ffi::c_void,
                )
            })?;
            // cuFFT reads the name and the IR again when the plan is
            // made: both live in the plan, as long as it does.
            plan.callback = Some(Callback {
                _symbol: symbol,
                _ir: ir,
                _info: info,
            });
        }
        let rank = g.rank;
        let mut n = g.n;
        let mut inembed = g.inembed;
        let mut onembed = g.onembed;
        // cuFFT picks its fastest kernels for the basic layout, which it
        // is told by null embeds: pass them whenever the data is packed.
        let (ip, op) = if g.is_packed(kind) {
            (std::ptr::null_mut(), std::ptr::null_mut())
        } else {
            (inembed.as_mut_ptr(), onembed.as_mut_ptr())
        };
        let mut work_size = 0usize;
        let small = |v: i64| i32::try_from(v).ok();
        let fits = [g.istride, g.idist, g.ostride, g.odist, g.batch]
            .iter()
            .chain(&g.n)
            .chain(&g.inembed)
            .chain(&g.onembed)
            .all(|&v| small(v).is_some());
        if plan.callback.is_some() && fits {
            // Callback plans go through the 32-bit planner, the one cuFFT's
            // callback samples use.
            let to32 = |a: &[i64; 3]| a.map(|v| v as i32);
            let (mut n32, mut in32, mut on32) = (to32(&g.n), to32(&g.inembed), to32(&g.onembed));
            let (ip32, op32) = if ip.is_null() {
                (std::ptr::null_mut(), std::ptr::null_mut())
            } else {
                (in32.as_mut_ptr(), on32.as_mut_ptr())
            };
            // SAFETY: as below, with the same values in 32 bits.
            check("cufftMakePlanMany", unsafe {
                cufft::cufftMakePlanMany(
                    handle,
                    rank as i32,
                    n32.as_mut_ptr(),
                    ip32,
                    g.istride as i32,
                    g.idist as i32,
                    op32,
                    g.ostride as i32,
                    g.odist as i32,
                    kind.raw(),
                    g.batch as i32,
                    &mut work_size,
                )
            })?;
        } else {
            // SAFETY: the arrays hold `rank` (<= 3) entries; cuFFT reads them
            // during the call only.
            check("cufftMakePlanMany64", unsafe {
                cufft::cufftMakePlanMany64(
                    handle,
                    rank as i32,
                    n.as_mut_ptr(),
                    ip,
                    g.istride,
                    g.idist,
                    op,
                    g.ostride,
                    g.odist,
                    kind.raw(),
                    g.batch,
                    &mut work_size,
                )
            })?;
        }
        if work_size > 0 {
            let work = alloc_on(work_size, stream)?;
            // SAFETY: a live plan; the block is at least `work_size` bytes
            // and lives as long as the plan (it is dropped after the handle).
            check("cufftSetWorkArea", unsafe {
                cufft::cufftSetWorkArea(handle, work.ptr().raw() as *mut std::ffi::c_void)
            })?;
            plan.work = Some(work);
        }
        Ok(plan)
    }

    /// Bytes of the work area.
    pub(crate) fn work_size(&self) -> usize {
        self.work.as_ref().map_or(0, Memory::size)
    }

    /// Enqueues one execution on `stream` at each `(input, output)`
    /// address pair; `inverse` picks the direction of c2c transforms.
    ///
    /// The caller guarantees that each pair addresses live memory of the
    /// plan's device holding the elements the plan's geometry spans, of
    /// the plan's types, and keeps that memory until the stream is past
    /// the work.
    pub(crate) fn execute(
        &self,
        stream: &Stream,
        pairs: &[(DevicePtr, DevicePtr)],
        inverse: bool,
    ) -> Result<()> {
        if stream.device() != self.device {
            return Err(Error::Value(format!(
                "the FFT plan was made on device {} but is executed on device {}",
                self.device.ordinal(),
                stream.device().ordinal()
            )));
        }
        let mut bound = self.bound.lock().unwrap_or_else(|p| p.into_inner());
        if bound.stream.as_ref().map(Stream::id) != Some(stream.id()) {
            if let Some(previous) = &bound.stream {
                // The work area was last used on another stream: the new
                // one starts after that work, and the block's release waits
                // for both.
                stream.wait_event(&previous.record()?)?;
            }
            if let Some(work) = &self.work {
                work.record_stream(stream);
            }
            // SAFETY: a live handle and a stream of its device.
            check("cufftSetStream", unsafe {
                cufft::cufftSetStream(self.handle, stream.handle()? as cufft::cudaStream_t)
            })?;
            bound.stream = Some(stream.clone());
        }
        self.device.bind()?;
        let dir = if inverse {
            cufft::CUFFT_INVERSE as i32
        } else {
            cufft::CUFFT_FORWARD
        };
        for &(i, o) in pairs {
            let (i, o) = (
                i.raw() as *mut std::ffi::c_void,
                o.raw() as *mut std::ffi::c_void,
            );
            // SAFETY: the caller's contract above; the plan's types match
            // the pointers' element types by construction of `kind`.
            let r = unsafe {
                match self.kind {
                    FftType::C2C => cufft::cufftExecC2C(self.handle, i.cast(), o.cast(), dir),
                    FftType::Z2Z => cufft::cufftExecZ2Z(self.handle, i.cast(), o.cast(), dir),
                    FftType::R2C => cufft::cufftExecR2C(self.handle, i.cast(), o.cast()),
                    FftType::D2Z => cufft::cufftExecD2Z(self.handle, i.cast(), o.cast()),
                    FftType::C2R => cufft::cufftExecC2R(self.handle, i.cast(), o.cast()),
                    FftType::Z2D => cufft::cufftExecZ2D(self.handle, i.cast(), o.cast()),
                }
            };
            check("cufftExec", r)?;
        }
        Ok(())
    }
}

impl Drop for RawPlan {
    fn drop(&mut self) {
        let bound = self.bound.get_mut().unwrap_or_else(|p| p.into_inner());
        if self.device.bind().is_err() {
            return;
        }
        // cuFFT may free its tables without waiting for queued work:
        // wait for the plan's last stream first. A failure has nowhere to
        // go from a destructor; the plan is then leaked rather than freed
        // under running work.
        if let Some(stream) = bound.stream.take()
            && let Ok(raw) = stream.handle()
        {
            // SAFETY: a live stream of the bound device.
            match unsafe { gpu_sys::cuda::cuStreamSynchronize(raw) } {
                Ok(r) if r.0 == 0 => {}
                _ => return,
            }
        }
        // SAFETY: made by cufftCreate, destroyed once; the work area is
        // released after (field drop order).
        let _ = unsafe { cufft::cufftDestroy(self.handle) };
    }
}

/// cuFFT's version (`cufftGetVersion`), e.g. 12000 for cuFFT 12.0.
///
/// ```no_run
/// let v = gpu_fft::cufft_version()?;
/// assert!(v >= 11000);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// cuFFT could not be loaded.
pub fn cufft_version() -> Result<i32> {
    let mut v = 0;
    // SAFETY: one out-parameter.
    check("cufftGetVersion", unsafe { cufft::cufftGetVersion(&mut v) })?;
    Ok(v)
}

/// One multi-GPU 1-D complex transform (cufftXt, CuPy's
/// `use_multi_gpus`): `batch` transforms of `n` points from the
/// contiguous `input` into the contiguous `output` (both on the current
/// device), spread over `devices`. cuFFT requires the data in its own
/// descriptor spread over the GPUs, so the input is copied in and the
/// result out (`cufftXtMemcpy`, which puts it back in natural order);
/// those copies are synchronous, and the caller synchronized the input's
/// stream first. The plan is made for the call and destroyed after it,
/// its work areas allocated by cuFFT on each GPU.
///
/// The caller guarantees that `input` and `output` address `n * batch`
/// elements of `kind`'s complex type.
pub(crate) fn multi_gpu_c2c(
    kind: FftType,
    n: i64,
    batch: i64,
    devices: &[i32],
    input: DevicePtr,
    output: DevicePtr,
    inverse: bool,
) -> Result<()> {
    use gpu_sys::cufft_xt as xt;
    if !matches!(kind, FftType::C2C | FftType::Z2Z) {
        return Err(Error::Unsupported(
            "multi-GPU transforms are complex-to-complex only".into(),
        ));
    }
    let mut handle: cufft::cufftHandle = 0;
    // SAFETY: one out-parameter.
    check("cufftCreate", unsafe { cufft::cufftCreate(&mut handle) })?;
    struct Guard(cufft::cufftHandle, *mut xt::cudaLibXtDesc);
    impl Drop for Guard {
        fn drop(&mut self) {
            // SAFETY: made by this call, freed and destroyed once.
            unsafe {
                if !self.1.is_null() {
                    let _ = xt::cufftXtFree(self.1);
                }
                let _ = cufft::cufftDestroy(self.0);
            }
        }
    }
    let mut guard = Guard(handle, std::ptr::null_mut());
    let mut ids: Vec<i32> = devices.to_vec();
    // SAFETY: a live plan not yet made; `ids` holds `len` device ordinals.
    check("cufftXtSetGPUs", unsafe {
        xt::cufftXtSetGPUs(handle, ids.len() as i32, ids.as_mut_ptr())
    })?;
    let mut len = [n, 0, 0];
    // One work size per GPU.
    let mut work = vec![0usize; ids.len()];
    // SAFETY: basic layout (null embeds); `work` has one entry per GPU.
    check("cufftMakePlanMany64", unsafe {
        cufft::cufftMakePlanMany64(
            handle,
            1,
            len.as_mut_ptr(),
            std::ptr::null_mut(),
            1,
            n,
            std::ptr::null_mut(),
            1,
            n,
            kind.raw(),
            batch,
            work.as_mut_ptr(),
        )
    })?;
    let mut desc: *mut xt::cudaLibXtDesc = std::ptr::null_mut();
    // SAFETY: a made multi-GPU plan; one out-parameter.
    check("cufftXtMalloc", unsafe {
        xt::cufftXtMalloc(
            handle,
            &mut desc,
            xt::cufftXtSubFormat::CUFFT_XT_FORMAT_INPLACE,
        )
    })?;
    guard.1 = desc;
    let dir = if inverse {
        cufft::CUFFT_INVERSE as i32
    } else {
        cufft::CUFFT_FORWARD
    };
    // SAFETY: the descriptor was allocated for this plan; `input` and
    // `output` hold the plan's elements (the caller's contract); with
    // unified addressing the "host" side may be device memory, as CuPy
    // uses it.
    unsafe {
        check(
            "cufftXtMemcpy",
            xt::cufftXtMemcpy(
                handle,
                desc.cast(),
                input.raw() as *mut std::ffi::c_void,
                xt::cufftXtCopyType::CUFFT_COPY_HOST_TO_DEVICE,
            ),
        )?;
        check(
            "cufftXtExecDescriptor",
            xt::cufftXtExecDescriptor(handle, desc, desc, dir),
        )?;
        check(
            "cufftXtMemcpy",
            xt::cufftXtMemcpy(
                handle,
                output.raw() as *mut std::ffi::c_void,
                desc.cast(),
                xt::cufftXtCopyType::CUFFT_COPY_DEVICE_TO_HOST,
            ),
        )?;
    }
    drop(guard);
    Ok(())
}
