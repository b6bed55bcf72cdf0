//! The functions of `table/elementary.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

unary! {
    /// `scipy.special.expm1`: `exp(x) - 1` without cancellation near 0
    /// (CUDA's `expm1`).
    expm1 => "expm1", ": [0.28403, 0.64872, 6.38906]";
    /// `scipy.special.log1p`: `log(1 + x)` without cancellation near 0;
    /// -inf at -1, NaN below.
    log1p => "log1p", ": [0.22314, 0.40547, 1.09861]";
    /// `scipy.special.cbrt`: the real cube root.
    cbrt => "cbrt", ": [0.62996, 0.79370, 1.25992]";
    /// `scipy.special.exp2`: `2**x`.
    exp2 => "exp2", ": [1.18921, 1.41421, 4]";
    /// `scipy.special.exp10`: `10**x`.
    exp10 => "exp10", ": [1.77828, 3.16228, 100]";
    /// `scipy.special.round`: the nearest integer, halves to even (Cephes'
    /// floor-based rounding: -0.5 rounds to +0).
    round => "round", ": [0, 0, 2]";
    /// `scipy.special.sindg`: sine of `x` degrees, exact at the multiples
    /// of 30 and 90 (Cephes' octant reduction); 0 beyond 1e14 degrees.
    sindg => "sindg", ": [0.00436, 0.00873, 0.03490]";
    /// `scipy.special.cosdg`: cosine of `x` degrees.
    cosdg => "cosdg", ": [0.99999, 0.99996, 0.99939]";
    /// `scipy.special.tandg`: tangent of `x` degrees; inf at odd
    /// multiples of 90, exactly +-1 at 45 + 90 k.
    tandg => "tandg", ": [0.00436, 0.00873, 0.03492]";
    /// `scipy.special.cotdg`: cotangent of `x` degrees; inf at multiples
    /// of 180.
    cotdg => "cotdg", ": [229.18166, 114.58865, 28.63625]";
    /// `scipy.special.exprel`: `(exp(x) - 1) / x`, 1 at 0.
    exprel => "exprel", ": [1.13611, 1.29744, 3.19453]";
    /// `scipy.special.log_expit`: `log(expit(x))` without overflow or
    /// cancellation in either tail.
    log_expit => "log_expit", ": [-0.57593, -0.47408, -0.12693]";
    /// `numpy.sinc`: the normalized sinc `sin(pi x) / (pi x)`, 1 at 0.
    sinc => "sinc", ": [0.90032, 0.63662, 0]";
}

binary! {
    /// `scipy.special.xlogy(x, y)`: `x log(y)`, 0 where `x = 0` and `y`
    /// is not NaN.
    xlogy => "xlogy", ": [-2.07944, 1.03972, 1.03972] (1.5 log x)";
    /// `scipy.special.xlog1py(x, y)`: `x log1p(y)`, 0 where `x = 0` and
    /// `y` is not NaN.
    xlog1py => "xlog1py", ": [0.33472, 0.60820, 1.64792]";
    /// `scipy.special.boxcox(x, lmbda)`: `(x**lmbda - 1) / lmbda`
    /// (through `expm1`), `log(x)` at `lmbda = 0` (Box and Cox 1964).
    boxcox => "boxcox", ": with x = 1.5, [0.43024, 0.44949, 0.625]";
    /// `scipy.special.boxcox1p(x, lmbda)`: Box-Cox of `1 + x`, through
    /// `log1p` and `expm1`.
    boxcox1p => "boxcox1p", ": with x = 1.5, [0.97151, 1.16228, 2.625]";
    /// `scipy.special.inv_boxcox(y, lmbda)`: `(1 + lmbda y)**(1 / lmbda)`.
    inv_boxcox => "inv_boxcox", ": with y = 1.5, [3.8147, 3.0625, 2]";
    /// `scipy.special.inv_boxcox1p(y, lmbda)`: the inverse of boxcox1p.
    inv_boxcox1p => "inv_boxcox1p", ": with y = 1.5, [2.8147, 2.0625, 1]";
}

ternary! {
    /// `scipy.special.radian(d, m, s)`: degrees, minutes and seconds to
    /// radians, `(d + m / 60 + s / 3600) pi / 180` (pi / 180 in
    /// double-double).
    radian => "radian", ": [0.03492, 0.03492, 0.03492]";
}
