// The EDT's exact path (edt_first, edt_exact forming the distances)
// against SciPy's sequential one (edt_init, edt_pass, edt_distances) on
// random 1-D to 3-D inputs (run.sh builds it): the same features, the
// same distance bits.
#include "shim.h"
#include "distance_kernels.cpp"
#include <cstdio>
#include <random>
int main() {
  std::mt19937_64 rng(7);
  int bad = 0, cases = 0;
  for (int c = 0; c < 160; ++c) {
    int nd = 1 + rng() % 3;
    std::vector<long long> geom(nd);
    for (auto& g : geom) g = 1 + rng() % (nd == 1 ? 200 : nd == 2 ? 70 : 14);
    long long n = 1; for (auto g : geom) n *= g;
    int p = std::vector<int>{0, 1, 3, 10, 50, 90}[rng() % 6];
    std::vector<unsigned char> m(n);
    for (auto& v : m) v = (int)(rng() % 100) >= p;
    if (c % 5 == 0) { std::fill(m.begin(), m.end(), 1); m[rng() % n] = 0; }
    bool* mask = (bool*)m.data();
    std::vector<int> a(nd * n), b(nd * n), g(n);
    launch({(unsigned)((n + 255) / 256)}, {256}, [&] { cuprum_edt_init(mask, n, geom.data(), nd, a.data()); });
    for (int d = 0; d < nd; ++d) {
      long long lines = n / geom[d], inner = 1;
      for (int k = d + 1; k < nd; ++k) inner *= geom[k];
      launch({(unsigned)lines}, {1}, [&] { cuprum_edt_pass(a.data(), b.data(), g.data(), n, geom.data(), nd, d, lines, inner, nullptr); });
      std::swap(a, b);
    }
    std::vector<double> dw(n);
    launch({(unsigned)((n + 255) / 256)}, {256}, [&] { cuprum_edt_distances(a.data(), n, geom.data(), nd, nullptr, dw.data()); });
    // the exact path, as edt.rs drives it, with indices and distances
    std::vector<int> x(nd * n, 12345), y(nd * n, 12345);
    std::vector<double> dg(n, -7.0);
    long long cols = n / geom[0];
    launch({(unsigned)((cols + 31) / 32)}, {32, 32}, [&] { cuprum_edt_first(mask, x.data(), nd == 1 ? dg.data() : nullptr, n, geom.data(), nd); });
    for (int d = 1; d < nd; ++d) {
      long long lines = n / geom[d], inner = 1;
      for (int k = d + 1; k < nd; ++k) inner *= geom[k];
      bool last = d == nd - 1;
      launch({(unsigned)lines}, {32}, [&] { cuprum_edt_exact(x.data(), y.data(), last ? dg.data() : nullptr, n, geom.data(), nd, d, lines, inner); });
      std::swap(x, y);
    }
    ++cases;
    if (x != a) { ++bad; printf("case %d nd %d p %d: features differ\n", c, nd, p); continue; }
    for (long long i = 0; i < n; ++i)
      if (memcmp(&dg[i], &dw[i], 8)) { ++bad; printf("case %d: dist %lld %g vs %g\n", c, i, dg[i], dw[i]); break; }
  }
  printf("%d cases, %d bad\n", cases, bad);
  return bad != 0;
}
