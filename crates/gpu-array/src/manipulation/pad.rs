//! `pad`: the index modes (edge, wrap, reflect, symmetric) as one gather
//! per padded axis with host-computed source positions; `constant` as a
//! fill and one copy into the interior; the statistic modes (maximum,
//! minimum, mean, median, each over `stat_length` elements of each side)
//! and `linear_ramp` axis by axis as NumPy does: a statistic or a ramp per
//! side, then a concatenation. Axis by axis matters: the corners of axis
//! `d`'s pads are computed from the array already padded along the axes
//! before `d`, as NumPy's. Per-side `constant_values` fill the pad slabs
//! axis by axis (a later axis wins at the corners, as NumPy's); the odd
//! reflections (`reflect_type='odd'`) replay NumPy's reflection rounds,
//! `2 * edge - chunk` per round, so float results round as NumPy's.

use super::{axis_view, concatenate};
use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::error::{Error, Result};
use crate::indexing::{TakeMode, take, where_};
use crate::layout::Order;
use crate::logic::any;
use crate::reduction::ReduceOptions;
use crate::stats::{amax, amin, mean};
use crate::ufunc::{self, Input};

/// How [`pad`] fills the new elements (NumPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PadMode {
    /// A constant (`constant_values`: this one on every side unless
    /// [`PadOptions::constant_values`] says otherwise), cast into the
    /// array's dtype as NumPy casts a NumPy scalar ([`constant_cast`]).
    Constant(ScalarValue),
    /// The edge value.
    Edge,
    /// The other end of the axis (periodic).
    Wrap,
    /// The mirror image without the edge.
    Reflect,
    /// The mirror image with the edge.
    Symmetric,
    /// The maximum of the side's `stat_length` edge elements (default:
    /// the whole axis).
    Maximum,
    /// Their minimum.
    Minimum,
    /// Their mean (rounded half to even for integer dtypes, as NumPy).
    Mean,
    /// Their median (rounded alike).
    Median,
    /// A linear ramp from an end value (NumPy's `end_values`; this one on
    /// every side unless [`PadOptions::end_values`] says otherwise) to the
    /// edge value.
    LinearRamp(ScalarValue),
}

impl PadMode {
    /// NumPy's name of the mode (for messages).
    ///
    /// ```
    /// use gpu_array::manipulation::PadMode;
    /// assert_eq!(PadMode::Edge.name(), "edge");
    /// assert_eq!(PadMode::Median.name(), "median");
    /// ```
    pub const fn name(&self) -> &'static str {
        match self {
            PadMode::Constant(_) => "constant",
            PadMode::Edge => "edge",
            PadMode::Wrap => "wrap",
            PadMode::Reflect => "reflect",
            PadMode::Symmetric => "symmetric",
            PadMode::Maximum => "maximum",
            PadMode::Minimum => "minimum",
            PadMode::Mean => "mean",
            PadMode::Median => "median",
            PadMode::LinearRamp(_) => "linear_ramp",
        }
    }

    const fn is_statistic(&self) -> bool {
        matches!(
            self,
            PadMode::Maximum | PadMode::Minimum | PadMode::Mean | PadMode::Median
        )
    }
}

// NumPy's names; `constant` and `linear_ramp` take NumPy's default value, 0.
crate::from_numpy_str! {
    PadMode, Error,
    else: |s| if s == "empty" {
        Error::Unsupported("pad: mode 'empty' (uninitialised padding) is not supported".into())
    } else {
        Error::Value(format!("mode '{s}' is not supported"))
    },
    {
        "constant" => PadMode::Constant(ScalarValue::Int(0)),
        "edge" => PadMode::Edge,
        "wrap" => PadMode::Wrap,
        "reflect" => PadMode::Reflect,
        "symmetric" => PadMode::Symmetric,
        "maximum" => PadMode::Maximum,
        "minimum" => PadMode::Minimum,
        "mean" => PadMode::Mean,
        "median" => PadMode::Median,
        "linear_ramp" => PadMode::LinearRamp(ScalarValue::Int(0)),
    }
}

/// NumPy's `reflect_type` of the modes reflect and symmetric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReflectType {
    /// The mirror image itself (NumPy's default, `'even'`).
    #[default]
    Even,
    /// `2 * edge - mirror image`: the reflection continues the edge's
    /// trend instead of turning back (`'odd'`).
    Odd,
}

// NumPy takes any string but 'odd' for 'even'; a typo is an error here.
crate::from_numpy_str! {
    ReflectType, Error,
    else: |s| Error::Value(format!("reflect_type must be 'even' or 'odd' (got '{s}')")),
    { "even" => ReflectType::Even, "odd" => ReflectType::Odd }
}

/// How NumPy hands a `constant_values` entry to the array: which Python
/// form it was given in decides the cast ([`constant_cast`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstantForm {
    /// One value or one `(before, after)` pair: NumPy's `_as_pairs` makes
    /// them NumPy scalars (int64, uint64, float64, complex128, bool).
    NumpyScalar,
    /// One pair per axis: `_as_pairs` returns them as Python scalars
    /// (`tolist()`), which NumPy range-checks.
    PythonScalar,
}

