//! cuRAND host generators (XORWOW, MRG32k3a, Philox4_32_10), the bit
//! sources of the legacy [`RandomState`](crate::RandomState): one
//! generator per state and device, bound to the stream of each call.
#![allow(unsafe_code)]

use gpu_array::kernels::output;
use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::library_context::{keeping_context, make_current};
use gpu_runtime::sys::curand;

/// CuPy's `method` of a `RandomState`: which cuRAND generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Method {
    /// `CURAND_RNG_PSEUDO_XORWOW`, CuPy's default.
    #[default]
    Xorwow,
    /// `CURAND_RNG_PSEUDO_MRG32K3A`.
    Mrg32k3a,
    /// `CURAND_RNG_PSEUDO_PHILOX4_32_10`.
    Philox4x3210,
}

impl Method {
    fn rng_type(self) -> curand::curandRngType {
        match self {
            Method::Xorwow => curand::curandRngType::CURAND_RNG_PSEUDO_XORWOW,
            Method::Mrg32k3a => curand::curandRngType::CURAND_RNG_PSEUDO_MRG32K3A,
            Method::Philox4x3210 => curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10,
        }
    }

    /// A tag mixed into the seed of the state's Philox streams, so two
    /// methods with one seed do not share them.
    pub(crate) fn tag(self) -> u64 {
        match self {
            Method::Xorwow => 101,
            Method::Mrg32k3a => 121,
            Method::Philox4x3210 => 161,
        }
    }
}

fn curand_status(code: u32) -> (&'static str, &'static str) {
    match code {
        100 => (
            "CURAND_STATUS_VERSION_MISMATCH",
            "header and linked library versions differ",
        ),
        101 => (
            "CURAND_STATUS_NOT_INITIALIZED",
            "the generator was not initialized",
        ),
        102 => (
            "CURAND_STATUS_ALLOCATION_FAILED",
            "memory allocation failed",
        ),
        103 => (
            "CURAND_STATUS_TYPE_ERROR",
            "the generator is the wrong type",
        ),
        104 => ("CURAND_STATUS_OUT_OF_RANGE", "an argument is out of range"),
        105 => (
            "CURAND_STATUS_LENGTH_NOT_MULTIPLE",
            "the length is not a multiple of the dimension",
        ),
        106 => (
            "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED",
            "the GPU lacks double precision",
        ),
        201 => ("CURAND_STATUS_LAUNCH_FAILURE", "a kernel launch failed"),
        202 => (
            "CURAND_STATUS_PREEXISTING_FAILURE",
            "an earlier kernel failed",
        ),
        203 => (
            "CURAND_STATUS_INITIALIZATION_FAILED",
            "CUDA initialization failed",
        ),
        204 => (
            "CURAND_STATUS_ARCH_MISMATCH",
            "the GPU does not support the operation",
        ),
        _ => ("CURAND_STATUS_INTERNAL_ERROR", "an internal cuRAND error"),
    }
}

fn check(
    call: &'static str,
    r: std::result::Result<curand::curandStatus, gpu_runtime::sys::LoadError>,
) -> Result<()> {
    gpu_array::error::check_library_status("cuRAND", call, r.map(|s| s.0), curand_status)
}

/// One cuRAND generator on one device.
#[derive(Debug)]
pub(crate) struct Curand {
    raw: curand::curandGenerator_t,
    ordinal: i32,
    /// The stream of the last generation: cuRAND keeps the generator's
    /// state in device memory and updates it in the generation's kernels,
    /// so a call on another stream first waits for that one (`bind`).
    last: Option<gpu_runtime::Stream>,
}

// SAFETY: a cuRAND generator may be used from any thread as long as no two
// calls use it at once; `Curand` is reached only through `&mut` (a
// `RandomState` method, or the per-device global behind its mutex), and
// the device work of consecutive calls is ordered by `bind` whatever
// stream or thread each came from.
unsafe impl Send for Curand {}

