//! The expression graph a fused function is traced into (the
//! [`super::FVar`]s a traced function computes with are handles to it).
//!
//! Every node is typed when it is created, with the dtypes of the call
//! signature being traced: ufunc nodes pick their loop with the ufunc
//! table's own resolver ([`Ufunc::resolve`]), so a fused result has the
//! dtype the unfused call gives, weak (NEP 50) scalars included. A failure
//! (no loop for the types, an axis out of range, a reduction that is not
//! the last step) is recorded as the trace's first error and returned by
//! the call; the operators themselves never fail, so that `&x - &y` reads
//! as it does on arrays.

use std::collections::HashMap;

use crate::dtype::{DType, Operand, ScalarKind, ScalarValue, result_type};
use crate::error::{Error, Result};
use crate::reduction::Builtin;
use crate::reduction::plan::reduced_axes;
use crate::ufunc::{Ufunc, UfuncParams};

/// One argument of a call signature: an array by dtype and number of
/// dimensions, or a Rust scalar by kind (a weak scalar, as a Python scalar
/// in NumPy 2). A fused function is traced once per signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgSig {
    /// An array argument.
    Array {
        /// Its dtype.
        dtype: DType,
        /// Its number of dimensions.
        ndim: usize,
    },
    /// A scalar argument (`ScalarKind::Bool` is strongly typed `bool`, as a
    /// Python `bool` in NumPy's ufuncs).
    Scalar(ScalarKind),
}

impl ArgSig {
    /// The signature of an array of `dtype` with `ndim` dimensions.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::ArgSig;
    /// assert_eq!(ArgSig::array(DType::Int8, 3), ArgSig::Array { dtype: DType::Int8, ndim: 3 });
    /// ```
    pub const fn array(dtype: DType, ndim: usize) -> ArgSig {
        ArgSig::Array { dtype, ndim }
    }
}

/// What a call adds to its argument signature: the call's `dtype=` and
/// the dtypes of its `out=` arrays (see [`super::FuseOptions`]). A fused
/// function is traced once per (signature, `CallSig`): both steer the
/// kernel's types.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CallSig {
    /// `dtype=` of the reductions that take one.
    pub dtype: Option<DType>,
    /// The dtype of each `out=` array, one per result (`None`: allocated);
    /// empty when the call has no `out=`.
    pub out: Vec<Option<DType>>,
}

/// A value's type: the dtype it is stored in, and whether it is a weak
/// scalar (only its kind counts in promotion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Ty {
    pub dtype: DType,
    pub weak: bool,
}

impl Ty {
    pub(crate) const fn strong(dtype: DType) -> Ty {
        Ty { dtype, weak: false }
    }

    /// How loop selection sees it.
    pub(crate) fn operand(self) -> Operand {
        if self.weak {
            Operand::Scalar(ScalarKind::of(self.dtype))
        } else {
            Operand::Array(self.dtype)
        }
    }

    /// The dtype of an array holding this value: a weak value materialises
    /// as its kind's default dtype (int64, float64, complex128).
    pub(crate) fn array_dtype(self) -> DType {
        if self.weak {
            ScalarKind::of(self.dtype).default_dtype()
        } else {
            self.dtype
        }
    }
}

/// One output of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Val {
    pub node: usize,
    pub out: usize,
}

/// What a node computes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Op {
    /// Argument `k` of the fused function.
    Arg(usize),
    /// A Rust scalar written in the function (a weak constant).
    Const(ScalarValue),
    /// A ufunc's chosen loop over `args`.
    Ufunc {
        ufunc: &'static Ufunc,
        loop_index: usize,
        args: Vec<Val>,
    },
    /// A comparison of integers with an integer constant outside their
    /// range: NumPy 2 answers `value` for every element. `args` keep the
    /// operands' shapes and dependencies.
    Folded { value: bool, args: Vec<Val> },
    /// `where(cond, x, y)`, in the value type.
    Where { cond: Val, x: Val, y: Val },
    /// `astype`.
    Cast { x: Val },
    /// A reduction of `x` over `axes` (normalised), the last step.
    Reduce {
        op: Builtin,
        x: Val,
        axes: Vec<usize>,
        keepdims: bool,
        /// The accumulator dtype.
        acc: DType,
        /// `dtype=` as given (by the reduction or the call), which keeps an
        /// `out=` array's dtype from steering the accumulator.
        dtype: Option<DType>,
    },
}

