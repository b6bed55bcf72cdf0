// Boolean-mask compaction (compact.rs): a count pass and a select pass per
// item size, which copy items as bytes.
#include "cuprum/warp.cuh"

namespace cuprum_mask {

constexpr int BLOCK = 256;
constexpr int VEC = 16;              // mask bytes per thread per round
constexpr int STEP = BLOCK * VEC;    // mask bytes per round (4096)
constexpr int ROUNDS = 4;
constexpr int TILE = STEP * ROUNDS;  // mask bytes per block (16384)
constexpr int WARPS = BLOCK / 32;

struct __align__(16) v16 { unsigned long long a, b; };
// A 16-byte item aligned as its halves (complex128 needs no more).
struct e16 { unsigned long long a, b; };

template <int S> struct item_of;
template <> struct item_of<1> { typedef unsigned char type; };
template <> struct item_of<2> { typedef unsigned short type; };
template <> struct item_of<4> { typedef unsigned int type; };
template <> struct item_of<8> { typedef unsigned long long type; };
template <> struct item_of<16> { typedef e16 type; };

// E mask bytes in one load (16 or 8).
template <int E> struct mask_vec;
template <> struct mask_vec<16> { typedef v16 type; };
template <> struct mask_vec<8> { typedef unsigned long long type; };

// Bit k set where mask byte i + k is nonzero (k < E; bytes at or past n
// count as false); one E-byte load when `vec` (the mask is 16-byte
// aligned and i a multiple of E) and the E bytes lie inside the mask.
template <int E>
__device__ __forceinline__ unsigned mask_bits(const unsigned char* m, long long i, long long n,
                                              bool vec) {
  typedef typename mask_vec<E>::type W;
  unsigned bits = 0;
  if (i >= n) return 0;
  if (vec && i + E <= n) {
    const W w = *(const W*)(m + i);
    unsigned char b[E];
    memcpy(b, &w, E);
#pragma unroll
    for (int k = 0; k < E; ++k) bits |= (unsigned)(b[k] != 0) << k;
  } else {
    for (int k = 0; k < E && i + k < n; ++k) bits |= (unsigned)(m[i + k] != 0) << k;
  }
  return bits;
}

// Pass 1: the number of true elements of each tile, into counts[tile].
__device__ void count_tiles(const unsigned char* mask, long long* counts, long long n) {
  __shared__ int warp_tot[WARPS];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const long long start = (long long)blockIdx.x * TILE;
  const bool vec = ((unsigned long long)mask & 15) == 0;
  int c = 0;
#pragma unroll
  for (int r = 0; r < ROUNDS; ++r) {
    c += __popc(mask_bits<VEC>(mask, start + (long long)r * STEP + tid * VEC, n, vec));
  }
  c = cuprum::warp_sum(c);
  if (lane == 0) warp_tot[warp] = c;
  __syncthreads();
  if (tid == 0) {
    long long t = 0;
#pragma unroll
    for (int w = 0; w < WARPS; ++w) t += warp_tot[w];
    counts[blockIdx.x] = t;
  }
}

// Pass 2: the selected elements of the tile, in order, at out[incl[tile - 1]..].
// The tile goes in STEPS steps of BLOCK * E consecutive elements, thread t
// owning E consecutive ones of each (E * S bytes of staging per thread:
// at most 128), so that the block's order is C order.
template <int S>
__device__ void select_tiles(const char* data, const unsigned char* mask, const long long* incl,
                             char* out_, long long n) {
  typedef typename item_of<S>::type T;
  constexpr int E = S <= 8 ? 16 : 8;
  constexpr int SPAN = BLOCK * E;      // elements per step
  constexpr int STEPS = TILE / SPAN;
  constexpr int VD = E * S / 16;       // 16-byte data loads per thread and step
  __shared__ T stage[SPAN];
  __shared__ int warp_tot[WARPS];
  const int tid = threadIdx.x;
  const long long tile = blockIdx.x;
  const long long start = tile * TILE;
  const bool vec_m = ((unsigned long long)mask & 15) == 0;
  const bool vec_d = ((unsigned long long)data & 15) == 0;
  const T* src = (const T*)data;
  T* out = (T*)out_;
  long long base = tile == 0 ? 0 : incl[tile - 1];
  // Every step's mask bits first: STEPS loads in flight per thread.
  unsigned bits[STEPS];
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    bits[s] = mask_bits<E>(mask, start + (long long)s * SPAN + tid * E, n, vec_m);
  }
#pragma unroll
  for (int s = 0; s < STEPS; ++s) {
    if (start + (long long)s * SPAN >= n) break;  // the same for the whole block
    const unsigned sb = bits[s];
    int total;
    int o = cuprum::block_exclusive_sum<WARPS>(__popc(sb), warp_tot, total);
    if (sb) {
      const long long e0 = start + (long long)s * SPAN + tid * E;
      T x[E];
      if (vec_d && e0 + E <= n) {
        const v16* p = (const v16*)(src + e0);
        v16 w[VD];
#pragma unroll
        for (int q = 0; q < VD; ++q) w[q] = p[q];
        memcpy(x, w, E * S);
      } else {
#pragma unroll
        for (int j = 0; j < E; ++j) {
          if ((sb >> j) & 1u) x[j] = src[e0 + j];
        }
      }
#pragma unroll
      for (int j = 0; j < E; ++j) {
        if ((sb >> j) & 1u) stage[o++] = x[j];
      }
    }
    __syncthreads();
    for (int k = tid; k < total; k += BLOCK) out[base + k] = stage[k];
    base += total;
    __syncthreads();
  }
}

}  // namespace cuprum_mask

// Parameters as `MaskCount` and `MaskSelect` in compact.rs declare them.
extern "C" __global__ void __launch_bounds__(256) cuprum_mask_count(
    const bool* mask, long long* counts, long long n) {
  cuprum_mask::count_tiles((const unsigned char*)mask, counts, n);
}
#define CUPRUM_MASK_SELECT(S)                                                                      \
  extern "C" __global__ void __launch_bounds__(256) cuprum_mask_select_##S(                        \
      const void* data, const bool* mask, const long long* incl, void* out, long long n) {         \
    cuprum_mask::select_tiles<S>((const char*)data, (const unsigned char*)mask, incl, (char*)out, n); \
  }
CUPRUM_MASK_SELECT(1)
CUPRUM_MASK_SELECT(2)
CUPRUM_MASK_SELECT(4)
CUPRUM_MASK_SELECT(8)
CUPRUM_MASK_SELECT(16)
