//! Array creation routines (NumPy's and CuPy's "Array Creation Routines"),
//! as free functions with NumPy's names. Results live on the current
//! device (the `_like` forms and conversions of device arrays: on the
//! source's device); index-dependent values (ranges, diagonals, triangles)
//! are computed by small elementwise kernels on the GPU.
//!
//! | NumPy / CuPy                                   | Cuprum                                                        |
//! |------------------------------------------------|---------------------------------------------------------------|
//! | `np.empty((2, 3), np.float32)`                 | [`empty`]`(&[2, 3], DType::Float32)?`                         |
//! | `np.zeros(s, dt)`, `np.ones(s, dt)`            | [`zeros`]`(s, dt)?`, [`ones`]`(s, dt)?`                        |
//! | `np.zeros(s, dt, order='F')`                   | [`zeros_order`]`(s, dt, Order::F)?` (also `empty_`/`ones_`/`full_order`) |
//! | `np.full(s, 7)`, `np.full(s, 7, np.int8)`      | [`full`]`(s, 7, None)?`, [`full`]`(s, 7, Some(DType::Int8))?` |
//! | `np.empty_like(a)`, `np.zeros_like(a, dt)`     | [`empty_like`]`(&a, None)?`, [`zeros_like`]`(&a, Some(dt))?`  |
//! | `np.ones_like(a)`, `np.full_like(a, v)`        | [`ones_like`]`(&a, None)?`, [`full_like`]`(&a, v, None)?`     |
//! | `np.eye(3, 4, k=1, dtype=dt)`, `np.identity(n)` | [`eye`]`(3, Some(4), 1, dt)?`, [`identity`]`(n, dt)?`        |
//! | `np.array([1, 2, 3])`, `np.asarray(a)`         | [`array()`]`([1, 2, 3])?` (int64), [`asarray`]`(&a)?`          |
//! | `np.array(x, dt, order='F')`                   | [`array_with`]`(&x, Some(dt), Some(Order::F))?`, [`asarray_with`] |
//! | `np.ascontiguousarray(a)`, `np.asfortranarray(a)` | [`ascontiguousarray`]`(&a, None)?`, [`asfortranarray`]`(&a, None)?` |
//! | `np.copy(a)`                                   | [`copy`]`(&a)?` (order K)                                     |
//! | `np.arange(10)`, `np.arange(0, 1, 0.1)`        | [`arange`]`(10)?`, [`arange`]`((0, 1, 0.1))?`                |
//! | `np.arange(0, 10, 2, dtype=np.int8)`           | [`arange_with`]`(0, 10, 2, Some(DType::Int8))?`              |
//! | `np.linspace(0, 1, 5)`                         | [`linspace`]`(0.0, 1.0, 5)?`                                  |
//! | `np.linspace(0, 1, 5, endpoint=False)`         | [`linspace_with`]`(0, 1, 5, false, None)?`                    |
//! | `np.linspace(0, 1, 5, retstep=True)`           | [`linspace_retstep`]`(0, 1, 5, true, None)?`                  |
//! | `np.logspace(0, 3, 4, base=2.0)`               | [`logspace_with`]`(0, 3, 4, true, 2.0, None)?`                |
//! | `np.logspace(a, b, 4, base=bases, axis=1)`     | [`logspace_arrays`]`(&a, &b, 4, true, &bases, None, 1)?`      |
//! | `np.meshgrid(x, y, indexing='ij', sparse=True)` | [`meshgrid`]`(&[&x, &y], Indexing::Ij, true, false)?`        |
//! | `np.mgrid[0:5, 0:1:3j]`                        | [`mgrid`]`(&[GridRange::step(0, 5, 1), GridRange::num(0, 1, 3)])?` |
//! | `np.ogrid[0:5, 0:3]`                           | [`ogrid`]`(&[GridRange::step(0, 5, 1), GridRange::step(0, 3, 1)])?` |
//! | `np.indices((2, 3))`, `sparse=True`            | [`indices`]`(&[2, 3], DType::Int64)?`, [`indices_sparse`]     |
//! | `np.diag(v, k)`, `np.diagflat(v, k)`           | [`diag`]`(&v, k)?`, [`diagflat`]`(&v, k)?`                    |
//! | `np.tri(3, 4, -1)`, `np.tril(m, k)`, `np.triu(m, k)` | [`tri`]`(3, Some(4), -1, DType::Float64)?`, [`tril`]`(&m, k)?`, [`triu`]`(&m, k)?` |
//!
//! Scalars (`full`'s value, `arange`'s and `linspace`'s bounds) are
//! anything `Into<ScalarValue>` and act as Python scalars do in NumPy 2:
//! their kind picks a default dtype (bool, int64, float64, complex128).

mod basic;
mod from_data;
pub(crate) mod kernels;
mod matrix;
mod ranges;

pub use basic::{
    Fill, LikeOptions, empty, empty_like, empty_like_with, empty_order, eye, full, full_like,
    full_like_with, full_order, identity, ones, ones_like, ones_like_with, ones_order, zeros,
    zeros_like, zeros_like_with, zeros_order,
};
pub use from_data::{
    ArrayLike, LiteralElement, array, array_with, asarray, asarray_with, ascontiguousarray,
    asfortranarray, copy,
};
pub use matrix::{diag, diagflat, tri, tril, triu};
pub use ranges::{
    ArangeRange, GridRange, GridStep, Indexing, arange, arange_with, indices, indices_sparse,
    linspace, linspace_arrays, linspace_retstep, linspace_with, logspace, logspace_arrays,
    logspace_with, meshgrid, mgrid, ogrid,
};
