//! Cuprum: NumPy and SciPy for CUDA GPUs, in Rust (the counterpart of CuPy).
//!
//! The front door (DESIGN.md): the layers re-exported under the names a
//! CuPy user reaches for. `use cuprum as cp;` then `cp::zeros(...)`,
//! `cp::exp(&x)`, `cp::cuda::Device::new(1)`.
//!
//! | CuPy                         | Cuprum                                   |
//! |------------------------------|------------------------------------------|
//! | `cp.ndarray`, `cp.float32`   | [`Array`], [`DType::Float32`]            |
//! | `cp.array`, `cp.zeros`, ...  | [`array`](fn@array), [`zeros`], ... ([`creation`]) |
//! | `cp.exp`, `cp.add`, ...      | [`exp`], [`add`], ... ([`ufunc`])        |
//! | `cp.concatenate`, `cp.roll`  | [`concatenate`], [`roll`], ... ([`manipulation`]) |
//! | `cp.sort`, `cp.unique`       | [`sort`], [`unique`], ... ([`sorting`])  |
//! | `cp.take`                    | [`take`] ([`indexing`])                  |
//! | `cp.piecewise`               | [`piecewise`] ([`functional`])           |
//! | `x[idx, 1:]`, `x[mask] = 0`  | `x.get_index(&ix![&idx, 1..])?`, `x.set_index(&ix![&mask], 0)?` ([`IndexItem`]) |
//! | `cp.take`, `cp.choose`, `cp.r_` | [`take`], [`choose`], [`r_`], ... ([`indexing`]) |
//! | `cp.packbits`, `cp.isreal`, `cp.binary_repr` | [`packbits`], [`isreal`], [`binary_repr`], ... ([`logic`]) |
//! | `cp.around`, `cp.clip`, `cp.interp`, windows, `cp.convolve` | [`around`], [`clip`], ... ([`math`]) |
//! | `cp.histogram`, `cp.bincount`, `cp.cov`, ... | [`histogram`], [`bincount`], ... ([`stats`]) |
//! | `cp.polyval`, `cp.poly1d`, `cp.polynomial` | [`polyval`], [`Poly1d`], [`polynomial`] |
//! | `cp.roots`, `cp.polyfit`, `poly1d.roots` | [`roots`], [`polyfit`], `p.roots()` ([`Poly1dExt`]) (gpu-linalg) |
//! | `cupyx.rsqrt`                | [`math::rsqrt`]                          |
//! | `cupyx.scatter_add`, `scatter_max`, `scatter_min` | [`scatter_add`]`(&a, &idx, &v, Some(0))?`, ... |
//! | `cp.cuda`                    | [`cuda`] (gpu-runtime)                   |
//! | `cp.cuda.nccl.NcclCommunicator`, `cupyx.distributed.init_process_group` | [`cuda::nccl`] (gpu-nccl): `NcclCommunicator::init_rank`, `comm.all_reduce(&x, &y, ReduceOp::Sum, None)?`; [`distributed::init`] |
//! | `cp.fft.fft(a)`, `cp.fft.rfft2(a)`, `cp.fft.config` | [`fft`] (gpu-fft): `cp::fft::fft(&a)?`, `cp::fft::rfft2(&a)?`, [`fft::config`] |
//! | `cupyx.scipy.special.erf(x)`, `gammaln` | [`special`] (gpu-special): `cp::special::erf(&x)?`, [`special::fused`] inside `fuse` |
//! | `cp.random.default_rng(0).normal(size=n)`, `cp.random.rand(3)` | [`random`] (gpu-random): `cp::random::default_rng(0)?.standard_normal([n])?`, `cp::random::rand([3])?` |
//! | `cupyx.scipy.sparse.csr_matrix(d)`, `A @ x` | [`sparse`] (gpu-sparse): `cp::sparse::CsrMatrix::from_dense(&d)?`, `a.dot(&x)?` |
//! | `cupyx.scipy.ndimage.gaussian_filter(x, 2)`, `zoom` | [`ndimage`] (gpu-ndimage): filters, interpolation, measurements, morphology ([`guide::ndimage`]) |
//! | `cupyx.scipy.signal.convolve(a, b)`, `lfilter`, `welch` | [`signal`] (gpu-signal): convolution, filtering, resampling, spectral analysis, filter design ([`guide::signal`]) |
//! | `cp.linalg`, `cp.matmul`, `a @ b` | [`linalg`] (gpu-linalg), [`matmul`], `a.matmul(&b)` ([`MatmulExt`]) |
//! | `cp.ElementwiseKernel`       | [`ElementwiseKernel`]                    |
//! | `@cp.fuse()`, `cp.exp` inside | [`fuse`]`("f", \|x: &FVar\| ..)`, [`fx::exp`] |
//! | fused `f(x, out=o)`, `cp.nansum` inside | `.call_with(&[&x], &`[`FuseOptions`]`::out(&[&o]))`, [`fx::nansum`] |
//! | `with cupyx.optimizing.optimize():` | [`optimizing::optimize`]`(&OptimizeConfig::default(), \|\| ..)?` |
//! | `cp.testing`                 | [`testing`] (gpu-testing)                |
//! | `cp.from_dlpack(x)`, `cp.fromDlpack(t)`, `x.toDlpack()` | [`from_dlpack`], [`Array::from_dlpack`], [`to_dlpack`] ([`interop`]: DLPack 1.x, the stream handshake) |
//! | `cp.asnumpy(x)`              | `x.to_ndarray::<T>()`                    |
//! | a candle or burn tensor's `CudaSlice` (Rust's cudarc) | `Array::from_cudarc(slice)?`, `x.to_cudarc::<f32>(&stream)?` (`interop::cudarc`, the `cudarc` feature) |
//! | errors of every layer        | one [`Error`] and [`Result`] for every layer ([`error`]) |
//!
//! New here? Start with the [`guide`].
//!
//! # Features
//!
//! - `cudarc` (off by default): arrays shared with the `cudarc` crate, the
//!   CUDA layer of candle and burn, without a copy, in both directions,
//!   with the same primary context and the streams ordered by events
//!   (`cuprum::interop::cudarc`). Enable it with
//!   `cargo add cuprum --features cudarc`, or in `Cargo.toml`:
//!   `cuprum = { version = "0.1", features = ["cudarc"] }`. It builds
//!   cudarc 0.19 (candle-core 0.11's) with the driver loaded at run time
//!   and CUDA 13.0's bindings; nothing else changes.

