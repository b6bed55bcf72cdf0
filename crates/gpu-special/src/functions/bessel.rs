//! The functions of `table/bessel.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

unary! {
    /// `scipy.special.i0e`: `exp(-|x|) i0(x)` (power series DLMF 10.25.2
    /// below |x| = 30, asymptotic expansion DLMF 10.40.1 above); 0 at
    /// +-inf.
    i0e => "i0e", ": [0.79102, 0.64504, 0.30851]";
    /// `scipy.special.i1e`: `exp(-|x|) i1(x)`, odd; +-0 at +-inf.
    i1e => "i1e", ": [0.09811, 0.15642, 0.21527]";
    /// `scipy.special.k0`: modified Bessel function of the second kind of
    /// order 0 (Temme's series at x <= 2, Steed's continued fraction CF2
    /// up to 30, DLMF 10.40.2 beyond); inf at 0, NaN below, 0 at inf.
    k0 => "k0", ": [1.54151, 0.92442, 0.11389]";
    /// `scipy.special.k0e`: `exp(x) k0(x)`; inf at 0, NaN below, 0 at inf.
    k0e => "k0e", ": [1.97933, 1.52411, 0.84157]";
    /// `scipy.special.k1`: modified Bessel function of the second kind of
    /// order 1 (the power series DLMF 10.31.1 at x <= 1; beyond, a
    /// Chebyshev expansion of `exp(x) sqrt(x) k1(x)` in `2/x - 1`, as
    /// Cephes' k1.c builds it, over x >= 1); inf at 0, NaN below, 0 at inf.
    k1 => "k1", ": [3.74703, 1.65644, 0.13987]";
    /// `scipy.special.k1e`: `exp(x) k1(x)`; inf at 0, NaN below, 0 at inf.
    k1e => "k1e", ": [4.81128, 2.73101, 1.03348]";
}

binary! {
    /// `scipy.special.yn(n, x)`: Bessel function of the second kind of
    /// integer order (forward recurrence DLMF 10.6.1 from y0, y1, as
    /// Cephes' yn.c; Hankel's expansion DLMF 10.17.4 at x >= 25 where
    /// n^2 <= 2x; `Y_{-n} = (-1)^n Y_n`). As SciPy's: n an int64 wraps to
    /// 32 bits and a float n is truncated toward 0; -inf at x = 0 (times
    /// that sign) and past overflow, NaN for x < 0 and at x = inf.
    yn => "yn", ": [-2.70411, -1.47147, -0.10703] (n = 1.5 truncates to 1, as SciPy's)";
}

/// `scipy.special.spherical_jn(n, x)` (`derivative=False`; SciPy's
/// `_spherical_jn` ufunc, loops `ld->d lD->D lf->f lF->F`): the spherical
/// Bessel function of the first kind `j_n(x)` of integer order `n >= 0`,
/// real `x` (the power series DLMF 10.53.1 where `x^2 <= 2n + 3`, Miller's
/// backward recurrence normalised by DLMF 10.60.11 up to `x = n`, forward
/// recurrence DLMF 10.51.1 beyond, Hankel's terminating expansion DLMF
/// 10.49.2 at `x >= 25` where `(n + 1/2)^2 <= 2x`). Near the real zeros
/// (where `1 <= n <= 1000`, `n <= |x| <= 2^19` and the value is below 1/32
/// of the envelope's floor `1/|x|`, DLMF 10.49.6) the value is redone in
/// double-double arithmetic (Dekker 1971: `sin x`, `cos x`, `j_0`, `j_1`
/// and the forward recurrence), which keeps its relative accuracy where
/// the double-precision rounding, of the envelope's size, would dominate
/// it. NaN for `n < 0` and at NaN, 0 at `+-inf`, `j_n(0)` 1 for `n = 0`
/// else 0, `j_n(-x) = (-1)^n j_n(x)`.
///
/// Complex loops (`lD->D`; `lF->F` rounds the complex128 value), taken
/// to the first quadrant by the parity and conjugation, with `sin z`,
/// `cos z` scaled by `e^{-|Im z|}`: the power series where `|z|^2 <= 2n +
/// 3`; Hankel's terminating expansion (DLMF 10.49.1) where `|z| >= 25` and
/// `(n + 1/2)^2 <= 2|z|`; the forward recurrence from `j_0 = sin z / z`,
/// `j_1` (DLMF 10.49.3, 10.51.1) where `n <= |z|` and `n^2 |Im z| <=
/// |z|^2 / 2`; elsewhere Miller's backward recurrence (DLMF 3.6(vi)),
/// started by the forward test solution's growth (Olver's and Gautschi's
/// error estimate, DLMF 3.6(v)) and normalised by `j_0` or `j_1`. Within
/// 1/2 of the real axis where `n <= |Re z|` (where the zeros are) in
/// double-double arithmetic (Dekker 1971), so that values near the zeros
/// keep their relative accuracy. SciPy's special values: `z` itself at a
/// NaN part, NaN for `n < 0`, 0 at `+-inf` on the real axis and `inf +
/// inf i` off it, NaN where `Im z` is infinite, and where `j_n` overflows
/// SciPy's NaN (beyond `|z| = 2^51`) or its `inf` pattern.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let y = gpu_special::spherical_jn(2, &x)?; // scipy.special.spherical_jn(2, x): [0.00415, 0.01637, 0.19844]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes (`n` must be an integer), shapes that
/// do not broadcast; allocation or launch failed.
pub fn spherical_jn<'a, 'b>(n: impl Into<Arg<'a>>, x: impl Into<Arg<'b>>) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (n, x) = (n.into(), x.into());
    apply(lookup(&U, "spherical_jn")?, &[n.input(), x.input()])
}

