//! `distance_transform_cdt`: the chamfer distance transform, SciPy's two
//! raster scans as fixed points of relaxation sweeps (the notes are in
//! `kernels/distance.cu`).

use gpu_array::{Array, DType, Error, Result};

use crate::measurements::structure::binary_structure;

use super::{check_returns, check_shape, kernels, mask};

/// Which steps the chamfer distance counts (SciPy's `metric=`).
///
/// ```
/// use gpu_ndimage::CdtMetric;
/// assert_eq!(CdtMetric::named("cityblock").unwrap(), CdtMetric::Taxicab);
/// assert_eq!(CdtMetric::default(), CdtMetric::Chessboard);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub enum CdtMetric<'a> {
    /// Every neighbour, diagonals included, is one step (SciPy's
    /// `'chessboard'`, its default): the L-infinity distance.
    #[default]
    Chessboard,
    /// The neighbours along the axes are one step (SciPy's `'taxicab'`,
    /// `'cityblock'`, `'manhattan'`): the L1 distance.
    Taxicab,
    /// A structuring element: an array of the input's rank, 3 a side,
    /// nonzero at the neighbours that are one step. As SciPy's scans,
    /// only its elements before the centre in C order count, each in both
    /// directions.
    Structure(&'a Array),
}

/// Structures compare by identity (the same array), not by value.
impl PartialEq for CdtMetric<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (CdtMetric::Chessboard, CdtMetric::Chessboard)
            | (CdtMetric::Taxicab, CdtMetric::Taxicab) => true,
            (CdtMetric::Structure(a), CdtMetric::Structure(b)) => std::ptr::eq(*a, *b),
            _ => false,
        }
    }
}

impl CdtMetric<'_> {
    /// The metric SciPy calls `name`: `"chessboard"`, or `"taxicab"`,
    /// `"cityblock"`, `"manhattan"`.
    ///
    /// ```
    /// use gpu_ndimage::CdtMetric;
    /// assert_eq!(CdtMetric::named("chessboard").unwrap(), CdtMetric::Chessboard);
    /// assert!(CdtMetric::named("euclidean").is_err());
    /// ```
    ///
    /// # Errors
    /// Any other name ("invalid metric provided", SciPy's words).
    pub fn named(name: &str) -> Result<CdtMetric<'static>> {
        match name {
            "chessboard" => Ok(CdtMetric::Chessboard),
            "taxicab" | "cityblock" | "manhattan" => Ok(CdtMetric::Taxicab),
            _ => Err(Error::Value("invalid metric provided".into())),
        }
    }
}

/// [`distance_transform_cdt_with`]'s options (SciPy's `metric=`,
/// `return_distances=` and `return_indices=`). Default: chessboard,
/// distances only.
///
/// ```
/// use gpu_ndimage::{CdtMetric, CdtOptions};
/// let o = CdtOptions::default().metric(CdtMetric::Taxicab).return_indices(true);
/// assert_eq!(o.metric, CdtMetric::Taxicab);
/// assert!(o.return_distances && o.return_indices);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CdtOptions<'a> {
    /// The steps counted (default [`CdtMetric::Chessboard`]).
    pub metric: CdtMetric<'a>,
    /// Whether to compute the distances (default `true`).
    pub return_distances: bool,
    /// Whether to compute the feature transform (default `false`).
    pub return_indices: bool,
}

impl Default for CdtOptions<'_> {
    fn default() -> Self {
        CdtOptions {
            metric: CdtMetric::Chessboard,
            return_distances: true,
            return_indices: false,
        }
    }
}

impl<'a> CdtOptions<'a> {
    /// Sets `metric`.
    ///
    /// ```no_run
    /// use gpu_ndimage::{CdtMetric, CdtOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = gpu_ndimage::generate_binary_structure(2, 1)?; // the cross: taxicab
    /// let o = CdtOptions::default().metric(CdtMetric::Structure(&s));
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn metric(mut self, metric: CdtMetric<'a>) -> Self {
        self.metric = metric;
        self
    }

    /// Sets `return_distances`.
    ///
    /// ```
    /// use gpu_ndimage::CdtOptions;
    /// let o = CdtOptions::default().return_distances(false).return_indices(true);
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
    /// use gpu_ndimage::CdtOptions;
    /// assert!(CdtOptions::default().return_indices(true).return_indices);
    /// ```
    #[must_use]
    pub fn return_indices(mut self, yes: bool) -> Self {
        self.return_indices = yes;
        self
    }
}