impl Curand {
    /// A generator of `method` on the current device, seeded.
    pub(crate) fn new(method: Method, seed: u64) -> Result<Curand> {
        let dev = gpu_runtime::Device::current()?;
        dev.bind()?;
        let mut raw: curand::curandGenerator_t = std::ptr::null_mut();
        check(
            "curandCreateGenerator",
            keeping_context(|| {
                // SAFETY: `raw` is a valid out-pointer; the device's context is current.
                unsafe { curand::curandCreateGenerator(&mut raw, method.rng_type()) }
            }),
        )?;
        let g = Curand {
            raw,
            ordinal: dev.ordinal(),
            last: None,
        };
        // SAFETY: a live generator.
        check("curandSetPseudoRandomGeneratorSeed", unsafe {
            curand::curandSetPseudoRandomGeneratorSeed(g.raw, seed)
        })?;
        Ok(g)
    }

    /// The device the generator belongs to.
    pub(crate) fn ordinal(&self) -> i32 {
        self.ordinal
    }

    /// Binds the generator to `out`'s stream, ordered after the previous
    /// generation when that ran on another stream (the state it updated
    /// is read next).
    fn bind(&mut self, out: &Array) -> Result<()> {
        if out.device().ordinal() != self.ordinal {
            return Err(Error::Value(
                "the RandomState belongs to another device".into(),
            ));
        }
        out.device().bind()?;
        let stream = out.stream();
        if let Some(prev) = &self.last
            && prev.id() != stream.id()
        {
            stream.wait_event(&prev.record()?)?;
        }
        // SAFETY: a live generator; the stream belongs to its device and
        // outlives the work queued on it (the array holds it).
        check("curandSetStream", unsafe {
            curand::curandSetStream(self.raw, stream.handle()? as curand::cudaStream_t)
        })?;
        self.last = Some(stream);
        Ok(())
    }

    /// Fills `out` (fresh, C-contiguous float32 or float64) with uniforms
    /// in (0, 1].
    pub(crate) fn uniform(&mut self, out: &Array) -> Result<()> {
        self.bind(out)?;
        let n = out.size();
        let p = output(out).ptr().raw();
        let raw = self.raw;
        let r = match out.dtype() {
            // SAFETY: `out` holds `n` float32 elements, alive in stream
            // order past the generation (the pool frees it after).
            DType::Float32 => unsafe { curand::curandGenerateUniform(raw, p as *mut f32, n) },
            // SAFETY: as above, `n` float64 elements.
            _ => unsafe { curand::curandGenerateUniformDouble(raw, p as *mut f64, n) },
        };
        check("curandGenerateUniform", r)
    }

    /// Fills `out` (fresh, C-contiguous, an even number of float32 or
    /// float64 elements) with normals, or log-normals when `log`.
    pub(crate) fn normal(&mut self, out: &Array, mean: f64, std: f64, log: bool) -> Result<()> {
        self.bind(out)?;
        let n = out.size();
        debug_assert!(n.is_multiple_of(2));
        let p = output(out).ptr().raw();
        let raw = self.raw;
        let (m32, s32) = (mean as f32, std as f32);
        let r = match (out.dtype(), log) {
            // SAFETY: `out` holds `n` elements of the generated
            // type (an even count, as cuRAND needs; the caller allocates
            // it), alive in stream order past the generation.
            (DType::Float32, false) => unsafe {
                curand::curandGenerateNormal(raw, p as *mut f32, n, m32, s32)
            },
            // SAFETY: as above.
            (DType::Float32, true) => unsafe {
                curand::curandGenerateLogNormal(raw, p as *mut f32, n, m32, s32)
            },
            // SAFETY: as above.
            (_, false) => unsafe {
                curand::curandGenerateNormalDouble(raw, p as *mut f64, n, mean, std)
            },
            // SAFETY: as above.
            (_, true) => unsafe {
                curand::curandGenerateLogNormalDouble(raw, p as *mut f64, n, mean, std)
            },
        };
        check(
            if log {
                "curandGenerateLogNormal"
            } else {
                "curandGenerateNormal"
            },
            r,
        )
    }
}

impl Drop for Curand {
    fn drop(&mut self) {
        // Destroyed in its device's context; the context found is restored.
        // curandDestroyGenerator frees the state with cudaFree, which waits
        // for the device's work, so no generation still queued reads freed
        // memory.
        keeping_context(|| {
            if make_current(self.ordinal) {
                // SAFETY: created by curandCreateGenerator, destroyed once.
                let _ = unsafe { curand::curandDestroyGenerator(self.raw) };
            }
        });
    }
}
