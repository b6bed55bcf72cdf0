//! The scan engine: cumulative sums and products along an axis, behind
//! NumPy's `cumsum`, `cumprod`, `nancumsum` and `nancumprod`, which live
//! with `sum` and `diff` in [`crate::math`] (NumPy's "Sums, products,
//! differences").
//!
//! | NumPy / CuPy                          | Cuprum                                            |
//! |---------------------------------------|---------------------------------------------------|
//! | `cp.cumsum(a)`, `a.cumsum(axis=1)`    | [`cumsum`](crate::math::cumsum)`(&a, None, None)?`, `a.cumsum(Some(1))?` |
//! | `cp.cumprod(a, axis=0, dtype=f8)`     | [`cumprod`](crate::math::cumprod)`(&a, Some(0), Some(DType::Float64))?`  |
//! | `cp.nancumsum(a)`, `cp.nancumprod(a)` | [`nancumsum`](crate::math::nancumsum), [`nancumprod`](crate::math::nancumprod) |
//!
//! Result dtypes are NumPy's: bool and signed integers narrower than 64
//! bits accumulate as int64, unsigned ones as uint64, other dtypes keep
//! theirs; `dtype=` overrides. `axis=None` scans the flattened array (C
//! order). The result is a new C-ordered array. float16 and bfloat16
//! results are accumulated in float32 (NumPy accumulates float16 in
//! float16: the values agree within float16's precision, Cuprum's being
//! the closer to the exact sums). Integer sums wrap around as NumPy's.
//!
//! How (see `kernels`): the input is made C-contiguous when it is not (one
//! copy, same dtype: the kernels cast while loading) and seen as `[outer,
//! n, inner]`. The scanned axis last (`inner == 1`): rows longer than one
//! tile (2048 elements) take the single-pass decoupled look-back scan, one
//! launch for all rows; shorter rows (and rows of a few tiles when there
//! are thousands of them) one warp each. A strided axis with an
//! inner block of at least 32 elements is scanned in place, coalesced
//! across columns: one thread per column when there are enough columns to
//! fill the device, else in three passes over segments of the axis (segment
//! totals, their prefixes, rescans); a narrower inner block is moved last
//! by a copy, scanned as rows, and moved back.

pub(crate) mod kernels;

pub(crate) use kernels::ScanOp;

use crate::array::Array;
use crate::dtype::DType;
use crate::error::Result;
use crate::layout::{Order, normalize_axis};
use gpu_runtime::signature::{In, Out};
use kernels::{Cols, Rows, SegCarry, SegFinish, SegTotals, TILE, Tiles};

/// NumPy's default result dtype of `cumsum`/`cumprod` (and their `nan`
/// forms) of an array of `input`: int64 for bool and narrower signed
/// integers, uint64 for narrower unsigned integers, else `input`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::scan::cumulative_dtype;
/// assert_eq!(cumulative_dtype(DType::Bool), DType::Int64);
/// assert_eq!(cumulative_dtype(DType::UInt8), DType::UInt64);
/// assert_eq!(cumulative_dtype(DType::Float32), DType::Float32);
/// ```
pub const fn cumulative_dtype(input: DType) -> DType {
    match input {
        DType::Bool | DType::Int8 | DType::Int16 | DType::Int32 => DType::Int64,
        DType::UInt8 | DType::UInt16 | DType::UInt32 => DType::UInt64,
        d => d,
    }
}

/// The CUDA C++ program holding every scan kernel (`cumsum`, `cumprod`,
/// `nancumsum`, `nancumprod`; look-back tiles, warp per row, column and
/// segmented-column kernels) for each (input dtype, result dtype) pair, with
/// their declared prototypes; it includes the headers of
/// [`crate::kernels::HEADERS`]. For compile tests and ahead-of-time
/// compilation.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::scan::program_source;
/// let src = program_source(&[(DType::Int32, DType::Int64)]);
/// assert!(src.contains("#include") && src.contains("int64"));
/// ```
pub fn program_source(pairs: &[(DType, DType)]) -> String {
    pairs
        .iter()
        .fold(kernels::COMMON.to_string(), |mut s, &(i, o)| {
            s.push_str(&kernels::prototypes(i, o));
            s.push_str(&kernels::instantiation(i, o));
            s
        })
}

