//! Binary morphology (SciPy's `binary_erosion`, `binary_dilation`,
//! `binary_opening`, `binary_closing`, `binary_hit_or_miss`,
//! `binary_propagation`, `binary_fill_holes`): steps of one kernel
//! (`kernels/binary.cu`), erosion or, as SciPy computes it, dilation as
//! the complement's erosion with the structure reflected.
//!
//! Iterating to convergence (`iterations < 1`, propagation, hole filling)
//! reads a device flag after each step: as many steps as the longest
//! path the change travels, each a pass over the image.

use gpu_array::{Array, DType, Error, Result, ufunc};

use super::kernels::{MAXDIM, Step, Taps, binary_step};
use crate::Output;
use crate::footprint::{HostWindow, expand_origins};
use crate::measurements::structure::binary_structure;
use crate::output::{check_axes, per_axis};

/// SciPy's keywords of the binary morphology: the structuring element
/// (default: `generate_binary_structure(len(axes), 1)`), `iterations`
/// (default 1; below 1, until nothing changes), `mask`, `output`,
/// `border_value`, `origin`, `axes`.
///
/// SciPy ignores an output dtype (`output=np.float32`) and writes bool;
/// Cuprum writes the dtype asked for.
///
/// ```
/// use gpu_ndimage::BinaryOptions;
/// let o = BinaryOptions::default().iterations(2).border_value(true).origin(1);
/// assert_eq!((o.iterations, o.border_value, o.origin.as_slice()), (2, true, &[1][..]));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct BinaryOptions<'a> {
    /// The structuring element (nonzero elements count), of the input's
    /// rank or of `len(axes)`.
    pub structure: Option<&'a Array>,
    /// Steps to take; below 1, until the result stops changing.
    pub iterations: i64,
    /// Where false (zero), elements keep their input value.
    pub mask: Option<&'a Array>,
    /// Where the result goes (default: a new bool array).
    pub output: Output<'a>,
    /// The value outside the image.
    pub border_value: bool,
    /// The structure's shift: one for every axis or one per axis.
    pub origin: Vec<i64>,
    /// The axes the structure spans (default: every axis).
    pub axes: Option<Vec<isize>>,
}

impl Default for BinaryOptions<'_> {
    fn default() -> Self {
        BinaryOptions {
            structure: None,
            iterations: 1,
            mask: None,
            output: Output::None,
            border_value: false,
            origin: vec![0],
            axes: None,
        }
    }
}

