//! Float digits as NumPy's Dragon4 writes them, and NumPy's
//! `FloatingFormat`: one format shared by all the elements of an array
//! (positional or scientific, common padding), chosen from the displayed
//! values.
//!
//! Digits come from the exact binary value of each element in its own
//! dtype: the shortest decimal that reads back to the same value (NumPy's
//! `unique=True`), cut at `precision` digits with exact round-half-even
//! rounding. `f64` and `f32` use Rust's shortest formatting; `float16` and
//! `bfloat16` search the shortest round trip through their own rounding.

use half::{bf16, f16};

use super::PrintOptions;

/// The binary format of a float value (digits depend on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FloatTy {
    F16,
    BF16,
    F32,
    F64,
}

impl FloatTy {
    /// `finfo(dtype).precision` (bfloat16: `ml_dtypes.finfo`'s 2).
    fn decimal_precision(self) -> i32 {
        match self {
            FloatTy::F16 => 3,
            FloatTy::BF16 => 2,
            FloatTy::F32 => 6,
            FloatTy::F64 => 15,
        }
    }

    /// `x` rounded to this type (round half to even), back in `f64`.
    pub(crate) fn round(self, x: f64) -> f64 {
        match self {
            FloatTy::F16 => f16::from_f64(x).to_f64(),
            FloatTy::BF16 => bf16::from_f64(x).to_f64(),
            FloatTy::F32 => x as f32 as f64,
            FloatTy::F64 => x,
        }
    }

    /// `a / b` computed as NumPy computes it for this type (half types
    /// divide in `f32` and round).
    fn div(self, a: f64, b: f64) -> f64 {
        match self {
            FloatTy::F64 => a / b,
            FloatTy::F32 => (a as f32 / b as f32) as f64,
            FloatTy::F16 | FloatTy::BF16 => self.round((a as f32 / b as f32) as f64),
        }
    }

    /// Where the `str` of a scalar switches to scientific notation (NumPy 2:
    /// `1e16` for float64, `10**precision` for the narrower types).
    fn scalar_sci_cutoff(self) -> f64 {
        match self {
            FloatTy::F64 => 1e16,
            t => 10f64.powi(t.decimal_precision()),
        }
    }
}

/// Decimal digits `d1 d2 ...` (no leading zero) and the exponent `e` of
/// `d1.d2... * 10^e`.
#[derive(Debug, PartialEq, Eq)]
struct Digits {
    digits: String,
    exp: i32,
}

/// Splits Rust's `{:e}` output (`"1.25e-3"`) into digits and exponent.
fn split_exp(s: &str) -> Digits {
    let (m, e) = s.split_once('e').expect("`{:e}` writes an exponent");
    Digits {
        digits: m.chars().filter(char::is_ascii_digit).collect(),
        exp: e.parse().expect("`{:e}` writes an integer exponent"),
    }
}

/// The shortest digits that read back to `x` (finite, positive) in `ty`.
fn shortest(x: f64, ty: FloatTy) -> Digits {
    let d = match ty {
        FloatTy::F64 => split_exp(&format!("{x:e}")),
        FloatTy::F32 => split_exp(&format!("{:e}", x as f32)),
        FloatTy::F16 | FloatTy::BF16 => shortest_narrow(x, ty),
    };
    // When `x` lies exactly halfway between the two shortest candidates,
    // Dragon4 takes the even one; Rust's shortest formatting rounds up.
    if is_tie(x, d.digits.len()) {
        let e = exact(x);
        let (digits, exp) = round_half_even(&e.digits, e.exp, d.digits.len() as i64);
        let t = digits.trim_end_matches('0').len().max(1);
        return Digits {
            digits: digits[..t].to_owned(),
            exp,
        };
    }
    d
}

/// Whether `x` is exactly `keep + 1` significant digits ending in 5, the
/// only case where rounding to `keep` digits is a tie.
fn is_tie(x: f64, keep: usize) -> bool {
    let s = format!("{x:.keep$e}");
    let (m, _) = s.split_once('e').expect("`{:e}` writes an exponent");
    m.ends_with('5') && s.parse::<f64>() == Ok(x)
}

