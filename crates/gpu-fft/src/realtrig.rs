//! SciPy's real trigonometric transforms (`scipy.fft.dct`, `dst`, their
//! inverses and n-dimensional forms), types 1 to 4, through the crate's
//! FFTs: each type is one FFT of a (zero-padded, weighted) copy of the
//! input with a twiddle multiply before and after. Lengths follow from
//! the definitions (SciPy's docs): writing `N = 2(n-1)` for DCT-I,
//! `2(n+1)` for DST-I and `2n` otherwise,
//!
//! - DCT-I:   `rfft` of length `N` of `x` weighted `1, 2, ..., 2, 1`, real part;
//! - DCT-II:  `rfft` of length `2n`, times `2 e^{-iπk/2n}`, real part;
//! - DCT-III: inverse FFT of length `2n` of `c_j x_j e^{iπj/2n}`, real part;
//! - DCT-IV:  FFT of length `2n` of `x_j e^{-iπj/2n}`, times `2 e^{-iπ(2k+1)/4n}`, real part;
//! - DST-I:   `rfft` of length `N` of `[0, x]`, `-2` times the imaginary part;
//! - DST-II to IV: as the DCTs, with imaginary parts and indices shifted by one.
//!
//! `norm` scales by `1/N` (forward or backward direction) or `1/sqrt(N)`
//! (`"ortho"`, which also makes the transform orthonormal unless
//! `orthogonalize(false)`, as SciPy's `orthogonalize=`). Complex input is
//! transformed as its real and imaginary parts, as SciPy does.

use num_complex::Complex;

use gpu_array::array::copyto;
use gpu_array::creation::arange_with;
use gpu_array::dtype::Casting;
use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::{FftOptions, Norm};

/// Which family: cosines or sines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Cos,
    Sin,
}

/// Options of the 1-D real trigonometric transforms (SciPy's `type`,
/// `n`, `axis`, `norm` and `orthogonalize`).
///
/// ```no_run
/// use gpu_fft::{DctOptions, Norm};
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;
/// let y = gpu_fft::dct_with(&x, &DctOptions::new().kind(4).norm(Norm::Ortho))?; // dct(x, type=4, norm='ortho')
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DctOptions {
    /// The type, 1 to 4 (2 by default).
    pub kind: u8,
    /// The length the input is cut or zero-padded to.
    pub n: Option<usize>,
    /// The axis (-1 by default).
    pub axis: isize,
    /// The normalization.
    pub norm: Norm,
    /// SciPy's `orthogonalize` (`None`: true exactly for `"ortho"`).
    pub orthogonalize: Option<bool>,
    /// SciPy's `overwrite_x`: accepted, and without effect (a transform
    /// never writes its input; it copies where cuFFT would).
    pub overwrite_x: bool,
    /// SciPy's `workers`: accepted (not 0, as SciPy requires), and
    /// without effect (cuFFT needs no host threads).
    pub workers: Option<isize>,
}

impl Default for DctOptions {
    fn default() -> Self {
        DctOptions {
            kind: 2,
            n: None,
            axis: -1,
            norm: Norm::Backward,
            orthogonalize: None,
            overwrite_x: false,
            workers: None,
        }
    }
}

impl DctOptions {
    /// The defaults: type 2 on the last axis, `norm="backward"`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::DctOptions::new().kind, 2);
    /// ```
    pub fn new() -> DctOptions {
        DctOptions::default()
    }

    /// Sets `n`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::DctOptions::new().n(8).n, Some(8));
    /// ```
    #[must_use]
    pub fn n(mut self, n: usize) -> DctOptions {
        self.n = Some(n);
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::DctOptions::new().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> DctOptions {
        self.axis = axis;
        self
    }
}

/// Options of the n-dimensional forms (`type`, `s`, `axes`, `norm`,
/// `orthogonalize`).
///
/// ```no_run
/// use gpu_fft::DctnOptions;
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((4, 6), gpu_array::DType::Float32)?;
/// let y = gpu_fft::dctn_with(&x, &DctnOptions::new().kind(1).axes(&[1]))?; // dctn(x, type=1, axes=[1])
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct DctnOptions {
    /// The type, 1 to 4 (2 by default).
    pub kind: u8,
    /// Lengths per axis.
    pub s: Option<Vec<usize>>,
    /// The axes (`None`: the last `len(s)`, or all).
    pub axes: Option<Vec<isize>>,
    /// The normalization.
    pub norm: Norm,
    /// SciPy's `orthogonalize`.
    pub orthogonalize: Option<bool>,
    /// SciPy's `overwrite_x`: accepted, and without effect (a transform
    /// never writes its input; it copies where cuFFT would).
    pub overwrite_x: bool,
    /// SciPy's `workers`: accepted (not 0, as SciPy requires), and
    /// without effect (cuFFT needs no host threads).
    pub workers: Option<isize>,
}

impl Default for DctnOptions {
    fn default() -> Self {
        DctnOptions {
            kind: 2,
            s: None,
            axes: None,
            norm: Norm::Backward,
            orthogonalize: None,
            overwrite_x: false,
            workers: None,
        }
    }
}

impl DctnOptions {
    /// The defaults: type 2 over every axis.
    ///
    /// ```
    /// assert!(gpu_fft::DctnOptions::new().axes.is_none());
    /// ```
    pub fn new() -> DctnOptions {
        DctnOptions::default()
    }

