//! Matrix and vector products (NumPy's "Matrix and vector products"):
//! `matmul` on cuBLAS and the products built on it by transposes and
//! reshapes (`dot`, `inner`, `tensordot`, `einsum`), the elementwise ones
//! (`outer`, `kron`, `cross`) on gpu-array's ufuncs, and `trace` as a
//! reduction of a strided diagonal view.

mod einsum;
mod matmul;

pub use einsum::{EinsumSpec, einsum, parse_einsum};
pub use matmul::{MatmulExt, MatmulShape, matmul, matmul_into, matmul_shape};

use gpu_array::math::sum;
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, AxisIndex, DType, ufunc};

use crate::error::{Error, Result, shape, value};

/// The `axes` argument of [`tensordot`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Axes {
    /// `axes=N`: the last `N` axes of `a` with the first `N` of `b`.
    N(usize),
    /// `axes=(a_axes, b_axes)`: paired axes, summed over.
    Pairs(Vec<isize>, Vec<isize>),
}

fn norm_axis(axis: isize, ndim: usize) -> Result<usize> {
    let n = ndim as isize;
    let a = if axis < 0 { axis + n } else { axis };
    if a < 0 || a >= n {
        return Err(gpu_array::Error::AxisOutOfBounds {
            arg: None,
            axis,
            ndim,
        });
    }
    Ok(a as usize)
}

/// The plan of a [`tensordot`]: the summed axes of each operand (in
/// pairing order) and the free axes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensordotPlan {
    /// Summed axes of `a`.
    pub a_sum: Vec<usize>,
    /// Summed axes of `b`, paired with `a_sum`.
    pub b_sum: Vec<usize>,
    /// Free axes of `a`, in order.
    pub a_free: Vec<usize>,
    /// Free axes of `b`, in order.
    pub b_free: Vec<usize>,
    /// The result's shape.
    pub out: Vec<usize>,
}

/// NumPy's checks and axis bookkeeping of `tensordot`.
///
/// ```
/// use gpu_linalg::Axes;
/// use gpu_linalg::products::tensordot_plan;
/// let p = tensordot_plan(&[2, 3, 4], &[3, 4, 5], &Axes::N(2))?;
/// assert_eq!((p.a_sum, p.b_sum, p.out), (vec![1, 2], vec![0, 1], vec![2, 5]));
/// assert!(tensordot_plan(&[2, 3], &[4, 5], &Axes::N(1)).is_err()); // 3 against 4
/// # Ok::<(), gpu_linalg::Error>(())
/// ```
///
/// # Errors
/// Axis counts that differ, axes out of range or repeated, or paired axes
/// of different lengths ("shape-mismatch for sum").
pub fn tensordot_plan(a: &[usize], b: &[usize], axes: &Axes) -> Result<TensordotPlan> {
    let (xa, xb): (Vec<isize>, Vec<isize>) = match axes {
        Axes::N(n) => {
            let n = *n;
            if n > a.len() || n > b.len() {
                return Err(shape("shape-mismatch for sum"));
            }
            (
                ((a.len() - n)..a.len()).map(|i| i as isize).collect(),
                (0..n).map(|i| i as isize).collect(),
            )
        }
        Axes::Pairs(x, y) => (x.clone(), y.clone()),
    };
    if xa.len() != xb.len() {
        return Err(shape("shape-mismatch for sum"));
    }
    let a_sum = xa
        .iter()
        .map(|&x| norm_axis(x, a.len()))
        .collect::<Result<Vec<_>>>()?;
    let b_sum = xb
        .iter()
        .map(|&x| norm_axis(x, b.len()))
        .collect::<Result<Vec<_>>>()?;
    for s in [&a_sum, &b_sum] {
        let mut seen = s.clone();
        seen.sort_unstable();
        seen.dedup();
        if seen.len() != s.len() {
            return Err(gpu_array::Error::Axis("repeated axis".into()));
        }
    }
    for (&i, &j) in a_sum.iter().zip(&b_sum) {
        if a[i] != b[j] {
            return Err(shape("shape-mismatch for sum"));
        }
    }
    let a_free: Vec<usize> = (0..a.len()).filter(|i| !a_sum.contains(i)).collect();
    let b_free: Vec<usize> = (0..b.len()).filter(|i| !b_sum.contains(i)).collect();
    let out = a_free
        .iter()
        .map(|&i| a[i])
        .chain(b_free.iter().map(|&i| b[i]))
        .collect();
    Ok(TensordotPlan {
        a_sum,
        b_sum,
        a_free,
        b_free,
        out,
    })
}

