//! Interoperability.
//!
//! | CuPy / NumPy                          | Cuprum                                          |
//! |---------------------------------------|-------------------------------------------------|
//! | `cp.asarray(np_array)`, `cp.asnumpy`  | `cp::asarray(&nd)?`, `x.to_ndarray::<T>()?`     |
//! | `np.save('a.npy', x)`, `np.load`      | `x.save_npy(path)?`, `Array::load_npy(path)?`   |
//! | `x.data.ptr`                          | `x.data_ptr()`                                  |
//! | `cp.cuda.ExternalStream(ptr)`         | `cuda::ExternalStream::new` (derefs to `Stream`; see its safety rules) |
//! | DLPack, `__cuda_array_interface__`    | not yet (the interop issue)                     |
//!
//! ```no_run
//! use cuprum as cp;
//!
//! fn main() -> cp::Result<()> {
//!     let nd = ndarray::Array2::<f32>::eye(3);
//!     let x = cp::asarray(&nd)?;
//!     x.save_npy(std::env::temp_dir().join("eye.npy"))?;
//!     println!("{:#x}", x.data_ptr().0);
//!     Ok(())
//! }
//! ```
