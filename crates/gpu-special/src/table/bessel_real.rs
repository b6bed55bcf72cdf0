//! Rows of Bessel functions of real order (jv, yv, iv, kv) and the Airy functions.

entries! {
    "jv", 2, "ff->f dd->d fF->F dD->D", BESSEL_REAL, "jv", "Bessel function of the first kind of real order";
    "yv", 2, "ff->f dd->d fF->F dD->D", BESSEL_REAL, "yv", "Bessel function of the second kind of real order";
    "iv", 2, "ff->f dd->d fF->F dD->D", BESSEL_REAL, "iv", "modified Bessel function of the first kind of real order";
    "kv", 2, "ff->f dd->d fF->F dD->D", BESSEL_REAL, "kv", "modified Bessel function of the second kind of real order";
    "airy", 1, "f->ffff d->dddd F->FFFF D->DDDD", BESSEL_REAL, "airy", "Airy functions Ai, Ai', Bi, Bi'";
}
