//! Reductions: CuPy's `ReductionKernel`, the built-in reductions' engine
//! ([`Builtin`], [`reduce`], the [`Reduction`] builder) and the planner.
//! The NumPy functions built on it live in their NumPy sections:
//! `sum`/`prod` in [`crate::math`], `mean`/`var`/`amax`/`ptp` in
//! [`crate::stats`], `all`/`any` in [`crate::logic`], `argmax`/
//! `count_nonzero` in [`crate::sorting`].
//!
//! | NumPy / CuPy                                        | Cuprum                                                      |
//! |-----------------------------------------------------|-------------------------------------------------------------|
//! | `cp.ReductionKernel('T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'l2norm')` | [`ReductionKernel::new`]`("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm")?` |
//! | `kernel(x, axis=1, keepdims=True)`                  | `kernel.call(&[(&x).into()], &ReductionCall::axis(1).keepdims(true))?` |
//! | `x.sum()`, `cp.sum(x, axis=(0, 2), dtype=f8)`       | `x.sum(&Default::default())?`, [`sum`](crate::math::sum)`(&x, &ReduceOptions::axes(&[0, 2]).dtype(DType::Float64))?` |
//! | `x.max(axis=-1, keepdims=True)`, `cp.amin`          | `x.max(&ReduceOptions::axis(-1).keepdims(true))?`, [`amin`](crate::stats::amin) |
//! | `x.all()`, `x.any()`, `cp.count_nonzero(x)`         | `x.all(..)`, `x.any(..)`, [`count_nonzero`](crate::sorting::count_nonzero)                 |
//! | `x.mean(axis=0)`, `cp.prod(x, out=y)`               | `x.mean(&ReduceOptions::axis(0))?`, `ReduceOptions::default().out(&y)` |
//! | `cp.nansum(x)`, `cp.nanmax(x, axis=0)`             | [`nansum`](crate::math::nansum), [`nanmax`](crate::stats::nanmax)`(&x, &ReduceOptions::axis(0))?`, [`nanprod`](crate::math::nanprod), [`nanmin`](crate::stats::nanmin) |
//! | `cp.ptp(x, axis=1)`                                 | [`ptp`](crate::stats::ptp)`(&x, &ReduceOptions::axis(1))?`                     |
//! | `x.argmax()`, `cp.nanargmin(x, axis=1)`             | `x.argmax(&Default::default())?`, [`nanargmin`](crate::sorting::nanargmin)`(&x, &ReduceOptions::axis(1))?` |
//! | `x.var(axis=0, ddof=1)`, `cp.nanstd(x)`, `cp.nanmean` | `x.var(&ReduceOptions::axis(0).ddof(1.0))?`, [`nanstd`](crate::stats::nanstd), [`nanmean`](crate::stats::nanmean) |
//! | `float(x.sum())`                                    | `x.sum(..)?.item::<f64>(&[])?`                              |
//!
//! As in CuPy (its documented difference from NumPy), a full reduction
//! returns a 0-d array, not a host scalar; [`Array::item`] brings it back.
//!
//! A reduction is described by a [`ReductionSpec`] (operands with dtypes,
//! map, reduce and post-map expressions, identity, accumulator type
//! `_type_reduce`, preamble, options, index width and [`Strategy`]),
//! rendered to CUDA C++ with `cuprum/reduction.cuh` (warp shuffles of any
//! type as 32-bit words, block reductions in shared memory). Its signature
//! and the argument bytes both come from [`ReductionSpec::kernel_params`].
//! The planner ([`plan::plan`]) moves the reduced axes last, coalesces the
//! kept and the reduced axes apart, and picks by shape: a block or a warp
//! per output row, a column strategy for strided reduced axes over a
//! contiguous kept axis (its rows split into segments with a second pass
//! when the column tiles alone cannot fill the device), or two passes for
//! few long rows (full reductions). Rows of unit stride are read 16 bytes
//! at a time from their first aligned address ([`ReductionSpec::vector`]).
//! A thread's own pass is in index order, so struct accumulators may give
//! a cheaper in-order fold ([`spec::AccStruct::fold`]: argmax compares no
//! indices, var takes Welford's one-element update).

