//! The counting kernels of `histogram` and `bincount`: CUDA C++ in a Rust
//! string, one NVRTC program per instantiation, and their launch.
//!
//! One template, three ways to find an element's bin:
//!
//! - `uniform` (histogram with an integer number of bins): NumPy's
//!   `_histogram` fast path, `((x - first) / denom) * nbins` truncated,
//!   then corrected by one against the stored edges (so the result is
//!   exactly NumPy's, edges included); the arithmetic is in the edges'
//!   dtype `T`, the division in `C` (`T`, or float64 where NumPy divides by
//!   a float64 scalar);
//! - `search` (histogram with array bins): a binary search for the last
//!   edge `<= x` (the last bin closed), compared in dtype `C`;
//! - `direct` (bincount): the value itself.
//!
//! Each block counts into a private histogram in shared memory (32-bit
//! counters, or float64 sums for weights; complex weights as two float64
//! per bin) with shared-memory atomics, then adds its nonzero bins to the
//! global result with one global atomic each. Histograms too large for
//! shared memory count straight into global memory. Unweighted contiguous
//! inputs aligned to 16 bytes are read 16 bytes per load.

use std::sync::Arc;

use gpu_runtime::{DevicePtr, LaunchConfig, RawKernel, Stream};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::HEADERS;

/// Threads per block.
pub(crate) const BLOCK: u32 = 256;
/// Dynamic shared memory a block may use for its private histogram
/// (the default limit without opting in).
pub(crate) const SHARED_BYTES: usize = 48 * 1024;

/// The templates of every instantiation.
pub(crate) const COMMON: &str = r#"
#include "cuprum/types.cuh"
#include "cuprum/math.cuh"

namespace cuprum_stats {

template <typename T> __device__ __forceinline__ T from_double(double v) { return cuprum::cast<T>(v); }

// NumPy's equal-width bin of x (edges of dtype T), or -1 outside [first, last]
// (NaN too).
template <typename In, typename T, typename C>
__device__ __forceinline__ long long uniform_bin(const In& x, const T* edges, long long nb,
                                                 const T first, const T last, const C denom) {
  typedef typename cuprum::compute_type<T>::type F;
  typedef typename cuprum::compute_type<C>::type CF;
  const T xt = cuprum::cast<T>(x);
  if (!((F)xt >= (F)first && (F)xt <= (F)last)) return -1;
  const T s = T((F)xt - (F)first);
  C f = C((CF)cuprum::cast<C>(s) / (CF)denom);
  f = C((CF)f * (CF)nb);
  long long idx = cuprum::cast<long long>(f);
  if (idx >= nb) idx = nb - 1;
  if (idx < 0) idx = 0;
  if ((F)xt < (F)edges[idx]) idx -= 1;
  if (idx != nb - 1 && (F)xt >= (F)edges[idx + 1]) idx += 1;
  if (idx < 0) idx = 0;
  if (idx > nb - 1) idx = nb - 1;
  return idx;
}

// The bin of x among nb + 1 sorted edges of dtype E compared in C: the last
// edge <= x, the last bin closed on the right; -1 outside or NaN.
template <typename In, typename E, typename C>
__device__ __forceinline__ long long search_bin(const In& x, const E* edges, long long nb) {
  const C v = cuprum::cast<C>(x);
  if (!(v >= cuprum::cast<C>(edges[0]) && v <= cuprum::cast<C>(edges[nb]))) return -1;
  long long lo = 0, hi = nb + 1;
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (cuprum::cast<C>(edges[mid]) <= v) lo = mid; else hi = mid;
  }
  return lo < nb ? lo : nb - 1;
}

template <int WMODE> struct acc_of { typedef double type; };
template <> struct acc_of<0> { typedef unsigned int type; };

template <typename W> __device__ __forceinline__ double wre(const W& w) { return cuprum::cast<double>(w); }
template <typename R> __device__ __forceinline__ double wre(const cuprum::complex<R>& w) { return (double)w.real(); }
template <typename W> __device__ __forceinline__ double wim(const W&) { return 0.0; }
template <typename R> __device__ __forceinline__ double wim(const cuprum::complex<R>& w) { return (double)w.imag(); }

