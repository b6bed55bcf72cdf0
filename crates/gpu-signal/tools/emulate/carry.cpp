// The carry's phases (carry.cuh) on the host: see run.sh.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#define __device__
#define __forceinline__ inline
struct Dim {
  unsigned x, y, z;
};
// One thread in one block: the grid-stride loops walk every item.
static const Dim blockIdx{0, 0, 0}, blockDim{1, 1, 1}, gridDim{1, 1, 1}, threadIdx{0, 0, 0};
#include "carry.cuh"

constexpr int kOrder = 8;

// Phases 0, 1, 2 as the host launches them; init and zf start poisoned.
template <int D>
static void carry(long long signals, long long blocks, long long group, long long groups,
                  const std::vector<double>& state, const std::vector<double>& mats, bool want_zf,
                  std::vector<double>& init, std::vector<double>& zf) {
  std::vector<double> sums(std::max<long long>(1, signals * groups * kOrder), -7.0);
  init.assign(signals * blocks * kOrder, -9.0);
  zf.assign(signals * kOrder, -5.0);
  double* z = want_zf ? zf.data() : nullptr;
  for (int phase = 0; phase < 3; ++phase) {
    if (phase != 1 && groups == 0) continue;
    cuprum_lfilter_carry<double, D>(state.data(), mats.data(), sums.data(), init.data(), z,
                                    kOrder, signals, blocks, group, groups, phase);
  }
}

// m^e (n x n, row-major) by repeated products.
static std::vector<double> power(const double* m, int e) {
  const int n = kOrder;
  std::vector<double> r(n * n, 0.0);
  for (int i = 0; i < n; ++i) r[i * n + i] = 1.0;
  for (int t = 0; t < e; ++t) {
    std::vector<double> q(n * n, 0.0);
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < n; ++k)
        for (int j = 0; j < n; ++j) q[i * n + j] += r[i * n + k] * m[k * n + j];
    r = q;
  }
  return r;
}

static bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * (1.0 + std::fabs(a)); }

int main() {
  const int n = kOrder, nn = n * n;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int cases = 0, bad = 0;
  for (long long blocks : {1LL, 2LL, 3LL, 4LL, 10LL, 37LL, 256LL}) {
    const long long steps = blocks >= 2 ? blocks - 2 : 0;
    long long root = 1;
    while (root * root < steps) ++root;
    for (long long signals : {1LL, 3LL}) {
      for (long long group : {root, 1LL, steps > 0 ? steps : 1LL}) {
        const long long groups = (steps + group - 1) / group;
        std::vector<double> state(signals * blocks * n), mats(4 * nn);
        for (double& v : state) v = u(rng);
        for (int k = 0; k < 2 * nn; ++k) mats[k] = 0.3 * u(rng);
        const std::vector<double> pg = power(mats.data(), (int)group);
        const std::vector<double> pl =
            power(mats.data(), groups > 0 ? (int)(steps - (groups - 1) * group) : 0);
        std::copy(pg.begin(), pg.end(), mats.begin() + 2 * nn);
        std::copy(pl.begin(), pl.end(), mats.begin() + 3 * nn);
        for (bool want_zf : {false, true}) {
          std::vector<double> i0, z0, i8, z8;
          carry<0>(signals, blocks, group, groups, state, mats, want_zf, i0, z0);
          carry<kOrder>(signals, blocks, group, groups, state, mats, want_zf, i8, z8);
          // Every row but each signal's block 0 (never written).
          bool same = std::memcmp(z0.data(), z8.data(), z0.size() * sizeof(double)) == 0;
          bool ok = true;
          for (long long m = 0; m < signals; ++m) {
            const long long row = (m * blocks + 1) * n;
            same = same && std::memcmp(&i0[row], &i8[row], (blocks - 1) * n * sizeof(double)) == 0;
            // The serial recursion: z[1] = s[0], z[k+1] = Phi z[k] + s[k],
            // zf = Phi_last z[K-1] + s[K-1].
            std::vector<double> v(state.begin() + m * blocks * n,
                                  state.begin() + (m * blocks + 1) * n);
            for (long long k = 1; k < blocks; ++k) {
              for (int r = 0; r < n; ++r) ok = ok && close(v[r], i8[(m * blocks + k) * n + r]);
              const double* p = k + 1 == blocks ? &mats[nn] : &mats[0];
              std::vector<double> w(n);
              for (int i = 0; i < n; ++i) {
                double acc = state[(m * blocks + k) * n + i];
                for (int j = 0; j < n; ++j) acc += p[i * n + j] * v[j];
                w[i] = acc;
              }
              v = w;
            }
            if (want_zf && blocks >= 2)
              for (int r = 0; r < n; ++r) ok = ok && close(v[r], z8[m * n + r]);
          }
          ++cases;
          if (!same || !ok) {
            ++bad;
            std::printf("bad: blocks %lld signals %lld group %lld zf %d (D=0 vs D=8 %s)\n",
                        blocks, signals, group, (int)want_zf, same ? "equal" : "differ");
          }
        }
      }
    }
  }
  std::printf("carry: %d cases, %d bad\n", cases, bad);
  return bad != 0;
}
