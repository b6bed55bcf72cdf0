//! NumPy's `Generator` on the default bit generator, [`Philox`].

use gpu_array::elementwise::Elementwise;
use gpu_array::{Array, DType, Error, Result};

use crate::bit_generator::{BitGenerator, CurandBits};
use crate::distributions::{self, distribution_methods};
use crate::error::value_error;
use crate::fill::{self, Kind};
use crate::sample::{Domain, Param, Size, out_shape};
use crate::{Philox, PhiloxState, Seed};

/// NumPy's `Generator`: every method NumPy's has, drawing on the GPU from
/// a [`Philox`] whose numbers do not depend on the GPU or the launch.
///
/// ```no_run
/// use gpu_random::default_rng;
/// # fn main() -> gpu_array::Result<()> {
/// let mut rng = default_rng(42)?;
/// let x = rng.standard_normal([1000])?;          // float64
/// let k = rng.integers(0, 10, [5])?;             // int64 in [0, 10)
/// let g = rng.gamma(0.5, 2.0, [3, 3])?;          // scalar parameters
/// let n = rng.normal(&x, 0.1, ())?;              // an array parameter, size=None
/// assert_eq!(n.shape(), &[1000]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Generator {
    bits: BitGenerator,
    /// A grid-size cap for the fixed-cost draws (the tests' proof that the
    /// numbers do not depend on the launch); `None` in normal use.
    grid_cap: Option<u32>,
}

/// NumPy's `default_rng(seed)`: a [`Generator`] on a [`Philox`] seeded by
/// an integer, a list of integers, or (with `()`) fresh entropy.
///
/// ```
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_random::default_rng(7)?;
/// let b = gpu_random::default_rng([7u64, 8])?;
/// assert_ne!(a.bit_generator().philox().key(), b.bit_generator().philox().key());
/// assert!(gpu_random::default_rng(-1).is_err()); // NumPy: seeds are non-negative
/// # Ok(()) }
/// ```
pub fn default_rng(seed: impl Into<Seed>) -> Result<Generator> {
    Ok(Generator::new(seed.into().philox()?))
}

impl Generator {
    /// A generator on `bits`: a [`Philox`] or a cuRAND
    /// [`BitGenerator`] (CuPy's `Generator(XORWOW(seed))` is
    /// `Generator::new(BitGenerator::curand(Method::Xorwow, seed)?)`).
    pub fn new(bits: impl Into<BitGenerator>) -> Generator {
        Generator {
            bits: bits.into(),
            grid_cap: None,
        }
    }

    /// The bit generator (NumPy's `bit_generator`).
    pub fn bit_generator(&self) -> &BitGenerator {
        &self.bits
    }

    /// The state of a [`Philox`] generator, to save and restore with
    /// [`Generator::set_state`]. A cuRAND generator's state cannot be read
    /// back: `Unsupported`.
    pub fn state(&self) -> Result<PhiloxState> {
        match &self.bits {
            BitGenerator::Philox(p) => Ok(p.state()),
            BitGenerator::Curand(_) => Err(Error::Unsupported(
                "saving the state of a cuRAND bit generator (use the default Philox)".into(),
            )),
        }
    }

    /// Restores a state saved by [`Generator::state`].
    pub fn set_state(&mut self, state: PhiloxState) -> Result<()> {
        match &mut self.bits {
            BitGenerator::Philox(p) => {
                p.set_state(state);
                Ok(())
            }
            BitGenerator::Curand(_) => Err(Error::Unsupported(
                "restoring the state of a cuRAND bit generator".into(),
            )),
        }
    }

    /// `n` independent generators (NumPy's `Generator.spawn`): Philox
    /// children of the generator's Philox (for a cuRAND generator, of the
    /// Philox of its seed).
    pub fn spawn(&mut self, n: usize) -> Vec<Generator> {
        self.bits
            .philox_mut()
            .spawn(n)
            .into_iter()
            .map(Generator::new)
            .collect()
    }

    pub(crate) fn bits(&mut self) -> &mut Philox {
        self.bits.philox_mut()
    }

    /// The cuRAND source, when the generator has one.
    pub(crate) fn curand_bits(&mut self) -> Option<&mut CurandBits> {
        match &mut self.bits {
            BitGenerator::Curand(c) => Some(c),
            BitGenerator::Philox(_) => None,
        }
    }

