//! `average`, `cov` and `corrcoef`, composed from ufuncs and reductions.
//! The matrix product of `cov` is a reduction over a broadcast
//! `(vars, vars, observations)` iteration (one block or warp per output),
//! so that this crate does not depend on the linear-algebra crate.

use std::sync::OnceLock;

use crate::array::Array;
use crate::creation::{ascontiguousarray, diag, full};
use crate::dtype::{DType, Operand, ScalarValue, result_type};
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, Order, normalize_axis};
use crate::math::{Bound, clip_out};
use crate::reduction::{ReduceOptions, ReductionCall, ReductionKernel};
use crate::ufunc::{self, Input, UfuncOptions};

/// NumPy's `average(a, axis, weights, returned=True, keepdims)`: returns
/// `(avg, sum_of_weights)`, the second broadcast to the first's shape (a
/// float of the element count per average without weights).
///
/// Without weights, `avg` is `mean(a, axis)`. With weights (of `a`'s
/// shape, or 1-D/N-D of the lengths of the `axis` axes), the result dtype
/// is `result_type(a, weights)` (with float64 for integer and bool `a`),
/// `avg = sum(a * w, axis) / sum(w, axis)`.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let w = array([1.0, 3.0])?;
/// let a = average(&array([1.0, 2.0])?, None, Some(&w), false)?; // 1.75
/// # Ok(()) }
/// ```
///
/// # Errors
/// Axis errors; weights of another shape without `axis` ("Axis must be
/// specified when shapes of a and weights differ.") or not matching the
/// axes ("Shape of weights must be consistent with shape of a along
/// specified axis."); weights summing to zero ("Weights sum to zero,
/// can't be normalized", which needs one copy back); allocation or launch
/// failed.
pub fn average(
    a: &Array,
    axis: Option<&[isize]>,
    weights: Option<&Array>,
    keepdims: bool,
) -> Result<(Array, Array)> {
    let axes: Option<Vec<usize>> = match axis {
        None => None,
        Some(ax) => {
            let mut v = Vec::with_capacity(ax.len());
            for &x in ax {
                let n = normalize_axis(x, a.ndim())?;
                if v.contains(&n) {
                    return Err(Error::Axis("repeated axis".into()));
                }
                v.push(n);
            }
            Some(v)
        }
    };
    let ropts = |dtype: Option<DType>| ReduceOptions {
        axis: axes
            .as_ref()
            .map(|v| v.iter().map(|&x| x as isize).collect()),
        keepdims,
        dtype,
        ..Default::default()
    };
    let Some(w) = weights else {
        let avg = crate::stats::mean(a, ropts(None))?;
        let count = a.size() as f64 / avg.size().max(1) as f64;
        let scl = full(avg.shape(), count, Some(avg.dtype()))?;
        return Ok((avg, scl));
    };
    let result_dtype = if a.dtype().is_integer() || a.dtype().is_bool() {
        result_type(&[
            Operand::Array(a.dtype()),
            Operand::Array(w.dtype()),
            Operand::Array(DType::Float64),
        ])?
    } else {
        result_type(&[Operand::Array(a.dtype()), Operand::Array(w.dtype())])?
    };
    let wgt = if a.shape() != w.shape() {
        let Some(axes) = &axes else {
            return Err(Error::DType(
                "Axis must be specified when shapes of a and weights differ.".into(),
            ));
        };
        let want: Vec<usize> = axes.iter().map(|&x| a.shape()[x]).collect();
        if w.shape() != want.as_slice() {
            return Err(Error::Value(
                "Shape of weights must be consistent with shape of a along specified axis.".into(),
            ));
        }
        let mut perm: Vec<usize> = (0..axes.len()).collect();
        perm.sort_by_key(|&k| axes[k]);
        let perm: Vec<isize> = perm.into_iter().map(|k| k as isize).collect();
        let t = w.transpose(Some(&perm))?;
        let shape: Vec<isize> = (0..a.ndim())
            .map(|d| {
                if axes.contains(&d) {
                    a.shape()[d] as isize
                } else {
                    1
                }
            })
            .collect();
        t.reshape(&shape)?
    } else {
        w.clone()
    };
    let scl = crate::math::sum(&wgt, ropts(Some(result_dtype)))?;
    let zero = crate::logic::any(&ufunc::equal(&scl, 0.0)?, ReduceOptions::default())?;
    if zero.item::<bool>(&[])? {
        return Err(Error::Value(
            "Weights sum to zero, can't be normalized".into(),
        ));
    }
    let prod = ufunc::call(
        ufunc::get("multiply")?,
        &[Input::Array(a), Input::Array(&wgt)],
        &UfuncOptions {
            dtype: Some(result_dtype),
            ..Default::default()
        },
    )?
    .remove(0);
    let num = crate::math::sum(&prod, ropts(None))?;
    let avg = ufunc::divide(&num, &scl)?;
    let scl = if scl.shape() != avg.shape() {
        scl.broadcast_to(avg.shape())?.copy()?
    } else {
        scl
    };
    Ok((avg, scl))
}

