//! Each distribution against its CDF (Kolmogorov-Smirnov) or pmf
//! (chi-square), with fixed seeds. The thresholds make a false failure
//! rarer than 1e-6: sqrt(n) D > 2.7 (the asymptotic Kolmogorov tail,
//! 2 exp(-2 t^2) = 9e-7) and a chi-square p-value below 1e-7; a mean more
//! than 5.5 standard errors off (p = 4e-8) fails too.

use gpu_array::{Array, DType};
use gpu_random::{Generator, default_rng};
use statrs::distribution::{
    Beta, Binomial, Cauchy, ChiSquared, ContinuousCDF, Discrete, FisherSnedecor, Gamma,
    Hypergeometric, Laplace, LogNormal, NegativeBinomial, Normal, Poisson, StudentsT,
};

const N: usize = 200_000;

fn rng(seed: u64) -> Generator {
    default_rng(seed).unwrap()
}

fn f64s(a: gpu_array::Result<Array>) -> Vec<f64> {
    a.unwrap()
        .astype(DType::Float64)
        .unwrap()
        .to_vec::<f64>()
        .unwrap()
}

fn i64s(a: gpu_array::Result<Array>) -> Vec<i64> {
    a.unwrap().to_vec::<i64>().unwrap()
}

/// sqrt(n) times the Kolmogorov-Smirnov distance of `x` from `cdf`.
fn ks(name: &str, mut x: Vec<f64>, cdf: impl Fn(f64) -> f64) {
    assert!(x.iter().all(|v| v.is_finite()), "{name}: non-finite draws");
    x.sort_by(f64::total_cmp);
    let n = x.len() as f64;
    let d = x
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let f = cdf(v);
            (f - i as f64 / n).abs().max((f - (i + 1) as f64 / n).abs())
        })
        .fold(0.0, f64::max);
    let t = d * n.sqrt();
    println!("{name}: sqrt(n) D = {t:.3}");
    assert!(t < 2.7, "{name}: sqrt(n) D = {t}");
}

/// A chi-square test of integer draws against `pmf`, bins with fewer
/// than 5 expected merged into their neighbours (and the tails).
fn chi2(name: &str, x: &[i64], pmf: impl Fn(i64) -> f64) {
    let (lo, hi) = (*x.iter().min().unwrap(), *x.iter().max().unwrap());
    let n = x.len() as f64;
    let mut counts = std::collections::HashMap::new();
    for &v in x {
        *counts.entry(v).or_insert(0.0) += 1.0;
    }
    // Bins over [lo, hi]; the mass outside goes to the end bins.
    let mut bins: Vec<(f64, f64)> = Vec::new(); // (observed, expected)
    let mut cur = (0.0, 0.0);
    let below: f64 = (lo - 200..lo).map(&pmf).sum::<f64>();
    cur.1 += below;
    let mut total = below;
    for k in lo..=hi {
        let e = pmf(k) * n;
        cur.0 += counts.get(&k).copied().unwrap_or(0.0);
        cur.1 += e;
        total += pmf(k);
        if cur.1 >= 5.0 {
            bins.push(cur);
            cur = (0.0, 0.0);
        }
    }
    cur.1 += (1.0 - total).max(0.0) * n;
    if let Some(last) = bins.last_mut() {
        last.0 += cur.0;
        last.1 += cur.1;
    }
    let stat: f64 = bins.iter().map(|&(o, e)| (o - e) * (o - e) / e).sum();
    let dof = (bins.len() as f64 - 1.0).max(1.0);
    let p = 1.0 - ChiSquared::new(dof).unwrap().cdf(stat);
    println!("{name}: chi2 = {stat:.1} on {dof} dof, p = {p:.3e}");
    assert!(p > 1e-7, "{name}: chi2 = {stat} on {dof} dof, p = {p}");
}

