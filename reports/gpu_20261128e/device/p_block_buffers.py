"""Prepared probe (session 2026-11-28e, not run): tri_block's shared buffers on the H200. TRMM
float64 keeps (1, 1) buffers (the H100 of 2026-11-23 measured (1, 2) and (2, 2) slower at
n = 48 / 64); on the H200 tri_block at n = 40-60 is not memory-bound (0.7-0.8x the dense product
at 63-72 % of the copy rate), so a buffer that overlaps the next matrix's copy with this one's
product may pay there. Backend ms of tri_block_trmm for each setting, two turns, the better
kept; one cupy.matmul of the same shape beside them."""
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
    p.add_argument("--sizes", default="40,48,57,64")
    p.add_argument("--batches", default="10240")
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,LTl,LNr")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    key = ("trmm", dtype.name)
    kept = gtri.BLOCK_BUFFERS[key]
    gen = cupy.random.default_rng(0)
    for n in (int(s) for s in args.sizes.split(",")):
        for batch in (int(s) for s in args.batches.split(",")):
            a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
            mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
            for v in (s for s in args.trmm.split(",") if s):
                lower, trans, right = v[0] == "L", v[1] == "T", v[2] == "r"
                flags = gtri._flags(right, lower, trans, False)
                ms = {}
                for _ in range(2):
                    for buffers in ((1, 1), (1, 2), (2, 2)):
                        gtri.BLOCK_BUFFERS[key] = buffers
                        t = timeit(lambda: gtri.tri_block_trmm(a, b, flags, 1.0))
                        ms[buffers] = min(t, ms.get(buffers, t))
                gtri.BLOCK_BUFFERS[key] = kept
                print(f"| trmm {v} | {dtype.name} | {n} | {batch} | "
                      + ", ".join(f"{k} {t:.4f}" for k, t in ms.items())
                      + f", cupy.matmul {mm:.4f} |", flush=True)
            del a, b


if __name__ == "__main__":
    main()
