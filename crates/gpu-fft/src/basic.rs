//! `numpy.fft`'s transforms: the complex ones (`fft`, `ifft`, `fftn`, ...),
//! the real ones (`rfft`, `irfft`, ...) and the Hermitian ones (`hfft`,
//! `ihfft`), with NumPy 2's dtypes, lengths, axes, norms and errors.
//!
//! Dtypes (NumPy 2): float16, float32 and complex64 transform in single
//! precision (complex64 results), everything else in double (bool and
//! integers promote to float64/complex128). `irfft`'s real result takes
//! the input's real dtype: float32 from complex64, float16 from float16.
//!
//! Each call makes at most one copy of its input, and only when it must:
//! to cast, to zero-pad, for a layout cuFFT cannot address, or because
//! cuFFT's complex-to-real transforms overwrite their input (unless the
//! caller's `overwrite_x` gives up an input already in cuFFT's layout).
//! When a copy is made the norm's factor is applied in it; otherwise a
//! scaled norm costs one pass over the result.

use gpu_array::array::copyto;
use gpu_array::dtype::Casting;
use gpu_array::layout::{AxisIndex, normalize_axis};
use gpu_array::ufunc::{self, Input, UfuncOptions};
use gpu_array::{Array, DType, Error, Result};

use crate::exec;
use crate::explicit::{FftPlan, with_plan};
use crate::layout;
use crate::norm::Norm;

/// Options of the 1-D transforms (`n`, `axis`, `norm`, `out`).
///
/// ```no_run
/// use gpu_fft::{FftOptions, Norm};
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::arange(8)?.reshape((2, 4))?;
/// let y = gpu_fft::fft_with(&x, &FftOptions::new().n(8).axis(0).norm(Norm::Ortho))?; // np.fft.fft(x, n=8, axis=0, norm='ortho')
/// assert_eq!(y.shape(), &[8, 4]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FftOptions<'a> {
    /// The transform's length along `axis` (`None`: the input's); the
    /// input is cut or zero-padded to it.
    pub n: Option<usize>,
    /// The axis (negative counts from the end; -1 by default).
    pub axis: isize,
    /// The normalization.
    pub norm: Norm,
    /// An array to write the result into.
    pub out: Option<&'a Array>,
    /// An explicit plan ([`get_fft_plan`](crate::get_fft_plan)) the call must use.
    pub plan: Option<&'a FftPlan>,
    /// SciPy's `overwrite_x`: the input's contents may be destroyed. The
    /// complex-to-real transforms (`irfft`, `irfftn`, `irfft2`) then hand
    /// cuFFT the input itself as the work area it overwrites, instead of a
    /// copy, where the input already is what that copy would be: of the
    /// transform's complex dtype, C-contiguous with the transformed axes
    /// last, neither cut nor padded, and no `out=`. Elsewhere it has no
    /// effect (other transforms never write their input).
    pub overwrite_x: bool,
    /// SciPy's `workers`: accepted (not 0, as SciPy requires), and
    /// without effect (cuFFT needs no host threads).
    pub workers: Option<isize>,
}

impl Default for FftOptions<'_> {
    fn default() -> Self {
        FftOptions {
            n: None,
            axis: -1,
            norm: Norm::Backward,
            out: None,
            plan: None,
            overwrite_x: false,
            workers: None,
        }
    }
}

