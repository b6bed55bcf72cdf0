"""Goldens for gpu-signal's LTI conversions (SciPy's own outputs):
lti_golden.npz, read by the host tests of src/lti (no GPU). Members are
`<function>__<i>__<part>`:

- tf2ss: `num`, `den` and `A`, `B`, `C`, `D`;
- ss2tf: `A`, `B`, `C`, `D`, `input` and `num` (outputs x (n + 1)), `den`
  (systems of 1-5 states, 1-3 inputs and outputs, random entries);
- c2d: `params` = [method, alpha or nan, dt] (methods: zoh, foh, impulse,
  bilinear, euler, backward_diff, gbt), `A` .. `D` and `Ad` .. `Dd`;
  c2d_tf: the same `params`, `num`, `den`, `numd` (1 x len), `dend`;
- dlsim: `params` = [dt, has t, has x0], the system, `u`, `t`, `x0`
  (empty: none), `tout`, `yout`, `xout`; dresp: `params` = [dt, n], the
  system, dimpulse's `ti`, `yi` and dstep's `ts`, `ys` (inputs x samples x
  outputs);
- lsim: `params` = [interp, has u, has x0, t0], the system, `t`, `u`, `x0`
  (empty: none), `y`, `x` (steps x outputs, steps x states); cresp:
  `params` = [N or 0 (T = linspace(0, 3, 31)), step has x0, impulse has
  x0 (SciPy's impulse takes none past one state)], the system, `x0`,
  impulse's `ti`, `yi` and step's `ts`, `ys`;
- resp (freqresp, bode) and dresp2 (dfreqresp, dbode, dt 0.1): `params` =
  [form (0 tf, 1 zpk, 2 ss), n or 0 (w given), dt], the system's parts,
  `w`, `hr`, `hi`, and bode's `wb`, `mag`, `phase`.

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal

from golden_members import Members


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261207)
    members = Members()
    m, add = members.m, members.add

    for num, den in (([1.0, 3.0, 3.0], [1.0, 2.0, 1.0]), ([1.0], [1.0, 0.5]),
                     ([2.0, 1.0], [4.0, 3.0, 2.0, 1.0]), ([5.0], [2.0]),
                     ([0.0, 0.0, 1.0, 2.0], [1.0, -1.5, 0.7, -0.1]),
                     ([3.0, 2.0, 1.0], [1.0, 0.0, 0.0])):
        a, b, c, d = signal.tf2ss(num, den)
        add("tf2ss", num=num, den=den, A=a, B=b, C=c, D=d)
    for n, p, q in ((1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 1, 2), (5, 3, 3), (3, 1, 1)):
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, p))
        c = rng.standard_normal((q, n))
        d = rng.standard_normal((q, p))
        for inp in range(p):
            num, den = signal.ss2tf(a, b, c, d, input=inp)
            add("ss2tf", A=a, B=b, C=c, D=d, input=[inp], num=np.atleast_2d(num),
                den=np.atleast_1d(den))

    # cont2discrete: [method code, alpha or nan, dt]; codes as METHODS.
    methods = [("zoh", None), ("foh", None), ("impulse", None), ("bilinear", None),
               ("euler", None), ("backward_diff", None), ("gbt", 0.3)]
    for n, p, q in ((1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 1, 2)):
        a = rng.standard_normal((n, n)) - 2.0 * np.eye(n)
        b = rng.standard_normal((n, p))
        c = rng.standard_normal((q, n))
        for code, (method, alpha) in enumerate(methods):
            d = np.zeros((q, p)) if method == "impulse" else rng.standard_normal((q, p))
            dt = 0.1 + 0.2 * code
            ad, bd, cd, dd, _ = signal.cont2discrete((a, b, c, d), dt, method=method, alpha=alpha)
            add("c2d", params=[code, np.nan if alpha is None else alpha, dt], A=a, B=b, C=c, D=d,
                Ad=ad, Bd=bd, Cd=cd, Dd=dd)
    for num, den in (([1.0], [1.0, 1.0]), ([1.0, 2.0], [1.0, 3.0, 2.0]),
                     ([2.0, 0.0, 1.0], [1.0, 0.4, 1.5, 0.3])):
        for code, (method, alpha) in enumerate(methods):
            if method == "impulse" and len(num) == len(den):
                continue
            dt = 0.05 + 0.1 * code
            nd, dd, _ = signal.cont2discrete((num, den), dt, method=method, alpha=alpha)
            add("c2d_tf", params=[code, np.nan if alpha is None else alpha, dt], num=num,
                den=den, numd=np.atleast_2d(nd), dend=dd)

    # dlsim: [dt, has t, has x0]; u (samples x inputs), t, x0; tout, yout,
    # xout. dimpulse/dstep: [dt, n]; y (inputs x samples x outputs).
    for n, p, q in ((1, 1, 1), (2, 1, 1), (3, 2, 2)):
        a = 0.5 * rng.standard_normal((n, n))
        b = rng.standard_normal((n, p))
        c = rng.standard_normal((q, n))
        d = rng.standard_normal((q, p))
        for dt, with_t, with_x0 in ((0.1, False, False), (0.5, True, False), (1.0, False, True),
                                    (0.3, True, True)):
            u = rng.standard_normal((12, p))
            t = np.cumsum(rng.uniform(0.2, 0.6, 12)) - 0.2 if with_t else None
            x0 = rng.standard_normal(n) if with_x0 else None
            tout, yout, xout = signal.dlsim((a, b, c, d, dt), u, t=t, x0=x0)
            add("dlsim", params=[dt, float(with_t), float(with_x0)], A=a, B=b, C=c, D=d, u=u,
                t=[] if t is None else t, x0=[] if x0 is None else x0, tout=tout, yout=yout,
                xout=xout)
        for dt, steps in ((0.1, 100), (0.7, 13)):
            ti, yi = signal.dimpulse((a, b, c, d, dt), n=steps)
            ts, ys = signal.dstep((a, b, c, d, dt), n=steps)
            add("dresp", params=[dt, steps], A=a, B=b, C=c, D=d, ti=ti, yi=np.array(yi),
                ts=ts, ys=np.array(ys))

    # lsim: [interp, has u, has x0, t0]; impulse/step ("cresp"): [n or 0
    # (t given), has x0]. Stable random systems.
    for n, p, q in ((1, 1, 1), (2, 1, 1), (3, 2, 2), (4, 1, 2)):
        a = rng.standard_normal((n, n)) - 2.0 * np.eye(n)
        b = rng.standard_normal((n, p))
        c = rng.standard_normal((q, n))
        d = rng.standard_normal((q, p))
        for interp, has_u, has_x0, t0 in ((True, True, False, 0.0), (False, True, True, 0.0),
                                          (True, False, True, 0.5), (False, True, False, 0.25)):
            t = t0 + 0.05 * np.arange(40)
            u = rng.standard_normal((40, p)) if has_u else None
            x0 = rng.standard_normal(n) if has_x0 else None
            _, y, x = signal.lsim((a, b, c, d), u, t, X0=x0, interp=interp)
            add("lsim", params=[float(interp), float(has_u), float(has_x0), t0], A=a, B=b, C=c,
                D=d, t=t, u=[] if u is None else u, x0=[] if x0 is None else x0,
                y=np.reshape(y, (40, q)), x=np.reshape(x, (40, n)))
        if p == 1:
            for nn, has_x0 in ((100, False), (0, True)):
                x0 = rng.standard_normal(n) if has_x0 else None
                tg = None if nn else np.linspace(0.0, 3.0, 31)
                # SciPy's impulse forms B + X0 by broadcasting, which fails
                # for more than one state: X0 only with one.
                xi = x0 if n == 1 else None
                ti, yi = signal.impulse((a, b, c, d), X0=xi, T=tg, N=nn or None)
                ts, ys = signal.step((a, b, c, d), X0=x0, T=tg, N=nn or None)
                add("cresp", params=[nn, float(has_x0), float(xi is not None)], A=a, B=b, C=c,
                    D=d,
                    x0=[] if x0 is None else x0, ti=ti, yi=np.reshape(yi, (len(ti), q)), ts=ts,
                    ys=np.reshape(ys, (len(ts), q)))

    # freqresp/bode ("resp") and dfreqresp/dbode ("dresp2"): [form (0 tf,
    # 1 zpk, 2 ss), n or 0 (w given), dt]; the system's parts; w, h, mag,
    # phase.
    tf = ([1.0, 3.0], [1.0, 2.0, 5.0])
    zpk = (np.array([-1.0]), np.array([-2.0 + 1j, -2.0 - 1j, -0.5]), 3.0)
    ss = (np.array([[-1.0, 2.0], [-3.0, -0.5]]), np.array([[1.0], [0.5]]),
          np.array([[1.0, -1.0]]), np.array([[0.2]]))
    wg = np.array([0.01, 0.3, 1.0, 2.5, 40.0])
    for form, system in enumerate((tf, zpk, ss)):
        for nn in (50, 0):
            w = None if nn else wg
            w1, h = signal.freqresp(system, w=w, n=nn or 10000)
            w2, mag, phase = signal.bode(system, w=w, n=nn or 100)
            parts = dict(zip(["num", "den"], system)) if form == 0 else (
                dict(zr=np.real(system[0]), zi=np.imag(system[0]), pr=np.real(system[1]),
                     pi=np.imag(system[1]), k=[system[2]]) if form == 1 else
                dict(zip(["A", "B", "C", "D"], system)))
            add("resp", params=[form, nn, np.nan], w=w1, hr=np.real(h), hi=np.imag(h), wb=w2,
                mag=mag, phase=phase, **parts)
    dtf = ([0.5, 0.5], [1.0, -0.3, 0.2])
    dzpk = (np.array([-1.0]), np.array([0.5 + 0.5j, 0.5 - 0.5j]), 0.25)
    dss = (np.array([[0.5, 0.1], [-0.2, 0.3]]), np.array([[1.0], [0.0]]),
           np.array([[1.0, 1.0]]), np.array([[0.0]]))
    wd = np.array([0.0, 0.4, 1.2, 3.0])
    for form, system in enumerate((dtf, dzpk, dss)):
        for nn in (64, 0):
            w = None if nn else wd
            w1, h = signal.dfreqresp(system + (0.1,), w=w, n=nn or 10000)
            w2, mag, phase = signal.dbode(system + (0.1,), w=w, n=nn or 100)
            parts = dict(zip(["num", "den"], system)) if form == 0 else (
                dict(zr=np.real(system[0]), zi=np.imag(system[0]), pr=np.real(system[1]),
                     pi=np.imag(system[1]), k=[system[2]]) if form == 1 else
                dict(zip(["A", "B", "C", "D"], system)))
            add("dresp2", params=[form, nn, 0.1], w=w1, hr=np.real(h), hi=np.imag(h), wb=w2,
                mag=mag, phase=phase, **parts)

    np.savez_compressed(os.path.join(out, "lti_golden.npz"), **m)
    print(f"lti_golden.npz: {len(m)} members")


if __name__ == "__main__":
    main()
