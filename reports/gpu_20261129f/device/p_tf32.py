#!/usr/bin/env python3
"""float32 192x216 (27x216)^T on gemm_stream_mma as three TF32 products ("tf32") against the
float64 DMMA form and the table's call: p_mma.py's timing, then the accuracy of each path
against a float64 product of the same float32 operands (max |error| / max |C|, and the
normwise ||error||_F / (||A||_F ||B||_F) per zone's worst), cuBLAS's SGEMM (cupy.matmul) beside.

    python3 p_tf32.py > tf32.md
"""
import itertools
import os
import sys

import cupy

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_stream as base                               # noqa: E402
from linalg._cuda import blas                         # noqa: E402

base.SHAPES = ((192, 27, 216, 12945),)
ITEMS = ((48, 27, 2), (64, 27, 2), (96, 27, 2), (32, 27, 3))


def candidates(n, quick):
    shapes = ((1, 2, 2), (1, 4, 2), (2, 2, 2)) if quick else blas.MMA_SHAPES
    for (mt, nbw, ch), (rb, kc, st), tf32 in itertools.product(shapes, ITEMS, (True, False)):
        if tf32 or (rb, mt, nbw, ch) == (64, 1, 2, 2):
            yield {"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": rb, "kc": kc,
                   "stages": st, "tf32": tf32}


def accuracy():
    m, n, q, zones = 192, 27, 216, 2000
    g = cupy.random.default_rng(7)
    a = g.standard_normal((1, zones * m, q), dtype="float64").astype("float32")
    b = g.standard_normal((1, n, q), dtype="float64").astype("float32")
    ref = a[0].astype("float64") @ b[0].T.astype("float64")
    c = cupy.empty((1, zones * m, n), "float32")
    az = a[0].reshape(zones, m, q).astype("float64")
    scale = cupy.sqrt((az ** 2).sum(axis=(1, 2))) * float(cupy.linalg.norm(b[0]))
    print("\n## accuracy, float32 192x216 (27x216)^T, 2000 zones, against float64\n")
    print("| path | max abs err / max abs C | worst zone ||err||_F / (||A_z|| ||B||) |")
    print("|---|---|---|")
    paths = {"cuBLAS SGEMM (cupy.matmul)": lambda: cupy.matmul(a[0], b[0].T)[None],
             "DMMA (float64 sums)": lambda: blas.gemm(a, b, c, transb="T", _path="kernel",
                                                      _params={"cfg": "mma", "rb": 64}),
             "3xTF32 (float sums)": lambda: blas.gemm(a, b, c, transb="T", _path="kernel",
                                                      _params={"cfg": "mma", "rb": 64,
                                                               "tf32": True})}
    for name, run in paths.items():
        out = run()[0].astype("float64")
        err = out - ref
        zone = cupy.sqrt((err.reshape(zones, m, n) ** 2).sum(axis=(1, 2))) / scale
        print(f"| {name} | {float(abs(err).max() / abs(ref).max()):.2e} | "
              f"{float(zone.max()):.2e} |")


base.candidates = candidates
base.main()
accuracy()