impl<'a> FftOptions<'a> {
    /// The defaults: the input's length, the last axis, `norm="backward"`.
    ///
    /// ```
    /// let o = gpu_fft::FftOptions::new();
    /// assert_eq!((o.n, o.axis), (None, -1));
    /// ```
    pub fn new() -> FftOptions<'a> {
        FftOptions::default()
    }

    /// Sets `n`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftOptions::new().n(16).n, Some(16));
    /// ```
    #[must_use]
    pub fn n(mut self, n: usize) -> FftOptions<'a> {
        self.n = Some(n);
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftOptions::new().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> FftOptions<'a> {
        self.axis = axis;
        self
    }

    /// Sets `norm`.
    ///
    /// ```
    /// use gpu_fft::{FftOptions, Norm};
    /// assert_eq!(FftOptions::new().norm(Norm::Forward).norm, Norm::Forward);
    /// ```
    #[must_use]
    pub fn norm(mut self, norm: Norm) -> FftOptions<'a> {
        self.norm = norm;
        self
    }

    /// Sets `out`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::*};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let (x, out) = (zeros(8, DType::Complex64)?, empty(8, DType::Complex64)?);
    /// gpu_fft::fft_with(&x, &gpu_fft::FftOptions::new().out(&out))?; // np.fft.fft(x, out=out)
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out(mut self, out: &'a Array) -> FftOptions<'a> {
        self.out = Some(out);
        self
    }

    /// Sets `plan` (CuPy's `plan=`).
    ///
    /// ```no_run
    /// use gpu_fft::{FftOptions, Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones(1024, gpu_array::DType::Complex64)?;
    /// let plan = get_fft_plan(&x, Transform::Fft, &Default::default())?;
    /// let y = gpu_fft::ifft_with(&x, &FftOptions::new().plan(&plan))?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn plan(mut self, plan: &'a FftPlan) -> FftOptions<'a> {
        self.plan = Some(plan);
        self
    }

    /// Sets SciPy's `overwrite_x` (see the field: irfft may destroy its
    /// input instead of copying it).
    ///
    /// ```
    /// assert!(gpu_fft::FftOptions::new().overwrite_x(true).overwrite_x);
    /// ```
    #[must_use]
    pub fn overwrite_x(mut self, on: bool) -> FftOptions<'a> {
        self.overwrite_x = on;
        self
    }

    /// Sets SciPy's `workers` (checked, no effect; see the field).
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftOptions::new().workers(-1).workers, Some(-1));
    /// ```
    #[must_use]
    pub fn workers(mut self, workers: isize) -> FftOptions<'a> {
        self.workers = Some(workers);
        self
    }
}

/// Options of the n-dimensional transforms (`s`, `axes`, `norm`, `out`).
///
/// ```no_run
/// use gpu_fft::FftnOptions;
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::zeros((4, 6, 8), gpu_array::DType::Float32)?;
/// let y = gpu_fft::fftn_with(&x, &FftnOptions::new().axes(&[0, 2]).s(&[8, 8]))?; // np.fft.fftn(x, s=(8, 8), axes=(0, 2))
/// assert_eq!(y.shape(), &[8, 6, 8]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct FftnOptions<'a> {
    /// Lengths per transform axis (`None`: the input's).
    pub s: Option<Vec<usize>>,
    /// The axes (`None`: the last `len(s)`, or all).
    pub axes: Option<Vec<isize>>,
    /// The normalization.
    pub norm: Norm,
    /// An array to write the result into.
    pub out: Option<&'a Array>,
    /// An explicit plan ([`get_fft_plan`](crate::get_fft_plan)) the call must use.
    pub plan: Option<&'a FftPlan>,
    /// SciPy's `overwrite_x`, as [`FftOptions::overwrite_x`].
    pub overwrite_x: bool,
    /// SciPy's `workers`: accepted (not 0, as SciPy requires), and
    /// without effect (cuFFT needs no host threads).
    pub workers: Option<isize>,
}

impl<'a> FftnOptions<'a> {
    /// The defaults: every axis at the input's lengths, `norm="backward"`.
    ///
    /// ```
    /// assert!(gpu_fft::FftnOptions::new().axes.is_none());
    /// ```
    pub fn new() -> FftnOptions<'a> {
        FftnOptions::default()
    }

    /// Sets `s`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftnOptions::new().s(&[4, 4]).s, Some(vec![4, 4]));
    /// ```
    #[must_use]
    pub fn s(mut self, s: &[usize]) -> FftnOptions<'a> {
        self.s = Some(s.to_vec());
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftnOptions::new().axes(&[-2, -1]).axes, Some(vec![-2, -1]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> FftnOptions<'a> {
        self.axes = Some(axes.to_vec());
        self
    }

    /// Sets `norm`.
    ///
    /// ```
    /// use gpu_fft::{FftnOptions, Norm};
    /// assert_eq!(FftnOptions::new().norm(Norm::Ortho).norm, Norm::Ortho);
    /// ```
    #[must_use]
    pub fn norm(mut self, norm: Norm) -> FftnOptions<'a> {
        self.norm = norm;
        self
    }

    /// Sets `out`.
    ///
    /// ```no_run
    /// use gpu_array::{DType, creation::*};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let (x, out) = (zeros((4, 4), DType::Complex128)?, empty((4, 4), DType::Complex128)?);
    /// gpu_fft::fftn_with(&x, &gpu_fft::FftnOptions::new().out(&out))?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out(mut self, out: &'a Array) -> FftnOptions<'a> {
        self.out = Some(out);
        self
    }

    /// Sets `plan` (CuPy's `plan=`).
    ///
    /// ```no_run
    /// use gpu_fft::{FftnOptions, Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones((64, 64), gpu_array::DType::Complex64)?;
    /// let plan = get_fft_plan(&x, Transform::Fft, &Default::default())?;
    /// let y = gpu_fft::fft2_with(&x, &FftnOptions::new().plan(&plan))?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn plan(mut self, plan: &'a FftPlan) -> FftnOptions<'a> {
        self.plan = Some(plan);
        self
    }

    /// Sets SciPy's `overwrite_x` (see the field: irfft may destroy its
    /// input instead of copying it).
    ///
    /// ```
    /// assert!(gpu_fft::FftnOptions::new().overwrite_x(true).overwrite_x);
    /// ```
    #[must_use]
    pub fn overwrite_x(mut self, on: bool) -> FftnOptions<'a> {
        self.overwrite_x = on;
        self
    }

    /// Sets SciPy's `workers` (checked, no effect; see the field).
    ///
    /// ```
    /// assert_eq!(gpu_fft::FftnOptions::new().workers(-1).workers, Some(-1));
    /// ```
    #[must_use]
    pub fn workers(mut self, workers: isize) -> FftnOptions<'a> {
        self.workers = Some(workers);
        self
    }

    fn two_d(&self) -> FftnOptions<'a> {
        let mut o = self.clone();
        if o.axes.is_none() {
            o.axes = Some(vec![-2, -1]);
        }
        o
    }
}

