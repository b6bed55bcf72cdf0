//! `label`: connected components on the GPU by union-find (the kernels'
//! notes in `kernels/label.cu` tell the algorithm), numbered as SciPy
//! numbers them.

use gpu_array::dtype::iinfo;
use gpu_array::math::cumsum;
use gpu_array::{Array, DType, Error, Result};

use super::kernels::{self, LABEL_DTYPES, MAXDIM};
use super::structure::{binary_structure, neighbours};

/// [`label_with`]'s options (SciPy's `structure=` and `output=`).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_ndimage::{LabelOptions, generate_binary_structure, label_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1, 0], [0, 1]])?;
/// let full = generate_binary_structure(2, 2)?;
/// let opts = LabelOptions::default().structure(&full).output(DType::Int64);
/// let (labels, n) = label_with(&x, &opts)?; // one feature: diagonals connect
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct LabelOptions<'a> {
    /// Which elements are neighbours: a centrosymmetric array of the
    /// input's rank, 3 on every side, nonzero where connected (default:
    /// [`generate_binary_structure`](super::generate_binary_structure)`(ndim, 1)`,
    /// the axis neighbours).
    pub structure: Option<&'a Array>,
    /// The labels' dtype, any integer dtype (default: int32, or int64 for
    /// inputs of 2^31 - 2 elements or more, as SciPy's).
    pub output: Option<DType>,
}

impl<'a> LabelOptions<'a> {
    /// Sets `structure`.
    ///
    /// ```no_run
    /// use gpu_ndimage::{LabelOptions, generate_binary_structure};
    /// # fn main() -> gpu_array::Result<()> {
    /// let full = generate_binary_structure(3, 3)?; // 26-connectivity
    /// let o = LabelOptions::default().structure(&full);
    /// assert!(o.structure.is_some());
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn structure(mut self, structure: impl Into<Option<&'a Array>>) -> LabelOptions<'a> {
        self.structure = structure.into();
        self
    }

    /// Sets `output`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_ndimage::LabelOptions;
    /// let o = LabelOptions::default().output(DType::Int64);
    /// assert_eq!(o.output, Some(DType::Int64));
    /// ```
    #[must_use]
    pub fn output(mut self, output: impl Into<Option<DType>>) -> LabelOptions<'a> {
        self.output = output.into();
        self
    }
}

/// Labels the connected features of `input` (SciPy's `label`): nonzero
/// elements are foreground, and neighbours along the axes are connected.
/// Returns the int32 labels (int64 from 2^31 - 2 elements) and the number
/// of features; features are numbered 1, 2, ... in the C order of their
/// first element, as SciPy numbers them, and the background is 0.
///
/// ```no_run
/// use gpu_ndimage::label;
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 1]])?;
/// let (labels, n) = label(&x)?; // [[1,1,0,0],[0,0,0,2],[3,0,2,2]], 3
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`label_with`].
pub fn label(input: &Array) -> Result<(Array, usize)> {
    label_with(input, &LabelOptions::default())
}

/// [`label`] with a structuring element and an output dtype
/// ([`LabelOptions`]). Works in any number of dimensions up to 16 and at
/// any size: indices are 64-bit throughout.
///
/// ```no_run
/// use gpu_ndimage::{LabelOptions, generate_binary_structure, label_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::array([[1, 0, 1], [0, 1, 0]])?;
/// let s = generate_binary_structure(2, 2)?;
/// let (labels, n) = label_with(&x, &LabelOptions::default().structure(&s))?; // n == 1
/// # Ok(()) }
/// ```
///
/// # Errors
/// Complex input ("Complex type not supported"); a structure of another
/// rank ("structure and input must have equal rank"), with a side other
/// than 3 ("structure dimensions must be equal to 3") or not symmetric
/// about its centre ("Structuring element is not symmetric"), in SciPy's
/// words; a non-integer output dtype; more features than the output dtype
/// holds ("insufficient bit-depth in requested output type"); more than
/// 16 dimensions; allocation, compilation or a launch failed.
pub fn label_with(input: &Array, opts: &LabelOptions<'_>) -> Result<(Array, usize)> {
    if input.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    let ndim = input.ndim();
    // Before the default structure, which has 3^ndim elements.
    if ndim > MAXDIM {
        return Err(Error::Unsupported(format!(
            "label of arrays of {ndim} dimensions (at most {MAXDIM})"
        )));
    }
    let (structure, sshape) = match opts.structure {
        Some(s) => {
            if s.dtype().is_complex() {
                return Err(Error::DType("Complex type not supported".into()));
            }
            (s.astype(DType::Bool)?.to_vec::<bool>()?, s.shape().to_vec())
        }
        None => (binary_structure(ndim, 1), vec![3; ndim]),
    };
    let offsets = neighbours(&structure, &sshape, ndim)?;
    let n = input.size();
    let out_dt = opts.output.unwrap_or(if n >= (1 << 31) - 2 {
        DType::Int64
    } else {
        DType::Int32
    });
    if !LABEL_DTYPES.contains(&out_dt) {
        return Err(Error::Unsupported(format!(
            "label into dtype {} (Cuprum writes labels into integer dtypes)",
            out_dt.name()
        )));
    }
    let shape = input.shape().to_vec();
    if n == 0 {
        return Ok((Array::zeros(shape, out_dt)?, 0));
    }
    // 0-d: one element, no neighbours.
    let work_shape = if ndim == 0 { vec![1] } else { shape.clone() };
    let x = if kernels::DTYPES.contains(&input.dtype()) {
        input.clone()
    } else {
        // float16 and the like: nonzero is what counts.
        input.astype(DType::Bool)?
    };
    let x = if x.is_c_contiguous() { x } else { x.copy()? };
    let parent = Array::empty([n], DType::Int64)?;
    kernels::label_init(&x, &parent)?;
    kernels::label_merge(&parent, &work_shape, &offsets)?;
    // One byte a root flag, summed in int64: 17 bytes an element at the
    // peak, with `parent`.
    let roots = Array::empty([n], DType::UInt8)?;
    kernels::label_compress(&parent, &roots)?;
    let rank = cumsum(&roots, None, Some(DType::Int64))?;
    drop(roots);
    let count = rank.item::<i64>(&[n as isize - 1])?;
    check_fits(count, out_dt)?;
    let out = Array::empty(shape, out_dt)?;
    kernels::label_final(&parent, &rank, &out)?;
    Ok((out, count as usize))
}

/// SciPy's check that `count` labels fit `dtype`, in its words.
fn check_fits(count: i64, dtype: DType) -> Result<()> {
    if i128::from(count) > iinfo(dtype)?.max {
        return Err(Error::NumpyRuntime(
            "insufficient bit-depth in requested output type".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_counts_must_fit_the_output() {
        check_fits(127, DType::Int8).unwrap();
        let e = check_fits(128, DType::Int8).unwrap_err();
        assert_eq!(
            e.to_string(),
            "insufficient bit-depth in requested output type"
        );
        check_fits(255, DType::UInt8).unwrap();
        check_fits(i64::from(i32::MAX), DType::Int32).unwrap();
        assert!(check_fits(i64::from(i32::MAX) + 1, DType::Int32).is_err());
        check_fits(i64::MAX, DType::UInt64).unwrap();
    }

    #[test]
    fn options_build() {
        let o = LabelOptions::default();
        assert!(o.structure.is_none() && o.output.is_none());
        assert_eq!(o.output(DType::UInt16).output, Some(DType::UInt16));
    }
}
