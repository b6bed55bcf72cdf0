//! The device array: a shared buffer, a byte offset, shape, byte strides and
//! a dtype (DESIGN.md, "Data model").
//!
//! Views share the buffer (`Arc<Memory>`) as in NumPy: slicing, transposes,
//! reshapes that need no copy and broadcasts never copy. Device memory is
//! outside Rust's aliasing model; operations that write into an existing
//! array say so in their names (`fill`, `copy_from`, `set_item`).
//!
//! Every operation is enqueued on the current stream of the array's device;
//! the host waits only where a value comes back (`to_vec`, `item`).
//!
//! # Devices: the one rule
//!
//! New arrays (from host data, `zeros`, `arange`, ...) are allocated on the
//! thread's current device (`Device::use_device`, `Device::scoped`). An
//! operation on arrays runs on *their* device, whichever device is current
//! (an array knows its device, so there is nothing to guess; CuPy instead
//! requires the array's device to be current). An operation whose array
//! operands are on different devices is an error naming both
//! ([`Error::DeviceMismatch`]: "add: arrays are on different devices (0
//! and 1)"); move one first with [`Array::to_device`].

mod copy;
mod io;
mod methods;
mod ops;
mod transfer;
pub(crate) mod transpose;
mod views;

pub use io::NpzFile;
pub use ops::copyto;
pub(crate) use ops::from_rust_scalars;
pub use transfer::PendingHost;
pub use views::{Broadcast, broadcast_arrays};

use std::sync::Arc;

use gpu_runtime::{Device, DevicePtr, Memory, Stream};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{self, IntoShape, Layout, Order};

/// An n-dimensional array on a GPU (CuPy's `cupy.ndarray`).
///
/// Cloning is cheap and makes another handle to the same data (a view with
/// the same layout), like `a.view()` in NumPy.
#[derive(Clone)]
pub struct Array {
    mem: Arc<Memory>,
    layout: Layout,
    dtype: DType,
    /// Whether this array allocated its buffer (NumPy's `flags.owndata`).
    owns: bool,
}

/// NumPy's `ndarray.flags`, the parts that apply on a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flags {
    /// Elements laid out in C (row-major) order without gaps.
    pub c_contiguous: bool,
    /// Elements laid out in Fortran (column-major) order without gaps.
    pub f_contiguous: bool,
    /// The array allocated its memory (is not a view).
    pub owndata: bool,
}

impl Array {
    /// Wraps `mem` with a layout; the layout must stay inside the buffer.
    pub(crate) fn from_parts(mem: Arc<Memory>, layout: Layout, dtype: DType, owns: bool) -> Array {
        debug_assert!(Self::fits(&mem, &layout, dtype.itemsize()));
        Array {
            mem,
            layout,
            dtype,
            owns,
        }
    }

    /// Whether every element of `layout` lies inside `mem`.
    pub(crate) fn fits(mem: &Memory, layout: &Layout, itemsize: usize) -> bool {
        layout.fits(mem.size(), itemsize)
    }

    /// A view of the same buffer with another layout (and maybe dtype).
    pub(crate) fn with_layout(&self, layout: Layout, dtype: DType) -> Array {
        Array::from_parts(self.mem.clone(), layout, dtype, false)
    }

    /// An uninitialised array (CuPy's `cupy.empty`) on the current device,
    /// allocated on its current stream.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::empty([2, 3], DType::Float32)?; // np.empty((2, 3), np.float32): uninitialized
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The size overflows, or the allocation fails.
    pub fn empty(shape: impl IntoShape, dtype: DType) -> Result<Array> {
        Array::empty_order(shape, dtype, Order::C)
    }