impl<'a> BinaryOptions<'a> {
    /// Sets `structure`.
    ///
    /// ```no_run
    /// use gpu_ndimage::{BinaryOptions, generate_binary_structure};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = generate_binary_structure(2, 2)?;
    /// let o = BinaryOptions::default().structure(&s);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn structure(mut self, structure: &'a Array) -> Self {
        self.structure = Some(structure);
        self
    }

    /// Sets `iterations` (below 1: until nothing changes).
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::BinaryOptions::default().iterations(-1).iterations, -1);
    /// ```
    #[must_use]
    pub fn iterations(mut self, iterations: i64) -> Self {
        self.iterations = iterations;
        self
    }

    /// Sets `mask`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_ndimage::BinaryOptions;
    /// # fn main() -> gpu_array::Result<()> {
    /// let m = gpu_array::creation::ones([4, 4], DType::Bool)?;
    /// let o = BinaryOptions::default().mask(&m);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn mask(mut self, mask: &'a Array) -> Self {
        self.mask = Some(mask);
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{BinaryOptions, Output};
    /// let o = BinaryOptions::default().output(Output::DType(DType::UInt8));
    /// assert!(matches!(o.output, Output::DType(DType::UInt8)));
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output<'a>) -> Self {
        self.output = output;
        self
    }

    /// Sets `border_value`.
    ///
    /// ```
    /// assert!(gpu_ndimage::BinaryOptions::default().border_value(true).border_value);
    /// ```
    #[must_use]
    pub fn border_value(mut self, border_value: bool) -> Self {
        self.border_value = border_value;
        self
    }

    /// Sets one `origin` for every axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::BinaryOptions::default().origin(-1).origin, [-1]);
    /// ```
    #[must_use]
    pub fn origin(self, origin: i64) -> Self {
        self.origins(&[origin])
    }

    /// Sets one origin per axis.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::BinaryOptions::default().origins(&[0, 1]).origin, [0, 1]);
    /// ```
    #[must_use]
    pub fn origins(mut self, origins: &[i64]) -> Self {
        self.origin = origins.to_vec();
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::BinaryOptions::default().axes(&[0]).axes, Some(vec![0]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> Self {
        self.axes = Some(axes.to_vec());
        self
    }

    /// Refuses what `func` has no keyword for, instead of ignoring it.
    fn refuse(&self, func: &str, iterations: bool, mask: bool, border: bool) -> Result<()> {
        let unexpected = |kw: &str| {
            Err(Error::Value(format!(
                "{func}() got an unexpected keyword argument '{kw}'"
            )))
        };
        if iterations && self.iterations != 1 {
            return unexpected("iterations");
        }
        if mask && self.mask.is_some() {
            return unexpected("mask");
        }
        if border && self.border_value {
            return unexpected("border_value");
        }
        Ok(())
    }
}

/// A structuring element on the host over the filtered axes: its shape
/// and values (C order), before SciPy's expansion to every axis.
struct Structure {
    shape: Vec<usize>,
    values: Vec<f64>,
}

impl Structure {
    /// The given structure, or `generate_binary_structure(n, 1)`.
    fn get(structure: Option<&Array>, n: usize) -> Result<Structure> {
        match structure {
            Some(s) => {
                if s.size() == 0 {
                    return Err(Error::NumpyRuntime("structure must not be empty".into()));
                }
                // One copy to the host (a bool structure, the usual
                // one, needs no conversion kernels first).
                let b = if s.dtype() == DType::Bool {
                    s.clone()
                } else {
                    s.astype(DType::Bool)?
                };
                let values = b
                    .to_vec::<bool>()?
                    .into_iter()
                    .map(|v| if v { 1.0 } else { 0.0 })
                    .collect();
                Ok(Structure {
                    shape: s.shape().to_vec(),
                    values,
                })
            }
            None => {
                if n > MAXDIM {
                    return Err(Error::Unsupported(format!(
                        "binary morphology of more than {MAXDIM} dimensions"
                    )));
                }
                Ok(Structure {
                    shape: vec![3; n],
                    values: binary_structure(n, 1)
                        .into_iter()
                        .map(|b| if b { 1.0 } else { 0.0 })
                        .collect(),
                })
            }
        }
    }

    /// Reflected through its centre along every axis (reversed C order).
    fn reflected(mut self) -> Structure {
        self.values.reverse();
        self
    }

    /// The complement (SciPy's default second structure of hit-or-miss).
    fn complement(mut self) -> Structure {
        for v in &mut self.values {
            *v = if *v != 0.0 { 0.0 } else { 1.0 };
        }
        self
    }
}

/// The checked operands of one erosion or dilation.
struct Prepared {
    image: Array,
    mask: Option<Array>,
    taps: Taps,
}

/// SciPy's `_binary_erosion` checks and set-up: the structure expanded to
/// every axis, the origins, the taps, the input and mask as C-order bool.
fn prepare(
    input: &Array,
    structure: Structure,
    origin: &[i64],
    mask: Option<&Array>,
    axes: &[usize],
) -> Result<Prepared> {
    let ndim = input.ndim();
    if input.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    if ndim == 0 || ndim > MAXDIM {
        return Err(Error::Unsupported(format!(
            "binary morphology of {ndim} dimensions (1 to {MAXDIM})"
        )));
    }
    if axes.len() == ndim && structure.shape.len() != ndim {
        return Err(Error::NumpyRuntime(
            "structure and input must have same dimensionality".into(),
        ));
    }
    let win = HostWindow::expand(&structure.shape, structure.values, axes, ndim, "structure")?;
    let origins = expand_origins(origin, axes, ndim)?;
    let mut centre = 0usize;
    for ((&o, &len), d) in origins.iter().zip(&win.shape).zip(0..) {
        let c = (len / 2) as i64 + o;
        if c < 0 || c >= len as i64 {
            return Err(Error::Value("invalid origin".into()));
        }
        let stride: usize = win.shape[d + 1..].iter().product();
        centre += c as usize * stride;
    }
    let center_is_true = win.values[centre] != 0.0;
    let (offsets, w) = win.taps(&origins, |v| v != 0.0);
    let count = w.len();
    let within3x3 = ndim == 2 && offsets.iter().all(|o| (-1..=1).contains(o));
    let small2d = within3x3.then(|| {
        offsets
            .chunks(2)
            .fold(0u32, |bits, o| bits | 1 << ((o[0] + 1) * 3 + (o[1] + 1)))
    });
    let offsets = if count == 0 {
        Array::zeros([ndim], DType::Int64)?
    } else {
        Array::from_slice(&offsets, &[offsets.len()])?
    };
    let as_bool = |a: &Array| -> Result<Array> {
        let b = if a.dtype() == DType::Bool {
            a.clone()
        } else {
            a.astype(DType::Bool)?
        };
        if b.is_c_contiguous() { Ok(b) } else { b.copy() }
    };
    let mask = match mask {
        Some(m) if m.shape() != input.shape() => {
            return Err(Error::NumpyRuntime(
                "mask and input must have equal sizes".into(),
            ));
        }
        Some(m) => Some(as_bool(m)?),
        None => None,
    };
    Ok(Prepared {
        image: as_bool(input)?,
        mask,
        taps: Taps {
            offsets,
            count,
            center_is_true,
            small2d,
        },
    })
}

/// `iterations` steps (below 1: until unchanged) of erosion, or of
/// dilation with `invert`, as a new bool array.
fn iterate(p: &Prepared, iterations: i64, border_value: bool, invert: bool) -> Result<Array> {
    let step = Step {
        mask: p.mask.as_ref(),
        border: if invert { !border_value } else { border_value },
        invert,
    };
    let changed = Array::zeros([1], DType::Int32)?;
    let mut cur = Array::empty(p.image.shape(), DType::Bool)?;
    binary_step(&p.image, &cur, &p.taps, step, &changed)?;
    // The second buffer only once a second step runs.
    let mut spare: Option<Array> = None;
    let mut done = 1i64;
    loop {
        if iterations >= 1 {
            if done >= iterations {
                break;
            }
        } else if changed.to_vec::<i32>()?[0] == 0 {
            break;
        }
        if iterations < 1 {
            changed.fill(0)?;
        }
        let dst = match spare.take() {
            Some(a) => a,
            None => Array::empty(p.image.shape(), DType::Bool)?,
        };
        binary_step(&cur, &dst, &p.taps, step, &changed)?;
        spare = Some(std::mem::replace(&mut cur, dst));
        done += 1;
    }
    Ok(cur)
}

/// The output dtype: bool unless the caller asks for another (complex
/// refused in SciPy's words).
fn output_dtype(input: &Array, output: &Output<'_>) -> Result<DType> {
    let dt = match output {
        Output::None => DType::Bool,
        Output::DType(d) => *d,
        Output::Array(a) => {
            if a.shape() != input.shape() {
                return Err(Error::NumpyRuntime("output shape not correct".into()));
            }
            a.dtype()
        }
    };
    if dt.is_complex() {
        return Err(Error::DType("Complex output type not supported".into()));
    }
    Ok(dt)
}

/// `r` (bool) written as `output` asks.
fn deliver(r: Array, input: &Array, output: &Output<'_>) -> Result<Array> {
    let dt = output_dtype(input, output)?;
    let r = if dt == DType::Bool { r } else { r.astype(dt)? };
    output.finish(r)
}

/// SciPy's `_binary_erosion` (erosion; dilation with `invert` and a
/// structure the caller reflected).
fn erode(
    input: &Array,
    structure: Structure,
    opts: &BinaryOptions<'_>,
    origin: &[i64],
    invert: bool,
) -> Result<Array> {
    output_dtype(input, &opts.output)?;
    let axes = check_axes(opts.axes.as_deref(), input.ndim())?;
    let p = prepare(input, structure, origin, opts.mask, &axes)?;
    let r = iterate(&p, opts.iterations, opts.border_value, invert)?;
    deliver(r, input, &opts.output)
}

/// The filtered axes' count (SciPy's `len(axes)`).
fn num_axes(input: &Array, opts: &BinaryOptions<'_>) -> Result<usize> {
    Ok(check_axes(opts.axes.as_deref(), input.ndim())?.len())
}

/// SciPy's `binary_erosion`: an element stays set where the structure,
/// centred on it, covers set elements only (outside the image:
/// `border_value`).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::binary_erosion;
/// # fn main() -> gpu_array::Result<()> {
/// let mut v = vec![false; 25];
/// for i in [6, 7, 8, 11, 12, 13, 16, 17, 18] { v[i] = true; }
/// let x = Array::from_slice(&v, &[5, 5])?;
/// let e = binary_erosion(&x)?; // the centre only
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_erosion(input: &Array) -> Result<Array> {
    binary_erosion_with(input, &BinaryOptions::default())
}

/// [`binary_erosion`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_erosion_with, generate_binary_structure};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([6, 6], DType::Bool)?;
/// let s = generate_binary_structure(2, 2)?;
/// let o = BinaryOptions::default().structure(&s).iterations(2).border_value(true);
/// let e = binary_erosion_with(&x, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: complex input ("Complex type not supported"), a structure of
/// another rank ("structure and input must have same dimensionality", or
/// "structure.ndim (k) must match len(axes) (n)" with `axes`), an empty
/// one ("structure must not be empty"), a mask of another shape ("mask
/// and input must have equal sizes"), an origin outside the structure
/// ("invalid origin", where SciPy itself fails), a complex output
/// ("Complex output type not supported"), an output array of another
/// shape; bad axes; more than 16 dimensions (`Unsupported`).
pub fn binary_erosion_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    let s = Structure::get(opts.structure, num_axes(input, opts)?)?;
    erode(input, s, opts, &opts.origin, false)
}

