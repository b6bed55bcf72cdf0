//! The operations of a fused function, NumPy's names (`cp.exp(x)` inside a
//! `cupy.fuse` function is `fx::exp(x)`): every ufunc of the table
//! ([`crate::ufunc`]) and its aliases, [`where_`], [`astype`], and the
//! reductions [`sum`], [`prod`], [`amax`]/[`max`], [`amin`]/[`min`],
//! [`mean`], [`all`], [`any`], [`count_nonzero`], [`nansum`], [`nanprod`],
//! [`nanmax`], [`nanmin`], [`nanmean`] (and [`reduction`] by name). Operands are [`FVar`]s or Rust scalars (weak constants, as
//! Python scalars in NumPy 2); results are typed as the unfused call's.
//!
//! Errors (no loop for the types, an axis out of range, an operation after
//! a reduction) are recorded by the trace and returned by the call, so the
//! functions return plain [`FVar`]s.

use std::sync::OnceLock;

use super::var::{FArg, FVar, apply, apply1};
use crate::dtype::DType;
use crate::error::Error;
use crate::reduction::{Builtin, ReduceOptions};
use crate::ufunc::{self, Ufunc};

fn table(cell: &'static OnceLock<&'static Ufunc>, name: &str) -> &'static Ufunc {
    cell.get_or_init(|| ufunc::get(name).expect("the fused function names a table ufunc"))
}

/// Calls the table's ufunc `name` (or a NumPy alias of it) on `args`; one
/// value per output. An unknown name or a wrong number of operands is the
/// trace's error, naming the operation.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.hypot(x, 3.0) inside a cupy.fuse function
/// let f = fuse("by_name", |x: &FVar| fx::ufunc("hypot", &[x.into(), 3.0.into()]));
/// let ys = f.call(&[&x])?; // one array per ufunc output
/// # Ok(()) }
/// ```
///
/// # Panics
/// When every operand is a scalar and no fused function is being traced on
/// this thread.
pub fn ufunc(name: &str, args: &[FArg]) -> Vec<FVar> {
    match ufunc::get(name) {
        Ok(u) => call(u, args),
        Err(_) => apply(name, args, |b, _| {
            vec![b.record(
                name,
                Error::Unsupported(format!("'{name}' is not an operation fuse knows")),
            )]
        }),
    }
}

/// Calls the ufunc `u` (of any table: NumPy's, or one a crate above
/// defines with [`ufunc::UfuncBuilder`], as gpu-special's) on `args`; one
/// value per output. Its device header, if any, is included by the fused
/// kernel. A wrong number of operands is the trace's error.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// use gpu_array::ufunc;
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// let hypot = ufunc::get("hypot")?;
/// let f = fuse("by_ufunc", move |x: &FVar| fx::call(hypot, &[x.into(), 3.0.into()]));
/// let ys = f.call(&[&x])?;
/// # Ok(()) }
/// ```
///
/// # Panics
/// When every operand is a scalar and no fused function is being traced on
/// this thread.
pub fn call(u: &'static Ufunc, args: &[FArg]) -> Vec<FVar> {
    if u.nin() == args.len() {
        return apply(u.name(), args, |b, v| b.ufunc(u, v));
    }
    apply(u.name(), args, |b, _| {
        vec![b.record(
            u.name(),
            Error::Value(format!(
                "{}() takes {} positional input arguments but {} were given",
                u.name(),
                u.nin(),
                args.len()
            )),
        )]
    })
}

macro_rules! unary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// ```no_run
        /// use gpu_array::fusion::{FVar, fuse, fx};
        /// # fn main() -> gpu_array::Result<()> {
        /// # let x = gpu_array::creation::array([0.5, 1.0, 2.0])?;
        #[doc = concat!("// cp.", $name, "(x) inside a cupy.fuse function")]
        #[doc = concat!("let f = fuse(\"", $name, "\", |x: &FVar| fx::", stringify!($f), "(x));")]
        /// let y = f.call(&[&x])?;
        /// # Ok(()) }
        /// ```
        pub fn $f(x: impl Into<FArg>) -> FVar {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let u = table(&U, $name);
            apply1(u.name(), &[x.into()], |b, v| b.ufunc(u, v)[0])
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// ```no_run
        /// use gpu_array::fusion::{FVar, fuse, fx};
        /// # fn main() -> gpu_array::Result<()> {
        /// # let (a, b) = (gpu_array::creation::array([6, 7, 8])?, gpu_array::creation::array([1, 2, 3])?);
        #[doc = concat!("// cp.", $name, "(a, b) inside a cupy.fuse function")]
        #[doc = concat!("let f = fuse(\"", $name, "\", |a: &FVar, b: &FVar| fx::", stringify!($f), "(a, b));")]
        /// let y = f.call(&[&a, &b])?;
        /// # Ok(()) }
        /// ```
        pub fn $f(x1: impl Into<FArg>, x2: impl Into<FArg>) -> FVar {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let u = table(&U, $name);
            apply1(u.name(), &[x1.into(), x2.into()], |b, v| b.ufunc(u, v)[0])
        }
    )*};
}

