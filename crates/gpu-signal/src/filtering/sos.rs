//! `sosfilt` (a cascade of second-order sections, each section a pass of
//! the blocked recursion over the whole signal) and `sosfilt_zi`.

use gpu_array::{Array, AxisIndex, DType, Error, Result};
use num_complex::Complex64;

use super::fixed_scan::{Recursion, scan_rows, takes};
use super::iir::{lfilter_rows, upload};
use super::lfilter::lfilter_zi_host;
use super::{check_axis, filter_dtype, from_rows, host_values, to_rows};

/// SciPy's keywords of [`sosfilt_with`]: `axis` (default -1) and the
/// initial states `zi` (default none: zero, and no final states).
///
/// ```
/// use gpu_signal::SosfiltOptions;
/// assert_eq!(SosfiltOptions::default().axis(0).axis, 0);
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SosfiltOptions {
    /// The axis along which the signals run.
    pub axis: isize,
    /// The initial states, `(n_sections, ..., 2, ...)`: `x`'s shape with 2
    /// along `axis`, after a first axis of sections.
    pub zi: Option<Array>,
}

impl Default for SosfiltOptions {
    fn default() -> Self {
        SosfiltOptions { axis: -1, zi: None }
    }
}

impl SosfiltOptions {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::SosfiltOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets the initial states `zi` (the final states are then returned).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// # fn main() -> gpu_array::Result<()> {
    /// let zi = Array::zeros([3, 2], DType::Float64)?; // 3 sections, 1-D x
    /// let o = gpu_signal::SosfiltOptions::default().zi(&zi);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn zi(mut self, zi: &Array) -> Self {
        self.zi = Some(zi.clone());
        self
    }
}

/// SciPy's `_validate_sos`: the sections on the host, row by row.
pub(crate) fn validate_sos(sos: &Array) -> Result<Vec<[Complex64; 6]>> {
    let (sections, m) = match sos.shape() {
        [m] => (1, *m),
        [s, m] => (*s, *m),
        _ => return Err(Error::Value("sos array must be 2D".into())),
    };
    if m != 6 {
        return Err(Error::Value(
            "sos array must be shape (n_sections, 6)".into(),
        ));
    }
    let v = host_values(sos)?;
    let rows: Vec<[Complex64; 6]> = (0..sections)
        .map(|s| std::array::from_fn(|k| v[s * 6 + k]))
        .collect();
    if rows.iter().any(|r| r[3] != Complex64::new(1.0, 0.0)) {
        return Err(Error::Value("sos[:, 3] should be all ones".into()));
    }
    Ok(rows)
}

/// SciPy's `sosfilt(sos, x)` along the last axis from the zero state:
/// the cascade of the second-order sections `sos` (`(n_sections, 6)`,
/// rows `b0 b1 b2 1 a1 a2`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{butter_with, IirOptions, Output, sosfilt};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = butter_with(8, &[0.1], &IirOptions::default().output(Output::Sos))?.into_sos()?;
/// let x = gpu_array::creation::ones([1 << 20], DType::Float64)?;
/// let y = sosfilt(&sos, &x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`sosfilt_with`].
pub fn sosfilt(sos: &Array, x: &Array) -> Result<Array> {
    Ok(sosfilt_with(sos, x, &SosfiltOptions::default())?.0)
}

/// [`sosfilt`] with SciPy's `axis=` and `zi=`: the output and, when `zi`
/// was given, the final states (shaped as `zi`). Each section is one
/// pass of the parallel recursion of [`lfilter_with`](crate::lfilter_with) (the same rounding
/// remarks apply); the dtype is `result_type(sos, x, zi)`.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{SosfiltOptions, sosfilt_with};
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 2.0, 1.0, 1.0, -0.5, 0.1], &[1, 6])?;
/// let x = gpu_array::creation::ones([5, 100], DType::Float64)?;
/// let zi = Array::zeros([1, 5, 2], DType::Float64)?;
/// let (y, zf) = sosfilt_with(&sos, &x, &SosfiltOptions::default().zi(&zi))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `sos` not of shape `(n_sections, 6)` ("sos array must be
/// shape (n_sections, 6)"), `sos[:, 3]` not all ones, `x` of no
/// dimension ("x must be at least 1-D"), a `zi` of the wrong shape
/// ("Invalid zi shape. With axis=-1, an input with shape (100,), and an
/// sos array with 2 sections, zi must have shape (2, 2), got (2,)."),
/// operands whose result type is not float or complex (`Unsupported`).
pub fn sosfilt_with(
    sos: &Array,
    x: &Array,
    opts: &SosfiltOptions,
) -> Result<(Array, Option<Array>)> {
    if x.ndim() == 0 {
        return Err(Error::Value("x must be at least 1-D".into()));
    }
    let sections = validate_sos(sos)?;
    let mut dts = vec![sos.dtype(), x.dtype()];
    if let Some(z) = &opts.zi {
        dts.push(z.dtype());
    }
    let dt = filter_dtype(&dts)?;
    let axis = check_axis(opts.axis, x.ndim())?;
    let mut zshape = x.shape().to_vec();
    zshape[axis] = 2;
    zshape.insert(0, sections.len());
    if let Some(z) = &opts.zi
        && z.shape() != zshape.as_slice()
    {
        let tuple = |s: &[usize]| {
            let v: Vec<String> = s.iter().map(|d| d.to_string()).collect();
            if v.len() == 1 {
                format!("({},)", v[0])
            } else {
                format!("({})", v.join(", "))
            }
        };
        return Err(Error::Value(format!(
            "Invalid zi shape. With axis={}, an input with shape {}, and an sos array with {} \
             sections, zi must have shape {}, got {}.",
            opts.axis,
            tuple(x.shape()),
            sections.len(),
            tuple(&zshape),
            tuple(z.shape())
        )));
    }
    if takes(&Recursion::Cascade(&sections), dt) {
        return sosfilt_cascade(&sections, x, axis, dt, opts.zi.as_ref());
    }
    let (mut rows, shape) = to_rows(x, axis, dt)?;
    let mut zfs = Vec::new();
    for (s, sec) in sections.iter().enumerate() {
        let zi = match &opts.zi {
            Some(z) => Some(to_rows(&z.slice(&[AxisIndex::Index(s as isize)])?, axis, dt)?.0),
            None => None,
        };
        let (y, zf) = lfilter_rows(&sec[..3], &sec[3..], &rows, zi.as_ref(), zi.is_some())?;
        rows = y;
        if let Some(zf) = zf {
            zfs.push(from_rows(&zf, &shape, axis)?);
        }
    }
    let y = from_rows(&rows, &shape, axis)?;
    let zf = if opts.zi.is_some() {
        let refs: Vec<&Array> = zfs.iter().collect();
        Some(gpu_array::manipulation::stack(&refs, 0)?)
    } else {
        None
    };
    Ok((y, zf))
}

