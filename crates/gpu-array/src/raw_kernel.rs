//! CuPy's `RawKernel` over arrays: a user's CUDA source, compiled with
//! Cuprum's device headers (`cuprum/complex.cuh`, `cuprum/half.cuh`, ...:
//! [`crate::kernels::HEADERS`]) on the include path, launched with `&Array`
//! and scalar arguments that are checked against the kernel's declared
//! parameters before anything is queued.
//!
//! | CuPy                                               | Cuprum                                                     |
//! |----------------------------------------------------|------------------------------------------------------------|
//! | `k = cp.RawKernel(src, 'saxpy')`                   | `let k = RawKernel::new(src, "saxpy")?;`                   |
//! | `k((grid,), (block,), (x, y, out, n))`             | `k.launch(grid, block, (&x, &y, &out, n))?`                |
//! | `k(..., shared_mem=bytes)`                         | `k.launch_with(&LaunchConfig::new(g, b).with_shared_mem(n), (..))?` |
//! | raw pointers, no checks                            | `k.raw()`: `gpu_runtime::RawKernel`, its `unsafe` launch   |
//!
//! The check reads the kernel's parameter list from the source (the
//! `__global__` function of that name; for a template instantiation such as
//! `"scale<float>"`, with the template's parameters substituted). A pointer
//! parameter takes an array whose dtype is the pointee's type (`void*` and
//! pointees Cuprum does not know take any array); a scalar parameter takes
//! a Rust scalar that converts to its type without changing kind or value
//! (an integer in the type's range for an integer parameter; a bool, an
//! integer or a float for a floating-point one). A count or kind that does
//! not match is an error naming the argument and the parameter.
//!
//! What the host can check ends there: the kernel's own indexing is the
//! kernel author's, as in CuPy. Launches go to the current stream of the
//! first array's device.

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{Device, LaunchConfig, Stream};

use crate::array::Array;
use crate::dtype::{DType, ScalarValue, check_weak_int};
use crate::elementwise::Args;
use crate::error::{Error, Result};
use crate::ufunc::scalar_to_bytes;

/// An argument of [`RawKernel::launch`]: an array (its data pointer) or a
/// scalar (converted to its parameter's type).
#[derive(Debug, Clone)]
pub enum RawArg<'a> {
    /// An array: the kernel gets the address of its first element.
    Array(&'a Array),
    /// A scalar.
    Scalar(ScalarValue),
}

impl<'a> From<&'a Array> for RawArg<'a> {
    fn from(a: &'a Array) -> Self {
        RawArg::Array(a)
    }
}

crate::array::from_rust_scalars!(RawArg<'_>, RawArg::Scalar);

/// A parameter as the source declares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawParam {
    /// The parameter's name.
    pub name: String,
    /// Its type as written (qualifiers dropped), e.g. `float*`.
    pub c_type: String,
    /// Whether it is a pointer.
    pub pointer: bool,
    /// The dtype of the value (or, for a pointer, of the pointee), when
    /// Cuprum knows the type.
    pub dtype: Option<DType>,
}

/// A user kernel with its parameters (see the [module docs](self)).
#[derive(Debug)]
pub struct RawKernel {
    kernel: gpu_runtime::RawKernel,
    params: Vec<RawParam>,
}

impl RawKernel {
    /// Compiles `source` (with Cuprum's headers available) for the current
    /// device and reads the parameters of kernel `name`: an `extern "C"`
    /// name, or a template instantiation such as `"scale<float>"`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, raw_kernel::RawKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::new(
    ///     r#"extern "C" __global__ void scale(const float* x, float* y, float a, int n) {
    ///            int i = blockIdx.x * blockDim.x + threadIdx.x;
    ///            if (i < n) y[i] = a * x[i];
    ///        }"#,
    ///     "scale",
    /// )?;
    /// let x = Array::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
    /// let y = Array::empty(3, x.dtype())?;
    /// k.launch(1, 32, (&x, &y, 2.0, 3))?;
    /// assert_eq!(y.to_vec::<f32>()?, [2.0, 4.0, 6.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// NVRTC's log for a source that does not compile; no `__global__`
    /// function `name` in the source; no device.
    pub fn new(source: &str, name: &str) -> Result<RawKernel> {
        RawKernel::with_options(source, name, &[])
    }

