//! Data types: [`DType`], the host [`Element`] trait, NumPy 2 promotion and
//! casting rules, machine limits ([`finfo`], [`iinfo`]) and the abstract type
//! hierarchy ([`issubdtype`]).

mod common_dtype;
pub mod ctype;
mod element;
mod hierarchy;
mod info;
mod promotion;
mod scalar;

pub use element::{Element, from_bytes, to_bytes};
pub use hierarchy::{TypeClass, issubdtype};
pub use info::{Finfo, Iinfo, finfo, iinfo};
pub use promotion::{Casting, can_cast, can_cast_from, check_cast, common_type, promote_types};
pub use scalar::{Operand, ScalarKind, ScalarValue, check_weak_int, min_scalar_type, result_type};

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result};

/// The element type of an array, as NumPy's `dtype` (native byte order only).
///
/// `BFloat16` is beyond NumPy (as `ml_dtypes.bfloat16`) and beyond CuPy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `uint8`.
    UInt8,
    /// `uint16`.
    UInt16,
    /// `uint32`.
    UInt32,
    /// `uint64`.
    UInt64,
    /// `float16` (IEEE half).
    Float16,
    /// `bfloat16` (brain float, 8 exponent bits).
    BFloat16,
    /// `float32`.
    Float32,
    /// `float64`.
    Float64,
    /// `complex64`: two `float32`.
    Complex64,
    /// `complex128`: two `float64`.
    Complex128,
}

impl DType {
    /// Every dtype, in declaration order (the order of the promotion table).
    pub const ALL: [DType; 15] = [
        DType::Bool,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ];

    /// Position in [`DType::ALL`].
    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// Size of one element in bytes (`dtype.itemsize`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Complex128.itemsize(), 16);
    /// assert_eq!(DType::Bool.itemsize(), 1);
    /// ```
    pub const fn itemsize(self) -> usize {
        match self {
            DType::Bool | DType::Int8 | DType::UInt8 => 1,
            DType::Int16 | DType::UInt16 | DType::Float16 | DType::BFloat16 => 2,
            DType::Int32 | DType::UInt32 | DType::Float32 => 4,
            DType::Int64 | DType::UInt64 | DType::Float64 | DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }

    /// NumPy's name (`dtype.name`): `"float32"`, `"bool"`, `"bfloat16"`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::BFloat16.name(), "bfloat16");
    /// assert_eq!(DType::UInt16.to_string(), DType::UInt16.name());
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::UInt8 => "uint8",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }

    /// NumPy's one-character code (`dtype.char`) on Linux: `int64` is `'l'`,
    /// `uint64` `'L'`; `bfloat16` is `'E'` as in `ml_dtypes`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Int64.char(), 'l');
    /// assert_eq!(DType::Float32.char(), 'f');
    /// ```
    pub const fn char(self) -> char {
        match self {
            DType::Bool => '?',
            DType::Int8 => 'b',
            DType::Int16 => 'h',
            DType::Int32 => 'i',
            DType::Int64 => 'l',
            DType::UInt8 => 'B',
            DType::UInt16 => 'H',
            DType::UInt32 => 'I',
            DType::UInt64 => 'L',
            DType::Float16 => 'e',
            DType::BFloat16 => 'E',
            DType::Float32 => 'f',
            DType::Float64 => 'd',
            DType::Complex64 => 'F',
            DType::Complex128 => 'D',
        }
    }

    /// NumPy's kind (`dtype.kind`): `'b'`, `'i'`, `'u'`, `'f'` or `'c'`.
    /// `bfloat16` reports `'f'` (ml_dtypes says `'V'`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::UInt8.kind(), 'u');
    /// assert_eq!(DType::Complex64.kind(), 'c');
    /// ```
    pub const fn kind(self) -> char {
        match self {
            DType::Bool => 'b',
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => 'i',
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => 'u',
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64 => 'f',
            DType::Complex64 | DType::Complex128 => 'c',
        }
    }

