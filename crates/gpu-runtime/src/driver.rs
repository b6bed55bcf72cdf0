//! Driver initialisation and `CUresult` checking.

use std::ffi::CStr;
use std::sync::OnceLock;

use gpu_sys::LoadError;
use gpu_sys::cuda::{self, CUresult};

use crate::{Error, Result};

/// Turns a driver call's result into `Result`, naming the call.
pub(crate) fn check(call: &'static str, r: Result<CUresult, LoadError>) -> Result<()> {
    let code = r?;
    if code == CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    Err(cuda_error(call, code))
}

pub(crate) fn cuda_error(call: &'static str, code: CUresult) -> Error {
    let text = |f: fn(CUresult, *mut *const std::ffi::c_char) -> Result<CUresult, LoadError>| {
        let mut p = std::ptr::null();
        match f(code, &mut p) {
            Ok(r) if r == CUresult::CUDA_SUCCESS && !p.is_null() => {
                // SAFETY: the driver's strings are NUL-terminated and static.
                unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
            }
            _ => "unknown error".to_string(),
        }
    };
    Error::Cuda {
        call,
        code: code.0,
        name: text(|c, p| {
            // SAFETY: the driver writes a pointer to a static string or leaves it null.
            unsafe { cuda::cuGetErrorName(c, p) }
        }),
        description: text(|c, p| {
            // SAFETY: as above.
            unsafe { cuda::cuGetErrorString(c, p) }
        }),
    }
}

/// Initialises the driver once per process; later calls return the first
/// outcome. Every entry point that touches a device calls this first.
///
/// ```no_run
/// use gpu_runtime::driver;
/// # fn main() -> gpu_runtime::Result<()> {
/// driver::init()?; // what every device entry point does first
/// # Ok(()) }
/// ```
pub fn init() -> Result<()> {
    static INIT: OnceLock<Result<()>> = OnceLock::new();
    INIT.get_or_init(|| {
        // SAFETY: cuInit takes a flags word that must be 0.
        check("cuInit", unsafe { cuda::cuInit(0) }).map_err(|e| match e {
            Error::Cuda { name, .. } if name == "CUDA_ERROR_NO_DEVICE" => Error::Unsupported(
                "no CUDA device is visible (cuInit reported CUDA_ERROR_NO_DEVICE)".to_string(),
            ),
            other => other,
        })
    })
    .clone()
}

/// The driver's CUDA version, e.g. `13000` for 13.0.
///
/// ```no_run
/// use gpu_runtime::driver;
/// # fn main() -> gpu_runtime::Result<()> {
/// let v = driver::driver_version()?; // 13000 for CUDA 13.0
/// println!("CUDA {}.{}", v / 1000, v % 1000 / 10);
/// # Ok(()) }
/// ```
///
/// # Errors
/// The driver library is missing.
pub fn driver_version() -> Result<i32> {
    let mut v = 0;
    // SAFETY: writes one int.
    check("cuDriverGetVersion", unsafe {
        cuda::cuDriverGetVersion(&mut v)
    })?;
    Ok(v)
}