fn as_isize(v: &[usize]) -> Vec<isize> {
    v.iter().map(|&x| x as isize).collect()
}

/// NumPy's `tensordot`: sums products over the paired axes, by a
/// transpose and reshape of each operand into a matrix and one GEMM.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let t = tensordot(&a, &a, Axes::N(1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`tensordot_plan`]; as [`matmul`].
pub fn tensordot(a: &Array, b: &Array, axes: Axes) -> Result<Array> {
    let p = tensordot_plan(a.shape(), b.shape(), &axes)?;
    let m: usize = p.a_free.iter().map(|&i| a.shape()[i]).product();
    let n: usize = p.b_free.iter().map(|&i| b.shape()[i]).product();
    let k: usize = p.a_sum.iter().map(|&i| a.shape()[i]).product();
    let perm_a: Vec<usize> = p.a_free.iter().chain(&p.a_sum).copied().collect();
    let perm_b: Vec<usize> = p.b_sum.iter().chain(&p.b_free).copied().collect();
    let at = a
        .transpose(Some(&as_isize(&perm_a)))?
        .reshape([m as isize, k as isize])?;
    let bt = b
        .transpose(Some(&as_isize(&perm_b)))?
        .reshape([k as isize, n as isize])?;
    let c = matmul(&at, &bt)?;
    c.reshape(as_isize(&p.out))
}

/// NumPy's `dot`: products of scalars, inner products of vectors, matrix
/// products, and for N-d operands the sum over the last axis of `a` and
/// the second-to-last of `b`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let d = dot(&a, &a)?; // a @ a for 2-D
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes not aligned (NumPy's message); as [`matmul`].
pub fn dot(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return ufunc::multiply(a, b);
    }
    let ka = a.shape()[a.ndim() - 1];
    let bi = if b.ndim() == 1 { 0 } else { b.ndim() - 2 };
    let kb = b.shape()[bi];
    if ka != kb {
        return Err(value(format!(
            "shapes {} and {} not aligned: {ka} (dim {}) != {kb} (dim {bi})",
            gpu_array::layout::fmt_shape(a.shape()),
            gpu_array::layout::fmt_shape(b.shape()),
            a.ndim() - 1
        )));
    }
    if a.ndim() <= 2 && b.ndim() <= 2 || b.ndim() == 1 || a.ndim() == 1 {
        return matmul(a, b);
    }
    tensordot(
        a,
        b,
        Axes::Pairs(vec![a.ndim() as isize - 1], vec![b.ndim() as isize - 2]),
    )
}

/// NumPy's `vdot`: the dot product of the flattened operands, the first
/// conjugated.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let v = vdot(&a, &a)?; // sum of a * a, flattened
/// # Ok(()) }
/// ```
///
/// # Errors
/// Operands of different sizes; as [`matmul`].
pub fn vdot(a: &Array, b: &Array) -> Result<Array> {
    if a.size() != b.size() {
        return Err(value(format!(
            "vdot: vectors have different lengths ({} and {})",
            a.size(),
            b.size()
        )));
    }
    let fa = a.ravel()?;
    let fa = if fa.dtype().is_complex() {
        ufunc::conj(&fa)?
    } else {
        fa
    };
    matmul(&fa, &b.ravel()?)
}

/// NumPy's `inner`: sums over the last axes of both operands.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let i = inner(&a, &a)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Last axes of different lengths; as [`matmul`].
pub fn inner(a: &Array, b: &Array) -> Result<Array> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return ufunc::multiply(a, b);
    }
    let (ka, kb) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    if ka != kb {
        return Err(value(format!(
            "shapes {} and {} not aligned: {ka} (dim {}) != {kb} (dim {})",
            gpu_array::layout::fmt_shape(a.shape()),
            gpu_array::layout::fmt_shape(b.shape()),
            a.ndim() - 1,
            b.ndim() - 1
        )));
    }
    tensordot(a, b, Axes::Pairs(vec![-1], vec![-1]))
}

