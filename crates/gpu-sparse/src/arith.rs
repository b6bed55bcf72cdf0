//! Arithmetic and comparisons of compressed matrices, SciPy's semantics:
//! `+` and `-` of two matrices, products and quotients by a scalar,
//! elementwise products with sparse and dense operands, `power`,
//! `maximum`/`minimum`, and the comparisons whose result is sparse.
//!
//! Results follow SciPy: dtypes promote as NumPy's (a Rust scalar is weak,
//! as a Python scalar), two-matrix operations return a canonical matrix
//! with no stored zeros (SciPy's `_binopt` stores none), operations with a
//! scalar keep the pattern. Operations whose result would be nearly dense
//! (`A == B`, `A < 1`, ...), which SciPy computes with a warning, return
//! [`Error::Unsupported`]: compare the dense arrays instead.

use gpu_array::dtype::{Casting, ScalarValue, can_cast, promote_types};
use gpu_array::ufunc::Arg;
use gpu_array::{Array, DType, Error, Result, manipulation, ufunc};

use crate::SpMatrix;
use crate::align::{check_same_shape, gather, intersection, nonzero_entries, union};
use crate::base::index_dtype_for;
use crate::canonical::{compress, sort_and_sum};
use crate::compressed::{CANONICAL, Compressed, CscMatrix, CsrMatrix, FromSparse};

/// A comparison, by its Python operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

impl Cmp {
    fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Gt => ">",
            Cmp::Le => "<=",
            Cmp::Ge => ">=",
        }
    }

    fn apply(self, a: Arg<'_>, b: Arg<'_>) -> Result<Array> {
        match self {
            Cmp::Eq => ufunc::equal(a, b),
            Cmp::Ne => ufunc::not_equal(a, b),
            Cmp::Lt => ufunc::less(a, b),
            Cmp::Gt => ufunc::greater(a, b),
            Cmp::Le => ufunc::less_equal(a, b),
            Cmp::Ge => ufunc::greater_equal(a, b),
        }
    }

    /// `0 op s` on the host, complex values ordered as NumPy orders them
    /// (real part first); NaN compares false but for `!=`.
    fn zero_against(self, s: ScalarValue) -> bool {
        let (re, im) = match s {
            ScalarValue::Bool(b) => (f64::from(u8::from(b)), 0.0),
            ScalarValue::Int(i) => (i.signum() as f64, 0.0),
            ScalarValue::Float(f) => (f, 0.0),
            ScalarValue::Complex(c) => (c.re, c.im),
        };
        if re.is_nan() || im.is_nan() {
            return self == Cmp::Ne;
        }
        let ord = 0.0f64
            .partial_cmp(&re)
            .and_then(|o| Some(o.then(0.0f64.partial_cmp(&im)?)))
            .unwrap_or(std::cmp::Ordering::Equal);
        match self {
            Cmp::Eq => ord.is_eq(),
            Cmp::Ne => ord.is_ne(),
            Cmp::Lt => ord.is_lt(),
            Cmp::Gt => ord.is_gt(),
            Cmp::Le => ord.is_le(),
            Cmp::Ge => ord.is_ge(),
        }
    }
}

/// `1 / s` as a weak scalar (float, or complex for a complex `s`).
fn reciprocal(s: ScalarValue) -> ScalarValue {
    match s {
        ScalarValue::Bool(b) => ScalarValue::Float(1.0 / f64::from(u8::from(b))),
        ScalarValue::Int(i) => ScalarValue::Float(1.0 / i as f64),
        ScalarValue::Float(f) => ScalarValue::Float(1.0 / f),
        ScalarValue::Complex(c) => ScalarValue::Complex(c.inv()),
    }
}

/// `s` as Python writes it, for messages.
fn show(s: ScalarValue) -> String {
    match s {
        ScalarValue::Bool(b) => {
            if b {
                "True".into()
            } else {
                "False".into()
            }
        }
        ScalarValue::Int(i) => i.to_string(),
        ScalarValue::Float(f) => f.to_string(),
        ScalarValue::Complex(c) => format!("({}{:+}j)", c.re, c.im),
    }
}

