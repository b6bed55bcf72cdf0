//! [`Elementwise`]: the one way a built-in elementwise kernel is described.
//!
//! Each operand is listed once, with its value: the builder makes from
//! that one list the spec's parameters (so the CUDA signature), the launch
//! arguments in the same order, the kernel's name and the key of the
//! launcher's fast cache. An int32 and a float32 operand cannot be swapped
//! between the signature and the packing, because there is only one list.
//!
//! ```no_run
//! # fn main() -> gpu_array::Result<()> {
//! use gpu_array::elementwise::Elementwise;
//! use gpu_array::{Array, DType};
//!
//! let x = Array::from_vec(vec![1.0f32, 2.0, 3.0])?;
//! let y = Array::empty(&[3], DType::Float32)?;
//! // y = x * f + 1, with f a float64 scalar converted per element.
//! Elementwise::new("axpb")
//!     .input("x", &x)
//!     .scalar("f", DType::Float64, 2.0)
//!     .output("y", &y)
//!     .op("y = cuprum::cast<y_type>(x * f + 1.0);")
//!     .launch(y.shape())?;
//! # Ok(())
//! # }
//! ```
//!
//! The same function that launches a kernel can describe it without arrays
//! ([`Bind::Dtype`] in place of an array), which is how the NVRTC tests and
//! `cargo xtask precompile` render exactly the source the launch compiles
//! ([`Elementwise::spec`]).
//!
//! Names: the kernel is `cuprum_<name>_<operand tags>_<variant>`, the
//! operand tags being each input's dtype tag (`s` before a scalar's, `r`
//! and its dimensions before a raw operand's), `_`, each output's. The name given to
//! [`Elementwise::new`] and the operands' dtypes and roles must decide the
//! operation text, preamble and options: they key the launcher's cache of
//! compiled kernels (debug builds check it on every hit).

use std::borrow::Cow;
use std::fmt::Write as _;

use smallvec::SmallVec;

use super::launch::{FastKey, LaunchArg, Prepared, prepare_keyed, raw_ndim};
use super::{ElementwiseSpec, IndexWidth, LayoutClass, Role, SpecParam, dtype_tag};
use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::error::{Error, Result};

/// What an array operand of an [`Elementwise`] is bound to.
#[derive(Clone, Copy, Debug)]
pub enum Bind<'a> {
    /// An array: a launch.
    Array(&'a Array),
    /// Only a dtype: a description for rendering (tests, precompilation);
    /// a raw operand gets this many dimensions.
    Dtype(DType, usize),
}

impl Bind<'_> {
    /// The operand's dtype.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::Bind;
    /// assert_eq!(Bind::Dtype(DType::Int16, 1).dtype(), DType::Int16);
    /// ```
    pub fn dtype(&self) -> DType {
        match self {
            Bind::Array(a) => a.dtype(),
            Bind::Dtype(d, _) => *d,
        }
    }
}

impl<'a> From<&'a Array> for Bind<'a> {
    fn from(a: &'a Array) -> Bind<'a> {
        Bind::Array(a)
    }
}

impl From<DType> for Bind<'_> {
    fn from(d: DType) -> Self {
        Bind::Dtype(d, 1)
    }
}

/// One operand's value for the launch.
#[derive(Clone, Debug)]
enum Value<'a> {
    Array(&'a Array),
    Scalar(Vec<u8>),
    /// Described by dtype only: the kernel can be rendered, not launched.
    Unbound,
}

/// A spec made by the caller for a layout and index width (the user-kernel
/// and fusion front ends, whose source is not one operation string).
type SpecFn<'a> = dyn Fn(LayoutClass, IndexWidth) -> Result<ElementwiseSpec> + 'a;

