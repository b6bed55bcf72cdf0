//! NumPy's errors, in its words.

use gpu_array::{Array, DType, Error};
use gpu_random::default_rng;

fn msg(r: gpu_array::Result<Array>) -> String {
    match r {
        Err(Error::Value(m)) | Err(Error::DType(m)) | Err(Error::Overflow(m)) => m,
        Err(e) => format!("other error: {e}"),
        Ok(a) => format!("no error (shape {:?})", a.shape()),
    }
}

#[test]
fn bad_parameters_are_numpy_errors() {
    if !super::gpu() {
        return;
    }
    let mut g = default_rng(0).unwrap();
    assert_eq!(msg(g.normal(0.0, -1.0, 3)), "scale < 0");
    assert_eq!(msg(g.exponential(-1.0, 3)), "scale < 0");
    assert_eq!(msg(g.gamma(-0.5, 1.0, 3)), "shape < 0");
    assert_eq!(msg(g.beta(0.0, 1.0, 3)), "a <= 0");
    assert_eq!(msg(g.binomial(10i64, 1.5, 3)), "p < 0, p > 1 or p is NaN");
    assert_eq!(
        msg(g.binomial(10i64, f64::NAN, 3)),
        "p < 0, p > 1 or p is NaN"
    );
    assert_eq!(msg(g.binomial(-1i64, 0.5, 3)), "n < 0");
    assert_eq!(msg(g.geometric(0.0, 3)), "p <= 0, p > 1 or p contains NaNs");
    assert_eq!(
        msg(g.poisson(1e19, 3)),
        "lam < 0, lam is NaN or lam value too large"
    );
    assert_eq!(msg(g.zipf(1.0, 3)), "a <= 1 or a is NaN");
    assert_eq!(msg(g.logseries(1.0, 3)), "p < 0, p >= 1 or p is NaN");
    assert_eq!(
        msg(g.hypergeometric(2i64, 3i64, 6i64, 3)),
        "ngood + nbad < nsample"
    );
    assert_eq!(msg(g.triangular(2.0, 1.0, 3.0, 3)), "left > mode");
    assert_eq!(msg(g.triangular(1.0, 1.0, 1.0, 3)), "left == right");
    assert_eq!(
        msg(g.uniform(-f64::MAX, f64::MAX, 3)),
        "Range exceeds valid bounds"
    );
    // Array parameters are checked on the device.
    let scale = Array::from_vec(vec![1.0f64, -2.0, 3.0]).unwrap();
    assert_eq!(msg(g.normal(0.0, &scale, ())), "scale < 0");
    let p = Array::from_vec(vec![0.5f64, 1.2]).unwrap();
    assert_eq!(msg(g.binomial(5i64, &p, ())), "p < 0, p > 1 or p is NaN");
    // Sizes that the parameters do not broadcast to.
    let loc = Array::from_vec(vec![0.0f64; 3]).unwrap();
    assert!(msg(g.normal(&loc, 1.0, [4])).contains("shape"));
    assert!(msg(g.normal(&loc, 1.0, [2, 3])).starts_with("no error"));
    // Integers.
    assert_eq!(msg(g.integers(5, 5, 3)), "low >= high");
    assert_eq!(
        msg(g.integers_with(0, 300, 3, DType::UInt8, false)),
        "high is out of bounds for uint8"
    );
    assert_eq!(
        msg(g.integers_with(-1, 3, 3, DType::UInt8, false)),
        "low is out of bounds for uint8"
    );
    assert!(msg(g.integers_with(0, 3, 3, DType::Float32, false)).contains("Unsupported dtype"));
    assert!(msg(g.random_with(3, DType::Int32)).contains("Unsupported dtype"));
    // choice.
    assert_eq!(
        msg(g.choice(3, 5, false, None)),
        "Cannot take a larger sample than population when replace is False"
    );
    let bad = Array::from_vec(vec![0.5f64, 0.6]).unwrap();
    assert_eq!(
        msg(g.choice(2, 5, true, Some(&bad))),
        "probabilities do not sum to 1"
    );
    let neg = Array::from_vec(vec![-0.5f64, 1.5]).unwrap();
    assert_eq!(
        msg(g.choice(2, 5, true, Some(&neg))),
        "probabilities are not non-negative"
    );
    assert_eq!(
        msg(g.choice(3, 5, true, Some(&bad))),
        "a and p must have same size"
    );
    assert!(gpu_random::default_rng(-3).is_err());
}
