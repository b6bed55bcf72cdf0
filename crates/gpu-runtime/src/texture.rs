//! Texture and surface memory (CuPy's `cupy.cuda.texture`): CUDA arrays of
//! one to three dimensions, resource and texture descriptors, and texture
//! and surface objects that kernels take as arguments
//! (`cudaTextureObject_t` / `cudaSurfaceObject_t`, 64-bit handles).
//!
//! | CuPy                                   | Cuprum                          |
//! |----------------------------------------|---------------------------------|
//! | `ChannelFormatDescriptor(32,0,0,0,f)`  | [`ChannelFormatDesc::new`]      |
//! | `CUDAarray(desc, w, h, d, flags)`      | [`CudaArray::new`]              |
//! | `arr.copy_from(x)` / `arr.copy_to(x)`  | [`CudaArray::copy_from_host`] / [`CudaArray::copy_to_host`] and the device forms |
//! | `ResourceDescriptor(...)`              | [`ResourceDesc`]                |
//! | `TextureDescriptor(...)`               | [`TextureDesc`]                 |
//! | `TextureObject(res, tex)`              | [`TextureObject::new`]          |
//! | `SurfaceObject(res)`                   | [`SurfaceObject::new`]          |

use std::ffi::c_void;
use std::sync::Arc;

use gpu_sys::cuda::{
    self, CUaddress_mode, CUarray, CUarray_format, CUfilter_mode, CUmemorytype, CUresourcetype,
};

use crate::driver::check;
use crate::sync::check_sync_allowed;
use crate::{Device, DevicePtr, Error, KernelArg, Result, Stream};

/// How the channels of a texel are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChannelKind {
    /// Signed integers.
    Signed,
    /// Unsigned integers.
    Unsigned,
    /// Floating point (16 or 32 bits).
    Float,
}

/// The layout of one texel: bits per channel (x, y, z, w; unused channels 0)
/// and their kind (CUDA's `cudaChannelFormatDesc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChannelFormatDesc {
    /// Bits of the first channel.
    pub x: u32,
    /// Bits of the second channel, or 0.
    pub y: u32,
    /// Bits of the third channel, or 0.
    pub z: u32,
    /// Bits of the fourth channel, or 0.
    pub w: u32,
    /// The channels' kind.
    pub kind: ChannelKind,
}

impl ChannelFormatDesc {
    /// A format from its four channel widths.
    ///
    /// ```
    /// use gpu_runtime::texture::{ChannelFormatDesc, ChannelKind};
    /// let rgba8 = ChannelFormatDesc::new(8, 8, 8, 8, ChannelKind::Unsigned);
    /// assert_eq!(rgba8.num_channels(), 4);
    /// assert_eq!(rgba8.element_size(), 4);
    /// ```
    pub fn new(x: u32, y: u32, z: u32, w: u32, kind: ChannelKind) -> ChannelFormatDesc {
        ChannelFormatDesc { x, y, z, w, kind }
    }

    /// `channels` (1, 2 or 4) channels of `bits` bits each.
    ///
    /// ```
    /// use gpu_runtime::texture::{ChannelFormatDesc, ChannelKind};
    /// let float2 = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 2);
    /// assert_eq!(float2, ChannelFormatDesc::new(32, 32, 0, 0, ChannelKind::Float));
    /// ```
    pub fn with_channels(kind: ChannelKind, bits: u32, channels: u32) -> ChannelFormatDesc {
        let c = |i| if channels > i { bits } else { 0 };
        ChannelFormatDesc::new(c(0), c(1), c(2), c(3), kind)
    }

    /// The number of channels in use.
    ///
    /// ```
    /// use gpu_runtime::texture::{ChannelFormatDesc, ChannelKind};
    /// assert_eq!(ChannelFormatDesc::new(16, 16, 0, 0, ChannelKind::Signed).num_channels(), 2);
    /// ```
    pub fn num_channels(&self) -> u32 {
        [self.x, self.y, self.z, self.w]
            .iter()
            .filter(|&&b| b != 0)
            .count() as u32
    }

    /// Bytes per texel.
    ///
    /// ```
    /// use gpu_runtime::texture::{ChannelFormatDesc, ChannelKind};
    /// let float4 = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 4);
    /// assert_eq!(float4.element_size(), 16);
    /// ```
    pub fn element_size(&self) -> usize {
        ((self.x + self.y + self.z + self.w) / 8) as usize
    }