/// Shortest round trip for the half types: for each digit count, the
/// nearest decimal and its two neighbours are tried; of those that read
/// back to `x`, the closest wins (Dragon4's choice).
fn shortest_narrow(x: f64, ty: FloatTy) -> Digits {
    for k in 1..=17usize {
        let near = split_exp(&format!("{:.*e}", k - 1, x));
        let d: u64 = near.digits.parse().expect("digits");
        let scale = near.exp - (k as i32 - 1);
        let mut best: Option<(f64, u64)> = None;
        for cand in [d.saturating_sub(1), d, d + 1] {
            if cand == 0 {
                continue;
            }
            let v: f64 = format!("{cand}e{scale}").parse().expect("decimal");
            if ty.round(v) == x {
                let dist = (v - x).abs();
                if best.is_none_or(|(bd, _)| dist < bd) {
                    best = Some((dist, cand));
                }
            }
        }
        if let Some((_, cand)) = best {
            let s = cand.to_string();
            let exp = scale + s.len() as i32 - 1;
            let digits = s.trim_end_matches('0');
            let digits = if digits.is_empty() { "0" } else { digits };
            return Digits {
                digits: digits.to_owned(),
                exp,
            };
        }
    }
    split_exp(&format!("{x:e}"))
}

/// The exact decimal expansion of `x` (finite, positive; every binary
/// float has one), trailing zeros dropped.
fn exact(x: f64) -> Digits {
    // 767 significant digits suffice for any f64.
    let mut d = split_exp(&format!("{x:.800e}"));
    let t = d.digits.trim_end_matches('0').len().max(1);
    d.digits.truncate(t);
    d
}

