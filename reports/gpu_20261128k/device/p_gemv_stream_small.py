#!/usr/bin/env python3
"""Small gemv_stream calls for compute-sanitizer memcheck: batch counts that leave a partial
tile and bytes past the last 16-byte piece, both ops, rings of 2 and 4 buffers that wrap.

    compute-sanitizer --tool memcheck --error-exitcode 9 python3 p_gemv_stream_small.py
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402


def main():
    g = numpy.random.default_rng(7)
    for dtype in ("float64", "float32"):
        for m, n, batch in ((18, 4, 1001), (32, 9, 37), (7, 3, 5), (192, 27, 9), (1, 1, 3)):
            a = cupy.asarray(g.standard_normal((batch, m, n)), dtype)
            for trans in ("N", "T"):
                xl = n if trans == "N" else m
                x = cupy.asarray(g.standard_normal((batch, xl)), dtype)
                ref = cupy.einsum("kij,kj->ki" if trans == "N" else "kji,kj->ki", a, x)
                for p in ({"tile_bytes": 1, "stages": 2, "block": 64},
                          {"tile_bytes": 2000, "stages": 4, "group": 4}):
                    y = blas.gemv(a, x, trans=trans, _params={"kernel": "stream", **p},
                                  _path="kernel")
                    err = float(abs(y - ref).max()) / max(float(abs(ref).max()), 1e-30)
                    ok = err < (1e-12 if dtype == "float64" else 1e-5)
                    print(dtype, m, n, batch, trans, p, "ok" if ok else f"WRONG {err:.1e}")
    # the public call where the table picks gemv_stream (the H200's hydro classes)
    for dtype, m, n, trans in (("float64", 32, 9, "N"), ("float64", 18, 4, "T"),
                               ("float32", 32, 9, "T"), ("float64", 192, 27, "N")):
        a = cupy.asarray(g.standard_normal((301, m, n)), dtype)
        x = cupy.asarray(g.standard_normal((301, n if trans == "N" else m)), dtype)
        ref = cupy.einsum("kij,kj->ki" if trans == "N" else "kji,kj->ki", a, x)
        y = blas.gemv(a, x, trans=trans)
        err = float(abs(y - ref).max()) / float(abs(ref).max())
        ok = err < (1e-12 if dtype == "float64" else 1e-5)
        print("public", dtype, m, n, trans, "ok" if ok else f"WRONG {err:.1e}")
    cupy.cuda.Device().synchronize()


if __name__ == "__main__":
    main()
