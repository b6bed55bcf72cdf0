//! The functions of `table/hyper.rs`.

#[allow(unused_imports)]
use std::sync::OnceLock;

#[allow(unused_imports)]
use gpu_array::Array;
#[allow(unused_imports)]
use gpu_array::ufunc::{Arg, Ufunc};

#[allow(unused_imports)]
use super::{Result, apply, apply_n, lookup};
