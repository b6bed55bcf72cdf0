//! The default bit generator, [`Philox`], and its host twin.
//!
//! Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
//! as easy as 1, 2, 3", SC'11) maps a 128-bit counter and a 64-bit key to
//! a 128-bit block. A [`Philox`] is a key, a 64-bit position and a 32-bit
//! stream word; the block at `inner` of position `p` is the image of the
//! counter `(inner, p mod 2^32, p / 2^32, word)`. Each draw reserves the
//! positions it uses and the state moves past them, so every element of
//! every draw is a function of (key, counter) only: the same seed gives the
//! same numbers on any GPU, grid and thread count, and on the host
//! ([`Philox::host`]).
//!
//! Which positions an element uses (the crate docs' "Streams" table):
//! - 64-bit outputs of the fixed-cost transforms (`random` float64,
//!   `standard_normal` float64, integers over more than 2^32 values): the
//!   block at position `pos + i / 2`, lanes `2 (i % 2)` and `2 (i % 2) + 1`;
//! - 32-bit outputs (float32, integers over at most 2^32 values): the block
//!   at `pos + i / 4`, lane `i % 4`;
//! - a rejected integer draws again from the same position and lanes at
//!   `inner = 1, 2, ...`;
//! - a float32 normal that the ziggurat does not take at once (about one
//!   in 67) reads further words from the blocks at `inner = 1 + lane + 4 t`,
//!   `t = 0, 1, ...`, of its position (`src/ziggurat.rs`);
//! - every other distribution: element `i` owns position `pos + i` and
//!   draws its blocks at `inner = 0, 1, 2, ...` in order (`Stream` in
//!   `kernels/philox.cuh`).

use crate::error::value_error;
use gpu_array::Result;

/// Philox4x32-10's multipliers and Weyl key increments (Random123's).
const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// Philox4x32-10's ten round keys of `key`, two words a round (round r:
/// `k0 + r W0`, `k1 + r W1`, the Weyl sequence): what [`philox4x32_10`]
/// xors in, and the fill kernels' launch parameters
/// (`cuprum_random::RoundKeys`).
pub(crate) fn round_keys([k0, k1]: [u32; 2]) -> [u32; 20] {
    std::array::from_fn(|i| {
        let r = (i / 2) as u32;
        if i % 2 == 0 {
            k0.wrapping_add(r.wrapping_mul(W0))
        } else {
            k1.wrapping_add(r.wrapping_mul(W1))
        }
    })
}

/// One Philox4x32-10 block: the image of `ctr` under `key`.
///
/// ```
/// use gpu_random::philox4x32_10;
/// // Random123's known answer for a zero counter and key.
/// assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
/// ```
pub fn philox4x32_10(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let [mut c0, mut c1, mut c2, mut c3] = ctr;
    for k in round_keys(key).chunks_exact(2) {
        let (k0, k1) = (k[0], k[1]);
        let p0 = u64::from(M0) * u64::from(c0);
        let p1 = u64::from(M1) * u64::from(c2);
        let (hi0, lo0) = ((p0 >> 32) as u32, p0 as u32);
        let (hi1, lo1) = ((p1 >> 32) as u32, p1 as u32);
        (c0, c1, c2, c3) = (hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0);
    }
    [c0, c1, c2, c3]
}

/// SplitMix64's finalizer (Steele, Lea and Flood 2014): a bijection of
/// u64 that spreads every input bit over the output; seeds and spawn keys
/// pass through it so that neighbouring seeds give unrelated keys.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A key from a sequence of seed words (each word mixed into the running
/// hash), so `[1, 2]` and `[2, 1]` differ and `[0]` differs from `[]`.
fn key_of(words: &[u64]) -> u64 {
    words.iter().fold(
        mix64(0x6A09_E667_F3BC_C909 ^ words.len() as u64),
        |h, &w| mix64(h ^ mix64(w.wrapping_add(0x9E37_79B9_7F4A_7C15))),
    )
}

