//! `matmul` with NumPy's rules: 1-D operands are promoted to a row
//! (first) or a column (second) and the added axis is dropped from the
//! result; leading axes are a batch that broadcasts.
//!
//! Floating and complex products go to cuBLAS (`cublasGemmEx`, or the
//! strided-batched form for a batch) without copying when each matrix of an
//! operand has a unit stride along one of its axes and the batch axes fold
//! to one stride; otherwise that operand is copied to C order first. cuBLAS
//! is column-major, so `C = A @ B` in C order is computed as the
//! column-major `C^T = B^T A^T`: a C-ordered matrix is its transpose in
//! column-major, so no data moves. Integer and boolean products use the
//! crate's own tiled kernel ([`crate::kernels`]).

use gpu_array::dtype::{Casting, promote_types};
use gpu_array::{Array, DType};

use crate::error::{Result, shape, unsupported};
use crate::kernels::{IntOperand, launch_imatmul};
use crate::raw::blas::{GemmOperand, gemm};

const SIGNATURE: &str = "(n?,k),(k,m?)->(n?,m?)";

/// The shapes of one `matmul`: the broadcast batch, `m`, `n`, `k`, and the
/// result's shape (with the axes of 1-D operands dropped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatmulShape {
    /// Broadcast batch dimensions.
    pub batch: Vec<usize>,
    /// Rows of the left operand (1 for a 1-D left operand).
    pub m: usize,
    /// Columns of the right operand (1 for a 1-D right operand).
    pub n: usize,
    /// The contracted length.
    pub k: usize,
    /// The result's shape.
    pub out: Vec<usize>,
}

/// NumPy's shape rules of `matmul` for operand shapes `a` and `b`.
///
/// ```
/// use gpu_linalg::products::matmul_shape;
/// let s = matmul_shape(&[8, 2, 3], &[3, 4])?;
/// assert_eq!((s.batch, s.m, s.n, s.k, s.out), (vec![8], 2, 4, 3, vec![8, 2, 4]));
/// assert_eq!(matmul_shape(&[3], &[3])?.out, Vec::<usize>::new()); // a dot product
/// # Ok::<(), gpu_linalg::Error>(())
/// ```
///
/// # Errors
/// A 0-d operand, core dimensions that differ, or batch dimensions that do
/// not broadcast, with NumPy's messages.
pub fn matmul_shape(a: &[usize], b: &[usize]) -> Result<MatmulShape> {
    for (i, s) in [a, b].iter().enumerate() {
        if s.is_empty() {
            return Err(shape(format!(
                "matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with signature {SIGNATURE} requires 1)"
            )));
        }
    }
    let (m, ka, a_batch) = if a.len() == 1 {
        (1, a[0], &a[..0])
    } else {
        (a[a.len() - 2], a[a.len() - 1], &a[..a.len() - 2])
    };
    let (kb, n, b_batch) = if b.len() == 1 {
        (b[0], 1, &b[..0])
    } else {
        (b[b.len() - 2], b[b.len() - 1], &b[..b.len() - 2])
    };
    if ka != kb {
        return Err(shape(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature {SIGNATURE} (size {kb} is different from {ka})"
        )));
    }
    let batch = gpu_array::layout::broadcast_shapes(&[a_batch, b_batch]).map_err(|_| {
        gpu_array::Error::Broadcast {
            shapes: vec![a.to_vec(), b.to_vec()],
        }
    })?;
    let mut out = batch.clone();
    if a.len() > 1 {
        out.push(m);
    }
    if b.len() > 1 {
        out.push(n);
    }
    Ok(MatmulShape {
        batch,
        m,
        n,
        k: ka,
        out,
    })
}

/// How cuBLAS reads one matrix operand in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MatLayout {
    /// Unit column stride: C order with this row stride (elements).
    Row(i64),
    /// Unit row stride: Fortran order with this column stride.
    Col(i64),
}

