#!/usr/bin/env python3
"""NumPy's outputs for gpu-linalg: the oracle of
crates/gpu-linalg/tests/gpu/products.rs (`numpy_linalg_golden`). Run
`python3 make_golden.py OUTDIR` (OUTDIR defaults to this folder); needs
NumPy 2.

Writes OUTDIR/linalg_golden.npz. Each case NAME has its inputs `NAME.in0`,
`NAME.in1`, ... (stored, so both sides see the same bits) and NumPy's
outputs `NAME.out0`, ...; NAME is `func__key=value__...__tag`. Every case
carries `tol`, the tolerance of the comparison relative to
`1 + max|want|` (a few ulps times the size, times the condition number
for ill-conditioned input), and may carry `view`: the function ran on a
non-contiguous view of in0 (`T` its last two axes swapped, `S` every
other element of its last axis, `R` its rows reversed), which the test
builds the same way.

The inputs cover float32, float64, complex64 and complex128 (integers
where NumPy converts them), well-conditioned, ill-conditioned (singular
values log-spaced down to 1/cond), singular (rank-deficient, or a zero
column where LU meets an exact zero pivot), stacked, broadcast and
non-contiguous inputs. Non-unique outputs (Q, U, V, eigenvectors) are not
stored: the test checks them by reconstruction; R of QR is compared with
each row's phase normalized; roots and eigvals as multisets.
"""

import sys
from pathlib import Path

import numpy as np

rng = np.random.default_rng(20261130)
cases = {}
FLOATS = ["float32", "float64", "complex64", "complex128"]


def eps(dt):
    dt = np.dtype(dt)
    return float(np.finfo(dt if dt.kind in "fc" else np.float64).eps)


def add(name, ins, outs, tol):
    name = f"{name.split('__')[0]}__tol={tol:.1e}__" + "__".join(name.split("__")[1:])
    assert name not in {k.rsplit(".", 1)[0] for k in cases}, name
    for k, a in enumerate(ins):
        cases[f"{name}.in{k}"] = np.array(a, order="C")
    for k, a in enumerate(outs):
        cases[f"{name}.out{k}"] = np.array(a, order="C")


def view(a, v):
    return {"T": lambda x: x.swapaxes(-1, -2), "S": lambda x: x[..., ::2],
            "R": lambda x: x[..., ::-1, :], "N": lambda x: x}[v](a)


def rand(shape, dt):
    # Multiples of 1/64: exact in every dtype, and they compress.
    x = np.round(rng.uniform(-1, 1, shape) * 64) / 64
    if np.dtype(dt).kind == "c":
        x = x + 1j * np.round(rng.uniform(-1, 1, shape) * 64) / 64
    return x.astype(dt)


def unitary(n, dt):
    q, _ = np.linalg.qr(rand((n, n), "complex128" if np.dtype(dt).kind == "c" else "float64"))
    return q


def wellcond(batch, n, dt):
    return (rand(batch + (n, n), dt) + n * np.eye(n)).astype(dt)


def illcond(n, dt, cond):
    s = np.logspace(0, -np.log10(cond), n)
    return ((unitary(n, dt) * s) @ unitary(n, dt).conj().T).astype(dt)


def lowrank(batch, m, n, r, dt):
    return (rand(batch + (m, r), dt) @ rand(batch + (r, n), dt)).astype(dt)


def hpd(batch, n, dt):
    m = rand(batch + (n, n), dt)
    return (m @ m.conj().swapaxes(-1, -2) + n * np.eye(n)).astype(dt)


def herm(batch, n, dt):
    m = rand(batch + (n, n), dt)
    return ((m + m.conj().swapaxes(-1, -2)) / 2).astype(dt)


def clear(a, thr, dt):
    """Whether the threshold `thr` (absolute) sits well away from every
    singular value of `a`: farther than the rounding noise of singular
    values in `dt` (many ulps of the largest) and than 1% of itself, so
    that GPU and NumPy count the same values."""
    sv = np.linalg.svd(a.astype(np.complex128), compute_uv=False)
    smax = sv.max(axis=-1, keepdims=True)
    margin = 1e3 * eps(dt) * smax + 1e-2 * thr
    return bool(np.all(np.abs(sv - thr) > margin))


