"""Scratch (session 2026-11-26j): one-matrix TRMM, public linalg.trmm against cuBLAS trmm
(linalg/_cuda/vendor.trmm, a new array out) and cupy.matmul (the benchmark's dense vendor), ms by
scripts/bench_cholesky.timeit; correctness of vendor.trmm in every variant against a dense
product of the triangle."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
import linalg  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import vendor, triangular as gtri  # noqa: E402

gen = cupy.random.default_rng(0)
bad = 0
for dtype in (numpy.float64, numpy.float32):
    for n, nrhs in ((5, 3), (64, 17), (100, 100)):
        a = gen.standard_normal((1, n, n)).astype(dtype)
        for right in (False, True):
            b = gen.standard_normal((1, nrhs, n) if right else (1, n, nrhs)).astype(dtype)
            for lower in (True, False):
                for trans in (False, True):
                    for unit in (False, True):
                        t = cupy.tril(a) if lower else cupy.triu(a)
                        if unit:
                            t[:, numpy.arange(n), numpy.arange(n)] = 1
                        op = t.swapaxes(1, 2) if trans else t
                        ref = 0.5 * (b @ op if right else op @ b)
                        out = cupy.empty_like(b)
                        vendor.trmm(a, b, out, right, lower, trans, unit, 0.5)
                        err = float(cupy.abs(out - ref).max() / cupy.abs(ref).max())
                        if err > 100 * numpy.finfo(dtype).eps * n:
                            bad += 1
                            print("BAD", dtype.__name__, n, right, lower, trans, unit, err)
print("vendor.trmm variants checked, bad =", bad)
print("| dtype | n | batch | public | backend | cublas trmm | cupy.matmul | public/matmul | cublas/matmul |")
print("|---|---|---|---|---|---|---|---|---|")
for dtype in (numpy.float64, numpy.float32):
    for n in (8, 32, 64, 128, 256, 512):
        for batch in (1,):
            l = cupy.tril(gen.standard_normal((batch, n, n))).astype(dtype)
            b = gen.standard_normal((batch, n, n)).astype(dtype)
            bw = b.copy()
            out = cupy.empty_like(b)
            pub = timeit(lambda: linalg.trmm(l, bw, overwrite_b=True), reps=30)
            back = timeit(lambda: gtri.trmm(l, bw, "left", True, "N", False, 1.0), reps=30)
            cub = timeit(lambda: vendor.trmm(l, b, out, False, True, False, False, 1.0), reps=30)
            mm = timeit(lambda: cupy.matmul(l, b), reps=30)
            print(f"| {numpy.dtype(dtype).name} | {n} | {batch} | {pub:.4f} | {back:.4f} | {cub:.4f} | {mm:.4f} | {mm / pub:.2f} | {mm / cub:.2f} |", flush=True)
