"""Goldens for gpu-signal's windows and spectral analysis, SciPy's own
outputs.

windows_golden.npz (read by the host unit tests in src/windows/tests.rs):
members `<name>[,<param>...]__<M>__<sym|per>`, each window's values; and
`dpssk,<NW>,<Kmax>,<norm>__<M>__<sym|per>`, Kmax DPSS windows flattened.

spectral_golden.npz (read by tests/gpu/spectral.rs): the signals
`sig__<tag><dtype>` shared by the one-signal functions (a case
`<function>__<tag><dtype>__...` reads its own), `<case>__x` and
`<case>__y` for the two-signal functions, then the outputs
`<case>__f`, `<case>__t`, `<case>__out`. The case name is
`<function>__<tag>` followed by `key=value` options the Rust test parses:
`fs`, `win` (a window name, or `name,param`), `nperseg`, `noverlap`,
`nfft`, `detrend` (`constant`, `linear`, `none`), `onesided` (0/1),
`scaling`, `axis`, `average`, `mode`, `boundary` (a name or `none`),
`padded` (0/1). istft cases are round trips: their input is the `__out`
of the stft case of the same options, and they hold `__t` and `__out`.

Run through `cargo xtask golden` (numpy and scipy needed): the optional
first argument is the output folder (this one by default).
"""
import os
import sys
import warnings

import numpy as np
from scipy import signal
from scipy.signal import windows as W


def window_cases():
    m = {}
    plain = ["boxcar", "triang", "parzen", "bohman", "blackman", "nuttall",
             "blackmanharris", "flattop", "bartlett", "barthann", "hamming",
             "hann", "cosine", "lanczos"]
    lengths = (1, 2, 5, 8, 33, 64)
    for name in plain:
        for M in lengths:
            for sym in (True, False):
                m[f"{name}__{M}__{'sym' if sym else 'per'}"] = getattr(W, name)(M, sym=sym)
    with_params = [
        ("kaiser", (0.5,)), ("kaiser", (8.0,)), ("kaiser", (14.0,)), ("kaiser", (40.0,)),
        ("gaussian", (2.5,)), ("general_gaussian", (1.5, 7.0)),
        ("general_gaussian", (0.5, 3.0)), ("general_hamming", (0.7,)),
        ("general_cosine", (1.0, 1.942604, 1.340318, 0.440811, 0.043097)),
        ("tukey", (0.25,)), ("tukey", (0.0,)), ("tukey", (1.0,)), ("tukey", (0.9,)),
        ("exponential", ()), ("taylor", ()), ("taylor", (5, 25.0, 0)),
        ("chebwin", (100.0,)), ("chebwin", (50.0,)), ("dpss", (2.5,)), ("dpss", (1.0,)),
    ]
    for name, params in with_params:
        for M in (1, 2, 7, 16, 51, 128):
            for sym in (True, False):
                key = ",".join([name] + [repr(float(p)) if isinstance(p, float) else str(p)
                                         for p in params])
                if name == "general_cosine":
                    w = W.general_cosine(M, np.array(params), sym)
                elif name == "dpss" and params[0] >= M / 2:
                    continue
                else:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        w = getattr(W, name)(M, *params, sym=sym)
                m[f"{key}__{M}__{'sym' if sym else 'per'}"] = w
    # exponential with a centre (periodic only), kaiser_bessel_derived.
    for M in (8, 51):
        m[f"exponential,0.0,3.0__{M}__per"] = W.exponential(M, 0.0, 3.0, sym=False)
    for M in (2, 8, 64):
        m[f"kbd,4.0__{M}__sym"] = W.kaiser_bessel_derived(M, 4.0)
    for M, nw, k, norm in ((64, 2.5, 4, 2), (63, 3.0, 5, 2), (64, 2.5, 3, "subsample"),
                           (100, 4.0, 7, "approximate"), (512, 4.0, 3, 2)):
        for sym in (True, False):
            w = W.dpss(M, nw, Kmax=k, sym=sym, norm=norm)
            m[f"dpssk,{nw!r},{k},{norm}__{M}__{'sym' if sym else 'per'}"] = w.ravel()
    return m


