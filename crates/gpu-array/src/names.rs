//! NumPy's string options as Rust enums: every enum that stands for a
//! string keyword (`mode='reflect'`, `side='left'`, `order='K'`) also
//! parses from NumPy's spelling with [`FromStr`](std::str::FromStr), and an
//! unknown spelling fails with NumPy's message for it.
//!
//! [`from_numpy_str!`](crate::from_numpy_str) writes the one shape all of
//! these impls share; this module holds the messages that several options
//! share (NumPy's C converters for `order`, `side` and `mode`).

use crate::error::Error;

/// Implements [`FromStr`](std::str::FromStr) for an enum from a table of
/// NumPy's spellings: `type, error type, [key: |s| normalised,] else: |s|
/// error, { "name" => value, ... }`. `key` (default: the string itself)
/// is what the names are matched against, for options that NumPy reads
/// without regard to case.
///
/// ```
/// # use gpu_array::{Error, from_numpy_str};
/// #[derive(Debug, PartialEq)]
/// enum Uplo { L, U }
/// from_numpy_str! {
///     Uplo, Error,
///     key: |s| s.to_ascii_uppercase(),
///     else: |_s| Error::Value("UPLO argument must be 'L' or 'U'".into()),
///     { "L" => Uplo::L, "U" => Uplo::U }
/// }
/// assert_eq!("u".parse::<Uplo>().unwrap(), Uplo::U);
/// ```
#[macro_export]
macro_rules! from_numpy_str {
    (
        $ty:ty, $err_ty:ty,
        key: |$k:ident| $key:expr,
        else: |$s:ident| $err:expr,
        { $($name:literal => $value:expr),+ $(,)? }
    ) => {
        impl ::core::str::FromStr for $ty {
            type Err = $err_ty;

            fn from_str($s: &str) -> ::core::result::Result<$ty, $err_ty> {
                let $k = $s;
                match &*$key {
                    $($name => ::core::result::Result::Ok($value),)+
                    _ => ::core::result::Result::Err($err),
                }
            }
        }
    };
    (
        $ty:ty, $err_ty:ty,
        else: |$s:ident| $err:expr,
        { $($name:literal => $value:expr),+ $(,)? }
    ) => {
        $crate::from_numpy_str! {
            $ty, $err_ty, key: |k| k, else: |$s| $err, { $($name => $value),+ }
        }
    };
}

/// The error of NumPy's `order=` converter for `s`, which is not one of
/// the letters the option takes: `narrower` for another of the letters
/// `CFAK` (in either case), NumPy's list of the four for anything else.
pub(crate) fn order_error(s: &str, narrower: &str) -> Error {
    let mut chars = s.chars();
    match (chars.next().map(|c| c.to_ascii_uppercase()), chars.next()) {
        (Some('C' | 'F' | 'A' | 'K'), None) => Error::Value(narrower.to_owned()),
        _ => Error::Value(format!(
            "order must be one of 'C', 'F', 'A', or 'K' (got '{s}')"
        )),
    }
}

