#!/usr/bin/env python3
"""gemm_stream_mma (the tall one-B product on the float64 tensor cores, kernels/gemm.cu) against
what the table serves now for the hydro corner-force products F = A B^T with the zones folded
into one tall A: reports/gpu_20261128k/device/p_stream.py's timing (GPU time by CUDA graph
replay, each candidate checked against cupy.matmul first) over gemm_stream_mma's parameters.

    python3 p_mma.py [--quick] > mma.md
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_stream as base                               # noqa: E402
from linalg._cuda import blas                         # noqa: E402

base.SHAPES = ((192, 27, 216, 12945), (81, 8, 64, 40960))
ITEMS = ((48, 27, 2), (32, 27, 3), (16, 27, 6), (64, 9, 4), (128, 9, 2), (96, 9, 3), (64, 3, 6))


def candidates(n, quick):
    shapes = ((1, 2, 2), (1, 4, 2), (2, 2, 2)) if quick else blas.MMA_SHAPES
    items = ITEMS[:1] + ITEMS[3:4] if quick else ITEMS
    for (mt, nbw, ch), (rb, kc, st) in itertools.product(shapes, items):
        yield {"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": rb, "kc": kc, "stages": st}


base.candidates = candidates
base.main()