    /// The driver's array format and channel count, after checking that the
    /// driver can represent this format: 1, 2 or 4 leading channels of equal
    /// width, 8, 16 or 32 bits for integers, 16 or 32 for floats.
    ///
    /// ```
    /// use gpu_runtime::sys::cuda::CUarray_format;
    /// use gpu_runtime::texture::{ChannelFormatDesc, ChannelKind};
    /// let half2 = ChannelFormatDesc::with_channels(ChannelKind::Float, 16, 2);
    /// assert_eq!(half2.array_format()?, (CUarray_format::CU_AD_FORMAT_HALF, 2));
    /// // Three channels have no driver format.
    /// assert!(ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 3).array_format().is_err());
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a format the driver has no name for.
    pub fn array_format(&self) -> Result<(CUarray_format, u32)> {
        let bits = [self.x, self.y, self.z, self.w];
        let n = self.num_channels();
        let leading = bits.iter().take_while(|&&b| b != 0).count() as u32;
        let bad = || Error::InvalidArgument(format!("unsupported channel format {self:?}"));
        if n == 0 || leading != n || n == 3 || bits[..n as usize].iter().any(|&b| b != self.x) {
            return Err(bad());
        }
        use CUarray_format as F;
        let format = match (self.kind, self.x) {
            (ChannelKind::Unsigned, 8) => F::CU_AD_FORMAT_UNSIGNED_INT8,
            (ChannelKind::Unsigned, 16) => F::CU_AD_FORMAT_UNSIGNED_INT16,
            (ChannelKind::Unsigned, 32) => F::CU_AD_FORMAT_UNSIGNED_INT32,
            (ChannelKind::Signed, 8) => F::CU_AD_FORMAT_SIGNED_INT8,
            (ChannelKind::Signed, 16) => F::CU_AD_FORMAT_SIGNED_INT16,
            (ChannelKind::Signed, 32) => F::CU_AD_FORMAT_SIGNED_INT32,
            (ChannelKind::Float, 16) => F::CU_AD_FORMAT_HALF,
            (ChannelKind::Float, 32) => F::CU_AD_FORMAT_FLOAT,
            _ => return Err(bad()),
        };
        Ok((format, n))
    }
}

/// Flags of a [`CudaArray`] (`CUDA_ARRAY3D_*`), combined with `|`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ArrayFlags(pub u32);

impl ArrayFlags {
    /// No flags.
    pub const NONE: ArrayFlags = ArrayFlags(0);
    /// A layered array: `depth` (or `height` for 1-D) counts layers.
    pub const LAYERED: ArrayFlags = ArrayFlags(cuda::CUDA_ARRAY3D_LAYERED);
    /// Surface objects may read and write it.
    pub const SURFACE_LOAD_STORE: ArrayFlags = ArrayFlags(cuda::CUDA_ARRAY3D_SURFACE_LDST);
    /// Six 2-D faces of a cube map.
    pub const CUBEMAP: ArrayFlags = ArrayFlags(cuda::CUDA_ARRAY3D_CUBEMAP);
    /// Texture gather (`tex2Dgather`) is allowed.
    pub const TEXTURE_GATHER: ArrayFlags = ArrayFlags(cuda::CUDA_ARRAY3D_TEXTURE_GATHER);

    /// Whether every flag of `other` is set.
    ///
    /// ```
    /// use gpu_runtime::texture::ArrayFlags;
    /// let flags = ArrayFlags::LAYERED | ArrayFlags::SURFACE_LOAD_STORE;
    /// assert!(flags.contains(ArrayFlags::LAYERED));
    /// assert!(!flags.contains(ArrayFlags::CUBEMAP));
    /// ```
    pub fn contains(self, other: ArrayFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for ArrayFlags {
    type Output = ArrayFlags;
    fn bitor(self, rhs: ArrayFlags) -> ArrayFlags {
        ArrayFlags(self.0 | rhs.0)
    }
}

struct ArrayInner {
    raw: CUarray,
    device: Device,
    desc: ChannelFormatDesc,
    width: usize,
    height: usize,
    depth: usize,
    flags: ArrayFlags,
}

// SAFETY: a CUarray handle may be used from any thread (the driver is thread-safe).
unsafe impl Send for ArrayInner {}
// SAFETY: as above; the fields never change.
unsafe impl Sync for ArrayInner {}

impl Drop for ArrayInner {
    fn drop(&mut self) {
        let _ = self.device.bind();
        // SAFETY: we created the array; this is its last handle (texture and
        // surface objects hold one).
        let _ = unsafe { cuda::cuArrayDestroy(self.raw) };
    }
}

/// A CUDA array: opaque, texture-friendly storage of 1-D (`height` and
/// `depth` 0), 2-D (`depth` 0) or 3-D texels (CuPy's `CUDAarray`). Clones
/// share it; texture and surface objects keep it alive.
#[derive(Clone)]
pub struct CudaArray {
    inner: Arc<ArrayInner>,
}

impl std::fmt::Debug for CudaArray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let a = &*self.inner;
        f.debug_struct("CudaArray")
            .field("desc", &a.desc)
            .field("width", &a.width)
            .field("height", &a.height)
            .field("depth", &a.depth)
            .field("flags", &a.flags)
            .field("device", &a.device.ordinal())
            .finish()
    }
}

enum Host {
    Src(*const c_void),
    Dst(*mut c_void),
}

