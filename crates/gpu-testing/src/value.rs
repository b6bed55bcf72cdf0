//! One element of a [`HostArray`] and the arithmetic the assertions need,
//! after NumPy's promotion of the two operands: integers (and `bool`)
//! exactly as `i128`, reals as `f64`, complex as `Complex<f64>`.

use num_complex::Complex;

use crate::host::{HostArray, HostData};

/// An element, widened.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Val {
    /// `bool` (0 or 1) and every integer type, exactly.
    I(i128),
    /// Real floating types.
    F(f64),
    /// Complex types.
    C(Complex<f64>),
}

/// A magnitude (an absolute value or difference): exact for integers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Mag {
    /// Of two integers.
    I(i128),
    /// Of anything inexact.
    F(f64),
}

impl Mag {
    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Mag::I(i) => i as f64,
            Mag::F(x) => x,
        }
    }

    /// The larger magnitude; NaN wins, as NumPy's `max`.
    pub(crate) fn max(self, other: Mag) -> Mag {
        match (self, other) {
            (Mag::I(a), Mag::I(b)) => Mag::I(a.max(b)),
            (a, b) => {
                let (a, b) = (a.as_f64(), b.as_f64());
                Mag::F(if a.is_nan() || b.is_nan() {
                    f64::NAN
                } else {
                    a.max(b)
                })
            }
        }
    }
}

impl HostArray {
    /// Element `i`, widened.
    pub(crate) fn val(&self, i: usize) -> Val {
        match &self.data {
            HostData::Bool(v) => Val::I(i128::from(v[i])),
            HostData::Int(v) => Val::I(i128::from(v[i])),
            HostData::UInt(v) => Val::I(i128::from(v[i])),
            HostData::Float(v) => Val::F(v[i]),
            HostData::Complex(v) => Val::C(v[i]),
        }
    }
}

impl Val {
    fn to_complex(self) -> Complex<f64> {
        match self {
            Val::I(i) => Complex::new(i as f64, 0.0),
            Val::F(x) => Complex::new(x, 0.0),
            Val::C(z) => z,
        }
    }

    fn to_f64(self) -> f64 {
        match self {
            Val::I(i) => i as f64,
            Val::F(x) => x,
            Val::C(z) => z.re,
        }
    }

    /// Both operands in their common kind (NumPy's promotion, with integer
    /// pairs kept exact where NumPy would go through float64).
    pub(crate) fn promote(a: Val, b: Val) -> (Val, Val) {
        match (a, b) {
            (Val::I(_), Val::I(_)) | (Val::F(_), Val::F(_)) | (Val::C(_), Val::C(_)) => (a, b),
            (Val::C(_), _) | (_, Val::C(_)) => (Val::C(a.to_complex()), Val::C(b.to_complex())),
            _ => (Val::F(a.to_f64()), Val::F(b.to_f64())),
        }
    }

    /// `isnan` (for complex: either part).
    pub(crate) fn is_nan(self) -> bool {
        match self {
            Val::I(_) => false,
            Val::F(x) => x.is_nan(),
            Val::C(z) => z.re.is_nan() || z.im.is_nan(),
        }
    }

    /// `x == +inf` (for complex: `inf+0j` only).
    pub(crate) fn is_pos_inf(self) -> bool {
        self.equals_real(f64::INFINITY)
    }

    /// `x == -inf`.
    pub(crate) fn is_neg_inf(self) -> bool {
        self.equals_real(f64::NEG_INFINITY)
    }

    fn equals_real(self, r: f64) -> bool {
        match self {
            Val::I(_) => false,
            Val::F(x) => x == r,
            Val::C(z) => z.re == r && z.im == 0.0,
        }
    }

    /// Whether this is zero (`-0.0` included).
    pub(crate) fn is_zero(self) -> bool {
        match self {
            Val::I(i) => i == 0,
            Val::F(x) => x == 0.0,
            Val::C(z) => z.re == 0.0 && z.im == 0.0,
        }
    }

