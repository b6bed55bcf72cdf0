//! Helpers shared by the modules of the GPU test binary: the golden files'
//! folder, a seeded generator and complex128 read-backs.

use std::path::{Path, PathBuf};

use gpu_array::{Array, DType};
use num_complex::Complex;

/// A file under the crate's `testdata/` (NumPy's outputs, written by the
/// `make_golden.py` scripts there; `cargo xtask golden`), e.g.
/// `testdata("scan/scan_golden.npz")`. Found through `CARGO_MANIFEST_DIR`,
/// so the tests may run from any folder.
pub(crate) fn testdata(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("testdata")
        .join(path)
}

/// A seeded xorshift generator (shifts 13, 7, 17). `Rng(seed)` starts
/// from `seed` as it is (which must not be 0); [`Rng::new`] spreads any
/// seed first.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// From any seed, 0 included: multiplied by the golden ratio, made odd.
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1), from the top 53 bits.
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub(crate) fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// complex128, the type host references compute in.
pub(crate) type C = Complex<f64>;

/// The array's values (C order) read back as complex128.
pub(crate) fn host(a: &Array) -> Vec<C> {
    a.astype(DType::Complex128).unwrap().to_vec::<C>().unwrap()
}
