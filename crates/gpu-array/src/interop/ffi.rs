//! The DLPack ABI, `dlpack.h` v1.1 (`DLPACK_MAJOR_VERSION` 1,
//! `DLPACK_MINOR_VERSION` 1), as `#[repr(C)]` structs.
//!
//! Every enumeration the header declares is kept here as its plain integer
//! (`DLDevice::device_type` an `i32`, `DLDataType::code` a `u8`), never as
//! a Rust `enum`: a producer may send any value, and a Rust `enum` holding a
//! value it does not list would be undefined behaviour. The named values
//! are constants in [`device_type`] and [`type_code`].
//!
//! The tests at the bottom hold the sizes and field offsets to the ones a C
//! compiler gives the header's definitions on a 64-bit target.

use std::ffi::c_void;

/// The DLPack major version these structs follow. A versioned tensor of
/// another major version has another layout past its `flags` (the header:
/// the consumer must call its deleter and read nothing else).
pub const DLPACK_MAJOR_VERSION: u32 = 1;
/// The DLPack minor version these structs follow (minor versions add
/// enumeration values, never fields).
pub const DLPACK_MINOR_VERSION: u32 = 1;

/// `DLPACK_FLAG_BITMASK_READ_ONLY`: the consumer must not write the data.
pub const DLPACK_FLAG_BITMASK_READ_ONLY: u64 = 1 << 0;
/// `DLPACK_FLAG_BITMASK_IS_COPIED`: the producer made a copy for this
/// exchange, so the consumer owns the data alone until it calls the deleter.
pub const DLPACK_FLAG_BITMASK_IS_COPIED: u64 = 1 << 1;
/// `DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED`: a sub-byte type (fp4,
/// fp6) is padded to a byte per element rather than packed.
pub const DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED: u64 = 1 << 2;

/// `DLDeviceType`'s values.
pub mod device_type {
    /// `kDLCPU`: host memory.
    pub const CPU: i32 = 1;
    /// `kDLCUDA`: CUDA device memory.
    pub const CUDA: i32 = 2;
    /// `kDLCUDAHost`: pinned host memory (`cudaMallocHost`).
    pub const CUDA_HOST: i32 = 3;
    /// `kDLOpenCL`.
    pub const OPENCL: i32 = 4;
    /// `kDLVulkan`.
    pub const VULKAN: i32 = 7;
    /// `kDLMetal`.
    pub const METAL: i32 = 8;
    /// `kDLVPI`: a Verilog simulator buffer.
    pub const VPI: i32 = 9;
    /// `kDLROCM`: AMD GPU memory.
    pub const ROCM: i32 = 10;
    /// `kDLROCMHost`: pinned host memory (`hipMallocHost`).
    pub const ROCM_HOST: i32 = 11;
    /// `kDLExtDev`: reserved for extensions.
    pub const EXT_DEV: i32 = 12;
    /// `kDLCUDAManaged`: CUDA managed (unified) memory.
    pub const CUDA_MANAGED: i32 = 13;
    /// `kDLOneAPI`.
    pub const ONE_API: i32 = 14;
    /// `kDLWebGPU`.
    pub const WEBGPU: i32 = 15;
    /// `kDLHexagon`.
    pub const HEXAGON: i32 = 16;
    /// `kDLMAIA`.
    pub const MAIA: i32 = 17;
    /// `kDLTrn`: AWS Trainium.
    pub const TRN: i32 = 18;

    /// The header's name of a device type (`"kDLCPU"`), or `None` for a
    /// value it does not list.
    ///
    /// ```
    /// use gpu_array::interop::ffi::device_type;
    /// assert_eq!(device_type::name(device_type::CUDA_MANAGED), Some("kDLCUDAManaged"));
    /// assert_eq!(device_type::name(99), None);
    /// ```
    pub const fn name(value: i32) -> Option<&'static str> {
        Some(match value {
            CPU => "kDLCPU",
            CUDA => "kDLCUDA",
            CUDA_HOST => "kDLCUDAHost",
            OPENCL => "kDLOpenCL",
            VULKAN => "kDLVulkan",
            METAL => "kDLMetal",
            VPI => "kDLVPI",
            ROCM => "kDLROCM",
            ROCM_HOST => "kDLROCMHost",
            EXT_DEV => "kDLExtDev",
            CUDA_MANAGED => "kDLCUDAManaged",
            ONE_API => "kDLOneAPI",
            WEBGPU => "kDLWebGPU",
            HEXAGON => "kDLHexagon",
            MAIA => "kDLMAIA",
            TRN => "kDLTrn",
            _ => return None,
        })
    }
}