    /// `abs(x)`.
    pub(crate) fn abs(self) -> Mag {
        match self {
            Val::I(i) => Mag::I(i.abs()),
            Val::F(x) => Mag::F(x.abs()),
            Val::C(z) => Mag::F(z.norm()),
        }
    }

    /// `a == b` (`0.0 == -0.0`; NaN is unequal to everything).
    pub(crate) fn eq(a: Val, b: Val) -> bool {
        match Val::promote(a, b) {
            (Val::I(a), Val::I(b)) => a == b,
            (Val::F(a), Val::F(b)) => a == b,
            (a, b) => a.to_complex() == b.to_complex(),
        }
    }

    /// `a < b`; complex values order lexicographically, as NumPy's.
    pub(crate) fn lt(a: Val, b: Val) -> bool {
        match Val::promote(a, b) {
            (Val::I(a), Val::I(b)) => a < b,
            (Val::F(a), Val::F(b)) => a < b,
            (a, b) => {
                let (a, b) = (a.to_complex(), b.to_complex());
                a.re < b.re || (a.re == b.re && a.im < b.im)
            }
        }
    }

    /// `abs(a - b)`, exact for two integers (so for unsigned operands too).
    pub(crate) fn abs_diff(a: Val, b: Val) -> Mag {
        match Val::promote(a, b) {
            (Val::I(a), Val::I(b)) => Mag::I((a - b).abs()),
            (Val::F(a), Val::F(b)) => Mag::F((a - b).abs()),
            (a, b) => Mag::F((a.to_complex() - b.to_complex()).norm()),
        }
    }

    /// `numpy.isclose(a, d, rtol, atol)` without its NaN clause:
    /// `abs(a - d) <= atol + rtol * abs(d)` for finite `d`, or `a == d`.
    pub(crate) fn isclose(a: Val, d: Val, rtol: f64, atol: f64) -> bool {
        let within = Val::abs_diff(a, d).as_f64() <= atol + rtol * d.abs().as_f64();
        let finite =
            !d.is_nan() && !d.is_pos_inf() && !d.is_neg_inf() && d.abs().as_f64().is_finite();
        (within && finite) || Val::eq(a, d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_and_arithmetic() {
        let c = |re, im| Val::C(Complex::new(re, im));
        assert_eq!(
            Val::promote(Val::I(2), Val::F(1.5)),
            (Val::F(2.0), Val::F(1.5))
        );
        assert_eq!(
            Val::promote(Val::I(2), c(1.0, 1.0)),
            (c(2.0, 0.0), c(1.0, 1.0))
        );
        assert!(Val::eq(Val::F(0.0), Val::F(-0.0)));
        assert!(!Val::eq(Val::F(f64::NAN), Val::F(f64::NAN)));
        assert!(Val::eq(Val::I(3), Val::F(3.0)));
        // u64::MAX and -1 differ by exactly 2**64.
        assert_eq!(
            Val::abs_diff(Val::I(i128::from(u64::MAX)), Val::I(-1)),
            Mag::I(1 << 64)
        );
        assert!(Val::lt(c(1.0, 5.0), c(2.0, 0.0)));
        assert!(Val::lt(c(1.0, 0.0), c(1.0, 1.0)));
        assert!(!Val::lt(c(1.0, 1.0), c(1.0, 1.0)));
        assert!(c(f64::INFINITY, 0.0).is_pos_inf());
        assert!(!c(f64::INFINITY, 1.0).is_pos_inf());
        assert!(c(1.0, f64::NAN).is_nan());
        assert!(Val::isclose(Val::F(1.0 + 1e-8), Val::F(1.0), 1e-7, 0.0));
        assert!(!Val::isclose(Val::F(1.0 + 1e-6), Val::F(1.0), 1e-7, 0.0));
        assert!(Val::isclose(
            Val::F(f64::INFINITY),
            Val::F(f64::INFINITY),
            0.0,
            0.0
        ));
        assert!(!Val::isclose(
            Val::F(1e308),
            Val::F(f64::INFINITY),
            1.0,
            1.0
        ));
        assert!(Mag::F(1.0).max(Mag::F(f64::NAN)).as_f64().is_nan());
    }
}
