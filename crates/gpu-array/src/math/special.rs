//! `i0`, `sinc`, cupyx's `rsqrt`, `angle`, `real` and `imag`.

use crate::array::Array;
use crate::dtype::{Casting, DType, can_cast};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::Order;
use crate::ufunc::{self, UfuncOptions};

/// The float dtype NumPy's `i0` and `sinc` compute a real input in: float
/// dtypes keep theirs, integers and bool become float64.
pub(crate) fn float_result(d: DType) -> DType {
    if d.is_floating() { d } else { DType::Float64 }
}

/// The loop cupyx's `rsqrt` picks for `d`: the first of float16,
/// bfloat16, float32, float64, complex64, complex128 that `d` casts to
/// safely (CuPy's ufunc rule: int8 and bool go to float16, int32 to
/// float64).
pub(crate) fn rsqrt_dtype(d: DType) -> DType {
    [
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ]
    .into_iter()
    .find(|&t| can_cast(d, t, Casting::Safe))
    .unwrap_or(DType::Complex128)
}

/// `kernel(x, out)` into a new array of `out_dt`.
fn unary(
    x: &Array,
    out_dt: DType,
    kernel: impl for<'b> FnOnce(Bind<'b>, Bind<'b>) -> Elementwise<'b>,
) -> Result<Array> {
    let out = Array::empty_on(x.device(), x.shape(), out_dt, Order::C)?;
    kernel(x.into(), (&out).into()).launch(out.shape())?;
    Ok(out)
}

/// `i0(x)` in `y`'s float dtype (in float for float16/float32, double for
/// float64; `special.cuh`).
pub(crate) fn i0_kernel<'a>(x: Bind<'a>, y: Bind<'a>) -> Elementwise<'a> {
    let cc = if y.dtype() == DType::Float64 {
        "double"
    } else {
        "float"
    };
    Elementwise::new("i0")
        .input("x", x)
        .output("y", y)
        .op(format!(
            "y = cuprum::cast<y_type>(cuprum_np::i0(cuprum::cast<{cc}>(x)));"
        ))
        .preamble(include_str!("special.cuh"))
}

/// `sinc(x)` in `y`'s dtype: `v = pi * x` (`pi` first converted to it, as
/// NumPy converts a Python float, then the product rounded), `v = eps`
/// where `v == 0`, `sin(v) / v` (`special.cuh`).
pub(crate) fn sinc_kernel<'a>(x: Bind<'a>, y: Bind<'a>) -> Elementwise<'a> {
    let output = y.dtype();
    let op = if output.is_complex() {
        let r = output.real_dtype().c_type();
        format!("y = cuprum_np::sinc_complex<{r}>(cuprum::cast<y_type>(x));")
    } else {
        let eps = match output {
            DType::Float16 => "0.0009765625",
            DType::BFloat16 => "0.0078125",
            DType::Float32 => "1.1920928955078125e-07",
            _ => "2.220446049250313080847263336181640625e-16",
        };
        let cc = output.compute_c_type();
        format!("y = cuprum_np::sinc_real<y_type, {cc}>(cuprum::cast<y_type>(x), ({cc}){eps});")
    };
    Elementwise::new("sinc")
        .input("x", x)
        .output("y", y)
        .op(op)
        .preamble(include_str!("special.cuh"))
}

/// cupyx's `rsqrt(x)`: `1 / sqrt(x)` in `y`'s float or complex dtype
/// (`rsqrtf`/`rsqrt` for the reals).
pub(crate) fn rsqrt_kernel<'a>(x: Bind<'a>, y: Bind<'a>) -> Elementwise<'a> {
    let output = y.dtype();
    let op = match output {
        DType::Float64 => "y = ::rsqrt(cuprum::cast<double>(x));".to_owned(),
        DType::Complex64 | DType::Complex128 => {
            let r = output.real_dtype().c_type();
            format!("y = y_type(({r})1, ({r})0) / cuprum::sqrt(cuprum::cast<y_type>(x));")
        }
        _ => "y = cuprum::cast<y_type>(::rsqrtf(cuprum::cast<float>(x)));".to_owned(),
    };
    Elementwise::new("rsqrt")
        .input("x", x)
        .output("y", y)
        .op(op)
}

