//! What the driver knows about an address (`cuPointerGetAttributes`, CuPy's
//! `runtime.pointerGetAttributes`).

use std::ffi::{c_uint, c_void};

use gpu_sys::cuda::{self, CUmemorytype, CUpointer_attribute as Attr};

use crate::driver::{check, init};
use crate::{Device, DevicePtr, Result};

/// The kind of memory an address lies in (CUDA runtime's
/// `cudaMemoryType`, the same numbers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryType {
    /// Memory CUDA does not know: pageable host memory, or no memory at all
    /// (`cudaMemoryTypeUnregistered`).
    Unregistered = 0,
    /// Page-locked host memory: registered or allocated by CUDA
    /// (`cudaMemoryTypeHost`).
    Host = 1,
    /// Device memory (`cudaMemoryTypeDevice`).
    Device = 2,
    /// Managed (unified) memory (`cudaMemoryTypeManaged`).
    Managed = 3,
}

/// The attributes of one address (CuPy's `PointerAttributes`: `type`,
/// `device`, `devicePointer`, `hostPointer`), plus whether it is managed
/// and the allocation it lies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct PointerAttributes {
    /// The kind of memory.
    pub memory_type: MemoryType,
    /// The device the memory belongs to (for page-locked host memory, the
    /// device whose context registered or allocated it); `None` for
    /// memory CUDA does not know.
    pub device: Option<Device>,
    /// The address kernels use for it; `None` when the device cannot
    /// address it (pageable host memory, host memory not mapped).
    pub device_pointer: Option<DevicePtr>,
    /// The address the host uses for it; `None` for device memory.
    pub host_pointer: Option<usize>,
    /// Whether the memory is managed (`cuMemAllocManaged`).
    pub is_managed: bool,
    /// The start of the allocation the address lies in, and its size in
    /// bytes (a pool block lies inside a larger allocation); `None` for
    /// memory CUDA does not know.
    pub range: Option<(DevicePtr, usize)>,
}

/// The raw values the driver writes, before their meaning is decided.
#[derive(Debug, Clone, Copy, Default)]
struct Raw {
    memory_type: u64,
    device_pointer: u64,
    host_pointer: u64,
    is_managed: u64,
    ordinal: u64,
    range_start: u64,
    range_size: u64,
}

impl PointerAttributes {
    /// Asks the driver about `address` (a device address, or a host
    /// address as an integer). Never fails for an address CUDA does not
    /// know: that is [`MemoryType::Unregistered`].
    ///
    /// ```no_run
    /// use gpu_runtime::{MemoryType, PointerAttributes, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = alloc(256)?;
    /// let a = PointerAttributes::of(m.ptr().raw())?;
    /// assert_eq!(a.memory_type, MemoryType::Device);
    /// assert_eq!(a.device, Some(m.device()));
    /// let host = vec![0u8; 16];
    /// assert_eq!(PointerAttributes::of(host.as_ptr() as u64)?.memory_type, MemoryType::Unregistered);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No driver, or the driver failed.
    pub fn of(address: u64) -> Result<PointerAttributes> {
        init()?;
        // Some drivers want a current context even for this query.
        if let Ok(d) = Device::current() {
            d.bind()?;
        }
        let mut raw = Raw::default();
        let mut attrs = [
            Attr::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
            Attr::CU_POINTER_ATTRIBUTE_DEVICE_POINTER,
            Attr::CU_POINTER_ATTRIBUTE_HOST_POINTER,
            Attr::CU_POINTER_ATTRIBUTE_IS_MANAGED,
            Attr::CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
            Attr::CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
            Attr::CU_POINTER_ATTRIBUTE_RANGE_SIZE,
        ];
        // Each attribute is written as its own C type (an unsigned int, a
        // bool, a pointer, a size): into a zeroed 8-byte slot, which holds
        // the same number whatever the width on a little-endian machine
        // (every platform CUDA supports is).
        let mut data: [*mut c_void; 7] = [
            (&mut raw.memory_type as *mut u64).cast(),
            (&mut raw.device_pointer as *mut u64).cast(),
            (&mut raw.host_pointer as *mut u64).cast(),
            (&mut raw.is_managed as *mut u64).cast(),
            (&mut raw.ordinal as *mut u64).cast(),
            (&mut raw.range_start as *mut u64).cast(),
            (&mut raw.range_size as *mut u64).cast(),
        ];
        // SAFETY: seven attributes, each with an 8-byte slot that outlives
        // the call; an unknown address is reported through the values.
        check("cuPointerGetAttributes", unsafe {
            cuda::cuPointerGetAttributes(
                attrs.len() as c_uint,
                attrs.as_mut_ptr(),
                data.as_mut_ptr(),
                address,
            )
        })?;
        Ok(PointerAttributes::from_raw(raw))
    }

