//! [`Reduction`]: the one way a built-in reduction kernel is described,
//! the reduction engine's counterpart of [`crate::elementwise::Elementwise`].
//!
//! Each operand is listed once with its value; the spec's parameters, the
//! launch's inputs and outputs (in the same order) and the kernel's name
//! come from that one list, and the same description renders the kernel
//! for the NVRTC tests and precompilation when the operands are given as
//! dtypes ([`Reduction::spec`]).
//!
//! ```no_run
//! # fn main() -> gpu_array::Result<()> {
//! use gpu_array::reduction::Reduction;
//! use gpu_array::{Array, DType};
//!
//! let x = Array::from_vec(vec![1.0f32, -2.0, 3.0])?;
//! let y = Array::empty(&[], DType::Float32)?;
//! // The sum of absolute values, accumulated in float32.
//! Reduction::new("abs_sum")
//!     .input("x", &x)
//!     .output("y", &y)
//!     .map("cuprum::absolute(x)")
//!     .reduce("a + b")
//!     .post("y = cuprum::cast<y_type>(a)")
//!     .identity("0")
//!     .accumulate(DType::Float32)
//!     .launch("abs_sum", &[0])?;
//! # Ok(())
//! # }
//! ```
//!
//! Names: `cuprum_<name>_<operand tags>_<accumulator tag>_<variant>`, the
//! operand tags as the elementwise builder's.

use std::borrow::Cow;

use smallvec::SmallVec;

use super::launch::{RedInput, launch};
use super::spec::{AccStruct, ReductionSpec, Variant};
use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{Bind, SpecParam, dtype_tag, raw_ndim};
use crate::error::{Error, Result};

/// A spec made by the caller for a plan's variant (the user-kernel and
/// fusion front ends).
type SpecFn<'a> = dyn Fn(Variant) -> Result<ReductionSpec> + 'a;

