//! The crate's door to `unsafe`: vouching for the launches of the
//! hand-written kernels: the recursive filters (`kernels/lfilter.cu`)
//! and the tiled 2-D convolution (`kernels/conv2d_tile.cuh`).
#![allow(unsafe_code)]

use gpu_runtime::signature::Vouched;

// SAFETY: `filtering::iir::lfilter_rows` launches it only with `x` and `y`
// C-contiguous arrays of `signals * n` elements of the kernel's type `T`,
// `coef` of `2 * (order + 1)` values of `T`, `zi` null or a C-contiguous
// array of `signals * order` values of `T`, `state` of
// `signals * blocks * max(order, 1)` values, `0 <= order <= 64`
// (`CUPRUM_LFILTER_MAXORDER`, the kernel's local arrays), `block >= 1` and
// `blocks = ceil(n / block)`. Thread `t < signals * blocks` reads `x` and
// writes `y` only at `m * n + j` for `j` in `k * block .. min((k + 1) *
// block, n)` (`m = t / blocks`, `k = t % blocks`), reads `zi[m * order +
// r]` and writes `state[t * order + r]`, `r < order`. The arrays are
// freed in stream order, so they outlive the launch.
unsafe impl Vouched for crate::filtering::iir::LfilterBlocks {}

// SAFETY: `filtering::iir::carry` (for `lfilter_rows`, and for
// `fixed_scan::scan_rows` with fixed_scan.cu's kernel of
// this signature, compiled for `D` states, which returns at once unless
// `order == D`) launches it only, having checked them, with
// `state` and `init` of `signals * blocks * order` values of `T`, `mats` of
// `4 * order * order`, `sums` of at least `signals * groups * order`, `zf`
// null or of `signals * order`, `1 <= order <= 64`, and `group`, `groups`
// from `iir::plan` (`groups * group >= blocks - 2`, so every block index
// `k` a group walks is below `1 + (blocks - 2) < blocks`). Phase 1 runs
// `signals` threads, phases 0 and 2 `signals * groups`; thread of signal
// `m` and group `g` reads `state` and writes `init` only in rows
// `m * blocks + k` with `k < blocks`, and touches `sums` only at row
// `m * groups + g`; phase 1's thread `m` touches rows of its own signal
// and `zf[m * order ..]` only. Its L2 prefetches (hints, no values) name
// only rows it may read: `state` rows below `last <= blocks - 1`, `sums`
// rows below `groups`. The arrays outlive the launch.
unsafe impl Vouched for crate::filtering::iir::LfilterCarry {}

// SAFETY: `filtering::iir::lfilter_rows` launches it only with `y` of
// `signals * n` values of `T`, `init` of `signals * blocks * order`, `h`
// of `order * block`, `1 <= order <= 64` and `blocks = ceil(n / block)`.
// Thread `t < signals * n` reads and writes `y[t]` only, reads `h[r *
// block + j]` with `j = (t % n) % block < block` and `init` at row
// `m * blocks + k` with `k = (t % n) / block < blocks`. The arrays
// outlive the launch.
unsafe impl Vouched for crate::filtering::iir::LfilterFixup {}

// SAFETY: `filtering::fixed_scan::scan_rows` launches it only, having
// checked them, with `x` a C-contiguous array of `signals * n` elements of
// the kernel's input type `X` (`T`, or float32 for a float64 `T`:
// `fixed_scan::input_dtype`), `coef` of the values the compiled policy loads
// (`5 * S` for a cascade of S sections, `2 * (N + 1)` for the direct form
// of order N: `Recursion::coef` of the recursion the program was compiled
// for), `zi` null or a C-contiguous array of the policy's state layout
// (`(S, signals, 2)` or `(signals, N)`, `Recursion::state_shape`, whose
// every index `R::at(m, r, signals)` with `m < signals`, `r < D` is
// inside), `state` of `signals * blocks * D` values, `block >= 1`,
// `blocks = ceil(n / block)`, and `packed` only where `n` and `block` are
// multiples of V, the larger of `X`'s and `T`'s 16-byte packs, and `x`
// starts on a 16-byte boundary.
// Thread `t < signals * blocks` reads `x` only at `m * n + j`, `j` in `k *
// block .. min((k + 1) * block, n)` (`m = t / blocks`, `k = t % blocks`;
// packed reads stay inside that run: each starts at a multiple of V
// below `stop - V + 1`), `zi` only for `k == 0`, and writes `state[t * D +
// r]`, `r < D`. The arrays outlive the launch.
unsafe impl Vouched for crate::filtering::fixed_scan::ScanStates {}

// SAFETY: `filtering::fixed_scan::scan_rows` launches it only with the
// operands of `ScanStates` above, `y` a fresh C-contiguous array of
// `signals * n` elements of `T` (on a 16-byte boundary when `packed`),
// `init` null when `blocks == 1` or the carry's `signals * blocks * D`
// values (read only at rows `m * blocks + k` with `1 <= k < blocks`), and
// `zf` null or a fresh array of zi's layout. Thread `t` reads and writes
// `x`, `y` only within its block's run of row `m`, and writes `zf` only as
// the thread of `m`'s last block, at `m`'s own indices. The arrays outlive
// the launch.
unsafe impl Vouched for crate::filtering::fixed_scan::ScanRun {}

// SAFETY: `convolution::conv2d_tiled::launch` launches it only after
// `applies` and its own checks: `a` a C-contiguous non-empty `m x n`
// array of `TA`, `b` a C-contiguous non-empty `bm x bn` array of `TB`,
// `y` a C-contiguous non-empty `ym x yn` array of `TY`, blocks of
// 32 x 8 threads (`ROWS`, the kernel's CUPRUM_CONV2D_ROWS) and dynamic
// shared memory of `shared_bytes(bm, bn, y)` (<= 48 KiB): the `bm * bn`
// kernel values and the `(R + bm - 1) x (128 + bn - 1)` window, `R =
// tile_rows(bm, bn, y)` (8 for the general kernel; 8 RR for the
// fixed-size one compiled for this `bm x bn`, RR = `rows_per_thread(y)`,
// the same value its CUPRUM_CONV2D_FIXED instantiation gets). That window
// is every index `conv2d_load` writes (rows `< R + bm - 1`, columns `<
// 128 + bn - 1`) and the compute functions read: `conv2d_compute` row
// `ty + bm - 1 - p <= 8 + bm - 2`, `conv2d_compute_fixed` row `ty RR + s
// <= 8 RR + bm - 2` (`s <= RR + bm - 2`), both at column `tx + bn - 1 +
// 32 k - q` with `tx < 32`, `k < 4`, `q < bn`. The input is read only at
// `r * n + c` with `r`, `c` mapped into `0..m`, `0..n` by `boundary` (or
// not read, for the fill value); output `(i, j)` is written only by the
// thread of its tile with `i < ym`, `j < yn`, and each tile belongs to one
// block (grid-stride loops over disjoint tiles of `R` rows, the grid's
// `rtiles` counted in the same `R`). The arrays are freed in stream order,
// so they outlive the launch.
unsafe impl Vouched for crate::convolution::conv2d_tiled::Conv2dTiled {}
