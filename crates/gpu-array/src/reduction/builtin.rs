//! The built-in reductions (`sum`, `prod`, `max`, `min`, `all`, `any`,
//! `count_nonzero`, `mean`, the `nan*` forms, `argmax`/`argmin`, `var`,
//! `std`) with NumPy's result dtypes, and their `Array` methods.
//!
//! `argmax`/`argmin` reduce a struct of (index, value), `var`/`std` a
//! struct of (count, mean, M2) merged with Chan's parallel formula and
//! `nanmean` a (count, sum): see `cuprum/reduction.cuh` and
//! [`AccStruct`].

use super::builder::Reduction;
use super::plan::{reduced_axes, result_shape};
use super::spec::{AccStruct, ReductionSpec, Variant};
use crate::array::Array;
use crate::dtype::{Casting, DType, ScalarValue, check_cast};
use crate::elementwise::Bind;
use crate::error::{Error, Result};
use crate::layout::Order;

/// Options of a reduction call: NumPy's `axis`, `keepdims`, `dtype`,
/// `out`, `initial` and `where`.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ReduceOptions<'a> {
    /// Axes to reduce (negative counts from the end); `None` for all.
    pub axis: Option<Vec<isize>>,
    /// Keep the reduced axes as length 1.
    pub keepdims: bool,
    /// The accumulation and result dtype (`sum`, `prod`, `mean`).
    pub dtype: Option<DType>,
    /// The array to write, of the result's shape.
    pub out: Option<&'a Array>,
    /// Delta degrees of freedom of `var`/`std` (and the `nan` forms): the
    /// divisor is `max(N - ddof, 0)`. Ignored by the other reductions.
    pub ddof: f64,
    /// NumPy's `initial=`: the starting value of `sum`, `prod`, `max`,
    /// `min` and their `nan` forms (what an empty reduction gives).
    pub initial: Option<ScalarValue>,
    /// NumPy's `where=`: a bool mask broadcast against the input; only
    /// its true elements are reduced (`sum`, `prod`, `max`, `min` with
    /// `initial`, `all`, `any`, `mean`, `var`, `std`, and the `nan` forms
    /// of `sum`, `prod`, `max`, `min`, `mean`, `var` and `std`). `var`
    /// and `std` subtract `ddof` from the count of selected elements.
    pub where_: Option<&'a Array>,
}

impl<'a> ReduceOptions<'a> {
    /// Reduce over one axis.
    ///
    /// ```
    /// use gpu_array::reduction::ReduceOptions;
    /// assert_eq!(ReduceOptions::axis(0).axis, Some(vec![0]));
    /// ```
    pub fn axis(axis: isize) -> ReduceOptions<'a> {
        ReduceOptions {
            axis: Some(vec![axis]),
            ..Default::default()
        }
    }

    /// Reduce over several axes (`axis=(0, 2)`; empty reduces none).
    ///
    /// ```
    /// use gpu_array::reduction::ReduceOptions;
    /// assert_eq!(ReduceOptions::axes(&[0, -1]).axis, Some(vec![0, -1]));
    /// ```
    pub fn axes(axes: &[isize]) -> ReduceOptions<'a> {
        ReduceOptions {
            axis: Some(axes.to_vec()),
            ..Default::default()
        }
    }

    /// Sets `axis` (`None`: every axis).
    ///
    /// ```
    /// use gpu_array::reduction::ReduceOptions;
    /// assert_eq!(ReduceOptions::axis(1).with_axis(None).axis, None);
    /// ```
    #[must_use]
    pub fn with_axis(mut self, axis: Option<Vec<isize>>) -> ReduceOptions<'a> {
        self.axis = axis;
        self
    }

    /// Sets `keepdims`.
    ///
    /// ```
    /// use gpu_array::reduction::ReduceOptions;
    /// assert!(ReduceOptions::axis(1).keepdims(true).keepdims);
    /// ```
    #[must_use]
    pub fn keepdims(mut self, keepdims: bool) -> ReduceOptions<'a> {
        self.keepdims = keepdims;
        self
    }

    /// Sets `dtype`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::reduction::ReduceOptions;
    /// assert_eq!(ReduceOptions::default().dtype(DType::Float64).dtype, Some(DType::Float64));
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: impl Into<Option<DType>>) -> ReduceOptions<'a> {
        self.dtype = dtype.into();
        self
    }

    /// Sets `out`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, reduction::ReduceOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1i64, 2, 3, 4], &[2, 2])?;
    /// let out = Array::empty(2, DType::Int64)?;
    /// x.sum(ReduceOptions::axis(0).out(&out))?; // x.sum(axis=0, out=out)
    /// assert_eq!(out.to_vec::<i64>()?, [4, 6]);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn out(mut self, out: impl Into<Option<&'a Array>>) -> ReduceOptions<'a> {
        self.out = out.into();
        self
    }

    /// Sets `initial` (NumPy's `initial=`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, reduction::ReduceOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1i64, 2], &[2])?;
    /// assert_eq!(x.sum(ReduceOptions::default().initial(10))?.to_scalar::<i64>()?, 13);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn initial(mut self, initial: impl Into<ScalarValue>) -> ReduceOptions<'a> {
        self.initial = Some(initial.into());
        self
    }

    /// Sets `where` (NumPy's `where=`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, reduction::ReduceOptions};
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
    /// let mask = Array::from_slice(&[true, false, true], &[3])?;
    /// assert_eq!(x.sum(ReduceOptions::default().where_(&mask))?.to_scalar::<f64>()?, 4.0);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn where_(mut self, mask: &'a Array) -> ReduceOptions<'a> {
        self.where_ = Some(mask);
        self
    }

    /// Sets `ddof` (`var`, `std`).
    ///
    /// ```
    /// use gpu_array::reduction::ReduceOptions;
    /// assert_eq!(ReduceOptions::default().ddof(1.0).ddof, 1.0); // var(ddof=1)
    /// ```
    #[must_use]
    pub fn ddof(mut self, ddof: f64) -> ReduceOptions<'a> {
        self.ddof = ddof;
        self
    }
}

