//! gpu-array: Cuprum's n-dimensional array on the GPU.
//!
//! Cuprum is NumPy and SciPy for CUDA GPUs, in Rust (the counterpart of
//! CuPy). This crate sits above `gpu-runtime` (devices, streams, memory,
//! NVRTC) and below the leaf crates (`gpu-linalg`, `gpu-fft`, ...). It holds
//! the array type and everything it rests on.
//!
//! What it holds:
//!
//! - [`Array`] ([`mod@array`]): the device array, its views (basic indexing with
//!   [`s!`], transposes, reshapes, broadcasts, dtype views), host transfers,
//!   items, casts, copies, fills, the Rust operators;
//! - [`creation`]: `zeros`, `ones`, `full`, `arange`, `linspace`, `eye`,
//!   `meshgrid`, `tril`, ... with NumPy's dtypes and values;
//! - [`ufunc`]: every ufunc of the reference as data (NumPy's type loops and
//!   loop selection, NEP 50 weak scalars, `out=`, `dtype=`, `casting=`) and
//!   as functions (`ufunc::add(&a, 2.0)?`);
//! - [`reduction`]: `sum`, `prod`, `max`, `min`, `all`, `any`, `mean`,
//!   `count_nonzero`, the NaN-skipping forms and `ptp` (0-d results for full
//!   reductions, as CuPy), and CuPy's [`reduction::ReductionKernel`];
//! - [`scan`]: `cumsum`, `cumprod` and their NaN-skipping forms (a
//!   single-pass decoupled look-back scan for long rows), and `diff`;
//! - [`fusion`]: CuPy's `cupy.fuse`: a closure over symbolic values traced
//!   once per call signature into one elementwise or reduction kernel
//!   (several reductions over the same axes in one pass);
//! - [`manipulation`]: `concatenate`, the `stack` and `split` families,
//!   `tile`, `repeat`, `flip`, `roll`, `rot90`, `trim_zeros`, `require`,
//!   `pad` (every NumPy mode);
//! - [`sorting`]: `sort`, `argsort` (Cuprum's onesweep radix sort, stable,
//!   NaN last, any axis), `lexsort`, `partition`, `searchsorted`, `unique`
//!   (flat or along an axis), `quantile`/`percentile`/`median` (tuple axes,
//!   `q` of any shape);
//! - [`functional`]: `piecewise` (constants or functions of `x`);
//! - [`indexing`]: `take` (CuPy's wrapped out-of-bounds indices), `where`,
//!   `nonzero`, `put`, advanced indexing (integer arrays and boolean masks,
//!   get and set) with [`ix!`], `choose`, `select`, `place`, `putmask`,
//!   `fill_diagonal`, `ix_`, `ravel_multi_index`/`unravel_index`, `r_`/`c_`,
//!   `a.flat`, and cupyx's atomic `scatter_add`/`scatter_max`/`scatter_min`;
//! - [`logic`]: `isclose`, `array_equal`/`array_equiv`, array type tests
//!   (`iscomplex`, `isreal`, `isfortran`, `isscalar`), `packbits`/
//!   `unpackbits`, `binary_repr`/`base_repr`;
//! - [`math`]: NumPy's mathematical functions that are not ufuncs
//!   (`around`, `clip`, `interp`, `unwrap`, `i0`, `sinc`, windows,
//!   `convolve`, cupyx's `rsqrt`, ...);
//! - [`stats`]: `histogram` (shared-memory privatised counting),
//!   `histogram2d`/`histogramdd`, `bincount`, `digitize`, `average`, `cov`,
//!   `corrcoef`;
//! - [`polynomial`]: `polyval` and the `poly1d` family,
//!   `numpy.polynomial.polynomial` and `polyutils`;
//! - [`optimizing`]: CuPy's `cupyx.optimizing.optimize`: a per-thread scope
//!   in which reductions and elementwise kernels time candidate launch
//!   geometries on first use, keep the fastest and save them beside the
//!   kernel cache;
//! - [`precompile`]: the built-in kernels' common specialisations as the
//!   NVRTC requests the operations make (what `cargo xtask precompile`
//!   compiles ahead of time);
//! - [`elementwise`]: the engine under the ufuncs: kernel specs rendered to CUDA
//!   C++ with Cuprum's headers ([`kernels`]), the launcher (coalescing,
//!   32-bit indexing, 16-byte vector loads, device-sized grids), and CuPy's
//!   [`elementwise::ElementwiseKernel`];
//! - [`dtype`]: [`DType`], the host [`Element`] trait, NumPy 2 promotion
//!   (NEP 50 weak scalars), casting rules, `finfo`/`iinfo`, `issubdtype`;
//! - [`layout`]: shapes and byte strides: contiguity, broadcasting, axis
//!   manipulation, reshape without copy, basic indexing, coalescing;
//! - [`display`] (NumPy's repr and str) and [`npy`] (`.npy`/`.npz` files);
//! - [`interop`]: DLPack 1.x export and import (versioned and legacy
//!   managed tensors, zero-copy, the stream handshake), CuPy's
//!   `fromDlpack`/`toDlpack` and the array API's `from_dlpack`; with the
//!   `cudarc` feature, `interop::cudarc`: cudarc slices as arrays and
//!   arrays lent to cudarc, zero-copy (candle's and burn's CUDA layer);
//! - [`Error`]: one error type whose messages are NumPy's.
//!
//! | NumPy / CuPy                               | Cuprum                                                    |
//! |--------------------------------------------|-----------------------------------------------------------|
//! | `cp.asarray(np_array)`, `x.get()`          | [`Array::from_ndarray`], [`Array::to_ndarray`]            |
//! | `cp.array([1., 2.])`                       | [`Array::from_slice`]`(&[1., 2.], &[2])?`                 |
//! | `cp.zeros((2, 3), np.float32)`             | [`creation::zeros`]`(&[2, 3], DType::Float32)?`           |
//! | `cp.arange(10)`, `cp.linspace(0, 1, 5)`    | [`creation::arange`]`(0, 10, 1, None)?`, [`creation::linspace`] |
//! | `x + y`, `x * 2.0`, `-x`                   | `&x + &y`, `&x * 2.0`, `-&x` (panic on error), or [`ufunc::add`]`(&x, &y)?` |
//! | `cp.exp(x)`, `np.add(x, y, out=z)`         | [`ufunc::exp`]`(&x)?`, [`ufunc::call`] with [`ufunc::UfuncOptions`] |
//! | `x < y`                                    | `x.less(&y)?`                                             |
//! | `x.astype(np.int32)`, `x.copy()`, `x.T`    | [`Array::astype`], [`Array::copy`], [`Array::T`]          |
//! | `x[1:, ::-1]`                              | `x.slice(&s![1.., ..;-1])?`                               |
//! | `x[idx, 1:]`, `x[mask] = 0.0`              | `x.get_index(&ix![&idx, 1..])?`, `x.set_index(&ix![&mask], 0.0)?` |
//! | `cp.ElementwiseKernel(...)`                | [`elementwise::ElementwiseKernel::new`] and `.call`       |
//! | `x.sum(axis=1)`, `cp.max(x)`               | `x.sum(&ReduceOptions::axis(1))?`, [`crate::stats::amax`]    |
//! | `cp.fuse(f)`, `f(x, y)`                     | [`fusion::fuse`]`("f", \|x: &FVar, y: &FVar\| ..)`, `.call(&[&x, &y])?` |
//! | fused `f(x, out=o, dtype=...)`             | `.call_with(&[&x], &`[`fusion::FuseOptions`]`::out(&[&o]))?` |
//! | `cp.cumsum(x)`, `cp.diff(x)`               | [`crate::math::cumsum`]`(&x, None, None)?`, [`crate::math::diff`]       |
//! | `cp.concatenate((a, b), axis=1)`           | [`manipulation::concatenate`]`(&[&a, &b], Some(1))?`     |
//! | `cp.sort(a)`, `cp.argsort(a, axis=0)`      | [`sorting::sort`]`(&a, Some(-1))?`, [`sorting::argsort`] |
//! | `cp.take(a, idx, axis=0)`                  | [`indexing::take`]`(&a, &idx, Some(0), TakeMode::Wrap)?` |
//! | `cp.choose(a, [x, y])`, `cp.r_[a, 0:3]`    | [`indexing::choose`]`(&a, &[&x, &y], ClipMode::Raise)?`, [`indexing::r_`] |
//! | `cupyx.scatter_add(a, idx, v)`             | [`indexing::scatter_add`]`(&a, &idx, &v, Some(0))?`     |
//! | `cp.packbits(a)`, `np.binary_repr(-5, 8)`  | [`logic::packbits`]`(&a, None, BitOrder::Big)?`, [`logic::binary_repr`] |
//! | `cp.around(x, 2)`, `cp.clip(x, 0, 1)`      | [`math::around`]`(&x, 2)?`, [`math::clip`]`(&x, 0.into(), 1.into())?` |
//! | `cp.histogram(x, 256)`, `cp.bincount(i)`   | [`stats::histogram`]`(&x, Bins::Count(256), &Default::default())?`, [`stats::bincount`] |
//! | `cp.polyval(p, x)`                         | [`polynomial::polyval`]`(&p, &x)?`                        |
//! | `print(x)`, `repr(x)`                      | `println!("{x}")`, `{x:?}`                                |
//! | `cp.save('a.npy', x)`, `cp.load`           | [`Array::save_npy`], [`Array::load_npy`]                  |
//! | `x.toDlpack()`, `cp.fromDlpack(t)`         | [`Array::to_dlpack`], [`Array::from_dlpack`]              |
//! | `cp.from_dlpack(x)`, `x.__dlpack__(stream=s)` | [`interop::from_dlpack`], [`Array::to_dlpack_with`]    |
//!
//! | NumPy / CuPy                               | Cuprum                                                    |
//! |--------------------------------------------|-----------------------------------------------------------|
//! | `np.dtype('float32')`, `np.float32`        | `"float32".parse::<DType>()?`, [`DType::Float32`]         |
//! | `dt.itemsize`, `dt.name`, `dt.kind`        | [`DType::itemsize`], [`DType::name`], [`DType::kind`]     |
//! | `np.promote_types(a, b)`                   | [`dtype::promote_types`]`(a, b)`                          |
//! | `np.result_type(x, 1.0)`                   | [`dtype::result_type`]`(&[Operand::Array(x), Operand::Scalar(ScalarKind::Float)])` |
//! | `np.can_cast(a, b, 'same_kind')`           | [`dtype::can_cast`]`(a, b, Casting::SameKind)`            |
//! | `np.min_scalar_type(300)`                  | [`dtype::min_scalar_type`]`(ScalarValue::Int(300))`       |
//! | `np.common_type(a, b)`                     | [`dtype::common_type`]`(&[a, b])`                         |
//! | `np.finfo(np.float16).eps`                 | [`dtype::finfo`]`(DType::Float16)?.eps`                   |
//! | `np.iinfo(np.int8).max`                    | [`dtype::iinfo`]`(DType::Int8)?.max`                      |
//! | `np.issubdtype(t, np.floating)`            | [`dtype::issubdtype`]`(t, TypeClass::Floating)`           |
//! | `np.broadcast_shapes(s1, s2)`              | [`layout::broadcast_shapes`]`(&[s1, s2])?`                |
//! | `np.broadcast_to(a, shape)` (strides)      | [`layout::Layout::broadcast_to`]                          |
//! | `a[1, 2:, ::-1, np.newaxis, ...]`          | [`layout::Layout::index`]`(&s![1, 2.., ..;-1, NewAxis, ...])?` |
//! | `a.reshape(-1, 3)` (view when possible)    | [`layout::Layout::reshape`]`(&[-1, 3], itemsize, Order::C)?` |
//! | `a.transpose()`, `np.moveaxis`, `np.squeeze` | [`layout::transpose`], [`layout::moveaxis`], [`layout::squeeze`] |
//! | `a.flags.c_contiguous`                     | [`layout::is_c_contiguous`]                               |
//! | `np.load('a.npy')`, `np.save`              | [`npy::NpyArray::load`], [`npy::NpyArray::save`]          |
//! | `np.load('a.npz')`, `np.savez_compressed`  | [`npy::load_npz`], [`npy::save_npz`]                      |
//!
//! Strides are in bytes, as NumPy's, and may be negative or zero.
#![warn(missing_docs)]
#![deny(unsafe_code)]

pub mod array;
pub mod creation;
pub mod display;
pub mod dtype;
pub mod elementwise;
pub mod error;
pub mod functional;
pub mod fusion;
pub mod indexing;
pub mod interop;
pub mod kernels;
pub mod layout;
pub mod logic;
pub mod manipulation;
pub mod math;
mod names;
pub mod npy;
pub mod optimizing;
pub mod polynomial;
pub mod precompile;
mod raw;
pub mod raw_kernel;
pub mod reduction;
pub mod scan;
pub mod sorting;
pub mod stats;
pub mod ufunc;

pub use array::{Array, Flags};
pub use dtype::{DType, Element};
pub use error::{Error, Result};
pub use indexing::IndexItem;
pub use layout::{AxisIndex, CopyOrder, Layout, Order};
