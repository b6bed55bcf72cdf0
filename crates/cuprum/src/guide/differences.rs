//! Where Cuprum differs from NumPy and CuPy, and why.
//!
//! - **Devices.** An operation runs on its arrays' device, whichever
//!   device is current; CuPy requires the current device. Mixing devices
//!   is an error in both ([`crate::Error::DeviceMismatch`]).
//! - **Errors are values.** Every call returns [`crate::Result`]; the
//!   operators (`&a + &b`) panic with the same error, so use the named
//!   function (`cp::add`) where a failure must be handled.
//! - **Literals.** `cp::array([1, 2, 3])` is int64 and `[1.0, 2.0]`
//!   float64, as in NumPy, because array literals take only `i64` among
//!   integer types; a `Vec<i32>` or `&[u8]` keeps its type. A Rust scalar
//!   in an operation is a weak (Python) scalar under NEP 50: `&x_f32 * 2.0`
//!   stays float32. On the left of an operator a scalar is `bool`, `i64`,
//!   `f64` or complex128 (`2.0 * &x`); a typed `f32` goes on the right.
//! - **Optional arguments** are short calls plus `_with` forms or options
//!   structs; NumPy's string options are enums that parse from the same
//!   strings, with NumPy's errors. One is stricter: `pad`'s
//!   `reflect_type` takes only `"even"` and `"odd"`, where NumPy reads any
//!   other string as `"even"`, so a typo is an error here.
//! - **Per-thread FFT settings.** `fft::config::use_multi_gpus` and
//!   `set_cufft_gpus` hold for the calling thread, where CuPy's are module
//!   globals: one thread's setting never changes another's transforms.
//!   A transform's result may be a transposed view (it follows the
//!   input's stride order, as CuPy's do), not always C-ordered as NumPy's.
//! - **Element types on the host** are checked: `x.to_vec::<f32>()` of a
//!   float64 array is an error naming both; `to_vec_as` and `to_scalar`
//!   convert as NumPy's `astype` and `float(x)` do.
//! - **Raw kernels are checked** against their declared parameters before
//!   the launch; CuPy passes whatever it is given.
//! - **Nothing is deferred.** Every call queues its work before it
//!   returns and holds no hidden global state; fusion is explicit
//!   ([`crate::fuse`]).
//! - **As in CuPy**: reductions of floats may differ from NumPy's in the
//!   last bits (a different summation order); integer division by zero
//!   gives 0 where NumPy warns; out-of-range float to integer casts follow
//!   the GPU.
