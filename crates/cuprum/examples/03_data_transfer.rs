//! CuPy's tutorial, "Data Transfer", in Rust: host to device, device to
//! host, device to device.
//!
//! `cargo run -p cuprum --example 03_data_transfer`.

use cuprum::{self as cp, cuda::Device};

fn main() -> cp::Result<()> {
    // x_cpu = np.array([1, 2, 3]); x_gpu = cp.asarray(x_cpu)
    let x_cpu = ndarray::array![1i64, 2, 3];
    let x_gpu = cp::asarray(&x_cpu)?;
    // asarray of an array already on the device shares it (no copy).
    let same = cp::asarray(&x_gpu)?;
    assert_eq!(same.data_ptr(), x_gpu.data_ptr());
    // cp.array(x_gpu) copies.
    let copied = cp::array(&x_gpu)?;
    assert_ne!(copied.data_ptr(), x_gpu.data_ptr());

    // x_cpu = cp.asnumpy(x_gpu), or x_gpu.get()
    let back = x_gpu.to_ndarray::<i64>()?;
    assert_eq!(back.as_slice().unwrap(), &[1, 2, 3]);
    let as_f32: Vec<f32> = x_gpu.to_vec_as()?;
    assert_eq!(as_f32, [1.0, 2.0, 3.0]);
    println!("to the GPU and back: {back}");

    // Device to device: with cp.cuda.Device(1): x_gpu_1 = cp.asarray(x_gpu_0)
    let target = Device::new(Device::count()? as i32 - 1)?;
    let moved = x_gpu.to_device(target)?;
    assert_eq!(moved.to_vec::<i64>()?, [1, 2, 3]);
    println!("on {}: {moved}", moved.device());
    Ok(())
}
