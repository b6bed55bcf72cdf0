//! The reference's 22 names and their companions.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

unary! {
    /// `scipy.special.j0`: Bessel function of the first kind of order 0
    /// (CUDA's libdevice `j0` below 25; Hankel's expansion, DLMF 10.17.3,
    /// with an exactly reduced phase beyond, as j1, y0 and y1).
    j0 => "j0", ": [0.98444, 0.93847, 0.22389]";
    /// `scipy.special.j1`: Bessel function of the first kind of order 1.
    j1 => "j1", ": [0.12403, 0.24227, 0.57672]";
    /// `scipy.special.y0`: Bessel function of the second kind of order 0;
    /// -inf at 0, NaN below.
    y0 => "y0", ": [-0.93157, -0.44452, 0.51038]";
    /// `scipy.special.y1`: Bessel function of the second kind of order 1;
    /// -inf at 0, NaN below.
    y1 => "y1", ": [-2.70411, -1.47147, -0.10703]";
    /// `scipy.special.i0`: modified Bessel function of the first kind of
    /// order 0 (NaN at +-inf, as SciPy's).
    i0 => "i0", ": [1.01569, 1.06348, 2.27959]";
    /// `scipy.special.i1`: modified Bessel function of the first kind of
    /// order 1.
    i1 => "i1", ": [0.12598, 0.25789, 1.59064]";
    /// `scipy.special.entr`: `-x log x`, 0 at 0, -inf below 0.
    entr => "entr", ": [0.34657, 0.34657, -1.38629]";
    /// `scipy.special.expit`: the logistic sigmoid `1 / (1 + exp(-x))`.
    expit => "expit", ": [0.56218, 0.62246, 0.88080]";
    /// `scipy.special.logit`: `log(p / (1 - p))`, NaN outside [0, 1].
    logit => "logit", ": [-1.09861, 0, nan]";
    /// `scipy.special.gamma`: the gamma function; inf at +0, -inf at -0,
    /// NaN at the negative integers (CUDA's libdevice `tgamma`). Complex
    /// input (`cgamma.cuh`): the product of the recurrence (DLMF 5.5.1)
    /// with exp of loggamma's Taylor series near 2 + ik, Stirling's series
    /// (DLMF 5.11.1) with its exponent in double-double, and the
    /// reflection (DLMF 5.5.3) for `Re z < 0`; NaN at the poles, as SciPy.
    gamma => "gamma", ": [3.62561, 1.77245, 1]";
    /// `scipy.special.gammaln`: `log|gamma(x)|`; inf at the poles.
    gammaln => "gammaln", ": [1.28802, 0.57236, 0]";
    /// `scipy.special.digamma` (`psi`): the logarithmic derivative of gamma
    /// (DLMF 5.5.2, 5.11.2, 5.15.1). Complex input (`cgamma.cuh`): the
    /// asymptotic series (DLMF 5.11.2) after the recurrence, the
    /// derivative of loggamma's Taylor series near 2 + ik, the reflection
    /// (DLMF 5.5.4) for `Re z < 0`, `|Im z| < 16`, and Taylor series at the
    /// positive root and the first four negative roots.
    digamma => "digamma", ": [-4.22745, -1.96351, 0.42278]";
    /// `scipy.special.zetac`: `zeta(x) - 1`, exact where zeta is near 1.
    zetac => "zetac", ": [-1.81328, -2.46035, 0.64493]";
    /// `scipy.special.ndtr`: the standard normal CDF (Cephes' erf/erfc
    /// split with the rounding of `x / sqrt 2` corrected). Complex loops:
    /// `erfc(-z / sqrt 2) / 2` through the Faddeeva function (see `erf`),
    /// with `exp(-z^2 / 2)` formed from `z` itself.
    ndtr => "ndtr", ": [0.59871, 0.69146, 0.97725]";
    /// `scipy.special.erf`: the error function (CUDA's libdevice `erf`).
    /// Complex loops (D->D; F->F rounds the complex128 value): the
    /// Maclaurin series for `|z| < 1` (DLMF 7.6.1), `1 - erfc(z)` beyond,
    /// with erfc from the Faddeeva function `w(z) = exp(-z^2) erfc(-iz)`
    /// (DLMF 7.2.3): Laplace's continued fraction for `|z| >= 7` or
    /// `Im z >= 5` (Gautschi 1970; Poppe & Wijers 1990), elsewhere the
    /// trapezoidal rule of its integral with the pole correction (Matta &
    /// Reichel 1971; Zaghloul & Ali 2011, Algorithm 916), its node nearest
    /// to `z` merged with the pole term so that nothing cancels, and
    /// `exp(-z^2)` from `z^2` in double-double; SciPy's special values.
    erf => "erf", ": [0.27633, 0.52050, 0.99532]";
    /// `scipy.special.erfc`: `1 - erf(x)`, without the cancellation.
    /// Complex loops: `exp(-z^2) w(iz)` for `Re z >= 0`, `2 - erfc(-z)`
    /// otherwise (the Faddeeva function as in `erf`).
    erfc => "erfc", ": [0.72367, 0.47950, 0.00468]";
    /// `scipy.special.erfcx`: `exp(x^2) erfc(x)`. Complex loops: the
    /// Faddeeva function `w(iz)` (see `erf`) for `Re z >= 0`, and
    /// `2 exp(z^2) - w(-iz)` otherwise (DLMF 7.4.3).
    erfcx => "erfcx", ": [0.77035, 0.61569, 0.25540]";
    /// `scipy.special.erfinv`: the inverse of erf; +-inf at +-1, NaN
    /// beyond.
    erfinv => "erfinv", ": [0.22531, 0.47694, nan]";
    /// `scipy.special.erfcinv`: the inverse of erfc; inf at 0, -inf at 2,
    /// NaN outside [0, 2].
    erfcinv => "erfcinv", ": [0.81342, 0.47694, -inf]";
}