/// Whether a `rows x cols` matrix with element strides `rs`, `cs` can be
/// handed to cuBLAS in place, and how.
pub(crate) fn mat_layout(rows: usize, cols: usize, rs: i64, cs: i64) -> Option<MatLayout> {
    let (r, c) = (rows as i64, cols as i64);
    if (cs == 1 || c == 1) && (r == 1 || rs >= c.max(1)) {
        return Some(MatLayout::Row(if r == 1 { c.max(1) } else { rs }));
    }
    if (rs == 1 || r == 1) && (c == 1 || cs >= r.max(1)) {
        return Some(MatLayout::Col(if c == 1 { r.max(1) } else { cs }));
    }
    None
}

/// The single element stride that walks a batch of shape `shape` with
/// strides `strides` in flattened C order, if there is one (`0` when every
/// axis is broadcast or of length 1).
pub(crate) fn fold_batch(shape: &[usize], strides: &[i64]) -> Option<i64> {
    let mut stride: Option<i64> = None;
    let mut span = 1i64;
    for (&d, &s) in shape.iter().zip(strides).rev() {
        if d == 1 {
            continue;
        }
        match stride {
            None => {
                stride = Some(s);
                span = d as i64;
            }
            Some(st) => {
                if s != st * span {
                    return None;
                }
                span *= d as i64;
            }
        }
    }
    let s = stride.unwrap_or(0);
    (s >= 0).then_some(s)
}

/// Element strides of an array (byte strides divided by the item size).
pub(crate) fn elem_strides(a: &Array) -> Option<Vec<i64>> {
    let item = a.itemsize() as isize;
    a.strides()
        .iter()
        .map(|&s| (s % item == 0).then_some((s / item) as i64))
        .collect()
}

/// An operand broadcast to `(batch..., rows, cols)`, as handed to the
/// kernels: pointer, per-matrix strides, batch stride.
struct Prepared {
    /// Keeps a copy alive when one was made.
    _keep: Array,
    ptr: gpu_runtime::DevicePtr,
    rs: i64,
    cs: i64,
    batch_stride: i64,
}

/// Broadcasts `x` to `full` and finds its strides; copies it to C order
/// when `ok` rejects its layout or its batch does not fold.
fn prepare(
    x: &Array,
    full: &[usize],
    ok: impl Fn(usize, usize, i64, i64) -> bool,
) -> Result<Prepared> {
    let nb = full.len() - 2;
    let (rows, cols) = (full[nb], full[nb + 1]);
    let try_view = |v: &Array| -> Option<Prepared> {
        let st = elem_strides(v)?;
        let (rs, cs) = (st[nb], st[nb + 1]);
        if !ok(rows, cols, rs, cs) {
            return None;
        }
        let bs = fold_batch(&full[..nb], &st[..nb])?;
        Some(Prepared {
            _keep: v.clone(),
            ptr: v.data_ptr(),
            rs,
            cs,
            batch_stride: bs,
        })
    };
    let view = x.broadcast_to(full)?;
    if let Some(p) = try_view(&view) {
        return Ok(p);
    }
    // A C-ordered copy of the operand itself, broadcast again: its batch
    // may still not fold (a broadcast axis before a real one), in which
    // case the broadcast is materialized.
    let copy = x.copy()?;
    let view = copy.broadcast_to(full)?;
    if let Some(p) = try_view(&view) {
        return Ok(p);
    }
    let dense = view.copy()?;
    try_view(&dense).ok_or_else(|| unsupported("matmul: operand layout"))
}

/// NumPy's `matmul` (the `@` operator).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let m = matmul(&a, &a)?; // a @ a
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes as [`matmul_shape`]; operands on different devices; cuBLAS or
/// launch failures.
pub fn matmul(a: &Array, b: &Array) -> Result<Array> {
    a.check_same_device(b, "matmul")?;
    let sh = matmul_shape(a.shape(), b.shape())?;
    let dtype = promote_types(a.dtype(), b.dtype());
    let out = Array::empty_on(a.device(), &sh.out, dtype, gpu_array::Order::C)?;
    compute(a, b, &sh, &out)?;
    Ok(out)
}

