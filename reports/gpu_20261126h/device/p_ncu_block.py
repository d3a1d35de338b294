"""Scratch: one trsv_block launch each (batch 1, n = 256: float64 lower N, float64 upper T,
float32 lower N) for Nsight Compute; compiled and warmed first."""
import sys
sys.path.insert(0, ".")
import numpy, cupy
from linalg._cuda import trsv
for dt, lower, tr in ((numpy.float64, True, 0), (numpy.float64, False, 1), (numpy.float32, True, 0)):
    n = 256
    g = cupy.random.default_rng(n)
    a = cupy.tril(g.standard_normal((1, n, n), dtype=dt) / n)
    a[:, cupy.arange(n), cupy.arange(n)] = 2
    a = a + cupy.triu(a.transpose(0, 2, 1), 1)
    x = g.standard_normal((1, n), dtype=dt)
    out = cupy.empty_like(x)
    for _ in range(3):
        trsv.launch_block(a, x, lower, tr, False, out=out)
    cupy.cuda.Device().synchronize()
print("done")
