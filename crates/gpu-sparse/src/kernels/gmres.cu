// The scalar work of restarted GMRES (Saad and Schultz, "GMRES: a
// generalized minimal residual algorithm for solving nonsymmetric linear
// systems", SIAM J. Sci. Stat. Comput. 7(3), 1986; Saad, "Iterative
// Methods for Sparse Linear Systems", 2nd ed., Algorithm 6.9), run by one
// thread on a float64 state vector in device memory so that the Arnoldi
// loop never waits for the host (src/linalg/gmres.rs launches them and
// names the slots). Complex values are stored as separate real and
// imaginary runs; real solves leave the imaginary runs at zero.
//
//   column: after the Gram-Schmidt coefficients h[0..col] of the new
//           Arnoldi vector and its squared norms before (h0sq) and after
//           (h1sq) orthogonalisation: the breakdown test, the scale of
//           the next basis vector, the previous Givens rotations applied
//           to the column, the new rotation, the rotated right-hand side
//           g and the residual estimate |g[col + 1]|; sets `done` when
//           the estimate reaches the inner tolerance or on breakdown.
//   solve:  the upper triangular solve R y = g over the columns used.

#define GM_PRESID 0
#define GM_PTOL 1
#define GM_DONE 2
#define GM_NCOLS 3
#define GM_BREAKDOWN 4
#define GM_SCALE 5
#define GM_EPS 6
#define GM_H0SQ 7
#define GM_H1SQ 8
#define GM_HEAD 16

struct CuprumGmresLayout {
  long long m;
  long long hc_re, hc_im, cs, sn_re, sn_im, g_re, g_im, r_re, r_im, y_re, y_im;
  __device__ explicit CuprumGmresLayout(long long m_) : m(m_) {
    hc_re = GM_HEAD;
    hc_im = hc_re + m + 1;
    cs = hc_im + m + 1;
    sn_re = cs + m;
    sn_im = sn_re + m;
    g_re = sn_im + m;
    g_im = g_re + m + 1;
    r_re = g_im + m + 1;
    r_im = r_re + m * m;
    y_re = r_im + m * m;
    y_im = y_re + m;
  }
};

