//! CuPy's `ElementwiseKernel` parameter lists: parsing (`"float32 x, raw T
//! y"`) and the binding of type placeholders to the dtypes of a call.

use std::fmt;

use crate::dtype::{DType, Operand, result_type};
use crate::error::{Error, Result};

/// The type of a parameter as written: a dtype, or a placeholder that a
/// call binds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ParamType {
    /// A NumPy dtype name (`float32`, `int64`, `bool`, `complex128`, and the
    /// NumPy 2 aliases `float`, `int`, `double`...).
    DType(DType),
    /// A type placeholder: one character as in CuPy (`T`), or, beyond CuPy,
    /// an identifier that starts with an uppercase ASCII letter (`TIn`).
    Placeholder(String),
}

impl fmt::Display for ParamType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamType::DType(d) => f.write_str(d.name()),
            ParamType::Placeholder(p) => f.write_str(p),
        }
    }
}

/// One parameter of an input or output list.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// The name the operation code uses.
    pub name: String,
    /// Its declared type.
    pub ty: ParamType,
    /// `raw`: not broadcast, indexed by the user (`y[i]`), as CuPy's raw
    /// arguments.
    pub raw: bool,
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.raw {
            f.write_str("raw ")?;
        }
        write!(f, "{} {}", self.ty, self.name)
    }
}

/// Whether `name` is reserved by the generated code: `i` (the linear
/// index), `n`, and every name starting with `_` (CuPy's "n, i, and names
/// starting with an underscore _ are reserved for the internal use").
///
/// ```
/// use gpu_array::elementwise::is_reserved_name;
/// assert!(is_reserved_name("i") && is_reserved_name("n") && is_reserved_name("_tmp"));
/// assert!(!is_reserved_name("x"));
/// ```
pub fn is_reserved_name(name: &str) -> bool {
    name == "i" || name == "n" || name.starts_with('_')
}

/// A C identifier: `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn parse_type(t: &str) -> Result<ParamType> {
    if t.chars().count() == 1 {
        if t.chars().all(|c| c.is_ascii_alphabetic()) {
            return Ok(ParamType::Placeholder(t.to_owned()));
        }
        return Err(Error::Value(format!("Wrong type {t}")));
    }
    if let Ok(dt) = t.parse::<DType>()
        && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Ok(ParamType::DType(dt));
    }
    if is_identifier(t) && t.starts_with(|c: char| c.is_ascii_uppercase()) {
        return Ok(ParamType::Placeholder(t.to_owned()));
    }
    Err(Error::Value(format!("Wrong type {t}")))
}

fn parse_one(s: &str) -> Result<Param> {
    let words: Vec<&str> = s.split_whitespace().collect();
    if words.len() < 2 {
        return Err(Error::Value(format!("Syntax error: {}", s.trim())));
    }
    let name = words[words.len() - 1];
    let ty = parse_type(words[words.len() - 2])?;
    let mut raw = false;
    for w in &words[..words.len() - 2] {
        match *w {
            "raw" => raw = true,
            other => return Err(Error::Value(format!("Unknown keyword \"{other}\""))),
        }
    }
    if !is_identifier(name) {
        return Err(Error::Value(format!("Invalid parameter name '{name}'")));
    }
    if is_reserved_name(name) {
        return Err(Error::Value(format!(
            "Can not use '{name}' as a parameter name: n, i and names starting with an \
             underscore are reserved"
        )));
    }
    Ok(Param {
        name: name.to_owned(),
        ty,
        raw,
    })
}

/// Parses one parameter list: comma-separated `[raw] TYPE NAME`. An empty
/// or blank string is an empty list.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{ParamType, parse_params};
/// let p = parse_params("T x, raw float32 y")?;
/// assert_eq!(p[0].ty, ParamType::Placeholder("T".into()));
/// assert!(p[1].raw && p[1].ty == ParamType::DType(DType::Float32));
/// assert!(parse_params("flaot32 x").is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Value`] for a malformed entry ("Syntax error: float32"), an
/// unknown keyword, a type that is neither a dtype nor a placeholder
/// ("Wrong type flaot32"), or a reserved or invalid name.
pub fn parse_params(list: &str) -> Result<Vec<Param>> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    list.split(',').map(parse_one).collect()
}

