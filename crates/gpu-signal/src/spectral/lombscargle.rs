//! SciPy's `lombscargle`: the generalized Lomb-Scargle periodogram of
//! unevenly sampled data (Zechmeister & Kürster 2009, "The generalised
//! Lomb-Scargle periodogram", A&A 496, 577; the equation numbers in
//! `kernels/lombscargle.cuh` are theirs, as SciPy's comments cite them),
//! with SciPy 1.15's weights, floating mean and normalizations.
//!
//! One thread per frequency sums over every sample twice (first for the
//! phase offset, then for the amplitudes), in double as SciPy computes;
//! the weights' checks, their normalization and the two sums that do not
//! depend on the frequency run as array operations.

use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::{Array, DType, Error, Result, ufunc};

const LOMB_CUH: &str = include_str!("../kernels/lombscargle.cuh");

/// What [`lombscargle_with`] returns (SciPy's `normalize=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LombNormalize {
    /// SciPy's `False` or `'power'`: the legacy power, `(A^2) N / 4`.
    #[default]
    Power,
    /// SciPy's `True` or `'normalize'`: the power relative to the whole
    /// signal's, in `[0, 1]`.
    Normalize,
    /// SciPy's `'amplitude'`: the complex amplitude `(a + ib) e^{i tau}`
    /// of the best-fit sinusoid (complex128).
    Amplitude,
}

gpu_array::from_numpy_str!(LombNormalize, Error, else: |_s| Error::Value(
    "Normalize must be: False (or 'power'), True (or 'normalize'), or 'amplitude'.".into()
), {
    "power" => LombNormalize::Power,
    "normalize" => LombNormalize::Normalize,
    "amplitude" => LombNormalize::Amplitude,
});

/// SciPy's keywords of `lombscargle`.
///
/// ```
/// use gpu_signal::{LombNormalize, LombscargleOptions};
/// let o = LombscargleOptions::default().normalize(LombNormalize::Normalize).floating_mean(true);
/// assert!(o.floating_mean);
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct LombscargleOptions<'a> {
    /// `normalize=`.
    pub normalize: LombNormalize,
    /// `weights=`: one non-negative weight per sample (`None`: equal).
    pub weights: Option<&'a Array>,
    /// `floating_mean=`: fit an offset with each sinusoid.
    pub floating_mean: bool,
    /// `precenter=` (deprecated in SciPy 1.17): subtract `y`'s mean first.
    pub precenter: bool,
}

impl<'a> LombscargleOptions<'a> {
    /// Sets `normalize=`.
    ///
    /// ```
    /// use gpu_signal::{LombNormalize, LombscargleOptions};
    /// let o = LombscargleOptions::default().normalize("amplitude".parse::<LombNormalize>().unwrap());
    /// assert_eq!(o.normalize, LombNormalize::Amplitude);
    /// ```
    #[must_use]
    pub fn normalize(mut self, normalize: LombNormalize) -> Self {
        self.normalize = normalize;
        self
    }

    /// Sets `weights=`.
    ///
    /// ```no_run
    /// use gpu_signal::LombscargleOptions;
    /// # fn main() -> gpu_array::Result<()> {
    /// let w = gpu_array::Array::from_slice(&[1.0f64, 2.0, 1.0], &[3])?;
    /// let o = LombscargleOptions::default().weights(&w);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn weights(mut self, weights: &'a Array) -> Self {
        self.weights = Some(weights);
        self
    }

    /// Sets `floating_mean=`.
    ///
    /// ```
    /// let o = gpu_signal::LombscargleOptions::default().floating_mean(true);
    /// assert!(o.floating_mean);
    /// ```
    #[must_use]
    pub fn floating_mean(mut self, floating_mean: bool) -> Self {
        self.floating_mean = floating_mean;
        self
    }

    /// Sets `precenter=` (SciPy deprecates it: pass `y - y.mean()`, or
    /// use [`floating_mean`](Self::floating_mean)).
    ///
    /// ```
    /// let o = gpu_signal::LombscargleOptions::default().precenter(true);
    /// assert!(o.precenter);
    /// ```
    #[must_use]
    pub fn precenter(mut self, precenter: bool) -> Self {
        self.precenter = precenter;
        self
    }
}

