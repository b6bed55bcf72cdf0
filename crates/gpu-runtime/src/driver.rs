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

/// The version of the CUDA "runtime" this library speaks, encoded as
/// `cudaRuntimeGetVersion` encodes it (`1000 * major + 10 * minor`, so
/// `13000` for 13.0); CuPy's `runtime.runtimeGetVersion`.
///
/// Cuprum does not use the CUDA runtime library (`libcudart`): it calls the
/// driver API, and compiles its kernels with NVRTC at run time. The
/// component whose version then decides what the "runtime" can do (which
/// PTX ISA and architectures its kernels are built for, and so which driver
/// is needed to run them) is NVRTC, so this returns the version of the
/// NVRTC library that was loaded, the way `cudaRuntimeGetVersion` returns
/// the version of the libcudart in use. The driver's own CUDA version is
/// [`driver_version`]; the version of the headers the bindings were
/// generated from is [`gpu_sys::cuda::CUDA_VERSION`].
///
/// ```no_run
/// use gpu_runtime::driver;
/// # fn main() -> gpu_runtime::Result<()> {
/// let (runtime, driver) = (driver::runtime_version()?, driver::driver_version()?);
/// // NVRTC's code needs a driver at least as new (or PTX compatibility).
/// println!("NVRTC {}.{} on a CUDA {}.{} driver", runtime / 1000, runtime % 1000 / 10, driver / 1000, driver % 1000 / 10);
/// # Ok(()) }
/// ```
///
/// # Errors
/// NVRTC could not be loaded.
pub fn runtime_version() -> Result<i32> {
    let (major, minor) = crate::nvrtc::version()?;
    encode_version(major, minor)
}

/// `1000 * major + 10 * minor`, CUDA's encoding, checked.
pub(crate) fn encode_version(major: i32, minor: i32) -> Result<i32> {
    if !(0..=99).contains(&minor) || major < 0 {
        return Err(Error::InvalidArgument(format!(
            "CUDA version {major}.{minor} cannot be encoded as 1000 * major + 10 * minor"
        )));
    }
    major
        .checked_mul(1000)
        .and_then(|m| m.checked_add(10 * minor))
        .ok_or_else(|| {
            Error::InvalidArgument(format!("CUDA version {major}.{minor} is out of range"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_encode_as_cudart_does() {
        assert_eq!(encode_version(13, 0).unwrap(), 13000);
        assert_eq!(encode_version(12, 8).unwrap(), 12080);
        assert!(encode_version(12, 100).is_err());
        assert!(encode_version(-1, 0).is_err());
        assert!(encode_version(i32::MAX, 0).is_err());
    }
}
