//! `result_type` with NEP 50 weak scalars, and value-based `min_scalar_type`.

use num_complex::Complex;

use super::DType;
use super::common_dtype::{Class, promote_sequence};
use crate::error::{Error, Result};

/// The kind of a weakly typed scalar (a Rust literal used as NumPy uses a
/// Python `bool`, `int`, `float` or `complex`), ordered bool < int < float < complex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    /// A Python `bool`.
    Bool,
    /// A Python `int`.
    Int,
    /// A Python `float`.
    Float,
    /// A Python `complex`.
    Complex,
}

impl ScalarKind {
    /// The dtype NumPy gives a lone scalar of this kind: bool, int64,
    /// float64, complex128.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ScalarKind;
    /// assert_eq!(ScalarKind::Int.default_dtype(), DType::Int64);
    /// assert_eq!(ScalarKind::Complex.default_dtype(), DType::Complex128);
    /// ```
    pub const fn default_dtype(self) -> DType {
        match self {
            ScalarKind::Bool => DType::Bool,
            ScalarKind::Int => DType::Int64,
            ScalarKind::Float => DType::Float64,
            ScalarKind::Complex => DType::Complex128,
        }
    }

    /// The kind that a dtype belongs to (integers signed or not are `Int`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ScalarKind;
    /// assert_eq!(ScalarKind::of(DType::UInt8), ScalarKind::Int);
    /// assert_eq!(ScalarKind::of(DType::Float16), ScalarKind::Float);
    /// ```
    pub const fn of(dtype: DType) -> ScalarKind {
        match dtype.kind() {
            'b' => ScalarKind::Bool,
            'i' | 'u' => ScalarKind::Int,
            'f' => ScalarKind::Float,
            _ => ScalarKind::Complex,
        }
    }
}

/// One input of [`result_type`]: an array (or typed scalar) whose dtype
/// counts in full, or a weak scalar whose kind only counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// An array, or a dtype: strongly typed.
    Array(DType),
    /// A weakly typed scalar (NEP 50).
    Scalar(ScalarKind),
}

impl From<DType> for Operand {
    fn from(dtype: DType) -> Operand {
        Operand::Array(dtype)
    }
}

impl From<ScalarKind> for Operand {
    fn from(kind: ScalarKind) -> Operand {
        Operand::Scalar(kind)
    }
}

/// A scalar value counts as a Python scalar would: only its kind.
impl From<ScalarValue> for Operand {
    fn from(value: ScalarValue) -> Operand {
        Operand::Scalar(value.kind())
    }
}

/// `numpy.result_type` under NumPy 2 (NEP 50) rules, for any number of
/// operands, in any order (NumPy's answer does not depend on it).
///
/// Two operands: [`promote_types`](super::promote_types) of the strongly typed ones; a weak
/// scalar contributes only its kind:
///
/// - no strong operand: the kind's default dtype (bool, int64, float64,
///   complex128);
/// - a weak kind not above the strong operand's kind leaves it unchanged
///   (`float32 + 2.0 -> float32`, `int8 + 1 -> int8`, `float16 + 1 -> float16`);
/// - a weak `int` over `bool` gives int64; a weak `float` over bool or any
///   integer gives float64 (`int8 + 1.0 -> float64`), never a smaller float;
/// - a weak `complex` over bool or integers gives complex128, over
///   float16/bfloat16/float32 complex64, over float64 complex128.
///
/// Three or more: NumPy does not fold pairwise (`promote_types` is not
/// associative). The most knowledgeable operand (the highest of NumPy's
/// type numbers, in which float16 is last; a weak scalar above the
/// integers when it is a float or complex) is promoted with each other
/// operand, and those answers are promoted together:
/// `result_type(int8, uint8, float16)` is float16 where a left fold gives
/// float32. bfloat16 ranks above float16 (ml_dtypes registers it as a
/// user type). A weak `bool` counts as a bool array, as Python's `True`
/// does in NumPy.
///
/// Whether an integer scalar's value fits the result is a separate check,
/// [`check_weak_int`].
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = result_type(&[Operand::Array(DType::Int8), Operand::Array(DType::UInt8), Operand::Array(DType::Float16)])?;
/// assert_eq!(t, DType::Float16); // NumPy's n-ary rule
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] "at least one array or dtype is required" for no operand.
pub fn result_type(operands: &[Operand]) -> Result<DType> {
    let classes: Vec<Class> = operands
        .iter()
        .map(|&op| match op {
            Operand::Array(d) => Class::Concrete(d),
            Operand::Scalar(ScalarKind::Bool) => Class::Concrete(DType::Bool),
            Operand::Scalar(ScalarKind::Int) => Class::PyInt,
            Operand::Scalar(ScalarKind::Float) => Class::PyFloat,
            Operand::Scalar(ScalarKind::Complex) => Class::PyComplex,
        })
        .collect();
    Ok(promote_sequence(&classes)?.dtype())
}

