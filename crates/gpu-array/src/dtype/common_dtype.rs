//! NumPy's promotion of a sequence of DTypes (`PyArray_PromoteDTypeSequence`),
//! the rule behind `result_type` of three or more operands.
//!
//! NumPy does not fold [`promote_types`] from left to right, which is not
//! associative (`int8, uint8 -> int16`, then `float16 -> float32`). It
//! finds the "most knowledgeable" DType of the sequence in a knockout
//! between pairs, and promotes every other DType with that one before
//! combining the answers, so `result_type(int8, uint8, float16)` is float16:
//! float16 knows both integers and holds each of them. Python scalars (NEP 50
//! weak scalars) take part as the abstract DTypes `int`, `float` and
//! `complex`. The answer does not depend on the operands' order.
//!
//! Each DType answers a pair through its `common_dtype` slot, or declines
//! (NumPy's `NotImplemented`) and lets the other answer. A built-in type
//! declines a built-in of higher type number (NumPy's `type_num`, in which
//! float16 comes last) and answers the rest from the promotion table.
//! `bfloat16` is no NumPy type: ml_dtypes registers it as a user type,
//! numbered after all built-ins, so it ranks above float16 here.

use super::{DType, promote_types};
use crate::error::{Error, Result};

/// A DType class of the sequence: a concrete dtype or a Python scalar's
/// abstract one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// A concrete dtype.
    Concrete(DType),
    /// Python `int` (NumPy's `_PyLongDType`).
    PyInt,
    /// Python `float`.
    PyFloat,
    /// Python `complex`.
    PyComplex,
}

impl Class {
    /// The dtype of a finished promotion: a concrete one as it is, an
    /// abstract one's default (int64, float64, complex128).
    pub(super) fn dtype(self) -> DType {
        match self {
            Class::Concrete(d) => d,
            Class::PyInt => DType::Int64,
            Class::PyFloat => DType::Float64,
            Class::PyComplex => DType::Complex128,
        }
    }
}

/// NumPy's type number order of the built-ins (float16, added last, has the
/// highest); bfloat16 above every built-in, as a user type.
const fn rank(d: DType) -> u8 {
    match d {
        DType::Bool => 0,
        DType::Int8 => 1,
        DType::UInt8 => 2,
        DType::Int16 => 3,
        DType::UInt16 => 4,
        DType::Int32 => 5,
        DType::UInt32 => 6,
        DType::Int64 => 7,
        DType::UInt64 => 8,
        DType::Float32 => 11,
        DType::Float64 => 12,
        DType::Complex64 => 14,
        DType::Complex128 => 15,
        DType::Float16 => 23,
        DType::BFloat16 => 255,
    }
}

/// `cls.__common_dtype__(other)`: the answer of `cls`, or `None` where it
/// declines (NumPy's `NotImplemented`).
fn slot(cls: Class, other: Class) -> Option<Class> {
    use Class::{Concrete, PyComplex, PyFloat, PyInt};
    let int_like = |d: DType| d == DType::Bool || d.is_integer();
    match (cls, other) {
        (Concrete(a), Concrete(b)) => (rank(b) <= rank(a)).then(|| Concrete(promote_types(a, b))),
        (Concrete(a), PyComplex) => match a {
            _ if a.is_complex() => Some(cls),
            DType::Float16 | DType::BFloat16 | DType::Float32 => Some(Concrete(DType::Complex64)),
            DType::Float64 => Some(Concrete(DType::Complex128)),
            _ => None,
        },
        (Concrete(a), PyFloat) => a.is_inexact().then_some(cls),
        (Concrete(a), PyInt) => (a != DType::Bool).then_some(cls),
        (PyInt, Concrete(DType::Bool)) => Some(Concrete(DType::Int64)),
        (PyFloat, Concrete(b)) if int_like(b) => Some(Concrete(DType::Float64)),
        (PyFloat, PyInt) => Some(cls),
        (PyComplex, Concrete(b)) if int_like(b) => Some(Concrete(DType::Complex128)),
        (PyComplex, PyInt | PyFloat) => Some(cls),
        _ => None,
    }
}

/// `PyArray_CommonDType(a, b)`: `a`'s answer, else `b`'s.
fn common(a: Class, b: Class) -> Result<Class> {
    if a == b {
        return Ok(a);
    }
    slot(a, b).or_else(|| slot(b, a)).ok_or_else(|| {
        Error::DType(format!(
            "The DTypes {a:?} and {b:?} do not have a common DType."
        ))
    })
}

