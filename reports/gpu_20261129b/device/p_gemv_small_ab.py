#!/usr/bin/env python3
"""reports/gpu_20261128k/device/p_gemv_table_ab.py (the public GEMV under this tree's H200
tables against OLD_JSON's) at small batches, on shapes of the classes whose H200 entries moved
to gemv_stream on 2026-11-29 (reports/gpu_20261129a): where the persistent grid has a tile or
two a block. Decides those entries' "below_batch" bounds.

    python3 p_gemv_small_ab.py OLD_JSON [--batches 2560,10240,20480] > ab.md
"""
import os
import sys

sys.path.insert(0, os.path.join(os.getcwd(), "reports/gpu_20261128k/device"))
import p_gemv_table_ab as base                        # noqa: E402

base.HYDRO = ((3, 3, 0), (4, 4, 0), (6, 6, 0), (8, 8, 0), (12, 12, 0), (16, 16, 0),
              (20, 20, 0), (32, 32, 0), (18, 4, 0), (81, 8, 0))
base.main()
