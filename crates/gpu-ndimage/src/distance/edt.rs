//! `distance_transform_edt`: the exact Euclidean distance transform (the
//! algorithm's notes are in `kernels/distance.cu`).

use gpu_array::{Array, DType, Error, Result};

use super::{check_returns, check_shape, kernels, mask};

/// [`distance_transform_edt_with`]'s options (SciPy's `sampling=`,
/// `return_distances=` and `return_indices=`). Default: unit spacing,
/// distances only.
///
/// ```
/// use gpu_ndimage::EdtOptions;
/// let o = EdtOptions::default().samplings(&[2.0, 1.0]).return_indices(true);
/// assert_eq!(o.sampling, Some(vec![2.0, 1.0]));
/// assert!(o.return_distances && o.return_indices);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct EdtOptions {
    /// The spacing of the elements along each axis: one value for every
    /// axis or one per axis (default: `None`, 1 along every axis).
    pub sampling: Option<Vec<f64>>,
    /// Whether to compute the distances (default `true`).
    pub return_distances: bool,
    /// Whether to compute the feature transform (default `false`).
    pub return_indices: bool,
}

impl Default for EdtOptions {
    fn default() -> Self {
        EdtOptions {
            sampling: None,
            return_distances: true,
            return_indices: false,
        }
    }
}

impl EdtOptions {
    /// Sets one spacing for every axis.
    ///
    /// ```
    /// use gpu_ndimage::EdtOptions;
    /// assert_eq!(EdtOptions::default().sampling(0.5).sampling, Some(vec![0.5]));
    /// ```
    #[must_use]
    pub fn sampling(self, sampling: f64) -> Self {
        self.samplings(&[sampling])
    }

    /// Sets the spacing of each axis (or one value for every axis).
    ///
    /// ```
    /// use gpu_ndimage::EdtOptions;
    /// let o = EdtOptions::default().samplings(&[1.0, 2.5, 2.5]);
    /// assert_eq!(o.sampling, Some(vec![1.0, 2.5, 2.5]));
    /// ```
    #[must_use]
    pub fn samplings(mut self, sampling: &[f64]) -> Self {
        self.sampling = Some(sampling.to_vec());
        self
    }

    /// Sets `return_distances`.
    ///
    /// ```
    /// use gpu_ndimage::EdtOptions;
    /// let o = EdtOptions::default().return_distances(false).return_indices(true);
    /// assert!(!o.return_distances);
    /// ```
    #[must_use]
    pub fn return_distances(mut self, yes: bool) -> Self {
        self.return_distances = yes;
        self
    }

    /// Sets `return_indices`.
    ///
    /// ```
    /// use gpu_ndimage::EdtOptions;
    /// assert!(EdtOptions::default().return_indices(true).return_indices);
    /// ```
    #[must_use]
    pub fn return_indices(mut self, yes: bool) -> Self {
        self.return_indices = yes;
        self
    }
}

/// [`distance_transform_edt_with`]'s results: each present when asked for.
///
/// ```no_run
/// use gpu_ndimage::{EdtOptions, distance_transform_edt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0, 1, 1], [1, 1, 1]])?;
/// let r = distance_transform_edt_with(&x, &EdtOptions::default().return_indices(true))?;
/// let (d, i) = (r.distances.unwrap(), r.indices.unwrap()); // float64 (2, 3); int32 (2, 2, 3)
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Edt {
    /// The distances, float64 of the input's shape.
    pub distances: Option<Array>,
    /// The nearest zero's coordinates, int32 of shape `(ndim, *shape)`:
    /// `indices[k][p]` is coordinate `k` of the feature of `p`.
    pub indices: Option<Array>,
}

/// SciPy's `_normalize_sequence` for `sampling=`: one value for every
/// axis, or one per axis.
fn normalize_sampling(sampling: &[f64], ndim: usize) -> Result<Vec<f64>> {
    match sampling.len() {
        1 => Ok(vec![sampling[0]; ndim]),
        l if l == ndim => Ok(sampling.to_vec()),
        _ => Err(Error::NumpyRuntime(
            "sequence argument must have length equal to input rank".into(),
        )),
    }
}

/// The Euclidean distance from each nonzero element of `input` to the
/// nearest zero element (SciPy's `distance_transform_edt(input)`); zeros
/// get 0. Float64, of the input's shape (a 0-d input gives shape `(1,)`,
/// as SciPy's).
///
/// ```no_run
/// use gpu_ndimage::distance_transform_edt;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0, 1, 1, 1], [0, 0, 1, 1]])?;
/// let d = distance_transform_edt(&x)?; // [[0, 1, 1.414, 2.236], [0, 0, 1, 2]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`distance_transform_edt_with`].
pub fn distance_transform_edt(input: &Array) -> Result<Array> {
    let r = distance_transform_edt_with(input, &EdtOptions::default())?;
    r.distances
        .ok_or_else(|| Error::Value("distance_transform_edt: no distances".into()))
}

