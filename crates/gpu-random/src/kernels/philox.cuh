// Cuprum's counter-based bit generator and its exact transforms.
//
// Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers:
// as easy as 1, 2, 3", SC'11): a 128-bit counter and a 64-bit key give a
// 128-bit block, each block independent of every other. A Generator's
// state is (key, position, word); the counter of a block is
//   (inner, position low, position high, word),
// so every output element is a function of (key, counter) alone, never of
// the GPU, the grid or the thread that computed it (crate docs, "Streams").
//
// The uniform, normal and exponential transforms here are written twice,
// here and in src/host.rs (the host twin), with the same operations in the
// same order: the programs that include this header compile with
// --fmad=false, every fused multiply-add is an explicit fma, and log and
// sin/cos are the polynomials below rather than libdevice's, so the host
// twin reproduces the GPU's numbers bit for bit.
#pragma once

namespace cuprum_random {

struct Key {
  unsigned int k0, k1;
};
struct Block {
  unsigned int x, y, z, w;
};

// One Philox4x32-10 block (the round constants are Random123's).
__device__ __forceinline__ Block philox(Block c, Key k) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    if (r) {
      k.k0 += 0x9E3779B9u;
      k.k1 += 0xBB67AE85u;
    }
    // One 32 x 32 -> 64 multiply each (IMAD.WIDE), not a high and a low.
    const unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x;
    const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c.z;
    c = Block{(unsigned int)(p1 >> 32) ^ c.y ^ k.k0, (unsigned int)p1,
              (unsigned int)(p0 >> 32) ^ c.w ^ k.k1, (unsigned int)p0};
  }
  return c;
}

// The ten rounds' keys, computed once by the host and passed as launch
// parameters: each round's xor then reads its key from the constant bank,
// where the loop of a fill kernel otherwise added the Weyl increments
// again for every block (20 of its ~200 instructions an iteration).
struct RoundKeys {
  unsigned int k0[10], k1[10];
};

// philox(c, k) with the keys precomputed: the same block.
__device__ __forceinline__ Block philox(Block c, const RoundKeys& k) {
#pragma unroll
  for (int r = 0; r < 10; ++r) {
    const unsigned long long p0 = (unsigned long long)0xD2511F53u * c.x;
    const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c.z;
    c = Block{(unsigned int)(p1 >> 32) ^ c.y ^ k.k0[r], (unsigned int)p1,
              (unsigned int)(p0 >> 32) ^ c.w ^ k.k1[r], (unsigned int)p0};
  }
  return c;
}

// The block at `inner` of position `pos` in stream word `word`.
__device__ __forceinline__ Block block_at(Key k, unsigned long long pos, unsigned int word,
                                          unsigned int inner) {
  return philox(Block{inner, (unsigned int)pos, (unsigned int)(pos >> 32), word}, k);
}
__device__ __forceinline__ Block block_at(const RoundKeys& k, unsigned long long pos,
                                          unsigned int word, unsigned int inner) {
  return philox(Block{inner, (unsigned int)pos, (unsigned int)(pos >> 32), word}, k);
}

// ---- Uniforms from bits.
// [0, 1) with 53 bits: the high 53 of (hi << 32 | lo).
__device__ __forceinline__ double u01(unsigned int hi, unsigned int lo) {
  return (double)((((unsigned long long)hi << 32) | lo) >> 11) * 1.1102230246251565e-16;
}
// (0, 1) with 52 bits: (k + 1/2) / 2^52, never 0 or 1 (for logarithms).
__device__ __forceinline__ double u01_open(unsigned int hi, unsigned int lo) {
  return ((double)((((unsigned long long)hi << 32) | lo) >> 12) + 0.5) * 2.220446049250313e-16;
}
// [0, 1) with 24 bits.
__device__ __forceinline__ float u01f(unsigned int x) {
  return (float)(x >> 8) * 5.9604645e-08f;
}
// (0, 1) with 23 bits: (k + 1/2) / 2^23.
__device__ __forceinline__ float u01f_open(unsigned int x) {
  return ((float)(x >> 9) + 0.5f) * 1.1920929e-07f;
}

