"""Scratch: host time of the public TRSV / POTRS calls at batch 1 on trsv_block, piece by piece,
and cProfile of the public TRSV call (n = 128, float64)."""
import cProfile, pstats, io, time, sys
sys.path.insert(0, ".")
import numpy, cupy, torch
import linalg
from linalg import _batch
from linalg._cuda import trsv as TV, cholesky as C

def host_us(fn, n=3000):
    for _ in range(200): fn()
    cupy.cuda.Device().synchronize()
    t = time.perf_counter()
    for _ in range(n): fn()
    h = (time.perf_counter() - t) / n * 1e6
    cupy.cuda.Device().synchronize()
    return h

n = 128
g = cupy.random.default_rng(n)
a = cupy.tril(g.standard_normal((1, n, n)) / n); a[:, cupy.arange(n), cupy.arange(n)] = 2
x = g.standard_normal((1, n)); b = x[:, :, None]
ta, tb = torch.as_tensor(a, device="cuda"), torch.as_tensor(x, device="cuda")[..., None]
cases = {
    "public trsv (in place, info)": lambda: linalg.trsv(a, x, overwrite_x=True, return_info=True),
    "backend trsv.trsv": lambda: TV.trsv(a, x),
    "launch_block": lambda: TV.launch_block(a, x, True, 0, False),
    "public potrs (in place, info)": lambda: linalg.potrs(a, b, overwrite_b=True, return_info=True),
    "backend cholesky.potrs": lambda: C.potrs(a, b, True),
    "torch.solve_triangular": lambda: torch.linalg.solve_triangular(ta, tb, upper=False),
    "torch.cholesky_solve": lambda: torch.cholesky_solve(tb, ta),
    "noop": lambda: None,
}
for k, fn in cases.items():
    print(f"  {k:32s} {host_us(fn):7.1f} us")
for label, fn in (("trsv", cases["public trsv (in place, info)"]),
                  ("potrs", cases["public potrs (in place, info)"])):
    pr = cProfile.Profile(); pr.enable()
    for _ in range(3000): fn()
    pr.disable(); s = io.StringIO(); pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
    print(label); print(s.getvalue())