/// The short forms of a reduction's options: `()` reduces every axis,
/// `1` one axis, `[0, 2]` (or a slice or `Vec`) several, and a
/// `&ReduceOptions` is taken as it is: `x.sum(())?`, `x.sum(1)?`,
/// `x.mean([0, 2])?`, `x.sum(ReduceOptions::axis(0).keepdims(true))?`.
impl From<()> for ReduceOptions<'_> {
    fn from((): ()) -> Self {
        ReduceOptions::default()
    }
}

impl From<isize> for ReduceOptions<'_> {
    fn from(axis: isize) -> Self {
        ReduceOptions::axis(axis)
    }
}

impl<const N: usize> From<[isize; N]> for ReduceOptions<'_> {
    fn from(axes: [isize; N]) -> Self {
        ReduceOptions::axes(&axes)
    }
}

impl From<&[isize]> for ReduceOptions<'_> {
    fn from(axes: &[isize]) -> Self {
        ReduceOptions::axes(axes)
    }
}

impl From<Vec<isize>> for ReduceOptions<'_> {
    fn from(axes: Vec<isize>) -> Self {
        ReduceOptions::default().with_axis(Some(axes))
    }
}

impl<'a> From<&ReduceOptions<'a>> for ReduceOptions<'a> {
    fn from(opts: &ReduceOptions<'a>) -> Self {
        opts.clone()
    }
}

/// A built-in reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `sum`.
    Sum,
    /// `prod`.
    Prod,
    /// `max` / `amax` (NaN propagates).
    Max,
    /// `min` / `amin` (NaN propagates).
    Min,
    /// `all`.
    All,
    /// `any`.
    Any,
    /// `count_nonzero`.
    CountNonzero,
    /// `mean`.
    Mean,
    /// `nansum`: NaN counts as 0.
    NanSum,
    /// `nanprod`: NaN counts as 1.
    NanProd,
    /// `nanmax`: NaN ignored; an all-NaN row gives NaN.
    NanMax,
    /// `nanmin`: NaN ignored; an all-NaN row gives NaN.
    NanMin,
    /// `argmax`: int64 index of the first maximum (the first NaN if any).
    ArgMax,
    /// `argmin`: int64 index of the first minimum (the first NaN if any).
    ArgMin,
    /// `nanargmax`: as `argmax` skipping NaN; an all-NaN row is an error.
    NanArgMax,
    /// `nanargmin`: as `argmin` skipping NaN; an all-NaN row is an error.
    NanArgMin,
    /// `var` (with `ddof`).
    Var,
    /// `std` (with `ddof`).
    Std,
    /// `nanmean`: NaN skipped; an all-NaN row gives NaN.
    NanMean,
    /// `nanvar`: NaN skipped; an all-NaN row gives NaN.
    NanVar,
    /// `nanstd`: NaN skipped; an all-NaN row gives NaN.
    NanStd,
}

