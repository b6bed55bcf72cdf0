//! The `.npy` header: magic, version, and the Python-literal dictionary.

use std::io::Read;

use crate::dtype::DType;
use crate::error::{Error, Result};

/// `\x93NUMPY`.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";
/// The header (magic to newline) is padded to a multiple of this.
const ARRAY_ALIGN: usize = 64;
/// NumPy leaves room for the growth axis' length to reach this many digits.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;
/// The longest header [`read_header`] accepts, in bytes: NumPy's
/// `max_header_size` default (`numpy.lib.format._MAX_HEADER_SIZE`). Longer
/// headers come only from structured dtypes, which Cuprum does not read, or
/// from hostile files; [`read_header_with_max_size`] raises the limit.
pub const MAX_HEADER_SIZE: usize = 10_000;
/// The deepest nesting of brackets the dictionary parser follows. Valid
/// headers nest two levels (the dict, the shape tuple); the cap keeps the
/// recursive parser's stack bounded whatever the file says.
const MAX_NESTING: usize = 16;

/// What an `.npy` header says about the array that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyHeader {
    /// Element type.
    pub dtype: DType,
    /// Shape.
    pub shape: Vec<usize>,
    /// Whether the data is in Fortran (column-major) order.
    pub fortran_order: bool,
    /// Whether the data in the file is big-endian (it is swapped on read).
    pub big_endian: bool,
    /// Format version `(major, minor)`: `(1, 0)`, `(2, 0)` or `(3, 0)`.
    pub version: (u8, u8),
}

fn bad(msg: impl Into<String>) -> Error {
    Error::Npy(msg.into())
}

/// The `descr` string NumPy writes for a dtype (`'<f8'`, `'|b1'`).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::npy::descr;
/// assert_eq!(descr(DType::Float64)?, "<f8");
/// assert_eq!(descr(DType::Bool)?, "|b1");
/// assert!(descr(DType::BFloat16).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Unsupported`] for bfloat16, which `.npy` cannot describe.
pub fn descr(dtype: DType) -> Result<String> {
    if dtype == DType::BFloat16 {
        return Err(Error::Unsupported(
            "bfloat16 arrays cannot be stored in .npy files: NumPy has no bfloat16 type \
             (cast to float32 first)"
                .to_owned(),
        ));
    }
    Ok(dtype.str())
}

/// Parses a `descr` string into a dtype and whether it is big-endian.
fn parse_descr(s: &str) -> Result<(DType, bool)> {
    let unsupported = || {
        Error::Unsupported(format!(
            "unsupported dtype descr '{}' in .npy header: Cuprum reads bool, integer, \
             float16/32/64 and complex64/128 arrays",
            snippet(s)
        ))
    };
    let mut chars = s.chars();
    let order = chars.next().ok_or_else(unsupported)?;
    if !matches!(order, '<' | '>' | '|' | '=') {
        return Err(unsupported());
    }
    let mut rest = chars.as_str().chars();
    let kind = rest.next().ok_or_else(unsupported)?;
    let digits = rest.as_str();
    // `str::parse` would also take `+8`, which NumPy does not.
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(unsupported());
    }
    let size: usize = digits.parse().map_err(|_| unsupported())?;
    let dtype = DType::from_kind_size(kind, size).ok_or_else(unsupported)?;
    let big = match order {
        '>' => true,
        '=' => cfg!(target_endian = "big"),
        _ => false,
    };
    Ok((dtype, big && size > 1))
}