/// SciPy's `binary_dilation` set-up: the structure reflected, the origins
/// negated (less one along even sides).
fn dilation_parts(input: &Array, opts: &BinaryOptions<'_>) -> Result<(Structure, Vec<i64>)> {
    let n = num_axes(input, opts)?;
    let s = Structure::get(opts.structure, n)?.reflected();
    let mut origin = per_axis(&opts.origin, n)?;
    for (ii, o) in origin.iter_mut().enumerate() {
        *o = -*o;
        if s.shape.get(ii).is_some_and(|&len| len % 2 == 0) {
            *o -= 1;
        }
    }
    Ok((s, origin))
}

/// SciPy's `binary_dilation`: an element is set where the structure,
/// reflected and centred on it, covers a set element.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::binary_dilation;
/// # fn main() -> gpu_array::Result<()> {
/// let mut v = vec![false; 25];
/// v[12] = true;
/// let x = Array::from_slice(&v, &[5, 5])?;
/// let d = binary_dilation(&x)?; // a cross
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_dilation(input: &Array) -> Result<Array> {
    binary_dilation_with(input, &BinaryOptions::default())
}

/// [`binary_dilation`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_dilation_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([6, 6], DType::Bool)?;
/// let d = binary_dilation_with(&x, &BinaryOptions::default().iterations(3).border_value(true))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_dilation_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    let (s, origin) = dilation_parts(input, opts)?;
    erode(input, s, opts, &origin, true)
}

