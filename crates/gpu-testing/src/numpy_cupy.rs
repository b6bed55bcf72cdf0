//! CuPy's NumPy-CuPy consistency checks (`@testing.numpy_cupy_allclose`
//! and its siblings): one test body, run on the host module ([`Numpy`])
//! and on the device module ([`Cuprum`]), the two results compared.
//!
//! A body is a function generic over [`ArrayModule`] (or a closure written
//! over `xp`) returning `gpu_array::Result` of an array, or of a `Vec` of
//! arrays for [`numpy_cupy_array_list_equal!`](crate::numpy_cupy_array_list_equal!). The macros run it on both
//! modules and compare; on the device they first skip the test without a
//! GPU ([`crate::device_or_skip`]). The functions of the same names compare
//! two [`Outcome`]s already computed, from any two modules.
//!
//! | CuPy                                               | Cuprum                                                                                                |
//! |----------------------------------------------------|-------------------------------------------------------------------------------------------------------|
//! | `@numpy_cupy_allclose()` `def test(self, xp): ...` | [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)`(body)`                                         |
//! | `@numpy_cupy_allclose(rtol=1e-6, atol=1e-6)`       | `numpy_cupy_allclose!(body, rtol = 1e-6, atol = 1e-6)`                                                |
//! | `rtol={numpy.float32: 1e-5, 'default': 1e-7}`      | `rtol_for = (DType::Float32, 1e-5)` (`rtol` is the default)                                           |
//! | `@numpy_cupy_array_equal()`                        | [`numpy_cupy_array_equal!`](crate::numpy_cupy_array_equal!)`(body)`                                   |
//! | `@numpy_cupy_array_almost_equal(decimal=4)`        | [`numpy_cupy_array_almost_equal!`](crate::numpy_cupy_array_almost_equal!)`(body, decimal = 4)`        |
//! | `@numpy_cupy_array_almost_equal_nulp(nulp=2)`      | [`numpy_cupy_array_almost_equal_nulp!`](crate::numpy_cupy_array_almost_equal_nulp!)`(body, nulp = 2)` |
//! | `@numpy_cupy_array_max_ulp(maxulp=4)`              | [`numpy_cupy_array_max_ulp!`](crate::numpy_cupy_array_max_ulp!)`(body, maxulp = 4)`                   |
//! | `@numpy_cupy_array_less()`                         | [`numpy_cupy_array_less!`](crate::numpy_cupy_array_less!)`(body)`                                     |
//! | `@numpy_cupy_array_list_equal()`                   | [`numpy_cupy_array_list_equal!`](crate::numpy_cupy_array_list_equal!)`(body)`                         |
//! | `accept_error=ValueError`, `accept_error=True`     | `accept_error = ExceptionKind::ValueError`, `accept_error = true`                                     |
//! | `type_check=False`, `contiguous_check=False`       | `type_check = false`, `contiguous_check = false`                                                      |
//! | a test body with `xp` as its argument              | `\|xp\| { ... }` or `fn body<M: ArrayModule>(xp: &M)`                                                 |
//!
//! The semantics are CuPy's:
//!
//! - both succeed: the check compares the device result (ACTUAL, `x`) with
//!   the host result (DESIRED, `y`) through the matching assertion
//!   ([`crate::assertions`]), whose report lists the mismatching elements;
//!   first, with `type_check` (the default), their dtypes must be equal,
//!   and for [`numpy_cupy_allclose`] with `contiguous_check` (the
//!   default), a C-contiguous host result needs a C-contiguous device one;
//! - both fail: the device's exception must be the host's kind or a
//!   subclass of it ([`ExceptionKind::is_subclass_of`], e.g. an `AxisError`
//!   where NumPy raised `ValueError`), and `accept_error` must accept it;
//!   then the check passes;
//! - one fails: the check fails, showing the error.
//!
//! ```
//! use gpu_testing::{ArrayModule, Numpy, numpy_cupy_allclose};
//!
//! fn softplus_rows<M: ArrayModule>(xp: &M) -> gpu_array::Result<M::Array<f64>> {
//!     let x = xp.reshape(&xp.arange::<f64>(6)?, &[2, 3])?;
//!     let one = xp.full(&[], 1.0)?;
//!     xp.sum(&xp.log(&xp.add(&one, &xp.exp(&x)?)?)?, Some(1))
//! }
//!
//! // On a GPU test: numpy_cupy_allclose!(softplus_rows, rtol = 1e-12);
//! // here the host module against itself, as a doc example can run anywhere.
//! numpy_cupy_allclose!((Numpy, Numpy), softplus_rows, rtol = 1e-12);
//! numpy_cupy_allclose!((Numpy, Numpy), |xp| xp.sqrt(&xp.arange::<f32>(4)?));
//! ```

use gpu_array::dtype::promote_types;
use gpu_array::{DType, Error};

use crate::array_module::{ArrayModule, ModuleScalar};
use crate::assertions::{
    check_allclose, check_array_almost_equal, check_array_almost_equal_nulp, check_array_equal,
    check_array_less, check_array_list_equal, check_array_max_ulp,
};
use crate::host::{HostArray, HostView};

#[cfg(doc)]
use crate::array_module::{Cuprum, Numpy};

/// The Python exception a NumPy or Cuprum failure stands for: what
/// `accept_error` names and what the checks compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ExceptionKind {
    /// `Exception`, the base of the others.
    Exception,
    /// `ArithmeticError`.
    ArithmeticError,
    /// `LookupError`.
    LookupError,
    /// `ValueError`.
    ValueError,
    /// `TypeError`.
    TypeError,
    /// `IndexError`.
    IndexError,
    /// `KeyError`.
    KeyError,
    /// `numpy.exceptions.AxisError`, both a `ValueError` and an
    /// `IndexError`.
    AxisError,
    /// `numpy.linalg.LinAlgError`, a `ValueError`.
    LinAlgError,
    /// `OverflowError`.
    OverflowError,
    /// `ZeroDivisionError`.
    ZeroDivisionError,
    /// `RuntimeError`.
    RuntimeError,
    /// `NotImplementedError`, a `RuntimeError`.
    NotImplementedError,
    /// `OSError`.
    OSError,
    /// A CUDA or CUDA library failure (CuPy's `CUDARuntimeError`,
    /// `CUBLASError`, ..., which are `RuntimeError`s); NumPy has none.
    CudaError,
}