/// The keyword arguments of [`cov`] (NumPy's).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct CovOptions<'a> {
    /// Each row is a variable (default), else each column.
    pub rowvar: bool,
    /// Normalise by N (else N - 1), when `ddof` is not given.
    pub bias: bool,
    /// Delta degrees of freedom, overriding `bias`.
    pub ddof: Option<i64>,
    /// Integer frequency weights, one per observation.
    pub fweights: Option<&'a Array>,
    /// Observation weights, one per observation.
    pub aweights: Option<&'a Array>,
    /// The dtype of the computation and result (default
    /// `result_type(m, y, float64)`).
    pub dtype: Option<DType>,
}

impl<'a> CovOptions<'a> {
    /// Sets `rowvar`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let c = cov(&m, None, &CovOptions::default().rowvar(false))?; // np.cov(m, rowvar=False): (3, 3)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn rowvar(mut self, rowvar: bool) -> CovOptions<'a> {
        self.rowvar = rowvar;
        self
    }

    /// Sets `bias`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let c = cov(&m, None, &CovOptions::default().bias(true))?; // np.cov(m, bias=True): divides by N
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn bias(mut self, bias: bool) -> CovOptions<'a> {
        self.bias = bias;
        self
    }

    /// Sets `ddof`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let c = cov(&m, None, &CovOptions::default().ddof(0))?; // np.cov(m, ddof=0)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn ddof(mut self, ddof: impl Into<Option<i64>>) -> CovOptions<'a> {
        self.ddof = ddof.into();
        self
    }

    /// Sets `fweights`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let f = array([1, 2, 1])?;
    /// let c = cov(&m, None, &CovOptions::default().fweights(&f))?; // np.cov(m, fweights=[1, 2, 1])
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn fweights(mut self, fweights: impl Into<Option<&'a Array>>) -> CovOptions<'a> {
        self.fweights = fweights.into();
        self
    }

    /// Sets `aweights`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let w = array([0.5, 1.0, 0.5])?;
    /// let c = cov(&m, None, &CovOptions::default().aweights(&w))?; // np.cov(m, aweights=w)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn aweights(mut self, aweights: impl Into<Option<&'a Array>>) -> CovOptions<'a> {
        self.aweights = aweights.into();
        self
    }

    /// Sets `dtype`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::array, stats::*};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let m = array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?;
    /// let c = cov(&m, None, &CovOptions::default().dtype(DType::Float32))?; // np.cov(m, dtype='float32')
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: impl Into<Option<DType>>) -> CovOptions<'a> {
        self.dtype = dtype.into();
        self
    }
}

impl Default for CovOptions<'_> {
    fn default() -> Self {
        CovOptions {
            rowvar: true,
            bias: false,
            ddof: None,
            fweights: None,
            aweights: None,
            dtype: None,
        }
    }
}

/// `m` as a 2-D array of `dtype` (NumPy's `array(m, ndmin=2, dtype=...)`).
fn as_2d(m: &Array, dtype: DType) -> Result<Array> {
    let m = match m.ndim() {
        0 => m.reshape([1, 1])?,
        1 => m.reshape([1, m.shape()[0] as isize])?,
        _ => m.clone(),
    };
    if m.dtype() == dtype {
        Ok(m)
    } else {
        m.astype(dtype)
    }
}

/// The reduction kernel of `cov`'s product `x @ y^H` (`z = sum(x *
/// conj(y))` over the reduced axis, `x * y` for real dtypes; CuPy's
/// `ReductionKernel` form), for compile tests and `cov` itself.
///
/// ```
/// use gpu_array::stats::cov_dot_kernel;
/// assert_eq!(cov_dot_kernel(false).params().inputs.len(), 2); // x and y
/// assert_ne!(cov_dot_kernel(true).name(), cov_dot_kernel(false).name());
/// ```
pub fn cov_dot_kernel(complex: bool) -> &'static ReductionKernel {
    static REAL: OnceLock<ReductionKernel> = OnceLock::new();
    static CPLX: OnceLock<ReductionKernel> = OnceLock::new();
    let make = |complex: bool| {
        let map = if complex {
            "x * cuprum::conj(y)"
        } else {
            "x * y"
        };
        let name = if complex {
            "cuprum_cov_dotc"
        } else {
            "cuprum_cov_dot"
        };
        ReductionKernel::new("T x, T y", "T z", map, "a + b", "z = a", Some("0"), name)
            .expect("a valid reduction kernel")
    };
    if complex {
        CPLX.get_or_init(|| make(true))
    } else {
        REAL.get_or_init(|| make(false))
    }
}