impl CudaArray {
    /// Allocates an array of `width` x `height` x `depth` texels on the
    /// current device; `height` 0 makes it 1-D and `depth` 0 makes it 2-D.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 32, 0, ArrayFlags::NONE)?; // a 64x32 float array
    /// assert_eq!(a.ndim(), 2);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a format the driver cannot store or a
    /// zero width; the driver rejects the extent.
    pub fn new(
        desc: ChannelFormatDesc,
        width: usize,
        height: usize,
        depth: usize,
        flags: ArrayFlags,
    ) -> Result<CudaArray> {
        let (format, channels) = desc.array_format()?;
        if width == 0 {
            return Err(Error::InvalidArgument(
                "a CUDA array needs a width of at least 1".to_string(),
            ));
        }
        if depth > 0 && height == 0 && !flags.contains(ArrayFlags::LAYERED) {
            return Err(Error::InvalidArgument(format!(
                "a 3-D CUDA array needs a height: got {width}x{height}x{depth}"
            )));
        }
        let device = Device::current()?;
        device.bind()?;
        let descriptor = cuda::CUDA_ARRAY3D_DESCRIPTOR {
            Width: width,
            Height: height,
            Depth: depth,
            Format: format,
            NumChannels: channels,
            Flags: flags.0,
        };
        let mut raw: CUarray = std::ptr::null_mut();
        // SAFETY: a complete descriptor; writes one handle.
        check("cuArray3DCreate", unsafe {
            cuda::cuArray3DCreate_v2(&mut raw, &descriptor)
        })?;
        Ok(CudaArray {
            inner: Arc::new(ArrayInner {
                raw,
                device,
                desc,
                width,
                height,
                depth,
                flags,
            }),
        })
    }

    /// The texel format.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Unsigned, 8, 4);
    /// let a = CudaArray::new(desc, 16, 0, 0, ArrayFlags::NONE)?;
    /// assert_eq!(a.desc(), desc);
    /// # Ok(()) }
    /// ```
    pub fn desc(&self) -> ChannelFormatDesc {
        self.inner.desc
    }

    /// Width in texels.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 32, 0, ArrayFlags::NONE)?;
    /// assert_eq!((a.width(), a.height(), a.depth()), (64, 32, 0));
    /// # Ok(()) }
    /// ```
    pub fn width(&self) -> usize {
        self.inner.width
    }

    /// Height in texels (0 for 1-D).
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// assert_eq!(CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?.height(), 0); // 1-D
    /// # Ok(()) }
    /// ```
    pub fn height(&self) -> usize {
        self.inner.height
    }