/// NumPy's `outer`: `out[i, j] = a.ravel()[i] * b.ravel()[j]`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let o = outer(&array([1.0, 2.0])?, &array([3.0, 4.0, 5.0])?)?; // (2, 3)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As the `multiply` ufunc.
pub fn outer(a: &Array, b: &Array) -> Result<Array> {
    let col = a.ravel()?.reshape([-1, 1])?;
    let row = b.ravel()?.reshape([1, -1])?;
    ufunc::multiply(&col, &row)
}

/// NumPy's `kron`: the Kronecker product, blocks of `b` scaled by the
/// elements of `a` (operands of different ndim get leading ones).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let k = kron(&a, &a)?; // (4, 4)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As the `multiply` ufunc.
pub fn kron(a: &Array, b: &Array) -> Result<Array> {
    let nd = a.ndim().max(b.ndim());
    let pad = |x: &Array| -> Vec<usize> {
        let mut s = vec![1; nd - x.ndim()];
        s.extend_from_slice(x.shape());
        s
    };
    let (sa, sb) = (pad(a), pad(b));
    // a as (a0, 1, a1, 1, ...), b as (1, b0, 1, b1, ...).
    let ea: Vec<isize> = sa.iter().flat_map(|&d| [d as isize, 1]).collect();
    let eb: Vec<isize> = sb.iter().flat_map(|&d| [1, d as isize]).collect();
    let prod = ufunc::multiply(&a.reshape(&ea)?, &b.reshape(&eb)?)?;
    let out: Vec<isize> = sa
        .iter()
        .zip(&sb)
        .map(|(&x, &y)| (x * y) as isize)
        .collect();
    prod.reshape(&out)
}

/// NumPy's `diagonal(a, offset, axis1, axis2)`: a strided view (no copy)
/// with the diagonal as the last axis.
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = arange(8)?.reshape((2, 2, 2))?;
/// let d = diagonal(&a, 0, 1, 2)?; // np.diagonal(a, 0, 1, 2): [[0, 3], [4, 7]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Axes out of range or equal; fewer than two dimensions.
pub fn diagonal(a: &Array, offset: isize, axis1: isize, axis2: isize) -> Result<Array> {
    if a.ndim() < 2 {
        return Err(value("diag requires an array of at least two dimensions"));
    }
    let (x1, x2) = (norm_axis(axis1, a.ndim())?, norm_axis(axis2, a.ndim())?);
    if x1 == x2 {
        return Err(value("axis1 and axis2 cannot be the same"));
    }
    let moved = a.moveaxis(&[x1 as isize, x2 as isize], &[-2, -1])?;
    let nd = moved.ndim();
    let (r, c) = (moved.shape()[nd - 2], moved.shape()[nd - 1]);
    let mut idx = vec![AxisIndex::Ellipsis];
    let (len, start_r, start_c) = if offset >= 0 {
        let o = offset as usize;
        (r.min(c.saturating_sub(o)), 0, o.min(c))
    } else {
        let o = offset.unsigned_abs();
        (c.min(r.saturating_sub(o)), o.min(r), 0)
    };
    idx.push(AxisIndex::Slice {
        start: Some(start_r as isize),
        stop: None,
        step: 1,
    });
    idx.push(AxisIndex::Slice {
        start: Some(start_c as isize),
        stop: None,
        step: 1,
    });
    let v = moved.slice(&idx)?;
    let st = v.strides();
    let mut shp = v.shape()[..nd - 2].to_vec();
    shp.push(len);
    let mut strides = st[..nd - 2].to_vec();
    strides.push(st[nd - 2] + st[nd - 1]);
    v.as_strided(&shp, &strides)
}

/// NumPy's `trace`: the sum along a diagonal (`dtype` as `sum`'s: integers
/// accumulate in the platform integer).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let t = trace(&a, 0, 0, 1, None)?; // 7
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`diagonal`].
pub fn trace(
    a: &Array,
    offset: isize,
    axis1: isize,
    axis2: isize,
    dtype: Option<DType>,
) -> Result<Array> {
    let d = diagonal(a, offset, axis1, axis2)?;
    let mut o = ReduceOptions::axis(-1);
    o.dtype = dtype;
    sum(&d, &o)
}

