//! Device addresses and kernel arguments.

use std::ffi::c_void;

use gpu_sys::cuda::CUdeviceptr;

/// A device address. Plain data: it does not keep memory alive; the
/// [`Memory`](crate::memory::Memory) it came from does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct DevicePtr(pub CUdeviceptr);

impl DevicePtr {
    /// The null address.
    pub const NULL: DevicePtr = DevicePtr(0);

    /// This address advanced by `bytes` (may be negative for views with
    /// negative strides).
    ///
    /// ```
    /// use gpu_runtime::DevicePtr;
    /// let p = DevicePtr(0x1000);
    /// assert_eq!(p.offset(16), DevicePtr(0x1010));
    /// assert_eq!(p.offset(-16), DevicePtr(0x0ff0));
    /// ```
    #[inline]
    pub fn offset(self, bytes: isize) -> DevicePtr {
        DevicePtr(self.0.wrapping_add_signed(bytes as i64))
    }

    /// The raw address.
    ///
    /// ```
    /// use gpu_runtime::DevicePtr;
    /// assert_eq!(DevicePtr(0x1000).raw(), 0x1000);
    /// ```
    #[inline]
    pub fn raw(self) -> CUdeviceptr {
        self.0
    }
}

/// A value that can be passed to a kernel: `cuLaunchKernel` takes, for each
/// parameter, a pointer to the bytes of its value.
///
/// # Safety
/// `as_kernel_param` must return a pointer to `self`'s bytes, laid out as the
/// kernel's parameter of the matching C type, valid while `self` is borrowed.
pub unsafe trait KernelArg {
    /// A pointer to the argument's bytes.
    fn as_kernel_param(&self) -> *mut c_void {
        self as *const Self as *mut c_void
    }
}

macro_rules! plain_kernel_args {
    ($($t:ty),*) => { $(
        // SAFETY: a plain C-compatible value; its bytes are the parameter.
        unsafe impl KernelArg for $t {}
    )* };
}
plain_kernel_args!(
    bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64, isize, usize, DevicePtr
);

// SAFETY: an array of plain values is laid out as the C array (by-value
// structs of arrays, e.g. shapes and strides for the indexer).
unsafe impl<T: KernelArg + Copy, const N: usize> KernelArg for [T; N] {}
