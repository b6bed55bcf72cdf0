//! CuPy's "Random Sampling" in Rust: `cupy.random` is `cuprum::random`.
//! A `Generator` (`default_rng`) draws from a counter-based Philox whose
//! numbers are the same on every GPU and on the host; the legacy
//! `RandomState` and the module functions (`rand`, `randn`, ...) draw
//! from cuRAND as CuPy's do. The results are checked, not only printed.
//!
//! `cargo run -p cuprum --example 13_random` on a machine with a GPU.

use cuprum::random::{self, Philox, default_rng};
use cuprum::{self as cp, DType};

fn main() -> cp::Result<()> {
    // rng = cupy.random.default_rng(42); x = rng.standard_normal(10**6)
    let mut rng = default_rng(42)?;
    let x = rng.standard_normal(1_000_000)?;
    let v = x.to_vec::<f64>()?;
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    assert!(mean.abs() < 0.01, "mean {mean}");

    // The same numbers on the host, bit for bit: the host twin.
    let mut bits = Philox::new(42);
    assert_eq!(bits.host().standard_normal_f64(1_000_000)?, v);

    // Parameters broadcast against size, as NumPy's do; float32 on request.
    let scale = cp::array([1.0, 2.0, 4.0])?;
    let e = rng.exponential(&scale, [1000, 3])?;
    assert_eq!(e.shape(), &[1000, 3]);
    let u = rng.random_with(8, DType::Float32)?;
    assert!(u.to_vec::<f32>()?.iter().all(|v| (0.0..1.0).contains(v)));

    // Integers, permutations and choices.
    let dice = rng.integers(1, 7, 20)?.to_vec::<i64>()?;
    assert!(dice.iter().all(|d| (1..=6).contains(d)));
    let mut p = rng.permutation(10)?.to_vec::<i64>()?;
    p.sort_unstable();
    assert_eq!(p, (0..10).collect::<Vec<i64>>());
    let weights = cp::array([0.1, 0.2, 0.7])?;
    let c = rng.choice(3, 5, true, Some(&weights))?;
    assert_eq!(c.shape(), &[5]);

    // Bad parameters are NumPy's ValueErrors, in its words.
    match rng.normal(0.0, -1.0, 3) {
        Err(cp::Error::Value(m)) => assert_eq!(m, "scale < 0"),
        other => panic!("expected a ValueError, got {other:?}"),
    }

    // The legacy API: cupy.random.seed(0); cupy.random.rand(2, 3).
    random::seed(0)?;
    let a = random::rand([2, 3])?.to_vec::<f64>()?;
    random::seed(0)?;
    assert_eq!(random::rand([2, 3])?.to_vec::<f64>()?, a);
    println!("13_random: ok");
    Ok(())
}