/// NumPy's axes of [`cross_with`]: `axisa`, `axisb` (where the vectors
/// lie in each operand), `axisc` (where the result's vectors go), all -1
/// by default, and `axis`, which when set stands for all three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CrossOptions {
    /// The vectors' axis in `a`.
    pub axisa: isize,
    /// The vectors' axis in `b`.
    pub axisb: isize,
    /// The result vectors' axis (unused when both operands hold
    /// 2-vectors, whose products are scalars).
    pub axisc: isize,
    /// All three at once (NumPy's `axis`, which overrides them).
    pub axis: Option<isize>,
}

impl Default for CrossOptions {
    fn default() -> CrossOptions {
        CrossOptions {
            axisa: -1,
            axisb: -1,
            axisc: -1,
            axis: None,
        }
    }
}

impl CrossOptions {
    /// Sets `axisa`.
    ///
    /// ```
    /// use gpu_linalg::CrossOptions;
    /// assert_eq!(CrossOptions::default().axisa(0).axisa, 0);
    /// ```
    #[must_use]
    pub fn axisa(mut self, axisa: isize) -> CrossOptions {
        self.axisa = axisa;
        self
    }

    /// Sets `axisb`.
    ///
    /// ```
    /// use gpu_linalg::CrossOptions;
    /// assert_eq!(CrossOptions::default().axisb(0).axisb, 0);
    /// ```
    #[must_use]
    pub fn axisb(mut self, axisb: isize) -> CrossOptions {
        self.axisb = axisb;
        self
    }

    /// Sets `axisc`.
    ///
    /// ```
    /// use gpu_linalg::CrossOptions;
    /// assert_eq!(CrossOptions::default().axisc(0).axisc, 0);
    /// ```
    #[must_use]
    pub fn axisc(mut self, axisc: isize) -> CrossOptions {
        self.axisc = axisc;
        self
    }

    /// Sets `axis` (`None`: `axisa`, `axisb` and `axisc` count).
    ///
    /// ```
    /// use gpu_linalg::CrossOptions;
    /// let o = CrossOptions::default().axis(0); // overrides axisa, axisb and axisc
    /// assert_eq!(o.axis, Some(0));
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: impl Into<Option<isize>>) -> CrossOptions {
        self.axis = axis.into();
        self
    }
}

/// `axis` of an array of `ndim` dimensions, NumPy's error prefixed with
/// the argument's name ("axisa: axis 2 is out of bounds ...").
fn named_axis(axis: isize, ndim: usize, arg: &'static str) -> Result<usize> {
    norm_axis(axis, ndim).map_err(|_| gpu_array::Error::AxisOutOfBounds {
        arg: Some(arg),
        axis,
        ndim,
    })
}

/// NumPy's `cross` along `axis` of both operands (vectors of 2 or 3
/// components; a 2-component vector has a zero third component, and two
/// 2-component vectors give the scalar z component, as NumPy).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (a, b) = (array([1.0, 0.0, 0.0])?, array([0.0, 1.0, 0.0])?);
/// let c = cross(&a, &b, -1)?; // np.cross(a, b): [0, 0, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Vectors of another length ("incompatible dimensions for cross product
/// (dimension must be 2 or 3)"); shapes that do not broadcast.
pub fn cross(a: &Array, b: &Array, axis: isize) -> Result<Array> {
    cross_with(a, b, &CrossOptions::default().axis(axis))
}