/// One built-in reduction kernel and its operands (see the module docs).
pub struct Reduction<'a> {
    name: Cow<'static, str>,
    params: SmallVec<[SpecParam; 4]>,
    /// One per input parameter; `None` where it is described by dtype.
    inputs: SmallVec<[Option<RedInput<'a>>; 3]>,
    /// One per output parameter; `None` where it is described by dtype.
    outputs: SmallVec<[Option<&'a Array>; 2]>,
    map: Cow<'static, str>,
    reduce: Cow<'static, str>,
    post: Cow<'static, str>,
    identity: Option<Cow<'static, str>>,
    accumulate: Option<DType>,
    acc_struct: Option<AccStruct>,
    preamble: Cow<'static, str>,
    options: Vec<String>,
    aliases: Vec<(String, DType)>,
    spec_fn: Option<Box<SpecFn<'a>>>,
}

impl std::fmt::Debug for Reduction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reduction")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<'a> Reduction<'a> {
    /// A reduction named `cuprum_<name>_...` (see the module docs), with
    /// no identity until [`Reduction::identity`] and accumulating in the
    /// first output's dtype until [`Reduction::accumulate`].
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sumsq").input("x", DType::Float32).output("y", DType::Float32)
    ///     .map("x * x").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert!(spec.name.starts_with("cuprum_sumsq_"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn new(name: impl Into<Cow<'static, str>>) -> Reduction<'a> {
        Reduction {
            name: name.into(),
            params: SmallVec::new(),
            inputs: SmallVec::new(),
            outputs: SmallVec::new(),
            map: Cow::Borrowed(""),
            reduce: Cow::Borrowed(""),
            post: Cow::Borrowed(""),
            identity: None,
            accumulate: None,
            acc_struct: None,
            preamble: Cow::Borrowed(""),
            options: Vec::new(),
            aliases: Vec::new(),
            spec_fn: None,
        }
    }

    fn push_input(mut self, param: SpecParam, value: Option<RedInput<'a>>) -> Self {
        self.params.push(param);
        self.inputs.push(value);
        self
    }

    /// An input array, broadcast with the other array inputs and reduced.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("dot").input("x", DType::Float64).input("w", DType::Float64).output("y", DType::Float64)
    ///     .map("x * w").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.array_inputs().count(), 2);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn input(self, name: &str, x: impl Into<Bind<'a>>) -> Self {
        let b = x.into();
        let value = match b {
            Bind::Array(a) => Some(RedInput::Array(a)),
            Bind::Dtype(..) => None,
        };
        self.push_input(SpecParam::input(name, b.dtype()), value)
    }

    /// A `raw` input, indexed by the map expression (`x[_in_ind.get()]`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Bind, IndexWidth, Role};
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("weighted").input("x", DType::Float32).raw("w", Bind::Dtype(DType::Float32, 1))
    ///     .output("y", DType::Float32)
    ///     .map("x * w[_in_ind.get()]").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.params[1].role, Role::Raw { ndim: 1 });
    /// assert!(spec.has_raw());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn raw(self, name: &str, x: impl Into<Bind<'a>>) -> Self {
        let b = x.into();
        let (ndim, value) = match b {
            Bind::Array(a) => (raw_ndim(a), Some(RedInput::Raw(a))),
            Bind::Dtype(_, n) => (n.max(1), None),
        };
        self.push_input(SpecParam::raw(name, b.dtype(), ndim, false), value)
    }

    /// A scalar input in `dtype`, converted from `value` as NumPy converts
    /// a Python scalar.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{IndexWidth, Role};
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("count_above").input("x", DType::Float32).scalar("t", DType::Float32, 0.5)
    ///     .output("y", DType::Int64).accumulate(DType::Int64)
    ///     .map("x > t").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.params[1].role, Role::Scalar);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn scalar(self, name: &str, dtype: DType, value: impl Into<ScalarValue>) -> Self {
        let bytes = crate::ufunc::scalar_to_bytes(value.into(), dtype);
        self.scalar_bytes(name, dtype, bytes)
    }

    /// A scalar input already in `dtype`'s bytes.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{IndexWidth, Role};
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum_plus").input("x", DType::Int32)
    ///     .scalar_bytes("k", DType::Int32, 5i32.to_le_bytes().to_vec())
    ///     .output("y", DType::Int32)
    ///     .map("x + k").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!((spec.params[1].role, spec.params[1].dtype), (Role::Scalar, DType::Int32));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn scalar_bytes(self, name: &str, dtype: DType, bytes: Vec<u8>) -> Self {
        self.push_input(
            SpecParam::scalar(name, dtype),
            Some(RedInput::Scalar(bytes)),
        )
    }

    /// An output array (the kept shape, or it with the reduced axes as 1).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum").input("x", DType::Int8).output("y", DType::Int64)
    ///     .map("x").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.reduce_type, DType::Int64); // the first output's dtype by default
    /// assert_eq!(spec.outputs().collect::<Vec<_>>(), [1]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn output(mut self, name: &str, y: impl Into<Bind<'a>>) -> Self {
        let b = y.into();
        self.params.push(SpecParam::output(name, b.dtype()));
        self.outputs.push(match b {
            Bind::Array(a) => Some(a),
            Bind::Dtype(..) => None,
        });
        self
    }

    /// Maps one element's inputs to the value reduced.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("l1").input("x", DType::Float32).output("y", DType::Float32)
    ///     .map("fabsf(x)").reduce("a + b").post("y = a").identity("0");
    /// assert_eq!(r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?.map_expr, "fabsf(x)");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn map(mut self, expr: impl Into<Cow<'static, str>>) -> Self {
        self.map = expr.into();
        self
    }

    /// Combines accumulators `a` and `b`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("top").input("x", DType::Int32).output("y", DType::Int32)
    ///     .map("x").reduce("max(a, b)").post("y = a");
    /// assert_eq!(r.spec(Variant::new(Strategy::WarpPerRow, 1, 1, IndexWidth::I32))?.reduce_expr, "max(a, b)");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn reduce(mut self, expr: impl Into<Cow<'static, str>>) -> Self {
        self.reduce = expr.into();
        self
    }

    /// Writes the outputs from the accumulator `a`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("rms").input("x", DType::Float64).output("y", DType::Float64)
    ///     .map("x * x").reduce("a + b").post("y = sqrt(a / _in_ind.size() * _out_ind.size())").identity("0");
    /// assert!(r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?.post_map_expr.starts_with("y = sqrt"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn post(mut self, stmt: impl Into<Cow<'static, str>>) -> Self {
        self.post = stmt.into();
        self
    }

    /// The identity as C++ text (none: an empty reduction is an error).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// let base = || Reduction::new("s").input("x", DType::Int32).output("y", DType::Int32).map("x").reduce("a + b").post("y = a");
    /// assert_eq!(base().identity("0").spec(v)?.identity.as_deref(), Some("0"));
    /// assert_eq!(base().spec(v)?.identity, None); // an empty reduction is then an error
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn identity(mut self, expr: impl Into<Cow<'static, str>>) -> Self {
        self.identity = Some(expr.into());
        self
    }

    /// The accumulator's dtype (with [`Reduction::acc_struct`]: the dtype
    /// of the struct's values).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("mean16").input("x", DType::Float16).output("y", DType::Float16)
    ///     .accumulate(DType::Float32)
    ///     .map("x").reduce("a + b").post("y = a / (_in_ind.size() / _out_ind.size())").identity("0");
    /// assert_eq!(r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?.reduce_type, DType::Float32);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn accumulate(mut self, dtype: DType) -> Self {
        self.accumulate = Some(dtype);
        self
    }

    /// A struct accumulator (argmax's index and value, var's moments).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{AccStruct, Reduction, Strategy, Variant};
    /// let acc = AccStruct::layout("cuprum::ArgAcc<float>", &[(8, 8), (4, 4)]); // index, value
    /// let r = Reduction::new("my_argmax").input("x", DType::Float32).output("y", DType::Int64)
    ///     .accumulate(DType::Float32).acc_struct(acc)
    ///     .map("cuprum::ArgAcc<float>{_in_ind.get(), x}").reduce("a.val >= b.val ? a : b").post("y = a.idx");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.reduce_c_type(), "cuprum::ArgAcc<float>");
    /// assert_eq!(spec.reduce_size(), 16);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn acc_struct(mut self, st: AccStruct) -> Self {
        self.acc_struct = Some(st);
        self
    }

    /// Code before the kernel (device helpers).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sumsq").input("x", DType::Float32).output("y", DType::Float32)
    ///     .preamble("__device__ float sq(float v) { return v * v; }")
    ///     .map("sq(x)").reduce("a + b").post("y = a").identity("0");
    /// assert!(r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?.render().contains("float sq(float v)"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn preamble(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.preamble = text.into();
        self
    }

    /// An extra NVRTC option.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum").input("x", DType::Float32).output("y", DType::Float32)
    ///     .map("x").reduce("a + b").post("y = a").identity("0").option("--fmad=false");
    /// assert_eq!(r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?.options, ["--fmad=false"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn option(mut self, option: &str) -> Self {
        self.options.push(option.to_owned());
        self
    }

    /// A typedef `name` for `dtype` in the kernel.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum").input("x", DType::Int8).output("y", DType::Int64).alias("Acc", DType::Int64)
    ///     .map("Acc(x)").reduce("a + b").post("y = a").identity("0");
    /// let spec = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.type_aliases, [("Acc".to_string(), DType::Int64)]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn alias(mut self, name: &str, dtype: DType) -> Self {
        self.aliases.push((name.to_owned(), dtype));
        self
    }

    /// The whole spec made by the caller for a variant (user kernels and
    /// fusion); its parameters must be the operands listed here, in order.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum").input("x", DType::Float32).output("y", DType::Float32)
    ///     .spec_with(|v| Ok(Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v)));
    /// let v = Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I32);
    /// assert_eq!(r.spec(v)?.strategy, Strategy::TwoPass);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn spec_with(mut self, make: impl Fn(Variant) -> Result<ReductionSpec> + 'a) -> Self {
        self.spec_fn = Some(Box::new(make));
        self
    }

    /// The spec for the planner's `variant`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Reduction, Strategy, Variant};
    /// let r = Reduction::new("sum").input("x", DType::Float32).output("y", DType::Float32)
    ///     .map("x").reduce("a + b").post("y = a").identity("0");
    /// let a = r.spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32))?;
    /// let b = r.spec(Variant::new(Strategy::Column, 1, 2, IndexWidth::I64))?;
    /// assert_ne!(a.name, b.name); // one kernel per variant
    /// assert!(Reduction::new("none").input("x", DType::Float32).spec(Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32)).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// No output; a caller's spec failed or does not list these operands.
    pub fn spec(&self, v: Variant) -> Result<ReductionSpec> {
        if let Some(make) = &self.spec_fn {
            let s = make(v)?;
            crate::elementwise::check_operands(&s.name, &s.params, &self.params)?;
            return Ok(s);
        }
        let first_out = self
            .params
            .iter()
            .find(|p| p.is_output)
            .ok_or_else(|| Error::Value(format!("reduction {} has no output", self.name)))?;
        let reduce_type = self.accumulate.unwrap_or(first_out.dtype);
        let mut s = ReductionSpec {
            name: String::new(),
            params: self.params.to_vec(),
            type_aliases: self.aliases.clone(),
            reduce_type,
            reduce_struct: self.acc_struct.clone(),
            map_expr: self.map.to_string(),
            reduce_expr: self.reduce.to_string(),
            post_map_expr: self.post.to_string(),
            identity: self.identity.as_ref().map(|i| i.to_string()),
            preamble: self.preamble.to_string(),
            options: self.options.clone(),
            out_ndim: v.out_ndim,
            red_ndim: v.red_ndim,
            index: v.index,
            strategy: v.strategy,
            vector: v.vector,
            block: super::BLOCK,
        };
        s.name = format!(
            "cuprum_{}_{}_{}_{}",
            self.name,
            crate::elementwise::operand_tags(&self.params),
            dtype_tag(reduce_type),
            s.variant_tag()
        );
        Ok(s)
    }

    /// Reduces over `axes` (normalised, ascending) on the current stream of
    /// the first array's device; `op_name` names the operation in errors
    /// ("zero-size array to reduction operation `op_name` which has no
    /// identity").
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::reduction::Reduction;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?;
    /// let y = Array::empty(2, DType::Float32)?;
    /// Reduction::new("rowsum").input("x", &x).output("y", &y)
    ///     .map("x").reduce("a + b").post("y = a").identity("0")
    ///     .launch("add", &[1])?;
    /// assert_eq!(y.to_vec::<f32>()?, [3.0, 7.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An operand described by dtype only; shapes, devices or outputs that
    /// do not fit; compilation or launch failures.
    pub fn launch(&self, op_name: &str, axes: &[usize]) -> Result<()> {
        let unbound = || {
            Error::Value(format!(
                "reduction {}: an operand is described by its dtype only and cannot be launched",
                self.name
            ))
        };
        let mut inputs: SmallVec<[RedInput<'a>; 3]> = SmallVec::new();
        for (i, p) in self.inputs.iter().zip(&self.params) {
            let i = i.clone().ok_or_else(unbound)?;
            if let RedInput::Scalar(b) = &i
                && b.len() != p.dtype.itemsize()
            {
                return Err(Error::Value(format!(
                    "reduction {}: scalar '{}' has {} bytes, {} needs {}",
                    self.name,
                    p.name,
                    b.len(),
                    p.dtype.name(),
                    p.dtype.itemsize()
                )));
            }
            inputs.push(i);
        }
        let outputs: SmallVec<[&Array; 2]> = self
            .outputs
            .iter()
            .map(|o| o.ok_or_else(unbound))
            .collect::<Result<_>>()?;
        launch(op_name, &inputs, &outputs, axes, |v| self.spec(v))
    }
}