/// Whether `s` is zero (SciPy's `not n`).
fn is_zero(s: ScalarValue) -> bool {
    match s {
        ScalarValue::Bool(b) => !b,
        ScalarValue::Int(i) => i == 0,
        ScalarValue::Float(f) => f == 0.0,
        ScalarValue::Complex(c) => c.re == 0.0 && c.im == 0.0,
    }
}

impl Compressed {
    /// `self + other`, or `self - other` (`negate`): both entry lists in
    /// one, the other's negated, sorted and summed (deterministically),
    /// zero sums dropped.
    pub(crate) fn plus(&self, other: &Compressed, negate: bool) -> Result<Compressed> {
        check_same_shape(self, other)?;
        // Each operand cast to the result's dtype, then its duplicates
        // summed, as SciPy's binop does: `A - A` is then exactly empty,
        // where one sort of both lists would add `(e1 + e2) - e1 - e2` and
        // leave rounding behind, and float32 duplicates add in float64
        // when the other operand is float64.
        let dtype = promote_types(self.data.dtype(), other.data.dtype());
        let cast = |m: &Compressed| -> Result<Compressed> {
            if m.data.dtype() == dtype {
                m.canonical()
            } else {
                m.with_data(m.data.astype(dtype)?).canonical()
            }
        };
        let (this, other) = (cast(self)?, cast(other)?);
        let this = &this;
        let other = &other;
        if negate && dtype == DType::Bool {
            return Err(Error::Unsupported(
                "numpy boolean subtract, the `-` operator, is not supported, use the \
                 bitwise_xor, the `^` operator, or the logical_xor function instead."
                    .into(),
            ));
        }
        let theirs = other.data.astype(dtype)?;
        let theirs = if negate {
            ufunc::negative(&theirs)?
        } else {
            theirs
        };
        let nnz = this
            .nnz()
            .checked_add(other.nnz())
            .ok_or_else(|| Error::Value("too many entries".into()))?;
        let index = index_dtype_for((this.major, this.minor), nnz);
        let cat = |a: &Array, b: &Array| -> Result<Array> {
            manipulation::concatenate(
                &[&a.astype(DType::Int64)?, &b.astype(DType::Int64)?],
                Some(0),
            )
        };
        let major = cat(&this.major_indices()?, &other.major_indices()?)?;
        let minor = cat(&this.indices, &other.indices)?;
        let data = manipulation::concatenate(&[&this.data.astype(dtype)?, &theirs], Some(0))?;
        let s = sort_and_sum(&major, &minor, &data, this.minor, index, false)?;
        let indptr = compress(&s.major, this.major, index)?;
        Compressed::new_unchecked(s.data, s.minor, indptr, this.major, this.minor, CANONICAL)
            .without_zeros()
    }

    /// `op(self, other)` over the union of the patterns (implicit zeros
    /// taking part), zero results dropped.
    fn union_op(
        &self,
        other: &Compressed,
        op: impl Fn(&Array, &Array) -> Result<Array>,
    ) -> Result<Compressed> {
        let dtype = promote_types(self.data.dtype(), other.data.dtype());
        let u = union(self, other, dtype)?;
        let values = op(&u.a, &u.b)?;
        nonzero_entries(&u.keys, &values, self.major, self.minor)
    }

    /// The elementwise product with a sparse matrix: the intersection of
    /// the patterns, zero products dropped.
    pub(crate) fn times(&self, other: &Compressed) -> Result<Compressed> {
        let dtype = promote_types(self.data.dtype(), other.data.dtype());
        let i = intersection(self, other, dtype)?;
        let values = ufunc::multiply(&i.a, &i.b)?;
        nonzero_entries(&i.keys, &values, self.major, self.minor)
    }

