//! The float32 standard normal: Marsaglia and Tsang's ziggurat ("The
//! Ziggurat Method for Generating Random Variables", J. Stat. Softw. 5,
//! 2000) with 256 layers, its tables, and its host twin.
//!
//! Why a ziggurat: Box-Muller in exact float32 arithmetic (a log, a
//! square root and a sine and cosine a pair, each a polynomial so the host
//! reproduces it) made `standard_normal` float32 compute-bound, about 50
//! instructions an element. The ziggurat's common case is a table look-up,
//! an integer compare and a multiply, and it needs no transcendental
//! function at all in 99% of draws.
//!
//! One 32-bit Philox lane makes one element: bits 0-7 pick the layer `i`,
//! bits 8-30 the odd 24-bit integer `m = 2 (bits 8-30) + 1`, bit 31 the
//! sign; `x = m W[i]` (`W[i] = X[i] / 2^24`, exact product up to one
//! rounding) is accepted at once when `m < K[i]` (`x` under the next
//! layer's edge). Otherwise the element draws more 32-bit words from its
//! own lane stream (the blocks at `inner = 1 + lane + 4 t`, `t = 0, 1, ...`,
//! of its position, so every element is still a function of (key, counter)
//! alone) for the wedge test or the tail, and may start again with a new
//! word. Device code: `kernels/fill.cu`; the tables reach it as source text
//! ([`cuda_tables`]).
//!
//! The tables are computed here, once, in plain IEEE arithmetic (this
//! module's `exp_d` and the host twin's `log_d`, no platform libm), so they
//! are the same bits on every machine and the streams reproduce anywhere.

use std::sync::LazyLock;

use crate::philox::{log_d, log_f, u01f, u01f_open};

/// Layers of the ziggurat (the index is one byte of the word).
pub(crate) const LAYERS: usize = 256;

/// The ziggurat's tables, in the form the kernel reads them.
pub(crate) struct Tables {
    /// The base strip's right edge (the start of the tail), `r`.
    pub(crate) r: f64,
    /// `ceil(2^24 X[i+1] / X[i])`: `m < K[i]` (an integer `m`) exactly when
    /// `m X[i] / 2^24 < X[i+1]`, `x` under layer
    /// `i + 1`'s edge (`X[256] = 0`, so the top layer always tests).
    pub(crate) k: [u32; LAYERS],
    /// `X[i] / 2^24` in float32 (`X[0] = v / f(r)`, the base strip's width).
    pub(crate) w: [f32; LAYERS],
    /// `f(X[i]) = exp(-X[i]^2 / 2)` in float32, `F[256] = 1`.
    pub(crate) f: [f32; LAYERS + 1],
}

/// `exp(x)` for the table computation, |x| <= 700: `x = k ln 2 + t`
/// (`ln 2` in two parts, so `t` is exact to 2^-60), `|t| <= ln 2 / 2`,
/// then Taylor's series to the 15th power (remainder under 2^-60).
fn exp_d(x: f64) -> f64 {
    const LN2_HI: f64 = 0.693_147_180_369_123_8; // 0x3FE62E42FEE00000
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    let k = (x / std::f64::consts::LN_2).round_ties_even();
    let t = (x - k * LN2_HI) - k * LN2_LO;
    let mut p = 1.0f64;
    for n in (1..=15).rev() {
        p = p.mul_add(t / f64::from(n), 1.0);
    }
    // 2^k, k in the normal range for the arguments used here.
    p * f64::from_bits(((k as i64 + 1023) as u64) << 52)
}

/// The normal density without its constant, `exp(-x^2 / 2)`.
fn density(x: f64) -> f64 {
    exp_d(-0.5 * x * x)
}

/// `density`'s inverse on `(0, 1]`: `sqrt(-2 ln y)`.
fn inverse(y: f64) -> f64 {
    (-2.0 * log_d(y)).sqrt()
}

/// `exp(r^2 / 2)` times the tail's area, `integral_r^inf exp(-x^2/2) dx`:
/// Laplace's continued fraction `1 / (r + 1 / (r + 2 / (r + 3 / ...)))`,
/// which converges to double precision in far fewer than 400 terms for
/// `r >= 3`.
fn mills(r: f64) -> f64 {
    let mut t = r;
    for n in (1..400).rev() {
        t = r + f64::from(n) / t;
    }
    1.0 / t
}

/// The layer edges for a base edge `r`: `X[0..=255]` and the top's excess
/// `f(X[255]) + v / X[255] - 1` (zero for the `r` that closes the
/// ziggurat; positive, or `None` when a layer already passes the peak,
/// for an `r` too small).
fn edges(r: f64) -> (Vec<f64>, Option<f64>) {
    let fr = density(r);
    let v = r * fr + fr * mills(r);
    let mut x = vec![v / fr, r];
    for _ in 1..LAYERS - 1 {
        let last = *x.last().unwrap();
        let y = density(last) + v / last;
        if y >= 1.0 {
            return (x, None);
        }
        x.push(inverse(y));
    }
    let top = x[LAYERS - 1];
    (x, Some(density(top) + v / top - 1.0))
}

