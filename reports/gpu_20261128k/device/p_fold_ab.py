#!/usr/bin/env python3
"""The public linalg.gemm with one B (1, n, q) for a batch of A (zones, m, q): folded into one
tall A where the tall class streams (blas._folds_to_tall) against the batched call it replaced
(the fold turned off in this process), alternating, two turns each; checked against cupy.matmul.

    python3 p_fold_ab.py > fold_ab.md
"""
import os
import sys

import numpy

sys.path.insert(0, os.getcwd())
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
import cupy                                            # noqa: E402
import linalg                                          # noqa: E402
from linalg import _tuning                             # noqa: E402
from linalg._cuda import blas                          # noqa: E402
from bench_blas import timeit, copy_bandwidth          # noqa: E402

FOLDS = blas._folds_to_tall


def main():
    bw = copy_bandwidth()
    gpu = _tuning.gpu_name()
    print(f"{gpu}; copy bandwidth {bw:.0f} GB/s; public linalg.gemm(A (zones, m, q), B (1, n, q), "
          "transb='T'), ms (median of 20, CUDA events around 5 calls)\n")
    print("| dtype | shape | zones | folds | folded | batched | speedup | %copy folded |")
    print("|" + "---|" * 8)
    for dtype in ("float64", "float32"):
        item = numpy.dtype(dtype).itemsize
        for m, n, q in ((32, 9, 36), (18, 4, 16), (81, 8, 64)):
            for zones in (40960, 262144):
                a = cupy.random.standard_normal((zones, m, q)).astype(dtype)
                b = cupy.random.standard_normal((1, n, q)).astype(dtype)
                ref = cupy.matmul(a, b[0].T)
                folds = FOLDS(gpu, dtype, zones * m, n, q)
                times = {True: [], False: []}
                for on in (True, False, True, False):
                    blas._folds_to_tall = FOLDS if on else (lambda *key: False)
                    out = linalg.gemm(a, b, transb="T")
                    err = float(abs(out - ref).max()) / float(abs(ref).max())
                    assert err < (1e-12 if item == 8 else 1e-5), (dtype, m, zones, on, err)
                    times[on].append(timeit(lambda: linalg.gemm(a, b, transb="T")))
                blas._folds_to_tall = FOLDS
                t_on, t_off = min(times[True]), min(times[False])
                nbytes = zones * m * (q + n) * item
                print(f"| {dtype} | {m}x{q}*({n}x{q})^T | {zones} | {folds} | {t_on:.4f} | "
                      f"{t_off:.4f} | {t_off / t_on:.2f} | "
                      f"{100 * nbytes / (t_on * 1e-3) / 1e9 / bw:.1f} |", flush=True)
                del a, b, ref, out
                cupy.get_default_memory_pool().free_all_blocks()


if __name__ == "__main__":
    main()
