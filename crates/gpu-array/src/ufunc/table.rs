//! The ufunc table: NumPy's type loops (numpy/_core/code_generators/
//! generate_umath.py) with a C++ statement per loop.
//!
//! Differences from NumPy, all deliberate:
//! - bfloat16 (`E`) loops sit after float16's wherever NumPy has float16
//!   loops, computed in float as float16's;
//! - no `long double`, object, datetime or timedelta loops;
//! - comparisons have `lL->?` and `Ll->?` loops right after `LL->?`, so that
//!   int64 against uint64 compares exactly (NumPy 2 does so through a
//!   promoter) instead of through float64;
//! - `floor`, `ceil`, `trunc` have float loops only (NumPy before 2.3, CuPy);
//! - integer `power` with a negative exponent and integer division by zero
//!   give values instead of errors (see `kernels/cuprum/math.cuh`).

use super::builder::UfuncBuilder as Def;
use super::{Identity, Resolver, Ufunc};

/// Integer loop characters in NumPy's order.
const INTS: &str = "bBhHiIlL";
/// Float loop characters (with bfloat16).
const FLOATS: &str = "eEfd";
/// Complex loop characters.
const CPLX: &str = "FD";

fn cat(parts: &[&str]) -> String {
    parts.concat()
}

/// A unary float/complex math function `cuprum::f`.
fn unary_math(name: &'static str, f: &str, complex: bool, doc: &'static str) -> Ufunc {
    let op = format!("out0 = cuprum::{f}(in0);");
    let chars = if complex {
        cat(&[FLOATS, CPLX])
    } else {
        FLOATS.to_owned()
    };
    Def::new(name, 1, 1, doc).hom(&chars, &op).done()
}

fn comparison(name: &'static str, f: &str, doc: &'static str) -> Ufunc {
    let op = format!("out0 = cuprum::{f}(in0, in1);");
    Def::new(name, 2, 1, doc)
        .to("?", '?', &op)
        .to(INTS, '?', &op)
        .sigs(&["lL->?", "Ll->?"], &op)
        .to(&cat(&[FLOATS, CPLX]), '?', &op)
        .done()
}

/// A logical ufunc: `op` (`&&`, `||`, `!=`) between the inputs' truth
/// values.
fn logical(name: &'static str, op: &str, identity: Identity, doc: &'static str) -> Ufunc {
    let op = format!("out0 = cuprum::cast<bool>(in0) {op} cuprum::cast<bool>(in1);");
    Def::new(name, 2, 1, doc)
        .identity(identity)
        .to(&cat(&["?", INTS, FLOATS, CPLX]), '?', &op)
        .done()
}

fn classify(name: &'static str, f: &str, ints: bool, doc: &'static str) -> Ufunc {
    let op = format!("out0 = cuprum::{f}(in0);");
    let chars = if ints {
        cat(&["?", INTS, FLOATS, CPLX])
    } else {
        FLOATS.to_owned()
    };
    Def::new(name, 1, 1, doc).to(&chars, '?', &op).done()
}

/// A binary float function `cuprum::f(in0, in1)`.
fn binary_float(name: &'static str, f: &str, doc: &'static str) -> Ufunc {
    Def::new(name, 2, 1, doc)
        .hom(FLOATS, &format!("out0 = cuprum::{f}(in0, in1);"))
        .done()
}