/// Where the operation text comes from.
enum Op<'a> {
    /// Given outright.
    Text(Cow<'static, str>),
    /// Made on a cache miss only (the ufunc loops, whose text costs more to
    /// assemble than a launch).
    Lazy(Box<dyn Fn() -> Result<String> + 'a>),
    /// The whole spec from the caller; the builder checks that its
    /// parameters are the listed operands.
    Spec(Box<SpecFn<'a>>),
}

/// One built-in elementwise kernel and its operands (see the module docs).
pub struct Elementwise<'a> {
    name: Cow<'static, str>,
    params: SmallVec<[SpecParam; 6]>,
    values: SmallVec<[Value<'a>; 6]>,
    op: Op<'a>,
    preamble: Cow<'static, str>,
    options: Vec<String>,
    aliases: Vec<(String, DType)>,
    read_outputs: bool,
    /// Whether the contiguous and strided paths may take their vector
    /// variants (`Elementwise::scalar_loop` clears it).
    vector: bool,
    /// `Elementwise::max_registers`.
    max_registers: Option<u32>,
}

impl std::fmt::Debug for Elementwise<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Elementwise")
            .field("name", &self.name)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

impl<'a> Elementwise<'a> {
    /// A kernel named `cuprum_<name>_...` (see the module docs), whose
    /// outputs are written, not read, until [`Elementwise::reads_outputs`].
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let k = Elementwise::new("twice").input("x", DType::Float32).output("y", DType::Float32).op("y = 2 * x");
    /// let spec = k.spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert!(spec.name.starts_with("cuprum_twice_"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn new(name: impl Into<Cow<'static, str>>) -> Elementwise<'a> {
        Elementwise {
            name: name.into(),
            params: SmallVec::new(),
            values: SmallVec::new(),
            op: Op::Text(Cow::Borrowed("")),
            preamble: Cow::Borrowed(""),
            options: Vec::new(),
            aliases: Vec::new(),
            read_outputs: false,
            vector: true,
            max_registers: None,
        }
    }

    fn push(mut self, param: SpecParam, value: Value<'a>) -> Self {
        self.params.push(param);
        self.values.push(value);
        self
    }

    fn bound(b: Bind<'a>) -> Value<'a> {
        match b {
            Bind::Array(a) => Value::Array(a),
            Bind::Dtype(..) => Value::Unbound,
        }
    }

    /// An input array iterated elementwise, broadcast to the launch shape.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass, Role};
    /// let spec = Elementwise::new("neg").input("x", DType::Int32).output("y", DType::Int32).op("y = -x")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!((spec.params[0].role, spec.params[0].is_output), (Role::Array, false));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn input(self, name: &str, x: impl Into<Bind<'a>>) -> Self {
        let b = x.into();
        self.push(SpecParam::input(name, b.dtype()), Self::bound(b))
    }

    /// An output array iterated elementwise (exactly the launch shape).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("neg").input("x", DType::Int32).output("y", DType::Int64).op("y = -x")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert!(spec.params[1].is_output && spec.params[1].dtype == DType::Int64);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn output(self, name: &str, y: impl Into<Bind<'a>>) -> Self {
        let b = y.into();
        self.push(SpecParam::output(name, b.dtype()), Self::bound(b))
    }

    /// A `raw` input, indexed by the operation with a C-order linear index.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Bind, Elementwise, IndexWidth, LayoutClass, Role};
    /// let spec = Elementwise::new("reverse")
    ///     .raw("x", Bind::Dtype(DType::Float32, 1))
    ///     .output("y", DType::Float32)
    ///     .op("y = x[_ind.size() - i - 1]")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.params[0].role, Role::Raw { ndim: 1 });
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn raw(self, name: &str, x: impl Into<Bind<'a>>) -> Self {
        self.raw_operand(name, x.into(), false)
    }

    /// A `raw` output.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Bind, Elementwise, IndexWidth, LayoutClass, Role};
    /// let spec = Elementwise::new("scatter")
    ///     .input("x", DType::Float32)
    ///     .raw_output("y", Bind::Dtype(DType::Float32, 1))
    ///     .op("y[2 * i] = x")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert!(spec.params[1].is_output && spec.params[1].role == Role::Raw { ndim: 1 });
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn raw_output(self, name: &str, y: impl Into<Bind<'a>>) -> Self {
        self.raw_operand(name, y.into(), true)
    }

    fn raw_operand(self, name: &str, b: Bind<'a>, is_output: bool) -> Self {
        let ndim = match b {
            Bind::Array(a) => raw_ndim(a),
            Bind::Dtype(_, n) => n.max(1),
        };
        self.push(
            SpecParam::raw(name, b.dtype(), ndim, is_output),
            Self::bound(b),
        )
    }

    /// A scalar passed by value in `dtype`, converted from `value` as NumPy
    /// converts a Python scalar.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass, Role};
    /// let spec = Elementwise::new("shift").input("x", DType::Int32).scalar("k", DType::Int32, 3).output("y", DType::Int32)
    ///     .op("y = x + k")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.params[1].role, Role::Scalar);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn scalar(self, name: &str, dtype: DType, value: impl Into<ScalarValue>) -> Self {
        let bytes = crate::ufunc::scalar_to_bytes(value.into(), dtype);
        self.push(SpecParam::scalar(name, dtype), Value::Scalar(bytes))
    }

    /// A scalar already in `dtype`'s bytes (little-endian, `itemsize`
    /// of them; checked at launch).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass, Role};
    /// let spec = Elementwise::new("shift").input("x", DType::Int16)
    ///     .scalar_bytes("k", DType::Int16, 7i16.to_le_bytes().to_vec())
    ///     .output("y", DType::Int16)
    ///     .op("y = x + k")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!((spec.params[1].role, spec.params[1].dtype), (Role::Scalar, DType::Int16));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn scalar_bytes(self, name: &str, dtype: DType, bytes: Vec<u8>) -> Self {
        self.push(SpecParam::scalar(name, dtype), Value::Scalar(bytes))
    }

    /// The loop body, run once per element (see [`ElementwiseSpec`] for
    /// what it sees).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("half").input("x", DType::Float64).output("y", DType::Float64).op("y = x / 2")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.operation, "y = x / 2");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn op(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.op = Op::Text(text.into());
        self
    }

    /// The loop body made only when the kernel is not cached yet.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("pow3").input("x", DType::Float32).output("y", DType::Float32)
    ///     .op_with(|| Ok(format!("y = {}", ["x"; 3].join(" * "))))
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.operation, "y = x * x * x");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn op_with(mut self, make: impl Fn() -> Result<String> + 'a) -> Self {
        self.op = Op::Lazy(Box::new(make));
        self
    }

    /// The whole spec made by the caller for a layout and index width (the
    /// user-kernel and fusion front ends); its parameters must be the
    /// operands listed here, in order.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let k = Elementwise::new("copy").input("x", DType::UInt8).output("y", DType::UInt8).spec_with(|layout, index| {
    ///     let params = vec![SpecParam::input("x", DType::UInt8), SpecParam::output("y", DType::UInt8)];
    ///     Ok(ElementwiseSpec::new("my_copy", params, "y = x", layout, index))
    /// });
    /// assert_eq!(k.spec(LayoutClass::Strided { ndim: 2 }, IndexWidth::I64)?.name, "my_copy");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn spec_with(
        mut self,
        make: impl Fn(LayoutClass, IndexWidth) -> Result<ElementwiseSpec> + 'a,
    ) -> Self {
        self.op = Op::Spec(Box::new(make));
        self
    }

    /// Code before the kernel (device helpers).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("sq").input("x", DType::Float32).output("y", DType::Float32)
    ///     .preamble("__device__ float sq(float v) { return v * v; }")
    ///     .op("y = sq(x)")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert!(spec.render().contains("__device__ float sq"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn preamble(mut self, text: impl Into<Cow<'static, str>>) -> Self {
        self.preamble = text.into();
        self
    }

    /// An extra NVRTC option (e.g. `--fmad=false`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("fma").input("x", DType::Float32).output("y", DType::Float32)
    ///     .op("y = x * x + 1")
    ///     .option("--fmad=false")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.options, ["--fmad=false"]);
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
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let spec = Elementwise::new("widen").input("x", DType::Int8).output("y", DType::Int32)
    ///     .alias("Acc", DType::Int32)
    ///     .op("y = Acc(x) * 2")
    ///     .spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.type_aliases, [("Acc".to_string(), DType::Int32)]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn alias(mut self, name: &str, dtype: DType) -> Self {
        self.aliases.push((name.to_owned(), dtype));
        self
    }

    /// The operation reads its outputs before writing them (`y += x`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let k = Elementwise::new("acc").input("x", DType::Float32).output("y", DType::Float32).op("y += x");
    /// assert!(!k.spec(LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32)?.read_outputs);
    /// let k = k.reads_outputs();
    /// assert!(k.spec(LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32)?.read_outputs);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn reads_outputs(mut self) -> Self {
        self.read_outputs = true;
        self
    }

    /// One element a thread even where the operands would allow the
    /// vector loop (several elements a thread, 16-byte accesses), for
    /// bodies bound by their arithmetic: the vector loop inlines the body
    /// once per element of a vector and once more for the tail, and a
    /// long body (a special function's branches) then runs out of the
    /// instruction cache. On the H200, `scipy.special.j0` of 2^27 float64
    /// took 0.922 ms as one copy against 1.000 as the vector loop's three
    /// (bench/gpu/j0_variants.py; CuPy 0.938). Results are the same bits.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::elementwise::Elementwise;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f64, 2.0], &[2])?;
    /// let y = Array::empty(2, DType::Float64)?;
    /// Elementwise::new("bessel").input("x", &x).output("y", &y).op("y = j0(x)")
    ///     .scalar_loop()
    ///     .launch(&[2])?;
    /// # Ok(()) }
    /// ```
    pub fn scalar_loop(mut self) -> Self {
        self.vector = false;
        self
    }

    /// Caps the kernel's registers a thread at `n` (`__maxnreg__(n)`, 16
    /// to 255; [`ElementwiseSpec::max_registers`]): for a body whose rare
    /// path would otherwise set every thread's count, and with it the warps
    /// a multiprocessor holds. A spec from `Elementwise::spec_with`'s
    /// caller keeps its own.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let k = Elementwise::new("lg").input("x", DType::Float32).output("y", DType::Float32)
    ///     .op("y = lgammaf(x)").max_registers(32);
    /// let spec = k.spec(LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32)?;
    /// assert_eq!(spec.max_registers, Some(32));
    /// assert!(spec.render().contains("__maxnreg__(32)"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn max_registers(mut self, n: u32) -> Self {
        self.max_registers = Some(n);
        self
    }

    /// `cuprum_<name>_<operand tags>`, the kernel name without its variant.
    fn full_name(&self) -> String {
        format!("cuprum_{}_{}", self.name, operand_tags(&self.params))
    }

    /// The spec this kernel compiles to for `layout` and `index`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Elementwise, IndexWidth, LayoutClass};
    /// let k = Elementwise::new("neg").input("x", DType::Float32).output("y", DType::Float32).op("y = -x");
    /// let a = k.spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// let b = k.spec(LayoutClass::Strided { ndim: 2 }, IndexWidth::I64)?;
    /// assert_ne!(a.name, b.name); // one kernel per layout and index width
    /// // `n` is the generated code's element count: refused here, where
    /// // the host-side tests (NVRTC compiles) see it, not at launch only.
    /// let bad = Elementwise::new("f").input("n", DType::Float32).output("y", DType::Float32).op("y = n");
    /// assert!(bad.spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// A lazy operation or a caller's spec failed, or the caller's spec's
    /// parameters are not the listed operands; an invalid spec (as
    /// [`ElementwiseSpec::validate`]: reserved or repeated names).
    pub fn spec(&self, layout: LayoutClass, index: IndexWidth) -> Result<ElementwiseSpec> {
        let operation = match &self.op {
            Op::Text(t) => t.to_string(),
            Op::Lazy(make) => make()?,
            Op::Spec(make) => {
                let s = make(layout, index)?;
                check_operands(&s.name, &s.params, &self.params)?;
                return Ok(s);
            }
        };
        let mut s = ElementwiseSpec::new(
            String::new(),
            self.params.to_vec(),
            operation,
            layout,
            index,
        );
        s.name = format!("{}_{}", self.full_name(), s.variant_tag());
        s.preamble = self.preamble.to_string();
        s.options = self.options.clone();
        s.max_registers = self.max_registers;
        s.type_aliases = self.aliases.clone();
        s.read_outputs = self.read_outputs;
        s.validate()?;
        Ok(s)
    }

    /// The fast cache's key: the name and each operand's dtype and role.
    fn key(&self) -> FastKey {
        FastKey {
            name: self.name.clone(),
            operands: self
                .params
                .iter()
                .map(|p| (p.dtype, p.role, p.is_output))
                .collect(),
        }
    }

    /// The launch arguments, in operand order.
    fn args(&self) -> Result<SmallVec<[LaunchArg<'a>; 6]>> {
        self.params
            .iter()
            .zip(&self.values)
            .map(|(p, v)| match v {
                Value::Array(a) => Ok(match (p.role, p.is_output) {
                    (Role::Raw { .. }, _) => LaunchArg::Raw(a),
                    (_, true) => LaunchArg::Out(a),
                    _ => LaunchArg::Array(a),
                }),
                Value::Scalar(b) if b.len() == p.dtype.itemsize() => {
                    Ok(LaunchArg::Scalar(b.clone()))
                }
                Value::Scalar(b) => Err(Error::Value(format!(
                    "kernel {}: scalar '{}' has {} bytes, {} needs {}",
                    self.name,
                    p.name,
                    b.len(),
                    p.dtype.name(),
                    p.dtype.itemsize()
                ))),
                Value::Unbound => Err(Error::Value(format!(
                    "kernel {}: operand '{}' is described by its dtype only and cannot be \
                     launched",
                    self.name, p.name
                ))),
            })
            .collect()
    }

    /// Queues the kernel over `shape` on the current stream of the first
    /// array's device. Array inputs broadcast to `shape`; outputs have it.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::elementwise::Elementwise;
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f32, 2.0, 3.0], &[3])?;
    /// let y = Array::empty(3, DType::Float32)?;
    /// Elementwise::new("twice").input("x", &x).output("y", &y).op("y = 2 * x").launch(&[3])?;
    /// assert_eq!(y.to_vec::<f32>()?, [2.0, 4.0, 6.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An operand bound to a dtype only; shapes or devices that do not fit;
    /// compilation or launch failures.
    pub fn launch(self, shape: &[usize]) -> Result<()> {
        match self.prepare(shape)? {
            Some(p) => p.launch(),
            None => Ok(()),
        }
    }

    /// Everything [`Elementwise::launch`] does but the launch (`None`: an
    /// empty iteration).
    pub(crate) fn prepare(self, shape: &[usize]) -> Result<Option<Prepared>> {
        let args = self.args()?;
        let key = self.key();
        let check = |cached: &ElementwiseSpec| self.matches(cached);
        prepare_keyed(shape, &args, Some((key, &check)), self.vector, |l, i| {
            self.spec(l, i)
        })
    }

    /// Whether a cached spec found by this kernel's key is this kernel's:
    /// the same operation text when it is at hand (always compared: a
    /// memcmp), the whole spec in debug builds (which checks the naming
    /// contract of the module docs).
    fn matches(&self, cached: &ElementwiseSpec) -> bool {
        if let Op::Text(t) = &self.op
            && cached.operation != t.as_ref()
        {
            return false;
        }
        if cfg!(debug_assertions) {
            let built = self.spec(cached.layout, cached.index);
            debug_assert!(
                built.as_ref().is_ok_and(|b| b == cached),
                "kernel {}: the name and operand dtypes do not decide the spec",
                self.name
            );
        }
        true
    }
}