// Complex helpers on (re, im) pairs of doubles.
struct CuprumGmresC {
  double re, im;
};
__device__ __forceinline__ CuprumGmresC gm_mul(CuprumGmresC a, CuprumGmresC b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
__device__ __forceinline__ CuprumGmresC gm_conj(CuprumGmresC a) { return {a.re, -a.im}; }
__device__ __forceinline__ CuprumGmresC gm_add(CuprumGmresC a, CuprumGmresC b) {
  return {a.re + b.re, a.im + b.im};
}
__device__ __forceinline__ CuprumGmresC gm_sub(CuprumGmresC a, CuprumGmresC b) {
  return {a.re - b.re, a.im - b.im};
}
__device__ __forceinline__ CuprumGmresC gm_scale(double c, CuprumGmresC a) {
  return {c * a.re, c * a.im};
}
__device__ __forceinline__ double gm_abs(CuprumGmresC a) { return hypot(a.re, a.im); }
__device__ __forceinline__ CuprumGmresC gm_div(CuprumGmresC a, CuprumGmresC b) {
  // Smith's algorithm, no needless overflow.
  if (fabs(b.re) >= fabs(b.im)) {
    const double r = b.im / b.re, d = b.re + b.im * r;
    return {(a.re + a.im * r) / d, (a.im - a.re * r) / d};
  }
  const double r = b.re / b.im, d = b.re * r + b.im;
  return {(a.re * r + a.im) / d, (a.im * r - a.re) / d};
}

extern "C" __global__ void cuprum_sparse_gmres_column(double* st, long long m, long long col) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  if (st[GM_DONE] != 0.0 || col >= m) {
    // Columns queued after the stop: their basis vectors are zeroed.
    st[GM_SCALE] = 0.0;
    return;
  }
  const CuprumGmresLayout L(m);
  const double h0 = sqrt(fmax(st[GM_H0SQ], 0.0));
  const double h1 = sqrt(fmax(st[GM_H1SQ], 0.0));
  // Exact solution indicator (a lucky breakdown): the new vector lies in
  // the span of the basis.
  const bool breakdown = h1 <= st[GM_EPS] * h0;
  st[GM_SCALE] = breakdown ? 0.0 : 1.0 / h1;
  CuprumGmresC sub = {breakdown ? 0.0 : h1, 0.0};
  // The previous rotations, applied in order to the column.
  for (long long k = 0; k < col; ++k) {
    const double c = st[L.cs + k];
    const CuprumGmresC s = {st[L.sn_re + k], st[L.sn_im + k]};
    const CuprumGmresC n0 = {st[L.hc_re + k], st[L.hc_im + k]};
    const CuprumGmresC n1 = {st[L.hc_re + k + 1], st[L.hc_im + k + 1]};
    const CuprumGmresC a = gm_add(gm_scale(c, n0), gm_mul(s, n1));
    const CuprumGmresC b = gm_add(gm_scale(-1.0, gm_mul(gm_conj(s), n0)), gm_scale(c, n1));
    st[L.hc_re + k] = a.re;
    st[L.hc_im + k] = a.im;
    st[L.hc_re + k + 1] = b.re;
    st[L.hc_im + k + 1] = b.im;
  }
  // The new rotation [c s; -conj(s) c] taking (f, g) to (r, 0), c real.
  const CuprumGmresC f = {st[L.hc_re + col], st[L.hc_im + col]};
  const double af = gm_abs(f), ag = gm_abs(sub);
  double c;
  CuprumGmresC s, r;
  if (ag == 0.0) {
    c = 1.0;
    s = {0.0, 0.0};
    r = f;
  } else if (af == 0.0) {
    c = 0.0;
    s = gm_scale(1.0 / ag, gm_conj(sub));
    r = {ag, 0.0};
  } else {
    const double d = hypot(af, ag);
    const CuprumGmresC phase = gm_scale(1.0 / af, f);
    c = af / d;
    s = gm_scale(1.0 / d, gm_mul(phase, gm_conj(sub)));
    r = gm_scale(d, phase);
  }
  st[L.cs + col] = c;
  st[L.sn_re + col] = s.re;
  st[L.sn_im + col] = s.im;
  // Column col of R: the rotated entries above the diagonal and r.
  for (long long k = 0; k < col; ++k) {
    st[L.r_re + col * m + k] = st[L.hc_re + k];
    st[L.r_im + col * m + k] = st[L.hc_im + k];
  }
  st[L.r_re + col * m + col] = r.re;
  st[L.r_im + col * m + col] = r.im;
  // The right-hand side: g[col + 1] = -conj(s) g[col], g[col] = c g[col].
  const CuprumGmresC gc = {st[L.g_re + col], st[L.g_im + col]};
  const CuprumGmresC next = gm_scale(-1.0, gm_mul(gm_conj(s), gc));
  st[L.g_re + col] = c * gc.re;
  st[L.g_im + col] = c * gc.im;
  st[L.g_re + col + 1] = next.re;
  st[L.g_im + col + 1] = next.im;
  const double presid = gm_abs(next);
  st[GM_PRESID] = presid;
  st[GM_NCOLS] = (double)(col + 1);
  if (breakdown) st[GM_BREAKDOWN] = 1.0;
  if (presid <= st[GM_PTOL] || breakdown) {
    st[GM_DONE] = 1.0;
    st[GM_SCALE] = 0.0;
  }
}

// y = R^-1 g over the first ncols columns (zeros after them); a zero
// diagonal entry zeroes its unknown (SciPy's pseudo-solve of the singular
// case).
extern "C" __global__ void cuprum_sparse_gmres_solve(double* st, long long m) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const CuprumGmresLayout L(m);
  long long k = (long long)st[GM_NCOLS];
  if (k > m) k = m;
  for (long long j = 0; j < m; ++j) {
    st[L.y_re + j] = j < k ? st[L.g_re + j] : 0.0;
    st[L.y_im + j] = j < k ? st[L.g_im + j] : 0.0;
  }
  for (long long j = k - 1; j >= 0; --j) {
    const CuprumGmresC d = {st[L.r_re + j * m + j], st[L.r_im + j * m + j]};
    CuprumGmresC yj = {st[L.y_re + j], st[L.y_im + j]};
    yj = (d.re == 0.0 && d.im == 0.0) ? CuprumGmresC{0.0, 0.0} : gm_div(yj, d);
    st[L.y_re + j] = yj.re;
    st[L.y_im + j] = yj.im;
    for (long long i = 0; i < j; ++i) {
      const CuprumGmresC rij = {st[L.r_re + j * m + i], st[L.r_im + j * m + i]};
      const CuprumGmresC yi = gm_sub(CuprumGmresC{st[L.y_re + i], st[L.y_im + i]}, gm_mul(rij, yj));
      st[L.y_re + i] = yi.re;
      st[L.y_im + i] = yi.im;
    }
  }
}
