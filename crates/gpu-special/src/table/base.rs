//! The reference's 22 names and their companions (expit, logit,
//! riemann_zeta, zetac): erf.cuh, gamma.cuh, bessel.cuh, convex.cuh.

entries! {
    "j0", 1, "df", BESSEL, "j0", "Bessel function of the first kind of order 0";
    "j1", 1, "df", BESSEL, "j1", "Bessel function of the first kind of order 1";
    "y0", 1, "df", BESSEL, "y0", "Bessel function of the second kind of order 0";
    "y1", 1, "df", BESSEL, "y1", "Bessel function of the second kind of order 1";
    "i0", 1, "df", BESSEL, "i0", "modified Bessel function of the first kind of order 0";
    "i1", 1, "df", BESSEL, "i1", "modified Bessel function of the first kind of order 1";
    "entr", 1, "fd", CONVEX, "entr", "elementwise entropy -x log x";
    "rel_entr", 2, "fd", CONVEX, "rel_entr", "relative entropy x log(x / y)";
    "kl_div", 2, "fd", CONVEX, "kl_div", "Kullback-Leibler divergence x log(x / y) - x + y";
    "huber", 2, "fd", CONVEX, "huber", "Huber loss of r with threshold delta";
    "pseudo_huber", 2, "fd", CONVEX, "pseudo_huber", "pseudo-Huber loss of r with threshold delta";
    "expit", 1, "df", CONVEX, "expit", "logistic sigmoid 1 / (1 + exp(-x))";
    "logit", 1, "df", CONVEX, "logit", "log(p / (1 - p)), the inverse of expit";
    "gamma", 1, "dDfF", GAMMA, "gamma", "gamma function";
    "gammaln", 1, "df", GAMMA, "gammaln", "logarithm of the absolute value of the gamma function";
    "digamma", 1, "dDfF", GAMMA, "digamma", "digamma function, the derivative of gammaln";
    "polygamma", 2, "fd", GAMMA, "polygamma", "n-th derivative of the digamma function";
    "zeta", 2, "fd", GAMMA, "zeta", "Hurwitz zeta function sum (k + q)^-x";
    "riemann_zeta", 1, "df", GAMMA, "riemann_zeta", "Riemann zeta function";
    "zetac", 1, "df", GAMMA, "zetac", "Riemann zeta function minus 1";
    "ndtr", 1, "dfDF", ERF, "ndtr", "standard normal cumulative distribution function";
    "erf", 1, "dfDF", ERF, "erf", "error function";
    "erfc", 1, "dfDF", ERF, "erfc", "complementary error function 1 - erf(x)";
    "erfcx", 1, "dfDF", ERF, "erfcx", "scaled complementary error function exp(x^2) erfc(x)";
    "erfinv", 1, "fd", ERF, "erfinv", "inverse of the error function";
    "erfcinv", 1, "fd", ERF, "erfcinv", "inverse of the complementary error function";
}
