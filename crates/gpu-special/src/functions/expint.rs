//! The functions of `table/expint.rs`: exponential, sine and cosine
//! integrals (expint.cuh) and elliptic integrals and functions (ellip.cuh).

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, apply_n, lookup};

binary! {
    /// `scipy.special.expn`: the generalized exponential integral
    /// `E_n(x)` (series DLMF 8.19.8 for x <= 1, the continued fraction
    /// DLMF 8.19.17 beyond); NaN for n < 0 or x < 0, at x = 0 inf for
    /// n < 2 and `1/(n-1)` beyond. Integer n (int64) or integral floats.
    expn => "expn", ": [nan, nan, nan] (n = 1.5 is not an integer)";
}

unary! {
    /// `scipy.special.exp1`: the exponential integral `E1(x)` (series
    /// DLMF 6.6.2, the continued fraction DLMF 6.9.1); inf at 0, NaN for
    /// x < 0 (the real loop). Complex loops (complex64 rounds the
    /// complex128 value): E1(z) on its principal branch, cut along the
    /// negative real axis with the sign of a zero imaginary part picking
    /// the side (`E1(-x +- 0i) = -Ei(x) -+ i pi`); the series DLMF 6.6.2
    /// (compensated summation) where `|z| + Re z <= 1.5`, the continued
    /// fraction DLMF 6.9.1 evaluated from a fixed depth upward elsewhere
    /// below `|z| = 45`, the asymptotic series DLMF 6.12.1 beyond; NaN at
    /// infinite or NaN parts, as SciPy.
    exp1 => "exp1", ": [1.04428, 0.55977, 0.04890]";
    /// `scipy.special.expi`: the exponential integral `Ei(x)` (series
    /// DLMF 6.6.1, asymptotic DLMF 6.12.2, `-E1(-x)` below 0); -inf at 0.
    /// Complex loops: `Ei(z) = -E1(-z) + i pi sign(Im z)` (DLMF 6.2.7),
    /// real on the real axis as SciPy's, with the series DLMF 6.6.1 near
    /// the positive real axis and the zero 0.3725 summed as differences
    /// from it (full relative accuracy there).
    expi => "expi", ": [-0.54254, 0.45422, 4.95423]";
    /// `scipy.special.ellipk`: the complete elliptic integral of the
    /// first kind `K(m)` (the AGM, DLMF 19.8.5); inf at m = 1, NaN above.
    ellipk => "ellipk", ": [1.68575, 1.85407, nan]";
    /// `scipy.special.ellipkm1`: `K(1 - p)`, accurate as p -> 0 (the
    /// AGM); inf at 0, NaN below.
    ellipkm1 => "ellipkm1", ": [2.15652, 1.85407, 1.31103]";
    /// `scipy.special.ellipe`: the complete elliptic integral of the
    /// second kind `E(m)` (Carlson's R_F, R_D, DLMF 19.25.1); 1 at m = 1,
    /// NaN above.
    ellipe => "ellipe", ": [1.46746, 1.35064, nan]";
}

binary! {
    /// `scipy.special.ellipkinc`: the incomplete elliptic integral of the
    /// first kind `F(phi | m)` (Carlson's R_F, DLMF 19.25.5); NaN where
    /// `m sin^2 phi > 1`.
    ellipkinc => "ellipkinc", ": [1.60402, 1.75404, nan]";
    /// `scipy.special.ellipeinc`: the incomplete elliptic integral of the
    /// second kind `E(phi | m)` (Carlson's R_F, R_D, DLMF 19.25.9).
    ellipeinc => "ellipeinc", ": [1.40613, 1.30054, nan]";
}

/// `scipy.special.sici`: the sine and cosine integrals `(Si(x), Ci(x))`
/// (series DLMF 6.6.5-6.6.6, and `E1(ix)` by its continued fraction
/// beyond |x| = 4). Si is odd; for x < 0 Ci is `Ci(|x|)`; `Ci(0) = -inf`.
/// Complex loops: the series for `|z| <= 2` (Ci near its zero 0.6165
/// summed as differences from it), beyond `Si = pi/2 + (E1(iz) -
/// E1(-iz))/(2i)`, `Ci = -(E1(iz) + E1(-iz))/2` (DLMF 6.5.5-6.5.6) with
/// the complex E1 of `exp1`, and `Si(-z) = -Si(z)`, `Ci(-z) = Ci(z) +-
/// i pi` (DLMF 6.4.4) in the left half-plane; on the negative real axis
/// Ci's `+- i pi` follows SciPy (the sign of a zero imaginary part below
/// `|z| = 0.8`, `+i pi` from there on); `Ci(0) = -inf + NaN i`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let (si, ci) = gpu_special::sici(&x)?;
/// // scipy.special.sici(x): si [0.24913, 0.49311, 1.60541],
/// // ci [-0.82466, -0.17778, 0.42298]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn sici<'a>(x: impl Into<Arg<'a>>) -> Result<(Array, Array)> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let x = x.into();
    let [si, ci] = apply_n::<2>(lookup(&U, "sici")?, &[x.input()])?;
    Ok((si, ci))
}

/// `scipy.special.shichi`: the hyperbolic sine and cosine integrals
/// `(Shi(x), Chi(x))` (series, and `(Ei(x) +- E1(x))/2` beyond |x| = 8).
/// Shi is odd; for x < 0 Chi is `Chi(|x|)`; `Chi(0) = -inf`. Complex
/// loops: the series for `|z| <= 2` (Chi near its zero 0.5238 summed as
/// differences from it), beyond `Shi = (E1(z) - E1(-z))/2 +- i pi/2`,
/// `Chi = -(E1(z) + E1(-z))/2 +- i pi/2` by the sign of Im z (DLMF
/// 6.2.15-6.2.16 with 6.2.7) and `Chi(-z) = Chi(z) +- i pi` in the left
/// half-plane, with SciPy's sides of the negative real axis as for Ci.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let (shi, chi) = gpu_special::shichi(&x)?;
/// // scipy.special.shichi(x): shi [0.25087, 0.50700, 2.50157],
/// // chi [-0.79341, -0.05278, 2.45267]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn shichi<'a>(x: impl Into<Arg<'a>>) -> Result<(Array, Array)> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let x = x.into();
    let [shi, chi] = apply_n::<2>(lookup(&U, "shichi")?, &[x.input()])?;
    Ok((shi, chi))
}

/// `scipy.special.ellipj`: the Jacobi elliptic functions
/// `(sn, cn, dn, ph)` of u for the parameter `0 <= m <= 1` (NaN outside
/// and for infinite u); ph is the amplitude am(u | m). The descending
/// Landen / AGM scheme (DLMF 22.20), with DLMF 22.10's expansions near
/// m = 0 and m = 1.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let u = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let (sn, cn, dn, ph) = gpu_special::ellipj(&u, 0.5)?;
/// // scipy.special.ellipj(u, 0.5): sn [0.24616, 0.47075, 0.99466],
/// // cn [0.96923, 0.88227, -0.10318], dn [0.98473, 0.94297, 0.71086],
/// // ph [0.24872, 0.49014, 1.67416]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes, shapes that do not broadcast;
/// allocation or launch failed.
pub fn ellipj<'a, 'b>(
    u: impl Into<Arg<'a>>,
    m: impl Into<Arg<'b>>,
) -> Result<(Array, Array, Array, Array)> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (u, m) = (u.into(), m.into());
    let [sn, cn, dn, ph] = apply_n::<4>(lookup(&U, "ellipj")?, &[u.input(), m.input()])?;
    Ok((sn, cn, dn, ph))
}