/// `x @ y^H` for `x` of shape `(p, n)` and `y` of shape `(q, n)`: a sum
/// reduction over the broadcast `(p, q, n)` iteration.
fn dot_conj(x: &Array, y: &Array) -> Result<Array> {
    let k = cov_dot_kernel(x.dtype().is_complex());
    let (p, q, n) = (
        x.shape()[0] as isize,
        y.shape()[0] as isize,
        x.shape()[1] as isize,
    );
    let xv = x.reshape([p, 1, n])?;
    let yv = y.reshape([1, q, n])?;
    let r = k.call(
        &[(&xv).into(), (&yv).into()],
        &ReductionCall {
            axis: Some(vec![2]),
            ..Default::default()
        },
    )?;
    Ok(r.into_iter().next().expect("one output"))
}

fn check_obs_weights(w: &Array, name: &str, nobs: usize) -> Result<Array> {
    if w.ndim() > 1 {
        return Err(Error::Value(format!(
            "cannot handle multidimensional {name}"
        )));
    }
    let w = as_1d(w)?.astype(DType::Float64)?;
    if w.shape()[0] != nobs {
        return Err(Error::Value(format!(
            "incompatible numbers of samples and {name}"
        )));
    }
    let neg = crate::logic::any(&ufunc::less(&w, 0.0)?, ReduceOptions::default())?;
    if neg.item::<bool>(&[])? {
        return Err(Error::Value(format!("{name} cannot be negative")));
    }
    Ok(w)
}

fn as_1d(w: &Array) -> Result<Array> {
    if w.ndim() == 0 {
        w.reshape([1])
    } else {
        Ok(w.clone())
    }
}

