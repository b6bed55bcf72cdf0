//! What every test needs: the lock that runs them one at a time, NVLink
//! multicast off, a device and NCCL.

use std::sync::{Mutex, MutexGuard, Once, PoisonError};

use gpu_array::{Array, DType};
use gpu_runtime::Device;

static SERIAL: Mutex<()> = Mutex::new(());
static NVLS_OFF: Once = Once::new();

/// A test's claim on the process: the lock, and the device; `None` (the
/// test then returns, counted as skipped) without a GPU or NCCL.
pub struct Setup {
    pub dev: Device,
    _serial: MutexGuard<'static, ()>,
}

pub fn setup() -> Option<Setup> {
    let serial = SERIAL.lock().unwrap_or_else(PoisonError::into_inner);
    NVLS_OFF.call_once(|| {
        if std::env::var_os("NCCL_NVLS_ENABLE").is_none() {
            // SAFETY: every test of this binary takes SERIAL before it
            // touches CUDA, NCCL or the environment, and this runs under
            // it before the first such call: no other thread of the
            // process reads the environment meanwhile (libtest's threads
            // wait on the lock; Rust's own env access is serialised).
            unsafe { std::env::set_var("NCCL_NVLS_ENABLE", "0") };
        }
    });
    let dev = gpu_runtime::testing::device_or_skip()?;
    if let Err(e) = gpu_sys::nccl::LIBRARY.path() {
        if std::env::var("CUPRUM_TEST_REQUIRE_NCCL").is_ok_and(|v| v == "1") {
            panic!("CUPRUM_TEST_REQUIRE_NCCL=1 but NCCL is missing: {e}");
        }
        gpu_runtime::testing::skip("NCCL", &e.to_string());
        return None;
    }
    Some(Setup {
        dev,
        _serial: serial,
    })
}

/// `0, 1, ..., n - 1` plus `offset` as float64 on the current device.
pub fn ramp(n: usize, offset: f64) -> Array {
    let v: Vec<f64> = (0..n).map(|i| i as f64 + offset).collect();
    Array::from_slice(&v, &[n]).unwrap()
}

/// An uninitialised array like `a`.
pub fn like(a: &Array) -> Array {
    Array::empty(a.shape(), a.dtype()).unwrap()
}

pub fn f64s(a: &Array) -> Vec<f64> {
    a.to_vec::<f64>().unwrap()
}

/// Filled with `v` (a NaN sentinel, so an untouched output shows).
pub fn filled(n: usize, dtype: DType, v: f64) -> Array {
    let a = Array::empty([n], dtype).unwrap();
    a.fill(v).unwrap();
    a
}
