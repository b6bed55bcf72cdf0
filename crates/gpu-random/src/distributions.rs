//! The catalogue of samplers: each NumPy distribution as a [`Sampler`]
//! (its kernel name, parameters with their domains, and the expression
//! over the element's stream), and the methods that draw them, shared by
//! [`Generator`](crate::Generator) and [`RandomState`](crate::RandomState)
//! through [`distribution_methods!`].

use crate::sample::Domain::{
    AboveOne, Any, NonNegative, Positive, Probability, ProbabilityBelowOne, ProbabilityPositive,
};
use crate::sample::ParamType::{Float, Int};
use crate::sample::{Domain, Sampler};

macro_rules! sampler {
    ($id:ident, $name:literal, [$(($p:literal, $t:expr, $d:expr)),*], $expr:literal) => {
        pub(crate) const $id: Sampler = Sampler {
            name: $name,
            params: &[$(($p, $t, $d)),*],
            expr: $expr,
        };
    };
}

sampler!(
    STANDARD_EXPONENTIAL,
    "standard_exponential",
    [],
    "st.exponential()"
);
sampler!(
    EXPONENTIAL,
    "exponential",
    [("scale", Float, NonNegative)],
    "p0 * st.exponential()"
);
sampler!(
    STANDARD_GAMMA,
    "standard_gamma",
    [("shape", Float, NonNegative)],
    "cuprum_random::standard_gamma(st, p0)"
);
sampler!(
    GAMMA,
    "gamma",
    [("shape", Float, NonNegative), ("scale", Float, NonNegative)],
    "p1 * cuprum_random::standard_gamma(st, p0)"
);
sampler!(
    BETA,
    "beta",
    [("a", Float, Positive), ("b", Float, Positive)],
    "cuprum_random::beta(st, p0, p1)"
);
sampler!(
    CHISQUARE,
    "chisquare",
    [("df", Float, Positive)],
    "cuprum_random::chisquare(st, p0)"
);
sampler!(
    NONCENTRAL_CHISQUARE,
    "noncentral_chisquare",
    [("df", Float, Positive), ("nonc", Float, NonNegative)],
    "cuprum_random::noncentral_chisquare(st, p0, p1)"
);
sampler!(
    F,
    "f",
    [("dfnum", Float, Positive), ("dfden", Float, Positive)],
    "cuprum_random::f(st, p0, p1)"
);
sampler!(
    NONCENTRAL_F,
    "noncentral_f",
    [
        ("dfnum", Float, Positive),
        ("dfden", Float, Positive),
        ("nonc", Float, NonNegative)
    ],
    "cuprum_random::noncentral_f(st, p0, p1, p2)"
);
sampler!(
    STANDARD_T,
    "standard_t",
    [("df", Float, Positive)],
    "cuprum_random::standard_t(st, p0)"
);
sampler!(
    STANDARD_CAUCHY,
    "standard_cauchy",
    [],
    "cuprum_random::standard_cauchy(st)"
);
sampler!(
    VONMISES,
    "vonmises",
    [("mu", Float, Any), ("kappa", Float, NonNegative)],
    "cuprum_random::vonmises(st, p0, p1)"
);
sampler!(
    WALD,
    "wald",
    [("mean", Float, Positive), ("scale", Float, Positive)],
    "cuprum_random::wald(st, p0, p1)"
);
sampler!(
    POISSON,
    "poisson",
    [("lam", Float, Domain::Lam)],
    "cuprum_random::poisson(st, p0)"
);
sampler!(
    BINOMIAL,
    "binomial",
    [("n", Int, NonNegative), ("p", Float, Probability)],
    "cuprum_random::binomial(st, p0, p1)"
);
sampler!(
    NEGATIVE_BINOMIAL,
    "negative_binomial",
    [("n", Float, Positive), ("p", Float, ProbabilityPositive)],
    "cuprum_random::negative_binomial(st, p0, p1)"
);
sampler!(
    GEOMETRIC,
    "geometric",
    [("p", Float, ProbabilityPositive)],
    "cuprum_random::geometric(st, p0)"
);
sampler!(
    HYPERGEOMETRIC,
    "hypergeometric",
    [
        ("ngood", Int, NonNegative),
        ("nbad", Int, NonNegative),
        ("nsample", Int, NonNegative)
    ],
    "cuprum_random::hypergeometric(st, p0, p1, p2)"
);
sampler!(
    LOGSERIES,
    "logseries",
    [("p", Float, ProbabilityBelowOne)],
    "cuprum_random::logseries(st, p0)"
);
sampler!(
    ZIPF,
    "zipf",
    [("a", Float, AboveOne)],
    "cuprum_random::zipf(st, p0)"
);
sampler!(
    GUMBEL,
    "gumbel",
    [("loc", Float, Any), ("scale", Float, NonNegative)],
    "cuprum_random::gumbel(st, p0, p1)"
);
sampler!(
    LAPLACE,
    "laplace",
    [("loc", Float, Any), ("scale", Float, NonNegative)],
    "cuprum_random::laplace(st, p0, p1)"
);
sampler!(
    LOGISTIC,
    "logistic",
    [("loc", Float, Any), ("scale", Float, NonNegative)],
    "cuprum_random::logistic(st, p0, p1)"
);
sampler!(
    LOGNORMAL,
    "lognormal",
    [("mean", Float, Any), ("sigma", Float, NonNegative)],
    "cuprum_random::lognormal(st, p0, p1)"
);
sampler!(
    PARETO,
    "pareto",
    [("a", Float, Positive)],
    "cuprum_random::pareto(st, p0)"
);
sampler!(
    POWER,
    "power",
    [("a", Float, Positive)],
    "cuprum_random::power(st, p0)"
);
sampler!(
    RAYLEIGH,
    "rayleigh",
    [("scale", Float, NonNegative)],
    "cuprum_random::rayleigh(st, p0)"
);
sampler!(
    WEIBULL,
    "weibull",
    [("a", Float, NonNegative)],
    "cuprum_random::weibull(st, p0)"
);
sampler!(
    TRIANGULAR,
    "triangular",
    [
        ("left", Float, Any),
        ("mode", Float, Any),
        ("right", Float, Any)
    ],
    "cuprum_random::triangular(st, p0, p1, p2)"
);

