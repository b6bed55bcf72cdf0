//! The keywords the filters share (SciPy's `output=`, `mode=`, `cval=`,
//! `origin=`, `axes=`) as one [`FilterOptions`], the window of the
//! footprint filters ([`Window`]: `size=` or `footprint=`) and the Gaussian
//! kernel's own keywords ([`Gaussian`]).
//!
//! Every filter comes as a short function with SciPy's defaults and a
//! `_with` variant taking these: `gaussian_filter(&x, 2.0)` is SciPy's
//! `gaussian_filter(x, 2)`, and
//! `gaussian_filter_with(&x, &Gaussian::new(2.0).order(1), &FilterOptions::default().mode(Mode::Nearest))`
//! its `gaussian_filter(x, 2, order=1, mode='nearest')`.

use gpu_array::{Array, DType, Error, Result};

use crate::{Mode, Output};

/// SciPy's keywords shared by the filters: where the result goes, how the
/// input is read past its edges, where the window sits and which axes it
/// spans. SciPy's defaults: a new array of the input's dtype, `reflect`,
/// `cval=0`, `origin=0`, every axis.
///
/// `mode` and `origin` hold one value for every axis or one per filtered
/// axis, as SciPy's sequences. A filter without one of these keywords in
/// SciPy (`prewitt` has no `origin=`, the 1-D filters no `axes=`) refuses
/// a value other than the default rather than ignore it.
///
/// ```
/// use gpu_ndimage::{FilterOptions, Mode};
/// let o = FilterOptions::default().mode(Mode::Nearest).cval(1.5).origins(&[0, 1]);
/// assert_eq!((o.mode.as_slice(), o.cval, o.origin.as_slice()), (&[Mode::Nearest][..], 1.5, &[0, 1][..]));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FilterOptions<'a> {
    /// Where the result goes (default: a new array of the input's dtype).
    pub output: Output<'a>,
    /// The boundary mode: one for every axis, or one per filtered axis
    /// (separable filters only). Default `[Mode::Reflect]`.
    pub mode: Vec<Mode>,
    /// The value past the edges for the constant modes (default 0).
    pub cval: f64,
    /// The window's shift: one for every axis or one per filtered axis
    /// (default `[0]`).
    pub origin: Vec<i64>,
    /// The axes to filter (default: every axis).
    pub axes: Option<Vec<isize>>,
}

impl Default for FilterOptions<'_> {
    fn default() -> Self {
        FilterOptions {
            output: Output::None,
            mode: vec![Mode::Reflect],
            cval: 0.0,
            origin: vec![0],
            axes: None,
        }
    }
}

