"""Golden outputs of NumPy's array creation routines for
crates/gpu-array/tests/gpu/creation.rs.

Run from this folder with NumPy 2.x (written with 2.4.6):

    python3 make.py

It writes creation.npz: `in_*` members are inputs the tests upload, every
other member is NumPy's output for the call the test names next to it.
"""

import warnings

import numpy as np

warnings.simplefilter("ignore", np.exceptions.ComplexWarning)

out = {}


def put(name, value):
    assert name not in out, name
    out[name] = np.asarray(value)


# --- full / ones / zeros ---------------------------------------------------
put("full_int", np.full((2, 3), 7))
put("full_float", np.full((2, 2), 2.5))
put("full_bool", np.full((3,), True))
put("full_complex", np.full((2,), 1 + 2j))
put("full_i1_neg", np.full((2, 2), -5, dtype=np.int8))
put("full_f2_third", np.full((3,), 1 / 3, dtype=np.float16))
put("full_u1_trunc", np.full((2,), 1.7, dtype=np.uint8))
put("full_c_to_f8", np.full((2,), 1 + 2j, dtype=np.float64))
put("full_0d", np.full((), 3.5, dtype=np.float32))
put("ones_c8", np.ones((2, 3), dtype=np.complex64))
put("ones_f2", np.ones((4,), dtype=np.float16))
put("ones_b1", np.ones((2, 2), dtype=bool))
put("ones_0x3", np.ones((0, 3), dtype=np.int32))

# --- eye / identity ----------------------------------------------------------
put("eye_3", np.eye(3))
put("eye_3_4_k1_f4", np.eye(3, 4, 1, dtype=np.float32))
put("eye_4_3_km1_i4", np.eye(4, 3, -1, dtype=np.int32))
put("eye_3_k5", np.eye(3, k=5))
put("eye_2_b1", np.eye(2, dtype=bool))
put("eye_3_4_km2_c8", np.eye(3, 4, -2, dtype=np.complex64))
put("eye_0", np.eye(0))
put("eye_3_0", np.eye(3, 0))
put("identity_4_i1", np.identity(4, dtype=np.int8))
put("identity_3_f2", np.identity(3, dtype=np.float16))

# --- arange --------------------------------------------------------------------
put("arange_10", np.arange(0, 10, 1))
put("arange_0_1_01", np.arange(0, 1, 0.1))
put("arange_01_13_02", np.arange(0.1, 1.3, 0.2))
put("arange_0_5_15_i8", np.arange(0, 5, 1.5, dtype=np.int64))
put("arange_0_1_01_f4", np.arange(0, 1, 0.1, dtype=np.float32))
put("arange_0_1_01_f2", np.arange(0, 1, 0.1, dtype=np.float16))
put("arange_10_0_m3", np.arange(10, 0, -3))
put("arange_m55_5_07", np.arange(-5.5, 5, 0.7))
put("arange_5_0", np.arange(5, 0, 1))
put("arange_0_2_b1", np.arange(0, 2, 1, dtype=bool))
put("arange_250_260_u1", np.arange(250, 260, 1, dtype=np.uint8))
put("arange_0_5_c16", np.arange(0, 5, 1, dtype=np.complex128))
put("arange_1j_4_10j", np.arange(1j, 4 + 10j, 1))
put("arange_0_5_c8_step", np.arange(0.25, 3, 0.5, dtype=np.complex64))
put("arange_03_1000_037", np.arange(0.3, 1000.5, 0.37))
put("arange_m3_3_025_f2", np.arange(-3, 3, 0.25, dtype=np.float16))
put("arange_m100_100_7_i1", np.arange(-100, 100, 7, dtype=np.int8))
put("arange_0_20_3_u8", np.arange(0, 20, 3, dtype=np.uint64))
put("arange_05_5_1_i8", np.arange(0.5, 5, 1, dtype=np.int64))
put("arange_1_2_01_f4", np.arange(1, 2, 0.1, dtype=np.float32))
put("arange_tiny", np.arange(1e-300, 2e-300, 1e300))