// MODE 0 uniform, 1 search, 2 direct; WMODE 0 counts, 1 real weights,
// 2 complex weights (two float64 per bin).
template <typename In, typename T, typename C, typename W, int MODE, int WMODE>
__device__ void count(const char* x_, const char* w_, const char* e_, char* out_, long long n,
                      long long nb, double first_d, double last_d, double denom_d, int use_smem) {
  typedef typename acc_of<WMODE>::type A;
  constexpr int K = WMODE == 2 ? 2 : 1;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  A* sh = (A*)smem_raw;
  const In* x = (const In*)x_;
  const W* w = (const W*)w_;
  const T* edges = (const T*)e_;
  const T first = from_double<T>(first_d), last = from_double<T>(last_d);
  const C denom = from_double<C>(denom_d);
  (void)first; (void)last; (void)denom; (void)edges; (void)w;
  if (use_smem) {
    for (long long i = threadIdx.x; i < nb * K; i += blockDim.x) sh[i] = A(0);
    __syncthreads();
  }
  auto bin_of = [&](const In& v) -> long long {
    if constexpr (MODE == 0) {
      return uniform_bin<In, T, C>(v, edges, nb, first, last, denom);
    } else if constexpr (MODE == 1) {
      return search_bin<In, T, C>(v, edges, nb);
    } else {
      const long long b = cuprum::cast<long long>(v);
      return (b >= 0 && b < nb) ? b : -1;
    }
  };
  auto add = [&](long long b, long long i) {
    if constexpr (WMODE == 0) {
      if (use_smem) atomicAdd(&sh[b], 1u);
      else atomicAdd((unsigned long long*)out_ + b, 1ull);
    } else {
      const W wv = w[i];
      double* g = (double*)out_;
      if (use_smem) {
        atomicAdd(&sh[b * K], wre(wv));
        if constexpr (K == 2) atomicAdd(&sh[b * K + 1], wim(wv));
      } else {
        atomicAdd(&g[b * K], wre(wv));
        if constexpr (K == 2) atomicAdd(&g[b * K + 1], wim(wv));
      }
    }
  };
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long step = (long long)gridDim.x * blockDim.x;
  long long rest = 0;
  constexpr int V = (WMODE == 0 && (sizeof(In) == 1 || sizeof(In) == 2 || sizeof(In) == 4 || sizeof(In) == 8))
      ? (int)(16 / sizeof(In)) : 1;
  if constexpr (V > 1) {
    if (((unsigned long long)x_ & 15ull) == 0) {
      const long long nv = n / V;
      // Two 16-byte loads in flight per thread and iteration.
      for (long long q = tid; q < nv; q += 2 * step) {
        const bool two = q + step < nv;
        const uint4 raw0 = ((const uint4*)x_)[q];
        const uint4 raw1 = two ? ((const uint4*)x_)[q + step] : raw0;
        In xs[2 * V];
        memcpy(xs, &raw0, 16);
        memcpy(xs + V, &raw1, 16);
#pragma unroll
        for (int j = 0; j < 2 * V; ++j) {
          if (j >= V && !two) break;
          const long long b = bin_of(xs[j]);
          if (b >= 0) add(b, 0);
        }
      }
      rest = nv * V;
    }
  }
  for (long long i = rest + tid; i < n; i += step) {
    const long long b = bin_of(x[i]);
    if (b >= 0) add(b, i);
  }
  if (use_smem) {
    __syncthreads();
    for (long long i = threadIdx.x; i < nb * K; i += blockDim.x) {
      const A v = sh[i];
      if (v != A(0)) {
        if constexpr (WMODE == 0) atomicAdd((unsigned long long*)out_ + i, (unsigned long long)v);
        else atomicAdd((double*)out_ + i, v);
      }
    }
  }
}

// Min and max of n values in one pass, as order-preserving 64-bit keys
// (integers: the value; floats: the float64 bits with the magnitude of
// negatives flipped), folded into a zeroed out[3] with unsigned atomicMax:
// out[0] = ~u(min), out[1] = u(max) (u: the signed-to-unsigned order map,
// so that 0 is each one's identity), out[2] |= 1 when a NaN was seen.
template <typename In>
__device__ __forceinline__ long long key_of(const In& v, unsigned& nan) {
  if constexpr (cuprum::is_floating<In>::value) {
    const double d = cuprum::cast<double>(v);
    if (d != d) { nan = 1u; return 0x7fffffffffffffffLL; }
    const long long b = __double_as_longlong(d);
    return b >= 0 ? b : b ^ 0x7fffffffffffffffLL;
  } else {
    return (long long)v;
  }
}