impl<'a> From<&FftOptions<'a>> for FftnOptions<'a> {
    fn from(o: &FftOptions<'a>) -> FftnOptions<'a> {
        FftnOptions {
            s: o.n.map(|n| vec![n]),
            axes: Some(vec![o.axis]),
            norm: o.norm,
            out: o.out,
            plan: o.plan,
            overwrite_x: o.overwrite_x,
            workers: o.workers,
        }
    }
}

fn invalid_points(n: usize) -> Error {
    Error::Value(format!(
        "Invalid number of FFT data points ({n}) specified."
    ))
}

/// NumPy's `_cook_nd_args`: the lengths and normalized axes of an
/// n-dimensional transform (`invreal`: the last length defaults to
/// `2 * (m - 1)`, as the inverse real transforms want).
fn cook(a: &Array, o: &FftnOptions<'_>, invreal: bool) -> Result<(Vec<usize>, Vec<usize>)> {
    check_workers(o.workers)?;
    let ndim = a.ndim();
    let raw_axes: Vec<isize> = match (&o.axes, &o.s) {
        (Some(ax), _) => ax.clone(),
        (None, Some(s)) => (-(s.len() as isize)..0).collect(),
        (None, None) => (-(ndim as isize)..0).collect(),
    };
    if let Some(s) = &o.s
        && s.len() != raw_axes.len()
    {
        return Err(Error::Value(
            "Shape and axes have different lengths.".into(),
        ));
    }
    let axes = raw_axes
        .iter()
        .map(|&ax| normalize_axis(ax, ndim))
        .collect::<Result<Vec<usize>>>()?;
    let lens: Vec<usize> = match &o.s {
        Some(s) => s.clone(),
        None => {
            let mut l: Vec<usize> = axes.iter().map(|&ax| a.shape()[ax]).collect();
            if invreal && let (Some(last), Some(&ax)) = (l.last_mut(), axes.last()) {
                *last = a.shape()[ax].saturating_sub(1) * 2;
            }
            l
        }
    };
    if let Some(&bad) = lens.iter().find(|&&n| n < 1) {
        return Err(invalid_points(bad));
    }
    Ok((lens, axes))
}

/// NumPy's error for a size that cannot exist.
pub(crate) fn too_big() -> Error {
    Error::Value(
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size."
            .into(),
    )
}

/// The points of one transform, the product of its lengths (checked: `s`
/// is the caller's).
pub(crate) fn points(lens: &[usize]) -> Result<usize> {
    lens.iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n))
        .filter(|&t| t <= isize::MAX as usize / 16)
        .ok_or_else(too_big)
}

/// SciPy's check of `workers`: any count but zero.
pub(crate) fn check_workers(workers: Option<isize>) -> Result<()> {
    if workers == Some(0) {
        return Err(Error::Value("workers must not be zero".into()));
    }
    Ok(())
}

fn distinct(axes: &[usize]) -> bool {
    axes.iter().enumerate().all(|(i, a)| !axes[..i].contains(a))
}

/// The complex dtype NumPy 2 computes `dtype` in.
fn complex_of(dtype: DType) -> DType {
    match dtype {
        DType::Float16 | DType::Float32 | DType::Complex64 => DType::Complex64,
        _ => DType::Complex128,
    }
}

/// The real dtype of that precision.
fn real_of(dtype: DType) -> DType {
    match complex_of(dtype) {
        DType::Complex64 => DType::Float32,
        _ => DType::Float64,
    }
}

