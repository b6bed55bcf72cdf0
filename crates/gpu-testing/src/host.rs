//! Host snapshots of arrays: what every assertion compares.
//!
//! An assertion takes anything that implements [`HostView`] (a host
//! `ndarray` array or view, a slice, a `Vec`, a fixed-size array, a scalar, a
//! `.npy` array, a [`HostArray`]) and reads it into a [`HostArray`]: dtype,
//! shape and the elements in logical (C) order, widened without loss so that
//! every dtype compares exactly: `bool` as `bool`, signed integers as `i64`,
//! unsigned integers as `u64`, `float16`/`bfloat16`/`float32`/`float64` as
//! `f64`, complex types as `Complex<f64>`.
//!
//! The device array implements [`HostView`] here, in gpu-testing, which sits
//! above gpu-array: it copies its elements to the host in C order and calls
//! [`HostArray::from_le_bytes`]. (The impl cannot live in gpu-array:
//! gpu-testing depends on it. Tests of device arrays therefore live in
//! integration tests (`tests/`), which link the one gpu-array that
//! gpu-testing sees.)

use gpu_array::npy::NpyArray;
use gpu_array::{DType, Element};
use half::{bf16, f16};
use ndarray::{ArrayBase, Data, Dimension};
use num_complex::Complex;

/// Elements of a [`HostArray`], widened without loss.
#[derive(Clone, Debug, PartialEq)]
pub enum HostData {
    /// `bool`.
    Bool(Vec<bool>),
    /// `int8`..`int64`.
    Int(Vec<i64>),
    /// `uint8`..`uint64`.
    UInt(Vec<u64>),
    /// `float16`, `bfloat16`, `float32` and `float64`, each exact in `f64`.
    Float(Vec<f64>),
    /// `complex64` and `complex128`.
    Complex(Vec<Complex<f64>>),
}

impl HostData {
    /// Number of elements.
    ///
    /// ```
    /// use gpu_testing::HostData;
    /// assert_eq!(HostData::Int(vec![1, 2, 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            HostData::Bool(v) => v.len(),
            HostData::Int(v) => v.len(),
            HostData::UInt(v) => v.len(),
            HostData::Float(v) => v.len(),
            HostData::Complex(v) => v.len(),
        }
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// use gpu_testing::HostData;
    /// assert!(HostData::Float(vec![]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this variant holds elements of `dtype`.
    ///
    /// ```
    /// use gpu_testing::{DType, HostData};
    /// let d = HostData::UInt(vec![1, 2]);
    /// assert!(d.holds(DType::UInt8) && d.holds(DType::UInt64));
    /// assert!(!d.holds(DType::Int32));
    /// ```
    pub fn holds(&self, dtype: DType) -> bool {
        matches!(
            (self, dtype.kind()),
            (HostData::Bool(_), 'b')
                | (HostData::Int(_), 'i')
                | (HostData::UInt(_), 'u')
                | (HostData::Float(_), 'f')
                | (HostData::Complex(_), 'c')
        )
    }

    /// The elements reordered by `perm` (`out[i] = self[perm[i]]`).
    fn permuted(&self, perm: &[usize]) -> HostData {
        fn pick<T: Copy>(v: &[T], perm: &[usize]) -> Vec<T> {
            perm.iter().map(|&i| v[i]).collect()
        }
        match self {
            HostData::Bool(v) => HostData::Bool(pick(v, perm)),
            HostData::Int(v) => HostData::Int(pick(v, perm)),
            HostData::UInt(v) => HostData::UInt(pick(v, perm)),
            HostData::Float(v) => HostData::Float(pick(v, perm)),
            HostData::Complex(v) => HostData::Complex(pick(v, perm)),
        }
    }
}

/// A host snapshot of an array: dtype, shape and elements in C order.
#[derive(Clone, Debug, PartialEq)]
pub struct HostArray {
    /// The element type of the array read (not of the widened storage).
    pub dtype: DType,
    /// The shape; `[]` for a scalar.
    pub shape: Vec<usize>,
    /// The elements in logical (C) order.
    pub data: HostData,
}

impl HostArray {
    /// An array from its parts.
    ///
    /// ```
    /// use gpu_testing::{DType, HostArray, HostData};
    /// let a = HostArray::new(DType::Int16, vec![2, 2], HostData::Int(vec![1, 2, 3, 4]))?;
    /// assert_eq!(a.size(), 4);
    /// assert!(HostArray::new(DType::Int16, vec![3], HostData::Int(vec![1, 2])).is_err());
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the variant of `data` does not hold `dtype`, or its length is
    /// not the shape's size.
    pub fn new(dtype: DType, shape: Vec<usize>, data: HostData) -> Result<HostArray, String> {
        if !data.holds(dtype) {
            return Err(format!("{dtype} elements cannot be held as {data:?}"));
        }
        let size: usize = shape.iter().product();
        if data.len() != size {
            return Err(format!(
                "{} elements do not fill shape {}",
                data.len(),
                gpu_array::layout::fmt_shape(&shape)
            ));
        }
        Ok(HostArray { dtype, shape, data })
    }

