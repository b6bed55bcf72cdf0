//! NumPy's errors in its words, as `gpu_array::Error` variants.

use gpu_array::Error;

/// NumPy's `ValueError`.
pub(crate) fn value_error(msg: impl Into<String>) -> Error {
    Error::Value(msg.into())
}
