//! A scope in which host-device synchronization is an error (CuPy's
//! `cupyx.allow_synchronize(False)` and `DeviceSynchronized`).
//!
//! Every operation that makes the host wait for the device (stream, event
//! and device synchronize, synchronous device-to-host copies) calls
//! [`check_sync_allowed`] first.

use std::marker::PhantomData;

use crate::scoped::{EntryId, Scoped};
use crate::{DeviceSynchronized, Result};

thread_local! {
    static ALLOWED: Scoped<bool> = const { Scoped::new() };
}

/// Allows or forbids synchronization on this thread until the guard drops.
/// Guards nest; the innermost live one decides, even when an outer one is
/// dropped first.
#[must_use = "the setting holds only while the guard lives"]
///
/// ```no_run
/// use gpu_runtime::allow_synchronize;
/// # fn main() -> gpu_runtime::Result<()> {
/// let _g = allow_synchronize(false); // a host sync in this scope is an error, as cupyx.allow_synchronize(False)
/// # Ok(()) }
/// ```
pub fn allow_synchronize(allow: bool) -> SyncGuard {
    SyncGuard {
        id: ALLOWED.with(|a| a.push(allow)),
        _not_send: PhantomData,
    }
}

/// Whether synchronization is currently allowed on this thread.
///
/// ```
/// use gpu_runtime::{allow_synchronize, is_synchronize_allowed};
/// assert!(is_synchronize_allowed());
/// let _g = allow_synchronize(false);
/// assert!(!is_synchronize_allowed());
/// ```
pub fn is_synchronize_allowed() -> bool {
    ALLOWED.with(|a| a.top()).unwrap_or(true)
}

/// Returns [`Error::DeviceSynchronized`](crate::Error::DeviceSynchronized) (CuPy's `DeviceSynchronized`)
/// naming `operation` when the thread is inside `allow_synchronize(false)`.
///
/// ```
/// use gpu_runtime::{allow_synchronize, check_sync_allowed};
/// assert!(check_sync_allowed("my_copy").is_ok());
/// let _g = allow_synchronize(false);
/// let e = check_sync_allowed("my_copy").unwrap_err();
/// assert!(e.to_string().contains("my_copy"));
/// ```
///
/// # Errors
/// As above.
pub fn check_sync_allowed(operation: &'static str) -> Result<()> {
    if is_synchronize_allowed() {
        Ok(())
    } else {
        Err(DeviceSynchronized::new(operation).into())
    }
}

/// Ends its [`allow_synchronize`] scope when dropped.
#[derive(Debug)]
pub struct SyncGuard {
    id: EntryId,
    _not_send: PhantomData<*const ()>,
}

impl Drop for SyncGuard {
    fn drop(&mut self) {
        // At thread exit the stack may be gone already; so is the setting.
        let _ = ALLOWED.try_with(|a| a.remove(self.id));
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
            assert!(
                matches!(&e, crate::Error::DeviceSynchronized(d) if d.operation == "Stream::synchronize"),
                "{e:?}"
            );
            assert!(
                e.to_string()
                    .contains("device synchronization was detected while disallowed")
            );
            {
                let _h = allow_synchronize(true);
                assert!(check_sync_allowed("x").is_ok());
            }
            assert!(check_sync_allowed("x").is_err());
        }
        assert!(check_sync_allowed("x").is_ok());
    }

    #[test]
    fn out_of_order_drops_leave_the_innermost_live_guard() {
        // Saving and restoring "the previous value" fails each case below.
        let a = allow_synchronize(false);
        let b = allow_synchronize(true);
        drop(a);
        assert!(is_synchronize_allowed(), "b allows");
        drop(b);
        assert!(is_synchronize_allowed(), "no guard is left (b saved false)");

        let a = allow_synchronize(true);
        let b = allow_synchronize(false);
        drop(a);
        assert!(!is_synchronize_allowed(), "b still forbids");
        drop(b);
        assert!(is_synchronize_allowed());

        let outer = allow_synchronize(false);
        let a = allow_synchronize(true);
        let b = allow_synchronize(true);
        drop(a);
        assert!(is_synchronize_allowed(), "b allows (a saved false)");
        drop(b);
        assert!(!is_synchronize_allowed(), "outer still forbids");
        drop(outer);
        assert!(is_synchronize_allowed());
    }
}
