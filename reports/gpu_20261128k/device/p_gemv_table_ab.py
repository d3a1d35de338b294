#!/usr/bin/env python3
"""A/B of two GEMV tables for this GPU on the public batched GEMV of the hydro shapes: the
tables as installed now ("new") against the same tables with this GPU's "gemv_n" / "gemv_t"
taken from OLD_JSON ("old"), swapped in this process (the plan caches cleared), alternating,
two turns each; each result checked against cupy.einsum. Public time (CUDA events around 5
calls, host included) and GPU time (graph replay).

    python3 p_gemv_table_ab.py OLD_JSON [--batches 40960,262144] > gemv_table_ab.md
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

OPS = ("gemv_n", "gemv_t")


def use(gpu, tables):
    """Make ``tables`` ({op: {dtype: {class: entry}}}) this GPU's GEMV tables; caches emptied."""
    for op in OPS:
        _tuning.tables()[gpu][op] = copy.deepcopy(tables.get(op, {}))
    for value in vars(blas).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    blas._OVERRIDE_PLANS.clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old_json")
    ap.add_argument("--batches", default="40960,262144")
    args = ap.parse_args()
    gpu = _tuning.gpu_name()
    with open(args.old_json) as f:
        data = json.load(f)[gpu]
    old = {op: data.get(op, {}) for op in OPS}
    new = {op: copy.deepcopy(_tuning.tables()[gpu].get(op, {})) for op in OPS}
    bw = copy_bandwidth()
    print(f"{gpu}; copy bandwidth {bw:.0f} GB/s; public GEMV ms (median of 20, CUDA events "
          "around 5 calls) and GPU ms (graph replay), two alternating turns a table\n")
    print("| dtype | shape | op | batch | new public | old public | speedup | new GPU | "
          "old GPU | GPU speedup | %copy new public | %copy new GPU |")
    print("|" + "---|" * 12)
    for dtype in ("float64", "float32"):
        item = numpy.dtype(dtype).itemsize
        for batch0 in (int(b) for b in args.batches.split(",")):
            for m, n, _ in HYDRO:
                batch = fit_batch(batch0, m * n, item)
                a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
                for trans in ("N", "T"):
                    xl, yl = (n, m) if trans == "N" else (m, n)
                    x = cupy.random.standard_normal((batch, xl)).astype(dtype)
                    y = cupy.empty((batch, yl), dtype)
                    ref = cupy.einsum("kij,kj->ki" if trans == "N" else "kji,kj->ki", a, x)
                    nbytes = batch * (m * n + xl + yl) * item
                    times = {"new": [], "old": []}
                    for turn in ("new", "old", "new", "old"):
                        use(gpu, new if turn == "new" else old)
                        y.fill(numpy.nan)
                        out = blas.gemv(a, x, y, trans=trans)
                        err = float(abs(out - ref).max()) / float(abs(ref).max())
                        assert err < (1e-12 if item == 8 else 1e-5), (turn, m, n, trans, err)
                        pub = timeit(lambda: blas.gemv(a, x, y, trans=trans))
                        g = timeit_gpu(lambda: blas.gemv(a, x, y, trans=trans), 10, 2)
                        times[turn].append((pub, g))
                    new_p, new_g = (min(t[i] for t in times["new"]) for i in (0, 1))
                    old_p, old_g = (min(t[i] for t in times["old"]) for i in (0, 1))
                    pct = [100 * nbytes / (v * 1e-3) / 1e9 / bw for v in (new_p, new_g)]
                    print(f"| {dtype} | {m}x{n} | {trans} | {batch} | {new_p:.4f} | {old_p:.4f} "
                          f"| {old_p / new_p:.2f} | {new_g:.4f} | {old_g:.4f} | "
                          f"{old_g / new_g:.2f} | {pct[0]:.1f} | {pct[1]:.1f} |", flush=True)
                    del x, y, ref
                del a
                cupy.get_default_memory_pool().free_all_blocks()
    use(gpu, new)


if __name__ == "__main__":
    main()