/// What the elementwise and reduction builders share: adding operands.
/// Code that binds the same operand list to either engine (fusion) is
/// written once against it.
pub trait Operands<'a>: Sized {
    /// An input array.
    fn input(self, name: &str, x: Bind<'a>) -> Self;
    /// A scalar input already in `dtype`'s bytes.
    fn scalar_bytes(self, name: &str, dtype: DType, bytes: Vec<u8>) -> Self;
    /// An output array.
    fn output(self, name: &str, y: Bind<'a>) -> Self;
}

impl<'a> Operands<'a> for Elementwise<'a> {
    fn input(self, name: &str, x: Bind<'a>) -> Self {
        Elementwise::input(self, name, x)
    }
    fn scalar_bytes(self, name: &str, dtype: DType, bytes: Vec<u8>) -> Self {
        Elementwise::scalar_bytes(self, name, dtype, bytes)
    }
    fn output(self, name: &str, y: Bind<'a>) -> Self {
        Elementwise::output(self, name, y)
    }
}

/// A caller's spec must list the builder's operands, in order.
///
/// # Errors
/// [`Error::Value`] naming both lists when they differ.
pub(crate) fn check_operands(kernel: &str, spec: &[SpecParam], listed: &[SpecParam]) -> Result<()> {
    if spec == listed {
        return Ok(());
    }
    Err(Error::Value(format!(
        "kernel {kernel}: the spec's parameters {spec:?} are not its operands {listed:?}"
    )))
}

