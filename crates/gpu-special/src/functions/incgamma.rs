//! The functions of `table/incgamma.rs`.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

binary! {
    /// `scipy.special.gammainc(a, x)`: the regularized lower incomplete
    /// gamma function `P(a, x)` (series DLMF 8.7.1, continued fraction
    /// DLMF 8.9.2, Cephes' small-a form); NaN for `a < 0`, `x < 0` or
    /// `a = x = 0`, 1 for `a = 0 < x`.
    gammainc => "gammainc", ": [0.08111, 0.19875, 0.73854]";
    /// `scipy.special.gammaincc(a, x)`: the regularized upper incomplete
    /// gamma function `Q(a, x) = 1 - P(a, x)`; NaN where `gammainc` is.
    gammaincc => "gammaincc", ": [0.91889, 0.80125, 0.26146]";
}

unary! {
    /// `scipy.special.ndtri(p)`: the inverse of the standard normal CDF
    /// (CUDA's erfinv / erfcinv with one Newton step on erf / ndtr);
    /// -inf at 0, inf at 1, NaN outside [0, 1].
    ndtri => "ndtri", ": [-0.67449, 0, nan]";
    /// `scipy.special.log_ndtr(x)`: `log(ndtr(x))`, accurate in both tails
    /// (log1p of the upper tail, `log(erfcx / 2) - x^2 / 2` in the lower).
    log_ndtr => "log_ndtr", ": [-0.51298, -0.36895, -0.02301]";
}
