//! The functions of `table/cdfinv.rs`: the parameter inverses of the
//! distribution functions, as SciPy's CDFLIB-based ones.
//!
//! Apart from [`gdtria`] (closed form through [`crate::gammaincinv`]),
//! each solves the distribution function of `incgamma.cuh` or
//! `incbeta.cuh` for one parameter on the device: CDFLIB's approach
//! (B. W. Brown, J. Lovato and K. Russell, "DCDFLIB: Library of C Routines
//! for Cumulative Distribution Functions, Inverses, and Other Parameters",
//! 1994; the residual from the smaller of `p` and `1 - p`, a monotone
//! search bracketed outward from a start, SciPy's search bounds returned
//! where there is no root in them) with a bracket grown by squared step
//! factors, narrowed geometrically and finished by Brent's zeroin (R. P.
//! Brent, "Algorithms for Minimization without Derivatives", 1973, ch. 4)
//! to full double precision. The counts `k` and `n` are continuous, as in
//! SciPy (the incomplete gamma and beta functions of DLMF 8.4.10 and
//! 8.17.5 at real parameters). SciPy's own search stops at a relative
//! tolerance near 1e-10, so its values differ from these in the last five
//! or six digits; where its search ends on an artefact (a probability of
//! exactly 0 or 1 with no finite root, denormal probabilities) the values
//! differ, which `docs/special-accuracy.md` lists.

use std::sync::OnceLock;

use gpu_array::Array;
use gpu_array::ufunc::{Arg, Ufunc};

use super::{Result, apply, lookup};