fn mean_near(name: &str, x: &[f64], mean: f64, var: f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let z = (m - mean) / (var / n).sqrt();
    println!("{name}: mean {m} (want {mean}), z = {z:.2}");
    assert!(z.abs() < 5.5, "{name}: mean {m}, want {mean} (z = {z})");
    let v = x.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / (n - 1.0);
    assert!(
        (v / var - 1.0).abs() < 0.1,
        "{name}: variance {v}, want {var}"
    );
}

#[test]
fn uniform_normal_and_integers() {
    if !super::gpu() {
        return;
    }
    let mut g = rng(11);
    ks("random f64", f64s(g.random(N)), |x| x.clamp(0.0, 1.0));
    ks("random f32", f64s(g.random_with(N, DType::Float32)), |x| {
        x.clamp(0.0, 1.0)
    });
    ks("uniform(-1, 3)", f64s(g.uniform(-1.0, 3.0, N)), |x| {
        ((x + 1.0) / 4.0).clamp(0.0, 1.0)
    });
    let std = Normal::new(0.0, 1.0).unwrap();
    ks("standard_normal f64", f64s(g.standard_normal(N)), |x| {
        std.cdf(x)
    });
    ks(
        "standard_normal f32",
        f64s(g.standard_normal_with(N, DType::Float32)),
        |x| std.cdf(x),
    );
    let nn = Normal::new(2.0, 3.0).unwrap();
    ks("normal(2, 3)", f64s(g.normal(2.0, 3.0, N)), |x| nn.cdf(x));
    let lo = Array::from_vec(vec![-3i64, 0, 6]).unwrap();
    let b = i64s(g.integers_between(&lo, 7i64, [N / 3, 3], false));
    let first: Vec<i64> = b.chunks(3).map(|c| c[0]).collect();
    chi2("integers_between(-3, 7)", &first, |v| {
        if (-3..7).contains(&v) { 0.1 } else { 0.0 }
    });
    assert!(b.chunks(3).all(|c| (0..7).contains(&c[1]) && c[2] == 6));
    let hi = Array::from_vec(vec![5i64, 9]).unwrap();
    let c = i64s(g.integers_between(5i64, &hi, [1000, 2], true));
    assert!(c.chunks(2).all(|p| p[0] == 5 && (5..=9).contains(&p[1])));
    let bad = Array::from_vec(vec![-3i64, 100]).unwrap();
    assert!(
        g.integers_between(&bad, 50i64, (), false).is_err(),
        "100 >= 50 must fail"
    );
    let k = i64s(g.integers(-3, 7, N));
    chi2("integers(-3, 7)", &k, |v| {
        if (-3..7).contains(&v) { 0.1 } else { 0.0 }
    });
    // [0, 2^63]: 2^63 + 1 values, where Lemire rejects about half the
    // candidates; a modulo or a multiply without rejection would skew
    // the eighths of the range.
    let big = g
        .integers_with(0, (1 << 63) + 1, N, DType::UInt64, false)
        .unwrap()
        .to_vec::<u64>()
        .unwrap();
    let eighths: Vec<i64> = big.iter().map(|&v| (v >> 60) as i64).collect();
    chi2("integers [0, 2^63] by eighths", &eighths, |k| {
        if (0..8).contains(&k) { 0.125 } else { 0.0 }
    });
    let small = f64s(g.standard_normal(1 << 24));
    let far = small.iter().filter(|v| v.abs() > 4.0).count() as f64;
    let want = 2.0 * (1.0 - std.cdf(4.0)) * (1 << 24) as f64;
    assert!(
        (far - want).abs() < 6.0 * want.sqrt(),
        "normal tails: {far} beyond 4, want {want}"
    );
}

