#!/usr/bin/env python3
"""gemv_stream (the bulk copy engine feeding a ring of tiles, kernels/gemv.cu) against the
table's choice on the hydro GEMV shapes, N and T, float64 / float32, at the batch counts of
$BATCHES (default 40 960): GPU time (graph replay) of the table's call, and of each of
tune_blas's gemv_stream candidates (checked against cupy.einsum first); the best four printed.

    [BATCHES=40960,262144] python3 p_gemv_stream.py > gemv_stream.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit_gpu, copy_bandwidth, HYDRO, fit_batch   # noqa: E402
from tune_blas import gemv_stream_candidates           # noqa: E402


BATCHES = tuple(int(b) for b in os.environ.get("BATCHES", "40960").split(","))


def main():
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s; GPU ms (graph replay)\n")
    for dtype in ("float64", "float32"):
        item = numpy.dtype(dtype).itemsize
        for batch0 in BATCHES:
            for m, n, _ in HYDRO:
                batch = fit_batch(batch0, m * n, item)
                a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
                for trans in ("N", "T"):
                    xl, yl = (n, m) if trans == "N" else (m, n)
                    x = cupy.random.standard_normal((batch, xl)).astype(dtype)
                    y = cupy.empty((batch, yl), dtype)
                    ref = cupy.einsum("kij,kj->ki" if trans == "N" else "kji,kj->ki", a, x)
                    nbytes = batch * (m * n + xl + yl) * item
                    table = timeit_gpu(lambda: blas.gemv(a, x, y, trans=trans), 10, 2)
                    timed = []
                    for p in gemv_stream_candidates(m, n, item):
                        try:
                            y.fill(numpy.nan)
                            blas.gemv(a, x, y, trans=trans, _params=p, _path="kernel")
                            err = float(abs(y - ref).max()) / float(abs(ref).max())
                            if not err < (1e-12 if item == 8 else 1e-5):
                                timed.append((float("nan"), p, f"WRONG {err:.1e}"))
                                continue
                            ms = timeit_gpu(lambda: blas.gemv(a, x, y, trans=trans, _params=p,
                                                              _path="kernel"), 10, 2)
                            timed.append((ms, p, ""))
                        except Exception as exc:
                            timed.append((float("inf"), p, f"{type(exc).__name__}: {exc}"[:90]))
                    ranked = sorted(timed, key=lambda r: r[0] if r[0] == r[0] else 1e9)
                    pct = 100 * nbytes / (table * 1e-3) / 1e9 / bw
                    print(f"## {dtype} {m}x{n} {trans}, batch {batch}: table {table:.4f} ms "
                          f"({pct:.1f} %)")
                    for ms, p, note in ranked[:4]:
                        short = {k: v for k, v in p.items() if k != "kernel"}
                        pc = 100 * nbytes / (ms * 1e-3) / 1e9 / bw
                        print(f"- {ms:.4f} ms {pc:.1f} % {table / ms:.2f}x {short} {note}")
                    bad = [r for r in timed if r[2]]
                    for r in bad[:3]:
                        print(f"- PROBLEM {r[1]} {r[2]}")
                    print(f"- {len(timed)} timed, {len(bad)} wrong or failed\n", flush=True)
                    del x, y, ref
                del a
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