fn two(v: Vec<FVar>) -> (FVar, FVar) {
    let mut it = v.into_iter();
    let a = it.next().expect("two results");
    let b = it.next().expect("two results");
    (a, b)
}

/// `numpy.divmod`: floor quotient and remainder.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // q, r = cp.divmod(x, 2.0)
/// let f = fuse("divmod", |x: &FVar| fx::divmod(x, 2.0));
/// let (q, r) = f.call(&[&x])?; // [0, -1, 1], [1, 0, 1.5]
/// # Ok(()) }
/// ```
pub fn divmod(x1: impl Into<FArg>, x2: impl Into<FArg>) -> (FVar, FVar) {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let u = table(&U, "divmod");
    two(apply(u.name(), &[x1.into(), x2.into()], |b, v| {
        b.ufunc(u, v)
    }))
}

/// `numpy.modf`: fractional and integral parts.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // frac, whole = cp.modf(x)
/// let f = fuse("modf", |x: &FVar| fx::modf(x));
/// let (frac, whole) = f.call(&[&x])?; // [0, -0, 0.5], [1, -2, 3]
/// # Ok(()) }
/// ```
pub fn modf(x: impl Into<FArg>) -> (FVar, FVar) {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let u = table(&U, "modf");
    two(apply(u.name(), &[x.into()], |b, v| b.ufunc(u, v)))
}

/// `numpy.frexp`: mantissa and exponent (int32).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // m, e = cp.frexp(x)
/// let f = fuse("frexp", |x: &FVar| fx::frexp(x));
/// let (m, e) = f.call(&[&x])?; // x == m * 2**e, e int32
/// # Ok(()) }
/// ```
pub fn frexp(x: impl Into<FArg>) -> (FVar, FVar) {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let u = table(&U, "frexp");
    two(apply(u.name(), &[x.into()], |b, v| b.ufunc(u, v)))
}

crate::ufunc::names::for_each_ufunc!(unary, binary);

/// `numpy.where(cond, x, y)`: `x` where `cond` is true, else `y`, in
/// `result_type(x, y)` (weak scalars by kind). (`where` is a Rust keyword.)
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.where(x > 0, x, 0.0): [1, 0, 3.5]
/// let relu = fuse("relu", |x: &FVar| fx::where_(x.greater(0.0), x, 0.0));
/// let y = relu.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn where_(cond: impl Into<FArg>, x: impl Into<FArg>, y: impl Into<FArg>) -> FVar {
    apply1("where", &[cond.into(), x.into(), y.into()], |b, v| {
        b.where_(v[0], v[1], v[2])
    })
}

/// `x.astype(dtype)`: a conversion with `astype`'s rules (CuPy's float to
/// integer behaviour, complex to real keeps the real part).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // (x * 2).astype(cp.int32): [2, -4, 7]
/// let f = fuse("to_int", |x: &FVar| fx::astype(x * 2.0, gpu_array::DType::Int32));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn astype(x: impl Into<FArg>, dtype: DType) -> FVar {
    apply1("astype", &[x.into()], |b, v| b.cast(v[0], dtype))
}

fn reduce(op: Builtin, x: impl Into<FArg>, opts: &ReduceOptions<'_>) -> FVar {
    let name = op.tag();
    apply1(name, &[x.into()], |b, v| {
        if opts.out.is_some() {
            return b.record(
                name,
                Error::Unsupported(
                    "out= on a reduction inside a fused function; pass the output arrays to \
                     the call instead (Fused::call_with with FuseOptions::out)"
                        .into(),
                ),
            );
        }
        b.reduce(op, v[0], opts.axis.as_deref(), opts.keepdims, opts.dtype)
    })
}

/// Calls the NumPy reduction `name` (`"sum"`, `"nanmax"`, `"amax"`, ...)
/// on `x`: the by-name form of the functions below, as [`ufunc()`] is for
/// ufuncs. A reduction fuse cannot compute (`argmax`, `var`, `median`,
/// ...) or an unknown name is the trace's [`Error::Unsupported`], naming
/// it and listing the fusable ones
/// ([`FUSABLE_REDUCTIONS`](super::FUSABLE_REDUCTIONS)).
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nanmax(x * x) by name: 12.25
/// let f = fuse("nanmax_sq", |x: &FVar| fx::reduction("nanmax", x * x, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
///
/// # Panics
/// When `x` is a scalar and no fused function is being traced on this
/// thread.
pub fn reduction<'o>(name: &str, x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    let op = match name {
        "sum" => Builtin::Sum,
        "prod" | "product" => Builtin::Prod,
        "max" | "amax" => Builtin::Max,
        "min" | "amin" => Builtin::Min,
        "mean" => Builtin::Mean,
        "all" | "alltrue" => Builtin::All,
        "any" | "sometrue" => Builtin::Any,
        "count_nonzero" => Builtin::CountNonzero,
        "nansum" => Builtin::NanSum,
        "nanprod" => Builtin::NanProd,
        "nanmax" => Builtin::NanMax,
        "nanmin" => Builtin::NanMin,
        "nanmean" => Builtin::NanMean,
        _ => {
            return apply1(name, &[x.into()], |b, _| {
                b.record(name, super::graph::not_fusable(name))
            });
        }
    };
    reduce(op, x, opts)
}

