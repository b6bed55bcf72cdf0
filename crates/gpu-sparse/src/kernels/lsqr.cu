// The scalar recurrences of LSQR (Paige and Saunders, "LSQR: An algorithm
// for sparse linear equations and sparse least squares", ACM TOMS 8(1),
// 1982, sections 4 and 6), run by one thread on a state vector in device
// memory so that the solver never waits for the host between residual
// checks (src/linalg/lsqr.rs launches them and names the slots).
//
// Two steps an iteration, around the vector work:
//   beta:  after u = A v - alpha u and beta2 = |u|^2: beta, 1/beta and
//          the estimate of |A| (Frobenius norm of the bidiagonal).
//   alpha: after v = A^H u - beta v, alpha2 = |v|^2 and ww = |w|^2: alpha,
//          the plane rotations (damping first), the updates' coefficients
//          t1 = phi / rho and t2 = -theta / rho, the estimates of |x|,
//          |r|, |A^H r| and cond(A), and the stopping tests, which set
//          istop (and clear `live`, freezing every later update).

// Slots of the state vector (the same numbers as lsqr.rs's).
#define LS_ALPHA 0
#define LS_BETA 1
#define LS_RHOBAR 2
#define LS_PHIBAR 3
#define LS_ANORM 4
#define LS_ACOND 5
#define LS_DDNORM 6
#define LS_RES2 7
#define LS_XNORM 8
#define LS_XXNORM 9
#define LS_Z 10
#define LS_CS2 11
#define LS_SN2 12
#define LS_RNORM 13
#define LS_R1NORM 14
#define LS_R2NORM 15
#define LS_ARNORM 16
#define LS_ISTOP 17
#define LS_ITN 18
#define LS_LIVE 19
#define LS_INV_BETA 20
#define LS_V_SCALE 21
#define LS_T1 22
#define LS_T2 23
#define LS_BNORM 24
#define LS_DAMP 25
#define LS_ATOL 26
#define LS_BTOL 27
#define LS_CTOL 28
#define LS_ITER_LIM 29
#define LS_BETA_POS 30

extern "C" __global__ void cuprum_sparse_lsqr_beta(double* st, const double* beta2) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[LS_LIVE] == 0.0) return;
  const double beta = sqrt(fmax(*beta2, 0.0));
  st[LS_BETA] = beta;
  st[LS_BETA_POS] = beta > 0.0 ? 1.0 : 0.0;
  st[LS_INV_BETA] = beta > 0.0 ? 1.0 / beta : 1.0;
  if (beta > 0.0) {
    const double a = st[LS_ALPHA], d = st[LS_DAMP];
    const double an = st[LS_ANORM];
    st[LS_ANORM] = sqrt(an * an + a * a + beta * beta + d * d);
  }
}

