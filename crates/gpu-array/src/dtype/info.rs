//! Machine limits: `numpy.finfo` and `numpy.iinfo`.

use half::{bf16, f16};

use super::DType;
use crate::error::{Error, Result};

/// Machine limits of a floating type (`numpy.finfo`). Values are stored as
/// `f64`, which holds each of them exactly.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finfo {
    /// The real floating dtype described (a complex input gives its real part).
    pub dtype: DType,
    /// Bits in the type.
    pub bits: u32,
    /// Difference between 1.0 and the next larger representable value.
    pub eps: f64,
    /// Difference between 1.0 and the next smaller representable value.
    pub epsneg: f64,
    /// Largest finite value.
    pub max: f64,
    /// Most negative finite value (`-max`).
    pub min: f64,
    /// Smallest positive normal value (same as `smallest_normal`).
    pub tiny: f64,
    /// Smallest positive normal value.
    pub smallest_normal: f64,
    /// Smallest positive subnormal value.
    pub smallest_subnormal: f64,
    /// Approximate decimal digits of precision: `floor(-log10(eps))`.
    pub precision: u32,
    /// `10**-precision`, rounded to the type.
    pub resolution: f64,
    /// Bits of the mantissa (without the implicit bit).
    pub nmant: u32,
    /// Bits of the exponent (`iexp` in NumPy is the same).
    pub nexp: u32,
    /// Smallest power of two that overflows.
    pub maxexp: i32,
    /// Most negative power of two with a normal value.
    pub minexp: i32,
    /// The exponent of `eps` (`eps == 2**machep`).
    pub machep: i32,
    /// The exponent of `epsneg` (`epsneg == 2**negep`).
    pub negep: i32,
}

/// `numpy.finfo(dtype)`; for `bfloat16` the values of `ml_dtypes.finfo`.
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// let eps = finfo(DType::Float32)?.eps;
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] "data type <class 'numpy.int8'> not inexact" for bool
/// and integer dtypes.
pub fn finfo(dtype: DType) -> Result<Finfo> {
    // (nmant, nexp): everything else follows from IEEE-754 binary formats.
    let (nmant, nexp): (u32, u32) = match dtype.real_dtype() {
        DType::Float16 => (10, 5),
        DType::BFloat16 => (7, 8),
        DType::Float32 => (23, 8),
        DType::Float64 => (52, 11),
        _ => {
            return Err(Error::Value(format!(
                "data type <class 'numpy.{dtype}'> not inexact"
            )));
        }
    };
    let real = dtype.real_dtype();
    let maxexp = 1i32 << (nexp - 1);
    let minexp = 2 - maxexp;
    let m = nmant as i32;
    let eps = 2f64.powi(-m);
    let max = (2.0 - eps) * 2f64.powi(maxexp - 1);
    let tiny = 2f64.powi(minexp);
    let precision = (-eps.log10()).floor() as u32;
    let decimal = 10f64.powi(-(precision as i32));
    let resolution = match real {
        DType::Float16 => f16::from_f64(decimal).to_f64(),
        DType::BFloat16 => bf16::from_f64(decimal).to_f64(),
        DType::Float32 => f64::from(decimal as f32),
        _ => decimal,
    };
    Ok(Finfo {
        dtype: real,
        bits: (real.itemsize() * 8) as u32,
        eps,
        epsneg: eps / 2.0,
        max,
        min: -max,
        tiny,
        smallest_normal: tiny,
        // 2**(minexp - nmant), computed in two steps: 2**-1074 underflows powi.
        smallest_subnormal: tiny * 2f64.powi(-m),
        precision,
        resolution,
        nmant,
        nexp,
        maxexp,
        minexp,
        machep: -m,
        negep: -m - 1,
    })
}

/// Machine limits of an integer type (`numpy.iinfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iinfo {
    /// The integer dtype described.
    pub dtype: DType,
    /// Bits in the type.
    pub bits: u32,
    /// Smallest value.
    pub min: i128,
    /// Largest value.
    pub max: i128,
}

