#!/usr/bin/env python3
"""reports/gpu_20261128k/device/p_gemv_table_ab.py (the public GEMV under this tree's H200
tables against OLD_JSON's) on the hydro shapes and the square 16 x 16 class.

    python3 p_gemv_ab_squares.py OLD_JSON [--batches 40960,262144] > gemv_table_ab.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_gemv_table_ab as base                        # noqa: E402

base.HYDRO = base.HYDRO[:3] + ((16, 16, 0), (12, 12, 0))
base.main()
