//! scipy.special's functions by name: `erf(&x)?`, `huber(1.0, &r)?`.
//! Each takes arrays (borrowed or owned) or Rust scalars (weak, as Python
//! scalars in NumPy 2), broadcasts, and returns a new array; for `out=`,
//! `dtype=` and `casting=` call the ufunc itself:
//! `gpu_array::ufunc::call(gpu_special::get("erf")?, &[(&x).into()], &options)`.

use std::sync::OnceLock;

use gpu_array::ufunc::{Input, Ufunc, UfuncOptions, call};
use gpu_array::{Array, Error, Result};

/// The table's ufunc `name`, remembered in `cell` (each function's own
/// `static`). Safe to share: the cell only ever holds the one pointer
/// into the immutable table that [`crate::get`] returns for `name`, the
/// same for every thread and every call, so no caller can observe when
/// or by whom it was filled.
fn lookup(cell: &'static OnceLock<&'static Ufunc>, name: &str) -> Result<&'static Ufunc> {
    if let Some(u) = cell.get() {
        return Ok(u);
    }
    let u = crate::get(name)?;
    Ok(cell.get_or_init(|| u))
}

/// Calls `u` on `inputs` with default options.
fn apply(u: &'static Ufunc, inputs: &[Input<'_>]) -> Result<Array> {
    let mut outs = call(u, inputs, &UfuncOptions::default())?;
    Ok(outs.remove(0))
}

macro_rules! unary {
    ($($(#[$doc:meta])* $f:ident => $name:literal, $example:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;\n",
            "let y = gpu_special::", stringify!($f), "(&x)?; // scipy.special.", $name, "(x)", $example, "\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the input's dtype (SciPy's loops: complex input
        /// only where SciPy has complex loops); allocation or launch failed.
        pub fn $f<'a>(x: impl Into<Arg<'a>>) -> Result<Array> {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let x = x.into();
            apply(lookup(&U, $name)?, &[x.input()])
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $f:ident => $name:literal, $example:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let x = gpu_array::creation::array([0.25, 0.5, 2.0])?;\n",
            "let y = gpu_special::", stringify!($f), "(1.5, &x)?; // scipy.special.", $name, "(1.5, x)", $example, "\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a, 'b>(x1: impl Into<Arg<'a>>, x2: impl Into<Arg<'b>>) -> Result<Array> {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let (x1, x2) = (x1.into(), x2.into());
            apply(lookup(&U, $name)?, &[x1.input(), x2.input()])
        }
    )*};
}

macro_rules! ternary {
    ($($(#[$doc:meta])* $f:ident => $name:literal, $example:literal;)*) => {$(
        $(#[$doc])*
        ///
        #[doc = concat!(
            "```no_run\n# fn main() -> gpu_array::Result<()> {\n",
            "let x = gpu_array::creation::array([0.25, 0.5, 0.75])?;\n",
            "let y = gpu_special::", stringify!($f), "(2.0, 3.0, &x)?; // scipy.special.", $name, "(2, 3, x)", $example, "\n",
            "# Ok(()) }\n```"
        )]
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a, 'b, 'c>(
            x1: impl Into<Arg<'a>>,
            x2: impl Into<Arg<'b>>,
            x3: impl Into<Arg<'c>>,
        ) -> Result<Array> {
            // Safe to share: holds only the immutable table's pointer for this
            // name, the same for every thread and call (see `lookup`).
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            let (x1, x2, x3) = (x1.into(), x2.into(), x3.into());
            apply(lookup(&U, $name)?, &[x1.input(), x2.input(), x3.input()])
        }
    )*};
}

/// Calls `u` on `inputs` and returns its `N` outputs.
fn apply_n<const N: usize>(u: &'static Ufunc, inputs: &[Input<'_>]) -> Result<[Array; N]> {
    let outs = call(u, inputs, &UfuncOptions::default())?;
    outs.try_into()
        .map_err(|_| Error::Value(format!("{} gave the wrong number of outputs", u.name())))
}

mod base;
mod bessel;
mod bessel_real;
mod cdfinv;
mod elementary;
mod expint;
mod gammafn;
mod hyper;
mod incbeta;
mod incgamma;

pub use base::*;
pub use bessel::*;
pub use bessel_real::*;
pub use cdfinv::*;
pub use elementary::*;
pub use expint::*;
pub use gammafn::*;
pub use hyper::*;
pub use incbeta::*;
pub use incgamma::*;
