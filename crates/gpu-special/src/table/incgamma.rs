//! Rows of the incomplete gamma functions, their inverses and the distributions built on them.

entries! {}