    /// The same generator with the fixed-cost draws launched on at most
    /// `blocks` blocks (the numbers are the same on any grid; the tests
    /// check it).
    #[doc(hidden)]
    pub fn with_grid_cap(mut self, blocks: u32) -> Generator {
        self.grid_cap = Some(blocks);
        self
    }

    fn fresh(
        &mut self,
        size: impl Into<Size>,
        dtype: DType,
        kind: Kind,
        affine: Option<(f64, f64)>,
    ) -> Result<Array> {
        let shape = out_shape(&size.into(), &[])?;
        if let BitGenerator::Curand(c) = &mut self.bits {
            return match kind {
                Kind::Uniform => c.uniform(&shape, dtype),
                Kind::Normal => c.normal(&shape, dtype, 0.0, 1.0, false),
            };
        }
        let out = Array::empty(&shape[..], dtype)?;
        fill::fill(self.bits.philox_mut(), &out, kind, affine, self.grid_cap)?;
        Ok(out)
    }

    /// NumPy's `random(size)`: float64 in `[0, 1)` (53 bits).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_random::default_rng(1)?.random([2, 3])?;
    /// assert_eq!(x.shape(), &[2, 3]);
    /// # Ok(()) }
    /// ```
    pub fn random(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.random_with(size, DType::Float64)
    }

    /// `random(size, dtype=)`: float32 (24 bits) or float64.
    pub fn random_with(&mut self, size: impl Into<Size>, dtype: DType) -> Result<Array> {
        float_dtype("random", dtype)?;
        self.fresh(size, dtype, Kind::Uniform, None)
    }

    /// `random(out=)`: fills a C-contiguous float32 or float64 array.
    pub fn random_into(&mut self, out: &Array) -> Result<()> {
        self.fill_into(out, Kind::Uniform)
    }

    /// NumPy's `standard_normal(size)`: float64 (Box-Muller on 53-bit
    /// uniforms).
    pub fn standard_normal(&mut self, size: impl Into<Size>) -> Result<Array> {
        self.standard_normal_with(size, DType::Float64)
    }

    /// `standard_normal(size, dtype=)`: float32 (Marsaglia and Tsang's
    /// ziggurat in float32, one 32-bit word an element) or float64.
    pub fn standard_normal_with(&mut self, size: impl Into<Size>, dtype: DType) -> Result<Array> {
        float_dtype("standard_normal", dtype)?;
        self.fresh(size, dtype, Kind::Normal, None)
    }

    /// `standard_normal(out=)`.
    pub fn standard_normal_into(&mut self, out: &Array) -> Result<()> {
        self.fill_into(out, Kind::Normal)
    }

    fn fill_into(&mut self, out: &Array, kind: Kind) -> Result<()> {
        float_dtype("out", out.dtype())?;
        if !out.is_c_contiguous() {
            return Err(value_error(
                "Supplied output array is not contiguous, writable or aligned.",
            ));
        }
        if matches!(self.bits, BitGenerator::Curand(_)) {
            let fresh = self.fresh(out.shape(), out.dtype(), kind, None)?;
            return gpu_array::array::copyto(out, &fresh, gpu_array::dtype::Casting::No, None);
        }
        fill::fill(self.bits.philox_mut(), out, kind, None, self.grid_cap)
    }