#![warn(missing_docs)]
#![deny(unsafe_code)]

pub use gpu_array::array::NpzFile;
pub use gpu_array::array::{Broadcast, broadcast_arrays, copyto};
pub use gpu_array::creation::*;
pub use gpu_array::dtype::{
    Casting, Finfo, Iinfo, Operand, ScalarKind, ScalarValue, TypeClass, can_cast, can_cast_from,
    common_type, finfo, iinfo, issubdtype, min_scalar_type, promote_types, result_type,
};
pub use gpu_array::elementwise::{Args, ElementwiseKernel, KernelInput, Typed};
pub use gpu_array::functional::{Piece, piecewise};
pub use gpu_array::fusion::{self, FVar, FuseOptions, fuse, fx};
pub use gpu_array::indexing::{
    AxisConcatenator, ClipMode, Flat, IndexItem, RItem, TakeMode, argwhere, c_, choose, compress,
    diag_indices, diag_indices_from, diagonal, extract, fill_diagonal, flatnonzero, ix_, nonzero,
    place, put, putmask, r_, ravel_multi_index, scatter_add, scatter_max, scatter_min, select,
    take, take_along_axis, unravel_index, where_,
};
pub use gpu_array::interop::{from_dlpack, to_dlpack};
pub use gpu_array::layout::{IntoNewShape, IntoShape};
pub use gpu_array::logic::{
    BitOrder, all, allclose, allclose_with, any, array_equal, array_equiv, base_repr, binary_repr,
    isclose, isclose_with, iscomplex, iscomplexobj, isfortran, isreal, isrealobj, isscalar,
    packbits, unpackbits,
};
pub use gpu_array::manipulation::{
    ConstantForm, JoinOptions, PadMode, PadOptions, ReflectType, Requirement, Sections,
    array_split, column_stack, concatenate, concatenate_dtype, concatenate_with, constant_cast,
    dsplit, dstack, flip, fliplr, flipud, hsplit, hstack, hstack_with, pad, pad_with, repeat,
    repeat_array, require, roll, rot90, split, stack, stack_with, tile, trim_zeros, vsplit, vstack,
    vstack_with,
};
pub use gpu_array::math::{
    Bound, InterpOptions, Mode, angle, around, bartlett, blackman, clip, clip_out, convolve,
    correlate, cumprod, cumsum, diff, fix, hamming, hanning, i0, imag, interp, kaiser, nan_to_num,
    nancumprod, nancumsum, nanprod, nansum, prod, real, round_, sinc, sum, unwrap, unwrap_with,
};
pub use gpu_array::polynomial::{
    Poly1d, poly, polyadd, polyder, polyint, polymul, polysub, polyval,
};
pub use gpu_array::raw_kernel::{RawArg, RawKernel};
pub use gpu_array::reduction::{ReduceOptions, ReductionCall, ReductionKernel};
pub use gpu_array::sorting::{
    IsinKind, IsinOptions, QuantileMethod, QuantileOptions, Quantiles, Side, Unique, UniqueOptions,
    argmax, argmin, argpartition, argsort, count_nonzero, in1d, in1d_with, isin, isin_with,
    lexsort, lexsort_axis, median, msort, nanargmax, nanargmin, nanmedian, nanpercentile,
    nanquantile, partition, percentile, quantile, searchsorted, sort, sort_complex, unique,
};
pub use gpu_array::stats::{
    Bins, CovOptions, HistogramOptions, amax, amin, average, bincount, corrcoef, cov, digitize,
    histogram, histogram2d, histogramdd, mean, nanmax, nanmean, nanmin, nanstd, nanvar, ptp, std,
    var,
};
pub use gpu_array::ufunc::*;
pub use gpu_array::{
    Array, AxisIndex, DType, Element, Flags, Layout, Order, creation, display, dtype, elementwise,
    functional, indexing, interop, ix, layout, logic, manipulation, math, npy, optimizing,
    polynomial, s, sorting, stats, ufunc,
};

