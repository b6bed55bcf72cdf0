//! NumPy 2's loop selection for the table's ufuncs.
//!
//! The rules (NumPy's legacy type resolver under NEP 50):
//!
//! 1. A Python `bool` scalar is strongly typed (`bool`); other weak scalars
//!    (`int`, `float`, `complex`) count by kind only.
//! 2. When some operand is an array and the highest array kind is at least
//!    the highest weak scalar kind (bool < integer < inexact, complex
//!    counting as inexact), weak scalars are "min scalars": a weak `int`
//!    accepts any integer or inexact loop type, a weak `float` any inexact
//!    one, a weak `complex` any complex one. Otherwise (a weak kind above
//!    every array's, or no array) each weak scalar acts as its default dtype
//!    (int64, float64, complex128): `int8 array + 1.0` uses `dd->d`.
//! 3. A loop whose input types are exactly the arrays' dtypes (every
//!    input an array, no `dtype=`/`signature=`) is taken first, as NumPy 2
//!    dispatches on exact DTypes before its legacy search: scipy.special
//!    lists `d->d` before `f->f` for `j0`, yet float32 stays float32.
//!    Otherwise the first loop, in table order, to which every input casts
//!    safely is taken. With `dtype=` or `signature=`, only loops with those types are
//!    considered and the specified positions are not checked; when none
//!    fits and the outputs are fixed to one dtype, the unspecified inputs
//!    take that dtype too and the search runs again (`add(f8, f8,
//!    dtype=f4)` is `ff->f`). `true_divide` of integers is `dd->d`.
//! 4. The inputs must then cast to the loop's types by `casting`, and the
//!    loop's outputs to any given output arrays by `casting` (`same_kind`
//!    by default).

use crate::dtype::{Casting, DType, Operand, ScalarKind, can_cast, check_weak_int};
use crate::error::{Error, Result};

use super::{Loop, Resolver, Ufunc};

/// A ufunc call's keyword arguments (NumPy's `out=`, `dtype=`,
/// `signature=`, `casting=`), as far as loop selection cares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct UfuncParams {
    /// The dtypes of the output arrays given with `out=`, one entry per
    /// output (`None` for one not given); empty when none is given.
    pub out: Vec<Option<DType>>,
    /// `dtype=`: the output dtype (all outputs).
    pub dtype: Option<DType>,
    /// `signature=`: a dtype or `None` for every input and output.
    pub signature: Option<Vec<Option<DType>>>,
    /// `casting=` (`same_kind` by default).
    pub casting: Casting,
}

impl UfuncParams {
    /// Sets `out`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let add = ufunc::get("add")?;
    /// let int8 = [Operand::Array(DType::Int8), Operand::Array(DType::Int8)];
    /// assert!(add.resolve(&int8, &UfuncParams::default().out(vec![Some(DType::Float32)])).is_ok());
    /// assert!(add.resolve(&int8, &UfuncParams::default().out(vec![Some(DType::Bool)])).is_err()); // int8 -> bool is not same_kind
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn out(mut self, out: Vec<Option<DType>>) -> UfuncParams {
        self.out = out;
        self
    }

    /// Sets `dtype`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Int8), Operand::Array(DType::Int8)], &UfuncParams::default().dtype(DType::Float64))?;
    /// assert_eq!(lp.signature(), "dd->d");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn dtype(mut self, dtype: impl Into<Option<DType>>) -> UfuncParams {
        self.dtype = dtype.into();
        self
    }

    /// Sets `signature`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let sig = UfuncParams::default().signature(vec![Some(DType::Float32), None, None]); // signature=("f", None, None)
    /// let lp = ufunc::get("multiply")?.resolve(&[Operand::Array(DType::Int16), Operand::Array(DType::Int16)], &sig)?;
    /// assert_eq!(lp.signature(), "ff->f");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn signature(mut self, signature: Vec<Option<DType>>) -> UfuncParams {
        self.signature = Some(signature);
        self
    }

    /// Sets `casting`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::{Casting, Operand};
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let ops = [Operand::Array(DType::Int8), Operand::Array(DType::Int16)];
    /// assert!(ufunc::get("add")?.resolve(&ops, &UfuncParams::default().casting(Casting::No)).is_err()); // int8 would be cast
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn casting(mut self, casting: Casting) -> UfuncParams {
        self.casting = casting;
        self
    }
}

