#!/usr/bin/env python3
"""reports/gpu_20261128k/device/p_table_ab.py (public linalg.gemm under this tree's H200 GEMM
table against OLD_JSON's) on the one product whose entry changed: 32x36 (9x36), hydro's 2-D Q2.

    python3 p_table_ab_9.py OLD_JSON [--dtypes float32] > table_ab.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_table_ab as base                             # noqa: E402

base.HYDRO = ((32, 9, 36),)
base.main()
