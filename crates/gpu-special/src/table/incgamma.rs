//! Rows of the incomplete gamma functions, their inverses and the distributions built on them.

entries! {
    "gammainc", 2, "df", INCGAMMA, "gammainc", "regularized lower incomplete gamma function P(a, x)";
    "gammaincc", 2, "df", INCGAMMA, "gammaincc", "regularized upper incomplete gamma function Q(a, x)";
    "ndtri", 1, "fd", ERF, "ndtri", "inverse of the standard normal CDF";
    "log_ndtr", 1, "df", ERF, "log_ndtr", "logarithm of the standard normal CDF";
}