/// NumPy 2's check that a weak integer scalar fits the dtype it is used
/// with: `np.int8(1) + 300` is an `OverflowError`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::check_weak_int;
/// assert!(check_weak_int(127, DType::Int8).is_ok());
/// let e = check_weak_int(300, DType::Int8).unwrap_err();
/// assert!(e.to_string().contains("Python integer 300 out of bounds for int8"));
/// assert!(check_weak_int(300, DType::Float16).is_ok());
/// ```
///
/// # Errors
///
/// [`Error::Overflow`] "Python integer 300 out of bounds for int8" when `dtype`
/// is an integer type that cannot hold `value`. Bool and inexact dtypes accept
/// any value.
pub fn check_weak_int(value: i128, dtype: DType) -> Result<()> {
    if let Ok(info) = super::iinfo(dtype)
        && !(info.min..=info.max).contains(&value)
    {
        return Err(Error::Overflow(format!(
            "Python integer {value} out of bounds for {dtype}"
        )));
    }
    Ok(())
}

/// A scalar value, for [`min_scalar_type`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ScalarValue {
    /// A boolean.
    Bool(bool),
    /// An integer (NumPy accepts `-2**63 ..= 2**64 - 1`).
    Int(i128),
    /// A float.
    Float(f64),
    /// A complex number.
    Complex(Complex<f64>),
}

impl ScalarValue {
    /// The value of one element of `dtype` from its little-endian bytes.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ScalarValue;
    /// assert_eq!(ScalarValue::from_le_bytes(DType::Int16, &[0xff, 0xff]), ScalarValue::Int(-1));
    /// assert_eq!(ScalarValue::from_le_bytes(DType::Float32, &2.5f32.to_le_bytes()), ScalarValue::Float(2.5));
    /// ```
    ///
    /// # Panics
    /// If `bytes` is not `dtype.itemsize()` long.
    pub fn from_le_bytes(dtype: DType, bytes: &[u8]) -> ScalarValue {
        use super::Element;
        match dtype {
            DType::Bool => ScalarValue::Bool(bytes[0] != 0),
            DType::Int8 => ScalarValue::Int(i8::read_le(bytes).into()),
            DType::Int16 => ScalarValue::Int(i16::read_le(bytes).into()),
            DType::Int32 => ScalarValue::Int(i32::read_le(bytes).into()),
            DType::Int64 => ScalarValue::Int(i64::read_le(bytes).into()),
            DType::UInt8 => ScalarValue::Int(u8::read_le(bytes).into()),
            DType::UInt16 => ScalarValue::Int(u16::read_le(bytes).into()),
            DType::UInt32 => ScalarValue::Int(u32::read_le(bytes).into()),
            DType::UInt64 => ScalarValue::Int(u64::read_le(bytes).into()),
            DType::Float16 => ScalarValue::Float(half::f16::read_le(bytes).to_f64()),
            DType::BFloat16 => ScalarValue::Float(half::bf16::read_le(bytes).to_f64()),
            DType::Float32 => ScalarValue::Float(f32::read_le(bytes).into()),
            DType::Float64 => ScalarValue::Float(f64::read_le(bytes)),
            DType::Complex64 => {
                let c = Complex::<f32>::read_le(bytes);
                ScalarValue::Complex(Complex::new(c.re.into(), c.im.into()))
            }
            DType::Complex128 => ScalarValue::Complex(Complex::<f64>::read_le(bytes)),
        }
    }

