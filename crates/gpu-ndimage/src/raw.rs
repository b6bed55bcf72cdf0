//! The crate's door to `unsafe`: vouching for the launches of the
//! hand-written kernels in `kernels/filters.cu`, `kernels/interp.cu`,
//! `kernels/label.cu`, `kernels/measure.cu`, `kernels/distance.cu` and
//! `kernels/binary.cu`.
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `kernels::window1d` launches it only with `input` and `out`
// C-contiguous arrays of the same shape and of the kernel's dtypes, `axis`
// one of their axes, `outer * n * inner` their size (`n` the axis' length,
// so each of the `outer * inner` lines holds `n` elements `inner` apart),
// `size >= 1` and, for the weighted ops (0-2), `w` a C-contiguous float64
// array of `size` values (the other ops get a null `w` and never read it).
// The kernel clamps `march` into 1..=16; each output of a line belongs to
// exactly one run of one work item, whose thread alone writes it: output
// `(o, i, j)` at `out[(o * n + i) * inner + j]`, `i < n`; it reads `w[size1 + jj]` for `jj` in
// `-size1..=size2` (within `0..size`) and the input only at positions of
// its own line whose index is in `0..n` (`CuprumNdimageLine::at` maps any
// other index through `cuprum_ndimage_map`, which returns an index in
// `0..n` or -1, read as `cval`). The arrays are freed in stream order, so
// they outlive the launch.
unsafe impl Vouched for crate::kernels::Window1d {}

// SAFETY: `tiled::window1d` launches it only from `kernels::window1d`,
// after that function's checks: `input` and `out` C-contiguous of one
// non-empty shape and of the kernel's dtypes, `outer * n * inner` their
// size (`n >= 1` the filtered axis' length), `w` a float64 array of the
// kernel's compiled size S (at most `TILED1D_MAX`) for the weighted ops
// (0-2), null and never read for the others (the kernel reads `w[k]` only
// under `WEIGHTED`, for `k < S`), and `origin` within the window. A tile
// is 32 lines `l < outer * inner` by `TN` positions; the kernel reads the
// input only at line `l`'s element `p * inner` (its start
// `(l / inner) * n * inner + l % inner`, or `l * n` when `inner == 1`)
// with `p` in `0..n` (other positions go through `cuprum_ndimage_map`,
// which returns an index in `0..n` or -1, read as `cval`), and writes
// only outputs `i < n` of lines `l < outer * inner`, each by one thread of
// the one block that owns its tile; its shared arrays are indexed by
// compile-time bounds (`e < A * L`, `a < A`, `b < L`). The rows layout
// (`inner == 1`) is launched only where that holds. The arrays are freed
// in stream order, so they outlive the launch.
unsafe impl Vouched for crate::tiled::Tiled1d {}

// SAFETY: `tiled::pair` launches it only with `input` a non-empty
// C-contiguous array of the kernel's input type and `out` a fresh
// C-contiguous array of its shape and output type, both of `batch * n0 *
// n1` elements (`n0`, `n1` the last two axes' lengths, at least 1), `w0`
// and `w1` float64 arrays of the kernel's compiled sizes S0 and S1 (at
// most `TILED1D_MAX`) for weighted ops (0-2), null and never read for the
// others (the kernel reads `w0[k]` only under `W0` for `k < S0`, `w1`
// likewise), and each origin within its window. The kernel reads the
// input only at `z * n0 * n1 + p * n1 + q` with `z < batch` and `p`, `q`
// inside `0..n0`, `0..n1` (positions outside go through
// `cuprum_ndimage_map`, which returns an index inside or -1, read as
// `cval`), and writes only `(z * n0 + i) * n1 + j` with `i < n0`, `j <
// n1`, each output by one thread of the one block that owns its tile; its
// shared arrays are indexed below their compile-time sizes (`tile` by `tid
// + k * T` for `k < FILL`, `mid` by rows below TY and columns below IW <=
// 64 < MP, the staged outputs by rows below TY and columns below TX < SP,
// which fit in `tile`: a static assertion). The arrays are freed in stream
// order, so they outlive the launch.
unsafe impl Vouched for crate::tiled::Tiled2d {}

