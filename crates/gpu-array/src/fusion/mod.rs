//! Kernel fusion: CuPy's `cupy.fuse` for Rust. A function written with
//! Cuprum's operations on symbolic values ([`FVar`]) becomes one kernel per
//! call signature (argument dtypes and dimensions, scalar kinds), compiled
//! once and cached.
//!
//! | CuPy                                               | Cuprum                                                     |
//! |----------------------------------------------------|------------------------------------------------------------|
//! | `@cp.fuse(kernel_name='squared_diff')`<br>`def f(x, y): return (x - y) * (x - y)` | `let f = fuse("squared_diff", \|x: &FVar, y: &FVar\| { let d = x - y; &d * &d });` |
//! | `f(x, y)`, `f(x, 2.0)`                             | `f.call(&[&x, &y])?`, `f.call(&[Input::from(&x), 2.0.into()])?` |
//! | `cp.exp(x)`, `cp.maximum(x, 0)` inside             | [`fx::exp`]`(x)`, [`fx::maximum`]`(x, 0)`                  |
//! | `x < y`, `cp.where(c, x, y)`, `x.astype(cp.float64)` | `x.less(y)`, [`fx::where_`]`(c, x, y)`, `x.astype(DType::Float64)` |
//! | `cp.sum(x * y, axis=-1)`                           | `(x * y).sum(&ReduceOptions::axis(-1))`                    |
//! | `cp.all(x)`, `cp.any(x)`, `cp.count_nonzero(x)`    | `x.all(&o)`, `x.any(&o)`, [`fx::count_nonzero`]`(x, &o)`    |
//! | `cp.nansum`, `nanprod`, `nanmax`, `nanmin`, `nanmean` | [`fx::nansum`]`(x, &o)`, ... (or [`fx::reduction`]`("nansum", x, &o)`) |
//! | `return a, b`                                      | `(a, b)` (one kernel, two results)                         |
//! | `f(x, out=o)` (NumPy's ufunc `out=`)               | `f.call_with(&[&x], &FuseOptions::out(&[&o]))?`             |
//! | `f(x, dtype=cp.float64)` (the reductions' `dtype=`) | `f.call_with(&[&x], &FuseOptions::default().dtype(DType::Float64))?` |
//!
//! Rust cannot trace a closure's body the way CuPy traces Python, so the
//! closure runs once per new signature on [`FVar`]s, whose operations
//! record an expression graph; each node is typed on the spot with NumPy's
//! rules, through the ufunc table's loop selection (so a fused result has
//! the unfused result's dtype) with NEP 50 weak scalars for Rust constants
//! and scalar arguments. The graph renders to:
//!
//! - one elementwise kernel of the engine in [`crate::elementwise`]
//!   (broadcasting, dimension coalescing, 32-bit indexing and the 16-byte
//!   vector path), when no result is reduced;
//! - one reduction kernel of [`crate::reduction`] (its planner picks the
//!   strategy) whose map is the fused elementwise chain, when every result
//!   is a reduction ([`FUSABLE_REDUCTIONS`]: `sum`, `prod`, `max`, `min`,
//!   `mean`, `all`, `any`, `count_nonzero`, `nansum`, `nanprod`, `nanmax`,
//!   `nanmin`, `nanmean`, with `axis`, `keepdims` and `dtype`, NumPy's
//!   result dtypes and NaN rules). Beyond CuPy, several reductions over the
//!   same axes share the kernel and its one pass over the data, through a
//!   struct accumulator with one field per distinct reduction:
//!   `(x.sum(..), (x * x).sum(..))`; `x.sum` and `x.mean` share a field,
//!   `nanmean` is a NaN-skipping sum and a count of non-NaN values.
//!
//! A call may write into given arrays and set the reductions' dtype
//! ([`Fused::call_with`], [`FuseOptions`]). CuPy's fused functions take
//! neither (CuPy's `out=` is on the ufuncs inside, writing into an
//! argument), so NumPy's keywords decide: an `out=` array takes its result
//! under `same_kind` casting, an elementwise one broadcasts the iteration
//! as a ufunc's `out=` does, a reduced one has the result's shape exactly
//! and `sum`/`prod` (and their `nan` forms) accumulate in its dtype; the
//! call's `dtype=` is that of every `sum`, `prod`, `mean` and `nan` form
//! without its own. Both are part of the trace's key.
//!
//! What cannot be fused is an error at trace time that names the
//! operation: a reduction followed by more operations, reductions over
//! different axes, reduced and elementwise results together, types no loop
//! takes, `out=` inside the function, `dtype=` where NumPy has none, a
//! reduction fuse does not compute (`argmax`, `var`, `median`, `cumsum`
//! by [`fx::reduction`]'s name: [`Error::Unsupported`] saying why and
//! listing the fusable ones), or an unknown operation ([`fx::ufunc`] by
//! name).
//!
//! Scalars follow NumPy 2 (NEP 50): a Rust constant or scalar argument
//! counts by its kind only (`float32 * 2.0` stays float32, `uint8 + 300` is
//! NumPy's overflow error at trace time, `uint8 < 300` is all true), and an
//! operation whose operands are all such scalars stays a weak scalar, as
//! Python arithmetic on Python scalars does. Each ufunc node runs its table
//! loop's own statement with the same conversions as the unfused kernel, so
//! fused values are the unfused values; floating-point chains where a
//! multiply feeds an add may differ in the last bits, since the compiler may
//! contract the two into one FMA once they share a kernel (as in CuPy).
//!
//! Constants written in the closure are part of the kernel's source: a
//! closure whose captured values change between calls keeps the values of
//! its first trace for each signature (as in CuPy). Pass changing values as
//! scalar arguments instead.