#[test]
fn continuous_distributions() {
    if !super::gpu() {
        return;
    }
    let mut g = rng(21);
    ks("exponential(2)", f64s(g.exponential(2.0, N)), |x| {
        1.0 - (-x / 2.0).exp()
    });
    for (shape, scale) in [(0.5, 1.0), (3.0, 2.0), (40.0, 0.5)] {
        let d = Gamma::new(shape, 1.0 / scale).unwrap();
        ks(
            &format!("gamma({shape}, {scale})"),
            f64s(g.gamma(shape, scale, N)),
            |x| d.cdf(x),
        );
    }
    // A tiny shape: most of the mass sits below 1e-100. The CDF by its
    // series x^a / Gamma(a) sum (-x)^k / (k! (a + k)) (DLMF 8.7.1) below
    // 5; statrs's regularized gamma is not accurate this far down.
    let a = 0.01f64;
    let lg = statrs::function::gamma::ln_gamma(a);
    let d = Gamma::new(a, 1.0).unwrap();
    ks("gamma(0.01)", f64s(g.standard_gamma(a, N)), |x| {
        if x <= 0.0 {
            return 0.0;
        }
        if x >= 5.0 {
            return d.cdf(x);
        }
        let (mut term, mut sum) = (1.0f64, 0.0f64);
        for k in 0..200 {
            sum += term / (a + k as f64);
            term *= -x / (k as f64 + 1.0);
        }
        (a * x.ln() - lg).exp() * sum
    });
    for (a, b) in [(0.5, 0.5), (2.0, 5.0), (0.1, 3.0), (50.0, 20.0)] {
        let d = Beta::new(a, b).unwrap();
        ks(&format!("beta({a}, {b})"), f64s(g.beta(a, b, N)), |x| {
            d.cdf(x)
        });
    }
    let d = ChiSquared::new(3.0).unwrap();
    ks("chisquare(3)", f64s(g.chisquare(3.0, N)), |x| d.cdf(x));
    let d = FisherSnedecor::new(5.0, 10.0).unwrap();
    ks("f(5, 10)", f64s(g.f(5.0, 10.0, N)), |x| d.cdf(x));
    let d = StudentsT::new(0.0, 1.0, 4.0).unwrap();
    ks("standard_t(4)", f64s(g.standard_t(4.0, N)), |x| d.cdf(x));
    let d = Cauchy::new(0.0, 1.0).unwrap();
    ks("standard_cauchy", f64s(g.standard_cauchy(N)), |x| d.cdf(x));
    let d = LogNormal::new(0.5, 0.8).unwrap();
    ks("lognormal(0.5, 0.8)", f64s(g.lognormal(0.5, 0.8, N)), |x| {
        d.cdf(x)
    });
    let d = Laplace::new(1.0, 2.0).unwrap();
    ks("laplace(1, 2)", f64s(g.laplace(1.0, 2.0, N)), |x| d.cdf(x));
    ks("gumbel(0.5, 2)", f64s(g.gumbel(0.5, 2.0, N)), |x| {
        (-(-(x - 0.5) / 2.0).exp()).exp()
    });
    ks("logistic(0, 1.5)", f64s(g.logistic(0.0, 1.5, N)), |x| {
        1.0 / (1.0 + (-x / 1.5).exp())
    });
    ks("pareto(3)", f64s(g.pareto(3.0, N)), |x| {
        1.0 - (1.0 + x).powf(-3.0)
    });
    ks("power(2.5)", f64s(g.power(2.5, N)), |x| {
        x.clamp(0.0, 1.0).powf(2.5)
    });
    ks("rayleigh(2)", f64s(g.rayleigh(2.0, N)), |x| {
        1.0 - (-x * x / 8.0).exp()
    });
    ks("weibull(1.5)", f64s(g.weibull(1.5, N)), |x| {
        1.0 - (-x.max(0.0).powf(1.5)).exp()
    });
    ks(
        "triangular(0, 1, 3)",
        f64s(g.triangular(0.0, 1.0, 3.0, N)),
        |x| {
            if x <= 1.0 {
                x * x / 3.0
            } else {
                1.0 - (3.0 - x) * (3.0 - x) / 6.0
            }
        },
    );
    let std = Normal::new(0.0, 1.0).unwrap();
    let (mu, lam) = (1.0, 2.0);
    ks("wald(1, 2)", f64s(g.wald(mu, lam, N)), |x| {
        let s = (lam / x).sqrt();
        std.cdf(s * (x / mu - 1.0)) + (2.0 * lam / mu).exp() * std.cdf(-s * (x / mu + 1.0))
    });
    // von Mises(0.3, 2): the CDF by Simpson's rule on the density.
    let (m, k) = (0.3f64, 2.0f64);
    let grid = 20_000;
    let h = 2.0 * std::f64::consts::PI / grid as f64;
    let dens = |t: f64| (k * (t - m).cos()).exp();
    let mut cum = vec![0.0; grid + 1];
    for i in 0..grid {
        let a = -std::f64::consts::PI + i as f64 * h;
        cum[i + 1] = cum[i] + h / 6.0 * (dens(a) + 4.0 * dens(a + h / 2.0) + dens(a + h));
    }
    let total = cum[grid];
    ks("vonmises(0.3, 2)", f64s(g.vonmises(m, k, N)), |x| {
        let p = ((x + std::f64::consts::PI) / h).clamp(0.0, grid as f64);
        let i = (p as usize).min(grid - 1);
        (cum[i] + (cum[i + 1] - cum[i]) * (p - i as f64)) / total
    });
    let x = f64s(g.noncentral_chisquare(3.0, 2.0, N));
    mean_near("noncentral_chisquare(3, 2)", &x, 5.0, 2.0 * (3.0 + 4.0));
    let x = f64s(g.noncentral_f(5.0, 20.0, 3.0, N));
    let mean = 20.0 * (5.0 + 3.0) / (5.0 * 18.0);
    let var = 2.0 * (20.0f64 / 5.0).powi(2) * ((5.0 + 3.0f64).powi(2) + (5.0 + 6.0) * 18.0)
        / (18.0f64.powi(2) * 16.0);
    mean_near("noncentral_f(5, 20, 3)", &x, mean, var);
}

