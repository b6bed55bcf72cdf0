//! Sampling through the elementwise engine: every distribution whose
//! number of draws varies (rejection samplers) or that is a short
//! transform of them runs as one elementwise kernel in which element `i`
//! owns Philox position `pos + i` (`Stream` in `kernels/philox.cuh`), its
//! parameters broadcast as NumPy broadcasts them against `size`.

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::layout::{IntoShape, broadcast_shapes};
use gpu_array::{Array, DType, Result};

use crate::Philox;
use crate::error::value_error;

pub(crate) const PHILOX: &str = include_str!("kernels/philox.cuh");
pub(crate) const SIMPLE: &str = include_str!("kernels/simple.cuh");
pub(crate) const DISTRIBUTIONS: &str = include_str!("kernels/distributions.cuh");

/// A distribution parameter: a Rust number or a device array broadcast
/// against the draw's size, as NumPy takes `loc`, `scale`, `p`, ...
///
/// ```
/// use gpu_random::Param;
/// assert!(matches!(Param::from(2.5), Param::Float(v) if v == 2.5));
/// assert!(matches!(Param::from(3i64), Param::Int(3)));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Param<'a> {
    /// A float.
    Float(f64),
    /// An integer (binomial's `n`, hypergeometric's counts).
    Int(i64),
    /// A device array (real, integer or bool).
    Array(&'a Array),
}

impl From<f64> for Param<'_> {
    fn from(v: f64) -> Self {
        Param::Float(v)
    }
}
impl From<f32> for Param<'_> {
    fn from(v: f32) -> Self {
        Param::Float(f64::from(v))
    }
}
impl From<i64> for Param<'_> {
    fn from(v: i64) -> Self {
        Param::Int(v)
    }
}
impl From<i32> for Param<'_> {
    fn from(v: i32) -> Self {
        Param::Int(i64::from(v))
    }
}
impl From<u32> for Param<'_> {
    fn from(v: u32) -> Self {
        Param::Int(i64::from(v))
    }
}
impl<'a> From<&'a Array> for Param<'a> {
    fn from(a: &'a Array) -> Self {
        Param::Array(a)
    }
}

impl<'a> Param<'a> {
    /// `e` with this parameter as operand `name`: an input for an array, a
    /// scalar of `dtype` for a number.
    pub(crate) fn bind(&self, e: Elementwise<'a>, name: &str, dtype: DType) -> Elementwise<'a> {
        match *self {
            Param::Array(a) => e.input(name, a),
            Param::Float(v) => e.scalar(name, dtype, v),
            Param::Int(v) => e.scalar(name, dtype, v),
        }
    }

    fn shape(&self) -> &[usize] {
        match self {
            Param::Array(a) => a.shape(),
            _ => &[],
        }
    }

    /// The value as a float, for a scalar.
    pub(crate) fn scalar(&self) -> Option<f64> {
        match *self {
            Param::Float(v) => Some(v),
            Param::Int(v) => Some(v as f64),
            Param::Array(_) => None,
        }
    }
}

/// A draw's `size`: NumPy's `size=` (a shape) or, as `()`, NumPy's
/// `size=None` (the parameters' broadcast shape; a 0-d array for scalar
/// parameters).
///
/// ```
/// use gpu_random::Size;
/// assert_eq!(Size::from([2, 3]).shape(), Some(&[2, 3][..]));
/// assert_eq!(Size::from(()).shape(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Size(Option<Vec<usize>>);

impl Size {
    /// The shape, or `None` for "the parameters' shape".
    pub fn shape(&self) -> Option<&[usize]> {
        self.0.as_deref()
    }
}

impl From<()> for Size {
    fn from(_: ()) -> Size {
        Size(None)
    }
}
macro_rules! size_from_shape {
    ($($t:ty),*) => {$(
        impl From<$t> for Size {
            fn from(s: $t) -> Size {
                Size(Some(s.into_shape().to_vec()))
            }
        }
    )*};
}
size_from_shape!(
    usize,
    &[usize],
    Vec<usize>,
    &Vec<usize>,
    (usize, usize),
    (usize, usize, usize)
);
impl<const N: usize> From<[usize; N]> for Size {
    fn from(s: [usize; N]) -> Size {
        Size(Some(s.to_vec()))
    }
}
impl<const N: usize> From<&[usize; N]> for Size {
    fn from(s: &[usize; N]) -> Size {
        Size(Some(s.to_vec()))
    }
}

/// The output shape of a draw: `size`, which the parameters must
/// broadcast to, or the parameters' broadcast shape.
pub(crate) fn out_shape(size: &Size, params: &[Param]) -> Result<Vec<usize>> {
    let shapes: Vec<&[usize]> = params.iter().map(Param::shape).collect();
    let pshape = broadcast_shapes(&shapes)?;
    match size.shape() {
        None => Ok(pshape),
        Some(s) => {
            let mut all = shapes.clone();
            all.push(s);
            let b = broadcast_shapes(&all)
                .map_err(|_| value_error(format!("shape mismatch: objects cannot be broadcast to a single shape. Mismatch is between the size {s:?} and the parameters' shape {pshape:?}")))?;
            if b != s {
                return Err(value_error(format!(
                    "size {s:?} is not compatible with the parameters' shape {pshape:?}"
                )));
            }
            Ok(s.to_vec())
        }
    }
}

/// A parameter's domain, checked as NumPy checks it (arrays by a
/// reduction on the device, which reads one bool back).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Domain {
    /// Anything (NaN included).
    Any,
    /// `>= 0` (NumPy: "scale < 0").
    NonNegative,
    /// `> 0` (NumPy: "a <= 0").
    Positive,
    /// In `[0, 1]` (NumPy: "p < 0, p > 1 or p is NaN").
    Probability,
    /// In `(0, 1]` (NumPy: "p <= 0, p > 1 or p contains NaNs").
    ProbabilityPositive,
    /// In `[0, 1)` (logseries: "p < 0, p >= 1 or p is NaN").
    ProbabilityBelowOne,
    /// `> 1` (zipf: "a <= 1 or a is NaN").
    AboveOne,
    /// Poisson's `lam`: `>= 0` and at most NumPy's `POISSON_LAM_MAX`
    /// (about 9.2e18, where the count would overflow int64).
    Lam,
}