impl ExceptionKind {
    /// The exception Cuprum's `error` is NumPy's counterpart of.
    ///
    /// ```
    /// use gpu_testing::ExceptionKind;
    /// let e = gpu_array::Error::Reshape { size: 6, shape: vec![4, -1] };
    /// assert_eq!(ExceptionKind::of(&e), ExceptionKind::ValueError);
    /// let e = gpu_array::Error::AxisOutOfBounds { arg: None, axis: 3, ndim: 2 };
    /// assert_eq!(ExceptionKind::of(&e), ExceptionKind::AxisError);
    /// ```
    pub fn of(error: &Error) -> ExceptionKind {
        use ExceptionKind as K;
        match error {
            e if e.is_linalg_error() => K::LinAlgError,
            Error::AxisOutOfBounds { .. } => K::AxisError,
            Error::Broadcast { .. }
            | Error::BroadcastTo { .. }
            | Error::Reshape { .. }
            | Error::TooBig
            | Error::OutShape { .. }
            | Error::Shape(_)
            | Error::Axis(_)
            | Error::Npy(_)
            | Error::Value(_)
            | Error::DeviceMismatch { .. } => K::ValueError,
            Error::IndexOutOfBounds { .. } | Error::Index(_) => K::IndexError,
            Error::Cast { .. } | Error::DType(_) | Error::HostType { .. } => K::TypeError,
            Error::Key(_) => K::KeyError,
            Error::Io(_) => K::OSError,
            Error::Unsupported(_) => K::NotImplementedError,
            Error::Overflow(_) => K::OverflowError,
            Error::ZeroDivision(_) => K::ZeroDivisionError,
            Error::NumpyRuntime(_)
            | Error::Nccl(_)
            | Error::Timeout { .. }
            | Error::Aborted { .. } => K::RuntimeError,
            Error::LibraryStatus { .. } | Error::Library { .. } | Error::Runtime(_) => K::CudaError,
            _ => K::Exception,
        }
    }

    /// The Python name (`"ValueError"`, `"AxisError"`, ...).
    ///
    /// ```
    /// use gpu_testing::ExceptionKind;
    /// assert_eq!(ExceptionKind::LinAlgError.name(), "LinAlgError");
    /// ```
    pub fn name(self) -> &'static str {
        use ExceptionKind as K;
        match self {
            K::Exception => "Exception",
            K::ArithmeticError => "ArithmeticError",
            K::LookupError => "LookupError",
            K::ValueError => "ValueError",
            K::TypeError => "TypeError",
            K::IndexError => "IndexError",
            K::KeyError => "KeyError",
            K::AxisError => "AxisError",
            K::LinAlgError => "LinAlgError",
            K::OverflowError => "OverflowError",
            K::ZeroDivisionError => "ZeroDivisionError",
            K::RuntimeError => "RuntimeError",
            K::NotImplementedError => "NotImplementedError",
            K::OSError => "OSError",
            K::CudaError => "CudaError",
        }
    }

    /// The direct base classes, as Python (and NumPy, CuPy) define them.
    fn bases(self) -> &'static [ExceptionKind] {
        use ExceptionKind as K;
        match self {
            K::Exception => &[],
            K::ArithmeticError
            | K::LookupError
            | K::ValueError
            | K::TypeError
            | K::RuntimeError
            | K::OSError => &[K::Exception],
            K::IndexError | K::KeyError => &[K::LookupError],
            K::AxisError => &[K::ValueError, K::IndexError],
            K::LinAlgError => &[K::ValueError],
            K::OverflowError | K::ZeroDivisionError => &[K::ArithmeticError],
            K::NotImplementedError | K::CudaError => &[K::RuntimeError],
        }
    }

    /// Python's `issubclass(self, base)`: `self` is `base` or derives from
    /// it.
    ///
    /// ```
    /// use gpu_testing::ExceptionKind as K;
    /// assert!(K::AxisError.is_subclass_of(K::IndexError));
    /// assert!(K::LinAlgError.is_subclass_of(K::Exception));
    /// assert!(!K::ValueError.is_subclass_of(K::AxisError));
    /// ```
    pub fn is_subclass_of(self, base: ExceptionKind) -> bool {
        self == base || self.bases().iter().any(|b| b.is_subclass_of(base))
    }
}

impl std::fmt::Display for ExceptionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which exceptions a check accepts when both modules raise them (CuPy's
/// `accept_error`: `False`, `True`, an exception class or a tuple).
///
/// ```
/// use gpu_testing::{AcceptError, ExceptionKind as K};
/// assert!(!AcceptError::from(false).accepts(K::ValueError));
/// assert!(AcceptError::from(true).accepts(K::TypeError));
/// assert!(AcceptError::from(K::ValueError).accepts(K::AxisError)); // a subclass
/// assert!(!AcceptError::from([K::TypeError, K::IndexError]).accepts(K::ValueError));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AcceptError {
    /// No error is accepted (CuPy's default, `False`).
    #[default]
    None,
    /// Every error is (`True`, `Exception`).
    Any,
    /// These kinds and their subclasses are.
    Kinds(Vec<ExceptionKind>),
}

impl AcceptError {
    /// Whether an error of `kind` is accepted.
    ///
    /// ```
    /// use gpu_testing::{AcceptError, ExceptionKind as K};
    /// assert!(AcceptError::Kinds(vec![K::LookupError]).accepts(K::KeyError));
    /// ```
    pub fn accepts(&self, kind: ExceptionKind) -> bool {
        match self {
            AcceptError::None => false,
            AcceptError::Any => true,
            AcceptError::Kinds(kinds) => kinds.iter().any(|&k| kind.is_subclass_of(k)),
        }
    }
}

