#!/usr/bin/env python3
"""A/B of the H200's own GEMV entries (tuned in call 4) on the public call: linalg.gemv on the
hydro shapes with the tables as committed against the same tables without the H200's gemv_n /
gemv_t entries (it then takes the H100's), in this process, two alternating turns each; each
result checked against cupy.matmul.

    python3 p_gemv_ab.py [--shapes 4x4,8x8] [--batches 10240,100000] [--ops N] > gemv_ab.md
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

GPU = _tuning.gpu_name()
SAVED = {op: _tuning.tables()[GPU].get(op) for op in ("gemv_n", "gemv_t")}


def own_entries(on):
    for op, entries in SAVED.items():
        if on and entries is not None:
            _tuning.tables()[GPU][op] = entries
        else:
            _tuning.tables()[GPU].pop(op, None)
    blas._gemv_plan.cache_clear()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default=",".join(f"{m}x{n}" for m, n, _ in HYDRO))
    ap.add_argument("--batches", default="40960,262144")
    ap.add_argument("--ops", default="N,T")
    args = ap.parse_args()
    shapes = [tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",")]
    bw = copy_bandwidth()
    print(f"{GPU}; copy bandwidth {bw:.0f} GB/s; public linalg.gemv, ms (median of 20, CUDA "
          "events around 5 calls), two alternating turns of each table\n")
    print("| dtype | shape | op | batch | with H200 entries | H100's | speedup | %copy with |"
          " %copy H100's |")
    print("|" + "---|" * 9)
    for dtype in ("float64", "float32"):
        item = numpy.dtype(dtype).itemsize
        for batch0 in (int(b) for b in args.batches.split(",")):
            for m, n in shapes:
                batch = fit_batch(batch0, m * n, item)
                a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
                for trans in args.ops.split(","):
                    xl, yl = (n, m) if trans == "N" else (m, n)
                    x = cupy.random.standard_normal((batch, xl)).astype(dtype)
                    y = cupy.empty((batch, yl), dtype)
                    op = a if trans == "N" else a.transpose(0, 2, 1)
                    ref = cupy.matmul(op, x[:, :, None])[:, :, 0]
                    t = {True: [], False: []}
                    for turn in range(2):
                        for on in (True, False):
                            own_entries(on)
                            y.fill(numpy.nan)
                            linalg.gemv(a, x, y, trans=trans, overwrite_y=True)
                            err = float(abs(y - ref).max()) / float(abs(ref).max())
                            assert err < (1e-4 if dtype == "float32" else 1e-12), (m, n, on)
                            t[on].append(timeit(lambda: linalg.gemv(a, x, y, trans=trans,
                                                                    overwrite_y=True)))
                    own_entries(True)
                    on, off = min(t[True]), min(t[False])
                    nbytes = (m * n + xl + yl) * batch * item
                    pct = lambda ms: 100 * nbytes / (ms * 1e-3) / 1e9 / bw   # noqa: E731
                    print(f"| {dtype} | {m}x{n} | {trans} | {batch} | {on:.4f} | {off:.4f} | "
                          f"{off / on:.2f} | {pct(on):.1f} | {pct(off):.1f} |", flush=True)
                    del x, y, ref
                del a
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
