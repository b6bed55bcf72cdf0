//! Timing helpers: CUDA-event medians for GPU work, wall-clock medians for
//! host overheads.

use std::time::Instant;

use gpu_runtime::{Event, EventOptions, Result, Stream};

/// Median of `xs` (sorts it).
pub fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// Median GPU milliseconds of `f` on `stream`, bracketed by events, after
/// `warmup` untimed calls.
pub fn gpu_ms(
    stream: &Stream,
    warmup: usize,
    reps: usize,
    mut f: impl FnMut() -> Result<()>,
) -> Result<f64> {
    for _ in 0..warmup {
        f()?;
    }
    stream.synchronize()?;
    let start = Event::new(EventOptions::default())?;
    let end = Event::new(EventOptions::default())?;
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        start.record(stream)?;
        f()?;
        end.record(stream)?;
        end.synchronize()?;
        times.push(Event::elapsed_time(&start, &end)? as f64);
    }
    Ok(median(&mut times))
}

/// Median host microseconds per call of `f`, over `reps` batches of `inner` calls.
pub fn host_us(inner: usize, reps: usize, f: impl FnMut() -> Result<()>) -> Result<f64> {
    host_us_batched(inner, reps, f, || Ok(()))
}

/// Like [`host_us`], running `between` (untimed) after each batch: launch
/// timings synchronize there, so that a full launch queue, which would make
/// the host wait for the GPU, never enters the figure.
pub fn host_us_batched(
    inner: usize,
    reps: usize,
    mut f: impl FnMut() -> Result<()>,
    mut between: impl FnMut() -> Result<()>,
) -> Result<f64> {
    for _ in 0..inner.div_ceil(10) {
        f()?;
    }
    between()?;
    let mut per = Vec::with_capacity(reps);
    for _ in 0..reps {
        let t = Instant::now();
        for _ in 0..inner {
            f()?;
        }
        per.push(t.elapsed().as_secs_f64() * 1e6 / inner as f64);
        between()?;
    }
    Ok(median(&mut per))
}
