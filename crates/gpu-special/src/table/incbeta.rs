//! Rows of beta, the incomplete beta function, its inverse and the distributions built on it.

entries! {
    "beta", 2, "df", INCBETA, "beta", "beta function Gamma(a) Gamma(b) / Gamma(a + b)";
    "betaln", 2, "df", INCBETA, "betaln", "logarithm of the absolute value of the beta function";
    "betainc", 3, "fd", INCBETA, "betainc", "regularized incomplete beta function I_x(a, b)";
    "betaincc", 3, "fd", INCBETA, "betaincc", "complemented regularized incomplete beta function 1 - I_x(a, b)";
    "betaincinv", 3, "fd", INCBETA, "betaincinv", "inverse of betainc in x";
    "betainccinv", 3, "fd", INCBETA, "betainccinv", "inverse of betaincc in x";
    "bdtr", 3, "fff->f dld->d ddd->d", INCBETA, "bdtr", "binomial distribution CDF";
    "bdtrc", 3, "fff->f dld->d ddd->d", INCBETA, "bdtrc", "binomial distribution survival function";
    "bdtri", 3, "fff->f dld->d ddd->d", INCBETA, "bdtri", "inverse of bdtr in p";
    "nbdtr", 3, "lld->d fff->f ddd->d", INCBETA, "nbdtr", "negative binomial distribution CDF";
    "nbdtrc", 3, "lld->d fff->f ddd->d", INCBETA, "nbdtrc", "negative binomial distribution survival function";
    "nbdtri", 3, "lld->d fff->f ddd->d", INCBETA, "nbdtri", "inverse of nbdtr in p";
    "fdtr", 3, "fd", INCBETA, "fdtr", "F distribution CDF";
    "fdtrc", 3, "fd", INCBETA, "fdtrc", "F distribution survival function";
    "fdtri", 3, "fd", INCBETA, "fdtri", "inverse of fdtr in x";
    "stdtr", 2, "fd", INCBETA, "stdtr", "Student t distribution CDF";
    "stdtrit", 2, "fd", INCBETA, "stdtrit", "inverse of stdtr in t";
}