// SAFETY: `tiled::median3x3` launches it only from `kernels::windownd`
// with `input` a non-empty C-contiguous array of the kernel's input type
// and `out` a fresh C-contiguous array of its shape and output type, both
// of `batch * n0 * n1` elements (`n0`, `n1` the last two axes' lengths,
// at least 1). The kernel reads the input only at `z * n0 * n1 + p * n1 +
// q` with `z < batch` and `p`, `q` inside `0..n0`, `0..n1` (positions
// outside go through `cuprum_ndimage_map`, which returns an index inside
// or -1, read as `cval`), and writes only `(z * n0 + i) * n1 + j` with
// `i < n0`, `j < n1`, each output by the one thread that owns it; its
// shared array is indexed below its compile-time size. The arrays are
// freed in stream order, so they outlive the launch.
unsafe impl Vouched for crate::tiled::Median3x3 {}

// SAFETY: `zoom::zoom2` launches it only with `src` a non-empty
// C-contiguous 2-D array of `n0 * n1` elements of the kernel's input
// type, `dst` a C-contiguous 2-D array of `m0 * m1` elements of its
// output type and `params` a float64 array of 6 values (all it reads).
// The kernel reads `src` only at `idx0 * n1 + idx1`, each index from
// `cuprum_interp_tap` (inside `0..n` of its axis, or -1, which reads
// `cval` instead), and writes only `dst[i * m1 + j]`, `i < m0`, `j < m1`,
// each by the one thread of its tile's column; `rows` holds
// `CUPRUM_ZOOM_ROWS` entries, indexed below that. The arrays are freed in
// stream order, so they outlive the launch.
unsafe impl Vouched for crate::zoom::Zoom2 {}

// SAFETY: `kernels::launch_windownd` (for `windownd` and `generic_nd`)
// launches it only with `input` a C-contiguous array of `ndim` (1..=16,
// `CUPRUM_NDIMAGE_MAXDIM`) dimensions whose shape `geom` holds (int64,
// `ndim` values, then the taps' least and greatest offset per axis:
// `3 * ndim` in all), `taps` an int64 array of `ntaps * ndim` offsets
// (`ntaps >= 1`) followed by each tap's C-order offset in elements
// (`kernels::footprint_geometry`), `out` a fresh C-contiguous array of
// the kernel's output type (`to`, the array's dtype) and `total` = the
// input's size elements, and `march` (clamped into 1..=16 by the kernel)
// splitting axis 0 into runs, so that each output `t < total` belongs to
// exactly one run of one work item. The filters' instantiations (`windownd`) get
// `w` a float64 array of `ntaps` values and, for the rank op,
// `ntaps <= CAP` and `rank < ntaps` (the kernel's local buffer
// `vals[CAP]` holds every tap, and the selection stays in `0..ntaps`: its
// scans stop at the pivot's value under a strict weak order; the
// register paths run only where `ntaps` equals their fixed size). The
// generic_filter instantiation (`generic_nd`) gets `w` null (never read)
// and `ntaps <= CAP` (its buffer), and hands the user's function
// `vals[0..ntaps)` only. The thread of output `t` writes only `out[t]`
// and reads the input only at `lin`, the C-order offset of indices each
// mapped into `0..shape[d]` by `cuprum_ndimage_map` (or none, for
// `cval`), or, where every tap's index (t's along `d` plus `off[d]`) lies in
// `lo..=hi` offsets of an index inside `0..shape[d]` on every axis, at
// `t` plus the tap's linear offset, which is then that same in-bounds
// C-order position (an overflowing offset, stored as 0, belongs to a tap
// that is never inside). The int path runs only where `total`, the grid
// step and every offset bound stay below 2^31. The arrays are freed in
// stream order, so they outlive the launch.
unsafe impl Vouched for crate::kernels::WindowNd {}

// SAFETY: `interp::filter_axis` launches it only on `data`, a C-contiguous
// float64 array it owns, with `n >= 2` its length along the axis, `inner`
// the product of the later axes and `lines = size / n`; line `l < lines`
// starts at `(l / inner) * n * inner + l % inner` and steps by `inner`
// `n - 1` times, so its last element is below
// `(l / inner + 1) * n * inner <= size`. `poles` is a float64 array of
// `3 * npoles` values (`npoles` 1 or 2; per pole z and two powers). The
// arrays outlive the launch (stream order).
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

