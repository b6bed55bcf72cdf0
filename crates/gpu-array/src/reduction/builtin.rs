//! The built-in reductions (`sum`, `prod`, `max`, `min`, `all`, `any`,
//! `count_nonzero`, `mean`) with NumPy's result dtypes, and their `Array`
//! methods.

use super::launch::{RedInput, launch};
use super::plan::{reduced_axes, result_shape};
use super::spec::{ReductionSpec, Variant};
use crate::array::Array;
use crate::dtype::{Casting, DType, check_cast};
use crate::elementwise::{SpecParam, dtype_tag};
use crate::error::{Error, Result};
use crate::layout::Order;

/// Options of a reduction call: NumPy's `axis`, `keepdims`, `dtype` and
/// `out`.
#[derive(Clone, Debug, Default)]
pub struct ReduceOptions<'a> {
    /// Axes to reduce (negative counts from the end); `None` for all.
    pub axis: Option<Vec<isize>>,
    /// Keep the reduced axes as length 1.
    pub keepdims: bool,
    /// The accumulation and result dtype (`sum`, `prod`, `mean`).
    pub dtype: Option<DType>,
    /// The array to write, of the result's shape.
    pub out: Option<&'a Array>,
}

impl<'a> ReduceOptions<'a> {
    /// Reduce over one axis.
    pub fn axis(axis: isize) -> ReduceOptions<'a> {
        ReduceOptions {
            axis: Some(vec![axis]),
            ..Default::default()
        }
    }

    /// Reduce over several axes (`axis=(0, 2)`; empty reduces none).
    pub fn axes(axes: &[isize]) -> ReduceOptions<'a> {
        ReduceOptions {
            axis: Some(axes.to_vec()),
            ..Default::default()
        }
    }

    /// Sets `keepdims`.
    #[must_use]
    pub fn keepdims(mut self, keepdims: bool) -> ReduceOptions<'a> {
        self.keepdims = keepdims;
        self
    }

    /// Sets `dtype`.
    #[must_use]
    pub fn dtype(mut self, dtype: DType) -> ReduceOptions<'a> {
        self.dtype = Some(dtype);
        self
    }

    /// Sets `out`.
    #[must_use]
    pub fn out(mut self, out: &'a Array) -> ReduceOptions<'a> {
        self.out = Some(out);
        self
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
}

impl Builtin {
    /// Every built-in.
    pub const ALL: [Builtin; 12] = [
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
    ];

    /// NumPy's name of the operation (in error messages).
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
        }
    }

    fn tag(self) -> &'static str {
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
        }
    }

    /// The result dtype for input `input` and `dtype=` (NumPy's rules):
    /// `sum`/`prod` of bool and smaller signed (unsigned) integers give
    /// int64 (uint64); `mean` of bool and integers gives float64; `all`,
    /// `any` give bool; `count_nonzero` int64; `max`/`min` the input's.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for `dtype=` where NumPy has none (max, min,
    /// all, any, count_nonzero).
    pub fn result_dtype(self, input: DType, dtype: Option<DType>) -> Result<DType> {
        match (self, dtype) {
            (
                Builtin::Sum | Builtin::Prod | Builtin::Mean | Builtin::NanSum | Builtin::NanProd,
                Some(d),
            ) => Ok(d),
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
            (Builtin::Mean, None) => Ok(if input.is_bool() || input.is_integer() {
                DType::Float64
            } else {
                input
            }),
            (Builtin::Max | Builtin::Min | Builtin::NanMax | Builtin::NanMin, None) => Ok(input),
            (Builtin::All | Builtin::Any, None) => Ok(DType::Bool),
            (Builtin::CountNonzero, None) => Ok(DType::Int64),
        }
    }

    /// The accumulator dtype for a result dtype `result` and input `input`:
    /// float16 and bfloat16 accumulate in float32.
    pub fn reduce_dtype(self, input: DType, result: DType) -> DType {
        let widen = |d: DType| match d {
            DType::Float16 | DType::BFloat16 => DType::Float32,
            d => d,
        };
        match self {
            Builtin::Max | Builtin::Min | Builtin::NanMax | Builtin::NanMin => widen(input),
            Builtin::All | Builtin::Any => DType::Bool,
            Builtin::CountNonzero => DType::Int64,
            Builtin::Sum | Builtin::Prod | Builtin::Mean | Builtin::NanSum | Builtin::NanProd => {
                widen(result)
            }
        }
    }

    /// The spec of this reduction from `input` to an output of `output`
    /// dtype, accumulating in `reduce`.
    pub fn spec(self, input: DType, output: DType, reduce: DType, v: Variant) -> ReductionSpec {
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
        };
        let spec_probe = ReductionSpec {
            name: String::new(),
            params: vec![SpecParam::input("x", input), SpecParam::output("y", output)],
            type_aliases: Vec::new(),
            reduce_type: reduce,
            map_expr: map.into(),
            reduce_expr: red.into(),
            post_map_expr: post.into(),
            identity: identity.map(str::to_owned),
            preamble: String::new(),
            options: Vec::new(),
            out_ndim: v.out_ndim,
            red_ndim: v.red_ndim,
            index: v.index,
            strategy: v.strategy,
        };
        ReductionSpec {
            name: format!(
                "cuprum_{}_{}_{}_{}_{}",
                self.tag(),
                dtype_tag(input),
                dtype_tag(output),
                dtype_tag(reduce),
                spec_probe.variant_tag()
            ),
            ..spec_probe
        }
    }
}