impl Builtin {
    /// Every built-in.
    pub const ALL: [Builtin; 21] = [
        Builtin::Sum,
        Builtin::Prod,
        Builtin::Max,
        Builtin::Min,
        Builtin::All,
        Builtin::Any,
        Builtin::CountNonzero,
        Builtin::Mean,
        Builtin::NanSum,
        Builtin::NanProd,
        Builtin::NanMax,
        Builtin::NanMin,
        Builtin::ArgMax,
        Builtin::ArgMin,
        Builtin::NanArgMax,
        Builtin::NanArgMin,
        Builtin::Var,
        Builtin::Std,
        Builtin::NanMean,
        Builtin::NanVar,
        Builtin::NanStd,
    ];

    /// NumPy's name of the operation (in error messages).
    ///
    /// ```
    /// use gpu_array::reduction::Builtin;
    /// assert_eq!(Builtin::Sum.name(), "add");
    /// assert_eq!(Builtin::Max.name(), "maximum");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Builtin::Sum => "add",
            Builtin::Prod => "multiply",
            Builtin::Max => "maximum",
            Builtin::Min => "minimum",
            Builtin::All => "logical_and",
            Builtin::Any => "logical_or",
            Builtin::CountNonzero => "count_nonzero",
            Builtin::Mean => "mean",
            Builtin::NanSum => "add",
            Builtin::NanProd => "multiply",
            Builtin::NanMax => "fmax",
            Builtin::NanMin => "fmin",
            _ => self.tag(),
        }
    }

    /// NumPy's function name (`nansum`, `count_nonzero`): kernel names,
    /// and fuse's names of the reductions it traces.
    pub(crate) const fn tag(self) -> &'static str {
        match self {
            Builtin::Sum => "sum",
            Builtin::Prod => "prod",
            Builtin::Max => "max",
            Builtin::Min => "min",
            Builtin::All => "all",
            Builtin::Any => "any",
            Builtin::CountNonzero => "count_nonzero",
            Builtin::Mean => "mean",
            Builtin::NanSum => "nansum",
            Builtin::NanProd => "nanprod",
            Builtin::NanMax => "nanmax",
            Builtin::NanMin => "nanmin",
            Builtin::ArgMax => "argmax",
            Builtin::ArgMin => "argmin",
            Builtin::NanArgMax => "nanargmax",
            Builtin::NanArgMin => "nanargmin",
            Builtin::Var => "var",
            Builtin::Std => "std",
            Builtin::NanMean => "nanmean",
            Builtin::NanVar => "nanvar",
            Builtin::NanStd => "nanstd",
        }
    }

    /// Whether this is `argmax`, `argmin` or a `nan` form of them.
    ///
    /// ```
    /// use gpu_array::reduction::Builtin;
    /// assert!(Builtin::NanArgMin.is_arg() && !Builtin::Min.is_arg());
    /// ```
    pub const fn is_arg(self) -> bool {
        matches!(
            self,
            Builtin::ArgMax | Builtin::ArgMin | Builtin::NanArgMax | Builtin::NanArgMin
        )
    }

    /// Whether this is `var`, `std` or a `nan` form of them (they take
    /// `ddof`, passed to the kernel as the float64 scalar `ddof`).
    ///
    /// ```
    /// use gpu_array::reduction::Builtin;
    /// assert!(Builtin::NanStd.has_ddof() && !Builtin::Mean.has_ddof());
    /// ```
    pub const fn has_ddof(self) -> bool {
        matches!(
            self,
            Builtin::Var | Builtin::Std | Builtin::NanVar | Builtin::NanStd
        )
    }

    /// The result dtype for input `input` and `dtype=` (NumPy's rules):
    /// `sum`/`prod` of bool and smaller signed (unsigned) integers give
    /// int64 (uint64); `mean` of bool and integers gives float64; `all`,
    /// `any` give bool; `count_nonzero` int64; `max`/`min` the input's.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::reduction::Builtin;
    /// assert_eq!(Builtin::Sum.result_dtype(DType::Int8, None)?, DType::Int64);
    /// assert_eq!(Builtin::Mean.result_dtype(DType::Int32, None)?, DType::Float64);
    /// assert_eq!(Builtin::Var.result_dtype(DType::Complex64, None)?, DType::Float32);
    /// assert!(Builtin::Max.result_dtype(DType::Int8, Some(DType::Int64)).is_err()); // max has no dtype=
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// `argmax`/`argmin` give int64; `var`/`std` of bool and integers
    /// float64, of complex the real dtype, else the input's (`dtype=`:
    /// its real dtype); `nanmean` as `mean`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for `dtype=` where NumPy has none (max, min,
    /// all, any, count_nonzero, argmax, argmin) and for a `dtype=` of
    /// `var`/`std` that is not inexact.
    pub fn result_dtype(self, input: DType, dtype: Option<DType>) -> Result<DType> {
        match (self, dtype) {
            (
                Builtin::Sum
                | Builtin::Prod
                | Builtin::Mean
                | Builtin::NanSum
                | Builtin::NanProd
                | Builtin::NanMean,
                Some(d),
            ) => Ok(d),
            (Builtin::Var | Builtin::Std | Builtin::NanVar | Builtin::NanStd, Some(d)) => {
                if d.is_inexact() {
                    Ok(d.real_dtype())
                } else {
                    Err(Error::Unsupported(format!(
                        "dtype={d} for {}: only float and complex dtypes are supported",
                        self.tag()
                    )))
                }
            }
            (_, Some(_)) => Err(Error::Unsupported(format!(
                "dtype= for {}: NumPy's {} takes no dtype",
                self.tag(),
                self.tag()
            ))),
            (Builtin::Sum | Builtin::Prod | Builtin::NanSum | Builtin::NanProd, None) => Ok(
                if input.is_bool() || (input.is_signed_integer() && input.itemsize() < 8) {
                    DType::Int64
                } else if input.is_unsigned_integer() && input.itemsize() < 8 {
                    DType::UInt64
                } else {
                    input
                },
            ),
            (Builtin::Mean | Builtin::NanMean, None) => {
                Ok(if input.is_bool() || input.is_integer() {
                    DType::Float64
                } else {
                    input
                })
            }
            (Builtin::Max | Builtin::Min | Builtin::NanMax | Builtin::NanMin, None) => Ok(input),
            (Builtin::All | Builtin::Any, None) => Ok(DType::Bool),
            (Builtin::CountNonzero, None) => Ok(DType::Int64),
            (Builtin::ArgMax | Builtin::ArgMin | Builtin::NanArgMax | Builtin::NanArgMin, None) => {
                Ok(DType::Int64)
            }
            (Builtin::Var | Builtin::Std | Builtin::NanVar | Builtin::NanStd, None) => {
                Ok(if input.is_bool() || input.is_integer() {
                    DType::Float64
                } else {
                    input.real_dtype()
                })
            }
        }
    }

    /// The accumulator dtype for a result dtype `result` and input `input`:
    /// float16 and bfloat16 accumulate in float32. For the struct
    /// accumulators it is the dtype of their values: argmax's the (widened)
    /// input's, var's the (widened, real) result's, nanmean's the result's.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::reduction::Builtin;
    /// assert_eq!(Builtin::Sum.reduce_dtype(DType::Float16, DType::Float16), DType::Float32);
    /// assert_eq!(Builtin::Any.reduce_dtype(DType::Float64, DType::Bool), DType::Bool);
    /// ```
    pub fn reduce_dtype(self, input: DType, result: DType) -> DType {
        let widen = |d: DType| match d {
            DType::Float16 | DType::BFloat16 => DType::Float32,
            d => d,
        };
        match self {
            Builtin::Max | Builtin::Min | Builtin::NanMax | Builtin::NanMin => widen(input),
            Builtin::All | Builtin::Any => DType::Bool,
            Builtin::CountNonzero => DType::Int64,
            Builtin::Sum
            | Builtin::Prod
            | Builtin::Mean
            | Builtin::NanSum
            | Builtin::NanProd
            | Builtin::NanMean => widen(result),
            Builtin::ArgMax | Builtin::ArgMin | Builtin::NanArgMax | Builtin::NanArgMin => {
                widen(input)
            }
            Builtin::Var | Builtin::Std | Builtin::NanVar | Builtin::NanStd => {
                widen(result.real_dtype())
            }
        }
    }

    /// The spec of this reduction from `input` to an output of `output`
    /// dtype, accumulating in `reduce`, for the planner's variant `v`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// let s = Builtin::Sum.spec(DType::Int32, DType::Int64, DType::Int64, v);
    /// assert!(s.validate().is_ok());
    /// assert_eq!(s.reduce_type, DType::Int64);
    /// ```
    pub fn spec(self, input: DType, output: DType, reduce: DType, v: Variant) -> ReductionSpec {
        self.kernel(input.into(), output.into(), reduce, 0.0)
            .spec(v)
            .expect("a built-in reduction lists its output")
    }

    /// This reduction of `x` into `y`, accumulating in `reduce`; `ddof` is
    /// var's and std's (unused by the others).
    pub(crate) fn kernel<'a>(
        self,
        x: Bind<'a>,
        y: Bind<'a>,
        reduce: DType,
        ddof: f64,
    ) -> Reduction<'a> {
        let input = x.dtype();
        let r = reduce.c_type();
        let rsz = (reduce.itemsize(), reduce.itemsize());
        let ll = (8, 8);
        let skip = matches!(
            self,
            Builtin::NanArgMax
                | Builtin::NanArgMin
                | Builtin::NanVar
                | Builtin::NanStd
                | Builtin::NanMean
        );
        let structured: Option<(String, String, String, Option<&str>, AccStruct)> = match self {
            Builtin::ArgMax | Builtin::ArgMin | Builtin::NanArgMax | Builtin::NanArgMin => {
                let max = matches!(self, Builtin::ArgMax | Builtin::NanArgMax);
                Some((
                    format!("cuprum::arg_make<{r}>(cuprum::cast<{r}>(x), _red_i, {skip})"),
                    format!("cuprum::arg_combine<{max}, {skip}>(a, b)"),
                    "y = cuprum::cast<y_type>(a.index)".into(),
                    None,
                    AccStruct::layout(format!("cuprum::ArgAcc<{r}>"), &[ll, rsz])
                        .with_fold(format!("cuprum::arg_fold<{max}, {skip}>(a, b)"))
                        .with_grouped_loads(),
                ))
            }
            Builtin::Var | Builtin::Std | Builtin::NanVar | Builtin::NanStd => {
                let root = matches!(self, Builtin::Std | Builtin::NanStd);
                let post = format!("y = cuprum::cast<y_type>(cuprum::var_result<{root}>(a, ddof))");
                Some(if input.is_complex() {
                    (
                        format!(
                            "cuprum::welfordc_make<{r}>(cuprum::cast<cuprum::complex<{r}>>(x), \
                             {skip})"
                        ),
                        "cuprum::welford_combine(a, b)".into(),
                        post,
                        Some(""),
                        AccStruct::layout(format!("cuprum::WelfordC<{r}>"), &[ll, rsz, rsz, rsz]),
                    )
                } else {
                    (
                        format!("cuprum::welford_make<{r}>(cuprum::cast<{r}>(x), {skip})"),
                        "cuprum::welford_combine(a, b)".into(),
                        post,
                        Some(""),
                        AccStruct::layout(format!("cuprum::Welford<{r}>"), &[ll, rsz, rsz])
                            .with_fold("cuprum::welford_fold(a, b)"),
                    )
                })
            }
            Builtin::NanMean => Some((
                format!("cuprum::count_sum_make<{r}>(cuprum::cast<{r}>(x), true)"),
                "cuprum::count_sum_combine(a, b)".into(),
                "y = cuprum::cast<y_type>(a.sum / cuprum::cast<decltype(a.sum)>((double)a.n))"
                    .into(),
                Some(""),
                AccStruct::layout(format!("cuprum::CountSum<{r}>"), &[ll, rsz]),
            )),
            _ => None,
        };
        let mut k = Reduction::new(self.tag()).input("x", x);
        if self.has_ddof() {
            k = k.scalar("ddof", DType::Float64, ddof);
        }
        let k = k.output("y", y).accumulate(reduce);
        if let Some((map, red, post, identity, st)) = structured {
            let k = k.map(map).reduce(red).post(post).acc_struct(st);
            return match identity {
                Some(i) => k.identity(i),
                None => k,
            };
        }
        let (map, red, post, identity): (&str, &str, &str, Option<&str>) = match self {
            Builtin::Sum => ("x", "a + b", "y = cuprum::cast<y_type>(a)", Some("0")),
            Builtin::Prod => ("x", "a * b", "y = cuprum::cast<y_type>(a)", Some("1")),
            Builtin::Max => (
                "x",
                "cuprum::maximum(a, b)",
                "y = cuprum::cast<y_type>(a)",
                None,
            ),
            Builtin::Min => (
                "x",
                "cuprum::minimum(a, b)",
                "y = cuprum::cast<y_type>(a)",
                None,
            ),
            Builtin::All => (
                "cuprum::cast<bool>(x)",
                "a && b",
                "y = cuprum::cast<y_type>(a)",
                Some("true"),
            ),
            Builtin::Any => (
                "cuprum::cast<bool>(x)",
                "a || b",
                "y = cuprum::cast<y_type>(a)",
                Some("false"),
            ),
            Builtin::CountNonzero => (
                "cuprum::cast<bool>(x) ? 1LL : 0LL",
                "a + b",
                "y = cuprum::cast<y_type>(a)",
                Some("0"),
            ),
            Builtin::NanSum => (
                "cuprum::isnan(x) ? x_type(0) : x",
                "a + b",
                "y = cuprum::cast<y_type>(a)",
                Some("0"),
            ),
            Builtin::NanProd => (
                "cuprum::isnan(x) ? x_type(1) : x",
                "a * b",
                "y = cuprum::cast<y_type>(a)",
                Some("1"),
            ),
            Builtin::NanMax => (
                "x",
                "cuprum::fmax(a, b)",
                "y = cuprum::cast<y_type>(a)",
                None,
            ),
            Builtin::NanMin => (
                "x",
                "cuprum::fmin(a, b)",
                "y = cuprum::cast<y_type>(a)",
                None,
            ),
            Builtin::Mean => (
                "x",
                "a + b",
                "y = cuprum::cast<y_type>(a / (_type_reduce)(_nred))",
                Some("0"),
            ),
            _ => unreachable!("struct accumulators are handled above"),
        };
        let k = k.map(map).reduce(red).post(post);
        match identity {
            Some(i) => k.identity(i),
            None => k,
        }
    }
}

