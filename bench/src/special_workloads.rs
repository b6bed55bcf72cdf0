//! Workloads of gpu-special (issue 20): the reference's rows beside CuPy's
//! cupyx.scipy.special, on inputs both sides compute the same way:
//! `(arange(n) % 1000) * scale + offset`.

use gpu_array::fusion::{FVar, fuse};
use gpu_array::{Array, DType, creation, ufunc};
use gpu_runtime::{Device, Result, Stream};

use crate::Record;
use crate::array_workloads::gpu_rec;
use crate::timing::gpu_ms;

fn err(e: impl std::fmt::Display) -> gpu_runtime::Error {
    gpu_runtime::Error::InvalidArgument(e.to_string())
}

/// `(arange(n) % 1000) * scale + offset` as `dtype`.
fn ramp(n: usize, scale: f64, offset: f64, dtype: DType) -> Result<Array> {
    let k = creation::arange_with(0.0, n as f64, 1.0, Some(DType::Float64)).map_err(err)?;
    let m = ufunc::remainder(&k, 1000.0).map_err(err)?;
    let v = ufunc::add(ufunc::multiply(&m, scale).map_err(err)?, offset).map_err(err)?;
    v.astype(dtype).map_err(err)
}

fn time(dev: Device, mut f: impl FnMut() -> gpu_array::Result<()>) -> Result<f64> {
    gpu_ms(&Stream::current_on(dev), 3, 20, || f().map_err(err))
}

fn unary(
    dev: Device,
    name: &'static str,
    x: Array,
    f: fn(&Array) -> gpu_array::Result<Array>,
) -> Result<Record> {
    let ms = time(dev, || f(&x).map(drop))?;
    Ok(gpu_rec(name, ms, 2 * x.size() * x.itemsize()))
}

pub fn erf_f32(dev: Device) -> Result<Record> {
    let x = ramp(1 << 28, 0.004, -2.0, DType::Float32)?;
    unary(dev, "special erf f32 2^28", x, |x| gpu_special::erf(x))
}

pub fn gammaln_f32(dev: Device) -> Result<Record> {
    let x = ramp(1 << 28, 0.01, 0.05, DType::Float32)?;
    unary(dev, "special gammaln f32 2^28", x, |x| {
        gpu_special::gammaln(x)
    })
}

pub fn j0_f64(dev: Device) -> Result<Record> {
    let x = ramp(1 << 27, 0.05, 0.0, DType::Float64)?;
    unary(dev, "special j0 f64 2^27", x, |x| gpu_special::j0(x))
}

pub fn i0e_f64(dev: Device) -> Result<Record> {
    let x = ramp(1 << 27, 0.05, 0.0, DType::Float64)?;
    unary(dev, "special i0e f64 2^27", x, |x| gpu_special::i0e(x))
}

pub fn digamma_f64(dev: Device) -> Result<Record> {
    let x = ramp(1 << 27, 0.02, 0.01, DType::Float64)?;
    unary(dev, "special digamma f64 2^27", x, |x| {
        gpu_special::digamma(x)
    })
}

pub fn fused_expit_erf(dev: Device) -> Result<Record> {
    let x = ramp(1 << 28, 0.01, -5.0, DType::Float32)?;
    let y = ramp(1 << 28, 0.004, -2.0, DType::Float32)?;
    let f = fuse("expit_times_erf", |x: &FVar, y: &FVar| {
        gpu_special::fused::expit(x) * gpu_special::fused::erf(y)
    });
    let ms = time(dev, || f.call(&[&x, &y]).map(drop))?;
    Ok(gpu_rec(
        "special fused expit(x)*erf(y) f32 2^28",
        ms,
        3 * (1 << 28) * 4,
    ))
}

/// Probe rows (run only when named with `--only`): float32 gammaln's
/// pieces as user kernels over the bench row's input, to find which part
/// of `cuprum::special::gammaln` costs what (0.59 ms with `lgammaf` alone
/// on the H200, 0.93 with the branches that make it accurate).
pub mod probes {
    use super::*;
    use gpu_array::elementwise::ElementwiseKernel;