mod graph;
mod ops;
mod run;
#[cfg(test)]
mod tests;
mod trace;
mod var;

pub mod fx;

pub use graph::{ArgSig, CallSig, FUSABLE_REDUCTIONS};
pub use trace::Trace;
pub use var::{FArg, FVar};

use std::cell::RefCell;
use std::collections::HashMap;
use std::marker::PhantomData;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::array::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ufunc::Input;

use graph::{Builder, Val};
use var::CurrentGuard;

/// Defines a fused function: `kernel_name` names its kernels (CuPy's
/// `kernel_name`; a C identifier), `f` is a closure over `&FVar`s (one to
/// eight of them, or a slice `&[FVar]` for any number) returning one
/// [`FVar`], a tuple of them, a `Vec` of them, or a `Result` of those.
///
/// Annotate the closure's parameters (`|x: &FVar, y: &FVar|`) so that its
/// arity is known.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// let x = gpu_array::creation::arange_with(0, 10, 1, None)?;
/// let y = gpu_array::creation::arange_with(10, 0, -1, None)?;
/// let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
///     let d = x - y;
///     &d * &d
/// });
/// let z = f.call(&[&x, &y])?;
/// let g = fuse("softplus", |x: &FVar| fx::log1p(fx::exp(x)));
/// let w = g.call(&[&z.astype(gpu_array::DType::Float32)?])?;
/// # Ok(()) }
/// ```
pub fn fuse<A, F: FuseFn<A>>(kernel_name: impl Into<String>, f: F) -> Fused<F, A> {
    Fused {
        name: kernel_name.into(),
        f,
        cache: Mutex::new(HashMap::new()),
        _args: PhantomData,
    }
}

/// The traces of a fused function: per argument signature, one per call
/// keyword set ([`CallSig`]) seen.
type TraceCache = HashMap<Vec<ArgSig>, Vec<(CallSig, Arc<Trace>)>>;

/// A fused function: the closure and, per call signature, its [`Trace`]
/// (whose kernels the engines' caches hold once compiled).
pub struct Fused<F, A> {
    name: String,
    f: F,
    /// Per signature, the traces of each call keyword set seen (usually
    /// one): a call looks up by its argument signature without allocating.
    cache: Mutex<TraceCache>,
    _args: PhantomData<fn() -> A>,
}

