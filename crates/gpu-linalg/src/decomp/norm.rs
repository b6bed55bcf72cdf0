//! `linalg.norm`: every `ord` and `axis` NumPy accepts, as reductions of
//! gpu-array (and singular values for the matrix 2-norm and nuclear norm).

use gpu_array::math::sum;
use gpu_array::reduction::ReduceOptions;
use gpu_array::stats::{amax, amin};
use gpu_array::{Array, DType, ufunc};

use super::svd::{SvdDriver, SvdParams, svd};
use crate::error::{Error, Result, value};

/// NumPy's `ord` argument.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Norm {
    /// `ord=None`: the 2-norm of vectors, Frobenius of matrices.
    #[default]
    Default,
    /// `'fro'` (matrices only).
    Fro,
    /// `'nuc'` (matrices only).
    Nuc,
    /// `inf`.
    Inf,
    /// `-inf`.
    NegInf,
    /// A number `p` (`0`, `1`, `-1`, `2`, `-2` or any other for vectors).
    P(f64),
}

// The string orders, both of matrices: NumPy's matrix message for any other.
gpu_array::from_numpy_str! {
    Norm, Error,
    else: |_s| value("Invalid norm order for matrices."),
    { "fro" => Norm::Fro, "nuc" => Norm::Nuc }
}

/// NumPy's `axis` argument of `norm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NormAxis {
    /// `axis=None`: the whole array (a vector for 1-D, a matrix for 2-D).
    #[default]
    All,
    /// A vector norm along one axis.
    One(isize),
    /// A matrix norm over two axes (rows, columns).
    Two(isize, isize),
}

/// What [`norm`] computes.
#[derive(Debug, Clone, PartialEq)]
pub enum NormPlan {
    /// `sqrt(sum(|x|^2))` over every element (`ord=None`, `axis=None`).
    Flat,
    /// A vector norm along a normalized axis.
    Vector(usize, Norm),
    /// A matrix norm over normalized (row, column) axes.
    Matrix(usize, usize, Norm),
}

fn axis_of(axis: isize, ndim: usize) -> Result<usize> {
    let a = if axis < 0 { axis + ndim as isize } else { axis };
    if a < 0 || a >= ndim as isize {
        return Err(gpu_array::Error::AxisOutOfBounds {
            arg: None,
            axis,
            ndim,
        });
    }
    Ok(a as usize)
}

/// NumPy's checks of `ord` and `axis` for an array of `ndim` dimensions.
///
/// # Errors
/// NumPy's messages: "Improper number of dimensions to norm.", "Invalid
/// norm order 'fro' for vectors", "Invalid norm order for matrices.",
/// "Duplicate axes given.", axes out of bounds.
pub(crate) fn norm_plan(ndim: usize, ord: Norm, axis: NormAxis) -> Result<NormPlan> {
    let axis = match axis {
        NormAxis::All => {
            if ord == Norm::Default {
                return Ok(NormPlan::Flat);
            }
            match ndim {
                1 => NormAxis::One(0),
                2 => NormAxis::Two(0, 1),
                _ => return Err(value("Improper number of dimensions to norm.")),
            }
        }
        other => other,
    };
    match axis {
        NormAxis::One(a) => {
            let a = axis_of(a, ndim)?;
            match ord {
                Norm::Fro => Err(value("Invalid norm order 'fro' for vectors")),
                Norm::Nuc => Err(value("Invalid norm order 'nuc' for vectors")),
                o => Ok(NormPlan::Vector(a, o)),
            }
        }
        NormAxis::Two(r, c) => {
            let (r, c) = (axis_of(r, ndim)?, axis_of(c, ndim)?);
            if r == c {
                return Err(value("Duplicate axes given."));
            }
            match ord {
                Norm::P(p) if ![1.0, -1.0, 2.0, -2.0].contains(&p) => {
                    Err(value("Invalid norm order for matrices."))
                }
                o => Ok(NormPlan::Matrix(r, c, o)),
            }
        }
        NormAxis::All => unreachable!("resolved above"),
    }
}

fn opts(axes: &[usize]) -> ReduceOptions<'static> {
    let ax: Vec<isize> = axes.iter().map(|&a| a as isize).collect();
    ReduceOptions::axes(&ax)
}

/// `|x|^2` in the real dtype.
fn abs2(x: &Array) -> Result<Array> {
    ufunc::square(&ufunc::absolute(x)?)
}

