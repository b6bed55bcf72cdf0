//! Cuprum's own CUDA kernels of the crate, for what cuBLAS and cuSOLVER do
//! not do: integer and boolean matmul (NumPy accepts them, cuBLAS does
//! not), the determinant's reduction over an LU factorization, and the
//! formation of `Q` from Householder reflectors for a stack of small
//! matrices (cuSOLVER's `orgqr` takes one matrix per call, and cuBLAS has
//! `geqrfBatched` but no batched `orgqr`).
//!
//! One NVRTC program per dtype, with gpu-array's device headers (complex
//! matrices are `cuprum::complex<R>`, and dtypes name their C types by
//! `DType::c_type`, as every Cuprum kernel does), compiled on first use and
//! cached for the process (and on disk by the runtime's kernel cache).

use gpu_array::kernels::{input, output};
use gpu_array::{Array, DType};
use gpu_runtime::signature::In;
use gpu_runtime::{DevicePtr, KernelSignature, LaunchConfig, Stream, TypedKernel};

use crate::error::{Result, unsupported};

/// Largest matrix order whose row order `launch_pivot_perm` builds (the
/// kernel's two shared arrays of `int`, 48 KiB together).
pub const PERM_MAX: usize = 6144;
/// Threads per block of the pivot-order kernel.
const PERM_BLOCK: u32 = 256;

/// Side of the square tiles of the integer matmul (threads per block are
/// `TILE * TILE`).
pub const TILE: u32 = 16;
/// Threads per block of the determinant kernel.
pub const DET_BLOCK: u32 = 256;
/// Threads per block of the batched `orgqr` kernel (one block per
/// matrix; the threads share the columns, then the rows).
pub const ORGQR_BLOCK: u32 = 64;

const COMMON: &str = include_str!("kernels.cu");

/// The name of the integer matmul kernel of `dtype`.
///
/// ```
/// use gpu_array::DType;
/// assert_eq!(gpu_linalg::kernels::imatmul_name(DType::Int32), "cuprum_linalg_imatmul_int32");
/// ```
pub fn imatmul_name(dtype: DType) -> String {
    format!("cuprum_linalg_imatmul_{}", dtype.name())
}

/// The name of the slogdet kernel of `dtype`.
///
/// ```
/// use gpu_array::DType;
/// assert_eq!(gpu_linalg::kernels::slogdet_name(DType::Float64), "cuprum_linalg_lu_slogdet_float64");
/// ```
pub fn slogdet_name(dtype: DType) -> String {
    format!("cuprum_linalg_lu_slogdet_{}", dtype.name())
}

/// The name of the batched `orgqr` kernel of `dtype`.
///
/// ```
/// use gpu_array::DType;
/// assert_eq!(gpu_linalg::kernels::orgqr_name(DType::Complex64), "cuprum_linalg_orgqr_complex64");
/// ```
pub fn orgqr_name(dtype: DType) -> String {
    format!("cuprum_linalg_orgqr_{}", dtype.name())
}

/// The dtypes the integer matmul kernel is instantiated for: bool and
/// every integer dtype, in `DType::ALL`'s order.
pub const IMATMUL_DTYPES: [DType; 9] = {
    let mut out = [DType::Bool; 9];
    let (mut i, mut k) = (0, 0);
    while i < DType::ALL.len() {
        let d = DType::ALL[i];
        if d.is_bool() || d.is_integer() {
            // Indexing past 9 would fail the build: the count is checked.
            out[k] = d;
            k += 1;
        }
        i += 1;
    }
    assert!(k == 9);
    out
};