/// Every ufunc, in the order of the reference's lists.
pub(super) fn build() -> Vec<Ufunc> {
    let numeric = cat(&[INTS, FLOATS, CPLX]);
    let real = cat(&[INTS, FLOATS]);
    let mut t = vec![
        // Math operations.
        Def::new("add", 2, 1, "Adds two arrays elementwise.")
            .identity(Identity::Zero)
            .hom("?", "out0 = in0 || in1;")
            .hom(&numeric, "out0 = in0 + in1;")
            .done(),
        Def::new("subtract", 2, 1, "Subtracts arguments elementwise.")
            .bool_error(
                "numpy boolean subtract, the `-` operator, is not supported, use the \
                 bitwise_xor, the `^` operator, or the logical_xor function instead.",
            )
            .hom(&numeric, "out0 = in0 - in1;")
            .done(),
        Def::new("multiply", 2, 1, "Multiplies two arrays elementwise.")
            .identity(Identity::One)
            .hom("?", "out0 = in0 && in1;")
            .hom(&numeric, "out0 = in0 * in1;")
            .done(),
        Def::new("true_divide", 2, 1, "Elementwise true division.")
            .resolver(Resolver::TrueDivide)
            .hom(&cat(&[FLOATS, CPLX]), "out0 = in0 / in1;")
            .done(),
        Def::new(
            "logaddexp",
            2,
            1,
            "Computes log(exp(x1) + exp(x2)) elementwise.",
        )
        .identity(Identity::NegInfinity)
        .hom(FLOATS, "out0 = cuprum::logaddexp(in0, in1);")
        .done(),
        Def::new(
            "logaddexp2",
            2,
            1,
            "Computes log2(exp2(x1) + exp2(x2)) elementwise.",
        )
        .identity(Identity::NegInfinity)
        .hom(FLOATS, "out0 = cuprum::logaddexp2(in0, in1);")
        .done(),
        Def::new("floor_divide", 2, 1, "Elementwise floor division.")
            .hom(&real, "out0 = cuprum::floor_divide(in0, in1);")
            .done(),
        Def::new("negative", 1, 1, "Takes numerical negative elementwise.")
            .bool_error(
                "The numpy boolean negative, the `-` operator, is not supported, use the \
                 `~` operator or the logical_not function instead.",
            )
            .hom(&numeric, "out0 = -in0;")
            .done(),
        Def::new("positive", 1, 1, "Takes numerical positive elementwise.")
            .hom(&numeric, "out0 = in0;")
            .done(),
        Def::new("power", 2, 1, "Computes x1 ** x2 elementwise.")
            .hom(&numeric, "out0 = cuprum::power(in0, in1);")
            .done(),
        Def::new("float_power", 2, 1, "x1 ** x2 in float64 or complex128.")
            .hom("dD", "out0 = cuprum::power(in0, in1);")
            .done(),
        Def::new(
            "remainder",
            2,
            1,
            "Computes the remainder of Python division elementwise.",
        )
        .hom(&real, "out0 = cuprum::remainder(in0, in1);")
        .done(),
        Def::new(
            "fmod",
            2,
            1,
            "Computes the remainder of C division elementwise.",
        )
        .hom(&real, "out0 = cuprum::fmod(in0, in1);")
        .done(),
        Def::new("divmod", 2, 2, "Floor quotient and remainder, elementwise.")
            .hom(INTS, "out0 = cuprum::divmod(in0, in1, &out1);")
            .hom(FLOATS, "out0 = cuprum::divmod(in0, in1, &out1);")
            .done(),
        Def::new("absolute", 1, 1, "Elementwise absolute value function.")
            .hom(&cat(&["?", INTS, FLOATS]), "out0 = cuprum::absolute(in0);")
            .sigs(&["F->f", "D->d"], "out0 = cuprum::absolute(in0);")
            .done(),
        Def::new("fabs", 1, 1, "Absolute value of real floats.")
            .hom(FLOATS, "out0 = cuprum::fabs(in0);")
            .done(),
        unary_math(
            "rint",
            "rint",
            true,
            "Rounds to the nearest integer (half to even).",
        ),
        Def::new("sign", 1, 1, "Elementwise sign function.")
            .hom(&numeric, "out0 = cuprum::sign(in0);")
            .done(),
        Def::new("heaviside", 2, 1, "Heaviside step function.")
            .hom(FLOATS, "out0 = cuprum::heaviside(in0, in1);")
            .done(),
        Def::new("conjugate", 1, 1, "Complex conjugate elementwise.")
            .hom(&real, "out0 = in0;")
            .hom(CPLX, "out0 = cuprum::conj(in0);")
            .done(),
        unary_math("exp", "exp", true, "Elementwise exponential function."),
        unary_math(
            "exp2",
            "exp2",
            true,
            "Elementwise exponentiation with base 2.",
        ),
        unary_math(
            "log",
            "log",
            true,
            "Elementwise natural logarithm function.",
        ),
        unary_math(
            "log2",
            "log2",
            true,
            "Elementwise binary logarithm function.",
        ),
        unary_math(
            "log10",
            "log10",
            true,
            "Elementwise common logarithm function.",
        ),
        unary_math("expm1", "expm1", true, "Computes exp(x) - 1 elementwise."),
        unary_math("log1p", "log1p", true, "Computes log(1 + x) elementwise."),
        unary_math("sqrt", "sqrt", true, "Elementwise square root function."),
        Def::new("square", 1, 1, "Elementwise square function.")
            .hom(&numeric, "out0 = cuprum::square(in0);")
            .done(),
        unary_math("cbrt", "cbrt", false, "Elementwise cube root."),
        Def::new("reciprocal", 1, 1, "Computes 1 / x elementwise.")
            .hom(&numeric, "out0 = cuprum::reciprocal(in0);")
            .done(),
        Def::new("gcd", 2, 1, "Computes gcd of x1 and x2 elementwise.")
            .identity(Identity::Zero)
            .hom(INTS, "out0 = cuprum::gcd(in0, in1);")
            .done(),
        Def::new("lcm", 2, 1, "Computes lcm of x1 and x2 elementwise.")
            .hom(INTS, "out0 = cuprum::lcm(in0, in1);")
            .done(),
        // Trigonometric functions.
        unary_math("sin", "sin", true, "Elementwise sine function."),
        unary_math("cos", "cos", true, "Elementwise cosine function."),
        unary_math("tan", "tan", true, "Elementwise tangent function."),
        unary_math("arcsin", "asin", true, "Elementwise inverse-sine function."),
        unary_math(
            "arccos",
            "acos",
            true,
            "Elementwise inverse-cosine function.",
        ),
        unary_math(
            "arctan",
            "atan",
            true,
            "Elementwise inverse-tangent function.",
        ),
        binary_float(
            "arctan2",
            "atan2",
            "Inverse tangent of x1 / x2 with the right quadrant.",
        ),
        Def::new(
            "hypot",
            2,
            1,
            "Computes the hypotenuse of orthogonal vectors of given length.",
        )
        .identity(Identity::Zero)
        .hom(FLOATS, "out0 = cuprum::hypot(in0, in1);")
        .done(),
        unary_math(
            "sinh",
            "sinh",
            true,
            "Elementwise hyperbolic sine function.",
        ),
        unary_math(
            "cosh",
            "cosh",
            true,
            "Elementwise hyperbolic cosine function.",
        ),
        unary_math(
            "tanh",
            "tanh",
            true,
            "Elementwise hyperbolic tangent function.",
        ),
        unary_math(
            "arcsinh",
            "asinh",
            true,
            "Inverse hyperbolic sine elementwise.",
        ),
        unary_math(
            "arccosh",
            "acosh",
            true,
            "Inverse hyperbolic cosine elementwise.",
        ),
        unary_math(
            "arctanh",
            "atanh",
            true,
            "Inverse hyperbolic tangent elementwise.",
        ),
        unary_math(
            "deg2rad",
            "deg2rad",
            false,
            "Converts angles from degrees to radians.",
        ),
        unary_math(
            "rad2deg",
            "rad2deg",
            false,
            "Converts angles from radians to degrees.",
        ),
        // Bit-twiddling functions.
        Def::new(
            "bitwise_and",
            2,
            1,
            "Computes the bitwise AND of two arrays elementwise.",
        )
        .identity(Identity::AllOnes)
        .hom(&cat(&["?", INTS]), "out0 = in0 & in1;")
        .done(),
        Def::new(
            "bitwise_or",
            2,
            1,
            "Computes the bitwise OR of two arrays elementwise.",
        )
        .identity(Identity::Zero)
        .hom(&cat(&["?", INTS]), "out0 = in0 | in1;")
        .done(),
        Def::new(
            "bitwise_xor",
            2,
            1,
            "Computes the bitwise XOR of two arrays elementwise.",
        )
        .identity(Identity::Zero)
        .hom(&cat(&["?", INTS]), "out0 = in0 ^ in1;")
        .done(),
        Def::new(
            "invert",
            1,
            1,
            "Computes the bitwise NOT of an array elementwise.",
        )
        .hom("?", "out0 = !in0;")
        .hom(INTS, "out0 = ~in0;")
        .done(),
        Def::new(
            "left_shift",
            2,
            1,
            "Shifts the bits of each integer element to the left.",
        )
        .hom(INTS, "out0 = cuprum::left_shift(in0, in1);")
        .done(),
        Def::new(
            "right_shift",
            2,
            1,
            "Shifts the bits of each integer element to the right.",
        )
        .hom(INTS, "out0 = cuprum::right_shift(in0, in1);")
        .done(),
        // Comparison functions.
        comparison("greater", "greater", "Tests elementwise if x1 > x2."),
        comparison(
            "greater_equal",
            "greater_equal",
            "Tests elementwise if x1 >= x2.",
        ),
        comparison("less", "less", "Tests elementwise if x1 < x2."),
        comparison("less_equal", "less_equal", "Tests elementwise if x1 <= x2."),
        comparison("not_equal", "not_equal", "Tests elementwise if x1 != x2."),
        comparison("equal", "equal", "Tests elementwise if x1 == x2."),
        logical(
            "logical_and",
            "&&",
            Identity::One,
            "Computes the logical AND of two arrays.",
        ),
        logical(
            "logical_or",
            "||",
            Identity::Zero,
            "Computes the logical OR of two arrays.",
        ),
        logical(
            "logical_xor",
            "!=",
            Identity::Zero,
            "Computes the logical XOR of two arrays.",
        ),
        Def::new("logical_not", 1, 1, "Computes the logical NOT of an array.")
            .to(
                &cat(&["?", INTS, FLOATS, CPLX]),
                '?',
                "out0 = !cuprum::cast<bool>(in0);",
            )
            .done(),
        Def::new(
            "maximum",
            2,
            1,
            "Takes the maximum of two arrays elementwise (NaN wins).",
        )
        .hom(&cat(&["?", &numeric]), "out0 = cuprum::maximum(in0, in1);")
        .done(),
        Def::new(
            "minimum",
            2,
            1,
            "Takes the minimum of two arrays elementwise (NaN wins).",
        )
        .hom(&cat(&["?", &numeric]), "out0 = cuprum::minimum(in0, in1);")
        .done(),
        Def::new(
            "fmax",
            2,
            1,
            "Takes the maximum of two arrays elementwise (NaN loses).",
        )
        .hom(&cat(&["?", &numeric]), "out0 = cuprum::fmax(in0, in1);")
        .done(),
        Def::new(
            "fmin",
            2,
            1,
            "Takes the minimum of two arrays elementwise (NaN loses).",
        )
        .hom(&cat(&["?", &numeric]), "out0 = cuprum::fmin(in0, in1);")
        .done(),
        // Floating functions.
        classify(
            "isfinite",
            "isfinite",
            true,
            "Tests finiteness elementwise.",
        ),
        classify(
            "isinf",
            "isinf",
            true,
            "Tests if each element is the positive or negative infinity.",
        ),
        classify("isnan", "isnan", true, "Tests if each element is a NaN."),
        classify(
            "signbit",
            "signbit",
            false,
            "Tests elementwise if the sign bit is set.",
        ),
        binary_float(
            "copysign",
            "copysign",
            "Returns the first argument with the sign bit of the second elementwise.",
        ),
        binary_float(
            "nextafter",
            "nextafter",
            "Computes the nearest neighbor float values towards the second argument.",
        ),
        unary_math(
            "spacing",
            "spacing",
            false,
            "Distance to the nearest adjacent float.",
        ),
        Def::new(
            "modf",
            1,
            2,
            "Extracts the fractional and integral parts of an array elementwise.",
        )
        .hom(FLOATS, "out0 = cuprum::modf(in0, &out1);")
        .done(),
        Def::new("ldexp", 2, 1, "Computes x1 * 2 ** x2 elementwise.")
            .sigs(
                &["ei->e", "Ei->E", "fi->f"],
                "out0 = cuprum::ldexp(in0, in1);",
            )
            .sigs(
                &["el->e", "El->E", "fl->f"],
                "out0 = cuprum::ldexp_ll(in0, in1);",
            )
            .sigs(&["di->d"], "out0 = cuprum::ldexp(in0, in1);")
            .sigs(&["dl->d"], "out0 = cuprum::ldexp_ll(in0, in1);")
            .done(),
        Def::new(
            "frexp",
            1,
            2,
            "Decomposes each element to mantissa and two's exponent.",
        )
        .sigs(
            &["e->ei", "E->Ei", "f->fi", "d->di"],
            "out0 = cuprum::frexp(in0, &out1);",
        )
        .done(),
        unary_math(
            "floor",
            "floor",
            false,
            "Rounds each element of an array to its floor integer.",
        ),
        unary_math(
            "ceil",
            "ceil",
            false,
            "Rounds each element of an array to its ceiling integer.",
        ),
        unary_math(
            "trunc",
            "trunc",
            false,
            "Rounds each element of an array towards zero.",
        ),
    ];
    t.shrink_to_fit();
    t
}
