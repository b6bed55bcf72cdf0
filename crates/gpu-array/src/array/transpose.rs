//! A tiled transpose for copies whose source and destination disagree on
//! which axis is contiguous (`a.T.copy()`): the generic strided kernel
//! reads or writes with a stride there, which costs 3 to 5 times the
//! bandwidth; staging 32x32 tiles through shared memory keeps both sides
//! coalesced.

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};
use gpu_runtime::{KernelSignature, LaunchConfig, TypedKernel};

use super::Array;
use crate::error::Result;

const TILE: usize = 32;
const ROWS_PER_PASS: u32 = 8;
/// CUDA's limits on a grid's x and y extents.
const MAX_GRID_X: u32 = i32::MAX as u32;
const MAX_GRID_Y: u32 = 65_535;

const SOURCE: &str = include_str!("transpose.cu");

/// The item sizes with a kernel (`cuprum_transpose_{size}`).
const SIZES: [usize; 5] = [1, 2, 4, 8, 16];

gpu_runtime::kernel_signature! {
    /// `cuprum_transpose_{itemsize}`: `dst(r, c) = src(r, c)` for a
    /// `rows x cols` matrix of items, `src(r, c)` at item `r + c * src_cs`
    /// (rows contiguous), `dst(r, c)` at item `r * dst_rs + c` (columns
    /// contiguous); blocks of 32 x 8 threads, one 32 x 32 tile per block
    /// and pass.
    pub(crate) struct Transpose {
        src: In<void>,
        dst: Out<void>,
        rows: i64,
        cols: i64,
        src_cs: i64,
        dst_rs: i64,
    }
}

fn name(itemsize: usize) -> String {
    format!("cuprum_transpose_{itemsize}")
}

/// The NVRTC request of the transpose program (every item size's kernel,
/// with their declared prototypes), without an architecture.
pub(crate) fn program_request() -> CompileRequest {
    let prototypes: String = SIZES
        .iter()
        .map(|&s| Transpose::prototype(&name(s), []))
        .collect();
    crate::kernels::request(format!("{SOURCE}{prototypes}"))
}

fn kernel(itemsize: usize) -> Result<TypedKernel<Transpose>> {
    Ok(TypedKernel::cached(&name(itemsize), [], program_request)?)
}

/// Copies `src` into `dst` with the tiled kernel when the layouts call for
/// it (2-D, same shape and dtype, `dst` rows contiguous, `src` columns
/// contiguous, both sides at least one tile, element offsets aligned);
/// returns whether it did.
pub(crate) fn try_transpose_copy(dst: &Array, src: &Array) -> Result<bool> {
    let isz = dst.itemsize();
    if dst.ndim() != 2
        || src.ndim() != 2
        || dst.shape() != src.shape()
        || !isz.is_power_of_two()
        || isz > 16
    {
        return Ok(false);
    }
    let (rows, cols) = (dst.shape()[0], dst.shape()[1]);
    let (ds, ss) = (dst.strides(), src.strides());
    let i = isz as isize;
    let fits = rows >= TILE
        && cols >= TILE
        && ds[1] == i
        && ss[0] == i
        && ds[0] % i == 0
        && ss[1] % i == 0
        && ds[0] > 0
        && ss[1] > 0
        && dst.data_ptr().raw().is_multiple_of(isz as u64)
        && src.data_ptr().raw().is_multiple_of(isz as u64);
    if !fits {
        return Ok(false);
    }
    // grid.x may reach 2^31 - 1 and grid.y 65535 (the kernel strides over
    // the remaining row tiles); a size no launch or kernel argument can
    // hold goes to the generic kernel.
    let grid_x = u32::try_from(cols.div_ceil(TILE))
        .ok()
        .filter(|&x| x <= MAX_GRID_X);
    let grid_y = u32::try_from(rows.div_ceil(TILE).min(MAX_GRID_Y as usize)).ok();
    let dims = [
        i64::try_from(rows),
        i64::try_from(cols),
        i64::try_from(ss[1] / i),
        i64::try_from(ds[0] / i),
    ];
    let (Some(grid_x), Some(grid_y), [Ok(rows), Ok(cols), Ok(src_cs), Ok(dst_rs)]) =
        (grid_x, grid_y, dims)
    else {
        return Ok(false);
    };
    let k = kernel(isz)?;
    let cfg = LaunchConfig::new((grid_x, grid_y, 1), (TILE as u32, ROWS_PER_PASS, 1));
    let args = Transpose {
        src: In::bytes(src.data_ptr()),
        dst: Out::bytes(dst.data_ptr()),
        rows,
        cols,
        src_cs,
        dst_rs,
    };
    k.launch(&cfg, &dst.stream(), &args)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use gpu_runtime::nvrtc::{CompileConfig, compile_uncached};

    /// Tier 2: the transpose kernels compile for sm_80 and sm_90, each
    /// against its declared prototype.
    #[test]
    fn transpose_kernels_compile() {
        if gpu_runtime::testing::nvrtc_or_skip().is_none() {
            return;
        }
        for arch in ["sm_80", "sm_90"] {
            let req = super::program_request().arch(arch);
            let cfg = CompileConfig::from_env();
            let c = compile_uncached(&req, &cfg).unwrap_or_else(|e| panic!("{arch}: {e}"));
            assert!(!c.image.is_empty());
        }
    }
}
