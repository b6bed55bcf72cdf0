//! Helpers shared by the modules of the GPU test binary: the device check,
//! seeded inputs, arrays read back as complex128, host references (batched
//! matmul, conjugate transpose, identity) and the checks with tolerances
//! per dtype.

use gpu_array::{Array, DType};
use num_complex::Complex;

pub type C = Complex<f64>;

/// Whether there is a device; prints why not and returns false when there
/// is none (fails instead with `CUPRUM_TEST_REQUIRE_GPU=1`).
pub fn dev() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
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

    /// A small integer in [lo, hi].
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
}

/// A random array of `dtype` and `shape`: uniform in [-1, 1) (real and
/// imaginary parts) for inexact dtypes, small integers for integers
/// (non-negative for unsigned), random booleans.
pub fn random(rng: &mut Rng, shape: &[usize], dtype: DType) -> Array {
    let n: usize = shape.iter().product();
    let a = if dtype.is_complex() {
        let v: Vec<C> = (0..n)
            .map(|_| C::new(rng.uniform(), rng.uniform()))
            .collect();
        Array::from_slice(&v, shape).unwrap()
    } else if dtype.is_inexact() {
        let v: Vec<f64> = (0..n).map(|_| rng.uniform()).collect();
        Array::from_slice(&v, shape).unwrap()
    } else if dtype == DType::Bool {
        let v: Vec<bool> = (0..n).map(|_| rng.next_u64() & 1 == 1).collect();
        return Array::from_slice(&v, shape).unwrap();
    } else if dtype.is_unsigned_integer() {
        let v: Vec<i64> = (0..n).map(|_| rng.int(0, 5)).collect();
        Array::from_slice(&v, shape).unwrap()
    } else {
        let v: Vec<i64> = (0..n).map(|_| rng.int(-4, 4)).collect();
        Array::from_slice(&v, shape).unwrap()
    };
    a.astype(dtype).unwrap()
}

/// The array's values (C order) as complex128.
pub fn host(a: &Array) -> Vec<C> {
    a.astype(DType::Complex128).unwrap().to_vec::<C>().unwrap()
}

/// Batched host matmul of C-ordered `(batch, m, k)` and `(batch, k, n)`.
pub fn host_matmul(a: &[C], b: &[C], batch: usize, m: usize, k: usize, n: usize) -> Vec<C> {
    let mut c = vec![C::new(0.0, 0.0); batch * m * n];
    for p in 0..batch {
        for i in 0..m {
            for l in 0..k {
                let x = a[p * m * k + i * k + l];
                for j in 0..n {
                    c[p * m * n + i * n + j] += x * b[p * k * n + l * n + j];
                }
            }
        }
    }
    c
}

/// Conjugate transpose of each `m x n` matrix of a batch.
pub fn host_ct(a: &[C], batch: usize, m: usize, n: usize) -> Vec<C> {
    let mut t = vec![C::new(0.0, 0.0); a.len()];
    for p in 0..batch {
        for i in 0..m {
            for j in 0..n {
                t[p * m * n + j * m + i] = a[p * m * n + i * n + j].conj();
            }
        }
    }
    t
}

/// Identity matrices.
pub fn host_eye(batch: usize, n: usize) -> Vec<C> {
    let mut e = vec![C::new(0.0, 0.0); batch * n * n];
    for p in 0..batch {
        for i in 0..n {
            e[p * n * n + i * n + i] = C::new(1.0, 0.0);
        }
    }
    e
}

/// Relative tolerance of a dtype's arithmetic.
pub fn eps(dtype: DType) -> f64 {
    match dtype.real_dtype() {
        DType::Float16 => 1e-3,
        DType::BFloat16 => 8e-3,
        DType::Float32 => 1.2e-7,
        DType::Float64 => 2.3e-16,
        _ => 0.0,
    }
}

/// Asserts `|got - want| <= tol * (1 + max|want|)` elementwise.
#[track_caller]
pub fn assert_close(got: &[C], want: &[C], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths differ");
    let scale = 1.0 + want.iter().map(|z| z.norm()).fold(0.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let d = (g - w).norm();
        assert!(
            d <= tol * scale || (g.re.is_nan() && w.re.is_nan()),
            "{what}: element {i}: got {g}, want {w} (|diff| {d:e} > {:e})",
            tol * scale
        );
    }
}