impl From<bool> for AcceptError {
    fn from(accept: bool) -> AcceptError {
        if accept {
            AcceptError::Any
        } else {
            AcceptError::None
        }
    }
}

impl From<ExceptionKind> for AcceptError {
    fn from(kind: ExceptionKind) -> AcceptError {
        AcceptError::Kinds(vec![kind])
    }
}

impl From<&[ExceptionKind]> for AcceptError {
    fn from(kinds: &[ExceptionKind]) -> AcceptError {
        AcceptError::Kinds(kinds.to_vec())
    }
}

impl<const N: usize> From<[ExceptionKind; N]> for AcceptError {
    fn from(kinds: [ExceptionKind; N]) -> AcceptError {
        AcceptError::Kinds(kinds.to_vec())
    }
}

/// The options of the `numpy_cupy_*` checks, CuPy's keyword arguments,
/// with CuPy's defaults (`rtol=1e-7`, `atol=0`, `decimal=6`, `nulp=1`,
/// `maxulp=1`, `dtype=None`, `type_check=True`, `accept_error=False`,
/// `contiguous_check=True`). Each check reads the ones it has in CuPy.
///
/// The macros set them by name: `numpy_cupy_allclose!(body, rtol = 1e-5)`
/// is `NumpyCupyParams::default().rtol(1e-5)`.
///
/// ```
/// use gpu_testing::{ExceptionKind, NumpyCupyParams};
/// let p = NumpyCupyParams::default().atol(1e-6).accept_error(ExceptionKind::ValueError);
/// assert_eq!((p.rtol, p.atol, p.type_check), (1e-7, 1e-6, true));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct NumpyCupyParams {
    /// Relative tolerance of [`numpy_cupy_allclose`] (CuPy's `rtol`, or
    /// the `'default'` entry of its per-dtype dict).
    pub rtol: f64,
    /// Absolute tolerance of [`numpy_cupy_allclose`].
    pub atol: f64,
    /// Relative tolerances for results of given dtypes, overriding `rtol`
    /// (CuPy's `rtol={numpy.float16: 1e-3, 'default': 1e-7}`).
    pub rtol_by_dtype: Vec<(DType, f64)>,
    /// Absolute tolerances for results of given dtypes, overriding `atol`.
    pub atol_by_dtype: Vec<(DType, f64)>,
    /// Decimals of [`numpy_cupy_array_almost_equal`].
    pub decimal: i32,
    /// Spacings of [`numpy_cupy_array_almost_equal_nulp`].
    pub nulp: u32,
    /// Units in the last place of [`numpy_cupy_array_max_ulp`].
    pub maxulp: u64,
    /// The dtype [`numpy_cupy_array_max_ulp`] counts ULPs in (`None`: the
    /// results' common type).
    pub dtype: Option<DType>,
    /// Whether the results' dtypes must be equal (every check but
    /// [`numpy_cupy_array_list_equal`]).
    pub type_check: bool,
    /// The errors accepted when both modules raise them.
    pub accept_error: AcceptError,
    /// Whether a C-contiguous host result needs a C-contiguous device
    /// result ([`numpy_cupy_allclose`]).
    pub contiguous_check: bool,
}

impl Default for NumpyCupyParams {
    fn default() -> NumpyCupyParams {
        NumpyCupyParams {
            rtol: 1e-7,
            atol: 0.0,
            rtol_by_dtype: Vec::new(),
            atol_by_dtype: Vec::new(),
            decimal: 6,
            nulp: 1,
            maxulp: 1,
            dtype: None,
            type_check: true,
            accept_error: AcceptError::None,
            contiguous_check: true,
        }
    }
}

// Numbers and flags are taken as they are, so that a literal (`nulp = 2`)
// takes the field's type; `dtype` and `accept_error` convert.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $arg:ty;)*) => {
        impl NumpyCupyParams {$(
            $(#[$doc])*
            #[must_use]
            // `into` converts the `impl Into` arguments and is the identity
            // for the others.
            #[allow(clippy::useless_conversion)]
            pub fn $name(mut self, $name: $arg) -> NumpyCupyParams {
                self.$name = $name.into();
                self
            }
        )*}
    };
}

setters! {
    /// Sets `rtol`.
    ///
    /// ```
    /// assert_eq!(gpu_testing::NumpyCupyParams::default().rtol(1e-5).rtol, 1e-5);
    /// ```
    rtol: f64;
    /// Sets `atol`.
    ///
    /// ```
    /// assert_eq!(gpu_testing::NumpyCupyParams::default().atol(1e-8).atol, 1e-8);
    /// ```
    atol: f64;
    /// Sets `decimal`.
    ///
    /// ```
    /// assert_eq!(gpu_testing::NumpyCupyParams::default().decimal(3).decimal, 3);
    /// ```
    decimal: i32;
    /// Sets `nulp`.
    ///
    /// ```
    /// assert_eq!(gpu_testing::NumpyCupyParams::default().nulp(4).nulp, 4);
    /// ```
    nulp: u32;
    /// Sets `maxulp`.
    ///
    /// ```
    /// assert_eq!(gpu_testing::NumpyCupyParams::default().maxulp(8).maxulp, 8);
    /// ```
    maxulp: u64;
    /// Sets `dtype`.
    ///
    /// ```
    /// use gpu_testing::{DType, NumpyCupyParams};
    /// assert_eq!(NumpyCupyParams::default().dtype(DType::Float32).dtype, Some(DType::Float32));
    /// ```
    dtype: impl Into<Option<DType>>;
    /// Sets `type_check`.
    ///
    /// ```
    /// assert!(!gpu_testing::NumpyCupyParams::default().type_check(false).type_check);
    /// ```
    type_check: bool;
    /// Sets `accept_error`: `true`, an [`ExceptionKind`], or an array or
    /// slice of them.
    ///
    /// ```
    /// use gpu_testing::{AcceptError, NumpyCupyParams};
    /// assert_eq!(NumpyCupyParams::default().accept_error(true).accept_error, AcceptError::Any);
    /// ```
    accept_error: impl Into<AcceptError>;
    /// Sets `contiguous_check`.
    ///
    /// ```
    /// assert!(!gpu_testing::NumpyCupyParams::default().contiguous_check(false).contiguous_check);
    /// ```
    contiguous_check: bool;
}

