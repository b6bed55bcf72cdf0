//! CuPy's tutorial, "Interoperability", in Rust, as far as Cuprum goes
//! today: ndarray in and out, `.npy` files, raw device pointers for other
//! CUDA code, and a foreign stream. DLPack and `__cuda_array_interface__`
//! are not in yet (the interop issue).
//!
//! `cargo run -p cuprum --example 10_interop`.

use cuprum::{self as cp, cuda::Stream};

fn main() -> cp::Result<()> {
    // ndarray <-> device.
    let host = ndarray::Array2::from_shape_fn((2, 3), |(i, j)| (i * 3 + j) as f64);
    let x = cp::asarray(&host)?;
    let back: ndarray::ArrayD<f64> = x.to_ndarray()?;
    assert_eq!(back, host.into_dyn());

    // .npy round trip (NumPy reads the file).
    let path = std::env::temp_dir().join("cuprum_10_interop.npy");
    x.save_npy(&path)?; // np.save
    let loaded = cp::Array::load_npy(&path)?; // np.load
    assert_eq!(loaded.to_vec::<f64>()?, x.to_vec::<f64>()?);
    std::fs::remove_file(&path).ok();

    // The device pointer, for code that takes one (cuBLAS, a C library).
    println!(
        "data at {:#x}, {} bytes, strides {:?}",
        x.data_ptr().0,
        x.nbytes(),
        x.strides()
    );

    // Work queued on a stream made elsewhere (here: by us, passed by handle).
    let s = Stream::new()?;
    let y = {
        let _on = s.use_stream();
        &x * 2.0
    };
    s.synchronize()?;
    assert_eq!(y.to_vec::<f64>()?, [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    Ok(())
}