/// NumPy's `i0(x)`: the modified Bessel function of the first kind, order
/// 0. Float inputs keep their dtype (float16 computed in float and
/// rounded, where NumPy evaluates its series in float16), integer and
/// bool inputs give float64. `i0(±inf)` is NaN, as NumPy's.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let y = i0(&array([0.0, 1.0])?)?; // [1, 1.266]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex input ("i0 not supported for complex values"); allocation or
/// launch failed.
pub fn i0(x: &Array) -> Result<Array> {
    if x.dtype().is_complex() {
        return Err(Error::DType("i0 not supported for complex values".into()));
    }
    let out = float_result(x.dtype());
    unary(x, out, i0_kernel)
}

/// NumPy's `sinc(x)`: `sin(pi x) / (pi x)`, 1 at 0. Float and complex
/// inputs keep their dtype; integer and bool inputs give float64.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let y = sinc(&array([0.0, 0.5])?)?; // [1, 0.6366]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn sinc(x: &Array) -> Result<Array> {
    let dt = x.dtype();
    let out = if dt.is_complex() {
        dt
    } else {
        float_result(dt)
    };
    unary(x, out, sinc_kernel)
}

/// cupyx's `rsqrt(x)`: `1 / sqrt(x)`. The result dtype is CuPy's ufunc
/// loop for the input: floats and complex keep theirs, bool and 8-bit
/// integers give float16, 16-bit integers float32, wider ones float64.
///
/// ```no_run
/// use gpu_array::{Array, DType, math::rsqrt};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[4.0f32, 16.0], &[2])?;
/// assert_eq!(rsqrt(&x)?.to_vec::<f32>()?, [0.5, 0.25]); // cupyx.rsqrt
/// assert_eq!(rsqrt(&Array::from_slice(&[4u8], &[1])?)?.dtype(), DType::Float16);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn rsqrt(x: &Array) -> Result<Array> {
    let out = rsqrt_dtype(x.dtype());
    unary(x, out, rsqrt_kernel)
}

/// NumPy's `angle(z, deg)`: `arctan2(z.imag, z.real)` for complex `z`,
/// `arctan2(0, z)` for real `z` (so the result dtype is `arctan2`'s: int8
/// gives float16, bool and int64 float64), times `180 / pi` in place when
/// `deg`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let z = array([num_complex::Complex::new(0.0, 1.0)])?;
/// let a = angle(&z, true)?; // [90]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failed.
pub fn angle(z: &Array, deg: bool) -> Result<Array> {
    let a = if z.dtype().is_complex() {
        ufunc::arctan2(&z.imag()?, z.real())?
    } else {
        ufunc::arctan2(0i64, z)?
    };
    if deg {
        let opts = UfuncOptions {
            out: vec![Some(&a)],
            ..Default::default()
        };
        ufunc::call(
            ufunc::get("multiply")?,
            &[(&a).into(), (180.0 / std::f64::consts::PI).into()],
            &opts,
        )?;
    }
    Ok(a)
}

/// NumPy's `real(val)`: the real part as a view for complex arrays, the
/// array itself (a view) otherwise.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let z = array([num_complex::Complex::new(1.0, 2.0)])?;
/// let re = real(&z); // a view
/// # Ok(()) }
/// ```
pub fn real(val: &Array) -> Array {
    val.real()
}

/// NumPy's `imag(val)`: the imaginary part as a view for complex arrays;
/// for real arrays a new array of zeros of `val`'s dtype and shape (NumPy
/// returns a read-only one).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let z = array([num_complex::Complex::new(1.0, 2.0)])?;
/// let im = imag(&z)?; // [2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation failed.
pub fn imag(val: &Array) -> Result<Array> {
    if val.dtype().is_complex() {
        val.imag()
    } else {
        let z = Array::empty_on(val.device(), val.shape(), val.dtype(), Order::C)?;
        z.fill(0i64)?;
        Ok(z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_dtypes() {
        assert_eq!(float_result(DType::Int8), DType::Float64);
        assert_eq!(float_result(DType::Bool), DType::Float64);
        assert_eq!(float_result(DType::Float16), DType::Float16);
        assert_eq!(rsqrt_dtype(DType::Bool), DType::Float16);
        assert_eq!(rsqrt_dtype(DType::Int8), DType::Float16);
        assert_eq!(rsqrt_dtype(DType::Int16), DType::Float32);
        assert_eq!(rsqrt_dtype(DType::UInt32), DType::Float64);
        assert_eq!(rsqrt_dtype(DType::Int64), DType::Float64);
        assert_eq!(rsqrt_dtype(DType::Float32), DType::Float32);
        assert_eq!(rsqrt_dtype(DType::Complex64), DType::Complex64);
    }
}