    /// What the raw values mean.
    fn from_raw(raw: Raw) -> PointerAttributes {
        let kind = raw.memory_type as u32;
        let is_managed = raw.is_managed as u8 != 0;
        let memory_type = if is_managed {
            MemoryType::Managed
        } else if kind == CUmemorytype::CU_MEMORYTYPE_HOST.0 {
            MemoryType::Host
        } else if kind == CUmemorytype::CU_MEMORYTYPE_DEVICE.0
            || kind == CUmemorytype::CU_MEMORYTYPE_ARRAY.0
        {
            MemoryType::Device
        } else if kind == CUmemorytype::CU_MEMORYTYPE_UNIFIED.0 {
            MemoryType::Managed
        } else {
            MemoryType::Unregistered
        };
        let known = memory_type != MemoryType::Unregistered;
        // The ordinal is a C int: -2 (cudaInvalidDeviceId) and the like
        // mean "none".
        let ordinal = raw.ordinal as u32 as i32;
        PointerAttributes {
            memory_type,
            device: (known && ordinal >= 0).then(|| Device::from_ordinal_unchecked(ordinal)),
            device_pointer: (known && raw.device_pointer != 0)
                .then_some(DevicePtr(raw.device_pointer)),
            host_pointer: (known && raw.host_pointer != 0).then_some(raw.host_pointer as usize),
            is_managed,
            range: (known && raw.range_size != 0)
                .then_some((DevicePtr(raw.range_start), raw.range_size as usize)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_values_map_to_cudas_memory_types() {
        let unknown = PointerAttributes::from_raw(Raw {
            ordinal: (-2i32) as u32 as u64,
            ..Raw::default()
        });
        assert_eq!(unknown.memory_type, MemoryType::Unregistered);
        assert_eq!(
            (unknown.device, unknown.device_pointer, unknown.range),
            (None, None, None)
        );

        let device = PointerAttributes::from_raw(Raw {
            memory_type: 2,
            device_pointer: 0x7f00_0000_1000,
            ordinal: 1,
            range_start: 0x7f00_0000_0000,
            range_size: 1 << 21,
            ..Raw::default()
        });
        assert_eq!(device.memory_type, MemoryType::Device);
        assert_eq!(device.device.map(Device::ordinal), Some(1));
        assert_eq!(device.device_pointer, Some(DevicePtr(0x7f00_0000_1000)));
        assert_eq!(device.host_pointer, None);
        assert_eq!(device.range, Some((DevicePtr(0x7f00_0000_0000), 1 << 21)));

        let host = PointerAttributes::from_raw(Raw {
            memory_type: 1,
            host_pointer: 0x5000,
            device_pointer: 0x5000,
            ordinal: 0,
            ..Raw::default()
        });
        assert_eq!(host.memory_type, MemoryType::Host);
        assert_eq!(host.host_pointer, Some(0x5000));

        // The driver reports managed memory as device memory with the
        // managed flag (a bool written into the low byte).
        let managed = PointerAttributes::from_raw(Raw {
            memory_type: 2,
            is_managed: 1,
            ..Raw::default()
        });
        assert_eq!(managed.memory_type, MemoryType::Managed);
        assert!(managed.is_managed);
        assert_eq!(MemoryType::Managed as i32, 3); // cudaMemoryTypeManaged
    }
}