/// `numpy.sum(x, axis=, keepdims=, dtype=)`, NumPy's dtypes; the last step
/// of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.sum(x * x): 18.25
/// let f = fuse("sum_sq", |x: &FVar| fx::sum(x * x, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn sum<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Sum, x, opts)
}

/// `numpy.prod(x, ...)`; the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.prod(x + 1.0): 2 * -1 * 4.5 = -9
/// let f = fuse("prod_p1", |x: &FVar| fx::prod(x + 1.0, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn prod<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Prod, x, opts)
}

/// `numpy.amax(x, ...)` (NaN propagates; an empty reduction is an error);
/// the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.amax(cp.abs(x)): 3.5
/// let f = fuse("amax_abs", |x: &FVar| fx::amax(fx::abs(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn amax<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Max, x, opts)
}

/// `numpy.max`, alias of [`amax`].
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.max(-x): 2
/// let f = fuse("max_neg", |x: &FVar| fx::max(-x, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn max<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    amax(x, opts)
}

/// `numpy.amin(x, ...)`; the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.amin(x * 2): -4
/// let f = fuse("amin_2x", |x: &FVar| fx::amin(x * 2.0, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn amin<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Min, x, opts)
}

/// `numpy.min`, alias of [`amin`].
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.min(cp.square(x)): 1
/// let f = fuse("min_sq", |x: &FVar| fx::min(fx::square(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn min<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    amin(x, opts)
}

/// `numpy.mean(x, ...)` (float64 for bool and integers); the last step of
/// a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.mean(x * x): 18.25 / 3
/// let f = fuse("mean_sq", |x: &FVar| fx::mean(x * x, ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn mean<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Mean, x, opts)
}

/// `numpy.all(x, axis=, keepdims=)`: bool, true for an empty reduction
/// (NaN counts as true, as any nonzero value); the last step of a fused
/// function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.all(x > -5): True
/// let f = fuse("all_gt", |x: &FVar| fx::all(x.greater(-5.0), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn all<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::All, x, opts)
}

/// `numpy.any(x, ...)`: bool, false for an empty reduction; the last step
/// of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.any(x > 3): True
/// let f = fuse("any_gt", |x: &FVar| fx::any(x.greater(3.0), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn any<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::Any, x, opts)
}

/// `numpy.count_nonzero(x, axis=, keepdims=)`: int64 counts (NaN is
/// nonzero); the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.count_nonzero(x > 0): 2
/// let f = fuse("n_pos", |x: &FVar| fx::count_nonzero(x.greater(0.0), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn count_nonzero<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::CountNonzero, x, opts)
}

/// `numpy.nansum(x, ...)`: NaN counts as zero (a complex value with a NaN
/// part too); `sum`'s dtypes; the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nansum(cp.log(x)): the NaN of log(-2) counts as 0
/// let f = fuse("nansum_log", |x: &FVar| fx::nansum(fx::log(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn nansum<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::NanSum, x, opts)
}

/// `numpy.nanprod(x, ...)`: NaN counts as one; `prod`'s dtypes; the last
/// step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nanprod(cp.sqrt(x)): sqrt(-2) is NaN, counted as 1
/// let f = fuse("nanprod_sqrt", |x: &FVar| fx::nanprod(fx::sqrt(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn nanprod<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::NanProd, x, opts)
}

/// `numpy.nanmax(x, ...)`: NaN ignored, a row of NaN only gives NaN (NumPy
/// also warns), an empty reduction is NumPy's `fmax` error; the last step
/// of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nanmax(cp.sqrt(x)): sqrt(3.5), NaN ignored
/// let f = fuse("nanmax_sqrt", |x: &FVar| fx::nanmax(fx::sqrt(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn nanmax<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::NanMax, x, opts)
}

/// `numpy.nanmin(x, ...)`: as [`nanmax`].
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nanmin(cp.log(x)): 0, NaN ignored
/// let f = fuse("nanmin_log", |x: &FVar| fx::nanmin(fx::log(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn nanmin<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::NanMin, x, opts)
}

/// `numpy.nanmean(x, ...)`: the mean of the non-NaN values (`mean`'s
/// dtypes); a row of NaN only, or an empty one, gives NaN (NumPy also
/// warns); the last step of a fused function.
///
/// ```no_run
/// use gpu_array::fusion::{FVar, fuse, fx};
/// # fn main() -> gpu_array::Result<()> {
/// # let x = gpu_array::creation::array([1.0, -2.0, 3.5])?;
/// // cp.nanmean(cp.sqrt(x)): (1 + sqrt(3.5)) / 2
/// let f = fuse("nanmean_sqrt", |x: &FVar| fx::nanmean(fx::sqrt(x), ()));
/// let y = f.call(&[&x])?;
/// # Ok(()) }
/// ```
pub fn nanmean<'o>(x: impl Into<FArg>, opts: impl Into<ReduceOptions<'o>>) -> FVar {
    let opts = &opts.into();
    reduce(Builtin::NanMean, x, opts)
}