def data(rng, shape, dt):
    if np.dtype(dt).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)
    return (rng.standard_normal(shape) + 0.3).astype(dt)


def win_arg(spec):
    if "," in spec:
        name, p = spec.split(",")
        return (name, float(p))
    return spec


def spectral_cases():
    m = {}
    rng = np.random.default_rng(20261209)

    def add(name, x, y, f, t, out):
        if x is not None:
            m[f"{name}__x"] = x
        if y is not None:
            m[f"{name}__y"] = y
        if f is not None:
            m[f"{name}__f"] = np.asarray(f)
        if t is not None:
            m[f"{name}__t"] = np.asarray(t)
        m[f"{name}__out"] = np.asarray(out)

    def opts(**kw):
        return "__".join(f"{k}={v}" for k, v in kw.items())

    def det(d):
        return False if d == "none" else d

    signals = {"1d": (128,), "1dodd": (101,), "2d": (2, 96), "2dax0": (80, 2)}
    dtypes = ("float64", "float32", "complex128")
    sig = {}
    for tag, shape in signals.items():
        for dt in dtypes:
            sig[tag + dt] = m[f"sig__{tag}{dt}"] = data(rng, shape, dt)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # periodogram: windows, nfft cut/pad, detrend, sides, scaling.
        for tag, shape in signals.items():
            axis = 0 if tag == "2dax0" else -1
            for dt in dtypes:
                x = sig[tag + dt]
                for win, nfft, d, ones, sc in (("boxcar", "none", "constant", 1, "density"),
                                               ("hann", 64, "linear", 1, "spectrum"),
                                               ("flattop", 150, "none", 0, "density"),
                                               ("kaiser,8.0", "none", "constant", 0, "spectrum")):
                    f, p = signal.periodogram(x, fs=3.0, window=win_arg(win),
                                              nfft=None if nfft == "none" else nfft,
                                              detrend=det(d), return_onesided=bool(ones),
                                              scaling=sc, axis=axis)
                    add("periodogram__" + tag + dt + "__" + opts(
                        fs=3.0, win=win, nfft=nfft, detrend=d, onesided=ones, scaling=sc,
                        axis=axis), None, None, f, None, p)
        # welch: every scaling, detrend, average, sides; odd and even.
        for tag, shape in signals.items():
            axis = 0 if tag == "2dax0" else -1
            for dt in dtypes:
                x = sig[tag + dt]
                for win, nps, nov, nfft, d, ones, sc, avg in (
                        ("hann", 32, "none", "none", "constant", 1, "density", "mean"),
                        ("hamming", 33, 10, 40, "linear", 1, "spectrum", "median"),
                        ("tukey,0.25", 16, 15, "none", "none", 0, "density", "median"),
                        ("blackman", 64, 0, 65, "constant", 0, "spectrum", "mean"),
                        ("hann", "none", "none", "none", "constant", 1, "density", "mean")):
                    f, p = signal.welch(x, fs=2.0, window=win_arg(win),
                                        nperseg=None if nps == "none" else nps,
                                        noverlap=None if nov == "none" else nov,
                                        nfft=None if nfft == "none" else nfft,
                                        detrend=det(d), return_onesided=bool(ones),
                                        scaling=sc, axis=axis, average=avg)
                    add("welch__" + tag + dt + "__" + opts(
                        fs=2.0, win=win, nperseg=nps, noverlap=nov, nfft=nfft, detrend=d,
                        onesided=ones, scaling=sc, axis=axis, average=avg),
                        None, None, f, None, p)
        # csd and coherence: two signals, mixed lengths, broadcasting.
        for tag, (sx, sy) in {"1d": ((128,), (128,)), "short": ((128,), (100,)),
                              "bcast": ((2, 100), (1, 100))}.items():
            for dt in dtypes:
                x, y = data(rng, sx, dt), data(rng, sy, dt)
                for nps, nov, d, ones, sc, avg in ((32, "none", "constant", 1, "density", "mean"),
                                                   (25, 5, "linear", 0, "spectrum", "median")):
                    f, p = signal.csd(x, y, fs=1.5, nperseg=nps,
                                      noverlap=None if nov == "none" else nov,
                                      detrend=det(d), return_onesided=bool(ones),
                                      scaling=sc, average=avg)
                    add("csd__" + tag + dt + "__" + opts(
                        fs=1.5, win="hann", nperseg=nps, noverlap=nov, detrend=d,
                        onesided=ones, scaling=sc, average=avg), x, y, f, None, p)
                if dt != "complex128" and tag != "short":
                    f, c = signal.coherence(x, y, fs=1.5, nperseg=32, detrend="linear")
                    add("coherence__" + tag + dt + "__" + opts(
                        fs=1.5, win="hann", nperseg=32, detrend="linear"), x, y, f, None, c)
        # spectrogram: every mode, both scalings, axes.
        for tag, shape in signals.items():
            axis = 0 if tag == "2dax0" else -1
            for dt in dtypes:
                x = sig[tag + dt]
                for mode, nps, nov, d, ones, sc in (("psd", 32, "none", "constant", 1, "density"),
                                                    ("complex", 31, 10, "none", 1, "spectrum"),
                                                    ("magnitude", 32, 16, "linear", 0, "density"),
                                                    ("angle", 20, 5, "constant", 1, "spectrum"),
                                                    ("phase", 20, 5, "none", 1, "density")):
                    f, t, s = signal.spectrogram(x, fs=4.0, nperseg=nps,
                                                 noverlap=None if nov == "none" else nov,
                                                 detrend=det(d), return_onesided=bool(ones),
                                                 scaling=sc, axis=axis, mode=mode)
                    add("spectrogram__" + tag + dt + "__" + opts(
                        fs=4.0, win="tukey,0.25", nperseg=nps, noverlap=nov, detrend=d,
                        onesided=ones, scaling=sc, axis=axis, mode=mode), None, None, f, t, s)
        # stft and istft round trips: boundaries, padding, scalings.
        for tag, shape in signals.items():
            axis = 0 if tag == "2dax0" else -1
            for dt in dtypes:
                x = sig[tag + dt]
                for win, nps, nov, nfft, bd, pad, sc, d in (
                        ("hann", 32, "none", "none", "zeros", 1, "spectrum", "none"),
                        ("hamming", 33, 20, 40, "even", 1, "psd", "none"),
                        ("hann", 16, 12, "none", "odd", 0, "spectrum", "constant"),
                        ("boxcar", 20, 10, "none", "constant", 1, "spectrum", "linear"),
                        ("hann", 24, 12, "none", "none", 0, "spectrum", "none")):
                    kw = dict(fs=2.0, window=win_arg(win), nperseg=nps,
                              noverlap=None if nov == "none" else nov,
                              nfft=None if nfft == "none" else nfft, scaling=sc)
                    f, t, z = signal.stft(x, detrend=det(d), boundary=None if bd == "none" else bd,
                                          padded=bool(pad), axis=axis, **kw)
                    o = opts(fs=2.0, win=win, nperseg=nps, noverlap=nov, nfft=nfft,
                             boundary=bd, padded=pad, scaling=sc, detrend=d, axis=axis)
                    add("stft__" + tag + dt + "__" + o, None, None, f, t, z)
                    if d == "none" and bd != "odd":
                        ones = not np.iscomplexobj(x)
                        tt, xr = signal.istft(z, input_onesided=ones,
                                              boundary=bd != "none",
                                              time_axis=-1, freq_axis=axis - 1 if axis < 0 else 0,
                                              **kw)
                        add("istft__" + tag + dt + "__" + o, None, None, None, tt, xr)
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    w = window_cases()
    np.savez_compressed(os.path.join(out, "windows_golden.npz"), **w)
    s = spectral_cases()
    np.savez_compressed(os.path.join(out, "spectral_golden.npz"), **s)
    print(f"windows_golden.npz: {len(w)} windows; spectral_golden.npz: "
          f"{sum(1 for k in s if k.endswith('__out'))} cases")


if __name__ == "__main__":
    main()
