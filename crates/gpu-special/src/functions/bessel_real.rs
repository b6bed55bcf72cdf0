//! The functions of `table/bessel_real.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, apply_n, lookup};

binary! {
    /// `scipy.special.jv(v, x)`: Bessel function of the first kind of
    /// real order `v` (Steed's method with Temme's series for Y at `x <
    /// 2`, the power series where `x^2/4 <= 2 (|v| + 1)`, Hankel's
    /// expansion DLMF 10.17.3 at large `x`; DLMF 10.4.7 for `v < 0`,
    /// `(-1)^n J_n` for integers). NaN for `x < 0` unless `v` is an
    /// integer, and at `x = +-inf`; `J_v(0)` is 1 for `v = 0`, 0 for `v >
    /// 0` or a negative integer, and an infinity of the sign of
    /// `Gamma(1 + v)` for other `v < 0`. Complex loops (real `v`, complex
    /// `z`; complex64 rounds the complex128 value): `J_v(z) = e^{v pi i/2}
    /// I_v(-iz)` (DLMF 10.27.6) for `Im z >= 0`, conjugation below, with
    /// the complex `I`, `K` of `iv`/`kv`; DLMF 10.4.7 for `v < 0`. SciPy's
    /// special values: `z = 0` as the real loop except NaN for non-integer
    /// `v < 0`; an overflowed value is `e^{-|Im z|} J` times inf part by
    /// part; NaN at infinite parts and off the real axis beyond `|z| =
    /// 0.5/eps`.
    jv => "jv", ": [0.03304, 0.09170, 0.49129]";
    /// `scipy.special.yv(v, x)`: Bessel function of the second kind of
    /// real order `v` (Temme's series at `x < 2`, Steed's method, Hankel's
    /// expansion; DLMF 10.4.8 for `v < 0`). NaN for `x < 0` and at `x =
    /// inf`; `-inf` at `x = 0` for `v >= 0` (SciPy's signed infinity for
    /// `v < 0`). Complex loops: `Y = (H1 - J)/i` with `H1_v(z) = (2/(pi
    /// i)) e^{-v pi i/2} K_v(-iz)` (DLMF 10.27.8) for `Im z >= 0`,
    /// conjugation below; DLMF 10.4.8 for `v < 0`. `-inf + 0i` at `z = 0`
    /// (with SciPy's reflection for `v < 0`) and where it overflows on the
    /// positive real axis, NaN where it overflows elsewhere.
    yv => "yv", ": [-6.57944, -2.52147, -0.39562]";
    /// `scipy.special.iv(v, x)`: modified Bessel function of the first
    /// kind of real order `v` (the power series DLMF 10.25.2; beyond, the
    /// continued fraction for `I_{v+1}/I_v` with the Wronskian and Temme's
    /// or Steed's `K`; DLMF 10.27.2 for `v < 0`). NaN for `x < 0` unless
    /// `v` is an integer (then `(-1)^v I_v(|x|)`) and at `x = +-inf`;
    /// `I_v(0)` is 1 for `v = 0`, 0 for `v > 0` or a negative integer, inf
    /// for other `v < 0`; inf past overflow. Complex loops: for `Re z >=
    /// 0` the power series DLMF 10.25.2 where it does not cancel, else the
    /// continued fraction for `I_{v+1}/I_v` (from DLMF 10.29.1) with the
    /// Wronskian DLMF 10.28.2 and the complex `K` of `kv`, or Hankel's
    /// expansion DLMF 10.40.5 at large `|z|`; DLMF 10.34.1 for `Re z < 0`
    /// (the upper side for `Im z = +-0`, as SciPy), conjugation for `Im z <
    /// 0`, DLMF 10.27.2 for `v < 0`. An overflowed value is `e^{-|Re z|} I`
    /// times inf part by part (`+-inf + 0i` on the real axis); NaN at
    /// infinite parts and off the positive real axis beyond `|z| = 2^30`.
    iv => "iv", ": [0.03345, 0.09640, 1.09947]";
    /// `scipy.special.kv(v, x)`: modified Bessel function of the second
    /// kind of real order `v` (Temme's series, N. M. Temme, J. Comput.
    /// Phys. 19 (1975), at `x <= 2`; Steed's continued fraction CF2 after
    /// Thompson and Barnett beyond; upward recurrence in the order;
    /// `K_{-v} = K_v`). inf at `x = 0`, NaN for `x < 0`, 0 at `x = inf`.
    /// Complex loops: for `Re z >= 0` Temme's series (valid for complex
    /// `z`) at `|z| <= 2`, Steed's CF2 (Thompson and Barnett, Comput. Phys.
    /// Commun. 47 (1987) 245) beyond, reduced to `|mu| <= 1/2` and
    /// recurred upward, or Hankel's expansion DLMF 10.40.2 at large `|z|`;
    /// DLMF 10.34.2 for `Re z < 0`, conjugation for `Im z < 0`. NaN at `z
    /// = 0` and at infinite parts (SciPy's), `inf + 0i` where it overflows
    /// on the positive real axis and NaN elsewhere; NaN off the positive
    /// real axis beyond `|z| = 2^30`. Orders beyond `1e5` give only the
    /// under- or overflowed values where `|z| <= |v|/2` (NaN elsewhere),
    /// as the real loops.
    kv => "kv", ": [9.76082, 3.22514, 0.17991]";
}

/// `scipy.special.airy(x)`: the Airy functions `(Ai, Ai', Bi, Bi')` (the
/// Maclaurin series DLMF 9.4 for `|x| <= 1`; beyond, Bessel functions of
/// order 1/3 and 2/3, DLMF 9.6, with `(2/3) |x|^{3/2}` carried in two
/// doubles). NaN at `+-inf`, NaN, and below `x = -5.6e10` (where the
/// phase no longer fits a double; SciPy's is NaN there too).
///
/// Complex loops (complex64 rounds the complex128 value): the real loop on
/// the real axis; elsewhere the Maclaurin series DLMF 9.4.1-9.4.4 for `|z|
/// <= 1` and beyond DLMF 9.6.1-9.6.9 through the complex modified Bessel
/// functions of order 1/3 and 2/3 of `iv`/`kv` (with DLMF 10.34.1,
/// 10.34.2 for `pi/3 < |ph z| <= 2 pi/3`, and `J`, `Y` of `(2/3)(-z)^{3/2}`
/// beyond), `zeta = (2/3) z^{3/2}` carried in two doubles. As SciPy's: NaN
/// at NaN or infinite parts and beyond `|z| = (2^30)^{2/3}`, NaN for each
/// value that overflows, 0 where it underflows.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let (ai, aip, bi, bip) = gpu_special::airy(&x)?;
/// // scipy.special.airy(x): ai [0.29116, 0.23169, 0.03492],
/// // aip [-0.24906, -0.22491, -0.05309], bi [0.72875, 0.85428, 3.29809],
/// // bip [0.46986, 0.54457, 4.10068]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn airy<'a>(x: impl Into<Arg<'a>>) -> Result<(Array, Array, Array, Array)> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let x = x.into();
    let [ai, aip, bi, bip] = apply_n::<4>(lookup(&U, "airy")?, &[x.input()])?;
    Ok((ai, aip, bi, bip))
}