/// NumPy's largest Poisson mean (`POISSON_LAM_MAX`: int64's maximum less
/// ten standard deviations).
pub(crate) const POISSON_LAM_MAX: f64 = 9.223_372_006_484_771e18;

impl Domain {
    fn holds(self, v: f64) -> bool {
        match self {
            Domain::Any => true,
            Domain::NonNegative => v >= 0.0,
            Domain::Positive => v > 0.0,
            Domain::Probability => (0.0..=1.0).contains(&v),
            Domain::ProbabilityPositive => v > 0.0 && v <= 1.0,
            Domain::ProbabilityBelowOne => (0.0..1.0).contains(&v),
            Domain::AboveOne => v > 1.0,
            Domain::Lam => (0.0..=POISSON_LAM_MAX).contains(&v),
        }
    }

    /// The C condition of a violation (NaN violates every domain but Any).
    fn violated(self) -> &'static str {
        match self {
            Domain::Any => "false",
            Domain::NonNegative => "!(x >= 0)",
            Domain::Positive => "!(x > 0)",
            Domain::Probability => "!(x >= 0 && x <= 1)",
            Domain::ProbabilityPositive => "!(x > 0 && x <= 1)",
            Domain::ProbabilityBelowOne => "!(x >= 0 && x < 1)",
            Domain::AboveOne => "!(x > 1)",
            Domain::Lam => "!(x >= 0 && x <= 9.223372006484771e18)",
        }
    }

    fn message(self, name: &str) -> String {
        match self {
            Domain::Any => String::new(),
            Domain::NonNegative => format!("{name} < 0"),
            Domain::Positive => format!("{name} <= 0"),
            Domain::Probability => format!("{name} < 0, {name} > 1 or {name} is NaN"),
            Domain::ProbabilityPositive => {
                format!("{name} <= 0, {name} > 1 or {name} contains NaNs")
            }
            Domain::ProbabilityBelowOne => format!("{name} < 0, {name} >= 1 or {name} is NaN"),
            Domain::AboveOne => format!("{name} <= 1 or {name} is NaN"),
            Domain::Lam => format!("{name} < 0, {name} is NaN or {name} value too large"),
        }
    }

    /// Checks `p` (NumPy's `ValueError` in its words when it fails).
    pub(crate) fn check(self, name: &str, p: &Param) -> Result<()> {
        if self == Domain::Any {
            return Ok(());
        }
        let bad = match p {
            Param::Array(a) => {
                if a.dtype().is_complex() {
                    return Err(gpu_array::Error::DType(format!(
                        "{name} must be real, not {}",
                        a.dtype()
                    )));
                }
                if a.size() == 0 {
                    return Ok(());
                }
                let flags = Array::empty(a.shape(), DType::Bool)?;
                Elementwise::new(format!("random_domain_{self:?}"))
                    .input("x", *a)
                    .output("bad", &flags)
                    .op(format!("bad = {};", self.violated()))
                    .launch(a.shape())?;
                gpu_array::logic::any(&flags, ())?.to_scalar::<bool>()?
            }
            other => !self.holds(other.scalar().unwrap_or(f64::NAN)),
        };
        if bad {
            return Err(value_error(self.message(name)));
        }
        Ok(())
    }
}