/// The knockout of `PyArray_PromoteDTypeSequence`: pairs the first half
/// with the last, moves each pair's more knowledgeable class to the front
/// (the one whose slot answers), drops a class that cannot change its
/// pair's answer, and repeats on the front part until one pair is left.
/// Returns that pair's answer, `None` where its first class declined.
fn knockout(classes: &mut [Option<Class>]) -> Option<Class> {
    let mut len = classes.len();
    loop {
        let half = len / 2;
        let mut answer = None;
        for low in 0..half {
            let high = len - 1 - low;
            // The front part never holds a dropped class.
            let (Some(l), Some(h)) = (classes[low], classes[high]) else {
                continue;
            };
            answer = if l == h { Some(l) } else { slot(l, h) };
            match answer {
                None => classes.swap(low, high),
                Some(a) if a == l => classes[high] = None,
                Some(_) => {}
            }
        }
        if len == 2 {
            return answer;
        }
        len -= half;
    }
}

/// `PyArray_PromoteDTypeSequence`: the common class of two or more classes.
///
/// # Errors
///
/// [`Error::DType`] where two classes have no common one (never for the
/// numeric classes of this module).
pub(super) fn promote_sequence(classes: &[Class]) -> Result<Class> {
    match classes {
        [] => {
            return Err(Error::Value(
                "at least one array or dtype is required".to_owned(),
            ));
        }
        [only] => return Ok(*only),
        _ => {}
    }
    let mut work: Vec<Option<Class>> = classes.iter().copied().map(Some).collect();
    let first = knockout(&mut work);
    let main = work[0].expect("the front of the knockout is never dropped");
    // The knockout's answer covers the first two classes when it answered.
    let (mut result, start) = match first {
        Some(r) => (Some(r), 2),
        None => (None, 1),
    };
    for &c in &work[start..] {
        let Some(c) = c.filter(|&c| c != main) else {
            continue;
        };
        let promoted = slot(main, c).ok_or_else(|| {
            Error::DType(format!(
                "The DType {c:?} could not be promoted by {main:?}."
            ))
        })?;
        result = Some(match result {
            None => promoted,
            Some(r) => common(r, promoted)?,
        });
    }
    Ok(result.unwrap_or(main))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_knockout_picks_the_most_knowledgeable() {
        use Class::*;
        let d = Concrete;
        let rt = |c: &[Class]| promote_sequence(c).unwrap();
        // NumPy 2.4's answers; a left fold gives float32, float64, float64.
        assert_eq!(
            rt(&[d(DType::Int8), d(DType::UInt8), d(DType::Float16)]),
            d(DType::Float16)
        );
        assert_eq!(
            rt(&[d(DType::Int8), d(DType::UInt16), d(DType::Float16)]),
            d(DType::Float32)
        );
        assert_eq!(
            rt(&[d(DType::Int16), d(DType::UInt64), d(DType::Float16)]),
            d(DType::Float64)
        );
        assert_eq!(rt(&[PyInt, PyFloat]), PyFloat);
        assert_eq!(rt(&[PyInt, d(DType::Bool)]), d(DType::Int64));
        assert_eq!(rt(&[PyComplex, d(DType::Float16)]), d(DType::Complex64));
        // bfloat16 ranks above float16.
        assert_eq!(
            rt(&[d(DType::Int8), d(DType::UInt8), d(DType::BFloat16)]),
            d(DType::BFloat16)
        );
        assert_eq!(
            rt(&[d(DType::Float16), d(DType::Int8), d(DType::BFloat16)]),
            d(DType::Float32)
        );
    }

    #[test]
    fn order_does_not_matter() {
        let classes: Vec<Class> = DType::ALL
            .into_iter()
            .map(Class::Concrete)
            .chain([Class::PyInt, Class::PyFloat, Class::PyComplex])
            .collect();
        for &a in &classes {
            for &b in &classes {
                for &c in &classes {
                    let r = promote_sequence(&[a, b, c]).unwrap();
                    for p in [[a, c, b], [b, a, c], [b, c, a], [c, a, b], [c, b, a]] {
                        assert_eq!(promote_sequence(&p).unwrap(), r, "{a:?} {b:?} {c:?}");
                    }
                }
            }
        }
    }
}
