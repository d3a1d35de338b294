#!/usr/bin/env python3
"""gemm_small's parameters on the row blocks of the hydro 32x36 (9x36)^T product (one tall A of
40 960 zones viewed as matrices of `rows` rows, one B): the tuner's candidates
(scripts/tune_blas.py _gemm_candidates) plus the double-buffered persistent grid (stages 2)
and fixed group sizes, by GPU time (CUDA graph replay, bench_blas.timeit_gpu); the table's
choice (no _params) first.

    python3 p_small_sweep.py > small_sweep.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit_gpu, copy_bandwidth      # noqa: E402
from tune_blas import _gemm_candidates                 # noqa: E402

ZONES, M, N, Q = 40960, 32, 9, 36


def main():
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s; GPU ms (graph replay), 40960 zones of 32x36 (9x36)^T\n")
    for dtype, forms in (("float64", "TN"), ("float32", "TN")):
        item = numpy.dtype(dtype).itemsize
        nbytes = ZONES * (M * Q + M * N) * item
        for form in forms:
            for rows in (32, 64, 128):
                count = ZONES * M // rows
                a = cupy.random.standard_normal((count, rows, Q)).astype(dtype)
                b = cupy.random.standard_normal((1, N, Q) if form == "T" else (1, Q, N))
                b = b.astype(dtype)
                c = cupy.empty((count, rows, N), dtype)
                ref = cupy.matmul(a, b[0].T if form == "T" else b[0])
                cands = [None] + [p for p in _gemm_candidates(rows, N, Q, True)
                                  if p.get("kernel") == "small"]
                cands += [{**p, "stages": 2} for p in cands[1:] if p["smem_target"] == 16384]
                cands += [{"kernel": "small", "mpb": mpb, "threads": th}
                          for mpb in (2, 4, 8, 16) for th in (128, 256)]
                timed = []
                for p in cands:
                    try:
                        c.fill(numpy.nan)
                        blas.gemm(a, b, c, transb=form, _params=p, _path="kernel")
                        err = float(abs(c - ref).max()) / float(abs(ref).max())
                        if not err < 1e-4:
                            timed.append((float("nan"), p, "WRONG"))
                            continue
                        ms = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form, _params=p,
                                                          _path="kernel"), 10, 2)
                        timed.append((ms, p, ""))
                    except Exception as exc:
                        timed.append((float("inf"), p, f"{type(exc).__name__}: {exc}"[:80]))
                table = timed[0][0]
                ranked = sorted(timed, key=lambda r: r[0] if r[0] == r[0] else 1e9)
                print(f"## {dtype} op(B) {form}, rows {rows}: table's choice {table:.4f} ms "
                      f"({100 * nbytes / (table * 1e-3) / 1e9 / bw:.1f} % of copy)")
                for ms, p, note in ranked[:6]:
                    pct = 100 * nbytes / (ms * 1e-3) / 1e9 / bw if ms == ms else float("nan")
                    print(f"- {ms:.4f} ms {pct:.1f} % {p} {note}")
                wrong = [r for r in timed if r[2] == "WRONG"]
                print(f"- {len(timed)} timed, {len(wrong)} wrong\n", flush=True)
                del a, b, c, ref


if __name__ == "__main__":
    main()