def tol(dt, n, cond=1.0):
    return max(eps(dt) * 64 * (n + 4), eps(dt) * cond * 64)


def square_inputs(dt):
    """(tag, array, view, cond) of square matrices for det/inv/solve."""
    out = [("4x4", wellcond((), 4, dt), "N", 10.0),
           ("b3x4x4", wellcond((3,), 4, dt), "N", 10.0),
           ("1x1", wellcond((), 1, dt), "N", 1.0),
           ("T5x5", wellcond((), 5, dt), "T", 10.0),
           ("S4x8", rand((4, 8), dt), "S", 10.0),
           ("R2x3x3", wellcond((2,), 3, dt), "R", 10.0)]
    # Columns 0, 2, 4.. of S5x10 make the matrix: give it a strong diagonal.
    s = next(a for t, a, _, _ in out if t == "S4x8")
    for i in range(4):
        s[i, 2 * i] += 4
    cond = 1e3 if np.dtype(dt).itemsize // (2 if np.dtype(dt).kind == "c" else 1) == 4 else 1e8
    out.append(("ill5x5", illcond(5, dt, cond), "N", cond))
    return out


# det, slogdet, inv, solve
for dt in FLOATS:
    for tag, a, v, cond in square_inputs(dt):
        x = view(a, v)
        n = x.shape[-1]
        add(f"det__view={v}__{tag}__{dt}", [a], [np.linalg.det(x)], tol(dt, n, cond))
        sg, ld = np.linalg.slogdet(x)
        add(f"slogdet__view={v}__{tag}__{dt}", [a], [sg, ld], tol(dt, n, cond))
        add(f"inv__view={v}__{tag}__{dt}", [a], [np.linalg.inv(x)], tol(dt, n, cond))
        bshape = x.shape[:-1] + (2,)
        b = rand(bshape, dt)
        add(f"solve__view={v}__{tag}__{dt}", [a, b], [np.linalg.solve(x, b)], tol(dt, n, cond))
    # A vector b, and a b broadcast over a stack.
    a = wellcond((), 5, dt)
    b = rand((5,), dt)
    add(f"solve__view=N__vec__{dt}", [a, b], [np.linalg.solve(a, b)], tol(dt, 5, 10))
    a = wellcond((3,), 4, dt)
    b = rand((4, 2), dt)
    add(f"solve__view=N__bcast__{dt}", [a, b], [np.linalg.solve(a, b)], tol(dt, 4, 10))
    # Singular: det ~ 0; a zero column gives an exact zero pivot: sign 0, -inf.
    s = lowrank((), 5, 5, 3, dt)
    add(f"det__view=N__lowrank__{dt}", [s], [np.linalg.det(s)], tol(dt, 5, 100))
    z = rand((2, 4, 4), dt)
    z[:, :, 1] = 0
    add(f"det__view=N__zerocol__{dt}", [z], [np.linalg.det(z)], tol(dt, 4))
    sg, ld = np.linalg.slogdet(z)
    add(f"slogdet__view=N__zerocol__{dt}", [z], [sg, ld], tol(dt, 4))
# Integers compute in float64.
ai = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], np.int32)
add("det__view=N__int32", [ai], [np.linalg.det(ai)], tol("float64", 3))
add("inv__view=N__int32", [ai], [np.linalg.inv(ai)], tol("float64", 3))

# lstsq: (x, residuals, rank, s)
for dt in FLOATS:
    for tag, a, bshape in [("over8x3", rand((8, 3), dt), (8,)),
                           ("over8x3k2", rand((8, 3), dt), (8, 2)),
                           ("under3x6", rand((3, 6), dt), (3, 2)),
                           ("rank2of6x4", lowrank((), 6, 4, 2, dt), (6,)),
                           ("square5", wellcond((), 5, dt), (5, 3))]:
        b = rand(bshape, dt)
        # NumPy's default rcond is float64's eps for every input (it
        # computes in double), Cuprum's the input's (as CuPy): rank-
        # deficient input only with a cutoff that decides the same way.
        for rc in (["1e-3"] if tag.startswith("rank") else ["none", "1e-3"]):
            rcond = None if rc == "none" else float(rc)
            x, res, rank, s = np.linalg.lstsq(a, b, rcond=rcond)
            add(f"lstsq__rcond={rc}__{tag}__{dt}", [a, b], [x, res, np.int64(rank), s],
                tol(dt, 8, 100))

