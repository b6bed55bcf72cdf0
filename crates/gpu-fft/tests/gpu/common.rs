//! The host reference (n-dimensional transforms composed of `rustfft`'s
//! 1-D ones in double precision), seeded inputs and the error bound.

use gpu_array::{Array, DType};
use num_complex::Complex;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use rustfft::FftPlanner;

pub type C = Complex<f64>;

/// Tests share the device's plan cache: the ones that count its entries
/// hold this exclusively, every other test shares it.
static CACHE: RwLock<()> = RwLock::new(());

/// A device to test on (prints why not when there is none), held as a
/// shared claim on the plan cache.
pub fn dev() -> Option<RwLockReadGuard<'static, ()>> {
    gpu_runtime::testing::device_or_skip()?;
    Some(CACHE.read().unwrap_or_else(|p| p.into_inner()))
}

/// A device, with the plan cache to this test alone.
pub fn dev_alone() -> Option<RwLockWriteGuard<'static, ()>> {
    gpu_runtime::testing::device_or_skip()?;
    Some(CACHE.write().unwrap_or_else(|p| p.into_inner()))
}

/// A seeded xorshift generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform in [-1, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
}

/// A host array: C-ordered complex values and a shape.
#[derive(Clone, Debug)]
pub struct Host {
    pub shape: Vec<usize>,
    pub data: Vec<C>,
}

impl Host {
    pub fn len(shape: &[usize]) -> usize {
        shape.iter().product()
    }

    /// Random values of `dtype` (real dtypes get zero imaginary parts,
    /// integers small values, float16 values it holds exactly).
    pub fn random(rng: &mut Rng, shape: &[usize], dtype: DType) -> Host {
        let n = Host::len(shape);
        let data = (0..n)
            .map(|_| {
                let (re, im) = (rng.uniform(), rng.uniform());
                match dtype {
                    DType::Bool => C::new(f64::from(re > 0.0), 0.0),
                    d if d.is_unsigned_integer() => C::new((re.abs() * 8.0).round(), 0.0),
                    d if d.is_integer() => C::new((re * 8.0).round(), 0.0),
                    DType::Float16 => C::new((re * 1024.0).round() / 1024.0, 0.0),
                    d if d.is_complex() => C::new(re, im),
                    _ => C::new(re, 0.0),
                }
            })
            .collect();
        Host {
            shape: shape.to_vec(),
            data,
        }
    }

    /// The device array of `dtype` holding these values.
    pub fn device(&self, dtype: DType) -> Array {
        let a = Array::from_slice(&self.data, &self.shape).unwrap();
        if dtype.is_complex() {
            a.astype(dtype).unwrap()
        } else {
            a.real().astype(dtype).unwrap()
        }
    }

    /// The values of a device array (C order).
    pub fn of(a: &Array) -> Host {
        Host {
            shape: a.shape().to_vec(),
            data: a.to_vec_as::<C>().unwrap(),
        }
    }

    fn strides(&self) -> Vec<usize> {
        let mut s = vec![1; self.shape.len()];
        for k in (0..self.shape.len().saturating_sub(1)).rev() {
            s[k] = s[k + 1] * self.shape[k + 1];
        }
        s
    }

    /// Cut or zero-padded to length `n` on `axis`.
    pub fn resize(&self, axis: usize, n: usize) -> Host {
        let mut shape = self.shape.clone();
        shape[axis] = n;
        let mut out = Host {
            data: vec![C::new(0.0, 0.0); Host::len(&shape)],
            shape,
        };
        let (si, so) = (self.strides(), out.strides());
        for (flat, slot) in out.data.iter_mut().enumerate() {
            let mut src = 0;
            let mut ok = true;
            for k in 0..so.len() {
                let i = flat / so[k] % out.shape[k];
                if i >= self.shape[k] {
                    ok = false;
                    break;
                }
                src += i * si[k];
            }
            if ok {
                *slot = self.data[src];
            }
        }
        out
    }

