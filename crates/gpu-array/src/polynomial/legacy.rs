//! NumPy's legacy polynomial functions (highest power first) and `poly1d`.

use super::horner;
use crate::array::Array;
use crate::creation::{arange_with, ascontiguousarray};
use crate::dtype::{DType, promote_types};
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, Order};
use crate::math::{Mode, convolve};
use crate::ufunc;

fn at_least_1d(a: &Array) -> Result<Array> {
    if a.ndim() == 0 {
        a.reshape([1])
    } else {
        Ok(a.clone())
    }
}

fn slice(start: Option<isize>, stop: Option<isize>) -> [AxisIndex; 1] {
    [AxisIndex::Slice {
        start,
        stop,
        step: 1,
    }]
}

/// NumPy's `polyval(p, x)`: `p[0] * x**(N-1) + ... + p[N-1]` by Horner's
/// rule in NumPy's order (`y = y * x + p[k]`, no fused multiply-add), in
/// the promoted dtype of `p` and `x`; an empty `p` gives zeros of `x`'s
/// dtype.
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let y = polyval(&array([1.0, 0.0, -1.0])?, &array([2.0])?)?; // x^2 - 1 at 2: [3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `p` of more than one dimension; allocation or launch failed.
pub fn polyval(p: &Array, x: &Array) -> Result<Array> {
    let p = at_least_1d(p)?;
    if p.ndim() != 1 {
        return Err(Error::Value("polyval: p must be 1-D".into()));
    }
    if p.size() == 0 {
        let z = Array::empty_on(x.device(), x.shape(), x.dtype(), Order::C)?;
        z.fill(0i64)?;
        return Ok(z);
    }
    let out = promote_types(x.dtype(), p.dtype());
    horner(&ascontiguousarray(&p, None)?, x, out, false)
}

/// `a` padded with leading zeros (of its dtype) to length `len`.
fn pad_front(a: &Array, len: usize) -> Result<Array> {
    if a.shape()[0] == len {
        return Ok(a.clone());
    }
    let out = Array::empty_on(a.device(), &[len], a.dtype(), Order::C)?;
    out.fill(0i64)?;
    let at = (len - a.shape()[0]) as isize;
    out.slice(&slice(Some(at), None))?.copy_from(a)?;
    Ok(out)
}

fn add_or_sub(a1: &Array, a2: &Array, sub: bool) -> Result<Array> {
    let (a1, a2) = (at_least_1d(a1)?, at_least_1d(a2)?);
    if a1.ndim() != 1 || a2.ndim() != 1 {
        return Err(Error::Value("polynomial coefficients must be 1-D".into()));
    }
    let len = a1.shape()[0].max(a2.shape()[0]);
    let (p, q) = (pad_front(&a1, len)?, pad_front(&a2, len)?);
    if sub {
        ufunc::subtract(&p, &q)
    } else {
        ufunc::add(&p, &q)
    }
}

/// NumPy's `polyadd(a1, a2)`: the sum, the shorter padded with leading
/// zeros, in the promoted dtype.
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = polyadd(&array([1.0, 2.0])?, &array([1.0])?)?; // [1, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Operands of more than one dimension; allocation or launch failed.
pub fn polyadd(a1: &Array, a2: &Array) -> Result<Array> {
    add_or_sub(a1, a2, false)
}

/// NumPy's `polysub(a1, a2)`: `a1 - a2`, padded as [`polyadd`].
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = polysub(&array([1.0, 2.0])?, &array([1.0])?)?; // [1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`polyadd`]; bool operands (NumPy's boolean subtract error).
pub fn polysub(a1: &Array, a2: &Array) -> Result<Array> {
    add_or_sub(a1, a2, true)
}

/// NumPy's `polymul(a1, a2)`: the product, `convolve(a1, a2)`.
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = polymul(&array([1.0, 1.0])?, &array([1.0, -1.0])?)?; // [1, 0, -1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`convolve`].
pub fn polymul(a1: &Array, a2: &Array) -> Result<Array> {
    convolve(&at_least_1d(a1)?, &at_least_1d(a2)?, Mode::Full)
}

/// NumPy's `polyder(p, m)`: the `m`-th derivative, `p[:-1] * arange(n, 0,
/// -1)` repeated (int64 factors, so float32 coefficients give float64 as
/// in NumPy).
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let d = polyder(&array([1.0, 0.0, -1.0])?, 1)?; // [2, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A negative order ("Order of derivative must be positive (see
/// polyint)"); allocation or launch failed.
pub fn polyder(p: &Array, m: i64) -> Result<Array> {
    if m < 0 {
        return Err(Error::Value(
            "Order of derivative must be positive (see polyint)".into(),
        ));
    }
    let mut p = at_least_1d(p)?;
    for _ in 0..m {
        let n = p.shape()[0] as i64 - 1;
        let head = p.slice(&slice(None, Some(-1)))?;
        let f = arange_with(n, 0i64, -1i64, Some(DType::Int64))?;
        p = ufunc::multiply(&head, &f)?;
    }
    Ok(p)
}