/// One result array read to the host, with the flag the checks look at.
#[derive(Clone, Debug)]
struct Snapshot {
    host: HostArray,
    c_contiguous: bool,
}

/// Why a module gave no result.
#[derive(Debug)]
enum Failure {
    /// The body returned this error (Python: raised it).
    Raised(Error),
    /// The body's result could not be read to the host.
    Unreadable(String),
}

/// What one module's run of a test body gave: its result read to the host
/// (one array, or a list), or the error it raised. The checks compare two
/// of them.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, check_numpy_cupy_array_equal};
/// let xp = Numpy;
/// let numpy = Outcome::array(&xp, xp.arange::<i32>(3));
/// let other = Outcome::array(&xp, xp.full(&[3], 1i32));
/// let report = check_numpy_cupy_array_equal(&numpy, &other, &Default::default()).unwrap_err();
/// assert!(report.contains("Mismatched elements: 2 / 3"), "{report}");
/// ```
#[derive(Debug)]
pub struct Outcome {
    module: &'static str,
    list: bool,
    result: Result<Vec<Snapshot>, Failure>,
}

impl Outcome {
    /// The outcome of a body that returns one array, run on `xp`.
    ///
    /// ```
    /// use gpu_testing::{ArrayModule, Numpy, Outcome};
    /// let o = Outcome::array(&Numpy, Numpy.reshape(&Numpy.arange::<u8>(5)?, &[2, -1]));
    /// assert_eq!(o.module(), "numpy");
    /// assert_eq!(o.error().unwrap().to_string(), "cannot reshape array of size 5 into shape (2,newaxis)");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn array<M: ArrayModule, T: ModuleScalar>(
        xp: &M,
        result: gpu_array::Result<M::Array<T>>,
    ) -> Outcome {
        Outcome::read(xp, result.map(|a| vec![a]), false)
    }

    /// The outcome of a body that returns a list of arrays, run on `xp`.
    ///
    /// ```
    /// use gpu_testing::{ArrayModule, Numpy, Outcome};
    /// let xp = Numpy;
    /// let o = Outcome::list(&xp, Ok(vec![xp.arange::<i64>(2)?, xp.zeros(&[3])?]));
    /// assert!(o.error().is_none());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn list<M: ArrayModule, T: ModuleScalar>(
        xp: &M,
        result: gpu_array::Result<Vec<M::Array<T>>>,
    ) -> Outcome {
        Outcome::read(xp, result, true)
    }

    fn read<M: ArrayModule, T: ModuleScalar>(
        xp: &M,
        result: gpu_array::Result<Vec<M::Array<T>>>,
        list: bool,
    ) -> Outcome {
        let result = match result {
            Err(e) => Err(Failure::Raised(e)),
            Ok(arrays) => arrays
                .iter()
                .map(|a| {
                    Ok(Snapshot {
                        host: a.to_host().map_err(Failure::Unreadable)?,
                        c_contiguous: xp.is_c_contiguous(a),
                    })
                })
                .collect(),
        };
        Outcome {
            module: M::NAME,
            list,
            result,
        }
    }

    /// The name of the module that ran the body.
    ///
    /// ```
    /// use gpu_testing::{ArrayModule, Numpy, Outcome};
    /// assert_eq!(Outcome::array(&Numpy, Numpy.arange::<f32>(2)).module(), "numpy");
    /// ```
    pub fn module(&self) -> &'static str {
        self.module
    }

    /// The error the body returned, if it did.
    ///
    /// ```
    /// use gpu_testing::{ArrayModule, ExceptionKind, Numpy, Outcome};
    /// let xp = Numpy;
    /// let o = Outcome::array(&xp, xp.sum(&xp.zeros::<f64>(&[2])?, Some(1)));
    /// assert_eq!(ExceptionKind::of(o.error().unwrap()), ExceptionKind::AxisError);
    /// assert!(Outcome::array(&xp, xp.zeros::<f64>(&[2])).error().is_none());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn error(&self) -> Option<&Error> {
        match &self.result {
            Err(Failure::Raised(e)) => Some(e),
            _ => None,
        }
    }

    /// `"ValueError: cannot reshape ..."`, for reports.
    fn describe_failure(&self) -> String {
        match &self.result {
            Ok(_) => "returned a result".to_owned(),
            Err(Failure::Raised(e)) => format!("raised {}: {e}", ExceptionKind::of(e)),
            Err(Failure::Unreadable(e)) => format!("returned a result that could not be read: {e}"),
        }
    }
}

/// Both modules' results: the host's, then the device's.
type Results<'o> = (&'o [Snapshot], &'o [Snapshot]);

/// The two results when both modules gave one; `None` when both raised
/// errors that `accept` accepts; the report otherwise.
fn results<'o>(
    check: &str,
    numpy: &'o Outcome,
    cupy: &'o Outcome,
    accept: &AcceptError,
) -> Result<Option<Results<'o>>, String> {
    let both = format!(
        "\n {}: {}\n {}: {}",
        numpy.module,
        numpy.describe_failure(),
        cupy.module,
        cupy.describe_failure()
    );
    match (&numpy.result, &cupy.result) {
        (Ok(n), Ok(c)) => Ok(Some((n, c))),
        (Err(Failure::Raised(n)), Err(Failure::Raised(c))) => {
            let (nk, ck) = (ExceptionKind::of(n), ExceptionKind::of(c));
            if !ck.is_subclass_of(nk) {
                Err(format!("{check}: different types of errors occurred{both}"))
            } else if !accept.accepts(ck) {
                Err(format!(
                    "{check}: both raised an error, and accept_error does not accept {ck}{both}"
                ))
            } else {
                Ok(None)
            }
        }
        (Err(Failure::Unreadable(_)), _) | (_, Err(Failure::Unreadable(_))) => {
            Err(format!("{check}: a result could not be read{both}"))
        }
        (Err(_), Ok(_)) => Err(format!(
            "{check}: only {} raised an error{both}",
            numpy.module
        )),
        (Ok(_), Err(_)) => Err(format!(
            "{check}: only {} raised an error{both}",
            cupy.module
        )),
    }
}

