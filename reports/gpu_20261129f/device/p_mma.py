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

base.SHAPES = ((192, 27, 216, 12945), (81, 8, 64, 40960), (18, 4, 16, 40960))


def candidates(n, quick):
    if quick:
        grid = itertools.product(((2, 4), (1, 4)), (64, 128), (9, 27), (2, 3))
    else:
        grid = itertools.product(((1, 2), (1, 4), (2, 2), (2, 4)), (64, 128, 256), (3, 9, 27),
                                 (2, 3, 4))
    for (mt, nbw), rb, kc, st in grid:
        yield {"cfg": "mma", "mt": mt, "nbw": nbw, "rb": rb, "kc": kc, "stages": st}


base.candidates = candidates
base.main()