/// NumPy's per-side keyword arguments of `pad` beyond the mode ([`pad_with`]).
/// Each list holds one `(before, after)` pair for every axis, or one pair
/// for all axes, or nothing for NumPy's default.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct PadOptions {
    /// `stat_length` of the statistic modes: how many elements at each
    /// edge the statistic covers (`None`, and any length beyond the axis:
    /// the whole axis). Empty: the whole axis everywhere.
    pub stat_length: Vec<(Option<usize>, Option<usize>)>,
    /// `end_values` of [`PadMode::LinearRamp`]: the value each ramp starts
    /// from at the outer edge. Empty: the mode's value on every side.
    pub end_values: Vec<(ScalarValue, ScalarValue)>,
    /// `constant_values` of [`PadMode::Constant`]: the value of each side.
    /// Empty: the mode's value on every side. One pair is NumPy's
    /// `constant_values=(b, a)`; one per axis NumPy's `((b0, a0), ...)`
    /// (which NumPy casts more strictly: [`ConstantForm`]), and NumPy's
    /// `((v0,), (v1,), ...)` is `vec![(v0, v0), (v1, v1), ...]`. All the
    /// values take one kind first, as NumPy's `np.array` of them (one
    /// complex value makes every value complex). At a corner the later
    /// axis's value wins, as NumPy's.
    pub constant_values: Vec<(ScalarValue, ScalarValue)>,
    /// `reflect_type` of [`PadMode::Reflect`] and [`PadMode::Symmetric`];
    /// `None`: not given (even). Given for another mode, it is NumPy's
    /// "unsupported keyword arguments" error, even as `Even`.
    pub reflect_type: Option<ReflectType>,
}

impl PadOptions {
    /// Sets `stat_length`.
    ///
    /// ```
    /// use gpu_array::manipulation::PadOptions;
    /// let o = PadOptions::default().stat_length(vec![(Some(2), None)]); // two before, the whole axis after
    /// assert_eq!(o.stat_length, [(Some(2), None)]);
    /// ```
    #[must_use]
    pub fn stat_length(mut self, stat_length: Vec<(Option<usize>, Option<usize>)>) -> PadOptions {
        self.stat_length = stat_length;
        self
    }

    /// Sets `end_values`.
    ///
    /// ```
    /// use gpu_array::dtype::ScalarValue;
    /// use gpu_array::manipulation::PadOptions;
    /// let o = PadOptions::default().end_values(vec![(ScalarValue::Int(0), ScalarValue::Int(10))]);
    /// assert_eq!(o.end_values.len(), 1);
    /// ```
    #[must_use]
    pub fn end_values(mut self, end_values: Vec<(ScalarValue, ScalarValue)>) -> PadOptions {
        self.end_values = end_values;
        self
    }

    /// Sets `constant_values`.
    ///
    /// ```
    /// use gpu_array::dtype::ScalarValue;
    /// use gpu_array::manipulation::PadOptions;
    /// let o = PadOptions::default().constant_values(vec![(ScalarValue::Float(-1.0), ScalarValue::Float(1.0))]);
    /// assert_eq!(o.constant_values[0].1, ScalarValue::Float(1.0));
    /// ```
    #[must_use]
    pub fn constant_values(
        mut self,
        constant_values: Vec<(ScalarValue, ScalarValue)>,
    ) -> PadOptions {
        self.constant_values = constant_values;
        self
    }

    /// Sets `reflect_type`.
    ///
    /// ```
    /// use gpu_array::manipulation::{PadOptions, ReflectType};
    /// assert_eq!(PadOptions::default().reflect_type(ReflectType::Odd).reflect_type, Some(ReflectType::Odd));
    /// ```
    #[must_use]
    pub fn reflect_type(mut self, reflect_type: impl Into<Option<ReflectType>>) -> PadOptions {
        self.reflect_type = reflect_type.into();
        self
    }
}

/// The kind rank of a scalar (bool < int < float < complex), for NumPy's
/// `np.array` of a list of them.
fn kind_rank(v: &ScalarValue) -> u8 {
    match v {
        ScalarValue::Bool(_) => 0,
        ScalarValue::Int(_) => 1,
        ScalarValue::Float(_) => 2,
        ScalarValue::Complex(_) => 3,
    }
}

const TOO_LARGE: &str = "Python int too large to convert to C long";

/// NumPy's `np.array(values)` before `_as_pairs` hands the values out:
/// every value takes the highest kind among them (ints become floats
/// beside a float, everything complex beside a complex); integers that
/// neither int64 nor uint64 holds all together become float64, and those
/// beyond both ranges are an error (NumPy's `OverflowError` for a scalar).
///
/// # Errors
/// An integer outside `-2**63 ..= 2**64 - 1`.
fn unify_constants(values: &[ScalarValue]) -> Result<Vec<ScalarValue>> {
    let top = values.iter().map(kind_rank).max().unwrap_or(0);
    let ints = || {
        values.iter().filter_map(|v| match v {
            ScalarValue::Int(n) => Some(*n),
            _ => None,
        })
    };
    if ints().any(|n| !(-(1i128 << 63)..(1i128 << 64)).contains(&n)) {
        return Err(Error::Value(TOO_LARGE.into()));
    }
    let int_as_float = top == 1 && ints().any(|n| n < 0) && ints().any(|n| n > i64::MAX as i128);
    let num = |v: &ScalarValue| match *v {
        ScalarValue::Bool(b) => f64::from(u8::from(b)),
        ScalarValue::Int(n) => n as f64,
        ScalarValue::Float(f) => f,
        ScalarValue::Complex(c) => c.re,
    };
    Ok(values
        .iter()
        .map(|v| match (top, v) {
            (_, ScalarValue::Complex(_)) => *v,
            (3, v) => ScalarValue::Complex(num_complex::Complex::new(num(v), 0.0)),
            (2, ScalarValue::Float(_)) => *v,
            (2, v) => ScalarValue::Float(num(v)),
            (1, ScalarValue::Bool(b)) => ScalarValue::Int(i128::from(*b)),
            (1, v) if int_as_float => ScalarValue::Float(num(v)),
            _ => *v,
        })
        .collect())
}