#[test]
fn discrete_distributions() {
    if !super::gpu() {
        return;
    }
    let mut g = rng(31);
    for lam in [0.7, 4.5, 30.0, 1000.0] {
        let d = Poisson::new(lam).unwrap();
        chi2(&format!("poisson({lam})"), &i64s(g.poisson(lam, N)), |k| {
            if k < 0 { 0.0 } else { d.pmf(k as u64) }
        });
    }
    let big: Vec<f64> = i64s(g.poisson(1e12, N))
        .into_iter()
        .map(|v| v as f64)
        .collect();
    mean_near("poisson(1e12)", &big, 1e12, 1e12);
    for (n, p) in [(100u64, 0.3), (10, 0.05), (2000, 0.6), (1, 0.5)] {
        let d = Binomial::new(p, n).unwrap();
        chi2(
            &format!("binomial({n}, {p})"),
            &i64s(g.binomial(n as i64, p, N)),
            |k| {
                if k < 0 { 0.0 } else { d.pmf(k as u64) }
            },
        );
    }
    let huge: Vec<f64> = i64s(g.binomial(1i64 << 40, 0.25, N))
        .into_iter()
        .map(|v| v as f64)
        .collect();
    let nn = (1u64 << 40) as f64;
    mean_near("binomial(2^40, 0.25)", &huge, nn * 0.25, nn * 0.25 * 0.75);
    let d = NegativeBinomial::new(5.0, 0.3).unwrap();
    chi2(
        "negative_binomial(5, 0.3)",
        &i64s(g.negative_binomial(5.0, 0.3, N)),
        |k| if k < 0 { 0.0 } else { d.pmf(k as u64) },
    );
    for p in [0.2, 0.7] {
        chi2(&format!("geometric({p})"), &i64s(g.geometric(p, N)), |k| {
            if k < 1 {
                0.0
            } else {
                (1.0f64 - p).powi(k as i32 - 1) * p
            }
        });
    }
    for (good, bad, ns) in [(20u64, 30u64, 15u64), (500, 700, 300), (5, 1000, 8)] {
        let d = Hypergeometric::new(good + bad, good, ns).unwrap();
        chi2(
            &format!("hypergeometric({good}, {bad}, {ns})"),
            &i64s(g.hypergeometric(good as i64, bad as i64, ns as i64, N)),
            |k| if k < 0 { 0.0 } else { d.pmf(k as u64) },
        );
    }
    for p in [0.6, 0.99] {
        let c = -1.0 / (1.0f64 - p).ln();
        chi2(&format!("logseries({p})"), &i64s(g.logseries(p, N)), |k| {
            if k < 1 {
                0.0
            } else {
                c * p.powi(k as i32) / k as f64
            }
        });
    }
    let zeta25 = 1.341_487_257_250_917;
    chi2("zipf(2.5)", &i64s(g.zipf(2.5, N)), |k| {
        if k < 1 {
            0.0
        } else {
            (k as f64).powf(-2.5) / zeta25
        }
    });
}

