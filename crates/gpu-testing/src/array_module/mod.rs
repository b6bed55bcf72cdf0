//! NumPy-CuPy generic code: a test body written once over [`ArrayModule`]
//! and run on the host ([`Numpy`], over `ndarray`) and on the GPU
//! ([`Cuprum`], over [`gpu_array::Array`]).
//!
//! This is Cuprum's counterpart of `cupy.get_array_module`. In Python a
//! function asks `xp = cupy.get_array_module(x)` and calls `xp.exp(x)`
//! whichever library `x` belongs to; in Rust the module is a type
//! parameter, chosen at compile time: a function generic over
//! `M: ArrayModule` takes `xp: &M` and calls `xp.exp(&x)`. The
//! `numpy_cupy_*` checks ([`crate::numpy_cupy`]) run such a function on
//! both modules and compare what they return.
//!
//! | NumPy / CuPy                          | Cuprum                                              |
//! |---------------------------------------|-----------------------------------------------------|
//! | `xp = cupy.get_array_module(x)`       | `fn f<M: ArrayModule>(xp: &M, x: &M::Array<f64>)`   |
//! | `numpy` / `cupy` as `xp`              | [`Numpy`] / [`Cuprum`]                              |
//! | `xp.asarray(np_array)`, `cupy.asnumpy(x)` | [`ArrayModule::asarray`], [`ArrayModule::asnumpy`] |
//! | `xp.arange(6, dtype=xp.float32)`      | `xp.arange::<f32>(6)?`                              |
//! | `xp.exp(x)`, `xp.add(x, y)`           | `xp.exp(&x)?`, `xp.add(&x, &y)?`                    |
//! | `x.sum(axis=1)`, `x.mean()`           | `xp.sum(&x, Some(1))?`, `xp.mean(&x, None)?`        |
//! | `x.reshape(2, -1).T`, `x @ y`         | `xp.transpose(&xp.reshape(&x, &[2, -1])?, None)?`, `xp.matmul(&x, &y)?` |
//!
//! The element type is a type parameter too: `M::Array<f32>` is a float32
//! array of either module. Operations keep NumPy's result dtypes: `sum`
//! of an `i16` array is `M::Array<i64>` ([`ModuleScalar::Sum`]), `mean`
//! of integers is `M::Array<f64>` ([`ModuleScalar::Mean`]); `divide` and
//! the transcendental functions take floating arrays ([`ModuleFloat`]).
//! Both modules report errors as Cuprum's one [`Error`], in NumPy's words,
//! so that the checks can compare which exception each raised
//! ([`crate::ExceptionKind`]).
//!
//! ```
//! use gpu_testing::{ArrayModule, Numpy};
//!
//! /// The mean of each row of exp(x / 10), written once for both modules.
//! fn row_means<M: ArrayModule>(xp: &M) -> gpu_array::Result<M::Array<f64>> {
//!     let x = xp.reshape(&xp.arange::<f64>(6)?, &[2, 3])?;
//!     let y = xp.exp(&xp.divide(&x, &xp.full(&[], 10.0)?)?)?;
//!     xp.mean(&y, Some(1))
//! }
//!
//! let host = Numpy.asnumpy(&row_means(&Numpy)?)?;
//! assert_eq!(host.shape(), &[2]);
//! assert!((host[0] - (1.0 + 0.1f64.exp() + 0.2f64.exp()) / 3.0).abs() < 1e-15);
//! # Ok::<(), gpu_array::Error>(())
//! ```

mod cuprum;
mod element;
mod numpy;

use std::fmt::Debug;

#[cfg(doc)]
use gpu_array::Error;
use gpu_array::Result;
use ndarray::ArrayD;

use crate::host::HostView;

pub use cuprum::{Cuprum, CuprumArray};
pub use element::{ModuleFloat, ModuleScalar};
pub use numpy::Numpy;

/// An array library a test body can be written against once: NumPy's role
/// ([`Numpy`], host `ndarray` arrays) or CuPy's ([`Cuprum`], device
/// arrays). The counterpart of the module `cupy.get_array_module` returns.
///
/// Every operation follows NumPy: its broadcasting, its result dtypes, its
/// errors (in NumPy's words, as [`Error`]). Operations take arrays of one
/// element type; [`ArrayModule::astype`] converts between them.
pub trait ArrayModule {
    /// The module's array of elements `T`; it reads itself to the host
    /// ([`HostView`]) for the comparisons.
    type Array<T: ModuleScalar>: HostView + Clone + Debug;

    /// The module's name in reports: `"numpy"` or `"cuprum"`.
    const NAME: &'static str;

    /// `xp.asarray(a)`: an array of the module holding the host array `a`
    /// (copied to the device for [`Cuprum`]).
    ///
    /// # Errors
    /// Allocation or copy failures.
    fn asarray<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<Self::Array<T>>;

    /// `cupy.asnumpy(a)`: `a` as a host `ndarray` array.
    ///
    /// # Errors
    /// Copy failures; an array whose dtype is not `T`'s.
    fn asnumpy<T: ModuleScalar>(&self, a: &Self::Array<T>) -> Result<ArrayD<T>>;

