//! CuPy's legacy API: [`RandomState`] on a cuRAND generator, one global
//! state per device (`get_random_state`, `seed`, `CUPRUM_SEED`) and the
//! module-level functions (`rand`, `randn`, `normal`, ...) that draw from
//! it.
//!
//! Uniform and normal draws come from cuRAND, as CuPy's do; the others
//! (integers, permutations and the distributions that reject) come from a
//! [`Philox`] seeded by the same seed and the method, so they reproduce
//! anywhere too.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

use gpu_array::elementwise::Elementwise;
use gpu_array::{Array, DType, Error, Result};

use crate::bit_generator::{BitGenerator, CurandBits};
use crate::curand::Method;
use crate::distributions::distribution_methods;
use crate::error::value_error;
use crate::sample::{Domain, Param, Size, out_shape};
use crate::{Generator, Philox, Seed};

/// CuPy's `RandomState`: cuRAND's `method` generator for uniforms and
/// normals, a [`Philox`] of the same seed for the rest.
///
/// ```no_run
/// use gpu_random::{Method, RandomState};
/// # fn main() -> gpu_array::Result<()> {
/// let mut rs = RandomState::new(5)?;                   // XORWOW, as CuPy
/// let x = rs.randn([4, 4])?;
/// let mut p = RandomState::with_method(5, Method::Philox4x3210)?;
/// let u = p.random_sample([10])?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RandomState {
    method: Method,
    seed: u64,
    rng: Generator,
}

impl RandomState {
    /// CuPy's `RandomState(seed)` with XORWOW.
    pub fn new(seed: impl Into<Seed>) -> Result<RandomState> {
        RandomState::with_method(seed, Method::Xorwow)
    }

    /// CuPy's `RandomState(seed, method)`.
    pub fn with_method(seed: impl Into<Seed>, method: Method) -> Result<RandomState> {
        let bits = CurandBits::new(method, seed)?;
        Ok(RandomState {
            method,
            seed: bits.seed(),
            rng: Generator::new(BitGenerator::Curand(bits)),
        })
    }

    /// CuPy's `RandomState.seed(seed)`: restarts both streams.
    pub fn seed(&mut self, seed: impl Into<Seed>) -> Result<()> {
        *self = RandomState::with_method(seed, self.method)?;
        Ok(())
    }

    /// The cuRAND method.
    pub fn method(&self) -> Method {
        self.method
    }

    pub(crate) fn bits(&mut self) -> &mut Philox {
        self.rng.bits()
    }

    fn curand(&mut self) -> &mut CurandBits {
        self.rng
            .curand_bits()
            .expect("a RandomState draws from cuRAND")
    }

    /// CuPy's `random_sample(size, dtype)`: `[0, 1)` (cuRAND's (0, 1]
    /// with 1 mapped to 0, as CuPy maps it).
    pub fn random_sample(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_sample_with(size, DType::Float64)
    }

    /// `random_sample` of float32 or float64.
    pub fn random_sample_with(&mut self, size: impl Into<Size>, dtype: DType) -> Result<Array> {
        self.rng.random_with(size, dtype)
    }

    /// CuPy's `rand(*size)`.
    pub fn rand(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_sample(size)
    }

    /// CuPy's `random` (an alias of `random_sample`).
    pub fn random(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_sample(size)
    }

    /// CuPy's `ranf` (an alias of `random_sample`).
    pub fn ranf(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_sample(size)
    }

    /// CuPy's `sample` (an alias of `random_sample`).
    pub fn sample(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_sample(size)
    }

