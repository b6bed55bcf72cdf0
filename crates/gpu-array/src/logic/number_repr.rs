//! Base-n representations of integers (NumPy's `binary_repr` and
//! `base_repr`): host string functions, as in NumPy and CuPy.

use crate::error::{Error, Result};

const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// The digits of `n` in `base` (2..=36), most significant first, no sign.
fn digits(mut n: u128, base: u32) -> String {
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % u128::from(base)) as usize]);
        n /= u128::from(base);
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

/// The binary representation of `num` (NumPy's `binary_repr`). Without
/// `width`, a negative number gets a minus sign; with `width`, its two's
/// complement in `width` bits (the sign bit repeated to fill), and a
/// positive number is zero-padded to `width`.
///
/// ```
/// use gpu_array::logic::binary_repr;
/// assert_eq!(binary_repr(5, None).unwrap(), "101");
/// assert_eq!(binary_repr(-5, None).unwrap(), "-101");
/// assert_eq!(binary_repr(-5, Some(8)).unwrap(), "11111011");
/// ```
///
/// # Errors
/// A `width` too narrow for the number ("Insufficient bit width=3 provided
/// for binwidth=4"), as NumPy (which deprecated, then made an error of, it).
pub fn binary_repr(num: impl Into<i128>, width: Option<usize>) -> Result<String> {
    let num = num.into();
    let insufficient = |binwidth: usize| -> Result<()> {
        match width {
            Some(w) if w < binwidth => Err(Error::Value(format!(
                "Insufficient bit width={w} provided for binwidth={binwidth}"
            ))),
            _ => Ok(()),
        }
    };
    if num == 0 {
        return Ok("0".repeat(width.unwrap_or(1).max(1)));
    }
    if num > 0 {
        let bin = digits(num as u128, 2);
        insufficient(bin.len())?;
        let w = width.unwrap_or(0).max(bin.len());
        return Ok(format!("{bin:0>w$}"));
    }
    let mag = num.unsigned_abs();
    let Some(width) = width else {
        return Ok(format!("-{}", digits(mag, 2)));
    };
    let mut poswidth = (128 - mag.leading_zeros()) as usize;
    // gh-8679: -2**(k-1) needs only k bits.
    if mag.is_power_of_two() {
        poswidth -= 1;
    }
    // 2**(poswidth + 1) - mag, without overflowing at poswidth = 127.
    let p = 1u128 << poswidth;
    let twocomp = (p - mag) + p;
    let bin = digits(twocomp, 2);
    insufficient(bin.len())?;
    let fill = width.max(bin.len()) - bin.len();
    Ok(format!("{}{bin}", "1".repeat(fill)))
}

/// `number` in `base` (2..=36, digits then capital letters) with
/// `padding` zeros in front and a minus sign for negatives (NumPy's
/// `base_repr`).
///
/// ```
/// use gpu_array::logic::base_repr;
/// assert_eq!(base_repr(-10, 16, 2).unwrap(), "-00A");
/// assert_eq!(base_repr(0, 2, 3).unwrap(), "000");
/// ```
///
/// # Errors
/// A base outside 2..=36 ("Bases greater than 36 not handled in
/// base_repr.", "Bases less than 2 not handled in base_repr.").
pub fn base_repr(number: impl Into<i128>, base: u32, padding: usize) -> Result<String> {
    if base > 36 {
        return Err(Error::Value(
            "Bases greater than 36 not handled in base_repr.".into(),
        ));
    }
    if base < 2 {
        return Err(Error::Value(
            "Bases less than 2 not handled in base_repr.".into(),
        ));
    }
    let number = number.into();
    let mag = number.unsigned_abs();
    // NumPy: the zeros of padding replace the lone "0" of zero.
    let body = if mag == 0 && padding > 0 {
        String::new()
    } else {
        digits(mag, base)
    };
    let sign = if number < 0 { "-" } else { "" };
    Ok(format!("{sign}{}{body}", "0".repeat(padding)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NumPy 2.4's outputs.
    #[test]
    fn binary_repr_as_numpy() {
        let cases: &[(i64, Option<usize>, &str)] = &[
            (0, None, "0"),
            (5, None, "101"),
            (-5, None, "-101"),
            (-8, None, "-1000"),
            (-1, None, "-1"),
            (-128, None, "-10000000"),
            (127, None, "1111111"),
            (0, Some(1), "0"),
            (-1, Some(1), "1"),
            (0, Some(3), "000"),
            (5, Some(3), "101"),
            (-1, Some(3), "111"),
            (0, Some(8), "00000000"),
            (5, Some(8), "00000101"),
            (-5, Some(8), "11111011"),
            (-8, Some(8), "11111000"),
            (-1, Some(8), "11111111"),
            (-128, Some(8), "10000000"),
            (127, Some(8), "01111111"),
        ];
        for &(n, w, want) in cases {
            assert_eq!(binary_repr(n, w).unwrap(), want, "{n} {w:?}");
        }
        for (n, w, msg) in [
            (5, 1, "Insufficient bit width=1 provided for binwidth=3"),
            (-5, 1, "Insufficient bit width=1 provided for binwidth=4"),
            (-8, 3, "Insufficient bit width=3 provided for binwidth=4"),
            (-128, 3, "Insufficient bit width=3 provided for binwidth=8"),
            (127, 3, "Insufficient bit width=3 provided for binwidth=7"),
        ] {
            assert_eq!(binary_repr(n, Some(w)).unwrap_err().to_string(), msg);
        }
        assert_eq!(
            binary_repr(i64::MIN, Some(64)).unwrap(),
            format!("1{}", "0".repeat(63))
        );
        assert_eq!(binary_repr(u64::MAX, None).unwrap(), "1".repeat(64));
        assert_eq!(
            binary_repr(i128::MIN, Some(128)).unwrap(),
            format!("1{}", "0".repeat(127))
        );
    }

    #[test]
    fn base_repr_as_numpy() {
        assert_eq!(base_repr(0, 2, 3).unwrap(), "000");
        assert_eq!(base_repr(0, 2, 0).unwrap(), "0");
        assert_eq!(base_repr(-10, 16, 2).unwrap(), "-00A");
        assert_eq!(base_repr(35, 36, 0).unwrap(), "Z");
        assert_eq!(base_repr(5, 2, 0).unwrap(), "101");
        assert_eq!(base_repr(6, 3, 1).unwrap(), "020");
        assert_eq!(base_repr(i64::MIN, 10, 0).unwrap(), i64::MIN.to_string());
        assert_eq!(
            base_repr(3, 37, 0).unwrap_err().to_string(),
            "Bases greater than 36 not handled in base_repr."
        );
        assert_eq!(
            base_repr(3, 1, 0).unwrap_err().to_string(),
            "Bases less than 2 not handled in base_repr."
        );
    }
}
