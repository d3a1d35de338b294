#!/usr/bin/env python3
"""p_mma.py's timing with items of 64-96 whole rows, which fit beside B's fragments in float32
only (half the bytes a row): 8 warps a block where float64's 48-row items hold 6.

    python3 p_mma32.py > mma32.md
"""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_stream as base                               # noqa: E402

base.SHAPES = ((192, 27, 216, 12945),)
ITEMS = ((48, 27, 2), (64, 27, 2), (64, 27, 3), (96, 27, 2))


def candidates(n, quick):
    shapes = ((1, 2, 2), (2, 2, 2)) if quick else ((1, 2, 2), (1, 2, 1), (1, 4, 2), (2, 2, 2),
                                                   (2, 4, 1))
    for (mt, nbw, ch), (rb, kc, st) in itertools.product(shapes, ITEMS):
        yield {"cfg": "mma", "mt": mt, "nbw": nbw, "ch": ch, "rb": rb, "kc": kc, "stages": st}


base.candidates = candidates
base.main()
