#!/usr/bin/env python3
"""Small gemm_stream calls for compute-sanitizer memcheck: ragged rows (a partial last chunk),
partial column groups, both op(B), both row layouts, rings of 2 and 5 buffers that wrap.

    compute-sanitizer --tool memcheck --error-exitcode 9 python3 p_stream_small.py
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402


def main():
    g = numpy.random.default_rng(5)
    for dtype in ("float64", "float32"):
        for rows, n, k in ((1, 1, 4), (37, 9, 36), (1000, 4, 16), (333, 27, 216), (70, 5, 12)):
            a = cupy.asarray(g.standard_normal((1, rows, k)), dtype)
            for tb in ("N", "T"):
                b = cupy.asarray(g.standard_normal((1, n, k) if tb == "T" else (1, k, n)), dtype)
                ref = cupy.matmul(a[0], b[0].T if tb == "T" else b[0])
                for p in ({"nc": 3, "rp": 32, "stages": 2}, {"nc": 8, "rp": 64, "stages": 5,
                                                              "pad": False},
                          {"nc": 9, "rm": 2, "rp": 64, "stages": 2}):
                    c = blas.gemm(a, b, transb=tb, _params={"cfg": "stream", **p},
                                  _path="kernel")
                    err = float(abs(c[0] - ref).max()) / max(float(abs(ref).max()), 1e-30)
                    ok = err < (1e-12 if dtype == "float64" else 1e-5)
                    print(dtype, rows, n, k, tb, p, "ok" if ok else f"WRONG {err:.1e}")
    # the public call where the table picks gemm_stream (tall classes, past 4096 rows)
    for dtype, rows, n, k in (("float64", 32 * 160 + 5, 9, 36), ("float32", 18 * 300 + 1, 4, 16),
                              ("float32", 81 * 60, 8, 64)):
        a = cupy.asarray(g.standard_normal((1, rows, k)), dtype)
        for tb in ("N", "T"):
            b = cupy.asarray(g.standard_normal((1, n, k) if tb == "T" else (1, k, n)), dtype)
            ref = cupy.matmul(a[0], b[0].T if tb == "T" else b[0])
            c = blas.gemm(a, b, transb=tb)
            err = float(abs(c[0] - ref).max()) / float(abs(ref).max())
            ok = err < (1e-12 if dtype == "float64" else 1e-5)
            print("public", dtype, rows, n, k, tb, "ok" if ok else f"WRONG {err:.1e}")
    cupy.cuda.Device().synchronize()


if __name__ == "__main__":
    main()