/// How a C-contiguous `[outer, n, inner]` scan runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Look-back over tiles of each row (`inner == 1`, long rows).
    Tiles,
    /// One warp per row (`inner == 1`, rows of at most one tile).
    Rows,
    /// One thread per column: enough columns to fill the device.
    Cols,
    /// Columns in segments of `len` (three passes): too few columns to
    /// fill the device by themselves.
    Segmented {
        /// Elements of the axis per segment.
        len: usize,
    },
    /// Move the axis last with a copy, scan rows, move it back: inner
    /// blocks too narrow for coalesced column reads.
    MoveLast,
}

/// Threads that keep every multiprocessor of a large GPU streaming.
const FILL_THREADS: usize = 1 << 18;

/// Most segments per column of [`Plan::Segmented`].
const MAX_SEGMENTS: usize = 256;

/// The plan for a C-contiguous `[outer, n, inner]` scan.
pub(crate) fn plan(outer: usize, n: usize, inner: usize) -> Plan {
    if inner == 1 {
        // Rows of a few tiles, when there are enough of them to fill the
        // device, waste less on a warp each than on part-empty tiles.
        let rows_fill = outer >= 8192 && n <= 4 * TILE;
        return if n <= TILE || rows_fill {
            Plan::Rows
        } else {
            Plan::Tiles
        };
    }
    if inner < 32 {
        return Plan::MoveLast;
    }
    let columns = outer * inner;
    if columns >= FILL_THREADS || n <= 64 {
        return Plan::Cols;
    }
    // The carry pass walks the segments of a column one after another, a
    // dependent global load each: at most MAX_SEGMENTS of them.
    let segs = FILL_THREADS
        .div_ceil(columns)
        .min(n.div_ceil(32))
        .min(MAX_SEGMENTS);
    if segs <= 1 {
        return Plan::Cols;
    }
    Plan::Segmented {
        len: n.div_ceil(segs),
    }
}

