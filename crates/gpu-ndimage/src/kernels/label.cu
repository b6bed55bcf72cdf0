// gpu-ndimage's connected-component labelling (src/measurements/label.rs
// drives it): union-find over the pixels, after Playne and Hawick (2018),
// "A new algorithm for parallel connected-component labelling on GPUs".
//
// parent[i] is -1 for background, else the index of an element of i's
// component with parent[i] <= i. Every update is an atomicMin with a
// smaller index of the same component, so the invariant holds throughout
// and the root of a component (parent[r] == r) is its smallest index: its
// first pixel in C order, which is how SciPy numbers features. Indices are
// 64-bit everywhere, so arrays past 2^31 and 2^32 elements label right.
//
// Passes: init (parent[i] = i or -1), merge (union of each foreground
// pixel with its earlier neighbours), compress (parent[i] = root, and
// roots[i] = 1 for the roots, one byte each), then the host's inclusive
// int64 cumsum of roots gives each root its label, which final writes out.

// The root of x. Other threads lower parent[] entries concurrently; every
// value read is an ancestor of x, so the walk ends at x's current root.
// Reads are volatile so that each step sees memory, not a stale register.
// On the way each visited entry is pointed at its grandparent (path
// splitting) with atomicMin: the grandparent is a smaller index of the
// same component and atomicMin never raises an entry, so the invariant
// holds and a concurrent smaller link is never overwritten; the trees stay
// shallow however the merges were scheduled.
__device__ __forceinline__ long long cuprum_label_find(long long* parent, long long x) {
  const volatile long long* p = parent;
  long long r = p[x];
  while (r != x) {
    const long long g = p[r];
    if (g != r) atomicMin(&parent[x], g);
    x = r;
    r = g;
  }
  return x;
}

// Joins a's and b's components: the larger root is linked to the smaller
// one with atomicMin. If the larger root was linked elsewhere meanwhile
// (atomicMin returned another value), the union goes on from that value.
__device__ __forceinline__ void cuprum_label_union(long long* parent, long long a, long long b) {
  for (;;) {
    a = cuprum_label_find(parent, a);
    b = cuprum_label_find(parent, b);
    if (a == b) return;
    if (a > b) {
      const long long t = a;
      a = b;
      b = t;
    }
    const long long old = atomicMin(&parent[b], a);
    if (old == b) return;
    b = old;
  }
}

template <typename T>
__device__ __forceinline__ void cuprum_label_init(const T* in, long long n, long long* parent) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    parent[i] = in[i] != T(0) ? i : -1;
  }
}

#define CUPRUM_LABEL_INIT(name, T)                                                   \
  extern "C" __global__ void name(const T* input, long long n, long long* parent) { \
    cuprum_label_init<T>(input, n, parent);                                          \
  }

// geom: the shape (ndim <= 16); offs: noffs neighbour offsets of ndim
// components each, all earlier than the centre in C order; lin: each
// offset's linear distance in the C-contiguous array.
extern "C" __global__ void cuprum_label_merge(long long* parent, const long long* geom, int ndim,
                                              const long long* offs, const long long* lin,
                                              int noffs, long long n) {
  const volatile long long* vp = parent;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    if (vp[i] < 0) continue;
    long long c[16];
    long long r = i;
    for (int d = ndim - 1; d >= 0; --d) {
      c[d] = r % geom[d];
      r /= geom[d];
    }
    for (int t = 0; t < noffs; ++t) {
      bool inside = true;
      for (int d = 0; d < ndim; ++d) {
        const long long v = c[d] + offs[(long long)t * ndim + d];
        if (v < 0 || v >= geom[d]) {
          inside = false;
          break;
        }
      }
      if (!inside) continue;
      const long long q = i + lin[t];
      // Foreground stays foreground: the sign of parent[q] never changes.
      if (vp[q] < 0) continue;
      cuprum_label_union(parent, i, q);
    }
  }
}

extern "C" __global__ void cuprum_label_compress(long long* parent, long long n,
                                                 unsigned char* roots) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const long long p = parent[i];
    if (p < 0) {
      roots[i] = 0;
      continue;
    }
    const long long r = cuprum_label_find(parent, i);
    roots[i] = r == i ? 1 : 0;
    if (p != r) parent[i] = r;
  }
}

// rank: the inclusive cumsum of roots, so rank[r] is root r's label.
template <typename TO>
__device__ __forceinline__ void cuprum_label_final(const long long* parent,
                                                   const long long* rank, long long n,
                                                   TO* out) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const long long p = parent[i];
    out[i] = p < 0 ? TO(0) : (TO)rank[p];
  }
}

#define CUPRUM_LABEL_FINAL(name, TO)                                                    \
  extern "C" __global__ void name(const long long* parent, const long long* rank,       \
                                  long long n, TO* out) {                               \
    cuprum_label_final<TO>(parent, rank, n, out);                                       \
  }