/// A Python shape repr: `()`, `(3,)`, `(2, 3)`.
fn shape_repr(shape: &[usize]) -> String {
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

/// The complete header bytes NumPy (`numpy.lib.format.write_array`) writes
/// for this array: magic, version, length, the dict, spaces and `\n`, padded
/// to a multiple of 64 bytes. Version 1.0 unless the header needs 2.0.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::npy::header_bytes;
/// let h = header_bytes(DType::Float32, &[2, 3], false)?;
/// assert_eq!(h.len() % 64, 0);
/// let text = String::from_utf8_lossy(&h[10..]);
/// assert!(text.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Unsupported`] for bfloat16.
pub fn header_bytes(dtype: DType, shape: &[usize], fortran_order: bool) -> Result<Vec<u8>> {
    let mut dict = format!(
        "{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}",
        descr(dtype)?,
        if fortran_order { "True" } else { "False" },
        shape_repr(shape)
    );
    // Spare room so that the growth axis can be rewritten in place.
    let growth = if fortran_order {
        shape.last()
    } else {
        shape.first()
    };
    if let Some(d) = growth {
        let digits = d.to_string().len();
        dict.extend(std::iter::repeat_n(
            ' ',
            GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits),
        ));
    }
    let hlen = dict.len() + 1; // the final '\n'
    let wrap = |len_bytes: usize| {
        let pad = ARRAY_ALIGN - (MAGIC.len() + 2 + len_bytes + hlen) % ARRAY_ALIGN;
        (pad, hlen + pad)
    };
    let (pad, total) = wrap(2);
    let mut out = Vec::with_capacity(MAGIC.len() + 6 + total);
    out.extend_from_slice(MAGIC);
    if let Ok(total16) = u16::try_from(total) {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&total16.to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.extend(std::iter::repeat_n(b' ', pad));
    } else {
        let (pad, total) = wrap(4);
        let total32 = u32::try_from(total)
            .map_err(|_| bad(format!("Header length {hlen} too big for version=(2, 0)")))?;
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&total32.to_le_bytes());
        out.extend_from_slice(dict.as_bytes());
        out.extend(std::iter::repeat_n(b' ', pad));
    }
    out.push(b'\n');
    Ok(out)
}

/// Reads and parses a header, leaving `r` at the first data byte. Headers
/// longer than [`MAX_HEADER_SIZE`] bytes are refused, as `numpy.load` does.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::npy::{header_bytes, read_header};
/// let bytes = header_bytes(DType::Int64, &[4], true)?;
/// let h = read_header(&mut bytes.as_slice())?;
/// assert_eq!((h.dtype, h.shape, h.fortran_order), (DType::Int64, vec![4], true));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Npy`] for a bad magic string, version or dictionary, or a header
/// over the size limit; [`Error::Unsupported`] for dtypes Cuprum lacks
/// (object, structured, strings, longdouble...); [`Error::Io`] when reading
/// fails.
pub fn read_header<R: Read>(r: &mut R) -> Result<NpyHeader> {
    read_header_with_max_size(r, MAX_HEADER_SIZE)
}

/// [`read_header`] with another limit on the header's length in bytes
/// (NumPy's `max_header_size`), for trusted files with long headers.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::npy::{header_bytes, read_header_with_max_size};
/// let bytes = header_bytes(DType::UInt8, &[1], false)?;
/// assert!(read_header_with_max_size(&mut bytes.as_slice(), 20_000).is_ok());
/// assert!(read_header_with_max_size(&mut bytes.as_slice(), 8).is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// As [`read_header`].
pub fn read_header_with_max_size<R: Read>(r: &mut R, max_header_size: usize) -> Result<NpyHeader> {
    read_header_counted(r, max_header_size).map(|(h, _)| h)
}

