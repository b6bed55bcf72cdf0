//! What a [`Generator`](crate::Generator) draws from: Cuprum's
//! counter-based [`Philox`] (the default), or one of cuRAND's host
//! generators under CuPy's names (`XORWOW`, `MRG32k3a`, `Philox4x3210`).

use gpu_array::elementwise::Elementwise;
use gpu_array::{Array, DType, Error, Result};

use crate::curand::{Curand, Method};
use crate::{Philox, Seed};

/// A generator's bit source (NumPy's `BitGenerator`).
///
/// ```
/// use gpu_random::{BitGenerator, Method, Philox};
/// let p = BitGenerator::from(Philox::new(1));
/// assert!(p.method().is_none());
/// let x = BitGenerator::curand(Method::Xorwow, 1).unwrap(); // CuPy's XORWOW(1)
/// assert_eq!(x.method(), Some(Method::Xorwow));
/// ```
#[derive(Debug)]
pub enum BitGenerator {
    /// Cuprum's counter-based Philox4x32-10: the same numbers on every GPU
    /// and on the host.
    Philox(Philox),
    /// A cuRAND host generator (CuPy's `XORWOW`, `MRG32k3a`,
    /// `Philox4x3210` bit generators, and the legacy `RandomState`).
    Curand(CurandBits),
}

impl From<Philox> for BitGenerator {
    fn from(p: Philox) -> BitGenerator {
        BitGenerator::Philox(p)
    }
}

impl BitGenerator {
    /// A cuRAND generator of `method` seeded by `seed` (an integer is
    /// cuRAND's seed as it is, as CuPy passes it).
    pub fn curand(method: Method, seed: impl Into<Seed>) -> Result<BitGenerator> {
        Ok(BitGenerator::Curand(CurandBits::new(method, seed)?))
    }

    /// The cuRAND method, or `None` for Philox.
    pub fn method(&self) -> Option<Method> {
        match self {
            BitGenerator::Philox(_) => None,
            BitGenerator::Curand(c) => Some(c.method),
        }
    }

    /// The Philox the distributions draw from: the generator itself, or
    /// for cuRAND the Philox keyed by its seed and method, from which the
    /// integer, permutation and rejection draws come.
    pub fn philox(&self) -> &Philox {
        match self {
            BitGenerator::Philox(p) => p,
            BitGenerator::Curand(c) => &c.streams,
        }
    }

    pub(crate) fn philox_mut(&mut self) -> &mut Philox {
        match self {
            BitGenerator::Philox(p) => p,
            BitGenerator::Curand(c) => &mut c.streams,
        }
    }
}

/// A cuRAND generator (created on the current device at its first draw)
/// and the Philox of the same seed for the draws cuRAND has no kernel for.
#[derive(Debug)]
pub struct CurandBits {
    method: Method,
    seed: u64,
    curand: Option<Curand>,
    streams: Philox,
}

impl CurandBits {
    /// A generator of `method` seeded by `seed`.
    pub fn new(method: Method, seed: impl Into<Seed>) -> Result<CurandBits> {
        let seed = seed.into().curand_seed()?;
        Ok(CurandBits {
            method,
            seed,
            curand: None,
            streams: Philox::from_seed_words(&[seed, method.tag()]),
        })
    }

    /// The method.
    pub fn method(&self) -> Method {
        self.method
    }

    /// cuRAND's seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The cuRAND generator, created on the current device on first use
    /// (and again, from the seed, on another device).
    fn generator(&mut self) -> Result<&mut Curand> {
        let dev = gpu_runtime::Device::current()?.ordinal();
        if self.curand.as_ref().is_none_or(|c| c.ordinal() != dev) {
            self.curand = Some(Curand::new(self.method, self.seed)?);
        }
        Ok(self.curand.as_mut().expect("created above"))
    }

    /// `[0, 1)` of `dtype` (float32 or float64): cuRAND's (0, 1] with 1
    /// mapped to 0, as CuPy maps it.
    pub(crate) fn uniform(&mut self, shape: &[usize], dtype: DType) -> Result<Array> {
        if !matches!(dtype, DType::Float32 | DType::Float64) {
            return Err(Error::DType(format!(
                "Unsupported dtype {dtype} for random"
            )));
        }
        let out = Array::empty(shape, dtype)?;
        if out.size() == 0 {
            return Ok(out);
        }
        self.generator()?.uniform(&out)?;
        Elementwise::new("random_mod1")
            .input("x", &out)
            .output("y", &out)
            .op("y = x == (x_type)1 ? (x_type)0 : x;")
            .launch(shape)?;
        Ok(out)
    }

    /// Normals (or log-normals) of `mean`, `std`: cuRAND writes an even
    /// count, so an odd one is drawn one longer and cut.
    pub(crate) fn normal(
        &mut self,
        shape: &[usize],
        dtype: DType,
        mean: f64,
        std: f64,
        log: bool,
    ) -> Result<Array> {
        if !matches!(dtype, DType::Float32 | DType::Float64) {
            return Err(Error::DType(format!(
                "Unsupported dtype {dtype} for normal"
            )));
        }
        let n: usize = shape.iter().product();
        if n == 0 {
            return Array::empty(shape, dtype);
        }
        if n.is_multiple_of(2) {
            let out = Array::empty(shape, dtype)?;
            self.generator()?.normal(&out, mean, std, log)?;
            return Ok(out);
        }
        let buf = Array::empty(n + 1, dtype)?;
        self.generator()?.normal(&buf, mean, std, log)?;
        crate::generator::first(&buf, n)?.reshape(shape)
    }
}