/// [`distance_transform_cdt_with`]'s results: each present when asked for.
///
/// ```no_run
/// use gpu_ndimage::{CdtOptions, distance_transform_cdt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0, 1, 1], [1, 1, 1]])?;
/// let r = distance_transform_cdt_with(&x, &CdtOptions::default().return_indices(true))?;
/// let (d, i) = (r.distances.unwrap(), r.indices.unwrap()); // int32 (2, 3); int32 (2, 2, 3)
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Cdt {
    /// The distances, int32 of the input's shape (-1 where no zero is
    /// reachable).
    pub distances: Option<Array>,
    /// The nearest zero's coordinates, int32 of shape `(ndim, *shape)`.
    pub indices: Option<Array>,
}

/// The offsets of the structure's set elements before its centre, in C
/// order (the neighbours SciPy's forward scan reads; the backward scan
/// reads their negatives).
fn half_offsets(structure: &[bool], ndim: usize) -> Vec<Vec<i64>> {
    structure
        .iter()
        .take(structure.len() / 2)
        .enumerate()
        .filter(|&(_, &b)| b)
        .map(|(mut i, _)| {
            let mut o = vec![0i64; ndim];
            for d in (0..ndim).rev() {
                o[d] = (i % 3) as i64 - 1;
                i /= 3;
            }
            o
        })
        .collect()
}

/// The metric's structure for an input of rank `ndim`, checked.
fn structure(metric: CdtMetric<'_>, ndim: usize) -> Result<Vec<bool>> {
    match metric {
        CdtMetric::Chessboard => Ok(binary_structure(ndim, ndim)),
        CdtMetric::Taxicab => Ok(binary_structure(ndim, 1)),
        CdtMetric::Structure(s) => {
            if s.shape().iter().any(|&d| d != 3) {
                return Err(Error::Value("metric sizes must be equal to 3".into()));
            }
            if s.ndim() != ndim {
                return Err(Error::Value(format!(
                    "metric and input must have equal rank ({} and {ndim})",
                    s.ndim()
                )));
            }
            if s.dtype().is_complex() {
                return Err(Error::DType("Complex type not supported".into()));
            }
            s.astype(DType::Bool)?.to_vec::<bool>()
        }
    }
}

/// The chessboard distance from each nonzero element of `input` to the
/// nearest zero element (SciPy's `distance_transform_cdt(input)`): the
/// fewest steps to any of the 3^ndim - 1 neighbours. Int32 of the input's
/// shape; -1 everywhere when the input has no zero.
///
/// ```no_run
/// use gpu_ndimage::distance_transform_cdt;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0, 1, 1, 1], [1, 1, 1, 1]])?;
/// let d = distance_transform_cdt(&x)?; // [[0, 1, 2, 3], [1, 1, 2, 3]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`distance_transform_cdt_with`].
pub fn distance_transform_cdt(input: &Array) -> Result<Array> {
    let r = distance_transform_cdt_with(input, &CdtOptions::default())?;
    r.distances
        .ok_or_else(|| Error::Value("distance_transform_cdt: no distances".into()))
}

