//! The crate's doors to `unsafe`: vouching for the launches of the
//! hand-written kernels in `kernels/sparse.cu`, and the cuSPARSE calls
//! (`cusparse`), each with its own safety comment.
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `kernels::segment_sum` launches it only with `v` a C-contiguous
// array of `n` elements of the kernel's type, `starts` a C-contiguous
// int64 array of `nseg` increasing offsets, the first 0 and each below
// `n` (the positions where a sorted key changes, from `nonzero`), and
// `out` a fresh C-contiguous array of `nseg` elements; each thread reads
// `v[starts[k]..end)` with `end <= n` and writes only `out[k]`, `k < nseg`.
// The arrays are freed in stream order, so they outlive the launch.
unsafe impl Vouched for crate::kernels::SegmentSum {}

// SAFETY: `kernels::lsqr_beta`, `lsqr_alpha` and `lsqr_settle` check that
// the state is a C-contiguous float64 array of `LSQR_STATE_LEN` (32)
// values and each input a one-element float64 array; the kernels run one
// thread that touches slots 0..31 of the state and reads one value of
// each input.
unsafe impl Vouched for crate::kernels::LsqrBeta {}

// SAFETY: as for `LsqrBeta`.
unsafe impl Vouched for crate::kernels::LsqrAlpha {}

// SAFETY: as for `LsqrBeta`.
unsafe impl Vouched for crate::kernels::LsqrSettle {}

// SAFETY: `kernels::lsmr_step` checks that the state is a C-contiguous
// float64 array of `LSMR_STATE_LEN` (40) values and its input a
// one-element float64 array; the kernels (`kernels/lsmr.cu`) run one
// thread that touches slots 0..37 of the state and reads the input's one
// value.
unsafe impl Vouched for crate::kernels::LsmrBeta {}

// SAFETY: as for `LsmrBeta`.
unsafe impl Vouched for crate::kernels::LsmrAlpha {}

// SAFETY: as for `LsmrBeta`.
unsafe impl Vouched for crate::kernels::LsmrTest {}

// SAFETY: `kernels::gmres_column` and `gmres_solve` check that the state
// is a C-contiguous float64 array of exactly `linalg::gmres_state_len(m)`
// values for the `m >= 1` they pass (and `col < m`); the one thread
// touches only the slots of that layout (`kernels/gmres.cu`'s
// `CuprumGmresLayout`, the same arithmetic), whose last index is
// `gmres_state_len(m) - 1`.
unsafe impl Vouched for crate::kernels::GmresColumn {}

// SAFETY: as for `GmresColumn`.
unsafe impl Vouched for crate::kernels::GmresSolve {}

// SAFETY: `kernels::minres_beta` and `minres_test` check that the state
// is a C-contiguous float64 array of `MINRES_STATE_LEN` (40) values; the
// one thread touches slots 0..34 only (`kernels/minres.cu`).
unsafe impl Vouched for crate::kernels::MinresBeta {}

// SAFETY: as for `MinresBeta`.
unsafe impl Vouched for crate::kernels::MinresTest {}

// SAFETY: `kernels::line_reduce` launches it only with `indptr` a
// C-contiguous int64 array of `nlines + 1` non-decreasing offsets into
// `v` (the index pointer of a checked matrix, or one built from the
// cumulative sum of line lengths), the last at most `v.size()`, `v` a
// C-contiguous array of the kernel's type, and `out` a fresh C-contiguous
// array of `nlines` elements; thread `r < nlines` reads
// `v[indptr[r]..indptr[r + 1])` and writes only `out[r]`. The arrays are
// freed in stream order, so they outlive the launch.
unsafe impl Vouched for crate::kernels::LineReduce {}
