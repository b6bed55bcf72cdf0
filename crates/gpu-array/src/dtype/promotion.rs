//! NumPy 2 type promotion (`promote_types`), casting rules (`can_cast`) and
//! `common_type`.

use std::fmt;

use super::{DType, Operand};
use crate::error::{Error, Result};

use DType::{
    BFloat16 as BF, Bool as B, Complex64 as C8, Complex128 as C16, Float16 as F2, Float32 as F4,
    Float64 as F8, Int8 as I1, Int16 as I2, Int32 as I4, Int64 as I8, UInt8 as U1, UInt16 as U2,
    UInt32 as U4, UInt64 as U8,
};

/// `numpy.promote_types` for every pair, indexed by [`DType::ALL`] order.
///
/// The NumPy rows and columns are NumPy 2.4's answers. The `bfloat16` row
/// follows ml_dtypes where ml_dtypes answers (bool, int8, uint8 -> bfloat16;
/// float32 -> float32; float64, complex -> as float16 would) and, where
/// ml_dtypes raises `DTypePromotionError`, promotes as JAX does and as
/// float16 would with a wider type: bfloat16 + float16 -> float32,
/// bfloat16 + int16/uint16 -> float32, bfloat16 + 32/64-bit int -> float64.
#[rustfmt::skip]
static PROMOTION_TABLE: [[DType; 15]; 15] = [
    //      B    I1   I2   I4   I8   U1   U2   U4   U8   F2   BF   F4   F8   C8   C16
    /*B */ [B,   I1,  I2,  I4,  I8,  U1,  U2,  U4,  U8,  F2,  BF,  F4,  F8,  C8,  C16],
    /*I1*/ [I1,  I1,  I2,  I4,  I8,  I2,  I4,  I8,  F8,  F2,  BF,  F4,  F8,  C8,  C16],
    /*I2*/ [I2,  I2,  I2,  I4,  I8,  I2,  I4,  I8,  F8,  F4,  F4,  F4,  F8,  C8,  C16],
    /*I4*/ [I4,  I4,  I4,  I4,  I8,  I4,  I4,  I8,  F8,  F8,  F8,  F8,  F8,  C16, C16],
    /*I8*/ [I8,  I8,  I8,  I8,  I8,  I8,  I8,  I8,  F8,  F8,  F8,  F8,  F8,  C16, C16],
    /*U1*/ [U1,  I2,  I2,  I4,  I8,  U1,  U2,  U4,  U8,  F2,  BF,  F4,  F8,  C8,  C16],
    /*U2*/ [U2,  I4,  I4,  I4,  I8,  U2,  U2,  U4,  U8,  F4,  F4,  F4,  F8,  C8,  C16],
    /*U4*/ [U4,  I8,  I8,  I8,  I8,  U4,  U4,  U4,  U8,  F8,  F8,  F8,  F8,  C16, C16],
    /*U8*/ [U8,  F8,  F8,  F8,  F8,  U8,  U8,  U8,  U8,  F8,  F8,  F8,  F8,  C16, C16],
    /*F2*/ [F2,  F2,  F4,  F8,  F8,  F2,  F4,  F8,  F8,  F2,  F4,  F4,  F8,  C8,  C16],
    /*BF*/ [BF,  BF,  F4,  F8,  F8,  BF,  F4,  F8,  F8,  F4,  BF,  F4,  F8,  C8,  C16],
    /*F4*/ [F4,  F4,  F4,  F8,  F8,  F4,  F4,  F8,  F8,  F4,  F4,  F4,  F8,  C8,  C16],
    /*F8*/ [F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  F8,  C16, C16],
    /*C8*/ [C8,  C8,  C8,  C16, C16, C8,  C8,  C16, C16, C8,  C8,  C8,  C16, C8,  C16],
    /*C16*/[C16, C16, C16, C16, C16, C16, C16, C16, C16, C16, C16, C16, C16, C16, C16],
];

/// `numpy.promote_types(a, b)`: the smallest dtype both cast to safely.
///
/// Commutative; `bool` is the identity; not associative in general
/// (NumPy's isn't either: `(int8, uint8) -> int16` then `+ float16 -> float32`,
/// but `uint8 + float16 -> float16` then `+ int8 -> float16`). Over integers
/// alone and over inexact types alone it is associative.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::promote_types;
/// assert_eq!(promote_types(DType::Int8, DType::UInt8), DType::Int16);
/// assert_eq!(promote_types(DType::Int64, DType::Float32), DType::Float64);
/// assert_eq!(promote_types(DType::Bool, DType::Float16), DType::Float16);
/// ```
pub const fn promote_types(a: DType, b: DType) -> DType {
    PROMOTION_TABLE[a.index()][b.index()]
}

