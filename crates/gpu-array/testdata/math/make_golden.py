#!/usr/bin/env python3
"""NumPy's outputs for the mathematical, statistical and polynomial
routines of gpu_array::{math, stats, polynomial}: the oracle of
crates/gpu-array/tests/gpu/math.rs (`numpy_golden`). Run
`python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder); needs
NumPy 2.

Writes OUTDIR/math_golden.npz. Each case NAME has inputs `NAME.in0`,
`NAME.in1`, ... and NumPy's outputs `NAME.out0`, `NAME.out1`, ...; NAME is
`func__key=value__...__tag`, the keys being the call's scalar arguments
(decimals, mode, bins, ...). The cases pin result dtypes (around of bool
is float16, angle of int8 float16, sinc of integers float64), half-to-even
rounding with negative decimals, NaN and infinities, empty inputs, the
placement of `same` windows, histogram edges and values exactly on them,
and the weighted and density forms.
"""

import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261129)
cases = {}


def add(name, ins, outs):
    assert name not in {k.rsplit(".", 1)[0] for k in cases}, name
    for k, a in enumerate(ins):
        cases[f"{name}.in{k}"] = np.array(a, order="C")
    for k, a in enumerate(outs):
        cases[f"{name}.out{k}"] = np.array(a, order="C")  # keeps 0-d (ascontiguousarray would make it 1-d)