/// Runs `compare(device, host)` on the single results of two outcomes,
/// after the error, dtype and contiguity checks.
fn compare_arrays(
    check: &str,
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
    contiguous_check: bool,
    names: [&str; 2],
    compare: impl Fn(&HostArray, &HostArray) -> Result<(), String>,
) -> Result<(), String> {
    let Some((n, c)) = results(check, numpy, cupy, &params.accept_error)? else {
        return Ok(());
    };
    let (n, c) = match (n, c, numpy.list || cupy.list) {
        ([n], [c], false) => (n, c),
        _ => {
            return Err(format!(
                "{check}: the body must return one array, not a list (numpy_cupy_array_list_equal compares lists)"
            ));
        }
    };
    let (nm, cm) = (numpy.module, cupy.module);
    if params.type_check && n.host.dtype != c.host.dtype {
        return Err(format!(
            "{check}: the results' dtypes differ\n {cm}: {}\n {nm}: {}",
            c.host.dtype, n.host.dtype
        ));
    }
    if contiguous_check && n.c_contiguous && !c.c_contiguous {
        return Err(format!(
            "{check}: {nm}'s result is C-contiguous and {cm}'s is not"
        ));
    }
    compare(&c.host, &n.host).map_err(|report| {
        format!(
            "{check}: {cm}'s result ({}) against {nm}'s ({})\n{report}",
            names[0], names[1]
        )
    })
}

const ACTUAL_DESIRED: [&str; 2] = ["ACTUAL", "DESIRED"];

/// [`numpy_cupy_allclose`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, check_numpy_cupy_allclose};
/// let xp = Numpy;
/// let exact = Outcome::array(&xp, xp.full(&[2], 1.0));
/// let close = Outcome::array(&xp, xp.full(&[2], 1.0 + 1e-9));
/// assert!(check_numpy_cupy_allclose(&exact, &close, &NumpyCupyParams::default()).is_ok());
/// let far = Outcome::array(&xp, xp.full(&[2], 1.001));
/// let report = check_numpy_cupy_allclose(&exact, &far, &NumpyCupyParams::default()).unwrap_err();
/// assert!(report.contains("Not equal to tolerance rtol=1e-07, atol=0"), "{report}");
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_allclose(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_allclose",
        numpy,
        cupy,
        params,
        params.contiguous_check,
        ACTUAL_DESIRED,
        |c, n| {
            // CuPy picks the tolerance by the device result's dtype, or by
            // both results' promotion when their dtypes may differ.
            let dtype = if params.type_check {
                c.dtype
            } else {
                promote_types(c.dtype, n.dtype)
            };
            let (rtol, atol) = params.tolerance(dtype);
            check_allclose(c, n, rtol, atol)
        },
    )
}

/// `@testing.numpy_cupy_allclose`: the device result is close to the host
/// result ([`crate::assert_allclose`] with `params.rtol`, `params.atol`,
/// or the entries for the result's dtype: [`NumpyCupyParams::rtol_for`]);
/// see the [module docs](self) for errors, `type_check` and
/// `contiguous_check`. [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!) runs a body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, numpy_cupy_allclose};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.exp(&xp.arange::<f32>(3)?));
/// let b = Outcome::array(&xp, xp.exp(&xp.arange::<f32>(3)?));
/// numpy_cupy_allclose(&a, &b, &NumpyCupyParams::default().rtol(1e-6));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_allclose(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_allclose(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_equal`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, check_numpy_cupy_array_equal};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.arange::<i16>(4));
/// let b = Outcome::array(&xp, xp.arange::<i32>(4));
/// let report = check_numpy_cupy_array_equal(&a, &b, &Default::default()).unwrap_err();
/// assert!(report.contains("dtypes differ"), "{report}");
/// let lenient = gpu_testing::NumpyCupyParams::default().type_check(false);
/// assert!(check_numpy_cupy_array_equal(&a, &b, &lenient).is_ok());
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_equal(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_array_equal",
        numpy,
        cupy,
        params,
        false,
        ACTUAL_DESIRED,
        check_array_equal,
    )
}

/// `@testing.numpy_cupy_array_equal`: the results are equal
/// ([`crate::assert_array_equal`]). [`numpy_cupy_array_equal!`](crate::numpy_cupy_array_equal!) runs a
/// body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, numpy_cupy_array_equal};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.transpose(&xp.zeros::<u8>(&[2, 3])?, None));
/// let b = Outcome::array(&xp, xp.zeros::<u8>(&[3, 2]));
/// numpy_cupy_array_equal(&a, &b, &Default::default());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_equal(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_array_equal(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_almost_equal`], returning the report instead of
/// panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, check_numpy_cupy_array_almost_equal};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.full(&[1], 1.0));
/// let b = Outcome::array(&xp, xp.full(&[1], 1.0001));
/// let p = NumpyCupyParams::default().decimal(3);
/// assert!(check_numpy_cupy_array_almost_equal(&a, &b, &p).is_ok());
/// assert!(check_numpy_cupy_array_almost_equal(&a, &b, &p.decimal(5)).is_err());
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_almost_equal(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_array_almost_equal",
        numpy,
        cupy,
        params,
        false,
        ACTUAL_DESIRED,
        |c, n| check_array_almost_equal(c, n, params.decimal),
    )
}