/// The singular values of the matrices over axes (r, c), moved last.
fn svals(x: &Array, r: usize, c: usize) -> Result<Array> {
    let moved = x.moveaxis(&[r as isize, c as isize], &[-2, -1])?;
    Ok(svd(
        &moved,
        SvdParams {
            full_matrices: false,
            compute_uv: false,
            driver: SvdDriver::Gesvd,
            hermitian: false,
        },
    )?
    .s)
}

/// NumPy's `norm(x)`: the 2-norm of `x` flattened (Frobenius for a
/// matrix), as a 0-d array of the real dtype (float64 for integers).
/// [`norm_with`] takes `ord`, `axis` and `keepdims`.
///
/// ```no_run
/// use gpu_array::Array;
/// # fn main() -> gpu_linalg::Result<()> {
/// let x = Array::from_slice(&[3.0f64, 4.0], &[2])?;
/// assert_eq!(gpu_linalg::norm(&x)?.to_scalar::<f64>()?, 5.0);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`norm_with`].
pub fn norm(x: &Array) -> Result<Array> {
    norm_with(x, Norm::Default, NormAxis::All, false)
}

/// NumPy's `linalg.norm(x, ord, axis, keepdims)`. Integer input computes
/// in float64; the result is real.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let f = norm_with(&a, Norm::Fro, NormAxis::All, false)?;
/// let rows = norm_with(&a, Norm::Default, NormAxis::One(1), false)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// NumPy's messages for an `ord` or `axis` that does not fit the array
/// ("Improper number of dimensions to norm.", "Invalid norm order 'fro'
/// for vectors", "Duplicate axes given.", axes out of bounds); float16 for
/// the SVD-based orders.
pub fn norm_with(x: &Array, ord: Norm, axis: NormAxis, keepdims: bool) -> Result<Array> {
    let x = if x.dtype().is_inexact() {
        x.clone()
    } else {
        x.astype(DType::Float64)?
    };
    let nd = x.ndim();
    let plan = norm_plan(nd, ord, axis)?;
    let (res, reduced): (Array, Vec<usize>) = match plan {
        NormPlan::Flat => (
            ufunc::sqrt(&sum(&abs2(&x)?, ReduceOptions::default())?)?,
            (0..nd).collect(),
        ),
        NormPlan::Vector(a, o) => {
            let o1 = opts(&[a]);
            let ab = || ufunc::absolute(&x);
            let r = match o {
                Norm::Inf => amax(&ab()?, &o1)?,
                Norm::NegInf => amin(&ab()?, &o1)?,
                Norm::P(0.0) => {
                    let nz = x.not_equal(0)?.astype(x.dtype().real_dtype())?;
                    sum(&nz, &o1)?
                }
                Norm::P(1.0) => sum(&ab()?, &o1)?,
                Norm::Default => ufunc::sqrt(&sum(&abs2(&x)?, &o1)?)?,
                Norm::P(2.0) => ufunc::sqrt(&sum(&abs2(&x)?, &o1)?)?,
                Norm::P(p) => {
                    let s = sum(&ufunc::power(&ab()?, p)?, &o1)?;
                    ufunc::power(&s, 1.0 / p)?
                }
                Norm::Fro | Norm::Nuc => unreachable!("refused by norm_plan"),
            };
            (r, vec![a])
        }
        NormPlan::Matrix(r, c, o) => {
            let res = match o {
                Norm::P(2.0) => amax(&svals(&x, r, c)?, ReduceOptions::axis(-1))?,
                Norm::P(-2.0) => amin(&svals(&x, r, c)?, ReduceOptions::axis(-1))?,
                Norm::Nuc => sum(&svals(&x, r, c)?, ReduceOptions::axis(-1))?,
                Norm::Default | Norm::Fro => ufunc::sqrt(&sum(&abs2(&x)?, opts(&[r, c]))?)?,
                // Max/min column sum (1, -1): sum over rows, then the
                // columns' axis shifts down when it came after.
                Norm::P(p) if p == 1.0 || p == -1.0 => {
                    let cs = sum(&ufunc::absolute(&x)?, opts(&[r]))?;
                    let c2 = if c > r { c - 1 } else { c };
                    if p == 1.0 {
                        amax(&cs, opts(&[c2]))?
                    } else {
                        amin(&cs, opts(&[c2]))?
                    }
                }
                Norm::Inf | Norm::NegInf => {
                    let rs = sum(&ufunc::absolute(&x)?, opts(&[c]))?;
                    let r2 = if r > c { r - 1 } else { r };
                    if o == Norm::Inf {
                        amax(&rs, opts(&[r2]))?
                    } else {
                        amin(&rs, opts(&[r2]))?
                    }
                }
                Norm::P(_) => unreachable!("refused by norm_plan"),
            };
            (res, vec![r, c])
        }
    };
    if !keepdims {
        return Ok(res);
    }
    let shp: Vec<isize> = (0..nd)
        .map(|i| {
            if reduced.contains(&i) {
                1
            } else {
                x.shape()[i] as isize
            }
        })
        .collect();
    res.reshape(&shp)
}