sampler!(
    INTEGERS,
    "integers",
    [("low", Int, Any), ("high", Int, Any)],
    "cuprum_random::integer_between(st, p0, p1)"
);

#[cfg(test)]
/// Every sampler (for the NVRTC test: each compiles for float64 output,
/// and the discrete ones for int64).
pub(crate) const ALL: &[Sampler] = &[
    STANDARD_EXPONENTIAL,
    EXPONENTIAL,
    STANDARD_GAMMA,
    GAMMA,
    BETA,
    CHISQUARE,
    NONCENTRAL_CHISQUARE,
    F,
    NONCENTRAL_F,
    STANDARD_T,
    STANDARD_CAUCHY,
    VONMISES,
    WALD,
    POISSON,
    BINOMIAL,
    NEGATIVE_BINOMIAL,
    GEOMETRIC,
    HYPERGEOMETRIC,
    LOGSERIES,
    ZIPF,
    GUMBEL,
    LAPLACE,
    LOGISTIC,
    LOGNORMAL,
    PARETO,
    POWER,
    RAYLEIGH,
    WEIBULL,
    TRIANGULAR,
    INTEGERS,
];

#[cfg(test)]
/// The samplers whose values are integers (drawn as int64).
pub(crate) const DISCRETE: &[&str] = &[
    "poisson",
    "binomial",
    "negative_binomial",
    "geometric",
    "hypergeometric",
    "logseries",
    "zipf",
    "integers",
];

