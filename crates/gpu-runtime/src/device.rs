//! Devices: enumeration, properties, the per-thread current device.
//!
//! Cuprum uses each device's primary context (the one the CUDA runtime and
//! CuPy use too), retained once per process and made current on a thread on
//! demand, so arrays and kernels interoperate with other CUDA code.

use std::ffi::{CStr, c_int};
use std::marker::PhantomData;
use std::sync::{Mutex, OnceLock};

use gpu_sys::cuda::{self, CUcontext, CUdevice_attribute as Attr};

use crate::driver::{check, init};
use crate::scoped::{EntryId, Scoped};
use crate::sync::check_sync_allowed;
use crate::{Error, Result};

/// A CUDA device, by ordinal. Cheap to copy.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Device {
    ordinal: i32,
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<CUDA Device {}>", self.ordinal)
    }
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<CUDA Device {}>", self.ordinal)
    }
}

/// What `cuDeviceGetAttribute` and friends say about a device.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeviceProperties {
    /// Marketing name, e.g. "NVIDIA H200".
    pub name: String,
    /// Compute capability, e.g. `(9, 0)`.
    pub compute_capability: (i32, i32),
    /// Streaming multiprocessors.
    pub multiprocessor_count: i32,
    /// Global memory in bytes.
    pub total_memory: usize,
    /// L2 cache in bytes.
    pub l2_cache_size: i32,
    /// Shared memory a block may use without opting in, in bytes.
    pub shared_memory_per_block: i32,
    /// Shared memory a block may use after opting in, in bytes.
    pub shared_memory_per_block_optin: i32,
    /// Shared memory per multiprocessor, in bytes.
    pub shared_memory_per_multiprocessor: i32,
    /// Largest block.
    pub max_threads_per_block: i32,
    /// Resident threads per multiprocessor.
    pub max_threads_per_multiprocessor: i32,
    /// Threads in a warp.
    pub warp_size: i32,
    /// Largest grid, per dimension.
    pub max_grid_size: [i32; 3],
    /// 32-bit registers per block.
    pub registers_per_block: i32,
    /// Memory bus width in bits.
    pub memory_bus_width: i32,
    /// Whether the device supports stream-ordered allocation (`cuMemAllocAsync`).
    pub memory_pools_supported: bool,
    /// Whether the device shares a unified address space with the host.
    pub unified_addressing: bool,
    /// PCI bus id, e.g. "0000:3b:00.0".
    pub pci_bus_id: String,
}

impl DeviceProperties {
    /// The `sm_XY` architecture name NVRTC takes.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = Device::current()?.properties()?;
    /// let (major, minor) = Device::current()?.compute_capability()?;
    /// assert_eq!(p.arch(), format!("sm_{major}{minor}")); // "sm_90" on an H200
    /// # Ok(()) }
    /// ```
    pub fn arch(&self) -> String {
        format!(
            "sm_{}{}",
            self.compute_capability.0, self.compute_capability.1
        )
    }
}

struct DeviceState {
    context: CUcontext,
    properties: DeviceProperties,
}

// SAFETY: a CUcontext handle may be used from any thread (the driver is thread-safe).
unsafe impl Send for DeviceState {}
// SAFETY: as above; the state is immutable once built.
unsafe impl Sync for DeviceState {}

fn states() -> &'static Vec<OnceLock<Result<DeviceState>>> {
    static STATES: OnceLock<Vec<OnceLock<Result<DeviceState>>>> = OnceLock::new();
    STATES.get_or_init(|| {
        let n = Device::count().unwrap_or(0);
        (0..n).map(|_| OnceLock::new()).collect()
    })
}

