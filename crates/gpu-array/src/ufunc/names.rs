//! The ufuncs that are named functions, listed once: [`for_each_ufunc!`]
//! hands the lists to a macro of the caller's, which defines the functions
//! for its own argument and result types (the array functions of
//! [`crate::ufunc`] and the symbolic ones of [`crate::fusion::fx`]).
//! Each entry is `rust_name => "ufunc name";` with its doc comment; NumPy 2's
//! aliases (`abs`, `acos`, `pow`, `bitwise_left_shift`, ...) are entries of
//! their own. Ufuncs with two results (`divmod`, `modf`, `frexp`) are
//! written out by each caller.

/// Calls `$unary! { ... }` with every one-input ufunc function and
/// `$binary! { ... }` with every two-input one.
macro_rules! for_each_ufunc {
    ($unary:ident, $binary:ident) => {
        $unary! {
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
            /// `numpy.asin`, alias of [`arcsin`].
            asin => "arcsin";
            /// `numpy.acos`, alias of [`arccos`].
            acos => "arccos";
            /// `numpy.atan`, alias of [`arctan`].
            atan => "arctan";
            /// `numpy.asinh`, alias of [`arcsinh`].
            asinh => "arcsinh";
            /// `numpy.acosh`, alias of [`arccosh`].
            acosh => "arccosh";
            /// `numpy.atanh`, alias of [`arctanh`].
            atanh => "arctanh";
            /// `numpy.spacing`.
            spacing => "spacing";
        }
        $binary! {
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
            /// `numpy.pow`, alias of [`power`].
            pow => "power";
            /// `numpy.atan2`, alias of [`arctan2`].
            atan2 => "arctan2";
            /// `numpy.bitwise_left_shift`, alias of [`left_shift`].
            bitwise_left_shift => "left_shift";
            /// `numpy.bitwise_right_shift`, alias of [`right_shift`].
            bitwise_right_shift => "right_shift";
        }
    };
}

pub(crate) use for_each_ufunc;

#[cfg(test)]
mod tests {
    macro_rules! unary_names {
        ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {
            const UNARY: &[&str] = &[$($name),*];
        };
    }
    macro_rules! binary_names {
        ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {
            const BINARY: &[&str] = &[$($name),*];
        };
    }
    for_each_ufunc!(unary_names, binary_names);

    /// Every listed name is a ufunc of the table with as many inputs as its
    /// list says (a typo would otherwise surface only at the first call).
    #[test]
    fn every_listed_name_is_a_ufunc_of_its_arity() {
        for (names, nin) in [(UNARY, 1), (BINARY, 2)] {
            for name in names {
                let u = crate::ufunc::get(name).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(u.nin, nin, "{name}");
                assert_eq!(u.nout, 1, "{name}");
            }
        }
        assert!(UNARY.len() + BINARY.len() > 90);
    }
}
