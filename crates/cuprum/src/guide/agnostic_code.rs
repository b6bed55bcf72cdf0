//! Code generic over host and device arrays.
//!
//! CuPy picks the array module at run time (`xp = cp.get_array_module(x)`).
//! In Rust the choice is a type: write the algorithm once over a trait
//! with the operations it needs, implemented for `ndarray` arrays and for
//! [`crate::Array`]; `cp::asarray` and `to_ndarray` convert at the edges.
//! `crates/cuprum/examples/04_agnostic_code.rs` does this for CuPy's
//! softplus.
//!
//! ```no_run
//! use cuprum as cp;
//!
//! trait Xp: Sized {
//!     fn exp(&self) -> cp::Result<Self>;
//! }
//! impl Xp for ndarray::ArrayD<f64> {
//!     fn exp(&self) -> cp::Result<Self> {
//!         Ok(self.mapv(f64::exp))
//!     }
//! }
//! impl Xp for cp::Array {
//!     fn exp(&self) -> cp::Result<Self> {
//!         cp::exp(self)
//!     }
//! }
//! fn twice_exp<A: Xp>(x: &A) -> cp::Result<A> {
//!     x.exp()?.exp()
//! }
//! # fn main() -> cp::Result<()> {
//! let host = ndarray::array![0.0, 1.0].into_dyn();
//! let on_host = twice_exp(&host)?;
//! let on_gpu = twice_exp(&cp::asarray(&host)?)?;
//! # Ok(()) }
//! ```
//!
//! Mixing the two in one operation is a type error in Rust, as it is an
//! error in CuPy (`x_gpu + y_cpu`): convert one side first.
