"""Scratch (session 2026-11-26j): public linalg.trmm at small batches before / after the
small-batch tile rule (triangular.TILE_ANY_FILL_BELOW = 0 / its value), in one run, against
cupy.matmul (the benchmark's dense vendor), at the n the fill rules keep off tri_tile."""
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import cupy  # noqa: E402
import linalg  # noqa: E402
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402

bound = gtri.TILE_ANY_FILL_BELOW
gen = cupy.random.default_rng(0)
print("| dtype | n | batch | before ms | after ms | cupy.matmul ms | after/before | matmul/after |")
print("|---|---|---|---|---|---|---|---|")
for dtype in (numpy.float64, numpy.float32):
    for n in (72, 80, 96, 112, 160, 200):
        for batch in (1, 8, 100):
            l = cupy.tril(gen.standard_normal((batch, n, n))).astype(dtype)
            b = gen.standard_normal((batch, n, n)).astype(dtype)
            bw = b.copy()
            times = []
            for value in (0, bound):
                gtri.TILE_ANY_FILL_BELOW = value
                times.append(timeit(lambda: linalg.trmm(l, bw, overwrite_b=True), reps=30))
            gtri.TILE_ANY_FILL_BELOW = bound
            v = timeit(lambda: cupy.matmul(l, b), reps=30)
            print(f"| {numpy.dtype(dtype).name} | {n} | {batch} | {times[0]:.4f} | {times[1]:.4f} | "
                  f"{v:.4f} | {times[0] / times[1]:.2f} | {v / times[1]:.2f} |", flush=True)