/// The loop chosen for a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedLoop {
    ufunc: &'static Ufunc,
    index: usize,
    /// The loop's input dtypes: what weak scalars are converted to, and
    /// what array inputs are cast to in the kernel.
    pub inputs: smallvec::SmallVec<[DType; 3]>,
    /// The loop's output dtypes: the dtypes of outputs the call allocates.
    pub outputs: smallvec::SmallVec<[DType; 2]>,
}

impl ResolvedLoop {
    /// The loop's position in the ufunc's loop list.
    pub(crate) fn loop_index(&self) -> usize {
        self.index
    }

    /// The ufunc.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("sqrt")?.resolve(&[Operand::Array(DType::Float32)], &UfuncParams::default())?;
    /// assert_eq!(lp.ufunc().name(), "sqrt");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn ufunc(&self) -> &'static Ufunc {
        self.ufunc
    }

    /// The loop's position in [`Ufunc::loops`].
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Float64), Operand::Array(DType::Float64)], &UfuncParams::default())?;
    /// assert_eq!(lp.ufunc().types()[lp.index()], "dd->d");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The loop.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Int32), Operand::Array(DType::Int32)], &UfuncParams::default())?;
    /// assert!(std::ptr::eq(lp.lp(), &lp.ufunc().loops()[lp.index()]));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn lp(&self) -> &'static Loop {
        &self.ufunc.loops[self.index]
    }

    /// NumPy's signature of the loop (`"hh->h"`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Int8), Operand::Array(DType::UInt8)], &UfuncParams::default())?;
    /// assert_eq!(lp.signature(), "hh->h"); // int8 + uint8 -> int16
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn signature(&self) -> String {
        self.lp().signature()
    }

    /// NumPy 2's check that a weak integer scalar given for input `position`
    /// fits the loop's type there (`uint8 array + 300` is an error).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::{Operand, ScalarKind};
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::UInt8), Operand::Scalar(ScalarKind::Int)], &UfuncParams::default())?;
    /// assert!(lp.check_weak_int(1, 255).is_ok());
    /// assert!(lp.check_weak_int(1, 300).is_err()); // uint8 array + 300
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`check_weak_int`]: "Python integer 300 out of bounds for uint8".
    pub fn check_weak_int(&self, position: usize, value: i128) -> Result<()> {
        // NumPy 2 compares integers with any Python int by value
        // (`uint8_array < 300` is all True); `call` gives those results.
        if is_comparison(self.ufunc.name) {
            return Ok(());
        }
        check_weak_int(value, self.inputs[position])
    }
}

/// The six comparison ufuncs, which take out-of-range Python ints.
pub(crate) fn is_comparison(name: &str) -> bool {
    COMPARISONS.contains(&name)
}

/// The comparison ufuncs.
pub(crate) const COMPARISONS: [&str; 6] = [
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "equal",
    "not_equal",
];

/// Simplified kind order of NumPy's `should_use_min_scalar`: bool 0,
/// integers 1, inexact 2.
fn simple_kind(d: DType) -> u8 {
    match d.kind() {
        'b' => 0,
        'i' | 'u' => 1,
        _ => 2,
    }
}

fn scalar_simple_kind(k: ScalarKind) -> u8 {
    match k {
        ScalarKind::Bool => 0,
        ScalarKind::Int => 1,
        ScalarKind::Float | ScalarKind::Complex => 2,
    }
}

