//! NumPy's `array2string` on host data: element formats chosen from the
//! displayed elements, the nested brackets with line wrapping and `...`
//! summaries, and the `repr`/`str` wrappers around them.

use half::{bf16, f16};

use super::PrintOptions;
use super::float::{FloatFormat, FloatTy, scalar_str};
use crate::dtype::DType;

/// The displayed elements, decoded.
#[derive(Debug)]
enum Values {
    Bool(Vec<bool>),
    Int(Vec<i128>),
    Float(Vec<f64>, FloatTy),
    Complex(Vec<f64>, Vec<f64>, FloatTy),
}

/// Decodes little-endian element bytes (`bytes.len()` is a multiple of the
/// item size).
fn decode(dtype: DType, bytes: &[u8]) -> Values {
    let n = dtype.itemsize();
    let it = bytes.chunks_exact(n);
    let arr = |c: &[u8]| -> [u8; 8] {
        let mut a = [0u8; 8];
        a[..c.len()].copy_from_slice(c);
        a
    };
    match dtype {
        DType::Bool => Values::Bool(it.map(|c| c[0] != 0).collect()),
        DType::Int8 => Values::Int(it.map(|c| c[0] as i8 as i128).collect()),
        DType::Int16 => Values::Int(
            it.map(|c| i16::from_le_bytes([c[0], c[1]]) as i128)
                .collect(),
        ),
        DType::Int32 => Values::Int(
            it.map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as i128)
                .collect(),
        ),
        DType::Int64 => Values::Int(it.map(|c| i64::from_le_bytes(arr(c)) as i128).collect()),
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => {
            Values::Int(it.map(|c| u64::from_le_bytes(arr(c)) as i128).collect())
        }
        DType::Float16 => Values::Float(
            it.map(|c| f16::from_le_bytes([c[0], c[1]]).to_f64())
                .collect(),
            FloatTy::F16,
        ),
        DType::BFloat16 => Values::Float(
            it.map(|c| bf16::from_le_bytes([c[0], c[1]]).to_f64())
                .collect(),
            FloatTy::BF16,
        ),
        DType::Float32 => Values::Float(
            it.map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)
                .collect(),
            FloatTy::F32,
        ),
        DType::Float64 => Values::Float(
            it.map(|c| f64::from_le_bytes(arr(c))).collect(),
            FloatTy::F64,
        ),
        DType::Complex64 => {
            let (re, im) = it
                .map(|c| {
                    let p =
                        |o: usize| f32::from_le_bytes([c[o], c[o + 1], c[o + 2], c[o + 3]]) as f64;
                    (p(0), p(4))
                })
                .unzip();
            Values::Complex(re, im, FloatTy::F32)
        }
        DType::Complex128 => {
            let (re, im) = it
                .map(|c| {
                    (
                        f64::from_le_bytes(arr(&c[..8])),
                        f64::from_le_bytes(arr(&c[8..])),
                    )
                })
                .unzip();
            Values::Complex(re, im, FloatTy::F64)
        }
    }
}

/// The common format of the displayed elements (NumPy's format function).
enum ElementFormat {
    Bool { truestr: &'static str },
    Int { width: usize },
    Float(FloatFormat),
    Complex(FloatFormat, FloatFormat),
}

impl ElementFormat {
    fn new(values: &Values, zero_d: bool, opts: &PrintOptions) -> ElementFormat {
        match values {
            Values::Bool(_) => ElementFormat::Bool {
                truestr: if zero_d { "True" } else { " True" },
            },
            Values::Int(v) => {
                let len = |x: Option<&i128>| x.map_or(0, |x| x.to_string().len());
                ElementFormat::Int {
                    width: len(v.iter().max()).max(len(v.iter().min())),
                }
            }
            Values::Float(v, ty) => ElementFormat::Float(FloatFormat::new(v, *ty, opts, false)),
            Values::Complex(re, im, ty) => ElementFormat::Complex(
                FloatFormat::new(re, *ty, opts, false),
                FloatFormat::new(im, *ty, opts, true),
            ),
        }
    }