/// The counter-based default bit generator (NumPy's `Philox`'s role,
/// Cuprum's own stream): a key, a position and a stream word.
///
/// ```
/// use gpu_random::Philox;
/// let a = Philox::new(42);
/// assert_eq!(a.position(), 0);
/// // jumped streams and spawned children never overlap their parent.
/// assert_ne!(a.jumped(1).word(), a.word());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Philox {
    key: u64,
    pos: u64,
    word: u32,
    children: u64,
    seed_words: Vec<u64>,
}

/// A [`Philox`]'s state, as NumPy's `bit_generator.state` holds one: save
/// it and restore it with [`Philox::set_state`] to replay the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PhiloxState {
    /// The 64-bit key.
    pub key: u64,
    /// The next unused position.
    pub position: u64,
    /// The stream word (moved by [`Philox::jumped`]).
    pub word: u32,
}

impl Philox {
    /// A generator seeded by one integer (NumPy's `Philox(seed)`).
    pub fn new(seed: u64) -> Philox {
        Philox::from_seed_words(&[seed])
    }

    /// A generator seeded by several integers (NumPy's array seeds).
    pub fn from_seed_words(words: &[u64]) -> Philox {
        Philox {
            key: key_of(words),
            pos: 0,
            word: 0,
            children: 0,
            seed_words: words.to_vec(),
        }
    }

    /// A generator seeded from the operating system's entropy (NumPy's
    /// `default_rng()` without a seed): the time, the process id and a
    /// per-process counter, hashed.
    pub fn from_entropy() -> Philox {
        use std::sync::atomic::{AtomicU64, Ordering};
        use std::time::{SystemTime, UNIX_EPOCH};
        // Process-wide, but only a counter that makes two entropy seeds of
        // one process differ even within one clock tick; nothing reads it
        // but this function, and any value it holds gives a valid seed.
        static DRAWN: AtomicU64 = AtomicU64::new(0);
        let t = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        let n = DRAWN.fetch_add(1, Ordering::Relaxed);
        let addr = &n as *const u64 as u64;
        Philox::from_seed_words(&[t, u64::from(std::process::id()), n, addr])
    }

    /// The generator at a saved state.
    pub fn from_state(state: PhiloxState) -> Philox {
        Philox {
            key: state.key,
            pos: state.position,
            word: state.word,
            children: 0,
            seed_words: vec![state.key],
        }
    }

    /// The current state (NumPy's `bit_generator.state`).
    pub fn state(&self) -> PhiloxState {
        PhiloxState {
            key: self.key,
            position: self.pos,
            word: self.word,
        }
    }

    /// Restores a saved state.
    pub fn set_state(&mut self, state: PhiloxState) {
        self.key = state.key;
        self.pos = state.position;
        self.word = state.word;
    }

    /// The key.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The next unused position.
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// The stream word.
    pub fn word(&self) -> u32 {
        self.word
    }

    /// A copy whose stream word is `jumps` further on (NumPy's
    /// `jumped`): 2^32 words of 2^64 positions each, so jumped streams
    /// never meet. The word wraps after 2^32 jumps.
    pub fn jumped(&self, jumps: u32) -> Philox {
        Philox {
            word: self.word.wrapping_add(jumps),
            children: 0,
            ..self.clone()
        }
    }

    /// `n` independent children (NumPy's `spawn`): each keyed by the
    /// parent's seed words and its spawn index, as NumPy's `SeedSequence`
    /// spawns, so a child never shares a key with its parent or siblings
    /// (but by a 2^-64 chance).
    pub fn spawn(&mut self, n: usize) -> Vec<Philox> {
        (0..n)
            .map(|_| {
                let mut words = self.seed_words.clone();
                words.push(u64::MAX);
                words.push(self.children);
                self.children += 1;
                Philox::from_seed_words(&words)
            })
            .collect()
    }

    /// Reserves `blocks` positions for a draw: the first one's index.
    pub(crate) fn reserve(&mut self, blocks: u64) -> Result<u64> {
        let start = self.pos;
        self.pos = start.checked_add(blocks).ok_or_else(|| {
            value_error(
                "the Philox stream is exhausted (2^64 positions used); use jumped() or spawn()",
            )
        })?;
        Ok(start)
    }