/// A float truncated towards zero as Python's `int()`.
fn float_to_int(f: f64) -> Result<i128> {
    if f.is_nan() {
        Err(Error::Value("cannot convert float NaN to integer".into()))
    } else if f.is_infinite() {
        Err(Error::Value(
            "cannot convert float infinity to integer".into(),
        ))
    } else {
        // Beyond i128 only by being huge: still "too large" below.
        Ok(f.trunc().clamp(-1e38, 1e38) as i128)
    }
}

/// A Python int as NumPy converts it to a signed integer dtype: within
/// C long (int64), then within the dtype.
fn checked_int(n: i128, dtype: DType) -> Result<ScalarValue> {
    if i64::try_from(n).is_err() {
        return Err(Error::Value(TOO_LARGE.into()));
    }
    crate::dtype::check_weak_int(n, dtype)?;
    Ok(ScalarValue::Int(n))
}

/// An integer reduced modulo the unsigned dtype's range (a C cast).
fn wrap_unsigned(n: i128, dtype: DType) -> ScalarValue {
    let bits = 8 * dtype.itemsize() as u32;
    ScalarValue::Int(n.rem_euclid(1i128 << bits))
}

/// A C cast (x86-64, as NumPy's builds) of a finite double to an unsigned
/// dtype: uint8/uint16 through int32, uint32 through int64, uint64
/// natively; an out-of-range intermediate is the "integer indefinite"
/// value (`INT_MIN`), whose low bits are zero.
fn c_cast_unsigned(f: f64, dtype: DType) -> ScalarValue {
    // 2**31, 2**63 and 2**64, exact in f64.
    const P31: f64 = 2147483648.0;
    const P63: f64 = 9_223_372_036_854_775_808_u64 as f64;
    const P64: f64 = 2.0 * P63;
    let t = f.trunc();
    let n: i128 = match dtype.itemsize() {
        1 | 2 if (-P31..P31).contains(&t) => t as i128,
        1 | 2 => i128::from(i32::MIN),
        4 if (-P63..P63).contains(&t) => t as i128,
        4 => i128::from(i64::MIN),
        _ if (-P63..P64).contains(&t) => t as i128,
        _ if t >= P64 => 0,
        _ => 1i128 << 63,
    };
    wrap_unsigned(n, dtype)
}

/// NumPy's cast of one `constant_values` entry (already through
/// NumPy's `np.array` of all the values: one kind for all) into `dtype`
/// when `pad` assigns it, as a value
/// [`Array::fill`] takes as is:
///
/// - bool: any nonzero value is true; complex dtypes take any value;
/// - float dtypes: a complex value loses its imaginary part (NumPy's
///   ComplexWarning) as a NumPy scalar and is a `TypeError` as a Python
///   one;
/// - integer dtypes: floats truncate (NaN and infinity are errors), a
///   complex NumPy scalar takes its real part; then a signed dtype must
///   hold the value ("Python integer 300 out of bounds for int8"), an
///   unsigned one wraps it as a C cast does for NumPy scalars (`-1` is
///   255 in uint8) and must hold it for Python ones.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::ScalarValue;
/// use gpu_array::manipulation::{ConstantForm, constant_cast};
/// let v = constant_cast(ScalarValue::Int(-1), DType::UInt8, ConstantForm::NumpyScalar)?;
/// assert_eq!(v, ScalarValue::Int(255)); // a NumPy scalar wraps
/// assert!(constant_cast(ScalarValue::Int(-1), DType::UInt8, ConstantForm::PythonScalar).is_err());
/// assert_eq!(constant_cast(ScalarValue::Float(2.7), DType::Int32, ConstantForm::NumpyScalar)?, ScalarValue::Int(2));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// NumPy's, as above: [`Error::Value`] for its `ValueError` and
/// `OverflowError`, [`Error::DType`] for its `TypeError`.
pub fn constant_cast(value: ScalarValue, dtype: DType, form: ConstantForm) -> Result<ScalarValue> {
    use ScalarValue as S;
    let python = form == ConstantForm::PythonScalar;
    if dtype == DType::Bool {
        return Ok(S::Bool(match value {
            S::Bool(b) => b,
            S::Int(n) => n != 0,
            S::Float(f) => f != 0.0,
            S::Complex(c) => c.re != 0.0 || c.im != 0.0,
        }));
    }
    if dtype.is_complex() {
        return Ok(value);
    }
    let value = match value {
        S::Complex(_) if python => {
            return Err(Error::DType(if dtype.is_integer() {
                "int() argument must be a string, a bytes-like object or a real number, not 'complex'"
                    .into()
            } else {
                "float() argument must be a string or a real number, not 'complex'".into()
            }));
        }
        S::Complex(c) => S::Float(c.re),
        S::Bool(b) => S::Int(i128::from(b)),
        v => v,
    };
    if !dtype.is_integer() {
        return Ok(value);
    }
    let signed = dtype.kind() == 'i';
    match value {
        S::Float(f) if !python && !signed => {
            float_to_int(f)?;
            Ok(c_cast_unsigned(f, dtype))
        }
        S::Float(f) => checked_int(float_to_int(f)?, dtype),
        S::Int(n) if !python && !signed => Ok(wrap_unsigned(n, dtype)),
        S::Int(n) => checked_int(n, dtype),
        v => Ok(v),
    }
}