// SAFETY: `kernels::generic_1d` launches it only with `input` a
// C-contiguous float64 array of `lines * n` elements (`lines, n >= 1`),
// `out` a fresh float64 array of as many, and `ext` a fresh float64 array
// of `lines * (n + size - 1)` elements (the product checked), `size >= 1`
// and `left < size`. Line `l < lines` reads the input only at
// `l * n + p` for `p` in `0..n` (other positions go through
// `cuprum_ndimage_map` or read `cval`), writes only its own `ext` row
// `l * (n + size - 1) ..` of `n + size - 1` values, and hands the user's
// function that row and its own `out` row of `n` values (the function's
// contract: it writes `out_row[0..n)` only; one that writes elsewhere
// breaks that contract like any device code the user compiles). The
// arrays outlive the launch (stream order).
unsafe impl Vouched for crate::kernels::Generic1d {}

// SAFETY: `measurements::kernels::label_init` launches it only with
// `input` a C-contiguous array of the kernel's dtype and `parent` a
// C-contiguous int64 array, both of `n` elements; thread `i < n` reads
// `input[i]` and writes `parent[i]` only. The arrays outlive the launch
// (stream order).
unsafe impl Vouched for crate::measurements::kernels::LabelInit {}

// SAFETY: `measurements::kernels::label_merge` launches it only with
// `parent` a C-contiguous int64 array of `n` = the product of the `ndim`
// (1..=16, the kernel's local `c[16]`) values of `geom`, written by
// `label_init` (so every entry is -1 or an index `<= i`), and `offs` /
// `lin` of `noffs * ndim` and `noffs` int64 values, each component in
// -1..=1 and `lin[t]` the C-order linear distance of offset `t`. The
// kernel reads `parent[q]` only for `q = i + lin[t]` whose coordinates it
// checked are in `0..geom[d]` on every axis, so `q` is in `0..n`; its
// finds follow entries that are -1 (never followed: only foreground
// elements are joined) or indices in `0..n`, and it writes only through
// atomicMin, at an index of `0..n` it reached (a find's path splitting,
// or a union's link) with an index of `0..n`. The arrays outlive the
// launch.
unsafe impl Vouched for crate::measurements::kernels::LabelMerge {}

// SAFETY: `measurements::kernels::label_compress` launches it only with
// `parent` (after `label_merge`: -1, or an index `<= i` of `0..n`) and
// `roots` C-contiguous arrays (int64, uint8) of `n` elements; thread `i`
// writes `parent[i]` and `roots[i]`, reads `parent` at indices of `0..n`
// and lowers (atomicMin, path splitting) entries of `0..n` on its find's
// path to other indices of `0..n`. The arrays outlive the launch.
unsafe impl Vouched for crate::measurements::kernels::LabelCompress {}

// SAFETY: `measurements::kernels::label_final` launches it only with
// `parent` (after `label_compress`: -1 or an index of `0..n`), `rank` and
// `out` C-contiguous arrays of `n` elements (int64, int64, the kernel's
// dtype); thread `i` reads `parent[i]` and `rank[parent[i]]` and writes
// `out[i]`. The arrays outlive the launch.
unsafe impl Vouched for crate::measurements::kernels::LabelFinal {}

// SAFETY: `measurements::kernels::Segments` launches the four segment
// kernels only after `Segments::check` (dtypes, contiguity, sizes):
// `values` a C-contiguous array of the kernel's dtype and `n` elements,
// `perm` null or a C-contiguous int64 array of `n` elements, `lo` and
// `hi` C-contiguous int64 arrays of `k` values. The values of `perm`,
// `lo` and `hi`, which no check reads back from the device, come from
// their one builder, `stats.rs` (Segments' fields are set nowhere else):
// `perm` indices of `0..n` (argsort or lexsort of `n` values), and
// `0 <= lo[s] <= hi[s] <= n` (searchsorted into `n` sorted values, or 0
// and `n`). Block `s` (or thread `s`, for the median) reads positions
// `lo[s]..hi[s]` (the median also 0 when `n >= 1`) and writes only entry
// `s` of each output of `k` values (`moments`: entries
// `s * (ndim + 1)..(s + 1) * (ndim + 1)` of `k * (ndim + 1)`, `geom`
// holding `ndim <= 16` values; `hist`: entries `s * bins..(s + 1) * bins`
// of `k * bins`, by the edge search that stays in `0..bins`, with `edges`
// `bins + 1` float64 values). The arrays outlive the launch.
unsafe impl Vouched for crate::measurements::kernels::SegStats {}

// SAFETY: as `SegStats`.
unsafe impl Vouched for crate::measurements::kernels::SegMoments {}

// SAFETY: as `SegStats`.
unsafe impl Vouched for crate::measurements::kernels::SegHist {}

