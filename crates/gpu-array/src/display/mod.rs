//! Printing arrays as NumPy 2 does: `repr` ([`array_repr`], `{:?}`) and
//! `str` ([`array_str`], `{}`), with NumPy's print options
//! ([`PrintOptions`], [`set_printoptions`], [`printoptions`]).
//!
//! | NumPy                                   | Cuprum                                               |
//! |-----------------------------------------|------------------------------------------------------|
//! | `repr(a)`, `np.array_repr(a)`           | `format!("{a:?}")`, [`array_repr`]`(&a)?`            |
//! | `str(a)`, `np.array_str(a)`, `print(a)` | `format!("{a}")`, [`array_str`]`(&a)?`               |
//! | `np.set_printoptions(precision=4)`      | [`set_printoptions`]`(get_printoptions().precision(4))` |
//! | `with np.printoptions(threshold=5):`    | `let _g = `[`printoptions`]`(get_printoptions().threshold(5));` |
//!
//! The text is made on the host from the dtype, the shape and the C-order
//! element bytes ([`format_repr`], [`format_str`]), so it needs no GPU;
//! the device functions copy to the host only what is shown (the corners of
//! a summarised array).
//!
//! What NumPy does and Cuprum follows: a format common to all shown
//! elements (same width; floats all positional or all scientific, chosen as
//! NumPy's `floatmode='maxprec'`: scientific when the largest shown
//! magnitude reaches `10**min(8, finfo.precision)`, or, unless `suppress`,
//! when the smallest non-zero one is below `1e-4` or the ratio of largest to
//! smallest exceeds 1000), shortest round-trip digits of the element's own
//! type cut at `precision`, `nan`/`inf`, `-0.`, `1.+2.j`, ` True`/`False`;
//! summaries with `...` past `threshold` elements, keeping `edgeitems` per
//! side; wrapping at `linewidth`; `shape=` in the repr of summarised and of
//! empty non-1-D arrays; `dtype=` unless it is int64, float64, complex128 or
//! bool. The `str` of a 0-d array is the scalar's `str` (`3.5`, `1e+16`,
//! `(1+2j)`).
//!
//! Beyond NumPy: `bfloat16` prints like `float16` does (NumPy's float
//! formatting with its own shortest digits and `finfo.precision` 2, so
//! scientific from 100), not as `ml_dtypes` prints it (`%g`-like, no common
//! format). Only NumPy's default `sign='-'` and `floatmode='maxprec'` are
//! offered.

mod float;
mod format;

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::{AxisIndex, checked_size, fmt_shape};

use format::{Shown, corner_shape, corners};

/// NumPy's print options (`np.get_printoptions()`), the parts Cuprum
/// honours. [`Default`] gives NumPy's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PrintOptions {
    /// Digits after the decimal point at most (8).
    pub precision: usize,
    /// Arrays with more elements than this are summarised (1000); use
    /// `usize::MAX` for never (NumPy's `sys.maxsize`).
    pub threshold: usize,
    /// Items kept at each end of a summarised axis (3; at least 1 is used).
    pub edgeitems: usize,
    /// Characters per line (75).
    pub linewidth: usize,
    /// Never switch to scientific notation for small values; they print as
    /// zero at the given precision (false).
    pub suppress: bool,
}

impl PrintOptions {
    /// Sets `precision`.
    ///
    /// ```
    /// use gpu_array::display::PrintOptions;
    /// assert_eq!(PrintOptions::default().precision(3).precision, 3);
    /// ```
    #[must_use]
    pub fn precision(mut self, precision: usize) -> PrintOptions {
        self.precision = precision;
        self
    }

    /// Sets `threshold`.
    ///
    /// ```
    /// use gpu_array::display::PrintOptions;
    /// assert_eq!(PrintOptions::default().threshold(10).threshold, 10); // summarise above 10 elements
    /// ```
    #[must_use]
    pub fn threshold(mut self, threshold: usize) -> PrintOptions {
        self.threshold = threshold;
        self
    }

    /// Sets `edgeitems`.
    ///
    /// ```
    /// use gpu_array::display::PrintOptions;
    /// assert_eq!(PrintOptions::default().edgeitems(2).edgeitems, 2);
    /// ```
    #[must_use]
    pub fn edgeitems(mut self, edgeitems: usize) -> PrintOptions {
        self.edgeitems = edgeitems;
        self
    }

    /// Sets `linewidth`.
    ///
    /// ```
    /// use gpu_array::display::PrintOptions;
    /// assert_eq!(PrintOptions::default().linewidth(120).linewidth, 120);
    /// ```
    #[must_use]
    pub fn linewidth(mut self, linewidth: usize) -> PrintOptions {
        self.linewidth = linewidth;
        self
    }

