"""Session 2026-11-28e probe: from how many matrices does tri_tile (one whole 64 x 64 tile a
matrix) beat tri_block for TRMM at n = 64? Backend ms (CUDA events, bench_cholesky.timeit) of
tri_block_trmm (in place) and tile_trmm (out of place), every variant, n vectors, two turns in
alternation, the smaller time of each kept; one cupy.matmul of the same shape beside them."""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import triangular as gtri  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=64)
    p.add_argument("--batches", default="1000,2000,3000,4096,6000,8000,10240,30000,100000")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,UNl,LTl,UTl,LNr,UNr,LTr,UTr")
    args = p.parse_args()
    dtype, n = numpy.dtype(args.dtype), args.n
    gen = cupy.random.default_rng(0)
    for batch in (int(s) for s in args.batches.split(",")):
        a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        work = b.copy()
        mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
        block_all, tile_all = [], []
        for v in (s for s in args.trmm.split(",") if s):
            lower, trans, right = v[0] == "L", v[1] == "T", v[2] == "r"
            flags = gtri._flags(right, lower, trans, False)
            block, tile = [], []
            for _ in range(2):
                block.append(timeit(lambda: gtri.tri_block_trmm(a, work, flags, 1.0)))
                tile.append(timeit(lambda: gtri.tile_trmm(a, b, right, lower, trans, False,
                                                          1.0)))
            block_all.append(min(block))
            tile_all.append(min(tile))
            print(f"| trmm {v} | {dtype.name} | {n} | {batch} | tri_block {min(block):.4f}, "
                  f"tile {min(tile):.4f}, cupy.matmul {mm:.4f} | tile / tri_block "
                  f"{min(block) / min(tile):.2f}x, tile / matmul {mm / min(tile):.2f}x |",
                  flush=True)
        ratios = [x / y for x, y in zip(block_all, tile_all)]
        print(f"| all | {dtype.name} | {n} | {batch} | tile / tri_block {min(ratios):.2f}-"
              f"{max(ratios):.2f}x |", flush=True)
        del a, b, work


if __name__ == "__main__":
    main()