/// `scipy.special.spherical_yn(n, x)` (`derivative=False`; SciPy's
/// `_spherical_yn` ufunc, loops `ld->d lD->D lf->f lF->F`): the spherical
/// Bessel function of the second kind `y_n(x)` of integer order `n >= 0`,
/// real `x` (forward recurrence DLMF 10.51.1 from `y_0 = -cos x / x`,
/// Hankel's terminating expansion DLMF 10.49.2 at `x >= 25` where `(n +
/// 1/2)^2 <= 2x`); near the real zeros in double-double as for
/// [`spherical_jn`]. NaN for `n < 0` and at NaN, `-inf` at 0 and past
/// overflow, 0 at `+-inf` (with the parity's sign), `y_n(-x) =
/// (-1)^(n+1) y_n(x)`.
///
/// Complex loops (`lD->D`; `lF->F` rounds the complex128 value): Hankel's
/// terminating expansion (DLMF 10.49.2) as for [`spherical_jn`], else the
/// forward recurrence from `y_0 = -cos z / z`, `y_1` where it is stable,
/// and elsewhere (away from the real axis, past where `h1_n` takes over)
/// `y_n = i (j_n - h1_n)` with `j_n` as in [`spherical_jn`] and `h1_n` by
/// its own forward recurrence from `h1_0 = -i e^{iz}/z` (DLMF 10.49.6);
/// near the real axis in double-double as for `spherical_jn`. SciPy's
/// special values: `z` itself at a NaN part, NaN for `n < 0` and at 0,
/// where `y_n` overflows `-inf + NaN i` on the positive real axis and
/// NaN elsewhere.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let y = gpu_special::spherical_yn(2, &x)?; // scipy.special.spherical_yn(2, x): [-194.03093, -25.05992, -0.73399]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes (`n` must be an integer), shapes that
/// do not broadcast; allocation or launch failed.
pub fn spherical_yn<'a, 'b>(n: impl Into<Arg<'a>>, x: impl Into<Arg<'b>>) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (n, x) = (n.into(), x.into());
    apply(lookup(&U, "spherical_yn")?, &[n.input(), x.input()])
}

/// `scipy.special.spherical_jn(n, x, derivative=True)` (SciPy's
/// `_spherical_jn_d` ufunc with its wrapper's reflection for `x < 0`):
/// `j_n'(x)` by DLMF 10.51.2, `j_{n-1}(x) - (n + 1)/x j_n(x)` (`-j_1` for
/// `n = 0`; the differentiated power series where `x^2 <= 2n + 3`);
/// near the real zeros of `j_n'` and where the two terms cancel, in
/// double-double as for [`spherical_jn`] (one run of the recurrence for
/// both terms). At
/// `x = 0` 1/3 for `n = 1`, else 0; NaN for `n < 0` elsewhere;
/// `j_n'(-x) = (-1)^(n+1) j_n'(x)`.
///
/// Complex loops (`lD->D`; `lF->F` rounds the complex128 value, no
/// reflection, as SciPy's wrapper for complex `z`): DLMF 10.51.2 with
/// `j_{n-1}` and `j_n` from one run of [`spherical_jn`]'s methods (the
/// differentiated series where `|z|^2 <= 2n + 3`), and SciPy's special
/// values (its formula evaluated on its `j_n` where those are infinite).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let y = gpu_special::spherical_jn_d(2, &x)?; // scipy.special.spherical_jn(2, x, derivative=True): [0.03304, 0.06431, 0.13773]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes (`n` must be an integer), shapes that
/// do not broadcast; allocation or launch failed.
pub fn spherical_jn_d<'a, 'b>(n: impl Into<Arg<'a>>, x: impl Into<Arg<'b>>) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (n, x) = (n.into(), x.into());
    apply(lookup(&U, "spherical_jn_d")?, &[n.input(), x.input()])
}

/// `scipy.special.spherical_yn(n, x, derivative=True)` (SciPy's
/// `_spherical_yn_d` ufunc with its wrapper's reflection for `x < 0`):
/// `y_n'(x)` by DLMF 10.51.2, `y_{n-1}(x) - (n + 1)/x y_n(x)` (`-y_1` for
/// `n = 0`; near the real zeros of `y_n'` and where the two terms
/// cancel in double-double as for [`spherical_jn`]), with SciPy's values
/// at 0 (`inf` for `n = 0`, NaN at `+0` and
/// `-inf` at `-0` for `n >= 1`, from the formula's infinities); NaN for
/// `n < 0`; `y_n'(-x) = (-1)^n y_n'(x)`.
///
/// Complex loops (`lD->D`; `lF->F` rounds the complex128 value): DLMF
/// 10.51.2 with `y_{n-1}` and `y_n` from one run of [`spherical_yn`]'s
/// methods, and SciPy's special values (NaN at 0; its formula evaluated
/// on its `y_n` where those are infinite).
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let y = gpu_special::spherical_yn_d(2, &x)?; // scipy.special.spherical_yn(2, x, derivative=True): [2311.87889, 145.89036, 0.75038]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes (`n` must be an integer), shapes that
/// do not broadcast; allocation or launch failed.
pub fn spherical_yn_d<'a, 'b>(n: impl Into<Arg<'a>>, x: impl Into<Arg<'b>>) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (n, x) = (n.into(), x.into());
    apply(lookup(&U, "spherical_yn_d")?, &[n.input(), x.input()])
}
