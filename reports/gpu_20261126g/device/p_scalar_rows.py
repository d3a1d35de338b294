"""Scratch: TRSV / one-vector POTRS on operands that cannot take the row vector (odd n): the
class's scalar row (default path) against the vector row's launch with single loads, GPU time."""
import sys
sys.path.insert(0, "scripts"); sys.path.insert(0, ".")
import numpy, cupy
from bench_blas import timeit_gpu
from linalg import _tuning
from linalg._cuda import trsv, cholesky
for dt, n in ((numpy.float32, 127), (numpy.float32, 255), (numpy.float32, 256), (numpy.float32, 511),
              (numpy.float64, 511), (numpy.float64, 512)):
    a = cupy.tril(cupy.random.standard_normal((10240, n, n)).astype(dt) / n)
    idx = cupy.arange(n); a[:, idx, idx] = 2
    x = cupy.random.standard_normal((10240, n)).astype(dt)
    row = _tuning.lookup("trsv", numpy.dtype(dt).name, _tuning.shape_class(n))
    vec_row = {k: row[k] for k in ("kernel", "warps", "width", "maxreg") if k in row}
    t_default = min(timeit_gpu(lambda: trsv.trsv(a, x, _path="kernel"), 10, 2) for _ in range(2))
    t_vecrow = min(timeit_gpu(lambda: trsv.trsv(a, x, _params=dict(vec_row, vec=1)), 10, 2) for _ in range(2))
    print(f"trsv {numpy.dtype(dt).name} n={n}: default {t_default:.4f} ms, the vector row on single loads {t_vecrow:.4f} ms", flush=True)
    del a, x
for dt, n in ((numpy.float32, 97), (numpy.float32, 127), (numpy.float32, 255)):
    l = cupy.tril(cupy.random.standard_normal((10240, n, n)).astype(dt) / n)
    idx = cupy.arange(n); l[:, idx, idx] = 2
    b = cupy.random.standard_normal((10240, n, 1)).astype(dt)
    out = cupy.empty((10240, n), dtype=dt)
    t_default = min(timeit_gpu(lambda: cholesky.potrs(l, b), 10, 2) for _ in range(2))
    w = cholesky.potrs_width(n, 4)
    t_old = min(timeit_gpu(lambda: trsv.launch_warp(l, b[:, :, 0], True, 0, False, True, width=w, maxreg=96, vec=1, out=out), 10, 2) for _ in range(2))
    print(f"potrs1 float32 n={n}: default {t_default:.4f} ms, {w} lanes capped at 96 on single loads {t_old:.4f} ms", flush=True)
