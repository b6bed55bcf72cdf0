//! NumPy's abstract scalar-type hierarchy and `issubdtype`.

use std::str::FromStr;

use super::DType;
use crate::error::{Error, Result};

/// A node of NumPy's type hierarchy: an abstract class (`np.number`,
/// `np.floating`...) or a concrete dtype.
///
/// ```text
/// generic
/// ├── bool
/// └── number
///     ├── integer
///     │   ├── signedinteger:   int8 int16 int32 int64
///     │   └── unsignedinteger: uint8 uint16 uint32 uint64
///     └── inexact
///         ├── floating:        float16 bfloat16 float32 float64
///         └── complexfloating: complex64 complex128
/// ```
///
/// `bfloat16` sits under `floating` here (in ml_dtypes it is only a `generic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeClass {
    /// `np.generic`: every dtype.
    Generic,
    /// `np.number`: every dtype but bool.
    Number,
    /// `np.integer`.
    Integer,
    /// `np.signedinteger`.
    SignedInteger,
    /// `np.unsignedinteger`.
    UnsignedInteger,
    /// `np.inexact`.
    Inexact,
    /// `np.floating`.
    Floating,
    /// `np.complexfloating`.
    ComplexFloating,
    /// One concrete dtype (`np.bool_` is `Concrete(DType::Bool)`).
    Concrete(DType),
}

impl TypeClass {
    /// The class directly above this one; `None` for `Generic`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::TypeClass;
    /// assert_eq!(TypeClass::Concrete(DType::Int8).parent(), Some(TypeClass::SignedInteger));
    /// assert_eq!(TypeClass::SignedInteger.parent(), Some(TypeClass::Integer));
    /// assert_eq!(TypeClass::Generic.parent(), None);
    /// ```
    pub const fn parent(self) -> Option<TypeClass> {
        Some(match self {
            TypeClass::Generic => return None,
            TypeClass::Number => TypeClass::Generic,
            TypeClass::Integer | TypeClass::Inexact => TypeClass::Number,
            TypeClass::SignedInteger | TypeClass::UnsignedInteger => TypeClass::Integer,
            TypeClass::Floating | TypeClass::ComplexFloating => TypeClass::Inexact,
            TypeClass::Concrete(d) => match d.kind() {
                'b' => TypeClass::Generic,
                'i' => TypeClass::SignedInteger,
                'u' => TypeClass::UnsignedInteger,
                'f' => TypeClass::Floating,
                _ => TypeClass::ComplexFloating,
            },
        })
    }
}

impl From<DType> for TypeClass {
    fn from(dtype: DType) -> TypeClass {
        TypeClass::Concrete(dtype)
    }
}

impl FromStr for TypeClass {
    type Err = Error;

    /// NumPy's abstract names (`"number"`, `"integer"`, `"signedinteger"`,
    /// `"unsignedinteger"`, `"inexact"`, `"floating"`, `"complexfloating"`,
    /// `"generic"`), else a dtype as [`DType::from_str`] parses it.
    ///
    /// # Errors
    ///
    /// As [`DType::from_str`].
    fn from_str(s: &str) -> Result<TypeClass> {
        Ok(match s {
            "generic" => TypeClass::Generic,
            "number" => TypeClass::Number,
            "integer" => TypeClass::Integer,
            "signedinteger" => TypeClass::SignedInteger,
            "unsignedinteger" => TypeClass::UnsignedInteger,
            "inexact" => TypeClass::Inexact,
            "floating" => TypeClass::Floating,
            "complexfloating" => TypeClass::ComplexFloating,
            _ => TypeClass::Concrete(s.parse()?),
        })
    }
}

/// `numpy.issubdtype(arg1, arg2)`: whether `arg1` is `arg2` or below it in
/// the hierarchy (`issubdtype(float32, floating)`, `issubdtype(int8, number)`;
/// `issubdtype(float32, float64)` is false).
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(issubdtype(DType::Float32, TypeClass::Floating));
/// # Ok(()) }
/// ```
pub fn issubdtype(arg1: impl Into<TypeClass>, arg2: impl Into<TypeClass>) -> bool {
    let target = arg2.into();
    let mut node = Some(arg1.into());
    while let Some(n) = node {
        if n == target {
            return true;
        }
        node = n.parent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use TypeClass::*;

    #[test]
    fn numpy_hierarchy() {
        assert!(issubdtype(DType::Float32, Floating));
        assert!(issubdtype(DType::Float32, Inexact));
        assert!(issubdtype(DType::Float32, Number));
        assert!(issubdtype(DType::Float32, Generic));
        assert!(!issubdtype(DType::Float32, Integer));
        assert!(!issubdtype(DType::Float32, DType::Float64));
        assert!(issubdtype(DType::Float64, DType::Float64));
        assert!(issubdtype(DType::UInt8, UnsignedInteger));
        assert!(!issubdtype(DType::UInt8, SignedInteger));
        assert!(issubdtype(DType::Int8, Integer));
        assert!(issubdtype(DType::Complex64, ComplexFloating));
        assert!(!issubdtype(DType::Complex64, Floating));
        assert!(!issubdtype(DType::Bool, Number));
        assert!(issubdtype(DType::Bool, Generic));
        assert!(issubdtype(DType::BFloat16, Floating));
        assert!(issubdtype(Floating, Inexact));
        assert!(!issubdtype(Number, Floating));
        for d in DType::ALL {
            assert!(issubdtype(d, Generic));
            assert_eq!(issubdtype(d, Integer), d.is_integer());
            assert_eq!(issubdtype(d, Inexact), d.is_inexact());
        }
        assert_eq!("floating".parse::<TypeClass>().unwrap(), Floating);
        assert_eq!("f4".parse::<TypeClass>().unwrap(), Concrete(DType::Float32));
    }
}
