#!/usr/bin/env python3
"""Small calls of the "rows" path for compute-sanitizer: whole and ragged row counts, both
op(B), our kernel and cuBLAS's batched call, each checked against cupy.matmul."""
import os
import sys

sys.path.insert(0, os.getcwd())
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402

for dtype in ("float64", "float32"):
    for m, n, k, rows in ((32 * 40 + 17, 9, 36, 32), (18 * 30, 4, 16, 64),
                          (192 * 3 + 5, 27, 216, 64)):
        for form in ("T", "N"):
            for path in ("kernel", "vendor"):
                a = cupy.random.standard_normal((1, m, k)).astype(dtype)
                shape = (1, n, k) if form == "T" else (1, k, n)
                b = cupy.random.standard_normal(shape).astype(dtype)
                c = cupy.random.standard_normal((1, m, n)).astype(dtype)
                ref = 0.5 * cupy.matmul(a[0], b[0].T if form == "T" else b[0]) - c[0]
                out = blas.gemm(a, b, c, transb=form, alpha=0.5, beta=-1.0,
                                _params={"rows": rows, "rows_path": path})
                err = float(abs(out[0] - ref).max()) / float(abs(ref).max())
                assert err < 1e-4, (dtype, m, form, path, err)
                print(dtype, m, n, k, rows, form, path, "ok")
