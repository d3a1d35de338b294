#!/usr/bin/env python3
"""Square GEMV-N on small batches (n = 128-512, where blas.GEMV_N_FLAT_ROWS sends batch * n <
65 536 rows to the flat kernel): the public linalg.gemv as it is ("flat"), with the flat rule
off (GEMV_N_FLAT_ROWS = 0: the table's path, "table") and cupy.matmul of the batch with x as a
column ("matmul", the bench's vendor), alternated over three rounds in one process
(scripts/bench_cholesky.alternate; CUDA events around each call). With --rule: the public call
with the table's "flat_rows" ("new": cuBLAS from there) against the flat kernel to
GEMV_N_FLAT_ROWS ("old"), and cupy.matmul.

    python3 p_gemv_flat.py [--rule] > gemv_flat.md
"""
import sys
from pathlib import Path

import cupy
import numpy

sys.path.insert(0, str(Path.cwd()))
sys.path.insert(0, str(Path.cwd() / "scripts"))
import linalg  # noqa: E402
from linalg._cuda import blas  # noqa: E402
from bench_cholesky import alternate  # noqa: E402

FLAT = blas.GEMV_N_FLAT_ROWS


def case(dtype, n, batch):
    g = cupy.random.default_rng(n + batch)
    a = g.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
    x = g.standard_normal((batch, n), dtype=numpy.float64).astype(dtype)
    y = cupy.empty((batch, n), dtype)
    mode = {}

    def call():
        if mode["s"] == "matmul":
            return cupy.matmul(a, x[:, :, None])[:, :, 0]
        return linalg.gemv(a, x, y, overwrite_y=True)

    def apply(setting):
        mode["s"] = setting
        blas.GEMV_N_FLAT_ROWS = 0 if setting == "table" else FLAT
        blas.gemv_flat_rows = (lambda gpu, dt: FLAT) if setting == "old" else FLAT_ROWS
        blas._gemv_plan.cache_clear()

    names = ["old", "new", "matmul"] if RULE else ["flat", "table", "matmul"]
    times, _, diff = alternate(call, lambda: None, lambda r: r, names, apply, 3)
    apply(names[0])
    t = [min(times[s]) for s in names]
    print(f"| {dtype} | {n} | {batch} | {t[0]:.4f} | {t[1]:.4f} | {t[2]:.4f} "
          f"| {t[2] / t[0]:.2f} | {t[2] / t[1]:.2f} | {diff:.1e} |", flush=True)


RULE = "--rule" in sys.argv
FLAT_ROWS = blas.gemv_flat_rows


def main():
    a, b = ("old", "new") if RULE else ("flat", "table")
    print(f"| dtype | n | batch | {a} ms | {b} ms | matmul ms | matmul/{a} | matmul/{b} | diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    grid = {128: (1, 60, 64, 100, 300, 511), 256: (1, 30, 32, 60, 100, 255),
            512: (1, 8, 16, 30, 100, 127)}
    for dtype in ("float64", "float32"):
        for n in (128, 256, 512):
            for batch in (grid[n] if RULE else (1, 8, 30, 60, 100, 65535 // n)):
                case(dtype, n, batch)


if __name__ == "__main__":
    main()