// SAFETY: as `SegStats`.
unsafe impl Vouched for crate::measurements::kernels::SegMedian {}

// SAFETY: `measurements::kernels::find_objects` launches it only with
// `labels` a C-contiguous int64 array of `n` elements, `geom` the `ndim`
// (1..=16) values whose product is `n`, and `bbox` a C-contiguous int64
// array of `max_label * ndim * 2` values; a thread writes only entries
// `((l - 1) * ndim + d) * 2 + {0, 1}` for `1 <= l <= max_label` and
// `d < ndim`. The arrays outlive the launch.
unsafe impl Vouched for crate::measurements::kernels::FindObjects {}

// SAFETY: `morphology::kernels::binary_step` launches it only with
// `input`, `out` and the mask (or a null mask, never read) C-contiguous
// bool arrays of one shape, `geom` that shape (`ndim` in 1..=16, the
// kernel's local arrays), `taps` an int64 array of at least
// `ntaps * ndim` offsets and `changed` an int32 array of at least one
// element; `total` is the arrays' size (the int loop runs only where it
// and the grid's last step stay below 2^31). The thread of element
// `t < total` writes only `out[t]` (and `changed[0]`, atomically), and
// reads the input only at `t` and at `lin`, the C-order offset of
// coordinates each checked to be in `0..shape[d]`. The arrays outlive the
// launch (stream order).
unsafe impl Vouched for crate::morphology::kernels::BinaryStep {}

// SAFETY: `morphology::kernels::step2d` launches it only through
// `binary_step`'s checks: `input`, `out` and the mask (or a null mask,
// never read) C-contiguous bool arrays of one 2-D shape
// `(height, width)`, `width <= i32::MAX - 32`, and `changed` an int32
// array of at least one element. The thread of segment `t < height *
// ceil(width / 16)` (row `r`, columns `c0 .. c0 + 16`) reads rows
// `r - 1 ..= r + 1` only where they are in `0..height`, and in them the
// columns `c0 - 1 ..= c0 + 16` only where in `0..width` (the uint4 loads
// and stores, `vec`, only when the width is a multiple of 16 and every
// array 16-byte aligned, so a whole segment lies in the row at an aligned
// address); it writes `out` at its own columns below `width` only (and
// `changed[0]`, atomically). The arrays outlive the launch (stream
// order).
unsafe impl Vouched for crate::morphology::kernels::BinaryStep2d {}

// SAFETY: `distance::kernels::edt_init` launches it only with `input` a
// C-contiguous bool array of `n` elements, `geom` the `ndim` (1..=16, the
// kernel's local `c[16]`) int64 values whose product is `n`, and `ft` a
// C-contiguous int32 array of `ndim * n` elements (the product checked);
// thread `i < n` reads `input[i]` and writes `ft[k * n + i]`, `k < ndim`,
// only. The arrays outlive the launch (stream order).
unsafe impl Vouched for crate::distance::kernels::EdtInit {}

// SAFETY: `distance::kernels::edt_pass` launches it only with `fin` and
// `fout` distinct C-contiguous int32 arrays of `ndim * n` elements, `g` a
// C-contiguous int32 array of `n`, `geom` the `ndim` (1..=16) int64 values
// whose product is `n >= 1`, each at most `i32::MAX`, `d < ndim`,
// `lines = n / geom[d]`, `inner` the product of `geom[d + 1..]`, and
// `sampling` null or a float64 array of `ndim` values. Line `l < lines`
// owns the positions `base + ii * inner`, `ii < geom[d]`, with
// `base = (l / inner) * geom[d] * inner + l % inner`, the largest below
// `(l / inner + 1) * geom[d] * inner <= n`; the lines partition `0..n`.
// The thread reads `fin` at `k * n + p` for its own positions `p`
// (`k < ndim`) and at positions `base + s * inner` for stack entries `s`,
// which are indices `ii < geom[d]` it pushed; its stack `g` has at most
// `geom[d]` entries, each at one of its own positions. It writes `g` and
// `fout` only at its own positions. The arrays outlive the launch.
unsafe impl Vouched for crate::distance::kernels::EdtPass {}