def floats(shape, dtype, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(dtype)


def cfloats(shape, dtype):
    return (rng.uniform(-1, 1, shape) + 1j * rng.uniform(-1, 1, shape)).astype(dtype)


special = np.array([0.5, 1.5, 2.5, -2.5, -0.5, 2.675, 0.285, -0.0, np.nan, np.inf, -np.inf,
                    1234.5678, -98.765, 1e-8, 3.0])

# around
for dt in ["float16", "float32", "float64"]:
    x = np.concatenate([special, floats(20, np.float64, -100, 100)]).astype(dt)
    for d in [0, 1, 2, -1, -2]:
        add(f"around__d={d}__{dt}", [x], [np.around(x, d)])
for dt in ["complex64", "complex128"]:
    x = cfloats(12, dt) * 50
    for d in [0, 1, -1]:
        add(f"around__d={d}__{dt}", [x], [np.around(x, d)])
for dt in ["int8", "int32", "int64", "uint8"]:
    x = np.array([15, 25, 35, -15, -25, 104, 0, 95, 5, 125], dtype=np.int64)
    if dt == "uint8":
        x = np.abs(x)
    x = x.astype(dt)
    for d in [0, 1, -1, -2]:
        add(f"around__d={d}__{dt}", [x], [np.around(x, d)])
b = np.array([True, False, True])
add("around__d=0__bool", [b], [np.around(b, 0)])

# fix
for dt in ["float16", "float32", "float64"]:
    x = np.concatenate([special, floats(9, np.float64, -5, 5)]).astype(dt)
    add(f"fix__{dt}", [x], [np.fix(x)])
add("fix__int32", [np.array([-3, 2, 7], np.int32)], [np.fix(np.array([-3, 2, 7], np.int32))])
add("fix__bool", [b], [np.fix(b)])

# i0 and sinc
for dt in ["float16", "float32", "float64", "int32", "bool"]:
    if dt == "bool":
        x = rng.random(10) < 0.5
    elif dt == "int32":
        x = np.arange(-12, 13, dtype=np.int32)
    else:
        x = np.concatenate([floats(30, np.float64, -25, 25), [0.0, 8.0, -8.0, np.nan, np.inf]])
        x = x.astype(dt)
        if dt == "float16":
            x = np.clip(x, -6, 6).astype(dt)
    with np.errstate(all="ignore"):
        add(f"i0__{dt}", [x], [np.i0(x)])
for dt in ["float16", "float32", "float64", "complex64", "complex128", "int8", "bool"]:
    if dt == "bool":
        x = np.array([True, False])
    elif dt == "int8":
        x = np.arange(-5, 6, dtype=np.int8)
    elif dt.startswith("complex"):
        x = np.concatenate([cfloats(10, dt) * 3, np.array([0j], dt)])
    else:
        x = np.concatenate([floats(20, np.float64, -6, 6), [0.0, 1.0, -2.0, 0.5, np.nan]]).astype(dt)
    add(f"sinc__{dt}", [x], [np.sinc(x)])

# angle
for dt in ["complex64", "complex128", "float32", "float64", "int8", "int64", "bool"]:
    if dt.startswith("complex"):
        x = cfloats(15, dt)
        x[0] = complex(-1, 0)
        x[1] = complex(-1, -0.0)
    elif dt == "bool":
        x = np.array([True, False])
    elif dt.startswith("int"):
        x = np.array([-3, 0, 4], dt)
    else:
        x = np.array([-1.5, -0.0, 0.0, 2.0, np.nan], dt)
    for deg in [0, 1]:
        add(f"angle__deg={deg}__{dt}", [x], [np.angle(x, deg=bool(deg))])

# clip
f4 = np.concatenate([floats(20, np.float32, -2, 2), np.array([np.nan, np.inf, -np.inf, -0.0], np.float32)])
add("clip__lo=-0.5__hi=0.7__float32", [f4], [np.clip(f4, -0.5, 0.7)])
add("clip__lo=none__hi=0.25__float32", [f4], [np.clip(f4, None, 0.25)])
add("clip__lo=0.1__hi=none__float32", [f4], [np.clip(f4, 0.1, None)])
lo = floats((5, 1), np.float64, -1, 0)
hi = floats((1, 6), np.float64, 0, 1)
hi[0, 2] = np.nan
x = floats((5, 6), np.float64, -2, 2)
add("clip__lo=array__hi=array__float64", [x, lo, hi], [np.clip(x, lo, hi)])
i1 = np.array([-128, -5, 0, 5, 127], np.int8)
add("clip__lo=-1000__hi=3__int8", [i1], [np.clip(i1, -1000, 3)])
add("clip__lo=-2__hi=1000__int8", [i1], [np.clip(i1, -2, 1000)])
add("clip__lo=-2.5__hi=2.5__int8", [i1], [np.clip(i1, -2.5, 2.5)])
c = cfloats(8, np.complex128)
add("clip__lo=-0.2__hi=0.3__complex128", [c], [np.clip(c, -0.2, 0.3)])

# nan_to_num
for dt in ["float16", "float32", "float64", "complex64", "complex128"]:
    x = np.array([np.nan, np.inf, -np.inf, 1.5, -2.0], np.float64)
    if dt.startswith("complex"):
        x = (x + 1j * x[::-1]).astype(dt)
    else:
        x = x.astype(dt)
    add(f"nan_to_num__nan=0__posinf=none__neginf=none__{dt}", [x], [np.nan_to_num(x)])
    add(f"nan_to_num__nan=1.5__posinf=9__neginf=-9__{dt}", [x],
        [np.nan_to_num(x, nan=1.5, posinf=9, neginf=-9)])
add("nan_to_num__nan=0__posinf=none__neginf=none__int32", [np.array([1, 2], np.int32)],
    [np.nan_to_num(np.array([1, 2], np.int32))])

# unwrap
ph = np.cumsum(floats(40, np.float64, -2.5, 2.5)) % (2 * np.pi) - np.pi
add("unwrap__axis=-1__discont=none__period=tau__float64", [ph], [np.unwrap(ph)])
ph2 = (np.cumsum(floats((12, 3), np.float64, -3, 3), axis=0) % (2 * np.pi)).astype(np.float32)
add("unwrap__axis=0__discont=none__period=tau__float32", [ph2], [np.unwrap(ph2, axis=0)])
add("unwrap__axis=0__discont=4__period=tau__float32", [ph2], [np.unwrap(ph2, discont=4.0, axis=0)])
deg = (np.cumsum(rng.uniform(-150, 150, 30)) % 360).astype(np.float64)
add("unwrap__axis=-1__discont=none__period=360__float64", [deg], [np.unwrap(deg, period=360)])
iv = np.array([0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 4, 1], np.int64)
add("unwrap__axis=-1__discont=none__period=int6__int64", [iv], [np.unwrap(iv, period=6)])
add("unwrap__axis=-1__discont=none__period=int5__int64", [iv], [np.unwrap(iv, period=5)])
add("unwrap__axis=-1__discont=none__period=tau__int32", [iv.astype(np.int32) * 2],
    [np.unwrap(iv.astype(np.int32) * 2)])

# interp
xp = np.sort(rng.uniform(0, 10, 12))
fp = rng.uniform(-1, 1, 12)
x = np.concatenate([rng.uniform(-1, 11, 40), xp[:3], [np.nan, xp[-1]]])
add("interp__left=none__right=none__period=none__f8", [x, xp, fp], [np.interp(x, xp, fp)])
add("interp__left=-7__right=7__period=none__f8", [x, xp, fp], [np.interp(x, xp, fp, left=-7, right=7)])
x4 = x.astype(np.float32)
add("interp__left=none__right=none__period=none__f4", [x4, xp, fp], [np.interp(x4, xp, fp)])
fpc = cfloats(12, np.complex128)
add("interp__left=none__right=none__period=none__c16", [x, xp, fpc], [np.interp(x, xp, fpc)])
xpp = np.array([190.0, -190.0, 350.0, -350.0])
fpp = np.array([5.0, 10.0, 3.0, 4.0])
xq = np.array([-180.0, -170.0, -185.0, 185.0, -10.0, -5.0, 0.0, 365.0, 720.5])
add("interp__left=none__right=none__period=360__f8", [xq, xpp, fpp], [np.interp(xq, xpp, fpp, period=360)])
add("interp__left=none__right=none__period=none__one", [np.array([0.0, 1.0, 2.0, np.nan]),
    np.array([1.0]), np.array([3.0])], [np.interp(np.array([0.0, 1.0, 2.0, np.nan]), [1.0], [3.0])])
xi = np.arange(-2, 13, dtype=np.int32)
xpi = np.array([0.0, 2.0, 2.0, 5.0, 10.0])
fpi = np.array([1.0, 3.0, 4.0, np.inf, 2.0])
add("interp__left=none__right=none__period=none__dup", [xi, xpi, fpi], [np.interp(xi, xpi, fpi)])

# windows
for name in ["bartlett", "blackman", "hamming", "hanning"]:
    for m in [0, 1, 2, 5, 16, 51]:
        add(f"{name}__m={m}__w", [], [getattr(np, name)(m)])
for m, beta in [(1, 3.0), (7, 0.0), (12, 14.0), (33, 5.0)]:
    add(f"kaiser__m={m}__beta={beta}__w", [], [np.kaiser(m, beta)])

# convolve and correlate
for (n, m) in [(7, 3), (3, 7), (6, 4), (4, 6), (5, 5), (1, 4), (9, 1)]:
    a = floats(n, np.float64, -1, 1)
    v = floats(m, np.float64, -1, 1)
    for mode in ["full", "same", "valid"]:
        add(f"convolve__mode={mode}__{n}x{m}", [a, v], [np.convolve(a, v, mode)])
        add(f"correlate__mode={mode}__{n}x{m}", [a, v], [np.correlate(a, v, mode)])
ai = rng.integers(-100, 100, 9).astype(np.int32)
vi = rng.integers(-100, 100, 4).astype(np.int16)
add("convolve__mode=full__int", [ai, vi], [np.convolve(ai, vi)])
ac, vc = cfloats(8, np.complex128), cfloats(3, np.complex64)
for mode in ["full", "same"]:
    add(f"correlate__mode={mode}__complex", [ac, vc], [np.correlate(ac, vc, mode)])
    add(f"correlate__mode={mode}__complex_rev", [vc, ac], [np.correlate(vc, ac, mode)])
    add(f"convolve__mode={mode}__complex", [ac, vc], [np.convolve(ac, vc, mode)])
ab, vb = np.array([True, False, False, True]), np.array([False, True])
add("convolve__mode=full__bool", [ab, vb], [np.convolve(ab, vb)])
a32 = floats(50, np.float32)
add("convolve__mode=same__float32", [a32, a32[:9]], [np.convolve(a32, a32[:9], "same")])

# histogram
d4 = rng.normal(0, 1, 1500).astype(np.float32)
h, e = np.histogram(d4, 17)
add("histogram__bins=17__range=none__density=0__f4", [d4], [h, e])
h, e = np.histogram(d4, 10, range=(-0.5, 0.7))
add("histogram__bins=10__range=-0.5,0.7__density=0__f4", [d4], [h, e])
h, e = np.histogram(d4, 13, density=True)
add("histogram__bins=13__range=none__density=1__f4", [d4], [h, e])
w4 = rng.uniform(0, 2, 1500).astype(np.float32)
h, e = np.histogram(d4, 9, weights=w4)
add("histogram__bins=9__range=none__density=0__f4_w", [d4, w4], [h, e])
wc = cfloats(1500, np.complex128)
h, e = np.histogram(d4, 6, weights=wc)
add("histogram__bins=6__range=none__density=0__f4_cw", [d4, wc], [h, e])
d8 = np.concatenate([np.linspace(-3, 5, 41), rng.uniform(-3, 5, 400), [np.nan]])
d8 = d8[~np.isnan(d8)]
h, e = np.histogram(d8, 40)
add("histogram__bins=40__range=none__density=0__f8_edges", [d8], [h, e])
i4 = rng.integers(-50, 200, 1200).astype(np.int32)
h, e = np.histogram(i4, 20)
add("histogram__bins=20__range=none__density=0__i4", [i4], [h, e])
h, e = np.histogram(i4, 7, range=(0, 100))
add("histogram__bins=7__range=0,100__density=0__i4", [i4], [h, e])
d2 = rng.uniform(-2, 2, 700).astype(np.float16)
h, e = np.histogram(d2, 11)
add("histogram__bins=11__range=none__density=0__f2", [d2], [h, e])
const = np.full(10, 2.5, np.float64)
h, e = np.histogram(const, 4)
add("histogram__bins=4__range=none__density=0__const", [const], [h, e])
h, e = np.histogram(np.array([], np.float64), 3)
add("histogram__bins=3__range=none__density=0__empty", [np.array([], np.float64)], [h, e])
edges = np.array([-2.0, -0.5, 0.0, 0.0, 0.3, 1.0, 2.5])
h, e = np.histogram(d4, edges)
add("histogram__bins=array__range=none__density=0__f4", [d4, edges], [h, e])
h, e = np.histogram(d8, edges, density=True)
add("histogram__bins=array__range=none__density=1__f8", [d8, edges], [h, e])
h, e = np.histogram(d8, edges, weights=np.arange(d8.size, dtype=np.float64))
add("histogram__bins=array__range=none__density=0__f8_w", [d8, edges, np.arange(d8.size, dtype=np.float64)], [h, e])
eint = np.array([0, 10, 20, 50, 51, 120], np.int64)
h, e = np.histogram(i4, eint)
add("histogram__bins=array__range=none__density=0__i4", [i4, eint], [h, e])

# histogram2d and histogramdd
hx = rng.normal(0, 1, 300)
hy = rng.uniform(-2, 2, 300).astype(np.float32)
h, xe, ye = np.histogram2d(hx, hy, 5)
add("histogram2d__bins=5__range=none__density=0__x", [hx, hy], [h, xe, ye])
ye_given = np.array([-2.0, -0.5, 0.0, 1.0, 2.0])
h, xe, ye = np.histogram2d(hx, hy, [3, ye_given])
add("histogram2d__bins=3;array__range=none__density=0__x", [hx, hy, ye_given], [h, xe, ye])
h, xe, ye = np.histogram2d(hx, hy, 4, range=[[-1, 1], [-1.5, 0.5]], density=True)
add("histogram2d__bins=4__range=-1,1;-1.5,0.5__density=1__x", [hx, hy], [h, xe, ye])
hw = rng.uniform(0, 1, 300)
h, xe, ye = np.histogram2d(hx, hy, 6, weights=hw)
add("histogram2d__bins=6__range=none__density=0__w", [hx, hy, hw], [h, xe, ye])
sdd = rng.normal(0, 1, (200, 3)).astype(np.float32)
h, edd = np.histogramdd(sdd, 4)
add("histogramdd__bins=4__range=none__density=0__x", [sdd], [h] + edd)
sdi = rng.integers(0, 10, (150, 2)).astype(np.int32)
h, edd = np.histogramdd(sdi, (3, 5), density=True)
add("histogramdd__bins=3;5__range=none__density=1__x", [sdi], [h] + edd)

# bincount
x = rng.integers(0, 50, 800).astype(np.int32)
add("bincount__minlength=0__i4", [x], [np.bincount(x)])
add("bincount__minlength=80__i4", [x], [np.bincount(x, minlength=80)])
wb = rng.uniform(-1, 1, 800)
add("bincount__minlength=0__i4_w", [x, wb], [np.bincount(x, weights=wb)])
add("bincount__minlength=0__u1", [x.astype(np.uint8)], [np.bincount(x.astype(np.uint8))])
add("bincount__minlength=3__b1", [x > 25], [np.bincount(x > 25, minlength=3)])
add("bincount__minlength=4__empty", [np.array([], np.int64)], [np.bincount(np.array([], np.int64), minlength=4)])
add("bincount__minlength=0__i8_w4", [x.astype(np.int64), wb.astype(np.float32)],
    [np.bincount(x.astype(np.int64), weights=wb.astype(np.float32))])

# digitize
bins = np.array([0.0, 1.0, 2.5, 4.0, 10.0])
xd = np.array([-1.0, 0.0, 0.5, 1.0, 2.5, 3.0, 4.0, 10.0, 11.0, np.nan])
for right in [0, 1]:
    add(f"digitize__right={right}__inc", [xd, bins], [np.digitize(xd, bins, right=bool(right))])
    add(f"digitize__right={right}__dec", [xd, bins[::-1]], [np.digitize(xd, bins[::-1], right=bool(right))])
xi2 = np.array([[0, 3], [7, 12]], np.int32)
add("digitize__right=0__int", [xi2, bins], [np.digitize(xi2, bins)])

# average
a = floats((4, 6), np.float32)
w = rng.uniform(0.1, 1, 6).astype(np.float32)
avg, scl = np.average(a, axis=1, weights=w, returned=True)
add("average__axis=1__w=1d", [a, w], [avg, scl])
w2 = rng.uniform(0.1, 1, (4, 6))
avg, scl = np.average(a, axis=0, weights=w2, returned=True)
add("average__axis=0__w=full", [a, w2], [avg, scl])
ai = rng.integers(0, 9, (3, 5)).astype(np.int32)
avg, scl = np.average(ai, returned=True)
add("average__axis=none__w=none", [ai], [np.asarray(avg), np.asarray(scl)])
avg, scl = np.average(ai, axis=0, returned=True)
add("average__axis=0__w=none", [ai], [avg, scl])

# cov and corrcoef
m = floats((3, 25), np.float64)
add("cov__rowvar=1__bias=0__ddof=none__plain", [m], [np.cov(m)])
add("cov__rowvar=0__bias=1__ddof=none__plain", [m.T.copy()], [np.cov(m.T, rowvar=False, bias=True)])
add("cov__rowvar=1__bias=0__ddof=3__plain", [m], [np.cov(m, ddof=3)])
fw = rng.integers(1, 4, 25)
aw = rng.uniform(0.2, 1, 25)
add("cov__rowvar=1__bias=0__ddof=none__fw", [m, fw], [np.cov(m, fweights=fw)])
add("cov__rowvar=1__bias=0__ddof=none__aw", [m, aw], [np.cov(m, aweights=aw)])
add("cov__rowvar=1__bias=0__ddof=none__fwaw", [m, fw, aw], [np.cov(m, fweights=fw, aweights=aw)])
y = floats(25, np.float32)
add("cov__rowvar=1__bias=0__ddof=none__y", [m, y], [np.cov(m, y)])
mc = cfloats((2, 10), np.complex128)
add("cov__rowvar=1__bias=0__ddof=none__complex", [mc], [np.cov(mc)])
v1 = floats(30, np.float64)
add("cov__rowvar=1__bias=0__ddof=none__one", [v1], [np.asarray(np.cov(v1))])
mi = rng.integers(0, 10, (4, 12)).astype(np.int32)
add("corrcoef__rowvar=1__plain", [mi], [np.corrcoef(mi)])
add("corrcoef__rowvar=0__plain", [m.T.copy()], [np.corrcoef(m.T, rowvar=False)])
add("corrcoef__rowvar=1__complex", [mc], [np.corrcoef(mc)])

# polynomials
p = np.array([2.0, -3.0, 0.5, 1.0])
xx = floats(20, np.float32, -3, 3)
add("polyval__f8_f4", [p, xx], [np.polyval(p, xx)])
pi_ = np.array([3, 0, -2, 1], np.int32)
xi3 = np.arange(-4, 5, dtype=np.int32)
add("polyval__i4_i4", [pi_, xi3], [np.polyval(pi_, xi3)])
pc = cfloats(5, np.complex128)
xc = floats((2, 3), np.float64)
add("polyval__c16_f8", [pc, xc], [np.polyval(pc, xc)])
q = np.array([1.0, 4.0])
add("polyadd__x", [p, q], [np.polyadd(p, q)])
add("polysub__x", [q, p], [np.polysub(q, p)])
add("polymul__x", [p, q], [np.polymul(p, q)])
for mm in [1, 2, 4]:
    add(f"polyder__m={mm}__x", [p], [np.polyder(p, mm)])
add("polyder__m=1__int", [pi_], [np.polyder(pi_, 1)])
add("polyint__m=1__k=0__x", [p], [np.polyint(p)])
add("polyint__m=2__k=3__x", [p], [np.polyint(p, 2, k=3.0)])
add("polyint__m=1__k=0__int", [pi_], [np.polyint(pi_)])
xv8 = floats(7, np.float64, -2, 2)
add("polyvander__deg=4__f8", [xv8], [np.polynomial.polynomial.polyvander(xv8, 4)])
xv = np.array([[1, 2], [3, -1]], np.int32)
add("poly__real", [np.array([1.0, -2.0, 0.5])], [np.poly(np.array([1.0, -2.0, 0.5]))])
add("poly__int", [np.array([3, 1], np.int32)], [np.poly(np.array([3, 1], np.int32))])
rc = np.array([1 + 2j, 1 - 2j, -0.5 + 0j])
add("poly__conj", [rc], [np.poly(rc)])
rc2 = np.array([1 + 2j, 0.5 - 1j])
add("poly__complex", [rc2], [np.poly(rc2)])
add("polyvander__deg=3__i4", [xv], [np.polynomial.polynomial.polyvander(xv, 3)])
add("npolyval__x", [xx, p], [np.polynomial.polynomial.polyval(xx, p)])
add("npolyval__int", [xi3, pi_], [np.polynomial.polynomial.polyval(xi3, pi_)])
ct = floats((4, 2), np.float64)
xt = floats((2, 3), np.float32)
add("npolyval__tensor", [xt, ct], [np.polynomial.polynomial.polyval(xt, ct)])
add("polycompanion__x", [p], [np.polynomial.polynomial.polycompanion(p)])
add("polycompanion__two", [q], [np.polynomial.polynomial.polycompanion(q)])
tc = np.array([1.0, 1e-3, 2.0, 1e-6, 0.0, 0.0])
add("trimcoef__tol=0__x", [tc], [np.polynomial.polyutils.trimcoef(tc)])
add("trimcoef__tol=0.01__x", [tc], [np.polynomial.polyutils.trimcoef(tc, 0.01)])
add("trimcoef__tol=5__x", [tc], [np.polynomial.polyutils.trimcoef(tc, 5)])

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
np.savez_compressed(out_dir / "math_golden.npz", **cases)
print(f"{len({k.rsplit('.', 1)[0] for k in cases})} cases")
