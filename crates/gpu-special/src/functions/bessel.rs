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
}
