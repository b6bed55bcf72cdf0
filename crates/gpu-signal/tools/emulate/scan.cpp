// fixed_scan.cu's states and run passes on the host: see run.sh.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#define __device__
#define __forceinline__ inline
#define __global__
struct Dim {
  unsigned x, y, z;
};
// One thread in one block: the grid-stride loops walk every item.
static const Dim blockIdx{0, 0, 0}, blockDim{1, 1, 1}, gridDim{1, 1, 1}, threadIdx{0, 0, 0};
#include "carry.cuh"
#include "fixed_scan.cu"

static bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1.0 + std::fabs(a)); }

// Every case of the recursion Rec (coefficients as its `load` reads them)
// with the input stored as X (double, or float read into the double
// recursion: the values then are floats, and the reference widens them
// the same way); zi and zf in Rec's layout (Rec::at). Returns the bad
// cases.
template <class Rec, class X>
int run_cases(const char* label, const std::vector<double>& coef) {
  constexpr int kOrder = Rec::D;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int cases = 0, bad = 0;
  for (long long signals : {1LL, 3LL}) {
    for (long long n : {1LL, 7LL, 64LL, 1000LL}) {
      for (long long block : {1LL, 5LL, 16LL, 40LL, 1000LL}) {
        for (bool packed : {false, true}) {
          // Packed loads need n and block multiples of the larger pack
          // (2 doubles, 4 floats).
          constexpr long long pack = 16 / sizeof(X);
          if (packed && (n % pack || block % pack)) continue;
          const long long blocks = (n + block - 1) / block;
          std::vector<X> x(signals * n);
          std::vector<double> zi(signals * kOrder), y(signals * n, -9.0),
              zf(signals * kOrder, -9.0), state(signals * blocks * kOrder, -9.0),
              init(signals * blocks * kOrder, -9.0);
          for (X& v : x) v = (X)u(rng);
          for (double& v : zi) v = u(rng);
          cuprum_scan_walk<Rec, X, double, false>(x.data(), nullptr, coef.data(), zi.data(), nullptr,
                                               state.data(), nullptr, signals, n, block, blocks,
                                               packed);
          // The carry, serially: the state entering block k + 1 is block k
          // run from the state entering k; from the states pass, block 0's
          // final state is exact and the others' are zero-started, so
          // entering(k+1) = Phi^len(k) entering(k) + state(k), found here
          // by running each block again from its entering state.
          bool ok = true;
          for (long long m = 0; m < signals; ++m) {
            double z[kOrder];
            for (int r = 0; r < kOrder; ++r) z[r] = zi[Rec::at(m, r, signals)];
            Rec rec;
            rec.load(coef.data());
            for (long long k = 0; k < blocks; ++k) {
              if (k > 0)
                for (int r = 0; r < kOrder; ++r) init[(m * blocks + k) * kOrder + r] = z[r];
              // A zero-started walk of block k (k > 0) must equal the
              // states pass's row: check it on the side.
              double z0[kOrder] = {};
              if (k == 0)
                for (int r = 0; r < kOrder; ++r) z0[r] = zi[Rec::at(m, r, signals)];
              for (long long j = k * block; j < std::min(n, (k + 1) * block); ++j) {
                rec.step((double)x[m * n + j], z0);
                rec.step((double)x[m * n + j], z);
              }
              for (int r = 0; r < kOrder; ++r)
                ok = ok && z0[r] == state[(m * blocks + k) * kOrder + r];
            }
          }
          cuprum_scan_walk<Rec, X, double, true>(x.data(), y.data(), coef.data(), zi.data(),
                                              blocks > 1 ? init.data() : nullptr, nullptr,
                                              zf.data(), signals, n, block, blocks, packed);
          // Against SciPy's loop over each whole signal.
          for (long long m = 0; m < signals; ++m) {
            double z[kOrder];
            for (int r = 0; r < kOrder; ++r) z[r] = zi[Rec::at(m, r, signals)];
            Rec rec;
            rec.load(coef.data());
            for (long long j = 0; j < n; ++j) ok = ok && close(rec.step((double)x[m * n + j], z), y[m * n + j]);
            for (int r = 0; r < kOrder; ++r) ok = ok && close(z[r], zf[Rec::at(m, r, signals)]);
          }
          ++cases;
          if (!ok) {
            ++bad;
            std::printf("bad (%s): signals %lld n %lld block %lld packed %d\n", label, signals, n,
                        block, (int)packed);
          }
        }
      }
    }
  }
  std::printf("scan (%s input): %d cases, %d bad\n", label, cases, bad);
  return bad;
}

int main() {
  // A stable order-4 direct form (U = 4 packs a batch): b arbitrary, a
  // from two pole pairs of radius 0.9 and 0.7.
  const double a1 = -(2 * 0.9 * std::cos(0.3)), a2 = 0.81, c1 = -(2 * 0.7 * std::cos(1.1)),
               c2 = 0.49;
  std::vector<double> tdf = {0.2, -0.1, 0.3, 0.05, -0.02};
  for (double v : {1.0, a1 + c1, a2 + a1 * c1 + c2, a1 * c2 + a2 * c1, a2 * c2}) tdf.push_back(v);
  // A cascade of five sections, ten states (U = 2): b0 b1 b2 a1 a2 each,
  // poles of radius 0.5 to 0.9.
  std::vector<double> sos;
  for (int k = 0; k < 5; ++k) {
    const double r = 0.5 + 0.1 * k, w = 0.2 + 0.3 * k;
    for (double v : {0.3 + 0.1 * k, -0.2, 0.1, -2 * r * std::cos(w), r * r}) sos.push_back(v);
  }
  using Tdf = CuprumTdf2<double, 4>;
  using Sos = CuprumSosCascade<double, 5>;
  const int bad = run_cases<Tdf, double>("order-4 direct form, double", tdf) +
                  run_cases<Tdf, float>("order-4 direct form, float", tdf) +
                  run_cases<Sos, double>("5 sections, double", sos) +
                  run_cases<Sos, float>("5 sections, float", sos);
  return bad != 0;
}
