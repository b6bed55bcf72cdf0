//! Polynomials: NumPy's legacy `poly1d` family (`polyval`, `polyadd`,
//! `polysub`, `polymul`, `polyder`, `polyint`, [`Poly1d`]; coefficients
//! highest power first) and `numpy.polynomial.polynomial` /
//! `numpy.polynomial.polyutils` (coefficients lowest power first).
//!
//! | NumPy / CuPy                                  | Cuprum                                              |
//! |-----------------------------------------------|-----------------------------------------------------|
//! | `np.polyval(p, x)`                            | [`polyval`]`(&p, &x)?`                              |
//! | `np.polyadd(a, b)`, `polysub`, `polymul`      | [`polyadd`]`(&a, &b)?`, [`polysub`], [`polymul`]    |
//! | `np.polyder(p, 2)`, `np.polyint(p, 1, k=[3])` | [`polyder`]`(&p, 2)?`, [`polyint`]`(&p, 1, &[3.0])?` |
//! | `np.poly1d([1, 2, 3])(x)`                     | [`Poly1d::new`]`(&c)?.call(&x)?`                    |
//! | `np.poly(roots)`, `np.poly1d(r, r=True)`      | [`poly`]`(&r)?`, [`Poly1d::from_roots`]`(&r)?`      |
//! | `np.polynomial.polynomial.polyvander(x, 3)`   | [`polynomial::polyvander`]`(&x, 3)?`                |
//! | `np.polynomial.polynomial.polyval(x, c)`      | [`polynomial::polyval`]`(&x, &c)?`                  |
//! | `np.polynomial.polynomial.polycompanion(c)`   | [`polynomial::polycompanion`]`(&c)?`                |
//! | `np.polynomial.polyutils.trimcoef(c, tol)`    | [`polyutils::trimcoef`]`(&c, tol)?`                 |
//!
//! `roots`, `polyfit` and `poly1d.roots` need eigenvalues and least
//! squares from the linear-algebra crate: they are `gpu_linalg::roots`,
//! `gpu_linalg::polyfit` and the extension trait `gpu_linalg::Poly1dExt`
//! (re-exported as `cuprum::roots`, `cuprum::polyfit`).

mod legacy;
#[allow(clippy::module_inception)]
pub mod polynomial;
pub mod polyutils;

pub use legacy::{Poly1d, poly, polyadd, polyder, polyint, polymul, polysub, polyval};

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::Result;
use crate::layout::Order;

/// Horner's rule over the 1-D contiguous coefficients `p` at `x` in
/// dtype `out` (`rev`: lowest power first, NumPy's polynomial package).
pub(crate) fn horner(p: &Array, x: &Array, out: DType, rev: bool) -> Result<Array> {
    let y = Array::empty_on(x.device(), x.shape(), out, Order::C)?;
    horner_kernel(x.into(), p.into(), (&y).into(), p.size(), rev).launch(x.shape())?;
    Ok(y)
}

/// Horner's rule over the raw coefficients `p` (`len` of them) at `x`, in
/// `y`'s dtype, in the operation order of `numpy.polyval` or (`rev`)
/// `numpy.polynomial.polynomial.polyval` (`horner.cuh`), without fused
/// multiply-adds.
pub(crate) fn horner_kernel<'a>(
    x: Bind<'a>,
    p: Bind<'a>,
    y: Bind<'a>,
    len: usize,
    rev: bool,
) -> Elementwise<'a> {
    Elementwise::new("horner")
        .input("x", x)
        .raw("p", p)
        .scalar("len", DType::Int64, len as i64)
        .scalar("rev", DType::Int64, i64::from(rev))
        .output("y", y)
        .op("y = cuprum_np::horner<y_type, x_type>(x, p, len, rev);")
        .option("--fmad=false")
        .preamble(include_str!("horner.cuh"))
}

/// `numpy.polynomial.polynomial.polyval(x, c)` with `tensor=True` for
/// coefficients of shape `(len, cols...)`: element `i` of the C-contiguous
/// result evaluates column `i / xs` of the raw flat `c` at the raw flat
/// `x[i % xs]` (`horner.cuh`); `sizes` is `[len, cols, xs]`.
pub(crate) fn horner_tensor_kernel<'a>(
    x: Bind<'a>,
    c: Bind<'a>,
    y: Bind<'a>,
    sizes: [usize; 3],
) -> Elementwise<'a> {
    let [len, cols, xs] = sizes.map(|s| s as i64);
    Elementwise::new("horner_tensor")
        .raw("x", x)
        .raw("c", c)
        .scalar("len", DType::Int64, len)
        .scalar("cols", DType::Int64, cols)
        .scalar("xs", DType::Int64, xs)
        .output("y", y)
        .op("y = cuprum_np::horner_tensor<y_type, x_type>((long long)i, x, c, len, cols, xs);")
        .option("--fmad=false")
        .preamble(include_str!("horner.cuh"))
}

/// `polyvander`: element `[.., j]` of a C-contiguous output with `cols`
/// columns is `x**j` by repeated multiplication, `x` raw, 1-D, of the
/// output dtype (`horner.cuh`).
pub(crate) fn vander_kernel<'a>(x: Bind<'a>, y: Bind<'a>, cols: usize) -> Elementwise<'a> {
    Elementwise::new("polyvander")
        .raw("x", x)
        .scalar("cols", DType::Int64, cols as i64)
        .output("y", y)
        .op("y = cuprum_np::vander<y_type>((long long)i, x, cols);")
        .preamble(include_str!("horner.cuh"))
}

/// The index of the last element of the 1-D `a` for which `keep` holds
/// (its values as complex128, one copy back), if any.
pub(crate) fn last_where(
    a: &Array,
    keep: impl Fn(num_complex::Complex<f64>) -> bool,
) -> Result<Option<usize>> {
    let v: Vec<num_complex::Complex<f64>> = a.astype(DType::Complex128)?.to_vec()?;
    Ok(v.iter().rposition(|&z| keep(z)))
}
