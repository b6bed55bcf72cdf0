// binary_step2d against the generic binary_step (run.sh builds it): every
// 3 x 3 structure (bit k: tap (k / 3 - 1, k % 3 - 1)), random border value,
// dilation and mask, over widths that are and are not multiples of 16.
#include "shim.h"
#include "binary_kernels.cpp"
#include <cstdio>
#include <random>
int main() {
  std::mt19937_64 rng(11);
  int bad = 0, cases = 0;
  int dims[][2] = {{37, 64}, {29, 53}, {1, 16}, {64, 17}, {5, 3}, {13, 32}, {3, 1}, {9, 48}};
  for (auto& hw : dims) {
    long long h = hw[0]; int w = hw[1]; long long n = h * w;
    std::vector<unsigned char> in(n + 16), mk(n + 16);
    for (long long i = 0; i < n; ++i) { in[i] = rng() % 100 < 70 ? 1 : 0; mk[i] = rng() % 100 < 80; }
    for (int pat = 0; pat < 512; pat += 1) {
      unsigned r = rng();
      int border = r & 1, invert = (r >> 1) & 1, masked = (r >> 2) & 1;
      std::vector<long long> taps;
      bool center = false;
      for (int k = 0; k < 9; ++k) if (pat >> k & 1) { taps.push_back(k / 3 - 1); taps.push_back(k % 3 - 1); if (k == 4) center = true; }
      int nt = taps.size() / 2;
      if (nt == 0) taps = {0, 0};
      std::vector<long long> geom = {h, w};
      std::vector<unsigned char> o1(n, 9), o2(n, 9);
      int ch1 = 0, ch2 = 0;
      const bool* mp = masked ? (const bool*)mk.data() : nullptr;
      launch({(unsigned)((n + 63) / 64)}, {64}, [&] { cuprum_ndimage_binary_step((const bool*)in.data(), mp, geom.data(), 2, taps.data(), nt, border, invert, center, n, (bool*)o1.data(), &ch1); });
      int vec = (w % 16 == 0);
      long long segs = h * ((w + 15) / 16);
      launch({(unsigned)((segs + 63) / 64)}, {64}, [&] { cuprum_ndimage_binary_step2d((const bool*)in.data(), mp, h, w, pat, border, invert, vec, (bool*)o2.data(), &ch2); });
      ++cases;
      if (o1 != o2 || ch1 != ch2) {
        if (++bad <= 5)
          printf("h %lld w %d structure %d border %d invert %d mask %d: %s differ\n", h, w, pat,
                 border, invert, masked, o1 != o2 ? "outputs" : "change flags");
      }
    }
  }
  printf("%d cases, %d bad\n", cases, bad);
  return bad != 0;
}
