// The scalar recurrences of LSMR (Fong and Saunders, "LSMR: An iterative
// algorithm for sparse least-squares problems", SIAM J. Sci. Comput.
// 33(5), 2011, sections 2 to 5: the rotations of Algorithm 2, the
// estimate of |r| of section 3.2, of |A| and cond(A) of section 5.2 and
// the stopping rules of section 5), run by one thread on a state vector
// in device memory so that the solver never waits for the host between
// reads of its stopping flag (src/linalg/lsmr.rs launches them and names
// the slots).
//
// Three steps an iteration, around the vector work:
//   beta:  after u = A v - alpha u and beta2 = |u|^2: beta and 1/beta.
//   alpha: after v = A^H u - beta v and alpha2 = |v|^2: alpha, 1/alpha,
//          the rotations, the coefficients of the updates of hbar, x and
//          h, and the estimates of |r|, |A^H r|, |A| and cond(A).
//   test:  after the updates and xx = |x|^2: |x| and the stopping tests,
//          which set istop and clear `live`, freezing every later update.

#define LM_ALPHA 0
#define LM_BETA 1
#define LM_ALPHABAR 2
#define LM_RHO 3
#define LM_RHOBAR 4
#define LM_CBAR 5
#define LM_SBAR 6
#define LM_ZETA 7
#define LM_ZETABAR 8
#define LM_BETADD 9
#define LM_BETAD 10
#define LM_RHODOLD 11
#define LM_TAUTILDEOLD 12
#define LM_THETATILDE 13
#define LM_D 14
#define LM_NORMA2 15
#define LM_MAXRBAR 16
#define LM_MINRBAR 17
#define LM_NORMA 18
#define LM_CONDA 19
#define LM_NORMX 20
#define LM_NORMR 21
#define LM_NORMAR 22
#define LM_ISTOP 23
#define LM_ITN 24
#define LM_LIVE 25
#define LM_INV_BETA 26
#define LM_BETA_POS 27
#define LM_V_SCALE 28
#define LM_C_HBAR 29
#define LM_C_X 30
#define LM_C_H 31
#define LM_NORMB 32
#define LM_DAMP 33
#define LM_ATOL 34
#define LM_BTOL 35
#define LM_CTOL 36
#define LM_MAXITER 37

// NumPy's sign: -1, 0 or 1.
__device__ __forceinline__ double lm_sign(double a) {
  return a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
}

// A stable plane rotation (c, s, r) with [c s; -s c] [a; b] = [r; 0]
// (the paper's SymOrtho).
__device__ __forceinline__ void lm_sym_ortho(double a, double b, double* c, double* s,
                                             double* r) {
  if (b == 0.0) {
    *c = lm_sign(a);
    *s = 0.0;
    *r = fabs(a);
  } else if (a == 0.0) {
    *c = 0.0;
    *s = lm_sign(b);
    *r = fabs(b);
  } else if (fabs(b) > fabs(a)) {
    const double tau = a / b;
    *s = lm_sign(b) / sqrt(1.0 + tau * tau);
    *c = *s * tau;
    *r = b / *s;
  } else {
    const double tau = b / a;
    *c = lm_sign(a) / sqrt(1.0 + tau * tau);
    *s = *c * tau;
    *r = a / *c;
  }
}

// num / den, 0 where den is 0 (a breakdown of the recurrence: the update
// it scales is then not taken).
__device__ __forceinline__ double lm_div(double num, double den) {
  return den != 0.0 ? num / den : 0.0;
}

extern "C" __global__ void cuprum_sparse_lsmr_beta(double* st, const double* beta2) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[LM_LIVE] == 0.0) return;
  const double beta = sqrt(fmax(*beta2, 0.0));
  st[LM_BETA] = beta;
  st[LM_BETA_POS] = beta > 0.0 ? 1.0 : 0.0;
  st[LM_INV_BETA] = beta > 0.0 ? 1.0 / beta : 1.0;
}

