//! [`Trace`]: a fused function's graph for one call signature, checked
//! (what may be fused into one kernel) and analysed (live nodes, used
//! arguments, the reductions), and its rendering to the elementwise or the
//! reduction engine's spec.
//!
//! The elementwise chain becomes straight-line C++ in the loop body: each
//! ufunc node is its loop's statement in a block of its own, with the
//! loop's `in0_type`... typedefs and `cuprum::cast` conversions of the
//! operands, exactly as the unfused ufunc kernel does, so a fused value is
//! the unfused value bit for bit. A reduction's map is the same chain in a
//! device function returning a struct with one field per reduction; the
//! combine applies each reduction to its field, so several reductions over
//! the same axes share one pass over the data.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Mutex;

use super::graph::{ArgSig, CallSig, Node, Op, Val, is_comparison};
use crate::dtype::{Casting, DType, ScalarKind, ScalarValue, check_cast};
use crate::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam, dtype_tag};
use crate::error::{Error, Result};
use crate::kernels::FUSION_TEMPLATE;
use crate::reduction::{AccStruct, Builtin, ReductionSpec, Variant};

/// How an accumulator field maps one element and combines two partials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Acc {
    /// `a + b` (sum, and mean before its division).
    Sum,
    /// `a * b`.
    Prod,
    /// NumPy's `maximum` (NaN propagates).
    Max,
    /// NumPy's `minimum`.
    Min,
    /// NumPy's `fmax` (NaN loses): nanmax.
    FMax,
    /// NumPy's `fmin`: nanmin.
    FMin,
    /// `a && b` of the elements as bool.
    All,
    /// `a || b`.
    Any,
    /// The number of nonzero elements (int64).
    Count,
    /// A sum with NaN elements as 0 (nansum, nanmean's numerator).
    NanSum,
    /// A product with NaN elements as 1.
    NanProd,
    /// The number of elements that are not NaN (int64): nanmean's
    /// denominator.
    NotNan,
}

impl Acc {
    /// NumPy's name of a reduction without identity (for "zero-size array
    /// to reduction operation maximum which has no identity").
    fn no_identity(self) -> Option<&'static str> {
        match self {
            Acc::Max => Some("maximum"),
            Acc::Min => Some("minimum"),
            Acc::FMax => Some("fmax"),
            Acc::FMin => Some("fmin"),
            _ => None,
        }
    }
}

/// One field of a fused reduction kernel's accumulator: `kind` of the
/// value `x`, accumulated in `acc`. Reductions of the same value with the
/// same accumulation share a field (`sum` and `mean` of `x`).
#[derive(Clone, Debug)]
struct Field {
    kind: Acc,
    x: Val,
    acc: DType,
}

/// What a reduced result is, from the accumulator `a`.
#[derive(Clone, Copy, Debug)]
enum OutExpr {
    /// The field as it is.
    Field(usize),
    /// The field divided by the number of reduced elements.
    Mean(usize),
    /// The NaN-skipping sum divided by the number of non-NaN elements.
    NanMean { sum: usize, count: usize },
}

/// One result of a reduction kernel.
#[derive(Clone, Debug)]
struct RedOut {
    expr: OutExpr,
    keepdims: bool,
    op: Builtin,
}

/// The reductions of a trace (all over the same axes).
#[derive(Clone, Debug)]
struct Reductions {
    axes: Vec<usize>,
    fields: Vec<Field>,
    outputs: Vec<RedOut>,
}

/// A scalar argument that feeds an integer loop directly: its value is
/// checked at call time as NumPy 2 checks a Python int (`uint8 + 300` is an
/// error).
#[derive(Clone, Debug)]
pub(crate) struct ScalarCheck {
    pub arg: usize,
    pub dtype: DType,
    pub ufunc: &'static str,
}

