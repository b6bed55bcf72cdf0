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
//! (re-exported as `cuprum::roots`, `cuprum::polyfit`); the `roots` and
//! `polyfit` here return [`Error::Unsupported`](crate::Error::Unsupported)
//! naming them.

mod legacy;
#[allow(clippy::module_inception)]
pub mod polynomial;
pub mod polyutils;

pub use legacy::{
    Poly1d, poly, polyadd, polyder, polyfit, polyint, polymul, polysub, polyval, roots,
};

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{LaunchArg, launch};
use crate::error::Result;
use crate::layout::Order;
use crate::math::kernels::{horner_spec, i64_arg};

/// Horner's rule over the 1-D contiguous coefficients `p` at `x` in
/// dtype `out` (`rev`: lowest power first, NumPy's polynomial package).
pub(crate) fn horner(p: &Array, x: &Array, out: DType, rev: bool) -> Result<Array> {
    let y = Array::empty_on(x.device(), x.shape(), out, Order::C)?;
    let (xd, pd) = (x.dtype(), p.dtype());
    let args = [
        LaunchArg::Array(x),
        LaunchArg::Raw(p),
        i64_arg(p.size() as i64),
        i64_arg(i64::from(rev)),
        LaunchArg::Out(&y),
    ];
    launch(x.shape(), &args, |l, i| Ok(horner_spec(xd, pd, out, l, i)))?;
    Ok(y)
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