/// `irfft`'s result dtype: `result_type(a.real.dtype, 1.0)`.
fn irfft_result(dtype: DType) -> DType {
    match dtype {
        DType::Float16 => DType::Float16,
        _ => real_of(dtype),
    }
}

/// What [`prepare`] makes of its input.
#[derive(Debug, Clone, Copy)]
struct Prep<'a> {
    dtype: DType,
    scale: f64,
    conj: bool,
    order: Option<&'a [usize]>,
    force: bool,
}

/// `x` cut or zero-padded to `lens` on `axes`, cast to `dtype`, times
/// `scale` and conjugated when `conj`, as a new array laid out in `order`
/// (the input's stride order by default); or the cut view of `x` when
/// nothing asks for a new array and `force` is false. The flag says
/// whether `scale` was applied.
fn prepare(x: &Array, axes: &[usize], lens: &[usize], p: &Prep<'_>) -> Result<(Array, bool)> {
    let Prep {
        dtype,
        scale,
        conj,
        order,
        force,
    } = *p;
    let mut cut = vec![AxisIndex::FULL; x.ndim()];
    let mut shape = x.shape().to_vec();
    let mut pad = false;
    for (&ax, &len) in axes.iter().zip(lens) {
        if len < x.shape()[ax] {
            cut[ax] = AxisIndex::from(..len as isize);
        }
        pad |= len > x.shape()[ax];
        shape[ax] = len;
    }
    let view = x.slice(&cut)?;
    if !(force || pad || conj || dtype != x.dtype()) {
        return Ok((view, false));
    }
    let k_order = gpu_array::layout::keep_order_axes(view.strides());
    let new = exec::empty_in_order(x, &shape, dtype, order.unwrap_or(&k_order))?;
    let dst = if pad {
        new.fill(0)?;
        let lead: Vec<AxisIndex> = view
            .shape()
            .iter()
            .map(|&m| AxisIndex::from(..m as isize))
            .collect();
        new.slice(&lead)?
    } else {
        new.clone()
    };
    if view.size() > 0 {
        // The loop runs in the new array's dtype, so a float16 input is
        // scaled in single precision, not in its own.
        let into = UfuncOptions::default()
            .out(&[&dst])
            .dtype(dtype)
            .casting(Casting::Unsafe);
        let times = |src: &Array| {
            ufunc::call(
                ufunc::get("multiply")?,
                &[Input::Array(src), Input::Scalar(scale.into())],
                &into,
            )
        };
        match (conj, scale == 1.0) {
            (false, true) => copyto(&dst, &view, Casting::Unsafe, None)?,
            (false, false) => {
                times(&view)?;
            }
            (true, true) => {
                ufunc::call(ufunc::get("conjugate")?, &[Input::Array(&view)], &into)?;
            }
            (true, false) => {
                times(&ufunc::conjugate(&view)?)?;
            }
        }
    }
    Ok((new, true))
}

/// Multiplies `a` by `scale` in place (a no-op for 1).
fn scale_in_place(a: &Array, scale: f64) -> Result<()> {
    if scale == 1.0 || a.size() == 0 {
        return Ok(());
    }
    ufunc::call(
        ufunc::get("multiply")?,
        &[Input::Array(a), Input::Scalar(scale.into())],
        &UfuncOptions::default().out(&[a]),
    )?;
    Ok(())
}

/// Checks a user's `out=` against the result's shape and the dtype the
/// transform computes in: `Ok(true)` when it can be written directly,
/// `Ok(false)` when the result must be cast into it.
fn check_out(
    name: &str,
    out: &Array,
    shape: &[usize],
    computed: DType,
    like: &Array,
) -> Result<bool> {
    like.check_same_device(out, "fft")?;
    if out.shape() != shape {
        return Err(Error::Value("output array has wrong shape.".into()));
    }
    if out.dtype() == computed {
        return Ok(true);
    }
    if gpu_array::dtype::can_cast(computed, out.dtype(), Casting::SameKind) {
        return Ok(false);
    }
    Err(Error::DType(format!(
        "Cannot cast ufunc '{name}' output from dtype('{computed}') to dtype('{}') with casting \
         rule 'same_kind'",
        out.dtype()
    )))
}

/// Writes `result` into the user's `out` when there is one and it was
/// not written directly.
fn deliver(result: Array, out: Option<&Array>, direct: bool) -> Result<Array> {
    match out {
        Some(o) if !direct => {
            copyto(o, &result, Casting::SameKind, None)?;
            Ok(o.clone())
        }
        _ => Ok(result),
    }
}

