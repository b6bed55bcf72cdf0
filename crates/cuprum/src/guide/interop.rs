//! Interoperability.
//!
//! | CuPy / NumPy                          | Cuprum                                          |
//! |---------------------------------------|-------------------------------------------------|
//! | `cp.asarray(np_array)`, `cp.asnumpy`  | `cp::asarray(&nd)?`, `x.to_ndarray::<T>()?`     |
//! | `np.save('a.npy', x)`, `np.load`      | `x.save_npy(path)?`, `Array::load_npy(path)?`   |
//! | `x.data.ptr`                          | `x.data_ptr()`                                  |
//! | `cp.cuda.ExternalStream(ptr)`         | `cuda::ExternalStream::new` (derefs to `Stream`; see its safety rules) |
//! | `cp.from_dlpack(t)`, `cp.fromDlpack`  | `cp::from_dlpack(&producer)?`, `Array::from_dlpack(tensor)?` (DLPack 1.x; `_legacy` for the unversioned struct) |
//! | `x.__dlpack__(stream=s)`, `x.toDlpack()` | `x.to_dlpack_with(&ToDlpackOptions::default().stream(s))?`, `cp::to_dlpack(&x)?` (the consumer's stream waits on an event, never a device sync) |
//! | `__cuda_array_interface__`            | a Python protocol: the test-only `python/cuprum-py` module speaks it (and DLPack) with PyTorch and CuPy |
//! | a `CudaSlice` of cudarc (candle, burn) | `Array::from_cudarc(slice)?`, `x.to_cudarc::<f32>(&stream)?` (the `cudarc` feature) |
//! | `cp.cuda.runtime.hostRegister`, `mallocManaged`, `ipcGetMemHandle`, `memcpy2D` | `cuda::memory::HostRegistration`, `malloc_managed`, `Memory::ipc_handle`, `cuda::memcpy_2d` (and CuPy's names in `cuda::runtime`) |
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