/// Runs built-in `op` on `a` with `opts`; returns the result (`out` when
/// given; a 0-d array for a full reduction without keepdims).
///
/// # Errors
/// Axis errors as NumPy's; "zero-size array to reduction operation maximum
/// which has no identity" for an empty max/min; an `out` of the wrong
/// shape or a dtype it cannot take under `same_kind`; [`Error::Unsupported`]
/// for `dtype=` where NumPy has none.
pub fn reduce(op: Builtin, a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    let axes = reduced_axes(opts.axis.as_deref(), a.ndim())?;
    let natural = op.result_dtype(a.dtype(), opts.dtype)?;
    let shape = result_shape(a.shape(), &axes, opts.keepdims);
    let (out, output_dtype) = match opts.out {
        Some(o) => {
            if o.shape() != shape.as_slice() {
                return Err(Error::Value(format!(
                    "output parameter for reduction operation {} has the wrong shape {} \
                     (expected {})",
                    op.name(),
                    crate::layout::fmt_shape(o.shape()),
                    crate::layout::fmt_shape(&shape)
                )));
            }
            check_cast(natural, o.dtype(), Casting::SameKind)?;
            (o.clone(), o.dtype())
        }
        None => (
            Array::empty_on(a.device(), &shape, natural, Order::C)?,
            natural,
        ),
    };
    // NumPy accumulates sum/prod into `out`'s dtype when no dtype is given.
    let result =
        if opts.out.is_some() && opts.dtype.is_none() && matches!(op, Builtin::Sum | Builtin::Prod)
        {
            output_dtype
        } else {
            natural
        };
    let reduce_type = op.reduce_dtype(a.dtype(), result);
    launch(op.name(), &[RedInput::Array(a)], &[&out], &axes, |v| {
        Ok(op.spec(a.dtype(), output_dtype, reduce_type, v))
    })?;
    Ok(out)
}

/// `numpy.sum`. Bool and small integers accumulate in int64/uint64, float16
/// in float32.
///
/// # Errors
/// As [`reduce`].
pub fn sum(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Sum, a, opts)
}

/// `numpy.prod`.
///
/// # Errors
/// As [`reduce`].
pub fn prod(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Prod, a, opts)
}

/// `numpy.amax`: NaN propagates; an empty reduction is an error.
///
/// # Errors
/// As [`reduce`].
pub fn amax(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Max, a, opts)
}

/// `numpy.amin`: NaN propagates; an empty reduction is an error.
///
/// # Errors
/// As [`reduce`].
pub fn amin(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Min, a, opts)
}

/// `numpy.all`.
///
/// # Errors
/// As [`reduce`].
pub fn all(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::All, a, opts)
}

/// `numpy.any`.
///
/// # Errors
/// As [`reduce`].
pub fn any(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Any, a, opts)
}

/// `numpy.count_nonzero` (int64 counts).
///
/// # Errors
/// As [`reduce`].
pub fn count_nonzero(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::CountNonzero, a, opts)
}

/// `numpy.mean`: integers and bool give float64; float16 accumulates in
/// float32; an empty reduction gives NaN.
///
/// # Errors
/// As [`reduce`].
pub fn mean(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::Mean, a, opts)
}

/// `numpy.nansum`: NaN counts as zero.
///
/// # Errors
/// As [`reduce`].
pub fn nansum(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::NanSum, a, opts)
}

/// `numpy.nanprod`: NaN counts as one.
///
/// # Errors
/// As [`reduce`].
pub fn nanprod(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::NanProd, a, opts)
}

/// `numpy.nanmax`: NaN is ignored; a row of NaN only gives NaN (NumPy also
/// warns); an empty reduction is an error.
///
/// # Errors
/// As [`reduce`].
pub fn nanmax(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::NanMax, a, opts)
}

/// `numpy.nanmin`: as [`nanmax`].
///
/// # Errors
/// As [`reduce`].
pub fn nanmin(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    reduce(Builtin::NanMin, a, opts)
}

/// `numpy.ptp`: `max - min` along the axes, in the input's dtype (unsigned
/// integers wrap, as NumPy's).
///
/// # Errors
/// As [`reduce`] for max and min; bool input (NumPy's subtract has no
/// bool loop); [`Error::Unsupported`] for `dtype=` and `out=`.
pub fn ptp(a: &Array, opts: &ReduceOptions<'_>) -> Result<Array> {
    if opts.out.is_some() || opts.dtype.is_some() {
        return Err(Error::Unsupported(
            "ptp with out= or dtype=: not supported".into(),
        ));
    }
    let mx = amax(a, opts)?;
    let mn = amin(a, opts)?;
    crate::ufunc::subtract(&mx, &mn)
}

/// Reductions as methods (`a.sum(&ReduceOptions::axis(0))?`), each the
/// function of the same name in [`crate::reduction`].
impl Array {
    /// [`sum`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn sum(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        sum(self, opts)
    }

    /// [`prod`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn prod(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        prod(self, opts)
    }

    /// [`amax`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn max(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        amax(self, opts)
    }

    /// [`amin`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn min(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        amin(self, opts)
    }

    /// [`all`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn all(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        all(self, opts)
    }

    /// [`any`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn any(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        any(self, opts)
    }

    /// [`mean`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn mean(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        mean(self, opts)
    }

    /// [`ptp`].
    ///
    /// # Errors
    /// As [`ptp`].
    pub fn ptp(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        ptp(self, opts)
    }

    /// [`count_nonzero`].
    ///
    /// # Errors
    /// As [`reduce`].
    pub fn count_nonzero(&self, opts: &ReduceOptions<'_>) -> Result<Array> {
        count_nonzero(self, opts)
    }
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