fn result_shape(a: &Array, axes: &[usize], lens: &[usize]) -> Vec<usize> {
    let mut shape = a.shape().to_vec();
    for (&ax, &n) in axes.iter().zip(lens) {
        shape[ax] = n;
    }
    shape
}

/// The complex transforms (`fft`, `ifft`, `fftn`, ...).
fn complex_nd(name: &str, a: &Array, o: &FftnOptions<'_>, inverse: bool) -> Result<Array> {
    let (lens, axes) = cook(a, o, false)?;
    if !distinct(&axes) {
        // NumPy transforms a repeated axis again, one axis at a time
        // from the last.
        let mut x = a.clone();
        for k in (0..axes.len()).rev() {
            let step = FftnOptions {
                s: Some(vec![lens[k]]),
                axes: Some(vec![axes[k] as isize]),
                norm: o.norm,
                out: if k == 0 { o.out } else { None },
                plan: o.plan,
                ..o.clone()
            };
            x = complex_nd(name, &x, &step, inverse)?;
        }
        return Ok(x);
    }
    let cdt = complex_of(a.dtype());
    let shape = result_shape(a, &axes, &lens);
    let direct = match o.out {
        Some(out) => check_out(name, out, &shape, cdt, a)?,
        None => true,
    };
    let total = points(&lens)?;
    let f = o.norm.factor(total, inverse);
    let (x, scaled) = prepare(
        a,
        &axes,
        &lens,
        &Prep {
            dtype: cdt,
            scale: f,
            conj: false,
            order: None,
            force: false,
        },
    )?;
    if let Some(devices) = crate::multi::devices_for(&x, &axes) {
        let result = crate::multi::c2c(&x, &devices, inverse)?;
        if !scaled {
            scale_in_place(&result, f)?;
        }
        return deliver(result, o.out, o.out.is_none());
    }
    let pending = (!scaled && f != 1.0).then_some(f);
    let (result, in_store) = exec::c2c(&x, &axes, inverse, o.out.filter(|_| direct), pending)?;
    if !scaled && !in_store {
        scale_in_place(&result, f)?;
    }
    deliver(result, o.out, direct)
}

/// The real-to-complex transforms (`rfft`, `rfftn`, `ihfft`).
fn real_nd(name: &str, a: &Array, o: &FftnOptions<'_>, conj: bool) -> Result<Array> {
    if a.dtype().is_complex() {
        return Err(Error::DType(format!(
            "ufunc '{name}' did not contain a loop with signature matching types \
             ({}, float64) -> None: the input must be real",
            a.dtype()
        )));
    }
    let (lens, axes) = cook(a, o, false)?;
    if !distinct(&axes) {
        // rfft on the last axis, then fft on the others from the last.
        let (last, first) = axes.split_last().expect("at least one axis");
        let step = FftnOptions {
            s: Some(vec![*lens.last().expect("as many as axes")]),
            axes: Some(vec![*last as isize]),
            norm: o.norm,
            out: None,
            plan: o.plan,
            ..o.clone()
        };
        let x = real_nd(name, a, &step, conj)?;
        let rest = FftnOptions {
            s: Some(lens[..first.len()].to_vec()),
            axes: Some(first.iter().map(|&x| x as isize).collect()),
            norm: o.norm,
            out: o.out,
            plan: o.plan,
            ..o.clone()
        };
        return complex_nd("fft", &x, &rest, false);
    }
    let rdt = real_of(a.dtype());
    let cdt = complex_of(a.dtype());
    let mut shape = result_shape(a, &axes, &lens);
    let real = *axes.last().expect("at least one axis");
    shape[real] = lens.last().expect("as many as axes") / 2 + 1;
    let direct = match o.out {
        Some(out) => check_out(name, out, &shape, cdt, a)?,
        None => true,
    };
    let total = points(&lens)?;
    let f = o.norm.factor(total, false);
    let (x, scaled) = prepare(
        a,
        &axes,
        &lens,
        &Prep {
            dtype: rdt,
            scale: f,
            conj: false,
            order: None,
            force: false,
        },
    )?;
    // ihfft conjugates in a pass anyway; the factor joins that pass.
    let pending = (!scaled && !conj && f != 1.0).then_some(f);
    let (result, in_store) = exec::r2c(&x, &axes, o.out.filter(|_| direct), pending)?;
    if conj {
        ufunc::call(
            ufunc::get("conjugate")?,
            &[Input::Array(&result)],
            &UfuncOptions::default().out(&[&result]),
        )?;
    }
    if !scaled && !in_store {
        scale_in_place(&result, f)?;
    }
    deliver(result, o.out, direct)
}

