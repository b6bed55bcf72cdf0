//! The error type of Cuprum: one for every layer.
//!
//! Messages use NumPy's words, so that a NumPy user recognises them: the
//! variants mirror NumPy's exception classes (`ValueError`, `IndexError`,
//! `AxisError`, `TypeError`, `OverflowError`, `ZeroDivisionError`,
//! `RuntimeError`, `numpy.linalg.LinAlgError`) where one exists, and CuPy's
//! (`CUBLASError`, `CUSOLVERError`, ... as [`Error::LibraryStatus`];
//! `NcclError` as [`Error::Nccl`]).
//!
//! The layers built on gpu-array (gpu-linalg and the SciPy layers) return
//! this type too, so that a user function mixing them uses `?` on every
//! call and returns `cuprum::Result<T>` with no conversion: a layer's own
//! failures are variants here (the linear-algebra ones, a library's status,
//! a library that could not be loaded), not a wrapper around this type.

use crate::dtype::{Casting, DType};
use crate::layout::fmt_shape;

/// Result type of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in Cuprum.
///
/// Later layers add variants; match with a wildcard arm.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Shapes that do not broadcast together (NumPy's `ValueError`).
    #[error("operands could not be broadcast together with shapes {}", fmt_shapes(.shapes))]
    Broadcast {
        /// The operands' shapes, in order.
        shapes: Vec<Vec<usize>>,
    },
    /// `broadcast_to` of a shape onto one it cannot be broadcast to.
    #[error(
        "operands could not be broadcast together with remapped shapes \
         [original->remapped]: {}  and requested shape {}",
        fmt_shape(.from),
        fmt_shape(.to)
    )]
    BroadcastTo {
        /// The operand's shape.
        from: Vec<usize>,
        /// The requested shape.
        to: Vec<usize>,
    },
    /// A reshape to a shape of another size.
    #[error("cannot reshape array of size {size} into shape {}", fmt_signed_shape(.shape))]
    Reshape {
        /// The array's number of elements.
        size: usize,
        /// The requested shape, `-1` for the unknown dimension.
        shape: Vec<isize>,
    },
    /// A shape whose bytes (zero dimensions skipped) do not fit `isize`
    /// (NumPy's `ValueError`, in its words).
    #[error(
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible \
         size."
    )]
    TooBig,
    /// An `out=` array whose shape is not the result's (NumPy's
    /// `ValueError`, in its words). Made by [`check_out_shape`], the one
    /// place every operation taking `out=` checks its shape.
    #[error("{}", out_shape_message(.within.as_deref(), .op, *.reduction, .expected, .got))]
    OutShape {
        /// The operation (a ufunc's or reduction's name).
        op: String,
        /// The result's shape.
        expected: Vec<usize>,
        /// The `out=` array's shape.
        got: Vec<usize>,
        /// Whether the result is a reduction's (NumPy words the two apart).
        reduction: bool,
        /// The fused function whose `out=` it is, if any.
        within: Option<String>,
    },
    /// Other shape errors (NumPy's `ValueError`), e.g. "axes don't match array".
    #[error("{0}")]
    Shape(String),
    /// An axis outside `-ndim..ndim` (NumPy's `AxisError`).
    #[error("{}axis {axis} is out of bounds for array of dimension {ndim}", arg_prefix(*.arg))]
    AxisOutOfBounds {
        /// The argument that held the axis, when NumPy names it
        /// (`"source: axis 5 is out ..."`).
        arg: Option<&'static str>,
        /// The axis as given.
        axis: isize,
        /// The array's number of dimensions.
        ndim: usize,
    },
    /// Other axis errors, e.g. "repeated axis".
    #[error("{0}")]
    Axis(String),
    /// An integer index outside its axis (NumPy's `IndexError`).
    #[error("index {index} is out of bounds for axis {axis} with size {size}")]
    IndexOutOfBounds {
        /// The index as given.
        index: isize,
        /// The axis it indexes.
        axis: usize,
        /// The axis' length.
        size: usize,
    },
    /// Other indexing errors, e.g. "too many indices for array: ...".
    #[error("{0}")]
    Index(String),
    /// A cast that the casting rule forbids (NumPy's `TypeError`/`UFuncTypeError`).
    #[error(
        "Cannot cast array data from dtype('{from}') to dtype('{to}') according to the rule '{casting}'"
    )]
    Cast {
        /// Source dtype.
        from: DType,
        /// Target dtype.
        to: DType,
        /// The rule that forbade it.
        casting: Casting,
    },
    /// A dtype that is not understood or not valid here (NumPy's `TypeError`).
    #[error("{0}")]
    DType(String),
    /// A name that is not there (NumPy's `KeyError`), e.g. a missing member
    /// of an `.npz` archive.
    #[error("{0}")]
    Key(String),
    /// A malformed or unsupported `.npy`/`.npz` file.
    #[error("{0}")]
    Npy(String),
    /// An I/O error while reading or writing a file.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A feature that Cuprum does not support.
    #[error("{0}")]
    Unsupported(String),
    /// Any other invalid value (NumPy's `ValueError`).
    #[error("{0}")]
    Value(String),
    /// A DLPack exchange that cannot be made (Python's `BufferError`, which
    /// the array API standard names for `from_dlpack`/`__dlpack__`): a
    /// device, dtype, layout, version or flag the other side cannot take.
    /// The cudarc bridge uses it too (a context, device or layout that
    /// cannot be shared).
    #[error("{0}")]
    Buffer(String),
    /// A value too large for its type (NumPy's `OverflowError`), e.g. a
    /// size or step count that does not fit.
    #[error("{0}")]
    Overflow(String),
    /// A division by zero that NumPy raises for rather than returning
    /// inf or NaN (Python's `ZeroDivisionError`), e.g. an `arange` step of 0.
    #[error("{0}")]
    ZeroDivision(String),
    /// NumPy's (Python's) `RuntimeError`, in NumPy's words, e.g. `isin`'s
    /// `kind='table'` over a range its dtype cannot hold. Not
    /// [`Error::Runtime`], which holds the CUDA runtime's failures.
    #[error("{0}")]
    NumpyRuntime(String),
    /// NumPy's `numpy.linalg.LinAlgError` for a singular matrix (`info`:
    /// the solver's 1-based index of the first zero pivot).
    #[error("Singular matrix")]
    Singular {
        /// cuSOLVER's `info`: the first zero pivot, counted from 1.
        info: i32,
    },
    /// NumPy's `LinAlgError` of a Cholesky factorization: the leading minor
    /// of order `order` is not positive definite.
    #[error("Matrix is not positive definite")]
    NotPositiveDefinite {
        /// The order of the first leading minor that is not positive definite.
        order: i32,
    },
    /// NumPy's `LinAlgError` of an iterative decomposition that did not
    /// converge ("SVD did not converge", "Eigenvalues did not converge").
    #[error("{what} did not converge")]
    NoConvergence {
        /// `"SVD"` or `"Eigenvalues"`, as NumPy's message says.
        what: &'static str,
        /// cuSOLVER's `info`: how many values (or superdiagonals) did not
        /// converge.
        count: i32,
    },
    /// Any other `numpy.linalg.LinAlgError`, in NumPy's words ("Last 2
    /// dimensions of the array must be square", ...).
    #[error("{0}")]
    LinAlg(String),
    /// A CUDA library call (cuBLAS, cuSOLVER, ...) returned a failure
    /// status (CuPy's `CUBLASError`, `CUSOLVERError`, ...).
    #[error("{call} failed: {name} ({message})")]
    LibraryStatus {
        /// `"cuBLAS"`, `"cuSOLVER"`, ...
        library: &'static str,
        /// The function called.
        call: &'static str,
        /// The status's name (`CUBLAS_STATUS_INVALID_VALUE`).
        name: &'static str,
        /// What the status means.
        message: &'static str,
    },
    /// A CUDA library (or one of its functions) could not be loaded.
    #[error("{library} is needed for {operation} but could not be loaded: {source}")]
    Library {
        /// `"cuBLAS"`, `"cuSOLVER"`, `"NCCL"`, ...
        library: &'static str,
        /// The function (or Cuprum operation) that was needed.
        operation: std::borrow::Cow<'static, str>,
        /// Where the loader looked.
        source: gpu_runtime::sys::LoadError,
    },
    /// An NCCL call returned a failure (CuPy's `NcclError`, a
    /// `RuntimeError`); boxed, as it is the largest of the variants.
    #[error("{0}")]
    Nccl(Box<NcclFailure>),
    /// Work of a communicator did not finish within its timeout; the
    /// communicator was aborted (gpu-nccl's non-blocking communicators).
    #[error(
        "{operation} on rank {rank} of {nranks} did not complete within {timeout:?}; the \
         communicator was aborted (a peer may have died or never joined)"
    )]
    Timeout {
        /// The operation.
        operation: String,
        /// This process's rank.
        rank: usize,
        /// The communicator's size.
        nranks: usize,
        /// The timeout that passed.
        timeout: std::time::Duration,
    },
    /// A communicator that was aborted (by hand or after a timeout) and
    /// cannot be used.
    #[error("{operation}: the communicator of rank {rank} was aborted and can no longer be used")]
    Aborted {
        /// The operation.
        operation: String,
        /// The communicator's rank.
        rank: usize,
    },
    /// A call into the `cudarc` crate failed (the `cudarc` feature's
    /// bridge, [`crate::interop::cudarc`]).
    #[cfg(feature = "cudarc")]
    #[error("{call} failed: {source}")]
    Cudarc {
        /// The cudarc function called.
        call: &'static str,
        /// cudarc's error.
        source: cudarc::driver::DriverError,
    },
    /// A failure of the CUDA runtime below (driver, memory, NVRTC).
    #[error(transparent)]
    Runtime(#[from] gpu_runtime::Error),
    /// Operands on different devices.
    #[error("{operation}: arrays are on different devices ({first} and {second})")]
    DeviceMismatch {
        /// The operation.
        operation: &'static str,
        /// One operand's device ordinal.
        first: i32,
        /// The other's.
        second: i32,
    },
    /// A host type that does not match the array's dtype.
    #[error("{operation}: the array's dtype is {array}, but the host type is {host}")]
    HostType {
        /// The operation.
        operation: &'static str,
        /// The array's dtype.
        array: crate::DType,
        /// The host element type's dtype.
        host: crate::DType,
    },
}