# pinv (rcond, rtol, hermitian) and matrix_rank (tol, rtol, hermitian)
for dt in FLOATS:
    ill = 1e3 if dt in ("float32", "complex64") else 1e8
    mats = [("5x3", rand((5, 3), dt), 10), ("b2x3x5", rand((2, 3, 5), dt), 10),
            ("rank2of5x5", lowrank((), 5, 5, 2, dt), 100), ("ill5x5", illcond(5, dt, ill), ill)]
    for tag, a, cond in mats:
        m_, n_ = a.shape[-2:]
        smax = np.linalg.svd(a.astype(np.complex128), compute_uv=False).max(axis=-1, keepdims=True)
        rel = {("none", "novalue"): 1e-15, ("1e-2", "novalue"): 1e-2,
               ("none", "none"): max(m_, n_) * eps(dt), ("none", "1e-2"): 1e-2}
        for rc, rt in [("none", "novalue"), ("1e-2", "novalue"), ("none", "none"), ("none", "1e-2")]:
            if not clear(a, rel[(rc, rt)] * smax, dt):
                continue
            kw = {}
            if rc != "none":
                kw["rcond"] = float(rc)
            if rt != "novalue":
                kw["rtol"] = None if rt == "none" else float(rt)
            p = np.linalg.pinv(a, **kw)
            # A cutoff that drops some singular values makes the result
            # as conditioned as what is kept.
            c = cond if (rc, rt) in [("none", "novalue"), ("none", "none")] else 100
            add(f"pinv__rcond={rc}__rtol={rt}__herm=0__{tag}__{dt}", [a], [p], tol(dt, 6, c))
        for tl, rt in [("none", "none"), ("0.5", "none"), ("none", "1e-2")]:
            thr = {("none", "none"): max(m_, n_) * eps(dt) * smax, ("0.5", "none"): 0.5,
                   ("none", "1e-2"): 1e-2 * smax}[(tl, rt)]
            if not clear(a, thr, dt):
                continue
            r = np.linalg.matrix_rank(a, tol=None if tl == "none" else float(tl),
                                      rtol=None if rt == "none" else float(rt))
            add(f"matrix_rank__atol={tl}__rtol={rt}__herm=0__{tag}__{dt}", [a], [r], 0.0)
    h = herm((2,), 5, dt)
    add(f"pinv__rcond=none__rtol=novalue__herm=1__herm5__{dt}", [h],
        [np.linalg.pinv(h, hermitian=True)], tol(dt, 5, 100))
    # Hermitian, indefinite, rank 3: B diag(1, -1, 2) B^H.
    bb = rand((6, 3), dt)
    hl = ((bb * np.array([1.0, -1.0, 2.0])) @ bb.conj().T).astype(dt)
    hl = ((hl + hl.conj().T) / 2).astype(dt)
    assert clear(hl, 1e-2 * np.abs(np.linalg.eigvalsh(hl)).max(), dt), dt
    add(f"matrix_rank__atol=none__rtol=1e-2__herm=1__herm6__{dt}", [hl],
        [np.linalg.matrix_rank(hl, hermitian=True, rtol=1e-2)], 0.0)
    add(f"pinv__rcond=none__rtol=1e-2__herm=1__hermlow6__{dt}", [hl],
        [np.linalg.pinv(hl, hermitian=True, rtol=1e-2)], tol(dt, 6, 100))
for v in [rand((4,), "float64"), np.zeros(4, np.float32)]:
    add(f"matrix_rank__atol=none__rtol=none__herm=0__vec__{v.dtype}", [v],
        [np.linalg.matrix_rank(v)], 0.0)

# norm: every ord and axis form
vec_ords = ["none", "inf", "-inf", "0", "1", "-1", "2", "-2", "3", "0.5"]
mat_ords = ["none", "fro", "nuc", "inf", "-inf", "1", "-1", "2", "-2"]


