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
pub(crate) const COMMON: &str = include_str!("kernels.cu");

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
