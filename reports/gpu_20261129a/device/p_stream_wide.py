#!/usr/bin/env python3
"""reports/gpu_20261128k/device/p_stream.py (gemm_stream's parameters against the table's call,
hydro's tall corner-force products) on the product whose B has 9 columns, the one where a
thread's columns (nc = 9) are not whole 16-byte pieces: 40 960 and 262 144 zones, nc 3 / 9 / 16.
Run once with the kernels before (LINALG_KERNEL_DIR) and once with these.

    python3 p_stream_wide.py > stream_wide.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_stream as base                               # noqa: E402

base.SHAPES = ((32, 9, 36, 40960), (32, 9, 36, 262144))
base.NC[9] = (3, 9, 16)
base.main()
