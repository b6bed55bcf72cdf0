//! [`Cuprum`]: the device module, CuPy's role, over [`gpu_array::Array`].

use gpu_array::creation::{arange_with, full};
use gpu_array::dtype::ScalarValue;
use std::marker::PhantomData;

use gpu_array::{Array, Error, Result, math, stats, ufunc};
use ndarray::ArrayD;

use super::{ArrayModule, ModuleFloat, ModuleScalar};
use crate::host::{HostArray, HostView};

/// The device array module, CuPy's role in the `numpy_cupy_*` checks:
/// Cuprum's own [`Array`] on the current device and stream, every
/// operation the library's (`gpu_array::ufunc`, `math::sum`,
/// `stats::mean`, `gpu_linalg::matmul`, ...), so that a check against
/// [`super::Numpy`] tests Cuprum.
///
/// `Cuprum::Array<T>` is [`CuprumArray<T>`]: an [`Array`] with the
/// element type the test body expects, so that Rust infers `T` as it does
/// for `ndarray::ArrayD<T>`. Cuprum's operations pick their result dtypes
/// themselves; the checks compare them with NumPy's (`type_check`).
///
/// ```no_run
/// use gpu_testing::{ArrayModule, Cuprum};
/// let xp = Cuprum;
/// let a = xp.reshape(&xp.arange::<f32>(6)?, &[2, 3])?;
/// let s = xp.sum(&xp.sin(&a)?, Some(1))?; // cupy.sin(a).sum(axis=1)
/// let host: ndarray::ArrayD<f32> = xp.asnumpy(&s)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Cuprum;

/// A device [`Array`] that a test body holds as an array of `T`
/// ([`Cuprum`]'s `Array<T>`).
///
/// ```no_run
/// use gpu_testing::{ArrayModule, Cuprum, CuprumArray};
/// let a: CuprumArray<f64> = Cuprum.arange(4)?;
/// let device: &gpu_array::Array = a.array(); // Cuprum's own array
/// let b = CuprumArray::<f64>::new(device.copy()?)?; // and back, dtype checked
/// # Ok::<(), gpu_array::Error>(())
/// ```
pub struct CuprumArray<T> {
    array: Array,
    element: PhantomData<fn() -> T>,
}

impl<T: ModuleScalar> CuprumArray<T> {
    /// `array` as an array of `T`.
    ///
    /// ```no_run
    /// use gpu_testing::CuprumArray;
    /// let device = gpu_array::creation::arange(4)?; // int64
    /// assert!(CuprumArray::<f32>::new(device.clone()).is_err());
    /// let ints = CuprumArray::<i64>::new(device)?;
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::HostType`] when `array`'s dtype is not `T`'s.
    pub fn new(array: Array) -> Result<CuprumArray<T>> {
        if array.dtype() != T::DTYPE {
            return Err(Error::HostType {
                operation: "CuprumArray::new",
                array: array.dtype(),
                host: T::DTYPE,
            });
        }
        Ok(CuprumArray::wrap(array))
    }

    /// The result of a Cuprum operation, whatever dtype it picked: the
    /// checks compare it with NumPy's.
    fn wrap(array: Array) -> CuprumArray<T> {
        CuprumArray {
            array,
            element: PhantomData,
        }
    }

    /// The device array.
    ///
    /// ```no_run
    /// use gpu_testing::{ArrayModule, Cuprum};
    /// let a = Cuprum.zeros::<f64>(&[2, 3])?;
    /// assert_eq!(a.array().shape(), [2, 3]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn array(&self) -> &Array {
        &self.array
    }

    /// The device array, taken out.
    ///
    /// ```no_run
    /// use gpu_testing::{ArrayModule, Cuprum};
    /// let a: gpu_array::Array = Cuprum.arange::<u8>(5)?.into_inner();
    /// assert_eq!(a.dtype(), gpu_array::DType::UInt8);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn into_inner(self) -> Array {
        self.array
    }
}

impl<T> Clone for CuprumArray<T> {
    /// A new handle on the same device memory (a view, as `Array::clone`).
    fn clone(&self) -> CuprumArray<T> {
        CuprumArray {
            array: self.array.clone(),
            element: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for CuprumArray<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.array, f)
    }
}

impl<T> HostView for CuprumArray<T> {
    /// Copies the elements to the host (waits for the array's stream).
    fn to_host(&self) -> std::result::Result<HostArray, String> {
        self.array.to_host()
    }
}

