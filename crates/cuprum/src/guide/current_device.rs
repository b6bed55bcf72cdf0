//! The current device.
//!
//! | CuPy                                  | Cuprum                                         |
//! |---------------------------------------|------------------------------------------------|
//! | `cp.cuda.Device(1).use()`             | `Device::new(1)?.use_device()?`                |
//! | `with cp.cuda.Device(1): ...`         | `{ let _on = Device::new(1)?.scoped()?; ... }` |
//! | `x.device`                            | `x.device()`                                   |
//! | `x_on_gpu0 * 2` on device 1: error    | runs on device 0 (see below)                   |
//!
//! New arrays go to the thread's current device. An operation runs on its
//! arrays' device, whichever is current, because an array knows its device;
//! an operation mixing devices is an error naming both
//! ([`crate::Error::DeviceMismatch`]). Move an array with
//! [`crate::Array::to_device`].
//!
//! ```no_run
//! use cuprum::{self as cp, cuda::Device};
//!
//! fn main() -> cp::Result<()> {
//!     let x0 = cp::array([1, 2, 3, 4, 5])?; // on device 0
//!     if Device::count()? > 1 {
//!         let x1 = {
//!             let _on = Device::new(1)?.scoped()?;
//!             cp::array([1, 2, 3, 4, 5])?
//!         };
//!         assert!(cp::add(&x0, &x1).is_err()); // different devices
//!         let sum = cp::add(&x0.to_device(x1.device())?, &x1)?;
//!         println!("{sum}");
//!     }
//!     Ok(())
//! }
//! ```
