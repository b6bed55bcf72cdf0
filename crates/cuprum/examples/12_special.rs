//! CuPy's "Special Functions" in Rust: `cupyx.scipy.special` is
//! `cuprum::special`, each function a ufunc (weak scalars, broadcasting,
//! `out=`), usable inside `fuse` and in `ElementwiseKernel`s. The results
//! are checked, not only printed.
//!
//! `cargo run -p cuprum --example 12_special` on a machine with a GPU.

use cuprum::special::{self, fused};
use cuprum::{self as cp, DType, ElementwiseKernel, FVar, fuse};

fn close(got: &[f64], want: &[f64]) {
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "{got:?} vs {want:?}"
        );
    }
}

fn main() -> cp::Result<()> {
    // y = cupyx.scipy.special.erf(x), gammaln(x), j0(x)
    let x = cp::array([0.5, 1.0, 2.0])?;
    close(
        &special::erf(&x)?.to_vec::<f64>()?,
        &[0.5204998778130465, 0.8427007929497149, 0.9953222650189527],
    );
    close(
        &special::gammaln(&x)?.to_vec::<f64>()?,
        &[0.5723649429247001, 0.0, 0.0],
    );
    close(
        &special::j0(&x)?.to_vec::<f64>()?,
        &[0.938469807240813, 0.7651976865579666, 0.22389077914123567],
    );

    // Float32 stays float32; huber(1.0, r) takes a weak scalar.
    let r = cp::array([0.5f32, 3.0])?;
    let h = special::huber(1.0, &r)?;
    assert_eq!(h.dtype(), DType::Float32);
    assert_eq!(h.to_vec::<f32>()?, [0.125, 2.5]);

    // Domain errors are NaN and poles infinities, as SciPy's.
    let edges = special::gamma(&cp::array([0.0, -1.0])?)?.to_vec::<f64>()?;
    assert!(edges[0].is_infinite() && edges[1].is_nan());

    // zeta(x, q) and Riemann's zeta(x).
    let z = special::zeta(&cp::array([2.0])?, None)?.to_vec::<f64>()?;
    close(&z, &[std::f64::consts::PI.powi(2) / 6.0]);

    // @cp.fuse: expit(x) * erf(y) in one kernel.
    let f = fuse("expit_erf", |x: &FVar, y: &FVar| {
        fused::expit(x) * fused::erf(y)
    });
    let y = cp::array([0.1, 0.2, 0.3])?;
    let fz = f.call(&[&x, &y])?.to_vec::<f64>()?;
    let unfused = cp::multiply(special::expit(&x)?, special::erf(&y)?)?.to_vec::<f64>()?;
    close(&fz, &unfused);

    // An ElementwiseKernel calling the device functions by their header.
    let k = ElementwiseKernel::new("T x", "T y", "y = cuprum::special::digamma(x);", "psi")?
        .with_preamble("#include \"cuprum/special/gamma.cuh\"");
    let psi = k.run(&cp::array([1.0])?)?.to_vec::<f64>()?;
    close(&psi, &[-0.5772156649015329]);
    println!("special functions: all checks passed");
    Ok(())
}