mod builder;
mod builtin;
pub mod common;
mod launch;
mod masked;
pub mod plan;
mod render;
pub mod spec;

pub use builder::Reduction;
pub use builtin::{Builtin, ReduceOptions, reduce};
pub use launch::{RedInput, kernels_for, launch, program_request};
pub use render::{BLOCK, INCLUDE, render_program};
pub use spec::{AccStruct, RedArgs, RedParam, RedValue, ReductionSpec, Strategy, Variant};

use crate::array::Array;
use crate::dtype::{DType, Operand};
use crate::elementwise::Args;
use crate::elementwise::{
    ArgInfo, IndexWidth, KernelInput, ParamList, ParamType, SpecParam, Typed,
};
use crate::error::{Error, Result};
use crate::layout::Order;
use crate::ufunc::Input;

/// A user-defined reduction, as CuPy's `ReductionKernel`: typed parameter
/// lists with placeholders, a map expression over the inputs, a reduce
/// expression over `a` and `b`, a post-map expression writing the outputs
/// from `a`, an identity, a name, and optionally a preamble, NVRTC options
/// and the accumulator type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReductionKernel {
    params: ParamList,
    map_expr: String,
    reduce_expr: String,
    post_map_expr: String,
    identity: Option<String>,
    name: String,
    reduce_type: Option<ParamType>,
    preamble: String,
    options: Vec<String>,
}

/// The options of a [`ReductionKernel::call`]: CuPy's `axis`, `keepdims`
/// and output arrays.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReductionCall<'a> {
    /// Axes to reduce (negative counts from the end); `None` for all.
    pub axis: Option<Vec<isize>>,
    /// Keep the reduced axes as length 1.
    pub keepdims: bool,
    /// Output arrays to write (empty: allocate them).
    pub out: Vec<&'a Array>,
}

impl<'a> ReductionCall<'a> {
    /// Reduce over one axis.
    ///
    /// ```
    /// use gpu_array::reduction::ReductionCall;
    /// assert_eq!(ReductionCall::axis(-1).axis, Some(vec![-1]));
    /// ```
    pub fn axis(axis: isize) -> ReductionCall<'a> {
        ReductionCall {
            axis: Some(vec![axis]),
            ..Default::default()
        }
    }

    /// Reduce over several axes (`axis=(0, 2)`; empty reduces none).
    ///
    /// ```
    /// use gpu_array::reduction::ReductionCall;
    /// assert_eq!(ReductionCall::axes(&[0, 2]).axis, Some(vec![0, 2]));
    /// ```
    pub fn axes(axes: &[isize]) -> ReductionCall<'a> {
        ReductionCall {
            axis: Some(axes.to_vec()),
            ..Default::default()
        }
    }

    /// Sets `axis` (`None`: every axis).
    ///
    /// ```
    /// use gpu_array::reduction::ReductionCall;
    /// assert_eq!(ReductionCall::axis(0).with_axis(None).axis, None); // every axis
    /// ```
    #[must_use]
    pub fn with_axis(mut self, axis: Option<Vec<isize>>) -> ReductionCall<'a> {
        self.axis = axis;
        self
    }

    /// Sets `keepdims`.
    ///
    /// ```
    /// use gpu_array::reduction::ReductionCall;
    /// assert!(ReductionCall::axis(1).keepdims(true).keepdims);
    /// ```
    #[must_use]
    pub fn keepdims(mut self, keepdims: bool) -> ReductionCall<'a> {
        self.keepdims = keepdims;
        self
    }

    /// Sets `out`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, reduction::{ReductionCall, ReductionKernel}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let l2 = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm")?;
    /// let x = Array::from_slice(&[3.0f64, 4.0, 6.0, 8.0], &[2, 2])?;
    /// let y = Array::empty(2, DType::Float64)?;
    /// l2.call(&[(&x).into()], &ReductionCall::axis(1).out(&[&y]))?; // written into y
    /// assert_eq!(y.to_vec::<f64>()?, [5.0, 10.0]);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out(mut self, out: &[&'a Array]) -> ReductionCall<'a> {
        self.out = out.to_vec();
        self
    }
}

