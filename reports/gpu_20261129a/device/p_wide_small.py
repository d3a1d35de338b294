#!/usr/bin/env python3
"""Small gemm_stream calls with "wide" (B^T's rows read with their padding) for
compute-sanitizer memcheck: one column group of 1, 3, 5 or 9 columns, partial chunks, both
op(B), both dtypes, and the public call where the H200 table picks it (float32 9 columns).

    compute-sanitizer --tool memcheck --error-exitcode 9 python3 p_wide_small.py
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402


def check(label, c, ref, dtype):
    err = float(abs(c - ref).max()) / max(float(abs(ref).max()), 1e-30)
    ok = err < (1e-12 if dtype == "float64" else 1e-5)
    print(label, "ok" if ok else f"WRONG {err:.1e}")


def main():
    g = numpy.random.default_rng(11)
    for dtype in ("float64", "float32"):
        for rows, n, k, nc in ((1, 1, 4, 3), (37, 3, 12, 3), (70, 5, 16, 9), (333, 9, 36, 9)):
            a = cupy.asarray(g.standard_normal((1, rows, k)), dtype)
            for tb in ("N", "T"):
                b = cupy.asarray(g.standard_normal((1, n, k) if tb == "T" else (1, k, n)), dtype)
                ref = cupy.matmul(a[0], b[0].T if tb == "T" else b[0])
                for p in ({"rp": 32, "stages": 2}, {"rp": 64, "stages": 3, "pad": False}):
                    c = blas.gemm(a, b, transb=tb, _path="kernel",
                                  _params={"cfg": "stream", "nc": nc, "wide": True, **p})
                    check(f"{dtype} {rows} {n} {k} {tb} {nc} {p}", c[0], ref, dtype)
    a = cupy.asarray(g.standard_normal((1, 32 * 150 + 3, 36)), "float32")
    for tb in ("N", "T"):
        b = cupy.asarray(g.standard_normal((1, 9, 36) if tb == "T" else (1, 36, 9)), "float32")
        ref = cupy.matmul(a[0], b[0].T if tb == "T" else b[0])
        check(f"public float32 9 columns {tb}", blas.gemm(a, b, transb=tb)[0], ref, "float32")
    cupy.cuda.Device().synchronize()


if __name__ == "__main__":
    main()