/// SciPy's `binary_opening`: [`binary_erosion`] then [`binary_dilation`],
/// each `iterations` times, with the same structure.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::binary_opening;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([5, 5], DType::Bool)?;
/// let o = binary_opening(&x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_opening(input: &Array) -> Result<Array> {
    binary_opening_with(input, &BinaryOptions::default())
}

/// [`binary_opening`] with SciPy's keywords (the mask and border value
/// apply to both steps).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_opening_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::ones([5, 5], DType::Bool)?;
/// let o = binary_opening_with(&x, &BinaryOptions::default().iterations(2))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_opening_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    let first = opts.clone().output(Output::None);
    let tmp = binary_erosion_with(input, &first)?;
    binary_dilation_with(&tmp, opts)
}

/// SciPy's `binary_closing`: [`binary_dilation`] then [`binary_erosion`].
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::binary_closing;
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([5, 5], DType::Bool)?;
/// let c = binary_closing(&x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_closing(input: &Array) -> Result<Array> {
    binary_closing_with(input, &BinaryOptions::default())
}

/// [`binary_closing`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_closing_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([5, 5], DType::Bool)?;
/// let c = binary_closing_with(&x, &BinaryOptions::default().border_value(true))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_closing_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    let first = opts.clone().output(Output::None);
    let tmp = binary_dilation_with(input, &first)?;
    binary_erosion_with(&tmp, opts)
}