/// The scan `op` of `a` along `axis` (`None`: the flattened array) in
/// `dtype` (default [`cumulative_dtype`]): the engine behind
/// [`crate::math::cumsum`] and its siblings.
///
/// # Errors
/// Axis out of bounds; allocation, compilation or launch failed.
pub(crate) fn cumulative(
    a: &Array,
    axis: Option<isize>,
    dtype: Option<DType>,
    op: ScanOp,
) -> Result<Array> {
    let out_dt = dtype.unwrap_or(cumulative_dtype(a.dtype()));
    let (src, axis) = match axis {
        None => (a.reshape([-1])?, 0),
        Some(ax) if a.ndim() == 0 => (a.reshape([1])?, normalize_axis(ax, 1)?),
        Some(ax) => (a.clone(), normalize_axis(ax, a.ndim())?),
    };
    let out = Array::empty_on(src.device(), src.shape(), out_dt, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let src = if src.is_c_contiguous() {
        src
    } else {
        src.copy()?
    };
    let shape = src.shape();
    let outer: usize = shape[..axis].iter().product();
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    match plan(outer, n, inner) {
        Plan::MoveLast => {
            let moved = src.moveaxis(&[axis as isize], &[-1])?.copy()?;
            let tmp = Array::empty_on(src.device(), moved.shape(), out_dt, Order::C)?;
            let rows = outer * inner;
            run(plan(rows, n, 1), op, &moved, &tmp, [rows, n, 1])?;
            out.copy_from(&tmp.moveaxis(&[-1], &[axis as isize])?)?;
        }
        p => run(p, op, &src, &out, [outer, n, inner])?,
    }
    Ok(out)
}

/// Runs `plan` (not [`Plan::MoveLast`]) from the C-contiguous `src` into
/// the C-contiguous `out` of the same shape, `[outer, n, inner]`.
fn run(plan: Plan, op: ScanOp, src: &Array, out: &Array, dims: [usize; 3]) -> Result<()> {
    let stream = out.stream();
    let [outer, n, inner] = dims;
    let (input, out_dt) = (src.dtype(), out.dtype());
    let threads = kernels::BLOCK as usize;
    let (s, d) = (crate::kernels::input(src), crate::kernels::output(out));
    let [o, nn, i] = dims.map(|x| x as i64);
    match plan {
        Plan::Tiles => {
            let tiles_per_row = n.div_ceil(kernels::tile_for(out_dt));
            let (zeroed, bytes) = kernels::temp_bytes(outer * tiles_per_row, out_dt);
            let tmp = Array::empty_on(out.device(), &[bytes], DType::UInt8, Order::C)?;
            tmp.memory().memset_at(0, zeroed, 0, &stream)?;
            let args = Tiles {
                src: s,
                dst: d,
                status: Out::bytes(tmp.data_ptr()),
                rows: o,
                n: nn,
                tiles_per_row: tiles_per_row as i64,
            };
            kernels::launch(op, input, out_dt, outer * tiles_per_row, &stream, &args)
        }
        Plan::Rows => {
            let args = Rows {
                src: s,
                dst: d,
                rows: o,
                n: nn,
            };
            kernels::launch(
                op,
                input,
                out_dt,
                outer.div_ceil(threads / 32),
                &stream,
                &args,
            )
        }
        Plan::Cols => {
            let args = Cols {
                src: s,
                dst: d,
                outer: o,
                n: nn,
                inner: i,
            };
            kernels::launch(
                op,
                input,
                out_dt,
                (outer * inner).div_ceil(threads),
                &stream,
                &args,
            )
        }
        Plan::Segmented { len } => {
            let segs = n.div_ceil(len);
            let bytes = outer * segs * inner * kernels::acc_size(out_dt);
            let tmp = Array::empty_on(out.device(), &[bytes], DType::UInt8, Order::C)?;
            // One accumulator per (outer, segment, inner).
            let acc = out_dt.compute_c_type();
            let totals = Out::new(tmp.data_ptr(), acc);
            let seg_blocks = (outer * segs * inner).div_ceil(threads);
            let (len, segs_) = (len as i64, segs as i64);
            let pass1 = SegTotals {
                src: s,
                totals,
                outer: o,
                n: nn,
                inner: i,
                len,
            };
            kernels::launch(op, input, out_dt, seg_blocks, &stream, &pass1)?;
            let pass2 = SegCarry {
                totals,
                outer: o,
                segs: segs_,
                inner: i,
            };
            let carry_blocks = (outer * inner).div_ceil(threads);
            kernels::launch(op, input, out_dt, carry_blocks, &stream, &pass2)?;
            let pass3 = SegFinish {
                src: s,
                dst: d,
                totals: In::new(tmp.data_ptr(), acc),
                outer: o,
                n: nn,
                inner: i,
                len,
            };
            kernels::launch(op, input, out_dt, seg_blocks, &stream, &pass3)
        }
        Plan::MoveLast => Err(crate::error::Error::Value(
            "scan: the axis must be moved last first".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_dtypes_are_numpys() {
        assert_eq!(cumulative_dtype(DType::Bool), DType::Int64);
        assert_eq!(cumulative_dtype(DType::Int8), DType::Int64);
        assert_eq!(cumulative_dtype(DType::Int32), DType::Int64);
        assert_eq!(cumulative_dtype(DType::UInt16), DType::UInt64);
        assert_eq!(cumulative_dtype(DType::UInt64), DType::UInt64);
        assert_eq!(cumulative_dtype(DType::Float16), DType::Float16);
        assert_eq!(cumulative_dtype(DType::Complex64), DType::Complex64);
    }

    #[test]
    fn plan_picks_by_shape() {
        assert_eq!(plan(1, 1 << 26, 1), Plan::Tiles);
        assert_eq!(plan(16384, 16384, 1), Plan::Tiles);
        assert_eq!(plan(100_000, 10, 1), Plan::Rows);
        assert_eq!(plan(1, TILE, 1), Plan::Rows);
        assert_eq!(plan(10_000, TILE + 1, 1), Plan::Rows);
        assert_eq!(plan(100, TILE + 1, 1), Plan::Tiles);
        assert_eq!(plan(1, 1000, 3), Plan::MoveLast);
        assert_eq!(plan(64, 100, 8192), Plan::Cols);
        assert_eq!(plan(1, 50, 64), Plan::Cols);
        // 16384 x 16384 along axis 0: 16 segments of 1024 rows.
        assert_eq!(plan(1, 16384, 16384), Plan::Segmented { len: 1024 });
        assert_eq!(plan(2, 1 << 20, 64), Plan::Segmented { len: 4096 });
        // At most one segment per 32 elements of the axis.
        assert_eq!(plan(1, 100, 64), Plan::Segmented { len: 25 });
    }

    #[test]
    fn nan_scans_of_exact_inputs_run_the_plain_kernels() {
        assert_eq!(ScanOp::NanSum.for_input(DType::Int8), ScanOp::Sum);
        assert_eq!(ScanOp::NanProd.for_input(DType::Bool), ScanOp::Prod);
        assert_eq!(ScanOp::NanSum.for_input(DType::Float16), ScanOp::NanSum);
        assert_eq!(ScanOp::NanProd.for_input(DType::Complex64), ScanOp::NanProd);
        let line = kernels::instantiation(DType::UInt8, DType::UInt64);
        assert!(
            line.starts_with("CUPRUM_SCAN_EXACT(uint8_uint64,"),
            "{line}"
        );
        let line = kernels::instantiation(DType::Float16, DType::Float16);
        assert_eq!(
            line,
            "CUPRUM_SCAN(float16_float16, cuprum::half, float, cuprum::half)\n"
        );
    }

    #[test]
    fn programs_declare_every_kernel_of_the_pair() {
        let p = kernels::prototypes(DType::Float16, DType::Float32);
        assert_eq!(p.lines().count(), 6 * 4);
        assert!(p.contains(
            "extern \"C\" __global__ void cuprum_scan_segfinish_nansum_float16_float32(\
             const cuprum::half* src, float* dst, const float* totals, long long outer, \
             long long n, long long inner, long long len);\n"
        ));
        let p = kernels::prototypes(DType::Int8, DType::Int64);
        assert_eq!(p.lines().count(), 6 * 2);
        assert!(p.contains(
            "void cuprum_scan_tiles_prod_int8_int64(const signed char* src, long long* dst, \
             void* status, long long rows, long long n, long long tiles_per_row);\n"
        ));
    }

    #[test]
    fn every_launch_finds_its_kernel_declared_in_its_program() {
        use gpu_runtime::signature::declares;
        fn check<A: kernels::Shape>(op: ScanOp, i: DType, o: DType) {
            let name = kernels::kernel_name(A::SHAPE, op.for_input(i), i, o);
            let types = [i.c_type(), o.compute_c_type(), o.c_type()];
            let req = kernels::program_request(i, o);
            assert!(declares::<A>(&req, &name, types), "{name}");
        }
        for i in DType::ALL {
            let o = cumulative_dtype(i);
            for op in [ScanOp::Sum, ScanOp::Prod, ScanOp::NanSum, ScanOp::NanProd] {
                check::<Tiles>(op, i, o);
                check::<Rows>(op, i, o);
                check::<Cols>(op, i, o);
                check::<SegTotals>(op, i, o);
                check::<SegCarry>(op, i, o);
                check::<SegFinish>(op, i, o);
            }
        }
    }

    #[test]
    fn temp_buffer_holds_status_and_values() {
        let (zeroed, bytes) = kernels::temp_bytes(3, DType::Complex128);
        assert_eq!(zeroed, kernels::STATUS_OFFSET + 8 * 4);
        assert!(bytes >= zeroed + 2 * 16 * 4);
    }
}
