//! The CUDA C++ type names that kernels use for each dtype.
//!
//! The kernel headers (`kernels/`) must define or use exactly these names;
//! keep the two in step through these constants, never through string
//! literals elsewhere. The booleans, integers and floats take the names of
//! gpu-runtime's table of Rust scalar types (`gpu_runtime::signature::c_type`,
//! what kernel signatures declare), so that a dtype and its Rust element
//! type render alike.

/// The C type of the Rust scalar type `rust`, by gpu-runtime's table.
const fn scalar(rust: &str) -> &'static str {
    match gpu_runtime::signature::c_type(rust) {
        Some(c) => c,
        None => panic!("a Rust scalar type without a C type"),
    }
}

/// `bool`.
pub const BOOL: &str = scalar("bool");
/// `int8`.
pub const INT8: &str = scalar("i8");
/// `int16`.
pub const INT16: &str = scalar("i16");
/// `int32`.
pub const INT32: &str = scalar("i32");
/// `int64`.
pub const INT64: &str = scalar("i64");
/// `uint8`.
pub const UINT8: &str = scalar("u8");
/// `uint16`.
pub const UINT16: &str = scalar("u16");
/// `uint32`.
pub const UINT32: &str = scalar("u32");
/// `uint64`.
pub const UINT64: &str = scalar("u64");
/// `float16`: Cuprum's storage type from `kernels/cuprum/half.cuh` (not
/// CUDA's `__half`, so that kernels need no CUDA toolkit header).
pub const FLOAT16: &str = "cuprum::half";
/// `bfloat16`: Cuprum's storage type from `kernels/cuprum/half.cuh` (not
/// CUDA's `__nv_bfloat16`).
pub const BFLOAT16: &str = "cuprum::bfloat16";
/// `float32`.
pub const FLOAT32: &str = scalar("f32");
/// `float64`.
pub const FLOAT64: &str = scalar("f64");
/// `complex64`: Cuprum's complex header.
pub const COMPLEX64: &str = "cuprum::complex<float>";
/// `complex128`: Cuprum's complex header.
pub const COMPLEX128: &str = "cuprum::complex<double>";
