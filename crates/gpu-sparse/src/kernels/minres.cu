// The scalar recurrences of MINRES (Paige and Saunders, "Solution of
// sparse indefinite systems of linear equations", SIAM J. Numer. Anal.
// 12(4), 1975; the stopping rules of their later implementation, which
// SciPy's minres follows), run by one thread on a float64 state vector in
// device memory (src/linalg/minres.rs launches them and names the slots).
//
//   beta: after beta2 = r2^H M r2 of the new Lanczos vector: beta, the
//         estimate of |T| (tnorm2), the previous rotation applied to the
//         new column of T, the next rotation, the coefficients of the
//         direction w and of the x update (oldeps, delta, denom, phi), the
//         estimates of |A|, cond(A), |r|, |A r|, and the scalars of the
//         next Lanczos step (1 / beta, beta / oldb).
//   test: after ynorm2 = |x|^2: the stopping tests (istop), clearing
//         `live` once one has stopped the iteration.

#define MR_BETA 0
#define MR_OLDB 1
#define MR_BETA1 2
#define MR_DBAR 3
#define MR_EPSLN 4
#define MR_PHIBAR 5
#define MR_RHS1 6
#define MR_RHS2 7
#define MR_TNORM2 8
#define MR_GMAX 9
#define MR_GMIN 10
#define MR_CS 11
#define MR_SN 12
#define MR_ISTOP 13
#define MR_ITN 14
#define MR_LIVE 15
#define MR_ALFA 16
#define MR_S 17
#define MR_C_R1 18
#define MR_C_R2 19
#define MR_OLDEPS 20
#define MR_DELTA 21
#define MR_DENOM 22
#define MR_PHI 23
#define MR_ANORM 24
#define MR_ACOND 25
#define MR_RNORM 26
#define MR_YNORM 27
#define MR_RTOL 28
#define MR_MAXITER 29
#define MR_EPS 30
#define MR_BETA2 31
#define MR_YNORM2 32
#define MR_ROOT 33
#define MR_GBAR 34

// istop for a negative r2^H M r2 (SciPy raises "non-symmetric matrix").
#define MR_NOT_SYMMETRIC 99.0

extern "C" __global__ void cuprum_sparse_minres_beta(double* st) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[MR_LIVE] == 0.0) return;
  const double eps = st[MR_EPS];
  const double itn = st[MR_ITN] + 1.0;
  st[MR_ITN] = itn;
  const double alfa = st[MR_ALFA];
  const double oldb = st[MR_BETA];
  const double beta2 = st[MR_BETA2];
  st[MR_OLDB] = oldb;
  if (beta2 < 0.0) {
    st[MR_ISTOP] = MR_NOT_SYMMETRIC;
    st[MR_LIVE] = 0.0;
    return;
  }
  const double beta = sqrt(beta2);
  st[MR_BETA] = beta;
  st[MR_TNORM2] += alfa * alfa + oldb * oldb + beta * beta;
  if (itn == 1.0 && beta / st[MR_BETA1] <= 10.0 * eps) {
    st[MR_ISTOP] = -1.0;  // b and x are eigenvectors of M A: stop after the update
  }
  // The previous rotation Q_{k-1} on the new column of T:
  //   [delta_k  epsln_{k+1}] = [cs  sn][dbar_k  0        ]
  //   [gbar_k   dbar_{k+1} ]   [sn -cs][alfa_k  beta_{k+1}].
  const double cs = st[MR_CS], sn = st[MR_SN], dbar = st[MR_DBAR];
  const double oldeps = st[MR_EPSLN];
  const double delta = cs * dbar + sn * alfa;
  const double gbar = sn * dbar - cs * alfa;
  const double epsln = sn * beta;
  st[MR_EPSLN] = epsln;
  st[MR_DBAR] = -cs * beta;
  st[MR_ROOT] = hypot(gbar, -cs * beta);
  st[MR_GBAR] = gbar;
  // The next rotation Q_k.
  const double gamma = fmax(hypot(gbar, beta), eps);
  const double ncs = gbar / gamma, nsn = beta / gamma;
  st[MR_CS] = ncs;
  st[MR_SN] = nsn;
  double phibar = st[MR_PHIBAR];
  const double phi = ncs * phibar;
  phibar = nsn * phibar;
  st[MR_PHIBAR] = phibar;
  // w = (v - oldeps w1 - delta w2) / gamma; x += phi w.
  st[MR_OLDEPS] = oldeps;
  st[MR_DELTA] = delta;
  st[MR_DENOM] = 1.0 / gamma;
  st[MR_PHI] = phi;
  st[MR_GMAX] = fmax(st[MR_GMAX], gamma);
  st[MR_GMIN] = fmin(st[MR_GMIN], gamma);
  const double z = st[MR_RHS1] / gamma;
  st[MR_RHS1] = st[MR_RHS2] - delta * z;
  st[MR_RHS2] = -epsln * z;
  st[MR_ANORM] = sqrt(st[MR_TNORM2]);
  st[MR_ACOND] = st[MR_GMAX] / st[MR_GMIN];
  st[MR_RNORM] = phibar;
  // The next Lanczos step: v = y / beta, y -= (beta / oldb) r1.
  st[MR_S] = beta > 0.0 ? 1.0 / beta : 0.0;
  st[MR_C_R1] = oldb > 0.0 ? beta / oldb : 0.0;
}

extern "C" __global__ void cuprum_sparse_minres_test(double* st) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[MR_LIVE] == 0.0) return;
  const double eps = st[MR_EPS], rtol = st[MR_RTOL];
  const double anorm = st[MR_ANORM];
  const double ynorm = sqrt(fmax(st[MR_YNORM2], 0.0));
  st[MR_YNORM] = ynorm;
  const double rnorm = st[MR_RNORM];
  const double epsx = anorm * ynorm * eps;
  const double inf = __longlong_as_double(0x7ff0000000000000LL);
  const double test1 = (ynorm == 0.0 || anorm == 0.0) ? inf : rnorm / (anorm * ynorm);
  const double test2 = anorm == 0.0 ? inf : st[MR_ROOT] / anorm;
  double istop = st[MR_ISTOP];
  if (istop == 0.0) {
    // The weakest first, so that the strongest wins (SciPy's order).
    if (1.0 + test2 <= 1.0) istop = 2.0;
    if (1.0 + test1 <= 1.0) istop = 1.0;
    if (st[MR_ITN] >= st[MR_MAXITER]) istop = 6.0;
    if (st[MR_ACOND] >= 0.1 / eps) istop = 4.0;
    if (epsx >= st[MR_BETA1]) istop = 3.0;
    if (test2 <= rtol) istop = 2.0;
    if (test1 <= rtol) istop = 1.0;
  }
  st[MR_ISTOP] = istop;
  if (istop != 0.0) st[MR_LIVE] = 0.0;
}
