// The tiled transpose of array/transpose.rs, one kernel per item size: the
// copy moves bytes, so every dtype of a size shares one.
struct __align__(16) cuprum_v16 { unsigned long long a, b; };
template <typename T>
__device__ void transpose_tile(const T* s, T* d, long long rows, long long cols,
                               long long src_cs, long long dst_rs) {
  // s(r, c) at s[r + c * src_cs]: rows contiguous.
  // d(r, c) at d[r * dst_rs + c]: columns contiguous.
  __shared__ T tile[32][33];
  const long long c0 = (long long)blockIdx.x * 32;
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
// Parameters as `Transpose` in transpose.rs declares them.
#define CUPRUM_TRANSPOSE(NAME, T)                                                                  \
  extern "C" __global__ void NAME(const void* src, void* dst, long long rows, long long cols,     \
                                  long long src_cs, long long dst_rs) {                           \
    transpose_tile<T>((const T*)src, (T*)dst, rows, cols, src_cs, dst_rs);                        \
  }
CUPRUM_TRANSPOSE(cuprum_transpose_1, unsigned char)
CUPRUM_TRANSPOSE(cuprum_transpose_2, unsigned short)
CUPRUM_TRANSPOSE(cuprum_transpose_4, unsigned int)
CUPRUM_TRANSPOSE(cuprum_transpose_8, unsigned long long)
CUPRUM_TRANSPOSE(cuprum_transpose_16, cuprum_v16)