binary! {
    /// `scipy.special.rel_entr(x, y)`: `x log(x / y)`; 0 where `x = 0 <=
    /// y`, inf elsewhere outside `x, y > 0`.
    rel_entr => "rel_entr", ": [2.68764, 1.64792, -0.43152]";
    /// `scipy.special.kl_div(x, y)`: `x log(x / y) - x + y`.
    kl_div => "kl_div", ": [1.43764, 0.64792, 0.06848]";
    /// `scipy.special.huber(delta, r)`: `r^2 / 2` for `|r| <= delta`,
    /// `delta (|r| - delta / 2)` beyond; inf for `delta < 0`.
    huber => "huber", ": [0.03125, 0.125, 1.875]";
    /// `scipy.special.pseudo_huber(delta, r)`: `delta^2 (sqrt(1 + (r /
    /// delta)^2) - 1)`, computed without cancellation.
    pseudo_huber => "pseudo_huber", ": [0.03104, 0.12171, 1.5]";
    /// `scipy.special.polygamma(n, x)`: the n-th derivative of digamma,
    /// `(-1)^(n+1) n! zeta(n+1, x)` (DLMF 5.15.2); NaN for a non-integer
    /// or negative `n`.
    polygamma => "polygamma", " with n = 1.5: nan";
}

/// `scipy.special.zeta(x, q)`: the Hurwitz zeta function `sum_k (k +
/// q)^-x` (Euler-Maclaurin, DLMF 25.11.5); with `q = None`, Riemann's
/// zeta (DLMF 25.4.1 below 0, Borwein's eta series on [0, 1)). inf at
/// `x = 1`, NaN for `x < 1` with a `q`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([2.0, 4.0])?;
/// let h = gpu_special::zeta(&x, Some(1.0.into()))?; // scipy.special.zeta(x, 1): [1.64493, 1.08232]
/// let r = gpu_special::zeta(&x, None)?; // scipy.special.zeta(x): the same
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes, shapes that do not broadcast;
/// allocation or launch failed.
pub fn zeta<'a, 'b>(x: impl Into<Arg<'a>>, q: Option<Arg<'b>>) -> Result<Array> {
    let x = x.into();
    match q {
        Some(q) => {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            apply(lookup(&U, "zeta")?, &[x.input(), q.input()])
        }
        None => {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            apply(lookup(&U, "riemann_zeta")?, &[x.input()])
        }
    }
}
