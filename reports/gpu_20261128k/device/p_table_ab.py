#!/usr/bin/env python3
"""A/B of two GEMM tables for this GPU on the public tall one-B call (hydro's corner force:
linalg.gemm of one A of zones x m rows with one B): the tables as installed now ("new") against
the same tables with this GPU's "gemm" part taken from OLD_JSON ("old"), swapped in this
process (the plan caches cleared), alternating, two turns each; each result checked against
cupy.matmul. Public time (CUDA events around 5 calls, host included) and GPU time (graph).

    python3 p_table_ab.py OLD_JSON [--dtypes float64,float32] > table_ab.md
"""
import argparse
import copy
import json
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg import _tuning                             # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import HYDRO, timeit, timeit_gpu, fit_batch, copy_bandwidth   # noqa: E402


def use(gpu, gemm):
    """Make ``gemm`` ({dtype: {class: entry}}) this GPU's GEMM table; every plan cache emptied."""
    _tuning.tables()[gpu]["gemm"] = copy.deepcopy(gemm)
    for value in vars(blas).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    blas._OVERRIDE_PLANS.clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_json")
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--zones", default="40960,262144")
    args = ap.parse_args()
    gpu = _tuning.gpu_name()
    with open(args.old_json) as f:
        old = json.load(f)[gpu].get("gemm", {})
    new = copy.deepcopy(_tuning.tables()[gpu].get("gemm", {}))
    bw = copy_bandwidth()
    print(f"{gpu}; copy bandwidth {bw:.0f} GB/s; public linalg.gemm ms (median of 20, CUDA "
          "events around 5 calls) and GPU ms (graph replay), two alternating turns a table\n")
    print("| dtype | shape | op(B) | zones | new public | old public | speedup | new GPU | "
          "old GPU | GPU speedup | %copy new (GPU) |")
    print("|" + "---|" * 11)
    for dtype in args.dtypes.split(","):
        item = numpy.dtype(dtype).itemsize
        for zones0 in (int(z) for z in args.zones.split(",")):
            for m, n, q in HYDRO:
                zones = fit_batch(zones0, m * q, item)
                a = cupy.random.standard_normal((1, zones * m, q)).astype(dtype)
                nbytes = zones * m * (q + n) * item
                for form in ("T", "N"):
                    b = cupy.random.standard_normal((1, n, q) if form == "T" else (1, q, n))
                    b = b.astype(dtype)
                    ref = cupy.matmul(a[0], b[0].T if form == "T" else b[0])
                    c = cupy.empty((1, zones * m, n), dtype)
                    times = {"new": [], "old": []}
                    for turn in ("new", "old", "new", "old"):
                        use(gpu, new if turn == "new" else old)
                        c.fill(numpy.nan)
                        out = blas.gemm(a, b, c, transb=form)
                        err = float(abs(out[0] - ref).max()) / float(abs(ref).max())
                        assert err < (1e-12 if item == 8 else 1e-5), (turn, m, n, q, form, err)
                        pub = timeit(lambda: blas.gemm(a, b, c, transb=form))
                        gpu_ms = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form), 10, 2)
                        times[turn].append((pub, gpu_ms))
                    new_p, new_g = (min(t[i] for t in times["new"]) for i in (0, 1))
                    old_p, old_g = (min(t[i] for t in times["old"]) for i in (0, 1))
                    pct = 100 * nbytes / (new_g * 1e-3) / 1e9 / bw
                    print(f"| {dtype} | {m}x{q}*{n} | {form} | {zones} | {new_p:.4f} | "
                          f"{old_p:.4f} | {old_p / new_p:.2f} | {new_g:.4f} | {old_g:.4f} | "
                          f"{old_g / new_g:.2f} | {pct:.1f} |", flush=True)
                    del b, c, ref
                del a
                cupy.get_default_memory_pool().free_all_blocks()
    use(gpu, new)


if __name__ == "__main__":
    main()
