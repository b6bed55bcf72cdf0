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