extern "C" __global__ void cuprum_sparse_lsmr_alpha(double* st, const double* alpha2) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[LM_LIVE] == 0.0) return;
  const double beta = st[LM_BETA];
  double alpha = st[LM_ALPHA];
  st[LM_V_SCALE] = 1.0;
  if (beta > 0.0) {
    alpha = sqrt(fmax(*alpha2, 0.0));
    if (alpha > 0.0) st[LM_V_SCALE] = 1.0 / alpha;
  }
  st[LM_ALPHA] = alpha;
  const double itn = st[LM_ITN] + 1.0;
  st[LM_ITN] = itn;
  // The rotation that eliminates the damping (Qhat), then Q_k.
  double chat, shat, alphahat;
  lm_sym_ortho(st[LM_ALPHABAR], st[LM_DAMP], &chat, &shat, &alphahat);
  const double rhoold = st[LM_RHO];
  double c, s, rho;
  lm_sym_ortho(alphahat, beta, &c, &s, &rho);
  const double thetanew = s * alpha;
  st[LM_ALPHABAR] = c * alpha;
  // Qbar_k.
  const double rhobarold = st[LM_RHOBAR];
  const double zetaold = st[LM_ZETA];
  double cbar = st[LM_CBAR], sbar = st[LM_SBAR];
  const double thetabar = sbar * rho;
  const double rhotemp = cbar * rho;
  double rhobar;
  lm_sym_ortho(cbar * rho, thetanew, &cbar, &sbar, &rhobar);
  const double zetabar_old = st[LM_ZETABAR];
  const double zeta = cbar * zetabar_old;
  const double zetabar = -sbar * zetabar_old;
  st[LM_RHO] = rho;
  st[LM_RHOBAR] = rhobar;
  st[LM_CBAR] = cbar;
  st[LM_SBAR] = sbar;
  st[LM_ZETA] = zeta;
  st[LM_ZETABAR] = zetabar;
  // hbar = h - thetabar rho / (rhoold rhobarold) hbar; x += zeta /
  // (rho rhobar) hbar; h = v - thetanew / rho h.
  st[LM_C_HBAR] = -lm_div(thetabar * rho, rhoold * rhobarold);
  st[LM_C_X] = lm_div(zeta, rho * rhobar);
  st[LM_C_H] = -lm_div(thetanew, rho);
  // The estimate of |r| (section 3.2: the rotations applied to the
  // right-hand side of the least-squares subproblem).
  const double betadd_old = st[LM_BETADD];
  const double betaacute = chat * betadd_old;
  const double betacheck = -shat * betadd_old;
  const double betahat = c * betaacute;
  const double betadd = -s * betaacute;
  const double thetatildeold = st[LM_THETATILDE];
  double ctildeold, stildeold, rhotildeold;
  lm_sym_ortho(st[LM_RHODOLD], thetabar, &ctildeold, &stildeold, &rhotildeold);
  const double thetatilde = stildeold * rhobar;
  const double rhodold = ctildeold * rhobar;
  const double betad = -stildeold * st[LM_BETAD] + ctildeold * betahat;
  const double tautildeold =
      lm_div(zetaold - thetatildeold * st[LM_TAUTILDEOLD], rhotildeold);
  const double taud = lm_div(zeta - thetatilde * tautildeold, rhodold);
  const double d = st[LM_D] + betacheck * betacheck;
  st[LM_BETADD] = betadd;
  st[LM_THETATILDE] = thetatilde;
  st[LM_RHODOLD] = rhodold;
  st[LM_BETAD] = betad;
  st[LM_TAUTILDEOLD] = tautildeold;
  st[LM_D] = d;
  st[LM_NORMR] = sqrt(d + (betad - taud) * (betad - taud) + betadd * betadd);
  // |A| (Frobenius norm of the bidiagonal so far) and cond(A).
  double norma2 = st[LM_NORMA2] + beta * beta;
  st[LM_NORMA] = sqrt(norma2);
  norma2 += alpha * alpha;
  st[LM_NORMA2] = norma2;
  const double maxrbar = fmax(st[LM_MAXRBAR], rhobarold);
  double minrbar = st[LM_MINRBAR];
  if (itn > 1.0) minrbar = fmin(minrbar, rhobarold);
  st[LM_MAXRBAR] = maxrbar;
  st[LM_MINRBAR] = minrbar;
  st[LM_CONDA] = fmax(maxrbar, rhotemp) / fmin(minrbar, rhotemp);
  st[LM_NORMAR] = fabs(zetabar);
}

// After the updates of the iteration, with xx = |x|^2: the stopping
// tests, the weakest first so that the strongest wins; a stop clears
// `live` (this iteration's updates are already done).
extern "C" __global__ void cuprum_sparse_lsmr_test(double* st, const double* xx) {
  if (threadIdx.x != 0 || blockIdx.x != 0 || st[LM_LIVE] == 0.0) return;
  const double normx = sqrt(fmax(*xx, 0.0));
  st[LM_NORMX] = normx;
  const double normb = st[LM_NORMB], norma = st[LM_NORMA];
  const double normr = st[LM_NORMR], normar = st[LM_NORMAR];
  const double test1 = normr / normb;
  const double test2 = norma * normr != 0.0 ? normar / (norma * normr) : __longlong_as_double(0x7ff0000000000000LL);  // inf
  const double test3 = 1.0 / st[LM_CONDA];
  const double t1 = test1 / (1.0 + norma * normx / normb);
  const double rtol = st[LM_BTOL] + st[LM_ATOL] * norma * normx / normb;
  int istop = 0;
  if (st[LM_ITN] >= st[LM_MAXITER]) istop = 7;
  if (1.0 + test3 <= 1.0) istop = 6;
  if (1.0 + test2 <= 1.0) istop = 5;
  if (1.0 + t1 <= 1.0) istop = 4;
  if (test3 <= st[LM_CTOL]) istop = 3;
  if (test2 <= st[LM_ATOL]) istop = 2;
  if (test1 <= rtol) istop = 1;
  st[LM_ISTOP] = istop;
  if (istop != 0) st[LM_LIVE] = 0.0;
}
