//! The counting kernels of `histogram` and `bincount`: CUDA C++ in
//! `kernels.cu` beside this file, one NVRTC program per instantiation, and
//! their launch.
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

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, LaunchConfig, Stream, TypedKernel};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::{input, output};

/// Threads per block.
pub(crate) const BLOCK: u32 = 256;
/// Dynamic shared memory a block may use for its private histogram
/// (the default limit without opting in).
pub(crate) const SHARED_BYTES: usize = 48 * 1024;

/// The templates of every instantiation.
pub(crate) const COMMON: &str = include_str!("kernels.cu");

gpu_runtime::kernel_signature! {
    /// `cuprum_count_*` ([`CountKernel::name`]): bins the `n` values of
    /// `x` into the zeroed `out` (`nb` int64 counts, or float64 or
    /// complex128 sums of the weights `w`), by the `nb + 1` edges (or by
    /// `first`, `last`, `denom` for equal widths; none for bincount);
    /// `use_smem`: a private histogram of `nb` accumulators in dynamic
    /// shared memory per block.
    pub(crate) struct Count[IN, W, EDGE, OUT] {
        x: In<IN>,
        w: In<W>,
        edges: In<EDGE>,
        out: Out<OUT>,
        n: i64,
        nb: i64,
        first: f64,
        last: f64,
        denom: f64,
        use_smem: i32,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_minmax_{input}`: the order keys of the min and max of the
    /// `n` values of `x`, and whether a NaN was seen, folded into the
    /// zeroed `out[3]` (see [`minmax`]).
    pub(crate) struct MinMax[IN] {
        x: In<IN>,
        out: Out<u64>,
        n: i64,
    }
}

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

    /// The dtype of the result it adds into: int64 counts, float64 or
    /// complex128 sums.
    pub(crate) fn out_dtype(&self) -> DType {
        match self.weights {
            Weights::None => DType::Int64,
            Weights::Real(_) => DType::Float64,
            Weights::Complex(_) => DType::Complex128,
        }
    }

    /// The C types of its slots (`Count`'s IN, W, EDGE, OUT); weights and
    /// edges that it has none of (a null pointer) take a placeholder.
    fn types(&self) -> [&'static str; 4] {
        let w = match self.weights {
            Weights::None => DType::UInt8,
            Weights::Real(d) | Weights::Complex(d) => d,
        };
        let edges = match self.mode {
            BinMode::Direct => DType::Float64,
            _ => self.edges,
        };
        [
            self.input.c_type(),
            w.c_type(),
            edges.c_type(),
            self.out_dtype().c_type(),
        ]
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
        let c = match self.mode {
            BinMode::Direct => DType::Float64.c_type(),
            _ => self.calc.c_type(),
        };
        let [i, w, t, out] = self.types();
        let wm = match self.weights {
            Weights::None => 0,
            Weights::Real(_) => 1,
            Weights::Complex(_) => 2,
        };
        let mode = match self.mode {
            BinMode::Uniform => 0,
            BinMode::Search => 1,
            BinMode::Direct => 2,
        };
        format!(
            "CUPRUM_COUNT({}, {i}, {t}, {c}, {w}, {out}, {mode}, {wm})\n",
            self.name()
        )
    }

    /// Its lines of a program: the declared prototype and the
    /// instantiation.
    pub(crate) fn lines(&self) -> String {
        let proto = Count::prototype(&self.name(), self.types());
        format!("{proto}{}", self.instantiation())
    }
}

/// The source of a program holding `kernels`.
pub(crate) fn program_source_of(kernels: &[CountKernel]) -> String {
    kernels.iter().fold(COMMON.to_owned(), |mut s, k| {
        s.push_str(&k.lines());
        s
    })
}

/// The NVRTC request of the program of one kernel's lines (a counting
/// kernel's [`CountKernel::lines`] or a min/max kernel's, from
/// [`minmax_kernel`]), without an architecture: what the launchers compile
/// and what `cargo xtask precompile` compiles ahead of time.
pub(crate) fn program_request(lines: &str) -> CompileRequest {
    crate::kernels::request(format!("{COMMON}{lines}"))
}

fn kernel(k: &CountKernel) -> Result<TypedKernel<Count>> {
    let lines = k.lines();
    Ok(TypedKernel::cached(&k.name(), k.types(), || {
        program_request(&lines)
    })?)
}

/// The one-pass min/max kernel of `input`: its name and its lines (the
/// declared prototype and the instantiation).
pub(crate) fn minmax_kernel(input: DType) -> (String, String) {
    let name = format!("cuprum_minmax_{}", input.name());
    let lines = format!(
        "{}CUPRUM_MINMAX({name}, {})\n",
        MinMax::prototype(&name, [input.c_type()]),
        input.c_type()
    );
    (name, lines)
}

/// Whether [`minmax`] takes `input` (integers of at most 63 bits of
/// magnitude: not uint64; floats; not bool or complex).
pub(crate) fn minmax_supports(input: DType) -> bool {
    (input.is_integer() && input != DType::UInt64) || input.is_floating()
}

/// The min and max of the values of the C-contiguous `a` as order keys
/// decoded on the host, through `out` (three uint64): one pass, one
/// 24-byte copy back. Returns `None` when a NaN was seen.
pub(crate) fn minmax(a: &Array, out: &Array) -> Result<Option<(i64, i64)>> {
    let (name, lines) = minmax_kernel(a.dtype());
    let raw =
        TypedKernel::<MinMax>::cached(&name, [a.dtype().c_type()], || program_request(&lines))?;
    out.zero_contiguous()?;
    let stream = a.stream();
    let n = a.size();
    let sms = stream.device().properties()?.multiprocessor_count.max(1) as usize;
    let blocks = n.div_ceil(BLOCK as usize * 16).clamp(1, sms * 8);
    let cfg = LaunchConfig::new((blocks as u32, 1, 1), (BLOCK, 1, 1));
    let nn = i64::try_from(n).map_err(|_| Error::Value("minmax: too many elements".into()))?;
    let args = MinMax {
        x: input(a),
        out: output(out),
        n: nn,
    };
    raw.launch(&cfg, &stream, &args)?;
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
    pub(crate) x: In,
    pub(crate) w: In,
    pub(crate) edges: In,
    pub(crate) out: Out,
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
    let args = Count {
        x: a.x,
        w: a.w,
        edges: a.edges,
        out: a.out,
        n,
        nb: a.nb as i64,
        first: a.first,
        last: a.last,
        denom: a.denom,
        use_smem: i32::from(use_smem),
    };
    Ok(raw.launch(&cfg, stream, &args)?)
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
             double, unsigned char, long long, 0, 0)\n"
        );
        assert_eq!(
            k.lines().lines().next().unwrap(),
            "extern \"C\" __global__ void cuprum_count_uniform_float32_float32_float64_count(\
             const float* x, const unsigned char* w, const float* edges, long long* out, \
             long long n, long long nb, double first, double last, double denom, int use_smem);"
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
        assert!(b.lines().contains(
            "(const int* x, const cuprum::complex<float>* w, const double* edges, \
             cuprum::complex<double>* out,"
        ));
        let (name, lines) = minmax_kernel(DType::Int16);
        assert_eq!(
            lines,
            format!(
                "extern \"C\" __global__ void {name}(const short* x, unsigned long long* out, \
                 long long n);\nCUPRUM_MINMAX({name}, short)\n"
            )
        );
    }
}