/// NumPy's `cross(a, b, axisa, axisb, axisc, axis)` ([`CrossOptions`]).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])?; // vectors in columns
/// let b = array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])?;
/// let c = cross_with(&a, &b, &CrossOptions::default().axis(0))?; // np.cross(a, b, axis=0): [[0, 1], [0, 0], [1, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cross`]; "At least one array has zero dimension"; an axis out of
/// bounds, named as NumPy names it ("axisa: axis 3 is out of bounds for
/// array of dimension 2").
pub fn cross_with(a: &Array, b: &Array, opts: &CrossOptions) -> Result<Array> {
    let (axisa, axisb, axisc) = match opts.axis {
        Some(x) => (x, x, x),
        None => (opts.axisa, opts.axisb, opts.axisc),
    };
    if a.ndim() < 1 || b.ndim() < 1 {
        return Err(value("At least one array has zero dimension"));
    }
    let xa = named_axis(axisa, a.ndim(), "axisa")?;
    let xb = named_axis(axisb, b.ndim(), "axisb")?;
    let a = a.moveaxis(&[xa as isize], &[-1])?;
    let b = b.moveaxis(&[xb as isize], &[-1])?;
    let (na, nb) = (a.shape()[a.ndim() - 1], b.shape()[b.ndim() - 1]);
    for n in [na, nb] {
        if n != 2 && n != 3 {
            return Err(value(
                "incompatible dimensions for cross product\n(dimension must be 2 or 3)",
            ));
        }
    }
    let comp = |x: &Array, i: isize| -> Result<Array> {
        x.slice(&[AxisIndex::Ellipsis, AxisIndex::Index(i)])
    };
    let (a0, a1) = (comp(&a, 0)?, comp(&a, 1)?);
    let (b0, b1) = (comp(&b, 0)?, comp(&b, 1)?);
    let cz = ufunc::subtract(&ufunc::multiply(&a0, &b1)?, &ufunc::multiply(&a1, &b0)?)?;
    if na == 2 && nb == 2 {
        return Ok(cz);
    }
    let (cx, cy) = match (na, nb) {
        (3, 3) => {
            let (a2, b2) = (comp(&a, 2)?, comp(&b, 2)?);
            (
                ufunc::subtract(&ufunc::multiply(&a1, &b2)?, &ufunc::multiply(&a2, &b1)?)?,
                ufunc::subtract(&ufunc::multiply(&a2, &b0)?, &ufunc::multiply(&a0, &b2)?)?,
            )
        }
        (2, 3) => {
            let b2 = comp(&b, 2)?;
            (
                ufunc::multiply(&a1, &b2)?,
                ufunc::negative(&ufunc::multiply(&a0, &b2)?)?,
            )
        }
        _ => {
            let a2 = comp(&a, 2)?;
            (
                ufunc::negative(&ufunc::multiply(&a2, &b1)?)?,
                ufunc::multiply(&a2, &b0)?,
            )
        }
    };
    // Stack the components along a new last axis, then move it to `axis`
    // of the result (NumPy's `axisc` defaults to `axis`).
    let mut shp = cz.shape().to_vec();
    shp.push(3);
    let out = Array::empty_on(cz.device(), &shp, cz.dtype(), gpu_array::Order::C)?;
    for (i, c) in [cx, cy, cz].iter().enumerate() {
        let dst = out.slice(&[AxisIndex::Ellipsis, AxisIndex::Index(i as isize)])?;
        gpu_array::array::copyto(&dst, c, gpu_array::dtype::Casting::SameKind, None)?;
    }
    let xc = named_axis(axisc, out.ndim(), "axisc")?;
    out.moveaxis(&[-1], &[xc as isize])
}

/// NumPy's `linalg.matrix_power`: `a` multiplied by itself `n` times by
/// repeated squaring; `n = 0` gives the identity, negative `n` the
/// power of the inverse.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let a3 = matrix_power(&a, 3)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Non-square input; singular input for negative `n` under the raise
/// setting; as [`matmul`].
pub fn matrix_power(a: &Array, n: i64) -> Result<Array> {
    crate::util::assert_stacked_square(a)?;
    let nd = a.ndim();
    let size = a.shape()[nd - 1];
    if n == 0 {
        let eye = gpu_array::creation::eye(size, None, 0, a.dtype())?;
        return eye.broadcast_to(a.shape())?.copy();
    }
    let base = if n < 0 {
        crate::decomp::inv(a)?
    } else {
        a.clone()
    };
    let mut e = n.unsigned_abs();
    if e == 1 {
        return base.copy();
    }
    let mut result: Option<Array> = None;
    let mut z = base;
    loop {
        if e & 1 == 1 {
            result = Some(match result {
                None => z.clone(),
                Some(r) => matmul(&r, &z)?,
            });
        }
        e >>= 1;
        if e == 0 {
            break;
        }
        z = matmul(&z, &z)?;
    }
    Ok(result.expect("n != 0"))
}