    /// The key as Philox's two 32-bit words.
    pub(crate) fn key_words(&self) -> [u32; 2] {
        [self.key as u32, (self.key >> 32) as u32]
    }

    /// The host twin: the same numbers the GPU draws, computed here.
    pub fn host(&mut self) -> HostPhilox<'_> {
        HostPhilox { g: self }
    }
}

/// The host twin of a [`Philox`] draw (for tests, and for users who want
/// the GPU's numbers on the CPU): each method draws what the
/// [`Generator`](crate::Generator) method of the same name would, bit for
/// bit, and moves the state as it would.
///
/// ```
/// use gpu_random::Philox;
/// let mut g = Philox::new(7);
/// let x = g.host().random_f64(3).unwrap();
/// assert!(x.iter().all(|v| (0.0..1.0).contains(v)));
/// assert_eq!(g.position(), 2); // two blocks of two float64 each
/// ```
#[derive(Debug)]
pub struct HostPhilox<'g> {
    g: &'g mut Philox,
}

impl HostPhilox<'_> {
    fn block(&self, pos: u64, inner: u32) -> [u32; 4] {
        philox4x32_10(
            [inner, pos as u32, (pos >> 32) as u32, self.g.word],
            self.g.key_words(),
        )
    }

    /// `n` outputs of `lanes` per block, each from `f(block, lane)`.
    fn draw<T>(
        &mut self,
        n: usize,
        lanes: usize,
        f: impl Fn(&Self, u64, [u32; 4], usize) -> T,
    ) -> Result<Vec<T>> {
        let start = self.g.reserve(n.div_ceil(lanes) as u64)?;
        let mut out = Vec::with_capacity(n);
        let mut b = [0u32; 4];
        for i in 0..n {
            let pos = start + (i / lanes) as u64;
            if i % lanes == 0 {
                b = self.block(pos, 0);
            }
            out.push(f(self, pos, b, i % lanes));
        }
        Ok(out)
    }

    /// `Generator::random` float64: `[0, 1)` with 53 bits.
    pub fn random_f64(&mut self, n: usize) -> Result<Vec<f64>> {
        self.draw(n, 2, |_, _, b, l| u01(b[2 * l], b[2 * l + 1]))
    }

    /// `Generator::random` float32: `[0, 1)` with 24 bits.
    pub fn random_f32(&mut self, n: usize) -> Result<Vec<f32>> {
        self.draw(n, 4, |_, _, b, l| u01f(b[l]))
    }

    /// `Generator::uniform(low, high)`: `fma(high - low, u, low)`.
    pub fn uniform(&mut self, n: usize, low: f64, high: f64) -> Result<Vec<f64>> {
        let d = high - low;
        self.draw(n, 2, |_, _, b, l| {
            d.mul_add(u01(b[2 * l], b[2 * l + 1]), low)
        })
    }

    /// `Generator::standard_normal` float64 (Box-Muller).
    pub fn standard_normal_f64(&mut self, n: usize) -> Result<Vec<f64>> {
        self.draw(n, 2, |_, _, b, l| {
            let (z0, z1) = box_muller_d(u01_open(b[0], b[1]), u01(b[2], b[3]));
            if l == 0 { z0 } else { z1 }
        })
    }

    /// `Generator::standard_normal` float32 (the ziggurat,
    /// `src/ziggurat.rs`): lane `l` of the block makes element `l`; one
    /// that is not taken at once reads its lane's further words from the
    /// blocks at `inner = 1 + l + 4 t`.
    pub fn standard_normal_f32(&mut self, n: usize) -> Result<Vec<f32>> {
        self.draw(n, 4, |h, pos, b, l| {
            let (mut buf, mut left, mut inner) = ([0u32; 4], 0, 1 + l as u32);
            crate::ziggurat::normal_f32(b[l], || {
                if left == 0 {
                    buf = h.block(pos, inner);
                    inner += 4;
                    left = 4;
                }
                left -= 1;
                buf[3 - left]
            })
        })
    }

    /// `Generator::normal(loc, scale)`: `fma(scale, z, loc)`.
    pub fn normal(&mut self, n: usize, loc: f64, scale: f64) -> Result<Vec<f64>> {
        Ok(self
            .standard_normal_f64(n)?
            .into_iter()
            .map(|z| scale.mul_add(z, loc))
            .collect())
    }

    /// `Generator::permutation(n)` from 2^20 elements on: the Feistel walk
    /// of `kernels/fill.cu`.
    pub fn permutation(&mut self, n: usize) -> Result<Vec<i64>> {
        if n == 0 {
            return Ok(Vec::new());
        }
        let (half, key, flip) = crate::fill::permutation_keys(self.g, n as u64)?;
        let mask = if half >= 32 {
            u32::MAX
        } else {
            (1u32 << half) - 1
        };
        let feistel = |x: u64| {
            let (mut l, mut r) = ((x >> half) as u32 & mask, x as u32 & mask);
            for k in key {
                let t = r;
                r = l ^ (mix32(r ^ k) & mask);
                l = t;
            }
            (u64::from(l) << half) | u64::from(r)
        };
        Ok((0..n as u64)
            .map(|i| {
                let mut y = feistel(if i < 2 { i ^ u64::from(flip) } else { i });
                while y >= n as u64 {
                    y = feistel(y);
                }
                y as i64
            })
            .collect())
    }

    /// `Generator::integers(low, high)` (high exclusive) as i128 values:
    /// Lemire's multiply-and-reject (Lemire 2019, "Fast random integer
    /// generation in an interval").
    pub fn integers(&mut self, n: usize, low: i128, high: i128) -> Result<Vec<i128>> {
        let range = high - low;
        if range <= 0 {
            return Err(value_error("low >= high"));
        }
        if range <= 1 << 32 {
            let r = range as u64;
            // Accept m = x r when its low word is at least 2^32 mod r.
            let t = ((1u64 << 32) - r) % r;
            self.draw(n, 4, |h, pos, b, l| {
                let mut x = b[l];
                let mut inner = 0;
                loop {
                    let m = u64::from(x) * r;
                    if m & 0xFFFF_FFFF >= t {
                        return low + i128::from(m >> 32);
                    }
                    inner += 1;
                    x = h.block(pos, inner)[l];
                }
            })
        } else {
            let full = range == 1 << 64;
            let r = range as u64; // 0 for the full range
            self.draw(n, 2, |h, pos, b, l| {
                let mut x = (u64::from(b[2 * l]) << 32) | u64::from(b[2 * l + 1]);
                let mut inner = 0;
                loop {
                    if full {
                        return low + i128::from(x);
                    }
                    let m = u128::from(x) * u128::from(r);
                    if (m as u64) >= r.wrapping_neg() % r {
                        return low + (m >> 64) as i128;
                    }
                    inner += 1;
                    let nb = h.block(pos, inner);
                    x = (u64::from(nb[2 * l]) << 32) | u64::from(nb[2 * l + 1]);
                }
            })
        }
    }
}

