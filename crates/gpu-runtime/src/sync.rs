//! A scope in which host-device synchronization is an error (CuPy's
//! `cupyx.allow_synchronize(False)` and `DeviceSynchronized`).
//!
//! Every operation that makes the host wait for the device (stream, event
//! and device synchronize, synchronous device-to-host copies) calls
//! [`check_sync_allowed`] first.

use std::cell::Cell;
use std::marker::PhantomData;

use crate::{Error, Result};

thread_local! {
    static ALLOWED: Cell<bool> = const { Cell::new(true) };
}

/// Allows or forbids synchronization on this thread until the guard drops.
#[must_use = "the setting holds only while the guard lives"]
pub fn allow_synchronize(allow: bool) -> SyncGuard {
    let previous = ALLOWED.with(|a| a.replace(allow));
    SyncGuard {
        previous,
        _not_send: PhantomData,
    }
}

/// Whether synchronization is currently allowed on this thread.
pub fn is_synchronize_allowed() -> bool {
    ALLOWED.with(Cell::get)
}

/// Returns [`Error::SynchronizationNotAllowed`] naming `operation` when the
/// thread is inside `allow_synchronize(false)`.
///
/// # Errors
/// As above.
pub fn check_sync_allowed(operation: &'static str) -> Result<()> {
    if is_synchronize_allowed() {
        Ok(())
    } else {
        Err(Error::SynchronizationNotAllowed { operation })
    }
}

/// Restores the previous setting when dropped.
#[derive(Debug)]
pub struct SyncGuard {
    previous: bool,
    _not_send: PhantomData<*const ()>,
}

impl Drop for SyncGuard {
    fn drop(&mut self) {
        ALLOWED.with(|a| a.set(self.previous));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_nests_and_restores() {
        assert!(check_sync_allowed("x").is_ok());
        {
            let _g = allow_synchronize(false);
            let e = check_sync_allowed("Stream::synchronize").unwrap_err();
            assert!(e.to_string().contains("Stream::synchronize"));
            {
                let _h = allow_synchronize(true);
                assert!(check_sync_allowed("x").is_ok());
            }
            assert!(check_sync_allowed("x").is_err());
        }
        assert!(check_sync_allowed("x").is_ok());
    }
}