/// A fused function traced for one call signature: the graph, its outputs
/// and what kind of kernel it becomes. [`super::Fused`] keeps one per
/// signature; [`Trace::elementwise_spec`] and [`Trace::reduction_spec`] give
/// the kernel for a launch's layout.
#[derive(Debug)]
pub struct Trace {
    pub(crate) id: u64,
    name: String,
    sig: Vec<ArgSig>,
    nodes: Vec<Node>,
    outputs: Vec<Val>,
    /// The dtype of each result: its `out=` array's, else its own.
    out_dtypes: Vec<DType>,
    live: Vec<bool>,
    /// Arguments the kernel reads, in order.
    pub(crate) used: Vec<usize>,
    /// Per output, the array arguments it depends on.
    pub(crate) out_deps: Vec<Vec<usize>>,
    reductions: Option<Reductions>,
    pub(crate) scalar_checks: Vec<ScalarCheck>,
    /// Reduction specs already rendered, by variant (a render costs about
    /// 10 us of string formatting; a call should cost a lookup).
    rendered: Mutex<HashMap<Variant, ReductionSpec>>,
}

fn unsupported(name: &str, msg: String) -> Error {
    Error::Unsupported(format!("fuse '{name}': {msg}"))
}

impl Trace {
    /// Checks and analyses a finished graph whose results are `outputs`,
    /// for a call with `call`'s `dtype=` and `out=` dtypes.
    pub(crate) fn new(
        id: u64,
        name: &str,
        sig: &[ArgSig],
        call: &CallSig,
        nodes: Vec<Node>,
        error: Option<Error>,
        outputs: Vec<Val>,
    ) -> Result<Trace> {
        let (name, sig) = (name.to_owned(), sig.to_vec());
        if let Some(e) = error {
            return Err(e);
        }
        if outputs.is_empty() {
            return Err(Error::Value(format!(
                "fuse '{name}': the function returns no value"
            )));
        }
        if !call.out.is_empty() && call.out.len() != outputs.len() {
            return Err(Error::Value(format!(
                "fuse '{name}': out= has {} entries but the function returns {} results \
                 (one entry per result, None to allocate it)",
                call.out.len(),
                outputs.len()
            )));
        }
        let out_dtypes: Vec<DType> = outputs
            .iter()
            .enumerate()
            .map(|(j, v)| {
                let natural = nodes[v.node].outs[v.out].array_dtype();
                match call.out.get(j).copied().flatten() {
                    Some(o) => check_cast(natural, o, Casting::SameKind)
                        .map(|()| o)
                        .map_err(|e| {
                            Error::DType(format!("fuse '{name}': out= array of result {j}: {e}"))
                        }),
                    None => Ok(natural),
                }
            })
            .collect::<Result<_>>()?;
        let is_red: Vec<bool> = outputs.iter().map(|v| nodes[v.node].is_reduce()).collect();
        let reductions = if is_red.iter().any(|&r| r) {
            if !is_red.iter().all(|&r| r) {
                return Err(unsupported(
                    &name,
                    "the function returns both reduced and elementwise results; one kernel \
                     computes either reductions (all of its results) or elementwise values"
                        .into(),
                ));
            }
            Some(Self::plan_reductions(&name, &nodes, &outputs, &call.out)?)
        } else {
            None
        };
        if let Some(d) = call.dtype {
            let used = outputs.iter().any(|v| match nodes[v.node].op {
                Op::Reduce { op, .. } => super::graph::takes_dtype(op),
                _ => false,
            });
            if !used {
                return Err(unsupported(
                    &name,
                    format!(
                        "dtype={d} on the call sets the dtype of the reductions sum, prod, \
                         mean, nansum, nanprod and nanmean, and the function returns none"
                    ),
                ));
            }
        }

        // Live nodes: what the outputs (or the reductions' inputs) need.
        let mut live = vec![false; nodes.len()];
        let mut stack: Vec<usize> = match &reductions {
            Some(r) => r.fields.iter().map(|f| f.x.node).collect(),
            None => outputs.iter().map(|v| v.node).collect(),
        };
        while let Some(n) = stack.pop() {
            if live[n] {
                continue;
            }
            live[n] = true;
            match &nodes[n].op {
                Op::Ufunc { args, .. } | Op::Folded { args, .. } => {
                    stack.extend(args.iter().map(|a| a.node))
                }
                Op::Where { cond, x, y } => stack.extend([cond.node, x.node, y.node]),
                Op::Cast { x } | Op::Reduce { x, .. } => stack.push(x.node),
                Op::Arg(_) | Op::Const(_) => {}
            }
        }
        let used: Vec<usize> = nodes
            .iter()
            .zip(&live)
            .filter_map(|(n, &l)| match n.op {
                Op::Arg(k) if l => Some(k),
                _ => None,
            })
            .collect();
        let mut scalar_checks = Vec::new();
        for (n, &l) in nodes.iter().zip(&live) {
            let Op::Ufunc {
                ufunc,
                loop_index,
                args,
            } = &n.op
            else {
                continue;
            };
            if !l {
                continue;
            }
            let lp = &ufunc.loops()[*loop_index];
            for (a, &t) in args.iter().zip(&lp.inputs) {
                if let Op::Arg(k) = nodes[a.node].op
                    && sig[k] == ArgSig::Scalar(ScalarKind::Int)
                    && t.is_integer()
                {
                    scalar_checks.push(ScalarCheck {
                        arg: k,
                        dtype: t,
                        ufunc: ufunc.name(),
                    });
                }
            }
        }
        let out_deps = outputs.iter().map(|v| nodes[v.node].deps.clone()).collect();
        Ok(Trace {
            id,
            name,
            sig,
            nodes,
            outputs,
            out_dtypes,
            live,
            used,
            out_deps,
            reductions,
            scalar_checks,
            rendered: Mutex::new(HashMap::new()),
        })
    }