/// `DLDataTypeCode`'s values.
pub mod type_code {
    /// `kDLInt`: signed integer.
    pub const INT: u8 = 0;
    /// `kDLUInt`: unsigned integer.
    pub const UINT: u8 = 1;
    /// `kDLFloat`: IEEE binary floating point.
    pub const FLOAT: u8 = 2;
    /// `kDLOpaqueHandle`: reserved for tests.
    pub const OPAQUE_HANDLE: u8 = 3;
    /// `kDLBfloat`: bfloat16.
    pub const BFLOAT: u8 = 4;
    /// `kDLComplex`: a pair of floats (real, imaginary), `bits` in all.
    pub const COMPLEX: u8 = 5;
    /// `kDLBool`: one byte per element.
    pub const BOOL: u8 = 6;

    /// The header's name of a type code (`"kDLBfloat"`, the float8, float6
    /// and float4 codes of v1.1 too), or `None` for a value it does not list.
    ///
    /// ```
    /// use gpu_array::interop::ffi::type_code;
    /// assert_eq!(type_code::name(type_code::BFLOAT), Some("kDLBfloat"));
    /// assert_eq!(type_code::name(10), Some("kDLFloat8_e4m3fn"));
    /// assert_eq!(type_code::name(200), None);
    /// ```
    pub const fn name(value: u8) -> Option<&'static str> {
        Some(match value {
            INT => "kDLInt",
            UINT => "kDLUInt",
            FLOAT => "kDLFloat",
            OPAQUE_HANDLE => "kDLOpaqueHandle",
            BFLOAT => "kDLBfloat",
            COMPLEX => "kDLComplex",
            BOOL => "kDLBool",
            7 => "kDLFloat8_e3m4",
            8 => "kDLFloat8_e4m3",
            9 => "kDLFloat8_e4m3b11fnuz",
            10 => "kDLFloat8_e4m3fn",
            11 => "kDLFloat8_e4m3fnuz",
            12 => "kDLFloat8_e5m2",
            13 => "kDLFloat8_e5m2fnuz",
            14 => "kDLFloat8_e8m0fnu",
            15 => "kDLFloat6_e2m3fn",
            16 => "kDLFloat6_e3m2fn",
            17 => "kDLFloat4_e2m1fn",
            _ => return None,
        })
    }
}

/// `DLPackVersion`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLPackVersion {
    /// A change of layout of [`DLManagedTensorVersioned`].
    pub major: u32,
    /// Added enumeration values; the layout is the same.
    pub minor: u32,
}

/// `DLDevice`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLDevice {
    /// A [`device_type`] value (the C enum `DLDeviceType`, an `int32_t`).
    pub device_type: i32,
    /// The device's index (0 for host, pinned and managed memory).
    pub device_id: i32,
}

/// `DLDataType`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLDataType {
    /// A [`type_code`] value.
    pub code: u8,
    /// Bits per lane (a complex number's `bits` count both parts).
    pub bits: u8,
    /// Lanes of a vector type; 1 for scalars.
    pub lanes: u16,
}

/// `DLTensor`: the description of the data, owned by nobody.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DLTensor {
    /// The data's address (a device address for CUDA).
    pub data: *mut c_void,
    /// Where the data lives.
    pub device: DLDevice,
    /// Number of dimensions.
    pub ndim: i32,
    /// The element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements (not bytes), or null for C order.
    pub strides: *mut i64,
    /// Bytes from `data` to element `[0, 0, ...]`.
    pub byte_offset: u64,
}