/// NumPy 2's `linalg.vector_norm(x, axis, keepdims, ord)`: the vector norm
/// over the given axes taken together (`None`: all of them), `ord` a
/// number or `Inf`/`NegInf` (`Default` is 2).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let x = array([[3.0, 4.0], [6.0, 8.0]])?;
/// let n = vector_norm(&x, Norm::Default, Some(&[-1]), false)?; // np.linalg.vector_norm(x, axis=-1): [5, 10]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `Fro` or `Nuc`; axes out of range or repeated.
pub fn vector_norm(x: &Array, ord: Norm, axis: Option<&[isize]>, keepdims: bool) -> Result<Array> {
    if matches!(ord, Norm::Fro | Norm::Nuc) {
        return Err(value("Invalid norm order for vectors."));
    }
    let nd = x.ndim();
    let axes: Vec<usize> = match axis {
        None => (0..nd).collect(),
        Some(ax) => {
            let mut v = ax
                .iter()
                .map(|&a| axis_of(a, nd))
                .collect::<Result<Vec<_>>>()?;
            let mut sorted = v.clone();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != v.len() {
                return Err(gpu_array::Error::Axis("repeated axis".into()));
            }
            v.sort_unstable();
            v
        }
    };
    let kept: Vec<usize> = (0..nd).filter(|i| !axes.contains(i)).collect();
    let perm: Vec<isize> = kept.iter().chain(&axes).map(|&i| i as isize).collect();
    let mut shp: Vec<isize> = kept.iter().map(|&i| x.shape()[i] as isize).collect();
    shp.push(-1);
    let flat = if nd == 0 {
        x.reshape([1])?
    } else {
        x.transpose(Some(&perm))?.reshape(&shp)?
    };
    let r = norm_with(&flat, ord, NormAxis::One(-1), false)?;
    if !keepdims {
        return Ok(r);
    }
    let out: Vec<isize> = (0..nd)
        .map(|i| {
            if axes.contains(&i) {
                1
            } else {
                x.shape()[i] as isize
            }
        })
        .collect();
    r.reshape(&out)
}

/// NumPy 2's `linalg.matrix_norm(x, keepdims, ord)`: [`norm`] over the last
/// two axes (`Default` is Frobenius).
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let x = array([[1.0, -2.0], [3.0, 4.0]])?;
/// let n = matrix_norm(&x, Norm::Inf, false)?; // np.linalg.matrix_norm(x, ord=np.inf): 7
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`norm`].
pub fn matrix_norm(x: &Array, ord: Norm, keepdims: bool) -> Result<Array> {
    crate::util::assert_stacked_2d(x)?;
    norm_with(x, ord, NormAxis::Two(-2, -1), keepdims)
}

/// NumPy 2's `linalg.svdvals`: the singular values, descending.
///
/// ```no_run
/// use gpu_array::creation::*;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let s = svdvals(&array([[3.0, 0.0], [0.0, -4.0]])?)?; // np.linalg.svdvals(x): [4, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`svd`].
pub fn svdvals(x: &Array) -> Result<Array> {
    Ok(svd(
        x,
        SvdParams {
            full_matrices: false,
            compute_uv: false,
            driver: SvdDriver::Auto,
            hermitian: false,
        },
    )?
    .s)
}