/// One cast `(before, after)` pair per axis from the mode's value and
/// `constant_values`, in NumPy's forms ([`ConstantForm`]).
fn constant_pairs(
    v: ScalarValue,
    pairs: &[(ScalarValue, ScalarValue)],
    nd: usize,
    dtype: DType,
) -> Result<Vec<(ScalarValue, ScalarValue)>> {
    if nd == 0 {
        // NumPy's `_as_pairs(values, 0)` hands out no value to cast.
        return Ok(Vec::new());
    }
    let (flat, form): (Vec<ScalarValue>, _) = match pairs.len() {
        0 => (vec![v, v], ConstantForm::NumpyScalar),
        1 => (vec![pairs[0].0, pairs[0].1], ConstantForm::NumpyScalar),
        l if l == nd => (
            pairs.iter().flat_map(|&(b, e)| [b, e]).collect(),
            ConstantForm::PythonScalar,
        ),
        l => {
            return Err(Error::Value(format!(
                "pad: {l} constant_values pairs for an array of {nd} dimensions"
            )));
        }
    };
    let cast = unify_constants(&flat)?
        .into_iter()
        .map(|x| constant_cast(x, dtype, form))
        .collect::<Result<Vec<_>>>()?;
    let cast: Vec<_> = cast.chunks(2).map(|p| (p[0], p[1])).collect();
    Ok(if cast.len() == 1 {
        vec![cast[0]; nd]
    } else {
        cast
    })
}

/// The source position along an axis of length `n` of each of the
/// `before + n + after` positions of the padded axis, for the index modes
/// (NumPy's results for any pad width, however many times it exceeds the
/// axis: wrap has period `n`, reflect `2n - 2`, symmetric `2n`).
///
/// ```
/// use gpu_array::manipulation::{PadMode, pad_indices};
/// assert_eq!(pad_indices(PadMode::Edge, 3, 2, 2), [0, 0, 0, 1, 2, 2, 2]);
/// assert_eq!(pad_indices(PadMode::Reflect, 3, 2, 2), [2, 1, 0, 1, 2, 1, 0]);
/// assert_eq!(pad_indices(PadMode::Wrap, 3, 2, 2), [1, 2, 0, 1, 2, 0, 1]);
/// ```
///
/// # Panics
/// For a mode that is not an index mode, or `n == 0`.
pub fn pad_indices(mode: PadMode, n: usize, before: usize, after: usize) -> Vec<i64> {
    assert!(n > 0, "pad_indices of an empty axis");
    let (n, b) = (n as i64, before as i64);
    (0..n + b + after as i64)
        .map(|j| {
            let t = j - b;
            match mode {
                PadMode::Edge => t.clamp(0, n - 1),
                PadMode::Wrap => t.rem_euclid(n),
                PadMode::Reflect => {
                    let p = 2 * (n - 1);
                    if p == 0 {
                        0
                    } else {
                        let t = t.rem_euclid(p);
                        if t < n { t } else { p - t }
                    }
                }
                PadMode::Symmetric => {
                    let p = 2 * n;
                    let t = t.rem_euclid(p);
                    if t < n { t } else { p - 1 - t }
                }
                m => panic!("{m:?} is not an index mode"),
            }
        })
        .collect()
}

/// The elements each side's statistic covers on an axis of length `n`
/// (NumPy's `_get_stats`: `None` or a length beyond the axis is the whole
/// axis).
///
/// ```
/// use gpu_array::manipulation::stat_lengths;
/// assert_eq!(stat_lengths(5, (Some(2), None)), (2, 5));
/// assert_eq!(stat_lengths(5, (Some(10), Some(1))), (5, 1)); // clamped to the axis
/// ```
pub fn stat_lengths(n: usize, stat_length: (Option<usize>, Option<usize>)) -> (usize, usize) {
    let clamp = |l: Option<usize>| l.map_or(n, |l| l.min(n));
    (clamp(stat_length.0), clamp(stat_length.1))
}

/// One entry per axis from NumPy's broadcast forms: one for every axis,
/// or one each.
fn per_axis<T: Clone>(v: &[T], nd: usize, what: &str) -> Result<Vec<T>> {
    match v.len() {
        1 => Ok(vec![v[0].clone(); nd]),
        l if l == nd => Ok(v.to_vec()),
        l => Err(Error::Value(format!(
            "pad: {l} {what} for an array of {nd} dimensions"
        ))),
    }
}

/// `a` padded by `pad_width[d] = (before, after)` elements on each axis
/// (one pair for every axis when given one) with `mode` (NumPy's `pad`
/// with its default `stat_length` and `end_values`; see [`pad_with`]).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let p = pad(&array([1, 2])?, &[(1, 2)], PadMode::Edge)?; // [1, 1, 2, 2, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// A `pad_width` whose length is neither 1 nor `a.ndim()`; a non-constant
/// mode extending an empty axis (NumPy's message); a median of complex
/// values; a complex ramp end value for an integer array (NumPy's
/// `floor` `TypeError`; real arrays drop the imaginary part, as NumPy's
/// ComplexWarning cast); a constant NumPy cannot cast into the dtype
/// (`Constant(NaN)` for an integer array: [`constant_cast`]).
pub fn pad(a: &Array, pad_width: &[(usize, usize)], mode: PadMode) -> Result<Array> {
    pad_with(a, pad_width, mode, &PadOptions::default())
}