/// A node: its operation, the types of its outputs, its number of
/// dimensions (the broadcast of its operands'), and the array arguments it
/// depends on (sorted).
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub op: Op,
    pub outs: Vec<Ty>,
    pub ndim: usize,
    pub deps: Vec<usize>,
}

impl Node {
    pub(crate) fn is_reduce(&self) -> bool {
        matches!(self.op, Op::Reduce { .. })
    }
}

/// The graph under construction for one signature.
#[derive(Debug)]
pub(crate) struct Builder {
    pub name: String,
    pub nodes: Vec<Node>,
    cse: HashMap<String, usize>,
    pub error: Option<Error>,
    /// The call's `dtype=` ([`super::FuseOptions::dtype`]): the dtype of
    /// every reduction that takes one and was given none.
    call_dtype: Option<DType>,
}

/// Prefixes an error's message with the fused function and the operation,
/// keeping its NumPy class where the variant carries a message.
pub(crate) fn context(name: &str, op: &str, e: Error) -> Error {
    let p = |m: String| format!("fuse '{name}': {op}: {m}");
    match e {
        Error::DType(m) => Error::DType(p(m)),
        Error::Value(m) => Error::Value(p(m)),
        Error::Overflow(m) => Error::Overflow(p(m)),
        Error::ZeroDivision(m) => Error::ZeroDivision(p(m)),
        Error::NumpyRuntime(m) => Error::NumpyRuntime(p(m)),
        Error::Unsupported(m) => Error::Unsupported(p(m)),
        Error::Axis(m) => Error::Axis(p(m)),
        Error::Shape(m) => Error::Shape(p(m)),
        e @ Error::AxisOutOfBounds { .. } => Error::Axis(p(e.to_string())),
        other => other,
    }
}

impl Builder {
    pub(crate) fn new(name: &str, sig: &[ArgSig], call_dtype: Option<DType>) -> Builder {
        let mut b = Builder {
            name: name.to_owned(),
            nodes: Vec::new(),
            cse: HashMap::new(),
            error: None,
            call_dtype,
        };
        for (k, s) in sig.iter().enumerate() {
            let (ty, ndim, deps) = match *s {
                ArgSig::Array { dtype, ndim } => (Ty::strong(dtype), ndim, vec![k]),
                ArgSig::Scalar(ScalarKind::Bool) => (Ty::strong(DType::Bool), 0, vec![]),
                ArgSig::Scalar(kind) => (
                    Ty {
                        dtype: kind.default_dtype(),
                        weak: true,
                    },
                    0,
                    vec![],
                ),
            };
            b.nodes.push(Node {
                op: Op::Arg(k),
                outs: vec![ty],
                ndim,
                deps,
            });
        }
        b
    }

    /// Records `e` (the first error wins) and returns a placeholder value so
    /// that tracing can go on; the call returns the error.
    fn fail(&mut self, op: &str, e: Error) -> Val {
        if self.error.is_none() {
            self.error = Some(context(&self.name, op, e));
        }
        self.placeholder()
    }

    fn placeholder(&mut self) -> Val {
        // A strong float64 constant: any later operation types with it, and
        // the recorded error keeps the trace from being used.
        self.push(
            Op::Const(ScalarValue::Float(0.0)),
            vec![Ty::strong(DType::Float64)],
            0,
            vec![],
        )
    }

