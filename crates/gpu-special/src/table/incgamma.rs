//! Rows of the incomplete gamma functions, their inverses and the distributions built on them.

entries! {
    "gammainc", 2, "df", INCGAMMA, "gammainc", "regularized lower incomplete gamma function P(a, x)";
    "gammaincc", 2, "df", INCGAMMA, "gammaincc", "regularized upper incomplete gamma function Q(a, x)";
    "gammaincinv", 2, "df", INCGAMMA, "gammaincinv", "inverse of gammainc in x";
    "gammainccinv", 2, "df", INCGAMMA, "gammainccinv", "inverse of gammaincc in x";
    "gdtr", 3, "fd", INCGAMMA, "gdtr", "gamma distribution CDF (rate a, shape b)";
    "gdtrc", 3, "fd", INCGAMMA, "gdtrc", "gamma distribution survival function";
    "gdtrix", 3, "fd", INCGAMMA, "gdtrix", "inverse of gdtr in x";
    "pdtr", 2, "fd", INCGAMMA, "pdtr", "Poisson distribution CDF";
    "pdtrc", 2, "fd", INCGAMMA, "pdtrc", "Poisson distribution survival function";
    "pdtri", 2, "ld->d ff->f dd->d", INCGAMMA, "pdtri", "inverse of pdtr in m";
    "chdtr", 2, "fd", INCGAMMA, "chdtr", "chi-square distribution CDF";
    "chdtrc", 2, "fd", INCGAMMA, "chdtrc", "chi-square distribution survival function";
    "chdtri", 2, "fd", INCGAMMA, "chdtri", "inverse of chdtrc in x";
    "ndtri", 1, "fd", ERF, "ndtri", "inverse of the standard normal CDF";
    "log_ndtr", 1, "dfDF", ERF, "log_ndtr", "logarithm of the standard normal CDF";
}