/// Rounds `digits * 10^exp` (`d1.d2...`) to `keep` significant digits,
/// half to even as Dragon4 does (Rust's formatting rounds half up). An
/// empty result means zero.
fn round_half_even(digits: &str, exp: i32, keep: i64) -> (String, i32) {
    let b = digits.as_bytes();
    if keep < 0 {
        return (String::new(), exp);
    }
    let k = keep as usize;
    if b.len() <= k {
        return (format!("{digits:0<k$}"), exp);
    }
    let rest_nonzero = b[k + 1..].iter().any(|&c| c != b'0');
    let last_odd = k > 0 && (b[k - 1] - b'0') % 2 == 1;
    let up = b[k] > b'5' || (b[k] == b'5' && (rest_nonzero || last_odd));
    let mut out = b[..k].to_vec();
    if up {
        let mut i = k;
        loop {
            if i == 0 {
                // All nines: 99.9 -> 100, one more power of ten.
                out.insert(0, b'1');
                out.truncate(k.max(1));
                return (String::from_utf8(out).expect("ascii"), exp + 1);
            }
            i -= 1;
            if out[i] == b'9' {
                out[i] = b'0';
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    if out.is_empty() {
        return (String::new(), exp);
    }
    (String::from_utf8(out).expect("ascii"), exp)
}

/// Integer part and fractional digits of `digits * 10^exp`.
fn positional_from(digits: &str, exp: i32) -> (String, String) {
    if exp >= 0 {
        let e = exp as usize;
        if digits.len() > e + 1 {
            (digits[..=e].to_owned(), digits[e + 1..].to_owned())
        } else {
            (format!("{digits:0<width$}", width = e + 1), String::new())
        }
    } else {
        let zeros = "0".repeat((-exp - 1) as usize);
        ("0".to_owned(), format!("{zeros}{digits}"))
    }
}

/// `|x|` in positional notation: integer part and fractional digits, with
/// unique digits cut at `precision` fractional digits and extended to
/// `min_digits` (Dragon4 positional, `fractional=True`), untrimmed.
fn positional_parts(ax: f64, ty: FloatTy, precision: usize, min_digits: usize) -> (String, String) {
    let from_exact = |p: usize| {
        // A tie needs exactly p + 1 fractional digits, the last a 5.
        let keep = split_exp(&format!("{ax:e}")).exp as i64 + 1 + p as i64;
        if keep < 0 || !is_tie(ax, keep as usize) {
            let s = format!("{ax:.p$}");
            return match s.split_once('.') {
                Some((i, f)) => (i.to_owned(), f.to_owned()),
                None => (s, String::new()),
            };
        }
        let d = exact(ax);
        let (rd, re) = round_half_even(&d.digits, d.exp, d.exp as i64 + 1 + p as i64);
        if rd.is_empty() {
            return ("0".to_owned(), "0".repeat(p));
        }
        let (i, f) = positional_from(&rd, re);
        (i, format!("{f:0<p$}"))
    };
    if ax == 0.0 {
        return ("0".to_owned(), "0".repeat(min_digits));
    }
    let Digits { digits, exp } = shortest(ax, ty);
    let nfrac = (digits.len() as i32 - 1 - exp).max(0) as usize;
    if nfrac > precision {
        return from_exact(precision);
    }
    if nfrac < min_digits {
        return from_exact(min_digits);
    }
    positional_from(&digits, exp)
}

/// `|x|` in scientific notation: first digit, fractional digits (cut at
/// `precision`, extended to `min_digits`), exponent (Dragon4 scientific).
fn scientific_parts(
    ax: f64,
    ty: FloatTy,
    precision: usize,
    min_digits: usize,
) -> (String, String, i32) {
    let from_exact = |p: usize| {
        if !is_tie(ax, p + 1) {
            let d = split_exp(&format!("{ax:.p$e}"));
            return (d.digits[..1].to_owned(), d.digits[1..].to_owned(), d.exp);
        }
        let d = exact(ax);
        let (rd, re) = round_half_even(&d.digits, d.exp, p as i64 + 1);
        (rd[..1].to_owned(), rd[1..].to_owned(), re)
    };
    if ax == 0.0 {
        return ("0".to_owned(), "0".repeat(min_digits), 0);
    }
    let d = shortest(ax, ty);
    let nfrac = d.digits.len() - 1;
    if nfrac > precision {
        return from_exact(precision);
    }
    if nfrac < min_digits {
        return from_exact(min_digits);
    }
    (d.digits[..1].to_owned(), d.digits[1..].to_owned(), d.exp)
}

fn sign_str(x: f64, plus: bool) -> &'static str {
    if x.is_sign_negative() {
        "-"
    } else if plus {
        "+"
    } else {
        ""
    }
}

fn exp_str(exp: i32, digits: usize) -> String {
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{sign}{:0>digits$}", exp.unsigned_abs())
}

/// NumPy's `FloatingFormat` with `floatmode='maxprec'` (the default).
#[derive(Debug, Clone)]
pub(crate) struct FloatFormat {
    ty: FloatTy,
    /// Cut-off for positional digits; the common digit count in
    /// scientific mode.
    precision: usize,
    sign_plus: bool,
    exp_format: bool,
    pad_left: usize,
    pad_right: usize,
    exp_size: usize,
}

impl FloatFormat {
    /// The format for `values` (the displayed elements), as NumPy's
    /// `FloatingFormat.fillFormat`; `sign_plus` writes `+` on positive
    /// values (imaginary parts).
    pub(crate) fn new(
        values: &[f64],
        ty: FloatTy,
        opts: &PrintOptions,
        sign_plus: bool,
    ) -> FloatFormat {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let mut exp_format = false;
        let nonzero = finite.iter().map(|v| v.abs()).filter(|&v| v != 0.0);
        let (mut max, mut min) = (f64::NEG_INFINITY, f64::INFINITY);
        for v in nonzero {
            max = max.max(v);
            min = min.min(v);
        }
        if max.is_finite() {
            // NumPy compares in the array's dtype (NEP 50: the Python
            // float constants are cast to it).
            let cutoff = ty.round(10f64.powi(ty.decimal_precision().min(8)));
            exp_format = max >= cutoff
                || (!opts.suppress
                    && (min < ty.round(1e-4) || ty.div(max, min) > ty.round(1000.0)));
        }
        let mut f = FloatFormat {
            ty,
            precision: opts.precision,
            sign_plus,
            exp_format,
            pad_left: 0,
            pad_right: 0,
            exp_size: 0,
        };
        if finite.is_empty() {
            // Only non-finite values: the padding below decides.
        } else if exp_format {
            let (mut pl, mut prec, mut es) = (0, 0, 0);
            for &v in &finite {
                let (i, frac, e) = scientific_parts(v.abs(), ty, opts.precision, 0);
                let frac = frac.trim_end_matches('0');
                pl = pl.max(sign_str(v, sign_plus).len() + i.len());
                prec = prec.max(frac.len());
                es = es.max(exp_str(e, 2).len() - 1);
            }
            f.pad_left = pl;
            f.precision = prec;
            f.exp_size = es;
            f.pad_right = es + 2 + prec;
        } else {
            let (mut pl, mut pr) = (0, 0);
            for &v in &finite {
                let (i, frac) = positional_parts(v.abs(), ty, opts.precision, 0);
                pl = pl.max(sign_str(v, sign_plus).len() + i.len());
                pr = pr.max(frac.trim_end_matches('0').len());
            }
            f.pad_left = pl;
            f.pad_right = pr;
        }
        if finite.len() != values.len() {
            let neginf = sign_plus || values.contains(&f64::NEG_INFINITY);
            let offset = f.pad_right + 1;
            let need = |len: usize| len.saturating_sub(offset);
            f.pad_left = f.pad_left.max(need(3)).max(need(3 + neginf as usize));
        }
        f
    }

    /// One element, padded to the common width.
    pub(crate) fn format(&self, x: f64) -> String {
        if !x.is_finite() {
            let ret = if x.is_nan() {
                format!("{}nan", if self.sign_plus { "+" } else { "" })
            } else {
                let s = if x < 0.0 {
                    "-"
                } else if self.sign_plus {
                    "+"
                } else {
                    ""
                };
                format!("{s}inf")
            };
            let width = self.pad_left + self.pad_right + 1;
            return format!("{ret:>width$}");
        }
        let sign = sign_str(x, self.sign_plus);
        if self.exp_format {
            let (i, frac, e) = scientific_parts(x.abs(), self.ty, self.precision, self.precision);
            let int = format!("{sign}{i}");
            format!(
                "{int:>pl$}.{frac}e{}",
                exp_str(e, self.exp_size),
                pl = self.pad_left
            )
        } else {
            let (i, frac) = positional_parts(x.abs(), self.ty, self.precision, 0);
            let frac = frac.trim_end_matches('0');
            let int = format!("{sign}{i}");
            format!(
                "{int:>pl$}.{frac:<pr$}",
                pl = self.pad_left,
                pr = self.pad_right
            )
        }
    }
}

/// The `str` of a float scalar as NumPy 2 writes it (Python's `repr`
/// style): positional between `1e-4` and the type's cutoff, with `.0` on
/// integral values unless `bare` (complex parts), else scientific.
pub(crate) fn scalar_str(x: f64, ty: FloatTy, bare: bool) -> String {
    if x.is_nan() {
        return "nan".to_owned();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_owned();
    }
    let sign = sign_str(x, false);
    let ax = x.abs();
    if ax == 0.0 || (ax >= 1e-4 && ax < ty.scalar_sci_cutoff()) {
        let (i, frac) = positional_parts(ax, ty, usize::MAX, 0);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            if bare {
                format!("{sign}{i}")
            } else {
                format!("{sign}{i}.0")
            }
        } else {
            format!("{sign}{i}.{frac}")
        }
    } else {
        let (i, frac, e) = scientific_parts(ax, ty, usize::MAX, 0);
        let frac = frac.trim_end_matches('0');
        let dot = if frac.is_empty() { "" } else { "." };
        format!("{sign}{i}{dot}{frac}e{}", exp_str(e, 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_digits_per_type() {
        let d = |x: f64, t| {
            let s = shortest(x, t);
            (s.digits, s.exp)
        };
        assert_eq!(d(0.1, FloatTy::F64), ("1".into(), -1));
        assert_eq!(d(0.1f32 as f64, FloatTy::F32), ("1".into(), -1));
        assert_eq!(
            d(f16::from_f32(0.1).to_f64(), FloatTy::F16),
            ("1".into(), -1)
        );
        assert_eq!(
            d(f16::from_f32(std::f32::consts::PI).to_f64(), FloatTy::F16),
            ("314".into(), 0)
        );
        assert_eq!(d(f16::MAX.to_f64(), FloatTy::F16), ("655".into(), 4));
        assert_eq!(
            d(bf16::from_f32(0.1).to_f64(), FloatTy::BF16),
            ("1".into(), -1)
        );
        assert_eq!(d(1234.5, FloatTy::F64), ("12345".into(), 3));
    }

    #[test]
    fn positional_and_scientific_parts() {
        assert_eq!(
            positional_parts(1.0 / 3.0, FloatTy::F64, 8, 0),
            ("0".into(), "33333333".into())
        );
        assert_eq!(
            positional_parts(1500.0, FloatTy::F64, 8, 0),
            ("1500".into(), "".into())
        );
        assert_eq!(
            positional_parts(0.00012, FloatTy::F64, 8, 0),
            ("0".into(), "00012".into())
        );
        assert_eq!(
            scientific_parts(0.1f32 as f64, FloatTy::F32, 3, 3),
            ("1".into(), "000".into(), -1)
        );
        assert_eq!(
            scientific_parts(9.99, FloatTy::F64, 0, 0),
            ("1".into(), "".into(), 1)
        );
    }

    #[test]
    fn exact_digits_round_half_to_even() {
        let d = exact(5e-324);
        assert_eq!(d.exp, -324);
        assert_eq!(d.digits.len(), 751);
        assert!(d.digits.starts_with("49406564584124654"));
        assert_eq!(round_half_even("125", 0, 2), ("12".into(), 0));
        assert_eq!(round_half_even("135", 0, 2), ("14".into(), 0));
        assert_eq!(round_half_even("1251", 0, 2), ("13".into(), 0));
        assert_eq!(round_half_even("999", 2, 2), ("10".into(), 3));
        assert_eq!(round_half_even("5", -3, 0), ("".into(), -3));
        assert_eq!(round_half_even("51", -3, 0), ("1".into(), -2));
        // -133555.125f32 at 2 decimals: NumPy prints -133555.12.
        assert_eq!(
            positional_parts(133555.125, FloatTy::F32, 2, 0),
            ("133555".into(), "12".into())
        );
        assert_eq!(
            scientific_parts(3182166.25, FloatTy::F32, 7, 7),
            ("3".into(), "1821662".into(), 6)
        );
    }

    #[test]
    fn scalar_strings() {
        let s = |x: f64, t| scalar_str(x, t, false);
        assert_eq!(s(1.0, FloatTy::F64), "1.0");
        assert_eq!(s(1e16, FloatTy::F64), "1e+16");
        assert_eq!(s(1e15, FloatTy::F64), "1000000000000000.0");
        assert_eq!(s(1.5e-7, FloatTy::F64), "1.5e-07");
        assert_eq!(s(1e-4f32 as f64, FloatTy::F32), "1e-04");
        assert_eq!(s(1e6, FloatTy::F32), "1e+06");
        assert_eq!(s(123456789.0f32 as f64, FloatTy::F32), "1.2345679e+08");
        assert_eq!(s(f16::from_f32(1e-4).to_f64(), FloatTy::F16), "0.0001");
        assert_eq!(s(1000.0, FloatTy::F16), "1e+03");
        assert_eq!(s(-0.0, FloatTy::F64), "-0.0");
        assert_eq!(s(f64::NEG_INFINITY, FloatTy::F64), "-inf");
    }
}
