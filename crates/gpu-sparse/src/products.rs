//! Products of a sparse matrix with dense arrays through cuSPARSE: SpMV
//! (`A @ x`, `x` 1-D) and SpMM (`A @ B`, `B` 2-D), in the promoted dtype
//! of both operands; for the dtypes cuSPARSE does not take (bool, the
//! integers, the 16-bit floats), one elementwise kernel over the output
//! of a CSR matrix (`kernels/direct_mv.cuh`).

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::{Array, DType, Error, Result, creation};

use crate::CsrMatrix;
use crate::base::contiguous_as;
use crate::cusparse::{CompressedView, PlanCache, spgemm, value_type};

/// `A @ x` for the compressed matrix `m` (with its plan cache) and a dense
/// 1-D or 2-D `x`.
pub(crate) fn dense_product(m: CompressedView<'_>, plans: &PlanCache, x: &Array) -> Result<Array> {
    m.data.check_same_device(x, "sparse dot")?;
    let (rows, cols) = m.shape;
    if x.ndim() == 0 || x.ndim() > 2 || x.shape()[0] != cols {
        return Err(Error::Value("dimension mismatch".into()));
    }
    let dtype = gpu_array::dtype::promote_types(m.data.dtype(), x.dtype());
    value_type(dtype)?;
    let out_shape: Vec<usize> = if x.ndim() == 1 {
        vec![rows]
    } else {
        vec![rows, x.shape()[1]]
    };
    if m.data.size() == 0 || out_shape.iter().product::<usize>() == 0 || cols == 0 {
        return creation::zeros(out_shape, dtype);
    }
    let x = contiguous_as(x, dtype)?;
    let y = Array::empty(out_shape, dtype)?;
    if m.data.dtype() == dtype {
        plans.product(m, &x, &y)?;
    } else {
        // A cast of the values is a different matrix to cuSPARSE: its own
        // descriptor, not kept.
        let data = m.data.astype(dtype)?;
        let cast = CompressedView { data: &data, ..m };
        PlanCache::default().product(cast, &x, &y)?;
    }
    Ok(y)
}

/// `a @ b` for two CSR matrices, through cuSPARSE's SpGEMM in the promoted
/// dtype with int32 indices and duplicates summed.
pub(crate) fn sparse_product(a: &CsrMatrix, b: &CsrMatrix) -> Result<CsrMatrix> {
    a.data().check_same_device(b.data(), "sparse @ sparse")?;
    if a.shape().1 != b.shape().0 {
        return Err(Error::Value("dimension mismatch".into()));
    }
    let shape = (a.shape().0, b.shape().1);
    let dtype = gpu_array::dtype::promote_types(a.dtype(), b.dtype());
    value_type(dtype)?;
    if a.nnz() == 0 || b.nnz() == 0 {
        let index = crate::base::index_dtype(shape.0.max(shape.1));
        return Ok(CsrMatrix::from_parts(
            creation::zeros(0, dtype)?,
            creation::zeros(0, index)?,
            creation::zeros(shape.0 + 1, index)?,
            shape,
            true,
        ));
    }
    let prepare = |m: &CsrMatrix| -> Result<CsrMatrix> {
        let mut m = m.astype(dtype)?;
        m.sum_duplicates()?;
        if m.indices().dtype() != DType::Int32 {
            m = m.with_index_dtype(DType::Int32)?;
        }
        Ok(m)
    };
    let (a, b) = (prepare(a)?, prepare(b)?);
    let (data, indices, indptr) = spgemm(a.compressed_view(), b.compressed_view())?;
    Ok(CsrMatrix::from_parts(data, indices, indptr, shape, false))
}

/// Whether cuSPARSE's products take `dtype` (float32, float64,
/// complex64, complex128).
pub(crate) fn cusparse_takes(dtype: DType) -> bool {
    value_type(dtype).is_ok()
}

/// The direct product kernel: `y` (rows x ncol, C order) from the CSR
/// arrays and a C-contiguous `x` of `ncol` columns.
pub(crate) fn direct_kernel<'a>(parts: [Bind<'a>; 4], y: Bind<'a>, ncol: usize) -> Elementwise<'a> {
    let [d, ix, p, x] = parts;
    let acc = match y.dtype() {
        DType::Float16 | DType::BFloat16 => "float",
        other => other.c_type(),
    };
    Elementwise::new("cuprum_sparse_direct_mv")
        .raw("d", d)
        .raw("ix", ix)
        .raw("p", p)
        .raw("x", x)
        .scalar("ncol", DType::Int64, ncol as i64)
        .output("y", y)
        .op(format!(
            "y = cuprum::cast<y_type>(cuprum_sparse_mv::row<{acc}>(d, ix, p, x, (long long)i, ncol));"
        ))
        .preamble(include_str!("kernels/direct_mv.cuh"))
}

/// `A @ x` of a CSR matrix (`data`, `indices`, `indptr`, `shape`) and a
/// dense 1-D or 2-D `x` by [`direct_kernel`], in the promoted dtype: the
/// path of the dtypes cuSPARSE does not take.
pub(crate) fn direct_product(
    csr: (&Array, &Array, &Array),
    shape: (usize, usize),
    x: &Array,
) -> Result<Array> {
    let (data, indices, indptr) = csr;
    data.check_same_device(x, "sparse dot")?;
    let (rows, cols) = shape;
    if x.ndim() == 0 || x.ndim() > 2 || x.shape()[0] != cols {
        return Err(Error::Value("dimension mismatch".into()));
    }
    let dtype = gpu_array::dtype::promote_types(data.dtype(), x.dtype());
    let ncol = if x.ndim() == 1 { 1 } else { x.shape()[1] };
    let out_shape: Vec<usize> = if x.ndim() == 1 {
        vec![rows]
    } else {
        vec![rows, ncol]
    };
    if data.size() == 0 || rows == 0 || ncol == 0 || cols == 0 {
        return creation::zeros(out_shape, dtype);
    }
    let x = contiguous_as(x, dtype)?;
    let y = Array::empty(out_shape.clone(), dtype)?;
    // Launched over y's own shape: `i` is then y's C-order linear index,
    // row `i / ncol`, column `i % ncol`, as the kernel reads it.
    direct_kernel(
        [data.into(), indices.into(), indptr.into(), (&x).into()],
        (&y).into(),
        ncol,
    )
    .launch(&out_shape)?;
    Ok(y)
}