    /// The elementwise product with a dense array of the matrix's shape,
    /// or a row (`(1, n)` or 1-D of length `n`) or column (`(m, 1)`)
    /// vector broadcast along it; a one-element array acts as a scalar.
    /// The values are multiplied where the matrix stores entries.
    pub(crate) fn times_dense(&self, dense: &Array, csc: bool) -> Result<Compressed> {
        self.data.check_same_device(dense, "sparse multiply")?;
        let (m, n) = self.shape(csc);
        if dense.size() == 1 {
            let s = dense.reshape([0isize; 0])?;
            return Ok(self.with_data(ufunc::multiply(&self.data, &s)?));
        }
        let d = match dense.ndim() {
            1 => dense.reshape([1isize, -1])?,
            2 => dense.clone(),
            _ => return Err(Error::Value("inconsistent shapes".into())),
        };
        let (dm, dn) = (d.shape()[0], d.shape()[1]);
        let (rows, cols) = if csc {
            (self.indices.clone(), self.major_indices()?)
        } else {
            (self.major_indices()?, self.indices.clone())
        };
        let flat = d.ravel()?;
        let at = if (dm, dn) == (m, n) {
            let k = ufunc::add(
                &ufunc::multiply(&rows.astype(DType::Int64)?, n as i64)?,
                &cols.astype(DType::Int64)?,
            )?;
            gather(&flat, &k)?
        } else if dm == 1 && dn == n {
            gather(&flat, &cols)?
        } else if dn == 1 && dm == m {
            gather(&flat, &rows)?
        } else if (m == 1 || n == 1)
            && gpu_array::layout::broadcast_shapes(&[&[m, n], &[dm, dn]]).is_ok()
        {
            return Err(Error::Unsupported(format!(
                "multiplying a sparse vector of shape ({m}, {n}) by a dense array of shape \
                 ({dm}, {dn}) that broadcasts it to a larger shape"
            )));
        } else {
            return Err(Error::Value("inconsistent shapes".into()));
        };
        Ok(self.with_data(ufunc::multiply(&self.data, &at)?))
    }

    /// `self / s` as SciPy's true division: every dtype that casts safely
    /// to float64 (bool, the integers, float32) divides in float64, as a
    /// product with the reciprocal.
    pub(crate) fn over_scalar(&self, s: ScalarValue) -> Result<Compressed> {
        let dt = self.data.dtype();
        let data = if can_cast(dt, DType::Float64, Casting::Safe) {
            self.data.astype(DType::Float64)?
        } else {
            self.data.clone()
        };
        Ok(self.with_data(ufunc::multiply(&data, Arg::Scalar(reciprocal(s)))?))
    }

    /// `self op s` for a comparison whose result is sparse (`0 op s`
    /// false): the entries of the summed matrix where it holds.
    pub(crate) fn compare_scalar(&self, s: ScalarValue, op: Cmp) -> Result<Compressed> {
        if op.zero_against(s) {
            return Err(Error::Unsupported(format!(
                "`A {} {}` of a sparse matrix: every implicit zero compares true, a dense \
                 result; compare the dense array instead",
                op.symbol(),
                show(s)
            )));
        }
        let c = self.canonical()?;
        let hits = op.apply(Arg::Borrowed(&c.data), Arg::Scalar(s))?;
        let keep = gpu_array::indexing::nonzero(&hits)?.remove(0);
        c.subset(&keep, gather(&hits, &keep)?)
    }

    /// `self op other` for a comparison whose result is sparse (`0 op 0`
    /// false: `!=`, `<`, `>`), over the union of the patterns.
    pub(crate) fn compare(&self, other: &Compressed, op: Cmp) -> Result<Compressed> {
        if op.zero_against(ScalarValue::Int(0)) {
            return Err(Error::Unsupported(format!(
                "`A {} B` of sparse matrices: the implicit zeros of both compare true, a \
                 dense result; compare the dense arrays instead",
                op.symbol()
            )));
        }
        self.union_op(other, |a, b| op.apply(Arg::Borrowed(a), Arg::Borrowed(b)))
    }
}