/// Whether a complex-to-real transform may give cuFFT `a` itself to
/// overwrite (`overwrite_x`): `a` is already the array `prepare` would
/// copy it to (the complex dtype `cdt`, the lengths `half` on `axes`, laid
/// out in `order` with those axes innermost, which for a C-contiguous
/// array means `order` is the identity), nothing is conjugated, and no
/// `out=` could share its memory.
fn overwritable(
    a: &Array,
    o: &FftnOptions<'_>,
    axes: &[usize],
    half: &[usize],
    order: &[usize],
    cdt: DType,
    conj: bool,
) -> bool {
    o.overwrite_x
        && o.out.is_none()
        && !conj
        && a.dtype() == cdt
        && a.size() > 0
        && a.is_c_contiguous()
        && order.iter().enumerate().all(|(k, &ax)| k == ax)
        && axes
            .iter()
            .zip(half)
            .all(|(&ax, &len)| a.shape()[ax] == len)
}

/// The complex-to-real transforms (`irfft`, `irfftn`, `hfft`).
fn inverse_real_nd(name: &str, a: &Array, o: &FftnOptions<'_>, conj: bool) -> Result<Array> {
    let (lens, axes) = cook(a, o, true)?;
    if !distinct(&axes) {
        // ifft on all but the last axis, in order, then irfft on the last.
        let (last, first) = axes.split_last().expect("at least one axis");
        let mut x = a.clone();
        for (k, &ax) in first.iter().enumerate() {
            let step = FftnOptions {
                s: Some(vec![lens[k]]),
                axes: Some(vec![ax as isize]),
                norm: o.norm,
                out: None,
                plan: o.plan,
                ..o.clone()
            };
            x = complex_nd("ifft", &x, &step, true)?;
        }
        let step = FftnOptions {
            s: Some(vec![*lens.last().expect("as many as axes")]),
            axes: Some(vec![*last as isize]),
            norm: o.norm,
            out: o.out,
            plan: o.plan,
            ..o.clone()
        };
        return inverse_real_nd(name, &x, &step, conj);
    }
    let cdt = complex_of(a.dtype());
    let rdt = real_of(a.dtype());
    let final_dtype = irfft_result(a.dtype());
    let shape = result_shape(a, &axes, &lens);
    let direct = match o.out {
        Some(out) => check_out(name, out, &shape, rdt, a)?,
        None => final_dtype == rdt,
    };
    let n_last = *lens.last().expect("as many as axes");
    let total = points(&lens)?;
    let f = o.norm.factor(total, true);
    let mut half = lens.clone();
    *half.last_mut().expect("as many as axes") = n_last / 2 + 1;
    let order = layout::transform_last_order(a.ndim(), &axes);
    let result = if overwritable(a, o, &axes, &half, &order, cdt, conj) {
        // The caller gave up the input: cuFFT overwrites it in place of
        // the copy, and the norm's factor takes a pass over the result.
        let result = exec::c2r(a, &axes, n_last, None)?;
        scale_in_place(&result, f)?;
        result
    } else {
        let (tmp, _) = prepare(
            a,
            &axes,
            &half,
            &Prep {
                dtype: cdt,
                scale: f,
                conj,
                order: Some(&order),
                force: true,
            },
        )?;
        exec::c2r(&tmp, &axes, n_last, o.out.filter(|_| direct))?
    };
    match o.out {
        Some(_) => deliver(result, o.out, direct),
        None if result.dtype() != final_dtype => result.astype(final_dtype),
        None => Ok(result),
    }
}

