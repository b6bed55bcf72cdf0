//! `scipy.signal.wiener`: the adaptive local-statistics filter, composed
//! as SciPy composes it (local means and variances by correlation with a
//! box, then one elementwise pass).

use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::{ConvolveOptions, Mode, correlate_with};

/// SciPy's `wiener` with a 3 x ... x 3 window and the noise power
/// estimated as the mean of the local variances.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::wiener;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float64)?;
/// let y = wiener(&img)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`wiener_with`].
pub fn wiener(im: &Array) -> Result<Array> {
    wiener_with(im, &[3], None)
}

/// SciPy's `wiener(im, mysize, noise)`: with local mean `m` and variance
/// `v` over the window `mysize` (one side or one per axis), the result is
/// `m` where `v < noise` and `m + (1 - noise / v) (im - m)` elsewhere;
/// `noise` defaults to the mean of `v` (read back to the host). float64
/// results, as SciPy's.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::wiener_with;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float64)?;
/// let y = wiener_with(&img, &[5, 5], Some(0.1))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// A window list of the wrong length; as the correlations'.
pub fn wiener_with(im: &Array, mysize: &[usize], noise: Option<f64>) -> Result<Array> {
    let sizes: Vec<usize> = match mysize {
        [k] => vec![*k; im.ndim()],
        k if k.len() == im.ndim() => k.to_vec(),
        _ => {
            return Err(Error::Value(
                "mysize must have one element or one per dimension".into(),
            ));
        }
    };
    let size: usize = sizes.iter().product();
    let ones = gpu_array::creation::ones(sizes, DType::Float64)?;
    let same = ConvolveOptions::default().mode(Mode::Same);
    let lsize = size as f64;
    let l_mean = ufunc::divide(&correlate_with(im, &ones, &same)?, lsize)?;
    let sq = ufunc::multiply(im, im)?;
    let l_var = ufunc::subtract(
        &ufunc::divide(&correlate_with(&sq, &ones, &same)?, lsize)?,
        &ufunc::multiply(&l_mean, &l_mean)?,
    )?;
    let noise = match noise {
        Some(n) => n,
        None => gpu_array::stats::mean(&l_var, ())?
            .astype(DType::Float64)?
            .to_vec::<f64>()?[0],
    };
    let res = ufunc::subtract(im, &l_mean)?;
    let gain = ufunc::subtract(1.0, &ufunc::divide(noise, &l_var)?)?;
    let res = ufunc::add(&ufunc::multiply(&res, &gain)?, &l_mean)?;
    let low = ufunc::less(&l_var, noise)?;
    gpu_array::indexing::where_(&low, &l_mean, &res)
}