/// NumPy's `polyint(p, m, k)`: the `m`-th antiderivative with integration
/// constants `k` (empty: zeros; one value: used for every order),
/// `concatenate((p / arange(len(p), 0, -1), [k]))` repeated (float64 or
/// complex128).
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let i = polyint(&array([2.0, 0.0])?, 1, &[0.0])?; // [1, 0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A negative order ("Order of integral must be positive (see polyder)"),
/// fewer constants than `m` ("k must be a scalar or a rank-1 array of
/// length 1 or >m."); allocation or launch failed.
pub fn polyint(p: &Array, m: i64, k: &[f64]) -> Result<Array> {
    if m < 0 {
        return Err(Error::Value(
            "Order of integral must be positive (see polyder)".into(),
        ));
    }
    let mu = m as usize;
    let ks: Vec<f64> = match k.len() {
        0 => vec![0.0; mu],
        1 if mu > 1 => vec![k[0]; mu],
        _ => k.to_vec(),
    };
    if ks.len() < mu {
        return Err(Error::Value(
            "k must be a scalar or a rank-1 array of length 1 or >m.".into(),
        ));
    }
    let mut p = at_least_1d(p)?;
    for kk in ks.iter().take(mu) {
        let n = p.shape()[0];
        let f = arange_with(n as i64, 0i64, -1i64, Some(DType::Int64))?;
        let q = ufunc::divide(&p, &f)?;
        let dt = promote_types(q.dtype(), DType::Float64);
        let out = Array::empty_on(p.device(), &[n + 1], dt, Order::C)?;
        out.slice(&slice(None, Some(n as isize)))?
            .copy_from(&q.astype(dt)?)?;
        out.slice(&[AxisIndex::Index(n as isize)])?.fill(*kk)?;
        p = out;
    }
    Ok(p)
}