    /// `xp.arange(n, dtype=T)`: `0, 1, ..., n - 1`.
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn arange<T: ModuleScalar>(&self, n: usize) -> Result<Self::Array<T>>;

    /// `xp.zeros(shape, dtype=T)`.
    ///
    /// # Errors
    /// A shape too big; allocation failures.
    fn zeros<T: ModuleScalar>(&self, shape: &[usize]) -> Result<Self::Array<T>>;

    /// `xp.full(shape, value, dtype=T)`; `&[]` makes a 0-d array (a scalar
    /// operand for the binary operations).
    ///
    /// # Errors
    /// A shape too big; allocation failures.
    fn full<T: ModuleScalar>(&self, shape: &[usize], value: T) -> Result<Self::Array<T>>;

    /// `a.shape`.
    fn shape<T: ModuleScalar>(&self, a: &Self::Array<T>) -> Vec<usize>;

    /// `a.flags.c_contiguous`.
    fn is_c_contiguous<T: ModuleScalar>(&self, a: &Self::Array<T>) -> bool;

    /// `a.astype(U)`, with NumPy's casts: floats to integers truncate toward
    /// zero, integers to narrower integers wrap. Floats out of the integer
    /// type's range (and NaN) have no defined result in NumPy, nor the same
    /// one on the CPU and the GPU (the reference's "Cast behavior from float
    /// to integer"); keep them out of compared bodies.
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn astype<T: ModuleScalar, U: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
    ) -> Result<Self::Array<U>>;

    /// `xp.add(a, b)`, broadcasting; integers wrap.
    ///
    /// # Errors
    /// Shapes that do not broadcast ([`Error::Broadcast`]).
    fn add<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        b: &Self::Array<T>,
    ) -> Result<Self::Array<T>>;

    /// `xp.subtract(a, b)`, broadcasting; integers wrap.
    ///
    /// # Errors
    /// As [`ArrayModule::add`].
    fn subtract<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        b: &Self::Array<T>,
    ) -> Result<Self::Array<T>>;

    /// `xp.multiply(a, b)`, broadcasting; integers wrap.
    ///
    /// # Errors
    /// As [`ArrayModule::add`].
    fn multiply<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        b: &Self::Array<T>,
    ) -> Result<Self::Array<T>>;

    /// `xp.divide(a, b)` (true division), broadcasting.
    ///
    /// # Errors
    /// As [`ArrayModule::add`].
    fn divide<T: ModuleFloat>(
        &self,
        a: &Self::Array<T>,
        b: &Self::Array<T>,
    ) -> Result<Self::Array<T>>;

    /// `xp.exp(a)`.
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn exp<T: ModuleFloat>(&self, a: &Self::Array<T>) -> Result<Self::Array<T>>;

    /// `xp.log(a)` (NaN below zero, `-inf` at zero).
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn log<T: ModuleFloat>(&self, a: &Self::Array<T>) -> Result<Self::Array<T>>;

    /// `xp.sin(a)`.
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn sin<T: ModuleFloat>(&self, a: &Self::Array<T>) -> Result<Self::Array<T>>;

    /// `xp.sqrt(a)` (NaN below zero).
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn sqrt<T: ModuleFloat>(&self, a: &Self::Array<T>) -> Result<Self::Array<T>>;

    /// `xp.tanh(a)`.
    ///
    /// # Errors
    /// Allocation or launch failures.
    fn tanh<T: ModuleFloat>(&self, a: &Self::Array<T>) -> Result<Self::Array<T>>;

    /// `xp.sum(a, axis)`: along one axis, or of every element (a 0-d array)
    /// for `None`; in NumPy's accumulator dtype ([`ModuleScalar::Sum`]).
    ///
    /// # Errors
    /// An axis out of range ([`Error::AxisOutOfBounds`]).
    fn sum<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        axis: Option<isize>,
    ) -> Result<Self::Array<T::Sum>>;

    /// `xp.mean(a, axis)`: floats keep their dtype, integers give float64
    /// ([`ModuleScalar::Mean`]); an empty mean is NaN.
    ///
    /// # Errors
    /// As [`ArrayModule::sum`].
    fn mean<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        axis: Option<isize>,
    ) -> Result<Self::Array<T::Mean>>;

    /// `a.reshape(shape)` in C order, `-1` for the one inferred length.
    ///
    /// # Errors
    /// A shape of another size ([`Error::Reshape`]) or with several `-1`.
    fn reshape<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        shape: &[isize],
    ) -> Result<Self::Array<T>>;

    /// `xp.transpose(a, axes)`: axes reversed for `None`.
    ///
    /// # Errors
    /// "axes don't match array", an axis out of range, a repeated axis.
    fn transpose<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        axes: Option<&[isize]>,
    ) -> Result<Self::Array<T>>;

    /// `xp.matmul(a, b)` (`a @ b`): 1-D operands promoted and their axis
    /// dropped, leading axes a broadcast batch; integers wrap.
    ///
    /// # Errors
    /// A 0-d operand, core dimensions that differ, batches that do not
    /// broadcast (NumPy's messages).
    fn matmul<T: ModuleScalar>(
        &self,
        a: &Self::Array<T>,
        b: &Self::Array<T>,
    ) -> Result<Self::Array<T>>;
}
