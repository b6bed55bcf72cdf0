//! scipy.special's functions inside a fused function (`cupy.fuse`):
//! `fused::erf(x)` on [`FVar`]s, so `expit(x) * erf(y)` is one kernel
//! that reads `x` and `y` once and includes only the special headers it
//! calls into.
//!
//! ```no_run
//! use gpu_array::fusion::{FVar, fuse};
//! use gpu_special::fused;
//! # fn main() -> gpu_array::Result<()> {
//! # let (x, y) = (gpu_array::creation::array([0.5, 1.0])?, gpu_array::creation::array([0.1, 2.0])?);
//! let f = fuse("expit_erf", |x: &FVar, y: &FVar| fused::expit(x) * fused::erf(y));
//! let z = f.call(&[&x, &y])?;
//! # Ok(()) }
//! ```

use gpu_array::fusion::{FArg, FVar, fx};
use gpu_array::ufunc::Ufunc;

/// The table's ufunc `name`, which the table tests build.
fn ufunc(name: &str) -> &'static Ufunc {
    crate::get(name).unwrap_or_else(|e| panic!("gpu-special's fused {name}: {e}"))
}

fn one(v: Vec<FVar>) -> FVar {
    v.into_iter().next().expect("one result")
}

macro_rules! unary {
    ($($f:ident),*) => {$(
        #[doc = concat!("`scipy.special.", stringify!($f), "(x)` in a fused function (see [`crate::", stringify!($f), "`]).")]
        ///
        /// ```no_run
        /// use gpu_array::fusion::{FVar, fuse};
        /// # fn main() -> gpu_array::Result<()> {
        /// # let x = gpu_array::creation::array([0.25, 0.5])?;
        #[doc = concat!("let f = fuse(\"f\", |x: &FVar| gpu_special::fused::", stringify!($f), "(x) * 2.0);")]
        /// let y = f.call(&[&x])?;
        /// # Ok(()) }
        /// ```
        pub fn $f(x: impl Into<FArg>) -> FVar {
            one(fx::call(ufunc(stringify!($f)), &[x.into()]))
        }
    )*};
}

macro_rules! binary {
    ($($f:ident),*) => {$(
        #[doc = concat!("`scipy.special.", stringify!($f), "(a, b)` in a fused function (see [`crate::", stringify!($f), "`]).")]
        ///
        /// ```no_run
        /// use gpu_array::fusion::{FVar, fuse};
        /// # fn main() -> gpu_array::Result<()> {
        /// # let x = gpu_array::creation::array([0.25, 0.5])?;
        #[doc = concat!("let f = fuse(\"f\", |x: &FVar| gpu_special::fused::", stringify!($f), "(1.5, x));")]
        /// let y = f.call(&[&x])?;
        /// # Ok(()) }
        /// ```
        pub fn $f(a: impl Into<FArg>, b: impl Into<FArg>) -> FVar {
            one(fx::call(ufunc(stringify!($f)), &[a.into(), b.into()]))
        }
    )*};
}

macro_rules! ternary {
    ($($f:ident),*) => {$(
        #[doc = concat!("`scipy.special.", stringify!($f), "(a, b, c)` in a fused function (see [`crate::", stringify!($f), "`]).")]
        ///
        /// ```no_run
        /// use gpu_array::fusion::{FVar, fuse};
        /// # fn main() -> gpu_array::Result<()> {
        /// # let x = gpu_array::creation::array([0.25, 0.5])?;
        #[doc = concat!("let f = fuse(\"f\", |x: &FVar| gpu_special::fused::", stringify!($f), "(2.0, 3.0, x));")]
        /// let y = f.call(&[&x])?;
        /// # Ok(()) }
        /// ```
        pub fn $f(a: impl Into<FArg>, b: impl Into<FArg>, c: impl Into<FArg>) -> FVar {
            one(fx::call(ufunc(stringify!($f)), &[a.into(), b.into(), c.into()]))
        }
    )*};
}

unary!(
    j0, j1, y0, y1, i0, i1, entr, expit, logit, gamma, gammaln, digamma, zetac, ndtr, erf, erfc,
    erfcx, erfinv, erfcinv
);
binary!(rel_entr, kl_div, huber, pseudo_huber, polygamma, zeta);

// elementary.cuh
unary!(
    expm1, log1p, cbrt, exp2, exp10, round, sindg, cosdg, tandg, cotdg, exprel, log_expit, sinc
);
binary!(xlogy, xlog1py, boxcox, boxcox1p, inv_boxcox, inv_boxcox1p);
ternary!(radian);

