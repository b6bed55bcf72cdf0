//! `around`/`round_` (NumPy's `PyArray_Round`) and `fix`.

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::Order;
use crate::ufunc;

/// `10**n` as NumPy's `power_of_ten`: repeated multiplication in float64.
fn power_of_ten(n: u32) -> f64 {
    let mut v = 1.0f64;
    for _ in 0..n {
        v *= 10.0;
    }
    v
}

/// NumPy's `around(a, decimals)`: rounds half to even to `decimals`
/// decimal places (negative: to tens, hundreds, ...).
///
/// As NumPy's `PyArray_Round`: floats compute `rint(a * 10**d) / 10**d`
/// (`rint(a / 10**-d) * 10**-d` for negative `d`) with every step rounded
/// to the array's dtype (so `10**d` is first converted to it, as a Python
/// float is); complex arrays round both parts; integer arrays are returned
/// as they are for `decimals >= 0` (a view of `a`, where NumPy returns `a`
/// itself) and computed in float64 and cast back for negative `decimals`;
/// bool arrays give float16 for `decimals == 0`.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = around(&array([1.25, 2.5])?, 1)?; // [1.2, 2.5], half to even
/// # Ok(()) }
/// ```
///
/// # Errors
/// bool with `decimals != 0` (NumPy's "Cannot cast ufunc 'multiply'
/// output from dtype('float64') to dtype('bool') with casting rule
/// 'same_kind'"); allocation or launch failed.
pub fn around(a: &Array, decimals: i32) -> Result<Array> {
    let dt = a.dtype();
    if dt.is_integer() && decimals >= 0 {
        return Ok(a.clone());
    }
    if dt.is_bool() && decimals != 0 {
        return Err(Error::Cast {
            from: DType::Float64,
            to: DType::Bool,
            casting: crate::dtype::Casting::SameKind,
        });
    }
    let (mode, f) = match decimals {
        0 => (RoundMode::Rint, 1.0),
        d if d > 0 => (RoundMode::Mul, power_of_ten(d.unsigned_abs())),
        d => (RoundMode::Div, power_of_ten(d.unsigned_abs())),
    };
    let out_dt = if dt.is_bool() { DType::Float16 } else { dt };
    let out = Array::empty_on(a.device(), a.shape(), out_dt, Order::C)?;
    around_kernel(a.into(), (&out).into(), mode, f).launch(out.shape())?;
    Ok(out)
}

/// How `around` rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RoundMode {
    /// `rint(x)` (decimals == 0).
    Rint,
    /// `rint(x * f) / f` (decimals > 0).
    Mul,
    /// `rint(x / f) * f` (decimals < 0).
    Div,
}

/// NumPy's `around` for one real or complex dtype: `x`, scalar `f`
/// (`10**|decimals|` in the component dtype, float64 for integer inputs),
/// output `y`. Every step is rounded to the component dtype, as NumPy's
/// separate ufunc calls do (`rounding.cuh`).
pub(crate) fn around_kernel<'a>(
    x: Bind<'a>,
    y: Bind<'a>,
    mode: RoundMode,
    f: f64,
) -> Elementwise<'a> {
    let input = x.dtype();
    let comp = if input.is_integer() || input.is_bool() {
        DType::Float64
    } else {
        input.real_dtype()
    };
    let (ct, cc) = (comp.c_type(), comp.compute_c_type());
    let (name, m) = match mode {
        RoundMode::Rint => ("around_rint", 0),
        RoundMode::Mul => ("around_mul", 1),
        RoundMode::Div => ("around_div", 2),
    };
    let r = |v: &str| format!("cuprum_np::around_component<{m}, {ct}, {cc}>({v}, f)");
    let op = if input.is_complex() {
        format!("y = y_type({}, {});", r("x.real()"), r("x.imag()"))
    } else {
        format!(
            "y = cuprum::cast<y_type>({});",
            r(&format!("cuprum::cast<{ct}>(x)"))
        )
    };
    Elementwise::new(name)
        .input("x", x)
        .scalar("f", comp, f)
        .output("y", y)
        .op(op)
        .preamble(include_str!("rounding.cuh"))
}

/// NumPy's `round_`, the old name of [`around`].
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = round_(&array([0.5, 1.5])?, 0)?; // [0, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`around`].
pub fn round_(a: &Array, decimals: i32) -> Result<Array> {
    around(a, decimals)
}

/// NumPy 2's `fix(x)`: rounds toward zero, which NumPy now computes as
/// `trunc(x)`. Floats keep their dtype; integer and bool arrays are
/// returned unchanged in their dtype (NumPy 2.4's `trunc` loops for them),
/// as a copy. Complex input is an error, as NumPy's.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let f = fix(&array([-1.5, 1.5])?)?; // [-1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex input ("ufunc 'trunc' not supported for the input types");
/// allocation or launch failed.
pub fn fix(x: &Array) -> Result<Array> {
    let dt = x.dtype();
    if dt.is_complex() {
        return Err(Error::DType(
            "ufunc 'trunc' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
                .into(),
        ));
    }
    if dt.is_integer() || dt.is_bool() {
        return x.copy();
    }
    ufunc::trunc(x)
}

#[cfg(test)]
mod tests {
    use super::power_of_ten;

    #[test]
    fn powers_of_ten_are_numpys() {
        assert_eq!(power_of_ten(0), 1.0);
        assert_eq!(power_of_ten(3), 1000.0);
        // Repeated multiplication, not the correctly rounded literal.
        let mut v = 1.0f64;
        for _ in 0..23 {
            v *= 10.0;
        }
        assert_eq!(power_of_ten(23), v);
    }
}
