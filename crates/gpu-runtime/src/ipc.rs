//! Sharing device memory and events between processes on one machine
//! (CUDA IPC; CuPy's `runtime.ipcGetMemHandle`, `ipcOpenMemHandle`,
//! `ipcCloseMemHandle`, `ipcGetEventHandle`, `ipcOpenEventHandle`).
//!
//! A handle is plain bytes to pass to another process (a pipe, a socket,
//! an environment variable: [`IpcMemHandle::to_hex`]). The other process
//! opens it into a [`Memory`] that does not own the allocation and closes
//! its mapping on drop, or into an [`Event`].
//!
//! The driver's memory handle names a whole allocation, while a Cuprum
//! [`Memory`] is often a block inside one (the pool carves large
//! allocations up): an [`IpcMemHandle`] therefore carries the block's
//! offset in its allocation and its size along with the driver's 64
//! bytes, and opening it points at the block, checked against the
//! allocation the driver maps.

use std::ffi::c_uint;

use gpu_sys::cuda::{self, CUevent, CUipcEventHandle, CUipcMemHandle};

use crate::driver::check;
use crate::{Device, DevicePtr, Error, Event, Memory, Result};

/// The driver's handle size (`CU_IPC_HANDLE_SIZE`).
pub const IPC_HANDLE_SIZE: usize = cuda::CU_IPC_HANDLE_SIZE as usize;

/// A handle to device memory of this process that another process can
/// open (CuPy's `ipcGetMemHandle` result): the driver's handle of the
/// allocation, and where in it the memory lies.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpcMemHandle {
    raw: [u8; IPC_HANDLE_SIZE],
    offset: u64,
    size: u64,
}

impl std::fmt::Debug for IpcMemHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IpcMemHandle")
            .field("offset", &self.offset)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl IpcMemHandle {
    /// Bytes of [`to_bytes`](Self::to_bytes): the driver's 64, then the
    /// offset and the size as little-endian `u64`s.
    pub const ENCODED_LEN: usize = IPC_HANDLE_SIZE + 16;

    /// A handle from its parts: the driver's 64 bytes (CuPy's handle),
    /// the memory's offset in that allocation and its size.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// let h = IpcMemHandle::from_parts([7; 64], 512, 4096)?;
    /// assert_eq!((h.offset(), h.size()), (512, 4096));
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `offset + size` overflows.
    pub fn from_parts(raw: [u8; IPC_HANDLE_SIZE], offset: u64, size: u64) -> Result<Self> {
        if offset.checked_add(size).is_none() {
            return Err(Error::InvalidArgument(format!(
                "IpcMemHandle: offset {offset} + size {size} overflows"
            )));
        }
        Ok(IpcMemHandle { raw, offset, size })
    }

    /// The driver's handle of the whole allocation.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// assert_eq!(IpcMemHandle::from_parts([1; 64], 0, 8)?.raw(), [1; 64]);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn raw(&self) -> [u8; IPC_HANDLE_SIZE] {
        self.raw
    }

    /// Where the memory starts in the allocation.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// assert_eq!(IpcMemHandle::from_parts([0; 64], 256, 8)?.offset(), 256);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The memory's size in bytes.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// assert_eq!(IpcMemHandle::from_parts([0; 64], 0, 8)?.size(), 8);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The handle as bytes for another process.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// let h = IpcMemHandle::from_parts([3; 64], 16, 32)?;
    /// assert_eq!(IpcMemHandle::from_bytes(&h.to_bytes())?, h);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn to_bytes(&self) -> [u8; Self::ENCODED_LEN] {
        let mut out = [0u8; Self::ENCODED_LEN];
        out[..IPC_HANDLE_SIZE].copy_from_slice(&self.raw);
        out[IPC_HANDLE_SIZE..IPC_HANDLE_SIZE + 8].copy_from_slice(&self.offset.to_le_bytes());
        out[IPC_HANDLE_SIZE + 8..].copy_from_slice(&self.size.to_le_bytes());
        out
    }

    /// The handle from [`to_bytes`](Self::to_bytes)' bytes.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// assert!(IpcMemHandle::from_bytes(&[0; 10]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a wrong length or an overflowing
    /// offset and size.
    pub fn from_bytes(bytes: &[u8]) -> Result<IpcMemHandle> {
        if bytes.len() != Self::ENCODED_LEN {
            return Err(Error::InvalidArgument(format!(
                "IpcMemHandle::from_bytes: {} bytes, expected {}",
                bytes.len(),
                Self::ENCODED_LEN
            )));
        }
        let mut raw = [0u8; IPC_HANDLE_SIZE];
        raw.copy_from_slice(&bytes[..IPC_HANDLE_SIZE]);
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(w)
        };
        IpcMemHandle::from_parts(raw, word(IPC_HANDLE_SIZE), word(IPC_HANDLE_SIZE + 8))
    }

    /// The handle as lower-case hex text (160 characters).
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// let h = IpcMemHandle::from_parts([0xab; 64], 0, 1)?;
    /// assert_eq!(IpcMemHandle::from_hex(&h.to_hex())?, h);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn to_hex(&self) -> String {
        hex_encode(&self.to_bytes())
    }

    /// The handle from [`to_hex`](Self::to_hex)'s text.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// assert!(IpcMemHandle::from_hex("zz").is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for text that is not such a handle.
    pub fn from_hex(text: &str) -> Result<IpcMemHandle> {
        IpcMemHandle::from_bytes(&hex_decode("IpcMemHandle::from_hex", text)?)
    }
}

