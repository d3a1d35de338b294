"""SYRK by the GEMM kernel: C = alpha op(A) op(A)^T as one launch of kernels/gemm.cu gemm_small
with B = A (op(B) = op(A)^T). Every entry sums its k products in the same order with the two
factors swapped, so C is symmetric bit for bit without a mirror pass; the probe checks that and
the residual against a float64 product, then times (backend ms, CUDA events, median) the paths
linalg/_cuda/syrk.py could take: syrk_small, gemm_small (A, A^T), cuBLAS GEMM + mirror, and the
dense cupy.matmul(A, A^T) that the benchmarks call the vendor.

    python3 scripts/probe_syrk_gemm.py [--sizes 8,16,24,32,48,64] [--batches 10240,100000]
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="8,16,24,32,48,64")
    parser.add_argument("--batches", default="10240,100000")
    args = parser.parse_args(argv)
    import cupy
    from bench_cholesky import timeit
    from linalg._cuda import blas, syrk as gsyrk
    print("| dtype | n | trans | batch | syrk_small | gemm_small | GEMM + mirror | cupy.matmul |"
          " symmetric | residual |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dtype in (numpy.float64, numpy.float32):
        eps = numpy.finfo(dtype).eps
        for n in (int(s) for s in args.sizes.split(",")):
            for batch in (int(s) for s in args.batches.split(",")):
                if n > 32 and batch > 10240:
                    continue
                a = cupy.random.default_rng(n).standard_normal((batch, n, n)).astype(dtype)
                for trans in ("N", "T"):
                    op = a.swapaxes(1, 2) if trans == "T" else a
                    ta, tb = ("T", "N") if trans == "T" else ("N", "T")
                    force = {"kernel": "small"}

                    def by_gemm():
                        return blas.gemm(a, a, None, ta, tb, 1.0, 0.0, _params=force,
                                         _path="kernel")

                    def by_small():
                        saved = gsyrk.MAX_N
                        gsyrk.MAX_N = 64
                        try:
                            return gsyrk.syrk(a, None, True, trans, 1.0, 0.0)
                        finally:
                            gsyrk.MAX_N = saved

                    c = by_gemm()
                    sym = bool((c == c.swapaxes(1, 2)).all())
                    ref = cupy.matmul(op.astype(numpy.float64), op.astype(numpy.float64).swapaxes(1, 2))
                    res = float((cupy.linalg.norm((c - ref).reshape(batch, -1), axis=1)
                                 / (cupy.linalg.norm(op.astype(numpy.float64).reshape(batch, -1),
                                                     axis=1) ** 2 * n * eps)).max())
                    ms = [timeit(by_small) if n <= 64 else float("nan"), timeit(by_gemm),
                          timeit(lambda: gsyrk._gemm_syrk(a, None, True, trans == "T", 1.0, 0.0,
                                                          False)),
                          timeit(lambda: cupy.matmul(op, op.swapaxes(1, 2)))]
                    print(f"| {numpy.dtype(dtype).name} | {n} | {trans} | {batch} | "
                          + " | ".join(f"{t:.4f}" for t in ms) + f" | {sym} | {res:.2g} |",
                          flush=True)


if __name__ == "__main__":
    main()
