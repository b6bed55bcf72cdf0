//! Multi-GPU 1-D transforms (CuPy's `cupy.fft.config.set_cufft_gpus`
//! and `use_multi_gpus`), through cufftXt.
//!
//! The switch and the GPU set are per thread here, not module globals as
//! in CuPy: one thread's setting never changes another thread's
//! transforms. With the switch on and at least two GPUs set, a 1-D
//! complex-to-complex transform over the last axis of a contiguous
//! array is spread over the GPUs; every other transform (real ones, more
//! axes, other layouts) runs on the array's device as usual, which is
//! also what happens with one GPU.

use std::cell::RefCell;

use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::Device;

use crate::plan::{FftType, multi_gpu_c2c};

/// The GPUs for [`set_cufft_gpus`]: a count (the first `n` devices) or a
/// list of device ordinals.
///
/// ```
/// use gpu_fft::config::Gpus;
/// assert_eq!(Gpus::from(2), Gpus::Count(2));
/// assert_eq!(Gpus::from(vec![0, 3]), Gpus::List(vec![0, 3]));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gpus {
    /// The first `n` devices.
    Count(usize),
    /// These devices.
    List(Vec<i32>),
}

impl From<usize> for Gpus {
    fn from(n: usize) -> Gpus {
        Gpus::Count(n)
    }
}

impl From<Vec<i32>> for Gpus {
    fn from(v: Vec<i32>) -> Gpus {
        Gpus::List(v)
    }
}

impl From<&[i32]> for Gpus {
    fn from(v: &[i32]) -> Gpus {
        Gpus::List(v.to_vec())
    }
}

#[derive(Debug, Default)]
struct Setting {
    on: bool,
    devices: Vec<i32>,
}

thread_local! {
    /// This thread's switch and GPU set (see the module docs for why
    /// per thread).
    ///
    /// Why it is safe to keep: the caller sets it explicitly
    /// (`use_multi_gpus`, `set_cufft_gpus`) and it holds for that thread
    /// only, so no other thread's transforms change. It chooses only
    /// between two ways of computing the same transform (spread over the
    /// GPUs, or on the array's device), never the values beyond rounding;
    /// the spread one synchronizes the input's stream before cuFFT's
    /// copies and returns after them, so no stream sees the result early.
    /// It holds device ordinals, no pointers.
    static SETTING: RefCell<Setting> = RefCell::new(Setting::default());
}

/// Checks a GPU set against the machine: at least two, distinct, all
/// present (`count` devices).
fn validate(gpus: &Gpus, count: usize) -> Result<Vec<i32>> {
    let devices: Vec<i32> = match gpus {
        Gpus::Count(n) => (0..*n as i32).collect(),
        Gpus::List(v) => v.clone(),
    };
    if devices.len() <= 1 {
        return Err(Error::Value("Must use at least 2 GPUs.".into()));
    }
    for (i, &d) in devices.iter().enumerate() {
        if d < 0 || d as usize >= count {
            return Err(Error::Value(format!(
                "device {d} is not present (this machine has {count})"
            )));
        }
        if devices[..i].contains(&d) {
            return Err(Error::Value(format!("device {d} is listed twice")));
        }
    }
    Ok(devices)
}

/// CuPy's `set_cufft_gpus(gpus)`: the GPUs this thread's multi-GPU
/// transforms use (a count takes the first devices).
///
/// ```no_run
/// gpu_fft::config::set_cufft_gpus(2)?; // devices 0 and 1
/// gpu_fft::config::use_multi_gpus(true);
/// # Ok::<(), gpu_fft::Error>(())
/// ```
///
/// # Errors
/// Fewer than two GPUs ("Must use at least 2 GPUs."), a device listed
/// twice or not present.
pub fn set_cufft_gpus(gpus: impl Into<Gpus>) -> Result<()> {
    let devices = validate(&gpus.into(), Device::count()?)?;
    SETTING.with(|s| s.borrow_mut().devices = devices);
    Ok(())
}

/// CuPy's `use_multi_gpus = on`: whether this thread's eligible 1-D
/// transforms are spread over the GPUs of [`set_cufft_gpus`].
///
/// ```no_run
/// gpu_fft::config::use_multi_gpus(false);
/// ```
pub fn use_multi_gpus(on: bool) {
    SETTING.with(|s| s.borrow_mut().on = on);
}

/// The GPUs a transform of `x` over `axes` spreads over, when the switch
/// is on, at least two are set and the transform is eligible.
pub(crate) fn devices_for(x: &Array, axes: &[usize]) -> Option<Vec<i32>> {
    let devices = SETTING.with(|s| {
        let s = s.borrow();
        (s.on && s.devices.len() > 1).then(|| s.devices.clone())
    })?;
    let eligible = axes == [x.ndim().checked_sub(1)?]
        && x.is_c_contiguous()
        && matches!(x.dtype(), DType::Complex64 | DType::Complex128)
        && x.size() > 0
        && devices.contains(&x.device().ordinal());
    eligible.then_some(devices)
}

/// The transform of contiguous complex `x` over its last axis, spread
/// over `devices`, into a new array on `x`'s device.
pub(crate) fn c2c(x: &Array, devices: &[i32], inverse: bool) -> Result<Array> {
    let kind = if x.dtype() == DType::Complex64 {
        FftType::C2C
    } else {
        FftType::Z2Z
    };
    let n = x.shape()[x.ndim() - 1];
    let batch = x.size() / n;
    let out = Array::empty_on(x.device(), x.shape(), x.dtype(), gpu_array::Order::C)?;
    // cufftXtMemcpy copies synchronously: the input must be complete.
    x.stream().synchronize()?;
    multi_gpu_c2c(
        kind,
        n as i64,
        batch as i64,
        devices,
        x.data_ptr(),
        out.data_ptr(),
        inverse,
    )?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_sets_are_checked_as_cupy_checks_them() {
        assert_eq!(validate(&Gpus::Count(2), 4).unwrap(), vec![0, 1]);
        assert_eq!(validate(&Gpus::List(vec![3, 1]), 4).unwrap(), vec![3, 1]);
        let e = validate(&Gpus::Count(1), 4).unwrap_err();
        assert_eq!(e.to_string(), "Must use at least 2 GPUs.");
        assert!(validate(&Gpus::List(vec![0]), 4).is_err());
        assert!(validate(&Gpus::List(vec![0, 0]), 4).is_err());
        assert!(validate(&Gpus::List(vec![0, 4]), 4).is_err());
        assert!(validate(&Gpus::Count(2), 1).is_err()); // one GPU here
    }
}
