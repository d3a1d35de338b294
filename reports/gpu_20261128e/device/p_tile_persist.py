"""Prepared probe (session 2026-11-28e, not run): tri_tile with a persistent grid at n <= 64.
At one tile a matrix tri_tile is bound by each item's latency (n = 48 took about what n = 64
does, 0.26-0.40 against 0.28 ms at 10 240 matrices, call 2) with 3 blocks an SM. A grid of the
resident blocks (TILE_GRID > 0) makes each block stream its items, the next item's first copies
issued during this one's product (kernels/trmm.cu tt_run). It lost on 2026-11-25 at n = 128 / 256
(H100: the tiles of one matrix drifted apart, L2 hits fell) -- a matrix of n <= 64 is one tile, so
that cause is absent here. Backend ms of tile_trmm at TILE_GRID 0 (a block an item) and at 1, 2
and 3 blocks an SM, the committed path (tri_block below 64) and one cupy.matmul; two turns, the
better kept; each persistent result checked against the committed one."""
import argparse
import sys
from pathlib import Path

import cupy
import numpy

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from bench_cholesky import timeit  # noqa: E402
from linalg._cuda import blas, triangular as gtri  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="40,48,56,60,64,100")
    p.add_argument("--batches", default="10240,100000")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,LTl,LNr")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    sms = blas.sm_count()
    gen = cupy.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",")):
        for batch in (int(s) for s in args.batches.split(",")):
            batch = min(batch, (1 << 28) // (n * n))
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
            for v in (s for s in args.trmm.split(",") if s):
                lower, trans, right = v[0] == "L", v[1] == "T", v[2] == "r"
                side, tr = ("right" if right else "left"), ("T" if trans else "N")
                ref = gtri.trmm(a, b.copy(), side, lower, tr, False, 1.0)
                work = b.copy()
                ms = {}
                for _ in range(2):
                    t = timeit(lambda: gtri.trmm(a, work, side, lower, tr, False, 1.0))
                    ms["committed"] = min(t, ms.get("committed", t))
                    for per_sm in (0, 1, 2, 3):
                        gtri.TILE_GRID = per_sm * sms
                        t = timeit(lambda: gtri.tile_trmm(a, b, right, lower, trans, False, 1.0))
                        ms[f"grid {per_sm}/SM"] = min(t, ms.get(f"grid {per_sm}/SM", t))
                        if per_sm:
                            got = gtri.tile_trmm(a, b, right, lower, trans, False, 1.0)
                            err = float(cupy.abs(got - ref).max() / cupy.abs(ref).max())
                            assert err < 1e-5, (n, v, per_sm, err)
                gtri.TILE_GRID = 0
                print(f"| trmm {v} | {dtype.name} | {n} | {batch} | "
                      + ", ".join(f"{k} {t:.4f}" for k, t in ms.items())
                      + f", cupy.matmul {mm:.4f} |", flush=True)
            del a, b


if __name__ == "__main__":
    main()
