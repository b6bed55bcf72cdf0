//! Data transfer.
//!
//! | CuPy                                  | Cuprum                                          |
//! |---------------------------------------|-------------------------------------------------|
//! | `cp.asarray(x_cpu)`                   | `cp::asarray(&x_cpu)?` (an ndarray, slice, Vec) |
//! | `cp.asarray(x_gpu)` (no copy)         | `cp::asarray(&x_gpu)?` (shares the memory)      |
//! | `cp.array(x_gpu)` (a copy)            | `cp::array(&x_gpu)?`                            |
//! | `cp.asnumpy(x)`, `x.get()`            | `x.to_ndarray::<f64>()?`, `x.to_vec::<f64>()?`  |
//! | `x.astype(np.float32).get()`          | `x.to_vec_as::<f32>()?`                         |
//! | `with Device(1): cp.asarray(x_gpu0)`  | `x_gpu0.to_device(Device::new(1)?)?`            |
//!
//! Reading to the host waits for the work that produces the data; nothing
//! else waits. `to_vec::<T>()` wants `T` to be the array's element type
//! (an error names both otherwise); `to_vec_as` and `to_scalar` convert.
//!
//! ```no_run
//! use cuprum as cp;
//!
//! fn main() -> cp::Result<()> {
//!     let x_cpu = ndarray::array![[1.0, 2.0], [3.0, 4.0]];
//!     let x = cp::asarray(&x_cpu)?;
//!     let back: ndarray::ArrayD<f64> = (&x * 2.0).to_ndarray()?;
//!     println!("{back}");
//!     Ok(())
//! }
//! ```