    /// [`RawKernel::new`] with NVRTC options (`-DN=4`, `--use_fast_math`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, raw_kernel::RawKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::with_options(
    ///     "extern \"C\" __global__ void fill(float* y, int n) { int i = threadIdx.x; if (i < n) y[i] = VALUE; }",
    ///     "fill",
    ///     &["-DVALUE=7.0f"],
    /// )?;
    /// let y = Array::empty(4, DType::Float32)?;
    /// k.launch(1, 32, (&y, 4))?;
    /// assert_eq!(y.to_vec::<f32>()?, [7.0; 4]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`RawKernel::new`].
    pub fn with_options(source: &str, name: &str, options: &[&str]) -> Result<RawKernel> {
        let params = parse_params(source, name)?;
        let mut request: CompileRequest = crate::kernels::request(source.to_string());
        for o in options {
            request = request.option(o.to_string());
        }
        let kernel = gpu_runtime::RawKernel::from_request(request, name)?;
        Ok(RawKernel { kernel, params })
    }

    /// The parameters as read from the source.
    ///
    /// ```no_run
    /// use gpu_array::{DType, raw_kernel::RawKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::new("extern \"C\" __global__ void k(const double* x, int n) {}", "k")?;
    /// assert_eq!(k.params()[0].dtype, Some(DType::Float64));
    /// assert!(k.params()[0].pointer && !k.params()[1].pointer);
    /// # Ok(()) }
    /// ```
    pub fn params(&self) -> &[RawParam] {
        &self.params
    }

    /// The compiled kernel, for launches with raw pointers (`unsafe`).
    ///
    /// ```no_run
    /// use gpu_array::raw_kernel::RawKernel;
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::new("extern \"C\" __global__ void k(int n) {}", "k")?;
    /// assert_eq!(k.raw().name(), "k"); // the runtime's kernel, for unsafe launches
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> &gpu_runtime::RawKernel {
        &self.kernel
    }