impl<'a> crate::elementwise::Operands<'a> for Reduction<'a> {
    fn input(self, name: &str, x: Bind<'a>) -> Self {
        Reduction::input(self, name, x)
    }
    fn scalar_bytes(self, name: &str, dtype: DType, bytes: Vec<u8>) -> Self {
        Reduction::scalar_bytes(self, name, dtype, bytes)
    }
    fn output(self, name: &str, y: Bind<'a>) -> Self {
        Reduction::output(self, name, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elementwise::IndexWidth;
    use crate::reduction::Strategy;

    #[test]
    fn one_list_gives_the_parameters_and_the_name() {
        let r = Reduction::new("t_var")
            .input("x", DType::Float32)
            .scalar("ddof", DType::Float64, 1.0)
            .output("y", DType::Float32)
            .map("x")
            .reduce("a + b")
            .post("y = a")
            .identity("0")
            .accumulate(DType::Float64);
        let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
        let s = r.spec(v).unwrap();
        assert!(
            s.name.starts_with("cuprum_t_var_f4sf8_f4_f8_"),
            "{}",
            s.name
        );
        assert_eq!(s.params[1], SpecParam::scalar("ddof", DType::Float64));
        assert_eq!(s.reduce_type, DType::Float64);
        assert_eq!(s.identity.as_deref(), Some("0"));
        let e = r.launch("t_var", &[0]).unwrap_err().to_string();
        assert!(e.contains("dtype only"), "{e}");
    }
}