    /// NumPy's `normal(loc, scale, size)`: `fma(scale, z, loc)` with `z`
    /// standard normal, one pass for scalar parameters; array parameters
    /// draw the same `z` and map them in a second pass, so the numbers do
    /// not depend on the parameters' form.
    pub fn normal<'a>(
        &mut self,
        loc: impl Into<Param<'a>>,
        scale: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        let (loc, scale) = (loc.into(), scale.into());
        Domain::NonNegative.check("scale", &scale)?;
        self.affine(
            Kind::Normal,
            &[loc, scale],
            size.into(),
            |p| (p[0], p[1]),
            "fma(p1, z, p0)",
        )
    }

    /// NumPy's `uniform(low, high, size)`: `fma(high - low, u, low)`, `u`
    /// in `[0, 1)`; one pass for scalar bounds.
    pub fn uniform<'a>(
        &mut self,
        low: impl Into<Param<'a>>,
        high: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        let (low, high) = (low.into(), high.into());
        if let (Some(l), Some(h)) = (low.scalar(), high.scalar())
            && !(h - l).is_finite()
        {
            return Err(Error::Overflow("Range exceeds valid bounds".into()));
        }
        self.affine(
            Kind::Uniform,
            &[low, high],
            size.into(),
            |p| (p[0], p[1] - p[0]),
            "fma(p1 - p0, z, p0)",
        )
    }

    /// A float64 draw of `kind` mapped by `a + b z`: in the fill kernel when
    /// both parameters are scalars, else by an elementwise pass over the
    /// same draw.
    fn affine(
        &mut self,
        kind: Kind,
        params: &[Param; 2],
        size: Size,
        ab: impl Fn([f64; 2]) -> (f64, f64),
        c_expr: &'static str,
    ) -> Result<Array> {
        let shape = out_shape(&size, params)?;
        let scalars = (params[0].scalar(), params[1].scalar());
        if let (BitGenerator::Curand(c), (Some(loc), Some(scale)), Kind::Normal) =
            (&mut self.bits, scalars, kind)
        {
            return c.normal(&shape, DType::Float64, loc, scale, false);
        }
        if let (BitGenerator::Philox(p), (Some(p0), Some(p1))) = (&mut self.bits, scalars) {
            let out = Array::empty(&shape[..], DType::Float64)?;
            fill::fill(p, &out, kind, Some(ab([p0, p1])), self.grid_cap)?;
            return Ok(out);
        }
        let out = self.fresh(&shape[..], DType::Float64, kind, None)?;
        let mut e = Elementwise::new(match kind {
            Kind::Normal => "random_affine_normal",
            Kind::Uniform => "random_affine_uniform",
        })
        .input("z", &out);
        for (k, p) in params.iter().enumerate() {
            e = p.bind(e, &format!("p{k}"), DType::Float64);
        }
        e.output("out", &out)
            .op(format!("out = {c_expr};"))
            .option("--fmad=false")
            .launch(&shape)?;
        Ok(out)
    }

    /// `standard_exponential(size, dtype=)`: float32 or float64 (computed
    /// in float64 and rounded once).
    pub fn standard_exponential_with(
        &mut self,
        size: impl Into<Size>,
        dtype: DType,
    ) -> Result<Array> {
        float_dtype("standard_exponential", dtype)?;
        distributions::STANDARD_EXPONENTIAL.draw(self.bits.philox_mut(), &[], &size.into(), dtype)
    }

    /// `standard_gamma(shape, size, dtype=)`: float32 or float64 (computed
    /// in float64 and rounded once).
    pub fn standard_gamma_with<'a>(
        &mut self,
        shape: impl Into<Param<'a>>,
        size: impl Into<Size>,
        dtype: DType,
    ) -> Result<Array> {
        float_dtype("standard_gamma", dtype)?;
        distributions::STANDARD_GAMMA.draw(
            self.bits.philox_mut(),
            &[shape.into()],
            &size.into(),
            dtype,
        )
    }

    /// NumPy's `lognormal(mean, sigma, size)`: `exp(mean + sigma z)`.
    pub fn lognormal<'a>(
        &mut self,
        mean: impl Into<Param<'a>>,
        sigma: impl Into<Param<'a>>,
        size: impl Into<Size>,
    ) -> Result<Array> {
        distributions::LOGNORMAL.draw(
            self.bits.philox_mut(),
            &[mean.into(), sigma.into()],
            &size.into(),
            DType::Float64,
        )
    }

    /// NumPy's `integers(low, high, size)`: int64 in `[low, high)`
    /// (Lemire's multiply-and-reject, unbiased).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let d = gpu_random::default_rng(3)?.integers(1, 7, [10])?; // dice
    /// # Ok(()) }
    /// ```
    pub fn integers(&mut self, low: i64, high: i64, size: impl Into<Size>) -> Result<Array> {
        self.integers_with(i128::from(low), i128::from(high), size, DType::Int64, false)
    }

    /// `integers(low, high, size, dtype, endpoint)`: any integer dtype;
    /// with `endpoint` the range is `[low, high]`. The range must be
    /// non-empty and within the dtype (NumPy's errors).
    pub fn integers_with(
        &mut self,
        low: i128,
        high: i128,
        size: impl Into<Size>,
        dtype: DType,
        endpoint: bool,
    ) -> Result<Array> {
        let hi = if endpoint { high } else { high - 1 };
        let (min, max) = int_bounds(dtype)?;
        if low < min {
            return Err(value_error(format!("low is out of bounds for {dtype}")));
        }
        if hi > max {
            return Err(value_error(format!("high is out of bounds for {dtype}")));
        }
        if low > hi {
            return Err(value_error(if endpoint {
                "low > high"
            } else {
                "low >= high"
            }));
        }
        let shape = out_shape(&size.into(), &[])?;
        let out = Array::empty(&shape[..], dtype)?;
        fill::integers(
            self.bits.philox_mut(),
            &out,
            low,
            (hi - low + 1) as u128,
            self.grid_cap,
        )?;
        Ok(out)
    }

    /// `integers(low, high, size, endpoint=)` with bounds that are arrays
    /// (int64, broadcast against `size` as NumPy's): each element draws
    /// from its own stream by Lemire's method. Every `low` must be below
    /// its `high` (at most with `endpoint`), as NumPy demands.
    pub fn integers_between<'a>(
        &mut self,
        low: impl Into<Param<'a>>,
        high: impl Into<Param<'a>>,
        size: impl Into<Size>,
        endpoint: bool,
    ) -> Result<Array> {
        let (low, high) = (low.into(), high.into());
        for (name, p) in [("low", &low), ("high", &high)] {
            if let Param::Array(a) = p
                && !a.dtype().is_integer()
            {
                return Err(Error::DType(format!(
                    "{name} must be an integer array, not {}",
                    a.dtype()
                )));
            }
        }
        let p = [low, high];
        if endpoint {
            crate::sample::check_relation(
                "random_int_check_closed",
                "low > high",
                "x0 > x1",
                &p,
                |v| v[0] > v[1],
            )?;
        } else {
            crate::sample::check_relation(
                "random_int_check_open",
                "low >= high",
                "x0 >= x1",
                &p,
                |v| v[0] >= v[1],
            )?;
        }
        let high = if endpoint {
            p[1]
        } else {
            // [low, high) is [low, high - 1]: the bound moves down on the device.
            match p[1] {
                Param::Int(h) => Param::Int(h - 1),
                Param::Float(h) => Param::Float(h - 1.0),
                Param::Array(a) => return self.integers_between_open(p[0], a, size),
            }
        };
        distributions::INTEGERS.draw(
            self.bits.philox_mut(),
            &[p[0], high],
            &size.into(),
            DType::Int64,
        )
    }

    fn integers_between_open(
        &mut self,
        low: Param,
        high: &Array,
        size: impl Into<Size>,
    ) -> Result<Array> {
        let closed = gpu_array::ufunc::subtract(&high.astype(DType::Int64)?, 1i64)?;
        distributions::INTEGERS.draw(
            self.bits.philox_mut(),
            &[low, Param::Array(&closed)],
            &size.into(),
            DType::Int64,
        )
    }

    /// `standard_exponential(out=)`: fills a float32 or float64 array.
    pub fn standard_exponential_into(&mut self, out: &Array) -> Result<()> {
        let x = self.standard_exponential_with(out.shape(), out.dtype())?;
        gpu_array::array::copyto(out, &x, gpu_array::dtype::Casting::No, None)
    }

    /// `standard_gamma(shape, out=)`: fills a float32 or float64 array.
    pub fn standard_gamma_into<'a>(
        &mut self,
        shape: impl Into<Param<'a>>,
        out: &Array,
    ) -> Result<()> {
        let x = self.standard_gamma_with(shape, out.shape(), out.dtype())?;
        gpu_array::array::copyto(out, &x, gpu_array::dtype::Casting::No, None)
    }

    /// NumPy's `bytes(length)`: random bytes, read back to the host.
    pub fn bytes(&mut self, length: usize) -> Result<Vec<u8>> {
        self.integers_with(0, 255, length, DType::UInt8, true)?
            .to_vec::<u8>()
    }

    /// NumPy's `permutation(n)`: `0..n` in random order (int64).
    ///
    /// Below 2^20 elements: the stable argsort of 64-bit random keys (a
    /// tie, which would keep index order, has probability below 2^-25).
    /// From 2^20 on, one pass without a sort: element `i` is an 8-round
    /// Feistel cipher of `i` on the smallest even number of bits that
    /// holds `n`, under round keys from the stream, walked until it falls
    /// below `n`, with a random transposition for the parity
    /// (`kernels/fill.cu`; [`HostPhilox::permutation`](crate::HostPhilox::permutation)
    /// replays it): a keyed pseudo-random permutation, as NumPy's shuffle
    /// of a seeded stream is.
    pub fn permutation(&mut self, n: usize) -> Result<Array> {
        if n < SORTED_PERMUTATION_BELOW {
            let keys = self.integers_with(0, u64::MAX.into(), n, DType::UInt64, true)?;
            return gpu_array::sorting::argsort(&keys, Some(0));
        }
        fill::permutation(self.bits.philox_mut(), n, self.grid_cap)
    }

    /// `permutation(x)`: a copy of `x` with its first axis permuted.
    pub fn permutation_of(&mut self, x: &Array) -> Result<Array> {
        if x.ndim() == 0 {
            return Err(Error::Axis(
                "x must be an integer or at least 1-dimensional".into(),
            ));
        }
        let idx = self.permutation(x.shape()[0])?;
        x.take(&idx, Some(0), Default::default())
    }

    /// NumPy's `shuffle(x)`: permutes `x`'s first axis in place.
    pub fn shuffle(&mut self, x: &Array) -> Result<()> {
        let p = self.permutation_of(x)?;
        gpu_array::array::copyto(x, &p, gpu_array::dtype::Casting::Unsafe, None)
    }

    /// NumPy's `permuted(x, axis)`: each slice along `axis` permuted
    /// independently (`None`: the flattened array).
    pub fn permuted(&mut self, x: &Array, axis: Option<isize>) -> Result<Array> {
        let (src, ax) = match axis {
            None => (x.ravel()?, 0),
            Some(a) => (x.clone(), a),
        };
        let keys = self.integers_with(0, u64::MAX.into(), src.shape(), DType::UInt64, true)?;
        let idx = gpu_array::sorting::argsort(&keys, Some(ax))?;
        let out = gpu_array::indexing::take_along_axis(&src, &idx, Some(ax))?;
        match axis {
            None => out.reshape(x.shape()),
            Some(_) => Ok(out),
        }
    }

    /// NumPy's `choice(a, size, replace, p)` over `0..a` (int64): with
    /// replacement by `integers` or, with `p`, by inverting the cumulative
    /// sum; without, the first `size` of a permutation or, with `p`, the
    /// `size` smallest `E_i / p_i` (Efraimidis and Spirakis 2006).
    pub fn choice(
        &mut self,
        a: usize,
        size: impl Into<Size>,
        replace: bool,
        p: Option<&Array>,
    ) -> Result<Array> {
        let shape = out_shape(&size.into(), &[])?;
        let count: usize = shape.iter().product();
        if a == 0 && count > 0 {
            return Err(value_error("a cannot be empty unless no samples are taken"));
        }
        if let Some(p) = p {
            check_p(p, a)?;
        }
        if !replace && count > a {
            return Err(value_error(
                "Cannot take a larger sample than population when replace is False",
            ));
        }
        let flat = match (replace, p) {
            (true, None) => self.integers(0, a as i64, count)?,
            (true, Some(p)) => {
                let cdf = gpu_array::math::cumsum(&p.astype(DType::Float64)?, None, None)?;
                let total = cdf.item::<f64>(&[a as isize - 1])?;
                let u = self.uniform(0.0, total, count)?;
                let idx = gpu_array::sorting::searchsorted(
                    &cdf,
                    &u,
                    gpu_array::sorting::Side::Right,
                    None,
                )?;
                // u < total, so the index is below a but for rounding at the top.
                gpu_array::ufunc::minimum(&idx, a as i64 - 1)?
            }
            (false, None) => first(&self.permutation(a)?, count)?,
            (false, Some(p)) => {
                let e = self.standard_exponential(a)?;
                let keys = gpu_array::ufunc::true_divide(&e, &p.astype(DType::Float64)?)?;
                first(&gpu_array::sorting::argsort(&keys, Some(0))?, count)?
            }
        };
        flat.reshape(&shape[..])
    }

    /// NumPy's `dirichlet(alpha, size)`: gammas normalized by their sum
    /// (shape `size + (k,)`).
    pub fn dirichlet(&mut self, alpha: &[f64], size: impl Into<Size>) -> Result<Array> {
        if alpha.iter().any(|&a| a.is_nan() || a <= 0.0) {
            return Err(value_error("alpha <= 0"));
        }
        let mut shape = out_shape(&size.into(), &[])?;
        shape.push(alpha.len());
        let a = Array::from_vec(alpha.to_vec())?;
        let g = distributions::STANDARD_GAMMA.draw(
            self.bits.philox_mut(),
            &[Param::Array(&a)],
            &Size::from(&shape[..]),
            DType::Float64,
        )?;
        let s = gpu_array::math::sum(
            &g,
            gpu_array::reduction::ReduceOptions::axis(-1).keepdims(true),
        )?;
        gpu_array::ufunc::true_divide(&g, &s)
    }

    /// NumPy's `multinomial(n, pvals, size)`: conditional binomials, one
    /// category after another (shape `size + (k,)`, int64).
    pub fn multinomial(&mut self, n: i64, pvals: &[f64], size: impl Into<Size>) -> Result<Array> {
        if n < 0 {
            return Err(value_error("n < 0"));
        }
        if pvals.iter().any(|&p| !(0.0..=1.0).contains(&p)) {
            return Err(value_error("pvals < 0, pvals > 1 or pvals contains NaNs"));
        }
        let head: f64 = pvals[..pvals.len().saturating_sub(1)].iter().sum();
        if head > 1.0 + 1e-12 {
            return Err(value_error("sum(pvals[:-1]) > 1.0"));
        }
        let shape = out_shape(&size.into(), &[])?;
        let mut left = gpu_array::creation::full(&shape[..], n, Some(DType::Int64))?;
        let mut rest = 1.0;
        let mut cols = Vec::with_capacity(pvals.len());
        for (k, &p) in pvals.iter().enumerate() {
            let x = if k + 1 == pvals.len() {
                left.clone()
            } else {
                let q = if rest > 0.0 {
                    (p / rest).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let x = self.binomial(&left, q, ())?;
                left = gpu_array::ufunc::subtract(&left, &x)?;
                rest -= p;
                x
            };
            cols.push(x);
        }
        let refs: Vec<&Array> = cols.iter().collect();
        gpu_array::manipulation::stack(&refs, -1)
    }

    /// NumPy's `multivariate_normal(mean, cov, size)`: `mean + z A^T` with
    /// `z` standard normal (shape `size + (k,)`) and `A = V sqrt(w)` from
    /// the eigendecomposition of the symmetric `cov` (NumPy's default
    /// 'svd' method is the same factor for a symmetric positive
    /// semidefinite `cov`; negative eigenvalues from rounding count as 0).
    pub fn multivariate_normal(
        &mut self,
        mean: &Array,
        cov: &Array,
        size: impl Into<Size>,
    ) -> Result<Array> {
        if mean.ndim() != 1 {
            return Err(value_error("mean must be 1 dimensional"));
        }
        let k = mean.shape()[0];
        if cov.ndim() != 2 || cov.shape()[0] != cov.shape()[1] {
            return Err(value_error("cov must be 2 dimensional and square"));
        }
        if cov.shape()[0] != k {
            return Err(value_error("mean and cov must have same length"));
        }
        let mut shape = out_shape(&size.into(), &[])?;
        let m: usize = shape.iter().product();
        shape.push(k);
        let (w, v) = gpu_linalg::eigh(&cov.astype(DType::Float64)?, gpu_linalg::Uplo::L)?;
        let a = gpu_array::ufunc::multiply(
            &v,
            gpu_array::ufunc::sqrt(gpu_array::ufunc::maximum(&w, 0.0)?)?,
        )?;
        let z = self.standard_normal([m, k])?;
        let x = gpu_linalg::matmul(&z, &a.transpose(None)?)?;
        gpu_array::ufunc::add(&x, &mean.astype(DType::Float64)?)?.reshape(&shape[..])
    }

    /// NumPy's `multivariate_hypergeometric(colors, nsample, size)` by the
    /// marginals method: conditional hypergeometrics, one color after
    /// another (shape `size + (k,)`, int64).
    pub fn multivariate_hypergeometric(
        &mut self,
        colors: &[i64],
        nsample: i64,
        size: impl Into<Size>,
    ) -> Result<Array> {
        if colors.iter().any(|&c| c < 0) {
            return Err(value_error(
                "colors must be a one-dimensional sequence of nonnegative integers not exceeding 9223372036854775807.",
            ));
        }
        let total: i128 = colors.iter().map(|&c| i128::from(c)).sum();
        if nsample < 0 {
            return Err(value_error("nsample must be nonnegative."));
        }
        if i128::from(nsample) > total {
            return Err(value_error(format!(
                "nsample > sum(colors) (nsample={nsample}, sum(colors)={total})"
            )));
        }
        let shape = out_shape(&size.into(), &[])?;
        let mut left = gpu_array::creation::full(&shape[..], nsample, Some(DType::Int64))?;
        let mut others = total;
        let mut cols = Vec::with_capacity(colors.len());
        for (k, &c) in colors.iter().enumerate() {
            others -= i128::from(c);
            let x = if k + 1 == colors.len() {
                left.clone()
            } else {
                let x = self.hypergeometric(c, others as i64, &left, ())?;
                left = gpu_array::ufunc::subtract(&left, &x)?;
                x
            };
            cols.push(x);
        }
        let refs: Vec<&Array> = cols.iter().collect();
        gpu_array::manipulation::stack(&refs, -1)
    }
}