    fn format(&self, values: &Values, i: usize) -> String {
        match (self, values) {
            (ElementFormat::Bool { truestr }, Values::Bool(v)) => {
                if v[i] { truestr } else { "False" }.to_owned()
            }
            (ElementFormat::Int { width }, Values::Int(v)) => format!("{:>width$}", v[i]),
            (ElementFormat::Float(f), Values::Float(v, _)) => f.format(v[i]),
            (ElementFormat::Complex(fr, fi), Values::Complex(re, im, _)) => {
                let r = fr.format(re[i]);
                let im = fi.format(im[i]);
                // The 'j' goes before the imaginary part's right padding.
                let end = im.trim_end().len();
                format!("{r}{}j{}", &im[..end], &im[end..])
            }
            _ => unreachable!("the format is made from the same values"),
        }
    }
}

/// The displayed part of an array: the full data, or its corners when
/// summarised (`summary`), as in NumPy's `_leading_trailing`.
pub(crate) struct Shown<'a> {
    /// The array's shape.
    pub shape: &'a [usize],
    /// The shape of `bytes`: `shape`, or `2 * edgeitems` on summarised axes.
    pub shown_shape: Vec<usize>,
    /// C-order element bytes of the displayed part.
    pub bytes: std::borrow::Cow<'a, [u8]>,
    /// Whether the array is summarised (`size > threshold`).
    pub summary: bool,
}

/// The shape of the corners NumPy keeps when summarising.
pub(crate) fn corner_shape(shape: &[usize], edge: usize) -> Vec<usize> {
    shape
        .iter()
        .map(|&n| if n > 2 * edge { 2 * edge } else { n })
        .collect()
}

