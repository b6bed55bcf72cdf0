//! Per-device resource limits (`cudaDeviceGetLimit`/`cudaDeviceSetLimit`,
//! `cuCtxGetLimit`/`cuCtxSetLimit` on the device's primary context) and
//! PCI bus id lookups.

use std::ffi::{CStr, CString, c_int};

use gpu_sys::cuda::{self, CUlimit};

use crate::driver::{check, init};
use crate::{Device, Error, Result};

/// A limit of a device's primary context (CUDA's `cudaLimit`). Limits are
/// per context, so a value set here holds for every user of the primary
/// context in this process (the CUDA runtime and CuPy included).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// Stack bytes per GPU thread (`cudaLimitStackSize`).
    StackSize,
    /// Bytes of the FIFO that device `printf` writes into
    /// (`cudaLimitPrintfFifoSize`).
    PrintfFifoSize,
    /// Bytes of the heap behind device `malloc`/`new`
    /// (`cudaLimitMallocHeapSize`).
    MallocHeapSize,
    /// Deepest grid nesting at which a dynamic-parallelism child may
    /// synchronize (`cudaLimitDevRuntimeSyncDepth`).
    DevRuntimeSyncDepth,
    /// Launches a dynamic-parallelism kernel may leave pending
    /// (`cudaLimitDevRuntimePendingLaunchCount`).
    DevRuntimePendingLaunchCount,
    /// L2 fetch granularity in bytes, a hint between 0 and 128
    /// (`cudaLimitMaxL2FetchGranularity`).
    MaxL2FetchGranularity,
    /// Bytes of L2 set aside for persisting accesses
    /// (`cudaLimitPersistingL2CacheSize`).
    PersistingL2CacheSize,
}

impl Limit {
    /// Every limit, in CUDA's order.
    pub const ALL: [Limit; 7] = [
        Limit::StackSize,
        Limit::PrintfFifoSize,
        Limit::MallocHeapSize,
        Limit::DevRuntimeSyncDepth,
        Limit::DevRuntimePendingLaunchCount,
        Limit::MaxL2FetchGranularity,
        Limit::PersistingL2CacheSize,
    ];

    /// The driver's `CUlimit`. The runtime's `cudaLimit` numbers the same
    /// limits the same way, so a CuPy user's integer maps through
    /// [`Limit::from_raw`].
    ///
    /// ```
    /// use gpu_runtime::Limit;
    /// assert_eq!(Limit::MallocHeapSize.raw().0, 2); // cudaLimitMallocHeapSize
    /// ```
    pub fn raw(self) -> CUlimit {
        match self {
            Limit::StackSize => CUlimit::CU_LIMIT_STACK_SIZE,
            Limit::PrintfFifoSize => CUlimit::CU_LIMIT_PRINTF_FIFO_SIZE,
            Limit::MallocHeapSize => CUlimit::CU_LIMIT_MALLOC_HEAP_SIZE,
            Limit::DevRuntimeSyncDepth => CUlimit::CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH,
            Limit::DevRuntimePendingLaunchCount => {
                CUlimit::CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT
            }
            Limit::MaxL2FetchGranularity => CUlimit::CU_LIMIT_MAX_L2_FETCH_GRANULARITY,
            Limit::PersistingL2CacheSize => CUlimit::CU_LIMIT_PERSISTING_L2_CACHE_SIZE,
        }
    }

    /// The limit CUDA numbers `value` (`cudaLimit`/`CUlimit`).
    ///
    /// ```
    /// use gpu_runtime::Limit;
    /// assert_eq!(Limit::from_raw(0)?, Limit::StackSize);
    /// assert!(Limit::from_raw(99).is_err());
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a number that names no limit here.
    pub fn from_raw(value: u32) -> Result<Limit> {
        Limit::ALL
            .into_iter()
            .find(|l| l.raw().0 == value)
            .ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "{value} is not a CUDA device limit (cudaLimit 0..=6: stack size, printf \
                     FIFO size, malloc heap size, device runtime sync depth, pending launch \
                     count, max L2 fetch granularity, persisting L2 cache size)"
                ))
            })
    }

    /// Checks a value before it reaches the driver, for the limits whose
    /// range CUDA documents.
    fn check_value(self, value: usize) -> Result<()> {
        if self == Limit::MaxL2FetchGranularity && value > 128 {
            return Err(Error::InvalidArgument(format!(
                "Device::set_limit(MaxL2FetchGranularity, {value}): the granularity is at most \
                 128 bytes"
            )));
        }
        Ok(())
    }
}

