#!/usr/bin/env python3
"""gemm_stream with two rows a thread (rm = 2: each B value loaded from shared memory serves
two rows) against the table's choice on the hydro tall one-B products, both op(B), 40 960
zones: GPU time (graph replay) of the table's call, of the table's own gemm_stream parameters
with rm = 2 and of a few neighbours (rp, stages, pad); each candidate checked first.

    python3 p_stream_rm.py > stream_rm.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg import _tuning                             # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit_gpu, copy_bandwidth      # noqa: E402

SHAPES = (("float64", 32, 9, 36), ("float64", 18, 4, 16), ("float64", 81, 8, 64),
          ("float32", 32, 9, 36), ("float32", 18, 4, 16), ("float32", 81, 8, 64))
ZONES = 40960


def candidates(entry, n):
    base = {k: entry[k] for k in ("nc", "rp", "stages", "pad") if k in entry} or \
        {"nc": 9 if n == 9 else (8 if n == 8 else 4), "rp": 64, "stages": 2, "pad": False}
    out = [{"cfg": "stream", **base, "rm": 1}]
    for rp in (64, 128):
        for st in (2, 3):
            for pad in (True, False):
                out.append({"cfg": "stream", **base, "rm": 2, "rp": rp, "stages": st,
                            "pad": pad})
    return out


def main():
    bw = copy_bandwidth()
    gpu = _tuning.gpu_name()
    print(f"{gpu}; copy bandwidth {bw:.0f} GB/s; GPU ms (graph replay), {ZONES} zones\n")
    for dtype, m, n, q in SHAPES:
        item = numpy.dtype(dtype).itemsize
        rows = ZONES * m
        cls = _tuning.shape_class(rows, n, q)
        entry = next((e for e in _tuning.entries("gemm", dtype, cls, gpu) if "cfg" in e), {})
        a = cupy.random.standard_normal((1, rows, q)).astype(dtype)
        c = cupy.empty((1, rows, n), dtype)
        nbytes = rows * (q + n) * item
        for form in ("T", "N"):
            b = cupy.random.standard_normal((1, n, q) if form == "T" else (1, q, n)).astype(dtype)
            ref = cupy.matmul(a[0], b[0].T if form == "T" else b[0])
            table = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form), 10, 2)
            timed = []
            for p in candidates(entry if entry.get("cfg") == "stream" else {}, n):
                try:
                    c.fill(numpy.nan)
                    blas.gemm(a, b, c, transb=form, _params=p, _path="kernel")
                    err = float(abs(c[0] - ref).max()) / float(abs(ref).max())
                    if not err < (1e-12 if item == 8 else 1e-5):
                        timed.append((float("nan"), p, f"WRONG {err:.1e}"))
                        continue
                    timed.append((timeit_gpu(lambda: blas.gemm(
                        a, b, c, transb=form, _params=p, _path="kernel"), 10, 2), p, ""))
                except Exception as exc:
                    timed.append((float("inf"), p, f"{type(exc).__name__}: {exc}"[:90]))
            pct = 100 * nbytes / (table * 1e-3) / 1e9 / bw
            print(f"## {dtype} {m}x{q} ({n}x{q}){'^T' if form == 'T' else ''}: table {table:.4f}"
                  f" ms ({pct:.1f} %), entry {({k: v for k, v in entry.items() if k != 'reason'})}")
            for ms, p, note in sorted(timed, key=lambda r: r[0] if r[0] == r[0] else 1e9)[:5]:
                short = {k: v for k, v in p.items() if k != "cfg"}
                pc = 100 * nbytes / (ms * 1e-3) / 1e9 / bw
                print(f"- {ms:.4f} ms {pc:.1f} % {table / ms:.2f}x {short} {note}")
            bad = [r for r in timed if r[2]]
            for r in bad[:3]:
                print(f"- PROBLEM {r[1]} {r[2]}")
            print(f"- {len(timed)} timed, {len(bad)} wrong or failed\n", flush=True)
            del b, ref
        del a, c
        cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
