//! The functions of `table/hyper.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

ternary! {
    /// `scipy.special.hyp1f1(a, b, x)`: Kummer's confluent hypergeometric
    /// function `M(a, b, x)` of real arguments: SciPy's rules in its order
    /// (its wrapper of Boost's `hypergeometric_1F1`, Boost's closed forms,
    /// its values at infinite arguments, overflow as +inf), the series DLMF
    /// 13.2.2 (in double-double where it cancels; beyond that, for `a < 0 <
    /// x`, the recurrence in `b` DLMF 13.3.2 run backward, after Deaño,
    /// Segura and Temme 2010),
    /// Kummer's transformation DLMF 13.2.39 for negative `x` and the
    /// large-`x` expansion DLMF 13.7.2; inf at the poles of `b` (a
    /// non-positive integer not cancelled by `a`), SciPy's NaN where a
    /// polynomial's cancellation leaves no digits. Complex `x` (SciPy's
    /// `ddD->D` loop; `ffF->F` rounds it): Kummer's transformation DLMF
    /// 13.2.39 to `Re x >= 0`, then the large-`|x|` expansion DLMF 13.7.2
    /// (both parts, `e^(+-i pi a)` by the sign of `Im x`), the Maclaurin
    /// series in double for small `|x|`, or in double-double where its
    /// terms cancel, whichever first estimates its error within 8 eps;
    /// SciPy's special values (inf at every pole of `b`, its closed forms,
    /// NaN at most non-finite `x`).
    hyp1f1 => "hyp1f1", ": [1.18339, 1.40511, 1.67378]";
}

/// `scipy.special.hyp2f1(a, b, c, x)`: Gauss' hypergeometric function
/// `F(a, b; c; x)` of real `x`: SciPy's (Cephes') checks and
/// transformations in its order, with its integer tolerance 1e-13 and its
/// steps at infinite or NaN arguments (Euler's transformation DLMF 15.8.1
/// first, its values at `x >= 1`; Chu-Vandermonde DLMF 15.4.24 for the
/// polynomials at `x = 1`); the series DLMF 15.2.1 for `0 <= z <= 1/2`,
/// Pfaff's transformation DLMF 15.8.1 for `x < 0`, the `1 - x` connection
/// DLMF 15.8.4 with its limit forms where `c - a - b` is an integer
/// (Abramowitz-Stegun 15.3.10-11), Gauss' theorem DLMF 15.4.20 at `x = 1`
/// and the polynomials summed; inf for `x > 1` and at the poles of `c`,
/// as SciPy's. Complex `x` (SciPy's `dddD->D` loop; `fffF->F` rounds
/// it): SciPy's special cases, then of the Gauss series, Euler's and
/// Pfaff's forms (DLMF 15.8.1), the `1 - x` and `1/x` connections DLMF
/// 15.8.4 and 15.8.2 (their limit forms DLMF 15.8.10 and 15.8.8 where
/// `c - a - b` or `a - b` is an integer) and Lopez and Temme's expansion
/// in `x / (x - 2)` (2013; near `e^(+-i pi/3)`, where nothing else
/// converges fast) the fastest converging first, in double-double where
/// its terms cancel, until one estimates its error within 8 eps.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([0.25, 0.5, 0.75])?;
/// let y = gpu_special::hyp2f1(1.0, 1.0, 2.0, &x)?; // scipy.special.hyp2f1(1, 1, 2, x): [1.15073, 1.38629, 1.84839]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes, shapes that do not broadcast;
/// allocation or launch failed.
pub fn hyp2f1<'a, 'b, 'c, 'd>(
    a: impl Into<Arg<'a>>,
    b: impl Into<Arg<'b>>,
    c: impl Into<Arg<'c>>,
    x: impl Into<Arg<'d>>,
) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (a, b, c, x) = (a.into(), b.into(), c.into(), x.into());
    apply(
        lookup(&U, "hyp2f1")?,
        &[a.input(), b.input(), c.input(), x.input()],
    )
}

/// `scipy.special.lambertw(z, k, tol)`: the branch `k` of Lambert's W,
/// the inverse of `w e^w` (Corless, Gonnet, Hare, Jeffrey and Knuth
/// 1996: initial values from the branch-point series near `-1/e` and the
/// asymptotic logarithms, then Halley's iteration until a step is below
/// `tol` relative to the value, NaN after 100 steps). The result is
/// complex128 for every `z` (SciPy's `Dld->D` loop, the one its
/// `lambertw` reaches: it passes `k` as an int64 array); a real `z` is
/// taken as complex. SciPy's default `tol` is `1e-8`.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let z = gpu_array::creation::array([0.25, 0.5, 2.0])?;
/// let w = gpu_special::lambertw(&z, 0, 1e-8)?; // scipy.special.lambertw(z): [0.20389, 0.35173, 0.85261] + 0j
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the inputs' dtypes, shapes that do not broadcast;
/// allocation or launch failed.
pub fn lambertw<'a>(z: impl Into<Arg<'a>>, k: i64, tol: f64) -> Result<Array> {
    // Safe to share: holds only the immutable table's pointer for this
    // name, the same for every thread and call (see `lookup`).
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (z, k, tol): (Arg<'a>, Arg<'static>, Arg<'static>) = (z.into(), k.into(), tol.into());
    apply(
        lookup(&U, "lambertw")?,
        &[z.input(), k.input(), tol.input()],
    )
}