    /// [`Array::empty`] in the given memory order.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::empty_order([2, 3], DType::Float64, Order::F)?; // np.empty((2, 3), order='F')
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::empty`].
    pub fn empty_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
        let shape = shape.into_shape();
        // The shape first: "array is too big" does not depend on a device.
        layout::checked_size(&shape, dtype.itemsize())?;
        let device = Device::current()?;
        Array::empty_on(device, &shape, dtype, order)
    }

    /// [`Array::empty`] on `device`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, Order};
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_array::Result<()> {
    /// let dev = Device::new(0)?;
    /// let a = Array::empty_on(dev, &[2, 3], DType::Float32, Order::F)?;
    /// assert_eq!((a.device(), a.is_f_contiguous()), (dev, true));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::empty`].
    pub fn empty_on(device: Device, shape: &[usize], dtype: DType, order: Order) -> Result<Array> {
        // checked_size counts elements (after checking the bytes fit isize).
        let nbytes = layout::checked_size(shape, dtype.itemsize())? * dtype.itemsize();
        let stream = Stream::current_on(device);
        let mem = gpu_runtime::memory::alloc_on(nbytes, &stream)?;
        Ok(Array::from_parts(
            Arc::new(mem),
            Layout::contiguous(shape, dtype.itemsize(), order)?,
            dtype,
            true,
        ))
    }

    /// The dimensions.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.shape(), &[2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// Byte strides, one per dimension (negative and zero allowed).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float64)?;
    /// assert_eq!(x.strides(), [24, 8]); // x.strides, in bytes
    /// # Ok(()) }
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// The number of dimensions.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.ndim(), 2);
    /// # Ok(()) }
    /// ```
    pub fn ndim(&self) -> usize {
        self.layout.ndim()
    }

    /// The number of elements.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float64)?;
    /// assert_eq!(x.size(), 6); // x.size
    /// # Ok(()) }
    /// ```
    pub fn size(&self) -> usize {
        self.layout.size()
    }

    /// The element type.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.dtype(), gpu_array::DType::Int64);
    /// # Ok(()) }
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Bytes per element.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float32)?;
    /// assert_eq!(x.itemsize(), 4); // x.itemsize
    /// # Ok(()) }
    /// ```
    pub fn itemsize(&self) -> usize {
        self.dtype.itemsize()
    }

    /// Bytes the elements take (`size * itemsize`), as NumPy counts them.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.nbytes(), 48);
    /// # Ok(()) }
    /// ```
    pub fn nbytes(&self) -> usize {
        self.size() * self.itemsize()
    }

    /// The device holding the data.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// println!("{}", x.device()); // <CUDA Device 0>
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.mem.device()
    }

    /// The shape, strides and byte offset into the buffer.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float64)?;
    /// let t = x.transpose(None)?;
    /// assert_eq!((t.layout().shape(), t.layout().strides()), (&[3, 2][..], &[8, 24][..]));
    /// # Ok(()) }
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// The buffer shared by this array and its views.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use std::sync::Arc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([4, 4], DType::Float32)?;
    /// let row = x.reshape((16,))?;
    /// assert!(Arc::ptr_eq(x.memory(), row.memory())); // a view shares the buffer
    /// assert_eq!(x.memory().size(), 64);
    /// # Ok(()) }
    /// ```
    pub fn memory(&self) -> &Arc<Memory> {
        &self.mem
    }

    /// The offset in bytes into [`memory`](Self::memory) of the byte `rel`
    /// bytes from element `[0, 0, ...]` (which may lie before it, for
    /// negative strides).
    ///
    /// # Errors
    /// The position lies outside the memory's start (a broken layout).
    pub(crate) fn byte_offset(&self, rel: isize) -> Result<usize> {
        self.layout
            .offset()
            .checked_add(rel)
            .and_then(|o| usize::try_from(o).ok())
            .ok_or_else(|| {
                crate::error::Error::Value(format!(
                    "byte {rel} from the array's first element lies before its memory"
                ))
            })
    }

    /// The device address of element `[0, 0, ...]`.
    ///
    /// ```no_run
    /// use gpu_array::creation::arange;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(10)?; // int64
    /// let tail = x.get_index(&gpu_array::ix![2..])?;
    /// assert_eq!(tail.data_ptr(), x.data_ptr().offset(16)); // element 2, 8 bytes each
    /// # Ok(()) }
    /// ```
    pub fn data_ptr(&self) -> DevicePtr {
        self.mem.ptr().offset(self.layout.offset())
    }

    /// NumPy's flags.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float64)?;
    /// assert!(x.flags().c_contiguous && x.flags().owndata); // x.flags
    /// # Ok(()) }
    /// ```
    pub fn flags(&self) -> Flags {
        Flags {
            c_contiguous: self.is_c_contiguous(),
            f_contiguous: self.is_f_contiguous(),
            owndata: self.owns,
        }
    }

    /// Whether the elements are in C order without gaps.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert!(x.is_c_contiguous() && !x.T().is_c_contiguous());
    /// # Ok(()) }
    /// ```
    pub fn is_c_contiguous(&self) -> bool {
        self.layout.is_c_contiguous(self.itemsize())
    }

    /// Whether the elements are in Fortran order without gaps.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Float64)?;
    /// assert!(x.transpose(None)?.is_f_contiguous()); // x.T.flags.f_contiguous
    /// # Ok(()) }
    /// ```
    pub fn is_f_contiguous(&self) -> bool {
        self.layout.is_f_contiguous(self.itemsize())
    }

    /// Whether `self` and `other` share a buffer (NumPy's
    /// `may_share_memory`, by buffer identity).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = arange(6)?;
    /// assert!(x.reshape((2, 3))?.shares_memory_with(&x)); // np.shares_memory(x.reshape(2, 3), x)
    /// # Ok(()) }
    /// ```
    pub fn shares_memory_with(&self, other: &Array) -> bool {
        Arc::ptr_eq(&self.mem, &other.mem)
    }

    /// The current stream of the array's device, where its work is queued.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::Stream;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([8], DType::Float32)?;
    /// assert_eq!(x.stream().id(), Stream::current()?.id());
    /// # Ok(()) }
    /// ```
    pub fn stream(&self) -> Stream {
        Stream::current_on(self.device())
    }

    /// Checks that `other` is on the same device, naming `operation`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (a, b) = (Array::zeros([2], DType::Int32)?, Array::zeros([2], DType::Int32)?);
    /// a.check_same_device(&b, "my_op")?; // both on the current device
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::DeviceMismatch`].
    pub fn check_same_device(&self, other: &Array, operation: &'static str) -> Result<()> {
        if self.device() == other.device() {
            Ok(())
        } else {
            Err(Error::DeviceMismatch {
                operation,
                first: self.device().ordinal(),
                second: other.device().ordinal(),
            })
        }
    }

    /// Fills the array's bytes with zero (used by `zeros`; every Cuprum
    /// dtype's zero is all-zero bits).
    pub(crate) fn zero_contiguous(&self) -> Result<()> {
        debug_assert!(self.is_c_contiguous() || self.is_f_contiguous());
        self.mem
            .memset_at(self.byte_offset(0)?, self.nbytes(), 0, &self.stream())?;
        Ok(())
    }

    /// An array of zeros (CuPy's `cupy.zeros`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros([2, 3], DType::Int32)?; // np.zeros((2, 3), np.int32)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::empty`].
    pub fn zeros(shape: impl IntoShape, dtype: DType) -> Result<Array> {
        let a = Array::empty(shape, dtype)?;
        a.zero_contiguous()?;
        Ok(a)
    }

    /// [`Array::zeros`] in the given memory order.
    ///
    /// ```no_run
    /// use gpu_array::{Array, CopyOrder, DType, Order, creation::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::zeros_order([2, 3], DType::Float64, Order::F)?; // np.zeros((2, 3), order='F')
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::empty`].
    pub fn zeros_order(shape: impl IntoShape, dtype: DType, order: Order) -> Result<Array> {
        let a = Array::empty_order(shape, dtype, order)?;
        a.zero_contiguous()?;
        Ok(a)
    }
}

/// NumPy's `repr(a)` (see [`crate::display`]); waits for the array's
/// stream. A failed copy prints the metadata and `<error: ...>`.
impl std::fmt::Debug for Array {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match crate::display::array_repr(self) {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(
                f,
                "Array(shape={}, dtype={}, strides={:?}, device={}) <error: {e}>",
                layout::fmt_shape(self.shape()),
                self.dtype,
                self.strides(),
                self.device().ordinal()
            ),
        }
    }
}
