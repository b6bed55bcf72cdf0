//! Rows of beta, the incomplete beta function, its inverse and the distributions built on it.

entries! {
    "beta", 2, "df", INCBETA, "beta", "beta function Gamma(a) Gamma(b) / Gamma(a + b)";
    "betaln", 2, "df", INCBETA, "betaln", "logarithm of the absolute value of the beta function";
    "betainc", 3, "fd", INCBETA, "betainc", "regularized incomplete beta function I_x(a, b)";
}
