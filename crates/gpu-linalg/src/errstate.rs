//! Whether a failed factorization raises: CuPy's default is not to look at
//! cuSOLVER's `devInfo` (which would make every call wait for the GPU); a
//! scope set with [`errstate`] (or the guard [`raise_on_error`]) makes the
//! calls of this thread wait and raise NumPy's `LinAlgError`
//! ("Singular matrix", "Matrix is not positive definite"), as CuPy's
//! `cupyx.errstate(linalg='raise')` does.

use std::cell::Cell;

use gpu_array::{Array, DType};

use crate::error::{Error, Result};

/// What to do when cuSOLVER reports a failure in `devInfo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LinAlgErrors {
    /// Do not check (CuPy's default): results of a failed factorization
    /// hold whatever the library left (NaN, infinities).
    #[default]
    Ignore,
    /// Wait for each call and raise [`Error::LinAlg`] as NumPy does.
    Raise,
}

thread_local! {
    static MODE: Cell<LinAlgErrors> = const { Cell::new(LinAlgErrors::Ignore) };
}

/// The setting of this thread.
///
/// ```no_run
/// use gpu_linalg::*;
/// assert_eq!(linalg_errors(), LinAlgErrors::Ignore); // CuPy's default: no devInfo check
/// ```
pub fn linalg_errors() -> LinAlgErrors {
    MODE.with(Cell::get)
}

/// Restores the previous setting on drop.
#[derive(Debug)]
pub struct ErrstateGuard {
    previous: LinAlgErrors,
}

impl Drop for ErrstateGuard {
    fn drop(&mut self) {
        MODE.with(|m| m.set(self.previous));
    }
}

/// Sets this thread's setting until the guard drops.
///
/// ```no_run
/// use gpu_linalg::*;
/// let guard = set_linalg_errors(LinAlgErrors::Raise); // a singular solve is now an error
/// drop(guard); // back to the previous setting
/// ```
pub fn set_linalg_errors(mode: LinAlgErrors) -> ErrstateGuard {
    let previous = MODE.with(|m| m.replace(mode));
    ErrstateGuard { previous }
}

/// [`set_linalg_errors`]`(LinAlgErrors::Raise)`.
///
/// ```no_run
/// use gpu_linalg::*;
/// let _raise = raise_on_error(); // NumPy's behaviour until _raise drops
/// assert_eq!(linalg_errors(), LinAlgErrors::Raise);
/// ```
pub fn raise_on_error() -> ErrstateGuard {
    set_linalg_errors(LinAlgErrors::Raise)
}

/// Runs `f` with `mode` (CuPy's `with cupyx.errstate(linalg=...)`).
///
/// ```no_run
/// use gpu_linalg::*;
/// // with cupyx.errstate(linalg='raise'): ...
/// let mode = errstate(LinAlgErrors::Raise, linalg_errors);
/// assert_eq!(mode, LinAlgErrors::Raise);
/// ```
pub fn errstate<T>(mode: LinAlgErrors, f: impl FnOnce() -> T) -> T {
    let _g = set_linalg_errors(mode);
    f()
}

/// The `devInfo` words of a batch of calls: one `int` per matrix.
#[derive(Debug)]
pub(crate) struct DevInfo {
    words: Array,
}

impl DevInfo {
    /// `count` zeroed words on `device`, on its current stream.
    pub(crate) fn new(device: gpu_runtime::Device, count: usize) -> Result<DevInfo> {
        let words = Array::empty_on(device, &[count.max(1)], DType::Int32, gpu_array::Order::C)?;
        words.fill(0)?;
        Ok(DevInfo { words })
    }

    /// The word of matrix `i`.
    pub(crate) fn ptr(&self, i: usize) -> gpu_runtime::DevicePtr {
        self.words.data_ptr().offset(4 * i as isize)
    }

    /// Under [`LinAlgErrors::Raise`], waits and raises `LinAlgError` when a
    /// word is positive (`positive(info)` gives the typed error); a
    /// negative word is a bad argument, a bug of this crate, reported as
    /// such.
    pub(crate) fn check(&self, positive: impl Fn(i32) -> Error) -> Result<()> {
        if linalg_errors() == LinAlgErrors::Ignore {
            return Ok(());
        }
        let host = self.words.to_vec::<i32>()?;
        if let Some(&bad) = host.iter().find(|&&v| v < 0) {
            return Err(Error::LinAlg(format!(
                "cuSOLVER reported invalid argument {} (a bug of Cuprum)",
                -bad
            )));
        }
        if let Some(&v) = host.iter().find(|&&v| v > 0) {
            return Err(positive(v));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_nest_and_restore() {
        assert_eq!(linalg_errors(), LinAlgErrors::Ignore);
        errstate(LinAlgErrors::Raise, || {
            assert_eq!(linalg_errors(), LinAlgErrors::Raise);
            {
                let _g = set_linalg_errors(LinAlgErrors::Ignore);
                assert_eq!(linalg_errors(), LinAlgErrors::Ignore);
            }
            assert_eq!(linalg_errors(), LinAlgErrors::Raise);
        });
        assert_eq!(linalg_errors(), LinAlgErrors::Ignore);
    }
}