impl<'a> FilterOptions<'a> {
    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{FilterOptions, Output};
    /// let o = FilterOptions::default().output(Output::DType(DType::Float32));
    /// assert!(matches!(o.output, Output::DType(DType::Float32)));
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output<'a>) -> Self {
        self.output = output;
        self
    }

    /// Sets `output` to a new array of `dtype` (SciPy's `output=dtype`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{FilterOptions, Output};
    /// let o = FilterOptions::default().dtype(DType::Float64);
    /// assert!(matches!(o.output, Output::DType(DType::Float64)));
    /// ```
    #[must_use]
    pub fn dtype(self, dtype: DType) -> Self {
        self.output(Output::DType(dtype))
    }

    /// Sets `output` to `array`, which the filter overwrites (SciPy's
    /// `output=array`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_ndimage::{FilterOptions, uniform_filter_with};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
    /// let out = Array::empty([3], DType::Float64)?;
    /// uniform_filter_with(&x, &[3], &FilterOptions::default().out(&out))?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out(self, array: &'a Array) -> Self {
        self.output(Output::Array(array))
    }

    /// Sets one `mode` for every axis.
    ///
    /// ```
    /// use gpu_ndimage::{FilterOptions, Mode};
    /// assert_eq!(FilterOptions::default().mode(Mode::Wrap).mode, [Mode::Wrap]);
    /// ```
    #[must_use]
    pub fn mode(self, mode: Mode) -> Self {
        self.modes(&[mode])
    }

    /// Sets one mode per filtered axis (separable filters).
    ///
    /// ```
    /// use gpu_ndimage::{FilterOptions, Mode};
    /// let o = FilterOptions::default().modes(&[Mode::Wrap, Mode::Constant]);
    /// assert_eq!(o.mode, [Mode::Wrap, Mode::Constant]);
    /// ```
    #[must_use]
    pub fn modes(mut self, modes: &[Mode]) -> Self {
        self.mode = modes.to_vec();
        self
    }

    /// Sets `cval`.
    ///
    /// ```
    /// use gpu_ndimage::FilterOptions;
    /// assert_eq!(FilterOptions::default().cval(-1.0).cval, -1.0);
    /// ```
    #[must_use]
    pub fn cval(mut self, cval: f64) -> Self {
        self.cval = cval;
        self
    }

    /// Sets one `origin` for every axis.
    ///
    /// ```
    /// use gpu_ndimage::FilterOptions;
    /// assert_eq!(FilterOptions::default().origin(-1).origin, [-1]);
    /// ```
    #[must_use]
    pub fn origin(self, origin: i64) -> Self {
        self.origins(&[origin])
    }

    /// Sets one origin per filtered axis.
    ///
    /// ```
    /// use gpu_ndimage::FilterOptions;
    /// assert_eq!(FilterOptions::default().origins(&[1, 0]).origin, [1, 0]);
    /// ```
    #[must_use]
    pub fn origins(mut self, origins: &[i64]) -> Self {
        self.origin = origins.to_vec();
        self
    }

    /// Sets `axes` (negative values count from the end).
    ///
    /// ```
    /// use gpu_ndimage::FilterOptions;
    /// assert_eq!(FilterOptions::default().axes(&[-1]).axes, Some(vec![-1]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> Self {
        self.axes = Some(axes.to_vec());
        self
    }

    /// `axes` as the `Option<&[isize]>` the checks take.
    pub(crate) fn axes_slice(&self) -> Option<&[isize]> {
        self.axes.as_deref()
    }

    /// The one mode of a function that takes one (SciPy's 1-D filters).
    pub(crate) fn one_mode(&self, func: &str) -> Result<Mode> {
        match self.mode.as_slice() {
            [m] => Ok(*m),
            _ => Err(Error::Value(format!(
                "{func} takes one mode, not a sequence"
            ))),
        }
    }

    /// The one origin of a function that takes one (SciPy's 1-D filters).
    pub(crate) fn one_origin(&self, func: &str) -> Result<i64> {
        match self.origin.as_slice() {
            [o] => Ok(*o),
            _ => Err(Error::Value(format!(
                "{func} takes one origin, not a sequence"
            ))),
        }
    }

    /// Refuses what `func` has no keyword for (SciPy's `TypeError` for an
    /// unexpected keyword argument), instead of ignoring it.
    pub(crate) fn refuse(&self, func: &str, origin: bool, axes: bool) -> Result<()> {
        let unexpected = |kw: &str| {
            Err(Error::Value(format!(
                "{func}() got an unexpected keyword argument '{kw}'"
            )))
        };
        if origin && self.origin.iter().any(|&o| o != 0) {
            return unexpected("origin");
        }
        if axes && self.axes.is_some() {
            return unexpected("axes");
        }
        Ok(())
    }
}

/// The window of the footprint filters: a box of `size` (SciPy's `size=`,
/// one side for every axis or one per filtered axis) or the true elements
/// of `footprint` (SciPy's `footprint=`, which wins when SciPy is given
/// both).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{Window, median_filter};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange(25)?.reshape((5, 5))?;
/// let cross = Array::from_slice(&[false, true, false, true, true, true, false, true, false], &[3, 3])?;
/// let a = median_filter(&x, Window::Size(&[3]))?;
/// let b = median_filter(&x, Window::Footprint(&cross))?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub enum Window<'a> {
    /// A box, one side or one per filtered axis.
    Size(&'a [usize]),
    /// A footprint of the filtered axes' rank; nonzero elements count.
    Footprint(&'a Array),
}

impl<'a> Window<'a> {
    /// SciPy's `(size, footprint)` pair.
    pub(crate) fn parts(self) -> (Option<&'a [usize]>, Option<&'a Array>) {
        match self {
            Window::Size(s) => (Some(s), None),
            Window::Footprint(f) => (None, Some(f)),
        }
    }
}

/// The Gaussian kernel of [`gaussian_filter`](crate::gaussian_filter) and
/// its relatives: the standard deviation, the derivative's order and where
/// the kernel is cut (SciPy's `sigma=`, `order=`, `truncate=`, `radius=`).
/// `sigma`, `order` and `radius` hold one value for every axis or one per
/// filtered axis.
///
/// ```
/// use gpu_ndimage::Gaussian;
/// let g = Gaussian::new(2.0).order(1).truncate(3.0);
/// assert_eq!((g.sigma.as_slice(), g.order.as_slice(), g.truncate), (&[2.0][..], &[1][..], 3.0));
/// let g = Gaussian::sigmas(&[1.0, 2.5]).radii(&[3, 4]);
/// assert_eq!(g.radius, Some(vec![3, 4]));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Gaussian {
    /// The standard deviations.
    pub sigma: Vec<f64>,
    /// The orders of the derivatives, 0 (the Gaussian) and up (default 0).
    pub order: Vec<i64>,
    /// The kernel's half-width in standard deviations (default 4).
    pub truncate: f64,
    /// The kernel's half-width in elements, overriding `truncate`.
    pub radius: Option<Vec<i64>>,
}