    fn plan_reductions(
        name: &str,
        nodes: &[Node],
        outputs: &[Val],
        out: &[Option<DType>],
    ) -> Result<Reductions> {
        let mut fields: Vec<Field> = Vec::new();
        let mut slot = |kind: Acc, x: Val, acc: DType| -> usize {
            match fields
                .iter()
                .position(|f| f.kind == kind && f.x == x && f.acc == acc)
            {
                Some(f) => f,
                None => {
                    fields.push(Field { kind, x, acc });
                    fields.len() - 1
                }
            }
        };
        let mut outs = Vec::new();
        let mut first: Option<(Builtin, &Vec<usize>, usize)> = None;
        for (j, v) in outputs.iter().enumerate() {
            let Op::Reduce {
                op,
                x,
                ref axes,
                keepdims,
                acc,
                dtype,
            } = nodes[v.node].op
            else {
                unreachable!("every output is a reduction here")
            };
            let in_ndim = nodes[x.node].ndim;
            match first {
                None => first = Some((op, axes, in_ndim)),
                Some((op0, axes0, ndim0)) => {
                    if axes0 != axes || ndim0 != in_ndim {
                        return Err(unsupported(
                            name,
                            format!(
                                "the reductions '{}' over axes {axes0:?} of a {ndim0}-d value and \
                                 '{}' over axes {axes:?} of a {in_ndim}-d value differ; the \
                                 reductions of one fused kernel must reduce the same axes",
                                op0.tag(),
                                op.tag()
                            ),
                        ));
                    }
                }
            }
            // NumPy accumulates sum and prod (and their nan forms) in the
            // out= array's dtype when no dtype= is given.
            let acc = match out.get(j).copied().flatten() {
                Some(o)
                    if dtype.is_none()
                        && matches!(
                            op,
                            Builtin::Sum | Builtin::Prod | Builtin::NanSum | Builtin::NanProd
                        ) =>
                {
                    op.reduce_dtype(nodes[x.node].outs[x.out].array_dtype(), o)
                }
                _ => acc,
            };
            let expr = match op {
                Builtin::Sum => OutExpr::Field(slot(Acc::Sum, x, acc)),
                Builtin::Prod => OutExpr::Field(slot(Acc::Prod, x, acc)),
                Builtin::Max => OutExpr::Field(slot(Acc::Max, x, acc)),
                Builtin::Min => OutExpr::Field(slot(Acc::Min, x, acc)),
                Builtin::NanMax => OutExpr::Field(slot(Acc::FMax, x, acc)),
                Builtin::NanMin => OutExpr::Field(slot(Acc::FMin, x, acc)),
                Builtin::All => OutExpr::Field(slot(Acc::All, x, DType::Bool)),
                Builtin::Any => OutExpr::Field(slot(Acc::Any, x, DType::Bool)),
                Builtin::CountNonzero => OutExpr::Field(slot(Acc::Count, x, DType::Int64)),
                Builtin::NanSum => OutExpr::Field(slot(Acc::NanSum, x, acc)),
                Builtin::NanProd => OutExpr::Field(slot(Acc::NanProd, x, acc)),
                Builtin::Mean => OutExpr::Mean(slot(Acc::Sum, x, acc)),
                Builtin::NanMean => OutExpr::NanMean {
                    sum: slot(Acc::NanSum, x, acc),
                    count: slot(Acc::NotNan, x, DType::Int64),
                },
                other => return Err(super::graph::not_fusable(other.tag())),
            };
            outs.push(RedOut { expr, keepdims, op });
        }
        let (_, axes, _) = first.expect("at least one output");
        Ok(Reductions {
            axes: axes.clone(),
            fields,
            outputs: outs,
        })
    }