impl Error {
    /// Whether this is NumPy's `numpy.linalg.LinAlgError` (any of its typed
    /// forms).
    ///
    /// ```
    /// use gpu_array::Error;
    /// assert!(Error::LinAlg("Singular matrix".into()).is_linalg_error());
    /// assert!(!Error::Value("bad".into()).is_linalg_error());
    /// ```
    pub fn is_linalg_error(&self) -> bool {
        matches!(
            self,
            Error::Singular { .. }
                | Error::NotPositiveDefinite { .. }
                | Error::NoConvergence { .. }
                | Error::LinAlg(_)
        )
    }
}

/// The result of a CUDA library call: `Ok` for status 0, else
/// [`Error::LibraryStatus`] with `describe`'s name and meaning of the
/// status, or [`Error::Library`] when the function could not be loaded.
/// The one place each library crate's `check` turns a status into an
/// error.
///
/// ```
/// use gpu_array::error::{Error, check_library_status};
/// let describe = |s: u32| match s {
///     7 => ("CUBLAS_STATUS_INVALID_VALUE", "an invalid value"),
///     _ => ("CUBLAS_STATUS_UNKNOWN", "unknown"),
/// };
/// assert!(check_library_status("cuBLAS", "cublasSgemm", Ok(0), describe).is_ok());
/// let e = check_library_status("cuBLAS", "cublasSgemm", Ok(7), describe).unwrap_err();
/// assert!(matches!(e, Error::LibraryStatus { library: "cuBLAS", .. }));
/// assert_eq!(e.to_string(), "cublasSgemm failed: CUBLAS_STATUS_INVALID_VALUE (an invalid value)");
/// ```
///
/// # Errors
/// As above.
pub fn check_library_status(
    library: &'static str,
    call: &'static str,
    status: std::result::Result<u32, gpu_runtime::sys::LoadError>,
    describe: impl Fn(u32) -> (&'static str, &'static str),
) -> Result<()> {
    match status {
        Ok(0) => Ok(()),
        Ok(code) => {
            let (name, message) = describe(code);
            Err(Error::LibraryStatus {
                library,
                call,
                name,
                message,
            })
        }
        Err(source) => Err(Error::Library {
            library,
            operation: call.into(),
            source,
        }),
    }
}

