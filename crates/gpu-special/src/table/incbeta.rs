//! Rows of beta, the incomplete beta function, its inverse and the distributions built on it.

entries! {}
