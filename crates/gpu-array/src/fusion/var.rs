//! [`FVar`], the handle a traced function computes with, [`FArg`] (a
//! value or a Rust scalar), and how an operation finds the graph it adds
//! to: its operands' builder, or the trace running on this thread.

use std::cell::RefCell;
use std::rc::Rc;

use super::graph::{Builder, Val};
use crate::dtype::{DType, ScalarValue};
use crate::error::Error;

thread_local! {
    /// The builders of the traces running on this thread, innermost last:
    /// operations whose operands are all scalars (`fx::exp(2.0)`) add their
    /// nodes to the innermost one.
    static CURRENT: RefCell<Vec<Rc<RefCell<Builder>>>> = const { RefCell::new(Vec::new()) };
}

/// Makes `b` the current trace of this thread until dropped.
pub(crate) struct CurrentGuard;

impl CurrentGuard {
    pub(crate) fn enter(b: &Rc<RefCell<Builder>>) -> CurrentGuard {
        CURRENT.with(|c| c.borrow_mut().push(Rc::clone(b)));
        CurrentGuard
    }
}

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        CURRENT.with(|c| {
            c.borrow_mut().pop();
        });
    }
}

fn current() -> Option<Rc<RefCell<Builder>>> {
    CURRENT.with(|c| c.borrow().last().cloned())
}

/// A value of a fused function being traced: an argument, a constant or the
/// result of an operation on them. It has the dtype the call signature
/// gives it ([`FVar::dtype`]); operators (`&x - &y`, `&x * 2.0`), the
/// methods here and the functions of [`super::fx`] build the graph.
///
/// An `FVar` lives only while its function is traced; using one in another
/// trace is an error.
#[derive(Clone)]
pub struct FVar {
    pub(crate) b: Rc<RefCell<Builder>>,
    pub(crate) v: Val,
}

impl std::fmt::Debug for FVar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let b = self.b.borrow();
        let t = b.ty(self.v);
        f.debug_struct("FVar")
            .field("node", &self.v.node)
            .field("out", &self.v.out)
            .field("dtype", &t.dtype)
            .field("weak", &t.weak)
            .field("ndim", &b.node(self.v).ndim)
            .finish()
    }
}

/// An operand of a fused operation: a traced value or a Rust scalar (a weak
/// constant, as a Python scalar in NumPy 2).
#[derive(Clone, Debug)]
pub enum FArg {
    /// A traced value.
    Var(FVar),
    /// A constant.
    Scalar(ScalarValue),
}

impl From<&FVar> for FArg {
    fn from(v: &FVar) -> FArg {
        FArg::Var(v.clone())
    }
}

impl From<FVar> for FArg {
    fn from(v: FVar) -> FArg {
        FArg::Var(v)
    }
}

crate::array::from_rust_scalars!(FArg, FArg::Scalar);
crate::array::from_rust_scalars!(FArg, FArg::Scalar; ScalarValue);

/// Runs `f` on the builder of `args` (the first traced value's, else this
/// thread's current trace) with every operand as a graph value, and wraps
/// the results.
///
/// # Panics
/// When every operand is a scalar and no trace is running on this thread
/// (a fused operation called outside a fused function).
pub(crate) fn apply(
    op: &str,
    args: &[FArg],
    f: impl FnOnce(&mut Builder, &[Val]) -> Vec<Val>,
) -> Vec<FVar> {
    let b = args
        .iter()
        .find_map(|a| match a {
            FArg::Var(v) => Some(Rc::clone(&v.b)),
            FArg::Scalar(_) => None,
        })
        .or_else(current)
        .unwrap_or_else(|| {
            panic!(
                "fused operation '{op}' called with scalars only outside a fused function's \
                 trace"
            )
        });
    let mut g = b.borrow_mut();
    let mut vals = Vec::with_capacity(args.len());
    let mut foreign = false;
    for a in args {
        vals.push(match a {
            FArg::Var(v) => {
                if !Rc::ptr_eq(&v.b, &b) {
                    foreign = true;
                }
                v.v
            }
            FArg::Scalar(s) => g.constant(*s),
        });
    }
    let outs = if foreign {
        let v = g.record(
            op,
            Error::Value(
                "an FVar of another trace was used (an FVar lives only while its fused \
                 function is traced)"
                    .into(),
            ),
        );
        vec![v]
    } else {
        f(&mut g, &vals)
    };
    drop(g);
    outs.into_iter()
        .map(|v| FVar {
            b: Rc::clone(&b),
            v,
        })
        .collect()
}

/// [`apply`] for operations with one result.
pub(crate) fn apply1(op: &str, args: &[FArg], f: impl FnOnce(&mut Builder, &[Val]) -> Val) -> FVar {
    apply(op, args, |b, v| vec![f(b, v)])
        .into_iter()
        .next()
        .expect("one result")
}

impl FVar {
    /// The dtype this value has in the signature being traced (for a weak
    /// scalar, the dtype it is held in: int64, float64, complex128).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("widen", |x: &FVar| {
    ///     assert_eq!(x.dtype(), DType::Int16); // the signature's dtype, while tracing
    ///     x.astype(DType::Int64)
    /// });
    /// f.trace(&[ArgSig::array(DType::Int16, 1)])?;
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.b.borrow().ty(self.v).dtype
    }

    /// Whether this value is a weak scalar (a Rust constant or scalar
    /// argument, or an operation on such values only).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::ScalarKind;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("scale", |x: &FVar, a: &FVar| {
    ///     assert!(!x.is_weak() && a.is_weak()); // `a` is a Rust scalar argument
    ///     x * a
    /// });
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 1), ArgSig::Scalar(ScalarKind::Float)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Float32]); // a weak float keeps float32
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn is_weak(&self) -> bool {
        self.b.borrow().ty(self.v).weak
    }

    /// The number of dimensions of this value (the broadcast of the array
    /// arguments it depends on; 0 for a scalar).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("outer", |x: &FVar, y: &FVar| {
    ///     let z = x * y;
    ///     assert_eq!((x.ndim(), z.ndim()), (1, 2));
    ///     z
    /// });
    /// f.trace(&[ArgSig::array(DType::Float32, 1), ArgSig::array(DType::Float32, 2)])?;
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn ndim(&self) -> usize {
        self.b.borrow().node(self.v).ndim
    }

    /// `x.astype(dtype)`: a conversion with `astype`'s rules.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let t = fuse("to_half", |x: &FVar| x.astype(DType::Float16)).trace(&[ArgSig::array(DType::Float64, 1)])?;
    /// assert_eq!(t.output_dtypes(), [DType::Float16]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn astype(&self, dtype: DType) -> FVar {
        apply1("astype", &[self.into()], |b, v| b.cast(v[0], dtype))
    }
}
