//! Moving data between the host and the device: slices, `Vec`s, `ndarray`
//! arrays and scalars in; `Vec`s, `ndarray` arrays, bytes and single
//! elements out (CuPy's `cupy.array`, `cupy.asarray`, `ndarray.get()`,
//! `cupy.asnumpy`).

use std::sync::Arc;

use gpu_runtime::memory::alloc_pinned_memory;
use gpu_runtime::{Device, HostTransfer, Stream};

use super::Array;
use crate::dtype::{DType, Element, ScalarValue, check_weak_int, from_bytes, to_bytes};
use crate::error::{Error, Result};
use crate::layout::{self, Layout, Order};
use crate::ufunc::scalar_to_bytes;

impl Array {
    /// A new array on the current device holding `data` in C order with
    /// `shape` (CuPy's `cupy.array(np.asarray(data).reshape(shape))`). The
    /// copy is queued on the current stream; `data` may be reused at once.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let a = gpu_array::Array::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `data.len()` is not the product of `shape`; allocation failed.
    pub fn from_slice<T: Element>(data: &[T], shape: &[usize]) -> Result<Array> {
        // The shape first: its errors do not depend on a device.
        layout::checked_size(shape, T::DTYPE.itemsize())?;
        Array::from_slice_on(Device::current()?, data, shape)
    }

    /// [`Array::from_slice`] onto `device`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice_on(Device::new(0)?, &[1.0f32, 2.0], &[2])?; // with cp.cuda.Device(0): cp.asarray(...)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_slice`].
    pub fn from_slice_on<T: Element>(device: Device, data: &[T], shape: &[usize]) -> Result<Array> {
        if layout::size(shape)? != data.len() {
            return Err(Error::Reshape {
                size: data.len(),
                shape: shape.iter().map(|&d| d as isize).collect(),
            });
        }
        let a = Array::empty_on(device, shape, T::DTYPE, Order::C)?;
        a.write_bytes(&to_bytes(data))?;
        Ok(a)
    }

    /// A new C-ordered array of `dtype` and `shape` from its elements'
    /// little-endian bytes in C order (NumPy's `frombuffer(...).reshape`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let b = 1.5f64.to_le_bytes();
    /// let x = Array::from_bytes(DType::Float64, &[1], &b)?; // np.frombuffer(b, np.float64): [1.5]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The byte count does not match; allocation failed.
    pub fn from_bytes(dtype: DType, shape: &[usize], bytes: &[u8]) -> Result<Array> {
        let nbytes = layout::checked_size(shape, dtype.itemsize())? * dtype.itemsize();
        if nbytes != bytes.len() {
            return Err(Error::Value(format!(
                "{} bytes do not hold an array of shape {} and dtype {dtype} ({nbytes} bytes)",
                bytes.len(),
                layout::fmt_shape(shape)
            )));
        }
        let a = Array::empty(shape, dtype)?;
        a.write_bytes(bytes)?;
        Ok(a)
    }

    /// A 1-D array of `data` (CuPy's `cupy.array(list)`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let a = gpu_array::Array::from_vec(vec![1u8, 2, 3])?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation failed.
    pub fn from_vec<T: Element>(data: Vec<T>) -> Result<Array> {
        let n = data.len();
        Array::from_slice(&data, &[n])
    }

    /// A 0-d array holding `value`.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let s = gpu_array::Array::scalar(2.5f32)?; // a 0-d float32 array
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation failed.
    pub fn scalar<T: Element>(value: T) -> Result<Array> {
        Array::from_slice(&[value], &[])
    }