/// `@testing.numpy_cupy_array_almost_equal`: the results agree to
/// `params.decimal` decimals ([`crate::assert_array_almost_equal`]).
/// [`numpy_cupy_array_almost_equal!`](crate::numpy_cupy_array_almost_equal!) runs a body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, numpy_cupy_array_almost_equal};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.full(&[2], 0.333_333_4));
/// let b = Outcome::array(&xp, xp.divide(&xp.full(&[2], 1.0)?, &xp.full(&[], 3.0)?));
/// numpy_cupy_array_almost_equal(&a, &b, &NumpyCupyParams::default());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_almost_equal(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_array_almost_equal(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_almost_equal_nulp`], returning the report instead of
/// panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, check_numpy_cupy_array_almost_equal_nulp};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.full(&[1], 1.0f32));
/// let b = Outcome::array(&xp, xp.full(&[1], f32::from_bits(1.0f32.to_bits() + 2)));
/// let p = NumpyCupyParams::default();
/// assert!(check_numpy_cupy_array_almost_equal_nulp(&a, &b, &p).is_err());
/// assert!(check_numpy_cupy_array_almost_equal_nulp(&a, &b, &p.nulp(2)).is_ok());
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_almost_equal_nulp(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_array_almost_equal_nulp",
        numpy,
        cupy,
        params,
        false,
        ["x", "y"],
        |c, n| check_array_almost_equal_nulp(c, n, params.nulp),
    )
}

/// `@testing.numpy_cupy_array_almost_equal_nulp`: the results are within
/// `params.nulp` spacings of each other
/// ([`crate::assert_array_almost_equal_nulp`]).
/// [`numpy_cupy_array_almost_equal_nulp!`](crate::numpy_cupy_array_almost_equal_nulp!) runs a body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, numpy_cupy_array_almost_equal_nulp};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.sqrt(&xp.arange::<f64>(5)?));
/// let b = Outcome::array(&xp, xp.sqrt(&xp.arange::<f64>(5)?));
/// numpy_cupy_array_almost_equal_nulp(&a, &b, &Default::default());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_almost_equal_nulp(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) {
    if let Err(e) = check_numpy_cupy_array_almost_equal_nulp(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_max_ulp`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, check_numpy_cupy_array_max_ulp};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.full(&[1], 1.0f64));
/// let b = Outcome::array(&xp, xp.full(&[1], f64::from_bits(1.0f64.to_bits() + 3)));
/// assert!(check_numpy_cupy_array_max_ulp(&a, &b, &NumpyCupyParams::default().maxulp(3)).is_ok());
/// let report = check_numpy_cupy_array_max_ulp(&a, &b, &NumpyCupyParams::default()).unwrap_err();
/// assert!(report.contains("(max difference is 3 ULP)"), "{report}");
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_max_ulp(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_array_max_ulp",
        numpy,
        cupy,
        params,
        false,
        ["a", "b"],
        |c, n| check_array_max_ulp(c, n, params.maxulp, params.dtype).map(drop),
    )
}

/// `@testing.numpy_cupy_array_max_ulp`: the results are at most
/// `params.maxulp` units in the last place apart, counted in
/// `params.dtype` or the results' common type
/// ([`crate::assert_array_max_ulp`]). [`numpy_cupy_array_max_ulp!`](crate::numpy_cupy_array_max_ulp!) runs
/// a body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, NumpyCupyParams, Outcome, numpy_cupy_array_max_ulp};
/// let xp = Numpy;
/// let a = Outcome::array(&xp, xp.tanh(&xp.arange::<f32>(4)?));
/// let b = Outcome::array(&xp, xp.tanh(&xp.arange::<f32>(4)?));
/// numpy_cupy_array_max_ulp(&a, &b, &NumpyCupyParams::default().maxulp(0));
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_max_ulp(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_array_max_ulp(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_less`], returning the report instead of panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, check_numpy_cupy_array_less};
/// let xp = Numpy;
/// let bound = Outcome::array(&xp, xp.full(&[3], 3i64));
/// let below = Outcome::array(&xp, xp.arange::<i64>(3));
/// assert!(check_numpy_cupy_array_less(&bound, &below, &Default::default()).is_ok());
/// assert!(check_numpy_cupy_array_less(&below, &bound, &Default::default()).is_err());
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_less(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    compare_arrays(
        "numpy_cupy_array_less",
        numpy,
        cupy,
        params,
        false,
        ["x", "y"],
        check_array_less,
    )
}

/// `@testing.numpy_cupy_array_less`: every element of the device result
/// is less than the host result's ([`crate::assert_array_less`] with the
/// device result as `x`). [`numpy_cupy_array_less!`](crate::numpy_cupy_array_less!) runs a body and calls
/// this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, numpy_cupy_array_less};
/// let xp = Numpy;
/// let upper = Outcome::array(&xp, xp.full(&[2], 1.0));
/// let lower = Outcome::array(&xp, xp.sin(&xp.arange::<f64>(2)?));
/// numpy_cupy_array_less(&upper, &lower, &Default::default());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_less(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_array_less(numpy, cupy, params) {
        panic!("{e}");
    }
}

/// [`numpy_cupy_array_list_equal`], returning the report instead of
/// panicking.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, check_numpy_cupy_array_list_equal};
/// let xp = Numpy;
/// let two = Outcome::list(&xp, Ok(vec![xp.arange::<u32>(2)?, xp.arange(3)?]));
/// let one = Outcome::list(&xp, Ok(vec![xp.arange::<u32>(2)?]));
/// let report = check_numpy_cupy_array_list_equal(&two, &one, &Default::default()).unwrap_err();
/// assert!(report.contains("List size is different: 1 and 2"), "{report}");
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The report, when the check fails.
pub fn check_numpy_cupy_array_list_equal(
    numpy: &Outcome,
    cupy: &Outcome,
    params: &NumpyCupyParams,
) -> Result<(), String> {
    let check = "numpy_cupy_array_list_equal";
    let Some((n, c)) = results(check, numpy, cupy, &params.accept_error)? else {
        return Ok(());
    };
    if !(numpy.list && cupy.list) {
        return Err(format!(
            "{check}: the body must return a list of arrays (Outcome::list)"
        ));
    }
    let hosts = |s: &[Snapshot]| s.iter().map(|s| s.host.clone()).collect::<Vec<_>>();
    check_array_list_equal(&hosts(c), &hosts(n)).map_err(|report| {
        format!(
            "{check}: {}'s results (ACTUAL) against {}'s (DESIRED)\n{report}",
            cupy.module, numpy.module
        )
    })
}