/// NumPy's casting rules (`casting=` argument).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Casting {
    /// Only identical types.
    No,
    /// Identical types up to byte order (Cuprum has native order only, so as `No`).
    Equiv,
    /// Only casts that preserve every value (`promote_types(from, to) == to`).
    Safe,
    /// Safe casts, or casts within a kind order bool < uint < int < float < complex
    /// going upwards or sideways (`float64 -> float32`, `uint64 -> int8`).
    #[default]
    SameKind,
    /// Any cast.
    Unsafe,
}

impl Casting {
    /// NumPy's spelling: `"no"`, `"equiv"`, `"safe"`, `"same_kind"`, `"unsafe"`.
    ///
    /// ```
    /// use gpu_array::dtype::Casting;
    /// assert_eq!(Casting::SameKind.as_str(), "same_kind");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Casting::No => "no",
            Casting::Equiv => "equiv",
            Casting::Safe => "safe",
            Casting::SameKind => "same_kind",
            Casting::Unsafe => "unsafe",
        }
    }
}

impl fmt::Display for Casting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

// NumPy's five names, with can_cast's message (NumPy 2.4's `astype` also
// takes 'same_value', which Cuprum does not).
crate::from_numpy_str! {
    Casting, Error,
    else: |s| if s == "same_value" {
        Error::Unsupported("casting='same_value' is not supported".into())
    } else {
        Error::Value(format!(
            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '{s}')"
        ))
    },
    {
        "no" => Casting::No,
        "equiv" => Casting::Equiv,
        "safe" => Casting::Safe,
        "same_kind" => Casting::SameKind,
        "unsafe" => Casting::Unsafe,
    }
}

/// NumPy's ordering of kinds for `same_kind` casting.
const fn kind_order(dt: DType) -> u8 {
    match dt.kind() {
        'b' => 0,
        'u' => 1,
        'i' => 2,
        'f' => 4,
        _ => 5,
    }
}

/// `numpy.can_cast(from, to, casting)` for dtypes.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::{Casting, can_cast};
/// assert!(can_cast(DType::Int32, DType::Float64, Casting::Safe));
/// assert!(!can_cast(DType::Float64, DType::Float32, Casting::Safe));
/// assert!(can_cast(DType::Float64, DType::Float32, Casting::SameKind));
/// ```
pub const fn can_cast(from: DType, to: DType, casting: Casting) -> bool {
    let safe = promote_types(from, to) as u8 == to as u8;
    match casting {
        Casting::No | Casting::Equiv => from as u8 == to as u8,
        Casting::Safe => safe,
        Casting::SameKind => safe || kind_order(from) <= kind_order(to),
        Casting::Unsafe => true,
    }
}

/// `numpy.can_cast(from_, to, casting)` for any `from_` NumPy 2 takes: a
/// dtype (an array's, a NumPy scalar's: [`Operand::Array`]) answers as
/// [`can_cast`]; a Python scalar (a weak [`Operand::Scalar`], or a
/// [`ScalarValue`](super::ScalarValue), which converts to one) is refused,
/// as NumPy 2 refuses `np.can_cast(1000, np.int8)` since NEP 50: the
/// answer used to depend on the value.
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(can_cast_from(DType::Int8, DType::Int64, Casting::Safe)?);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::DType`] (NumPy's `TypeError`) for a Python scalar: "can_cast()
/// does not support Python ints, floats, and complex because the result
/// used to depend on the value.\nThis change was part of adopting NEP 50,
/// we may explicitly allow them again in the future."
pub fn can_cast_from(from: impl Into<Operand>, to: DType, casting: Casting) -> Result<bool> {
    match from.into() {
        Operand::Array(d) => Ok(can_cast(d, to, casting)),
        Operand::Scalar(_) => Err(Error::DType(
            "can_cast() does not support Python ints, floats, and complex because the result \
             used to depend on the value.\nThis change was part of adopting NEP 50, we may \
             explicitly allow them again in the future."
                .to_owned(),
        )),
    }
}

/// [`can_cast`] as a `Result`, with NumPy's message.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::{Casting, check_cast};
/// assert!(check_cast(DType::UInt8, DType::Int16, Casting::Safe).is_ok());
/// let e = check_cast(DType::Float64, DType::Int64, Casting::SameKind).unwrap_err();
/// assert!(e.to_string().contains("same_kind"));
/// ```
///
/// # Errors
///
/// [`Error::Cast`]: "Cannot cast array data from dtype('float64') to
/// dtype('int64') according to the rule 'same_kind'".
pub fn check_cast(from: DType, to: DType, casting: Casting) -> Result<()> {
    if can_cast(from, to, casting) {
        Ok(())
    } else {
        Err(Error::Cast { from, to, casting })
    }
}