/// `matmul` writing into `out` (NumPy's `out=`): `out` must have the
/// result's shape, and the result's dtype must cast to `out`'s by
/// `same_kind`.
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (a, b) = (ones([2, 3], gpu_array::DType::Float32)?, ones([3, 4], gpu_array::DType::Float32)?);
/// let out = empty([2, 4], gpu_array::DType::Float32)?;
/// matmul_into(&a, &b, &out)?; // np.matmul(a, b, out=out): every element 3
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`matmul`]; `out` of the wrong shape or dtype.
pub fn matmul_into(a: &Array, b: &Array, out: &Array) -> Result<()> {
    a.check_same_device(b, "matmul")?;
    a.check_same_device(out, "matmul")?;
    let sh = matmul_shape(a.shape(), b.shape())?;
    if out.shape() != sh.out.as_slice() {
        return Err(shape(format!(
            "matmul: Output operand 0 has a mismatch in its core dimension 0, with gufunc signature {SIGNATURE} (shape {} is different from {})",
            gpu_array::layout::fmt_shape(out.shape()),
            gpu_array::layout::fmt_shape(&sh.out)
        )));
    }
    let dtype = promote_types(a.dtype(), b.dtype());
    gpu_array::dtype::check_cast(dtype, out.dtype(), Casting::SameKind)?;
    let direct = out.dtype() == dtype
        && out.is_c_contiguous()
        && !out.shares_memory_with(a)
        && !out.shares_memory_with(b);
    if direct {
        return compute(a, b, &sh, out);
    }
    let tmp = Array::empty_on(a.device(), &sh.out, dtype, gpu_array::Order::C)?;
    compute(a, b, &sh, &tmp)?;
    gpu_array::array::copyto(out, &tmp, Casting::SameKind, None)?;
    Ok(())
}

/// Fills the C-contiguous `out` (of the result's shape and `dtype`) with
/// `a @ b`.
fn compute(a: &Array, b: &Array, sh: &MatmulShape, out: &Array) -> Result<()> {
    let dtype = out.dtype();
    if out.size() == 0 {
        return Ok(());
    }
    if sh.k == 0 {
        out.fill(0)?;
        return Ok(());
    }
    let cast = |x: &Array| -> Result<Array> {
        Ok(if x.dtype() == dtype {
            x.clone()
        } else {
            x.astype(dtype)?
        })
    };
    let (a, b) = (cast(a)?, cast(b)?);
    // 1-D operands as a row and a column.
    let a2 = if a.ndim() == 1 {
        a.reshape([1, -1])?
    } else {
        a
    };
    let b2 = if b.ndim() == 1 {
        b.reshape([-1, 1])?
    } else {
        b
    };
    let mut fa = sh.batch.clone();
    fa.extend([sh.m, sh.k]);
    let mut fb = sh.batch.clone();
    fb.extend([sh.k, sh.n]);
    let batch: usize = sh.batch.iter().product();
    let (m, n, k) = (sh.m as i64, sh.n as i64, sh.k as i64);
    let stream = out.stream();
    if matches!(
        dtype,
        DType::Float16
            | DType::BFloat16
            | DType::Float32
            | DType::Float64
            | DType::Complex64
            | DType::Complex128
    ) {
        let blas_ok = |r: usize, c: usize, rs: i64, cs: i64| mat_layout(r, c, rs, cs).is_some();
        let pa = prepare(&a2, &fa, blas_ok)?;
        let pb = prepare(&b2, &fb, blas_ok)?;
        let op = |p: &Prepared, rows: usize, cols: usize| -> GemmOperand {
            match mat_layout(rows, cols, p.rs, p.cs).expect("checked by prepare") {
                // C order: cuBLAS sees the transpose, stored as is.
                MatLayout::Row(ld) => GemmOperand {
                    ptr: p.ptr,
                    trans: false,
                    ld,
                    batch_stride: p.batch_stride,
                },
                MatLayout::Col(ld) => GemmOperand {
                    ptr: p.ptr,
                    trans: true,
                    ld,
                    batch_stride: p.batch_stride,
                },
            }
        };
        // Column-major C^T (n x m) = B^T (n x k) A^T (k x m).
        let first = op(&pb, sh.k, sh.n);
        let second = op(&pa, sh.m, sh.k);
        gemm(
            &stream,
            dtype,
            (n, m, k),
            first,
            second,
            out.data_ptr(),
            n,
            m * n,
            batch as i64,
        )
    } else {
        let any = |_: usize, _: usize, _: i64, _: i64| true;
        let pa = prepare(&a2, &fa, any)?;
        let pb = prepare(&b2, &fb, any)?;
        launch_imatmul(
            &stream,
            dtype,
            (m, n, k),
            batch as i64,
            IntOperand {
                ptr: pa.ptr,
                batch: pa.batch_stride,
                row: pa.rs,
                col: pa.cs,
            },
            IntOperand {
                ptr: pb.ptr,
                batch: pb.batch_stride,
                row: pb.rs,
                col: pb.cs,
            },
            out,
        )
    }
}