macro_rules! arith_methods {
    ($name:ident, $csc:tt) => {
        impl $name {
            /// `self + other` (SciPy's `A + B`): the same shape, any format
            /// (brought to this one), the promoted dtype; a canonical
            /// result without stored zeros. Duplicates add in storage
            /// order, the same on every run.
            ///
            /// ```no_run
            /// use gpu_sparse::SpMatrix;
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.add(&a)?; // 2 on the diagonal
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Shapes that differ ("inconsistent shapes"); allocation or
            /// launch failures.
            pub fn add<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<$name> {
                let other = $name::from_sparse(other)?;
                Ok($name { c: self.c.plus(&other.c, false)? })
            }

            /// `self - other` (SciPy's `A - B`), as [`Self::add`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let z = a.sub(&a)?; // no entries
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::add`]; bool matrices (NumPy has no bool
            /// subtraction).
            pub fn sub<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<$name> {
                let other = $name::from_sparse(other)?;
                Ok($name { c: self.c.plus(&other.c, true)? })
            }

            /// `self * s` for a scalar (weak, as a Python scalar: float32
            /// values stay float32): the same pattern, stored zeros kept.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float32)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.mul_scalar(2.5)?; // float32, 2.5 on the diagonal
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// No loop for the dtypes; allocation or launch failures.
            pub fn mul_scalar(&self, s: impl Into<ScalarValue>) -> Result<$name> {
                let v = ufunc::multiply(&self.c.data, Arg::Scalar(s.into()))?;
                Ok($name { c: self.c.with_data(v) })
            }

            /// `self / s` for a scalar, SciPy's true division: bool,
            /// integer and float32 values divide in float64 (SciPy casts
            /// every dtype that converts safely to float64), other dtypes
            /// keep theirs; the product with `1 / s`, so `s == 0` gives
            /// infinities and NaN at the stored entries only.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Int32)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.div_scalar(4)?; // float64, 0.25 on the diagonal
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Allocation or launch failures.
            pub fn div_scalar(&self, s: impl Into<ScalarValue>) -> Result<$name> {
                Ok($name { c: self.c.over_scalar(s.into())? })
            }

            /// `-self`.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.neg()?;
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A bool matrix (SciPy: "negating a boolean sparse array is
            /// not supported"); allocation or launch failures.
            pub fn neg(&self) -> Result<$name> {
                if self.c.data.dtype() == DType::Bool {
                    return Err(Error::Unsupported(
                        "negating a boolean sparse array is not supported".into(),
                    ));
                }
                Ok($name { c: self.c.with_data(ufunc::negative(&self.c.data)?) })
            }

            /// The elementwise product with a sparse matrix of the same
            /// shape (SciPy's `A.multiply(B)`): entries where both store
            /// one, zero products dropped, canonical.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.multiply(&a.mul_scalar(3.0)?)?; // 3 on the diagonal
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Shapes that differ ("inconsistent shapes"; SciPy's
            /// broadcasting of sparse vectors is not implemented).
            pub fn multiply<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<$name> {
                let other = $name::from_sparse(other)?;
                Ok($name { c: self.c.times(&other.c)? })
            }

            /// The elementwise product with a dense array (SciPy's
            /// `A.multiply(dense)`): of the matrix's shape, or a row vector
            /// (`(1, n)` or 1-D) or column vector (`(m, 1)`) broadcast
            /// along it, or one element. The result keeps the matrix's
            /// pattern and format (SciPy returns it as `coo`; `tocoo` is a
            /// conversion away); products at implicit zeros are not formed,
            /// so NaN or infinities there do not appear.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(2, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let d = gpu_array::creation::array([[2.0, 5.0], [7.0, 3.0]])?;
            /// let b = a.multiply_dense(&d)?; // diagonal 2, 3
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// A shape that does not broadcast ("inconsistent shapes"), a
            /// sparse vector broadcast to a larger dense shape
            /// ([`Error::Unsupported`]); another device.
            pub fn multiply_dense(&self, dense: &Array) -> Result<$name> {
                Ok($name { c: self.c.times_dense(dense, $csc)? })
            }

            /// `data ** n` of the summed matrix (SciPy's `A.power(n)`,
            /// elementwise).
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.mul_scalar(3.0)?.power(2)?; // 9 on the diagonal
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// `n == 0` (SciPy: the result would be dense); no loop for the
            /// dtypes (integers to negative powers).
            pub fn power(&self, n: impl Into<ScalarValue>) -> Result<$name> {
                let n = n.into();
                if is_zero(n) {
                    return Err(Error::Unsupported(
                        "zero power is not supported as it would densify the matrix. Use \
                         `ones(A.shape, dtype=A.dtype)` instead."
                            .into(),
                    ));
                }
                let c = self.c.canonical()?;
                let v = ufunc::power(&c.data, Arg::Scalar(n))?;
                Ok($name { c: c.with_data(v) })
            }

            /// The elementwise maximum with a sparse matrix (SciPy's
            /// `A.maximum(B)`): implicit zeros take part, zero results are
            /// not stored.
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.neg()?.maximum(&a)?; // a
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// Shapes that differ ("inconsistent shapes").
            pub fn maximum<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<$name> {
                let other = $name::from_sparse(other)?;
                Ok($name { c: self.c.union_op(&other.c, |a, b| ufunc::maximum(a, b))? })
            }

            /// The elementwise minimum with a sparse matrix, as
            /// [`Self::maximum`].
            ///
            /// ```no_run
            /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
            /// # use gpu_sparse::SpMatrix as _;
            #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
            /// let b = a.neg()?.minimum(&a)?; // -a
            /// # Ok(()) }
            /// ```
            ///
            /// # Errors
            /// As [`Self::maximum`].
            pub fn minimum<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<$name> {
                let other = $name::from_sparse(other)?;
                Ok($name { c: self.c.union_op(&other.c, |a, b| ufunc::minimum(a, b))? })
            }

            arith_methods!(@cmp $csc, ne, ne_scalar, Ne, "!=");
            arith_methods!(@cmp $csc, eq, eq_scalar, Eq, "==");
            arith_methods!(@cmp $csc, lt, lt_scalar, Lt, "<");
            arith_methods!(@cmp $csc, gt, gt_scalar, Gt, ">");
            arith_methods!(@cmp $csc, le, le_scalar, Le, "<=");
            arith_methods!(@cmp $csc, ge, ge_scalar, Ge, ">=");
        }
    };
    (@conv false) => { "" };
    (@conv true) => { ".tocsc()?" };
    (@cmp $csc:tt, $f:ident, $fs:ident, $op:ident, $sym:literal) => {
        #[doc = concat!("`self ", $sym, " other` of two sparse matrices, a sparse bool matrix")]
        /// holding the true elements (SciPy's comparison of sparse
        /// matrices); implicit zeros take part.
        ///
        /// Only `!=`, `<` and `>` are sparse (`0 op 0` is false); SciPy
        /// computes `==`, `<=` and `>=` as nearly dense matrices with a
        /// warning, Cuprum refuses them.
        ///
        /// ```no_run
        /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
        #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
        #[doc = concat!("let r = a.", stringify!($f), "(&a.mul_scalar(2.0)?)?;")]
        /// # Ok(()) }
        /// ```
        ///
        /// # Errors
        /// Shapes that differ ("inconsistent shapes");
        /// [`Error::Unsupported`] for `==`, `<=` and `>=`.
        pub fn $f<M: SpMatrix + ?Sized>(&self, other: &M) -> Result<Self> {
            let other = Self::from_sparse(other)?;
            Ok(Self { c: self.c.compare(&other.c, Cmp::$op)? })
        }

        #[doc = concat!("`self ", $sym, " s` for a scalar, a sparse bool matrix of the stored")]
        /// elements (duplicates summed) where it holds; only when an
        /// implicit zero compares false (`A != 0`, `A == 2`, `A < -1`,
        /// `A > 0`, ...), SciPy's other cases being dense.
        ///
        /// ```no_run
        /// # fn main() -> gpu_array::Result<()> {
        /// # use gpu_sparse::SpMatrix as _;
        #[doc = concat!("let a = gpu_sparse::identity(3, gpu_array::DType::Float64)?", arith_methods!(@conv $csc), ";")]
        #[doc = concat!("let r = a.", stringify!($fs), "(0.5)?;")]
        /// # Ok(()) }
        /// ```
        ///
        /// # Errors
        /// [`Error::Unsupported`] when `0 op s` holds (a dense result).
        pub fn $fs(&self, s: impl Into<ScalarValue>) -> Result<Self> {
            Ok(Self { c: self.c.compare_scalar(s.into(), Cmp::$op)? })
        }
    };
}

arith_methods!(CsrMatrix, false);
arith_methods!(CscMatrix, true);