/// The Feistel round's 32-bit hash (as `cuprum_random_mix32`).
fn mix32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

// ---- The transforms, operation for operation as kernels/philox.cuh
// (which compiles with --fmad=false: every fused multiply-add is explicit
// there and a mul_add here).

pub(crate) fn u01(hi: u32, lo: u32) -> f64 {
    (((u64::from(hi) << 32) | u64::from(lo)) >> 11) as f64 * 1.1102230246251565e-16
}
pub(crate) fn u01_open(hi: u32, lo: u32) -> f64 {
    ((((u64::from(hi) << 32) | u64::from(lo)) >> 12) as f64 + 0.5) * 2.220446049250313e-16
}
pub(crate) fn u01f(x: u32) -> f32 {
    (x >> 8) as f32 * 5.960_464_5e-8
}
pub(crate) fn u01f_open(x: u32) -> f32 {
    ((x >> 9) as f32 + 0.5) * 1.192_092_9e-7
}

/// `frexp`: `x = m 2^e`, `m` in [1/2, 1), for finite `x > 0` (normal or
/// denormal).
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7FF) as i32;
    if exp == 0 {
        let (m, e) = frexp(x * f64::from_bits(0x4350_0000_0000_0000)); // 2^54
        return (m, e - 54);
    }
    (
        f64::from_bits((bits & !(0x7FF << 52)) | (1022 << 52)),
        exp - 1022,
    )
}
fn frexpf(x: f32) -> (f32, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 23) & 0xFF) as i32;
    if exp == 0 {
        let (m, e) = frexpf(x * 16_777_216.0); // 2^24
        return (m, e - 24);
    }
    (
        f32::from_bits((bits & !(0xFF << 23)) | (126 << 23)),
        exp - 126,
    )
}