    /// Sets `s`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::DctnOptions::new().s(&[4]).s, Some(vec![4]));
    /// ```
    #[must_use]
    pub fn s(mut self, s: &[usize]) -> DctnOptions {
        self.s = Some(s.to_vec());
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::DctnOptions::new().axes(&[0]).axes, Some(vec![0]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> DctnOptions {
        self.axes = Some(axes.to_vec());
        self
    }
}

/// The setters the 1-D and n-dimensional options share.
macro_rules! trig_setters {
    ($ty:ident) => {
        impl $ty {
            /// Sets the type (SciPy's `type=`, 1 to 4).
            ///
            #[doc = concat!("```\nassert_eq!(gpu_fft::", stringify!($ty), "::new().kind(3).kind, 3);\n```")]
            #[must_use]
            pub fn kind(mut self, kind: u8) -> $ty {
                self.kind = kind;
                self
            }

            /// Sets `norm`.
            ///
            #[doc = concat!("```\nuse gpu_fft::Norm;\nassert_eq!(gpu_fft::", stringify!($ty), "::new().norm(Norm::Ortho).norm, Norm::Ortho);\n```")]
            #[must_use]
            pub fn norm(mut self, norm: Norm) -> $ty {
                self.norm = norm;
                self
            }

            /// Sets `orthogonalize`.
            ///
            #[doc = concat!("```\nassert_eq!(gpu_fft::", stringify!($ty), "::new().orthogonalize(false).orthogonalize, Some(false));\n```")]
            #[must_use]
            pub fn orthogonalize(mut self, on: bool) -> $ty {
                self.orthogonalize = Some(on);
                self
            }

            /// Sets SciPy's `overwrite_x` (no effect; see the field).
            ///
            #[doc = concat!("```\nassert!(gpu_fft::", stringify!($ty), "::new().overwrite_x(true).overwrite_x);\n```")]
            #[must_use]
            pub fn overwrite_x(mut self, on: bool) -> $ty {
                self.overwrite_x = on;
                self
            }

            /// Sets SciPy's `workers` (checked, no effect; see the field).
            ///
            #[doc = concat!("```\nassert_eq!(gpu_fft::", stringify!($ty), "::new().workers(4).workers, Some(4));\n```")]
            #[must_use]
            pub fn workers(mut self, workers: isize) -> $ty {
                self.workers = Some(workers);
                self
            }
        }
    };
}

trig_setters!(DctOptions);
trig_setters!(DctnOptions);

/// `x[..., range]` along the last axis.
fn last(x: &Array, start: isize, stop: Option<isize>) -> Result<Array> {
    let mut idx = vec![AxisIndex::FULL; x.ndim()];
    idx[x.ndim() - 1] = AxisIndex::Slice {
        start: Some(start),
        stop,
        step: 1,
    };
    x.slice(&idx)
}

/// `e^{i π (a k + b) / den}` for `k` in `0..len`, of dtype `cdt`.
fn twiddle(len: usize, a: f64, b: f64, den: f64, cdt: DType) -> Result<Array> {
    let k = arange_with(0.0, len as f64, 1.0, Some(DType::Float64))?;
    let theta = ufunc::multiply(
        ufunc::add(ufunc::multiply(&k, a)?, b)?,
        std::f64::consts::PI / den,
    )?;
    crate::cast::in_dtype(
        &ufunc::exp(ufunc::multiply(&theta, Complex::new(0.0, 1.0))?)?,
        cdt,
    )
}

/// Multiplies the last-axis position `at` of `y` by `f` in place.
fn scale_at(y: &Array, at: isize, f: f64) -> Result<()> {
    let v = last(y, at, Some(at + 1))?;
    let s = ufunc::multiply(&v, f)?;
    copyto(&v, &s, Casting::SameKind, None)
}

/// `x` (real, last axis of length `n` after cutting or padding) copied
/// into a new array of length `len` on the last axis, at offset `at`,
/// zeros elsewhere, in dtype `dtype`.
fn placed(x: &Array, len: usize, at: usize, dtype: DType) -> Result<Array> {
    let mut shape = x.shape().to_vec();
    *shape.last_mut().expect("at least 1-d") = len;
    let out = Array::empty_on(x.device(), &shape, dtype, gpu_array::Order::C)?;
    out.fill(0)?;
    let n = x.shape()[x.ndim() - 1];
    copyto(
        &last(&out, at as isize, Some((at + n) as isize))?,
        x,
        Casting::Unsafe,
        None,
    )?;
    Ok(out)
}

/// The unnormalized transform of real `x` along its last axis (of length
/// `n >= 1`, or 2 for DCT-I), in dtype `rdt`, before any scaling.
fn raw(x: &Array, family: Family, kind: u8, rdt: DType) -> Result<Array> {
    let n = x.shape()[x.ndim() - 1];
    let cdt = if rdt == DType::Float32 {
        DType::Complex64
    } else {
        DType::Complex128
    };
    let nf = n as f64;
    let re_or_im = |z: &Array, cos: bool, f: f64| -> Result<Array> {
        let part = if cos { z.real() } else { z.imag()? };
        crate::cast::scaled(&part, f, rdt)
    };
    let cos = family == Family::Cos;
    match kind {
        1 if cos => {
            // DCT-I: weights 1, 2, ..., 2, 1; rfft of length 2(n-1).
            let v = crate::cast::scaled(x, 2.0, rdt)?;
            scale_at(&v, 0, 0.5)?;
            scale_at(&v, n as isize - 1, 0.5)?;
            let y = crate::rfft_with(&v, &FftOptions::new().n(2 * (n - 1)))?;
            re_or_im(&y, true, 1.0)
        }
        1 => {
            // DST-I: [0, x] in an rfft of length 2(n+1); -2 Im at 1..=n.
            let u = placed(x, n + 1, 1, rdt)?;
            let y = crate::rfft_with(&u, &FftOptions::new().n(2 * (n + 1)))?;
            re_or_im(&last(&y, 1, Some(n as isize + 1))?, false, -2.0)
        }
        2 => {
            let v = crate::cast::in_dtype(x, rdt)?;
            let y = crate::rfft_with(&v, &FftOptions::new().n(2 * n))?;
            let (start, off) = if cos { (0, 0.0) } else { (1, 1.0) };
            let w = twiddle(n, -1.0, -off, 2.0 * nf, cdt)?;
            let z = ufunc::multiply(&last(&y, start, Some(start + n as isize))?, &w)?;
            re_or_im(&z, cos, if cos { 2.0 } else { -2.0 })
        }
        3 => {
            // u_m = d_m x e^{iπm/2n} at m = j (cos) or j + 1 (sin), the
            // weight 1 at m = 0 (cos) or m = n (sin), 2 elsewhere.
            let at = usize::from(!cos);
            let u = placed(x, 2 * n, at, cdt)?;
            let body = last(&u, at as isize, Some((at + n) as isize))?;
            let w = twiddle(n, 1.0, at as f64, 2.0 * nf, cdt)?;
            let weighted = ufunc::multiply(ufunc::multiply(&body, &w)?, 2.0)?;
            copyto(&body, &weighted, Casting::SameKind, None)?;
            scale_at(&u, if cos { 0 } else { n as isize }, 0.5)?;
            let y = crate::ifft_with(&u, &FftOptions::new().norm(Norm::Forward))?;
            re_or_im(&last(&y, 0, Some(n as isize))?, cos, 1.0)
        }
        4 => {
            let z0 = placed(x, 2 * n, 0, cdt)?;
            let body = last(&z0, 0, Some(n as isize))?;
            let pre = ufunc::multiply(&body, &twiddle(n, -1.0, 0.0, 2.0 * nf, cdt)?)?;
            copyto(&body, &pre, Casting::SameKind, None)?;
            let z = crate::fft(&z0)?;
            let post = twiddle(n, -2.0, -1.0, 4.0 * nf, cdt)?;
            let y = ufunc::multiply(&last(&z, 0, Some(n as isize))?, &post)?;
            re_or_im(&y, cos, if cos { 2.0 } else { -2.0 })
        }
        other => Err(Error::Value(format!("invalid DCT type {other}"))),
    }
}

/// The `N` of a type's normalization.
fn norm_len(family: Family, kind: u8, n: usize) -> usize {
    match (family, kind) {
        (Family::Cos, 1) => 2 * (n - 1),
        (Family::Sin, 1) => 2 * (n + 1),
        _ => 2 * n,
    }
}

/// One 1-D transform of real or complex `x` along `axis`.
fn transform(x: &Array, family: Family, kind: u8, inverse: bool, o: &DctOptions) -> Result<Array> {
    crate::basic::check_workers(o.workers)?;
    if !(1..=4).contains(&kind) {
        return Err(Error::Value(format!("invalid DCT type {kind}")));
    }
    if x.dtype().is_complex() {
        let re = transform(&x.real(), family, kind, inverse, o)?;
        let im = transform(&x.imag()?, family, kind, inverse, o)?;
        let cdt = if re.dtype() == DType::Float32 {
            DType::Complex64
        } else {
            DType::Complex128
        };
        let out = re.astype(cdt)?;
        copyto(&out.imag()?, &im, Casting::SameKind, None)?;
        return Ok(out);
    }
    let rdt = match x.dtype() {
        DType::Float16 | DType::Float32 => DType::Float32,
        _ => DType::Float64,
    };
    let ax = normalize_axis(o.axis, x.ndim())?;
    let moved = x.moveaxis(&[ax as isize], &[-1])?;
    let len = moved.shape()[moved.ndim() - 1];
    let n = o.n.unwrap_or(len);
    if n < 1 {
        return Err(Error::Value(format!(
            "invalid number of data points ({n}) specified"
        )));
    }
    if family == Family::Cos && kind == 1 && n < 2 {
        return Err(Error::Value(format!(
            "Invalid number of DCT data points ({n}) specified."
        )));
    }
    // Cut or zero-pad to n.
    let v = if n <= len {
        last(&moved, 0, Some(n as isize))?
    } else {
        placed(&moved, n, 0, rdt)?
    };
    // The type the kernel computes: the inverse of 2 is 3 and of 3 is 2.
    let k = match (inverse, kind) {
        (true, 2) => 3,
        (true, 3) => 2,
        _ => kind,
    };
    let big = norm_len(family, kind, n) as f64;
    let factor = match (o.norm, inverse) {
        (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
        (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / big,
        (Norm::Ortho, _) => 1.0 / big.sqrt(),
    };
    let ortho = o.orthogonalize.unwrap_or(o.norm == Norm::Ortho);
    let s2 = std::f64::consts::SQRT_2;
    // Orthogonalization weights the first or last input or output.
    let input = if ortho && matches!(k, 1 | 3) {
        // A copy: the weights are written into it in place.
        let w = v.astype(rdt)?;
        match (family, k) {
            (Family::Cos, 1) => {
                scale_at(&w, 0, s2)?;
                scale_at(&w, n as isize - 1, s2)?;
            }
            (Family::Cos, 3) => scale_at(&w, 0, s2)?,
            (Family::Sin, 3) => scale_at(&w, n as isize - 1, s2)?,
            _ => {}
        }
        w
    } else {
        v
    };
    let y = raw(&input, family, k, rdt)?;
    if ortho {
        match (family, k) {
            (Family::Cos, 1) => {
                scale_at(&y, 0, 1.0 / s2)?;
                scale_at(&y, n as isize - 1, 1.0 / s2)?;
            }
            (Family::Cos, 2) => scale_at(&y, 0, 1.0 / s2)?,
            (Family::Sin, 2) => scale_at(&y, n as isize - 1, 1.0 / s2)?,
            _ => {}
        }
    }
    let y = if factor == 1.0 {
        y
    } else {
        crate::cast::scaled(&y, factor, rdt)?
    };
    y.moveaxis(&[-1], &[ax as isize])
}

fn transform_nd(x: &Array, family: Family, inverse: bool, o: &DctnOptions) -> Result<Array> {
    crate::basic::check_workers(o.workers)?;
    let ndim = x.ndim();
    let axes: Vec<isize> = match (&o.axes, &o.s) {
        (Some(a), _) => a.clone(),
        (None, Some(s)) => (-(s.len() as isize)..0).collect(),
        (None, None) => (0..ndim as isize).collect(),
    };
    if let Some(s) = &o.s
        && s.len() != axes.len()
    {
        return Err(Error::Value(
            "when given, axes and shape arguments have to be of the same length".into(),
        ));
    }
    let norm_axes = axes
        .iter()
        .map(|&a| normalize_axis(a, ndim))
        .collect::<Result<Vec<_>>>()?;
    if norm_axes
        .iter()
        .enumerate()
        .any(|(i, a)| norm_axes[..i].contains(a))
    {
        return Err(Error::Value("all axes must be unique".into()));
    }
    let mut y = x.clone();
    for (i, &a) in axes.iter().enumerate() {
        let one = DctOptions {
            kind: o.kind,
            n: o.s.as_ref().map(|s| s[i]),
            axis: a,
            norm: o.norm,
            orthogonalize: o.orthogonalize,
            overwrite_x: o.overwrite_x,
            workers: o.workers,
        };
        y = transform(&y, family, o.kind, inverse, &one)?;
    }
    if axes.is_empty() {
        y = y.astype(match x.dtype() {
            DType::Float16 | DType::Float32 => DType::Float32,
            DType::Complex64 => DType::Complex64,
            d if d.is_complex() => DType::Complex128,
            _ => DType::Float64,
        })?;
    }
    Ok(y)
}

macro_rules! trig {
    ($(#[$doc:meta])* $short:ident, $with:ident, $opts:ident, $family:expr, $inverse:expr, $example:literal) => {
        $(#[$doc])*
        #[doc = concat!("```no_run\n# fn main() -> gpu_fft::Result<()> {\n", $example, "\n# Ok(()) }\n```")]
        ///
        /// # Errors
        /// SciPy's: a type outside 1..=4 ("invalid DCT type"), a length
        /// below 1 (below 2 for DCT-I), an axis out of range, repeated
        /// axes; cuFFT or the device failed.
        pub fn $short(x: &Array) -> Result<Array> {
            $with(x, &$opts::default())
        }

        #[doc = concat!("[`", stringify!($short), "`] with SciPy's keyword arguments.")]
        ///
        /// ```no_run
        /// # fn main() -> gpu_fft::Result<()> {
        /// let x = gpu_array::creation::arange(8)?.reshape((2, 4))?;
        #[doc = concat!("let y = gpu_fft::", stringify!($with), "(&x, &Default::default())?;")]
        /// # Ok(()) }
        /// ```
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($short), "`].")]
        pub fn $with(x: &Array, options: &$opts) -> Result<Array> {
            options.run(x, $family, $inverse)
        }
    };
}

/// The 1-D and n-dimensional options run their own form.
trait TrigOptions {
    fn run(&self, x: &Array, family: Family, inverse: bool) -> Result<Array>;
}

impl TrigOptions for DctOptions {
    fn run(&self, x: &Array, family: Family, inverse: bool) -> Result<Array> {
        transform(x, family, self.kind, inverse, self)
    }
}

impl TrigOptions for DctnOptions {
    fn run(&self, x: &Array, family: Family, inverse: bool) -> Result<Array> {
        transform_nd(x, family, inverse, self)
    }
}

trig!(
    /// SciPy's `fft.dct(x)`: the discrete cosine transform (type 2 by
    /// default) along the last axis.
    dct, dct_with, DctOptions, Family::Cos, false,
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet y = gpu_fft::dct(&x)?; // [20, -6.31, 0, -0.45]"
);
trig!(
    /// SciPy's `fft.idct(x)`: the inverse of [`dct`] of the same type.
    idct, idct_with, DctOptions, Family::Cos, true,
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet back = gpu_fft::idct(&gpu_fft::dct(&x)?)?; // x again"
);
trig!(
    /// SciPy's `fft.dst(x)`: the discrete sine transform (type 2 by
    /// default) along the last axis.
    dst, dst_with, DctOptions, Family::Sin, false,
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet y = gpu_fft::dst(&x)?;"
);
trig!(
    /// SciPy's `fft.idst(x)`: the inverse of [`dst`] of the same type.
    idst, idst_with, DctOptions, Family::Sin, true,
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet back = gpu_fft::idst(&gpu_fft::dst(&x)?)?;"
);
trig!(
    /// SciPy's `fft.dctn(x)`: [`dct`] over every axis (or `axes`).
    dctn, dctn_with, DctnOptions, Family::Cos, false,
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float64)?;\nlet y = gpu_fft::dctn(&x)?; // 64 at [0, 0]"
);
trig!(
    /// SciPy's `fft.idctn(x)`: the inverse of [`dctn`].
    idctn, idctn_with, DctnOptions, Family::Cos, true,
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float64)?;\nlet y = gpu_fft::idctn(&x)?;"
);
trig!(
    /// SciPy's `fft.dstn(x)`: [`dst`] over every axis (or `axes`).
    dstn, dstn_with, DctnOptions, Family::Sin, false,
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float32)?;\nlet y = gpu_fft::dstn(&x)?;"
);
trig!(
    /// SciPy's `fft.idstn(x)`: the inverse of [`dstn`].
    idstn, idstn_with, DctnOptions, Family::Sin, true,
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float32)?;\nlet y = gpu_fft::idstn(&x)?;"
);