    /// An array of elements given in C order.
    ///
    /// ```
    /// use gpu_testing::{DType, HostArray};
    /// let a = HostArray::from_elements(vec![3], [1.5f32, 2.5, 3.5])?;
    /// assert_eq!(a.dtype, DType::Float32);
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the number of elements is not the shape's size.
    pub fn from_elements<T: HostElement>(
        shape: Vec<usize>,
        elements: impl IntoIterator<Item = T>,
    ) -> Result<HostArray, String> {
        HostArray::new(T::DTYPE, shape, T::collect_data(elements))
    }

    /// An array from little-endian element bytes in C order: what a copy of
    /// a device array to the host gives.
    ///
    /// ```
    /// use gpu_testing::{DType, HostArray, HostData};
    /// let a = HostArray::from_le_bytes(DType::UInt16, vec![2], &[1, 0, 0, 1])?;
    /// assert_eq!(a.data, HostData::UInt(vec![1, 256]));
    /// # Ok::<(), String>(())
    /// ```
    ///
    /// # Errors
    ///
    /// When the byte count is not the shape's size times the item size.
    pub fn from_le_bytes(
        dtype: DType,
        shape: Vec<usize>,
        bytes: &[u8],
    ) -> Result<HostArray, String> {
        fn widen<T: HostElement>(dtype: DType, bytes: &[u8]) -> Result<HostData, String> {
            let values =
                gpu_array::dtype::from_bytes::<T>(dtype, bytes).map_err(|e| e.to_string())?;
            Ok(T::collect_data(values))
        }
        let data = match dtype {
            DType::Bool => widen::<bool>(dtype, bytes),
            DType::Int8 => widen::<i8>(dtype, bytes),
            DType::Int16 => widen::<i16>(dtype, bytes),
            DType::Int32 => widen::<i32>(dtype, bytes),
            DType::Int64 => widen::<i64>(dtype, bytes),
            DType::UInt8 => widen::<u8>(dtype, bytes),
            DType::UInt16 => widen::<u16>(dtype, bytes),
            DType::UInt32 => widen::<u32>(dtype, bytes),
            DType::UInt64 => widen::<u64>(dtype, bytes),
            DType::Float16 => widen::<f16>(dtype, bytes),
            DType::BFloat16 => widen::<bf16>(dtype, bytes),
            DType::Float32 => widen::<f32>(dtype, bytes),
            DType::Float64 => widen::<f64>(dtype, bytes),
            DType::Complex64 => widen::<Complex<f32>>(dtype, bytes),
            DType::Complex128 => widen::<Complex<f64>>(dtype, bytes),
        }?;
        HostArray::new(dtype, shape, data)
    }

    /// Number of elements.
    ///
    /// ```
    /// use gpu_testing::HostArray;
    /// assert_eq!(HostArray::from_elements(vec![2, 3], [0u8; 6])?.size(), 6);
    /// # Ok::<(), String>(())
    /// ```
    pub fn size(&self) -> usize {
        self.data.len()
    }

    /// Number of dimensions.
    ///
    /// ```
    /// use gpu_testing::HostArray;
    /// assert_eq!(HostArray::from_elements(vec![2, 3], [0u8; 6])?.ndim(), 2);
    /// assert_eq!(HostArray::from_elements(vec![], [7i64])?.ndim(), 0); // a scalar
    /// # Ok::<(), String>(())
    /// ```
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
}

/// Something an assertion can read: it yields a host snapshot of itself.
///
/// Implemented for host `ndarray` arrays and views of every [`HostElement`]
/// type (any strides, read in logical order), slices, `Vec`s and fixed-size
/// arrays (1-D), scalars (0-d), [`NpyArray`] (golden files written by
/// NumPy), [`HostArray`] itself and references to any of these. The device
/// array implements it by copying to the host (see the [module docs](self)).
pub trait HostView {
    /// The dtype, shape and elements (C order) of `self`, on the host.
    ///
    /// # Errors
    ///
    /// When the elements cannot be read, e.g. a failed device copy; the
    /// assertion panics with this text.
    fn to_host(&self) -> Result<HostArray, String>;
}

/// A Rust element type an assertion can read: every [`Element`] (`bool`,
/// `i8`..`u64`, [`half::f16`], [`half::bf16`], `f32`, `f64`, `Complex<f32>`,
/// `Complex<f64>`), with the conversions tests need.
pub trait HostElement: Element {
    /// The elements, widened into the [`HostData`] variant of `Self::DTYPE`.
    fn collect_data(values: impl IntoIterator<Item = Self>) -> HostData;