/// The error of NumPy's converters of `side=` and `mode=` (clip mode) for
/// a string that is none of `names`: one that starts as a name does
/// (NumPy once accepted any such string) gets `near`, any other `far`
/// followed by ` (got 's')`.
pub(crate) fn keyword_error(s: &str, names: &[&str], near: &str, far: &str) -> Error {
    let first = s.chars().next().map(|c| c.to_ascii_lowercase());
    let starts_as_one = names.iter().any(|n| n.chars().next() == first);
    Error::Value(if starts_as_one {
        near.to_owned()
    } else {
        format!("{far} (got '{s}')")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_errors() {
        assert_eq!(order_error("k", "no K").to_string(), "no K");
        for bad in ["", "CC", "C ", "X"] {
            assert_eq!(
                order_error(bad, "no").to_string(),
                format!("order must be one of 'C', 'F', 'A', or 'K' (got '{bad}')")
            );
        }
    }

    /// Each option's names, and NumPy 2.4's message for a wrong one.
    #[test]
    fn every_option_parses_numpy_names() {
        use crate::dtype::{Casting, ScalarValue};
        use crate::indexing::{ClipMode, TakeMode};
        use crate::layout::{CopyOrder, Order};
        use crate::logic::BitOrder;
        use crate::manipulation::{PadMode, ReflectType};
        use crate::math::Mode;
        use crate::sorting::{IsinKind, QuantileMethod, Side};
        fn err<T: std::str::FromStr<Err = Error> + std::fmt::Debug>(s: &str) -> String {
            s.parse::<T>().unwrap_err().to_string()
        }
        assert_eq!("reflect".parse::<PadMode>().unwrap(), PadMode::Reflect);
        assert_eq!(
            "constant".parse::<PadMode>().unwrap(),
            PadMode::Constant(ScalarValue::Int(0))
        );
        assert_eq!(
            "linear_ramp".parse::<PadMode>().unwrap(),
            PadMode::LinearRamp(ScalarValue::Int(0))
        );
        for m in [
            "edge",
            "wrap",
            "symmetric",
            "maximum",
            "minimum",
            "mean",
            "median",
        ] {
            assert_eq!(m.parse::<PadMode>().unwrap().name(), m);
        }
        assert_eq!(err::<PadMode>("foo"), "mode 'foo' is not supported");
        assert_eq!(err::<PadMode>("Reflect"), "mode 'Reflect' is not supported");
        assert!(matches!(
            "empty".parse::<PadMode>(),
            Err(Error::Unsupported(_))
        ));
        assert_eq!("odd".parse::<ReflectType>().unwrap(), ReflectType::Odd);
        assert!("foo".parse::<ReflectType>().is_err());

        assert_eq!("valid".parse::<Mode>().unwrap(), Mode::Valid);
        assert_eq!(
            err::<Mode>("FULL"),
            "Use one of 'valid', 'same', or 'full' for convolve/correlate mode"
        );

        assert_eq!("right".parse::<Side>().unwrap(), Side::Right);
        assert_eq!(
            err::<Side>("foo"),
            "search side must be 'left' or 'right' (got 'foo')"
        );
        assert_eq!(
            err::<Side>("L"),
            "search side must be one of 'left' or 'right'"
        );
        assert_eq!(
            err::<Side>("RIGHT"),
            "search side must be one of 'left' or 'right'"
        );

        assert_eq!(
            "median_unbiased".parse::<QuantileMethod>().unwrap(),
            QuantileMethod::MedianUnbiased
        );
        assert_eq!(
            err::<QuantileMethod>("Linear"),
            "'Linear' is not a valid method. Use one of: dict_keys(['inverted_cdf', \
             'averaged_inverted_cdf', 'closest_observation', 'interpolated_inverted_cdf', \
             'hazen', 'weibull', 'linear', 'median_unbiased', 'normal_unbiased', 'lower', \
             'higher', 'midpoint', 'nearest'])"
        );

        assert_eq!("little".parse::<BitOrder>().unwrap(), BitOrder::Little);
        assert_eq!(
            err::<BitOrder>("BIG"),
            "'order' must be either 'little' or 'big'"
        );

        assert_eq!("clip".parse::<ClipMode>().unwrap(), ClipMode::Clip);
        assert_eq!("raise".parse::<ClipMode>().unwrap(), ClipMode::Raise);
        assert_eq!(
            err::<ClipMode>("foo"),
            "clipmode must be one of 'clip', 'raise', or 'wrap' (got 'foo')"
        );
        assert_eq!(
            err::<ClipMode>("RAISE"),
            "Use one of 'clip', 'raise', or 'wrap' for clip mode"
        );
        assert_eq!("wrap".parse::<TakeMode>().unwrap(), TakeMode::Wrap);
        assert_eq!(
            err::<TakeMode>("c"),
            "Use one of 'clip', 'raise', or 'wrap' for clip mode"
        );
        assert!(matches!(
            "raise".parse::<TakeMode>(),
            Err(Error::Unsupported(_))
        ));

        assert_eq!("f".parse::<Order>().unwrap(), Order::F);
        assert_eq!(err::<Order>("K"), "only 'C' or 'F' order is permitted");
        assert_eq!(
            err::<Order>("X"),
            "order must be one of 'C', 'F', 'A', or 'K' (got 'X')"
        );
        assert_eq!("k".parse::<CopyOrder>().unwrap(), CopyOrder::K);
        assert_eq!("A".parse::<CopyOrder>().unwrap(), CopyOrder::A);
        assert_eq!(
            err::<CopyOrder>("CC"),
            "order must be one of 'C', 'F', 'A', or 'K' (got 'CC')"
        );

        assert_eq!("table".parse::<IsinKind>().unwrap(), IsinKind::Table);
        assert_eq!(
            err::<IsinKind>("foo"),
            "Invalid kind: 'foo'. Please use None, 'sort' or 'table'."
        );

        assert_eq!("same_kind".parse::<Casting>().unwrap(), Casting::SameKind);
        assert_eq!(
            err::<Casting>("SAFE"),
            "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got 'SAFE')"
        );
        assert!(matches!(
            "same_value".parse::<Casting>(),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn keyword_errors() {
        let e = |s| keyword_error(s, &["left", "right"], "near", "far").to_string();
        assert_eq!(e("L"), "near");
        assert_eq!(e("rightx"), "near");
        assert_eq!(e("xyz"), "far (got 'xyz')");
        assert_eq!(e(""), "far (got '')");
    }
}
