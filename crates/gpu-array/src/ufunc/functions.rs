//! The ufuncs as functions, NumPy's names: `add(&a, &b)?`, `exp(&a)?`,
//! `add(&a, 2.0)?`. Each takes arrays or Rust scalars (weak, as Python
//! scalars in NumPy 2) and returns a new array; [`call`] takes `out=`,
//! `dtype=` and `casting=`.

use std::sync::OnceLock;

use super::call::{Input, UfuncOptions, call};
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
        /// # Errors
        /// No loop for the input's dtype; allocation or launch failed.
        pub fn $f<'a>(x: impl Into<Input<'a>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            call(lookup(&U, $name)?, &[x.into()], &UfuncOptions::default()).map(one)
        }
    )*};
}

macro_rules! binary {
    ($($(#[$doc:meta])* $f:ident => $name:literal;)*) => {$(
        $(#[$doc])*
        ///
        /// # Errors
        /// No loop for the inputs' dtypes, shapes that do not broadcast;
        /// allocation or launch failed.
        pub fn $f<'a>(x1: impl Into<Input<'a>>, x2: impl Into<Input<'a>>) -> Result<Array> {
            static U: OnceLock<&'static Ufunc> = OnceLock::new();
            call(lookup(&U, $name)?, &[x1.into(), x2.into()], &UfuncOptions::default()).map(one)
        }
    )*};
}

crate::ufunc::names::for_each_ufunc!(unary, binary);

/// `numpy.divmod`: `(x1 // x2, x1 % x2)`.
///
/// # Errors
/// As [`floor_divide`].
pub fn divmod<'a>(x1: impl Into<Input<'a>>, x2: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(
        lookup(&U, "divmod")?,
        &[x1.into(), x2.into()],
        &UfuncOptions::default(),
    )
    .map(two)
}

/// `numpy.modf`: fractional and integral parts, both with the sign of `x`.
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn modf<'a>(x: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(lookup(&U, "modf")?, &[x.into()], &UfuncOptions::default()).map(two)
}

/// `numpy.frexp`: mantissa and exponent (`int32`).
///
/// # Errors
/// No loop for the input's dtype; allocation or launch failed.
pub fn frexp<'a>(x: impl Into<Input<'a>>) -> Result<(Array, Array)> {
    static U: OnceLock<&'static Ufunc> = OnceLock::new();
    call(lookup(&U, "frexp")?, &[x.into()], &UfuncOptions::default()).map(two)
}
