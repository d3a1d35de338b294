#!/usr/bin/env python3
"""The hydro corner-force GEMM, C (R x n) = A (R x q) op(B), with one B for every row (the zones
folded into the rows of one tall A, as hydro/operators.py calls it): the public call as it is
against the same rows viewed as a batch of R / mr matrices of mr rows (any mr dividing R: the
rows are independent), on our kernel path (gemm_small / tiled, as _gemm_plan picks for that
class) and on cuBLAS gemmStridedBatched with B's batch stride 0, plus the bench's vendor forms.

    python3 p_tall_rows.py [--dtypes float64,float32] [--forms T,N] > tall_rows.md
"""
import argparse
import sys
import os

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                           # noqa: E402
import linalg                                         # noqa: E402
from linalg._cuda import blas, vendor                 # noqa: E402
from bench_blas import HYDRO, timeit, fit_batch, copy_bandwidth   # noqa: E402

ROWS = (8, 16, 32, 64, 128, 256, 512)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtypes", default="float64,float32")
    ap.add_argument("--forms", default="T,N")
    ap.add_argument("--batches", default="40960,262144")
    args = ap.parse_args()
    bw = copy_bandwidth()
    print(f"copy bandwidth {bw:.0f} GB/s; ms, median of 20 (CUDA events around 5 calls)\n")
    print("| dtype | shape | form | zones | public | vendor tall | vendor batched m | best "
          "re-batched kernel (mr) | best re-batched cuBLAS (mr) | all kernel mr | all cuBLAS mr |"
          " public %copy | best %copy |")
    print("|" + "---|" * 13)
    for dtype in args.dtypes.split(","):
        item = numpy.dtype(dtype).itemsize
        for zones0 in (int(b) for b in args.batches.split(",")):
            for m, n, q in HYDRO:
                zones = fit_batch(zones0, m * q, item)
                zones -= zones % 256 if zones > 256 else 0
                R = zones * m
                az = cupy.random.standard_normal((zones, m, q)).astype(dtype)
                tall3 = az.reshape(1, R, q)
                for form in args.forms.split(","):
                    if form == "T":
                        bmat = cupy.random.standard_normal((1, n, q)).astype(dtype)
                        opb = bmat.transpose(0, 2, 1)
                    else:
                        bmat = cupy.random.standard_normal((1, q, n)).astype(dtype)
                        opb = bmat
                    f = cupy.empty((1, R, n), dtype)
                    ref = cupy.matmul(tall3[0], opb[0])
                    public = timeit(lambda: linalg.gemm(tall3, bmat, f, transb=form,
                                                        overwrite_c=True))
                    assert float(abs(f[0] - ref).max()) <= 1e-3 * float(abs(ref).max())
                    vtall = timeit(lambda: vendor.gemm(f, tall3, opb))
                    cb = cupy.empty((zones, m, n), dtype)
                    vbat = timeit(lambda: vendor.gemm(cb, az, cupy.broadcast_to(
                        opb, (zones, q, n))))
                    kern, cub = {}, {}
                    for mr in sorted(set(ROWS + (m,))):
                        if R % mr:
                            continue
                        a3, c3 = tall3.reshape(R // mr, mr, q), f.reshape(R // mr, mr, n)
                        f.fill(0)
                        kern[mr] = timeit(lambda: blas.gemm(a3, bmat, c3, transb=form,
                                                            _path="kernel"))
                        err = float(abs(f[0] - ref).max())
                        if not err <= 1e-3 * float(abs(ref).max()):
                            kern[mr] = float("nan")
                        bb = cupy.broadcast_to(opb, (R // mr, q, n))
                        cub[mr] = timeit(lambda: vendor.gemm(c3, a3, bb))
                    nbytes = (R * q + R * n + q * n) * item
                    bk = min(kern, key=lambda r: kern[r] if kern[r] == kern[r] else 1e9)
                    bc = min(cub, key=cub.get)
                    best = min(kern[bk], cub[bc], public)
                    pct = lambda ms: 100 * nbytes / (ms * 1e-3) / 1e9 / bw   # noqa: E731
                    ks = " ".join(f"{r}:{t:.3f}" for r, t in kern.items())
                    cs = " ".join(f"{r}:{t:.3f}" for r, t in cub.items())
                    print(f"| {dtype} | {m}x{q}*{n} | {form} | {zones} | {public:.4f} | "
                          f"{vtall:.4f} | {vbat:.4f} | {kern[bk]:.4f} ({bk}) | {cub[bc]:.4f} "
                          f"({bc}) | {ks} | {cs} | {pct(public):.1f} | {pct(best):.1f} |",
                          flush=True)
                    del f, cb, bmat, opb
                del az, tall3
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
