//! Cuprum's `cupy.random`: NumPy's `Generator` and CuPy's legacy
//! `RandomState`, drawing on the GPU.
//!
//! - [`Generator`] ([`default_rng`]) draws from [`Philox`], a counter-based
//!   bit generator: every output element is a function of (key, counter)
//!   alone, so a seed gives the same numbers on any GPU, grid or thread
//!   count, and on the host ([`Philox::host`], the host twin of the
//!   uniform, normal and integer draws, bit for bit).
//! - [`RandomState`] is CuPy's legacy API on cuRAND's XORWOW (CuPy's
//!   default), MRG32k3a or Philox4_32_10 host generators ([`Method`]); the
//!   module functions ([`rand`], [`randn`], [`normal`], ...) draw from one
//!   global state per device, seeded by [`seed`] or `CUPRUM_SEED`.
//!
//! ```no_run
//! # fn main() -> gpu_array::Result<()> {
//! let mut rng = gpu_random::default_rng(12345)?;
//! let u = rng.random([1 << 20])?;                    // float64 in [0, 1)
//! let z = rng.standard_normal_with([1 << 20], gpu_array::DType::Float32)?;
//! let k = rng.poisson(4.5, [1000])?;                  // int64
//! let p = rng.permutation(10)?;
//! // The same numbers on the host:
//! let mut bits = gpu_random::Philox::new(12345);
//! let host = bits.host().random_f64(1 << 20)?;
//! assert_eq!(u.to_vec::<f64>()?, host);
//! # Ok(()) }
//! ```
//!
//! # Streams
//!
//! A draw of `n` elements reserves Philox positions and moves the state
//! past them (the table in [`philox`](crate::Philox)'s module docs says
//! which positions each element uses). The uniform, normal and integer
//! draws use each 128-bit block for several elements (16-byte stores,
//! one pass); the other distributions give each element its own position
//! and draw as many blocks from it as their rejection loops need, so
//! their numbers do not depend on the order threads run in either.
//!
//! # Errors
//!
//! Parameters outside their domain are NumPy's `ValueError` in NumPy's
//! words (`Error::Value("scale < 0")`), checked on the device for array
//! parameters (one bool read back); sizes that do not broadcast with the
//! parameters are `ValueError`s; unsupported dtypes are `Error::DType`.

mod bit_generator;
mod curand;
mod distributions;
mod error;
mod fill;
mod generator;
mod legacy;
mod philox;
mod raw;
mod sample;
mod ziggurat;

#[cfg(test)]
mod nvrtc_tests;

pub use bit_generator::{BitGenerator, CurandBits};
pub use curand::Method;
pub use generator::{Generator, SORTED_PERMUTATION_BELOW, default_rng};
pub use legacy::{
    RandomState, beta, binomial, bytes, chisquare, choice, dirichlet, exponential, f, gamma,
    geometric, get_random_state, gumbel, hypergeometric, laplace, logistic, lognormal, logseries,
    multinomial, multivariate_normal, negative_binomial, noncentral_chisquare, noncentral_f,
    normal, pareto, permutation, poisson, power, rand, randint, randn, random, random_integers,
    random_sample, ranf, rayleigh, sample, seed, set_random_state, shuffle, standard_cauchy,
    standard_exponential, standard_gamma, standard_normal, standard_t, triangular, uniform,
    vonmises, wald, weibull, with_random_state, zipf,
};
pub use philox::{HostPhilox, Philox, PhiloxState, philox4x32_10};
pub use sample::{Param, Size};

/// A seed: an integer, a list of integers, or `()` for fresh entropy
/// (NumPy's `seed=None`).
///
/// ```
/// use gpu_random::Seed;
/// assert!(matches!(Seed::from(3), Seed::Words(ref w) if w == &[3]));
/// assert!(matches!(Seed::from(()), Seed::Entropy));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seed {
    /// Fresh entropy.
    Entropy,
    /// Integers (NumPy's `int` or array-of-int seeds).
    Words(Vec<u64>),
    /// A negative integer: NumPy refuses it ("Seed must be non-negative").
    Negative(i64),
}

impl Seed {
    fn philox(&self) -> gpu_array::Result<Philox> {
        match self {
            Seed::Entropy => Ok(Philox::from_entropy()),
            Seed::Words(w) => Ok(Philox::from_seed_words(w)),
            Seed::Negative(_) => Err(error::value_error("Seed must be non-negative")),
        }
    }

    /// The seed of a cuRAND generator: the integer itself (as CuPy passes
    /// it), several integers hashed to one, entropy drawn.
    fn curand_seed(&self) -> gpu_array::Result<u64> {
        match self {
            Seed::Words(w) if w.len() == 1 => Ok(w[0]),
            other => Ok(other.philox()?.key()),
        }
    }
}

impl From<()> for Seed {
    fn from(_: ()) -> Seed {
        Seed::Entropy
    }
}
impl From<u64> for Seed {
    fn from(s: u64) -> Seed {
        Seed::Words(vec![s])
    }
}
impl From<u32> for Seed {
    fn from(s: u32) -> Seed {
        Seed::Words(vec![s.into()])
    }
}
impl From<usize> for Seed {
    fn from(s: usize) -> Seed {
        Seed::Words(vec![s as u64])
    }
}
impl From<i64> for Seed {
    fn from(s: i64) -> Seed {
        u64::try_from(s).map_or(Seed::Negative(s), Seed::from)
    }
}
impl From<i32> for Seed {
    fn from(s: i32) -> Seed {
        Seed::from(i64::from(s))
    }
}
impl From<&[u64]> for Seed {
    fn from(s: &[u64]) -> Seed {
        Seed::Words(s.to_vec())
    }
}
impl From<Vec<u64>> for Seed {
    fn from(s: Vec<u64>) -> Seed {
        Seed::Words(s)
    }
}
impl<const N: usize> From<[u64; N]> for Seed {
    fn from(s: [u64; N]) -> Seed {
        Seed::Words(s.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_convert_as_numpy_takes_them() {
        assert_eq!(Seed::from(7u64), Seed::Words(vec![7]));
        assert_eq!(Seed::from(7i32), Seed::Words(vec![7]));
        assert_eq!(Seed::from(-7i64), Seed::Negative(-7));
        assert_eq!(Seed::from([1u64, 2]), Seed::Words(vec![1, 2]));
        assert!(Seed::from(-1).philox().is_err());
        assert_eq!(Seed::from(5u64).curand_seed().unwrap(), 5);
        // Several words hash to one cuRAND seed; the same words, the same seed.
        let a = Seed::from([1u64, 2]).curand_seed().unwrap();
        assert_eq!(a, Seed::from(vec![1u64, 2]).curand_seed().unwrap());
        assert_ne!(a, Seed::from([2u64, 1]).curand_seed().unwrap());
        // Entropy seeds differ from call to call.
        assert_ne!(Philox::from_entropy().key(), Philox::from_entropy().key());
    }
}