/// Runs built-in `op` on `a` with `opts`; returns the result (`out` when
/// given; a 0-d array for a full reduction without keepdims).
///
/// ```no_run
/// use gpu_array::{Array, reduction::{Builtin, ReduceOptions, reduce}};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f32, 5.0, 3.0, 2.0], &[2, 2])?;
/// let m = reduce(Builtin::Max, &x, &ReduceOptions::axis(1))?; // np.max(x, axis=1)
/// assert_eq!(m.to_vec::<f32>()?, [5.0, 3.0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Axis errors as NumPy's; "zero-size array to reduction operation maximum
/// which has no identity" for an empty max/min; an `out` of the wrong
/// shape or a dtype it cannot take under `same_kind`; [`Error::Unsupported`]
/// for `dtype=` where NumPy has none.
pub fn reduce(op: Builtin, a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    if opts.initial.is_some() || opts.where_.is_some() {
        return super::masked::reduce_masked(op, a, opts);
    }
    if op.is_arg() {
        return arg_reduce(op, a, opts);
    }
    let axes = reduced_axes(opts.axis.as_deref(), a.ndim())?;
    let natural = op.result_dtype(a.dtype(), opts.dtype)?;
    let shape = result_shape(a.shape(), &axes, opts.keepdims);
    let (out, output_dtype) = match opts.out {
        Some(o) => {
            crate::error::check_out_shape(op.name(), &shape, o.shape(), true)?;
            check_cast(natural, o.dtype(), Casting::SameKind)?;
            (o.clone(), o.dtype())
        }
        None => (
            Array::empty_on(a.device(), &shape, natural, Order::C)?,
            natural,
        ),
    };
    // NumPy accumulates sum/prod (and nansum/nanprod, which are sum/prod of
    // the NaN-replaced input) into `out`'s dtype when no dtype is given.
    let into_out = matches!(
        op,
        Builtin::Sum | Builtin::Prod | Builtin::NanSum | Builtin::NanProd
    );
    let result = if opts.out.is_some() && opts.dtype.is_none() && into_out {
        output_dtype
    } else {
        natural
    };
    let reduce_type = op.reduce_dtype(a.dtype(), result);
    op.kernel(a.into(), (&out).into(), reduce_type, opts.ddof)
        .launch(op.name(), &axes)?;
    Ok(out)
}