/// [`distance_transform_edt`] with SciPy's keywords ([`EdtOptions`]): a
/// spacing per axis, and the feature transform (the coordinates of each
/// element's nearest zero, SciPy's, ties included). Any dtype but complex;
/// strided inputs are copied to C order; up to 16 dimensions.
///
/// An input without any zero gets SciPy's answer: every feature is
/// `(-1, 0, ..., 0)` and the distances are to that point.
///
/// ```no_run
/// use gpu_ndimage::{EdtOptions, distance_transform_edt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1, 1, 1], [1, 0, 1]])?;
/// let opts = EdtOptions::default().samplings(&[2.0, 1.0]).return_indices(true);
/// let r = distance_transform_edt_with(&x, &opts)?;
/// let d = r.distances.unwrap(); // [[2.236, 2, 2.236], [1, 0, 1]]
/// let i = r.indices.unwrap(); // every feature at (1, 1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Both results turned off ("at least one of return_distances/return_indices
/// must be True") or a `sampling` of another length than 1 or the rank
/// ("sequence argument must have length equal to input rank"), in SciPy's
/// words; complex input; more than 16 dimensions or an axis longer than
/// `i32::MAX` (the indices are int32, as SciPy's); allocation, compilation
/// or a launch failed.
pub fn distance_transform_edt_with(input: &Array, opts: &EdtOptions) -> Result<Edt> {
    check_returns(opts.return_distances, opts.return_indices)?;
    let x = mask(input)?;
    // SciPy's np.atleast_1d.
    let shape: Vec<usize> = if x.ndim() == 0 {
        vec![1]
    } else {
        x.shape().to_vec()
    };
    let ndim = shape.len();
    let sampling = opts
        .sampling
        .as_deref()
        .map(|s| normalize_sampling(s, ndim))
        .transpose()?;
    check_shape("distance_transform_edt", &shape)?;
    let n: usize = shape.iter().product();
    let x = x.reshape(&shape)?;
    let mut ft_shape = vec![ndim];
    ft_shape.extend_from_slice(&shape);
    let planes = ndim * n;
    let sampling = sampling
        .map(|s| Array::from_slice(&s, &[ndim]))
        .transpose()?;
    let mut a = Array::empty([planes], DType::Int32)?;
    // The distances when a pass formed them (the exact path's last).
    let mut formed: Option<Array> = None;
    if n > 0 {
        let exact = sampling.is_none() && kernels::exact_fits(&shape);
        let want_dist = || {
            opts.return_distances
                .then(|| Array::empty(&shape[..], DType::Float64))
                .transpose()
        };
        let mut b: Option<Array> = None;
        let mut g: Option<Array> = None;
        // Axis 0 first, as SciPy's recursion runs them.
        let rest = if exact {
            let last = ndim == 1;
            formed = if last { want_dist()? } else { None };
            let ft = (!last || opts.return_indices).then_some(&a);
            kernels::edt_first(&x, &shape, ft, formed.as_ref())?;
            1
        } else {
            kernels::edt_init(&x, &shape, &a)?;
            0
        };
        for axis in rest..ndim {
            let last = axis + 1 == ndim;
            let exact_here = exact && shape[axis] <= kernels::EXACT_MAX_LEN;
            // The exact path's last pass writes features only when they
            // are returned (SciPy's pass always does).
            let keep = !(exact_here && last && !opts.return_indices);
            let out = if keep {
                Some(match b.take() {
                    Some(b) => b,
                    None => Array::empty([planes], DType::Int32)?,
                })
            } else {
                None
            };
            if exact_here {
                formed = if last { want_dist()? } else { None };
                kernels::edt_exact(&a, out.as_ref(), formed.as_ref(), &shape, axis)?;
            } else {
                if g.is_none() {
                    g = Some(Array::empty([n], DType::Int32)?);
                }
                let g = g.as_ref().expect("allocated above");
                let out = out
                    .as_ref()
                    .expect("SciPy's pass always keeps its features");
                kernels::edt_pass(&a, out, g, &shape, axis, sampling.as_ref())?;
                formed = None;
            }
            if let Some(out) = out {
                b = Some(std::mem::replace(&mut a, out));
            }
        }
    }
    let distances = match formed {
        Some(d) => Some(d),
        None if opts.return_distances => {
            Some(kernels::edt_distances(&a, &shape, sampling.as_ref())?)
        }
        None => None,
    };
    let indices = if opts.return_indices {
        Some(a.reshape(&ft_shape)?)
    } else {
        None
    };
    Ok(Edt { distances, indices })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_takes_one_value_or_one_per_axis() {
        assert_eq!(normalize_sampling(&[2.0], 3).unwrap(), [2.0; 3]);
        assert_eq!(normalize_sampling(&[1.0, 2.0], 2).unwrap(), [1.0, 2.0]);
        for bad in [&[1.0, 2.0, 3.0][..], &[]] {
            let e = normalize_sampling(bad, 2).unwrap_err();
            assert_eq!(
                e.to_string(),
                "sequence argument must have length equal to input rank"
            );
        }
    }

    #[test]
    fn options_default_to_scipys() {
        let o = EdtOptions::default();
        assert_eq!(
            (o.sampling, o.return_distances, o.return_indices),
            (None, true, false)
        );
        let o = EdtOptions::default().sampling(3.0).return_distances(false);
        assert_eq!(o.sampling, Some(vec![3.0]));
        assert!(!o.return_distances);
    }
}