    /// Launches `grid` blocks of `block` threads (each a count or a 2- or
    /// 3-tuple) with `args`, checked against the parameters: CuPy's
    /// `kernel(grid, block, args)`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, raw_kernel::RawKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::new(
    ///     "extern \"C\" __global__ void add(const int* x, int* y, int n) { int i = threadIdx.x; if (i < n) y[i] += x[i]; }",
    ///     "add",
    /// )?;
    /// let (x, y) = (Array::from_slice(&[1i32, 2], &[2])?, Array::from_slice(&[10i32, 20], &[2])?);
    /// k.launch(1, 32, (&x, &y, 2))?; // kernel((1,), (32,), (x, y, 2))
    /// assert_eq!(y.to_vec::<i32>()?, [11, 22]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A wrong argument count or type (naming it); arrays on different
    /// devices; the launch failed.
    pub fn launch<'a>(
        &self,
        grid: impl Into<Dim3>,
        block: impl Into<Dim3>,
        args: impl Args<'a, RawArg<'a>>,
    ) -> Result<()> {
        let config = LaunchConfig::new(grid.into().0, block.into().0);
        self.launch_with(&config, args)
    }

    /// [`RawKernel::launch`] with a full launch configuration (dynamic
    /// shared memory).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, raw_kernel::RawKernel};
    /// use gpu_runtime::LaunchConfig;
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = RawKernel::new(
    ///     "extern \"C\" __global__ void rev(const float* x, float* y, int n) {
    ///          extern __shared__ float s[]; int i = threadIdx.x;
    ///          if (i < n) s[i] = x[i]; __syncthreads(); if (i < n) y[i] = s[n - 1 - i]; }",
    ///     "rev",
    /// )?;
    /// let x = Array::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
    /// let y = Array::empty(3, DType::Float32)?;
    /// k.launch_with(&LaunchConfig::linear(1, 32).with_shared_mem(3 * 4), (&x, &y, 3))?;
    /// assert_eq!(y.to_vec::<f32>()?, [3.0, 2.0, 1.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`RawKernel::launch`].
    pub fn launch_with<'a>(
        &self,
        config: &LaunchConfig,
        args: impl Args<'a, RawArg<'a>>,
    ) -> Result<()> {
        let args = args.into_args();
        let name = self.kernel.name();
        if args.len() != self.params.len() {
            return Err(Error::Value(format!(
                "RawKernel {name}: {} arguments given, the kernel takes {}",
                args.len(),
                self.params.len()
            )));
        }
        let mut device: Option<Device> = None;
        let mut bytes: Vec<Vec<u8>> = Vec::with_capacity(args.len());
        for (k, (arg, p)) in args.iter().zip(&self.params).enumerate() {
            let at = || format!("RawKernel {name}: argument {k} (`{}`)", p.name);
            match (arg, p.pointer) {
                (RawArg::Array(a), true) => {
                    if let Some(dt) = p.dtype
                        && dt != a.dtype()
                    {
                        return Err(Error::DType(format!(
                            "{} is a {} array, but the parameter is `{}`",
                            at(),
                            a.dtype(),
                            p.c_type
                        )));
                    }
                    match device {
                        Some(d) if d != a.device() => {
                            return Err(Error::DeviceMismatch {
                                operation: "RawKernel launch",
                                first: d.ordinal(),
                                second: a.device().ordinal(),
                            });
                        }
                        _ => device = Some(a.device()),
                    }
                    bytes.push(a.data_ptr().0.to_le_bytes().to_vec());
                }
                (RawArg::Scalar(v), false) => {
                    let Some(dt) = p.dtype else {
                        return Err(Error::Unsupported(format!(
                            "{}: Cuprum cannot check a scalar of type `{}`; use the raw \
                             kernel's unsafe launch (`RawKernel::raw`)",
                            at(),
                            p.c_type
                        )));
                    };
                    bytes.push(scalar_to_bytes(
                        scalar_for(*v, dt).map_err(|why| {
                            Error::DType(format!("{}: {why} for `{}`", at(), p.c_type))
                        })?,
                        dt,
                    ));
                }
                (RawArg::Array(a), false) => {
                    return Err(Error::DType(format!(
                        "{} is a {} array, but the parameter is the scalar `{}`",
                        at(),
                        a.dtype(),
                        p.c_type
                    )));
                }
                (RawArg::Scalar(_), true) => {
                    return Err(Error::DType(format!(
                        "{} is a scalar, but the parameter is the pointer `{}`",
                        at(),
                        p.c_type
                    )));
                }
            }
        }
        let device = match device {
            Some(d) => d,
            None => Device::current()?,
        };
        let stream = Stream::current_on(device);
        let kernel = self.kernel.kernel_on(device)?;
        let params: Vec<&[u8]> = bytes.iter().map(Vec::as_slice).collect();
        crate::raw::launch_user(kernel, *config, &stream, &params)
    }
}

/// Launch dimensions: a count, or `(x, y)`, or `(x, y, z)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub (u32, u32, u32));

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3((x, 1, 1))
    }
}

impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3((x, y, 1))
    }
}

impl From<(u32, u32, u32)> for Dim3 {
    fn from(d: (u32, u32, u32)) -> Self {
        Dim3(d)
    }
}

/// `v` as a value for a parameter of `dt`, when that keeps its kind and
/// value (see the module docs); the reason otherwise.
fn scalar_for(v: ScalarValue, dt: DType) -> std::result::Result<ScalarValue, String> {
    match (v, dt) {
        (ScalarValue::Bool(_), DType::Bool) => Ok(v),
        (_, DType::Bool) => Err("only a bool converts to bool".into()),
        (ScalarValue::Int(n), d) if d.is_integer() => {
            check_weak_int(n, d).map_err(|e| e.to_string())?;
            Ok(v)
        }
        (ScalarValue::Bool(b), d) if d.is_integer() => Ok(ScalarValue::Int(i128::from(b))),
        (_, d) if d.is_integer() => Err("a float or complex value does not convert".into()),
        (ScalarValue::Complex(_), d) if !d.is_complex() => {
            Err("a complex value does not convert".into())
        }
        _ => Ok(v),
    }
}