/// [`distance_transform_cdt`] with SciPy's keywords ([`CdtOptions`]): the
/// metric, and the feature transform. Distances and indices are SciPy's,
/// ties included: its forward and backward raster scans are each run to
/// their fixed point on the device. Any dtype but complex; strided inputs
/// are copied to C order; up to 16 dimensions. A 0-d input gives a 0-d
/// distance and indices of shape `(0,)` (SciPy's call fails there).
///
/// ```no_run
/// use gpu_ndimage::{CdtMetric, CdtOptions, distance_transform_cdt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[0, 1, 1], [1, 1, 1]])?;
/// let opts = CdtOptions::default().metric(CdtMetric::Taxicab).return_indices(true);
/// let r = distance_transform_cdt_with(&x, &opts)?;
/// let d = r.distances.unwrap(); // [[0, 1, 2], [1, 2, 3]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Both results turned off ("at least one of return_distances/return_indices
/// must be True") or a structure with a side other than 3 ("metric sizes
/// must be equal to 3"), in SciPy's words; a structure of another rank
/// than the input's (SciPy reads past its shape there); complex input;
/// more than 16 dimensions or an axis longer than `i32::MAX`; allocation,
/// compilation or a launch failed.
pub fn distance_transform_cdt_with(input: &Array, opts: &CdtOptions<'_>) -> Result<Cdt> {
    check_returns(opts.return_distances, opts.return_indices)?;
    let x = mask(input)?;
    let out_shape = x.shape().to_vec();
    let ndim = out_shape.len();
    // The rank first: the structure has 3^ndim elements.
    check_shape("distance_transform_cdt", &out_shape)?;
    let structure = structure(opts.metric, ndim)?;
    let offsets = half_offsets(&structure, ndim);
    // A 0-d input is one element without neighbours.
    let (shape, offsets) = if ndim == 0 {
        (vec![1], Vec::new())
    } else {
        (out_shape.clone(), offsets)
    };
    let n: usize = shape.iter().product();
    let x = x.reshape(&shape)?;
    let want_f = opts.return_indices;
    let df = Array::empty([n], DType::Int32)?;
    let ff = if want_f {
        Some(Array::empty([n], DType::Int64)?)
    } else {
        None
    };
    kernels::cdt_init(&x, &df, ff.as_ref())?;
    kernels::Scan {
        init: None,
        dist: &df,
        f: ff.as_ref(),
        shape: &shape,
        offsets: &offsets,
        sign: 1,
    }
    .run()?;
    let d = df.copy()?;
    let f = ff.as_ref().map(Array::copy).transpose()?;
    kernels::Scan {
        init: Some((&df, ff.as_ref())),
        dist: &d,
        f: f.as_ref(),
        shape: &shape,
        offsets: &offsets,
        sign: -1,
    }
    .run()?;
    drop((df, ff));
    let indices = match f {
        Some(f) if ndim == 0 => {
            drop(f);
            Some(Array::empty([0], DType::Int32)?)
        }
        Some(f) => {
            let mut ft_shape = vec![ndim];
            ft_shape.extend_from_slice(&shape);
            Some(kernels::cdt_indices(&f, &shape)?.reshape(&ft_shape)?)
        }
        None => None,
    };
    let distances = if opts.return_distances {
        Some(d.reshape(&out_shape)?)
    } else {
        None
    };
    Ok(Cdt { distances, indices })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_metrics_are_scipys() {
        assert_eq!(CdtMetric::named("taxicab").unwrap(), CdtMetric::Taxicab);
        assert_eq!(CdtMetric::named("manhattan").unwrap(), CdtMetric::Taxicab);
        let e = CdtMetric::named("foo").unwrap_err();
        assert_eq!(e.to_string(), "invalid metric provided");
    }

    #[test]
    fn structures_match_generate_binary_structure() {
        let cross = [false, true, false, true, true, true, false, true, false];
        assert_eq!(binary_structure(2, 1), cross);
        assert_eq!(binary_structure(2, 2), [true; 9]);
        assert_eq!(binary_structure(1, 1), [true; 3]);
        assert_eq!(binary_structure(0, 0), [true]);
        let b3 = binary_structure(3, 1);
        assert_eq!(b3.iter().filter(|&&b| b).count(), 7);
        assert_eq!(binary_structure(3, 2).iter().filter(|&&b| b).count(), 19);
    }

    #[test]
    fn half_offsets_are_the_neighbours_before_the_centre() {
        // Taxicab in 2-D: up, then left (SciPy's forward scan's order).
        assert_eq!(
            half_offsets(&binary_structure(2, 1), 2),
            [vec![-1, 0], vec![0, -1]]
        );
        assert_eq!(
            half_offsets(&binary_structure(2, 2), 2),
            [vec![-1, -1], vec![-1, 0], vec![-1, 1], vec![0, -1]]
        );
        assert_eq!(half_offsets(&binary_structure(1, 1), 1), [vec![-1]]);
        // The centre and everything after it is ignored.
        let mut s = vec![false; 9];
        s[4] = true;
        s[8] = true;
        assert!(half_offsets(&s, 2).is_empty());
        // 3-D chessboard: the 13 lexicographically negative offsets.
        let h = half_offsets(&binary_structure(3, 3), 3);
        assert_eq!(h.len(), 13);
        assert!(h.iter().all(|o| o.iter().find(|&&c| c != 0) == Some(&-1)));
    }
}