template <typename In>
__device__ void minmax(const char* x_, unsigned long long* out, long long n) {
  const In* x = (const In*)x_;
  long long kmin = 0x7fffffffffffffffLL, kmax = (-0x7fffffffffffffffLL - 1);
  unsigned nan = 0u;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long step = (long long)gridDim.x * blockDim.x;
  long long rest = 0;
  constexpr int V = (sizeof(In) == 1 || sizeof(In) == 2 || sizeof(In) == 4 || sizeof(In) == 8)
      ? (int)(16 / sizeof(In)) : 1;
  if constexpr (V > 1) {
    if (((unsigned long long)x_ & 15ull) == 0) {
      const long long nv = n / V;
      for (long long q = tid; q < nv; q += 2 * step) {
        const bool two = q + step < nv;
        const uint4 raw0 = ((const uint4*)x_)[q];
        const uint4 raw1 = two ? ((const uint4*)x_)[q + step] : raw0;
        In xs[2 * V];
        memcpy(xs, &raw0, 16);
        memcpy(xs + V, &raw1, 16);
#pragma unroll
        for (int j = 0; j < 2 * V; ++j) {
          unsigned nn = 0u;
          const long long k = key_of(xs[j], nn);
          if (nn) { nan = 1u; } else { kmin = k < kmin ? k : kmin; kmax = k > kmax ? k : kmax; }
        }
      }
      rest = nv * V;
    }
  }
  for (long long i = rest + tid; i < n; i += step) {
    unsigned nn = 0u;
    const long long k = key_of(x[i], nn);
    if (nn) { nan = 1u; } else { kmin = k < kmin ? k : kmin; kmax = k > kmax ? k : kmax; }
  }
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) {
    const long long a = __shfl_xor_sync(0xffffffffu, kmin, d);
    const long long b = __shfl_xor_sync(0xffffffffu, kmax, d);
    kmin = a < kmin ? a : kmin;
    kmax = b > kmax ? b : kmax;
  }
  // One atomic per block: the warps' results through shared memory.
  __shared__ long long s_min[32], s_max[32];
  __shared__ unsigned s_nan;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31, warps = blockDim.x >> 5;
  if (threadIdx.x == 0) s_nan = 0u;
  __syncthreads();
  if (lane == 0) {
    s_min[warp] = kmin;
    s_max[warp] = kmax;
  }
  if (nan) s_nan = 1u;
  __syncthreads();
  if (warp != 0) return;
  kmin = lane < warps ? s_min[lane] : 0x7fffffffffffffffLL;
  kmax = lane < warps ? s_max[lane] : (-0x7fffffffffffffffLL - 1);
#pragma unroll
  for (int d = 16; d >= 1; d >>= 1) {
    const long long a = __shfl_xor_sync(0xffffffffu, kmin, d);
    const long long b = __shfl_xor_sync(0xffffffffu, kmax, d);
    kmin = a < kmin ? a : kmin;
    kmax = b > kmax ? b : kmax;
  }
  const unsigned any_nan = s_nan;
  if (lane == 0) {
    const unsigned long long sign = 0x8000000000000000ull;
    const unsigned long long umin = (unsigned long long)kmin ^ sign;
    const unsigned long long umax = (unsigned long long)kmax ^ sign;
    if (umin != ~0ull) atomicMax(&out[0], ~umin);
    if (umax != 0ull) atomicMax(&out[1], umax);
    if (any_nan) atomicOr(&out[2], 1ull);
  }
}

}  // namespace cuprum_stats

#define CUPRUM_MINMAX(NAME, IN)                                                                   \
  extern "C" __global__ void __launch_bounds__(256) NAME(                                         \
      const char* x, const char* w, const char* e, char* out, long long n, long long nb,          \
      double first, double last, double denom, int use_smem) {                                    \
    cuprum_stats::minmax<IN>(x, (unsigned long long*)out, n); }

#define CUPRUM_COUNT(NAME, IN, T, C, W, MODE, WMODE)                                              \
  extern "C" __global__ void __launch_bounds__(256) NAME(                                         \
      const char* x, const char* w, const char* e, char* out, long long n, long long nb,          \
      double first, double last, double denom, int use_smem) {                                    \
    cuprum_stats::count<IN, T, C, W, MODE, WMODE>(x, w, e, out, n, nb, first, last, denom, use_smem); }
"#;

/// How a counting kernel finds bins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BinMode {
    /// Equal-width bins (edges `T`, division in `C`).
    Uniform,
    /// Sorted edges of dtype `T`, compared in `C`.
    Search,
    /// The integer value is the bin (bincount).
    Direct,
}

/// What a counting kernel accumulates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Weights {
    /// Counts into int64.
    None,
    /// Real weights of this dtype, summed in float64.
    Real(DType),
    /// Complex weights of this dtype, each part summed in float64.
    Complex(DType),
}