    /// Variants, each `float probe_gammaln(float)` after gamma.cuh.
    const VARIANTS: [(&str, &str); 6] = [
        // The library function through a user kernel (the harness' control).
        (
            "probe gammaln f32 library",
            "__device__ float probe_gammaln(float x) { return cuprum::special::gammaln(x); }",
        ),
        // CUDA's lgammaf alone (the 0.59 ms of the fourteenth session).
        (
            "probe gammaln f32 lgammaf",
            "__device__ float probe_gammaln(float x) { return ::lgammaf(x); }",
        ),
        // The Taylor branch near 1 and 2, no branch below 0.
        (
            "probe gammaln f32 taylor only",
            "__device__ float probe_gammaln(float x) {\n\
               if (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f)\n\
                 return cuprum::special::detail::gammaln_near_zeros(x);\n\
               return ::lgammaf(x); }",
        ),
        // The not-inlined double call below 0, no Taylor branch.
        (
            "probe gammaln f32 call only",
            "__device__ float probe_gammaln(float x) {\n\
               if (x < 0.0f) return cuprum::special::detail::gammaln_via_double(x);\n\
               return ::lgammaf(x); }",
        ),
        // The library's structure with the 24th session's predecessor of
        // the Taylor branch: the same series in double (coefficients
        // selected per term), to time the float version against it.
        (
            "probe gammaln f32 double taylor",
            "__device__ float probe_near_zeros_d(float x) {\n\
               const double c1[11] = {-0.5772156649015329, 0.8224670334241132,\n\
                 -0.40068563438653143, 0.27058080842778454, -0.20738555102867398,\n\
                 0.1695571769974082, -0.1440498967688461, 0.12550966952474304,\n\
                 -0.11133426586956469, 0.1000994575127818, -0.09095401714582904};\n\
               const double c2[11] = {0.42278433509846713, 0.3224670334241132,\n\
                 -0.0673523010531981, 0.020580808427784546, -0.007385551028673986,\n\
                 0.0028905103307415234, -0.001192753911703261, 0.0005096695247430425,\n\
                 -0.00022315475845357939, 9.945751278180853e-05, -4.492623673813314e-05};\n\
               const bool one = x < 1.5f;\n\
               const double e = (double)x - (one ? 1.0 : 2.0);\n\
               double p = one ? c1[10] : c2[10];\n\
             #pragma unroll\n\
               for (int k = 9; k >= 0; --k) p = ::fma(p, e, one ? c1[k] : c2[k]);\n\
               return (float)(p * e); }\n\
             __device__ float probe_gammaln(float x) {\n\
               if (x == -__int_as_float(0x7f800000)) return x;\n\
               if (x < 0.0f) return cuprum::special::detail::gammaln_via_double(x);\n\
               if (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f)\n\
                 return probe_near_zeros_d(x);\n\
               return ::lgammaf(x); }",
        ),
        // Both, the negative branch inlined (no call).
        (
            "probe gammaln f32 inline double",
            "__device__ float probe_gammaln(float x) {\n\
               if (x == -__int_as_float(0x7f800000)) return x;\n\
               if (x < 0.0f) return (float)::lgamma((double)x);\n\
               if (::fabsf(x - 1.0f) < 0.1f || ::fabsf(x - 2.0f) < 0.1f)\n\
                 return cuprum::special::detail::gammaln_near_zeros(x);\n\
               return ::lgammaf(x); }",
        ),
    ];

    fn run(dev: Device, name: &'static str) -> Result<Record> {
        let (_, body) = VARIANTS
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| err(format!("no probe {name}")))?;
        let k = ElementwiseKernel::new("float32 x", "float32 y", "y = probe_gammaln(x);", "probe")
            .map_err(err)?
            .with_preamble(format!("#include \"cuprum/special/gamma.cuh\"\n{body}\n"));
        let x = ramp(1 << 28, 0.01, 0.05, DType::Float32)?;
        let y = Array::empty([1usize << 28], DType::Float32).map_err(err)?;
        let ms = time(dev, || {
            k.call(&[(&x).into()], &[&y], None)?;
            Ok(())
        })?;
        Ok(gpu_rec(name, ms, 2 * x.size() * x.itemsize()))
    }

    /// The probe rows, by name.
    pub fn all() -> Vec<crate::workloads::Workload> {
        // Workloads are plain fn pointers: one small fn a variant.
        macro_rules! variant {
            ($f:ident, $i:expr) => {
                fn $f(d: Device) -> Result<Record> {
                    run(d, VARIANTS[$i].0)
                }
            };
        }
        variant!(library, 0);
        variant!(lgammaf, 1);
        variant!(taylor, 2);
        variant!(call, 3);
        variant!(double_taylor, 4);
        variant!(inline, 5);
        vec![
            (VARIANTS[0].0, library),
            (VARIANTS[1].0, lgammaf),
            (VARIANTS[2].0, taylor),
            (VARIANTS[3].0, call),
            (VARIANTS[4].0, double_taylor),
            (VARIANTS[5].0, inline),
        ]
    }
}
