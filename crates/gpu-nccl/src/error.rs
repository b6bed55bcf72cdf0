//! NCCL's failures as Cuprum's one error ([`gpu_array::Error`]): a failed
//! call is [`Error::Nccl`] (CuPy's `NcclError`, a `RuntimeError`) naming
//! the operation, the NCCL call, the rank and NCCL's last-error text; a
//! timeout [`Error::Timeout`], a use after an abort [`Error::Aborted`]; NCCL
//! missing [`Error::Library`]. Argument and device errors are `Value`
//! errors naming the operation (NumPy's `ValueError`), a call at the wrong
//! moment and a launcher's incomplete environment `NumpyRuntime` errors.
//! So a function mixing collectives and array operations uses `?` on both
//! and returns `cuprum::Result`.

use std::time::Duration;

pub use gpu_array::error::NcclFailure;
pub use gpu_array::{Error, Result};

use crate::raw;

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
    Error::Nccl(Box::new(NcclFailure {
        operation: operation.to_string(),
        call,
        rank,
        code,
        name,
        message,
        last_error: raw::last_error(comm),
    }))
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
            library: "NCCL",
            operation: operation.to_string().into(),
            source,
        }),
    }
}

/// An argument NCCL cannot take (a size, dtype, layout, root or peer):
/// NumPy's `ValueError`, naming the operation.
pub(crate) fn argument(operation: &str, message: impl Into<String>) -> Error {
    Error::Value(format!("{operation}: {}", message.into()))
}

/// A call at the wrong moment (a communicator held by another thread's
/// open group, a send to oneself outside a group, ...): a `RuntimeError`.
pub(crate) fn usage(operation: &str, message: impl Into<String>) -> Error {
    Error::NumpyRuntime(format!("{operation}: {}", message.into()))
}

/// An array, or the stream, on another device than the communicator's.
pub(crate) fn device_mismatch(operation: &str, operand: &str, found: i32, expected: i32) -> Error {
    Error::Value(format!(
        "{operation}: the {operand} is on device {found}, the communicator on device {expected}"
    ))
}

/// The launcher's environment is incomplete or inconsistent
/// ([`crate::distributed`]).
pub(crate) fn env_error(message: impl Into<String>) -> Error {
    Error::NumpyRuntime(format!("distributed: {}", message.into()))
}

/// A communicator's work that did not finish within `timeout`.
pub(crate) fn timeout(operation: &str, rank: usize, nranks: usize, timeout: Duration) -> Error {
    Error::Timeout {
        operation: operation.to_string(),
        rank,
        nranks,
        timeout,
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
        let e = Error::Nccl(Box::new(NcclFailure {
            operation: "all_reduce".into(),
            call: "ncclAllReduce",
            rank: Some((1, 4)),
            code: 6,
            name: result_text(6).0,
            message: result_text(6).1,
            last_error: Some("socket closed".into()),
        }));
        assert_eq!(
            e.to_string(),
            "all_reduce on rank 1 of 4: ncclAllReduce failed: ncclRemoteError (remote process \
             exited or there was a network error); NCCL says: socket closed"
        );
        let t = timeout("init_rank", 0, 2, Duration::from_secs(5));
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
            Error::Nccl(ref f) if f.code == 4 && f.name == "ncclInvalidArgument"
        ));
    }

    #[test]
    fn argument_usage_and_env_errors_are_numpys_classes() {
        let a = argument("broadcast", "root 3 is out of range");
        assert!(matches!(a, Error::Value(ref m) if m == "broadcast: root 3 is out of range"));
        let d = device_mismatch("send", "stream", 1, 0);
        assert_eq!(
            d.to_string(),
            "send: the stream is on device 1, the communicator on device 0"
        );
        assert!(matches!(usage("send", "to itself"), Error::NumpyRuntime(_)));
        let e = env_error("no launcher");
        assert!(matches!(e, Error::NumpyRuntime(ref m) if m == "distributed: no launcher"));
    }
}