/// argmax, argmin and their `nan` forms: `axis` is one axis or `None`
/// (the index into the C-order flattened array); int64 result; `out` must
/// be int64.
fn arg_reduce(op: Builtin, a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    op.result_dtype(a.dtype(), opts.dtype)?;
    let numpy_op = match op {
        Builtin::ArgMax | Builtin::NanArgMax => "argmax",
        _ => "argmin",
    };
    // The reduced iteration must be 1-D so that its linear index is the
    // index NumPy returns: a single axis, or the C-order flattened array.
    let (src, axes, empty) = match opts.axis.as_deref() {
        None => (a.ravel()?, vec![0], a.size() == 0),
        Some([ax]) => {
            let axes = reduced_axes(Some(&[*ax]), a.ndim())?;
            let empty = a.shape()[axes[0]] == 0;
            (a.clone(), axes, empty)
        }
        Some(_) => {
            return Err(Error::Value(format!(
                "{}: axis must be an integer or None",
                op.tag()
            )));
        }
    };
    if empty {
        return Err(Error::Value(format!(
            "attempt to get {numpy_op} of an empty sequence"
        )));
    }
    let shape = if opts.axis.is_none() && opts.keepdims {
        vec![1; a.ndim()]
    } else {
        result_shape(
            a.shape(),
            &reduced_axes(opts.axis.as_deref(), a.ndim())?,
            opts.keepdims,
        )
    };
    let out = match opts.out {
        Some(o) => {
            crate::error::check_out_shape(op.tag(), &shape, o.shape(), true)?;
            if o.dtype() != DType::Int64 {
                return Err(Error::DType(format!(
                    "Cannot cast array data from dtype('int64') to dtype('{}') according to \
                     the rule 'safe' ({} out=)",
                    o.dtype(),
                    op.tag()
                )));
            }
            o.clone()
        }
        None => Array::empty_on(a.device(), &shape, DType::Int64, Order::C)?,
    };
    // With axis=None the kernel reduces the 1-D flattened array into a 0-d
    // view of `out`.
    let target = if opts.axis.is_none() {
        out.reshape([])?
    } else {
        out.clone()
    };
    let reduce_type = op.reduce_dtype(src.dtype(), DType::Int64);
    op.kernel((&src).into(), (&target).into(), reduce_type, 0.0)
        .launch(numpy_op, &axes)?;
    if matches!(op, Builtin::NanArgMax | Builtin::NanArgMin)
        && src.dtype().is_inexact()
        && out.size() > 0
        && reduce(Builtin::Min, &out, &ReduceOptions::default())?.item::<i64>(&[])? < 0
    {
        return Err(Error::Value("All-NaN slice encountered".into()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::spec::Strategy;
    use super::*;
    use DType::*;

    #[test]
    fn numpy_result_dtypes() {
        let r = |op: Builtin, d| op.result_dtype(d, None).unwrap();
        assert_eq!(r(Builtin::Sum, Bool), Int64);
        assert_eq!(r(Builtin::Sum, Int8), Int64);
        assert_eq!(r(Builtin::Sum, UInt16), UInt64);
        assert_eq!(r(Builtin::Sum, UInt64), UInt64);
        assert_eq!(r(Builtin::Prod, Int32), Int64);
        assert_eq!(r(Builtin::Sum, Float16), Float16);
        assert_eq!(r(Builtin::Sum, Complex64), Complex64);
        assert_eq!(r(Builtin::Mean, Int16), Float64);
        assert_eq!(r(Builtin::Mean, Bool), Float64);
        assert_eq!(r(Builtin::Mean, Float32), Float32);
        assert_eq!(r(Builtin::Max, UInt8), UInt8);
        assert_eq!(r(Builtin::All, Float64), Bool);
        assert_eq!(r(Builtin::CountNonzero, Complex128), Int64);
        assert_eq!(
            Builtin::Sum.result_dtype(Int8, Some(Float32)).unwrap(),
            Float32
        );
        assert!(matches!(
            Builtin::Max.result_dtype(Int8, Some(Float32)),
            Err(Error::Unsupported(_))
        ));
        assert_eq!(Builtin::Sum.reduce_dtype(Float16, Float16), Float32);
        assert_eq!(Builtin::Mean.reduce_dtype(Int8, Float64), Float64);
        assert_eq!(Builtin::Max.reduce_dtype(Float16, Float16), Float32);
        assert_eq!(Builtin::Any.reduce_dtype(Float16, Bool), Bool);
    }

    #[test]
    fn new_builtins_dtypes_and_structs() {
        let r = |op: Builtin, d| op.result_dtype(d, None).unwrap();
        for op in [
            Builtin::ArgMax,
            Builtin::ArgMin,
            Builtin::NanArgMax,
            Builtin::NanArgMin,
        ] {
            for d in DType::ALL {
                assert_eq!(r(op, d), Int64);
            }
            assert!(matches!(
                op.result_dtype(Float32, Some(Int32)),
                Err(Error::Unsupported(_))
            ));
            assert!(op.is_arg() && !op.has_ddof());
        }
        for op in [Builtin::Var, Builtin::Std, Builtin::NanVar, Builtin::NanStd] {
            assert_eq!(r(op, Bool), Float64);
            assert_eq!(r(op, Int8), Float64);
            assert_eq!(r(op, UInt64), Float64);
            assert_eq!(r(op, Float16), Float16);
            assert_eq!(r(op, Float32), Float32);
            assert_eq!(r(op, Complex64), Float32);
            assert_eq!(r(op, Complex128), Float64);
            assert_eq!(op.result_dtype(Int8, Some(Float32)).unwrap(), Float32);
            assert_eq!(op.result_dtype(Float32, Some(Complex128)).unwrap(), Float64);
            assert!(op.result_dtype(Float32, Some(Int32)).is_err());
            assert_eq!(op.reduce_dtype(Float16, Float16), Float32);
            assert_eq!(op.reduce_dtype(Complex64, Float32), Float32);
            assert!(op.has_ddof() && !op.is_arg());
        }
        assert_eq!(r(Builtin::NanMean, Int16), Float64);
        assert_eq!(r(Builtin::NanMean, Complex64), Complex64);
        assert_eq!(Builtin::NanMean.reduce_dtype(Float16, Float16), Float32);
        assert_eq!(Builtin::ArgMax.reduce_dtype(Float16, Int64), Float32);
        assert_eq!(Builtin::ArgMin.reduce_dtype(Complex128, Int64), Complex128);
        // Struct layouts as C++ lays them out (the kernels assert them).
        let v = Variant::new(Strategy::TwoPass, 1, 1, crate::elementwise::IndexWidth::I64);
        let st = |op: Builtin, i: DType| {
            let res = op.result_dtype(i, None).unwrap();
            let sp = op.spec(i, res, op.reduce_dtype(i, res), v);
            sp.validate().unwrap();
            let s = sp.reduce_struct.clone().unwrap();
            assert_eq!(sp.reduce_size(), s.size);
            assert!(
                sp.kernel_params()
                    .iter()
                    .any(|p| p.name == "_tmp" && p.c_type == format!("{}*", s.c_type))
            );
            (s.c_type, s.size, s.align, sp.params.len())
        };
        assert_eq!(
            st(Builtin::ArgMax, Float64),
            ("cuprum::ArgAcc<double>".into(), 16, 8, 2)
        );
        assert_eq!(st(Builtin::ArgMin, Bool).1, 16);
        assert_eq!(st(Builtin::ArgMax, Float16).0, "cuprum::ArgAcc<float>");
        let c = st(Builtin::NanArgMax, Complex128);
        assert_eq!((c.1, c.2), (32, 16));
        assert_eq!(
            st(Builtin::Var, Int32),
            ("cuprum::Welford<double>".into(), 24, 8, 3)
        );
        assert_eq!(st(Builtin::Std, Float32).1, 16);
        assert_eq!(st(Builtin::NanVar, Complex64).1, 24);
        assert_eq!(st(Builtin::Var, Complex128).1, 32);
        assert_eq!(st(Builtin::NanMean, Float32).1, 16);
        assert_eq!(st(Builtin::NanMean, Complex128).1, 32);
        // var's kernel takes ddof as a float64 scalar before the output.
        let sp = Builtin::Var.spec(Float32, Float32, Float32, v);
        let names: Vec<&str> = sp.params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["x", "ddof", "y"]);
        let src = sp.render();
        assert!(src.contains("static_assert(sizeof(_type_reduce) == 16"));
        assert!(src.contains("_red_i"));
        // An empty (value-initialised) accumulator for empty rows.
        assert!(src.contains("_acc = _type_reduce();"));
        assert!(
            !Builtin::ArgMax
                .spec(Float32, Int64, Float32, v)
                .render()
                .contains("_acc = _type_reduce();")
        );
    }

    #[test]
    fn spec_names_are_distinct() {
        let mut names = std::collections::HashSet::new();
        for op in Builtin::ALL {
            for s in Strategy::ALL {
                let v = Variant::new(s, 1, 1, crate::elementwise::IndexWidth::I32);
                let sp = op.spec(Float32, Float32, Float32, v);
                sp.validate().unwrap();
                assert!(names.insert(sp.name.clone()), "{}", sp.name);
            }
        }
    }
}
