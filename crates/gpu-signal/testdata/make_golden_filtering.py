"""Goldens for gpu-signal's filtering and filter design (SciPy's own outputs):
filtering_golden.npz. Members are `<case>__<part>`; the case name is
`<function>__<tag>` and the options the Rust tests read are in the tag
(`ax<axis>`, `zi`, `pad<type>`, `len<padlen>`, `m<mode>`, ...) or in a
`<case>__params` float64 array.

- `design__*`: host unit tests of src/design (no GPU): iirfilter in every
  family, band and form (`params` = [N, Wn0, Wn1 or nan, analog, rp, rs,
  fs or nan]; parts b, a, z, p, k, sos), firwin, freqz/sosfreqz, the
  conversions, lfilter_zi/sosfilt_zi/lfiltic, savgol_coeffs;
- the others: tests/gpu/filtering.rs (lfilter, sosfilt, filtfilt,
  sosfiltfilt, detrend, savgol_filter, hilbert, hilbert2, decimate).

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys

import numpy as np
from scipy import signal

BTYPES = {"low": 0, "high": 1, "band": 2, "stop": 3}


def data(rng, shape, dt):
    if np.dtype(dt).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    if np.dtype(dt).kind in "iu":
        return rng.integers(-9, 10, shape).astype(dt)
    return rng.standard_normal(shape).astype(dt)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    rng = np.random.default_rng(20261215)
    m = {}

    def add(name, **parts):
        for k, v in parts.items():
            m[f"{name}__{k}"] = np.asarray(v)

    # ---- design: iirfilter in every family, band, form ----
    nan = float("nan")
    specs = {
        "butter": (None, None), "cheby1": (1.0, None), "cheby2": (None, 40.0),
        "ellip": (0.5, 50.0), "bessel_phase": (None, None), "bessel_delay": (None, None),
        "bessel_mag": (None, None),
    }
    i = 0
    for ftype, (rp, rs) in specs.items():
        for btype in BTYPES:
            for n in (1, 3, 4, 7) if ftype in ("butter", "cheby2", "ellip") else (2, 3, 5):
                for analog in (False, True):
                    if btype in ("low", "high"):
                        wn = [0.3] if not analog else [2.0]
                    else:
                        wn = [0.2, 0.45] if not analog else [1.0, 3.0]
                    fs = None
                    if not analog and n == 3:
                        fs = 100.0
                        wn = [w * 50.0 for w in wn]
                    kw = dict(rp=rp, rs=rs, btype=btype, analog=analog, ftype=ftype, fs=fs)
                    wnarg = wn[0] if len(wn) == 1 else wn
                    try:
                        z, p, k = signal.iirfilter(n, wnarg, output="zpk", **kw)
                        b, a = signal.iirfilter(n, wnarg, output="ba", **kw)
                        sos = signal.iirfilter(n, wnarg, output="sos", **kw)
                    except (ValueError, IndexError):  # IndexError: SciPy's zpk2sos fails
                        continue
                    params = [n, wn[0], wn[1] if len(wn) > 1 else nan, float(analog),
                              nan if rp is None else rp, nan if rs is None else rs,
                              nan if fs is None else fs]
                    add(f"design__iir__{ftype}__{btype}__{i:03d}", params=np.array(params),
                        z=np.asarray(z, complex), p=np.asarray(p, complex), k=np.float64(k),
                        b=b, a=a, sos=sos)
                    i += 1
    # firwin: params = [numtaps, c0, c1 or nan, width or nan, fs or nan, scale]
    fir_cases = [
        (31, [0.3], "hamming", True, None, None, True),
        (32, [0.3], "hann", True, None, None, True),
        (41, [0.2, 0.5], "blackman", False, None, None, True),
        (41, [0.2, 0.5], "hamming", True, None, None, True),
        (25, [0.4], "hamming", False, None, None, True),
        (51, [200.0], "hamming", True, None, 1000.0, True),
        (61, [0.25], "hamming", True, 0.05, None, True),
        (21, [0.3], "boxcar", True, None, None, False),
        (33, [0.3], ("kaiser", 6.0), True, None, None, True),
    ]
    for j, (nt, cut, win, pz, width, fs, scale) in enumerate(fir_cases):
        h = signal.firwin(nt, cut if len(cut) > 1 else cut[0], width=width, window=win,
                          pass_zero=pz, scale=scale, fs=fs)
        wname = win if isinstance(win, str) else f"kaiser{win[1]}"
        params = [nt, cut[0], cut[1] if len(cut) > 1 else nan, nan if width is None else width,
                  nan if fs is None else fs, float(scale)]
        add(f"design__firwin__{wname}__{'pz' if pz else 'nopz'}__{j}", params=np.array(params), h=h)
    # freqz / sosfreqz
    b, a = signal.butter(4, 0.2)
    for tag, kw in {"default": {}, "n64whole": dict(worN=64, whole=True),
                    "fs": dict(worN=50, fs=1000.0), "nyq": dict(worN=33, include_nyquist=True)}.items():
        w, h = signal.freqz(b, a, **kw)
        add(f"design__freqz__{tag}", b=b, a=a, w=w, h=h)
    w, h = signal.freqz(b, a, worN=np.array([0.0, 10.0, 123.0, 480.0]), fs=1000.0)
    add("design__freqz__freqs", b=b, a=a, w=w, h=h)
    sos = signal.ellip(6, 0.5, 60, 0.3, output="sos")
    for tag, kw in {"default": {}, "n100whole": dict(worN=100, whole=True)}.items():
        w, h = signal.sosfreqz(sos, **kw)
        add(f"design__sosfreqz__{tag}", sos=sos, w=w, h=h)
    # Conversions.
    for j, (b, a) in enumerate([signal.cheby2(5, 40, 0.3), signal.ellip(4, 1, 40, [0.2, 0.4], "band"),
                                ([1.0, 0.5, 0.25], [1.0, -0.2, 0.5, 0.1])]):
        z, p, k = signal.tf2zpk(b, a)
        add(f"design__tf2zpk__{j}", b=np.asarray(b), a=np.asarray(a),
            z=np.asarray(z, complex), p=np.asarray(p, complex), k=np.float64(k),
            sos=signal.tf2sos(b, a))
    for j in range(4):
        nz, npl = [(4, 4), (3, 5), (5, 5), (0, 3)][j]
        def cplx(n):
            r = []
            while len(r) + 2 <= n:
                v = rng.uniform(0.2, 0.95) * np.exp(1j * rng.uniform(0.1, 3.0))
                r += [v, v.conjugate()]
            if len(r) < n:
                r.append(rng.uniform(-0.9, 0.9) + 0j)
            return np.array(r, complex)
        z, p, k = cplx(nz), cplx(npl), float(rng.uniform(0.5, 2.0))
        for pairing in ("nearest", "keep_odd"):
            try:
                sos = signal.zpk2sos(z, p, k, pairing=pairing)
            except IndexError:  # SciPy's own failure for some pairings
                continue
            add(f"design__zpk2sos__{j}__{pairing}", z=z, p=p, k=np.float64(k), sos=sos)
        b2, a2 = signal.zpk2tf(z, p, k)
        add(f"design__zpk2tf__{j}", z=z, p=p, k=np.float64(k), b=b2, a=a2)
    sos = signal.butter(5, [0.1, 0.3], "band", output="sos")
    b2, a2 = signal.sos2tf(sos)
    add("design__sos2tf__0", sos=sos, b=b2, a=a2)
    zsos = signal.zpk2sos(*signal.butter(5, 2.0, analog=True, output="zpk"), analog=True)
    add("design__zpk2sosanalog__0", sos=zsos)
    b, a = signal.cheby1(4, 1, 0.25)
    add("design__lfilter_zi__0", b=b, a=a, zi=signal.lfilter_zi(b, a))
    add("design__lfilter_zi__1", b=np.array([1.0, 2.0, 3.0, 4.0]), a=np.array([3.0, 0.5]),
        zi=signal.lfilter_zi([1.0, 2.0, 3.0, 4.0], [3.0, 0.5]))
    sos = signal.cheby1(6, 1, 0.25, output="sos")
    add("design__sosfilt_zi__0", sos=sos, zi=signal.sosfilt_zi(sos))
    add("design__lfiltic__0", b=b, a=a, y=np.array([1.0, -0.5, 0.25]), x=np.array([0.5, 2.0]),
        zi=signal.lfiltic(b, a, [1.0, -0.5, 0.25], [0.5, 2.0]))
    for j, (wl, po, d, pos, use) in enumerate([(5, 2, 0, None, "conv"), (11, 4, 1, None, "conv"),
                                               (8, 3, 2, None, "dot"), (7, 2, 0, 1, "dot"),
                                               (21, 6, 0, None, "conv")]):
        c = signal.savgol_coeffs(wl, po, deriv=d, pos=pos, use=use, delta=0.5)
        add(f"design__savgol_coeffs__{j}",
            params=np.array([wl, po, d, nan if pos is None else pos, float(use == "conv")]), c=c)

    # ---- GPU: lfilter ----
    biir = signal.butter(4, 0.15)
    bfir = (signal.firwin(9, 0.3), np.array([1.0]))
    blong = (np.array([0.2, 0.3, 0.4, 0.1, 0.05, 0.02]), np.array([1.0, -0.6, 0.2]))
    for ftag, (b, a) in {"iir": biir, "fir": bfir, "blong": blong}.items():
        order = max(len(a), len(b)) - 1
        for dt in ("float64", "float32", "complex128", "int32")[: 4 if ftag == "iir" else 3]:
            for shape, axis in (((37,), -1), ((40,), 0), ((5, 33), 1), ((26, 3), 0)):
                x = data(rng, shape, dt)
                bb, aa = (b.astype(np.float32), a.astype(np.float32)) if dt == "float32" else (b, a)
                tag = f"{ftag}{dt}{'x'.join(map(str, shape))}__ax{axis}"
                add(f"lfilter__{tag}", b=bb, a=aa, x=x, out=signal.lfilter(bb, aa, x, axis=axis))
                zshape = list(shape)
                zshape[axis] = order
                zi = data(rng, zshape, "float64").astype(np.result_type(bb, x, np.float32))
                y, zf = signal.lfilter(bb, aa, x, axis=axis, zi=zi)
                add(f"lfilter__{tag}__zi", b=bb, a=aa, x=x, zi=zi, out=y, zf=zf)
    # float32 coefficients with complex64 data, and a broadcast zi.
    b32, a32 = (v.astype(np.float32) for v in biir)
    x = data(rng, (50,), "complex64")
    add("lfilter__iircomplex64__ax-1", b=b32, a=a32, x=x, out=signal.lfilter(b32, a32, x))
    x = data(rng, (6, 45), "float64")
    zi = data(rng, (1, 4), "float64")
    y, zf = signal.lfilter(*biir, x, axis=1, zi=zi)
    add("lfilter__iirbcast6x45__ax1__zi", b=biir[0], a=biir[1], x=x, zi=zi, out=y, zf=zf)
    # ---- sosfilt ----
    sos = signal.ellip(6, 0.5, 50, 0.2, output="sos")
    for dt in ("float64", "float32"):
        s = sos.astype(dt)
        for shape, axis in (((64,), -1), ((4, 51), 1), ((41, 3), 0)):
            x = data(rng, shape, dt)
            tag = f"{dt}{'x'.join(map(str, shape))}__ax{axis}"
            add(f"sosfilt__{tag}", sos=s, x=x, out=signal.sosfilt(s, x, axis=axis))
            zshape = [3] + list(shape)
            zshape[1 + (axis % len(shape))] = 2
            zi = data(rng, zshape, dt)
            y, zf = signal.sosfilt(s, x, axis=axis, zi=zi)
            add(f"sosfilt__{tag}__zi", sos=s, x=x, zi=zi, out=y, zf=zf)
    # ---- filtfilt / sosfiltfilt: every padtype ----
    bf, af = signal.cheby1(3, 1, 0.3)
    for dt in ("float64", "float32"):
        for shape, axis in (((50,), -1), ((3, 41), 1), ((41, 2), 0)):
            x = data(rng, shape, dt)
            for pad, padlen in (("odd", None), ("odd", 7), ("even", None), ("constant", 5),
                                (None, None)):
                if True:
                    tag = f"{dt}{'x'.join(map(str, shape))}__ax{axis}__pad{pad}__len{padlen}"
                    add(f"filtfilt__{tag}", b=bf, a=af, x=x,
                        out=signal.filtfilt(bf, af, x, axis=axis, padtype=pad, padlen=padlen))
                    add(f"sosfiltfilt__{tag}", sos=sos, x=x,
                        out=signal.sosfiltfilt(sos, x, axis=axis, padtype=pad, padlen=padlen))
    # ---- detrend ----
    for dt in ("float64", "float32", "int32"):
        for shape, axis in (((50,), -1), ((4, 31), 1), ((31, 4), 0)):
            x = data(rng, shape, dt) + np.arange(np.prod(shape)).reshape(shape).astype(dt)
            tag = f"{dt}{'x'.join(map(str, shape))}__ax{axis}"
            add(f"detrend__{tag}__linear", x=x, out=signal.detrend(x, axis=axis))
            add(f"detrend__{tag}__constant", x=x, out=signal.detrend(x, axis=axis, type="constant"))
            add(f"detrend__{tag}__linear__bp", x=x, bp=np.array([5, 12]),
                out=signal.detrend(x, axis=axis, bp=[5, 12]))
    # ---- savgol_filter: every mode ----
    for dt in ("float64", "float32"):
        for shape, axis in (((40,), -1), ((3, 30), 1), ((30, 3), 0)):
            x = data(rng, shape, dt)
            for mode in ("mirror", "constant", "nearest", "wrap", "interp"):
                for wl, po, d in ((7, 2, 0), (8, 3, 1))[: 2 if mode in ("interp", "mirror") else 1]:
                    tag = f"{dt}{'x'.join(map(str, shape))}__ax{axis}__m{mode}__w{wl}p{po}d{d}"
                    add(f"savgol_filter__{tag}", x=x,
                        out=signal.savgol_filter(x, wl, po, deriv=d, axis=axis, mode=mode,
                                                 cval=0.5, delta=0.5))
    # ---- hilbert, hilbert2 ----
    for dt in ("float64", "float32"):
        for shape, axis, n in (((32,), -1, None), ((33,), -1, None), ((4, 20), 1, 25), ((21, 3), 0, None)):
            x = data(rng, shape, dt)
            add(f"hilbert__{dt}{'x'.join(map(str, shape))}__ax{axis}__n{n}", x=x,
                out=signal.hilbert(x, N=n, axis=axis))
        x = data(rng, (6, 9), dt)
        add(f"hilbert2__{dt}6x9__nNone", x=x, out=signal.hilbert2(x))
        add(f"hilbert2__{dt}6x9__n8", x=x, out=signal.hilbert2(x, N=8))
    # ---- decimate ----
    for dt in ("float64", "float32"):
        for shape, axis in (((120,), -1), ((2, 121), 1)):
            x = data(rng, shape, dt)
            for ftype in ("iir", "fir"):
                for zp in (True, False):
                    tag = f"{dt}{'x'.join(map(str, shape))}__ax{axis}__{ftype}__zp{int(zp)}"
                    add(f"decimate__{tag}", x=x,
                        out=signal.decimate(x, 3, ftype=ftype, axis=axis, zero_phase=zp))
    # ---- decimate with a dlti system (after every case above, so their
    # data do not change): FIR taps, an IIR with complex poles (SciPy runs
    # it as a transfer function), one with real poles only (as sections).
    fir_b = signal.firwin(15, 0.3)
    cb, ca = signal.butter(4, 0.2)
    rz, rp, rk = np.array([-1.0, -1.0]), np.array([0.5, 0.3]), 0.06
    for dt in ("float64", "float32"):
        x = data(rng, (2, 150), dt)
        for zp in (True, False):
            for kind in ("fir", "cpx", "real"):
                tag = f"{dt}2x150__ax1__{kind}__zp{int(zp)}"
                if kind == "fir":
                    sysd, parts = signal.dlti(fir_b, [1.0]), dict(b=fir_b, a=np.array([1.0]))
                elif kind == "cpx":
                    sysd, parts = signal.dlti(cb, ca), dict(b=cb, a=ca)
                else:
                    sysd, parts = signal.dlti(rz, rp, rk), dict(z=rz, p=rp, k=np.array([rk]))
                add(f"decsys__{tag}", x=x, **parts,
                    out=signal.decimate(x, 4, ftype=sysd, axis=1, zero_phase=zp))

    np.savez_compressed(os.path.join(out, "filtering_golden.npz"), **m)
    print(f"filtering_golden.npz: {len(m)} members")


if __name__ == "__main__":
    main()
