//! The Rust type of each dtype under its NumPy name (`dtypes::float32` is
//! `f32`), as the dtype test macros name their tests, and the dtype sets
//! those macros run over.
//!
//! [`for_dtypes!`](crate::for_dtypes) takes these names:
//! `for_dtypes! { [float16, complex64]; fn works<T>() { ... } }` runs the
//! body with `T = dtypes::float16`, then `T = dtypes::complex64`.
#![allow(non_camel_case_types)]

use gpu_array::DType;
use num_complex::Complex;

/// `numpy.bool_`.
pub type bool = ::core::primitive::bool;
/// `numpy.int8`.
pub type int8 = i8;
/// `numpy.int16`.
pub type int16 = i16;
/// `numpy.int32`.
pub type int32 = i32;
/// `numpy.int64`.
pub type int64 = i64;
/// `numpy.uint8`.
pub type uint8 = u8;
/// `numpy.uint16`.
pub type uint16 = u16;
/// `numpy.uint32`.
pub type uint32 = u32;
/// `numpy.uint64`.
pub type uint64 = u64;
/// `numpy.float16`.
pub type float16 = half::f16;
/// `ml_dtypes.bfloat16` (beyond NumPy and CuPy).
pub type bfloat16 = half::bf16;
/// `numpy.float32`.
pub type float32 = f32;
/// `numpy.float64`.
pub type float64 = f64;
/// `numpy.complex64`.
pub type complex64 = Complex<f32>;
/// `numpy.complex128`.
pub type complex128 = Complex<f64>;

/// Every dtype ([`for_all_dtypes!`](crate::for_all_dtypes)).
pub const ALL_DTYPES: [DType; 15] = DType::ALL;

/// The floating dtypes ([`for_float_dtypes!`](crate::for_float_dtypes)):
/// CuPy's float16, float32 and float64, plus bfloat16.
pub const FLOAT_DTYPES: [DType; 4] = [
    DType::Float16,
    DType::BFloat16,
    DType::Float32,
    DType::Float64,
];

/// The signed integer dtypes ([`for_signed_dtypes!`](crate::for_signed_dtypes)).
pub const SIGNED_DTYPES: [DType; 4] = [DType::Int8, DType::Int16, DType::Int32, DType::Int64];

/// The unsigned integer dtypes
/// ([`for_unsigned_dtypes!`](crate::for_unsigned_dtypes)).
pub const UNSIGNED_DTYPES: [DType; 4] = [DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64];

/// The integer dtypes and bool ([`for_int_dtypes!`](crate::for_int_dtypes)
/// without `no_bool`, as CuPy's `for_int_dtypes`).
pub const INT_DTYPES: [DType; 9] = [
    DType::Bool,
    DType::Int8,
    DType::Int16,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt16,
    DType::UInt32,
    DType::UInt64,
];

/// The complex dtypes ([`for_complex_dtypes!`](crate::for_complex_dtypes)).
pub const COMPLEX_DTYPES: [DType; 2] = [DType::Complex64, DType::Complex128];
