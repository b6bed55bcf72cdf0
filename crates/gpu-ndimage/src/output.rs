//! SciPy's `output=` (an array to write into, or a dtype) and the checks
//! every filter shares: its input dtypes, axes and per-axis sequences, in
//! SciPy's words (`scipy/ndimage/_ni_support.py`).

use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result, ufunc};

use crate::FilterOptions;

/// Where a filter writes (SciPy's `output=`).
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_ndimage::{FilterOptions, Output, uniform_filter1d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1u8, 5, 9, 2], &[4])?;
/// let f32_out = FilterOptions::default().output(Output::DType(DType::Float32));
/// let y = uniform_filter1d_with(&x, 3, -1, &f32_out)?;
/// let z = Array::empty([4], DType::Float64)?;
/// uniform_filter1d_with(&x, 3, -1, &FilterOptions::default().output(Output::Array(&z)))?; // into z
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub enum Output<'a> {
    /// A new array of the input's dtype (SciPy's `output=None`).
    #[default]
    None,
    /// A new array of this dtype. Float results go into integer dtypes as
    /// SciPy's C casts do: truncated toward zero.
    DType(DType),
    /// This array (of the input's shape, any strides), which the filter
    /// overwrites and returns.
    Array(&'a Array),
}

impl Output<'_> {
    /// The output's dtype for `input`, unchecked but for SciPy's "output
    /// shape not correct" (an array of another shape).
    fn requested_dtype(&self, input: &Array) -> Result<DType> {
        Ok(match self {
            Output::None => input.dtype(),
            Output::DType(d) => *d,
            Output::Array(a) => {
                if a.shape() != input.shape() {
                    return Err(Error::NumpyRuntime("output shape not correct".into()));
                }
                a.dtype()
            }
        })
    }

    /// The output's dtype for `input`, checked; SciPy's "output shape not
    /// correct" for an array of another shape.
    pub(crate) fn dtype_for(&self, input: &Array) -> Result<DType> {
        let dt = self.requested_dtype(input)?;
        check_dtype(dt)?;
        Ok(dt)
    }

    /// [`Output::dtype_for`] for the filters built from linear ones
    /// (`generic_laplace`, `generic_gradient_magnitude` and theirs): complex
    /// input gives a complex output, as SciPy's (its derivatives take the
    /// complex data through their parts), and a real output of it is
    /// SciPy's "output must have complex dtype".
    pub(crate) fn dtype_for_linear(&self, input: &Array) -> Result<DType> {
        if !input.dtype().is_complex() {
            return self.dtype_for(input);
        }
        let dt = self.requested_dtype(input)?;
        if !dt.is_complex() {
            return Err(Error::NumpyRuntime("output must have complex dtype".into()));
        }
        Ok(dt)
    }

    /// Hands back `result` (of the output's dtype and the input's shape):
    /// written into the output array when there is one.
    pub(crate) fn finish(&self, result: Array) -> Result<Array> {
        match self {
            Output::Array(a) => {
                a.copy_from(&result)?;
                Ok((*a).clone())
            }
            _ => Ok(result),
        }
    }
}

/// SciPy's dtype check of its C filters, in its words. The linear
/// filters take complex data through [`via_real_parts`] before they get
/// here; the others refuse it as SciPy does ("Complex type not
/// supported").
pub(crate) fn check_dtype(dt: DType) -> Result<()> {
    if dt.is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    if !crate::kernels::DTYPES.contains(&dt) {
        return Err(Error::NumpyRuntime(format!(
            "array type dtype('{}') not supported",
            dt.name()
        )));
    }
    Ok(())
}

