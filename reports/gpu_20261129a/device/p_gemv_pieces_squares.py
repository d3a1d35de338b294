#!/usr/bin/env python3
"""device/p_gemv_pieces.py (the table's GEMV call against gemv_stream / gemv_staged parameters,
GPU time) on the square classes 4, 8 and 32, N.

    [BATCHES=...] python3 p_gemv_pieces_squares.py > pieces_squares.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261129a/device"))
import p_gemv_pieces as base                          # noqa: E402

base.SHAPES = ((4, 4), (8, 8), (32, 32))
base.OPS = ("N",)
base.main()