/// Keywords of a fused call ([`Fused::call_with`]): NumPy's `out=` and
/// `dtype=`. CuPy's fused functions take positional arguments only (their
/// `out=` lives on the ufuncs inside); these follow NumPy's ufunc and
/// reduction keywords.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct FuseOptions<'a> {
    /// One entry per result: the array to write it into (of the result's
    /// shape exactly; its dtype one the result casts to under
    /// `same_kind`), or `None` to allocate it. Empty: allocate all.
    pub out: Vec<Option<&'a Array>>,
    /// The dtype of the reductions that take `dtype=` in NumPy (`sum`,
    /// `prod`, `mean` and their `nan` forms): their accumulator and
    /// result, as `sum(x, dtype=...)`. A reduction's own
    /// [`ReduceOptions::dtype`](crate::reduction::ReduceOptions::dtype)
    /// wins over it.
    pub dtype: Option<DType>,
}

impl<'a> FuseOptions<'a> {
    /// Sets `out`: one entry per result, `None` to allocate that one.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, fusion::{FVar, FuseOptions, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("sum_and_diff", |x: &FVar, y: &FVar| (x + y, x - y));
    /// let (x, y) = (Array::from_slice(&[3.0f32], &[1])?, Array::from_slice(&[1.0f32], &[1])?);
    /// let s = Array::empty(1, DType::Float32)?;
    /// let (s2, d) = f.call_with(&[&x, &y], &FuseOptions::default().out_optional(&[Some(&s), None]))?;
    /// assert_eq!((s.to_vec::<f32>()?, d.to_vec::<f32>()?), (vec![4.0], vec![2.0])); // `s2` is `s`
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out_optional(mut self, out: &[Option<&'a Array>]) -> FuseOptions<'a> {
        self.out = out.to_vec();
        self
    }
}

impl<'a> FuseOptions<'a> {
    /// Writes every result into `out` (one array per result).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, fusion::{FVar, FuseOptions, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("twice", |x: &FVar| x + x);
    /// let x = Array::from_slice(&[1i32, 2], &[2])?;
    /// let out = Array::empty(2, DType::Int64)?; // int32 results cast to int64 under same_kind
    /// f.call_with(&[&x], &FuseOptions::out(&[&out]))?;
    /// assert_eq!(out.to_vec::<i64>()?, [2, 4]);
    /// # Ok(()) }
    /// ```
    pub fn out(out: &[&'a Array]) -> FuseOptions<'a> {
        FuseOptions {
            out: out.iter().map(|&a| Some(a)).collect(),
            dtype: None,
        }
    }

    /// Sets `dtype`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, fusion::{FVar, FuseOptions, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("total", |x: &FVar| x.sum(()));
    /// let x = Array::from_slice(&[200u8, 100], &[2])?;
    /// let t = f.call_with(&[&x], &FuseOptions::default().dtype(DType::UInt8))?; // sum(x, dtype=uint8)
    /// assert_eq!(t.to_scalar::<u8>()?, 44); // 300 wraps in uint8
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: impl Into<Option<DType>>) -> FuseOptions<'a> {
        self.dtype = dtype.into();
        self
    }

    /// What the call adds to the signature.
    fn call_sig(&self) -> CallSig {
        CallSig {
            dtype: self.dtype,
            out: self.out.iter().map(|o| o.map(Array::dtype)).collect(),
        }
    }
}

impl<F, A> std::fmt::Debug for Fused<F, A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self
            .cache
            .lock()
            .map_or(0, |c| c.values().map(Vec::len).sum::<usize>());
        f.debug_struct("Fused")
            .field("kernel_name", &self.name)
            .field("signatures", &n)
            .finish()
    }
}

/// A closure that a fused function traces: implemented for closures of one
/// to eight `&FVar` parameters and for `Fn(&[FVar])` (any number). `A` only
/// tells the implementations apart.
pub trait FuseFn<A> {
    /// What the closure returns.
    type Output: FuseOutput;
    /// Its number of parameters (`None`: any).
    fn arity(&self) -> Option<usize>;
    /// Runs the closure on `args` (as many as [`FuseFn::arity`] says).
    fn run(&self, args: &[FVar]) -> Self::Output;
}

/// The marker of closures over a slice of [`FVar`]s.
#[derive(Debug)]
pub struct Variadic;