    /// Depth in texels (0 for 1-D and 2-D).
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 8, 8, 4, ArrayFlags::NONE)?;
    /// assert_eq!((a.depth(), a.ndim()), (4, 3));
    /// # Ok(()) }
    /// ```
    pub fn depth(&self) -> usize {
        self.inner.depth
    }

    /// 1, 2 or 3.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// assert_eq!(CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?.ndim(), 1);
    /// assert_eq!(CudaArray::new(desc, 64, 32, 0, ArrayFlags::NONE)?.ndim(), 2);
    /// # Ok(()) }
    /// ```
    pub fn ndim(&self) -> usize {
        if self.inner.depth > 0 {
            3
        } else if self.inner.height > 0 {
            2
        } else {
            1
        }
    }

    /// The flags it was created with.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 32, 0, ArrayFlags::SURFACE_LOAD_STORE)?;
    /// assert!(a.flags().contains(ArrayFlags::SURFACE_LOAD_STORE));
    /// # Ok(()) }
    /// ```
    pub fn flags(&self) -> ArrayFlags {
        self.inner.flags
    }

    /// The device it lives on.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?;
    /// assert_eq!(a.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// The raw handle.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?;
    /// assert!(!a.raw().is_null()); // a `CUarray` for driver calls of your own
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> CUarray {
        self.inner.raw
    }

    /// Bytes of one row.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 2);
    /// let a = CudaArray::new(desc, 64, 32, 0, ArrayFlags::NONE)?;
    /// assert_eq!(a.row_bytes(), 64 * 8);
    /// # Ok(()) }
    /// ```
    pub fn row_bytes(&self) -> usize {
        self.inner.width * self.inner.desc.element_size()
    }

    /// Bytes of the whole array, as a dense host or device buffer holds it
    /// (rows of `width` texels, then `height` rows per slice).
    ///
    /// ```no_run
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 32, 0, ArrayFlags::NONE)?;
    /// assert_eq!(a.size_bytes(), 64 * 32 * 4);
    /// # Ok(()) }
    /// ```
    pub fn size_bytes(&self) -> usize {
        self.row_bytes() * self.inner.height.max(1) * self.inner.depth.max(1)
    }

    fn copy(
        &self,
        to_array: bool,
        host: Option<Host>,
        device: DevicePtr,
        stream: &Stream,
    ) -> Result<()> {
        let a = &*self.inner;
        if stream.device() != a.device {
            return Err(Error::DeviceMismatch {
                operation: "CudaArray copy",
                what: "the stream",
                found: stream.device().ordinal(),
                expected: a.device.ordinal(),
            });
        }
        let (row, height, depth) = (self.row_bytes(), a.height.max(1), a.depth.max(1));
        let mut p = cuda::CUDA_MEMCPY3D {
            WidthInBytes: row,
            Height: height,
            Depth: depth,
            ..Default::default()
        };
        let (memory_type, host_src, host_dst) = match host {
            Some(Host::Src(h)) => (CUmemorytype::CU_MEMORYTYPE_HOST, h, std::ptr::null_mut()),
            Some(Host::Dst(h)) => (CUmemorytype::CU_MEMORYTYPE_HOST, std::ptr::null(), h),
            None => (
                CUmemorytype::CU_MEMORYTYPE_DEVICE,
                std::ptr::null(),
                std::ptr::null_mut(),
            ),
        };
        if to_array {
            p.srcMemoryType = memory_type;
            p.srcHost = host_src;
            p.srcDevice = device.raw();
            p.srcPitch = row;
            p.srcHeight = height;
            p.dstMemoryType = CUmemorytype::CU_MEMORYTYPE_ARRAY;
            p.dstArray = a.raw;
        } else {
            p.srcMemoryType = CUmemorytype::CU_MEMORYTYPE_ARRAY;
            p.srcArray = a.raw;
            p.dstMemoryType = memory_type;
            p.dstHost = host_dst;
            p.dstDevice = device.raw();
            p.dstPitch = row;
            p.dstHeight = height;
        }
        a.device.bind()?;
        // SAFETY: the descriptor names this live array and a buffer of
        // `size_bytes` bytes (checked by the callers, or vouched for by the
        // callers of the unsafe device forms).
        check("cuMemcpy3DAsync", unsafe {
            cuda::cuMemcpy3DAsync_v2(&p, stream.handle()?)
        })
    }

    fn check_len(&self, what: &str, bytes: usize) -> Result<()> {
        if bytes == self.size_bytes() {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "{what}: the host buffer has {bytes} bytes, the CUDA array {}",
                self.size_bytes()
            )))
        }
    }

    fn wait(stream: &Stream) -> Result<()> {
        // SAFETY: a live stream handle.
        check("cuStreamSynchronize", unsafe {
            cuda::cuStreamSynchronize(stream.handle()?)
        })
    }

    /// Copies a dense host buffer (x fastest, then y, then z) into the
    /// array, in order on `stream`, and returns when the copy is done.
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 4, 2, 0, ArrayFlags::NONE)?;
    /// a.copy_from_host(&[0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], &Stream::current()?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `src` is not exactly
    /// [`CudaArray::size_bytes`] long; the driver failed.
    pub fn copy_from_host<T: Copy>(&self, src: &[T], stream: &Stream) -> Result<()> {
        self.check_len("CudaArray::copy_from_host", std::mem::size_of_val(src))?;
        self.copy(
            true,
            Some(Host::Src(src.as_ptr().cast())),
            DevicePtr::NULL,
            stream,
        )?;
        // The host buffer must outlive the copy, pinned or not.
        CudaArray::wait(stream)
    }

    /// Copies the array into a dense host buffer, in order on `stream`, and
    /// returns when the copy is done.
    ///
    /// ```no_run
    /// use gpu_runtime::Stream;
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Signed, 32, 1);
    /// let a = CudaArray::new(desc, 3, 0, 0, ArrayFlags::NONE)?;
    /// let s = Stream::current()?;
    /// a.copy_from_host(&[7i32, 8, 9], &s)?;
    /// let mut back = [0i32; 3];
    /// a.copy_to_host(&mut back, &s)?;
    /// assert_eq!(back, [7, 8, 9]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `dst` is not exactly
    /// [`CudaArray::size_bytes`] long; [`Error::DeviceSynchronized`]
    /// inside `allow_synchronize(false)`; the driver failed.
    pub fn copy_to_host<T: Copy>(&self, dst: &mut [T], stream: &Stream) -> Result<()> {
        check_sync_allowed("CudaArray::copy_to_host")?;
        self.check_len("CudaArray::copy_to_host", std::mem::size_of_val(dst))?;
        self.copy(
            false,
            Some(Host::Dst(dst.as_mut_ptr().cast())),
            DevicePtr::NULL,
            stream,
        )?;
        CudaArray::wait(stream)
    }

    /// Enqueues a copy from dense device memory (x fastest, then y, then z)
    /// into the array on `stream`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 256, 0, 0, ArrayFlags::NONE)?;
    /// let src = alloc(a.size_bytes())?;
    /// let s = Stream::current()?;
    /// // SAFETY: `src` holds `size_bytes` bytes and outlives the copy (synchronized below).
    /// unsafe { a.copy_from_device(src.ptr(), &s)? };
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// `src` must point to [`CudaArray::size_bytes`] readable bytes of this
    /// array's device that stay allocated until the copy completes.
    ///
    /// # Errors
    /// The driver failed.
    pub unsafe fn copy_from_device(&self, src: DevicePtr, stream: &Stream) -> Result<()> {
        self.copy(true, None, src, stream)
    }

    /// Enqueues a copy of the array into dense device memory on `stream`.
    ///
    /// ```no_run
    /// use gpu_runtime::{Stream, alloc};
    /// use gpu_runtime::texture::{ArrayFlags, ChannelFormatDesc, ChannelKind, CudaArray};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 256, 0, 0, ArrayFlags::NONE)?;
    /// let dst = alloc(a.size_bytes())?;
    /// let s = Stream::current()?;
    /// // SAFETY: `dst` holds `size_bytes` bytes and outlives the copy (synchronized below).
    /// unsafe { a.copy_to_device(dst.ptr(), &s)? };
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// `dst` must point to [`CudaArray::size_bytes`] writable bytes of this
    /// array's device that stay allocated until the copy completes.
    ///
    /// # Errors
    /// The driver failed.
    pub unsafe fn copy_to_device(&self, dst: DevicePtr, stream: &Stream) -> Result<()> {
        self.copy(false, None, dst, stream)
    }
}

