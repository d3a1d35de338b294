#!/usr/bin/env python3
"""gemm_stream (the bulk copy engine feeding one tall A, kernels/gemm.cu) against what the table
serves now for the hydro corner-force products F = A B^T with the zones folded into the rows of
one A (1, Z m, q) and one B: GPU time (CUDA graph replay, bench_blas.timeit_gpu) of the public
call (the table's choice: the rows rule, gemm_tall or cuBLAS), cuBLAS's batched product of the
zones (cupy.matmul), and gemm_stream's parameters (nc, rp, stages, pad); each candidate checked
against cupy.matmul first. Percent: of the device-to-device copy rate, A and F moved once.

    python3 p_stream.py [--quick] > stream.md
"""
import itertools
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit_gpu, copy_bandwidth      # noqa: E402

# (m, n, q, zones): hydro/operators.py's corner-force shapes (2-D Q1, Q2; 3-D Q1, Q2, Q3)
SHAPES = ((32, 9, 36, 40960), (32, 9, 36, 262144), (18, 4, 16, 40960), (81, 8, 64, 40960),
          (192, 27, 216, 12945), (375, 64, 512, 5592))
NC = {4: (4,), 8: (4, 8), 9: (3, 4, 9), 27: (3, 9, 16), 64: (8, 16)}


def candidates(n, quick):
    rps, stages = ((32, 64, 128), (2, 3, 4, 6)) if not quick else ((64,), (4,))
    for nc, rp, st, pad in itertools.product(NC[n], rps, stages, (True, False)):
        yield {"cfg": "stream", "nc": nc, "rp": rp, "stages": st, "pad": pad}


def pct(ms, nbytes, bw):
    return 100 * nbytes / (ms * 1e-3) / 1e9 / bw


def main():
    quick = "--quick" in sys.argv
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s; GPU ms (graph replay)\n")
    for dtype in ("float64", "float32"):
        for m, n, q, zones in SHAPES:
            if dtype == "float64" and m == 375:
                continue
            item = numpy.dtype(dtype).itemsize
            nbytes = zones * (m * q + m * n) * item
            a = cupy.random.standard_normal((1, zones * m, q)).astype(dtype)
            c = cupy.empty((1, zones * m, n), dtype)
            for form in ("T", "N"):
                b = cupy.random.standard_normal((1, n, q) if form == "T" else (1, q, n))
                b = b.astype(dtype)
                bop = b[0].T if form == "T" else b[0]
                ref = cupy.matmul(a[0], bop)
                scale = float(abs(ref).max())
                a3 = a.reshape(zones, m, q)
                table = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form), 10, 2)
                tall = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form, _path="kernel",
                                                    _params={"cfg": "tall"}), 10, 2)
                vendor = timeit_gpu(lambda: cupy.matmul(a3, bop), 10, 2)
                timed = []
                cands = list(candidates(n, quick or form == "N"))
                for p in cands:
                    try:
                        c.fill(numpy.nan)
                        blas.gemm(a, b, c, transb=form, _params=p, _path="kernel")
                        err = float(abs(c[0] - ref).max()) / scale
                        if not err < (1e-12 if item == 8 else 1e-5):
                            timed.append((float("nan"), p, f"WRONG {err:.1e}"))
                            continue
                        ms = timeit_gpu(lambda: blas.gemm(a, b, c, transb=form, _params=p,
                                                          _path="kernel"), 10, 2)
                        timed.append((ms, p, ""))
                    except Exception as exc:
                        timed.append((float("inf"), p, f"{type(exc).__name__}: {exc}"[:90]))
                ranked = sorted(timed, key=lambda r: r[0] if r[0] == r[0] else 1e9)
                print(f"## {dtype} {m}x{q} ({n}x{q}){'^T' if form == 'T' else ''}, "
                      f"{zones} zones: table {table:.4f} ms ({pct(table, nbytes, bw):.1f} %), "
                      f"gemm_tall {tall:.4f}, cupy.matmul batched {vendor:.4f}")
                for ms, p, note in ranked[:5]:
                    short = {k: v for k, v in p.items() if k != "cfg"}
                    print(f"- {ms:.4f} ms {pct(ms, nbytes, bw):.1f} % {table / ms:.2f}x {short} "
                          f"{note}")
                bad = [r for r in timed if r[2]]
                for r in bad[:3]:
                    print(f"- PROBLEM {r[1]} {r[2]}")
                print(f"- {len(timed)} timed, {len(bad)} wrong or failed\n", flush=True)
                del b, ref
            del a, c, a3
            cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