/// [`pad`] with NumPy's `stat_length` and per-side `end_values`
/// ([`PadOptions`]).
///
/// `constant_values` casts as NumPy's assignment does ([`constant_cast`]);
/// `reflect_type` odd replays NumPy's reflection rounds.
///
/// `linear_ramp` evaluates NumPy's `linspace(end, edge, width,
/// endpoint=False)` in float64 (complex128 for complex arrays), floors it
/// for integer dtypes and casts: NumPy's own arithmetic for a scalar or a
/// single pair of end values (NumPy scalars, which promote float16 and
/// float32 ramps to float64). For per-axis pairs NumPy evaluates float16
/// and float32 ramps in the array's dtype, so those may differ from
/// Cuprum's in the last place.
///
/// ```no_run
/// use gpu_array::{creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let opts = PadOptions::default().reflect_type(ReflectType::Odd);
/// // np.pad([1, 2, 4], 2, mode='reflect', reflect_type='odd'): [-2, 0, 1, 2, 4, 6, 7]
/// let p = pad_with(&array([1, 2, 4])?, &[(2, 2)], PadMode::Reflect, &opts)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`pad`]; a `stat_length` or `end_values` list whose length is
/// neither 0, 1 nor `a.ndim()`; any keyword given for a mode that does not
/// take it ("unsupported keyword arguments for mode 'edge': {'stat_length'}",
/// as NumPy); a `constant_values` list whose length is neither 0, 1 nor
/// `a.ndim()`, or a constant NumPy cannot cast ([`constant_cast`]); a
/// `stat_length` of 0 for maximum or minimum (NumPy's "stat_length of 0
/// yields no value for padding").
pub fn pad_with(
    a: &Array,
    pad_width: &[(usize, usize)],
    mode: PadMode,
    opts: &PadOptions,
) -> Result<Array> {
    let nd = a.ndim();
    let widths = per_axis(pad_width, nd, "(before, after) pairs")?;
    let unsupported = |kw: &str| {
        Err(Error::Value(format!(
            "unsupported keyword arguments for mode '{}': {{'{kw}'}}",
            mode.name()
        )))
    };
    if !opts.stat_length.is_empty() && !mode.is_statistic() {
        return unsupported("stat_length");
    }
    if !opts.end_values.is_empty() && !matches!(mode, PadMode::LinearRamp(_)) {
        return unsupported("end_values");
    }
    if !opts.constant_values.is_empty() && !matches!(mode, PadMode::Constant(_)) {
        return unsupported("constant_values");
    }
    if opts.reflect_type.is_some() && !matches!(mode, PadMode::Reflect | PadMode::Symmetric) {
        return unsupported("reflect_type");
    }
    let odd = opts.reflect_type == Some(ReflectType::Odd);
    let stat_len = if opts.stat_length.is_empty() {
        vec![(None, None); nd]
    } else {
        per_axis(&opts.stat_length, nd, "stat_length pairs")?
    };
    let ends = match mode {
        PadMode::LinearRamp(v) if opts.end_values.is_empty() => vec![(v, v); nd],
        PadMode::LinearRamp(_) => {
            // NumPy's `np.array(end_values)`: one complex end makes every
            // ramp a complex linspace (an integer array's a TypeError).
            let flat: Vec<ScalarValue> =
                opts.end_values.iter().flat_map(|&(b, e)| [b, e]).collect();
            let flat = unify_constants(&flat)?;
            let pairs: Vec<_> = flat.chunks(2).map(|p| (p[0], p[1])).collect();
            per_axis(&pairs, nd, "end_values pairs")?
        }
        _ => Vec::new(),
    };
    let shape: Vec<usize> = a
        .shape()
        .iter()
        .zip(&widths)
        .map(|(&n, &(b, e))| n + b + e)
        .collect();
    if let PadMode::Constant(v) = mode {
        // NumPy casts (and rejects) every value, even for empty pads.
        let values = constant_pairs(v, &opts.constant_values, nd, a.dtype())?;
        let out = Array::empty_on(a.device(), &shape, a.dtype(), Order::C)?;
        let uniform = values
            .first()
            .is_some_and(|&(v0, _)| values.iter().all(|&(b, e)| b == v0 && e == v0));
        if uniform && out.size() > 0 {
            // One fill of everything, then the interior over it.
            out.fill(values[0].0)?;
        }
        let mut inner = out.clone();
        for (d, &(b, _)) in widths.iter().enumerate() {
            inner = axis_view(&inner, d, b, a.shape()[d], 1);
        }
        inner.copy_from(a)?;
        if !uniform {
            // NumPy's `_view_roi`: axis d's slabs span the whole of the
            // axes before it (so a later axis wins at the corners) and the
            // original extent of the axes after it.
            let fill = |v: &Array, val: ScalarValue| -> Result<()> {
                if v.size() > 0 { v.fill(val) } else { Ok(()) }
            };
            for (d, (&(b, e), &(vb, ve))) in widths.iter().zip(&values).enumerate() {
                let mut roi = out.clone();
                for (k, &(bk, _)) in widths.iter().enumerate().skip(d + 1) {
                    roi = axis_view(&roi, k, bk, a.shape()[k], 1);
                }
                fill(&axis_view(&roi, d, 0, b, 1), vb)?;
                fill(&axis_view(&roi, d, b + a.shape()[d], e, 1), ve)?;
            }
        }
        return Ok(out);
    }
    if a.size() == 0 {
        // NumPy's early exit: only the empty axes must stay unpadded, and
        // the result holds no element to compute.
        if let Some(d) = (0..nd).find(|&d| a.shape()[d] == 0 && widths[d] != (0, 0)) {
            return Err(Error::Value(format!(
                "can't extend empty axis {d} using modes other than 'constant' or 'empty'"
            )));
        }
        return Array::empty_on(a.device(), &shape, a.dtype(), Order::C);
    }
    if a.dtype().is_integer()
        && ends
            .iter()
            .any(|&(b, _)| matches!(b, ScalarValue::Complex(_)))
    {
        // NumPy's linspace floors integer ramps, and floor has no complex
        // loop: a TypeError on every axis, padded or not (the ends are
        // all complex or none, `unify_constants`).
        return Err(Error::DType(
            "ufunc 'floor' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
                .into(),
        ));
    }
    let mut cur = a.clone();
    for (d, &(b, e)) in widths.iter().enumerate() {
        let n = cur.shape()[d];
        let (left_len, right_len) = stat_lengths(n, stat_len[d]);
        // NumPy checks every axis, padded or not.
        if matches!(mode, PadMode::Maximum | PadMode::Minimum) && (left_len == 0 || right_len == 0)
        {
            return Err(Error::Value(
                "stat_length of 0 yields no value for padding".into(),
            ));
        }
        if b == 0 && e == 0 {
            continue;
        }
        cur = match mode {
            PadMode::Maximum | PadMode::Minimum | PadMode::Mean | PadMode::Median => {
                let left = side_statistic(mode, &axis_view(&cur, d, 0, left_len, 1), d)?;
                let right = if left_len == n && right_len == n {
                    left.clone()
                } else {
                    side_statistic(mode, &axis_view(&cur, d, n - right_len, right_len, 1), d)?
                };
                let side = |stat: &Array, w: usize| -> Result<Array> {
                    let mut s = cur.shape().to_vec();
                    s[d] = w;
                    stat.broadcast_to(&s)
                };
                concatenate(
                    &[&side(&left, b)?, &cur, &side(&right, e)?],
                    Some(d as isize),
                )?
            }
            PadMode::LinearRamp(_) => {
                let (end_b, end_e) = ends[d];
                let left = linear_ramp(&cur, d, 0, end_b, b)?;
                let right = linear_ramp(&cur, d, n - 1, end_e, e)?;
                // NumPy reverses the right ramp: it climbs towards the edge.
                let right = crate::manipulation::flip(&right, Some(&[d as isize]))?;
                concatenate(&[&left, &cur, &right], Some(d as isize))?
            }
            // NumPy pads a singleton axis with its edge, odd or not.
            PadMode::Reflect | PadMode::Symmetric if odd && n > 1 => {
                reflect_odd(&cur, d, b, e, mode == PadMode::Symmetric)?
            }
            _ => {
                let idx = pad_indices(mode, n, b, e);
                let len = idx.len();
                let idx = Array::from_slice_on(cur.device(), &idx, &[len])?;
                take(&cur, &idx, Some(d as isize), TakeMode::Wrap)?
            }
        };
    }
    if cur.shares_memory_with(a) {
        cur = cur.copy()?;
    }
    Ok(cur)
}