    pub(crate) fn ty(&self, v: Val) -> Ty {
        self.nodes[v.node].outs[v.out]
    }

    pub(crate) fn node(&self, v: Val) -> &Node {
        &self.nodes[v.node]
    }

    /// Adds a node, or finds the same one already there.
    fn push(&mut self, op: Op, outs: Vec<Ty>, ndim: usize, deps: Vec<usize>) -> Val {
        let key = cse_key(&op, &outs);
        if let Some(&n) = self.cse.get(&key) {
            return Val { node: n, out: 0 };
        }
        let n = self.nodes.len();
        self.nodes.push(Node {
            op,
            outs,
            ndim,
            deps,
        });
        self.cse.insert(key, n);
        Val { node: n, out: 0 }
    }

    /// A weak constant.
    pub(crate) fn constant(&mut self, v: ScalarValue) -> Val {
        let ty = match v {
            ScalarValue::Bool(_) => Ty::strong(DType::Bool),
            ScalarValue::Int(n) if i64::try_from(n).is_ok() => Ty {
                dtype: DType::Int64,
                weak: true,
            },
            ScalarValue::Int(n) if u64::try_from(n).is_ok() => Ty {
                dtype: DType::UInt64,
                weak: true,
            },
            ScalarValue::Int(n) => {
                return self.fail(
                    "constant",
                    Error::Value(format!(
                        "Python integer {n} out of bounds for int64 and uint64"
                    )),
                );
            }
            ScalarValue::Float(_) => Ty {
                dtype: DType::Float64,
                weak: true,
            },
            ScalarValue::Complex(_) => Ty {
                dtype: DType::Complex128,
                weak: true,
            },
        };
        self.push(Op::Const(v), vec![ty], 0, vec![])
    }

    /// The operands' dimensions and dependencies, or an error when one of
    /// them is a reduction (which must be the last step).
    fn combine(&self, op: &str, args: &[Val]) -> Result<(usize, Vec<usize>)> {
        let mut ndim = 0;
        let mut deps: Vec<usize> = Vec::new();
        for &a in args {
            let n = self.node(a);
            if let Op::Reduce { op: r, .. } = n.op {
                return Err(Error::Unsupported(format!(
                    "'{op}' uses the result of the reduction '{}'; a reduction must be the \
                     last step of a fused function",
                    r.tag()
                )));
            }
            ndim = ndim.max(n.ndim);
            deps.extend(&n.deps);
        }
        deps.sort_unstable();
        deps.dedup();
        Ok((ndim, deps))
    }

    /// `ufunc(args...)`: every output of the chosen loop.
    pub(crate) fn ufunc(&mut self, ufunc: &'static Ufunc, args: &[Val]) -> Vec<Val> {
        let name = ufunc.name();
        let vals = match self.try_ufunc(ufunc, args) {
            Ok(v) => return v,
            Err(e) => self.fail(name, e),
        };
        (0..ufunc.nout()).map(|_| vals).collect()
    }

    fn try_ufunc(&mut self, ufunc: &'static Ufunc, args: &[Val]) -> Result<Vec<Val>> {
        let (ndim, deps) = self.combine(ufunc.name(), args)?;
        let ops: Vec<Operand> = args.iter().map(|&a| self.ty(a).operand()).collect();
        let resolved = ufunc.resolve(&ops, &UfuncParams::default())?;
        // NumPy 2's checks of integer constants against the loop's types.
        for (k, &a) in args.iter().enumerate() {
            if let Op::Const(ScalarValue::Int(n)) = self.node(a).op
                && self.ty(a).weak
                && resolved.inputs[k].is_integer()
            {
                if let Some(value) = out_of_range_comparison(ufunc.name(), k, n, resolved.inputs[k])
                {
                    let outs = vec![Ty::strong(DType::Bool)];
                    let v = self.push(
                        Op::Folded {
                            value,
                            args: args.to_vec(),
                        },
                        outs,
                        ndim,
                        deps,
                    );
                    return Ok(vec![v]);
                }
                resolved.check_weak_int(k, n)?;
            }
        }
        let all_weak = args.iter().all(|&a| self.ty(a).weak);
        let outs: Vec<Ty> = resolved
            .outputs
            .iter()
            .map(|&d| Ty {
                dtype: d,
                weak: all_weak && d != DType::Bool,
            })
            .collect();
        let nout = outs.len();
        let v = self.push(
            Op::Ufunc {
                ufunc,
                loop_index: resolved.loop_index(),
                args: args.to_vec(),
            },
            outs,
            ndim,
            deps,
        );
        Ok((0..nout).map(|out| Val { node: v.node, out }).collect())
    }