    /// Sets `suppress`.
    ///
    /// ```
    /// use gpu_array::display::PrintOptions;
    /// assert!(PrintOptions::default().suppress(true).suppress);
    /// ```
    #[must_use]
    pub fn suppress(mut self, suppress: bool) -> PrintOptions {
        self.suppress = suppress;
        self
    }
}

impl Default for PrintOptions {
    fn default() -> PrintOptions {
        PrintOptions {
            precision: 8,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 75,
            suppress: false,
        }
    }
}

thread_local! {
    static OPTIONS: Cell<PrintOptions> = Cell::new(PrintOptions::default());
}

/// The current thread's print options (`np.get_printoptions()`).
///
/// Options are per thread, as NumPy 2 keeps them per context: a new thread
/// starts from the defaults.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// assert_eq!(get_printoptions().precision, 8); // np.get_printoptions()['precision']
/// ```
pub fn get_printoptions() -> PrintOptions {
    OPTIONS.with(Cell::get)
}

/// Sets the current thread's print options (`np.set_printoptions`).
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// set_printoptions(get_printoptions().precision(3)); // np.set_printoptions(precision=3)
/// ```
pub fn set_printoptions(options: PrintOptions) {
    OPTIONS.with(|o| o.set(options));
}

/// Sets print options until the returned guard drops (`with
/// np.printoptions(...):`).
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let _g = printoptions(get_printoptions().precision(2).suppress(true)); // with np.printoptions(precision=2, suppress=True):
/// println!("{}", array([1.0 / 3.0, 1e-9])?); // [0.33 0.  ]
/// # Ok(()) }
/// ```
#[must_use = "the options revert when the guard drops"]
pub fn printoptions(options: PrintOptions) -> PrintOptionsGuard {
    let previous = get_printoptions();
    set_printoptions(options);
    PrintOptionsGuard {
        previous,
        _thread: PhantomData,
    }
}

/// Restores the previous print options when dropped (from [`printoptions`]).
#[derive(Debug)]
pub struct PrintOptionsGuard {
    previous: PrintOptions,
    /// The options are the thread's own: the guard stays on its thread.
    _thread: PhantomData<*const ()>,
}

impl Drop for PrintOptionsGuard {
    fn drop(&mut self) {
        set_printoptions(self.previous);
    }
}

fn effective(opts: &PrintOptions) -> PrintOptions {
    PrintOptions {
        edgeitems: opts.edgeitems.max(1),
        ..*opts
    }
}

/// Checks host data and picks what is shown.
fn host_shown<'a>(
    dtype: DType,
    shape: &'a [usize],
    bytes: &'a [u8],
    opts: &PrintOptions,
) -> Result<Shown<'a>> {
    let n = checked_size(shape, dtype.itemsize())?;
    if n * dtype.itemsize() != bytes.len() {
        return Err(Error::Value(format!(
            "{} bytes do not hold an array of shape {} and dtype {dtype} ({} bytes)",
            bytes.len(),
            fmt_shape(shape),
            n * dtype.itemsize()
        )));
    }
    let summary = n > opts.threshold;
    Ok(if summary {
        Shown {
            shape,
            shown_shape: corner_shape(shape, opts.edgeitems),
            bytes: Cow::Owned(corners(shape, bytes, dtype.itemsize(), opts.edgeitems)),
            summary,
        }
    } else {
        Shown {
            shape,
            shown_shape: shape.to_vec(),
            bytes: Cow::Borrowed(bytes),
            summary,
        }
    })
}

