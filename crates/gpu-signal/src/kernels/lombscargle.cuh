// cuprum_sig_lombscargle: the generalized Lomb-Scargle periodogram of
// scipy.signal.lombscargle (SciPy 1.15 and later: weights, floating mean)
// at one angular frequency f, from the samples' times x, their normalized
// weights w (sum 1) and wy = w * y, in double. Two passes over the
// samples: the first finds the phase offset tau that decouples the cosine
// and sine terms, the second the least-squares amplitudes a and b of
// y ~ a cos(f x - tau) + b sin(f x - tau) (+ c with a floating mean).
// stat = [Y, YY] = [sum w y, sum w y^2].
namespace cuprum_sig {

struct Lomb {
  double power;  // 2 (a YC + b YS), the power in y's units squared
  double a, b, tau;
};

__device__ __forceinline__ Lomb lombscargle(double f, const double* x, const double* w,
                                            const double* wy, const double* stat, long long n,
                                            bool floating) {
  double cc = 0.0, cs = 0.0, c = 0.0, s = 0.0;
  for (long long k = 0; k < n; ++k) {
    double sn, cn;
    sincos(f * x[k], &sn, &cn);
    cc += w[k] * cn * cn;
    cs += w[k] * cn * sn;
    c += w[k] * cn;
    s += w[k] * sn;
  }
  double ss = 1.0 - cc;
  if (floating) {
    cc -= c * c;
    ss -= s * s;
    cs -= c * s;
  }
  const double tau = 0.5 * atan2(2.0 * cs, cc - ss);
  double yc = 0.0, ys = 0.0;
  cc = 0.0;
  c = 0.0;
  s = 0.0;
  for (long long k = 0; k < n; ++k) {
    double sn, cn;
    sincos(f * x[k] - tau, &sn, &cn);
    yc += wy[k] * cn;
    ys += wy[k] * sn;
    cc += w[k] * cn * cn;
    c += w[k] * cn;
    s += w[k] * sn;
  }
  ss = 1.0 - cc;
  if (floating) {
    yc -= stat[0] * c;
    ys -= stat[0] * s;
    cc -= c * c;
    ss -= s * s;
  }
  // float64's epsneg (2^-53): keeps both denominators positive, as SciPy.
  const double epsneg = 1.1102230246251565e-16;
  cc = cc < epsneg ? epsneg : cc;
  ss = ss < epsneg ? epsneg : ss;
  Lomb r;
  r.a = yc / cc;
  r.b = ys / ss;
  r.tau = tau;
  r.power = 2.0 * (r.a * yc + r.b * ys);
  return r;
}

}  // namespace cuprum_sig
