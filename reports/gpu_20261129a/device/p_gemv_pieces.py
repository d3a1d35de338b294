#!/usr/bin/env python3
"""GEMV on rows of whole 16-byte pieces (kernels/gemv.cu tile_gemv: N a lane a piece, T a
lane a piece's columns, one 16-byte shared load each, instead of an element a step): GPU time
(graph replay) of the table's call and of gemv_stream / gemv_staged candidates, hydro shapes
18x4 and 81x8 and square 16 / 64, at the batch counts of $BATCHES, ops $OPS. Run once with the
kernels before (LINALG_KERNEL_DIR) and once with these; each result checked against
cupy.einsum. Prints the table's time and the best three of each kernel, % of the copy
bandwidth.

    [BATCHES=40960,262144,1048576] [OPS=N,T] python3 p_gemv_pieces.py > pieces.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit_gpu, copy_bandwidth, fit_batch   # noqa: E402

BATCHES = tuple(int(b) for b in os.environ.get("BATCHES", "40960,262144,1048576").split(","))
OPS = tuple(os.environ.get("OPS", "N").split(","))
SHAPES = ((18, 4), (81, 8), (16, 16), (64, 64))


def candidates(trans):
    groups = (1, 2, 4) if trans == "N" else (1, 2, 4, 8)
    stream = [{"kernel": "stream", "tile_bytes": tb, "group": gr, "block": bl, "stages": st}
              for tb in (8192, 16384, 32768) for gr in groups for bl in (128, 256)
              for st in (2, 3)]
    staged = [{"kernel": "staged", "tile_bytes": tb, "group": gr, "block": bl}
              for tb in (8192, 16384, 32768) for gr in groups for bl in (128, 256)]
    return {"stream": stream, "staged": staged}


def main():
    bw = copy_bandwidth()
    print(f"kernels: {os.environ.get('LINALG_KERNEL_DIR', 'this tree')}; copy bandwidth "
          f"{bw:.0f} GB/s; GPU ms (graph replay)\n")
    for dtype in ("float64", "float32"):
        item = numpy.dtype(dtype).itemsize
        for batch0 in BATCHES:
            for (m, n), trans in ((s, t) for s in SHAPES for t in OPS):
                batch = fit_batch(batch0, m * n, item, 2 << 30)
                xl, yl = (n, m) if trans == "N" else (m, n)
                a = cupy.random.standard_normal((batch, m, n)).astype(dtype)
                x = cupy.random.standard_normal((batch, xl)).astype(dtype)
                y = cupy.empty((batch, yl), dtype)
                ref = cupy.einsum("kij,kj->ki" if trans == "N" else "kji,kj->ki", a, x)
                nbytes = batch * (m * n + n + m) * item

                def pct(ms):
                    return 100 * nbytes / (ms * 1e-3) / 1e9 / bw
                table = timeit_gpu(lambda: blas.gemv(a, x, y, trans=trans), 10, 2)
                print(f"## {dtype} {m}x{n} {trans}, batch {batch}: table {table:.4f} ms "
                      f"({pct(table):.1f} %)")
                for kind, cands in candidates(trans).items():
                    timed = []
                    for p in cands:
                        y.fill(numpy.nan)
                        blas.gemv(a, x, y, trans=trans, _params=p, _path="kernel")
                        err = float(abs(y - ref).max()) / float(abs(ref).max())
                        if not err < (1e-12 if item == 8 else 1e-5):
                            print(f"- WRONG {p} {err:.1e}")
                            continue
                        timed.append((timeit_gpu(lambda: blas.gemv(
                            a, x, y, trans=trans, _params=p, _path="kernel"), 10, 2), p))
                    for ms, p in sorted(timed, key=lambda r: r[0])[:3]:
                        short = {k: v for k, v in p.items() if k != "kernel"}
                        print(f"- {kind} {ms:.4f} ms {pct(ms):.1f} % {table / ms:.2f}x {short}")
                print(flush=True)
                del a, x, y, ref
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
