//! Tier 3 of `gpu_array::optimizing` (CuPy's `cupyx.optimizing.optimize`):
//! reductions of every strategy and elementwise kernels of every layout
//! give inside a scope what they give outside (integers, max/argmax and
//! elementwise results bit for bit; float sums within rounding, since another
//! block size combines in another order), the scope writes its records
//! file, a readonly scope reproduces the tuned results without writing,
//! and the timing launches leave no trace in what the caller sees (outputs
//! read by the kernel, `raw` outputs, outputs overlapping inputs).
//!
//! Each test uses its own key and records file, so the process-wide
//! records of one test never decide another's launches.

use std::path::{Path, PathBuf};

use gpu_array::elementwise::ElementwiseKernel;
use gpu_array::optimizing::{OptimizeConfig, optimize, optimize_scope};
use gpu_array::reduction::ReduceOptions;
use gpu_array::ufunc::{self, UfuncOptions};
use gpu_array::{Array, DType, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::{assert_allclose, assert_array_equal};

/// A fresh folder under the system's temporary one, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let d =
            std::env::temp_dir().join(format!("cuprum-gpu-optimize-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        TempDir(d)
    }

    fn file(&self) -> PathBuf {
        self.0.join("launch_params.txt")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config(tag: &str, dir: &TempDir) -> OptimizeConfig {
    OptimizeConfig::default()
        .key(format!("gpu-test-{tag}"))
        .path(dir.file())
}

/// The records of a file: its lines past the header and comments.
fn records(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut lines = text.lines();
    if let Some(first) = lines.next() {
        assert_eq!(first, "cuprum-launch-params 1");
    }
    lines
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// Seeded values in [-10, 10) with two decimals (never all zero).
fn values(n: usize, seed: u32) -> Vec<f64> {
    let mut x = seed.wrapping_mul(2_654_435_761).max(1);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            f64::from(x % 2000) / 100.0 - 10.0
        })
        .collect()
}

fn f64_array(shape: &[usize], seed: u32) -> Array {
    let n = shape.iter().product();
    Array::from_slice(&values(n, seed), shape).unwrap()
}

fn i64_array(shape: &[usize], seed: u32) -> Array {
    let n = shape.iter().product();
    let v: Vec<i64> = values(n, seed)
        .iter()
        .map(|&x| (x * 100.0) as i64)
        .collect();
    Array::from_slice(&v, shape).unwrap()
}

/// (shape, axes) that plan to each strategy: block per row, warp per row,
/// split columns, columns, two passes.
fn strategy_cases() -> Vec<(Vec<usize>, Option<Vec<isize>>)> {
    vec![
        (vec![300, 5000], Some(vec![1])),
        (vec![20_000, 16], Some(vec![1])),
        (vec![4096, 1000], Some(vec![0])),
        (vec![6, 7, 8], Some(vec![1])),
        (vec![1 << 22], None),
    ]
}

type Op = fn(&Array, &ReduceOptions<'_>) -> gpu_array::Result<Array>;

/// The reductions each case runs: (name, function, exact).
fn ops(dtype: DType) -> Vec<(&'static str, Op, bool)> {
    let mut v: Vec<(&'static str, Op, bool)> = vec![(
        "sum",
        |a, o| gpu_array::math::sum(a, o),
        dtype == DType::Int64,
    )];
    if dtype == DType::Float64 {
        v.push(("argmax", |a, o| gpu_array::sorting::argmax(a, o), true));
        v.push(("var", |a, o| gpu_array::stats::var(a, o), false));
        v.push(("max", |a, o| gpu_array::stats::amax(a, o), true));
    }
    v
}

fn run_all(inputs: &[(Array, ReduceOptions<'static>)], dtype: DType) -> Vec<Array> {
    let mut out = Vec::new();
    for (x, opts) in inputs {
        for (name, op, _) in ops(dtype) {
            out.push(op(x, opts).unwrap_or_else(|e| panic!("{name}: {e}")));
        }
    }
    out
}

fn compare(got: &[Array], want: &[Array], dtype: DType, exact_only: bool) {
    let exact: Vec<bool> = strategy_cases()
        .iter()
        .flat_map(|_| ops(dtype).into_iter().map(|(_, _, e)| e))
        .collect();
    for ((g, w), &e) in got.iter().zip(want).zip(&exact) {
        if e || exact_only {
            assert_array_equal(g, w);
        } else {
            // Another block size sums in another order: rounding only
            // (a full sum of 2^22 values of up to 10 reassociated).
            assert_allclose(g, w, 1e-10, 1e-6);
        }
    }
}

#[test]
fn reductions_inside_optimize_match_outside_and_are_recorded() {
    let Some(_d) = device_or_skip() else { return };
    for (dtype, seed) in [(DType::Float64, 11), (DType::Int64, 12)] {
        let tag = format!("red-{}", dtype.name());
        let dir = TempDir::new(&tag);
        let inputs: Vec<(Array, ReduceOptions<'static>)> = strategy_cases()
            .into_iter()
            .map(|(shape, axis)| {
                let x = match dtype {
                    DType::Int64 => i64_array(&shape, seed),
                    _ => f64_array(&shape, seed),
                };
                (x, ReduceOptions::default().with_axis(axis))
            })
            .collect();
        let outside = run_all(&inputs, dtype);
        let inside = optimize(&config(&tag, &dir), || {
            Ok::<_, gpu_array::Error>(run_all(&inputs, dtype))
        })
        .unwrap();
        compare(&inside, &outside, dtype, false);
        // Outside again: the heuristic's launches, bit for bit.
        compare(&run_all(&inputs, dtype), &outside, dtype, true);

        let recorded = records(&dir.file());
        assert!(
            recorded.len() >= strategy_cases().len(),
            "one record per kernel and shape class at least: {recorded:#?}"
        );
        for r in &recorded {
            let f: Vec<&str> = r.split('\t').collect();
            assert_eq!(f.len(), 6, "{r}");
            assert_eq!(f[0], format!("gpu-test-{tag}"));
            let block: u32 = f[4].parse().unwrap();
            assert!(block.is_multiple_of(32) && block <= 1024, "{r}");
        }
        assert!(recorded.iter().any(|r| r.contains("cuprum_sum")));

        // A readonly scope uses the records (the same launches as the
        // tuned ones, so the same bits) and leaves the file alone, even
        // for a kernel it has no record of.
        let before = std::fs::read(dir.file()).unwrap();
        let g = optimize_scope(&config(&tag, &dir).readonly(true)).unwrap();
        compare(&run_all(&inputs, dtype), &inside, dtype, true);
        let p = gpu_array::math::prod(&inputs[0].0, &inputs[0].1).unwrap();
        g.finish().unwrap();
        assert_array_equal(
            &p,
            &gpu_array::math::prod(&inputs[0].0, &inputs[0].1).unwrap(),
        );
        assert_eq!(std::fs::read(dir.file()).unwrap(), before);
    }
}

#[test]
fn a_readonly_scope_without_records_launches_as_outside() {
    let Some(_d) = device_or_skip() else { return };
    let dir = TempDir::new("ro-empty");
    let x = f64_array(&[257, 3001], 21);
    let opts = ReduceOptions::axis(1);
    let want = gpu_array::math::sum(&x, &opts).unwrap();
    let y = f64_array(&[257, 3001], 22);
    let want_add = ufunc::add(&x, &y).unwrap();
    let cfg = config("ro-empty", &dir).readonly(true);
    let (got, got_add) = optimize(&cfg, || {
        Ok::<_, gpu_array::Error>((gpu_array::math::sum(&x, &opts)?, ufunc::add(&x, &y)?))
    })
    .unwrap();
    assert_array_equal(&got, &want);
    assert_array_equal(&got_add, &want_add);
    assert!(!dir.file().exists(), "a readonly scope writes nothing");
}

#[test]
fn elementwise_inside_optimize_matches_outside_bit_for_bit() {
    let Some(_d) = device_or_skip() else { return };
    let dir = TempDir::new("ew");
    let a = f64_array(&[1 << 20], 31);
    let b = f64_array(&[1 << 20], 32);
    let m = f64_array(&[512, 513], 33);
    let row = f64_array(&[513], 34);
    let calls = || -> gpu_array::Result<Vec<Array>> {
        Ok(vec![
            // Contiguous, vectorised.
            ufunc::add(&a, &b)?,
            ufunc::exp(&a)?,
            // Unaligned by one element: the scalar contiguous loop.
            ufunc::multiply(&a.slice(&s![1..])?, &b.slice(&s![..-1])?)?,
            // Transposed (strided) and broadcast (strided vector).
            ufunc::subtract(m.T(), m.slice(&s![..;-1, ..])?.T())?,
            ufunc::add(&m, &row)?,
            // A cast.
            a.astype(DType::Float32)?,
        ])
    };
    let want = calls().unwrap();
    let got = optimize(&config("ew", &dir), calls).unwrap();
    for (g, w) in got.iter().zip(&want) {
        assert_array_equal(g, w);
    }
    let recorded = records(&dir.file());
    // Elementwise shape classes start with `n` (and the strided ones
    // carry their inner extent, `i`).
    assert!(
        recorded.iter().any(|r| r.split('\t').nth(3) == Some("n20")),
        "{recorded:#?}"
    );
    assert!(
        recorded
            .iter()
            .any(|r| r.split('\t').nth(3).is_some_and(|s| s.contains('i'))),
        "{recorded:#?}"
    );
    // Outside again: unchanged.
    for (g, w) in calls().unwrap().iter().zip(&want) {
        assert_array_equal(g, w);
    }
}

#[test]
fn timing_launches_leave_only_the_final_result() {
    let Some(_d) = device_or_skip() else { return };
    let dir = TempDir::new("trace");
    let cfg = config("trace", &dir).repeats(3).warmup(2);
    let n = 1 << 20;
    let _g = optimize_scope(&cfg).unwrap();

    // A kernel that reads its output: z += x, once.
    let acc = ElementwiseKernel::new("T x", "T z", "z += x", "opt_accumulate").unwrap();
    let z0: Vec<f64> = (0..n).map(|i| i as f64).collect();
    let z = Array::from_slice(&z0, &[n]).unwrap();
    let x = Array::from_slice(&vec![2.0f64; n], &[n]).unwrap();
    acc.call(&[(&x).into()], &[&z], None).unwrap();
    let want: Vec<f64> = z0.iter().map(|v| v + 2.0).collect();
    assert_array_equal(&z, &want);

    // A raw output updated with atomics: the total, once.
    let total_k = ElementwiseKernel::new(
        "int32 x",
        "raw int32 total",
        "atomicAdd(total.data(), x)",
        "opt_atomic_total",
    )
    .unwrap();
    let xs: Vec<i32> = (0..n as i32).map(|i| i % 7 - 3).collect();
    let xi = Array::from_slice(&xs, &[n]).unwrap();
    let total = Array::zeros([1], DType::Int32).unwrap();
    total_k.call(&[(&xi).into()], &[&total], None).unwrap();
    assert_array_equal(&total, &[xs.iter().sum::<i32>()]);

    // An output that is an input: add(a, b, out=a), once.
    let a0 = values(n, 41);
    let b0 = values(n, 42);
    let a = Array::from_slice(&a0, &[n]).unwrap();
    let b = Array::from_slice(&b0, &[n]).unwrap();
    ufunc::call(
        ufunc::get("add").unwrap(),
        &[(&a).into(), (&b).into()],
        &UfuncOptions::default().out(&[&a]),
    )
    .unwrap();
    let want: Vec<f64> = a0.iter().zip(&b0).map(|(x, y)| x + y).collect();
    assert_array_equal(&a, &want);

    // A reduction whose output is a column of its input: each row's sum
    // of the original row, the rest untouched.
    let (rows, cols) = (512usize, 4096usize);
    let h: Vec<i64> = (0..rows * cols).map(|i| (i % 1013) as i64 - 500).collect();
    let m = Array::from_slice(&h, &[rows, cols]).unwrap();
    let col = m.slice(&s![.., 0]).unwrap();
    gpu_array::math::sum(&m, ReduceOptions::axis(1).out(&col)).unwrap();
    let mut want = h.clone();
    for r in 0..rows {
        want[r * cols] = h[r * cols..(r + 1) * cols].iter().sum();
    }
    assert_array_equal(&m.ravel().unwrap(), &want);
    drop(_g);
    assert!(
        !records(&dir.file()).is_empty(),
        "the scope measured these kernels"
    );
}

#[test]
fn the_scope_is_the_threads_own_and_needs_synchronization() {
    let Some(d) = device_or_skip() else { return };
    let dir = TempDir::new("thread");
    // Made (and reduced once, compiling the heuristic's kernel) before the
    // scope: the copies wait for the device.
    let x = f64_array(&[5, 66_666], 52);
    let want = gpu_array::math::sum(&x, ReduceOptions::axis(1)).unwrap();
    let g = optimize_scope(&config("thread", &dir)).unwrap();
    // Another thread launches outside any scope: nothing is measured.
    std::thread::spawn(move || {
        let _dev = d.scoped().unwrap();
        let y = f64_array(&[3, 77_777], 51);
        gpu_array::math::sum(&y, ReduceOptions::axis(1)).unwrap();
        ufunc::add(&y, &y).unwrap();
    })
    .join()
    .unwrap();
    // Inside allow_synchronize(false) nothing is measured either: the
    // launch takes the heuristic's parameters.
    let s = gpu_runtime::allow_synchronize(false);
    let r = gpu_array::math::sum(&x, ReduceOptions::axis(1)).unwrap();
    drop(s);
    g.finish().unwrap();
    assert_array_equal(&r, &want);
    assert!(
        !dir.file().exists(),
        "nothing measured, nothing written: {:?}",
        records(&dir.file())
    );
}