/// Axis `d` of `cur` padded by `before` and `after` odd reflections:
/// NumPy's `_set_reflect_both` rounds with `method='odd'`, each writing
/// `2 * edge - chunk` for a chunk of up to the already padded length
/// (rounded to whole periods) beside the current outer edge, so the result
/// rounds as NumPy's does for floats (a closed form would not), and bool
/// arrays go through NumPy's int64 arithmetic (`2 * True - False` is 2,
/// true). `n = cur.shape()[d] > 1`.
fn reflect_odd(
    cur: &Array,
    d: usize,
    before: usize,
    after: usize,
    include_edge: bool,
) -> Result<Array> {
    let dt = cur.dtype();
    let n = cur.shape()[d];
    let mut shape = cur.shape().to_vec();
    let total = n + before + after;
    shape[d] = total;
    let out = Array::empty_on(cur.device(), &shape, dt, Order::C)?;
    axis_view(&out, d, before, n, 1).copy_from(cur)?;
    // `2 * edge - chunk`, back in the array's dtype.
    let odd = |edge: &Array, chunk: &Array| -> Result<Array> {
        let twice = ufunc::multiply(edge, Input::Scalar(ScalarValue::Int(2)))?;
        let r = ufunc::subtract(&twice, chunk)?;
        if r.dtype() == dt { Ok(r) } else { r.astype(dt) }
    };
    let (mut left, mut right) = (before, after);
    while left > 0 || right > 0 {
        let old = total - left - right;
        let (old, edge_offset) = if include_edge {
            (old / n * n, 1)
        } else {
            ((old - 1) / (n - 1) * (n - 1), 0)
        };
        if left > 0 {
            let chunk = old.min(left);
            let stop = left - edge_offset;
            let src = axis_view(&out, d, stop + chunk, chunk, -1);
            let edge = axis_view(&out, d, left, 1, 1);
            axis_view(&out, d, left - chunk, chunk, 1).copy_from(&odd(&edge, &src)?)?;
            left -= chunk;
        }
        if right > 0 {
            let chunk = old.min(right);
            let start = total - right + edge_offset - 2;
            let src = axis_view(&out, d, start, chunk, -1);
            let edge = axis_view(&out, d, total - right - 1, 1, 1);
            axis_view(&out, d, total - right, chunk, 1).copy_from(&odd(&edge, &src)?)?;
            right -= chunk;
        }
    }
    Ok(out)
}

/// The statistic of `chunk` along `d` (kept as length 1) in `chunk`'s
/// dtype: NumPy's `_get_stats` and `_round_if_needed` (integer dtypes
/// round half to even; bool does not round, any nonzero mean is true).
fn side_statistic(mode: PadMode, chunk: &Array, d: usize) -> Result<Array> {
    let opts = ReduceOptions {
        axis: Some(vec![d as isize]),
        keepdims: true,
        ..Default::default()
    };
    let dt = chunk.dtype();
    let m = match mode {
        PadMode::Maximum => return amax(chunk, &opts),
        PadMode::Minimum => return amin(chunk, &opts),
        PadMode::Mean => mean(chunk, &opts)?,
        _ => crate::sorting::median(chunk, Some(&[d as isize]), true)?,
    };
    if dt.is_integer() {
        ufunc::rint(&m)?.astype(dt)
    } else if m.dtype() != dt {
        m.astype(dt)
    } else {
        Ok(m)
    }
}

