//! The functions of `table/incbeta.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

binary! {
    /// `scipy.special.beta(a, b)`: `Gamma(a) Gamma(b) / Gamma(a + b)`,
    /// through the log-gamma difference where the gammas overflow
    /// (DLMF 5.12.1, 5.11); SciPy's values at the poles.
    beta => "beta", ": with a = 1.5, [3.49608, 1.5708, 0.26667]";
    /// `scipy.special.betaln(a, b)`: `log|beta(a, b)|`, without
    /// overflow for large arguments.
    betaln => "betaln", ": with a = 1.5, [1.25164, 0.45158, -1.32176]";
}

ternary! {
    /// `scipy.special.betainc(a, b, x)`: the regularized incomplete beta
    /// function `I_x(a, b)` (the continued fraction DLMF 8.17.22 with the
    /// symmetry `I_x(a, b) = 1 - I_{1-x}(b, a)`, and power series for
    /// small `x`); SciPy's values at `x` = 0, 1 and `a` or `b` = 0 or inf.
    betainc => "betainc", ": [0.26172, 0.6875, 0.94922]";
}