/// NumPy's `cov(m, y, rowvar, bias, ddof, fweights, aweights, dtype)`:
/// the covariance matrix of the variables in the rows of `m` (columns
/// with `rowvar: false`) and of `y`'s, squeezed as NumPy's (a 0-d array
/// for one variable). The normalisation is NumPy's: `N - ddof`, or with
/// weights `w = fweights * aweights`, `sum(w) - ddof * sum(w * aweights)
/// / sum(w)`; a non-positive divisor becomes 0 (NumPy warns) and gives
/// infinities and NaN. The weight checks and the divisor take a few
/// copies back.
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = cov(&array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?, None, &CovOptions::default())?; // 2x2
/// # Ok(()) }
/// ```
///
/// # Errors
/// More than two dimensions ("m has more than 2 dimensions", "y has more
/// than 2 dimensions"); `y` with another number of observations; weights
/// not 1-D, of the wrong length, negative, or `fweights` not integers;
/// allocation or launch failed.
pub fn cov(m: &Array, y: Option<&Array>, opts: &CovOptions<'_>) -> Result<Array> {
    if m.ndim() > 2 {
        return Err(Error::Value("m has more than 2 dimensions".into()));
    }
    if let Some(y) = y
        && y.ndim() > 2
    {
        return Err(Error::Value("y has more than 2 dimensions".into()));
    }
    let dtype = match opts.dtype {
        Some(d) => d,
        None => {
            let mut ops = vec![Operand::Array(m.dtype()), Operand::Array(DType::Float64)];
            if let Some(y) = y {
                ops.push(Operand::Array(y.dtype()));
            }
            result_type(&ops)?
        }
    };
    let mut x = as_2d(m, dtype)?;
    if !opts.rowvar && m.ndim() != 1 {
        x = x.T();
    }
    if x.shape()[0] == 0 {
        return Array::empty_on(m.device(), &[0, 0], DType::Float64, Order::C);
    }
    if let Some(y) = y {
        let mut yy = as_2d(y, dtype)?;
        if !opts.rowvar && yy.shape()[0] != 1 {
            yy = yy.T();
        }
        if yy.shape()[1] != x.shape()[1] {
            return Err(Error::Value(format!(
                "all the input array dimensions except for the concatenation axis must match \
                 exactly, but along dimension 1, the array at index 0 has size {} and the array \
                 at index 1 has size {}",
                x.shape()[1],
                yy.shape()[1]
            )));
        }
        let (p, q, n) = (x.shape()[0], yy.shape()[0], x.shape()[1]);
        let both = Array::empty_on(m.device(), &[p + q, n], dtype, Order::C)?;
        let rows = |a: usize, b: usize| {
            [
                AxisIndex::Slice {
                    start: Some(a as isize),
                    stop: Some(b as isize),
                    step: 1,
                },
                AxisIndex::FULL,
            ]
        };
        both.slice(&rows(0, p))?.copy_from(&x)?;
        both.slice(&rows(p, p + q))?.copy_from(&yy)?;
        x = both;
    }
    let ddof = opts.ddof.unwrap_or(if opts.bias { 0 } else { 1 });
    let nobs = x.shape()[1];
    let mut w: Option<Array> = None;
    if let Some(f) = opts.fweights {
        let f = check_obs_weights(f, "fweights", nobs)?;
        let frac = ufunc::not_equal(&f, &crate::math::around(&f, 0)?)?;
        if crate::logic::any(&frac, ReduceOptions::default())?.item::<bool>(&[])? {
            return Err(Error::DType("fweights must be integer".into()));
        }
        w = Some(f);
    }
    let aw = match opts.aweights {
        Some(a) => Some(check_obs_weights(a, "aweights", nobs)?),
        None => None,
    };
    if let Some(a) = &aw {
        w = Some(match w {
            None => a.clone(),
            Some(f) => ufunc::multiply(&f, a)?,
        });
    }
    let (avg, wsum) = average(&x, Some(&[1]), w.as_ref(), false)?;
    let fact = match &w {
        None => nobs as f64 - ddof as f64,
        Some(w) => {
            let wsum: f64 = wsum
                .slice(&[AxisIndex::Index(0)])?
                .astype(DType::Float64)?
                .item(&[])?;
            if ddof == 0 {
                wsum
            } else if let Some(a) = &aw {
                let s: f64 = crate::math::sum(&ufunc::multiply(w, a)?, ReduceOptions::default())?
                    .item(&[])?;
                wsum - ddof as f64 * s / wsum
            } else {
                wsum - ddof as f64
            }
        }
    };
    let fact = if fact <= 0.0 { 0.0 } else { fact };
    let p = x.shape()[0] as isize;
    let xc = ufunc::subtract(&x, &avg.reshape([p, 1])?)?;
    let xc = if xc.dtype() == dtype {
        xc
    } else {
        xc.astype(dtype)?
    };
    let yw = match &w {
        None => xc.clone(),
        Some(w) => {
            let r = ufunc::multiply(&xc, w)?;
            if r.dtype() == dtype {
                r
            } else {
                r.astype(dtype)?
            }
        }
    };
    let c = dot_conj(
        &ascontiguousarray(&xc, None)?,
        &ascontiguousarray(&yw, None)?,
    )?;
    let opts_out = UfuncOptions {
        out: vec![Some(&c)],
        ..Default::default()
    };
    ufunc::call(
        ufunc::get("multiply")?,
        &[
            Input::Array(&c),
            Input::Scalar(ScalarValue::Float(1.0 / fact)),
        ],
        &opts_out,
    )?;
    c.squeeze(None)
}

/// NumPy's `corrcoef(x, y, rowvar, dtype)`: the Pearson correlation
/// coefficients `cov / sqrt(diag(cov) diag(cov)^T)`, real and imaginary
/// parts clipped to `[-1, 1]`; for a single variable `c / c` (1, or NaN).
///
/// ```no_run
/// use gpu_array::{creation::array, stats::*};
/// # fn main() -> gpu_array::Result<()> {
/// let r = corrcoef(&array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])?, None, true, None)?; // [[1, -1], [-1, 1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`cov`].
pub fn corrcoef(x: &Array, y: Option<&Array>, rowvar: bool, dtype: Option<DType>) -> Result<Array> {
    let c = cov(
        x,
        y,
        &CovOptions {
            rowvar,
            dtype,
            ..Default::default()
        },
    )?;
    if c.ndim() != 2 {
        return ufunc::divide(&c, &c);
    }
    let d = diag(&c, 0)?;
    let sd = ufunc::sqrt(d.real())?;
    let n = sd.shape()[0] as isize;
    let inplace = |b: &Array| -> Result<()> {
        ufunc::call(
            ufunc::get("divide")?,
            &[Input::Array(&c), Input::Array(b)],
            &UfuncOptions {
                out: vec![Some(&c)],
                ..Default::default()
            },
        )?;
        Ok(())
    };
    inplace(&sd.reshape([n, 1])?)?;
    inplace(&sd.reshape([1, n])?)?;
    let re = c.real();
    clip_out(&re, Bound::from(-1i64), Bound::from(1i64), Some(&re))?;
    if c.dtype().is_complex() {
        let im = c.imag()?;
        clip_out(&im, Bound::from(-1i64), Bound::from(1i64), Some(&im))?;
    }
    Ok(c)
}
