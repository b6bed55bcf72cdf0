//! The crate's error: NCCL's failures named by the operation, the NCCL
//! call and the rank, timeouts, argument checks, and the launcher
//! environment's mistakes.
//!
//! Cuprum's rule is one error for every layer (`gpu_array::Error`); NCCL's
//! failures need the rank and NCCL's own last-error text, which no variant
//! there carries yet, so this crate has its own type that converts into it
//! (`?` works in a function returning `cuprum::Result`): argument and
//! device errors become their NumPy-named variants, the rest
//! `Error::NumpyRuntime` with the full message (CuPy's `NcclError` is a
//! `RuntimeError`).

use std::time::Duration;

use crate::raw;

/// Result type of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong with NCCL.
///
/// ```no_run
/// use gpu_nccl::{Error, NcclCommunicator, get_unique_id};
/// # fn main() -> gpu_nccl::Result<()> {
/// match NcclCommunicator::init_rank(1, &get_unique_id()?, 0) {
///     Err(Error::Library { source, .. }) => eprintln!("no NCCL here: {source}"),
///     Err(e) => return Err(e),
///     Ok(comm) => println!("rank {} of {}", comm.rank_id(), comm.size()),
/// }
/// # Ok(()) }
/// ```
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An NCCL call returned a failure (CuPy's `NcclError`).
    #[error("{}", nccl_message(.operation, .call, *.rank, .name, .message, .last_error.as_deref()))]
    Nccl {
        /// Cuprum's operation (`"all_reduce"`, `"init_rank"`, ...).
        operation: String,
        /// The NCCL function (`"ncclAllReduce"`).
        call: &'static str,
        /// The communicator's rank and size, where there is one.
        rank: Option<(usize, usize)>,
        /// The `ncclResult_t` code.
        code: u32,
        /// Its name (`"ncclRemoteError"`).
        name: &'static str,
        /// What it means.
        message: &'static str,
        /// `ncclGetLastError`'s text, when NCCL had one.
        last_error: Option<String>,
    },
    /// A non-blocking communicator's work did not finish within its
    /// timeout; the communicator was aborted.
    #[error(
        "{operation} on rank {rank} of {nranks} did not complete within {timeout:?}; the \
         communicator was aborted (a peer may have died or never joined)"
    )]
    Timeout {
        /// The operation.
        operation: String,
        /// This process's rank.
        rank: usize,
        /// The communicator's size.
        nranks: usize,
        /// The timeout that passed.
        timeout: Duration,
    },
    /// The communicator was aborted (by [`crate::NcclCommunicator::abort`] or
    /// after a timeout) and cannot be used.
    #[error("{operation}: the communicator of rank {rank} was aborted and can no longer be used")]
    Aborted {
        /// The operation.
        operation: String,
        /// The communicator's rank.
        rank: usize,
    },
    /// NCCL (`libnccl.so.2`) or one of its functions could not be loaded.
    #[error(
        "NCCL is needed for {operation} but could not be loaded: {source}\n(pip's NCCL: set \
         CUPRUM_NCCL_PATH to the folder holding libnccl.so.2, e.g. \
         .../site-packages/nvidia/nccl/lib)"
    )]
    Library {
        /// The operation.
        operation: String,
        /// Where the loader looked.
        source: gpu_sys::LoadError,
    },
    /// An argument NCCL cannot take: a size, dtype, layout, root or peer
    /// (NumPy's `ValueError` or `TypeError`).
    #[error("{operation}: {message}")]
    Argument {
        /// The operation.
        operation: String,
        /// What is wrong, naming the operand.
        message: String,
    },
    /// An array, or the stream, on another device than the communicator's.
    #[error(
        "{operation}: the {operand} is on device {found}, the communicator on device {expected}"
    )]
    DeviceMismatch {
        /// The operation.
        operation: String,
        /// `"send array"`, `"stream"`, ...
        operand: &'static str,
        /// Its device.
        found: i32,
        /// The communicator's device.
        expected: i32,
    },
    /// A call at the wrong moment: a communicator held by another thread's
    /// open group, a send to oneself outside a group, ...
    #[error("{operation}: {message}")]
    Usage {
        /// The operation.
        operation: String,
        /// What is wrong.
        message: String,
    },
    /// The launcher's environment is incomplete or inconsistent
    /// ([`crate::distributed`]).
    #[error("distributed: {0}")]
    Env(String),
    /// An array operation failed.
    #[error(transparent)]
    Array(#[from] gpu_array::Error),
    /// The CUDA runtime failed (device, stream, memory).
    #[error(transparent)]
    Runtime(#[from] gpu_runtime::Error),
}

fn nccl_message(
    operation: &str,
    call: &str,
    rank: Option<(usize, usize)>,
    name: &str,
    message: &str,
    last: Option<&str>,
) -> String {
    let on = rank.map_or(String::new(), |(r, n)| format!(" on rank {r} of {n}"));
    let mut s = format!("{operation}{on}: {call} failed: {name} ({message})");
    if let Some(l) = last {
        s.push_str("; NCCL says: ");
        s.push_str(l);
    }
    s
}

/// The name and meaning of an `ncclResult_t` (nccl.h's, and
/// `ncclGetErrorString`'s words).
pub(crate) fn result_text(code: u32) -> (&'static str, &'static str) {
    match code {
        0 => ("ncclSuccess", "no error"),
        1 => (
            "ncclUnhandledCudaError",
            "unhandled cuda error (run with NCCL_DEBUG=INFO for details)",
        ),
        2 => (
            "ncclSystemError",
            "unhandled system error (run with NCCL_DEBUG=INFO for details)",
        ),
        3 => ("ncclInternalError", "internal error in NCCL"),
        4 => (
            "ncclInvalidArgument",
            "invalid argument (run with NCCL_DEBUG=WARN for details)",
        ),
        5 => (
            "ncclInvalidUsage",
            "invalid usage (run with NCCL_DEBUG=WARN for details)",
        ),
        6 => (
            "ncclRemoteError",
            "remote process exited or there was a network error",
        ),
        7 => ("ncclInProgress", "NCCL operation in progress"),
        _ => ("ncclUnknownResult", "an unknown NCCL result"),
    }
}

/// The error of a failed status `code` of `call`.
pub(crate) fn nccl_error(
    operation: &str,
    call: &'static str,
    rank: Option<(usize, usize)>,
    code: u32,
    comm: Option<raw::Comm>,
) -> Error {
    let (name, message) = result_text(code);
    Error::Nccl {
        operation: operation.to_string(),
        call,
        rank,
        code,
        name,
        message,
        last_error: raw::last_error(comm),
    }
}

/// `Ok(code)` for success or in-progress, the error otherwise.
pub(crate) fn check(
    operation: &str,
    call: &'static str,
    rank: Option<(usize, usize)>,
    status: raw::Status,
    comm: Option<raw::Comm>,
) -> Result<u32> {
    match status {
        Ok(c @ (raw::SUCCESS | raw::IN_PROGRESS)) => Ok(c),
        Ok(code) => Err(nccl_error(operation, call, rank, code, comm)),
        Err(source) => Err(Error::Library {
            operation: operation.to_string(),
            source,
        }),
    }
}

pub(crate) fn argument(operation: &str, message: impl Into<String>) -> Error {
    Error::Argument {
        operation: operation.to_string(),
        message: message.into(),
    }
}

pub(crate) fn usage(operation: &str, message: impl Into<String>) -> Error {
    Error::Usage {
        operation: operation.to_string(),
        message: message.into(),
    }
}

impl From<Error> for gpu_array::Error {
    /// Into Cuprum's one error: arrays' and the runtime's errors as they
    /// were, device mismatches as `DeviceMismatch`, argument errors as
    /// `Value`, the rest as `NumpyRuntime` (CuPy's `NcclError` is a
    /// `RuntimeError`) with the whole message.
    fn from(e: Error) -> gpu_array::Error {
        match e {
            Error::Array(e) => e,
            Error::Runtime(e) => gpu_array::Error::Runtime(e),
            Error::Library { source, .. } => gpu_array::Error::Library {
                library: "NCCL",
                operation: "an NCCL call",
                source,
            },
            e @ (Error::Argument { .. } | Error::DeviceMismatch { .. }) => {
                gpu_array::Error::Value(e.to_string())
            }
            e => gpu_array::Error::NumpyRuntime(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_is_send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }

    #[test]
    fn nccl_errors_name_operation_call_and_rank() {
        let e = Error::Nccl {
            operation: "all_reduce".into(),
            call: "ncclAllReduce",
            rank: Some((1, 4)),
            code: 6,
            name: result_text(6).0,
            message: result_text(6).1,
            last_error: Some("socket closed".into()),
        };
        assert_eq!(
            e.to_string(),
            "all_reduce on rank 1 of 4: ncclAllReduce failed: ncclRemoteError (remote process \
             exited or there was a network error); NCCL says: socket closed"
        );
        let t = Error::Timeout {
            operation: "init_rank".into(),
            rank: 0,
            nranks: 2,
            timeout: Duration::from_secs(5),
        };
        assert!(
            t.to_string()
                .starts_with("init_rank on rank 0 of 2 did not complete within 5s")
        );
    }

    #[test]
    fn check_passes_success_and_in_progress() {
        assert_eq!(check("x", "ncclX", None, Ok(0), None).unwrap(), 0);
        assert_eq!(check("x", "ncclX", None, Ok(7), None).unwrap(), 7);
        let e = check("x", "ncclX", None, Ok(4), None).unwrap_err();
        assert!(matches!(
            e,
            Error::Nccl {
                code: 4,
                name: "ncclInvalidArgument",
                ..
            }
        ));
    }

    #[test]
    fn converts_into_cuprums_error() {
        let a: gpu_array::Error = argument("broadcast", "root 3 is out of range").into();
        assert!(
            matches!(a, gpu_array::Error::Value(ref m) if m == "broadcast: root 3 is out of range")
        );
        let t: gpu_array::Error = Error::Env("no launcher".into()).into();
        assert!(matches!(t, gpu_array::Error::NumpyRuntime(_)));
    }
}