/// Wraps a Cuprum result as the caller's array type.
fn w<T: ModuleScalar>(r: Result<Array>) -> Result<CuprumArray<T>> {
    r.map(CuprumArray::wrap)
}

impl ArrayModule for Cuprum {
    type Array<T: ModuleScalar> = CuprumArray<T>;

    const NAME: &'static str = "cuprum";

    fn asarray<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<CuprumArray<T>> {
        w(Array::from_ndarray(a))
    }

    fn asnumpy<T: ModuleScalar>(&self, a: &CuprumArray<T>) -> Result<ArrayD<T>> {
        a.array.to_ndarray::<T>()
    }

    fn arange<T: ModuleScalar>(&self, n: usize) -> Result<CuprumArray<T>> {
        w(arange_with(0, n as u64, 1, Some(T::DTYPE)))
    }

    fn zeros<T: ModuleScalar>(&self, shape: &[usize]) -> Result<CuprumArray<T>> {
        w(Array::zeros(shape, T::DTYPE))
    }

    fn full<T: ModuleScalar>(&self, shape: &[usize], value: T) -> Result<CuprumArray<T>> {
        let value: ScalarValue = value.into();
        w(full(shape, value, Some(T::DTYPE)))
    }

    fn shape<T: ModuleScalar>(&self, a: &CuprumArray<T>) -> Vec<usize> {
        a.array.shape().to_vec()
    }

    fn is_c_contiguous<T: ModuleScalar>(&self, a: &CuprumArray<T>) -> bool {
        a.array.is_c_contiguous()
    }

    fn astype<T: ModuleScalar, U: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
    ) -> Result<CuprumArray<U>> {
        w(a.array.astype(U::DTYPE))
    }

    fn add<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        b: &CuprumArray<T>,
    ) -> Result<CuprumArray<T>> {
        w(ufunc::add(&a.array, &b.array))
    }

    fn subtract<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        b: &CuprumArray<T>,
    ) -> Result<CuprumArray<T>> {
        w(ufunc::subtract(&a.array, &b.array))
    }

    fn multiply<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        b: &CuprumArray<T>,
    ) -> Result<CuprumArray<T>> {
        w(ufunc::multiply(&a.array, &b.array))
    }

    fn divide<T: ModuleFloat>(
        &self,
        a: &CuprumArray<T>,
        b: &CuprumArray<T>,
    ) -> Result<CuprumArray<T>> {
        w(ufunc::true_divide(&a.array, &b.array))
    }

    fn exp<T: ModuleFloat>(&self, a: &CuprumArray<T>) -> Result<CuprumArray<T>> {
        w(ufunc::exp(&a.array))
    }

    fn log<T: ModuleFloat>(&self, a: &CuprumArray<T>) -> Result<CuprumArray<T>> {
        w(ufunc::log(&a.array))
    }

    fn sin<T: ModuleFloat>(&self, a: &CuprumArray<T>) -> Result<CuprumArray<T>> {
        w(ufunc::sin(&a.array))
    }

    fn sqrt<T: ModuleFloat>(&self, a: &CuprumArray<T>) -> Result<CuprumArray<T>> {
        w(ufunc::sqrt(&a.array))
    }

    fn tanh<T: ModuleFloat>(&self, a: &CuprumArray<T>) -> Result<CuprumArray<T>> {
        w(ufunc::tanh(&a.array))
    }

    fn sum<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        axis: Option<isize>,
    ) -> Result<CuprumArray<T::Sum>> {
        w(match axis {
            Some(axis) => math::sum(&a.array, axis),
            None => math::sum(&a.array, ()),
        })
    }

    fn mean<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        axis: Option<isize>,
    ) -> Result<CuprumArray<T::Mean>> {
        w(match axis {
            Some(axis) => stats::mean(&a.array, axis),
            None => stats::mean(&a.array, ()),
        })
    }

    fn reshape<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        shape: &[isize],
    ) -> Result<CuprumArray<T>> {
        w(a.array.reshape(shape))
    }

    fn transpose<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        axes: Option<&[isize]>,
    ) -> Result<CuprumArray<T>> {
        w(a.array.transpose(axes))
    }

    fn matmul<T: ModuleScalar>(
        &self,
        a: &CuprumArray<T>,
        b: &CuprumArray<T>,
    ) -> Result<CuprumArray<T>> {
        w(gpu_linalg::matmul(&a.array, &b.array))
    }
}