/// SciPy's `lombscargle(x, y, freqs)`: the Lomb-Scargle periodogram of
/// the samples `y` taken at times `x`, at the angular frequencies `freqs`
/// (float64, in power units).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::lombscargle;
/// # fn main() -> gpu_array::Result<()> {
/// let t: Vec<f64> = (0..100).map(|k| k as f64 * 0.37 + (k % 7) as f64 * 0.05).collect();
/// let y: Vec<f64> = t.iter().map(|t| (2.0 * t).sin()).collect();
/// let (x, y) = (Array::from_slice(&t, &[100])?, Array::from_slice(&y, &[100])?);
/// let w = gpu_array::creation::linspace(0.5, 4.0, 200)?;
/// let p = lombscargle(&x, &y, &w)?; // its peak near 2 rad/s
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lombscargle_with`].
pub fn lombscargle(x: &Array, y: &Array, freqs: &Array) -> Result<Array> {
    lombscargle_with(x, y, freqs, &LombscargleOptions::default())
}

/// [`lombscargle`] with SciPy's `normalize=`, `weights=`, `floating_mean=`
/// and `precenter=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::{LombNormalize, LombscargleOptions, lombscargle_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[0.0f64, 0.7, 1.1, 2.9, 3.4], &[5])?;
/// let y = Array::from_slice(&[1.0f64, 0.2, -0.4, 0.9, 0.1], &[5])?;
/// let f = Array::from_slice(&[0.5f64, 1.0, 2.0], &[3])?;
/// let o = LombscargleOptions::default().normalize(LombNormalize::Amplitude).floating_mean(true);
/// let amp = lombscargle_with(&x, &y, &f, &o)?; // complex128
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's `ValueError`s in its words: `x`, `y` and the weights not 1-D of
/// one non-zero length ("Parameters x, y, weights must be 1-D arrays of
/// equal non-zero length!"), `freqs` not 1-D and non-empty, a negative
/// weight or weights summing to 0; complex inputs (SciPy casts to float64
/// and drops the imaginary part with a warning; Cuprum refuses them);
/// allocation or launch failures. The weights' check reads one flag back
/// to the host, as SciPy's does.
pub fn lombscargle_with(
    x: &Array,
    y: &Array,
    freqs: &Array,
    opts: &LombscargleOptions<'_>,
) -> Result<Array> {
    for (name, a) in [
        ("x", Some(x)),
        ("y", Some(y)),
        ("freqs", Some(freqs)),
        ("weights", opts.weights),
    ] {
        if a.is_some_and(|a| a.dtype().is_complex()) {
            return Err(Error::DType(format!(
                "lombscargle: {name} is complex ({}); it takes real values",
                a.map_or("", |a| a.dtype().name())
            )));
        }
    }
    let n = x.size();
    let same = |a: &Array| a.ndim() == 1 && a.size() == n;
    if !(x.ndim() == 1 && n > 0 && same(y) && opts.weights.is_none_or(same)) {
        return Err(Error::Value(
            "Parameters x, y, weights must be 1-D arrays of equal non-zero length!".into(),
        ));
    }
    if !(freqs.ndim() == 1 && freqs.size() > 0) {
        return Err(Error::Value(
            "Parameter freqs must be a 1-D array of non-zero length!".into(),
        ));
    }
    let f64s = |a: &Array| a.astype(DType::Float64);
    // The kernel reads `x` through a plain pointer: C order.
    let x = f64s(x)?;
    let x = if x.is_c_contiguous() { x } else { x.copy()? };
    let freqs = f64s(freqs)?;
    let mut y = f64s(y)?;
    let w = match opts.weights {
        Some(w) => f64s(w)?,
        None => gpu_array::creation::ones(n, DType::Float64)?,
    };
    let total = w.sum(())?;
    let nonneg = ufunc::greater_equal(&w, 0.0)?.all(())?;
    let ok = ufunc::logical_and(&nonneg, &ufunc::greater(&total, 0.0)?)?;
    if !ok.to_scalar::<bool>()? {
        return Err(Error::Value(
            "Parameter weights must have only non-negative entries which sum to a positive \
             value!"
                .into(),
        ));
    }
    let w = ufunc::multiply(&w, &ufunc::divide(1.0, &total)?)?;
    if opts.precenter {
        y = ufunc::subtract(&y, &y.mean(())?)?;
    }
    let wy = ufunc::multiply(&w, &y)?;
    // [Y, YY] = [sum w y, sum w y^2], on the device for the kernel.
    let stat =
        gpu_array::manipulation::stack(&[&wy.sum(())?, &ufunc::multiply(&wy, &y)?.sum(())?], 0)?;
    let out_dt = if opts.normalize == LombNormalize::Amplitude {
        DType::Complex128
    } else {
        DType::Float64
    };
    let out = Array::empty(freqs.shape(), out_dt)?;
    let n_i64 = i64::try_from(n).map_err(|_| Error::TooBig)?;
    lomb_kernel(
        (&freqs).into(),
        [(&x).into(), (&w).into(), (&wy).into(), (&stat).into()],
        (&out).into(),
        n_i64,
        opts.floating_mean,
        opts.normalize,
    )
    .launch(out.shape())?;
    Ok(out)
}

/// The per-frequency kernel; `raw` = x, w, wy (length `n`, the kernel's
/// `npts`) and stat = [Y, YY].
pub(crate) fn lomb_kernel<'a>(
    freqs: Bind<'a>,
    raw: [Bind<'a>; 4],
    out: Bind<'a>,
    n: i64,
    floating: bool,
    normalize: LombNormalize,
) -> Elementwise<'a> {
    let [x, w, wy, stat] = raw;
    // The name says the normalization: a kernel's name and operand
    // dtypes decide its operation text (the builder's cache rule).
    let (name, finish) = match normalize {
        LombNormalize::Power => (
            "cuprum_signal_lombscargle_power",
            "out = r.power * ((double)npts / 4.0);",
        ),
        LombNormalize::Normalize => (
            "cuprum_signal_lombscargle_normalize",
            "const double yy = floating ? stat[1] - stat[0] * stat[0] : stat[1];\n\
             out = r.power * (0.5 / yy);",
        ),
        LombNormalize::Amplitude => (
            "cuprum_signal_lombscargle_amplitude",
            "double st, ct;\n\
             sincos(r.tau, &st, &ct);\n\
             out = out_type(r.a * ct - r.b * st, r.a * st + r.b * ct);",
        ),
    };
    Elementwise::new(name)
        .input("f", freqs)
        .raw("x", x)
        .raw("w", w)
        .raw("wy", wy)
        .raw("stat", stat)
        // `n` is the generated code's element count (a reserved name).
        .scalar("npts", DType::Int64, n)
        .scalar("floating", DType::Bool, floating)
        .output("out", out)
        .op(format!(
            "const cuprum_sig::Lomb r = cuprum_sig::lombscargle(f, &x[0], &w[0], &wy[0], \
             &stat[0], npts, floating);\n{finish}"
        ))
        .preamble(LOMB_CUH)
}