impl<Func, R> FuseFn<Variadic> for Func
where
    Func: Fn(&[FVar]) -> R,
    R: FuseOutput,
{
    type Output = R;
    fn arity(&self) -> Option<usize> {
        None
    }
    fn run(&self, args: &[FVar]) -> R {
        self(args)
    }
}

macro_rules! fuse_fn {
    ($($n:literal => ($($i:tt),*);)*) => {$(
        impl<Func, R> FuseFn<($(fuse_fn!(@ty $i),)*)> for Func
        where
            Func: Fn($(fuse_fn!(@ref $i)),*) -> R,
            R: FuseOutput,
        {
            type Output = R;
            fn arity(&self) -> Option<usize> {
                Some($n)
            }
            fn run(&self, args: &[FVar]) -> R {
                self($(&args[$i]),*)
            }
        }
    )*};
    (@ty $i:tt) => { FVar };
    (@ref $i:tt) => { &FVar };
}

fuse_fn! {
    1 => (0);
    2 => (0, 1);
    3 => (0, 1, 2);
    4 => (0, 1, 2, 3);
    5 => (0, 1, 2, 3, 4);
    6 => (0, 1, 2, 3, 4, 5);
    7 => (0, 1, 2, 3, 4, 5, 6);
    8 => (0, 1, 2, 3, 4, 5, 6, 7);
}

/// What a fused function may return, and the arrays a call gives back for
/// it: an [`FVar`] gives an [`Array`], a tuple of up to eight gives a tuple
/// of arrays, a `Vec` a `Vec`; `Result<T>` lets the closure use `?`.
pub trait FuseOutput {
    /// The call's result.
    type Arrays;
    /// The traced results, in order.
    ///
    /// # Errors
    /// An error the closure returned.
    fn into_vars(self) -> Result<Vec<FVar>>;
    /// The call's result from the result arrays, in order.
    fn from_arrays(arrays: Vec<Array>) -> Self::Arrays;
}

impl FuseOutput for FVar {
    type Arrays = Array;
    fn into_vars(self) -> Result<Vec<FVar>> {
        Ok(vec![self])
    }
    fn from_arrays(arrays: Vec<Array>) -> Array {
        arrays.into_iter().next().expect("one result")
    }
}

impl FuseOutput for Vec<FVar> {
    type Arrays = Vec<Array>;
    fn into_vars(self) -> Result<Vec<FVar>> {
        Ok(self)
    }
    fn from_arrays(arrays: Vec<Array>) -> Vec<Array> {
        arrays
    }
}

impl<T: FuseOutput> FuseOutput for Result<T> {
    type Arrays = T::Arrays;
    fn into_vars(self) -> Result<Vec<FVar>> {
        self?.into_vars()
    }
    fn from_arrays(arrays: Vec<Array>) -> T::Arrays {
        T::from_arrays(arrays)
    }
}

macro_rules! tuple_output {
    ($($n:literal => ($($i:tt),*);)*) => {$(
        impl FuseOutput for ($(tuple_output!(@v $i),)*) {
            type Arrays = ($(tuple_output!(@a $i),)*);
            fn into_vars(self) -> Result<Vec<FVar>> {
                Ok(vec![$(self.$i),*])
            }
            fn from_arrays(arrays: Vec<Array>) -> Self::Arrays {
                let mut it = arrays.into_iter();
                ($(tuple_output!(@next it $i),)*)
            }
        }
    )*};
    (@v $i:tt) => { FVar };
    (@a $i:tt) => { Array };
    (@next $it:ident $i:tt) => { $it.next().expect("one array per result") };
}

tuple_output! {
    1 => (0);
    2 => (0, 1);
    3 => (0, 1, 2);
    4 => (0, 1, 2, 3);
    5 => (0, 1, 2, 3, 4);
    6 => (0, 1, 2, 3, 4, 5);
    7 => (0, 1, 2, 3, 4, 5, 6);
    8 => (0, 1, 2, 3, 4, 5, 6, 7);
}

/// Distinct ids for traces (the kernel cache's key for their kernels).
static NEXT_TRACE: AtomicU64 = AtomicU64::new(1);