/// What [`Error::Nccl`] tells of a failed NCCL call: the operation, the
/// call, the communicator's rank and size where there is one, the status
/// and NCCL's own last-error text.
///
/// ```
/// use gpu_array::error::NcclFailure;
/// let f = NcclFailure {
///     operation: "all_reduce".into(),
///     call: "ncclAllReduce",
///     rank: Some((1, 4)),
///     code: 6,
///     name: "ncclRemoteError",
///     message: "remote process exited or there was a network error",
///     last_error: None,
/// };
/// assert_eq!(
///     f.to_string(),
///     "all_reduce on rank 1 of 4: ncclAllReduce failed: ncclRemoteError (remote process \
///      exited or there was a network error)"
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NcclFailure {
    /// Cuprum's operation (`"all_reduce"`, `"init_rank"`, ...).
    pub operation: String,
    /// The NCCL function (`"ncclAllReduce"`).
    pub call: &'static str,
    /// The communicator's rank and size, where there is one.
    pub rank: Option<(usize, usize)>,
    /// The `ncclResult_t` code.
    pub code: u32,
    /// Its name (`"ncclRemoteError"`).
    pub name: &'static str,
    /// What it means.
    pub message: &'static str,
    /// `ncclGetLastError`'s text, when NCCL had one.
    pub last_error: Option<String>,
}