    /// CuPy's `uniform(low, high, size)`: `low + (high - low) u`.
    pub fn uniform<'a>(
        &mut self,
        low: impl Into<Param<'a>>,
        high: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        let (low, high) = (low.into(), high.into());
        let shape = out_shape(&size.into(), &[low, high])?;
        let u = self.random_sample(&shape[..])?;
        let mut e = Elementwise::new("random_legacy_uniform").input("u", &u);
        for (name, p) in [("lo", low), ("hi", high)] {
            e = p.bind(e, name, DType::Float64);
        }
        e.output("out", &u)
            .op("out = lo + (hi - lo) * u;")
            .launch(&shape)?;
        Ok(u)
    }

    /// CuPy's `normal(loc, scale, size)`: one cuRAND pass for scalar
    /// parameters.
    pub fn normal<'a>(
        &mut self,
        loc: impl Into<Param<'a>>,
        scale: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        self.normal_with(loc, scale, size, DType::Float64)
    }

    /// `normal(loc, scale, size, dtype)` (float32 or float64).
    pub fn normal_with<'a>(
        &mut self,
        loc: impl Into<Param<'a>>,
        scale: impl Into<Param<'a>>,
        size: impl Into<Size>,
        dtype: DType,
    ) -> Result<Array> {
        self.normal_like(loc.into(), scale.into(), size.into(), dtype, false)
    }

    fn normal_like(
        &mut self,
        loc: Param,
        scale: Param,
        size: Size,
        dtype: DType,
        log: bool,
    ) -> Result<Array> {
        if !matches!(dtype, DType::Float32 | DType::Float64) {
            return Err(Error::DType(format!(
                "Unsupported dtype {dtype} for normal"
            )));
        }
        Domain::NonNegative.check(if log { "sigma" } else { "scale" }, &scale)?;
        let shape = out_shape(&size, &[loc, scale])?;
        if let (Some(m), Some(s)) = (loc.scalar(), scale.scalar()) {
            return self.curand().normal(&shape, dtype, m, s, log);
        }
        let z = self.curand().normal(&shape, dtype, 0.0, 1.0, false)?;
        let mut e = Elementwise::new(if log {
            "random_legacy_lognormal"
        } else {
            "random_legacy_normal"
        })
        .input("z", &z);
        for (name, p) in [("m", loc), ("s", scale)] {
            e = p.bind(e, name, DType::Float64);
        }
        let op = if log {
            "out = exp(m + s * z);"
        } else {
            "out = m + s * z;"
        };
        e.output("out", &z).op(op).launch(&shape)?;
        Ok(z)
    }

    /// CuPy's `randn(*size)`: standard normals.
    pub fn randn(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.normal(0.0, 1.0, size)
    }

    /// CuPy's `standard_normal(size, dtype)`.
    pub fn standard_normal(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.normal(0.0, 1.0, size)
    }

    /// CuPy's `lognormal(mean, sigma, size)`: one cuRAND pass for scalar
    /// parameters.
    pub fn lognormal<'a>(
        &mut self,
        mean: impl Into<Param<'a>>,
        sigma: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        self.normal_like(mean.into(), sigma.into(), size.into(), DType::Float64, true)
    }

    /// CuPy's `randint(low, high, size, dtype)`: `[low, high)`, int64.
    pub fn randint(&mut self, low: i64, high: i64, size: impl Into<Size>) -> Result<Array> {
        self.rng.integers(low, high, size)
    }

    /// `randint` of any integer dtype.
    pub fn randint_with(
        &mut self,
        low: i64,
        high: i64,
        size: impl Into<Size>,
        dtype: DType,
    ) -> Result<Array> {
        self.rng
            .integers_with(low.into(), high.into(), size, dtype, false)
    }

    /// CuPy's `random_integers(low, high, size)`: `[low, high]`.
    pub fn random_integers(&mut self, low: i64, high: i64, size: impl Into<Size>) -> Result<Array> {
        self.rng
            .integers_with(low.into(), high.into(), size, DType::Int64, true)
    }

    /// CuPy's `tomaxint(size)`: integers in `[0, int64 max]`.
    pub fn tomaxint(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.rng
            .integers_with(0, i64::MAX.into(), size, DType::Int64, true)
    }

    /// CuPy's `choice(a, size, replace, p)` over `0..a`.
    pub fn choice(
        &mut self,
        a: usize,
        size: impl Into<Size>,
        replace: bool,
        p: Option<&Array>,
    ) -> Result<Array> {
        self.rng.choice(a, size, replace, p)
    }

    /// CuPy's `bytes(length)`.
    pub fn bytes(&mut self, length: usize) -> Result<Vec<u8>> {
        self.rng.bytes(length)
    }

    /// CuPy's `permutation(n)`.
    pub fn permutation(&mut self, n: usize) -> Result<Array> {
        self.rng.permutation(n)
    }

    /// CuPy's `permutation(x)`: a copy with the first axis permuted.
    pub fn permutation_of(&mut self, x: &Array) -> Result<Array> {
        self.rng.permutation_of(x)
    }

    /// CuPy's `shuffle(x)`: in place, along the first axis.
    pub fn shuffle(&mut self, x: &Array) -> Result<()> {
        self.rng.shuffle(x)
    }

    /// CuPy's `dirichlet(alpha, size)`.
    pub fn dirichlet(&mut self, alpha: &[f64], size: impl Into<Size>) -> Result<Array> {
        self.rng.dirichlet(alpha, size)
    }

    /// CuPy's `multivariate_normal(mean, cov, size)`.
    pub fn multivariate_normal(
        &mut self,
        mean: &Array,
        cov: &Array,
        size: impl Into<Size>,
    ) -> Result<Array> {
        self.rng.multivariate_normal(mean, cov, size)
    }

    /// CuPy's `multinomial(n, pvals, size)`.
    pub fn multinomial(&mut self, n: i64, pvals: &[f64], size: impl Into<Size>) -> Result<Array> {
        self.rng.multinomial(n, pvals, size)
    }
}