/// The dtypes the slogdet kernel is instantiated for.
pub const SLOGDET_DTYPES: [DType; 4] = [
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

/// The dtypes the batched `orgqr` kernel is instantiated for (those of
/// the factorizations, as the slogdet kernel's).
pub const ORGQR_DTYPES: [DType; 4] = SLOGDET_DTYPES;

gpu_runtime::kernel_signature! {
    /// `cuprum_linalg_pivot_perm`: the row order of `grid.x` matrices of
    /// order `n` from their `n` 1-based int64 pivots each (one block per
    /// matrix).
    pub(crate) struct PivotPerm {
        ipiv: In<i64>,
        perm: Out<i64>,
        n: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_linalg_imatmul_{dtype}`: `c[b] = a[b] @ b[b]` for `batch`
    /// products of `m x k` by `k x n`, `a` and `b` at element strides
    /// (batch, row, column), `c` contiguous.
    pub(crate) struct Imatmul[T] {
        a: In<T>,
        b: In<T>,
        c: Out<T>,
        m: i64,
        n: i64,
        k: i64,
        batch: i64,
        sab: i64,
        sam: i64,
        sak: i64,
        sbb: i64,
        sbk: i64,
        sbn: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_linalg_lu_slogdet_{dtype}`: sign and log|det| of each of
    /// `grid.x` matrices of order `n` from their LU factors (column major,
    /// leading dimension `ld`, `mstride` elements apart) and pivots.
    pub(crate) struct Slogdet[T, R] {
        lu: In<T>,
        ipiv: In<i64>,
        sign: Out<T>,
        logdet: Out<R>,
        n: i64,
        mstride: i64,
        ld: i64,
    }
}

gpu_runtime::kernel_signature! {
    /// `cuprum_linalg_orgqr_{dtype}`: the first `n` columns of `Q`, in
    /// place, of `batch` column-major `m x n` matrices (`mstride` elements
    /// apart, leading dimension `ld`) holding `k` reflectors and `k`
    /// scalars `tau` each.
    pub(crate) struct Orgqr[T] {
        q: Out<T>,
        tau: In<T>,
        m: i64,
        n: i64,
        k: i64,
        mstride: i64,
        ld: i64,
        batch: i64,
    }
}

/// The program lines of `A`'s kernel `name` whose slots have the C types
/// `types`: its declared prototype and its instantiation `MACRO(name, args)`
/// (a macro of `kernels.cu`).
fn lines<A: KernelSignature>(name: &str, types: A::Types, macro_name: &str, args: &str) -> String {
    let prototype = A::prototype(name, types);
    format!("{prototype}{macro_name}({name}, {args})\n")
}

/// The program lines of the batched `orgqr` kernel of `dtype`.
fn orgqr_instance(dtype: DType) -> Option<String> {
    let t = dtype.c_type();
    let args = format!("{t}, {ORGQR_BLOCK}");
    ORGQR_DTYPES
        .contains(&dtype)
        .then(|| lines::<Orgqr>(&orgqr_name(dtype), [t], "CUPRUM_LINALG_ORGQR", &args))
}

/// The program lines of the integer matmul kernel of `dtype`.
fn imatmul_instance(dtype: DType) -> Option<String> {
    let t = dtype.c_type();
    IMATMUL_DTYPES
        .contains(&dtype)
        .then(|| lines::<Imatmul>(&imatmul_name(dtype), [t], "CUPRUM_LINALG_IMATMUL", t))
}

/// The program lines of the slogdet kernel of `dtype`.
fn slogdet_instance(dtype: DType) -> Option<String> {
    let (t, r) = (dtype.c_type(), dtype.real_dtype().c_type());
    let args = format!("{t}, {r}");
    SLOGDET_DTYPES
        .contains(&dtype)
        .then(|| lines::<Slogdet>(&slogdet_name(dtype), [t, r], "CUPRUM_LINALG_SLOGDET", &args))
}

/// The name of the pivot-order kernel.
const PIVOT_PERM: &str = "cuprum_linalg_pivot_perm";

/// The pivot-order kernel's program lines (its kernel is in the common
/// source): its declared prototype.
fn pivot_perm_instance() -> String {
    PivotPerm::prototype(PIVOT_PERM, [])
}

/// The program holding every kernel of the given dtypes (the nvrtc test
/// compiles all of them in one program).
///
/// ```
/// use gpu_array::DType;
/// use gpu_linalg::kernels::{imatmul_name, program_source};
/// let src = program_source(&[DType::Int64], &[], &[]);
/// assert!(src.contains(&imatmul_name(DType::Int64)));
/// ```
pub fn program_source(imatmul: &[DType], slogdet: &[DType], orgqr: &[DType]) -> String {
    let mut s = format!("{COMMON}{}", pivot_perm_instance());
    for &d in imatmul {
        s.push_str(&imatmul_instance(d).unwrap_or_default());
    }
    for &d in slogdet {
        s.push_str(&slogdet_instance(d).unwrap_or_default());
    }
    for &d in orgqr {
        s.push_str(&orgqr_instance(d).unwrap_or_default());
    }
    s
}

/// The kernel `name` of the program of the common source and `lines`,
/// whose slots have the C types `types`, compiled once per process.
fn kernel<A: KernelSignature>(name: &str, types: A::Types, lines: &str) -> Result<TypedKernel<A>> {
    Ok(TypedKernel::cached(name, types, || {
        gpu_array::kernels::request(format!("{COMMON}{lines}"))
    })?)
}

/// Element strides of the integer matmul's operands: batch, row, column.
#[derive(Debug, Clone, Copy)]
pub(crate) struct IntOperand {
    pub ptr: DevicePtr,
    pub batch: i64,
    pub row: i64,
    pub col: i64,
}

/// Launches the integer matmul over `batch` products of `m x k` by
/// `k x n` of `dtype` into the contiguous `c`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn launch_imatmul(
    stream: &Stream,
    dtype: DType,
    (m, n, k): (i64, i64, i64),
    batch: i64,
    a: IntOperand,
    b: IntOperand,
    c: &Array,
) -> Result<()> {
    let lines = imatmul_instance(dtype)
        .ok_or_else(|| unsupported(format!("integer matmul does not take dtype {dtype}")))?;
    let t = dtype.c_type();
    let kern = kernel::<Imatmul>(&imatmul_name(dtype), [t], &lines)?;
    let gx = u32::try_from((n as u64).div_ceil(TILE as u64)).ok();
    let gy = u32::try_from((m as u64).div_ceil(TILE as u64))
        .ok()
        .filter(|&g| g <= 65535);
    let (Some(gx), Some(gy)) = (gx, gy) else {
        return Err(unsupported(format!(
            "integer matmul: a {m} x {n} result exceeds one launch's grid"
        )));
    };
    let gz = batch.clamp(1, 65535) as u32;
    let cfg = LaunchConfig::new((gx, gy, gz), (TILE, TILE, 1));
    let args = Imatmul {
        a: In::new(a.ptr, t),
        b: In::new(b.ptr, t),
        c: output(c),
        m,
        n,
        k,
        batch,
        sab: a.batch,
        sam: a.row,
        sak: a.col,
        sbb: b.batch,
        sbk: b.row,
        sbn: b.col,
    };
    Ok(kern.launch(&cfg, stream, &args)?)
}

/// Launches the slogdet reduction over `batch` LU factorizations of order
/// `n` in `lu` (`mstride` elements apart, leading dimension `ld`).
pub(crate) fn launch_slogdet(
    stream: &Stream,
    batch: usize,
    n: i64,
    (lu, mstride, ld): (&Array, i64, i64),
    ipiv: &Array,
    sign: &Array,
    logdet: &Array,
) -> Result<()> {
    let dtype = lu.dtype();
    let lines = slogdet_instance(dtype)
        .ok_or_else(|| unsupported(format!("det does not take dtype {dtype}")))?;
    let types = [dtype.c_type(), dtype.real_dtype().c_type()];
    let kern = kernel::<Slogdet>(&slogdet_name(dtype), types, &lines)?;
    let blocks = u32::try_from(batch)
        .ok()
        .filter(|&b| b < (1 << 31))
        .ok_or_else(|| unsupported(format!("det: {batch} matrices exceed one launch")))?;
    let cfg = LaunchConfig::new((blocks, 1, 1), (DET_BLOCK, 1, 1));
    let args = Slogdet {
        lu: input(lu),
        ipiv: input(ipiv),
        sign: output(sign),
        logdet: output(logdet),
        n,
        mstride,
        ld,
    };
    Ok(kern.launch(&cfg, stream, &args)?)
}

/// Launches the pivot-order kernel over `batch` matrices of order
/// `n <= PERM_MAX`: `ipiv` holds getrf's `batch * n` 1-based int64
/// pivots, `perm` receives `batch * n` int64 row indices into the stacked
/// `(batch * n, k)` solution (see `cuprum_linalg_pivot_perm`).
pub(crate) fn launch_pivot_perm(
    stream: &Stream,
    ipiv: &Array,
    perm: &Array,
    n: usize,
    batch: usize,
) -> Result<()> {
    if n > PERM_MAX {
        return Err(unsupported(format!(
            "pivot order: {n} rows exceed the kernel's {PERM_MAX}"
        )));
    }
    let kern = kernel::<PivotPerm>(PIVOT_PERM, [], &pivot_perm_instance())?;
    let blocks = u32::try_from(batch)
        .ok()
        .filter(|&b| b < (1 << 31))
        .ok_or_else(|| unsupported(format!("solve: {batch} matrices exceed one launch")))?;
    let cfg = LaunchConfig::new((blocks.max(1), 1, 1), (PERM_BLOCK, 1, 1));
    let args = PivotPerm {
        ipiv: input(ipiv),
        perm: output(perm),
        n: n as i64,
    };
    Ok(kern.launch(&cfg, stream, &args)?)
}

/// Forms in place the first `n` columns of `Q` of each of `batch`
/// column-major `m x n` matrices in `q` (`mstride` elements apart, leading
/// dimension `ld >= m`) whose first `k <= min(m, n)` columns hold
/// `geqrf`'s reflectors, `tau` holding `k` scalars per matrix.
pub(crate) fn launch_orgqr(
    stream: &Stream,
    (m, n, k): (i64, i64, i64),
    (q, mstride, ld): (&Array, i64, i64),
    tau: &Array,
    batch: usize,
) -> Result<()> {
    let dtype = q.dtype();
    let lines = orgqr_instance(dtype)
        .ok_or_else(|| unsupported(format!("qr does not take dtype {dtype}")))?;
    let kern = kernel::<Orgqr>(&orgqr_name(dtype), [dtype.c_type()], &lines)?;
    // A grid-stride loop covers stacks beyond one launch's blocks.
    let blocks = batch.clamp(1, 1 << 20) as u32;
    let cfg = LaunchConfig::new((blocks, 1, 1), (ORGQR_BLOCK, 1, 1));
    let args = Orgqr {
        q: output(q),
        tau: input(tau),
        m,
        n,
        k,
        mstride,
        ld,
        batch: batch as i64,
    };
    Ok(kern.launch(&cfg, stream, &args)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_cover_their_dtypes() {
        for d in IMATMUL_DTYPES {
            let s = imatmul_instance(d).unwrap();
            assert!(s.contains(&imatmul_name(d)));
        }
        assert!(imatmul_instance(DType::Float32).is_none());
        assert_eq!(IMATMUL_DTYPES[0], DType::Bool);
        assert_eq!(IMATMUL_DTYPES[8], DType::UInt64);
        for d in SLOGDET_DTYPES {
            assert!(slogdet_instance(d).unwrap().contains(&slogdet_name(d)));
        }
        assert!(slogdet_instance(DType::Int32).is_none());
        for d in ORGQR_DTYPES {
            assert!(orgqr_instance(d).unwrap().contains(&orgqr_name(d)));
        }
        assert!(orgqr_instance(DType::Float16).is_none());
        let all = program_source(&IMATMUL_DTYPES, &SLOGDET_DTYPES, &ORGQR_DTYPES);
        // One prototype per kernel, and in the common source the pivot
        // order's definition and the three instantiation macros' (no
        // definition in a Rust string).
        assert_eq!(all.matches("extern \"C\"").count(), 18 + 4);
        assert!(all.contains(
            "extern \"C\" __global__ void cuprum_linalg_lu_slogdet_complex64(\
             const cuprum::complex<float>* lu, const long long* ipiv, \
             cuprum::complex<float>* sign, float* logdet, long long n, long long mstride, \
             long long ld);\n"
        ));
    }
}
