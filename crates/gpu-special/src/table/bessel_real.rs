//! Rows of Bessel functions of real order (jv, yv, iv, kv) and the Airy functions.

entries! {}
