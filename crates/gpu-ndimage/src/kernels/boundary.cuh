// SciPy's boundary modes for filters: the index inside 0..n read for index
// i of an axis of length n >= 1, or -1 where the filter reads cval. The
// same arithmetic as src/mode.rs's map_index (mode numbers from
// Mode::code: 0 reflect, 1 constant, 2 nearest, 3 mirror, 4 wrap).
#pragma once

__device__ __forceinline__ long long cuprum_ndimage_map(long long i, long long n, int mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case 1:
      return -1;
    case 2:
      return i < 0 ? 0 : n - 1;
    case 4: {
      long long k = i % n;
      return k < 0 ? k + n : k;
    }
    case 3: {
      if (n == 1) return 0;
      const long long p = 2 * n - 2;
      long long k = i % p;
      if (k < 0) k += p;
      return k < n ? k : p - k;
    }
    default: {
      const long long p = 2 * n;
      long long k = i % p;
      if (k < 0) k += p;
      return k < n ? k : p - 1 - k;
    }
  }
}