impl std::fmt::Display for NcclFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.operation)?;
        if let Some((r, n)) = self.rank {
            write!(f, " on rank {r} of {n}")?;
        }
        write!(
            f,
            ": {} failed: {} ({})",
            self.call, self.name, self.message
        )?;
        if let Some(l) = &self.last_error {
            write!(f, "; NCCL says: {l}")?;
        }
        Ok(())
    }
}

fn fmt_shapes(shapes: &[Vec<usize>]) -> String {
    shapes
        .iter()
        .map(|s| fmt_shape(s))
        .collect::<Vec<_>>()
        .join(" ")
}

fn out_shape_message(
    within: Option<&str>,
    op: &str,
    reduction: bool,
    expected: &[usize],
    got: &[usize],
) -> String {
    let prefix = within.map_or(String::new(), |n| format!("fuse '{n}': "));
    if reduction {
        format!(
            "{prefix}output parameter for reduction operation {op} has the wrong shape {} \
             (expected {})",
            fmt_shape(got),
            fmt_shape(expected)
        )
    } else {
        format!(
            "{prefix}non-broadcastable output operand with shape {} doesn't match the broadcast \
             shape {}",
            fmt_shape(got),
            fmt_shape(expected)
        )
    }
}

/// Checks an `out=` array's shape against the result's: [`Error::OutShape`]
/// when they differ. `reduction` picks NumPy's wording for reductions.
///
/// ```
/// use gpu_array::error::check_out_shape;
/// assert!(check_out_shape("add", &[2, 3], &[2, 3], false).is_ok());
/// let e = check_out_shape("add", &[2, 3], &[3], false).unwrap_err();
/// assert!(e.to_string().contains("non-broadcastable output operand with shape (3,)"));
/// ```
///
/// # Errors
/// As above.
pub fn check_out_shape(op: &str, expected: &[usize], got: &[usize], reduction: bool) -> Result<()> {
    if expected == got {
        return Ok(());
    }
    Err(Error::OutShape {
        op: op.to_string(),
        expected: expected.to_vec(),
        got: got.to_vec(),
        reduction,
        within: None,
    })
}