    /// Applies `f` to every 1-D line along `axis`.
    pub fn map_lines(&self, axis: usize, f: &mut dyn FnMut(&mut Vec<C>)) -> Host {
        let mut out = self.clone();
        let st = self.strides();
        let len = self.shape[axis];
        for start in 0..self.data.len() {
            if !(start / st[axis]).is_multiple_of(len) {
                continue;
            }
            let mut line: Vec<C> = (0..len).map(|i| self.data[start + i * st[axis]]).collect();
            f(&mut line);
            for (i, v) in line.into_iter().enumerate() {
                out.data[start + i * st[axis]] = v;
            }
        }
        out
    }

    /// The 1-D transform along `axis` at length `n` (double precision),
    /// unnormalized; `inverse` uses `e^{+i...}`.
    pub fn fft(&self, axis: usize, n: usize, inverse: bool) -> Host {
        let x = self.resize(axis, n);
        let mut planner = FftPlanner::<f64>::new();
        let plan = if inverse {
            planner.plan_fft_inverse(n)
        } else {
            planner.plan_fft_forward(n)
        };
        x.map_lines(axis, &mut |line| plan.process(line))
    }

    /// Every element times `f`.
    pub fn scale(mut self, f: f64) -> Host {
        for v in &mut self.data {
            *v *= f;
        }
        self
    }

    /// Elementwise conjugate.
    pub fn conj(mut self) -> Host {
        for v in &mut self.data {
            *v = v.conj();
        }
        self
    }

    /// NumPy's `rfft` along `axis`: the first `n/2 + 1` outputs of the
    /// transform of the real part.
    pub fn rfft(&self, axis: usize, n: usize) -> Host {
        let full = self.fft(axis, n, false);
        full.resize(axis, n / 2 + 1)
    }

    /// NumPy's `irfft` along `axis` to real length `n`, unnormalized:
    /// the half spectrum cut or padded to `n/2 + 1`, extended by
    /// Hermitian symmetry with the imaginary parts of the zero (and, for
    /// even `n`, the Nyquist) frequency dropped, as pocketfft does.
    pub fn irfft(&self, axis: usize, n: usize) -> Host {
        let half = self.resize(axis, n / 2 + 1);
        let full = {
            let mut shape = half.shape.clone();
            shape[axis] = n;
            let padded = half.resize(axis, n);
            padded.map_lines(axis, &mut |line| {
                let m = n / 2 + 1;
                line[0].im = 0.0;
                if n.is_multiple_of(2) {
                    line[n / 2].im = 0.0;
                }
                for k in m..n {
                    line[k] = line[n - k].conj();
                }
            })
        };
        let mut y = full.fft(axis, n, true);
        for v in &mut y.data {
            v.im = 0.0;
        }
        y
    }
}

/// The unit roundoff of the precision a dtype transforms in.
pub fn eps(dtype: DType) -> f64 {
    match dtype {
        DType::Float16 | DType::Float32 | DType::Complex64 => f32::EPSILON as f64,
        _ => f64::EPSILON,
    }
}

/// Asserts the bound every transform test states: with `n` the points
/// of one transform and `x` the input, each output is within
/// `8 * eps * log2(n) * ||x line||_2 * |factor|` of the reference, where
/// the line norm is bounded by the input's largest magnitude times
/// `sqrt(n)`.
#[track_caller]
pub fn assert_fft_close(
    got: &Host,
    want: &Host,
    n: usize,
    input_max: f64,
    factor: f64,
    dtype: DType,
    what: &str,
) {
    assert_eq!(got.shape, want.shape, "{what}: shapes");
    let log = (n.max(2) as f64).log2();
    let tol =
        8.0 * eps(dtype) * log * input_max.max(1e-300) * (n as f64).sqrt() * factor.abs() + 1e-300;
    for (i, (g, w)) in got.data.iter().zip(&want.data).enumerate() {
        let d = (g - w).norm();
        assert!(
            d <= tol,
            "{what}: element {i}: got {g}, want {w} (|diff| {d:e} > {tol:e})"
        );
    }
}