    /// `where(cond, x, y)`: NumPy 2 types the result as `result_type(x, y)`
    /// (weak scalars by kind) and reads `cond` as bool.
    pub(crate) fn where_(&mut self, cond: Val, x: Val, y: Val) -> Val {
        let r = (|| {
            let (ndim, deps) = self.combine("where", &[cond, x, y])?;
            let dt = result_type(&[self.ty(x).operand(), self.ty(y).operand()])?;
            Ok(self.push(Op::Where { cond, x, y }, vec![Ty::strong(dt)], ndim, deps))
        })();
        r.unwrap_or_else(|e| self.fail("where", e))
    }

    /// `x.astype(dtype)` (unsafe casting, as NumPy's default for astype).
    pub(crate) fn cast(&mut self, x: Val, dtype: DType) -> Val {
        match self.combine("astype", &[x]) {
            Ok((ndim, deps)) => self.push(Op::Cast { x }, vec![Ty::strong(dtype)], ndim, deps),
            Err(e) => self.fail("astype", e),
        }
    }

    /// A reduction of `x` ([`FUSABLE_REDUCTIONS`]) with NumPy's result dtype
    /// (`dtype` where given, else the call's `dtype=` for the reductions
    /// that take one) and `axis`/`keepdims`.
    pub(crate) fn reduce(
        &mut self,
        op: Builtin,
        x: Val,
        axis: Option<&[isize]>,
        keepdims: bool,
        dtype: Option<DType>,
    ) -> Val {
        let name = op.tag();
        let r = (|| {
            if !FUSABLE_REDUCTIONS.contains(&op) {
                return Err(not_fusable(name));
            }
            if self.node(x).is_reduce() {
                return Err(Error::Unsupported(format!(
                    "'{name}' of the result of another reduction; a reduction must be the \
                     last step of a fused function"
                )));
            }
            let (ndim, deps) = self.combine(name, &[x])?;
            if deps.is_empty() {
                return Err(Error::Unsupported(
                    "a reduction of a value that depends on no array argument".into(),
                ));
            }
            let axes = reduced_axes(axis, ndim)?;
            let input = self.ty(x).array_dtype();
            let dtype = dtype.or(if takes_dtype(op) {
                self.call_dtype
            } else {
                None
            });
            let result = op.result_dtype(input, dtype)?;
            let acc = op.reduce_dtype(input, result);
            let out_ndim = if keepdims { ndim } else { ndim - axes.len() };
            Ok(self.push(
                Op::Reduce {
                    op,
                    x,
                    axes,
                    keepdims,
                    acc,
                    dtype,
                },
                vec![Ty::strong(result)],
                out_ndim,
                deps,
            ))
        })();
        r.unwrap_or_else(|e| self.fail(name, e))
    }

    /// Records an error raised outside the graph (an unknown operation, a
    /// value from another trace).
    pub(crate) fn record(&mut self, op: &str, e: Error) -> Val {
        self.fail(op, e)
    }
}

