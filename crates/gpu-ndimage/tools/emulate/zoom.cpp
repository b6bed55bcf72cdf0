// zoom.cu's zoom2 (both index widths) against interp.cu's general interpolation (kind 2, the
// same per-axis coordinates) on random 2-D inputs, every spline order and
// mode (run.sh builds it): the same output bits.
#include <cstdio>
#include <random>
#include <type_traits>
#include "shim.h"
#include "interp_kernels.cpp"

#define INST(TI, TO, O) CUPRUM_NDIMAGE_ZOOM2(z_##TI##_##TO##_##O, TI, TO, O, )
typedef unsigned char u8;
INST(double, double, 0) INST(double, double, 1) INST(double, double, 2) INST(double, double, 3)
INST(double, double, 4) INST(double, double, 5) INST(double, float, 3) INST(float, float, 0)
INST(float, float, 1) INST(u8, u8, 0) INST(u8, u8, 1) INST(double, u8, 3)
// The 64-bit index path (taken for images past 2^31 elements) on small ones.
void z_wide_double_double_3(const double* in, double* out, const double* params, long long n0,
                            long long n1, long long m0, long long m1, int mode, double cval,
                            long long npad) {
  cuprum_ndimage_zoom2_tiles<double, double, 3, long long>(in, out, params, n0, n1, m0, m1, mode,
                                                           cval, npad);
}
CUPRUM_NDIMAGE_INTERP(i_double_double, double, double)
CUPRUM_NDIMAGE_INTERP(i_double_float, double, float)
CUPRUM_NDIMAGE_INTERP(i_float_float, float, float)
CUPRUM_NDIMAGE_INTERP(i_u8_u8, u8, u8)
CUPRUM_NDIMAGE_INTERP(i_double_u8, double, u8)

std::mt19937_64 rng(5);
int cases = 0, bad = 0;

template <typename TI, typename TO, typename Z, typename G>
void one(const char* name, Z zoom2, G general, int order) {
  for (int rep = 0; rep < 14; ++rep) {
    long long n0 = 1 + rng() % 40, n1 = 1 + rng() % 40, m0 = 1 + rng() % 70, m1 = 1 + rng() % 300;
    int mode = rng() % 7;
    long long npad = rng() % 3 == 0 ? 2 : 0;
    double cval = rng() % 2 ? 0.0 : 2.5;
    std::vector<double> p(6);
    for (int d = 0; d < 2; ++d) {
      long long n = d ? n1 : n0, m = d ? m1 : m0;
      p[3 * d] = rng() % 3 == 0 ? 0.0 : (double)(rng() % 100) / 37.0 - 1.0;
      p[3 * d + 1] = m > 1 ? (double)(n - 1) / (double)(m - 1) * (rng() % 4 ? 1.0 : 1.3) : 0.0;
      p[3 * d + 2] = rng() % 2 ? 0.0 : -0.5;
    }
    std::vector<TI> x(n0 * n1);
    for (auto& v : x) v = std::is_floating_point_v<TI> ? TI((double)(rng() % 2001) / 10.0 - 50.0) : TI(rng() % 256);
    long long size = m0 * m1;
    std::vector<TO> a(size, TO(7)), b(size, TO(9));
    std::vector<long long> geom = {2, 2, n0, n1, m0, m1};
    unsigned blocks = 1 + rng() % 3;
    launch({blocks}, {256}, [&] { zoom2(x.data(), a.data(), p.data(), n0, n1, m0, m1, mode, cval, npad); });
    launch({3}, {64}, [&] { general(x.data(), b.data(), nullptr, nullptr, p.data(), geom.data(), 2, order, mode, cval, npad, size); });
    ++cases;
    if (memcmp(a.data(), b.data(), size * sizeof(TO))) {
      ++bad;
      printf("%s: (%lld, %lld) -> (%lld, %lld) mode %d npad %lld differ\n", name, n0, n1, m0, m1, mode, npad);
    }
  }
}

int main() {
#define RUN(TI, TO, O) one<TI, TO>(#TI " " #TO " order " #O, z_##TI##_##TO##_##O, i_##TI##_##TO, O);
  RUN(double, double, 0) RUN(double, double, 1) RUN(double, double, 2) RUN(double, double, 3)
  RUN(double, double, 4) RUN(double, double, 5) RUN(double, float, 3) RUN(float, float, 0)
  RUN(float, float, 1) RUN(u8, u8, 0) RUN(u8, u8, 1) RUN(double, u8, 3)
  one<double, double>("double double order 3, 64-bit indices", z_wide_double_double_3, i_double_double, 3);
  printf("%d cases, %d bad\n", cases, bad);
  return bad != 0;
}