impl Device {
    /// The current value of `limit` for this device's primary context
    /// (CuPy's `runtime.deviceGetLimit`).
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Limit};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let heap = Device::current()?.limit(Limit::MallocHeapSize)?; // 8 MiB by default
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The device does not have the limit (a dynamic-parallelism limit on
    /// a device without it), or the driver failed.
    pub fn limit(self, limit: Limit) -> Result<usize> {
        self.bind()?;
        let mut v = 0usize;
        // SAFETY: writes one size; the device's context is current.
        check("cuCtxGetLimit", unsafe {
            cuda::cuCtxGetLimit(&mut v, limit.raw())
        })?;
        Ok(v)
    }

    /// Sets `limit` for this device's primary context (CuPy's
    /// `runtime.deviceSetLimit`). The driver may round the value (the
    /// stack size to its granularity, say): read it back with
    /// [`Device::limit`].
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Limit};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let dev = Device::current()?;
    /// dev.set_limit(Limit::PrintfFifoSize, 4 << 20)?; // room for more device printf
    /// assert!(dev.limit(Limit::PrintfFifoSize)? >= 4 << 20);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a value out of the limit's documented
    /// range; the driver refuses it (too large, or the heap size changed
    /// after a kernel that uses `malloc` ran), or failed.
    pub fn set_limit(self, limit: Limit, value: usize) -> Result<()> {
        limit.check_value(value)?;
        self.bind()?;
        // SAFETY: plain values; the device's context is current.
        check("cuCtxSetLimit", unsafe {
            cuda::cuCtxSetLimit(limit.raw(), value)
        })
    }

    /// The device's PCI bus id, `domain:bus:device.function` in hex as
    /// `nvidia-smi` prints it (CuPy's `runtime.deviceGetPCIBusId`).
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let id = Device::current()?.pci_bus_id()?; // "0000:3B:00.0"
    /// assert_eq!(Device::from_pci_bus_id(&id)?, Device::current()?);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn pci_bus_id(self) -> Result<String> {
        init()?;
        // 13 characters and the NUL are what CUDA documents; room to spare.
        let mut bus = [0 as std::ffi::c_char; 64];
        // SAFETY: the buffer holds 64 bytes, which the length passed says.
        check("cuDeviceGetPCIBusId", unsafe {
            cuda::cuDeviceGetPCIBusId(bus.as_mut_ptr(), bus.len() as c_int, self.ordinal())
        })?;
        // The driver NUL-terminates within `len`; the last byte is kept 0
        // so that the read below stops inside the buffer whatever it did.
        bus[bus.len() - 1] = 0;
        // SAFETY: NUL-terminated inside the buffer (just ensured).
        Ok(unsafe { CStr::from_ptr(bus.as_ptr()) }
            .to_string_lossy()
            .into_owned())
    }

    /// The device at PCI bus id `id` (CuPy's `runtime.deviceGetByPCIBusId`):
    /// `domain:bus:device.function`, `domain:bus:device` or
    /// `bus:device.function`, in hex, case-insensitive.
    ///
    /// ```no_run
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let dev = Device::from_pci_bus_id("0000:3b:00.0")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for text that is not a PCI bus id; the
    /// driver knows no device there, or failed.
    pub fn from_pci_bus_id(id: &str) -> Result<Device> {
        parse_pci_bus_id(id)?;
        init()?;
        let text = CString::new(id.trim()).map_err(|_| bad_pci_id(id))?;
        let mut dev = 0;
        // SAFETY: a NUL-terminated string; writes one device ordinal.
        check("cuDeviceGetByPCIBusId", unsafe {
            cuda::cuDeviceGetByPCIBusId(&mut dev, text.as_ptr())
        })?;
        Device::new(dev)
    }
}