// ---- log and sin/cos of 2 pi u as plain polynomials (identical on the
// host). log x = e ln 2 + log m, m in [sqrt(1/2), sqrt 2), log m =
// 2 s (1 + z/3 + z^2/5 + ...), s = (m - 1)/(m + 1), z = s^2 <= 0.0295
// (DLMF 4.6.4); terms to z^11 leave under 2^-54.
// The callers pass normal positive numbers (open uniforms, 2^-53 and up),
// so frexp is two bit operations.
__device__ __forceinline__ double log_d(double x) {
  const unsigned long long bits = (unsigned long long)__double_as_longlong(x);
  int e = (int)(bits >> 52) - 1022;
  double m =
      __longlong_as_double((long long)((bits & 0x800FFFFFFFFFFFFFull) | 0x3FE0000000000000ull));
  if (m < 0.7071067811865476) {
    m = m * 2.0;
    e = e - 1;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double z = s * s;
  double p = 1.0 / 23.0;
  p = fma(p, z, 1.0 / 21.0);
  p = fma(p, z, 1.0 / 19.0);
  p = fma(p, z, 1.0 / 17.0);
  p = fma(p, z, 1.0 / 15.0);
  p = fma(p, z, 1.0 / 13.0);
  p = fma(p, z, 1.0 / 11.0);
  p = fma(p, z, 1.0 / 9.0);
  p = fma(p, z, 1.0 / 7.0);
  p = fma(p, z, 1.0 / 5.0);
  p = fma(p, z, 1.0 / 3.0);
  p = fma(p, z, 1.0);
  const double lm = 2.0 * s * p;
  const double de = (double)e;
  return fma(de, 0.6931471805599453, fma(de, 2.3190468138462996e-17, lm));
}
// The float32 log without a division: log m = f + f^2 Q(f), f = m - 1 in
// [-0.293, 0.415] (x normal and positive, as for log_d), Q a degree-7
// least-squares fit of (log1p(f) - f)/f^2 on Chebyshev nodes (1.4 ulp of
// log1p at most).
__device__ __forceinline__ float log_f(float x) {
  const unsigned int bits = __float_as_uint(x);
  int e = (int)(bits >> 23) - 126;
  float m = __uint_as_float((bits & 0x807FFFFFu) | 0x3F000000u);
  if (m < 0.70710677f) {
    m = m * 2.0f;
    e = e - 1;
  }
  const float f = m - 1.0f;
  float q = 0.08518541f;
  q = fmaf(q, f, -0.14203775f);
  q = fmaf(q, f, 0.14949329f);
  q = fmaf(q, f, -0.16586831f);
  q = fmaf(q, f, 0.19960661f);
  q = fmaf(q, f, -0.2500103f);
  q = fmaf(q, f, 0.33333972f);
  q = fmaf(q, f, -0.5f);
  const float f2 = f * f;
  const float lm = fmaf(f2, q, f);
  return fmaf((float)e, 0.6931472f, lm);
}

// sin and cos of 2 pi u for u in [0, 1): v = 4u = q + r, q = rint(v),
// |r| <= 1/2 (both exact), then Taylor polynomials of sin and cos of
// (pi/2) r (DLMF 4.19.1-2; to (pi/4)^17/17! and (pi/4)^18/18!) and the
// quadrant's rotation.
__device__ __forceinline__ void sincos_2pi_d(double u, double* s, double* c) {
  const double v = 4.0 * u;
  const double q = rint(v);
  const double r = v - q;
  const double w = r * r;
  double ps = 6.0669357311061955e-12;
  ps = fma(ps, w, -6.688035109811468e-10);
  ps = fma(ps, w, 5.692172921967927e-08);
  ps = fma(ps, w, -3.598843235212085e-06);
  ps = fma(ps, w, 0.00016044118478735983);
  ps = fma(ps, w, -0.004681754135318688);
  ps = fma(ps, w, 0.07969262624616705);
  ps = fma(ps, w, -0.6459640975062463);
  ps = fma(ps, w, 1.5707963267948966);
  const double sn = ps * r;
  double pc = -5.294400200734623e-13;
  pc = fma(pc, w, 6.565963114979473e-11);
  pc = fma(pc, w, -6.386603083791852e-09);
  pc = fma(pc, w, 4.710874778818172e-07);
  pc = fma(pc, w, -2.5202042373060607e-05);
  pc = fma(pc, w, 0.0009192602748394266);
  pc = fma(pc, w, -0.02086348076335296);
  pc = fma(pc, w, 0.25366950790104803);
  pc = fma(pc, w, -1.2337005501361697);
  const double cs = fma(pc, w, 1.0);
  const int k = ((int)q) & 3;
  *s = k == 0 ? sn : k == 1 ? cs : k == 2 ? -sn : -cs;
  *c = k == 0 ? cs : k == 1 ? -sn : k == 2 ? -cs : sn;
}
// Box-Muller: two standard normals from an open uniform u1 and a [0, 1)
// uniform u2: sqrt(-2 log u1) (cos 2 pi u2, sin 2 pi u2).
__device__ __forceinline__ void box_muller_d(double u1, double u2, double* z0, double* z1) {
  const double rad = sqrt(-2.0 * log_d(u1));
  double s, c;
  sincos_2pi_d(u2, &s, &c);
  *z0 = rad * c;
  *z1 = rad * s;
}
// ---- One element's own stream: the blocks (inner = 0, 1, 2, ...) at its
// position, for the samplers whose number of draws varies (rejection);
// or, from the second constructor, inner = first, first + step, ... (the
// float32 ziggurat's lanes, fill.cu).
struct Stream {
  Key key;
  unsigned long long pos;
  unsigned int word, inner, step;
  Block buf;
  int left;
  bool has_spare;
  double spare;

  __device__ Stream(Key k, unsigned long long p, unsigned int wd) : Stream(k, p, wd, 0, 1) {}
  __device__ Stream(Key k, unsigned long long p, unsigned int wd, unsigned int first,
                    unsigned int stp)
      : key(k), pos(p), word(wd), inner(first), step(stp), buf(Block{0, 0, 0, 0}), left(0),
        has_spare(false), spare(0.0) {}

  __device__ unsigned int next_u32() {
    if (left == 0) {
      buf = block_at(key, pos, word, inner);
      inner = inner + step;
      left = 4;
    }
    left = left - 1;
    return left == 3 ? buf.x : left == 2 ? buf.y : left == 1 ? buf.z : buf.w;
  }
  __device__ unsigned long long next_u64() {
    const unsigned long long hi = next_u32();
    return (hi << 32) | next_u32();
  }
  // [0, 1), 53 bits.
  __device__ double uniform() {
    const unsigned int hi = next_u32();
    return u01(hi, next_u32());
  }
  // (0, 1), 52 bits.
  __device__ double uniform_open() {
    const unsigned int hi = next_u32();
    return u01_open(hi, next_u32());
  }
  __device__ double normal() {
    if (has_spare) {
      has_spare = false;
      return spare;
    }
    const double u1 = uniform_open();
    const double u2 = uniform();
    double z0, z1;
    box_muller_d(u1, u2, &z0, &z1);
    has_spare = true;
    spare = z1;
    return z0;
  }
  // Standard exponential: -log of an open uniform.
  __device__ double exponential() { return -log_d(uniform_open()); }
};

}  // namespace cuprum_random
