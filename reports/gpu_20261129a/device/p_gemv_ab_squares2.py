#!/usr/bin/env python3
"""reports/gpu_20261128k/device/p_gemv_table_ab.py (the public GEMV under this tree's H200
tables against OLD_JSON's) on the square classes 4, 8 and 32 that call 7 moved to gemv_stream,
with sizes of those classes whose rows are not whole 16-byte pieces (5, 7, 27).

    python3 p_gemv_ab_squares2.py OLD_JSON [--batches 10240,40960,262144] > ab.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_gemv_table_ab as base                        # noqa: E402

base.HYDRO = ((4, 4, 0), (8, 8, 0), (5, 5, 0), (7, 7, 0), (32, 32, 0), (27, 27, 0))
base.main()