/// A handle to an interprocess event of this process that another process
/// can open (CuPy's `ipcGetEventHandle` result).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct IpcEventHandle {
    raw: [u8; IPC_HANDLE_SIZE],
}

impl std::fmt::Debug for IpcEventHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IpcEventHandle").finish_non_exhaustive()
    }
}

impl IpcEventHandle {
    /// A handle from the driver's 64 bytes.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// assert_eq!(IpcEventHandle::from_raw([5; 64]).to_bytes(), [5; 64]);
    /// ```
    pub fn from_raw(raw: [u8; IPC_HANDLE_SIZE]) -> IpcEventHandle {
        IpcEventHandle { raw }
    }

    /// The handle's 64 bytes.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// let h = IpcEventHandle::from_raw([9; 64]);
    /// assert_eq!(IpcEventHandle::from_bytes(&h.to_bytes())?, h);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn to_bytes(&self) -> [u8; IPC_HANDLE_SIZE] {
        self.raw
    }

    /// The handle from its 64 bytes.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// assert!(IpcEventHandle::from_bytes(&[0; 63]).is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a length other than 64.
    pub fn from_bytes(bytes: &[u8]) -> Result<IpcEventHandle> {
        let raw: [u8; IPC_HANDLE_SIZE] = bytes.try_into().map_err(|_| {
            Error::InvalidArgument(format!(
                "IpcEventHandle::from_bytes: {} bytes, expected {IPC_HANDLE_SIZE}",
                bytes.len()
            ))
        })?;
        Ok(IpcEventHandle { raw })
    }

    /// The handle as lower-case hex text (128 characters).
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// let h = IpcEventHandle::from_raw([0x5a; 64]);
    /// assert_eq!(IpcEventHandle::from_hex(&h.to_hex())?, h);
    /// # Ok::<(), gpu_runtime::Error>(())
    /// ```
    pub fn to_hex(&self) -> String {
        hex_encode(&self.raw)
    }

    /// The handle from [`to_hex`](Self::to_hex)'s text.
    ///
    /// ```
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// assert!(IpcEventHandle::from_hex("00").is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for text that is not such a handle.
    pub fn from_hex(text: &str) -> Result<IpcEventHandle> {
        IpcEventHandle::from_bytes(&hex_decode("IpcEventHandle::from_hex", text)?)
    }
}

fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