/// What a texture or surface object reads (CUDA's `cudaResourceDesc`).
///
/// `Linear` and `Pitch2D` name device memory by address and do not keep it
/// alive: a kernel that reads the texture after the memory is freed reads
/// freed memory, which [`Kernel::launch`](crate::module::Kernel::launch)'s
/// safety contract rules out.
#[derive(Debug, Clone)]
pub enum ResourceDesc {
    /// A CUDA array (kept alive by the texture object).
    Array(CudaArray),
    /// Linear device memory, read with `tex1Dfetch`.
    Linear {
        /// The first byte.
        ptr: DevicePtr,
        /// The texel format.
        format: ChannelFormatDesc,
        /// The size in bytes.
        size_bytes: usize,
    },
    /// Pitched 2-D device memory.
    Pitch2D {
        /// The first byte.
        ptr: DevicePtr,
        /// The texel format.
        format: ChannelFormatDesc,
        /// Width in texels.
        width: usize,
        /// Height in texels.
        height: usize,
        /// Bytes from one row to the next.
        pitch_bytes: usize,
    },
}

impl ResourceDesc {
    fn format(&self) -> ChannelFormatDesc {
        match self {
            ResourceDesc::Array(a) => a.desc(),
            ResourceDesc::Linear { format, .. } | ResourceDesc::Pitch2D { format, .. } => *format,
        }
    }

    fn raw(&self) -> Result<cuda::CUDA_RESOURCE_DESC> {
        let mut r = cuda::CUDA_RESOURCE_DESC::default();
        match self {
            ResourceDesc::Array(a) => {
                r.resType = CUresourcetype::CU_RESOURCE_TYPE_ARRAY;
                r.res.array.hArray = a.raw();
            }
            ResourceDesc::Linear {
                ptr,
                format,
                size_bytes,
            } => {
                let (f, n) = format.array_format()?;
                r.resType = CUresourcetype::CU_RESOURCE_TYPE_LINEAR;
                r.res.linear = cuda::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_3 {
                    devPtr: ptr.raw(),
                    format: f,
                    numChannels: n,
                    sizeInBytes: *size_bytes,
                };
            }
            ResourceDesc::Pitch2D {
                ptr,
                format,
                width,
                height,
                pitch_bytes,
            } => {
                let (f, n) = format.array_format()?;
                r.resType = CUresourcetype::CU_RESOURCE_TYPE_PITCH2D;
                r.res.pitch2D = cuda::CUDA_RESOURCE_DESC_st__bindgen_ty_1__bindgen_ty_4 {
                    devPtr: ptr.raw(),
                    format: f,
                    numChannels: n,
                    width: *width,
                    height: *height,
                    pitchInBytes: *pitch_bytes,
                };
            }
        }
        Ok(r)
    }
}

/// What happens to coordinates outside the texture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AddressMode {
    /// Repeat (normalized coordinates only).
    Wrap,
    /// Clamp to the edge.
    #[default]
    Clamp,
    /// Mirror at each edge (normalized coordinates only).
    Mirror,
    /// Read the border color.
    Border,
}

/// How a fetch between texels is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum FilterMode {
    /// The nearest texel.
    #[default]
    Point,
    /// Linear interpolation of the neighbours (float results only).
    Linear,
}

/// What a fetch returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ReadMode {
    /// The stored type.
    #[default]
    ElementType,
    /// 8- and 16-bit integers mapped to `[0, 1]` (unsigned) or `[-1, 1]`
    /// (signed) floats.
    NormalizedFloat,
}

/// How a texture is sampled (CUDA's `cudaTextureDesc`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct TextureDesc {
    /// Per dimension (x, y, z).
    pub address_mode: [AddressMode; 3],
    /// Point or linear filtering.
    pub filter_mode: FilterMode,
    /// Element type or normalized float.
    pub read_mode: ReadMode,
    /// Coordinates in `[0, 1)` instead of `[0, extent)`.
    pub normalized_coords: bool,
    /// sRGB to linear conversion on read.
    pub srgb: bool,
    /// The color of [`AddressMode::Border`].
    pub border_color: [f32; 4],
    /// Anisotropic filtering limit (1 to 16; 0 for none).
    pub max_anisotropy: u32,
    /// Turn off the trilinear filtering optimization.
    pub disable_trilinear_optimization: bool,
}

impl TextureDesc {
    /// Sets `address_mode`.
    ///
    /// ```
    /// use gpu_runtime::texture::{AddressMode, TextureDesc};
    /// let t = TextureDesc::default().address_mode([AddressMode::Border; 3]);
    /// assert_eq!(t.address_mode[0], AddressMode::Border);
    /// ```
    #[must_use]
    pub fn address_mode(mut self, address_mode: [AddressMode; 3]) -> TextureDesc {
        self.address_mode = address_mode;
        self
    }