distribution_methods!(Generator);

/// Permutations of fewer elements sort random keys (exactly uniform but
/// for ties); longer ones take the Feistel walk.
pub const SORTED_PERMUTATION_BELOW: usize = 1 << 20;

/// The first `count` elements of a 1-D array (a view).
pub(crate) fn first(a: &Array, count: usize) -> Result<Array> {
    a.slice(&[gpu_array::AxisIndex::Slice {
        start: Some(0),
        stop: Some(count as isize),
        step: 1,
    }])
}

/// The integer range a dtype holds.
fn int_bounds(dtype: DType) -> Result<(i128, i128)> {
    Ok(match dtype {
        DType::Int8 => (i8::MIN.into(), i8::MAX.into()),
        DType::Int16 => (i16::MIN.into(), i16::MAX.into()),
        DType::Int32 => (i32::MIN.into(), i32::MAX.into()),
        DType::Int64 => (i64::MIN.into(), i64::MAX.into()),
        DType::UInt8 => (0, u8::MAX.into()),
        DType::UInt16 => (0, u16::MAX.into()),
        DType::UInt32 => (0, u32::MAX.into()),
        DType::UInt64 => (0, u64::MAX.into()),
        other => {
            return Err(Error::DType(format!(
                "Unsupported dtype {other} for integers"
            )));
        }
    })
}

fn float_dtype(what: &str, dtype: DType) -> Result<()> {
    if matches!(dtype, DType::Float32 | DType::Float64) {
        Ok(())
    } else {
        Err(Error::DType(format!(
            "Unsupported dtype {dtype} for {what}"
        )))
    }
}

/// `choice`'s `p`: one-dimensional, `a` long, non-negative, summing to 1
/// within sqrt(eps) (NumPy's errors).
fn check_p(p: &Array, a: usize) -> Result<()> {
    if p.ndim() != 1 {
        return Err(value_error("p must be 1-dimensional"));
    }
    if p.shape()[0] != a {
        return Err(value_error("a and p must have same size"));
    }
    let host = p.astype(DType::Float64)?.to_vec::<f64>()?;
    if host.iter().any(|v| v.is_nan() || *v < 0.0) {
        return Err(value_error("probabilities are not non-negative"));
    }
    let s: f64 = host.iter().sum();
    if (s - 1.0).abs() > f64::EPSILON.sqrt() {
        return Err(value_error("probabilities do not sum to 1"));
    }
    Ok(())
}