    /// A new array with the contents and shape of an `ndarray` array of any
    /// layout (copied in logical order, so negative and non-contiguous
    /// strides are fine).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let a = gpu_array::Array::from_ndarray(&ndarray::array![[1.0, 2.0], [3.0, 4.0]])?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation failed.
    pub fn from_ndarray<T, S, D>(a: &ndarray::ArrayBase<S, D>) -> Result<Array>
    where
        T: Element,
        S: ndarray::Data<Elem = T>,
        D: ndarray::Dimension,
    {
        match a.as_slice() {
            Some(s) => Array::from_slice(s, a.shape()),
            None => {
                let v: Vec<T> = a.iter().copied().collect();
                Array::from_slice(&v, a.shape())
            }
        }
    }

    /// Writes `bytes` (C-order element bytes) into this C-contiguous array,
    /// queued on its stream.
    fn write_bytes(&self, bytes: &[u8]) -> Result<()> {
        debug_assert!(self.is_c_contiguous() && bytes.len() == self.nbytes());
        self.mem
            .write_at(self.byte_offset(0)?, bytes, &self.stream())?;
        Ok(())
    }

    /// The elements' bytes in C order (NumPy's `tobytes()`). Waits for the
    /// array's stream.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let b = Array::from_slice(&[1u8, 2, 3], &[3])?.to_bytes()?; // x.tobytes(): [1, 2, 3]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Synchronization is forbidden here, or the copy failed.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let n = self.nbytes();
        if n == 0 {
            return Ok(Vec::new());
        }
        let stream = self.stream();
        if self.is_c_contiguous() {
            let mut out = vec![0u8; n];
            self.mem.read_at(self.byte_offset(0)?, &mut out, &stream)?;
            return Ok(out);
        }
        // Strided: bring the byte span the view covers to the host and
        // gather there. One transfer, no kernel; broadcast views cost only
        // their real footprint.
        let itemsize = self.itemsize();
        // Relative to data_ptr(), which already includes the offset.
        let (lo, hi) = layout::byte_extent(self.shape(), self.strides(), itemsize)?;
        let mut span = vec![0u8; (hi - lo) as usize];
        self.mem
            .read_at(self.byte_offset(lo)?, &mut span, &stream)?;
        let mut out = Vec::with_capacity(n);
        for_each_offset(self.shape(), self.strides(), |off| {
            let at = (off - lo) as usize;
            out.extend_from_slice(&span[at..at + itemsize]);
        });
        Ok(out)
    }

    /// The elements in C order (CuPy's `a.get().ravel()`); `T` must be the
    /// array's element type.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.to_vec::<i64>()?, [0, 1, 2, 3, 4, 5]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::HostType`] for another `T`; as [`Array::to_bytes`].
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.check_host_type::<T>("to_vec")?;
        from_bytes(self.dtype, &self.to_bytes()?)
    }

    /// The array as an `ndarray` array of the same shape (CuPy's
    /// `cupy.asnumpy`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let h: ndarray::ArrayD<i64> = x.to_ndarray()?; // cp.asnumpy(x)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::to_vec`].
    pub fn to_ndarray<T: Element>(&self) -> Result<ndarray::ArrayD<T>> {
        let v = self.to_vec::<T>()?;
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(self.shape()), v)
            .map_err(|e| Error::Value(e.to_string()))
    }

    /// Starts copying a C-contiguous array to pinned host memory on `stream`
    /// and returns without waiting; [`PendingHost::wait`] gives the values.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = Stream::new()?;
    /// let pending = Array::from_slice(&[1.0f64, 2.0], &[2])?.to_host_async(&s)?; // x.get(stream=s, blocking=False)
    /// let v: Vec<f64> = pending.wait()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a non-contiguous array (copy it first);
    /// allocation or the driver failed.
    pub fn to_host_async(&self, stream: &Stream) -> Result<PendingHost> {
        if !self.is_c_contiguous() {
            return Err(Error::Unsupported(
                "to_host_async needs a C-contiguous array; make one with copy()".into(),
            ));
        }
        let pinned = alloc_pinned_memory(self.nbytes())?;
        let transfer = self
            .mem
            .read_at_async(self.byte_offset(0)?, pinned, stream)?;
        Ok(PendingHost {
            transfer,
            dtype: self.dtype,
            shape: self.shape().to_vec(),
            _keep: self.memory().clone(),
        })
    }

    /// A new array holding `data`, copied on `stream` without the host
    /// waiting (the data goes through the pinned pool).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = Stream::new()?;
    /// let x = Array::from_slice_async(&[1i32, 2, 3], &[3], &s)?; // cp.asarray(..., blocking=False) on s
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_slice`].
    pub fn from_slice_async<T: Element>(
        data: &[T],
        shape: &[usize],
        stream: &Stream,
    ) -> Result<Array> {
        if layout::size(shape)? != data.len() {
            return Err(Error::Reshape {
                size: data.len(),
                shape: shape.iter().map(|&d| d as isize).collect(),
            });
        }
        let nbytes = layout::checked_size(shape, T::DTYPE.itemsize())? * T::DTYPE.itemsize();
        let mem = gpu_runtime::memory::alloc_on(nbytes, stream)?;
        let a = Array::from_parts(
            Arc::new(mem),
            Layout::contiguous(shape, T::DTYPE.itemsize(), Order::C)?,
            T::DTYPE,
            true,
        );
        a.mem.write_at_async(0, &to_bytes(data), stream)?;
        Ok(a)
    }

    /// The element at `index` (negative indices count from the end), copied
    /// to the host (NumPy's `a[i, j].item()`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let v: i64 = x.item(&[1, -1])?; // x[1, -1] == 5
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Wrong number of indices or out of range; [`Error::HostType`].
    pub fn item<T: Element>(&self, index: &[isize]) -> Result<T> {
        self.check_host_type::<T>("item")?;
        let off = self.element_byte_offset(index)?;
        let mut b = vec![0u8; self.itemsize()];
        self.mem
            .read_at(self.byte_offset(off)?, &mut b, &self.stream())?;
        Ok(T::read_le(&b))
    }

    /// The array on `device` (CuPy's `with Device(d): cp.asarray(x)`,
    /// the Array API's `x.to_device(d)`): itself when it is there already,
    /// else a C-contiguous copy made by a peer copy (staged through the
    /// host by the driver when the devices cannot reach each other). The
    /// copy is queued on `device`'s current stream after the work queued
    /// so far on this array's device (an event between the two streams),
    /// and the source's memory is kept until the copy is done.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f64, 2.0], &[2])?;
    /// let y = x.to_device(Device::new(0)?)?;
    /// assert_eq!(y.device(), Device::new(0)?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation on `device`, the event or the copy failed.
    pub fn to_device(&self, device: Device) -> Result<Array> {
        if self.device() == device {
            return Ok(self.clone());
        }
        let src = if self.is_c_contiguous() {
            self.clone()
        } else {
            self.copy()?
        };
        let dst = Array::empty_on(device, self.shape(), self.dtype, Order::C)?;
        let (from, to) = (src.stream(), Stream::current_on(device));
        let ready = from.record()?;
        to.wait_event(&ready)?;
        dst.mem.copy_from_device_at(
            dst.byte_offset(0)?,
            &src.mem,
            src.byte_offset(0)?,
            src.nbytes(),
            &to,
        )?;
        // The copy reads the source on `to`: its block is not reused on
        // the source's stream before that.
        src.mem.record_stream(&to);
        Ok(dst)
    }

    /// The one element of a size-1 array as a `T`, converted as NumPy's
    /// `float(x)`, `int(x)`, `bool(x)` and `complex(x)` convert (so a
    /// float32 sum reads as `f64`): integers and bools to floats exactly
    /// or to the nearest, floats to integers truncated toward zero, a
    /// complex value to a real type by its real part (NumPy warns and
    /// discards the imaginary part too). Waits for the array's stream.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = Array::from_slice(&[1.5f32, 2.0], &[2])?.sum(())?;
    /// assert_eq!(s.to_scalar::<f64>()?, 3.5);
    /// assert_eq!(s.to_scalar::<i64>()?, 3);
    /// let n: f64 = (&s).try_into()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// "only length-1 arrays can be converted to Python scalars" (NumPy's
    /// `TypeError`) for another size; [`Error::Overflow`] for a value the
    /// integer type cannot hold (an infinity among them); a NaN to an
    /// integer (NumPy's `ValueError`).
    pub fn to_scalar<T: Element>(&self) -> Result<T> {
        if self.size() != 1 {
            return Err(Error::DType(
                "only length-1 arrays can be converted to Python scalars".into(),
            ));
        }
        let off = self.element_byte_offset(&vec![0; self.ndim()])?;
        let mut b = vec![0u8; self.itemsize()];
        self.mem
            .read_at(self.byte_offset(off)?, &mut b, &self.stream())?;
        let v = ScalarValue::from_le_bytes(self.dtype, &b);
        let v = scalar_for_host(v, T::DTYPE)?;
        Ok(T::read_le(&scalar_to_bytes(v, T::DTYPE)))
    }

    /// The elements converted to `T`'s dtype as [`Array::astype`] converts
    /// (on the device, when the dtypes differ), in C order.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.5f64, 2.5], &[2])?;
    /// let v: Vec<f32> = x.to_vec_as()?; // x.astype(np.float32).get().tolist()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Allocation, the cast or the copy failed.
    pub fn to_vec_as<T: Element>(&self) -> Result<Vec<T>> {
        if self.dtype == T::DTYPE {
            return self.to_vec();
        }
        self.astype(T::DTYPE)?.to_vec()
    }

    /// Sets the element at `index` to `value` (NumPy's `a[i, j] = value`),
    /// queued on the array's stream. Writes through to every view.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// x.set_item(&[0, 0], 42i64)?; // x[0, 0] = 42
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::item`].
    pub fn set_item<T: Element>(&self, index: &[isize], value: T) -> Result<()> {
        self.check_host_type::<T>("set_item")?;
        let off = self.element_byte_offset(index)?;
        let mut b = Vec::with_capacity(self.itemsize());
        value.write_le(&mut b);
        self.mem
            .write_at(self.byte_offset(off)?, &b, &self.stream())?;
        Ok(())
    }

    fn element_byte_offset(&self, index: &[isize]) -> Result<isize> {
        self.layout().item_offset(index)
    }

    pub(crate) fn check_host_type<T: Element>(&self, operation: &'static str) -> Result<()> {
        if T::DTYPE == self.dtype {
            Ok(())
        } else {
            Err(Error::HostType {
                operation,
                array: self.dtype,
                host: T::DTYPE,
            })
        }
    }
}