impl<F: FuseFn<A>, A> Fused<F, A> {
    /// The kernel name.
    ///
    /// ```
    /// use gpu_array::fusion::{FVar, fuse};
    /// let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
    ///     let d = x - y;
    ///     &d * &d
    /// });
    /// assert_eq!(f.kernel_name(), "squared_diff");
    /// ```
    pub fn kernel_name(&self) -> &str {
        &self.name
    }

    /// [`Fused::call`] with the arguments as a tuple of arrays and scalars
    /// (`f.run((&x, 2.0))?`, `f.run(&x)?`); one output comes back as an
    /// `Array`, several as a tuple.
    ///
    /// ```no_run
    /// use gpu_array::{Array, fusion::{FVar, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("axpy", |a: &FVar, x: &FVar, y: &FVar| &(a * x) + y);
    /// let (x, y) = (Array::from_slice(&[1.0f64, 2.0], &[2])?, Array::from_slice(&[10.0f64, 20.0], &[2])?);
    /// let z = f.run((2.0, &x, &y))?; // a weak scalar and two arrays
    /// assert_eq!(z.to_vec::<f64>()?, [12.0, 24.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Fused::call`].
    pub fn run<'a>(
        &self,
        args: impl crate::elementwise::Args<'a, Input<'a>>,
    ) -> Result<<F::Output as FuseOutput>::Arrays> {
        self.call(&args.into_args())
    }

    /// Calls the fused function (CuPy's `f(x, y)`): arrays broadcast
    /// together; scalars act as Python scalars (NEP 50). The first call
    /// with a new signature traces the closure and compiles its kernel.
    ///
    /// ```no_run
    /// use gpu_array::{Array, fusion::{FVar, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("hypot2", |x: &FVar, y: &FVar| &(x * x) + &(y * y));
    /// let (x, y) = (Array::from_slice(&[3.0f32], &[1])?, Array::from_slice(&[4.0f32], &[1])?);
    /// assert_eq!(f.call(&[&x, &y])?.to_vec::<f32>()?, [25.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A wrong number of arguments; the trace's error (an operation that
    /// cannot be fused or typed, naming it); shapes that do not broadcast;
    /// arrays on different devices; compilation or launch failures.
    pub fn call<'a, I: Into<Input<'a>> + Copy>(
        &self,
        args: &[I],
    ) -> Result<<F::Output as FuseOutput>::Arrays> {
        self.call_with(args, &FuseOptions::default())
    }

    /// [`Fused::call`] with NumPy's `out=` and `dtype=` ([`FuseOptions`]):
    /// `f(x, y, out=(o,), dtype=float64)` in NumPy's words. The results are
    /// the `out=` arrays where given.
    ///
    /// An elementwise result broadcasts into its `out=` array as a ufunc's
    /// does (the array's shape joins the broadcast and must be the
    /// broadcast shape); a reduced result's `out=` has its shape exactly,
    /// and `sum`/`prod` (and their `nan` forms) without `dtype=` accumulate
    /// in its dtype, as NumPy's. An `out=` array that shares memory with an
    /// argument gets the result through a temporary unless it is that very
    /// argument, element for element, in an elementwise kernel.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, fusion::{FVar, FuseOptions, fuse}};
    /// # fn main() -> gpu_array::Result<()> {
    /// let f = fuse("mean_sq", |x: &FVar| (x * x).mean(()));
    /// let x = Array::from_slice(&[1.0f32, 3.0], &[2])?;
    /// let m = f.call_with(&[&x], &FuseOptions::default().dtype(DType::Float64))?;
    /// assert_eq!((m.dtype(), m.to_scalar::<f64>()?), (DType::Float64, 5.0));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Fused::call`]; an `out=` list whose length is not the number of
    /// results; an `out=` array of the wrong shape or of a dtype the result
    /// cannot be cast to under `same_kind`; `dtype=` on a function that
    /// returns no `sum`/`prod`/`mean`/`nansum`/`nanprod`/`nanmean`.
    pub fn call_with<'a, I: Into<Input<'a>> + Copy>(
        &self,
        args: &[I],
        options: &FuseOptions<'_>,
    ) -> Result<<F::Output as FuseOutput>::Arrays> {
        let inputs: Vec<Input<'a>> = args.iter().map(|&a| a.into()).collect();
        let trace = self.trace_with(&run::signature(&inputs), &options.call_sig())?;
        let arrays = run::run(&trace, &inputs, &options.out)?;
        Ok(<F::Output as FuseOutput>::from_arrays(arrays))
    }

    /// The trace for a call signature, tracing the closure on first use
    /// (this is what [`Fused::call`] compiles; also useful to look at the
    /// generated kernels without a GPU).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, FVar, fuse};
    /// let f = fuse("squared_diff", |x: &FVar, y: &FVar| {
    ///     let d = x - y;
    ///     &d * &d
    /// });
    /// let t = f.trace(&[ArgSig::array(DType::Float32, 2), ArgSig::array(DType::Float32, 1)])?; // no GPU needed
    /// assert_eq!((t.output_dtypes(), t.output_ndims()), (vec![DType::Float32], vec![2]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Fused::call`]'s tracing errors.
    pub fn trace(&self, sig: &[ArgSig]) -> Result<Arc<Trace>> {
        self.trace_with(sig, &CallSig::default())
    }

    /// The trace for a call signature and the call's `dtype=` and `out=`
    /// dtypes ([`Fused::call_with`]), traced on first use.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::fusion::{ArgSig, CallSig, FVar, fuse};
    /// let f = fuse("total", |x: &FVar| x.sum(()));
    /// let call = CallSig { dtype: Some(DType::Float64), out: vec![] }; // sum(x, dtype=float64)
    /// let t = f.trace_with(&[ArgSig::array(DType::Float32, 1)], &call)?;
    /// assert_eq!(t.output_dtypes(), [DType::Float64]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Fused::call_with`]'s tracing errors.
    pub fn trace_with(&self, sig: &[ArgSig], call: &CallSig) -> Result<Arc<Trace>> {
        if let Some(t) = self
            .cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(sig)
            .and_then(|v| v.iter().find(|(c, _)| c == call))
        {
            return Ok(Arc::clone(&t.1));
        }
        let t = Arc::new(self.trace_uncached(sig, call)?);
        self.cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(sig.to_vec())
            .or_default()
            .push((call.clone(), Arc::clone(&t)));
        Ok(t)
    }

    fn trace_uncached(&self, sig: &[ArgSig], call: &CallSig) -> Result<Trace> {
        if !crate::elementwise::params::is_identifier(&self.name) {
            return Err(Error::Value(format!(
                "invalid kernel name '{}' for fuse",
                self.name
            )));
        }
        if let Some(n) = self.f.arity()
            && n != sig.len()
        {
            return Err(Error::Value(format!(
                "fuse '{}' takes {n} arguments but {} were given",
                self.name,
                sig.len()
            )));
        }
        let b = Rc::new(RefCell::new(Builder::new(&self.name, sig, call.dtype)));
        let vars: Vec<FVar> = (0..sig.len())
            .map(|k| FVar {
                b: Rc::clone(&b),
                v: Val { node: k, out: 0 },
            })
            .collect();
        let result = {
            let _guard = CurrentGuard::enter(&b);
            self.f.run(&vars).into_vars()
        };
        let result = result.map_err(|e| graph::context(&self.name, "the function", e))?;
        let mut outputs = Vec::with_capacity(result.len());
        for v in &result {
            if !Rc::ptr_eq(&v.b, &b) {
                return Err(Error::Value(format!(
                    "fuse '{}': a result is an FVar of another trace",
                    self.name
                )));
            }
            outputs.push(v.v);
        }
        drop(result);
        drop(vars);
        // FVars the closure kept (in a static or a cell) may still hold the
        // builder, and may still be asked their dtype: copy the graph out.
        let (nodes, error) = {
            let mut g = b.borrow_mut();
            (g.nodes.clone(), g.error.take())
        };
        let id = NEXT_TRACE.fetch_add(1, Ordering::Relaxed);
        Trace::new(id, &self.name, sig, call, nodes, error, outputs)
    }
}
