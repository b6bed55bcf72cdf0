//! Rows of Bessel functions of integer order beyond the reference's: exponentially scaled, the K family, yn, spherical.

entries! {
    "i0e", 1, "df", BESSEL, "i0e", "exponentially scaled modified Bessel function of the first kind of order 0";
    "i1e", 1, "df", BESSEL, "i1e", "exponentially scaled modified Bessel function of the first kind of order 1";
    "k0", 1, "df", BESSEL, "k0", "modified Bessel function of the second kind of order 0";
    "k0e", 1, "df", BESSEL, "k0e", "exponentially scaled modified Bessel function of the second kind of order 0";
    "k1", 1, "df", BESSEL, "k1", "modified Bessel function of the second kind of order 1";
    "k1e", 1, "df", BESSEL, "k1e", "exponentially scaled modified Bessel function of the second kind of order 1";
    "yn", 2, "ld->d ff->f dd->d", BESSEL, "yn", "Bessel function of the second kind of integer order";
    "spherical_jn", 2, "ld->d lD->D lf->f lF->F", BESSEL, "spherical_jn", "spherical Bessel function of the first kind j_n(x)";
    "spherical_yn", 2, "ld->d lD->D lf->f lF->F", BESSEL, "spherical_yn", "spherical Bessel function of the second kind y_n(x)";
    "spherical_jn_d", 2, "ld->d lD->D lf->f lF->F", BESSEL, "spherical_jn_d", "derivative of the spherical Bessel function j_n(x) (spherical_jn(n, x, derivative=True))";
    "spherical_yn_d", 2, "ld->d lD->D lf->f lF->F", BESSEL, "spherical_yn_d", "derivative of the spherical Bessel function y_n(x) (spherical_yn(n, x, derivative=True))";
}