fn compute() -> Tables {
    // Bisection for the r whose 256 layers of equal area reach the peak
    // exactly (Marsaglia and Tsang's 3.6541528853610088).
    let (mut lo, mut hi) = (3.0f64, 4.5f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        match edges(mid).1 {
            Some(e) if e <= 0.0 => hi = mid,
            _ => lo = mid,
        }
    }
    let r = hi;
    let (mut x, _) = edges(r);
    x.push(0.0);
    let scale = 1.0 / 16_777_216.0; // 2^-24
    let mut t = Tables {
        r,
        k: [0; LAYERS],
        w: [0.0; LAYERS],
        f: [0.0; LAYERS + 1],
    };
    for i in 0..LAYERS {
        t.k[i] = ((x[i + 1] / x[i]) * 16_777_216.0).ceil() as u32;
        t.w[i] = (x[i] * scale) as f32;
        t.f[i] = density(x[i]) as f32;
    }
    t.f[LAYERS] = 1.0;
    t
}

/// The tables (computed on first use; the same bits everywhere).
pub(crate) fn tables() -> &'static Tables {
    static TABLES: LazyLock<Tables> = LazyLock::new(compute);
    &TABLES
}

/// The tables as CUDA source for `kernels/fill.cu`: `cuprum_zig_kw` (K and
/// the bits of W, one 8-byte entry a layer, for one shared-memory load),
/// `cuprum_zig_f` (bits of F) and `CUPRUM_ZIG_R` (bits of `r` as float32).
pub(crate) fn cuda_tables() -> String {
    let t = tables();
    let kw: Vec<String> = (0..LAYERS)
        .map(|i| format!("{{{}u,0x{:08x}u}}", t.k[i], t.w[i].to_bits()))
        .collect();
    let f: Vec<String> =
        t.f.iter()
            .map(|v| format!("0x{:08x}u", v.to_bits()))
            .collect();
    format!(
        "// The float32 ziggurat's tables (src/ziggurat.rs).\n\
         #define CUPRUM_ZIG_R 0x{:08x}u\n\
         __device__ const uint2 cuprum_zig_kw[{LAYERS}] = {{{}}};\n\
         __device__ const unsigned int cuprum_zig_f[{}] = {{{}}};\n",
        (t.r as f32).to_bits(),
        kw.join(","),
        LAYERS + 1,
        f.join(",")
    )
}

/// The sign of the word `u` (bit 31) on `x >= 0`.
fn signed(u: u32, x: f32) -> f32 {
    f32::from_bits(x.to_bits() | (u & 0x8000_0000))
}

/// The layer and odd 24-bit integer of a word, and `x = m W[i]`.
fn layer(t: &Tables, u: u32) -> (usize, u32, f32) {
    let i = (u & 0xFF) as usize;
    let m = ((u >> 7) & 0x00FF_FFFE) | 1;
    (i, m, m as f32 * t.w[i])
}

