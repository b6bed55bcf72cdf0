//! The direct convolutions: one output element a thread, a sum over the
//! kernel's elements (`kernels/convolve.cuh`), through gpu-array's
//! elementwise engine (raw operands of any layout, the result's dtype
//! bound from its array).

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::{Array, DType, Error, Result};

/// The device header of the direct convolutions.
pub(crate) const CONVOLVE_CUH: &str = include_str!("../kernels/convolve.cuh");

/// The most dimensions the kernel indexes (its local arrays).
pub(crate) const MAXDIM: usize = 16;

/// The type the sums run in: the result's, float for the 16-bit floats
/// (NumPy's dot loops).
fn accumulator(dt: DType) -> &'static str {
    match dt {
        DType::Float16 | DType::BFloat16 => "float",
        d => d.c_type(),
    }
}

/// The N-D direct convolution of `a` and `b` (any layouts) into `y` (a
/// C-contiguous array of the result's dtype and shape `out_shape`), the
/// output starting at `offset` in the full convolution.
pub(crate) fn convolve_kernel<'a>(
    a: Bind<'a>,
    b: Bind<'a>,
    y: Bind<'a>,
    geom: Bind<'a>,
    nd: usize,
) -> Elementwise<'a> {
    let acc = accumulator(y.dtype());
    Elementwise::new("cuprum_signal_convolve")
        .raw("a", a)
        .raw("b", b)
        .raw("g", geom)
        .scalar("nd", DType::Int32, nd as i32)
        .output("y", y)
        .op(format!(
            "y = cuprum::cast<y_type>(cuprum_sig::convolve<{acc}>(a, b, &g[0], nd, (long long)i));"
        ))
        .preamble(CONVOLVE_CUH)
}

/// `a` (of `nd` dims) convolved with `b` over the window `out_shape`
/// at `offset` of the full result, in `dt`.
pub(crate) fn convolve_direct(
    a: &Array,
    b: &Array,
    out_shape: &[usize],
    offset: &[usize],
    dt: DType,
) -> Result<Array> {
    let nd = a.ndim();
    if nd == 0 || nd > MAXDIM || b.ndim() != nd || out_shape.len() != nd || offset.len() != nd {
        return Err(Error::Unsupported(format!(
            "direct convolution of {nd} dimensions (1 to {MAXDIM})"
        )));
    }
    let y = Array::empty(out_shape.to_vec(), dt)?;
    if y.size() == 0 {
        return Ok(y);
    }
    let as_i64 = |v: &[usize]| v.iter().map(|&x| x as i64).collect::<Vec<i64>>();
    let mut g = as_i64(a.shape());
    g.extend(as_i64(b.shape()));
    g.extend(as_i64(out_shape));
    g.extend(as_i64(offset));
    let geom = Array::from_slice(&g, &[g.len()])?;
    convolve_kernel(a.into(), b.into(), (&y).into(), (&geom).into(), nd).launch(out_shape)?;
    Ok(y)
}
