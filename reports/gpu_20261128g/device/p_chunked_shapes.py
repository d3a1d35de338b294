"""Prepared probe (session 2026-11-28g, for the next session): TILE_CHUNKED was measured with n
vectors (TRMM) and k = n (SYRK) only. Here its rule against none (a block an item) in one
process, two alternating turns, the better kept, for TRMM left N lower (B n x v) and right N
lower (B v x n) with v vectors, and SYRK of an n x k A; results of the two compared."""
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


def cases(gen, n, batch, dtype, vectors, kdims):
    """{label: call} for one n."""
    def rand(*shape):
        return gen.standard_normal((batch,) + shape, dtype=numpy.float64).astype(dtype)
    a = rand(n, n)
    out = {}
    for v in vectors:
        bl, br = rand(n, v), rand(v, n)
        out[f"trmm LNl v={v}"] = lambda bl=bl: gtri.tile_trmm(a, bl, False, True, False, False)
        out[f"trmm LNr v={v}"] = lambda br=br: gtri.tile_trmm(a, br, True, True, False, False)
    for k in kdims:
        ak = rand(n, k)
        out[f"syrk N k={k}"] = lambda ak=ak: gtri.tile_syrk(ak, False)
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--sizes", default="72,96")
    p.add_argument("--vectors", default="1,8,32")
    p.add_argument("--kdims", default="16,200")
    p.add_argument("--batches", default="1000,10240")
    p.add_argument("--dtypes", default="float64,float32")
    args = p.parse_args()
    rule = dict(gtri.TILE_CHUNKED)
    gen = cupy.random.default_rng(0)
    ints = lambda text: [int(s) for s in text.split(",") if s]  # noqa: E731
    for name in args.dtypes.split(","):
        dtype = numpy.dtype(name)
        for n in ints(args.sizes):
            for batch in ints(args.batches):
                calls = cases(gen, n, batch, dtype, ints(args.vectors), ints(args.kdims))
                ms, res = {}, {}
                for _ in range(2):
                    for on in (False, True):
                        gtri.TILE_CHUNKED = {name: (0, 512)} if on else {}
                        for label, call in calls.items():
                            res[label, on] = call()
                            t = timeit(call)
                            ms[label, on] = min(t, ms.get((label, on), t))
                gtri.TILE_CHUNKED = rule
                for label in calls:
                    item, chunk = ms[label, False], ms[label, True]
                    equal = bool(cupy.array_equal(res[label, False], res[label, True]))
                    print(f"| {label} | {name} | {n} | {batch} | item {item:.4f}, chunked "
                          f"{chunk:.4f} | chunked / item {item / chunk:.2f}x | equal {equal} |",
                          flush=True)
                del calls, res


if __name__ == "__main__":
    main()