/// Checks a relation between parameters (`hypergeometric`'s "ngood +
/// nbad < nsample", `triangular`'s "left > mode"): `bad` on the host for
/// scalars, `c_expr` (over `x0`, `x1`, ...) on the device for arrays;
/// either way NumPy's `ValueError` with `msg`.
pub(crate) fn check_relation(
    kernel: &'static str,
    msg: &str,
    c_expr: &str,
    params: &[Param],
    bad: impl Fn(&[f64]) -> bool,
) -> Result<()> {
    let scalars: Option<Vec<f64>> = params.iter().map(Param::scalar).collect();
    let failed = match scalars {
        Some(v) => bad(&v),
        None => {
            let shape = out_shape(&Size(None), params)?;
            let flags = Array::empty(&shape[..], DType::Bool)?;
            if flags.size() == 0 {
                return Ok(());
            }
            let mut e = Elementwise::new(kernel);
            for (k, p) in params.iter().enumerate() {
                let dt = if matches!(p, Param::Int(_)) {
                    DType::Int64
                } else {
                    DType::Float64
                };
                e = p.bind(e, &format!("x{k}"), dt);
            }
            e.output("bad", &flags)
                .op(format!("bad = {c_expr};"))
                .launch(&shape)?;
            gpu_array::logic::any(&flags, ())?.to_scalar::<bool>()?
        }
    };
    if failed {
        return Err(value_error(msg));
    }
    Ok(())
}

/// One distribution as an elementwise kernel.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sampler {
    /// The kernel's name (`random_<name>`); it decides `expr`.
    pub name: &'static str,
    /// Each parameter's name (for errors), C type (`double` or
    /// `long long`) and domain.
    pub params: &'static [(&'static str, ParamType, Domain)],
    /// The value, in terms of `st` (the element's `Stream`) and `p0`,
    /// `p1`, ... (the parameters, converted to their C types).
    pub expr: &'static str,
}

/// A parameter's C type in a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ParamType {
    /// `double`.
    Float,
    /// `long long`.
    Int,
}

impl ParamType {
    fn dtype(self) -> DType {
        match self {
            ParamType::Float => DType::Float64,
            ParamType::Int => DType::Int64,
        }
    }

    fn c_type(self) -> &'static str {
        match self {
            ParamType::Float => "double",
            ParamType::Int => "long long",
        }
    }
}

/// Draws `sampler` into a fresh array of `dtype` (the parameters already
/// checked by [`Sampler::draw`]).
fn launch(
    g: &mut Philox,
    s: &Sampler,
    params: &[Param],
    shape: &[usize],
    dtype: DType,
) -> Result<Array> {
    let out = Array::empty(shape, dtype)?;
    let n = out.size() as u64;
    if n == 0 {
        return Ok(out);
    }
    let pos = g.reserve(n)?;
    let [k0, k1] = g.key_words();
    let mut e = Elementwise::new(format!("random_{}", s.name))
        .scalar("k0", DType::UInt32, k0)
        .scalar("k1", DType::UInt32, k1)
        .scalar("pos", DType::UInt64, pos)
        .scalar("word", DType::UInt32, g.word());
    for (k, (p, (_, ty, _))) in params.iter().zip(s.params).enumerate() {
        e = p.bind(e, &format!("a{k}"), ty.dtype());
    }
    finish(s, e, (&out).into()).launch(shape)?;
    Ok(out)
}

impl Sampler {
    /// Checks the parameters, shapes the output and draws.
    pub(crate) fn draw(
        &self,
        g: &mut Philox,
        params: &[Param],
        size: &Size,
        dtype: DType,
    ) -> Result<Array> {
        debug_assert_eq!(params.len(), self.params.len());
        for (p, (name, ty, dom)) in params.iter().zip(self.params) {
            if let (ParamType::Int, Param::Float(v)) = (ty, p)
                && v.fract() != 0.0
            {
                return Err(gpu_array::Error::DType(format!(
                    "{name} must be an integer, not {v}"
                )));
            }
            dom.check(name, p)?;
        }
        let shape = out_shape(size, params)?;
        launch(g, self, params, &shape, dtype)
    }
}