/// `@testing.numpy_cupy_array_list_equal`: the bodies return lists of
/// the same length whose arrays are pairwise equal
/// ([`crate::assert_array_list_equal`]). [`numpy_cupy_array_list_equal!`](crate::numpy_cupy_array_list_equal!)
/// runs a body and calls this.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, Outcome, numpy_cupy_array_list_equal};
/// let xp = Numpy;
/// let a = Outcome::list(&xp, Ok(vec![xp.arange::<i8>(2)?, xp.zeros(&[0])?]));
/// let b = Outcome::list(&xp, Ok(vec![xp.arange::<i8>(2)?, xp.zeros(&[0])?]));
/// numpy_cupy_array_list_equal(&a, &b, &Default::default());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Panics
/// With the report, when the check fails.
#[track_caller]
pub fn numpy_cupy_array_list_equal(numpy: &Outcome, cupy: &Outcome, params: &NumpyCupyParams) {
    if let Err(e) = check_numpy_cupy_array_list_equal(numpy, cupy, params) {
        panic!("{e}");
    }
}

impl NumpyCupyParams {
    /// Sets the relative tolerance for results of one dtype (an entry of
    /// CuPy's per-dtype `rtol` dict; `rtol` is its `'default'`). One
    /// argument, a pair, so that the macros take it as
    /// `rtol_for = (DType::Float16, 1e-3)`.
    ///
    /// ```
    /// use gpu_testing::{DType, NumpyCupyParams};
    /// let p = NumpyCupyParams::default().rtol_for((DType::Float32, 1e-5));
    /// assert_eq!(p.tolerance(DType::Float32), (1e-5, 0.0));
    /// assert_eq!(p.tolerance(DType::Float64), (1e-7, 0.0));
    /// ```
    #[must_use]
    pub fn rtol_for(mut self, (dtype, rtol): (DType, f64)) -> NumpyCupyParams {
        self.rtol_by_dtype.retain(|&(d, _)| d != dtype);
        self.rtol_by_dtype.push((dtype, rtol));
        self
    }

    /// Sets the absolute tolerance for results of one dtype, as
    /// [`NumpyCupyParams::rtol_for`].
    ///
    /// ```
    /// use gpu_testing::{DType, NumpyCupyParams};
    /// let p = NumpyCupyParams::default().atol_for((DType::Float32, 1e-6)).atol(1e-9);
    /// assert_eq!(p.tolerance(DType::Float32), (1e-7, 1e-6));
    /// assert_eq!(p.tolerance(DType::Int64), (1e-7, 1e-9));
    /// ```
    #[must_use]
    pub fn atol_for(mut self, (dtype, atol): (DType, f64)) -> NumpyCupyParams {
        self.atol_by_dtype.retain(|&(d, _)| d != dtype);
        self.atol_by_dtype.push((dtype, atol));
        self
    }

    /// `(rtol, atol)` for results of `dtype`: its own entries, else the
    /// defaults.
    ///
    /// ```
    /// use gpu_testing::{DType, NumpyCupyParams};
    /// assert_eq!(NumpyCupyParams::default().tolerance(DType::Float16), (1e-7, 0.0));
    /// ```
    pub fn tolerance(&self, dtype: DType) -> (f64, f64) {
        let pick = |table: &[(DType, f64)], default: f64| {
            table
                .iter()
                .find(|&&(d, _)| d == dtype)
                .map_or(default, |&(_, t)| t)
        };
        (
            pick(&self.rtol_by_dtype, self.rtol),
            pick(&self.atol_by_dtype, self.atol),
        )
    }
}

/// The body of every `numpy_cupy_*!` macro: `$check` is the function that
/// compares, `$outcome` the [`Outcome`] constructor (`array` or `list`).
#[doc(hidden)]
#[macro_export]
macro_rules! __numpy_cupy {
    ($check:ident, $outcome:ident; ($numpy:expr, $cupy:expr), |$xp:ident| $body:expr
     $(, $key:ident = $value:expr)* $(,)?) => {{
        let numpy_module = &$numpy;
        let cupy_module = &$cupy;
        let numpy_outcome = $crate::Outcome::$outcome(
            numpy_module,
            (|| -> $crate::__private::Result<_> {
                let $xp = numpy_module;
                $body
            })(),
        );
        let cupy_outcome = $crate::Outcome::$outcome(
            cupy_module,
            (|| -> $crate::__private::Result<_> {
                let $xp = cupy_module;
                $body
            })(),
        );
        let params = $crate::NumpyCupyParams::default()$(.$key($value))*;
        $crate::$check(&numpy_outcome, &cupy_outcome, &params);
    }};
    ($check:ident, $outcome:ident; ($numpy:expr, $cupy:expr), $body:expr
     $(, $key:ident = $value:expr)* $(,)?) => {{
        let numpy_module = &$numpy;
        let cupy_module = &$cupy;
        let numpy_outcome = $crate::Outcome::$outcome(numpy_module, $body(numpy_module));
        let cupy_outcome = $crate::Outcome::$outcome(cupy_module, $body(cupy_module));
        let params = $crate::NumpyCupyParams::default()$(.$key($value))*;
        $crate::$check(&numpy_outcome, &cupy_outcome, &params);
    }};
    ($check:ident, $outcome:ident; $($rest:tt)*) => {{
        let Some(_device) = $crate::device_or_skip() else {
            return;
        };
        $crate::__numpy_cupy!($check, $outcome; ($crate::Numpy, $crate::Cuprum), $($rest)*);
    }};
}