/// `numpy.iinfo(dtype)`.
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(iinfo(DType::Int8)?.max, 127);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] "Invalid integer data type 'f'." for non-integer dtypes
/// (the quoted letter is the dtype's kind, `'b'` for bool).
pub fn iinfo(dtype: DType) -> Result<Iinfo> {
    let bits = (dtype.itemsize() * 8) as u32;
    let (min, max) = match dtype.kind() {
        'i' => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        'u' => (0, (1i128 << bits) - 1),
        k => return Err(Error::Value(format!("Invalid integer data type '{k}'."))),
    };
    Ok(Iinfo {
        dtype,
        bits,
        min,
        max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finfo_against_numpy() {
        // (eps, max, tiny, smallest_subnormal, precision, resolution) from
        // NumPy 2.4 / ml_dtypes 0.6.
        let f = finfo(DType::Float16).unwrap();
        assert_eq!(
            (
                f.eps,
                f.epsneg,
                f.max,
                f.tiny,
                f.smallest_subnormal,
                f.precision,
                f.resolution
            ),
            (
                0.0009765625,
                0.00048828125,
                65504.0,
                6.103515625e-05,
                5.960464477539063e-08,
                3,
                0.0010004043579101562
            )
        );
        assert_eq!(
            (
                f.nmant, f.nexp, f.maxexp, f.minexp, f.machep, f.negep, f.bits
            ),
            (10, 5, 16, -14, -10, -11, 16)
        );
        let f = finfo(DType::BFloat16).unwrap();
        assert_eq!(
            (
                f.eps,
                f.epsneg,
                f.max,
                f.tiny,
                f.smallest_subnormal,
                f.precision,
                f.resolution
            ),
            (
                0.0078125,
                0.00390625,
                3.3895313892515355e+38,
                1.1754943508222875e-38,
                9.183549615799121e-41,
                2,
                0.010009765625
            )
        );
        assert_eq!((f.maxexp, f.minexp), (128, -126));
        let f = finfo(DType::Complex64).unwrap();
        assert_eq!(f.dtype, DType::Float32);
        assert_eq!(
            (
                f.eps,
                f.epsneg,
                f.max,
                f.min,
                f.tiny,
                f.smallest_subnormal,
                f.precision,
                f.resolution
            ),
            (
                1.1920928955078125e-07,
                5.960464477539063e-08,
                3.4028234663852886e+38,
                -3.4028234663852886e+38,
                1.1754943508222875e-38,
                1.401298464324817e-45,
                6,
                9.999999974752427e-07
            )
        );
        let f = finfo(DType::Float64).unwrap();
        assert_eq!(
            (
                f.eps,
                f.max,
                f.tiny,
                f.smallest_subnormal,
                f.precision,
                f.resolution
            ),
            (f64::EPSILON, f64::MAX, f64::MIN_POSITIVE, 5e-324, 15, 1e-15)
        );
        assert_eq!((f.maxexp, f.minexp, f.nexp), (1024, -1022, 11));
        assert_eq!(
            finfo(DType::Int8).unwrap_err().to_string(),
            "data type <class 'numpy.int8'> not inexact"
        );
    }

    #[test]
    fn iinfo_values() {
        assert_eq!(
            iinfo(DType::Int8).unwrap(),
            Iinfo {
                dtype: DType::Int8,
                bits: 8,
                min: -128,
                max: 127
            }
        );
        assert_eq!(iinfo(DType::UInt64).unwrap().max, u64::MAX as i128);
        assert_eq!(iinfo(DType::Int64).unwrap().min, i64::MIN as i128);
        assert_eq!(iinfo(DType::UInt16).unwrap().min, 0);
        assert_eq!(
            iinfo(DType::Float32).unwrap_err().to_string(),
            "Invalid integer data type 'f'."
        );
        assert_eq!(
            iinfo(DType::Bool).unwrap_err().to_string(),
            "Invalid integer data type 'b'."
        );
    }
}
