//! Rows of the real log-gamma, 1/Gamma, the sign of Gamma and the Pochhammer symbol.

entries! {
    "loggamma", 1, "dDfF", GAMMAFN, "loggamma", "principal branch of the logarithm of the gamma function (real: NaN for x < 0)";
    "rgamma", 1, "dDfF", GAMMAFN, "rgamma", "reciprocal of the gamma function, 1 / Gamma(x)";
    "gammasgn", 1, "df", GAMMAFN, "gammasgn", "sign of the gamma function";
    "poch", 2, "fd", GAMMAFN, "poch", "Pochhammer symbol (z)_m = Gamma(z + m) / Gamma(z)";
}
