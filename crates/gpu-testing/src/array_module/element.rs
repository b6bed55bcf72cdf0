//! The element types of [`super::ArrayModule`] arrays and the host
//! arithmetic of [`super::Numpy`] on them, with NumPy's rules: integers
//! wrap, casts truncate or wrap as C casts do, sums accumulate in int64,
//! uint64 or the float type itself.

use gpu_array::dtype::ScalarValue;

use crate::host::HostElement;

/// An element type of [`super::ArrayModule`] arrays: `i8`..`i64`,
/// `u8`..`u64`, `f32` and `f64`.
pub trait ModuleScalar: HostElement + Into<ScalarValue> + private::Arith {
    /// The dtype `numpy.sum` gives: int64 for signed integers, uint64 for
    /// unsigned ones, the type itself for floats.
    type Sum: ModuleScalar;
    /// The dtype `numpy.mean` gives: float64 for integers, the type itself
    /// for floats.
    type Mean: ModuleFloat;
}

/// A floating element type (`f32`, `f64`): the operand of `divide` and the
/// transcendental functions.
pub trait ModuleFloat: ModuleScalar<Sum = Self, Mean = Self> + private::FloatMath {}

pub(crate) mod private {
    /// Host arithmetic with NumPy's semantics, sealed so that only the
    /// types listed here are module elements.
    pub trait Arith: Copy {
        fn np_add(self, rhs: Self) -> Self;
        fn np_sub(self, rhs: Self) -> Self;
        fn np_mul(self, rhs: Self) -> Self;
        /// The value exactly, when `Self` is an integer.
        fn as_i128(self) -> Option<i128>;
        /// The value rounded to `f64`.
        fn as_f64(self) -> f64;
        /// An integer converted as C does (`as`: wrapping for integers,
        /// nearest for floats).
        fn cast_i128(v: i128) -> Self;
        /// A float converted as C does (truncation toward zero for
        /// integers; NumPy leaves out-of-range results undefined).
        fn cast_f64(v: f64) -> Self;

        /// `self` converted to `U` as NumPy's `astype` does.
        fn cast<U: Arith>(self) -> U {
            match self.as_i128() {
                Some(i) => U::cast_i128(i),
                None => U::cast_f64(self.as_f64()),
            }
        }
    }

    /// The float functions of the host module.
    pub trait FloatMath: Arith {
        fn np_div(self, rhs: Self) -> Self;
        fn np_exp(self) -> Self;
        fn np_log(self) -> Self;
        fn np_sin(self) -> Self;
        fn np_sqrt(self) -> Self;
        fn np_tanh(self) -> Self;
    }
}

macro_rules! int_elements {
    ($($t:ty => $sum:ty),* $(,)?) => {$(
        impl private::Arith for $t {
            fn np_add(self, rhs: Self) -> Self { self.wrapping_add(rhs) }
            fn np_sub(self, rhs: Self) -> Self { self.wrapping_sub(rhs) }
            fn np_mul(self, rhs: Self) -> Self { self.wrapping_mul(rhs) }
            fn as_i128(self) -> Option<i128> { Some(i128::from(self)) }
            fn as_f64(self) -> f64 { self as f64 }
            fn cast_i128(v: i128) -> Self { v as $t }
            fn cast_f64(v: f64) -> Self { v as $t }
        }
        impl ModuleScalar for $t {
            type Sum = $sum;
            type Mean = f64;
        }
    )*};
}

int_elements!(
    i8 => i64, i16 => i64, i32 => i64, i64 => i64,
    u8 => u64, u16 => u64, u32 => u64, u64 => u64,
);

macro_rules! float_elements {
    ($($t:ty),*) => {$(
        impl private::Arith for $t {
            fn np_add(self, rhs: Self) -> Self { self + rhs }
            fn np_sub(self, rhs: Self) -> Self { self - rhs }
            fn np_mul(self, rhs: Self) -> Self { self * rhs }
            fn as_i128(self) -> Option<i128> { None }
            fn as_f64(self) -> f64 { f64::from(self) }
            fn cast_i128(v: i128) -> Self { v as $t }
            fn cast_f64(v: f64) -> Self { v as $t }
        }
        impl private::FloatMath for $t {
            fn np_div(self, rhs: Self) -> Self { self / rhs }
            fn np_exp(self) -> Self { self.exp() }
            fn np_log(self) -> Self { self.ln() }
            fn np_sin(self) -> Self { self.sin() }
            fn np_sqrt(self) -> Self { self.sqrt() }
            fn np_tanh(self) -> Self { self.tanh() }
        }
        impl ModuleScalar for $t {
            type Sum = $t;
            type Mean = $t;
        }
        impl ModuleFloat for $t {}
    )*};
}

float_elements!(f32, f64);

#[cfg(test)]
mod tests {
    use super::private::Arith;

    #[test]
    fn casts_follow_c() {
        assert_eq!(300i32.cast::<u8>(), 44); // wraps
        assert_eq!((-1i64).cast::<u32>(), u32::MAX);
        assert_eq!((-2.7f64).cast::<i16>(), -2); // truncates toward zero
        assert_eq!(u64::MAX.cast::<f64>(), 18_446_744_073_709_551_615.0);
        assert_eq!(16_777_217i64.cast::<f32>(), 16_777_216.0); // nearest
        assert_eq!(0.1f64.cast::<f32>(), 0.1f32);
    }

    #[test]
    fn integers_wrap() {
        assert_eq!(i8::MAX.np_add(1), i8::MIN);
        assert_eq!(0u16.np_sub(1), u16::MAX);
        assert_eq!(i32::MAX.np_mul(2), -2);
        assert_eq!(1.5f32.np_mul(2.0), 3.0);
    }
}
