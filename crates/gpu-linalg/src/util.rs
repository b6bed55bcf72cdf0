//! Shared helpers: NumPy's linalg dtype rules, square/stacked checks, and
//! the copies that hand cuSOLVER column-major matrices.

use gpu_array::{Array, DType};

use crate::error::{Result, dtype as dtype_err, shape};

/// The dtype numpy.linalg computes in for an input dtype: integers and
/// bool become float64, float32/float64/complex stay; float16 and
/// bfloat16 are refused, as NumPy refuses float16 ("array type float16 is
/// unsupported in linalg").
///
/// ```
/// use gpu_array::DType;
/// use gpu_linalg::util::linalg_dtype;
/// assert_eq!(linalg_dtype(DType::Int32)?, DType::Float64);
/// assert_eq!(linalg_dtype(DType::Complex64)?, DType::Complex64);
/// assert!(linalg_dtype(DType::Float16).is_err());
/// # Ok::<(), gpu_linalg::Error>(())
/// ```
pub fn linalg_dtype(dtype: DType) -> Result<DType> {
    match dtype {
        DType::Float32 | DType::Float64 | DType::Complex64 | DType::Complex128 => Ok(dtype),
        DType::Float16 | DType::BFloat16 => Err(dtype_err(format!(
            "array type {dtype} is unsupported in linalg"
        ))),
        _ => Ok(DType::Float64),
    }
}

/// The common linalg dtype of several inputs (NumPy's `_commonType`).
pub(crate) fn linalg_common(dtypes: &[DType]) -> Result<DType> {
    let mut complex = false;
    let mut double = false;
    for &d in dtypes {
        let t = linalg_dtype(d)?;
        complex |= t.is_complex();
        double |= matches!(t, DType::Float64 | DType::Complex128);
    }
    Ok(match (complex, double) {
        (false, false) => DType::Float32,
        (false, true) => DType::Float64,
        (true, false) => DType::Complex64,
        (true, true) => DType::Complex128,
    })
}

/// NumPy's `_assert_stacked_2d`.
pub(crate) fn assert_stacked_2d(a: &Array) -> Result<()> {
    if a.ndim() < 2 {
        return Err(Error::LinAlg(format!(
            "{}-dimensional array given. Array must be at least two-dimensional",
            a.ndim()
        )));
    }
    Ok(())
}

/// NumPy's `_assert_stacked_square`.
pub(crate) fn assert_stacked_square(a: &Array) -> Result<()> {
    assert_stacked_2d(a)?;
    let s = a.shape();
    if s[s.len() - 1] != s[s.len() - 2] {
        return Err(Error::LinAlg(
            "Last 2 dimensions of the array must be square".into(),
        ));
    }
    Ok(())
}

use crate::error::Error;

/// A new C-contiguous array of `dtype` holding `a`'s values.
///
/// ```no_run
/// use gpu_array::{DType, creation::array};
/// use gpu_linalg::util::fresh;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[1.0, 2.0], [3.0, 4.0]])?;
/// let f = fresh(&a.transpose(None)?, DType::Float32)?; // a C-contiguous float32 copy
/// assert!(f.is_c_contiguous());
/// # Ok(()) }
/// ```
pub fn fresh(a: &Array, dtype: DType) -> Result<Array> {
    Ok(if a.dtype() == dtype {
        a.copy()?
    } else {
        a.astype(dtype)?
    })
}

/// A new buffer holding each matrix of `a` (`(..., m, n)`) column-major
/// (the C-contiguous copy of its transpose, shape `(..., n, m)`), in
/// `dtype`.
pub(crate) fn column_major(a: &Array, dtype: DType) -> Result<Array> {
    fresh(&a.swapaxes(-1, -2)?, dtype)
}

/// The product of the leading (batch) dimensions.
pub(crate) fn batch_count(shape: &[usize]) -> usize {
    shape[..shape.len().saturating_sub(2)].iter().product()
}

/// Element offset in bytes of matrix `i` of a C-contiguous stack whose
/// matrices hold `per` elements of `itemsize` bytes.
///
/// ```
/// use gpu_linalg::util::nth;
/// use gpu_runtime::DevicePtr;
/// // Matrix 2 of a stack of 3x3 float64 matrices.
/// assert_eq!(nth(DevicePtr(0x1000), 2, 9, 8), DevicePtr(0x1000 + 2 * 9 * 8));
/// ```
pub fn nth(
    base: gpu_runtime::DevicePtr,
    i: usize,
    per: usize,
    itemsize: usize,
) -> gpu_runtime::DevicePtr {
    base.offset((i * per * itemsize) as isize)
}

/// A device array (uint64) of the addresses of the matrices of a
/// C-contiguous stack, `per` elements apart: the pointer arrays of the
/// libraries' batched routines. It must live until the call using it is
/// enqueued (the pool frees it in stream order).
pub(crate) fn pointer_array(stack: &Array, per: usize, batch: usize) -> Result<Array> {
    let bytes = per * stack.itemsize();
    let v: Vec<u64> = (0..batch)
        .map(|i| nth(stack.data_ptr(), i, bytes, 1).raw())
        .collect();
    Array::from_slice_on(stack.device(), &v, &[batch])
}

/// A shape error naming the operation.
///
/// ```
/// use gpu_linalg::util::shape_err;
/// let e = shape_err("solve: a must be square");
/// assert!(e.to_string().contains("a must be square"));
/// ```
pub fn shape_err(msg: impl Into<String>) -> Error {
    shape(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtype_rules() {
        assert_eq!(linalg_dtype(DType::Int32).unwrap(), DType::Float64);
        assert_eq!(linalg_dtype(DType::Bool).unwrap(), DType::Float64);
        assert_eq!(linalg_dtype(DType::Float32).unwrap(), DType::Float32);
        assert_eq!(
            linalg_dtype(DType::Float16).unwrap_err().to_string(),
            "array type float16 is unsupported in linalg"
        );
        assert_eq!(
            linalg_common(&[DType::Float32, DType::Complex64]).unwrap(),
            DType::Complex64
        );
        assert_eq!(
            linalg_common(&[DType::Float32, DType::Int8]).unwrap(),
            DType::Float64
        );
        assert_eq!(
            linalg_common(&[DType::Complex64, DType::Float64]).unwrap(),
            DType::Complex128
        );
        assert_eq!(batch_count(&[2, 3, 4, 4]), 6);
        assert_eq!(batch_count(&[4, 4]), 1);
    }
}
