//! The crate's door to `unsafe`: vouching for the launches of the
//! hand-written kernels in `kernels/interp.cu`.
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `interp::filter_axis` launches it only on `data`, a C-contiguous
// float64 array it owns, with `n >= 2` its length along the axis, `inner`
// the product of the later axes and `lines = size / n`; line `l < lines`
// starts at `(l / inner) * n * inner + l % inner` and steps by `inner`
// `n - 1` times, so its last element is below
// `(l / inner + 1) * n * inner <= size`. `poles` is a float64 array of
// `npoles` (1 or 2) values. The arrays outlive the launch (stream order).
unsafe impl Vouched for crate::interp::SplineFilter {}

// SAFETY: `interp::transform` launches it with `src` a C-contiguous array
// of the kernel's input type whose shape is `geom[2..2 + in_ndim]`, `dst`
// a C-contiguous array of `size` elements of the output type and shape
// `geom[2 + in_ndim..]`, `geom` an int64 array of `2 + in_ndim + out_ndim`
// values (both ranks at most 10, the kernel's local arrays), and `params`
// the float64 array its `kind` reads (`in_ndim * out_ndim + in_ndim`
// values for kind 1, `3 * in_ndim` for kind 2). For kind 0 exactly one of
// `coords64`/`coords32` is a C-contiguous array of `in_ndim * size`
// elements (`map_coordinates` checks its first axis is `in_ndim` and the
// rest the output's shape); the other pointer is null and unread. Each
// thread writes only `dst[k]`, `k < size`, and reads `src` only at taps
// that `cuprum_interp_tap` maps into `0..shape[d]` on every axis (taps
// mapped to -1 read `cval` instead); start indices are formed only from
// coordinates of magnitude below 9e15 (larger ones and NaN give `cval`),
// so no index overflows. The user's mapping (kind 3) writes `in_ndim`
// coordinates into the kernel's own local array (its contract); a mapping
// that writes past them breaks that contract like any device code the
// user compiles. The arrays outlive the launch (stream order).
unsafe impl Vouched for crate::interp::Interp {}