/// `numpy.common_type(*arrays)` from the arrays' dtypes: always inexact.
/// Integers count as float64; the result is complex if any input is, with the
/// widest float precision among the inputs. With no input, float16 (NumPy's
/// answer). float16 with bfloat16 (and nothing wider) gives float32.
///
/// ```no_run
/// use gpu_array::{DType, dtype::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(common_type(&[DType::Int32, DType::Float32])?, DType::Float64);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::DType`] "can't get common type for non-numeric array" for `bool`.
pub fn common_type(dtypes: &[DType]) -> Result<DType> {
    let mut is_complex = false;
    let mut real: Option<DType> = None;
    for &dt in dtypes {
        let r = match dt {
            DType::Bool => {
                return Err(Error::DType(
                    "can't get common type for non-numeric array".to_owned(),
                ));
            }
            d if d.is_integer() => DType::Float64,
            d => {
                is_complex |= d.is_complex();
                d.real_dtype()
            }
        };
        real = Some(real.map_or(r, |acc| promote_types(acc, r)));
    }
    let real = real.unwrap_or(DType::Float16);
    Ok(if is_complex {
        real.complex_dtype()
            .expect("floating type has a complex type")
    } else {
        real
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_dtype() -> impl Strategy<Value = DType> {
        proptest::sample::select(DType::ALL.to_vec())
    }

    /// An independent statement of NumPy's rules, to check the table against.
    fn rule(a: DType, b: DType) -> DType {
        use DType::*;
        let bits = |d: DType| d.itemsize() * 8;
        if a == b || b == Bool {
            return a;
        }
        if a == Bool {
            return b;
        }
        let (ka, kb) = (a.kind(), b.kind());
        // Smallest float that holds an integer of n bits.
        let float_for_int = |d: DType| match bits(d) {
            8 => Float16,
            16 => Float32,
            _ => Float64,
        };
        let float_of_bits = |n: usize| match n {
            16 => Float16,
            32 => Float32,
            _ => Float64,
        };
        match (ka, kb) {
            ('i', 'i') | ('u', 'u') => {
                if bits(a) >= bits(b) {
                    a
                } else {
                    b
                }
            }
            ('i', 'u') | ('u', 'i') => {
                let (s, u) = if ka == 'i' { (a, b) } else { (b, a) };
                if bits(s) > bits(u) {
                    s
                } else if bits(u) == 64 {
                    Float64
                } else {
                    DType::from_kind_size('i', bits(u) / 4).unwrap()
                }
            }
            ('f' | 'c', 'i' | 'u') => rule(b, a),
            ('i' | 'u', 'f') => {
                if b == BFloat16 && bits(a) == 8 {
                    BFloat16
                } else {
                    let f = float_for_int(a);
                    if b == BFloat16 {
                        rule(f, Float32)
                    } else {
                        rule(f, b)
                    }
                }
            }
            ('i' | 'u', 'c') => rule(rule(float_for_int(a), Float32), b.real_dtype())
                .complex_dtype()
                .unwrap(),
            ('f', 'f') => {
                if a == BFloat16 || b == BFloat16 {
                    float_of_bits(bits(a).max(bits(b)).max(32))
                } else {
                    float_of_bits(bits(a).max(bits(b)))
                }
            }
            _ => rule(a.real_dtype(), b.real_dtype())
                .complex_dtype()
                .unwrap(),
        }
    }

    #[test]
    fn table_matches_rules() {
        for a in DType::ALL {
            for b in DType::ALL {
                assert_eq!(promote_types(a, b), rule(a, b), "{a} + {b}");
            }
        }
    }

    #[test]
    fn numpy_answers() {
        use DType::*;
        let cases = [
            (Int8, UInt8, Int16),
            (Int64, UInt64, Float64),
            (Float16, Int16, Float32),
            (Complex64, Float64, Complex128),
            (Int32, Float32, Float64),
            (UInt64, Int8, Float64),
            (UInt32, Int32, Int64),
            (UInt16, Int64, Int64),
            (Float16, UInt8, Float16),
            (Int16, Complex64, Complex64),
            (Int32, Complex64, Complex128),
            (BFloat16, Float16, Float32),
            (BFloat16, Int8, BFloat16),
            (BFloat16, UInt8, BFloat16),
            (BFloat16, Int16, Float32),
            (BFloat16, Int32, Float64),
            (BFloat16, Float32, Float32),
            (BFloat16, Complex64, Complex64),
        ];
        for (a, b, r) in cases {
            assert_eq!(promote_types(a, b), r, "{a} + {b}");
        }
        for d in DType::ALL {
            assert_eq!(promote_types(Bool, d), d);
        }
    }

    #[test]
    fn casting() {
        use DType::*;
        assert!(can_cast(Int64, Float64, Casting::Safe));
        assert!(can_cast(UInt64, Float64, Casting::Safe));
        assert!(can_cast(Int8, Float16, Casting::Safe));
        assert!(!can_cast(Int8, UInt8, Casting::Safe));
        assert!(!can_cast(Float16, BFloat16, Casting::Safe));
        assert!(can_cast(Float64, Float32, Casting::SameKind));
        assert!(can_cast(UInt64, Int8, Casting::SameKind));
        assert!(!can_cast(Int64, UInt8, Casting::SameKind));
        assert!(!can_cast(Complex64, Float64, Casting::SameKind));
        assert!(!can_cast(Float32, Int64, Casting::SameKind));
        assert!(can_cast(Float32, Int64, Casting::Unsafe));
        assert!(!can_cast(Float32, Float64, Casting::No));
        assert!(can_cast(Float32, Float32, Casting::Equiv));
        assert_eq!(
            check_cast(Float64, Int64, Casting::SameKind)
                .unwrap_err()
                .to_string(),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'"
        );
        for c in [
            Casting::No,
            Casting::Equiv,
            Casting::Safe,
            Casting::SameKind,
            Casting::Unsafe,
        ] {
            assert_eq!(c.as_str().parse::<Casting>().unwrap(), c);
        }
        assert!("x".parse::<Casting>().is_err());
    }

    #[test]
    fn can_cast_from_a_value() {
        use super::super::{ScalarKind, ScalarValue};
        use DType::*;
        assert!(!can_cast_from(Int64, Int8, Casting::Safe).unwrap());
        assert!(can_cast_from(Int64, Int8, Casting::SameKind).unwrap());
        // NumPy 2.4: np.can_cast(1000, np.int8) and np.can_cast(True, ...).
        let msg = "can_cast() does not support Python ints, floats, and complex because the \
                   result used to depend on the value.\nThis change was part of adopting NEP \
                   50, we may explicitly allow them again in the future.";
        for v in [
            ScalarValue::Int(1000),
            ScalarValue::Float(1.0),
            ScalarValue::Bool(true),
        ] {
            let e = can_cast_from(v, Int8, Casting::Safe).unwrap_err();
            assert!(matches!(e, Error::DType(_)));
            assert_eq!(e.to_string(), msg);
        }
        assert!(can_cast_from(ScalarKind::Complex, Float32, Casting::Unsafe).is_err());
    }

    #[test]
    fn common_types() {
        use DType::*;
        assert_eq!(common_type(&[Int8]).unwrap(), Float64);
        assert_eq!(common_type(&[Float16]).unwrap(), Float16);
        assert_eq!(common_type(&[Float16, Float32]).unwrap(), Float32);
        assert_eq!(common_type(&[Float32, Int32]).unwrap(), Float64);
        assert_eq!(common_type(&[Complex64, Float64]).unwrap(), Complex128);
        assert_eq!(common_type(&[Complex64, Float16]).unwrap(), Complex64);
        assert_eq!(common_type(&[Float16, BFloat16]).unwrap(), Float32);
        assert_eq!(common_type(&[]).unwrap(), Float16);
        assert_eq!(
            common_type(&[Bool]).unwrap_err().to_string(),
            "can't get common type for non-numeric array"
        );
    }

    proptest! {
        #[test]
        fn commutative(a in any_dtype(), b in any_dtype()) {
            prop_assert_eq!(promote_types(a, b), promote_types(b, a));
        }

        #[test]
        fn identity_and_idempotence(a in any_dtype()) {
            prop_assert_eq!(promote_types(a, DType::Bool), a);
            prop_assert_eq!(promote_types(a, a), a);
        }

        #[test]
        fn result_is_safe_target(a in any_dtype(), b in any_dtype()) {
            let r = promote_types(a, b);
            prop_assert!(can_cast(a, r, Casting::Safe) && can_cast(b, r, Casting::Safe));
        }

        #[test]
        fn associative_over_integers(
            a in any_dtype().prop_filter("int", |d| !d.is_inexact()),
            b in any_dtype().prop_filter("int", |d| !d.is_inexact()),
            c in any_dtype().prop_filter("int", |d| !d.is_inexact()),
        ) {
            prop_assert_eq!(promote_types(promote_types(a, b), c), promote_types(a, promote_types(b, c)));
        }

        #[test]
        fn associative_over_inexact(
            a in any_dtype().prop_filter("inexact", |d| d.is_inexact()),
            b in any_dtype().prop_filter("inexact", |d| d.is_inexact()),
            c in any_dtype().prop_filter("inexact", |d| d.is_inexact()),
        ) {
            prop_assert_eq!(promote_types(promote_types(a, b), c), promote_types(a, promote_types(b, c)));
        }

        #[test]
        fn same_kind_contains_safe(a in any_dtype(), b in any_dtype()) {
            if can_cast(a, b, Casting::Safe) {
                prop_assert!(can_cast(a, b, Casting::SameKind));
            }
            if can_cast(a, b, Casting::No) {
                prop_assert!(can_cast(a, b, Casting::Safe));
            }
        }
    }
}
