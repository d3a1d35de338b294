"""Scratch: host time (us a call, no sync in the loop) of the small-batch TRSV paths, then cProfile
of the public call (batch 1, n = 128, float64, trsv_block)."""
import cProfile, pstats, io, time, sys
sys.path.insert(0, ".")
import numpy, cupy, torch
import linalg
from linalg._cuda import trsv as TV, triangular as T

def host_us(fn, n=2000):
    for _ in range(100): fn()
    cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(n): fn()
    h = (time.perf_counter() - t) / n * 1e6
    cupy.cuda.Device().synchronize()
    return h

for n in (64, 128, 256):
    g = cupy.random.default_rng(n)
    a = cupy.tril(g.standard_normal((1, n, n)) / n); a[:, cupy.arange(n), cupy.arange(n)] = 2
    x = g.standard_normal((1, n)); out = cupy.empty_like(x)
    ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")[..., None]
    cases = {
        "public trsv (in place, info)": lambda: linalg.trsv(a, x, overwrite_x=True, return_info=True),
        "public trsv default": lambda: linalg.trsv(a, x),
        "backend trsv.trsv": lambda: TV.trsv(a, x),
        "launch_block": lambda: TV.launch_block(a, x, True, 0, False),
        "vendor path (_vendor_trsv)": lambda: TV._vendor_trsv(a, x, True, "N", False),
        "_diag_info": lambda: T._diag_info(a, False),
        "cupy.empty(1)": lambda: cupy.empty(1, dtype=numpy.int32),
        "torch.solve_triangular": lambda: torch.linalg.solve_triangular(ta, tb, upper=False),
    }
    print(f"n = {n}, batch 1, float64")
    for k, fn in cases.items():
        print(f"  {k:32s} {host_us(fn):7.1f} us")
n = 128
a = cupy.tril(cupy.random.default_rng(1).standard_normal((1, n, n)) / n) + 2 * cupy.eye(n)
x = cupy.ones((1, n))
pr = cProfile.Profile(); pr.enable()
for _ in range(3000): linalg.trsv(a, x, overwrite_x=True, return_info=True)
pr.disable(); s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(18); print(s.getvalue())