/// [`read_header_with_max_size`], also giving the number of bytes read
/// (magic to the first data byte).
pub(crate) fn read_header_counted<R: Read>(
    r: &mut R,
    max_header_size: usize,
) -> Result<(NpyHeader, u64)> {
    let mut start = [0u8; 8];
    read_exact(r, &mut start, "the magic string")?;
    if &start[..6] != MAGIC {
        return Err(bad(format!(
            "the magic string is not correct; expected b'\\x93NUMPY', got {}",
            py_bytes(&start[..6])
        )));
    }
    let version = (start[6], start[7]);
    let (len, len_bytes) = match version {
        (1, 0) => {
            let mut b = [0u8; 2];
            read_exact(r, &mut b, "the header length")?;
            (u64::from(u16::from_le_bytes(b)), 2)
        }
        (2, 0) | (3, 0) => {
            let mut b = [0u8; 4];
            read_exact(r, &mut b, "the header length")?;
            (u64::from(u32::from_le_bytes(b)), 4)
        }
        (major, minor) => {
            return Err(bad(format!(
                "we only support format version (1,0), (2,0), and (3,0), not ({major}, {minor})"
            )));
        }
    };
    // Checked before anything is allocated: the length is the file's claim.
    if len > max_header_size as u64 {
        return Err(bad(format!(
            "npy header: the header is {len} bytes long, more than the limit of \
             {max_header_size} (NumPy's max_header_size); a header this long is not \
             safe to load from an untrusted file"
        )));
    }
    let mut raw = Vec::new();
    r.by_ref().take(len).read_to_end(&mut raw)?;
    if (raw.len() as u64) < len {
        return Err(bad(format!(
            "truncated .npy file: end of file in the header ({} of {len} bytes)",
            raw.len()
        )));
    }
    // Versions 1 and 2 are latin-1, version 3 is UTF-8.
    let text: String = if version.0 == 3 {
        String::from_utf8(raw).map_err(|_| bad("the .npy header is not valid UTF-8"))?
    } else {
        raw.iter().map(|&b| char::from(b)).collect()
    };
    let (dtype, shape, fortran_order, big_endian) = parse_dict(&text)?;
    let header = NpyHeader {
        dtype,
        shape,
        fortran_order,
        big_endian,
        version,
    };
    Ok((header, 8 + len_bytes + len))
}

fn read_exact<R: Read>(r: &mut R, buf: &mut [u8], what: &str) -> Result<()> {
    r.read_exact(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => {
            bad(format!("truncated .npy file: end of file in {what}"))
        }
        _ => Error::Io(e),
    })
}

fn py_bytes(b: &[u8]) -> String {
    let mut s = String::from("b'");
    for &c in b {
        if c.is_ascii_graphic() && c != b'\'' && c != b'\\' || c == b' ' {
            s.push(char::from(c));
        } else {
            s.push_str(&format!("\\x{c:02x}"));
        }
    }
    s.push('\'');
    s
}

/// The subset of Python literals that headers use.
#[derive(Clone, Debug, PartialEq)]
enum Py {
    Str(String),
    Bool(bool),
    None,
    Int(i128),
    Tuple(Vec<Py>),
    List(Vec<Py>),
    Dict(Vec<(Py, Py)>),
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Brackets open around `pos`.
    depth: usize,
    /// Set when parsing stopped at [`MAX_NESTING`].
    too_deep: bool,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.pos).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Items up to `close`, with Python's optional trailing comma.
    fn seq(&mut self, close: u8) -> Option<(Vec<Py>, bool)> {
        let mut items = Vec::new();
        let mut trailing_comma = false;
        loop {
            if self.eat(close) {
                return Some((items, trailing_comma));
            }
            items.push(self.value()?);
            trailing_comma = self.eat(b',');
            if !trailing_comma {
                return self.eat(close).then_some((items, false));
            }
        }
    }

    /// One value; containers recurse, at most [`MAX_NESTING`] deep.
    fn value(&mut self) -> Option<Py> {
        if matches!(self.peek()?, b'(' | b'[' | b'{') {
            if self.depth == MAX_NESTING {
                self.too_deep = true;
                return None;
            }
            self.depth += 1;
            let v = self.scalar_or_container();
            self.depth -= 1;
            v
        } else {
            self.scalar_or_container()
        }
    }

    fn scalar_or_container(&mut self) -> Option<Py> {
        match self.peek()? {
            q @ (b'\'' | b'"') => {
                self.pos += 1;
                let start = self.pos;
                while *self.s.get(self.pos)? != q {
                    if self.s[self.pos] == b'\\' {
                        return None; // escapes never occur in valid headers
                    }
                    self.pos += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.pos])
                    .ok()?
                    .to_owned();
                self.pos += 1;
                Some(Py::Str(text))
            }
            b'(' => {
                self.pos += 1;
                let (items, trailing) = self.seq(b')')?;
                // `(x)` is a parenthesized value, not a tuple.
                if items.len() == 1 && !trailing {
                    return items.into_iter().next();
                }
                Some(Py::Tuple(items))
            }
            b'[' => {
                self.pos += 1;
                Some(Py::List(self.seq(b']')?.0))
            }
            b'{' => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    if self.eat(b'}') {
                        return Some(Py::Dict(items));
                    }
                    let k = self.value()?;
                    if !self.eat(b':') {
                        return None;
                    }
                    let v = self.value()?;
                    items.push((k, v));
                    if !self.eat(b',') {
                        return self.eat(b'}').then_some(Py::Dict(items));
                    }
                }
            }
            c if c.is_ascii_digit() || c == b'-' || c == b'+' => {
                let start = self.pos;
                self.pos += 1;
                while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
                    self.pos += 1;
                }
                let v = std::str::from_utf8(&self.s[start..self.pos])
                    .ok()?
                    .parse()
                    .ok()?;
                // Python 2 long suffix, found in old files.
                if matches!(self.s.get(self.pos), Some(b'L' | b'l')) {
                    self.pos += 1;
                }
                Some(Py::Int(v))
            }
            _ => {
                for (word, v) in [
                    ("True", Py::Bool(true)),
                    ("False", Py::Bool(false)),
                    ("None", Py::None),
                ] {
                    if self.s[self.pos..].starts_with(word.as_bytes()) {
                        self.pos += word.len();
                        return Some(v);
                    }
                }
                None
            }
        }
    }
}

