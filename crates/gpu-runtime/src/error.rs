//! The runtime's error type.

use gpu_sys::LoadError;

/// Everything that can go wrong in gpu-runtime.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A CUDA library or one of its functions could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A CUDA driver call failed.
    #[error("{call} failed: {name} ({code}): {description}")]
    Cuda {
        /// The driver function that failed.
        call: &'static str,
        /// The `CUresult` value.
        code: u32,
        /// `cuGetErrorName`'s text, e.g. `CUDA_ERROR_OUT_OF_MEMORY`.
        name: String,
        /// `cuGetErrorString`'s text.
        description: String,
    },
    /// An NVRTC call failed.
    #[error("{call} failed: {message}")]
    Nvrtc {
        /// The NVRTC function that failed.
        call: &'static str,
        /// The `nvrtcResult` value.
        code: u32,
        /// `nvrtcGetErrorString`'s text.
        message: String,
    },
    /// NVRTC rejected a program; the log says why.
    #[error("NVRTC could not compile `{name}` (options: {options}):\n{log}")]
    Compile {
        /// The program's name.
        name: String,
        /// The options it was compiled with.
        options: String,
        /// NVRTC's log.
        log: String,
    },
    /// An allocation could not be satisfied even after freeing cached blocks.
    #[error(
        "out of memory allocating {size} bytes (allocated so far: {used} bytes, \
         held by the pool: {total} bytes, limit: {limit})"
    )]
    OutOfMemory {
        /// Bytes asked for.
        size: usize,
        /// Bytes in use by live allocations of this pool.
        used: usize,
        /// Bytes held by the pool (in use plus cached).
        total: usize,
        /// The pool's limit, or "none".
        limit: String,
    },
    /// A host-device synchronization happened where
    /// [`allow_synchronize(false)`](crate::allow_synchronize) forbids it
    /// (CuPy's `cupyx.DeviceSynchronized`).
    #[error(transparent)]
    DeviceSynchronized(#[from] DeviceSynchronized),
    /// A device ordinal that does not exist.
    #[error("invalid device ordinal {ordinal}: there are {count} CUDA devices")]
    InvalidDevice {
        /// The ordinal asked for.
        ordinal: i32,
        /// How many devices there are.
        count: usize,
    },
    /// Two objects of different devices were combined.
    #[error("{operation}: {what} is on device {found}, expected device {expected}")]
    DeviceMismatch {
        /// The operation.
        operation: &'static str,
        /// What was on the wrong device.
        what: &'static str,
        /// Its device.
        found: i32,
        /// The device it should have been on.
        expected: i32,
    },
    /// An argument is outside what the call accepts.
    #[error("{0}")]
    InvalidArgument(String),
    /// A feature that this build or this device does not offer.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
}

/// Raised when device synchronization is detected while disallowed (CuPy's
/// `cupyx.DeviceSynchronized`): an operation that would make the host wait
/// for the device ran inside [`allow_synchronize(false)`](crate::allow_synchronize).
/// Carried by [`Error::DeviceSynchronized`]; its message keeps CuPy's words.
///
/// ```
/// use gpu_runtime::{DeviceSynchronized, Error, allow_synchronize, check_sync_allowed};
/// let _g = allow_synchronize(false);
/// match check_sync_allowed("Stream::synchronize") {
///     Err(Error::DeviceSynchronized(DeviceSynchronized { operation, .. })) => {
///         assert_eq!(operation, "Stream::synchronize")
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "device synchronization was detected while disallowed: {operation} would block the host \
     (inside allow_synchronize(false))"
)]
#[non_exhaustive]
pub struct DeviceSynchronized {
    /// What tried to synchronize.
    pub operation: &'static str,
}

impl DeviceSynchronized {
    /// The error for `operation`.
    ///
    /// ```
    /// let e = gpu_runtime::DeviceSynchronized::new("Event::synchronize");
    /// assert!(e.to_string().contains("Event::synchronize"));
    /// ```
    pub fn new(operation: &'static str) -> DeviceSynchronized {
        DeviceSynchronized { operation }
    }
}

/// The runtime's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Error>();
};