#[cfg(test)]
/// The NVRTC description of a sampler's kernel with every parameter a
/// float64 array (for the compile test).
pub(crate) fn describe(s: &Sampler, out: DType) -> Elementwise<'static> {
    let mut e = Elementwise::new(format!("random_{}", s.name))
        .scalar("k0", DType::UInt32, 0u32)
        .scalar("k1", DType::UInt32, 0u32)
        .scalar("pos", DType::UInt64, 0u64)
        .scalar("word", DType::UInt32, 0u32);
    for (k, (_, ty, _)) in s.params.iter().enumerate() {
        e = e.input(&format!("a{k}"), ty.dtype());
    }
    finish(s, e, out.into())
}

/// The output, operation and preamble of a sampler's kernel: element `i`
/// builds its `Stream` at `pos + i` and evaluates the sampler's
/// expression with the parameters in their C types.
fn finish<'a>(s: &Sampler, e: Elementwise<'a>, out: Bind<'a>) -> Elementwise<'a> {
    let casts: String = s
        .params
        .iter()
        .enumerate()
        .map(|(k, (_, ty, _))| {
            let c = ty.c_type();
            format!("const {c} p{k} = ({c})a{k}; ")
        })
        .collect();
    e.output("out", out)
        .op(format!(
            "{{ cuprum_random::Stream st(cuprum_random::Key{{k0, k1}}, pos + (unsigned long long)i, word); {casts}out = (out_type)({}); }}",
            s.expr
        ))
        .preamble(format!("{PHILOX}{SIMPLE}{DISTRIBUTIONS}"))
        .option("--fmad=false")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_parameter_shapes() {
        assert_eq!(
            out_shape(&Size::from(()), &[]).unwrap(),
            Vec::<usize>::new()
        );
        assert_eq!(
            out_shape(&Size::from([2, 3]), &[Param::Float(1.0)]).unwrap(),
            [2, 3]
        );
        assert_eq!(out_shape(&Size::from(5), &[]).unwrap(), [5]);
        assert_eq!(Size::from((2, 3)).shape(), Some(&[2, 3][..]));
        assert_eq!(Size::from(vec![4]).shape(), Some(&[4][..]));
    }

    #[test]
    fn scalar_domains_are_numpy_errors() {
        let err = |d: Domain, v: f64| match d.check("p", &Param::Float(v)) {
            Err(gpu_array::Error::Value(m)) => m,
            other => format!("{other:?}"),
        };
        assert!(
            Domain::NonNegative
                .check("scale", &Param::Float(0.0))
                .is_ok()
        );
        assert_eq!(err(Domain::NonNegative, -1.0), "p < 0");
        assert_eq!(err(Domain::NonNegative, f64::NAN), "p < 0");
        assert_eq!(err(Domain::Positive, 0.0), "p <= 0");
        assert_eq!(err(Domain::Probability, 1.5), "p < 0, p > 1 or p is NaN");
        assert!(Domain::Probability.check("p", &Param::Float(1.0)).is_ok());
        assert_eq!(
            err(Domain::ProbabilityPositive, 0.0),
            "p <= 0, p > 1 or p contains NaNs"
        );
        assert_eq!(
            err(Domain::ProbabilityBelowOne, 1.0),
            "p < 0, p >= 1 or p is NaN"
        );
        assert_eq!(err(Domain::AboveOne, 1.0), "p <= 1 or p is NaN");
        assert!(
            Domain::Lam
                .check("lam", &Param::Float(POISSON_LAM_MAX))
                .is_ok()
        );
        assert_eq!(
            err(Domain::Lam, 1e19),
            "p < 0, p is NaN or p value too large"
        );
        assert!(Domain::Any.check("loc", &Param::Float(f64::NAN)).is_ok());
        assert!(Domain::NonNegative.check("n", &Param::Int(3)).is_ok());
    }

    #[test]
    fn relations_between_scalars_are_checked_on_the_host() {
        let p = [Param::Int(2), Param::Int(3), Param::Int(6)];
        let r = check_relation(
            "unused",
            "ngood + nbad < nsample",
            "x0 + x1 < x2",
            &p,
            |v| v[0] + v[1] < v[2],
        );
        assert!(matches!(r, Err(gpu_array::Error::Value(m)) if m == "ngood + nbad < nsample"));
        let ok = [Param::Int(2), Param::Int(3), Param::Int(5)];
        assert!(check_relation("unused", "m", "x0 + x1 < x2", &ok, |v| v[0] + v[1] < v[2]).is_ok());
    }
}