pub mod error;
pub mod guide;
pub use error::{Error, Result};
/// CuPy's `cupy.fft` (NumPy's `numpy.fft`) on cuFFT, with its plan cache
/// as `fft::config`.
pub use gpu_fft as fft;
/// CuPy's `cupy.linalg` (and `cupyx.scipy.linalg` as `linalg::scipy`).
pub use gpu_linalg as linalg;
pub use gpu_linalg::{
    CrossOptions, MatmulExt, Poly1dExt, PolyCov, Polyfit, PolyfitOptions, cross, cross_with, dot,
    einsum, inner, kron, matmul, outer, polyfit, roots, tensordot, trace, vdot,
};
/// The CUDA runtime: devices, streams, events, memory, kernels (CuPy's
/// `cupy.cuda`), everything of gpu-runtime, and NCCL as [`cuda::nccl`].
pub mod cuda {
    /// CuPy's `cupy.cuda.nccl`: communicators and collectives on arrays
    /// (gpu-nccl).
    pub use gpu_nccl as nccl;
    pub use gpu_runtime::*;
}
/// CuPy's `cupyx.distributed`: join the job a launcher (torchrun, srun,
/// mpirun) started, through NCCL's own rendezvous (gpu-nccl).
pub use gpu_nccl::distributed;
/// CuPy's `cupyx.scipy.special` (SciPy's `scipy.special`): special
/// functions as ufuncs, usable in `fuse` as `special::fused`.
pub use gpu_special as special;

/// CuPy's `cupyx.scipy.ndimage` (SciPy's `scipy.ndimage`): image and
/// volume processing: filters, Fourier filters, interpolation,
/// measurements and morphology.
pub use gpu_ndimage as ndimage;
/// CuPy's `cupy.random` (NumPy's `numpy.random`): `Generator` and
/// `default_rng` on a counter-based Philox whose numbers reproduce on any
/// GPU, and the legacy `RandomState` on cuRAND with its module functions.
pub use gpu_random as random;
/// CuPy's `cupyx.scipy.signal` (SciPy's `scipy.signal`): convolution,
/// filtering (recursive filters parallel along the signal), resampling,
/// spectral analysis, windows and filter design.
pub use gpu_signal as signal;
/// CuPy's `cupyx.scipy.sparse` (SciPy's `scipy.sparse`): COO, CSR and CSC
/// matrices, their conversions and their products on cuSPARSE.
pub use gpu_sparse as sparse;
/// CuPy's `cupy.testing`: assertions and dtype-parameterised test macros.
pub use gpu_testing as testing;

/// The README's Rust snippets, compiled as doc tests so that they keep
/// matching the API.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