    /// Sets `filter_mode`.
    ///
    /// ```
    /// use gpu_runtime::texture::{FilterMode, TextureDesc};
    /// let t = TextureDesc::default().filter_mode(FilterMode::Linear);
    /// assert_eq!(t.filter_mode, FilterMode::Linear);
    /// ```
    #[must_use]
    pub fn filter_mode(mut self, filter_mode: FilterMode) -> TextureDesc {
        self.filter_mode = filter_mode;
        self
    }

    /// Sets `read_mode`.
    ///
    /// ```
    /// use gpu_runtime::texture::{ReadMode, TextureDesc};
    /// let t = TextureDesc::default().read_mode(ReadMode::NormalizedFloat);
    /// assert_eq!(t.read_mode, ReadMode::NormalizedFloat);
    /// ```
    #[must_use]
    pub fn read_mode(mut self, read_mode: ReadMode) -> TextureDesc {
        self.read_mode = read_mode;
        self
    }

    /// Sets `normalized_coords`.
    ///
    /// ```
    /// use gpu_runtime::texture::TextureDesc;
    /// assert!(TextureDesc::default().normalized_coords(true).normalized_coords);
    /// ```
    #[must_use]
    pub fn normalized_coords(mut self, normalized_coords: bool) -> TextureDesc {
        self.normalized_coords = normalized_coords;
        self
    }

    /// Sets `srgb`.
    ///
    /// ```
    /// use gpu_runtime::texture::TextureDesc;
    /// assert!(TextureDesc::default().srgb(true).srgb);
    /// ```
    #[must_use]
    pub fn srgb(mut self, srgb: bool) -> TextureDesc {
        self.srgb = srgb;
        self
    }

    /// Sets `border_color`.
    ///
    /// ```
    /// use gpu_runtime::texture::{AddressMode, TextureDesc};
    /// let t = TextureDesc::default()
    ///     .address_mode([AddressMode::Border; 3])
    ///     .border_color([1.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(t.border_color, [1.0, 0.0, 0.0, 1.0]);
    /// ```
    #[must_use]
    pub fn border_color(mut self, border_color: [f32; 4]) -> TextureDesc {
        self.border_color = border_color;
        self
    }

    /// Sets `max_anisotropy`.
    ///
    /// ```
    /// use gpu_runtime::texture::TextureDesc;
    /// assert_eq!(TextureDesc::default().max_anisotropy(8).max_anisotropy, 8);
    /// ```
    #[must_use]
    pub fn max_anisotropy(mut self, max_anisotropy: u32) -> TextureDesc {
        self.max_anisotropy = max_anisotropy;
        self
    }

    /// Sets `disable_trilinear_optimization`.
    ///
    /// ```
    /// use gpu_runtime::texture::TextureDesc;
    /// let t = TextureDesc::default().disable_trilinear_optimization(true);
    /// assert!(t.disable_trilinear_optimization);
    /// ```
    #[must_use]
    pub fn disable_trilinear_optimization(mut self, disable: bool) -> TextureDesc {
        self.disable_trilinear_optimization = disable;
        self
    }
}

impl Default for TextureDesc {
    fn default() -> Self {
        TextureDesc {
            address_mode: [AddressMode::Clamp; 3],
            filter_mode: FilterMode::Point,
            read_mode: ReadMode::ElementType,
            normalized_coords: false,
            srgb: false,
            border_color: [0.0; 4],
            max_anisotropy: 0,
            disable_trilinear_optimization: false,
        }
    }
}

impl TextureDesc {
    fn raw(&self, format: ChannelFormatDesc) -> cuda::CUDA_TEXTURE_DESC {
        let mode = |m: AddressMode| match m {
            AddressMode::Wrap => CUaddress_mode::CU_TR_ADDRESS_MODE_WRAP,
            AddressMode::Clamp => CUaddress_mode::CU_TR_ADDRESS_MODE_CLAMP,
            AddressMode::Mirror => CUaddress_mode::CU_TR_ADDRESS_MODE_MIRROR,
            AddressMode::Border => CUaddress_mode::CU_TR_ADDRESS_MODE_BORDER,
        };
        let mut flags = 0;
        // As the runtime API does: integer texels are returned as integers in
        // element-type mode; float texels have nothing to convert.
        if self.read_mode == ReadMode::ElementType && format.kind != ChannelKind::Float {
            flags |= cuda::CU_TRSF_READ_AS_INTEGER;
        }
        if self.normalized_coords {
            flags |= cuda::CU_TRSF_NORMALIZED_COORDINATES;
        }
        if self.srgb {
            flags |= cuda::CU_TRSF_SRGB;
        }
        if self.disable_trilinear_optimization {
            flags |= cuda::CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
        }
        let filter = match self.filter_mode {
            FilterMode::Point => CUfilter_mode::CU_TR_FILTER_MODE_POINT,
            FilterMode::Linear => CUfilter_mode::CU_TR_FILTER_MODE_LINEAR,
        };
        cuda::CUDA_TEXTURE_DESC {
            addressMode: self.address_mode.map(mode),
            filterMode: filter,
            flags,
            maxAnisotropy: self.max_anisotropy,
            mipmapFilterMode: CUfilter_mode::CU_TR_FILTER_MODE_POINT,
            borderColor: self.border_color,
            ..Default::default()
        }
    }
}