/// The short forms of a call's options, as for [`ReduceOptions`]: `()`
/// reduces every axis, `1` one axis, `[0, 2]` several.
impl From<()> for ReductionCall<'_> {
    fn from((): ()) -> Self {
        ReductionCall::default()
    }
}

impl From<isize> for ReductionCall<'_> {
    fn from(axis: isize) -> Self {
        ReductionCall::axis(axis)
    }
}

impl<const N: usize> From<[isize; N]> for ReductionCall<'_> {
    fn from(axes: [isize; N]) -> Self {
        ReductionCall::axes(&axes)
    }
}

impl<'a> From<&ReductionCall<'a>> for ReductionCall<'a> {
    fn from(c: &ReductionCall<'a>) -> Self {
        c.clone()
    }
}

impl ReductionKernel {
    /// Runs a reduction with one output on `args` over `axes` (CuPy's
    /// `kernel(x, axis=1)`): `k.run(&x, ())?` reduces everything,
    /// `k.run((&x, &w), 1)?` one axis. [`ReductionKernel::call`] takes
    /// outputs and returns several.
    ///
    /// ```no_run
    /// use gpu_array::{Array, reduction::ReductionKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let l2 = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm")?;
    /// let x = Array::from_slice(&[3.0f64, 4.0], &[2])?;
    /// assert_eq!(l2.run(&x, ())?.to_scalar::<f64>()?, 5.0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A kernel with more than one output; as [`ReductionKernel::call`].
    pub fn run<'a, 'o>(
        &self,
        args: impl Args<'a, KernelInput<'a>>,
        axes: impl Into<ReductionCall<'o>>,
    ) -> Result<Array> {
        let outs = self.call(&args.into_args(), &axes.into())?;
        crate::elementwise::single_output(&self.name, outs, "call")
    }

    /// Defines a kernel, as `cp.ReductionKernel(in_params, out_params,
    /// map_expr, reduce_expr, post_map_expr, identity, name)`.
    ///
    /// ```
    /// use gpu_array::reduction::ReductionKernel;
    /// let k = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm")?;
    /// assert_eq!(k.name(), "l2norm");
    /// // `a` and `b` are the reduce expression's operands.
    /// assert!(ReductionKernel::new("T a", "T y", "a", "a + b", "y = a", None, "k").is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`ParamList::parse`]; [`Error::Value`] for an invalid name or a
    /// parameter named `a` or `b` (the reduce expression's operands).
    pub fn new(
        in_params: &str,
        out_params: &str,
        map_expr: impl Into<String>,
        reduce_expr: impl Into<String>,
        post_map_expr: impl Into<String>,
        identity: Option<&str>,
        name: impl Into<String>,
    ) -> Result<ReductionKernel> {
        let name = name.into();
        let ok = {
            let mut c = name.chars();
            matches!(c.next(), Some(x) if x.is_ascii_alphabetic() || x == '_')
                && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        };
        if !ok {
            return Err(Error::Value(format!("invalid kernel name '{name}'")));
        }
        let params = ParamList::parse(in_params, out_params)?;
        if let Some(p) = params
            .inputs
            .iter()
            .chain(&params.outputs)
            .find(|p| p.name == "a" || p.name == "b")
        {
            return Err(Error::Value(format!(
                "Can not use '{}' as a parameter name of a ReductionKernel: a and b are the \
                 reduce expression's operands",
                p.name
            )));
        }
        Ok(ReductionKernel {
            params,
            map_expr: map_expr.into(),
            reduce_expr: reduce_expr.into(),
            post_map_expr: post_map_expr.into(),
            identity: identity.map(str::to_owned),
            name,
            reduce_type: None,
            preamble: String::new(),
            options: Vec::new(),
        })
    }

