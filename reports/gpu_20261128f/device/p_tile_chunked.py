"""Probe (prepared in session 2026-11-28f, run in 2026-11-28g): tri_tile above one tile a
matrix on a chunked persistent grid (reports/gpu_20261128f/tile_chunked.patch, then a rule by n:
TILE_CHUNKED, kernels/trmm.cu TT_CHUNKED; the resident blocks each walk a contiguous run of
items, a matrix's tiles on one block) against a block an item (the committed launch). tile_trmm (left N, left T, right N, upper
right T), tile_lauum (lower, upper) and tile_syrk called directly; backend ms, the two settings
in alternation twice, the better kept; the two results compared (the same sums in the same
order: equal). One cupy.matmul of the shape beside them."""
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


def calls(a, b, trmm, lauum, syrk):
    """{label: call} of the tile kernels to time."""
    out = {}
    for v in (s for s in trmm.split(",") if s):
        out[f"trmm {v}"] = (lambda v=v: gtri.tile_trmm(a, b, v[2] == "r", v[0] == "L",
                                                       v[1] == "T", False, 1.0))
    for v in (s for s in lauum.split(",") if s):
        out[f"lauum {v}"] = lambda v=v: gtri.tile_lauum(a, v == "L")
    if syrk:
        out["syrk N"] = lambda: gtri.tile_syrk(a, False)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="72,100,128,160,200,256")
    p.add_argument("--batch", type=int, default=10240)
    p.add_argument("--dtype", default="float64")
    p.add_argument("--trmm", default="LNl,LTl,LNr,UTr")
    p.add_argument("--lauum", default="L,U")
    p.add_argument("--no-syrk", action="store_true")
    args = p.parse_args()
    dtype = numpy.dtype(args.dtype)
    gen = cupy.random.default_rng(0)
    rule = gtri.TILE_CHUNKED
    for n in (int(s) for s in args.sizes.split(",")):
        batch = min(args.batch, (1 << 28) // (n * n))
        a = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        b = gen.standard_normal((batch, n, n), dtype=numpy.float64).astype(dtype)
        mm = min(timeit(lambda: cupy.matmul(a, b)) for _ in range(2))
        for label, call in calls(a, b, args.trmm, args.lauum, not args.no_syrk).items():
            ms, res = {}, {}
            for _ in range(2):
                for chunked in (False, True):
                    gtri.TILE_CHUNKED = {dtype.name: (0, 512)} if chunked else {}
                    t = timeit(call)
                    ms[chunked] = min(t, ms.get(chunked, t))
                    res[chunked] = call()
            gtri.TILE_CHUNKED = rule
            equal = bool(cupy.array_equal(res[False], res[True]))
            print(f"| {label} | {dtype.name} | {n} | {batch} | item {ms[False]:.4f}, chunked "
                  f"{ms[True]:.4f}, cupy.matmul {mm:.4f} | chunked / item "
                  f"{ms[False] / ms[True]:.2f}x | equal {equal} |", flush=True)
        del a, b


if __name__ == "__main__":
    main()