/// A texture object: a [`ResourceDesc`] sampled as a [`TextureDesc`] says.
/// Pass it to a kernel parameter of type `cudaTextureObject_t`. It keeps
/// its CUDA array alive.
pub struct TextureObject {
    handle: cuda::CUtexObject,
    device: Device,
    resource: ResourceDesc,
    texture: TextureDesc,
}

impl std::fmt::Debug for TextureObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextureObject")
            .field("handle", &self.handle)
            .field("resource", &self.resource)
            .field("texture", &self.texture)
            .finish()
    }
}

impl TextureObject {
    /// Creates a texture object on the current device (the array's device
    /// for [`ResourceDesc::Array`]).
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 64, 0, ArrayFlags::NONE)?;
    /// let tex = TextureObject::new(
    ///     &ResourceDesc::Array(a),
    ///     &TextureDesc::default().filter_mode(FilterMode::Linear).normalized_coords(true),
    /// )?; // pass `&tex` to a `cudaTextureObject_t` parameter
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver rejects the combination (e.g. linear filtering of integers
    /// read as integers, wrap mode without normalized coordinates).
    pub fn new(resource: &ResourceDesc, texture: &TextureDesc) -> Result<TextureObject> {
        let device = match resource {
            ResourceDesc::Array(a) => a.device(),
            _ => Device::current()?,
        };
        device.bind()?;
        let res = resource.raw()?;
        let tex = texture.raw(resource.format());
        let mut handle: cuda::CUtexObject = 0;
        // SAFETY: complete descriptors naming a live array or device memory;
        // no resource view; writes one handle.
        check("cuTexObjectCreate", unsafe {
            cuda::cuTexObjectCreate(&mut handle, &res, &tex, std::ptr::null())
        })?;
        Ok(TextureObject {
            handle,
            device,
            resource: resource.clone(),
            texture: *texture,
        })
    }

    /// The 64-bit handle kernels receive.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?;
    /// let tex = TextureObject::new(&ResourceDesc::Array(a), &TextureDesc::default())?;
    /// let handle: u64 = tex.raw(); // the `cudaTextureObject_t` value
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> u64 {
        self.handle
    }

    /// What it reads.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?;
    /// let tex = TextureObject::new(&ResourceDesc::Array(a), &TextureDesc::default())?;
    /// assert!(matches!(tex.resource_desc(), ResourceDesc::Array(a) if a.width() == 64));
    /// # Ok(()) }
    /// ```
    pub fn resource_desc(&self) -> &ResourceDesc {
        &self.resource
    }

    /// How it samples.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::NONE)?;
    /// let sampling = TextureDesc::default().filter_mode(FilterMode::Linear);
    /// let tex = TextureObject::new(&ResourceDesc::Array(a), &sampling)?;
    /// assert_eq!(tex.texture_desc().filter_mode, FilterMode::Linear);
    /// # Ok(()) }
    /// ```
    pub fn texture_desc(&self) -> &TextureDesc {
        &self.texture
    }
}

impl Drop for TextureObject {
    fn drop(&mut self) {
        let _ = self.device.bind();
        // SAFETY: we created the object and destroy it once.
        let _ = unsafe { cuda::cuTexObjectDestroy(self.handle) };
    }
}

// SAFETY: the parameter is the 64-bit handle, and the pointer points at it.
unsafe impl KernelArg for TextureObject {
    fn as_kernel_param(&self) -> *mut c_void {
        (&self.handle as *const u64).cast_mut().cast()
    }
}

/// A surface object over a CUDA array created with
/// [`ArrayFlags::SURFACE_LOAD_STORE`]: kernels read and write it with
/// `surf1Dwrite`, `surf2Dread`, ... through a `cudaSurfaceObject_t`
/// parameter. It keeps the array alive.
pub struct SurfaceObject {
    handle: cuda::CUsurfObject,
    array: CudaArray,
}

impl std::fmt::Debug for SurfaceObject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SurfaceObject")
            .field("handle", &self.handle)
            .field("array", &self.array)
            .finish()
    }
}

impl SurfaceObject {
    /// Creates a surface object for `array`.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 64, 0, ArrayFlags::SURFACE_LOAD_STORE)?;
    /// let surf = SurfaceObject::new(&a)?; // pass `&surf` to a `cudaSurfaceObject_t` parameter
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the array lacks
    /// [`ArrayFlags::SURFACE_LOAD_STORE`]; the driver failed.
    pub fn new(array: &CudaArray) -> Result<SurfaceObject> {
        if !array.flags().contains(ArrayFlags::SURFACE_LOAD_STORE) {
            return Err(Error::InvalidArgument(
                "a surface object needs a CUDA array created with \
                 ArrayFlags::SURFACE_LOAD_STORE"
                    .to_string(),
            ));
        }
        array.device().bind()?;
        let res = ResourceDesc::Array(array.clone()).raw()?;
        let mut handle: cuda::CUsurfObject = 0;
        // SAFETY: an array resource of a live array; writes one handle.
        check("cuSurfObjectCreate", unsafe {
            cuda::cuSurfObjectCreate(&mut handle, &res)
        })?;
        Ok(SurfaceObject {
            handle,
            array: array.clone(),
        })
    }