/// The input and output parameters of an elementwise kernel.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParamList {
    /// Inputs, in call order.
    pub inputs: Vec<Param>,
    /// Outputs, in call order (after the inputs).
    pub outputs: Vec<Param>,
}

/// The dtypes of one call, placeholders bound.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BoundTypes {
    /// The dtype of each input parameter.
    pub inputs: Vec<DType>,
    /// The dtype of each output parameter.
    pub outputs: Vec<DType>,
    /// Each placeholder and its dtype, sorted by name.
    pub placeholders: Vec<(String, DType)>,
}

impl ParamList {
    /// Parses CuPy's `in_params` and `out_params` strings.
    ///
    /// ```
    /// use gpu_array::elementwise::ParamList;
    /// let p = ParamList::parse("T x, T y", "T z")?;
    /// assert_eq!((p.inputs.len(), p.outputs.len()), (2, 1));
    /// assert!(ParamList::parse("T x, T x", "T z").is_err()); // duplicated name
    /// assert!(ParamList::parse("T x", "").is_err()); // no output
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`parse_params`]; [`Error::Value`] for a name used twice
    /// ("Duplicated parameter name 'x'") and for an output list with no
    /// parameter ("Output parameter list must not be empty", as CuPy's
    /// ElementwiseKernel requires).
    pub fn parse(in_params: &str, out_params: &str) -> Result<ParamList> {
        let inputs = parse_params(in_params)?;
        let outputs = parse_params(out_params)?;
        if outputs.is_empty() {
            return Err(Error::Value(
                "Output parameter list must not be empty".to_owned(),
            ));
        }
        let mut seen: Vec<&str> = Vec::new();
        for p in inputs.iter().chain(&outputs) {
            if seen.contains(&p.name.as_str()) {
                return Err(Error::Value(format!(
                    "Duplicated parameter name '{}'",
                    p.name
                )));
            }
            seen.push(&p.name);
        }
        Ok(ParamList { inputs, outputs })
    }

    /// Every placeholder used, in order of first appearance.
    ///
    /// ```
    /// use gpu_array::elementwise::ParamList;
    /// let p = ParamList::parse("T x, U y, T w", "V z")?;
    /// assert_eq!(p.placeholders(), ["T", "U", "V"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn placeholders(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for p in self.inputs.iter().chain(&self.outputs) {
            if let ParamType::Placeholder(t) = &p.ty
                && !out.contains(&t.as_str())
            {
                out.push(t);
            }
        }
        out
    }

    /// Binds the placeholders to the dtypes of a call, as CuPy's
    /// `_decide_params_type`: the outputs first, then the inputs.
    ///
    /// `inputs[k]` describes the argument of input `k`: an array (or typed
    /// scalar) binds its dtype; a weak scalar (a Rust literal, as a Python
    /// scalar in CuPy) binds nothing and is converted to the parameter's
    /// type. `outputs` holds the dtypes of the output arrays supplied, or is
    /// empty when the call allocates them.
    ///
    /// A placeholder that only weak scalars use is bound, beyond CuPy, to
    /// NumPy's type for those scalars ([`result_type`] of their kinds:
    /// int64, float64, complex128 or bool).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::{Operand, ScalarKind};
    /// use gpu_array::elementwise::ParamList;
    /// let p = ParamList::parse("T x, T y", "T z")?;
    /// let b = p.bind(&[Operand::Array(DType::Float32), Operand::Scalar(ScalarKind::Float)], &[])?;
    /// assert_eq!(b.outputs, [DType::Float32]); // the weak scalar takes T from the array
    /// assert!(p.bind(&[Operand::Array(DType::Float32), Operand::Array(DType::Float64)], &[]).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] for a wrong number of arguments; [`Error::DType`]
    /// (CuPy's TypeError) "Type is mismatched. x float64 float32" when an
    /// array's dtype differs from a dtype parameter or from the dtype its
    /// placeholder already has; "Cannot determine the type of placeholder
    /// 'Z' (pass output arrays)" when nothing binds a placeholder.
    pub fn bind(&self, inputs: &[Operand], outputs: &[DType]) -> Result<BoundTypes> {
        if inputs.len() != self.inputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments: {} inputs expected, {} given",
                self.inputs.len(),
                inputs.len()
            )));
        }
        if !outputs.is_empty() && outputs.len() != self.outputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments: {} outputs expected, {} given",
                self.outputs.len(),
                outputs.len()
            )));
        }
        let mut bound: Vec<(String, DType)> = Vec::new();
        let mut bind_one = |p: &Param, a: DType| -> Result<()> {
            match &p.ty {
                ParamType::DType(d) if *d != a => Err(Error::DType(format!(
                    "Type is mismatched. {} {} {}",
                    p.name, a, d
                ))),
                ParamType::DType(_) => Ok(()),
                ParamType::Placeholder(t) => match bound.iter().find(|(n, _)| n == t) {
                    Some((_, d)) if *d != a => Err(Error::DType(format!(
                        "Type is mismatched. {} {} {} {}",
                        p.name, a, d, t
                    ))),
                    Some(_) => Ok(()),
                    None => {
                        bound.push((t.clone(), a));
                        Ok(())
                    }
                },
            }
        };
        for (p, &a) in self.outputs.iter().zip(outputs) {
            bind_one(p, a)?;
        }
        for (p, a) in self.inputs.iter().zip(inputs) {
            if let Operand::Array(d) = a {
                bind_one(p, *d)?;
            }
        }
        // Placeholders seen only through weak scalars.
        for t in self.placeholders() {
            if bound.iter().any(|(n, _)| n == t) {
                continue;
            }
            let kinds: Vec<Operand> = self
                .inputs
                .iter()
                .zip(inputs)
                .filter(|(p, a)| {
                    matches!(&p.ty, ParamType::Placeholder(x) if x == t)
                        && matches!(a, Operand::Scalar(_))
                })
                .map(|(_, a)| *a)
                .collect();
            if kinds.is_empty() {
                return Err(Error::DType(format!(
                    "Cannot determine the type of placeholder '{t}' (pass output arrays)"
                )));
            }
            bound.push((t.to_owned(), result_type(&kinds)?));
        }
        let resolve = |p: &Param| match &p.ty {
            ParamType::DType(d) => *d,
            ParamType::Placeholder(t) => {
                bound
                    .iter()
                    .find(|(n, _)| n == t)
                    .expect("every placeholder is bound")
                    .1
            }
        };
        let ins = self.inputs.iter().map(resolve).collect();
        let outs = self.outputs.iter().map(resolve).collect();
        bound.sort();
        Ok(BoundTypes {
            inputs: ins,
            outputs: outs,
            placeholders: bound,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::ScalarKind;

    #[test]
    fn parses_cupy_examples() {
        let l = ParamList::parse("float32 x, float32 y", "float32 z").unwrap();
        assert_eq!(l.inputs.len(), 2);
        assert_eq!(l.inputs[0].ty, ParamType::DType(DType::Float32));
        assert_eq!(l.outputs[0].name, "z");
        let l = ParamList::parse("T x, raw T y", "T z").unwrap();
        assert!(l.inputs[1].raw);
        assert_eq!(l.inputs[1].ty, ParamType::Placeholder("T".into()));
        assert_eq!(l.placeholders(), vec!["T"]);
        let l = ParamList::parse("X x, Y y", "Z z").unwrap();
        assert_eq!(l.placeholders(), vec!["X", "Y", "Z"]);
        let l = ParamList::parse("  TIn a ,int64   b", "bool c").unwrap();
        assert_eq!(l.inputs[0].ty, ParamType::Placeholder("TIn".into()));
        assert_eq!(l.inputs[1].ty, ParamType::DType(DType::Int64));
        assert_eq!(l.outputs[0].to_string(), "bool c");
        assert_eq!(ParamList::parse("", "T z").unwrap().inputs, vec![]);
    }

    #[test]
    fn rejects_bad_params() {
        let err = |i: &str, o: &str| ParamList::parse(i, o).unwrap_err().to_string();
        assert_eq!(err("float32", "T z"), "Syntax error: float32");
        assert_eq!(err("flaot32 x", "T z"), "Wrong type flaot32");
        assert_eq!(err("const T x", "T z"), "Unknown keyword \"const\"");
        assert!(err("T i", "T z").starts_with("Can not use 'i' as a parameter name"));
        assert!(err("T n", "T z").contains("reserved"));
        assert!(err("T _x", "T z").contains("reserved"));
        assert!(err("T _raw_x", "T z").contains("reserved"));
        assert_eq!(err("T 1x", "T z"), "Invalid parameter name '1x'");
        assert_eq!(err("T x", "T x"), "Duplicated parameter name 'x'");
        assert_eq!(err("T x", ""), "Output parameter list must not be empty");
        assert_eq!(err("? x", "T z"), "Wrong type ?");
    }

    #[test]
    fn binds_outputs_then_inputs() {
        use DType::*;
        let a = Operand::Array;
        let l = ParamList::parse("T x, T y", "T z").unwrap();
        let b = l.bind(&[a(Float32), a(Float32)], &[]).unwrap();
        assert_eq!(b.outputs, vec![Float32]);
        assert_eq!(b.placeholders, vec![("T".into(), Float32)]);
        // A scalar takes the placeholder's type.
        let b = l
            .bind(&[a(Float32), Operand::Scalar(ScalarKind::Float)], &[])
            .unwrap();
        assert_eq!(b.inputs, vec![Float32, Float32]);
        // Outputs decide first, so a mismatching input is the error.
        assert_eq!(
            l.bind(&[a(Float32), a(Float32)], &[Float64])
                .unwrap_err()
                .to_string(),
            "Type is mismatched. x float32 float64 T"
        );
        assert_eq!(
            l.bind(&[a(Float32), a(Int32)], &[])
                .unwrap_err()
                .to_string(),
            "Type is mismatched. y int32 float32 T"
        );
        let l = ParamList::parse("float32 x, raw T y", "T z").unwrap();
        assert_eq!(
            l.bind(&[a(Float64), a(Int8)], &[]).unwrap_err().to_string(),
            "Type is mismatched. x float64 float32"
        );
        let b = l
            .bind(&[Operand::Scalar(ScalarKind::Int), a(Int8)], &[])
            .unwrap();
        assert_eq!(b.inputs, vec![Float32, Int8]);
        // Z only from outputs.
        let l = ParamList::parse("X x, Y y", "Z z").unwrap();
        assert!(
            l.bind(&[a(Int8), a(Float32)], &[])
                .unwrap_err()
                .to_string()
                .contains("'Z'")
        );
        let b = l.bind(&[a(Int8), a(Float32)], &[Float64]).unwrap();
        assert_eq!(
            b.placeholders,
            vec![
                ("X".into(), Int8),
                ("Y".into(), Float32),
                ("Z".into(), Float64)
            ]
        );
        // Only weak scalars: NumPy's default types.
        let l = ParamList::parse("T x, T y", "T z").unwrap();
        let b = l
            .bind(
                &[
                    Operand::Scalar(ScalarKind::Int),
                    Operand::Scalar(ScalarKind::Float),
                ],
                &[],
            )
            .unwrap();
        assert_eq!(b.outputs, vec![Float64]);
        assert!(l.bind(&[a(Float32)], &[]).is_err());
    }
}