def ord_of(o):
    return {"none": None, "fro": "fro", "nuc": "nuc", "inf": np.inf, "-inf": -np.inf}.get(o, None) \
        if o in ("none", "fro", "nuc", "inf", "-inf") else float(o)


for dt in FLOATS + ["int32"]:
    x1 = rand((7,), dt) if dt != "int32" else rng.integers(-5, 6, 7).astype(dt)
    x3 = rand((3, 4, 5), dt) if dt != "int32" else rng.integers(-5, 6, (3, 4, 5)).astype(dt)
    x2 = x3[0]
    for o in vec_ords:
        add(f"norm__ord={o}__axis=none__keep=0__v7__{dt}", [x1], [np.linalg.norm(x1, ord_of(o))],
            tol(dt, 7))
        for ax in (["1", "-1"] if o in ("none", "inf", "0", "-2", "0.5") else ["-1"]):
            for kd in [0, 1]:
                add(f"norm__ord={o}__axis={ax}__keep={kd}__v345__{dt}", [x3],
                    [np.linalg.norm(x3, ord_of(o), axis=int(ax), keepdims=bool(kd))], tol(dt, 7))
    add(f"norm__ord=none__axis=none__keep=0__flat345__{dt}", [x3], [np.linalg.norm(x3)], tol(dt, 60))
    add(f"norm__ord=none__axis=none__keep=1__flat345__{dt}", [x3],
        [np.linalg.norm(x3, keepdims=True)], tol(dt, 60))
    for o in mat_ords:
        add(f"norm__ord={o}__axis=none__keep=0__m45__{dt}", [x2], [np.linalg.norm(x2, ord_of(o))],
            tol(dt, 8))
        for ax in ["1;2", "2;0", "-1;-3"]:
            axes = tuple(int(t) for t in ax.split(";"))
            for kd in [0, 1]:
                add(f"norm__ord={o}__axis={ax}__keep={kd}__m345__{dt}", [x3],
                    [np.linalg.norm(x3, ord_of(o), axis=axes, keepdims=bool(kd))], tol(dt, 8))
    # NumPy 2's vector_norm (any axes together) and matrix_norm.
    for o in ["2", "1", "inf", "0", "-inf", "3"]:
        for ax in ["none", "1", "0;2"]:
            axes = None if ax == "none" else tuple(int(t) for t in ax.split(";"))
            add(f"vector_norm__ord={o}__axis={ax}__keep=0__v345__{dt}", [x3],
                [np.linalg.vector_norm(x3, ord=ord_of(o), axis=axes)], tol(dt, 60))
        add(f"vector_norm__ord={o}__axis=1__keep=1__v345__{dt}", [x3],
            [np.linalg.vector_norm(x3, ord=ord_of(o), axis=1, keepdims=True)], tol(dt, 60))
    for o in ["fro", "nuc", "2", "-1", "inf"]:
        for kd in [0, 1]:
            add(f"matrix_norm__ord={o}__keep={kd}__m345__{dt}", [x3],
                [np.linalg.matrix_norm(x3, ord=ord_of(o), keepdims=bool(kd))], tol(dt, 8))

