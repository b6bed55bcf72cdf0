
struct __align__(16) cuprum_v16 { unsigned long long a, b; };
template <typename T>
__device__ void transpose_tile(const char* src, char* dst, long long rows, long long cols,
                               long long src_cs, long long dst_rs) {
  // src(r, c) at src + (r + c * src_cs) * sizeof(T): rows contiguous.
  // dst(r, c) at dst + (r * dst_rs + c) * sizeof(T): columns contiguous.
  __shared__ T tile[32][33];
  const long long c0 = (long long)blockIdx.x * 32;
  const T* s = (const T*)src;
  T* d = (T*)dst;
  // grid.y is at most 65535 tiles: blocks stride over the row tiles. The
  // loop bound is the same for every thread of a block, so the barriers
  // inside it are reached by all of them.
  for (long long r0 = (long long)blockIdx.y * 32; r0 < rows; r0 += (long long)gridDim.y * 32) {
    for (int k = threadIdx.y; k < 32; k += 8) {
      long long r = r0 + threadIdx.x, c = c0 + k;
      if (r < rows && c < cols) tile[k][threadIdx.x] = s[r + c * src_cs];
    }
    __syncthreads();
    for (int k = threadIdx.y; k < 32; k += 8) {
      long long r = r0 + k, c = c0 + threadIdx.x;
      if (r < rows && c < cols) d[r * dst_rs + c] = tile[threadIdx.x][k];
    }
    // The next pass overwrites the tile.
    __syncthreads();
  }
}
#define CUPRUM_TRANSPOSE(NAME, T) \
  extern "C" __global__ void NAME(const char* src, char* dst, long long rows, long long cols, \
                                  long long src_cs, long long dst_rs) { \
    transpose_tile<T>(src, dst, rows, cols, src_cs, dst_rs); }
CUPRUM_TRANSPOSE(cuprum_transpose_1, unsigned char)
CUPRUM_TRANSPOSE(cuprum_transpose_2, unsigned short)
CUPRUM_TRANSPOSE(cuprum_transpose_4, unsigned int)
CUPRUM_TRANSPOSE(cuprum_transpose_8, unsigned long long)
CUPRUM_TRANSPOSE(cuprum_transpose_16, cuprum_v16)