/// NumPy's `can_cast_pyscalar_scalar_to`: whether a weak scalar of `kind`
/// may use a loop of type `to`.
fn weak_fits(kind: ScalarKind, to: DType, casting: Casting) -> bool {
    if casting == Casting::Unsafe {
        return true;
    }
    match kind {
        ScalarKind::Bool => can_cast(DType::Bool, to, casting),
        ScalarKind::Int => to.is_integer() || to.is_inexact(),
        ScalarKind::Float => to.is_inexact(),
        ScalarKind::Complex => to.is_complex(),
    }
}

impl Ufunc {
    /// Picks the loop for inputs `inputs` (arrays by dtype, weak scalars by
    /// kind) and the call's `params`, as NumPy 2 does (see the module's
    /// rules).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::{Operand, ScalarKind};
    /// use gpu_array::ufunc::{self, UfuncParams};
    /// let add = ufunc::get("add")?;
    /// let lp = add.resolve(&[Operand::Array(DType::Float32), Operand::Scalar(ScalarKind::Float)], &UfuncParams::default())?;
    /// assert_eq!(lp.signature(), "ff->f"); // a weak float keeps float32 (NEP 50)
    /// assert!(ufunc::get("bitwise_and")?.resolve(&[Operand::Array(DType::Float32); 2], &UfuncParams::default()).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] for a wrong number of inputs or outputs;
    /// [`Error::DType`] (NumPy's `UFuncTypeError`) when no loop fits:
    /// "ufunc 'bitwise_and' not supported for the input types, and the
    /// inputs could not be safely coerced to any supported types according
    /// to the casting rule ''safe''"; with `dtype=`/`signature=`: "No loop
    /// matching the specified signature and casting was found for ufunc
    /// add"; when an output cannot take the loop's result: "Cannot cast
    /// ufunc 'add' output from dtype('float64') to dtype('int64') with
    /// casting rule 'same_kind'"; an input the `casting` rule forbids:
    /// "Cannot cast ufunc 'add' input 0 from dtype('int8') to
    /// dtype('int16') with casting rule 'no'"; and NumPy's messages for
    /// boolean `subtract` and `negative`.
    pub fn resolve(
        &'static self,
        inputs: &[Operand],
        params: &UfuncParams,
    ) -> Result<ResolvedLoop> {
        if inputs.len() != self.nin {
            return Err(Error::Value(format!(
                "{}() takes {} positional input arguments but {} were given",
                self.name,
                self.nin,
                inputs.len()
            )));
        }
        if params.out.len() > self.nout {
            return Err(Error::Value(format!(
                "ufunc '{}' has {} outputs but {} were given",
                self.name,
                self.nout,
                params.out.len()
            )));
        }
        // A Python bool is strongly typed.
        let inputs: Vec<Operand> = inputs
            .iter()
            .map(|op| match op {
                Operand::Scalar(ScalarKind::Bool) => Operand::Array(DType::Bool),
                other => *other,
            })
            .collect();
        if let Some(msg) = self.bool_error
            && inputs.iter().all(|op| *op == Operand::Array(DType::Bool))
        {
            return Err(Error::DType(msg.to_owned()));
        }

        // Types fixed by signature= or dtype=.
        let mut fixed: Vec<Option<DType>> = vec![None; self.nargs()];
        if let Some(sig) = &params.signature {
            if sig.len() != self.nargs() {
                return Err(Error::Value(format!(
                    "signature for ufunc '{}' must have {} entries, got {}",
                    self.name,
                    self.nargs(),
                    sig.len()
                )));
            }
            fixed.clone_from(sig);
        }
        if let Some(d) = params.dtype {
            for slot in &mut fixed[self.nin..] {
                *slot = Some(d);
            }
        }
        if fixed.iter().all(Option::is_none)
            && self.resolver == Resolver::TrueDivide
            && inputs.iter().all(|op| match op {
                Operand::Array(d) => d.is_integer() || d.is_bool(),
                Operand::Scalar(k) => *k <= ScalarKind::Int,
            })
        {
            fixed = vec![Some(DType::Float64); self.nargs()];
        }
        let is_fixed = fixed.iter().any(Option::is_some);

        let any_array = inputs.iter().any(|op| matches!(op, Operand::Array(_)));
        let max_array = inputs
            .iter()
            .filter_map(|op| match op {
                Operand::Array(d) => Some(simple_kind(*d)),
                Operand::Scalar(_) => None,
            })
            .max();
        let max_weak = inputs
            .iter()
            .filter_map(|op| match op {
                Operand::Scalar(k) => Some(scalar_simple_kind(*k)),
                Operand::Array(_) => None,
            })
            .max();
        let min_scalar = any_array && max_array >= max_weak;

        // Unspecified inputs must cast safely (the weak-scalar rules apply);
        // specified positions are not checked here but validated below.
        let fits = |op: &Operand, to: DType| match op {
            Operand::Array(d) => can_cast(*d, to, Casting::Safe),
            Operand::Scalar(k) if min_scalar => weak_fits(*k, to, Casting::Safe),
            Operand::Scalar(k) => can_cast(k.default_dtype(), to, Casting::Safe),
        };
        let search = |fixed: &[Option<DType>]| {
            self.loops.iter().position(|lp| {
                let types = lp.inputs.iter().chain(&lp.outputs);
                fixed
                    .iter()
                    .zip(types)
                    .all(|(f, t)| f.is_none_or(|f| f == *t))
                    && inputs
                        .iter()
                        .zip(&lp.inputs)
                        .zip(&fixed[..self.nin])
                        .all(|((op, &t), f)| f.is_some() || fits(op, t))
            })
        };
        let exact = if is_fixed {
            None
        } else {
            self.loops.iter().position(|lp| {
                inputs
                    .iter()
                    .zip(&lp.inputs)
                    .all(|(op, t)| *op == Operand::Array(*t))
            })
        };
        let mut found = exact.or_else(|| search(&fixed));
        // NumPy's second try for `dtype=`: outputs all fixed to one dtype
        // fill the unspecified inputs too (`add(f8, f8, dtype=f4)` is `ff->f`).
        if found.is_none()
            && let Some(Some(h)) = fixed.get(self.nin).copied()
            && fixed[self.nin..].iter().all(|f| *f == Some(h))
        {
            let filled: Vec<Option<DType>> = fixed.iter().map(|f| Some(f.unwrap_or(h))).collect();
            found = search(&filled);
        }
        let Some(index) = found else {
            return Err(Error::DType(if is_fixed {
                format!(
                    "No loop matching the specified signature and casting was found for ufunc {}",
                    self.name
                )
            } else {
                format!(
                    "ufunc '{}' not supported for the input types, and the inputs could not be \
                     safely coerced to any supported types according to the casting rule \
                     ''safe''",
                    self.name
                )
            }));
        };
        let lp = &self.loops[index];

        // Validate the casts by the call's rule.
        for (k, (op, &t)) in inputs.iter().zip(&lp.inputs).enumerate() {
            if let Operand::Array(d) = op
                && !can_cast(*d, t, params.casting)
            {
                return Err(Error::DType(format!(
                    "Cannot cast ufunc '{}' input {k} from dtype('{d}') to dtype('{t}') with \
                     casting rule '{}'",
                    self.name, params.casting
                )));
            }
        }
        for (k, (out, &t)) in params.out.iter().zip(&lp.outputs).enumerate() {
            if let Some(o) = out
                && !can_cast(t, *o, params.casting)
            {
                let which = if self.nout > 1 {
                    format!(" output {k}")
                } else {
                    " output".to_owned()
                };
                return Err(Error::DType(format!(
                    "Cannot cast ufunc '{}'{which} from dtype('{t}') to dtype('{o}') with \
                     casting rule '{}'",
                    self.name, params.casting
                )));
            }
        }
        Ok(ResolvedLoop {
            ufunc: self,
            index,
            inputs: lp.inputs.clone(),
            outputs: lp.outputs.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::get;
    use super::*;
    use DType::*;

    fn arr(d: DType) -> Operand {
        Operand::Array(d)
    }
    fn weak(k: ScalarKind) -> Operand {
        Operand::Scalar(k)
    }

    fn sig(name: &str, inputs: &[Operand]) -> String {
        get(name)
            .unwrap()
            .resolve(inputs, &UfuncParams::default())
            .unwrap_or_else(|e| panic!("{name}{inputs:?}: {e}"))
            .signature()
    }

    fn sig_with(name: &str, inputs: &[Operand], params: &UfuncParams) -> Result<String> {
        get(name)
            .unwrap()
            .resolve(inputs, params)
            .map(|r| r.signature())
    }

    #[test]
    fn numpy_array_answers() {
        assert_eq!(sig("add", &[arr(Int8), arr(UInt8)]), "hh->h");
        assert_eq!(sig("add", &[arr(Bool), arr(Bool)]), "??->?");
        assert_eq!(sig("add", &[arr(Int64), arr(UInt64)]), "dd->d");
        assert_eq!(sig("add", &[arr(Float16), arr(Int16)]), "ff->f");
        assert_eq!(sig("add", &[arr(Complex64), arr(Float64)]), "DD->D");
        assert_eq!(sig("add", &[arr(BFloat16), arr(BFloat16)]), "EE->E");
        assert_eq!(sig("add", &[arr(BFloat16), arr(Float16)]), "ff->f");
        assert_eq!(sig("sqrt", &[arr(Int32)]), "d->d");
        assert_eq!(sig("sqrt", &[arr(Int8)]), "e->e");
        assert_eq!(sig("sqrt", &[arr(Bool)]), "e->e");
        assert_eq!(sig("sqrt", &[arr(BFloat16)]), "E->E");
        assert_eq!(sig("sqrt", &[arr(Complex64)]), "F->F");
        assert_eq!(sig("true_divide", &[arr(Int32), arr(Int32)]), "dd->d");
        assert_eq!(sig("divide", &[arr(Int8), arr(Bool)]), "dd->d");
        assert_eq!(sig("true_divide", &[arr(Int8), arr(Float16)]), "ee->e");
        assert_eq!(sig("true_divide", &[arr(Float32), arr(Float32)]), "ff->f");
        assert_eq!(sig("floor_divide", &[arr(Float32), arr(Float32)]), "ff->f");
        assert_eq!(sig("floor_divide", &[arr(Bool), arr(Bool)]), "bb->b");
        assert_eq!(sig("less", &[arr(Float32), arr(Int64)]), "dd->?");
        assert_eq!(sig("equal", &[arr(Bool), arr(Bool)]), "??->?");
        assert_eq!(sig("less", &[arr(Int64), arr(UInt64)]), "lL->?");
        assert_eq!(sig("less", &[arr(Int8), arr(UInt8)]), "hh->?");
        assert_eq!(sig("logical_and", &[arr(Float32), arr(Int8)]), "ff->?");
        assert_eq!(sig("absolute", &[arr(Complex128)]), "D->d");
        assert_eq!(sig("isnan", &[arr(Int32)]), "i->?");
        assert_eq!(sig("ldexp", &[arr(Float32), arr(Int32)]), "fi->f");
        assert_eq!(sig("ldexp", &[arr(Float32), arr(Int64)]), "fl->f");
        assert_eq!(sig("ldexp", &[arr(Float64), arr(Int16)]), "di->d");
        assert_eq!(sig("frexp", &[arr(Float32)]), "f->fi");
        assert_eq!(sig("divmod", &[arr(Int16), arr(Int32)]), "ii->ii");
        assert_eq!(sig("power", &[arr(UInt8), arr(Int8)]), "hh->h");
        assert_eq!(sig("arctan2", &[arr(Int64), arr(Float32)]), "dd->d");
        assert_eq!(sig("gcd", &[arr(Bool), arr(UInt8)]), "BB->B");
        assert_eq!(sig("float_power", &[arr(Int8), arr(Float32)]), "dd->d");
        assert_eq!(sig("float_power", &[arr(Complex64), arr(Float32)]), "DD->D");
        assert_eq!(sig("invert", &[arr(Bool)]), "?->?");
        assert_eq!(sig("left_shift", &[arr(UInt64), arr(UInt8)]), "LL->L");
    }

    #[test]
    fn nep50_weak_scalars() {
        use ScalarKind::*;
        assert_eq!(sig("add", &[arr(Int8), weak(Int)]), "bb->b");
        assert_eq!(sig("add", &[arr(UInt8), weak(Int)]), "BB->B");
        assert_eq!(sig("add", &[arr(Int8), weak(Float)]), "dd->d");
        assert_eq!(sig("add", &[arr(UInt8), weak(Float)]), "dd->d");
        assert_eq!(sig("add", &[arr(Float16), weak(Float)]), "ee->e");
        assert_eq!(sig("add", &[arr(BFloat16), weak(Float)]), "EE->E");
        assert_eq!(sig("multiply", &[arr(Float32), weak(Int)]), "ff->f");
        assert_eq!(sig("add", &[arr(Float32), weak(Complex)]), "FF->F");
        assert_eq!(sig("add", &[arr(Float64), weak(Complex)]), "DD->D");
        assert_eq!(sig("add", &[arr(Int8), weak(Complex)]), "DD->D");
        assert_eq!(sig("add", &[arr(DType::Bool), weak(Int)]), "ll->l");
        assert_eq!(
            sig("add", &[arr(DType::Bool), weak(ScalarKind::Bool)]),
            "??->?"
        );
        assert_eq!(sig("add", &[weak(Int), weak(Int)]), "ll->l");
        assert_eq!(sig("add", &[weak(Int), weak(Float)]), "dd->d");
        assert_eq!(sig("sqrt", &[weak(Int)]), "d->d");
        assert_eq!(sig("ldexp", &[arr(Float32), weak(Int)]), "fi->f");
        assert_eq!(sig("power", &[arr(Int16), weak(Int)]), "hh->h");
        assert_eq!(sig("true_divide", &[arr(Int8), weak(Int)]), "dd->d");
        assert_eq!(sig("true_divide", &[arr(Float16), weak(Int)]), "ee->e");
        assert_eq!(sig("less", &[arr(UInt64), weak(Int)]), "LL->?");
        let r = get("add")
            .unwrap()
            .resolve(&[arr(UInt8), weak(Int)], &UfuncParams::default())
            .unwrap();
        assert!(r.check_weak_int(1, 255).is_ok());
        assert_eq!(
            r.check_weak_int(1, 300).unwrap_err().to_string(),
            "Python integer 300 out of bounds for uint8"
        );
    }

    #[test]
    fn type_errors() {
        let err = |name: &str, inputs: &[Operand]| {
            get(name)
                .unwrap()
                .resolve(inputs, &UfuncParams::default())
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("bitwise_and", &[arr(Float32), arr(Float32)]),
            "ufunc 'bitwise_and' not supported for the input types, and the inputs could not be \
             safely coerced to any supported types according to the casting rule ''safe''"
        );
        assert!(
            err("left_shift", &[arr(Float64), arr(Int8)]).contains("'left_shift' not supported")
        );
        assert!(err("floor_divide", &[arr(Complex64), arr(Complex64)]).contains("not supported"));
        assert!(err("gcd", &[arr(Float32), arr(Int8)]).contains("not supported"));
        assert!(err("subtract", &[arr(Bool), arr(Bool)]).starts_with("numpy boolean subtract"));
        assert!(err("negative", &[arr(Bool)]).starts_with("The numpy boolean negative"));
        assert_eq!(sig("subtract", &[arr(Bool), arr(Int8)]), "bb->b");
        assert!(err("add", &[arr(Int8)]).contains("takes 2"));
    }

    #[test]
    fn out_dtype_signature_casting() {
        use ScalarKind::*;
        let out = |d: DType| UfuncParams {
            out: vec![Some(d)],
            ..Default::default()
        };
        // out= does not change the loop; its dtype must take the result.
        assert_eq!(
            sig_with("add", &[arr(Int8), arr(Int8)], &out(Float32)).unwrap(),
            "bb->b"
        );
        assert_eq!(
            sig_with("add", &[arr(Float64), arr(Float64)], &out(Int64))
                .unwrap_err()
                .to_string(),
            "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int64') with casting \
             rule 'same_kind'"
        );
        assert_eq!(
            sig_with("add", &[arr(Float64), arr(Float64)], &out(Float32)).unwrap(),
            "dd->d"
        );
        let unsafe_out = UfuncParams {
            out: vec![Some(Int64)],
            casting: Casting::Unsafe,
            ..Default::default()
        };
        assert_eq!(
            sig_with("add", &[arr(Float64), arr(Float64)], &unsafe_out).unwrap(),
            "dd->d"
        );
        let two_out = UfuncParams {
            out: vec![None, Some(Int8)],
            ..Default::default()
        };
        assert!(
            sig_with("divmod", &[arr(Float32), arr(Float32)], &two_out)
                .unwrap_err()
                .to_string()
                .contains("'divmod' output 1 from dtype('float32') to dtype('int8')")
        );
        // dtype= picks the loop by its output type.
        let dt = |d: DType| UfuncParams {
            dtype: Some(d),
            ..Default::default()
        };
        assert_eq!(
            sig_with("add", &[arr(Int8), arr(Int8)], &dt(Float32)).unwrap(),
            "ff->f"
        );
        assert_eq!(
            sig_with("add", &[arr(Float64), arr(Float64)], &dt(Float32)).unwrap(),
            "ff->f"
        );
        assert_eq!(
            sig_with("true_divide", &[arr(Int8), arr(Int8)], &dt(Float32)).unwrap(),
            "ff->f"
        );
        assert_eq!(
            sig_with("less", &[arr(Int8), arr(Int16)], &dt(DType::Bool)).unwrap(),
            "hh->?"
        );
        assert_eq!(
            sig_with("add", &[arr(Float64), arr(Float64)], &dt(Int32))
                .unwrap_err()
                .to_string(),
            "Cannot cast ufunc 'add' input 0 from dtype('float64') to dtype('int32') with \
             casting rule 'same_kind'"
        );
        assert_eq!(
            sig_with("bitwise_and", &[arr(Float64), arr(Float64)], &dt(Float64))
                .unwrap_err()
                .to_string(),
            "No loop matching the specified signature and casting was found for ufunc bitwise_and"
        );
        // signature=
        let s = UfuncParams {
            signature: Some(vec![Some(Float64), None, None]),
            ..Default::default()
        };
        assert_eq!(
            sig_with("add", &[arr(Int8), arr(Int8)], &s).unwrap(),
            "dd->d"
        );
        assert_eq!(
            sig_with("add", &[arr(Float32), weak(Int)], &s).unwrap(),
            "dd->d"
        );
        // casting='no': promotion still happens, then the cast is refused.
        let no = UfuncParams {
            casting: Casting::No,
            ..Default::default()
        };
        assert_eq!(
            sig_with("add", &[arr(Int8), arr(UInt8)], &no)
                .unwrap_err()
                .to_string(),
            "Cannot cast ufunc 'add' input 0 from dtype('int8') to dtype('int16') with casting \
             rule 'no'"
        );
        assert_eq!(
            sig_with("add", &[arr(Int8), arr(Int8)], &no).unwrap(),
            "bb->b"
        );
        assert!(
            get("add")
                .unwrap()
                .resolve(
                    &[arr(Int8), arr(Int8)],
                    &UfuncParams {
                        out: vec![Some(Int8), Some(Int8)],
                        ..Default::default()
                    }
                )
                .is_err()
        );
    }
}