/// The float32 standard normal of the word `u`; `more` gives the lane's
/// further words (only called when `u` itself is not accepted at once).
/// Operation for operation as `cuprum_zig_slow` in `kernels/fill.cu`.
pub(crate) fn normal_f32(u: u32, mut more: impl FnMut() -> u32) -> f32 {
    let t = tables();
    let mut u = u;
    loop {
        let (i, m, x) = layer(t, u);
        if m < t.k[i] {
            return signed(u, x);
        }
        if i == 0 {
            // The tail beyond r (Marsaglia 1964): r + a with a = -ln(U1) / r,
            // accepted when 2 (-ln U2) > a^2.
            let rf = t.r as f32;
            loop {
                let a = -log_f(u01f_open(more())) / rf;
                let b = -log_f(u01f_open(more()));
                if b + b > a * a {
                    return signed(u, rf + a);
                }
            }
        }
        // The wedge: y uniform on [F[i], F[i+1]), accepted under the curve.
        let uu = u01f(more());
        let y = t.f[i] + uu * (t.f[i + 1] - t.f[i]);
        let sq = x * x;
        if log_f(y) < -0.5 * sq {
            return signed(u, x);
        }
        u = more();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{ContinuousCDF, Normal};

    /// `kernels/fill.cu`'s fast path recasts the test: `fb = 0x4B800000 |
    /// b` (b = bits 8-30) is the float `2^24 + 2 b`, `fb - (2^24 - 1)` is
    /// `m = 2 b + 1` exactly, and `m < K` is `fb < 0x4B800000 + (K >> 1)`.
    #[test]
    fn the_fast_paths_recast_test_is_the_same_test() {
        for b in 0..1u32 << 23 {
            let fb = 0x4B80_0000 | b;
            assert_eq!(
                f32::from_bits(fb) - 16_777_215.0,
                (2 * b + 1) as f32,
                "b {b}"
            );
        }
        let t = tables();
        for &k in &t.k {
            let thr = 0x4B80_0000 + (k >> 1);
            let half = k >> 1;
            for b in [0, 1, half.saturating_sub(1), half, half + 1, (1 << 23) - 1] {
                let b = b.min((1 << 23) - 1);
                assert_eq!((0x4B80_0000 | b) < thr, 2 * b + 1 < k, "K {k} b {b}");
            }
        }
    }

    #[test]
    fn the_tables_close_the_ziggurat() {
        let t = tables();
        assert!((t.r - 3.654_152_885_361_009).abs() < 1e-12, "{}", t.r);
        // Marsaglia and Tsang's area of a layer, v = 0.00492867323399.
        let fr = density(t.r);
        let v = t.r * fr + fr * mills(t.r);
        assert!((v - 0.004_928_673_233_99).abs() < 1e-13, "{v}");
        // The tail's area against SciPy's `norm.sf(3.6541528853610088)`
        // (statrs' CDF is good to 1e-9 here, not enough).
        let tail = fr * mills(t.r) / (2.0 * std::f64::consts::PI).sqrt();
        let want = 0.000_129_016_243_826_950_4;
        assert!((tail / want - 1.0).abs() < 1e-13, "{tail} {want}");
        // Edges fall, heights rise, the top layer reaches the peak.
        assert!(t.w.windows(2).all(|p| p[0] > p[1]));
        assert!(t.f[1..].windows(2).all(|p| p[0] < p[1]));
        assert_eq!(t.k[LAYERS - 1], 0);
        assert!(t.k.iter().all(|&k| k <= 1 << 24));
        for x in [0.0, 0.5, -3.0, -12.0, 7.25] {
            let e = exp_d(x);
            assert!((e / x.exp() - 1.0).abs() < 4.0 * f64::EPSILON, "{x}");
        }
        assert!((inverse(density(2.5)) - 2.5).abs() < 1e-14);
    }

    /// A lane stream over words of a fixed-seed SplitMix64 (the twin's
    /// arithmetic is what is under test here, not Philox).
    fn words(seed: u64) -> impl FnMut() -> u32 {
        let mut s = seed;
        move || {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as u32
        }
    }

    /// Kolmogorov-Smirnov against the normal CDF (sqrt(n) D < 2.7: a
    /// false failure under 1e-6), the tail mass beyond 3 and 4, and the
    /// share of words accepted at once.
    #[test]
    fn draws_are_standard_normal() {
        let n = 400_000;
        let mut src = words(2024);
        let mut slow = 0usize;
        let mut x: Vec<f64> = (0..n)
            .map(|_| {
                let u = src();
                let t = tables();
                let (i, m, _) = layer(t, u);
                if m >= t.k[i] {
                    slow += 1;
                }
                f64::from(normal_f32(u, &mut src))
            })
            .collect();
        // The share of words not taken at once: sum (1 - K[i] / 2^24) / 256,
        // about 1.5%, within 5.5 standard errors.
        let t = tables();
        let p =
            t.k.iter()
                .map(|&k| 1.0 - f64::from(k) / 16_777_216.0)
                .sum::<f64>()
                / LAYERS as f64;
        assert!(p < 0.016, "{p}");
        let share = slow as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((share - p).abs() < 5.5 * se, "slow share {share}, want {p}");
        let std = Normal::new(0.0, 1.0).unwrap();
        let beyond = |c: f64| x.iter().filter(|v| v.abs() > c).count() as f64;
        for c in [3.0, 4.0] {
            let p = 2.0 * (1.0 - std.cdf(c));
            let (got, want) = (beyond(c), p * n as f64);
            assert!(
                (got - want).abs() < 5.5 * want.sqrt() + 1.0,
                "|z| > {c}: {got} draws, want {want}"
            );
        }
        x.sort_by(f64::total_cmp);
        let nf = n as f64;
        let d = x
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let f = std.cdf(v);
                (f - i as f64 / nf)
                    .abs()
                    .max((f - (i + 1) as f64 / nf).abs())
            })
            .fold(0.0, f64::max);
        assert!(d * nf.sqrt() < 2.7, "sqrt(n) D = {}", d * nf.sqrt());
    }

    #[test]
    fn the_tail_and_the_wedges_are_reached() {
        let t = tables();
        // A word of layer 0 past K[0] goes to the tail: beyond r.
        let u = (0x00FF_FFFFu32 << 7) & 0x7FFF_FF00;
        let (i, m, _) = layer(t, u);
        assert!(i == 0 && m >= t.k[0]);
        let z = normal_f32(u, words(5));
        assert!(f64::from(z) >= t.r as f32 as f64, "{z}");
        // A word accepted at once: -(m W[i]) exactly, whatever follows.
        let u = 0x8000_0000 | (5 << 8) | 3;
        let (i, m, x) = layer(t, u);
        assert!(i == 3 && m == 11 && m < t.k[3]);
        assert_eq!(normal_f32(u, || unreachable!()), -x);
        assert_eq!(x, 11.0 * t.w[3]);
    }
}
