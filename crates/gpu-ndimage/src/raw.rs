//! The crate's door to `unsafe`: vouching for the launches of the
//! hand-written kernels in `kernels/filters.cu`.
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `kernels::window1d` launches it only with `input` and `out`
// C-contiguous arrays of the same shape and of the kernel's dtypes, `axis`
// one of their axes, `outer * n * inner` their size (`n` the axis' length,
// so each of the `outer * inner` lines holds `n` elements `inner` apart),
// `size >= 1` and, for the weighted ops (0-2), `w` a C-contiguous float64
// array of `size` values (the other ops never read `w`). Thread `t < total`
// writes only `out[t]`; it reads `w[size1 + jj]` for `jj` in
// `-size1..=size2` (within `0..size`) and the input only at positions of
// its own line whose index is in `0..n` (`CuprumNdimageLine::at` maps any
// other index through `cuprum_ndimage_map`, which returns an index in
// `0..n` or -1, read as `cval`). The arrays are freed in stream order, so
// they outlive the launch.
unsafe impl Vouched for crate::kernels::Window1d {}

// SAFETY: `kernels::windownd` launches it only with `input` a C-contiguous
// array of `ndim` (1..=16, `CUPRUM_NDIMAGE_MAXDIM`) dimensions whose shape
// `geom` holds (int64, `ndim` values), `taps` an int64 array of
// `ntaps * ndim` offsets, `w` a float64 array of `ntaps` values, `out` a
// fresh C-contiguous float64 array of `total` = the input's size elements,
// and for the rank op `ntaps <= CAP` and `rank < ntaps` (the kernel's
// local buffer `vals[CAP]` holds every tap, and the selection stays in
// `0..ntaps`: its scans stop at the pivot's value under a strict weak
// order). Thread `t < total` writes only `out[t]` and reads the input
// only at `lin`, the C-order offset of indices each mapped into
// `0..shape[d]` by `cuprum_ndimage_map` (or none, for `cval`). The arrays
// are freed in stream order, so they outlive the launch.
unsafe impl Vouched for crate::kernels::WindowNd {}