/// SciPy's `binary_propagation`: [`binary_dilation`] repeated until
/// nothing changes, within `mask` (SciPy's reconstruction by dilation).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_propagation_with};
/// # fn main() -> gpu_array::Result<()> {
/// let seed = Array::from_slice(&[true, false, false, false, false], &[5])?;
/// let mask = Array::from_slice(&[true, true, true, false, true], &[5])?;
/// let r = binary_propagation_with(&seed, &BinaryOptions::default().mask(&mask))?; // [1, 1, 1, 0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_propagation_with`].
pub fn binary_propagation(input: &Array) -> Result<Array> {
    binary_propagation_with(input, &BinaryOptions::default())
}

/// [`binary_propagation`] with SciPy's keywords (no `iterations`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{BinaryOptions, binary_propagation_with};
/// # fn main() -> gpu_array::Result<()> {
/// let seed = Array::zeros([4, 4], DType::Bool)?;
/// let r = binary_propagation_with(&seed, &BinaryOptions::default().border_value(true))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`]; `iterations` other than 1 (SciPy's
/// function has none).
pub fn binary_propagation_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    opts.refuse("binary_propagation", true, false, false)?;
    binary_dilation_with(input, &opts.clone().iterations(-1))
}

/// SciPy's `binary_fill_holes`: sets the unset regions that the border
/// cannot reach through unset elements (connected by the structure).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::binary_fill_holes;
/// # fn main() -> gpu_array::Result<()> {
/// let ring = Array::from_slice(&[true, true, true, true, false, true, true, true, true], &[3, 3])?;
/// let filled = binary_fill_holes(&ring)?; // all true
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_fill_holes_with`].
pub fn binary_fill_holes(input: &Array) -> Result<Array> {
    binary_fill_holes_with(input, &BinaryOptions::default())
}

/// [`binary_fill_holes`] with SciPy's `structure=`, `output=`, `origin=`
/// and `axes=`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{BinaryOptions, binary_fill_holes_with, generate_binary_structure};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[true, true, true, true, false, true, true, true, true], &[3, 3])?;
/// let s = generate_binary_structure(2, 2)?;
/// let filled = binary_fill_holes_with(&x, &BinaryOptions::default().structure(&s))?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`]; `iterations`, `mask` or `border_value`
/// (SciPy's function has none of them).
pub fn binary_fill_holes_with(input: &Array, opts: &BinaryOptions<'_>) -> Result<Array> {
    opts.refuse("binary_fill_holes", true, true, true)?;
    output_dtype(input, &opts.output)?;
    let as_bool = if input.dtype() == DType::Bool {
        input.clone()
    } else {
        input.astype(DType::Bool)?
    };
    let mask = ufunc::logical_not(&as_bool)?;
    let seed = Array::zeros(input.shape(), DType::Bool)?;
    let fill = opts
        .clone()
        .output(Output::None)
        .iterations(-1)
        .mask(&mask)
        .border_value(true);
    let outside = binary_dilation_with(&seed, &fill)?;
    deliver(ufunc::logical_not(&outside)?, input, &opts.output)
}

/// SciPy's keywords of [`binary_hit_or_miss_with`]: the two structures
/// (default: `generate_binary_structure(len(axes), 1)` and its
/// complement), their origins (the second defaults to the first's),
/// `output` and `axes`.
///
/// ```
/// use gpu_ndimage::HitOrMissOptions;
/// let o = HitOrMissOptions::default().origin1(&[1]).origin2(&[0, -1]);
/// assert_eq!((o.origin1.as_slice(), o.origin2.as_deref()), (&[1][..], Some(&[0, -1][..])));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HitOrMissOptions<'a> {
    /// The structure the set elements must cover.
    pub structure1: Option<&'a Array>,
    /// The structure the unset elements must cover.
    pub structure2: Option<&'a Array>,
    /// The first structure's origin (one, or one per axis).
    pub origin1: Vec<i64>,
    /// The second's (default: `origin1`).
    pub origin2: Option<Vec<i64>>,
    /// Where the result goes (default: a new bool array).
    pub output: Output<'a>,
    /// The axes the structures span.
    pub axes: Option<Vec<isize>>,
}

impl Default for HitOrMissOptions<'_> {
    fn default() -> Self {
        HitOrMissOptions {
            structure1: None,
            structure2: None,
            origin1: vec![0],
            origin2: None,
            output: Output::None,
            axes: None,
        }
    }
}

