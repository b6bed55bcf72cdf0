//! Array type testing (NumPy's "Array type testing"): complex or real,
//! elementwise and by dtype, scalars, Fortran order.

use std::any::TypeId;

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::error::Result;
use crate::layout::Order;

/// Whether each element has a nonzero imaginary part (NumPy's
/// `iscomplex`): `imag != 0` for complex arrays, all false for real ones.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = iscomplex(&array([num_complex::Complex::new(1.0, 0.0)])?)?; // [false]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn iscomplex(x: &Array) -> Result<Array> {
    if x.dtype().is_complex() {
        return x.imag()?.not_equal(0);
    }
    let out = Array::empty_on(x.device(), x.shape(), DType::Bool, Order::C)?;
    out.fill(false)?;
    Ok(out)
}

/// Whether each element has a zero imaginary part (NumPy's `isreal`):
/// `imag == 0` for complex arrays (a NaN imaginary part is not real), all
/// true for real ones.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = isreal(&array([1.0, 2.0])?)?; // [true, true]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn isreal(x: &Array) -> Result<Array> {
    if x.dtype().is_complex() {
        return x.imag()?.equal(0);
    }
    let out = Array::empty_on(x.device(), x.shape(), DType::Bool, Order::C)?;
    out.fill(true)?;
    Ok(out)
}

/// Whether `x`'s dtype is complex, whatever its values (NumPy's
/// `iscomplexobj`).
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(!iscomplexobj(&array([1.0])?));
/// # Ok(()) }
/// ```
pub fn iscomplexobj(x: &Array) -> bool {
    x.dtype().is_complex()
}

/// Whether `x`'s dtype is not complex (NumPy's `isrealobj`).
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(isrealobj(&array([1.0])?));
/// # Ok(()) }
/// ```
pub fn isrealobj(x: &Array) -> bool {
    !iscomplexobj(x)
}

/// Whether `a` is Fortran-contiguous and not also C-contiguous (NumPy's
/// `isfortran`, `a.flags.fnc`): false for 1-D arrays, which are both.
///
/// ```no_run
/// use gpu_array::{DType, Order, creation::zeros_order, logic::isfortran};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(isfortran(&zeros_order([2, 3], DType::Float64, Order::F)?)); // np.isfortran
/// # Ok(()) }
/// ```
pub fn isfortran(a: &Array) -> bool {
    a.is_f_contiguous() && !a.is_c_contiguous()
}

/// Whether a host value of type `T` is a scalar in NumPy's sense (NumPy's
/// `isscalar`). Rust has no dynamic types, so the answer is by type: the
/// Rust numbers and `bool`, `half`'s `f16`/`bf16`, `Complex<f32>`/
/// `Complex<f64>`, [`ScalarValue`], and strings (`str`, `String`, `char`;
/// NumPy counts `str` and `bytes` as scalars) are; an [`Array`] is not,
/// even a 0-d one, as NumPy's 0-d arrays are not; nor are slices, `Vec`s
/// and other containers.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(isscalar(&1.5f64));
/// # Ok(()) }
/// ```
pub fn isscalar<T: ?Sized + 'static>(_: &T) -> bool {
    let t = TypeId::of::<T>();
    [
        TypeId::of::<bool>(),
        TypeId::of::<i8>(),
        TypeId::of::<i16>(),
        TypeId::of::<i32>(),
        TypeId::of::<i64>(),
        TypeId::of::<i128>(),
        TypeId::of::<isize>(),
        TypeId::of::<u8>(),
        TypeId::of::<u16>(),
        TypeId::of::<u32>(),
        TypeId::of::<u64>(),
        TypeId::of::<u128>(),
        TypeId::of::<usize>(),
        TypeId::of::<f32>(),
        TypeId::of::<f64>(),
        TypeId::of::<half::f16>(),
        TypeId::of::<half::bf16>(),
        TypeId::of::<num_complex::Complex<f32>>(),
        TypeId::of::<num_complex::Complex<f64>>(),
        TypeId::of::<ScalarValue>(),
        TypeId::of::<str>(),
        TypeId::of::<String>(),
        TypeId::of::<char>(),
    ]
    .contains(&t)
}

#[cfg(test)]
mod tests {
    use super::isscalar;

    #[test]
    fn scalars_by_type() {
        assert!(isscalar(&3.0f32));
        assert!(isscalar(&7u8));
        assert!(isscalar(&true));
        assert!(isscalar("a"));
        assert!(isscalar(&num_complex::Complex::new(1.0f64, 2.0)));
        assert!(isscalar(&crate::dtype::ScalarValue::Int(3)));
        assert!(!isscalar(&[1.0f32, 2.0]));
        assert!(!isscalar(&vec![1i32]));
        assert!(!isscalar(&(1, 2)));
    }
}