#[test]
fn edge_parameters() {
    if !super::gpu() {
        return;
    }
    let mut g = rng(41);
    assert!(i64s(g.binomial(10i64, 0.0, 1000)).iter().all(|&v| v == 0));
    assert!(i64s(g.binomial(10i64, 1.0, 1000)).iter().all(|&v| v == 10));
    assert!(i64s(g.binomial(0i64, 0.5, 1000)).iter().all(|&v| v == 0));
    assert!(i64s(g.poisson(0.0, 1000)).iter().all(|&v| v == 0));
    assert!(i64s(g.geometric(1.0, 1000)).iter().all(|&v| v == 1));
    assert!(i64s(g.logseries(0.0, 1000)).iter().all(|&v| v == 1));
    assert!(f64s(g.gamma(0.0, 1.0, 1000)).iter().all(|&v| v == 0.0));
    assert!(f64s(g.exponential(0.0, 1000)).iter().all(|&v| v == 0.0));
    assert!(f64s(g.weibull(0.0, 1000)).iter().all(|&v| v == 0.0));
    let tiny = f64s(g.standard_gamma(1e-300, 1000));
    assert!(tiny.iter().all(|&v| v >= 0.0 && v.is_finite()));
    let hyper = i64s(g.hypergeometric(10i64, 0i64, 7i64, 1000));
    assert!(hyper.iter().all(|&v| v == 7));
    // Heavy and light extremes terminate.
    assert!(
        f64s(g.vonmises(0.0, 1e-12, 1000))
            .iter()
            .all(|v| v.abs() <= std::f64::consts::PI)
    );
    assert!(
        f64s(g.vonmises(1.0, 1e12, 1000))
            .iter()
            .all(|v| (v - 1.0).abs() < 1e-4)
    );
    assert!(i64s(g.zipf(1.0000001, 1000)).iter().all(|&v| v >= 1));
    // Multivariate draws.
    let d = g.dirichlet(&[0.5, 1.0, 2.0], [1000]).unwrap();
    assert_eq!(d.shape(), &[1000, 3]);
    let s = gpu_array::math::sum(&d, gpu_array::reduction::ReduceOptions::axis(1))
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert!(s.iter().all(|v| (v - 1.0).abs() < 1e-12));
    let m = g.multinomial(20, &[0.2, 0.3, 0.5], [500]).unwrap();
    let ms = gpu_array::math::sum(&m, gpu_array::reduction::ReduceOptions::axis(1))
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    assert!(ms.iter().all(|&v| v == 20));
    let mean = Array::from_vec(vec![1.0f64, -2.0]).unwrap();
    let cov = Array::from_vec(vec![2.0f64, 0.6, 0.6, 0.5])
        .unwrap()
        .reshape([2, 2])
        .unwrap();
    let mv = g
        .multivariate_normal(&mean, &cov, [N])
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let (xs, ys): (Vec<f64>, Vec<f64>) = mv.chunks(2).map(|c| (c[0], c[1])).unzip();
    mean_near("multivariate_normal x", &xs, 1.0, 2.0);
    mean_near("multivariate_normal y", &ys, -2.0, 0.5);
    let cxy = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (x - 1.0) * (y + 2.0))
        .sum::<f64>()
        / N as f64;
    assert!((cxy - 0.6).abs() < 0.03, "covariance {cxy}");
    let h = g
        .multivariate_hypergeometric(&[5, 10, 15], 12, [500])
        .unwrap();
    let hv = h.to_vec::<i64>().unwrap();
    assert!(
        hv.chunks(3)
            .all(|c| c.iter().sum::<i64>() == 12 && c[0] <= 5 && c[1] <= 10)
    );
}