/// One instantiation of the counting template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct CountKernel {
    pub(crate) mode: BinMode,
    pub(crate) input: DType,
    /// Edges dtype (`Uniform`, `Search`); ignored by `Direct`.
    pub(crate) edges: DType,
    /// Division (`Uniform`) or comparison (`Search`) dtype.
    pub(crate) calc: DType,
    pub(crate) weights: Weights,
}

impl CountKernel {
    /// The kernel's `extern "C"` name.
    pub(crate) fn name(&self) -> String {
        let (m, e, c) = match self.mode {
            BinMode::Uniform => ("uniform", self.edges.name(), self.calc.name()),
            BinMode::Search => ("search", self.edges.name(), self.calc.name()),
            BinMode::Direct => ("direct", "none", "none"),
        };
        let w = match self.weights {
            Weights::None => "count".to_owned(),
            Weights::Real(d) => format!("w_{}", d.name()),
            Weights::Complex(d) => format!("cw_{}", d.name()),
        };
        format!("cuprum_count_{m}_{}_{e}_{c}_{w}", self.input.name())
    }

    /// Bytes of one bin's accumulator in shared memory.
    pub(crate) fn bin_bytes(&self) -> usize {
        match self.weights {
            Weights::None => 4,
            Weights::Real(_) => 8,
            Weights::Complex(_) => 16,
        }
    }

    /// The instantiation line.
    pub(crate) fn instantiation(&self) -> String {
        let (t, c) = match self.mode {
            BinMode::Direct => ("double", "double"),
            _ => (self.edges.c_type(), self.calc.c_type()),
        };
        let (w, wm) = match self.weights {
            Weights::None => ("unsigned char", 0),
            Weights::Real(d) => (d.c_type(), 1),
            Weights::Complex(d) => (d.c_type(), 2),
        };
        let mode = match self.mode {
            BinMode::Uniform => 0,
            BinMode::Search => 1,
            BinMode::Direct => 2,
        };
        format!(
            "CUPRUM_COUNT({}, {}, {t}, {c}, {w}, {mode}, {wm})\n",
            self.name(),
            self.input.c_type()
        )
    }
}

/// The source of a program holding `kernels`.
pub fn program_source_of(kernels: &[CountKernel]) -> String {
    kernels.iter().fold(COMMON.to_owned(), |mut s, k| {
        s.push_str(&k.instantiation());
        s
    })
}

/// The NVRTC request of the program of one instantiation line (a counting
/// kernel's or a min/max kernel's), without an architecture: what the
/// launchers compile and what `cargo xtask precompile` compiles ahead of
/// time.
pub(crate) fn program_request(line: &str) -> gpu_runtime::nvrtc::CompileRequest {
    HEADERS.iter().fold(
        gpu_runtime::nvrtc::CompileRequest::new(format!("{COMMON}{line}")),
        |r, (n, text)| r.header(*n, *text),
    )
}

/// The compiled kernel of one instantiation line, named `name`, cached
/// for the process.
fn kernel_of(name: String, line: String) -> Result<Arc<RawKernel>> {
    Ok(RawKernel::cached(&name, || {
        RawKernel::from_request(program_request(&line), &name)
    })?)
}

fn kernel(k: &CountKernel) -> Result<Arc<RawKernel>> {
    kernel_of(k.name(), k.instantiation())
}

/// The one-pass min/max kernel of `input`: its name and instantiation.
pub(crate) fn minmax_kernel(input: DType) -> (String, String) {
    let name = format!("cuprum_minmax_{}", input.name());
    let line = format!("CUPRUM_MINMAX({name}, {})\n", input.c_type());
    (name, line)
}

/// Whether [`minmax`] takes `input` (integers of at most 63 bits of
/// magnitude: not uint64; floats; not bool or complex).
pub(crate) fn minmax_supports(input: DType) -> bool {
    (input.is_integer() && input != DType::UInt64) || input.is_floating()
}

/// The min and max of the `n` C-contiguous values at `x` (of `input`) as
/// order keys decoded on the host: one pass, one 24-byte copy back.
/// Returns `None` when a NaN was seen.
pub(crate) fn minmax(
    input: DType,
    stream: &Stream,
    x: DevicePtr,
    n: usize,
    out: &crate::array::Array,
) -> Result<Option<(i64, i64)>> {
    let (name, line) = minmax_kernel(input);
    let raw = kernel_of(name, line)?;
    out.zero_contiguous()?;
    let sms = stream.device().properties()?.multiprocessor_count.max(1) as usize;
    let blocks = n.div_ceil(BLOCK as usize * 16).clamp(1, sms * 8);
    let cfg = LaunchConfig::new((blocks as u32, 1, 1), (BLOCK, 1, 1));
    let nn = i64::try_from(n).map_err(|_| Error::Value("minmax: too many elements".into()))?;
    crate::raw::launch_count(
        &raw,
        cfg,
        stream,
        [x, DevicePtr::NULL, DevicePtr::NULL, out.data_ptr()],
        [nn, 0],
        [0.0, 0.0, 0.0],
        0,
    )?;
    let v: Vec<u64> = out.to_vec()?;
    if v[2] != 0 {
        return Ok(None);
    }
    let sign = 1u64 << 63;
    Ok(Some((((!v[0]) ^ sign) as i64, (v[1] ^ sign) as i64)))
}

