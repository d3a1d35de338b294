#!/usr/bin/env python3
"""A/B of the tuning tables' "rows" rules (linalg/_cuda/blas.py _gemm_by_rows) on the public
call: linalg.gemm of one tall A (zones x m rows) with one B, the tables as committed against the
same tables with every gemm entry's "rows" removed (in this process; the plan caches cleared),
alternating, two turns each; each result checked against cupy.matmul.

    python3 p_rows_ab.py [--dtypes float64,float32] > rows_ab.md
"""
import argparse
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
import linalg                                          # noqa: E402
from linalg import _tuning                             # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import HYDRO, timeit, fit_batch, copy_bandwidth   # noqa: E402

SAVED = {}


def rules(on):
    """Put back (on) or take out (off) every gemm entry's "rows" of the merged tables."""
    for gpu, table in _tuning.tables().items():
        for dtype, classes in table.get("gemm", {}).items():
            for cls, entry in classes.items():
                key = (gpu, dtype, cls)
                if on and key in SAVED:
                    entry["rows"] = SAVED[key]
                elif not on and "rows" in entry:
                    SAVED[key] = entry.pop("rows")
    blas._table_rows_rule.cache_clear()
    blas._gemm_plan.cache_clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--zones", default="40960,262144,40961")
    args = ap.parse_args()
    bw = copy_bandwidth()
    gpu = _tuning.gpu_name()
    print(f"{gpu}; copy bandwidth {bw:.0f} GB/s; public linalg.gemm, ms (median of 20, CUDA "
          "events around 5 calls), two alternating turns of each table\n")
    print("| dtype | shape | op(B) | zones | rule | with rules | without | speedup | "
          "%copy with | %copy without |")
    print("|" + "---|" * 10)
    for dtype in args.dtypes.split(","):
        item = numpy.dtype(dtype).itemsize
        for zones0 in (int(z) for z in args.zones.split(",")):
            for m, n, q in HYDRO:
                zones = fit_batch(zones0, m * q, item)
                R = zones * m
                a = cupy.random.standard_normal((1, R, q)).astype(dtype)
                for form in ("T", "N"):
                    b = cupy.random.standard_normal((1, n, q) if form == "T" else (1, q, n))
                    b = b.astype(dtype)
                    opb = b[0].T if form == "T" else b[0]
                    ref = cupy.matmul(a[0], opb)
                    c = cupy.empty((1, R, n), dtype)
                    rules(True)
                    rule = blas.rows_rule(dtype, R, n, q, int(form == "T"))
                    t = {True: [], False: []}
                    for turn in range(2):
                        for on in (True, False):
                            rules(on)
                            c.fill(numpy.nan)
                            linalg.gemm(a, b, c, transb=form, overwrite_c=True)
                            err = float(abs(c[0] - ref).max()) / float(abs(ref).max())
                            assert err < (1e-4 if dtype == "float32" else 1e-12), (m, form, on, err)
                            t[on].append(timeit(lambda: linalg.gemm(a, b, c, transb=form,
                                                                    overwrite_c=True)))
                    rules(True)
                    on, off = min(t[True]), min(t[False])
                    nbytes = (R * q + R * n + q * n) * item
                    pct = lambda ms: 100 * nbytes / (ms * 1e-3) / 1e9 / bw   # noqa: E731
                    print(f"| {dtype} | {m}x{q}*{n} | {form} | {zones} | {rule} | {on:.4f} | "
                          f"{off:.4f} | {off / on:.2f} | {pct(on):.1f} | {pct(off):.1f} |",
                          flush=True)
                    del b, c, ref
                del a
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