/// NumPy's `repr` of the array of `dtype` and `shape` whose C-order
/// little-endian element bytes are `bytes`: `array([1., 2.], dtype=float32)`.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let b: Vec<u8> = [1.0f64, 2.5].iter().flat_map(|v| v.to_le_bytes()).collect();
/// let s = format_repr(gpu_array::DType::Float64, &[2], &b, &get_printoptions())?; // "array([1. , 2.5])"
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::Value`] if `bytes` does not hold `shape` of `dtype`.
pub fn format_repr(
    dtype: DType,
    shape: &[usize],
    bytes: &[u8],
    options: &PrintOptions,
) -> Result<String> {
    let opts = effective(options);
    Ok(format::repr(
        dtype,
        &host_shown(dtype, shape, bytes, &opts)?,
        &opts,
    ))
}

/// NumPy's `str` of host data (see [`format_repr`]): `[1. 2.]`.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let b: Vec<u8> = [1i64, 2].iter().flat_map(|v| v.to_le_bytes()).collect();
/// let s = format_str(gpu_array::DType::Int64, &[2], &b, &get_printoptions())?; // "[1 2]"
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`format_repr`].
pub fn format_str(
    dtype: DType,
    shape: &[usize],
    bytes: &[u8],
    options: &PrintOptions,
) -> Result<String> {
    let opts = effective(options);
    Ok(format::str(
        dtype,
        &host_shown(dtype, shape, bytes, &opts)?,
        &opts,
    ))
}

/// Copies to the host what the text shows: everything, or the corners of a
/// summarised array (one transfer per corner block).
fn device_shown<'a>(a: &'a Array, opts: &PrintOptions) -> Result<Shown<'a>> {
    let shape = a.shape();
    let summary = a.size() > opts.threshold;
    if !summary {
        return Ok(Shown {
            shape,
            shown_shape: shape.to_vec(),
            bytes: Cow::Owned(a.to_bytes()?),
            summary,
        });
    }
    let edge = opts.edgeitems;
    let itemsize = a.itemsize();
    let cshape = corner_shape(shape, edge);
    let split: Vec<usize> = (0..shape.len()).filter(|&d| shape[d] > 2 * edge).collect();
    if split.len() > 6 {
        // Too many corner blocks: one transfer of everything is cheaper.
        let bytes = a.to_bytes()?;
        return Ok(Shown {
            shape,
            shown_shape: cshape,
            bytes: Cow::Owned(corners(shape, &bytes, itemsize, edge)),
            summary,
        });
    }
    let nd = shape.len();
    let mut cstrides = vec![1usize; nd];
    for d in (0..nd.saturating_sub(1)).rev() {
        cstrides[d] = cstrides[d + 1] * cshape[d + 1];
    }
    let mut out = vec![0u8; cshape.iter().product::<usize>() * itemsize];
    for mask in 0..(1usize << split.len()) {
        let mut index = vec![AxisIndex::FULL; nd];
        let mut origin = vec![0usize; nd];
        for (bit, &d) in split.iter().enumerate() {
            let (start, at) = if mask >> bit & 1 == 0 {
                (0, 0)
            } else {
                (shape[d] - edge, edge)
            };
            index[d] = AxisIndex::Slice {
                start: Some(start as isize),
                stop: Some((start + edge) as isize),
                step: 1,
            };
            origin[d] = at;
        }
        let block = a.slice(&index)?;
        let bytes = block.to_bytes()?;
        let bshape = block.shape();
        let mut idx = vec![0usize; nd];
        for chunk in bytes.chunks_exact(itemsize) {
            let off: usize = (0..nd).map(|d| (origin[d] + idx[d]) * cstrides[d]).sum();
            out[off * itemsize..(off + 1) * itemsize].copy_from_slice(chunk);
            for d in (0..nd).rev() {
                idx[d] += 1;
                if idx[d] < bshape[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
    }
    Ok(Shown {
        shape,
        shown_shape: cshape,
        bytes: Cow::Owned(out),
        summary,
    })
}

/// NumPy's `repr` of a device array with the current print options
/// (`np.array_repr(a)`). Waits for the array's stream.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = array_repr(&array([1, 2])?)?; // np.array_repr(x): "array([1, 2])"
/// # Ok(()) }
/// ```
///
/// # Errors
/// The copy to the host failed.
pub fn array_repr(a: &Array) -> Result<String> {
    array_repr_with(a, &get_printoptions())
}

/// [`array_repr`] with explicit options.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let opts = get_printoptions().precision(2);
/// let s = array_repr_with(&array([1.0 / 3.0])?, &opts)?; // np.array_repr(x, precision=2): "array([0.33])"
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`array_repr`].
pub fn array_repr_with(a: &Array, options: &PrintOptions) -> Result<String> {
    let opts = effective(options);
    Ok(format::repr(a.dtype(), &device_shown(a, &opts)?, &opts))
}

/// NumPy's `str` of a device array with the current print options
/// (`np.array_str(a)`). Waits for the array's stream.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let s = array_str(&array([1, 2])?)?; // np.array_str(x): "[1 2]"
/// # Ok(()) }
/// ```
///
/// # Errors
/// The copy to the host failed.
pub fn array_str(a: &Array) -> Result<String> {
    array_str_with(a, &get_printoptions())
}

/// [`array_str`] with explicit options.
///
/// ```no_run
/// use gpu_array::{creation::array, display::*};
/// # fn main() -> gpu_array::Result<()> {
/// let opts = get_printoptions().precision(2);
/// let s = array_str_with(&array([2.0 / 3.0])?, &opts)?; // np.array_str(x, precision=2): "[0.67]"
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`array_str`].
pub fn array_str_with(a: &Array, options: &PrintOptions) -> Result<String> {
    let opts = effective(options);
    Ok(format::str(a.dtype(), &device_shown(a, &opts)?, &opts))
}

/// NumPy's `str(a)`; waits for the array's stream. A failed copy prints
/// `<error: ...>`.
impl fmt::Display for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match array_str(self) {
            Ok(s) => f.write_str(&s),
            Err(e) => write!(f, "<error: {e}>"),
        }
    }
}

#[cfg(test)]
mod tests;
