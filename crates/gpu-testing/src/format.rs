//! Text of failure reports: numbers as Python's `%g`, elements in the
//! shortest form of their own dtype, arrays as a NumPy-like `repr`.

use gpu_array::DType;
use half::{bf16, f16};

use crate::host::{HostArray, HostData};

/// Python's `format(x, f".{prec}g")`: `1e-07`, `0.001`, `33.3`, `100`.
pub(crate) fn fmt_g(x: f64, prec: usize) -> String {
    if let Some(s) = non_finite(x) {
        return s.to_owned();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let p = prec.max(1);
    let sci = format!("{:.*e}", p - 1, x);
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` writes an exponent");
    let exp: i32 = exp.parse().expect("`{:e}` writes an integer exponent");
    if exp < -4 || exp >= p as i32 {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip_zeros(mantissa), exp.abs())
    } else {
        strip_zeros(&format!("{:.*}", (p as i32 - 1 - exp) as usize, x)).to_owned()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn non_finite(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("nan")
    } else if x == f64::INFINITY {
        Some("inf")
    } else if x == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// `x` (a value of the real floating dtype `dtype`, widened) in the shortest
/// decimal form that reads back to the same `dtype` value: `0.1` for the
/// float32 nearest 0.1, not `0.10000000149011612`.
pub(crate) fn fmt_float(dtype: DType, x: f64) -> String {
    if let Some(s) = non_finite(x) {
        return s.to_owned();
    }
    match dtype {
        DType::Float16 => shortest(x, |p| f16::from_f64(p).to_f64()),
        DType::BFloat16 => shortest(x, |p| bf16::from_f64(p).to_f64()),
        DType::Float32 => format!("{:?}", x as f32),
        _ => format!("{x:?}"),
    }
}

fn shortest(x: f64, round: impl Fn(f64) -> f64) -> String {
    for digits in 1..17 {
        let p: f64 = format!("{:.*e}", digits - 1, x)
            .parse()
            .expect("`{:e}` output parses");
        if round(p) == x {
            // `p` has at most `digits` significant digits and no shorter
            // decimal reads back, so `{:?}` of `p` prints exactly those.
            return format!("{p:?}");
        }
    }
    format!("{x:?}")
}

/// A complex value as NumPy prints one: `1.0+2.0j`, `nan-1.5j`.
pub(crate) fn fmt_complex(dtype: DType, re: f64, im: f64) -> String {
    let real = dtype.real_dtype();
    let sign = if im.is_sign_negative() && !im.is_nan() {
        '-'
    } else {
        '+'
    };
    format!(
        "{}{sign}{}j",
        fmt_float(real, re),
        fmt_float(real, im.abs())
    )
}

/// Element `i` of `a`, in its dtype's shortest form.
pub(crate) fn fmt_element(a: &HostArray, i: usize) -> String {
    match &a.data {
        HostData::Bool(v) => if v[i] { "True" } else { "False" }.to_owned(),
        HostData::Int(v) => v[i].to_string(),
        HostData::UInt(v) => v[i].to_string(),
        HostData::Float(v) => fmt_float(a.dtype, v[i]),
        HostData::Complex(v) => fmt_complex(a.dtype, v[i].re, v[i].im),
    }
}

/// NumPy prints arrays above this many elements summarised.
const THRESHOLD: usize = 1000;
/// Elements kept at each end of a summarised axis.
const EDGE_ITEMS: usize = 3;
/// NumPy's default line width.
const LINE_WIDTH: usize = 75;

/// A NumPy-like `repr`: `array([1.0, 2.0], dtype=float32)`, wrapped at 75
/// columns and summarised (`...`) above 1000 elements; `max_lines` lines at
/// most, the last ending in `...` when cut, as `numpy.testing` does.
pub(crate) fn fmt_array(a: &HostArray, max_lines: usize) -> String {
    let summarise = a.size() > THRESHOLD;
    let mut body = String::new();
    if a.shape.is_empty() {
        body = fmt_element(a, 0);
    } else if a.size() == 0 {
        // NumPy: `array([], shape=(0, 2), dtype=float64)`.
        body.push_str("[]");
        if a.ndim() > 1 {
            let dims: Vec<String> = a.shape.iter().map(ToString::to_string).collect();
            body.push_str(&format!(", shape=({})", dims.join(", ")));
        }
    } else {
        let prefix = "array(";
        write_axis(a, 0, 0, prefix.len(), summarise, &mut body);
    }
    // NumPy names the dtype unless the repr's values imply it.
    let implied = matches!(
        a.dtype,
        DType::Bool | DType::Int64 | DType::Float64 | DType::Complex128
    );
    let mut out = if implied && a.size() > 0 {
        format!("array({body})")
    } else {
        format!("array({body}, dtype={})", a.dtype)
    };
    let lines: Vec<&str> = out.lines().collect();
    if lines.len() > max_lines {
        out = lines[..max_lines].join("\n");
        out.push_str("...");
    }
    out
}

/// Appends axis `axis` of `a`, starting at C-order element `offset`, with
/// continuation lines indented to `indent` columns.
fn write_axis(
    a: &HostArray,
    axis: usize,
    offset: usize,
    indent: usize,
    summarise: bool,
    out: &mut String,
) {
    let n = a.shape[axis];
    let inner: usize = a.shape[axis + 1..].iter().product();
    let shown: Vec<Option<usize>> = if summarise && n > 2 * EDGE_ITEMS {
        (0..EDGE_ITEMS)
            .map(Some)
            .chain([None])
            .chain((n - EDGE_ITEMS..n).map(Some))
            .collect()
    } else {
        (0..n).map(Some).collect()
    };
    out.push('[');
    let last_axis = axis + 1 == a.ndim();
    let mut column = indent + axis + 1;
    for (k, item) in shown.iter().enumerate() {
        if last_axis {
            let text = item.map_or_else(|| "...".to_owned(), |j| fmt_element(a, offset + j));
            if k > 0 {
                out.push(',');
                column += 1;
                if column + 1 + text.len() + 1 > LINE_WIDTH {
                    out.push('\n');
                    out.push_str(&" ".repeat(indent + axis + 1));
                    column = indent + axis + 1;
                } else {
                    out.push(' ');
                    column += 1;
                }
            }
            column += text.len();
            out.push_str(&text);
        } else {
            if k > 0 {
                out.push(',');
                // One blank line between blocks of 3-d and higher, as NumPy.
                out.push_str(&"\n".repeat(a.ndim() - axis - 1));
                out.push_str(&" ".repeat(indent + axis + 1));
            }
            match item {
                Some(j) => write_axis(a, axis + 1, offset + j * inner, indent, summarise, out),
                None => out.push_str("..."),
            }
        }
    }
    out.push(']');
}

/// A C-order linear index as a multi-index: `[1, 2]`.
pub(crate) fn fmt_index(shape: &[usize], mut linear: usize) -> String {
    let mut index = vec![0usize; shape.len()];
    for (k, &d) in shape.iter().enumerate().rev() {
        index[k] = linear % d;
        linear /= d;
    }
    let parts: Vec<String> = index.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn g_format_matches_python() {
        let cases = [
            (1e-7, 6, "1e-07"),
            (0.0, 6, "0"),
            (1e-5, 6, "1e-05"),
            (0.001, 6, "0.001"),
            (1e-4, 6, "0.0001"),
            (100.0 / 3.0, 3, "33.3"),
            (100.0, 3, "100"),
            (30.0, 3, "30"),
            (99.96, 3, "100"),
            (1.0 / 30.0, 3, "0.0333"),
            (1234567.0, 6, "1.23457e+06"),
            (2.5, 6, "2.5"),
            (-1.5e300, 6, "-1.5e+300"),
            (f64::NAN, 6, "nan"),
            (f64::NEG_INFINITY, 6, "-inf"),
        ];
        for (x, p, want) in cases {
            assert_eq!(fmt_g(x, p), want, "{x} .{p}g");
        }
    }

    #[test]
    fn floats_print_in_their_own_dtype() {
        assert_eq!(fmt_float(DType::Float32, f64::from(0.1f32)), "0.1");
        assert_eq!(
            fmt_float(DType::Float64, f64::from(0.1f32)),
            "0.10000000149011612"
        );
        assert_eq!(
            fmt_float(DType::Float16, f16::from_f32(0.1).to_f64()),
            "0.1"
        );
        assert_eq!(
            fmt_float(DType::BFloat16, bf16::from_f32(0.3).to_f64()),
            "0.3"
        );
        assert_eq!(fmt_float(DType::Float16, 65504.0), "65500.0");
        assert_eq!(fmt_float(DType::Float64, -0.0), "-0.0");
        assert_eq!(fmt_float(DType::Float32, f64::INFINITY), "inf");
        assert_eq!(fmt_complex(DType::Complex64, 1.0, -2.0), "1.0-2.0j");
        assert_eq!(
            fmt_complex(DType::Complex128, f64::NAN, f64::NAN),
            "nan+nanj"
        );
    }

    #[test]
    fn arrays_print_like_numpy() {
        let a = HostArray::from_elements(vec![2, 2], [1i64, 2, 3, 4]).unwrap();
        assert_eq!(fmt_array(&a, 3), "array([[1, 2],\n       [3, 4]])");
        let a = HostArray::from_elements(vec![2], [true, false]).unwrap();
        assert_eq!(fmt_array(&a, 3), "array([True, False])");
        let a = HostArray::from_elements(vec![3], [1.5f32, f32::NAN, -0.0]).unwrap();
        assert_eq!(fmt_array(&a, 3), "array([1.5, nan, -0.0], dtype=float32)");
        let a = HostArray::from_elements(Vec::new(), [7i8]).unwrap();
        assert_eq!(fmt_array(&a, 3), "array(7, dtype=int8)");
        let a = HostArray::from_elements(vec![0, 2], Vec::<f64>::new()).unwrap();
        assert_eq!(fmt_array(&a, 3), "array([], shape=(0, 2), dtype=float64)");
        let a = HostArray::from_elements(vec![0], Vec::<bool>::new()).unwrap();
        assert_eq!(fmt_array(&a, 3), "array([], dtype=bool)");
        let a = HostArray::from_elements(vec![2000], (0..2000).map(|i| i as u16)).unwrap();
        assert_eq!(
            fmt_array(&a, 3),
            "array([0, 1, 2, ..., 1997, 1998, 1999], dtype=uint16)"
        );
        // Long rows wrap at 75 columns and the report keeps three lines.
        let a = HostArray::from_elements(vec![100], (0..100).map(f64::from)).unwrap();
        let text = fmt_array(&a, 3);
        assert_eq!(text.lines().count(), 3);
        assert!(text.lines().all(|l| l.len() <= LINE_WIDTH + 3), "{text}");
        assert!(text.ends_with("..."), "{text}");
        let a = HostArray::from_elements(vec![2, 1, 2], [1u8, 2, 3, 4]).unwrap();
        assert_eq!(
            fmt_array(&a, 9),
            "array([[[1, 2]],\n\n       [[3, 4]]], dtype=uint8)"
        );
    }

    #[test]
    fn indices() {
        assert_eq!(fmt_index(&[3, 4], 6), "[1, 2]");
        assert_eq!(fmt_index(&[5], 4), "[4]");
        assert_eq!(fmt_index(&[], 0), "[]");
    }
}
