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