/// NumPy's `linalg.cond(x, p)`: the condition number of each matrix; for
/// `Default`, `2` and `-2` the ratio of extreme singular values, else
/// `norm(x, p) * norm(inv(x), p)` (square matrices).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let c = cond(&a, Norm::Default)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`norm`] and [`inv`](crate::inv).
pub fn cond(x: &Array, p: Norm) -> Result<Array> {
    crate::util::assert_stacked_2d(x)?;
    let two = NormAxis::Two(-2, -1);
    match p {
        Norm::Default | Norm::P(2.0) | Norm::P(-2.0) => {
            let s = svals(x, x.ndim() - 2, x.ndim() - 1)?;
            let big = amax(&s, ReduceOptions::axis(-1))?;
            let small = amin(&s, ReduceOptions::axis(-1))?;
            Ok(if p == Norm::P(-2.0) {
                ufunc::divide(&small, &big)?
            } else {
                ufunc::divide(&big, &small)?
            })
        }
        _ => {
            crate::util::assert_stacked_square(x)?;
            let inv = crate::decomp::inv(x)?;
            Ok(ufunc::multiply(
                &norm_with(x, p, two, false)?,
                &norm_with(&inv, p, two, false)?,
            )?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string options of the crate, and NumPy's (SciPy's) message for
    /// a wrong one.
    #[test]
    fn string_options_parse() {
        use crate::scipy::Trans;
        use crate::scipy::special::ConvMode;
        use crate::{QrMode, Uplo};
        assert_eq!("fro".parse::<Norm>().unwrap(), Norm::Fro);
        assert_eq!("nuc".parse::<Norm>().unwrap(), Norm::Nuc);
        assert_eq!(
            "NUC".parse::<Norm>().unwrap_err().to_string(),
            "Invalid norm order for matrices."
        );
        assert_eq!("l".parse::<Uplo>().unwrap(), Uplo::L);
        assert_eq!(
            "X".parse::<Uplo>().unwrap_err().to_string(),
            "UPLO argument must be 'L' or 'U'"
        );
        assert_eq!("raw".parse::<QrMode>().unwrap(), QrMode::Raw);
        assert_eq!("full".parse::<QrMode>().unwrap(), QrMode::Reduced);
        assert_eq!(
            "R".parse::<QrMode>().unwrap_err().to_string(),
            "Unrecognized mode 'R'"
        );
        assert_eq!("t".parse::<Trans>().unwrap(), Trans::T);
        assert_eq!("2".parse::<Trans>().unwrap(), Trans::C);
        assert!("X".parse::<Trans>().is_err());
        assert_eq!("valid".parse::<ConvMode>().unwrap(), ConvMode::Valid);
        assert_eq!(
            "Same".parse::<ConvMode>().unwrap_err().to_string(),
            "'mode' argument must be one of ('full', 'valid', 'same')"
        );
    }

    #[test]
    fn plans_and_numpy_errors() {
        assert_eq!(
            norm_plan(3, Norm::Default, NormAxis::All).unwrap(),
            NormPlan::Flat
        );
        assert_eq!(
            norm_plan(1, Norm::Inf, NormAxis::All).unwrap(),
            NormPlan::Vector(0, Norm::Inf)
        );
        assert_eq!(
            norm_plan(2, Norm::Nuc, NormAxis::All).unwrap(),
            NormPlan::Matrix(0, 1, Norm::Nuc)
        );
        assert_eq!(
            norm_plan(3, Norm::P(3.0), NormAxis::One(-1)).unwrap(),
            NormPlan::Vector(2, Norm::P(3.0))
        );
        assert_eq!(
            norm_plan(3, Norm::P(-2.0), NormAxis::Two(2, 0)).unwrap(),
            NormPlan::Matrix(2, 0, Norm::P(-2.0))
        );
        let e = |nd, o, a| norm_plan(nd, o, a).unwrap_err().to_string();
        assert_eq!(
            e(2, Norm::Fro, NormAxis::One(0)),
            "Invalid norm order 'fro' for vectors"
        );
        assert_eq!(
            e(2, Norm::P(3.0), NormAxis::All),
            "Invalid norm order for matrices."
        );
        assert_eq!(
            e(2, Norm::P(1.0), NormAxis::Two(0, -2)),
            "Duplicate axes given."
        );
        assert_eq!(
            e(3, Norm::P(2.0), NormAxis::All),
            "Improper number of dimensions to norm."
        );
        assert_eq!(
            e(3, Norm::Default, NormAxis::One(5)),
            "axis 5 is out of bounds for array of dimension 3"
        );
    }
}