// bessel.cuh, bessel_real.cuh
unary!(i0e, i1e, k0, k0e, k1, k1e);
binary!(yn);

/// `scipy.special.spherical_jn(n, x)` (`derivative=False`) in a fused
/// function (see [`crate::spherical_jn`]; `n` an integer).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::spherical_jn(2, x));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn spherical_jn(n: impl Into<FArg>, x: impl Into<FArg>) -> FVar {
    one(fx::call(ufunc("spherical_jn"), &[n.into(), x.into()]))
}

/// `scipy.special.spherical_yn(n, x)` (`derivative=False`) in a fused
/// function (see [`crate::spherical_yn`]; `n` an integer).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::spherical_yn(2, x));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn spherical_yn(n: impl Into<FArg>, x: impl Into<FArg>) -> FVar {
    one(fx::call(ufunc("spherical_yn"), &[n.into(), x.into()]))
}

/// `scipy.special.spherical_jn(n, x, derivative=True)` in a fused
/// function (see [`crate::spherical_jn_d`]; `n` an integer).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::spherical_jn_d(2, x));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn spherical_jn_d(n: impl Into<FArg>, x: impl Into<FArg>) -> FVar {
    one(fx::call(ufunc("spherical_jn_d"), &[n.into(), x.into()]))
}

/// `scipy.special.spherical_yn(n, x, derivative=True)` in a fused
/// function (see [`crate::spherical_yn_d`]; `n` an integer).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::spherical_yn_d(2, x));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn spherical_yn_d(n: impl Into<FArg>, x: impl Into<FArg>) -> FVar {
    one(fx::call(ufunc("spherical_yn_d"), &[n.into(), x.into()]))
}
binary!(jv, yv, iv, kv);

// expint.cuh, ellip.cuh
unary!(exp1, expi, ellipk, ellipkm1, ellipe);
binary!(expn, ellipkinc, ellipeinc);

// incgamma.cuh, erf.cuh's additions
unary!(ndtri, log_ndtr);
binary!(
    gammainc,
    gammaincc,
    gammaincinv,
    gammainccinv,
    pdtr,
    pdtrc,
    pdtri,
    chdtr,
    chdtrc,
    chdtri
);
ternary!(gdtr, gdtrc, gdtrix);

// incbeta.cuh
binary!(beta, betaln, stdtr, stdtrit);
ternary!(betainc, betaincc, betaincinv, betainccinv);
ternary!(
    bdtr, bdtrc, bdtri, nbdtr, nbdtrc, nbdtri, fdtr, fdtrc, fdtri
);

// cdfinv.cuh
binary!(chdtriv, pdtrik, stdtridf);
ternary!(gdtria, gdtrib, bdtrik, bdtrin, nbdtrik, nbdtrin, fdtridfd);

// gammafn.cuh
unary!(loggamma, rgamma, gammasgn);
binary!(poch);

// hyper.cuh
ternary!(hyp1f1);

/// `scipy.special.hyp2f1(a, b, c, x)` in a fused function (see
/// [`crate::hyp2f1`]).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::hyp2f1(1.0, 1.0, 2.0, x));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn hyp2f1(
    a: impl Into<FArg>,
    b: impl Into<FArg>,
    c: impl Into<FArg>,
    x: impl Into<FArg>,
) -> FVar {
    one(fx::call(
        ufunc("hyp2f1"),
        &[a.into(), b.into(), c.into(), x.into()],
    ))
}

/// `scipy.special.lambertw(z, k, tol)` in a fused function (see
/// [`crate::lambertw`]); complex128.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let z = gpu_array::creation::array([0.25, 0.5])?;
/// let f = fuse("f", |z: &FVar| gpu_special::fused::lambertw(z, 0i64, 1e-8));
/// let w = f.call(&[&z])?;
/// # Ok(()) }
/// ```
pub fn lambertw(z: impl Into<FArg>, k: impl Into<FArg>, tol: impl Into<FArg>) -> FVar {
    one(fx::call(
        ufunc("lambertw"),
        &[z.into(), k.into(), tol.into()],
    ))
}

/// `scipy.special.zeta(x)` (Riemann's, no `q`) in a fused function (see
/// [`crate::zeta`] with `None`).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([2.0, 4.0])?;
/// let f = fuse("f", |x: &FVar| gpu_special::fused::riemann_zeta(x) - 1.0);
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn riemann_zeta(x: impl Into<FArg>) -> FVar {
    one(fx::call(ufunc("riemann_zeta"), &[x.into()]))
}