/// SciPy's `_complex_via_real_components` for a complex `input` and real
/// weights: `f` (the same filter, real) of the real part and of the
/// imaginary part (`cval`'s imaginary part is 0), combined into the
/// output: the input's dtype by default, an output dtype promoted to
/// complex as SciPy does, an output array that must be complex ("output
/// must have complex dtype").
pub(crate) fn via_real_parts(
    input: &Array,
    opts: &FilterOptions<'_>,
    f: impl Fn(&Array, &FilterOptions<'_>) -> Result<Array>,
) -> Result<Array> {
    let out_dt = match opts.output {
        Output::None => input.dtype(),
        Output::DType(d) => gpu_array::dtype::promote_types(d, DType::Complex64),
        Output::Array(a) => {
            if a.shape() != input.shape() {
                return Err(Error::NumpyRuntime("output shape not correct".into()));
            }
            if !a.dtype().is_complex() {
                return Err(Error::NumpyRuntime("output must have complex dtype".into()));
            }
            a.dtype()
        }
    };
    if !out_dt.is_complex() {
        return Err(Error::NumpyRuntime("output must have complex dtype".into()));
    }
    let part_dt = if out_dt == DType::Complex64 {
        DType::Float32
    } else {
        DType::Float64
    };
    let parts = opts.clone().output(Output::DType(part_dt));
    let re = f(&input.real(), &parts)?;
    let im = f(&input.imag()?, &parts.cval(0.0))?;
    let z = ufunc::add(
        &re,
        &ufunc::multiply(&im, num_complex::Complex::new(0.0f64, 1.0))?,
    )?;
    let z = if z.dtype() == out_dt {
        z
    } else {
        z.astype(out_dt)?
    };
    opts.output.finish(z)
}

/// `a` in C order: itself, or a copy of a strided view.
pub(crate) fn contiguous(a: &Array) -> Result<Array> {
    check_dtype(a.dtype())?;
    if a.is_c_contiguous() {
        Ok(a.clone())
    } else {
        a.copy()
    }
}

/// SciPy's `_check_axes`: every axis (`None`), or the given ones,
/// normalised and unique.
pub(crate) fn check_axes(axes: Option<&[isize]>, ndim: usize) -> Result<Vec<usize>> {
    let Some(axes) = axes else {
        return Ok((0..ndim).collect());
    };
    let mut out = Vec::with_capacity(axes.len());
    for &ax in axes {
        let m = ax.unsigned_abs();
        let ok = if ax < 0 { m <= ndim } else { m < ndim };
        if !ok {
            return Err(Error::Value(format!(
                "specified axis: {ax} is out of range"
            )));
        }
        out.push(normalize_axis(ax, ndim)?);
    }
    let mut sorted = out.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != out.len() {
        return Err(Error::Value("axes must be unique".into()));
    }
    Ok(out)
}

/// SciPy's `_normalize_sequence`: one value for every axis, or one each.
pub(crate) fn per_axis<T: Copy>(values: &[T], rank: usize) -> Result<Vec<T>> {
    match values {
        [v] => Ok(vec![*v; rank]),
        v if v.len() == rank => Ok(v.to_vec()),
        _ => Err(Error::NumpyRuntime(
            "sequence argument must have length equal to input rank".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_and_sequences_follow_scipy() {
        assert_eq!(check_axes(None, 3).unwrap(), vec![0, 1, 2]);
        assert_eq!(check_axes(Some(&[-1, 0]), 3).unwrap(), vec![2, 0]);
        let e = check_axes(Some(&[3]), 3).unwrap_err().to_string();
        assert_eq!(e, "specified axis: 3 is out of range");
        let e = check_axes(Some(&[1, -2]), 3).unwrap_err().to_string();
        assert_eq!(e, "axes must be unique");
        assert_eq!(per_axis(&[2.0], 3).unwrap(), vec![2.0; 3]);
        assert_eq!(per_axis(&[1, 2], 2).unwrap(), vec![1, 2]);
        let e = per_axis(&[1, 2], 3).unwrap_err().to_string();
        assert_eq!(e, "sequence argument must have length equal to input rank");
    }

    #[test]
    fn dtypes_as_scipy_says() {
        let e = check_dtype(DType::Float16).unwrap_err().to_string();
        assert_eq!(e, "array type dtype('float16') not supported");
        let e = check_dtype(DType::Complex64).unwrap_err().to_string();
        assert_eq!(e, "Complex type not supported");
        for dt in crate::kernels::DTYPES {
            check_dtype(dt).unwrap();
        }
    }
}
