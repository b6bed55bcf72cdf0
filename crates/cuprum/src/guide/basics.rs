//! Basics of the device array.
//!
//! | CuPy                                  | Cuprum                                        |
//! |---------------------------------------|-----------------------------------------------|
//! | `import cupy as cp`                   | `use cuprum as cp;`                           |
//! | `x = cp.array([1, 2, 3])`             | `let x = cp::array([1, 2, 3])?;` (int64)      |
//! | `cp.zeros((2, 5), cp.float32)`        | `cp::zeros((2, 5), DType::Float32)?`          |
//! | `cp.arange(10)`, `cp.linspace(0, 1, 5)` | `cp::arange(10)?`, `cp::linspace(0.0, 1.0, 5)?` |
//! | `x.reshape(-1, 4)`, `x[1:, ::-1]`     | `x.reshape((-1, 4))?`, `x.slice(&s![1.., ..;-1])?` |
//! | `cp.linalg.norm(x)`                   | `cp::linalg::norm(&x)?`                       |
//! | `x.sum()`, `x.sum(axis=1)`, `x.mean(axis=(0, 2))` | `x.sum(())?`, `x.sum(1)?`, `x.mean([0, 2])?` |
//! | `float(x.sum())`                      | `x.sum(())?.to_scalar::<f64>()?`              |
//! | `a + b`, `2 * x`, `cp.exp(x - y)`     | `&a + &b`, `2.0 * &x`, `cp::exp(&x - &y)?`    |
//!
//! ```no_run
//! use cuprum::{self as cp, DType, s};
//!
//! fn main() -> cp::Result<()> {
//!     let x = cp::arange(24)?.reshape((2, 3, 4))?.astype(DType::Float64)?;
//!     let total: f64 = x.sum(())?.to_scalar()?;
//!     let rows = x.mean([0, 2])?;
//!     let y = cp::exp(&x - 1.0)? * 0.5;
//!     println!("{total} {rows} {}", y.slice(&s![.., 1.., ..;-1])?);
//!     Ok(())
//! }
//! ```
//!
//! Every operation has a named function returning [`crate::Result`]
//! (`cp::add(&a, &b)?`); the operators call the same function and panic
//! with its error. Functions and operators take arrays by reference or by
//! value, so a temporary flows into the next call without a `let`.
//!
//! Errors are one type, [`crate::Error`], whose variants follow NumPy's
//! exception classes: match on `Error::Broadcast`, `Error::AxisOutOfBounds`,
//! `Error::Singular` and so on. `?` works on every layer's calls.
//!
//! Optional NumPy arguments: the short call takes the common case and a
//! `_with` form or an options struct takes the rest
//! (`cp::linspace_with(0, 1, 5, false, None)`, `cp::allclose_with(&a, &b,
//! 1e-5, 1e-8, true)`, `cp::linalg::norm_with(&x, Norm::Fro, ..)`).
//! String-valued NumPy options are enums that also parse from NumPy's
//! strings (`"reflect".parse::<cp::PadMode>()?`).