#[test]
fn permutations_and_choice() {
    if !super::gpu() {
        return;
    }
    let mut g = rng(51);
    let mut p = i64s(g.permutation(100_000));
    p.sort_unstable();
    assert!(p.iter().enumerate().all(|(i, &v)| v == i as i64));
    // Each position is uniform over the values: the first element.
    let firsts: Vec<i64> = (0..2000).map(|_| i64s(g.permutation(5))[0]).collect();
    chi2("permutation(5)[0]", &firsts, |k| {
        if (0..5).contains(&k) { 0.2 } else { 0.0 }
    });
    // The Feistel walk (from 2^20 elements): a permutation, with each
    // parity half the time and its first element uniform.
    let n = gpu_random::SORTED_PERMUTATION_BELOW + 3;
    let mut big = i64s(g.permutation(n));
    let head: Vec<i64> = big[..4].to_vec();
    big.sort_unstable();
    assert!(big.iter().enumerate().all(|(i, &v)| v == i as i64));
    assert!(head.iter().all(|&v| (0..n as i64).contains(&v)));
    let mut odd = 0;
    let mut firsts = Vec::new();
    for _ in 0..200 {
        let p = i64s(g.permutation(n));
        firsts.push(p[0] * 8 / n as i64);
        // The parity by counting cycles.
        let mut seen = vec![false; n];
        let mut cycles = 0;
        for s in 0..n {
            if !seen[s] {
                cycles += 1;
                let mut j = s;
                while !seen[j] {
                    seen[j] = true;
                    j = p[j] as usize;
                }
            }
        }
        odd += (n - cycles) % 2;
    }
    assert!((60..=140).contains(&odd), "{odd} odd permutations of 200");
    chi2("permutation(2^20 + 3)[0] by eighths", &firsts, |k| {
        if (0..8).contains(&k) { 0.125 } else { 0.0 }
    });
    let x = gpu_array::creation::arange(10).unwrap();
    g.shuffle(&x).unwrap();
    let mut v = x.to_vec::<i64>().unwrap();
    v.sort_unstable();
    assert_eq!(v, (0..10).collect::<Vec<i64>>());
    let pr = Array::from_vec(vec![0.1f64, 0.0, 0.6, 0.3]).unwrap();
    let c = i64s(g.choice(4, N, true, Some(&pr)));
    chi2("choice p", &c, |k| {
        [0.1, 0.0, 0.6, 0.3].get(k as usize).copied().unwrap_or(0.0)
    });
    let mut nr = i64s(g.choice(50, 50, false, None));
    nr.sort_unstable();
    assert_eq!(nr, (0..50).collect::<Vec<i64>>());
    let w = i64s(g.choice(4, 3, false, Some(&pr)));
    assert!(!w.contains(&1), "a zero-probability item was chosen: {w:?}");
    let m = gpu_array::creation::arange(12)
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let pm = g.permuted(&m, Some(1)).unwrap().to_vec::<i64>().unwrap();
    for (r, row) in pm.chunks(4).enumerate() {
        let mut row = row.to_vec();
        row.sort_unstable();
        assert_eq!(row, (4 * r as i64..4 * r as i64 + 4).collect::<Vec<_>>());
    }
    assert_eq!(g.bytes(33).unwrap().len(), 33);
}