/// The operand part of a built-in kernel's name: each input's dtype tag
/// (`s` before a scalar's, `r` and its dimensions before a raw operand's),
/// `_`, each output's.
pub(crate) fn operand_tags(params: &[SpecParam]) -> String {
    let mut n = String::new();
    let mut seen_output = false;
    for p in params {
        if p.is_output && !seen_output {
            n.push('_');
            seen_output = true;
        }
        match p.role {
            Role::Scalar => n.push('s'),
            Role::Raw { ndim } => {
                let _ = write!(n, "r{ndim}");
            }
            Role::Array => {}
        }
        n.push_str(&dtype_tag(p.dtype));
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around(x: Bind<'_>, y: Bind<'_>) -> Elementwise<'static> {
        Elementwise::new("t_around")
            .input("x", x.dtype())
            .scalar("f", DType::Float64, 100.0)
            .output("y", y.dtype())
            .op("y = cuprum::cast<y_type>(cuprum::rint(x * f) / f);")
    }

    #[test]
    fn one_list_gives_the_signature_the_name_and_the_key() {
        let k = around(DType::Float32.into(), DType::Float32.into());
        let s = k
            .spec(
                LayoutClass::Contiguous { vectorized: true },
                IndexWidth::I32,
            )
            .unwrap();
        assert_eq!(s.name, "cuprum_t_around_f4sf8_f4_cv_i32");
        assert_eq!(
            s.params,
            vec![
                SpecParam::input("x", DType::Float32),
                SpecParam::scalar("f", DType::Float64),
                SpecParam::output("y", DType::Float32),
            ]
        );
        assert!(!s.read_outputs);
        s.validate().unwrap();
        let key = k.key();
        assert_eq!(key.name, "t_around");
        assert_eq!(key.operands.len(), 3);
        assert_eq!(key.operands[1], (DType::Float64, Role::Scalar, false));
        let src = s.render();
        assert!(src.contains("const double f"), "{src}");
    }

    #[test]
    fn a_description_without_arrays_renders_but_does_not_launch() {
        let k = around(DType::Float64.into(), DType::Float64.into());
        let e = k.args().unwrap_err().to_string();
        assert!(e.contains("dtype only"), "{e}");
    }

    #[test]
    fn raw_operands_and_scalar_bytes_are_checked() {
        let k = Elementwise::new("t_raw")
            .scalar_bytes("s", DType::Int32, vec![0, 0])
            .raw("v", Bind::Dtype(DType::Int16, 3))
            .output("y", DType::Int16)
            .op("y = v[i];");
        let s = k
            .spec(LayoutClass::Strided { ndim: 2 }, IndexWidth::I64)
            .unwrap();
        assert_eq!(s.name, "cuprum_t_raw_si4r3i2_i2_s2_i64");
        assert_eq!(s.params[1].role, Role::Raw { ndim: 3 });
        let e = k.args().unwrap_err().to_string();
        assert!(e.contains("has 2 bytes"), "{e}");
    }

    #[test]
    fn a_callers_spec_must_list_the_same_operands() {
        let k = Elementwise::new("t_spec")
            .input("x", DType::Float32)
            .output("y", DType::Float32)
            .spec_with(|l, i| {
                Ok(ElementwiseSpec::new(
                    "k",
                    vec![
                        SpecParam::input("x", DType::Float64),
                        SpecParam::output("y", DType::Float32),
                    ],
                    "y = x;",
                    l,
                    i,
                ))
            });
        let e = k
            .spec(
                LayoutClass::Contiguous { vectorized: false },
                IndexWidth::I32,
            )
            .unwrap_err()
            .to_string();
        assert!(e.contains("not its operands"), "{e}");
    }
}
