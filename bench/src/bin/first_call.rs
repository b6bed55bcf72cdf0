//! first-call: host time of the first call of a built-in op in a fresh
//! process (`add` of two float32 arrays), with whatever kernel cache
//! `CUPRUM_CACHE_DIR` names: a folder filled by `cargo xtask precompile`
//! (warm) or an empty one (cold). Device set-up and the inputs' upload are
//! done before the clock starts; the figure includes finding, loading (and
//! for a cold cache compiling) the kernel, and the launch.

use std::process::ExitCode;
use std::time::Instant;

use gpu_array::{Array, ufunc};

fn main() -> ExitCode {
    let run = || -> Result<(f64, f64), gpu_array::Error> {
        let a = Array::from_slice(&[1.0f32; 1024], &[1024])?;
        let b = Array::from_slice(&[2.0f32; 1024], &[1024])?;
        a.stream().synchronize()?;
        let t = Instant::now();
        let c = ufunc::add(&a, &b)?;
        c.stream().synchronize()?;
        let first = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let d = ufunc::add(&a, &b)?;
        d.stream().synchronize()?;
        let second = t.elapsed().as_secs_f64() * 1e3;
        assert_eq!(c.to_vec::<f32>()?, vec![3.0f32; 1024]);
        Ok((first, second))
    };
    match run() {
        Ok((first, second)) => {
            println!(
                "{{\"first_call_ms\": {first:.3}, \"second_call_ms\": {second:.3}, \"cache\": \"{}\"}}",
                std::env::var("CUPRUM_CACHE_DIR").unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("first-call: {e}");
            ExitCode::FAILURE
        }
    }
}