/// `@testing.numpy_cupy_allclose(...)`: runs a test body on [`Numpy`] and
/// on [`Cuprum`] and checks the results are close
/// ([`numpy_cupy_allclose`](fn@numpy_cupy_allclose)).
///
/// - `numpy_cupy_allclose!(body)`, `body` a function generic over
///   [`ArrayModule`] returning `gpu_array::Result<M::Array<T>>`;
/// - `numpy_cupy_allclose!(|xp| expression)`, the body written inline over
///   `xp` (`?` works inside);
/// - options as CuPy's keywords after it: `rtol = 1e-6, atol = 1e-6,
///   type_check = false, accept_error = ExceptionKind::ValueError,
///   contiguous_check = false`, and per-dtype tolerances
///   `rtol_for = (DType::Float32, 1e-5)` ([`NumpyCupyParams`]);
/// - `numpy_cupy_allclose!((numpy_module, cupy_module), body, ...)` runs on
///   the two modules given. Without them the test returns early (skips)
///   when there is no GPU, or fails with `CUPRUM_TEST_REQUIRE_GPU=1`; so
///   use it in a test function returning `()`.
///
/// ```
/// use gpu_testing::{ArrayModule, ExceptionKind, Numpy, numpy_cupy_allclose};
///
/// fn normalized<M: ArrayModule>(xp: &M) -> gpu_array::Result<M::Array<f64>> {
///     let x = xp.reshape(&xp.arange::<f64>(12)?, &[3, 4])?;
///     let norms = xp.sqrt(&xp.sum(&xp.multiply(&x, &x)?, Some(1))?)?;
///     xp.divide(&x, &xp.reshape(&norms, &[3, 1])?)
/// }
///
/// # fn test() {
/// numpy_cupy_allclose!(normalized, rtol = 1e-12); // Numpy against Cuprum
/// numpy_cupy_allclose!(|xp| xp.reshape(&xp.arange::<f32>(6)?, &[4, -1]),
///                      accept_error = ExceptionKind::ValueError);
/// # }
/// numpy_cupy_allclose!((Numpy, Numpy), normalized, rtol = 1e-12);
/// ```
#[macro_export]
macro_rules! numpy_cupy_allclose {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_allclose, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_equal(...)`: runs a test body on [`Numpy`]
/// and on [`Cuprum`] and checks the results are equal
/// ([`numpy_cupy_array_equal`](fn@numpy_cupy_array_equal)). Arguments as
/// [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s; options `type_check`, `accept_error`.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_equal};
/// numpy_cupy_array_equal!((Numpy, Numpy), |xp| {
///     let x = xp.reshape(&xp.arange::<i32>(6)?, &[2, 3])?;
///     xp.matmul(&x, &xp.transpose(&x, None)?)
/// });
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_equal {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_equal, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_almost_equal(decimal=...)`: runs a test body
/// on [`Numpy`] and on [`Cuprum`] and checks the results agree to
/// `decimal` decimals (default 6;
/// [`numpy_cupy_array_almost_equal`](fn@numpy_cupy_array_almost_equal)).
/// Arguments as [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_almost_equal};
/// numpy_cupy_array_almost_equal!((Numpy, Numpy), |xp| xp.mean(&xp.arange::<f32>(7)?, None), decimal = 5);
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_almost_equal {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_almost_equal, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_almost_equal_nulp(nulp=...)`: runs a test
/// body on [`Numpy`] and on [`Cuprum`] and checks the results are within
/// `nulp` spacings (default 1;
/// [`numpy_cupy_array_almost_equal_nulp`](fn@numpy_cupy_array_almost_equal_nulp)).
/// Arguments as [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_almost_equal_nulp};
/// numpy_cupy_array_almost_equal_nulp!((Numpy, Numpy), |xp| xp.sqrt(&xp.arange::<f64>(9)?), nulp = 1);
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_almost_equal_nulp {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_almost_equal_nulp, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_max_ulp(maxulp=..., dtype=...)`: runs a test
/// body on [`Numpy`] and on [`Cuprum`] and checks the results are at most
/// `maxulp` ULP apart (default 1;
/// [`numpy_cupy_array_max_ulp`](fn@numpy_cupy_array_max_ulp)). Arguments
/// as [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_max_ulp};
/// numpy_cupy_array_max_ulp!((Numpy, Numpy), |xp| xp.exp(&xp.arange::<f32>(5)?), maxulp = 0);
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_max_ulp {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_max_ulp, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_less()`: runs a test body on [`Numpy`] and
/// on [`Cuprum`] and checks the device result is less than the host
/// result, element by element
/// ([`numpy_cupy_array_less`](fn@numpy_cupy_array_less)). Arguments as
/// [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_less};
/// let result = std::panic::catch_unwind(|| {
///     // The same result on both sides is not strictly less.
///     numpy_cupy_array_less!((Numpy, Numpy), |xp| xp.arange::<i64>(3));
/// });
/// assert!(result.is_err());
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_less {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_less, array; $($args)*) };
}

/// `@testing.numpy_cupy_array_list_equal()`: runs a test body returning a
/// `Vec` of arrays on [`Numpy`] and on [`Cuprum`] and checks the lists are
/// equal ([`numpy_cupy_array_list_equal`](fn@numpy_cupy_array_list_equal)).
/// Arguments as [`numpy_cupy_allclose!`](crate::numpy_cupy_allclose!)'s.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy, numpy_cupy_array_list_equal};
/// numpy_cupy_array_list_equal!((Numpy, Numpy), |xp| {
///     let x = xp.reshape(&xp.arange::<u16>(6)?, &[3, 2])?;
///     Ok(vec![xp.sum(&x, Some(0))?, xp.sum(&x, Some(1))?])
/// });
/// ```
#[macro_export]
macro_rules! numpy_cupy_array_list_equal {
    ($($args:tt)*) => { $crate::__numpy_cupy!(numpy_cupy_array_list_equal, list; $($args)*) };
}