/// The parameters of `__global__` function `name` in `source`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::raw_kernel::parse_params;
/// let p = parse_params("extern \"C\" __global__ void axpy(float a, const float* x, float* y) {}", "axpy")?;
/// assert_eq!(p.iter().map(|q| q.name.as_str()).collect::<Vec<_>>(), ["a", "x", "y"]);
/// assert_eq!((p[1].c_type.as_str(), p[1].dtype), ("float*", Some(DType::Float32)));
/// assert!(parse_params("__global__ void k() {}", "other").is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// No such function.
pub fn parse_params(source: &str, name: &str) -> Result<Vec<RawParam>> {
    let (base, targs) = match name.split_once('<') {
        Some((b, rest)) => (b.trim(), split_top(rest.trim_end().trim_end_matches('>'))),
        None => (name.trim(), Vec::new()),
    };
    let src = strip_comments(source);
    let mut from = 0;
    while let Some(at) = src[from..].find("__global__") {
        let start = from + at;
        from = start + "__global__".len();
        let rest = &src[from..];
        let Some(open) = rest.find('(') else { break };
        let head = &rest[..open];
        if head.split_whitespace().last() != Some(base) {
            continue;
        }
        let body = &rest[open + 1..];
        let Some(close) = matching_paren(body) else {
            break;
        };
        let tparams = template_params(&src[..start]);
        let subst: Vec<(String, String)> = tparams.into_iter().zip(targs.clone()).collect();
        return split_top(&body[..close])
            .into_iter()
            .filter(|p| !p.trim().is_empty() && p.trim() != "void")
            .map(|p| param(&p, &subst))
            .collect();
    }
    Err(Error::Value(format!(
        "RawKernel: no __global__ function `{base}` in the source"
    )))
}

fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match (c, it.peek()) {
            ('/', Some('/')) => {
                for c in it.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                it.next();
                let mut prev = ' ';
                for c in it.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

/// The index of the `)` closing a list that starts just before `s`.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// `s` split at the commas outside `<>`, `()` and `[]`.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in s.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur).trim().to_string());
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// The type parameters of a `template <...>` that ends `before` (the text
/// before a `__global__`), if it ends with one.
fn template_params(before: &str) -> Vec<String> {
    let t = before.trim_end();
    let Some(t) = t.strip_suffix('>') else {
        return Vec::new();
    };
    let Some(at) = t.rfind("template") else {
        return Vec::new();
    };
    let Some(open) = t[at..].find('<') else {
        return Vec::new();
    };
    split_top(&t[at + open + 1..])
        .into_iter()
        .filter_map(|p| p.split_whitespace().last().map(str::to_string))
        .collect()
}

fn param(p: &str, subst: &[(String, String)]) -> Result<RawParam> {
    let p = p.split('=').next().unwrap_or(p).trim();
    // The name is the last identifier; the rest is the type.
    let name_start = p
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let (ty, name) = (&p[..name_start], &p[name_start..]);
    let pointer = ty.matches('*').count();
    let words: Vec<String> = ty
        .replace(['*', '&'], " ")
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "__restrict__" | "__restrict" | "restrict"
            )
        })
        .map(|w| {
            subst
                .iter()
                .find(|(k, _)| k == w)
                .map_or_else(|| w.to_string(), |(_, v)| v.clone())
        })
        .collect();
    let base = words.join(" ");
    if name.is_empty() || base.is_empty() {
        return Err(Error::Value(format!(
            "RawKernel: cannot read the parameter `{p}`"
        )));
    }
    Ok(RawParam {
        name: name.to_string(),
        c_type: format!("{base}{}", "*".repeat(pointer)),
        pointer: pointer > 0,
        // A pointer to pointers is not an array of a dtype.
        dtype: if pointer > 1 { None } else { c_dtype(&base) },
    })
}