    /// The kernel's name (`kernel_name`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let t = fuse("negate", |x: &FVar| -x).trace(&[ArgSig::array(DType::Float32, 1)])?;
    /// assert_eq!(t.name(), "negate");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The call signature traced.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ScalarKind;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let sig = [ArgSig::array(DType::Float32, 1), ArgSig::Scalar(ScalarKind::Float)];
    /// let t = fuse("scale", |x: &FVar, a: &FVar| x * a).trace(&sig)?;
    /// assert_eq!(t.signature(), sig);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn signature(&self) -> &[ArgSig] {
        &self.sig
    }

    /// Whether the kernel is a reduction (every result reduced).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let sig = [ArgSig::array(DType::Float32, 1)];
    /// assert!(fuse("total", |x: &FVar| x.sum(())).trace(&sig)?.is_reduction());
    /// assert!(!fuse("double", |x: &FVar| x + x).trace(&sig)?.is_reduction());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn is_reduction(&self) -> bool {
        self.reductions.is_some()
    }

    /// The reduced axes (normalised, sorted) of a reduction kernel.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let t = fuse("col_sums", |x: &FVar| x.sum(-2)).trace(&[ArgSig::array(DType::Float32, 3)])?;
    /// assert_eq!(t.reduced_axes(), Some(&[1][..])); // normalised
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn reduced_axes(&self) -> Option<&[usize]> {
        self.reductions.as_ref().map(|r| r.axes.as_slice())
    }

    /// Whether output `k` keeps the reduced axes (reductions only).
    pub(crate) fn keepdims(&self, k: usize) -> bool {
        self.reductions
            .as_ref()
            .is_some_and(|r| r.outputs[k].keepdims)
    }

    /// NumPy's name of reduced output `k`'s operation (`add` for sum), as
    /// NumPy's out= shape error says it.
    pub(crate) fn reduction_op_name(&self, k: usize) -> &'static str {
        self.reductions
            .as_ref()
            .map_or("reduction", |r| r.outputs[k].op.name())
    }

    /// The number of accumulator fields computed in one pass (distinct
    /// reductions; `sum` and `mean` of one value share one, `nanmean` takes
    /// two: its sum and its count).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("stats", |x: &FVar| (x.sum(()), x.mean(()), x.max(())));
    /// let t = f.trace(&[ArgSig::array(DType::Float64, 1)])?;
    /// assert_eq!(t.reduction_count(), 2); // sum and mean share one accumulator
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn reduction_count(&self) -> usize {
        self.reductions.as_ref().map_or(0, |r| r.fields.len())
    }

    /// The dtypes of the results, in order (an `out=` array's dtype where
    /// the call gives one).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("split", |x: &FVar| (x + x, x.greater(0)));
    /// let t = f.trace(&[ArgSig::array(DType::Int8, 1)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Int8, DType::Bool]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn output_dtypes(&self) -> Vec<DType> {
        self.out_dtypes.clone()
    }

    /// The number of dimensions of each result (for this signature).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("outer_sum", |x: &FVar, y: &FVar| x + y);
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 1), ArgSig::array(DType::Float32, 3)])?;
    /// assert_eq!(t.output_ndims(), [3]); // the broadcast of the arguments
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn output_ndims(&self) -> Vec<usize> {
        self.outputs
            .iter()
            .map(|v| self.nodes[v.node].ndim)
            .collect()
    }

    /// The name of the first reduction without identity (for NumPy's
    /// "zero-size array to reduction operation maximum which has no
    /// identity"), if any.
    pub(crate) fn no_identity_op(&self) -> Option<&'static str> {
        self.reductions
            .as_ref()
            .and_then(|r| r.fields.iter().find_map(|f| f.kind.no_identity()))
    }

    /// The dtype of argument `k`'s kernel parameter.
    pub(crate) fn arg_dtype(&self, k: usize) -> DType {
        self.nodes[k].outs[0].dtype
    }

    /// The C expression of a value.
    fn expr(&self, v: Val) -> String {
        match self.nodes[v.node].op {
            Op::Arg(k) => format!("x{k}"),
            _ => format!("_fv{}_{}", v.node, v.out),
        }
    }

    /// The statements computing every live non-reduction node, in order.
    fn render_chain(&self, s: &mut String) {
        for (n, node) in self.nodes.iter().enumerate() {
            if !self.live[n] {
                continue;
            }
            let var = |out: usize| format!("_fv{n}_{out}");
            let ct = |out: usize| node.outs[out].dtype.c_type();
            match &node.op {
                Op::Arg(_) | Op::Reduce { .. } => {}
                Op::Const(c) => {
                    let _ = writeln!(
                        s,
                        "const {} {} = {};",
                        ct(0),
                        var(0),
                        literal(*c, node.outs[0].dtype)
                    );
                }
                Op::Folded { value, .. } => {
                    let _ = writeln!(s, "const bool {} = {value};", var(0));
                }
                Op::Cast { x } => {
                    let _ = writeln!(
                        s,
                        "const {t} {} = cuprum::cast<{t}>({});",
                        var(0),
                        self.expr(*x),
                        t = ct(0)
                    );
                }
                Op::Where { cond, x, y } => {
                    let _ = writeln!(
                        s,
                        "const {t} {} = cuprum::cast<bool>({}) ? cuprum::cast<{t}>({}) : \
                         cuprum::cast<{t}>({});",
                        var(0),
                        self.expr(*cond),
                        self.expr(*x),
                        self.expr(*y),
                        t = ct(0)
                    );
                }
                Op::Ufunc {
                    ufunc,
                    loop_index,
                    args,
                } => {
                    let lp = &ufunc.loops()[*loop_index];
                    for out in 0..node.outs.len() {
                        let _ = writeln!(s, "{} {};", ct(out), var(out));
                    }
                    let _ = writeln!(s, "{{  // {} {}", ufunc.name(), lp.signature());
                    for (k, t) in lp.inputs.iter().enumerate() {
                        let _ = writeln!(s, "  typedef {} in{k}_type;", t.c_type());
                    }
                    for (k, t) in lp.outputs.iter().enumerate() {
                        let _ = writeln!(s, "  typedef {} out{k}_type;", t.c_type());
                    }
                    for (k, a) in args.iter().enumerate() {
                        let _ = writeln!(
                            s,
                            "  const in{k}_type in{k} = cuprum::cast<in{k}_type>({});",
                            self.expr(*a)
                        );
                    }
                    for k in 0..lp.outputs.len() {
                        let _ = writeln!(s, "  out{k}_type out{k};");
                    }
                    for line in lp.op.trim().lines() {
                        let _ = writeln!(s, "  {line}");
                    }
                    for k in 0..lp.outputs.len() {
                        let _ = writeln!(s, "  {} = out{k};", var(k));
                    }
                    s.push_str("}\n");
                }
            }
        }
    }

    /// The `#include` lines of the device headers the live ufuncs call
    /// into (scipy.special's), each once, in order of first use.
    fn headers(&self) -> String {
        let mut lines = String::new();
        for (n, node) in self.nodes.iter().enumerate() {
            if let Op::Ufunc { ufunc, .. } = &node.op
                && self.live[n]
            {
                let line = ufunc.include_line();
                if !line.is_empty() && !lines.contains(&line) {
                    lines.push_str(&line);
                }
            }
        }
        lines
    }

    /// The kernel's operands: the used arguments (`x<k>`, arrays or
    /// by-value scalars) then the results (`y<j>`).
    fn spec_params(&self) -> Vec<SpecParam> {
        let mut params: Vec<SpecParam> = self
            .used
            .iter()
            .map(|&k| match self.sig[k] {
                ArgSig::Array { dtype, .. } => SpecParam::input(format!("x{k}"), dtype),
                ArgSig::Scalar(_) => SpecParam::scalar(format!("x{k}"), self.arg_dtype(k)),
            })
            .collect();
        for (j, dt) in self.output_dtypes().into_iter().enumerate() {
            params.push(SpecParam::output(format!("y{j}"), dt));
        }
        params
    }

    /// The elementwise kernel of this trace for a launch's `layout` and
    /// `index` width: the chain in the loop body, each result converted to
    /// its dtype. Named `kernel_name`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{IndexWidth, LayoutClass};
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let t = fuse("squared", |x: &FVar| x * x).trace(&[ArgSig::array(DType::Float32, 1)])?;
    /// let spec = t.elementwise_spec(LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.name, "squared");
    /// assert!(spec.render().contains("void squared("));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] for a reduction trace or an invalid kernel name.
    pub fn elementwise_spec(
        &self,
        layout: LayoutClass,
        index: IndexWidth,
    ) -> Result<ElementwiseSpec> {
        if self.is_reduction() {
            return Err(Error::Value(format!(
                "fuse '{}': a reduction trace has no elementwise kernel",
                self.name
            )));
        }
        let mut op = String::new();
        self.render_chain(&mut op);
        for (j, v) in self.outputs.iter().enumerate() {
            let _ = writeln!(op, "y{j} = cuprum::cast<y{j}_type>({});", self.expr(*v));
        }
        let mut spec =
            ElementwiseSpec::new(self.name.clone(), self.spec_params(), op, layout, index);
        spec.read_outputs = false;
        spec.preamble = self.headers();
        spec.validate()?;
        Ok(spec)
    }

    /// A C identifier unique to this function and signature, prefixing the
    /// reduction's helper types and functions.
    fn helper_prefix(&self) -> String {
        let mut p = format!("{}_", self.name);
        for s in &self.sig {
            match *s {
                ArgSig::Array { dtype, ndim } => {
                    let _ = write!(p, "{}d{ndim}", dtype_tag(dtype));
                }
                ArgSig::Scalar(k) => {
                    let _ = write!(
                        p,
                        "s{}",
                        match k {
                            ScalarKind::Bool => 'b',
                            ScalarKind::Int => 'i',
                            ScalarKind::Float => 'f',
                            ScalarKind::Complex => 'c',
                        }
                    );
                }
            }
        }
        p
    }

    /// The reduction kernel of this trace for the planner's `variant`: one
    /// accumulator struct with a field per reduction; the map is the
    /// elementwise chain; mean divides by the row length in the post-map.
    /// Named `kernel_name` (and `<kernel_name>_2` for the second pass).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// use gpu_array::reduction::{Strategy, Variant};
    /// let t = fuse("sumsq", |x: &FVar| (x * x).sum(())).trace(&[ArgSig::array(DType::Float32, 1)])?;
    /// let spec = t.reduction_spec(Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I32))?;
    /// assert_eq!(spec.kernel_names(), ["sumsq", "sumsq_2"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] for an elementwise trace or an invalid kernel name.
    pub fn reduction_spec(&self, v: Variant) -> Result<ReductionSpec> {
        let Some(red) = &self.reductions else {
            return Err(Error::Value(format!(
                "fuse '{}': an elementwise trace has no reduction kernel",
                self.name
            )));
        };
        let p = self.helper_prefix();
        let acc = format!("{p}_acc");
        let mut pre = self.headers();
        let _ = writeln!(pre, "struct {acc} {{");
        for (f, field) in red.fields.iter().enumerate() {
            let _ = writeln!(pre, "  {} v{f};", field.acc.c_type());
        }
        pre.push_str("};\n");
        // The map: one element's inputs to the accumulator.
        let params: Vec<String> = self
            .used
            .iter()
            .map(|&k| format!("const {} x{k}", self.arg_dtype(k).c_type()))
            .collect();
        let _ = writeln!(
            pre,
            "__device__ __forceinline__ {acc} {p}_map({}) {{",
            params.join(", ")
        );
        let mut chain = String::new();
        self.render_chain(&mut chain);
        for line in chain.lines() {
            let _ = writeln!(pre, "  {line}");
        }
        let _ = writeln!(pre, "  {acc} _r;");
        for (f, field) in red.fields.iter().enumerate() {
            let (t, x) = (field.acc.c_type(), self.expr(field.x));
            // NaN tests look at the value before any conversion (a NaN
            // summed with dtype=int is still skipped, as NumPy replaces NaN
            // first).
            let value = match field.kind {
                Acc::All | Acc::Any => format!("cuprum::cast<bool>({x})"),
                Acc::Count => format!("cuprum::cast<bool>({x}) ? 1LL : 0LL"),
                Acc::NotNan => format!("cuprum::isnan({x}) ? 0LL : 1LL"),
                Acc::NanSum => {
                    format!("cuprum::isnan({x}) ? cuprum::cast<{t}>(0) : cuprum::cast<{t}>({x})")
                }
                Acc::NanProd => {
                    format!("cuprum::isnan({x}) ? cuprum::cast<{t}>(1) : cuprum::cast<{t}>({x})")
                }
                _ => format!("cuprum::cast<{t}>({x})"),
            };
            let _ = writeln!(pre, "  _r.v{f} = {value};");
        }
        FUSION_TEMPLATE.emit(&mut pre, "return_accumulator", "", &[]);
        // The combine: each reduction on its field.
        FUSION_TEMPLATE.emit(
            &mut pre,
            "combine_open",
            "",
            &[("acc", &acc), ("prefix", &p)],
        );
        for (f, field) in red.fields.iter().enumerate() {
            let e = match field.kind {
                Acc::Sum | Acc::NanSum | Acc::Count | Acc::NotNan => {
                    format!("a.v{f} + b.v{f}")
                }
                Acc::Prod | Acc::NanProd => format!("a.v{f} * b.v{f}"),
                Acc::Max => format!("cuprum::maximum(a.v{f}, b.v{f})"),
                Acc::Min => format!("cuprum::minimum(a.v{f}, b.v{f})"),
                Acc::FMax => format!("cuprum::fmax(a.v{f}, b.v{f})"),
                Acc::FMin => format!("cuprum::fmin(a.v{f}, b.v{f})"),
                Acc::All => format!("a.v{f} && b.v{f}"),
                Acc::Any => format!("a.v{f} || b.v{f}"),
            };
            let _ = writeln!(pre, "  _r.v{f} = {e};");
        }
        FUSION_TEMPLATE.emit(&mut pre, "return_accumulator", "", &[]);
        let identity = if self.no_identity_op().is_none() {
            FUSION_TEMPLATE.emit(
                &mut pre,
                "identity_open",
                "",
                &[("acc", &acc), ("prefix", &p)],
            );
            for (f, field) in red.fields.iter().enumerate() {
                let one = matches!(field.kind, Acc::Prod | Acc::NanProd | Acc::All);
                let _ = writeln!(
                    pre,
                    "  _r.v{f} = cuprum::cast<{}>({});",
                    field.acc.c_type(),
                    i32::from(one)
                );
            }
            FUSION_TEMPLATE.emit(&mut pre, "return_accumulator", "", &[]);
            Some(format!("{p}_identity()"))
        } else {
            None
        };
        let args: Vec<String> = self.used.iter().map(|k| format!("x{k}")).collect();
        let mut post = String::new();
        for (j, o) in red.outputs.iter().enumerate() {
            let value = match o.expr {
                OutExpr::Field(f) => format!("a.v{f}"),
                OutExpr::Mean(f) => format!(
                    "a.v{f} / cuprum::cast<{}>(_nred)",
                    red.fields[f].acc.c_type()
                ),
                // 0 / 0 for a row of NaN only (or an empty one): NaN, as
                // NumPy's nanmean.
                OutExpr::NanMean { sum, count } => format!(
                    "a.v{sum} / cuprum::cast<{}>((double)a.v{count})",
                    red.fields[sum].acc.c_type()
                ),
            };
            let _ = writeln!(post, "y{j} = cuprum::cast<y{j}_type>({value});");
        }
        let layout: Vec<(usize, usize)> = red
            .fields
            .iter()
            .map(|f| (f.acc.itemsize(), f.acc.itemsize()))
            .collect();
        // Start from the engine's own spec for the planner's variant and
        // replace every part but the variant's: whatever the variant
        // decides (strategy, dimensions, index width, and any layout choice
        // the planner adds) carries over as the built-in reductions get it.
        let mut spec = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v);
        spec.name = self.name.clone();
        spec.params = self.spec_params();
        spec.type_aliases = Vec::new();
        spec.reduce_type = red.fields[0].acc;
        spec.reduce_struct = Some(AccStruct::layout(acc, &layout));
        spec.map_expr = format!("{p}_map({})", args.join(", "));
        spec.reduce_expr = format!("{p}_combine(a, b)");
        spec.post_map_expr = post;
        spec.identity = identity;
        spec.preamble = pre;
        spec.options = Vec::new();
        spec.validate()?;
        Ok(spec)
    }

    /// [`Trace::reduction_spec`], rendered once per variant.
    pub(crate) fn reduction_spec_cached(&self, v: Variant) -> Result<ReductionSpec> {
        if let Some(s) = self
            .rendered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&v)
        {
            return Ok(s.clone());
        }
        let s = self.reduction_spec(v)?;
        self.rendered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(v, s.clone());
        Ok(s)
    }

    /// Whether a weak integer argument's value `n` is accepted where it
    /// feeds integer loops (NumPy 2's check), and passes as an int64.
    pub(crate) fn check_scalar_int(&self, arg: usize, n: i128) -> Result<()> {
        if i64::try_from(n).is_err() {
            return Err(unsupported(
                &self.name,
                format!(
                    "the integer argument {arg} = {n} does not fit int64 (fused scalar \
                     arguments are passed as int64)"
                ),
            ));
        }
        for c in self.scalar_checks.iter().filter(|c| c.arg == arg) {
            if is_comparison(c.ufunc) {
                if crate::dtype::check_weak_int(n, c.dtype).is_err() {
                    return Err(unsupported(
                        &self.name,
                        format!(
                            "'{}' of {} values with the out-of-range integer argument {arg} = {n}",
                            c.ufunc, c.dtype
                        ),
                    ));
                }
            } else {
                crate::dtype::check_weak_int(n, c.dtype)
                    .map_err(|e| super::graph::context(&self.name, c.ufunc, e))?;
            }
        }
        Ok(())
    }
}

