"""SYRK by kernels/trmm.cu tri_tile (TT_FULL: dense M = op(A), X = op(A)^T, only the tiles on and
below the diagonal, each entry stored to both triangles from one register): correctness of every
matrix (symmetric bit for bit, residual against a float64 product) at awkward shapes, then backend
ms (CUDA events, median) of the tile launch against SYRK's current dispatch
(linalg/_cuda/syrk.py: gemm_small, syrk_small or cuBLAS GEMM + mirror) and the dense
cupy.matmul(A, A^T) the benchmarks call the vendor, over sizes and batch counts.

    python3 scripts/probe_syrk_tile.py [--sizes 32,48,64,96,128,192,256,384,512]
                                       [--batches 1,8,100,10240]
"""
import argparse
import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def check(cupy, gtri, dtype):
    """Worst scaled residual of tile_syrk over awkward shapes; False on a non-symmetric C."""
    eps = numpy.finfo(dtype).eps
    worst, symmetric = 0.0, True
    gen = cupy.random.default_rng(1)
    for n, k in ((65, 65), (100, 37), (128, 128), (129, 200), (200, 7), (257, 300), (512, 96)):
        for trans in (False, True):
            a = gen.standard_normal((3, k, n) if trans else (3, n, k)).astype(dtype)
            c = gtri.tile_syrk(a, trans, -0.5)
            op = (a.swapaxes(1, 2) if trans else a).astype(numpy.float64)
            ref = -0.5 * cupy.matmul(op, op.swapaxes(1, 2))
            res = cupy.linalg.norm((c - ref).reshape(3, -1), axis=1) / (
                0.5 * cupy.linalg.norm(op.reshape(3, -1), axis=1) ** 2 * max(n, k) * eps)
            worst = max(worst, float(res.max()))
            symmetric &= bool((c == c.swapaxes(1, 2)).all())
    return worst, symmetric


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="32,48,64,96,128,192,256,384,512")
    parser.add_argument("--batches", default="1,8,100,10240")
    args = parser.parse_args(argv)
    import cupy
    from bench_cholesky import timeit
    from linalg._cuda import syrk as gsyrk
    from linalg._cuda import triangular as gtri
    for dtype in (numpy.float64, numpy.float32):
        worst, symmetric = check(cupy, gtri, dtype)
        print(f"check {numpy.dtype(dtype).name}: worst residual {worst:.3g} (n eps units), "
              f"symmetric {symmetric}", flush=True)
    print("| dtype | n | trans | batch | current | tile | cupy.matmul | current / tile |")
    print("|---|---|---|---|---|---|---|---|")
    for dtype in (numpy.float64, numpy.float32):
        for n in (int(s) for s in args.sizes.split(",")):
            for batch in (int(s) for s in args.batches.split(",")):
                batch = max(1, min(batch, (1 << 29) // (n * n)))   # 4 GiB of float64 at most
                a = cupy.random.default_rng(n).standard_normal((batch, n, n)).astype(dtype)
                for trans in ("N", "T"):
                    op = a.swapaxes(1, 2) if trans == "T" else a
                    ms = [timeit(lambda: gsyrk.syrk(a, None, True, trans, 1.0, 0.0)),
                          timeit(lambda: gtri.tile_syrk(a, trans == "T")),
                          timeit(lambda: cupy.matmul(op, op.swapaxes(1, 2)))]
                    print(f"| {numpy.dtype(dtype).name} | {n} | {trans} | {batch} | "
                          + " | ".join(f"{t:.4f}" for t in ms) + f" | {ms[0] / ms[1]:.2f} |",
                          flush=True)


if __name__ == "__main__":
    main()