/// NumPy 2's `linalg.vecdot(x1, x2, axis)`: `sum(conj(x1) * x2)` along
/// `axis` of the broadcast operands.
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (a, b) = (array([[1.0, 2.0], [3.0, 4.0]])?, array([1.0, 1.0])?);
/// let d = vecdot(&a, &b, -1)?; // np.vecdot(a, b): [3, 7]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes that do not broadcast; the axis out of range; lengths that
/// differ along it.
pub fn vecdot(x1: &Array, x2: &Array, axis: isize) -> Result<Array> {
    let a = if x1.dtype().is_complex() {
        ufunc::conj(x1)?
    } else {
        x1.clone()
    };
    let p = ufunc::multiply(&a, x2)?;
    let ax = norm_axis(axis, p.ndim())?;
    let (la, lb) = (
        x1.shape().get(x1.ndim().wrapping_sub(p.ndim() - ax)),
        x2.shape().get(x2.ndim().wrapping_sub(p.ndim() - ax)),
    );
    if let (Some(&la), Some(&lb)) = (la, lb)
        && la != lb
    {
        return Err(value(format!(
            "vecdot: the operands' lengths along axis {axis} differ ({la} and {lb})"
        )));
    }
    // The operands' dtype, as NumPy's gufunc (sum alone would widen
    // small integers).
    let mut o = ReduceOptions::axis(ax as isize);
    o.dtype = Some(p.dtype());
    sum(&p, &o)
}

/// NumPy 2's `linalg.matrix_transpose`: the last two axes swapped (a view).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let x = zeros([4, 2, 3], gpu_array::DType::Float32)?;
/// let t = matrix_transpose(&x)?; // np.matrix_transpose(x): shape (4, 3, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two dimensions.
pub fn matrix_transpose(x: &Array) -> Result<Array> {
    if x.ndim() < 2 {
        return Err(value(format!(
            "Input array must be at least 2-dimensional, but it is {}",
            x.ndim()
        )));
    }
    x.swapaxes(-1, -2)
}

/// The cheapest parenthesization of a matrix chain with dimensions
/// `dims` (`k + 1` numbers for `k` matrices): `split[i][j]` is where the
/// product of matrices `i..=j` splits (the textbook dynamic program).
///
/// ```
/// use gpu_linalg::products::chain_order;
/// // (10x100)(100x5)(5x50): multiplying the first two first is cheapest.
/// let split = chain_order(&[10, 100, 5, 50]);
/// assert_eq!(split[0][2], 1);
/// ```
pub fn chain_order(dims: &[usize]) -> Vec<Vec<usize>> {
    let k = dims.len() - 1;
    let mut cost = vec![vec![0u128; k]; k];
    let mut split = vec![vec![0usize; k]; k];
    for len in 1..k {
        for i in 0..k - len {
            let j = i + len;
            cost[i][j] = u128::MAX;
            for s in i..j {
                let c = cost[i][s]
                    + cost[s + 1][j]
                    + dims[i] as u128 * dims[s + 1] as u128 * dims[j + 1] as u128;
                if c < cost[i][j] {
                    cost[i][j] = c;
                    split[i][j] = s;
                }
            }
        }
    }
    split
}