/// [`sosfilt_with`] through the whole cascade at once
/// (`fixed_scan`); the caller has checked `zi`'s shape.
fn sosfilt_cascade(
    sections: &[[Complex64; 6]],
    x: &Array,
    axis: usize,
    dt: DType,
    zi: Option<&Array>,
) -> Result<(Array, Option<Array>)> {
    let last = axis + 1 == x.ndim();
    // The kernels read a float32 signal as it is (no cast's pass).
    let (rows, shape) = to_rows(x, axis, super::fixed_scan::input_dtype(x.dtype(), dt))?;
    let zi = match zi {
        Some(z) => {
            let per: Vec<Array> = (0..sections.len())
                .map(|s| Ok(to_rows(&z.slice(&[AxisIndex::Index(s as isize)])?, axis, dt)?.0))
                .collect::<Result<_>>()?;
            let refs: Vec<&Array> = per.iter().collect();
            Some(gpu_array::manipulation::stack(&refs, 0)?)
        }
        None => None,
    };
    let rec = Recursion::Cascade(sections);
    let (y, zf) = scan_rows(&rec, &rows, dt, zi.as_ref(), zi.is_some())?;
    let y = if last {
        y.reshape(&shape[..])?
    } else {
        from_rows(&y, &shape, axis)?
    };
    let zf = match zf {
        Some(z) => {
            let per: Vec<Array> = (0..sections.len())
                .map(|s| from_rows(&z.slice(&[AxisIndex::Index(s as isize)])?, &shape, axis))
                .collect::<Result<_>>()?;
            let refs: Vec<&Array> = per.iter().collect();
            Some(gpu_array::manipulation::stack(&refs, 0)?)
        }
        None => None,
    };
    Ok((y, zf))
}

/// SciPy's `sosfilt_zi(sos)`: the initial states (`(n_sections, 2)`) of
/// [`sosfilt`] for the steady state of the step response, computed on the
/// host (float64 for integer `sos`, else its dtype).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::sosfilt_zi;
/// # fn main() -> gpu_array::Result<()> {
/// let sos = Array::from_slice(&[1.0f64, 2.0, 1.0, 1.0, -0.5, 0.1], &[1, 6])?;
/// let zi = sosfilt_zi(&sos)?; // (1, 2)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `sos` not of shape `(n_sections, 6)` ("sos must be shape
/// (n_sections, 6)"); as [`lfilter_zi`](crate::lfilter_zi).
pub fn sosfilt_zi(sos: &Array) -> Result<Array> {
    if sos.ndim() != 2 || sos.shape()[1] != 6 {
        return Err(Error::Value("sos must be shape (n_sections, 6)".into()));
    }
    let v = host_values(sos)?;
    let rows: Vec<[Complex64; 6]> = v.chunks(6).map(|c| std::array::from_fn(|k| c[k])).collect();
    let zi = sosfilt_zi_host(&rows)?;
    let dt = match sos.dtype() {
        d if d.is_complex() || d == DType::Float32 => d,
        _ => DType::Float64,
    };
    upload(&zi, dt)?.reshape(&[rows.len(), 2][..])
}

/// [`sosfilt_zi`] on the host: `2 * n_sections` values.
pub(crate) fn sosfilt_zi_host(sos: &[[Complex64; 6]]) -> Result<Vec<Complex64>> {
    let mut scale = Complex64::new(1.0, 0.0);
    let mut out = Vec::with_capacity(sos.len() * 2);
    for sec in sos {
        let (b, a) = (&sec[..3], &sec[3..]);
        let mut zi = lfilter_zi_host(b, a)?;
        zi.resize(2, Complex64::new(0.0, 0.0));
        out.extend(zi.iter().map(|v| v * scale));
        scale *= b.iter().sum::<Complex64>() / a.iter().sum::<Complex64>();
    }
    Ok(out)
}