thread_local! {
    /// The ordinals of the live [`DeviceGuard`]s.
    static CURRENT: Scoped<i32> = const { Scoped::new() };
    /// The thread's current device outside every guard: 0 until
    /// [`Device::use_device`] changes it. Per thread, as CUDA's current
    /// device is.
    ///
    /// Safe to keep: only the owning thread reads or writes it (a
    /// `thread_local!` `Cell`, so no other thread or stream can observe
    /// it), and only through `Device::current`, which every allocation
    /// reads at the call that allocates; nothing is deferred, so a later
    /// change affects only later calls, as CuPy's `Device.use()` does. No
    /// pointer or memory depends on it: arrays record their device when
    /// made.
    static BASE: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

impl Device {
    /// How many CUDA devices are visible.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let n = Device::count()?; // cupy.cuda.runtime.getDeviceCount()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver is missing or failed to initialise. A machine with a driver
    /// but no device gives 0.
    pub fn count() -> Result<usize> {
        static COUNT: OnceLock<Result<usize>> = OnceLock::new();
        COUNT
            .get_or_init(|| {
                match init() {
                    Ok(()) => {}
                    Err(Error::Unsupported(_)) => return Ok(0),
                    Err(e) => return Err(e),
                }
                let mut n: c_int = 0;
                // SAFETY: writes one int.
                check("cuDeviceGetCount", unsafe {
                    cuda::cuDeviceGetCount(&mut n)
                })?;
                Ok(n as usize)
            })
            .clone()
    }

    /// The device of the given ordinal.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let d = Device::new(0)?; // cupy.cuda.Device(0)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidDevice`] when there is no such device.
    pub fn new(ordinal: i32) -> Result<Device> {
        let count = Device::count()?;
        if ordinal < 0 || ordinal as usize >= count {
            return Err(Error::InvalidDevice { ordinal, count });
        }
        Ok(Device { ordinal })
    }

    /// A device the driver itself named (a pointer's device ordinal), so
    /// known to exist; also usable in host tests, which have no driver.
    pub(crate) fn from_ordinal_unchecked(ordinal: i32) -> Device {
        Device { ordinal }
    }

    /// The calling thread's current device: the innermost live
    /// [`Device::scoped`] guard's, else the last [`Device::use_device`]'s,
    /// else device 0.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let d = Device::current()?; // cupy.cuda.Device()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No device is available.
    pub fn current() -> Result<Device> {
        Device::new(current_ordinal())
    }

    /// The ordinal.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// assert_eq!(Device::new(0)?.ordinal(), 0);
    /// # Ok(()) }
    /// ```
    pub fn ordinal(self) -> i32 {
        self.ordinal
    }

    /// Makes this the calling thread's current device from now on (CuPy's
    /// `cupy.cuda.Device(n).use()`). Inside a [`Device::scoped`] guard it
    /// changes that scope's device, so the device from before the scope
    /// comes back when the guard drops, as after CuPy's `with` block.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// Device::new(0)?.use_device()?;
    /// assert_eq!(Device::current()?.ordinal(), 0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The device's context could not be made current.
    pub fn use_device(self) -> Result<()> {
        self.bind()?;
        if let Err(ordinal) = CURRENT.with(|c| c.replace_top(self.ordinal)) {
            BASE.with(|b| b.set(ordinal));
        }
        Ok(())
    }

    /// Makes this the calling thread's current device until the guard drops
    /// (CuPy's `with cupy.cuda.Device(n):`). Guards nest; the innermost live
    /// one decides, even when an outer one is dropped first.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// {
    ///     let _on = Device::new(0)?.scoped()?;
    ///     // allocations and launches here go to device 0
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The device's context could not be made current.
    pub fn scoped(self) -> Result<DeviceGuard> {
        self.bind()?;
        Ok(DeviceGuard {
            id: CURRENT.with(|c| c.push(self.ordinal)),
            _not_send: PhantomData,
        })
    }

    fn state(self) -> Result<&'static DeviceState> {
        let slot = states()
            .get(self.ordinal as usize)
            .ok_or(Error::InvalidDevice {
                ordinal: self.ordinal,
                count: states().len(),
            })?;
        slot.get_or_init(|| DeviceState::new(self))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The device's primary context.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let ctx = Device::current()?.context()?; // a `CUcontext` for another library
    /// assert!(!ctx.is_null());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The context could not be retained.
    pub fn context(self) -> Result<CUcontext> {
        self.state().map(|s| s.context)
    }

    /// Makes the device's primary context current on this thread if it is
    /// not already; every call into the driver for this device does this.
    ///
    /// The driver is asked each time (`cuCtxGetCurrent`, a thread-local
    /// read inside the driver): other code on the thread (the CUDA runtime,
    /// another library, `cuCtxSetCurrent` by hand) may have changed the
    /// current context since our last bind, so a cache of our own could lie.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// Device::new(0)?.bind()?; // before a raw driver call of your own on device 0
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The context could not be retained or set.
    #[inline]
    pub fn bind(self) -> Result<()> {
        let ctx = self.context()?;
        let mut current: CUcontext = std::ptr::null_mut();
        // SAFETY: writes one handle.
        check("cuCtxGetCurrent", unsafe {
            cuda::cuCtxGetCurrent(&mut current)
        })?;
        if current != ctx {
            // SAFETY: ctx is a retained primary context.
            check("cuCtxSetCurrent", unsafe { cuda::cuCtxSetCurrent(ctx) })?;
        }
        Ok(())
    }

    /// The device's properties (read once and cached).
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let p = Device::current()?.properties()?;
    /// println!("{} on {}", p.name, p.arch());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn properties(self) -> Result<&'static DeviceProperties> {
        self.state().map(|s| &s.properties)
    }

    /// `(major, minor)` compute capability.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (major, minor) = Device::current()?.compute_capability()?; // (9, 0) on an H200
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn compute_capability(self) -> Result<(i32, i32)> {
        Ok(self.properties()?.compute_capability)
    }

    /// Reads one attribute.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// use gpu_runtime::sys::cuda::CUdevice_attribute;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let dev = Device::current()?;
    /// let sms = dev.attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
    /// assert!(sms > 0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn attribute(self, attr: Attr) -> Result<i32> {
        init()?;
        let mut v: c_int = 0;
        // SAFETY: writes one int.
        check("cuDeviceGetAttribute", unsafe {
            cuda::cuDeviceGetAttribute(&mut v, attr, self.ordinal)
        })?;
        Ok(v)
    }

    /// `(free, total)` device memory in bytes, as the driver sees it.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (free, total) = Device::current()?.mem_info()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn mem_info(self) -> Result<(usize, usize)> {
        self.bind()?;
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: writes two sizes; the device's context is current.
        check("cuMemGetInfo", unsafe {
            cuda::cuMemGetInfo_v2(&mut free, &mut total)
        })?;
        Ok((free, total))
    }

    /// Waits for all work on the device.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// Device::current()?.synchronize()?; // dev.synchronize()
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::DeviceSynchronized`] inside `allow_synchronize(false)`,
    /// or an error of earlier asynchronous work.
    pub fn synchronize(self) -> Result<()> {
        check_sync_allowed("Device::synchronize")?;
        self.bind()?;
        // SAFETY: no arguments; the device's context is current.
        check("cuCtxSynchronize", unsafe { cuda::cuCtxSynchronize() })
    }

    /// Whether this device can read and write `peer`'s memory directly.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let ok = Device::new(0)?.can_access_peer(Device::new(0)?)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn can_access_peer(self, peer: Device) -> Result<bool> {
        init()?;
        let mut v: c_int = 0;
        // SAFETY: writes one int.
        check("cuDeviceCanAccessPeer", unsafe {
            cuda::cuDeviceCanAccessPeer(&mut v, self.ordinal, peer.ordinal)
        })?;
        Ok(v != 0)
    }

    /// Lets kernels on this device access `peer`'s memory. Enabling it twice
    /// is not an error.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let (d0, d1) = (Device::new(0)?, Device::new(1)?);
    /// if d0.can_access_peer(d1)? {
    ///     d0.enable_peer_access(d1)?; // kernels on d0 may now read d1's memory
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The devices cannot be peers, or the driver failed.
    pub fn enable_peer_access(self, peer: Device) -> Result<()> {
        if self == peer {
            return Ok(());
        }
        if !self.can_access_peer(peer)? {
            return Err(Error::Unsupported(format!(
                "device {} cannot access device {}'s memory (no peer path)",
                self.ordinal, peer.ordinal
            )));
        }
        static ENABLED: Mutex<Vec<(i32, i32)>> = Mutex::new(Vec::new());
        let mut enabled = ENABLED.lock().unwrap_or_else(|p| p.into_inner());
        if enabled.contains(&(self.ordinal, peer.ordinal)) {
            return Ok(());
        }
        self.bind()?;
        let peer_ctx = peer.context()?;
        // SAFETY: peer_ctx is a retained primary context; flags must be 0.
        let r = unsafe { cuda::cuCtxEnablePeerAccess(peer_ctx, 0) }?;
        if r != cuda::CUresult::CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED {
            check("cuCtxEnablePeerAccess", Ok(r))?;
        }
        enabled.push((self.ordinal, peer.ordinal));
        Ok(())
    }
}

impl DeviceState {
    fn new(device: Device) -> Result<DeviceState> {
        init()?;
        crate::nvrtc::preload();
        let dev = device.ordinal;
        let mut context: CUcontext = std::ptr::null_mut();
        // SAFETY: retains (creating if needed) the primary context; released never,
        // as the process keeps using it until exit.
        check("cuDevicePrimaryCtxRetain", unsafe {
            cuda::cuDevicePrimaryCtxRetain(&mut context, dev)
        })?;
        let attr = |a: Attr| device.attribute(a);
        let mut name = [0 as std::ffi::c_char; 256];
        // SAFETY: the buffer holds 256 bytes.
        check("cuDeviceGetName", unsafe {
            cuda::cuDeviceGetName(name.as_mut_ptr(), name.len() as c_int, dev)
        })?;
        // SAFETY: the driver wrote a NUL-terminated string into the buffer.
        let name = unsafe { CStr::from_ptr(name.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let mut total_memory = 0usize;
        // SAFETY: writes one size.
        check("cuDeviceTotalMem", unsafe {
            cuda::cuDeviceTotalMem_v2(&mut total_memory, dev)
        })?;
        let mut bus = [0 as std::ffi::c_char; 32];
        // SAFETY: the buffer holds 32 bytes.
        check("cuDeviceGetPCIBusId", unsafe {
            cuda::cuDeviceGetPCIBusId(bus.as_mut_ptr(), bus.len() as c_int, dev)
        })?;
        // SAFETY: NUL-terminated by the driver.
        let pci_bus_id = unsafe { CStr::from_ptr(bus.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let properties = DeviceProperties {
            name,
            compute_capability: (
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            multiprocessor_count: attr(Attr::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            total_memory,
            l2_cache_size: attr(Attr::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
            shared_memory_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
            shared_memory_per_block_optin: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
            shared_memory_per_multiprocessor: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )?,
            max_threads_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            max_threads_per_multiprocessor: attr(
                Attr::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            )?,
            warp_size: attr(Attr::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
            max_grid_size: [
                attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
                attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
            ],
            registers_per_block: attr(Attr::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
            memory_bus_width: attr(Attr::CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH)?,
            memory_pools_supported: attr(Attr::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)? != 0,
            unified_addressing: attr(Attr::CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)? != 0,
            pci_bus_id,
        };
        Ok(DeviceState {
            context,
            properties,
        })
    }
}

fn current_ordinal() -> i32 {
    CURRENT
        .with(Scoped::top)
        .unwrap_or_else(|| BASE.with(std::cell::Cell::get))
}

/// Ends its [`Device::scoped`] scope when dropped, and binds the
/// context of the device that is current then. Not `Send`: the current
/// device is per thread.
#[derive(Debug)]
#[must_use = "the device is current only while the guard lives"]
pub struct DeviceGuard {
    id: EntryId,
    _not_send: PhantomData<*const ()>,
}

impl Drop for DeviceGuard {
    fn drop(&mut self) {
        // At thread exit the stack may be gone already; nothing to rebind.
        if CURRENT.try_with(|c| c.remove(self.id)).is_ok() {
            // Best effort: a drop has no way to report a failure.
            let _ = Device {
                ordinal: current_ordinal(),
            }
            .bind();
        }
    }
}