/// A constant as a C++ expression of the C type of `dtype` (the constant
/// node's storage: bool, int64, uint64, float64 or complex128).
fn literal(c: ScalarValue, dtype: DType) -> String {
    fn float(f: f64) -> String {
        if f.is_finite() {
            // Rust's `{:e}` is the shortest text that reads back exactly.
            format!("{f:e}")
        } else {
            format!("__longlong_as_double(0x{:016x}LL)", f.to_bits())
        }
    }
    match (c, dtype) {
        (ScalarValue::Bool(b), _) => b.to_string(),
        (ScalarValue::Int(n), DType::UInt64) => format!("{n}ULL"),
        (ScalarValue::Int(n), _) if n == i128::from(i64::MIN) => {
            "(-9223372036854775807LL - 1)".to_owned()
        }
        (ScalarValue::Int(n), _) => format!("{n}LL"),
        (ScalarValue::Float(f), _) => float(f),
        (ScalarValue::Complex(z), _) => {
            format!("cuprum::complex<double>({}, {})", float(z.re), float(z.im))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(literal(ScalarValue::Float(2.5), DType::Float64), "2.5e0");
        assert_eq!(literal(ScalarValue::Float(-0.0), DType::Float64), "-0e0");
        assert_eq!(literal(ScalarValue::Float(1e-7), DType::Float64), "1e-7");
        assert_eq!(
            literal(ScalarValue::Float(f64::INFINITY), DType::Float64),
            "__longlong_as_double(0x7ff0000000000000LL)"
        );
        assert_eq!(literal(ScalarValue::Int(-3), DType::Int64), "-3LL");
        assert_eq!(
            literal(ScalarValue::Int(i128::from(u64::MAX)), DType::UInt64),
            "18446744073709551615ULL"
        );
        assert_eq!(
            literal(ScalarValue::Int(i128::from(i64::MIN)), DType::Int64),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(literal(ScalarValue::Bool(true), DType::Bool), "true");
        assert_eq!(
            literal(
                ScalarValue::Complex(num_complex::Complex::new(1.0, -2.0)),
                DType::Complex128
            ),
            "cuprum::complex<double>(1e0, -2e0)"
        );
    }
}