    /// `Self` from a complex value, as NumPy's `astype` from `complex128`:
    /// real types drop the imaginary part, integers truncate toward zero
    /// (saturating where NumPy's result is undefined), `bool` is `z != 0`.
    fn from_complex(z: Complex<f64>) -> Self;

    /// `Self` from a real value (`from_complex(x + 0j)`).
    fn from_f64(x: f64) -> Self {
        Self::from_complex(Complex::new(x, 0.0))
    }
}

macro_rules! host_element {
    ($($t:ty => $variant:ident, |$v:ident| $widen:expr, |$z:ident| $from:expr;)*) => {$(
        impl HostElement for $t {
            fn collect_data(values: impl IntoIterator<Item = Self>) -> HostData {
                HostData::$variant(values.into_iter().map(|$v| $widen).collect())
            }
            fn from_complex($z: Complex<f64>) -> Self {
                $from
            }
        }
        impl HostView for $t {
            fn to_host(&self) -> Result<HostArray, String> {
                HostArray::from_elements(Vec::new(), [*self])
            }
        }
    )*};
}

// Float-to-integer `as` casts truncate toward zero and saturate.
host_element! {
    bool => Bool, |v| v, |z| z.re != 0.0 || z.im != 0.0;
    i8 => Int, |v| i64::from(v), |z| z.re as i8;
    i16 => Int, |v| i64::from(v), |z| z.re as i16;
    i32 => Int, |v| i64::from(v), |z| z.re as i32;
    i64 => Int, |v| v, |z| z.re as i64;
    u8 => UInt, |v| u64::from(v), |z| z.re as u8;
    u16 => UInt, |v| u64::from(v), |z| z.re as u16;
    u32 => UInt, |v| u64::from(v), |z| z.re as u32;
    u64 => UInt, |v| v, |z| z.re as u64;
    f16 => Float, |v| v.to_f64(), |z| f16::from_f64(z.re);
    bf16 => Float, |v| v.to_f64(), |z| bf16::from_f64(z.re);
    f32 => Float, |v| f64::from(v), |z| z.re as f32;
    f64 => Float, |v| v, |z| z.re;
    Complex<f32> => Complex, |v| Complex::new(f64::from(v.re), f64::from(v.im)),
        |z| Complex::new(z.re as f32, z.im as f32);
    Complex<f64> => Complex, |v| v, |z| z;
}

impl<S, D> HostView for ArrayBase<S, D>
where
    S: Data,
    S::Elem: HostElement,
    D: Dimension,
{
    fn to_host(&self) -> Result<HostArray, String> {
        HostArray::from_elements(self.shape().to_vec(), self.iter().copied())
    }
}

impl<T: HostElement> HostView for [T] {
    fn to_host(&self) -> Result<HostArray, String> {
        HostArray::from_elements(vec![self.len()], self.iter().copied())
    }
}

impl<T: HostElement, const N: usize> HostView for [T; N] {
    fn to_host(&self) -> Result<HostArray, String> {
        self.as_slice().to_host()
    }
}

impl<T: HostElement> HostView for Vec<T> {
    fn to_host(&self) -> Result<HostArray, String> {
        self.as_slice().to_host()
    }
}

impl HostView for gpu_array::Array {
    /// Copies the elements to the host (waits for the array's stream).
    fn to_host(&self) -> Result<HostArray, String> {
        let bytes = self.to_bytes().map_err(|e| e.to_string())?;
        HostArray::from_le_bytes(self.dtype(), self.shape().to_vec(), &bytes)
    }
}

impl HostView for HostArray {
    fn to_host(&self) -> Result<HostArray, String> {
        Ok(self.clone())
    }
}

impl HostView for NpyArray {
    /// Fortran-ordered files are reordered to C order.
    fn to_host(&self) -> Result<HostArray, String> {
        let mut a = HostArray::from_le_bytes(self.dtype, self.shape.clone(), &self.data)?;
        if self.fortran_order && a.ndim() > 1 {
            a.data = a.data.permuted(&f_to_c_permutation(&self.shape));
        }
        Ok(a)
    }
}

impl<T: HostView + ?Sized> HostView for &T {
    fn to_host(&self) -> Result<HostArray, String> {
        (**self).to_host()
    }
}

/// For each C-order position, the position of the same element in F order.
fn f_to_c_permutation(shape: &[usize]) -> Vec<usize> {
    let size: usize = shape.iter().product();
    let mut f_strides = vec![1usize; shape.len()];
    for k in 1..shape.len() {
        f_strides[k] = f_strides[k - 1] * shape[k - 1];
    }
    let mut index = vec![0usize; shape.len()];
    let mut out = Vec::with_capacity(size);
    for _ in 0..size {
        out.push(index.iter().zip(&f_strides).map(|(i, s)| i * s).sum());
        for k in (0..shape.len()).rev() {
            index[k] += 1;
            if index[k] < shape[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}