pub(crate) fn log_d(x: f64) -> f64 {
    let (mut m, mut e) = frexp(x);
    if m < std::f64::consts::FRAC_1_SQRT_2 {
        m *= 2.0;
        e -= 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let mut p: f64 = 1.0 / 23.0;
    for c in [21.0, 19.0, 17.0, 15.0, 13.0, 11.0, 9.0, 7.0, 5.0, 3.0] {
        p = p.mul_add(z, 1.0 / c);
    }
    p = p.mul_add(z, 1.0);
    let lm = 2.0 * s * p;
    let de = f64::from(e);
    de.mul_add(
        std::f64::consts::LN_2,
        de.mul_add(2.319_046_813_846_299_6e-17, lm),
    )
}
pub(crate) fn log_f(x: f32) -> f32 {
    let (mut m, mut e) = frexpf(x);
    if m < 0.707_106_77 {
        m *= 2.0;
        e -= 1;
    }
    let f = m - 1.0;
    let mut q = 0.085_185_41f32;
    for c in [
        -0.142_037_75f32,
        0.149_493_29,
        -0.165_868_31,
        0.199_606_61,
        -0.250_010_3,
        0.333_339_72,
        -0.5,
    ] {
        q = q.mul_add(f, c);
    }
    let f2 = f * f;
    let lm = f2.mul_add(q, f);
    (e as f32).mul_add(std::f32::consts::LN_2, lm)
}

fn quadrant<T: std::ops::Neg<Output = T> + Copy>(q: i32, sn: T, cs: T) -> (T, T) {
    match q & 3 {
        0 => (sn, cs),
        1 => (cs, -sn),
        2 => (-sn, -cs),
        _ => (-cs, sn),
    }
}

pub(crate) fn sincos_2pi_d(u: f64) -> (f64, f64) {
    let v = 4.0 * u;
    let q = v.round_ties_even();
    let r = v - q;
    let w = r * r;
    let mut ps: f64 = 6.066_935_731_106_195_5e-12;
    for c in [
        -6.688_035_109_811_468e-10,
        5.692_172_921_967_927e-8,
        -3.598_843_235_212_085e-6,
        0.000_160_441_184_787_359_83,
        -0.004_681_754_135_318_688,
        0.079_692_626_246_167_05,
        -0.645_964_097_506_246_3,
        std::f64::consts::FRAC_PI_2,
    ] {
        ps = ps.mul_add(w, c);
    }
    let sn = ps * r;
    let mut pc: f64 = -5.294_400_200_734_623e-13;
    for c in [
        6.565_963_114_979_473e-11,
        -6.386_603_083_791_852e-9,
        4.710_874_778_818_172e-7,
        -2.520_204_237_306_060_7e-5,
        0.000_919_260_274_839_426_6,
        -0.020_863_480_763_352_96,
        0.253_669_507_901_048_03,
        -1.233_700_550_136_169_7,
    ] {
        pc = pc.mul_add(w, c);
    }
    let cs = pc.mul_add(w, 1.0);
    quadrant(q as i32, sn, cs)
}
pub(crate) fn box_muller_d(u1: f64, u2: f64) -> (f64, f64) {
    let rad = (-2.0 * log_d(u1)).sqrt();
    let (s, c) = sincos_2pi_d(u2);
    (rad * c, rad * s)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_round_keys_are_the_ones_philox_adds_up() {
        // Round r's key is the key after r Weyl steps, wrapping.
        for key in [[0u32, 0], [1, 2], [u32::MAX, 0x8000_0000]] {
            let rk = round_keys(key);
            let (mut k0, mut k1) = (key[0], key[1]);
            for (r, pair) in rk.chunks(2).enumerate() {
                if r > 0 {
                    k0 = k0.wrapping_add(W0);
                    k1 = k1.wrapping_add(W1);
                }
                assert_eq!(pair, [k0, k1], "{key:?} round {r}");
            }
        }
    }

    #[test]
    fn random123_known_answers() {
        assert_eq!(
            philox4x32_10([0; 4], [0; 2]),
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
        );
        assert_eq!(
            philox4x32_10([u32::MAX; 4], [u32::MAX; 2]),
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]
        );
        assert_eq!(
            philox4x32_10(
                [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
                [0xa4093822, 0x299f31d0]
            ),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }

    #[test]
    fn the_polynomials_are_accurate() {
        for k in 1..2000 {
            let x = f64::from(k) / 1999.0;
            assert!(
                (log_d(x) - x.ln()).abs() <= 4.0 * f64::EPSILON * x.ln().abs().max(1.0),
                "{x}"
            );
            let xf = x as f32;
            assert!(
                (log_f(xf) - xf.ln()).abs() <= 4.0 * f32::EPSILON * xf.ln().abs().max(1.0),
                "{x}"
            );
            let u = f64::from(k) / 2000.0;
            let (s, c) = sincos_2pi_d(u);
            // 2 pi u itself is rounded (by up to 4.4e-16 near 4).
            let t = std::f64::consts::TAU * u;
            assert!(
                (s - t.sin()).abs() < 1.5e-15 && (c - t.cos()).abs() < 1.5e-15,
                "{u}"
            );
        }
        assert_eq!(frexp(5e-324), (0.5, -1073));
        assert_eq!(log_d(1.0), 0.0);
    }

    #[test]
    fn draws_reserve_their_blocks() {
        let mut g = Philox::new(1);
        g.host().random_f32(5).unwrap();
        assert_eq!(g.position(), 2);
        g.host().standard_normal_f64(3).unwrap();
        assert_eq!(g.position(), 4);
        let mut a = Philox::new(1);
        let mut b = Philox::new(1);
        assert_eq!(
            a.host().random_f64(4).unwrap(),
            b.host().random_f64(4).unwrap()
        );
        assert_ne!(Philox::new(1).key(), Philox::new(2).key());
    }

    #[test]
    fn integers_are_in_range_and_unbiased_at_the_edges() {
        let mut g = Philox::new(3);
        let v = g.host().integers(10_000, -3, 4).unwrap();
        assert!(v.iter().all(|&x| (-3..4).contains(&x)));
        for k in -3..4 {
            let c = v.iter().filter(|&&x| x == k).count();
            assert!((1200..1660).contains(&c), "{k}: {c}");
        }
        let w = g.host().integers(1000, 0, 1 << 64).unwrap();
        assert!(w.iter().all(|&x| (0..1 << 64).contains(&x)));
        let big = g
            .host()
            .integers(1000, i128::from(i64::MIN), i128::from(i64::MAX) + 1)
            .unwrap();
        assert!(big.iter().any(|&x| x < 0) && big.iter().any(|&x| x > 0));
        assert!(g.host().integers(1, 5, 5).is_err());
        for n in [1usize, 2, 3, 1000, 4097] {
            let mut p = g.host().permutation(n).unwrap();
            p.sort_unstable();
            assert!(p.iter().enumerate().all(|(i, &v)| v == i as i64), "{n}");
        }
    }
}
