//! The host twin reproduces the GPU bit for bit, and the numbers do not
//! depend on the grid.

use gpu_array::{Array, DType};
use gpu_random::{Generator, Philox, default_rng};

fn bits64(a: &Array) -> Vec<u64> {
    a.to_vec::<f64>()
        .unwrap()
        .into_iter()
        .map(f64::to_bits)
        .collect()
}

fn bits32(a: &Array) -> Vec<u32> {
    a.to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f32::to_bits)
        .collect()
}

fn host64(v: Vec<f64>) -> Vec<u64> {
    v.into_iter().map(f64::to_bits).collect()
}

fn host32(v: Vec<f32>) -> Vec<u32> {
    v.into_iter().map(f32::to_bits).collect()
}

#[test]
fn host_twin_matches_the_gpu_bit_for_bit() {
    if !super::gpu() {
        return;
    }
    for seed in [0u64, 1, 12345, u64::MAX] {
        for n in [1usize, 3, 1001, 4099, 1 << 20] {
            let mut g = Generator::new(Philox::new(seed));
            let mut h = Philox::new(seed);
            assert_eq!(
                bits64(&g.random(n).unwrap()),
                host64(h.host().random_f64(n).unwrap()),
                "random f64 {seed} {n}"
            );
            assert_eq!(
                bits32(&g.random_with(n, DType::Float32).unwrap()),
                host32(h.host().random_f32(n).unwrap()),
                "random f32 {seed} {n}"
            );
            assert_eq!(
                bits64(&g.standard_normal(n).unwrap()),
                host64(h.host().standard_normal_f64(n).unwrap()),
                "normal f64 {seed} {n}"
            );
            assert_eq!(
                bits32(&g.standard_normal_with(n, DType::Float32).unwrap()),
                host32(h.host().standard_normal_f32(n).unwrap()),
                "normal f32 {seed} {n}"
            );
            assert_eq!(
                bits64(&g.uniform(-2.0, 5.0, n).unwrap()),
                host64(h.host().uniform(n, -2.0, 5.0).unwrap()),
                "uniform {seed} {n}"
            );
            assert_eq!(
                bits64(&g.normal(1.5, 3.0, n).unwrap()),
                host64(h.host().normal(n, 1.5, 3.0).unwrap()),
                "normal {seed} {n}"
            );
            for (lo, hi, dt) in [
                (0i128, 10i128, DType::Int64),
                (-5, 3, DType::Int8),
                (0, 1 << 32, DType::UInt32),
                (-(1 << 40), 1 << 40, DType::Int64),
                (0, 1 << 64, DType::UInt64),
                (0, (1 << 63) + 12345, DType::UInt64),
            ] {
                let got: Vec<i128> = match dt {
                    DType::Int8 => g
                        .integers_with(lo, hi, n, dt, false)
                        .unwrap()
                        .to_vec::<i8>()
                        .unwrap()
                        .into_iter()
                        .map(i128::from)
                        .collect(),
                    DType::UInt32 => g
                        .integers_with(lo, hi, n, dt, false)
                        .unwrap()
                        .to_vec::<u32>()
                        .unwrap()
                        .into_iter()
                        .map(i128::from)
                        .collect(),
                    DType::UInt64 => g
                        .integers_with(lo, hi, n, dt, false)
                        .unwrap()
                        .to_vec::<u64>()
                        .unwrap()
                        .into_iter()
                        .map(i128::from)
                        .collect(),
                    _ => g
                        .integers_with(lo, hi, n, dt, false)
                        .unwrap()
                        .to_vec::<i64>()
                        .unwrap()
                        .into_iter()
                        .map(i128::from)
                        .collect(),
                };
                assert_eq!(
                    got,
                    h.host().integers(n, lo, hi).unwrap(),
                    "integers [{lo}, {hi}) {dt} {seed} {n}"
                );
            }
            if n >= gpu_random::SORTED_PERMUTATION_BELOW {
                assert_eq!(
                    g.permutation(n).unwrap().to_vec::<i64>().unwrap(),
                    h.host().permutation(n).unwrap(),
                    "permutation {seed} {n}"
                );
            }
            assert_eq!(g.state().unwrap(), h.state(), "states moved alike");
        }
    }
}

#[test]
fn the_numbers_do_not_depend_on_the_grid() {
    if !super::gpu() {
        return;
    }
    let n = 1 << 22;
    let mut wide = default_rng(99).unwrap();
    let mut narrow = default_rng(99).unwrap().with_grid_cap(3);
    assert_eq!(
        bits32(&wide.random_with(n, DType::Float32).unwrap()),
        bits32(&narrow.random_with(n, DType::Float32).unwrap())
    );
    assert_eq!(
        bits64(&wide.standard_normal(n).unwrap()),
        bits64(&narrow.standard_normal(n).unwrap())
    );
    // float32 normals: three blocks' warps queue their slow elements over
    // thousands of iterations.
    assert_eq!(
        bits32(&wide.standard_normal_with(n + 3, DType::Float32).unwrap()),
        bits32(&narrow.standard_normal_with(n + 3, DType::Float32).unwrap())
    );
    // ... and one block's warps, whose rings wrap hundreds of times and
    // resolve in the loop, against the host twin.
    let mut one = Generator::new(Philox::new(7)).with_grid_cap(1);
    let mut h = Philox::new(7);
    assert_eq!(
        bits32(&one.standard_normal_with(n + 1, DType::Float32).unwrap()),
        host32(h.host().standard_normal_f32(n + 1).unwrap())
    );
    assert_eq!(
        wide.integers(0, 7, n).unwrap().to_vec::<i64>().unwrap(),
        narrow.integers(0, 7, n).unwrap().to_vec::<i64>().unwrap()
    );
    // Samplers: the same numbers whatever the parameters' layout or form.
    let shape = Array::from_vec(vec![0.5f64, 2.0, 7.5]).unwrap();
    let mut a = default_rng(5).unwrap();
    let mut b = default_rng(5).unwrap();
    let ga = a
        .gamma(&shape, 1.0, [1000, 3])
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let big = gpu_array::creation::full([1000, 3], 1.0, Some(DType::Float64)).unwrap();
    let gb = b
        .gamma(&shape, &big, [1000, 3])
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(ga, gb);
    // normal with array parameters draws the same z as with scalars.
    let mut c = default_rng(8).unwrap();
    let mut d = default_rng(8).unwrap();
    let loc = gpu_array::creation::full([4096], 2.0, Some(DType::Float64)).unwrap();
    assert_eq!(
        bits64(&c.normal(2.0, 0.5, 4096).unwrap()),
        bits64(&d.normal(&loc, 0.5, ()).unwrap())
    );
}

#[test]
fn jumped_and_spawned_streams_differ_and_states_replay() {
    if !super::gpu() {
        return;
    }
    let mut g = default_rng(1).unwrap();
    let saved = g.state().unwrap();
    let x = g.random(100).unwrap().to_vec::<f64>().unwrap();
    g.set_state(saved).unwrap();
    assert_eq!(
        g.random(100).unwrap().to_vec::<f64>().unwrap(),
        x,
        "restored state replays"
    );
    let mut j = Generator::new(Philox::new(1).jumped(1));
    assert_ne!(j.random(100).unwrap().to_vec::<f64>().unwrap(), x);
    let mut kids = default_rng(1).unwrap().spawn(2);
    let k0 = kids[0].random(100).unwrap().to_vec::<f64>().unwrap();
    let k1 = kids[1].random(100).unwrap().to_vec::<f64>().unwrap();
    assert!(k0 != k1 && k0 != x);
}
