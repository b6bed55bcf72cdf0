//! Rows of exponential, sine and cosine integrals (expint.cuh) and the elliptic integrals (ellip.cuh).

entries! {}