macro_rules! transform {
    (
        $(#[$doc:meta])* $short:ident, $with:ident, $opts:ident, $into:expr, $example:literal
    ) => {
        $(#[$doc])*
        #[doc = concat!("```no_run\n# fn main() -> gpu_fft::Result<()> {\n", $example, "\n# Ok(()) }\n```")]
        ///
        /// # Errors
        /// NumPy's: a length below 1 ("Invalid number of FFT data
        /// points"), an axis out of range, `s` and `axes` of different
        /// lengths, an `out` of the wrong shape or dtype; a complex
        /// input to a real transform; cuFFT or the device failed.
        pub fn $short(a: &Array) -> Result<Array> {
            $with(a, &$opts::default())
        }

        #[doc = concat!("[`", stringify!($short), "`] with NumPy's keyword arguments.")]
        ///
        /// ```no_run
        /// # fn main() -> gpu_fft::Result<()> {
        /// let x = gpu_array::creation::arange(16)?.reshape((4, 4))?;
        #[doc = concat!("let y = gpu_fft::", stringify!($with), "(&x, &Default::default())?;")]
        /// # Ok(()) }
        /// ```
        ///
        /// # Errors
        #[doc = concat!("As [`", stringify!($short), "`].")]
        pub fn $with(a: &Array, options: &$opts<'_>) -> Result<Array> {
            #[allow(clippy::redundant_closure_call)]
            with_plan(options.plan, || ($into)(a, options))
        }
    };
}

transform!(
    /// NumPy's `fft.fft(a)`: the 1-D discrete Fourier transform along the
    /// last axis.
    fft, fft_with, FftOptions,
    |a, o: &FftOptions<'_>| complex_nd("fft", a, &o.into(), false),
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet y = gpu_fft::fft(&x)?; // [10, -2+2j, -2, -2-2j], complex128"
);
transform!(
    /// NumPy's `fft.ifft(a)`: the inverse of [`fft`].
    ifft, ifft_with, FftOptions,
    |a, o: &FftOptions<'_>| complex_nd("ifft", a, &o.into(), true),
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet back = gpu_fft::ifft(&gpu_fft::fft(&x)?)?; // x again, as complex128"
);
transform!(
    /// NumPy's `fft.fftn(a)`: the transform over every axis (or `axes`).
    fftn, fftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| complex_nd("fftn", a, o, false),
    "let x = gpu_array::creation::ones((4, 4, 4), gpu_array::DType::Complex64)?;\nlet y = gpu_fft::fftn(&x)?; // 64 at [0, 0, 0], zero elsewhere"
);
transform!(
    /// NumPy's `fft.ifftn(a)`: the inverse of [`fftn`].
    ifftn, ifftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| complex_nd("ifftn", a, o, true),
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex64)?;\nlet y = gpu_fft::ifftn(&x)?; // 1 at [0, 0], zero elsewhere"
);
transform!(
    /// NumPy's `fft.fft2(a)`: [`fftn`] over the last two axes.
    fft2, fft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| complex_nd("fft2", a, &o.two_d(), false),
    "let x = gpu_array::creation::ones((3, 4, 4), gpu_array::DType::Float32)?;\nlet y = gpu_fft::fft2(&x)?; // complex64, (3, 4, 4)"
);
transform!(
    /// NumPy's `fft.ifft2(a)`: [`ifftn`] over the last two axes.
    ifft2, ifft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| complex_nd("ifft2", a, &o.two_d(), true),
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex128)?;\nlet y = gpu_fft::ifft2(&x)?;"
);
transform!(
    /// NumPy's `fft.rfft(a)`: the transform of real input, keeping the
    /// `n // 2 + 1` non-negative frequencies.
    rfft, rfft_with, FftOptions,
    |a, o: &FftOptions<'_>| real_nd("rfft", a, &o.into(), false),
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet y = gpu_fft::rfft(&x)?; // [10, -2+2j, -2]"
);
transform!(
    /// NumPy's `fft.irfft(a)`: the inverse of [`rfft`], of real length
    /// `n` (by default `2 * (m - 1)` for an input of length `m`).
    irfft, irfft_with, FftOptions,
    |a, o: &FftOptions<'_>| inverse_real_nd("irfft", a, &o.into(), false),
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0, 4.0])?;\nlet back = gpu_fft::irfft(&gpu_fft::rfft(&x)?)?; // [1, 2, 3, 4], float64"
);
transform!(
    /// NumPy's `fft.rfftn(a)`: [`rfft`] over the last of `axes`, then
    /// [`fft`] over the others.
    rfftn, rfftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| real_nd("rfftn", a, o, false),
    "let x = gpu_array::creation::ones((4, 6), gpu_array::DType::Float32)?;\nlet y = gpu_fft::rfftn(&x)?; // complex64, (4, 4)"
);
transform!(
    /// NumPy's `fft.irfftn(a)`: the inverse of [`rfftn`].
    irfftn, irfftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| inverse_real_nd("irfftn", a, o, false),
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex64)?;\nlet y = gpu_fft::irfftn(&x)?; // float32, (4, 6)"
);
transform!(
    /// NumPy's `fft.rfft2(a)`: [`rfftn`] over the last two axes.
    rfft2, rfft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| real_nd("rfft2", a, &o.two_d(), false),
    "let x = gpu_array::creation::ones((4, 6), gpu_array::DType::Float64)?;\nlet y = gpu_fft::rfft2(&x)?; // complex128, (4, 4)"
);
transform!(
    /// NumPy's `fft.irfft2(a)`: [`irfftn`] over the last two axes.
    irfft2, irfft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| inverse_real_nd("irfft2", a, &o.two_d(), false),
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Complex128)?;\nlet y = gpu_fft::irfft2(&x)?; // float64, (4, 6)"
);
transform!(
    /// NumPy's `fft.hfft(a)`: the transform of a Hermitian-symmetric
    /// signal given by its first half, a real result of length `n`
    /// (`2 * (m - 1)` by default).
    hfft, hfft_with, FftOptions,
    |a, o: &FftOptions<'_>| {
        let mut o: FftnOptions<'_> = o.into();
        o.norm = o.norm.swap();
        inverse_real_nd("hfft", a, &o, true)
    },
    "let x = gpu_array::creation::array([1.0, 2.0, 3.0])?;\nlet y = gpu_fft::hfft(&x)?; // [8, -2, 0, -2], float64"
);
transform!(
    /// NumPy's `fft.ihfft(a)`: the inverse of [`hfft`], from real input.
    ihfft, ihfft_with, FftOptions,
    |a, o: &FftOptions<'_>| {
        let mut o: FftnOptions<'_> = o.into();
        o.norm = o.norm.swap();
        real_nd("ihfft", a, &o, true)
    },
    "let x = gpu_array::creation::array([8.0, -2.0, 0.0, -2.0])?;\nlet y = gpu_fft::ihfft(&x)?; // [1, 2, 3] (complex128)"
);