/// `DLManagedTensor`, the legacy (pre-v0.8, unversioned) exchange struct.
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// The producer's context (may be null).
    pub manager_ctx: *mut c_void,
    /// Releases `manager_ctx` and the struct itself; may be null.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// `DLManagedTensorVersioned`, the current exchange struct (DLPack 1.x).
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// The DLPack version of this struct; everything up to `flags` keeps its
    /// place across major versions.
    pub version: DLPackVersion,
    /// The producer's context (may be null).
    pub manager_ctx: *mut c_void,
    /// Releases `manager_ctx` and the struct itself; may be null.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `DLPACK_FLAG_BITMASK_*` bits.
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// The header's structs on a 64-bit (LP64) target, by C's rules: each
    /// field at the next multiple of its alignment, the size rounded up to
    /// the largest alignment. Pointers and `uint64_t`/`int64_t` are 8 bytes,
    /// an enum `int32_t` is 4, `uint16_t` 2, `uint8_t` 1.
    #[test]
    fn layout_matches_the_c_header() {
        // DLPackVersion { uint32_t major; uint32_t minor; }
        assert_eq!(size_of::<DLPackVersion>(), 8);
        assert_eq!(align_of::<DLPackVersion>(), 4);
        assert_eq!(offset_of!(DLPackVersion, minor), 4);
        // DLDevice { DLDeviceType device_type; int32_t device_id; }
        assert_eq!(size_of::<DLDevice>(), 8);
        assert_eq!(align_of::<DLDevice>(), 4);
        assert_eq!(offset_of!(DLDevice, device_id), 4);
        // DLDataType { uint8_t code; uint8_t bits; uint16_t lanes; }
        assert_eq!(size_of::<DLDataType>(), 4);
        assert_eq!(align_of::<DLDataType>(), 2);
        assert_eq!(offset_of!(DLDataType, bits), 1);
        assert_eq!(offset_of!(DLDataType, lanes), 2);
        // DLTensor { void* data; DLDevice device; int32_t ndim;
        //            DLDataType dtype; int64_t* shape; int64_t* strides;
        //            uint64_t byte_offset; }
        assert_eq!(offset_of!(DLTensor, data), 0);
        assert_eq!(offset_of!(DLTensor, device), 8);
        assert_eq!(offset_of!(DLTensor, ndim), 16);
        assert_eq!(offset_of!(DLTensor, dtype), 20);
        assert_eq!(offset_of!(DLTensor, shape), 24);
        assert_eq!(offset_of!(DLTensor, strides), 32);
        assert_eq!(offset_of!(DLTensor, byte_offset), 40);
        assert_eq!(size_of::<DLTensor>(), 48);
        assert_eq!(align_of::<DLTensor>(), 8);
        // DLManagedTensor { DLTensor dl_tensor; void* manager_ctx;
        //                   void (*deleter)(DLManagedTensor*); }
        assert_eq!(offset_of!(DLManagedTensor, dl_tensor), 0);
        assert_eq!(offset_of!(DLManagedTensor, manager_ctx), 48);
        assert_eq!(offset_of!(DLManagedTensor, deleter), 56);
        assert_eq!(size_of::<DLManagedTensor>(), 64);
        // DLManagedTensorVersioned { DLPackVersion version; void* manager_ctx;
        //     void (*deleter)(...); uint64_t flags; DLTensor dl_tensor; }
        assert_eq!(offset_of!(DLManagedTensorVersioned, version), 0);
        assert_eq!(offset_of!(DLManagedTensorVersioned, manager_ctx), 8);
        assert_eq!(offset_of!(DLManagedTensorVersioned, deleter), 16);
        assert_eq!(offset_of!(DLManagedTensorVersioned, flags), 24);
        assert_eq!(offset_of!(DLManagedTensorVersioned, dl_tensor), 32);
        assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
        assert_eq!(align_of::<DLManagedTensorVersioned>(), 8);
        // A nullable function pointer is one pointer wide, null as None.
        assert_eq!(
            size_of::<Option<unsafe extern "C" fn(*mut DLManagedTensor)>>(),
            8
        );
    }

    #[test]
    fn values_match_the_c_header() {
        assert_eq!(
            (device_type::CPU, device_type::CUDA, device_type::CUDA_HOST),
            (1, 2, 3)
        );
        assert_eq!((device_type::ROCM, device_type::CUDA_MANAGED), (10, 13));
        assert_eq!(device_type::TRN, 18);
        assert_eq!(
            [
                type_code::INT,
                type_code::UINT,
                type_code::FLOAT,
                type_code::OPAQUE_HANDLE,
                type_code::BFLOAT,
                type_code::COMPLEX,
                type_code::BOOL
            ],
            [0, 1, 2, 3, 4, 5, 6]
        );
        assert_eq!(
            (
                DLPACK_FLAG_BITMASK_READ_ONLY,
                DLPACK_FLAG_BITMASK_IS_COPIED,
                DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
            ),
            (1, 2, 4)
        );
        for v in 0..=20 {
            let listed = matches!(v, 1..=4 | 7..=18);
            assert_eq!(device_type::name(v).is_some(), listed, "{v}");
        }
        for v in 0..=20u8 {
            assert_eq!(type_code::name(v).is_some(), v <= 17, "{v}");
        }
    }
}
