//! cuprum-bench: fixed GPU workloads, one line each.
//!
//! `cuprum-bench [--json] [--only NAME,NAME]`. Prints, per workload, the
//! median GPU time from CUDA events after warm-up (or host time per call for
//! overhead workloads) and the bandwidth. `bench/cupy_bench.py` runs this
//! binary and the same workloads through CuPy and prints them side by side;
//! names must match between the two files.

mod array_workloads;
mod fft_workloads;
mod linalg_workloads;
mod ndimage_workloads;
mod random_workloads;
mod signal_workloads;
mod sort_workloads;
mod sparse_workloads;
mod special_workloads;
mod stats_workloads;
mod timing;
mod workloads;

use std::process::ExitCode;

/// One result line.
#[derive(Debug)]
pub struct Record {
    /// Workload name, shared with cupy_bench.py.
    pub name: &'static str,
    /// "us" or "ms".
    pub unit: &'static str,
    /// Median time in `unit`.
    pub median: f64,
    /// Bandwidth or FLOP rate, if meaningful.
    pub rate: Option<f64>,
    /// "GB/s" or "TFLOP/s".
    pub rate_unit: Option<&'static str>,
    /// "gpu" (CUDA events) or "host" (wall clock per call).
    pub what: &'static str,
}

impl Record {
    fn json(&self) -> String {
        let opt = |v: Option<f64>| v.map_or("null".to_string(), |v| format!("{v}"));
        let opt_s = |v: Option<&str>| v.map_or("null".to_string(), |v| format!("\"{v}\""));
        format!(
            "{{\"name\": \"{}\", \"unit\": \"{}\", \"median\": {}, \"rate\": {}, \"rate_unit\": {}, \"what\": \"{}\"}}",
            self.name,
            self.unit,
            self.median,
            opt(self.rate),
            opt_s(self.rate_unit),
            self.what
        )
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let only: Vec<String> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|s| {
            // Names holding commas ("where(a>0,a,b)") are listed with ';'.
            let sep = if s.contains(';') { ';' } else { ',' };
            s.split(sep).map(str::to_string).collect()
        })
        .unwrap_or_default();
    let dev = match gpu_runtime::Device::current() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("cuprum-bench: no GPU: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = false;
    // Probe rows (diagnostics of one kernel's parts) run only when named.
    let probes = special_workloads::probes::all()
        .into_iter()
        .filter(|(name, _)| only.iter().any(|o| o == name));
    for (name, run) in workloads::all().into_iter().chain(probes) {
        if !only.is_empty() && !only.iter().any(|o| o == name) {
            continue;
        }
        match run(dev) {
            Ok(r) if json => println!("{}", r.json()),
            Ok(r) => println!(
                "{:<28} {:>10.3} {:<2} {}",
                r.name,
                r.median,
                r.unit,
                r.rate.map_or(String::new(), |v| format!(
                    "{v:.1} {}",
                    r.rate_unit.unwrap_or("")
                ))
            ),
            Err(e) => {
                failed = true;
                eprintln!("{name}: {e}");
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
