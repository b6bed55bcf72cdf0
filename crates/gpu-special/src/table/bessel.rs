//! Rows of Bessel functions of integer order beyond the reference's: exponentially scaled, the K family, yn, spherical.

entries! {
    "i0e", 1, "df", BESSEL, "i0e", "exponentially scaled modified Bessel function of the first kind of order 0";
    "i1e", 1, "df", BESSEL, "i1e", "exponentially scaled modified Bessel function of the first kind of order 1";
    "k0", 1, "df", BESSEL, "k0", "modified Bessel function of the second kind of order 0";
    "k0e", 1, "df", BESSEL, "k0e", "exponentially scaled modified Bessel function of the second kind of order 0";
    "k1", 1, "df", BESSEL, "k1", "modified Bessel function of the second kind of order 1";
    "k1e", 1, "df", BESSEL, "k1e", "exponentially scaled modified Bessel function of the second kind of order 1";
}