transform!(
    /// SciPy's `fft.hfftn(x)`: the n-dimensional [`hfft`],
    /// `irfftn(conj(x))` with the norm's direction swapped.
    hfftn, hfftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| {
        let mut o = o.clone();
        o.norm = o.norm.swap();
        inverse_real_nd("hfftn", a, &o, true)
    },
    "let x = gpu_array::creation::ones((4, 3), gpu_array::DType::Complex128)?;\nlet y = gpu_fft::hfftn(&x)?; // float64, (4, 4)"
);
transform!(
    /// SciPy's `fft.ihfftn(x)`: the inverse of [`hfftn`],
    /// `conj(rfftn(x))` with the norm's direction swapped.
    ihfftn, ihfftn_with, FftnOptions,
    |a, o: &FftnOptions<'_>| {
        let mut o = o.clone();
        o.norm = o.norm.swap();
        real_nd("ihfftn", a, &o, true)
    },
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float64)?;\nlet y = gpu_fft::ihfftn(&x)?; // complex128, (4, 3)"
);
transform!(
    /// SciPy's `fft.hfft2(x)`: [`hfftn`] over the last two axes.
    hfft2, hfft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| {
        let mut o = o.two_d();
        o.norm = o.norm.swap();
        inverse_real_nd("hfft2", a, &o, true)
    },
    "let x = gpu_array::creation::ones((4, 3), gpu_array::DType::Complex64)?;\nlet y = gpu_fft::hfft2(&x)?; // float32, (4, 4)"
);
transform!(
    /// SciPy's `fft.ihfft2(x)`: [`ihfftn`] over the last two axes.
    ihfft2, ihfft2_with, FftnOptions,
    |a, o: &FftnOptions<'_>| {
        let mut o = o.two_d();
        o.norm = o.norm.swap();
        real_nd("ihfft2", a, &o, true)
    },
    "let x = gpu_array::creation::ones((4, 4), gpu_array::DType::Float32)?;\nlet y = gpu_fft::ihfft2(&x)?; // complex64, (4, 3)"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_follow_numpy_2() {
        assert_eq!(complex_of(DType::Float16), DType::Complex64);
        assert_eq!(complex_of(DType::Float32), DType::Complex64);
        assert_eq!(complex_of(DType::Int8), DType::Complex128);
        assert_eq!(complex_of(DType::Bool), DType::Complex128);
        assert_eq!(complex_of(DType::Complex128), DType::Complex128);
        assert_eq!(irfft_result(DType::Float16), DType::Float16);
        assert_eq!(irfft_result(DType::Complex64), DType::Float32);
        assert_eq!(irfft_result(DType::Int32), DType::Float64);
    }

    #[test]
    fn transform_sizes_are_checked() {
        assert_eq!(points(&[4, 6]).unwrap(), 24);
        assert!(points(&[1 << 40, 1 << 40]).is_err());
        assert!(points(&[usize::MAX]).is_err());
        assert_eq!(points(&[]).unwrap(), 1);
    }

    #[test]
    fn distinct_axes() {
        assert!(distinct(&[0, 2, 1]));
        assert!(!distinct(&[0, 1, 0]));
    }
}