/// The `@` operator as a method: `a.matmul(&b)?` (Rust has no `@`).
pub trait MatmulExt {
    /// NumPy's `a @ b`; see [`matmul`].
    ///
    /// # Errors
    /// As [`matmul`].
    fn matmul(&self, other: &Array) -> Result<Array>;

    /// NumPy's `a.dot(b)`; see [`super::dot`].
    ///
    /// # Errors
    /// As [`super::dot`].
    fn dot(&self, other: &Array) -> Result<Array>;
}

impl MatmulExt for Array {
    fn matmul(&self, other: &Array) -> Result<Array> {
        matmul(self, other)
    }

    fn dot(&self, other: &Array) -> Result<Array> {
        super::dot(self, other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_numpy() {
        let s = matmul_shape(&[2, 3], &[3, 4]).unwrap();
        assert_eq!((s.m, s.n, s.k), (2, 4, 3));
        assert_eq!(s.out, vec![2, 4]);
        assert_eq!(matmul_shape(&[3], &[3]).unwrap().out, Vec::<usize>::new());
        assert_eq!(matmul_shape(&[3], &[3, 4]).unwrap().out, vec![4]);
        assert_eq!(matmul_shape(&[2, 3], &[3]).unwrap().out, vec![2]);
        assert_eq!(
            matmul_shape(&[5, 1, 2, 3], &[4, 3, 7]).unwrap().out,
            vec![5, 4, 2, 7]
        );
        assert_eq!(matmul_shape(&[3], &[6, 3, 2]).unwrap().out, vec![6, 2]);
        assert_eq!(
            matmul_shape(&[2, 3], &[4, 5]).unwrap_err().to_string(),
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)"
        );
        assert!(
            matmul_shape(&[], &[3])
                .unwrap_err()
                .to_string()
                .contains("Input operand 0 does not have enough dimensions")
        );
        assert!(matmul_shape(&[2, 2, 3], &[3, 3, 2]).is_err());
    }

    #[test]
    fn layouts_for_cublas() {
        // C order 4x3 with padding, Fortran order, a row, a column.
        assert_eq!(mat_layout(4, 3, 5, 1), Some(MatLayout::Row(5)));
        assert_eq!(mat_layout(4, 3, 1, 4), Some(MatLayout::Col(4)));
        assert_eq!(mat_layout(1, 3, 0, 1), Some(MatLayout::Row(3)));
        assert_eq!(mat_layout(4, 1, 1, 0), Some(MatLayout::Row(1)));
        assert_eq!(mat_layout(1, 3, 7, 2), Some(MatLayout::Col(2)));
        // Strided both ways, broadcast, negative, overlapping rows.
        assert_eq!(mat_layout(4, 3, 6, 2), None);
        assert_eq!(mat_layout(4, 3, 0, 1), None);
        assert_eq!(mat_layout(4, 3, -3, 1), None);
        assert_eq!(mat_layout(4, 3, 2, 1), None);
    }

    #[test]
    fn batches_fold() {
        assert_eq!(fold_batch(&[2, 3], &[36, 12]), Some(12));
        assert_eq!(fold_batch(&[2, 3], &[0, 0]), Some(0));
        assert_eq!(fold_batch(&[2, 1, 3], &[36, 99, 12]), Some(12));
        assert_eq!(fold_batch(&[2, 3], &[0, 12]), None);
        assert_eq!(fold_batch(&[2, 3], &[12, 0]), None);
        assert_eq!(fold_batch(&[], &[]), Some(0));
        assert_eq!(fold_batch(&[4], &[-5]), None);
    }
}