    /// Sets code placed before the kernel (CuPy's `preamble`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, IndexWidth};
    /// use gpu_array::reduction::{ReductionKernel, Strategy, Variant};
    /// let k = ReductionKernel::new("T x", "T y", "sq(x)", "a + b", "y = a", Some("0"), "sumsq")?
    ///     .with_preamble("template <typename T> __device__ T sq(T v) { return v * v; }");
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert!(k.spec(&[ArgInfo::array(DType::Float32)], &[], v)?.preamble.contains("sq(T v)"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn with_preamble(mut self, preamble: impl Into<String>) -> ReductionKernel {
        self.preamble = preamble.into();
        self
    }

    /// Sets extra NVRTC options (CuPy's `options`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, IndexWidth};
    /// use gpu_array::reduction::{ReductionKernel, Strategy, Variant};
    /// let k = ReductionKernel::new("T x", "T y", "x", "a + b", "y = a * SCALE", Some("0"), "scaled_sum")?
    ///     .with_options(&["-DSCALE=2"]);
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert_eq!(k.spec(&[ArgInfo::array(DType::Float64)], &[], v)?.options, ["-DSCALE=2"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: &[&str]) -> ReductionKernel {
        self.options = options.iter().map(|s| (*s).to_owned()).collect();
        self
    }

    /// Sets the accumulator type `_type_reduce` (CuPy's `reduce_type`): a
    /// dtype name or a placeholder of the parameter lists. The default is
    /// the first output's type.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, IndexWidth};
    /// use gpu_array::reduction::{ReductionKernel, Strategy, Variant};
    /// let k = ReductionKernel::new("T x", "T y", "x", "a + b", "y = a", Some("0"), "wide_sum")?
    ///     .with_reduce_type("float64")?; // accumulate float32 in float64
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert_eq!(k.spec(&[ArgInfo::array(DType::Float32)], &[], v)?.reduce_type, DType::Float64);
    /// assert!(ReductionKernel::new("T x", "T y", "x", "a + b", "y = a", None, "k")?.with_reduce_type("flaot").is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] for a type that is neither.
    pub fn with_reduce_type(mut self, ty: &str) -> Result<ReductionKernel> {
        let t = match ty.parse::<DType>() {
            Ok(d) => ParamType::DType(d),
            Err(_) if self.params.placeholders().contains(&ty) => {
                ParamType::Placeholder(ty.to_owned())
            }
            Err(_) => return Err(Error::Value(format!("Wrong type {ty}"))),
        };
        self.reduce_type = Some(t);
        Ok(self)
    }

    /// The kernel's name.
    ///
    /// ```
    /// use gpu_array::reduction::ReductionKernel;
    /// let k = ReductionKernel::new("T x", "T y", "x", "max(a, b)", "y = a", None, "my_max")?;
    /// assert_eq!(k.name(), "my_max");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parsed parameter lists.
    ///
    /// ```
    /// use gpu_array::reduction::ReductionKernel;
    /// let k = ReductionKernel::new("T x, T w", "T y", "x * w", "a + b", "y = a", Some("0"), "dot")?;
    /// assert_eq!(k.params().inputs.len(), 2);
    /// assert_eq!(k.params().placeholders(), ["T"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn params(&self) -> &ParamList {
        &self.params
    }

    /// The spec for a call with these arguments (`outputs`: the dtypes of
    /// the output arrays given, or empty) and plan.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, IndexWidth};
    /// use gpu_array::reduction::{ReductionKernel, Strategy, Variant};
    /// let k = ReductionKernel::new("T x", "T y", "x * x", "a + b", "y = sqrt(a)", Some("0"), "l2norm")?;
    /// let v = Variant::new(Strategy::WarpPerRow, 1, 1, IndexWidth::I32);
    /// let spec = k.spec(&[ArgInfo::array(DType::Float32)], &[], v)?;
    /// assert_eq!((spec.reduce_type, spec.strategy), (DType::Float32, Strategy::WarpPerRow));
    /// assert!(spec.render().contains("l2norm"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// Types that do not bind ("Type is mismatched"); [`Error::Unsupported`]
    /// for `raw` parameters.
    pub fn spec(&self, inputs: &[ArgInfo], outputs: &[DType], v: Variant) -> Result<ReductionSpec> {
        if let Some(p) = self.params.outputs.iter().find(|p| p.raw) {
            return Err(Error::Unsupported(format!(
                "raw output '{}' of ReductionKernel {}: the outputs of a reduction are written \
                 one element per output (raw outputs are not supported)",
                p.name, self.name
            )));
        }
        let ops: Vec<Operand> = inputs
            .iter()
            .map(|a| match a {
                ArgInfo::Array { dtype, .. } => Operand::Array(*dtype),
                ArgInfo::Scalar(op) => *op,
            })
            .collect();
        let bound = self.params.bind(&ops, outputs)?;
        let mut params = Vec::new();
        for ((p, a), &dt) in self.params.inputs.iter().zip(inputs).zip(&bound.inputs) {
            params.push(match a {
                ArgInfo::Array { ndim, .. } if p.raw => SpecParam::raw(&p.name, dt, *ndim, false),
                ArgInfo::Array { .. } => SpecParam::input(&p.name, dt),
                ArgInfo::Scalar(_) => SpecParam::scalar(&p.name, dt),
            });
        }
        for (p, &dt) in self.params.outputs.iter().zip(&bound.outputs) {
            params.push(SpecParam::output(&p.name, dt));
        }
        let reduce_type = match &self.reduce_type {
            None => bound.outputs[0],
            Some(ParamType::DType(d)) => *d,
            Some(ParamType::Placeholder(t)) => {
                bound
                    .placeholders
                    .iter()
                    .find(|(n, _)| n == t)
                    .ok_or_else(|| Error::DType(format!("placeholder '{t}' is not bound")))?
                    .1
            }
        };
        Ok(ReductionSpec {
            name: self.name.clone(),
            params,
            type_aliases: bound.placeholders,
            reduce_type,
            reduce_struct: None,
            map_expr: self.map_expr.clone(),
            reduce_expr: self.reduce_expr.clone(),
            post_map_expr: self.post_map_expr.clone(),
            identity: self.identity.clone(),
            preamble: self.preamble.clone(),
            options: self.options.clone(),
            out_ndim: v.out_ndim,
            red_ndim: v.red_ndim,
            index: v.index,
            strategy: v.strategy,
            vector: v.vector,
            block: BLOCK,
        })
    }

    /// Runs the kernel (CuPy's `kernel(*args, axis=..., keepdims=...,
    /// out=...)`): array inputs broadcast together and are reduced over
    /// `axis`; outputs are allocated (dtypes bound from the inputs) unless
    /// given. Returns the outputs.
    ///
    /// ```no_run
    /// use gpu_array::{Array, reduction::{ReductionCall, ReductionKernel}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = ReductionKernel::new("T x", "T lo", "x", "min(a, b)", "lo = a", None, "row_min")?;
    /// let x = Array::from_slice(&[3i32, 1, 2, 9, 7, 8], &[2, 3])?;
    /// let out = k.call(&[(&x).into()], &ReductionCall::axis(1).keepdims(true))?;
    /// assert_eq!(out[0].shape(), [2, 1]);
    /// assert_eq!(out[0].to_vec::<i32>()?, [1, 7]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Wrong argument counts, types that do not bind, axis errors, an empty
    /// reduction without identity ("zero-size array to reduction operation
    /// NAME which has no identity"), `raw` parameters (with CuPy's axis
    /// restriction checked first, then [`Error::Unsupported`]),
    /// compilation or launch failures.
    pub fn call(&self, inputs: &[KernelInput<'_>], opts: &ReductionCall<'_>) -> Result<Vec<Array>> {
        let p = &self.params;
        if inputs.len() != p.inputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments for {}: {} inputs expected, {} given",
                self.name,
                p.inputs.len(),
                inputs.len()
            )));
        }
        if !opts.out.is_empty() && opts.out.len() != p.outputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments for {}: {} outputs expected, {} given",
                self.name,
                p.outputs.len(),
                opts.out.len()
            )));
        }
        // Raw arrays take no part in the broadcast (CuPy's `raw`).
        let arrays: Vec<&Array> = inputs
            .iter()
            .zip(&p.inputs)
            .filter_map(|(i, q)| match i {
                KernelInput::Plain(Input::Array(a)) if !q.raw => Some(*a),
                _ => None,
            })
            .collect();
        let Some(first) = arrays.first() else {
            return Err(Error::Value(format!(
                "{}: a reduction needs at least one array argument",
                self.name
            )));
        };
        let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape()).collect();
        let shape = crate::layout::broadcast_shapes(&shapes)?;
        let axes = plan::reduced_axes(opts.axis.as_deref(), shape.len())?;
        if p.inputs.iter().chain(&p.outputs).any(|q| q.raw) {
            plan::check_raw_axes(&axes)?;
        }
        let in_info: Vec<ArgInfo> = inputs
            .iter()
            .zip(&p.inputs)
            .map(|(i, q)| match i {
                KernelInput::Plain(Input::Array(a)) if q.raw => ArgInfo::Array {
                    dtype: a.dtype(),
                    ndim: crate::elementwise::raw_ndim(a),
                },
                KernelInput::Plain(Input::Array(a)) => ArgInfo::array(a.dtype()),
                KernelInput::Plain(Input::Scalar(v)) => ArgInfo::Scalar(Operand::Scalar(v.kind())),
                KernelInput::Typed(Typed(dt, _)) => ArgInfo::Scalar(Operand::Array(*dt)),
            })
            .collect();
        let out_dtypes: Vec<DType> = opts.out.iter().map(|o| o.dtype()).collect();
        // Bind once to learn the output and scalar dtypes.
        let probe = self.spec(
            &in_info,
            &out_dtypes,
            Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I64),
        )?;
        let owned: Vec<Array>;
        let outs: Vec<&Array> = if opts.out.is_empty() {
            let rshape = plan::result_shape(&shape, &axes, opts.keepdims);
            owned = probe
                .outputs()
                .map(|k| Array::empty_on(first.device(), &rshape, probe.params[k].dtype, Order::C))
                .collect::<Result<_>>()?;
            owned.iter().collect()
        } else {
            opts.out.clone()
        };
        let out_dtypes: Vec<DType> = outs.iter().map(|o| o.dtype()).collect();
        // The bound parameters list each operand once, with its value.
        let mut k = Reduction::new(self.name.clone());
        for (i, sp) in inputs.iter().zip(&probe.params) {
            k = match i {
                KernelInput::Plain(Input::Array(a))
                    if matches!(sp.role, crate::elementwise::Role::Raw { .. }) =>
                {
                    k.raw(&sp.name, *a)
                }
                KernelInput::Plain(Input::Array(a)) => k.input(&sp.name, *a),
                KernelInput::Plain(Input::Scalar(v)) | KernelInput::Typed(Typed(_, v)) => {
                    k.scalar(&sp.name, sp.dtype, *v)
                }
            };
        }
        for (o, k_out) in outs.iter().zip(probe.outputs()) {
            k = k.output(&probe.params[k_out].name, *o);
        }
        k.spec_with(|v| self.spec(&in_info, &out_dtypes, v))
            .launch(&self.name, &axes)?;
        Ok(outs.into_iter().cloned().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l2norm() -> ReductionKernel {
        ReductionKernel::new(
            "T x",
            "T y",
            "x * x",
            "a + b",
            "y = sqrt(a)",
            Some("0"),
            "l2norm",
        )
        .unwrap()
    }

    #[test]
    fn kernel_definition_and_binding() {
        let k = l2norm();
        let s = k
            .spec(
                &[ArgInfo::array(DType::Float32)],
                &[],
                Variant::new(Strategy::BlockPerRow, 1, 2, IndexWidth::I32),
            )
            .unwrap();
        assert_eq!(s.reduce_type, DType::Float32);
        assert_eq!(s.params[1].dtype, DType::Float32);
        s.validate().unwrap();
        let src = s.render();
        assert!(src.starts_with(INCLUDE));
        assert!(src.contains("typedef float T;"));
        assert!(src.contains("typedef float _type_reduce;"));
        assert!(
            src.contains("_acc = cuprum::cast<_type_reduce>(x * x);"),
            "{src}"
        );
        assert!(src.contains("return (_type_reduce)(a + b);"));
        assert!(src.contains("y = sqrt(a);"));
        assert!(src.contains("if (_nr == 0) _acc = _type_reduce(0);"));
        assert!(src.contains("cuprum::Indexer<2, 1, int> _ridx"));
        assert!(src.contains("cuprum::Indexer<1, 2, int> _oidx"));
        // A mismatched output type.
        assert!(
            k.spec(
                &[ArgInfo::array(DType::Float32)],
                &[DType::Float64],
                Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32),
            )
            .is_err()
        );
        // reduce_type and errors.
        let k2 = l2norm().with_reduce_type("float64").unwrap();
        let s = k2
            .spec(
                &[ArgInfo::array(DType::Float32)],
                &[],
                Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I64),
            )
            .unwrap();
        assert_eq!(s.reduce_type, DType::Float64);
        assert_eq!(s.kernel_names(), vec!["l2norm", "l2norm_2"]);
        assert!(l2norm().with_reduce_type("quux").is_err());
        assert!(
            ReductionKernel::new("T a", "T y", "a", "a + b", "y = a", None, "k")
                .unwrap_err()
                .to_string()
                .contains("'a'")
        );
        // A raw input: its pointer, shape and strides in the signature, a
        // RawArray in the body, `_in_ind` following the element.
        let raw = ReductionKernel::new(
            "T x, raw T w",
            "T y",
            "x * w[_in_ind.get() / _out_ind.size()]",
            "a + b",
            "y = a",
            Some("0"),
            "r",
        )
        .unwrap();
        let s = raw
            .spec(
                &[
                    ArgInfo::array(DType::Float32),
                    ArgInfo::Array {
                        dtype: DType::Float32,
                        ndim: 2,
                    },
                ],
                &[],
                Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32),
            )
            .unwrap();
        assert!(s.has_raw());
        let names: Vec<String> = s.kernel_params().into_iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "_p_x", "_p_w", "_s_w", "_t_w", "_p_y", "_nout", "_nred", "_oidx", "_ridx"
            ]
        );
        let src = s.render();
        assert!(src.contains("const cuprum::RawArray<const float, 2, int> w(_p_w, _s_w, _t_w);"));
        assert!(src.contains("_in_ind.i = (int)(_r) * (int)_nout + (int)_o;"));
        let mut v4 = s.clone();
        v4.vector = 4;
        assert!(v4.validate().is_err());
        // Raw outputs are refused.
        let rawout =
            ReductionKernel::new("T x", "raw T y", "x", "a + b", "y = a", None, "ro").unwrap();
        assert!(matches!(
            rawout.spec(
                &[ArgInfo::array(DType::Float32)],
                &[],
                Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32),
            ),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn params_and_packing_agree() {
        let s = Builtin::Sum.spec(
            DType::Int8,
            DType::Int64,
            DType::Int64,
            Variant::new(Strategy::TwoPass, 2, 1, IndexWidth::I32),
        );
        let kp = s.kernel_params();
        let names: Vec<&str> = kp.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "_p_x", "_p_y", "_tmp", "_nout", "_nred", "_oidx", "_ridx", "_seg"
            ]
        );
        assert_eq!(kp[0].c_type, "const signed char*");
        assert_eq!(kp[2].c_type, "long long*");
        let packed = s
            .pack_args(&RedArgs {
                ptrs: vec![0x100, 0x200],
                scalars: vec![&[], &[]],
                temp: 0x300,
                out_shape: &[3, 4],
                out_strides: vec![&[40, 10], &[32, 8]],
                red_shape: &[10],
                red_strides: vec![&[1]],
                segments: (2, 5),
                raw_layouts: Vec::new(),
            })
            .unwrap();
        for (b, p) in packed.iter().zip(&kp) {
            assert_eq!(b.len(), p.size, "{}", p.name);
        }
        assert_eq!(packed[3], 12i32.to_le_bytes());
        assert_eq!(packed[4], 10i32.to_le_bytes());
        let oidx: Vec<i32> = packed[5]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(oidx, [3, 4, 40, 10, 32, 8]);
        assert!(
            s.pack_args(&RedArgs {
                ptrs: vec![0, 0],
                scalars: vec![&[], &[]],
                temp: 0,
                out_shape: &[3],
                out_strides: vec![&[4], &[8]],
                red_shape: &[10],
                red_strides: vec![&[1]],
                segments: (1, 10),
                raw_layouts: Vec::new(),
            })
            .is_err()
        );
    }

    #[test]
    fn every_strategy_renders() {
        for st in Strategy::ALL {
            let s = Builtin::Max.spec(
                DType::Float16,
                DType::Float16,
                DType::Float32,
                Variant::new(st, 1, 3, IndexWidth::I64),
            );
            let src = s.render();
            assert!(src.contains("cuprum::maximum(a, b)"));
            assert_eq!(src.matches("__global__").count(), s.kernel_names().len());
            assert!(!src.contains("if (_nr == 0)"), "no identity for max");
            assert_eq!(src, s.render());
        }
    }

    #[test]
    fn another_block_size_is_another_kernel() {
        for st in Strategy::ALL {
            let s = Builtin::Sum.spec(
                DType::Float64,
                DType::Float64,
                DType::Float64,
                Variant::new(st, 1, 1, IndexWidth::I32),
            );
            assert_eq!(s.block, BLOCK);
            // The heuristic's block size is the spec itself.
            assert_eq!(s.with_block(BLOCK), s);
            let src = s.render();
            assert!(src.contains("__launch_bounds__(256)"));
            let t = s.with_block(512);
            assert_ne!(t, s);
            assert_eq!(t.name, format!("{}_t512", s.name));
            assert!(t.validate().is_ok());
            let tsrc = t.render();
            assert!(tsrc.contains("__launch_bounds__(512)") && !tsrc.contains("(256)"));
            assert_eq!(
                tsrc.matches("__launch_bounds__(512)").count(),
                t.kernel_names().len()
            );
            // The column strategies hold one accumulator per thread.
            let columns = matches!(st, Strategy::Column | Strategy::ColumnSplit);
            assert_eq!(src.contains("_smem_raw[256 *"), columns);
            assert_eq!(tsrc.contains("_smem_raw[512 *"), columns);
            for bad in [0, 16, 100, 2048] {
                let e = s.with_block(bad).validate().unwrap_err().to_string();
                assert!(e.contains("multiple of 32"), "{e}");
            }
        }
    }
}