/// The float64 value of a float's order key.
pub(crate) fn float_of_key(k: i64) -> f64 {
    let b = if k >= 0 { k } else { k ^ i64::MAX };
    f64::from_bits(b as u64)
}

/// Arguments of one counting launch: the C-contiguous input `x` (`n`
/// elements), its C-contiguous weights (or null), the edges (or null),
/// the zeroed output (`nb` int64 counts or float64/complex128 sums), and
/// the uniform case's `first`, `last` and divisor as float64 values
/// (exactly representable in the edges' and the division's dtypes).
pub(crate) struct CountArgs {
    pub(crate) x: DevicePtr,
    pub(crate) w: DevicePtr,
    pub(crate) edges: DevicePtr,
    pub(crate) out: DevicePtr,
    pub(crate) n: usize,
    pub(crate) nb: usize,
    pub(crate) first: f64,
    pub(crate) last: f64,
    pub(crate) denom: f64,
}

/// Launches `k` on `stream` over `a.n` elements with a grid sized to the
/// device (blocks per multiprocessor: 8), privatised in shared memory when
/// `nb` bins fit in [`SHARED_BYTES`] and no block counts more than 2^32 - 1
/// elements.
pub(crate) fn launch(k: &CountKernel, stream: &Stream, a: &CountArgs) -> Result<()> {
    if a.n == 0 {
        return Ok(());
    }
    let raw = kernel(k)?;
    let sms = stream.device().properties()?.multiprocessor_count.max(1) as usize;
    let per_block = BLOCK as usize * 16;
    let blocks = a.n.div_ceil(per_block).clamp(1, sms * 8);
    let smem = a.nb * k.bin_bytes();
    let use_smem = smem <= SHARED_BYTES && a.n.div_ceil(blocks) < u32::MAX as usize;
    let cfg = LaunchConfig::new((blocks as u32, 1, 1), (BLOCK, 1, 1))
        .with_shared_mem(if use_smem { smem as u32 } else { 0 });
    let n = i64::try_from(a.n).map_err(|_| Error::Value("count: too many elements".into()))?;
    crate::raw::launch_count(
        &raw,
        cfg,
        stream,
        [a.x, a.w, a.edges, a.out],
        [n, a.nb as i64],
        [a.first, a.last, a.denom],
        i32::from(use_smem),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_keys_round_trip() {
        for v in [0.0f64, -0.0, 1.5, -1.5, f64::MAX, f64::MIN, 1e-310, -1e-310] {
            let b = v.to_bits() as i64;
            let k = if b >= 0 { b } else { b ^ i64::MAX };
            assert_eq!(float_of_key(k).to_bits(), v.to_bits());
        }
        // Keys order as the values.
        let key = |v: f64| {
            let b = v.to_bits() as i64;
            if b >= 0 { b } else { b ^ i64::MAX }
        };
        assert!(key(-2.0) < key(-1.0) && key(-1.0) < key(-0.0) && key(0.0) < key(1.0));
        assert!(minmax_supports(DType::Int8) && !minmax_supports(DType::UInt64));
        assert!(!minmax_supports(DType::Bool) && !minmax_supports(DType::Complex64));
    }

    #[test]
    fn names_and_instantiations() {
        let k = CountKernel {
            mode: BinMode::Uniform,
            input: DType::Float32,
            edges: DType::Float32,
            calc: DType::Float64,
            weights: Weights::None,
        };
        assert_eq!(
            k.name(),
            "cuprum_count_uniform_float32_float32_float64_count"
        );
        assert_eq!(
            k.instantiation(),
            "CUPRUM_COUNT(cuprum_count_uniform_float32_float32_float64_count, float, float, \
             double, unsigned char, 0, 0)\n"
        );
        let b = CountKernel {
            mode: BinMode::Direct,
            input: DType::Int32,
            edges: DType::Float64,
            calc: DType::Float64,
            weights: Weights::Complex(DType::Complex64),
        };
        assert_eq!(b.bin_bytes(), 16);
        assert!(b.name().ends_with("cw_complex64"));
    }
}
