"""cuRAND's XORWOW normal generation under each ordering (the legacy
RandomState's cost), through CuPy's curand bindings: milliseconds per
2^28 float32 normals, and whether two generators of one seed agree."""
import cupy as cp
from cupy.cuda import curand

N = 1 << 28
out = cp.empty(N, dtype=cp.float32)
for name in ["PSEUDO_DEFAULT", "PSEUDO_BEST", "PSEUDO_SEEDED", "PSEUDO_LEGACY", "PSEUDO_DYNAMIC"]:
    order = getattr(curand, "CURAND_ORDERING_" + name, None)
    for rng_name in ["CURAND_RNG_PSEUDO_XORWOW", "CURAND_RNG_PSEUDO_PHILOX4_32_10", "CURAND_RNG_PSEUDO_MRG32K3A"]:
        try:
            g = curand.createGenerator(getattr(curand, rng_name))
            curand.setPseudoRandomGeneratorSeed(g, 0)
            curand.setGeneratorOrdering(g, order)
            curand.generateNormal(g, out.data.ptr, N, 0.0, 1.0)
            cp.cuda.Device().synchronize()
            s, e = cp.cuda.Event(), cp.cuda.Event()
            s.record()
            for _ in range(5):
                curand.generateNormal(g, out.data.ptr, N, 0.0, 1.0)
            e.record()
            e.synchronize()
            print(f"{rng_name} {name}: {cp.cuda.get_elapsed_time(s, e) / 5:.3f} ms")
        except Exception as ex:  # an ordering a generator does not take
            print(f"{rng_name} {name}: {ex}")