# eigvalsh (one triangle read: the other holds noise), svd values, eigvals
for dt in FLOATS:
    for tag, a, v in [("5x5", herm((), 5, dt), "N"), ("b3x4x4", herm((3,), 4, dt), "N"),
                      ("T5x5", herm((), 5, dt), "T")]:
        noisy = a.copy()
        n = a.shape[-1]
        iu = np.triu_indices(n, 1)
        noisy[..., iu[0], iu[1]] += rand(a.shape[:-2] + (len(iu[0]),), dt)
        for uplo in ["L", "U"]:
            src = noisy if uplo == "L" else noisy.swapaxes(-1, -2).copy()
            add(f"eigvalsh__uplo={uplo}__view={v}__{tag}__{dt}", [src],
                [np.linalg.eigvalsh(view(src, v), UPLO=uplo)], tol(dt, n))
    ill = 1e3 if dt in ("float32", "complex64") else 1e8
    for tag, a, v in [("6x4", rand((6, 4), dt), "N"), ("4x6", rand((4, 6), dt), "N"),
                      ("b3x5x3", rand((3, 5, 3), dt), "N"), ("T4x5", rand((4, 5), dt), "T"), ("S3x8", rand((3, 8), dt), "S"),
                      ("ill5x5", illcond(5, dt, ill), "N"), ("rank2of5x5", lowrank((), 5, 5, 2, dt), "N")]:
        x = view(a, v)
        s = np.linalg.svd(x, compute_uv=False)
        n = max(x.shape[-2:])
        add(f"svdvals__view={v}__{tag}__{dt}", [a], [np.linalg.svdvals(x)], tol(dt, n))
        add(f"svd__uv=0__full=1__herm=0__view={v}__{tag}__{dt}", [a], [s], tol(dt, n))
        for full in [0, 1]:
            add(f"svd__uv=1__full={full}__herm=0__view={v}__{tag}__{dt}", [a],
                [np.linalg.svd(x, full_matrices=bool(full)).S], tol(dt, n))
    h = herm((2,), 5, dt)
    add(f"svd__uv=0__full=1__herm=1__view=N__herm5__{dt}", [h],
        [np.linalg.svd(h, compute_uv=False, hermitian=True)], tol(dt, 5))
    add(f"svd__uv=1__full=1__herm=1__view=N__herm5__{dt}", [h],
        [np.linalg.svd(h, hermitian=True).S], tol(dt, 5))
    # eigvals of a general matrix (compared as multisets; NumPy's real
    # results stored complex, as Cuprum returns them).
    g = rand((2, 5, 5), dt)
    add(f"eigvals__view=N__b2x5x5__{dt}", [g], [np.linalg.eigvals(g).astype(np.result_type(dt, np.complex64))],
        tol(dt, 5, 100))

# cholesky (lower and upper), qr's R
for dt in FLOATS:
    for tag, a, v in [("5x5", hpd((), 5, dt), "N"), ("b3x4x4", hpd((3,), 4, dt), "N"),
                      ("T4x4", hpd((), 4, dt), "T")]:
        n = a.shape[-1]
        for up in [0, 1]:
            # The triangle not read holds noise.
            noisy = a.copy()
            iu = np.triu_indices(n, 1) if not up else np.tril_indices(n, -1)
            noisy[..., iu[0], iu[1]] += rand(a.shape[:-2] + (len(iu[0]),), dt)
            if v == "T":
                noisy = noisy.swapaxes(-1, -2).copy()
            add(f"cholesky__upper={up}__view={v}__{tag}__{dt}", [noisy],
                [np.linalg.cholesky(view(noisy, v), upper=bool(up))], tol(dt, n))
    for tag, a, v in [("5x3", rand((5, 3), dt), "N"), ("3x5", rand((3, 5), dt), "N"),
                      ("b3x5x4", rand((3, 5, 4), dt), "N"), ("b2x3x5", rand((2, 3, 5), dt), "N"),
                      ("T4x5", rand((4, 5), dt), "T"),
                      ("R2x4x4", rand((2, 4, 4), dt), "R")]:
        x = view(a, v)
        n = max(x.shape[-2:])
        for mode in ["reduced", "complete", "r"]:
            r = np.linalg.qr(x, mode=mode)
            r = r if mode == "r" else r.R
            add(f"qr__mode={mode}__view={v}__{tag}__{dt}", [a], [r], tol(dt, n))

# matrix_power
for dt in FLOATS + ["int64"]:
    a = wellcond((), 3, dt) / 3 if dt != "int64" else rng.integers(-2, 3, (3, 3)).astype(dt)
    b = wellcond((3,), 3, dt) / 3 if dt != "int64" else rng.integers(-2, 3, (3, 3, 3)).astype(dt)
    for n in [0, 1, 2, 5] + ([-1, -2] if dt != "int64" else []):
        add(f"matrix_power__n={n}__3x3__{dt}", [a], [np.linalg.matrix_power(a.astype(dt), n)],
            tol(dt, 4, 100))
        add(f"matrix_power__n={n}__b3x3x3__{dt}", [b], [np.linalg.matrix_power(b.astype(dt), n)],
            tol(dt, 4, 100))

