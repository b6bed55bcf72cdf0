//! The functions of `table/gammafn.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

unary! {
    /// `scipy.special.loggamma` of a real array: `log(Gamma(x))` for
    /// `x >= 0` (libdevice's `lgamma`), NaN for `x < 0` as SciPy's real
    /// loop; inf at 0. Of a complex array (`cgamma.cuh`): the principal
    /// branch of log Gamma (D. E. G. Hare, J. Algorithms 1997), from
    /// Stirling's series (DLMF 5.11.1), the recurrence (DLMF 5.5.1) with
    /// the argument of its product counted across the cut, Taylor series
    /// at 1 and at 2 + ik (its zeros at 1 and 2 stay relative), and
    /// Hare's form of the reflection (DLMF 5.5.3) for `Re z < 0`; NaN at
    /// the poles, as SciPy.
    loggamma => "loggamma", ": [1.28802, 0.57236, 0.0]";
    /// `scipy.special.rgamma`: `1 / Gamma(x)` (Cephes `rgamma`'s case
    /// split; the reflection DLMF 5.5.3 as `-x sin(pi x) Gamma(-x) / pi`
    /// for `x < 0` and the recurrence DLMF 5.5.1 where Gamma overflows):
    /// 0 at the non-positive integers, underflowing to 0 for large `x`.
    /// Complex input (`cgamma.cuh`): as `gamma`'s complex loop, the
    /// reciprocal taken inside (exp of the negated exponent, the
    /// recurrence's product multiplied instead of divided).
    rgamma => "rgamma", ": [0.27582, 0.56419, 1.0]";
    /// `scipy.special.gammasgn`: the sign of `Gamma(x)` (DLMF 5.5.3);
    /// NaN at the negative integers, `+-1` at `+-0`.
    gammasgn => "gammasgn", ": [1.0, 1.0, 1.0]";
}

binary! {
    /// `scipy.special.poch(z, m)`: the Pochhammer symbol
    /// `Gamma(z + m) / Gamma(z)` (Cephes `poch.c`: the recurrence DLMF
    /// 5.5.1 to `|m| < 1`, the expansion DLMF 5.11.13 for `z > 1e4`, the
    /// log-gamma ratio otherwise); SciPy's values at the poles.
    poch => "poch", ": with a = 1.5, [1.03705, 1.12838, 3.75]";
}