    /// NumPy's type string in native (little-endian) order (`dtype.str`):
    /// `"|b1"`, `"<i4"`, `"<c16"`. `bfloat16` gives `"<V2"`, as ml_dtypes.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Int32.str(), "<i4");
    /// assert_eq!(DType::Bool.str(), "|b1");
    /// ```
    pub fn str(self) -> String {
        if self == DType::BFloat16 {
            return "<V2".to_owned();
        }
        let order = if self.itemsize() == 1 { '|' } else { '<' };
        format!("{order}{}{}", self.kind(), self.itemsize())
    }

    /// The CUDA C++ type that kernels use for this dtype (see [`ctype`]).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ctype;
    /// assert_eq!(DType::Float64.c_type(), "double");
    /// assert_eq!(DType::Float16.c_type(), ctype::FLOAT16);
    /// ```
    pub const fn c_type(self) -> &'static str {
        match self {
            DType::Bool => ctype::BOOL,
            DType::Int8 => ctype::INT8,
            DType::Int16 => ctype::INT16,
            DType::Int32 => ctype::INT32,
            DType::Int64 => ctype::INT64,
            DType::UInt8 => ctype::UINT8,
            DType::UInt16 => ctype::UINT16,
            DType::UInt32 => ctype::UINT32,
            DType::UInt64 => ctype::UINT64,
            DType::Float16 => ctype::FLOAT16,
            DType::BFloat16 => ctype::BFLOAT16,
            DType::Float32 => ctype::FLOAT32,
            DType::Float64 => ctype::FLOAT64,
            DType::Complex64 => ctype::COMPLEX64,
            DType::Complex128 => ctype::COMPLEX128,
        }
    }

    /// The C type kernels compute this dtype's arithmetic in: `float` for
    /// float16 and bfloat16 (stored in 16 bits, computed in float, as
    /// `cuprum::compute_type` in `kernels/cuprum/types.cuh`), else
    /// [`c_type`](DType::c_type). Accumulators of sums and scans use it.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Float16.compute_c_type(), "float");
    /// assert_eq!(DType::Int32.compute_c_type(), DType::Int32.c_type());
    /// ```
    pub const fn compute_c_type(self) -> &'static str {
        match self {
            DType::Float16 | DType::BFloat16 => ctype::FLOAT32,
            d => d.c_type(),
        }
    }

    /// `bool`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Bool.is_bool() && !DType::UInt8.is_bool());
    /// ```
    pub const fn is_bool(self) -> bool {
        matches!(self, DType::Bool)
    }

    /// A signed integer (`int8`..`int64`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Int8.is_signed_integer());
    /// assert!(!DType::UInt8.is_signed_integer());
    /// ```
    pub const fn is_signed_integer(self) -> bool {
        self.kind() == 'i'
    }

    /// An unsigned integer (`uint8`..`uint64`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::UInt64.is_unsigned_integer());
    /// assert!(!DType::Bool.is_unsigned_integer());
    /// ```
    pub const fn is_unsigned_integer(self) -> bool {
        self.kind() == 'u'
    }

    /// Any integer, signed or not (not `bool`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Int16.is_integer() && DType::UInt32.is_integer());
    /// assert!(!DType::Bool.is_integer());
    /// ```
    pub const fn is_integer(self) -> bool {
        matches!(self.kind(), 'i' | 'u')
    }

    /// A real floating type (`float16`, `bfloat16`, `float32`, `float64`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::BFloat16.is_floating());
    /// assert!(!DType::Complex64.is_floating());
    /// ```
    pub const fn is_floating(self) -> bool {
        self.kind() == 'f'
    }

    /// A complex type.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Complex64.is_complex() && !DType::Float64.is_complex());
    /// ```
    pub const fn is_complex(self) -> bool {
        self.kind() == 'c'
    }

    /// Floating or complex (NumPy's `inexact`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Float16.is_inexact() && DType::Complex128.is_inexact());
    /// assert!(!DType::Int64.is_inexact());
    /// ```
    pub const fn is_inexact(self) -> bool {
        matches!(self.kind(), 'f' | 'c')
    }

    /// Signed integers, floats and complex: types with a negative value.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert!(DType::Int8.is_signed() && DType::Float32.is_signed());
    /// assert!(!DType::UInt8.is_signed() && !DType::Bool.is_signed());
    /// ```
    pub const fn is_signed(self) -> bool {
        matches!(self.kind(), 'i' | 'f' | 'c')
    }

    /// The real type of a complex dtype; other dtypes are returned as is
    /// (`complex64` -> `float32`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Complex64.real_dtype(), DType::Float32);
    /// assert_eq!(DType::Int8.real_dtype(), DType::Int8);
    /// ```
    pub const fn real_dtype(self) -> DType {
        match self {
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            other => other,
        }
    }

    /// The complex type holding this real floating type
    /// (`float16`/`bfloat16`/`float32` -> `complex64`, `float64` -> `complex128`);
    /// `None` for non-floating types.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::Float16.complex_dtype(), Some(DType::Complex64));
    /// assert_eq!(DType::Float64.complex_dtype(), Some(DType::Complex128));
    /// assert_eq!(DType::Int32.complex_dtype(), None);
    /// ```
    pub const fn complex_dtype(self) -> Option<DType> {
        match self {
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Complex64 => {
                Some(DType::Complex64)
            }
            DType::Float64 | DType::Complex128 => Some(DType::Complex128),
            _ => None,
        }
    }

    /// The dtype with this kind and size in bytes (`'f', 4` -> `float32`).
    /// `'f', 2` is `float16`, never `bfloat16`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::from_kind_size('f', 4), Some(DType::Float32));
    /// assert_eq!(DType::from_kind_size('u', 2), Some(DType::UInt16));
    /// assert_eq!(DType::from_kind_size('i', 3), None);
    /// ```
    pub const fn from_kind_size(kind: char, size: usize) -> Option<DType> {
        Some(match (kind, size) {
            ('b', 1) => DType::Bool,
            ('i', 1) => DType::Int8,
            ('i', 2) => DType::Int16,
            ('i', 4) => DType::Int32,
            ('i', 8) => DType::Int64,
            ('u', 1) => DType::UInt8,
            ('u', 2) => DType::UInt16,
            ('u', 4) => DType::UInt32,
            ('u', 8) => DType::UInt64,
            ('f', 2) => DType::Float16,
            ('f', 4) => DType::Float32,
            ('f', 8) => DType::Float64,
            ('c', 8) => DType::Complex64,
            ('c', 16) => DType::Complex128,
            _ => return None,
        })
    }

    /// The dtype of a one-character code (`'f'` -> `float32`), accepting
    /// every code NumPy maps to a supported type (`'q'`, `'p'`, `'l'` -> `int64`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// assert_eq!(DType::from_char('q'), Some(DType::Int64));
    /// assert_eq!(DType::from_char('D'), Some(DType::Complex128));
    /// assert_eq!(DType::from_char('S'), None); // byte strings are not supported
    /// ```
    pub const fn from_char(c: char) -> Option<DType> {
        Some(match c {
            '?' => DType::Bool,
            'b' => DType::Int8,
            'h' => DType::Int16,
            'i' => DType::Int32,
            'l' | 'q' | 'p' => DType::Int64,
            'B' => DType::UInt8,
            'H' => DType::UInt16,
            'I' => DType::UInt32,
            'L' | 'Q' | 'P' => DType::UInt64,
            'e' => DType::Float16,
            'E' => DType::BFloat16,
            'f' => DType::Float32,
            'd' => DType::Float64,
            'F' => DType::Complex64,
            'D' => DType::Complex128,
            _ => return None,
        })
    }

    fn from_name(s: &str) -> Option<DType> {
        Some(match s {
            "bool" | "bool_" => DType::Bool,
            "int8" | "byte" => DType::Int8,
            "int16" | "short" => DType::Int16,
            "int32" | "intc" => DType::Int32,
            "int64" | "int" | "int_" | "intp" | "long" | "longlong" => DType::Int64,
            "uint8" | "ubyte" => DType::UInt8,
            "uint16" | "ushort" => DType::UInt16,
            "uint32" | "uintc" => DType::UInt32,
            "uint64" | "uint" | "uintp" | "ulong" | "ulonglong" => DType::UInt64,
            "float16" | "half" => DType::Float16,
            "bfloat16" => DType::BFloat16,
            "float32" | "single" => DType::Float32,
            "float64" | "float" | "double" => DType::Float64,
            "complex64" | "csingle" => DType::Complex64,
            "complex128" | "complex" | "cdouble" => DType::Complex128,
            _ => return None,
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = Error;

    /// Parses what `numpy.dtype(str)` accepts for the supported types, with
    /// NumPy 2 meanings: names (`"float32"`), aliases (`"float"` -> float64,
    /// `"int"` -> int64, `"complex"` -> complex128, `"half"`, `"intp"`...),
    /// one-character codes (`"f"`, `"?"`) and type strings (`"f4"`, `"<f4"`,
    /// `"|b1"`, `"c16"`), plus `"bfloat16"`.
    ///
    /// # Errors
    ///
    /// [`Error::DType`] "data type 'x' not understood" for unknown strings;
    /// [`Error::Unsupported`] for NumPy types that Cuprum lacks (`longdouble`,
    /// `object`, strings, ...) and for big-endian multi-byte types.
    fn from_str(s: &str) -> Result<DType> {
        if let Some(dt) = DType::from_name(s) {
            return Ok(dt);
        }
        let (order, rest) = match s.chars().next() {
            Some(c @ ('<' | '>' | '=' | '|')) => (Some(c), &s[1..]),
            _ => (None, s),
        };
        let mut chars = rest.chars();
        let parsed = match (chars.next(), chars.as_str()) {
            (Some(c), "") => DType::from_char(c),
            (Some(kind @ ('b' | 'i' | 'u' | 'f' | 'c')), size) if !size.starts_with('+') => size
                .parse::<usize>()
                .ok()
                .and_then(|n| DType::from_kind_size(kind, n)),
            _ => None,
        };
        match parsed {
            Some(dt) if order == Some('>') && dt.itemsize() > 1 => {
                Err(Error::Unsupported(format!(
                    "big-endian data type '{s}' is not supported: Cuprum arrays are in native \
                 (little-endian) byte order"
                )))
            }
            Some(dt) => Ok(dt),
            None if is_known_unsupported(rest) => Err(Error::Unsupported(format!(
                "data type '{s}' is not supported by Cuprum (supported: bool, int8..int64, \
                 uint8..uint64, float16, bfloat16, float32, float64, complex64, complex128)"
            ))),
            None => Err(Error::DType(format!("data type '{s}' not understood"))),
        }
    }
}

/// NumPy types that exist but that Cuprum does not implement.
fn is_known_unsupported(s: &str) -> bool {
    matches!(
        s,
        "g" | "G"
            | "O"
            | "S"
            | "U"
            | "V"
            | "M"
            | "m"
            | "a"
            | "c"
            | "f16"
            | "c32"
            | "f12"
            | "c24"
            | "longdouble"
            | "clongdouble"
            | "object"
            | "object_"
            | "str"
            | "str_"
            | "bytes"
            | "bytes_"
            | "void"
            | "datetime64"
            | "timedelta64"
            | "float128"
            | "complex256"
    ) || s.starts_with(['S', 'U', 'V', 'M', 'm', 'a'])
        && s[1..].starts_with(|c: char| c.is_ascii_digit() || c == '[')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for dt in DType::ALL {
            assert_eq!(dt.name().parse::<DType>().unwrap(), dt);
            assert_eq!(dt.to_string(), dt.name());
            assert_eq!(DType::from_char(dt.char()), Some(dt));
            assert_eq!(
                dt.index(),
                DType::ALL.iter().position(|&d| d == dt).unwrap()
            );
            if dt != DType::BFloat16 {
                assert_eq!(dt.str().parse::<DType>().unwrap(), dt, "{}", dt.str());
                assert_eq!(DType::from_kind_size(dt.kind(), dt.itemsize()), Some(dt));
            }
        }
    }

    #[test]
    fn numpy_aliases() {
        let cases = [
            ("int", DType::Int64),
            ("uint", DType::UInt64),
            ("float", DType::Float64),
            ("complex", DType::Complex128),
            ("b", DType::Int8),
            ("?", DType::Bool),
            ("b1", DType::Bool),
            ("|b1", DType::Bool),
            (">?", DType::Bool),
            (">i1", DType::Int8),
            ("f4", DType::Float32),
            ("<f4", DType::Float32),
            ("=f4", DType::Float32),
            ("<f", DType::Float32),
            ("q", DType::Int64),
            ("p", DType::Int64),
            ("P", DType::UInt64),
            ("half", DType::Float16),
            ("e", DType::Float16),
            ("c8", DType::Complex64),
            ("c16", DType::Complex128),
            ("D", DType::Complex128),
            ("intc", DType::Int32),
            ("longlong", DType::Int64),
            ("bool_", DType::Bool),
            ("ubyte", DType::UInt8),
        ];
        for (s, dt) in cases {
            assert_eq!(s.parse::<DType>().unwrap(), dt, "{s}");
        }
    }

    #[test]
    fn parse_errors() {
        for s in [
            "float_", "complex_", " f4", "F4", "Float32", "u", "i0", "f0", "int0", "",
        ] {
            let e = s.parse::<DType>().unwrap_err();
            assert_eq!(e.to_string(), format!("data type '{s}' not understood"));
        }
        for s in ["g", "O", "longdouble", "<f16", "S10", "U3", "object"] {
            assert!(
                matches!(s.parse::<DType>(), Err(Error::Unsupported(_))),
                "{s}"
            );
        }
        assert!(matches!(">f8".parse::<DType>(), Err(Error::Unsupported(_))));
    }

    #[test]
    fn properties() {
        assert_eq!(DType::Complex128.itemsize(), 16);
        assert_eq!(DType::BFloat16.itemsize(), 2);
        assert_eq!(DType::Int64.str(), "<i8");
        assert_eq!(DType::Bool.str(), "|b1");
        assert_eq!(DType::Complex128.str(), "<c16");
        assert_eq!(DType::Float16.c_type(), "cuprum::half");
        assert_eq!(DType::BFloat16.c_type(), "cuprum::bfloat16");
        assert_eq!(DType::Complex64.c_type(), "cuprum::complex<float>");
        assert_eq!(DType::Int64.c_type(), "long long");
        assert_eq!(DType::UInt8.c_type(), "unsigned char");
        assert_eq!(DType::BFloat16.compute_c_type(), "float");
        assert_eq!(DType::Int16.compute_c_type(), "short");
        assert_eq!(
            DType::Complex128.compute_c_type(),
            "cuprum::complex<double>"
        );
        assert!(DType::BFloat16.is_floating() && DType::BFloat16.is_inexact());
        assert!(!DType::Bool.is_integer() && DType::UInt8.is_integer());
        assert_eq!(DType::Complex64.real_dtype(), DType::Float32);
        assert_eq!(DType::BFloat16.complex_dtype(), Some(DType::Complex64));
        assert_eq!(DType::Int8.complex_dtype(), None);
    }
}