# einsum, tensordot, kron, trace, cross; NumPy 2's array-API linalg forms
ein = [("ij,jk->ik", [(2, 3), (3, 4)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
       ("ij->ji", [(2, 3)]), ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]), ("i,i", [(4,), (4,)]),
       ("i,j->ij", [(2,), (3,)]), ("ijk->", [(2, 2, 3)]), ("...ij,...jk->...ik", [(2, 2, 3), (3, 2)]),
       ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]), ("ijk,ikl->jl", [(2, 2, 3), (2, 3, 2)])]
for dt in FLOATS + ["int32"]:
    def r(shape):
        return rand(shape, dt) if dt != "int32" else rng.integers(-4, 5, shape).astype(dt)
    for spec, shapes in ein:
        ops = [r(s) for s in shapes]
        enc = spec.replace("...", "E").replace("->", "TO").replace(",", "C")
        add(f"einsum__s={enc}__{dt}", ops, [np.einsum(spec, *ops)], tol(dt, 20))
    for axes, sa, sb in [("2", (2, 2, 3), (2, 3, 2)), ("1", (2, 3), (3, 2)), ("0", (2, 2), (3,)),
                         ("1,0;0,1", (3, 2, 2), (2, 3, 2))]:
        a, b = r(sa), r(sb)
        ax = int(axes) if ";" not in axes else tuple(tuple(int(t) for t in p.split(",")) for p in axes.split(";"))
        add(f"tensordot__axes={axes}__{dt}", [a, b], [np.tensordot(a, b, ax)], tol(dt, 20))
    for sa, sb in [((2, 3), (3, 2)), ((3,), (2, 2)), ((2, 1, 2), (3, 2))]:
        a, b = r(sa), r(sb)
        add(f"kron__{len(sa)}d{len(sb)}d__{dt}", [a, b], [np.kron(a, b)], tol(dt, 4))
    x = r((3, 4, 5))
    for off, a1, a2 in [(0, 0, 1), (1, 1, 2), (-1, 2, 0), (2, -1, -2)]:
        add(f"trace__offset={off}__axis1={a1}__axis2={a2}__{dt}", [x],
            [np.trace(x, off, a1, a2)], tol(dt, 5))
        add(f"ltrace__offset={off}__{dt}", [x], [np.linalg.trace(x, offset=off)], tol(dt, 5))
        add(f"ldiagonal__offset={off}__{dt}", [x], [np.linalg.diagonal(x, offset=off)], 0.0)
    for sa, sb, axis in [((2, 3), (2, 3), -1), ((2, 2), (2, 3), -1), ((2, 2), (2,), -1),
                         ((3, 2), (3, 2), 0)]:
        a, b = r(sa), r(sb)
        add(f"cross__axis={axis}__{sa[0]}x{sa[1]}_{len(sb)}d__{dt}", [a, b],
            [np.cross(a, b, axis=axis)], tol(dt, 4))
    a, b = r((2, 3)), r((3,))
    add(f"lcross__axis=-1__{dt}", [a, b], [np.linalg.cross(a, b)], tol(dt, 4))
    a, b = r((5,)), r((3,))
    add(f"louter__{dt}", [a, b], [np.linalg.outer(a, b)], tol(dt, 2))
    a, b = r((2, 3, 4)), r((3, 4))
    add(f"vecdot__axis=-1__{dt}", [a, b], [np.linalg.vecdot(a, b)], tol(dt, 8))
    add(f"vecdot__axis=1__{dt}", [a, b[None]], [np.linalg.vecdot(a, b[None], axis=1)], tol(dt, 8))
    add(f"matrix_transpose__{dt}", [a], [np.linalg.matrix_transpose(a)], 0.0)

# roots (multisets, complex) and polyfit
for dt in ["float32", "float64", "complex64", "complex128", "int64"]:
    ctol = 1e-3 if dt in ("float32", "complex64") else 1e-9
    for tag, p in [("cubic", [1, -6, 11, -6]), ("lead0trail0", [0, 0, 2, -3, 1, 0, 0]),
                   ("complexroots", [1, 0, 1]), ("deg5", [3, -1, 4, 1, -5, 9]),
                   ("const", [0, 4]), ("zeros", [0, 0, 0]), ("linear", [2, 1]),
                   ("onlytrail", [5, 0, 0])]:
        pa = np.array(p, dtype=dt)
        if dt.startswith("complex") and tag == "deg5":
            pa = (pa + 1j * np.array([0.5, 0, -1, 2, 0, 1])).astype(dt)
        rts = np.roots(pa)
        cdt = np.complex64 if dt in ("float32", "complex64") else np.complex128
        add(f"roots__{tag}__{dt}", [pa], [rts.astype(cdt)], ctol)
