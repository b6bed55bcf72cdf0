//! The ufuncs as functions, NumPy's names: `add(&a, &b)?`, `exp(&a)?`,
//! `add(&a, 2.0)?`. Each takes arrays or Rust scalars (weak, as Python
//! scalars in NumPy 2) and returns a new array; [`call`] takes `out=`,
//! `dtype=` and `casting=`.

use std::sync::OnceLock;

use super::call::{Input, UfuncOptions, call};
use super::{Ufunc, get};
use crate::array::Array;
use crate::error::Result;

fn lookup(cell: &'static OnceLock<&'static Ufunc>, name: &str) -> Result<&'static Ufunc> {
    if let Some(u) = cell.get() {
        return Ok(u);
    }
    let u = get(name)?;
    Ok(cell.get_or_init(|| u))
}

fn one(outputs: Vec<Array>) -> Array {
    outputs
        .into_iter()
        .next()
        .expect("a ufunc with one output returns one array")
}

fn two(outputs: Vec<Array>) -> (Array, Array) {
    let mut it = outputs.into_iter();
    let a = it.next().expect("two outputs");
    let b = it.next().expect("two outputs");
    (a, b)
}

macro_rules! unary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// No loop for the input's dtype; allocation or launch failed.
        pub fn $f<'a>(x: impl Into<Input<'a>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            call(lookup(&U, $name)?, &[x.into()], &UfuncOptions::default()).map(one)
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a>(x1: impl Into<Input<'a>>, x2: impl Into<Input<'a>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            call(lookup(&U, $name)?, &[x1.into(), x2.into()], &UfuncOptions::default()).map(one)
        }
    )*};
}

unary! {
    /// `numpy.negative`: `-x`.
    negative => "negative";
    /// `numpy.positive`: `+x`.
    positive => "positive";
    /// `numpy.absolute` (`abs`): `|x|`; complex gives its modulus.
    absolute => "absolute";
    /// `numpy.abs`, alias of [`absolute`].
    abs => "absolute";
    /// `numpy.fabs`: absolute value of real numbers.
    fabs => "fabs";
    /// `numpy.sign`.
    sign => "sign";
    /// `numpy.conjugate` (`conj`).
    conjugate => "conjugate";
    /// `numpy.conj`, alias of [`conjugate`].
    conj => "conjugate";
    /// `numpy.square`: `x * x`.
    square => "square";
    /// `numpy.reciprocal`: `1 / x`.
    reciprocal => "reciprocal";
    /// `numpy.logical_not`.
    logical_not => "logical_not";
    /// `numpy.exp`.
    exp => "exp";
    /// `numpy.exp2`: `2 ** x`.
    exp2 => "exp2";
    /// `numpy.log`: natural logarithm.
    log => "log";
    /// `numpy.log2`.
    log2 => "log2";
    /// `numpy.log10`.
    log10 => "log10";
    /// `numpy.expm1`: `exp(x) - 1`, accurate near 0.
    expm1 => "expm1";
    /// `numpy.log1p`: `log(1 + x)`, accurate near 0.
    log1p => "log1p";
    /// `numpy.sqrt`.
    sqrt => "sqrt";
    /// `numpy.cbrt`.
    cbrt => "cbrt";
    /// `numpy.sin`.
    sin => "sin";
    /// `numpy.cos`.
    cos => "cos";
    /// `numpy.tan`.
    tan => "tan";
    /// `numpy.arcsin`.
    arcsin => "arcsin";
    /// `numpy.arccos`.
    arccos => "arccos";
    /// `numpy.arctan`.
    arctan => "arctan";
    /// `numpy.sinh`.
    sinh => "sinh";
    /// `numpy.cosh`.
    cosh => "cosh";
    /// `numpy.tanh`.
    tanh => "tanh";
    /// `numpy.arcsinh`.
    arcsinh => "arcsinh";
    /// `numpy.arccosh`.
    arccosh => "arccosh";
    /// `numpy.arctanh`.
    arctanh => "arctanh";
    /// `numpy.deg2rad`.
    deg2rad => "deg2rad";
    /// `numpy.radians`, alias of [`deg2rad`].
    radians => "deg2rad";
    /// `numpy.rad2deg`.
    rad2deg => "rad2deg";
    /// `numpy.degrees`, alias of [`rad2deg`].
    degrees => "rad2deg";
    /// `numpy.rint`: round half to even.
    rint => "rint";
    /// `numpy.floor`.
    floor => "floor";
    /// `numpy.ceil`.
    ceil => "ceil";
    /// `numpy.trunc`.
    trunc => "trunc";
    /// `numpy.invert` (`bitwise_not`): bitwise NOT; logical NOT for bool.
    invert => "invert";
    /// `numpy.bitwise_not`, alias of [`invert`].
    bitwise_not => "invert";
    /// `numpy.isfinite`.
    isfinite => "isfinite";
    /// `numpy.isinf`.
    isinf => "isinf";
    /// `numpy.isnan`.
    isnan => "isnan";
    /// `numpy.signbit`.
    signbit => "signbit";
}

