#!/usr/bin/env python3
"""Square GEMV-N on small batches (n = 128-512, where blas.GEMV_N_FLAT_ROWS sends batch * n <
65 536 rows to the flat kernel): the public linalg.gemv as it is ("flat"), with the flat rule
off (GEMV_N_FLAT_ROWS = 0: the table's path, "table") and cupy.matmul of the batch with x as a
column ("matmul", the bench's vendor), alternated over three rounds in one process
(scripts/bench_cholesky.alternate; CUDA events around each call).

    python3 p_gemv_flat.py > gemv_flat.md
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
        blas._gemv_plan.cache_clear()

    times, _, diff = alternate(call, lambda: None, lambda r: r, ["flat", "table", "matmul"],
                               apply, 3)
    apply("flat")
    t = {s: min(v) for s, v in times.items()}
    print(f"| {dtype} | {n} | {batch} | {t['flat']:.4f} | {t['table']:.4f} | {t['matmul']:.4f} "
          f"| {t['matmul'] / t['flat']:.2f} | {t['matmul'] / t['table']:.2f} | {diff:.1e} |",
          flush=True)


def main():
    print("| dtype | n | batch | flat ms | table ms | matmul ms | matmul/flat | matmul/table "
          "| diff |")
    print("|---|---|---|---|---|---|---|---|---|")
    for dtype in ("float64", "float32"):
        for n in (128, 256, 512):
            for batch in (1, 8, 30, 60, 100, 65535 // n):
                case(dtype, n, batch)


if __name__ == "__main__":
    main()
