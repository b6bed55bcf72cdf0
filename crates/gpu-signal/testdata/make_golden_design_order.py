"""Goldens for gpu-signal's order selections, notch and peak filters and
Kaiser helpers (SciPy's own outputs): design_order_golden.npz, read by the
host tests of src/design (no GPU). Members are `<function>__<i>__<part>`:

- buttord, cheb1ord, cheb2ord, ellipord: `params` = [wp0, wp1 or nan, ws0,
  ws1 or nan, gpass, gstop, analog, fs or nan], `ord`, `wn` (one or two);
  every band (lowpass, highpass, bandpass, bandstop: the band-stop ones
  run SciPy's fminbound), digital, analog and with fs;
- iirdesign_<ftype> (butter, cheby1, cheby2, ellip): `params` as above,
  the zpk form's `zr`, `zi`, `pr`, `pi`, `k` and the ba form's `b`, `a`;
- buttap, cheb1ap, cheb2ap, ellipap, besselap_<norm>: `params` (order,
  ripples), `zr`, `zi`, `pr`, `pi`, `k`;
- lp2lp_zpk, lp2hp_zpk, lp2bp_zpk, lp2bs_zpk, bilinear_zpk: `params` =
  [prototype, wo or fs, bw or nan], the input `zr` .. `k` and the output
  `out_zr` .. `out_k`; lp2lp, lp2hp, lp2bp, lp2bs, bilinear: `params` =
  [wo or fs, bw or nan], `b`, `a`, `out_b`, `out_a`;
- freqs: `params` = [design, worN count or nan], `worn` (the frequencies,
  or nan), the design's `b`, `a`, `zr` .. `k`, and `w`, `hr`, `hi` (freqs)
  and `wz`, `hzr`, `hzi` (freqs_zpk); findfreqs: `b`, `a`, `w` (9);
- digital: `params` = [design, worN count or nan, whole, fs], `worn`, the
  design, `w`, `hr`, `hi` (freqz_zpk) and `wg`, `gd` (group_delay);
  sos2zpk: `sos`, `zr` .. `k`; group_delay_singular: `w`, `gd`;
- residue, residuez: `params` = [tol], `b`, `a`, the expansion's `rr`,
  `ri`, `pr`, `pi`, `k`, and invres's/invresz's `b2r` .. `a2i` of it;
  unique_roots: `params` = [tol, rtype (min, max, avg)], `pr`, `pi`, `ur`,
  `ui`, `m`;
- firls: `params` = [numtaps, fs or nan], `bands`, `desired`, `weight`
  (empty: none), `taps`;
- iirnotch, iirpeak: `params` = [w0, Q, fs], `b`, `a`; iircomb: `params` =
  [w0, Q, fs, peak, pass_zero], `b`, `a`; gammatone: `params` = [freq,
  iir, order or nan, numtaps or nan, fs], `b`, `a`;
- kaiserord: `params` = [ripple, width], `out` = [numtaps, beta];
  kaiser_beta: `params` = [a], `out`; kaiser_atten: `params` = [numtaps,
  width], `out`.

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal

from golden_members import Members

NAN = float("nan")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    members = Members()
    m, add = members.m, members.add

    # (wp, ws) in fractions of Nyquist, analog rad/s, or Hz with fs.
    digital = [
        ([0.2], [0.3]), ([0.3], [0.2]), ([0.1], [0.12]), ([0.45], [0.4]),
        ([0.2, 0.5], [0.1, 0.6]), ([0.1, 0.6], [0.2, 0.5]),
        ([0.3, 0.35], [0.25, 0.4]), ([0.05, 0.9], [0.1, 0.8]),
        ([0.2, 0.4], [0.25, 0.35]), ([0.01], [0.05]),
    ]
    analog = [
        ([30.0], [10.0]), ([1.0], [2.5]), ([1.0, 3.0], [0.5, 5.0]),
        ([0.5, 5.0], [1.0, 3.0]), ([100.0, 300.0], [150.0, 200.0]),
    ]
    hz = [
        ([100.0, 200.0], [50.0, 250.0], 1000.0), ([60.0], [80.0], 500.0),
        ([3000.0], [2000.0], 44100.0), ([100.0, 400.0], [150.0, 300.0], 2000.0),
    ]
    gains = [(3.0, 40.0), (1.0, 60.0), (0.1, 30.0), (0.5, 80.0)]
    fns = {"buttord": signal.buttord, "cheb1ord": signal.cheb1ord,
           "cheb2ord": signal.cheb2ord, "ellipord": signal.ellipord}
    for name, fn in fns.items():
        cases = [(wp, ws, False, None) for wp, ws in digital]
        cases += [(wp, ws, True, None) for wp, ws in analog]
        cases += [(wp, ws, False, fs) for wp, ws, fs in hz]
        for k, (wp, ws, an, fs) in enumerate(cases):
            gpass, gstop = gains[k % len(gains)]
            arg = (lambda w: w[0] if len(w) == 1 else w)
            ord_, wn = fn(arg(wp), arg(ws), gpass, gstop, analog=an, fs=fs)
            pad = lambda w: list(w) + [NAN] * (2 - len(w))
            add(name, params=pad(wp) + pad(ws) + [gpass, gstop, float(an),
                                                  NAN if fs is None else fs],
                ord=[ord_], wn=np.atleast_1d(wn))

    # iirdesign: the same specifications (a subset) in each family, as zpk.
    for ftype in ("butter", "cheby1", "cheby2", "ellip"):
        cases = [(wp, ws, False, None) for wp, ws in digital[::2]]
        cases += [(wp, ws, True, None) for wp, ws in analog[::2]]
        cases += [(wp, ws, False, fs) for wp, ws, fs in hz[:2]]
        for k, (wp, ws, an, fs) in enumerate(cases):
            gpass, gstop = gains[k % len(gains)]
            arg = (lambda w: w[0] if len(w) == 1 else w)
            z, p, kk = signal.iirdesign(arg(wp), arg(ws), gpass, gstop, analog=an,
                                        ftype=ftype, output="zpk", fs=fs)
            b, a = signal.iirdesign(arg(wp), arg(ws), gpass, gstop, analog=an, ftype=ftype,
                                    fs=fs)
            pad = lambda w: list(w) + [NAN] * (2 - len(w))
            add(f"iirdesign_{ftype}", params=pad(wp) + pad(ws) + [gpass, gstop, float(an),
                                                                   NAN if fs is None else fs],
                zr=np.real(z), zi=np.imag(z), pr=np.real(p), pi=np.imag(p), k=[kk], b=b, a=a)

    # Prototypes, and the transforms of them (zpk) and of their ba.
    protos = []
    for n in range(0, 7):
        protos.append(("buttap", [n], signal.buttap(n)))
        protos.append(("cheb1ap", [n, 1.0], signal.cheb1ap(n, 1.0)))
        protos.append(("cheb2ap", [n, 40.0], signal.cheb2ap(n, 40.0)))
        if n > 0:
            protos.append(("ellipap", [n, 0.5, 50.0], signal.ellipap(n, 0.5, 50.0)))
            for norm in ("phase", "delay", "mag"):
                protos.append((f"besselap_{norm}", [n], signal.besselap(n, norm)))
    for name, params, (z, p, k) in protos:
        add(name, params=params, zr=np.real(z), zi=np.imag(z), pr=np.real(p), pi=np.imag(p),
            k=[k])
    for j, (name, params, (z, p, k)) in enumerate(protos[1::5]):
        for t, args in (("lp2lp_zpk", (3.5,)), ("lp2hp_zpk", (3.5,)), ("lp2bp_zpk", (3.5, 1.5)),
                        ("lp2bs_zpk", (3.5, 1.5)), ("bilinear_zpk", (10.0,))):
            z2, p2, k2 = getattr(signal, t)(z, p, k, *args)
            add(t, params=[j, *args, NAN][:3], zr=np.real(z), zi=np.imag(z), pr=np.real(p),
                pi=np.imag(p), k=[k], out_zr=np.real(z2), out_zi=np.imag(z2),
                out_pr=np.real(p2), out_pi=np.imag(p2), out_k=[k2])
        b, a = signal.zpk2tf(z, p, k)
        b, a = np.real(b), np.real(a)
        for t, args in (("lp2lp", (3.5,)), ("lp2hp", (3.5,)), ("lp2bp", (3.5, 1.5)),
                        ("lp2bs", (3.5, 1.5)), ("bilinear", (10.0,))):
            b2, a2 = getattr(signal, t)(b, a, *args)
            add(t, params=[*args, NAN][:2], b=b, a=a, out_b=b2, out_a=a2)
    # ba with numerators of several lengths.
    for b, a in (([1.0, 2.0], [1.0, 3.0, 2.0]), ([2.0, 0.0, 1.0], [1.0, 0.5, 0.25]),
                 ([0.5], [1.0, 1.4142135623730951, 1.0])):
        for t, args in (("lp2lp", (2.0,)), ("lp2hp", (2.0,)), ("lp2bp", (2.0, 0.5)),
                        ("lp2bs", (2.0, 0.5)), ("bilinear", (4.0,))):
            b2, a2 = getattr(signal, t)(b, a, *args)
            add(t, params=[*args, NAN][:2], b=b, a=a, out_b=b2, out_a=a2)

    # Responses: analog (freqs, freqs_zpk, findfreqs) of analog designs;
    # digital (freqz_zpk, group_delay) of digital ones; sos2zpk.
    for j, (ftype, n, wn, rp, rs) in enumerate([
            ("butter", 4, 10.0, None, None), ("cheby1", 3, [2.0, 5.0], 1.0, None),
            ("cheby2", 5, 0.3, None, 40.0), ("ellip", 4, [100.0, 400.0], 0.5, 60.0),
            ("bessel", 6, 3.0, None, None)]):
        btype = "bandpass" if isinstance(wn, list) else "lowpass"
        b, a = signal.iirfilter(n, wn, rp=rp, rs=rs, btype=btype, analog=True, ftype=ftype)
        z, p, k = signal.iirfilter(n, wn, rp=rp, rs=rs, btype=btype, analog=True, ftype=ftype,
                                   output="zpk")
        for worn in (200, 17, [0.1, 1.0, 3.0, 250.0]):
            w, h = signal.freqs(b, a, worN=worn)
            wz, hz = signal.freqs_zpk(z, p, k, worN=worn)
            wl = [NAN] if isinstance(worn, int) else worn
            add("freqs", params=[j, worn if isinstance(worn, int) else NAN], worn=wl,
                b=b, a=a, zr=np.real(z), zi=np.imag(z), pr=np.real(p), pi=np.imag(p), k=[k],
                w=w, hr=np.real(h), hi=np.imag(h), wz=wz, hzr=np.real(hz), hzi=np.imag(hz))
        add("findfreqs", params=[j], b=b, a=a, w=signal.findfreqs(b, a, 9))
    for j, (ftype, n, wn, rp, rs) in enumerate([
            ("butter", 4, 0.2, None, None), ("cheby1", 3, [0.2, 0.5], 1.0, None),
            ("ellip", 5, 0.3, 0.5, 50.0), ("cheby2", 4, [0.1, 0.7], None, 40.0)]):
        btype = "bandpass" if isinstance(wn, list) else "lowpass"
        b, a = signal.iirfilter(n, wn, rp=rp, rs=rs, btype=btype, ftype=ftype)
        z, p, k = signal.iirfilter(n, wn, rp=rp, rs=rs, btype=btype, ftype=ftype, output="zpk")
        sos = signal.iirfilter(n, wn, rp=rp, rs=rs, btype=btype, ftype=ftype, output="sos")
        for worn, whole, fs in ((512, False, 2 * np.pi), (64, True, 1000.0),
                                ([0.0, 12.5, 100.0, 300.0], False, 1000.0)):
            w, h = signal.freqz_zpk(z, p, k, worN=worn, whole=whole, fs=fs)
            wg, gd = signal.group_delay((b, a), w=worn, whole=whole, fs=fs)
            wl = [NAN] if isinstance(worn, int) else worn
            add("digital", params=[j, worn if isinstance(worn, int) else NAN, float(whole), fs],
                worn=wl, b=b, a=a, zr=np.real(z), zi=np.imag(z), pr=np.real(p), pi=np.imag(p),
                k=[k], w=w, hr=np.real(h), hi=np.imag(h), wg=wg, gd=gd)
        z2, p2, k2 = signal.sos2zpk(sos)
        add("sos2zpk", params=[j], sos=sos, zr=np.real(z2), zi=np.imag(z2), pr=np.real(p2),
            pi=np.imag(p2), k=[k2])
    # A delay that is singular on the circle: SciPy sets it to 0.
    with np.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wg, gd = signal.group_delay(([1.0, 1.0], [1.0]), w=[0.0, np.pi / 2, np.pi])
    add("group_delay_singular", params=[0.0], w=wg, gd=gd)

    # Comb filters: [w0, Q, fs, peak, pass_zero].
    for w0, q, fs in ((20.0, 30.0, 200.0), (1000.0, 5.0, 48000.0), (0.25, 2.0, 2.0)):
        for ftype in ("notch", "peak"):
            for pz in (False, True):
                b, a = signal.iircomb(w0, q, ftype=ftype, fs=fs, pass_zero=pz)
                add("iircomb", params=[w0, q, fs, float(ftype == "peak"), float(pz)], b=b, a=a)
    # Gammatone: [freq, iir, order or nan, numtaps or nan, fs].
    for freq, ftype, order, numtaps, fs in (
            (0.5, "iir", None, None, 2.0), (440.0, "iir", None, None, 16000.0),
            (1000.0, "iir", None, None, 44100.0), (0.3, "fir", None, None, 2.0),
            (440.0, "fir", None, None, 16000.0), (440.0, "fir", 2, 64, 16000.0),
            (5000.0, "fir", 7, 30, 44100.0)):
        b, a = signal.gammatone(freq, ftype, order=order, numtaps=numtaps, fs=fs)
        add("gammatone", params=[freq, float(ftype == "iir"), NAN if order is None else order,
                                 NAN if numtaps is None else numtaps, fs], b=b, a=a)

    # firls: [numtaps, fs or nan], bands, desired, weight (empty: none).
    for numtaps, bands, desired, weight, fs in (
            (73, [0.0, 0.2, 0.3, 1.0], [1.0, 1.0, 0.0, 0.0], None, None),
            (101, [0, 1000, 1200, 4000], [1, 1, 0, 0], [1.0, 50.0], 8000.0),
            (31, [0.0, 0.1, 0.2, 0.4, 0.5, 1.0], [0.0, 0.0, 1.0, 0.5, 0.0, 0.0], [3.0, 1.0, 3.0], None),
            (1, [0.0, 1.0], [1.0, 1.0], None, None),
            (45, [0.0, 0.3, 0.35, 0.6, 0.65, 1.0], [1, 1, 0, 0, 1, 1], None, None),
            (21, [0.0, 1.0], [0.0, 1.0], None, None),
            (201, [0.0, 0.05, 0.95, 1.0], [1.0, 1.0, 0.0, 0.0], None, None)):
        taps = signal.firls(numtaps, bands, desired, weight=weight, fs=fs)
        add("firls", params=[numtaps, NAN if fs is None else fs], bands=bands, desired=desired,
            weight=[] if weight is None else weight, taps=taps)

    # Partial fractions: residue/residuez of (b, a), and invres/invresz of
    # the expansion back (params: [tol]). Real parts and imaginary parts
    # apart; k real.
    for b, a in (([1.0, 3.0], [1.0, 3.0, 2.0]), ([2.0, 0.0, 1.0], [1.0, 1.0, 0.5]),
                 ([1.0, 2.0, 3.0, 4.0], [1.0, 3.0, 3.0, 1.0]),
                 ([1.0], [1.0, -0.75, 0.125]), ([0.5, 0.25], [1.0, 0.0, 0.0, -0.5]),
                 ([3.0, -1.0, 0.5], [1.0, -2.0, 1.0])):
        for name, fwd, inv in (("residue", signal.residue, signal.invres),
                               ("residuez", signal.residuez, signal.invresz)):
            r, p, k = fwd(b, a)
            b2, a2 = inv(r, p, k)
            add(name, params=[1e-3], b=b, a=a, rr=np.real(r), ri=np.imag(r), pr=np.real(p),
                pi=np.imag(p), k=np.real(k), b2r=np.real(b2), b2i=np.imag(b2), a2r=np.real(a2),
                a2i=np.imag(a2))
    for p, tol in (([1.0, 1.0005, 2.0, 1.9995], 1e-3), ([0.5, 0.5 + 1e-4j, -3.0, 0.5 - 1e-4j], 1e-3),
                   ([1.0, 2.0, 3.0], 1.5)):
        for rtype in ("min", "max", "avg"):
            u, mm = signal.unique_roots(np.array(p), tol=tol, rtype=rtype)
            add("unique_roots", params=[tol, ["min", "max", "avg"].index(rtype)],
                pr=np.real(p), pi=np.imag(p), ur=np.real(u), ui=np.imag(u), m=mm)

    for w0, q, fs in [(60.0, 30.0, 1000.0), (0.3, 10.0, 2.0), (0.05, 1.0, 2.0),
                      (440.0, 2.5, 44100.0), (0.95, 100.0, 2.0), (0.0, 5.0, 2.0),
                      (1.0, 5.0, 2.0)]:
        for name, fn in (("iirnotch", signal.iirnotch), ("iirpeak", signal.iirpeak)):
            b, a = fn(w0, q, fs)
            add(name, params=[w0, q, fs], b=b, a=a)

    for ripple, width in [(65.0, 0.05), (8.0, 0.1), (21.0, 0.2), (21.5, 0.01), (50.0, 0.3),
                          (50.5, 0.02), (-40.0, 0.1), (120.0, 0.001)]:
        numtaps, beta = signal.kaiserord(ripple, width)
        add("kaiserord", params=[ripple, width], out=[numtaps, beta])
    for a in (0.0, 20.0, 21.0, 30.0, 50.0, 50.5, 100.0):
        add("kaiser_beta", params=[a], out=[signal.kaiser_beta(a)])
    for numtaps, width in ((1, 0.1), (211, 0.05), (31, 0.3), (1001, 0.001)):
        add("kaiser_atten", params=[numtaps, width], out=[signal.kaiser_atten(numtaps, width)])

    np.savez_compressed(os.path.join(out, "design_order_golden.npz"), **m)
    print(f"design_order_golden.npz: {len(m)} members")


if __name__ == "__main__":
    main()