type Parsed = (DType, Vec<usize>, bool, bool);

/// The start of `s` for an error message: a hostile header may be long.
fn snippet(s: &str) -> String {
    const KEEP: usize = 120;
    match s.char_indices().nth(KEEP) {
        None => s.to_owned(),
        Some((end, _)) => format!("{}... ({} bytes in all)", &s[..end], s.len()),
    }
}

fn parse_dict(text: &str) -> Result<Parsed> {
    let mut p = Parser {
        s: text.as_bytes(),
        pos: 0,
        depth: 0,
        too_deep: false,
    };
    let value = p.value().filter(|_| p.peek().is_none());
    if p.too_deep {
        return Err(bad(format!(
            "npy header: brackets nested more than {MAX_NESTING} deep (a valid header nests 2)"
        )));
    }
    let Some(value) = value else {
        return Err(bad(format!(
            "Cannot parse header: {}",
            snippet(&format!("{:?}", text.trim_end()))
        )));
    };
    let Py::Dict(items) = value else {
        return Err(bad(format!(
            "Header is not a dictionary: {}",
            snippet(&format!("{:?}", text.trim_end()))
        )));
    };
    let mut keys: Vec<&str> = items
        .iter()
        .map(|(k, _)| if let Py::Str(s) = k { s.as_str() } else { "?" })
        .collect();
    keys.sort_unstable();
    if keys != ["descr", "fortran_order", "shape"] {
        return Err(bad(format!(
            "Header does not contain the correct keys: {}",
            snippet(&format!("{keys:?}"))
        )));
    }
    // The three keys are there (checked above), so `None` is never returned.
    let none = Py::None;
    let get = |key: &str| {
        items
            .iter()
            .find(|(k, _)| matches!(k, Py::Str(s) if s == key))
            .map_or(&none, |(_, v)| v)
    };
    let shape = match get("shape") {
        Py::Tuple(dims) => dims
            .iter()
            .map(|d| match d {
                // NumPy's dimensions are `intp`: none above `isize::MAX`.
                Py::Int(n) => isize::try_from(*n)
                    .ok()
                    .and_then(|n| usize::try_from(n).ok()),
                _ => None,
            })
            .collect::<Option<Vec<usize>>>(),
        _ => None,
    }
    .ok_or_else(|| {
        bad(format!(
            "shape is not valid: {}",
            snippet(&format!("{:?}", get("shape")))
        ))
    })?;
    let fortran_order = match get("fortran_order") {
        Py::Bool(b) => *b,
        other => {
            return Err(bad(format!(
                "fortran_order is not a valid bool: {}",
                snippet(&format!("{other:?}"))
            )));
        }
    };
    let (dtype, big) = match get("descr") {
        Py::Str(s) => parse_descr(s)?,
        Py::List(_) => {
            return Err(Error::Unsupported(
                "structured dtypes (a list 'descr' in the .npy header) are not supported"
                    .to_owned(),
            ));
        }
        other => {
            return Err(bad(format!(
                "descr is not a valid dtype descriptor: {}",
                snippet(&format!("{other:?}"))
            )));
        }
    };
    Ok((dtype, shape, fortran_order, big))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numpy_header_bytes() {
        // np.save of np.arange(6, dtype='<i4').reshape(2, 3): 128 header bytes.
        let dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
        let h = header_bytes(DType::Int32, &[2, 3], false).unwrap();
        assert_eq!(h.len(), 128);
        assert_eq!(&h[..10], b"\x93NUMPY\x01\x00\x76\x00");
        assert_eq!(&h[10..10 + dict.len()], dict.as_bytes());
        assert!(h[10 + dict.len()..127].iter().all(|&b| b == b' '));
        assert_eq!(h[127], b'\n');
        // 0-d and 1-d reprs.
        let h = header_bytes(DType::Float64, &[], false).unwrap();
        assert!(String::from_utf8_lossy(&h).contains("'shape': (), }"));
        let h = header_bytes(DType::Bool, &[3], true).unwrap();
        assert!(
            String::from_utf8_lossy(&h)
                .contains("{'descr': '|b1', 'fortran_order': True, 'shape': (3,), }")
        );
        assert_eq!(h.len() % 64, 0);
    }

    #[test]
    fn parses_variants() {
        let (dt, shape, f, big) =
            parse_dict("{\"descr\": \">f8\", \"shape\": (3L, 4L), \"fortran_order\": True}")
                .unwrap();
        assert_eq!(
            (dt, shape, f, big),
            (DType::Float64, vec![3, 4], true, true)
        );
        let (_, shape, _, big) =
            parse_dict("{'descr': '|u1', 'fortran_order': False, 'shape': (5,), }   \n").unwrap();
        assert_eq!((shape, big), (vec![5], false));
        let (_, shape, _, _) =
            parse_dict("{'descr': '<c16', 'fortran_order': False, 'shape': ()}").unwrap();
        assert!(shape.is_empty());
    }

    #[test]
    fn header_errors() {
        let e = |s: &str| parse_dict(s).unwrap_err().to_string();
        assert!(e("{'descr': '<f8', 'fortran_order': False").starts_with("Cannot parse header"));
        assert!(e("[1, 2]").starts_with("Header is not a dictionary"));
        assert!(
            e("{'descr': '<f8', 'shape': ()}")
                .starts_with("Header does not contain the correct keys")
        );
        assert!(
            e("{'descr': '<f8', 'fortran_order': 0, 'shape': ()}")
                .starts_with("fortran_order is not a valid bool")
        );
        assert!(
            e("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,)}")
                .starts_with("shape is not valid")
        );
        assert!(
            e("{'descr': '|O', 'fortran_order': False, 'shape': ()}")
                .starts_with("unsupported dtype descr '|O'")
        );
        assert!(
            e("{'descr': '<f16', 'fortran_order': False, 'shape': ()}")
                .starts_with("unsupported dtype descr")
        );
        assert!(
            e("{'descr': '<U3', 'fortran_order': False, 'shape': ()}")
                .starts_with("unsupported dtype descr")
        );
        assert!(
            e("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': ()}")
                .starts_with("structured dtypes")
        );
        assert!(descr(DType::BFloat16).is_err());
    }
}
