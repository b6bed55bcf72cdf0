//! CuPy's tutorial, "How to write CPU/GPU agnostic code", in Rust.
//!
//! `cp.get_array_module(x)` picks NumPy or CuPy at run time; in Rust the
//! choice is a type. Here one softplus is written once over a small trait
//! implemented for host arrays (ndarray) and device arrays (Cuprum), and
//! `asarray`/`to_ndarray` convert where one side needs the other.
//!
//! `cargo run -p cuprum --example 04_agnostic_code`.

use cuprum as cp;
use ndarray::ArrayD;

/// What softplus needs of an array library.
trait Xp: Sized {
    fn maximum0(&self) -> cp::Result<Self>;
    fn log1p_exp_neg_abs(&self) -> cp::Result<Self>;
    fn add(&self, other: &Self) -> cp::Result<Self>;
}

impl Xp for ArrayD<f64> {
    fn maximum0(&self) -> cp::Result<Self> {
        Ok(self.mapv(|v| v.max(0.0)))
    }
    fn log1p_exp_neg_abs(&self) -> cp::Result<Self> {
        Ok(self.mapv(|v| (-v.abs()).exp().ln_1p()))
    }
    fn add(&self, other: &Self) -> cp::Result<Self> {
        Ok(self + other)
    }
}

impl Xp for cp::Array {
    fn maximum0(&self) -> cp::Result<Self> {
        cp::maximum(self, 0)
    }
    fn log1p_exp_neg_abs(&self) -> cp::Result<Self> {
        cp::log1p(cp::exp(cp::negative(cp::absolute(self)?)?)?)
    }
    fn add(&self, other: &Self) -> cp::Result<Self> {
        cp::add(self, other)
    }
}

/// Stable `log(1 + exp(x))`, on whichever side `x` lives.
fn softplus<A: Xp>(x: &A) -> cp::Result<A> {
    x.maximum0()?.add(&x.log1p_exp_neg_abs()?)
}

fn main() -> cp::Result<()> {
    let x_cpu = ndarray::array![-30.0, -1.0, 0.0, 1.0, 30.0].into_dyn();
    let x_gpu = cp::asarray(&x_cpu)?;
    let on_host = softplus(&x_cpu)?;
    let on_device = softplus(&x_gpu)?.to_ndarray::<f64>()?;
    for (h, d) in on_host.iter().zip(on_device.iter()) {
        assert!((h - d).abs() <= 1e-15 * h.abs().max(1.0), "{h} vs {d}");
    }
    println!("softplus on the host:   {on_host}\nsoftplus on the device: {on_device}");

    // x_gpu + y_cpu is a type error in both: convert one side first.
    let y_cpu = ndarray::array![4i64, 5, 6];
    let x = cp::array([1, 2, 3])?;
    let sum_on_gpu = &x + &cp::asarray(&y_cpu)?;
    let sum_on_cpu = &x.to_ndarray::<i64>()? + &y_cpu.into_dyn();
    assert_eq!(sum_on_gpu.to_vec::<i64>()?, [5, 7, 9]);
    assert_eq!(sum_on_cpu.as_slice().unwrap(), &[5, 7, 9]);
    Ok(())
}
