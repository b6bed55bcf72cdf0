//! Rows of exponential, sine and cosine integrals (expint.cuh) and the elliptic integrals (ellip.cuh).

entries! {
    "expn", 2, "ld->d ff->f dd->d", EXPINT, "expn", "generalized exponential integral E_n(x)";
    "exp1", 1, "fdFD", EXPINT, "exp1", "exponential integral E1(x)";
    "expi", 1, "fdFD", EXPINT, "expi", "exponential integral Ei(x)";
    "sici", 1, "f->ff d->dd F->FF D->DD", EXPINT, "sici", "sine and cosine integrals Si(x), Ci(x)";
    "shichi", 1, "f->ff d->dd F->FF D->DD", EXPINT, "shichi", "hyperbolic sine and cosine integrals Shi(x), Chi(x)";
    "ellipk", 1, "df", ELLIP, "ellipk", "complete elliptic integral of the first kind K(m)";
    "ellipkm1", 1, "df", ELLIP, "ellipkm1", "complete elliptic integral of the first kind K(1 - p)";
    "ellipkinc", 2, "df", ELLIP, "ellipkinc", "incomplete elliptic integral of the first kind F(phi | m)";
    "ellipe", 1, "df", ELLIP, "ellipe", "complete elliptic integral of the second kind E(m)";
    "ellipeinc", 2, "df", ELLIP, "ellipeinc", "incomplete elliptic integral of the second kind E(phi | m)";
    "ellipj", 2, "dd->dddd ff->ffff", ELLIP, "ellipj", "Jacobi elliptic functions sn, cn, dn and the amplitude";
}
