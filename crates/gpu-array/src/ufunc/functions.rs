//! The ufuncs as functions, NumPy's names: `add(&a, &b)?`, `exp(&a)?`,
//! `add(&a, 2.0)?`, `exp(x - y)?`. Each takes arrays (borrowed or owned)
//! or Rust scalars (weak, as Python scalars in NumPy 2) and returns a new
//! array; [`call`] takes `out=`, `dtype=` and `casting=`. These are the
//! checked forms of the operators: `add(&a, &b)?` returns the error that
//! `&a + &b` panics with.

use std::sync::OnceLock;

use super::call::{Arg, UfuncOptions, call};
use super::{Ufunc, get};
use crate::array::Array;
use crate::error::Result;

fn lookup(cell: &'static OnceLock<&'static Ufunc>, name: &str) -> Result<&'static Ufunc> {
    if let Some(u) = cell.get() {
        return Ok(u);
    }
    let u = get(name)?;
    Ok(cell.get_or_init(|| u))
}

fn one(outputs: Vec<Array>) -> Array {
    outputs
        .into_iter()
        .next()
        .expect("a ufunc with one output returns one array")
}

fn two(outputs: Vec<Array>) -> (Array, Array) {
    let mut it = outputs.into_iter();
    let a = it.next().expect("two outputs");
    let b = it.next().expect("two outputs");
    (a, b)
}

macro_rules! unary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let x = gpu_array::creation::array([1, 2, 3])?;\n",
            "let y = gpu_array::ufunc::", stringify!($f), "(&x)?; // np.", $name, "(x)\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the input's dtype; allocation or launch failed.
        pub fn $f<'a>(x: impl Into<Arg<'a>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let x = x.into();
            call(lookup(&U, $name)?, &[x.input()], &UfuncOptions::default()).map(one)
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let x = gpu_array::creation::array([1, 2, 3])?;\n",
            "let y = gpu_array::ufunc::", stringify!($f), "(&x, 2)?; // np.", $name, "(x, 2)\n",
            "let z = gpu_array::ufunc::", stringify!($f), "(&x, &y)?; // arrays broadcast\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a, 'b>(x1: impl Into<Arg<'a>>, x2: impl Into<Arg<'b>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let (x1, x2) = (x1.into(), x2.into());
            call(lookup(&U, $name)?, &[x1.input(), x2.input()], &UfuncOptions::default()).map(one)
        }
    )*};
}

crate::ufunc::names::for_each_ufunc!(unary, binary);

/// `numpy.divmod`: `(x1 // x2, x1 % x2)`.
///
/// ```no_run
/// use gpu_array::{creation::array, ufunc};
/// # fn main() -> gpu_array::Result<()> {
/// let (q, r) = ufunc::divmod(&array([7, -7])?, 2)?; // np.divmod([7, -7], 2): [3, -4], [1, 1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`floor_divide`].
pub fn divmod<'a, 'b>(x1: impl Into<Arg<'a>>, x2: impl Into<Arg<'b>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let (x1, x2) = (x1.into(), x2.into());
    call(
        lookup(&U, "divmod")?,
        &[x1.input(), x2.input()],
        &UfuncOptions::default(),
    )
    .map(two)
}

/// `numpy.modf`: fractional and integral parts, both with the sign of `x`.
///
/// ```no_run
/// use gpu_array::{creation::array, ufunc};
/// # fn main() -> gpu_array::Result<()> {
/// let (f, i) = ufunc::modf(&array([1.5, -2.25])?)?; // np.modf: [0.5, -0.25], [1, -2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn modf<'a>(x: impl Into<Arg<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let x = x.into();
    call(lookup(&U, "modf")?, &[x.input()], &UfuncOptions::default()).map(two)
}

/// `numpy.frexp`: mantissa and exponent (`int32`).
///
/// ```no_run
/// use gpu_array::{creation::array, ufunc};
/// # fn main() -> gpu_array::Result<()> {
/// let (m, e) = ufunc::frexp(&array([8.0, 0.75])?)?; // np.frexp: [0.5, 0.75], [4, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn frexp<'a>(x: impl Into<Arg<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    let x = x.into();
    call(lookup(&U, "frexp")?, &[x.input()], &UfuncOptions::default()).map(two)
}
