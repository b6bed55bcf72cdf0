//! CuPy's legacy RandomState on cuRAND and the module functions.

use gpu_array::DType;
use gpu_random::{BitGenerator, Generator, Method, RandomState};

#[test]
fn random_state_draws_and_reproduces() {
    if !super::gpu() {
        return;
    }
    for m in [Method::Xorwow, Method::Mrg32k3a, Method::Philox4x3210] {
        let mut a = RandomState::with_method(7, m).unwrap();
        let mut b = RandomState::with_method(7, m).unwrap();
        let x = a.random_sample(10_001).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(
            x,
            b.random_sample(10_001).unwrap().to_vec::<f64>().unwrap(),
            "{m:?}"
        );
        assert!(x.iter().all(|v| (0.0..1.0).contains(v)), "{m:?}");
        let mean = x.iter().sum::<f64>() / x.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "{m:?}: {mean}");
        let z = a
            .normal_with(1.0, 2.0, 100_001, DType::Float32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_eq!(z.len(), 100_001);
        let zm = z.iter().map(|&v| f64::from(v)).sum::<f64>() / z.len() as f64;
        assert!((zm - 1.0).abs() < 0.05, "{m:?}: {zm}");
        let l = a
            .lognormal(0.0, 0.5, 1001)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert!(l.iter().all(|&v| v > 0.0));
        let k = a.randint(0, 5, 1000).unwrap().to_vec::<i64>().unwrap();
        assert!(k.iter().all(|v| (0..5).contains(v)));
        let r = a
            .random_integers(1, 6, 1000)
            .unwrap()
            .to_vec::<i64>()
            .unwrap();
        assert!(r.iter().all(|v| (1..=6).contains(v)) && r.contains(&6));
        let u = a.uniform(2.0, 3.0, 1000).unwrap().to_vec::<f64>().unwrap();
        assert!(u.iter().all(|v| (2.0..3.0).contains(v)));
        let gm = a.gamma(2.0, 1.0, 1000).unwrap().to_vec::<f64>().unwrap();
        assert!(gm.iter().all(|&v| v > 0.0));
    }
}

#[test]
fn module_functions_use_the_seeded_global_state() {
    if !super::gpu() {
        return;
    }
    gpu_random::seed(42).unwrap();
    let a = gpu_random::rand([3, 4]).unwrap().to_vec::<f64>().unwrap();
    let b = gpu_random::randn(5).unwrap().to_vec::<f64>().unwrap();
    gpu_random::seed(42).unwrap();
    assert_eq!(
        a,
        gpu_random::rand([3, 4]).unwrap().to_vec::<f64>().unwrap()
    );
    assert_eq!(b, gpu_random::randn(5).unwrap().to_vec::<f64>().unwrap());
    let p = gpu_random::poisson(3.0, 100).unwrap();
    assert_eq!(p.dtype(), DType::Int64);
    let c = gpu_random::choice(10, 4, false, None).unwrap();
    assert_eq!(c.shape(), &[4]);
    assert_eq!(
        gpu_random::get_random_state().unwrap(),
        (42, Method::Xorwow)
    );
}

#[test]
fn generators_on_curand_bit_generators() {
    if !super::gpu() {
        return;
    }
    for m in [Method::Xorwow, Method::Mrg32k3a, Method::Philox4x3210] {
        let mut a = Generator::new(BitGenerator::curand(m, 11).unwrap());
        let mut b = Generator::new(BitGenerator::curand(m, 11).unwrap());
        let x = a.random(4097).unwrap().to_vec::<f64>().unwrap();
        assert_eq!(x, b.random(4097).unwrap().to_vec::<f64>().unwrap(), "{m:?}");
        assert!(x.iter().all(|v| (0.0..1.0).contains(v)), "{m:?}");
        let z = a
            .standard_normal_with(10_001, DType::Float32)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_eq!(z.len(), 10_001);
        let loc = gpu_array::creation::full([1001], 5.0, Some(DType::Float64)).unwrap();
        let n = a.normal(&loc, 0.5, ()).unwrap().to_vec::<f64>().unwrap();
        let mean = n.iter().sum::<f64>() / n.len() as f64;
        assert!((mean - 5.0).abs() < 0.1, "{m:?}: {mean}");
        let u = a
            .uniform(-2.0, -1.0, 1001)
            .unwrap()
            .to_vec::<f64>()
            .unwrap();
        assert!(u.iter().all(|v| (-2.0..-1.0).contains(v)), "{m:?}");
        let k = a.integers(0, 3, 100).unwrap().to_vec::<i64>().unwrap();
        assert!(k.iter().all(|v| (0..3).contains(v)));
        assert!(
            a.gamma(2.0, 1.0, 100)
                .unwrap()
                .to_vec::<f64>()
                .unwrap()
                .iter()
                .all(|&v| v > 0.0)
        );
        assert!(matches!(a.state(), Err(gpu_array::Error::Unsupported(_))));
    }
}
