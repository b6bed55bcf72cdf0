// The Fourier-domain filters of scipy.ndimage (`fourier.rs`): the factor
// each element of a transform is multiplied by, from one table a axis.
//
// geom holds, for each of the nd axes, its length, its C-order stride in
// elements and the offset of its table in tab; the element at linear index
// i has frequency index (i / stride) % length along each axis. The tables
// are SciPy's (`ni_fourier.c`), built on the host.

// kind 0 (gaussian, uniform): the product of the tables' values, axis 0
// first. kinds 1-3 (ellipsoid of that rank): the sum of the tables'
// values (k * pi * size / n, squared when nd > 1) fed to the ellipsoid's
// transform. kind 4 (shift): the sum of the phases.
__device__ __forceinline__ double cuprum_ndimage_fourier_factor(long long i, const double* tab,
                                                                const long long* geom, int nd,
                                                                int kind) {
  double acc = kind == 0 ? 1.0 : 0.0;
  for (int d = 0; d < nd; ++d) {
    long long c = (i / geom[nd + d]) % geom[d];
    double v = tab[geom[2 * nd + d] + c];
    if (kind == 0) {
      acc *= v;
    } else {
      acc += v;
    }
  }
  if (kind == 1) {
    return acc != 0.0 ? sin(acc) / acc : 1.0;
  }
  if (kind == 2) {
    double r = sqrt(acc);
    return r > 0.0 ? 2.0 * j1(r) / r : 1.0;
  }
  if (kind == 3) {
    double r = sqrt(acc);
    return r > 0.0 ? 3.0 * (sin(r) - r * cos(r)) / (r * r * r) : 1.0;
  }
  return acc;
}