distribution_methods!(RandomState);

/// The per-device global states (CuPy's `_random_states`).
///
/// Process-wide state, as CuPy's is, and only what its API names: the
/// module functions, `seed`, `set_random_state` and `with_random_state`
/// reach it, nothing else reads it. Safe to share: the mutex serializes
/// the draws (a draw only queues its work on the calling thread's current
/// stream while holding it, and reads back at most one bool for an array
/// parameter's domain check); the Philox draws keep no device state; and
/// cuRAND's device-side state is ordered between streams by
/// `Curand::bind`. Nothing is deferred: each call's work is queued before
/// it returns.
fn states() -> &'static Mutex<HashMap<i32, RandomState>> {
    static STATES: OnceLock<Mutex<HashMap<i32, RandomState>>> = OnceLock::new();
    STATES.get_or_init(|| Mutex::new(HashMap::new()))
}

fn lock() -> MutexGuard<'static, HashMap<i32, RandomState>> {
    // A panic inside a draw leaves the state usable (it only advanced).
    states().lock().unwrap_or_else(|p| p.into_inner())
}

/// The seed of a new global state: `CUPRUM_SEED` if set (CuPy's
/// `CUPY_SEED`), else fresh entropy.
fn initial_seed() -> Result<Seed> {
    seed_from(std::env::var("CUPRUM_SEED").ok().as_deref())
}

/// `CUPRUM_SEED`'s value (`None`: unset) as a seed.
fn seed_from(value: Option<&str>) -> Result<Seed> {
    match value {
        Some(s) => s.trim().parse::<u64>().map(Seed::from).map_err(|_| {
            value_error(format!(
                "CUPRUM_SEED must be a non-negative integer, not {s:?}"
            ))
        }),
        None => Ok(Seed::Entropy),
    }
}

/// Runs `f` on the current device's global state (created on first use).
/// The state's lock is held while `f` runs: `f` draws through its
/// argument, not through the module functions (which would take the lock
/// again: a deadlock or a panic).
pub fn with_random_state<T>(f: impl FnOnce(&mut RandomState) -> Result<T>) -> Result<T> {
    let dev = gpu_runtime::Device::current()?.ordinal();
    let mut map = lock();
    if let std::collections::hash_map::Entry::Vacant(slot) = map.entry(dev) {
        slot.insert(RandomState::new(initial_seed()?)?);
    }
    f(map.get_mut(&dev).expect("inserted above"))
}

/// CuPy's `get_random_state()`: a copy of the current device's state's
/// seed and method as a new state (the global one stays in place; draw
/// from it with [`with_random_state`] or the module functions).
pub fn get_random_state() -> Result<(u64, Method)> {
    with_random_state(|rs| Ok((rs.seed, rs.method)))
}

/// CuPy's `set_random_state(rs)`: the current device's global state.
pub fn set_random_state(rs: RandomState) -> Result<()> {
    let dev = gpu_runtime::Device::current()?.ordinal();
    lock().insert(dev, rs);
    Ok(())
}

/// CuPy's `seed(seed)`: reseeds the current device's global state (`()`
/// for fresh entropy).
pub fn seed(seed: impl Into<Seed>) -> Result<()> {
    let s = seed.into();
    with_random_state(|rs| rs.seed(s))
}

/// CuPy's `rand(*size)` on the global state.
pub fn rand(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.rand(s))
}

/// CuPy's `randn(*size)` on the global state.
pub fn randn(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.randn(s))
}

/// CuPy's `random_sample(size)` on the global state (also `random`,
/// `ranf`, `sample`).
pub fn random_sample(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.random_sample(s))
}

/// CuPy's `random` on the global state.
pub fn random(size: impl Into<Size>) -> Result<Array> {
    random_sample(size)
}

/// CuPy's `ranf` on the global state.
pub fn ranf(size: impl Into<Size>) -> Result<Array> {
    random_sample(size)
}

/// CuPy's `sample` on the global state.
pub fn sample(size: impl Into<Size>) -> Result<Array> {
    random_sample(size)
}