impl<'a> HitOrMissOptions<'a> {
    /// Sets `structure1`.
    ///
    /// ```no_run
    /// use gpu_ndimage::{HitOrMissOptions, generate_binary_structure};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = generate_binary_structure(2, 1)?;
    /// let o = HitOrMissOptions::default().structure1(&s);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn structure1(mut self, s: &'a Array) -> Self {
        self.structure1 = Some(s);
        self
    }

    /// Sets `structure2`.
    ///
    /// ```no_run
    /// use gpu_ndimage::{HitOrMissOptions, generate_binary_structure};
    /// # fn main() -> gpu_array::Result<()> {
    /// let s = generate_binary_structure(2, 2)?;
    /// let o = HitOrMissOptions::default().structure2(&s);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn structure2(mut self, s: &'a Array) -> Self {
        self.structure2 = Some(s);
        self
    }

    /// Sets `origin1` (one, or one per axis).
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::HitOrMissOptions::default().origin1(&[1]).origin1, [1]);
    /// ```
    #[must_use]
    pub fn origin1(mut self, o: &[i64]) -> Self {
        self.origin1 = o.to_vec();
        self
    }

    /// Sets `origin2` (one, or one per axis).
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::HitOrMissOptions::default().origin2(&[1]).origin2, Some(vec![1]));
    /// ```
    #[must_use]
    pub fn origin2(mut self, o: &[i64]) -> Self {
        self.origin2 = Some(o.to_vec());
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::{HitOrMissOptions, Output};
    /// let o = HitOrMissOptions::default().output(Output::DType(DType::UInt8));
    /// assert!(matches!(o.output, Output::DType(DType::UInt8)));
    /// ```
    #[must_use]
    pub fn output(mut self, output: Output<'a>) -> Self {
        self.output = output;
        self
    }

    /// Sets `axes`.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::HitOrMissOptions::default().axes(&[1]).axes, Some(vec![1]));
    /// ```
    #[must_use]
    pub fn axes(mut self, axes: &[isize]) -> Self {
        self.axes = Some(axes.to_vec());
        self
    }
}

/// SciPy's `binary_hit_or_miss`: set where the first structure covers set
/// elements only and the second unset elements only.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::binary_hit_or_miss;
/// # fn main() -> gpu_array::Result<()> {
/// let mut v = vec![false; 25];
/// v[12] = true; // an isolated point: hit
/// let x = Array::from_slice(&v, &[5, 5])?;
/// let h = binary_hit_or_miss(&x)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_hit_or_miss_with`].
pub fn binary_hit_or_miss(input: &Array) -> Result<Array> {
    binary_hit_or_miss_with(input, &HitOrMissOptions::default())
}

/// [`binary_hit_or_miss`] with SciPy's keywords.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_ndimage::{HitOrMissOptions, binary_hit_or_miss_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[false, true, true, false, true, false], &[6])?;
/// let left_end = Array::from_slice(&[false, true, true], &[3])?;
/// let before = Array::from_slice(&[true, false, false], &[3])?;
/// let o = HitOrMissOptions::default().structure1(&left_end).structure2(&before);
/// let h = binary_hit_or_miss_with(&x, &o)?; // [0, 1, 0, 0, 0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`binary_erosion_with`].
pub fn binary_hit_or_miss_with(input: &Array, opts: &HitOrMissOptions<'_>) -> Result<Array> {
    output_dtype(input, &opts.output)?;
    let axes = check_axes(opts.axes.as_deref(), input.ndim())?;
    let n = axes.len();
    let s1 = Structure::get(opts.structure1, n)?;
    let s2 = match opts.structure2 {
        Some(s) => Structure::get(Some(s), n)?,
        None => Structure::get(opts.structure1, n)?.complement(),
    };
    let origin1 = per_axis(&opts.origin1, n)?;
    let origin2 = match &opts.origin2 {
        Some(o) => per_axis(o, n)?,
        None => origin1.clone(),
    };
    let p1 = prepare(input, s1, &origin1, None, &axes)?;
    let hit = iterate(&p1, 1, false, false)?;
    let p2 = prepare(input, s2, &origin2, None, &axes)?;
    let miss = iterate(&p2, 1, false, true)?;
    let r = ufunc::logical_and(&hit, &ufunc::logical_not(&miss)?)?;
    deliver(r, input, &opts.output)
}
