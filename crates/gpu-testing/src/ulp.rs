//! Units in the last place: NumPy's `spacing` and the integer
//! representation `numpy.testing` measures ULP distances with.

use gpu_array::DType;
use half::{bf16, f16};

/// `x` rounded to the real floating dtype `dtype` (nearest, ties to even).
pub(crate) fn round_to(dtype: DType, x: f64) -> f64 {
    match dtype {
        DType::Float16 => f16::from_f64(x).to_f64(),
        DType::BFloat16 => bf16::from_f64(x).to_f64(),
        DType::Float32 => f64::from(x as f32),
        _ => x,
    }
}

/// The floating dtype whose spacing NumPy's `spacing` ufunc uses for
/// `dtype`: floats and complex their real type; `bool` and 8-bit integers
/// float16, 16-bit integers float32, wider integers float64 (the smallest
/// float that holds them, as the ufunc's loop selection picks).
pub(crate) fn spacing_dtype(dtype: DType) -> DType {
    match dtype {
        DType::Bool | DType::Int8 | DType::UInt8 => DType::Float16,
        DType::Int16 | DType::UInt16 => DType::Float32,
        DType::Int32 | DType::UInt32 | DType::Int64 | DType::UInt64 => DType::Float64,
        other => other.real_dtype(),
    }
}

/// `numpy.spacing(x)` for `x >= 0` in the real floating dtype `dtype`: the
/// distance to the next larger value (`inf` above the largest finite value,
/// NaN for NaN and `inf`).
pub(crate) fn spacing(dtype: DType, x: f64) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    match dtype {
        DType::Float16 => {
            let v = f16::from_f64(x);
            f16::from_bits(v.to_bits() + 1).to_f64() - v.to_f64()
        }
        DType::BFloat16 => {
            let v = bf16::from_f64(x);
            bf16::from_bits(v.to_bits() + 1).to_f64() - v.to_f64()
        }
        DType::Float32 => {
            let v = x as f32;
            f64::from(f32::from_bits(v.to_bits() + 1) - v)
        }
        _ => f64::from_bits(x.to_bits() + 1) - x,
    }
}

/// The bits of `x` in `dtype` as a signed integer ordered like the floats
/// (NumPy's `integer_repr`): negative values map to `MIN - bits`, so that
/// `+0.0` and `-0.0` share 0 and adjacent floats differ by 1. NaNs count as
/// the dtype's one canonical NaN, so that NaN is 0 ULP from NaN.
pub(crate) fn integer_repr(dtype: DType, x: f64) -> i128 {
    let (bits, width): (u64, u32) = match dtype {
        DType::Float16 => (u64::from(f16::from_f64(x).to_bits()), 16),
        DType::BFloat16 => (u64::from(bf16::from_f64(x).to_bits()), 16),
        DType::Float32 => (u64::from((x as f32).to_bits()), 32),
        _ => (x.to_bits(), 64),
    };
    let bits = if x.is_nan() {
        // The quiet NaN NumPy writes with `x[isnan(x)] = nan`.
        match width {
            16 if dtype == DType::Float16 => 0x7e00,
            16 => 0x7fc0,
            32 => 0x7fc0_0000,
            _ => 0x7ff8_0000_0000_0000,
        }
    } else {
        bits
    };
    let sign = 1u64 << (width - 1);
    let magnitude = i128::from(bits & (sign - 1));
    if bits & sign != 0 {
        // MIN - (MIN + magnitude) as NumPy writes it, i.e. -magnitude.
        -magnitude
    } else {
        magnitude
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_per_dtype() {
        assert_eq!(spacing(DType::Float64, 1.0), f64::EPSILON);
        assert_eq!(spacing(DType::Float32, 1.0), f64::from(f32::EPSILON));
        assert_eq!(spacing(DType::Float16, 1.0), 2f64.powi(-10));
        assert_eq!(spacing(DType::BFloat16, 1.0), 2f64.powi(-7));
        assert_eq!(spacing(DType::Float64, 0.0), 5e-324);
        assert_eq!(spacing(DType::Float16, 0.0), 2f64.powi(-24));
        assert_eq!(spacing(DType::Float16, 65504.0), f64::INFINITY);
        assert!(spacing(DType::Float32, f64::INFINITY).is_nan());
        assert_eq!(spacing_dtype(DType::Int8), DType::Float16);
        assert_eq!(spacing_dtype(DType::UInt16), DType::Float32);
        assert_eq!(spacing_dtype(DType::Int64), DType::Float64);
        assert_eq!(spacing_dtype(DType::Complex64), DType::Float32);
    }

    #[test]
    fn integer_repr_orders_floats() {
        let one = integer_repr(DType::Float32, 1.0);
        let next = integer_repr(DType::Float32, f64::from(1.0f32 + f32::EPSILON));
        assert_eq!(next - one, 1);
        assert_eq!(
            integer_repr(DType::Float64, 0.0),
            integer_repr(DType::Float64, -0.0)
        );
        let tiny = integer_repr(DType::Float16, 2f64.powi(-24));
        assert_eq!(tiny - integer_repr(DType::Float16, -(2f64.powi(-24))), 2);
        assert_eq!(
            integer_repr(DType::Float64, f64::NAN),
            integer_repr(DType::Float64, -f64::NAN)
        );
        assert_eq!(integer_repr(DType::BFloat16, f64::NAN), 0x7fc0);
        assert_eq!(round_to(DType::Float16, 0.1), f16::from_f32(0.1).to_f64());
    }
}