binary! {
    /// `numpy.add`: `x1 + x2`.
    add => "add";
    /// `numpy.subtract`: `x1 - x2`.
    subtract => "subtract";
    /// `numpy.multiply`: `x1 * x2`.
    multiply => "multiply";
    /// `numpy.true_divide` (`divide`): `x1 / x2`, floats for integer inputs.
    true_divide => "true_divide";
    /// `numpy.divide`, alias of [`true_divide`].
    divide => "true_divide";
    /// `numpy.floor_divide`: `x1 // x2`; integer division by zero gives 0.
    floor_divide => "floor_divide";
    /// `numpy.power`: `x1 ** x2`.
    power => "power";
    /// `numpy.float_power`: power computed in float64 or complex128.
    float_power => "float_power";
    /// `numpy.remainder` (`mod`): Python's `%`, sign of the divisor.
    remainder => "remainder";
    /// `numpy.mod`, alias of [`remainder`].
    r#mod => "remainder";
    /// `numpy.fmod`: C's `fmod`, sign of the dividend.
    fmod => "fmod";
    /// `numpy.heaviside`.
    heaviside => "heaviside";
    /// `numpy.gcd`.
    gcd => "gcd";
    /// `numpy.lcm`.
    lcm => "lcm";
    /// `numpy.ldexp`: `x1 * 2 ** x2`.
    ldexp => "ldexp";
    /// `numpy.hypot`.
    hypot => "hypot";
    /// `numpy.arctan2`.
    arctan2 => "arctan2";
    /// `numpy.bitwise_and`: `x1 & x2`.
    bitwise_and => "bitwise_and";
    /// `numpy.bitwise_or`: `x1 | x2`.
    bitwise_or => "bitwise_or";
    /// `numpy.bitwise_xor`: `x1 ^ x2`.
    bitwise_xor => "bitwise_xor";
    /// `numpy.left_shift`: `x1 << x2`.
    left_shift => "left_shift";
    /// `numpy.right_shift`: `x1 >> x2`.
    right_shift => "right_shift";
    /// `numpy.greater`: `x1 > x2`.
    greater => "greater";
    /// `numpy.greater_equal`: `x1 >= x2`.
    greater_equal => "greater_equal";
    /// `numpy.less`: `x1 < x2`.
    less => "less";
    /// `numpy.less_equal`: `x1 <= x2`.
    less_equal => "less_equal";
    /// `numpy.equal`: `x1 == x2`.
    equal => "equal";
    /// `numpy.not_equal`: `x1 != x2`.
    not_equal => "not_equal";
    /// `numpy.logical_and`.
    logical_and => "logical_and";
    /// `numpy.logical_or`.
    logical_or => "logical_or";
    /// `numpy.logical_xor`.
    logical_xor => "logical_xor";
    /// `numpy.maximum`: NaN-propagating maximum.
    maximum => "maximum";
    /// `numpy.minimum`: NaN-propagating minimum.
    minimum => "minimum";
    /// `numpy.fmax`: maximum ignoring NaN.
    fmax => "fmax";
    /// `numpy.fmin`: minimum ignoring NaN.
    fmin => "fmin";
    /// `numpy.copysign`.
    copysign => "copysign";
    /// `numpy.nextafter`.
    nextafter => "nextafter";
    /// `numpy.logaddexp`: `log(exp(x1) + exp(x2))`.
    logaddexp => "logaddexp";
    /// `numpy.logaddexp2`: `log2(2**x1 + 2**x2)`.
    logaddexp2 => "logaddexp2";
}

/// `numpy.divmod`: `(x1 // x2, x1 % x2)`.
///
/// # Errors
/// As [`floor_divide`].
pub fn divmod<'a>(x1: impl Into<Input<'a>>, x2: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(
        lookup(&U, "divmod")?,
        &[x1.into(), x2.into()],
        &UfuncOptions::default(),
    )
    .map(two)
}

/// `numpy.modf`: fractional and integral parts, both with the sign of `x`.
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn modf<'a>(x: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(lookup(&U, "modf")?, &[x.into()], &UfuncOptions::default()).map(two)
}

/// `numpy.frexp`: mantissa and exponent (`int32`).
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn frexp<'a>(x: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(lookup(&U, "frexp")?, &[x.into()], &UfuncOptions::default()).map(two)
}

#[cfg(test)]
mod tests {
    /// Every name the functions above look up exists in the table.
    #[test]
    fn every_function_names_a_ufunc() {
        let src = include_str!("functions.rs");
        let mut n = 0;
        for line in src.lines() {
            let line = line.trim();
            if let Some((_, rest)) = line.split_once(" => \"") {
                let name = rest.trim_end_matches("\";");
                super::get(name).unwrap_or_else(|e| panic!("{name}: {e}"));
                n += 1;
            }
        }
        for name in ["divmod", "modf", "frexp"] {
            super::get(name).unwrap();
        }
        assert!(n > 80, "{n}");
    }
}
