//! gpu-special on a real GPU, one test binary: every function and dtype
//! against the goldens of `testdata/make_golden.py` (mpmath at 50 digits
//! over the standard ranges, SciPy's own values at the edges), the
//! accuracy table of `docs/special-accuracy.md`, the call forms (weak
//! scalars, broadcasting, `out=`, integer inputs) and the fused and
//! user-kernel paths. Each test skips with a reason without a GPU.

mod accuracy;
mod calls;
