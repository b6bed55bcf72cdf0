// tiled.cu's kernels against the general ones they stand in for (run.sh
// builds it): tiled1d (both layouts, every op, window sizes up to
// TILED1D_MAX, every mode and origin) against window1d, bit for bit; and
// median3x3 against windownd's selection of rank 4 over the same box; and
// tiled2d against two window1d passes (the first rounded to the output's
// type), every mode pair and origin, bit for bit.
#include <cstdio>
#include <random>
#include <type_traits>
#include "shim.h"
#include "filters_kernels.cpp"

#define INST(S)                                                                      \
  CUPRUM_NDIMAGE_TILED1D(t_ff_op0_s##S##_c, float, float, 0, S, false)              \
  CUPRUM_NDIMAGE_TILED1D(t_ff_op0_s##S##_r, float, float, 0, S, true)               \
  CUPRUM_NDIMAGE_TILED1D(t_dd_op1_s##S##_c, double, double, 1, S, false)            \
  CUPRUM_NDIMAGE_TILED1D(t_dd_op1_s##S##_r, double, double, 1, S, true)             \
  CUPRUM_NDIMAGE_TILED1D(t_dd_op2_s##S##_r, double, double, 2, S, true)             \
  CUPRUM_NDIMAGE_TILED1D(t_ud_op3_s##S##_c, unsigned char, double, 3, S, false)     \
  CUPRUM_NDIMAGE_TILED1D(t_ff_op3_s##S##_r, float, float, 3, S, true)               \
  CUPRUM_NDIMAGE_TILED1D(t_ff_op4_s##S##_c, float, float, 4, S, false)              \
  CUPRUM_NDIMAGE_TILED1D(t_ii_op5_s##S##_r, int, int, 5, S, true)
INST(1) INST(2) INST(3) INST(5) INST(8) INST(17)
CUPRUM_NDIMAGE_TILED1D(t_ff_op3_s25_c, float, float, 3, 25, false)
CUPRUM_NDIMAGE_TILED1D(t_dd_op1_s25_r, double, double, 1, 25, true)
CUPRUM_NDIMAGE_WINDOW1D(w_ff, float, float)
CUPRUM_NDIMAGE_WINDOW1D(w_dd, double, double)
CUPRUM_NDIMAGE_WINDOW1D(w_ud, unsigned char, double)
CUPRUM_NDIMAGE_WINDOW1D(w_ii, int, int)
CUPRUM_NDIMAGE_WINDOW1D(w_uu, unsigned char, unsigned char)
CUPRUM_NDIMAGE_WINDOW1D(w_fd, float, double)
CUPRUM_NDIMAGE_TILED2D(p_ff_1s17_1s17, float, float, 1, 17, 1, 17)
CUPRUM_NDIMAGE_TILED2D(p_ff_3s5_3s5, float, float, 3, 5, 3, 5)
CUPRUM_NDIMAGE_TILED2D(p_uu_1s9_3s3, unsigned char, unsigned char, 1, 9, 3, 3)
CUPRUM_NDIMAGE_TILED2D(p_dd_2s3_1s3, double, double, 2, 3, 1, 3)
CUPRUM_NDIMAGE_TILED2D(p_fd_0s4_4s2, float, double, 0, 4, 4, 2)
CUPRUM_NDIMAGE_TILED2D(p_ii_5s25_0s6, int, int, 5, 25, 0, 6)
CUPRUM_NDIMAGE_TILED2D(p_ff_1s25_1s25, float, float, 1, 25, 1, 25)
CUPRUM_NDIMAGE_MEDIAN3X3(m_ff, float, float, __launch_bounds__(256, 4))
CUPRUM_NDIMAGE_MEDIAN3X3(m_ll, long long, long long, __launch_bounds__(256))

std::mt19937_64 rng(11);
int cases = 0, bad = 0;

template <typename TI, typename TO, typename K, typename G>
void one(const char* name, K tiled, G general, int op, int S, bool rows) {
  for (int rep = 0; rep < 3; ++rep) {
    long long outer, n, inner;
    if (rows) { outer = 1 + rng() % 40; n = 1 + rng() % 150; inner = 1; }
    else { outer = 1 + rng() % 3; n = 1 + rng() % 90; inner = 2 + rng() % 50; }
    long long total = outer * n * inner;
    std::vector<TI> x(total);
    for (auto& v : x) v = (TI)((long long)(rng() % 2000) - (std::is_unsigned_v<TI> ? 0 : 1000)) / (std::is_floating_point_v<TI> ? TI(7) : TI(1));
    if constexpr (std::is_floating_point_v<TI>) if (rng() % 3 == 0) x[rng() % total] = NAN;
    std::vector<double> w(S);
    for (auto& v : w) v = (double)(rng() % 1000) / 997.0 - 0.3;
    long long size1 = S / 2, size2 = S - size1 - 1;
    long long origin = -size1 + (long long)(rng() % S);
    int mode = rng() % 5;
    double cval = 1.5;
    std::vector<TO> a(total, TO(99)), b(total, TO(77));
    unsigned blocks = 1 + rng() % 3;
    int march = 1 + (int)(rng() % 4);
    launch({blocks}, {256}, [&] { tiled(x.data(), w.data(), outer, n, inner, origin, mode, cval, a.data()); });
    launch({2}, {64}, [&] { general(x.data(), w.data(), (long long)S, outer, n, inner, origin, op, mode, cval, march, b.data()); });
    ++cases;
    if (memcmp(a.data(), b.data(), total * sizeof(TO))) {
      ++bad;
      printf("%s: (%lld, %lld, %lld) origin %lld mode %d differ\n", name, outer, n, inner, origin, mode);
    }
  }
}

// tiled2d against window1d along n0 (TI to TO) and then along n1 (TO to
// TO).
template <typename TI, typename TO, typename K, typename G1, typename G2>
void pair(const char* name, K tiled, G1 first, G2 second, int op0, int s0, int op1, int s1) {
  for (int rep = 0; rep < 10; ++rep) {
    long long batch = 1 + rng() % 2, n0 = 1 + rng() % 75, n1 = 1 + rng() % 140;
    long long total = batch * n0 * n1;
    std::vector<TI> x(total);
    for (auto& v : x) v = (TI)((long long)(rng() % 2000) - (std::is_unsigned_v<TI> ? 0 : 1000)) / (std::is_floating_point_v<TI> ? TI(7) : TI(1));
    if (std::is_unsigned_v<TI>) for (auto& v : x) v = (TI)(rng() % 256);
    if constexpr (std::is_floating_point_v<TI>) if (rng() % 3 == 0) x[rng() % total] = NAN;
    std::vector<double> w0(s0), w1(s1);
    for (auto& v : w0) v = (double)(rng() % 1000) / 997.0 - 0.3;
    for (auto& v : w1) v = (double)(rng() % 1000) / 997.0 - 0.3;
    if (op0 == 1 || op0 == 2) for (int k = 0; k < s0 / 2; ++k) w0[s0 - 1 - k] = op0 == 1 ? w0[k] : -w0[k];
    if (op1 == 1 || op1 == 2) for (int k = 0; k < s1 / 2; ++k) w1[s1 - 1 - k] = op1 == 1 ? w1[k] : -w1[k];
    long long o0 = -(s0 / 2) + (long long)(rng() % s0), o1 = -(s1 / 2) + (long long)(rng() % s1);
    int m0 = rng() % 5, m1 = rng() % 5;
    double cval = rng() % 2 ? 1.5 : -3.0;
    std::vector<TO> a(total, TO(99)), mid(total, TO(55)), b(total, TO(77));
    unsigned blocks = 1 + rng() % 3;
    launch({blocks}, {256}, [&] { tiled(x.data(), w0.data(), w1.data(), batch, n0, n1, o0, o1, m0, m1, cval, a.data()); });
    launch({2}, {64}, [&] { first(x.data(), w0.data(), (long long)s0, batch, n0, n1, o0, op0, m0, cval, 2, mid.data()); });
    launch({2}, {64}, [&] { second(mid.data(), w1.data(), (long long)s1, batch * n0, n1, 1LL, o1, op1, m1, cval, 3, b.data()); });
    ++cases;
    if (memcmp(a.data(), b.data(), total * sizeof(TO))) {
      ++bad;
      printf("%s: (%lld, %lld, %lld) origins %lld %lld modes %d %d differ\n", name, batch, n0, n1, o0, o1, m0, m1);
    }
  }
}

double ref_median(std::vector<double> v) {
  std::sort(v.begin(), v.end(), [](double a, double b) { return cuprum_ndimage_less(a, b); });
  return v[4];
}

template <typename T, typename K>
void median(const char* name, K kernel) {
  // Up to 200 x 120: tiles inside the image (their unmapped loads) as
  // well as at its edges, several a block (1 to 3 blocks), across planes.
  for (int rep = 0; rep < 16; ++rep) {
    long long batch = 1 + rng() % 2, n0 = 1 + rng() % 200, n1 = 1 + rng() % 120;
    long long a0 = -1 + (long long)(rng() % 3) - 1, b0 = -1 + (long long)(rng() % 3) - 1;
    a0 = std::max(a0, -2LL); b0 = std::max(b0, -2LL);
    int mode = rng() % 5;
    double cval = 3.0;
    long long total = batch * n0 * n1;
    std::vector<T> x(total);
    for (auto& v : x) v = (T)((long long)(rng() % 9) - 4);
    if constexpr (std::is_floating_point_v<T>) {
      // Zeros of both signs, infinities, NaNs of both signs among them.
      const T special[] = {T(-0.0), T(0.0), T(INFINITY), T(-INFINITY), T(NAN), T(-NAN)};
      for (int k = 0; k < 8; ++k) x[rng() % total] = special[rng() % 6];
    }
    std::vector<T> out(total, T(-5));
    unsigned blocks = 1 + rng() % 3;
    launch({blocks}, {256}, [&] { kernel(x.data(), batch, n0, n1, a0, b0, mode, cval, out.data()); });
    ++cases;
    for (long long z = 0; z < batch; ++z)
      for (long long i = 0; i < n0; ++i)
        for (long long j = 0; j < n1; ++j) {
          std::vector<double> v;
          for (int di = 0; di < 3; ++di)
            for (int dj = 0; dj < 3; ++dj) {
              long long p = cuprum_ndimage_map(i + a0 + di, n0, mode), q = cuprum_ndimage_map(j + b0 + dj, n1, mode);
              v.push_back(p < 0 || q < 0 ? cval : (double)x[(z * n0 + p) * n1 + q]);
            }
          double want = ref_median(v), got = (double)out[(z * n0 + i) * n1 + j];
          if (!(want == got || (want != want && got != got))) {
            ++bad;
            printf("%s: (%lld, %lld, %lld) a0 %lld b0 %lld mode %d at (%lld, %lld, %lld): %g vs %g\n", name, batch, n0, n1, a0, b0, mode, z, i, j, got, want);
            return;
          }
        }
  }
}

int main() {
#define RUN(S)                                                   \
  one<float, float>("ff op0 s" #S " cols", t_ff_op0_s##S##_c, w_ff, 0, S, false);       \
  one<float, float>("ff op0 s" #S " rows", t_ff_op0_s##S##_r, w_ff, 0, S, true);        \
  if (S % 2) {                                                                            \
    one<double, double>("dd op1 s" #S " cols", t_dd_op1_s##S##_c, w_dd, 1, S, false);   \
    one<double, double>("dd op1 s" #S " rows", t_dd_op1_s##S##_r, w_dd, 1, S, true);    \
    one<double, double>("dd op2 s" #S " rows", t_dd_op2_s##S##_r, w_dd, 2, S, true);    \
  }                                                                                       \
  one<unsigned char, double>("ud op3 s" #S " cols", t_ud_op3_s##S##_c, w_ud, 3, S, false); \
  one<float, float>("ff op3 s" #S " rows", t_ff_op3_s##S##_r, w_ff, 3, S, true);        \
  one<float, float>("ff op4 s" #S " cols", t_ff_op4_s##S##_c, w_ff, 4, S, false);       \
  one<int, int>("ii op5 s" #S " rows", t_ii_op5_s##S##_r, w_ii, 5, S, true);
  RUN(1) RUN(2) RUN(3) RUN(5) RUN(8) RUN(17)
  one<float, float>("ff op3 s25 cols", t_ff_op3_s25_c, w_ff, 3, 25, false);
  one<double, double>("dd op1 s25 rows", t_dd_op1_s25_r, w_dd, 1, 25, true);
  pair<float, float>("pair ff 1s17 1s17", p_ff_1s17_1s17, w_ff, w_ff, 1, 17, 1, 17);
  pair<float, float>("pair ff 3s5 3s5", p_ff_3s5_3s5, w_ff, w_ff, 3, 5, 3, 5);
  pair<unsigned char, unsigned char>("pair uu 1s9 3s3", p_uu_1s9_3s3, w_uu, w_uu, 1, 9, 3, 3);
  pair<double, double>("pair dd 2s3 1s3", p_dd_2s3_1s3, w_dd, w_dd, 2, 3, 1, 3);
  pair<float, double>("pair fd 0s4 4s2", p_fd_0s4_4s2, w_fd, w_dd, 0, 4, 4, 2);
  pair<int, int>("pair ii 5s25 0s6", p_ii_5s25_0s6, w_ii, w_ii, 5, 25, 0, 6);
  pair<float, float>("pair ff 1s25 1s25", p_ff_1s25_1s25, w_ff, w_ff, 1, 25, 1, 25);
  median<float>("median f32", m_ff);
  median<long long>("median i64", m_ll);
  printf("%d cases, %d bad\n", cases, bad);
  return bad != 0;
}