/// The corners of a C-order host array (NumPy's `_leading_trailing`).
pub(crate) fn corners(shape: &[usize], bytes: &[u8], itemsize: usize, edge: usize) -> Vec<u8> {
    let cshape = corner_shape(shape, edge);
    let total: usize = cshape.iter().product();
    let mut out = Vec::with_capacity(total * itemsize);
    let nd = shape.len();
    // Element strides of the full array.
    let mut strides = vec![1usize; nd];
    for d in (0..nd.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    let mut idx = vec![0usize; nd];
    for _ in 0..total {
        let off: usize = (0..nd)
            .map(|d| {
                let i = if cshape[d] < shape[d] && idx[d] >= edge {
                    shape[d] - 2 * edge + idx[d]
                } else {
                    idx[d]
                };
                i * strides[d]
            })
            .sum();
        out.extend_from_slice(&bytes[off * itemsize..(off + 1) * itemsize]);
        for d in (0..nd).rev() {
            idx[d] += 1;
            if idx[d] < cshape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// NumPy's `_extendLine`.
fn extend_line(s: &mut String, line: &mut String, word: &str, width: isize, prefix: &str) {
    let mut wrap = (line.len() + word.len()) as isize > width;
    if line.len() <= prefix.len() {
        wrap = false;
    }
    if wrap {
        s.push_str(line.trim_end());
        s.push('\n');
        line.clear();
        line.push_str(prefix);
    }
    line.push_str(word);
}

struct Formatter<'a> {
    shape: &'a [usize],
    shown_shape: &'a [usize],
    /// Element strides of the shown data.
    strides: Vec<usize>,
    values: Values,
    format: ElementFormat,
    separator: &'a str,
    edge: usize,
    summary: bool,
}

impl Formatter<'_> {
    /// NumPy's `_formatArray.recurser`, over the shown data.
    fn recurse(&self, base: usize, axis: usize, hanging: &str, width: isize) -> String {
        let nd = self.shape.len();
        if axis == nd {
            return self.format.format(&self.values, base);
        }
        let next_hanging = format!("{hanging} ");
        let next_width = width - 1;
        let len = self.shown_shape[axis];
        let show_summary = self.summary && 2 * self.edge < self.shape[axis];
        let (lead, trail) = if show_summary {
            (self.edge, self.edge)
        } else {
            (0, len)
        };
        let stride = self.strides[axis];
        let nested =
            |i: usize| self.recurse(base + i * stride, axis + 1, &next_hanging, next_width);
        let mut s = String::new();
        if nd - axis == 1 {
            let sep_len = self.separator.trim_end().len().max(1) as isize;
            let elem_width = width - sep_len;
            let mut line = hanging.to_owned();
            for i in 0..lead {
                extend_line(&mut s, &mut line, &nested(i), elem_width, hanging);
                line.push_str(self.separator);
            }
            if show_summary {
                extend_line(&mut s, &mut line, "...", elem_width, hanging);
                line.push_str(self.separator);
            }
            for i in (2..=trail).rev() {
                extend_line(&mut s, &mut line, &nested(len - i), elem_width, hanging);
                line.push_str(self.separator);
            }
            extend_line(&mut s, &mut line, &nested(len - 1), elem_width, hanging);
            s.push_str(&line);
        } else {
            let line_sep = format!(
                "{}{}",
                self.separator.trim_end(),
                "\n".repeat(nd - axis - 1)
            );
            for i in 0..lead {
                s.push_str(hanging);
                s.push_str(&nested(i));
                s.push_str(&line_sep);
            }
            if show_summary {
                s.push_str(hanging);
                s.push_str("...");
                s.push_str(&line_sep);
            }
            for i in (2..=trail).rev() {
                s.push_str(hanging);
                s.push_str(&nested(len - i));
                s.push_str(&line_sep);
            }
            s.push_str(hanging);
            s.push_str(&nested(len - 1));
        }
        format!("[{}]", &s[hanging.len()..])
    }
}

/// NumPy's `_array2string` for a non-empty array.
fn array2string(
    dtype: DType,
    shown: &Shown<'_>,
    opts: &PrintOptions,
    separator: &str,
    prefix: &str,
    linewidth: isize,
) -> String {
    let values = decode(dtype, &shown.bytes);
    let format = ElementFormat::new(&values, shown.shape.is_empty(), opts);
    let nd = shown.shape.len();
    let mut strides = vec![1usize; nd];
    for d in (0..nd.saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shown.shown_shape[d + 1];
    }
    let f = Formatter {
        shape: shown.shape,
        shown_shape: &shown.shown_shape,
        strides,
        values,
        format,
        separator,
        edge: opts.edgeitems,
        summary: shown.summary,
    };
    let hanging = format!(" {}", " ".repeat(prefix.len()));
    f.recurse(0, 0, &hanging, linewidth)
}

/// A shape as Python writes a tuple: `(2000,)`, `(0, 3)`.
fn tuple(shape: &[usize]) -> String {
    match shape {
        [d] => format!("({d},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Whether NumPy's repr leaves the dtype out (`dtype_is_implied`): the
/// default int (int64 on Linux), float64, complex128 and bool.
fn dtype_is_implied(dtype: DType) -> bool {
    matches!(
        dtype,
        DType::Int64 | DType::Float64 | DType::Complex128 | DType::Bool
    )
}

/// NumPy's `array_repr`.
pub(crate) fn repr(dtype: DType, shown: &Shown<'_>, opts: &PrintOptions) -> String {
    let prefix = "array(";
    let size: usize = shown.shape.iter().product();
    let lst = if size == 0 {
        "[]".to_owned()
    } else {
        array2string(
            dtype,
            shown,
            opts,
            ", ",
            prefix,
            opts.linewidth as isize - 1,
        )
    };
    let mut extras = Vec::new();
    if (size == 0 && shown.shape != [0]) || size > opts.threshold {
        extras.push(format!("shape={}", tuple(shown.shape)));
    }
    if !dtype_is_implied(dtype) || size == 0 {
        extras.push(format!("dtype={}", dtype.name()));
    }
    if extras.is_empty() {
        return format!("{prefix}{lst})");
    }
    let arr_str = format!("{prefix}{lst},");
    let extra_str = format!("{})", extras.join(", "));
    let last_line_len = arr_str.len() - arr_str.rfind('\n').map_or(0, |i| i + 1);
    let spacer = if last_line_len + extra_str.len() + 1 > opts.linewidth {
        format!("\n{}", " ".repeat(prefix.len()))
    } else {
        " ".to_owned()
    };
    format!("{arr_str}{spacer}{extra_str}")
}

/// NumPy's `array_str`.
pub(crate) fn str(dtype: DType, shown: &Shown<'_>, opts: &PrintOptions) -> String {
    let size: usize = shown.shape.iter().product();
    if shown.shape.is_empty() {
        return scalar(dtype, &shown.bytes);
    }
    if size == 0 {
        return "[]".to_owned();
    }
    array2string(dtype, shown, opts, " ", "", opts.linewidth as isize)
}

/// The `str` of one element, as NumPy's scalar `str` (`3.5`, `True`,
/// `(1+2j)`, `1e+16`).
fn scalar(dtype: DType, bytes: &[u8]) -> String {
    match decode(dtype, bytes) {
        Values::Bool(v) => if v[0] { "True" } else { "False" }.to_owned(),
        Values::Int(v) => v[0].to_string(),
        Values::Float(v, ty) => scalar_str(v[0], ty, false),
        Values::Complex(re, im, ty) => {
            let (re, im) = (re[0], im[0]);
            let i = scalar_str(im, ty, true);
            let i = if i.starts_with('-') {
                i
            } else {
                format!("+{i}")
            };
            if re == 0.0 && re.is_sign_positive() {
                format!("{}j", i.trim_start_matches('+'))
            } else {
                format!("({}{i}j)", scalar_str(re, ty, true))
            }
        }
    }
}
