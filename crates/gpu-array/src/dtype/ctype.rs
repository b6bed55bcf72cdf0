//! The CUDA C++ type names that kernels use for each dtype.
//!
//! The kernel headers (`kernels/`) must define or use exactly these names;
//! keep the two in step through these constants, never through string
//! literals elsewhere.

/// `bool`.
pub const BOOL: &str = "bool";
/// `int8`.
pub const INT8: &str = "signed char";
/// `int16`.
pub const INT16: &str = "short";
/// `int32`.
pub const INT32: &str = "int";
/// `int64`.
pub const INT64: &str = "long long";
/// `uint8`.
pub const UINT8: &str = "unsigned char";
/// `uint16`.
pub const UINT16: &str = "unsigned short";
/// `uint32`.
pub const UINT32: &str = "unsigned int";
/// `uint64`.
pub const UINT64: &str = "unsigned long long";
/// `float16`: Cuprum's storage type from `kernels/cuprum/half.cuh` (not
/// CUDA's `__half`, so that kernels need no CUDA toolkit header).
pub const FLOAT16: &str = "cuprum::half";
/// `bfloat16`: Cuprum's storage type from `kernels/cuprum/half.cuh` (not
/// CUDA's `__nv_bfloat16`).
pub const BFLOAT16: &str = "cuprum::bfloat16";
/// `float32`.
pub const FLOAT32: &str = "float";
/// `float64`.
pub const FLOAT64: &str = "double";
/// `complex64`: Cuprum's complex header.
pub const COMPLEX64: &str = "cuprum::complex<float>";
/// `complex128`: Cuprum's complex header.
pub const COMPLEX128: &str = "cuprum::complex<double>";