// SAFETY: `distance::kernels::edt_first` launches it only with `mask` a
// C-contiguous bool array of `n >= 1` elements, `geom` the `ndim` (1..=16,
// the kernel's local `c[16]`) int64 values whose product is `n` (so
// `geom[0] >= 1` divides it; every axis below 2^31, the sum of their
// squares checked), `ft` null or a C-contiguous int32 array of
// `ndim * n` elements, `dist` null or a float64 array of `n`. Column
// `q < n / geom[0]` (thread x of its block) owns the elements
// `r * inner + q`, `r < geom[0]`; its thread y reads the mask and writes
// `ft[k * n + i]` and `dist[i]` only at those of its rows `r` in
// `y * chunk .. min((y + 1) * chunk, geom[0])`, the chunks disjoint. The
// shared tables are indexed by `threadIdx` (32 x 32, the launch's block).
// The arrays outlive the launch (stream order).
unsafe impl Vouched for crate::distance::kernels::EdtFirst {}

// SAFETY: `distance::kernels::edt_exact` launches it only with `fin` a
// C-contiguous int32 array of `ndim * n` elements and `fout` null or a
// distinct one of the same size, `dist` null or a float64 array of `n`,
// `geom` the `ndim` (1..=16) int64 values whose product is `n >= 1`, with
// `1 <= d < ndim`, `geom[d] <= 6144` and the sum of `(geom[k] - 1)^2`
// below 2^31 (checked: the int32 weights and distances cannot overflow),
// `lines = n / geom[d]`, `inner` the product of `geom[d + 1..]`, blocks of
// 32 threads and `8 * geom[d]` bytes of dynamic shared memory (`w` and
// `feat`, `geom[d]` ints each). Line `l` owns the positions
// `base + x * inner`, `x < geom[d]` (the lines partition `0..n`, as for
// `EdtPass`); the block reads `fin` there (planes `k < ndim`) and at
// `base + s * inner` for sites `s < geom[d]`, and writes `fout` and
// `dist` only there. Shared indices: `w[x]`, `feat[x]` for `x < geom[d]`,
// and `w[s]` for `s` between two sites, in `0..geom[d]`. The arrays
// outlive the launch.
unsafe impl Vouched for crate::distance::kernels::EdtExact {}

// SAFETY: `distance::kernels::edt_distances` launches it only with `ft` a
// C-contiguous int32 array of `ndim * n` elements, `geom` the `ndim`
// (1..=16) values whose product is `n`, `sampling` null or `ndim` float64
// values, and `out` a fresh float64 array of `n` elements; thread `i < n`
// reads `ft[k * n + i]` and writes `out[i]` only. The arrays outlive the
// launch.
unsafe impl Vouched for crate::distance::kernels::EdtDistances {}

// SAFETY: `distance::kernels::cdt_init` launches it only with `input`
// (bool), `dist` (int32) and `f` (int64, or null and unwritten)
// C-contiguous arrays of `n` elements; thread `i < n` reads `input[i]`
// and writes `dist[i]` and `f[i]` only. The arrays outlive the launch.
unsafe impl Vouched for crate::distance::kernels::CdtInit {}

// SAFETY: `distance::kernels::Scan::run` launches it only with `dist`
// (int32) and `f` (int64, or null and untouched) C-contiguous arrays of
// `n` elements, `init_d`/`init_f` null or arrays of the same kinds and
// size (`init_f` null whenever `f` is), `geom` the `ndim` (1..=16) values
// whose product is `n`, `offs` and `lin` `noffs * ndim` and `noffs` int64
// values, each component in -1..=1 and `lin[t]` offset `t`'s C-order
// linear distance, `sign` 1 or -1, and `changed` an int32 array of more
// than `slot` elements. Thread `i < n` reads `dist` and `f` at `i` and at
// `q = i + sign * lin[t]` only after checking that every coordinate of
// `q` lies in `0..geom[k]`, so `q` is in `0..n`; it writes `dist[i]`,
// `f[i]` and `changed[slot]` only. Concurrent reads of an element being
// written see its old or new value (aligned 4- and 8-byte words); the
// host relies only on a sweep in which nothing was written. The arrays
// outlive the launch.
unsafe impl Vouched for crate::distance::kernels::CdtSweep {}

// SAFETY: `distance::kernels::cdt_indices` launches it only with `f` a
// C-contiguous int64 array of `n` linear indices of `0..n` (set by
// `cdt_init` and copied between elements by the sweeps), `geom` the
// `ndim` (1..=16) values whose product is `n`, each at most `i32::MAX`,
// and `out` a fresh int32 array of `ndim * n` elements; thread `i < n`
// reads `f[i]` and writes `out[k * n + i]`, `k < ndim`, only. The arrays
// outlive the launch.
unsafe impl Vouched for crate::distance::kernels::CdtIndices {}