/// NumPy's `poly(seq_of_zeros)` for a 1-D sequence of roots: the
/// coefficients of the monic polynomial with those roots, `convolve(a,
/// [1, -r])` for each root in NumPy's order, in the roots' float or
/// complex dtype (float64 for integers, bool and float16); a result with
/// roots in conjugate pairs is real. The roots are few: they are copied
/// back once and the product is formed on the host, then uploaded.
///
/// ```no_run
/// use gpu_array::{creation::array, polynomial::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = poly(&array([1.0, -1.0])?)?; // [1, 0, -1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A 2-D `seq_of_zeros` ([`Error::Unsupported`]: NumPy takes a square
/// matrix's eigenvalues there, which live in gpu-linalg); more dimensions.
pub fn poly(seq_of_zeros: &Array) -> Result<Array> {
    use num_complex::Complex;
    let z = at_least_1d(seq_of_zeros)?;
    match z.ndim() {
        1 => {}
        2 => {
            return Err(Error::Unsupported(
                "poly of a square matrix needs its eigenvalues (gpu-linalg's eigvals)".into(),
            ));
        }
        _ => {
            return Err(Error::Value(
                "input must be 1d or non-empty square 2d array.".into(),
            ));
        }
    }
    let dt = match z.dtype() {
        DType::Float32 => DType::Float32,
        DType::Complex64 => DType::Complex64,
        DType::Complex128 => DType::Complex128,
        _ => DType::Float64,
    };
    let roots: Vec<Complex<f64>> = z.astype(dt)?.astype(DType::Complex128)?.to_vec()?;
    let single = dt.real_dtype() == DType::Float32;
    let r = |v: f64| if single { v as f32 as f64 } else { v };
    let rc = |v: Complex<f64>| Complex::new(r(v.re), r(v.im));
    // a = convolve(a, [1, -z]): out[t] = a[t - 1] * (-z) + a[t] * 1.
    let mut a = vec![Complex::new(1.0, 0.0)];
    for &zr in &roots {
        let mut next = vec![Complex::new(0.0, 0.0); a.len() + 1];
        for (t, v) in next.iter_mut().enumerate() {
            let mut acc = Complex::new(0.0, 0.0);
            if t >= 1 {
                acc = rc(acc + rc(a[t - 1] * -zr));
            }
            if t < a.len() {
                acc = rc(acc + a[t]);
            }
            *v = acc;
        }
        a = next;
    }
    let dev = z.device();
    let mut out_dt = dt;
    if dt.is_complex() {
        let key = |c: &Complex<f64>| (c.re, c.im);
        let mut s1: Vec<Complex<f64>> = roots.clone();
        let mut s2: Vec<Complex<f64>> = roots.iter().map(|c| c.conj()).collect();
        s1.sort_by(|x, y| {
            key(x)
                .partial_cmp(&key(y))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        s2.sort_by(|x, y| {
            key(x)
                .partial_cmp(&key(y))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if s1 == s2 {
            out_dt = dt.real_dtype();
        }
    }
    let host = Array::from_slice_on(dev, &a, &[a.len()])?;
    host.astype(out_dt)
}

/// NumPy's `poly1d`: a polynomial with its coefficients (highest power
/// first, leading zeros trimmed, at least one).
#[derive(Clone, Debug)]
pub struct Poly1d {
    coeffs: Array,
}

impl Poly1d {
    /// `poly1d(c)`: leading zeros trimmed (one copy back), `[0]` of `c`'s
    /// dtype when nothing is left; a 0-d `c` becomes 1-D.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([1.0, -3.0, 2.0])?)?; // np.poly1d([1, -3, 2]): x**2 - 3x + 2
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `c` of more than one dimension ("Polynomial must be 1d only.").
    pub fn new(c: &Array) -> Result<Poly1d> {
        let c = at_least_1d(c)?;
        if c.ndim() != 1 {
            return Err(Error::Value("Polynomial must be 1d only.".into()));
        }
        let v: Vec<num_complex::Complex<f64>> = c.astype(DType::Complex128)?.to_vec()?;
        let first = v.iter().position(|z| z.re != 0.0 || z.im != 0.0);
        let coeffs = match first {
            Some(0) => c,
            Some(i) => c.slice(&slice(Some(i as isize), None))?.copy()?,
            None => {
                let z = Array::empty_on(c.device(), &[1], c.dtype(), Order::C)?;
                z.fill(0i64)?;
                z
            }
        };
        Ok(Poly1d { coeffs })
    }

    /// `poly1d(roots, r=True)`: the monic polynomial with these roots
    /// ([`poly`]).
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::from_roots(&array([1.0, 2.0])?)?; // np.poly1d([1, 2], r=True): x**2 - 3x + 2
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`poly`].
    pub fn from_roots(r: &Array) -> Result<Poly1d> {
        Poly1d::new(&poly(r)?)
    }

    /// The coefficients (`p.coeffs`, `p.c`).
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([0.0, 1.0, 2.0])?)?;
    /// let c = p.coeffs(); // p.coeffs: [1, 2] (leading zeros trimmed)
    /// # Ok(()) }
    /// ```
    pub fn coeffs(&self) -> &Array {
        &self.coeffs
    }

    /// The order (`p.order`): the number of coefficients minus one.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([1.0, -3.0, 2.0])?)?;
    /// assert_eq!(p.order(), 2); // p.order
    /// # Ok(()) }
    /// ```
    pub fn order(&self) -> usize {
        self.coeffs.size() - 1
    }

    /// `p(x)`: [`polyval`].
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([1.0, -3.0, 2.0])?)?;
    /// let y = p.call(&array([0.0, 3.0])?)?; // p([0, 3]): [2, 2]
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polyval`].
    pub fn call(&self, x: &Array) -> Result<Array> {
        polyval(&self.coeffs, x)
    }

    /// `p + q`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (p, q) = (Poly1d::new(&array([1.0, 0.0])?)?, Poly1d::new(&array([2.0])?)?);
    /// let r = p.add(&q)?; // p + q: x + 2
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polyadd`].
    pub fn add(&self, other: &Poly1d) -> Result<Poly1d> {
        Poly1d::new(&polyadd(&self.coeffs, &other.coeffs)?)
    }

    /// `p - q`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (p, q) = (Poly1d::new(&array([1.0, 0.0])?)?, Poly1d::new(&array([2.0])?)?);
    /// let r = p.sub(&q)?; // p - q: x - 2
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polysub`].
    pub fn sub(&self, other: &Poly1d) -> Result<Poly1d> {
        Poly1d::new(&polysub(&self.coeffs, &other.coeffs)?)
    }

    /// `p * q`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (p, q) = (Poly1d::new(&array([1.0, -1.0])?)?, Poly1d::new(&array([1.0, 1.0])?)?);
    /// let r = p.mul(&q)?; // p * q: x**2 - 1
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polymul`].
    pub fn mul(&self, other: &Poly1d) -> Result<Poly1d> {
        Poly1d::new(&polymul(&self.coeffs, &other.coeffs)?)
    }

    /// `p.deriv(m)`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([1.0, -3.0, 2.0])?)?;
    /// let d = p.deriv(1)?; // p.deriv(): 2x - 3
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polyder`].
    pub fn deriv(&self, m: i64) -> Result<Poly1d> {
        Poly1d::new(&polyder(&self.coeffs, m)?)
    }

    /// `p.integ(m, k)`.
    ///
    /// ```no_run
    /// use gpu_array::{creation::array, polynomial::Poly1d};
    /// # fn main() -> gpu_array::Result<()> {
    /// let p = Poly1d::new(&array([3.0, 0.0])?)?;
    /// let i = p.integ(1, &[5.0])?; // p.integ(k=5): 1.5x**2 + 5
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`polyint`].
    pub fn integ(&self, m: i64, k: &[f64]) -> Result<Poly1d> {
        Poly1d::new(&polyint(&self.coeffs, m, k)?)
    }
}