    /// The value's kind: all that a weak (Python) scalar contributes to
    /// type promotion under NEP 50.
    ///
    /// ```
    /// use gpu_array::dtype::{ScalarKind, ScalarValue};
    /// assert_eq!(ScalarValue::Int(3).kind(), ScalarKind::Int);
    /// assert_eq!(ScalarValue::Bool(true).kind(), ScalarKind::Bool);
    /// ```
    pub fn kind(&self) -> ScalarKind {
        match self {
            ScalarValue::Bool(_) => ScalarKind::Bool,
            ScalarValue::Int(_) => ScalarKind::Int,
            ScalarValue::Float(_) => ScalarKind::Float,
            ScalarValue::Complex(_) => ScalarKind::Complex,
        }
    }
}

/// `numpy.min_scalar_type(value)`: the smallest dtype that holds the value.
///
/// Integers: the smallest unsigned type for a non-negative value, else the
/// smallest signed type. Floats: float16 if `|v| < 65000` or not finite,
/// float32 if `|v| < 3.4e38`, else float64 (NumPy's thresholds). Complex:
/// complex64 if both parts are within `3.4e38`, else complex128. Never bfloat16.
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(min_scalar_type(ScalarValue::Int(300))?, DType::UInt16);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] for an integer outside `-2**63 ..= 2**64 - 1`.
pub fn min_scalar_type(value: ScalarValue) -> Result<DType> {
    Ok(match value {
        ScalarValue::Bool(_) => DType::Bool,
        ScalarValue::Int(v) if v >= 0 => {
            let candidates = [DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64];
            match candidates.into_iter().find(|&d| int_fits(v, d)) {
                Some(d) => d,
                None => return Err(int_too_large(v)),
            }
        }
        ScalarValue::Int(v) => {
            let candidates = [DType::Int8, DType::Int16, DType::Int32, DType::Int64];
            match candidates.into_iter().find(|&d| int_fits(v, d)) {
                Some(d) => d,
                None => return Err(int_too_large(v)),
            }
        }
        ScalarValue::Float(v) => {
            if (v > -65000.0 && v < 65000.0) || !v.is_finite() {
                DType::Float16
            } else if v > -3.4e38 && v < 3.4e38 {
                DType::Float32
            } else {
                DType::Float64
            }
        }
        ScalarValue::Complex(c) => {
            let small = |x: f64| x > -3.4e38 && x < 3.4e38;
            if small(c.re) && small(c.im) {
                DType::Complex64
            } else {
                DType::Complex128
            }
        }
    })
}

fn int_fits(v: i128, dtype: DType) -> bool {
    super::iinfo(dtype).is_ok_and(|i| (i.min..=i.max).contains(&v))
}