fn hex_decode(operation: &str, text: &str) -> Result<Vec<u8>> {
    let t = text.trim().as_bytes();
    let bad = || Error::InvalidArgument(format!("{operation}: {text:?} is not hex text"));
    if !t.len().is_multiple_of(2) {
        return Err(bad());
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    t.chunks_exact(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)
}

fn to_cu_mem(raw: [u8; IPC_HANDLE_SIZE]) -> CUipcMemHandle {
    let mut h = CUipcMemHandle::default();
    for (d, s) in h.reserved.iter_mut().zip(raw) {
        *d = s as std::ffi::c_char;
    }
    h
}

fn from_cu(reserved: &[std::ffi::c_char; IPC_HANDLE_SIZE]) -> [u8; IPC_HANDLE_SIZE] {
    reserved.map(|c| c as u8)
}

/// The allocation `ptr` lies in: `(base, size)`.
fn address_range(ptr: DevicePtr) -> Result<(u64, usize)> {
    let (mut base, mut size) = (0u64, 0usize);
    // SAFETY: writes one address and one size; an unknown pointer is an
    // error, not a dereference.
    check("cuMemGetAddressRange", unsafe {
        cuda::cuMemGetAddressRange_v2(&mut base, &mut size, ptr.raw())
    })?;
    Ok((base, size))
}

impl Memory {
    /// A handle another process can open to use this memory (CuPy's
    /// `runtime.ipcGetMemHandle`). This process must keep the memory
    /// alive (and out of its pool's reuse) while others use it: the
    /// driver does not keep it for them.
    ///
    /// ```no_run
    /// use gpu_runtime::alloc;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = alloc(1 << 20)?;
    /// let text = m.ipc_handle()?.to_hex(); // send to the other process
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for empty memory; the driver refuses
    /// memory it cannot export (stream-ordered, managed or host memory),
    /// or failed.
    pub fn ipc_handle(&self) -> Result<IpcMemHandle> {
        if self.size() == 0 {
            return Err(Error::InvalidArgument(
                "Memory::ipc_handle: empty memory has no allocation to share".to_string(),
            ));
        }
        self.device().bind()?;
        let (base, _) = address_range(self.ptr())?;
        let mut h = CUipcMemHandle::default();
        // SAFETY: writes one handle; `base` is the start of a live allocation.
        check("cuIpcGetMemHandle", unsafe {
            cuda::cuIpcGetMemHandle(&mut h, base)
        })?;
        IpcMemHandle::from_parts(
            from_cu(&h.reserved),
            self.ptr().raw() - base,
            self.size() as u64,
        )
    }

    /// Opens memory another process exported with
    /// [`Memory::ipc_handle`] in `device`'s context (CuPy's
    /// `runtime.ipcOpenMemHandle`, with lazy peer access). The result
    /// does not own the allocation: its drop closes this process's
    /// mapping (`ipcCloseMemHandle`; [`Memory::free`] reports the answer).
    /// A process cannot open its own handles.
    ///
    /// ```no_run
    /// use gpu_runtime::ipc::IpcMemHandle;
    /// use gpu_runtime::{Device, Memory};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// # let text = String::new();
    /// let handle = IpcMemHandle::from_hex(&text)?; // from the exporting process
    /// // SAFETY: the exporter keeps the memory alive while we use it.
    /// let m = unsafe { Memory::from_ipc_handle(&handle, Device::current()?)? };
    /// let mut head = [0u8; 4];
    /// m.copy_to_host(&mut head)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// The exporting process must keep the memory allocated, and not hand
    /// it to another use, for as long as the returned `Memory` (or any
    /// copy of its pointer) is used; the driver does not enforce it, and a
    /// write after the exporter reused the memory corrupts its data.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the handle's range overruns the
    /// allocation the driver maps (a forged or mismatched handle); the
    /// driver refused the handle (this process's own, another machine's,
    /// a freed allocation) or failed.
    pub unsafe fn from_ipc_handle(handle: &IpcMemHandle, device: Device) -> Result<Memory> {
        device.bind()?;
        let mut base = 0u64;
        let lazy = cuda::CUipcMem_flags::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS.0;
        // SAFETY: writes one address; the handle is plain bytes the driver
        // validates.
        check("cuIpcOpenMemHandle", unsafe {
            cuda::cuIpcOpenMemHandle_v2(&mut base, to_cu_mem(handle.raw), lazy as c_uint)
        })?;
        let close = |e: Error| {
            // SAFETY: opened just above; closed once, on this error path.
            let _ = unsafe { cuda::cuIpcCloseMemHandle(base) };
            e
        };
        let (_, mapped) = address_range(DevicePtr(base)).map_err(close)?;
        let fits = handle
            .offset
            .checked_add(handle.size)
            .is_some_and(|end| end <= mapped as u64);
        if !fits {
            return Err(close(Error::InvalidArgument(format!(
                "Memory::from_ipc_handle: {} bytes at offset {} overrun the {mapped}-byte \
                 allocation the handle maps",
                handle.size, handle.offset
            ))));
        }
        let size = usize::try_from(handle.size).map_err(|_| {
            close(Error::InvalidArgument(
                "Memory::from_ipc_handle: the size does not fit this machine's usize".into(),
            ))
        })?;
        Ok(Memory::from_ipc(
            base,
            DevicePtr(base + handle.offset),
            size,
            device,
        ))
    }
}

impl Event {
    /// A handle another process can open to wait on this event (CuPy's
    /// `runtime.ipcGetEventHandle`); the event must have been created with
    /// [`EventOptions::interprocess`](crate::EventOptions), which also
    /// turns timing off.
    ///
    /// ```no_run
    /// use gpu_runtime::{Event, EventOptions};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let e = Event::new(EventOptions::default().interprocess(true))?;
    /// let text = e.ipc_handle()?.to_hex();
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an event not created interprocess;
    /// the driver failed.
    pub fn ipc_handle(&self) -> Result<IpcEventHandle> {
        if !self.is_interprocess() {
            return Err(Error::InvalidArgument(
                "Event::ipc_handle: the event was not created with \
                 EventOptions::interprocess(true)"
                    .to_string(),
            ));
        }
        self.device().bind()?;
        let mut h = CUipcEventHandle::default();
        // SAFETY: writes one handle of a live interprocess event.
        check("cuIpcGetEventHandle", unsafe {
            cuda::cuIpcGetEventHandle(&mut h, self.raw())
        })?;
        Ok(IpcEventHandle {
            raw: from_cu(&h.reserved),
        })
    }

    /// Opens an event another process exported (CuPy's
    /// `runtime.ipcOpenEventHandle`) in `device`'s context: record it,
    /// wait on it, query it, as any event without timing; destroyed here
    /// on drop.
    ///
    /// ```no_run
    /// use gpu_runtime::ipc::IpcEventHandle;
    /// use gpu_runtime::{Device, Event, Stream};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// # let text = String::new();
    /// let e = Event::from_ipc_handle(&IpcEventHandle::from_hex(&text)?, Device::current()?)?;
    /// Stream::current()?.wait_event(&e)?; // after the other process's work
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver refused the handle (this process's own, a destroyed
    /// event) or failed.
    pub fn from_ipc_handle(handle: &IpcEventHandle, device: Device) -> Result<Event> {
        device.bind()?;
        let mut h = CUipcEventHandle::default();
        for (d, s) in h.reserved.iter_mut().zip(handle.raw) {
            *d = s as std::ffi::c_char;
        }
        let mut raw: CUevent = std::ptr::null_mut();
        // SAFETY: writes one event handle; the handle is plain bytes the
        // driver validates.
        check("cuIpcOpenEventHandle", unsafe {
            cuda::cuIpcOpenEventHandle(&mut raw, h)
        })?;
        // Interprocess events are created with timing disabled.
        Ok(Event::from_owned_raw(
            raw,
            device,
            crate::event::CU_EVENT_DISABLE_TIMING | crate::event::CU_EVENT_INTERPROCESS,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_handles_round_trip_through_bytes_and_hex() {
        let mut raw = [0u8; 64];
        for (i, b) in raw.iter_mut().enumerate() {
            *b = (i * 37 + 5) as u8;
        }
        let h = IpcMemHandle::from_parts(raw, 0x1234_5678_9abc, 1 << 40).unwrap();
        let bytes = h.to_bytes();
        assert_eq!(bytes.len(), 80);
        assert_eq!(IpcMemHandle::from_bytes(&bytes).unwrap(), h);
        let hex = h.to_hex();
        assert_eq!(hex.len(), 160);
        assert_eq!(IpcMemHandle::from_hex(&hex).unwrap(), h);
        assert_eq!(IpcMemHandle::from_hex(&hex.to_uppercase()).unwrap(), h);
        // The driver's bytes survive the C char round trip, signed or not.
        assert_eq!(from_cu(&to_cu_mem(raw).reserved), raw);
    }

    #[test]
    fn malformed_handles_are_refused() {
        assert!(IpcMemHandle::from_parts([0; 64], u64::MAX, 1).is_err());
        let mut bytes = IpcMemHandle::from_parts([0; 64], 0, 1).unwrap().to_bytes();
        bytes[64..72].copy_from_slice(&u64::MAX.to_le_bytes());
        let e = IpcMemHandle::from_bytes(&bytes).unwrap_err().to_string();
        assert!(e.contains("overflows"), "{e}");
        for bad in ["", "0", "zz", &"0".repeat(158), &"g".repeat(160)] {
            assert!(IpcMemHandle::from_hex(bad).is_err(), "{bad:?}");
        }
        assert!(IpcEventHandle::from_hex(&"0".repeat(130)).is_err());
        assert!(IpcEventHandle::from_hex(&"f".repeat(128)).is_ok());
    }

    #[test]
    fn handles_do_not_print_their_secret_bytes() {
        let h = IpcMemHandle::from_parts([0xee; 64], 1, 2).unwrap();
        assert!(!format!("{h:?}").contains("238"), "{h:?}");
    }
}