/// NumPy's `linalg.multi_dot`: the product of a chain of matrices in the
/// cheapest order; the first may be 1-D (a row) and the last 1-D (a
/// column), their axes dropped from the result as `dot` drops them.
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let f64_ = gpu_array::DType::Float64;
/// let (a, b, c) = (ones([10, 100], f64_)?, ones([100, 5], f64_)?, ones([5, 50], f64_)?);
/// let abc = multi_dot(&[&a, &b, &c])?; // np.linalg.multi_dot([a, b, c]): (a @ b) @ c, shape (10, 50)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Fewer than two arrays; inner operands that are not 2-D; shapes not
/// aligned.
pub fn multi_dot(arrays: &[&Array]) -> Result<Array> {
    let n = arrays.len();
    if n < 2 {
        return Err(value("Expecting at least two arrays."));
    }
    if n == 2 {
        return dot(arrays[0], arrays[1]);
    }
    let first_1d = arrays[0].ndim() == 1;
    let last_1d = arrays[n - 1].ndim() == 1;
    let mut mats: Vec<Array> = Vec::with_capacity(n);
    for (i, a) in arrays.iter().enumerate() {
        let m = if i == 0 && first_1d {
            a.reshape([1, -1])?
        } else if i == n - 1 && last_1d {
            a.reshape([-1, 1])?
        } else {
            (*a).clone()
        };
        if m.ndim() != 2 {
            return Err(Error::LinAlg(format!(
                "{}-dimensional array given. Array must be two-dimensional",
                m.ndim()
            )));
        }
        mats.push(m);
    }
    let mut dims = vec![mats[0].shape()[0]];
    for (i, m) in mats.iter().enumerate() {
        if m.shape()[0] != *dims.last().expect("non-empty") {
            return Err(value(format!(
                "shapes {} and {} not aligned",
                gpu_array::layout::fmt_shape(mats[i - 1].shape()),
                gpu_array::layout::fmt_shape(m.shape())
            )));
        }
        dims.push(m.shape()[1]);
    }
    let split = chain_order(&dims);
    fn product(mats: &[Array], split: &[Vec<usize>], i: usize, j: usize) -> Result<Array> {
        if i == j {
            return Ok(mats[i].clone());
        }
        let s = split[i][j];
        matmul(
            &product(mats, split, i, s)?,
            &product(mats, split, s + 1, j)?,
        )
    }
    let r = product(&mats, &split, 0, n - 1)?;
    Ok(match (first_1d, last_1d) {
        (true, true) => r.reshape([])?,
        (true, false) => r.reshape([-1])?,
        (false, true) => r.reshape([-1])?,
        (false, false) => r,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cross_axes_are_named_in_errors() {
        let o = CrossOptions::default();
        assert_eq!((o.axisa, o.axisb, o.axisc, o.axis), (-1, -1, -1, None));
        assert_eq!(named_axis(-1, 2, "axisa").unwrap(), 1);
        assert_eq!(
            named_axis(2, 2, "axisb").unwrap_err().to_string(),
            "axisb: axis 2 is out of bounds for array of dimension 2"
        );
    }

    #[test]
    fn tensordot_plans() {
        let p =
            tensordot_plan(&[3, 4, 5], &[4, 3, 2], &Axes::Pairs(vec![1, 0], vec![0, 1])).unwrap();
        assert_eq!(p.a_sum, vec![1, 0]);
        assert_eq!(p.b_free, vec![2]);
        assert_eq!(p.out, vec![5, 2]);
        let p = tensordot_plan(&[2, 3, 4], &[3, 4, 5], &Axes::N(2)).unwrap();
        assert_eq!(p.out, vec![2, 5]);
        let p = tensordot_plan(&[2, 3], &[4], &Axes::N(0)).unwrap();
        assert_eq!(p.out, vec![2, 3, 4]);
        assert_eq!(
            tensordot_plan(&[2, 3], &[4, 5], &Axes::N(1))
                .unwrap_err()
                .to_string(),
            "shape-mismatch for sum"
        );
        assert!(tensordot_plan(&[2, 3], &[3, 5], &Axes::Pairs(vec![1, 1], vec![0, 0])).is_err());
        assert!(tensordot_plan(&[2, 3], &[3, 5], &Axes::Pairs(vec![5], vec![0])).is_err());
        assert!(tensordot_plan(&[2], &[2], &Axes::N(3)).is_err());
    }

    #[test]
    fn matrix_chain_order() {
        // 10x100, 100x5, 5x50: (AB)C costs 7500, A(BC) 75000.
        let s = chain_order(&[10, 100, 5, 50]);
        assert_eq!(s[0][2], 1);
        // 50x10, 10x40, 40x30, 30x5: the cheapest is A(B(CD)).
        let s = chain_order(&[50, 10, 40, 30, 5]);
        assert_eq!((s[0][3], s[1][3], s[2][3]), (0, 1, 2));
    }
}