    /// The 64-bit handle kernels receive.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::SURFACE_LOAD_STORE)?;
    /// let handle: u64 = SurfaceObject::new(&a)?.raw(); // the `cudaSurfaceObject_t` value
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> u64 {
        self.handle
    }

    /// The array it reads and writes.
    ///
    /// ```no_run
    /// use gpu_runtime::texture::*;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let desc = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
    /// let a = CudaArray::new(desc, 64, 0, 0, ArrayFlags::SURFACE_LOAD_STORE)?;
    /// assert_eq!(SurfaceObject::new(&a)?.array().width(), 64);
    /// # Ok(()) }
    /// ```
    pub fn array(&self) -> &CudaArray {
        &self.array
    }
}

impl Drop for SurfaceObject {
    fn drop(&mut self) {
        let _ = self.array.device().bind();
        // SAFETY: we created the object and destroy it once.
        let _ = unsafe { cuda::cuSurfObjectDestroy(self.handle) };
    }
}

// SAFETY: the parameter is the 64-bit handle, and the pointer points at it.
unsafe impl KernelArg for SurfaceObject {
    fn as_kernel_param(&self) -> *mut c_void {
        (&self.handle as *const u64).cast_mut().cast()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channel_formats_map_to_driver_formats() {
        use CUarray_format as F;
        let f = ChannelFormatDesc::new(32, 0, 0, 0, ChannelKind::Float);
        assert_eq!(f.array_format().unwrap(), (F::CU_AD_FORMAT_FLOAT, 1));
        assert_eq!(f.element_size(), 4);
        let f = ChannelFormatDesc::with_channels(ChannelKind::Unsigned, 8, 4);
        assert_eq!(f, ChannelFormatDesc::new(8, 8, 8, 8, ChannelKind::Unsigned));
        assert_eq!(
            f.array_format().unwrap(),
            (F::CU_AD_FORMAT_UNSIGNED_INT8, 4)
        );
        assert_eq!(f.element_size(), 4);
        let f = ChannelFormatDesc::with_channels(ChannelKind::Float, 16, 2);
        assert_eq!(f.array_format().unwrap(), (F::CU_AD_FORMAT_HALF, 2));
        let f = ChannelFormatDesc::with_channels(ChannelKind::Signed, 16, 1);
        assert_eq!(f.array_format().unwrap(), (F::CU_AD_FORMAT_SIGNED_INT16, 1));
        for bad in [
            ChannelFormatDesc::new(0, 0, 0, 0, ChannelKind::Float),
            ChannelFormatDesc::new(32, 32, 32, 0, ChannelKind::Float),
            ChannelFormatDesc::new(32, 16, 0, 0, ChannelKind::Float),
            ChannelFormatDesc::new(32, 0, 32, 0, ChannelKind::Float),
            ChannelFormatDesc::new(8, 0, 0, 0, ChannelKind::Float),
            ChannelFormatDesc::new(64, 0, 0, 0, ChannelKind::Signed),
        ] {
            assert!(bad.array_format().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn texture_desc_flags() {
        let float = ChannelFormatDesc::with_channels(ChannelKind::Float, 32, 1);
        let uint = ChannelFormatDesc::with_channels(ChannelKind::Unsigned, 8, 1);
        let d = TextureDesc {
            normalized_coords: true,
            filter_mode: FilterMode::Linear,
            address_mode: [AddressMode::Wrap, AddressMode::Border, AddressMode::Mirror],
            ..Default::default()
        };
        let raw = d.raw(float);
        assert_eq!(raw.flags, cuda::CU_TRSF_NORMALIZED_COORDINATES);
        assert_eq!(raw.filterMode, CUfilter_mode::CU_TR_FILTER_MODE_LINEAR);
        assert_eq!(
            raw.addressMode,
            [
                CUaddress_mode::CU_TR_ADDRESS_MODE_WRAP,
                CUaddress_mode::CU_TR_ADDRESS_MODE_BORDER,
                CUaddress_mode::CU_TR_ADDRESS_MODE_MIRROR
            ]
        );
        assert_eq!(
            TextureDesc::default().raw(uint).flags,
            cuda::CU_TRSF_READ_AS_INTEGER
        );
        let normalized = TextureDesc {
            read_mode: ReadMode::NormalizedFloat,
            ..Default::default()
        };
        assert_eq!(normalized.raw(uint).flags, 0);
    }

    #[test]
    fn array_flags_combine() {
        let f = ArrayFlags::SURFACE_LOAD_STORE | ArrayFlags::LAYERED;
        assert!(f.contains(ArrayFlags::LAYERED));
        assert!(f.contains(ArrayFlags::SURFACE_LOAD_STORE));
        assert!(!f.contains(ArrayFlags::CUBEMAP));
        assert!(ArrayFlags::NONE.contains(ArrayFlags::NONE));
    }
}