extern "C" __global__ void cuprum_sparse_lsqr_alpha(double* st, const double* alpha2,
                                                    const double* ww) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[LS_LIVE] == 0.0) return;
  const double eps = 2.220446049250313e-16;
  const double beta = st[LS_BETA];
  double alpha = st[LS_ALPHA];
  st[LS_V_SCALE] = 1.0;
  if (beta > 0.0) {
    alpha = sqrt(fmax(*alpha2, 0.0));
    if (alpha > 0.0) st[LS_V_SCALE] = 1.0 / alpha;
  }
  st[LS_ALPHA] = alpha;
  const double itn = st[LS_ITN] + 1.0;
  st[LS_ITN] = itn;
  const double damp = st[LS_DAMP], dampsq = damp * damp;
  double rhobar = st[LS_RHOBAR], phibar = st[LS_PHIBAR];
  // Eliminate the damping parameter (a rotation that makes the
  // bidiagonal of the damped problem lower bidiagonal again).
  double rhobar1 = rhobar, psi = 0.0;
  if (damp > 0.0) {
    rhobar1 = hypot(rhobar, damp);
    const double cs1 = rhobar / rhobar1, sn1 = damp / rhobar1;
    psi = sn1 * phibar;
    phibar = cs1 * phibar;
  }
  // The rotation that eliminates the subdiagonal beta.
  const double rho = hypot(rhobar1, beta);
  const double cs = rho > 0.0 ? rhobar1 / rho : 1.0;
  const double sn = rho > 0.0 ? beta / rho : 0.0;
  const double theta = sn * alpha;
  rhobar = -cs * alpha;
  const double phi = cs * phibar;
  phibar = sn * phibar;
  const double tau = sn * phi;
  st[LS_RHOBAR] = rhobar;
  st[LS_PHIBAR] = phibar;
  st[LS_T1] = rho > 0.0 ? phi / rho : 0.0;
  st[LS_T2] = rho > 0.0 ? -theta / rho : 0.0;
  // |d_k|^2 = |w|^2 / rho^2 adds to the estimate of cond(A).
  double ddnorm = st[LS_DDNORM];
  if (rho > 0.0) ddnorm += *ww / (rho * rho);
  st[LS_DDNORM] = ddnorm;
  // |x| from the rotations applied to the lower bidiagonal system.
  const double cs2 = st[LS_CS2], sn2 = st[LS_SN2];
  const double delta = sn2 * rho, gambar = -cs2 * rho;
  const double rhs = phi - delta * st[LS_Z];
  const double zbar = gambar != 0.0 ? rhs / gambar : 0.0;
  double xxnorm = st[LS_XXNORM];
  st[LS_XNORM] = sqrt(xxnorm + zbar * zbar);
  const double gamma = hypot(gambar, theta);
  st[LS_CS2] = gamma > 0.0 ? gambar / gamma : 1.0;
  st[LS_SN2] = gamma > 0.0 ? theta / gamma : 0.0;
  const double z = gamma > 0.0 ? rhs / gamma : 0.0;
  st[LS_Z] = z;
  xxnorm += z * z;
  st[LS_XXNORM] = xxnorm;
  const double anorm = st[LS_ANORM];
  const double acond = anorm * sqrt(ddnorm);
  st[LS_ACOND] = acond;
  const double res2 = st[LS_RES2] + psi * psi;
  st[LS_RES2] = res2;
  const double rnorm = sqrt(phibar * phibar + res2);
  st[LS_RNORM] = rnorm;
  const double arnorm = alpha * fabs(tau);
  st[LS_ARNORM] = arnorm;
  const double r1sq = rnorm * rnorm - dampsq * xxnorm;
  st[LS_R1NORM] = r1sq < 0.0 ? -sqrt(-r1sq) : sqrt(r1sq);
  st[LS_R2NORM] = rnorm;
  // The stopping tests, the weakest first so that the strongest wins.
  const double bnorm = st[LS_BNORM], xnorm = st[LS_XNORM];
  const double test1 = rnorm / bnorm;
  const double test2 = arnorm / (anorm * rnorm + eps);
  const double test3 = 1.0 / (acond + eps);
  const double t1 = test1 / (1.0 + anorm * xnorm / bnorm);
  const double rtol = st[LS_BTOL] + st[LS_ATOL] * anorm * xnorm / bnorm;
  int istop = 0;
  if (itn >= st[LS_ITER_LIM]) istop = 7;
  if (1.0 + test3 <= 1.0) istop = 6;
  if (1.0 + test2 <= 1.0) istop = 5;
  if (1.0 + t1 <= 1.0) istop = 4;
  if (test3 <= st[LS_CTOL]) istop = 3;
  if (test2 <= st[LS_ATOL]) istop = 2;
  if (test1 <= rtol) istop = 1;
  st[LS_ISTOP] = istop;
}

// Clears `live` once a test has stopped the iteration: run after the
// vector updates of the iteration that stopped, so those still apply.
extern "C" __global__ void cuprum_sparse_lsqr_settle(double* st) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  if (st[LS_ISTOP] != 0.0) st[LS_LIVE] = 0.0;
}
