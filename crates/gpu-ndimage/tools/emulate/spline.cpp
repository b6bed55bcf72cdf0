// interp.cu's spline prefilter as built (CUPRUM_SPL_BATCH loads in
// flight a thread) against the same program with one load at a time
// (run.sh builds both): batching must not change a bit, for every
// init, pole count, line length and stride.
#include <cstdio>
#include <random>
#include "shim.h"
namespace batched {
#include "interp_kernels.cpp"
}
namespace single {
#include "interp_single.cpp"
}
int main() {
  std::mt19937_64 rng(3);
  int cases = 0, bad = 0;
  for (int c = 0; c < 300; ++c) {
    long long n = 2 + rng() % (c % 3 ? 120 : 7), inner = 1 + rng() % 5, outer = 1 + rng() % 3;
    long long lines = outer * inner, total = outer * n * inner;
    int npoles = 1 + rng() % 2, init = rng() % 3;
    std::vector<double> poles;
    for (int p = 0; p < npoles; ++p) {
      double z = p ? -0.0430962882032647 : -0.2679491924311228;
      poles.insert(poles.end(), {z, std::pow(z, (double)(n - 1)), std::pow(z, (double)n)});
    }
    std::vector<double> a(total);
    for (auto& v : a) v = (double)(rng() % 20001) / 100.0 - 100.0;
    std::vector<double> b = a;
    unsigned blocks = 1 + rng() % 2;
    launch({blocks}, {8}, [&] { batched::cuprum_ndimage_spline_filter(a.data(), n, inner, lines, poles.data(), npoles, 6.0, init); });
    launch({1}, {3}, [&] { single::cuprum_ndimage_spline_filter(b.data(), n, inner, lines, poles.data(), npoles, 6.0, init); });
    ++cases;
    if (memcmp(a.data(), b.data(), total * 8)) { ++bad; printf("n %lld inner %lld init %d poles %d differ\n", n, inner, init, npoles); }
  }
  printf("%d cases, %d bad\n", cases, bad);
  return bad != 0;
}