/// `inverse! { doc; f => "name", (params), "v", "call", "result"; ... }`:
/// a function of the table's row `name` over the given parameters, its
/// example calling it as `call` on the array `v` (default
/// `p = [0.25, 0.5, 0.75]`; SciPy's result in the comment).
macro_rules! inverse {
    ($($(#[$doc:meta])* $f:ident => $name:literal, ($($x:ident),+), $call:literal, $example:literal;)*) => {
        inverse! { $($(#[$doc])* $f => $name, ($($x),+), "p", "[0.25, 0.5, 0.75]", $call, $example;)* }
    };
    ($($(#[$doc:meta])* $f:ident => $name:literal, ($($x:ident),+), $v:literal, $values:literal, $call:literal, $example:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let ", $v, " = gpu_array::creation::array(", $values, ")?;\n",
            "let y = gpu_special::", stringify!($f), "(", $call, ")?; // scipy.special.",
            $name, ": ", $example, "\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a>($($x: impl Into<Arg<'a>>),+) -> Result<Array> {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            $(let $x = $x.into();)+
            apply(lookup(&U, $name)?, &[$($x.input()),+])
        }
    )*};
}

inverse! {
    /// `scipy.special.gdtria(p, b, x)`: the rate `a` with
    /// `gdtr(a, b, x) = P(b, a x) = p`, in closed form
    /// `gammaincinv(b, p) / x` (DLMF 8.2.4); 0 at `p = 0`, inf at `p = 1`,
    /// NaN at `x = 0` and where `gammaincinv` is NaN.
    gdtria => "gdtria", (p, b, x), "&p, 3.0, 2.0", "[0.86365, 1.337, 1.9602]";
    /// `scipy.special.gdtrib(a, p, x)`: the shape `b` with
    /// `gdtr(a, b, x) = P(b, a x) = p`, searched up to the largest double
    /// (inf beyond, as SciPy); 0 at `x = 0` or `p = 1`, inf at `p = 0`,
    /// NaN for `a <= 0` or infinite, `x < 0` or infinite, `p` outside
    /// `[0, 1]`.
    gdtrib => "gdtrib", (a, p, x), "2.0, &p, 3.0", "[8.05, 6.33, 4.763]";
    /// `scipy.special.chdtriv(p, x)`: the degrees of freedom `v` with
    /// `chdtr(v, x) = P(v/2, x/2) = p`; 0 at `p = 1`, inf at `p = 0`, NaN
    /// for `x <= 0` or infinite, `p` outside `[0, 1]`.
    chdtriv => "chdtriv", (p, x), "&p, 3.0", "[5.4209, 3.6406, 2.166]";
    /// `scipy.special.pdtrik(p, m)`: the continuous count `k` with
    /// `pdtr(k, m) = Q(k + 1, m) = p` (DLMF 8.4.10); 0 where the root
    /// would be negative (`p <= e^-m`), NaN for `p` outside `[0, 1)`,
    /// `m < 0` or infinite.
    pdtrik => "pdtrik", (p, m), "&p, 4.0", "[2.0661, 3.3284, 4.7439]";
    /// `scipy.special.bdtrik(p, n, pr)`: the continuous count `k` in
    /// `[0, n]` with `bdtr(k, n, pr) = 1 - I_pr(k + 1, n - k) = p`
    /// (DLMF 8.17.5); NaN for `n <= 0` or infinite, `p` outside
    /// `[0, 1]`, `pr` outside `[0, 1]` or so small that `1 - pr` rounds
    /// to 1 (as SciPy).
    bdtrik => "bdtrik", (p, n, pr), "&p, 10.0, 0.3", "[1.4789, 2.4293, 3.4415]";
    /// `scipy.special.bdtrin(k, p, pr)`: the continuous number of trials
    /// `n` with `bdtr(k, n, pr) = p`, searched on `[1e-100, 1e100]`
    /// (SciPy's bounds returned where the root lies outside); NaN as
    /// [`bdtrik`] and for `k < 0`.
    bdtrin => "bdtrin", (k, p, pr), "3.0, &p, 0.3", "[15.913, 11.9, 8.7402]";
    /// `scipy.special.nbdtrik(p, n, pr)`: the continuous count of
    /// failures `k` with `nbdtr(k, n, pr) = I_pr(n, k + 1) = p`, searched
    /// on `[0, 1e100]`; NaN for `p` outside `[0, 1)`, `n < 0` or
    /// infinite, `pr` outside `[0, 1]`.
    nbdtrik => "nbdtrik", (p, n, pr), "&p, 3.0, 0.3", "[2.9408, 5.5711, 9.0514]";
    /// `scipy.special.nbdtrin(k, p, pr)`: the continuous number of
    /// successes `n` with `nbdtr(k, n, pr) = I_pr(n, k + 1) = p`, searched
    /// on `[0, 1e100]`; NaN for `k < 0`, `p` outside `[0, 1)`, `pr`
    /// outside `[0, 1]`.
    nbdtrin => "nbdtrin", (k, p, pr), "3.0, &p, 0.3", "[3.0338, 1.8936, 1.0334]";
    /// `scipy.special.fdtridfd(dfn, p, f)`: the denominator degrees of
    /// freedom `dfd` with `fdtr(dfn, dfd, f) = p`, searched on
    /// `[1e-100, 1e100]`. `fdtr` is not monotone in `dfd` (it rises from 0
    /// and may peak above its limit `chdtr(dfn, dfn f)`); as CDFLIB, the
    /// ends of the range decide whether there is a root (1e100 where the
    /// limit stays below `p`). NaN for `dfn <= 0`, `f < 0`, `p` outside
    /// `[0, 1)`.
    fdtridfd => "fdtridfd", (dfn, p, f), "3.0, &p, 2.0", "[0.2009, 0.84767, 4.235]";
}

inverse! {
    /// `scipy.special.stdtridf(p, t)`: the degrees of freedom `df` with
    /// `stdtr(df, t) = p`, searched on `[1e-100, 1e10]` as SciPy's CDFLIB,
    /// whose bounds it returns where there is no root: 1e10 above (`t = 0`
    /// included), -1e100 below; NaN for `p` outside `[0, 1]`.
    stdtridf => "stdtridf", (p, t), "p", "[0.2, 0.25, 0.3]", "&p, -1.0", "[2.6387, 1, 0.50716]";
}
