//! Random sampling: `cupy.random` is [`crate::random`] (gpu-random).
//!
//! | CuPy                                          | Cuprum                                                        |
//! |-----------------------------------------------|---------------------------------------------------------------|
//! | `rng = cp.random.default_rng(42)`             | `let mut rng = random::default_rng(42)?;`                      |
//! | `rng.random(10)`, `rng.random(10, dtype=cp.float32)` | `rng.random(10)?`, `rng.random_with(10, DType::Float32)?` |
//! | `rng.standard_normal((3, 4))`                 | `rng.standard_normal([3, 4])?`                                 |
//! | `rng.normal(mu, 0.1)` (array `mu`, no size)   | `rng.normal(&mu, 0.1, ())?` (`()` is `size=None`)              |
//! | `rng.integers(0, 10, 5, endpoint=True)`       | `rng.integers_with(0, 10, 5, DType::Int64, true)?`             |
//! | `rng.choice(5, 3, replace=False, p=p)`        | `rng.choice(5, 3, false, Some(&p))?`                           |
//! | `rng.permutation(n)`, `rng.shuffle(x)`        | `rng.permutation(n)?`, `rng.shuffle(&x)?`                      |
//! | `rng.gamma(0.5, 2.0, n)`, `rng.poisson(lam)`  | `rng.gamma(0.5, 2.0, n)?`, `rng.poisson(&lam, ())?`            |
//! | `cp.random.Generator(cp.random.XORWOW(1))`    | `random::Generator::new(random::BitGenerator::curand(Method::Xorwow, 1)?)` |
//! | `cp.random.seed(0)`; `cp.random.rand(2, 3)`   | `random::seed(0)?; random::rand([2, 3])?`                      |
//! | `cp.random.RandomState(5).randn(4)`           | `random::RandomState::new(5)?.randn(4)?`                       |
//!
//! The default bit generator is Cuprum's own counter-based Philox: every
//! number is a function of the seed and its position alone, so a seed
//! gives the same numbers on any GPU, launch grid or number of GPUs, and
//! on the host (`random::Philox::host()`, bit for bit for the uniform,
//! normal, integer and permutation draws). CuPy's Generator keeps cuRAND
//! states per multiprocessor, so its numbers depend on the GPU; the
//! legacy `RandomState` here, as CuPy's, draws its uniforms and normals
//! from cuRAND's XORWOW, MRG32k3a or Philox4_32_10. A parameter outside
//! its domain is NumPy's `ValueError` in NumPy's words (`Error::Value("scale
//! < 0")`), array parameters included. `crates/cuprum/examples/13_random.rs`
//! runs these steps and checks them.
//!
//! ```no_run
//! use cuprum::{self as cp, random};
//!
//! fn main() -> cp::Result<()> {
//!     let mut rng = random::default_rng(42)?;
//!     let x = rng.standard_normal(1_000_000)?;
//!     let host = random::Philox::new(42).host().standard_normal_f64(1_000_000)?;
//!     assert_eq!(x.to_vec::<f64>()?, host); // the same numbers, bit for bit
//!     let counts = rng.binomial(100i64, 0.3, [4, 4])?;
//!     println!("{counts}");
//!     Ok(())
//! }
//! ```
