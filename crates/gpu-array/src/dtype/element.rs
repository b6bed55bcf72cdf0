//! Rust host types that map to a [`DType`].

use std::fmt::Debug;

use half::{bf16, f16};
use num_complex::Complex;

use super::DType;
use crate::error::{Error, Result};

mod sealed {
    pub trait Sealed {}
}

/// A Rust type that is the host image of one [`DType`]: `bool`, `i8`..`i64`,
/// `u8`..`u64`, [`half::f16`], [`half::bf16`], `f32`, `f64`,
/// `Complex<f32>` and `Complex<f64>`.
///
/// Sealed: the set of dtypes is closed. Bytes are little-endian, the layout
/// of device memory and of `.npy` files written here.
pub trait Element:
    sealed::Sealed + Copy + Send + Sync + 'static + Debug + PartialEq + Default
{
    /// The dtype of this type.
    const DTYPE: DType;
    /// The CUDA C++ type name (same as `Self::DTYPE.c_type()`).
    const C_TYPE: &'static str = Self::DTYPE.c_type();

    /// Appends the little-endian bytes of `self` to `out`.
    fn write_le(self, out: &mut Vec<u8>);

    /// Reads a value from exactly `DTYPE.itemsize()` little-endian bytes.
    ///
    /// # Panics
    ///
    /// If `bytes` is not `DTYPE.itemsize()` long.
    fn read_le(bytes: &[u8]) -> Self;
}

macro_rules! impl_element_num {
    ($($t:ty => $dt:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl Element for $t {
            const DTYPE: DType = DType::$dt;
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("element byte length"))
            }
        }
    )*};
}

impl_element_num!(
    i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64,
    u8 => UInt8, u16 => UInt16, u32 => UInt32, u64 => UInt64,
    f16 => Float16, bf16 => BFloat16, f32 => Float32, f64 => Float64,
);

impl sealed::Sealed for bool {}
impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn write_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    /// Any nonzero byte reads as `true`.
    fn read_le(bytes: &[u8]) -> Self {
        let [b]: [u8; 1] = bytes.try_into().expect("element byte length");
        b != 0
    }
}

macro_rules! impl_element_complex {
    ($($t:ty => $dt:ident),*) => {$(
        impl sealed::Sealed for Complex<$t> {}
        impl Element for Complex<$t> {
            const DTYPE: DType = DType::$dt;
            fn write_le(self, out: &mut Vec<u8>) {
                self.re.write_le(out);
                self.im.write_le(out);
            }
            fn read_le(bytes: &[u8]) -> Self {
                let (re, im) = bytes.split_at(bytes.len() / 2);
                Complex::new(<$t>::read_le(re), <$t>::read_le(im))
            }
        }
    )*};
}

impl_element_complex!(f32 => Complex64, f64 => Complex128);

/// The little-endian bytes of a slice of elements.
///
/// ```
/// use gpu_array::dtype::to_bytes;
/// assert_eq!(to_bytes(&[1u16, 0x0203]), [1, 0, 3, 2]);
/// ```
pub fn to_bytes<T: Element>(data: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * T::DTYPE.itemsize());
    for &x in data {
        x.write_le(&mut out);
    }
    out
}

/// Elements from little-endian bytes of dtype `dtype`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::{from_bytes, to_bytes};
/// let bytes = to_bytes(&[1.5f32, -2.0]);
/// assert_eq!(from_bytes::<f32>(DType::Float32, &bytes)?, [1.5, -2.0]);
/// assert!(from_bytes::<f64>(DType::Float32, &bytes).is_err()); // the dtype must match `T`
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::DType`] if `dtype` is not `T::DTYPE`; [`Error::Value`] if the
/// length is not a multiple of the item size.
pub fn from_bytes<T: Element>(dtype: DType, bytes: &[u8]) -> Result<Vec<T>> {
    if dtype != T::DTYPE {
        return Err(Error::DType(format!(
            "cannot read {dtype} data as {} elements",
            T::DTYPE
        )));
    }
    let size = dtype.itemsize();
    if !bytes.len().is_multiple_of(size) {
        return Err(Error::Value(format!(
            "buffer size {} is not a multiple of the item size {size} of {dtype}",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(size).map(T::read_le).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Element>(values: &[T]) {
        let bytes = to_bytes(values);
        assert_eq!(bytes.len(), values.len() * T::DTYPE.itemsize());
        assert_eq!(from_bytes::<T>(T::DTYPE, &bytes).unwrap(), values);
        assert_eq!(T::C_TYPE, T::DTYPE.c_type());
    }

    #[test]
    fn bytes_round_trip() {
        round_trip(&[true, false]);
        round_trip(&[i8::MIN, -1, 7]);
        round_trip(&[i16::MIN, 300]);
        round_trip(&[i32::MIN, 70000]);
        round_trip(&[i64::MIN, i64::MAX]);
        round_trip(&[u8::MAX, 0]);
        round_trip(&[u16::MAX]);
        round_trip(&[u32::MAX]);
        round_trip(&[u64::MAX]);
        round_trip(&[f16::from_f32(1.5), f16::NEG_INFINITY]);
        round_trip(&[bf16::from_f32(-2.0)]);
        round_trip(&[1.25f32, -0.0]);
        round_trip(&[f64::MAX, f64::MIN_POSITIVE]);
        round_trip(&[Complex::new(1.0f32, -2.0)]);
        round_trip(&[Complex::new(1.0f64, -2.0)]);
    }

    #[test]
    fn layout_and_errors() {
        assert_eq!(to_bytes(&[1i32, 2]), [1, 0, 0, 0, 2, 0, 0, 0]);
        assert_eq!(
            to_bytes(&[Complex::new(1.0f32, 2.0)]),
            [0, 0, 0x80, 0x3f, 0, 0, 0, 0x40]
        );
        assert!(from_bytes::<i32>(DType::Float32, &[0; 4]).is_err());
        assert!(from_bytes::<i32>(DType::Int32, &[0; 5]).is_err());
        assert_eq!(
            from_bytes::<bool>(DType::Bool, &[0, 2]).unwrap(),
            [false, true]
        );
    }
}