/// A device-to-host copy in flight, from [`Array::to_host_async`].
#[derive(Debug)]
#[must_use = "wait() returns the values"]
pub struct PendingHost {
    transfer: HostTransfer,
    dtype: DType,
    shape: Vec<usize>,
    /// Keeps the source alive until the copy is done.
    _keep: Arc<gpu_runtime::Memory>,
}

impl PendingHost {
    /// Whether the copy has finished (does not block).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = Stream::new()?;
    /// let pending = Array::from_slice(&[1.0f64], &[1])?.to_host_async(&s)?;
    /// let ready = pending.is_done()?; // has the copy finished? (does not wait)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy or earlier work on its stream failed.
    pub fn is_done(&self) -> Result<bool> {
        Ok(self.transfer.is_done()?)
    }

    /// The shape of the array being copied.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// assert_eq!(x.shape(), &[2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Waits for the copy and returns the values in C order.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_runtime::{Device, Stream};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = Stream::new()?;
    /// let pending = Array::from_slice(&[1.0f64, 2.0], &[2])?.to_host_async(&s)?;
    /// assert_eq!(pending.wait::<f64>()?, [1.0, 2.0]); // waits for the copy
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::HostType`] for another `T`; the copy failed.
    pub fn wait<T: Element>(self) -> Result<Vec<T>> {
        if T::DTYPE != self.dtype {
            return Err(Error::HostType {
                operation: "PendingHost::wait",
                array: self.dtype,
                host: T::DTYPE,
            });
        }
        let pinned = self.transfer.wait()?;
        from_bytes(self.dtype, pinned.as_slice())
    }
}

/// Calls `f` with the byte offset of every element, in C order.
pub(crate) fn for_each_offset(shape: &[usize], strides: &[isize], mut f: impl FnMut(isize)) {
    if shape.contains(&0) {
        return;
    }
    let nd = shape.len();
    let mut idx = vec![0usize; nd];
    let mut off = 0isize;
    loop {
        f(off);
        let mut d = nd;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            off += strides[d];
            if idx[d] < shape[d] {
                break;
            }
            off -= strides[d] * shape[d] as isize;
            idx[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::for_each_offset;

    #[test]
    fn offsets_in_c_order_with_negative_and_zero_strides() {
        let mut v = Vec::new();
        for_each_offset(&[2, 3], &[-12, 4], |o| v.push(o));
        assert_eq!(v, [0, 4, 8, -12, -8, -4]);
        v.clear();
        for_each_offset(&[2, 2], &[0, 8], |o| v.push(o));
        assert_eq!(v, [0, 8, 0, 8]);
        v.clear();
        for_each_offset(&[], &[], |o| v.push(o));
        assert_eq!(v, [0]);
        v.clear();
        for_each_offset(&[3, 0], &[4, 4], |o| v.push(o));
        assert!(v.is_empty());
    }
}

/// `v` made fit for `to` as Python's `int()`, `float()`, `bool()` and
/// `complex()` make a NumPy scalar fit, before [`scalar_to_bytes`] writes
/// it: integers range-checked, floats truncated (NaN and infinities
/// refused), complex values reduced to their real part for real types.
fn scalar_for_host(v: ScalarValue, to: DType) -> Result<ScalarValue> {
    let v = match v {
        ScalarValue::Complex(c) if !to.is_complex() => ScalarValue::Float(c.re),
        other => other,
    };
    if !to.is_integer() {
        return Ok(v);
    }
    let n = match v {
        ScalarValue::Float(f) if f.is_nan() => {
            return Err(Error::Value("cannot convert float NaN to integer".into()));
        }
        ScalarValue::Float(f) if f.is_infinite() => {
            return Err(Error::Overflow(
                "cannot convert float infinity to integer".into(),
            ));
        }
        // In range of i128 after the checks above only when finite and
        // below 2**127; larger magnitudes fail the dtype's check below.
        ScalarValue::Float(f) => f.trunc().clamp(-(2f64.powi(127)), 2f64.powi(127) - 1.0) as i128,
        ScalarValue::Int(n) => n,
        ScalarValue::Bool(b) => i128::from(b),
        ScalarValue::Complex(_) => unreachable!("complex reduced above"),
    };
    check_weak_int(n, to)?;
    Ok(ScalarValue::Int(n))
}

macro_rules! scalar_try_from {
    ($($t:ty),* $(,)?) => {$(
        /// The one element, as [`Array::to_scalar`] converts it.
        impl TryFrom<&Array> for $t {
            type Error = Error;
            fn try_from(a: &Array) -> Result<$t> {
                a.to_scalar::<$t>()
            }
        }
        /// The one element, as [`Array::to_scalar`] converts it.
        impl TryFrom<Array> for $t {
            type Error = Error;
            fn try_from(a: Array) -> Result<$t> {
                a.to_scalar::<$t>()
            }
        }
    )*};
}

scalar_try_from!(
    bool,
    i8,
    i16,
    i32,
    i64,
    u8,
    u16,
    u32,
    u64,
    f32,
    f64,
    half::f16,
    half::bf16,
    num_complex::Complex<f32>,
    num_complex::Complex<f64>,
);