for dt in ["float32", "float64", "complex128", "int64"]:
    x = np.linspace(-2, 3, 12).astype(dt) if dt != "int64" else np.arange(-5, 7).astype(dt)
    if dt == "complex128":
        x = (x + 0.3j * np.linspace(1, -1, 12)).astype(dt)
    y1 = (2 * x ** 3 - x + 0.5).astype(dt if dt != "int64" else "float64")
    y1 = y1 + rand(y1.shape, y1.dtype) * 0.1
    y2 = np.stack([y1, (x ** 2).astype(y1.dtype) + rand(y1.shape, y1.dtype) * 0.1], axis=1)
    w = rng.uniform(0.5, 2, 12)
    ft = 1e-3 if dt == "float32" else 1e-8
    for deg in [1, 3]:
        for tag, y in [("y1", y1), ("y2", y2)]:
            add(f"polyfit__deg={deg}__rcond=none__full=0__cov=0__w=0__{tag}__{dt}", [x, y],
                [np.polyfit(x, y, deg)], ft)
            c, res, rank, s, rc = np.polyfit(x, y, deg, full=True)
            add(f"polyfit__deg={deg}__rcond=none__full=1__cov=0__w=0__{tag}__{dt}", [x, y],
                [c, res, np.int64(rank), s, np.float64(rc)], ft)
            c, cov = np.polyfit(x, y, deg, w=w, cov=True)
            add(f"polyfit__deg={deg}__rcond=none__full=0__cov=1__w=1__{tag}__{dt}", [x, y, w],
                [c, cov], ft)
            c, cov = np.polyfit(x, y, deg, cov="unscaled")
            add(f"polyfit__deg={deg}__rcond=none__full=0__cov=unscaled__w=0__{tag}__{dt}", [x, y],
                [c, cov], ft)
    # An rcond that drops the smallest singular value.
    c, res, rank, s, rc = np.polyfit(x, y1, 5, rcond=1e-2, full=True)
    assert np.all(np.abs(s / s.max() - 1e-2) > 2e-3), s / s.max()
    add(f"polyfit__deg=5__rcond=1e-2__full=1__cov=0__w=0__y1__{dt}", [x, y1],
        [c, res, np.int64(rank), s, np.float64(rc)], ft * 10)

# Packing: one flat array per dtype (`data.<dtype>`) and a text index
# (`index`, UTF-8 bytes, one line per case: `NAME` then, space-separated,
# `inK:dtype:offset:shape` and `outK:...`, the shape comma-separated, `-`
# for 0-d). Identical data (the inputs shared by many cases, keepdims
# variants) is stored once. This keeps the file to tens
# of KB where one .npy member per array would cost more in headers than
# in data.
pools = {}
seen = {}
entries = {}
for key, a in cases.items():
    name, slot = key.rsplit(".", 1)
    dt = a.dtype.name
    ident = (dt, a.tobytes())
    if ident not in seen:
        pool = pools.setdefault(dt, [])
        seen[ident] = sum(x.size for x in pool)
        pool.append(a.ravel())
    shape = ",".join(str(d) for d in a.shape) if a.ndim else "-"
    entries.setdefault(name, []).append(f"{slot}:{dt}:{seen[ident]}:{shape}")
lines = [name + " " + " ".join(e) for name, e in entries.items()]
packed = {"index": np.frombuffer("\n".join(lines).encode(), np.uint8)}
for dt, pool in pools.items():
    packed[f"data.{dt}"] = np.concatenate(pool)

out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
out_dir.mkdir(parents=True, exist_ok=True)
np.savez_compressed(out_dir / "linalg_golden.npz", **packed)
print(len({k.rsplit(".", 1)[0] for k in cases}), "cases,",
      sum(v.nbytes for v in packed.values()), "bytes before compression")
