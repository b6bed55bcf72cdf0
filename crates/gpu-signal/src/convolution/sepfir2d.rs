//! `sepfir2d`: a separable FIR filter over a 2-D image, SciPy's
//! mirror-symmetric boundary (gpu-ndimage's `convolve1d` with
//! `Mode::Reflect`, one pass an axis).

use gpu_array::{Array, DType, Error, Result};
use gpu_ndimage::{FilterOptions, Mode as NdMode, convolve1d_with};

/// SciPy's `sepfir2d(input, hrow, hcol)`: `input` (2-D) convolved with
/// `hrow` along each row (axis 1), then with `hcol` along each column
/// (axis 0), the image mirrored past its edges with the edge repeated
/// (`d c b a | a b c d`), in the input's precision (float32 or float64).
/// Filters longer than twice an axis keep mirroring, where SciPy's C
/// reads out of its buffer.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::sepfir2d;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([64, 64], DType::Float64)?;
/// let y = sepfir2d(&img, &[0.25, 0.5, 0.25], &[1.0, 2.0, 1.0])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: a filter of even length ("hrow and hcol must be odd
/// length"); an input that is not 2-D, or neither float32 nor float64
/// (complex input is `Unsupported`).
pub fn sepfir2d(input: &Array, hrow: &[f64], hcol: &[f64]) -> Result<Array> {
    check_lengths(hrow, hcol)?;
    if input.ndim() != 2 {
        return Err(Error::Value("sepfir2d takes a 2-D input".into()));
    }
    match input.dtype() {
        DType::Float32 | DType::Float64 => {}
        d if d.is_complex() => {
            return Err(Error::Unsupported(format!(
                "sepfir2d of complex input ({d})"
            )));
        }
        d => {
            return Err(Error::DType(format!(
                "sepfir2d takes float32 or float64 input, not {d}"
            )));
        }
    }
    let o = FilterOptions::default().mode(NdMode::Reflect);
    let rows = convolve1d_with(input, hrow, 1, &o)?;
    convolve1d_with(&rows, hcol, 0, &o)
}

/// SciPy's filter-length check.
fn check_lengths(hrow: &[f64], hcol: &[f64]) -> Result<()> {
    if hrow.len().is_multiple_of(2) || hcol.len().is_multiple_of(2) {
        return Err(Error::Value("hrow and hcol must be odd length".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn even_filters_are_refused() {
        let e = super::check_lengths(&[1.0, 1.0], &[1.0]).unwrap_err();
        assert_eq!(e.to_string(), "hrow and hcol must be odd length");
        super::check_lengths(&[1.0], &[1.0, 2.0, 1.0]).unwrap();
    }
}