fn arg_prefix(arg: Option<&str>) -> String {
    arg.map(|a| format!("{a}: ")).unwrap_or_default()
}

/// NumPy's `convert_shape_to_string`: a negative entry means "newaxis" and is
/// dropped when leading, so `(-1, 4)` prints as `(4)`.
fn fmt_signed_shape(shape: &[isize]) -> String {
    let first = shape.iter().position(|&d| d >= 0);
    let Some(first) = first else {
        return "()".to_owned();
    };
    let parts: Vec<String> = shape[first..]
        .iter()
        .map(|&d| {
            if d < 0 {
                "newaxis".to_owned()
            } else {
                d.to_string()
            }
        })
        .collect();
    if shape.len() == 1 {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_shape_is_checked_once_in_numpys_words() {
        assert!(check_out_shape("add", &[2, 3], &[2, 3], false).is_ok());
        let e = check_out_shape("add", &[2, 3], &[3], false).unwrap_err();
        assert!(
            matches!(&e, Error::OutShape { op, expected, got, reduction: false, within: None }
                if op == "add" && expected == &[2, 3] && got == &[3]),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "non-broadcastable output operand with shape (3,) doesn't match the broadcast shape \
             (2,3)"
        );
        let e = check_out_shape("add", &[4], &[4, 1], true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "output parameter for reduction operation add has the wrong shape (4,1) (expected (4,))"
        );
        let e = Error::OutShape {
            op: "add".into(),
            expected: vec![30],
            got: vec![30, 1],
            reduction: true,
            within: Some("s".into()),
        };
        assert!(
            e.to_string().starts_with("fuse 's': output parameter"),
            "{e}"
        );
    }

    /// NumPy's `RuntimeError` is its own variant, apart from the CUDA
    /// runtime's, with NumPy's message as it is.
    #[test]
    fn numpy_runtime_error_keeps_its_class() {
        let msg = "You have specified kind='table', but the range of values in `ar2` or `ar1` \
                   exceed the maximum integer of the datatype. Please set `kind` to None or \
                   'sort'.";
        let e = Error::NumpyRuntime(msg.into());
        assert_eq!(e.to_string(), msg);
        assert!(!e.is_linalg_error());
    }

    #[test]
    fn error_is_send_sync() {
        fn check<T: Send + Sync + 'static>() {}
        check::<Error>();
    }

    #[test]
    fn messages() {
        let e = Error::Broadcast {
            shapes: vec![vec![2, 3], vec![4]],
        };
        assert_eq!(
            e.to_string(),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
        let e = Error::Reshape {
            size: 6,
            shape: vec![4],
        };
        assert_eq!(
            e.to_string(),
            "cannot reshape array of size 6 into shape (4,)"
        );
        let e = Error::Reshape {
            size: 6,
            shape: vec![-1, 4],
        };
        assert_eq!(
            e.to_string(),
            "cannot reshape array of size 6 into shape (4)"
        );
        let e = Error::Reshape {
            size: 6,
            shape: vec![2, -1],
        };
        assert_eq!(
            e.to_string(),
            "cannot reshape array of size 6 into shape (2,newaxis)"
        );
        assert_eq!(
            Error::TooBig.to_string(),
            "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum \
             possible size."
        );
        let e = Error::AxisOutOfBounds {
            arg: Some("source"),
            axis: 5,
            ndim: 3,
        };
        assert_eq!(
            e.to_string(),
            "source: axis 5 is out of bounds for array of dimension 3"
        );
        let e = Error::Cast {
            from: DType::Float64,
            to: DType::Int64,
            casting: Casting::SameKind,
        };
        assert_eq!(
            e.to_string(),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'"
        );
    }
}