# --- linspace / logspace ---------------------------------------------------------
put("linspace_0_1_5", np.linspace(0, 1, 5))
put("linspace_0_1_5_noend", np.linspace(0, 1, 5, endpoint=False))
y, step = np.linspace(2, 3, 7, retstep=True)
put("linspace_2_3_7", y)
put("linspace_2_3_7_step", step)
put("linspace_m1_1_5_i1", np.linspace(-1, 1, 5, dtype=np.int8))
put("linspace_0_10_5_i8", np.linspace(0, 10, 5, dtype=np.int64))
put("linspace_0_1_1", np.linspace(0, 1, 1))
put("linspace_0_1_0", np.linspace(0, 1, 0))
put("linspace_0_1_11_f4", np.linspace(0, 1, 11, dtype=np.float32))
put("linspace_denormal", np.linspace(0, 5e-324, 3))
put("linspace_c16", np.linspace(1 + 1j, 2 - 3j, 5))
put("linspace_c8_noend", np.linspace(0, 1 + 2j, 4, endpoint=False, dtype=np.complex64))
put("linspace_b1", np.linspace(0, 1, 5, dtype=bool))
put("linspace_5_5_3", np.linspace(5, 5, 3))
put("linspace_f2_noend", np.linspace(-2.5, 7.25, 13, endpoint=False, dtype=np.float16))
put("linspace_0p1_0p7_97", np.linspace(0.1, 0.7, 97))
put("logspace_0_3_4", np.logspace(0, 3, 4))
put("logspace_0_2_3_b2", np.logspace(0, 2, 3, base=2))
put("logspace_0_3_4_i8", np.logspace(0, 3, 4, dtype=np.int64))
put("logspace_f4", np.logspace(-1, 1, 7, endpoint=False, base=3.0, dtype=np.float32))
put("logspace_0_1_0", np.logspace(0, 1, 0))

# --- meshgrid -----------------------------------------------------------------------
mx = np.array([0.5, 1.5, 2.5], dtype=np.float32)
my = np.array([[10, 20], [30, 40]], dtype=np.int16)  # flattened by meshgrid
mz = np.array([-1.0, 1.0])
put("in_mesh_x", mx)
put("in_mesh_y", my)
put("in_mesh_z", mz)
for idx in ("xy", "ij"):
    for sparse in (False, True):
        tag = f"{idx}_{'sparse' if sparse else 'dense'}"
        for k, a in enumerate(np.meshgrid(mx, my, indexing=idx, sparse=sparse)):
            put(f"mesh2_{tag}_{k}", a)
        for k, a in enumerate(np.meshgrid(mx, my, mz, indexing=idx, sparse=sparse)):
            put(f"mesh3_{tag}_{k}", a)
put("mesh1_0", np.meshgrid(mx)[0])

# --- mgrid / ogrid / indices --------------------------------------------------------
put("mgrid_i", np.mgrid[0:5, 0:3])
put("mgrid_num", np.mgrid[0:1:3j, 0:2:5j])
put("mgrid_f", np.mgrid[0.1:1:0.2, 0:2])
put("mgrid_single_step", np.mgrid[0:1:0.3])
put("mgrid_single_num", np.mgrid[0:1:5j])
put("mgrid_mixed", np.mgrid[-1:1:4j, 0:3:2])
put("mgrid_num1", np.mgrid[2:7:1j, 0:2])
put("mgrid_empty", np.mgrid[0:3, 0:0])
for k, a in enumerate(np.ogrid[0:5, 0:3]):
    put(f"ogrid_i_{k}", a)
for k, a in enumerate(np.ogrid[0:1:3j, 0:3]):
    put(f"ogrid_num_{k}", a)
for k, a in enumerate(np.ogrid[5:0, 0:3]):
    put(f"ogrid_back_{k}", a)