fn int_too_large(v: i128) -> Error {
    Error::Value(format!(
        "Python integer {v} is too large for any NumPy integer type (int64 or uint64)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use DType::*;

    fn rt(d: DType, k: ScalarKind) -> DType {
        result_type(&[Operand::Array(d), Operand::Scalar(k)]).unwrap()
    }

    #[test]
    fn nep50_against_numpy() {
        // NumPy 2.4: np.result_type(dtype, True / 1 / 1.0 / 1j).
        let table = [
            (Bool, [Bool, Int64, Float64, Complex128]),
            (Int8, [Int8, Int8, Float64, Complex128]),
            (Int64, [Int64, Int64, Float64, Complex128]),
            (UInt8, [UInt8, UInt8, Float64, Complex128]),
            (UInt64, [UInt64, UInt64, Float64, Complex128]),
            (Float16, [Float16, Float16, Float16, Complex64]),
            (BFloat16, [BFloat16, BFloat16, BFloat16, Complex64]),
            (Float32, [Float32, Float32, Float32, Complex64]),
            (Float64, [Float64, Float64, Float64, Complex128]),
            (Complex64, [Complex64; 4]),
            (Complex128, [Complex128; 4]),
        ];
        let kinds = [
            ScalarKind::Bool,
            ScalarKind::Int,
            ScalarKind::Float,
            ScalarKind::Complex,
        ];
        for (d, expected) in table {
            for (k, e) in kinds.into_iter().zip(expected) {
                assert_eq!(rt(d, k), e, "{d} with {k:?}");
            }
        }
        use Operand::{Array as A, Scalar as S};
        assert_eq!(
            result_type(&[S(ScalarKind::Int), S(ScalarKind::Float)]).unwrap(),
            Float64
        );
        assert_eq!(result_type(&[S(ScalarKind::Int)]).unwrap(), Int64);
        assert_eq!(
            result_type(&[S(ScalarKind::Complex), S(ScalarKind::Int)]).unwrap(),
            Complex128
        );
        assert_eq!(
            result_type(&[A(Int8), A(UInt8), S(ScalarKind::Float)]).unwrap(),
            Float64
        );
        assert_eq!(
            result_type(&[A(Int8), A(UInt8), S(ScalarKind::Int)]).unwrap(),
            Int16
        );
        assert_eq!(result_type(&[A(Float32), A(Float16)]).unwrap(), Float32);
        assert_eq!(
            result_type(&[]).unwrap_err().to_string(),
            "at least one array or dtype is required"
        );
    }

    /// Every pair and triple of NumPy's dtypes and the weak kinds, and
    /// random sequences of four and five, against NumPy
    /// (testdata/dtype/result_type.tsv, `cargo xtask golden`).
    #[test]
    fn sequences_against_numpy() {
        let text = include_str!("../../testdata/dtype/result_type.tsv");
        let operand = |name: &str| match name {
            "int" => Operand::Scalar(ScalarKind::Int),
            "float" => Operand::Scalar(ScalarKind::Float),
            "complex" => Operand::Scalar(ScalarKind::Complex),
            d => Operand::Array(d.parse().expect("a dtype name")),
        };
        let mut cases = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split('\t').collect();
            let [ops @ .., "->", want] = fields.as_slice() else {
                panic!("bad line {line}");
            };
            let ops: Vec<Operand> = ops.iter().map(|o| operand(o)).collect();
            let want: DType = want.parse().unwrap();
            assert_eq!(result_type(&ops).unwrap(), want, "{line}");
            cases += 1;
        }
        assert!(cases > 8000, "{cases} cases");
    }

    #[test]
    fn weak_int_overflow() {
        assert_eq!(
            check_weak_int(300, Int8).unwrap_err().to_string(),
            "Python integer 300 out of bounds for int8"
        );
        assert_eq!(
            check_weak_int(-1, UInt8).unwrap_err().to_string(),
            "Python integer -1 out of bounds for uint8"
        );
        assert!(check_weak_int(255, UInt8).is_ok());
        assert!(check_weak_int(1 << 100, Float16).is_ok());
    }

    #[test]
    fn min_scalar_type_against_numpy() {
        let ints: [(i128, DType); 18] = [
            (0, UInt8),
            (10, UInt8),
            (127, UInt8),
            (255, UInt8),
            (256, UInt16),
            (-1, Int8),
            (-128, Int8),
            (-129, Int16),
            (65535, UInt16),
            (65536, UInt32),
            (-32769, Int32),
            (1 << 31, UInt32),
            (1 << 32, UInt64),
            (-(1 << 31) - 1, Int64),
            (1 << 63, UInt64),
            ((1 << 64) - 1, UInt64),
            (-(1 << 63), Int64),
            (128, UInt8),
        ];
        for (v, d) in ints {
            assert_eq!(min_scalar_type(ScalarValue::Int(v)).unwrap(), d, "{v}");
        }
        assert!(min_scalar_type(ScalarValue::Int(1 << 64)).is_err());
        assert!(min_scalar_type(ScalarValue::Int(-(1 << 63) - 1)).is_err());
        let floats = [
            (1.0, Float16),
            (65000.0, Float32),
            (64999.0, Float16),
            (-65000.0, Float32),
            (1e10, Float32),
            (3.4e38, Float64),
            (f64::INFINITY, Float16),
            (f64::NAN, Float16),
        ];
        for (v, d) in floats {
            assert_eq!(min_scalar_type(ScalarValue::Float(v)).unwrap(), d, "{v}");
        }
        assert_eq!(
            min_scalar_type(ScalarValue::Complex(Complex::new(0.0, 1.0))).unwrap(),
            Complex64
        );
        assert_eq!(
            min_scalar_type(ScalarValue::Complex(Complex::new(0.0, 1e39))).unwrap(),
            Complex128
        );
        assert_eq!(min_scalar_type(ScalarValue::Bool(true)).unwrap(), Bool);
    }
}
