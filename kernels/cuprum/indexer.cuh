// Linear index to byte offsets for strided elementwise kernels.
//
// An elementwise kernel walks the linear (C-order) index i of its iteration
// shape; for each array operand it needs the byte offset sum_k idx_k *
// stride_k, where idx is i unravelled over the shape. cuprum::Indexer holds
// the (coalesced) shape once and the byte strides of every operand, and
// unravels with one divmod chain shared by all operands.
//
// Index is `int` (32-bit: the launcher checks that the element count and
// every operand's byte offsets fit) or `long long`. Division is done in the
// unsigned type of the same width, which is faster and exact for the
// non-negative linear index.
//
// Kernel-parameter layout (what the host packs, see
// gpu_array::elementwise::KernelParam): Indexer<NDIM, NARR, Index> is
// `Index shape[NDIM]` followed by `Index strides[NARR][NDIM]`, no padding,
// aligned to sizeof(Index). Dims<NDIM, Index> is `Index v[NDIM]`.
#pragma once

namespace cuprum {

template <typename Index> struct index_traits;
template <> struct index_traits<int> { typedef unsigned int unsigned_type; };
template <> struct index_traits<long long> { typedef unsigned long long unsigned_type; };

/// NDIM values of an index type, passed by value (a shape or strides).
template <int NDIM, typename Index>
struct Dims {
  Index v[NDIM];
  __device__ __forceinline__ Index operator[](int k) const { return v[k]; }
};

/// Shape and per-operand byte strides of an NDIM-dimensional iteration over
/// NARR array operands.
template <int NDIM, int NARR, typename Index>
struct Indexer {
  Index shape[NDIM];
  Index strides[NARR][NDIM];

  /// Byte offsets of every operand's element at C-order linear index i
  /// (0 <= i < product of shape).
  __device__ __forceinline__ void offsets(Index i, Index (&off)[NARR]) const {
    typedef typename index_traits<Index>::unsigned_type U;
    U rest = (U)i;
#pragma unroll
    for (int a = 0; a < NARR; ++a) off[a] = 0;
#pragma unroll
    for (int k = NDIM - 1; k >= 1; --k) {
      U n = (U)shape[k];
      U q = rest / n;
      Index r = (Index)(rest - q * n);
#pragma unroll
      for (int a = 0; a < NARR; ++a) off[a] += r * strides[a][k];
      rest = q;
    }
#pragma unroll
    for (int a = 0; a < NARR; ++a) off[a] += (Index)rest * strides[a][0];
  }

  /// Walks the iteration from a start index in constant steps without a
  /// divmod per element: the step is unravelled once into per-dimension
  /// digits, and each advance adds them with carries, updating every
  /// operand's byte offset incrementally. Strided kernels advance by the
  /// grid's thread count, so neighbouring threads stay on neighbouring
  /// elements (coalesced) while each pays a few additions per element.
  struct Cursor {
    Index idx[NDIM];
    Index off[NARR];
  };

  /// A cursor at linear index i.
  __device__ __forceinline__ void start(Index i, Cursor& c) const {
    unravel(i, c.idx);
#pragma unroll
    for (int a = 0; a < NARR; ++a) {
      Index o = 0;
#pragma unroll
      for (int k = 0; k < NDIM; ++k) o += c.idx[k] * strides[a][k];
      c.off[a] = o;
    }
  }

  /// Moves the cursor forward by the step whose digits are `d` (from
  /// `unravel(step, d)`). Past the last element the cursor is garbage; the
  /// caller stops by the linear index.
  __device__ __forceinline__ void advance(Cursor& c, const Index (&d)[NDIM]) const {
    Index carry = 0;
#pragma unroll
    for (int k = NDIM - 1; k >= 0; --k) {
      Index add = d[k] + carry;
      Index v = c.idx[k] + add;
      carry = 0;
      if (k > 0 && v >= shape[k]) {
        v -= shape[k];
        carry = 1;
      }
#pragma unroll
      for (int a = 0; a < NARR; ++a) c.off[a] += (v - c.idx[k]) * strides[a][k];
      c.idx[k] = v;
    }
  }

  /// The multi-index of linear index i.
  __device__ __forceinline__ void unravel(Index i, Index (&idx)[NDIM]) const {
    typedef typename index_traits<Index>::unsigned_type U;
    U rest = (U)i;
#pragma unroll
    for (int k = NDIM - 1; k >= 1; --k) {
      U n = (U)shape[k];
      U q = rest / n;
      idx[k] = (Index)(rest - q * n);
      rest = q;
    }
    idx[0] = (Index)rest;
  }
};

/// A `raw` operand of an ElementwiseKernel: a pointer with its own shape
/// and byte strides, indexed by a C-order linear index (`y[i]`), as CuPy's
/// CArray. The launcher coalesces the operand's own layout first, so a
/// C-contiguous raw array has NDIM == 1 and indexing is one multiply.
template <typename T, int NDIM, typename Index>
struct RawArray {
  T* ptr;
  Dims<NDIM, Index> shape_;
  Dims<NDIM, Index> strides_;

  __device__ __forceinline__ RawArray(T* p, const Dims<NDIM, Index>& shape, const Dims<NDIM, Index>& strides)
      : ptr(p), shape_(shape), strides_(strides) {}

  /// Number of elements.
  __device__ __forceinline__ Index size() const {
    Index n = 1;
#pragma unroll
    for (int k = 0; k < NDIM; ++k) n *= shape_.v[k];
    return n;
  }
  __device__ __forceinline__ int ndim() const { return NDIM; }
  __device__ __forceinline__ Index shape(int k) const { return shape_.v[k]; }
  __device__ __forceinline__ Index stride(int k) const { return strides_.v[k]; }
  __device__ __forceinline__ T* data() const { return ptr; }

  /// Byte offset of C-order linear index i.
  __device__ __forceinline__ Index offset(Index i) const {
    typedef typename index_traits<Index>::unsigned_type U;
    U rest = (U)i;
    Index off = 0;
#pragma unroll
    for (int k = NDIM - 1; k >= 1; --k) {
      U n = (U)shape_.v[k];
      U q = rest / n;
      off += (Index)(rest - q * n) * strides_.v[k];
      rest = q;
    }
    return off + (Index)rest * strides_.v[0];
  }
  __device__ __forceinline__ T& operator[](Index i) const {
    return *(T*)((const char*)ptr + offset(i));
  }
  /// Element at a multi-index of NDIM entries.
  __device__ __forceinline__ T& operator[](const Index (&idx)[NDIM]) const {
    Index off = 0;
#pragma unroll
    for (int k = 0; k < NDIM; ++k) off += idx[k] * strides_.v[k];
    return *(T*)((const char*)ptr + off);
  }
};

}  // namespace cuprum
