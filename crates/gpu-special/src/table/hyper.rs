//! Rows of the hypergeometric functions hyp2f1, hyp1f1 and lambertw.

entries! {}
