// Support for generated elementwise kernels (gpu_array::elementwise): the
// `_ind` object of CuPy's ElementwiseKernel, and 16-byte vector loads and
// stores for the contiguous fast path. Includes everything a kernel body
// may use: types, complex, math, indexer.
#pragma once

#include "cuprum/types.cuh"
#include "cuprum/math.cuh"
#include "cuprum/indexer.cuh"

namespace cuprum {

/// CuPy's `_ind`: `_ind.size()` is the number of elements of the
/// (broadcast) iteration, `_ind.get()` the current linear index.
template <typename Index>
struct ElementwiseIndex {
  Index n;
  Index i;
  __device__ __forceinline__ Index size() const { return n; }
  __device__ __forceinline__ Index get() const { return i; }
};

namespace detail {
template <int BYTES> struct chunk;
template <> struct chunk<1> { typedef unsigned char type; };
template <> struct chunk<2> { typedef unsigned short type; };
template <> struct chunk<4> { typedef unsigned int type; };
template <> struct chunk<8> { typedef uint2 type; };
template <> struct chunk<16> { typedef uint4 type; };
}  // namespace detail

/// Bytes moved per load/store instruction for E elements of T: 16 when
/// E * sizeof(T) is a multiple of 16, else the whole E * sizeof(T).
template <typename T, int E>
struct vec_traits {
  static constexpr int bytes = E * (int)sizeof(T);
  static constexpr int chunk_bytes = bytes >= 16 ? 16 : bytes;
  static constexpr int chunks = bytes / chunk_bytes;
  typedef typename detail::chunk<chunk_bytes>::type chunk_type;
};

namespace detail {
/// E elements of T from `src` to `dst` in vec_traits' chunks (both aligned
/// to its chunk_bytes).
template <int E, typename T>
__device__ __forceinline__ void vcopy(T* dst, const T* src) {
  typedef vec_traits<T, E> V;
  typedef typename V::chunk_type C;
  const C* s = reinterpret_cast<const C*>(src);
  C* d = reinterpret_cast<C*>(dst);
#pragma unroll
  for (int c = 0; c < V::chunks; ++c) d[c] = s[c];
}
}  // namespace detail

/// Loads E consecutive elements from `src`, which must be aligned to
/// vec_traits<T, E>::chunk_bytes, into the 16-byte aligned `dst`.
template <int E, typename T>
__device__ __forceinline__ void vload(T (&dst)[E], const T* src) {
  detail::vcopy<E>(dst, src);
}

/// Stores E consecutive elements to `dst`, aligned as for vload.
template <int E, typename T>
__device__ __forceinline__ void vstore(T* dst, const T (&src)[E]) {
  detail::vcopy<E>(dst, src);
}

}  // namespace cuprum
