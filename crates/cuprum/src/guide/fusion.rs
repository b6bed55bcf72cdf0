//! Kernel fusion.
//!
//! | CuPy                                                  | Cuprum                                                 |
//! |-------------------------------------------------------|--------------------------------------------------------|
//! | `@cp.fuse()` `def f(x, y): return (x - y) * (x - y)`  | `let f = cp::fuse("f", \|x: &FVar, y: &FVar\| (x - y) * (x - y));` |
//! | `f(x, y)`, `f(x, 2)`                                  | `f.run((&x, &y))?`, `f.run((&x, 2))?`                  |
//! | `cp.exp(x)` inside                                    | `fx::exp(x)`                                           |
//! | `cp.sum(x * y, axis=-1)` as the last step             | `(x * y).sum(ReduceOptions::axis(-1))`                 |
//!
//! The closure is traced once per signature (dtypes and ndims) into one
//! kernel; later calls with the same signature launch it directly.
//! Fusion is explicit: nothing is fused behind a call's back, so every
//! call's work is queued before it returns.
//!
//! ```no_run
//! use cuprum::{self as cp, FVar, fx};
//!
//! fn main() -> cp::Result<()> {
//!     let softplus = cp::fuse("softplus", |x: &FVar| fx::log1p(fx::exp(x)));
//!     let y = softplus.run(&cp::linspace(-1.0, 1.0, 5)?)?;
//!     println!("{y}");
//!     Ok(())
//! }
//! ```