/// NumPy's `linspace(end, edge, width, endpoint=False, axis=d)` from the
/// edge at position `edge_at` of axis `d`, in `cur`'s dtype: evaluated in
/// float64 (complex128) as `j * step + end`, or `j / width * delta + end`
/// when any step is zero (NumPy's guard for denormal steps, decided on the
/// device), floored for integer dtypes.
fn linear_ramp(
    cur: &Array,
    d: usize,
    edge_at: usize,
    end: ScalarValue,
    width: usize,
) -> Result<Array> {
    let dt = cur.dtype();
    let mut shape = cur.shape().to_vec();
    shape[d] = width;
    if width == 0 {
        return Array::empty_on(cur.device(), &shape, dt, Order::C);
    }
    let complex_end = matches!(end, ScalarValue::Complex(_));
    // A complex end on a real array: NumPy's linspace evaluates in
    // complex128 and its cast to the array's dtype drops the imaginary
    // part (ComplexWarning; bool keeps "nonzero").
    let wide = if dt.is_complex() || complex_end {
        DType::Complex128
    } else {
        DType::Float64
    };
    let edge = axis_view(cur, d, edge_at, 1, 1).astype(wide)?;
    let delta = ufunc::subtract(&edge, Input::Scalar(end))?;
    let mut jshape = vec![1usize; cur.ndim()];
    jshape[d] = width;
    let js: Vec<f64> = (0..width).map(|j| j as f64).collect();
    let j = Array::from_slice_on(cur.device(), &js, &jshape)?;
    let w = width as f64;
    let step = ufunc::divide(&delta, w)?;
    let by_step = ufunc::multiply(&j, &step)?;
    let by_delta = ufunc::multiply(&ufunc::divide(&j, w)?, &delta)?;
    let any_zero = any(&step.equal(0.0)?, ReduceOptions::default())?;
    let y = ufunc::add(&where_(&any_zero, &by_delta, &by_step)?, Input::Scalar(end))?;
    let y = if dt.is_integer() {
        ufunc::floor(&y)?
    } else {
        y
    };
    y.astype(dt)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NumPy 2.4's `np.pad(np.arange(n), (b, e), mode)` as source indices.
    #[test]
    fn index_modes_follow_numpy() {
        assert_eq!(pad_indices(PadMode::Edge, 3, 2, 1), vec![0, 0, 0, 1, 2, 2]);
        assert_eq!(
            pad_indices(PadMode::Wrap, 3, 4, 2),
            vec![2, 0, 1, 2, 0, 1, 2, 0, 1]
        );
        // np.pad([1, 2, 3], (5, 2), 'reflect') == [2, 1, 2, 3, 2, 1, 2, 3, 2, 1]
        assert_eq!(
            pad_indices(PadMode::Reflect, 3, 5, 2),
            vec![1, 0, 1, 2, 1, 0, 1, 2, 1, 0]
        );
        // np.pad([1, 2, 3], (4, 3), 'symmetric') == [3, 3, 2, 1, 1, 2, 3, 3, 2, 1]
        assert_eq!(
            pad_indices(PadMode::Symmetric, 3, 4, 3),
            vec![2, 2, 1, 0, 0, 1, 2, 2, 1, 0]
        );
        assert_eq!(pad_indices(PadMode::Reflect, 1, 2, 2), vec![0; 5]);
    }

    /// NumPy's `_get_stats` lengths: `None` and long lengths cover the axis.
    #[test]
    fn stat_lengths_clamp_to_the_axis() {
        assert_eq!(stat_lengths(5, (None, None)), (5, 5));
        assert_eq!(stat_lengths(5, (Some(2), Some(9))), (2, 5));
        assert_eq!(stat_lengths(5, (Some(0), None)), (0, 5));
        assert_eq!(stat_lengths(0, (Some(3), None)), (0, 0));
    }

    #[test]
    fn per_axis_broadcasts_one_pair() {
        assert_eq!(per_axis(&[(1, 2)], 3, "x").unwrap(), vec![(1, 2); 3]);
        assert_eq!(per_axis(&[1, 2], 2, "x").unwrap(), vec![1, 2]);
        assert_eq!(
            per_axis(&[1, 2], 3, "stat_length pairs")
                .unwrap_err()
                .to_string(),
            "pad: 2 stat_length pairs for an array of 3 dimensions"
        );
        assert_eq!(
            PadMode::LinearRamp(ScalarValue::Int(0)).name(),
            "linear_ramp"
        );
    }

    /// NumPy 2.4's casts of `np.pad(np.zeros(1, dt), 1, constant_values=v)`
    /// (NumPy scalars) and of per-axis pairs (Python scalars).
    #[test]
    fn constant_casts_follow_numpy() {
        use ConstantForm::{NumpyScalar as N, PythonScalar as P};
        use ScalarValue::{Bool, Complex as C, Float, Int};
        let c = |v, dt| constant_cast(v, dt, N).unwrap();
        let e = |v, dt, f| constant_cast(v, dt, f).unwrap_err().to_string();
        let z = |re, im| C(num_complex::Complex::new(re, im));
        // Unsigned dtypes wrap NumPy scalars as a C cast; signed ones check.
        assert_eq!(c(Int(300), DType::UInt8), Int(44));
        assert_eq!(c(Int(-1), DType::UInt64), Int(u64::MAX as i128));
        assert_eq!(c(Int(1 << 63), DType::UInt8), Int(0));
        assert_eq!(
            e(Int(300), DType::Int8, N),
            "Python integer 300 out of bounds for int8"
        );
        assert_eq!(e(Int(1 << 63), DType::Int64, N), TOO_LARGE);
        assert_eq!(c(Float(300.0), DType::UInt8), Int(44));
        assert_eq!(c(Float(-0.5), DType::UInt8), Int(0));
        assert_eq!(c(Float(-70000.0), DType::UInt16), Int(61072));
        assert_eq!(c(Float(5e9), DType::UInt16), Int(0));
        assert_eq!(c(Float(-5e9), DType::UInt32), Int(3589934592));
        assert_eq!(c(Float(1e19), DType::UInt32), Int(0));
        assert_eq!(
            c(Float(1e19), DType::UInt64),
            Int(10_000_000_000_000_000_000)
        );
        assert_eq!(c(Float(-1e20), DType::UInt64), Int(1 << 63));
        assert_eq!(c(Float(1e20), DType::UInt64), Int(0));
        assert_eq!(c(Float(-2.7), DType::Int32), Int(-2));
        assert_eq!(
            e(Float(3e9), DType::Int32, N),
            "Python integer 3000000000 out of bounds for int32"
        );
        assert_eq!(e(Float(1e19), DType::Int64, N), TOO_LARGE);
        assert_eq!(
            e(Float(f64::NAN), DType::UInt8, N),
            "cannot convert float NaN to integer"
        );
        assert_eq!(
            e(Float(f64::INFINITY), DType::Int32, N),
            "cannot convert float infinity to integer"
        );
        // Complex NumPy scalars lose the imaginary part (ComplexWarning).
        assert_eq!(c(z(300.5, 1.0), DType::UInt8), Int(44));
        assert_eq!(c(z(1.0, 2.0), DType::Float32), Float(1.0));
        assert_eq!(c(z(0.0, 1.0), DType::Bool), Bool(true));
        assert_eq!(c(Float(0.5), DType::Bool), Bool(true));
        assert_eq!(c(Bool(true), DType::UInt8), Int(1));
        assert_eq!(c(z(1.0, 1.0), DType::Complex64), z(1.0, 1.0));
        // Python scalars: every integer dtype checks, complex is a TypeError.
        assert_eq!(
            e(Int(-1), DType::UInt8, P),
            "Python integer -1 out of bounds for uint8"
        );
        assert_eq!(
            e(Float(-2.7), DType::UInt8, P),
            "Python integer -2 out of bounds for uint8"
        );
        assert_eq!(e(Int(1 << 63), DType::UInt64, P), TOO_LARGE);
        assert_eq!(constant_cast(Float(2.7), DType::UInt8, P).unwrap(), Int(2));
        assert_eq!(
            e(z(1.0, 0.0), DType::Float32, P),
            "float() argument must be a string or a real number, not 'complex'"
        );
        assert!(e(z(1.0, 0.0), DType::Int16, P).starts_with("int() argument"));
        assert_eq!(
            constant_cast(z(0.0, 2.0), DType::Bool, P).unwrap(),
            Bool(true)
        );
    }

    /// NumPy's `np.array` of the values: one kind for all of them.
    #[test]
    fn constants_unify_as_np_array() {
        use ScalarValue::{Bool, Complex as C, Float, Int};
        let u = |v: &[ScalarValue]| unify_constants(v).unwrap();
        assert_eq!(u(&[Bool(true), Int(3)]), vec![Int(1), Int(3)]);
        assert_eq!(u(&[Int(1), Float(2.5)]), vec![Float(1.0), Float(2.5)]);
        assert_eq!(
            u(&[Int(1), C(num_complex::Complex::new(0.0, 2.0))])[0],
            C(num_complex::Complex::new(1.0, 0.0))
        );
        // uint64 holds both; only float64 holds -1 and 2**63.
        assert_eq!(u(&[Int(1 << 63), Int(1)]), vec![Int(1 << 63), Int(1)]);
        assert_eq!(
            u(&[Int(-1), Int(1 << 63)]),
            vec![Float(-1.0), Float((1u64 << 63) as f64)]
        );
        assert_eq!(
            unify_constants(&[Int(1 << 64)]).unwrap_err().to_string(),
            TOO_LARGE
        );
    }

    /// One pair or one value per side: NumPy scalars; one pair per axis:
    /// Python scalars, unified over all axes.
    #[test]
    fn constant_pairs_take_numpy_forms() {
        use ScalarValue::{Complex as C, Int};
        // A 0-d array has no side, so nothing to cast (NumPy).
        assert!(
            constant_pairs(ScalarValue::Float(f64::NAN), &[], 0, DType::Int8)
                .unwrap()
                .is_empty()
        );
        let p = constant_pairs(Int(300), &[], 3, DType::UInt8).unwrap();
        assert_eq!(p, vec![(Int(44), Int(44)); 3]);
        let p = constant_pairs(Int(0), &[(Int(300), Int(-1))], 2, DType::UInt8).unwrap();
        assert_eq!(p, vec![(Int(44), Int(255)); 2]);
        let per_axis = [(Int(300), Int(1)), (Int(2), Int(3))];
        assert_eq!(
            constant_pairs(Int(0), &per_axis, 2, DType::UInt8)
                .unwrap_err()
                .to_string(),
            "Python integer 300 out of bounds for uint8"
        );
        // One complex makes every value complex: a TypeError for floats.
        let j = C(num_complex::Complex::new(0.0, 1.0));
        assert!(
            constant_pairs(Int(0), &[(Int(1), j), (Int(2), Int(3))], 2, DType::Float32).is_err()
        );
        assert!(constant_pairs(Int(0), &[(Int(1), j)], 2, DType::Float32).is_ok());
        assert_eq!(
            constant_pairs(Int(0), &per_axis, 3, DType::Int8)
                .unwrap_err()
                .to_string(),
            "pad: 2 constant_values pairs for an array of 3 dimensions"
        );
    }
}