/// The dtype of a C type name, as CUDA on Linux spells them.
fn c_dtype(t: &str) -> Option<DType> {
    Some(match t.trim_start_matches("::") {
        "bool" => DType::Bool,
        "signed char" | "int8_t" | "char" => DType::Int8,
        "short" | "short int" | "int16_t" => DType::Int16,
        "int" | "int32_t" | "signed" | "signed int" => DType::Int32,
        "long" | "long long" | "long int" | "long long int" | "int64_t" | "ptrdiff_t" => {
            DType::Int64
        }
        "unsigned char" | "uint8_t" => DType::UInt8,
        "unsigned short" | "uint16_t" => DType::UInt16,
        "unsigned" | "unsigned int" | "uint32_t" => DType::UInt32,
        "unsigned long" | "unsigned long long" | "uint64_t" | "size_t" => DType::UInt64,
        "half" | "__half" | "cuprum::half" => DType::Float16,
        "__nv_bfloat16" | "cuprum::bfloat16" => DType::BFloat16,
        "float" => DType::Float32,
        "double" => DType::Float64,
        "complex<float>" | "cuprum::complex<float>" | "thrust::complex<float>" => DType::Complex64,
        "complex<double>" | "cuprum::complex<double>" | "thrust::complex<double>" => {
            DType::Complex128
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_extern_c_and_template_parameters() {
        let src = r#"
            // a comment naming __global__ void saxpy(int)
            extern "C" __global__ void saxpy(const float* __restrict__ x, float *y,
                                             float a, /* n */ unsigned long long n) {}
            template <typename T, int N>
            __global__ void scale(const T* x, T* y, cuprum::complex<double> c, T** table) {}
            extern "C" __global__ void none(void) {}
        "#;
        let p = parse_params(src, "saxpy").unwrap();
        let got: Vec<(&str, &str, bool, Option<DType>)> = p
            .iter()
            .map(|p| (p.name.as_str(), p.c_type.as_str(), p.pointer, p.dtype))
            .collect();
        assert_eq!(
            got,
            [
                ("x", "float*", true, Some(DType::Float32)),
                ("y", "float*", true, Some(DType::Float32)),
                ("a", "float", false, Some(DType::Float32)),
                ("n", "unsigned long long", false, Some(DType::UInt64)),
            ]
        );
        let p = parse_params(src, "scale<double, 4>").unwrap();
        assert_eq!(p[0].dtype, Some(DType::Float64));
        assert_eq!(p[0].c_type, "double*");
        assert_eq!(p[2].dtype, Some(DType::Complex128));
        assert_eq!((p[3].pointer, p[3].dtype), (true, None));
        assert!(parse_params(src, "none").unwrap().is_empty());
        assert!(
            parse_params(src, "missing")
                .unwrap_err()
                .to_string()
                .contains("no __global__ function `missing`")
        );
    }

    #[test]
    fn scalars_convert_only_within_their_kind() {
        assert!(scalar_for(ScalarValue::Int(3), DType::Int32).is_ok());
        assert!(scalar_for(ScalarValue::Int(1 << 40), DType::Int32).is_err());
        assert!(scalar_for(ScalarValue::Int(-1), DType::UInt64).is_err());
        assert!(scalar_for(ScalarValue::Float(2.5), DType::Int64).is_err());
        assert!(scalar_for(ScalarValue::Int(2), DType::Float32).is_ok());
        assert!(scalar_for(ScalarValue::Float(2.5), DType::Float64).is_ok());
        assert!(scalar_for(ScalarValue::Int(1), DType::Bool).is_err());
        assert!(
            scalar_for(
                ScalarValue::Complex(num_complex::Complex::new(1.0, 1.0)),
                DType::Float64
            )
            .is_err()
        );
    }
}
