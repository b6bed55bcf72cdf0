//! Results in the dtype a transform computes in, without a copy that
//! changes nothing: the real-trigonometric and Hankel transforms scale
//! their inputs and outputs on the way, and each scaling writes straight
//! into the target dtype (NumPy's `multiply(..., dtype=)`).

use gpu_array::ufunc::{self, Input, UfuncOptions};
use gpu_array::{Array, DType, Result};

/// `x * f` computed in and stored as `dtype` (the inputs cast by
/// `same_kind`, as `np.multiply(x, f, dtype=dtype)`).
pub(crate) fn scaled<'a>(x: &'a Array, f: impl Into<Input<'a>>, dtype: DType) -> Result<Array> {
    let multiply = ufunc::get("multiply")?;
    let mut outs = ufunc::call(
        multiply,
        &[x.into(), f.into()],
        &UfuncOptions::default().dtype(dtype),
    )?;
    Ok(outs.remove(0))
}

/// `x` itself (shared, no copy) when it already has `dtype`, else a
/// converted copy.
pub(crate) fn in_dtype(x: &Array, dtype: DType) -> Result<Array> {
    if x.dtype() == dtype {
        Ok(x.clone())
    } else {
        x.astype(dtype)
    }
}
