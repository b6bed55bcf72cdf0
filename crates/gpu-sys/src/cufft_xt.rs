// The few declarations of cufftXt.h (cuFFT 12, CUDA 13) that Cuprum uses,
// written by hand: the generated `cufft` module covers cufft.h only.
// Each matches the header's prototype; the functions live in the same
// library as cufft.h's.

use super::cufft::{LIBRARY, cufftHandle, cufftResult};

impl cufftXtCallbackType_t {
    pub const CUFFT_CB_LD_COMPLEX: cufftXtCallbackType_t = cufftXtCallbackType_t(0);
    pub const CUFFT_CB_LD_COMPLEX_DOUBLE: cufftXtCallbackType_t = cufftXtCallbackType_t(1);
    pub const CUFFT_CB_LD_REAL: cufftXtCallbackType_t = cufftXtCallbackType_t(2);
    pub const CUFFT_CB_LD_REAL_DOUBLE: cufftXtCallbackType_t = cufftXtCallbackType_t(3);
    pub const CUFFT_CB_ST_COMPLEX: cufftXtCallbackType_t = cufftXtCallbackType_t(4);
    pub const CUFFT_CB_ST_COMPLEX_DOUBLE: cufftXtCallbackType_t = cufftXtCallbackType_t(5);
    pub const CUFFT_CB_ST_REAL: cufftXtCallbackType_t = cufftXtCallbackType_t(6);
    pub const CUFFT_CB_ST_REAL_DOUBLE: cufftXtCallbackType_t = cufftXtCallbackType_t(7);
    pub const CUFFT_CB_UNDEFINED: cufftXtCallbackType_t = cufftXtCallbackType_t(8);
}
#[repr(transparent)]
#[derive(Debug, Copy, Clone, Hash, PartialEq, Eq)]
pub struct cufftXtCallbackType_t(pub ::std::os::raw::c_uint);
pub use self::cufftXtCallbackType_t as cufftXtCallbackType;

crate::dynamic_fns! {
    LIBRARY;
    pub fn cufftXtSetJITCallback(plan: cufftHandle, lto_callback_symbol_name: *const ::std::os::raw::c_char, lto_callback_fatbin: *const ::std::os::raw::c_void, lto_callback_fatbin_size: usize, type_: cufftXtCallbackType, caller_info: *mut *mut ::std::os::raw::c_void) -> cufftResult;
    pub fn cufftXtSetGPUs(handle: cufftHandle, nGPUs: ::std::os::raw::c_int, whichGPUs: *mut ::std::os::raw::c_int) -> cufftResult;
}

impl cufftXtSubFormat_t {
    pub const CUFFT_XT_FORMAT_INPUT: cufftXtSubFormat_t = cufftXtSubFormat_t(0);
    pub const CUFFT_XT_FORMAT_OUTPUT: cufftXtSubFormat_t = cufftXtSubFormat_t(1);
    pub const CUFFT_XT_FORMAT_INPLACE: cufftXtSubFormat_t = cufftXtSubFormat_t(2);
    pub const CUFFT_XT_FORMAT_INPLACE_SHUFFLED: cufftXtSubFormat_t = cufftXtSubFormat_t(3);
    pub const CUFFT_XT_FORMAT_1D_INPUT_SHUFFLED: cufftXtSubFormat_t = cufftXtSubFormat_t(4);
}
#[repr(transparent)]
#[derive(Debug, Copy, Clone, Hash, PartialEq, Eq)]
pub struct cufftXtSubFormat_t(pub ::std::os::raw::c_uint);
pub use self::cufftXtSubFormat_t as cufftXtSubFormat;

impl cufftXtCopyType_t {
    pub const CUFFT_COPY_HOST_TO_DEVICE: cufftXtCopyType_t = cufftXtCopyType_t(0);
    pub const CUFFT_COPY_DEVICE_TO_HOST: cufftXtCopyType_t = cufftXtCopyType_t(1);
    pub const CUFFT_COPY_DEVICE_TO_DEVICE: cufftXtCopyType_t = cufftXtCopyType_t(2);
}
#[repr(transparent)]
#[derive(Debug, Copy, Clone, Hash, PartialEq, Eq)]
pub struct cufftXtCopyType_t(pub ::std::os::raw::c_uint);
pub use self::cufftXtCopyType_t as cufftXtCopyType;

/// `cudaLibXtDesc`, used only behind pointers that cuFFT allocates.
#[repr(C)]
#[derive(Debug)]
pub struct cudaLibXtDesc {
    _opaque: [u8; 0],
}

crate::dynamic_fns! {
    LIBRARY;
    pub fn cufftXtMalloc(plan: cufftHandle, descriptor: *mut *mut cudaLibXtDesc, format: cufftXtSubFormat) -> cufftResult;
    pub fn cufftXtMemcpy(plan: cufftHandle, dstPointer: *mut ::std::os::raw::c_void, srcPointer: *mut ::std::os::raw::c_void, type_: cufftXtCopyType) -> cufftResult;
    pub fn cufftXtFree(descriptor: *mut cudaLibXtDesc) -> cufftResult;
    pub fn cufftXtExecDescriptor(plan: cufftHandle, input: *mut cudaLibXtDesc, output: *mut cudaLibXtDesc, direction: ::std::os::raw::c_int) -> cufftResult;
}