impl Gaussian {
    /// The Gaussian of standard deviation `sigma` along every axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.5).sigma, [1.5]);
    /// ```
    pub fn new(sigma: f64) -> Gaussian {
        Gaussian::sigmas(&[sigma])
    }

    /// The Gaussian of one standard deviation per filtered axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::sigmas(&[1.0, 2.0]).sigma, [1.0, 2.0]);
    /// ```
    pub fn sigmas(sigma: &[f64]) -> Gaussian {
        Gaussian {
            sigma: sigma.to_vec(),
            order: vec![0],
            truncate: 4.0,
            radius: None,
        }
    }

    /// Sets one derivative order for every axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.0).order(2).order, [2]);
    /// ```
    #[must_use]
    pub fn order(self, order: i64) -> Gaussian {
        self.orders(&[order])
    }

    /// Sets one derivative order per filtered axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.0).orders(&[0, 1]).order, [0, 1]);
    /// ```
    #[must_use]
    pub fn orders(mut self, orders: &[i64]) -> Gaussian {
        self.order = orders.to_vec();
        self
    }

    /// Sets `truncate`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.0).truncate(2.0).truncate, 2.0);
    /// ```
    #[must_use]
    pub fn truncate(mut self, truncate: f64) -> Gaussian {
        self.truncate = truncate;
        self
    }

    /// Sets one radius for every axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.0).radius(3).radius, Some(vec![3]));
    /// ```
    #[must_use]
    pub fn radius(self, radius: i64) -> Gaussian {
        self.radii(&[radius])
    }

    /// Sets one radius per filtered axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Gaussian::new(1.0).radii(&[2, 5]).radius, Some(vec![2, 5]));
    /// ```
    #[must_use]
    pub fn radii(mut self, radii: &[i64]) -> Gaussian {
        self.radius = Some(radii.to_vec());
        self
    }

    /// The one sigma, order and radius of a 1-D filter.
    pub(crate) fn one(&self) -> Result<(f64, i64, Option<i64>)> {
        let one = |what: &str| {
            Error::Value(format!(
                "gaussian_filter1d takes one {what}, not a sequence"
            ))
        };
        let sigma = match self.sigma.as_slice() {
            [s] => *s,
            _ => return Err(one("sigma")),
        };
        let order = match self.order.as_slice() {
            [o] => *o,
            _ => return Err(one("order")),
        };
        let radius = match self.radius.as_deref() {
            None => None,
            Some([r]) => Some(*r),
            Some(_) => return Err(one("radius")),
        };
        Ok((sigma, order, radius))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_refuse_what_a_filter_has_no_keyword_for() {
        let o = FilterOptions::default();
        o.refuse("prewitt", true, true).unwrap();
        let e = o.clone().origin(1).refuse("prewitt", true, true);
        assert_eq!(
            e.unwrap_err().to_string(),
            "prewitt() got an unexpected keyword argument 'origin'"
        );
        let e = o.clone().axes(&[0]).refuse("sobel", true, true);
        assert_eq!(
            e.unwrap_err().to_string(),
            "sobel() got an unexpected keyword argument 'axes'"
        );
        o.clone().axes(&[0]).refuse("laplace", true, false).unwrap();
        assert!(
            o.clone()
                .modes(&[Mode::Wrap, Mode::Nearest])
                .one_mode("f")
                .is_err()
        );
        assert_eq!(o.one_origin("f").unwrap(), 0);
    }

    #[test]
    fn a_1d_gaussian_takes_one_of_each() {
        assert_eq!(Gaussian::new(2.0).one().unwrap(), (2.0, 0, None));
        assert_eq!(
            Gaussian::new(2.0).order(1).radius(3).one().unwrap(),
            (2.0, 1, Some(3))
        );
        assert!(Gaussian::sigmas(&[1.0, 2.0]).one().is_err());
        assert!(Gaussian::new(1.0).orders(&[0, 1]).one().is_err());
    }
}