/// The reductions a fused function computes (each in one accumulator
/// field, `mean` and `nanmean` with a division after the pass).
pub const FUSABLE_REDUCTIONS: [Builtin; 13] = [
    Builtin::Sum,
    Builtin::Prod,
    Builtin::Max,
    Builtin::Min,
    Builtin::Mean,
    Builtin::All,
    Builtin::Any,
    Builtin::CountNonzero,
    Builtin::NanSum,
    Builtin::NanProd,
    Builtin::NanMax,
    Builtin::NanMin,
    Builtin::NanMean,
];

/// Whether NumPy's function takes `dtype=` (the call's `dtype=` applies
/// to these).
pub(crate) fn takes_dtype(op: Builtin) -> bool {
    matches!(
        op,
        Builtin::Sum
            | Builtin::Prod
            | Builtin::Mean
            | Builtin::NanSum
            | Builtin::NanProd
            | Builtin::NanMean
    )
}

/// The error for a NumPy reduction fuse cannot compute, naming it.
pub(crate) fn not_fusable(name: &str) -> Error {
    let why = match name {
        "argmax" | "argmin" | "nanargmax" | "nanargmin" => {
            "its index result needs an (index, value) accumulator"
        }
        "var" | "std" | "nanvar" | "nanstd" => "it needs a (count, mean, M2) accumulator",
        "ptp" => "it is max - min after the reductions (return both and subtract)",
        "median" | "nanmedian" | "percentile" | "nanpercentile" | "quantile" | "nanquantile" => {
            "it sorts or selects, which is not an elementwise map and reduce"
        }
        "cumsum" | "cumprod" | "nancumsum" | "nancumprod" => "a scan is not a reduction",
        _ => "it is not a reduction fuse knows",
    };
    let list: Vec<&str> = FUSABLE_REDUCTIONS.iter().map(|&op| op.tag()).collect();
    Error::Unsupported(format!(
        "'{name}' cannot be fused: {why} (fusable reductions: {})",
        list.join(", ")
    ))
}

pub(crate) use crate::ufunc::call::out_of_range_comparison;
pub(crate) use crate::ufunc::select::is_comparison;

fn cse_key(op: &Op, outs: &[Ty]) -> String {
    let vals = |v: &[Val]| {
        v.iter()
            .map(|a| format!("{}.{}", a.node, a.out))
            .collect::<Vec<_>>()
            .join(",")
    };
    let body = match op {
        Op::Arg(k) => format!("arg{k}"),
        Op::Const(c) => match c {
            ScalarValue::Bool(b) => format!("cb{b}"),
            ScalarValue::Int(n) => format!("ci{n}"),
            ScalarValue::Float(f) => format!("cf{:x}", f.to_bits()),
            ScalarValue::Complex(z) => format!("cc{:x},{:x}", z.re.to_bits(), z.im.to_bits()),
        },
        Op::Ufunc {
            ufunc,
            loop_index,
            args,
        } => format!("u{}:{loop_index}({})", ufunc.name(), vals(args)),
        Op::Folded { value, args } => format!("f{value}({})", vals(args)),
        Op::Where { cond, x, y } => format!("w({})", vals(&[*cond, *x, *y])),
        Op::Cast { x } => format!("cast({})", vals(&[*x])),
        Op::Reduce {
            op,
            x,
            axes,
            keepdims,
            acc,
            dtype,
        } => format!(
            "r{op:?}:{axes:?}:{keepdims}:{acc}:{dtype:?}({})",
            vals(&[*x])
        ),
    };
    format!("{body}->{outs:?}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fused function's context goes in front of the message and the
    /// NumPy class stays, `RuntimeError` included.
    #[test]
    fn context_keeps_the_numpy_class() {
        let e = context("f", "isin", Error::NumpyRuntime("range".into()));
        assert!(
            matches!(&e, Error::NumpyRuntime(m) if m == "fuse 'f': isin: range"),
            "{e:?}"
        );
        let e = context("f", "sum", Error::Value("bad".into()));
        assert!(matches!(&e, Error::Value(m) if m == "fuse 'f': sum: bad"));
    }
}