/// CuPy's `randint(low, high, size)` on the global state.
pub fn randint(low: i64, high: i64, size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.randint(low, high, s))
}

/// CuPy's `random_integers(low, high, size)` on the global state.
pub fn random_integers(low: i64, high: i64, size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.random_integers(low, high, s))
}

/// CuPy's `choice(a, size, replace, p)` on the global state.
pub fn choice(a: usize, size: impl Into<Size>, replace: bool, p: Option<&Array>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.choice(a, s, replace, p))
}

/// CuPy's `bytes(length)` on the global state.
pub fn bytes(length: usize) -> Result<Vec<u8>> {
    with_random_state(|rs| rs.bytes(length))
}

/// CuPy's `shuffle(x)` on the global state.
pub fn shuffle(x: &Array) -> Result<()> {
    with_random_state(|rs| rs.shuffle(x))
}

/// CuPy's `permutation(n)` on the global state.
pub fn permutation(n: usize) -> Result<Array> {
    with_random_state(|rs| rs.permutation(n))
}

/// CuPy's `dirichlet(alpha, size)` on the global state.
pub fn dirichlet(alpha: &[f64], size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.dirichlet(alpha, s))
}

/// CuPy's `multivariate_normal(mean, cov, size)` on the global state.
pub fn multivariate_normal(mean: &Array, cov: &Array, size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.multivariate_normal(mean, cov, s))
}

/// CuPy's `multinomial(n, pvals, size)` on the global state.
pub fn multinomial(n: i64, pvals: &[f64], size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.multinomial(n, pvals, s))
}

/// The module-level twin of each distribution method, on the global
/// state (`cupy.random.gamma(...)`).
macro_rules! global_functions {
    ($($name:ident($($p:ident),*)),* $(,)?) => {$(
        #[doc = concat!("CuPy's `", stringify!($name), "` on the current device's global state.")]
        pub fn $name<'a>($($p: impl Into<Param<'a>>,)* size: impl Into<Size>) -> Result<Array> {
            $(let $p = $p.into();)*
            let s = size.into();
            with_random_state(|rs| rs.$name($($p,)* s))
        }
    )*};
}

global_functions!(
    beta(a, b),
    binomial(n, p),
    chisquare(df),
    exponential(scale),
    f(dfnum, dfden),
    gamma(shape, scale),
    geometric(p),
    gumbel(loc, scale),
    hypergeometric(ngood, nbad, nsample),
    laplace(loc, scale),
    logistic(loc, scale),
    lognormal(mean, sigma),
    logseries(p),
    negative_binomial(n, p),
    noncentral_chisquare(df, nonc),
    noncentral_f(dfnum, dfden, nonc),
    normal(loc, scale),
    pareto(a),
    poisson(lam),
    power(a),
    rayleigh(scale),
    standard_gamma(shape),
    standard_t(df),
    triangular(left, mode, right),
    uniform(low, high),
    vonmises(mu, kappa),
    wald(mean, scale),
    weibull(a),
    zipf(a),
);

/// CuPy's `standard_cauchy(size)` on the global state.
pub fn standard_cauchy(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.standard_cauchy(s))
}

/// CuPy's `standard_exponential(size)` on the global state.
pub fn standard_exponential(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.standard_exponential(s))
}

/// CuPy's `standard_normal(size)` on the global state.
pub fn standard_normal(size: impl Into<Size>) -> Result<Array> {
    let s = size.into();
    with_random_state(|rs| rs.standard_normal(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `CUPRUM_SEED` as CuPy reads `CUPY_SEED`: an integer seeds the
    /// global states, unset is fresh entropy, anything else an error
    /// naming the variable (tested on the parser: the process's
    /// environment is shared by every test).
    #[test]
    fn cuprum_seed_values() {
        assert_eq!(seed_from(None).unwrap(), Seed::Entropy);
        assert_eq!(seed_from(Some("42")).unwrap(), Seed::from(42u64));
        assert_eq!(seed_from(Some(" 7\n")).unwrap(), Seed::from(7u64));
        assert_eq!(
            seed_from(Some("18446744073709551615")).unwrap(),
            Seed::from(u64::MAX)
        );
        for bad in ["-1", "abc", "", "1.5", "18446744073709551616"] {
            let e = seed_from(Some(bad)).unwrap_err().to_string();
            assert!(
                e.contains("CUPRUM_SEED must be a non-negative integer"),
                "{bad}: {e}"
            );
        }
    }
}