put("indices_2_3", np.indices((2, 3)))
put("indices_2_3_f4", np.indices((2, 3), dtype=np.float32))
put("indices_3_1_2_i1", np.indices((3, 1, 2), dtype=np.int8))
put("indices_0_3", np.indices((0, 3)))
put("indices_empty", np.indices(()))
put("indices_2_2_b1", np.indices((2, 2), dtype=bool))
for k, a in enumerate(np.indices((2, 3, 4), sparse=True)):
    put(f"indices_sparse_{k}", a)

# --- diag / diagflat / tri / tril / triu ----------------------------------------
rng = np.random.default_rng(7)
v_f8 = np.array([1.5, -0.0, np.nan, 4.25])
v_i4 = np.array([3, -1, 7], dtype=np.int32)
v_c8 = np.array([1 + 2j, -3j], dtype=np.complex64)
m_f4 = (rng.standard_normal((4, 5)) * 10).astype(np.float32)
m_f4[1, 1] = np.nan
m_f4[2, 0] = -0.0
b_i8 = rng.integers(-50, 50, size=(2, 3, 4, 3)).astype(np.int64)
m_c16 = (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3)))
m_b1 = rng.integers(0, 2, size=(3, 4)).astype(bool)
m_f2 = rng.standard_normal((5, 2)).astype(np.float16)
put("in_v_f8", v_f8)
put("in_v_i4", v_i4)
put("in_v_c8", v_c8)
put("in_m_f4", m_f4)
put("in_b_i8", b_i8)
put("in_m_c16", m_c16)
put("in_m_b1", m_b1)
put("in_m_f2", m_f2)
for k in (0, 1, -2):
    put(f"diag_v_f8_{k}", np.diag(v_f8, k))
    put(f"diag_v_i4_{k}", np.diag(v_i4, k))
put("diag_v_c8_1", np.diag(v_c8, 1))
put("diag_empty_2", np.diag(np.zeros(0, dtype=np.float32), 2))
for k in (0, 1, -1, -3, 4, 5, -4):
    put(f"diag_m_f4_{k}", np.diag(m_f4, k))
    put(f"diag_m_f4T_{k}", np.diag(m_f4.T, k))
put("diag_m_c16_m1", np.diag(m_c16, -1))
put("diagflat_m_f4_0", np.diagflat(m_f4[:2, :3]))
put("diagflat_m_f4T_m1", np.diagflat(m_f4[:2, :3].T, -1))
put("diagflat_v_i4_2", np.diagflat(v_i4, 2))
put("tri_3", np.tri(3))
put("tri_3_5_2_i4", np.tri(3, 5, 2, dtype=np.int32))
put("tri_4_2_m1_b1", np.tri(4, 2, -1, dtype=bool))
put("tri_0", np.tri(0))
put("tri_2_3_m5_c8", np.tri(2, 3, -5, dtype=np.complex64))
for k in (0, 1, -1, 3, -5):
    put(f"tril_m_f4_{k}", np.tril(m_f4, k))
    put(f"triu_m_f4_{k}", np.triu(m_f4, k))
    put(f"tril_m_f4T_{k}", np.tril(m_f4.T, k))
    put(f"triu_b_i8_{k}", np.triu(b_i8, k))
    put(f"tril_b_i8_{k}", np.tril(b_i8, k))
put("tril_b_i8_strided_1", np.tril(b_i8[:, ::-1, ::2, :], 1))
put("tril_m_c16_0", np.tril(m_c16))
put("triu_m_b1_1", np.triu(m_b1, 1))
put("tril_m_f2_m1", np.tril(m_f2, -1))
put("tril_v_i4_0", np.tril(v_i4))
put("triu_v_i4_1", np.triu(v_i4, 1))

import os, sys
out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
np.savez_compressed(os.path.join(out_dir, "creation.npz"), **out)
print(f"{len(out)} arrays")