fn bad_pci_id(id: &str) -> Error {
    Error::InvalidArgument(format!(
        "{id:?} is not a PCI bus id: expected domain:bus:device.function in hex, e.g. \
         \"0000:3b:00.0\" (domain and function may be left out)"
    ))
}

/// `(domain, bus, device, function)` of a PCI bus id in the forms the
/// driver accepts, so that bad text is refused with a clear message before
/// the driver's terse `CUDA_ERROR_INVALID_VALUE`.
pub(crate) fn parse_pci_bus_id(id: &str) -> Result<(u32, u8, u8, u8)> {
    let bad = || bad_pci_id(id);
    let t = id.trim();
    let parts: Vec<&str> = t.split(':').collect();
    let (domain, bus, rest) = match parts[..] {
        [d, b, r] => (Some(d), b, r),
        [b, r] => (None, b, r),
        _ => return Err(bad()),
    };
    let (dev, func) = match rest.split_once('.') {
        Some((d, f)) => (d, Some(f)),
        None if domain.is_some() => (rest, None),
        // "bus:device" alone is not a form the driver documents.
        None => return Err(bad()),
    };
    let hex = |s: &str, max_digits: usize| -> Result<u32> {
        if s.is_empty() || s.len() > max_digits || !s.bytes().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        u32::from_str_radix(s, 16).map_err(|_| bad())
    };
    let domain = domain.map_or(Ok(0), |d| hex(d, 8))?;
    let bus = hex(bus, 2)?;
    let dev = hex(dev, 2)?;
    let func = func.map_or(Ok(0), |f| hex(f, 1))?;
    // PCI numbers 32 devices per bus and 8 functions per device.
    if dev > 0x1f || func > 7 {
        return Err(bad());
    }
    Ok((domain, bus as u8, dev as u8, func as u8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_map_to_cuda_numbers_both_ways() {
        for (i, l) in Limit::ALL.into_iter().enumerate() {
            assert_eq!(l.raw().0, i as u32, "{l:?}");
            assert_eq!(Limit::from_raw(i as u32).unwrap(), l);
        }
        let e = Limit::from_raw(7).unwrap_err().to_string();
        assert!(e.contains("not a CUDA device limit"), "{e}");
    }

    #[test]
    fn l2_fetch_granularity_is_checked_before_the_driver() {
        assert!(Limit::MaxL2FetchGranularity.check_value(128).is_ok());
        let e = Limit::MaxL2FetchGranularity
            .check_value(129)
            .unwrap_err()
            .to_string();
        assert!(e.contains("at most 128"), "{e}");
        assert!(Limit::StackSize.check_value(usize::MAX).is_ok());
    }

    #[test]
    fn pci_bus_ids_parse_in_the_drivers_forms() {
        assert_eq!(parse_pci_bus_id("0000:3b:00.0").unwrap(), (0, 0x3b, 0, 0));
        assert_eq!(
            parse_pci_bus_id("0001:3B:1f.7").unwrap(),
            (1, 0x3b, 0x1f, 7)
        );
        assert_eq!(parse_pci_bus_id("0000:3b:00").unwrap(), (0, 0x3b, 0, 0));
        assert_eq!(parse_pci_bus_id(" 3b:02.1 ").unwrap(), (0, 0x3b, 2, 1));
        for bad in [
            "",
            "3b",
            "3b:00",
            "0000:3b:00.0:1",
            "0000:3g:00.0",
            "0000:3b:20.0",
            "0000:3b:00.8",
            "0000:100:00.0",
            "000000000:3b:00.0",
            "0000:3b:00.",
            "0000:3b:\u{0}0.0",
        ] {
            let e = parse_pci_bus_id(bad).unwrap_err().to_string();
            assert!(e.contains("is not a PCI bus id"), "{bad:?}: {e}");
        }
    }
}
