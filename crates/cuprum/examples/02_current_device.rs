//! CuPy's tutorial, "Current Device", in Rust.
//!
//! `cargo run -p cuprum --example 02_current_device`. The steps that need
//! a second GPU run when there is one.

use cuprum::{self as cp, cuda::Device};

fn main() -> cp::Result<()> {
    // x_on_gpu0 = cp.array([1, 2, 3, 4, 5])
    let x_on_gpu0 = cp::array([1, 2, 3, 4, 5])?;
    assert_eq!(x_on_gpu0.device(), Device::new(0)?);

    let n = Device::count()?;
    println!("{n} device(s); current: {}", Device::current()?);
    if n < 2 {
        // cp.cuda.Device(0).use(): a lasting switch, here to the same device.
        Device::new(0)?.use_device()?;
        // with cp.cuda.Device(0): a scoped switch.
        {
            let _on = Device::new(0)?.scoped()?;
            let x = cp::array([1, 2, 3, 4, 5])?;
            println!("x.device = {}", x.device());
        }
        println!("one device: the steps across devices are skipped");
        return Ok(());
    }
    // cp.cuda.Device(1).use()
    Device::new(1)?.use_device()?;
    let x_on_gpu1 = cp::array([1, 2, 3, 4, 5])?;
    assert_eq!(x_on_gpu1.device(), Device::new(1)?);
    Device::new(0)?.use_device()?;
    // with cp.cuda.Device(1): x_on_gpu1 = cp.array([1, 2, 3, 4, 5])
    {
        let _on = Device::new(1)?.scoped()?;
        let x = cp::array([1, 2, 3, 4, 5])?;
        assert_eq!(x.device(), Device::new(1)?);
    }
    assert_eq!(Device::current()?, Device::new(0)?);
    // An array works on its own device whichever is current; mixing devices
    // is the error CuPy raises for a non-current array.
    let err = cp::add(&x_on_gpu0, &x_on_gpu1).unwrap_err();
    println!("mixing devices: {err}");
    assert!(matches!(err, cp::Error::DeviceMismatch { .. }));
    Ok(())
}