/// The methods of one sampler each, with NumPy's parameter names, for a
/// type with `fn bits(&mut self) -> &mut Philox` (Generator and
/// RandomState share them).
macro_rules! distribution_methods {
    ($ty:ty) => {
        impl $ty {
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `standard_exponential`: `-log U` (float64).
                standard_exponential() => STANDARD_EXPONENTIAL, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `exponential(scale)`.
                exponential(scale) => EXPONENTIAL, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `standard_gamma(shape)` (Marsaglia and Tsang 2000).
                standard_gamma(shape) => STANDARD_GAMMA, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `gamma(shape, scale)` (Marsaglia and Tsang 2000).
                gamma(shape, scale) => GAMMA, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `beta(a, b)` (Jöhnk below 1, else two gammas).
                beta(a, b) => BETA, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `chisquare(df)`: 2 gamma(df / 2).
                chisquare(df) => CHISQUARE, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `noncentral_chisquare(df, nonc)`.
                noncentral_chisquare(df, nonc) => NONCENTRAL_CHISQUARE, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `f(dfnum, dfden)`.
                f(dfnum, dfden) => F, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `noncentral_f(dfnum, dfden, nonc)`.
                noncentral_f(dfnum, dfden, nonc) => NONCENTRAL_F, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `standard_t(df)`.
                standard_t(df) => STANDARD_T, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `standard_cauchy()`: a ratio of normals.
                standard_cauchy() => STANDARD_CAUCHY, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `vonmises(mu, kappa)` (Best and Fisher 1979).
                vonmises(mu, kappa) => VONMISES, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `wald(mean, scale)` (Michael, Schucany and Haas 1976).
                wald(mean, scale) => WALD, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `poisson(lam)` (PTRS, Hörmann 1993, from lam = 10).
                poisson(lam) => POISSON, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `binomial(n, p)` (inversion, BTPE for n min(p, 1-p) >= 30).
                binomial(n, p) => BINOMIAL, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `negative_binomial(n, p)`: Poisson of a gamma.
                negative_binomial(n, p) => NEGATIVE_BINOMIAL, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `geometric(p)` (support 1, 2, ...).
                geometric(p) => GEOMETRIC, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `logseries(p)` (Kemp 1981).
                logseries(p) => LOGSERIES, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `zipf(a)` (Devroye 1986's rejection).
                zipf(a) => ZIPF, Int64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `gumbel(loc, scale)`.
                gumbel(loc, scale) => GUMBEL, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `laplace(loc, scale)`.
                laplace(loc, scale) => LAPLACE, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `logistic(loc, scale)`.
                logistic(loc, scale) => LOGISTIC, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `pareto(a)` (Pareto II).
                pareto(a) => PARETO, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `power(a)`.
                power(a) => POWER, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `rayleigh(scale)`.
                rayleigh(scale) => RAYLEIGH, Float64 }
            $crate::distributions::distribution_methods! {@one
                /// NumPy's `weibull(a)`.
                weibull(a) => WEIBULL, Float64 }

            /// NumPy's `hypergeometric(ngood, nbad, nsample)` (HRUA,
            /// Stadlober 1989, above 10 draws).
            pub fn hypergeometric<'a>(
                &mut self,
                ngood: impl Into<$crate::Param<'a>>,
                nbad: impl Into<$crate::Param<'a>>,
                nsample: impl Into<$crate::Param<'a>>,
                size: impl Into<$crate::Size>,
            ) -> gpu_array::Result<gpu_array::Array> {
                let p = [ngood.into(), nbad.into(), nsample.into()];
                $crate::sample::check_relation(
                    "random_hyper_check",
                    "ngood + nbad < nsample",
                    "(double)x0 + (double)x1 < (double)x2",
                    &p,
                    |v| v[0] + v[1] < v[2],
                )?;
                $crate::sample::check_relation(
                    "random_hyper_big",
                    "ngood + nbad must be less than 1000000000",
                    "(double)x0 + (double)x1 >= 1e9",
                    &p,
                    |v| v[0] + v[1] >= 1e9,
                )?;
                $crate::distributions::HYPERGEOMETRIC.draw(
                    self.bits(),
                    &p,
                    &size.into(),
                    gpu_array::DType::Int64,
                )
            }

            /// NumPy's `triangular(left, mode, right)`, by inversion.
            pub fn triangular<'a>(
                &mut self,
                left: impl Into<$crate::Param<'a>>,
                mode: impl Into<$crate::Param<'a>>,
                right: impl Into<$crate::Param<'a>>,
                size: impl Into<$crate::Size>,
            ) -> gpu_array::Result<gpu_array::Array> {
                let p = [left.into(), mode.into(), right.into()];
                for (name, msg, expr, f) in [
                    ("random_tri_lm", "left > mode", "x0 > x1", (|v: &[f64]| v[0] > v[1]) as fn(&[f64]) -> bool),
                    ("random_tri_mr", "mode > right", "x1 > x2", |v: &[f64]| v[1] > v[2]),
                    ("random_tri_lr", "left == right", "x0 == x2", |v: &[f64]| v[0] == v[2]),
                ] {
                    $crate::sample::check_relation(name, msg, expr, &p, f)?;
                }
                $crate::distributions::TRIANGULAR.draw(
                    self.bits(),
                    &p,
                    &size.into(),
                    gpu_array::DType::Float64,
                )
            }
        }
    };
    (@one $(#[$m:meta])* $name:ident() => $s:ident, $dt:ident) => {
        $(#[$m])*
        ///
        /// `size` is a shape (`()` for NumPy's `size=None`).
        pub fn $name(&mut self, size: impl Into<$crate::Size>) -> gpu_array::Result<gpu_array::Array> {
            $crate::distributions::$s.draw(self.bits(), &[], &size.into(), gpu_array::DType::$dt)
        }
    };
    (@one $(#[$m:meta])* $name:ident($($p:ident),*) => $s:ident, $dt:ident) => {
        $(#[$m])*
        ///
        /// Parameters are numbers or arrays broadcast against `size`
        /// (`()` for NumPy's `size=None`); a parameter outside its domain
        /// is NumPy's `ValueError` in its words.
        pub fn $name<'a>(
            &mut self,
            $($p: impl Into<$crate::Param<'a>>,)*
            size: impl Into<$crate::Size>,
        ) -> gpu_array::Result<gpu_array::Array> {
            $crate::distributions::$s.draw(
                self.bits(),
                &[$($p.into()),*],
                &size.into(),
                gpu_array::DType::$dt,
            )
        }
    };
}
pub(crate) use distribution_methods;
